//! Where an inode's data is: extent trees (ext4) and direct/indirect block maps (ext2/ext3),
//! resolved into runs of logical → physical blocks, and a [`ByteSource`] over those runs that
//! reads holes (and uninitialised extents) as zeros.
//!
//! Every walk is bounded: an extent tree's depth must drop by one at each level (so a node
//! pointing back up is caught), the nodes visited and the blocks mapped may not exceed the
//! file system's block count, and the number of runs is capped.

use std::sync::Arc;

use super::inode::{FLAG_EXTENTS, I_BLOCK_LEN, Inode};
use super::{Volume, le16, le32};
use crate::Error;
use crate::bytes::ByteSource;

/// Most runs one file may have (each is 32 bytes: 128 MiB of map).
const MAX_RUNS: usize = 4 << 20;
const EXTENT_MAGIC: u16 = 0xF30A;
/// The kernel's limit on extent tree depth.
const MAX_EXTENT_DEPTH: u16 = 5;

/// A run of consecutive logical blocks stored at consecutive physical blocks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Run {
    pub logical: u64,
    pub physical: u64,
    pub len: u64,
    /// An uninitialised (preallocated) extent: reads as zeros.
    pub zero: bool,
}

/// Collects runs, merging contiguous ones, within the bounds of one file.
struct Collector<'a> {
    vol: &'a Volume,
    ino: u32,
    /// Logical blocks past this one are not needed (beyond the inode's size).
    max_blocks: u64,
    runs: Vec<Run>,
    /// Data and index blocks still allowed: never more than the file system holds.
    budget: u64,
}

