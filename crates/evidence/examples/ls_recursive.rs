//! Lists an ext2/3/4 image recursively through [`masf_evidence::ext4`], one JSON object per entry
//! (path, kind, size, inode, mode, raw times, link target) on stdout, depth first in name order
//! (the way `fls -r -p` walks). Folders that cannot be listed are reported on stderr and the walk
//! goes on. Used by `bench/ls.sh`.
//!
//!     cargo run --release -p masf-evidence --example ls_recursive -- IMAGE [BYTE_OFFSET]

use std::io::{BufWriter, Write};
use std::sync::Arc;

use masf_evidence::bytes::{Bytes, FileBytes, Slice};
use masf_evidence::fs::{Entry, EntryKind, FileSystem};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let image = args
        .next()
        .ok_or("usage: ls_recursive IMAGE [BYTE_OFFSET]")?;
    let offset: u64 = args.next().map(|o| o.parse()).transpose()?.unwrap_or(0);
    let file = open_image(std::path::Path::new(&image))?;
    let bytes: Bytes = if offset > 0 {
        let len = file.len().saturating_sub(offset);
        Arc::new(Slice::new(file, offset, len, "partition"))
    } else {
        file
    };
    let fs = masf_evidence::ext4::open(bytes)?;
    let stdout = std::io::stdout();
    let mut out = BufWriter::with_capacity(1 << 16, stdout.lock());
    let mut errors = 0usize;
    walk(fs.as_ref(), "/", &mut out, &mut errors)?;
    out.flush()?;
    if errors > 0 {
        eprintln!("{errors} folder(s) could not be listed");
    }
    Ok(())
}

/// Opens the evidence file as a byte stream.
fn open_image(path: &std::path::Path) -> Result<Bytes, masf_evidence::Error> {
    // EWF: when the EWF layer (masf_evidence::ewf) is merged, open `.E01` sets through it here
    // (by signature, "EVF\x09\x0d\x0a\xff\x00"), so bench/ls.sh's E01 half can run.
    Ok(Arc::new(FileBytes::open(path)?))
}

fn walk(
    fs: &dyn FileSystem,
    root: &str,
    out: &mut impl Write,
    errors: &mut usize,
) -> std::io::Result<()> {
    // An explicit stack of listings keeps deep trees off the call stack.
    let mut stack: Vec<std::vec::IntoIter<Entry>> = Vec::new();
    match fs.list_dir(root) {
        Ok(entries) => stack.push(entries.into_iter()),
        Err(e) => {
            eprintln!("{root}: {e}");
            *errors += 1;
        }
    }
    while let Some(top) = stack.last_mut() {
        let Some(entry) = top.next() else {
            stack.pop();
            continue;
        };
        serde_json::to_writer(&mut *out, &entry)?;
        out.write_all(b"\n")?;
        if entry.kind == EntryKind::Dir {
            match fs.list_dir(&entry.path) {
                Ok(children) => stack.push(children.into_iter()),
                Err(e) => {
                    eprintln!("{}: {e}", entry.path);
                    *errors += 1;
                }
            }
        }
    }
    Ok(())
}
