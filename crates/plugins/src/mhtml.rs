//! Saved web pages (MHTML archives, `.mhtml` and `.mht`, wherever they are: a Chromium
//! browser's saved pages, pages copied to a phone): the MIME header of each, read for Android
//! (`android::offlinepages`) and iOS (`ios::offlinepagesios`) alike.

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{FactType, TimeEncoding};
use masf_tools::Invoked;
use serde_json::json;

use crate::drafts::{Draft, record_draft};
use crate::identity::{TreeRef, args_on, artefact_name};

/// Bytes of an archive read: its MIME header (a Blink header is a few hundred bytes).
const HEAD: u64 = 1024;

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
fn listed(found: &Invoked, path: &str) -> Option<(String, Option<(String, TimeEncoding)>)> {
    let (entries, _) = crate::tree::parse_listing(&found.output.text);
    let e = entries.into_iter().find(|e| e.path == path)?;
    let time = e
        .times
        .into_iter()
        .find(|(role, _)| role == "modified")
        .and_then(|(role, value)| {
            crate::outputs::time_mark(&role, &value).map(|(encoding, _)| (value, encoding))
        });
    Some((e.size, time))
}

/// One saved web page (`.mhtml`, `.mht`) at `path` of `tree`, found by `found`: its MIME
/// header.
pub fn archive(
    ctx: &AgentCtx<'_>,
    tree: &TreeRef,
    path: &str,
    found: &Invoked,
) -> Result<(), RuntimeError> {
    let name = artefact_name(tree, path);
    let file = path.rsplit('/').next().unwrap_or(path);
    let Some(inv) = crate::calls::call_or_note(
        ctx,
        &name,
        "read_text",
        args_on(tree, json!({"path": path, "length": HEAD})),
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
    let (size, file_time) = match listed(found, path) {
        Some((size, time)) => (Some(size), time),
        None => (None, None),
    };
    let mut d = Draft::new("web", format!("Saved web page {}", url.unwrap_or(file)));
    d.fact(FactType::Path, Some(path), found);
    d.fact(FactType::Url, url, &inv);
    d.fact(FactType::Text, subject, &inv);
    d.fact(FactType::Text, date, &inv);
    d.fact(FactType::Text, from, &inv);
    d.fact(FactType::Count, size.as_deref(), found);
    if let Some((value, encoding)) = &file_time {
        d.time(
            Some(value),
            Some(*encoding),
            "Saved web page file last modified",
            found,
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
    fn mhtml_header_fields_unfold_and_stop_at_the_blank_line() {
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
    fn mhtml_encoded_words_decode() {
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
