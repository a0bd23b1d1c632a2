//! Uber, the rider app for Android (`com.ubercab`), ALEAPP's `uber` (`uber_account`,
//! `uber_shortcuts`, `uber_locations`, `uber_city`, `uber_payment_profiles`, `uber_sessions`,
//! `uber_telemetry`): the rider's account, the destinations the app suggested, the places it
//! cached, the city it served, the payment methods, the last session and the app's queued
//! telemetry.
//!
//! | file | phenomenon | fields |
//! |---|---|---|
//! | `files/base-key-value-store/realtime-demo_KEY_RIDER` | one `accounts` ("Uber rider account <e-mail>") | uuid and `uber:<uuid>`, first and last name, e-mail, mobile country and digits, mobile confirmation status, admin, no password (a flag as stored, never a password), picture URL; record modified and originated (`meta`, Unix ms) |
//! | `…/ShortcutsCache_CACHED_SHORTCUTS_MAP_KEY` | one `locations` per destination suggested ("Uber suggested destination <title>") | title, subtitle, address lines, full address, latitude, longitude, categories, accelerator type, provider, locale, shortcut uuid, destination id, the latitude and longitude the suggestion was made from, the map cell key; suggested (`timestamp`, Unix ms) |
//! | `…/realtime-demo_KEY_TARGET_LOCATION_SYNCED` | one `locations` ("Uber target location <latitude>, <longitude>") | latitude, longitude (no time) |
//! | `files/simplestore/*/CACHED_UBER_LOCATION` | one `locations` ("Uber cached location <latitude>, <longitude>") | latitude and longitude (fields 2 → 1 and 2 → 2, fixed32 floats, as ALEAPP reads them), each as stored and as the float it encodes, the other top-level fields as stored; cached (field 1 → 1, Unix ms) |
//! | `…/realtime-demo_KEY_CITY` | one `locations` ("Uber city <name>") | city id, name, country, currency, time zone, default vehicle view, emergency location sharing; record modified and originated (Unix ms) |
//! | `…/payments_KEY_PROFILES` | one `accounts` per payment profile ("Uber payment profile <token type> <display name>") | profile uuid, account name, token display name (what the app shows: a card's last digits, never its number), status, token type, use case, authentication type, has balance, client uuid; updated (ISO 8601) |
//! | `…/session_LAST_SESSION` | one `app_usage` ("Uber session <id>") | session id, backgrounded (`sessionBackgroundedTimeNanos` as stored: not read as a time, ALEAPP could not tell its clock); started (Unix ms) |
//! | `…/realtime-demo_KEY_CLIENT_STATUS` | one `app_usage` ("Uber client status <status>") | status, description, last request job uuid; record modified and originated (Unix ms) |
//! | `databases/ur_message.db`: `message` | one `app_usage` per queued telemetry message ("Uber telemetry message <type> <uuid>") | message type, uuid, group, cold launch, status, and from its `content` JSON (`contextual_data.prod_meta`, read with `json_extract` in the query) the app version, type and installer, the device's maker, model, OS version and build, locale, device and installation ids, the session's `uber:<user uuid>` and id, city and city id, carrier MCC and MNC, network type; created and created by the NTP clock (Unix ms) |
//!
//! The key-value store files are one header byte then JSON (ALEAPP found 0x2d on every file of
//! its sample): they are read with `read_json` and its `skip_header`, by JSON pointer — only
//! the members above are printed (the tool redacts secret-named ones anyway); the suggestion
//! cache, which holds nothing but destinations, is read whole. A suggested destination is one
//! the app offered the rider near where the suggestion was triggered: it does not say the rider
//! chose it or went there. The target location and the cached location are positions the app
//! kept (the cached one with its time), not a track. The city is the service area the app last
//! loaded. A telemetry message is one the app queued for upload: its device and session details
//! are the phone's and the account's at that time.
//!
//! Not read: `shared_prefs/oauth_tokens.xml` and `unified_session_swap_store.xml` (the access
//! and refresh tokens sit beside the session ids and expiry times ALEAPP reports, and
//! `read_xml` prints the whole file), the `simplestore` files written as UTF-16 text
//! (`home_screen_layout_simple_store_key`, `user_uuid`, `language_detected_store_key`: no tool
//! reads UTF-16 JSON), the image cache (`cache/image_cache`: images without their URLs) and the
//! settings files of ALEAPP's `uber_settings` (consents and switches as stored; the push
//! registration id is a credential).
//!
//! Schema drift: every member is read where present (older app versions lack `meta`, a
//! suggestion its trigger location or subtitle, a cached location its time); a file holding
//! none of the members that make it what it is is noted, as is one `read_json` or
//! `read_protobuf` cannot read (cut, or no header then JSON). `ur_message.db` is read from its
//! `message` table with `content` (every other column where present; older versions lack
//! `createdAtNtp` and `cold_launch_uuid`); a store without it is noted.
//!
//! Identities: the rider record is the device's user's account (`owner`): `uber:<uuid>`
//! (qualified by `read_json`), the e-mail, and the mobile number when it is international or
//! its country (`mobileCountryIso2`) is the source's numbering region (the digits are national:
//! read under another region they would name another number). A telemetry message's session
//! user is the same account, observed as `uber:<uuid>` (computed in the query). Names are facts.

