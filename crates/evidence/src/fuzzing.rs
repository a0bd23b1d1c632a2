//! Shared driver of the fuzz targets and of the regression replay in the test suite: feed bytes
//! to a layer, then touch everything it offers. Bounded, so a fuzz input cannot make the driver
//! itself run long.

use std::sync::Arc;

use crate::bytes::{Bytes, Memory};
use crate::fs::{EntryKind, FileSystem};

/// Entries visited at most per input.
const MAX_ENTRIES: usize = 10_000;
/// Bytes read at most from each file.
const MAX_READ: usize = 1 << 20;

/// Opens `data` with `open` and, if it opens, lists every directory and reads every file.
/// Errors are the expected outcome for most inputs; only a panic or a hang is a finding.
pub fn exercise_fs(data: &[u8], open: fn(Bytes) -> crate::Result<Arc<dyn FileSystem>>) {
    let bytes: Bytes = Arc::new(Memory::new(data.to_vec(), "fuzz input"));
    if let Ok(fs) = open(bytes) {
        exercise_tree(fs.as_ref());
    }
}

/// Walks a file system breadth-first, reading each file, within fixed bounds.
pub fn exercise_tree(fs: &dyn FileSystem) {
    let _ = fs.diagnostics();
    let mut queue = vec!["/".to_string()];
    let mut seen = 0usize;
    let mut buf = vec![0u8; 64 * 1024];
    while let Some(dir) = queue.pop() {
        let Ok(entries) = fs.list_dir(&dir) else {
            continue;
        };
        for e in entries {
            seen += 1;
            if seen > MAX_ENTRIES {
                return;
            }
            let _ = fs.stat(&e.path);
            match e.kind {
                EntryKind::Dir => queue.push(e.path),
                _ => {
                    if let Ok(content) = fs.open(&e.path) {
                        let mut offset = 0u64;
                        while offset < content.len() && offset < MAX_READ as u64 {
                            match content.read_at(offset, &mut buf) {
                                Ok(0) | Err(_) => break,
                                Ok(n) => offset += n as u64,
                            }
                        }
                    }
                }
            }
        }
    }
}

/// For layers that open files (EWF finds its segments on disk): writes `data` to a temporary
/// file named `name`, opens it with `open`, and reads the whole stream.
pub fn exercise_image_file(
    data: &[u8],
    name: &str,
    open: impl Fn(&std::path::Path) -> crate::Result<Bytes>,
) {
    let dir = std::env::temp_dir().join(format!("masf-fuzz-{}", std::process::id()));
    if std::fs::create_dir_all(&dir).is_err() {
        return;
    }
    let path = dir.join(name);
    if std::fs::write(&path, data).is_ok()
        && let Ok(bytes) = open(&path)
    {
        let mut buf = vec![0u8; 64 * 1024];
        let mut offset = 0u64;
        while offset < bytes.len() && offset < MAX_READ as u64 * 16 {
            match bytes.read_at(offset, &mut buf) {
                Ok(0) => break,
                Ok(n) => offset += n as u64,
                // Skip the damaged chunk and go on, as verification does.
                Err(_) => offset += buf.len() as u64,
            }
        }
    }
    let _ = std::fs::remove_file(&path);
}

/// For image layers read from a byte source (Android sparse, QCOW2, VHD, VHDX, VMDK): opens `data` with `open`, reads the
/// stream (at most 16 MiB of it, skipping what fails) and probes what it holds.
pub fn exercise_image(data: &[u8], open: impl Fn(Bytes) -> crate::Result<Bytes>) {
    exercise_image_over(Arc::new(Memory::new(data.to_vec(), "fuzz input")), open);
}

/// [`exercise_image`] over a byte source already made (e.g. [`sparse_blocks`]).
pub fn exercise_image_over(bytes: Bytes, open: impl Fn(Bytes) -> crate::Result<Bytes>) {
    let Ok(image) = open(bytes) else {
        return;
    };
    let mut buf = vec![0u8; 64 * 1024];
    let mut offset = 0u64;
    while offset < image.len() && offset < MAX_READ as u64 * 16 {
        match image.read_at(offset, &mut buf) {
            Ok(0) => break,
            Ok(n) => offset += n as u64,
            Err(_) => offset += buf.len() as u64,
        }
    }
    let _ = crate::probe::probe(image.as_ref());
}

