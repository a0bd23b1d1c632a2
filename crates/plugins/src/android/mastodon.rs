//! Mastodon, the official Android app (`org.joinmastodon.android`), the fields of ALEAPP's six
//! `mastodon` artefacts, found by listing the app's folder:
//!
//! - `databases/<instance>_<account id>.db`, one cache per signed-in account, its JSON columns
//!   read with `json_extract` in the query: `recent_searches` (one `web` per search: a hashtag —
//!   name, URL —, an account — user name, display name, URL, id — or a status — text, URL —,
//!   the time it was made, Unix seconds), `notifications_all` and `notifications_mentions` (one
//!   `social` per notification: created, type, who it came from, the status it is about — URL,
//!   text, visibility, created —, id), `home_timeline` (one `social` per status: created,
//!   author, posting application, text, attachments' URLs, URL, the boosted status — author,
//!   text, URL —, counts, visibility, id; a `direct` one is a message, recorded as one). Status
//!   text is HTML, flattened in the query as iOS's reader does.
//! - `files/accounts.json` (`read_json`, access tokens redacted by the tool): one `accounts`
//!   per signed-in account — created, handle, user name, display name, URL, id, followers,
//!   following, bio, avatar, bot, discoverable, locked, suspended, the instance and the push
//!   alerts it has on. The session's members are named by the app's obfuscated field letters
//!   (ALEAPP reads `b`, `c`, `j`), which a release may change: the account is the member that
//!   holds `acct`, the instance the member naming the account's host, the alerts the member
//!   holding `alerts`.
//! - `files/instance*.json` (`read_json`): one `apps` per instance the app knows — last
//!   updated (Unix ms), URI, title, description, version, users, statuses, invites,
//!   registrations, the admin's e-mail, the owner's URL, thumbnail.
//!
//! Identities: a Mastodon user is `mastodon:user@domain` (as iOS's reader names them: a local
//! handle gets the host of its profile URL, computed in the query) with user and display name;
//! the signed-in account is the device's user's (`owner`): its e-mail-less handle is computed
//! from the statuses and notifications its cache holds about it (the account id of the cache's
//! file name), its display name from `accounts.json`. A direct status's wallet addresses are
//! its author's claims.

use std::collections::BTreeSet;

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{EntityKind, FactType, IdType};
use masf_tools::Invoked;
use serde_json::{Value, json};

use super::{Located, record_query};
use crate::calls::Tables;
use crate::drafts::{Draft, RowPhenomena, date_text, record_draft, unix_millis, unix_seconds};
use crate::identity::{args_on, artefact_name, observe, observe_columns, schema_on};
use crate::ios::mastodon::html_text;
use crate::outputs::json_scalar;

/// The app's data folder name.
pub const PACKAGE: &str = "org.joinmastodon.android";

/// Lists the app's folder once and reads its caches and its session files.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(listing) = crate::calls::call_or_note(
        ctx,
        &artefact_name(&l.tree, &l.path),
        "find_files",
        args_on(
            &l.tree,
            json!({"path": l.path, "name_globs": ["*.db", "accounts.json", "instance*.json"]}),
        ),
    )?
    else {
        return Ok(());
    };
    let paths = crate::outputs::found_paths(&listing.output.text);
    let in_dir = |dir: &str| -> Vec<String> {
        let dir = format!("{}/{dir}", l.path);
        paths
            .iter()
            .filter(|p| p.rsplit_once('/').map(|(d, _)| d) == Some(dir.as_str()))
            .cloned()
            .collect()
    };
    let at = |path: String| Located {
        tree: l.tree.clone(),
        path,
        found: listing.clone(),
    };
    for f in in_dir("files") {
        let f = at(f);
        if f.name() == "accounts.json" {
            ctx.artefact(&artefact_name(&f.tree, &f.path), || accounts(ctx, &f))?;
        } else {
            ctx.artefact(&artefact_name(&f.tree, &f.path), || instance(ctx, &f))?;
        }
    }
    for db in in_dir("databases") {
        let db = at(db);
        ctx.artefact(&artefact_name(&db.tree, &db.path), || cache(ctx, &db))?;
    }
    Ok(())
}

