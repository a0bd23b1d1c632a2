//! The keybag of an encrypted iTunes/Finder backup, and the decryption it allows.
//!
//! `Manifest.plist`'s `BackupKeyBag` is a list of TLV records: a 4-byte ASCII tag, a 4-byte
//! big-endian length, the value (4-byte values are big-endian integers). The records before the
//! second `UUID` describe the keybag (`VERS`, `TYPE`, `UUID`, `HMCK`, `WRAP`, `SALT`, `ITER`,
//! `DPWT`, `DPIC`, `DPSL`); each later `UUID` opens one protection class (`CLAS`, `WRAP`,
//! `KTYP`, `WPKY`, `PBKY`).
//!
//! Unlocking: passcode key = PBKDF2-HMAC-SHA1(PBKDF2-HMAC-SHA256(password, `DPSL`, `DPIC`),
//! `SALT`, `ITER`), 32 bytes (backups made before iOS 10.2 have no `DPSL`/`DPIC`: the SHA-256
//! round is skipped). Every class whose `WRAP` has bit 2 ("wrapped with the passcode key") has
//! its `WPKY` unwrapped with it (AES key wrap, RFC 3394); the wrap's integrity check failing is
//! how a wrong password shows. `ManifestKey` and each file's `EncryptionKey` are a 4-byte
//! little-endian class and a key wrapped with that class key; `Manifest.db` and the files are
//! AES-256-CBC with a zero IV and PKCS#7 padding.
//!
//! The password and every derived key are held in buffers zeroed when dropped, and are never
//! formatted (their `Debug` says `<hidden>`).

use aes::cipher::{BlockDecryptMut, KeyIvInit, block_padding::NoPadding};
use zeroize::Zeroizing;

/// Highest `DPIC` accepted (real backups use 10,000,000): a crafted keybag cannot make the
/// derivation run for hours.
pub const MAX_DPIC: u32 = 20_000_000;
/// Highest `ITER` accepted (real backups use 10,000).
pub const MAX_ITER: u32 = 1_000_000;
/// Largest keybag parsed.
pub const MAX_KEYBAG: usize = 1 << 20;

/// `WRAP` bit: the class key is wrapped with the passcode key.
const WRAP_PASSCODE: u32 = 2;

/// A backup password, zeroed when dropped and never printed.
#[derive(Clone)]
pub struct Password(Zeroizing<Vec<u8>>);

impl Password {
    /// A password from its bytes (UTF-8 as typed).
    pub fn new(bytes: Vec<u8>) -> Password {
        Password(Zeroizing::new(bytes))
    }

    /// The password held by the environment variable `var`, if it is set.
    pub fn from_env(var: &str) -> Option<Password> {
        use std::os::unix::ffi::OsStringExt;
        std::env::var_os(var).map(|v| Password::new(v.into_vec()))
    }

    /// The password's bytes, for handing to what needs them (a tool worker's environment);
    /// never to be logged, stored or shown.
    pub fn bytes(&self) -> &[u8] {
        &self.0
    }
}

impl std::fmt::Debug for Password {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Password(<hidden>)")
    }
}

/// A 256-bit key, zeroed when dropped and never printed.
#[derive(Clone)]
pub struct Key(Zeroizing<[u8; 32]>);

impl Key {
    /// A key from its bytes (the caller's copy is not zeroed).
    pub fn new(bytes: [u8; 32]) -> Key {
        Key(Zeroizing::new(bytes))
    }
}

impl std::fmt::Debug for Key {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Key(<hidden>)")
    }
}

/// What is wrong with a keybag: the tag concerned and the offset of its record in the keybag.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeybagError {
    pub tag: String,
    pub offset: u64,
    pub detail: String,
}

/// One protection class of the keybag.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClassRecord {
    /// The protection class (1 … 11).
    pub class: u32,
    /// `WRAP` flags (2: wrapped with the passcode key).
    pub wrap: u32,
    /// `KTYP` (0 AES, 1 Curve25519), if given.
    pub key_type: Option<u32>,
    /// `WPKY`, the wrapped class key.
    pub wrapped: Option<Vec<u8>>,
    /// Offset of the class's `UUID` record.
    pub offset: u64,
}

/// A parsed backup keybag.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Keybag {
    pub version: Option<u32>,
    /// `TYPE` (1 for a backup keybag).
    pub kind: Option<u32>,
    pub salt: Vec<u8>,
    pub iterations: u32,
    /// `DPSL` and `DPIC`, the SHA-256 round (iOS 10.2 and later).
    pub dp_salt: Option<Vec<u8>>,
    pub dp_iterations: Option<u32>,
    pub classes: Vec<ClassRecord>,
}

