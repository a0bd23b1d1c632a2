//! Volume systems and probing: partition tables of public disks equal The Sleuth Kit's `mmls`
//! (`tests/fixtures/public/disk/DISK_ORACLES.md`); disks made with sgdisk, fdisk, sfdisk, parted
//! and xorriso (`tests/fixtures/volume/generate.sh`, `tests/fixtures/hfs/generate.sh`) equal
//! their `mmls` oracles, and every partition's bytes hash as `dd` read them; probing every partition agrees with `blkid` and `dumpe2fs`, public
//! file-system images are recognised (ISO 9660 as not yet readable);
//! Android userdata encryption (FBE, FDE footer, random bytes) is told apart; crafted and
//! damaged tables give typed errors or diagnostics, never a panic or a hang.

use std::collections::BTreeSet;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::support::repo;

use masf_evidence::Error;
use masf_evidence::bytes::{ByteSource, Bytes, FileBytes, Memory, Reader};
use masf_evidence::probe::{self, Encryption, Format, Probe};
use masf_evidence::volume::{self, Partition, PartitionRole, VolumeKind, VolumeSystem};
use masf_testkit::corpus;
use sha2::{Digest, Sha256};

fn fixtures() -> PathBuf {
    repo().join("tests/fixtures/volume")
}

/// A public disk of the corpus, read in place (checked against the corpus manifest).
fn public_disk(name: &str) -> PathBuf {
    corpus::path(&format!("disk/{name}"))
}

/// A public file-system image of the corpus (its name in the manifest); `.zst` images are
/// inflated in memory up to `limit` bytes.
fn public_image(rel: &str, limit: u64) -> Bytes {
    if rel.ends_with(".zst") {
        mem(corpus::decompressed_prefix(rel, limit), rel)
    } else {
        file(&corpus::path(rel))
    }
}

fn unzstd(path: &Path, limit: u64) -> Vec<u8> {
    let file = std::fs::File::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let dec = ruzstd::decoding::StreamingDecoder::new(std::io::BufReader::new(file))
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut out = Vec::new();
    dec.take(limit).read_to_end(&mut out).unwrap();
    out
}

fn mem(data: Vec<u8>, name: &str) -> Bytes {
    Arc::new(Memory::new(data, name))
}

fn file(path: &Path) -> Bytes {
    Arc::new(FileBytes::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display())))
}

fn read_all(b: &dyn ByteSource) -> Vec<u8> {
    let mut v = vec![0u8; b.len() as usize];
    b.read_exact_at(0, &mut v).unwrap();
    v
}

fn sha256_hex(data: &[u8]) -> String {
    hex::encode(Sha256::digest(data))
}

fn open(b: &Bytes) -> VolumeSystem {
    volume::open(b).unwrap_or_else(|e| panic!("{}: {e}", b.layer_name()))
}

// ---------------------------------------------------------------------------------------------
// mmls oracles

/// One row of an `mmls` table.
#[derive(Debug)]
struct MmlsRow {
    slot: String,
    start: u64,
    end: u64,
    len: u64,
    desc: String,
}

fn mmls_rows(text: &str) -> Vec<MmlsRow> {
    text.lines()
        .filter_map(|line| {
            let (num, rest) = line.split_once(':')?;
            if num.len() != 3 || !num.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            let mut it = rest.split_whitespace();
            let slot = it.next()?.to_string();
            let start = it.next()?.parse().ok()?;
            let end = it.next()?.parse().ok()?;
            let len = it.next()?.parse().ok()?;
            let desc = it.collect::<Vec<_>>().join(" ");
            Some(MmlsRow {
                slot,
                start,
                end,
                len,
                desc,
            })
        })
        .collect()
}

/// The partitions of `vs` are exactly the allocated rows of `mmls` (start, end, length; for GPT
/// also the name, which mmls prints as the description; for APM the type, which it prints
/// instead, and the entry number, its slot + 1), and every extended container is one of mmls'
/// "DOS Extended" rows.
fn check_against_mmls(what: &str, vs: &VolumeSystem, rows: &[MmlsRow]) {
    let allocated: Vec<&MmlsRow> = rows
        .iter()
        .filter(|r| r.slot != "Meta" && r.slot != "-------")
        .collect();
    let ours: Vec<&Partition> = vs
        .partitions
        .iter()
        .filter(|p| p.role != PartitionRole::Extended)
        .collect();
    assert_eq!(
        ours.len(),
        allocated.len(),
        "{what}: {ours:#?} vs {allocated:#?}"
    );
    for row in &allocated {
        let p = ours
            .iter()
            .find(|p| p.first_lba == row.start)
            .unwrap_or_else(|| panic!("{what}: no partition at {row:?}"));
        assert_eq!(
            (p.last_lba, p.sector_count),
            (row.end, row.len),
            "{what}: {row:?}"
        );
        assert_eq!(p.offset, row.start * u64::from(vs.sector_size), "{what}");
        assert_eq!(p.size, row.len * u64::from(vs.sector_size), "{what}");
        assert_eq!(p.bytes.len(), p.size, "{what}: fully on the disk");
        if vs.kind == VolumeKind::Gpt {
            assert_eq!(p.name, row.desc, "{what}");
        }
        if vs.kind == VolumeKind::Apm {
            assert_eq!(p.type_id, row.desc, "{what}");
            assert_eq!(
                Ok(p.index),
                row.slot.parse::<u32>().map(|s| s + 1),
                "{what}: {row:?}"
            );
        }
    }
    if vs.kind == VolumeKind::Apm {
        // mmls' "Table" row spans the map's entries, blocks 1 to the entry count.
        let table = rows
            .iter()
            .find(|r| r.slot == "Meta" && r.desc == "Table")
            .unwrap_or_else(|| panic!("{what}: no Table row"));
        assert_eq!(
            (table.start, table.len),
            (1, vs.partitions.len() as u64),
            "{what}"
        );
    }
    for ext in vs
        .partitions
        .iter()
        .filter(|p| p.role == PartitionRole::Extended)
    {
        assert!(
            rows.iter().any(|r| r.slot == "Meta"
                && r.desc.starts_with("DOS Extended")
                && (r.start, r.end, r.len) == (ext.first_lba, ext.last_lba, ext.sector_count)),
            "{what}: extended partition {ext:?} not in mmls"
        );
    }
}

/// The sections of `DISK_ORACLES.md`: `## name` followed by an mmls listing.
fn disk_oracles() -> Vec<(String, String)> {
    let text = corpus::text("disk/DISK_ORACLES.md");
    let mut out: Vec<(String, String)> = Vec::new();
    for line in text.lines() {
        if let Some(name) = line.strip_prefix("## ") {
            out.push((name.trim().to_string(), String::new()));
        } else if let Some((_, body)) = out.last_mut() {
            body.push_str(line);
            body.push('\n');
        }
    }
    out.retain(|(name, body)| !name.contains('(') && body.contains("Slot"));
    out
}

