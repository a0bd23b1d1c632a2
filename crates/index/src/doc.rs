//! The text a document shows, recognised by content: Office Open XML (docx body with headers,
//! footers and footnotes, xlsx shared strings, pptx slides), OpenDocument `content.xml`, and
//! PDF text-showing operators (`Tj`/`TJ`/`'`/`"`) in uncompressed or FlateDecode content
//! streams. Used by the index for document bodies and by the `doc_text` tool of the disk and
//! archive plugins, so the two read a document the same way.

use std::io::Read as _;

use masf_evidence::bytes::Bytes;

/// Largest document part or stream read.
pub const DOC_TEXT_MAX: u64 = 64 << 20;
/// Largest text produced from one document.
pub const TEXT_MAX: usize = 1 << 20;
/// Largest inflated PDF stream.
const STREAM_MAX: u64 = 16 << 20;

/// The text of an OOXML or ODF package: (format, lines).
pub fn office_text(bytes: Bytes) -> Result<(&'static str, Vec<String>), String> {
    let zip = masf_evidence::archive::open_zip(bytes)
        .map_err(|e| format!("not a readable zip package: {e}"))?;
    let read = |part: &str| -> Option<String> {
        let b = zip.open(part).ok()?;
        if b.len() > DOC_TEXT_MAX {
            return None;
        }
        let mut buf = vec![0u8; b.len() as usize];
        b.read_exact_at(0, &mut buf).ok()?;
        Some(String::from_utf8_lossy(&buf).into_owned())
    };
    let list = |dir: &str, prefix: &str| -> Vec<String> {
        let mut names: Vec<String> = zip
            .list_dir(dir)
            .map(|es| {
                es.into_iter()
                    .filter(|e| e.name.starts_with(prefix) && e.name.ends_with(".xml"))
                    .map(|e| e.path)
                    .collect()
            })
            .unwrap_or_default();
        // slide2 before slide10.
        names.sort_by_key(|n| {
            let digits: String = n.chars().filter(char::is_ascii_digit).collect();
            (digits.len(), digits, n.clone())
        });
        names
    };
    if let Some(doc) = read("/word/document.xml") {
        let mut lines = Vec::new();
        for part in list("/word", "header") {
            lines.extend(
                read(&part)
                    .map(|x| xml_paragraphs(&x, "w:p", "w:t"))
                    .unwrap_or_default(),
            );
        }
        lines.extend(xml_paragraphs(&doc, "w:p", "w:t"));
        for part in ["/word/footnotes.xml", "/word/endnotes.xml"] {
            lines.extend(
                read(part)
                    .map(|x| xml_paragraphs(&x, "w:p", "w:t"))
                    .unwrap_or_default(),
            );
        }
        for part in list("/word", "footer") {
            lines.extend(
                read(&part)
                    .map(|x| xml_paragraphs(&x, "w:p", "w:t"))
                    .unwrap_or_default(),
            );
        }
        return Ok(("docx", lines));
    }
    if let Some(shared) = read("/xl/sharedStrings.xml") {
        return Ok(("xlsx", xml_paragraphs(&shared, "si", "t")));
    }
    let slides = list("/ppt/slides", "slide");
    if !slides.is_empty() {
        let mut lines = Vec::new();
        for s in slides {
            lines.extend(
                read(&s)
                    .map(|x| xml_paragraphs(&x, "a:p", "a:t"))
                    .unwrap_or_default(),
            );
        }
        return Ok(("pptx", lines));
    }
    if let Some(content) = read("/content.xml") {
        let mut lines = xml_paragraphs(&content, "text:p", "");
        lines.extend(xml_paragraphs(&content, "text:h", ""));
        return Ok(("odf", lines));
    }
    Err("a zip package without a document part (word/document.xml, xl/sharedStrings.xml, ppt/slides, content.xml)".into())
}

/// The text of each `<para>` element: the content of its `<run>` elements joined (or, with an
/// empty `run`, all its character data), entities decoded; empty paragraphs dropped.
pub fn xml_paragraphs(xml: &str, para: &str, run: &str) -> Vec<String> {
    let mut out = Vec::new();
    let open = format!("<{para}");
    let close = format!("</{para}>");
    let mut rest = xml;
    while let Some(start) = rest.find(&open) {
        let after = &rest[start + open.len()..];
        // `<w:p>` or `<w:p attr…>`, not `<w:pPr>`.
        if !after.starts_with(['>', ' ', '/', '\n', '\r', '\t']) {
            rest = after;
            continue;
        }
        let Some(gt) = after.find('>') else { break };
        if after[..gt].ends_with('/') {
            rest = &after[gt + 1..];
            continue;
        }
        let body_start = gt + 1;
        let end = after[body_start..]
            .find(&close)
            .map_or(after.len(), |e| body_start + e);
        let body = &after[body_start..end];
        let text = if run.is_empty() {
            char_data(body)
        } else {
            runs(body, run)
        };
        let text = text.trim().to_string();
        if !text.is_empty() {
            out.push(text);
        }
        rest = &after[end.min(after.len())..];
    }
    out
}

