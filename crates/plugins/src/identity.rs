//! Recording helpers shared by the Android, disk and archive agents: identity observations
//! checked against the one normaliser before they are submitted, phenomena whose rejection is
//! logged, the file systems of a source, and the raw (escaped) form of a `sqlite_query` cell.

use masf_agents::{AgentCtx, Observation, PhenomenonDraft, RuntimeError};
use masf_graph::identifiers::normalize;
use masf_graph::{EntityKind, IdType, Verdict};
use masf_tools::Invoked;

/// Observes `value` as an `id_type` identifier of the entity `context` (of `kind`, labelled
/// `label`), citing `cite`. A value the normaliser refuses is not submitted (it would only be
/// rejected), nor a placeholder (`masf_graph::identifiers::placeholder`); returns whether the gateway accepted the observation (a repeat counts as accepted).
#[allow(clippy::too_many_arguments)]
pub fn observe(
    ctx: &AgentCtx<'_>,
    context: &str,
    kind: EntityKind,
    label: &str,
    id_type: IdType,
    value: &str,
    cite: &Invoked,
    interpretation: String,
) -> Result<bool, RuntimeError> {
    observe_cued(
        ctx,
        context,
        kind,
        label,
        id_type,
        value,
        cite,
        interpretation,
        None,
    )
}

/// The other uid of a one-to-one conversation (its id `0:1:<a>:<b>` names both), `None` for a
/// group or another form. TikTok's and Douyin's, on Android and iOS alike.
pub fn tiktok_one_to_one_other<'a>(conversation: &'a str, me: &str) -> Option<&'a str> {
    let rest = conversation.strip_prefix("0:1:")?;
    let others: Vec<&str> = rest
        .split(':')
        .filter(|u| *u != me && !u.is_empty())
        .collect();
    match others.as_slice() {
        [one] => Some(one),
        _ => None,
    }
}

/// Observes each `(column, type, what)` whose cell in `row` of `t` is not empty as an identifier
/// of the person `context` (`label`, should it be new), citing `cite`; `why(what)` is each
/// observation's interpretation.
#[allow(clippy::too_many_arguments)]
pub fn observe_columns(
    ctx: &AgentCtx<'_>,
    context: &str,
    label: &str,
    t: &crate::outputs::Table,
    row: &[Option<String>],
    cite: &Invoked,
    ids: &[(&str, IdType, &str)],
    why: &dyn Fn(&str) -> String,
) -> Result<(), RuntimeError> {
    for (col, id_type, what) in ids {
        if let Some(v) = t.get(row, col).filter(|v| !v.is_empty()) {
            observe(
                ctx,
                context,
                EntityKind::Person,
                label,
                *id_type,
                v,
                cite,
                why(what),
            )?;
        }
    }
    Ok(())
}

/// The person a row names by the service-qualified id of its `qualified` column (the
/// entity's context), labelled by the row's `label` column (else that id): each of `ids`
/// observed as [`observe_columns`] observes them, `why(what, who)` each interpretation.
/// Nothing when the row has no such id.
#[allow(clippy::too_many_arguments)]
pub fn observe_row_person(
    ctx: &AgentCtx<'_>,
    t: &crate::outputs::Table,
    row: &[Option<String>],
    cite: &Invoked,
    label: &str,
    ids: &[(&str, IdType, &str)],
    why: &dyn Fn(&str, &str) -> String,
) -> Result<(), RuntimeError> {
    let Some(q) = t.get(row, "qualified") else {
        return Ok(());
    };
    let who = t.get(row, label).unwrap_or(q);
    observe_columns(ctx, q, who, t, row, cite, ids, &|what| why(what, who))
}

/// [`observe`] with the cue word of a control claim (see [`observe_written_wallets`]).
#[allow(clippy::too_many_arguments)]
pub fn observe_cued(
    ctx: &AgentCtx<'_>,
    context: &str,
    kind: EntityKind,
    label: &str,
    id_type: IdType,
    value: &str,
    cite: &Invoked,
    interpretation: String,
    cue: Option<&str>,
) -> Result<bool, RuntimeError> {
    if normalize(id_type, value, ctx.phone_region().as_ref()).is_err()
        || masf_graph::identifiers::placeholder(id_type, value).is_some()
    {
        // Not valid, or a placeholder (kept in the artefact's phenomenon, no identity).
        return Ok(false);
    }
    let verdict = ctx.observe(Observation {
        context: context.to_string(),
        entity_kind: kind,
        label: label.to_string(),
        id_type,
        value: value.to_string(),
        invocation_id: cite.record.invocation_id.clone(),
        interpretation,
        cue: cue.map(str::to_owned),
    })?;
    log_rejection(&verdict, context);
    Ok(verdict.is_accepted())
}

/// The wallet claims of one message (`observe_written_wallets`): the device's user (`owner`,
/// in `owner_role`) and the other party of a one-to-one conversation are its writer and reader
/// by its direction. A received message whose writer is not known (a group's) makes no claim.
#[allow(clippy::too_many_arguments)]
pub fn message_claims(
    ctx: &AgentCtx<'_>,
    inv: &Invoked,
    text: &str,
    what: &str,
    sent: bool,
    owner_role: &str,
    other: Option<Party<'_>>,
) -> Result<usize, RuntimeError> {
    let owner = Some(Party {
        context: "owner",
        label: "device owner",
        role: owner_role,
    });
    let (writer, reader) = match (sent, other.is_some()) {
        (true, _) => (owner, other),
        (false, true) => (other, owner),
        (false, false) => (None, None),
    };
    observe_written_wallets(
        ctx.phone_region().as_ref(),
        text,
        what,
        writer,
        reader,
        &mut |c, k, lb, ty, v, i, cue| observe_cued(ctx, c, k, lb, ty, v, inv, i, cue),
    )
}

/// [`message_claims`] of a message by its direction: `sent` by the device's user (who wrote it)
/// or received; `other` — the party's entity context and label — is the one who sent a received
/// message, or the one a sent message went to where a one-to-one conversation names them
/// (`None` in a group: the reader is not known, only the writer's side is said).
pub fn claims_by_direction(
    ctx: &AgentCtx<'_>,
    inv: &Invoked,
    text: &str,
    what: &str,
    sent: bool,
    other: Option<(&str, &str)>,
) -> Result<usize, RuntimeError> {
    let role = other.map(|(_, label)| {
        format!(
            "{label}, {}",
            if sent {
                "to whom it was sent"
            } else {
                "who sent it"
            }
        )
    });
    message_claims(
        ctx,
        inv,
        text,
        what,
        sent,
        &format!(
            "the device's user, who {} it",
            if sent { "wrote" } else { "received" }
        ),
        other
            .zip(role.as_deref())
            .map(|((context, label), role)| Party {
                context,
                label,
                role,
            }),
    )
}

/// The device's user from a query naming at most one account (`sql` selects it with its
/// service-qualified id as `qualified`, e.g. the one sender of a store's outgoing messages):
/// when exactly one row comes back, its `qualified` id is observed on `owner` (`why` says how
/// the row names the device's user). Several rows or none: nothing is said.
pub fn sole_owner(
    ctx: &AgentCtx<'_>,
    tree: &TreeRef,
    path: &str,
    sql: &str,
    what: &str,
    why: &str,
) -> Result<(), RuntimeError> {
    sole_owner_args(ctx, tree, path, sql, &serde_json::Map::new(), what, why)
}

/// [`sole_owner`] with more of `sqlite_query`'s arguments (see [`query_on_args`]).
pub fn sole_owner_args(
    ctx: &AgentCtx<'_>,
    tree: &TreeRef,
    path: &str,
    sql: &str,
    extra: &serde_json::Map<String, serde_json::Value>,
    what: &str,
    why: &str,
) -> Result<(), RuntimeError> {
    let Some((inv, t)) = query_on_args(ctx, tree, path, sql, 2, extra)? else {
        return Ok(());
    };
    let [row] = t.rows.as_slice() else {
        return Ok(());
    };
    observe_columns(
        ctx,
        "owner",
        "device owner",
        &t,
        row,
        &inv,
        &[("qualified", IdType::AccountId, what)],
        &|id| format!("{id} of the device's user: {why}."),
    )
}

/// [`message_claims`] of a one-to-one message whose stored `mark` (`message_type 2`, …) says
/// its direction: `sent` by the device's user (who wrote it) to `other`, or received from it;
/// `other` is the party's entity context, label, and the value the evidence names it by.
#[allow(clippy::too_many_arguments)]
pub fn direction_claims(
    ctx: &AgentCtx<'_>,
    inv: &Invoked,
    text: &str,
    what: &str,
    sent: bool,
    other: (&str, &str, &str),
    mark: &str,
) -> Result<usize, RuntimeError> {
    let (context, label, shown) = other;
    let role = format!(
        "{shown}, {} ({mark})",
        if sent {
            "to whom it was sent"
        } else {
            "who sent it"
        }
    );
    message_claims(
        ctx,
        inv,
        text,
        what,
        sent,
        &format!(
            "the device's user, who {} it",
            if sent { "wrote" } else { "received" }
        ),
        Some(Party {
            context,
            label,
            role: &role,
        }),
    )
}

