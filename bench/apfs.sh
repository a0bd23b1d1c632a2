#!/usr/bin/env bash
# Benchmark: read every regular file of every volume of an APFS container through the evidence
# layer (example apfs_read_all, one thread) against The Sleuth Kit doing the same: `fls -r` for
# the listing, then one `icat` per file (Debian `sleuthkit`; its pool support needs the volume
# superblock block, found with `pstat`). Both sides run RUNS times interleaved from the page
# cache; medians and the ratio are printed. Default image: the corpus's dfvfs-apfs.raw (no
# Debian tool writes APFS, so no bigger image can be made here).
#
#   bench/apfs.sh [IMAGE] [RUNS]     (needs sleuthkit, bc; PROFILE=debug skips the release build)
set -euo pipefail
cd "$(dirname "$0")/.."
img="${1:-${MASF_CORPUS:-/work/shared/corpus}/fs/apfs/dfvfs-apfs.raw}"
runs="${2:-5}"
profile="${PROFILE:-release}"
if [ "$profile" = release ]; then
  cargo build --release -p masf-evidence --example apfs_read_all >/dev/null 2>&1
else
  cargo build -p masf-evidence --example apfs_read_all >/dev/null 2>&1
fi
ours_bin="$PWD/target/$profile/examples/apfs_read_all"

tsk() {
  local apsb
  for apsb in $(pstat "$img" | sed -n 's/.*APSB Block Number: \([0-9]*\).*/\1/p'); do
    fls -P apfs -B "$apsb" -r -p "$img" | while IFS="$(printf '\t')" read -r head _; do
      case "$head" in
        r/r*) ino=${head#* }; icat -P apfs -B "$apsb" "$img" "${ino%:}" || true ;;
      esac
    done
  done
}

secs() { local t0 t1; t0=$(date +%s.%N); "$@" >/dev/null 2>&1; t1=$(date +%s.%N); echo "$t1 - $t0" | bc; }
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
"$ours_bin" "$img"
echo "tsk: $(tsk 2>/dev/null | wc -c) bytes"
ours=(); theirs=()
for _ in $(seq "$runs"); do
  ours+=("$(secs "$ours_bin" "$img")")
  theirs+=("$(secs tsk)")
done
o=$(printf '%s\n' "${ours[@]}" | median)
t=$(printf '%s\n' "${theirs[@]}" | median)
printf 'apfs: apfs_read_all %.4f s, fls+icat %.4f s, ratio %.3f\n' "$o" "$t" "$(echo "$o / $t" | bc -l)"
