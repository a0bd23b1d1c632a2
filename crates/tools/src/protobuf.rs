//! Raw Protocol Buffers decoding for `sqlite_query`'s `protobuf` option and the `read_protobuf`
//! tool (a file that is one message: Jetpack DataStore files, apps' settings): a message without
//! its schema, as `protoc --decode_raw` reads one, written as JSON so that a plugin can walk it
//! and a fact can quote it. Hand-written: the maintained crates (`prost`, `protobuf`) decode
//! against a schema; a schema-less walk of the wire format is a few dozen lines.
//!
//! Apps keep many artefacts this way (Apple Notes' note text, Chrome's sync data, …), often
//! gzip-compressed: a cell starting with the gzip magic is inflated first, within
//! [`MAX_INFLATED`]. A cell that is a zlib stream, whole or after one leading byte (Gmail's
//! `bigTopDataDB` keeps each message so: a format byte, then zlib), is inflated when the
//! stream is complete and what it holds parses completely as a message.
//!
//! `read_protobuf` also reads the checksummed files Google's apps write (Google Maps'
//! `files/*.cs`: an 8-byte big-endian Adler-32 of the message, then the message), verifying the
//! checksum, and on request prints fixed64 values as the doubles they encode and fixed32 values
//! as the floats they encode (Uber's `CACHED_UBER_LOCATION` keeps its coordinates so).

use std::io::Read;

use serde_json::{Map, Value};

/// Most bytes a gzip cell inflates to.
pub const MAX_INFLATED: u64 = 16 << 20;

/// Deepest nesting of messages decoded (deeper payloads stay hex).
const MAX_DEPTH: usize = 24;

/// A cell's message as one line of JSON, when the cell (inflated if gzip) parses completely as
/// a message with at least one field.
pub fn cell(b: &[u8]) -> Option<String> {
    if let Some(m) = zlib_framed(b).and_then(|inflated| message(&inflated, 0)) {
        return serde_json::to_string(&m).ok();
    }
    let bytes = gunzipped(b)?;
    let m = message(&bytes, 0)?;
    serde_json::to_string(&m).ok()
}

/// The bytes of a zlib stream that is the whole cell or the cell after its first byte (a zlib
/// header: deflate with a window of at most 32 KiB, its check bits right), inflated completely
/// (checksum verified) within [`MAX_INFLATED`]; `None` for anything else.
fn zlib_framed(b: &[u8]) -> Option<Vec<u8>> {
    let header = |h: &[u8]| {
        h.len() >= 2
            && h[0] & 0x0f == 8
            && h[0] >> 4 <= 7
            && (u16::from(h[0]) << 8 | u16::from(h[1])) % 31 == 0
    };
    let stream = if header(b) {
        b
    } else if b.len() > 2 && header(&b[1..]) {
        &b[1..]
    } else {
        return None;
    };
    let mut out = Vec::new();
    let mut z = flate2::read::ZlibDecoder::new(stream);
    (&mut z).take(MAX_INFLATED + 1).read_to_end(&mut out).ok()?;
    // the stream ends the cell: nothing after it
    (out.len() as u64 <= MAX_INFLATED && z.total_in() as usize == stream.len()).then_some(out)
}

/// A cell's bytes, inflated first when they are gzip (at most [`MAX_INFLATED`] bytes); `None`
/// for a gzip stream that is damaged or inflates past the limit.
pub fn gunzipped(b: &[u8]) -> Option<std::borrow::Cow<'_, [u8]>> {
    if !b.starts_with(&[0x1f, 0x8b]) {
        return Some(std::borrow::Cow::Borrowed(b));
    }
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(b)
        .take(MAX_INFLATED + 1)
        .read_to_end(&mut out)
        .ok()?;
    (out.len() as u64 <= MAX_INFLATED).then_some(std::borrow::Cow::Owned(out))
}

/// Largest file `read_protobuf` reads.
pub const FILE_MAX: u64 = 16 << 20;

/// `read_protobuf`: a file of the evidence that is one Protocol Buffers message.
pub struct ReadProtobuf;

