//! Grounding: does a logged tool invocation of this agent, in this task, contain this value?
//! (DESIGN §6, points 1–4.)
//!
//! The gateway reads invocations through [`InvocationLog`], which the store implements (and
//! [`crate::MemoryLog`] in memory). A fact is checked against the invocation it cites:
//!
//! 1. the invocation must exist and belong to the same agent and task;
//! 2. its value must occur in the output: a verbatim substring of the text output (searched with
//!    `memchr::memmem`), else equality with a scalar field of the structured (JSON) output;
//! 3. else each applicable [`Normalisation`] is tried, in [`Normalisation::ORDER`], on the text
//!    and then on the structured fields; the list tried is returned with any failure, and the one
//!    that matched is recorded in the fact;
//! 4. **rescue**: if the citation fails for any reason, the agent's other invocations *in the same
//!    task* (and only those: [`InvocationLog::ids_for`]) are checked the same way; exactly one
//!    match rewrites the citation (recorded in [`MatchInfo::rescued_from`]), several are
//!    returned as candidates and the fact fails.
//!
//! Nothing here scans invocations of other agents or tasks.

use std::borrow::Cow;
use std::cell::OnceCell;
use std::collections::HashMap;

use memchr::memmem;
use regex::bytes::Regex;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::identifiers::{Region, look_alike, normalize_phone, normalize_wallet};
use crate::model::{
    CitationProblem, Fact, FactClaim, FactType, MatchInfo, MatchMethod, Normalisation, Rescue, Span,
};

/// How many of the agent's recent invocation ids a rejection lists.
pub const RECENT_INVOCATIONS: usize = 20;

/// Read access to the invocation log. Implemented by the store (outside this crate) and by
/// [`crate::MemoryLog`].
pub trait InvocationLog {
    /// The invocation with this id, or `None` if there is none (an implementation that cannot
    /// read an invocation also answers `None`: grounding then fails safe, it never accepts).
    fn get(&self, id: &str) -> Option<InvocationView<'_>>;

    /// The ids of the invocations made by `agent` in `task_id`, oldest first (most recent
    /// last). Must be answered from an index, not by scanning the log.
    fn ids_for(&self, agent: &str, task_id: &str) -> Cow<'_, [String]>;
}

/// One logged invocation as grounding sees it.
#[derive(Debug, Clone, PartialEq)]
pub struct InvocationView<'a> {
    /// Its id (`inv-000042`).
    pub id: Cow<'a, str>,
    /// The evidence source the tool was bound to.
    pub source_id: Cow<'a, str>,
    /// The agent that made the call.
    pub agent: Cow<'a, str>,
    /// The task it was made in.
    pub task_id: Cow<'a, str>,
    /// The canonical text output (bytes; usually UTF-8).
    pub output: Cow<'a, [u8]>,
    /// The structured (JSON) output, for tools that have one.
    pub structured: Option<Cow<'a, Value>>,
}

/// Who is asking: grounding only looks at this agent's invocations in this task.
#[derive(Debug, Clone, Copy)]
pub struct Asker<'a> {
    /// The agent.
    pub agent: &'a str,
    /// Its task.
    pub task_id: &'a str,
    /// How to read phone numbers written without a country code (the source's region).
    pub region: Option<&'a Region>,
}

/// A fact that could not be grounded, as returned in a rejection.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FailingFact {
    /// Its position in the request (from 0).
    pub index: usize,
    /// Its type.
    pub fact_type: FactType,
    /// Its value.
    pub value: String,
    /// The invocation it cited.
    pub invocation_id: String,
    /// Why the cited invocation does not ground it.
    pub problem: CitationProblem,
    /// The matching methods and normalisations tried, in order.
    pub tried: Vec<String>,
    /// When several of the agent's invocations in the task contain the value: their ids (cite
    /// one of them). Empty when none does.
    pub candidates: Vec<String>,
}

/// Grounds one claim for `asker` (DESIGN §6, points 1–4). `index` is the claim's position,
/// reported in a failure.
pub fn ground_fact<L: InvocationLog + ?Sized>(
    log: &L,
    asker: &Asker<'_>,
    index: usize,
    claim: &FactClaim,
) -> Result<Fact, FailingFact> {
    let fail = |problem, tried: Vec<String>, candidates| FailingFact {
        index,
        fact_type: claim.fact_type,
        value: claim.value.clone(),
        invocation_id: claim.invocation_id.clone(),
        problem,
        tried,
        candidates,
    };
    if claim.value.trim().is_empty() {
        return Err(fail(CitationProblem::EmptyValue, Vec::new(), Vec::new()));
    }
    let needle = Needle::new(claim, asker.region);
    let problem = match log.get(&claim.invocation_id) {
        None => CitationProblem::UnknownInvocation,
        Some(view) if view.agent != asker.agent => CitationProblem::OtherAgent,
        Some(view) if view.task_id != asker.task_id => CitationProblem::OtherTask,
        Some(view) => match needle.find_in(&view) {
            Some(matched) => return Ok(needle.fact(&claim.invocation_id, matched)),
            None => CitationProblem::ValueAbsent,
        },
    };
    // Rescue: the agent's own invocations in this task, and nothing else.
    let own = log.ids_for(asker.agent, asker.task_id);
    let mut found: Vec<(&str, MatchInfo)> = Vec::new();
    for id in own.iter().filter(|id| **id != claim.invocation_id) {
        let Some(view) = log.get(id) else { continue };
        if view.agent != asker.agent || view.task_id != asker.task_id {
            continue;
        }
        if let Some(matched) = needle.find_in(&view) {
            found.push((id, matched));
        }
    }
    match found.len() {
        1 => {
            let (id, mut matched) = found.swap_remove(0);
            matched.rescued_from = Some(Rescue {
                cited: claim.invocation_id.clone(),
                problem,
            });
            Ok(needle.fact(id, matched))
        }
        _ => {
            let candidates = found.into_iter().map(|(id, _)| id.to_owned()).collect();
            Err(fail(problem, needle.tried(), candidates))
        }
    }
}

