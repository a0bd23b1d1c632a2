//! Twitter's Serial streams (the `com.twitter.serial` library's `ByteBufferSerializerOutput`),
//! decoded without their classes into JSON: X (Twitter) for Android keeps its direct messages
//! this way (`conversation_entries.data` of `<user id>-66.db`), and other rows of its stores.
//!
//! A stream is a sequence of values, each led by a header byte: its type in the high five bits
//! (byte, int, long, float, double, boolean, null, UTF-8 string, object start, debug object
//! start, object end, ASCII string, byte array) and a subtype in the low three saying how the
//! number or length that follows is written (zero, one byte, a big-endian short, int or long).
//! An object is a version number, its values in the order the class wrote them, and an end
//! header; its fields carry no names. Decoded: an object as `{"@version": n, "@values": [...]}`
//! (a debug object's class name as `"@class"`), strings as strings, numbers as numbers,
//! booleans, null, a byte array as `{"@bytes": "<hex>"}`.
//!
//! Written by hand: no maintained Rust crate reads this format. Nesting is bounded
//! ([`MAX_DEPTH`]), so are the values ([`MAX_VALUES`]); every length is checked against the
//! bytes left before it is read; an error names the byte offset. A cell decodes only when it is
//! one object from its first byte to its last.

use serde_json::{Value, json};

/// Deepest nesting of objects.
pub const MAX_DEPTH: usize = 64;

/// Most values in one stream.
pub const MAX_VALUES: usize = 100_000;

const TYPE_BYTE: u8 = 1;
const TYPE_INT: u8 = 2;
const TYPE_LONG: u8 = 3;
const TYPE_FLOAT: u8 = 4;
const TYPE_DOUBLE: u8 = 5;
const TYPE_BOOLEAN: u8 = 6;
const TYPE_NULL: u8 = 7;
const TYPE_STRING_UTF8: u8 = 8;
const TYPE_START_OBJECT: u8 = 9;
const TYPE_START_OBJECT_DEBUG: u8 = 10;
const TYPE_END_OBJECT: u8 = 11;
const TYPE_STRING_ASCII: u8 = 13;
const TYPE_BYTE_ARRAY: u8 = 14;

const SUBTYPE_DEFAULT: u8 = 1;
const SUBTYPE_BYTE: u8 = 2;
const SUBTYPE_SHORT: u8 = 3;
const SUBTYPE_INT: u8 = 4;
const SUBTYPE_LONG: u8 = 5;

/// Why a stream does not decode, and where.
pub use crate::byte_error::ByteError as Error;

struct Reader<'a> {
    b: &'a [u8],
    pos: usize,
    values: usize,
}

impl<'a> Reader<'a> {
    fn fail<T>(&self, at: usize, reason: impl Into<String>) -> Result<T, Error> {
        Err(Error {
            offset: at,
            reason: reason.into(),
        })
    }

