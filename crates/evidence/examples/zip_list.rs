//! Lists every member of a ZIP archive through the evidence layer (size, DOS date and time,
//! path), like `unzip -l`. The benchmark `bench/zip.sh` times it against `unzip -l`.
//!
//!     cargo run --release -p masf-evidence --example zip_list -- ARCHIVE.zip

use std::io::Write;
use std::sync::Arc;

use masf_evidence::archive::{Limits, ZipArchive};
use masf_evidence::bytes::FileBytes;
use masf_evidence::fs::{EntryKind, FileSystem, RawTime};

/// Appends `n` in decimal, right-aligned in `width` columns filled with `fill` (the listing is
/// printed for tens of thousands of members: formatting machinery would dominate its time).
fn pad_num(out: &mut Vec<u8>, mut n: u64, width: usize, fill: u8) {
    let mut digits = [0u8; 20];
    let mut i = digits.len();
    loop {
        i -= 1;
        digits[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    let len = digits.len() - i;
    out.extend(std::iter::repeat_n(fill, width.saturating_sub(len)));
    out.extend_from_slice(&digits[i..]);
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args()
        .nth(1)
        .ok_or("usage: zip_list ARCHIVE.zip")?;
    let zip = ZipArchive::open(Arc::new(FileBytes::open(path.as_ref())?), Limits::default())?;
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::with_capacity(1 << 16, stdout.lock());
    let (mut count, mut total) = (0u64, 0u64);
    let mut line = Vec::with_capacity(256);
    let mut dirs = vec!["/".to_string()];
    while let Some(dir) = dirs.pop() {
        for e in zip.list_dir(&dir)? {
            let when = e.times.iter().find_map(|t| match t.raw {
                RawTime::FatLocal { date, time, .. } => Some((date, time)),
                _ => None,
            });
            let (date, time) = when.unwrap_or((0, 0));
            line.clear();
            pad_num(&mut line, e.size, 10, b' ');
            line.extend_from_slice(b"  ");
            pad_num(&mut line, 1980 + u64::from(date >> 9), 4, b'0');
            line.push(b'-');
            pad_num(&mut line, u64::from((date >> 5) & 15), 2, b'0');
            line.push(b'-');
            pad_num(&mut line, u64::from(date & 31), 2, b'0');
            line.push(b' ');
            pad_num(&mut line, u64::from(time >> 11), 2, b'0');
            line.push(b':');
            pad_num(&mut line, u64::from((time >> 5) & 63), 2, b'0');
            line.extend_from_slice(b"   ");
            line.extend_from_slice(e.path.as_bytes());
            if e.kind == EntryKind::Dir {
                line.push(b'/');
            }
            line.push(b'\n');
            out.write_all(&line)?;
            count += 1;
            total += e.size;
            if e.kind == EntryKind::Dir {
                dirs.push(e.path);
            }
        }
    }
    writeln!(out, "{total:>10}  {count} entries")?;
    Ok(())
}
