//! `leveldb_records`: every record of a LevelDB store (a directory's `*.log`, `*.ldb` and `*.sst`
//! files, or one of them), each version with its sequence number, as [`masf_evidence::leveldb`]
//! reads them. Chromium's Local Storage values are decoded (their first byte says Latin-1 or
//! UTF-16LE); values that name a secret are redacted before anything is logged.

use std::fmt::Write as _;

use masf_evidence::fs::normalize_path;
use masf_evidence::leveldb::{self, State};
use serde_json::{Value, json};

use crate::fs_tools::file_system;
use crate::{Applicability, SourceCtx, Tool, ToolError, ToolOutput, args};

/// Largest LevelDB file read.
pub const FILE_MAX: u64 = 256 << 20;
/// Most files of one store read.
pub const FILES_MAX: usize = 256;
/// Most output bytes; later records are counted on a `# truncated` line.
pub const OUTPUT_MAX: usize = 32 << 20;

/// JSON keys whose string values are secrets (compared lower case, without `-`/`_`): recovery
/// phrases, private keys, passwords, session tokens. Their values — and any string shaped like a BIP-39
/// recovery phrase ([`phrase_like`]), whatever its key — are replaced by a note of their size,
/// so no secret reaches the invocation log, an agent or the report; the evidence keeps them.
pub const SECRET_KEYS: &[&str] = &[
    "walletseed",
    "seed",
    "seedphrase",
    "seedwords",
    "mnemonic",
    "mnemonicphrase",
    "recoveryphrase",
    "secretrecoveryphrase",
    "privatekey",
    "privkey",
    "xprv",
    "password",
    "passphrase",
    "secret",
    "accesstoken",
    "refreshtoken",
    "accessjwt",
    "refreshjwt",
    "idtoken",
    "authtoken",
];

/// The tool.
pub struct LevelDbRecords;

