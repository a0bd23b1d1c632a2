//! The public test corpus: real artefacts from other projects (dfvfs, plaso, iLEAPP, keramics,
//! rust-fatfs, …) that this repository never commits. It lives outside the checkout, in
//! `MASF_CORPUS` when that is set, else `../shared/corpus` beside the repository root, with a
//! `MANIFEST.md` that names each file's origin, licence and sha256.
//!
//! Every accessor checks the file's sha256 against the manifest before handing it out (once per
//! file and process), so a test never runs on a file that is not the one its oracle describes.
//! A missing corpus, a file the manifest does not list or a changed file makes the calling test
//! FAIL with a message naming the folder and the variable: never skip, never pass.
//!
//! ```no_run
//! use masf_testkit::corpus;
//! let e01 = corpus::path("ewf/e01rs-image.E01");              // read in place
//! let fat = corpus::bytes("fs/fat/rust-fatfs-fat12.img");      // whole file, checked
//! let ext = corpus::decompressed("fs/ext/ext4view-test_disk1.bin.zst"); // a temp file
//! # let _ = (e01, fat, ext);
//! ```

use std::collections::{BTreeMap, BTreeSet};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

use sha2::{Digest, Sha256};

/// The variable that names the corpus folder.
pub const VAR: &str = "MASF_CORPUS";

/// The corpus folder: `MASF_CORPUS`, else `../shared/corpus` relative to the repository root.
/// Panics (failing the test) when the folder or its `MANIFEST.md` is missing.
pub fn root() -> PathBuf {
    let (root, _) = manifest();
    root.clone()
}

/// Where the corpus is looked for, whether or not it exists.
pub fn configured_root() -> PathBuf {
    match std::env::var_os(VAR) {
        Some(v) if !v.is_empty() => PathBuf::from(v),
        _ => repo_root().join("../shared/corpus"),
    }
}

/// The repository root (two levels above this crate).
pub fn repo_root() -> PathBuf {
    let here = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    here.canonicalize().unwrap_or(here)
}

/// A program of the Python oracle venv that `scripts/setup.sh` makes at `target/py-oracles`
/// (or `$MASF_PY_ORACLES`): `bin` is `python3` or a script it installed. Fails the test naming
/// `package` (what setup installs for it) when the venv is missing.
pub fn py_oracle(bin: &str, package: &str) -> PathBuf {
    let path = std::env::var_os("MASF_PY_ORACLES")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo_root().join("target/py-oracles"))
        .join("bin")
        .join(bin);
    assert!(
        path.exists(),
        "{} missing: run scripts/setup.sh (it installs {package})",
        path.display()
    );
    path
}

/// The path of a corpus file, checked against the manifest. `rel` is the manifest's name for it
/// (`ewf/e01rs-image.E01`).
pub fn path(rel: &str) -> PathBuf {
    let (root, _) = manifest();
    let path = root.join(rel);
    verify(rel, &path);
    path
}

/// The bytes of a corpus file, checked against the manifest.
pub fn bytes(rel: &str) -> Vec<u8> {
    let path = path(rel);
    std::fs::read(&path).unwrap_or_else(|e| fail(&format!("cannot read {}: {e}", path.display())))
}

/// The text of a corpus file (an oracle), checked against the manifest.
pub fn text(rel: &str) -> String {
    String::from_utf8(bytes(rel))
        .unwrap_or_else(|e| fail(&format!("corpus file {rel} is not UTF-8: {e}")))
}

/// The decompressed bytes of a `.gz` or `.zst` corpus file (the compressed file is checked
/// against the manifest first).
pub fn decompressed_bytes(rel: &str) -> Vec<u8> {
    decompressed_prefix(rel, u64::MAX)
}

