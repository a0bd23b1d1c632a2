//! `read_email`: an Internet message of the evidence (RFC 5322: a `.eml` file, a message saved
//! by a mail app) or Apple Mail's `.emlx` (the message's byte count on the first line, the
//! message, then a property list of Mail's own: flags, when it was received), read into lines a
//! fact can quote.
//!
//! The message is parsed by the `mail-parser` crate (Stalwart Labs; MIME, RFC 2047 encoded
//! words, RFC 2231 parameters, every charset `encoding_rs` knows): each header as stored
//! (unfolded), then the fields a mail examiner reads — each address of From, Sender, To, Cc,
//! Bcc, Reply-To with its display name, the subject decoded, the Date header in UTC, the message
//! id, In-Reply-To and References, Return-Path, List-Unsubscribe, each attachment's name, size
//! and type — and, on request, the first text body. The `.emlx` property list (Apple's XML
//! plist) is read with the `plist` crate and its values written one per line.
//!
//! Bounds: files up to 32 MiB; a body up to 64 KiB (a longer one is cut and said). A message
//! with no readable header is an error; a `.emlx` whose count runs past the file's end is read
//! as far as it goes and said to be cut short.

use std::fmt::Write as _;

use mail_parser::{Address, HeaderValue, MessageParser, MimeHeaders};
use serde_json::{Value, json};

use crate::sqlite::escape_cell;
use crate::{Applicability, SourceCtx, Tool, ToolError, ToolOutput, args};

/// Largest file read.
pub const FILE_MAX: u64 = 32 << 20;

/// Most bytes of a body written.
pub const BODY_MAX: usize = 64 << 10;

/// The tool.
pub struct ReadEmail;

/// The message bytes of a file and, for an `.emlx`, what its count line said.
struct Framed<'a> {
    message: &'a [u8],
    /// `(announced, present)` bytes of an `.emlx` message.
    emlx: Option<(usize, usize)>,
    /// The property list after an `.emlx` message.
    trailer: &'a [u8],
}

/// Splits an `.emlx` (a first line of 1–12 ASCII digits, padded with spaces or not) into its
/// message and the property list after it; anything else is one message.
fn frame(data: &[u8]) -> Framed<'_> {
    let line_end = data.iter().take(32).position(|b| *b == b'\n');
    if let Some(end) = line_end {
        let count = std::str::from_utf8(&data[..end]).ok().map(str::trim);
        if let Some(n) = count
            .filter(|c| !c.is_empty() && c.len() <= 12 && c.bytes().all(|b| b.is_ascii_digit()))
            .and_then(|c| c.parse::<usize>().ok())
        {
            let rest = &data[end + 1..];
            let present = n.min(rest.len());
            return Framed {
                message: &rest[..present],
                emlx: Some((n, present)),
                trailer: &rest[present..],
            };
        }
    }
    Framed {
        message: data,
        emlx: None,
        trailer: &[],
    }
}

/// Whether `message` begins with a header field (RFC 5322: a name of printable ASCII but `:`,
/// then `:`), after an mbox `From ` line if there is one. The parser itself takes any bytes for
/// a message; this keeps a file that is none from being read as one.
fn starts_with_field(message: &[u8]) -> bool {
    let body = match message.strip_prefix(b"From ") {
        Some(rest) => match rest.iter().position(|b| *b == b'\n') {
            Some(end) => &rest[end + 1..],
            None => return false,
        },
        None => message,
    };
    let name_len = body
        .iter()
        .take_while(|b| (0x21..=0x7e).contains(*b) && **b != b':')
        .count();
    name_len > 0
        && body[name_len..]
            .iter()
            .find(|b| !matches!(b, b' ' | b'\t'))
            .is_some_and(|b| *b == b':')
}

/// A header's stored value with its folding undone (line breaks and the white space after them
/// become one space).
fn unfold(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut pending_space = false;
    for line in raw.split(['\r', '\n']) {
        let piece = if out.is_empty() && !pending_space {
            line.trim_start()
        } else {
            line
        };
        if piece.trim().is_empty() {
            pending_space = !out.is_empty();
            continue;
        }
        if pending_space || (line.starts_with([' ', '\t']) && !out.is_empty()) {
            out.push(' ');
            out.push_str(piece.trim_start());
        } else {
            out.push_str(piece);
        }
        pending_space = true;
    }
    out.trim().to_string()
}

/// Writes one line: `key` and each value, cell-escaped, tab-separated.
fn line(text: &mut String, key: &str, values: &[&str]) {
    text.push_str(key);
    for v in values {
        text.push('\t');
        text.push_str(&escape_cell(v));
    }
    text.push('\n');
}