    fn take(&mut self, n: usize) -> Result<&'a [u8], Error> {
        if self.b.len() - self.pos < n {
            return self.fail(
                self.pos,
                format!(
                    "{n} bytes needed, {} left (truncated)",
                    self.b.len() - self.pos
                ),
            );
        }
        let s = &self.b[self.pos..self.pos + n];
        self.pos += n;
        Ok(s)
    }

    /// The next header: (type, subtype).
    fn header(&mut self) -> Result<(u8, u8), Error> {
        let h = self.take(1)?[0];
        Ok((h >> 3, h & 7))
    }

    /// The number a header's subtype says follows (an int).
    fn int(&mut self, sub: u8, at: usize) -> Result<i64, Error> {
        Ok(match sub {
            SUBTYPE_DEFAULT => 0,
            SUBTYPE_BYTE => i64::from(self.take(1)?[0]),
            SUBTYPE_SHORT => {
                let s = self.take(2)?;
                i64::from(u16::from_be_bytes([s[0], s[1]]))
            }
            SUBTYPE_INT => {
                let s = self.take(4)?;
                i64::from(i32::from_be_bytes([s[0], s[1], s[2], s[3]]))
            }
            other => return self.fail(at, format!("subtype {other} is no int encoding")),
        })
    }

    /// A length: an int that is not negative and fits in what is left.
    fn length(&mut self, sub: u8, at: usize) -> Result<usize, Error> {
        let n = self.int(sub, at)?;
        let left = self.b.len() - self.pos;
        match usize::try_from(n) {
            Ok(n) if n <= left => Ok(n),
            _ => self.fail(at, format!("length {n} with {left} bytes left")),
        }
    }

    fn value(&mut self, depth: usize) -> Result<Value, Error> {
        self.values += 1;
        if self.values > MAX_VALUES {
            return self.fail(self.pos, format!("more than {MAX_VALUES} values"));
        }
        let at = self.pos;
        let (ty, sub) = self.header()?;
        Ok(match ty {
            TYPE_BYTE => match sub {
                SUBTYPE_DEFAULT => json!(0),
                _ => json!(self.take(1)?[0] as i8),
            },
            TYPE_INT => json!(self.int(sub, at)?),
            TYPE_LONG => match sub {
                SUBTYPE_LONG => {
                    let s = self.take(8)?;
                    json!(i64::from_be_bytes(s.try_into().expect("8 bytes")))
                }
                _ => json!(self.int(sub, at)? & 0xFFFF_FFFF),
            },
            TYPE_FLOAT => match sub {
                SUBTYPE_DEFAULT => json!(0.0),
                _ => {
                    let s = self.take(4)?;
                    float(f64::from(f32::from_be_bytes(
                        s.try_into().expect("4 bytes"),
                    )))
                }
            },
            TYPE_DOUBLE => match sub {
                SUBTYPE_DEFAULT => json!(0.0),
                _ => {
                    let s = self.take(8)?;
                    float(f64::from_be_bytes(s.try_into().expect("8 bytes")))
                }
            },
            TYPE_BOOLEAN => json!(sub == SUBTYPE_DEFAULT),
            TYPE_NULL => Value::Null,
            TYPE_STRING_UTF8 => {
                let n = self.length(sub, at)?;
                let s = self.take(n)?;
                match std::str::from_utf8(s) {
                    Ok(s) => json!(s),
                    Err(e) => return self.fail(at, format!("string is no UTF-8: {e}")),
                }
            }
            TYPE_STRING_ASCII => {
                let n = self.length(sub, at)?;
                // as the library reads it: each byte one character
                json!(self.take(n)?.iter().map(|&c| c as char).collect::<String>())
            }
            TYPE_BYTE_ARRAY => {
                let n = self.length(sub, at)?;
                let hex: String = self.take(n)?.iter().map(|b| format!("{b:02x}")).collect();
                json!({ "@bytes": hex })
            }
            TYPE_START_OBJECT | TYPE_START_OBJECT_DEBUG => {
                if depth >= MAX_DEPTH {
                    return self.fail(at, format!("objects nested deeper than {MAX_DEPTH}"));
                }
                let version = self.int(sub, at)?;
                let mut o = serde_json::Map::new();
                o.insert("@version".into(), json!(version));
                if ty == TYPE_START_OBJECT_DEBUG {
                    let name = self.value(depth + 1)?;
                    if !name.is_string() {
                        return self.fail(at, "a debug object's class name is no string");
                    }
                    o.insert("@class".into(), name);
                }
                let mut values = Vec::new();
                loop {
                    if self.pos >= self.b.len() {
                        return self.fail(self.pos, "object not ended (truncated)");
                    }
                    if self.b[self.pos] >> 3 == TYPE_END_OBJECT {
                        self.pos += 1;
                        break;
                    }
                    values.push(self.value(depth + 1)?);
                }
                o.insert("@values".into(), Value::Array(values));
                Value::Object(o)
            }
            TYPE_END_OBJECT => return self.fail(at, "object end outside an object"),
            other => return self.fail(at, format!("unknown value type {other}")),
        })
    }
}

/// A float as a JSON number (a non-finite one as its name).
fn float(f: f64) -> Value {
    serde_json::Number::from_f64(f).map_or_else(|| json!(f.to_string()), Value::Number)
}

/// The stream `b` — one object from its first byte to its last — decoded.
pub fn decode(b: &[u8]) -> Result<Value, Error> {
    let mut r = Reader {
        b,
        pos: 0,
        values: 0,
    };
    match b.first().map(|h| h >> 3) {
        Some(TYPE_START_OBJECT | TYPE_START_OBJECT_DEBUG) => {}
        Some(t) => return r.fail(0, format!("starts with a value of type {t}, not an object")),
        None => return r.fail(0, "empty"),
    }
    let v = r.value(0)?;
    if r.pos != b.len() {
        return r.fail(r.pos, format!("{} bytes after the object", b.len() - r.pos));
    }
    Ok(v)
}

