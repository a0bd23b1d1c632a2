//! The Home Depot app, iLEAPP's `home_depot` ("Account", "Local Store", "Last Known Location",
//! "Saved Searches"): the account signed in, its home store, where the phone last was, what the
//! user saved to search for.
//!
//! | file / key | phenomenon | fields |
//! |---|---|---|
//! | `Library/Preferences/com.thehomedepot.homedepot.plist` `USER_INFO_KEY`, `AppGroup/<id>/Library/Preferences/group.com.thehomedepot.homedepot.plist` `SharedUserInfoKey`, `AppGroup/<id>/userInfo.txt` (the object holding `accountIdentity`) | one `accounts` per source ("Home Depot account <logon id> (<source>)") | user id, logon id (the e-mail signed in with), customer type (`accountIdentity`); first and last name, phone, ZIP code, customer account id, local store id (`accountInfo.accountInfoB2C.account`); the preferred store ids (`savedStorePreference`, the app's plist only) |
//! | the same object's `localStore` | one `locations` per source ("Home Depot local store <name>") | store id, name, street, city, state, postal code, latitude, longitude, phone |
//! | the app's plist `currentLocationKey` (an archived `CLLocation`) | one `locations` ("Home Depot last known location") | latitude, longitude (or the raw ones), horizontal accuracy, altitude, `kCLLocationCodingKeyTimestamp` (Cocoa seconds) |
//! | the app's plist `savedSearches`, `savedSearchesdates` | one `web` per saved search term ("Home Depot saved search <term>") | the term, whether it is in the saved list, when saved (a date, or Cocoa seconds) |
//!
//! The user information is found where iLEAPP finds it: a blob holding a property list or JSON
//! text (decoded by `parse_plist`'s `decode_data`), a keyed archive of a dictionary, or JSON text
//! held in a string (parsed here; its values quoted as the output holds them, escaped once
//! more). A `userInfo.txt` is read only in an app group holding the app's group plist (the name
//! is any app's), with `read_json`; a file there without `accountIdentity` is passed over. The
//! local store is the one the user chose or the app picked near them (a home area, said); the
//! last known location is where the phone was when the app last asked for it. A plist that does
//! not parse, a `userInfo.txt` that is no JSON, is noted. iLEAPP's search history, cached
//! products and shopping lists (`THDConsumer.sqlite`) and URL caches are not read here.
//!
//! Identities: the account is the device user's (`owner`): the logon id when it is an e-mail
//! address, the profile's phone number, and `homedepot:<userId>` (qualified by the tools'
//! `qualify`, so it grounds; not for an object held as JSON text in a string, where the tools
//! cannot add it).

use masf_agents::RuntimeError;
use masf_graph::{FactType, IdType};
use masf_tools::Invoked;
use serde_json::{Value, json};

use super::oura::{Src, cited, load, nested};
use super::{Draft, Run, file_name};
use crate::drafts::{apple_seconds, date_text};
use crate::outputs::in_json;

const PREFS: &str = "com.thehomedepot.homedepot.plist";
const GROUP: &str = "group.com.thehomedepot.homedepot.plist";
const TXT: &str = "userInfo.txt";

/// Triage of every Home Depot preferences file of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    let options = json!({"decode_data": true, "qualify": {"userId": "homedepot"}});
    if let Some((find, paths)) = run.find(PREFS)? {
        for path in paths
            .iter()
            .filter(|p| p.ends_with(&format!("/Library/Preferences/{PREFS}")))
        {
            let Some(s) = load(run, path, options.clone())? else {
                continue;
            };
            if let Some(info) = nested_info(s.doc.get("USER_INFO_KEY")) {
                let stores = preferred_stores(&s);
                account(run, &find, &s, &info, "USER_INFO_KEY", &stores)?;
            }
            last_location(run, &find, &s)?;
            saved_searches(run, &find, &s)?;
        }
    }
    let Some((find, groups)) = run.find(GROUP)? else {
        return Ok(());
    };
    let groups: Vec<&String> = groups
        .iter()
        .filter(|p| {
            p.contains("/Shared/AppGroup/") && p.ends_with(&format!("/Library/Preferences/{GROUP}"))
        })
        .collect();
    for path in &groups {
        let Some(s) = load(run, path, options.clone())? else {
            continue;
        };
        if let Some(info) = nested_info(s.doc.get("SharedUserInfoKey")) {
            account(run, &find, &s, &info, "SharedUserInfoKey", &[])?;
        }
    }
    // userInfo.txt: any app's name, read in the app groups holding the app's group plist
    let Some((tfind, texts)) = run.find(TXT)? else {
        return Ok(());
    };
    for path in texts.iter().filter(|p| {
        p.ends_with(&format!("/{TXT}")) && {
            let dir = &p[..p.len() - TXT.len()];
            groups
                .iter()
                .any(|g| **g == format!("{dir}Library/Preferences/{GROUP}"))
        }
    }) {
        let Some(inv) = crate::calls::call_or_note(
            run.ctx,
            path,
            "read_json",
            json!({"path": path, "qualify": {"userId": "homedepot"}}),
        )?
        else {
            continue;
        };
        let Some(doc) = crate::outputs::json_document(&inv.output.text) else {
            continue;
        };
        let s = Src {
            path: path.clone(),
            inv,
            doc,
        };
        if let Some(info) = user_info(&s.doc, false, 0) {
            account(run, &tfind, &s, &info, "userInfo.txt", &[])?;
        }
    }
    Ok(())
}

