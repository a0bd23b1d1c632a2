#!/usr/bin/env bash
# Benchmark: EWF media verification by the whole `masf verify-media` process against libewf's
# `ewfverify` on the same E01, interleaved, medians: masf computing the digests the image stores
# (MD5 and SHA-1 here) against ewfverify's default (MD5), and masf --sha256 against
# `ewfverify -d sha1,sha256` (the same three digests).
# Target (issue 18): masf <= 0.45 x ewfverify.
#
# The E01 is built at benchmark time in a temporary folder: an ext4 file system of SIZE_MIB
# (default 1024) made with `mkfs.ext4 -d` from copies of real files of /usr/lib and /usr/share
# (about 70 % full; files picked in a fixed pseudo-random order, so both trees mix), acquired with `ewfacquire -c deflate:fast` in 256 MiB segments.
#
#   bench/ewf.sh [SIZE_MIB] [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
size_mib="${1:-1024}"
runs="${2:-5}"
export LC_ALL=C

cargo build --release --locked -p masf-cli >/dev/null
masf_bin="$PWD/target/release/masf"
masf() { "$masf_bin" verify-media "$1"; }
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT

# --- media: ext4 of real files ----------------------------------------------------------------
budget=$((size_mib * 1024 * 1024 * 7 / 10))
find /usr/lib /usr/share -xdev -type f -size -16M -readable -printf '%s\t%p\n' 2>/dev/null \
  | sort -R --random-source=<(yes masf) \
  | awk -F'\t' -v b="$budget" '!full && t + $1 <= b { t += $1; print $2; next } { full = 1 }' > "$dir/list"
mkdir "$dir/stage"
{ tar -cf - -T "$dir/list" 2>/dev/null || true; } | tar -xf - -C "$dir/stage"
files=$(wc -l < "$dir/list")
mkfs.ext4 -q -F -N $((files + 20000)) -d "$dir/stage" "$dir/media.raw" "${size_mib}M" >/dev/null
rm -rf "$dir/stage"
ewfacquire -q -u -t "$dir/image" -c deflate:fast -S 256MiB -C bench -D "bench/ewf.sh" \
  -E 1 -e bench -N "$files files" -m fixed -M physical -d sha1 "$dir/media.raw" >/dev/null
raw_sha256=$(sha256sum "$dir/media.raw" | cut -d' ' -f1)
rm -f "$dir/media.raw"
image="$dir/image.E01"
segments=$(ls "$dir"/image.E* | wc -l)
e01_bytes=$(cat "$dir"/image.E* | wc -c)
cat "$dir"/image.E* > /dev/null   # both sides read from the page cache
load_before=$(cut -d' ' -f1-3 /proc/loadavg)

# --- correctness, once ----------------------------------------------------------------------
out=$("$masf_bin" verify-media --sha256 "$image")
grep -q '^verified' <<<"$out" || { echo "masf did not verify the image:"; echo "$out"; exit 1; }
grep -q "^sha256 *$raw_sha256" <<<"$out" || { echo "masf SHA-256 differs from the raw media"; exit 1; }
ewfverify -q "$image" | grep -q SUCCESS || { echo "ewfverify did not verify the image"; exit 1; }

median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
# Wall-clock seconds and CPU seconds (user + sys) of one run.
time_one() {
  /usr/bin/time -f '%e %U %S' -o "$dir/time" "$@" > /dev/null
  awk '{ printf "%s %.2f\n", $1, $2 + $3 }' "$dir/time"
}

masf_t=(); ewf_t=(); ewf_all_t=(); masf_c=(); ewf_c=(); ewf_all_c=(); masf_all_t=(); masf_all_c=()
for _ in $(seq "$runs"); do
  # interleave the tools so machine noise hits them alike
  read -r w c < <(time_one "$masf_bin" verify-media "$image"); masf_t+=("$w"); masf_c+=("$c")
  read -r w c < <(time_one "$masf_bin" verify-media --sha256 "$image"); masf_all_t+=("$w"); masf_all_c+=("$c")
  read -r w c < <(time_one ewfverify -q "$image"); ewf_t+=("$w"); ewf_c+=("$c")
  read -r w c < <(time_one ewfverify -q -d sha1,sha256 "$image"); ewf_all_t+=("$w"); ewf_all_c+=("$c")
done
med() { printf '%s\n' "$@" | median; }
m=$(med "${masf_t[@]}"); e=$(med "${ewf_t[@]}"); s=$(med "${ewf_all_t[@]}")
mc=$(med "${masf_c[@]}"); ec=$(med "${ewf_c[@]}"); sc=$(med "${ewf_all_c[@]}")
ma=$(med "${masf_all_t[@]}"); mac=$(med "${masf_all_c[@]}")
mb=$(echo "$size_mib * 1.048576" | bc -l)
printf 'media        %d MiB ext4, %d files; E01 %d MB in %d segments (deflate fast, ratio %.2f)\n' \
  "$size_mib" "$files" "$((e01_bytes / 1000000))" "$segments" "$(echo "$size_mib * 1048576 / $e01_bytes" | bc -l)"
printf 'runs         %d each, interleaved, medians; %d CPUs, load before %s, after %s\n' \
  "$runs" "$(nproc)" "$load_before" "$(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-34s %7.3f s wall (%4.0f MB/s)  %6.2f s CPU\n' \
  "masf verify-media (stored: md5+sha1)" "$m" "$(echo "$mb / $m" | bc -l)" "$mc" \
  "masf verify-media --sha256 (3)" "$ma" "$(echo "$mb / $ma" | bc -l)" "$mac" \
  "ewfverify (md5)" "$e" "$(echo "$mb / $e" | bc -l)" "$ec" \
  "ewfverify -d sha1,sha256 (same 3)" "$s" "$(echo "$mb / $s" | bc -l)" "$sc"
printf 'ratio masf/ewfverify = %.2f wall (target <= 0.45), %.2f CPU\n' \
  "$(echo "$m / $e" | bc -l)" "$(echo "$mc / $ec" | bc -l)"
printf 'ratio masf --sha256 / ewfverify-same-digests = %.2f wall, %.2f CPU\n' \
  "$(echo "$ma / $s" | bc -l)" "$(echo "$mac / $sc" | bc -l)"
