//! Property lists (binary `bplist00`, XML, OpenStep text) read into a [`plist::Value`] within
//! bounds that crafted input cannot break.
//!
//! The `plist` crate's event readers are iterative, but a value is a tree: a plist nested
//! thousands of levels deep builds a `Value` whose every later recursive walk (conversion,
//! serialisation, even its `Drop`) can overflow a thread's stack and abort the process. A binary
//! plist can also name one object from many places (shared references), so a few hundred bytes
//! may expand into billions of values. [`read`] therefore builds the value itself, one event at
//! a time on an explicit stack, and stops with a typed error naming the layer and the offset:
//!
//! - collections nested deeper than [`Limits::max_depth`] ([`MAX_DEPTH`]): [`Error::TooDeep`];
//! - more decoded content than [`Limits::max_expanded_bytes`] (each value counts 16 bytes plus
//!   its string or data length): [`Error::TooLarge`];
//! - anything the `plist` crate rejects: [`Error::Corrupt`], "not a readable plist".
//!
//! Offsets: for a binary plist, the offset of the object being read (the reader seeks to each
//! container before reading it); for XML and text plists, the number of bytes the parser had
//! consumed (just past the element or token).

use std::cell::Cell;
use std::io::{BufRead, BufReader, Read, Seek, SeekFrom};
use std::rc::Rc;

use ::plist::stream::{AsciiReader, BinaryReader, Event, OwnedEvent, XmlReader};
use ::plist::{Dictionary, Value};

use crate::{Error, Result};

/// How deep collections may nest. Real property lists stay within a few dozen levels; the bound
/// keeps every recursive walk of the value (and of the JSON made from it, which serde_json reads
/// back with its own limit of 128) far from any stack limit.
pub const MAX_DEPTH: usize = 100;

/// Most decoded content a plist may expand to (see the module documentation).
pub const MAX_EXPANDED_BYTES: u64 = 256 << 20;

/// Bounds of [`read_with`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Deepest nesting of arrays and dictionaries.
    pub max_depth: usize,
    /// Most decoded bytes (16 per value plus string and data lengths).
    pub max_expanded_bytes: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            max_depth: MAX_DEPTH,
            max_expanded_bytes: MAX_EXPANDED_BYTES,
        }
    }
}

/// Reads one property list from `reader` with the default [`Limits`]; `layer` names it in
/// errors (`plist /path/Info.plist`).
pub fn read<R: Read + Seek>(reader: R, layer: &str) -> Result<Value> {
    read_with(reader, layer, Limits::default())
}

/// [`read`] with explicit limits.
pub fn read_with<R: Read + Seek>(mut reader: R, layer: &str, limits: Limits) -> Result<Value> {
    let corrupt = |offset: u64, detail: String| Error::Corrupt {
        layer: layer.to_string(),
        offset,
        detail,
    };
    let io = |e: std::io::Error| corrupt(0, format!("not a readable plist: {e}"));
    let mut magic = [0u8; 8];
    let mut got = 0;
    while got < magic.len() {
        match reader.read(&mut magic[got..]) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(io(e)),
        }
    }
    reader.seek(SeekFrom::Start(0)).map_err(io)?;
    if got == magic.len() && &magic == b"bplist00" {
        let at = Rc::new(Cell::new(0));
        let events = BinaryReader::new(Tracked {
            inner: reader,
            seek_target: at.clone(),
        });
        return build(events, &at, layer, limits);
    }
    // Not binary: XML, or else OpenStep text (the order the `plist` crate tries them in).
    let at = Rc::new(Cell::new(0));
    let mut xml = XmlReader::new(Counted {
        inner: BufReader::new(reader),
        consumed: at.clone(),
    });
    match xml.next() {
        Some(Err(xml_err)) => {
            let mut inner = xml.into_inner().inner.into_inner();
            inner.seek(SeekFrom::Start(0)).map_err(io)?;
            let at = Rc::new(Cell::new(0));
            let mut ascii = AsciiReader::new(Counted {
                inner: BufReader::new(inner),
                consumed: at.clone(),
            });
            match ascii.next() {
                Some(Err(_)) | None => Err(corrupt(0, format!("not a readable plist: {xml_err}"))),
                Some(Ok(first)) => {
                    build(std::iter::once(Ok(first)).chain(ascii), &at, layer, limits)
                }
            }
        }
        None => Err(corrupt(0, "not a readable plist: empty".to_string())),
        Some(Ok(first)) => build(std::iter::once(Ok(first)).chain(xml), &at, layer, limits),
    }
}

