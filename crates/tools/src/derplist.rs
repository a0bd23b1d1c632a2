//! DER-encoded cells decoded into JSON, for `sqlite_query`'s `der` option: Apple's DER property
//! lists (the Security framework's `der_plist` encoding, which keychain syncing and escrow
//! records use) and the structures that wrap them (an Octagon / SOS peer's `SOSPeerInfo`: a
//! SEQUENCE holding its gestalt dictionary, then a signature). iOS keeps a trusted peer's
//! device name, model, OS version and serial number this way (`TrustedPeersHelper.db`,
//! `ZESCROWMETADATA.ZPEERINFO`).
//!
//! Apple's encoding: a dictionary is a SET of SEQUENCE {key, value} pairs, an array a SEQUENCE,
//! a string a UTF8String, a number an INTEGER, a boolean a BOOLEAN, a date a GeneralizedTime, data
//! an OCTET STRING, null a NULL. Decoded: a SET whose every element is a two-element SEQUENCE led
//! by a string becomes a JSON object (sorted keys; a repeated key keeps its first value); any
//! other SEQUENCE or SET an array; strings (UTF8String, PrintableString, IA5String,
//! VisibleString, NumericString) strings; an INTEGER a number (`{"$int_hex"}` beyond 64 bits); a
//! GeneralizedTime an RFC 3339 string where it reads as one (else as written); an OCTET STRING
//! `{"$data_hex"}` (as `parse_plist` writes data); any other element `{"$tag", "$value"}` (its
//! children, or its content's hex).
//!
//! The TLV headers are read by the RustCrypto `der` crate (definite, minimal lengths, as DER
//! requires); the walk over them into JSON is this module's. Nesting is bounded ([`MAX_DEPTH`]);
//! an error names the byte offset. A cell decodes only when it is one SEQUENCE or SET from its
//! first byte to its last.

use der::asn1::AnyRef;
use der::{Reader, SliceReader, Tag, Tagged};
use serde_json::{Map, Value, json};

/// Deepest nesting of constructed elements.
pub const MAX_DEPTH: usize = 64;

/// Why a blob does not decode, and where.
pub use crate::byte_error::ByteError as Error;

/// A `der` error at `base` plus the position it names.
fn err(base: usize, e: der::Error) -> Error {
    Error {
        offset: base + e.position().map(|p| u32::from(p) as usize).unwrap_or(0),
        reason: e.kind().to_string(),
    }
}

/// The elements of `bytes` (the content of a constructed element starting at `base`).
fn elements(bytes: &[u8], base: usize) -> Result<Vec<(usize, AnyRef<'_>)>, Error> {
    let mut r = SliceReader::new(bytes).map_err(|e| err(base, e))?;
    let mut out = Vec::new();
    while !r.is_finished() {
        let at = base + u32::from(r.position()) as usize;
        let any: AnyRef<'_> = r.decode().map_err(|e| err(at, e))?;
        out.push((at, any));
    }
    Ok(out)
}

/// Where an element's content starts: after its header (one tag byte, then a short or long length).
fn content_offset(at: usize, any: &AnyRef<'_>) -> usize {
    let len = any.value().len();
    let len_bytes = if len < 0x80 {
        1
    } else {
        1 + (usize::BITS - len.leading_zeros()).div_ceil(8) as usize
    };
    at + 1 + len_bytes
}

fn string(any: &AnyRef<'_>, at: usize) -> Result<Value, Error> {
    std::str::from_utf8(any.value())
        .map(|s| Value::String(s.to_string()))
        .map_err(|e| Error {
            offset: content_offset(at, any) + e.valid_up_to(),
            reason: "a string that is not UTF-8".into(),
        })
}

/// A GeneralizedTime (`YYYYMMDDHHMMSS[.fff]Z`) as RFC 3339.
fn generalized_time(s: &str) -> Option<String> {
    let s = s.strip_suffix('Z')?;
    let (main, frac) = s.split_once('.').unwrap_or((s, ""));
    if main.len() != 14 || !main.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    if !frac.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let text = format!(
        "{}-{}-{}T{}:{}:{}{}{}Z",
        &main[0..4],
        &main[4..6],
        &main[6..8],
        &main[8..10],
        &main[10..12],
        &main[12..14],
        if frac.is_empty() { "" } else { "." },
        frac
    );
    text.parse::<jiff::Timestamp>().ok().map(|t| t.to_string())
}

