//! iTunes / Finder backups (iOS 10 and later, plain or encrypted) presented as the real iOS tree.
//!
//! A backup folder holds `Manifest.db` (SQLite), `Manifest.plist`, `Info.plist`,
//! `Status.plist`, and every backed-up file under a hashed name `<first two hex>/<fileID>`,
//! where `fileID` is the SHA-1 of `domain-relativePath`. `Manifest.db`'s table
//! `Files(fileID, domain, relativePath, flags, file)` says where each file lived on the phone:
//! `flags` is 1 for a file, 2 for a directory, 4 for a symbolic link, and `file` is an
//! NSKeyedArchiver binary plist of an `MBFile` (size, mode, inode, times, link target), parsed
//! with [`crate::plist::read`] (bounded depth and expansion).
//!
//! `Manifest.db` is evidence: it is never opened in place. It is copied (with its `-wal` and
//! `-shm` files when present) into a private temporary folder, the copy is opened read-only, every
//! row is read, and the copy is deleted before [`ItunesBackup::open`] returns.
//!
//! # Domains
//!
//! Each domain is the root of a folder on the device; the tree shows every file at
//! `root/relativePath`. The table below is the one forensic tools use (iLEAPP, TRACE, iOS backup
//! browsers); `CameraRollDomain` and `MediaDomain` map to `/private/var/mobile` because their
//! relative paths already begin with `Media/` (`Media/DCIM/100APPLE/IMG_0001.JPG`,
//! `Media/PhotoData/Photos.sqlite`), and `MediaDomain` also holds `Library/SMS/Attachments/…`.
//!
//! | domain | device folder |
//! |---|---|
//! | `HomeDomain`, `CameraRollDomain`, `MediaDomain`, `KeyboardDomain`, `HealthDomain`, `TonesDomain`, `HomeKitDomain` | `/private/var/mobile` |
//! | `BooksDomain` | `/private/var/mobile/Media/Books` |
//! | `RootDomain` | `/private/var/root` |
//! | `SystemPreferencesDomain` | `/private/var/preferences` |
//! | `WirelessDomain` | `/private/var/wireless` |
//! | `KeychainDomain` | `/private/var/Keychains` |
//! | `ManagedPreferencesDomain` | `/private/var/Managed Preferences` |
//! | `DatabaseDomain` | `/private/var/db` |
//! | `MobileDeviceDomain` | `/private/var/MobileDevice` |
//! | `InstallDomain` | `/private/var/installd` |
//! | `NetworkDomain` | `/private/var/networkd` |
//! | `ProtectedDomain` | `/private/var/protected` |
//! | `AppDomain-<bundle>` | `/private/var/mobile/Containers/Data/Application/<bundle>` |
//! | `AppDomainGroup-<group>` | `/private/var/mobile/Containers/Shared/AppGroup/<group>` |
//! | `AppDomainPlugin-<plugin>` | `/private/var/mobile/Containers/Data/PluginKitPlugin/<plugin>` |
//! | `SysContainerDomain-<id>` | `/private/var/containers/Data/System/<id>` |
//! | `SysSharedContainerDomain-<id>` | `/private/var/containers/Shared/SystemGroup/<id>` |
//! | any other domain `D` | `/private/var/D` |
//!
//! (On the device, application containers are named by a UUID that the backup does not record;
//! the bundle or group identifier stands in for it, as in other tools.)
//!
//! The backup's own top-level files (`Info.plist`, `Manifest.plist`, `Status.plist`,
//! `Manifest.db`) are listed under `/.backup/`, which no iOS path uses. Names are normalised and
//! duplicates kept as in archives (see [`crate::archive`]): a domain or path holding `..` stays
//! inside the tree.
//!
//! # Encrypted backups
//!
//! `Manifest.plist`'s `IsEncrypted` marks a backup made with a backup password. Opened with
//! [`ItunesBackup::open_with`] and the examiner's [`keybag::Password`], its keybag is unlocked
//! (see [`keybag`]), `Manifest.db` is decrypted with `ManifestKey` into the private temporary
//! folder (then read as above and removed), and each file is decrypted as it is read
//! ([`keybag::CbcFile`]: only the blocks a read covers, in memory, never written) with its own
//! key (the `MBFile`'s `EncryptionKey`), cut to its recorded size.
//! The layer reads "itunes backup ([`DECRYPTED`]) <folder>". Without a password:
//! [`Error::PasswordNeeded`]; a wrong one: [`Error::WrongPassword`]; a damaged keybag:
//! [`Error::Keybag`] (tag, offset); a file whose key does not unwrap: [`Error::FileKey`] for
//! that file alone (a diagnostic counts them); no `Manifest.db`: [`Error::MissingManifest`].
//!
//! Not supported: iOS 9 or older backups (`Manifest.mbdb`, [`Error::Unsupported`]); the
//! keychain (`KeychainDomain/keychain-backup.plist`) is listed as a file, its entries are not
//! parsed yet.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use plist::Value;
use rusqlite::types::ValueRef;
use sha1::{Digest, Sha1};

