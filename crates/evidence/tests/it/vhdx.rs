//! VHDX images made by `qemu-img` (`tests/fixtures/vhdx/generate.sh`): dynamic and fixed images
//! of the MBR + FAT disk of `tests/fixtures/vdisk` read back to the bytes `qemu-img convert -O
//! raw` gives, its FAT file system listed through the scanner, an 8 GiB sparse image whose BAT
//! interleaves a sector-bitmap entry; and copies damaged here (bad header and region table
//! CRCs, an active log, a differencing image naming its parent, crafted offsets and sizes,
//! truncations, bit flips) giving typed errors.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use masf_evidence::Error;
use masf_evidence::bytes::{ByteSource, Bytes, Memory};
use masf_evidence::fs::EntryKind;
use masf_evidence::probe::{Format, probe};
use masf_evidence::scan;
use masf_evidence::vhdx::VhdxImage;
use sha2::{Digest, Sha256};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures/vhdx")
        .join(name)
}

fn gunzip(name: &str) -> Vec<u8> {
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(std::fs::File::open(fixture(name)).unwrap())
        .read_to_end(&mut out)
        .unwrap();
    out
}

fn memory(data: Vec<u8>) -> Bytes {
    Arc::new(Memory::new(data, "vhdx copy"))
}

/// `(image, offset, length) -> sha256` from ORACLES.sha256 (what qemu-img reads back).
fn oracle(image: &str, offset: u64) -> (u64, String) {
    let text = std::fs::read_to_string(fixture("ORACLES.sha256")).unwrap();
    text.lines()
        .find_map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            (f[1] == image && f[2].parse::<u64>().unwrap() == offset)
                .then(|| (f[3].parse().unwrap(), f[0].to_string()))
        })
        .unwrap_or_else(|| panic!("no oracle for {image} at {offset}"))
}

fn sha256_of(src: &dyn ByteSource, offset: u64, len: u64, piece: usize) -> String {
    let mut h = Sha256::new();
    let mut buf = vec![0u8; piece];
    let mut pos = offset;
    while pos < offset + len {
        let want = ((offset + len - pos) as usize).min(piece);
        let n = src.read_at(pos, &mut buf[..want]).unwrap();
        assert!(n > 0, "no progress at {pos}");
        h.update(&buf[..n]);
        pos += n as u64;
    }
    hex::encode(h.finalize())
}

fn open_err(data: Vec<u8>) -> Error {
    match VhdxImage::open(memory(data)) {
        Ok(_) => panic!("opened"),
        Err(e) => e,
    }
}

const CRC32C: crc::Crc<u32> = crc::Crc::<u32>::new(&crc::CRC_32_ISCSI);

/// Recomputes the CRC-32C of the header at `at` (4 KiB) or region table (64 KiB).
fn reseal(d: &mut [u8], at: usize, len: usize) {
    d[at + 4..at + 8].fill(0);
    let c = CRC32C.checksum(&d[at..at + len]);
    d[at + 4..at + 8].copy_from_slice(&c.to_le_bytes());
}

fn le32(d: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(d[at..at + 4].try_into().unwrap())
}

fn le64(d: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(d[at..at + 8].try_into().unwrap())
}

/// File offsets of the BAT and metadata regions (from the first region table).
fn regions(d: &[u8]) -> (usize, usize) {
    let t = 192 << 10;
    let mut bat = 0;
    let mut meta = 0;
    for i in 0..le32(d, t + 8) as usize {
        let e = t + 16 + 32 * i;
        let off = le64(d, e + 16) as usize;
        match d[e] {
            0x66 => bat = off,
            0x06 => meta = off,
            _ => {}
        }
    }
    (bat, meta)
}

