#!/usr/bin/env bash
# Benchmark (issue 7): the whole `masf run` end to end (intake, triage, entity resolution,
# strategist rounds, report) in the release build, wall time and peak memory (`/usr/bin/time -v`
# "Maximum resident set size") for
#   (a) the demo case (case.yaml at the repo root)             target: < 60 s
#   (b) the scaled case: the demo case with its iOS source grown to FILES files and MESSAGES
#       messages (bench/ios_gen.sh on the demo's iphone_ffs.zip: its own artefacts, its WAL-only
#       rows, plus 200,000 messages and small files)          target: < 300 s and < 2 GiB
# Each measured run gets a fresh --work and --out under bench/out/run/ (git-ignored, kept for
# inspection: <case>.time, .json, .stderr, .phases). The grown zip is generated once per
# FILES/MESSAGES/generator and reused (generation is not measured). Per run the script also
# prints where the time went (bench/phases.py: phases from the event log timestamps, tool time
# from the invocation log).
#
#   bench/run.sh [FILES] [MESSAGES] [RUNS]     (defaults 50000 200000 3; verdict on the median wall
#                                              time and the largest peak RSS of the RUNS runs)
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
files="${1:-50000}"
messages="${2:-200000}"
runs="${3:-3}"
cargo build --release -p masf-cli >/dev/null 2>&1
bin="$root/target/release/masf"
out="$root/bench/out/run"
mkdir -p "$out"

# The scaled case: the demo's sources (absolute paths) with the iOS source replaced by the grown zip.
demo_zip="tests/fixtures/demo/evidence/iphone_ffs.zip"
gen="$out/ios-$files-$messages"
stamp="$(cat bench/ios_gen.sh "$demo_zip" tests/fixtures/demo/schema/sms.sql | sha256sum | cut -c1-16)"
if [[ "$(cat "$gen/stamp" 2>/dev/null)" != "$stamp" || ! -f "$gen/ios.zip" ]]; then
  rm -rf "$gen"
  mkdir -p "$gen"
  echo "generating the grown iOS source ($files files, $messages added messages) ..." >&2
  bench/ios_gen.sh "$gen" "$files" "$messages" "$root/$demo_zip" >&2
  rm -rf "$gen/tree"
  echo "$stamp" > "$gen/stamp"
fi
mkdir -p "$out/scaled"
sed -e "s#path: tests/#path: $root/tests/#" \
    -e "s#$root/$demo_zip#$gen/ios.zip#" \
    -e "s#label: iPhone full-file-system extraction#& (grown to $files files and $messages more messages)#" \
    -e "s#^  title: \(.*\)#  title: \1, scaled#" \
    case.yaml > "$out/scaled/case.yaml"
grep -q "$gen/ios.zip" "$out/scaled/case.yaml"

secs() { # h:mm:ss.ss or m:ss.ss -> seconds
  awk -F: '{ s = 0; for (i = 1; i <= NF; i++) s = s * 60 + $i; printf "%.1f", s }' <<< "$1"
}

results=()
measure() { # NAME CASE_FILE RUN
  local name="$1" case_file="$2" n="$3"
  local tag="$name-$n" w="$out/$name-$n.work" o="$out/$name-$n.report"
  rm -rf "$w" "$o"
  sync
  local start end rc=0
  start=$(date +%s.%N)
  /usr/bin/time -v -o "$out/$tag.time" "$bin" run "$case_file" --work "$w" --out "$o" \
    --config "$root/config.yaml" --json > "$out/$tag.json" 2> "$out/$tag.stderr" || rc=$?
  end=$(date +%s.%N)
  local wall rss cpu state
  wall=$(secs "$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$out/$tag.time")")
  rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$out/$tag.time")
  cpu=$(awk -F': ' '/User time|System time/ { s += $2 } END { printf "%.1f", s }' "$out/$tag.time")
  state=$(jq -r '.run.state // "?"' "$out/$tag.json" 2>/dev/null || echo "?")
  state="${state:-?}"
  echo "== $name run $n: exit $rc, state $state, wall $wall s, CPU $cpu s, peak RSS $((rss / 1024)) MiB" >&2
  jq -r '(.triage[] | "  triage \(.source_id) (\(.plugin)): \(.tally | to_entries | map("\(.key) \(.value)") | join(", "))"),
         "  run: rounds \(.run.rounds), completion \(.run.completion | tostring | .[0:120])",
         "  resolution: \(.run.resolution | tostring)",
         "  report: \(.report | del(.dir, .files) | tostring)"' "$out/$tag.json" >&2 2>/dev/null || true
  "$bin" events "$case_file" --work "$w" --jsonl 2>/dev/null \
    | python3 bench/phases.py "$w/case.sqlite" "$start" "$end" > "$out/$tag.phases" || true
  cat "$out/$tag.phases" >&2
  results+=("$name $wall $rss $cpu $rc $state")
}

for n in $(seq 1 "$runs"); do
  measure demo "$root/case.yaml" "$n"
  measure scaled "$out/scaled/case.yaml" "$n"
done

# Summary: median wall time and largest peak RSS per case against the targets.
printf '\n%-8s %5s %10s %10s %14s %12s %10s %-10s %s\n' case runs "wall s" "CPU s" "peak RSS MiB" "target s" "target MiB" state verdict
fail=0
for name in demo scaled; do
  read -r wall rss cpu ok state < <(printf '%s\n' "${results[@]}" | python3 -c '
import sys
rows = [l.split() for l in sys.stdin if l.split()[0] == sys.argv[1]]
med = lambda v: sorted(v)[(len(v) - 1) // 2]
ok = all(r[4] == "0" and r[5] == "completed" for r in rows)
print(med([float(r[1]) for r in rows]), max(int(r[2] or 0) for r in rows),
      med([float(r[3]) for r in rows]), int(ok), rows[-1][5])' "$name")
  if [[ "$name" == demo ]]; then tw=60; tm=""; else tw=300; tm=2048; fi
  mib=$((rss / 1024))
  verdict=PASS
  awk -v w="$wall" -v t="$tw" 'BEGIN { exit !(w < t) }' || verdict=FAIL
  [[ -z "$tm" || "$mib" -lt "$tm" ]] || verdict=FAIL
  [[ "$ok" == 1 ]] || verdict=FAIL
  [[ "$verdict" == PASS ]] || fail=1
  printf '%-8s %5s %10s %10s %14s %12s %10s %-10s %s\n' "$name" "$runs" "$wall" "$cpu" "$mib" "< $tw" "${tm:+< $tm}" "$state" "$verdict"
done
exit "$fail"
