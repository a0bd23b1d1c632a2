#!/usr/bin/env bash
# Benchmark: whole-media read of an Android sparse image and of a dynamic VHDX through the
# evidence layer (example image_read, one thread) against the image's own tool writing the raw
# media to a file in /dev/shm (tmpfs: a sink in memory): AOSP `simg2img` and
# `qemu-img convert -O raw`. Not /dev/null: simg2img maps its input and a write to /dev/null
# never touches the pages, and qemu-img refuses /dev/null as a target smaller than the image. The images hold an ext4
# volume of SIZE_MIB (default 1024) filled to about 70 % with incompressible bytes and text, made
# at benchmark time (never committed). Both sides run interleaved from the page cache; medians and
# ratios are printed.
#
#   bench/image_read.sh [SIZE_MIB] [RUNS]     (needs img2simg/simg2img, qemu-img, mkfs.ext4)
set -euo pipefail
cd "$(dirname "$0")/.."
size="${1:-1024}"
runs="${2:-5}"
cargo build --release -p masf-evidence --example image_read >/dev/null 2>&1
read_image="$PWD/target/release/examples/image_read"
dir="$(mktemp -d)"
sink="/dev/shm/masf-image-read-$$.raw"
trap 'rm -rf "$dir" "$sink"' EXIT

mkdir "$dir/src"
fill=$((size * 7 / 10))
head -c "$(((fill / 2) << 20))" /dev/urandom > "$dir/src/noise.bin"
seq 1 100000000 | head -c "$(((fill / 2) << 20))" > "$dir/src/text.txt" || true
mkfs.ext4 -q -F -b 4096 -d "$dir/src" "$dir/disk.raw" "${size}M" 2>/dev/null
rm -rf "$dir/src"
img2simg "$dir/disk.raw" "$dir/disk.simg"
qemu-img convert -f raw -O vhdx -o subformat=dynamic "$dir/disk.raw" "$dir/disk.vhdx"
want="$(sha256sum < "$dir/disk.raw" | cut -d' ' -f1)"
rm "$dir/disk.raw"
for f in disk.simg disk.vhdx; do
  got="$("$read_image" "$dir/$f" --sha256 2>/dev/null)"
  [ "$got" = "$want" ] || { echo "$f: read $got, raw disk is $want" >&2; exit 1; }
done

secs() { local t0 t1; t0=$(date +%s.%N); "$@" >/dev/null 2>&1; t1=$(date +%s.%N); echo "$t1 - $t0" | bc; }
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
for kind in simg vhdx; do
  ours=(); tool=()
  for _ in $(seq "$runs"); do
    ours+=("$(secs "$read_image" "$dir/disk.$kind")")
    if [ "$kind" = simg ]; then
      tool+=("$(secs simg2img "$dir/disk.simg" "$sink")")
    else
      tool+=("$(secs qemu-img convert -f vhdx -O raw "$dir/disk.vhdx" "$sink")")
    fi
    rm -f "$sink"
  done
  o=$(printf '%s\n' "${ours[@]}" | median)
  t=$(printf '%s\n' "${tool[@]}" | median)
  printf '%s: image_read %.3f s, %s %.3f s, ratio %.2f\n' "$kind" "$o" \
    "$([ "$kind" = simg ] && echo simg2img || echo 'qemu-img convert')" "$t" "$(echo "$o / $t" | bc -l)"
done
