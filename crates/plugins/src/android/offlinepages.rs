//! Chromium's offline pages on Android, ALEAPP's `chromeOfflinePages` and `offlinePages`: the
//! store a Chromium profile keeps of the pages it saved for reading offline
//! (`<profile>/Offline Pages/metadata/OfflinePages.db` — Chrome's `app_chrome/Default`, Samsung
//! Internet's `app_sbrowser/Default`, a WebView's `app_webview/Default`, and the Chromium browsers
//! that keep the same folders, Brave and Edge under `app_chrome`), and the saved pages
//! themselves: MHTML archives (`*.mhtml`, `*.mht`, wherever they lie — the profile's private
//! `Offline Pages/archives/`, the shared `Download/` folder a page the user downloaded is
//! published to).
//!
//! | store | phenomenon | fields |
//! |---|---|---|
//! | `OfflinePages.db`: `offlinepages_v1` | one `web` per saved page ("<browser> offline page <URL>") | URL, original URL (before redirects), title, the archive's path and size, the client namespace it was saved under and what that means (computed in the query), client id, the app that asked for it (`request_origin`), the Android download id, the archive's SHA-256 (`digest`, raw bytes, lower-case hex in the query), snippet, attribution, times opened, offline id; saved, last opened, the archive found missing (WebKit µs) |
//! | `*.mhtml`, `*.mht` (`read_text`, the first 1024 bytes) | one `web` per archive ("Saved web page <URL>", else "… <file name>") | the page's address (`Snapshot-Content-Location`), its title (`Subject`, as written: an RFC 2047 encoded word where it is not ASCII, decoded in the interpretation), `Date` as written, the program that wrote it (`From`: `<Saved by Blink>` for a Chromium browser), the file's size and last modification (from the listing that found it) |
//!
//! The client namespace says how the page came to be saved: `download`, `async_loading`,
//! `ntp_suggestions`, `browser_actions` and `live_page_sharing` are pages the user asked for
//! (a download, a shared page); `last_n` (recent tabs), `bookmark`, `custom_tabs`,
//! `suggested_articles` and `auto_async_loading` are pages the browser kept by itself, which
//! prove a visit (`last_n`, `custom_tabs`) or not even that (`suggested_articles`, prefetched).
//! `request_origin` names the app (and its signing certificates' hashes) another app saved the
//! page through. The digest is the SHA-256 of the archive when it was saved: a file at
//! `file_path` with the same hash is that archive, unchanged. Times are WebKit microseconds
//! (since 1601); 0 is "not set" (`file_missing_time` of an archive still there).
//!
//! An archive's header is all that is read of it: Blink writes a few hundred bytes
//! (`From`, `Snapshot-Content-Location`, `Subject`, `Date`, `MIME-Version`, `Content-Type`)
//! before the page's parts, which are not read (the file is the examiner's to open). Folded
//! header lines are joined by one space (so the value grounds by white-space collapse). The
//! `Date` header is kept as written (RFC 5322 text, no time encoding reads it); the file's
//! modification time stands for when it was written. ALEAPP takes the file's modification time
//! alone.
//!
//! Schema drift: columns are taken by name; the store's layout grew from Chromium 52
//! (`title`, `original_url`, `request_origin`, `digest`, `system_download_id`,
//! `file_missing_time`, then `snippet` and `attribution` in version 4), the absent ones read as
//! NULL. A store without `offlinepages_v1`, or whose table lacks `online_url`, is noted; a file
//! named `.mhtml` or `.mht` with no MIME header naming a page (`Snapshot-Content-Location`) or
//! `multipart/related` content is noted, as is a header running past the bytes read. The
//! thumbnails table (`page_thumbnails`: images) is not read. No identity is observed (a saved
//! page names no person; the requesting app is an app).

use std::collections::BTreeSet;

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{FactType, TimeEncoding};
use serde_json::json;

