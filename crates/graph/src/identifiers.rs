//! Identifier types and their normalisation — the one place where identifiers are canonicalised
//! (DESIGN §8). Grounding, identity observations and (later) coreference blocking all compare
//! identifiers by [`normalize`].
//!
//! | type | strength | canonical form |
//! |---|---|---|
//! | `phone` | strong | E.164 (`+85261234567`) by libphonenumber's metadata; national numbers read with the source's [`Region`]; WhatsApp JIDs (`…@s.whatsapp.net`) are phones; a number its metadata calls invalid is refused |
//! | `email`, `google_account` | strong | trimmed, `mailto:` dropped, lower case |
//! | `apple_id` | strong | as e-mail when it has `@`, as phone when it starts with `+`, else lower case |
//! | `account_id` | strong | trimmed, inner white space collapsed, case kept |
//! | `whatsapp_lid` | strong | `<digits>@lid`, a device suffix dropped; never a phone |
//! | `contact_guid` | strong | UUID in upper case, `:ABPerson` dropped |
//! | `dsid` | strong | 5–20 digits |
//! | `android_id` | strong | 8–16 hex digits, lower case |
//! | `imei` | strong | 15 digits with a valid Luhn check digit (a 14-digit body gets its check digit) |
//! | `imsi` | strong | 6–15 digits |
//! | `iccid` | strong | 18–20 digits (a trailing `F` filler dropped) |
//! | `serial` | strong | trimmed, upper case |
//! | `wallet` | strong | ETH: `0x` + lower-case hex (mixed case must pass EIP-55); BTC bech32: lower case; BTC/TRON base58: as written (Base58Check verified) |
//! | `display_name`, `nickname`, `device_name` | weak | white space collapsed, lower case |
//! | `wechat` | strong | `wechat:` + the WeChat ID (微信号: a letter, then 5–19 letters, digits, `_`, `-`), lower case |
//! | `qq` | strong | `qq:` + the QQ number (5–11 digits, no leading zero) |
//! | `line` | strong | `line:` + the LINE ID (4–20 of `a-z 0-9 . _ -`), lower case |
//! | `telegram_username` | strong | `telegram-user:@` + the user name (5–32 of `a-z 0-9 _`, a letter first), lower case |
//! | `signal_username` | strong | `signal-user:` + the user name (`name.01`: 3–32 of `a-z 0-9 _`, a dot, 2–9 digits), lower case |
//!
//! The app account types accept the value with or without their namespace (`wechat:abc_123`
//! or `abc_123`; a Telegram user name with or without `@`) and are compared with the other
//! service account ids (`account_id`, [`crate::resolution::KeySpace::AccountId`]): a parser
//! that writes `qq:<number>` as an `account_id` meets a `qq` claim of the same number.
//!
//! Strength and single-valuedness per entity kind are the rows of the one table,
//! [`crate::resolution::TABLE`]. A value of a strong type that is a placeholder or sentinel
//! ([`placeholder`]: `local`, `unknown`, all-zero IMEIs, emulator ids, example.com
//! addresses, default device names) is weak ([`strength_of`]) and joins nothing.

use std::fmt;

