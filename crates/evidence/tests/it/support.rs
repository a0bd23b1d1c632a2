//! Helpers the evidence tests share: the repository root, running a real tool, and the Python
//! oracles' interpreter.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The repository's root (fixtures and generators live under it).
pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Runs a real tool and returns its standard output; fails the test with its error output.
pub fn run(cmd: &mut Command) -> String {
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "{cmd:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// The Python of the oracle venv `scripts/setup.sh` makes, where `package` (named in the
/// failure) is installed.
pub fn py_oracle(package: &str) -> PathBuf {
    masf_testkit::corpus::py_oracle("python3", package)
}
