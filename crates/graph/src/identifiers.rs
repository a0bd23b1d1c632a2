//! Identifier types and their normalisation — the one place where identifiers are canonicalised
//! (DESIGN §8). Grounding, identity observations and (later) coreference blocking all compare
//! identifiers by [`normalize`].
//!
//! | type | strength | canonical form |
//! |---|---|---|
//! | `phone` | strong | E.164 (`+85261234567`), local numbers read with the caller's [`PhoneRegion`] |
//! | `email`, `google_account` | strong | trimmed, `mailto:` dropped, lower case |
//! | `apple_id` | strong | as e-mail when it has `@`, as phone when it starts with `+`, else lower case |
//! | `account_id` | strong | trimmed, inner white space collapsed, case kept |
//! | `imei` | strong | 15 digits with a valid Luhn check digit (a 14-digit body gets its check digit) |
//! | `imsi` | strong | 6–15 digits |
//! | `iccid` | strong | 18–20 digits (a trailing `F` filler dropped) |
//! | `serial` | strong | trimmed, upper case |
//! | `wallet` | strong | ETH: `0x` + lower-case hex (mixed case must pass EIP-55); BTC bech32: lower case; BTC/TRON base58: as written (Base58Check verified) |
//! | `display_name`, `nickname`, `device_name` | weak | white space collapsed, lower case |

use std::fmt;

use serde::{Deserialize, Serialize};
use sha3::{Digest, Keccak256};

use crate::model::FactType;

/// The type of an identifier.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum IdType {
    /// A phone number.
    Phone,
    /// An e-mail address.
    Email,
    /// An Apple ID (an e-mail address or a phone number).
    AppleId,
    /// A Google account (an e-mail address).
    GoogleAccount,
    /// Another service's account id.
    AccountId,
    /// A handset's IMEI.
    Imei,
    /// A subscriber's IMSI.
    Imsi,
    /// A SIM's ICCID.
    Iccid,
    /// A device serial number.
    Serial,
    /// A cryptocurrency wallet address (ETH, BTC, TRON).
    Wallet,
    /// A display name (weak).
    DisplayName,
    /// A nickname (weak).
    Nickname,
    /// A device's user-given name (weak).
    DeviceName,
}

/// How much a shared identifier says about two entities being the same (DESIGN §8).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Strength {
    /// Unique by construction: IMEI, phone, e-mail, wallet, account ids, …
    Strong,
    /// Shared by chance: names.
    Weak,
}

impl IdType {
    /// Every identifier type.
    pub const ALL: [IdType; 13] = [
        Self::Phone,
        Self::Email,
        Self::AppleId,
        Self::GoogleAccount,
        Self::AccountId,
        Self::Imei,
        Self::Imsi,
        Self::Iccid,
        Self::Serial,
        Self::Wallet,
        Self::DisplayName,
        Self::Nickname,
        Self::DeviceName,
    ];

    /// Strong or weak.
    pub fn strength(self) -> Strength {
        match self {
            Self::DisplayName | Self::Nickname | Self::DeviceName => Strength::Weak,
            _ => Strength::Strong,
        }
    }

    /// The fact type an observation of this identifier is grounded as.
    pub fn fact_type(self) -> FactType {
        match self {
            Self::Phone => FactType::Phone,
            Self::Email => FactType::Email,
            Self::AppleId | Self::GoogleAccount | Self::AccountId => FactType::Account,
            Self::Imei => FactType::Imei,
            Self::Imsi => FactType::Imsi,
            Self::Iccid => FactType::Iccid,
            Self::Serial => FactType::Serial,
            Self::Wallet => FactType::Wallet,
            Self::DisplayName | Self::Nickname | Self::DeviceName => FactType::Name,
        }
    }

    /// The stable snake-case name.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Phone => "phone",
            Self::Email => "email",
            Self::AppleId => "apple_id",
            Self::GoogleAccount => "google_account",
            Self::AccountId => "account_id",
            Self::Imei => "imei",
            Self::Imsi => "imsi",
            Self::Iccid => "iccid",
            Self::Serial => "serial",
            Self::Wallet => "wallet",
            Self::DisplayName => "display_name",
            Self::Nickname => "nickname",
            Self::DeviceName => "device_name",
        }
    }
}

