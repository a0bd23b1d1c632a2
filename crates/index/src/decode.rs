//! Bytes of one file to text units: the decoding half of the index.
//!
//! What a file holds is decided by content, never by its name:
//! - a byte-order mark (UTF-8, UTF-16LE/BE) decides;
//! - valid UTF-8 without NUL bytes is UTF-8;
//! - UTF-16 without a mark is recognised by its zero bytes (Latin text) or by decoding to
//!   letters of one script (CJK text), in either byte order;
//! - text in a legacy code page (GBK/GB18030, Big5, Shift-JIS, EUC-KR, Windows-125x…) is
//!   guessed by chardetng (Firefox's detector) and decoded by encoding_rs;
//! - anything else is binary: its printable runs (UTF-8 and UTF-16LE, four characters or
//!   more) are indexed, each at its own offset, like `strings -e S` and `strings -e l`;
//! - Office Open XML, OpenDocument and PDF files give their body text (`crate::doc`) and their
//!   printable runs; binary plists give their keys and strings.
//!
//! Every unit keeps *marks*: where in the file (byte offset, and the encoding from there) its
//! text starts, so a hit at a text offset maps back to the file's bytes. SQLite rows come in as
//! units from the caller (the tool catalog opens databases with their `-wal`).

use encoding_rs::{Encoding, UTF_8};
use serde::{Deserialize, Serialize};

/// Longest text of one unit (bytes); longer text is cut into overlapping chunks.
pub const CHUNK: usize = 256 << 10;
/// Bytes the chunks of one text overlap by, so a phrase across a cut is still found.
pub const OVERLAP: usize = 512;
/// Shortest printable run taken from binary content (characters).
pub const MIN_RUN: usize = 4;

/// Where a stretch of a unit's text comes from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Mark {
    /// Byte offset in the unit's text where the stretch starts.
    pub at: usize,
    /// Byte offset in the file of that text, where the text is the file's bytes decoded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file_offset: Option<u64>,
    /// The stretch's encoding when it differs from the unit's (`utf-16le` runs of a binary).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub encoding: Option<String>,
    /// A name for the stretch: the column of an SQLite row, the part of an Office file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
}

/// Text taken from one file, with what maps it back to the file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unit {
    /// What kind of reading gave it: `text`, `strings`, `office`, `plist`, `sqlite_row`.
    pub kind: &'static str,
    /// The text's encoding in the file (`utf-8`, `utf-16le`, `gbk`, …; `-` where the text
    /// was not a byte-for-byte decoding: XML bodies, plist values, SQLite cells).
    pub encoding: String,
    /// Where inside the file, beyond the bytes: `table messages rowid 7`, a part name; empty
    /// for the file's own text.
    pub locator: String,
    pub text: String,
    /// Sorted by `at`; the first is at 0.
    pub marks: Vec<Mark>,
}

impl Unit {
    /// The file offset of the text at byte `at` of the unit (see [`file_offset`]).
    pub fn file_offset(&self, at: usize) -> Option<u64> {
        file_offset(&self.marks, &self.encoding, &self.text, at).1
    }
}

/// The mark the text offset `at` falls under, and the file offset of that text where the
/// stretch is a decoding of the file's bytes (`encoding`: the unit's own).
pub fn file_offset<'m>(
    marks: &'m [Mark],
    encoding: &str,
    text: &str,
    at: usize,
) -> (Option<&'m Mark>, Option<u64>) {
    let Some(mark) = marks.iter().rev().find(|m| m.at <= at) else {
        return (None, None);
    };
    let offset = mark.file_offset.and_then(|base| {
        let enc = mark.encoding.as_deref().unwrap_or(encoding);
        Some(base + encoded_len(enc, text.get(mark.at..at)?)? as u64)
    });
    (Some(mark), offset)
}

/// Bytes `text` takes in `encoding` (the name a unit carries).
pub fn encoded_len(encoding: &str, text: &str) -> Option<usize> {
    match encoding {
        "utf-8" | "ascii" => Some(text.len()),
        "utf-16le" | "utf-16be" => Some(text.encode_utf16().count() * 2),
        other => {
            let enc = Encoding::for_label(other.as_bytes())?;
            let (bytes, _, _) = enc.encode(text);
            Some(bytes.len())
        }
    }
}

