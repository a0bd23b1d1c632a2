//! The SIMs CommCenter keeps in its data preferences (`wireless/Library/Preferences/
//! com.apple.commcenter.data.plist`), iLEAPP's `simInfo` ("SIM - UUID", "SIM - Unique Label
//! Store"), read with `parse_plist`: what [`super::plists`] does not. That reader takes every
//! CommCenter plist for the device's identifiers alone (the `PersonalWallet` keys and
//! `PersonalitySlots` values as ICCIDs, every `mdn` as the owner's number, any `imsi`) in one
//! "Device identity" phenomenon; here each SIM, label and slot is its own phenomenon with every
//! value CommCenter keeps of it.
//!
//! | key | phenomenon | fields |
//! |---|---|---|
//! | `PersonalWallet` › `<SIM>` › `info` (each dictionary member of a SIM's entry; `info` on the stores seen) | one `device` per SIM ("CommCenter SIM <SIM>", or "… <member>" for a member other than `info`) | the SIM's key (an ICCID where it reads as one, else an identifier as stored), phone number (`mdn`) and as shown (`formatted-mdn`), type (`type`: `sim`, …), eSIM (`esim`), label id (`label-id`) and whether the label was confirmed (`label-id-confirmed`), `cb_id` and `cb_ver` (iLEAPP's CB_ID and CB_Ver: the carrier bundle's id and version is their likeliest reading, Apple documents neither), EAP-AKA (`eap_aka`), `no_src`, every other value of the member (an `imsi…` one as an IMSI); the label the label store gives its `label-id` (text and tag); the slot `PersonalitySlots` puts it in; `ts` (Unix seconds, or a plist date: plaso reads it as when the SIM was last used) |
//! | `unique-sim-label-store` › `<label id>` | one `device` per SIM label ("CommCenter SIM label <text>") | the label id, its text (`text`: the name the user sees — Primary, Business, a custom one), tag (`tag`, as stored), every other value; the SIMs whose `label-id` it is; `ts` (Unix seconds or a plist date) |
//! | `PersonalitySlots` (a dictionary or an array) | one `device` per entry ("CommCenter personality slot <slot>: <value>") | the value CommCenter keeps for the slot (an ICCID where it reads as one, as [`super::plists`] takes it; else as stored); the slot is the entry's key, or its position in the array |
//!
//! Every SIM the phone held stays in the wallet, not only the one in it at extraction (as in
//! `CellularUsage.db`, [`super::simhistory`]). Only `com.apple.commcenter.data.plist` in a
//! `Preferences` folder outside app containers is read. A file holding none of
//! `PersonalWallet`, `unique-sim-label-store` and `PersonalitySlots` (as dictionaries, the slots
//! also as an array) is noted, as is one that is no property list (by the call); an entry that
//! is no dictionary is passed over. Not read: `pw_ver` (the wallet's format version) and the
//! file's other keys. Data values are said by their size, never cited.
//!
//! Identities, as the existing CommCenter readers take them: a SIM key or slot value that is a
//! valid ICCID on `device` (the phone held that card), an `imsi…` value on `device`, each `mdn`
//! the device owner's phone number (`owner`: the user's number while the card was in the phone).
//! The run observes a value once, so [`super::plists`]' observation of the same one is not
//! repeated.

use masf_agents::RuntimeError;
use masf_graph::{EntityKind, FactType, IdType, TimeEncoding};
use masf_tools::Invoked;
use serde_json::{Map, Value};

use super::plists::parse;
use super::{Draft, Run, file_name};
use crate::drafts::{date_text, unix_seconds};
use crate::outputs::{in_json, json_leaves, json_scalar};

/// The file read.
const NAME: &str = "com.apple.commcenter.data.plist";

/// A wallet member's values read by name: (key, type, label).
const SIM_FIELDS: [(&str, FactType, &str); 10] = [
    ("mdn", FactType::Phone, "phone number (mdn)"),
    ("formatted-mdn", FactType::Text, "number as shown"),
    ("type", FactType::Text, "type"),
    ("esim", FactType::Text, "eSIM"),
    ("label-id", FactType::Identifier, "label id"),
    ("label-id-confirmed", FactType::Text, "label confirmed"),
    ("cb_id", FactType::Identifier, "cb_id"),
    ("cb_ver", FactType::Text, "cb_ver"),
    ("eap_aka", FactType::Text, "EAP-AKA"),
    ("no_src", FactType::Text, "no_src"),
];

