//! Tools over a file's content: strings, and the property-list conversion `parse_plist` (in
//! [`crate::plist_tool`]) and other readers share.

use std::fmt::Write as _;

use std::io::Cursor;

use masf_evidence::fs::normalize_path;
use serde_json::{Map, Value, json};

use crate::fs_tools::file_system;
use crate::{Applicability, SourceCtx, Tool, ToolError, ToolOutput, args};

/// Most bytes `strings` scans in one call, and its default.
pub const STRINGS_MAX: u64 = 16 << 20;
/// Largest plist `parse_plist` reads.
pub const PLIST_MAX: u64 = 64 << 20;
/// Deepest nesting of an unwrapped NSKeyedArchiver object graph (guards against cycles).
pub const ARCHIVE_DEPTH: usize = 64;

const TREE: Applicability = Applicability::TREE;

pub(crate) fn file_props() -> Map<String, Value> {
    let mut m = Map::new();
    m.insert("partition".into(), json!({"type": "string", "description": "The file system to use when the source holds several (1-based index or partition name)."}));
    m.insert(
        "path".into(),
        json!({"type": "string", "description": "Absolute path of the file inside the evidence."}),
    );
    m
}

/// `strings`: printable runs in a file.
pub struct Strings;

fn ascii_printable(b: u8) -> bool {
    (0x20..0x7f).contains(&b) || b == b'\t'
}

/// Printable ASCII runs of at least `min` bytes (`utf16` false), or UTF-16LE runs of at least
/// `min` characters whose high bytes are zero (`utf16` true), with their offsets in `data`.
pub fn find_strings(data: &[u8], min: usize, utf16: bool) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let step = if utf16 { 2 } else { 1 };
    let mut start = None;
    let mut run = String::new();
    let mut i = 0;
    while i + step <= data.len() {
        let b = data[i];
        let ok = ascii_printable(b) && (!utf16 || data[i + 1] == 0);
        if ok {
            start.get_or_insert(i);
            run.push(b as char);
        } else {
            if let Some(s) = start.take()
                && run.len() >= min
            {
                out.push((s, std::mem::take(&mut run)));
            }
            run.clear();
        }
        i += step;
    }
    if let Some(s) = start
        && run.len() >= min
    {
        out.push((s, run));
    }
    out
}

impl Tool for Strings {
    fn name(&self) -> &str {
        "strings"
    }
    fn description(&self) -> &str {
        "Extract printable text runs from a file of the evidence (like the strings utility): ASCII by default, or UTF-16LE with encoding 'utf16le'. One run a line as '<byte offset in the file>\\t<text>'. min_len defaults to 4; offset/length select a range (length defaults to and is capped at 16 MiB)."
    }
    fn args_schema(&self) -> Value {
        let mut p = file_props();
        p.insert("min_len".into(), json!({"type": "integer", "minimum": 1, "description": "Shortest run reported, in characters (default 4)."}));
        p.insert("encoding".into(), json!({"type": "string", "enum": ["ascii", "utf16le"], "description": "ascii (default) or utf16le."}));
        p.insert(
            "offset".into(),
            json!({"type": "integer", "minimum": 0, "description": "First byte (default 0)."}),
        );
        p.insert("length".into(), json!({"type": "integer", "minimum": 0, "description": "Bytes to scan (default and most 16777216)."}));
        json!({"type": "object", "properties": p, "required": ["path"], "additionalProperties": false})
    }
    fn applicability(&self) -> Applicability {
        TREE
    }
    fn run(&self, ctx: &SourceCtx, a: &Value) -> Result<ToolOutput, ToolError> {
        let utf16 = match args::opt_str(a, "encoding")? {
            None | Some("ascii") => false,
            Some("utf16le") => true,
            Some(other) => {
                return Err(ToolError::InvalidArgs(format!(
                    "encoding must be ascii or utf16le, not {other:?}"
                )));
            }
        };
        let min = args::opt_u64(a, "min_len")?.unwrap_or(4).max(1) as usize;
        let fs = file_system(ctx, a)?;
        let path = normalize_path(args::str(a, "path")?);
        let offset = args::opt_u64(a, "offset")?.unwrap_or(0);
        let length = args::opt_u64(a, "length")?
            .unwrap_or(STRINGS_MAX)
            .min(STRINGS_MAX);
        let bytes = fs.open(&path)?;
        let want = length.min(bytes.len().saturating_sub(offset)) as usize;
        let mut buf = vec![0u8; want];
        if want > 0 {
            bytes.read_exact_at(offset, &mut buf)?;
        }
        let found = find_strings(&buf, min, utf16);
        let mut text = String::new();
        for (o, s) in &found {
            let _ = writeln!(text, "{}\t{s}", offset + *o as u64);
        }
        Ok(ToolOutput {
            text,
            structured: Some(json!({
                "path": path,
                "offset": offset,
                "length": want,
                "strings": found.iter().map(|(o, s)| json!({"offset": offset + *o as u64, "text": s})).collect::<Vec<_>>(),
            })),
        })
    }
}