impl Tool for LevelDbRecords {
    fn name(&self) -> &str {
        "leveldb_records"
    }
    fn description(&self) -> &str {
        "Read every record of a LevelDB store of the evidence (Chromium Local Storage, extension storage, IndexedDB, Electron apps): `path` is the store's directory (its *.log, *.ldb, *.sst files are read in name order) or one of those files. One tab-separated line per record: file, kind (log/table), offset, sequence, state (put/del), encoding, key, value — every version, older and deleted ones included (the newest is the highest sequence). Bytes are shown as UTF-8 with \\t \\n \\\\ and \\xNN escapes; Chromium Local Storage values are decoded from Latin-1 or UTF-16LE (encoding column); with `protobuf`, values that are Protocol Buffers messages are shown decoded as JSON (encoding `protobuf`). JSON values have secrets (mnemonic, seed, private key, password, access and refresh tokens) redacted. Checksum or framing problems are listed as `# problem` lines; the rest is read."
    }
    fn args_schema(&self) -> Value {
        json!({"type": "object", "properties": {
            "partition": {"type": "string", "description": "The file system to use when the source holds several (1-based index or partition name)."},
            "path": {"type": "string", "description": "Absolute path of the store's directory or of one of its files."},
            "key_contains": {"type": "string", "description": "Only records whose key (as shown) contains this text, ASCII case ignored."},
            "protobuf": {"type": "boolean", "description": "Show each value that parses completely as a Protocol Buffers message (Google Play services' queued push messages keep them so) as its raw decoding in JSON, encoding `protobuf` (as `read_protobuf` prints one: an object of field numbers, each an array of values). Other values are shown as without it."},
            "skip": {"type": "integer", "minimum": 0, "description": "Records (of those the filter keeps, in file then file order) passed over before the first shown; with `limit`, to read a large store in pages."},
            "limit": {"type": "integer", "minimum": 1, "description": "Most records shown; a `# page` line then says which were shown of how many."}
        }, "required": ["path"], "additionalProperties": false})
    }
    fn applicability(&self) -> Applicability {
        Applicability::TREE
    }
    fn run(&self, ctx: &SourceCtx, a: &Value) -> Result<ToolOutput, ToolError> {
        let fs = file_system(ctx, a)?;
        let path = normalize_path(args::str(a, "path")?);
        let filter = args::opt_str(a, "key_contains")?;
        let protobuf = args::opt_bool(a, "protobuf")?.unwrap_or(false);
        let skip = args::opt_u64(a, "skip")?.unwrap_or(0);
        let limit = args::opt_u64(a, "limit")?.unwrap_or(u64::MAX);
        // records the filter keeps, and of those the ones shown
        let (mut matched, mut shown) = (0u64, 0u64);
        let mut files = crate::fs_tools::store_files(
            fs.as_ref(),
            &path,
            is_store_file,
            FILES_MAX,
            "LevelDB files",
        )?;
        let mut text = String::new();
        let mut body = String::new();
        let (mut live, mut deleted, mut problems, mut cut) = (0u64, 0u64, 0u64, 0u64);
        let mut redacted = 0u64;
        let mut per_file = Vec::new();
        for file in files.drain(..) {
            let bytes = fs.open(&file)?;
            if bytes.len() > FILE_MAX {
                let _ = writeln!(
                    body,
                    "# problem {file}: {} bytes exceed the limit of {FILE_MAX}; not read",
                    bytes.len()
                );
                problems += 1;
                continue;
            }
            let mut data = vec![0u8; bytes.len() as usize];
            bytes.read_exact_at(0, &mut data)?;
            let name = file.rsplit('/').next().unwrap_or(&file);
            let read = match leveldb::read(name, &data, &format!("leveldb {file}")) {
                Ok(r) => r,
                Err(e) => {
                    let _ = writeln!(body, "# problem {file}: {}", ctx.scrub(&e.to_string()));
                    problems += 1;
                    continue;
                }
            };
            per_file.push(json!({"file": file, "kind": read.kind.as_str(), "records": read.records.len(), "problems": read.problems.len()}));
            for p in &read.problems {
                let _ = writeln!(body, "# problem {file} offset {}: {}", p.offset, p.detail);
                problems += 1;
            }
            for r in &read.records {
                match r.state {
                    State::Live => live += 1,
                    State::Deleted => deleted += 1,
                }
                let key = escape(&r.key);
                if filter
                    .is_some_and(|f| !key.to_ascii_lowercase().contains(&f.to_ascii_lowercase()))
                {
                    continue;
                }
                matched += 1;
                if matched <= skip || shown >= limit {
                    continue;
                }
                let (enc, value) = match protobuf.then(|| crate::protobuf::cell(&r.value)).flatten()
                {
                    Some(m) => ("protobuf", escape(m.as_bytes())),
                    None => decode_value(&r.key, &r.value),
                };
                let (value, n) = redact(&value);
                redacted += n;
                if body.len() + key.len() + value.len() > OUTPUT_MAX {
                    cut += 1;
                    continue;
                }
                shown += 1;
                let _ = writeln!(
                    body,
                    "{name}\t{}\t{}\t{}\t{}\t{enc}\t{key}\t{value}",
                    read.kind.as_str(),
                    r.offset,
                    r.seq,
                    if r.state == State::Live { "put" } else { "del" },
                );
            }
        }
        let _ = writeln!(
            text,
            "# leveldb {path}: {} files, {} records ({live} put, {deleted} deleted), {problems} problems, {redacted} secret values redacted",
            per_file.len(),
            live + deleted
        );
        text.push_str("file\tkind\toffset\tseq\tstate\tencoding\tkey\tvalue\n");
        text.push_str(&body);
        if cut > 0 {
            let _ = writeln!(
                text,
                "# truncated: {cut} records not shown (output limit {OUTPUT_MAX} bytes)"
            );
        }
        if skip > 0 || limit < matched {
            let _ = writeln!(
                text,
                "# page: records {} to {} of {matched} shown",
                skip + 1,
                skip + shown
            );
        }
        Ok(ToolOutput {
            text,
            structured: Some(
                json!({"path": path, "files": per_file, "put": live, "deleted": deleted, "problems": problems, "redacted": redacted, "matched": matched, "shown": shown}),
            ),
        })
    }
}

