#!/usr/bin/env bash
# Benchmark: recursive listing of an ext4 image holding >= 100,000 files through
# `masf ls -r --json IMAGE:/` (the whole process: scanner, layers, one JSON line per entry with
# path, kind, size, inode, mode, raw times and link target) against The Sleuth Kit's
# `fls -r -p` on the same image, side by side in one run, interleaved, and prints the ratio of
# median times.
# Targets (issue 3): raw image <= 1.0 x fls -r -p; through an E01 of it <= 0.5 x fls -i ewf -r -p.
#
#   bench/ls.sh [FILES] [RUNS]          defaults: 100000 files, 5 runs per side
#
# Needs e2fsprogs (mke2fs -d), sleuthkit (fls) and, for the E01 half, ewf-tools (ewfacquire).
# Inputs are generated at benchmark time in a temporary folder and removed afterwards.
set -euo pipefail
cd "$(dirname "$0")/.."
files="${1:-100000}"
runs="${2:-5}"
export TZ=UTC E2FSPROGS_FAKE_TIME=1704164645

cargo build --release --locked -p masf-cli >/dev/null
masf="$PWD/target/release/masf"
# The whole `masf ls -r --json` process: scanner, layer stack, JSON lines on stdout.
ours() { "$masf" ls -r --json "$1:/"; }

work="$(mktemp -d)"
# The tree is written to memory when possible: creating 100k files on disk is slow here.
shm=""
if [ -d /dev/shm ] && [ -w /dev/shm ]; then shm="$(mktemp -d -p /dev/shm)"; fi
trap 'rm -rf "$work" ${shm:+"$shm"}' EXIT
tree="${shm:-$work}/tree"

# 20 top folders x 20 subfolders x N files each: 100,000 small files in 420 folders, names of
# varied length, a few larger files (4 KiB - 40 KiB) among them, and a symlink per folder.
echo "generating $files files ..." >&2
made=$(bench/small_files_tree.sh "$tree" "$files" --links)
img="$work/bench.ext4.img"
echo "mke2fs -d ..." >&2
mke2fs -q -F -t ext4 -b 4096 -N $((made + 10000)) -d "$tree" "$img" 1G > /dev/null
rm -rf "$tree"
cat "$img" > /dev/null   # warm the page cache so both sides read from memory

median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
time_one() { local s e; s=$(date +%s.%N); "$@" > /dev/null; e=$(date +%s.%N); echo "$e - $s" | bc -l; }

ours_lines=$(ours "$img" | wc -l)
fls_lines=$(fls -r -p "$img" | wc -l)
ours_t=(); fls_t=()
for _ in $(seq "$runs"); do
  # interleave the tools so machine noise hits both alike
  ours_t+=("$(time_one ours "$img")")
  fls_t+=("$(time_one fls -r -p "$img")")
done
o=$(printf '%s\n' "${ours_t[@]}" | median)
f=$(printf '%s\n' "${fls_t[@]}" | median)
printf 'image            ext4, 4 KiB blocks, %d entries listed (fls: %d lines), %d runs each, medians\n' \
  "$ours_lines" "$fls_lines" "$runs"
printf 'masf ext4 ls -r  %.3f s  (%.0f entries/s, JSON with times)\n' "$o" "$(echo "$ours_lines / $o" | bc -l)"
printf 'fls -r -p        %.3f s  (%.0f entries/s)\n' "$f" "$(echo "$fls_lines / $f" | bc -l)"
printf 'ratio masf/fls (raw) = %.2f (target <= 1.00)\n' "$(echo "$o / $f" | bc -l)"

# ---- E01 half: the same image acquired as an E01 (skip with EWF_HALF=0) ----------------------
# Target (issue 3): masf through the E01 <= 0.5 x `fls -i ewf -r -p` on the same E01.
if [ "${EWF_HALF:-1}" = 1 ]; then
  echo "ewfacquire (deflate, fast) ..." >&2
  ewfacquire -u -q -c deflate:fast -f encase6 -S 4GiB -t "$work/bench" \
    -C bench -D "masf ls benchmark" -e masf -E 1 -N "generated" "$img" > /dev/null
  e01="$work/bench.E01"
  rm -f "$img"   # only the E01 is read from here on
  cat "$e01" > /dev/null
  ours_lines=$(ours "$e01" | wc -l)
  fls_lines=$(fls -i ewf -r -p "$e01" | wc -l)
  ours_t=(); fls_t=()
  for _ in $(seq "$runs"); do
    ours_t+=("$(time_one ours "$e01")")
    fls_t+=("$(time_one fls -i ewf -r -p "$e01")")
  done
  o=$(printf '%s\n' "${ours_t[@]}" | median)
  f=$(printf '%s\n' "${fls_t[@]}" | median)
  printf 'E01 (deflate:fast) %d entries (fls: %d lines), medians of %d runs\n' "$ours_lines" "$fls_lines" "$runs"
  printf 'masf via E01     %.3f s\n' "$o"
  printf 'fls -i ewf -r -p %.3f s\n' "$f"
  printf 'ratio masf/fls (E01) = %.2f (target <= 0.50)\n' "$(echo "$o / $f" | bc -l)"
fi
