#!/usr/bin/env bash
# Benchmark: OCR of phone-sized transaction screenshots by the engine behind `ocr_image`
# (leptess, pooled single-threaded Tesseract engines) against `OMP_THREAD_LIMIT=1 tesseract` on
# the same images, run side by side (alternating per round), and the read rates of wallet
# addresses (exact, and through the recorded look-alike repair), amounts, times and tx hashes.
# Target (issue 5): seconds per screenshot <= 1.1 x the CLI's.
#
# The screenshots are generated at benchmark time by bench/ocr_screens.py (ImageMagick; valid
# EIP-55 / Base58Check / bech32 addresses; ground truth in truth.json).
#
#   bench/ocr.sh [COUNT] [ROUNDS] [LANG] [PREPROCESS]     (defaults: 24 3 eng gray)
#
# Seconds are wall time per image, the median of ROUNDS; the CPU seconds (user + sys) of the
# same runs are shown too, as the machine may be shared. Ours includes the engine start (once
# per process); the CLI starts one per image, as it is used.
set -euo pipefail
cd "$(dirname "$0")/.."
count="${1:-24}"
rounds="${2:-3}"
lang="${3:-eng}"
pre="${4:-gray}"
export LC_ALL=C

cargo build -q -p masf-plugins --example ocr_bench
ours_bin="$PWD/target/debug/examples/ocr_bench"   # the OCR itself runs in libtesseract
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
python3 bench/ocr_screens.py "$dir/screens" "$count"
images=("$dir"/screens/shot_*)
n=${#images[@]}

now() { date +%s.%N; }
ours_wall=(); cli_wall=(); ours_cpu=(); cli_cpu=()
for r in $(seq "$rounds"); do
  rm -rf "$dir/ours" "$dir/cli"; mkdir -p "$dir/cli"
  t0=$(now)
  /usr/bin/time -f "%U %S" -o "$dir/ours.time" "$ours_bin" "$dir/screens" "$dir/ours" "$lang" "$pre" 1 > "$dir/ours.tsv"
  t1=$(now)
  : > "$dir/cli.time"
  for img in "${images[@]}"; do
    stem=$(basename "${img%.*}")
    /usr/bin/time -f "%U %S" -a -o "$dir/cli.time" env OMP_THREAD_LIMIT=1 tesseract "$img" "$dir/cli/$stem" -l "$lang" >/dev/null 2>&1
  done
  t2=$(now)
  ours_wall+=("$(echo "($t1 - $t0) / $n" | bc -l)")
  cli_wall+=("$(echo "($t2 - $t1) / $n" | bc -l)")
  ours_cpu+=("$(awk -v n="$n" '{s += $1 + $2} END {print s / n}' "$dir/ours.time")")
  cli_cpu+=("$(awk -v n="$n" '{s += $1 + $2} END {print s / n}' "$dir/cli.time")")
  printf 'round %d: ours %.3f s/image (cpu %.3f), tesseract CLI %.3f s/image (cpu %.3f)\n' \
    "$r" "${ours_wall[-1]}" "${ours_cpu[-1]}" "${cli_wall[-1]}" "${cli_cpu[-1]}"
done
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }
ow=$(median "${ours_wall[@]}"); cw=$(median "${cli_wall[@]}")
oc=$(median "${ours_cpu[@]}"); cc=$(median "${cli_cpu[@]}")
echo "== $n screenshots, lang=$lang, preprocess=$pre, median of $rounds rounds"
printf 'seconds per screenshot: ours %.3f, OMP_THREAD_LIMIT=1 tesseract %.3f, ratio %.2f (target <= 1.1)\n' "$ow" "$cw" "$(echo "$ow / $cw" | bc -l)"
printf 'CPU seconds per screenshot: ours %.3f, tesseract %.3f, ratio %.2f\n' "$oc" "$cc" "$(echo "$oc / $cc" | bc -l)"

# one engine per core: the same images on as many threads as cores
cores=$(nproc)
if [ "$cores" -gt 1 ]; then
  t0=$(now)
  "$ours_bin" "$dir/screens" "$dir/ours_par" "$lang" "$pre" "$cores" > /dev/null
  t1=$(now)
  printf 'ours on %d threads (one engine each): %.3f s/image\n' "$cores" "$(echo "($t1 - $t0) / $n" | bc -l)"
fi

printf 'read rates, ours:           %s\n' "$(python3 bench/ocr_score.py "$dir/screens/truth.json" "$dir/ours" "$dir/ours")"
printf 'read rates, tesseract CLI:  %s\n' "$(python3 bench/ocr_score.py "$dir/screens/truth.json" "$dir/cli")"