/// `*.log`, `*.ldb`, `*.sst`: the files of a store that hold records.
pub fn is_store_file(name: &str) -> bool {
    let n = name.to_ascii_lowercase();
    n.ends_with(".log") || n.ends_with(".ldb") || n.ends_with(".sst")
}

/// A LevelDB log by its name: six or more digits, `.log` (`000003.log`).
pub fn is_numbered_log(name: &str) -> bool {
    name.strip_suffix(".log")
        .is_some_and(|n| n.len() >= 6 && n.bytes().all(|b| b.is_ascii_digit()))
}

/// Bytes as text: UTF-8 kept, `\\`, tab, CR, LF and other controls escaped, invalid bytes as
/// `\xNN`.
pub fn escape(b: &[u8]) -> String {
    let mut out = String::with_capacity(b.len());
    for chunk in b.utf8_chunks() {
        for c in chunk.valid().chars() {
            match c {
                '\\' => out.push_str("\\\\"),
                '\t' => out.push_str("\\t"),
                '\n' => out.push_str("\\n"),
                '\r' => out.push_str("\\r"),
                c if (c as u32) < 0x20 || c == '\u{7f}' => {
                    let _ = write!(out, "\\x{:02x}", c as u32);
                }
                c => out.push(c),
            }
        }
        for byte in chunk.invalid() {
            let _ = write!(out, "\\x{byte:02x}");
        }
    }
    out
}

/// A value as text with its encoding: Chromium Local Storage (`_<origin>\0…` keys, and the
/// `META:` entries) stores one byte (0 = UTF-16LE, 1 = Latin-1) before the text.
fn decode_value(key: &[u8], value: &[u8]) -> (&'static str, String) {
    let local_storage = key.first() == Some(&b'_') && key.contains(&0);
    if local_storage && let Some((&first, rest)) = value.split_first() {
        if first == 1 {
            return (
                "latin1",
                escape(
                    rest.iter()
                        .map(|&b| b as char)
                        .collect::<String>()
                        .as_bytes(),
                ),
            );
        }
        if first == 0 && rest.len() % 2 == 0 {
            let units: Vec<u16> = rest
                .chunks_exact(2)
                .map(|c| u16::from_le_bytes([c[0], c[1]]))
                .collect();
            if let Ok(s) = String::from_utf16(&units) {
                return ("utf16le", escape(s.as_bytes()));
            }
        }
    }
    if std::str::from_utf8(value).is_ok() {
        ("utf8", escape(value))
    } else {
        ("bytes", escape(value))
    }
}

/// The value with every secret-named JSON string replaced (see [`SECRET_KEYS`]), and how many
/// were. Only a value that is a JSON object or array (after unescaping) is looked into.
fn redact(shown: &str) -> (String, u64) {
    let t = shown.trim_start();
    if !(t.starts_with('{') || t.starts_with('[')) {
        return (shown.to_string(), 0);
    }
    let raw = unescape(shown);
    let Ok(mut v) = serde_json::from_str::<Value>(&raw) else {
        return (shown.to_string(), 0);
    };
    let n = redact_value(&mut v, 0);
    if n == 0 {
        return (shown.to_string(), 0);
    }
    (escape(v.to_string().as_bytes()), n)
}

fn redact_value(v: &mut Value, depth: usize) -> u64 {
    if depth > 64 {
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
                    n += redact_value(x, depth + 1);
                }
            }
            n
        }
        Value::Array(a) => a.iter_mut().map(|x| redact_value(x, depth + 1)).sum(),
        _ => match redaction(None, v) {
            Some(r) => {
                *v = Value::String(r);
                1
            }
            None => 0,
        },
    }
}

/// Whether a JSON key names a secret ([`SECRET_KEYS`], compared without case, `-` and `_`).
pub(crate) fn secret_key(k: &str) -> bool {
    let norm: String = k
        .chars()
        .filter(|c| *c != '-' && *c != '_')
        .flat_map(char::to_lowercase)
        .collect();
    SECRET_KEYS.contains(&norm.as_str())
}