/// A plist value as JSON: dates as RFC 3339 strings, data as `{"$data_hex": …}`, UIDs as
/// `{"$uid": n}`, integers as JSON integers.
///
/// Recursive: give it values read by [`masf_evidence::plist::read`], whose nesting is bounded
/// by [`masf_evidence::plist::MAX_DEPTH`].
pub fn plist_to_json(v: &plist::Value) -> Value {
    match v {
        plist::Value::Array(items) => Value::Array(items.iter().map(plist_to_json).collect()),
        plist::Value::Dictionary(d) => Value::Object(
            d.iter()
                .map(|(k, v)| (k.clone(), plist_to_json(v)))
                .collect(),
        ),
        plist::Value::Boolean(b) => json!(b),
        plist::Value::Data(d) => json!({"$data_hex": hex::encode(d)}),
        plist::Value::Date(d) => {
            let t: std::time::SystemTime = (*d).into();
            match jiff::Timestamp::try_from(t) {
                Ok(ts) => json!(ts.to_string()),
                Err(_) => json!(d.to_xml_format()),
            }
        }
        plist::Value::Real(f) => json!(f),
        plist::Value::Integer(i) => match (i.as_signed(), i.as_unsigned()) {
            (Some(s), _) => json!(s),
            (None, Some(u)) => json!(u),
            _ => Value::Null,
        },
        plist::Value::String(s) => json!(s),
        plist::Value::Uid(u) => json!({"$uid": u.get()}),
        _ => Value::Null,
    }
}

/// Unwraps an NSKeyedArchiver plist (`$archiver`, `$objects`, `$top`) into the object graph it
/// encodes: UIDs resolved, `NS.keys`/`NS.objects` dictionaries and `NS.objects` arrays rebuilt,
/// `NS.string`/`NS.data` unwrapped, `$null` as null, `$class` dropped. `Ok(None)` for any other
/// plist.
///
/// An archive names objects by reference, so a small one can describe a graph whose unwrapped
/// form is enormous (each object naming the next twice) or a cycle: nesting is cut at
/// [`ARCHIVE_DEPTH`] levels (`{"$truncated": …}`), and an archive that would unwrap into more
/// than [`ARCHIVE_MAX_VALUES`] values is an error rather than a runaway.
pub fn unarchive(root: &Value) -> Result<Option<Value>, String> {
    let Some(obj) = root.as_object() else {
        return Ok(None);
    };
    if obj.get("$archiver").and_then(Value::as_str) != Some("NSKeyedArchiver") {
        return Ok(None);
    }
    let (Some(objects), Some(top)) = (
        obj.get("$objects").and_then(Value::as_array),
        obj.get("$top").and_then(Value::as_object),
    ) else {
        return Ok(None);
    };
    let mut u = Unarchiver {
        objects,
        produced: 0,
    };
    let mut out = Map::new();
    for (k, v) in top {
        out.insert(k.clone(), u.resolve(v, 0)?);
    }
    Ok(Some(Value::Object(out)))
}

/// Most values [`unarchive`] produces.
pub const ARCHIVE_MAX_VALUES: usize = 1_000_000;

fn uid(v: &Value) -> Option<usize> {
    let o = v.as_object()?;
    if o.len() == 1 {
        o.get("$uid")?.as_u64().map(|u| u as usize)
    } else {
        None
    }
}