#[test]
fn dynamic_and_fixed_images_read_back_as_qemu_reads_them() {
    let (len, sha) = oracle("disk", 0);
    for (name, fixed) in [
        ("disk-dynamic.vhdx.gz", false),
        ("disk-fixed.vhdx.gz", true),
    ] {
        let data = gunzip(name);
        let p = probe(memory(data.clone()).as_ref());
        assert_eq!((p.format, p.readable), (Format::Vhdx, true), "{name}");
        let image = VhdxImage::open(memory(data)).unwrap();
        let info = image.info();
        assert_eq!(info.fixed, fixed, "{name}");
        assert_eq!(
            (info.virtual_size, info.block_size, info.logical_sector_size),
            (len, 1 << 20, 512),
            "{name}"
        );
        assert_eq!(
            info.disk_id.as_deref(),
            Some("5eed0001-0000-4000-8000-000000000003")
        );
        // Both headers valid: the second (sequence 1001) is current.
        assert_eq!((info.header_index, info.sequence), (1, 1001), "{name}");
        assert!(info.warnings.is_empty(), "{name}: {:?}", info.warnings);
        for piece in [4096, 100_000, 3 << 20] {
            assert_eq!(sha256_of(&image, 0, len, piece), sha, "{name} by {piece}");
        }
    }
}

#[test]
fn the_fat_volume_inside_a_vhdx_lists_through_the_scanner() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("disk.vhdx");
    std::fs::write(&path, gunzip("disk-dynamic.vhdx.gz")).unwrap();
    let s = scan::scan(&path).unwrap();
    assert_eq!(s.form, scan::Form::DiskImage);
    assert_eq!(s.reasons, ["VHDX image holding fat12"]);
    let v = &s.root.children[0];
    assert_eq!(v.layer.kind, "vhdx");
    assert_eq!(v.layer.params["disk_type"], "dynamic");
    let all = s.file_systems();
    assert_eq!(all.len(), 1, "{}", s.unreadable_summary());
    let fs = all[0].fs.clone();
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/vdisk/source");
    for rel in ["hello.txt", "numbers.txt", "docs/a long file name.txt"] {
        let e = fs.stat(&format!("/{rel}")).unwrap();
        assert_eq!(e.kind, EntryKind::File, "{rel}");
        let f = fs.open(&format!("/{rel}")).unwrap();
        let mut got = vec![0u8; f.len() as usize];
        f.read_exact_at(0, &mut got).unwrap();
        assert_eq!(got, std::fs::read(source.join(rel)).unwrap(), "{rel}");
    }
}

#[test]
fn an_eight_gib_sparse_image_maps_blocks_past_the_first_sector_bitmap_entry() {
    let image = VhdxImage::open(memory(gunzip("big-sparse.vhdx.gz"))).unwrap();
    assert_eq!(image.len(), 8 << 30);
    // 1 MiB blocks, 512-byte sectors: a sector-bitmap entry follows every 4096 payload entries,
    // so block 5120 is BAT entry 5121.
    for offset in [0u64, 5120 << 20, 5121 << 20] {
        let (len, sha) = oracle("big-sparse", offset);
        assert_eq!(sha256_of(&image, offset, len, 65536), sha, "at {offset}");
    }
    let mut tail = [1u8; 4096];
    image.read_exact_at((8 << 30) - 4096, &mut tail).unwrap();
    assert!(tail.iter().all(|&b| b == 0));
    assert_eq!(image.read_at(8 << 30, &mut tail).unwrap(), 0);
}

#[test]
fn damaged_headers_and_region_tables_fall_back_to_their_copy_or_are_named() {
    let good = gunzip("disk-dynamic.vhdx.gz");
    let (_, sha) = oracle("disk", 0);
    // The current header (sequence 1001, at 128 KiB) damaged: the other one is used.
    let mut d = good.clone();
    d[(128 << 10) + 100] ^= 1;
    let image = VhdxImage::open(memory(d.clone())).unwrap();
    assert_eq!(
        (image.info().header_index, image.info().sequence),
        (0, 1000)
    );
    assert!(image.info().warnings[0].contains("CRC-32C"));
    assert_eq!(sha256_of(&image, 0, image.len(), 1 << 20), sha);
    // Both damaged: an error naming the first header's offset and both reasons.
    d[(64 << 10) + 8] ^= 1;
    let err = open_err(d);
    assert!(
        matches!(err, Error::Corrupt { offset: 65536, ref detail, .. } if detail.matches("CRC-32C").count() == 2),
        "{err}"
    );
    // The first region table damaged: its copy at 256 KiB is used.
    let mut d = good.clone();
    d[(192 << 10) + 20] ^= 1;
    let image = VhdxImage::open(memory(d.clone())).unwrap();
    assert!(image.info().warnings[0].contains("region table CRC-32C"));
    d[(256 << 10) + 20] ^= 1;
    assert!(matches!(open_err(d), Error::Corrupt { offset: 196608, .. }));
}

