//! The examiner's own file system, read relative to open directory handles.
//!
//! Evidence folders can hold paths of any length and any depth: an extraction of a phone may
//! nest further than `PATH_MAX` (4,096 bytes on Linux), where `open("/long/…")` fails with
//! `ENAMETOOLONG`. Everything here works on one name at a time below an open directory
//! (`openat`, `statx`, `readlinkat`, `getdents` through [`rustix`], which wraps these calls
//! without `unsafe` in this crate), so a path's length never matters, and nothing below the root
//! ever follows a symbolic link (`O_NOFOLLOW`, `AT_SYMLINK_NOFOLLOW`): links inside evidence are
//! data. Only the root, which the examiner named, is followed.
//!
//! [`open_file`] and [`lstat`] take a whole host path and fall back to walking it one component
//! at a time when the kernel refuses it as too long, so code that carries host paths (intake's
//! file list, hashing) works on long paths unchanged.

use std::ffi::{OsStr, OsString};
use std::fs::File;
use std::os::fd::OwnedFd;
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::path::{Component, Path, PathBuf};

use rustix::fs::{
    AtFlags, CWD, Dir, FileType, Mode, OFlags, StatxFlags, openat, readlinkat, statx,
};

/// What a directory entry is, read without following links.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HostKind {
    /// A regular file.
    File,
    /// A directory.
    Dir,
    /// A symbolic link (never followed below the root).
    Symlink,
    /// A FIFO, socket or device (listed, never opened).
    Other,
}

/// A time as the kernel gives it: seconds and nanoseconds since the Unix epoch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HostTime {
    /// Seconds since 1970-01-01T00:00:00Z (negative before).
    pub secs: i64,
    /// Nanoseconds within the second.
    pub nanos: u32,
}

/// `statx` of one entry, without following links.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HostStat {
    /// What the entry is.
    pub kind: HostKind,
    /// Size in bytes.
    pub size: u64,
    /// Inode number.
    pub ino: u64,
    /// POSIX mode (type and permission bits).
    pub mode: u32,
    /// Owner's user and group ids.
    pub uid: u32,
    pub gid: u32,
    /// Last modification.
    pub mtime: HostTime,
    /// Last access.
    pub atime: HostTime,
    /// Last status change.
    pub ctime: HostTime,
    /// Birth, where the file system records it and the kernel reports it.
    pub btime: Option<HostTime>,
}

/// An open directory of the host, read-only.
#[derive(Debug)]
pub struct HostDir {
    fd: OwnedFd,
}

fn dir_flags() -> OFlags {
    OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC
}

/// Opens a directory with `O_NOATIME` where the process may (it owns the directory, or has
/// `CAP_FOWNER`), so that listing evidence does not move its accessed time; without it
/// otherwise (`EPERM`).
fn open_dir<Fd: rustix::fd::AsFd>(
    at: Fd,
    path: impl rustix::path::Arg + Copy,
    flags: OFlags,
) -> rustix::io::Result<OwnedFd> {
    match openat(&at, path, flags | OFlags::NOATIME, Mode::empty()) {
        Err(rustix::io::Errno::PERM) => openat(&at, path, flags, Mode::empty()),
        other => other,
    }
}

impl HostDir {
    /// Opens the directory at `path`, following links in it (the examiner named it), whatever
    /// its length.
    pub fn open(path: &Path) -> std::io::Result<HostDir> {
        match open_dir(CWD, path, dir_flags()) {
            Ok(fd) => Ok(HostDir { fd }),
            Err(rustix::io::Errno::NAMETOOLONG) => {
                let (parent, name) = walk_to_parent(path)?;
                let fd = open_dir(&parent.fd, name.as_os_str(), dir_flags())?;
                Ok(HostDir { fd })
            }
            Err(e) => Err(e.into()),
        }
    }

    /// The subdirectory `name`, refusing a link (`ELOOP`) or a non-directory (`ENOTDIR`).
    pub fn dir(&self, name: &OsStr) -> std::io::Result<HostDir> {
        check_name(name)?;
        let fd = open_dir(&self.fd, name, dir_flags() | OFlags::NOFOLLOW)?;
        Ok(HostDir { fd })
    }

