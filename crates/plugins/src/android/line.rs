//! LINE (`jp.naver.line.android`): `databases/naver_line` — every contact (`contacts`: `m_id`,
//! and of `custom_name` (the owner's), `server_name`, `name`, `addressbook_name`, `status_msg`
//! those the layout has), every message (`chat_history`: chat, sender `from_mid` — none when
//! the owner sent it —, text, `created_time` in Unix milliseconds, `status`, server id,
//! attachment type and local file) and every group (`membership`: the group id and each
//! member's mid, with the group's name from `chat` or `groups` where the layout has them) —
//! and `databases/call_history`, every call (`call_history`: start and end in Unix
//! milliseconds, the direction from `call_type`'s last letter, `O` out and `I` in, the audio,
//! video or group type from `voip_type`, the mid of the other party or the group), the fields
//! of ALEAPP's `line` module (contacts, messages with their thread's members, call logs).
//! Contacts are `line:<mid>` persons (`account_id`, namespaced by the query so it is grounded)
//! with their names; wallets in a text are claims of its writer (the owner when `from_mid` is
//! empty, else the sender; the other side of a one-to-one chat, `chat_id` starting with `u`, is
//! its reader).

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{EntityKind, FactType, IdType};

use super::Located;
use super::databases::tables_with;
use crate::calls::note_pages_cap;
use crate::drafts::{Draft, record_draft, unix_millis};
use crate::identity::{artefact_name, observe, pages_on, query_on};
use crate::outputs::raw;

/// Triage of every LINE `naver_line` database found.
pub fn triage(ctx: &AgentCtx<'_>, found: &[Located]) -> Result<(), RuntimeError> {
    for l in found.iter().filter(|l| l.name() == "naver_line") {
        ctx.artefact(&artefact_name(&l.tree, &l.path), || naver_line(ctx, l))?;
    }
    for l in found
        .iter()
        .filter(|l| l.name() == "call_history" && l.path.contains("/jp.naver.line.android/"))
    {
        ctx.artefact(&artefact_name(&l.tree, &l.path), || call_history(ctx, l))?;
    }
    Ok(())
}

/// The columns of `table` (`pragma_table_info`), `None` when the query failed (noted).
pub(super) fn columns(
    ctx: &AgentCtx<'_>,
    l: &Located,
    table: &str,
) -> Result<Option<Vec<String>>, RuntimeError> {
    let sql = format!("SELECT name FROM pragma_table_info('{table}')");
    Ok(query_on(ctx, &l.tree, &l.path, &sql, 1000)?.map(|(_, t)| {
        t.rows
            .iter()
            .filter_map(|r| t.get(r, "name").map(str::to_string))
            .collect()
    }))
}

/// `c AS alias` when the table has `c`, else `NULL AS alias`.
pub(super) fn col(cols: &[String], c: &str, alias: &str) -> String {
    if cols.iter().any(|x| x == c) {
        format!("{c} AS {alias}")
    } else {
        format!("NULL AS {alias}")
    }
}

