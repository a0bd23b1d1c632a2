//! `read_json`: a JSON file of the evidence, or the parts of it a caller names, as indented JSON
//! text with secrets redacted.
//!
//! Apps written in React Native keep their state as JSON files whose values are themselves JSON
//! text (redux-persist writes each reducer's state as a string: MetaMask Mobile's
//! `persistStore/persist-root` holds `"engine": "{\"backgroundState\": …}"`). `read_json`
//! parses the file with `serde_json`, decodes such nested texts when asked (`decode_nested`), so
//! that a value reads — and a fact grounds — as the app wrote it rather than escaped twice, and
//! prints only the subtrees named by JSON pointers (RFC 6901), so that a file of megabytes of
//! token lists gives an output of the few kilobytes that were asked for.
//!
//! Secrets are redacted before anything is printed, as `leveldb_records` does: strings under a
//! secret-naming key (mnemonic, seed, private key, password, access token, …) and strings shaped like a BIP-39
//! recovery phrase, inside nested JSON texts too (decoded or not). The header counts them.
//!
//! Some apps write a short header before each JSON value (Uber's `files/base-key-value-store`:
//! one byte, then the JSON): with `skip_header` the JSON is read from the first `{` or `[` among
//! the file's first [`HEADER_MAX`] bytes, the bytes skipped named in hex on the first line.
//!
//! A file that is no JSON is an error naming the byte offset where reading stopped; nesting is
//! bounded by `serde_json`'s recursion limit (128) and nested texts are decoded to
//! [`NESTED_MAX`] levels.

use serde_json::{Value, json};

use crate::leveldb_tool::redaction;
use crate::{Applicability, SourceCtx, Tool, ToolError, ToolOutput, args};

/// Largest file read.
pub const FILE_MAX: u64 = 64 << 20;

/// Largest output (the rendering of all pointers together).
pub const OUTPUT_MAX: usize = 8 << 20;

/// Most pointers per call.
pub const POINTERS_MAX: usize = 64;

/// Deepest chain of JSON texts inside JSON texts decoded.
pub const NESTED_MAX: usize = 4;

/// Most bytes of a header before the JSON that `skip_header` skips.
pub const HEADER_MAX: usize = 8;

/// The tool.
pub struct ReadJson;