    /// The regular file `name`, opened read-only (with `O_NOATIME` where the process may), never
    /// through a link.
    pub fn file(&self, name: &OsStr) -> std::io::Result<File> {
        check_name(name)?;
        let flags = OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::CLOEXEC | OFlags::NOCTTY;
        // O_NONBLOCK: a FIFO put where a file was expected must not block the open.
        let fd = match openat(
            &self.fd,
            name,
            flags | OFlags::NOATIME | OFlags::NONBLOCK,
            Mode::empty(),
        ) {
            Ok(fd) => fd,
            Err(rustix::io::Errno::PERM) => {
                openat(&self.fd, name, flags | OFlags::NONBLOCK, Mode::empty())?
            }
            Err(e) => return Err(e.into()),
        };
        let file = File::from(fd);
        // Regular files ignore O_NONBLOCK for reads; clear it anyway so readers see a plain
        // file. Only it: F_SETFL also sets O_NOATIME, and clearing every flag made each later
        // read of the file move its access time.
        let kept = rustix::fs::fcntl_getfl(&file)? - OFlags::NONBLOCK;
        rustix::fs::fcntl_setfl(&file, kept)?;
        Ok(file)
    }

    /// `statx` of the entry `name`, not following a link.
    pub fn stat(&self, name: &OsStr) -> std::io::Result<HostStat> {
        check_name(name)?;
        let s = statx(
            &self.fd,
            name,
            AtFlags::SYMLINK_NOFOLLOW,
            StatxFlags::BASIC_STATS | StatxFlags::BTIME,
        )?;
        Ok(host_stat(&s))
    }

    /// `statx` of this directory itself.
    pub fn stat_self(&self) -> std::io::Result<HostStat> {
        let s = statx(
            &self.fd,
            "",
            AtFlags::EMPTY_PATH,
            StatxFlags::BASIC_STATS | StatxFlags::BTIME,
        )?;
        Ok(host_stat(&s))
    }

    /// The target of the link `name`.
    pub fn read_link(&self, name: &OsStr) -> std::io::Result<OsString> {
        check_name(name)?;
        let target = readlinkat(&self.fd, name, Vec::new())?;
        Ok(OsString::from_vec(target.into_bytes()))
    }

    /// The names in this directory (without `.` and `..`), each with its type as the directory
    /// reports it, in the order the file system gives them.
    pub fn entries(&self) -> std::io::Result<Vec<(OsString, HostKind)>> {
        let mut out = Vec::new();
        for entry in Dir::read_from(&self.fd)? {
            let entry = entry?;
            let name = entry.file_name().to_bytes();
            if name == b"." || name == b".." {
                continue;
            }
            let kind = match entry.file_type() {
                FileType::RegularFile => HostKind::File,
                FileType::Directory => HostKind::Dir,
                FileType::Symlink => HostKind::Symlink,
                FileType::Unknown => {
                    let name = OsStr::from_bytes(name);
                    self.stat(name)?.kind
                }
                _ => HostKind::Other,
            };
            out.push((OsString::from_vec(name.to_vec()), kind));
        }
        Ok(out)
    }
}

/// A single path component: never empty, never `.`/`..`, never holding a `/`.
fn check_name(name: &OsStr) -> std::io::Result<()> {
    let b = name.as_bytes();
    if b.is_empty() || b == b"." || b == b".." || b.contains(&b'/') || b.contains(&0) {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            format!("not a single path component: {:?}", name),
        ));
    }
    Ok(())
}