/// Grounds every claim; all failures are returned together (a phenomenon is accepted whole or
/// not at all).
pub fn ground_facts<L: InvocationLog + ?Sized>(
    log: &L,
    asker: &Asker<'_>,
    claims: &[FactClaim],
) -> Result<Vec<Fact>, Vec<FailingFact>> {
    let mut facts = Vec::with_capacity(claims.len());
    let mut failures = Vec::new();
    for (index, claim) in claims.iter().enumerate() {
        match ground_fact(log, asker, index, claim) {
            Ok(fact) => facts.push(fact),
            Err(failure) => failures.push(failure),
        }
    }
    if failures.is_empty() {
        Ok(facts)
    } else {
        Err(failures)
    }
}

/// The agent's most recent real invocation ids in the task (at most [`RECENT_INVOCATIONS`]),
/// oldest first, for rejection messages.
pub fn recent_invocations<L: InvocationLog + ?Sized>(
    log: &L,
    agent: &str,
    task_id: &str,
) -> Vec<String> {
    let ids = log.ids_for(agent, task_id);
    let start = ids.len().saturating_sub(RECENT_INVOCATIONS);
    ids.get(start..).unwrap_or_default().to_vec()
}

/// An [`InvocationLog`] over another that reads each of a set of invocations from it at most
/// once. One judgement may cite one output for many facts (an inventory page, a query's rows)
/// and read it again for its warnings and lint, while the store re-reads and re-hashes an
/// output on every read: through this, each cited output is read once per judgement. Other
/// ids (a rescue's candidates) are passed through.
pub struct ReadOnce<'l, L: ?Sized> {
    inner: &'l L,
    views: HashMap<String, OnceCell<Option<InvocationView<'static>>>>,
}

impl<'l, L: InvocationLog + ?Sized> ReadOnce<'l, L> {
    /// `inner`, with the invocations `ids` read at most once each.
    pub fn new<'i>(inner: &'l L, ids: impl IntoIterator<Item = &'i str>) -> Self {
        Self {
            inner,
            views: ids
                .into_iter()
                .map(|id| (id.to_owned(), OnceCell::new()))
                .collect(),
        }
    }
}

fn owned(view: InvocationView<'_>) -> InvocationView<'static> {
    InvocationView {
        id: Cow::Owned(view.id.into_owned()),
        source_id: Cow::Owned(view.source_id.into_owned()),
        agent: Cow::Owned(view.agent.into_owned()),
        task_id: Cow::Owned(view.task_id.into_owned()),
        output: Cow::Owned(view.output.into_owned()),
        structured: view.structured.map(|s| Cow::Owned(s.into_owned())),
    }
}

fn borrowed<'v>(view: &'v InvocationView<'static>) -> InvocationView<'v> {
    InvocationView {
        id: Cow::Borrowed(&view.id),
        source_id: Cow::Borrowed(&view.source_id),
        agent: Cow::Borrowed(&view.agent),
        task_id: Cow::Borrowed(&view.task_id),
        output: Cow::Borrowed(&view.output),
        structured: view.structured.as_deref().map(Cow::Borrowed),
    }
}

impl<L: InvocationLog + ?Sized> InvocationLog for ReadOnce<'_, L> {
    fn get(&self, id: &str) -> Option<InvocationView<'_>> {
        match self.views.get(id) {
            Some(cell) => cell
                .get_or_init(|| self.inner.get(id).map(owned))
                .as_ref()
                .map(borrowed),
            None => self.inner.get(id),
        }
    }

    fn ids_for(&self, agent: &str, task_id: &str) -> Cow<'_, [String]> {
        self.inner.ids_for(agent, task_id)
    }
}

