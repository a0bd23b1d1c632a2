//! `doc_metadata`: document metadata by content: Office Open XML (`docProps/core.xml`,
//! `docProps/app.xml`), PDF (the Info dictionary, uncompressed), JPEG/TIFF (EXIF: IFD0, the Exif
//! IFD and GPS).

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::sync::Arc;

use masf_evidence::bytes::{Bytes, Memory};
use masf_evidence::fs::normalize_path;
use serde_json::{Value, json};

use crate::fs_tools::file_system;
use crate::{Applicability, SourceCtx, Tool, ToolError, ToolOutput, args};

/// Largest file read whole (PDF, JPEG headers are read from its start).
pub const DOC_MAX: u64 = 64 << 20;

/// `doc_metadata`.
pub struct DocMetadata;

impl Tool for DocMetadata {
    fn name(&self) -> &str {
        "doc_metadata"
    }
    fn description(&self) -> &str {
        "Extract document metadata from a file of the evidence, recognised by content: Office Open XML (docx/xlsx/pptx: docProps/core.xml fields such as dc:creator, cp:lastModifiedBy, dcterms:created, and app.xml fields), PDF (Info dictionary: Author, Creator, Producer, CreationDate, ModDate… as stored, uncompressed objects only; the last occurrence wins), JPEG/TIFF EXIF (Make, Model, DateTimeOriginal, BodySerialNumber, GPS…; times as stored, local and unzoned). One 'key: value' line each, sorted by key."
    }
    fn args_schema(&self) -> Value {
        json!({"type": "object", "properties": {
            "partition": {"type": "string", "description": "The file system to use when the source holds several (1-based index or partition name)."},
            "path": {"type": "string", "description": "Absolute path of the document inside the evidence."}
        }, "required": ["path"], "additionalProperties": false})
    }
    fn applicability(&self) -> Applicability {
        Applicability::TREE
    }
    fn run(&self, ctx: &SourceCtx, a: &Value) -> Result<ToolOutput, ToolError> {
        let fs = file_system(ctx, a)?;
        let path = normalize_path(args::str(a, "path")?);
        let bytes = fs.open(&path)?;
        if bytes.len() > DOC_MAX {
            return Err(ToolError::Other(format!(
                "{path}: {} bytes exceeds the limit of {DOC_MAX}",
                bytes.len()
            )));
        }
        let mut data = vec![0u8; bytes.len() as usize];
        bytes.read_exact_at(0, &mut data)?;
        let (format, fields) = if data.starts_with(b"PK\x03\x04") {
            ("office", office(data)?)
        } else if data.starts_with(b"%PDF") {
            ("pdf", pdf(&data))
        } else if data.starts_with(b"\xff\xd8") {
            ("jpeg", masf_index::exif::jpeg(&data))
        } else if data.starts_with(b"II*\0") || data.starts_with(b"MM\0*") {
            ("tiff", masf_index::exif::exif(&data))
        } else {
            return Err(ToolError::NotApplicable(format!(
                "{path}: not an Office, PDF, JPEG or TIFF document"
            )));
        };
        let mut text = format!("format: {format}\n");
        for (k, v) in &fields {
            let _ = writeln!(text, "{k}: {}", one_line(v));
        }
        Ok(ToolOutput {
            text,
            structured: Some(json!({"path": path, "format": format, "fields": fields})),
        })
    }
}

fn one_line(v: &str) -> String {
    v.replace('\\', "\\\\")
        .replace('\n', "\\n")
        .replace('\r', "\\r")
}

fn office(data: Vec<u8>) -> Result<BTreeMap<String, String>, ToolError> {
    let bytes: Bytes = Arc::new(Memory::new(data, "office document"));
    let zip = masf_evidence::archive::open_zip(bytes)?;
    let mut out = BTreeMap::new();
    for (part, prefix) in [("/docProps/core.xml", ""), ("/docProps/app.xml", "app:")] {
        let Ok(b) = zip.open(part) else { continue };
        let mut buf = vec![0u8; b.len().min(DOC_MAX) as usize];
        b.read_exact_at(0, &mut buf)?;
        for (name, value) in xml_leaves(&String::from_utf8_lossy(&buf)) {
            out.insert(format!("{prefix}{name}"), value);
        }
    }
    Ok(out)
}

/// Leaf elements `<name attrs>text</name>` with non-empty text, entities decoded.
pub fn xml_leaves(xml: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut rest = xml;
    while let Some(open) = rest.find('<') {
        rest = &rest[open + 1..];
        if rest.starts_with('/') || rest.starts_with('?') || rest.starts_with('!') {
            continue;
        }
        let Some(end) = rest.find('>') else { break };
        let tag = &rest[..end];
        if tag.ends_with('/') {
            continue;
        }
        let name = tag.split_whitespace().next().unwrap_or("").to_string();
        let body = &rest[end + 1..];
        let close = format!("</{name}>");
        if let Some(text_end) = body.find('<')
            && body[text_end..].starts_with(&close)
        {
            let text = unescape(&body[..text_end]);
            if !text.trim().is_empty() {
                out.push((name, text));
            }
        }
    }
    out
}