/// A value at `path` of `v` as the output prints it.
fn at(v: &Value, path: &[&str]) -> Option<String> {
    json_scalar(path.iter().try_fold(v, |n, k| n.get(k)))
}

/// The session's account: the member holding `acct`; its instance, the string member naming
/// the host of its URL (else one shaped like a host name); its alerts, the member holding
/// `alerts`.
fn session_parts(s: &Value) -> (Option<&Value>, Option<&str>, Option<&Value>) {
    let Some(o) = s.as_object() else {
        return (None, None, None);
    };
    let account = o.values().find(|v| v.get("acct").is_some());
    let host = account
        .and_then(|a| a.get("url"))
        .and_then(Value::as_str)
        .and_then(|u| u.split("://").nth(1))
        .and_then(|r| r.split('/').next());
    let hostlike = |v: &&Value| {
        v.as_str()
            .is_some_and(|s| s.contains('.') && !s.contains(['/', ' ', ':', '@']) && s.len() < 254)
    };
    let instance = o
        .values()
        .find(|v| host.is_some() && v.as_str() == host)
        .or_else(|| o.values().find(hostlike))
        .and_then(Value::as_str);
    let alerts = o
        .values()
        .find_map(|v| v.get("alerts"))
        .filter(|a| a.is_object());
    (account, instance, alerts)
}

/// `files/accounts.json`: one `accounts` per signed-in account.
fn accounts(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let name = artefact_name(&l.tree, &l.path);
    let Some(inv) = crate::calls::call_or_note(
        ctx,
        &name,
        "read_json",
        args_on(&l.tree, json!({"path": l.path})),
    )?
    else {
        return Ok(());
    };
    let doc = crate::outputs::json_document(&inv.output.text);
    let Some(list) = doc
        .as_ref()
        .and_then(|d| d.get("accounts"))
        .and_then(Value::as_array)
    else {
        ctx.unparsed(
            &name,
            "could not parse Mastodon's accounts.json because it has no accounts array",
            Some(&inv.record.invocation_id),
        )?;
        return Ok(());
    };
    for (i, s) in list.iter().enumerate() {
        let (Some(a), instance, alerts) = session_parts(s) else {
            ctx.unparsed(
                &name,
                &format!(
                    "could not parse session {} of Mastodon's accounts.json because none of its members holds an account (acct)",
                    i + 1
                ),
                Some(&inv.record.invocation_id),
            )?;
            continue;
        };
        account(ctx, l, &inv, i, a, instance, alerts)?;
    }
    Ok(())
}