use std::collections::{BTreeMap, BTreeSet};

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{FactType, IdType};
use masf_tools::Invoked;
use serde_json::{Value, json};

use super::Located;
use crate::calls::{Tables, call_or_note, json_at};
use crate::drafts::{Draft, Encoding, RowPhenomena, date_text, record_draft, unix_millis};
use crate::identity::{args_on, artefact_name, observe_owner_ids, schema_on};
use crate::outputs::{json_scalar, raw};

/// The app's data folder name.
pub const PACKAGE: &str = "com.ubercab";

const RIDER: &str = "realtime-demo_KEY_RIDER";
const SHORTCUTS: &str = "ShortcutsCache_CACHED_SHORTCUTS_MAP_KEY";
const TARGET: &str = "realtime-demo_KEY_TARGET_LOCATION_SYNCED";
const CITY: &str = "realtime-demo_KEY_CITY";
const PAYMENTS: &str = "payments_KEY_PROFILES";
const SESSION: &str = "session_LAST_SESSION";
const STATUS: &str = "realtime-demo_KEY_CLIENT_STATUS";
const CACHED: &str = "CACHED_UBER_LOCATION";
const TELEMETRY: &str = "ur_message.db";

/// The file names read (each only in its folder of the app's data, [`is_path`]).
pub const NAMES: &[&str] = &[
    RIDER, SHORTCUTS, TARGET, CITY, PAYMENTS, SESSION, STATUS, CACHED, TELEMETRY,
];

/// Members of a payment profile read (`read_json` pointers per profile).
const PROFILE: &[(&str, FactType, &str)] = &[
    ("uuid", FactType::Identifier, "profile uuid"),
    ("accountName", FactType::Text, "account name"),
    ("tokenDisplayName", FactType::Text, "shown as"),
    ("status", FactType::Text, "status"),
    ("tokenType", FactType::Text, "token type"),
    ("useCase", FactType::Text, "use case"),
    ("authenticationType", FactType::Text, "authentication type"),
    ("hasBalance", FactType::Text, "has balance"),
    ("clientUuid", FactType::Identifier, "client uuid"),
    ("updatedAt", FactType::Timestamp, "updated"),
];

/// Profiles per `read_json` call (its 64 pointers, [`PROFILE`]'s members each).
const PROFILES_PER_CALL: usize = 6;

/// Most payment profiles read from one file.
const PROFILES_MAX: usize = 600;

/// Whether `name` is one of the files read.
pub fn is_name(name: &str) -> bool {
    NAMES.contains(&name)
}

/// Whether `path` is one of the files read, in its folder of the app's data.
pub fn is_path(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    let dir = match name {
        CACHED => "/files/simplestore/",
        TELEMETRY => "/databases/",
        n if is_name(n) => "/files/base-key-value-store/",
        _ => return false,
    };
    path.contains(&format!("/{PACKAGE}{dir}"))
}

/// Whether `l` is one of the files read.
pub fn is_file(l: &Located) -> bool {
    is_path(&l.path)
}

/// The category of the file named `name` (one of [`NAMES`]).
pub fn category(name: &str) -> &'static str {
    match name {
        RIDER | PAYMENTS => "accounts",
        SESSION | STATUS | TELEMETRY => "app_usage",
        _ => "locations",
    }
}

/// One of the app's files.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    match l.name() {
        RIDER => rider(ctx, l),
        SHORTCUTS => shortcuts(ctx, l),
        TARGET => single(ctx, l, &TARGET_SPEC).map(|_| ()),
        CITY => single(ctx, l, &CITY_SPEC).map(|_| ()),
        PAYMENTS => payments(ctx, l),
        SESSION => single(ctx, l, &SESSION_SPEC).map(|_| ()),
        STATUS => single(ctx, l, &STATUS_SPEC).map(|_| ()),
        CACHED => cached_location(ctx, l),
        TELEMETRY => telemetry(ctx, l),
        _ => Ok(()),
    }
}

