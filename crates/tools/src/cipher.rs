//! The `cipher` argument of `sqlite_tables` and `sqlite_query`: an app's SQLCipher database
//! opened with the key an extraction captured, never with a key an agent types.
//!
//! A *profile* names the app's SQLCipher settings and where its key is kept in the evidence;
//! the tool reads the key there itself, so the key never appears in a call's arguments, its
//! output or the invocation log — only where it was read from. The database is decrypted
//! (`masf_evidence::sqlcipher`, its `-wal` replayed) into the working copy; the evidence is
//! never written.
//!
//! | profile | settings | key |
//! |---|---|---|
//! | `signal_android` | 4,096-byte pages, PBKDF2-HMAC-SHA1 of 1 round, HMAC-SHA1 (Signal's `SqlCipherDatabaseHook` over SQLCipher 3 settings) | the `"sqlite db key"` of the `org.thoughtcrime.securesms` entry of an extraction's `secrets.json` (a list of `{"app", "script_output": [{"payload": {…}}]}`), used as the passphrase as Signal uses the hex string of its database secret |
//! | `simplex_android` | SQLCipher 4's defaults (4,096-byte pages, PBKDF2-HMAC-SHA512 of 256,000 rounds, HMAC-SHA512) | the `"databasePassword"` of the `chat.simplex.app` entry of an extraction's `secrets.json`, the passphrase SimpleX Chat sets |
//! | `wechat_android` | SQLCipher 1: 1,024-byte pages, PBKDF2-HMAC-SHA1 of 4,000 rounds, no HMAC | derived, as WeChat derives it: the first 7 hex digits of md5(IMEI + uin), the `imei` and `uin` given (the uin from WeChat's preferences; the IMEI the one WeChat read, `1234567890ABCDEF` where Android let it read none) |
//! | `signal_ios`, `session_ios` (the same of `com.loki-project.loki-messenger`) | SQLCipher 4 (4,096-byte pages, HMAC-SHA512) with a 32-byte plaintext header, a raw key | the `GRDBDatabaseCipherKeySpec` generic password of the `org.whispersystems.signal` access group in a decrypted keychain export (`genp`: `agrp`, `acct`, `v_Data`): 32 bytes of key, then the 16-byte salt the plaintext header displaces |
//! | `telegram_postbox` | the same as `signal_ios` (Telegram's Postbox `db_sqlite`, which Telegram opens so) | Telegram's key file in `telegram-data/`: on iOS `.tempkey`, the 32-byte key and the 16-byte salt in the clear (Telegram-iOS's `deviceSpecificEncryptionParameters`); on macOS `.tempkeyEncrypted`, AES-256-CBC under the SHA-512 of the app's local passcode (key its first 32 bytes, IV its last 16) of the key, the salt and their MurmurHash3 (Telegram's seed), checked, opened under the default passcode (`no-matter-key`) — a passcode the user set is not known and the file does not open |

use std::io::Read as _;

use masf_evidence::bytes::Reader;
use masf_evidence::fs::{FileSystem, normalize_path};
use masf_evidence::sqlcipher::{Hash, Key, Settings};
use serde_json::{Value, json};
use zeroize::Zeroizing;

use crate::{ToolError, args};

/// Largest key file read (an extraction's `secrets.json` is a few KiB).
const MAX_KEY_FILE: u64 = 16 << 20;

/// Signal for Android's package, the `app` of its `secrets.json` entry.
pub const SIGNAL_ANDROID: &str = "org.thoughtcrime.securesms";

/// SimpleX Chat's package, the `app` of its `secrets.json` entry.
pub const SIMPLEX_ANDROID: &str = "chat.simplex.app";

/// Signal for iOS's keychain access group (after the team prefix), Session for iOS's, and the
/// account of a GRDB app's database key.
pub const SIGNAL_IOS_GROUP: &str = "org.whispersystems.signal";
pub const SESSION_IOS_GROUP: &str = "com.loki-project.loki-messenger";
pub const SIGNAL_IOS_ACCOUNT: &str = "GRDBDatabaseCipherKeySpec";

/// An app's SQLCipher settings and where its key is kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Profile {
    SignalAndroid,
    SignalIos,
    SessionIos,
    WechatAndroid,
    SimplexAndroid,
    TelegramPostbox,
}

/// Telegram's local passcode when the user set none: its key file is encrypted under it.
pub const TELEGRAM_DEFAULT_PASSCODE: &str = "no-matter-key";

