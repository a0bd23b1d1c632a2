#!/usr/bin/env bash
# Benchmark of the full-text index (issue 21): indexing SIZE_MIB (1024) of mixed text made of
# real files of this machine (C headers, Python sources, Rust crate sources, documentation),
# copied into a folder source, with `masf index` (release build, under /usr/bin/time -v for
# peak RSS) against `rg --count-matches` over the same folder for one query (ripgrep from
# Debian), interleaved RUNS (3) times from the page cache; then 100 queries of the built index
# (words, phrases, prefixes, boolean) timed one by one (example query_bench: open the index,
# search, locate each hit's match). Targets: index <= 1.5 x rg; p95 < 50 ms; peak RSS < 1 GiB.
# Last, how many greps the build is worth (its time over what one query saves against rg).
#
#   bench/search.sh [SIZE_MIB] [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
size_mib="${1:-1024}"
runs="${2:-3}"
command -v rg >/dev/null || { sudo -n true 2>/dev/null && S=sudo || S=; $S apt-get install -y -qq ripgrep >/dev/null; }
command -v /usr/bin/time >/dev/null || { sudo -n true 2>/dev/null && S=sudo || S=; $S apt-get install -y -qq time >/dev/null; }
cargo build --release -p masf-cli --bin masf >/dev/null 2>&1
cargo build --release -p masf-index --example query_bench >/dev/null 2>&1
masf="$PWD/target/release/masf"
qb="$PWD/target/release/examples/query_bench"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/evidence/text"

# Real files, copied until the folder holds SIZE_MIB; text-like names only, each file at most
# 4 MiB, in a fixed order.
python3 - "$work/evidence/text" "$size_mib" <<'PY'
import os, shutil, sys
dest, limit = sys.argv[1], int(sys.argv[2]) << 20
roots = ["/usr/include", "/usr/lib/python3", os.path.expanduser("~/.cargo/registry/src"),
         "/usr/share/doc", "/usr/share/perl5", "/usr/lib/python3.11"]
exts = (".h", ".hpp", ".c", ".py", ".rs", ".md", ".txt", ".toml", ".json", ".html", ".pm", ".rst")
total, n, rounds = 0, 0, 0
while total < limit and rounds < 20:
    rounds += 1
    for root in roots:
        for d, dirs, files in os.walk(root):
            dirs.sort()
            for f in sorted(files):
                if not f.endswith(exts):
                    continue
                src = os.path.join(d, f)
                try:
                    size = os.path.getsize(src)
                except OSError:
                    continue
                if size == 0 or size > 4 << 20 or total + size > limit:
                    continue
                n += 1
                out = os.path.join(dest, "%03d" % (n // 1000), "%d_%s" % (n, f))
                os.makedirs(os.path.dirname(out), exist_ok=True)
                shutil.copyfile(src, out)
                total += size
                if total >= limit:
                    break
            if total >= limit:
                break
        if total >= limit:
            break
print("files %d bytes %d" % (n, total), file=sys.stderr)
PY
cat > "$work/case.yaml" <<YAML
case:
  id: bench-search
  title: search benchmark
  examiner: bench
  timezone: UTC
sources:
  - id: src-text
    label: text
    path: evidence/text
    timezone: UTC
YAML
query="allocator"
cat "$work"/evidence/text/*/* > /dev/null 2>&1 || true
masf_times=(); rg_times=()
for i in $(seq "$runs"); do
  rm -rf "$work/.masf"
  /usr/bin/time -v -o "$work/time.txt" "$masf" index "$work/case.yaml" >/dev/null
  t=$(awk -F': ' '/Elapsed \(wall clock\)/ {n = split($2, a, ":"); s = 0; for (k = 1; k <= n; k++) s = s * 60 + a[k]; print s}' "$work/time.txt")
  rss=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$work/time.txt")
  masf_times+=("$t")
  s=$(date +%s.%N); rg --count-matches "$query" "$work/evidence/text" >/dev/null || true; e=$(date +%s.%N)
  rg_times+=("$(echo "$e - $s" | bc)")
  echo "run $i: masf index ${t}s (peak RSS $((rss / 1024)) MiB), rg ${rg_times[-1]}s"
done
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }
mi=$(median "${masf_times[@]}"); ri=$(median "${rg_times[@]}")
echo "index: masf $mi s, rg --count-matches $ri s, ratio $(echo "scale=2; $mi / $ri" | bc) (target <= 1.5)"
echo "peak RSS of the last build: $((rss / 1024)) MiB (target < 1024)"

# 100 queries: frequent and rare words, phrases, prefixes, boolean.
python3 - > "$work/queries.txt" <<'PY'
words = ["allocator", "unsafe", "mutex", "socket", "buffer", "iterator", "deprecated", "license",
         "serialize", "timeout", "checksum", "unicode", "thread", "overflow", "compression",
         "parser", "signal", "struct", "encoding", "permission"]
qs = []
for w in words:
    qs += [w, w[:4] + "*", '"%s error"' % w, "%s OR panic" % w, "%s -test" % w]
print("\n".join(qs[:100]))
PY
q_out=$("$qb" "$work/.masf/index/src-text" "$work/queries.txt" 1)
echo "queries: $q_out"
echo "target: p95 < 50 ms"
# What the index is for: each query afterwards costs p50 instead of a whole grep, so the build
# pays for itself after this many searches.
p50=$(echo "$q_out" | awk '{for (i = 1; i < NF; i++) if ($i == "p50_ms") print $(i + 1)}')
echo "break-even: the build costs as much as $(echo "$mi / ($ri - $p50 / 1000)" | bc) greps; each query after it takes ${p50} ms instead of ${ri} s"
