#!/usr/bin/env bash
# Benchmark: decrypting a 1 GiB file of an encrypted iTunes backup (AES-256-CBC, zero IV,
# PKCS#7, as `masf_evidence::itunes` does on open) against `openssl enc -d -aes-256-cbc` over
# the same bytes, side by side in one run, and prints the ratio of median times. Both read the
# file from the page cache; ours reads it whole into memory and decrypts in place (as `open`
# does), openssl streams to /dev/null. Target (issue 19): ours <= 1.5 x openssl.
#
#   bench/itunes_decrypt.sh [SIZE_MIB] [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
size_mib="${1:-1024}"
runs="${2:-3}"
cargo build --release --locked -p masf-evidence --example itunes_decrypt >/dev/null
ours="$PWD/target/release/examples/itunes_decrypt"
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
key=$(head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n')
iv=00000000000000000000000000000000
head -c "$((size_mib * 1024 * 1024))" /dev/urandom > "$dir/plain"
openssl enc -aes-256-cbc -K "$key" -iv "$iv" -in "$dir/plain" -out "$dir/enc"
rm "$dir/plain"
cat "$dir/enc" > /dev/null   # warm the page cache

median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
time_one() { local s e; s=$(date +%s.%N); "$@" > /dev/null; e=$(date +%s.%N); echo "$e - $s" | bc -l; }

ours_t=(); ossl_t=()
for _ in $(seq "$runs"); do
  ours_t+=("$(time_one "$ours" "$dir/enc" "$key")")
  ossl_t+=("$(time_one openssl enc -d -aes-256-cbc -K "$key" -iv "$iv" -in "$dir/enc" -out /dev/null)")
done
o=$(printf '%s\n' "${ours_t[@]}" | median)
s=$(printf '%s\n' "${ossl_t[@]}" | median)
mb=$(echo "$size_mib * 1.048576" | bc -l)
printf 'file              %d MiB, %d runs each, medians\n' "$size_mib" "$runs"
printf 'masf decrypt      %.3f s  (%.0f MB/s)\n' "$o" "$(echo "$mb / $o" | bc -l)"
printf 'openssl enc -d    %.3f s  (%.0f MB/s)\n' "$s" "$(echo "$mb / $s" | bc -l)"
printf 'ratio masf/openssl = %.2f (target <= 1.50)\n' "$(echo "$o / $s" | bc -l)"