impl crate::Tool for ReadProtobuf {
    fn name(&self) -> &str {
        "read_protobuf"
    }
    fn description(&self) -> &str {
        "Decode a file of the evidence (up to 16 MiB) that is one Protocol Buffers message (Android Jetpack DataStore files, apps' settings; gzip-compressed ones inflated first), without its schema, as `protoc --decode_raw` reads it, printed as indented JSON after a `# protobuf <path>: <size> bytes` line: an object of field numbers, each an array of values (varints and fixed numbers as numbers, length-delimited fields as text when they are printable UTF-8 — unless they start with a newline, return or tab and parse completely as a message —, else as a nested message when they parse as one, else \"x'hex'\"). A file whose first 8 bytes are the big-endian Adler-32 checksum of the rest (Google apps' checksummed `.cs` files: Google Maps' recent history and saved directions) is that message after them: the checksum is verified and named in the first line, a mismatch is an error. `doubles` prints each fixed64 value also as the double it encodes (`{\"fixed64\": n, \"double\": d}`: coordinates and times kept as doubles); `floats` each fixed32 value also as the float it encodes (`{\"fixed32\": n, \"float\": f}`: coordinates kept as floats). A file that does not parse completely as a message is an error."
    }
    fn args_schema(&self) -> Value {
        serde_json::json!({"type": "object", "properties": {
            "partition": {"type": "string", "description": "The file system to use when the source holds several (1-based index or partition name)."},
            "path": {"type": "string", "description": "Absolute path of the file."},
            "doubles": {"type": "boolean", "description": "Print each fixed64 value as {\"fixed64\": <integer>, \"double\": <the double it encodes>} (default false: the integer alone)."},
            "floats": {"type": "boolean", "description": "Print each fixed32 value as {\"fixed32\": <integer>, \"float\": <the float it encodes>} (default false: the integer alone)."}
        }, "required": ["path"], "additionalProperties": false})
    }
    fn applicability(&self) -> crate::Applicability {
        crate::Applicability::TREE
    }
    fn run(
        &self,
        ctx: &crate::SourceCtx,
        a: &Value,
    ) -> Result<crate::ToolOutput, crate::ToolError> {
        let (path, data) = crate::fs_tools::whole_file(ctx, a, FILE_MAX, "read_protobuf")?;
        let size = data.len();
        let inflated = gunzipped(&data).ok_or_else(|| {
            crate::ToolError::Other(format!(
                "{path}: a gzip stream that is damaged or inflates past {MAX_INFLATED} bytes"
            ))
        })?;
        let doubles = crate::args::opt_bool(a, "doubles")?.unwrap_or(false);
        let floats = crate::args::opt_bool(a, "floats")?.unwrap_or(false);
        let decode = |b: &[u8]| message_opts(b, 0, doubles, floats);
        let not_message = |what: String| {
            crate::ToolError::Other(format!("{path}: not a Protocol Buffers message ({what})"))
        };
        let (m, framing) = match decode(&inflated) {
            Some(m) => (m, None),
            None => match checksummed(&inflated) {
                Some(Checksummed::Verified { sum, body }) => {
                    let m = decode(body).ok_or_else(|| {
                        not_message(format!(
                            "its first 8 bytes are the Adler-32 checksum {sum:08x} of the {} bytes after them, which do not parse completely as fields",
                            body.len()
                        ))
                    })?;
                    (m, Some((sum, body.len())))
                }
                Some(Checksummed::Mismatch { stored, computed }) => {
                    return Err(not_message(format!(
                        "nor a checksummed one: its first 8 bytes hold {stored:08x} where the Adler-32 checksum of the {} bytes after them is {computed:08x} (a damaged or cut checksummed file, or another format)",
                        inflated.len() - 8
                    )));
                }
                None => {
                    return Err(not_message(format!(
                        "its {} bytes do not parse completely as fields",
                        inflated.len()
                    )));
                }
            },
        };
        let body = serde_json::to_string_pretty(&m)
            .map_err(|e| crate::ToolError::Other(format!("{path}: {e}")))?;
        let head = match framing {
            Some((sum, n)) => format!(
                "# protobuf {path}: {size} bytes: the Adler-32 checksum {sum:08x} (verified) then a message of {n} bytes"
            ),
            None => format!("# protobuf {path}: {size} bytes"),
        };
        let mut structured = serde_json::json!({"path": path, "size": size});
        if let Some((sum, n)) = framing {
            structured["adler32"] = serde_json::json!(format!("{sum:08x}"));
            structured["message_offset"] = serde_json::json!(8);
            structured["message_size"] = serde_json::json!(n);
        }
        Ok(crate::ToolOutput {
            text: format!("{head}\n{body}\n"),
            structured: Some(structured),
        })
    }
}

/// A file framed as Google apps write their checksummed `.cs` files (Google Maps'
/// `ProtoFileHelper`: `ByteBuffer.putLong(Adler32)` of the message, then the message): the first
/// 8 bytes a big-endian 64-bit Adler-32 (its upper 4 bytes zero), the message after them.
enum Checksummed<'a> {
    /// The checksum matches the bytes after it.
    Verified { sum: u32, body: &'a [u8] },
    /// The checksum does not match: a damaged or cut copy, or another format.
    Mismatch { stored: u32, computed: u32 },
}