fn tag_name(tag: &[u8]) -> String {
    tag.iter()
        .map(|&b| {
            if b.is_ascii_graphic() {
                char::from(b)
            } else {
                '?'
            }
        })
        .collect()
}

/// Parses a `BackupKeyBag` blob.
pub fn parse(data: &[u8]) -> Result<Keybag, KeybagError> {
    let err = |tag: &str, offset: usize, detail: String| KeybagError {
        tag: tag.to_string(),
        offset: offset as u64,
        detail,
    };
    if data.len() > MAX_KEYBAG {
        return Err(err(
            "-",
            0,
            format!("{} bytes exceeds the limit of {MAX_KEYBAG}", data.len()),
        ));
    }
    let mut bag = Keybag {
        version: None,
        kind: None,
        salt: Vec::new(),
        iterations: 0,
        dp_salt: None,
        dp_iterations: None,
        classes: Vec::new(),
    };
    let (mut salt, mut iter) = (None, None);
    let mut own_uuid = false;
    let mut pos = 0usize;
    while pos < data.len() {
        let Some(head) = data.get(pos..pos + 8) else {
            return Err(err(
                &tag_name(&data[pos..data.len().min(pos + 4)]),
                pos,
                format!(
                    "truncated record header: 8 bytes needed, {} left",
                    data.len() - pos
                ),
            ));
        };
        let tag = tag_name(&head[..4]);
        let len = u32::from_be_bytes([head[4], head[5], head[6], head[7]]) as usize;
        let Some(value) = data.get(pos + 8..(pos + 8).saturating_add(len)) else {
            return Err(err(
                &tag,
                pos,
                format!(
                    "truncated: the record claims {len} bytes, {} left",
                    data.len() - pos - 8
                ),
            ));
        };
        let int = || -> Result<u32, KeybagError> {
            <[u8; 4]>::try_from(value)
                .map(u32::from_be_bytes)
                .map_err(|_| err(&tag, pos, format!("a 4-byte integer expected, {len} bytes")))
        };
        let class_tag = matches!(tag.as_str(), "CLAS" | "WRAP" | "KTYP" | "WPKY");
        if tag == "UUID" {
            if own_uuid {
                bag.classes.push(ClassRecord {
                    class: 0,
                    wrap: 0,
                    key_type: None,
                    wrapped: None,
                    offset: pos as u64,
                });
            }
            // the keybag's own UUID comes first; each later one opens a class
            own_uuid = true;
        } else if let (true, Some(c)) = (class_tag, bag.classes.last_mut()) {
            match tag.as_str() {
                "CLAS" => c.class = int()?,
                "WRAP" => c.wrap = int()?,
                "KTYP" => c.key_type = Some(int()?),
                _ => {
                    if value.len() != 40 {
                        return Err(err(
                            &tag,
                            pos,
                            format!("a wrapped class key is 40 bytes, this one {len}"),
                        ));
                    }
                    c.wrapped = Some(value.to_vec());
                }
            }
        } else {
            match tag.as_str() {
                "VERS" => bag.version = Some(int()?),
                "TYPE" => bag.kind = Some(int()?),
                "SALT" => salt = Some(value.to_vec()),
                "ITER" => iter = Some(int()?),
                "DPSL" => bag.dp_salt = Some(value.to_vec()),
                "DPIC" => bag.dp_iterations = Some(int()?),
                _ => {}
            }
        }
        pos += 8 + len;
    }
    bag.salt = salt.ok_or_else(|| err("SALT", pos, "no SALT record".to_string()))?;
    bag.iterations = iter.ok_or_else(|| err("ITER", pos, "no ITER record".to_string()))?;
    if bag.iterations == 0 || bag.iterations > MAX_ITER {
        return Err(err(
            "ITER",
            0,
            format!("iteration count {} outside 1..={MAX_ITER}", bag.iterations),
        ));
    }
    match (&bag.dp_salt, bag.dp_iterations) {
        (Some(_), Some(n)) if n == 0 || n > MAX_DPIC => {
            return Err(err(
                "DPIC",
                0,
                format!("iteration count {n} outside 1..={MAX_DPIC}"),
            ));
        }
        (Some(_), None) => return Err(err("DPIC", 0, "DPSL without DPIC".to_string())),
        (None, Some(_)) => return Err(err("DPSL", 0, "DPIC without DPSL".to_string())),
        _ => {}
    }
    if let Some(c) = bag.classes.iter().find(|c| c.class == 0) {
        return Err(err(
            "CLAS",
            usize::try_from(c.offset).unwrap_or(usize::MAX),
            "a protection class without a CLAS record".to_string(),
        ));
    }
    if bag.classes.is_empty() {
        return Err(err("CLAS", pos, "no protection class".to_string()));
    }
    Ok(bag)
}