pub mod keybag;

use crate::Error;
use crate::archive::tree::{Item, Tree};
use crate::bytes::{Bytes, FileBytes};
use crate::fs::{Entry, EntryKind, FileSystem, RawTime, Time, TimeRole, join};
use keybag::{ClassKeys, Key, Password};

/// Where each domain's files live on the device.
const DOMAINS: &[(&str, &str)] = &[
    ("HomeDomain", "/private/var/mobile"),
    ("CameraRollDomain", "/private/var/mobile"),
    ("MediaDomain", "/private/var/mobile"),
    ("KeyboardDomain", "/private/var/mobile"),
    ("HealthDomain", "/private/var/mobile"),
    ("TonesDomain", "/private/var/mobile"),
    ("HomeKitDomain", "/private/var/mobile"),
    ("BooksDomain", "/private/var/mobile/Media/Books"),
    ("RootDomain", "/private/var/root"),
    ("SystemPreferencesDomain", "/private/var/preferences"),
    ("WirelessDomain", "/private/var/wireless"),
    ("KeychainDomain", "/private/var/Keychains"),
    (
        "ManagedPreferencesDomain",
        "/private/var/Managed Preferences",
    ),
    ("DatabaseDomain", "/private/var/db"),
    ("MobileDeviceDomain", "/private/var/MobileDevice"),
    ("InstallDomain", "/private/var/installd"),
    ("NetworkDomain", "/private/var/networkd"),
    ("ProtectedDomain", "/private/var/protected"),
];

/// Domains named `<prefix><identifier>`, and the folder their identifier sits in.
const DOMAIN_PREFIXES: &[(&str, &str)] = &[
    (
        "AppDomainGroup-",
        "/private/var/mobile/Containers/Shared/AppGroup",
    ),
    (
        "AppDomainPlugin-",
        "/private/var/mobile/Containers/Data/PluginKitPlugin",
    ),
    (
        "AppDomain-",
        "/private/var/mobile/Containers/Data/Application",
    ),
    ("SysContainerDomain-", "/private/var/containers/Data/System"),
    (
        "SysSharedContainerDomain-",
        "/private/var/containers/Shared/SystemGroup",
    ),
];

/// Folder of the backup's own files in the tree.
pub const BACKUP_FILES: &str = "/.backup";

/// Largest `MBFile` plist parsed, and largest `Manifest.plist` read.
const MAX_PLIST: u64 = 64 << 20;

/// Where a file of `domain` at `relative_path` lived on the device (see the module's table).
pub fn device_path(domain: &str, relative_path: &str) -> String {
    let root = DOMAINS
        .iter()
        .find(|(d, _)| *d == domain)
        .map(|(_, root)| root.to_string())
        .or_else(|| {
            DOMAIN_PREFIXES.iter().find_map(|(prefix, folder)| {
                domain
                    .strip_prefix(prefix)
                    .map(|id| format!("{folder}/{id}"))
            })
        })
        .unwrap_or_else(|| format!("/private/var/{domain}"));
    if relative_path.is_empty() {
        root
    } else {
        format!("{root}/{relative_path}")
    }
}

/// One row of `Manifest.db`'s `Files` table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ManifestRecord {
    /// The hashed name (SHA-1 of `domain-relativePath`, hex).
    pub file_id: String,
    /// The backup domain (`HomeDomain`, `AppDomain-<bundle>`, …).
    pub domain: String,
    /// The path inside the domain's folder (empty for the domain's folder itself).
    pub relative_path: String,
    /// 1 file, 2 directory, 4 symbolic link.
    pub flags: i64,
    /// Where the record is listed in the tree (its device path, or `~N` renamed if duplicated).
    pub path: String,
}