fn account(
    ctx: &AgentCtx<'_>,
    l: &Located,
    inv: &Invoked,
    i: usize,
    a: &Value,
    instance: Option<&str>,
    alerts: Option<&Value>,
) -> Result<(), RuntimeError> {
    let acct = at(a, &["acct"]).unwrap_or_else(|| "?".into());
    let mut d = Draft::new("accounts", format!("Mastodon account @{acct} signed in"));
    d.fact(FactType::Path, Some(&l.path), &l.found);
    let mut said = Vec::new();
    for (key, ft, what) in [
        ("acct", FactType::Account, "handle"),
        ("username", FactType::Account, "user name"),
        ("display_name", FactType::Name, "display name"),
        ("url", FactType::Url, "URL"),
        ("id", FactType::Identifier, "id"),
        ("followers_count", FactType::Count, "followers"),
        ("following_count", FactType::Count, "following"),
        ("statuses_count", FactType::Count, "statuses"),
        ("note", FactType::Text, "bio"),
        ("avatar", FactType::Url, "avatar"),
        ("bot", FactType::Text, "bot"),
        ("discoverable", FactType::Text, "discoverable"),
        ("locked", FactType::Text, "locked"),
        ("suspended", FactType::Text, "suspended"),
    ] {
        if let Some(v) = at(a, &[key]) {
            d.fact(ft, Some(&v), inv);
            said.push(format!("{what} {v}"));
        }
    }
    if let Some(h) = instance {
        let h = crate::outputs::in_json(h);
        d.fact(FactType::Text, Some(&h), inv);
        said.push(format!("instance {h}"));
    }
    let mut on = Vec::new();
    if let Some(x) = alerts {
        crate::outputs::json_leaves(x, "", &mut on);
    }
    for (k, v) in on {
        d.fact(FactType::Text, Some(&v), inv);
        said.push(format!("alert {k} {v}"));
    }
    let t = a.get("created_at").and_then(Value::as_str);
    d.time(t, date_text(t), "Mastodon account created", inv);
    d.interpretation = format!(
        "session {} of {}: a Mastodon account signed in to the app (its access token is not copied): {}.",
        i + 1,
        l.name(),
        said.join(", ")
    );
    record_draft(ctx, d)?;
    if let Some(v) = at(a, &["display_name"]) {
        observe(
            ctx,
            "owner",
            EntityKind::Person,
            "device owner",
            IdType::DisplayName,
            &v,
            inv,
            format!(
                "The display name of the Mastodon account signed in to the app (session {} of {}).",
                i + 1,
                l.name()
            ),
        )?;
    }
    Ok(())
}

/// `files/instance*.json`: the instance the app knows.
fn instance(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let name = artefact_name(&l.tree, &l.path);
    let Some(inv) = crate::calls::call_or_note(
        ctx,
        &name,
        "read_json",
        args_on(&l.tree, json!({"path": l.path})),
    )?
    else {
        return Ok(());
    };
    let doc = crate::outputs::json_document(&inv.output.text).unwrap_or(Value::Null);
    let Some(i) = doc.get("instance").filter(|i| i.is_object()) else {
        ctx.unparsed(
            &name,
            "could not parse Mastodon's instance file because it has no instance object",
            Some(&inv.record.invocation_id),
        )?;
        return Ok(());
    };
    let uri = at(i, &["uri"]).unwrap_or_else(|| "?".into());
    let mut d = Draft::new("apps", format!("Mastodon instance {uri}"));
    d.fact(FactType::Path, Some(&l.path), &l.found);
    let mut said = Vec::new();
    for (path, ft, what) in [
        (&["uri"][..], FactType::Url, "URI"),
        (&["title"], FactType::Text, "title"),
        (&["description"], FactType::Text, "description"),
        (&["short_description"], FactType::Text, "short description"),
        (&["version"], FactType::Text, "version"),
        (&["stats", "user_count"], FactType::Count, "users"),
        (&["stats", "status_count"], FactType::Count, "statuses"),
        (&["stats", "domain_count"], FactType::Count, "domains"),
        (&["invites_enabled"], FactType::Text, "invites enabled"),
        (&["registrations"], FactType::Text, "registrations"),
        (&["email"], FactType::Email, "admin e-mail"),
        (&["contact_account", "url"], FactType::Url, "owner"),
        (&["thumbnail"], FactType::Url, "thumbnail"),
    ] {
        if let Some(v) = at(i, path) {
            d.fact(ft, Some(&v), &inv);
            said.push(format!("{what} {v}"));
        }
    }
    let t = at(&doc, &["last_updated"]);
    d.time(
        t.as_deref(),
        unix_millis(t.as_deref()),
        "Mastodon instance details updated",
        &inv,
    );
    d.interpretation = format!(
        "{}: a Mastodon instance the app knows (the signed-in account's home, or one it looked at): {}; the update time is Unix milliseconds.",
        l.name(),
        said.join(", ")
    );
    record_draft(ctx, d)
}