impl Profile {
    const ALL: [Profile; 6] = [
        Profile::SignalAndroid,
        Profile::SignalIos,
        Profile::SessionIos,
        Profile::WechatAndroid,
        Profile::SimplexAndroid,
        Profile::TelegramPostbox,
    ];

    /// The keychain access group of a profile whose key is in the keychain.
    fn keychain_group(self) -> Option<&'static str> {
        match self {
            Profile::SignalAndroid
            | Profile::WechatAndroid
            | Profile::SimplexAndroid
            | Profile::TelegramPostbox => None,
            Profile::SignalIos => Some(SIGNAL_IOS_GROUP),
            Profile::SessionIos => Some(SESSION_IOS_GROUP),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Profile::SignalAndroid => "signal_android",
            Profile::SignalIos => "signal_ios",
            Profile::SessionIos => "session_ios",
            Profile::WechatAndroid => "wechat_android",
            Profile::SimplexAndroid => "simplex_android",
            Profile::TelegramPostbox => "telegram_postbox",
        }
    }

    pub fn settings(self) -> Settings {
        match self {
            Profile::SignalAndroid => Settings {
                page_size: 4096,
                kdf_iter: 1,
                kdf: Hash::Sha1,
                hmac: Some(Hash::Sha1),
                plaintext_header: 0,
            },
            Profile::SignalIos | Profile::SessionIos | Profile::TelegramPostbox => Settings {
                plaintext_header: 32,
                ..Settings::V4
            },
            Profile::WechatAndroid => Settings {
                page_size: 1024,
                kdf_iter: 4000,
                kdf: Hash::Sha1,
                hmac: None,
                plaintext_header: 0,
            },
            Profile::SimplexAndroid => Settings::V4,
        }
    }
}

/// A parsed `cipher` argument.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cipher {
    pub profile: Profile,
    /// The key file's path in the same file system (empty for a derived key).
    pub secrets: String,
    /// The values a derived key is derived from (`wechat_android`: the IMEI and the uin).
    pub derive: Option<(String, String)>,
}

impl Cipher {
    /// The working-copy cache's key suffix of this cipher (a decrypted copy is cached apart
    /// from a plain one of the same path).
    pub fn cache_key(&self) -> String {
        let (a, b) = self.derive.clone().unwrap_or_default();
        format!("\0cipher:{}:{}:{a}:{b}", self.profile.name(), self.secrets)
    }

    /// Where the key was read from and the settings, in words (no key).
    pub fn describe(&self) -> String {
        match self.profile {
            Profile::SignalAndroid => format!(
                "the \"sqlite db key\" of {SIGNAL_ANDROID} in {} (profile {}: {})",
                self.secrets,
                self.profile.name(),
                self.profile.settings().describe()
            ),
            Profile::SimplexAndroid => format!(
                "the \"databasePassword\" of {SIMPLEX_ANDROID} in {} (profile {}: {})",
                self.secrets,
                self.profile.name(),
                self.profile.settings().describe()
            ),
            Profile::WechatAndroid => {
                let (imei, uin) = self.derive.clone().unwrap_or_default();
                format!(
                    "the key derived as WeChat derives it, md5(IMEI + uin), of IMEI {imei} and uin {uin} (profile {}: {})",
                    self.profile.name(),
                    self.profile.settings().describe()
                )
            }
            Profile::TelegramPostbox => format!(
                "the database key in Telegram's key file {} (profile {}: {})",
                self.secrets,
                self.profile.name(),
                self.profile.settings().describe()
            ),
            Profile::SignalIos | Profile::SessionIos => format!(
                "the {SIGNAL_IOS_ACCOUNT} of the {} access group in the keychain export {} (profile {}: {})",
                self.profile.keychain_group().unwrap_or_default(),
                self.secrets,
                self.profile.name(),
                self.profile.settings().describe()
            ),
        }
    }