/// The user information (the object holding `accountIdentity`) under `v`, with whether its
/// strings are escaped twice in the output (it was JSON text in a string).
fn user_info(v: &Value, twice: bool, depth: usize) -> Option<(Value, bool)> {
    if depth > 8 {
        return None;
    }
    match v {
        Value::Object(o) if o.contains_key("accountIdentity") => Some((v.clone(), twice)),
        Value::Object(o) => o.values().find_map(|x| user_info(x, twice, depth + 1)),
        Value::Array(a) => a.iter().find_map(|x| user_info(x, twice, depth + 1)),
        Value::String(s) if !twice && s.contains("\"accountIdentity\"") => {
            // the whole text, or the object from `{"accountIdentity"` on (iLEAPP's fallback)
            let parsed = serde_json::from_str::<Value>(s).ok().or_else(|| {
                let start = s.find("{\"accountIdentity\"")?;
                serde_json::Deserializer::from_str(&s[start..])
                    .into_iter::<Value>()
                    .next()?
                    .ok()
            })?;
            user_info(&parsed, true, depth + 1)
        }
        _ => None,
    }
}

/// [`user_info`] of a plist member.
fn nested_info(v: Option<&Value>) -> Option<(Value, bool)> {
    user_info(v?, false, 0)
}

/// The value at `path` of `v`.
fn dig<'a>(v: &'a Value, path: &[&str]) -> Option<&'a Value> {
    path.iter().try_fold(v, |v, k| v.get(k))
}

/// The account object of the user information.
const ACCOUNT: [&str; 3] = ["accountInfo", "accountInfoB2C", "account"];

/// The preferred store ids of the app's plist (`savedStorePreference`: store id → ids), each as
/// the output holds it.
fn preferred_stores(s: &Src) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let Some(o) = s.doc.get("savedStorePreference").and_then(Value::as_object) else {
        return out;
    };
    for (k, v) in o {
        let ids: Vec<String> = match v.as_array() {
            Some(a) => a
                .iter()
                .filter_map(|x| cited(&s.inv, Some(x), false))
                .collect(),
            None => cited(&s.inv, Some(&Value::String(k.clone())), false)
                .into_iter()
                .collect(),
        };
        for id in ids {
            if !out.contains(&id) {
                out.push(id);
            }
        }
    }
    out
}