fn host_stat(s: &rustix::fs::Statx) -> HostStat {
    let mode = u32::from(s.stx_mode);
    let kind = match FileType::from_raw_mode(mode) {
        FileType::RegularFile => HostKind::File,
        FileType::Directory => HostKind::Dir,
        FileType::Symlink => HostKind::Symlink,
        _ => HostKind::Other,
    };
    let t = |t: &rustix::fs::StatxTimestamp| HostTime {
        secs: t.tv_sec,
        nanos: t.tv_nsec,
    };
    HostStat {
        kind,
        size: s.stx_size,
        ino: s.stx_ino,
        mode,
        uid: s.stx_uid,
        gid: s.stx_gid,
        mtime: t(&s.stx_mtime),
        atime: t(&s.stx_atime),
        ctime: t(&s.stx_ctime),
        btime: (s.stx_mask & StatxFlags::BTIME.bits() != 0).then(|| t(&s.stx_btime)),
    }
}

/// Opens the directory holding the last component of `path`, one component at a time (links in
/// the path are followed, as `open` would), and returns it with that last name.
fn walk_to_parent(path: &Path) -> std::io::Result<(HostDir, OsString)> {
    let mut parts: Vec<Component<'_>> = path.components().collect();
    let last = match parts.pop() {
        Some(Component::Normal(name)) => name.to_os_string(),
        _ => {
            return Err(std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                format!("{} does not end in a name", path.display()),
            ));
        }
    };
    let mut dir = HostDir {
        fd: openat(CWD, ".", dir_flags(), Mode::empty())?,
    };
    for part in parts {
        let name: &OsStr = match part {
            Component::RootDir => "/".as_ref(),
            Component::CurDir => continue,
            Component::ParentDir => "..".as_ref(),
            Component::Normal(n) => n,
            Component::Prefix(_) => continue,
        };
        dir = HostDir {
            fd: openat(&dir.fd, name, dir_flags(), Mode::empty())?,
        };
    }
    Ok((dir, last))
}

/// Opens the file at `path` read-only (with `O_NOATIME` where allowed), whatever its length.
pub fn open_file(path: &Path) -> std::io::Result<File> {
    let flags = OFlags::RDONLY | OFlags::CLOEXEC | OFlags::NOCTTY;
    let direct = match openat(CWD, path, flags | OFlags::NOATIME, Mode::empty()) {
        Err(rustix::io::Errno::PERM) => openat(CWD, path, flags, Mode::empty()),
        other => other,
    };
    match direct {
        Ok(fd) => Ok(File::from(fd)),
        Err(rustix::io::Errno::NAMETOOLONG) => {
            let (parent, name) = walk_to_parent(path)?;
            let fd = match openat(&parent.fd, &name, flags | OFlags::NOATIME, Mode::empty()) {
                Err(rustix::io::Errno::PERM) => openat(&parent.fd, &name, flags, Mode::empty())?,
                other => other?,
            };
            Ok(File::from(fd))
        }
        Err(e) => Err(e.into()),
    }
}

/// `lstat` of `path` (a link is described, not followed), whatever its length.
pub fn lstat(path: &Path) -> std::io::Result<HostStat> {
    stat_path(path, AtFlags::SYMLINK_NOFOLLOW)
}

/// `stat` of `path`, following a link (for a path the examiner named), whatever its length.
pub fn stat(path: &Path) -> std::io::Result<HostStat> {
    stat_path(path, AtFlags::empty())
}

fn stat_path(path: &Path, flags: AtFlags) -> std::io::Result<HostStat> {
    let mask = StatxFlags::BASIC_STATS | StatxFlags::BTIME;
    match statx(CWD, path, flags, mask) {
        Ok(s) => Ok(host_stat(&s)),
        Err(rustix::io::Errno::NAMETOOLONG) => {
            let (parent, name) = walk_to_parent(path)?;
            check_name(&name)?;
            Ok(host_stat(&statx(
                &parent.fd,
                name.as_os_str(),
                flags,
                mask,
            )?))
        }
        Err(e) => Err(e.into()),
    }
}