use serde::{Deserialize, Serialize};
use sha3::{Digest, Keccak256};

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
    /// Another service's account id (a WhatsApp, Telegram, Signal, WeChat user id).
    AccountId,
    /// A WhatsApp linked identity (`…@lid`): an opaque account id, never a phone number.
    WhatsappLid,
    /// An address-book person identifier that apps repeat (iOS `ABPerson.guid`, WhatsApp's
    /// `ZWAADDRESSBOOKCONTACT.ZIDENTIFIER`).
    ContactGuid,
    /// An Apple directory services id (DSID) of an Apple ID.
    Dsid,
    /// An Android device's `android_id` (`Settings.Secure.ANDROID_ID`).
    AndroidId,
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
    /// A WeChat ID (微信号), the name a user chose: `wechat:<id>`.
    Wechat,
    /// A QQ number: `qq:<digits>`.
    Qq,
    /// A LINE ID: `line:<id>`.
    Line,
    /// A Telegram user name (`@handle`): `telegram-user:@<handle>`. (Telegram's numeric user
    /// ids are `account_id`s `telegram:<id>`.)
    TelegramUsername,
    /// A Signal user name (`name.01`): `signal-user:<name>`.
    SignalUsername,
    /// An Apple device's UDID (`00008030-001A2B3C4D5E802E`, or 40 hex digits before 2018): the
    /// name of its backups and of the pairing records the computers it trusted keep.
    Udid,
    /// The `HostID` of a computer an Apple device trusted (a UUID): both keep it in their
    /// lockdown pairing records, the device as the record's name.
    PairingHost,
    /// A Bluetooth device address (`AA:BB:CC:DD:EE:FF`, public or classic; a random LE
    /// address is no identifier): an adapter's own, or a peer's in another device's pairings.
    BluetoothAddress,
    /// An Android Debug Bridge public key (the base64 of the RSA key `adb` writes, 700
    /// characters for its 2048-bit keys): a computer keeps it in `~/.android/adbkey.pub`, and
    /// every Android device that allowed USB debugging from that computer keeps it in
    /// `/data/misc/adb/adb_keys`.
    AdbKey,
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
    pub const ALL: [IdType; 26] = [
        Self::Phone,
        Self::Email,
        Self::AppleId,
        Self::GoogleAccount,
        Self::AccountId,
        Self::WhatsappLid,
        Self::ContactGuid,
        Self::Dsid,
        Self::AndroidId,
        Self::Imei,
        Self::Imsi,
        Self::Iccid,
        Self::Serial,
        Self::Wallet,
        Self::DisplayName,
        Self::Nickname,
        Self::DeviceName,
        Self::Wechat,
        Self::Qq,
        Self::Line,
        Self::TelegramUsername,
        Self::SignalUsername,
        Self::Udid,
        Self::PairingHost,
        Self::BluetoothAddress,
        Self::AdbKey,
    ];

    /// The app account types ([`IdType::Wechat`], [`IdType::Qq`], [`IdType::Line`],
    /// [`IdType::TelegramUsername`], [`IdType::SignalUsername`]): an id a user of the app
    /// chose or was given, which a writer may name as their own ("my WeChat is …").
    pub const APP_ACCOUNTS: [IdType; 5] = [
        Self::Wechat,
        Self::Qq,
        Self::Line,
        Self::TelegramUsername,
        Self::SignalUsername,
    ];

    /// The namespace an app account type's canonical form starts with (`wechat:`), `None`
    /// for other types.
    pub fn namespace(self) -> Option<&'static str> {
        match self {
            Self::Wechat => Some("wechat:"),
            Self::Qq => Some("qq:"),
            Self::Line => Some("line:"),
            Self::TelegramUsername => Some("telegram-user:"),
            Self::SignalUsername => Some("signal-user:"),
            _ => None,
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
            Self::WhatsappLid => "whatsapp_lid",
            Self::ContactGuid => "contact_guid",
            Self::Dsid => "dsid",
            Self::AndroidId => "android_id",
            Self::Imei => "imei",
            Self::Imsi => "imsi",
            Self::Iccid => "iccid",
            Self::Serial => "serial",
            Self::Wallet => "wallet",
            Self::DisplayName => "display_name",
            Self::Nickname => "nickname",
            Self::DeviceName => "device_name",
            Self::Wechat => "wechat",
            Self::Qq => "qq",
            Self::Line => "line",
            Self::TelegramUsername => "telegram_username",
            Self::SignalUsername => "signal_username",
            Self::Udid => "udid",
            Self::PairingHost => "pairing_host",
            Self::BluetoothAddress => "bluetooth_address",
            Self::AdbKey => "adb_key",
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
    /// Not an ISO 3166-1 alpha-2 code that libphonenumber's metadata knows.
    #[error("unknown region {0:?}: expected an ISO 3166-1 alpha-2 code such as US, GB, HK")]
    UnknownRegion(String),
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

/// A phone-numbering region: an ISO 3166-1 alpha-2 code (`US`, `HK`, `GB`, …) that
/// libphonenumber's metadata knows. Numbers written without their country code are read as
/// numbers of this region (its national format, trunk prefix and international prefix, all
/// from the metadata). Written in data files as the code (`"HK"`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Region(phonenumber::country::Id);

impl Region {
    /// The region of an ISO 3166-1 alpha-2 code (any case, surrounding white space ignored);
    /// an error for a code libphonenumber's metadata does not know.
    pub fn parse(code: &str) -> Result<Self, IdentifierError> {
        let upper = code.trim().to_ascii_uppercase();
        let unknown = || IdentifierError::UnknownRegion(code.trim().to_string());
        if upper.len() != 2 || !upper.bytes().all(|b| b.is_ascii_uppercase()) {
            return Err(unknown());
        }
        let id: phonenumber::country::Id = upper.parse().map_err(|_| unknown())?;
        // Codes of the CLDR list without numbering metadata are not regions for numbers.
        if phonenumber::metadata::DATABASE.by_id(id.as_ref()).is_none() {
            return Err(unknown());
        }
        Ok(Self(id))
    }

    /// The ISO 3166-1 alpha-2 code.
    pub fn code(&self) -> &str {
        self.0.as_ref()
    }

    /// The region's country calling code (`1` for US, `852` for HK).
    pub fn calling_code(&self) -> u16 {
        phonenumber::metadata::DATABASE
            .by_id(self.0.as_ref())
            .map_or(0, |m| m.country_code())
    }

    /// The main region of a country calling code (`1` → US, `44` → GB, `7` → RU).
    pub fn for_calling_code(code: u16) -> Option<Self> {
        let all = phonenumber::metadata::DATABASE.by_code(&code)?;
        let main = all
            .iter()
            .find(|m| m.is_main_country_for_code())
            .or_else(|| all.first())?;
        Self::parse(main.id()).ok()
    }

    /// The region of a number written internationally (`+1 443 987 7293`, `0044…` is not:
    /// only a leading `+`): libphonenumber's region for the number (US and Canada told apart
    /// by the area code). `None` for a national or invalid number.
    pub fn of_international_number(value: &str) -> Option<Self> {
        let value = value.trim();
        let value = strip_prefix_ignore_case(value, "tel:").unwrap_or(value);
        if !value.starts_with('+') {
            return None;
        }
        let number = parse_phone_number(None, value)?;
        if !number.is_valid() {
            return None;
        }
        Self::parse(number.country().id()?.as_ref()).ok()
    }

    /// The region of a mobile country code (ITU-T E.212, the first three digits of an IMSI).
    pub fn for_mcc(mcc: u16) -> Option<Self> {
        MCC_REGIONS
            .iter()
            .find(|(m, _)| *m == mcc)
            .and_then(|(_, code)| Self::parse(code).ok())
    }

    /// The region of an IMSI: its mobile country code (its first three digits).
    pub fn of_imsi(imsi: &str) -> Option<Self> {
        let digits = digits_of(imsi, "imsi", 6..=15).ok()?;
        Self::for_mcc(digits.get(..3)?.parse().ok()?)
    }

    /// The region of an ICCID: `89` (telecommunications) and then the country calling code of
    /// the issuer (ITU-T E.118), mapped to the code's main region; the code is read by
    /// libphonenumber's list of calling codes (one to three digits, no code a prefix of
    /// another).
    pub fn of_iccid(iccid: &str) -> Option<Self> {
        let value = iccid.trim();
        let value = value.strip_suffix(['F', 'f']).unwrap_or(value);
        let digits = digits_of(value, "iccid", 18..=20).ok()?;
        let rest = digits.strip_prefix("89")?;
        (1..=3).find_map(|n| {
            let code: u16 = rest.get(..n)?.parse().ok()?;
            Self::for_calling_code(code)
        })
    }

    /// The region of a locale identifier (`en_US`, `zh-Hant-HK`, `en-GB@calendar=gregorian`):
    /// its region subtag. `None` when it has none (`en`) or a numeric one (`es-419`).
    pub fn of_locale(locale: &str) -> Option<Self> {
        let base = locale.split(['@', '.']).next().unwrap_or(locale);
        base.split(['_', '-'])
            .skip(1)
            .find(|t| t.len() == 2 && t.bytes().all(|b| b.is_ascii_alphabetic()))
            .and_then(|t| Self::parse(t).ok())
    }
}

impl fmt::Debug for Region {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Region({})", self.code())
    }
}

impl fmt::Display for Region {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

impl TryFrom<String> for Region {
    type Error = IdentifierError;

    fn try_from(code: String) -> Result<Self, IdentifierError> {
        Self::parse(&code)
    }
}

impl From<Region> for String {
    fn from(region: Region) -> String {
        region.code().to_string()
    }
}

impl std::str::FromStr for Region {
    type Err = IdentifierError;

