//! SQLCipher databases decrypted, page by page, into a plain SQLite image (with the committed
//! frames of their write-ahead log replayed), given the key an extraction captured.
//!
//! Written by hand over RustCrypto's `aes`, `cbc`, `hmac` and `pbkdf2`: the maintained way to
//! read SQLCipher from Rust is to build SQLCipher itself into `libsqlite3-sys`, which would swap
//! the SQLite of the whole workspace (the case store's included) for SQLCipher's and link
//! OpenSSL. The format is small and documented (zetetic.net, "SQLCipher Design"):
//!
//! - Every page of `page_size` bytes is AES-256-CBC-encrypted data, then a reserve at its end:
//!   the page's 16-byte IV and, when HMAC is on, the HMAC of the encrypted data, the IV and the
//!   page number (4 bytes, little-endian), the reserve rounded up to the AES block.
//! - Page 1 begins with the 16-byte salt (or, with a plaintext header, that many bytes of the
//!   SQLite header left in the clear, the salt then kept elsewhere); decrypted, it begins with
//!   `SQLite format 3\0` again.
//! - The encryption key is PBKDF2 of the passphrase and the salt (or the raw key given); the
//!   HMAC key is PBKDF2 of the encryption key with the salt XOR `0x3a`, two iterations.
//! - A `-wal` keeps its headers in the clear and each frame's page encrypted as in the file.
//!   Frames are read as SQLite reads them: in order, while their salts match the header and
//!   their cumulative checksums hold, and only up to the last commit frame.
//!
//! The image written keeps each page's reserve (zeroed) so the header's reserved-bytes field
//! still holds. Nothing is written to the evidence: the caller owns `out`. Every failure is a
//! typed [`Error`] naming the layer and the offset; a page that does not authenticate is
//! decrypted all the same and counted in [`Report::unauthenticated`], so damage is said, not
//! hidden.

use std::io::{Read, Seek, SeekFrom, Write};

use aes::cipher::{BlockDecryptMut, KeyIvInit, block_padding::NoPadding};
use hmac::{Hmac, Mac};
use zeroize::Zeroizing;

use crate::{Error, Result};

/// The hash of the key derivation (PBKDF2-HMAC) or of the page HMAC.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Hash {
    Sha1,
    Sha256,
    Sha512,
}

impl Hash {
    /// Bytes of its HMAC.
    pub fn mac_len(self) -> usize {
        match self {
            Hash::Sha1 => 20,
            Hash::Sha256 => 32,
            Hash::Sha512 => 64,
        }
    }

    /// `SHA1`, `SHA256` or `SHA512`, as SQLCipher names them.
    pub fn as_str(self) -> &'static str {
        match self {
            Hash::Sha1 => "SHA1",
            Hash::Sha256 => "SHA256",
            Hash::Sha512 => "SHA512",
        }
    }

    fn pbkdf2(self, password: &[u8], salt: &[u8], rounds: u32, out: &mut [u8]) {
        match self {
            Hash::Sha1 => pbkdf2::pbkdf2_hmac::<sha1::Sha1>(password, salt, rounds, out),
            Hash::Sha256 => pbkdf2::pbkdf2_hmac::<sha2::Sha256>(password, salt, rounds, out),
            Hash::Sha512 => pbkdf2::pbkdf2_hmac::<sha2::Sha512>(password, salt, rounds, out),
        }
    }

    /// Whether the HMAC of `parts` under `key` is `expected`.
    fn verify(self, key: &[u8], parts: &[&[u8]], expected: &[u8]) -> bool {
        fn check<M: Mac + hmac::digest::KeyInit>(
            key: &[u8],
            parts: &[&[u8]],
            expected: &[u8],
        ) -> bool {
            let Ok(mut mac) = <M as hmac::digest::KeyInit>::new_from_slice(key) else {
                return false;
            };
            for p in parts {
                mac.update(p);
            }
            mac.verify_slice(expected).is_ok()
        }
        match self {
            Hash::Sha1 => check::<Hmac<sha1::Sha1>>(key, parts, expected),
            Hash::Sha256 => check::<Hmac<sha2::Sha256>>(key, parts, expected),
            Hash::Sha512 => check::<Hmac<sha2::Sha512>>(key, parts, expected),
        }
    }
}

/// The key of a database: a passphrase (derived with PBKDF2) or the raw 32-byte key.
pub enum Key {
    Passphrase(Zeroizing<Vec<u8>>),
    Raw(Zeroizing<[u8; 32]>),
}

