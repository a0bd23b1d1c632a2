//! Byte streams: the lower half of every layer.
//!
//! A [`ByteSource`] is a read-only, random-access stream of bytes with positioned reads through
//! `&self`, so several threads (and several file systems stacked above) can read one image at
//! once. A raw file, an EWF image, a partition, a file inside a file system: each is a
//! `ByteSource`. [`Reader`] adapts one to `Read + Seek` for crates that want a cursor, and also
//! implements `Write` by refusing every write, for crates (`gpt`, `fatfs`) that ask for
//! `Read + Write + Seek` although they only read: evidence cannot be written through it.

use std::io::{self, Read, Seek, SeekFrom, Write};
use std::sync::Arc;

use crate::Error;

/// A read-only, random-access byte stream.
pub trait ByteSource: Send + Sync {
    /// Total length in bytes.
    fn len(&self) -> u64;

    /// Whether the stream is empty.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Reads up to `buf.len()` bytes at `offset`; returns fewer only at the end of the stream.
    /// Errors name the layer and the offset where reading failed.
    fn read_at(&self, offset: u64, buf: &mut [u8]) -> Result<usize, Error>;

    /// Reads exactly `buf.len()` bytes at `offset`, or fails with [`Error::Truncated`].
    fn read_exact_at(&self, offset: u64, buf: &mut [u8]) -> Result<(), Error> {
        let n = self.read_at(offset, buf)?;
        if n < buf.len() {
            return Err(Error::Truncated {
                layer: self.layer_name(),
                offset: offset + n as u64,
                wanted: buf.len() as u64,
            });
        }
        Ok(())
    }

    /// A short name of the layer, for errors (`"ewf"`, `"raw"`, `"partition 3 (userdata)"`).
    fn layer_name(&self) -> String;
}

/// A shared byte source.
pub type Bytes = Arc<dyn ByteSource>;

/// A window of a parent stream: a partition, or a file stored contiguously inside an image.
pub struct Slice {
    parent: Bytes,
    start: u64,
    len: u64,
    name: String,
}

impl Slice {
    /// The bytes `start .. start + len` of `parent`, clamped to the parent's length.
    pub fn new(parent: Bytes, start: u64, len: u64, name: impl Into<String>) -> Slice {
        let end = start.saturating_add(len).min(parent.len());
        let start = start.min(end);
        Slice {
            parent,
            start,
            len: end - start,
            name: name.into(),
        }
    }
}

impl ByteSource for Slice {
    fn len(&self) -> u64 {
        self.len
    }

    fn read_at(&self, offset: u64, buf: &mut [u8]) -> Result<usize, Error> {
        if offset >= self.len {
            return Ok(0);
        }
        let n = (buf.len() as u64).min(self.len - offset) as usize;
        self.parent.read_at(self.start + offset, &mut buf[..n])
    }

    fn layer_name(&self) -> String {
        self.name.clone()
    }
}

/// Bytes held in memory (decompressed members, small synthesised streams).
pub struct Memory {
    data: Vec<u8>,
    name: String,
}

impl Memory {
    pub fn new(data: Vec<u8>, name: impl Into<String>) -> Memory {
        Memory {
            data,
            name: name.into(),
        }
    }
}

impl ByteSource for Memory {
    fn len(&self) -> u64 {
        self.data.len() as u64
    }

    fn read_at(&self, offset: u64, buf: &mut [u8]) -> Result<usize, Error> {
        let Ok(offset) = usize::try_from(offset) else {
            return Ok(0);
        };
        let Some(rest) = self.data.get(offset..) else {
            return Ok(0);
        };
        let n = rest.len().min(buf.len());
        buf[..n].copy_from_slice(&rest[..n]);
        Ok(n)
    }

    fn layer_name(&self) -> String {
        self.name.clone()
    }
}

/// A plain file, read with positioned reads (no shared cursor, so it is safe across threads).
pub struct FileBytes {
    file: std::fs::File,
    len: u64,
    name: String,
}

impl FileBytes {
    /// Serves an already opened file; `path` names it in errors.
    pub fn from_file(file: std::fs::File, path: &std::path::Path) -> Result<FileBytes, Error> {
        let len = file.metadata().map_err(|e| Error::io(path, e))?.len();
        Ok(FileBytes {
            file,
            len,
            name: format!("file {}", path.display()),
        })
    }

    /// Opens a file read-only.
    pub fn open(path: &std::path::Path) -> Result<FileBytes, Error> {
        let file = crate::open::open_read_only(path)?;
        let len = file.metadata().map_err(|e| Error::io(path, e))?.len();
        Ok(FileBytes {
            file,
            len,
            name: format!("file {}", path.display()),
        })
    }
}

impl ByteSource for FileBytes {
    fn len(&self) -> u64 {
        self.len
    }

    fn read_at(&self, offset: u64, buf: &mut [u8]) -> Result<usize, Error> {
        use std::os::unix::fs::FileExt;
        let mut filled = 0;
        while filled < buf.len() {
            match self
                .file
                .read_at(&mut buf[filled..], offset + filled as u64)
            {
                Ok(0) => break,
                Ok(n) => filled += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => {
                    return Err(Error::Read {
                        layer: self.name.clone(),
                        offset: offset + filled as u64,
                        source: e,
                    });
                }
            }
        }
        Ok(filled)
    }

    fn layer_name(&self) -> String {
        self.name.clone()
    }
}