    fn from_str(code: &str) -> Result<Self, IdentifierError> {
        Self::parse(code)
    }
}

/// Mobile country codes (ITU-T E.212) and the region each is assigned to; codes shared by a
/// country's territories map to the country (310–316 to US, 234/235 to GB, 505 to AU).
pub const MCC_REGIONS: &[(u16, &str)] = &[
    (202, "GR"),
    (204, "NL"),
    (206, "BE"),
    (208, "FR"),
    (212, "MC"),
    (213, "AD"),
    (214, "ES"),
    (216, "HU"),
    (218, "BA"),
    (219, "HR"),
    (220, "RS"),
    (221, "XK"),
    (222, "IT"),
    (225, "VA"),
    (226, "RO"),
    (228, "CH"),
    (230, "CZ"),
    (231, "SK"),
    (232, "AT"),
    (234, "GB"),
    (235, "GB"),
    (238, "DK"),
    (240, "SE"),
    (242, "NO"),
    (244, "FI"),
    (246, "LT"),
    (247, "LV"),
    (248, "EE"),
    (250, "RU"),
    (255, "UA"),
    (257, "BY"),
    (259, "MD"),
    (260, "PL"),
    (262, "DE"),
    (266, "GI"),
    (268, "PT"),
    (270, "LU"),
    (272, "IE"),
    (274, "IS"),
    (276, "AL"),
    (278, "MT"),
    (280, "CY"),
    (282, "GE"),
    (283, "AM"),
    (284, "BG"),
    (286, "TR"),
    (288, "FO"),
    (290, "GL"),
    (292, "SM"),
    (293, "SI"),
    (294, "MK"),
    (295, "LI"),
    (297, "ME"),
    (302, "CA"),
    (308, "PM"),
    (310, "US"),
    (311, "US"),
    (312, "US"),
    (313, "US"),
    (314, "US"),
    (315, "US"),
    (316, "US"),
    (330, "PR"),
    (334, "MX"),
    (338, "JM"),
    (340, "GP"),
    (342, "BB"),
    (344, "AG"),
    (346, "KY"),
    (348, "VG"),
    (350, "BM"),
    (352, "GD"),
    (354, "MS"),
    (356, "KN"),
    (358, "LC"),
    (360, "VC"),
    (362, "CW"),
    (363, "AW"),
    (364, "BS"),
    (365, "AI"),
    (366, "DM"),
    (368, "CU"),
    (370, "DO"),
    (372, "HT"),
    (374, "TT"),
    (376, "TC"),
    (400, "AZ"),
    (401, "KZ"),
    (402, "BT"),
    (404, "IN"),
    (405, "IN"),
    (406, "IN"),
    (410, "PK"),
    (412, "AF"),
    (413, "LK"),
    (414, "MM"),
    (415, "LB"),
    (416, "JO"),
    (417, "SY"),
    (418, "IQ"),
    (419, "KW"),
    (420, "SA"),
    (421, "YE"),
    (422, "OM"),
    (424, "AE"),
    (425, "IL"),
    (426, "BH"),
    (427, "QA"),
    (428, "MN"),
    (429, "NP"),
    (430, "AE"),
    (431, "AE"),
    (432, "IR"),
    (434, "UZ"),
    (436, "TJ"),
    (437, "KG"),
    (438, "TM"),
    (440, "JP"),
    (441, "JP"),
    (450, "KR"),
    (452, "VN"),
    (454, "HK"),
    (455, "MO"),
    (456, "KH"),
    (457, "LA"),
    (460, "CN"),
    (461, "CN"),
    (466, "TW"),
    (467, "KP"),
    (470, "BD"),
    (472, "MV"),
    (502, "MY"),
    (505, "AU"),
    (510, "ID"),
    (514, "TL"),
    (515, "PH"),
    (520, "TH"),
    (525, "SG"),
    (528, "BN"),
    (530, "NZ"),
    (536, "NR"),
    (537, "PG"),
    (539, "TO"),
    (540, "SB"),
    (541, "VU"),
    (542, "FJ"),
    (543, "WF"),
    (544, "AS"),
    (545, "KI"),
    (546, "NC"),
    (547, "PF"),
    (548, "CK"),
    (549, "WS"),
    (550, "FM"),
    (551, "MH"),
    (552, "PW"),
    (553, "TV"),
    (555, "NU"),
    (602, "EG"),
    (603, "DZ"),
    (604, "MA"),
    (605, "TN"),
    (606, "LY"),
    (607, "GM"),
    (608, "SN"),
    (609, "MR"),
    (610, "ML"),
    (611, "GN"),
    (612, "CI"),
    (613, "BF"),
    (614, "NE"),
    (615, "TG"),
    (616, "BJ"),
    (617, "MU"),
    (618, "LR"),
    (619, "SL"),
    (620, "GH"),
    (621, "NG"),
    (622, "TD"),
    (623, "CF"),
    (624, "CM"),
    (625, "CV"),
    (626, "ST"),
    (627, "GQ"),
    (628, "GA"),
    (629, "CG"),
    (630, "CD"),
    (631, "AO"),
    (632, "GW"),
    (633, "SC"),
    (634, "SD"),
    (635, "RW"),
    (636, "ET"),
    (637, "SO"),
    (638, "DJ"),
    (639, "KE"),
    (640, "TZ"),
    (641, "UG"),
    (642, "BI"),
    (643, "MZ"),
    (645, "ZM"),
    (646, "MG"),
    (647, "RE"),
    (648, "ZW"),
    (649, "NA"),
    (650, "MW"),
    (651, "LS"),
    (652, "BW"),
    (653, "SZ"),
    (654, "KM"),
    (655, "ZA"),
    (657, "ER"),
    (658, "SH"),
    (659, "SS"),
    (702, "BZ"),
    (704, "GT"),
    (706, "SV"),
    (708, "HN"),
    (710, "NI"),
    (712, "CR"),
    (714, "PA"),
    (716, "PE"),
    (722, "AR"),
    (724, "BR"),
    (730, "CL"),
    (732, "CO"),
    (734, "VE"),
    (736, "BO"),
    (738, "GY"),
    (740, "EC"),
    (742, "GF"),
    (744, "PY"),
    (746, "SR"),
    (748, "UY"),
    (750, "FK"),
];

/// Normalises a value of the given type to its canonical form (see the module table).
/// `region` is needed only for phone numbers written without a country code.
pub fn normalize(
    id_type: IdType,
    value: &str,
    region: Option<&Region>,
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
        IdType::WhatsappLid => normalize_lid(value),
        IdType::ContactGuid => normalize_contact_guid(value),
        IdType::Dsid => digits_of(value, "dsid", 5..=20),
        IdType::AndroidId => {
            let lower = value.to_ascii_lowercase();
            if (8..=16).contains(&lower.len()) && lower.bytes().all(|b| b.is_ascii_hexdigit()) {
                Ok(lower)
            } else {
                Err(IdentifierError::Invalid {
                    id_type: "android_id",
                    why: "not 8–16 hex digits".into(),
                })
            }
        }
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
        IdType::Wechat
        | IdType::Qq
        | IdType::Line
        | IdType::TelegramUsername
        | IdType::SignalUsername => normalize_app_account(id_type, value),
        IdType::Udid => normalize_udid(value),
        IdType::PairingHost => normalize_uuid(value, "pairing_host"),
        IdType::BluetoothAddress => normalize_bluetooth(value),
        IdType::AdbKey => normalize_adb_key(value),
    }
}