/// One side of a message, for [`observe_written_wallets`]: the entity context the party is
/// observed under in this source (`owner` for the device's user, the card or `handle:`
/// context of the other party) and their role as the evidence records it.
#[derive(Debug, Clone, Copy)]
pub struct Party<'a> {
    /// Their entity context.
    pub context: &'a str,
    /// A label, should the entity be new.
    pub label: &'a str,
    /// Who they are in this message, for the interpretation ("the device's user, who sent it
    /// (sms.type 2)", "+852…, who sent it (sms.type 1, received)").
    pub role: &'a str,
}

/// A [`Party`] that owns its strings, for a reader that builds them per message.
pub struct OwnedParty {
    pub context: String,
    pub label: String,
    pub role: String,
}

impl OwnedParty {
    /// The party, borrowed.
    pub fn party(&self) -> Party<'_> {
        Party {
            context: &self.context,
            label: &self.label,
            role: &self.role,
        }
    }
}

/// One identity observation, as [`observe_written_wallets`] makes them: `(context, kind,
/// label, id_type, value, interpretation, cue)`, citing the caller's invocation.
pub type ObserveFn<'a> = dyn FnMut(&str, EntityKind, &str, IdType, &str, String, Option<&str>) -> Result<bool, RuntimeError>
    + 'a;

/// Whose address the words before it in a message say it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Holder {
    /// The writer's: "my address", "send … to", "pay to", or nothing said.
    Writer,
    /// The reader's: "your wallet", a payment reported done ("sent … to", "paid … to").
    Reader,
}

/// The sentence an address stands in, up to it: the text after the last `!`, `?`, `;`, `。`,
/// `！`, `？`, `；`, line break, or `.` followed by a space or a line break ("0.05 BTC" does
/// not end one).
fn sentence_before(before: &str) -> &str {
    let mut start = 0;
    let mut chars = before.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        let next = chars.peek().map(|&(_, n)| n);
        let ends = match c {
            '!' | '?' | ';' | '\n' | '。' | '！' | '？' | '；' => true,
            '.' => next.is_none_or(char::is_whitespace),
            _ => false,
        };
        if ends {
            start = i + c.len_utf8();
        }
    }
    &before[start..]
}

/// English cue words: the word and the holder it names.
const CUE_WORDS: [(&str, Holder); 19] = [
    ("my", Holder::Writer),
    ("me", Holder::Writer),
    ("mine", Holder::Writer),
    ("our", Holder::Writer),
    ("us", Holder::Writer),
    ("receive", Holder::Writer),
    ("receiving", Holder::Writer),
    ("send", Holder::Writer),
    ("pay", Holder::Writer),
    ("transfer", Holder::Writer),
    ("deposit", Holder::Writer),
    ("your", Holder::Reader),
    ("you", Holder::Reader),
    ("yours", Holder::Reader),
    ("sent", Holder::Reader),
    ("paid", Holder::Reader),
    ("transferred", Holder::Reader),
    ("deposited", Holder::Reader),
    ("forwarded", Holder::Reader),
];

/// Chinese cue words (simplified and traditional): "my", "our", "receive (money)", "pay to",
/// "transfer to", "top up" name the writer; "your" and a payment reported done (`已` before
/// a payment verb: "已付款到", "已轉賬到") the reader.
const CJK_CUES: [(&str, Holder); 24] = [
    ("我的", Holder::Writer),
    ("我们的", Holder::Writer),
    ("我們的", Holder::Writer),
    ("收款", Holder::Writer),
    ("付款到", Holder::Writer),
    ("付到", Holder::Writer),
    ("转账到", Holder::Writer),
    ("轉賬到", Holder::Writer),
    ("轉帳到", Holder::Writer),
    ("转到", Holder::Writer),
    ("轉到", Holder::Writer),
    ("打到", Holder::Writer),
    ("充值", Holder::Writer),
    ("存入", Holder::Writer),
    ("你的", Holder::Reader),
    ("您的", Holder::Reader),
    ("你们的", Holder::Reader),
    ("你們的", Holder::Reader),
    ("已付", Holder::Reader),
    ("已转", Holder::Reader),
    ("已轉", Holder::Reader),
    ("已发", Holder::Reader),
    ("已發", Holder::Reader),
    ("已打", Holder::Reader),
];

/// The cue nearest the end of `sentence`: its end offset, the holder it names and the word.
fn nearest_cue(sentence: &str) -> Option<(usize, Holder, String)> {
    let mut best: Option<(usize, Holder, String)> = None;
    let mut consider = |end: usize, holder: Holder, word: String| {
        if best.as_ref().is_none_or(|(e, _, _)| end > *e) {
            best = Some((end, holder, word));
        }
    };
    // English words, split on anything but letters, digits and apostrophes.
    let mut start = None;
    for (i, c) in sentence
        .char_indices()
        .chain(std::iter::once((sentence.len(), ' ')))
    {
        let in_word = c.is_alphanumeric() && c.is_ascii() || c == '\'';
        match (start, in_word) {
            (None, true) => start = Some(i),
            (Some(s), false) => {
                let word = sentence[s..i].to_lowercase();
                if let Some(&(_, h)) = CUE_WORDS.iter().find(|(w, _)| *w == word) {
                    consider(i, h, word);
                }
                start = None;
            }
            _ => {}
        }
    }
    for (cue, holder) in CJK_CUES {
        for (at, _) in sentence.match_indices(cue) {
            // A payment verb reported done ("已付款到", "已经转到") is the reader's.
            let done = ["已", "已经", "已經"]
                .iter()
                .any(|p| sentence[..at].ends_with(p));
            let (holder, word) = match (holder, done) {
                (Holder::Writer, true) => {
                    let from = sentence[..at].rfind('已').unwrap_or(at);
                    (Holder::Reader, sentence[from..at + cue.len()].to_string())
                }
                _ => (holder, cue.to_string()),
            };
            consider(at + cue.len(), holder, word);
        }
    }
    best
}

/// Reads whose an address is from the text before it in its sentence ([`sentence_before`]):
/// the cue nearest the address decides ([`CUE_WORDS`], [`CJK_CUES`]) — `my`, `me`, `mine`,
/// `our`, `us`, `receive` and the requests `send`, `pay`, `transfer`, `deposit` name the
/// writer; `your`, `you` and the reports `sent`, `paid`, `transferred`, `deposited`,
/// `forwarded` name the reader; the Chinese words alike. Without a cue the writer is meant
/// ("USDT to T… please"). Returns the holder and the cue word.
pub fn holder_from_text(before: &str) -> (Holder, Option<String>) {
    match nearest_cue(sentence_before(before)) {
        Some((_, holder, word)) => (holder, Some(word)),
        None => (Holder::Writer, None),
    }
}

/// The cue that says an address is the *subject's own* — words of possession or receipt
/// (`my`, `me`, `mine`, `our`, `us`, `receive`, `receiving`, `deposit address`, `我的`, `收款`) —
/// when it is the cue nearest the address. A request to pay ("send to …") or a report of a
/// payment does not say whose it is in a document that is not a message. `None` otherwise.
pub fn own_cue(before: &str) -> Option<String> {
    const OWN: [&str; 11] = [
        "my",
        "me",
        "mine",
        "our",
        "us",
        "receive",
        "receiving",
        "我的",
        "我们的",
        "我們的",
        "收款",
    ];
    let sentence = sentence_before(before);
    match nearest_cue(sentence) {
        Some((_, Holder::Writer, word)) if OWN.contains(&word.as_str()) => Some(word),
        // "deposit address" names the holder's receiving address; "Deposit BTC 1…" is a
        // request that says nothing of whose.
        Some((end, Holder::Writer, word))
            if word == "deposit"
                && sentence
                    .get(end..)
                    .is_some_and(|r| r.trim_start().to_lowercase().starts_with("address")) =>
        {
            Some(word)
        }
        _ => None,
    }
}

/// Words that name a party's role right before their name ("Payee: LEUNG YL", "to CHAN MH,
/// TRC20 address …", "收款人：陳大文"), matched case-insensitively; the Chinese ones are
/// labels only (a colon follows).
const ROLE_WORDS: [&str; 16] = [
    "payee",
    "beneficiary",
    "recipient",
    "receiver",
    "account name",
    "account holder",
    "pay to",
    "payable to",
    "payer",
    "to",
    "from",
    "收款人",
    "收款方",
    "受益人",
    "户名",
    "付款人",
];

