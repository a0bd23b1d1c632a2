//! TAR archives (plain, or gzip-compressed), indexed once with the `tar` crate.
//!
//! The headers are walked once (seeking over member data) and every member's data offset is
//! kept: a member's content is then a [`Slice`] of the stream, so reading it costs nothing more
//! than reading those bytes. A gzip-compressed archive (sniffed by its `1f 8b` signature) is first
//! inflated into memory with [`gunzip`], within [`Limits::max_inflated`].
//!
//! Read: ustar, GNU and PAX headers (GNU long names and long link names, PAX `path`,
//! `linkpath`, `size`, `mtime`/`atime`/`ctime` with their fractions), directories, symbolic
//! links (kept as links, with their target), hard links (listed as files with the content of
//! the member they name, `link_target` naming it), devices and FIFOs (kind `Other`).
//! Concatenated archives are read through (zero blocks between them are skipped). Times are
//! [`RawTime::Unix`]; each entry's id is its member index (extension headers not counted).
//!
//! Untrusted sizes: the `tar` crate reads GNU long names and PAX headers into memory whatever
//! size they claim; the stream it reads through refuses to deliver more than
//! [`Limits::max_metadata`] bytes between two seeks, which bounds them (the crate seeks before
//! every header).
//!
//! Damage: a header that fails its checksum (or any other error) after at least one good member
//! ends the index there: the members before it are listed and the error is in the diagnostics
//! (partly readable evidence is not a failure); at the first header it is an error. Members whose
//! data runs past the end of the stream are listed; opening them gives [`Error::Truncated`].
//! GNU sparse members are listed; opening them gives [`Error::Unsupported`]. A PAX global
//! header is skipped (reported).

use std::cell::Cell;
use std::collections::HashMap;
use std::io::{self, Read, Seek, SeekFrom};
use std::rc::Rc;
use std::sync::Arc;

use super::Limits;
use super::gunzip;
use super::tree::{Item, Tree};
use crate::Error;
use crate::bytes::{Bytes, Reader, Slice};
use crate::fs::{Entry, EntryKind, FileSystem, RawTime, Time, TimeRole, normalize_path};

/// Where a member's content is.
#[derive(Debug, Clone)]
enum Content {
    Data { offset: u64, size: u64 },
    Sparse,
    Missing,
}

/// A TAR archive presented as a tree.
pub struct TarArchive {
    stream: Bytes,
    layer: String,
    tree: Tree<Content>,
    members: usize,
    diagnostics: Vec<String>,
}

/// Opens a TAR archive, gzip-compressed or not, with the default [`Limits`].
pub fn open_tar(bytes: Bytes) -> Result<Arc<dyn FileSystem>, Error> {
    Ok(Arc::new(TarArchive::open(bytes, Limits::default())?))
}

/// The error our reader gives when a metadata read exceeds its limit.
#[derive(Debug)]
struct MetadataTooLarge(u64);

impl std::fmt::Display for MetadataTooLarge {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "extension header larger than {} bytes", self.0)
    }
}

impl std::error::Error for MetadataTooLarge {}

/// `Read + Seek` over the stream that remembers where the last seek went (the start of the
/// header being read) and refuses to read more than a header plus `limit` bytes between seeks.
struct Guarded {
    inner: Reader,
    since_seek: u64,
    limit: u64,
    header_at: Rc<Cell<u64>>,
}

impl Read for Guarded {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.since_seek > self.limit.saturating_add(512) {
            return Err(io::Error::other(MetadataTooLarge(self.limit)));
        }
        let n = self.inner.read(buf)?;
        self.since_seek += n as u64;
        Ok(n)
    }
}

impl Seek for Guarded {
    fn seek(&mut self, to: SeekFrom) -> io::Result<u64> {
        let pos = self.inner.seek(to)?;
        self.since_seek = 0;
        self.header_at.set(pos);
        Ok(pos)
    }
}

impl TarArchive {
    /// Indexes the TAR archive in `bytes` (inflating it first if it is gzip-compressed).
    pub fn open(bytes: Bytes, limits: Limits) -> Result<TarArchive, Error> {
        let mut magic = [0u8; 2];
        let gzipped = bytes.read_at(0, &mut magic)? == 2 && magic == [0x1f, 0x8b];
        let (stream, layer) = if gzipped {
            let layer = format!("tar in gzip in {}", bytes.layer_name());
            (gunzip(bytes, limits.max_inflated)?, layer)
        } else {
            let layer = format!("tar in {}", bytes.layer_name());
            (bytes, layer)
        };
        let mut diagnostics = Vec::new();
        let items = index(&stream, &layer, &limits, &mut diagnostics)?;
        let members = items.len();
        let (tree, _) = Tree::build(items, &layer);
        Ok(TarArchive {
            stream,
            layer,
            tree,
            members,
            diagnostics,
        })
    }