/// How a database was encrypted (SQLCipher's `cipher_*` settings).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Settings {
    pub page_size: usize,
    /// PBKDF2 rounds deriving the key from a passphrase (unused with a raw key).
    pub kdf_iter: u32,
    /// The PBKDF2 hash (of the key and of the HMAC key).
    pub kdf: Hash,
    /// The page HMAC's hash, `None` when HMAC is off (SQLCipher 1).
    pub hmac: Option<Hash>,
    /// Bytes at the start of page 1 left in the clear (then the salt is given, not stored).
    pub plaintext_header: usize,
}

impl Settings {
    /// SQLCipher 4's defaults: 4,096-byte pages, PBKDF2-HMAC-SHA512 of 256,000 rounds,
    /// HMAC-SHA512.
    pub const V4: Settings = Settings {
        page_size: 4096,
        kdf_iter: 256_000,
        kdf: Hash::Sha512,
        hmac: Some(Hash::Sha512),
        plaintext_header: 0,
    };

    /// SQLCipher 3's defaults: 1,024-byte pages, PBKDF2-HMAC-SHA1 of 64,000 rounds, HMAC-SHA1.
    pub const V3: Settings = Settings {
        page_size: 1024,
        kdf_iter: 64_000,
        kdf: Hash::Sha1,
        hmac: Some(Hash::Sha1),
        plaintext_header: 0,
    };

    /// Bytes at the end of each page: the IV and the HMAC, rounded up to the AES block.
    pub fn reserve(&self) -> usize {
        (16 + self.hmac.map_or(0, Hash::mac_len)).div_ceil(16) * 16
    }

    /// These settings in words, for a tool's output.
    pub fn describe(&self) -> String {
        let mut s = format!(
            "{}-byte pages, PBKDF2-HMAC-{} of {} round{}, ",
            self.page_size,
            self.kdf.as_str(),
            self.kdf_iter,
            if self.kdf_iter == 1 { "" } else { "s" }
        );
        match self.hmac {
            Some(h) => s.push_str(&format!("HMAC-{}", h.as_str())),
            None => s.push_str("no HMAC"),
        }
        if self.plaintext_header > 0 {
            s.push_str(&format!(
                ", {}-byte plaintext header",
                self.plaintext_header
            ));
        }
        s
    }

    fn check(&self, layer: &str) -> Result<()> {
        let reserve = self.reserve();
        let ok = self.page_size.is_power_of_two()
            && (512..=65536).contains(&self.page_size)
            && self.page_size > reserve + self.plaintext_header.max(16) + 100
            && (self.page_size - reserve).is_multiple_of(16)
            && (self.plaintext_header == 0
                || (self.plaintext_header >= 16 && self.plaintext_header.is_multiple_of(16)));
        if ok {
            Ok(())
        } else {
            Err(Error::Unsupported {
                layer: layer.to_string(),
                detail: format!("SQLCipher settings not possible: {}", self.describe()),
            })
        }
    }
}

/// What a decryption did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Report {
    /// Pages of the database file decrypted.
    pub pages: u64,
    /// Pages (of the file and of replayed frames) whose HMAC held; with HMAC off, 0.
    pub authenticated: u64,
    /// Numbers of the pages whose HMAC did not hold (at most [`MAX_LISTED`]).
    pub unauthenticated: Vec<u64>,
    /// How many pages did not authenticate in all.
    pub unauthenticated_count: u64,
    /// Bytes after the last whole page (left out).
    pub trailing: u64,
    /// The write-ahead log's frames, when one was given.
    pub wal: Option<WalReport>,
    /// Pages of the image written.
    pub image_pages: u64,
}

/// What was read of a write-ahead log.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct WalReport {
    /// Frames whose salts and checksums held, in order from the first.
    pub valid: u64,
    /// Of them, the frames up to the last commit: replayed over the file's pages.
    pub replayed: u64,
    /// Whole frames in the file past the valid ones or after the last commit (not replayed).
    pub ignored: u64,
    /// Why the log was not read at all (not a WAL, another page size), when so.
    pub skipped: Option<String>,
}