/// A label's values read by name.
const LABEL_FIELDS: [(&str, FactType, &str); 2] = [
    ("text", FactType::Name, "text"),
    ("tag", FactType::Text, "tag"),
];

/// Triage of every CommCenter data plist of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    let Some((find, paths)) = run.find("com.apple.commcenter*.plist")? else {
        return Ok(());
    };
    for path in paths.iter().filter(|p| is_data_plist(p)) {
        one(run, &find, path)?;
    }
    Ok(())
}

/// Whether `path` is CommCenter's data plist: in a `Preferences` folder, not in an app's or
/// app group's container.
fn is_data_plist(path: &str) -> bool {
    file_name(path) == NAME && path.contains("/Preferences/") && !path.contains("/Containers/")
}

/// The time encoding of a `ts` as `parse_plist` prints it: Unix seconds, or a plist date.
fn ts_encoding(v: Option<&str>) -> Option<TimeEncoding> {
    let v = v?;
    if v.bytes().all(|b| b.is_ascii_digit() || b == b'.') {
        unix_seconds(Some(v))
    } else {
        date_text(Some(v))
    }
}

/// The scalar entries of `PersonalitySlots`: (slot, value as printed), the slot a dictionary's
/// key or an array's position (from 0).
fn slots(v: Option<&Value>) -> Vec<(String, String)> {
    match v {
        Some(Value::Object(o)) => o
            .iter()
            .filter_map(|(k, x)| Some((k.clone(), json_scalar(Some(x))?)))
            .collect(),
        Some(Value::Array(a)) => a
            .iter()
            .enumerate()
            .filter_map(|(i, x)| Some((format!("#{i}"), json_scalar(Some(x))?)))
            .collect(),
        _ => Vec::new(),
    }
}

fn one(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let Some((inv, v)) = parse(run, path)? else {
        return Ok(());
    };
    let wallet = v.get("PersonalWallet").and_then(Value::as_object);
    let labels = v.get("unique-sim-label-store").and_then(Value::as_object);
    let slot_value = v
        .get("PersonalitySlots")
        .filter(|s| s.is_object() || s.is_array());
    if wallet.is_none() && labels.is_none() && slot_value.is_none() {
        run.ctx.unparsed(
            path,
            "could not parse CommCenter's SIM data because this com.apple.commcenter.data.plist holds none of PersonalWallet, unique-sim-label-store (dictionaries) and PersonalitySlots (a dictionary or an array)",
            Some(&inv.record.invocation_id),
        )?;
        return Ok(());
    }
    let slot_list = slots(slot_value);
    let empty = Map::new();
    let labels = labels.unwrap_or(&empty);
    if let Some(wallet) = wallet {
        for (key, entry) in wallet {
            let Some(entry) = entry.as_object() else {
                continue;
            };
            let members: Vec<(&str, &Map<String, Value>)> = entry
                .iter()
                .filter_map(|(m, x)| Some((m.as_str(), x.as_object()?)))
                .collect();
            if members.is_empty() {
                // the SIM's values directly under its key
                sim(
                    run,
                    (find, &inv),
                    path,
                    key,
                    None,
                    entry,
                    labels,
                    &slot_list,
                )?;
            }
            for (member, m) in members {
                sim(
                    run,
                    (find, &inv),
                    path,
                    key,
                    Some(member),
                    m,
                    labels,
                    &slot_list,
                )?;
            }
        }
    }
    for (id, label) in labels {
        if let Some(label) = label.as_object() {
            sim_label(run, (find, &inv), path, id, label, wallet)?;
        }
    }
    for (slot, value) in &slot_list {
        slot_entry(run, (find, &inv), path, slot, value)?;
    }
    Ok(())
}

/// The other values of an object (those `known` does not name), as `(key path, value)`:
/// data said by size.
fn others(o: &Map<String, Value>, known: &[&str]) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (k, x) in o {
        if known.contains(&k.as_str()) {
            continue;
        }
        let mut leaves = Vec::new();
        json_leaves(x, k, &mut leaves);
        out.extend(leaves);
    }
    out
}

/// Adds the other values to `d` (an `imsi…` one as an IMSI) and their words to `said`;
/// returns the IMSIs.
fn add_others(
    d: &mut Draft,
    said: &mut Vec<String>,
    others: Vec<(String, String)>,
    inv: &Invoked,
) -> Vec<String> {
    let mut imsis = Vec::new();
    for (key, val) in others {
        if key.ends_with("$data_hex") {
            said.push(format!("{key}: {} bytes of data", val.len() / 2));
            continue;
        }
        let leaf = key.rsplit('.').next().unwrap_or(&key).to_ascii_lowercase();
        if leaf.contains("imsi") {
            d.fact(FactType::Imsi, Some(&val), inv);
            said.push(format!("IMSI {val} ({key})"));
            imsis.push(val);
        } else {
            d.fact(FactType::Text, Some(&val), inv);
            said.push(format!("{key} {val}"));
        }
    }
    imsis
}