/// The canonical form of an app account id (see the module table): its namespace and the id
/// in lower case, or why it is not one. The value may carry the namespace already.
pub fn normalize_app_account(id_type: IdType, value: &str) -> Result<String, IdentifierError> {
    let namespace = id_type.namespace().unwrap_or_default();
    let value = value.trim();
    let value = value
        .get(..namespace.len())
        .filter(|p| p.eq_ignore_ascii_case(namespace))
        .map_or(value, |_| &value[namespace.len()..]);
    let lower = value.to_ascii_lowercase();
    let invalid = |why: &str| IdentifierError::Invalid {
        id_type: id_type.as_str(),
        why: why.into(),
    };
    let all = |s: &str, extra: &[u8]| {
        s.bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || extra.contains(&b))
    };
    let letter_first = |s: &str| s.bytes().next().is_some_and(|b| b.is_ascii_lowercase());
    let id = match id_type {
        IdType::Wechat => {
            // A WeChat ID the user chose (微信号), as people write it; or a user name as the
            // apps store it (`Friend.userName`, `rcontact.username`): a `wxid_…` id, or a
            // group's `<digits or letters>@chatroom`. A bare number is none of them (it is
            // more likely a phone or a QQ number).
            let chosen =
                (6..=20).contains(&lower.len()) && letter_first(&lower) && all(&lower, b"_-");
            let wxid = lower.len() <= 64
                && lower
                    .strip_prefix("wxid_")
                    .is_some_and(|r| !r.is_empty() && all(r, b"_-"));
            let group = lower.len() <= 64
                && lower
                    .strip_suffix("@chatroom")
                    .is_some_and(|r| !r.is_empty() && all(r, b"_-"));
            if !(chosen || wxid || group) {
                return Err(invalid(
                    "not a WeChat ID (a letter, then 5–19 letters, digits, _ or -), a wxid_… \
                     user name or a …@chatroom group",
                ));
            }
            lower
        }
        IdType::Qq => {
            if !(5..=11).contains(&lower.len())
                || !lower.bytes().all(|b| b.is_ascii_digit())
                || lower.starts_with('0')
            {
                return Err(invalid("not a QQ number (5–11 digits, no leading zero)"));
            }
            lower
        }
        IdType::Line => {
            if !(4..=20).contains(&lower.len()) || !all(&lower, b"._-") {
                return Err(invalid("not a LINE ID (4–20 of a-z, 0-9, ., _, -)"));
            }
            lower
        }
        IdType::TelegramUsername => {
            let handle = lower.strip_prefix('@').unwrap_or(&lower);
            if !(5..=32).contains(&handle.len()) || !letter_first(handle) || !all(handle, b"_") {
                return Err(invalid(
                    "not a Telegram user name (5–32 of a-z, 0-9, _, a letter first)",
                ));
            }
            format!("@{handle}")
        }
        IdType::SignalUsername => {
            let ok = lower.split_once('.').is_some_and(|(name, digits)| {
                (3..=32).contains(&name.len())
                    && !name.starts_with(|c: char| c.is_ascii_digit())
                    && all(name, b"_")
                    && (2..=9).contains(&digits.len())
                    && digits.bytes().all(|b| b.is_ascii_digit())
            });
            if !ok {
                return Err(invalid("not a Signal user name (name.01)"));
            }
            lower
        }
        _ => return Err(invalid("not an app account type")),
    };
    Ok(format!("{namespace}{id}"))
}

/// Words that stand for "no value" wherever an identifier is written (compared in lower case,
/// trimmed): an iTunes Store account's user name `local`, a `(null)` from a printf, …
pub const PLACEHOLDER_WORDS: &[&str] = &[
    "local",
    "unknown",
    "null",
    "(null)",
    "<null>",
    "nil",
    "none",
    "n/a",
    "na",
    "undefined",
    "default",
    "empty",
    "-",
    "?",
];

/// Device names a device carries until its user names it (iOS: the model; Android: the OS or
/// the model family), so the same on millions of devices.
pub const DEFAULT_DEVICE_NAMES: &[&str] = &[
    "iphone",
    "ipad",
    "ipod",
    "ipod touch",
    "apple watch",
    "android",
    "localhost",
    "my iphone",
    "my ipad",
    "galaxy",
    "pixel",
];

/// Sentinel values of the Android emulator and of SDK defaults, by type: the same on every
/// emulator image, so no evidence of identity.
pub const EMULATOR_VALUES: &[(IdType, &str)] = &[
    (IdType::Imei, "000000000000000"),
    (IdType::Imei, "004999010640000"),
    (IdType::Imsi, "310260000000000"),
    (IdType::Iccid, "89014103211118510720"),
    (IdType::Phone, "+15555215554"),
    (IdType::Phone, "+15555215556"),
    (IdType::AndroidId, "9774d56d682e549c"),
    (IdType::Serial, "EMULATOR"),
    (IdType::Serial, "0123456789ABCDEF"),
];

/// Local parts that forms, templates and documentation put before a reserved domain
/// (`user@example.com`, `your.name@example.org`).
pub const PLACEHOLDER_EMAIL_USERS: &[&str] = &[
    "user",
    "username",
    "name",
    "yourname",
    "your.name",
    "your_name",
    "you",
    "me",
    "email",
    "mail",
    "test",
    "tester",
    "someone",
    "somebody",
    "example",
    "sample",
    "demo",
    "admin",
    "info",
    "contact",
    "noreply",
    "no-reply",
    "john.doe",
    "jane.doe",
    "johndoe",
    "janedoe",
    "john",
    "jane",
    "firstname.lastname",
    "first.last",
    "foo",
    "bar",
    "abc",
    "xxx",
];

/// Domains reserved for examples and tests (RFC 2606, RFC 6761): a form's or a template's
/// placeholder address is written there.
pub const RESERVED_EMAIL_DOMAINS: &[&str] = &[
    "example.com",
    "example.net",
    "example.org",
    "example",
    "test",
    "invalid",
    "localhost",
];

