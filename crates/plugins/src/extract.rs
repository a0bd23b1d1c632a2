//! Finding identifiers in free text (document bodies, message bodies, text files, OCR output):
//! phone numbers, e-mail addresses and wallet addresses (ETH, BTC, TRON).
//!
//! Every candidate is validated by [`masf_graph::identifiers::normalize`], the one place
//! identifiers are normalised, so what this module returns is exactly what the gateway will
//! accept as an identity observation of the same type and value:
//!
//! | type | candidate | accepted when |
//! |---|---|---|
//! | e-mail | `local@domain.tld` | `normalize_email` accepts it |
//! | wallet | `0x` + 40 hex; `bc1…`/`tb1…` bech32; base58 `1…`/`3…`/`T…` of 26–35 characters | `normalize_wallet` accepts it (EIP-55 for mixed-case ETH, Base58Check, bech32 checksum) |
//! | phone | an optional `+`, then digits with single spaces, dashes or parentheses between them (7–15 digits) | `normalize_phone` reads it under the region (a number without `+` needs a region) and it is not a date (`2025-02-17`, or eight bare digits reading as a date 1970–2099, `20240131`: in documents such references are far more common than landlines written without any separator) |
//!
//! A candidate must stand alone: no letter, digit or `_` directly before or after it (so the
//! digits inside a hex hash, an account id or a longer number are not read as a phone number),
//! and a phone candidate may not touch `:`, `/`, `.` followed by a digit, or `,` followed by a
//! digit (times, dates and amounts). E-mails and wallets are found first; a phone candidate that
//! overlaps one of them is dropped. Results come in text order.
//!
//! ```
//! use masf_graph::{IdType, Region};
//! let hk = Region::parse("HK").ok();
//! let found = masf_plugins::extract::identifiers(
//!     "Call 9876 5432 or mail a.b@example.com, pay 0x1850cE0E73407A9997C467BABc60fe887C567625",
//!     hk.as_ref(),
//! );
//! let got: Vec<(IdType, &str)> = found.iter().map(|f| (f.id_type, f.normalized.as_str())).collect();
//! assert_eq!(got, [
//!     (IdType::Phone, "+85298765432"),
//!     (IdType::Email, "a.b@example.com"),
//!     (IdType::Wallet, "0x1850ce0e73407a9997c467babc60fe887c567625"),
//! ]);
//! ```

use std::ops::Range;
use std::sync::LazyLock;

use masf_graph::identifiers::normalize;
use masf_graph::{IdType, Region};
use regex::Regex;

/// An identifier found in a text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    /// Its type: [`IdType::Phone`], [`IdType::Email`] or [`IdType::Wallet`].
    pub id_type: IdType,
    /// The text as written (`text[span]`): the value to cite, since it occurs verbatim in the
    /// output the text came from.
    pub raw: String,
    /// Its canonical form (E.164, lower-case e-mail, canonical wallet).
    pub normalized: String,
    /// Byte range of `raw` in the text.
    pub span: Range<usize>,
}

static EMAIL: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"[A-Za-z0-9][A-Za-z0-9._%+\-]*@[A-Za-z0-9](?:[A-Za-z0-9\-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9\-]*[A-Za-z0-9])?)*\.[A-Za-z]{2,24}")
        .expect("e-mail pattern")
});

static WALLET: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"0[xX][0-9a-fA-F]{40}",
        r"|(?:bc1|tb1|BC1|TB1)[02-9ac-hj-np-zAC-HJ-NP-Z]{6,87}",
        r"|[13T][1-9A-HJ-NP-Za-km-z]{25,34}",
    ))
    .expect("wallet pattern")
});

static PHONE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\+?\(?\d(?:[ \-]?\(?\d\)?)*\d").expect("phone pattern"));

static DATE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^(?:\d{4}[-/]\d{1,2}[-/]\d{1,2}|(?:19[7-9]\d|20\d\d)(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01]))$")
        .expect("date pattern")
});

