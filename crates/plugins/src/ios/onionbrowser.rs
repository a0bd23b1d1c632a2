//! Onion Browser (`com.miketigas.OnionBrowser`), the Tor browser for iOS: iLEAPP's
//! `onionBrowser` (`onion_browser_bookmarks`, `onion_browser_hsts`): the bookmarks the app keeps
//! and the hosts whose HTTPS responses set a Strict-Transport-Security entry.
//!
//! | file | phenomenon | fields |
//! |---|---|---|
//! | `Documents/bookmarks.plist` (`bookmarks`) | one `web` per bookmark ("Onion Browser bookmark <name>: <url>") | name, URL, icon (a UUID naming a file beside the plist; the file itself where the folder's listing holds it), the list's `version` |
//! | `Documents/hsts_cache.plist` | one `web` per host not flagged `preloaded` ("Onion Browser HSTS host <host>") | host, expiration (a plist date, as `parse_plist` prints it), allow subdomains |
//! | the same file's `preloaded` entries | one `web` per file ("Onion Browser HSTS preload entries in <path> (summary)") | how many (the bundled preload list, not hosts met) |
//!
//! The app seeds default bookmarks on first run, so a bookmark alone does not show the user
//! added it (said). An HSTS entry without the `preloaded` flag is written when the browser
//! receives a Strict-Transport-Security header from the host — content and analytics servers
//! included — so it shows that the browser got an HTTPS response from the host, not that the
//! user opened it as a page; its expiration comes from the header's max-age and is a future
//! date, not a visit time, so it is a fact and no time mark. Older versions copied the bundled
//! preload list into the file (tens of thousands of entries): those are counted, not recorded.
//! `bookmarks.plist` is a generic name: a file is Onion Browser's when it holds a `bookmarks`
//! list (iLEAPP's test); one in a `Documents` folder known as Onion Browser's (FrontBoard's
//! application state names the bundle for its container, or `hsts_cache.plist` lies beside
//! it) that cannot be read or holds no list is noted, another app's is neither read nor noted.
//! An `hsts_cache.plist` that cannot be read or is no dictionary is noted. A bookmark or entry
//! that is no dictionary is skipped; at most 2,000 of each file are recorded (the rest noted).
//! Not read: `host_settings.plist` (OrNET Browser writes a file of the same name and layout).
//! Identities: none.

use std::collections::{BTreeMap, BTreeSet};

use masf_agents::RuntimeError;
use masf_graph::FactType;
use masf_tools::Invoked;
use serde_json::{Value, json};

use super::{Draft, ENTRY_CAP, Run, file_name};
use crate::outputs::{in_json, json_scalar};

/// Onion Browser's bundle id.
pub const BUNDLE: &str = "com.miketigas.OnionBrowser";

/// The `Documents` folder holding `path`, when `path` is `<…>/Documents/<name>`.
fn documents_of<'a>(path: &'a str, name: &str) -> Option<&'a str> {
    path.strip_suffix(&format!("/{name}"))
        .filter(|d| d.ends_with("/Documents"))
}

/// Triage of every Onion Browser bookmarks and HSTS file of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    let hsts = run.find("hsts_cache.plist")?;
    // the Documents folders known as Onion Browser's
    let mut onion: BTreeSet<String> = run
        .containers
        .borrow()
        .iter()
        .filter(|(bundle, _, _)| bundle == BUNDLE)
        .map(|(_, c, _)| format!("{c}/Documents"))
        .collect();
    if let Some((_, paths)) = &hsts {
        onion.extend(
            paths
                .iter()
                .filter_map(|p| documents_of(p, "hsts_cache.plist"))
                .map(str::to_string),
        );
    }
    run.each("bookmarks.plist", |find, path| {
        match documents_of(path, "bookmarks.plist") {
            Some(docs) => bookmarks(run, find, path, docs, onion.contains(docs)),
            None => Ok(()),
        }
    })?;
    if let Some((find, paths)) = &hsts {
        for p in paths
            .iter()
            .filter(|p| documents_of(p, "hsts_cache.plist").is_some())
        {
            hsts_cache(run, find, p)?;
        }
    }
    Ok(())
}

/// A property list as JSON: through `plists::parse` (a failure noted) for a file known as
/// Onion Browser's, else by a call whose failure is not noted (another app's file).
fn parse(
    run: &Run<'_, '_>,
    path: &str,
    known: bool,
) -> Result<Option<(Invoked, Value)>, RuntimeError> {
    if known {
        return super::plists::parse(run, path);
    }
    let inv = run.ctx.call("parse_plist", json!({"path": path}))?;
    if !crate::calls::succeeded(&inv) {
        return Ok(None);
    }
    Ok(serde_json::from_str::<Value>(&inv.output.text)
        .ok()
        .map(|v| (inv, v)))
}