/// A claim prepared for searching: the value in each form the applicable normalisations need.
struct Needle<'c> {
    claim: &'c FactClaim,
    finder: memmem::Finder<'c>,
    /// Applicable normalisations, in order.
    normalisations: Vec<Normalisation>,
    /// The value trimmed, with ASCII white-space runs collapsed to one space.
    collapsed: String,
    /// The trimmed value in ASCII lower case.
    lower: String,
    /// The value as E.164, for phone facts.
    e164: Option<String>,
    /// The value's digits, for IMEI/IMSI/ICCID facts.
    digits: String,
    region: Option<&'c Region>,
}

impl<'c> Needle<'c> {
    fn new(claim: &'c FactClaim, region: Option<&'c Region>) -> Self {
        let value = claim.value.as_str();
        let trimmed = value.trim();
        let mut normalisations = Vec::new();
        let mut collapsed = String::new();
        let mut lower = String::new();
        let mut e164 = None;
        let mut digits = String::new();
        for normalisation in Normalisation::ORDER {
            let applies = match normalisation {
                Normalisation::WhitespaceCollapse => {
                    if value.bytes().any(|b| b.is_ascii_whitespace()) {
                        // Only ASCII white space is collapsed (outputs are bytes); the rest of
                        // the value is kept as it is.
                        collapsed =
                            String::from_utf8_lossy(&collapse_ascii_whitespace(value.as_bytes()).0)
                                .into_owned();
                        !collapsed.is_empty()
                    } else {
                        false
                    }
                }
                Normalisation::HexCase => is_hex_like(trimmed),
                Normalisation::EmailCase => {
                    matches!(
                        claim.fact_type,
                        FactType::Email | FactType::Account | FactType::Identifier
                    ) && trimmed.contains('@')
                }
                Normalisation::PhoneE164 => {
                    if claim.fact_type == FactType::Phone {
                        e164 = normalize_phone(trimmed, region).ok();
                    }
                    e164.is_some()
                }
                Normalisation::DigitSeparators => {
                    if matches!(
                        claim.fact_type,
                        FactType::Imei | FactType::Imsi | FactType::Iccid
                    ) {
                        digits = strip_digit_separators(trimmed).unwrap_or_default();
                    }
                    digits.len() >= 6
                }
                // Only a value that is itself a valid address (format and checksum) may be
                // found as a look-alike spelling.
                Normalisation::LookAlikeRepair => {
                    claim.fact_type == FactType::Wallet
                        && !trimmed.contains(' ')
                        && normalize_wallet(trimmed).is_ok()
                }
            };
            if applies {
                if matches!(
                    normalisation,
                    Normalisation::HexCase | Normalisation::EmailCase
                ) {
                    lower = trimmed.to_ascii_lowercase();
                }
                normalisations.push(normalisation);
            }
        }
        Self {
            claim,
            finder: memmem::Finder::new(value.as_bytes()),
            normalisations,
            collapsed,
            lower,
            e164,
            digits,
            region,
        }
    }

    /// The longest white-space separated token of the collapsed value: every token of a
    /// collapsed match occurs verbatim in the output, so this one is a cheap prefilter.
    fn longest_token(&self) -> Option<&str> {
        self.collapsed
            .split(' ')
            .max_by_key(|t| t.len())
            .filter(|t| !t.is_empty())
    }

    /// The methods tried, by name, in order.
    fn tried(&self) -> Vec<String> {
        let mut tried = vec!["verbatim".to_owned(), "structured_field".to_owned()];
        tried.extend(self.normalisations.iter().map(|n| n.as_str().to_owned()));
        tried
    }

    fn fact(&self, invocation_id: &str, matched: MatchInfo) -> Fact {
        Fact {
            fact_type: self.claim.fact_type,
            value: self.claim.value.clone(),
            invocation_id: invocation_id.to_owned(),
            matched,
        }
    }

    /// Finds the value in one invocation's output: verbatim, structured field, then each
    /// applicable normalisation (text first, then structured fields).
    fn find_in(&self, view: &InvocationView<'_>) -> Option<MatchInfo> {
        let output: &[u8] = &view.output;
        if let Some(start) = self.finder.find(output) {
            return Some(text_match(
                MatchMethod::Verbatim,
                None,
                start,
                self.finder.needle().len(),
            ));
        }
        let structured = view.structured.as_deref();
        if let Some(field) =
            structured.and_then(|s| find_field(s, &|leaf| leaf == self.claim.value))
        {
            return Some(field_match(MatchMethod::StructuredField, None, field));
        }
        for &normalisation in &self.normalisations {
            let text = self.find_normalised(normalisation, output);
            if let Some(span) = text {
                return Some(MatchInfo {
                    method: MatchMethod::Normalised,
                    normalisation: Some(normalisation),
                    field: None,
                    span: Some(span),
                    rescued_from: None,
                });
            }
            let field = structured.and_then(|s| {
                find_field(s, &|leaf: &str| match normalisation {
                    Normalisation::WhitespaceCollapse => {
                        collapse_ascii_whitespace(leaf.as_bytes()).0 == self.collapsed.as_bytes()
                    }
                    Normalisation::HexCase | Normalisation::EmailCase => {
                        leaf.trim().eq_ignore_ascii_case(&self.lower)
                    }
                    Normalisation::PhoneE164 => {
                        normalize_phone(leaf, self.region).ok() == self.e164
                    }
                    Normalisation::DigitSeparators => {
                        strip_digit_separators(leaf.trim()).is_some_and(|d| d == self.digits)
                    }
                    Normalisation::LookAlikeRepair => {
                        let leaf = leaf.trim();
                        find_look_alike(leaf.as_bytes(), self.claim.value.trim())
                            .is_some_and(|span| span.start == 0 && span.end == leaf.len())
                    }
                })
            });
            if let Some(field) = field {
                return Some(field_match(
                    MatchMethod::Normalised,
                    Some(normalisation),
                    field,
                ));
            }
        }
        None
    }
}

