//! The rows a SQLite database's free space still holds, for `sqlite_wal_history`: pages on the
//! freelist and the free blocks and unallocated area of a table's own leaf pages.
//!
//! When SQLite deletes a row (without `secure_delete`, Apple's default; Android builds SQLite
//! with it on, so its free space is zeros) it leaves the bytes where they were:
//!
//! - a leaf page left empty goes to the **freelist** whole, its cells intact until the page is
//!   reused (a freelist *trunk* page's head is overwritten with the list; its leaves are not
//!   touched). Which table a free page belonged to is no longer written anywhere: it is told by
//!   the shape of its records — how many values, and whether each value's type can be stored
//!   in the column of that position (an INTEGER column holds no text, a TEXT column no number,
//!   an `INTEGER PRIMARY KEY` always NULL). A page is taken as the table's only when its
//!   records fit this table and no other one with as many columns.
//! - a cell freed inside a page that keeps other rows becomes a **free block**: its first four
//!   bytes are overwritten with the next block's offset and the block's size, which destroys
//!   the payload length, the rowid and perhaps the record header's length and first serial
//!   type; the rest survives. Such a cell is read by trying where its record header could have
//!   started (the header length after the rowid's surviving tail, or lost with the serial
//!   types following it, or lost with the first serial type when that column is the
//!   `INTEGER PRIMARY KEY`, always NULL) and keeping a reading only when every value fits its
//!   column; its rowid is lost. The four bytes reach the first serial type only when the
//!   payload length and the rowid took a byte each (a record under 128 bytes, a rowid under
//!   128); when that column is not the `INTEGER PRIMARY KEY`, its type is not guessed and the
//!   cell is not carved.
//! - a cell freed at the start of the cell content area is not made a free block: the area
//!   just starts after it, and the cell stays whole (payload length and rowid too) in the
//!   **unallocated** space between the cell pointers and the content.
//!
//! Hand-written for the reasons `wal_history` gives (forensic practice: Sanderson, *SQLite
//! Forensics*, ch. 8 and 9). Free space is read in the database as SQLite sees it now.

use std::collections::HashSet;

use crate::sqlite_record::{Affinity, Cell, record_len, values, varint};

/// A table's columns, as far as a record is checked against them.
pub(crate) struct Shape {
    pub name: String,
    pub affinities: Vec<Affinity>,
    /// The `INTEGER PRIMARY KEY` column (stored NULL: the rowid stands for it).
    pub alias: Option<usize>,
}

impl Shape {
    /// Whether `v` could be a row of this table: no more values than columns, and each value
    /// of a type its column's affinity keeps (text in UTF-8, without NUL).
    pub fn fits(&self, v: &[Cell]) -> bool {
        !v.is_empty()
            && v.len() <= self.affinities.len()
            && v.iter().enumerate().all(|(i, c)| {
                if Some(i) == self.alias {
                    return *c == Cell::Null;
                }
                match (self.affinities[i], c) {
                    (_, Cell::Null) => true,
                    (Affinity::Text, Cell::Int(_) | Cell::Real(_)) => false,
                    (Affinity::Integer | Affinity::Real, Cell::Text(_)) => false,
                    // text as apps write it: UTF-8, no NUL (zeroed bytes read as text are)
                    (_, Cell::Text(t)) => !t.contains(&0) && std::str::from_utf8(t).is_ok(),
                    _ => true,
                }
            })
    }

    /// [`Shape::fits`], and no BLOB in a column declared otherwise nor an empty or all-zero
    /// one: for a cell read without its header's first bytes, where garbage must not pass.
    fn fits_strictly(&self, v: &[Cell]) -> bool {
        self.fits(v)
            && v.iter().enumerate().all(|(i, c)| match c {
                Cell::Blob(b) => self.affinities[i] == Affinity::Blob && b.iter().any(|x| *x != 0),
                _ => true,
            })
    }

    /// Whether `other` has the same columns' affinities and INTEGER PRIMARY KEY.
    pub fn same_columns(&self, other: &Shape) -> bool {
        self.affinities == other.affinities && self.alias == other.alias
    }

    /// How many columns say something of their values' types (all but untyped ones).
    fn constrained(&self) -> usize {
        self.affinities
            .iter()
            .enumerate()
            .filter(|(i, a)| Some(*i) == self.alias || **a != Affinity::Blob)
            .count()
    }
}