fn account(
    run: &Run<'_, '_>,
    find: &Invoked,
    s: &Src,
    info: &(Value, bool),
    source: &str,
    stores: &[String],
) -> Result<(), RuntimeError> {
    let (u, twice) = (&info.0, info.1);
    let at = |path: &[&str]| cited(&s.inv, dig(u, path), twice);
    let under = |rest: &[&str]| {
        let mut p: Vec<&str> = ACCOUNT.to_vec();
        p.extend_from_slice(rest);
        at(p.as_slice())
    };
    let user_id = at(&["accountIdentity", "userId"]);
    let logon = at(&["accountIdentity", "logonId"]);
    let phone = dig(u, &ACCOUNT)
        .and_then(|a| dig(a, &["profilePhones", "phone"]))
        .and_then(Value::as_array)
        .and_then(|p| p.first())
        .and_then(|p| cited(&s.inv, p.get("number"), twice));
    let label = logon
        .clone()
        .or_else(|| user_id.clone())
        .unwrap_or_else(|| "?".into());
    let mut d = Draft::new("accounts", format!("Home Depot account {label} ({source})"));
    d.fact(FactType::Path, Some(&s.path), find);
    let mut said = Vec::new();
    let logon_type = if logon.as_deref().is_some_and(|l| l.contains('@')) {
        FactType::Email
    } else {
        FactType::Account
    };
    let fields: Vec<(Option<String>, FactType, &str)> = vec![
        (user_id.clone(), FactType::Account, "user id"),
        (logon.clone(), logon_type, "logon id"),
        (
            at(&["accountIdentity", "customerType"]),
            FactType::Text,
            "customer type",
        ),
        (
            under(&["profile", "name", "firstName"]),
            FactType::Name,
            "first name",
        ),
        (
            under(&["profile", "name", "lastName"]),
            FactType::Name,
            "last name",
        ),
        (phone.clone(), FactType::Phone, "phone"),
        (under(&["profile", "zipCode"]), FactType::Text, "ZIP code"),
        (
            under(&["customerAccountId"]),
            FactType::Account,
            "customer account id",
        ),
        (
            under(&["profile", "localStoreId"]),
            FactType::Identifier,
            "local store id",
        ),
    ];
    for (v, ft, what) in &fields {
        if let Some(v) = v {
            d.fact(*ft, Some(v), &s.inv);
            said.push(format!("{what} {v}"));
        }
    }
    for id in stores {
        d.fact(FactType::Identifier, Some(id), &s.inv);
    }
    if !stores.is_empty() {
        said.push(format!("preferred store ids {}", stores.join(", ")));
    }
    d.interpretation = format!(
        "{source} of {}: the Home Depot account signed in on the device, the device user's ({}).",
        file_name(&s.path),
        said.join("; ")
    );
    run.record(d)?;
    let why = |what: &str| format!("{what} of the Home Depot account signed in on the device.");
    let qualified = if twice {
        None
    } else {
        cited(
            &s.inv,
            dig(u, &["accountIdentity", "userId.qualified"]),
            false,
        )
    };
    let email = logon.as_deref().filter(|l| l.contains('@'));
    let ids: Vec<(IdType, Option<&str>, &str)> = vec![
        (IdType::AccountId, qualified.as_deref(), "The user id"),
        (IdType::Email, email, "The logon id"),
        (
            IdType::Phone,
            phone.as_deref(),
            "The profile's phone number",
        ),
    ];
    run.observe_person("owner", "device owner", &s.inv, &why, &ids)?;
    store(run, find, s, info, source)
}

fn store(
    run: &Run<'_, '_>,
    find: &Invoked,
    s: &Src,
    info: &(Value, bool),
    source: &str,
) -> Result<(), RuntimeError> {
    let (u, twice) = (&info.0, info.1);
    let Some(st) = u.get("localStore").filter(|v| v.is_object()) else {
        return Ok(());
    };
    let at = |v: &Value, path: &[&str]| cited(&s.inv, dig(v, path), twice);
    let name = at(st, &["name"]);
    let mut d = Draft::new(
        "locations",
        format!(
            "Home Depot local store {}",
            name.as_deref().unwrap_or("(no name)")
        ),
    );
    d.fact(FactType::Path, Some(&s.path), find);
    let mut said = Vec::new();
    let mut id_path: Vec<&str> = ACCOUNT.to_vec();
    id_path.extend_from_slice(&["profile", "localStoreId"]);
    for (v, ft, what) in [
        (at(u, id_path.as_slice()), FactType::Identifier, "store id"),
        (name.clone(), FactType::Name, "name"),
        (at(st, &["address", "street"]), FactType::Text, "street"),
        (at(st, &["address", "city"]), FactType::Text, "city"),
        (at(st, &["address", "state"]), FactType::Text, "state"),
        (
            at(st, &["address", "postalCode"]),
            FactType::Text,
            "postal code",
        ),
        (at(st, &["coordinates", "lat"]), FactType::Text, "latitude"),
        (at(st, &["coordinates", "lng"]), FactType::Text, "longitude"),
        (at(st, &["phone"]), FactType::Phone, "phone"),
    ] {
        if let Some(v) = v {
            d.fact(ft, Some(&v), &s.inv);
            said.push(format!("{what} {v}"));
        }
    }
    d.interpretation = format!(
        "localStore of {source} in {}: the Home Depot store the account's profile keeps as its local store ({}), the one the user chose or the app picked near them: a home or work area, not a visit.",
        file_name(&s.path),
        said.join(", ")
    );
    run.record(d)
}

/// The archived location object under `v` (the one holding a coordinate key).
fn location_object(v: &Value, depth: usize) -> Option<&Value> {
    if depth > 6 {
        return None;
    }
    match v {
        Value::Object(o)
            if o.contains_key("kCLLocationCodingKeyCoordinateLatitude")
                || o.contains_key("kCLLocationCodingKeyRawCoordinateLatitude") =>
        {
            Some(v)
        }
        Value::Object(o) => o.values().find_map(|x| location_object(x, depth + 1)),
        Value::Array(a) => a.iter().find_map(|x| location_object(x, depth + 1)),
        _ => None,
    }
}