/// Why `value`, observed as an `id_type`, is a placeholder or a sentinel rather than an
/// identifier, if it is one. Such a value is never strong ([`strength_of`]) and joins no two
/// entities (resolution gives it no key). The list, with the reason given for each:
///
/// - empty or white space only: "empty";
/// - a [`PLACEHOLDER_WORDS`] word (`local`, `unknown`, `null`, `(null)`, `none`, …), for any
///   type: "placeholder word";
/// - for IMEI, IMSI, ICCID, serial, DSID, Android id and phone numbers: one digit repeated
///   (`000000000000000`, `999999999999999`, `+11111111111`) after separators and a leading
///   `+` are dropped: "one repeated digit";
/// - [`EMULATOR_VALUES`] (the Android emulator's IMEI, IMSI, ICCID, phone numbers, the
///   Android 2.2 `android_id` bug value, SDK serials): "Android emulator or SDK default";
///   a serial starting `EMULATOR` too;
/// - an e-mail address (or Google account, or Apple ID that is an address) whose local part
///   is a [`PLACEHOLDER_EMAIL_USERS`] word at a [`RESERVED_EMAIL_DOMAINS`] domain or one of
///   its subdomains (`user@example.com`): "placeholder address at a reserved example domain".
///   Other addresses at reserved domains are not judged placeholders: synthetic test cases
///   (this project's demo among them) use those domains, as RFC 2606 asks, for their people;
/// - a device name of [`DEFAULT_DEVICE_NAMES`]: "default device name".
pub fn placeholder(id_type: IdType, value: &str) -> Option<&'static str> {
    // Resolution asks this of every identifier: no allocation on the common path.
    let trimmed = value.trim();
    if trimmed.is_empty() {
        return Some("empty");
    }
    // A listed word, inner white space collapsed, ASCII case ignored.
    let is_word = |words: &[&str]| {
        words.iter().any(|w| {
            let (mut have, mut want) = (trimmed.split_whitespace(), w.split(' '));
            loop {
                match (have.next(), want.next()) {
                    (None, None) => return true,
                    (Some(h), Some(x)) if h.eq_ignore_ascii_case(x) => {}
                    _ => return false,
                }
            }
        })
    };
    if is_word(PLACEHOLDER_WORDS) {
        return Some("placeholder word");
    }
    let numeric = matches!(
        id_type,
        IdType::Imei
            | IdType::Imsi
            | IdType::Iccid
            | IdType::Serial
            | IdType::Dsid
            | IdType::AndroidId
            | IdType::Phone
            | IdType::Qq
    );
    let digits = || {
        trimmed
            .chars()
            .filter(|c| !matches!(c, ' ' | '-' | '.' | '+' | '(' | ')'))
    };
    if numeric
        && let Some(first) = digits().next()
        && first.is_ascii_digit()
        && digits().count() >= 4
        && digits().all(|c| c == first)
    {
        return Some("one repeated digit");
    }
    let emulator = match id_type {
        IdType::Phone => {
            // `+1 555 521 5554`, `15555215554`, `(555) 521-5554`: by their digits
            let have = || trimmed.chars().filter(char::is_ascii_digit);
            let n = have().count();
            EMULATOR_VALUES.iter().any(|(t, v)| {
                *t == IdType::Phone && {
                    let want: Vec<char> = v.chars().filter(char::is_ascii_digit).collect();
                    (10..=11).contains(&n)
                        && n <= want.len()
                        && have().eq(want.iter().skip(want.len() - n).copied())
                }
            })
        }
        IdType::Imei | IdType::Imsi | IdType::Iccid | IdType::AndroidId | IdType::Serial => {
            let canonical =
                normalize(id_type, trimmed, None).unwrap_or_else(|_| trimmed.to_string());
            EMULATOR_VALUES
                .iter()
                .any(|(t, v)| *t == id_type && canonical.eq_ignore_ascii_case(v))
                || (id_type == IdType::Serial
                    && canonical
                        .get(..8)
                        .is_some_and(|p| p.eq_ignore_ascii_case("EMULATOR")))
        }
        _ => false,
    };
    if emulator {
        return Some("Android emulator or SDK default");
    }
    if matches!(
        id_type,
        IdType::Email | IdType::GoogleAccount | IdType::AppleId
    ) && let Some((user, domain)) = trimmed.rsplit_once('@')
        && PLACEHOLDER_EMAIL_USERS
            .iter()
            .any(|u| u.eq_ignore_ascii_case(user))
        && RESERVED_EMAIL_DOMAINS.iter().any(|d| {
            domain.eq_ignore_ascii_case(d)
                || domain
                    .len()
                    .checked_sub(d.len() + 1)
                    .and_then(|at| domain.get(at..))
                    .is_some_and(|tail| {
                        tail.starts_with('.')
                            && tail.get(1..).is_some_and(|t| t.eq_ignore_ascii_case(d))
                    })
        })
    {
        return Some("placeholder address at a reserved example domain");
    }
    if id_type == IdType::DeviceName && is_word(DEFAULT_DEVICE_NAMES) {
        return Some("default device name");
    }
    None
}

/// The strength of one observed value: its type's strength ([`IdType::strength`]), except
/// that a [`placeholder`] is always weak.
pub fn strength_of(id_type: IdType, value: &str) -> Strength {
    if placeholder(id_type, value).is_some() {
        Strength::Weak
    } else {
        id_type.strength()
    }
}

/// The WhatsApp user server: a JID `<digits>@s.whatsapp.net` is the account of that phone
/// number, written internationally without `+`.
pub const WHATSAPP_USER_SERVER: &str = "@s.whatsapp.net";

/// WhatsApp's linked-identity server: `<digits>@lid` is an opaque account id, never a phone
/// number (the digits look like one, 15 of them, and are not).
pub const WHATSAPP_LID_SERVER: &str = "@lid";

/// A WhatsApp LID (`123456789012345@lid`, a device suffix `:12` dropped), lower case.
pub fn normalize_lid(value: &str) -> Result<String, IdentifierError> {
    let lower = value.trim().to_ascii_lowercase();
    let invalid = |why: &str| IdentifierError::Invalid {
        id_type: "whatsapp_lid",
        why: why.into(),
    };
    let user = lower
        .strip_suffix(WHATSAPP_LID_SERVER)
        .ok_or_else(|| invalid("does not end in @lid"))?;
    let user = user.split(':').next().unwrap_or(user);
    if user.is_empty() || user.len() > 24 || !user.bytes().all(|b| b.is_ascii_digit()) {
        return Err(invalid("the user part is not 1–24 digits"));
    }
    Ok(format!("{user}{WHATSAPP_LID_SERVER}"))
}

/// An Apple device's UDID in upper case: 8 and 16 hex digits joined by `-` (devices since
/// 2018) or 40 hex digits (a SHA-1, earlier devices).
pub fn normalize_udid(value: &str) -> Result<String, IdentifierError> {
    let upper = value.trim().to_ascii_uppercase();
    let hex = |s: &str, n: usize| s.len() == n && s.bytes().all(|b| b.is_ascii_hexdigit());
    let ok = match upper.split_once('-') {
        Some((a, b)) => hex(a, 8) && hex(b, 16),
        None => hex(&upper, 40),
    };
    if ok {
        Ok(upper)
    } else {
        Err(IdentifierError::Invalid {
            id_type: "udid",
            why: "not 8-16 or 40 hex digits".into(),
        })
    }
}

/// An ADB public key: the key's base64 as `adb` writes it (its first word: a line of
/// `adbkey.pub` or `adb_keys` carries `user@host` after it), case kept. Shorter than 64
/// characters, or not base64, it is refused.
pub fn normalize_adb_key(value: &str) -> Result<String, IdentifierError> {
    let invalid = |why: &str| IdentifierError::Invalid {
        id_type: "adb_key",
        why: why.into(),
    };
    let key = value.split_whitespace().next().unwrap_or_default();
    if key.len() < 64 {
        return Err(invalid("shorter than a public key's base64"));
    }
    let body = key.trim_end_matches('=');
    if key.len() - body.len() > 2
        || !body
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'+' || b == b'/')
    {
        return Err(invalid("not base64"));
    }
    Ok(key.to_string())
}

/// A Bluetooth device address in upper case with colons: six hex pairs separated by `:` or `-`,
/// optionally after `Public ` (as iOS writes LE addresses). A random LE address (`Random …`),
/// one of all zeros and the broadcast address are refused: they name no one device.
pub fn normalize_bluetooth(value: &str) -> Result<String, IdentifierError> {
    let invalid = |why: &str| IdentifierError::Invalid {
        id_type: "bluetooth_address",
        why: why.into(),
    };
    let v = value.trim();
    if v.get(..7)
        .is_some_and(|p| p.eq_ignore_ascii_case("random "))
    {
        return Err(invalid("a random address changes: it names no device"));
    }
    let v = match v.get(..7) {
        Some(p) if p.eq_ignore_ascii_case("public ") => &v[7..],
        _ => v,
    };
    let parts: Vec<&str> = v.split([':', '-']).collect();
    if parts.len() != 6
        || !parts
            .iter()
            .all(|p| p.len() == 2 && p.bytes().all(|b| b.is_ascii_hexdigit()))
    {
        return Err(invalid("not six hex pairs"));
    }
    let upper = parts.join(":").to_ascii_uppercase();
    if upper == "00:00:00:00:00:00" || upper == "FF:FF:FF:FF:FF:FF" {
        return Err(invalid("a placeholder address"));
    }
    Ok(upper)
}

