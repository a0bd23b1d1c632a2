//! File systems and trees: the upper half of every layer.
//!
//! ext4, FAT, NTFS, ZIP, TAR, a plain folder and an iTunes backup all present the same
//! [`FileSystem`] interface: list a directory, stat an entry, open a file as a [`Bytes`] stream.
//! Paths are absolute, `/`-separated, and name entries as the format stores them (an iTunes
//! backup presents its real iOS paths, not its hashed file names).

use serde::{Deserialize, Serialize};

use crate::Error;
use crate::bytes::Bytes;

/// What an entry is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EntryKind {
    File,
    Dir,
    Symlink,
    Other,
}

/// Which time of an entry a [`Time`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TimeRole {
    Modified,
    Accessed,
    Changed,
    Created,
    Deleted,
}

/// A time value exactly as the format stores it. Converting it to an instant is the timeline's
/// job; naive encodings (FAT, DOS) need the source's time zone for that.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "encoding", rename_all = "snake_case")]
pub enum RawTime {
    /// Seconds (and nanoseconds) since 1970-01-01 UTC (ext4, tar, POSIX folders).
    Unix { secs: i64, nanos: u32 },
    /// 100-nanosecond intervals since 1601-01-01 UTC (NTFS).
    FileTime { ticks: u64 },
    /// FAT/DOS local date and time words, no zone (FAT directory entries, ZIP headers);
    /// `centis` is the FAT creation-time fine resolution (0–199), 0 where absent.
    FatLocal { date: u16, time: u16, centis: u8 },
}

impl RawTime {
    /// A readable rendering that keeps the encoding visible: UTC encodings as RFC 3339 with a
    /// `Z`, naive ones as a local date-time marked `(local)`. Invalid stored values are shown
    /// raw, never guessed.
    pub fn display(&self) -> String {
        match *self {
            RawTime::Unix { secs, nanos } => match jiff::Timestamp::new(secs, nanos as i32) {
                Ok(ts) => ts.to_string(),
                Err(_) => format!("unix:{secs}.{nanos:09} (out of range)"),
            },
            RawTime::FileTime { ticks } => {
                // 1601-01-01 to 1970-01-01 is 11,644,473,600 seconds.
                let secs = (ticks / 10_000_000) as i64 - 11_644_473_600;
                let nanos = ((ticks % 10_000_000) * 100) as i32;
                match jiff::Timestamp::new(secs, nanos) {
                    Ok(ts) => ts.to_string(),
                    Err(_) => format!("filetime:{ticks} (out of range)"),
                }
            }
            RawTime::FatLocal { date, time, centis } => {
                let (y, mo, d) = (1980 + (date >> 9), (date >> 5) & 0x0f, date & 0x1f);
                let (h, mi, s) = (time >> 11, (time >> 5) & 0x3f, (time & 0x1f) * 2);
                let extra = u16::from(centis) / 100;
                let hundredths = u16::from(centis) % 100;
                if date == 0 {
                    return "unset".to_string();
                }
                format!(
                    "{y:04}-{mo:02}-{d:02}T{h:02}:{mi:02}:{:02}.{hundredths:02} (local)",
                    s + extra
                )
            }
        }
    }
}

/// One time of an entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Time {
    pub role: TimeRole,
    pub raw: RawTime,
}

/// Metadata of one entry.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    /// Absolute path inside the file system, `/`-separated.
    pub path: String,
    /// The last component of `path` (`/` for the root).
    pub name: String,
    pub kind: EntryKind,
    /// Size in bytes of the content (0 for directories where the format has no size).
    pub size: u64,
    /// Inode number, MFT record number, directory-entry index, member index: whatever
    /// identifies the entry in its format.
    pub id: Option<u64>,
    /// POSIX mode bits where the format has them.
    pub mode: Option<u32>,
    /// Whether the entry is marked deleted (formats that keep deleted entries visible).
    pub deleted: bool,
    /// Times as stored, in a stable order of role.
    pub times: Vec<Time>,
    /// Symlink target where the entry is a link and the format stores one.
    pub link_target: Option<String>,
    /// The name exactly as an archive stores it, where making it a path inside the tree
    /// changed it (`../../etc/passwd` listed as `/etc/passwd`, `a//./b` as `/a/b`): untrusted
    /// text, kept beside the safe path so that nothing the member said is lost.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stored_name: Option<String>,
    /// The owner's user and group ids `(uid, gid)` where the format stores them (ext4 inodes,
    /// POSIX folders); a TSK body file shows them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub owner: Option<(u32, u32)>,
}

/// A file system or tree, read-only.
pub trait FileSystem: Send + Sync {
    /// The format's name (`ext4`, `fat32`, `ntfs`, `zip`, `tar`, `folder`, `itunes_backup`).
    fn format(&self) -> &str;

    /// The entries of a directory, sorted by name (byte order) so listings are deterministic.
    fn list_dir(&self, path: &str) -> Result<Vec<Entry>, Error>;

    /// Metadata of one entry.
    fn stat(&self, path: &str) -> Result<Entry, Error>;

    /// The content of a regular file.
    fn open(&self, path: &str) -> Result<Bytes, Error>;

    /// Problems met while opening the file system that did not stop it from being read (for
    /// example unsupported features that were worked around), for the report.
    fn diagnostics(&self) -> Vec<String> {
        Vec::new()
    }
}