/// A read of `buf` at `offset` of a stream of `size` bytes cut into bands of `band` bytes (Mac
/// OS sparse images and bundles): `fill(band index, offset within it, piece)` fills each piece
/// of `buf` that one band holds. Returns the bytes read, fewer only at the end of the stream.
pub(crate) fn read_banded(
    size: u64,
    band: u64,
    offset: u64,
    buf: &mut [u8],
    mut fill: impl FnMut(u64, u64, &mut [u8]) -> Result<(), Error>,
) -> Result<usize, Error> {
    if offset >= size || band == 0 {
        return Ok(0);
    }
    let want = (buf.len() as u64).min(size - offset) as usize;
    let mut done = 0usize;
    while done < want {
        let pos = offset + done as u64;
        let (index, within) = (pos / band, pos % band);
        let count = ((band - within) as usize).min(want - done);
        fill(index, within, &mut buf[done..done + count])?;
        done += count;
    }
    Ok(want)
}

/// `len` zero bytes, held as nothing (a zero extent of an Android logical partition).
pub struct Zeros(pub u64);

impl ByteSource for Zeros {
    fn len(&self) -> u64 {
        self.0
    }

    fn read_at(&self, offset: u64, buf: &mut [u8]) -> Result<usize, Error> {
        let n = (buf.len() as u64).min(self.0.saturating_sub(offset)) as usize;
        buf[..n].fill(0);
        Ok(n)
    }

    fn layer_name(&self) -> String {
        "zeros".to_string()
    }
}

/// Several byte streams read as one, in order (split raw images: `.000`, `.001`, …; the
/// extents of an Android logical partition).
pub struct Concat {
    parts: Vec<(u64, Bytes)>,
    len: u64,
    name: String,
}

impl Concat {
    pub fn new(parts: Vec<Bytes>) -> Concat {
        Concat::named(parts, "split raw")
    }

    /// [`Concat::new`] with the layer's name for errors (`logical partition system_a`).
    pub fn named(parts: Vec<Bytes>, name: impl Into<String>) -> Concat {
        let mut start = 0;
        let parts = parts
            .into_iter()
            .map(|p| {
                let at = start;
                start += p.len();
                (at, p)
            })
            .collect();
        Concat {
            parts,
            len: start,
            name: name.into(),
        }
    }
}

impl ByteSource for Concat {
    fn len(&self) -> u64 {
        self.len
    }

    fn read_at(&self, offset: u64, buf: &mut [u8]) -> Result<usize, Error> {
        let mut filled = 0;
        while filled < buf.len() {
            let pos = offset + filled as u64;
            let idx = self.parts.partition_point(|(start, _)| *start <= pos);
            let Some((start, part)) = idx.checked_sub(1).and_then(|i| self.parts.get(i)) else {
                break;
            };
            let n = part.read_at(pos - start, &mut buf[filled..])?;
            if n == 0 {
                break;
            }
            filled += n;
        }
        Ok(filled)
    }

    fn layer_name(&self) -> String {
        self.name.clone()
    }
}

/// `Read + Seek` over a [`ByteSource`], with a `Write` that always fails.
pub struct Reader {
    src: Bytes,
    pos: u64,
}

impl Reader {
    pub fn new(src: Bytes) -> Reader {
        Reader { src, pos: 0 }
    }
}

impl std::fmt::Debug for Reader {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Reader")
            .field("layer", &self.src.layer_name())
            .field("pos", &self.pos)
            .finish()
    }
}

impl Read for Reader {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self
            .src
            .read_at(self.pos, buf)
            .map_err(|e| io::Error::other(e.to_string()))?;
        self.pos += n as u64;
        Ok(n)
    }
}

impl Seek for Reader {
    fn seek(&mut self, to: SeekFrom) -> io::Result<u64> {
        let len = self.src.len();
        let target = match to {
            SeekFrom::Start(p) => Some(p),
            SeekFrom::End(d) => len.checked_add_signed(d),
            SeekFrom::Current(d) => self.pos.checked_add_signed(d),
        };
        match target {
            Some(p) => {
                self.pos = p;
                Ok(p)
            }
            None => Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "seek before the start of the stream",
            )),
        }
    }
}

impl Write for Reader {
    fn write(&mut self, _buf: &[u8]) -> io::Result<usize> {
        Err(io::Error::new(
            io::ErrorKind::PermissionDenied,
            "evidence is read-only",
        ))
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slices_and_concatenations_read_the_right_bytes() {
        let a: Bytes = Arc::new(Memory::new((0u8..100).collect(), "a"));
        let b: Bytes = Arc::new(Memory::new((100u8..150).collect(), "b"));
        let c = Concat::new(vec![a, b]);
        let mut buf = [0u8; 20];
        assert_eq!(c.read_at(90, &mut buf).unwrap(), 20);
        assert_eq!(buf.to_vec(), (90u8..110).collect::<Vec<_>>());
        assert_eq!(c.read_at(145, &mut buf).unwrap(), 5);
        let c: Bytes = Arc::new(c);
        let s = Slice::new(c, 95, 10, "part");
        let mut buf = [0u8; 16];
        assert_eq!(s.read_at(0, &mut buf).unwrap(), 10);
        assert_eq!(&buf[..10], &(95u8..105).collect::<Vec<_>>()[..]);
        assert!(s.read_exact_at(5, &mut buf).is_err());
    }

    #[test]
    fn writes_through_the_reader_are_refused() {
        let m: Bytes = Arc::new(Memory::new(vec![1, 2, 3], "m"));
        let mut r = Reader::new(m);
        assert!(r.write(b"x").is_err());
        let mut all = Vec::new();
        r.read_to_end(&mut all).unwrap();
        assert_eq!(all, [1, 2, 3]);
    }
}
