//! The run lease: one writer runs a case at a time (issue 24).
//!
//! A run holds an exclusive OS lock (`flock(2)` on Unix, `LockFileEx` on Windows, through
//! [`std::fs::File::try_lock`]) on [`LOCK_FILE`] in the work folder for as long as it runs. The
//! kernel drops the lock when the holder's file is closed — at exit, and as well at a crash or a
//! `kill -9` — so a dead holder never keeps a case from running, as a pid file would. The lock is
//! held by an open file, not by a process: two leases taken in one process exclude each other
//! too (the desktop app's run thread and anything else in it).
//!
//! The lock file holds its holder ([`Holder`]: pid, host, since) as JSON, so that a refused
//! runner can say who holds the case. The holder writes it just after locking and empties the
//! file when it lets go; a reader that finds the file locked but not yet describing its holder
//! (the moment between the two) looks again.

use std::fs::{File, OpenOptions, TryLockError};
use std::io::{Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

use jiff::Timestamp;
use serde::{Deserialize, Serialize};

use crate::{Result, StoreError};

/// Name of the lock file inside the work folder.
pub const LOCK_FILE: &str = "run.lock";

/// How long a refused runner waits before reading the lock file again when its holder has
/// locked it but not yet written itself into it.
const HOLDER_RETRY: Duration = Duration::from_millis(5);

/// Who holds a case's lease.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS)]
pub struct Holder {
    /// The holding process.
    pub pid: u32,
    /// The machine it runs on.
    pub host: String,
    /// When it took the lease (the caller's clock).
    #[ts(type = "string")]
    pub since: Timestamp,
}

impl Holder {
    /// This process on this machine, from `since`.
    pub fn this_process(since: Timestamp) -> Holder {
        Holder {
            pid: std::process::id(),
            host: host_name(),
            since,
        }
    }
}

impl std::fmt::Display for Holder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "pid {} on {} since {}", self.pid, self.host, self.since)
    }
}

/// The name of this machine (`gethostname`), or `unknown-host`.
fn host_name() -> String {
    #[cfg(unix)]
    {
        let mut buf = [0u8; 256];
        // SAFETY: the buffer is valid for its length; gethostname writes at most that many bytes.
        let rc = unsafe { libc::gethostname(buf.as_mut_ptr().cast(), buf.len()) };
        if rc == 0 {
            let len = buf.iter().position(|&b| b == 0).unwrap_or(buf.len());
            let name = String::from_utf8_lossy(buf.get(..len).unwrap_or_default()).into_owned();
            if !name.is_empty() {
                return name;
            }
        }
    }
    #[cfg(windows)]
    if let Ok(name) = std::env::var("COMPUTERNAME") {
        return name;
    }
    "unknown-host".to_string()
}

/// What to do when another process holds the case.
pub enum Wait<'a> {
    /// Give up at once with [`StoreError::Busy`].
    No,
    /// Wait until the holder lets go (no time limit), calling the function with the holder
    /// first.
    Yes(&'a mut dyn FnMut(&Holder)),
}

/// An exclusive lease on a case's work folder, released when dropped (or when the process
/// ends, however it ends).
#[derive(Debug)]
pub struct Lease {
    file: File,
    work_dir: PathBuf,
    holder: Holder,
}

impl Lease {
    /// Takes the lease of the case in `work_dir` (creating the folder if needed). When another
    /// open file holds it: [`StoreError::Busy`] naming the holder with [`Wait::No`], or waits
    /// for it with [`Wait::Yes`]. `now` stamps the lease when it is taken.
    pub fn acquire(
        work_dir: &Path,
        mut wait: Wait<'_>,
        now: &dyn Fn() -> Timestamp,
    ) -> Result<Lease> {
        std::fs::create_dir_all(work_dir).map_err(StoreError::io(work_dir))?;
        let path = work_dir.join(LOCK_FILE);
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .map_err(StoreError::io(&path))?;
        loop {
            match file.try_lock() {
                Ok(()) => break,
                Err(TryLockError::Error(e)) => return Err(StoreError::io(&path)(e)),
                Err(TryLockError::WouldBlock) => {}
            }
            let Some(holder) = read_holder(&path)? else {
                // Locked, its holder not yet written (or just emptied): look again.
                std::thread::sleep(HOLDER_RETRY);
                continue;
            };
            match &mut wait {
                Wait::No => return Err(StoreError::Busy { holder }),
                Wait::Yes(on_busy) => {
                    on_busy(&holder);
                    // Blocks until the holder's file closes; no time limit.
                    file.lock().map_err(StoreError::io(&path))?;
                    break;
                }
            }
        }
        let holder = Holder::this_process(now());
        let mut lease = Lease {
            file,
            work_dir: work_dir.to_path_buf(),
            holder,
        };
        lease.write_holder().map_err(StoreError::io(&path))?;
        Ok(lease)
    }

