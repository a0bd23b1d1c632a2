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

/// Reads whose an address is from the text before it in its sentence (after the last `!`,
/// `?`, `;`, line break, or `.` followed by a space): the cue word nearest the address decides — `my`, `me`,
/// `mine`, `our`, `us` and the requests `send`, `pay`, `transfer`, `deposit` name the writer;
/// `your`, `you` and the reports `sent`, `paid`, `transferred`, `deposited`, `forwarded`
/// name the reader. Without a cue the writer is meant ("USDT to T… please"). English only: a
/// message in another language falls back to the writer. Returns the holder and the cue word.
pub fn holder_from_text(before: &str) -> (Holder, Option<String>) {
    // A full stop ends a sentence only before a space or a line break ("0.05 BTC" does not).
    let mut start = 0;
    let mut chars = before.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        let next = chars.peek().map(|&(_, n)| n);
        let ends = match c {
            '!' | '?' | ';' | '\n' => true,
            '.' => next.is_none_or(char::is_whitespace),
            _ => false,
        };
        if ends {
            start = i + c.len_utf8();
        }
    }
    let sentence = &before[start..];
    let words: Vec<String> = sentence
        .split(|c: char| !c.is_alphanumeric() && c != '\'')
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect();
    for w in words.iter().rev() {
        let holder = match w.as_str() {
            "my" | "me" | "mine" | "our" | "us" | "send" | "pay" | "transfer" | "deposit" => {
                Holder::Writer
            }
            "your" | "you" | "yours" | "sent" | "paid" | "transferred" | "deposited"
            | "forwarded" => Holder::Reader,
            _ => continue,
        };
        return (holder, Some(w.clone()));
    }
    (Holder::Writer, None)
}

/// Observes every wallet address written in `text` (a message, a note) as the wallet entity
/// `wallet:<address>`, and as a *control claim* of the party the words before it name
/// ([`holder_from_text`]): the same address held by that party's person entity
/// (`masf_graph::resolution::plan_control` turns claims into control hypotheses scored
/// against each other). No claim when that party is unknown. Returns how many addresses it saw.
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
    for f in crate::extract::identifiers(text, region) {
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
    Ok(seen)
}

#[cfg(test)]
mod tests {
    use super::{Holder, holder_from_text};

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
            ("已付款到 ", Holder::Writer, None),
        ] {
            let (h, c) = holder_from_text(before);
            assert_eq!((h, c.as_deref()), (holder, cue), "{before:?}");
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

/// How an artefact is named in notes: `partition:/path` or `/path`.
pub fn artefact_name(tree: &TreeRef, path: &str) -> String {
    match &tree.partition {
        Some(_) => format!("{}:{path}", tree.label),
        None => path.to_string(),
    }
}

/// Runs `sql` on the database at `path` of `tree` through `sqlite_query` and reads the rows
/// back; `None`, with the artefact noted as unparsed (the call's reason), when it fails.
pub fn query_on(
    ctx: &AgentCtx<'_>,
    tree: &TreeRef,
    path: &str,
    sql: &str,
    limit: u64,
) -> Result<Option<(Invoked, crate::util::Table)>, RuntimeError> {
    let args = args_on(
        tree,
        serde_json::json!({"path": path, "sql": sql, "limit": limit}),
    );
    let invoked = ctx.call("sqlite_query", args)?;
    if crate::util::succeeded(&invoked) {
        let table = crate::util::Table::parse(&invoked.output.text);
        Ok(Some((invoked, table)))
    } else {
        ctx.unparsed(
            &artefact_name(tree, path),
            &crate::util::failure_reason(&invoked),
            Some(&invoked.record.invocation_id),
        )?;
        Ok(None)
    }
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
    if !crate::util::succeeded(&invoked) {
        ctx.unparsed(
            &artefact_name(tree, path),
            &crate::util::failure_reason(&invoked),
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
