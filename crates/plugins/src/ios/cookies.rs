//! Apple's binary cookie stores (`Library/Cookies/Cookies.binarycookies` of apps and app
//! extensions): the `binary_cookies` tool decodes one into text, and the triage records one
//! phenomenon per cookie, as iLEAPP's `appCookies` reports them.
//!
//! The format: a big-endian header (`cook`, the page count, each page's size), then the pages in
//! order. A page is little-endian: the tag `00 00 01 00`, the cookie count, each cookie's offset
//! in the page. A cookie: its size, a version, flags (secure 1, HTTP-only 4), a reserved word,
//! the offsets (from the cookie's start) of its domain, name, path and value as NUL-terminated
//! strings, a comment offset and a reserved word, then the expiry and creation times as f64
//! Apple seconds. Every offset and length is checked against the buffer: a fault is a
//! [`CookieError`] naming its offset, never a panic. A fault in the header fails the file; a
//! fault in one page or cookie is a `# problem` line and the rest is read.
//!
//! Cookie values are session credentials (a signed-in session is replayed with them): like the
//! keychain's secrets (`plists`: "never secrets") and Android WebView's cookie values, they are
//! not reproduced — the tool prints each value's length only, so no log or finding holds one.

use std::fmt::Write as _;

use masf_agents::RuntimeError;

use masf_graph::FactType;
use masf_tools::{Applicability, SourceCtx, Tool, ToolError, ToolOutput};
use serde_json::{Value, json};

use super::{Draft, ENTRY_CAP, Run};

/// Largest cookie store read.
pub const COOKIES_MAX: u64 = 32 << 20;

/// A fault of a binary cookie store, with the file offset it was met at.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CookieError {
    /// The file ends (or a page or cookie ends) before a field.
    #[error("truncated at offset {at}: {what} needs {need} bytes, {have} left")]
    Truncated {
        /// File offset of the field.
        at: usize,
        /// The field.
        what: &'static str,
        /// Bytes the field needs.
        need: usize,
        /// Bytes left in its container.
        have: usize,
    },
    /// The file does not start with `cook`.
    #[error("not a binary cookie store: offset 0 holds {found:02x?}, not \"cook\"")]
    Magic {
        /// The first bytes.
        found: Vec<u8>,
    },
    /// A page does not start with `00 00 01 00`.
    #[error("page {page} at offset {at}: tag {found:02x?}, not 00 00 01 00")]
    PageTag {
        /// Page number (1-based).
        page: usize,
        /// File offset of the page.
        at: usize,
        /// The tag found.
        found: Vec<u8>,
    },
    /// An offset or size points outside its page or cookie.
    #[error("offset {at}: {what} {value} is beyond its {within} of {len} bytes")]
    Beyond {
        /// File offset of the field holding the value.
        at: usize,
        /// The field.
        what: &'static str,
        /// Its value.
        value: u64,
        /// What it must stay within (page, cookie).
        within: &'static str,
        /// That container's length.
        len: usize,
    },
    /// A string runs to the end of its cookie without a NUL.
    #[error("offset {at}: the {what} string has no terminating NUL within its cookie")]
    Unterminated {
        /// File offset of the string.
        at: usize,
        /// Which string.
        what: &'static str,
    },
}

/// One cookie as stored.
#[derive(Debug, Clone, PartialEq)]
pub struct Cookie {
    /// Page number (1-based).
    pub page: usize,
    /// File offset of the cookie.
    pub offset: usize,
    /// The flags word.
    pub flags: u32,
    /// Domain (Apple's "URL" field).
    pub domain: String,
    /// Name.
    pub name: String,
    /// Path.
    pub path: String,
    /// Length of the value in bytes (the value itself is not kept).
    pub value_len: usize,
    /// Expiry, Apple seconds.
    pub expiry: f64,
    /// Creation, Apple seconds.
    pub creation: f64,
}

