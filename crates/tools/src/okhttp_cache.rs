//! `read_okhttp_cache`: an OkHttp HTTP response cache of the evidence (the folder an Android
//! app gives `okhttp3.Cache`: a `journal` and two files per response, `<key>.0` its metadata and
//! `<key>.1` its body), one line per response the app fetched or the journal remembers.
//!
//! Hand-written: no maintained crate reads OkHttp's cache. The format is OkHttp's own (the same
//! in OkHttp 3 and 4): a `DiskLruCache` journal (magic `libcore.io.DiskLruCache`, version 1,
//! OkHttp's app version 201105, two values per entry; then `DIRTY`/`CLEAN <key> <sizes>`/`READ`/
//! `REMOVE` lines), and per entry a text file of lines: the URL, the request method, the count
//! and lines of the request headers the response varies on, the status line, the count and
//! lines of the response headers (OkHttp adds `OkHttp-Sent-Millis` and
//! `OkHttp-Received-Millis`, Unix ms), and for HTTPS a blank line, the cipher suite, the count
//! and base64 DER of the peer's certificates, those of the local ones and the TLS version. The
//! key is the MD5 of the URL in hex, which is checked.
//!
//! Secrets are redacted before anything is printed: the values of `Authorization`,
//! `Proxy-Authorization`, `Cookie` and `Set-Cookie` headers and of any header whose name says
//! token, secret, password or key-like words (`xml_tool::secret_name`) print as
//! `[redacted by MASForensics: <header> of <n> characters]`. The bodies (`<key>.1`) are not
//! printed: their size is, so a reader can open one with `read_text`.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use base64::Engine as _;
use masf_evidence::fs::{EntryKind, normalize_path};
use md5::{Digest as _, Md5};
use serde_json::{Value, json};
use sha2::Sha256;

use crate::fs_tools::file_system;
use crate::sqlite::escape_cell;
use crate::{Applicability, SourceCtx, Tool, ToolError, ToolOutput, args};

/// Largest journal read.
pub const JOURNAL_MAX: u64 = 16 << 20;
/// Largest entry metadata file read (OkHttp's are a few KiB).
pub const ENTRY_MAX: u64 = 1 << 20;
/// Default and largest number of entries printed.
pub const DEFAULT_LIMIT: u64 = 5_000;
pub const MAX_LIMIT: u64 = 100_000;
/// OkHttp's app version in the journal header.
pub const OKHTTP_APP_VERSION: &str = "201105";
/// The journal's magic line.
pub const MAGIC: &str = "libcore.io.DiskLruCache";

/// The tool.
pub struct ReadOkhttpCache;

/// What the journal says of one key, in the order keys first appear.
#[derive(Debug, Default, Clone)]
pub struct Journaled {
    /// `clean` (last `CLEAN`), `removed` (last op `REMOVE`), `dirty` (a `DIRTY` never
    /// completed).
    pub state: &'static str,
    /// The sizes of the last `CLEAN` line (metadata, body).
    pub sizes: Option<(u64, u64)>,
    /// `READ` lines: how often the app was served this response from the cache.
    pub reads: u64,
    /// The journal line of the key's first appearance (1-based).
    pub first_line: usize,
}

/// A journal's header values and its keys, or why it is none.
#[derive(Debug)]
pub struct Journal {
    pub app_version: String,
    pub value_count: String,
    pub keys: Vec<(String, Journaled)>,
    /// Lines that are not journal operations: `(line number, text)`.
    pub bad: Vec<(usize, String)>,
}

