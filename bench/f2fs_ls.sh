#!/usr/bin/env bash
# Benchmark: recursive listing of an F2FS image holding >= 100,000 files through
# `masf ls -r --json IMAGE:/` (the whole process: scanner, layers, one JSON line per entry with
# path, kind, size, inode, mode, raw times) against f2fs-tools' own tree walk,
# `fsck.f2fs --dry-run -t` (it reads the checkpoint, NAT and SIT, then every inode and dentry
# block and prints the directory tree; dump.f2fs has no recursive listing and the kernel here
# has no F2FS to mount), side by side in one run, interleaved; prints the ratio of medians.
# Target (issue 18): <= 1.0 x.
#
#   bench/f2fs_ls.sh [FILES] [RUNS]          defaults: 100000 files, 5 runs per side
#
# Needs f2fs-tools (mkfs.f2fs, sload.f2fs, fsck.f2fs). The tree and the image are made at
# benchmark time in a temporary folder and removed afterwards.
set -euo pipefail
cd "$(dirname "$0")/.."
files="${1:-100000}"
runs="${2:-5}"
export TZ=UTC

cargo build --release --locked -p masf-cli >/dev/null
masf="$PWD/target/release/masf"
ours() { "$masf" ls -r --json "$1:/"; }
# fsck.f2fs writes nothing with --dry-run; it runs on a copy anyway, as evidence would.
theirs() { fsck.f2fs --dry-run -t "$1"; }

work="$(mktemp -d)"
shm=""
if [ -d /dev/shm ] && [ -w /dev/shm ]; then shm="$(mktemp -d -p /dev/shm)"; fi
trap 'rm -rf "$work" ${shm:+"$shm"}' EXIT
tree="${shm:-$work}/tree"

# 20 top folders x 20 subfolders x N files each, names of varied length, a few larger files.
echo "generating $files files ..." >&2
bench/small_files_tree.sh "$tree" "$files" > /dev/null
img="$work/bench.f2fs.img"
echo "mkfs.f2fs + sload.f2fs ..." >&2
truncate -s 2G "$img"
mkfs.f2fs -q -f -O extra_attr,inode_checksum,sb_checksum "$img" > /dev/null
sload.f2fs -f "$tree" -T 1704164645 "$img" > /dev/null
rm -rf "$tree"
cat "$img" > /dev/null   # warm the page cache so both sides read from memory

median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
time_one() { local s e; s=$(date +%s.%N); "$@" > /dev/null 2>&1 || true; e=$(date +%s.%N); echo "$e - $s" | bc -l; }

ours_lines=$(ours "$img" | wc -l)
fsck_lines=$(theirs "$img" 2>/dev/null | grep -c '|--' || true)
ours_t=(); fsck_t=()
for _ in $(seq "$runs"); do
  ours_t+=("$(time_one ours "$img")")
  fsck_t+=("$(time_one theirs "$img")")
done
o=$(printf '%s\n' "${ours_t[@]}" | median)
f=$(printf '%s\n' "${fsck_t[@]}" | median)
printf 'image                 F2FS, %d entries listed (fsck.f2fs -t: %d tree lines), %d runs each, medians\n' \
  "$ours_lines" "$fsck_lines" "$runs"
printf 'masf ls -r --json     %.3f s  (%.0f entries/s, JSON with times)\n' "$o" "$(echo "$ours_lines / $o" | bc -l)"
printf 'fsck.f2fs --dry-run -t %.3f s\n' "$f"
printf 'ratio masf/fsck.f2fs = %.2f (target <= 1.00)\n' "$(echo "$o / $f" | bc -l)"