impl Report {
    /// One line for a tool's output: pages, authentication, the log.
    pub fn describe(&self, hmac: bool) -> String {
        let mut s = format!(
            "{} page{}",
            self.pages,
            if self.pages == 1 { "" } else { "s" }
        );
        if hmac {
            if self.unauthenticated_count == 0 {
                s.push_str(", every page authenticated (HMAC)");
            } else {
                s.push_str(&format!(
                    ", {} authenticated, {} did NOT authenticate (damaged or altered: pages {})",
                    self.authenticated,
                    self.unauthenticated_count,
                    self.unauthenticated
                        .iter()
                        .map(u64::to_string)
                        .collect::<Vec<_>>()
                        .join(", ")
                ));
            }
        } else {
            s.push_str(", not authenticated (these settings keep no HMAC)");
        }
        if self.trailing > 0 {
            s.push_str(&format!(
                ", {} trailing bytes (not a whole page) left out",
                self.trailing
            ));
        }
        match &self.wal {
            None => {}
            Some(w) => match &w.skipped {
                Some(why) => s.push_str(&format!("; write-ahead log not read: {why}")),
                None => s.push_str(&format!(
                    "; write-ahead log: {} committed frame{} replayed, {} frame{} not (uncommitted or invalid)",
                    w.replayed,
                    if w.replayed == 1 { "" } else { "s" },
                    w.ignored + (w.valid - w.replayed),
                    if w.ignored + (w.valid - w.replayed) == 1 { "" } else { "s" }
                )),
            },
        }
        s
    }
}

/// Most unauthenticated page numbers listed in a [`Report`].
pub const MAX_LISTED: usize = 16;

const WAL_HEADER: usize = 32;
const WAL_FRAME_HEADER: usize = 24;
const SQLITE_MAGIC: &[u8; 16] = b"SQLite format 3\0";

/// The keys of one database.
struct Keys {
    enc: Zeroizing<[u8; 32]>,
    mac: Zeroizing<[u8; 32]>,
}

fn keys(key: &Key, salt: &[u8; 16], s: &Settings) -> Keys {
    let mut enc = Zeroizing::new([0u8; 32]);
    match key {
        Key::Passphrase(p) => s.kdf.pbkdf2(p, salt, s.kdf_iter, &mut *enc),
        Key::Raw(k) => enc.copy_from_slice(&**k),
    }
    let mut mac = Zeroizing::new([0u8; 32]);
    let mac_salt: Vec<u8> = salt.iter().map(|b| b ^ 0x3a).collect();
    s.kdf.pbkdf2(&*enc, &mac_salt, 2, &mut *mac);
    Keys { enc, mac }
}

/// Decrypts page `number` (`raw`, `page_size` bytes) into `out` (cleared first); whether its
/// HMAC held (false with HMAC off).
fn page(number: u32, raw: &[u8], keys: &Keys, s: &Settings, out: &mut Vec<u8>) -> bool {
    let reserve = s.reserve();
    let start = match number {
        1 if s.plaintext_header > 0 => s.plaintext_header,
        1 => 16,
        _ => 0,
    };
    let end = s.page_size - reserve;
    let iv = &raw[end..end + 16];
    let authentic = s.hmac.is_some_and(|h| {
        h.verify(
            &*keys.mac,
            &[&raw[start..end + 16], &number.to_le_bytes()],
            &raw[end + 16..end + 16 + h.mac_len()],
        )
    });
    out.clear();
    if number == 1 {
        out.extend_from_slice(if s.plaintext_header > 0 {
            &raw[..s.plaintext_header]
        } else {
            SQLITE_MAGIC
        });
    }
    let from = out.len();
    out.extend_from_slice(&raw[start..end]);
    let iv: [u8; 16] = iv.try_into().unwrap_or([0; 16]);
    let dec = cbc::Decryptor::<aes::Aes256>::new((&*keys.enc).into(), &iv.into());
    // the length is a multiple of the block (Settings::check): this cannot fail
    let _ = dec.decrypt_padded_mut::<NoPadding>(&mut out[from..]);
    out.resize(s.page_size, 0);
    authentic
}

/// Whether a decrypted page 1 is a SQLite header of these settings (the check of a key when
/// there is no HMAC): its page size, file format numbers, reserve and payload fractions.
fn plausible_header(p: &[u8], s: &Settings) -> bool {
    let size = match u16::from_be_bytes([p[16], p[17]]) {
        1 => 65536,
        n => n as usize,
    };
    p.starts_with(SQLITE_MAGIC)
        && size == s.page_size
        && matches!(p[18], 1 | 2)
        && matches!(p[19], 1 | 2)
        && p[20] as usize == s.reserve()
        && p[21..24] == [64, 32, 32]
}