#[allow(clippy::too_many_arguments)]
fn sim(
    run: &Run<'_, '_>,
    (find, inv): (&Invoked, &Invoked),
    path: &str,
    key: &str,
    member: Option<&str>,
    m: &Map<String, Value>,
    labels: &Map<String, Value>,
    slots: &[(String, String)],
) -> Result<(), RuntimeError> {
    let file = file_name(path);
    let key_out = in_json(key);
    let iccid = run.normalised(IdType::Iccid, key).is_some();
    let title = match member {
        Some(mem) if mem != "info" => format!("CommCenter SIM {key_out} {}", in_json(mem)),
        _ => format!("CommCenter SIM {key_out}"),
    };
    let mut d = Draft::new("device", title);
    d.fact(FactType::Path, Some(path), find);
    d.fact(
        if iccid {
            FactType::Iccid
        } else {
            FactType::Identifier
        },
        Some(&key_out),
        inv,
    );
    let obj = Value::Object(m.clone());
    let mut said = d.json_fields(&obj, inv, &SIM_FIELDS);
    let mut known: Vec<&str> = SIM_FIELDS.iter().map(|(k, ..)| *k).collect();
    known.push("ts");
    let imsis = add_others(&mut d, &mut said, others(m, &known), inv);
    if let Some(label) = m
        .get("label-id")
        .and_then(Value::as_str)
        .and_then(|l| labels.get(l))
    {
        let text = json_scalar(label.get("text"));
        let tag = json_scalar(label.get("tag"));
        d.fact(FactType::Name, text.as_deref(), inv);
        said.push(format!(
            "labelled {} (tag {}; unique-sim-label-store)",
            text.as_deref().unwrap_or("without a text"),
            tag.as_deref().unwrap_or("none"),
        ));
    }
    for (slot, _) in slots.iter().filter(|(_, v)| *v == key_out) {
        said.push(format!("PersonalitySlots puts it in slot {slot}"));
    }
    let ts = json_scalar(m.get("ts"));
    let when = match ts_encoding(ts.as_deref()) {
        Some(enc) => {
            d.time(
                ts.as_deref(),
                Some(enc),
                "CommCenter SIM entry time (ts)",
                inv,
            );
            format!(
                "its ts is {} (plaso reads it as when the SIM was last used)",
                ts.as_deref().unwrap_or("?")
            )
        }
        None => "no ts (no time)".to_string(),
    };
    d.interpretation = format!(
        "PersonalWallet › {key_out}{} of {file}: a SIM CommCenter kept, {} {key_out} ({}); {when}. Every SIM the phone held stays in the wallet, not only the one in it at extraction.",
        member
            .map(|m| format!(" › {}", in_json(m)))
            .unwrap_or_default(),
        if iccid { "ICCID" } else { "key (not an ICCID)" },
        if said.is_empty() {
            "no other value".to_string()
        } else {
            said.join("; ")
        },
    );
    run.record(d)?;
    if iccid {
        run.observe(
            "device",
            EntityKind::Device,
            "this device",
            IdType::Iccid,
            key,
            inv,
            format!(
                "{key} is the ICCID of a SIM this phone held (CommCenter's PersonalWallet, {file})."
            ),
        )?;
    }
    for imsi in &imsis {
        run.observe(
            "device",
            EntityKind::Device,
            "this device",
            IdType::Imsi,
            imsi,
            inv,
            format!("{imsi} is the IMSI of SIM {key_out} this phone held (CommCenter's PersonalWallet, {file})."),
        )?;
    }
    if let Some(mdn) = m.get("mdn").and_then(Value::as_str) {
        run.observe(
            "owner",
            EntityKind::Person,
            "device owner",
            IdType::Phone,
            mdn,
            inv,
            format!(
                "{mdn} is the phone number (mdn) of SIM {key_out} this phone held ({file}): the device user's number while the card was in it."
            ),
        )?;
    }
    Ok(())
}