/// Reads a `DiskLruCache` journal; an error when the header is not one.
pub fn parse_journal(text: &str) -> Result<Journal, String> {
    let mut lines = text.split('\n');
    let mut header = Vec::new();
    for _ in 0..5 {
        header.push(
            lines
                .next()
                .ok_or("the journal ends inside its five-line header")?,
        );
    }
    if header[0] != MAGIC {
        return Err(format!(
            "the journal's first line is not {MAGIC:?} (it is {:?})",
            header[0].chars().take(40).collect::<String>()
        ));
    }
    if header[1] != "1" || !header[4].is_empty() {
        return Err(format!(
            "the journal's header is not version 1 followed by a blank line ({:?}, {:?})",
            header[1], header[4]
        ));
    }
    let mut index: BTreeMap<String, usize> = BTreeMap::new();
    let mut keys: Vec<(String, Journaled)> = Vec::new();
    let mut bad = Vec::new();
    for (i, line) in lines.enumerate() {
        let number = i + 6;
        if line.is_empty() {
            continue;
        }
        let mut parts = line.split(' ');
        let (op, key) = (parts.next().unwrap_or(""), parts.next());
        let Some(key) =
            key.filter(|k| !k.is_empty() && matches!(op, "DIRTY" | "CLEAN" | "READ" | "REMOVE"))
        else {
            bad.push((number, line.to_string()));
            continue;
        };
        let at = *index.entry(key.to_string()).or_insert_with(|| {
            keys.push((
                key.to_string(),
                Journaled {
                    state: "dirty",
                    first_line: number,
                    ..Journaled::default()
                },
            ));
            keys.len() - 1
        });
        let j = &mut keys[at].1;
        match op {
            "DIRTY" => j.state = "dirty",
            "CLEAN" => {
                let sizes: Vec<u64> = parts.filter_map(|s| s.parse().ok()).collect();
                j.state = "clean";
                j.sizes = (sizes.len() == 2).then(|| (sizes[0], sizes[1]));
            }
            "READ" => j.reads += 1,
            _ => j.state = "removed",
        }
    }
    Ok(Journal {
        app_version: header[2].to_string(),
        value_count: header[3].to_string(),
        keys,
        bad,
    })
}

/// One entry's metadata file, as OkHttp writes it.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Entry {
    pub url: String,
    pub method: String,
    /// The request headers the response varies on, secrets redacted.
    pub vary: Vec<(String, String)>,
    pub status: String,
    /// Response headers in stored order, secrets redacted.
    pub headers: Vec<(String, String)>,
    pub cipher_suite: Option<String>,
    /// SHA-256 of each peer certificate's DER, in hex.
    pub peer_certificates: Vec<String>,
    pub tls_version: Option<String>,
    /// How many header values were redacted.
    pub redacted: usize,
}

/// Whether a header's value is a secret: credentials and cookies, or a name that says so.
pub fn secret_header(name: &str) -> bool {
    let n = name.to_ascii_lowercase();
    matches!(
        n.as_str(),
        "authorization"
            | "proxy-authorization"
            | "cookie"
            | "set-cookie"
            | "cookie2"
            | "set-cookie2"
    ) || crate::xml_tool::secret_name(&n)
}

fn header_line(line: &str, redacted: &mut usize) -> (String, String) {
    // OkHttp writes `name: value`; a header whose name starts with ':' (HTTP/2 pseudo
    // headers kept by older releases) is split after its first character's colon
    let split = if let Some(rest) = line.strip_prefix(':') {
        rest.find(':').map(|i| i + 1)
    } else {
        line.find(':')
    };
    let (name, value) = match split {
        Some(i) => (line[..i].trim(), line[i + 1..].trim_start()),
        None => ("", line),
    };
    if secret_header(name) && !value.is_empty() {
        *redacted += 1;
        return (
            name.to_string(),
            format!(
                "[redacted by MASForensics: {name} of {} characters]",
                value.chars().count()
            ),
        );
    }
    (name.to_string(), value.to_string())
}

/// Reads an entry's metadata file; an error naming the line where it stops making sense.
pub fn parse_entry(text: &str) -> Result<Entry, String> {
    let lines: Vec<&str> = text.split('\n').collect();
    let mut at = 0usize;
    let mut next = |what: &str| -> Result<&str, String> {
        let l = lines
            .get(at)
            .copied()
            .ok_or_else(|| format!("the file ends at line {} where {what} should be", at + 1))?;
        at += 1;
        Ok(l)
    };
    let mut e = Entry {
        url: next("the URL")?.to_string(),
        method: next("the request method")?.to_string(),
        ..Entry::default()
    };
    if !(e.url.starts_with("http://") || e.url.starts_with("https://")) {
        return Err(format!("line 1 is no http(s) URL: {:?}", cut(&e.url)));
    }
    let count = |l: &str, what: &str| -> Result<usize, String> {
        l.trim()
            .parse::<i64>()
            .ok()
            .filter(|n| (0..=10_000).contains(n))
            .map(|n| n as usize)
            .ok_or_else(|| format!("{what} is not a count: {:?}", cut(l)))
    };
    let n = count(
        next("the request header count")?,
        "the request header count",
    )?;
    for _ in 0..n {
        let l = next("a request header")?;
        let h = header_line(l, &mut e.redacted);
        e.vary.push(h);
    }
    e.status = next("the status line")?.to_string();
    let n = count(
        next("the response header count")?,
        "the response header count",
    )?;
    for _ in 0..n {
        let l = next("a response header")?;
        let h = header_line(l, &mut e.redacted);
        e.headers.push(h);
    }
    if e.url.starts_with("https://") {
        let blank = next("the blank line before the TLS handshake")?;
        if !blank.is_empty() {
            return Err(format!(
                "the line after the headers is not blank: {:?}",
                cut(blank)
            ));
        }
        e.cipher_suite = Some(next("the cipher suite")?.to_string());
        let peers = next("the peer certificate count")?;
        // -1: no certificates
        if peers.trim() != "-1" {
            for _ in 0..count(peers, "the peer certificate count")? {
                let b64 = next("a peer certificate")?;
                let der = base64::engine::general_purpose::STANDARD
                    .decode(b64.trim())
                    .map_err(|err| format!("a peer certificate is not base64: {err}"))?;
                e.peer_certificates.push(hex(&Sha256::digest(&der)));
            }
        }
        let locals = next("the local certificate count")?;
        if locals.trim() != "-1" {
            for _ in 0..count(locals, "the local certificate count")? {
                next("a local certificate")?;
            }
        }
        // OkHttp 3.0–3.3 wrote no TLS version
        e.tls_version = lines
            .get(at)
            .map(|l| l.trim())
            .filter(|l| !l.is_empty())
            .map(str::to_string);
    }
    Ok(e)
}