/// Why a value is not a valid identifier of its type.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IdentifierError {
    /// Nothing but white space.
    #[error("the value is empty")]
    Empty,
    /// Characters a phone number cannot have, or the wrong number of digits.
    #[error("not a phone number: {0}")]
    NotAPhone(String),
    /// A national number and no region to read it with.
    #[error("a phone number written without its country code needs a region default")]
    NoRegion,
    /// Not an e-mail address.
    #[error("not an e-mail address")]
    NotAnEmail,
    /// Not a recognised wallet address format.
    #[error("not a wallet address: {0}")]
    NotAWallet(String),
    /// A mixed-case ETH address that fails EIP-55, or a Base58Check/Bech32 checksum mismatch.
    #[error("wallet address checksum does not match ({0})")]
    WalletChecksum(&'static str),
    /// Not 14 or 15 digits, or a Luhn mismatch.
    #[error("not an IMEI: {0}")]
    NotAnImei(String),
    /// Wrong characters or length for the type.
    #[error("not a valid {id_type}: {why}")]
    Invalid {
        /// The type's name.
        id_type: &'static str,
        /// What is wrong.
        why: String,
    },
}

/// How to read phone numbers written without a country code: the source's country.
///
/// A number is read in this order: `+…` or the international prefix `00…` is international;
/// digits starting with `calling_code` followed by a national-length number are international
/// written without `+` (`852-6123-4567`, `(852) 6123-4567`); digits starting with
/// `trunk_prefix` followed by a national-length number are national with a trunk prefix
/// (`020 7946 0000` in GB); digits of a national length are national (`61234567` in HK).
/// Anything else is ambiguous and refused.
///
/// In data files a region is written either as a table key (`"HK"`) or in full
/// (`{"calling_code": "852", "national_lengths": [8]}`).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "RegionSpec")]
pub struct PhoneRegion {
    /// The country calling code, digits only (`852`).
    pub calling_code: String,
    /// Lengths of national significant numbers (`[8]` for Hong Kong).
    pub national_lengths: Vec<usize>,
    /// The national trunk prefix (`0` in GB), if the country has one.
    #[serde(default)]
    pub trunk_prefix: Option<String>,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum RegionSpec {
    Key(String),
    Full {
        calling_code: String,
        national_lengths: Vec<usize>,
        #[serde(default)]
        trunk_prefix: Option<String>,
    },
}

impl TryFrom<RegionSpec> for PhoneRegion {
    type Error = String;

    fn try_from(spec: RegionSpec) -> Result<Self, String> {
        match spec {
            RegionSpec::Key(key) => PhoneRegion::for_country(&key)
                .ok_or_else(|| format!("unknown phone region {key:?}")),
            RegionSpec::Full {
                calling_code,
                national_lengths,
                trunk_prefix,
            } => Ok(PhoneRegion {
                calling_code,
                national_lengths,
                trunk_prefix,
            }),
        }
    }
}

impl PhoneRegion {
    /// Hong Kong: `+852`, 8-digit national numbers, no trunk prefix.
    pub fn hong_kong() -> Self {
        Self {
            calling_code: "852".into(),
            national_lengths: vec![8],
            trunk_prefix: None,
        }
    }