#[test]
fn an_active_log_is_refused_not_replayed() {
    let mut d = gunzip("disk-dynamic.vhdx.gz");
    let h = 128 << 10;
    d[h + 48..h + 64].copy_from_slice(&[0x5e; 16]);
    reseal(&mut d, h, 4096);
    // A log GUID whose log (1 MiB at 1 MiB, empty as qemu-img leaves it) holds no entry of it:
    // nothing to replay, read as it is with a warning.
    let image = VhdxImage::open(memory(d.clone())).unwrap();
    assert!(
        image.info().warnings[0].contains("holds no valid entry"),
        "{:?}",
        image.info().warnings
    );
    assert_eq!(
        sha256_of(&image, 0, image.len(), 1 << 20),
        oracle("disk", 0).1
    );
    // A valid entry of that log (signature, GUID, CRC-32C over its 4 KiB) at 8 KiB into the log:
    // refused, naming the log and the entry.
    let at = (1 << 20) + 8192;
    let mut entry = vec![0u8; 4096];
    entry[..4].copy_from_slice(b"loge");
    entry[8..12].copy_from_slice(&4096u32.to_le_bytes());
    entry[16..24].copy_from_slice(&7u64.to_le_bytes());
    entry[32..48].copy_from_slice(&[0x5e; 16]);
    d[at..at + 4096].copy_from_slice(&entry);
    reseal(&mut d, at, 4096);
    let err = open_err(d.clone());
    assert!(
        matches!(err, Error::Unsupported { ref detail, .. }
            if detail.contains("log 5e5e5e5e-5e5e-5e5e-5e5e-5e5e5e5e5e5e") && detail.contains(&format!("entry of it at {at}")) && detail.contains("not replayed")),
        "{err}"
    );
    // The same entry with a wrong CRC-32C is no valid entry.
    d[at + 100] ^= 1;
    assert!(VhdxImage::open(memory(d)).is_ok());
}