/// The parts of a `read_json` output: each `# at <pointer>` line's pointer (`(root)` for the
/// whole document) with the JSON printed after it, `None` when the file lacks it.
fn parts(text: &str) -> BTreeMap<String, Option<Value>> {
    let mut out = BTreeMap::new();
    let mut current: Option<(String, String)> = None;
    let flush = |c: Option<(String, String)>, out: &mut BTreeMap<String, Option<Value>>| {
        if let Some((p, body)) = c {
            out.insert(p, serde_json::from_str(&body).ok());
        }
    };
    for line in text.lines() {
        if line.starts_with("# json ") {
            continue;
        }
        if let Some(rest) = line.strip_prefix("# at ") {
            flush(current.take(), &mut out);
            match rest.strip_suffix(": not present") {
                Some(p) => {
                    out.insert(p.to_string(), None);
                }
                None => current = Some((rest.to_string(), String::new())),
            }
        } else if let Some((_, body)) = current.as_mut() {
            body.push_str(line);
            body.push('\n');
        }
    }
    flush(current, &mut out);
    out
}

/// A file read by pointer: the call, and each pointer's value (`None` where absent).
type Parts = (Invoked, BTreeMap<String, Option<Value>>);

/// A record's member by pointer, as text ([`scalar`]).
type Member<'a> = dyn Fn(&str) -> Option<String> + 'a;

/// Reads a key-value store file with `read_json` (its header byte skipped): the parts at
/// `pointers` (the whole document when there are none), member `uuid` qualified as `uber:`
/// when `qualify`. `None` when the call failed (noted).
fn kv(
    ctx: &AgentCtx<'_>,
    l: &Located,
    pointers: &[String],
    qualify: bool,
) -> Result<Option<Parts>, RuntimeError> {
    let mut args = json!({"path": l.path, "skip_header": true});
    if !pointers.is_empty() {
        args["pointers"] = json!(pointers);
    }
    if qualify {
        args["qualify"] = json!({"uuid": "uber"});
    }
    let Some(inv) = call_or_note(
        ctx,
        &artefact_name(&l.tree, &l.path),
        "read_json",
        args_on(&l.tree, args),
    )?
    else {
        return Ok(None);
    };
    let p = parts(&inv.output.text);
    Ok(Some((inv, p)))
}

/// The scalar at `pointer` of `parts` as the output prints it (non-blank).
fn scalar(parts: &BTreeMap<String, Option<Value>>, pointer: &str) -> Option<String> {
    json_scalar(parts.get(pointer)?.as_ref()).filter(|v| !v.trim().is_empty())
}

/// The scalar at `path` of `v` as the output prints it (non-blank).
fn at(v: &Value, path: &[&str]) -> Option<String> {
    json_scalar(path.iter().try_fold(v, |n, k| n.get(k))).filter(|s| !s.trim().is_empty())
}

/// A key-value store file read as one record: the members (JSON pointers) it is read for.
struct Single<'a> {
    /// What the file is ("Uber's rider record").
    what: &'a str,
    category: &'static str,
    /// The title from the members ([`scalar`] of a pointer).
    title: fn(&Member) -> String,
    /// What the record says, for the interpretation.
    meaning: &'a str,
    /// `(pointer, type, label)`.
    fields: &'a [(&'a str, FactType, &'a str)],
    /// `(pointer, description, encoding)`.
    times: &'a [(&'a str, &'a str, Encoding)],
    /// Pointers one of which the file must hold to be this record (else noted).
    key: &'a [&'a str],
    /// Whether `uuid` is qualified `uber:` (`/uuid.qualified`).
    qualify: bool,
}

const RIDER_SPEC: Single<'static> = Single {
    what: "Uber's rider record",
    category: "accounts",
    title: |s| {
        format!(
            "Uber rider account {}",
            s("/email")
                .or_else(|| s("/uuid"))
                .unwrap_or_else(|| "?".into())
        )
    },
    meaning: "the rider account signed in to the Uber app, as the app cached it (hasNoPassword is a flag as stored, no password is kept)",
    fields: &[
        ("/uuid", FactType::Identifier, "uuid"),
        ("/uuid.qualified", FactType::Account, "account"),
        ("/firstName", FactType::Name, "first name"),
        ("/lastName", FactType::Name, "last name"),
        ("/email", FactType::Email, "e-mail"),
        ("/mobileCountryIso2", FactType::Text, "mobile country"),
        ("/mobileDigits", FactType::Phone, "mobile digits"),
        (
            "/hasConfirmedMobileStatus",
            FactType::Text,
            "mobile confirmation",
        ),
        ("/isAdmin", FactType::Text, "admin"),
        ("/hasNoPassword", FactType::Text, "no password"),
        ("/pictureUrl", FactType::Url, "picture"),
    ],
    times: &[
        (
            "/meta/lastModifiedTimeMs",
            "Uber rider record modified",
            unix_millis,
        ),
        (
            "/meta/originTimeMs",
            "Uber rider record originated",
            unix_millis,
        ),
    ],
    key: &["/uuid", "/email"],
    qualify: true,
};

