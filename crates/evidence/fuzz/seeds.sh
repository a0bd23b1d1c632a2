#!/usr/bin/env bash
# Writes the seed corpus of every fuzz target into regressions/<target>/seed-*: small valid
# inputs made by the real tools, so the fuzzer starts deep in each format and the replay test
# (crates/evidence/tests/it/fuzz_regressions.rs) checks each still opens. Run once by a
# developer; the outputs are committed. Crashes the fuzzer finds go beside them as
# regressions/<target>/crash-* (see README.md).
#
#   crates/evidence/fuzz/seeds.sh   (needs mkfs.vfat, mtools, mkfs.ext4, f2fs-tools, mkntfs, ewfacquire,
#                                    sgdisk, parted, gzip, tar, zip, sleuthkit, node + npm, faketime,
#                                    qemu-img, python3, img2simg, xorriso)
set -euo pipefail
export TZ=UTC LC_ALL=C.UTF-8 SOURCE_DATE_EPOCH=1700000000
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../../.." && pwd)"
out="$here/regressions"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
seed() { mkdir -p "$out/$1"; cp "$2" "$out/$1/seed-$3"; }
# blocks IMAGE OUT: IMAGE as the sparse block records fuzzing::sparse_blocks reads (see
# sparse_blocks.py), for formats whose smallest valid image is mostly zeros (F2FS, VHDX).
blocks() { python3 "$here/sparse_blocks.py" "$1" "$2"; }

mkdir -p "$work/src/docs"
printf 'wallet 0x52908400098527886E0F7030069857D2E4169EE7\n' > "$work/src/notes.txt"
printf 'second file\n' > "$work/src/docs/b.txt"
touch -d @1700000000 "$work/src/notes.txt" "$work/src/docs/b.txt" "$work/src/docs" "$work/src"

# fat: FAT12, 128 KiB, two files and a folder.
mkfs.vfat -C -i 12345678 -n SEED "$work/fat.img" 128 >/dev/null
MTOOLS_SKIP_CHECK=1 mcopy -s -m -i "$work/fat.img" "$work/src/notes.txt" "$work/src/docs" ::/
seed fat "$work/fat.img" fat12.img

# qcow2 and vhd: that FAT image converted by qemu-img (compressed 4 KiB clusters; a fixed VHD,
# as a dynamic one holds a whole 2 MiB block).
qemu-img convert -f raw -O qcow2 -c -o cluster_size=4096 "$work/fat.img" "$work/fat.qcow2"
seed qcow2 "$work/fat.qcow2" fat12.qcow2
faketime '2023-11-14 22:13:20' qemu-img convert -f raw -O vpc -o subformat=fixed,force_size=on \
  "$work/fat.img" "$work/fat.vhd"
seed vhd "$work/fat.vhd" fat12-fixed.vhd
# vhdx: a dynamic VHDX of it, 1 MiB blocks (9 MiB, mostly zeros: the format aligns its
# regions and blocks to 1 MiB, so it is kept as sparse block records, like f2fs), its random
# GUIDs and header sequence numbers left as qemu-img wrote them.
qemu-img convert -f raw -O vhdx -o subformat=dynamic,block_size=1M "$work/fat.img" "$work/fat.vhdx"
blocks "$work/fat.vhdx" "$work/fat.vhdx.blocks"
seed vhdx "$work/fat.vhdx.blocks" fat12-dynamic.vhdx.blocks
# sparseimage: the FAT volume as a Mac OS sparse image in 4 KiB bands, by the evidence tests'
# generator (published layout; libmodi reads it back in those tests).
python3 "$repo/tests/fixtures/mac-sparse/make_sparseimage.py" "$work/fat.img" "$work/fat.sparseimage" 8
seed sparseimage "$work/fat.sparseimage" fat12.sparseimage
# lp: the FAT volume as an Android super image's system_a in two extents (the evidence tests'
# generator, liblp's format; liblp reads it back in those tests), as sparse block records.
python3 "$repo/tests/fixtures/android-super/make_super.py" "$work/super.img" 4 system_a="$work/fat.img":split system_b=empty
blocks "$work/super.img" "$work/super.img.blocks"
seed lp "$work/super.img.blocks" fat12-super.img.blocks
# vmdk: a stream-optimized VMDK of it (compressed grains), its random CID set to a fixed value.
qemu-img convert -f raw -O vmdk -o subformat=streamOptimized "$work/fat.img" "$work/fat.vmdk"
python3 -c 'import re, sys; p = sys.argv[1]; d = open(p, "rb").read()
open(p, "wb").write(re.sub(rb"\nCID=[0-9a-f]{8}\n", b"\nCID=12345678\n", d, count=1))' "$work/fat.vmdk"
seed vmdk "$work/fat.vmdk" fat12-stream.vmdk

# ext4: 256 KiB, 1 KiB blocks, populated by -d.
mkfs.ext4 -q -F -O ^has_journal -b 1024 -N 32 -U 00000000-0000-0000-0000-000000000001 -E root_owner=0:0 \
  -d "$work/src" "$work/ext4.img" 256k
