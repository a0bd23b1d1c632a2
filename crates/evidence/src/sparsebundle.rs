//! Mac OS sparse bundles (`.sparsebundle`, hdiutil's UDSB: Time Machine's network backups and
//! many encrypted-home or shared images) as a [`ByteSource`] of the disk they hold.
//!
//! # Why a hand-written reader
//!
//! A bundle is a folder: `Info.plist` (an XML plist: `diskimage-bundle-type`
//! `com.apple.diskimage.sparsebundle`, `band-size` in bytes, `size` of the disk in bytes),
//! its copy `Info.bckup`, an empty `token` and `bands/`, where band *n* of the disk is the file
//! named *n* in lower-case hexadecimal (`0`, `1`, …, `a`, …, `10`, as macOS names them; libmodi
//! and some tools write them zero-padded to eight digits, `0000000a`, which is read too; a band
//! named both ways is an error, not a guess). A band never written is
//! absent and reads as zeros; a band file may be shorter than the band size (its tail reads as
//! zeros). No maintained crate reads it (`keramics-formats` does, but its API is not stable and
//! it is no `ByteSource` over our layers), and the whole format is this mapping.
//!
//! # Untrusted input
//!
//! `Info.plist` is read only up to [`MAX_PLIST`] bytes; the band size must be a positive
//! multiple of 512 no larger than [`MAX_BAND`]; a band file named outside the disk's bands, or
//! longer than a band, is an [`Error::Corrupt`] naming it; names that are not hexadecimal
//! (`.DS_Store`) are ignored. The bundle is never written: band files are opened read-only
//! (`crate::open::open_read_only`), one at a time, as reads reach them.
//!
//! Encrypted bundles (`encrcdsa` at the start of band 0) are recognised and refused with
//! [`Error::Encrypted`]: their key is derived from a password this reader does not take yet.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use crate::bytes::{ByteSource, FileBytes};
use crate::{Error, Result};

const LAYER: &str = "sparsebundle";
/// The bundle type `Info.plist` names.
pub const BUNDLE_TYPE: &str = "com.apple.diskimage.sparsebundle";
/// Largest `Info.plist` read.
pub const MAX_PLIST: u64 = 1 << 20;
/// Largest band accepted (hdiutil writes 8 MiB; some tools 64 MiB).
pub const MAX_BAND: u64 = 1 << 30;

/// Whether `dir` looks like a sparse bundle: `Info.plist` and a `bands` folder.
pub fn is_bundle(dir: &Path) -> bool {
    dir.join("Info.plist").is_file() && dir.join("bands").is_dir()
}

/// An opened sparse bundle: the disk it holds, band by band.
pub struct SparseBundle {
    bands_dir: PathBuf,
    band_size: u64,
    size: u64,
    /// The bands present: band number → the band file's name and length.
    present: BTreeMap<u64, (String, u64)>,
    /// The band file read last (reads are mostly sequential).
    last: Mutex<Option<(u64, Arc<FileBytes>)>>,
}

fn corrupt(detail: impl Into<String>) -> Error {
    Error::Corrupt {
        layer: LAYER.to_string(),
        offset: 0,
        detail: detail.into(),
    }
}