fn be32(b: &[u8], at: usize) -> u32 {
    u32::from_be_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

/// SQLite's WAL checksum of `data` (a multiple of 8 bytes) continuing from `(s1, s2)`.
fn wal_checksum(big_endian: bool, data: &[u8], (mut s1, mut s2): (u32, u32)) -> (u32, u32) {
    for w in data.chunks_exact(8) {
        let (a, b) = if big_endian {
            (be32(w, 0), be32(w, 4))
        } else {
            (
                u32::from_le_bytes([w[0], w[1], w[2], w[3]]),
                u32::from_le_bytes([w[4], w[5], w[6], w[7]]),
            )
        };
        s1 = s1.wrapping_add(a).wrapping_add(s2);
        s2 = s2.wrapping_add(b).wrapping_add(s1);
    }
    (s1, s2)
}

/// The frames of a write-ahead log to replay, as SQLite reads them: `(page number, offset of
/// the page in `wal`)` up to the last commit, and the database's size in pages after it.
fn wal_frames(wal: &[u8], page_size: usize) -> (Vec<(u32, usize)>, u32, WalReport) {
    let mut report = WalReport::default();
    if wal.len() < WAL_HEADER {
        report.skipped = Some(format!("{} bytes, shorter than its header", wal.len()));
        return (Vec::new(), 0, report);
    }
    let magic = be32(wal, 0);
    if magic & !1 != 0x377f_0682 {
        report.skipped = Some(format!("no WAL magic (0x{magic:08x})"));
        return (Vec::new(), 0, report);
    }
    let big_endian = magic & 1 == 1;
    let size = be32(wal, 8) as usize;
    if size != page_size {
        report.skipped = Some(format!(
            "its page size {size} is not the database's {page_size}"
        ));
        return (Vec::new(), 0, report);
    }
    let mut sum = wal_checksum(big_endian, &wal[..24], (0, 0));
    if sum != (be32(wal, 24), be32(wal, 28)) {
        report.skipped = Some("its header checksum does not hold".to_string());
        return (Vec::new(), 0, report);
    }
    let salts = &wal[16..24];
    let frame = WAL_FRAME_HEADER + page_size;
    let whole = (wal.len() - WAL_HEADER) / frame;
    let mut frames = Vec::new();
    let mut committed = 0usize;
    let mut db_pages = 0u32;
    for i in 0..whole {
        let at = WAL_HEADER + i * frame;
        let h = &wal[at..at + WAL_FRAME_HEADER];
        if &h[8..16] != salts {
            break;
        }
        sum = wal_checksum(big_endian, &h[..8], sum);
        sum = wal_checksum(big_endian, &wal[at + WAL_FRAME_HEADER..at + frame], sum);
        if sum != (be32(h, 16), be32(h, 20)) {
            break;
        }
        let number = be32(h, 0);
        if number == 0 {
            break;
        }
        frames.push((number, at + WAL_FRAME_HEADER));
        report.valid += 1;
        let commit = be32(h, 4);
        if commit > 0 {
            committed = frames.len();
            db_pages = commit;
        }
    }
    frames.truncate(committed);
    report.replayed = committed as u64;
    report.ignored = whole as u64 - report.valid;
    (frames, db_pages, report)
}

/// Decrypts the SQLCipher database read from `db` (`db_len` bytes), with its write-ahead log
/// `wal` when given, into `out` (a plain SQLite image), with `key` and `settings`; `salt` is
/// given when the settings keep a plaintext header (it is then not in the file).
///
/// Errors: the file is shorter than a page ([`Error::Truncated`]); the key does not open page 1
/// ([`Error::Encrypted`]: wrong key, other settings, or another database); reading `db` or
/// writing `out` failed. A later page that does not authenticate is reported, not an error.
#[allow(clippy::too_many_arguments)]
pub fn decrypt(
    layer: &str,
    db: &mut dyn Read,
    db_len: u64,
    wal: Option<&[u8]>,
    key: &Key,
    salt: Option<[u8; 16]>,
    settings: &Settings,
    out: &mut std::fs::File,
) -> Result<Report> {
    let s = settings;
    s.check(layer)?;
    let ps = s.page_size;
    if db_len < ps as u64 {
        return Err(Error::Truncated {
            layer: layer.to_string(),
            offset: 0,
            wanted: ps as u64,
        });
    }
    let read_err = |offset: u64| {
        let layer = layer.to_string();
        move |source| Error::Read {
            layer,
            offset,
            source,
        }
    };
    let write_err = |source| Error::Io {
        path: format!("decrypted copy of {layer}").into(),
        source,
    };
    let mut raw = vec![0u8; ps];
    db.read_exact(&mut raw).map_err(read_err(0))?;
    let salt = match (salt, s.plaintext_header) {
        (Some(salt), _) => salt,
        (None, 0) => raw[..16].try_into().unwrap_or([0; 16]),
        (None, _) => {
            return Err(Error::Encrypted {
                layer: layer.to_string(),
                detail:
                    "the settings keep a plaintext header, so the salt must be given with the key"
                        .to_string(),
            });
        }
    };
    let keys = keys(key, &salt, s);
    let mut plain = Vec::with_capacity(ps);
    let mut report = Report::default();
    let first = page(1, &raw, &keys, s, &mut plain);
    let opens = match s.hmac {
        Some(_) => first,
        None => plausible_header(&plain, s),
    };
    if !opens {
        return Err(Error::Encrypted {
            layer: layer.to_string(),
            detail: format!(
                "the key does not open page 1 ({}): a wrong key, other SQLCipher settings, or another database ({})",
                if s.hmac.is_some() {
                    "its HMAC does not hold"
                } else {
                    "it does not decrypt to a SQLite header"
                },
                s.describe()
            ),
        });
    }
    let count = |n: u64, ok: bool, report: &mut Report| {
        if s.hmac.is_none() {
            return;
        }
        if ok {
            report.authenticated += 1;
        } else {
            report.unauthenticated_count += 1;
            if report.unauthenticated.len() < MAX_LISTED {
                report.unauthenticated.push(n);
            }
        }
    };
    count(1, first, &mut report);
    out.write_all(&plain).map_err(write_err)?;
    report.pages = 1;
    let whole = db_len / ps as u64;
    for n in 2..=whole {
        let offset = (n - 1) * ps as u64;
        db.read_exact(&mut raw).map_err(read_err(offset))?;
        let ok = page(n as u32, &raw, &keys, s, &mut plain);
        count(n, ok, &mut report);
        out.write_all(&plain).map_err(write_err)?;
        report.pages += 1;
    }
    report.trailing = db_len % ps as u64;
    report.image_pages = report.pages;
    if let Some(wal) = wal {
        let (frames, db_pages, mut wal_report) = wal_frames(wal, ps);
        // a log can only grow the database by the pages it writes (a crafted commit size
        // claiming more is bounded by that)
        let most = report.pages + frames.len() as u64;
        if !frames.is_empty() && u64::from(db_pages) > most {
            wal_report.skipped = Some(format!(
                "its last commit claims {db_pages} pages, more than the file's {} and the log's {} frames could hold",
                report.pages,
                frames.len()
            ));
            wal_report.replayed = 0;
        } else {
            // the last version of each page, in page order
            let mut last: std::collections::BTreeMap<u32, usize> = Default::default();
            for (number, at) in &frames {
                last.insert(*number, *at);
            }
            for (number, at) in last {
                if number > db_pages {
                    continue;
                }
                let ok = page(number, &wal[at..at + ps], &keys, s, &mut plain);
                count(u64::from(number), ok, &mut report);
                out.seek(SeekFrom::Start(u64::from(number - 1) * ps as u64))
                    .and_then(|_| out.write_all(&plain))
                    .map_err(write_err)?;
            }
            if db_pages > 0 {
                out.set_len(u64::from(db_pages) * ps as u64)
                    .map_err(write_err)?;
                report.image_pages = u64::from(db_pages);
            }
        }
        report.wal = Some(wal_report);
    }
    out.flush().map_err(write_err)?;
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reserves_are_the_iv_and_hmac_rounded_to_the_block() {
        assert_eq!(Settings::V3.reserve(), 48);
        assert_eq!(Settings::V4.reserve(), 80);
        let v1 = Settings {
            hmac: None,
            ..Settings::V3
        };
        assert_eq!(v1.reserve(), 16);
    }

    #[test]
    fn impossible_settings_are_refused() {
        let odd = Settings {
            page_size: 1000,
            ..Settings::V3
        };
        let e = odd.check("x").unwrap_err().to_string();
        assert!(e.contains("not possible"), "{e}");
    }

    #[test]
    fn the_wal_checksum_is_sqlites() {
        // SQLite's reference: words (1, 2) then (3, 4) from (0, 0), big-endian
        let data = [0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 4];
        let (a, b) = wal_checksum(true, &data, (0, 0));
        // s1 = 0+1+0 = 1, s2 = 0+2+1 = 3; s1 = 1+3+3 = 7, s2 = 3+4+7 = 14
        assert_eq!((a, b), (7, 14));
    }
}