/// One `naver_line` database.
pub fn naver_line(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(tables) = tables_with(ctx, l, &["contacts", "chat_history"])? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    let (Some(ccols), Some(hcols)) = (
        columns(ctx, l, "contacts")?,
        columns(ctx, l, "chat_history")?,
    ) else {
        return Ok(());
    };
    let need = |cols: &[String], table: &str, needed: &[&str]| -> Option<String> {
        let missing: Vec<&str> = needed
            .iter()
            .filter(|c| !cols.iter().any(|x| x == *c))
            .copied()
            .collect();
        (!missing.is_empty()).then(|| {
            format!(
                "could not parse LINE's naver_line because table {table} lacks {} (unexpected schema)",
                missing.join(", ")
            )
        })
    };
    if let Some(why) = need(&ccols, "contacts", &["m_id"]).or_else(|| {
        need(
            &hcols,
            "chat_history",
            &["id", "chat_id", "from_mid", "content", "created_time"],
        )
    }) {
        ctx.unparsed(&name, &why, None)?;
        return Ok(());
    }
    let sql = format!(
        "SELECT rowid AS rid, m_id, 'line:' || m_id AS account, {}, {}, {}, {}, {} FROM contacts ORDER BY rowid",
        col(&ccols, "custom_name", "custom"),
        col(&ccols, "server_name", "server"),
        col(&ccols, "name", "name"),
        col(&ccols, "addressbook_name", "book"),
        col(&ccols, "status_msg", "status"),
    );
    if let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? {
        note_pages_cap(ctx, &name, &pages, "LINE contacts")?;
        for (inv, t, row) in pages.rows() {
            let Some(mid) = raw(t, row, "m_id") else {
                continue;
            };
            let names: Vec<(String, &str)> = [
                ("custom", "the name the owner gave"),
                ("server", "the LINE name"),
                ("name", "the name"),
                ("book", "the address-book name"),
            ]
            .into_iter()
            .filter_map(|(c, what)| raw(t, row, c).map(|v| (v, what)))
            .collect();
            let label = names.first().map(|(n, _)| n.clone()).unwrap_or(mid.clone());
            let mut d = Draft::new("contacts", format!("LINE contact {label}"));
            d.fact(FactType::Path, Some(&l.path), &l.found);
            d.fact(FactType::Account, Some(&mid), inv);
            for (n, _) in &names {
                d.fact(FactType::Name, Some(n), inv);
            }
            d.fact(FactType::Text, raw(t, row, "status").as_deref(), inv);
            d.interpretation = format!(
                "A LINE contact of {}: mid {mid}{}.",
                l.name(),
                names
                    .iter()
                    .map(|(n, w)| format!(", {w} {n}"))
                    .collect::<String>()
            );
            record_draft(ctx, d)?;
            let context = format!("line:{mid}");
            let why = |what: &str| format!("{what} of the LINE contact {label} ({}).", l.name());
            if let Some(a) = raw(t, row, "account") {
                observe(
                    ctx,
                    &context,
                    EntityKind::Person,
                    &label,
                    IdType::AccountId,
                    &a,
                    inv,
                    why("The LINE mid"),
                )?;
            }
            for (i, (n, what)) in names.iter().enumerate() {
                let id_type = if i == 0 && *what == "the name the owner gave" {
                    IdType::Nickname
                } else {
                    IdType::DisplayName
                };
                observe(
                    ctx,
                    &context,
                    EntityKind::Person,
                    &label,
                    id_type,
                    n,
                    inv,
                    why(what),
                )?;
            }
        }
    }
    if tables.iter().any(|t| t == "membership") {
        groups(ctx, l, &name, &tables)?;
    }
    let sql = format!(
        "SELECT id, chat_id, from_mid, content, created_time, {}, {}, {}, {} FROM chat_history ORDER BY id",
        col(&hcols, "status", "status"),
        col(&hcols, "server_id", "server_id"),
        col(&hcols, "attachement_type", "attachment_type"),
        col(&hcols, "attachement_local_uri", "attachment"),
    );
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, &name, &pages, "LINE messages")?;
    for (inv, t, row) in pages.rows() {
        let id = t.get(row, "id").unwrap_or("?");
        let chat = raw(t, row, "chat_id");
        let from = raw(t, row, "from_mid").filter(|f| !f.is_empty());
        let sent = from.is_none();
        let one_to_one = chat.as_deref().is_some_and(|c| c.starts_with('u'));
        let mut d = Draft::new(
            "messages",
            if sent {
                format!(
                    "LINE message {id} sent to {}",
                    chat.as_deref().unwrap_or("?")
                )
            } else {
                format!("LINE message {id} from {}", from.as_deref().unwrap_or("?"))
            },
        );
        d.fact(FactType::Path, Some(&l.path), &l.found);
        d.fact(FactType::Account, chat.as_deref(), inv);
        d.fact(FactType::Account, from.as_deref(), inv);
        d.fact(FactType::Text, raw(t, row, "content").as_deref(), inv);
        d.fact(
            FactType::Identifier,
            raw(t, row, "server_id").as_deref(),
            inv,
        );
        d.fact(FactType::Path, raw(t, row, "attachment").as_deref(), inv);
        let ts = raw(t, row, "created_time");
        d.message_time(ts.as_deref(), unix_millis(ts.as_deref()), sent, inv);
        d.interpretation = format!(
            "chat_history id {id} of {}: a LINE message {} in the chat {} (status {}, attachment type {}); created_time is Unix milliseconds.",
            l.name(),
            if sent {
                "sent by the account's user (no from_mid)".to_string()
            } else {
                format!("from {}", from.as_deref().unwrap_or("?"))
            },
            chat.as_deref().unwrap_or("?"),
            t.get(row, "status").unwrap_or("?"),
            t.get(row, "attachment_type").unwrap_or("?"),
        );
        record_draft(ctx, d)?;
        let Some(text) = t.get(row, "content") else {
            continue;
        };
        let other = if sent {
            chat.filter(|_| one_to_one)
        } else {
            from
        };
        let context = other.map(|m| format!("line:{m}"));
        let mark = if sent {
            "from_mid empty"
        } else {
            "from_mid set"
        };
        super::apps::claims_by_direction(
            ctx,
            inv,
            text,
            &format!("LINE message {id} ({})", l.name()),
            sent,
            context.as_deref(),
            mark,
        )?;
    }
    Ok(())
}