/// Words that may stand between a named party and their address: the asset, the network,
/// "address", "wallet" (any word with a digit, such as `TRC20`, too).
const FILLER_WORDS: [&str; 22] = [
    "address", "wallet", "addr", "usdt", "usdc", "btc", "eth", "tron", "trx", "bitcoin",
    "ethereum", "network", "chain", "at", "on", "via", "is", "the", "account", "地址", "钱包",
    "錢包",
];

/// The party named right before an address — `"Payee: LEUNG YL\nUSDT (ERC20): 0x…"`,
/// `"Forward 8,000 USDT to CHAN MH, TRC20 address T…"`, `"收款人：陳大文 錢包 T…"` — as
/// (name, role word). The name follows a role word ([`ROLE_WORDS`]; after a label its colon)
/// and is, for an English role word without a colon, one to four words each starting with a
/// capital letter; only punctuation and [`FILLER_WORDS`] may stand between the name and the
/// address. Looks back to the last blank line (at most 400 bytes). `None` when no party is
/// named so (the address's holder is then read from the cue words, [`holder_from_text`]).
pub fn named_party(before: &str) -> Option<(String, String)> {
    let mut window = before;
    if window.len() > 400 {
        let mut cut = window.len() - 400;
        while !window.is_char_boundary(cut) {
            cut += 1;
        }
        window = &window[cut..];
    }
    if let Some(i) = window.rfind("\n\n").or_else(|| window.rfind("\r\n\r\n")) {
        window = &window[i..];
    }
    let lower = window.to_lowercase();
    if lower.len() != window.len() {
        // Lower-casing changed byte offsets (rare letters); read no party rather than guess.
        return None;
    }
    // Role words, nearest the address first.
    let mut roles: Vec<(usize, &str)> = ROLE_WORDS
        .iter()
        .flat_map(|w| {
            lower
                .match_indices(w)
                .map(|(i, _)| (i, *w))
                .collect::<Vec<_>>()
        })
        .filter(|&(i, w)| {
            // Whole words only.
            let before_ok = lower[..i]
                .chars()
                .next_back()
                .is_none_or(|c| !c.is_alphanumeric() || !c.is_ascii());
            let after_ok = lower[i + w.len()..]
                .chars()
                .next()
                .is_none_or(|c| !c.is_alphanumeric() || !c.is_ascii());
            before_ok && after_ok
        })
        .collect();
    roles.sort_by(|a, b| b.0.cmp(&a.0).then(b.1.len().cmp(&a.1.len())));
    let (at, role) = *roles.first()?;
    let rest = &window[at + role.len()..];
    let after_colon = rest
        .trim_start_matches([' ', '\t'])
        .strip_prefix([':', '：'])
        .map(|r| r.trim_start_matches([' ', '\t', '\u{3000}']));
    let (name, tail) = match after_colon {
        // A label: the name is the rest of its line, up to a comma, a bracket or a tab.
        Some(r) => {
            let end = r
                .find(['\n', '\r', ',', '，', '(', '（', '\t', ';', '；'])
                .unwrap_or(r.len());
            let name = r[..end].trim();
            // A name, not the address itself or a field of numbers.
            if name.is_empty() || name.chars().any(|c| c.is_ascii_digit()) {
                return None;
            }
            (name.to_string(), &r[end..])
        }
        None => {
            if !role.is_ascii() {
                return None;
            }
            let r = rest.trim_start_matches(' ');
            let mut end = 0;
            let mut words = 0;
            let mut next_at = 0;
            for w in r.split(' ') {
                let here = next_at;
                next_at += w.len() + 1;
                // The word without the punctuation after it ("MH," ends the name).
                let core = w.trim_end_matches([',', ':', ';', ')', '，', '：']);
                let capital = core.chars().next().is_some_and(char::is_uppercase)
                    && core
                        .chars()
                        .all(|c| c.is_alphabetic() || c == '.' || c == '-' || c == '\'');
                if !capital
                    || words == 4
                    || FILLER_WORDS.contains(&core.trim_end_matches('.').to_lowercase().as_str())
                {
                    break;
                }
                words += 1;
                end = here + core.len();
                if core.len() != w.len() {
                    break;
                }
            }
            if words == 0 {
                return None;
            }
            (r[..end].trim_end_matches('.').to_string(), &r[end..])
        }
    };
    // Between the name and the address: punctuation and filler only.
    let fits = tail
        .split(|c: char| !(c.is_alphanumeric()))
        .filter(|w| !w.is_empty())
        .all(|w| {
            w.chars().any(|c| c.is_ascii_digit())
                || FILLER_WORDS.contains(&w.to_lowercase().as_str())
        });
    fits.then(|| (name, role.to_string()))
}

/// Observes every wallet address written in `text` (a message, a note) as the wallet entity
/// `wallet:<address>`, and as a *control claim* of the party the words before it name
/// ([`holder_from_text`]): the same address held by that party's person entity
/// (`masf_graph::resolution::plan_control` turns claims into control hypotheses scored
/// against each other). No claim when that party is unknown. The same text also gives the
/// writer's contact claims ([`observe_written_contacts`]) and account-id claims
/// ([`observe_written_accounts`]). Returns how many addresses it saw.
///
/// `observe(context, kind, label, id_type, value, interpretation, cue)` makes each observation,
/// citing the invocation whose output holds `text` (the caller's: [`observe`], or a run that
/// skips repeats).
pub fn observe_written_wallets(
    region: Option<&masf_graph::Region>,
    text: &str,
    what: &str,
    writer: Option<Party<'_>>,
    reader: Option<Party<'_>>,
    observe: &mut ObserveFn<'_>,
) -> Result<usize, RuntimeError> {
    let mut seen = 0;
    // One scan of the text serves the wallet claims and the contact claims.
    let found = crate::extract::identifiers(text, region);
    for f in &found {
        if f.id_type != IdType::Wallet {
            continue;
        }
        seen += 1;
        observe(
            &format!("wallet:{}", f.normalized),
            EntityKind::Wallet,
            &f.normalized,
            IdType::Wallet,
            &f.raw,
            format!("A wallet address written in {what}."),
            None,
        )?;
        let before = text.find(&f.raw).map_or("", |i| &text[..i]);
        if let Some((name, role)) = named_party(before) {
            observe_named(&name, &role, &f.raw, what, observe)?;
            continue;
        }
        let (holder, cue) = holder_from_text(before);
        let party = match holder {
            Holder::Writer => writer,
            Holder::Reader => reader,
        };
        let Some(p) = party else {
            continue;
        };
        let why = match &cue {
            Some(word) => format!("the word \"{word}\" before it names {}", p.role),
            None => format!(
                "nothing before it says whose it is, so it is read as the address of {}",
                p.role
            ),
        };
        observe(
            p.context,
            EntityKind::Person,
            p.label,
            IdType::Wallet,
            &f.raw,
            format!(
                "The wallet address {} is written in {what}; {why}: a claim that they control \
                 it, weighed against any other claim on it.",
                f.raw
            ),
            cue.as_deref(),
        )?;
    }
    observe_written_contacts(&found, text, what, writer, observe)?;
    observe_written_accounts(text, what, writer, observe)?;
    Ok(seen)
}

/// An app account id a writer names as their own ([`account_claims`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AccountClaim {
    /// The app's identifier type ([`IdType::APP_ACCOUNTS`]).
    pub id_type: IdType,
    /// The id as written (occurs verbatim in the text).
    pub raw: String,
    /// Byte offset of `raw` in the text.
    pub start: usize,
    /// The word that made it the writer's own (`my`, `me`, `我的`, `我`, or the app's name
    /// opening a label such as "line id: …").
    pub cue: String,
}

/// App names as written, lower case (ASCII words, matched whole), and their id types.
const ACCOUNT_APPS: [(&str, IdType); 9] = [
    ("wechat", IdType::Wechat),
    ("weixin", IdType::Wechat),
    ("微信", IdType::Wechat),
    ("qq", IdType::Qq),
    ("line", IdType::Line),
    ("telegram", IdType::TelegramUsername),
    ("电报", IdType::TelegramUsername),
    ("電報", IdType::TelegramUsername),
    ("signal", IdType::SignalUsername),
];

/// Words between an app's name and its id that say an id follows ("WeChat ID", "QQ号").
const ACCOUNT_ID_WORDS: [&str; 12] = [
    "id",
    "username",
    "user name",
    "handle",
    "account",
    "number",
    "号",
    "號",
    "账号",
    "帳號",
    "帐号",
    "賬號",
];