fn cut(s: &str) -> String {
    s.chars().take(60).collect()
}

fn hex(b: &[u8]) -> String {
    b.iter().fold(String::new(), |mut s, x| {
        let _ = write!(s, "{x:02x}");
        s
    })
}

/// The bytes of a file (its size checked by the caller).
fn read_all(fs: &dyn masf_evidence::fs::FileSystem, path: &str) -> Result<Vec<u8>, ToolError> {
    let bytes = fs.open(path)?;
    let mut data = vec![0u8; bytes.len() as usize];
    bytes.read_exact_at(0, &mut data)?;
    Ok(data)
}

/// OkHttp's key for a URL: the MD5 of its UTF-8 bytes in lower-case hex.
pub fn key_of(url: &str) -> String {
    hex(&Md5::digest(url.as_bytes()))
}

/// Unix milliseconds as RFC 3339 UTC, empty when not a plausible time.
fn millis_utc(ms: &str) -> String {
    ms.trim()
        .parse::<i64>()
        .ok()
        .and_then(|m| jiff::Timestamp::from_millisecond(m).ok())
        .map(|t| t.to_string())
        .unwrap_or_default()
}

/// The response headers printed in their own columns, by lower-case name.
const COLUMNS: [&str; 4] = [
    "okhttp-sent-millis",
    "okhttp-received-millis",
    "content-type",
    "date",
];