    fn write_holder(&mut self) -> std::io::Result<()> {
        let text = serde_json::to_vec(&self.holder).map_err(std::io::Error::other)?;
        self.file.set_len(0)?;
        self.file.seek(SeekFrom::Start(0))?;
        self.file.write_all(&text)?;
        self.file.sync_data()
    }

    /// Who holds it: this process, since when it was taken.
    pub fn holder(&self) -> &Holder {
        &self.holder
    }

    /// The work folder it is a lease of.
    pub fn work_dir(&self) -> &Path {
        &self.work_dir
    }
}

impl Drop for Lease {
    fn drop(&mut self) {
        // The file is closed next, which releases the lock; emptying it first keeps a reader
        // from naming a holder that has gone. A crash skips this: the next holder overwrites.
        let _ = self.file.set_len(0);
    }
}

/// The holder described in the lock file, `None` while it is empty or half written.
fn read_holder(path: &Path) -> Result<Option<Holder>> {
    match std::fs::read(path) {
        Ok(bytes) => Ok(serde_json::from_slice(&bytes).ok()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(StoreError::io(path)(e)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(s: i64) -> impl Fn() -> Timestamp {
        move || Timestamp::from_second(s).unwrap()
    }

    #[test]
    fn a_second_lease_is_refused_naming_the_first_until_it_is_dropped() {
        let dir = tempfile::tempdir().unwrap();
        let first = Lease::acquire(dir.path(), Wait::No, &at(1_700_000_000)).unwrap();
        assert_eq!(first.holder().pid, std::process::id());
        assert!(!first.holder().host.is_empty());
        // A second open file of the same process is a second holder: refused.
        let err = Lease::acquire(dir.path(), Wait::No, &at(1_700_000_001)).unwrap_err();
        match &err {
            StoreError::Busy { holder } => assert_eq!(holder, first.holder()),
            other => panic!("expected Busy, got {other}"),
        }
        assert!(
            err.to_string()
                .contains(&format!("pid {} on ", std::process::id()))
        );
        drop(first);
        assert_eq!(std::fs::read(dir.path().join(LOCK_FILE)).unwrap(), b"");
        let second = Lease::acquire(dir.path(), Wait::No, &at(1_700_000_002)).unwrap();
        assert_eq!(
            second.holder().since,
            Timestamp::from_second(1_700_000_002).unwrap()
        );
    }

    #[test]
    fn a_waiting_lease_is_told_the_holder_and_taken_when_the_holder_lets_go() {
        let dir = tempfile::tempdir().unwrap();
        let first = Lease::acquire(dir.path(), Wait::No, &at(10)).unwrap();
        let expected = first.holder().clone();
        let (told_tx, told_rx) = std::sync::mpsc::channel();
        let work = dir.path().to_path_buf();
        let waiter = std::thread::spawn(move || {
            let mut on_busy = |h: &Holder| told_tx.send(h.clone()).unwrap();
            Lease::acquire(&work, Wait::Yes(&mut on_busy), &at(20)).map(|l| l.holder().clone())
        });
        // The waiter names the holder before it blocks; only then is the holder dropped.
        assert_eq!(told_rx.recv().unwrap(), expected);
        drop(first);
        let got = waiter.join().unwrap().unwrap();
        assert_eq!(got.since, Timestamp::from_second(20).unwrap());
    }
}