/// At most the first `limit` decompressed bytes of a `.gz` or `.zst` corpus file (a 115 MiB
/// image whose superblock is in its first KiB need not be inflated whole).
pub fn decompressed_prefix(rel: &str, limit: u64) -> Vec<u8> {
    let path = path(rel);
    let file = std::fs::File::open(&path)
        .unwrap_or_else(|e| fail(&format!("cannot open {}: {e}", path.display())));
    let reader = std::io::BufReader::new(file);
    let mut out = Vec::new();
    let result = if rel.ends_with(".zst") {
        match ruzstd::decoding::StreamingDecoder::new(reader) {
            Ok(dec) => dec.take(limit).read_to_end(&mut out).map(|_| ()),
            Err(e) => Err(std::io::Error::other(e.to_string())),
        }
    } else if rel.ends_with(".gz") || rel.ends_with(".tgz") {
        flate2::read::MultiGzDecoder::new(reader)
            .take(limit)
            .read_to_end(&mut out)
            .map(|_| ())
    } else {
        fail(&format!("corpus file {rel} is not .gz or .zst"))
    };
    result.unwrap_or_else(|e| fail(&format!("cannot decompress corpus file {rel}: {e}")));
    out
}

/// A temporary file holding the decompressed bytes of a `.gz` or `.zst` corpus file, for code
/// that reads from a path. Made once per process and file, in a private temporary folder that
/// lives as long as the process.
pub fn decompressed(rel: &str) -> PathBuf {
    static MADE: OnceLock<Mutex<BTreeMap<String, PathBuf>>> = OnceLock::new();
    let made = MADE.get_or_init(Default::default);
    let mut made = made.lock().unwrap_or_else(|p| p.into_inner());
    if let Some(p) = made.get(rel) {
        return p.clone();
    }
    let data = decompressed_bytes(rel);
    let name = Path::new(rel)
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("file")
        .trim_end_matches(".zst")
        .trim_end_matches(".gz")
        .to_string();
    let dir = temp_dir().join(format!("{}", made.len()));
    std::fs::create_dir_all(&dir)
        .unwrap_or_else(|e| fail(&format!("cannot create {}: {e}", dir.display())));
    let out = dir.join(name);
    std::fs::write(&out, data)
        .unwrap_or_else(|e| fail(&format!("cannot write {}: {e}", out.display())));
    made.insert(rel.to_string(), out.clone());
    out
}

/// Every manifest entry: name → sha256.
pub fn entries() -> BTreeMap<String, String> {
    manifest().1.clone()
}

fn temp_dir() -> PathBuf {
    static DIR: OnceLock<tempfile::TempDir> = OnceLock::new();
    DIR.get_or_init(|| {
        tempfile::Builder::new()
            .prefix("masf-corpus-")
            .tempdir()
            .unwrap_or_else(|e| fail(&format!("cannot make a temporary folder: {e}")))
    })
    .path()
    .to_path_buf()
}

fn manifest() -> &'static (PathBuf, BTreeMap<String, String>) {
    static MANIFEST: OnceLock<(PathBuf, BTreeMap<String, String>)> = OnceLock::new();
    MANIFEST.get_or_init(|| {
        let root = configured_root();
        let file = root.join("MANIFEST.md");
        let text = match std::fs::read_to_string(&file) {
            Ok(t) => t,
            Err(e) => fail(&format!(
                "the public test corpus is missing: cannot read {} ({e}). Tests that use public \
                 data read it from the folder named by {VAR}, or from ../shared/corpus beside \
                 the repository when {VAR} is not set; put the corpus there or point {VAR} at it",
                file.display()
            )),
        };
        let entries = parse_manifest(&text);
        if entries.is_empty() {
            fail(&format!(
                "{} lists no files: {VAR} (or ../shared/corpus) must name the public test corpus",
                file.display()
            ));
        }
        (root, entries)
    })
}

/// The rows `| \`name\` | \`sha256\` | …` of the manifest's file table.
pub fn parse_manifest(text: &str) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for line in text.lines() {
        let mut cells = line.split('|').map(str::trim).skip(1);
        let (Some(name), Some(sha)) = (cells.next(), cells.next()) else {
            continue;
        };
        let (Some(name), Some(sha)) = (ticked(name), ticked(sha)) else {
            continue;
        };
        if sha.len() == 64 && sha.bytes().all(|b| b.is_ascii_hexdigit()) {
            out.insert(name.to_string(), sha.to_ascii_lowercase());
        }
    }
    out
}