#[test]
fn a_differencing_image_without_its_parent_names_it() {
    // qemu-img writes no differencing VHDX: the dynamic image gets the HasParent flag and a
    // parent locator item (relative_path, absolute_win32_path) in its metadata region.
    let mut d = gunzip("disk-dynamic.vhdx.gz");
    let (_, meta) = regions(&d);
    let count = u16::from_le_bytes([d[meta + 10], d[meta + 11]]) as usize;
    let mut params = None;
    for i in 0..count {
        let e = meta + 32 + 32 * i;
        if d[e..e + 4] == [0x37, 0x67, 0xA1, 0xCA] {
            params = Some(meta + le32(&d, e + 16) as usize);
        }
    }
    d[params.unwrap() + 4] |= 2;
    let mut locator = vec![0u8; 20];
    locator[..16].copy_from_slice(&[
        0xB7, 0xEF, 0x4A, 0xB0, 0x9E, 0xD1, 0x81, 0x4A, 0xB7, 0x89, 0x25, 0xB8, 0xE9, 0x44, 0x59,
        0x13,
    ]);
    let pairs = [
        ("relative_path", ".\\base-disk.vhdx"),
        ("absolute_win32_path", "D:\\vms\\base-disk.vhdx"),
    ];
    locator[18] = pairs.len() as u8;
    let mut strings = Vec::new();
    let table_end = 20 + 12 * pairs.len();
    locator.resize(table_end, 0);
    for (i, (k, v)) in pairs.iter().enumerate() {
        let mut put = |s: &str| {
            let at = table_end + strings.len();
            let u: Vec<u8> = s.encode_utf16().flat_map(|u| u.to_le_bytes()).collect();
            strings.extend_from_slice(&u);
            (at as u32, u.len() as u16)
        };
        let (ko, kl) = put(k);
        let (vo, vl) = put(v);
        let e = 20 + 12 * i;
        locator[e..e + 4].copy_from_slice(&ko.to_le_bytes());
        locator[e + 4..e + 8].copy_from_slice(&vo.to_le_bytes());
        locator[e + 8..e + 10].copy_from_slice(&kl.to_le_bytes());
        locator[e + 10..e + 12].copy_from_slice(&vl.to_le_bytes());
    }
    locator.extend_from_slice(&strings);
    let item_off = 128 << 10;
    d[meta + item_off..meta + item_off + locator.len()].copy_from_slice(&locator);
    let e = meta + 32 + 32 * count;
    d[e..e + 16].copy_from_slice(&[
        0x2D, 0x5F, 0xD3, 0xA8, 0x0B, 0xB3, 0x4D, 0x45, 0xAB, 0xF7, 0xD3, 0xD8, 0x48, 0x34, 0xAB,
        0x0C,
    ]);
    d[e + 16..e + 20].copy_from_slice(&(item_off as u32).to_le_bytes());
    d[e + 20..e + 24].copy_from_slice(&(locator.len() as u32).to_le_bytes());
    d[e + 24..e + 28].copy_from_slice(&6u32.to_le_bytes());
    d[meta + 10..meta + 12].copy_from_slice(&((count + 1) as u16).to_le_bytes());
    let err = open_err(d.clone());
    assert_eq!(
        err.to_string(),
        "vhdx: not supported: differencing image: needs its parent `.\\base-disk.vhdx` (absolute_win32_path D:\\vms\\base-disk.vhdx); inside another layer there is no folder to find it in (give both files as evidence)"
    );
    // Through the scanner: the reason is recorded on the layer.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("child.vhdx");
    std::fs::write(&path, d).unwrap();
    let s = scan::scan(&path).unwrap();
    assert!(s.file_systems().is_empty());
    assert!(s.unreadable_summary().contains("base-disk.vhdx"));
    assert_eq!(s.form, scan::Form::File);
    // Given as evidence without its parent beside it: the parent is named, and where it was
    // looked for (disk_chains.rs reads one with its parent).
    assert!(
        s.reasons[0].starts_with(
            "single file: VHDX image, not readable: vhdx: needs parent `.\\base-disk.vhdx`"
        ) && s.reasons[0].contains("give it beside the image"),
        "{:?}",
        s.reasons
    );
}

