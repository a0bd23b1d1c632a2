//! Mac OS sparse images (`.sparseimage`, hdiutil's UDSP: signature `sprs`; FileVault 1 homes)
//! as a [`ByteSource`] of the disk they hold.
//!
//! # Why a hand-written reader
//!
//! The format (keramics.github.io/sparseimage.html) is a 4,096-byte big-endian header — `sprs`,
//! version, sectors per band, media size in sectors — whose band numbers array (from byte 64)
//! says, for each band stored after the header in file order, which band of the disk it is
//! (1-based; 0: unused slot). Bands are stored in the order they were first written, so the
//! reader keeps a table disk band → file offset; a band not in the array reads as zeros. No
//! maintained crate serves it as positioned reads over another layer.
//!
//! # What is refused
//!
//! One header holds 1,008 band numbers. A disk of more bands than that needs a continuation
//! that no public description documents (libmodi reads only the first header too), so such an
//! image is [`Error::Unsupported`] naming both counts, never read with bands silently missing.
//! A band number beyond the disk, a band stored twice, band data past the end of the file and a
//! zero band size are [`Error::Corrupt`] naming the array slot or offset.

use std::collections::BTreeMap;

use crate::bytes::{ByteSource, Bytes};
use crate::endian::be32;
use crate::{Error, Result};

const LAYER: &str = "sparseimage";
/// The signature at byte 0.
pub const SIGNATURE: &[u8; 4] = b"sprs";
/// Size of the header (band data starts after it).
pub const HEADER: u64 = 4096;
const ARRAY_AT: usize = 64;
/// Band numbers one header holds.
pub const SLOTS: usize = (HEADER as usize - ARRAY_AT) / 4;
const SECTOR: u64 = 512;
/// Largest band accepted (hdiutil writes 1 MiB).
const MAX_BAND: u64 = 1 << 30;

/// Whether `head` starts like a sparse image.
pub fn sniff(head: &[u8]) -> bool {
    head.starts_with(SIGNATURE)
}

/// An opened sparse image.
pub struct SparseImage {
    file: Bytes,
    band_size: u64,
    size: u64,
    version: u32,
    /// Disk band (0-based) → offset of its data in the file.
    bands: BTreeMap<u64, u64>,
}

fn corrupt(offset: u64, detail: impl Into<String>) -> Error {
    Error::Corrupt {
        layer: LAYER.to_string(),
        offset,
        detail: detail.into(),
    }
}

impl SparseImage {
    /// Opens the sparse image in `file`.
    pub fn open(file: Bytes) -> Result<SparseImage> {
        let mut header = vec![0u8; HEADER as usize];
        file.read_exact_at(0, &mut header)?;
        if !sniff(&header) {
            return Err(corrupt(0, "no sprs signature"));
        }
        let field = |at: usize| be32(&header, at).unwrap_or(0);
        let version = field(4);
        let band_size = u64::from(field(8)) * SECTOR;
        let size = u64::from(field(16)) * SECTOR;
        if band_size == 0 || band_size > MAX_BAND {
            return Err(corrupt(
                8,
                format!(
                    "{} sectors per band (must be 1 to {})",
                    field(8),
                    MAX_BAND / SECTOR
                ),
            ));
        }
        let disk_bands = size.div_ceil(band_size);
        if disk_bands > SLOTS as u64 {
            return Err(Error::Unsupported {
                layer: LAYER.to_string(),
                detail: format!(
                    "the disk has {disk_bands} bands of {band_size} bytes, more than the \
                     {SLOTS} one header maps (continued band tables are not read)"
                ),
            });
        }
        let mut bands = BTreeMap::new();
        for slot in 0..SLOTS {
            let at = ARRAY_AT + slot * 4;
            let number = field(at);
            if number == 0 {
                continue;
            }
            let band = u64::from(number) - 1;
            if band >= disk_bands {
                return Err(corrupt(
                    at as u64,
                    format!("slot {slot} names band {number}, beyond the disk's {disk_bands}"),
                ));
            }
            let data = HEADER + slot as u64 * band_size;
            // the disk's last band may be partial; the file must hold what the disk needs
            let needed = band_size.min(size - band * band_size);
            if data + needed > file.len() {
                return Err(corrupt(
                    data,
                    format!(
                        "band {number} (slot {slot}) needs bytes up to {} but the file ends at {}",
                        data + needed,
                        file.len()
                    ),
                ));
            }
            if bands.insert(band, data).is_some() {
                return Err(corrupt(at as u64, format!("band {number} is stored twice")));
            }
        }
        Ok(SparseImage {
            file,
            band_size,
            size,
            version,
            bands,
        })
    }

    /// The band size in bytes.
    pub fn band_size(&self) -> u64 {
        self.band_size
    }

    /// The header's version field (3 as hdiutil writes it).
    pub fn version(&self) -> u32 {
        self.version
    }

    /// How many bands are stored (the others were never written).
    pub fn bands_stored(&self) -> usize {
        self.bands.len()
    }
}

impl ByteSource for SparseImage {
    fn len(&self) -> u64 {
        self.size
    }

    fn read_at(&self, offset: u64, buf: &mut [u8]) -> Result<usize> {
        crate::bytes::read_banded(
            self.size,
            self.band_size,
            offset,
            buf,
            |band, within, out| match self.bands.get(&band) {
                Some(&data) => self.file.read_exact_at(data + within, out),
                None => {
                    out.fill(0);
                    Ok(())
                }
            },
        )
    }

    fn layer_name(&self) -> String {
        LAYER.to_string()
    }
}