/// An INTEGER's two's-complement content as a number when it fits 64 bits.
fn integer(v: &[u8]) -> Value {
    if v.is_empty() || v.len() > 8 {
        return json!({"$int_hex": hex::encode(v)});
    }
    let mut n: i64 = if v[0] & 0x80 != 0 { -1 } else { 0 };
    for b in v {
        n = (n << 8) | i64::from(*b);
    }
    json!(n)
}

fn element(any: &AnyRef<'_>, at: usize, depth: usize) -> Result<Value, Error> {
    if depth > MAX_DEPTH {
        return Err(Error {
            offset: at,
            reason: format!("nested deeper than {MAX_DEPTH}"),
        });
    }
    let tag = any.tag();
    let inner = || elements(any.value(), content_offset(at, any));
    Ok(match tag {
        Tag::Set => {
            let kids = inner()?;
            let mut values = Vec::with_capacity(kids.len());
            for (o, k) in &kids {
                values.push((k, element(k, *o, depth + 1)?));
            }
            // a dictionary: every element a SEQUENCE {string key, value}
            let pairs: Option<Vec<(String, Value)>> = values
                .iter()
                .map(|(k, v)| match (k.tag(), v) {
                    (Tag::Sequence, Value::Array(kv)) if kv.len() == 2 => {
                        kv[0].as_str().map(|key| (key.to_string(), kv[1].clone()))
                    }
                    _ => None,
                })
                .collect();
            match pairs {
                Some(pairs) if !pairs.is_empty() => {
                    let mut m = Map::new();
                    for (k, v) in pairs {
                        m.entry(k).or_insert(v);
                    }
                    Value::Object(m)
                }
                _ => Value::Array(values.into_iter().map(|(_, v)| v).collect()),
            }
        }
        Tag::Sequence => Value::Array(
            inner()?
                .iter()
                .map(|(o, k)| element(k, *o, depth + 1))
                .collect::<Result<_, _>>()?,
        ),
        Tag::Utf8String
        | Tag::PrintableString
        | Tag::Ia5String
        | Tag::VisibleString
        | Tag::NumericString => string(any, at)?,
        Tag::GeneralizedTime => {
            let s = string(any, at)?;
            match s.as_str().and_then(generalized_time) {
                Some(t) => Value::String(t),
                None => s,
            }
        }
        Tag::Integer => integer(any.value()),
        Tag::Boolean => Value::Bool(any.value().iter().any(|b| *b != 0)),
        Tag::Null => Value::Null,
        Tag::OctetString => json!({"$data_hex": hex::encode(any.value())}),
        other => {
            let value = if other.is_constructed() {
                Value::Array(
                    inner()?
                        .iter()
                        .map(|(o, k)| element(k, *o, depth + 1))
                        .collect::<Result<_, _>>()?,
                )
            } else {
                Value::String(hex::encode(any.value()))
            };
            json!({"$tag": other.to_string(), "$value": value})
        }
    })
}

/// Decodes a blob that is one DER SEQUENCE or SET, first byte to last.
pub fn decode(b: &[u8]) -> Result<Value, Error> {
    match b.first() {
        Some(0x30 | 0x31) => {}
        Some(t) => {
            return Err(Error {
                offset: 0,
                reason: format!("tag 0x{t:02x} is not a SEQUENCE or SET"),
            });
        }
        None => {
            return Err(Error {
                offset: 0,
                reason: "empty".into(),
            });
        }
    }
    let top = elements(b, 0)?;
    match top.as_slice() {
        [(at, any)] => element(any, *at, 0),
        _ => Err(Error {
            offset: top.get(1).map(|(o, _)| *o).unwrap_or(0),
            reason: "bytes after the first element".into(),
        }),
    }
}

