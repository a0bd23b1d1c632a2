#!/usr/bin/env bash
# Benchmark: reading every member of a ~1 GiB ZIP of 50,000 files through the evidence layer
# (example zip_cat_all, both cores) against `unzip -p ZIP > /dev/null`, and listing it (example
# zip_list) against `unzip -l`. Both sides run interleaved on the same file from the page cache;
# medians and ratios are printed. Targets (issue 3): read <= 0.5 x unzip -p; list <= 1.0 x unzip -l.
#
#   bench/zip.sh [FILES] [TOTAL_MIB] [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
files="${1:-50000}"
total_mib="${2:-1024}"
runs="${3:-5}"
cargo build --release -p masf-evidence --example zip_cat_all --example zip_list >/dev/null 2>&1
cat_all="$PWD/target/release/examples/zip_cat_all"
list="$PWD/target/release/examples/zip_list"
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
zip="$dir/bench.zip"

# Realistic mixed content, generated at benchmark time (never committed): text (logs, JSON,
# chat exports), SQLite-like pages (records and zero-filled free space), incompressible bytes
# (media, already compressed; stored, as zip stores what does not shrink), and repetitive data.
python3 - "$zip" "$files" "$total_mib" <<'PY'
import os, random, sys, zipfile
path, files, total = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]) << 20
r = random.Random(42)
words = [''.join(r.choice('abcdefghijklmnopqrstuvwxyz') for _ in range(r.randint(2, 10)))
         for _ in range(5000)]
text = ' '.join(r.choice(words) + ('\n' if r.random() < 0.08 else '') for _ in range(3_000_000)).encode()
def page():
    body = b''.join(b'%d|%s|+8525555%04d|%d;' % (i, r.choice(words).encode(), r.randint(0, 9999),
                    r.randint(1_600_000_000, 1_700_000_000)) for i in range(r.randint(10, 60)))
    return (b'\x0d\x00\x00' + body)[:4096].ljust(4096, b'\x00')
pages = [page() for _ in range(2000)]
noise = os.urandom(64 << 20)
mean = total // files
# A device-like layout, members grouped by folder as archivers write them (a walk of the tree):
# about 10 files a folder, 5 to 9 levels deep.
apps = ['%08X-%04X-4%03X-8%03X-%012X' % (r.getrandbits(32), r.getrandbits(16), r.getrandbits(12),
        r.getrandbits(12), r.getrandbits(48)) for _ in range(60)]
subs = ['Caches', 'Preferences', 'Application Support', 'Cookies', 'WebKit/WebsiteData',
        'SplashBoard/Snapshots', 'Saved Application State', 'Logs', 'Databases', 'Documents/Inbox']
with zipfile.ZipFile(path, 'w', zipfile.ZIP_DEFLATED, compresslevel=6) as z:
    for i in range(files):
        size = max(64, int(r.lognormvariate(0, 1.0) * mean / 1.6487))
        kind = r.random()
        d = i // 10
        name = (f'private/var/mobile/Containers/Data/Application/{apps[d // 100 % 60]}/Library/'
                f'{subs[d % 100 // 10]}/{d % 10:02d}/file{i:05d}')
        method = zipfile.ZIP_DEFLATED
        if kind < 0.40:
            at = r.randrange(len(text) - size) if size < len(text) else 0
            data, name = text[at:at + size], name + '.txt'
        elif kind < 0.60:
            n = max(1, size // 4096)
            data, name = b''.join(r.choice(pages) for _ in range(n)), name + '.sqlite'
        elif kind < 0.80:
            at = r.randrange(len(noise) - size) if size < len(noise) else 0
            data, name, method = noise[at:at + size], name + '.jpg', zipfile.ZIP_STORED
        else:
            block = os.urandom(r.randint(16, 512))
            data, name = (block * (size // len(block) + 1))[:size], name + '.bin'
        z.writestr(zipfile.ZipInfo(name, (2024, 1, 2, 3, 4, 6)), data, compress_type=method)
PY
cat "$zip" > /dev/null   # warm the page cache so every run reads from memory

median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
time_one() { local s e; s=$(date +%s.%N); "$@" > /dev/null 2>&1; e=$(date +%s.%N); echo "$e - $s" | bc -l; }

"$cat_all" "$zip" 2>&1 >/dev/null | sed 's/^/zip_cat_all: /'
cat_t=(); unzip_p=(); list_t=(); unzip_l=()
for _ in $(seq "$runs"); do
  cat_t+=("$(time_one "$cat_all" "$zip")")
  unzip_p+=("$(time_one unzip -p "$zip")")
  list_t+=("$(time_one "$list" "$zip")")
  unzip_l+=("$(time_one unzip -l "$zip")")
done
c=$(printf '%s\n' "${cat_t[@]}" | median)
p=$(printf '%s\n' "${unzip_p[@]}" | median)
l=$(printf '%s\n' "${list_t[@]}" | median)
u=$(printf '%s\n' "${unzip_l[@]}" | median)
zip_mb=$(( $(stat -c %s "$zip") / 1000000 ))
data_mb=$(unzip -l "$zip" | tail -1 | awk '{printf "%d", $1 / 1000000}')
printf 'archive         %d members, %d MB compressed, %d MB of content, %d runs each, medians\n' \
  "$files" "$zip_mb" "$data_mb" "$runs"
printf 'zip_cat_all     %.3f s  (%.0f MB/s of content)\n' "$c" "$(echo "$data_mb / $c" | bc -l)"
printf 'unzip -p        %.3f s  (%.0f MB/s of content)\n' "$p" "$(echo "$data_mb / $p" | bc -l)"
printf 'zip_list        %.3f s\n' "$l"
printf 'unzip -l        %.3f s\n' "$u"
printf 'ratio read  zip_cat_all/unzip -p = %.2f (target <= 0.50)\n' "$(echo "$c / $p" | bc -l)"
printf 'ratio list  zip_list/unzip -l    = %.2f (target <= 1.00)\n' "$(echo "$l / $u" | bc -l)"