/// Where an entry's bytes are.
#[derive(Debug, Clone)]
enum Stored {
    /// `<root>/<id[..2]>/<id>`.
    Hashed(String),
    /// A top-level file of the backup folder.
    Own(PathBuf),
    /// A record whose fileID cannot name a stored file.
    Invalid(String),
    /// `<root>/<id[..2]>/<id>`, encrypted with the file's key (or why that key is unusable);
    /// `size` is the size recorded in its `MBFile`.
    Encrypted {
        id: String,
        key: Result<Key, String>,
        size: Option<u64>,
    },
}

/// An iTunes/Finder backup presented as the device's tree.
pub struct ItunesBackup {
    root: PathBuf,
    layer: String,
    encrypted: bool,
    manifest_sha256: Option<String>,
    tree: Tree<Stored>,
    records: Vec<ManifestRecord>,
    diagnostics: Vec<String>,
}

/// Opens an iTunes/Finder backup folder as the device's tree.
pub fn open_itunes(path: &Path) -> Result<Arc<dyn FileSystem>, Error> {
    Ok(Arc::new(ItunesBackup::open(path)?))
}

/// Opens an iTunes/Finder backup folder, decrypting it with `password` if it is encrypted.
pub fn open_itunes_with(
    path: &Path,
    password: Option<&Password>,
) -> Result<Arc<dyn FileSystem>, Error> {
    Ok(Arc::new(ItunesBackup::open_with(path, password)?))
}

/// What an encrypted backup's layer says of it.
pub const DECRYPTED: &str = "encrypted, decrypted with the examiner's password";

/// Metadata of one file from its `MBFile` plist.
#[derive(Debug, Default, PartialEq)]
struct FileMeta {
    size: Option<u64>,
    mode: Option<u32>,
    /// `UserID` and `GroupID`.
    owner: Option<(u32, u32)>,
    inode: Option<u64>,
    times: Vec<Time>,
    target: Option<String>,
    protection_class: Option<u32>,
    /// `EncryptionKey`'s bytes (4-byte class, wrapped key) in an encrypted backup.
    encryption_key: Option<Vec<u8>>,
}

/// An NSKeyedArchiver reference (`Uid`) resolved to the object it names.
fn resolve<'a>(objects: &'a [Value], v: &'a Value) -> Option<&'a Value> {
    match v {
        Value::Uid(uid) => objects.get(usize::try_from(uid.get()).ok()?),
        other => Some(other),
    }
}

/// Reads the `MBFile` NSKeyedArchiver plist stored in a `Files.file` cell.
fn mbfile(blob: &[u8]) -> Option<FileMeta> {
    if blob.len() as u64 > MAX_PLIST {
        return None;
    }
    let archive = crate::plist::read(std::io::Cursor::new(blob), "plist MBFile").ok()?;
    let top = archive.as_dictionary()?;
    let objects = top.get("$objects")?.as_array()?;
    let at = |v| resolve(objects, v);
    let root = at(top.get("$top")?.as_dictionary()?.get("root")?)?.as_dictionary()?;
    let int = |key: &str| -> Option<i64> {
        let v = at(root.get(key)?)?;
        v.as_signed_integer()
            .or_else(|| v.as_unsigned_integer().and_then(|u| i64::try_from(u).ok()))
    };
    let mut times = Vec::new();
    for (key, role) in [
        ("LastModified", TimeRole::Modified),
        ("LastStatusChange", TimeRole::Changed),
        ("Birth", TimeRole::Created),
    ] {
        if let Some(secs) = int(key) {
            times.push(Time {
                role,
                raw: RawTime::Unix { secs, nanos: 0 },
            });
        }
    }
    times.sort_by_key(|t| t.role);
    let target = root.get("Target").and_then(at).and_then(|v| match v {
        Value::String(s) => Some(s.clone()),
        Value::Dictionary(d) => d
            .get("NS.string")
            .and_then(Value::as_string)
            .map(str::to_string),
        _ => None,
    });
    let encryption_key = root
        .get("EncryptionKey")
        .and_then(at)
        .and_then(|v| match v {
            Value::Data(d) => Some(d.clone()),
            Value::Dictionary(d) => d
                .get("NS.data")
                .and_then(Value::as_data)
                .map(<[u8]>::to_vec),
            _ => None,
        });
    Some(FileMeta {
        protection_class: int("ProtectionClass").and_then(|c| u32::try_from(c).ok()),
        encryption_key,
        size: int("Size").and_then(|s| u64::try_from(s).ok()),
        mode: int("Mode").and_then(|m| u32::try_from(m).ok()),
        owner: int("UserID")
            .and_then(|u| u32::try_from(u).ok())
            .zip(int("GroupID").and_then(|g| u32::try_from(g).ok())),
        inode: int("InodeNumber").and_then(|i| u64::try_from(i).ok()),
        times,
        target,
    })
}

