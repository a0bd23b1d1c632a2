//! A plain folder presented as a read-only tree.
//!
//! Paths are resolved one component at a time with `lstat`, never following a symbolic link:
//! links are listed as links (with their target) and opening one, or walking through one, is
//! refused, so a link pointing outside the folder can never lead there. Only regular files are
//! opened (read-only, through [`FileBytes`], with `O_NOATIME` where allowed); FIFOs, sockets and
//! devices are listed as `Other` and never opened (opening a FIFO would block).
//!
//! Entries carry the inode number as id, the POSIX mode, and the times the platform gives:
//! modification, access and status change always, birth where the kernel reports it (`statx`),
//! all as [`RawTime::Unix`]. Names that are not valid UTF-8 are shown with U+FFFD in place of
//! the bad bytes; such a path still opens (the component is matched against the directory's
//! entries), the first entry matching when two names decay to the same text.

use std::ffi::OsString;
use std::fs::Metadata;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

use crate::Error;
use crate::bytes::{Bytes, FileBytes};
use crate::fs::{
    Entry, EntryKind, FileSystem, RawTime, Time, TimeRole, file_name, join, normalize_path,
};

/// A folder on the examiner's machine, read-only.
pub struct Folder {
    root: PathBuf,
    layer: String,
}

/// Opens a folder as a tree (see [`Folder`]).
pub fn open_folder(path: &Path) -> Result<Arc<dyn FileSystem>, Error> {
    Ok(Arc::new(Folder::open(path)?))
}

fn io_error(path: &Path, e: std::io::Error) -> Error {
    if e.kind() == std::io::ErrorKind::NotFound {
        Error::NotFound {
            path: path.to_path_buf(),
        }
    } else {
        Error::io(path, e)
    }
}

impl Folder {
    /// Opens the folder at `path` (which must be a directory; a link given as the root itself is
    /// followed, since the examiner named it).
    pub fn open(path: &Path) -> Result<Folder, Error> {
        let root = path.canonicalize().map_err(|e| io_error(path, e))?;
        let meta = std::fs::metadata(&root).map_err(|e| io_error(&root, e))?;
        if !meta.is_dir() {
            return Err(Error::WrongKind {
                layer: "folder".to_string(),
                path: root.display().to_string(),
                detail: "not a directory".to_string(),
            });
        }
        Ok(Folder {
            layer: format!("folder {}", root.display()),
            root,
        })
    }

    fn wrong(&self, path: &str, detail: impl Into<String>) -> Error {
        Error::WrongKind {
            layer: self.layer.clone(),
            path: path.to_string(),
            detail: detail.into(),
        }
    }

    /// The host path and `lstat` metadata of a tree path, walking without following links.
    fn resolve(&self, path: &str) -> Result<(String, PathBuf, Metadata), Error> {
        let norm = normalize_path(path);
        let mut host = self.root.clone();
        let mut meta = std::fs::symlink_metadata(&host).map_err(|e| io_error(&host, e))?;
        let mut walked = String::from("/");
        for part in norm.split('/').filter(|p| !p.is_empty()) {
            if meta.file_type().is_symlink() {
                return Err(self.wrong(&walked, "is a symbolic link; links are not followed"));
            }
            if !meta.is_dir() {
                return Err(self.wrong(&walked, "not a directory"));
            }
            let next = match std::fs::symlink_metadata(host.join(part)) {
                Ok(m) => Some((host.join(part), m)),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
                Err(e) => return Err(io_error(&host.join(part), e)),
            };
            let (next, m) = match next {
                Some(found) => found,
                None => self
                    .lossy_match(&host, part)
                    .ok_or_else(|| Error::NoEntry {
                        layer: self.layer.clone(),
                        path: join(&walked, part),
                    })?,
            };
            walked = join(&walked, part);
            host = next;
            meta = m;
        }
        Ok((walked, host, meta))
    }

    /// A directory entry whose name, not valid UTF-8, is shown as `shown`.
    fn lossy_match(&self, dir: &Path, shown: &str) -> Option<(PathBuf, Metadata)> {
        let mut names: Vec<OsString> = std::fs::read_dir(dir)
            .ok()?
            .filter_map(|e| e.ok().map(|e| e.file_name()))
            .filter(|n| n.to_str().is_none() && n.to_string_lossy() == shown)
            .collect();
        names.sort();
        let name = names.into_iter().next()?;
        let path = dir.join(name);
        let meta = std::fs::symlink_metadata(&path).ok()?;
        Some((path, meta))
    }