const TARGET_SPEC: Single<'static> = Single {
    what: "Uber's synced target location",
    category: "locations",
    title: |s| {
        format!(
            "Uber target location {}, {}",
            s("/latitude").unwrap_or_else(|| "?".into()),
            s("/longitude").unwrap_or_else(|| "?".into())
        )
    },
    meaning: "a position the Uber app synced as its target location (degrees; the file keeps no time)",
    fields: &[
        ("/latitude", FactType::Text, "latitude"),
        ("/longitude", FactType::Text, "longitude"),
    ],
    times: &[],
    key: &["/latitude", "/longitude"],
    qualify: false,
};

const CITY_SPEC: Single<'static> = Single {
    what: "Uber's city record",
    category: "locations",
    title: |s| {
        format!(
            "Uber city {}",
            s("/cityName")
                .or_else(|| s("/cityId"))
                .unwrap_or_else(|| "?".into())
        )
    },
    meaning: "the service area the Uber app last loaded its products for (where the app was used, at the city's scale)",
    fields: &[
        ("/cityId", FactType::Identifier, "city id"),
        ("/cityName", FactType::Text, "city"),
        ("/countryIso2", FactType::Text, "country"),
        ("/currencyCode", FactType::Text, "currency"),
        ("/timezone", FactType::Text, "time zone"),
        (
            "/defaultVehicleViewId",
            FactType::Identifier,
            "default vehicle view",
        ),
        (
            "/isEmergencyLocationSharingAvailable",
            FactType::Text,
            "emergency location sharing available",
        ),
    ],
    times: &[
        (
            "/meta/lastModifiedTimeMs",
            "Uber city record modified",
            unix_millis,
        ),
        (
            "/meta/originTimeMs",
            "Uber city record originated",
            unix_millis,
        ),
    ],
    key: &["/cityId", "/cityName"],
    qualify: false,
};

const SESSION_SPEC: Single<'static> = Single {
    what: "Uber's last session",
    category: "app_usage",
    title: |s| {
        format!(
            "Uber session {}",
            s("/sessionId").unwrap_or_else(|| "?".into())
        )
    },
    meaning: "the last session of the Uber app (sessionBackgroundedTimeNanos kept as stored: its clock is not known, so it is no time)",
    fields: &[
        ("/sessionId", FactType::Identifier, "session id"),
        (
            "/sessionBackgroundedTimeNanos",
            FactType::Text,
            "backgrounded (ns, as stored)",
        ),
    ],
    times: &[("/sessionStartTimeMs", "Uber session started", unix_millis)],
    key: &["/sessionId", "/sessionStartTimeMs"],
    qualify: false,
};

const STATUS_SPEC: Single<'static> = Single {
    what: "Uber's client status",
    category: "app_usage",
    title: |s| {
        format!(
            "Uber client status {}",
            s("/status").unwrap_or_else(|| "?".into())
        )
    },
    meaning: "the rider client's status as the Uber app last recorded it (values as stored)",
    fields: &[
        ("/status", FactType::Text, "status"),
        ("/statusDescription", FactType::Text, "description"),
        (
            "/lastRequestJobUUID",
            FactType::Identifier,
            "last request job",
        ),
    ],
    times: &[
        (
            "/meta/lastModifiedTimeMs",
            "Uber client status modified",
            unix_millis,
        ),
        (
            "/meta/originTimeMs",
            "Uber client status originated",
            unix_millis,
        ),
    ],
    key: &["/status", "/lastRequestJobUUID"],
    qualify: false,
};