/// A decoded store: its cookies and the faults of pages or cookies that were skipped.
#[derive(Debug, Clone, Default)]
pub struct Store {
    /// Pages the header declares.
    pub pages: usize,
    /// Cookies read.
    pub cookies: Vec<Cookie>,
    /// Faults met after the header (each page or cookie skipped).
    pub problems: Vec<CookieError>,
}

/// `len` bytes at `at` of `buf` (`base` is `buf`'s file offset, for the error).
fn take<'a>(
    buf: &'a [u8],
    at: usize,
    len: usize,
    base: usize,
    what: &'static str,
) -> Result<&'a [u8], CookieError> {
    at.checked_add(len)
        .and_then(|end| buf.get(at..end))
        .ok_or(CookieError::Truncated {
            at: base + at,
            what,
            need: len,
            have: buf.len().saturating_sub(at),
        })
}

fn u32_be(buf: &[u8], at: usize, base: usize, what: &'static str) -> Result<u32, CookieError> {
    let b = take(buf, at, 4, base, what)?;
    Ok(u32::from_be_bytes([b[0], b[1], b[2], b[3]]))
}

fn u32_le(buf: &[u8], at: usize, base: usize, what: &'static str) -> Result<u32, CookieError> {
    let b = take(buf, at, 4, base, what)?;
    Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}

fn f64_le(buf: &[u8], at: usize, base: usize, what: &'static str) -> Result<f64, CookieError> {
    let b = take(buf, at, 8, base, what)?;
    let mut a = [0u8; 8];
    a.copy_from_slice(b);
    Ok(f64::from_le_bytes(a))
}

/// Decodes a binary cookie store.
pub fn parse(data: &[u8]) -> Result<Store, CookieError> {
    let magic = take(data, 0, 4, 0, "magic")?;
    if magic != b"cook" {
        return Err(CookieError::Magic {
            found: magic.to_vec(),
        });
    }
    let count = u32_be(data, 4, 0, "page count")? as usize;
    // Each page size is 4 bytes of the header: a count the file cannot hold is a truncation.
    let sizes_len = count.checked_mul(4).ok_or(CookieError::Truncated {
        at: 8,
        what: "page sizes",
        need: usize::MAX,
        have: data.len().saturating_sub(8),
    })?;
    take(data, 8, sizes_len, 0, "page sizes")?;
    let mut store = Store {
        pages: count,
        ..Store::default()
    };
    let mut at = 8 + sizes_len;
    for page in 1..=count {
        let size = u32_be(data, 8 + (page - 1) * 4, 0, "page size")? as usize;
        let Ok(body) = take(data, at, size, 0, "page") else {
            store.problems.push(CookieError::Truncated {
                at,
                what: "page",
                need: size,
                have: data.len().saturating_sub(at),
            });
            // the following pages start after this one: none can be placed
            break;
        };
        if let Err(e) = read_page(body, page, at, &mut store) {
            store.problems.push(e);
        }
        at += size;
    }
    Ok(store)
}

/// The cookies of one page (`base`: its file offset).
fn read_page(body: &[u8], page: usize, base: usize, store: &mut Store) -> Result<(), CookieError> {
    let tag = take(body, 0, 4, base, "page tag")?;
    if tag != [0, 0, 1, 0] {
        return Err(CookieError::PageTag {
            page,
            at: base,
            found: tag.to_vec(),
        });
    }
    let n = u32_le(body, 4, base, "cookie count")? as usize;
    let offsets_len = n.saturating_mul(4);
    take(body, 8, offsets_len, base, "cookie offsets")?;
    for i in 0..n {
        let field = 8 + i * 4;
        let off = u32_le(body, field, base, "cookie offset")? as usize;
        match read_cookie(body, off, field, page, base) {
            Ok(c) => store.cookies.push(c),
            Err(e) => store.problems.push(e),
        }
    }
    Ok(())
}

