//! SQLite's record format (sqlite.org/fileformat2, §2.1 "Record Format"): varints, serial
//! types and the values they give, and column affinity — read from raw page bytes by
//! `sqlite_wal_history` and its free-space carving (hand-written: no maintained crate reads
//! records outside SQLite).

use rusqlite::types::ValueRef;

/// A varint at `at` of `b`: its value and length.
pub(crate) fn varint(b: &[u8], at: usize) -> Option<(u64, usize)> {
    let mut v: u64 = 0;
    for i in 0..9 {
        let byte = *b.get(at + i)?;
        if i == 8 {
            return Some(((v << 8) | byte as u64, 9));
        }
        v = (v << 7) | (byte & 0x7f) as u64;
        if byte & 0x80 == 0 {
            return Some((v, i + 1));
        }
    }
    None
}

/// One value of a record.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Cell {
    Null,
    Int(i64),
    Real(f64),
    Text(Vec<u8>),
    Blob(Vec<u8>),
}

impl Cell {
    pub(crate) fn as_ref(&self) -> ValueRef<'_> {
        match self {
            Cell::Null => ValueRef::Null,
            Cell::Int(i) => ValueRef::Integer(*i),
            Cell::Real(f) => ValueRef::Real(*f),
            Cell::Text(t) => ValueRef::Text(t),
            Cell::Blob(b) => ValueRef::Blob(b),
        }
    }
}

/// The values of a record.
pub(crate) fn record(b: &[u8]) -> Result<Vec<Cell>, String> {
    record_len(b).map(|(v, _)| v)
}

/// The values of the record at the start of `b` and how many bytes it spans (header and body).
pub(crate) fn record_len(b: &[u8]) -> Result<(Vec<Cell>, usize), String> {
    let (header_len, n) = varint(b, 0).ok_or("record header length")?;
    let header_len = header_len as usize;
    if header_len > b.len() || header_len < n {
        return Err("record header past the record".into());
    }
    let mut types = Vec::new();
    let mut at = n;
    while at < header_len {
        let (t, n) = varint(b, at).ok_or("serial type past the header")?;
        types.push(t);
        at += n;
    }
    if at != header_len {
        return Err("serial type past the header".into());
    }
    values(&types, &b[header_len..]).map(|(v, used)| (v, header_len + used))
}

/// How many values the record at the start of `b` has, from its header alone (the body may be
/// past `b`'s end, on overflow pages).
pub(crate) fn value_count(b: &[u8]) -> Option<usize> {
    let (header_len, k) = varint(b, 0)?;
    let end = usize::try_from(header_len).ok()?.min(b.len());
    let mut at = k;
    let mut count = 0usize;
    while at < end {
        at += varint(b, at)?.1;
        count += 1;
    }
    Some(count)
}

/// The values serial types `types` give to the body at the start of `b`, and the body's length.
pub(crate) fn values(types: &[u64], b: &[u8]) -> Result<(Vec<Cell>, usize), String> {
    let mut body = 0usize;
    let mut out = Vec::with_capacity(types.len());
    for &t in types {
        let size = match t {
            0 | 8 | 9 => 0,
            1 => 1,
            2 => 2,
            3 => 3,
            4 => 4,
            5 => 6,
            6 | 7 => 8,
            10 | 11 => return Err(format!("reserved serial type {t}")),
            t => usize::try_from((t - 12) / 2).map_err(|_| "value size")?,
        };
        let v = b
            .get(body..body.saturating_add(size))
            .ok_or("value past the record")?;
        body += size;
        out.push(match t {
            0 => Cell::Null,
            8 => Cell::Int(0),
            9 => Cell::Int(1),
            1..=6 => {
                let mut x: i64 = if v[0] & 0x80 != 0 { -1 } else { 0 };
                for byte in v {
                    x = (x << 8) | *byte as i64;
                }
                Cell::Int(x)
            }
            7 => Cell::Real(f64::from_be_bytes(v.try_into().map_err(|_| "real")?)),
            t if t % 2 == 0 => Cell::Blob(v.to_vec()),
            _ => Cell::Text(v.to_vec()),
        });
    }
    Ok((out, body))
}

/// A column's type affinity (SQLite's rules, in their order: `INT` makes INTEGER,
/// `CHAR`/`CLOB`/`TEXT` TEXT, `BLOB` or none BLOB, then `REAL`/`FLOA`/`DOUB` REAL, else NUMERIC).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Affinity {
    Integer,
    Text,
    Blob,
    Real,
    Numeric,
}

pub(crate) fn affinity(declared: &str) -> Affinity {
    let t = declared.to_ascii_uppercase();
    if t.contains("INT") {
        Affinity::Integer
    } else if t.contains("CHAR") || t.contains("CLOB") || t.contains("TEXT") {
        Affinity::Text
    } else if t.contains("BLOB") || t.trim().is_empty() {
        Affinity::Blob
    } else if t.contains("REAL") || t.contains("FLOA") || t.contains("DOUB") {
        Affinity::Real
    } else {
        Affinity::Numeric
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn varints_and_records_read_as_sqlite_writes_them() {
        assert_eq!(varint(&[0x7f], 0), Some((0x7f, 1)));
        assert_eq!(varint(&[0x81, 0x00], 0), Some((0x80, 2)));
        assert_eq!(varint(&[0xff; 9], 0), Some((u64::MAX, 9)));
        assert_eq!(varint(&[0x81], 0), None);
        // header 5 bytes: NULL, 1-byte int -1, 8-byte real, 3-char text
        let rec = [
            5u8, 0, 1, 7, 19, 0xff, 0x40, 0x09, 0x21, 0xfb, 0x54, 0x44, 0x2d, 0x18, b'a', b'b',
            b'c',
        ];
        assert_eq!(
            record(&rec).unwrap(),
            vec![
                Cell::Null,
                Cell::Int(-1),
                Cell::Real(std::f64::consts::PI),
                Cell::Text(b"abc".to_vec())
            ]
        );
        assert!(record(&rec[..10]).is_err(), "a value past the record");
        assert!(record(&[2, 10]).is_err(), "a reserved serial type");
    }
}