impl Tool for ReadJson {
    fn name(&self) -> &str {
        "read_json"
    }
    fn description(&self) -> &str {
        "Read a JSON file of the evidence (up to 64 MiB; a zlib or gzip-compressed one — Android's telephony backup of SMS and MMS — inflated first, said on the first line) as indented JSON text. With pointers (JSON Pointers, RFC 6901: \"/engine/backgroundState/AddressBookController\"; \"\" is the whole document) only those parts are printed, each after a `# at <pointer>` line (`# at <pointer>: not present` when the file lacks it). With decode_nested: true, string values that are themselves JSON objects or arrays (React Native apps' redux-persist files, e.g. MetaMask Mobile's persistStore/persist-root) are decoded first, so pointers reach into them and their values print unescaped. With qualify {\"<member>\": \"<service>\"}, every string or integer member named <member> gains a sibling \"<member>.qualified\": \"<service>:<value>\" (a service-qualified account id that then grounds). With skip_header: true, the JSON is read from the first { or [ among the file's first 8 bytes (apps that write a short header before each JSON value: Uber's files/base-key-value-store), the bytes skipped named on the first line (`, 1 header byte skipped (2d)`). Secrets (mnemonic, seed, private key, password, access and refresh token values; strings shaped like a recovery phrase) are redacted, in nested texts too, and counted on the first line: `# json <path>: <size> bytes, <n> nested JSON texts decoded, <m> secret values redacted`. A file that is no JSON is an error naming the byte offset."
    }
    fn args_schema(&self) -> Value {
        json!({"type": "object", "properties": {
            "partition": {"type": "string", "description": "The file system to use when the source holds several (1-based index or partition name)."},
            "path": {"type": "string", "description": "Absolute path of the JSON file."},
            "pointers": {"type": "array", "items": {"type": "string"}, "maxItems": POINTERS_MAX, "description": "JSON Pointers of the parts to print (default: the whole document)."},
            "decode_nested": {"type": "boolean", "description": "Decode string values holding JSON objects or arrays before resolving pointers (default false)."},
            "skip_header": {"type": "boolean", "description": "Read the JSON from the first { or [ among the file's first 8 bytes, skipping a short header an app wrote before it (default false)."},
            "qualify": {"type": "object", "additionalProperties": {"type": "string"}, "description": "{\"<member>\": \"<service>\"} (at most 16): every string or integer member named <member> (in decoded nested texts too) gains a sibling \"<member>.qualified\": \"<service>:<value>\" (a service-qualified account id, e.g. discord:123), as parse_plist's qualify does."}
        }, "required": ["path"], "additionalProperties": false})
    }
    fn applicability(&self) -> Applicability {
        Applicability::TREE
    }
    fn run(&self, ctx: &SourceCtx, a: &Value) -> Result<ToolOutput, ToolError> {
        let decode = args::opt_bool(a, "decode_nested")?.unwrap_or(false);
        let headered = args::opt_bool(a, "skip_header")?.unwrap_or(false);
        let qualify = crate::content_tools::qualify_arg(a)?;
        let pointers = pointers(a)?;
        let (path, data) = crate::fs_tools::whole_file(ctx, a, FILE_MAX, "read_json")?;
        let size = data.len();
        let (data, compressed) =
            inflated(&data).map_err(|e| ToolError::Other(format!("{path}: {e}")))?;
        let skip = if headered {
            header_len(&data).map_err(|e| ToolError::Other(format!("{path}: {e}")))?
        } else {
            0
        };
        let mut doc = parse_from(&data, skip)
            .map_err(|e| ToolError::Other(format!("{path}: not JSON: {e}")))?;
        let (decoded, redacted) = prepare(&mut doc, decode);
        crate::content_tools::qualify_ids(&mut doc, &qualify);
        let header = data.get(..skip).unwrap_or_default();
        let mut text = format!(
            "# json {path}: {size} bytes{}{}, {decoded} nested JSON texts decoded, {redacted} secret values redacted\n",
            compressed
                .map(|how| format!(" ({how}-compressed, {} bytes inflated)", data.len()))
                .unwrap_or_default(),
            if header.is_empty() {
                String::new()
            } else {
                format!(
                    ", {} header byte{} skipped ({})",
                    header.len(),
                    if header.len() == 1 { "" } else { "s" },
                    hex::encode(header)
                )
            }
        );
        let mut found = 0usize;
        for p in &pointers {
            let shown = if p.is_empty() { "(root)" } else { p.as_str() };
            match doc.pointer(p) {
                Some(v) => {
                    found += 1;
                    text.push_str(&format!("# at {shown}\n"));
                    let body = serde_json::to_string_pretty(v)
                        .map_err(|e| ToolError::Other(format!("{path}: {e}")))?;
                    text.push_str(&body);
                    text.push('\n');
                }
                None => text.push_str(&format!("# at {shown}: not present\n")),
            }
            if text.len() > OUTPUT_MAX {
                return Err(ToolError::Other(format!(
                    "{path}: the parts asked for come to more than {OUTPUT_MAX} bytes of text; name smaller parts with pointers"
                )));
            }
        }
        Ok(ToolOutput {
            text,
            structured: Some(json!({
                "path": path, "size": size, "decoded": decoded, "redacted": redacted,
                "pointers": pointers.len(), "found": found, "header": skip,
            })),
        })
    }
}

/// The file's bytes, inflated first when they are a zlib stream (`78 01`, `78 5e`, `78 9c`,
/// `78 da`: Android's telephony backup keeps its SMS so) or gzip (`1f 8b`), which no JSON text
/// begins with; at most [`FILE_MAX`] bytes inflated. With the compression's name.
fn inflated(data: &[u8]) -> Result<(std::borrow::Cow<'_, [u8]>, Option<&'static str>), String> {
    use std::io::Read;
    let how = match data {
        [0x78, 0x01 | 0x5e | 0x9c | 0xda, ..] => "zlib",
        [0x1f, 0x8b, ..] => "gzip",
        _ => return Ok((std::borrow::Cow::Borrowed(data), None)),
    };
    let mut out = Vec::new();
    let read = if how == "zlib" {
        flate2::read::ZlibDecoder::new(data)
            .take(FILE_MAX + 1)
            .read_to_end(&mut out)
    } else {
        flate2::read::GzDecoder::new(data)
            .take(FILE_MAX + 1)
            .read_to_end(&mut out)
    };
    read.map_err(|e| format!("{how}-compressed, and it does not inflate: {e}"))?;
    if out.len() as u64 > FILE_MAX {
        return Err(format!(
            "{how}-compressed, and it inflates to more than {FILE_MAX} bytes"
        ));
    }
    Ok((std::borrow::Cow::Owned(out), Some(how)))
}