/// The units of one file's bytes (see the module documentation).
pub fn units(data: &[u8]) -> Vec<Unit> {
    if data.starts_with(b"bplist00")
        && let Some(u) = plist_unit(data)
    {
        return vec![u];
    }
    // A document gives its body text, and its bytes are read as well (an uncompressed PDF's
    // strings, a zip's stored names).
    if data.starts_with(b"PK\x03\x04") || data.starts_with(b"%PDF") {
        let mut out: Vec<Unit> = document_unit(data).into_iter().collect();
        out.extend(strings(data));
        return out;
    }
    // A photo gives its EXIF fields (camera, serial, owner, times, GPS) as `doc_metadata`
    // prints them, and its bytes are read as well (comments, XMP).
    if data.starts_with(b"\xff\xd8") || data.starts_with(b"II*\0") || data.starts_with(b"MM\0*") {
        let mut out: Vec<Unit> = exif_unit(data).into_iter().collect();
        out.extend(strings(data));
        return out;
    }
    if let Some((encoding, bom)) = bom(data) {
        return text_units(data, encoding, bom);
    }
    if !data.contains(&0) && std::str::from_utf8(data).is_ok() {
        return chunked(
            "text",
            "utf-8",
            std::str::from_utf8(data).unwrap_or_default(),
            0,
        );
    }
    if let Some(enc) = utf16_latin(data) {
        return text_units(data, enc, 0);
    }
    let legacy = (!looks_binary(data)).then(|| {
        let mut det = chardetng::EncodingDetector::new(chardetng::Iso2022JpDetection::Deny);
        det.feed(data, true);
        det.guess(None, chardetng::Utf8Detection::Allow)
    });
    // A legacy code page that decodes the whole file cleanly wins; else UTF-16 CJK text (no
    // zero bytes to tell it), else the guess decoded with replacement characters.
    let decoded = legacy.map(|enc| (enc, enc.decode_without_bom_handling(data)));
    if let Some((enc, (text, false))) = &decoded {
        return chunked("text", &encoding_name(enc), text, 0);
    }
    if let Some(enc) = utf16_cjk(data) {
        return text_units(data, enc, 0);
    }
    if let Some((enc, (text, _))) = &decoded {
        return chunked("text", &encoding_name(enc), text, 0);
    }
    strings(data)
}

fn bom(data: &[u8]) -> Option<(&'static Encoding, usize)> {
    Encoding::for_bom(data)
}

/// Text of a whole file in a known encoding, from byte `skip`.
fn text_units(data: &[u8], enc: &'static Encoding, skip: usize) -> Vec<Unit> {
    let (text, _) = enc.decode_without_bom_handling(&data[skip..]);
    chunked("text", &encoding_name(enc), &text, skip as u64)
}

/// The name a unit carries for `enc` (`utf-8`, `utf-16le`, `gbk`, `big5`, `shift_jis` …).
fn encoding_name(enc: &'static Encoding) -> String {
    if enc == UTF_8 {
        "utf-8".to_string()
    } else {
        enc.name().to_ascii_lowercase()
    }
}

/// `text` (decoded from the file from byte `base`) cut into units of at most [`CHUNK`] bytes,
/// consecutive units overlapping by [`OVERLAP`].
fn chunked(kind: &'static str, encoding: &str, text: &str, base: u64) -> Vec<Unit> {
    let mut out = Vec::new();
    let mut start = 0usize;
    let mut offset = base;
    loop {
        let mut end = (start + CHUNK).min(text.len());
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        out.push(Unit {
            kind,
            encoding: encoding.to_string(),
            locator: String::new(),
            text: text[start..end].to_string(),
            marks: vec![Mark {
                at: 0,
                file_offset: Some(offset),
                encoding: None,
                label: None,
            }],
        });
        if end >= text.len() {
            break;
        }
        let mut next = end.saturating_sub(OVERLAP).max(start + 1);
        while !text.is_char_boundary(next) {
            next += 1;
        }
        offset += encoded_len(encoding, &text[start..next]).unwrap_or(next - start) as u64;
        start = next;
    }
    out
}