/// The class keys of an unlocked keybag.
pub struct ClassKeys(Vec<(u32, Key)>);

impl std::fmt::Debug for ClassKeys {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let classes: Vec<u32> = self.0.iter().map(|(c, _)| *c).collect();
        write!(f, "ClassKeys(classes {classes:?}, keys <hidden>)")
    }
}

/// The passcode key derived from `password` (PBKDF2-HMAC-SHA256, then PBKDF2-HMAC-SHA1).
pub fn passcode_key(bag: &Keybag, password: &Password) -> Key {
    let mut key = Zeroizing::new([0u8; 32]);
    match (&bag.dp_salt, bag.dp_iterations) {
        (Some(dpsl), Some(dpic)) => {
            let mut round1 = Zeroizing::new([0u8; 32]);
            pbkdf2::pbkdf2_hmac::<sha2::Sha256>(password.bytes(), dpsl, dpic, &mut *round1);
            pbkdf2::pbkdf2_hmac::<sha1::Sha1>(&*round1, &bag.salt, bag.iterations, &mut *key);
        }
        _ => pbkdf2::pbkdf2_hmac::<sha1::Sha1>(
            password.bytes(),
            &bag.salt,
            bag.iterations,
            &mut *key,
        ),
    }
    Key(key)
}

/// RFC 3394 unwrap of a 40-byte wrapped 256-bit key; `None` when its integrity check fails.
pub fn unwrap(kek: &Key, wrapped: &[u8]) -> Option<Key> {
    if wrapped.len() != 40 {
        return None;
    }
    let kek = aes_kw::KekAes256::from(*kek.0);
    let mut out = Zeroizing::new([0u8; 32]);
    kek.unwrap(wrapped, &mut *out).ok()?;
    Some(Key(out))
}

/// Unlocks the keybag: `None` when a class key does not unwrap (a wrong password).
pub fn unlock(bag: &Keybag, password: &Password) -> Option<ClassKeys> {
    let pk = passcode_key(bag, password);
    let mut keys = Vec::new();
    for c in &bag.classes {
        let Some(wrapped) = &c.wrapped else { continue };
        if c.wrap & WRAP_PASSCODE == 0 {
            continue;
        }
        keys.push((c.class, unwrap(&pk, wrapped)?));
    }
    Some(ClassKeys(keys))
}

impl ClassKeys {
    /// Unwraps a persistent key (`ManifestKey`, a file's `EncryptionKey`: 4-byte little-endian
    /// class, then the 40-byte wrapped key).
    pub fn unwrap_persistent(&self, blob: &[u8], class_hint: Option<u32>) -> Result<Key, String> {
        if blob.len() != 44 {
            return Err(format!(
                "a wrapped key is 4 + 40 bytes, this one is {} bytes",
                blob.len()
            ));
        }
        let class = u32::from_le_bytes([blob[0], blob[1], blob[2], blob[3]]);
        let class = if class == 0 {
            class_hint.unwrap_or(0)
        } else {
            class
        };
        let (_, ck) = self
            .0
            .iter()
            .find(|(c, _)| *c == class)
            .ok_or_else(|| format!("protection class {class} has no key in the keybag"))?;
        unwrap(ck, &blob[4..]).ok_or_else(|| {
            format!("the key wrapped with class {class} fails its integrity check (RFC 3394)")
        })
    }
}

/// Decrypts AES-256-CBC (zero IV) in place and removes the PKCS#7 padding; `None` when the
/// length is not a multiple of 16 or the padding is not valid (wrong key or damaged bytes).
pub fn decrypt(key: &Key, data: &mut Vec<u8>) -> Option<()> {
    if !data.len().is_multiple_of(16) || data.is_empty() {
        return None;
    }
    let dec = cbc::Decryptor::<aes::Aes256>::new((&*key.0).into(), &[0u8; 16].into());
    dec.decrypt_padded_mut::<NoPadding>(data).ok()?;
    let n = usize::from(*data.last()?);
    if n == 0 || n > 16 || data[data.len() - n..].iter().any(|&b| usize::from(b) != n) {
        return None;
    }
    data.truncate(data.len() - n);
    Some(())
}

/// Ciphertext read per step of [`CbcFile::read_at`]: small enough to stay in the allocator's
/// heap (no fresh pages each read) and in cache.
const CBC_STEP: u64 = 64 * 1024;