impl Collector<'_> {
    fn corrupt(&self, offset: u64, detail: String) -> Error {
        Error::Corrupt {
            layer: self.vol.layer.clone(),
            offset,
            detail: format!("inode {}: {detail}", self.ino),
        }
    }

    fn spend(&mut self, blocks: u64, offset: u64) -> Result<(), Error> {
        self.budget = self.budget.checked_sub(blocks).ok_or_else(|| {
            self.corrupt(
                offset,
                "maps more blocks than the file system holds (shared or looping blocks)"
                    .to_string(),
            )
        })?;
        Ok(())
    }

    fn push(&mut self, run: Run, offset: u64) -> Result<(), Error> {
        if run.logical >= self.max_blocks || run.len == 0 {
            return Ok(());
        }
        let len = run.len.min(self.max_blocks - run.logical);
        let end = run.physical.checked_add(len);
        if end.is_none_or(|e| e > self.vol.sb.blocks_count) {
            return Err(self.corrupt(
                offset,
                format!(
                    "blocks {}+{len} are beyond the {} blocks of the file system",
                    run.physical, self.vol.sb.blocks_count
                ),
            ));
        }
        self.spend(len, offset)?;
        let run = Run { len, ..run };
        if let Some(last) = self.runs.last_mut()
            && last.zero == run.zero
            && last.logical + last.len == run.logical
            && last.physical + last.len == run.physical
        {
            last.len += run.len;
            return Ok(());
        }
        if self.runs.len() >= MAX_RUNS {
            return Err(Error::TooLarge {
                layer: self.vol.layer.clone(),
                offset,
                what: format!("block map of inode {}", self.ino),
                claimed: self.runs.len() as u64 + 1,
                limit: MAX_RUNS as u64,
            });
        }
        self.runs.push(run);
        Ok(())
    }

    /// Walks an extent tree whose root is the inode's `i_block`.
    fn extents(&mut self, root: &[u8; I_BLOCK_LEN], root_offset: u64) -> Result<(), Error> {
        let bs = u64::from(self.vol.sb.block_size);
        // Depth-first, each node with the depth its parent expects of it.
        let mut stack: Vec<(Vec<u8>, u64, Option<u16>)> = vec![(root.to_vec(), root_offset, None)];
        let mut buf = vec![0u8; self.vol.sb.block_size as usize];
        while let Some((node, at, expected)) = stack.pop() {
            let magic = le16(&node, 0);
            let entries = usize::from(le16(&node, 2));
            let depth = le16(&node, 6);
            if magic != EXTENT_MAGIC {
                return Err(self.corrupt(at, format!("extent header magic {magic:#06x}")));
            }
            if depth > MAX_EXTENT_DEPTH || expected.is_some_and(|d| d != depth) {
                return Err(self.corrupt(
                    at,
                    format!(
                        "extent node of depth {depth} where depth {} was expected (a loop or damage)",
                        expected.map_or(MAX_EXTENT_DEPTH, |d| d)
                    ),
                ));
            }
            if 12 + entries * 12 > node.len() {
                return Err(self.corrupt(
                    at,
                    format!(
                        "{entries} extent entries do not fit a node of {} bytes",
                        node.len()
                    ),
                ));
            }
            let mut children = Vec::new();
            for i in 0..entries {
                let e = &node[12 + i * 12..24 + i * 12];
                let logical = u64::from(le32(e, 0));
                if depth == 0 {
                    let raw_len = le16(e, 4);
                    // Lengths above 32768 mark uninitialised extents.
                    let (len, zero) = if raw_len > 32768 {
                        (raw_len - 32768, true)
                    } else {
                        (raw_len, false)
                    };
                    let physical = u64::from(le32(e, 8)) | (u64::from(le16(e, 6)) << 32);
                    self.push(
                        Run {
                            logical,
                            physical,
                            len: u64::from(len),
                            zero,
                        },
                        at,
                    )?;
                } else {
                    if logical >= self.max_blocks {
                        continue; // covers only blocks past the end of the file
                    }
                    let child = u64::from(le32(e, 4)) | (u64::from(le16(e, 8)) << 32);
                    children.push(child);
                }
            }
            // Push in reverse so the leftmost child is walked first (runs come out sorted).
            for child in children.into_iter().rev() {
                if child >= self.vol.sb.blocks_count {
                    return Err(self.corrupt(
                        at,
                        format!("extent index points to block {child}, beyond the file system"),
                    ));
                }
                self.spend(1, at)?;
                let offset = child * bs;
                self.vol.bytes.read_exact_at(offset, &mut buf)?;
                stack.push((buf.clone(), offset, Some(depth - 1)));
            }
        }
        Ok(())
    }

    /// Walks the classic map: 12 direct pointers, then single, double and triple indirect.
    fn block_map(&mut self, root: &[u8; I_BLOCK_LEN], root_offset: u64) -> Result<(), Error> {
        let per_block = u64::from(self.vol.sb.block_size / 4);
        for i in 0..12u64 {
            let ptr = u64::from(le32(root, i as usize * 4));
            if ptr != 0 {
                self.push(
                    Run {
                        logical: i,
                        physical: ptr,
                        len: 1,
                        zero: false,
                    },
                    root_offset,
                )?;
            }
        }
        let mut start = 12u64;
        let mut span = per_block;
        for (slot, level) in [(12usize, 1u32), (13, 2), (14, 3)] {
            if start >= self.max_blocks {
                break;
            }
            let ptr = u64::from(le32(root, slot * 4));
            if ptr != 0 {
                self.indirect(ptr, level, start, root_offset)?;
            }
            start = start.saturating_add(span);
            span = span.saturating_mul(per_block);
        }
        Ok(())
    }

    /// One indirect block of `level` (1 = its pointers are data blocks) mapping the logical
    /// blocks from `start` on.
    fn indirect(&mut self, block: u64, level: u32, start: u64, from: u64) -> Result<(), Error> {
        if block >= self.vol.sb.blocks_count {
            return Err(self.corrupt(
                from,
                format!("indirect block {block} is beyond the file system"),
            ));
        }
        self.spend(1, from)?;
        let bs = u64::from(self.vol.sb.block_size);
        let per_block = bs / 4;
        let child_span = per_block.saturating_pow(level - 1);
        let offset = block * bs;
        let mut buf = vec![0u8; bs as usize];
        self.vol.bytes.read_exact_at(offset, &mut buf)?;
        for (i, p) in buf.chunks_exact(4).enumerate() {
            let child_start = start.saturating_add((i as u64).saturating_mul(child_span));
            if child_start >= self.max_blocks {
                break;
            }
            let ptr = u64::from(le32(p, 0));
            if ptr == 0 {
                continue; // a hole
            }
            if level == 1 {
                self.push(
                    Run {
                        logical: child_start,
                        physical: ptr,
                        len: 1,
                        zero: false,
                    },
                    offset,
                )?;
            } else {
                self.indirect(ptr, level - 1, child_start, offset)?;
            }
        }
        Ok(())
    }
}