/// `(name, address)` of each address of a header (group members included).
fn addresses<'a>(a: Option<&'a Address<'a>>) -> Vec<(&'a str, &'a str)> {
    a.map(|a| {
        a.iter()
            .map(|x| (x.name().unwrap_or(""), x.address().unwrap_or("")))
            .filter(|(n, a)| !n.is_empty() || !a.is_empty())
            .collect()
    })
    .unwrap_or_default()
}

/// The texts of a header holding ids or URLs (In-Reply-To, References, List-Unsubscribe).
fn texts(v: &HeaderValue<'_>) -> Vec<String> {
    match v {
        HeaderValue::Text(t) => vec![t.to_string()],
        HeaderValue::TextList(l) => l.iter().map(|t| t.to_string()).collect(),
        HeaderValue::Address(a) => a
            .iter()
            .filter_map(|x| x.address().map(str::to_string))
            .collect(),
        _ => Vec::new(),
    }
}

impl Tool for ReadEmail {
    fn name(&self) -> &str {
        "read_email"
    }
    fn description(&self) -> &str {
        "Read an e-mail message of the evidence: an Internet message (RFC 5322, .eml) or Apple Mail's .emlx (byte count, message, Mail's property list). Prints `# email <path>: <size> bytes` (with `emlx: message of N bytes` — `, cut short at M` when the file ends first), then `header\\t<name>\\t<value>` for every header as stored (unfolded), then parsed fields, one per line, tab-separated, cells escaped as sqlite_query escapes them: `from|sender|to|cc|bcc|reply_to\\t<display name>\\t<address>` (one line per address, encoded words decoded), `subject\\t<decoded>`, `date\\t<UTC RFC 3339>\\t<Unix seconds>\\t<the header as written>`, `message_id`, `in_reply_to`, `references`, `return_path`, `list_unsubscribe`, `attachment\\t<file name>\\t<bytes>\\t<type/subtype>`; with body: true, `body\\t<the first text body>` (at most 64 KiB; longer is cut and said); for an .emlx, `emlx\\t<key>\\t<value>` for each value of Mail's property list (date-received and date-last-viewed are Unix seconds, flags Mail's bit field). Files up to 32 MiB."
    }
    fn args_schema(&self) -> Value {
        json!({"type": "object", "properties": {
            "partition": {"type": "string", "description": "The file system to use when the source holds several (1-based index or partition name)."},
            "path": {"type": "string", "description": "Absolute path of the .eml or .emlx file."},
            "body": {"type": "boolean", "description": "Also write the first text body (default false)."}
        }, "required": ["path"], "additionalProperties": false})
    }
    fn applicability(&self) -> Applicability {
        Applicability::TREE
    }
    fn run(&self, ctx: &SourceCtx, a: &Value) -> Result<ToolOutput, ToolError> {
        let want_body = args::opt_bool(a, "body")?.unwrap_or(false);
        let (path, data) = crate::fs_tools::whole_file(ctx, a, FILE_MAX, "read_email")?;
        let framed = frame(&data);
        let message = starts_with_field(framed.message)
            .then(|| MessageParser::default().parse(framed.message))
            .flatten()
            .filter(|m| !m.headers().is_empty())
            .ok_or_else(|| {
                ToolError::Other(format!(
                    "{path}: not an e-mail message: no header could be read{}",
                    if framed.emlx.is_some() {
                        " after the .emlx count line"
                    } else {
                        ""
                    }
                ))
            })?;
        let mut text = format!("# email {path}: {} bytes", data.len());
        if let Some((announced, present)) = framed.emlx {
            let _ = write!(text, ", emlx: message of {announced} bytes");
            if present < announced {
                let _ = write!(text, ", cut short at {present}");
            }
        }
        text.push('\n');
        for (name, raw) in message.headers_raw() {
            line(&mut text, "header", &[name, &unfold(raw)]);
        }
        let mut parsed = serde_json::Map::new();
        for (key, list) in [
            ("from", message.from()),
            ("sender", message.sender()),
            ("to", message.to()),
            ("cc", message.cc()),
            ("bcc", message.bcc()),
            ("reply_to", message.reply_to()),
        ] {
            let list = addresses(list);
            for (name, address) in &list {
                line(&mut text, key, &[name, address]);
            }
            if !list.is_empty() {
                parsed.insert(
                    key.into(),
                    json!(
                        list.iter()
                            .map(|(n, a)| json!({"name": n, "address": a}))
                            .collect::<Vec<_>>()
                    ),
                );
            }
        }
        if let Some(s) = message.subject() {
            line(&mut text, "subject", &[s]);
            parsed.insert("subject".into(), json!(s));
        }
        if let Some(d) = message.date().filter(|d| d.is_valid()) {
            let secs = d.to_timestamp();
            let utc = jiff::Timestamp::from_second(secs)
                .map(|t| t.to_string())
                .unwrap_or_default();
            let written = message.header_raw("Date").map(unfold).unwrap_or_default();
            if !utc.is_empty() {
                line(&mut text, "date", &[&utc, &secs.to_string(), &written]);
                parsed.insert("date".into(), json!({"utc": utc, "unix": secs}));
            }
        }
        if let Some(id) = message.message_id() {
            line(&mut text, "message_id", &[id]);
            parsed.insert("message_id".into(), json!(id));
        }
        for (key, v) in [
            ("in_reply_to", message.in_reply_to()),
            ("references", message.references()),
            ("list_unsubscribe", message.list_unsubscribe()),
        ] {
            let t = texts(v);
            for x in &t {
                line(&mut text, key, &[x]);
            }
            if !t.is_empty() {
                parsed.insert(key.into(), json!(t));
            }
        }
        if let Some(r) = message.return_address() {
            line(&mut text, "return_path", &[r]);
            parsed.insert("return_path".into(), json!(r));
        }
        let mut attachments = Vec::new();
        for part in message.attachments() {
            let name = part.attachment_name().unwrap_or("");
            let kind = part
                .content_type()
                .map(|c| match c.subtype() {
                    Some(s) => format!("{}/{s}", c.ctype()),
                    None => c.ctype().to_string(),
                })
                .unwrap_or_default();
            let size = part.contents().len().to_string();
            line(&mut text, "attachment", &[name, &size, &kind]);
            attachments.push(json!({"name": name, "bytes": part.contents().len(), "type": kind}));
        }
        if !attachments.is_empty() {
            parsed.insert("attachments".into(), Value::Array(attachments));
        }
        if want_body && let Some(body) = message.body_text(0) {
            let mut cut = body.len().min(BODY_MAX);
            while !body.is_char_boundary(cut) {
                cut -= 1;
            }
            line(&mut text, "body", &[&body[..cut]]);
            if cut < body.len() {
                let _ = writeln!(text, "# body cut at {cut} of {} bytes", body.len());
            }
        }
        let mut emlx = serde_json::Map::new();
        let trailer = framed.trailer.trim_ascii();
        if framed.emlx.is_some() && !trailer.is_empty() {
            match plist::Value::from_reader(std::io::Cursor::new(trailer)) {
                Ok(plist::Value::Dictionary(d)) => {
                    for (k, v) in d.iter() {
                        let j = crate::content_tools::plist_to_json(v);
                        let shown = match &j {
                            Value::String(s) => s.clone(),
                            other => other.to_string(),
                        };
                        line(&mut text, "emlx", &[k, &shown]);
                        emlx.insert(k.clone(), j);
                    }
                }
                Ok(_) => {
                    let _ = writeln!(
                        text,
                        "# emlx: the property list after the message is not a dictionary"
                    );
                }
                Err(e) => {
                    let _ = writeln!(
                        text,
                        "# emlx: the property list after the message does not parse: {e}"
                    );
                }
            }
        }
        Ok(ToolOutput {
            text,
            structured: Some(json!({
                "path": path,
                "size": data.len(),
                "emlx": framed.emlx.map(|(n, p)| json!({"announced": n, "present": p, "plist": emlx})),
                "parsed": parsed,
            })),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folded_headers_unfold_to_one_line() {
        assert_eq!(unfold(" a\r\n b\r\n\tc"), "a b c");
        assert_eq!(unfold("plain"), "plain");
        assert_eq!(unfold("  \r\n "), "");
    }

    #[test]
    fn a_message_begins_with_a_header_field() {
        assert!(starts_with_field(b"From: a@b\r\n\r\nhi"));
        assert!(starts_with_field(b"X-Mailer : x\n"));
        assert!(starts_with_field(b"From someone Tue Mar 5\nSubject: s\n"));
        assert!(!starts_with_field(b"\x00\x01\x02: binary"));
        assert!(!starts_with_field(b"no colon here\n"));
        assert!(!starts_with_field(b""));
    }

    #[test]
    fn an_emlx_count_frames_the_message() {
        let f = frame(b"5\nabcdeXYZ");
        assert_eq!(f.message, b"abcde");
        assert_eq!(f.emlx, Some((5, 5)));
        assert_eq!(f.trailer, b"XYZ");
        let cut = frame(b"10   \nabc");
        assert_eq!(cut.message, b"abc");
        assert_eq!(cut.emlx, Some((10, 3)));
        let plain = frame(b"From: a@b\n\nhi");
        assert!(plain.emlx.is_none());
    }
}
