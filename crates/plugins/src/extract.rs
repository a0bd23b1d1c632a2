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
//! | phone | an optional `+`, then digits with single spaces, dashes or parentheses between them (7–15 digits) | `normalize_phone` reads it under the region (a number without `+` needs a region) and it is not a date (`2025-02-17`, or eight bare digits reading as a date 1970–2099, `20240131`: in documents such references are far more common than landlines written without any separator) nor thirteen bare digits starting with 1 (a Unix time in milliseconds, as apps' files write them) |
//!
//! A candidate must stand alone: no letter, digit or `_` directly before or after it (so the
//! digits inside a hex hash, an account id or a longer number are not read as a phone number),
//! and a phone candidate may not touch `:`, `/`, `.` followed by a digit, or `,` followed by a
//! digit (times, dates and amounts). E-mails and wallets are found first; a phone candidate that
//! overlaps one of them is dropped. Results come in text order.
//!
//! [`money`] finds what a text says of payments (issue 17), line by line:
//!
//! | kind | candidate | accepted when |
//! |---|---|---|
//! | amount | a number with a currency code (`HKD 97,500.00`, `12,500 USDT`) or sign (`¥3,000`, `€ 1.250,00`, `HK$ 80`), thousands grouped with `,` or `.`, an optional sign | it is not a rate (`7.80 HKD / USDT`) and does not start inside a word or overlap a hash, IBAN, wallet or e-mail |
//! | IBAN | two letters, two digits, then the BBAN, written as one token or in groups of four separated by single spaces | [`iban`]: ISO 13616 mod-97 check digits and the country's BBAN length and structure |
//! | transaction hash | `0x` + 64 hex digits; 64 bare hex digits only after a word that names one (`tx`, `txid`, `transaction`, `hash`) on the same or the previous line | — |
//!
//! Amounts are found by the same pattern as the screenshot reader's ([`amount_candidates`],
//! [`tx_hash_spans`]); every value is cited as written.
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

use std::collections::HashSet;
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

/// Thirteen bare digits starting with 1: a Unix time in milliseconds (September 2001 to May
/// 2033), which apps' files write everywhere (`<long name="…_DATE" value="1714990000000" />`).
/// No phone number is written so: a national number has at most 12 digits after its trunk
/// prefix, and one written with its country code but without `+` or `00` starting with 1 is
/// NANP's, 11 digits.
fn unix_millis_shaped(raw: &str) -> bool {
    raw.len() == 13 && raw.starts_with('1') && raw.bytes().all(|b| b.is_ascii_digit())
}

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
            || unix_millis_shaped(raw)
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

/// Currency codes an amount may carry before or after its number.
const CURRENCIES: &str = "USDT|USDC|BUSD|DAI|BTC|ETH|TRX|BNB|HKD|USD|CNY|RMB|EUR|GBP|SGD|TWD|MOP";

/// An amount with its currency: a code before or after the number, or a currency sign before it.
/// Numbers: thousands grouped by `,` (`97,500.00`), or by `.` with a decimal comma (`1.250,00`),
/// or ungrouped with a decimal point or a two-digit decimal comma; an optional sign.
static AMOUNT: LazyLock<Regex> = LazyLock::new(|| {
    let num = r"[-+]?\d{1,3}(?:,\d{3})+(?:\.\d+)?|[-+]?\d{1,3}(?:\.\d{3})+(?:,\d+)?\b|[-+]?\d+(?:\.\d+|,\d{2}\b)?";
    Regex::new(&format!(
        r"(?:\b(?:{CURRENCIES}) ?(?:{num})|(?:{num}) ?(?:{CURRENCIES})\b|(?:HK\$|US\$|\$|¥|€|£) ?(?:{num}))"
    ))
    .expect("amount regex")
});

static TX_HASH: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\b(?:0x)?[0-9a-fA-F]{64}\b").expect("hash regex"));

/// Words that name a transaction hash written after them.
static TX_WORD: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\b(?:tx|txid|txn|txhash|tx-id|transaction\w*|hash)\b").expect("tx word regex")
});

/// Words that say a 64-hex-digit value is a file's digest, not a transaction.
static DIGEST_WORD: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\b(?:sha-?(?:1|2|256|512)?|md5|checksum|digest)\b").expect("digest regex")
});

/// The start of an IBAN: country code, check digits, the rest of its first token.
static IBAN_HEAD: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^[A-Za-z]{2}[0-9]{2}[A-Za-z0-9]*$").expect("IBAN regex"));

