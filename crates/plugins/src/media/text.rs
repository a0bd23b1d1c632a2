//! What a transaction screenshot's OCR text says: wallet addresses (verbatim, or through a
//! recorded look-alike repair that passes format and checksum), amounts with their currency,
//! transaction hashes, times as displayed, and phone numbers. Amounts and hashes are found by
//! the patterns [`crate::extract`] shares with document bodies. Every value returned is either a
//! substring of the text or (wallets only) the repaired spelling of one, so a fact built from
//! it grounds in the OCR output. Wallet and phone validation goes through
//! [`masf_graph::identifiers`], the one normalisation place.

use std::sync::LazyLock;

use masf_graph::Region;
use masf_graph::identifiers::{WalletRepair, normalize_phone, normalize_wallet, repair_wallet};
use regex::Regex;
use serde_json::{Value, json};

/// A wallet address found in the text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WalletHit {
    /// The characters as OCR gave them (a substring of the text).
    pub read: String,
    /// The valid spelling: equal to `read` when read verbatim, else its look-alike repair.
    pub value: String,
    /// The canonical form ([`normalize_wallet`]).
    pub canonical: String,
    /// Characters swapped plus spaces dropped by the repair (0 when verbatim).
    pub changes: usize,
}

impl WalletHit {
    /// Whether the address needed a look-alike repair.
    pub fn repaired(&self) -> bool {
        self.changes > 0
    }

    /// The chain, by address form.
    pub fn chain(&self) -> &'static str {
        if self.canonical.starts_with("0x") {
            "ETH/EVM"
        } else if self.canonical.starts_with('T') {
            "TRON"
        } else {
            "BTC"
        }
    }
}

/// A phone number found in the text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PhoneHit {
    /// As written in the text.
    pub read: String,
    /// Its E.164 form.
    pub e164: String,
}

/// Everything found in one OCR text, each list in text order without repeats.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Found {
    pub wallets: Vec<WalletHit>,
    /// Amounts with their currency, as written (sign included).
    pub amounts: Vec<String>,
    /// Transaction hashes (64 hex digits, optionally `0x`), as written.
    pub tx_hashes: Vec<String>,
    /// Date-and-time strings, as written.
    pub times: Vec<String>,
    pub phones: Vec<PhoneHit>,
    /// Address-like tokens that no repair made valid, or that several repairs did (kept for
    /// the interpretation: the examiner reads them off the image).
    pub unreadable: Vec<String>,
}

impl Found {
    /// Whether nothing was found.
    pub fn is_empty(&self) -> bool {
        self.wallets.is_empty()
            && self.amounts.is_empty()
            && self.tx_hashes.is_empty()
            && self.times.is_empty()
            && self.phones.is_empty()
    }

    /// As JSON (for the benchmark).
    pub fn to_json(&self) -> Value {
        json!({
            "wallets": self.wallets.iter().map(|w| json!({"read": w.read, "value": w.value, "canonical": w.canonical, "changes": w.changes})).collect::<Vec<_>>(),
            "amounts": self.amounts,
            "tx_hashes": self.tx_hashes,
            "times": self.times,
            "phones": self.phones.iter().map(|p| json!({"read": p.read, "e164": p.e164})).collect::<Vec<_>>(),
            "unreadable": self.unreadable,
        })
    }
}

static TIME: LazyLock<Regex> = LazyLock::new(|| {
    let months = "Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec";
    Regex::new(&format!(
        r"\b(?:\d{{4}}[-/.]\d{{1,2}}[-/.]\d{{1,2}}(?:,? |T)\d{{1,2}}:\d{{2}}(?::\d{{2}})?|\d{{1,2}}/\d{{1,2}}/\d{{4}},? \d{{1,2}}:\d{{2}}(?::\d{{2}})?|(?:{months})[a-z]* \d{{1,2}}, \d{{4}},? \d{{1,2}}:\d{{2}}(?::\d{{2}})?|\d{{1,2}} (?:{months})[a-z]* \d{{4}},? \d{{1,2}}:\d{{2}}(?::\d{{2}})?|\d{{4}}年\d{{1,2}}月\d{{1,2}}日 ?\d{{1,2}}:\d{{2}}(?::\d{{2}})?)(?: ?[AP]M)?"
    ))
    .expect("time regex")
});

static PHONE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?:\+|\(|\b)\d[\d ()\-]{6,18}\d\b").expect("phone regex"));

/// Most white-space separated tokens joined into one address candidate (OCR splits long codes).
const MAX_TOKENS: usize = 6;