impl Needle<'_> {
    /// The first place in `output` where the value is written as `normalisation` reads it.
    fn find_normalised(&self, normalisation: Normalisation, output: &[u8]) -> Option<Span> {
        match normalisation {
            Normalisation::WhitespaceCollapse => self
                .longest_token()
                .is_some_and(|token| memmem::find(output, token.as_bytes()).is_some())
                .then(|| find_collapsed(output, &self.collapsed))
                .flatten(),
            Normalisation::HexCase | Normalisation::EmailCase => {
                find_ignore_ascii_case(output, &self.lower)
            }
            Normalisation::PhoneE164 => self.e164.as_deref().and_then(|e164| {
                // A candidate normalises to `e164` only if it ends with the same digits.
                let digits = e164.trim_start_matches('+');
                let tail = digits
                    .get(digits.len().saturating_sub(7)..)
                    .unwrap_or(digits);
                has_digits(output, tail)
                    .then(|| {
                        find_number(output, |candidate| {
                            normalize_phone(candidate, self.region).is_ok_and(|c| c == e164)
                        })
                    })
                    .flatten()
            }),
            Normalisation::DigitSeparators => has_digits(output, &self.digits)
                .then(|| {
                    find_number(output, |candidate| {
                        strip_digit_separators(candidate).is_some_and(|d| d == self.digits)
                    })
                })
                .flatten(),
            Normalisation::LookAlikeRepair => find_look_alike(output, self.claim.value.trim()),
        }
    }
}

/// Where a value stands in an invocation's output, found as the gateway finds it: the match
/// the gateway would record (`None` when the output does not hold the value), and every place
/// in the text output where the value is written the way that match found it (empty for a
/// structured field), in order and not overlapping. This is what a viewer highlights: the same
/// methods, in the same order, as grounding.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Occurrences {
    /// The gateway's match (method, normalisation, field or first span).
    pub matched: Option<MatchInfo>,
    /// Every occurrence in the text output (bytes).
    pub spans: Vec<Span>,
}

/// The occurrences of `value` (a fact of `fact_type`) in `output` (and its structured form),
/// with `region` for phone numbers written without a country code.
pub fn occurrences(
    output: &[u8],
    structured: Option<&Value>,
    fact_type: FactType,
    value: &str,
    region: Option<&Region>,
) -> Occurrences {
    let claim = FactClaim {
        fact_type,
        value: value.to_owned(),
        invocation_id: String::new(),
    };
    let none = Occurrences {
        matched: None,
        spans: Vec::new(),
    };
    if value.trim().is_empty() {
        return none;
    }
    let needle = Needle::new(&claim, region);
    let view = InvocationView {
        id: Cow::Borrowed(""),
        source_id: Cow::Borrowed(""),
        agent: Cow::Borrowed(""),
        task_id: Cow::Borrowed(""),
        output: Cow::Borrowed(output),
        structured: structured.map(Cow::Borrowed),
    };
    let Some(matched) = needle.find_in(&view) else {
        return none;
    };
    let spans = match (matched.method, matched.normalisation) {
        (MatchMethod::Verbatim, _) => needle
            .finder
            .find_iter(output)
            .map(|start| Span {
                start,
                end: start + needle.finder.needle().len(),
            })
            // find_iter may overlap ("aa" in "aaa"); a viewer marks disjoint runs
            .fold(Vec::<Span>::new(), |mut acc, span| {
                if acc.last().is_none_or(|last| span.start >= last.end) {
                    acc.push(span);
                }
                acc
            }),
        (MatchMethod::Normalised, Some(normalisation)) if matched.span.is_some() => {
            let mut spans = Vec::new();
            let mut at = 0;
            while at < output.len() {
                let Some(found) = needle.find_normalised(normalisation, &output[at..]) else {
                    break;
                };
                let span = Span {
                    start: at + found.start,
                    end: at + found.end,
                };
                spans.push(span);
                // never stand still on an empty match
                at = span.end.max(span.start + 1);
            }
            spans
        }
        _ => Vec::new(),
    };
    Occurrences {
        matched: Some(matched),
        spans,
    }
}

fn text_match(
    method: MatchMethod,
    normalisation: Option<Normalisation>,
    start: usize,
    len: usize,
) -> MatchInfo {
    MatchInfo {
        method,
        normalisation,
        field: None,
        span: Some(Span {
            start,
            end: start + len,
        }),
        rescued_from: None,
    }
}