    /// A region from its ISO 3166 alpha-2 code, for the countries of the cases this app serves:
    /// HK, MO, CN, TW, SG, GB, US. Other countries are given in full by the caller.
    pub fn for_country(iso: &str) -> Option<Self> {
        let (code, lengths, trunk): (&str, &[usize], Option<&str>) =
            match iso.to_ascii_uppercase().as_str() {
                "HK" => ("852", &[8], None),
                "MO" => ("853", &[8], None),
                "CN" => ("86", &[11, 10], Some("0")),
                "TW" => ("886", &[9, 8], Some("0")),
                "SG" => ("65", &[8], None),
                "GB" => ("44", &[10], Some("0")),
                "US" => ("1", &[10], Some("1")),
                _ => return None,
            };
        Some(Self {
            calling_code: code.into(),
            national_lengths: lengths.to_vec(),
            trunk_prefix: trunk.map(Into::into),
        })
    }
}

/// Normalises a value of the given type to its canonical form (see the module table).
/// `region` is needed only for phone numbers written without a country code.
pub fn normalize(
    id_type: IdType,
    value: &str,
    region: Option<&PhoneRegion>,
) -> Result<String, IdentifierError> {
    let value = value.trim();
    if value.is_empty() {
        return Err(IdentifierError::Empty);
    }
    match id_type {
        IdType::Phone => normalize_phone(value, region),
        IdType::Email | IdType::GoogleAccount => normalize_email(value),
        IdType::AppleId => {
            if value.contains('@') {
                normalize_email(value)
            } else if value.starts_with('+') {
                normalize_phone(value, region)
            } else {
                Ok(value.to_lowercase())
            }
        }
        IdType::AccountId => Ok(collapse_whitespace(value)),
        IdType::Imei => normalize_imei(value),
        IdType::Imsi => digits_of(value, "imsi", 6..=15),
        IdType::Iccid => {
            let value = value.strip_suffix(['F', 'f']).unwrap_or(value);
            digits_of(value, "iccid", 18..=20)
        }
        IdType::Serial => {
            if value.chars().any(char::is_whitespace) {
                return Err(IdentifierError::Invalid {
                    id_type: "serial",
                    why: "contains white space".into(),
                });
            }
            Ok(value.to_uppercase())
        }
        IdType::Wallet => normalize_wallet(value),
        IdType::DisplayName | IdType::Nickname | IdType::DeviceName => {
            Ok(collapse_whitespace(value).to_lowercase())
        }
    }
}

/// Characters allowed between the digits of a written phone number.
fn is_phone_separator(c: char) -> bool {
    matches!(c, ' ' | '-' | '.' | '(' | ')' | '/' | '\t' | '\u{a0}')
}

/// A phone number in E.164 (`+85261234567`). See [`PhoneRegion`] for how national numbers are
/// read. Accepts `tel:` URIs, spaces, dashes, dots, slashes and parentheses.
pub fn normalize_phone(
    value: &str,
    region: Option<&PhoneRegion>,
) -> Result<String, IdentifierError> {
    let value = value.trim();
    let value = strip_prefix_ignore_case(value, "tel:").unwrap_or(value);
    let mut digits = String::with_capacity(value.len());
    let mut plus = false;
    for c in value.chars() {
        match c {
            '0'..='9' => digits.push(c),
            '+' if digits.is_empty() && !plus => plus = true,
            c if is_phone_separator(c) => {}
            _ => {
                return Err(IdentifierError::NotAPhone(format!(
                    "unexpected character {c:?}"
                )));
            }
        }
    }
    if digits.is_empty() {
        return Err(IdentifierError::NotAPhone("no digits".into()));
    }
    let international = if plus {
        digits
    } else if let Some(rest) = digits.strip_prefix("00") {
        rest.to_owned()
    } else {
        let region = region.ok_or(IdentifierError::NoRegion)?;
        let national = |n: usize| region.national_lengths.contains(&n);
        let cc = region.calling_code.as_str();
        let trunk = region.trunk_prefix.as_deref().filter(|t| !t.is_empty());
        if digits.starts_with(cc) && national(digits.len() - cc.len()) {
            digits
        } else if let Some(rest) = trunk
            .and_then(|t| digits.strip_prefix(t))
            .filter(|r| national(r.len()))
        {
            format!("{cc}{rest}")
        } else if national(digits.len()) {
            format!("{cc}{digits}")
        } else {
            return Err(IdentifierError::NotAPhone(format!(
                "{} digits is not a national number of +{cc} and has no country code",
                digits.len()
            )));
        }
    };
    if !(7..=15).contains(&international.len()) || international.starts_with('0') {
        return Err(IdentifierError::NotAPhone(format!(
            "+{international} is not a valid international number"
        )));
    }
    Ok(format!("+{international}"))
}

/// An e-mail address, trimmed, without `mailto:`, in lower case.
pub fn normalize_email(value: &str) -> Result<String, IdentifierError> {
    let value = value.trim();
    let value = strip_prefix_ignore_case(value, "mailto:").unwrap_or(value);
    let (local, domain) = value.split_once('@').ok_or(IdentifierError::NotAnEmail)?;
    let bad =
        |part: &str| part.is_empty() || part.contains('@') || part.chars().any(char::is_whitespace);
    if bad(local)
        || bad(domain)
        || !domain.contains('.')
        || domain.starts_with('.')
        || domain.ends_with('.')
    {
        return Err(IdentifierError::NotAnEmail);
    }
    Ok(value.to_lowercase())
}

/// An IMEI: 15 digits with a valid Luhn check digit. Separators (space, `-`, `.`, `/`) are
/// dropped; a 14-digit body gets its check digit appended.
pub fn normalize_imei(value: &str) -> Result<String, IdentifierError> {
    let digits: String = value
        .chars()
        .filter(|c| !matches!(c, ' ' | '-' | '.' | '/'))
        .collect();
    if !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(IdentifierError::NotAnImei("not all digits".into()));
    }
    match digits.len() {
        14 => {
            let check = luhn_check_digit(&digits);
            Ok(format!("{digits}{check}"))
        }
        15 => {
            let (body, last) = digits.split_at(14);
            if luhn_check_digit(body).to_string() == last {
                Ok(digits)
            } else {
                Err(IdentifierError::NotAnImei(
                    "Luhn check digit does not match".into(),
                ))
            }
        }
        n => Err(IdentifierError::NotAnImei(format!(
            "{n} digits, not 14 or 15"
        ))),
    }
}