#[test]
fn crafted_regions_metadata_and_bat_entries_give_typed_errors() {
    let good = gunzip("disk-dynamic.vhdx.gz");
    let (bat, meta) = regions(&good);
    let t = 192 << 10;
    // The BAT region moved past the end of the file (table resealed).
    let mut d = good.clone();
    d[t + 16 + 16..t + 16 + 24].copy_from_slice(&(1u64 << 40).to_le_bytes());
    reseal(&mut d, t, 65536);
    d[(256 << 10) + 20] ^= 1;
    let err = open_err(d);
    assert!(matches!(err, Error::Corrupt { .. }), "{err}");
    // An absurd virtual disk size and a block size that is no power of two.
    let item = |d: &[u8], first: u8| {
        (0..u16::from_le_bytes([d[meta + 10], d[meta + 11]]) as usize)
            .map(|i| meta + 32 + 32 * i)
            .find(|&e| d[e] == first)
            .map(|e| meta + le32(d, e + 16) as usize)
            .unwrap()
    };
    let mut d = good.clone();
    let size = item(&d, 0x24);
    d[size..size + 8].copy_from_slice(&u64::MAX.to_le_bytes());
    let err = open_err(d);
    assert!(
        matches!(err, Error::Corrupt { ref detail, .. } if detail.contains("virtual disk size")),
        "{err}"
    );
    let mut d = good.clone();
    let params = item(&d, 0x37);
    d[params..params + 4].copy_from_slice(&((1u32 << 20) + 512).to_le_bytes());
    let err = open_err(d);
    assert!(
        matches!(err, Error::Corrupt { ref detail, .. } if detail.contains("block size")),
        "{err}"
    );
    // A metadata item pointing outside its region.
    let mut d = good.clone();
    d[meta + 32 + 16..meta + 32 + 20].copy_from_slice(&u32::MAX.to_le_bytes());
    assert!(matches!(open_err(d), Error::Corrupt { .. }));
    // A BAT entry pointing past the end of the file, one with an invalid state, one partially
    // present: the open succeeds, the read of that block names the entry.
    for (entry, want) in [
        ((1u64 << 40) | 6, "outside the image file"),
        (4, "invalid payload state 4"),
        ((9 << 20) | 7, "partially present"),
    ] {
        let mut d = good.clone();
        d[bat..bat + 8].copy_from_slice(&entry.to_le_bytes());
        let image = VhdxImage::open(memory(d)).unwrap();
        let mut buf = [0u8; 512];
        let err = image.read_at(0, &mut buf).err().unwrap();
        assert!(err.to_string().contains(want), "{err}");
        // Block 1 still reads.
        image.read_exact_at(1 << 20, &mut buf).unwrap();
    }
}

#[test]
fn truncated_and_bit_flipped_vhdx_images_never_panic() {
    let good = gunzip("disk-dynamic.vhdx.gz");
    for cut in [
        0usize,
        7,
        8,
        4096,
        65536 + 100,
        200 << 10,
        300 << 10,
        2 << 20,
        9 << 20,
    ] {
        let r = VhdxImage::open(memory(good[..cut].to_vec()));
        match r {
            Err(Error::Truncated { .. } | Error::Corrupt { .. }) => {}
            Err(e) => panic!("cut at {cut}: {e}"),
            // Cut inside the payload: opens, and the missing block is named on read.
            Ok(image) => {
                assert!(cut >= 4 << 20, "cut at {cut} opened");
                let mut buf = vec![0u8; 1 << 20];
                assert!(image.read_at(1 << 20, &mut buf).is_err(), "cut at {cut}");
            }
        }
    }
    // Bit flips in the metadata table and items and in the BAT (headers and region tables are
    // CRC-protected, tested above): an error, or an image whose every block reads or fails.
    let (bat, meta) = regions(&good);
    let mut positions: Vec<usize> = (meta..meta + 32 + 32 * 5).collect();
    positions.extend((meta + (64 << 10))..(meta + (64 << 10) + 40));
    positions.extend(bat..bat + 64);
    for at in positions {
        for bit in [0, 3, 7] {
            let mut d = good.clone();
            d[at] ^= 1 << bit;
            if let Ok(image) = VhdxImage::open(memory(d)) {
                let mut buf = vec![0u8; 4096];
                let mut pos = 0;
                while pos < image.len().min(64 << 20) {
                    let _ = image.read_at(pos, &mut buf);
                    pos += 1 << 19;
                }
            }
        }
    }
}

#[test]
fn virtual_disk_sources_are_named_by_their_container_even_when_unreadable() {
    let vdisk = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/vdisk");
    let s = scan::scan(&vdisk.join("disk.qcow2")).unwrap();
    assert_eq!(s.form, scan::Form::DiskImage);
    assert_eq!(s.reasons, ["QCOW2 image holding fat12"]);
    let s = scan::scan(&vdisk.join("overlay-missing-base.qcow2")).unwrap();
    assert_eq!(s.form, scan::Form::File);
    assert!(
        s.reasons[0].starts_with("single file: QCOW2 image, not readable: ")
            && s.reasons[0].contains("base.qcow2"),
        "{:?}",
        s.reasons
    );
}