fn sim_label(
    run: &Run<'_, '_>,
    (find, inv): (&Invoked, &Invoked),
    path: &str,
    id: &str,
    label: &Map<String, Value>,
    wallet: Option<&Map<String, Value>>,
) -> Result<(), RuntimeError> {
    let id_out = in_json(id);
    let text = json_scalar(label.get("text"));
    let mut d = Draft::new(
        "device",
        format!(
            "CommCenter SIM label {}",
            text.as_deref().unwrap_or(id_out.as_str())
        ),
    );
    d.fact(FactType::Path, Some(path), find);
    d.fact(FactType::Identifier, Some(&id_out), inv);
    let obj = Value::Object(label.clone());
    let mut said = d.json_fields(&obj, inv, &LABEL_FIELDS);
    add_others(
        &mut d,
        &mut said,
        others(label, &["text", "tag", "ts"]),
        inv,
    );
    // the SIMs whose label this is
    let mut carriers: Vec<String> = Vec::new();
    for (key, entry) in wallet.into_iter().flatten() {
        let uses = |x: &Value| x.get("label-id").and_then(Value::as_str) == Some(id);
        let holds = uses(entry)
            || entry
                .as_object()
                .is_some_and(|o| o.values().any(|x| x.is_object() && uses(x)));
        if holds {
            carriers.push(in_json(key));
        }
    }
    let ts = json_scalar(label.get("ts"));
    let enc = ts_encoding(ts.as_deref());
    d.time(ts.as_deref(), enc, "CommCenter SIM label time (ts)", inv);
    d.interpretation = format!(
        "unique-sim-label-store › {id_out} of {}: a label CommCenter keeps for a SIM, the name the user sees for the line ({}); {}; {}.",
        file_name(path),
        if said.is_empty() {
            "no value".to_string()
        } else {
            said.join("; ")
        },
        if carriers.is_empty() {
            "no SIM of the wallet carries it".to_string()
        } else {
            format!("the wallet's SIM {} carry it", carriers.join(", "))
        },
        match (enc, ts.as_deref()) {
            (Some(_), Some(t)) => format!("its ts is {t}"),
            _ => "no ts (no time)".to_string(),
        },
    );
    run.record(d)
}

fn slot_entry(
    run: &Run<'_, '_>,
    (find, inv): (&Invoked, &Invoked),
    path: &str,
    slot: &str,
    value: &str,
) -> Result<(), RuntimeError> {
    let iccid = run.normalised(IdType::Iccid, value).is_some();
    let mut d = Draft::new(
        "device",
        format!("CommCenter personality slot {slot}: {value}"),
    );
    d.fact(FactType::Path, Some(path), find);
    d.fact(
        if iccid {
            FactType::Iccid
        } else {
            FactType::Identifier
        },
        Some(value),
        inv,
    );
    d.interpretation = format!(
        "PersonalitySlots of {}: slot {slot} (the entry's {}) holds {} {value}, the SIM (personality) CommCenter assigns to that slot.",
        file_name(path),
        if slot.starts_with('#') {
            "position in the array, from 0"
        } else {
            "key"
        },
        if iccid {
            "ICCID"
        } else {
            "the value (not an ICCID)"
        },
    );
    run.record(d)?;
    if iccid {
        run.observe(
            "device",
            EntityKind::Device,
            "this device",
            IdType::Iccid,
            value,
            inv,
            format!(
                "{value} is the ICCID CommCenter's PersonalitySlots assigns to slot {slot} ({}).",
                file_name(path)
            ),
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn data_plist_paths() {
        assert!(is_data_plist(
            "/private/var/wireless/Library/Preferences/com.apple.commcenter.data.plist"
        ));
        assert!(!is_data_plist(
            "/private/var/wireless/Library/Preferences/com.apple.commcenter.plist"
        ));
        assert!(!is_data_plist(
            "/private/var/mobile/Containers/Data/Application/X/Library/Preferences/com.apple.commcenter.data.plist"
        ));
    }

    #[test]
    fn slots_of_dictionary_and_array() {
        let d = serde_json::json!({"1": "8941", "2": 7});
        let pair = |a: &str, b: &str| (a.to_string(), b.to_string());
        assert_eq!(slots(Some(&d)), vec![pair("1", "8941"), pair("2", "7")]);
        let a = serde_json::json!(["x", {"y": 1}]);
        assert_eq!(slots(Some(&a)), vec![pair("#0", "x")]);
        assert_eq!(
            ts_encoding(Some("1684326382")),
            Some(TimeEncoding::UnixSeconds)
        );
        assert_eq!(ts_encoding(Some("0")), None);
    }
}