struct Unarchiver<'a> {
    objects: &'a [Value],
    produced: usize,
}

impl Unarchiver<'_> {
    /// Counts one more value produced, failing past [`ARCHIVE_MAX_VALUES`].
    fn produce(&mut self, value: Value) -> Result<Value, String> {
        self.produced += 1;
        if self.produced > ARCHIVE_MAX_VALUES {
            return Err(format!(
                "NSKeyedArchiver object graph unwraps into more than {ARCHIVE_MAX_VALUES} values (objects shared or cyclic)"
            ));
        }
        Ok(value)
    }

    fn resolve(&mut self, v: &Value, depth: usize) -> Result<Value, String> {
        if depth > ARCHIVE_DEPTH {
            return self.produce(json!({"$truncated": "nesting deeper than 64"}));
        }
        if let Some(i) = uid(v) {
            return match self.objects.get(i) {
                Some(Value::String(s)) if s == "$null" => self.produce(Value::Null),
                Some(target) => self.resolve_object(target, depth + 1),
                None => self.produce(json!({"$bad_uid": i})),
            };
        }
        let value = match v {
            Value::Array(items) => {
                let mut out = Vec::with_capacity(items.len());
                for x in items {
                    out.push(self.resolve(x, depth + 1)?);
                }
                Value::Array(out)
            }
            Value::Object(_) => return self.resolve_object(v, depth + 1),
            other => other.clone(),
        };
        self.produce(value)
    }

    fn resolve_object(&mut self, v: &Value, depth: usize) -> Result<Value, String> {
        let Some(o) = v.as_object() else {
            return self.resolve(v, depth);
        };
        if uid(v).is_some() {
            return self.resolve(v, depth);
        }
        if let (Some(Value::Array(keys)), Some(Value::Array(vals))) =
            (o.get("NS.keys"), o.get("NS.objects"))
        {
            let mut map = Map::new();
            for (k, val) in keys.iter().zip(vals) {
                let key = match self.resolve(k, depth + 1)? {
                    Value::String(s) => s,
                    other => other.to_string(),
                };
                let value = self.resolve(val, depth + 1)?;
                map.insert(key, value);
            }
            return self.produce(Value::Object(map));
        }
        if let Some(Value::Array(vals)) = o.get("NS.objects") {
            let mut out = Vec::with_capacity(vals.len());
            for x in vals {
                out.push(self.resolve(x, depth + 1)?);
            }
            return self.produce(Value::Array(out));
        }
        for key in ["NS.string", "NS.bytes", "NS.data"] {
            if let Some(x) = o.get(key) {
                return self.resolve(x, depth + 1);
            }
        }
        if let Some(t) = o.get("NS.time").and_then(Value::as_f64) {
            // NSDate: seconds since 2001-01-01T00:00:00Z.
            let secs = t + 978_307_200.0;
            return self.produce(
                match jiff::Timestamp::from_microsecond((secs * 1e6).round() as i64) {
                    Ok(ts) => json!(ts.to_string()),
                    Err(_) => json!({"NS.time": t}),
                },
            );
        }
        let mut out = Map::new();
        for (k, x) in o.iter().filter(|(k, _)| k.as_str() != "$class") {
            out.insert(k.clone(), self.resolve(x, depth + 1)?);
        }
        self.produce(Value::Object(out))
    }
}

/// A binary property list held in other bytes (a Protocol Buffers field of a Biome record) as
/// JSON: an NSKeyedArchiver one unwrapped, data inside decoded as [`decode_data`] does; `None`
/// when it does not parse.
pub fn embedded_plist(b: &[u8], what: &str) -> Option<Value> {
    let value = masf_evidence::plist::read(Cursor::new(b), what).ok()?;
    let raw = plist_to_json(&value);
    let mut v = match unarchive(&raw) {
        Ok(Some(u)) => u,
        Ok(None) => raw,
        Err(_) => return None,
    };
    decode_data(&mut v, what);
    Some(crate::canonical_value(&v))
}

/// Levels of data-in-data that [`decode_data`] opens.
const DATA_DEPTH: usize = 3;