    /// The key (and the salt, when the settings keep it out of the file), read from the
    /// evidence.
    pub fn key(&self, fs: &dyn FileSystem) -> Result<(Key, Option<[u8; 16]>), ToolError> {
        if let Some((imei, uin)) = &self.derive {
            // WeChat's key: the first 7 hex digits of md5(IMEI + uin)
            use md5::Digest as _;
            let digest = md5::Md5::digest(format!("{imei}{uin}").as_bytes());
            let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
            return Ok((
                Key::Passphrase(Zeroizing::new(hex.as_bytes()[..7].to_vec())),
                None,
            ));
        }
        let entry = fs
            .stat(&self.secrets)
            .map_err(|e| ToolError::InvalidArgs(format!("cipher.secrets {}: {e}", self.secrets)))?;
        if entry.size > MAX_KEY_FILE {
            return Err(ToolError::Other(format!(
                "{}: {} bytes, not a key file (at most {MAX_KEY_FILE} read)",
                self.secrets, entry.size
            )));
        }
        let mut text = Zeroizing::new(Vec::new());
        Reader::new(fs.open(&self.secrets)?)
            .read_to_end(&mut text)
            .map_err(|e| ToolError::Other(format!("{}: {e}", self.secrets)))?;
        match self.profile {
            Profile::SignalAndroid | Profile::SimplexAndroid => {
                let (app, name) = if self.profile == Profile::SignalAndroid {
                    (SIGNAL_ANDROID, "sqlite db key")
                } else {
                    (SIMPLEX_ANDROID, "databasePassword")
                };
                let v: Value = serde_json::from_slice(&text)
                    .map_err(|e| ToolError::Other(format!("{}: not JSON ({e})", self.secrets)))?;
                secrets_key(&v, app, name)
                    .map(|k| (Key::Passphrase(Zeroizing::new(k.into_bytes())), None))
                    .ok_or_else(|| {
                        ToolError::Other(format!(
                            "{}: no \"{name}\" of {app} in it (an entry {{\"app\": \"{app}\", \"script_output\": [{{\"payload\": {{\"{name}\": …}}}}]}})",
                            self.secrets
                        ))
                    })
            }
            Profile::WechatAndroid => Err(ToolError::InvalidArgs(
                "cipher: wechat_android derives its key from imei and uin".to_string(),
            )),
            Profile::TelegramPostbox => telegram_key_file(&text, TELEGRAM_DEFAULT_PASSCODE)
                .map_err(|why| ToolError::Other(format!("{}: {why}", self.secrets))),
            Profile::SignalIos | Profile::SessionIos => {
                let group = self.profile.keychain_group().unwrap_or_default();
                let v = masf_evidence::plist::read(
                    std::io::Cursor::new(&text[..]),
                    &format!("keychain export {}", self.secrets),
                )?;
                let spec = keychain_secret(&v, group, SIGNAL_IOS_ACCOUNT)
                    .ok_or_else(|| {
                        ToolError::Other(format!(
                            "{}: no {SIGNAL_IOS_ACCOUNT} generic password of the {group} access group in it (a decrypted export's genp entries with agrp, acct and v_Data; an encrypted one is not read)",
                            self.secrets
                        ))
                    })?;
                if spec.len() != 48 {
                    return Err(ToolError::Other(format!(
                        "{}: the {group} {SIGNAL_IOS_ACCOUNT} is {} bytes, not the 48 of a key and its salt",
                        self.secrets,
                        spec.len()
                    )));
                }
                let mut key = Zeroizing::new([0u8; 32]);
                key.copy_from_slice(&spec[..32]);
                let mut salt = [0u8; 16];
                salt.copy_from_slice(&spec[32..48]);
                Ok((Key::Raw(key), Some(salt)))
            }
        }
    }
}

/// Telegram's key file: iOS's `.tempkey`, 48 bytes (the database's 32-byte key, then its
/// 16-byte salt) kept in the clear, or macOS's `.tempkeyEncrypted` opened with `passcode`
/// ([`telegram_tempkey`]).
pub fn telegram_key_file(file: &[u8], passcode: &str) -> Result<(Key, Option<[u8; 16]>), String> {
    if file.len() == 48 {
        let mut key = Zeroizing::new([0u8; 32]);
        key.copy_from_slice(&file[..32]);
        let mut salt = [0u8; 16];
        salt.copy_from_slice(&file[32..48]);
        return Ok((Key::Raw(key), Some(salt)));
    }
    telegram_tempkey(file, passcode)
}