fn unescape(s: &str) -> String {
    s.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&apos;", "'")
        .replace("&amp;", "&")
}

const PDF_KEYS: &[&str] = &[
    "Title",
    "Author",
    "Subject",
    "Keywords",
    "Creator",
    "Producer",
    "CreationDate",
    "ModDate",
];

fn pdf(data: &[u8]) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for key in PDF_KEYS {
        let needle = format!("/{key}");
        let finder = memchr_find_all(data, needle.as_bytes());
        for pos in finder {
            let mut i = pos + needle.len();
            // The key must end here (not /Authors).
            if data.get(i).is_some_and(|b| b.is_ascii_alphanumeric()) {
                continue;
            }
            while data.get(i).is_some_and(|b| b.is_ascii_whitespace()) {
                i += 1;
            }
            if let Some(v) = pdf_string(&data[i.min(data.len())..]) {
                out.insert(format!("pdf:{key}"), v);
            }
        }
    }
    out
}

fn memchr_find_all(hay: &[u8], needle: &[u8]) -> Vec<usize> {
    let mut out = Vec::new();
    if needle.is_empty() || hay.len() < needle.len() {
        return out;
    }
    for i in 0..=hay.len() - needle.len() {
        if &hay[i..i + needle.len()] == needle {
            out.push(i);
        }
    }
    out
}

/// A PDF literal `( … )` or hex `< … >` string at the start of `s`; UTF-16BE (with BOM) decoded.
fn pdf_string(s: &[u8]) -> Option<String> {
    let raw: Vec<u8> = match s.first()? {
        b'(' => {
            let mut depth = 0usize;
            let mut out = Vec::new();
            let mut i = 1;
            while i < s.len() {
                let c = s[i];
                match c {
                    b'\\' => {
                        i += 1;
                        match s.get(i)? {
                            b'n' => out.push(b'\n'),
                            b'r' => out.push(b'\r'),
                            b't' => out.push(b'\t'),
                            b'b' => out.push(8),
                            b'f' => out.push(12),
                            d @ b'0'..=b'7' => {
                                let mut v = u32::from(d - b'0');
                                let mut n = 1;
                                while n < 3
                                    && s.get(i + 1).is_some_and(|x| (b'0'..=b'7').contains(x))
                                {
                                    i += 1;
                                    n += 1;
                                    v = v * 8 + u32::from(s[i] - b'0');
                                }
                                out.push(v as u8);
                            }
                            b'\n' | b'\r' => {}
                            &other => out.push(other),
                        }
                    }
                    b'(' => {
                        depth += 1;
                        out.push(c);
                    }
                    b')' if depth == 0 => break,
                    b')' => {
                        depth -= 1;
                        out.push(c);
                    }
                    _ => out.push(c),
                }
                i += 1;
            }
            out
        }
        b'<' if s.get(1) != Some(&b'<') => {
            let end = s.iter().position(|&b| b == b'>')?;
            let hex: Vec<u8> = s[1..end]
                .iter()
                .copied()
                .filter(|b| b.is_ascii_hexdigit())
                .collect();
            let mut hex = hex;
            if hex.len() % 2 == 1 {
                hex.push(b'0');
            }
            hex::decode(&hex).ok()?
        }
        _ => return None,
    };
    if raw.starts_with(&[0xfe, 0xff]) {
        let units: Vec<u16> = raw[2..]
            .chunks_exact(2)
            .map(|c| u16::from_be_bytes([c[0], c[1]]))
            .collect();
        return Some(String::from_utf16_lossy(&units));
    }
    Some(raw.iter().map(|&b| b as char).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xml_leaves_and_pdf_strings() {
        let xml = r#"<?xml version="1.0"?><cp:coreProperties><dc:creator>A &amp; B</dc:creator><dcterms:created xsi:type="x">2025-02-18T01:00:00Z</dcterms:created><empty/></cp:coreProperties>"#;
        assert_eq!(
            xml_leaves(xml),
            vec![
                ("dc:creator".to_string(), "A & B".to_string()),
                (
                    "dcterms:created".to_string(),
                    "2025-02-18T01:00:00Z".to_string()
                )
            ]
        );
        assert_eq!(pdf_string(b"(LEUNG \\(YL\\))").unwrap(), "LEUNG (YL)");
        assert_eq!(pdf_string(b"<4142>").unwrap(), "AB");
        assert_eq!(pdf_string(b"<feff00410042>").unwrap(), "AB");
        let fields = pdf(b"%PDF-1.4\n1 0 obj << /Author (X) /Authors (Y) >> endobj");
        assert_eq!(fields.get("pdf:Author").map(String::as_str), Some("X"));
    }
}
