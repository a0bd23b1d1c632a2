//! Opening evidence files read-only.

use std::fs::File;
use std::path::Path;

/// Opens an evidence file for reading only.
///
/// On Linux the file is opened with `O_NOATIME` when the process may do so (it owns the file or
/// is root), so that examining evidence does not even change its access time; otherwise it falls
/// back to a plain read-only open. No code path in MASForensics opens evidence for writing.
pub fn open_read_only(path: &Path) -> crate::Result<File> {
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::fs::OpenOptionsExt;
        if let Ok(file) = std::fs::OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_NOATIME)
            .open(path)
        {
            return Ok(file);
        }
    }
    File::open(path).map_err(|e| {
        if e.kind() == std::io::ErrorKind::NotFound {
            crate::Error::NotFound {
                path: path.to_path_buf(),
            }
        } else {
            crate::Error::io(path, e)
        }
    })
}
