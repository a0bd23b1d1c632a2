//! `read_bencode`: a bencoded file of the evidence (BitTorrent's `.torrent` metainfo, a client's
//! `.resume` / `.fastresume` data) as JSON, with the torrent's info hash.
//!
//! Hand-written rather than through a bencode crate: the info hash is the SHA-1 of the `info`
//! dictionary's bytes *as stored*, and the maintained crates (`serde_bencode`, `bendy`) decode
//! into values and re-encode them, which changes the bytes (and the hash) of a file whose
//! dictionary is not in canonical order or whose integers are written unusually. This decoder
//! keeps each value's span. It refuses, with the offset, anything that is not bencode: a
//! missing `e`, a string running past the end, a non-digit length, a dictionary key that is no
//! string, nesting past [`MAX_DEPTH`], bytes after the value.

use serde_json::{Map, Value, json};
use sha1::{Digest, Sha1};

use crate::{Applicability, SourceCtx, Tool, ToolError, ToolOutput, args};

/// Largest file read.
pub const FILE_MAX: u64 = 16 << 20;
/// Deepest nesting of lists and dictionaries.
pub const MAX_DEPTH: usize = 64;
/// Byte strings longer than this that are not text are summarised (their length, their first
/// bytes), not printed whole: a `.torrent`'s `pieces` holds 20 bytes per piece.
pub const HEX_MAX: usize = 64;

/// A bencode value with the span of its bytes.
#[derive(Debug, Clone, PartialEq)]
pub enum Bencode {
    Int(i128),
    Bytes(Vec<u8>),
    List(Vec<Bencode>),
    /// Keys in stored order, each value with its span.
    Dict(Vec<(Vec<u8>, Bencode, std::ops::Range<usize>)>),
}

/// A decoding failure: what and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecodeError {
    pub offset: usize,
    pub detail: String,
}

impl std::fmt::Display for DecodeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "not bencode at byte {}: {}", self.offset, self.detail)
    }
}

fn fail<T>(offset: usize, detail: impl Into<String>) -> Result<T, DecodeError> {
    Err(DecodeError {
        offset,
        detail: detail.into(),
    })
}

/// Decodes one whole value (nothing may follow it).
pub fn decode(b: &[u8]) -> Result<Bencode, DecodeError> {
    let mut pos = 0;
    let v = value(b, &mut pos, 0)?;
    if pos != b.len() {
        return fail(pos, format!("{} bytes after the value", b.len() - pos));
    }
    Ok(v)
}

