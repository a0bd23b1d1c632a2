#!/usr/bin/env bash
# Installs what MASForensics needs on a Debian machine, idempotently: a second run installs
# nothing. Called by scripts/demo.sh and scripts/test.sh; safe to run by hand.
#
#   scripts/setup.sh            # packages for building, the demo and the tests
set -euo pipefail

# Debian packages: build tools, and the real forensic tools the fixture generators and the
# oracle tests call (ewfacquire/ewfverify, mkfs.*, mtools, sgdisk, parted, The Sleuth Kit, sqlite3,
# ImageMagick with fonts, exiftool, libfaketime; python3-jsonschema validates report.json
# against its schema in the tests); Tesseract with English and Simplified / Traditional Chinese
# language data plus what the `leptess` crate needs to build (its headers, Leptonica's, and
# libclang for bindgen). The desktop app: GTK 3 / WebKitGTK 4.1 headers for Tauri 2 and rfd,
# and for its end-to-end tests Xvfb, WebKitWebDriver (webkit2gtk-driver) and a D-Bus session.
# stress-ng keeps the cores busy for scripts/stress-test.sh; sqlcipher builds the encrypted app
# databases of tests/fixtures/asia; android-sdk-libsparse-utils (AOSP's img2simg/simg2img) makes
# the Android sparse image fixtures; openssl (asn1parse -genconf) writes the DER records of the
# trusted-peer fixtures; adb (adb keygen) writes the ADB keys of tests/fixtures/adb; chromium-headless-shell renders the demo's report.html for
# the test that its people section is on a browser's first screen.
PACKAGES=(
  build-essential pkg-config file
  ewf-tools e2fsprogs dosfstools mtools gdisk fdisk sleuthkit ntfs-3g f2fs-tools
  xorriso dmg2img parted qemu-utils
  sqlite3 zip unzip zstd imagemagick fonts-dejavu-core fonts-noto-cjk
  libimage-exiftool-perl faketime bc python3-jsonschema
  tesseract-ocr tesseract-ocr-eng tesseract-ocr-chi-sim tesseract-ocr-chi-tra
  libtesseract-dev libleptonica-dev libclang-dev clang
  libwebkit2gtk-4.1-dev libgtk-3-dev libsoup-3.0-dev libjavascriptcoregtk-4.1-dev librsvg2-dev
  libayatana-appindicator3-dev libxdo-dev xvfb xauth webkit2gtk-driver dbus-x11 at-spi2-core
  openssl adb stress-ng sqlcipher android-sdk-libsparse-utils python3-venv chromium-headless-shell
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

# Python oracles from PyPI, in a venv under target/ (not committed): iphone-backup-decrypt
# decrypts the encrypted iTunes backup fixture (tests/fixtures/ios-backup-enc) independently of
# our reader; `cryptography` lets its generator wrap keys and encrypt; case-utils' case_validate
# checks report.case.jsonld against the CASE 1.5 ontology (SHACL); libmodi-python (libyal's
# Mac OS disk image library) reads the sparse bundles and images the evidence tests make; liblp
# (a Python port of AOSP liblp) reads the Android super images they make; libewf-python (libyal's
# own EWF library, pyewf) reads the Ex01 fixtures before our EWF2 reader does; libvhdi-python
# (libyal's VHD library) reads the differencing VHD the virtual-disk tests write over its parent;
# pytypedstream reads Messages' archived attributedBody (NSArchiver typedstreams) independently;
# protobuf (Google's runtime) writes Android usage-stats files from AOSP's message layout;
# sqlcipher3-binary (SQLCipher 4 itself, which Debian does not package) writes Signal for iOS's
# database with its plaintext header and decrypts it as the oracle; mmh3 (MurmurHash3) writes
# Telegram for iOS's key file check and Postbox type hashes; plyvel (Google's LevelDB) writes
# Play services' push-message queue; libtorrent (the library of qBittorrent, Deluge and
# LibreTorrent) writes .torrent files and clients' resume data; fit-tool (Stages Cycling's FIT
# encoder and decoder) writes the FIT activity files of watches and fitness apps.
venv="$(cd "$(dirname "$0")/.." && pwd)/target/py-oracles"
if ! "$venv/bin/python3" -c 'import iphone_backup_decrypt, cryptography, case_utils, pymodi, liblp, pyewf, pyvhdi, typedstream, google.protobuf, sqlcipher3, mmh3, plyvel, libtorrent, fit_tool' 2>/dev/null; then
  echo "setup: installing the Python oracles in $venv" >&2
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q --disable-pip-version-check 'cryptography>=41' 'iphone-backup-decrypt==0.11.*' 'case-utils==0.18.*' 'libmodi-python==20260902' 'liblp==1.0.2' 'libewf-python==20260924' 'libvhdi-python==20260901' 'pytypedstream==0.1.0' 'protobuf==5.29.*' 'sqlcipher3-binary==0.6.*' 'mmh3==5.*' 'plyvel==1.5.*' 'libtorrent==2.0.*' 'fit-tool==0.9.16'
fi

if ! command -v cargo >/dev/null 2>&1; then
  echo "setup: cargo not found. Install the Rust toolchain (rustup, Rust >= 1.89) and re-run." >&2
  exit 1
fi

# The test command lints with clippy and checks formatting with rustfmt.
if command -v rustup >/dev/null 2>&1; then
  for c in clippy rustfmt; do
    rustup component list --installed 2>/dev/null | grep -q "^$c" || rustup component add "$c"
  done
fi

# The desktop app's web UI is built with Node (>= 20.19, npm). Debian 12's own nodejs is 18: when
# no suitable node is present, install Debian's and say that the UI needs a newer one.
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  echo "setup: installing nodejs npm" >&2
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends nodejs npm >/dev/null
fi
node_version="$(node -p 'process.versions.node' 2>/dev/null || echo 0)"
if ! node -e 'const [a,b]=process.versions.node.split(".").map(Number); process.exit(a>20||(a===20&&b>=19)?0:1)'; then
  echo "setup: node $node_version is too old for ui/ (needs >= 20.19; e.g. NodeSource's nodejs 20)" >&2
  exit 1
fi

# tauri-driver: the W3C WebDriver front of the desktop app's e2e tests (~1-2 min to build once).
if ! command -v tauri-driver >/dev/null 2>&1 && [ ! -x "$HOME/.cargo/bin/tauri-driver" ]; then
  echo "setup: installing tauri-driver" >&2
  cargo install tauri-driver --version "^2" --locked
fi