/// The Luhn check digit for a string of ASCII digits.
pub fn luhn_check_digit(body: &str) -> u32 {
    // Double every second digit counting from the right-most digit of the body.
    let sum: u32 = body
        .bytes()
        .rev()
        .enumerate()
        .map(|(i, b)| {
            let d = u32::from(b - b'0');
            if i % 2 == 0 {
                let d = d * 2;
                if d > 9 { d - 9 } else { d }
            } else {
                d
            }
        })
        .sum();
    (10 - sum % 10) % 10
}

/// A wallet address in canonical form: ETH `0x` + lower-case hex (a mixed-case address must pass
/// EIP-55); BTC bech32/bech32m (`bc1…`, `tb1…`) in lower case after a segwit checksum check; BTC
/// base58 (`1…`, `3…`, testnet `m…`/`n…`/`2…`) and TRON (`T…`) as written after a Base58Check
/// verification of the version byte and checksum.
pub fn normalize_wallet(value: &str) -> Result<String, IdentifierError> {
    let value = value.trim();
    if let Some(hex) = value
        .strip_prefix("0x")
        .or_else(|| value.strip_prefix("0X"))
    {
        return normalize_eth(hex);
    }
    let lower = value.to_ascii_lowercase();
    if ["bc1", "tb1", "bcrt1"].iter().any(|p| lower.starts_with(p)) {
        return match bech32::segwit::decode(value) {
            Ok(_) => Ok(lower),
            Err(e) => Err(IdentifierError::NotAWallet(format!("bech32: {e}"))),
        };
    }
    let decoded = bs58::decode(value).with_check(None).into_vec();
    let payload = match decoded {
        Ok(payload) => payload,
        Err(bs58::decode::Error::InvalidChecksum { .. }) => {
            return Err(IdentifierError::WalletChecksum("Base58Check"));
        }
        Err(e) => return Err(IdentifierError::NotAWallet(format!("base58: {e}"))),
    };
    match (payload.len(), payload.first()) {
        // TRON mainnet: 0x41 + 20-byte account.
        (21, Some(0x41)) => Ok(value.to_owned()),
        // BTC P2PKH 0x00, P2SH 0x05; testnet 0x6f, 0xc4.
        (21, Some(0x00 | 0x05 | 0x6f | 0xc4)) => Ok(value.to_owned()),
        _ => Err(IdentifierError::NotAWallet(
            "base58 payload is not a BTC or TRON address".into(),
        )),
    }
}

fn normalize_eth(hex: &str) -> Result<String, IdentifierError> {
    if hex.len() != 40 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(IdentifierError::NotAWallet(
            "ETH addresses are 0x and 40 hex digits".into(),
        ));
    }
    let lower = hex.to_ascii_lowercase();
    let has_upper = hex.bytes().any(|b| b.is_ascii_uppercase());
    let has_lower = hex.bytes().any(|b| b.is_ascii_lowercase());
    if has_upper && has_lower && eip55(&lower) != hex {
        return Err(IdentifierError::WalletChecksum("EIP-55"));
    }
    Ok(format!("0x{lower}"))
}

/// The EIP-55 mixed-case form of a lower-case 40-digit hex address (without `0x`).
pub fn eip55(lower_hex: &str) -> String {
    let hash = Keccak256::digest(lower_hex.as_bytes());
    lower_hex
        .bytes()
        .enumerate()
        .map(|(i, b)| {
            let byte = hash.get(i / 2).copied().unwrap_or(0);
            let nibble = if i % 2 == 0 { byte >> 4 } else { byte & 0x0f };
            if b.is_ascii_alphabetic() && nibble >= 8 {
                char::from(b.to_ascii_uppercase())
            } else {
                char::from(b)
            }
        })
        .collect()
}