/// The cookie at `off` of a page (`field`: the page offset of the word that points at it).
fn read_cookie(
    body: &[u8],
    off: usize,
    field: usize,
    page: usize,
    base: usize,
) -> Result<Cookie, CookieError> {
    if off >= body.len() {
        return Err(CookieError::Beyond {
            at: base + field,
            what: "cookie offset",
            value: off as u64,
            within: "page",
            len: body.len(),
        });
    }
    let size = u32_le(body, off, base, "cookie size")? as usize;
    let cookie = body
        .get(off..)
        .and_then(|rest| rest.get(..size))
        .ok_or(CookieError::Beyond {
            at: base + off,
            what: "cookie size",
            value: size as u64,
            within: "page",
            len: body.len() - off,
        })?;
    let cb = base + off;
    let flags = u32_le(cookie, 8, cb, "flags")?;
    let string = |field: usize, what: &'static str| -> Result<(String, usize), CookieError> {
        let at = u32_le(cookie, field, cb, what)? as usize;
        let rest = cookie
            .get(at..)
            .filter(|_| at < size)
            .ok_or(CookieError::Beyond {
                at: cb + field,
                what,
                value: at as u64,
                within: "cookie",
                len: size,
            })?;
        let end = rest
            .iter()
            .position(|&b| b == 0)
            .ok_or(CookieError::Unterminated { at: cb + at, what })?;
        Ok((String::from_utf8_lossy(&rest[..end]).into_owned(), end))
    };
    let (domain, _) = string(16, "domain offset")?;
    let (name, _) = string(20, "name offset")?;
    let (path, _) = string(24, "path offset")?;
    let (_, value_len) = string(28, "value offset")?;
    Ok(Cookie {
        page,
        offset: cb,
        flags,
        domain,
        name,
        path,
        value_len,
        expiry: f64_le(cookie, 40, cb, "expiry")?,
        creation: f64_le(cookie, 48, cb, "creation")?,
    })
}

/// The names of the known flag bits, as iLEAPP writes them (`-` for none).
pub fn flag_names(flags: u32) -> String {
    let mut names = Vec::new();
    if flags & 1 != 0 {
        names.push("Secure");
    }
    if flags & 4 != 0 {
        names.push("HTTP Only");
    }
    if names.is_empty() {
        "-".to_string()
    } else {
        names.join(", ")
    }
}