    fn entry(&self, path: String, host: &Path, meta: &Metadata) -> Entry {
        let ft = meta.file_type();
        let kind = if ft.is_symlink() {
            EntryKind::Symlink
        } else if ft.is_dir() {
            EntryKind::Dir
        } else if ft.is_file() {
            EntryKind::File
        } else {
            EntryKind::Other
        };
        let link_target = if ft.is_symlink() {
            std::fs::read_link(host)
                .ok()
                .map(|t| t.to_string_lossy().into_owned())
        } else {
            None
        };
        let nanos = |n: i64| u32::try_from(n).unwrap_or(0);
        let mut times = vec![
            Time {
                role: TimeRole::Modified,
                raw: RawTime::Unix {
                    secs: meta.mtime(),
                    nanos: nanos(meta.mtime_nsec()),
                },
            },
            Time {
                role: TimeRole::Accessed,
                raw: RawTime::Unix {
                    secs: meta.atime(),
                    nanos: nanos(meta.atime_nsec()),
                },
            },
            Time {
                role: TimeRole::Changed,
                raw: RawTime::Unix {
                    secs: meta.ctime(),
                    nanos: nanos(meta.ctime_nsec()),
                },
            },
        ];
        if let Ok(born) = meta.created() {
            times.push(Time {
                role: TimeRole::Created,
                raw: system_time(born),
            });
        }
        Entry {
            name: file_name(&path).to_string(),
            path,
            kind,
            size: if kind == EntryKind::Dir {
                0
            } else {
                meta.len()
            },
            id: Some(meta.ino()),
            mode: Some(meta.mode()),
            deleted: false,
            times,
            link_target,
        }
    }
}

fn system_time(t: SystemTime) -> RawTime {
    match t.duration_since(UNIX_EPOCH) {
        Ok(d) => RawTime::Unix {
            secs: i64::try_from(d.as_secs()).unwrap_or(i64::MAX),
            nanos: d.subsec_nanos(),
        },
        Err(before) => {
            let d = before.duration();
            let secs = i64::try_from(d.as_secs()).unwrap_or(i64::MAX);
            if d.subsec_nanos() == 0 {
                RawTime::Unix {
                    secs: -secs,
                    nanos: 0,
                }
            } else {
                RawTime::Unix {
                    secs: -secs - 1,
                    nanos: 1_000_000_000 - d.subsec_nanos(),
                }
            }
        }
    }
}

impl FileSystem for Folder {
    fn format(&self) -> &str {
        "folder"
    }

    fn list_dir(&self, path: &str) -> Result<Vec<Entry>, Error> {
        let (tree_path, host, meta) = self.resolve(path)?;
        if meta.file_type().is_symlink() {
            return Err(self.wrong(&tree_path, "is a symbolic link; links are not followed"));
        }
        if !meta.is_dir() {
            return Err(self.wrong(&tree_path, "not a directory"));
        }
        let mut out = Vec::new();
        for dirent in std::fs::read_dir(&host).map_err(|e| io_error(&host, e))? {
            let dirent = dirent.map_err(|e| io_error(&host, e))?;
            let name = dirent.file_name().to_string_lossy().into_owned();
            let child = dirent.path();
            // DirEntry::metadata does not follow links.
            match dirent.metadata() {
                Ok(m) => out.push(self.entry(join(&tree_path, &name), &child, &m)),
                Err(_) => out.push(Entry {
                    path: join(&tree_path, &name),
                    name,
                    kind: EntryKind::Other,
                    size: 0,
                    id: None,
                    mode: None,
                    deleted: false,
                    times: Vec::new(),
                    link_target: None,
                }),
            }
        }
        out.sort_by(|a, b| a.name.as_bytes().cmp(b.name.as_bytes()));
        Ok(out)
    }

    fn stat(&self, path: &str) -> Result<Entry, Error> {
        let (tree_path, host, meta) = self.resolve(path)?;
        Ok(self.entry(tree_path, &host, &meta))
    }

    fn open(&self, path: &str) -> Result<Bytes, Error> {
        let (tree_path, host, meta) = self.resolve(path)?;
        let ft = meta.file_type();
        if ft.is_symlink() {
            let target = std::fs::read_link(&host)
                .map(|t| t.to_string_lossy().into_owned())
                .unwrap_or_default();
            return Err(self.wrong(
                &tree_path,
                format!("is a symbolic link to {target}; links are not followed"),
            ));
        }
        if ft.is_dir() {
            return Err(self.wrong(&tree_path, "is a directory"));
        }
        if !ft.is_file() {
            return Err(self.wrong(&tree_path, "not a regular file"));
        }
        Ok(Arc::new(FileBytes::open(&host)?))
    }
}