/// A cell's JSON on one line, when it decodes.
pub fn cell(b: &[u8]) -> Option<String> {
    decode(b).ok().map(|v| v.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// DER written by OpenSSL's `asn1parse -genconf` (a real encoder), from a config.
    fn openssl(conf: &str) -> Vec<u8> {
        let dir = tempfile::tempdir().unwrap();
        let c = dir.path().join("c.cnf");
        let out = dir.path().join("o.der");
        std::fs::write(&c, conf).unwrap();
        let st = std::process::Command::new("openssl")
            .args(["asn1parse", "-genconf"])
            .arg(&c)
            .arg("-out")
            .arg(&out)
            .stdout(std::process::Stdio::null())
            .status()
            .expect("openssl (scripts/setup.sh installs it)");
        assert!(st.success());
        std::fs::read(out).unwrap()
    }

    /// A peer's gestalt dictionary wrapped as SOSPeerInfo wraps it (a SEQUENCE with the
    /// dictionary, then a signature).
    const PEER: &str = "asn1 = SEQUENCE:peer\n\
[peer]\n\
g = SET:gestalt\n\
v = INTEGER:2\n\
sig = FORMAT:HEX,OCTETSTRING:3045022100ab\n\
[gestalt]\n\
a = SEQUENCE:k1\n\
b = SEQUENCE:k2\n\
c = SEQUENCE:k3\n\
d = SEQUENCE:k4\n\
e = SEQUENCE:k5\n\
f = SEQUENCE:k6\n\
[k1]\n\
k = UTF8:ComputerName\n\
v = FORMAT:UTF8,UTF8:Anna’s MacBook Air\n\
[k2]\n\
k = UTF8:ModelName\n\
v = UTF8:MacBookAir10,1\n\
[k3]\n\
k = UTF8:OSVersion\n\
v = UTF8:Mac OS X 14.5 (23F79)\n\
[k4]\n\
k = UTF8:SerialNumber\n\
v = UTF8:C02ZK1ABMD6M\n\
[k5]\n\
k = UTF8:Updated\n\
v = GENTIME:20240611093015Z\n\
[k6]\n\
k = UTF8:Syncing\n\
v = BOOLEAN:TRUE\n";

    #[test]
    fn a_peer_gestalt_written_by_openssl_decodes_to_its_dictionary() {
        let b = openssl(PEER);
        let v = decode(&b).unwrap();
        let g = &v[0];
        assert_eq!(g["ComputerName"], "Anna’s MacBook Air");
        assert_eq!(g["ModelName"], "MacBookAir10,1");
        assert_eq!(g["OSVersion"], "Mac OS X 14.5 (23F79)");
        assert_eq!(g["SerialNumber"], "C02ZK1ABMD6M");
        assert_eq!(g["Updated"], "2024-06-11T09:30:15Z");
        assert_eq!(g["Syncing"], true);
        assert_eq!(v[1], 2);
        assert_eq!(v[2]["$data_hex"], "3045022100ab");
        assert!(cell(&b).unwrap().contains("C02ZK1ABMD6M"));
    }

    #[test]
    fn integers_arrays_and_other_tags_decode() {
        let b = openssl(
            "asn1 = SEQUENCE:s\n[s]\na = INTEGER:-129\nb = INTEGER:0x0123456789abcdef01\nc = SET:plain\nd = NULL\ne = IMPLICIT:3,UTF8:x\nf = PRINTABLESTRING:AB12\n[plain]\nx = INTEGER:1\ny = INTEGER:2\n",
        );
        let v = decode(&b).unwrap();
        assert_eq!(v[0], -129);
        assert_eq!(v[1]["$int_hex"], "0123456789abcdef01");
        assert_eq!(v[2], json!([1, 2]));
        assert_eq!(v[3], Value::Null);
        assert_eq!(v[4]["$value"], "78");
        assert_eq!(v[5], "AB12");
    }

    #[test]
    fn truncated_trailing_and_foreign_blobs_are_errors_with_offsets() {
        let b = openssl(PEER);
        for cut in [1, 2, b.len() / 2, b.len() - 1] {
            let e = decode(&b[..cut]).unwrap_err();
            // the offset of the header whose length runs past the end, or of the end
            assert!(e.offset <= cut + 2, "{cut}: {e}");
            assert!(e.to_string().contains("incomplete"), "{cut}: {e}");
        }
        let mut extra = b.clone();
        extra.extend([0x05, 0x00]);
        let e = decode(&extra).unwrap_err();
        assert_eq!(e.offset, b.len());
        assert!(e.reason.contains("after"), "{e}");
        assert_eq!(decode(b"bplist00").unwrap_err().offset, 0);
        assert!(decode(&[]).is_err());
        assert!(cell(b"\x30\x03\x0c\x02\xff").is_none());
        // a string that is not UTF-8: its offset is the bad byte's
        let e = decode(b"\x30\x04\x0c\x02a\xff").unwrap_err();
        assert_eq!(e.offset, 5, "{e}");
    }

    #[test]
    fn nesting_is_bounded() {
        let mut b = vec![0x05, 0x00];
        for _ in 0..(MAX_DEPTH + 2) {
            let mut outer = vec![0x30, b.len() as u8];
            if b.len() >= 0x80 {
                outer = vec![0x30, 0x81, b.len() as u8];
            }
            outer.extend(&b);
            b = outer;
        }
        let e = decode(&b).unwrap_err();
        assert!(e.reason.contains("deeper"), "{e}");
    }
}
