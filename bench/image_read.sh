#!/usr/bin/env bash
# Benchmark: whole-media read of an Android sparse image, a dynamic VHDX, a QCOW2 (plain and
# with deflate-compressed clusters) and a VMDK (monolithicSparse and streamOptimized) through the
# evidence layer (example image_read, one thread) against the image's own tool writing the raw
# media to a file in /dev/shm (tmpfs: a sink in memory): AOSP `simg2img` and
# `qemu-img convert -O raw`. Not /dev/null: simg2img maps its input and a write to /dev/null
# never touches the pages, and qemu-img refuses /dev/null as a target smaller than the image. The images hold an ext4
# volume of SIZE_MIB (default 1024) filled to about 70 % with incompressible bytes and text, made
# at benchmark time (never committed). Both sides run interleaved from the page cache; medians and
# ratios are printed.
#
# Issue 18's target: QCOW2 and VMDK ≤ 0.5 × `qemu-img convert -O raw`.
#
#   bench/image_read.sh [SIZE_MIB] [RUNS] [KINDS]   (needs img2simg/simg2img, qemu-img, mkfs.ext4;
#                                                    KINDS default "simg vhdx qcow2 qcow2c vmdk vmdks")
set -euo pipefail
cd "$(dirname "$0")/.."
size="${1:-1024}"
runs="${2:-5}"
kinds="${3:-simg vhdx qcow2 qcow2c vmdk vmdks}"
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
qemu-img convert -f raw -O qcow2 "$dir/disk.raw" "$dir/disk.qcow2"
qemu-img convert -f raw -O qcow2 -c "$dir/disk.raw" "$dir/disk.qcow2c"
qemu-img convert -f raw -O vmdk -o subformat=monolithicSparse "$dir/disk.raw" "$dir/disk.vmdk"
qemu-img convert -f raw -O vmdk -o subformat=streamOptimized "$dir/disk.raw" "$dir/disk.vmdks"
want="$(sha256sum < "$dir/disk.raw" | cut -d' ' -f1)"
rm "$dir/disk.raw"
for kind in $kinds; do
  got="$("$read_image" "$dir/disk.$kind" --sha256 2>/dev/null)"
  [ "$got" = "$want" ] || { echo "disk.$kind: read $got, raw disk is $want" >&2; exit 1; }
done
format_of() { case "$1" in qcow2c) echo qcow2 ;; vmdks) echo vmdk ;; *) echo "$1" ;; esac; }

secs() { local t0 t1; t0=$(date +%s.%N); "$@" >/dev/null 2>&1; t1=$(date +%s.%N); echo "$t1 - $t0" | bc; }
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
for kind in $kinds; do
  ours=(); tool=()
  for _ in $(seq "$runs"); do
    ours+=("$(secs "$read_image" "$dir/disk.$kind")")
    if [ "$kind" = simg ]; then
      tool+=("$(secs simg2img "$dir/disk.simg" "$sink")")
    else
      tool+=("$(secs qemu-img convert -f "$(format_of "$kind")" -O raw "$dir/disk.$kind" "$sink")")
    fi
    rm -f "$sink"
  done
  o=$(printf '%s\n' "${ours[@]}" | median)
  t=$(printf '%s\n' "${tool[@]}" | median)
  printf '%s: image_read %.3f s, %s %.3f s, ratio %.2f\n' "$kind" "$o" \
    "$([ "$kind" = simg ] && echo simg2img || echo 'qemu-img convert')" "$t" "$(echo "$o / $t" | bc -l)"
done