fn digits_of(
    value: &str,
    id_type: &'static str,
    lengths: std::ops::RangeInclusive<usize>,
) -> Result<String, IdentifierError> {
    let digits: String = value.chars().filter(|c| !matches!(c, ' ' | '-')).collect();
    if !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(IdentifierError::Invalid {
            id_type,
            why: "not all digits".into(),
        });
    }
    if !lengths.contains(&digits.len()) {
        return Err(IdentifierError::Invalid {
            id_type,
            why: format!(
                "{} digits, expected {}–{}",
                digits.len(),
                lengths.start(),
                lengths.end()
            ),
        });
    }
    Ok(digits)
}

/// Trims and replaces every run of white space with one space.
pub fn collapse_whitespace(value: &str) -> String {
    value.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn strip_prefix_ignore_case<'a>(value: &'a str, prefix: &str) -> Option<&'a str> {
    let head = value.get(..prefix.len())?;
    head.eq_ignore_ascii_case(prefix)
        .then(|| &value[prefix.len()..])
}

impl fmt::Display for IdType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Characters OCR confuses with one another: each group is one shape (`O`/`0`/`o`,
/// `l`/`I`/`1`/`i`/`|`, and letters whose upper and lower case differ only in size). A
/// look-alike repair may swap a character for another of its group, never anything else.
pub const LOOK_ALIKES: &[&str] = &["0Oo", "1lIi|", "cC", "sS", "uU", "vV", "wW", "xX", "zZ"];

/// Whether `read` (as OCR gave it) may stand for `meant` under a look-alike repair.
pub fn look_alike(read: char, meant: char) -> bool {
    read == meant
        || LOOK_ALIKES
            .iter()
            .any(|g| g.contains(read) && g.contains(meant))
}

/// Most candidate spellings a wallet repair tries before giving up as ambiguous.
pub const REPAIR_MAX_CANDIDATES: usize = 1 << 14;

/// The outcome of [`repair_wallet`] on one token of OCR text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WalletRepair {
    /// The token is a valid address as read.
    Exact(String),
    /// Exactly one spelling of the token under look-alike swaps (spaces dropped) is a valid
    /// address: that spelling, and the number of characters changed.
    Repaired {
        /// The valid spelling.
        value: String,
        /// Characters swapped plus spaces dropped.
        changes: usize,
    },
    /// Several spellings are valid addresses: no repair is safe.
    Ambiguous(usize),
    /// No spelling is a valid address (or too many to try).
    Invalid,
}