/// What a value under the key `k` (`None`: an array element or the value itself) is replaced
/// by when it is a secret: a non-empty string under a secret-naming key, or a string shaped like
/// a recovery phrase ([`phrase_like`]); `None` when it is no secret.
pub(crate) fn redaction(k: Option<&str>, v: &Value) -> Option<String> {
    let Value::String(s) = v else {
        return None;
    };
    if s.trim().is_empty() || s.starts_with("[redacted by MASForensics") {
        return None;
    }
    let words = s.split_whitespace().count();
    match k {
        Some(k) if secret_key(k) || phrase_like(s) => Some(format!(
            "[redacted by MASForensics: {k} of {} characters{}]",
            s.chars().count(),
            if words > 1 {
                format!(", {words} words")
            } else {
                String::new()
            }
        )),
        _ if phrase_like(s) => Some(format!(
            "[redacted by MASForensics: a probable recovery phrase of {words} words]"
        )),
        _ => None,
    }
}

/// Whether a text has the shape of a BIP-39 recovery phrase: 12, 15, 18, 21 or 24 words of
/// three to eight lower-case ASCII letters.
pub fn phrase_like(s: &str) -> bool {
    let words: Vec<&str> = s.split_whitespace().collect();
    matches!(words.len(), 12 | 15 | 18 | 21 | 24)
        && words
            .iter()
            .all(|w| (3..=8).contains(&w.len()) && w.bytes().all(|b| b.is_ascii_lowercase()))
}

/// The inverse of [`escape`] for the escapes it writes.
fn unescape(s: &str) -> String {
    let mut out = Vec::with_capacity(s.len());
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'\\' && i + 1 < b.len() {
            match b[i + 1] {
                b'\\' => out.push(b'\\'),
                b't' => out.push(b'\t'),
                b'n' => out.push(b'\n'),
                b'r' => out.push(b'\r'),
                b'x' if i + 4 <= b.len()
                    && s.is_char_boundary(i + 2)
                    && s.is_char_boundary(i + 4) =>
                {
                    if let Ok(v) = u8::from_str_radix(&s[i + 2..i + 4], 16) {
                        out.push(v);
                        i += 4;
                        continue;
                    }
                    out.push(b'\\');
                    i += 1;
                    continue;
                }
                _ => {
                    out.push(b'\\');
                    i += 1;
                    continue;
                }
            }
            i += 2;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_round_trip_and_secrets_are_redacted() {
        let raw = "{\"wallet-seed\":\"speed accuse odor\\n\",\"password\":\"\",\"a\":\"x\\ty\"}";
        let shown = escape(raw.as_bytes());
        assert!(!shown.contains('\t'));
        assert_eq!(unescape(&shown), raw);
        let (out, n) = redact(&shown);
        assert_eq!(n, 1, "the empty password is no secret");
        assert!(!out.contains("accuse"), "{out}");
        assert!(
            out.contains("redacted by MASForensics: wallet-seed of 18 characters, 3 words"),
            "{out}"
        );
        assert_eq!(escape(b"a\xffb\x01"), "a\\xffb\\x01");
        // a phrase under a key no list names, and in an array
        let (out, n) = redact(
            r#"{"x":{"words":"very follow angry proof column rail smile intact broom chicken lens earth"},"l":["abandon ability able about above absent absorb abstract absurd abuse access accident", "Not a phrase at all"]}"#,
        );
        assert_eq!(n, 2, "{out}");
        assert!(
            !out.contains("angry") && !out.contains("absurd") && out.contains("Not a phrase"),
            "{out}"
        );
        assert_eq!(decode_value(b"_o\x00\x01k", b"\x00h\x00i\x00").1, "hi");
        assert_eq!(
            decode_value(b"_o\x00\x01k", b"\x01caf\xe9"),
            ("latin1", "café".to_string())
        );
        assert_eq!(decode_value(b"data", b"{}").0, "utf8");
    }
}