fn runs(body: &str, run: &str) -> String {
    let open = format!("<{run}");
    let close = format!("</{run}>");
    let mut out = String::new();
    let mut rest = body;
    while let Some(start) = rest.find(&open) {
        let after = &rest[start + open.len()..];
        if !after.starts_with(['>', ' ']) {
            rest = after;
            continue;
        }
        let Some(gt) = after.find('>') else { break };
        if after[..gt].ends_with('/') {
            rest = &after[gt + 1..];
            continue;
        }
        let Some(end) = after[gt + 1..].find(&close) else {
            break;
        };
        out.push_str(&unescape(&after[gt + 1..gt + 1 + end]));
        rest = &after[gt + 1 + end..];
    }
    // Tabs and breaks inside a paragraph.
    out
}

fn char_data(body: &str) -> String {
    let mut out = String::new();
    let mut in_tag = false;
    let mut chunk = String::new();
    for c in body.chars() {
        match c {
            '<' => {
                out.push_str(&unescape(&chunk));
                chunk.clear();
                in_tag = true;
            }
            '>' => in_tag = false,
            c if !in_tag => chunk.push(c),
            _ => {}
        }
    }
    out.push_str(&unescape(&chunk));
    out
}

fn unescape(s: &str) -> String {
    let mut out = s
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&apos;", "'");
    // Numeric references.
    while let Some(i) = out.find("&#") {
        let Some(j) = out[i..].find(';').map(|j| i + j) else {
            break;
        };
        let num = &out[i + 2..j];
        let c = if let Some(h) = num.strip_prefix('x') {
            u32::from_str_radix(h, 16).ok()
        } else {
            num.parse().ok()
        }
        .and_then(char::from_u32)
        .unwrap_or('\u{fffd}');
        out.replace_range(i..=j, &c.to_string());
    }
    out.replace("&amp;", "&")
}

/// The strings a PDF's content streams show, one text line a line.
pub fn pdf_text(data: &[u8]) -> Vec<String> {
    let mut lines = Vec::new();
    let mut total = 0usize;
    let mut pos = 0;
    while let Some(s) = find(data, b"stream", pos) {
        // The keyword `stream` (not `endstream`) followed by EOL.
        let is_end = s >= 3 && &data[s - 3..s] == b"end";
        let mut body = s + 6;
        if is_end {
            pos = body;
            continue;
        }
        if data.get(body) == Some(&b'\r') {
            body += 1;
        }
        if data.get(body) == Some(&b'\n') {
            body += 1;
        }
        let Some(e) = find(data, b"endstream", body) else {
            break;
        };
        // The stream's dictionary ends right before the keyword: look back a bounded way, so
        // a PDF of many streams stays linear.
        let back = s.saturating_sub(4096);
        let dict_start = data[back..s]
            .windows(2)
            .rposition(|w| w == b"<<")
            .map_or(s, |p| back + p);
        let dict = &data[dict_start..s];
        let raw = &data[body..e];
        let content: Option<Vec<u8>> = if contains(dict, b"/FlateDecode") {
            let mut out = Vec::new();
            flate2::read::ZlibDecoder::new(raw)
                .take(STREAM_MAX)
                .read_to_end(&mut out)
                .ok()
                .map(|_| out)
        } else if contains(dict, b"/Filter") || contains(dict, b"/Subtype") {
            None
        } else {
            Some(raw.to_vec())
        };
        if let Some(c) = content {
            let shown = show_strings(&c);
            total += shown.iter().map(String::len).sum::<usize>();
            lines.extend(shown);
            if total > TEXT_MAX {
                break;
            }
        }
        pos = e + 9;
    }
    lines
}

fn find(hay: &[u8], needle: &[u8], from: usize) -> Option<usize> {
    if from >= hay.len() {
        return None;
    }
    memchr_find(&hay[from..], needle).map(|i| i + from)
}

fn memchr_find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    memchr::memmem::find(hay, needle)
}

fn contains(hay: &[u8], needle: &[u8]) -> bool {
    memchr_find(hay, needle).is_some()
}