fn last_location(run: &Run<'_, '_>, find: &Invoked, s: &Src) -> Result<(), RuntimeError> {
    let Some((blob, twice)) = nested(s.doc.get("currentLocationKey")) else {
        return Ok(());
    };
    let Some(loc) = location_object(&blob, 0) else {
        return Ok(());
    };
    let get = |k: &str| cited(&s.inv, loc.get(k), twice);
    let lat = get("kCLLocationCodingKeyCoordinateLatitude")
        .or_else(|| get("kCLLocationCodingKeyRawCoordinateLatitude"));
    let lon = get("kCLLocationCodingKeyCoordinateLongitude")
        .or_else(|| get("kCLLocationCodingKeyRawCoordinateLongitude"));
    let (Some(lat), Some(lon)) = (lat, lon) else {
        return Ok(());
    };
    let mut d = Draft::new("locations", "Home Depot last known location");
    d.fact(FactType::Path, Some(&s.path), find);
    d.fact(FactType::Text, Some(&lat), &s.inv);
    d.fact(FactType::Text, Some(&lon), &s.inv);
    let mut said = vec![format!("latitude {lat}"), format!("longitude {lon}")];
    for (k, what) in [
        (
            "kCLLocationCodingKeyHorizontalAccuracy",
            "horizontal accuracy (m)",
        ),
        ("kCLLocationCodingKeyAltitude", "altitude (m)"),
    ] {
        if let Some(v) = get(k) {
            d.fact(FactType::Text, Some(&v), &s.inv);
            said.push(format!("{what} {v}"));
        }
    }
    let t = get("kCLLocationCodingKeyTimestamp");
    d.time(
        t.as_deref(),
        apple_seconds(t.as_deref()),
        "Home Depot app located the device",
        &s.inv,
    );
    d.interpretation = format!(
        "currentLocationKey of {} (an archived CLLocation): where the phone was when the Home Depot app last took its location ({}); the time is Cocoa seconds.",
        file_name(&s.path),
        said.join(", ")
    );
    run.record(d)
}

fn saved_searches(run: &Run<'_, '_>, find: &Invoked, s: &Src) -> Result<(), RuntimeError> {
    let saved: Vec<&str> = s
        .doc
        .get("savedSearches")
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let dates = s.doc.get("savedSearchesdates").and_then(Value::as_object);
    let mut terms: Vec<(&str, Option<&Value>)> = dates
        .map(|d| d.iter().map(|(k, v)| (k.as_str(), Some(v))).collect())
        .unwrap_or_default();
    for t in &saved {
        if !terms.iter().any(|(k, _)| k == t) {
            terms.push((*t, None));
        }
    }
    for (term, date) in terms {
        let shown = in_json(term);
        if term.trim().is_empty() || !s.inv.output.text.contains(&shown) {
            continue;
        }
        let listed = saved.contains(&term);
        let mut d = Draft::new("web", format!("Home Depot saved search {term}"));
        d.fact(FactType::Path, Some(&s.path), find);
        d.fact(FactType::Text, Some(&shown), &s.inv);
        let when = cited(&s.inv, date, false);
        let enc = match date {
            Some(Value::Number(_)) => apple_seconds(when.as_deref()),
            _ => date_text(when.as_deref()),
        };
        d.time(when.as_deref(), enc, "Home Depot search saved", &s.inv);
        d.interpretation = format!(
            "{}: the user saved the search {shown} in the Home Depot app{}{}.",
            file_name(&s.path),
            when.as_deref()
                .map(|w| format!(" at {w} (savedSearchesdates)"))
                .unwrap_or_default(),
            if listed {
                "; it is in the saved list (savedSearches)"
            } else {
                "; it is no longer in the saved list (savedSearches), only its date is kept"
            }
        );
        run.record(d)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn user_information_is_found_where_it_is_kept() {
        let v = json!({"root": {"accountIdentity": {"userId": "1"}}});
        assert!(!user_info(&v, false, 0).unwrap().1);
        let text = json!({"k": "{\"accountIdentity\": {\"userId\": \"2\"}}"});
        let (u, twice) = user_info(&text, false, 0).unwrap();
        assert!(twice && u["accountIdentity"]["userId"] == "2");
        let embedded = json!("junk {\"accountIdentity\": {\"userId\": \"3\"}} tail");
        assert_eq!(
            user_info(&embedded, false, 0).unwrap().0["accountIdentity"]["userId"],
            "3"
        );
        let loc = json!({"root": {"kCLLocationCodingKeyRawCoordinateLatitude": 1.5}});
        assert!(location_object(&loc, 0).is_some());
        assert_eq!(dig(&json!({"a": {"b": 7}}), &["a", "b"]), Some(&json!(7)));
    }
}
