//! The places Apple Maps looked up (`Library/Caches/com.apple.geod/PDPlaceCache.db`, geod's
//! `GEOPDPlaceCache`), iLEAPP's `geodPDPlaceCache`: the place records Apple's servers returned
//! to Maps and to every app showing a map through MapKit, kept by geod with when each lookup
//! was last used.
//!
//! | table | phenomenon | fields |
//! |---|---|---|
//! | `pdplacelookup` ⟕ `pdplaces` | one `locations` per lookup ("Apple Maps cached place <name>") | the request key, the place's hash, when the lookup was last used (`lastaccesstime`) and when the place expires (`expiretime`; both Cocoa seconds), every text of the place (`pdplace`, a `GEOPDPlace` Protocol Buffers message decoded without its schema by `sqlite_query`'s `protobuf`, a gzip- or zlib-compressed one inflated: names with their locales, address lines and parts, country, phone numbers, web addresses, time zone) |
//!
//! iLEAPP joins the two tables and lists the printable runs of the place's bytes; the reader
//! keeps a lookup whose place is gone from `pdplaces` too (with its key, hash and time: the
//! lookup was made), and takes the place's strings from the decoded message (UTF-8 whole, each
//! once, up to [`STRINGS`]). The place's position is not read: the message keeps it as doubles
//! (fixed64 fields), which `sqlite_query`'s `protobuf` prints as raw 64-bit integers, and which
//! field holds it is not documented (said in each interpretation). A place cached here is one
//! that was looked up or shown (searched, tapped, reverse-geocoded, shown by an app), not where
//! the phone was (said). A `pdplace` that does not decode as a message is counted in a note;
//! a `PDPlaceCache.db` without `pdplacelookup` (or its `requestkey`, `pdplacehash`) is noted,
//! one without `pdplaces` read for its lookups and noted. Identities: none.

use masf_agents::RuntimeError;
use masf_graph::FactType;
use masf_tools::Invoked;
use serde_json::Value;

use super::{Draft, Run, file_name, raw};
use crate::drafts::{apple_seconds, headline};
use crate::outputs::{in_json_cell, protobuf_cell};

const LOOKUP: &str = "pdplacelookup";
const PLACES: &str = "pdplaces";

/// Strings kept from one place at most.
pub const STRINGS: usize = 60;

/// Triage of every geod place cache of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    run.each("PDPlaceCache.db", |find, path| store(run, find, path))
}

/// Whether a decoded string is text: not blank, not bytes the decoder wrote as hex (`x'…'`).
fn is_text(s: &str) -> bool {
    let hex = s.starts_with("x'") && s.ends_with('\'');
    !s.trim().is_empty() && !hex
}

/// Every string of a decoded place, each once, in the order met (up to [`STRINGS`]): the
/// string and its form in the cell (JSON-escaped, then cell-escaped), for its fact.
fn texts(message: &Value) -> Vec<(String, String)> {
    fn walk(v: &Value, out: &mut Vec<(String, String)>) {
        if out.len() >= STRINGS {
            return;
        }
        match v {
            Value::String(s) if is_text(s) && !out.iter().any(|(p, _)| p == s) => {
                out.push((s.clone(), in_json_cell(s)));
            }
            Value::Array(a) => a.iter().for_each(|x| walk(x, out)),
            Value::Object(m) => m.values().for_each(|x| walk(x, out)),
            _ => {}
        }
    }
    let mut out = Vec::new();
    walk(message, &mut out);
    out
}

/// Whether a string is a locale tag (`de`, `de-CH`, `zh_Hant`): two or three lower-case
/// letters, then parts of two to eight letters or digits after `-` or `_`.
fn is_locale(s: &str) -> bool {
    let mut parts = s.split(['-', '_']);
    let lang = parts.next().unwrap_or("");
    (2..=3).contains(&lang.len())
        && lang.bytes().all(|b| b.is_ascii_lowercase())
        && parts.all(|p| (2..=8).contains(&p.len()) && p.bytes().all(|b| b.is_ascii_alphanumeric()))
}

/// Whether a string of a place can name it in a title: three characters or more with a
/// letter, not a web address, not a locale tag.
fn is_name(s: &str) -> bool {
    s.chars().count() >= 3
        && s.chars().any(char::is_alphabetic)
        && !s.contains("://")
        && !is_locale(s)
}

