//! EXIF of JPEG and TIFF files (IFD0, the Exif IFD and GPS), read by hand: the fields an
//! examiner cites (camera make, model and serial, owner name, original time with its offset,
//! GPS), rendered as text. Shared by the `doc_metadata` tool and the index (an image's EXIF
//! is searchable as the tool shows it). Hand-written: a bounded walk of a few IFDs (at most
//! 8 visited, 512 entries each), where the maintained EXIF crates bring whole-format readers.

use std::collections::BTreeMap;

/// The EXIF fields of a JPEG (its APP1 `Exif` segment), empty when it has none.
pub fn jpeg(data: &[u8]) -> BTreeMap<String, String> {
    let mut i = 2;
    while i + 4 <= data.len() {
        if data[i] != 0xff {
            break;
        }
        let marker = data[i + 1];
        if marker == 0xd9 || marker == 0xda {
            break;
        }
        let len = usize::from(u16::from_be_bytes([data[i + 2], data[i + 3]]));
        let seg = data.get(i + 4..i + 2 + len).unwrap_or(&[]);
        if marker == 0xe1 && seg.starts_with(b"Exif\0\0") {
            return exif(&seg[6..]);
        }
        i += 2 + len;
    }
    BTreeMap::new()
}

struct Tiff<'a> {
    d: &'a [u8],
    le: bool,
}

impl Tiff<'_> {
    fn u16(&self, at: usize) -> Option<u16> {
        let b = self.d.get(at..at + 2)?;
        Some(if self.le {
            u16::from_le_bytes([b[0], b[1]])
        } else {
            u16::from_be_bytes([b[0], b[1]])
        })
    }
    fn u32(&self, at: usize) -> Option<u32> {
        let b = self.d.get(at..at + 4)?;
        let a = [b[0], b[1], b[2], b[3]];
        Some(if self.le {
            u32::from_le_bytes(a)
        } else {
            u32::from_be_bytes(a)
        })
    }

    /// The entries of the IFD at `off`: (tag, rendered value, raw LONG value).
    fn ifd(&self, off: usize) -> Vec<(u16, Option<String>, Option<u32>)> {
        let mut out = Vec::new();
        let Some(n) = self.u16(off) else { return out };
        for k in 0..usize::from(n).min(512) {
            let e = off + 2 + k * 12;
            let (Some(tag), Some(typ), Some(count)) =
                (self.u16(e), self.u16(e + 2), self.u32(e + 4))
            else {
                break;
            };
            let count = count as usize;
            let size = match typ {
                1 | 2 | 7 => 1,
                3 => 2,
                4 => 4,
                5 | 10 => 8,
                _ => 0,
            };
            let total = size * count;
            let data_at = if total <= 4 {
                e + 8
            } else {
                self.u32(e + 8).unwrap_or(u32::MAX) as usize
            };
            let long = if typ == 4 { self.u32(e + 8) } else { None };
            let value = match typ {
                2 => self.d.get(data_at..data_at.saturating_add(count)).map(|b| {
                    let b = b.split(|&c| c == 0).next().unwrap_or(&[]);
                    String::from_utf8_lossy(b).trim_end().to_string()
                }),
                3 if count >= 1 => self.u16(data_at).map(|v| v.to_string()),
                4 if count >= 1 => self.u32(data_at).map(|v| v.to_string()),
                5 if count >= 1 => {
                    let parts: Vec<String> = (0..count.min(3))
                        .filter_map(|j| {
                            let (n, d) =
                                (self.u32(data_at + j * 8)?, self.u32(data_at + j * 8 + 4)?);
                            Some(format!("{n}/{d}"))
                        })
                        .collect();
                    Some(parts.join(" "))
                }
                _ => None,
            };
            out.push((tag, value, long));
        }
        out
    }
}

fn tag_name(ifd: &str, tag: u16) -> Option<&'static str> {
    Some(match (ifd, tag) {
        ("ifd0", 0x010e) => "ImageDescription",
        ("ifd0", 0x010f) => "Make",
        ("ifd0", 0x0110) => "Model",
        ("ifd0", 0x0112) => "Orientation",
        ("ifd0", 0x0131) => "Software",
        ("ifd0", 0x0132) => "DateTime",
        ("ifd0", 0x013b) => "Artist",
        ("ifd0", 0x8298) => "Copyright",
        ("exif", 0x9003) => "DateTimeOriginal",
        ("exif", 0x9004) => "DateTimeDigitized",
        ("exif", 0x9010) => "OffsetTime",
        ("exif", 0x9011) => "OffsetTimeOriginal",
        ("exif", 0x9012) => "OffsetTimeDigitized",
        ("exif", 0xa002) => "PixelXDimension",
        ("exif", 0xa003) => "PixelYDimension",
        ("exif", 0xa420) => "ImageUniqueID",
        ("exif", 0xa430) => "CameraOwnerName",
        ("exif", 0xa431) => "BodySerialNumber",
        ("exif", 0xa433) => "LensMake",
        ("exif", 0xa434) => "LensModel",
        ("exif", 0xa435) => "LensSerialNumber",
        ("gps", 0x0001) => "GPSLatitudeRef",
        ("gps", 0x0002) => "GPSLatitude",
        ("gps", 0x0003) => "GPSLongitudeRef",
        ("gps", 0x0004) => "GPSLongitude",
        ("gps", 0x0006) => "GPSAltitude",
        ("gps", 0x0007) => "GPSTimeStamp",
        ("gps", 0x001d) => "GPSDateStamp",
        _ => return None,
    })
}

/// EXIF fields of a TIFF structure (the body of a JPEG APP1 `Exif` segment, or a TIFF file).
pub fn exif(d: &[u8]) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let le = match d.get(..2) {
        Some(b"II") => true,
        Some(b"MM") => false,
        _ => return out,
    };
    let t = Tiff { d, le };
    let Some(ifd0) = t.u32(4) else { return out };
    let mut pending = vec![("ifd0", ifd0 as usize)];
    let mut seen = Vec::new();
    while let Some((kind, off)) = pending.pop() {
        if seen.contains(&off) || seen.len() > 8 {
            continue;
        }
        seen.push(off);
        for (tag, value, long) in t.ifd(off) {
            match (kind, tag, long) {
                ("ifd0", 0x8769, Some(p)) => pending.push(("exif", p as usize)),
                ("ifd0", 0x8825, Some(p)) => pending.push(("gps", p as usize)),
                _ => {}
            }
            if let (Some(name), Some(v)) = (tag_name(kind, tag), value) {
                out.insert(format!("exif:{name}"), v);
            }
        }
    }
    out
}
