//! The Sleuth Kit body file (TSK 3.x, what `fls -m` writes and `mactime -b` reads): one line per
//! file-system entry, `MD5|name|inode|mode|UID|GID|size|atime|mtime|ctime|crtime`, times in Unix
//! seconds, `0` where the entry has none. The MD5 column is `0` (as `fls -m` writes it: no file
//! is read). Pure: the caller walks the file system (`masf ls --recursive --body`).
//!
//! - `mode` is TSK's `tsk_fs_meta_make_ls` form: the name type, `/`, the metadata type and the
//!   nine permission characters (`r/rrw-r--r--`, `d/drwxr-xr-x`, `l/lrwxrwxrwx`), set-id and
//!   sticky bits shown as `s`/`S`, `t`/`T`; an entry without mode bits gets `-/----------` with
//!   its type letters.
//! - A symbolic link's name is followed by ` -> ` and its target, a deleted entry's name ends in
//!   ` (deleted)`, as in `fls`.
//! - Times: Unix times as they are (seconds), NTFS FILETIMEs converted to Unix seconds; FAT/DOS
//!   local times have no zone in the file system, so they are `0` here (`masf timeline` places
//!   them with the source's zone).
//! - TSK writes names as they are, so a `|` or a line break in a name breaks its columns; here
//!   `|` and control characters are written as `\xNN`, so a line always has eleven columns.

use masf_evidence::fs::{Entry, EntryKind, RawTime, TimeRole};

/// Seconds between 1601-01-01 and 1970-01-01 (FILETIME epoch to Unix epoch).
const FILETIME_UNIX: i64 = 11_644_473_600;

/// The body-file line of one entry (no newline).
pub fn line(e: &Entry) -> String {
    let (uid, gid) = e.owner.unwrap_or((0, 0));
    let mut name = escape(&e.path);
    if let Some(target) = &e.link_target {
        name.push_str(" -> ");
        name.push_str(&escape(target));
    }
    if e.deleted {
        name.push_str(" (deleted)");
    }
    format!(
        "0|{name}|{}|{}|{uid}|{gid}|{}|{}|{}|{}|{}",
        e.id.unwrap_or(0),
        mode_string(e),
        e.size,
        time(e, TimeRole::Accessed),
        time(e, TimeRole::Modified),
        time(e, TimeRole::Changed),
        time(e, TimeRole::Created),
    )
}

/// TSK's mode string of an entry (see the module documentation).
pub fn mode_string(e: &Entry) -> String {
    let kind = match e.kind {
        EntryKind::File => 'r',
        EntryKind::Dir => 'd',
        EntryKind::Symlink => 'l',
        EntryKind::Other => match e.mode.map(|m| m & 0o170000) {
            Some(0o010000) => 'p',
            Some(0o020000) => 'c',
            Some(0o060000) => 'b',
            Some(0o140000) => 'h',
            _ => '-',
        },
    };
    let mut s = String::with_capacity(12);
    s.push(kind);
    s.push('/');
    s.push(kind);
    let Some(m) = e.mode else {
        s.push_str("---------");
        return s;
    };
    let bit = |b: u32, c: char| if m & b != 0 { c } else { '-' };
    let special = |x: u32, special: u32, on: char, off: char| match (m & x != 0, m & special != 0) {
        (true, true) => on,
        (false, true) => off,
        (true, false) => 'x',
        (false, false) => '-',
    };
    s.push(bit(0o400, 'r'));
    s.push(bit(0o200, 'w'));
    s.push(special(0o100, 0o4000, 's', 'S'));
    s.push(bit(0o040, 'r'));
    s.push(bit(0o020, 'w'));
    s.push(special(0o010, 0o2000, 's', 'S'));
    s.push(bit(0o004, 'r'));
    s.push(bit(0o002, 'w'));
    s.push(special(0o001, 0o1000, 't', 'T'));
    s
}

/// The entry's time of `role` in Unix seconds, `0` when it has none or it has no zone.
fn time(e: &Entry, role: TimeRole) -> i64 {
    e.times
        .iter()
        .find(|t| t.role == role)
        .map_or(0, |t| match t.raw {
            RawTime::Unix { secs, .. } => secs,
            RawTime::FileTime { ticks } => (ticks / 10_000_000) as i64 - FILETIME_UNIX,
            RawTime::FatLocal { .. } => 0,
        })
}

/// A path with control bytes and `|` as `\xNN`, so a line keeps its eleven columns.
fn escape(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for c in path.chars() {
        if c == '|' || c.is_control() {
            for b in c.to_string().bytes() {
                out.push_str(&format!("\\x{b:02x}"));
            }
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use masf_evidence::fs::Time;

    fn entry(kind: EntryKind, mode: Option<u32>, times: Vec<Time>) -> Entry {
        Entry {
            path: "/a|b\nc".into(),
            name: "a|b\nc".into(),
            kind,
            size: 7,
            id: Some(42),
            mode,
            deleted: false,
            times,
            link_target: None,
            stored_name: None,
            owner: None,
        }
    }

    #[test]
    fn ntfs_times_convert_fat_times_stay_zero_and_names_keep_the_columns() {
        // 2020-01-01T00:00:00Z as a FILETIME
        let ticks = (1_577_836_800 + FILETIME_UNIX) as u64 * 10_000_000;
        let e = entry(
            EntryKind::File,
            None,
            vec![
                Time {
                    role: TimeRole::Modified,
                    raw: RawTime::FileTime { ticks },
                },
                Time {
                    role: TimeRole::Accessed,
                    raw: RawTime::FatLocal {
                        date: 0x5021,
                        time: 0,
                        centis: 0,
                    },
                },
            ],
        );
        assert_eq!(
            line(&e),
            "0|/a\\x7cb\\x0ac|42|r/r---------|0|0|7|0|1577836800|0|0"
        );
    }

    #[test]
    fn mode_strings_show_types_and_special_bits() {
        let m = |kind, mode| mode_string(&entry(kind, Some(mode), vec![]));
        assert_eq!(m(EntryKind::Dir, 0o41777), "d/drwxrwxrwt");
        assert_eq!(m(EntryKind::File, 0o102644), "r/rrw-r-Sr--");
        assert_eq!(m(EntryKind::Other, 0o010600), "p/prw-------");
        assert_eq!(m(EntryKind::File, 0o104000), "r/r--S------");
    }
}
