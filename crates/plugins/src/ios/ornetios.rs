//! OrNET Browser for iOS (bundle `ch.b-eng.tor`, a Tor browser; iLEAPP releases up to
//! v2026.3.0 called it Onion Browser, which is [`super::onionbrowser`]'s, another app), iLEAPP's
//! `ornetBrowser` (`ornet_browser_tabs`, `ornet_browser_settings`): the tabs left open, private
//! ones included, and the connection, privacy and clean-up settings with the custom bridges the
//! user entered. Android's Ornet is `android::ornet` (another store).
//!
//! | file | phenomenon | fields |
//! |---|---|---|
//! | `Library/Preferences/ch.b-eng.tor.plist` of the app's container (`parse_plist` with `decode_data`): `open_tabs`, `privateTabs` | one `web` per tab ("OrNET Browser open tab <URL>", "OrNET Browser private tab <URL>") | the URL (each archived NSURL's `NS.relative`, or a text of the archived array), the member it came from |
//! | the same file's settings | one `apps` per file ("OrNET Browser settings") | connection mode, selected VPN address and city, last selected server, search history, cookies, persistent cookies, JavaScript, fingerprinting protection, WebGL, delete browsing history / cache / cookies / suggestions on exit, privacy blur, bottom search bar, premium user, activated subscription (each as stored), every custom bridge line (transport, relay address, fingerprint as the user entered them); last active (`lastActiveTime`, a plist date as `parse_plist` prints it) |
//!
//! `open_tabs` and `privateTabs` are data members holding NSKeyedArchiver archives (an array of
//! NSURL); `parse_plist`'s `decode_data` unwraps them (`$data_plist`): a member it leaves as
//! hex is noted. The boolean settings' meanings are their keys' (iLEAPP's labels; the app
//! documents none); `isFingerprintingEnabled` is iLEAPP's "fingerprinting protection off". A
//! bridge line names a relay (address and fingerprint, the obfs4 certificate when there is
//! one): public data of the Tor network, recorded whole. The plist's other members are not
//! read. A file that cannot be read, is no dictionary, or holds none of these members is noted.
//! At most 2,000 tabs per member are recorded (the rest noted).
//!
//! Not read: the bookmarks, favourites and browsing history iLEAPP reads from the app's Realm
//! store (`Documents/default.realm`, `class_BookmarkItem`, `class_FavouriteModel`,
//! `class_BrowsingHistoryItem`): no tool reads a Realm file (a `read_realm` tool, decoding
//! Realm Core's file format — its top-level array of table names, column specs and B+-tree
//! leaves of strings, integers, timestamps and links — would be needed); the host settings
//! and HSTS files it shares with Onion Browser. Identities: none (the app keeps no account).

use masf_agents::RuntimeError;
use masf_graph::{FactType, TimeEncoding};
use masf_tools::Invoked;
use serde_json::{Value, json};

use super::{Draft, ENTRY_CAP, Run};
use crate::outputs::in_json;

/// The preferences file's name.
pub const PREFS: &str = "ch.b-eng.tor.plist";

/// The settings read, with what each is (iLEAPP's labels).
const SETTINGS: &[(&str, FactType, &str)] = &[
    ("browser_connection_mode", FactType::Text, "connection mode"),
    (
        "kSelectedVPNAddress",
        FactType::Text,
        "selected VPN address",
    ),
    ("kSelectedVPNCity", FactType::Text, "selected VPN city"),
    ("lastSelectedServer", FactType::Text, "last selected server"),
    ("kIsSearchHistory", FactType::Text, "search history enabled"),
    ("isCookiesEnabled", FactType::Text, "cookies enabled"),
    (
        "isPersistentCookiesSelected",
        FactType::Text,
        "persistent cookies",
    ),
    ("is_JavaScript_On", FactType::Text, "JavaScript enabled"),
    (
        "isFingerprintingEnabled",
        FactType::Text,
        "fingerprinting protection off",
    ),
    ("isWebGLEnabled", FactType::Text, "WebGL enabled"),
    (
        "isDeleteBrowsingHistorySelected",
        FactType::Text,
        "delete browsing history on exit",
    ),
    (
        "isDeleteCacheSelected",
        FactType::Text,
        "delete cache on exit",
    ),
    (
        "isDeleteCookiesSelected",
        FactType::Text,
        "delete cookies on exit",
    ),
    (
        "isDeleteSuggestionSelected",
        FactType::Text,
        "delete suggestions on exit",
    ),
    ("isPrivacyBlurOn", FactType::Text, "privacy blur on"),
    ("isBottomSearchBar", FactType::Text, "bottom search bar"),
    ("PremiumUser", FactType::Text, "premium user"),
    (
        "activatedSubscription",
        FactType::Text,
        "activated subscription",
    ),
];

/// The tab lists: member, and which tabs it holds.
const TABS: [(&str, &str); 2] = [("open_tabs", "open"), ("privateTabs", "private")];