fn field_match(
    method: MatchMethod,
    normalisation: Option<Normalisation>,
    field: String,
) -> MatchInfo {
    MatchInfo {
        method,
        normalisation,
        field: Some(field),
        span: None,
        rescued_from: None,
    }
}

/// A hexadecimal string with at least one letter: optional `0x`, then hex digits possibly
/// grouped by `:` or `-` (hashes, ETH addresses, MACs, UUIDs), at least 6 hex digits.
pub(crate) fn is_hex_like(value: &str) -> bool {
    let body = value
        .strip_prefix("0x")
        .or_else(|| value.strip_prefix("0X"))
        .unwrap_or(value);
    let hex_digits = body.bytes().filter(u8::is_ascii_hexdigit).count();
    hex_digits >= 6
        && body
            .bytes()
            .all(|b| b.is_ascii_hexdigit() || b == b':' || b == b'-')
        && body.bytes().any(|b| b.is_ascii_alphabetic())
}

/// The digits of a number written with separators (space, `-`, `.`, `/`), or `None` if it has
/// other characters.
fn strip_digit_separators(value: &str) -> Option<String> {
    let mut digits = String::with_capacity(value.len());
    for c in value.chars() {
        match c {
            '0'..='9' => digits.push(c),
            ' ' | '-' | '.' | '/' | '\t' => {}
            _ => return None,
        }
    }
    Some(digits)
}

/// Collapses runs of ASCII white space to one space and trims; returns the collapsed bytes and,
/// for each of them, its offset in `input`.
fn collapse_ascii_whitespace(input: &[u8]) -> (Vec<u8>, Vec<usize>) {
    let mut out = Vec::with_capacity(input.len());
    let mut map = Vec::with_capacity(input.len());
    let mut pending_space: Option<usize> = None;
    for (i, &b) in input.iter().enumerate() {
        if b.is_ascii_whitespace() {
            if !out.is_empty() && pending_space.is_none() {
                pending_space = Some(i);
            }
        } else {
            if let Some(at) = pending_space.take() {
                out.push(b' ');
                map.push(at);
            }
            out.push(b);
            map.push(i);
        }
    }
    (out, map)
}

fn find_collapsed(output: &[u8], collapsed_value: &str) -> Option<Span> {
    let (text, map) = collapse_ascii_whitespace(output);
    let start = memmem::find(&text, collapsed_value.as_bytes())?;
    let last = start + collapsed_value.len() - 1;
    Some(Span {
        start: *map.get(start)?,
        end: *map.get(last)? + 1,
    })
}

fn find_ignore_ascii_case(output: &[u8], lower_value: &str) -> Option<Span> {
    let lowered = output.to_ascii_lowercase();
    let start = memmem::find(&lowered, lower_value.as_bytes())?;
    Some(Span {
        start,
        end: start + lower_value.len(),
    })
}

/// Prefilter for number matches: whether `digits` occur contiguously in `output` once the
/// separators numbers are written with (white space, `(`, `)`, `.`, `-`, `/`) are dropped and
/// every other non-digit breaks the sequence. A text the number matchers accept always passes.
fn has_digits(output: &[u8], digits: &str) -> bool {
    let Some((&first, rest)) = digits.as_bytes().split_first() else {
        return false;
    };
    memchr::memchr_iter(first, output).any(|start| {
        let mut at = start + 1;
        rest.iter().all(|&digit| {
            loop {
                match output.get(at) {
                    Some(&b) if b == digit => {
                        at += 1;
                        break true;
                    }
                    Some(b' ' | b'\t' | b'(' | b')' | b'.' | b'-' | b'/') => at += 1,
                    _ => break false,
                }
            }
        })
    })
}

/// Finds `value` written with OCR look-alikes ([`look_alike`]) and single spaces inside it: the
/// span must stand alone (not glued to letters or digits either side) and differ from the
/// value only by look-alike characters and spaces.
fn find_look_alike(output: &[u8], value: &str) -> Option<Span> {
    let want: Vec<char> = value.chars().collect();
    let first = *want.first()?;
    let is_word = |b: Option<&u8>| b.is_some_and(|&b| b.is_ascii_alphanumeric());
    for start in 0..output.len() {
        let b = output[start];
        if !b.is_ascii() || !look_alike(char::from(b), first) {
            continue;
        }
        if start > 0 && is_word(output.get(start - 1)) {
            continue;
        }
        let mut at = start;
        let mut k = 0;
        while k < want.len() {
            match output.get(at) {
                Some(&c) if c.is_ascii() && look_alike(char::from(c), want[k]) => {
                    at += 1;
                    k += 1;
                }
                // one space between two characters of the value
                Some(b' ') if k > 0 && output.get(at + 1).is_some_and(|&n| n != b' ') => at += 1,
                _ => break,
            }
        }
        if k == want.len() && !is_word(output.get(at)) {
            return Some(Span { start, end: at });
        }
    }
    None
}

