//! A plain folder presented as a read-only tree.
//!
//! Paths are resolved one component at a time below open directory handles (`openat`, `statx`
//! through [`crate::host`]), so their length and depth do not matter, never following a
//! symbolic link: links are listed as links (with their target) and opening one, or walking
//! through one, is refused, so a link pointing outside the folder can never lead there. Only regular files are
//! opened (read-only, through [`FileBytes`], with `O_NOATIME` where allowed); FIFOs, sockets and
//! devices are listed as `Other` and never opened (opening a FIFO would block).
//!
//! Entries carry the inode number as id, the POSIX mode, and the times the platform gives:
//! modification, access and status change always, birth where the kernel reports it (`statx`),
//! all as [`RawTime::Unix`]. Names that are not valid UTF-8 are shown with U+FFFD in place of
//! the bad bytes; such a path still opens (the component is matched against the directory's
//! entries), the first entry matching when two names decay to the same text.

use std::ffi::{OsStr, OsString};
use std::num::NonZeroUsize;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use lru::LruCache;

use crate::Error;
use crate::bytes::{Bytes, FileBytes};
use crate::fs::{
    Entry, EntryKind, FileSystem, RawTime, Time, TimeRole, file_name, join, normalize_path,
};
use crate::host::{HostDir, HostKind, HostStat, HostTime};

/// How many directory handles a folder keeps open for path lookups (most recently used).
const CACHED_DIRS: usize = 64;

/// A folder on the examiner's machine, read-only. Paths are resolved relative to open
/// directory handles ([`crate::host`]), so a tree path of any length works; the handles of
/// recently used directories are kept, so walking a deep tree costs one lookup per level.
pub struct Folder {
    root: PathBuf,
    layer: String,
    top: Arc<HostDir>,
    dirs: Mutex<LruCache<String, Arc<HostDir>>>,
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

/// Where a tree path leads: the open directory holding it and its name there (`None` for the
/// root itself), with its metadata.
struct Found {
    path: String,
    parent: Arc<HostDir>,
    name: Option<OsString>,
    stat: HostStat,
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
        let top = HostDir::open(&root).map_err(|e| io_error(&root, e))?;
        Ok(Folder {
            layer: format!("folder {}", root.display()),
            root,
            top: Arc::new(top),
            dirs: Mutex::new(LruCache::new(
                NonZeroUsize::new(CACHED_DIRS).unwrap_or(NonZeroUsize::MIN),
            )),
        })
    }

    fn wrong(&self, path: &str, detail: impl Into<String>) -> Error {
        Error::WrongKind {
            layer: self.layer.clone(),
            path: path.to_string(),
            detail: detail.into(),
        }
    }

    /// An I/O failure on the tree path `path`, named by the host path it stands for.
    fn io(&self, path: &str, e: std::io::Error) -> Error {
        io_error(&self.root.join(path.trim_start_matches('/')), e)
    }

    /// The entry `part` of `dir`: its exact name, or the first name (in byte order) that is not
    /// valid UTF-8 and is shown as `part`.
    fn child(
        &self,
        dir: &HostDir,
        walked: &str,
        part: &str,
    ) -> Result<(OsString, HostStat), Error> {
        match dir.stat(OsStr::new(part)) {
            Ok(st) => return Ok((OsString::from(part), st)),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(self.io(&join(walked, part), e)),
        }
        let mut names: Vec<OsString> = dir
            .entries()
            .map_err(|e| self.io(walked, e))?
            .into_iter()
            .map(|(n, _)| n)
            .filter(|n| n.to_str().is_none() && n.to_string_lossy() == part)
            .collect();
        names.sort_by(|a, b| a.as_bytes().cmp(b.as_bytes()));
        let no_entry = || Error::NoEntry {
            layer: self.layer.clone(),
            path: join(walked, part),
        };
        let name = names.into_iter().next().ok_or_else(no_entry)?;
        let st = dir
            .stat(&name)
            .map_err(|e| self.io(&join(walked, part), e))?;
        Ok((name, st))
    }

    /// The open directory at the tree path `path` (normalised), from the cache or by walking
    /// from the deepest cached ancestor, never through a link.
    fn dir_at(&self, path: &str) -> Result<Arc<HostDir>, Error> {
        // `path` is normalised (`/a/b/c`): each ancestor is a slice of it, ending where the
        // next component's `/` begins, so no prefix is built (a deep tree stays linear).
        let ends: Vec<usize> = path
            .char_indices()
            .filter(|&(i, c)| c == '/' && i > 0)
            .map(|(i, _)| i)
            .chain((path.len() > 1).then_some(path.len()))
            .collect();
        let mut cache = self.dirs.lock().unwrap_or_else(|p| p.into_inner());
        // The deepest cached ancestor (or the root).
        let mut start = 0;
        let mut dir = Arc::clone(&self.top);
        for (k, &end) in ends.iter().enumerate().rev() {
            if let Some(d) = cache.get(&path[..end]) {
                dir = Arc::clone(d);
                start = k + 1;
                break;
            }
        }
        drop(cache);
        for k in start..ends.len() {
            let walked = &path[..ends[k]];
            let parent = if k == 0 { "/" } else { &path[..ends[k - 1]] };
            let part = file_name(walked);
            let (name, st) = self.child(&dir, parent, part)?;
            match st.kind {
                HostKind::Dir => {}
                HostKind::Symlink => {
                    return Err(self.wrong(walked, "is a symbolic link; links are not followed"));
                }
                _ => return Err(self.wrong(walked, "not a directory")),
            }
            dir = Arc::new(dir.dir(&name).map_err(|e| self.io(walked, e))?);
            let mut cache = self.dirs.lock().unwrap_or_else(|p| p.into_inner());
            cache.put(walked.to_string(), Arc::clone(&dir));
        }
        Ok(dir)
    }