/// Bytes sampled to decide a file's nature.
const SAMPLE: usize = 64 << 10;

fn looks_binary(data: &[u8]) -> bool {
    let sample = &data[..data.len().min(SAMPLE)];
    let controls = sample
        .iter()
        .filter(|&&b| b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r' | 0x0c | 0x1b))
        .count();
    controls * 100 > sample.len().max(1)
}

/// UTF-16 without a byte-order mark, by its zero bytes: Latin text has every other byte zero.
fn utf16_latin(data: &[u8]) -> Option<&'static Encoding> {
    let sample = &data[..data.len().min(SAMPLE) & !1];
    if sample.len() < 8 {
        return None;
    }
    let pairs = sample.len() / 2;
    let zero_even = sample.iter().step_by(2).filter(|&&b| b == 0).count();
    let zero_odd = sample
        .iter()
        .skip(1)
        .step_by(2)
        .filter(|&&b| b == 0)
        .count();
    if zero_odd * 10 >= pairs * 7 && zero_even * 10 <= pairs {
        return plausible_utf16(sample, encoding_rs::UTF_16LE).then_some(encoding_rs::UTF_16LE);
    }
    if zero_even * 10 >= pairs * 7 && zero_odd * 10 <= pairs {
        return plausible_utf16(sample, encoding_rs::UTF_16BE).then_some(encoding_rs::UTF_16BE);
    }
    None
}

/// UTF-16 CJK text without a byte-order mark: an even length that decodes cleanly, in one
/// byte order, to ideographs, kana or Hangul and their punctuation.
fn utf16_cjk(data: &[u8]) -> Option<&'static Encoding> {
    if !data.len().is_multiple_of(2) || data.len() < 8 {
        return None;
    }
    let sample = &data[..data.len().min(SAMPLE) & !1];
    for enc in [encoding_rs::UTF_16LE, encoding_rs::UTF_16BE] {
        let (text, _, bad) = enc.decode(sample);
        let total = text.chars().count();
        let cjk = text
            .chars()
            .filter(|&c| {
                crate::analyzer::is_cjk(c)
                    || matches!(c, '\u{3000}'..='\u{303f}' | '\u{ff00}'..='\u{ffef}' | '\n' | '\r')
            })
            .count();
        if !bad && cjk * 10 >= total * 9 {
            return Some(enc);
        }
    }
    None
}

fn plausible_utf16(sample: &[u8], enc: &'static Encoding) -> bool {
    let (text, _, bad) = enc.decode(sample);
    let printable = text
        .chars()
        .filter(|c| !c.is_control() || matches!(c, '\n' | '\r' | '\t'))
        .count();
    !bad && printable * 10 >= text.chars().count() * 9
}

/// Printable runs of a binary: UTF-8 (ASCII or multi-byte) and UTF-16LE, each at least
/// [`MIN_RUN`] characters, grouped into units of at most [`CHUNK`] bytes of text, one run a
/// line, each with its own mark.
pub fn strings(data: &[u8]) -> Vec<Unit> {
    let mut runs: Vec<(u64, bool, String)> = Vec::new();
    utf8_runs(data, &mut runs);
    utf16le_runs(data, &mut runs);
    runs.sort_by_key(|r| r.0);
    let mut out = Vec::new();
    let mut unit = new_strings_unit();
    for (offset, utf16, run) in runs {
        if !unit.text.is_empty() && unit.text.len() + run.len() > CHUNK {
            out.push(std::mem::replace(&mut unit, new_strings_unit()));
        }
        if !unit.text.is_empty() {
            unit.text.push('\n');
        }
        unit.marks.push(Mark {
            at: unit.text.len(),
            file_offset: Some(offset),
            encoding: utf16.then(|| "utf-16le".to_string()),
            label: None,
        });
        unit.text.push_str(&run);
    }
    if !unit.text.is_empty() {
        out.push(unit);
    }
    out
}