fn value(b: &[u8], pos: &mut usize, depth: usize) -> Result<Bencode, DecodeError> {
    if depth > MAX_DEPTH {
        return fail(*pos, format!("nested deeper than {MAX_DEPTH}"));
    }
    match b.get(*pos) {
        None => fail(*pos, "the data ends where a value should start"),
        Some(b'i') => {
            let start = *pos + 1;
            let Some(len) = b[start..].iter().position(|&c| c == b'e') else {
                return fail(*pos, "an integer without its closing 'e'");
            };
            let text = std::str::from_utf8(&b[start..start + len]).unwrap_or("");
            let ok = !text.is_empty()
                && text
                    .trim_start_matches('-')
                    .bytes()
                    .all(|c| c.is_ascii_digit())
                && text != "-";
            let Some(n) = ok.then(|| text.parse::<i128>().ok()).flatten() else {
                return fail(start, format!("an integer that is not one: {text:?}"));
            };
            *pos = start + len + 1;
            Ok(Bencode::Int(n))
        }
        Some(b'l') => {
            *pos += 1;
            let mut items = Vec::new();
            loop {
                match b.get(*pos) {
                    Some(b'e') => {
                        *pos += 1;
                        return Ok(Bencode::List(items));
                    }
                    None => return fail(*pos, "a list without its closing 'e'"),
                    _ => items.push(value(b, pos, depth + 1)?),
                }
            }
        }
        Some(b'd') => {
            *pos += 1;
            let mut entries = Vec::new();
            loop {
                match b.get(*pos) {
                    Some(b'e') => {
                        *pos += 1;
                        return Ok(Bencode::Dict(entries));
                    }
                    None => return fail(*pos, "a dictionary without its closing 'e'"),
                    Some(c) if c.is_ascii_digit() => {
                        let Bencode::Bytes(key) = value(b, pos, depth + 1)? else {
                            unreachable!("a value starting with a digit is a string");
                        };
                        let start = *pos;
                        let v = value(b, pos, depth + 1)?;
                        entries.push((key, v, start..*pos));
                    }
                    Some(_) => return fail(*pos, "a dictionary key that is no string"),
                }
            }
        }
        Some(c) if c.is_ascii_digit() => {
            let Some(colon) = b[*pos..].iter().take(20).position(|&c| c == b':') else {
                return fail(*pos, "a string length without its ':'");
            };
            let digits = &b[*pos..*pos + colon];
            if !digits.iter().all(u8::is_ascii_digit) {
                return fail(*pos, "a string length that is not a number");
            }
            let len: usize = std::str::from_utf8(digits)
                .ok()
                .and_then(|d| d.parse().ok())
                .unwrap_or(usize::MAX);
            let start = *pos + colon + 1;
            let Some(end) = start.checked_add(len).filter(|&e| e <= b.len()) else {
                return fail(
                    *pos,
                    format!("a string of {len} bytes running past the end"),
                );
            };
            *pos = end;
            Ok(Bencode::Bytes(b[start..end].to_vec()))
        }
        Some(c) => fail(*pos, format!("a byte 0x{c:02x} that starts no value")),
    }
}

/// A byte string as JSON: text when it is UTF-8 without control characters (but tab and line
/// ends), else `x'hex'`, or for a long one its size and first bytes.
fn bytes_json(b: &[u8]) -> Value {
    if let Ok(t) = std::str::from_utf8(b)
        && t.chars()
            .all(|c| !c.is_control() || matches!(c, '\n' | '\r' | '\t'))
    {
        return Value::String(t.to_string());
    }
    if b.len() <= HEX_MAX {
        Value::String(format!("x'{}'", hex::encode(b)))
    } else {
        Value::String(format!("x'{}…' ({} bytes)", hex::encode(&b[..16]), b.len()))
    }
}

/// The value as JSON (dictionary keys as text, a key that is no text as `x'hex'`).
pub fn to_json(v: &Bencode) -> Value {
    match v {
        Bencode::Int(n) => {
            i64::try_from(*n).map_or_else(|_| Value::String(n.to_string()), Value::from)
        }
        Bencode::Bytes(b) => bytes_json(b),
        Bencode::List(items) => Value::Array(items.iter().map(to_json).collect()),
        Bencode::Dict(entries) => {
            let mut m = Map::new();
            for (k, v, _) in entries {
                let key = match bytes_json(k) {
                    Value::String(s) => s,
                    other => other.to_string(),
                };
                m.insert(key, to_json(v));
            }
            Value::Object(m)
        }
    }
}

/// The SHA-1 of the top-level `info` dictionary's stored bytes (a torrent's v1 info hash).
pub fn info_hash(b: &[u8], v: &Bencode) -> Option<String> {
    let Bencode::Dict(entries) = v else {
        return None;
    };
    let (_, info, span) = entries.iter().find(|(k, _, _)| k == b"info")?;
    matches!(info, Bencode::Dict(_)).then(|| hex::encode(Sha1::digest(&b[span.clone()])))
}

/// The tool.
pub struct ReadBencode;