/// Every regular file below the folder `root`, sorted by path, walked relative to open
/// directory handles: no path length or depth limit, links never followed, at most
/// [`WALK_OPEN_DIRS`] directories open at once however deep the tree (a directory whose handle
/// was closed to stay under that bound is reopened from its nearest open ancestor).
pub fn regular_files(root: &Path) -> std::io::Result<Vec<PathBuf>> {
    struct Frame {
        path: PathBuf,
        name: OsString,
        dir: Option<HostDir>,
        pending: Vec<OsString>,
    }
    let top = HostDir::open(root)?;
    let mut out = Vec::new();
    let mut stack = vec![Frame {
        path: root.to_path_buf(),
        name: OsString::new(),
        pending: Vec::new(),
        dir: Some(top),
    }];
    let list = |dir: &HostDir, path: &Path, out: &mut Vec<PathBuf>| -> std::io::Result<_> {
        let mut subdirs = Vec::new();
        for (name, kind) in dir.entries()? {
            match kind {
                HostKind::File => out.push(path.join(&name)),
                HostKind::Dir => subdirs.push(name),
                HostKind::Symlink | HostKind::Other => {}
            }
        }
        // Popped from the end: reversed so folders are entered in name order (the result is
        // sorted at the end anyway).
        subdirs.sort_by(|a, b| b.cmp(a));
        Ok(subdirs)
    };
    if let Some(Frame {
        dir: Some(dir),
        path,
        pending,
        ..
    }) = stack.last_mut()
    {
        *pending = list(dir, path, &mut out)?;
    }
    while let Some(top) = stack.last_mut() {
        let Some(name) = top.pending.pop() else {
            stack.pop();
            continue;
        };
        let path = top.path.join(&name);
        // The parent's handle, reopened from the nearest open ancestor if it was closed.
        let depth = stack.len() - 1;
        if stack[depth].dir.is_none() {
            let open_at = (0..depth)
                .rev()
                .find(|&i| stack[i].dir.is_some())
                .unwrap_or(0);
            let mut dir = match &stack[open_at].dir {
                Some(d) => d.duplicate()?,
                None => HostDir::open(&stack[0].path)?,
            };
            for frame in &stack[open_at + 1..=depth] {
                dir = dir.dir(&frame.name)?;
            }
            stack[depth].dir = Some(dir);
        }
        let child = match &stack[depth].dir {
            Some(parent) => parent.dir(&name)?,
            None => HostDir::open(&path)?,
        };
        let pending = list(&child, &path, &mut out)?;
        stack.push(Frame {
            path,
            name,
            dir: Some(child),
            pending,
        });
        // Keep at most WALK_OPEN_DIRS handles: close the shallowest ones (not the root).
        let open: Vec<usize> = (1..stack.len())
            .filter(|&i| stack[i].dir.is_some())
            .collect();
        if open.len() > WALK_OPEN_DIRS {
            for &i in &open[..open.len() - WALK_OPEN_DIRS] {
                stack[i].dir = None;
            }
        }
    }
    out.sort();
    Ok(out)
}

/// How many directory handles [`regular_files`] keeps open at most (besides the root's).
pub const WALK_OPEN_DIRS: usize = 64;