/// Whether a free page whose decoded records are `records` is `ours`' page: they fit it and no
/// other table of `shapes`. (No tie is broken by the number of columns: a table altered by
/// `ADD COLUMN` keeps records with fewer values, which a narrower table would fit exactly.)
pub(crate) fn page_is_tables(ours: &Shape, shapes: &[Shape], records: &[Vec<Cell>]) -> bool {
    !records.is_empty()
        && records.iter().all(|r| ours.fits(r))
        && !shapes
            .iter()
            .any(|s| s.name != ours.name && records.iter().all(|r| s.fits(r)))
}

/// Where a region's bytes come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Region {
    /// A free block: the first cell's first four bytes are the block's header.
    FreeBlock,
    /// The unallocated space between the cell pointers and the cell content.
    Unallocated,
}

/// Whose free bytes are carved: the table (`shape`; `counts`, the numbers of values its live
/// records have — a record written before `ALTER TABLE ADD COLUMN` has fewer), the database's
/// other tables, and whether the page is the table's now.
pub(crate) struct Whose<'a> {
    pub shape: &'a Shape,
    pub counts: &'a HashSet<usize>,
    pub others: &'a [Shape],
    pub owner: bool,
}

/// A row carved from free space: its rowid when the cell's head survived, and its values.
pub(crate) type Carved = (Option<i64>, Vec<Cell>);

/// The rows of `t`'s table that the free bytes `r` (at offset `base` of a page of `usable`
/// bytes) hold. A freed cell whose payload is larger than a page keeps on it (its rest on
/// overflow pages, free too) is not carved.
pub(crate) fn carve(
    r: &[u8],
    base: usize,
    usable: usize,
    region: Region,
    t: &Whose<'_>,
) -> Vec<Carved> {
    let c = Carver {
        owner: t.owner,
        r,
        base,
        usable,
        shape: t.shape,
        counts: t.counts,
        others: t.others,
        max_local: usable - 35,
        headless_ok: t.shape.constrained() >= 2,
    };
    let mut out = Vec::new();
    let mut at = 0usize;
    // whether a cell whose head is overwritten may start here: a block's first cell, the cell
    // right after a carved one (blocks merge with the blocks beside them), and where a free
    // block's header was left (a block since merged into another, or into the unallocated
    // space when the content area grew over it)
    let mut after_cell = false;
    while at + 4 < r.len() {
        let first = at == 0 && region == Region::FreeBlock;
        // the most a headless cell here may span: the block's size when its header is here
        let block = if first {
            Some(r.len())
        } else {
            c.block_header(at)
        };
        // a block's first four bytes are its header: no whole cell starts there
        if !first
            && let Some((rowid, v, len)) = c.whole(at).filter(|(_, _, len)| !c.overlapped(at, *len))
        {
            out.push((Some(rowid), v));
            at += len;
            after_cell = true;
            continue;
        }
        if (after_cell || block.is_some()) && c.headless_ok {
            // where only a header-like four bytes say a cell starts, the reading must end where
            // a cell boundary shows, and a reading that starts one to three bytes later and
            // spans more (its header-like bytes overlapping these) is the better one
            let weak = !(after_cell || first);
            let reading = |at: usize| {
                c.headless_ours(at).filter(|(_, len)| {
                    (if at == 0 && first {
                        Some(r.len())
                    } else {
                        c.block_header(at)
                    })
                    .is_none_or(|size| *len <= size)
                })
            };
            let here = reading(at).filter(|(_, len)| {
                !weak
                    || (c.boundary(at + len)
                        && !(at + 1..=at + 3).any(|b| {
                            c.block_header(b).is_some() && reading(b).is_some_and(|(_, l)| l > *len)
                        }))
            });
            if let Some((v, len)) = here.filter(|(_, len)| !c.overlapped(at, *len)) {
                out.push((None, v));
                at += len;
                after_cell = true;
                continue;
            }
        }
        after_cell = false;
        at += 1;
    }
    out
}

/// One free region being carved.
struct Carver<'a> {
    r: &'a [u8],
    base: usize,
    usable: usize,
    shape: &'a Shape,
    counts: &'a HashSet<usize>,
    /// The database's other tables: a headless reading one of them could give as well is
    /// nobody's (a page keeps the bytes of the table that owned it before).
    others: &'a [Shape],
    /// Whether the page is the table's now (its own leaf, or a free page its cells say was its):
    /// a reading another table gives as well as this one is then this one's.
    owner: bool,
    max_local: usize,
    headless_ok: bool,
}