#[test]
fn public_disks_list_exactly_what_mmls_lists() {
    let sections = disk_oracles();
    assert_eq!(sections.len(), 3, "{sections:?}");
    for (name, listing) in &sections {
        let disk = file(&public_disk(name));
        assert!(volume::sniff(&*disk).is_some(), "{name}");
        let vs = open(&disk);
        check_against_mmls(name, &vs, &mmls_rows(listing));
        assert!(vs.diagnostics.is_empty(), "{name}: {:?}", vs.diagnostics);
    }
}

#[test]
fn public_disks_types_guids_and_probes() {
    // quyzi-gpt-disk.img: GUIDs as sgdisk -i prints them.
    let vs = open(&file(&public_disk("quyzi-gpt-disk.img")));
    assert_eq!(vs.kind, VolumeKind::Gpt);
    assert_eq!(vs.sector_size, 512);
    assert_eq!(
        vs.disk_guid.as_deref(),
        Some("1B6A2BFA-E92B-184C-A8A7-ED0610D54821")
    );
    let got: Vec<(u32, &str, &str, Option<&str>)> = vs
        .partitions
        .iter()
        .map(|p| {
            (
                p.index,
                p.type_id.as_str(),
                p.type_name.as_str(),
                p.guid.as_deref(),
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            (
                1,
                "0FC63DAF-8483-4772-8E79-3D69D8477DE4",
                "Linux filesystem",
                Some("F38EAB50-076F-CB45-97F8-B1B7E5AF078F")
            ),
            (
                2,
                "0FC63DAF-8483-4772-8E79-3D69D8477DE4",
                "Linux filesystem",
                Some("8EEE35AF-4A93-2C4F-AA7A-5FB193AC6FF7")
            ),
        ]
    );

    // blsforme: one Linux filesystem partition whose body is zero-filled upstream.
    let vs = open(&file(&public_disk("blsforme-nvme0n1-gpt.raw")));
    assert_eq!(
        vs.disk_guid.as_deref(),
        Some("C5E6D60D-A5C3-4A57-9D9C-963B5632DCBC")
    );
    let p = &vs.partitions[0];
    assert_eq!((p.index, p.type_name.as_str()), (1, "Linux filesystem"));
    assert_eq!(
        p.guid.as_deref(),
        Some("6CA59A0C-E8C9-4EC4-B331-351D120FBB32")
    );
    assert_eq!(probe::probe(&*p.bytes).format, Format::Zeroed);

    // plaso: primary Linux without a file system, extended, logical Linux with ext2 (fls -o 352).
    let disk = file(&public_disk("plaso-tsk_volume_system.raw"));
    let vs = open(&disk);
    assert_eq!(vs.kind, VolumeKind::Mbr);
    assert_eq!(vs.disk_guid.as_deref(), Some("53f5a6ee"));
    let got: Vec<(u32, PartitionRole, &str, &str, u64, u64)> = vs
        .partitions
        .iter()
        .map(|p| {
            (
                p.index,
                p.role,
                p.type_id.as_str(),
                p.type_name.as_str(),
                p.first_lba,
                p.sector_count,
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            (1, PartitionRole::Primary, "0x83", "Linux", 1, 350),
            (2, PartitionRole::Extended, "0x05", "Extended", 351, 2529),
            (5, PartitionRole::Logical, "0x83", "Linux", 352, 2528),
        ]
    );
    let logical = vs.find("5").unwrap();
    assert_eq!(logical.bytes.layer_name(), "partition 5");
    let p = probe::probe(&*logical.bytes);
    assert_eq!(p.format, Format::Ext2, "{p:?}");
    assert!(p.readable);
    assert_eq!(probe::probe(&*disk).format, Format::Mbr);
}

// ---------------------------------------------------------------------------------------------
// generated disks

struct Generated {
    name: &'static str,
    disk: Bytes,
    vs: VolumeSystem,
}

fn generated(name: &'static str) -> Generated {
    let raw = unzstd(&fixtures().join(format!("{name}.img.zst")), u64::MAX);
    let sums = std::fs::read_to_string(fixtures().join("oracles/uncompressed.sha256")).unwrap();
    let want = sums
        .lines()
        .find_map(|l| l.strip_suffix(&format!("  {name}.img")))
        .unwrap_or_else(|| panic!("{name}: no checksum"));
    assert_eq!(sha256_hex(&raw), want, "{name}: decompressed image");
    let disk = mem(raw, name);
    let vs = open(&disk);
    Generated { name, disk, vs }
}

fn oracle(name: &str, kind: &str) -> String {
    std::fs::read_to_string(fixtures().join(format!("oracles/{name}.{kind}.txt"))).unwrap()
}

/// Every partition equals mmls and its bytes hash as dd read them.
fn check_generated(g: &Generated) {
    check_against_mmls(g.name, &g.vs, &mmls_rows(&oracle(g.name, "mmls")));
    assert!(
        g.vs.diagnostics.is_empty(),
        "{}: {:?}",
        g.name,
        g.vs.diagnostics
    );
    for line in oracle(g.name, "partitions")
        .lines()
        .filter(|l| !l.starts_with('#'))
    {
        let f: Vec<&str> = line.split_whitespace().collect();
        let start: u64 = f[1].parse().unwrap();
        let p =
            g.vs.partitions
                .iter()
                .find(|p| p.first_lba == start && p.role != PartitionRole::Extended)
                .unwrap();
        assert_eq!(
            sha256_hex(&read_all(&*p.bytes)),
            f[3],
            "{}: partition {}",
            g.name,
            p.index
        );
    }
}

/// What blkid and dumpe2fs said about each partition (by start sector).
struct BlkidFacts {
    fields: Vec<(String, String)>,
    features: Option<BTreeSet<String>>,
}

impl BlkidFacts {
    fn get(&self, key: &str) -> Option<&str> {
        self.fields
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
            .filter(|v| !v.is_empty())
    }
}

fn blkid_oracle(text: &str) -> Vec<(String, BlkidFacts)> {
    let mut out: Vec<(String, BlkidFacts)> = Vec::new();
    for line in text.lines() {
        if let Some(head) = line.strip_prefix('[') {
            out.push((
                head.trim_end_matches(']').to_string(),
                BlkidFacts {
                    fields: Vec::new(),
                    features: None,
                },
            ));
        } else if let Some((_, facts)) = out.last_mut() {
            if let Some(list) = line.strip_prefix("Filesystem features:") {
                facts.features = Some(list.split_whitespace().map(str::to_string).collect());
            } else if let Some((k, v)) = line.split_once('=') {
                facts.fields.push((k.to_string(), v.replace("\\ ", " ")));
            }
        }
    }
    out
}

/// Our format for what blkid calls TYPE (and VERSION).
fn blkid_format(facts: &BlkidFacts) -> Option<Format> {
    Some(match (facts.get("TYPE")?, facts.get("VERSION")) {
        ("ext4", _) => Format::Ext4,
        ("ext3", _) => Format::Ext3,
        ("ext2", _) => Format::Ext2,
        ("jbd", _) => Format::ExtJournal,
        ("vfat", Some("FAT12")) => Format::Fat12,
        ("vfat", Some("FAT16")) => Format::Fat16,
        ("vfat", Some("FAT32")) => Format::Fat32,
        ("swap", _) => Format::LinuxSwap,
        ("ntfs", _) => Format::Ntfs,
        ("apfs", _) => Format::Apfs,
        ("hfsplus", _) => Format::HfsPlus,
        ("iso9660", _) => Format::Iso9660,
        ("f2fs", _) => Format::F2fs,
        (other, _) => panic!("blkid type {other}"),
    })
}

/// A probe agrees with blkid on type, UUID and (where this prober reads it) label, and with
/// dumpe2fs on the ext feature names.
fn check_probe_against_blkid(what: &str, p: &Probe, facts: &BlkidFacts) {
    let Some(format) = blkid_format(facts) else {
        assert!(
            !p.format.is_file_system(),
            "{what}: blkid found nothing, probe {p:?}"
        );
        return;
    };
    assert_eq!(p.format, format, "{what}: {p:?}");
    assert_eq!(p.uuid.as_deref(), facts.get("UUID"), "{what}: uuid");
    // NTFS keeps its label in $Volume and HFS+ in the catalog: the NTFS/HFS readers' business.
    if !matches!(format, Format::Ntfs | Format::HfsPlus) {
        assert_eq!(p.label.as_deref(), facts.get("LABEL"), "{what}: label");
    }
    if let Some(features) = &facts.features {
        let ours: BTreeSet<String> = p.features.iter().cloned().collect();
        assert_eq!(&ours, features, "{what}: features");
    }
}

fn probe_generated(g: &Generated) -> Vec<(u32, Probe)> {
    let facts = blkid_oracle(&oracle(g.name, "blkid"));
    let mut probes = Vec::new();
    for (head, facts) in &facts {
        let start: u64 = head.split("start=").nth(1).unwrap().parse().unwrap();
        let p =
            g.vs.partitions
                .iter()
                .find(|p| p.first_lba == start && p.role != PartitionRole::Extended)
                .unwrap();
        let result = probe::probe(&*p.bytes);
        check_probe_against_blkid(&format!("{} partition {}", g.name, p.index), &result, facts);
        probes.push((p.index, result));
    }
    probes
}

#[test]
fn android_gpt_disk_partitions_by_name_and_probes() {
    let g = generated("gpt-android");
    check_generated(&g);
    let vs = &g.vs;
    assert_eq!(vs.kind, VolumeKind::Gpt);
    assert_eq!(volume::sniff(&*g.disk), Some(VolumeKind::Gpt));
    assert_eq!(
        vs.disk_guid.as_deref(),
        Some("4D415346-4744-4953-4B00-000000000001")
    );
    let got: Vec<(u32, &str, &str, &str)> = vs
        .partitions
        .iter()
        .map(|p| {
            (
                p.index,
                p.name.as_str(),
                p.type_name.as_str(),
                p.guid.as_deref().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            (
                1,
                "modem",
                "Microsoft basic data",
                "4D415346-0000-4000-8000-000000000101"
            ),
            (
                2,
                "efs",
                "Linux filesystem",
                "4D415346-0000-4000-8000-000000000102"
            ),
            (
                3,
                "misc",
                "Android misc",
                "4D415346-0000-4000-8000-000000000103"
            ),
            (
                4,
                "system",
                "Android system 1",
                "4D415346-0000-4000-8000-000000000104"
            ),
            (
                5,
                "userdata",
                "Android data",
                "4D415346-0000-4000-8000-000000000105"
            ),
        ]
    );
    assert_eq!(vs.find("userdata").unwrap().index, 5);
    assert_eq!(vs.find("USERDATA").unwrap().index, 5);
    assert_eq!(vs.find("3").unwrap().name, "misc");
    assert_eq!(
        vs.find("userdata").unwrap().bytes.layer_name(),
        "partition 5 (userdata)"
    );
    assert!(vs.find("0").is_none());
    assert!(vs.find("6").is_none());
    assert!(vs.find("cache").is_none());
    assert!(vs.find("").is_none());

    let probes = probe_generated(&g);
    let by_index = |i: u32| &probes.iter().find(|(n, _)| *n == i).unwrap().1;
    assert_eq!(by_index(1).encryption, Encryption::None);
    assert_eq!(by_index(2).encryption, Encryption::None);
    let misc = by_index(3);
    assert_eq!(misc.format, Format::Unknown, "{misc:?}");
    assert_eq!(misc.encryption, Encryption::None, "{misc:?}");
    let userdata = by_index(5);
    assert!(userdata.readable);
    assert!(userdata.features.iter().any(|f| f == "casefold"));
    match &userdata.encryption {
        Encryption::Fbe { evidence } => {
            assert!(evidence.contains("encrypt"), "{evidence}");
            assert!(evidence.contains("ext4 layer"), "{evidence}");
        }
        other => panic!("userdata: {other:?}"),
    }
    assert_eq!(probe::probe(&*g.disk).format, Format::Gpt);
}

#[test]
fn android_fde_and_random_userdata_are_told_apart() {
    let g = generated("gpt-android-fde");
    check_generated(&g);
    let probes = probe_generated(&g);
    let userdata = &g.vs.find("userdata").unwrap();
    let p = &probes.iter().find(|(i, _)| *i == userdata.index).unwrap().1;
    assert_eq!(p.format, Format::AndroidFde, "{p:?}");
    assert!(!p.readable);
    match &p.encryption {
        Encryption::Fde { evidence } => {
            assert!(evidence.contains("0xD0B5B1C4"), "{evidence}");
            assert!(evidence.contains("aes-cbc-essiv:sha256"), "{evidence}");
            assert!(evidence.contains("version 1.3"), "{evidence}");
            assert!(
                evidence.contains("16384 bytes before the end"),
                "{evidence}"
            );
        }
        other => panic!("{other:?}"),
    }
    let metadata = g.vs.find("metadata").unwrap();
    let p = probe::probe(&*metadata.bytes);
    assert_eq!(p.format, Format::Unknown);
    assert!(
        p.reason.contains("unknown, likely encrypted"),
        "{}",
        p.reason
    );
    assert!(matches!(p.encryption, Encryption::Unknown { .. }), "{p:?}");
    let system = g.vs.find("system").unwrap();
    assert_eq!(probe::probe(&*system.bytes).format, Format::Ext4);
}

#[test]
fn gpt_with_4096_byte_sectors() {
    let g = generated("gpt-4k");
    check_generated(&g);
    assert_eq!(g.vs.sector_size, 4096);
    assert_eq!(
        g.vs.disk_guid.as_deref(),
        Some("4D415346-4744-4953-4B00-000000004096")
    );
    let p = g.vs.find("data").unwrap();
    assert_eq!(
        (p.first_lba, p.last_lba, p.offset, p.size),
        (6, 133, 6 * 4096, 512 * 1024)
    );
    probe_generated(&g);
}

#[test]
fn mbr_disk_with_extended_and_logical_partitions() {
    let g = generated("mbr");
    check_generated(&g);
    let vs = &g.vs;
    assert_eq!(vs.kind, VolumeKind::Mbr);
    assert_eq!(vs.disk_guid.as_deref(), Some("4d415346"));
    let got: Vec<(u32, PartitionRole, &str, &str)> = vs
        .partitions
        .iter()
        .map(|p| (p.index, p.role, p.type_id.as_str(), p.type_name.as_str()))
        .collect();
    assert_eq!(
        got,
        [
            (1, PartitionRole::Primary, "0x01", "FAT12"),
            (2, PartitionRole::Primary, "0x83", "Linux"),
            (3, PartitionRole::Extended, "0x05", "Extended"),
            (5, PartitionRole::Logical, "0x82", "Linux swap / Solaris"),
            (6, PartitionRole::Logical, "0x83", "Linux"),
            (7, PartitionRole::Logical, "0x07", "HPFS/NTFS/exFAT"),
        ]
    );
    // The same numbering as `sfdisk -d`.
    for line in oracle("mbr", "sfdisk")
        .lines()
        .filter(|l| l.starts_with("mbr.img"))
    {
        let index: u32 = line["mbr.img".len()..]
            .split_whitespace()
            .next()
            .unwrap()
            .parse()
            .unwrap();
        let start: u64 = line
            .split("start=")
            .nth(1)
            .unwrap()
            .split(',')
            .next()
            .unwrap()
            .trim()
            .parse()
            .unwrap();
        assert_eq!(
            vs.find(&index.to_string()).unwrap().first_lba,
            start,
            "{line}"
        );
    }
    let probes = probe_generated(&g);
    assert_eq!(probes.len(), 5);
    assert_eq!(probe::probe(&*g.disk).format, Format::Mbr);
}

/// The partition bytes are the file systems the generator made: files read back through the
/// FAT and ext4 crates equal the source folders.
#[test]
fn files_read_back_through_partitions() {
    let g = generated("gpt-android");
    let modem = g.vs.find("modem").unwrap();
    let fs =
        fatfs::FileSystem::new(Reader::new(modem.bytes.clone()), fatfs::FsOptions::new()).unwrap();
    let mut got = Vec::new();
    fs.root_dir()
        .open_file("image/modem.b00")
        .unwrap()
        .read_to_end(&mut got)
        .unwrap();
    let want = std::fs::read(fixtures().join("content/android/modem/image/modem.b00")).unwrap();
    assert_eq!(got, want);

    let efs = g.vs.find("efs").unwrap();
    let ext = ext4_view::Ext4::load(Box::new(read_all(&*efs.bytes))).unwrap();
    let got = ext.read("/FactoryApp/serial_no").unwrap();
    let want = std::fs::read(fixtures().join("content/android/efs/FactoryApp/serial_no")).unwrap();
    assert_eq!(got, want);

    let g = generated("mbr");
    let fat = g.vs.find("1").unwrap();
    let fs =
        fatfs::FileSystem::new(Reader::new(fat.bytes.clone()), fatfs::FsOptions::new()).unwrap();
    let mut got = Vec::new();
    fs.root_dir()
        .open_file("Documents/Quarterly Report 2023.txt")
        .unwrap()
        .read_to_end(&mut got)
        .unwrap();
    let want =
        std::fs::read(fixtures().join("content/usb/fat/Documents/Quarterly Report 2023.txt"))
            .unwrap();
    assert_eq!(got, want);
    let ext2 = g.vs.find("6").unwrap();
    let ext = ext4_view::Ext4::load(Box::new(read_all(&*ext2.bytes))).unwrap();
    assert_eq!(
        ext.read("/readme.txt").unwrap(),
        std::fs::read(fixtures().join("content/usb/ext2/readme.txt")).unwrap()
    );
}

// ---------------------------------------------------------------------------------------------
// public file-system images

fn probe_public(rel: &str) -> Probe {
    // F2FS inflates to 115 MiB of mostly zeros: its superblock is in the first KiB.
    probe::probe(&*public_image(rel, 8 << 20))
}

/// `blkid -p -o export` of each corpus image (`tests/fixtures/oracles/make-blkid.sh`).
#[test]
fn public_file_system_images_are_recognised() {
    let text =
        std::fs::read_to_string(repo().join("tests/fixtures/oracles/BLKID_ORACLES.txt")).unwrap();
    let oracle = blkid_oracle(&text);
    assert_eq!(oracle.len(), 9);
    for (name, facts) in &oracle {
        let p = probe_public(name);
        check_probe_against_blkid(name, &p, facts);
        assert_eq!(p.encryption, Encryption::None, "{name}");
        let expect_readable = !matches!(p.format, Format::Iso9660);
        assert_eq!(p.readable, expect_readable, "{name}: {p:?}");
        if !expect_readable {
            assert!(
                p.reason.ends_with("recognised, not yet readable"),
                "{name}: {}",
                p.reason
            );
        }
        // A file system image is not a partitioned disk (a FAT or NTFS boot sector also ends
        // with 0x55AA).
        let bytes = public_image(name, 8 << 20);
        assert_eq!(volume::sniff(&*bytes), None, "{name}");
        assert!(
            matches!(volume::open(&bytes), Err(Error::Unsupported { .. })),
            "{name}"
        );
    }
    let f2fs = probe_public("fs/f2fs/blsforme-f2fs.img.zst");
    assert!(
        f2fs.reason.contains("F2FS superblock at byte 1024"),
        "{}",
        f2fs.reason
    );
    let iso = probe_public("fs/iso/dfvfs-iso9660.raw");
    assert_eq!(iso.label.as_deref(), Some("CDROM"));
}

/// Superblocks and boot sectors made by mkfs.vfat (FAT16, FAT32), mke2fs (ext3, ext4 with
/// inline_data/large_dir/meta_bg/quota/project/verity, an external journal) and mkswap (64 KiB
/// pages): probing agrees with blkid and dumpe2fs.
#[test]
fn probe_samples_agree_with_blkid_and_dumpe2fs() {
    let facts = blkid_oracle(&oracle("probe-samples", "blkid"));
    assert_eq!(facts.len(), 6);
    for (name, facts) in &facts {
        let p = probe::probe(&*file(&fixtures().join("probe-samples").join(name)));
        check_probe_against_blkid(name, &p, facts);
        let readable = !matches!(p.format, Format::ExtJournal | Format::LinuxSwap);
        assert_eq!(p.readable, readable, "{name}: {p:?}");
    }
}

#[test]
fn evidence_files_are_unchanged_by_reading() {
    let paths: Vec<PathBuf> = [
        "quyzi-gpt-disk.img",
        "plaso-tsk_volume_system.raw",
        "blsforme-nvme0n1-gpt.raw",
    ]
    .iter()
    .map(|n| public_disk(n))
    .collect();
    let before: Vec<String> = paths
        .iter()
        .map(|p| sha256_hex(&std::fs::read(p).unwrap()))
        .collect();
    for path in &paths {
        let disk = file(path);
        let vs = open(&disk);
        for p in &vs.partitions {
            probe::probe(&*p.bytes);
            read_all(&*p.bytes);
        }
    }
    let after: Vec<String> = paths
        .iter()
        .map(|p| sha256_hex(&std::fs::read(p).unwrap()))
        .collect();
    assert_eq!(before, after);
}

// ---------------------------------------------------------------------------------------------
// mutated tables

fn mutated(name: &str) -> Bytes {
    file(&fixtures().join("mutated").join(name))
}

fn summary(vs: &VolumeSystem) -> Vec<(u32, &str, u64, u64, u64)> {
    vs.partitions
        .iter()
        .map(|p| {
            (
                p.index,
                p.name.as_str(),
                p.first_lba,
                p.sector_count,
                p.bytes.len(),
            )
        })
        .collect()
}

fn has_diagnostic(vs: &VolumeSystem, words: &[&str]) -> bool {
    vs.diagnostics
        .iter()
        .any(|d| words.iter().all(|w| d.contains(w)))
}

const GPT_BASE: [(u32, &str, u64, u64, u64); 2] =
    [(1, "alpha", 34, 16, 8192), (2, "beta", 50, 44, 22528)];

#[test]
fn gpt_damage_is_worked_around_and_reported() {
    let vs = open(&mutated("gpt-base.img"));
    assert_eq!(summary(&vs), GPT_BASE);
    assert!(vs.diagnostics.is_empty(), "{:?}", vs.diagnostics);

    let vs = open(&mutated("gpt-primary-header-crc.img"));
    assert_eq!(summary(&vs), GPT_BASE);
    assert!(
        has_diagnostic(
            &vs,
            &[
                "primary",
                "CRC32 mismatch",
                "backup header at sector 127 was used"
            ]
        ),
        "{:?}",
        vs.diagnostics
    );

    let vs = open(&mutated("gpt-primary-entries-crc.img"));
    assert_eq!(
        summary(&vs),
        GPT_BASE,
        "the backup array holds the undamaged name"
    );
    assert!(
        has_diagnostic(&vs, &["entry array CRC32 mismatch", "backup"]),
        "{:?}",
        vs.diagnostics
    );

    let vs = open(&mutated("gpt-both-entries-crc.img"));
    assert_eq!(summary(&vs)[0].1, "Xlpha");
    assert!(
        has_diagnostic(&vs, &["without their CRC"]),
        "{:?}",
        vs.diagnostics
    );

    let vs = open(&mutated("gpt-absurd-count.img"));
    assert_eq!(summary(&vs), GPT_BASE);
    assert!(
        has_diagnostic(&vs, &["2147483647 entries", "over the limit"]),
        "{:?}",
        vs.diagnostics
    );

    let vs = open(&mutated("gpt-absurd-entry-size.img"));
    assert_eq!(summary(&vs), GPT_BASE);
    assert!(
        has_diagnostic(&vs, &["entry size 200"]),
        "{:?}",
        vs.diagnostics
    );

    let vs = open(&mutated("gpt-entry-beyond-disk.img"));
    let beta = vs.find("beta").unwrap();
    assert_eq!(
        (beta.last_lba, beta.sector_count, beta.size),
        (100_000, 99_951, 99_951 * 512)
    );
    assert_eq!(beta.bytes.len(), 65536 - 50 * 512);
    assert!(
        has_diagnostic(&vs, &["partition 2 (beta)", "beyond the end of the disk"]),
        "{:?}",
        vs.diagnostics
    );
    assert!(
        has_diagnostic(&vs, &["outside the usable area"]),
        "{:?}",
        vs.diagnostics
    );

    let vs = open(&mutated("gpt-overflow-lba.img"));
    let alpha = vs.find("alpha").unwrap();
    assert_eq!(
        (alpha.first_lba, alpha.sector_count, alpha.bytes.len()),
        (u64::MAX - 1, 2, 0)
    );
    assert!(
        has_diagnostic(&vs, &["partition 1 (alpha)", "no readable bytes"]),
        "{:?}",
        vs.diagnostics
    );

    let vs = open(&mutated("gpt-truncated.img"));
    assert_eq!(
        summary(&vs),
        [(1, "alpha", 34, 16, 8192), (2, "beta", 50, 44, 10 * 512)]
    );
    assert!(
        has_diagnostic(&vs, &["backup header at sector 127", "truncated"]),
        "{:?}",
        vs.diagnostics
    );
    assert!(
        has_diagnostic(&vs, &["partition 2 (beta)", "only its first 5120 bytes"]),
        "{:?}",
        vs.diagnostics
    );
}

#[test]
fn gpt_without_a_usable_header_is_a_typed_error() {
    match volume::open(&mutated("gpt-both-headers-bad.img")) {
        Err(Error::Corrupt {
            layer,
            offset,
            detail,
        }) => {
            assert_eq!((layer.as_str(), offset), ("gpt", 512));
            assert!(detail.contains("EFI PART"), "{detail}");
        }
        other => panic!("{other:?}"),
    }
    for name in ["gpt-absurd-count-both.img", "gpt-huge-entry-size.img"] {
        match volume::open(&mutated(name)) {
            Err(Error::TooLarge {
                layer,
                offset,
                claimed,
                limit,
                ..
            }) => {
                assert_eq!((layer.as_str(), offset), ("gpt", 512 + 80), "{name}");
                assert!(claimed > limit, "{name}");
            }
            other => panic!("{name}: {other:?}"),
        }
    }
    match volume::open(&mutated("gpt-header-only.img")) {
        Err(Error::Corrupt { layer, detail, .. }) => {
            assert_eq!(layer, "gpt");
            assert!(detail.contains("beyond the end of the disk"), "{detail}");
        }
        other => panic!("{other:?}"),
    }
}

const MBR_BASE: [(u32, &str, u64, u64, u64); 5] = [
    (1, "", 2, 16, 8192),
    (2, "", 20, 100, 51200),
    (5, "", 22, 16, 8192),
    (6, "", 40, 16, 8192),
    (7, "", 58, 16, 8192),
];

#[test]
fn mbr_chains_loops_and_overflows() {
    let vs = open(&mutated("mbr-base.img"));
    assert_eq!(summary(&vs), MBR_BASE);
    assert!(vs.diagnostics.is_empty(), "{:?}", vs.diagnostics);
    check_against_mmls(
        "mbr-base",
        &vs,
        &mmls_rows(&oracle_mmls_of(&mutated("mbr-base.img"))),
    );

    let vs = open(&mutated("mbr-ebr-loop.img"));
    assert_eq!(summary(&vs), MBR_BASE, "each logical listed once");
    assert!(
        has_diagnostic(&vs, &["loops back to sector 39", "after 3 link(s)"]),
        "{:?}",
        vs.diagnostics
    );

    let vs = open(&mutated("mbr-ebr-self-loop.img"));
    assert_eq!(summary(&vs), MBR_BASE[..3]);
    assert!(
        has_diagnostic(&vs, &["loops back to sector 20"]),
        "{:?}",
        vs.diagnostics
    );

    let vs = open(&mutated("mbr-ebr-bad-signature.img"));
    assert_eq!(summary(&vs), MBR_BASE[..3]);
    assert!(
        has_diagnostic(&vs, &["EBR at sector 39", "0x55AA"]),
        "{:?}",
        vs.diagnostics
    );

    let vs = open(&mutated("mbr-beyond-disk.img"));
    let p1 = vs.find("1").unwrap();
    assert_eq!(
        (p1.sector_count, p1.bytes.len()),
        (0xffff_fff0, 65536 - 1024)
    );
    assert!(
        has_diagnostic(&vs, &["partition 1", "beyond the end of the disk"]),
        "{:?}",
        vs.diagnostics
    );
    assert!(has_diagnostic(&vs, &["overlap"]), "{:?}", vs.diagnostics);
    assert_eq!(vs.partitions.len(), 5);

    let vs = open(&mutated("mbr-overflow.img"));
    let p1 = vs.find("1").unwrap();
    assert_eq!(
        (p1.first_lba, p1.sector_count, p1.bytes.len()),
        (0xffff_ffff, 0xffff_ffff, 0)
    );
    assert!(
        has_diagnostic(&vs, &["partition 1", "no readable bytes"]),
        "{:?}",
        vs.diagnostics
    );

    let vs = open(&mutated("mbr-truncated.img"));
    assert_eq!(
        summary(&vs),
        [
            (1, "", 2, 16, 8192),
            (2, "", 20, 100, 5120),
            (5, "", 22, 16, 4096)
        ]
    );
    assert!(
        has_diagnostic(&vs, &["EBR at sector 39 cannot be read"]),
        "{:?}",
        vs.diagnostics
    );
}

/// mmls of the mutated MBR base, as the generator's mmls would print it (only the base is
/// compared: TSK gives up on the damaged variants).
fn oracle_mmls_of(_disk: &Bytes) -> String {
    "002:  000:000   0000000002   0000000017   0000000016   Linux (0x83)\n\
     004:  Meta      0000000020   0000000119   0000000100   DOS Extended (0x05)\n\
     006:  001:000   0000000022   0000000037   0000000016   Win95 FAT32 (0x0c)\n\
     010:  002:000   0000000040   0000000055   0000000016   Linux (0x83)\n\
     014:  003:000   0000000058   0000000073   0000000016   NTFS / exFAT (0x07)\n"
        .to_string()
}

/// Every byte of the tables flipped in turn, and every truncation at a sector boundary: the
/// result is a table or a typed error, never a panic. Probing each partition found must not
/// panic either.
#[test]
fn flipped_and_truncated_tables_never_panic() {
    let check = |data: Vec<u8>| {
        let disk = mem(data, "mutant");
        let _ = volume::sniff(&*disk);
        if let Ok(vs) = volume::open(&disk) {
            for p in &vs.partitions {
                assert!(p.bytes.len() <= disk.len());
                let _ = probe::probe(&*p.bytes);
            }
        }
        let _ = probe::probe(&*disk);
    };
    let gpt = std::fs::read(fixtures().join("mutated/gpt-base.img")).unwrap();
    let mbr = std::fs::read(fixtures().join("mutated/mbr-base.img")).unwrap();
    // GPT: protective MBR entry, primary header, first entries; backup header and first entries.
    let gpt_spots = (446..512)
        .chain(512..604)
        .chain(1024..1280)
        .chain(95 * 512..95 * 512 + 256)
        .chain(127 * 512..127 * 512 + 92);
    for at in gpt_spots {
        for x in [0xFF, 0x01, 0x80] {
            let mut d = gpt.clone();
            d[at] ^= x;
            check(d);
        }
    }
    // MBR: the primary table and the three EBRs.
    for sector in [0usize, 20, 39, 57] {
        for at in sector * 512 + 446..sector * 512 + 512 {
            for x in [0xFF, 0x01, 0x80, 0x13] {
                let mut d = mbr.clone();
                d[at] ^= x;
                check(d);
            }
        }
    }
    for len in (0..=gpt.len()).step_by(512).chain([1, 100, 511, 513, 1100]) {
        check(gpt[..len].to_vec());
        check(mbr[..len].to_vec());
    }
}

/// Probing damaged superblocks and boot sectors: flipped bytes in the first 4 KiB of each
/// generated file system and truncations of the public images give some answer, never a panic.
#[test]
fn probing_damaged_file_systems_never_panics() {
    let g = generated("mbr");
    for p in
        g.vs.partitions
            .iter()
            .filter(|p| p.role != PartitionRole::Extended)
    {
        let data = read_all(&*p.bytes);
        for at in (0..4096.min(data.len())).step_by(3) {
            let mut d = data.clone();
            d[at] ^= 0xFF;
            let _ = probe::probe(&Memory::new(d, "mutant"));
        }
        for len in [0, 1, 3, 11, 36, 512, 1024, 1080, 1100, 2048, 4096] {
            let _ = probe::probe(&Memory::new(data[..len.min(data.len())].to_vec(), "cut"));
        }
    }
    for name in [
        "fs/apfs/dfvfs-apfs.raw",
        "fs/hfs/dfvfs-hfsplus.raw",
        "fs/f2fs/blsforme-f2fs.img.zst",
        "fs/iso/dfvfs-iso9660.raw",
    ] {
        let data = if name.ends_with(".zst") {
            corpus::decompressed_prefix(name, 64 << 10)
        } else {
            corpus::bytes(name)
        };
        for len in [
            0, 32, 36, 40, 72, 1024, 1030, 1100, 2000, 32769, 32774, 40000,
        ] {
            let _ = probe::probe(&Memory::new(data[..len.min(data.len())].to_vec(), "cut"));
        }
    }
}

/// Random multi-byte damage (a fixed-seed generator, so failures reproduce) to the table areas
/// of both bases, GPT entries written with random LBAs included: never a panic.
#[test]
fn random_damage_never_panics() {
    let mut seed = 0x4D41_5346_u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let gpt = std::fs::read(fixtures().join("mutated/gpt-base.img")).unwrap();
    let mbr = std::fs::read(fixtures().join("mutated/mbr-base.img")).unwrap();
    let iterations: usize = std::env::var("MASF_FUZZ_ITERATIONS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3000);
    for i in 0..iterations {
        let base = if i % 2 == 0 { &gpt } else { &mbr };
        let mut d = base.clone();
        let hot: &[(usize, usize)] = if i % 2 == 0 {
            &[
                (446, 66),
                (512, 92),
                (1024, 512),
                (95 * 512, 512),
                (127 * 512, 92),
            ]
        } else {
            &[
                (446, 66),
                (20 * 512 + 446, 66),
                (39 * 512 + 446, 66),
                (57 * 512 + 446, 66),
            ]
        };
        for _ in 0..1 + next() % 8 {
            let (start, len) = hot[(next() % hot.len() as u64) as usize];
            let at = start + (next() % len as u64) as usize;
            let width = [1usize, 4, 8][(next() % 3) as usize];
            let value = next().to_le_bytes();
            let end = (at + width).min(d.len());
            d[at..end].copy_from_slice(&value[..end - at]);
        }
        if i % 2 == 0 && next() % 2 == 0 {
            // Make the damage CRC-valid, so the fields behind the CRCs are exercised too.
            refresh_gpt_crcs(&mut d);
        }
        if next() % 8 == 0 {
            d.truncate((next() % d.len() as u64) as usize);
        }
        let disk = mem(d, "random");
        if let Ok(vs) = volume::open(&disk) {
            for p in &vs.partitions {
                assert!(p.bytes.len() <= disk.len());
                let _ = probe::probe(&*p.bytes);
            }
        }
        let _ = probe::probe(&*disk);
    }
}

/// Recomputes the entry-array and header CRCs of both headers of a 512-byte-sector GPT, reading
/// the (possibly damaged) fields as they are; arrays beyond the disk or over 1 MiB are left alone.
fn refresh_gpt_crcs(d: &mut [u8]) {
    let crc = |data: &[u8]| {
        let mut c = flate2::Crc::new();
        c.update(data);
        c.sum()
    };
    let le32 = |d: &[u8], at: usize| u32::from_le_bytes(d[at..at + 4].try_into().unwrap());
    let last = d.len() / 512 - 1;
    for h in [512usize, last * 512] {
        let start = u64::from_le_bytes(d[h + 72..h + 80].try_into().unwrap());
        let len = u64::from(le32(d, h + 80)) * u64::from(le32(d, h + 84));
        if let Some(start) = start.checked_mul(512).and_then(|s| usize::try_from(s).ok())
            && len <= 1 << 20
            && start.saturating_add(len as usize) <= d.len()
        {
            let c = crc(&d[start..start + len as usize]);
            d[h + 88..h + 92].copy_from_slice(&c.to_le_bytes());
        }
        d[h + 16..h + 20].fill(0);
        let c = crc(&d[h..h + 92]);
        d[h + 16..h + 20].copy_from_slice(&c.to_le_bytes());
    }
}

// ---------------------------------------------------------------------------------------------
// Apple partition maps

/// The hybrid CD xorriso `-hfsplus` wrote (`tests/fixtures/hfs/generate.sh`), inflated.
fn xorriso_cd() -> Vec<u8> {
    let path = repo().join("tests/fixtures/hfs/hfsplus.iso.gz");
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(std::fs::File::open(&path).unwrap())
        .read_to_end(&mut out)
        .unwrap();
    out
}

/// Every path below `/` with its catalog id and size, depth-first.
fn catalog_listing(fs: &dyn masf_evidence::fs::FileSystem) -> BTreeSet<(String, u64, u64)> {
    let mut out = BTreeSet::new();
    let mut stack = vec!["/".to_string()];
    while let Some(dir) = stack.pop() {
        for e in fs.list_dir(&dir).unwrap() {
            if e.kind == masf_evidence::fs::EntryKind::Dir {
                stack.push(e.path.clone());
            }
            out.insert((e.path, e.id.unwrap(), e.size));
        }
    }
    out
}

/// The map xorriso writes equals `mmls -t mac` (every slot's start, length and type), and the
/// partitions stack as on any disk: the Apple_HFS partition probes as HFS+ and its catalog lists
/// what TSK's `fls` lists. xorriso puts the HFS+ volume's file data in the ISO 9660 data after the
/// end of the Apple_HFS partition (its catalog, extents and allocation files lie inside), so the
/// partition, bounded as declared, lists its files but cannot read their contents: that is the
/// layout of the image, not a limit of this reader (`tests/it/hfs.rs` reads the volume from the
/// partition start to the end of the image).
#[test]
fn xorriso_hybrid_cd_map_equals_mmls_and_stacks_hfs_plus() {
    let disk = mem(xorriso_cd(), "hfsplus.iso");
    assert_eq!(volume::sniff(&*disk), Some(VolumeKind::Apm));
    let vs = open(&disk);
    let mmls = std::fs::read_to_string(repo().join("tests/fixtures/hfs/xorriso.mmls.txt")).unwrap();
    check_against_mmls("xorriso", &vs, &mmls_rows(&mmls));
    assert!(vs.diagnostics.is_empty(), "{:?}", vs.diagnostics);
    assert_eq!(
        (vs.kind, vs.sector_size, vs.disk_guid.as_deref()),
        (VolumeKind::Apm, 512, None)
    );
    let got: Vec<(u32, &str, &str, PartitionRole, bool)> = vs
        .partitions
        .iter()
        .map(|p| {
            (
                p.index,
                p.name.as_str(),
                p.type_name.as_str(),
                p.role,
                p.holds_data(),
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            (1, "Apple", "Apple_partition_map", PartitionRole::Apm, false),
            (2, "Gap0", "ISO9660_data", PartitionRole::Apm, true),
            (3, "HFSPLUS_Hybrid", "Apple_HFS", PartitionRole::Apm, true),
            (4, "Gap1", "ISO9660_data", PartitionRole::Apm, true),
        ]
    );
    // The whole image is still an ISO 9660 to the prober; the scanner opens the map first.
    assert_eq!(probe::probe(&*disk).format, Format::Iso9660);

    let hfs = vs.find("3").unwrap();
    assert_eq!(
        (hfs.offset, hfs.size, hfs.bytes.len()),
        (128 * 512, 208 * 512, 208 * 512)
    );
    let p = probe::probe(&*hfs.bytes);
    assert_eq!((p.format, p.readable), (Format::HfsPlus, true), "{p:?}");
    assert!(
        !probe::probe(&*vs.find("1").unwrap().bytes)
            .format
            .is_file_system()
    );
    let fs = masf_evidence::hfsplus::open(hfs.bytes.clone()).unwrap();
    let body = std::fs::read_to_string(repo().join("tests/fixtures/hfs/xorriso.body")).unwrap();
    let want: BTreeSet<(String, u64, u64)> = body
        .lines()
        .filter(|l| !l.contains("|/$"))
        .map(|l| {
            let f: Vec<&str> = l.split('|').collect();
            let path = f[1].split(" -> ").next().unwrap().to_string();
            (path, f[2].parse().unwrap(), f[6].parse().unwrap())
        })
        .collect();
    assert_eq!(catalog_listing(fs.as_ref()), want);
}

/// Scanning the gzipped CD stacks gzip → APM → partitions → HFS+, and leaves the map entry out.
#[test]
fn scanning_the_xorriso_cd_stacks_the_map() {
    let s = masf_evidence::scan::scan(&repo().join("tests/fixtures/hfs/hfsplus.iso.gz")).unwrap();
    let gz = &s.root.children[0];
    let apm = gz
        .probe
        .as_ref()
        .map(|p| p.format)
        .unwrap_or(Format::Unknown);
    assert_eq!(apm, Format::Apm, "{:?}", gz.problem);
    let parts: Vec<(usize, &str, &str)> = gz
        .children
        .iter()
        .map(|c| {
            let p = c.partition.as_ref().unwrap();
            (
                p.index,
                p.type_name.as_str(),
                c.layer.params["scheme"].as_str(),
            )
        })
        .collect();
    assert_eq!(
        parts,
        [
            (2, "ISO9660_data", "apm"),
            (3, "Apple_HFS", "apm"),
            (4, "ISO9660_data", "apm")
        ]
    );
    let fss = s.file_systems();
    assert_eq!(fss.len(), 1);
    assert_eq!(fss[0].fs.format(), "hfsplus");
    assert_eq!(fss[0].partition.unwrap().index, 3);
}

/// parted's `mklabel mac`: a map of 63 blocks, entries out of disk order, two Apple_Free entries.
/// The table equals mmls (free space included, numbered as mmls slot + 1 and as `parted print`),
/// each partition hashes as `dd` read it and probes as blkid says.
#[test]
fn parted_apm_disk_equals_mmls_and_parted() {
    let g = generated("apm-parted");
    check_generated(&g);
    assert_eq!(g.vs.kind, VolumeKind::Apm);
    let got: Vec<(u32, &str, &str, u64, bool)> =
        g.vs.partitions
            .iter()
            .map(|p| {
                (
                    p.index,
                    p.name.as_str(),
                    p.type_id.as_str(),
                    p.first_lba,
                    p.holds_data(),
                )
            })
            .collect();
    assert_eq!(
        got,
        [
            (1, "Apple", "Apple_partition_map", 1, false),
            (2, "MacHD", "Apple_HFS", 64, true),
            (3, "fat", "Apple_UNIX_SVR2", 576, true),
            (4, "linux", "Apple_UNIX_SVR2", 1152, true),
            (5, "Extra", "Apple_Free", 1088, false),
            (6, "Extra", "Apple_Free", 1664, false),
        ]
    );
    // `parted print` numbers (and lists) the entries that are not free space.
    let listed: Vec<(u32, u64, String)> = oracle("apm-parted", "parted")
        .lines()
        .filter_map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            let n = f.first()?.parse().ok()?;
            let start = f.get(1)?.strip_suffix('s')?.parse().ok()?;
            Some((n, start, f.last()?.to_string()))
        })
        .collect();
    assert_eq!(listed.len(), 4);
    for (n, start, name) in listed {
        let p = g.vs.find(&n.to_string()).unwrap();
        assert_eq!((p.first_lba, &p.name), (start, &name));
    }
    let probes = probe_generated(&g);
    let format = |i: u32| probes.iter().find(|(n, _)| *n == i).unwrap().1.format;
    assert_eq!((format(3), format(4)), (Format::Fat12, Format::Ext2));
    assert_eq!(probe::probe(&*g.disk).format, Format::Apm);
}

/// xorriso `-apm-block-size 2048`: the map in 2048-byte blocks, as its driver descriptor map
/// says (what Linux reads, and `mmls -b 2048`).
#[test]
fn apm_in_2048_byte_blocks_follows_the_driver_descriptor_map() {
    let g = generated("apm-2048");
    check_generated(&g);
    assert_eq!((g.vs.kind, g.vs.sector_size), (VolumeKind::Apm, 2048));
    let hfs = g.vs.find("3").unwrap();
    assert_eq!((hfs.type_id.as_str(), hfs.offset), ("Apple_HFS", 32 * 2048));
    probe_generated(&g);
}

/// Hostile copies of xorriso's map: typed diagnostics, the entries before the damage kept.
#[test]
fn hostile_apm_copies_give_diagnostics() {
    let base = xorriso_cd()[..64 * 1024].to_vec();
    let be32 = |d: &mut Vec<u8>, at: usize, v: u32| d[at..at + 4].copy_from_slice(&v.to_be_bytes());
    let opened = |d: Vec<u8>| open(&mem(d, "hostile"));
    let types = |vs: &VolumeSystem| -> Vec<String> {
        vs.partitions.iter().map(|p| p.type_id.clone()).collect()
    };

    // Truncated inside the map: two entries, their partitions clamped.
    let vs = opened(base[..3 * 512].to_vec());
    assert_eq!(types(&vs), ["Apple_partition_map", "ISO9660_data"]);
    assert!(
        has_diagnostic(&vs, &["claims 4 entries", "ends after block 2"]),
        "{:?}",
        vs.diagnostics
    );
    assert!(
        has_diagnostic(&vs, &["partition 2 (Gap0)", "no readable bytes"]),
        "{:?}",
        vs.diagnostics
    );

    // A huge entry count: bounded, the map stops at the first block without `PM`.
    let mut d = base.clone();
    be32(&mut d, 512 + 4, u32::MAX);
    let vs = opened(d);
    assert_eq!(vs.partitions.len(), 4);
    assert!(
        has_diagnostic(&vs, &["4294967295 entries", "more than 1024"]),
        "{:?}",
        vs.diagnostics
    );
    assert!(
        has_diagnostic(&vs, &["map entry 5 at byte 2560 has no `PM`"]),
        "{:?}",
        vs.diagnostics
    );
    assert!(
        has_diagnostic(&vs, &["map entry 2 says the map has 4 entries"]),
        "{:?}",
        vs.diagnostics
    );
    assert!(
        has_diagnostic(&vs, &["its own entry (1) covers only 4 blocks"]),
        "{:?}",
        vs.diagnostics
    );

    // An entry without `PM` in the middle: the entry before it is kept.
    let mut d = base.clone();
    d[2 * 512..2 * 512 + 2].copy_from_slice(b"XX");
    let vs = opened(d);
    assert_eq!(types(&vs), ["Apple_partition_map"]);
    assert!(
        has_diagnostic(
            &vs,
            &["map entry 2 at byte 1024 has no `PM`", "after 1 of 4"]
        ),
        "{:?}",
        vs.diagnostics
    );

    // Start + count beyond 32 bits: listed with its declared geometry and no bytes.
    let mut d = base.clone();
    be32(&mut d, 3 * 512 + 8, u32::MAX);
    be32(&mut d, 3 * 512 + 12, u32::MAX);
    let vs = opened(d);
    let p = vs.find("3").unwrap();
    assert_eq!(
        (p.first_lba, p.sector_count, p.last_lba, p.bytes.len()),
        (
            u64::from(u32::MAX),
            u64::from(u32::MAX),
            2 * u64::from(u32::MAX) - 1,
            0
        )
    );
    assert!(
        has_diagnostic(&vs, &["partition 3 (HFSPLUS_Hybrid)", "no readable bytes"]),
        "{:?}",
        vs.diagnostics
    );

    // A map that describes itself wrongly: the map entry covers 2 blocks but the map has 4
    // entries, and a data entry lies over the map.
    let mut d = base.clone();
    be32(&mut d, 512 + 12, 2);
    be32(&mut d, 2 * 512 + 8, 1);
    let vs = opened(d);
    assert_eq!(vs.partitions.len(), 4);
    assert!(
        has_diagnostic(&vs, &["its own entry (1) covers only 2 blocks"]),
        "{:?}",
        vs.diagnostics
    );
    assert!(
        has_diagnostic(&vs, &["partitions 1 and 2 overlap"]),
        "{:?}",
        vs.diagnostics
    );
}

/// Every byte of xorriso's map flipped in turn, and every truncation at a block boundary: a map
/// or a typed error, never a panic; probing what was found never panics either.
#[test]
fn flipped_and_truncated_apm_never_panics() {
    let base = xorriso_cd()[..64 * 1024].to_vec();
    let check = |data: Vec<u8>| {
        let disk = mem(data, "mutant");
        let _ = volume::sniff(&*disk);
        if let Ok(vs) = volume::open(&disk) {
            for p in &vs.partitions {
                assert!(p.bytes.len() <= disk.len());
                let _ = probe::probe(&*p.bytes);
            }
        }
    };
    for block in 0..5usize {
        for at in (block * 512..block * 512 + 96).chain([block * 512 + 500]) {
            for x in [0xFF, 0x01, 0x80] {
                let mut d = base.clone();
                d[at] ^= x;
                check(d);
            }
        }
    }
    for len in (0..=5 * 512).step_by(512).chain([1, 511, 513, 600, 1100]) {
        check(base[..len].to_vec());
    }
}