impl Tool for ReadBencode {
    fn name(&self) -> &str {
        "read_bencode"
    }
    fn description(&self) -> &str {
        "Decode a bencoded file of the evidence (up to 16 MiB): BitTorrent .torrent metainfo files, clients' .resume/.fastresume data. Printed as indented JSON after a `# bencode <path>: <size> bytes` line that ends with `; info hash <hex>` when the file holds an `info` dictionary (the SHA-1 of its bytes as stored: the torrent's v1 info hash). Byte strings are text when they are UTF-8, else x'hex' (longer than 64 bytes: their first 16 bytes and size, as a .torrent's `pieces`). A file that is not bencode is an error naming the byte offset."
    }
    fn args_schema(&self) -> Value {
        json!({"type": "object", "properties": {
            "partition": {"type": "string", "description": "The file system to use when the source holds several (1-based index or partition name)."},
            "path": {"type": "string", "description": "Absolute path of the file."}
        }, "required": ["path"], "additionalProperties": false})
    }
    fn applicability(&self) -> Applicability {
        Applicability::TREE
    }
    fn run(&self, ctx: &SourceCtx, a: &Value) -> Result<ToolOutput, ToolError> {
        let _ = args::str(a, "path")?;
        let (path, data) = crate::fs_tools::whole_file(ctx, a, FILE_MAX, "read_bencode")?;
        let v = decode(&data).map_err(|e| ToolError::Other(format!("{path}: {e}")))?;
        let hash = info_hash(&data, &v);
        let body = serde_json::to_string_pretty(&to_json(&v))
            .map_err(|e| ToolError::Other(format!("{path}: {e}")))?;
        Ok(ToolOutput {
            text: format!(
                "# bencode {path}: {} bytes{}\n{body}\n",
                data.len(),
                hash.as_deref()
                    .map(|h| format!("; info hash {h}"))
                    .unwrap_or_default()
            ),
            structured: Some(json!({"path": path, "size": data.len(), "info_hash": hash})),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_spans_and_refusals() {
        let b = b"d3:cow3:moo4:infod4:name1:a6:lengthi-3eee";
        let v = decode(b).unwrap();
        assert_eq!(
            to_json(&v),
            json!({"cow": "moo", "info": {"name": "a", "length": -3}})
        );
        // the hash is of the bytes as stored, keys out of canonical order included
        assert_eq!(
            info_hash(b, &v).unwrap(),
            hex::encode(Sha1::digest(b"d4:name1:a6:lengthi-3ee"))
        );
        for (bad, at) in [
            (&b"i12"[..], 0),
            (b"5:abc", 0),
            (b"l1:a", 4),
            (b"di1e1:ae", 1),
            (b"i1ex", 3),
            (b"i-e", 1),
            (b"i1x2e", 1),
            (b"x", 0),
            (b"", 0),
        ] {
            assert_eq!(decode(bad).unwrap_err().offset, at, "{bad:?}");
        }
        let deep = "l".repeat(MAX_DEPTH + 2) + &"e".repeat(MAX_DEPTH + 2);
        assert!(
            decode(deep.as_bytes())
                .unwrap_err()
                .detail
                .contains("nested")
        );
        assert_eq!(bytes_json(&[0, 1]), json!("x'0001'"));
        // every cut and every byte flipped: an answer, never a panic
        let sample = b"d8:announce20:udp://t.example:69694:infod5:filesld6:lengthi12e4:pathl1:a5:b.txteee4:name3:dir12:piece lengthi16384e6:pieces20:aaaaaaaaaaaaaaaaaaaaee";
        assert!(decode(sample).is_ok());
        for cut in 0..sample.len() {
            assert!(decode(&sample[..cut]).is_err(), "cut at {cut}");
        }
        for at in 0..sample.len() {
            for x in [0x00, 0xff, b'e', b'i', b'd', b'l', b':', b'9'] {
                let mut m = sample.to_vec();
                m[at] = x;
                let _ = decode(&m);
            }
        }
        let long = vec![0u8; 100];
        assert_eq!(
            bytes_json(&long),
            json!(format!("x'{}…' (100 bytes)", "0".repeat(32)))
        );
    }
}