/// Text lines of a content stream: string operands of `Tj`, `TJ`, `'`, `"`; a new line at
/// `T*`, `Td`, `TD`, `Tm`, `ET`, `'` and `"`.
fn show_strings(c: &[u8]) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    let mut pending: Vec<String> = Vec::new();
    let mut i = 0;
    let flush = |line: &mut String, lines: &mut Vec<String>| {
        let t = line.trim().to_string();
        if !t.is_empty() {
            lines.push(t);
        }
        line.clear();
    };
    while i < c.len() {
        match c[i] {
            b'(' => {
                let (s, next) = literal(c, i);
                pending.push(s);
                i = next;
            }
            b'<' if c.get(i + 1) != Some(&b'<') => {
                let end = c[i..]
                    .iter()
                    .position(|&b| b == b'>')
                    .map_or(c.len(), |p| i + p);
                let hex: Vec<u8> = c[i + 1..end]
                    .iter()
                    .copied()
                    .filter(u8::is_ascii_hexdigit)
                    .collect();
                let bytes: Vec<u8> = hex
                    .chunks(2)
                    .filter_map(|p| u8::from_str_radix(&String::from_utf8_lossy(p), 16).ok())
                    .collect();
                pending.push(decode(&bytes));
                i = end + 1;
            }
            b'[' | b']' => i += 1,
            b'%' => {
                while i < c.len() && c[i] != b'\n' && c[i] != b'\r' {
                    i += 1;
                }
            }
            b if b.is_ascii_alphabetic() || b == b'\'' || b == b'"' || b == b'*' => {
                let start = i;
                while i < c.len()
                    && (c[i].is_ascii_alphanumeric() || matches!(c[i], b'\'' | b'"' | b'*'))
                {
                    i += 1;
                }
                let op = &c[start..i];
                match op {
                    b"Tj" | b"TJ" => {
                        for s in pending.drain(..) {
                            line.push_str(&s);
                        }
                    }
                    b"'" | b"\"" => {
                        flush(&mut line, &mut lines);
                        for s in pending.drain(..) {
                            line.push_str(&s);
                        }
                    }
                    b"T*" | b"Td" | b"TD" | b"Tm" | b"ET" | b"BT" => {
                        pending.clear();
                        flush(&mut line, &mut lines);
                    }
                    _ => pending.clear(),
                }
            }
            _ => i += 1,
        }
    }
    flush(&mut line, &mut lines);
    lines
}

/// A literal string at `c[i] == '('`: its decoded text and the index after it.
fn literal(c: &[u8], i: usize) -> (String, usize) {
    let mut depth = 0usize;
    let mut out = Vec::new();
    let mut j = i + 1;
    while j < c.len() {
        match c[j] {
            b'\\' => {
                j += 1;
                match c.get(j) {
                    Some(b'n') => out.push(b'\n'),
                    Some(b'r') => out.push(b'\r'),
                    Some(b't') => out.push(b'\t'),
                    Some(b'b') => out.push(8),
                    Some(b'f') => out.push(12),
                    Some(d @ b'0'..=b'7') => {
                        let mut v = u32::from(d - b'0');
                        for _ in 0..2 {
                            match c.get(j + 1) {
                                Some(d @ b'0'..=b'7') => {
                                    v = v * 8 + u32::from(d - b'0');
                                    j += 1;
                                }
                                _ => break,
                            }
                        }
                        out.push((v & 0xff) as u8);
                    }
                    Some(b'\r' | b'\n') | None => {}
                    Some(&other) => out.push(other),
                }
            }
            b'(' => {
                depth += 1;
                out.push(b'(');
            }
            b')' if depth == 0 => return (decode(&out), j + 1),
            b')' => {
                depth -= 1;
                out.push(b')');
            }
            b => out.push(b),
        }
        j += 1;
    }
    (decode(&out), j)
}

/// PDF string bytes as text: UTF-16BE with its BOM, else PDFDocEncoding/WinAnsi read as Latin-1.
fn decode(b: &[u8]) -> String {
    if b.starts_with(&[0xfe, 0xff]) {
        let units: Vec<u16> = b[2..]
            .chunks(2)
            .map(|p| u16::from_be_bytes([p[0], *p.get(1).unwrap_or(&0)]))
            .collect();
        return String::from_utf16_lossy(&units);
    }
    b.iter().map(|&x| char::from(x)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn docx_paragraphs_join_their_runs() {
        let xml = r#"<w:document><w:body><w:p><w:pPr/><w:r><w:t>Pay </w:t></w:r><w:r><w:t xml:space="preserve">to T&amp;C</w:t></w:r></w:p><w:p/><w:p><w:r><w:t>Tel 98765432</w:t></w:r></w:p></w:body></w:document>"#;
        assert_eq!(
            xml_paragraphs(xml, "w:p", "w:t"),
            ["Pay to T&C", "Tel 98765432"]
        );
    }

    #[test]
    fn pdf_shows_its_strings() {
        let content = b"BT /F1 20 Tf 72 770 Td 24 TL (INVOICE \\(2025\\)) Tj T* [(FUNG) -20 ( CC)] TJ T* <feff00410042> Tj ET";
        let pdf = [
            b"%PDF-1.4\n4 0 obj << /Length 10 >>\nstream\n".as_slice(),
            content,
            b"\nendstream\nendobj\n",
        ]
        .concat();
        assert_eq!(pdf_text(&pdf), ["INVOICE (2025)", "FUNG CC", "AB"]);
    }
}
