//! The interpretation lint (DESIGN §6, point 5): path-, timestamp-, hash- and identifier-like
//! strings in an interpretation that no cited invocation output contains become warnings. They
//! never reject: the interpretation is always shown as unverified analysis, and the warning
//! tells the examiner which of its claims no tool output backs.
//!
//! A string found by a pattern is *covered* when a verified fact's value or a cited output
//! contains it verbatim (hex and e-mail strings ignoring ASCII case), or, for a phone number,
//! when it normalises to the same E.164 number as a phone fact.

use std::sync::LazyLock;

use memchr::memmem;
use regex::Regex;

use crate::grounding::{InvocationLog, is_hex_like};
use crate::identifiers::{Region, normalize_phone};
use crate::model::{Fact, FactType, Warning, WarningKind};

struct Pattern {
    kind: WarningKind,
    what: &'static str,
    regex: Regex,
}

static PATTERNS: LazyLock<Vec<Pattern>> = LazyLock::new(|| {
    let p = |kind, what, re: &str| Pattern {
        kind,
        what,
        regex: Regex::new(re).expect("valid lint regex"),
    };
    // Order matters: a string is judged by the first pattern that finds it, and later patterns
    // skip text already judged (a date inside a path is part of the path).
    vec![
        p(
            WarningKind::UnverifiedPath,
            "path",
            r#"(?:[A-Za-z]:\\|~?/)(?:[^\s/\\:*?"<>|,;()\[\]{}]+[/\\])+[^\s/\\:*?"<>|,;()\[\]{}]*"#,
        ),
        p(
            WarningKind::UnverifiedIdentifier,
            "wallet address",
            r"\b0x[0-9a-fA-F]{40}\b",
        ),
        p(
            WarningKind::UnverifiedHash,
            "hash",
            r"\b0x[0-9a-fA-F]{64}\b|\b(?:[0-9a-fA-F]{64}|[0-9a-fA-F]{40}|[0-9a-fA-F]{32})\b",
        ),
        p(
            WarningKind::UnverifiedIdentifier,
            "e-mail address",
            r"[A-Za-z0-9._%+\-]+@[A-Za-z0-9\-]+(?:\.[A-Za-z0-9\-]+)*\.[A-Za-z]{2,}",
        ),
        p(
            WarningKind::UnverifiedIdentifier,
            "wallet address",
            r"\b(?:bc1|tb1)[02-9ac-hj-np-z]{25,87}\b|\bT[1-9A-HJ-NP-Za-km-z]{33}\b|\b[13][1-9A-HJ-NP-Za-km-z]{25,34}\b",
        ),
        p(
            WarningKind::UnverifiedIdentifier,
            "phone number",
            r"\+\d[\d \-]{6,18}\d",
        ),
        p(
            WarningKind::UnverifiedIdentifier,
            "IMEI-like number",
            r"\b\d{15}\b",
        ),
        p(
            WarningKind::UnverifiedTimestamp,
            "timestamp",
            r"\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+\-]\d{2}:?\d{2})?)?\b|\b\d{4}/\d{1,2}/\d{1,2}(?: \d{1,2}:\d{2}(?::\d{2})?)?\b|\b\d{1,2}:\d{2}:\d{2}\b",
        ),
    ]
});