/// An SQL expression: the global handle (`mastodon:user@domain`) of the handle `acct` (SQL),
/// a local one (no `@`) given the host of the account's profile URL `url` (SQL); NULL when
/// there is no handle, or a local one without a URL. Mastodon's and Tusky's readers.
pub(super) fn handle_expr(acct: &str, url: &str) -> String {
    let rest = format!("substr({url}, instr({url}, '://') + 3)");
    format!(
        "CASE WHEN {acct} IS NULL OR {acct} = '' THEN NULL WHEN instr({acct}, '@') > 0 THEN 'mastodon:' || {acct} WHEN instr({url}, '://') > 0 THEN 'mastodon:' || {acct} || '@' || substr({rest}, 1, CASE WHEN instr({rest}, '/') > 0 THEN instr({rest}, '/') - 1 ELSE length({rest}) END) END"
    )
}

/// [`handle_expr`] of the account object at `path` of the JSON column `col`.
fn handle_sql(col: &str, path: &str) -> String {
    handle_expr(
        &format!("json_extract({col}, '{path}.acct')"),
        &format!("json_extract({col}, '{path}.url')"),
    )
}

/// `json_extract(<col>, '<path>') AS <alias>` of each `(path, alias)`.
fn extract(col: &str, spec: &[(&str, &str)]) -> String {
    spec.iter()
        .map(|(p, a)| format!("json_extract({col}, '{p}') AS {a}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A cache `<instance>_<account id>.db`.
fn cache(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(schema) = schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    let what = format!("Mastodon's cache {}", l.name());
    let Some(tables) = Tables::of(
        ctx,
        &name,
        &what,
        &schema,
        &[
            "recent_searches",
            "notifications_all",
            "notifications_mentions",
            "home_timeline",
        ],
    )?
    else {
        return Ok(());
    };
    // the signed-in account's id: the cache's name is <instance>_<account id>.db
    let own = l
        .name()
        .strip_suffix(".db")
        .and_then(|s| s.rsplit_once('_'))
        .map(|(_, id)| id.replace('\'', "''"))
        .filter(|id| !id.is_empty());
    let need =
        |t: &str, c: &[&str]| -> Result<bool, RuntimeError> { Ok(tables.need(t, c)?.is_some()) };
    if need("recent_searches", &["id", "json", "time"])? {
        searches(ctx, l)?;
    }
    let mut owner = BTreeSet::new();
    for t in ["notifications_all", "notifications_mentions"] {
        if need(t, &["id", "json"])? {
            notifications(ctx, l, t, own.as_deref(), &mut owner)?;
        }
    }
    if need("home_timeline", &["id", "json"])? {
        timeline(ctx, l, own.as_deref(), &mut owner)?;
    }
    Ok(())
}

fn searches(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let sql = format!(
        "SELECT s.rowid AS rid, s.id AS id, s.time AS time, {}, {} AS qualified, {} AS status_text FROM recent_searches s WHERE json_valid(s.json) ORDER BY s.time",
        extract(
            "s.json",
            &[
                ("$.hashtag.name", "hashtag"),
                ("$.hashtag.url", "hashtag_url"),
                ("$.account.username", "username"),
                ("$.account.display_name", "display_name"),
                ("$.account.acct", "acct"),
                ("$.account.url", "account_url"),
                ("$.account.id", "account_id"),
                ("$.status.url", "status_url"),
            ]
        ),
        handle_sql("s.json", "$.account"),
        html_text("json_extract(s.json, '$.status.content')"),
    );
    let file = l.name().to_string();
    record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "recent_searches",
            category: "web",
            what: "a search result the Mastodon app kept as a recent search (a hashtag, an account or a status the user looked up)",
            title: &|t, row| match (t.get(row, "hashtag"), t.get(row, "acct")) {
                (Some(h), _) => format!("Mastodon search #{h}"),
                (_, Some(a)) => format!("Mastodon search @{a}"),
                _ => format!("Mastodon search {}", t.get(row, "id").unwrap_or("?")),
            },
            fields: &[
                ("hashtag", FactType::Text, "hashtag"),
                ("hashtag_url", FactType::Url, "hashtag URL"),
                ("username", FactType::Account, "user name"),
                ("display_name", FactType::Name, "display name"),
                ("acct", FactType::Account, "handle"),
                ("qualified", FactType::Account, "account"),
                ("account_url", FactType::Url, "account URL"),
                ("account_id", FactType::Identifier, "account id"),
                ("status_text", FactType::Text, "status"),
                ("status_url", FactType::Url, "status URL"),
                ("id", FactType::Identifier, "id"),
            ],
            times: &[("time", "Mastodon search made", unix_seconds)],
        },
        &mut |inv, t, row| person(ctx, inv, t, row, "qualified", "display_name", &file),
    )
}

/// The user of `col` (a qualified handle) observed with their display name `name`.
fn person(
    ctx: &AgentCtx<'_>,
    inv: &Invoked,
    t: &crate::outputs::Table,
    row: &[Option<String>],
    col: &str,
    name: &str,
    file: &str,
) -> Result<(), RuntimeError> {
    let Some(q) = t.get(row, col) else {
        return Ok(());
    };
    let label = t.get(row, name).unwrap_or(q).to_string();
    observe_columns(
        ctx,
        q,
        &label,
        t,
        row,
        inv,
        &[
            (col, IdType::AccountId, "The Mastodon handle"),
            (name, IdType::DisplayName, "The display name"),
        ],
        &|what| {
            format!(
                "{what} of a Mastodon user the app's cache {file} holds (row {}).",
                t.get(row, "rid").unwrap_or("?")
            )
        },
    )
}

/// Observes the signed-in account's handle (`col`) on `owner` once, when the row's `mine` says
/// the account object is the cache's own.
#[allow(clippy::too_many_arguments)]
fn own_handle(
    ctx: &AgentCtx<'_>,
    inv: &Invoked,
    t: &crate::outputs::Table,
    row: &[Option<String>],
    mine: &str,
    col: &str,
    file: &str,
    owner: &mut BTreeSet<String>,
) -> Result<(), RuntimeError> {
    if t.get(row, mine) != Some("1") {
        return Ok(());
    }
    let Some(q) = t.get(row, col) else {
        return Ok(());
    };
    if !owner.insert(q.to_string()) {
        return Ok(());
    }
    observe(
        ctx,
        "owner",
        EntityKind::Person,
        "device owner",
        IdType::AccountId,
        q,
        inv,
        format!(
            "The Mastodon handle of the account signed in to the app: the account of this row of its cache {file} has the id the cache's file name gives (row {}).",
            t.get(row, "rid").unwrap_or("?")
        ),
    )?;
    Ok(())
}

/// `CASE WHEN <account id at path> = '<own>' THEN 1 ELSE 0 END AS <alias>`.
fn mine_sql(col: &str, path: &str, own: Option<&str>, alias: &str) -> String {
    match own {
        Some(id) => format!(
            "CASE WHEN json_extract({col}, '{path}.id') = '{id}' THEN 1 ELSE 0 END AS {alias}"
        ),
        None => format!("0 AS {alias}"),
    }
}

fn notifications(
    ctx: &AgentCtx<'_>,
    l: &Located,
    table: &str,
    own: Option<&str>,
    owner: &mut BTreeSet<String>,
) -> Result<(), RuntimeError> {
    let cols = crate::identity::table_columns(ctx, &l.tree, &l.path, table)?;
    let sql = format!(
        "SELECT n.rowid AS rid, n.id AS id, {}, {}, {} AS qualified, {} AS status_author, {}, {} AS text FROM {table} n WHERE json_valid(n.json) ORDER BY n.rowid",
        crate::calls::column_or_null(&cols, "n.", "type", "type_code"),
        extract(
            "n.json",
            &[
                ("$.created_at", "created"),
                ("$.type", "type"),
                ("$.account.acct", "acct"),
                ("$.account.display_name", "display_name"),
                ("$.status.url", "status_url"),
                ("$.status.visibility", "visibility"),
                ("$.status.created_at", "status_created"),
            ]
        ),
        handle_sql("n.json", "$.account"),
        handle_sql("n.json", "$.status.account"),
        mine_sql("n.json", "$.status.account", own, "mine"),
        html_text("json_extract(n.json, '$.status.content')"),
    );
    let file = l.name().to_string();
    record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table,
            category: "social",
            what: "a notification the Mastodon app received (a follow, mention, boost, favourite, poll or status of someone followed)",
            title: &|t, row| {
                format!(
                    "Mastodon notification {} from @{}",
                    t.get(row, "type")
                        .or(t.get(row, "type_code"))
                        .unwrap_or("?"),
                    t.get(row, "acct").unwrap_or("?")
                )
            },
            fields: &[
                ("type", FactType::Text, "type"),
                ("type_code", FactType::Count, "type code"),
                ("acct", FactType::Account, "from"),
                ("qualified", FactType::Account, "from account"),
                ("display_name", FactType::Name, "from name"),
                ("status_url", FactType::Url, "status URL"),
                ("text", FactType::Text, "status text"),
                ("visibility", FactType::Text, "visibility"),
                ("status_author", FactType::Account, "status author"),
                ("id", FactType::Identifier, "id"),
            ],
            times: &[
                ("created", "Mastodon notification", date_text),
                ("status_created", "Mastodon status created", date_text),
            ],
        },
        &mut |inv, t, row| {
            person(ctx, inv, t, row, "qualified", "display_name", &file)?;
            own_handle(ctx, inv, t, row, "mine", "status_author", &file, owner)
        },
    )
}

