#!/usr/bin/env bash
# Writes the tree the listing benchmarks load into a file system: 20 top folders x 20
# subfolders x N files each (FILES rounded up to a multiple of 400), names of varied length, a
# few larger files (4 KiB - 40 KiB) among them, and with --links a symlink per folder. Prints
# the number of files.
#
#   bench/small_files_tree.sh TREE FILES [--links]      (used by bench/ls.sh, bench/f2fs_ls.sh)
set -euo pipefail
tree="$1"
files="$2"
links="${3:-}"
per_dir=$(( (files + 399) / 400 ))
for a in $(seq -w 0 19); do
  for b in $(seq -w 0 19); do
    d="$tree/top-$a/sub-$a-$b"
    mkdir -p "$d"
    for i in $(seq 1 "$per_dir"); do
      if (( i % 97 == 0 )); then
        head -c $(( (i % 10 + 1) * 4096 )) /dev/zero | tr '\0' 'x' > "$d/large-$i.bin"
      else
        printf 'file %s of %s/%s\n' "$i" "$a" "$b" > "$d/file-$i-of-folder-$a-$b.txt"
      fi
    done
    if [ "$links" = --links ]; then ln -s "../sub-$a-00" "$d/link-to-first"; fi
  done
done
echo $((per_dir * 400))