/// Sniffs and opens a partition table in `data`, then probes every partition found.
pub fn exercise_volume(data: &[u8]) {
    let bytes: Bytes = Arc::new(Memory::new(data.to_vec(), "fuzz input"));
    let _ = crate::probe::probe(bytes.as_ref());
    if crate::volume::sniff(bytes.as_ref()).is_some()
        && let Ok(vs) = crate::volume::open(&bytes)
    {
        for p in &vs.partitions {
            let _ = crate::probe::probe(p.bytes.as_ref());
        }
    }
}

/// Most 4 KiB blocks a [`sparse_blocks`] image may claim (128 MiB).
const MAX_SPARSE_BLOCKS: u32 = 1 << 15;

/// A sparse image of 4 KiB blocks decoded from a fuzz input: a little-endian `u32` block count
/// (at most 32,768), then records of a `u32` block index and the block's 4,096 bytes (a short
/// last record is padded with zeros; later records win; indexes past the count are dropped).
/// Every other block reads as zeros. F2FS needs 56 MiB at least, its metadata spread over the
/// first 16 MiB: as raw bytes a seed would be tens of MiB, as records it is the ~26 blocks
/// mkfs.f2fs and sload.f2fs write (`fuzz/seeds.sh` packs them).
pub fn sparse_blocks(data: &[u8]) -> Bytes {
    let count = data
        .get(..4)
        .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .unwrap_or(0)
        .min(MAX_SPARSE_BLOCKS);
    let mut blocks = std::collections::BTreeMap::new();
    for rec in data.get(4..).unwrap_or(&[]).chunks(4 + 4096) {
        let Some(index) = rec.get(..4) else {
            break;
        };
        let index = u32::from_le_bytes([index[0], index[1], index[2], index[3]]);
        if index < count {
            let mut block = rec.get(4..).unwrap_or(&[]).to_vec();
            block.resize(4096, 0);
            blocks.insert(u64::from(index), block);
        }
    }
    Arc::new(SparseBlocks {
        blocks,
        len: u64::from(count) * 4096,
    })
}

/// `image` as the records [`sparse_blocks`] reads: its block count, then each 4 KiB block that
/// is not all zeros with its index. Seeds made from public images in the shared corpus are
/// packed with this at test time (a `seed-*.corpus` file names the image) rather than
/// committed.
pub fn pack_sparse_blocks(image: &[u8]) -> Vec<u8> {
    let count = image.len().div_ceil(4096).min(MAX_SPARSE_BLOCKS as usize);
    let mut out = (count as u32).to_le_bytes().to_vec();
    for (i, block) in image.chunks(4096).take(count).enumerate() {
        if block.iter().any(|&b| b != 0) {
            out.extend_from_slice(&(i as u32).to_le_bytes());
            out.extend_from_slice(block);
        }
    }
    out
}

/// The byte source of [`sparse_blocks`].
struct SparseBlocks {
    blocks: std::collections::BTreeMap<u64, Vec<u8>>,
    len: u64,
}

impl crate::bytes::ByteSource for SparseBlocks {
    fn len(&self) -> u64 {
        self.len
    }

    fn read_at(&self, offset: u64, buf: &mut [u8]) -> crate::Result<usize> {
        if offset >= self.len {
            return Ok(0);
        }
        let n = (buf.len() as u64).min(self.len - offset) as usize;
        let mut done = 0;
        while done < n {
            let pos = offset + done as u64;
            let within = (pos % 4096) as usize;
            let take = (4096 - within).min(n - done);
            let dst = &mut buf[done..done + take];
            match self.blocks.get(&(pos / 4096)) {
                Some(block) => dst.copy_from_slice(&block[within..within + take]),
                None => dst.fill(0),
            }
            done += take;
        }
        Ok(n)
    }

    fn layer_name(&self) -> String {
        "fuzz input (sparse blocks)".to_string()
    }
}

/// The fuzz targets (`crates/evidence/fuzz/fuzz_targets/<name>.rs`), each driven by
/// [`run_target`]: the fuzzer and the regression replay feed bytes through the same code.
pub const TARGETS: [&str; 23] = [
    "apfs",
    "ewf",
    "ext4",
    "f2fs",
    "fat",
    "gzip",
    "hfsplus",
    "keybag",
    "leveldb",
    "lp",
    "lznt1",
    "ntfs",
    "qcow2",
    "segb",
    "simg",
    "sparseimage",
    "tar",
    "udif",
    "vhd",
    "vhdx",
    "vmdk",
    "volume",
    "zip",
];