impl Carver<'_> {
    /// The size the four bytes at `at` give when they read as a free block's header: the next
    /// block's offset (none, or further on the page) and a size of at least a cell's.
    fn block_header(&self, at: usize) -> Option<usize> {
        let h = self.r.get(at..at + 4)?;
        let next = u16::from_be_bytes([h[0], h[1]]) as usize;
        let size = u16::from_be_bytes([h[2], h[3]]) as usize;
        let here = self.base + at;
        ((next == 0 || (next > here && next < self.usable)) && (8..self.usable).contains(&size))
            .then_some(size)
    }

    fn whole(&self, at: usize) -> Option<(i64, Vec<Cell>, usize)> {
        cell_whole(self.r, at, self.shape, self.counts, self.max_local)
    }

    /// A headless cell at `at`: its values and length. When more than one reading fits the
    /// table, the one after which the bytes still read as cells (or zeros, or the region's
    /// end) for three cells on is kept, and none when that still leaves two.
    fn headless(&self, at: usize) -> Option<(Vec<Cell>, usize)> {
        let all = headless_readings(self.r, at, self.shape, self.counts, self.max_local);
        if all.len() <= 1 {
            return all.into_iter().next();
        }
        let mut good: Vec<(Vec<Cell>, usize)> = all
            .into_iter()
            .filter(|(_, len)| self.goes_on(at + len, 3))
            .collect();
        good.dedup();
        (good.len() == 1).then(|| good.remove(0))
    }

    /// [`Carver::headless`], unless another table of other columns reads a cell there as well
    /// (as many values and bytes or more; on a page the table owns, also better: more of one,
    /// or without assuming a lost first serial type where this reading assumes it): the bytes a
    /// page kept from the table that owned it before. (A table of the same columns cannot be
    /// told apart: the page's owner is taken.)
    fn headless_ours(&self, at: usize) -> Option<(Vec<Cell>, usize)> {
        let (v, len) = self.headless(at)?;
        let ours = non_null(&v);
        let assumed = headless_readings_full(self.r, at, self.shape, self.counts, self.max_local)
            .iter()
            .any(|(w, l, lost)| *lost && *l == len && *w == v);
        let theirs = self
            .others
            .iter()
            .filter(|o| o.name != self.shape.name && !o.same_columns(self.shape))
            .any(|o| {
                let counts = HashSet::from([o.affinities.len()]);
                headless_readings_full(self.r, at, o, &counts, self.max_local)
                    .iter()
                    .any(|(w, l, lost)| {
                        let theirs = non_null(w);
                        let as_good = *l >= len && theirs >= ours;
                        // better: more bytes or values, or as many without assuming a value
                        let better = *l > len || theirs > ours || (assumed && !lost);
                        as_good && (better || !self.owner)
                    })
            });
        (!theirs).then_some((v, len))
    }

    /// Whether a cell starts inside the `len` bytes read as a cell at `at` and runs past them (a
    /// whole one, or a headless one behind a free block's header): a later cell SQLite placed
    /// over the tail of this one (it allocates from a free block's end and from the top of the
    /// unallocated space), so this one's last values would be that cell's bytes.
    fn overlapped(&self, at: usize, len: usize) -> bool {
        let end = at + len;
        (at + 4..end).any(|q| {
            self.whole(q).is_some_and(|(_, _, l)| q + l > end)
                || (self.block_header(q).is_some()
                    && headless_readings(self.r, q, self.shape, self.counts, self.max_local)
                        .iter()
                        .any(|(_, l)| q + l > end))
        })
    }

    /// Whether a cell boundary shows at `at`: the region's end, zeros, a free block's header, a
    /// whole cell or a headless one.
    fn boundary(&self, at: usize) -> bool {
        at + 4 >= self.r.len()
            || self.r[at..at + 4].iter().all(|b| *b == 0)
            || self.block_header(at).is_some()
            || self.whole(at).is_some()
            || !headless_readings(self.r, at, self.shape, self.counts, self.max_local).is_empty()
    }

    /// Whether the bytes from `at` end, are zeros, or read as a cell (whole or headless) for
    /// `depth` cells on.
    fn goes_on(&self, at: usize, depth: usize) -> bool {
        let r = self.r;
        if at + 4 >= r.len() || r[at..].iter().all(|b| *b == 0) || depth == 0 {
            return true;
        }
        if let Some((_, _, len)) = self.whole(at) {
            return self.goes_on(at + len, depth - 1);
        }
        headless_readings(r, at, self.shape, self.counts, self.max_local)
            .iter()
            .any(|(_, len)| self.goes_on(at + len, depth - 1))
    }
}