static ALNUM_RUN: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"[A-Za-z0-9]+").expect("token regex"));

/// Byte ranges of the amounts with a currency in one line of text, in order; a number followed
/// by `/` or `per` is a rate (`7.80 HKD / USDT`, `7.80 HKD per USDT`), not an amount, and is
/// left out. Shared by the screenshot reader and [`money`].
pub fn amount_candidates(line: &str) -> Vec<Range<usize>> {
    AMOUNT
        .find_iter(line)
        .filter(|m| {
            let after = line[m.end()..].trim_start();
            let per = after
                .get(..4)
                .is_some_and(|w| w.eq_ignore_ascii_case("per "));
            !after.starts_with('/') && !per
        })
        .map(|m| m.range())
        .collect()
}

/// Byte ranges of the 64-hex-digit hashes (optionally `0x`) in one line of text, in order.
pub fn tx_hash_spans(line: &str) -> Vec<Range<usize>> {
    TX_HASH.find_iter(line).map(|m| m.range()).collect()
}

/// Most characters of an IBAN in its electronic form (ISO 13616: 34).
const IBAN_MAX: usize = 34;
/// Fewest characters of an IBAN in its electronic form (Norway's 15).
const IBAN_MIN: usize = 15;

/// The electronic form of an IBAN (no spaces, upper case) when `s` is one: ISO 13616 — country
/// code, two check digits, the BBAN — written with or without single spaces, in either case,
/// whose check digits pass mod 97 (== 1) and whose BBAN has its country's length and structure.
///
/// The check and the per-country table are the `iban_validate` crate's (MIT OR Apache-2.0); its
/// table is generated from SWIFT's IBAN registry, the ISO 13616 registration authority's list, so
/// it is kept current by its maintainer rather than hand-copied here.
pub fn iban(s: &str) -> Option<String> {
    if !s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b' ') || s.contains("  ") {
        return None;
    }
    let compact: String = s
        .chars()
        .filter(|c| *c != ' ')
        .map(|c| c.to_ascii_uppercase())
        .collect();
    if !(IBAN_MIN..=IBAN_MAX).contains(&compact.len()) {
        return None;
    }
    compact
        .parse::<iban::Iban>()
        .ok()
        .map(|i| iban::IbanLike::electronic_str(&i).to_string())
}

/// What [`money`] finds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MoneyKind {
    /// An amount with its currency.
    Amount,
    /// A valid IBAN.
    Iban,
    /// A transaction hash.
    TxHash,
}

/// An amount, IBAN or transaction hash found in a text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Money {
    pub kind: MoneyKind,
    /// As written (`text[span]`): the value to cite.
    pub raw: String,
    /// Amounts and hashes as written; an IBAN in its electronic form.
    pub normalized: String,
    /// Byte range of `raw` in the text.
    pub span: Range<usize>,
}

/// Every amount with a currency, valid IBAN and transaction hash in `text` (see the module
/// documentation), in text order, each written form once.
pub fn money(text: &str) -> Vec<Money> {
    money_beside(text, &identifiers(text, None))
}