/// The framing of [`Checksummed`] when `b` has it (at least 9 bytes, the first 4 zero); `None`
/// for anything else. A file starting with a zero byte is never a message (field 0), so a
/// message is never read as framed.
fn checksummed(b: &[u8]) -> Option<Checksummed<'_>> {
    if b.len() <= 8 || b[..4] != [0, 0, 0, 0] {
        return None;
    }
    let stored = u32::from_be_bytes(b[4..8].try_into().ok()?);
    let body = &b[8..];
    let computed = adler32(body);
    Some(if stored == computed {
        Checksummed::Verified { sum: stored, body }
    } else {
        Checksummed::Mismatch { stored, computed }
    })
}

/// Adler-32 (RFC 1950) of `b`, as `java.util.zip.Adler32` and zlib compute it.
fn adler32(b: &[u8]) -> u32 {
    adler2::adler32_slice(b)
}

fn varint(b: &[u8], pos: &mut usize) -> Option<u64> {
    let mut v = 0u64;
    for shift in (0..64).step_by(7) {
        let byte = *b.get(*pos)?;
        *pos += 1;
        v |= u64::from(byte & 0x7f) << shift;
        if byte & 0x80 == 0 {
            return Some(v);
        }
    }
    None
}

/// A complete message: every byte consumed by well-formed fields, at least one field.
fn message(b: &[u8], depth: usize) -> Option<Value> {
    message_as(b, depth, false)
}

/// A message decoded as [`message`] does, but each fixed64 value as
/// `{"fixed64": <u64>, "double": <f64>}` (Apple's streams keep times and coordinates as
/// doubles) and each length-delimited field holding a binary property list as
/// `{"@plist": <its JSON>}` (keyed archives unwrapped, data inside decoded); `None` when it
/// does not parse completely.
pub fn message_with_doubles(b: &[u8]) -> Option<Value> {
    message_as(b, 0, true)
}

fn message_as(b: &[u8], depth: usize, doubles: bool) -> Option<Value> {
    message_opts(b, depth, doubles, false)
}

/// [`message_as`], each fixed32 value also as the float it encodes when `floats`
/// (`{"fixed32": <u32>, "float": <f32 as f64>}`).
fn message_opts(b: &[u8], depth: usize, doubles: bool, floats: bool) -> Option<Value> {
    if b.is_empty() || depth > MAX_DEPTH {
        return None;
    }
    let mut fields: Map<String, Value> = Map::new();
    let mut pos = 0usize;
    while pos < b.len() {
        let key = varint(b, &mut pos)?;
        let (number, wire) = (key >> 3, key & 7);
        if number == 0 || number > 536_870_911 {
            return None;
        }
        let value = match wire {
            0 => Value::from(varint(b, &mut pos)?),
            1 => {
                let s = b.get(pos..pos + 8)?;
                pos += 8;
                let v = u64::from_le_bytes(s.try_into().ok()?);
                match serde_json::Number::from_f64(f64::from_bits(v)) {
                    Some(d) if doubles => serde_json::json!({"fixed64": v, "double": d}),
                    _ => Value::from(v),
                }
            }
            5 => {
                let s = b.get(pos..pos + 4)?;
                pos += 4;
                let v = u32::from_le_bytes(s.try_into().ok()?);
                match serde_json::Number::from_f64(f64::from(f32::from_bits(v))) {
                    Some(f) if floats => serde_json::json!({"fixed32": v, "float": f}),
                    _ => Value::from(v),
                }
            }
            2 => {
                let len = usize::try_from(varint(b, &mut pos)?).ok()?;
                let end = pos.checked_add(len)?;
                let s = b.get(pos..end)?;
                pos = end;
                payload(s, depth, doubles, floats)
            }
            _ => return None,
        };
        match fields
            .entry(number.to_string())
            .or_insert_with(|| Value::Array(Vec::new()))
        {
            Value::Array(a) => a.push(value),
            _ => return None,
        }
    }
    Some(Value::Object(fields))
}

