//! RandoChat (`com.random.chat.app/databases/ramdochatV2.db`), ALEAPP's `RandoChat`
//! (`randochat_messages`, `randochat_account`, `randochat_contacts`): an app that pairs its user
//! with strangers at random for anonymous chats — the account's profile and search preferences,
//! every stranger chatted with, and the messages. The app's names are Portuguese.
//!
//! | table | phenomenon | fields |
//! |---|---|---|
//! | `configuracao` (name, value) | one `accounts` ("RandoChat account <nickname>") | nickname (`apelido`), sex (`sexo`: H homem, male; M mulher, female — as stored), age (`idade`), language, device id, the ages and sex searched for (`idade_de`, `idade_ate`, `sexo_search`) |
//! | `conversa` | one `contacts` per stranger chatted with ("RandoChat stranger <nickname>") | the stranger's id (`id_pessoa`, `randochat:<id>`), nickname, age, sex as stored, favourite, blocked (`bloqueado`), the first profile picture's URL (`images`), conversation id |
//! | `mensagens` (with `conversa`) | one `messages` per message ("RandoChat message to/from <nickname>") | text (`mensagem`), direction (`minha` 1: the account's own, sent; any other value received — as stored too), media file (`url`), conversation and message ids, the stranger's nickname and id; sent or received (`hora`, Unix ms) |
//!
//! Only the settings named above are selected from `configuracao`. Identities: the account's
//! nickname is the device's user's (`owner`, a weak nickname: strangers are paired anonymously);
//! each stranger is a `randochat:<id_pessoa>` person with their nickname — the other party of
//! the messages of their conversation (wallet addresses in a message's text claimed by its
//! direction). A store with none of the tables is noted; columns are taken by name (absent ones
//! NULL: older releases keep fewer).

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{FactType, IdType};

use super::{Located, Schema};
use crate::calls::{column_expr, column_or_null, json_at, qualified_or_null, require_columns};
use crate::drafts::{RowPhenomena, unix_millis};
use crate::identity::{artefact_name, schema_on};
use crate::outputs::Table;

/// Whether `l` is RandoChat's store.
pub fn is_store(l: &Located) -> bool {
    l.name() == "ramdochatV2.db" && l.path.contains("/com.random.chat.app/")
}

/// The settings of `configuracao` read: `(name, alias, type, label)`.
const SETTINGS: &[(&str, &str, FactType, &str)] = &[
    ("apelido", "nickname", FactType::Account, "nickname"),
    ("sexo", "sex", FactType::Text, "sex"),
    ("idade", "age", FactType::Count, "age"),
    ("language", "language", FactType::Text, "language"),
    ("device_id", "device_id", FactType::Identifier, "device id"),
    (
        "idade_de",
        "age_from",
        FactType::Count,
        "searches ages from",
    ),
    ("idade_ate", "age_to", FactType::Count, "searches ages to"),
    ("sexo_search", "sex_search", FactType::Text, "searches sex"),
];

/// One `ramdochatV2.db`.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(schema) = schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    let tables = ["configuracao", "conversa", "mensagens"];
    if !tables.iter().any(|t| schema.contains_key(*t)) {
        ctx.unparsed(
            &artefact_name(&l.tree, &l.path),
            &format!(
                "not RandoChat's ramdochatV2.db: none of the tables {}",
                tables.join(", ")
            ),
            None,
        )?;
        return Ok(());
    }
    account(ctx, l, &schema)?;
    strangers(ctx, l, &schema)?;
    messages(ctx, l, &schema)
}