/// Words that may stand between `my` and an app's name ("my new WeChat").
const ACCOUNT_ADJECTIVES: [&str; 9] = [
    "new", "other", "personal", "private", "work", "backup", "second", "real", "current",
];

/// Whether an English word ends `words`, `my` + adjectives: the cue `my`; `<verb> me on`:
/// `me`.
fn english_account_cue(sentence: &str) -> Option<String> {
    let lower = sentence.to_lowercase();
    let words: Vec<&str> = lower
        .split(|c: char| !(c.is_alphanumeric() || c == '\'' || c == '’'))
        .filter(|w| !w.is_empty())
        .collect();
    let mut i = words.len();
    if i >= 3
        && ["on", "in", "at", "via", "through"].contains(&words[i - 1])
        && words[i - 2] == "me"
        && CONTACT_VERBS.contains(&words[i - 3])
    {
        return Some("me".into());
    }
    while i > 0 && ACCOUNT_ADJECTIVES.contains(&words[i - 1]) {
        i -= 1;
    }
    (i > 0 && words[i - 1] == "my").then(|| "my".into())
}

/// The Chinese cue right before an app's name: `我的`/`我的新` ("my"), `加我`, `联系我`,
/// `找我` ("add me on", "contact me on").
fn cjk_account_cue(sentence: &str) -> Option<String> {
    let s = sentence.trim_end();
    let s = s.strip_suffix('新').unwrap_or(s);
    if s.ends_with("我的") {
        return Some("我的".into());
    }
    ["加我", "联系我", "聯繫我", "联络我", "聯絡我", "找我"]
        .iter()
        .any(|v| s.ends_with(v))
        .then(|| "我".into())
}

/// The app account ids in `text` that their writer names as their own, read strictly from
/// the words right before the app's name in its sentence: `my` and optional adjectives
/// (`new`, `other`, …) before the app ("my WeChat is abc_123", "my telegram is @handle", "my
/// QQ: 12345678"), `<verb> me on` before it ("add me on LINE: pat.wong"), the Chinese
/// `我的(新)`, `加我`, `联系我`, `找我` before it ("我的微信号是abc_123", "加我微信：abc_123"), or a
/// sentence that opens with the
/// app's name and an id word before a colon ("line id: pat.wong", "微信号：abc_123"). The id
/// follows, after an id word ("ID", "username", "号"), `is`/`是`/`:`; it must be valid for
/// the app ([`masf_graph::identifiers::normalize_app_account`]), and a bare word after `is`
/// must look like an id (a digit, `_`, `.` or a leading `@`: "my line is busy" is no claim).
/// "my friend's WeChat is …", "his line id …" and "加他微信" make none.
pub fn account_claims(text: &str) -> Vec<AccountClaim> {
    let lower = text.to_ascii_lowercase();
    let mut out: Vec<AccountClaim> = Vec::new();
    for (app, id_type) in ACCOUNT_APPS {
        for (at, _) in lower.match_indices(app) {
            let end = at + app.len();
            if app.is_ascii() {
                let before_ok = lower[..at]
                    .chars()
                    .next_back()
                    .is_none_or(|c| !c.is_ascii_alphanumeric());
                let after_ok = lower[end..]
                    .chars()
                    .next()
                    .is_none_or(|c| !c.is_ascii_alphanumeric());
                if !before_ok || !after_ok {
                    continue;
                }
            }
            // What follows: id words, then `is`/`是`/`:`, then the id.
            let mut rest = &text[end..];
            let mut id_word = false;
            let mut labelled = false;
            loop {
                let trimmed = rest.trim_start_matches([' ', '\t']);
                let lowered = trimmed.to_ascii_lowercase();
                if let Some(w) = ACCOUNT_ID_WORDS.iter().find(|w| {
                    lowered.starts_with(*w)
                        && (!w.is_ascii()
                            || lowered[w.len()..]
                                .chars()
                                .next()
                                .is_none_or(|c| !c.is_ascii_alphanumeric()))
                }) {
                    id_word = true;
                    rest = &trimmed[w.len()..];
                    continue;
                }
                if let Some(r) = trimmed
                    .strip_prefix([':', '：', '='])
                    .or_else(|| trimmed.strip_prefix("是"))
                    .or_else(|| trimmed.strip_prefix("为"))
                    .or_else(|| trimmed.strip_prefix("為"))
                {
                    labelled |= !trimmed.starts_with(['是', '为', '為']);
                    rest = r;
                    continue;
                }
                if ["is ", "now "].iter().any(|w| lowered.starts_with(w)) {
                    rest = &trimmed[lowered.find(' ').unwrap_or(0)..];
                    continue;
                }
                rest = trimmed;
                break;
            }
            let len = rest
                .char_indices()
                .find(|&(_, c)| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '@' | '-')))
                .map_or(rest.len(), |(i, _)| i);
            let token = rest[..len].trim_end_matches(['.', '-']);
            if token.is_empty()
                || masf_graph::identifiers::normalize(id_type, token, None).is_err()
                || masf_graph::identifiers::placeholder(id_type, token).is_some()
            {
                continue;
            }
            let looks_like_id = token.starts_with('@')
                || token.contains(|c: char| c.is_ascii_digit() || c == '_' || c == '.');
            if !(looks_like_id || id_word || labelled) {
                continue;
            }
            let sentence = sentence_before(&text[..at]);
            let opens = sentence.trim().is_empty() && id_word && labelled;
            let cue = english_account_cue(sentence)
                .or_else(|| cjk_account_cue(sentence))
                .or_else(|| opens.then(|| app.to_string()));
            let Some(cue) = cue else {
                continue;
            };
            let start = text.len() - rest.len();
            if out.iter().any(|c| c.start == start) {
                continue;
            }
            out.push(AccountClaim {
                id_type,
                raw: token.to_string(),
                start,
                cue,
            });
        }
    }
    out.sort_by_key(|c| c.start);
    out
}

/// Observes every app account id in `text` its writer names as their own ([`account_claims`])
/// as a claim of the writer's person entity (type [`IdType::Wechat`], [`IdType::Qq`], …, with
/// the cue), which resolution weighs like a contact claim. No claim when the writer is
/// unknown. Returns how many claims it made.
pub fn observe_written_accounts(
    text: &str,
    what: &str,
    writer: Option<Party<'_>>,
    observe: &mut ObserveFn<'_>,
) -> Result<usize, RuntimeError> {
    let Some(writer) = writer else {
        return Ok(0);
    };
    let mut made = 0;
    for c in account_claims(text) {
        let app = match c.id_type {
            IdType::Wechat => "WeChat ID",
            IdType::Qq => "QQ number",
            IdType::Line => "LINE ID",
            IdType::TelegramUsername => "Telegram user name",
            _ => "Signal user name",
        };
        if observe(
            writer.context,
            EntityKind::Person,
            writer.label,
            c.id_type,
            &c.raw,
            format!(
                "The {app} {} is written in {what} by {}, who names it as their own (\"{}\" \
                 right before it): a claim that they use it.",
                c.raw, writer.role, c.cue
            ),
            Some(&c.cue),
        )? {
            made += 1;
        }
    }
    Ok(made)
}

/// Words that may stand between `my` and the noun of a contact claim ("my new work number").
const CONTACT_ADJECTIVES: [&str; 33] = [
    "new",
    "other",
    "second",
    "2nd",
    "work",
    "office",
    "personal",
    "private",
    "cell",
    "mobile",
    "phone",
    "home",
    "direct",
    "current",
    "updated",
    "backup",
    "spare",
    "temporary",
    "temp",
    "whatsapp",
    "wechat",
    "telegram",
    "signal",
    "viber",
    "line",
    "local",
    "overseas",
    "real",
    "email",
    "e-mail",
    "contact",
    "hk",
    "us",
];

/// Nouns of a contact claim ("my number", "my email address").
const CONTACT_NOUNS: [&str; 17] = [
    "number",
    "no",
    "num",
    "phone",
    "cell",
    "mobile",
    "tel",
    "telephone",
    "contact",
    "email",
    "e-mail",
    "mail",
    "address",
    "whatsapp",
    "wechat",
    "telegram",
    "signal",
];

/// Words between the noun and the value ("my number is now …", "my number changed to …").
const CONTACT_FILLERS: [&str; 16] = [
    "is",
    "now",
    "will",
    "be",
    "it's",
    "its",
    "currently",
    "still",
    "here",
    "below",
    "was",
    "changed",
    "to",
    "has",
    "been",
    "moved",
];

/// Verbs of "<verb> me at …".
const CONTACT_VERBS: [&str; 19] = [
    "call", "text", "reach", "contact", "message", "msg", "email", "e-mail", "mail", "whatsapp",
    "wechat", "ring", "phone", "sms", "ping", "dm", "add", "find", "follow",
];

