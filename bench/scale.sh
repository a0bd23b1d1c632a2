#!/usr/bin/env bash
# Benchmark (issue 24, part 4 "Scale"): a folder source of FILES tiny files, end to end.
#
# Generates (once per FILES and generator, not measured) a home-directory-like folder of FILES
# tiny files nested 3-6 levels with realistic names (bench/scale_gen.py), writes a case around
# it with `masf init`, then measures in the release build, each under `/usr/bin/time -v`:
#   1. `masf run`    (intake, triage, resolution, strategist, report)  targets: < 120 s, < 1 GiB
#   2. `masf report` (the report written again from the store alone)   target:  < 30 s
# and prints wall seconds, peak RSS, the sizes of report.json and report.html, the number of
# phenomena, and PASS/FAIL per target. A run that has not ended after SCALE_TIMEOUT seconds
# (default 900) is stopped and fails. Work and report folders are kept under
# bench/out/scale/ (git-ignored) for inspection; the run's time per phase is printed from the
# event log (bench/phases.py).
#
#   bench/scale.sh [FILES]      (default 200000; MASF_BIN=path measures another build of masf,
#                               e.g. an older one, without building)
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
files="${1:-200000}"
limit="${SCALE_TIMEOUT:-900}"
target="${CARGO_TARGET_DIR:-$root/target}"
if [[ -n "${MASF_BIN:-}" ]]; then
  bin="$MASF_BIN"
else
  cargo build --release --locked -p masf-cli >/dev/null 2>&1
  bin="$target/release/masf"
fi
out="$root/bench/out/scale"
mkdir -p "$out"

tree="$out/tree-$files"
stamp="$(sha256sum bench/scale_gen.py | cut -c1-16)"
if [[ "$(cat "$tree.stamp" 2>/dev/null)" != "$stamp" || ! -d "$tree" ]]; then
  rm -rf "$tree" "$tree.stamp"
  echo "generating $files files in $tree ..." >&2
  python3 bench/scale_gen.py "$tree/evidence" "$files" >/dev/null
  echo "$stamp" > "$tree.stamp"
fi

case_dir="$out/case-$files"
rm -rf "$case_dir"
"$bin" init "$case_dir" "$tree/evidence" >/dev/null
case_file="$case_dir/case.yaml"

secs() { # h:mm:ss.ss or m:ss.ss -> seconds
  awk -F: '{ s = 0; for (i = 1; i <= NF; i++) s = s * 60 + $i; printf "%.1f", s }' <<< "$1"
}
measure() { # TAG COMMAND... ; sets wall, rss_mib, rc
  local tag="$1"
  shift
  sync
  rc=0
  /usr/bin/time -v -o "$out/$tag.time" timeout "$limit" "$@" > "$out/$tag.stdout" 2> "$out/$tag.stderr" || rc=$?
  wall=$(secs "$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$out/$tag.time")")
  rss_mib=$(( $(sed -n 's/.*Maximum resident set size (kbytes): //p' "$out/$tag.time") / 1024 ))
}
size_mib() { # FILE -> MiB with one decimal, or "-"
  [[ -f "$1" ]] && awk -v b="$(stat -c %s "$1")" 'BEGIN { printf "%.1f", b / 1048576 }' || echo "-"
}
verdict() { # OK-CONDITION (awk expression) -> PASS/FAIL
  awk "BEGIN { exit !($1) }" && echo PASS || echo FAIL
}

work="$out/work-$files" report_run="$out/report-run-$files" report_again="$out/report-$files"
rm -rf "$work" "$report_run" "$report_again"
start=$(date +%s.%N)
measure run "$bin" run "$case_file" --work "$work" --out "$report_run" --config "$root/config.yaml" --json
end=$(date +%s.%N)
run_wall=$wall run_rss=$rss_mib run_rc=$rc
echo "== masf run: exit $run_rc, wall $run_wall s, peak RSS $run_rss MiB" >&2
if [[ -f "$work/case.sqlite" ]]; then
  "$bin" events "$case_file" --work "$work" --jsonl 2>/dev/null \
    | python3 bench/phases.py "$work/case.sqlite" "$start" "$end" >&2 || true
fi

measure report "$bin" report "$case_file" --work "$work" --out "$report_again"
rep_wall=$wall rep_rss=$rss_mib rep_rc=$rc
echo "== masf report: exit $rep_rc, wall $rep_wall s, peak RSS $rep_rss MiB" >&2

json="$report_again/report.json"
phenomena=$(jq '.phenomena | length' "$json" 2>/dev/null || echo "-")
facts=$(jq '[.phenomena[].verified_facts | length] | add // 0' "$json" 2>/dev/null || echo "-")
invocations=$(jq '.invocations | length' "$json" 2>/dev/null || echo "-")
echo "report: report.json $(size_mib "$json") MiB, report.html $(size_mib "$report_again/report.html") MiB, report.md $(size_mib "$report_again/report.md") MiB; $phenomena phenomena, $facts verified facts, $invocations invocations" >&2

printf '\n%-12s %8s %6s %10s %14s %-18s %s\n' step files exit "wall s" "peak RSS MiB" target verdict
v1=$(verdict "$run_rc == 0 && $run_wall < 120 && $run_rss < 1024")
v2=$(verdict "$rep_rc == 0 && $rep_wall < 30")
printf '%-12s %8s %6s %10s %14s %-18s %s\n' "masf run" "$files" "$run_rc" "$run_wall" "$run_rss" "< 120 s, < 1 GiB" "$v1"
printf '%-12s %8s %6s %10s %14s %-18s %s\n' "masf report" "$files" "$rep_rc" "$rep_wall" "$rep_rss" "< 30 s" "$v2"
[[ "$v1" == PASS && "$v2" == PASS ]]