    /// Number of members (extension headers not counted).
    pub fn member_count(&self) -> usize {
        self.members
    }
}

impl FileSystem for TarArchive {
    fn format(&self) -> &str {
        "tar"
    }

    fn list_dir(&self, path: &str) -> Result<Vec<Entry>, Error> {
        self.tree.list_dir(path)
    }

    fn stat(&self, path: &str) -> Result<Entry, Error> {
        self.tree.stat(path)
    }

    fn open(&self, path: &str) -> Result<Bytes, Error> {
        let (entry, content) = self.tree.file(path)?;
        match content {
            Content::Data { offset, size } => {
                let end = offset.saturating_add(*size);
                if end > self.stream.len() {
                    return Err(Error::Truncated {
                        layer: self.layer.clone(),
                        offset: self.stream.len(),
                        wanted: end - self.stream.len(),
                    });
                }
                Ok(Arc::new(Slice::new(
                    self.stream.clone(),
                    *offset,
                    *size,
                    format!("{} member {}", self.layer, entry.path),
                )))
            }
            Content::Sparse => Err(Error::Unsupported {
                layer: self.layer.clone(),
                detail: format!("{}: GNU sparse members cannot be read yet", entry.path),
            }),
            Content::Missing => Err(Error::NoEntry {
                layer: self.layer.clone(),
                path: format!(
                    "{} (hard link to {}, which the archive does not hold)",
                    entry.path,
                    entry.link_target.as_deref().unwrap_or("?")
                ),
            }),
        }
    }

    fn diagnostics(&self) -> Vec<String> {
        let mut all = self.diagnostics.clone();
        all.extend(self.tree.diagnostics().iter().cloned());
        all
    }
}

/// Parses a PAX time: decimal seconds, optionally negative, optionally with a fraction.
fn pax_time(value: &str) -> Option<RawTime> {
    let (neg, digits) = match value.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, value),
    };
    let (whole, frac) = digits.split_once('.').unwrap_or((digits, ""));
    let secs: i64 = whole.parse().ok()?;
    if !frac.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let mut nanos = 0u32;
    for (i, b) in frac.bytes().take(9).enumerate() {
        nanos += u32::from(b - b'0') * 10u32.pow(8 - i as u32);
    }
    // -1.5 s is stored as "-1.5": secs -2 and 0.5 s.
    Some(if neg {
        if nanos == 0 {
            RawTime::Unix {
                secs: -secs,
                nanos: 0,
            }
        } else {
            RawTime::Unix {
                secs: -secs - 1,
                nanos: 1_000_000_000 - nanos,
            }
        }
    } else {
        RawTime::Unix { secs, nanos }
    })
}

fn unix(secs: u64) -> RawTime {
    RawTime::Unix {
        secs: i64::try_from(secs).unwrap_or(i64::MAX),
        nanos: 0,
    }
}