use super::Located;
use crate::browsers::browser_of;
use crate::calls::{Tables, column_or_null};
use crate::drafts::{Draft, RowPhenomena, no_identity, record_draft, webkit};
use crate::identity::{args_on, artefact_name, schema_on};
use crate::outputs::raw;

/// Bytes of an archive read: its MIME header (a Blink header is a few hundred bytes).
const HEAD: u64 = 1024;

/// Whether `l` is a Chromium profile's offline pages store.
pub fn is_store(l: &Located) -> bool {
    l.path.ends_with("/Offline Pages/metadata/OfflinePages.db")
}

/// Whether `l` is a saved web page (an MHTML archive).
pub fn is_archive(l: &Located) -> bool {
    let name = l.name().to_ascii_lowercase();
    name.ends_with(".mhtml") || name.ends_with(".mht")
}

/// What each client namespace a page is saved under means (Chromium's client policies):
/// whether the user asked for the page or the browser kept it by itself.
const HOW_SAVED: &[(&str, &str)] = &[
    ("download", "a page the user downloaded"),
    (
        "async_loading",
        "a page the user asked to download, fetched in the background",
    ),
    ("ntp_suggestions", "a suggested article the user downloaded"),
    (
        "browser_actions",
        "a page downloaded from another app's link menu",
    ),
    ("live_page_sharing", "a page saved to be shared"),
    ("last_n", "a recent tab the browser kept by itself"),
    ("bookmark", "a bookmarked page the browser kept by itself"),
    (
        "custom_tabs",
        "a page opened in another app's Custom Tab, kept by the browser",
    ),
    (
        "suggested_articles",
        "an article the browser prefetched by itself",
    ),
    (
        "auto_async_loading",
        "a page the browser fetched by itself once online, after it failed to load offline",
    ),
];

/// `how_saved`: the meaning of `client_namespace` ([`HOW_SAVED`]), NULL for another namespace
/// or where the table lacks the column.
fn how_saved(cols: &BTreeSet<String>) -> String {
    if !cols.contains("client_namespace") {
        return "NULL AS how_saved".to_string();
    }
    let arms: Vec<String> = HOW_SAVED
        .iter()
        .map(|(ns, what)| format!("WHEN '{ns}' THEN '{}'", what.replace('\'', "''")))
        .collect();
    format!("CASE client_namespace {} END AS how_saved", arms.join(" "))
}

/// `<expr> AS <col>`, `expr` with the column for its `{}`, where the table has `col`; NULL
/// otherwise: a value computed in the query from a column older layouts lack.
fn computed(cols: &BTreeSet<String>, col: &str, expr: &str) -> String {
    if cols.contains(col) {
        format!("{} AS {col}", expr.replace("{}", col))
    } else {
        format!("NULL AS {col}")
    }
}