/// Resolves the blocks of an inode's first `size` bytes into sorted runs.
pub(super) fn map(vol: &Volume, inode: &Inode, size: u64) -> Result<Vec<Run>, Error> {
    let bs = u64::from(vol.sb.block_size);
    let mut c = Collector {
        vol,
        ino: inode.ino,
        max_blocks: size.div_ceil(bs),
        runs: Vec::new(),
        budget: vol.sb.blocks_count,
    };
    let at = inode.at + 0x28;
    if inode.has(FLAG_EXTENTS) {
        c.extents(&inode.block, at)?;
    } else {
        c.block_map(&inode.block, at)?;
    }
    let mut runs = c.runs;
    runs.sort_by_key(|r| r.logical);
    Ok(runs)
}

/// The content of a file stored in blocks.
pub(super) struct FileData {
    vol: Arc<Volume>,
    runs: Vec<Run>,
    size: u64,
    name: String,
}

impl FileData {
    pub(super) fn new(vol: Arc<Volume>, runs: Vec<Run>, size: u64, name: String) -> FileData {
        FileData {
            vol,
            runs,
            size,
            name,
        }
    }
}

impl ByteSource for FileData {
    fn len(&self) -> u64 {
        self.size
    }

    fn read_at(&self, offset: u64, buf: &mut [u8]) -> Result<usize, Error> {
        if offset >= self.size {
            return Ok(0);
        }
        let bs = u64::from(self.vol.sb.block_size);
        let want = (buf.len() as u64).min(self.size - offset) as usize;
        let mut done = 0usize;
        while done < want {
            let pos = offset + done as u64;
            let block = pos / bs;
            let idx = self.runs.partition_point(|r| r.logical <= block);
            let current = idx.checked_sub(1).and_then(|i| self.runs.get(i));
            let left = (want - done) as u64;
            match current {
                Some(r) if block < r.logical + r.len => {
                    let run_end = (r.logical + r.len).saturating_mul(bs);
                    let n = left.min(run_end - pos) as usize;
                    let out = &mut buf[done..done + n];
                    if r.zero {
                        out.fill(0);
                    } else {
                        let phys = (r.physical + (block - r.logical)) * bs + pos % bs;
                        self.vol.bytes.read_exact_at(phys, out)?;
                    }
                    done += n;
                }
                _ => {
                    // A hole: zeros up to the next run.
                    let next = self
                        .runs
                        .get(idx)
                        .map_or(u64::MAX, |r| r.logical.saturating_mul(bs));
                    let n = left.min(next.saturating_sub(pos)).max(1) as usize;
                    buf[done..done + n].fill(0);
                    done += n;
                }
            }
        }
        Ok(want)
    }

    fn layer_name(&self) -> String {
        self.name.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn holes_read_as_zeros_between_runs() {
        use crate::bytes::Memory;
        // A fake 1 KiB-block volume whose block n is filled with byte n.
        let mut img = Vec::new();
        for n in 0..16u8 {
            img.extend(std::iter::repeat_n(n, 1024));
        }
        let vol = Arc::new(Volume::for_tests(
            Arc::new(Memory::new(img, "img")),
            1024,
            16,
        ));
        let runs = vec![
            Run {
                logical: 1,
                physical: 5,
                len: 2,
                zero: false,
            },
            Run {
                logical: 4,
                physical: 9,
                len: 1,
                zero: true,
            },
        ];
        let f = FileData::new(vol, runs, 6 * 1024 - 10, "f".into());
        let mut all = vec![0xAAu8; 7000];
        assert_eq!(f.read_at(0, &mut all).unwrap(), 6 * 1024 - 10);
        assert!(all[..1024].iter().all(|b| *b == 0));
        assert!(all[1024..2048].iter().all(|b| *b == 5));
        assert!(all[2048..3072].iter().all(|b| *b == 6));
        assert!(all[3072..6 * 1024 - 10].iter().all(|b| *b == 0));
        let mut two = [0u8; 2];
        assert_eq!(f.read_at(2047, &mut two).unwrap(), 2);
        assert_eq!(two, [5, 6]);
    }
}