/// [`money`] with the identifiers [`identifiers`] already found in `text` (under any region:
/// only their e-mails and wallets are used, whose spans no region changes), so a caller that
/// records both scans the text once.
pub fn money_beside(text: &str, found: &[Found]) -> Vec<Money> {
    // Wallets and e-mails first: the digits of an address are no amount.
    // In text order (identifiers are sorted by start), walked once alongside the lines.
    let ids: Vec<Range<usize>> = found
        .iter()
        .filter(|f| f.id_type != IdType::Phone)
        .map(|f| f.span.clone())
        .collect();
    let mut next_id = 0;
    let mut seen: HashSet<(MoneyKind, String)> = HashSet::new();
    let mut out: Vec<Money> = Vec::new();
    let mut prev_line = "";
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let base = offset;
        offset += line.len();
        let line = line.trim_end_matches(['\n', '\r']);
        while ids.get(next_id).is_some_and(|r| r.end <= base) {
            next_id += 1;
        }
        let mut taken: Vec<Range<usize>> = ids
            .get(next_id..)
            .unwrap_or_default()
            .iter()
            .take_while(|r| r.start < base + line.len())
            .filter(|r| base < r.end)
            .map(|r| r.start.saturating_sub(base)..(r.end - base).min(line.len()))
            .collect();
        let mut push = |out: &mut Vec<Money>, kind, span: Range<usize>, normalized: String| {
            let raw = &line[span.clone()];
            if seen.insert((kind, raw.to_string())) {
                out.push(Money {
                    kind,
                    raw: raw.to_string(),
                    normalized,
                    span: base + span.start..base + span.end,
                });
            }
        };
        for span in tx_hash_spans(line) {
            let h = &line[span.clone()];
            let before = &line[..span.start];
            let named = (TX_WORD.is_match(before) || TX_WORD.is_match(prev_line))
                && !DIGEST_WORD.is_match(before)
                && !DIGEST_WORD.is_match(prev_line);
            if h.starts_with("0x") || named {
                push(&mut out, MoneyKind::TxHash, span.clone(), h.to_string());
                taken.push(span);
            }
        }
        for (span, electronic) in ibans(line) {
            if !overlaps_any(&taken, &span) {
                push(&mut out, MoneyKind::Iban, span.clone(), electronic);
                taken.push(span);
            }
        }
        for span in amount_candidates(line) {
            let starts_in_word = line[..span.start]
                .chars()
                .next_back()
                .is_some_and(char::is_alphanumeric);
            if starts_in_word || overlaps_any(&taken, &span) {
                continue;
            }
            let raw = line[span.clone()].to_string();
            push(&mut out, MoneyKind::Amount, span.clone(), raw);
            taken.push(span);
        }
        if !line.trim().is_empty() {
            prev_line = line;
        }
    }
    out.sort_by_key(|m| m.span.start);
    out
}

fn overlaps_any(taken: &[Range<usize>], s: &Range<usize>) -> bool {
    taken.iter().any(|t| t.start < s.end && s.start < t.end)
}