/// The pointers asked for: each `""` or starting with `/`.
fn pointers(a: &Value) -> Result<Vec<String>, ToolError> {
    let Some(list) = a.get("pointers").filter(|v| !v.is_null()) else {
        return Ok(vec![String::new()]);
    };
    let items = list
        .as_array()
        .ok_or_else(|| ToolError::InvalidArgs("pointers must be an array of strings".into()))?;
    if items.len() > POINTERS_MAX {
        return Err(ToolError::InvalidArgs(format!(
            "pointers: {} given, at most {POINTERS_MAX}",
            items.len()
        )));
    }
    items
        .iter()
        .map(|p| match p.as_str() {
            Some(s) if s.is_empty() || s.starts_with('/') => Ok(s.to_string()),
            Some(s) => Err(ToolError::InvalidArgs(format!(
                "pointer {s:?} must be empty (the whole document) or start with /"
            ))),
            None => Err(ToolError::InvalidArgs(
                "pointers must be an array of strings".into(),
            )),
        })
        .collect()
}

/// The document of a JSON file (a UTF-8 byte-order mark skipped); an error names the byte
/// offset where reading stopped.
pub fn parse(data: &[u8]) -> Result<Value, String> {
    parse_from(data, 0)
}

/// How many bytes of header precede the JSON of a file (`skip_header`): the offset of the first
/// `{` or `[` among its first [`HEADER_MAX`] bytes.
fn header_len(data: &[u8]) -> Result<usize, String> {
    data.iter()
        .take(HEADER_MAX)
        .position(|b| matches!(b, b'{' | b'['))
        .ok_or_else(|| format!("no JSON object or array starts in its first {HEADER_MAX} bytes"))
}

/// [`parse`] of the bytes of `data` after its first `skip` (a header); an error names the
/// byte offset in the whole file.
fn parse_from(data: &[u8], skip: usize) -> Result<Value, String> {
    let rest = data.get(skip..).unwrap_or_default();
    let body = rest.strip_prefix(b"\xef\xbb\xbf").unwrap_or(rest);
    let skipped = data.len() - body.len();
    serde_json::from_slice(body).map_err(|e| {
        // at the end of the input serde_json names the last byte read; the reading stopped after it
        let at = if e.is_eof() {
            body.len()
        } else {
            byte_offset(body, e.line(), e.column())
        };
        let offset = skipped + at;
        format!("{e} (byte offset {offset})")
    })
}

/// The byte offset of a 1-based line and column (`serde_json` counts columns in bytes).
fn byte_offset(body: &[u8], line: usize, column: usize) -> usize {
    let mut start = 0usize;
    for _ in 1..line {
        match body[start..].iter().position(|&b| b == b'\n') {
            Some(i) => start += i + 1,
            None => break,
        }
    }
    (start + column.saturating_sub(1)).min(body.len())
}

/// Decodes nested JSON texts (when `decode`) and redacts secrets; returns how many texts were
/// decoded and how many values redacted.
fn prepare(doc: &mut Value, decode: bool) -> (u64, u64) {
    let mut decoded = 0;
    let redacted = walk(doc, 0, 0, decode, &mut decoded);
    (decoded, redacted)
}