/// How a Mastodon client's status rows are recorded (the official app's and Tusky's): the
/// app's name, the table, the facts, the creation column and its encoding, more times.
pub(super) struct Statuses<'a> {
    pub app: &'a str,
    pub table: &'a str,
    pub fields: &'a [(&'a str, FactType, &'a str)],
    pub created: (&'a str, crate::drafts::Encoding),
    pub times: &'a [(&'a str, &'a str, crate::drafts::Encoding)],
    /// How the times are written, for the interpretation ("ISO 8601").
    pub written: &'a str,
}

/// One status row (`rid`, `text`, `qualified`, the author's handle `author`): a `social`
/// phenomenon, a direct one (`direct`) a message sent by the device's user when `mine`, else
/// received — a direction given only when the signed-in account is known (`own_known`); a
/// direct message's wallet addresses are claims by direction.
#[allow(clippy::too_many_arguments)]
pub(super) fn status(
    ctx: &AgentCtx<'_>,
    l: &Located,
    spec: &Statuses<'_>,
    inv: &Invoked,
    t: &crate::outputs::Table,
    row: &[Option<String>],
    author: &str,
    (direct, mine, own_known): (bool, bool, bool),
) -> Result<(), RuntimeError> {
    let app = spec.app;
    let mut d = if direct {
        Draft::new(
            "messages",
            if mine {
                format!("{app} direct message sent")
            } else {
                format!("{app} direct message from @{author}")
            },
        )
    } else {
        Draft::new("social", format!("{app} status by @{author}"))
    };
    d.fact(FactType::Path, Some(&l.path), &l.found);
    let said = d.fields(t, row, inv, spec.fields);
    let (col, enc) = spec.created;
    let at = t.get(row, col);
    if direct && own_known {
        d.message_time(at, enc(at), mine, inv);
    } else {
        d.time(at, enc(at), "Mastodon status created", inv);
    }
    for (c, what, e) in spec.times {
        let v = t.get(row, c);
        d.time(v, e(v), what, inv);
    }
    let file = l.name();
    let rid = t.get(row, "rid").unwrap_or("?");
    d.interpretation = format!(
        "{} row {rid} of {file}: {}: {}; times are {}.",
        spec.table,
        match (direct, mine) {
            (true, true) => "a direct message the device's user wrote".to_string(),
            (true, false) => "a direct message to the device's user".to_string(),
            (false, true) => format!("a status of the device's user in a {app} timeline"),
            (false, false) => format!("a status in a {app} timeline"),
        },
        said.join(", "),
        spec.written
    );
    record_draft(ctx, d)?;
    if direct
        && own_known
        && let Some(text) = t.get(row, "text")
    {
        let q = t.get(row, "qualified");
        crate::identity::claims_by_direction(
            ctx,
            inv,
            text,
            &format!("{app} direct message ({} row {rid} of {file})", spec.table),
            mine,
            q.filter(|_| !mine).map(|q| (q, author)),
        )?;
    }
    Ok(())
}