/// How deep a walk of a tree goes below its starting directory. Real trees stay within a few
/// dozen levels; walkers stop here (and say so) rather than follow a crafted tree, or a
/// directory loop of a corrupt file system, without end.
pub const MAX_DIR_DEPTH: usize = 512;

/// A path for a message: kept whole up to 160 characters, otherwise its first and last 64
/// characters around the number of components left out (a path 10,000 levels deep must not
/// make a reason 20 KB long).
pub fn shorten(path: &str) -> String {
    let chars: Vec<char> = path.chars().collect();
    if chars.len() <= 160 {
        return path.to_string();
    }
    let head: String = chars[..64].iter().collect();
    let tail: String = chars[chars.len() - 64..].iter().collect();
    let middle: String = chars[64..chars.len() - 64].iter().collect();
    let skipped = middle.matches('/').count();
    format!("{head}…({skipped} levels)…{tail}")
}

/// Normalises a path inside a file system: absolute, `/`-separated, no `.`/`..`/empty parts.
/// `..` never climbs above the root.
pub fn normalize_path(path: &str) -> String {
    let mut parts: Vec<&str> = Vec::new();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            p => parts.push(p),
        }
    }
    format!("/{}", parts.join("/"))
}

/// The last component of a normalised path (`/` for the root).
pub fn file_name(path: &str) -> &str {
    match path.rsplit_once('/') {
        Some((_, "")) | None => "/",
        Some((_, name)) => name,
    }
}

/// Joins a normalised directory path and a child name.
pub fn join(dir: &str, name: &str) -> String {
    if dir == "/" {
        format!("/{name}")
    } else {
        format!("{dir}/{name}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_paths_are_shortened_for_messages() {
        assert_eq!(shorten("/a/b"), "/a/b");
        let deep = "/a".repeat(1000);
        let short = shorten(&deep);
        assert!(short.starts_with(&"/a".repeat(32)), "{short}");
        assert!(short.ends_with(&"/a".repeat(32)), "{short}");
        assert!(short.contains("…(936 levels)…"), "{short}");
        // Cut between characters, never inside one.
        assert!(shorten(&"/é".repeat(200)).contains("/é…(136 levels)…/é"));
    }

    #[test]
    fn paths_normalise_without_escaping_the_root() {
        let check = |input: &str, want: &str| assert_eq!(normalize_path(input), want, "{input}");
        check("", "/");
        check("/", "/");
        check("a/b", "/a/b");
        check("/a//b/./c/", "/a/b/c");
        check("/../../etc/passwd", "/etc/passwd");
        check("/a/b/../../..", "/");
        assert_eq!(file_name("/a/b"), "b");
        assert_eq!(file_name("/"), "/");
        assert_eq!(join("/", "a"), "/a");
        assert_eq!(join("/a", "b"), "/a/b");
    }

    #[test]
    fn raw_times_render_with_their_encoding_visible() {
        let unix = RawTime::Unix {
            secs: 1_740_000_000,
            nanos: 5,
        };
        assert_eq!(unix.display(), "2025-02-19T21:20:00.000000005Z");
        // 2025-02-19 21:20:00 UTC as a FILETIME.
        let ft = RawTime::FileTime {
            ticks: (1_740_000_000 + 11_644_473_600) * 10_000_000,
        };
        assert_eq!(ft.display(), "2025-02-19T21:20:00Z");
        // FAT: 2025-02-19 09:12:34 local (seconds stored in 2 s units).
        let fat = RawTime::FatLocal {
            date: ((2025 - 1980) << 9) | (2 << 5) | 19,
            time: (9 << 11) | (12 << 5) | 17,
            centis: 0,
        };
        assert_eq!(fat.display(), "2025-02-19T09:12:34.00 (local)");
        assert_eq!(
            RawTime::FatLocal {
                date: 0,
                time: 0,
                centis: 0
            }
            .display(),
            "unset"
        );
    }
}

/// Whether `c` must not reach a terminal or a page as it is: C0 and C1 control characters
/// (escape sequences, carriage returns, bells), and the bidirectional overrides and isolates
/// that can make a name display in another order than it is stored.
pub fn is_hidden_control(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// `text` with every [`is_hidden_control`] character written as a visible escape (`\u{1b}`),
/// for names and paths shown to the examiner: what is stored stays recoverable, nothing is
/// interpreted by the terminal. Text without such characters is returned as it is.
pub fn visible(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.chars().any(is_hidden_control) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if is_hidden_control(c) {
            push_escaped(&mut out, c);
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

/// Appends `c` to `out` as the visible escape [`visible`] uses (`\u{1b}`).
pub fn push_escaped(out: &mut String, c: char) {
    use std::fmt::Write as _;
    let _ = write!(out, "\\u{{{:x}}}", u32::from(c));
}

#[cfg(test)]
mod visible_tests {
    use super::visible;

    #[test]
    fn controls_and_bidi_overrides_are_escaped_and_the_rest_kept() {
        assert_eq!(visible("plain 名字.txt"), "plain 名字.txt");
        assert_eq!(visible("a\u{1b}[31mred\u{7}"), "a\\u{1b}[31mred\\u{7}");
        assert_eq!(visible("line\nbreak\r"), "line\\u{a}break\\u{d}");
        assert_eq!(visible("exe\u{202e}txt.scr"), "exe\\u{202e}txt.scr");
        assert_eq!(visible("\u{85}c1"), "\\u{85}c1");
    }
}