fn ticked(cell: &str) -> Option<&str> {
    cell.strip_prefix('`')?.strip_suffix('`')
}

fn verify(rel: &str, path: &Path) {
    static CHECKED: OnceLock<Mutex<BTreeSet<String>>> = OnceLock::new();
    let checked = CHECKED.get_or_init(Default::default);
    if checked
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .contains(rel)
    {
        return;
    }
    let (root, entries) = manifest();
    let Some(want) = entries.get(rel) else {
        fail(&format!(
            "{rel} is not listed in {}/MANIFEST.md: a test may only use corpus files the \
             manifest names (with their origin and licence)",
            root.display()
        ))
    };
    let got = sha256_file(path);
    if &got != want {
        fail(&format!(
            "corpus file {} has sha256 {got}, the manifest says {want}: the corpus in {} is not \
             the one the tests were written for",
            path.display(),
            root.display()
        ));
    }
    checked
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .insert(rel.to_string());
}

fn sha256_file(path: &Path) -> String {
    let mut file = std::fs::File::open(path)
        .unwrap_or_else(|e| fail(&format!("cannot open corpus file {}: {e}", path.display())));
    let mut hasher = Sha256::new();
    let mut buf = vec![0u8; 1 << 16];
    loop {
        let n = file
            .read(&mut buf)
            .unwrap_or_else(|e| fail(&format!("cannot read {}: {e}", path.display())));
        if n == 0 {
            break;
        }
        hasher.update(&buf[..n]);
    }
    hex(&hasher.finalize())
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn fail(msg: &str) -> ! {
    panic!("public test corpus: {msg}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn manifest_rows_are_parsed_and_other_lines_ignored() {
        let text = "# title\n\n| file | sha256 | size |\n|---|---|---|\n\
            | `ewf/a.E01` | `AB01ab01ab01ab01ab01ab01ab01ab01ab01ab01ab01ab01ab01ab01ab01ab01` | 3 |\n\
            | `bad` | `xyz` | 1 |\n| ColinFinck/ntfs | `47ae0168` | MIT |\n";
        let m = parse_manifest(text);
        assert_eq!(m.len(), 1, "{m:?}");
        assert_eq!(m["ewf/a.E01"], "ab01".repeat(16));
    }

    /// Run in a child process by the test below, with `MASF_CORPUS` naming an empty folder.
    #[test]
    fn child_reads_the_corpus() {
        if std::env::var_os("MASF_CORPUS_CHILD").is_some() {
            let _ = root();
        }
    }

    #[test]
    fn an_empty_corpus_folder_fails_naming_the_folder_and_the_variable() {
        let empty = tempfile::tempdir().unwrap();
        let out = std::process::Command::new(std::env::current_exe().unwrap())
            .args([
                "--exact",
                "corpus::tests::child_reads_the_corpus",
                "--nocapture",
            ])
            .env(VAR, empty.path())
            .env("MASF_CORPUS_CHILD", "1")
            .output()
            .unwrap();
        let all = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(!out.status.success(), "{all}");
        assert!(
            all.contains(&empty.path().join("MANIFEST.md").display().to_string()),
            "{all}"
        );
        assert!(
            all.contains(VAR) && all.contains("../shared/corpus"),
            "{all}"
        );
    }

    #[test]
    fn files_are_checked_against_the_manifest() {
        let text = path("archive/dfvfs-syslog");
        assert!(text.is_file());
        let gz = decompressed_bytes("archive/dfvfs-syslog.gz");
        assert_eq!(gz, bytes("archive/dfvfs-syslog"));
        let tmp = decompressed("archive/dfvfs-syslog.gz");
        assert_eq!(std::fs::read(tmp).unwrap(), gz);
        let refused = std::panic::catch_unwind(|| path("archive/not-in-the-manifest"));
        assert!(refused.is_err());
    }
}
