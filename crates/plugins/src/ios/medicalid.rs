//! Medical ID (`mobile/Library/MedicalID/MedicalIDData.archive`), the keyed archive of the
//! Health app's `HKMedicalIDData`, read with `parse_plist` (the archive unwrapped), as iLEAPP's
//! `medicalID` reads it: one `health` phenomenon with every value the user entered — name,
//! date of birth, medical conditions, allergies, medications, blood type, organ donor, height
//! and weight with their units, language, when it was saved … (`HKMedicalIDData<name>Key`,
//! said by `<name>`) — and one `contacts` phenomenon per emergency contact (name, phone number,
//! relationship and label as stored: `_$!<Spouse>!$_`). Apple documents Medical ID as what the
//! user typed; nothing in it is verified.
//!
//! An emergency contact's members are found by name (a key holding `name`, `phone` or
//! `relationship`, not an identifier or label), since Apple's class is not documented.
//!
//! Identities: the Medical ID's name is the device owner's (`owner`, a display name); each
//! emergency contact is a person by phone number (`handle:<number>`, or the card holding it)
//! with their name: people close to the user.

use masf_agents::RuntimeError;
use masf_graph::{EntityKind, FactType, IdType};
use masf_tools::Invoked;
use serde_json::{Map, Value};

use super::plists::parse;
use super::{Draft, Run, file_name};
use crate::outputs::{in_json, json_leaves, json_scalar};

/// Triage of every Medical ID of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    run.each("MedicalIDData.archive", |find, path| one(run, find, path))
}

/// A key's name without Health's prefix and suffix (`HKMedicalIDDataNameKey` → `Name`).
fn short(key: &str) -> &str {
    let k = key.strip_prefix("HKMedicalIDData").unwrap_or(key);
    k.strip_suffix("Key").unwrap_or(k)
}

/// The first string member of `o` whose key holds `word` (not an identifier or a label).
fn member<'a>(o: &'a Map<String, Value>, word: &str) -> Option<(&'a str, &'a str)> {
    o.iter().find_map(|(k, v)| {
        let l = k.to_ascii_lowercase();
        (l.contains(word) && !l.contains("identifier") && !l.contains("label"))
            .then(|| {
                v.as_str()
                    .filter(|s| !s.is_empty())
                    .map(|s| (k.as_str(), s))
            })
            .flatten()
    })
}

fn one(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let Some((inv, v)) = parse(run, path)? else {
        return Ok(());
    };
    let data = v.get("root").unwrap_or(&v);
    let Some(o) = data.as_object() else {
        run.ctx.unparsed(
            path,
            "unexpected content: the archive's root is not an object of Medical ID values",
            Some(&inv.record.invocation_id),
        )?;
        return Ok(());
    };
    let file = file_name(path);
    let mut d = Draft::new("health", "Medical ID".to_string());
    d.fact(FactType::Path, Some(path), find);
    let mut said = Vec::new();
    let mut contacts: &[Value] = &[];
    for (key, x) in o {
        let name = short(key);
        if name == "EmergencyContacts" {
            contacts = x.as_array().map(Vec::as_slice).unwrap_or_default();
            continue;
        }
        // a measurement: its value and unit
        if let Some(value) = x.get("ValueKey") {
            let value = json_scalar(Some(value));
            let unit = x
                .get("UnitKey")
                .and_then(|u| u.get("HKUnitStringKey"))
                .and_then(Value::as_str);
            d.fact(FactType::Text, value.as_deref(), &inv);
            d.fact(FactType::Text, unit.map(in_json).as_deref(), &inv);
            said.push(format!(
                "{name} {}{}",
                value.as_deref().unwrap_or("?"),
                unit.map(|u| format!(" {u}")).unwrap_or_default()
            ));
            continue;
        }
        if name == "DateSaved" {
            let t = json_scalar(Some(x));
            d.time(
                t.as_deref(),
                crate::drafts::date_text(t.as_deref()),
                "Medical ID saved",
                &inv,
            );
        }
        let mut leaves = Vec::new();
        json_leaves(x, "", &mut leaves);
        let ft = if name == "Name" {
            FactType::Name
        } else {
            FactType::Text
        };
        let mut shown = Vec::new();
        for (k, val) in leaves {
            d.fact(ft, Some(&val), &inv);
            shown.push(if k.is_empty() {
                val
            } else {
                format!("{k} {val}")
            });
        }
        if !shown.is_empty() {
            said.push(format!("{name} {}", shown.join(" ")));
        }
    }
    d.interpretation = format!(
        "{file}: the Medical ID the user entered in the Health app (Apple does not verify it): {}; {} emergency contact(s).",
        said.join(", "),
        contacts.len()
    );
    run.record(d)?;
    if let Some(n) = o
        .get("HKMedicalIDDataNameKey")
        .and_then(Value::as_str)
        .filter(|n| !n.is_empty())
    {
        run.observe(
            "owner",
            EntityKind::Person,
            "device owner",
            IdType::DisplayName,
            n,
            &inv,
            format!("{n} is the name in this phone's Medical ID ({file}): the name its user gave as their own."),
        )?;
    }
    for (i, c) in contacts.iter().enumerate() {
        let Some(c) = c.as_object() else {
            continue;
        };
        let name = member(c, "name");
        let phone = member(c, "phone");
        let relationship = member(c, "relationship");
        let mut d = Draft::new(
            "contacts",
            format!(
                "Medical ID emergency contact: {}",
                name.or(phone).map(|(_, v)| v).unwrap_or("unnamed")
            ),
        );
        d.fact(FactType::Path, Some(path), find);
        d.fact(
            FactType::Name,
            name.map(|(_, v)| in_json(v)).as_deref(),
            &inv,
        );
        d.fact(
            FactType::Phone,
            phone.map(|(_, v)| in_json(v)).as_deref(),
            &inv,
        );
        d.fact(
            FactType::Text,
            relationship.map(|(_, v)| in_json(v)).as_deref(),
            &inv,
        );
        let mut rest = Vec::new();
        for (k, v) in c {
            if let Some(s) = json_scalar(Some(v)) {
                rest.push(format!("{k} {s}"));
            }
        }
        d.interpretation = format!(
            "emergency contact {} of {file}'s Medical ID: a person the user named to call in an emergency: {}.",
            i + 1,
            rest.join(", ")
        );
        run.record(d)?;
        if let Some((_, p)) = phone
            && let Some(context) = run.handle_context(p)
        {
            let label = name.map(|(_, n)| n).unwrap_or(p);
            run.observe(
                &context,
                EntityKind::Person,
                label,
                if p.contains('@') { IdType::Email } else { IdType::Phone },
                p,
                &inv,
                format!("{p} is the number of {label}, an emergency contact in this phone's Medical ID ({file})."),
            )?;
            if let Some((_, n)) = name {
                run.observe(
                    &context,
                    EntityKind::Person,
                    n,
                    IdType::DisplayName,
                    n,
                    &inv,
                    format!("{n} is the name of the Medical ID's emergency contact {p} ({file})."),
                )?;
            }
        }
    }
    Ok(())
}
