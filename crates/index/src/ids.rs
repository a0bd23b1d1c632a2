//! Identifiers written in text, indexed in their normalised form so that searching one form
//! finds the others: `(919) 888-7386`, `+1 919 888 7386`, `19198887386@s.whatsapp.net` and
//! `tel:+19198887386` all index as `phone:+19198887386` (national forms need the source's
//! region). Normalisation is the graph's own (`masf_graph::identifiers`), so the index and the
//! entity resolution agree on what one identifier is.

use std::sync::LazyLock;

use masf_graph::identifiers::{Region, normalize_email, normalize_phone, normalize_wallet};
use regex::Regex;

// Word boundaries are ASCII ones (`(?-u:\b)`): an identifier is made of ASCII digits and
// letters, so a number written right after Chinese or Japanese text (`电话13812345678`) starts
// at a boundary, which Unicode's `\b` would deny (ideographs are word characters there); and
// the regex engine's fast DFA handles ASCII boundaries on any text, where a Unicode one sends
// every non-ASCII haystack to its slow NFA simulation.

static PHONE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?:\+|(?-u:\b)00|\(|(?-u:\b))\d[\d \u{a0}().\-]{5,22}\d(?-u:\b)")
        .expect("phone pattern")
});
static EMAIL: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"[A-Za-z0-9._%+\-]{1,64}@[A-Za-z0-9\-]{1,63}(?:\.[A-Za-z0-9\-]{1,63})+")
        .expect("email pattern")
});
static WALLET: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?-u:\b)(?:0[xX][0-9a-fA-F]{40}|T[1-9A-HJ-NP-Za-km-z]{33}|bc1[02-9ac-hj-np-z]{11,71}|[13][1-9A-HJ-NP-Za-km-z]{25,34})(?-u:\b)",
    )
    .expect("wallet pattern")
});

/// One identifier found in a text: its index term and where it is written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    /// `phone:+19198887386`, `email:a@b.c`, `wallet:T…`.
    pub term: String,
    pub start: usize,
    pub end: usize,
}

fn digits(s: &str) -> usize {
    s.bytes().filter(u8::is_ascii_digit).count()
}

/// Every identifier written in `text`; phone numbers in national form read with `region`.
pub fn find(text: &str, region: Option<&Region>) -> Vec<Found> {
    let mut out = Vec::new();
    for m in EMAIL.find_iter(text) {
        let value = m.as_str();
        // A WhatsApp JID is a phone number written as an address.
        if let Ok(p) = normalize_phone(value, region) {
            out.push(Found {
                term: format!("phone:{p}"),
                start: m.start(),
                end: m.end(),
            });
        } else if let Ok(e) = normalize_email(value) {
            out.push(Found {
                term: format!("email:{e}"),
                start: m.start(),
                end: m.end(),
            });
        }
    }
    for m in PHONE.find_iter(text) {
        let value = m.as_str();
        if !(7..=15).contains(&digits(value)) {
            continue;
        }
        if let Ok(p) = normalize_phone(value, region) {
            out.push(Found {
                term: format!("phone:{p}"),
                start: m.start(),
                end: m.end(),
            });
        }
    }
    for m in WALLET.find_iter(text) {
        if let Ok(w) = normalize_wallet(m.as_str()) {
            out.push(Found {
                term: format!("wallet:{w}"),
                start: m.start(),
                end: m.end(),
            });
        }
    }
    // Longest first at each start, then drop what lies inside an earlier find (the digits of
    // a JID are not a second number).
    out.sort_by_key(|f| (f.start, std::cmp::Reverse(f.end)));
    let mut kept: Vec<Found> = Vec::with_capacity(out.len());
    for f in out {
        if kept.last().is_none_or(|k| f.start >= k.end) {
            kept.push(f);
        }
    }
    kept
}

/// The index terms a query typed as an identifier stands for (several when it reads as more
/// than one kind); empty when it is none.
pub fn query_terms(value: &str, region: Option<&Region>) -> Vec<String> {
    let mut out = Vec::new();
    if let Ok(p) = normalize_phone(value, region) {
        out.push(format!("phone:{p}"));
    }
    if let Ok(e) = normalize_email(value) {
        out.push(format!("email:{e}"));
    }
    if let Ok(w) = normalize_wallet(value) {
        out.push(format!("wallet:{w}"));
    }
    out.dedup();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn four_forms_of_one_number_give_one_term() {
        let us = Region::parse("US").unwrap();
        let text = "call (919) 888-7386 or +1 919 888 7386, wa 19198887386@s.whatsapp.net tel:+19198887386";
        let terms: Vec<_> = find(text, Some(&us)).into_iter().map(|f| f.term).collect();
        assert_eq!(terms.len(), 4, "{terms:?}");
        assert!(terms.iter().all(|t| t == "phone:+19198887386"), "{terms:?}");
        assert_eq!(
            query_terms("919.888.7386", Some(&us)),
            ["phone:+19198887386"]
        );
    }

    #[test]
    fn emails_fold_and_wallets_verify() {
        let f = find("mail Bob.Smith@Example.COM now", None);
        assert_eq!(f[0].term, "email:bob.smith@example.com");
        assert_eq!(
            &"mail Bob.Smith@Example.COM now"[f[0].start..f[0].end],
            "Bob.Smith@Example.COM"
        );
        // A string shaped like a TRON address with a bad checksum is no identifier.
        assert!(find("TXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX", None).is_empty());
    }

    #[test]
    fn a_number_written_right_after_chinese_text_is_found() {
        let cn = Region::parse("CN").unwrap();
        let f = find("联系电话13812345678谢谢", Some(&cn));
        assert_eq!(f.len(), 1, "{f:?}");
        assert_eq!(f[0].term, "phone:+8613812345678");
        let w = "付款到0x52908400098527886E0F7030069857D2E4169EE7";
        assert_eq!(find(w, None).len(), 1);
    }
}