/// Observes `line:<mid>` (the query's `account` cell) as a LINE user's account id.
fn observe_mid(
    ctx: &AgentCtx<'_>,
    account: &str,
    label: &str,
    inv: &masf_tools::Invoked,
    why: String,
) -> Result<(), RuntimeError> {
    observe(
        ctx,
        account,
        EntityKind::Person,
        label,
        IdType::AccountId,
        account,
        inv,
        why,
    )?;
    Ok(())
}

/// The groups of `naver_line`: one phenomenon per `membership` group id with its members.
fn groups(
    ctx: &AgentCtx<'_>,
    l: &Located,
    name: &str,
    tables: &[String],
) -> Result<(), RuntimeError> {
    let Some(mcols) = columns(ctx, l, "membership")? else {
        return Ok(());
    };
    if !mcols.iter().any(|c| c == "id") || !mcols.iter().any(|c| c == "m_id") {
        crate::calls::require_columns(
            ctx,
            name,
            "LINE's naver_line",
            "membership",
            &mcols.iter().cloned().collect(),
            &["id", "m_id"],
        )?;
        return Ok(());
    }
    // the group's name: `chat.chat_name`, else `groups.name`, where the layout has them
    let mut group_name = Vec::new();
    for (table, key, col) in [("chat", "chat_id", "chat_name"), ("groups", "id", "name")] {
        if tables.iter().any(|t| t == table)
            && let Some(cols) = columns(ctx, l, table)?
            && cols.iter().any(|c| c == key)
            && cols.iter().any(|c| c == col)
        {
            group_name.push(format!(
                "(SELECT g.{col} FROM {table} g WHERE g.{key} = m.id)"
            ));
        }
    }
    let group_name = match group_name.len() {
        0 => "NULL".to_string(),
        1 => group_name.remove(0),
        _ => format!("coalesce({})", group_name.join(", ")),
    };
    // a member's name from `contacts`, by the name columns the layout has
    let contact_cols = columns(ctx, l, "contacts")?.unwrap_or_default();
    let names: Vec<String> = ["custom_name", "server_name", "name"]
        .into_iter()
        .filter(|c| contact_cols.iter().any(|x| x == c))
        .map(|c| format!("c.{c}"))
        .collect();
    let member_name = match names.len() {
        0 => "NULL".to_string(),
        1 => format!(
            "(SELECT {} FROM contacts c WHERE c.m_id = m.m_id)",
            names[0]
        ),
        _ => format!(
            "(SELECT coalesce({}) FROM contacts c WHERE c.m_id = m.m_id)",
            names.join(", ")
        ),
    };
    let sql = format!(
        "SELECT m.id AS group_id, m.m_id AS m_id, 'line:' || m.m_id AS account, {group_name} AS group_name, {}, {}, {member_name} AS member_name FROM membership m ORDER BY m.id, m.rowid",
        col(&mcols, "is_accepted", "accepted"),
        col(&mcols, "created_time", "joined"),
    );
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, name, &pages, "LINE group members")?;
    for (group, rows) in pages.runs_by("group_id") {
        let label = rows
            .iter()
            .find_map(|(_, t, r)| t.get(r, "group_name").filter(|n| !n.is_empty()))
            .unwrap_or(&group)
            .to_string();
        let mut d = Draft::new("contacts", format!("LINE group {label}"));
        d.fact(FactType::Path, Some(&l.path), &l.found);
        // every run has a row
        d.fact(FactType::Identifier, Some(&group), rows[0].0);
        if let Some((inv, n)) = rows
            .iter()
            .find_map(|(inv, t, r)| raw(t, r, "group_name").map(|n| (inv, n)))
        {
            d.fact(FactType::Name, Some(&n), inv);
        }
        let mut members = Vec::new();
        for &(inv, t, r) in &rows {
            d.fact(FactType::Account, raw(t, r, "m_id").as_deref(), inv);
            d.fact(FactType::Name, raw(t, r, "member_name").as_deref(), inv);
            let joined = t.get(r, "joined");
            d.time(joined, unix_millis(joined), "Member added", inv);
            if let Some(m) = t.get(r, "m_id") {
                members.push(format!(
                    "{m}{}{}",
                    t.get(r, "member_name")
                        .map(|n| format!(" ({n})"))
                        .unwrap_or_default(),
                    match t.get(r, "accepted") {
                        Some("0") => ", invited, not accepted",
                        _ => "",
                    }
                ));
            }
        }
        d.interpretation = format!(
            "membership rows of group {group} in {}: a LINE group{} with {} member(s) the account's user shares it with: {}.",
            l.name(),
            if label == group {
                String::new()
            } else {
                format!(" named {label}")
            },
            members.len(),
            members.join(", "),
        );
        record_draft(ctx, d)?;
        for &(inv, t, r) in &rows {
            if let Some(a) = raw(t, r, "account") {
                let who = t.get(r, "member_name").or(t.get(r, "m_id")).unwrap_or("?");
                observe_mid(
                    ctx,
                    &a,
                    who,
                    inv,
                    format!("The LINE mid of {who}, a member of the LINE group {label}."),
                )?;
            }
        }
    }
    Ok(())
}