impl SparseBundle {
    /// Opens the bundle at `dir`.
    pub fn open(dir: &Path) -> Result<SparseBundle> {
        let plist_path = dir.join("Info.plist");
        let file = crate::open::open_read_only(&plist_path)?;
        let mut text = Vec::new();
        std::io::Read::read_to_end(&mut std::io::Read::take(file, MAX_PLIST + 1), &mut text)
            .map_err(|e| Error::io(&plist_path, e))?;
        if text.len() as u64 > MAX_PLIST {
            return Err(corrupt(format!(
                "Info.plist is larger than {MAX_PLIST} bytes"
            )));
        }
        let info = plist::Value::from_reader(std::io::Cursor::new(&text))
            .map_err(|e| corrupt(format!("Info.plist is no plist: {e}")))?;
        let dict = info
            .as_dictionary()
            .ok_or_else(|| corrupt("Info.plist holds no dictionary"))?;
        let kind = dict
            .get("diskimage-bundle-type")
            .and_then(|v| v.as_string());
        if kind != Some(BUNDLE_TYPE) {
            return Err(corrupt(format!(
                "Info.plist's diskimage-bundle-type is {kind:?}, not {BUNDLE_TYPE}"
            )));
        }
        let number = |key: &str| -> Result<u64> {
            dict.get(key)
                .and_then(|v| v.as_unsigned_integer())
                .ok_or_else(|| corrupt(format!("Info.plist has no integer {key}")))
        };
        let band_size = number("band-size")?;
        let size = number("size")?;
        if band_size == 0 || band_size % 512 != 0 || band_size > MAX_BAND {
            return Err(corrupt(format!(
                "band-size {band_size} is not a positive multiple of 512 up to {MAX_BAND}"
            )));
        }
        let bands = size.div_ceil(band_size);
        let bands_dir = dir.join("bands");
        let listing = std::fs::read_dir(&bands_dir).map_err(|e| Error::io(&bands_dir, e))?;
        let mut present = BTreeMap::new();
        for entry in listing {
            let entry = entry.map_err(|e| Error::io(&bands_dir, e))?;
            let name = entry.file_name();
            let Some(name) = name.to_str() else { continue };
            // `.DS_Store` and other files that are no band
            let hex = !name.is_empty()
                && name.len() <= 16
                && name
                    .bytes()
                    .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b));
            if !hex {
                continue;
            }
            let n = u64::from_str_radix(name, 16).map_err(|e| corrupt(format!("{name}: {e}")))?;
            let meta = entry.metadata().map_err(|e| Error::io(entry.path(), e))?;
            if !meta.is_file() {
                continue;
            }
            if n >= bands {
                return Err(corrupt(format!(
                    "band file {name} lies beyond the disk's {bands} bands of {band_size} bytes"
                )));
            }
            if meta.len() > band_size {
                return Err(corrupt(format!(
                    "band file {name} holds {} bytes, more than the band size {band_size}",
                    meta.len()
                )));
            }
            if let Some((other, _)) = present.insert(n, (name.to_string(), meta.len())) {
                return Err(corrupt(format!(
                    "band {n:x} is held by two files, {other} and {name}"
                )));
            }
        }
        let bundle = SparseBundle {
            bands_dir,
            band_size,
            size,
            present,
            last: Mutex::new(None),
        };
        let mut head = [0u8; 8];
        if bundle.read_at(0, &mut head)? == 8 && &head == b"encrcdsa" {
            return Err(Error::Encrypted {
                layer: LAYER.to_string(),
                detail: "an encrypted sparse bundle (encrcdsa); not readable without its \
                         password"
                    .into(),
            });
        }
        Ok(bundle)
    }

    /// The band size in bytes.
    pub fn band_size(&self) -> u64 {
        self.band_size
    }

    /// How many band files the bundle holds (bands never written are absent).
    pub fn bands_present(&self) -> usize {
        self.present.len()
    }

    fn band(&self, n: u64, name: &str) -> Result<Arc<FileBytes>> {
        let mut last = self.last.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((k, f)) = last.as_ref()
            && *k == n
        {
            return Ok(f.clone());
        }
        let f = Arc::new(FileBytes::open(&self.bands_dir.join(name))?);
        *last = Some((n, f.clone()));
        Ok(f)
    }
}

impl ByteSource for SparseBundle {
    fn len(&self) -> u64 {
        self.size
    }

    fn read_at(&self, offset: u64, buf: &mut [u8]) -> Result<usize> {
        crate::bytes::read_banded(self.size, self.band_size, offset, buf, |n, within, out| {
            let (name, stored) = self
                .present
                .get(&n)
                .map_or(("", 0), |(name, len)| (name.as_str(), *len));
            // a band file shorter than the band: its tail reads as zeros
            let from_file = stored.saturating_sub(within).min(out.len() as u64) as usize;
            if from_file > 0 {
                self.band(n, name)?
                    .read_exact_at(within, &mut out[..from_file])?;
            }
            out[from_file..].fill(0);
            Ok(())
        })
    }

    fn layer_name(&self) -> String {
        LAYER.to_string()
    }
}
