//! LINE (`jp.naver.line.android`): `databases/naver_line` — every contact (`contacts`: `m_id`,
//! and of `custom_name` (the owner's), `server_name`, `name`, `addressbook_name`, `status_msg`
//! those the layout has) and every message (`chat_history`: chat, sender `from_mid` — none when
//! the owner sent it —, text, `created_time` in Unix milliseconds, `status`, server id,
//! attachment type and local file), the fields of ALEAPP's `line` module. Contacts are
//! `line:<mid>` persons (`account_id`, namespaced by the query so it is grounded) with their
//! names; wallets in a text are claims of its writer (the owner when `from_mid` is empty, else
//! the sender; the other side of a one-to-one chat, `chat_id` starting with `u`, is its reader).

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{EntityKind, FactType, IdType};

use super::databases::tables_with;
use super::{Located, MAX_ROWS};
use crate::calls::note_row_cap;
use crate::drafts::{Draft, record_draft, unix_millis};
use crate::identity::{artefact_name, observe, query_on};
use crate::outputs::raw;

/// Triage of every LINE `naver_line` database found.
pub fn triage(ctx: &AgentCtx<'_>, found: &[Located]) -> Result<(), RuntimeError> {
    for l in found.iter().filter(|l| l.name() == "naver_line") {
        ctx.artefact(&artefact_name(&l.tree, &l.path), || naver_line(ctx, l))?;
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
    if tables_with(ctx, l, &["contacts", "chat_history"])?.is_none() {
        return Ok(());
    }
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
    if let Some((inv, t)) = query_on(ctx, &l.tree, &l.path, &sql, MAX_ROWS)? {
        note_row_cap(ctx, &name, &t, MAX_ROWS, "LINE contacts")?;
        for row in &t.rows {
            let Some(mid) = raw(&t, row, "m_id") else {
                continue;
            };
            let names: Vec<(String, &str)> = [
                ("custom", "the name the owner gave"),
                ("server", "the LINE name"),
                ("name", "the name"),
                ("book", "the address-book name"),
            ]
            .into_iter()
            .filter_map(|(c, what)| raw(&t, row, c).map(|v| (v, what)))
            .collect();
            let label = names.first().map(|(n, _)| n.clone()).unwrap_or(mid.clone());
            let mut d = Draft::new("contacts", format!("LINE contact {label}"));
            d.fact(FactType::Path, Some(&l.path), &l.found);
            d.fact(FactType::Account, Some(&mid), &inv);
            for (n, _) in &names {
                d.fact(FactType::Name, Some(n), &inv);
            }
            d.fact(FactType::Text, raw(&t, row, "status").as_deref(), &inv);
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
            if let Some(a) = raw(&t, row, "account") {
                observe(
                    ctx,
                    &context,
                    EntityKind::Person,
                    &label,
                    IdType::AccountId,
                    &a,
                    &inv,
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
                    &inv,
                    why(what),
                )?;
            }
        }
    }
    let sql = format!(
        "SELECT id, chat_id, from_mid, content, created_time, {}, {}, {}, {} FROM chat_history ORDER BY id",
        col(&hcols, "status", "status"),
        col(&hcols, "server_id", "server_id"),
        col(&hcols, "attachement_type", "attachment_type"),
        col(&hcols, "attachement_local_uri", "attachment"),
    );
    let Some((inv, t)) = query_on(ctx, &l.tree, &l.path, &sql, MAX_ROWS)? else {
        return Ok(());
    };
    note_row_cap(ctx, &name, &t, MAX_ROWS, "LINE messages")?;
    for row in &t.rows {
        let id = t.get(row, "id").unwrap_or("?");
        let chat = raw(&t, row, "chat_id");
        let from = raw(&t, row, "from_mid").filter(|f| !f.is_empty());
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
        d.fact(FactType::Account, chat.as_deref(), &inv);
        d.fact(FactType::Account, from.as_deref(), &inv);
        d.fact(FactType::Text, raw(&t, row, "content").as_deref(), &inv);
        d.fact(
            FactType::Identifier,
            raw(&t, row, "server_id").as_deref(),
            &inv,
        );
        d.fact(FactType::Path, raw(&t, row, "attachment").as_deref(), &inv);
        let ts = raw(&t, row, "created_time");
        d.time(
            ts.as_deref(),
            unix_millis(ts.as_deref()),
            if sent {
                "Message sent"
            } else {
                "Message received"
            },
            &inv,
        );
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
            &inv,
            text,
            &format!("LINE message {id} ({})", l.name()),
            sent,
            context.as_deref(),
            mark,
        )?;
    }
    Ok(())
}