/// An address-book person identifier as apps repeat it: a UUID in upper case, the
/// Contacts framework's `:ABPerson` suffix dropped (`551eb6cb-…:ABPerson` and WhatsApp's
/// `ZIDENTIFIER` `551EB6CB-…` are one key).
pub fn normalize_contact_guid(value: &str) -> Result<String, IdentifierError> {
    let value = value.trim();
    normalize_uuid(value.split(':').next().unwrap_or(value), "contact_guid")
}

/// A UUID (8-4-4-4-12 hex digits) in upper case; `id_type` names the type in the error.
fn normalize_uuid(value: &str, id_type: &'static str) -> Result<String, IdentifierError> {
    let upper = value.trim().to_ascii_uppercase();
    let groups: Vec<&str> = upper.split('-').collect();
    let shape = [8, 4, 4, 4, 12];
    let ok = groups.len() == shape.len()
        && groups
            .iter()
            .zip(shape)
            .all(|(g, n)| g.len() == n && g.bytes().all(|b| b.is_ascii_hexdigit()));
    if ok {
        Ok(upper)
    } else {
        Err(IdentifierError::Invalid {
            id_type,
            why: "not a UUID (8-4-4-4-12 hex digits)".into(),
        })
    }
}

/// Parses with libphonenumber, never letting a panic of the parser out (a number is data from
/// evidence): `None` when it cannot be read.
fn parse_phone_number(region: Option<&Region>, text: &str) -> Option<phonenumber::PhoneNumber> {
    if text.len() > 64 {
        return None;
    }
    let id = region.map(|r| r.0);
    std::panic::catch_unwind(|| phonenumber::parse(id, text).ok())
        .ok()
        .flatten()
}