impl Tool for ReadOkhttpCache {
    fn name(&self) -> &str {
        "read_okhttp_cache"
    }
    fn description(&self) -> &str {
        "Read an OkHttp HTTP response cache (an Android app's cache folder holding OkHttp's `journal` — first line libcore.io.DiskLruCache, app version 201105 — and per response `<key>.0`, its metadata, and `<key>.1`, its body): `path` is the folder. After a `# okhttp cache` line, one tab-separated line per entry (header row first): key, state (clean: kept; removed: evicted or deleted by the app, its files gone; dirty: a write never completed; unlisted: files the journal does not name), reads (times the app was served it from the cache), URL, method, status line, sent and received (OkHttp-Sent-Millis / OkHttp-Received-Millis, Unix ms) and both in UTC, Content-Type, Date, every other response header as `name: value` joined by ` | `, the request headers the response varies on, cipher suite, TLS version, the SHA-256 of each peer certificate, the metadata and body sizes, and whether the key is the MD5 of the URL. Values of Authorization, Cookie, Set-Cookie and secret-named headers are printed as `[redacted by MASForensics: <header> of <n> characters]`. A folder whose journal is another DiskLruCache (Glide's images: app version 1) prints one `# not an OkHttp cache` line. Problems (a cut metadata file, a bad journal line) are `# problem` lines; the rest is read."
    }
    fn args_schema(&self) -> Value {
        json!({"type": "object", "properties": {
            "partition": {"type": "string", "description": "The file system to use when the source holds several (1-based index or partition name)."},
            "path": {"type": "string", "description": "Absolute path of the cache folder (the one holding `journal`)."},
            "limit": {"type": "integer", "minimum": 1, "description": "Most entries printed (default 5000, at most 100000)."}
        }, "required": ["path"], "additionalProperties": false})
    }
    fn applicability(&self) -> Applicability {
        Applicability::TREE
    }
    fn run(&self, ctx: &SourceCtx, a: &Value) -> Result<ToolOutput, ToolError> {
        let fs = file_system(ctx, a)?;
        let path = normalize_path(args::str(a, "path")?);
        let limit = args::opt_u64(a, "limit")?
            .unwrap_or(DEFAULT_LIMIT)
            .clamp(1, MAX_LIMIT) as usize;
        if fs.stat(&path)?.kind != EntryKind::Dir {
            return Err(ToolError::InvalidArgs(format!(
                "{path} is not a folder: give the cache folder that holds `journal`"
            )));
        }
        let children = fs.list_dir(&path)?;
        let size_of = |name: &str| {
            children
                .iter()
                .find(|e| e.kind == EntryKind::File && e.name == name)
                .map(|e| e.size)
        };
        let journal_path = format!("{path}/journal");
        let journal_size = size_of("journal").ok_or_else(|| {
            ToolError::Other(format!(
                "{path}: no `journal` file: not an OkHttp cache folder"
            ))
        })?;
        if journal_size > JOURNAL_MAX {
            return Err(ToolError::Other(format!(
                "{journal_path}: {journal_size} bytes exceed the limit of {JOURNAL_MAX}"
            )));
        }
        let text = String::from_utf8_lossy(&read_all(fs.as_ref(), &journal_path)?).into_owned();
        let journal = parse_journal(&text).map_err(|e| {
            ToolError::Other(format!("{journal_path}: not a DiskLruCache journal: {e}"))
        })?;
        if journal.app_version != OKHTTP_APP_VERSION || journal.value_count != "2" {
            let text = format!(
                "# not an OkHttp cache: {journal_path} is a DiskLruCache journal of app version {} with {} values per entry (OkHttp's: {OKHTTP_APP_VERSION}, 2)\n",
                journal.app_version, journal.value_count
            );
            return Ok(ToolOutput {
                text,
                structured: Some(
                    json!({"path": path, "okhttp": false, "app_version": journal.app_version, "value_count": journal.value_count}),
                ),
            });
        }
        // the journal's keys, then metadata files it does not name
        let mut keys = journal.keys.clone();
        let listed: std::collections::BTreeSet<String> =
            keys.iter().map(|(k, _)| k.clone()).collect();
        let mut unlisted: Vec<String> = children
            .iter()
            .filter(|e| e.kind == EntryKind::File)
            .filter_map(|e| e.name.strip_suffix(".0").map(str::to_string))
            .filter(|k| !listed.contains(k))
            .collect();
        unlisted.sort();
        for k in unlisted {
            keys.push((
                k,
                Journaled {
                    state: "unlisted",
                    ..Journaled::default()
                },
            ));
        }
        let mut problems = String::new();
        for (n, line) in &journal.bad {
            let _ = writeln!(
                problems,
                "# problem {journal_path} line {n} is no journal operation: {}",
                escape_cell(&cut(line))
            );
        }
        let mut body = String::from(
            "key\tstate\treads\turl\tmethod\tstatus\tsent_ms\treceived_ms\tsent_utc\treceived_utc\tcontent_type\tdate\tother_headers\tvary_request_headers\tcipher_suite\ttls_version\tpeer_certificates_sha256\tmetadata_size\tbody_size\tkey_is_md5_of_url\n",
        );
        let (mut printed, mut redacted, mut cut_off) = (0usize, 0usize, 0usize);
        let mut states: BTreeMap<&str, usize> = BTreeMap::new();
        for (key, j) in &keys {
            *states.entry(j.state).or_default() += 1;
            if printed >= limit {
                cut_off += 1;
                continue;
            }
            let meta_name = format!("{key}.0");
            let meta_size = size_of(&meta_name);
            let body_size = size_of(&format!("{key}.1"));
            let mut cells: Vec<String> =
                vec![key.clone(), j.state.to_string(), j.reads.to_string()];
            let entry = match meta_size {
                Some(s) if s > ENTRY_MAX => {
                    let _ = writeln!(
                        problems,
                        "# problem {path}/{meta_name}: {s} bytes exceed the limit of {ENTRY_MAX}"
                    );
                    None
                }
                Some(_) => {
                    let b = read_all(fs.as_ref(), &format!("{path}/{meta_name}"))?;
                    match parse_entry(&String::from_utf8_lossy(&b)) {
                        Ok(e) => Some(e),
                        Err(why) => {
                            let _ = writeln!(problems, "# problem {path}/{meta_name}: {why}");
                            None
                        }
                    }
                }
                None => None,
            };
            match &entry {
                Some(e) => {
                    redacted += e.redacted;
                    let get = |n: &str| {
                        e.headers
                            .iter()
                            .find(|(k, _)| k.eq_ignore_ascii_case(n))
                            .map(|(_, v)| v.clone())
                            .unwrap_or_default()
                    };
                    let (sent, received) =
                        (get("okhttp-sent-millis"), get("okhttp-received-millis"));
                    let others: Vec<String> = e
                        .headers
                        .iter()
                        .filter(|(k, _)| !COLUMNS.contains(&k.to_ascii_lowercase().as_str()))
                        .map(|(k, v)| format!("{k}: {v}"))
                        .collect();
                    let vary: Vec<String> =
                        e.vary.iter().map(|(k, v)| format!("{k}: {v}")).collect();
                    cells.extend([
                        e.url.clone(),
                        e.method.clone(),
                        e.status.clone(),
                        sent.clone(),
                        received.clone(),
                        millis_utc(&sent),
                        millis_utc(&received),
                        get("content-type"),
                        get("date"),
                        others.join(" | "),
                        vary.join(" | "),
                        e.cipher_suite.clone().unwrap_or_default(),
                        e.tls_version.clone().unwrap_or_default(),
                        e.peer_certificates.join(" "),
                    ]);
                }
                None => cells.extend(std::iter::repeat_n(String::new(), 14)),
            }
            cells.push(meta_size.map(|s| s.to_string()).unwrap_or_default());
            cells.push(body_size.map(|s| s.to_string()).unwrap_or_default());
            cells.push(match &entry {
                Some(e) => (key_of(&e.url) == *key).to_string(),
                None => String::new(),
            });
            let line: Vec<String> = cells.iter().map(|c| escape_cell(c)).collect();
            body.push_str(&line.join("\t"));
            body.push('\n');
            printed += 1;
        }
        let summary: Vec<String> = states.iter().map(|(s, n)| format!("{n} {s}")).collect();
        let mut text = format!(
            "# okhttp cache {path}: {} entries ({}), {printed} printed{}\n",
            keys.len(),
            summary.join(", "),
            if cut_off > 0 {
                format!(", {cut_off} past the limit of {limit} not printed")
            } else {
                String::new()
            }
        );
        text.push_str(&body);
        text.push_str(&problems);
        Ok(ToolOutput {
            text,
            structured: Some(json!({
                "path": path,
                "okhttp": true,
                "entries": keys.len(),
                "printed": printed,
                "states": states,
                "redacted": redacted,
                "problems": problems.lines().count(),
            })),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn journal_states_and_bad_lines() {
        let j = parse_journal(
            "libcore.io.DiskLruCache\n1\n201105\n2\n\nDIRTY k1\nCLEAN k1 10 20\nDIRTY k2\nREAD k1\nREAD k1\nCLEAN k3 1\nREMOVE k3\nBOGUS\n",
        )
        .unwrap();
        let got: Vec<_> = j
            .keys
            .iter()
            .map(|(k, v)| (k.as_str(), v.state, v.sizes, v.reads))
            .collect();
        assert_eq!(
            got,
            vec![
                ("k1", "clean", Some((10, 20)), 2),
                ("k2", "dirty", None, 0),
                ("k3", "removed", None, 0)
            ]
        );
        assert_eq!(j.bad, vec![(13, "BOGUS".to_string())]);
        assert!(parse_journal("libcore.io.DiskLruCache\n1\n").is_err());
        assert!(parse_journal("hello\n1\n201105\n2\n\n").is_err());
        assert!(parse_journal("libcore.io.DiskLruCache\n2\n201105\n2\n\n").is_err());
    }

    #[test]
    fn entry_cuts_and_secrets() {
        let full = "http://h/x\nGET\n1\nAuthorization: Bearer abc\nHTTP/1.1 200 OK\n2\nSet-Cookie: s=1\nX-Api-Token: zz\n";
        let e = parse_entry(full).unwrap();
        assert_eq!(e.redacted, 3);
        assert!(!format!("{e:?}").contains("abc"));
        assert_eq!(e.headers[0].0, "Set-Cookie");
        // every cut of the file gives an error or a shorter entry, never a panic
        for i in 0..full.len() {
            let _ = parse_entry(&full[..i]);
        }
        assert!(parse_entry("not a url\nGET\n0\n").is_err());
        assert!(parse_entry("http://h/\nGET\nx\n").is_err());
        let tls = "https://h/\nGET\n0\nHTTP/1.1 200 OK\n0\nX\n";
        assert!(parse_entry(tls).unwrap_err().contains("not blank"));
        assert_eq!(key_of("http://h/x").len(), 32);
    }
}
