//! The files a virtual disk names beside itself: a VMDK descriptor's extent files, a QCOW2
//! backing file, a VMDK differencing child's parent.
//!
//! An image records such a file by the name it had where the image was made (`base.qcow2`,
//! `/var/lib/libvirt/images/base.qcow2`, `.\disk-s001.vmdk`). Evidence arrives in another folder,
//! so a name is looked up in the folder of the image that names it: first as a relative path
//! inside that folder, then by its last component (either separator). Nothing outside the folder
//! is opened, whatever the name says, and every file is opened read-only. A chain (a backing
//! file with its own backing file …) is followed at most [`MAX_CHAIN`] files deep, so a loop of
//! names ends with an error instead of recursing.
//!
//! `files` lists the files a chain reads (`FilesKind::DiskChain`), for intake to hash beside
//! the image.

use std::path::{Component, Path, PathBuf};
use std::sync::Arc;

use crate::bytes::{Bytes, FileBytes};
use crate::{Error, Result};

/// Most files one chain may hold (the image itself included).
pub const MAX_CHAIN: usize = 16;

/// Where the files an image names are looked for, and how deep in a chain it is.
#[derive(Debug, Clone)]
pub struct Beside {
    dir: PathBuf,
    depth: usize,
}

impl Beside {
    /// The folder of `image` (its own file is depth 1 of the chain).
    pub fn of(image: &Path) -> Beside {
        Beside {
            dir: image
                .parent()
                .map(Path::to_path_buf)
                .unwrap_or_else(|| PathBuf::from(".")),
            depth: 1,
        }
    }

    /// The folder names are looked up in.
    pub fn folder(&self) -> &Path {
        &self.dir
    }

    /// The file `name` stands for in this folder, if it is there.
    pub fn resolve(&self, name: &str) -> Option<PathBuf> {
        let unified = name.replace('\\', "/");
        let rel = Path::new(&unified);
        let inside = rel.is_relative()
            && rel
                .components()
                .all(|c| matches!(c, Component::Normal(_) | Component::CurDir));
        if inside {
            let p = self.dir.join(rel);
            if p.is_file() {
                return Some(p);
            }
        }
        let base = unified.rsplit('/').next().filter(|b| !b.is_empty())?;
        if base == "." || base == ".." {
            return None;
        }
        let p = self.dir.join(base);
        p.is_file().then_some(p)
    }

    /// Opens the file `name` (`what` it is to the image, for messages: "backing file",
    /// "extent", "parent"), and where the files it names in turn are looked for.
    pub fn open(&self, name: &str, layer: &str, what: &str) -> Result<(Bytes, Beside)> {
        if self.depth >= MAX_CHAIN {
            return Err(Error::TooDeep {
                layer: layer.to_string(),
                offset: 0,
                path: Some(name.to_string()),
                what: "chain of backing, parent and extent files (a loop of names?)".to_string(),
                limit: MAX_CHAIN as u64,
            });
        }
        let path = self.resolve(name).ok_or_else(|| Error::MissingFile {
            layer: layer.to_string(),
            needs: format!("{what} `{name}`"),
            folder: self.dir.clone(),
        })?;
        let bytes: Bytes = Arc::new(FileBytes::open(&path)?);
        let next = Beside {
            dir: path
                .parent()
                .map(Path::to_path_buf)
                .unwrap_or_else(|| self.dir.clone()),
            depth: self.depth + 1,
        };
        Ok((bytes, next))
    }
}

/// The folder to look in, or, when there is none (a virtual disk inside a partition or an
/// archive), [`Error::Unsupported`] saying what the image needs: `needs` is the start of that
/// sentence (`differencing image: needs its parent `base.vhd``).
pub fn required<'a>(beside: Option<&'a Beside>, layer: &str, needs: &str) -> Result<&'a Beside> {
    beside.ok_or_else(|| Error::Unsupported {
        layer: layer.to_string(),
        detail: format!(
            "{needs}; inside another layer there is no folder to find it in (give both files as evidence)"
        ),
    })
}

/// Fills `out` with the bytes of `parent` (a backing file or parent disk) at `pos`; past its
/// end, and without one, the child reads zeros.
pub fn read_or_zeros(parent: Option<&Bytes>, pos: u64, out: &mut [u8]) -> Result<()> {
    let got = match parent {
        Some(p) => p.read_at(pos, out)?,
        None => 0,
    };
    out[got..].fill(0);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_resolve_inside_the_folder_only() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("base.qcow2"), b"x").unwrap();
        std::fs::create_dir(dir.path().join("sub")).unwrap();
        std::fs::write(dir.path().join("sub/part.vmdk"), b"x").unwrap();
        let b = Beside::of(&dir.path().join("top.qcow2"));
        let want = Some(dir.path().join("base.qcow2"));
        assert_eq!(b.resolve("base.qcow2"), want);
        assert_eq!(b.resolve("/var/lib/libvirt/images/base.qcow2"), want);
        assert_eq!(b.resolve(r"C:\VMs\base.qcow2"), want);
        assert_eq!(
            b.resolve(r".\sub\part.vmdk"),
            Some(dir.path().join("sub/part.vmdk"))
        );
        assert_eq!(
            b.resolve("../base.qcow2"),
            want,
            "by its name, never outside"
        );
        assert_eq!(b.resolve(".."), None);
        assert_eq!(b.resolve("missing.qcow2"), None);
        let Err(err) = b.open("missing.qcow2", "qcow2", "backing file") else {
            panic!("opened a missing file");
        };
        assert!(
            matches!(&err, Error::MissingFile { needs, .. } if needs.contains("`missing.qcow2`")),
            "{err:?}"
        );
    }
}