fn new_strings_unit() -> Unit {
    Unit {
        kind: "strings",
        encoding: "utf-8".to_string(),
        locator: String::new(),
        text: String::new(),
        marks: Vec::new(),
    }
}

fn printable(c: char) -> bool {
    !c.is_control() || c == '\t'
}

fn utf8_runs(data: &[u8], out: &mut Vec<(u64, bool, String)>) {
    let mut i = 0;
    let mut start = 0;
    let mut run = String::new();
    let mut chars = 0;
    let mut flush = |start: usize, run: &mut String, chars: &mut usize| {
        if *chars >= MIN_RUN {
            out.push((start as u64, false, std::mem::take(run)));
        } else {
            run.clear();
        }
        *chars = 0;
    };
    while i < data.len() {
        let len = match data[i] {
            0x00..=0x7f => 1,
            0xc2..=0xdf => 2,
            0xe0..=0xef => 3,
            0xf0..=0xf4 => 4,
            _ => 0,
        };
        let c = (len > 0 && i + len <= data.len())
            .then(|| std::str::from_utf8(&data[i..i + len]).ok())
            .flatten()
            .and_then(|s| s.chars().next())
            .filter(|&c| printable(c));
        match c {
            Some(c) => {
                if run.is_empty() {
                    start = i;
                }
                run.push(c);
                chars += 1;
                i += len;
            }
            None => {
                flush(start, &mut run, &mut chars);
                i += 1;
            }
        }
    }
    flush(start, &mut run, &mut chars);
}

fn utf16le_runs(data: &[u8], out: &mut Vec<(u64, bool, String)>) {
    for parity in 0..2 {
        let mut start = parity;
        let mut run = String::new();
        let mut chars = 0;
        let mut i = parity;
        while i + 1 < data.len() {
            let unit = u16::from_le_bytes([data[i], data[i + 1]]);
            // ASCII and the BMP's letters; a NUL-free ASCII byte pair is UTF-8 text, taken above.
            let c = char::from_u32(u32::from(unit))
                .filter(|&c| printable(c) && !(0xd800..0xe000).contains(&u32::from(unit)))
                .filter(|_| data[i + 1] == 0 || data[i] != 0 && data[i + 1] >= 0x04);
            let ascii_pair = data[i] != 0 && data[i + 1] != 0 && data[i + 1] < 0x80;
            match c {
                Some(c) if !ascii_pair => {
                    if run.is_empty() {
                        start = i;
                    }
                    run.push(c);
                    chars += 1;
                }
                _ => {
                    if chars >= MIN_RUN && run.chars().any(|c| c.is_alphanumeric()) {
                        out.push((start as u64, true, std::mem::take(&mut run)));
                    }
                    run.clear();
                    chars = 0;
                }
            }
            i += 2;
        }
        if chars >= MIN_RUN && run.chars().any(|c| c.is_alphanumeric()) {
            out.push((start as u64, true, run));
        }
    }
}

/// Keys and string values of a binary plist, one a line.
fn plist_unit(data: &[u8]) -> Option<Unit> {
    let value = masf_evidence::plist::read(std::io::Cursor::new(data), "plist").ok()?;
    let mut text = String::new();
    walk_plist(&value, &mut text);
    Some(Unit {
        kind: "plist",
        encoding: "-".to_string(),
        locator: String::new(),
        text,
        marks: vec![Mark {
            at: 0,
            file_offset: None,
            encoding: None,
            label: None,
        }],
    })
}

fn line(out: &mut String, s: &str) {
    out.push_str(s);
    out.push('\n');
}

fn walk_plist(value: &plist::Value, out: &mut String) {
    match value {
        plist::Value::String(s) => line(out, s),
        plist::Value::Array(items) => {
            for v in items {
                walk_plist(v, out);
            }
        }
        plist::Value::Dictionary(d) => {
            for (k, v) in d {
                line(out, k);
                walk_plist(v, out);
            }
        }
        plist::Value::Integer(i) => line(out, &i.to_string()),
        plist::Value::Data(bytes) => {
            // Nested binary plists (NSKeyedArchiver blobs) and UTF-8 text kept as data.
            if bytes.starts_with(b"bplist00") {
                if let Some(u) = plist_unit(bytes) {
                    out.push_str(&u.text);
                }
            } else if let Ok(s) = std::str::from_utf8(bytes)
                && !s.contains('\0')
            {
                line(out, s);
            }
        }
        _ => {}
    }
}