/// A whole cell at `at` (payload length, rowid, record): kept when the record spans exactly the
/// payload length and fits the table.
fn cell_whole(
    r: &[u8],
    at: usize,
    shape: &Shape,
    counts: &HashSet<usize>,
    max_local: usize,
) -> Option<(i64, Vec<Cell>, usize)> {
    let (len, a) = varint(r, at)?;
    if len < 2 || len as usize > max_local {
        return None;
    }
    let (rowid, b) = varint(r, at + a)?;
    let start = at + a + b;
    let end = start.checked_add(len as usize)?;
    let body = r.get(start..end)?;
    let (v, used) = record_len(body).ok()?;
    (used == body.len() && counts.contains(&v.len()) && shape.fits(&v) && non_null(&v) >= 1)
        .then_some((rowid as i64, v, end - at))
}

/// Every reading of a headless cell at `at` that fits the table: values and length.
fn headless_readings(
    r: &[u8],
    at: usize,
    shape: &Shape,
    counts: &HashSet<usize>,
    max_local: usize,
) -> Vec<(Vec<Cell>, usize)> {
    headless_readings_full(r, at, shape, counts, max_local)
        .into_iter()
        .map(|(v, len, _)| (v, len))
        .collect()
}

/// Every reading of a headless cell at `at` that fits the table: values, length, and whether
/// its first value is assumed (the INTEGER PRIMARY KEY's serial type lost, taken as NULL).
fn headless_readings_full(
    r: &[u8],
    at: usize,
    shape: &Shape,
    counts: &HashSet<usize>,
    max_local: usize,
) -> Vec<(Vec<Cell>, usize, bool)> {
    let keep = |v: &[Cell]| counts.contains(&v.len()) && shape.fits_strictly(v) && non_null(v) >= 2;
    // the record's length (the payload length SQLite wrote) must have fitted the bytes the
    // reading says it had: `room` bytes for the payload length's and the rowid's varints
    // (the rowid takes one at least), and the page (no overflow)
    let fitted = |record: usize, room: usize| {
        let plen = match record {
            0..=0x7f => 1,
            0x80..=0x3fff => 2,
            _ => 3,
        };
        record <= max_local && plen < room
    };
    let mut out = Vec::new();
    // the header length survives right after the overwritten bytes, or after the surviving
    // tail of a longer payload length or rowid
    for o in at + 4..=at + 7 {
        let Some(tail) = r.get(at + 4..o) else { break };
        let tail_ok = tail.is_empty()
            || (tail[..tail.len() - 1].iter().all(|b| b & 0x80 != 0)
                && tail[tail.len() - 1] & 0x80 == 0);
        if !tail_ok {
            continue;
        }
        if let Some((v, used)) = r.get(o..).and_then(|b| record_len(b).ok())
            && keep(&v)
            && fitted(used, o - at)
        {
            out.push((v, o + used - at, false));
        }
    }
    // the header length is lost; the serial types run from at + 4 (with the first one lost
    // too when that column is the INTEGER PRIMARY KEY, which is always stored NULL), as many
    // as a record of the table has values
    let lost_types = |n: usize, lost: bool| -> Option<(Vec<Cell>, usize, bool)> {
        let mut types = Vec::with_capacity(n);
        if lost {
            types.push(0);
        }
        let mut o = at + 4;
        while types.len() < n {
            let (t, k) = varint(r, o)?;
            types.push(t);
            o += k;
        }
        let (v, body) = values(&types, r.get(o..)?).ok()?;
        // the header length took one byte before the types (two past 127 bytes), the first
        // type one more when lost
        let header = o - (at + 4) + usize::from(lost);
        let hlen = if header < 0x7f { 1 } else { 2 };
        let record = hlen + header + body;
        let room = 4 - hlen - usize::from(lost);
        (keep(&v) && fitted(record, room)).then_some((v, o + body - at, lost))
    };
    for &n in counts {
        out.extend(lost_types(n, false));
        if shape.alias == Some(0) && n > 1 {
            out.extend(lost_types(n, true));
        }
    }
    out
}