seed ext4 "$work/ext4.img" small.ext4.img

# simg: that ext4 image as an Android sparse image by AOSP's img2simg (1 KiB blocks: RAW and
# FILL chunks).
img2simg "$work/ext4.img" "$work/ext4.simg" 1024
seed simg "$work/ext4.simg" small-ext4.simg

# f2fs: the smallest volume mkfs.f2fs makes (56 MiB), populated by sload.f2fs, kept as sparse
# block records (~26 blocks).
truncate -s 56M "$work/f2fs.img"
mkfs.f2fs -f -r -l SEED -U 00000000-0000-0000-0000-000000000001 -T 1700000000 "$work/f2fs.img" >/dev/null
sload.f2fs -f "$work/src" -T 1700000000 "$work/f2fs.img" >/dev/null
blocks "$work/f2fs.img" "$work/f2fs.blocks"
seed f2fs "$work/f2fs.blocks" small.f2fs.blocks

# apfs: no Debian tool writes APFS (no mkfs.apfs), so the seed is the public corpus image
# fs/apfs/dfvfs-apfs.raw (dfVFS test data, Apache-2.0), which is never committed: the kept
# seed names it (seed-dfvfs-apfs.corpus, packed by the regression test at run time), and for a
# fuzzing run it is packed here as sparse block records into corpus-seeds/apfs/ (ignored by git).
mkdir -p "$out/apfs"
printf 'fs/apfs/dfvfs-apfs.raw\n' > "$out/apfs/seed-dfvfs-apfs.corpus"
mkdir -p "$here/corpus-seeds/apfs"
blocks "${MASF_CORPUS:-/work/shared/corpus}/fs/apfs/dfvfs-apfs.raw" "$here/corpus-seeds/apfs/dfvfs-apfs.blocks"

# ntfs: a 2 MiB volume (mkntfs refuses 1 MiB images) holding one file put there by ntfscp.
truncate -s 2M "$work/ntfs.img"
mkntfs -F -f -q -s 512 -c 4096 -L SEED -T "$work/ntfs.img" >/dev/null 2>&1
faketime '2023-11-14 22:13:20' ntfscp -f "$work/ntfs.img" "$work/src/notes.txt" notes.txt >/dev/null 2>&1
seed ntfs "$work/ntfs.img" small.ntfs.img

# ewf: 64 KiB of text acquired by ewfacquire, deflate-compressed.
for i in $(seq 1 2048); do printf 'sector text %05d\n' "$i"; done | head -c 65536 > "$work/disk.raw"
(cd "$work" && faketime '2023-11-14 22:13:20' ewfacquire -u -q -t "$work/seed" -c deflate:best \
  -C case -D seed -E 1 -e examiner -N none -S 1G "$work/disk.raw" >/dev/null)
seed ewf "$work/seed.E01" text.E01
# ewf, version 2: the Ex01 that tests/fixtures/ewf/make-ewf2.sh made with libewf 20260924.
seed ewf "$repo/tests/fixtures/ewf/ex01/small-fast.Ex01" ex01.E01

# volume: a 128 KiB GPT disk with one partition (sgdisk), and an MBR one (sfdisk),
truncate -s 128K "$work/gpt.img"
sgdisk -a 1 -U 00000000-0000-0000-0000-000000000002 -n 1:34:200 -t 1:0700 -c 1:DATA \
  -u 1:00000000-0000-0000-0000-000000000003 "$work/gpt.img" >/dev/null
seed volume "$work/gpt.img" gpt.img
truncate -s 64K "$work/mbr.img"
printf 'label: dos\nlabel-id: 0x12345678\nstart=1, size=100, type=7\n' | sfdisk -q "$work/mbr.img" >/dev/null
seed volume "$work/mbr.img" mbr.img
# and a 128 KiB Apple partition map (parted `mklabel mac`, which wants 128 KiB at least): the
# map, one Apple_HFS, Apple_Free.
truncate -s 128K "$work/apm.img"
parted -s "$work/apm.img" mklabel mac mkpart DATA hfs+ 64s 100s >/dev/null 2>&1
seed volume "$work/apm.img" apm.img

# archives: tar (ustar), zip (deflate), gzip.
(cd "$work/src" && tar --format=ustar --mtime=@1700000000 --owner=0 --group=0 --numeric-owner \
  --sort=name -cf "$work/seed.tar" notes.txt docs)
seed tar "$work/seed.tar" ustar.tar
(cd "$work/src" && zip -q -X -r "$work/seed.zip" notes.txt docs)
seed zip "$work/seed.zip" deflate.zip
gzip -9 -n -c "$work/src/notes.txt" > "$work/notes.txt.gz"
seed gzip "$work/notes.txt.gz" notes.txt.gz

