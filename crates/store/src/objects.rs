//! Content-addressed output objects: `objects/<first 2 hex>/<sha256>` in the work folder.
//!
//! An object is written to a temporary file in its final folder, fsynced, made read-only and
//! renamed into place, so a crash never leaves a half-written object under its name. An object
//! that already exists is reused when its content still matches its name; one altered on disk
//! is moved aside as `<sha256>.damaged-N` (kept, as a trace of the alteration) and written
//! afresh, so a later identical answer restores the object instead of inheriting the damage.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use crate::StoreError;

/// Lowercase hex sha256 of `bytes`.
pub(crate) fn sha256_hex(bytes: &[u8]) -> String {
    hex::encode(Sha256::digest(bytes))
}

/// Where the object with this sha256 lives (whether or not it exists).
pub(crate) fn object_path(work_dir: &Path, sha256: &str) -> PathBuf {
    let prefix = sha256.get(..2).unwrap_or(sha256);
    work_dir.join("objects").join(prefix).join(sha256)
}

/// Stores `bytes` under their sha256 and returns the object's path.
pub(crate) fn write_object(
    work_dir: &Path,
    sha256: &str,
    bytes: &[u8],
) -> Result<PathBuf, StoreError> {
    let path = object_path(work_dir, sha256);
    let dir = path.parent().unwrap_or(work_dir);
    if path.exists() {
        match fs::read(&path) {
            Ok(existing) if sha256_hex(&existing) == sha256 => return Ok(path),
            _ => set_aside(&path)?,
        }
    }
    fs::create_dir_all(dir).map_err(StoreError::io(dir))?;

    let mut tmp = tempfile::NamedTempFile::new_in(dir).map_err(StoreError::io(dir))?;
    tmp.write_all(bytes).map_err(StoreError::io(tmp.path()))?;
    tmp.as_file()
        .sync_all()
        .map_err(StoreError::io(tmp.path()))?;
    let mut perms = tmp
        .as_file()
        .metadata()
        .map_err(StoreError::io(tmp.path()))?
        .permissions();
    perms.set_readonly(true);
    tmp.as_file()
        .set_permissions(perms)
        .map_err(StoreError::io(tmp.path()))?;
    match tmp.persist_noclobber(&path) {
        Ok(_) => {}
        // Another writer stored the same content first.
        Err(e) if e.error.kind() == std::io::ErrorKind::AlreadyExists => return Ok(path),
        Err(e) => return Err(StoreError::io(&path)(e.error)),
    }
    sync_dir(dir)?;
    if let Some(objects) = dir.parent() {
        sync_dir(objects)?;
    }
    Ok(path)
}

/// Renames a damaged object to the first free `<name>.damaged-N` beside it.
fn set_aside(path: &Path) -> Result<(), StoreError> {
    for n in 1u32.. {
        let mut name = path.as_os_str().to_owned();
        name.push(format!(".damaged-{n}"));
        let aside = PathBuf::from(name);
        if !aside.exists() {
            return fs::rename(path, &aside).map_err(StoreError::io(path));
        }
    }
    Ok(())
}

/// Makes a rename or a new entry in `dir` durable (a no-op where folders cannot be opened).
fn sync_dir(dir: &Path) -> Result<(), StoreError> {
    #[cfg(unix)]
    fs::File::open(dir)
        .and_then(|d| d.sync_all())
        .map_err(StoreError::io(dir))?;
    #[cfg(not(unix))]
    let _ = dir;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn objects_are_named_by_content_and_reused() {
        let dir = tempfile::tempdir().unwrap();
        let bytes = b"hello objects";
        let sha = sha256_hex(bytes);
        let path = write_object(dir.path(), &sha, bytes).unwrap();
        assert_eq!(path, dir.path().join("objects").join(&sha[..2]).join(&sha));
        assert_eq!(fs::read(&path).unwrap(), bytes);
        assert!(fs::metadata(&path).unwrap().permissions().readonly());

        // Writing the same content again reuses the object and leaves no temporary file behind.
        assert_eq!(write_object(dir.path(), &sha, bytes).unwrap(), path);
        let entries = fs::read_dir(path.parent().unwrap()).unwrap().count();
        assert_eq!(entries, 1);
    }

    #[test]
    fn an_object_altered_on_disk_is_set_aside_and_written_afresh() {
        let dir = tempfile::tempdir().unwrap();
        let bytes = b"the recorded answer";
        let sha = sha256_hex(bytes);
        let path = write_object(dir.path(), &sha, bytes).unwrap();
        let mut perms = fs::metadata(&path).unwrap().permissions();
        #[allow(clippy::permissions_set_readonly_false)]
        perms.set_readonly(false);
        fs::set_permissions(&path, perms).unwrap();
        fs::write(&path, b"altered").unwrap();

        assert_eq!(write_object(dir.path(), &sha, bytes).unwrap(), path);
        assert_eq!(fs::read(&path).unwrap(), bytes);
        let mut aside = path.as_os_str().to_owned();
        aside.push(".damaged-1");
        assert_eq!(fs::read(PathBuf::from(aside)).unwrap(), b"altered");
    }

    #[test]
    fn sha256_is_lowercase_hex() {
        assert_eq!(
            sha256_hex(b""),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
    }
}