/// A phone number in E.164 (`+85261234567`), parsed and validated with libphonenumber's
/// metadata. Accepts what people and apps write: `tel:` URIs, spaces, dashes, dots, slashes
/// and parentheses, vanity letters (`1-800-MY-APPLE`), WhatsApp JIDs
/// (`19198887386@s.whatsapp.net`, the number in international form without `+`).
///
/// A number with `+` (or a JID) is international. Otherwise it is read with `region`, in
/// this order, the first reading that gives a valid number winning: as written in the
/// region (national with or without the trunk prefix, or international from the region with
/// its international prefix or its calling code and no `+`: `852-6123-4567` in HK), then
/// `00` as the international prefix (`00852 6123 4567`), then the digits as a national
/// number of the region without its trunk prefix (`8521 2345` in HK, which starts like the
/// calling code). A reading the metadata calls valid (an assigned range) wins over one that
/// is only possible (a national number of a length its fixed-line, mobile, personal or VoIP numbers have: test and fictional
/// numbers, ranges newer than the metadata). Without a region a national number is refused
/// (`NoRegion`). A number with an extension, a number libphonenumber cannot parse, and one
/// of no possible length for its country are refused: such a value is no strong identifier.
pub fn normalize_phone(value: &str, region: Option<&Region>) -> Result<String, IdentifierError> {
    let value = value.trim();
    let value = strip_prefix_ignore_case(value, "tel:").unwrap_or(value);
    if let Some(user) = value.strip_suffix(WHATSAPP_USER_SERVER) {
        let user = user.split(':').next().unwrap_or(user);
        if user.is_empty() || !user.bytes().all(|b| b.is_ascii_digit()) {
            return Err(IdentifierError::NotAPhone(
                "a WhatsApp JID whose user part is not digits".into(),
            ));
        }
        return e164_of(None, &format!("+{user}")).map(|(e164, _)| e164);
    }
    if value.contains('@') {
        return Err(IdentifierError::NotAPhone("contains '@'".into()));
    }
    let mut digits = String::with_capacity(value.len());
    let mut plus = false;
    for c in value.chars() {
        match c {
            '0'..='9' => digits.push(c),
            '+' if digits.is_empty() && !plus => plus = true,
            c if is_phone_separator(c) || c.is_ascii_alphabetic() => {}
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
    if plus {
        return e164_of(None, value).map(|(e164, _)| e164);
    }
    let Some(region) = region else {
        return match digits.strip_prefix("00") {
            Some(rest) => e164_of(None, &format!("+{rest}")).map(|(e164, _)| e164),
            None => Err(IdentifierError::NoRegion),
        };
    };
    let mut readings = vec![e164_of(Some(region), value)];
    if let Some(rest) = digits.strip_prefix("00") {
        readings.push(e164_of(None, &format!("+{rest}")));
    }
    if value.bytes().all(|b| !b.is_ascii_alphabetic()) {
        readings.push(e164_of(
            None,
            &format!("+{}{digits}", region.calling_code()),
        ));
    }
    // A valid reading wins over one that is only possible; the first of each kind.
    if let Some(Ok((e164, _))) = readings.iter().find(|r| matches!(r, Ok((_, true)))) {
        return Ok(e164.clone());
    }
    if let Some(Ok((e164, _))) = readings.iter().find(|r| r.is_ok()) {
        return Ok(e164.clone());
    }
    readings.swap_remove(0).map(|(e164, _)| e164)
}

/// Characters allowed between the digits of a written phone number.
fn is_phone_separator(c: char) -> bool {
    matches!(c, ' ' | '-' | '.' | '(' | ')' | '/' | '\t' | '\u{a0}')
}

/// The E.164 form of one reading of a number, and whether libphonenumber's metadata calls it
/// valid (an assigned range) rather than only possible (a national number of a length the
/// country uses). Neither is an error.
fn e164_of(region: Option<&Region>, text: &str) -> Result<(String, bool), IdentifierError> {
    let number = parse_phone_number(region, text)
        .ok_or_else(|| IdentifierError::NotAPhone("libphonenumber cannot parse it".into()))?;
    if number.extension().is_some() {
        return Err(IdentifierError::NotAPhone(
            "has an extension: not one subscriber's number".into(),
        ));
    }
    let e164 = number.format().mode(phonenumber::Mode::E164).to_string();
    if number.is_valid() {
        return Ok((e164, true));
    }
    let national = number.national().to_string();
    let len = u16::try_from(national.len()).unwrap_or(u16::MAX);
    let database = &*phonenumber::metadata::DATABASE;
    // The regions the number may belong to: its own when the metadata tells, else every
    // region of its calling code (+1, +44 and +7 are shared by several).
    let regions: Vec<&phonenumber::Metadata> = match number.metadata(database) {
        Some(m) => vec![m],
        None => database.by_code(&number.code().value()).unwrap_or_default(),
    };
    let possible = regions.iter().any(|m| {
        use phonenumber::Type;
        // The lengths of the country's numbers that a person holds (the general descriptor
        // of the compiled metadata lists none).
        [
            Type::FixedLine,
            Type::Mobile,
            Type::PersonalNumber,
            Type::Voip,
        ]
        .into_iter()
        .filter_map(|t| m.descriptors().get(t))
        .any(|d| d.possible_length().contains(&len))
    });
    if possible {
        Ok((e164, false))
    } else {
        Err(IdentifierError::NotAPhone(format!(
            "{e164} is not a possible number of its country (libphonenumber's lengths)"
        )))
    }
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
        let got = normalize(
            id_type,
            value,
            Some(&Region::parse("HK").expect("HK is a region")),
        );
        match (&got, expect) {
            (Ok(got), Ok(want)) if got == want => {}
            (Err(_), Err(())) => {}
            _ => panic!("{id_type} {value:?}: got {got:?}, want {expect:?}"),
        }
    }

    #[test]
    fn one_phone_in_five_formats_is_one_identifier_and_one_digit_more_is_not() {
        let hk = Region::parse("HK").expect("HK is a region");
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
        check(Phone, "+852 6123 4567 ext 2", Err(())); // an extension: no subscriber's number
        check(Phone, "+", Err(()));
        check(Phone, "8521 2345", Ok("+85285212345")); // local number that starts with 852
        check(Phone, "00852 6123 4567", Ok("+85261234567")); // 00 is not HK's own IDD
        check(Phone, "+852 5555 0000", Ok("+85255550000")); // possible, if not assigned
        // Ofcom's drama range: possible in GB although +44 is shared by four regions
        check(Phone, "+44 7700 900123", Ok("+447700900123"));
        let gb = Region::parse("gb").unwrap();
        assert_eq!(
            normalize_phone("020 7946 0000", Some(&gb)).unwrap(),
            "+442079460000"
        );
        let us = Region::parse("US").unwrap();
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

    /// The issue's case: one number written nationally, internationally and as a WhatsApp
    /// JID (values as they are in iLEAPP's iOS 15 WhatsApp test data) is one identifier when
    /// the source's region is US; a LID is never a phone.
    #[test]
    fn national_international_and_jid_are_one_e164_number() {
        let us = Region::parse("US").unwrap();
        for written in [
            "(919) 888-7386",
            "+1 919 888 7386",
            "19198887386@s.whatsapp.net",
            "+1 (919) 888-7386",
            "919-888-7386",
        ] {
            assert_eq!(
                normalize_phone(written, Some(&us)).as_deref(),
                Ok("+19198887386"),
                "{written}"
            );
        }
        // A JID needs no region: it is international.
        assert_eq!(
            normalize_phone("19198887386@s.whatsapp.net", None).as_deref(),
            Ok("+19198887386")
        );
        // The vanity number of the same data set.
        assert_eq!(
            normalize_phone("1-800-MY-APPLE", Some(&us)).as_deref(),
            Ok("+18006927753")
        );
        assert!(normalize_phone("123456789012345@lid", Some(&us)).is_err());
        assert_eq!(
            normalize(IdType::WhatsappLid, "123456789012345@lid", None).as_deref(),
            Ok("123456789012345@lid")
        );
        assert!(normalize(IdType::WhatsappLid, "19198887386@s.whatsapp.net", None).is_err());
        // Group JIDs are no phone either.
        assert!(normalize_phone("120363040000000000@g.us", Some(&us)).is_err());
    }

    /// Regions other than the case's own time zone's: Mexico City and São Paulo numbers read
    /// with their own regions, not as US numbers.
    #[test]
    fn regions_come_from_the_metadata_not_from_a_table() {
        let mx = Region::parse("MX").unwrap();
        let br = Region::parse("br").unwrap();
        assert_eq!(
            normalize_phone("55 1234 5678", Some(&mx)).as_deref(),
            Ok("+525512345678")
        );
        assert_eq!(
            normalize_phone("(11) 91234-5678", Some(&br)).as_deref(),
            Ok("+5511912345678")
        );
        assert_eq!(mx.calling_code(), 52);
        assert_eq!(
            Region::for_calling_code(1)
                .map(|r| r.to_string())
                .as_deref(),
            Some("US")
        );
        assert!(Region::parse("XX").is_err());
        assert!(Region::parse("USA").is_err());
        assert!(Region::parse("").is_err());
        assert_eq!(Region::parse(" hk ").unwrap().code(), "HK");
    }

    #[test]
    fn regions_from_evidence() {
        let code = |r: Option<Region>| r.map(|r| r.to_string());
        // MVS 2023's IMSI, ICCID and own number (com.apple.commcenter.plist).
        assert_eq!(
            code(Region::of_imsi("311480808008955")).as_deref(),
            Some("US")
        );
        assert_eq!(
            code(Region::of_iccid("89148000008588244776")).as_deref(),
            Some("US")
        );
        assert_eq!(
            code(Region::of_international_number("+14439877293")).as_deref(),
            Some("US")
        );
        // A national number says nothing about its region.
        assert_eq!(code(Region::of_international_number("14439877293")), None);
        assert_eq!(
            code(Region::of_imsi("454001234567890")).as_deref(),
            Some("HK")
        );
        assert_eq!(
            code(Region::of_imsi("302720000000000")).as_deref(),
            Some("CA")
        );
        assert_eq!(
            code(Region::of_iccid("8985200001234567890F")).as_deref(),
            Some("HK")
        );
        assert_eq!(
            code(Region::of_iccid("8944100000000000000")).as_deref(),
            Some("GB")
        );
        assert_eq!(code(Region::of_locale("en_US")).as_deref(), Some("US"));
        assert_eq!(code(Region::of_locale("zh-Hant-HK")).as_deref(), Some("HK"));
        assert_eq!(
            code(Region::of_locale("en-GB@calendar=gregorian")).as_deref(),
            Some("GB")
        );
        assert_eq!(code(Region::of_locale("en")), None);
        assert_eq!(code(Region::of_locale("es-419")), None);
        // Every MCC of the table names a region the metadata knows.
        for (mcc, iso) in MCC_REGIONS {
            assert!(Region::for_mcc(*mcc).is_some(), "{mcc} {iso}");
        }
    }

    #[test]
    fn regions_read_from_data() {
        let r: Region = serde_json::from_str(r#""HK""#).unwrap();
        assert_eq!(r, Region::parse("HK").unwrap());
        assert_eq!(serde_json::to_string(&r).unwrap(), r#""HK""#);
        assert!(serde_json::from_str::<Region>(r#""XX""#).is_err());
    }

    proptest::proptest! {
        /// Hostile text never panics the phone parser, and whatever it accepts is E.164.
        #[test]
        fn phone_parser_never_panics(text in "\\PC{0,40}", digits in "[0-9 +()@.a-z-]{0,30}") {
            let us = Region::parse("US").unwrap();
            for t in [&text, &digits] {
                if let Ok(e164) = normalize_phone(t, Some(&us)) {
                    proptest::prop_assert!(e164.starts_with('+'));
                    proptest::prop_assert!(e164[1..].bytes().all(|b| b.is_ascii_digit()));
                }
                let _ = placeholder(IdType::Phone, t);
            }
        }
    }

    #[test]
    fn placeholders_are_never_strong() {
        let cases: &[(IdType, &str, &str)] = &[
            (IdType::AppleId, "local", "placeholder word"),
            (IdType::AccountId, "Unknown", "placeholder word"),
            (IdType::AccountId, "null", "placeholder word"),
            (IdType::Email, "NONE", "placeholder word"),
            (IdType::Serial, "(null)", "placeholder word"),
            (IdType::Serial, "  ", "empty"),
            (IdType::Imei, "000000000000000", "one repeated digit"),
            (IdType::Imei, "999999999999999", "one repeated digit"),
            (IdType::Serial, "000000000000", "one repeated digit"),
            (IdType::Imsi, "000000000000000", "one repeated digit"),
            (IdType::Phone, "+1 111 111 1111", "one repeated digit"),
            (
                IdType::Imei,
                "004999010640000",
                "Android emulator or SDK default",
            ),
            (
                IdType::Imsi,
                "310260000000000",
                "Android emulator or SDK default",
            ),
            (
                IdType::Phone,
                "15555215554",
                "Android emulator or SDK default",
            ),
            (
                IdType::Phone,
                "+1 555-521-5556",
                "Android emulator or SDK default",
            ),
            (
                IdType::AndroidId,
                "9774D56D682E549C",
                "Android emulator or SDK default",
            ),
            (
                IdType::Serial,
                "emulator-5554",
                "Android emulator or SDK default",
            ),
            (
                IdType::Email,
                "someone@example.com",
                "placeholder address at a reserved example domain",
            ),
            (
                IdType::GoogleAccount,
                "User@mail.example.org",
                "placeholder address at a reserved example domain",
            ),
            (
                IdType::AppleId,
                "test@test",
                "placeholder address at a reserved example domain",
            ),
            (IdType::DeviceName, "iPhone", "default device name"),
            (IdType::DeviceName, "Android", "default device name"),
        ];
        for (t, v, why) in cases {
            assert_eq!(placeholder(*t, v), Some(*why), "{t} {v:?}");
            assert_eq!(strength_of(*t, v), Strength::Weak, "{t} {v:?}");
        }
        // Real values of the corpus are not placeholders.
        for (t, v) in [
            (IdType::AppleId, "billthemegakill@icloud.com"),
            (IdType::Imei, "359669602382763"),
            (IdType::Imsi, "311480808008955"),
            (IdType::Phone, "+14439877293"),
            (IdType::DeviceName, "Bill's iPhone"),
            (IdType::Email, "someone@example.co"),
        ] {
            assert_eq!(placeholder(t, v), None, "{t} {v:?}");
            assert_eq!(strength_of(t, v), t.strength(), "{t} {v:?}");
        }
    }

    #[test]
    fn app_identity_keys() {
        // ABPerson.guid (Belkasoft CTF 6) and WhatsApp's ZIDENTIFIER (iOS 15) forms.
        check(
            IdType::ContactGuid,
            "551eb6cb-3eac-4a5b-aa44-1346103d6d6d:ABPerson",
            Ok("551EB6CB-3EAC-4A5B-AA44-1346103D6D6D"),
        );
        check(
            IdType::ContactGuid,
            "122812EA-4A87-4D38-A4AD-3A08DCBFA3E4",
            Ok("122812EA-4A87-4D38-A4AD-3A08DCBFA3E4"),
        );
        check(IdType::ContactGuid, "122812EA-4A87", Err(()));
        check(IdType::Dsid, "12345678901", Ok("12345678901"));
        check(IdType::Dsid, "abc", Err(()));
        check(
            IdType::AndroidId,
            "3F2A9C1D0B4E5A67",
            Ok("3f2a9c1d0b4e5a67"),
        );
        check(IdType::AndroidId, "xyz", Err(()));
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
        check(IdType::Wechat, " wxid_Ab12cd ", Ok("wechat:wxid_ab12cd"));
        check(IdType::Wechat, "Mei_Chan-88", Ok("wechat:mei_chan-88"));
        check(
            IdType::Wechat,
            "24187063512@chatroom",
            Ok("wechat:24187063512@chatroom"),
        );
        check(IdType::Wechat, "wxid ab", Err(()));
        check(IdType::DisplayName, "  LEUNG   YL ", Ok("leung yl"));
        check(IdType::Serial, "f2lxk0abc", Ok("F2LXK0ABC"));
        check(IdType::Serial, "F2L XK0", Err(()));
        // an ADB key: its base64 (the line's first word), case kept
        let key = format!(
            "QAAAAH+T7vuB08p58Vh9uJaTZ8kL{}AQABAA==",
            "roi3dKHFRBkONN9y".repeat(4)
        );
        check(IdType::AdbKey, &format!("{key} ana@ana-thinkpad"), Ok(&key));
        check(IdType::AdbKey, "QAAAAH+T7vu short", Err(()));
        check(IdType::AdbKey, &format!("{}!", "A".repeat(80)), Err(()));
        check(
            IdType::Udid,
            " 00008030-001a2b3c4d5e802e",
            Ok("00008030-001A2B3C4D5E802E"),
        );
        check(
            IdType::Udid,
            "2b6f0cc904d137be2e1730235f5664094b831186",
            Ok("2B6F0CC904D137BE2E1730235F5664094B831186"),
        );
        check(IdType::Udid, "00008030-001A2B3C4D5E802", Err(()));
        check(IdType::Udid, "0000803-0001A2B3C4D5E802E", Err(()));
        check(
            IdType::Udid,
            "2b6f0cc904d137be2e1730235f5664094b83118g",
            Err(()),
        );
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
    fn app_account_ids_are_namespaced_and_checked() {
        check(IdType::Wechat, "abc_123", Ok("wechat:abc_123"));
        check(IdType::Wechat, "WeChat:Chan-MH88", Ok("wechat:chan-mh88"));
        check(IdType::Wechat, "wxid_k2j4h5g6", Ok("wechat:wxid_k2j4h5g6"));
        check(IdType::Wechat, "85291234567", Err(()));
        check(IdType::Wechat, "abc", Err(()));
        check(IdType::Wechat, "abc 123", Err(()));
        check(IdType::Qq, "12345678", Ok("qq:12345678"));
        check(IdType::Qq, "qq:987654321", Ok("qq:987654321"));
        check(IdType::Qq, "01234567", Err(()));
        check(IdType::Qq, "1234", Err(()));
        check(IdType::Line, "Pat.Wong", Ok("line:pat.wong"));
        check(IdType::Line, "ab", Err(()));
        check(
            IdType::TelegramUsername,
            "@Pat_Wong",
            Ok("telegram-user:@pat_wong"),
        );
        check(
            IdType::TelegramUsername,
            "pat_wong",
            Ok("telegram-user:@pat_wong"),
        );
        check(
            IdType::TelegramUsername,
            "telegram-user:@pat_wong",
            Ok("telegram-user:@pat_wong"),
        );
        check(IdType::TelegramUsername, "@pat", Err(()));
        check(IdType::TelegramUsername, "+85291234567", Err(()));
        check(IdType::SignalUsername, "pat.42", Ok("signal-user:pat.42"));
        check(IdType::SignalUsername, "pat", Err(()));
        for t in IdType::APP_ACCOUNTS {
            assert_eq!(t.fact_type().as_str(), "account");
            assert!(t.namespace().is_some());
        }
        assert_eq!(
            placeholder(IdType::Wechat, "unknown"),
            Some("placeholder word")
        );
        assert_eq!(
            placeholder(IdType::Qq, "11111111"),
            Some("one repeated digit")
        );
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