/// A length-delimited payload: printable text, else a nested message, else hex. Printable
/// bytes that start with `\n`, `\r` or `\t` — the tag bytes of a field 1 that is
/// length-delimited, fixed64 or fixed32 — and parse completely as a message are that message:
/// a nested `{1: "text"}` is `0x0a <length> text`, all printable when the length byte is (Snapchat
/// keeps a chat text so), and text rarely starts with a control character that the rest of it
/// then parses after.
fn payload(s: &[u8], depth: usize, doubles: bool, floats: bool) -> Value {
    // Biome keeps property lists in some fields (a user activity's metadata)
    if doubles
        && s.starts_with(b"bplist00")
        && let Some(v) = crate::content_tools::embedded_plist(s, "plist in a protobuf field")
    {
        return serde_json::json!({ "@plist": v });
    }
    if let Ok(t) = std::str::from_utf8(s)
        && t.chars()
            .all(|c| !c.is_control() || matches!(c, '\n' | '\r' | '\t'))
    {
        if t.starts_with(['\n', '\r', '\t'])
            && let Some(m) = message_opts(s, depth + 1, doubles, floats)
        {
            return m;
        }
        return Value::String(t.to_string());
    }
    message_opts(s, depth + 1, doubles, floats)
        .unwrap_or_else(|| Value::String(format!("x'{}'", hex::encode(s))))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wire_types_nesting_and_refusals() {
        // field 1 varint 150; field 2 { field 3 "hi\n" }; field 4 fixed32 1
        let msg = [
            0x08, 0x96, 0x01, 0x12, 0x05, 0x1a, 0x03, b'h', b'i', b'\n', 0x25, 1, 0, 0, 0,
        ];
        assert_eq!(
            cell(&msg).unwrap(),
            r#"{"1":[150],"2":[{"3":["hi\n"]}],"4":[1]}"#
        );
        // truncated, wire type 7, field 0: no message
        assert_eq!(cell(&msg[..4]), None);
        assert_eq!(cell(&[0x0f, 0x00]), None);
        assert_eq!(cell(&[0x00, 0x01]), None);
        // a length past the end
        assert_eq!(cell(&[0x12, 0xff, 0x01, 0x00]), None);
        // bytes that are neither text nor a message stay hex
        assert_eq!(
            cell(&[0x12, 0x02, 0x00, 0xff]).unwrap(),
            r#"{"2":["x'00ff'"]}"#
        );
        // printable bytes that are a nested message starting with field 1: the message
        let text = b"J: the text of a nested field 1, all printable, its length byte too";
        let mut nested = vec![0x0a, text.len() as u8];
        nested.extend_from_slice(text);
        let mut outer = vec![0x12, nested.len() as u8];
        outer.extend_from_slice(&nested);
        assert_eq!(
            cell(&outer).unwrap(),
            format!(
                r#"{{"2":[{{"1":["{}"]}}]}}"#,
                std::str::from_utf8(text).unwrap()
            )
        );
        // text that starts with a newline but is no message stays text
        assert_eq!(
            cell(&[0x12, 0x04, b'\n', b'h', b'e', b'y']).unwrap(),
            r#"{"2":["\nhey"]}"#
        );
        // gzip: inflated first
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        std::io::Write::write_all(&mut gz, &msg).unwrap();
        assert_eq!(cell(&gz.finish().unwrap()), cell(&msg));
    }

    #[test]
    fn fixed32_values_as_floats_on_request() {
        // field 1 { field 1 fixed32 37.5f32, field 2 fixed32 -122.25f32 } (Uber's cached location)
        let (lat, lng) = (
            37.5f32.to_bits().to_le_bytes(),
            (-122.25f32).to_bits().to_le_bytes(),
        );
        let mut inner = vec![0x0d];
        inner.extend_from_slice(&lat);
        inner.push(0x15);
        inner.extend_from_slice(&lng);
        let mut msg = vec![0x0a, inner.len() as u8];
        msg.extend_from_slice(&inner);
        let plain = message_opts(&msg, 0, false, false).unwrap();
        assert_eq!(plain["1"][0]["1"][0], 37.5f32.to_bits());
        let m = message_opts(&msg, 0, false, true).unwrap();
        assert_eq!(m["1"][0]["1"][0]["float"], 37.5);
        assert_eq!(m["1"][0]["1"][0]["fixed32"], 37.5f32.to_bits());
        assert_eq!(m["1"][0]["2"][0]["float"], -122.25);
    }

    #[test]
    fn adler32_and_checksummed_framing() {
        // RFC 1950's Adler-32 of "Wikipedia" is 0x11e60398; of nothing, 1
        assert_eq!(adler32(b"Wikipedia"), 0x11e6_0398);
        assert_eq!(adler32(b""), 1);
        // past 5552 bytes (the sums reduced per chunk): as zlib computes it for 100 000 0xff
        assert_eq!(adler32(&[0xff; 100_000]), 0x149a_302c);
        // a message is never framed (its first byte is no zero); 8 bytes or fewer are not
        assert!(checksummed(&[0x08, 0x96, 0x01]).is_none());
        assert!(checksummed(&[0u8; 8]).is_none());
    }
}