/// One `OfflinePages.db`.
pub fn store(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(schema) = schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    let Some(cols) = Tables::one(
        ctx,
        &name,
        "Chromium's offline pages store",
        &schema,
        "offlinepages_v1",
        &["online_url"],
    )?
    else {
        return Ok(());
    };
    let c = |col: &str| column_or_null(cols, "", col, col);
    let sql = format!(
        "SELECT rowid AS rid, online_url, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {} FROM offlinepages_v1 ORDER BY rowid",
        c("original_url"),
        c("title"),
        c("file_path"),
        c("file_size"),
        c("client_namespace"),
        how_saved(cols),
        c("client_id"),
        c("request_origin"),
        computed(cols, "system_download_id", "NULLIF({}, 0)"),
        computed(cols, "digest", "NULLIF(lower(hex({})), '')"),
        c("snippet"),
        c("attribution"),
        c("access_count"),
        c("offline_id"),
        c("creation_time"),
        c("last_access_time"),
        c("file_missing_time"),
    );
    let browser = browser_of(&l.path);
    let what = format!(
        "a web page {browser} saved for reading offline (how it was saved: the client namespace and its meaning; the archive, an MHTML file, is the file at its path, the digest its SHA-256 when saved; times WebKit microseconds since 1601)"
    );
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "offlinepages_v1",
            category: "web",
            what: &what,
            title: &|t, row| {
                format!(
                    "{browser} offline page {}",
                    raw(t, row, "online_url").unwrap_or_else(|| "?".into())
                )
            },
            fields: &[
                ("online_url", FactType::Url, "URL"),
                ("original_url", FactType::Url, "original URL"),
                ("title", FactType::Text, "title"),
                ("file_path", FactType::Path, "archive"),
                ("file_size", FactType::Count, "archive size (bytes)"),
                ("client_namespace", FactType::Text, "saved under"),
                ("how_saved", FactType::Text, "that is"),
                ("client_id", FactType::Identifier, "client id"),
                ("request_origin", FactType::Text, "requested by"),
                (
                    "system_download_id",
                    FactType::Identifier,
                    "Android download id",
                ),
                ("digest", FactType::Hash, "archive SHA-256"),
                ("snippet", FactType::Text, "snippet"),
                ("attribution", FactType::Text, "attribution"),
                ("access_count", FactType::Count, "times opened"),
                ("offline_id", FactType::Identifier, "offline id"),
            ],
            times: &[
                ("creation_time", "Offline page saved", webkit),
                ("last_access_time", "Offline page last opened", webkit),
                (
                    "file_missing_time",
                    "Offline page's archive found missing",
                    webkit,
                ),
            ],
        },
        &mut no_identity,
    )
}

/// The fields of the MIME header at the start of `text`, up to its first empty line: each
/// `(name, value)`, a folded value's lines joined by one space; with whether the header ended
/// within `text`. When `cut` (the file goes on past `text`), its last line may be cut short and
/// is left out. A line that is no header field ends the header.
fn header_fields(text: &str, cut: bool) -> (Vec<(String, String)>, bool) {
    let whole = if cut {
        text.rfind('\n').and_then(|i| text.get(..i)).unwrap_or("")
    } else {
        text
    };
    let mut fields: Vec<(String, String)> = Vec::new();
    for line in whole.split('\n') {
        let line = line.strip_suffix('\r').unwrap_or(line);
        if line.is_empty() {
            return (fields, true);
        }
        if line.starts_with([' ', '\t']) {
            let Some((_, value)) = fields.last_mut() else {
                return (fields, true);
            };
            let more = line.trim();
            if !more.is_empty() {
                if !value.is_empty() {
                    value.push(' ');
                }
                value.push_str(more);
            }
            continue;
        }
        let Some((name, value)) = line.split_once(':') else {
            return (fields, true);
        };
        if name.is_empty() || !name.bytes().all(|b| b.is_ascii_graphic()) {
            return (fields, true);
        }
        fields.push((name.to_string(), value.trim().to_string()));
    }
    // the text ran out inside the header (a file that is all header ends with it)
    (fields, !cut)
}

/// `s` with its RFC 2047 encoded words in UTF-8 or ASCII (`=?utf-8?Q?…?=`, `=?utf-8?B?…?=`)
/// decoded, the white space between two encoded words dropped; anything else as written. For
/// the interpretation only: the fact is the header as written.
fn decode_words(s: &str) -> String {
    let mut out = String::new();
    let mut rest = s;
    let mut after_word = false;
    while let Some(at) = rest.find("=?") {
        let (before, from) = rest.split_at(at);
        match encoded_word(from) {
            Some((text, len)) => {
                if !(after_word && before.trim().is_empty()) {
                    out.push_str(before);
                }
                out.push_str(&text);
                rest = from.get(len..).unwrap_or("");
                after_word = true;
            }
            None => {
                out.push_str(before);
                out.push_str("=?");
                rest = from.get(2..).unwrap_or("");
                after_word = false;
            }
        }
    }
    out.push_str(rest);
    out
}