fn is_word(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// Whether `text[span]` stands alone (no word character on either side).
fn isolated(text: &str, span: &Range<usize>) -> bool {
    let before = text[..span.start].chars().next_back();
    let after = text[span.end..].chars().next();
    !before.is_some_and(is_word) && !after.is_some_and(is_word)
}

/// Whether a phone candidate touches a time, date or amount (`10:22`, `12/03`, `1.5`, `12,500`).
fn touches_number_punctuation(text: &str, span: &Range<usize>) -> bool {
    let mut before = text[..span.start].chars().rev();
    let b1 = before.next();
    let b2 = before.next();
    let mut after = text[span.end..].chars();
    let a1 = after.next();
    let a2 = after.next();
    let digit = |c: Option<char>| c.is_some_and(|c| c.is_ascii_digit());
    matches!(b1, Some(':' | '/')) && digit(b2)
        || matches!(a1, Some(':' | '/')) && digit(a2)
        || matches!(b1, Some('.' | ',')) && digit(b2)
        || matches!(a1, Some('.' | ',')) && digit(a2)
}

/// Every phone number, e-mail address and wallet address in `text`, validated and normalised
/// (see the module documentation). `region` reads numbers written without a country code; with
/// `None` only international numbers (`+…`, `00…`) are found.
pub fn identifiers(text: &str, region: Option<&Region>) -> Vec<Found> {
    let mut out: Vec<Found> = Vec::new();
    let overlaps = |out: &[Found], s: &Range<usize>| {
        out.iter()
            .any(|f| f.span.start < s.end && s.start < f.span.end)
    };
    for m in EMAIL.find_iter(text) {
        let span = m.range();
        if let Ok(n) = normalize(IdType::Email, m.as_str(), None) {
            out.push(Found {
                id_type: IdType::Email,
                raw: m.as_str().to_string(),
                normalized: n,
                span,
            });
        }
    }
    for m in WALLET.find_iter(text) {
        let span = m.range();
        if !isolated(text, &span) || overlaps(&out, &span) {
            continue;
        }
        if let Ok(n) = normalize(IdType::Wallet, m.as_str(), None) {
            out.push(Found {
                id_type: IdType::Wallet,
                raw: m.as_str().to_string(),
                normalized: n,
                span,
            });
        }
    }
    for m in PHONE.find_iter(text) {
        let mut span = m.range();
        // A leading '(' without its ')' (or the reverse) is punctuation, not part of the number.
        let s = &text[span.clone()];
        if s.starts_with('(') && !s.contains(')') {
            span.start += 1;
        }
        if text[span.clone()].ends_with(')') && !text[span.clone()].contains('(') {
            span.end -= 1;
        }
        let raw = &text[span.clone()];
        let digits = raw.chars().filter(char::is_ascii_digit).count();
        if !(7..=15).contains(&digits)
            || !isolated(text, &span)
            || touches_number_punctuation(text, &span)
            || DATE.is_match(raw)
            || overlaps(&out, &span)
        {
            continue;
        }
        if let Ok(n) = normalize(IdType::Phone, raw, region) {
            out.push(Found {
                id_type: IdType::Phone,
                raw: raw.to_string(),
                normalized: n,
                span,
            });
        }
    }
    out.sort_by_key(|f| f.span.start);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hk() -> Option<Region> {
        Region::parse("HK").ok()
    }

    fn norms(text: &str, region: Option<&Region>) -> Vec<(IdType, String, String)> {
        identifiers(text, region)
            .into_iter()
            .map(|f| {
                assert_eq!(&text[f.span.clone()], f.raw);
                (f.id_type, f.raw, f.normalized)
            })
            .collect()
    }

    #[test]
    fn phones_in_their_written_forms() {
        let r = hk();
        let got = norms(
            "Tel: +852 6123 4567, mobile 98765432; office (852) 6123-4567. Fax 852-6123-4567",
            r.as_ref(),
        );
        let values: Vec<&str> = got.iter().map(|g| g.2.as_str()).collect();
        assert_eq!(
            values,
            [
                "+85261234567",
                "+85298765432",
                "+85261234567",
                "+85261234567"
            ]
        );
        assert_eq!(got[2].1, "(852) 6123-4567");
        // Without a region, only international numbers.
        let got = norms("+852 6123 4567 and 98765432", None);
        assert_eq!(got.len(), 1);
    }

    #[test]
    fn dates_times_amounts_and_hashes_are_not_phones() {
        let r = hk();
        assert!(identifiers("ref 20240131 tel 2024 0131", r.as_ref()).len() == 1);
        let text = "On 2025-02-17 16:20:00 paid 12,500.00 USDT (97500000 cents?) tx 0x3b9cb90d2976083178b8cb402112d0381c4957ef01a4a81859902b7a4add0b90 id 104857392016473829105 ts 1739362530000 v1.2.12345678";
        let got = norms(text, r.as_ref());
        // 97500000 is 8 digits standing alone: a valid Hong Kong number by form. Everything else
        // is refused.
        assert_eq!(
            got,
            [(
                IdType::Phone,
                "97500000".to_string(),
                "+85297500000".to_string()
            )]
        );
    }

    #[test]
    fn wallets_are_checked() {
        let text = "ETH 0x1850cE0E73407A9997C467BABc60fe887C567625 bad 0x1850CE0E73407A9997C467BABc60fe887C567625 TRON TRh4MqLekE9MbxTkLrQ673AHbsU46khwF2 BTC bc1q7067uww8q52athgrmrdeshcd7cj5x9yfapwezn and TRh4MqLekE9MbxTkLrQ673AHbsU46khwF3";
        let got = norms(text, None);
        let values: Vec<&str> = got.iter().map(|g| g.2.as_str()).collect();
        assert_eq!(
            values,
            [
                "0x1850ce0e73407a9997c467babc60fe887c567625",
                "TRh4MqLekE9MbxTkLrQ673AHbsU46khwF2",
                "bc1q7067uww8q52athgrmrdeshcd7cj5x9yfapwezn"
            ]
        );
    }

    #[test]
    fn emails_win_over_the_digits_inside_them() {
        let r = hk();
        let got = norms(
            "write to 61234567@example.com or YL.Leung@Example.COM.",
            r.as_ref(),
        );
        let values: Vec<&str> = got.iter().map(|g| g.2.as_str()).collect();
        assert_eq!(values, ["61234567@example.com", "yl.leung@example.com"]);
    }
}