fn index(
    stream: &Bytes,
    layer: &str,
    limits: &Limits,
    diagnostics: &mut Vec<String>,
) -> Result<Vec<Item<Content>>, Error> {
    let header_at = Rc::new(Cell::new(0u64));
    let mut archive = tar::Archive::new(Guarded {
        inner: Reader::new(stream.clone()),
        since_seek: 0,
        limit: limits.max_metadata,
        header_at: header_at.clone(),
    });
    archive.set_ignore_zeros(true);
    let to_error = |e: io::Error| -> Error {
        let offset = header_at.get();
        if let Some(big) = e
            .get_ref()
            .and_then(|i| i.downcast_ref::<MetadataTooLarge>())
        {
            return Error::TooLarge {
                layer: layer.to_string(),
                offset,
                what: "extension header (GNU long name or PAX)".to_string(),
                claimed: big.0.saturating_add(1),
                // (at least one byte more than the limit was asked for)
                limit: big.0,
            };
        }
        Error::Corrupt {
            layer: layer.to_string(),
            offset,
            detail: e.to_string(),
        }
    };
    let entries = archive.entries_with_seek().map_err(to_error)?;
    let mut items: Vec<Item<Content>> = Vec::new();
    let mut data_by_name: HashMap<String, (u64, u64)> = HashMap::new();
    let (mut truncated, mut globals, mut skipped) = (0u64, 0u64, 0u64);
    let len = stream.len();
    for entry in entries {
        let mut entry = match entry {
            Ok(e) => e,
            Err(e) => {
                let err = to_error(e);
                if items.is_empty() {
                    return Err(err);
                }
                diagnostics.push(format!(
                    "{err}; the {} member(s) before it are listed",
                    items.len()
                ));
                break;
            }
        };
        let kind_byte = entry.header().entry_type().as_byte();
        match kind_byte {
            b'g' => {
                globals += 1;
                continue;
            }
            b'V' | b'M' | b'N' => {
                skipped += 1;
                continue;
            }
            _ => {}
        }
        let name = String::from_utf8_lossy(&entry.path_bytes()).into_owned();
        let link = entry
            .link_name_bytes()
            .map(|l| String::from_utf8_lossy(&l).into_owned());
        let offset = entry.raw_file_position();
        let size = entry.size();
        let header = entry.header();
        let mode = header.mode().ok();
        let owner = match (header.uid(), header.gid()) {
            (Ok(u), Ok(g)) => u32::try_from(u).ok().zip(u32::try_from(g).ok()),
            _ => None,
        };
        let mut times: Vec<Time> = Vec::new();
        if let Ok(m) = header.mtime() {
            times.push(Time {
                role: TimeRole::Modified,
                raw: unix(m),
            });
        }
        if let Some(gnu) = header.as_gnu() {
            for (role, t) in [
                (TimeRole::Accessed, gnu.atime()),
                (TimeRole::Changed, gnu.ctime()),
            ] {
                if let Ok(t) = t
                    && t != 0
                {
                    times.push(Time { role, raw: unix(t) });
                }
            }
        }
        let real_size = header.as_gnu().and_then(|g| g.real_size().ok());
        if let Ok(Some(pax)) = entry.pax_extensions() {
            for ext in pax.flatten() {
                let role = match ext.key() {
                    Ok("mtime") => TimeRole::Modified,
                    Ok("atime") => TimeRole::Accessed,
                    Ok("ctime") => TimeRole::Changed,
                    _ => continue,
                };
                if let Some(raw) = ext.value().ok().and_then(pax_time) {
                    times.retain(|t| t.role != role);
                    times.push(Time { role, raw });
                }
            }
        }
        times.sort_by_key(|t| t.role);
        let index = items.len() as u64;
        let (kind, content, size, link_target) = match kind_byte {
            b'5' | b'D' => (EntryKind::Dir, Content::Missing, 0, None),
            b'2' => {
                let n = link.as_ref().map_or(0, |l| l.len() as u64);
                (EntryKind::Symlink, Content::Missing, n, link)
            }
            b'1' => {
                let target = link.unwrap_or_default();
                match data_by_name.get(&normalize_path(&target)) {
                    Some(&(offset, size)) => (
                        EntryKind::File,
                        Content::Data { offset, size },
                        size,
                        Some(target),
                    ),
                    None => (EntryKind::File, Content::Missing, 0, Some(target)),
                }
            }
            b'S' => (
                EntryKind::File,
                Content::Sparse,
                real_size.unwrap_or(size),
                None,
            ),
            b'3' | b'4' | b'6' => (EntryKind::Other, Content::Missing, 0, None),
            b'0' | b'\0' | b'7' if name.ends_with('/') => {
                (EntryKind::Dir, Content::Missing, 0, None)
            }
            _ => {
                if offset.saturating_add(size) > len {
                    truncated += 1;
                }
                (EntryKind::File, Content::Data { offset, size }, size, None)
            }
        };
        if let Content::Data { offset, size } = content {
            data_by_name.insert(normalize_path(&name), (offset, size));
        }
        items.push(Item {
            name,
            kind,
            size,
            id: Some(index),
            mode,
            owner,
            times,
            link_target,
            payload: content,
        });
    }
    if truncated > 0 {
        diagnostics.push(format!(
            "{truncated} member(s) run past the end of the stream (truncated archive); opening \
             them fails"
        ));
    }
    if globals > 0 {
        diagnostics.push(format!(
            "{globals} PAX global header(s) skipped (not applied)"
        ));
    }
    if skipped > 0 {
        diagnostics.push(format!(
            "{skipped} volume label or multi-volume header(s) skipped"
        ));
    }
    Ok(items)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pax_times_keep_their_fraction_and_sign() {
        let t = |s| pax_time(s);
        assert_eq!(
            t("1350000000.5"),
            Some(RawTime::Unix {
                secs: 1_350_000_000,
                nanos: 500_000_000
            })
        );
        assert_eq!(t("12"), Some(RawTime::Unix { secs: 12, nanos: 0 }));
        assert_eq!(
            t("-1.25"),
            Some(RawTime::Unix {
                secs: -2,
                nanos: 750_000_000
            })
        );
        assert_eq!(
            t("1.123456789123"),
            Some(RawTime::Unix {
                secs: 1,
                nanos: 123_456_789
            })
        );
        assert_eq!(t("x"), None);
        assert_eq!(t("1.x"), None);
    }
}