/// A record file: its members by pointer, one phenomenon; the call and parts for identities.
fn single(
    ctx: &AgentCtx<'_>,
    l: &Located,
    spec: &Single<'_>,
) -> Result<Option<Parts>, RuntimeError> {
    let pointers: Vec<String> = spec
        .fields
        .iter()
        .map(|f| f.0)
        .chain(spec.times.iter().map(|t| t.0))
        .map(str::to_string)
        .collect();
    let Some((inv, parts)) = kv(ctx, l, &pointers, spec.qualify)? else {
        return Ok(None);
    };
    if spec.key.iter().all(|k| scalar(&parts, k).is_none()) {
        ctx.unparsed(
            &artefact_name(&l.tree, &l.path),
            &format!(
                "could not parse {} because the file holds none of {}",
                spec.what,
                spec.key.join(", ")
            ),
            Some(&inv.record.invocation_id),
        )?;
        return Ok(None);
    }
    let s = |p: &str| scalar(&parts, p);
    let mut d = Draft::new(spec.category, (spec.title)(&s));
    d.fact(FactType::Path, Some(&l.path), &l.found);
    let mut said = Vec::new();
    for (p, ft, label) in spec.fields {
        if let Some(v) = s(p) {
            d.fact(*ft, Some(&v), &inv);
            said.push(format!("{label} {v}"));
        }
    }
    for (p, what, enc) in spec.times {
        let v = s(p);
        d.time(v.as_deref(), enc(v.as_deref()), what, &inv);
    }
    d.interpretation = format!(
        "{} ({}): {}: {}; times are Unix milliseconds.",
        l.name(),
        spec.what,
        spec.meaning,
        if said.is_empty() {
            "no member read".to_string()
        } else {
            said.join(", ")
        }
    );
    record_draft(ctx, d)?;
    Ok(Some((inv, parts)))
}

/// `realtime-demo_KEY_RIDER`: the account, then its identifiers on the owner.
fn rider(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some((inv, parts)) = single(ctx, l, &RIDER_SPEC)? else {
        return Ok(());
    };
    let s = |p: &str| scalar(&parts, p);
    // national digits are a number only under their own country's region
    let phone = s("/mobileDigits").filter(|digits| {
        digits.starts_with('+')
            || match (ctx.phone_region(), s("/mobileCountryIso2")) {
                (Some(r), Some(iso)) => r.code().eq_ignore_ascii_case(&iso),
                _ => false,
            }
    });
    observe_owner_ids(
        ctx,
        &inv,
        vec![
            (
                s("/uuid.qualified"),
                IdType::AccountId,
                "The Uber rider uuid",
            ),
            (s("/email"), IdType::Email, "The e-mail address"),
            (phone, IdType::Phone, "The mobile number"),
        ],
        &|what| {
            format!(
                "{what} of the Uber rider account signed in to the app ({}), the device's user.",
                l.name()
            )
        },
    )
}

/// `ShortcutsCache_CACHED_SHORTCUTS_MAP_KEY`: one phenomenon per destination suggested.
fn shortcuts(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some((inv, parts)) = kv(ctx, l, &[], false)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    let Some(cells) = parts
        .get("(root)")
        .and_then(Option::as_ref)
        .and_then(Value::as_object)
    else {
        ctx.unparsed(
            &name,
            "could not parse Uber's suggested destinations because the file is not a JSON object keyed by map cell",
            Some(&inv.record.invocation_id),
        )?;
        return Ok(());
    };
    for (cell, entry) in cells {
        let Some(list) = entry.get("shortcuts").and_then(Value::as_array) else {
            continue;
        };
        let stamp = at(entry, &["timestamp"]);
        let trigger = (
            at(entry, &["triggerLocation", "latitude"]),
            at(entry, &["triggerLocation", "longitude"]),
        );
        let cell_cited = crate::outputs::in_json(cell);
        for s in list.iter().filter(|s| s.is_object()) {
            let title = at(s, &["title"])
                .or_else(|| at(s, &["destination", "addressLine1"]))
                .or_else(|| at(s, &["uuid"]))
                .unwrap_or_else(|| "?".into());
            let mut d = Draft::new("locations", format!("Uber suggested destination {title}"));
            d.fact(FactType::Path, Some(&l.path), &l.found);
            let mut said = Vec::new();
            for (path, ft, label) in [
                (&["title"][..], FactType::Text, "title"),
                (&["subtitle"], FactType::Text, "subtitle"),
                (&["destination", "addressLine1"], FactType::Text, "address"),
                (
                    &["destination", "addressLine2"],
                    FactType::Text,
                    "address line 2",
                ),
                (
                    &["destination", "fullAddress"],
                    FactType::Text,
                    "full address",
                ),
                (
                    &["destination", "coordinate", "latitude"],
                    FactType::Text,
                    "latitude",
                ),
                (
                    &["destination", "coordinate", "longitude"],
                    FactType::Text,
                    "longitude",
                ),
                (&["acceleratorType"], FactType::Text, "accelerator type"),
                (&["destination", "provider"], FactType::Text, "provider"),
                (&["destination", "locale"], FactType::Text, "locale"),
                (&["uuid"], FactType::Identifier, "shortcut uuid"),
                (
                    &["destination", "id"],
                    FactType::Identifier,
                    "destination id",
                ),
            ] {
                if let Some(v) = at(s, path) {
                    d.fact(ft, Some(&v), &inv);
                    said.push(format!("{label} {v}"));
                }
            }
            for c in s
                .pointer("/destination/categories")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                if let Some(v) = json_scalar(Some(c)).filter(|v| !v.trim().is_empty()) {
                    d.fact(FactType::Text, Some(&v), &inv);
                    said.push(format!("category {v}"));
                }
            }
            if let (Some(lat), Some(lng)) = (&trigger.0, &trigger.1) {
                d.fact(FactType::Text, Some(lat), &inv);
                d.fact(FactType::Text, Some(lng), &inv);
                said.push(format!("suggested near {lat}, {lng}"));
            }
            d.fact(FactType::Identifier, Some(&cell_cited), &inv);
            d.time(
                stamp.as_deref(),
                unix_millis(stamp.as_deref()),
                "Uber destinations suggested",
                &inv,
            );
            d.interpretation = format!(
                "{} (map cell {cell_cited}): a destination the Uber app suggested to the rider ({}); a suggestion offered, not proof that the rider chose the place or went there; the cell's timestamp is Unix milliseconds.",
                l.name(),
                said.join(", ")
            );
            record_draft(ctx, d)?;
        }
    }
    Ok(())
}