/// Extracts the facts of an OCR text (the `ocr_image` header line is skipped).
pub fn extract(text: &str, region: Option<&Region>) -> Found {
    let mut found = Found::default();
    let push = |list: &mut Vec<String>, v: &str| {
        if !list.iter().any(|x| x == v) {
            list.push(v.to_string());
        }
    };
    for line in text.lines().filter(|l| {
        !l.starts_with("# ocr_image ") && !l.starts_with(crate::media::ocr::REREAD_MARK)
    }) {
        let mut taken: Vec<(usize, usize)> = Vec::new();
        for m in crate::extract::tx_hash_spans(line) {
            push(&mut found.tx_hashes, &line[m.clone()]);
            taken.push((m.start, m.end));
        }
        wallets(line, &mut found, &mut taken);
        for m in TIME.find_iter(line) {
            push(&mut found.times, m.as_str().trim());
            taken.push((m.start(), m.end()));
        }
        // The amounts with a currency, rates ("7.80 HKD / USDT") left out: the pattern shared
        // with document bodies.
        for m in crate::extract::amount_candidates(line) {
            if overlaps(&taken, m.start, m.end) {
                continue;
            }
            push(&mut found.amounts, line[m.clone()].trim());
            taken.push((m.start, m.end));
        }
        for m in PHONE.find_iter(line) {
            if overlaps(&taken, m.start(), m.end()) {
                continue;
            }
            let read = m.as_str().trim();
            let digits = read.bytes().filter(u8::is_ascii_digit).count();
            if !(8..=15).contains(&digits) {
                continue;
            }
            if let Ok(e164) = normalize_phone(read, region)
                && !found.phones.iter().any(|p| p.e164 == e164)
            {
                found.phones.push(PhoneHit {
                    read: read.to_string(),
                    e164,
                });
            }
        }
    }
    // A misread whose re-read (or another reading) gave a valid address is not unreadable.
    let wallets = &found.wallets;
    found.unreadable.retain(|u| {
        let joined: String = u.chars().filter(|c| *c != ' ').collect();
        !wallets
            .iter()
            .any(|w| edit_distance(&joined, &w.value) <= 3)
    });
    found
}

/// Levenshtein distance over bytes (ASCII tokens).
fn edit_distance(a: &str, b: &str) -> usize {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, &x) in a.iter().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, &y) in b.iter().enumerate() {
            cur[j + 1] = (prev[j] + usize::from(x != y))
                .min(prev[j + 1] + 1)
                .min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}

fn overlaps(taken: &[(usize, usize)], start: usize, end: usize) -> bool {
    taken.iter().any(|&(s, e)| start < e && s < end)
}

/// Whether a token may be (part of) an address as OCR reads it.
fn address_token(t: &str) -> bool {
    !t.is_empty() && t.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'|')
}

/// Whether the first character may start an address (`0x`, `T`, `bc1`/`tb1`, `1`, `3`, under
/// look-alikes).
fn may_start(t: &str) -> bool {
    matches!(
        t.as_bytes().first(),
        Some(b'0' | b'O' | b'o' | b'T' | b'b' | b't' | b'1' | b'l' | b'I' | b'3')
    )
}

/// Finds addresses in one line: single tokens and runs of up to [`MAX_TOKENS`] tokens joined by
/// single spaces, longest first, each read verbatim or repaired by [`repair_wallet`].
fn wallets(line: &str, found: &mut Found, taken: &mut Vec<(usize, usize)>) {
    let tokens = masf_graph::identifiers::token_spans(line.as_bytes());
    let mut i = 0;
    while i < tokens.len() {
        let (s0, e0) = tokens[i];
        let first = &line[s0..e0];
        // A code split by OCR spaces is taken whole: a window may not start or end next to
        // another code-like token (a run of a longer hash must not yield an address).
        let code_at = |k: usize| -> bool {
            tokens.get(k).is_some_and(|&(s, e)| {
                let t = &line[s..e];
                address_token(t) && t.bytes().any(|b| b.is_ascii_digit())
            })
        };
        let joined_before = i > 0 && tokens[i - 1].1 + 1 == s0 && code_at(i - 1);
        if !address_token(first) || !may_start(first) || overlaps(taken, s0, e0) || joined_before {
            i += 1;
            continue;
        }
        let mut hit = None;
        let mut longest = None;
        for n in (1..=MAX_TOKENS.min(tokens.len() - i)).rev() {
            let window = &tokens[i..i + n];
            // single spaces only, every token address-like
            let joined_after = tokens
                .get(i + n)
                .is_some_and(|&(s, _)| s == window[n - 1].1 + 1)
                && code_at(i + n);
            let ok = !joined_after
                && window.windows(2).all(|w| w[1].0 == w[0].1 + 1)
                && window.iter().all(|&(s, e)| address_token(&line[s..e]));
            if !ok {
                continue;
            }
            let (ws, we) = (window[0].0, window[n - 1].1);
            let read = &line[ws..we];
            let len = read.bytes().filter(|b| *b != b' ').count();
            if !(26..=90).contains(&len) {
                continue;
            }
            longest.get_or_insert(read);
            match repair_wallet(read) {
                WalletRepair::Exact(value) => {
                    hit = Some((n, read, value, 0));
                    break;
                }
                WalletRepair::Repaired { value, changes } => {
                    hit = Some((n, read, value, changes));
                    break;
                }
                WalletRepair::Ambiguous(_) | WalletRepair::Invalid => {}
            }
        }
        match hit {
            Some((n, read, value, changes)) => {
                let Ok(canonical) = normalize_wallet(&value) else {
                    i += 1;
                    continue;
                };
                let (ws, we) = (tokens[i].0, tokens[i + n - 1].1);
                taken.push((ws, we));
                let hit = WalletHit {
                    read: read.to_string(),
                    value,
                    canonical,
                    changes,
                };
                // One hit per address: the closest read (a verbatim re-read beats a repair).
                match found
                    .wallets
                    .iter_mut()
                    .find(|w| w.canonical == hit.canonical)
                {
                    Some(w) if hit.changes < w.changes => *w = hit,
                    Some(_) => {}
                    None => found.wallets.push(hit),
                }
                i += n;
            }
            None => {
                if let Some(read) = longest
                    && looks_like_address(read)
                    && !found.unreadable.iter().any(|u| u == read)
                {
                    found.unreadable.push(read.to_string());
                }
                i += 1;
            }
        }
    }
}