fn non_null(v: &[Cell]) -> usize {
    v.iter().filter(|c| **c != Cell::Null).count()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape() -> Shape {
        Shape {
            name: "t".into(),
            affinities: vec![Affinity::Integer, Affinity::Text, Affinity::Integer],
            alias: Some(0),
        }
    }

    /// A cell as SQLite writes it: payload length, rowid, record (NULL for the alias).
    fn cell(rowid: u8, text: &str, n: u8) -> Vec<u8> {
        let mut rec = vec![4u8, 0, 13 + 2 * text.len() as u8, 1];
        rec.extend_from_slice(text.as_bytes());
        rec.push(n);
        let mut c = vec![rec.len() as u8, rowid];
        c.extend(rec);
        c
    }

    fn whose<'a>(shape: &'a Shape, counts: &'a HashSet<usize>) -> Whose<'a> {
        Whose {
            shape,
            counts,
            others: &[],
            owner: true,
        }
    }

    #[test]
    fn whole_and_headless_cells_are_read_and_garbage_is_not() {
        let counts = HashSet::from([3]);
        let a = cell(7, "hello there", 5);
        let b = cell(8, "second row", 6);
        // unallocated: a whole cell, then a cell whose head a free block overwrote
        let mut r = vec![0u8; 9];
        r.extend(&a);
        let mut b2 = b.clone();
        b2[..4].copy_from_slice(&[0, 0, 0, 30]);
        r.extend(&b2);
        r.extend([0u8; 5]);
        let got = carve(
            &r,
            100,
            4096,
            Region::Unallocated,
            &whose(&shape(), &counts),
        );
        assert_eq!(got.len(), 2, "{got:?}");
        assert_eq!(got[0].0, Some(7));
        assert_eq!(got[0].1[1], Cell::Text(b"hello there".to_vec()));
        assert_eq!(got[1].0, None);
        assert_eq!(got[1].1[1], Cell::Text(b"second row".to_vec()));
        assert_eq!(got[1].1[2], Cell::Int(6));
        // a free block's first cell
        let got = carve(&b2, 100, 4096, Region::FreeBlock, &whose(&shape(), &counts));
        assert_eq!(got.len(), 1);
        // bytes that fit no row of the table
        let noise: Vec<u8> = (0..400u32).map(|i| (i * 37 % 251) as u8).collect();
        assert!(
            carve(
                &noise,
                100,
                4096,
                Region::FreeBlock,
                &whose(&shape(), &counts)
            )
            .is_empty()
        );
        assert!(
            carve(
                &[0u8; 300],
                100,
                4096,
                Region::Unallocated,
                &whose(&shape(), &counts)
            )
            .is_empty()
        );
    }

    #[test]
    fn a_free_page_is_a_tables_only_when_no_other_table_fits_it() {
        // our table: INTEGER PRIMARY KEY, TEXT, INTEGER
        let ours = shape();
        let other_text = Shape {
            name: "u".into(),
            affinities: vec![Affinity::Integer, Affinity::Text, Affinity::Text],
            alias: Some(0),
        };
        let wider = Shape {
            name: "w".into(),
            affinities: vec![
                Affinity::Integer,
                Affinity::Text,
                Affinity::Integer,
                Affinity::Blob,
            ],
            alias: Some(0),
        };
        let rec = vec![vec![Cell::Null, Cell::Text(b"x".to_vec()), Cell::Int(3)]];
        assert!(page_is_tables(&ours, &[other_text], &rec));
        // a wider table fits too (ours may be an altered table's earlier records)
        assert!(!page_is_tables(&ours, &[wider], &rec));
        let twin = Shape {
            name: "v".into(),
            affinities: ours.affinities.clone(),
            alias: Some(0),
        };
        assert!(!page_is_tables(&ours, &[twin], &rec));
        let text_in_int = vec![vec![
            Cell::Null,
            Cell::Text(b"x".to_vec()),
            Cell::Text(b"y".to_vec()),
        ]];
        assert!(!page_is_tables(&ours, &[], &text_in_int));
    }
}
