//! `parse_plist`: a property list of the evidence as canonical JSON. Its own module because
//! its `protobuf` option uses [`crate::protobuf`], which reads property lists held in protobuf
//! fields with [`crate::content_tools`]' plist-to-JSON conversion: kept here, neither of those
//! two imports the other back.

use std::io::Cursor;

use masf_evidence::fs::normalize_path;
use serde_json::{Value, json};

use crate::content_tools::{
    PLIST_MAX, decode_data, file_props, plist_to_json, qualify_arg, qualify_ids, unarchive,
};
use crate::fs_tools::file_system;
use crate::{Applicability, SourceCtx, Tool, ToolError, ToolOutput, args, canonical_value};

/// `parse_plist`: a property list as canonical JSON text.
pub struct ParsePlist;

impl Tool for ParsePlist {
    fn name(&self) -> &str {
        "parse_plist"
    }
    fn description(&self) -> &str {
        "Parse a property list of the evidence (XML or binary) and return it as JSON with sorted keys, pretty-printed. Dates become RFC 3339 UTC strings, data {\"$data_hex\": ...}, UIDs {\"$uid\": n}. An NSKeyedArchiver plist is unwrapped into the object graph it encodes (dictionaries, arrays, strings, NSDate), under the keys of its $top. With qualify {\"<key>\": \"<service>\"}, every string or integer member named <key> gains a sibling \"<key>.qualified\": \"<service>:<value>\" (a service-qualified account id, e.g. twitter:123). With decode_data true, a data value that is itself a binary property list becomes {\"$data_plist\": ...} (unwrapped like the whole) and one that is UTF-8 JSON text {\"$data_json\": ...}; other data stays hex. With protobuf [\"<key>\", …], a data value of a member so named that parses completely as a Protocol Buffers message becomes {\"$data_protobuf\": ...}, decoded without its schema as read_protobuf does, each fixed64 value as {\"fixed64\": n, \"double\": d} (Apple Maps keeps coordinates so)."
    }
    fn args_schema(&self) -> Value {
        let mut props = file_props();
        props.insert(
            "qualify".into(),
            json!({"type": "object", "additionalProperties": {"type": "string"}, "description": "Member names whose string or integer values are account ids of a service: {\"userID\": \"twitter\"} adds \"userID.qualified\": \"twitter:<value>\" beside each. Services are 1-32 lower-case letters, digits, '-' or '_'; at most 16 names."}),
        );
        props.insert(
            "decode_data".into(),
            json!({"type": "boolean", "description": "Decode data values that hold a binary property list ($data_plist) or JSON text ($data_json), up to 3 levels deep; default false (data as $data_hex)."}),
        );
        props.insert(
            "protobuf".into(),
            json!({"type": "array", "items": {"type": "string"}, "maxItems": PROTOBUF_KEYS_MAX, "description": "Member names whose data values are Protocol Buffers messages ($data_protobuf, fixed64 values also as doubles); data that does not parse completely stays hex."}),
        );
        json!({"type": "object", "properties": props, "required": ["path"], "additionalProperties": false})
    }
    fn applicability(&self) -> Applicability {
        Applicability::TREE
    }
    fn run(&self, ctx: &SourceCtx, a: &Value) -> Result<ToolOutput, ToolError> {
        let qualify = qualify_arg(a)?;
        let decode = args::opt_bool(a, "decode_data")?.unwrap_or(false);
        let protobuf_keys =
            args::opt_str_list(a, "protobuf", PROTOBUF_KEYS_MAX)?.unwrap_or_default();
        let fs = file_system(ctx, a)?;
        let path = normalize_path(args::str(a, "path")?);
        let bytes = fs.open(&path)?;
        if bytes.len() > PLIST_MAX {
            return Err(ToolError::Other(format!(
                "{path}: {} bytes exceeds the plist limit of {PLIST_MAX}",
                bytes.len()
            )));
        }
        // Read whole (bounded above): a binary plist is read in many small seeks and reads.
        let mut data = vec![0u8; bytes.len() as usize];
        bytes.read_exact_at(0, &mut data)?;
        // Nesting and shared-reference expansion are bounded there (a typed error naming the
        // offset), so every recursive walk below stays shallow.
        let value = masf_evidence::plist::read(Cursor::new(data), &format!("plist {path}"))?;
        let raw = plist_to_json(&value);
        let (json_value, archived) = match unarchive(&raw) {
            Ok(Some(v)) => (v, true),
            Ok(None) => (raw, false),
            Err(why) => return Err(ToolError::Other(format!("{path}: {why}"))),
        };
        let mut json_value = json_value;
        if decode {
            decode_data(&mut json_value, &path);
        }
        decode_protobuf(&mut json_value, &protobuf_keys);
        qualify_ids(&mut json_value, &qualify);
        let canon = canonical_value(&json_value);
        let mut text = serde_json::to_string_pretty(&canon)
            .map_err(|e| ToolError::Other(format!("{path}: {e}")))?;
        text.push('\n');
        Ok(ToolOutput {
            text,
            structured: Some(json!({"path": path, "nskeyedarchiver": archived, "value": canon})),
        })
    }
}

/// Most member names `parse_plist`'s `protobuf` option takes.
const PROTOBUF_KEYS_MAX: usize = 16;

/// Replaces the `{"$data_hex": …}` value of each member named in `keys` with
/// `{"$data_protobuf": …}` when its bytes parse completely as a Protocol Buffers message
/// (fixed64 values also as doubles: [`crate::protobuf::message_with_doubles`]); data that does
/// not parse stays hex, so decoding never fails the call.
fn decode_protobuf(value: &mut Value, keys: &[&str]) {
    if keys.is_empty() {
        return;
    }
    let mut stack: Vec<&mut Value> = vec![value];
    while let Some(v) = stack.pop() {
        match v {
            Value::Object(map) => {
                for (key, member) in map.iter_mut() {
                    if !keys.contains(&key.as_str()) {
                        stack.push(member);
                        continue;
                    }
                    let message = member
                        .get("$data_hex")
                        .and_then(Value::as_str)
                        .and_then(|h| hex::decode(h).ok())
                        .and_then(|b| crate::protobuf::message_with_doubles(&b));
                    match message {
                        Some(m) => *member = json!({"$data_protobuf": m}),
                        None => stack.push(member),
                    }
                }
            }
            Value::Array(items) => stack.extend(items.iter_mut()),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn named_data_members_are_decoded_as_protobuf_and_others_stay_hex() {
        // field 1 double 47.5, field 2 double -9.25 (tags 0x09, 0x11)
        let mut camera = vec![0x09];
        camera.extend(47.5f64.to_le_bytes());
        camera.push(0x11);
        camera.extend((-9.25f64).to_le_bytes());
        let camera = hex::encode(&camera);
        let mut v = json!({
            "cam": {"$data_hex": camera},
            "nested": [{"cam": {"$data_hex": "ff"}}],
            "other": {"$data_hex": camera},
        });
        decode_protobuf(&mut v, &["cam"]);
        assert_eq!(v["cam"]["$data_protobuf"]["1"][0]["double"], json!(47.5));
        assert_eq!(v["cam"]["$data_protobuf"]["2"][0]["double"], json!(-9.25));
        // a truncated varint is no message: kept as hex
        assert_eq!(v["nested"][0]["cam"], json!({"$data_hex": "ff"}));
        // a member not named stays hex
        assert_eq!(v["other"], json!({"$data_hex": camera}));
    }
}