# leveldb: a log and a table written by Google's LevelDB (the classic-level binding).
mkdir -p "$work/node"
(cd "$work/node" && npm init -y >/dev/null && npm i --silent classic-level@1 >/dev/null)
NODE_PATH="$work/node/node_modules" node -e '
const {ClassicLevel} = require("classic-level");
(async () => {
  const db = new ClassicLevel(process.argv[1]);
  for (let i = 0; i < 20; i++) await db.put("_https://example.org\u0000\u0001key" + i, "\u0001value " + i);
  await db.del("_https://example.org\u0000\u0001key3");
  await db.close();
  const again = new ClassicLevel(process.argv[1]);
  await again.open();
  await again.compactRange("\u0000", "\uffff");
  await again.put("after", "compaction");
  await again.close();
})();' "$work/ldb"
seed leveldb "$(ls "$work"/ldb/*.log | head -n 1)" log
seed leveldb "$(ls "$work"/ldb/*.ldb | head -n 1)" table.ldb

# segb: an App.InFocus stream file of each version, as tests/fixtures/biome/biome.py writes them
# (payloads by Google's protobuf runtime, in the Python oracles setup.sh installs).
for v in 1 2; do
  "$repo/target/py-oracles/bin/python3" "$repo/tests/fixtures/biome/biome.py" "$work/biome$v" "$v" "$work/biome$v.json"
  seed segb "$(ls "$work/biome$v"/private/var/mobile/Library/Biome/streams/restricted/App.InFocus/local/[0-9]* | head -n 1)" "v$v"
done

# lznt1: the compression unit ntfs-3g wrote for small.txt (3,000 bytes of text) in the NTFS
# compressed fixture, cut from its clusters as The Sleuth Kit lists them.
gunzip -c "$repo/tests/fixtures/ntfs/compressed/compressed.ntfs.img.gz" > "$work/comp.img"
inode="$(fls -r -p "$work/comp.img" | awk '$NF == "comp/small.txt" {print $(NF-1)}' | tr -d ':')"
cluster="$(istat "$work/comp.img" "$inode" | awk '/^Type: \$DATA/ {f=1; next} f && NF {print $1; exit}')"
dd if="$work/comp.img" of="$work/unit.bin" bs=4096 skip="$cluster" count=1 status=none
seed lznt1 "$work/unit.bin" small-text.unit

# hfsplus: the HFS+ volume xorriso writes beside ISO 9660 (mkfs.hfsplus is not in Debian
# bookworm), from its Apple Partition Map partition (sector 128) to the end of the image, where
# its file data lies; kept as sparse block records.
xorriso -as mkisofs -hfsplus -V SEED -o "$work/hfs.iso" "$work/src" 2>/dev/null
tail -c +65537 "$work/hfs.iso" > "$work/hfs.vol"
blocks "$work/hfs.vol" "$work/hfs.blocks"
seed hfsplus "$work/hfs.blocks" xorriso.hfsplus.blocks
# udif: no Linux tool writes UDIF (hdiutil is macOS-only), and corpus DMGs are never committed,
# so the seed is a one-partition image (a zlib chunk, a raw chunk, a zero chunk) written with Python's zlib and
# plistlib after the layout the corpus DMGs show (koly trailer, blkx mish table).
mkdir -p "$out/udif"
python3 - "$out/udif/seed-python-zlib-raw-zero.dmg" <<'PY'
import plistlib, struct, sys, zlib
sector = bytes(range(256)) * 2
z = zlib.compress(sector * 4)
data = z + sector
chunks = [(0x80000005, 0, 4, 0, len(z)), (1, 4, 1, len(z), 512), (0, 5, 3, 0, 0), (0xffffffff, 8, 0, 0, 0)]
mish = b'mish' + struct.pack('>IQQQII', 1, 0, 8, 0, 0, 0) + bytes(24) + struct.pack('>II', 0, 0) + bytes(128)
mish += struct.pack('>I', len(chunks))
for t, s, n, o, l in chunks:
    mish += struct.pack('>IIQQQQ', t, 0, s, n, o, l)
xml = plistlib.dumps({'resource-fork': {'blkx': [{'Attributes': '0x0050', 'CFName': 'whole disk', 'Data': mish, 'ID': '0', 'Name': 'whole disk'}]}})
koly = b'koly' + struct.pack('>III', 4, 512, 1) + struct.pack('>QQQQQ', 0, 0, len(data), 0, 0)
koly += struct.pack('>II', 1, 1) + bytes(16) + struct.pack('>II', 0, 0) + bytes(128)
koly += struct.pack('>QQ', len(data), len(xml)) + bytes(120) + struct.pack('>II', 0, 0) + bytes(128)
koly += struct.pack('>IQ', 1, 8) + bytes(12)
assert len(koly) == 512
open(sys.argv[1], 'wb').write(data + xml + koly)
PY
# keybag: the BackupKeyBag of the encrypted backup fixture (tests/fixtures/ios-backup-enc), as
# its generator wrote it with Python's plistlib.
python3 -c 'import plistlib, sys; sys.stdout.buffer.write(plistlib.load(open(sys.argv[1], "rb"))["BackupKeyBag"])' \
  "$repo/tests/fixtures/ios-backup-enc/backup/00008030-001A2B3C4D5E802E/Manifest.plist" > "$work/keybag.bin"
seed keybag "$work/keybag.bin" fixture.keybag

ls -la "$out"/*/seed-*