/// The encoded word `s` begins with, decoded, and its length in bytes; `None` when `s` begins
/// with none this reader decodes.
fn encoded_word(s: &str) -> Option<(String, usize)> {
    let body = s.strip_prefix("=?")?;
    let (charset, rest) = body.split_once('?')?;
    let (encoding, rest) = rest.split_once('?')?;
    let end = rest.find("?=")?;
    let text = rest.get(..end)?;
    let charset = charset.split('*').next().unwrap_or(charset);
    if !(charset.eq_ignore_ascii_case("utf-8") || charset.eq_ignore_ascii_case("us-ascii"))
        || text.contains(char::is_whitespace)
    {
        return None;
    }
    let bytes = match encoding {
        "Q" | "q" => q_decode(text)?,
        "B" | "b" => b_decode(text)?,
        _ => return None,
    };
    let len = s.len() - rest.get(end + 2..)?.len();
    Some((String::from_utf8_lossy(&bytes).into_owned(), len))
}

/// The bytes of an encoded word's Q text (`_` a space, `=XX` a byte).
fn q_decode(text: &str) -> Option<Vec<u8>> {
    let b = text.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while let Some(&c) = b.get(i) {
        match c {
            b'_' => out.push(b' '),
            b'=' => {
                let hex = text.get(i + 1..i + 3)?;
                out.push(u8::from_str_radix(hex, 16).ok()?);
                i += 2;
            }
            _ => out.push(c),
        }
        i += 1;
    }
    Some(out)
}

/// The bytes of an encoded word's B text (base64, padding optional).
fn b_decode(text: &str) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(text.len() * 3 / 4);
    let (mut acc, mut bits) = (0u32, 0u32);
    for c in text.bytes().filter(|c| *c != b'=') {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        };
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push(((acc >> bits) & 0xff) as u8);
        }
    }
    Some(out)
}

/// The file's size and last modification (with its encoding) as the listing that found it
/// gives them: facts citing the listing.
fn listed(l: &Located) -> Option<(String, Option<(String, TimeEncoding)>)> {
    let (entries, _) = crate::tree::parse_listing(&l.found.output.text);
    let e = entries.into_iter().find(|e| e.path == l.path)?;
    let time = e
        .times
        .into_iter()
        .find(|(role, _)| role == "modified")
        .and_then(|(role, value)| {
            crate::tree::time_mark(&role, &value).map(|(encoding, _)| (value, encoding))
        });
    Some((e.size, time))
}

