#!/usr/bin/env bash
# Benchmark: `masf hash` (SHA-256 + MD5 in one pass) against `sha256sum` alone, side by side in
# one run on the same 1 GiB file (from the page cache), and prints the ratio of median times.
# Target (issue 2): masf hash <= 0.6 x sha256sum.
#
#   bench/hash.sh [SIZE_MIB] [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
size_mib="${1:-1024}"
runs="${2:-5}"
cargo build --release --locked -p masf-cli >/dev/null
masf="$PWD/target/release/masf"
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
file="$dir/media.bin"
# Realistic, incompressible content; generated once per run of the benchmark.
head -c "$((size_mib * 1024 * 1024))" /dev/urandom > "$file"
cat "$file" > /dev/null   # warm the page cache so both sides read from memory

median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
time_one() { local s e; s=$(date +%s.%N); "$@" > /dev/null; e=$(date +%s.%N); echo "$e - $s" | bc -l; }

masf_t=(); sha_t=(); md5_t=()
for _ in $(seq "$runs"); do
  # interleave the tools so machine noise hits both alike
  masf_t+=("$(time_one "$masf" hash "$file")")
  sha_t+=("$(time_one sha256sum "$file")")
  md5_t+=("$(time_one md5sum "$file")")
done
m=$(printf '%s\n' "${masf_t[@]}" | median)
s=$(printf '%s\n' "${sha_t[@]}" | median)
d=$(printf '%s\n' "${md5_t[@]}" | median)
mb=$(echo "$size_mib * 1.048576" | bc -l)
printf 'file            %d MiB, %d runs each, medians\n' "$size_mib" "$runs"
printf 'masf hash       %.3f s  (%.0f MB/s, sha256+md5)\n' "$m" "$(echo "$mb / $m" | bc -l)"
printf 'sha256sum       %.3f s  (%.0f MB/s)\n' "$s" "$(echo "$mb / $s" | bc -l)"
printf 'md5sum          %.3f s  (%.0f MB/s)\n' "$d" "$(echo "$mb / $d" | bc -l)"
printf 'ratio masf/sha256sum = %.2f (target <= 0.60)\n' "$(echo "$m / $s" | bc -l)"