/// `databases/call_history`: one phenomenon per call.
fn call_history(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    if tables_with(ctx, l, &["call_history"])?.is_none() {
        return Ok(());
    }
    let name = artefact_name(&l.tree, &l.path);
    let Some(cols) = columns(ctx, l, "call_history")? else {
        return Ok(());
    };
    if !crate::calls::require_columns(
        ctx,
        &name,
        "LINE's call_history",
        "call_history",
        &cols.iter().cloned().collect(),
        &["caller_mid", "call_type", "start_time"],
    )? {
        return Ok(());
    }
    let sql = format!(
        "SELECT rowid AS rid, caller_mid, 'line:' || caller_mid AS account, call_type, substr(call_type, -1) AS dir, start_time, {}, {}, {}, {} FROM call_history ORDER BY start_time, rowid",
        col(&cols, "end_time", "end_time"),
        col(&cols, "voip_type", "voip_type"),
        col(&cols, "voip_gc_media_type", "group_media"),
        col(&cols, "result", "result"),
    );
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, &name, &pages, "LINE calls")?;
    for (inv, t, row) in pages.rows() {
        let mid = t.get(row, "caller_mid").unwrap_or("?");
        let direction = match t.get(row, "dir") {
            Some("O") => "outgoing",
            Some("I") => "incoming",
            _ => "direction not known:",
        };
        let kind = match t.get(row, "voip_type") {
            Some("V") => "video".to_string(),
            Some("A") => "voice".to_string(),
            Some("G") => format!(
                "group ({})",
                t.get(row, "group_media").unwrap_or("media type not stored")
            ),
            Some(other) => format!("type {other}"),
            None => "type not stored".to_string(),
        };
        let mut d = Draft::new("calls", format!("LINE {direction} {kind} call with {mid}"));
        d.fact(FactType::Path, Some(&l.path), &l.found);
        d.fact(FactType::Account, raw(t, row, "caller_mid").as_deref(), inv);
        d.fact(
            FactType::Identifier,
            raw(t, row, "call_type").as_deref(),
            inv,
        );
        d.fact(
            FactType::Identifier,
            raw(t, row, "voip_type").as_deref(),
            inv,
        );
        d.fact(FactType::Text, raw(t, row, "group_media").as_deref(), inv);
        d.fact(FactType::Text, raw(t, row, "result").as_deref(), inv);
        let start = t.get(row, "start_time");
        d.time(start, unix_millis(start), "Call started", inv);
        let end = t.get(row, "end_time");
        d.time(end, unix_millis(end), "Call ended", inv);
        d.interpretation = format!(
            "call_history row {} of {}: a LINE {kind} call, {direction} (call_type {} ends in {}), with {mid} (caller_mid names the call's other party, or its group); start_time and end_time are Unix milliseconds.",
            t.get(row, "rid").unwrap_or("?"),
            l.name(),
            t.get(row, "call_type").unwrap_or("?"),
            t.get(row, "dir").unwrap_or("?"),
        );
        record_draft(ctx, d)?;
        // a user's mid starts with `u` (a group's with `c` or `r`)
        if mid.starts_with('u')
            && let Some(a) = raw(t, row, "account")
        {
            observe_mid(
                ctx,
                &a,
                mid,
                inv,
                format!(
                    "The LINE mid of the other party of a LINE call ({}).",
                    l.name()
                ),
            )?;
        }
    }
    Ok(())
}