/// Repairs an address OCR misread: the token's spaces are dropped and every spelling under
/// [`LOOK_ALIKES`] swaps is tried against the address format and checksum ([`normalize_wallet`];
/// EIP-55 where the candidate is mixed-case ETH). Only characters the target alphabet cannot
/// hold, or whose look-alike the checksum then decides, are changed; an all-lower-case ETH
/// address (no checksum) is only repaired where the hex alphabet forces it.
pub fn repair_wallet(token: &str) -> WalletRepair {
    let joined: String = token.chars().filter(|c| *c != ' ').collect();
    if !joined.is_ascii() || joined.len() < 26 || joined.len() > 90 {
        return WalletRepair::Invalid;
    }
    if normalize_wallet(&joined).is_ok() && joined == token {
        return WalletRepair::Exact(joined);
    }
    // Which alphabet: decided by the prefix as it may have been read.
    let chars: Vec<char> = joined.chars().collect();
    let starts = |p: &str| {
        p.chars().count() <= chars.len() && p.chars().zip(&chars).all(|(m, r)| look_alike(*r, m))
    };
    let is_eth = chars.len() == 42 && starts("0x");
    let is_bech = !is_eth && (starts("bc1") || starts("tb1"));
    let chars_prefix: [char; 2] = if starts("tb1") {
        ['t', 'b']
    } else {
        ['b', 'c']
    };
    let options = |i: usize, c: char| -> Vec<char> {
        let group = LOOK_ALIKES.iter().find(|g| g.contains(c));
        let mut out: Vec<char> = match group {
            Some(g) => g.chars().collect(),
            None => vec![c],
        };
        out.retain(|&m| {
            if is_eth {
                if i == 0 {
                    m == '0'
                } else if i == 1 {
                    m == 'x'
                } else {
                    m.is_ascii_hexdigit()
                }
            } else if is_bech {
                // `bc` / `tb`, the separator `1`, then the bech32 data alphabet (lower case)
                match i {
                    0 => m == chars_prefix[0],
                    1 => m == chars_prefix[1],
                    2 => m == '1',
                    _ => "qpzry9x8gf2tvdw0s3jn54khce6mua7l".contains(m),
                }
            } else {
                // base58 (BTC legacy, TRON)
                m.is_ascii_alphanumeric() && !"0OIl".contains(m)
            }
        });
        // A hex digit keeps its case unless the checksum has a say (mixed case).
        out
    };
    let mut choices: Vec<Vec<char>> = Vec::with_capacity(chars.len());
    let mut total: usize = 1;
    for (i, &c) in chars.iter().enumerate() {
        let opts = options(i, c);
        if opts.is_empty() {
            return WalletRepair::Invalid;
        }
        total = total.saturating_mul(opts.len());
        if total > REPAIR_MAX_CANDIDATES {
            return WalletRepair::Invalid;
        }
        choices.push(opts);
    }
    let mut found: Vec<String> = Vec::new();
    let mut index = vec![0usize; chars.len()];
    loop {
        let candidate: String = index
            .iter()
            .zip(&choices)
            .map(|(&k, opts)| opts[k])
            .collect();
        let eth_unchecked = is_eth && {
            let body = &candidate[2..];
            !(body.bytes().any(|b| b.is_ascii_uppercase())
                && body.bytes().any(|b| b.is_ascii_lowercase()))
        };
        // An ETH candidate without mixed case has no checksum: only spellings forced by the
        // alphabet are allowed (the case of its letters is as read).
        let forced_only = !eth_unchecked
            || candidate
                .chars()
                .zip(&chars)
                .all(|(m, r)| m == *r || !r.is_ascii_hexdigit());
        if forced_only && normalize_wallet(&candidate).is_ok() && !found.contains(&candidate) {
            found.push(candidate);
        }
        // next combination
        let mut pos = 0;
        loop {
            if pos == index.len() {
                return match found.len() {
                    0 => WalletRepair::Invalid,
                    1 => {
                        let value = found.swap_remove(0);
                        let changes = value.chars().zip(&chars).filter(|(m, r)| m != *r).count()
                            + token.chars().filter(|c| *c == ' ').count();
                        if changes == 0 {
                            WalletRepair::Exact(value)
                        } else {
                            WalletRepair::Repaired { value, changes }
                        }
                    }
                    n => WalletRepair::Ambiguous(n),
                };
            }
            index[pos] += 1;
            if index[pos] < choices[pos].len() {
                break;
            }
            index[pos] = 0;
            pos += 1;
        }
    }
}