fn store(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let Some(schema) = run.schema(path, &[LOOKUP, PLACES])? else {
        return Ok(());
    };
    if !schema.require(run, LOOKUP, &["requestkey", "pdplacehash"])? {
        return Ok(());
    }
    let has_places = schema.columns(PLACES).contains("pdplacehash");
    if !has_places {
        run.ctx.unparsed(
            path,
            "the database has no pdplaces table (or it lacks pdplacehash): the lookups are read, the places' contents are not",
            None,
        )?;
    }
    let (from, expires, place) = if has_places {
        (
            format!("{LOOKUP} l LEFT JOIN {PLACES} p ON p.pdplacehash = l.pdplacehash"),
            schema.col("p", PLACES, "expiretime"),
            schema.col("p", PLACES, "pdplace"),
        )
    } else {
        (
            format!("{LOOKUP} l"),
            "NULL".to_string(),
            "NULL".to_string(),
        )
    };
    let sql = format!(
        "SELECT l.rowid AS rid, l.requestkey AS request_key, l.pdplacehash AS place_hash, {} AS accessed, {expires} AS expires, {place} AS place FROM {from}",
        schema.col("l", LOOKUP, "lastaccesstime"),
    );
    let Some(paged) = run.paged_with(path, &sql, "l.rowid", &["protobuf"])? else {
        return Ok(());
    };
    let file = file_name(path);
    let mut undecoded = 0usize;
    for (inv, t, row) in paged.rows() {
        let cell = t.get(row, "place");
        let message = cell.and_then(protobuf_cell);
        if cell.is_some() && message.is_none() {
            undecoded += 1;
        }
        let strings = message.as_ref().map(texts).unwrap_or_default();
        let name = strings.iter().map(|(s, _)| s.as_str()).find(|s| is_name(s));
        let key = raw(t, row, "request_key");
        let title = match (name, &key) {
            (Some(n), _) => format!("Apple Maps cached place {}", headline(n)),
            (None, Some(k)) => format!("Apple Maps place lookup {}", headline(k)),
            (None, None) => "Apple Maps place lookup".to_string(),
        };
        let mut d = Draft::new("locations", title);
        d.fact(FactType::Path, Some(path), find);
        let mut said = d.fields(
            t,
            row,
            inv,
            &[
                ("request_key", FactType::Identifier, "request key"),
                ("place_hash", FactType::Identifier, "place hash"),
            ],
        );
        for (_, cited) in &strings {
            d.fact(FactType::Text, Some(cited), inv);
        }
        d.times_of(
            t,
            row,
            inv,
            apple_seconds,
            &[
                ("accessed", "Apple Maps place lookup last used"),
                ("expires", "Apple Maps cached place expires"),
            ],
        );
        said.push(match (&message, cell) {
            (Some(_), _) if strings.is_empty() => "the cached place holds no text".to_string(),
            (Some(_), _) => format!(
                "the cached place's texts (GEOPDPlace, decoded without its schema): {}",
                strings
                    .iter()
                    .map(|(s, _)| format!("\"{s}\""))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            (None, Some(_)) => {
                "the cached place does not decode as a Protocol Buffers message (not read)"
                    .to_string()
            }
            (None, None) => format!(
                "no place of this hash is left in {}",
                if has_places { PLACES } else { "the database" }
            ),
        });
        d.interpretation = format!(
            "{LOOKUP} row {} of {file}: geod cached the place Apple's servers returned for this request — a place Apple Maps or an app showing a map looked up or displayed (a search, a tap, a reverse geocoding), not necessarily where the phone was; {}; the lookup's last use and the place's expiry are Cocoa seconds; the place's position (doubles inside the message, printed by the decoder as raw 64-bit integers) is not read.",
            t.get(row, "rid").unwrap_or("?"),
            said.join("; "),
        );
        run.record(d)?;
    }
    crate::calls::note_pages_cap(run.ctx, path, &paged, "place lookups")?;
    if undecoded > 0 {
        run.ctx.unparsed(
            path,
            &format!(
                "{undecoded} pdplace values of {PLACES} do not decode as Protocol Buffers messages (their texts not read)"
            ),
            None,
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texts_and_names() {
        let m: Value = serde_json::json!({"1": [94021], "2": [{"5": [{"1": [{"2": [{"1": ["de"], "2": ["Café \"Sprüngli\""]}]}]}]}, {"5": [{"2": [{"1": ["x'00ff'", "8001 Zürich", "8001 Zürich"]}]}]}]});
        let t = texts(&m);
        assert_eq!(
            t.iter().map(|(s, _)| s.as_str()).collect::<Vec<_>>(),
            ["de", "Café \"Sprüngli\"", "8001 Zürich"]
        );
        assert_eq!(t[1].1, "Café \\\"Sprüngli\\\"".replace('\\', "\\\\"));
        assert!(!is_name("de-CH") && !is_name("zh_Hant") && !is_name("https://a.ch"));
        assert!(!is_name("21") && !is_name("CH"));
        assert!(is_name("Zürich") && is_name("Berlin") && is_name("Bahnhofstrasse 21"));
    }
}