/// `configuracao`: the account's profile and search preferences.
fn account(ctx: &AgentCtx<'_>, l: &Located, schema: &Schema) -> Result<(), RuntimeError> {
    let table = "configuracao";
    let Some(cols) = schema.get(table) else {
        return Ok(());
    };
    if !require_columns(
        ctx,
        &artefact_name(&l.tree, &l.path),
        "RandoChat's ramdochatV2.db",
        table,
        cols,
        &["name", "value"],
    )? {
        return Ok(());
    }
    let sql = format!(
        "SELECT * FROM (SELECT {}, count(*) AS settings FROM {table}) WHERE settings > 0",
        SETTINGS
            .iter()
            .map(|(n, a, ..)| format!("MAX(CASE WHEN name = '{n}' THEN value END) AS {a}"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let fields: Vec<(&str, FactType, &str)> =
        SETTINGS.iter().map(|(_, a, t, w)| (*a, *t, *w)).collect();
    let file = l.name().to_string();
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table,
            category: "accounts",
            what: "the RandoChat account of the phone: its profile and whom it searches for (sex as stored: H homem, male; M mulher, female)",
            title: &|t, row| match t.get(row, "nickname") {
                Some(n) => format!("RandoChat account {n}"),
                None => "RandoChat account".to_string(),
            },
            fields: &fields,
            times: &[],
        },
        &mut |inv, t, row| {
            crate::identity::observe_columns(
                ctx,
                "owner",
                "device owner",
                t,
                row,
                inv,
                &[("nickname", IdType::Nickname, "The nickname")],
                &|what| {
                    format!(
                        "{what} of the RandoChat account set up on the device (configuracao of {file}), the device's user's."
                    )
                },
            )
        },
    )
}

/// `conversa`: every stranger chatted with.
fn strangers(ctx: &AgentCtx<'_>, l: &Located, schema: &Schema) -> Result<(), RuntimeError> {
    let table = "conversa";
    let Some(cols) = schema.get(table) else {
        return Ok(());
    };
    if !require_columns(
        ctx,
        &artefact_name(&l.tree, &l.path),
        "RandoChat's ramdochatV2.db",
        table,
        cols,
        &["id_pessoa"],
    )? {
        return Ok(());
    }
    let picture = if cols.contains("images") {
        format!("{} AS picture", json_at("images", "$[0].img"))
    } else {
        "NULL AS picture".to_string()
    };
    let sql = format!(
        "SELECT rowid AS rid, id_pessoa, {}, {}, {picture} FROM {table} ORDER BY rowid",
        qualified_or_null(cols, "", "id_pessoa", "randochat", "qualified"),
        crate::calls::select_columns(
            cols,
            "",
            &[
                ("apelido", "apelido"),
                ("idade", "idade"),
                ("sexo", "sexo"),
                ("favorite", "favorite"),
                ("bloqueado", "bloqueado"),
                ("id_server", "id_server"),
            ]
        ),
    );
    let file = l.name().to_string();
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table,
            category: "contacts",
            what: "a stranger RandoChat paired the account with for a chat (sex as stored: H male, M female; favourite and blocked as stored, 1 yes)",
            title: &|t: &Table, row: &[Option<String>]| {
                format!(
                    "RandoChat stranger {}",
                    t.get(row, "apelido")
                        .or_else(|| t.get(row, "id_pessoa"))
                        .unwrap_or("?")
                )
            },
            fields: &[
                ("apelido", FactType::Account, "nickname"),
                ("id_pessoa", FactType::Account, "user id"),
                ("qualified", FactType::Account, "account"),
                ("idade", FactType::Count, "age"),
                ("sexo", FactType::Text, "sex"),
                ("favorite", FactType::Text, "favourite"),
                ("bloqueado", FactType::Text, "blocked"),
                ("picture", FactType::Url, "profile picture"),
                ("id_server", FactType::Identifier, "conversation"),
            ],
            times: &[],
        },
        &mut |inv, t, row| {
            crate::identity::observe_row_person(
                ctx,
                t,
                row,
                inv,
                "apelido",
                &[
                    ("qualified", IdType::AccountId, "The RandoChat user id"),
                    ("apelido", IdType::Nickname, "The nickname"),
                ],
                &|what, _| {
                    format!(
                        "{what} of a stranger the RandoChat account chatted with (conversa of {file})."
                    )
                },
            )
        },
    )
}