/// A binary plist's reader, remembering where it last seeked (the object being read).
struct Tracked<R> {
    inner: R,
    seek_target: Rc<Cell<u64>>,
}

impl<R: Read> Read for Tracked<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        self.inner.read(buf)
    }
}

impl<R: Seek> Seek for Tracked<R> {
    fn seek(&mut self, pos: SeekFrom) -> std::io::Result<u64> {
        let at = self.inner.seek(pos)?;
        self.seek_target.set(at);
        Ok(at)
    }
}

/// A text plist's reader, counting the bytes the parser consumed.
struct Counted<R> {
    inner: R,
    consumed: Rc<Cell<u64>>,
}

impl<R: BufRead> Read for Counted<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.consumed.set(self.consumed.get() + n as u64);
        Ok(n)
    }
}

impl<R: BufRead> BufRead for Counted<R> {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        self.inner.fill_buf()
    }
    fn consume(&mut self, amt: usize) {
        self.inner.consume(amt);
        self.consumed.set(self.consumed.get() + amt as u64);
    }
}

/// A collection being filled.
enum Open {
    Array(Vec<Value>),
    Dict(Dictionary, Option<String>),
}

/// Builds the value from `events` on an explicit stack (see the module documentation).
fn build(
    events: impl Iterator<Item = std::result::Result<OwnedEvent, ::plist::Error>>,
    at: &Cell<u64>,
    layer: &str,
    limits: Limits,
) -> Result<Value> {
    let corrupt = |detail: String| Error::Corrupt {
        layer: layer.to_string(),
        offset: at.get(),
        detail,
    };
    let mut stack: Vec<Open> = Vec::new();
    let mut root: Option<Value> = None;
    let mut expanded = 0u64;
    for event in events {
        let event = event.map_err(|e| corrupt(format!("not a readable plist: {e}")))?;
        expanded = expanded.saturating_add(16 + payload_len(&event));
        if expanded > limits.max_expanded_bytes {
            return Err(Error::TooLarge {
                layer: layer.to_string(),
                offset: at.get(),
                what: "decoded plist content (shared references expanded)".to_string(),
                claimed: expanded,
                limit: limits.max_expanded_bytes,
            });
        }
        let value = match event {
            Event::StartArray(len) | Event::StartDictionary(len) => {
                if stack.len() >= limits.max_depth {
                    return Err(Error::TooDeep {
                        layer: layer.to_string(),
                        offset: at.get(),
                        path: None,
                        what: "plist arrays and dictionaries".to_string(),
                        limit: limits.max_depth as u64,
                    });
                }
                stack.push(match event {
                    Event::StartArray(_) => {
                        // The declared length is untrusted: reserve little up front.
                        let hint = len.unwrap_or(0).min(1024) as usize;
                        Open::Array(Vec::with_capacity(hint))
                    }
                    _ => Open::Dict(Dictionary::new(), None),
                });
                continue;
            }
            Event::EndCollection => match stack.pop() {
                Some(Open::Array(items)) => Value::Array(items),
                Some(Open::Dict(dict, None)) => Value::Dictionary(dict),
                Some(Open::Dict(_, Some(key))) => {
                    return Err(corrupt(format!(
                        "not a readable plist: dictionary ends after key {key:?} without its value"
                    )));
                }
                None => {
                    return Err(corrupt(
                        "not a readable plist: a collection ends that was never opened".into(),
                    ));
                }
            },
            Event::Boolean(b) => Value::Boolean(b),
            Event::Data(d) => Value::Data(d.into_owned()),
            Event::Date(d) => Value::Date(d),
            Event::Integer(i) => Value::Integer(i),
            Event::Real(r) => Value::Real(r),
            Event::String(s) => Value::String(s.into_owned()),
            Event::Uid(u) => Value::Uid(u),
            other => {
                return Err(corrupt(format!(
                    "not a readable plist: unexpected event {other:?}"
                )));
            }
        };
        match stack.last_mut() {
            None if root.is_none() => root = Some(value),
            None => {
                return Err(corrupt(
                    "not a readable plist: more than one top-level value".into(),
                ));
            }
            Some(Open::Array(items)) => items.push(value),
            Some(Open::Dict(_, key @ None)) => match value {
                Value::String(k) => *key = Some(k),
                _ => {
                    return Err(corrupt(
                        "not a readable plist: a dictionary key is not a string".into(),
                    ));
                }
            },
            Some(Open::Dict(dict, key @ Some(_))) => {
                if let Some(k) = key.take() {
                    dict.insert(k, value);
                }
            }
        }
    }
    if !stack.is_empty() {
        return Err(corrupt(format!(
            "not a readable plist: ends inside {} open collection(s)",
            stack.len()
        )));
    }
    root.ok_or_else(|| corrupt("not a readable plist: no value".into()))
}