/// Replaces each `{"$data_hex": …}` that holds a binary property list with
/// `{"$data_plist": …}` (an NSKeyedArchiver one unwrapped) and each that holds UTF-8 JSON text
/// with `{"$data_json": …}`, down to [`DATA_DEPTH`] levels of data inside data. Data that is
/// neither, or does not parse, stays hex: decoding never fails the call.
pub(crate) fn decode_data(value: &mut Value, path: &str) {
    let mut stack: Vec<(&mut Value, usize)> = vec![(value, 0)];
    while let Some((v, depth)) = stack.pop() {
        match v {
            Value::Object(map) => {
                let hex = match map.get("$data_hex") {
                    Some(Value::String(h)) if map.len() == 1 && depth < DATA_DEPTH => h,
                    _ => {
                        stack.extend(map.values_mut().map(|x| (x, depth)));
                        continue;
                    }
                };
                let Ok(bytes) = hex::decode(hex) else {
                    continue;
                };
                let decoded = if bytes.starts_with(b"bplist00") {
                    masf_evidence::plist::read(Cursor::new(bytes), &format!("plist data in {path}"))
                        .ok()
                        .map(|inner| {
                            let raw = plist_to_json(&inner);
                            let inner = match unarchive(&raw) {
                                Ok(Some(u)) => u,
                                _ => raw,
                            };
                            ("$data_plist", inner)
                        })
                } else {
                    std::str::from_utf8(&bytes)
                        .ok()
                        .filter(|t| matches!(t.trim_start().as_bytes().first(), Some(b'{' | b'[')))
                        .and_then(|t| serde_json::from_str::<Value>(t).ok())
                        .map(|j| ("$data_json", j))
                };
                if let Some((key, inner)) = decoded {
                    map.clear();
                    map.insert(key.to_string(), inner);
                    stack.extend(map.values_mut().map(|x| (x, depth + 1)));
                }
            }
            Value::Array(items) => stack.extend(items.iter_mut().map(|x| (x, depth))),
            _ => {}
        }
    }
}

/// The `qualify` argument of `parse_plist` (and of `sqlite_query` with `plists`): member
/// name → service.
pub(crate) fn qualify_arg(a: &Value) -> Result<Vec<(String, String)>, ToolError> {
    let bad = |why: String| ToolError::InvalidArgs(format!("qualify: {why}"));
    let Some(q) = a.get("qualify").filter(|v| !v.is_null()) else {
        return Ok(Vec::new());
    };
    let Some(map) = q.as_object() else {
        return Err(bad(
            "must be an object of member name to service, e.g. {\"userID\": \"twitter\"}".into(),
        ));
    };
    if map.len() > 16 {
        return Err(bad(format!("{} names; at most 16", map.len())));
    }
    let mut out = Vec::new();
    for (key, service) in map {
        let Some(service) = service.as_str() else {
            return Err(bad(format!("the service of {key:?} must be a string")));
        };
        let valid = (1..=32).contains(&service.len())
            && service
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'_');
        if key.is_empty() || !valid {
            return Err(bad(format!(
                "{key:?} → {service:?}: a name must be non-empty and a service 1-32 lower-case letters, digits, '-' or '_'"
            )));
        }
        out.push((key.clone(), service.to_string()));
    }
    Ok(out)
}

