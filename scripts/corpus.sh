# Sourced by shell scripts that read the public test corpus (never committed to this
# repository): `MASF_CORPUS` if set, else ../shared/corpus beside the repository root. Each file
# is checked against the corpus MANIFEST.md (sha256) before use. A missing corpus or a changed
# file fails the calling script with a message naming the folder and the variable.
#
#   . scripts/corpus.sh
#   img="$(corpus_file fs/ntfs/colinfinck-testfs1.ntfs)"

corpus_root() {
  local repo
  repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
  local root="${MASF_CORPUS:-$repo/../shared/corpus}"
  if [ ! -f "$root/MANIFEST.md" ]; then
    echo "public test corpus: missing $root/MANIFEST.md. Set MASF_CORPUS to the corpus folder (default: ../shared/corpus beside the repository)" >&2
    return 1
  fi
  (cd "$root" && pwd)
}

# corpus_file REL: prints the checked path of the corpus file REL (its name in the manifest).
corpus_file() {
  local rel="$1" root want got
  root="$(corpus_root)" || return 1
  want="$(awk -F'|' -v rel="\`$rel\`" '{gsub(/^ +| +$/, "", $2); gsub(/^ +| +$/, "", $3)} $2 == rel {gsub(/`/, "", $3); print $3; exit}' "$root/MANIFEST.md")"
  if [ -z "$want" ]; then
    echo "public test corpus: $rel is not listed in $root/MANIFEST.md" >&2
    return 1
  fi
  got="$(sha256sum < "$root/$rel" | cut -d' ' -f1)" || return 1
  if [ "$got" != "$want" ]; then
    echo "public test corpus: $root/$rel has sha256 $got, the manifest says $want" >&2
    return 1
  fi
  printf '%s\n' "$root/$rel"
}