/// A private temporary folder, removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new() -> Result<Scratch, Error> {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let base = std::env::temp_dir();
        for _ in 0..1000 {
            let n = NEXT.fetch_add(1, Ordering::Relaxed);
            let dir = base.join(format!("masf-itunes-{}-{n}", std::process::id()));
            match std::fs::create_dir(&dir) {
                Ok(()) => return Ok(Scratch(dir)),
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
                Err(e) => return Err(Error::io(&dir, e)),
            }
        }
        Err(Error::io(
            &base,
            std::io::Error::other("no free temporary folder name"),
        ))
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Copies an evidence file (opened read-only) to `to`.
fn copy_evidence(from: &Path, to: &Path) -> Result<(), Error> {
    let mut src = crate::open::open_read_only(from)?;
    let mut dst = std::fs::File::create(to).map_err(|e| Error::io(to, e))?;
    std::io::copy(&mut src, &mut dst).map_err(|e| Error::io(from, e))?;
    Ok(())
}

fn exists(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok()
}

fn is_file_id(id: &str) -> bool {
    id.len() == 40 && id.bytes().all(|b| b.is_ascii_hexdigit())
}

/// The raw rows of the `Files` table.
struct Row {
    file_id: String,
    domain: String,
    relative_path: String,
    flags: i64,
    file: Option<Vec<u8>>,
}

impl ItunesBackup {
    /// Opens the backup folder at `path` (an encrypted one gives [`Error::PasswordNeeded`]).
    pub fn open(path: &Path) -> Result<ItunesBackup, Error> {
        ItunesBackup::open_with(path, None)
    }