/// A cell that is a Serial stream, as one line of JSON; `None` when it is not one.
pub fn cell(b: &[u8]) -> Option<String> {
    decode(b).ok().map(|v| v.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn h(ty: u8, sub: u8) -> u8 {
        (ty << 3) | sub
    }

    #[test]
    fn values_of_every_type_decode() {
        let mut b = vec![h(TYPE_START_OBJECT_DEBUG, SUBTYPE_BYTE), 3];
        b.extend([h(TYPE_STRING_ASCII, SUBTYPE_BYTE), 3]);
        b.extend(b"Foo");
        b.extend([h(TYPE_BYTE, 0), 0xFF, h(TYPE_BYTE, SUBTYPE_DEFAULT)]);
        b.extend([h(TYPE_INT, SUBTYPE_SHORT), 0x01, 0x00]);
        b.extend([h(TYPE_INT, SUBTYPE_INT), 0xFF, 0xFF, 0xFF, 0xFE]);
        b.extend([h(TYPE_LONG, SUBTYPE_LONG), 0, 0, 0, 1, 0, 0, 0, 0]);
        b.extend([h(TYPE_LONG, SUBTYPE_INT), 0xFF, 0xFF, 0xFF, 0xFF]);
        b.extend([h(TYPE_FLOAT, 0), 0x3F, 0xC0, 0, 0]);
        b.extend([h(TYPE_DOUBLE, SUBTYPE_DEFAULT)]);
        b.extend([h(TYPE_BOOLEAN, 1), h(TYPE_BOOLEAN, 0), h(TYPE_NULL, 0)]);
        b.extend([h(TYPE_STRING_UTF8, SUBTYPE_BYTE), 4]);
        b.extend("é!!".as_bytes());
        b.extend([h(TYPE_BYTE_ARRAY, SUBTYPE_BYTE), 2, 0xDE, 0xAD]);
        b.extend([h(TYPE_START_OBJECT, SUBTYPE_DEFAULT), h(TYPE_END_OBJECT, 0)]);
        b.push(h(TYPE_END_OBJECT, 0));
        let v = decode(&b).unwrap();
        assert_eq!(
            v,
            json!({"@version": 3, "@class": "Foo", "@values": [
                -1, 0, 256, -2, 4294967296_i64, 4294967295_i64, 1.5, 0.0, true, false, null,
                "é!!", {"@bytes": "dead"}, {"@version": 0, "@values": []}
            ]})
        );
    }

    #[test]
    fn hostile_streams_are_errors_with_offsets() {
        let obj = h(TYPE_START_OBJECT, SUBTYPE_DEFAULT);
        let end = h(TYPE_END_OBJECT, 0);
        // a length past the end
        let e = decode(&[
            obj,
            h(TYPE_STRING_UTF8, SUBTYPE_INT),
            0x7F,
            0xFF,
            0xFF,
            0xFF,
        ])
        .unwrap_err();
        assert_eq!(e.offset, 1, "{e}");
        assert!(e.reason.contains("length 2147483647"), "{e}");
        // a negative length
        let e = decode(&[
            obj,
            h(TYPE_BYTE_ARRAY, SUBTYPE_INT),
            0xFF,
            0xFF,
            0xFF,
            0xFF,
            end,
        ])
        .unwrap_err();
        assert!(e.reason.contains("length -1"), "{e}");
        // no end
        assert!(
            decode(&[obj, h(TYPE_NULL, 0)])
                .unwrap_err()
                .reason
                .contains("not ended")
        );
        // trailing bytes, a leading scalar, an unknown type, an end alone, invalid UTF-8
        assert_eq!(decode(&[obj, end, 0]).unwrap_err().offset, 2);
        assert!(decode(&[h(TYPE_INT, 1)]).is_err());
        assert!(
            decode(&[obj, 0xF8, end])
                .unwrap_err()
                .reason
                .contains("unknown")
        );
        assert!(decode(&[end]).is_err());
        assert!(decode(&[obj, h(TYPE_STRING_UTF8, SUBTYPE_BYTE), 1, 0xFF, end]).is_err());
        assert!(decode(&[]).is_err());
        // nesting past the bound
        let mut deep = vec![obj; MAX_DEPTH + 2];
        deep.extend(vec![end; MAX_DEPTH + 2]);
        assert!(decode(&deep).unwrap_err().reason.contains("deeper"));
        // a stream of many values stops at the bound
        let mut many = vec![obj];
        many.extend(vec![h(TYPE_NULL, 0); MAX_VALUES + 1]);
        many.push(end);
        assert!(decode(&many).unwrap_err().reason.contains("more than"));
    }

    #[test]
    fn no_truncation_or_flip_panics() {
        let mut b = vec![h(TYPE_START_OBJECT, SUBTYPE_DEFAULT)];
        b.extend([h(TYPE_LONG, SUBTYPE_LONG), 9, 84, 67, 193, 204, 22, 80, 3]);
        b.extend([h(TYPE_STRING_ASCII, SUBTYPE_BYTE), 5]);
        b.extend(b"Hello");
        b.extend([
            h(TYPE_START_OBJECT, SUBTYPE_DEFAULT),
            h(TYPE_INT, SUBTYPE_BYTE),
            30,
        ]);
        b.extend([
            h(TYPE_END_OBJECT, 0),
            h(TYPE_NULL, 0),
            h(TYPE_END_OBJECT, 0),
        ]);
        assert!(decode(&b).is_ok());
        for n in 0..b.len() {
            assert!(decode(&b[..n]).is_err());
        }
        for i in 0..b.len() {
            for bit in 0..8 {
                let mut c = b.clone();
                c[i] ^= 1 << bit;
                let _ = decode(&c);
            }
        }
    }
}