/// Runs of digits and the separators numbers are written with.
static NUMBER_RUN: std::sync::LazyLock<Regex> = std::sync::LazyLock::new(|| {
    Regex::new(r"[+(]?[0-9][0-9 \t().\-/]*[0-9]\)?").expect("valid regex")
});

/// Longest window of white-space separated tokens tried as one number.
const MAX_NUMBER_TOKENS: usize = 6;

/// Finds a number-like piece of text for which `accept` holds. Each run of digits and
/// separators is split on white space, and every window of up to [`MAX_NUMBER_TOKENS`] tokens
/// is tried, so a phone number next to other numbers on a line is still found. A candidate
/// must stand alone: one glued to letters, digits or `_` (inside a hash, an id, a word) is
/// skipped, unless it starts with `+` or `(` (or ends with `)`) at that side.
fn find_number(output: &[u8], accept: impl Fn(&str) -> bool) -> Option<Span> {
    let is_word = |b: Option<&u8>| b.is_some_and(|&b| b.is_ascii_alphanumeric() || b == b'_');
    for run in NUMBER_RUN.find_iter(output) {
        let base = run.start();
        let bytes = run.as_bytes();
        let tokens = crate::identifiers::token_spans(bytes);
        for (first, &(from, _)) in tokens.iter().enumerate() {
            for &(_, to) in tokens.iter().skip(first).take(MAX_NUMBER_TOKENS) {
                let Some(piece) = bytes
                    .get(from..to)
                    .and_then(|p| std::str::from_utf8(p).ok())
                else {
                    continue;
                };
                let before = (base + from).checked_sub(1).and_then(|i| output.get(i));
                let glued = (!piece.starts_with(['+', '(']) && is_word(before))
                    || (!piece.ends_with(')') && is_word(output.get(base + to)));
                if glued {
                    continue;
                }
                if accept(piece) {
                    return Some(Span {
                        start: base + from,
                        end: base + to,
                    });
                }
            }
        }
    }
    None
}