    /// Opens the backup folder at `path`, decrypting it with `password` if it is encrypted.
    pub fn open_with(path: &Path, password: Option<&Password>) -> Result<ItunesBackup, Error> {
        let root = path.canonicalize().map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => Error::NotFound {
                path: path.to_path_buf(),
            },
            _ => Error::io(path, e),
        })?;
        let mut layer = format!("itunes backup {}", root.display());
        let mut diagnostics = Vec::new();
        let mut keys = None;

        let manifest_plist = root.join("Manifest.plist");
        if exists(&manifest_plist) {
            match read_plist(&manifest_plist) {
                Ok(v) => {
                    let encrypted = v
                        .as_dictionary()
                        .and_then(|d| d.get("IsEncrypted"))
                        .and_then(Value::as_boolean);
                    if encrypted == Some(true) {
                        let Some(password) = password else {
                            return Err(Error::PasswordNeeded { layer });
                        };
                        layer = format!("itunes backup ({DECRYPTED}) {}", root.display());
                        keys = Some(unlock(&v, password, &layer)?);
                    }
                }
                Err(e) => diagnostics.push(format!("Manifest.plist unreadable: {e}")),
            }
        } else {
            diagnostics.push("no Manifest.plist (encryption could not be checked)".to_string());
        }

        let manifest_db = root.join("Manifest.db");
        if !exists(&manifest_db) {
            if exists(&root.join("Manifest.mbdb")) {
                return Err(Error::Unsupported {
                    layer,
                    detail: "Manifest.mbdb backups (iOS 9 and older) are not supported yet"
                        .to_string(),
                });
            }
            return Err(Error::MissingManifest { path: manifest_db });
        }
        let (rows, manifest_sha256) = read_manifest(&root, &layer, keys.as_ref().map(|(_, k)| k))?;
        let mut bad_keys = 0u64;

        let mut items = Vec::with_capacity(rows.len() + 8);
        let mut records = Vec::with_capacity(rows.len());
        let (mut mismatched, mut odd_flags, mut no_meta) = (0u64, 0u64, 0u64);
        for row in rows {
            let digest = Sha1::digest(format!("{}-{}", row.domain, row.relative_path).as_bytes());
            if !row.file_id.eq_ignore_ascii_case(&hex::encode(digest)) {
                mismatched += 1;
            }
            let meta = row.file.as_deref().and_then(mbfile);
            if meta.is_none() && row.flags != 2 {
                no_meta += 1;
            }
            let meta = meta.unwrap_or_default();
            let stored = match (&keys, is_file_id(&row.file_id)) {
                (_, false) => Stored::Invalid(row.file_id.clone()),
                (Some((keys, _)), true) if row.flags == 1 => {
                    let key = match &meta.encryption_key {
                        Some(blob) => keys.unwrap_persistent(blob, meta.protection_class),
                        None => Err("its MBFile has no EncryptionKey".to_string()),
                    };
                    if key.is_err() {
                        bad_keys += 1;
                    }
                    Stored::Encrypted {
                        id: row.file_id.clone(),
                        key,
                        size: meta.size,
                    }
                }
                _ => Stored::Hashed(row.file_id.clone()),
            };
            let (kind, size, link_target) = match row.flags {
                1 => {
                    let size = meta.size.unwrap_or_else(|| match &stored {
                        Stored::Hashed(id) | Stored::Encrypted { id, .. } => {
                            std::fs::symlink_metadata(hashed_path(&root, id))
                                .map(|m| m.len())
                                .unwrap_or(0)
                        }
                        _ => 0,
                    });
                    (EntryKind::File, size, None)
                }
                2 => (EntryKind::Dir, 0, None),
                4 => {
                    let n = meta.target.as_ref().map_or(0, |t| t.len() as u64);
                    (EntryKind::Symlink, n, meta.target.clone())
                }
                _ => {
                    odd_flags += 1;
                    (EntryKind::Other, 0, None)
                }
            };
            let path = device_path(&row.domain, &row.relative_path);
            records.push(ManifestRecord {
                file_id: row.file_id,
                domain: row.domain,
                relative_path: row.relative_path,
                flags: row.flags,
                path: path.clone(),
            });
            items.push(Item {
                name: path,
                kind,
                size,
                id: meta.inode,
                mode: meta.mode,
                owner: meta.owner,
                times: meta.times,
                link_target,
                payload: stored,
            });
        }
        if mismatched > 0 {
            diagnostics.push(format!(
                "{mismatched} Manifest.db record(s) whose fileID is not the SHA-1 of \
                 domain-relativePath"
            ));
        }
        if odd_flags > 0 {
            diagnostics.push(format!(
                "{odd_flags} record(s) with flags other than 1, 2 or 4 (listed as other)"
            ));
        }
        if bad_keys > 0 {
            diagnostics.push(format!(
                "{bad_keys} encrypted file(s) whose key does not unwrap (unreadable; opening one \
                 says why)"
            ));
        }
        if no_meta > 0 {
            diagnostics.push(format!(
                "{no_meta} record(s) without a readable MBFile plist (no times, mode or inode)"
            ));
        }
        let record_count = items.len();
        items.extend(own_files(&root)?);
        let (tree, placed) = Tree::build(items, &layer);
        for (record, node) in records.iter_mut().zip(placed.iter().take(record_count)) {
            if let Some(e) = tree.entry_at(*node) {
                record.path = e.path.clone();
            }
        }
        Ok(ItunesBackup {
            root,
            layer,
            encrypted: keys.is_some(),
            manifest_sha256,
            tree,
            records,
            diagnostics,
        })
    }

    /// Every record of `Manifest.db`, sorted by domain, relative path and fileID, with the path
    /// it is listed under.
    pub fn records(&self) -> &[ManifestRecord] {
        &self.records
    }

    /// The record with this fileID.
    pub fn record(&self, file_id: &str) -> Option<&ManifestRecord> {
        self.records
            .iter()
            .find(|r| r.file_id.eq_ignore_ascii_case(file_id))
    }

    /// The backup folder.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Whether the backup was encrypted (and so was decrypted with the examiner's password).
    pub fn encrypted(&self) -> bool {
        self.encrypted
    }

    /// SHA-256 (hex) of the decrypted `Manifest.db` of an encrypted backup.
    pub fn decrypted_manifest_sha256(&self) -> Option<&str> {
        self.manifest_sha256.as_deref()
    }
}