/// Telegram's key file (`.tempkeyEncrypted`) opened with `passcode`: AES-256-CBC, its key
/// the first 32 bytes of SHA-512(passcode) and its IV the last 16, of the database's 32-byte
/// key, 16-byte salt and the MurmurHash3 (Telegram's seed, little-endian) of the two, which
/// must match: a passcode the user set instead gives no match.
pub fn telegram_tempkey(file: &[u8], passcode: &str) -> Result<(Key, Option<[u8; 16]>), String> {
    use aes::cipher::{BlockDecryptMut, KeyIvInit, block_padding::NoPadding};
    use sha2::Digest as _;
    if file.len() < 64 || !file.len().is_multiple_of(16) {
        return Err(format!(
            "{} bytes, not Telegram's key file (48 bytes for iOS's .tempkey; a whole number of 16-byte blocks, at least 64, for .tempkeyEncrypted)",
            file.len()
        ));
    }
    let digest = sha2::Sha512::digest(passcode.as_bytes());
    let mut plain = Zeroizing::new(file.to_vec());
    cbc::Decryptor::<aes::Aes256>::new_from_slices(&digest[..32], &digest[48..64])
        .map_err(|e| format!("AES: {e}"))?
        .decrypt_padded_mut::<NoPadding>(&mut plain)
        .map_err(|e| format!("AES: {e}"))?;
    let hash = i32::from_le_bytes([plain[48], plain[49], plain[50], plain[51]]);
    let computed = crate::postbox::murmur(&plain[..48]);
    if hash != computed {
        return Err(
            "its check does not match under Telegram's default local passcode: the app has a passcode set, and the key is encrypted under it".to_string(),
        );
    }
    let mut key = Zeroizing::new([0u8; 32]);
    key.copy_from_slice(&plain[..32]);
    let mut salt = [0u8; 16];
    salt.copy_from_slice(&plain[32..48]);
    Ok((Key::Raw(key), Some(salt)))
}

/// The secret (`v_Data`) of the generic password (`genp`) of a decrypted keychain export whose
/// access group (`agrp`) holds `group` and whose account (`acct`) holds `account` (iOS prefixes
/// an access group with the team id; a string or data either).
fn keychain_secret(v: &plist::Value, group: &str, account: &str) -> Option<Zeroizing<Vec<u8>>> {
    let text = |e: &plist::Dictionary, k: &str| -> String {
        match e.get(k) {
            Some(plist::Value::String(s)) => s.to_ascii_lowercase(),
            Some(plist::Value::Data(d)) => String::from_utf8_lossy(d)
                .trim_end_matches('\0')
                .to_ascii_lowercase(),
            _ => String::new(),
        }
    };
    v.as_dictionary()?
        .get("genp")?
        .as_array()?
        .iter()
        .filter_map(plist::Value::as_dictionary)
        .filter(|e| {
            text(e, "agrp").contains(&group.to_ascii_lowercase())
                && text(e, "acct").contains(&account.to_ascii_lowercase())
        })
        .find_map(|e| match e.get("v_Data") {
            Some(plist::Value::Data(d)) if !d.is_empty() => Some(Zeroizing::new(d.clone())),
            _ => None,
        })
}

/// The string `name` of a payload of the entry of `app` in an extraction's `secrets.json`.
fn secrets_key(v: &Value, app: &str, name: &str) -> Option<String> {
    v.as_array()?
        .iter()
        .filter(|e| e.get("app").and_then(Value::as_str) == Some(app))
        .filter_map(|e| e.get("script_output")?.as_array())
        .flatten()
        .filter_map(|o| o.get("payload")?.get(name)?.as_str())
        .find(|k| !k.is_empty())
        .map(str::to_string)
}

/// The JSON schema of the `cipher` argument.
pub fn schema() -> Value {
    json!({
        "type": "object",
        "description": "Open a SQLCipher-encrypted app database with the key the extraction captured: `profile` names the app's settings and where its key is kept, `secrets` the key file's absolute path in the same file system. The tool reads the key there (it never appears in the call or the output), decrypts a working copy (replaying the committed frames of its -wal) and says on a last line `# sqlcipher: …` where the key came from and how many pages authenticated. Profiles: signal_android (Signal for Android's signal.db and signal-key-value.db; secrets: the extraction's Secrets/secrets.json holding the \"sqlite db key\" of org.thoughtcrime.securesms), signal_ios (Signal for iOS's grdb/signal.sqlite; secrets: a decrypted keychain export plist holding the GRDBDatabaseCipherKeySpec of the org.whispersystems.signal access group), session_ios (Session for iOS's database/Session.sqlite; the same, of the com.loki-project.loki-messenger access group), wechat_android (WeChat for Android's EnMicroMsg.db; no key file: imei and uin, the key derived from them as WeChat derives it), simplex_android (SimpleX Chat for Android's files_chat.db; secrets: the extraction's Secrets/secrets.json holding the \"databasePassword\" of chat.simplex.app), telegram_postbox (Telegram's Postbox postbox/db/db_sqlite, iOS and macOS; secrets: Telegram's key file in telegram-data/: iOS's .tempkey, or macOS's .tempkeyEncrypted opened under the app's default local passcode — a passcode the user set is not known).",
        "properties": {
            "profile": {"type": "string", "enum": Profile::ALL.iter().map(|p| p.name()).collect::<Vec<_>>()},
            "secrets": {"type": "string", "description": "Absolute path of the key file in the evidence (every profile but wechat_android)."},
            "imei": {"type": "string", "description": "wechat_android: the IMEI WeChat derived its key from (1234567890ABCDEF where Android let it read none)."},
            "uin": {"type": "string", "description": "wechat_android: the account's uin (WeChat's preferences), as stored, a sign included."}
        },
        "required": ["profile"],
        "additionalProperties": false
    })
}