fn bookmarks(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    docs: &str,
    known: bool,
) -> Result<(), RuntimeError> {
    let Some((inv, doc)) = parse(run, path, known)? else {
        return Ok(());
    };
    let Some(list) = doc.get("bookmarks").and_then(Value::as_array) else {
        if known {
            run.ctx.unparsed(
                path,
                "could not parse Onion Browser's bookmarks because the file holds no bookmarks list",
                Some(&inv.record.invocation_id),
            )?;
        }
        return Ok(());
    };
    let entries: Vec<&Value> = list.iter().filter(|b| b.is_object()).collect();
    // the icons: files named by a UUID beside the plist
    let icons: BTreeMap<String, (String, Invoked)> = if entries
        .iter()
        .any(|b| b.get("icon").is_some_and(Value::is_string))
    {
        match crate::calls::call_or_note(
            run.ctx,
            docs,
            "find_files",
            json!({"path": docs, "name_glob": "????????-????-????-????-????????????", "limit": 10_000}),
        )? {
            Some(l) => crate::outputs::found_paths(&l.output.text)
                .into_iter()
                .filter_map(|p| {
                    let name = p.strip_prefix(docs)?.strip_prefix('/')?.to_string();
                    (!name.contains('/')).then(|| (name, (p.clone(), l.clone())))
                })
                .collect(),
            None => BTreeMap::new(),
        }
    } else {
        BTreeMap::new()
    };
    let version = json_scalar(doc.get("version"));
    let file = file_name(path);
    for (i, b) in entries.iter().enumerate() {
        if i as u64 >= ENTRY_CAP {
            run.ctx.unparsed(
                path,
                &format!(
                    "{} bookmarks; the first {ENTRY_CAP} were recorded",
                    entries.len()
                ),
                Some(&inv.record.invocation_id),
            )?;
            break;
        }
        let (name, url) = (json_scalar(b.get("name")), json_scalar(b.get("url")));
        let mut d = Draft::new(
            "web",
            format!(
                "Onion Browser bookmark {}: {}",
                name.as_deref().unwrap_or("without a name"),
                url.as_deref().unwrap_or("no URL")
            ),
        );
        d.fact(FactType::Path, Some(path), find);
        let said = d.json_fields(
            b,
            &inv,
            &[
                ("name", FactType::Name, "name"),
                ("url", FactType::Url, "URL"),
                ("icon", FactType::Identifier, "icon"),
            ],
        );
        d.fact(FactType::Text, version.as_deref(), &inv);
        let icon = b
            .get("icon")
            .and_then(Value::as_str)
            .and_then(|n| icons.get(n));
        if let Some((p, l)) = icon {
            d.fact(FactType::Path, Some(p), l);
        }
        d.interpretation = format!(
            "A bookmark of Onion Browser's {file}{} ({}); the app seeds default bookmarks on first run, so this alone does not show the user added it.{}",
            version
                .as_deref()
                .map(|v| format!(" (version {v})"))
                .unwrap_or_default(),
            said.join(", "),
            match (icon, b.get("icon").and_then(Value::as_str)) {
                (Some(_), _) => " Its icon file lies beside the plist.",
                (None, Some(_)) => " Its icon file is not beside the plist.",
                (None, None) => "",
            },
        );
        run.record(d)?;
    }
    Ok(())
}

fn hsts_cache(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let Some((inv, doc)) = super::plists::parse(run, path)? else {
        return Ok(());
    };
    let Some(hosts) = doc.as_object() else {
        run.ctx.unparsed(
            path,
            "could not parse Onion Browser's HSTS cache because the file is no dictionary",
            Some(&inv.record.invocation_id),
        )?;
        return Ok(());
    };
    let entries: Vec<(&String, &Value)> = hosts
        .iter()
        .filter(|(_, e)| e.get("expiration").is_some())
        .collect();
    let (preloaded, met): (Vec<_>, Vec<_>) = entries
        .into_iter()
        .partition(|(_, e)| e.get("preloaded").and_then(Value::as_bool) == Some(true));
    let file = file_name(path);
    for (i, (host, e)) in met.iter().enumerate() {
        if i as u64 >= ENTRY_CAP {
            run.ctx.unparsed(
                path,
                &format!(
                    "{} HSTS entries not flagged preloaded; the first {ENTRY_CAP} were recorded",
                    met.len()
                ),
                Some(&inv.record.invocation_id),
            )?;
            break;
        }
        let mut d = Draft::new("web", format!("Onion Browser HSTS host {host}"));
        d.fact(FactType::Path, Some(path), find);
        d.fact(FactType::Text, Some(&in_json(host)), &inv);
        let said = d.json_fields(
            e,
            &inv,
            &[
                ("expiration", FactType::Text, "expiration"),
                ("allowSubdomains", FactType::Text, "allow subdomains"),
            ],
        );
        d.interpretation = format!(
            "An entry of Onion Browser's {file} for {host} ({}), without the preloaded flag: the browser received a Strict-Transport-Security header in an HTTPS response from this host (a page's own host, or a content or analytics server it loaded from), not necessarily a page the user opened; the expiration comes from the header's max-age, a future date and not a visit time.",
            said.join(", "),
        );
        run.record(d)?;
    }
    if !preloaded.is_empty() {
        let mut d = Draft::new(
            "web",
            format!("Onion Browser HSTS preload entries in {path} (summary)"),
        );
        d.fact(FactType::Path, Some(path), find);
        if let Some((host, _)) = preloaded.first() {
            d.fact(FactType::Text, Some(&in_json(host)), &inv);
        }
        d.interpretation = format!(
            "{path} holds {} entries flagged preloaded (the first: {}): the bundled HSTS preload list an older Onion Browser copied into the file, with an expiration the app set itself; they are no hosts the browser met and are not recorded one by one.",
            preloaded.len(),
            preloaded.first().map(|(h, _)| h.as_str()).unwrap_or("?"),
        );
        run.record(d)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn documents_folders() {
        let c = "/private/var/mobile/Containers/Data/Application/X";
        assert_eq!(
            documents_of(&format!("{c}/Documents/bookmarks.plist"), "bookmarks.plist"),
            Some(format!("{c}/Documents").as_str())
        );
        assert_eq!(
            documents_of(&format!("{c}/Library/bookmarks.plist"), "bookmarks.plist"),
            None
        );
    }
}