/// Body text of an Office Open XML, OpenDocument or PDF file (see [`crate::doc`]), one line a
/// paragraph or text line; `None` when the bytes are no such document (other zips are not
/// opened here: an archive is a source of its own).
/// The EXIF fields of a JPEG or TIFF, one `name: value` line each (as `doc_metadata` prints
/// them), each line marked with its field's name.
fn exif_unit(data: &[u8]) -> Option<Unit> {
    let fields = if data.starts_with(b"\xff\xd8") {
        crate::exif::jpeg(data)
    } else {
        crate::exif::exif(data)
    };
    if fields.is_empty() {
        return None;
    }
    let mut text = String::new();
    let mut marks = Vec::with_capacity(fields.len());
    for (name, value) in &fields {
        marks.push(Mark {
            at: text.len(),
            file_offset: None,
            encoding: None,
            label: Some(name.clone()),
        });
        text.push_str(name);
        text.push_str(": ");
        text.push_str(&value.replace(['\n', '\r'], " "));
        text.push('\n');
    }
    Some(Unit {
        kind: "exif",
        encoding: "-".to_string(),
        locator: "EXIF".to_string(),
        text,
        marks,
    })
}

fn document_unit(data: &[u8]) -> Option<Unit> {
    let lines = if data.starts_with(b"%PDF") {
        crate::doc::pdf_text(data)
    } else {
        let bytes: masf_evidence::bytes::Bytes =
            std::sync::Arc::new(masf_evidence::bytes::Memory::new(data.to_vec(), "document"));
        crate::doc::office_text(bytes).ok()?.1
    };
    if lines.is_empty() {
        return None;
    }
    Some(Unit {
        kind: "document",
        encoding: "-".to_string(),
        locator: "body text".to_string(),
        text: lines.join("\n"),
        marks: vec![Mark {
            at: 0,
            file_offset: None,
            encoding: None,
            label: None,
        }],
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_overlap_and_map_back_to_the_file() {
        let text = "word ".repeat(CHUNK / 5 * 2 + 10);
        let us = chunked("text", "utf-8", &text, 3);
        assert_eq!(us.len(), 3);
        let second = &us[1];
        let at = second.text.find("word").unwrap();
        let off = second.file_offset(at).unwrap() as usize;
        assert_eq!(&text[off - 3..off - 3 + 4], "word");
    }

    #[test]
    fn utf16_offsets_count_two_bytes_a_unit() {
        let u = Unit {
            kind: "text",
            encoding: "utf-16le".into(),
            locator: String::new(),
            text: "ab张c".into(),
            marks: vec![Mark {
                at: 0,
                file_offset: Some(2),
                encoding: None,
                label: None,
            }],
        };
        assert_eq!(u.file_offset(5), Some(2 + 6));
    }

    #[test]
    fn binary_runs_in_both_encodings_keep_their_offsets() {
        let mut data = vec![0u8, 1, 2, 3];
        data.extend_from_slice(b"hello world");
        data.extend_from_slice(&[0, 0, 7]);
        let at16 = data.len();
        for c in "secret".encode_utf16() {
            data.extend_from_slice(&c.to_le_bytes());
        }
        data.extend_from_slice(&[0, 0, 1]);
        let us = units(&data);
        assert_eq!(us[0].kind, "strings");
        let t = &us[0];
        let i = t.text.find("hello").unwrap();
        assert_eq!(t.file_offset(i), Some(4));
        let j = t.text.find("secret").unwrap();
        assert_eq!(t.file_offset(j), Some(at16 as u64));
        let k = t.text.find("cret").unwrap();
        assert_eq!(t.file_offset(k), Some(at16 as u64 + 4));
    }
}