/// Apps a number is reached on: "add me on WhatsApp: +852 …".
const CONTACT_APPS: [&str; 7] = [
    "whatsapp", "signal", "telegram", "wechat", "viber", "line", "imessage",
];

/// Chinese nouns of a contact claim after 我的 (longest first).
const CJK_CONTACT_NOUNS: [&str; 18] = [
    "电话号码",
    "電話號碼",
    "手机号码",
    "手機號碼",
    "联系方式",
    "聯繫方式",
    "手机号",
    "手機號",
    "微信号",
    "微信號",
    "电话",
    "電話",
    "号码",
    "號碼",
    "手机",
    "手機",
    "邮箱",
    "郵箱",
];

/// The cue that makes a phone number or e-mail address right after `before` the *writer's
/// own* contact (a contact claim, `masf_graph::Identifier::is_claim`), read strictly from the
/// words right before it in its sentence: `my` + optional qualifiers + a contact noun + filler
/// ("my new number is …", "My email: …", "my work cell …"; cue `my`), `<verb> me at|on|via`
/// ("call me at …", "email me on …"; cue `me`), a sentence opening "New number: …" (cue `new`),
/// and the Chinese `我的(新)<noun>(是)：` (cue `我的`) and `联系我/打给我/找我：` (cue `我`).
/// Anything else — "my brother's number is …", "call him at …", a bare number — is no claim.
pub fn contact_cue(before: &str) -> Option<String> {
    let sentence = sentence_before(before);
    // Chinese: no spaces; the suffix decides.
    let cjk = sentence.trim_end_matches(|c: char| {
        c.is_whitespace() || matches!(c, ':' | '：' | '是' | '为' | '為' | '，' | ',' | '、')
    });
    for noun in CJK_CONTACT_NOUNS {
        if let Some(rest) = cjk.strip_suffix(noun) {
            let rest = rest.strip_suffix('新').unwrap_or(rest);
            if rest.ends_with("我的") {
                return Some("我的".into());
            }
        }
    }
    for verb in [
        "联系我",
        "聯繫我",
        "联络我",
        "聯絡我",
        "打给我",
        "打給我",
        "找我",
        "致电我",
        "致電我",
    ] {
        if cjk.ends_with(verb) {
            return Some("我".into());
        }
    }
    let lower = sentence.to_lowercase();
    let words: Vec<&str> = lower
        .split(|c: char| !(c.is_alphanumeric() || c == '\'' || c == '’' || c == '-'))
        .filter(|w| !w.is_empty())
        .collect();
    let mut i = words.len();
    // "<verb> me at …"
    if i >= 3
        && ["at", "on", "via", "through"].contains(&words[i - 1])
        && words[i - 2] == "me"
        && CONTACT_VERBS.contains(&words[i - 3])
    {
        return Some("me".into());
    }
    // "add me on WhatsApp: …", "text me on Signal at …"
    let mut j = i;
    while j > 0 && ["at", "number", "no", "is", "id"].contains(&words[j - 1]) {
        j -= 1;
    }
    if j >= 4
        && CONTACT_APPS.contains(&words[j - 1])
        && ["on", "via", "in"].contains(&words[j - 2])
        && words[j - 3] == "me"
        && CONTACT_VERBS.contains(&words[j - 4])
    {
        return Some("me".into());
    }
    while i > 0 && CONTACT_FILLERS.contains(&words[i - 1]) {
        i -= 1;
    }
    if i == 0 || !CONTACT_NOUNS.contains(&words[i - 1]) {
        return None;
    }
    i -= 1;
    let mut new = false;
    while i > 0 && CONTACT_ADJECTIVES.contains(&words[i - 1]) {
        new |= words[i - 1] == "new";
        i -= 1;
    }
    if i > 0 && words[i - 1] == "my" {
        Some("my".into())
    } else if i == 0 && new {
        Some("new".into())
    } else {
        None
    }
}

/// Observes every phone number and e-mail address of `found` (the identifiers
/// `crate::extract::identifiers` found in `text`) that its writer names as their own
/// ([`contact_cue`]) as a *contact claim* of the writer: the value held by the writer's
/// person entity with the cue, which resolution weighs as one `direct_evidence` edge toward
/// whoever holds the value as their own (`masf_graph::resolution`), never as a shared key. No
/// claim when the writer is unknown. Returns how many claims it made.
pub fn observe_written_contacts(
    found: &[crate::extract::Found],
    text: &str,
    what: &str,
    writer: Option<Party<'_>>,
    observe: &mut ObserveFn<'_>,
) -> Result<usize, RuntimeError> {
    let Some(writer) = writer else {
        return Ok(0);
    };
    let mut made = 0;
    for f in found {
        if !matches!(f.id_type, IdType::Phone | IdType::Email) {
            continue;
        }
        let Some(cue) = contact_cue(&text[..f.span.start]) else {
            continue;
        };
        let kind = if f.id_type == IdType::Phone {
            "phone number"
        } else {
            "e-mail address"
        };
        if observe(
            writer.context,
            EntityKind::Person,
            writer.label,
            f.id_type,
            &f.raw,
            format!(
                "The {kind} {} is written in {what} by {}, who names it as their own (\"{cue}\" \
                 right before it): a claim that they use it.",
                f.raw, writer.role
            ),
            Some(&cue),
        )? {
            made += 1;
        }
    }
    Ok(made)
}

