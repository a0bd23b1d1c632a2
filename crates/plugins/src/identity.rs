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
    })?;
    log_rejection(&verdict, context);
    Ok(verdict.is_accepted())
}

/// Who wrote a message, for [`observe_written_wallets`]: the entity context they are observed
/// under in this source (`owner` for the device's user, the card or `handle:` context of a
/// sender) and how the evidence says so.
#[derive(Debug, Clone, Copy)]
pub struct Writer<'a> {
    /// Their entity context.
    pub context: &'a str,
    /// A label, should the entity be new.
    pub label: &'a str,
    /// How the evidence names them the writer, for the interpretation ("the device's user sent
    /// it", "+852… sent it").
    pub how: &'a str,
}

/// Observes every wallet address written in `text` (a message, a note) as the wallet entity
/// `wallet:<address>`, and, when its writer is known, as a *control claim*: the same address
/// held by the writer's person entity (`masf_graph::resolution::plan_control` turns claims
/// into control hypotheses scored against each other). Returns how many addresses it saw.
pub fn observe_written_wallets(
    ctx: &AgentCtx<'_>,
    text: &str,
    inv: &Invoked,
    what: &str,
    writer: Option<Writer<'_>>,
) -> Result<usize, RuntimeError> {
    let mut seen = 0;
    for f in crate::extract::identifiers(text, ctx.phone_region().as_ref()) {
        if f.id_type != IdType::Wallet {
            continue;
        }
        seen += 1;
        observe(
            ctx,
            &format!("wallet:{}", f.normalized),
            EntityKind::Wallet,
            &f.normalized,
            IdType::Wallet,
            &f.raw,
            inv,
            format!("A wallet address written in {what}."),
        )?;
        if let Some(w) = writer {
            observe(
                ctx,
                w.context,
                EntityKind::Person,
                w.label,
                IdType::Wallet,
                &f.raw,
                inv,
                format!(
                    "The wallet address {} is written in {what}; {}: a claim that the writer \
                     controls it, weighed against any other claim on it.",
                    f.raw, w.how
                ),
            )?;
        }
    }
    Ok(seen)
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