/// Triage of every OrNET Browser preferences file of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    run.each("ch.b-eng.tor.plist", |find, path| {
        if path.ends_with(&format!("/Library/Preferences/{PREFS}")) {
            prefs(run, find, path)
        } else {
            Ok(())
        }
    })
}

/// The URLs of a decoded tab archive: each NSURL's `NS.relative` and each text of an array,
/// in order.
fn urls<'a>(v: &'a Value, out: &mut Vec<&'a str>) {
    match v {
        Value::Object(o) => match o.get("NS.relative").and_then(Value::as_str) {
            Some(u) => out.push(u),
            None => o.values().for_each(|x| urls(x, out)),
        },
        Value::Array(a) => {
            for x in a {
                match x {
                    Value::String(s) if !s.is_empty() => out.push(s),
                    other => urls(other, out),
                }
            }
        }
        _ => {}
    }
}

fn prefs(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let Some((inv, doc)) = super::plists::parse_with(run, path, json!({"decode_data": true}))?
    else {
        return Ok(());
    };
    if !doc.is_object() {
        run.ctx.unparsed(
            path,
            "could not parse OrNET Browser's preferences because the file is no dictionary",
            Some(&inv.record.invocation_id),
        )?;
        return Ok(());
    }
    let mut d = Draft::new("apps", "OrNET Browser settings");
    d.fact(FactType::Path, Some(path), find);
    let mut said = d.json_fields(&doc, &inv, SETTINGS);
    let bridges: Vec<String> = doc
        .get("customBridges")
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .filter(|b| !b.trim().is_empty())
                .map(in_json)
                .collect()
        })
        .unwrap_or_default();
    for b in &bridges {
        d.fact(FactType::Text, Some(b), &inv);
    }
    let active = doc
        .get("lastActiveTime")
        .and_then(Value::as_str)
        .map(in_json);
    d.time(
        active.as_deref(),
        active.as_ref().map(|_| TimeEncoding::Iso8601),
        "OrNET Browser last active",
        &inv,
    );
    let settings = !said.is_empty() || !bridges.is_empty() || active.is_some();
    if settings {
        if !bridges.is_empty() {
            said.push(format!("custom bridges: {}", bridges.join("; ")));
        }
        d.interpretation = format!(
            "The preferences of OrNET Browser (ch.b-eng.tor) in {path}: {}{}. The settings are as stored, named after their keys (iLEAPP's labels; the app documents none); a bridge line is what the user entered to reach Tor through that relay.",
            if said.is_empty() {
                "no setting iLEAPP reads".to_string()
            } else {
                said.join(", ")
            },
            active
                .as_deref()
                .map(|a| format!("; last active {a} (lastActiveTime)"))
                .unwrap_or_default(),
        );
        run.record(d)?;
    }
    let mut tabs = 0usize;
    for (member, kind) in TABS {
        let Some(value) = doc.get(member) else {
            continue;
        };
        let Some(archive) = value.get("$data_plist") else {
            run.ctx.unparsed(
                path,
                &format!(
                    "could not decode OrNET Browser's {member}: the member holds no property list archive"
                ),
                Some(&inv.record.invocation_id),
            )?;
            continue;
        };
        let mut found = Vec::new();
        urls(archive, &mut found);
        tabs += found.len();
        for (i, url) in found.iter().enumerate() {
            if i as u64 >= ENTRY_CAP {
                run.ctx.unparsed(
                    path,
                    &format!(
                        "{} URLs in OrNET Browser's {member}; the first {ENTRY_CAP} were recorded",
                        found.len()
                    ),
                    Some(&inv.record.invocation_id),
                )?;
                break;
            }
            let cited = in_json(url);
            let mut t = Draft::new("web", format!("OrNET Browser {kind} tab {url}"));
            t.fact(FactType::Path, Some(path), find);
            t.fact(FactType::Url, Some(&cited), &inv);
            t.fact(FactType::Text, Some(member), &inv);
            t.interpretation = format!(
                "An {} tab OrNET Browser kept in its preferences ({path}, member {member}, an archived list of URLs): {url}; the page was open when the app last saved its tabs, not necessarily when the device was seized.",
                if kind == "private" {
                    "open private-browsing"
                } else {
                    "open"
                },
            );
            run.record(t)?;
        }
    }
    if !settings && tabs == 0 {
        run.ctx.unparsed(
            path,
            "could not parse OrNET Browser's preferences because the file holds none of its settings, bridges or tabs",
            Some(&inv.record.invocation_id),
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tab_urls_from_archived_urls_and_texts() {
        let v: Value = serde_json::from_str(
            r#"{"root":[{"NS.base":null,"NS.relative":"https://a.example/x"},"https://b.example/y",{"NS.relative":"http://c.onion/"}]}"#,
        )
        .unwrap();
        let mut out = Vec::new();
        urls(&v, &mut out);
        assert_eq!(
            out,
            vec![
                "https://a.example/x",
                "https://b.example/y",
                "http://c.onion/"
            ]
        );
    }
}