/// Observes the claim of a party named right before an address ([`named_party`]): the
/// person entity `named:<name>` holding the name and the address, with the role word as its
/// cue. Resolution gives the claim to the one actor known by that name, and to nobody when
/// no actor or several are (`masf_graph::resolution::is_named`).
pub fn observe_named(
    name: &str,
    role: &str,
    address: &str,
    what: &str,
    observe: &mut ObserveFn<'_>,
) -> Result<(), RuntimeError> {
    let context = format!("named:{name}");
    observe(
        &context,
        EntityKind::Person,
        name,
        IdType::DisplayName,
        name,
        format!("{name} is named as the party (\"{role}\") of a wallet address in {what}."),
        None,
    )?;
    observe(
        &context,
        EntityKind::Person,
        name,
        IdType::Wallet,
        address,
        format!(
            "The wallet address {address} is written in {what} right after \"{role}\" and \
             the name {name}: a claim that {name} controls it, given to the one person known \
             by that name and weighed against any other claim on it."
        ),
        Some(role),
    )?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{Holder, contact_cue, holder_from_text, named_party, own_cue};

    #[test]
    fn contact_claims_need_first_person_words_right_before_the_value() {
        for (before, cue) in [
            ("Hi, my new number is ", Some("my")),
            ("My email: ", Some("my")),
            ("my work cell ", Some("my")),
            ("FYI my number changed to ", Some("my")),
            ("my WhatsApp number is now ", Some("my")),
            ("You can call me at ", Some("me")),
            ("email me on ", Some("me")),
            ("New number: ", Some("new")),
            ("我的新号码是：", Some("我的")),
            ("我的電話：", Some("我的")),
            ("有事联系我：", Some("我")),
            ("add me on WhatsApp: ", Some("me")),
            ("Text me on Signal at ", Some("me")),
            ("add him on WhatsApp: ", None),
            // Not the writer's own.
            ("my brother's number is ", None),
            ("my wife’s number is ", None),
            ("call him at ", None),
            ("his number is ", None),
            ("your new number is ", None),
            ("is this the number ", None),
            ("New number for the office: ", None),
            ("", None),
            ("他的号码是", None),
            // Another sentence's cue does not carry over.
            ("That is my number. Ask ", None),
        ] {
            assert_eq!(contact_cue(before).as_deref(), cue, "{before:?}");
        }
    }

    #[test]
    fn account_claims_need_the_writers_own_words_right_before_the_app() {
        use masf_graph::IdType::{Line, Qq, SignalUsername, TelegramUsername, Wechat};
        for (text, expect) in [
            ("my WeChat is abc_123", Some((Wechat, "abc_123", "my"))),
            (
                "Hi! my wechat id: chanmh88, thanks",
                Some((Wechat, "chanmh88", "my")),
            ),
            (
                "My new WeChat ID is Chan_MH.",
                Some((Wechat, "Chan_MH", "my")),
            ),
            (
                "add me on WeChat: pat_wong1",
                Some((Wechat, "pat_wong1", "me")),
            ),
            ("add me on LINE: pat.wong", Some((Line, "pat.wong", "me"))),
            (
                "my telegram is @pat_wong",
                Some((TelegramUsername, "@pat_wong", "my")),
            ),
            (
                "Add me on Telegram @PatWong88",
                Some((TelegramUsername, "@PatWong88", "me")),
            ),
            (
                "add me on Signal: pat.42",
                Some((SignalUsername, "pat.42", "me")),
            ),
            ("my QQ is 12345678", Some((Qq, "12345678", "my"))),
            ("line id: pat.wong", Some((Line, "pat.wong", "line"))),
            ("OK. WeChat ID: chanmh", Some((Wechat, "chanmh", "wechat"))),
            ("我的微信是abc_123", Some((Wechat, "abc_123", "我的"))),
            (
                "你好，我的微信号：chan_mh88 谢谢",
                Some((Wechat, "chan_mh88", "我的")),
            ),
            ("加我微信：pat_wong1", Some((Wechat, "pat_wong1", "我"))),
            ("微信号：chanmh88", Some((Wechat, "chanmh88", "微信"))),
            ("我的QQ是12345678", Some((Qq, "12345678", "我的"))),
            ("我的新微信 abc_2024", Some((Wechat, "abc_2024", "我的"))),
            // Not the writer's own, or not an id.
            ("my friend's WeChat is abc_123", None),
            ("his line id is pat.wong", None),
            ("Her telegram: @pat_wong", None),
            ("加他微信：pat_wong1", None),
            ("他的微信号：chanmh88", None),
            ("我朋友的微信是abc_123", None),
            ("my line is busy", None),
            ("my telegram arrived", None),
            ("my signal is weak", None),
            ("my wechat is 85291234567", None),
            ("WeChat: abc_123", None),
            ("That is my wechat. His is abc_123", None),
            ("my QQ is 0123", None),
            ("my wechat id: unknown", None),
        ] {
            let got = super::account_claims(text);
            let got = got
                .first()
                .map(|c| (c.id_type, c.raw.as_str(), c.cue.as_str()));
            assert_eq!(got, expect, "{text:?}");
        }
        // Text that ends or breaks anywhere: no claim, no panic.
        for text in [
            "my wechat",
            "my wechat id:",
            "我的微信",
            "我的微信是",
            "加我微信：",
            "my wechat is İİİİİİ",
            "my ｗｅｃｈａｔ is abc_123",
            "my wechat id id id id is: is abc",
            "微信号：微信号：微信号：",
            "\u{0}my line id: \u{202e}pat.wong",
        ] {
            let claims = super::account_claims(text);
            for c in &claims {
                assert_eq!(
                    text.get(c.start..c.start + c.raw.len()),
                    Some(c.raw.as_str())
                );
            }
        }
        // Each claimed id is found once, at its place in the text.
        let text = "my WeChat is abc_123 and my QQ: 12345678";
        let claims = super::account_claims(text);
        assert_eq!(claims.len(), 2);
        for c in claims {
            assert_eq!(&text[c.start..c.start + c.raw.len()], c.raw);
        }
    }

    #[test]
    fn the_cue_nearest_the_address_names_its_holder() {
        for (before, holder, cue) in [
            (
                "CHAN, commission to my BTC wallet ",
                Holder::Writer,
                Some("my"),
            ),
            ("My USDT TRC20 address: ", Holder::Writer, Some("my")),
            (
                "ERC20 only. Send the 12,500 USDT to ",
                Holder::Writer,
                Some("send"),
            ),
            ("Pay to ", Holder::Writer, Some("pay")),
            ("USDT to ", Holder::Writer, None),
            ("", Holder::Writer, None),
            ("Sent 0.05 BTC to ", Holder::Reader, Some("sent")),
            (
                "Sent 0.05 BTC.\nMy change address ",
                Holder::Writer,
                Some("my"),
            ),
            ("I paid the 8,000 into ", Holder::Reader, Some("paid")),
            ("is this your wallet? ", Holder::Writer, None),
            ("your TRC20 is ", Holder::Reader, Some("your")),
            (
                "Done, I sent it. My new one is ",
                Holder::Writer,
                Some("my"),
            ),
            ("you can pay me at ", Holder::Writer, Some("me")),
            ("I'll send to your wallet ", Holder::Reader, Some("your")),
            ("USDT (ERC20) receive: ", Holder::Writer, Some("receive")),
            // Chinese: "my wallet", "please transfer to", "your address", "already paid to".
            ("我的USDT錢包：", Holder::Writer, Some("我的")),
            ("请转账到 ", Holder::Writer, Some("转账到")),
            ("這是你的地址 ", Holder::Reader, Some("你的")),
            ("已付款到 ", Holder::Reader, Some("已付款到")),
            ("已经转到 ", Holder::Reader, Some("已经转到")),
            ("收款地址：", Holder::Writer, Some("收款")),
            ("你好。我的地址 ", Holder::Writer, Some("我的")),
            ("我的地址改了。新的 ", Holder::Writer, None),
        ] {
            let (h, c) = holder_from_text(before);
            assert_eq!((h, c.as_deref()), (holder, cue), "{before:?}");
        }
    }

    #[test]
    fn only_words_of_possession_or_receipt_say_a_document_subject_holds_an_address() {
        for (before, cue) in [
            (
                "me:     +852 6123 4567\r\nUSDT (ERC20) receive: ",
                Some("receive"),
            ),
            ("My deposit address ", Some("deposit")),
            ("Courier: Ho Ka Yan +852 5333 4444\nDeposit BTC ", None),
            ("我的錢包 ", Some("我的")),
            ("Send the 12,500 USDT to ", None),
            ("Sent 0.05 BTC to ", None),
            ("your wallet ", None),
            ("TRC20: ", None),
        ] {
            assert_eq!(own_cue(before).as_deref(), cue, "{before:?}");
        }
    }

    #[test]
    fn a_party_named_right_before_an_address_is_read_with_their_role() {
        for (before, party) in [
            (
                "Incoming: FUNG CC pays 12,500.00 USDT (ERC20).\nForward 8,000.00 USDT to CHAN MH, TRC20 address ",
                Some(("CHAN MH", "to")),
            ),
            (
                "Payee: LEUNG Yuk Lam\nUSDT (ERC20): ",
                Some(("LEUNG Yuk Lam", "payee")),
            ),
            (
                "Beneficiary : Maria Silva (USDT TRC20) ",
                Some(("Maria Silva", "beneficiary")),
            ),
            ("pay to CHAN MH TRC20 ", Some(("CHAN MH", "to"))),
            ("收款人：陳大文\n錢包 ", Some(("陳大文", "收款人"))),
            ("Payer: FUNG CC, BTC wallet ", Some(("FUNG CC", "payer"))),
            // No name, or something other than the address's description between them.
            ("Send the 12,500 USDT to ", None),
            ("12,500 USDT from FUNG CC to ", None),
            ("Sent 0.05 BTC to ", None),
            ("My USDT TRC20 address: ", None),
            ("Payee: LEUNG YL\nBank: HSBC\nWallet: ", None),
            ("Welcome to Trust Wallet\nYour address: ", None),
            ("Payee: 12345678\nUSDT: ", None),
            ("Payee: LEUNG YL\n\nUSDT: ", None),
        ] {
            let got = named_party(before);
            assert_eq!(
                got.as_ref().map(|(n, r)| (n.as_str(), r.as_str())),
                party,
                "{before:?}"
            );
        }
    }
}

/// How a WhatsApp JID is observed: `<digits>@s.whatsapp.net` as the phone it names
/// (international, whatever the source's region), `<digits>@lid` as a `whatsapp_lid` (never a
/// phone), any other (groups, broadcasts, statuses) as an account id.
pub fn jid_type(jid: &str) -> IdType {
    if jid.ends_with(masf_graph::identifiers::WHATSAPP_USER_SERVER) {
        IdType::Phone
    } else if jid.ends_with(masf_graph::identifiers::WHATSAPP_LID_SERVER) {
        IdType::WhatsappLid
    } else {
        IdType::AccountId
    }
}

/// The canonical form of `value` as `id_type` under the source's region, if valid.
pub fn normalized(ctx: &AgentCtx<'_>, id_type: IdType, value: &str) -> Option<String> {
    normalize(id_type, value, ctx.phone_region().as_ref()).ok()
}

/// Records a phenomenon; a rejection is logged (it is also an event in the store).
pub fn record(ctx: &AgentCtx<'_>, draft: PhenomenonDraft) -> Result<bool, RuntimeError> {
    let title = draft.title.clone();
    let verdict = ctx.record(draft)?;
    log_rejection(&verdict, &title);
    Ok(verdict.is_accepted())
}

fn log_rejection(verdict: &Verdict, what: &str) {
    if let Verdict::Rejected { .. } = verdict {
        tracing::warn!(what, ?verdict, "gateway rejected a triage request");
    }
}