/// One value: a secret replaced ([`redaction`]), a nested JSON text decoded (or, kept, redacted
/// inside), members and elements walked.
fn walk(v: &mut Value, depth: usize, nested: usize, decode: bool, decoded: &mut u64) -> u64 {
    if depth > 256 {
        return 0;
    }
    match v {
        Value::Object(m) => {
            let mut n = 0;
            for (k, x) in m.iter_mut() {
                if let Some(r) = redaction(Some(k), x) {
                    *x = Value::String(r);
                    n += 1;
                } else {
                    n += walk(x, depth + 1, nested, decode, decoded);
                }
            }
            n
        }
        Value::Array(a) => a
            .iter_mut()
            .map(|x| walk(x, depth + 1, nested, decode, decoded))
            .sum(),
        Value::String(_) => {
            if let Some(r) = redaction(None, v) {
                *v = Value::String(r);
                return 1;
            }
            let Value::String(s) = v else {
                return 0;
            };
            let t = s.trim_start();
            if nested >= NESTED_MAX || !(t.starts_with('{') || t.starts_with('[')) {
                return 0;
            }
            let Ok(mut inner) = serde_json::from_str::<Value>(s.as_str()) else {
                return 0;
            };
            let n = walk(&mut inner, 0, nested + 1, decode, decoded);
            if decode {
                *decoded += 1;
                *v = inner;
            } else if n > 0 {
                // kept as the app wrote it, less its secrets
                *v = Value::String(inner.to_string());
            }
            n
        }
        _ => 0,
    }
}

/// Decodes every string value of `v` that holds a JSON object or array (up to [`NESTED_MAX`]
/// levels of text inside text), in place, without redacting; returns how many texts were
/// decoded. `sqlite_query`'s `decode_nested` uses it on plist and JSON cells.
pub fn decode_texts(v: &mut Value) -> u64 {
    fn go(v: &mut Value, depth: usize, nested: usize) -> u64 {
        if depth > 256 {
            return 0;
        }
        match v {
            Value::Object(m) => m.values_mut().map(|x| go(x, depth + 1, nested)).sum(),
            Value::Array(a) => a.iter_mut().map(|x| go(x, depth + 1, nested)).sum(),
            Value::String(s) => {
                let t = s.trim_start();
                if nested >= NESTED_MAX || !(t.starts_with('{') || t.starts_with('[')) {
                    return 0;
                }
                let Ok(mut inner) = serde_json::from_str::<Value>(s.as_str()) else {
                    return 0;
                };
                let n = go(&mut inner, 0, nested + 1);
                *v = inner;
                n + 1
            }
            _ => 0,
        }
    }
    go(v, 0, 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_of_errors_and_nested_texts() {
        let e = parse(b"{\"a\": 1,\n \"b\": [1, 2").unwrap_err();
        assert!(e.ends_with("(byte offset 20)"), "{e}");
        let e = parse(b"\xef\xbb\xbf{\"a\" 1}").unwrap_err();
        assert!(e.ends_with("(byte offset 8)"), "{e}");
        let mut v: Value = serde_json::from_str(
            r#"{"engine": "{\"vault\": \"x\", \"mnemonic\": \"abandon ability able about above absent absorb abstract absurd abuse access accident\"}", "n": "[1"}"#,
        )
        .unwrap();
        let (d, r) = prepare(&mut v, false);
        assert_eq!((d, r), (0, 1));
        assert!(
            v["engine"]
                .as_str()
                .unwrap()
                .contains("redacted by MASForensics")
        );
        let (d, r) = prepare(&mut v, true);
        assert_eq!((d, r), (1, 0));
        assert_eq!(v["engine"]["vault"], "x");
        assert_eq!(v["n"], "[1");
    }

    #[test]
    fn a_short_header_before_the_json_is_skipped_on_request() {
        // Uber's key-value store: one byte, then the JSON
        let file = b"\x2d{\"uuid\": \"a1\", \"n\": [1]}";
        assert_eq!(header_len(file), Ok(1));
        assert!(parse(file).is_err());
        assert_eq!(parse_from(file, 1).unwrap()["uuid"], "a1");
        assert_eq!(header_len(b"[1]"), Ok(0));
        assert!(header_len(b"\x01\x02\x03\x04\x05\x06\x07\x08{}").is_err());
        // an error names the offset in the whole file
        let e = parse_from(b"\x2d{\"a\" 1}", 1).unwrap_err();
        assert!(e.ends_with("(byte offset 6)"), "{e}");
    }
}