fn hashed_path(root: &Path, id: &str) -> PathBuf {
    root.join(id.get(..2).unwrap_or("")).join(id)
}

fn read_plist(path: &Path) -> Result<Value, Error> {
    let file = crate::open::open_read_only(path)?;
    let len = file.metadata().map_err(|e| Error::io(path, e))?.len();
    if len > MAX_PLIST {
        return Err(Error::TooLarge {
            layer: "plist".to_string(),
            offset: 0,
            what: path.display().to_string(),
            claimed: len,
            limit: MAX_PLIST,
        });
    }
    // Read whole (it is bounded above): a binary plist is read in many small seeks and reads.
    let mut bytes = Vec::with_capacity(usize::try_from(len).unwrap_or(0));
    std::io::Read::read_to_end(&mut std::io::Read::take(&file, MAX_PLIST), &mut bytes)
        .map_err(|e| Error::io(path, e))?;
    crate::plist::read(
        std::io::Cursor::new(bytes),
        &format!("plist {}", path.display()),
    )
}

/// Unlocks an encrypted backup's keybag with the password and unwraps its `ManifestKey`.
fn unlock(manifest: &Value, password: &Password, layer: &str) -> Result<(ClassKeys, Key), Error> {
    let dict = manifest.as_dictionary();
    let data = |key: &str| dict.and_then(|d| d.get(key)).and_then(Value::as_data);
    let keybag_error = |tag: &str, offset: u64, detail: String| Error::Keybag {
        layer: layer.to_string(),
        tag: tag.to_string(),
        offset,
        detail,
    };
    let blob = data("BackupKeyBag").ok_or_else(|| {
        keybag_error(
            "-",
            0,
            "Manifest.plist has no BackupKeyBag data".to_string(),
        )
    })?;
    let bag = keybag::parse(blob).map_err(|e| keybag_error(&e.tag, e.offset, e.detail))?;
    let keys = keybag::unlock(&bag, password).ok_or_else(|| Error::WrongPassword {
        layer: layer.to_string(),
    })?;
    let manifest_key = data("ManifestKey").ok_or_else(|| Error::Corrupt {
        layer: layer.to_string(),
        offset: 0,
        detail: "Manifest.plist has no ManifestKey (iOS 10.2 and later encrypt Manifest.db \
                 with it)"
            .to_string(),
    })?;
    let key = keys
        .unwrap_persistent(manifest_key, None)
        .map_err(|detail| Error::Corrupt {
            layer: layer.to_string(),
            offset: 0,
            detail: format!("Manifest.plist ManifestKey: {detail}"),
        })?;
    Ok((keys, key))
}