    /// The metadata of a tree path and the open directory holding it, walking without
    /// following links.
    fn resolve(&self, path: &str) -> Result<Found, Error> {
        let norm = normalize_path(path);
        let parts: Vec<&str> = norm.split('/').filter(|p| !p.is_empty()).collect();
        let Some((last, parents)) = parts.split_last() else {
            let stat = self.top.stat_self().map_err(|e| io_error(&self.root, e))?;
            return Ok(Found {
                path: "/".to_string(),
                parent: Arc::clone(&self.top),
                name: None,
                stat,
            });
        };
        let parent_path = format!("/{}", parents.join("/"));
        let parent = self.dir_at(&parent_path)?;
        let (name, stat) = self.child(&parent, &parent_path, last)?;
        Ok(Found {
            path: join(&parent_path, last),
            parent,
            name: Some(name),
            stat,
        })
    }

    fn entry(&self, path: String, parent: &HostDir, name: Option<&OsStr>, st: &HostStat) -> Entry {
        let kind = match st.kind {
            HostKind::Symlink => EntryKind::Symlink,
            HostKind::Dir => EntryKind::Dir,
            HostKind::File => EntryKind::File,
            HostKind::Other => EntryKind::Other,
        };
        let link_target = match (st.kind, name) {
            (HostKind::Symlink, Some(name)) => parent
                .read_link(name)
                .ok()
                .map(|t| t.to_string_lossy().into_owned()),
            _ => None,
        };
        let unix = |t: HostTime| RawTime::Unix {
            secs: t.secs,
            nanos: t.nanos,
        };
        let mut times = vec![
            Time {
                role: TimeRole::Modified,
                raw: unix(st.mtime),
            },
            Time {
                role: TimeRole::Accessed,
                raw: unix(st.atime),
            },
            Time {
                role: TimeRole::Changed,
                raw: unix(st.ctime),
            },
        ];
        if let Some(born) = st.btime {
            times.push(Time {
                role: TimeRole::Created,
                raw: unix(born),
            });
        }
        Entry {
            name: file_name(&path).to_string(),
            path,
            kind,
            size: if kind == EntryKind::Dir { 0 } else { st.size },
            id: Some(st.ino),
            mode: Some(st.mode),
            deleted: false,
            times,
            link_target,
            stored_name: None,
            owner: Some((st.uid, st.gid)),
        }
    }
}

impl FileSystem for Folder {
    fn format(&self) -> &str {
        "folder"
    }

    fn list_dir(&self, path: &str) -> Result<Vec<Entry>, Error> {
        let found = self.resolve(path)?;
        match found.stat.kind {
            HostKind::Dir => {}
            HostKind::Symlink => {
                return Err(self.wrong(&found.path, "is a symbolic link; links are not followed"));
            }
            _ => return Err(self.wrong(&found.path, "not a directory")),
        }
        let dir = self.dir_at(&found.path)?;
        let mut out = Vec::new();
        for (name, _) in dir.entries().map_err(|e| self.io(&found.path, e))? {
            let shown = name.to_string_lossy().into_owned();
            let child = join(&found.path, &shown);
            match dir.stat(&name) {
                Ok(st) => out.push(self.entry(child, &dir, Some(&name), &st)),
                Err(_) => out.push(Entry {
                    path: child,
                    name: shown,
                    kind: EntryKind::Other,
                    size: 0,
                    id: None,
                    mode: None,
                    deleted: false,
                    times: Vec::new(),
                    link_target: None,
                    stored_name: None,
                    owner: None,
                }),
            }
        }
        out.sort_by(|a, b| a.name.as_bytes().cmp(b.name.as_bytes()));
        Ok(out)
    }

    fn stat(&self, path: &str) -> Result<Entry, Error> {
        let found = self.resolve(path)?;
        Ok(self.entry(
            found.path,
            &found.parent,
            found.name.as_deref(),
            &found.stat,
        ))
    }

    fn open(&self, path: &str) -> Result<Bytes, Error> {
        let found = self.resolve(path)?;
        let tree_path = found.path.as_str();
        match found.stat.kind {
            HostKind::File => {}
            HostKind::Symlink => {
                let target = found
                    .name
                    .as_deref()
                    .and_then(|n| found.parent.read_link(n).ok())
                    .map(|t| t.to_string_lossy().into_owned())
                    .unwrap_or_default();
                return Err(self.wrong(
                    tree_path,
                    format!("is a symbolic link to {target}; links are not followed"),
                ));
            }
            HostKind::Dir => return Err(self.wrong(tree_path, "is a directory")),
            HostKind::Other => return Err(self.wrong(tree_path, "not a regular file")),
        }
        let Some(name) = found.name.as_deref() else {
            return Err(self.wrong(tree_path, "is a directory"));
        };
        let host = self.root.join(tree_path.trim_start_matches('/'));
        let file = found.parent.file(name).map_err(|e| io_error(&host, e))?;
        Ok(Arc::new(FileBytes::from_file(file, &host)?))
    }
}