fn payload_len(event: &OwnedEvent) -> u64 {
    match event {
        Event::Data(d) => d.len() as u64,
        Event::String(s) => s.len() as u64,
        _ => 0,
    }
}

#[cfg(test)]
mod tests {
    use std::io::Cursor;

    use super::*;

    /// A binary plist of the encoded `objects` (object 0 the top), with its offset table and
    /// trailer (two-byte offsets, one-byte references).
    fn bplist(objects: &[Vec<u8>]) -> Vec<u8> {
        let mut out = b"bplist00".to_vec();
        let mut offsets = Vec::new();
        for o in objects {
            offsets.push(out.len());
            out.extend_from_slice(o);
        }
        let table = out.len();
        for o in &offsets {
            out.extend_from_slice(&(*o as u16).to_be_bytes());
        }
        out.extend_from_slice(&[0; 6]);
        out.extend_from_slice(&[2, 1]);
        out.extend_from_slice(&(offsets.len() as u64).to_be_bytes());
        out.extend_from_slice(&0u64.to_be_bytes());
        out.extend_from_slice(&(table as u64).to_be_bytes());
        out
    }

    /// A binary plist of `depth` one-element arrays around the string "leaf": object `i` is the
    /// array holding object `i + 1` (one-byte references; depth below 255).
    fn nested_bplist(depth: usize) -> Vec<u8> {
        assert!(depth < 255);
        let mut objects: Vec<Vec<u8>> = (0..depth).map(|i| vec![0xa1, (i + 1) as u8]).collect();
        objects.push(b"\x54leaf".to_vec());
        bplist(&objects)
    }

    fn limits(max_depth: usize) -> Limits {
        Limits {
            max_depth,
            ..Limits::default()
        }
    }

    #[test]
    fn nesting_within_the_limit_is_read() {
        let v = read_with(Cursor::new(nested_bplist(5)), "plist t", limits(5)).unwrap();
        let mut v = &v;
        for _ in 0..5 {
            v = &v.as_array().unwrap()[0];
        }
        assert_eq!(v.as_string(), Some("leaf"));
    }

    #[test]
    fn nesting_past_the_limit_names_the_object_offset() {
        let bytes = nested_bplist(6);
        match read_with(Cursor::new(bytes), "plist t", limits(5)) {
            // The sixth array is object 5, written at 8 + 5 * 2.
            Err(Error::TooDeep {
                offset: 18,
                limit: 5,
                ..
            }) => {}
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn xml_nesting_past_the_limit_names_the_offset() {
        let xml = format!(
            "<?xml version=\"1.0\"?><plist version=\"1.0\">{}<true/>{}</plist>",
            "<array>".repeat(4),
            "</array>".repeat(4)
        );
        let head = "<?xml version=\"1.0\"?><plist version=\"1.0\">".len() as u64;
        match read_with(Cursor::new(xml.into_bytes()), "plist t", limits(3)) {
            Err(Error::TooDeep { offset, .. }) => assert_eq!(offset, head + 4 * 7),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn shared_references_cannot_expand_without_bound() {
        // Object i (0..40) is an array naming object i+1 twice; object 40 is an empty array:
        // 2^40 values from 122 bytes.
        let n = 40usize;
        let mut objects: Vec<Vec<u8>> = (0..n)
            .map(|i| vec![0xa2, (i + 1) as u8, (i + 1) as u8])
            .collect();
        objects.push(vec![0xa0]);
        let out = bplist(&objects);
        let small = Limits {
            max_depth: 100,
            max_expanded_bytes: 1 << 20,
        };
        match read_with(Cursor::new(out), "plist t", small) {
            Err(Error::TooLarge { limit, .. }) => assert_eq!(limit, 1 << 20),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn text_that_is_no_plist_is_corrupt() {
        for bad in [&b""[..], b"bplist00", b"<plist><array>", b"{ a = "] {
            match read(Cursor::new(bad.to_vec()), "plist t") {
                Err(Error::Corrupt { detail, .. }) => {
                    assert!(detail.contains("not a readable plist"), "{detail}")
                }
                other => panic!("{bad:?}: {other:?}"),
            }
        }
        let v = read(Cursor::new(b"{ a = (1, 2); }".to_vec()), "plist t").unwrap();
        assert_eq!(v.as_dictionary().unwrap()["a"].as_array().unwrap().len(), 2);
    }
}