fn timeline(
    ctx: &AgentCtx<'_>,
    l: &Located,
    own: Option<&str>,
    owner: &mut BTreeSet<String>,
) -> Result<(), RuntimeError> {
    let sql = format!(
        "SELECT h.rowid AS rid, h.id AS id, {}, {} AS qualified, {} AS reblog_qualified, {}, {} AS text, {} AS reblog_text, (SELECT group_concat(json_extract(m.value, '$.url'), ' ') FROM json_each(h.json, '$.media_attachments') m) AS attachments FROM home_timeline h WHERE json_valid(h.json) ORDER BY h.rowid",
        extract(
            "h.json",
            &[
                ("$.created_at", "created"),
                ("$.account.acct", "acct"),
                ("$.account.display_name", "display_name"),
                ("$.application.name", "application"),
                ("$.url", "url"),
                ("$.reblog.account.acct", "reblog_acct"),
                ("$.reblog.url", "reblog_url"),
                ("$.replies_count", "replies"),
                ("$.reblogs_count", "boosts"),
                ("$.favourites_count", "favourites"),
                ("$.visibility", "visibility"),
                ("$.in_reply_to_id", "reply_to"),
            ]
        ),
        handle_sql("h.json", "$.account"),
        handle_sql("h.json", "$.reblog.account"),
        mine_sql("h.json", "$.account", own, "mine"),
        html_text("json_extract(h.json, '$.content')"),
        html_text("json_extract(h.json, '$.reblog.content')"),
    );
    let file = l.name().to_string();
    let Some(pages) = crate::identity::pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(());
    };
    crate::calls::note_pages_cap(
        ctx,
        &artefact_name(&l.tree, &l.path),
        &pages,
        "home timeline statuses",
    )?;
    let spec = Statuses {
        app: "Mastodon",
        table: "home_timeline",
        fields: &[
            ("text", FactType::Text, "text"),
            ("acct", FactType::Account, "author"),
            ("qualified", FactType::Account, "author account"),
            ("display_name", FactType::Name, "author name"),
            ("application", FactType::Text, "application"),
            ("attachments", FactType::Url, "attachments"),
            ("url", FactType::Url, "URL"),
            ("reblog_acct", FactType::Account, "boosted author"),
            ("reblog_qualified", FactType::Account, "boosted account"),
            ("reblog_text", FactType::Text, "boosted text"),
            ("reblog_url", FactType::Url, "boosted URL"),
            ("replies", FactType::Count, "replies"),
            ("boosts", FactType::Count, "boosts"),
            ("favourites", FactType::Count, "favourites"),
            ("visibility", FactType::Text, "visibility"),
            ("reply_to", FactType::Identifier, "in reply to"),
            ("id", FactType::Identifier, "id"),
        ],
        created: ("created", date_text),
        times: &[],
        written: "ISO 8601",
    };
    for (inv, t, row) in pages.rows() {
        let direct = t.get(row, "visibility") == Some("direct");
        let mine = t.get(row, "mine") == Some("1");
        let acct = t.get(row, "acct").unwrap_or("?");
        status(
            ctx,
            l,
            &spec,
            inv,
            t,
            row,
            acct,
            (direct, mine, own.is_some()),
        )?;
        person(ctx, inv, t, row, "qualified", "display_name", &file)?;
        own_handle(ctx, inv, t, row, "mine", "qualified", &file, owner)?;
    }
    Ok(())
}