/// The JSON pointer of the first scalar leaf (in document order) whose text satisfies `eq`.
/// Strings compare as they are, numbers and booleans by their JSON text.
fn find_field(value: &Value, eq: &dyn Fn(&str) -> bool) -> Option<String> {
    fn walk(value: &Value, path: &mut String, eq: &dyn Fn(&str) -> bool) -> bool {
        match value {
            Value::String(s) => eq(s),
            Value::Number(n) => eq(&n.to_string()),
            Value::Bool(b) => eq(if *b { "true" } else { "false" }),
            Value::Null => false,
            Value::Array(items) => items.iter().enumerate().any(|(i, item)| {
                let len = path.len();
                path.push('/');
                path.push_str(&i.to_string());
                let found = walk(item, path, eq);
                if !found {
                    path.truncate(len);
                }
                found
            }),
            Value::Object(map) => map.iter().any(|(key, item)| {
                let len = path.len();
                path.push('/');
                path.push_str(&key.replace('~', "~0").replace('/', "~1"));
                let found = walk(item, path, eq);
                if !found {
                    path.truncate(len);
                }
                found
            }),
        }
    }
    let mut path = String::new();
    walk(value, &mut path, eq).then_some(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn collapsing_maps_back_to_the_original_bytes() {
        let output = b"  name:\n\t LEUNG    YL \n";
        let span = find_collapsed(output, "name: LEUNG YL").unwrap();
        assert_eq!(&output[span.start..span.end], b"name:\n\t LEUNG    YL");
    }

    #[test]
    fn numbers_are_found_among_other_numbers() {
        let hk = Region::parse("HK").expect("HK is a region");
        let output = b"row 12 2024-01-02 +852 6123 4567 99\n";
        let span = find_number(output, |c| {
            normalize_phone(c, Some(&hk)).is_ok_and(|p| p == "+85261234567")
        })
        .unwrap();
        assert_eq!(&output[span.start..span.end], b"+852 6123 4567");
    }

    /// The text of each span.
    fn marked(output: &[u8], o: &Occurrences) -> Vec<String> {
        o.spans
            .iter()
            .map(|s| String::from_utf8_lossy(&output[s.start..s.end]).into_owned())
            .collect()
    }

    #[test]
    fn occurrences_mark_every_place_the_gateways_own_method_finds() {
        let hk = Region::parse("HK").expect("HK is a region");
        // verbatim: every occurrence, never overlapping
        let out = b"aaa aa a";
        let o = occurrences(out, None, FactType::Identifier, "aa", None);
        assert_eq!(
            o.matched.as_ref().map(|m| m.method),
            Some(MatchMethod::Verbatim)
        );
        assert_eq!(
            o.spans,
            vec![Span { start: 0, end: 2 }, Span { start: 4, end: 6 }]
        );
        // a phone in national and spaced spellings, by the E.164 normalisation the gateway
        // records; the number inside a longer one is not marked
        let out = b"from 6123 4567 to +852-6123-4567; ref 9961234567890; 61234567.\n";
        let o = occurrences(out, None, FactType::Phone, "+85261234567", Some(&hk));
        let m = o.matched.clone().expect("found");
        assert_eq!(m.normalisation, Some(Normalisation::PhoneE164));
        assert_eq!(marked(out, &o), ["6123 4567", "+852-6123-4567", "61234567"]);
        // the match is the one grounding records
        let grounded = ground_in(
            std::str::from_utf8(out).unwrap(),
            FactType::Phone,
            "+85261234567",
        );
        assert_eq!(grounded.expect("grounded").matched, m);
        assert_eq!(o.spans.first().copied(), m.span);
        // e-mail case
        let out = b"To: Leung.YL@Example.org, cc leung.yl@example.ORG";
        let o = occurrences(out, None, FactType::Email, "leung.yl@example.org", None);
        assert_eq!(marked(out, &o).len(), 2);
        // a structured field holds it: the match names the field, no text span
        let json = serde_json::json!({"rows": [{"imei": "356938035643809"}]});
        let o = occurrences(b"{}", Some(&json), FactType::Imei, "356938035643809", None);
        let m = o.matched.expect("found in the field");
        assert_eq!(m.field.as_deref(), Some("/rows/0/imei"));
        assert!(o.spans.is_empty());
        // absent, or blank
        assert_eq!(
            occurrences(
                b"nothing here",
                None,
                FactType::Phone,
                "+85261234567",
                Some(&hk)
            )
            .matched,
            None
        );
        assert_eq!(
            occurrences(b"   ", None, FactType::Identifier, "  ", None).matched,
            None
        );
    }

    #[test]
    fn field_pointers_escape_keys() {
        let value = serde_json::json!({"rows": [{"a/b": 1}, {"x~": "needle"}]});
        assert_eq!(
            find_field(&value, &|s| s == "needle").as_deref(),
            Some("/rows/1/x~0")
        );
        assert_eq!(
            find_field(&value, &|s| s == "1").as_deref(),
            Some("/rows/0/a~1b")
        );
        assert_eq!(find_field(&value, &|s| s == "nothing"), None);
    }

    #[test]
    fn read_once_reads_a_cited_output_once_for_all_its_facts() {
        struct Counting<'a>(&'a crate::MemoryLog, std::cell::Cell<usize>);
        impl InvocationLog for Counting<'_> {
            fn get(&self, id: &str) -> Option<InvocationView<'_>> {
                self.1.set(self.1.get() + 1);
                self.0.get(id)
            }
            fn ids_for(&self, agent: &str, task_id: &str) -> Cow<'_, [String]> {
                self.0.ids_for(agent, task_id)
            }
        }
        let rows: String = (0..50).map(|i| format!("{i}\t/f{i}\n")).collect();
        let memory: crate::MemoryLog = [crate::MemoryInvocation {
            id: "inv-1".into(),
            source_id: "src".into(),
            agent: "a".into(),
            task_id: "t".into(),
            output: rows.into_bytes(),
            structured: None,
        }]
        .into_iter()
        .collect();
        let claims: Vec<FactClaim> = (0..50)
            .map(|i| FactClaim {
                fact_type: FactType::Path,
                value: format!("/f{i}"),
                invocation_id: "inv-1".into(),
            })
            .collect();
        let asker = Asker {
            agent: "a",
            task_id: "t",
            region: None,
        };
        let counting = Counting(&memory, std::cell::Cell::new(0));
        let direct = ground_facts(&counting, &asker, &claims).expect("grounded");
        assert_eq!(counting.1.get(), 50, "without it: one read per fact");
        let counting = Counting(&memory, std::cell::Cell::new(0));
        let once = ReadOnce::new(&counting, ["inv-1"]);
        let facts = ground_facts(&once, &asker, &claims).expect("grounded");
        assert!(once.get("inv-1").is_some());
        assert_eq!(counting.1.get(), 1, "with it: one read in all");
        assert_eq!(facts, direct);
        // An id it was not given is read through.
        assert!(once.get("inv-2").is_none());
        assert_eq!(counting.1.get(), 2);
    }

    fn ground_in(output: &str, fact_type: FactType, value: &str) -> Result<Fact, FailingFact> {
        let log: crate::MemoryLog = [crate::MemoryInvocation {
            id: "inv-1".into(),
            source_id: "src".into(),
            agent: "a".into(),
            task_id: "t".into(),
            output: output.as_bytes().to_vec(),
            structured: None,
        }]
        .into_iter()
        .collect();
        let hk = Region::parse("HK").expect("HK is a region");
        let asker = Asker {
            agent: "a",
            task_id: "t",
            region: Some(&hk),
        };
        let claim = FactClaim {
            fact_type,
            value: value.into(),
            invocation_id: "inv-1".into(),
        };
        ground_fact(&log, &asker, 0, &claim)
    }

    #[test]
    fn digit_prefilter_skips_separators_only() {
        assert!(has_digits(b"x +852 (6123) 45-67 y", "85261234567"));
        assert!(has_digits(b"61234567", "1234567"));
        assert!(!has_digits(b"6123:4567", "61234567"));
        assert!(!has_digits(b"6123\n4567", "61234567"));
        assert!(!has_digits(b"", "1"));
        assert!(!has_digits(b"123", ""));
    }

    proptest::proptest! {
        /// Whatever spelling the output uses, among other numbers, a phone fact in another
        /// spelling is found (the digit prefilter never hides a true match), at the right span.
        #[test]
        fn phones_are_found_in_any_spelling(
            national in 20_000_000u32..99_999_999,
            written in 0usize..6,
            asked in 0usize..6,
            before in "[a-z0-9 |:,]{0,12}",
            after in "[ |:,][a-z0-9 |:,]{0,12}",
        ) {
            let n = national.to_string();
            let (a, b) = n.split_at(4);
            let spell = |k: usize| match k {
                0 => format!("+852 {a} {b}"),
                1 => n.clone(),
                2 => format!("(852) {a}-{b}"),
                3 => format!("852-{a}-{b}"),
                4 => format!("00852 {a} {b}"),
                _ => format!("+852.{a}.{b}"),
            };
            let in_output = spell(written);
            let before = if before.ends_with(|c: char| c.is_ascii_alphanumeric()) { format!("{before}|") } else { before };
            let output = format!("{before}{in_output}{after}\n");
            let fact = ground_in(&output, FactType::Phone, &spell(asked));
            proptest::prop_assert!(fact.is_ok(), "{output:?} {:?}", spell(asked));
            let span = fact.unwrap().matched.span.unwrap();
            let found = &output[span.start..span.end];
            proptest::prop_assert_eq!(normalize_phone(found, Some(&Region::parse("HK").expect("HK is a region"))).ok(), Some(format!("+852{n}")));
        }
    }

    #[test]
    fn normalised_numbers_must_stand_alone() {
        let output = "hash a61234567b id_61234567 x 352099001761481z";
        assert!(ground_in(output, FactType::Phone, "+852 6123 4567").is_err());
        assert!(ground_in(output, FactType::Imei, "35-209900-176148-1").is_err());
        // The agent's literal value is still found verbatim, wherever it is.
        assert!(ground_in(output, FactType::Phone, "61234567").is_ok());
        assert!(ground_in("tel:+852-6123-4567;", FactType::Phone, "61234567").is_ok());
    }

    #[test]
    fn an_imei_with_separators_is_found_and_a_different_one_is_not() {
        let output = "IMEI 35 209900 176148 1, IMEI2 490154203237518";
        assert!(ground_in(output, FactType::Imei, "352099001761481").is_ok());
        assert!(ground_in(output, FactType::Imei, "49-015420-323751-8").is_ok());
        assert!(ground_in(output, FactType::Imei, "352099001761482").is_err());
    }

    #[test]
    fn hex_like() {
        assert!(is_hex_like("D41D8CD98F00B204E9800998ECF8427E"));
        assert!(is_hex_like("0xAbC123"));
        assert!(is_hex_like("aa:bb:cc:dd:ee:ff"));
        assert!(!is_hex_like("123456"));
        assert!(!is_hex_like("hello"));
        assert!(!is_hex_like("abc"));
    }

    #[test]
    fn a_wallet_is_found_as_its_look_alike_spelling_only_when_valid() {
        let output = "To\nbclqmvOm9awsm3pf 3gmvuapuld2ep6q59ktq2j 9x37\nTime\n";
        let fact = ground_in(
            output,
            FactType::Wallet,
            "bc1qmv0m9awsm3pf3gmvuapuld2ep6q59ktq2j9x37",
        )
        .unwrap();
        assert_eq!(
            fact.matched.normalisation,
            Some(Normalisation::LookAlikeRepair)
        );
        let span = fact.matched.span.unwrap();
        assert_eq!(
            &output[span.start..span.end],
            "bclqmvOm9awsm3pf 3gmvuapuld2ep6q59ktq2j 9x37"
        );
        // Same spelling but a checksum-failing value (last character changed): refused.
        let failed = ground_in(
            output,
            FactType::Wallet,
            "bc1qmv0m9awsm3pf3gmvuapuld2ep6q59ktq2j9x38",
        )
        .unwrap_err();
        assert!(failed.tried.iter().all(|t| t != "look_alike_repair"));
        // Only wallet facts are repaired.
        assert!(
            ground_in(
                output,
                FactType::Text,
                "bc1qmv0m9awsm3pf3gmvuapuld2ep6q59ktq2j9x37"
            )
            .is_err()
        );
        // Glued to other letters: not a stand-alone token.
        assert!(
            ground_in(
                "xbclqmvOm9awsm3pf3gmvuapuld2ep6q59ktq2j9x37",
                FactType::Wallet,
                "bc1qmv0m9awsm3pf3gmvuapuld2ep6q59ktq2j9x37"
            )
            .is_err()
        );
    }
}