/// `payments_KEY_PROFILES`: one phenomenon per profile, read [`PROFILES_PER_CALL`] at a time.
fn payments(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let name = artefact_name(&l.tree, &l.path);
    let mut first = 0usize;
    loop {
        let pointers: Vec<String> = (first..first + PROFILES_PER_CALL)
            .flat_map(|i| PROFILE.iter().map(move |(k, _, _)| format!("/{i}/{k}")))
            .collect();
        let Some((inv, parts)) = kv(ctx, l, &pointers, false)? else {
            return Ok(());
        };
        let mut last_present = false;
        for i in first..first + PROFILES_PER_CALL {
            let s = |k: &str| scalar(&parts, &format!("/{i}/{k}"));
            last_present = PROFILE.iter().any(|(k, _, _)| s(k).is_some());
            if !last_present {
                continue;
            }
            let mut d = Draft::new(
                "accounts",
                format!(
                    "Uber payment profile {} {}",
                    s("tokenType").unwrap_or_else(|| "?".into()),
                    s("tokenDisplayName")
                        .or_else(|| s("uuid"))
                        .unwrap_or_else(|| "?".into())
                ),
            );
            d.fact(FactType::Path, Some(&l.path), &l.found);
            let mut said = Vec::new();
            for (k, ft, label) in PROFILE {
                if *ft == FactType::Timestamp {
                    continue;
                }
                if let Some(v) = s(k) {
                    d.fact(*ft, Some(&v), &inv);
                    said.push(format!("{label} {v}"));
                }
            }
            let updated = s("updatedAt");
            d.time(
                updated.as_deref(),
                date_text(updated.as_deref()),
                "Uber payment profile updated",
                &inv,
            );
            d.interpretation = format!(
                "profile {} of {}: a payment method the Uber account holds ({}); the display name is what the app shows (a card's last digits, never its number); updatedAt is ISO 8601.",
                i + 1,
                l.name(),
                said.join(", ")
            );
            record_draft(ctx, d)?;
        }
        // a page whose last profile is absent is the file's last
        if !last_present {
            if first == 0
                && PROFILE
                    .iter()
                    .all(|(k, _, _)| scalar(&parts, &format!("/0/{k}")).is_none())
            {
                ctx.unparsed(
                    &name,
                    "could not parse Uber's payment profiles because the file holds no profile with the members read (uuid, tokenType, …): an empty list, or not the array of profiles expected",
                    Some(&inv.record.invocation_id),
                )?;
            }
            break;
        }
        first += PROFILES_PER_CALL;
        if first >= PROFILES_MAX {
            ctx.unparsed(
                &name,
                &format!(
                    "the file holds more than {PROFILES_MAX} payment profiles: those past the first {PROFILES_MAX} were not read"
                ),
                Some(&inv.record.invocation_id),
            )?;
            break;
        }
    }
    Ok(())
}

