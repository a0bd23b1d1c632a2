#!/usr/bin/env bash
# Installs what MASForensics needs on a Debian machine, idempotently: a second run installs
# nothing. Called by scripts/demo.sh and scripts/test.sh; safe to run by hand.
#
#   scripts/setup.sh            # packages for building, the demo and the tests
set -euo pipefail

# Debian packages: build tools, and the real forensic tools the fixture generators and the
# oracle tests call (ewfacquire/ewfverify, mkfs.*, mtools, sgdisk, The Sleuth Kit, sqlite3,
# ImageMagick with fonts, exiftool, libfaketime; python3-jsonschema validates report.json
# against its schema in the tests); Tesseract with English and Simplified / Traditional Chinese
# language data plus what the `leptess` crate needs to build (its headers, Leptonica's, and
# libclang for bindgen).
PACKAGES=(
  build-essential pkg-config file
  ewf-tools e2fsprogs dosfstools mtools gdisk fdisk sleuthkit ntfs-3g
  sqlite3 zip unzip imagemagick fonts-dejavu-core fonts-noto-cjk
  libimage-exiftool-perl faketime bc python3-jsonschema
  tesseract-ocr tesseract-ocr-eng tesseract-ocr-chi-sim tesseract-ocr-chi-tra
  libtesseract-dev libleptonica-dev libclang-dev clang
)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}" >&2
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if ! command -v cargo >/dev/null 2>&1; then
  echo "setup: cargo not found. Install the Rust toolchain (rustup, Rust >= 1.89) and re-run." >&2
  exit 1
fi