/// Feeds `data` to the layer of the fuzz target `target` and exercises what it offers; `false`
/// for a name that is no target. Errors are the expected outcome for most inputs; only a panic
/// or a hang is a finding.
pub fn run_target(target: &str, data: &[u8]) -> bool {
    match target {
        "ewf" => exercise_image_file(data, "fuzz.E01", |path| {
            crate::ewf::EwfImage::open(path).map(|i| Arc::new(i) as Bytes)
        }),
        "ext4" => exercise_fs(data, crate::ext4::open),
        // The input as sparse block records, like f2fs: the container's metadata is a few
        // dozen blocks scattered over the image.
        "apfs" => {
            if let Ok(c) = crate::apfs::open_container(sparse_blocks(data)) {
                for vol in c.volumes().iter().flatten() {
                    exercise_tree(vol.as_ref());
                    let _ = vol.xattrs("/");
                }
            }
        }
        "f2fs" => {
            if let Ok(fs) = crate::f2fs::open(sparse_blocks(data)) {
                exercise_tree(fs.as_ref());
            }
        }
        // An Android super image as sparse block records (its metadata is a few blocks after
        // 4 KiB; the partitions' data far beyond): every logical partition read.
        "lp" => {
            if let Ok(image) = crate::lp::open(&sparse_blocks(data)) {
                for p in image.partitions {
                    if let Some(b) = p.bytes {
                        exercise_image_over(b, Ok);
                    }
                }
            }
        }
        "qcow2" => exercise_image(data, |b| {
            crate::qcow2::Qcow2Image::open(b).map(|i| Arc::new(i) as Bytes)
        }),
        "simg" => exercise_image(data, |b| {
            crate::simg::SparseImage::open(b).map(|i| Arc::new(i) as Bytes)
        }),
        "sparseimage" => exercise_image(data, |b| {
            crate::sparseimage::SparseImage::open(b).map(|i| Arc::new(i) as Bytes)
        }),
        "vhd" => exercise_image(data, |b| {
            crate::vhd::VhdImage::open(b).map(|i| Arc::new(i) as Bytes)
        }),
        // The input as sparse block records: a valid VHDX is at least ~9 MiB, mostly zeros.
        "vhdx" => exercise_image_over(sparse_blocks(data), |b| {
            crate::vhdx::VhdxImage::open(b).map(|i| Arc::new(i) as Bytes)
        }),
        "vmdk" => exercise_image(data, |b| {
            crate::vmdk::VmdkImage::open(b).map(|i| Arc::new(i) as Bytes)
        }),
        "keybag" => {
            use crate::itunes::keybag;
            if let Ok(bag) = keybag::parse(data)
                && bag.iterations <= 10_000
                && bag.dp_iterations.unwrap_or(0) <= 10_000
            {
                let _ = keybag::unlock(&bag, &keybag::Password::new(b"fuzz".to_vec()));
            }
        }
        "fat" => exercise_fs(data, crate::fat::open),
        // The input as sparse block records: the HFS+ seed's B-tree nodes are 4 KiB, mostly
        // zeros.
        "hfsplus" => {
            if let Ok(fs) = crate::hfsplus::open(sparse_blocks(data)) {
                exercise_tree(fs.as_ref());
            }
        }
        "udif" => exercise_image(data, |b| {
            crate::udif::UdifImage::open(b).map(|i| Arc::new(i) as Bytes)
        }),
        "ntfs" => exercise_fs(data, crate::ntfs::open),
        "tar" => exercise_fs(data, crate::archive::open_tar),
        "zip" => exercise_fs(data, crate::archive::open_zip),
        "gzip" => {
            let bytes: Bytes = Arc::new(Memory::new(data.to_vec(), "fuzz input"));
            let _ = crate::archive::gunzip(bytes, 16 << 20);
        }
        "leveldb" => {
            let _ = crate::leveldb::read_log(data, "fuzz");
            let _ = crate::leveldb::read_table(data, "fuzz");
        }
        "segb" => {
            let _ = crate::segb::read(data, "fuzz");
        }
        "lznt1" => {
            // One compression unit: 16 clusters of 4 KiB.
            let mut out = vec![0u8; 65536];
            let _ = crate::lznt1::decompress(data, &mut out);
        }
        "volume" => {
            exercise_volume(data);
            let bytes: Bytes = Arc::new(Memory::new(data.to_vec(), "fuzz input"));
            let _ = crate::probe::probe(bytes.as_ref());
        }
        _ => return false,
    }
    true
}
