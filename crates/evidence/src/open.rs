//! Opening evidence files read-only.

use std::fs::File;
use std::path::Path;

/// Opens an evidence file for reading only.
///
/// On Linux the file is opened with `O_NOATIME` when the process may do so (it owns the file or
/// is root), so that examining evidence does not even change its access time; otherwise it falls
/// back to a plain read-only open. A path longer than the kernel takes is opened one component
/// at a time ([`crate::host::open_file`]). No code path in MASForensics opens evidence for
/// writing.
pub fn open_read_only(path: &Path) -> crate::Result<File> {
    crate::host::open_file(path).map_err(|e| {
        if e.kind() == std::io::ErrorKind::NotFound {
            crate::Error::NotFound {
                path: path.to_path_buf(),
            }
        } else {
            crate::Error::io(path, e)
        }
    })
}