/// `CACHED_UBER_LOCATION`: the position the app cached, with its time.
fn cached_location(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let name = artefact_name(&l.tree, &l.path);
    let Some(inv) = call_or_note(
        ctx,
        &name,
        "read_protobuf",
        args_on(&l.tree, json!({"path": l.path, "floats": true})),
    )?
    else {
        return Ok(());
    };
    let doc = crate::outputs::protobuf_document(&inv.output.text).unwrap_or(Value::Null);
    let first = |v: &Value, f: &str| v.get(f).and_then(|a| a.get(0)).cloned();
    let coordinate = first(&doc, "2").unwrap_or(Value::Null);
    let float = |f: &str| json_scalar(first(&coordinate, f).as_ref().and_then(|v| v.get("float")));
    let bits = |f: &str| {
        json_scalar(
            first(&coordinate, f)
                .as_ref()
                .and_then(|v| v.get("fixed32")),
        )
    };
    let (Some(lat), Some(lng)) = (float("1"), float("2")) else {
        ctx.unparsed(
            &name,
            "could not parse Uber's cached location because its message has no field 2 holding two fixed32 floats (latitude, longitude)",
            Some(&inv.record.invocation_id),
        )?;
        return Ok(());
    };
    let mut d = Draft::new("locations", format!("Uber cached location {lat}, {lng}"));
    d.fact(FactType::Path, Some(&l.path), &l.found);
    d.fact(FactType::Text, Some(&lat), &inv);
    d.fact(FactType::Text, Some(&lng), &inv);
    d.fact(FactType::Text, bits("1").as_deref(), &inv);
    d.fact(FactType::Text, bits("2").as_deref(), &inv);
    let mut others = Vec::new();
    if let Some(fields) = doc.as_object() {
        for (f, values) in fields
            .iter()
            .filter(|(f, _)| !matches!(f.as_str(), "1" | "2"))
        {
            for v in values.as_array().into_iter().flatten() {
                if let Some(x) = json_scalar(Some(v)).filter(|x| !x.trim().is_empty()) {
                    d.fact(FactType::Text, Some(&x), &inv);
                    others.push(format!("field {f} {x}"));
                }
            }
        }
    }
    let stamp = first(&doc, "1").and_then(|m| json_scalar(first(&m, "1").as_ref()));
    d.time(
        stamp.as_deref(),
        unix_millis(stamp.as_deref()),
        "Uber location cached",
        &inv,
    );
    d.interpretation = format!(
        "{} (a Protocol Buffers message without its schema): a position the Uber app cached, latitude {lat} and longitude {lng} (fields 2 → 1 and 2 → 2, fixed32 floats, as ALEAPP reads them: close to the JSON coordinates the app keeps elsewhere); {}; field 1 → 1 is Unix milliseconds as ALEAPP reads it ({}). A position the app kept, not a track.",
        l.name(),
        if others.is_empty() {
            "no other field".to_string()
        } else {
            format!("other fields as stored: {}", others.join(", "))
        },
        stamp.as_deref().unwrap_or("absent")
    );
    record_draft(ctx, d)
}