/// The `cipher` argument of a call, when given.
pub fn arg(a: &Value) -> Result<Option<Cipher>, ToolError> {
    let Some(c) = a.get("cipher") else {
        return Ok(None);
    };
    if c.is_null() {
        return Ok(None);
    }
    if !c.is_object() {
        return Err(ToolError::InvalidArgs(
            "cipher: an object {\"profile\", \"secrets\"}".to_string(),
        ));
    }
    let name = args::str(c, "profile").map_err(|_| {
        ToolError::InvalidArgs(format!(
            "cipher.profile: one of {}",
            Profile::ALL.map(Profile::name).join(", ")
        ))
    })?;
    let profile = Profile::ALL
        .into_iter()
        .find(|p| p.name() == name)
        .ok_or_else(|| {
            ToolError::InvalidArgs(format!(
                "cipher.profile {name:?}: not a profile (one of {})",
                Profile::ALL.map(Profile::name).join(", ")
            ))
        })?;
    if profile == Profile::WechatAndroid {
        let get = |k: &str| {
            args::str(c, k)
                .ok()
                .filter(|v| !v.is_empty() && v.len() <= 64)
                .map(str::to_string)
                .ok_or_else(|| {
                    ToolError::InvalidArgs(format!(
                        "cipher.{k}: wechat_android derives its key from imei and uin, both given"
                    ))
                })
        };
        return Ok(Some(Cipher {
            profile,
            secrets: String::new(),
            derive: Some((get("imei")?, get("uin")?)),
        }));
    }
    let secrets = args::str(c, "secrets").map_err(|_| {
        ToolError::InvalidArgs(
            "cipher.secrets: the key file's absolute path in the evidence".to_string(),
        )
    })?;
    Ok(Some(Cipher {
        profile,
        secrets: normalize_path(secrets),
        derive: None,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_key_is_the_apps_payload_value() {
        let v = json!([
            {"app": "com.other", "script_output": [{"payload": {"sqlite db key": "other"}}]},
            {"app": SIGNAL_ANDROID, "script_output": [
                {"payload": {"signal attachment key": {"modernKey": "AAAA"}}},
                {"payload": {"sqlite db key": "abcd"}}
            ]}
        ]);
        assert_eq!(
            secrets_key(&v, SIGNAL_ANDROID, "sqlite db key").as_deref(),
            Some("abcd")
        );
        assert_eq!(secrets_key(&v, "com.none", "sqlite db key"), None);
        // SimpleX Chat's passphrase, an entry of the same list
        let v = json!([
            {"app": SIGNAL_ANDROID, "script_output": [{"payload": {"sqlite db key": "abcd"}}]},
            {"app": SIMPLEX_ANDROID, "script_output": [{"payload": {"databasePassword": "p@ss w0rd"}}]}
        ]);
        assert_eq!(
            secrets_key(&v, SIMPLEX_ANDROID, "databasePassword").as_deref(),
            Some("p@ss w0rd")
        );
        assert_eq!(secrets_key(&v, SIMPLEX_ANDROID, "sqlite db key"), None);
        assert_eq!(secrets_key(&json!({"a": 1}), SIGNAL_ANDROID, "x"), None);
    }

    #[test]
    fn bad_cipher_arguments_are_named() {
        let e = arg(&json!({"cipher": {"profile": "nope", "secrets": "/s"}}))
            .unwrap_err()
            .to_string();
        assert!(
            e.contains(
                "not a profile (one of signal_android, signal_ios, session_ios, wechat_android, simplex_android, telegram_postbox)"
            ),
            "{e}"
        );
        let e = arg(&json!({"cipher": {"profile": "signal_android"}}))
            .unwrap_err()
            .to_string();
        assert!(e.contains("cipher.secrets"), "{e}");
        assert_eq!(arg(&json!({"path": "/x"})).unwrap(), None);
    }
}