/// A token run shaped like an address (for the "could not be read reliably" list): a known
/// prefix and an address length, mixing letters and digits.
fn looks_like_address(read: &str) -> bool {
    let joined: String = read.chars().filter(|c| *c != ' ').collect();
    let lower = joined.to_ascii_lowercase();
    let digits = joined.bytes().any(|b| b.is_ascii_digit());
    let letters = joined.bytes().any(|b| b.is_ascii_alphabetic());
    digits
        && letters
        && ((lower.starts_with("0x") || lower.starts_with("ox"))
            && (40..=44).contains(&joined.len())
            || joined.starts_with('T') && (33..=36).contains(&joined.len())
            || (lower.starts_with("bc1") || lower.starts_with("bcl"))
                && (40..=64).contains(&joined.len()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_receipt_yields_its_facts() {
        let hk = Region::parse("HK").expect("HK is a region");
        let text = "# ocr_image path=/a.png engine=x lang=eng preprocess=none size=1x1\n16:20\nTrade Completed\n12,500.00 USDT\nPaid\nHKD 97,500.00\nRate\n7.80 HKD / USDT\nContact\n(852) 6123-4567\nDate\n2025-02-17 16:20:00\nTo\nbclqmvOm9awsm3pf 3gmvuapuld2ep6q59ktq2j 9x37\nTx Hash\n0x3b9cb90d2976083178b8cb402112d0381c4957ef01a4a81859902b7a4add0b90\n";
        let f = extract(text, Some(&hk));
        assert_eq!(f.amounts, ["12,500.00 USDT", "HKD 97,500.00"]);
        assert_eq!(f.times, ["2025-02-17 16:20:00"]);
        assert_eq!(f.phones.len(), 1);
        assert_eq!(f.phones[0].read, "(852) 6123-4567");
        assert_eq!(f.phones[0].e164, "+85261234567");
        assert_eq!(
            f.tx_hashes,
            ["0x3b9cb90d2976083178b8cb402112d0381c4957ef01a4a81859902b7a4add0b90"]
        );
        assert_eq!(f.wallets.len(), 1);
        let w = &f.wallets[0];
        assert_eq!(w.read, "bclqmvOm9awsm3pf 3gmvuapuld2ep6q59ktq2j 9x37");
        assert_eq!(w.value, "bc1qmv0m9awsm3pf3gmvuapuld2ep6q59ktq2j9x37");
        assert!(w.repaired());
        assert!(f.unreadable.is_empty());
    }

    #[test]
    fn a_re_read_line_wins_over_the_misread() {
        let text = "To\nTYnNKRN12x5td77EYtTRCUmSwqwew1ChFhb\n# re-read line box=1,2,3,4 alphabet=base58\nTYnKRN12x5td77EYtTRCUmSwqWew1ChFhb\n";
        let f = extract(text, None);
        assert_eq!(f.wallets.len(), 1);
        assert_eq!(f.wallets[0].value, "TYnKRN12x5td77EYtTRCUmSwqWew1ChFhb");
        assert!(!f.wallets[0].repaired());
        assert!(f.unreadable.is_empty(), "{:?}", f.unreadable);
    }

    #[test]
    fn a_split_hash_does_not_yield_an_address() {
        // The first two runs of this misread hash make 42 characters that repair to a valid
        // (lower-case, so checksum-less) ETH address: it must not be taken for one.
        let f = extract(
            "Tx Hash\nOx2efcl10d2fc627ea8d5f799eb76b92 fb380a3964 F06ece84970fe1d4b949b904c\n",
            None,
        );
        assert!(f.wallets.is_empty(), "{:?}", f.wallets);
    }

    #[test]
    fn an_address_with_an_inserted_character_is_unreadable_not_guessed() {
        let f = extract("To\nOx85aa0C66bBE6962f32BE28c8d1lad03e5E67FEC92\n", None);
        assert!(f.wallets.is_empty());
        assert_eq!(
            f.unreadable,
            ["Ox85aa0C66bBE6962f32BE28c8d1lad03e5E67FEC92"]
        );
    }
}