/// `ur_message.db`: one phenomenon per queued telemetry message.
fn telemetry(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(schema) = schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    let Some(cols) = Tables::one(
        ctx,
        &name,
        "Uber's telemetry queue ur_message.db",
        &schema,
        "message",
        &["content"],
    )?
    else {
        return Ok(());
    };
    let col = |c: &str, alias: &str| crate::calls::column_or_null(cols, "m.", c, alias);
    let meta = |p: &str| json_at("m.content", &format!("$.contextual_data.prod_meta.{p}"));
    let cold = if cols.contains("cold_launch_uuid") {
        format!(
            "COALESCE(NULLIF(m.cold_launch_uuid, ''), {})",
            meta("session.cold_launch_id")
        )
    } else {
        meta("session.cold_launch_id")
    };
    let user = meta("session.user_uuid");
    let mut select = vec![
        col("createdAt", "created"),
        col("createdAtNtp", "created_ntp"),
        col("message_type", "message_type"),
        col("message_uuid", "message_uuid"),
        col("group_uuid", "group_uuid"),
        format!("{cold} AS cold_launch"),
        col("status", "status"),
    ];
    for (p, alias) in [
        ("app.version", "app_version"),
        ("app.type", "app_type"),
        ("app.installation_source", "installer"),
        ("device.manufacturer", "manufacturer"),
        ("device.model", "model"),
        ("device.os_version", "os_version"),
        ("device.os_version_build", "os_build"),
        ("device.locale", "locale"),
        ("device.device_id", "device_id"),
        ("device.installation_id", "installation_id"),
        ("session.session_id", "session_id"),
        ("location.city", "city"),
        ("location.city_id", "city_id"),
        ("carrier.mcc", "mcc"),
        ("carrier.mnc", "mnc"),
        ("network.type", "network"),
    ] {
        select.push(format!("{} AS {alias}", meta(p)));
    }
    select.push(format!("'uber:' || NULLIF({user}, '') AS user_account"));
    let sql = format!(
        "SELECT m.rowid AS rid, {} FROM message m ORDER BY m.rowid",
        select.join(", ")
    );
    let mut owners: BTreeSet<String> = BTreeSet::new();
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "message",
            category: "app_usage",
            what: "a telemetry message the Uber app queued for upload, with the app, device, session, city, carrier and network it was sealed with (its content's contextual_data.prod_meta; values as stored; created and createdAtNtp Unix milliseconds)",
            title: &|t, row| {
                format!(
                    "Uber telemetry message {} {}",
                    raw(t, row, "message_type").unwrap_or_else(|| "?".into()),
                    raw(t, row, "message_uuid")
                        .or_else(|| raw(t, row, "rid"))
                        .unwrap_or_else(|| "?".into())
                )
            },
            fields: &[
                ("message_type", FactType::Text, "type"),
                ("message_uuid", FactType::Identifier, "message uuid"),
                ("group_uuid", FactType::Identifier, "group"),
                ("cold_launch", FactType::Identifier, "cold launch"),
                ("status", FactType::Text, "status"),
                ("app_version", FactType::Text, "app version"),
                ("app_type", FactType::Text, "app type"),
                ("installer", FactType::Text, "installed from"),
                ("manufacturer", FactType::Text, "device maker"),
                ("model", FactType::Text, "device model"),
                ("os_version", FactType::Text, "OS version"),
                ("os_build", FactType::Text, "OS build"),
                ("locale", FactType::Text, "locale"),
                ("device_id", FactType::Identifier, "device id"),
                ("installation_id", FactType::Identifier, "installation id"),
                ("user_account", FactType::Account, "user"),
                ("session_id", FactType::Identifier, "session"),
                ("city", FactType::Text, "city"),
                ("city_id", FactType::Identifier, "city id"),
                ("mcc", FactType::Text, "MCC"),
                ("mnc", FactType::Text, "MNC"),
                ("network", FactType::Text, "network"),
            ],
            times: &[
                ("created", "Uber telemetry message created", unix_millis),
                (
                    "created_ntp",
                    "Uber telemetry message created (NTP clock)",
                    unix_millis,
                ),
            ],
        },
        &mut |inv, t, row| {
            let Some(user) = t.get(row, "user_account") else {
                return Ok(());
            };
            if !owners.insert(user.to_string()) {
                return Ok(());
            }
            observe_owner_ids(
                ctx,
                inv,
                vec![(
                    Some(user.to_string()),
                    IdType::AccountId,
                    "The Uber user uuid",
                )],
                &|what| {
                    format!(
                        "{what} of the session an Uber telemetry message was sealed with ({}): the account signed in to the app, the device's user.",
                        l.name()
                    )
                },
            )
        },
    )
}

#[cfg(test)]
mod tests {
    use super::{is_path, parts};

    #[test]
    fn read_json_parts_and_paths() {
        let out = "# json /d/x: 40 bytes, 1 header byte skipped (2d), 0 nested JSON texts decoded, 0 secret values redacted\n# at /uuid\n\"a1\"\n# at /meta/originTimeMs: not present\n# at /n\n{\n  \"k\": [\n    1\n  ]\n}\n";
        let p = parts(out);
        assert_eq!(p["/uuid"], Some(serde_json::json!("a1")));
        assert_eq!(p["/meta/originTimeMs"], None);
        assert_eq!(p["/n"], Some(serde_json::json!({"k": [1]})));
        assert!(is_path(
            "/data/data/com.ubercab/files/base-key-value-store/realtime-demo_KEY_RIDER"
        ));
        assert!(is_path(
            "/data/data/com.ubercab/files/simplestore/x/CACHED_UBER_LOCATION"
        ));
        assert!(is_path("/data/data/com.ubercab/databases/ur_message.db"));
        assert!(!is_path("/data/data/com.other/databases/ur_message.db"));
        assert!(!is_path(
            "/data/data/com.ubercab/files/base-key-value-store/ur_message.db"
        ));
    }
}