/// A string as the tool prints it: tab, newline, carriage return and backslash escaped.
pub fn clean(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\\' => out.push_str("\\\\"),
            c if c.is_control() => {
                let _ = write!(out, "\\x{:02x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out
}

/// The columns of a cookie line, after `cookie`.
pub const COLUMNS: [&str; 10] = [
    "page",
    "offset",
    "domain",
    "name",
    "path",
    "value_bytes",
    "flags",
    "flag_names",
    "expiry",
    "creation",
];

/// The tool's text for a decoded store.
pub fn render(store: &Store) -> String {
    let mut out = format!(
        "# pages\t{}\n# cookies\t{}\n# cookie\t{}\n",
        store.pages,
        store.cookies.len(),
        COLUMNS.join("\t")
    );
    for c in &store.cookies {
        let _ = writeln!(
            out,
            "cookie\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}",
            c.page,
            c.offset,
            clean(&c.domain),
            clean(&c.name),
            clean(&c.path),
            c.value_len,
            c.flags,
            flag_names(c.flags),
            c.expiry,
            c.creation
        );
    }
    for p in &store.problems {
        let _ = writeln!(out, "# problem\t{p}");
    }
    out
}

/// The `binary_cookies` tool.
pub struct BinaryCookies;

impl Tool for BinaryCookies {
    fn name(&self) -> &str {
        "binary_cookies"
    }
    fn description(&self) -> &str {
        "Decode an Apple binary cookie store (Cookies.binarycookies) of the evidence. Prints `# pages`, `# cookies`, then one tab-separated line per cookie: `cookie`, page (1-based), file offset, domain, name, path, value length in bytes (values are session credentials and are never printed), flags word, flag names (Secure, HTTP Only; - for none), expiry and creation as Apple seconds (f64 as stored). A damaged page or cookie is a `# problem` line naming its offset and the rest is read; a file that is not a cookie store, or whose header is cut, fails."
    }
    fn args_schema(&self) -> Value {
        json!({"type": "object", "properties": {
            "partition": {"type": "string", "description": "The file system to use when the source holds several (1-based index or partition name)."},
            "path": {"type": "string", "description": "Absolute path of the Cookies.binarycookies file inside the evidence."}
        }, "required": ["path"], "additionalProperties": false})
    }
    fn applicability(&self) -> Applicability {
        Applicability::TREE
    }
    fn run(&self, ctx: &SourceCtx, a: &Value) -> Result<ToolOutput, ToolError> {
        let (fs, path) = crate::calls::tree_file(ctx, a)?;
        let bytes = fs.open(&path)?;
        if bytes.len() > COOKIES_MAX {
            return Err(ToolError::Other(format!(
                "{path}: {} bytes exceeds the limit of {COOKIES_MAX}",
                bytes.len()
            )));
        }
        let mut data = vec![0u8; bytes.len() as usize];
        bytes.read_exact_at(0, &mut data)?;
        let store = parse(&data).map_err(|e| ToolError::Other(format!("{path}: {e}")))?;
        Ok(ToolOutput {
            text: render(&store),
            structured: Some(json!({
                "path": path,
                "pages": store.pages,
                "cookies": store.cookies.len(),
                "problems": store.problems.len(),
            })),
        })
    }
}

/// Triage of every `Cookies.binarycookies` of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    let Some((find, paths)) = run.find("*.binarycookies")? else {
        return Ok(());
    };
    let mut recorded = 0u64;
    let mut over = 0u64;
    for path in &paths {
        let Some(inv) =
            crate::calls::call_or_note(run.ctx, path, "binary_cookies", json!({"path": path}))?
        else {
            continue;
        };
        let problems: Vec<&str> = inv
            .output
            .text
            .lines()
            .filter_map(|l| l.strip_prefix("# problem\t"))
            .collect();
        if !problems.is_empty() {
            run.ctx.unparsed(
                path,
                &format!(
                    "{} damaged page(s) or cookie(s) skipped: {}",
                    problems.len(),
                    problems.join("; ")
                ),
                Some(&inv.record.invocation_id),
            )?;
        }
        let text = inv.output.text.clone();
        for line in text.lines() {
            let Some(rest) = line.strip_prefix("cookie\t") else {
                continue;
            };
            let f: Vec<&str> = rest.split('\t').collect();
            let [
                page,
                offset,
                domain,
                name,
                cpath,
                value_len,
                flags,
                names,
                expiry,
                creation,
            ] = f.as_slice()
            else {
                continue;
            };
            if recorded >= ENTRY_CAP {
                over += 1;
                continue;
            }
            recorded += 1;
            let mut d = Draft::new("web", format!("Cookie {name} of {domain}"));
            d.fact(FactType::Path, Some(path), &find);
            d.fact(FactType::Url, Some(domain), &inv);
            d.fact(FactType::Name, Some(name), &inv);
            d.fact(FactType::Text, Some(cpath), &inv);
            if *names != "-" {
                d.fact(FactType::Text, Some(names), &inv);
            }
            d.time(
                Some(creation),
                super::core_data_encoding(Some(creation)),
                "Cookie created",
                &inv,
            );
            d.time(
                Some(expiry),
                super::core_data_encoding(Some(expiry)),
                "Cookie expires",
                &inv,
            );
            d.interpretation = format!(
                "{path} (page {page}, offset {offset}) holds the cookie {name} of {domain} for path {cpath}, flags {flags} ({}); its value ({value_len} bytes) is a session credential and is not reproduced. Created at Apple time {creation}, expires at {expiry}.",
                if *names == "-" {
                    "neither Secure nor HTTP Only"
                } else {
                    names
                },
            );
            run.record(d)?;
        }
    }
    if over > 0 {
        run.ctx.unparsed(
            "Cookies.binarycookies",
            &format!("{over} cookie(s) past the first {ENTRY_CAP} not recorded one by one"),
            Some(&find.record.invocation_id),
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A store of one page holding `cookies` (domain, name, path, value, flags, expiry,
    /// creation), built field by field.
    pub(super) fn store(cookies: &[(&str, &str, &str, &str, u32, f64, f64)]) -> Vec<u8> {
        let mut bodies = Vec::new();
        for (domain, name, path, value, flags, expiry, creation) in cookies {
            let mut strings = Vec::new();
            let mut offs = Vec::new();
            for s in [domain, name, path, value] {
                offs.push(56 + strings.len() as u32);
                strings.extend_from_slice(s.as_bytes());
                strings.push(0);
            }
            let size = 56 + strings.len() as u32;
            let mut c = Vec::new();
            for w in [size, 0, *flags, 0, offs[0], offs[1], offs[2], offs[3], 0, 0] {
                c.extend_from_slice(&w.to_le_bytes());
            }
            c.extend_from_slice(&expiry.to_le_bytes());
            c.extend_from_slice(&creation.to_le_bytes());
            c.extend_from_slice(&strings);
            bodies.push(c);
        }
        let mut page = vec![0, 0, 1, 0];
        page.extend_from_slice(&(bodies.len() as u32).to_le_bytes());
        let mut at = 8 + 4 * bodies.len() as u32 + 4;
        for b in &bodies {
            page.extend_from_slice(&at.to_le_bytes());
            at += b.len() as u32;
        }
        page.extend_from_slice(&[0; 4]);
        for b in &bodies {
            page.extend_from_slice(b);
        }
        let mut out = b"cook".to_vec();
        out.extend_from_slice(&1u32.to_be_bytes());
        out.extend_from_slice(&(page.len() as u32).to_be_bytes());
        out.extend_from_slice(&page);
        out.extend_from_slice(&[0, 0, 0, 0, 0x07, 0x17, 0x20, 0x05]);
        out
    }

    fn two() -> Vec<u8> {
        store(&[
            (
                ".example.com",
                "sid",
                "/",
                "s3cr3t",
                5,
                800_000_000.5,
                700_000_000.0,
            ),
            (
                "a.test",
                "pref",
                "/x",
                "1",
                0,
                800_000_001.0,
                700_000_001.25,
            ),
        ])
    }

    #[test]
    fn decodes_every_field_and_never_the_value() {
        let s = parse(&two()).unwrap();
        assert_eq!(s.pages, 1);
        assert!(s.problems.is_empty(), "{:?}", s.problems);
        assert_eq!(s.cookies.len(), 2);
        let c = &s.cookies[0];
        assert_eq!(
            (c.domain.as_str(), c.name.as_str(), c.path.as_str()),
            (".example.com", "sid", "/")
        );
        assert_eq!((c.flags, c.value_len, c.page, c.offset), (5, 6, 1, 32));
        assert_eq!((c.expiry, c.creation), (800_000_000.5, 700_000_000.0));
        let text = render(&s);
        assert!(
            text.contains("cookie\t1\t32\t.example.com\tsid\t/\t6\t5\tSecure, HTTP Only\t800000000.5\t700000000\n"),
            "{text}"
        );
        assert!(
            text.contains("\ta.test\tpref\t/x\t1\t0\t-\t800000001\t700000001.25\n"),
            "{text}"
        );
        assert!(!text.contains("s3cr3t"));
    }

    #[test]
    fn a_cut_header_fails_with_the_offset_of_its_field() {
        let data = two();
        // magic, page count, page size: each cut names its field and offset
        for (cut, at, what) in [(2, 0, "magic"), (6, 4, "page count"), (10, 8, "page sizes")] {
            match parse(&data[..cut]) {
                Err(CookieError::Truncated { at: a, what: w, .. }) => {
                    assert_eq!((a, w), (at, what), "cut at {cut}")
                }
                other => panic!("cut at {cut}: {other:?}"),
            }
        }
        let mut bad = data.clone();
        bad[..4].copy_from_slice(b"bplt");
        assert!(matches!(parse(&bad), Err(CookieError::Magic { .. })));
        assert!(parse(&[]).is_err());
        // a page count no file holds
        let mut huge = data.clone();
        huge[4..8].copy_from_slice(&u32::MAX.to_be_bytes());
        assert!(matches!(
            parse(&huge),
            Err(CookieError::Truncated { at: 8, .. })
        ));
    }

    #[test]
    fn a_cut_page_or_cookie_is_a_problem_and_never_a_panic() {
        let data = two();
        // every cut before the page's end (the 8 bytes after it are the store's footer) either
        // fails or gives fewer cookies and a problem
        for cut in 0..data.len() - 8 {
            if let Ok(s) = parse(&data[..cut]) {
                assert!(s.cookies.len() < 2, "cut at {cut}");
                assert!(!s.problems.is_empty(), "cut at {cut}");
            }
        }
        // the page itself cut inside (the declared size larger than the file)
        let mut long = data.clone();
        long[8..12].copy_from_slice(&10_000u32.to_be_bytes());
        let s = parse(&long).unwrap();
        assert!(s.cookies.is_empty());
        assert_eq!(
            s.problems,
            vec![CookieError::Truncated {
                at: 12,
                what: "page",
                need: 10_000,
                have: data.len() - 12
            }]
        );
        // a wrong page tag
        let mut tag = data.clone();
        tag[14] = 9;
        let s = parse(&tag).unwrap();
        assert!(matches!(
            s.problems[..],
            [CookieError::PageTag {
                page: 1,
                at: 12,
                ..
            }]
        ));
    }

    #[test]
    fn offsets_beyond_the_page_or_cookie_are_problems_naming_the_offset() {
        let data = two();
        // the first cookie's offset (page offset 8, file offset 20) beyond the page
        let mut far = data.clone();
        far[20..24].copy_from_slice(&5_000u32.to_le_bytes());
        let s = parse(&far).unwrap();
        assert_eq!(s.cookies.len(), 1, "the second cookie is still read");
        assert!(matches!(
            s.problems[..],
            [CookieError::Beyond {
                at: 20,
                what: "cookie offset",
                value: 5_000,
                within: "page",
                ..
            }]
        ));
        // the first cookie's size past the page
        let mut big = data.clone();
        big[32..36].copy_from_slice(&5_000u32.to_le_bytes());
        let s = parse(&big).unwrap();
        assert!(matches!(
            s.problems[..],
            [CookieError::Beyond {
                at: 32,
                what: "cookie size",
                ..
            }]
        ));
        // its name offset past the cookie, its domain without a NUL
        let mut name = data.clone();
        name[52..56].copy_from_slice(&900u32.to_le_bytes());
        let s = parse(&name).unwrap();
        assert!(matches!(
            s.problems[..],
            [CookieError::Beyond {
                at: 52,
                what: "name offset",
                value: 900,
                within: "cookie",
                ..
            }]
        ));
        let mut unterminated = store(&[("d", "n", "/", "v", 0, 1.0, 1.0)]);
        let len = unterminated.len();
        // the value's NUL replaced: the value runs to the cookie's end
        unterminated[len - 9] = b'x';
        let s = parse(&unterminated).unwrap();
        assert!(matches!(
            s.problems[..],
            [CookieError::Unterminated {
                what: "value offset",
                ..
            }]
        ));
        // a cookie too short for its times
        let mut short = data.clone();
        short[32..36].copy_from_slice(&44u32.to_le_bytes());
        let s = parse(&short).unwrap();
        assert!(!s.problems.is_empty());
    }
}
