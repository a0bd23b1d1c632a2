//! A temporary case directory with evidence files in it.

use std::fs;
use std::path::{Path, PathBuf};

use masf_case::{Case, CaseError};

/// A case directory in a temporary directory; removed on drop.
pub struct CaseDir {
    tmp: tempfile::TempDir,
}

impl CaseDir {
    pub fn new() -> CaseDir {
        CaseDir {
            tmp: tempfile::tempdir().expect("create temp dir"),
        }
    }

    /// The directory (canonical, so messages can be sanitised reliably).
    pub fn path(&self) -> PathBuf {
        fs::canonicalize(self.tmp.path()).expect("canonical temp dir")
    }

    /// Creates an evidence file with some bytes, and its parent directories.
    pub fn file(&self, rel: &str) -> PathBuf {
        let path = self.path().join(rel);
        fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        fs::write(&path, rel.as_bytes()).expect("write evidence");
        path
    }

    /// Creates an evidence directory.
    pub fn dir(&self, rel: &str) -> PathBuf {
        let path = self.path().join(rel);
        fs::create_dir_all(&path).expect("mkdir");
        path
    }

    /// Writes `case.yaml` and returns its path.
    pub fn write_case(&self, yaml: &str) -> PathBuf {
        let path = self.path().join("case.yaml");
        fs::write(&path, yaml).expect("write case.yaml");
        path
    }

    /// Writes `case.yaml` and loads it.
    pub fn load(&self, yaml: &str) -> Result<Case, CaseError> {
        Case::load(&self.write_case(yaml))
    }

    /// `text` with this directory shown as `$CASE`.
    pub fn sanitise(&self, text: &str) -> String {
        text.replace(&self.path().display().to_string(), "$CASE")
    }
}

/// The error of a load expected to fail.
pub fn expect_err<T: std::fmt::Debug>(result: Result<T, CaseError>) -> CaseError {
    match result {
        Ok(value) => panic!("expected an error, loaded {value:?}"),
        Err(err) => err,
    }
}

/// Whether `path` lies under `dir`.
pub fn is_under(path: &Path, dir: &Path) -> bool {
    path.starts_with(dir)
}