impl HostDir {
    /// A second handle on this directory.
    pub fn duplicate(&self) -> std::io::Result<HostDir> {
        Ok(HostDir {
            fd: open_dir(&self.fd, ".", dir_flags())?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A chain of `depth` folders each named `name`, with a file at the bottom, built with
    /// `mkdirat` one level at a time (the whole path is far beyond PATH_MAX).
    fn deep_tree(root: &Path, name: &str, depth: usize) -> PathBuf {
        let mut dir: OwnedFd = openat(CWD, root, dir_flags(), Mode::empty()).unwrap();
        let mut path = root.to_path_buf();
        for _ in 0..depth {
            rustix::fs::mkdirat(&dir, name, Mode::from_raw_mode(0o755)).unwrap();
            dir = openat(&dir, name, dir_flags(), Mode::empty()).unwrap();
            path.push(name);
        }
        let f = openat(
            &dir,
            "bottom.txt",
            OFlags::WRONLY | OFlags::CREATE,
            Mode::from_raw_mode(0o644),
        )
        .unwrap();
        rustix::io::write(&f, b"at the bottom\n").unwrap();
        path.join("bottom.txt")
    }

    #[test]
    fn reading_a_file_leaves_its_access_time_where_the_process_may() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("f.txt");
        std::fs::write(&path, b"content\n").unwrap();
        // An access time before the modification: relatime moves it at the next plain read.
        let old = std::time::UNIX_EPOCH + std::time::Duration::from_secs(1_000_000_000);
        std::fs::File::options()
            .write(true)
            .open(&path)
            .unwrap()
            .set_times(std::fs::FileTimes::new().set_accessed(old))
            .unwrap();
        let atime = || lstat(&path).unwrap().atime;
        let before = atime();
        let dir = HostDir::open(tmp.path()).unwrap();
        for read in [
            dir.file(OsStr::new("f.txt")).unwrap(),
            open_file(&path).unwrap(),
        ] {
            let mut text = String::new();
            std::io::Read::read_to_string(&mut &read, &mut text).unwrap();
            assert_eq!(text, "content\n");
        }
        // O_NOATIME holds for the owner of the file (the tests run as it); a plain read would
        // have moved the time (checked last, so that the claim above can fail).
        assert_eq!(atime(), before);
        std::fs::read(&path).unwrap();
        assert_ne!(
            atime(),
            before,
            "the file system does not keep access times"
        );
    }

    #[test]
    fn paths_beyond_path_max_are_walked_opened_and_stated() {
        let tmp = tempfile::tempdir().unwrap();
        let name = "d".repeat(242);
        let bottom = deep_tree(tmp.path(), &name, 20);
        assert!(bottom.as_os_str().len() > 4096);
        // The plain calls fail; ours do not.
        assert!(std::fs::File::open(&bottom).is_err());
        let files = regular_files(tmp.path()).unwrap();
        assert_eq!(files, std::slice::from_ref(&bottom));
        let mut text = String::new();
        std::io::Read::read_to_string(&mut open_file(&bottom).unwrap(), &mut text).unwrap();
        assert_eq!(text, "at the bottom\n");
        let st = lstat(&bottom).unwrap();
        assert_eq!((st.kind, st.size), (HostKind::File, 14));
        let parent = HostDir::open(bottom.parent().unwrap()).unwrap();
        assert_eq!(
            parent.entries().unwrap(),
            [(OsString::from("bottom.txt"), HostKind::File)]
        );
    }

    #[test]
    fn a_tree_deeper_than_the_open_handle_bound_is_walked_whole() {
        let tmp = tempfile::tempdir().unwrap();
        let bottom = deep_tree(tmp.path(), "a", 3 * WALK_OPEN_DIRS + 7);
        // A sibling file at each of a few levels, reached after returning from below.
        let mut side = tmp.path().to_path_buf();
        let mut want = vec![bottom];
        for level in 0..5 {
            side.push("a");
            let f = side.join(format!("side{level}"));
            std::fs::write(&f, b"x").unwrap();
            want.push(f);
        }
        want.sort();
        assert_eq!(regular_files(tmp.path()).unwrap(), want);
    }

    #[test]
    fn links_below_the_root_are_not_followed() {
        let tmp = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join("secret"), b"s").unwrap();
        std::os::unix::fs::symlink(outside.path(), tmp.path().join("out")).unwrap();
        std::os::unix::fs::symlink(outside.path().join("secret"), tmp.path().join("s")).unwrap();
        std::fs::write(tmp.path().join("real"), b"r").unwrap();
        assert_eq!(
            regular_files(tmp.path()).unwrap(),
            [tmp.path().join("real")]
        );
        let root = HostDir::open(tmp.path()).unwrap();
        assert!(root.dir("out".as_ref()).is_err());
        assert!(root.file("s".as_ref()).is_err());
        assert_eq!(root.stat("s".as_ref()).unwrap().kind, HostKind::Symlink);
        assert!(root.dir("..".as_ref()).is_err());
        assert!(root.file("a/b".as_ref()).is_err());
    }
}