/// The IBANs of one line: a token that starts like one (`GB82…`), alone or with the groups of at
/// most four characters that follow it after single spaces, longest valid reading first.
fn ibans(line: &str) -> Vec<(Range<usize>, String)> {
    let tokens: Vec<Range<usize>> = ALNUM_RUN.find_iter(line).map(|m| m.range()).collect();
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(first) = tokens.get(i) {
        if !IBAN_HEAD.is_match(&line[first.clone()]) {
            i += 1;
            continue;
        }
        // The run of tokens separated by single spaces, as long as an IBAN can be.
        let mut run = 1;
        let mut len = first.len();
        while let (Some(a), Some(b)) = (tokens.get(i + run - 1), tokens.get(i + run)) {
            if &line[a.end..b.start] != " " || len + b.len() > IBAN_MAX {
                break;
            }
            len += b.len();
            run += 1;
        }
        let mut hit = None;
        for n in (1..=run).rev() {
            let window = &tokens[i..i + n];
            // Paper form: groups of four, the last of one to four.
            let grouped = n == 1
                || window[..n - 1].iter().all(|t| t.len() == 4)
                    && window.last().is_some_and(|t| (1..=4).contains(&t.len()));
            if !grouped {
                continue;
            }
            let span = window[0].start..window[n - 1].end;
            if let Some(e) = iban(&line[span.clone()]) {
                hit = Some((n, span, e));
                break;
            }
        }
        match hit {
            Some((n, span, e)) => {
                out.push((span, e));
                i += n;
            }
            None => i += 1,
        }
    }
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
        // a Unix time in milliseconds reads as a German mobile number by form
        // (+49 171 4990000000): refused whatever the region
        let de = Region::parse("DE").ok();
        let prefs = "<long name=\"COMMON_CONFIG_LAST_MODIFIED_DATE\" value=\"1714990000000\" />";
        assert_eq!(norms(prefs, de.as_ref()), []);
        assert_eq!(norms("mobil 0171 4990000", de.as_ref()).len(), 1);
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

    fn check_iban(input: &str, expect: Option<&str>) {
        assert_eq!(iban(input).as_deref(), expect, "{input:?}");
    }

    #[test]
    fn ibans_are_validated() {
        // The registry's published examples, in paper and electronic form.
        check_iban(
            "GB82 WEST 1234 5698 7654 32",
            Some("GB82WEST12345698765432"),
        );
        check_iban("DE89370400440532013000", Some("DE89370400440532013000"));
        check_iban("NO93 8601 1117 947", Some("NO9386011117947"));
        // Lower case with spaces: the same account.
        check_iban(
            "gb82 west 1234 5698 7654 32",
            Some("GB82WEST12345698765432"),
        );
        // A wrong check digit, a changed BBAN digit.
        check_iban("GB83 WEST 1234 5698 7654 32", None);
        check_iban("DE89 3704 0044 0532 0130 01", None);
        // A digit dropped or added (see also the test below, where the check digits pass).
        check_iban("DE89 3704 0044 0532 0130 0", None);
        check_iban("DE89 3704 0044 0532 0130 000", None);
        // Not an IBAN at all, unknown country, double spaces, punctuation.
        check_iban("XX82 WEST 1234 5698 7654 32", None);
        check_iban("GB82  WEST 1234 5698 7654 32", None);
        check_iban("GB82-WEST-1234-5698-7654-32", None);
        check_iban("", None);
        check_iban("Total: HKD 97,500.00", None);
    }

    /// `country` + the check digits ISO 7064 mod 97-10 gives `bban` + `bban`.
    fn with_check(country: &str, bban: &str) -> String {
        let digits: String = format!("{bban}{country}00")
            .chars()
            .filter_map(|c| c.to_digit(36))
            .map(|d| d.to_string())
            .collect();
        let rem = digits
            .bytes()
            .fold(0u32, |acc, b| (acc * 10 + u32::from(b - b'0')) % 97);
        format!("{country}{:02}{bban}", 98 - rem)
    }

    #[test]
    fn a_wrong_length_iban_fails_even_with_passing_check_digits() {
        assert_eq!(
            with_check("GB", "WEST12345698765432"),
            "GB82WEST12345698765432"
        );
        // One digit short and one too many for Germany (22 characters): the check digits pass,
        // the country's length does not.
        for bban in ["37040044053201300", "3704004405320130000"] {
            let candidate = with_check("DE", bban);
            assert!(iban(&candidate).is_none(), "{candidate}");
        }
        // The same BBAN length under its own country passes.
        let ok = with_check("DE", "370400440532013001");
        assert_eq!(iban(&ok).as_deref(), Some(ok.as_str()));
    }

    fn check_money(text: &str, expect: &[(MoneyKind, &str, &str)]) {
        let got = money(text);
        for m in &got {
            assert_eq!(&text[m.span.clone()], m.raw);
        }
        let got: Vec<(MoneyKind, &str, &str)> = got
            .iter()
            .map(|m| (m.kind, m.raw.as_str(), m.normalized.as_str()))
            .collect();
        assert_eq!(got, expect, "{text:?}");
    }

    #[test]
    fn money_in_a_document_body() {
        use MoneyKind::{Amount, Iban, TxHash};
        let h = "3b9cb90d2976083178b8cb402112d0381c4957ef01a4a81859902b7a4add0b90";
        let text = format!(
            "Total: HKD 97,500.00 (rate 7.80 HKD / USDT)\nSettle USDT 12,500 to 0x1850cE0E73407A9997C467BABc60fe887C567625\nFee ¥3,000, deposit € 1.250,00\nIBAN: GB82 WEST 1234 5698 7654 32 or DE89 3704 0044 0532 0130 00 EUR\nNot GB83 WEST 1234 5698 7654 32\nTxID: {h}\nTx Hash\n0x{h}\nSHA-256 of the file: {}\n",
            h.replace('3', "4")
        );
        let tx0 = format!("0x{h}");
        check_money(
            &text,
            &[
                (Amount, "HKD 97,500.00", "HKD 97,500.00"),
                (Amount, "USDT 12,500", "USDT 12,500"),
                (Amount, "¥3,000", "¥3,000"),
                (Amount, "€ 1.250,00", "€ 1.250,00"),
                (
                    Iban,
                    "GB82 WEST 1234 5698 7654 32",
                    "GB82WEST12345698765432",
                ),
                (
                    Iban,
                    "DE89 3704 0044 0532 0130 00",
                    "DE89370400440532013000",
                ),
                (TxHash, h, h),
                (TxHash, &tx0, &tx0),
            ],
        );
        // Rates are no amounts.
        check_money(
            "Payable in USDT at 7.80 HKD per USDT: 12,500.00 USDT",
            &[(Amount, "12,500.00 USDT", "12,500.00 USDT")],
        );
        // A bare 64-hex value with no word naming a transaction is no hash; a date is no amount.
        check_money(&format!("{h}\n2025-02-17 paid 12,500.00\n"), &[]);
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