/// A cell value as `sqlite_query` prints it (`\t \n \r \\` escaped): the form that occurs
/// verbatim in the output, so multi-line values can be cited.
pub fn raw_cell(value: &str) -> String {
    masf_tools::sqlite::escape_cell(value)
}

/// A readable file system of the source: the `partition` argument of the file tools that
/// selects it (`None` when the source has one file system and no partition table) and its name
/// for messages.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TreeRef {
    /// The file tools' `partition` argument.
    pub partition: Option<String>,
    /// How to name it (`userdata`, `#2`, `/`).
    pub label: String,
}

/// The readable file systems of the task's source, in scan order.
pub fn trees(ctx: &AgentCtx<'_>) -> Result<Vec<TreeRef>, RuntimeError> {
    let source = ctx.session().source(&ctx.source().id)?;
    let all = source.scan.file_systems();
    let names: Vec<&str> = all
        .iter()
        .filter_map(|f| f.partition.map(|p| p.name.as_str()))
        .collect();
    Ok(all
        .iter()
        .map(|f| match f.partition {
            None => TreeRef {
                partition: None,
                label: "/".to_string(),
            },
            Some(p) => {
                let unique =
                    !p.name.is_empty() && names.iter().filter(|n| **n == p.name).count() == 1;
                let arg = if unique {
                    p.name.clone()
                } else {
                    p.index.to_string()
                };
                TreeRef {
                    label: if unique {
                        p.name.clone()
                    } else {
                        format!("#{}", p.index)
                    },
                    partition: Some(arg),
                }
            }
        })
        .collect())
}

/// Tool arguments with the tree's `partition` added.
pub fn args_on(tree: &TreeRef, mut args: serde_json::Value) -> serde_json::Value {
    if let (Some(p), Some(obj)) = (&tree.partition, args.as_object_mut()) {
        obj.insert("partition".into(), serde_json::Value::String(p.clone()));
    }
    args
}

/// The files below every folder of `tree` named `name` (one `find_files` for the folders, then
/// one listing of each, non-empty files only), each with the listing that names it: artefacts
/// whose files are named by a time or a number rather than by what they are (usage
/// statistics, notification history).
pub fn files_in_dirs_named(
    ctx: &AgentCtx<'_>,
    tree: &TreeRef,
    name: &str,
) -> Result<Vec<(String, masf_tools::Invoked)>, RuntimeError> {
    let dirs = ctx.call(
        "find_files",
        args_on(tree, serde_json::json!({"name_glob": name, "limit": 100})),
    )?;
    if !crate::calls::succeeded(&dirs) {
        return Ok(Vec::new());
    }
    // the directories the search found (`dir` lines: kind … path)
    let found: Vec<String> = dirs
        .output
        .text
        .lines()
        .skip(1)
        .filter(|l| !l.starts_with('#'))
        .map(|l| l.splitn(7, '\t').collect::<Vec<_>>())
        .filter(|c| c.len() == 7 && c[0] == "dir")
        .map(|c| c[6].to_string())
        .collect();
    let mut files = Vec::new();
    for dir in found {
        let listing = ctx.call(
            "find_files",
            args_on(
                tree,
                serde_json::json!({"path": dir, "min_size": 1, "limit": 20000}),
            ),
        )?;
        if !crate::calls::succeeded(&listing) {
            continue;
        }
        for p in crate::outputs::found_paths(&listing.output.text) {
            files.push((p, listing.clone()));
        }
    }
    Ok(files)
}