/// The `(start, end)` byte spans of the runs of `text` separated by spaces and tabs: how a
/// line is cut into tokens when numbers and addresses are looked for in it.
pub fn token_spans(text: &[u8]) -> Vec<(usize, usize)> {
    let mut tokens = Vec::new();
    let mut start = None;
    for (i, &b) in text.iter().enumerate() {
        match (b == b' ' || b == b'\t', start) {
            (true, Some(s)) => {
                tokens.push((s, i));
                start = None;
            }
            (false, None) => start = Some(i),
            _ => {}
        }
    }
    if let Some(s) = start {
        tokens.push((s, text.len()));
    }
    tokens
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(id_type: IdType, value: &str, expect: Result<&str, ()>) {
        let got = normalize(id_type, value, Some(&PhoneRegion::hong_kong()));
        match (&got, expect) {
            (Ok(got), Ok(want)) if got == want => {}
            (Err(_), Err(())) => {}
            _ => panic!("{id_type} {value:?}: got {got:?}, want {expect:?}"),
        }
    }

    #[test]
    fn one_phone_in_five_formats_is_one_identifier_and_one_digit_more_is_not() {
        let hk = PhoneRegion::hong_kong();
        let formats = [
            "+852 6123 4567",
            "61234567",
            "(852) 6123-4567",
            "852-6123-4567",
            "00852 6123 4567",
            "tel:+852-6123-4567",
            "6123 4567",
        ];
        for format in formats {
            assert_eq!(
                normalize_phone(format, Some(&hk)).as_deref(),
                Ok("+85261234567"),
                "{format}"
            );
        }
        let other = normalize_phone("+852 6123 4568", Some(&hk)).unwrap();
        assert_ne!(other, "+85261234567");
        assert_eq!(normalize_phone("61234568", Some(&hk)).unwrap(), other);
    }

    #[test]
    fn phones() {
        use IdType::Phone;
        check(Phone, "+44 20 7946 0000", Ok("+442079460000"));
        check(Phone, "2079460000", Err(())); // 10 digits is not a HK number
        check(Phone, "6123456", Err(())); // 7 digits
        check(Phone, "+852 6123 4567 ext 2", Err(()));
        check(Phone, "+", Err(()));
        check(Phone, "8521 2345", Ok("+85285212345")); // local number that starts with 852
        let gb = PhoneRegion::for_country("gb").unwrap();
        assert_eq!(
            normalize_phone("020 7946 0000", Some(&gb)).unwrap(),
            "+442079460000"
        );
        let us = PhoneRegion::for_country("US").unwrap();
        assert_eq!(
            normalize_phone("1 (415) 555-0100", Some(&us)).unwrap(),
            "+14155550100"
        );
        assert_eq!(
            normalize_phone("415.555.0100", Some(&us)).unwrap(),
            "+14155550100"
        );
        assert_eq!(
            normalize_phone("61234567", None),
            Err(IdentifierError::NoRegion)
        );
        assert_eq!(
            normalize_phone("+85261234567", None).unwrap(),
            "+85261234567"
        );
    }

    #[test]
    fn regions_read_from_data() {
        let r: PhoneRegion = serde_json::from_str(r#""HK""#).unwrap();
        assert_eq!(r, PhoneRegion::hong_kong());
        let r: PhoneRegion =
            serde_json::from_str(r#"{"calling_code":"852","national_lengths":[8]}"#).unwrap();
        assert_eq!(r, PhoneRegion::hong_kong());
        assert!(serde_json::from_str::<PhoneRegion>(r#""XX""#).is_err());
    }

    #[test]
    fn emails_and_accounts() {
        check(
            IdType::Email,
            " Leung.YL@Example.COM ",
            Ok("leung.yl@example.com"),
        );
        check(IdType::Email, "mailto:a@b.hk", Ok("a@b.hk"));
        check(IdType::Email, "a@b", Err(()));
        check(IdType::Email, "a b@c.com", Err(()));
        check(IdType::Email, "@c.com", Err(()));
        check(
            IdType::AppleId,
            "Chan.MH@iCloud.com",
            Ok("chan.mh@icloud.com"),
        );
        check(IdType::AppleId, "+852 6123 4567", Ok("+85261234567"));
        check(
            IdType::GoogleAccount,
            "Fung.CC@gmail.com",
            Ok("fung.cc@gmail.com"),
        );
        check(IdType::AccountId, "  wxid_Ab12   cd ", Ok("wxid_Ab12 cd"));
        check(IdType::DisplayName, "  LEUNG   YL ", Ok("leung yl"));
        check(IdType::Serial, "f2lxk0abc", Ok("F2LXK0ABC"));
        check(IdType::Serial, "F2L XK0", Err(()));
    }

    #[test]
    fn imei_luhn() {
        // The standard example: 49015420323751 has check digit 8.
        check(IdType::Imei, "490154203237518", Ok("490154203237518"));
        check(IdType::Imei, "49-015420-323751-8", Ok("490154203237518"));
        check(IdType::Imei, "49015420323751", Ok("490154203237518"));
        check(IdType::Imei, "490154203237519", Err(()));
        check(IdType::Imei, "4901542032375", Err(()));
        check(IdType::Imei, "49015420323751x", Err(()));
        check(IdType::Imsi, "454 00 1234567890", Ok("454001234567890"));
        check(
            IdType::Iccid,
            "8985200001234567890F",
            Ok("8985200001234567890"),
        );
        check(IdType::Iccid, "12345", Err(()));
    }

    #[test]
    fn eth_addresses_and_eip55() {
        // The EIP-55 reference vectors.
        for checksummed in [
            "5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
            "fB6916095ca1df60bB79Ce92cE3Ea74c37c5d359",
            "dbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB",
            "D1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb",
        ] {
            let lower = checksummed.to_ascii_lowercase();
            assert_eq!(eip55(&lower), checksummed);
            check(
                IdType::Wallet,
                &format!("0x{checksummed}"),
                Ok(&format!("0x{lower}")),
            );
            check(
                IdType::Wallet,
                &format!("0x{lower}"),
                Ok(&format!("0x{lower}")),
            );
            check(
                IdType::Wallet,
                &format!("0x{}", lower.to_ascii_uppercase()),
                Ok(&format!("0x{lower}")),
            );
        }
        // One letter's case flipped: the checksum fails.
        check(
            IdType::Wallet,
            "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD",
            Err(()),
        );
        check(
            IdType::Wallet,
            "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeA",
            Err(()),
        );
    }

    #[test]
    fn btc_and_tron_addresses() {
        // Bitcoin genesis address (P2PKH), a P2SH address, BIP-173/BIP-350 vectors.
        check(
            IdType::Wallet,
            "1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa",
            Ok("1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa"),
        );
        check(
            IdType::Wallet,
            "3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy",
            Ok("3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy"),
        );
        check(
            IdType::Wallet,
            "BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4",
            Ok("bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4"),
        );
        check(
            IdType::Wallet,
            "bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0",
            Ok("bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0"),
        );
        // One character changed: checksums fail.
        check(
            IdType::Wallet,
            "1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNb",
            Err(()),
        );
        check(
            IdType::Wallet,
            "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5",
            Err(()),
        );
        // TRON: the USDT-TRC20 contract address.
        check(
            IdType::Wallet,
            "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t",
            Ok("TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t"),
        );
        check(
            IdType::Wallet,
            "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6T",
            Err(()),
        );
        check(IdType::Wallet, "hello", Err(()));
    }

    #[test]
    fn strengths() {
        let weak: Vec<_> = IdType::ALL
            .into_iter()
            .filter(|t| t.strength() == Strength::Weak)
            .collect();
        assert_eq!(
            weak,
            [IdType::DisplayName, IdType::Nickname, IdType::DeviceName]
        );
    }

    /// Misreads Tesseract 5.3 made on synthetic screenshots (bench/ocr_screens.py).
    #[test]
    fn look_alike_repairs_pass_the_checksum_or_are_refused() {
        let repaired = |t: &str| match repair_wallet(t) {
            WalletRepair::Repaired { value, .. } => Some(value),
            _ => None,
        };
        assert_eq!(
            repaired("bclqljthjnv76dpn2ksdyec29fn96ja4g8lumjwecj").as_deref(),
            Some("bc1qljthjnv76dpn2ksdyec29fn96ja4g8lumjwecj")
        );
        assert_eq!(
            repaired("bclqmvOm9awsm3pf 3gmvuapuld2ep6q59ktq2j 9x37").as_deref(),
            Some("bc1qmv0m9awsm3pf3gmvuapuld2ep6q59ktq2j9x37")
        );
        assert_eq!(
            repaired("0x52819c43e9F fBObE65c797d9F76102966d8c7Ea9").as_deref(),
            Some("0x52819c43e9FfB0bE65c797d9F76102966d8c7Ea9")
        );
        assert_eq!(
            repaired("TGB79VDBGD31TYawLtGzG292SLADaUNM6k").as_deref(),
            Some("TGB79vDBGD31TYawLtGzG292SLADaUNM6k")
        );
        assert_eq!(
            repaired("TN5 rNht4J6NCrBxHj 96CxGoLZj 8un62EM9").as_deref(),
            Some("TN5rNht4J6NCrBxHj96CxGoLZj8un62EM9")
        );
        // An inserted character, or a confusion outside the look-alike groups, is not repaired.
        assert_eq!(
            repair_wallet("Ox85aa0C66bBE6962f32BE28c8d1lad03e5E67FEC92"),
            WalletRepair::Invalid
        );
        assert_eq!(
            repair_wallet("TDLepPS6hm2I260XgLSGZtnwga3mEvx31z"),
            WalletRepair::Invalid
        );
        assert_eq!(
            repair_wallet("TGB79vDBGD31TYawLtGzG292SLADaUNM6k"),
            WalletRepair::Exact("TGB79vDBGD31TYawLtGzG292SLADaUNM6k".into())
        );
        // A lower-case ETH address has no checksum: only what the hex alphabet forces.
        assert_eq!(
            repaired("Ox1850ce0e73407a9997c467babc60fe887c567625").as_deref(),
            Some("0x1850ce0e73407a9997c467babc60fe887c567625")
        );
        assert!(look_alike('O', '0') && look_alike('l', '1') && !look_alike('J', 'I'));
    }
}