/// Adds `"<key>.qualified": "<service>:<value>"` beside every string or integer member named
/// in `qualify` (walked with an explicit stack: the value's depth is bounded by the plist
/// reader, and this walk does not recurse).
pub(crate) fn qualify_ids(value: &mut Value, qualify: &[(String, String)]) {
    if qualify.is_empty() {
        return;
    }
    let mut stack: Vec<&mut Value> = vec![value];
    while let Some(v) = stack.pop() {
        match v {
            Value::Object(map) => {
                let mut added = Vec::new();
                for (key, service) in qualify {
                    let id = match map.get(key) {
                        Some(Value::String(s)) if !s.is_empty() => s.clone(),
                        Some(Value::Number(n)) if n.is_i64() || n.is_u64() => n.to_string(),
                        _ => continue,
                    };
                    added.push((format!("{key}.qualified"), json!(format!("{service}:{id}"))));
                }
                for (k, q) in added {
                    map.insert(k, q);
                }
                stack.extend(map.values_mut());
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
    fn data_holding_json_or_a_plist_is_decoded_and_other_data_stays_hex() {
        let json_text = hex::encode(br#"[{"name":"Liz","phoneNumber":"+19199282177"}]"#);
        let mut nested = Vec::new();
        plist::Value::Dictionary(plist::Dictionary::from_iter([(
            "inner".to_string(),
            plist::Value::Data(br#"{"id": 7}"#.to_vec()),
        )]))
        .to_writer_binary(&mut nested)
        .unwrap();
        let mut v = json!({
            "a": {"$data_hex": json_text},
            "b": [{"$data_hex": hex::encode(&nested)}],
            "c": {"$data_hex": "00ff10"},
            "d": {"$data_hex": hex::encode(b"{not json")},
        });
        decode_data(&mut v, "/x.plist");
        assert_eq!(
            v["a"]["$data_json"][0]["phoneNumber"],
            json!("+19199282177")
        );
        assert_eq!(
            v["b"][0]["$data_plist"]["inner"]["$data_json"]["id"],
            json!(7)
        );
        assert_eq!(v["c"], json!({"$data_hex": "00ff10"}));
        assert!(v["d"].get("$data_hex").is_some());
    }

    #[test]
    fn qualified_ids_are_added_beside_their_members() {
        let mut v = json!({"userID": 1068228364824178689u64, "users": [{"userID": "42", "name": "x"}, {"userID": 1.5}]});
        let q = qualify_arg(&json!({"qualify": {"userID": "twitter"}})).unwrap();
        qualify_ids(&mut v, &q);
        assert_eq!(v["userID.qualified"], json!("twitter:1068228364824178689"));
        assert_eq!(v["users"][0]["userID.qualified"], json!("twitter:42"));
        assert!(v["users"][1].get("userID.qualified").is_none());
        for bad in [
            json!({"qualify": ["userID"]}),
            json!({"qualify": {"userID": "Twitter"}}),
            json!({"qualify": {"": "twitter"}}),
            json!({"qualify": {"userID": 3}}),
        ] {
            assert!(
                matches!(qualify_arg(&bad), Err(ToolError::InvalidArgs(m)) if m.starts_with("qualify: ")),
                "{bad}"
            );
        }
    }

    #[test]
    fn strings_finds_ascii_and_utf16_runs() {
        let data = b"\x00\x01abcd\x00ab\x00hello world\x01";
        assert_eq!(
            find_strings(data, 4, false),
            vec![(2, "abcd".to_string()), (10, "hello world".to_string())]
        );
        let wide = b"\xffh\x00i\x00!\x00\x00\x00";
        assert_eq!(find_strings(wide, 3, true), vec![]);
        let wide = b"h\x00i\x00!\x00\x00\x00";
        assert_eq!(find_strings(wide, 3, true), vec![(0, "hi!".to_string())]);
    }

    #[test]
    fn keyed_archives_are_unwrapped() {
        let archive = json!({
            "$archiver": "NSKeyedArchiver",
            "$version": 100000,
            "$top": {"root": {"$uid": 1}},
            "$objects": [
                "$null",
                {"$class": {"$uid": 4}, "NS.keys": [{"$uid": 2}], "NS.objects": [{"$uid": 3}]},
                "name",
                "LEUNG YL",
                {"$classname": "NSDictionary"}
            ]
        });
        assert_eq!(
            unarchive(&archive).unwrap(),
            Some(json!({"root": {"name": "LEUNG YL"}}))
        );
        assert_eq!(unarchive(&json!({"a": 1})), Ok(None));
    }

    #[test]
    fn keyed_archives_that_expand_without_bound_are_refused() {
        // Object i is an NSArray naming object i + 1 twice: 2^60 values once unwrapped.
        let mut objects = vec![json!("$null")];
        for i in 1..=60 {
            objects.push(json!({"NS.objects": [{"$uid": i + 1}, {"$uid": i + 1}]}));
        }
        objects.push(json!("leaf"));
        let archive = json!({
            "$archiver": "NSKeyedArchiver",
            "$top": {"root": {"$uid": 1}},
            "$objects": objects,
        });
        let err = unarchive(&archive).unwrap_err();
        assert!(err.contains("more than 1000000 values"), "{err}");
    }
}