/// A file of an encrypted backup, decrypted as it is read. AES-256-CBC decrypts at any block:
/// plaintext block *i* is the block decryption of ciphertext *i* XOR ciphertext *i − 1* (the
/// zero IV before the first), so no read needs more than the blocks it covers and the one
/// before them, and the plaintext is never held whole.
pub struct CbcFile {
    inner: crate::bytes::Bytes,
    key: Key,
    len: u64,
    name: String,
}

impl CbcFile {
    /// Checks the stored length (a multiple of 16) and the PKCS#7 padding of the last block;
    /// the plaintext is the unpadded length, cut to `recorded` (the `MBFile` size) when smaller.
    /// The error says what is wrong (a wrong key shows as bad padding).
    pub fn open(
        inner: crate::bytes::Bytes,
        key: Key,
        recorded: Option<u64>,
        name: String,
    ) -> Result<CbcFile, crate::Error> {
        let clen = inner.len();
        let corrupt = |detail: String| crate::Error::Corrupt {
            layer: name.clone(),
            offset: clen,
            detail,
        };
        if clen == 0 {
            return Ok(CbcFile {
                inner,
                key,
                len: 0,
                name,
            });
        }
        if !clen.is_multiple_of(16) {
            return Err(corrupt(format!(
                "{clen} bytes stored: AES-CBC data is a whole number of 16-byte blocks (the file \
                 is damaged or cut)"
            )));
        }
        let start = clen.saturating_sub(32);
        let mut tail = vec![0u8; usize::try_from(clen - start).unwrap_or(32)];
        inner.read_exact_at(start, &mut tail)?;
        let (iv, last) = if tail.len() == 32 {
            let (a, b) = tail.split_at_mut(16);
            (<[u8; 16]>::try_from(&*a).unwrap_or([0; 16]), b)
        } else {
            ([0u8; 16], &mut tail[..])
        };
        let dec = cbc::Decryptor::<aes::Aes256>::new((&*key.0).into(), &iv.into());
        dec.decrypt_padded_mut::<NoPadding>(last)
            .map_err(|_| corrupt("the last block does not decrypt".to_string()))?;
        let n = last.last().copied().unwrap_or(0);
        if n == 0 || n > 16 || last[16 - usize::from(n)..].iter().any(|&b| b != n) {
            return Err(corrupt(
                "bad PKCS#7 padding after decryption (the file is damaged, or its key is not \
                 the one it was encrypted with)"
                    .to_string(),
            ));
        }
        let unpadded = clen - u64::from(n);
        let len = recorded.map_or(unpadded, |r| r.min(unpadded));
        Ok(CbcFile {
            inner,
            key,
            len,
            name,
        })
    }
}

impl crate::bytes::ByteSource for CbcFile {
    fn len(&self) -> u64 {
        self.len
    }

    fn read_at(&self, offset: u64, buf: &mut [u8]) -> Result<usize, crate::Error> {
        if offset >= self.len || buf.is_empty() {
            return Ok(0);
        }
        let want = (buf.len() as u64).min(self.len - offset);
        let end = (offset + want).div_ceil(16) * 16;
        let mut block = offset / 16 * 16;
        let mut tmp = Vec::with_capacity(usize::try_from(CBC_STEP + 16).unwrap_or(0));
        while block < end {
            let step_end = end.min(block + CBC_STEP);
            let from = block.saturating_sub(16);
            tmp.resize(usize::try_from(step_end - from).unwrap_or(0), 0);
            self.inner.read_exact_at(from, &mut tmp)?;
            let (iv, data) = if block == 0 {
                ([0u8; 16], &mut tmp[..])
            } else {
                let (a, b) = tmp.split_at_mut(16);
                (<[u8; 16]>::try_from(&*a).unwrap_or([0; 16]), b)
            };
            let dec = cbc::Decryptor::<aes::Aes256>::new((&*self.key.0).into(), &iv.into());
            dec.decrypt_padded_mut::<NoPadding>(data)
                .map_err(|_| crate::Error::Corrupt {
                    layer: self.name.clone(),
                    offset: block,
                    detail: "ciphertext not a whole number of blocks".to_string(),
                })?;
            // copy the part of [block, step_end) that lies in [offset, offset + want)
            let lo = block.max(offset);
            let hi = step_end.min(offset + want);
            let src = &data[usize::try_from(lo - block).unwrap_or(0)..]
                [..usize::try_from(hi - lo).unwrap_or(0)];
            let dst = usize::try_from(lo - offset).unwrap_or(0);
            buf[dst..dst + src.len()].copy_from_slice(src);
            block = step_end;
        }
        Ok(usize::try_from(want).unwrap_or(0))
    }

    fn layer_name(&self) -> String {
        self.name.clone()
    }
}
