//! Reads the whole media of an image layer recognised by content (Android sparse, QCOW2, UDIF, VHD,
//! VHDX, VMDK: the first layer the scanner stacks on the file) and discards (or, with
//! `--sha256`, hashes) it: the whole-media read that `bench/image_read.sh` times against the
//! image's own tool (`simg2img`, `qemu-img convert -O raw`) writing to /dev/null.
//!
//!     cargo run --release -p masf-evidence --example image_read -- IMAGE [--sha256]

use sha2::Digest;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let path = args.next().ok_or("usage: image_read IMAGE [--sha256]")?;
    let hash = args.next().as_deref() == Some("--sha256");
    let scan = masf_evidence::scan::scan(std::path::Path::new(&path))?;
    let inner = scan
        .root
        .children
        .first()
        .filter(|c| c.partition.is_none())
        .ok_or_else(|| format!("{path}: no image layer ({})", scan.unreadable_summary()))?;
    let bytes = inner.bytes.clone().ok_or("the layer is no byte stream")?;
    let started = std::time::Instant::now();
    let mut h = sha2::Sha256::new();
    let mut buf = vec![0u8; 8 << 20];
    let mut pos = 0u64;
    while pos < bytes.len() {
        let n = bytes.read_at(pos, &mut buf)?;
        if n == 0 {
            break;
        }
        if hash {
            h.update(&buf[..n]);
        }
        pos += n as u64;
    }
    let secs = started.elapsed().as_secs_f64();
    eprintln!(
        "{}: {pos} bytes in {secs:.3} s ({:.0} MiB/s)",
        inner.layer.kind,
        pos as f64 / (1 << 20) as f64 / secs
    );
    if hash {
        println!("{}", hex::encode(h.finalize()));
    }
    Ok(())
}
