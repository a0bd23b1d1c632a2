#!/usr/bin/env bash
# Benchmark, one run: (1) reading every file of an HFS+ volume through the evidence layer
# (example hfs_read_all: list every folder, hash every data fork) against The Sleuth Kit's
# `fls -r -p` then one `icat` per file (into sha256sum); the volume is made at benchmark time by
# xorriso (-hfsplus) from FILES files of 256 KiB..1 MiB (default 400, ~250 MiB), never
# committed. (2) Decoding a UDIF image's whole disk (example image_read) against `dmg2img`
# writing the raw disk to /dev/shm, on the corpus' 64 MiB zlib DMG (MASF_CORPUS, default
# /work/shared/corpus). Each side's time and the ratio ours / theirs are printed.
#
#   bench/hfs_dmg.sh [FILES]     (needs xorriso, sleuthkit, dmg2img, bc)
#
# Measured 2026-12-03 on the shared 2-core machine, niced, FILES=300: HFS+ 300 files / 196 MB
# hfs_read_all 0.529 s vs fls + icat 13.666 s (ratio 0.039; icat is one process per file);
# UDIF 64 MiB zlib image_read 0.038 s vs dmg2img 0.101 s (ratio 0.372).
set -euo pipefail
cd "$(dirname "$0")/.."
files="${1:-400}"
corpus="${MASF_CORPUS:-/work/shared/corpus}"
cargo build --release -p masf-evidence --example hfs_read_all --example image_read >/dev/null 2>&1
read_all="$PWD/target/release/examples/hfs_read_all"
read_image="$PWD/target/release/examples/image_read"
dir="$(mktemp -d)"
sink="/dev/shm/masf-hfs-dmg-$$.raw"
trap 'rm -rf "$dir" "$sink"' EXIT
secs() { local t0 t1; t0=$(date +%s.%N); "$@" >/dev/null 2>&1; t1=$(date +%s.%N); echo "$t1 - $t0" | bc; }

mkdir -p "$dir/src"
for i in $(seq "$files"); do
  d="$dir/src/d$((i % 20))"
  mkdir -p "$d"
  head -c "$(( (256 + (i * 7919) % 768) * 1024 ))" /dev/urandom > "$d/f$i.bin"
done
xorriso -as mkisofs -hfsplus -o "$dir/hfs.iso" "$dir/src" 2>/dev/null
rm -rf "$dir/src"
start=$(mmls "$dir/hfs.iso" | awk '/Apple_HFS/ {print $3 + 0}')
offset=$((start * 512))

tsk() {
  fls -r -p -f hfs -o "$start" "$1" > "$dir/fls.txt"
  grep '^r/r' "$dir/fls.txt" | grep -v ':	\$' | awk '{print $2}' | tr -d ':' | sort -un |
    while read -r inode; do icat -f hfs -o "$start" "$1" "$inode" | sha256sum > /dev/null; done
}
read -r n bytes < <("$read_all" "$dir/hfs.iso" "$offset" 2>/dev/null)
o=$(secs "$read_all" "$dir/hfs.iso" "$offset")
t=$(secs tsk "$dir/hfs.iso")
printf 'HFS+ read every file (%s files, %s bytes): hfs_read_all %.3f s, fls + icat %.3f s, ratio %.3f\n' \
  "$n" "$bytes" "$o" "$t" "$(echo "$o / $t" | bc -l)"

dmg="$corpus/container/udif/plaso-spotlight.12.dmg"
o=$(secs "$read_image" "$dmg")
t=$(secs dmg2img -s "$dmg" "$sink")
printf 'UDIF decode (64 MiB zlib): image_read %.3f s, dmg2img %.3f s, ratio %.3f\n' \
  "$o" "$t" "$(echo "$o / $t" | bc -l)"