/// Lints `interpretation` against the verified facts and the outputs of the invocations they
/// cite. Returns one warning per uncovered string, in the order they appear.
pub fn lint_interpretation<L: InvocationLog + ?Sized>(
    log: &L,
    interpretation: &str,
    facts: &[Fact],
    region: Option<&Region>,
) -> Vec<Warning> {
    if interpretation.trim().is_empty() {
        return Vec::new();
    }
    let mut cited: Vec<&str> = facts.iter().map(|f| f.invocation_id.as_str()).collect();
    cited.sort_unstable();
    cited.dedup();
    let outputs: Vec<Vec<u8>> = cited
        .iter()
        .filter_map(|id| log.get(id).map(|view| view.output.into_owned()))
        .collect();
    let lowered: Vec<Vec<u8>> = outputs.iter().map(|o| o.to_ascii_lowercase()).collect();
    let phone_facts: Vec<String> = facts
        .iter()
        .filter(|f| f.fact_type == FactType::Phone)
        .filter_map(|f| normalize_phone(&f.value, region).ok())
        .collect();

    let mut judged: Vec<(usize, usize)> = Vec::new();
    let mut found: Vec<(usize, Warning)> = Vec::new();
    for pattern in PATTERNS.iter() {
        for m in pattern.regex.find_iter(interpretation) {
            let (start, text) = (m.start(), trim_match(m.as_str()));
            if text.is_empty() || !starts_a_token(interpretation, start) {
                continue;
            }
            let end = start + text.len();
            if judged.iter().any(|&(s, e)| start < e && s < end) {
                continue;
            }
            judged.push((start, end));
            let covered = facts.iter().any(|f| f.value.contains(text))
                || outputs
                    .iter()
                    .any(|o| memmem::find(o, text.as_bytes()).is_some())
                || (is_caseless(text) && {
                    let lower = text.to_ascii_lowercase();
                    facts
                        .iter()
                        .any(|f| f.value.to_ascii_lowercase().contains(&lower))
                        || lowered
                            .iter()
                            .any(|o| memmem::find(o, lower.as_bytes()).is_some())
                })
                || (text.starts_with('+')
                    && normalize_phone(text, region).is_ok_and(|p| phone_facts.contains(&p)));
            if !covered {
                let message = format!(
                    "the interpretation names the {} {text:?}, which no cited invocation output contains",
                    pattern.what
                );
                found.push((
                    start,
                    Warning {
                        kind: pattern.kind,
                        text: Some(text.to_owned()),
                        message,
                    },
                ));
            }
        }
    }
    found.sort_by_key(|(start, _)| *start);
    found.dedup_by(|a, b| a.1.text == b.1.text);
    found.into_iter().map(|(_, w)| w).collect()
}

/// Drops sentence punctuation a pattern may have taken at the end (`…/sms.db.`).
fn trim_match(text: &str) -> &str {
    text.trim_end_matches(['.', ',', ';', ':', '!', '?', '\'', '"'])
}

/// A match must not start inside a word or another path (`and/or/x`, `https://host/x`).
fn starts_a_token(haystack: &str, start: usize) -> bool {
    match haystack
        .get(..start)
        .and_then(|before| before.chars().next_back())
    {
        None => true,
        Some(c) => !(c.is_alphanumeric() || matches!(c, '/' | ':' | '\\' | '.' | '_' | '-')),
    }
}

fn is_caseless(text: &str) -> bool {
    is_hex_like(text) || text.contains('@')
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::MemoryLog;
    use crate::memlog::MemoryInvocation;
    use crate::model::{MatchInfo, MatchMethod};

    fn lint(interpretation: &str, output: &str) -> Vec<String> {
        let log: MemoryLog = [MemoryInvocation {
            id: "inv-1".into(),
            source_id: "src".into(),
            agent: "a".into(),
            task_id: "t".into(),
            output: output.as_bytes().to_vec(),
            structured: None,
        }]
        .into_iter()
        .collect();
        let fact = Fact {
            fact_type: FactType::Phone,
            value: "61234567".into(),
            invocation_id: "inv-1".into(),
            matched: MatchInfo {
                method: MatchMethod::Verbatim,
                normalisation: None,
                field: None,
                span: None,
                rescued_from: None,
            },
        };
        lint_interpretation(
            &log,
            interpretation,
            &[fact],
            Some(&Region::parse("HK").expect("HK is a region")),
        )
        .into_iter()
        .map(|w| format!("{:?} {}", w.kind, w.text.unwrap_or_default()))
        .collect()
    }

    #[test]
    fn uncovered_strings_warn_and_covered_ones_do_not() {
        let output = "/private/var/mobile/Library/SMS/sms.db 2024-03-01 10:00:00 D41D8CD98F00B204E9800998ECF8427E";
        let got = lint(
            "Messages in /private/var/mobile/Library/SMS/sms.db from 2024-03-01 10:00:00, hash \
             d41d8cd98f00b204e9800998ecf8427e; also /data/data/com.whatsapp/db/msgstore.db. \
             Owner +852 6123 4567, mail chan@example.com, at 2024-03-02.",
            output,
        );
        assert_eq!(
            got,
            [
                "UnverifiedPath /data/data/com.whatsapp/db/msgstore.db",
                "UnverifiedIdentifier chan@example.com",
                "UnverifiedTimestamp 2024-03-02",
            ]
        );
    }

    #[test]
    fn words_with_slashes_and_urls_are_not_paths() {
        assert_eq!(
            lint("read and/or write, see https://example.com/a/b", ""),
            Vec::<String>::new()
        );
    }
}