/// Copies `Manifest.db` (and its journal files) aside, decrypting it with `key` in an encrypted
/// backup, and reads every row of `Files`. Gives the rows and, when decrypted, the SHA-256 of the
/// decrypted database.
fn read_manifest(
    root: &Path,
    layer: &str,
    key: Option<&Key>,
) -> Result<(Vec<Row>, Option<String>), Error> {
    let scratch = Scratch::new()?;
    let mut manifest_sha256 = None;
    if let Some(key) = key {
        let from = root.join("Manifest.db");
        let mut data = read_evidence(&from)?;
        keybag::decrypt(key, &mut data).ok_or_else(|| Error::Corrupt {
            layer: layer.to_string(),
            offset: 0,
            detail: "Manifest.db does not decrypt with its ManifestKey (length not a multiple \
                     of 16 or bad padding: the file is damaged)"
                .to_string(),
        })?;
        manifest_sha256 = Some(hex::encode(sha2::Sha256::digest(&data)));
        let to = scratch.0.join("Manifest.db");
        std::fs::write(&to, &data).map_err(|e| Error::io(&to, e))?;
    } else {
        for name in ["Manifest.db", "Manifest.db-wal", "Manifest.db-shm"] {
            let from = root.join(name);
            if exists(&from) {
                copy_evidence(&from, &scratch.0.join(name))?;
            }
        }
    }
    let corrupt = |e: rusqlite::Error| Error::Corrupt {
        layer: layer.to_string(),
        offset: 0,
        detail: format!("Manifest.db: {e}"),
    };
    let conn = rusqlite::Connection::open_with_flags(
        scratch.0.join("Manifest.db"),
        rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY | rusqlite::OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )
    .map_err(corrupt)?;
    let mut stmt = conn
        .prepare(
            "SELECT fileID, domain, relativePath, flags, file FROM Files \
             ORDER BY domain, relativePath, fileID",
        )
        .map_err(|e| match e {
            rusqlite::Error::SqliteFailure(f, _) if f.code == rusqlite::ErrorCode::NotADatabase => {
                Error::Corrupt {
                    layer: layer.to_string(),
                    offset: 0,
                    detail: "Manifest.db is not an SQLite database (an encrypted backup whose \
                             Manifest.plist is missing?)"
                        .to_string(),
                }
            }
            e => corrupt(e),
        })?;
    let text = |v: ValueRef<'_>| match v {
        ValueRef::Text(t) | ValueRef::Blob(t) => String::from_utf8_lossy(t).into_owned(),
        ValueRef::Integer(n) => n.to_string(),
        ValueRef::Real(x) => x.to_string(),
        ValueRef::Null => String::new(),
    };
    let rows = stmt
        .query_map([], |r| {
            Ok(Row {
                file_id: text(r.get_ref(0)?),
                domain: text(r.get_ref(1)?),
                relative_path: text(r.get_ref(2)?),
                flags: match r.get_ref(3)? {
                    ValueRef::Integer(n) => n,
                    _ => 0,
                },
                file: match r.get_ref(4)? {
                    ValueRef::Blob(b) => Some(b.to_vec()),
                    _ => None,
                },
            })
        })
        .map_err(corrupt)?
        .collect::<Result<Vec<_>, _>>()
        .map_err(corrupt)?;
    drop(stmt);
    drop(conn);
    drop(scratch);
    Ok((rows, manifest_sha256))
}

/// Reads a whole evidence file (opened read-only).
fn read_evidence(path: &Path) -> Result<Vec<u8>, Error> {
    let mut file = crate::open::open_read_only(path)?;
    let mut data = Vec::new();
    std::io::Read::read_to_end(&mut file, &mut data).map_err(|e| Error::io(path, e))?;
    Ok(data)
}

/// The backup's own top-level files, listed under [`BACKUP_FILES`].
fn own_files(root: &Path) -> Result<Vec<Item<Stored>>, Error> {
    let mut out = Vec::new();
    for dirent in std::fs::read_dir(root).map_err(|e| Error::io(root, e))? {
        let dirent = dirent.map_err(|e| Error::io(root, e))?;
        let Ok(meta) = dirent.metadata() else {
            continue;
        };
        if !meta.file_type().is_file() {
            continue;
        }
        use std::os::unix::fs::MetadataExt;
        let name = dirent.file_name().to_string_lossy().into_owned();
        out.push(Item {
            name: join(BACKUP_FILES, &name),
            kind: EntryKind::File,
            size: meta.len(),
            id: Some(meta.ino()),
            mode: Some(meta.mode()),
            owner: Some((meta.uid(), meta.gid())),
            times: vec![Time {
                role: TimeRole::Modified,
                raw: RawTime::Unix {
                    secs: meta.mtime(),
                    nanos: u32::try_from(meta.mtime_nsec()).unwrap_or(0),
                },
            }],
            link_target: None,
            payload: Stored::Own(dirent.path()),
        });
    }
    out.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(out)
}

impl ItunesBackup {
    /// Reads and decrypts one file of an encrypted backup, in memory.
    fn open_encrypted(
        &self,
        path: &str,
        id: &str,
        key: &Result<Key, String>,
        size: Option<u64>,
    ) -> Result<Bytes, Error> {
        let key = key.as_ref().map_err(|detail| Error::FileKey {
            layer: self.layer.clone(),
            path: path.to_string(),
            detail: detail.clone(),
        })?;
        let host = hashed_path(&self.root, id);
        let stored = FileBytes::open(&host)?;
        let file = keybag::CbcFile::open(
            Arc::new(stored),
            key.clone(),
            size,
            format!("{} {path} (decrypted)", self.layer),
        )?;
        Ok(Arc::new(file))
    }
}

impl FileSystem for ItunesBackup {
    fn format(&self) -> &str {
        "itunes_backup"
    }