/// `mensagens`: every message, with the stranger of its conversation.
fn messages(ctx: &AgentCtx<'_>, l: &Located, schema: &Schema) -> Result<(), RuntimeError> {
    let table = "mensagens";
    let Some(cols) = schema.get(table) else {
        return Ok(());
    };
    if !require_columns(
        ctx,
        &artefact_name(&l.tree, &l.path),
        "RandoChat's ramdochatV2.db",
        table,
        cols,
        &["mensagem"],
    )? {
        return Ok(());
    }
    let joined = cols.contains("id_talk_server")
        && schema
            .get("conversa")
            .is_some_and(|c| c.contains("id_server") && c.contains("id_pessoa"));
    let partner = |expr: &str, alias: &str| {
        if joined {
            format!(
                "(SELECT {expr} FROM conversa c WHERE c.id_server = m.id_talk_server AND c.id_pessoa IS NOT NULL AND c.id_pessoa != '' LIMIT 1) AS {alias}"
            )
        } else {
            format!("NULL AS {alias}")
        }
    };
    let nickname = if schema
        .get("conversa")
        .is_some_and(|c| c.contains("apelido"))
    {
        partner("c.apelido", "partner")
    } else {
        "NULL AS partner".to_string()
    };
    let (minha, hora) = (
        column_expr(cols, "m.", "minha"),
        column_expr(cols, "m.", "hora"),
    );
    let sql = format!(
        "SELECT m.rowid AS rid, m.mensagem AS text, {minha} AS minha, CASE WHEN {minha} = 1 THEN 'sent' WHEN {minha} IS NOT NULL THEN 'received' END AS direction, {}, {}, {}, {nickname}, {}, {}, CASE WHEN {minha} = 1 THEN {hora} END AS sent_at, CASE WHEN {minha} IS NOT NULL AND {minha} != 1 THEN {hora} END AS received_at, CASE WHEN {minha} IS NULL THEN {hora} END AS at FROM {table} m ORDER BY m.rowid",
        column_or_null(cols, "m.", "url", "url"),
        column_or_null(cols, "m.", "id_talk_server", "conversation"),
        column_or_null(cols, "m.", "id_servidor", "message_id"),
        partner("c.id_pessoa", "partner_id"),
        partner("'randochat:' || c.id_pessoa", "partner_q"),
    );
    let title = |t: &Table, row: &[Option<String>]| {
        let who = t
            .get(row, "partner")
            .map(str::to_string)
            .or_else(|| {
                t.get(row, "conversation")
                    .map(|c| format!("conversation {c}"))
            })
            .unwrap_or_else(|| "a stranger".to_string());
        match t.get(row, "direction") {
            Some("sent") => format!("RandoChat message to {who}"),
            Some(_) => format!("RandoChat message from {who}"),
            None => format!("RandoChat message with {who}"),
        }
    };
    let file = l.name().to_string();
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table,
            category: "messages",
            what: "a message of a RandoChat chat with a stranger (minha 1 is the account's own, sent; any other value received; the stranger named from conversa by the conversation id; the time Unix milliseconds)",
            title: &title,
            fields: &[
                ("text", FactType::Text, "text"),
                ("direction", FactType::Text, "direction"),
                ("minha", FactType::Text, "minha"),
                ("url", FactType::Text, "media file"),
                ("partner", FactType::Account, "stranger"),
                ("partner_id", FactType::Account, "stranger id"),
                ("conversation", FactType::Identifier, "conversation"),
                ("message_id", FactType::Identifier, "message id"),
            ],
            times: &[
                ("sent_at", "Message sent", unix_millis),
                ("received_at", "Message received", unix_millis),
                ("at", "RandoChat message", unix_millis),
            ],
        },
        &mut |inv, t, row| {
            let (Some(text), Some(direction)) = (t.get(row, "text"), t.get(row, "direction"))
            else {
                return Ok(());
            };
            let label = t.get(row, "partner").unwrap_or("a stranger");
            crate::identity::claims_by_direction(
                ctx,
                inv,
                text,
                &format!(
                    "RandoChat message row {} ({file})",
                    t.get(row, "rid").unwrap_or("?")
                ),
                direction == "sent",
                t.get(row, "partner_q").map(|q| (q, label)),
            )?;
            Ok(())
        },
    )
}