/// The MD5 of `s` in lower-case hex (a name derived from a value: AsyncStorage's file names, an
/// ADB host's entity context).
pub fn md5_hex(s: &str) -> String {
    use md5::Digest;
    md5::Md5::digest(s.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// How an artefact is named in notes: `partition:/path` or `/path`.
pub fn artefact_name(tree: &TreeRef, path: &str) -> String {
    match &tree.partition {
        Some(_) => format!("{}:{path}", tree.label),
        None => path.to_string(),
    }
}

/// The stores an app keeps in folder `parent` of `tree`: one `find_files` of `dir` (the app's
/// folder, listed whole so that a profile's folder without `parent` is no error) for
/// `globs`, keeping the files directly in `parent` but SQLite's `-wal`, `-shm`, `-journal`
/// and lock files; `None` when the listing failed (noted under `artefact`).
pub fn stores_in(
    ctx: &AgentCtx<'_>,
    tree: &TreeRef,
    dir: &str,
    parent: &str,
    globs: &[&str],
) -> Result<Option<(Invoked, Vec<String>)>, RuntimeError> {
    let Some(listing) = crate::calls::call_or_note(
        ctx,
        &artefact_name(tree, dir),
        "find_files",
        args_on(tree, serde_json::json!({"path": dir, "name_globs": globs})),
    )?
    else {
        return Ok(None);
    };
    let parent = parent.trim_end_matches('/');
    let paths = crate::outputs::found_paths(&listing.output.text)
        .into_iter()
        .filter(|p| p.rsplit_once('/').map(|(d, _)| d) == Some(parent))
        .filter(|p| {
            !["-wal", "-shm", "-journal", ".lck"]
                .iter()
                .any(|x| p.ends_with(x))
        })
        .collect();
    Ok(Some((listing, paths)))
}

/// Runs `sql` on the database at `path` of `tree` through `sqlite_query` and reads the rows
/// back; `None`, with the artefact noted as unparsed (the call's reason), when it fails.
pub fn query_on(
    ctx: &AgentCtx<'_>,
    tree: &TreeRef,
    path: &str,
    sql: &str,
    limit: u64,
) -> Result<Option<(Invoked, crate::outputs::Table)>, RuntimeError> {
    query_on_with(ctx, tree, path, sql, limit, &[])
}

/// [`query_on`] with `sqlite_query`'s boolean decoding options set (`telegram`, `base64`,
/// `protobuf`, `plists`).
pub fn query_on_with(
    ctx: &AgentCtx<'_>,
    tree: &TreeRef,
    path: &str,
    sql: &str,
    limit: u64,
    options: &[&str],
) -> Result<Option<(Invoked, crate::outputs::Table)>, RuntimeError> {
    query_on_args(ctx, tree, path, sql, limit, &crate::calls::flags(options))
}

/// [`query_on`] with more of `sqlite_query`'s arguments (its decoding options, `cipher`).
pub fn query_on_args(
    ctx: &AgentCtx<'_>,
    tree: &TreeRef,
    path: &str,
    sql: &str,
    limit: u64,
    extra: &serde_json::Map<String, serde_json::Value>,
) -> Result<Option<(Invoked, crate::outputs::Table)>, RuntimeError> {
    let mut args = serde_json::json!({"path": path, "sql": sql, "limit": limit});
    if let Some(a) = args.as_object_mut() {
        a.extend(extra.clone());
    }
    let args = args_on(tree, args);
    let invoked = ctx.call("sqlite_query", args)?;
    if crate::calls::succeeded(&invoked) {
        let table = crate::outputs::Table::parse(&invoked.output.text);
        Ok(Some((invoked, table)))
    } else {
        ctx.unparsed(
            &artefact_name(tree, path),
            &crate::calls::failure_reason(&invoked),
            Some(&invoked.record.invocation_id),
        )?;
        Ok(None)
    }
}

/// Rows per `sqlite_query` call of a paged Android read ([`pages_on`]): the one-call limit the
/// readers had, so a table that fits one page is read by the very call it was before.
pub const PAGE_ROWS: u64 = 2000;

/// Runs `sql` (a complete `SELECT`, ordered, without a `LIMIT` of its own) on the database at
/// `path` of `tree` in pages of [`PAGE_ROWS`] rows, up to [`crate::calls::ROW_CAP`]: the first
/// page is `sql` as written, each further page `sql` with `LIMIT -1 OFFSET <rows read>`
/// appended, so every page keeps the reader's own order and each fact cites a short output.
/// `None`, noted as [`query_on`] notes it, when the first page fails; a later page that fails
/// is noted and ends the read with the rows before it.
pub fn pages_on(
    ctx: &AgentCtx<'_>,
    tree: &TreeRef,
    path: &str,
    sql: &str,
) -> Result<Option<crate::calls::Paged>, RuntimeError> {
    pages_on_with(ctx, tree, path, sql, &[])
}

/// [`pages_on`] with `sqlite_query`'s boolean decoding options set (see [`query_on_with`]).
pub fn pages_on_with(
    ctx: &AgentCtx<'_>,
    tree: &TreeRef,
    path: &str,
    sql: &str,
    options: &[&str],
) -> Result<Option<crate::calls::Paged>, RuntimeError> {
    pages_on_args(ctx, tree, path, sql, &crate::calls::flags(options))
}

/// [`pages_on`] with more of `sqlite_query`'s arguments (see [`query_on_args`]).
pub fn pages_on_args(
    ctx: &AgentCtx<'_>,
    tree: &TreeRef,
    path: &str,
    sql: &str,
    extra: &serde_json::Map<String, serde_json::Value>,
) -> Result<Option<crate::calls::Paged>, RuntimeError> {
    use crate::calls::{Paged, ROW_CAP};
    let mut pages = Vec::new();
    let mut got = 0u64;
    loop {
        let page = if got == 0 {
            sql.to_string()
        } else {
            format!("{sql} LIMIT -1 OFFSET {got}")
        };
        let limit = PAGE_ROWS.min(ROW_CAP - got);
        let Some((inv, t)) = query_on_args(ctx, tree, path, &page, limit, extra)? else {
            return Ok((!pages.is_empty()).then_some(Paged {
                pages,
                truncated: false,
            }));
        };
        got += t.rows.len() as u64;
        let more = t.truncated;
        let empty = t.rows.is_empty();
        pages.push((inv, t));
        if !more || empty || got >= ROW_CAP {
            return Ok(Some(Paged {
                pages,
                truncated: more,
            }));
        }
    }
}

/// The columns of `table` in the database at `path` of `tree` when it has each of `needed`;
/// `None` when one is missing (noted by [`crate::calls::require_columns`], naming them, as
/// `what`) — the schema check a reader makes before it reads a table's rows.
pub fn required_columns(
    ctx: &AgentCtx<'_>,
    tree: &TreeRef,
    path: &str,
    what: &str,
    table: &str,
    needed: &[&str],
) -> Result<Option<std::collections::BTreeSet<String>>, RuntimeError> {
    let cols = table_columns(ctx, tree, path, table)?;
    let name = artefact_name(tree, path);
    Ok(crate::calls::require_columns(ctx, &name, what, table, &cols, needed)?.then_some(cols))
}

/// The columns of `table` in the database at `path` of `tree`, empty when they cannot be
/// read (the failed query is noted by [`query_on`]).
pub fn table_columns(
    ctx: &AgentCtx<'_>,
    tree: &TreeRef,
    path: &str,
    table: &str,
) -> Result<std::collections::BTreeSet<String>, RuntimeError> {
    Ok(columns_on(ctx, tree, path, table)?
        .map(|(_, c)| c)
        .unwrap_or_default())
}

/// Every table's (and view's) columns of the database at `path` of `tree`, in one
/// `sqlite_query` over `sqlite_master` and `pragma_table_info`; `None` when it cannot be read
/// (noted, as [`query_on`] notes it).
pub fn schema_on(
    ctx: &AgentCtx<'_>,
    tree: &TreeRef,
    path: &str,
) -> Result<
    Option<std::collections::BTreeMap<String, std::collections::BTreeSet<String>>>,
    RuntimeError,
> {
    schema_on_args(ctx, tree, path, &serde_json::Map::new())
}

/// [`schema_on`] with more of `sqlite_query`'s arguments (see [`query_on_args`]).
pub fn schema_on_args(
    ctx: &AgentCtx<'_>,
    tree: &TreeRef,
    path: &str,
    extra: &serde_json::Map<String, serde_json::Value>,
) -> Result<
    Option<std::collections::BTreeMap<String, std::collections::BTreeSet<String>>>,
    RuntimeError,
> {
    Ok(
        query_on_args(ctx, tree, path, crate::outputs::SCHEMA_SQL, 100_000, extra)?
            .map(|(_, t)| crate::outputs::columns_by_table(&t)),
    )
}

/// The columns of `table` in the database at `path` of `tree` (`pragma_table_info` through
/// [`query_on`]), with the call; `None`, noted, when the query fails. Empty when there is no
/// such table.
pub fn columns_on(
    ctx: &AgentCtx<'_>,
    tree: &TreeRef,
    path: &str,
    table: &str,
) -> Result<Option<(Invoked, std::collections::BTreeSet<String>)>, RuntimeError> {
    let sql = format!("SELECT name FROM pragma_table_info('{table}')");
    Ok(query_on(ctx, tree, path, &sql, 1000)?.map(|(inv, t)| {
        let cols = t
            .rows
            .iter()
            .filter_map(|r| t.get(r, "name").map(str::to_string))
            .collect();
        (inv, cols)
    }))
}

/// Lists the tables of the database at `path` of `tree` (`sqlite_tables`); `None`, with the
/// artefact noted as unparsed, when the file is not a readable database.
pub fn tables_on(
    ctx: &AgentCtx<'_>,
    tree: &TreeRef,
    path: &str,
) -> Result<Option<(Invoked, Vec<String>)>, RuntimeError> {
    let invoked = ctx.call(
        "sqlite_tables",
        args_on(tree, serde_json::json!({"path": path})),
    )?;
    if !crate::calls::succeeded(&invoked) {
        ctx.unparsed(
            &artefact_name(tree, path),
            &crate::calls::failure_reason(&invoked),
            Some(&invoked.record.invocation_id),
        )?;
        return Ok(None);
    }
    let tables = invoked
        .output
        .text
        .lines()
        .filter_map(|l| l.strip_prefix("table\t"))
        .map(|l| l.split('\t').next().unwrap_or_default().to_string())
        .collect();
    Ok(Some((invoked, tables)))
}

/// The e-mail addresses written in `text` (an app's address list, a header, a JSON list), each
/// as written (so it grounds in the output holding `text`) and lower-cased, in order.
pub fn email_addresses(text: &str) -> Vec<(String, String)> {
    masf_index::ids::find(text, None)
        .into_iter()
        .filter(|f| f.term.starts_with("email:"))
        .map(|f| {
            let written = text[f.start..f.end].to_string();
            let lower = written.to_lowercase();
            (written, lower)
        })
        .collect()
}

/// Observes every e-mail address written in `list` (an app's address list) as a person
/// `handle:<address>`, but the device's user's own (`own`, lower-cased); `why` words each
/// observation from the address as written.
pub fn observe_correspondents(
    ctx: &AgentCtx<'_>,
    list: &str,
    own: &std::collections::BTreeSet<String>,
    inv: &Invoked,
    why: &dyn Fn(&str) -> String,
) -> Result<(), RuntimeError> {
    for (written, address) in email_addresses(list) {
        if own.contains(&address) {
            continue;
        }
        observe(
            ctx,
            &format!("handle:{address}"),
            EntityKind::Person,
            &written,
            IdType::Email,
            &written,
            inv,
            why(&written),
        )?;
    }
    Ok(())
}

/// Observes every e-mail address of an e-mail's address lists (`(column, field)`: the row's
/// column holding the list and what the list is — "to", "cc", "reply-to") as a correspondent
/// ([`observe_correspondents`]), but the device's user's own (`own`); each observation worded
/// "<address> is in the <field> of <about>.".
pub fn observe_mail_lists(
    ctx: &AgentCtx<'_>,
    t: &crate::outputs::Table,
    row: &[Option<String>],
    inv: &Invoked,
    own: &std::collections::BTreeSet<String>,
    lists: &[(&str, &str)],
    about: &str,
) -> Result<(), RuntimeError> {
    for (col, field) in lists {
        let Some(list) = t.get(row, col) else {
            continue;
        };
        observe_correspondents(ctx, list, own, inv, &|written| {
            format!("{written} is in the {field} of {about}.")
        })?;
    }
    Ok(())
}

/// Observes each present value of `ids` (`(value, type, what)`) on the device's user
/// (`owner`), cited from `inv`; `why` words each observation from its `what`.
pub fn observe_owner_ids(
    ctx: &AgentCtx<'_>,
    inv: &Invoked,
    ids: Vec<(Option<String>, IdType, &str)>,
    why: &dyn Fn(&str) -> String,
) -> Result<(), RuntimeError> {
    for (value, id_type, what) in ids {
        let Some(v) = value else {
            continue;
        };
        observe(
            ctx,
            "owner",
            EntityKind::Person,
            "device owner",
            id_type,
            &v,
            inv,
            why(what),
        )?;
    }
    Ok(())
}

/// Wallet addresses in an e-mail's `text`, claims by direction ([`claims_by_direction`]): the
/// other party is the first address of `to` when the device's user sent it, else the first of
/// `from` (`handle:<address>`).
pub fn mail_claims(
    ctx: &AgentCtx<'_>,
    cite: &Invoked,
    text: &str,
    what: &str,
    sent: bool,
    from: &str,
    to: &str,
) -> Result<usize, RuntimeError> {
    let other = email_addresses(if sent { to } else { from })
        .into_iter()
        .next()
        .map(|(written, address)| (format!("handle:{address}"), written));
    claims_by_direction(
        ctx,
        cite,
        text,
        what,
        sent,
        other.as_ref().map(|(c, w)| (c.as_str(), w.as_str())),
    )
}