    fn list_dir(&self, path: &str) -> Result<Vec<Entry>, Error> {
        self.tree.list_dir(path)
    }

    fn stat(&self, path: &str) -> Result<Entry, Error> {
        self.tree.stat(path)
    }

    fn open(&self, path: &str) -> Result<Bytes, Error> {
        let (entry, stored) = self.tree.file(path)?;
        let host = match stored {
            Stored::Hashed(id) => hashed_path(&self.root, id),
            Stored::Own(p) => p.clone(),
            Stored::Encrypted { id, key, size } => {
                return self.open_encrypted(&entry.path, id, key, *size);
            }
            Stored::Invalid(id) => {
                return Err(Error::Corrupt {
                    layer: self.layer.clone(),
                    offset: 0,
                    detail: format!(
                        "{}: Manifest.db names it by {id:?}, which is not a 40-digit hex fileID",
                        entry.path
                    ),
                });
            }
        };
        let meta = std::fs::symlink_metadata(&host).map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => Error::NotFound { path: host.clone() },
            _ => Error::io(&host, e),
        })?;
        if !meta.file_type().is_file() {
            return Err(Error::WrongKind {
                layer: self.layer.clone(),
                path: entry.path.clone(),
                detail: format!("stored file {} is not a regular file", host.display()),
            });
        }
        Ok(Arc::new(FileBytes::open(&host)?))
    }

    fn diagnostics(&self) -> Vec<String> {
        let mut all = self.diagnostics.clone();
        all.extend(self.tree.diagnostics().iter().cloned());
        all
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn domains_map_to_device_folders() {
        let check = |d: &str, r: &str, want: &str| assert_eq!(device_path(d, r), want, "{d}");
        check(
            "HomeDomain",
            "Library/SMS/sms.db",
            "/private/var/mobile/Library/SMS/sms.db",
        );
        check(
            "CameraRollDomain",
            "Media/PhotoData/Photos.sqlite",
            "/private/var/mobile/Media/PhotoData/Photos.sqlite",
        );
        check(
            "AppDomain-net.whatsapp.WhatsApp",
            "Documents",
            "/private/var/mobile/Containers/Data/Application/net.whatsapp.WhatsApp/Documents",
        );
        check(
            "AppDomainGroup-group.net.whatsapp.WhatsApp.shared",
            "ChatStorage.sqlite",
            "/private/var/mobile/Containers/Shared/AppGroup/group.net.whatsapp.WhatsApp.shared/ChatStorage.sqlite",
        );
        check("WirelessDomain", "", "/private/var/wireless");
        check("NewDomain", "x", "/private/var/NewDomain/x");
    }

    #[test]
    fn mbfile_plists_give_metadata() {
        use plist::{Dictionary, Uid};
        let mut file = Dictionary::new();
        file.insert("Size".into(), Value::Integer(42.into()));
        file.insert("Mode".into(), Value::Integer(0o100644.into()));
        file.insert("InodeNumber".into(), Value::Integer(7.into()));
        file.insert("LastModified".into(), Value::Integer(1_600_000_000.into()));
        file.insert("Birth".into(), Value::Integer(1_500_000_000.into()));
        file.insert("Target".into(), Value::Uid(Uid::new(2)));
        let mut top = Dictionary::new();
        top.insert("root".into(), Value::Uid(Uid::new(1)));
        let mut archive = Dictionary::new();
        archive.insert(
            "$objects".into(),
            Value::Array(vec![
                Value::String("$null".into()),
                Value::Dictionary(file),
                Value::String("../x".into()),
            ]),
        );
        archive.insert("$top".into(), Value::Dictionary(top));
        let mut blob = Vec::new();
        Value::Dictionary(archive)
            .to_writer_binary(&mut blob)
            .unwrap();
        let meta = mbfile(&blob).unwrap();
        assert_eq!(meta.size, Some(42));
        assert_eq!(meta.mode, Some(0o100644));
        assert_eq!(meta.inode, Some(7));
        assert_eq!(meta.target.as_deref(), Some("../x"));
        assert_eq!(meta.times.len(), 2);
        assert_eq!(meta.times[0].role, TimeRole::Modified);
        assert!(mbfile(b"bplist00garbage").is_none());
        assert!(mbfile(&blob[..blob.len() / 2]).is_none());
    }
}