/// One saved web page (`.mhtml`, `.mht`): its MIME header.
pub fn archive(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let name = artefact_name(&l.tree, &l.path);
    let Some(inv) = crate::calls::call_or_note(
        ctx,
        &name,
        "read_text",
        args_on(&l.tree, json!({"path": l.path, "length": HEAD})),
    )?
    else {
        return Ok(());
    };
    // whether the file goes on past the bytes read (a cached read keeps no structured output:
    // then judged by the length read)
    let cut = inv
        .output
        .structured
        .as_ref()
        .and_then(|s| s["more"].as_bool())
        .unwrap_or(inv.output.text.len() as u64 >= HEAD);
    let (fields, ended) = header_fields(&inv.output.text, cut);
    let get = |want: &str| {
        fields
            .iter()
            .find(|(n, v)| n.eq_ignore_ascii_case(want) && !v.is_empty())
            .map(|(_, v)| v.as_str())
    };
    let url = get("Snapshot-Content-Location");
    let related = get("Content-Type")
        .is_some_and(|t| t.to_ascii_lowercase().starts_with("multipart/related"));
    if url.is_none() && !related {
        ctx.unparsed(
            &name,
            &format!(
                "not an MHTML archive: no Snapshot-Content-Location header nor multipart/related Content-Type in its first {HEAD} bytes"
            ),
            Some(&inv.record.invocation_id),
        )?;
        return Ok(());
    }
    if !ended {
        ctx.unparsed(
            &name,
            &format!(
                "its MIME header runs past the first {HEAD} bytes read: the header's fields after them were not read"
            ),
            Some(&inv.record.invocation_id),
        )?;
    }
    let (subject, date, from) = (get("Subject"), get("Date"), get("From"));
    let (size, file_time) = match listed(l) {
        Some((size, time)) => (Some(size), time),
        None => (None, None),
    };
    let mut d = Draft::new("web", format!("Saved web page {}", url.unwrap_or(l.name())));
    d.fact(FactType::Path, Some(&l.path), &l.found);
    d.fact(FactType::Url, url, &inv);
    d.fact(FactType::Text, subject, &inv);
    d.fact(FactType::Text, date, &inv);
    d.fact(FactType::Text, from, &inv);
    d.fact(FactType::Count, size.as_deref(), &l.found);
    if let Some((value, encoding)) = &file_time {
        d.time(
            Some(value),
            Some(*encoding),
            "Saved web page file last modified",
            &l.found,
        );
    }
    let titled = match subject {
        Some(written) => {
            let plain = decode_words(written);
            if plain == written {
                format!("titled \"{written}\"")
            } else {
                format!("titled \"{plain}\" (Subject {written}, as written)")
            }
        }
        None => "no Subject (title)".to_string(),
    };
    d.interpretation = format!(
        "{name}: a web page saved as an MHTML archive{}, {}, {}{}{}; only its first {HEAD} bytes, the MIME header, were read (the page's own content is not){}.",
        size.as_deref()
            .map(|n| format!(" of {n} bytes"))
            .unwrap_or_default(),
        url.map(|u| format!("of {u} (Snapshot-Content-Location)"))
            .unwrap_or_else(|| "with no Snapshot-Content-Location header (the page's address, if any, is in a part not read)".to_string()),
        titled,
        date.map(|v| format!(", dated {v} (Date, as the saving program's clock wrote it)"))
            .unwrap_or_default(),
        from.map(|v| format!(", written by {v} (From)"))
            .unwrap_or_default(),
        if file_time.is_some() {
            "; the file's last modification is when it was written, unless copied or changed since"
        } else {
            ""
        },
    );
    record_draft(ctx, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offlinepages_header_fields_unfold_and_stop_at_the_blank_line() {
        let text = "From: <Saved by Blink>\r\nSubject: A long title\r\n that goes on\r\nContent-Type: multipart/related;\r\n\ttype=\"text/html\"\r\n\r\n--B\r\nContent-Type: text/html\r\n";
        let (f, ended) = header_fields(text, true);
        assert!(ended);
        assert_eq!(f.len(), 3);
        assert_eq!(
            f[1],
            (
                "Subject".to_string(),
                "A long title that goes on".to_string()
            )
        );
        assert_eq!(f[2].1, "multipart/related; type=\"text/html\"".to_string());
        // cut inside the header: the last, perhaps partial, line is left out
        let (f, ended) = header_fields("From: x\r\nSnapshot-Content-Location: https://a.b/c", true);
        assert!(!ended);
        assert_eq!(f, vec![("From".to_string(), "x".to_string())]);
        // an HTML page is no header
        let (f, _) = header_fields("<!DOCTYPE html>\n<html>", false);
        assert!(f.is_empty());
    }

    #[test]
    fn offlinepages_encoded_words_decode() {
        assert_eq!(
            decode_words("=?utf-8?q?Caf=C3=A9_menu_=E2=80=93?= Harbour Kitchen"),
            "Café menu – Harbour Kitchen"
        );
        assert_eq!(
            decode_words("=?utf-8?b?5Lit55Kw?= =?UTF-8?B?6Iez?="),
            "中環至"
        );
        assert_eq!(decode_words("plain =? text"), "plain =? text");
        assert_eq!(
            decode_words("=?iso-8859-1?q?caf=E9?="),
            "=?iso-8859-1?q?caf=E9?="
        );
    }
}
