//! Tinder on Android (`com.tinder/databases/tinder-3.db`), the fields of ALEAPP's
//! `tinderMessages`, `tinderMatches`, `tinderInboxMessages` and the database part of
//! `tinderAccount`:
//!
//! | table | phenomenon | fields and identities |
//! |---|---|---|
//! | `message` (with `match`, `match_person`) | one `messages` per message | sent (Unix ms), sender and recipient ids, text, type and delivery status as stored, liked, seen, message and match ids, the matched person's id and name, and from `raw_message_data` (JSON, read with `json_extract` in the query) the content type and GIF description; direction as ALEAPP derives it (the sender is the matched person: received; the recipient is: sent) |
//! | `match` (with `match_person`) | one `contacts` per match | created and last activity (Unix ms), the person's name, bio, birth date (Unix ms), gender (protobuf field 1, as stored) and membership status, blocked, muted, type, attribution, the photos' URLs (protobuf: each entry's field 1), person and match ids; a `tinder:<person id>` person with the name |
//! | `inbox_message` | one `messages` per message from Tinder | sent, body, type, seen, campaign, experiment, variant, message and segment ids |
//! | `last_activity_date` | one `accounts` | the account's last activity (Unix ms) |
//!
//! The account (`files/datastore/` beside the databases, Jetpack DataStore files read by
//! `read_protobuf`, at the field paths ALEAPP's `tinderAccount` reads): the e-mail and phone
//! (`account`), two times whose meaning is not documented (`accountinfo` 1›1 and 1›2›1, said as
//! stored) and a phone, the user id (`id`), and the profile (`user`: name, birth date, bio,
//! gender and orientation codes with their labels, job, company, school, city, region, photo
//! URLs), one `accounts` phenomenon.
//!
//! The device's user is the one sender of the messages sent to a matched person: `owner`,
//! `tinder:<user id>`, the id iOS's Tinder keeps; the datastore's e-mail, phone and name are
//! `owner`'s too. Schema drift: each table is read when it has its key columns, the others
//! where present.

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{FactType, IdType};

use super::Located;
use crate::calls::{column_or_null, note_pages_cap, require_columns};
use crate::drafts::{Draft, record_draft, unix_millis};
use crate::identity::{
    artefact_name, observe_columns, pages_on, pages_on_with, query_on, schema_on,
};
use crate::outputs::{in_json_cell, raw};

/// Whether `l` is Tinder's own store.
pub fn is_tinder(l: &Located) -> bool {
    l.path.contains("/com.tinder/databases/") && l.name() == "tinder-3.db"
}

const STORE: &str = "Tinder's tinder-3.db";

type Schema = std::collections::BTreeMap<String, std::collections::BTreeSet<String>>;

/// One `tinder-3.db`.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(schema) = schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    let tables = ["message", "match", "match_person", "inbox_message"];
    if !tables.iter().any(|t| schema.contains_key(*t)) {
        ctx.unparsed(
            &name,
            &format!(
                "could not parse {STORE} because it has none of the tables {}",
                tables.join(", ")
            ),
            None,
        )?;
        return Ok(());
    }
    if schema.contains_key("message") && schema.contains_key("match") {
        owner(ctx, l)?;
    }
    if let Some(cols) = schema.get("message")
        && require_columns(
            ctx,
            &name,
            STORE,
            "message",
            cols,
            &["sent_date", "from_id"],
        )?
    {
        messages(ctx, l, &name, &schema)?;
    }
    if let Some(cols) = schema.get("match")
        && require_columns(ctx, &name, STORE, "match", cols, &["id"])?
    {
        matches(ctx, l, &name, &schema)?;
    }
    if let Some(cols) = schema.get("inbox_message")
        && require_columns(ctx, &name, STORE, "inbox_message", cols, &["sent_date"])?
    {
        inbox(ctx, l, &name, cols)?;
    }
    if schema
        .get("last_activity_date")
        .is_some_and(|c| c.contains("last_activity_date"))
    {
        last_activity(ctx, l)?;
    }
    datastore(ctx, l)
}

/// The value at `path` of a decoded message (the first value of each field on the way).
fn at<'a>(v: &'a serde_json::Value, path: &[&str]) -> Option<&'a serde_json::Value> {
    path.iter()
        .try_fold(v, |node, field| node.get(field)?.get(0))
}

/// The account's DataStore files (`files/datastore/{account,accountinfo,id,user}` of the
/// package), read by `read_protobuf` where present: one `accounts` phenomenon, and the e-mail,
/// phone and name on `owner`.
fn datastore(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    use crate::outputs::json_scalar;
    let Some(root) = l
        .path
        .find("/com.tinder/")
        .map(|at| &l.path[..at + "/com.tinder".len()])
    else {
        return Ok(());
    };
    let dir = format!("{root}/files/datastore");
    let listed = ctx.call(
        "list_dir",
        crate::identity::args_on(&l.tree, serde_json::json!({"path": dir})),
    )?;
    if !crate::calls::succeeded(&listed) {
        return Ok(());
    }
    let present = crate::outputs::found_paths(&listed.output.text);
    let mut read = std::collections::BTreeMap::new();
    for name in ["account", "accountinfo", "id", "user"] {
        let path = format!("{dir}/{name}");
        if !present.contains(&path) {
            continue;
        }
        let Some(inv) = crate::calls::call_or_note(
            ctx,
            &artefact_name(&l.tree, &path),
            "read_protobuf",
            crate::identity::args_on(&l.tree, serde_json::json!({"path": path})),
        )?
        else {
            continue;
        };
        let Some(v) = crate::outputs::protobuf_document(&inv.output.text) else {
            continue;
        };
        read.insert(name, (inv, v));
    }
    if read.is_empty() {
        return Ok(());
    }
    let mut d = Draft::new("accounts", "Tinder account (DataStore files)");
    d.fact(FactType::Path, Some(&dir), &listed);
    let mut said = Vec::new();
    let mut owner_ids = Vec::new();
    let mut fact = |d: &mut Draft, name: &str, path: &[&str], ft: FactType, what: &str| {
        let (inv, v) = read.get(name)?;
        let value = json_scalar(at(v, path))?;
        d.fact(ft, Some(&value), inv);
        said.push(format!("{what} {value}"));
        Some((value, inv.clone()))
    };
    if let Some((v, inv)) = fact(
        &mut d,
        "account",
        &["1", "1", "1"],
        FactType::Email,
        "e-mail",
    ) {
        owner_ids.push((
            IdType::Email,
            v,
            inv,
            "The e-mail of the Tinder account (datastore/account)",
        ));
    }
    if let Some((v, inv)) = fact(
        &mut d,
        "account",
        &["1", "4", "1"],
        FactType::Phone,
        "phone",
    ) {
        owner_ids.push((
            IdType::Phone,
            v,
            inv,
            "The phone number of the Tinder account (datastore/account)",
        ));
    }
    fact(
        &mut d,
        "accountinfo",
        &["1", "3", "1"],
        FactType::Phone,
        "accountinfo phone",
    );
    fact(&mut d, "id", &["1", "1"], FactType::Account, "user id");
    if let Some((v, inv)) = fact(&mut d, "user", &["1", "6"], FactType::Name, "name") {
        owner_ids.push((
            IdType::DisplayName,
            v,
            inv,
            "The profile name of the Tinder account (datastore/user)",
        ));
    }
    fact(&mut d, "user", &["1", "3", "1"], FactType::Text, "bio");
    fact(&mut d, "user", &["1", "8", "5", "1"], FactType::Text, "job");
    fact(
        &mut d,
        "user",
        &["1", "8", "2", "1"],
        FactType::Text,
        "company",
    );
    fact(&mut d, "user", &["1", "9", "1"], FactType::Text, "school");
    fact(&mut d, "user", &["1", "10", "1"], FactType::Text, "city");
    fact(
        &mut d,
        "user",
        &["1", "10", "2", "1"],
        FactType::Text,
        "region",
    );
    if let Some((inv, v)) = read.get("user") {
        for (field, what) in [("12", "gender"), ("11", "orientation")] {
            for entry in at(v, &["1"])
                .and_then(|p| p.get(field))
                .and_then(serde_json::Value::as_array)
                .into_iter()
                .flatten()
            {
                for part in ["1", "2"] {
                    if let Some(x) = json_scalar(at(entry, &[part])) {
                        d.fact(FactType::Text, Some(&x), inv);
                        said.push(format!("{what} {x}"));
                    }
                }
            }
        }
        for photo in at(v, &["1"])
            .and_then(|p| p.get("7"))
            .and_then(serde_json::Value::as_array)
            .into_iter()
            .flatten()
        {
            d.fact(
                FactType::Url,
                json_scalar(at(photo, &["1"])).as_deref(),
                inv,
            );
        }
        let birth = json_scalar(at(v, &["1", "4", "1"]));
        d.time(
            birth.as_deref(),
            unix_millis(birth.as_deref()),
            "Birth date",
            inv,
        );
    }
    if let Some((inv, v)) = read.get("accountinfo") {
        for (path, what) in [
            (&["1", "1"][..], "Accountinfo time 1-1 (as stored)"),
            (&["1", "2", "1"][..], "Accountinfo time 1-2-1 (as stored)"),
        ] {
            let t = json_scalar(at(v, path));
            d.time(t.as_deref(), unix_millis(t.as_deref()), what, inv);
        }
    }
    d.interpretation = format!(
        "Tinder's Jetpack DataStore files of {dir} (read raw as Protocol Buffers, at the field paths ALEAPP's tinderAccount reads): the signed-in account: {}; accountinfo's two times are said as stored (their meaning is not documented).",
        said.join(", ")
    );
    record_draft(ctx, d)?;
    for (id_type, value, inv, why) in owner_ids {
        crate::identity::observe(
            ctx,
            "owner",
            masf_graph::EntityKind::Person,
            "device owner",
            id_type,
            &value,
            &inv,
            format!("{why}, the device's user."),
        )?;
    }
    Ok(())
}

/// The device's user: the one sender of the messages sent to a matched person, observed as
/// `owner`.
fn owner(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    crate::identity::sole_owner(
        ctx,
        &l.tree,
        &l.path,
        "SELECT DISTINCT m.from_id AS user_id, 'tinder:' || m.from_id AS qualified FROM message m JOIN `match` x ON x.id = m.match_id WHERE m.to_id = x.person_id AND m.from_id IS NOT NULL AND m.from_id != '' LIMIT 2",
        "The Tinder user id",
        &format!(
            "the one sender of the messages sent to matched persons in {}",
            l.name()
        ),
    )
}

/// `col` of the `match_person` row of `x.person_id` (NULL without the table or column).
fn person(schema: &Schema, col: &str) -> String {
    if schema
        .get("match_person")
        .is_some_and(|p| p.contains("id") && p.contains(col))
    {
        format!("(SELECT p.{col} FROM match_person p WHERE p.id = x.person_id LIMIT 1)")
    } else {
        "NULL".into()
    }
}

fn messages(
    ctx: &AgentCtx<'_>,
    l: &Located,
    name: &str,
    schema: &Schema,
) -> Result<(), RuntimeError> {
    let cols = &schema["message"];
    let c = |col: &str| column_or_null(cols, "m.", col, col);
    let has_match = schema
        .get("match")
        .is_some_and(|x| x.contains("id") && x.contains("person_id"))
        && cols.contains("match_id");
    let join = if has_match {
        " LEFT JOIN `match` x ON x.id = m.match_id"
    } else {
        ""
    };
    let (person_id, person_name) = if has_match {
        ("x.person_id".to_string(), person(schema, "name"))
    } else {
        ("NULL".to_string(), "NULL".to_string())
    };
    let raw_json = |path: &str| {
        if cols.contains("raw_message_data") {
            format!(
                "CASE WHEN json_valid(m.raw_message_data) THEN json_extract(m.raw_message_data, '{path}') END"
            )
        } else {
            "NULL".into()
        }
    };
    let sql = format!(
        "SELECT m.rowid AS rid, m.sent_date AS sent_date, m.from_id AS from_id, {}, {}, {}, {}, {}, {}, {}, {}, {person_id} AS person_id, {person_name} AS person_name, \
{} AS content_type, {} AS gif_description, \
CASE WHEN {person_id} IS NOT NULL AND m.from_id = {person_id} THEN 0 WHEN {person_id} IS NOT NULL AND m.to_id = {person_id} THEN 1 END AS sent, \
CASE WHEN m.from_id IS NOT NULL AND m.from_id != '' THEN 'tinder:' || m.from_id END AS qualified \
FROM message m{join} ORDER BY m.sent_date, m.rowid",
        c("to_id"),
        c("text"),
        c("type"),
        c("delivery_status"),
        c("is_liked"),
        c("is_seen"),
        c("id"),
        c("match_id"),
        raw_json("$.type"),
        raw_json("$.gif_description"),
    );
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, name, &pages, "Tinder messages")?;
    for (inv, t, row) in pages.rows() {
        let rid = t.get(row, "rid").unwrap_or("?");
        let with = t
            .get(row, "person_name")
            .or(t.get(row, "person_id"))
            .unwrap_or("an unknown match")
            .to_string();
        let sent = crate::drafts::stored_flag(t.get(row, "sent"));
        let from = t.get(row, "from_id");
        let mut d = Draft::new(
            "messages",
            match sent {
                Some(true) => format!("Tinder message sent to {with}"),
                Some(false) => format!("Tinder message from {with}"),
                None => format!(
                    "Tinder message from {}",
                    from.unwrap_or("an unknown sender")
                ),
            },
        );
        d.fact(FactType::Path, Some(&l.path), &l.found);
        for col in ["from_id", "to_id", "person_id"] {
            d.fact(FactType::Account, raw(t, row, col).as_deref(), inv);
        }
        d.fact(FactType::Name, raw(t, row, "person_name").as_deref(), inv);
        d.fact(FactType::Text, raw(t, row, "text").as_deref(), inv);
        for col in ["type", "delivery_status", "content_type", "gif_description"] {
            d.fact(FactType::Text, raw(t, row, col).as_deref(), inv);
        }
        for col in ["is_liked", "is_seen"] {
            d.fact(FactType::Count, raw(t, row, col).as_deref(), inv);
        }
        for col in ["id", "match_id"] {
            d.fact(FactType::Identifier, raw(t, row, col).as_deref(), inv);
        }
        let time = t.get(row, "sent_date");
        match sent {
            Some(s) => d.message_time(time, unix_millis(time), s, inv),
            None => d.time(time, unix_millis(time), "Tinder message sent", inv),
        };
        d.interpretation = format!(
            "message row {rid} of {}: a Tinder message in the match with {with}, {}; sent_date is Unix milliseconds.",
            l.name(),
            match sent {
                Some(true) => "sent by the device's user (its recipient is the matched person)",
                Some(false) => "received (its sender is the matched person)",
                None => "direction unknown (neither party is the match's person)",
            },
        );
        record_draft(ctx, d)?;
        if sent == Some(false)
            && let Some(id) = from
        {
            observe_columns(
                ctx,
                &format!("tinder:{id}"),
                &with,
                t,
                row,
                inv,
                &[
                    ("qualified", IdType::AccountId, "The Tinder user id"),
                    ("person_name", IdType::DisplayName, "The name"),
                ],
                &|what| format!("{what} of the sender of a Tinder message ({}).", l.name()),
            )?;
        }
        let (Some(text), Some(s)) = (t.get(row, "text"), sent) else {
            continue;
        };
        let context = t.get(row, "person_id").map(|id| format!("tinder:{id}"));
        crate::identity::claims_by_direction(
            ctx,
            inv,
            text,
            &format!("Tinder message row {rid} ({})", l.name()),
            s,
            context.as_deref().map(|c| (c, with.as_str())),
        )?;
    }
    Ok(())
}

fn matches(
    ctx: &AgentCtx<'_>,
    l: &Located,
    name: &str,
    schema: &Schema,
) -> Result<(), RuntimeError> {
    let cols = &schema["match"];
    let c = |col: &str| column_or_null(cols, "x.", col, col);
    let has_person = cols.contains("person_id");
    let p = |col: &str| {
        if has_person {
            person(schema, col)
        } else {
            "NULL".into()
        }
    };
    let qualified = if has_person {
        "CASE WHEN x.person_id IS NOT NULL AND x.person_id != '' THEN 'tinder:' || x.person_id END"
    } else {
        "NULL"
    };
    let sql = format!(
        "SELECT x.rowid AS rid, x.id AS match_id, {}, {}, {}, {}, {}, {}, {}, {} AS name, {} AS bio, {} AS birth_date, {} AS gender, {} AS membership_status, {} AS photos, \
{qualified} AS qualified FROM `match` x ORDER BY x.creation_date, x.rowid",
        c("person_id"),
        c("creation_date"),
        c("last_activity_date"),
        c("is_blocked"),
        c("is_muted"),
        c("type"),
        c("attribution"),
        p("name"),
        p("bio"),
        p("birth_date"),
        p("gender"),
        p("membership_status"),
        p("photos"),
    );
    let Some(pages) = pages_on_with(ctx, &l.tree, &l.path, &sql, &["protobuf"])? else {
        return Ok(());
    };
    note_pages_cap(ctx, name, &pages, "Tinder matches")?;
    for (inv, t, row) in pages.rows() {
        let label = t
            .get(row, "name")
            .or(t.get(row, "person_id"))
            .unwrap_or("an unknown person")
            .to_string();
        let mut d = Draft::new("contacts", format!("Tinder match with {label}"));
        d.fact(FactType::Path, Some(&l.path), &l.found);
        d.fact(FactType::Account, raw(t, row, "person_id").as_deref(), inv);
        d.fact(
            FactType::Identifier,
            raw(t, row, "match_id").as_deref(),
            inv,
        );
        d.fact(FactType::Name, raw(t, row, "name").as_deref(), inv);
        d.fact(FactType::Text, raw(t, row, "bio").as_deref(), inv);
        d.fact(
            FactType::Text,
            raw(t, row, "membership_status").as_deref(),
            inv,
        );
        for col in ["is_blocked", "is_muted", "type", "attribution"] {
            d.fact(FactType::Count, raw(t, row, col).as_deref(), inv);
        }
        // gender: protobuf field 1; photos: each entry's field 1, the full-size URL
        let proto = |col: &str| {
            t.get(row, col)
                .and_then(|c| c.strip_prefix("protobuf:"))
                .and_then(|j| serde_json::from_str::<serde_json::Value>(j).ok())
        };
        let gender = proto("gender")
            .and_then(|g| g.get("1")?.get(0).cloned())
            .filter(serde_json::Value::is_number)
            .map(|n| n.to_string());
        d.fact(FactType::Count, gender.as_deref(), inv);
        let urls: Vec<String> = proto("photos")
            .and_then(|p| p.get("1").and_then(|e| e.as_array()).cloned())
            .unwrap_or_default()
            .iter()
            .filter_map(|e| e.get("1")?.get(0)?.as_str().map(str::to_string))
            .collect();
        for u in &urls {
            d.fact(FactType::Url, Some(&in_json_cell(u)), inv);
        }
        d.times_of(
            t,
            row,
            inv,
            unix_millis,
            &[
                ("creation_date", "Match created"),
                ("last_activity_date", "Match last activity"),
            ],
        );
        let birth = t.get(row, "birth_date");
        let enc = birth
            .and_then(|b| b.parse::<i64>().ok())
            .filter(|b| *b != 0)
            .map(|_| masf_graph::TimeEncoding::UnixMillis);
        d.time(birth, enc, "Birth date", inv);
        d.interpretation = format!(
            "match row {} of {}: a Tinder match of the device's user with {label}{}; blocked {}, muted {}; gender {} (as stored); {} photo URL(s); times are Unix milliseconds.",
            t.get(row, "rid").unwrap_or("?"),
            l.name(),
            t.get(row, "person_id")
                .map(|p| format!(" ({p})"))
                .unwrap_or_default(),
            t.get(row, "is_blocked").unwrap_or("not stored"),
            t.get(row, "is_muted").unwrap_or("not stored"),
            gender.as_deref().unwrap_or("not stored"),
            urls.len(),
        );
        record_draft(ctx, d)?;
        if let Some(id) = t.get(row, "person_id") {
            observe_columns(
                ctx,
                &format!("tinder:{id}"),
                &label,
                t,
                row,
                inv,
                &[
                    ("qualified", IdType::AccountId, "The Tinder user id"),
                    ("name", IdType::DisplayName, "The name"),
                ],
                &|what| {
                    format!(
                        "{what} of {label}, matched with the device's user on Tinder ({}).",
                        l.name()
                    )
                },
            )?;
        }
    }
    Ok(())
}

fn inbox(
    ctx: &AgentCtx<'_>,
    l: &Located,
    name: &str,
    cols: &std::collections::BTreeSet<String>,
) -> Result<(), RuntimeError> {
    let c = |col: &str| column_or_null(cols, "", col, col);
    let fields = [
        "body",
        "type",
        "seen",
        "campaign_id",
        "experiment_name",
        "variant_name",
        "message_id",
        "segment_id",
    ];
    let sql = format!(
        "SELECT rowid AS rid, sent_date, {} FROM inbox_message ORDER BY sent_date, rowid",
        fields.iter().map(|f| c(f)).collect::<Vec<_>>().join(", ")
    );
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, name, &pages, "Tinder inbox messages")?;
    for (inv, t, row) in pages.rows() {
        let mut d = Draft::new("messages", "Tinder inbox message from Tinder");
        d.fact(FactType::Path, Some(&l.path), &l.found);
        d.fact(FactType::Text, raw(t, row, "body").as_deref(), inv);
        for col in ["type", "campaign_id", "experiment_name", "variant_name"] {
            d.fact(FactType::Text, raw(t, row, col).as_deref(), inv);
        }
        d.fact(FactType::Count, raw(t, row, "seen").as_deref(), inv);
        for col in ["message_id", "segment_id"] {
            d.fact(FactType::Identifier, raw(t, row, col).as_deref(), inv);
        }
        let time = t.get(row, "sent_date");
        d.time(time, unix_millis(time), "Message received", inv);
        d.interpretation = format!(
            "inbox_message row {} of {}: a message Tinder itself sent the account (campaign {}), seen {}; sent_date is Unix milliseconds.",
            t.get(row, "rid").unwrap_or("?"),
            l.name(),
            t.get(row, "campaign_id").unwrap_or("not stored"),
            t.get(row, "seen").unwrap_or("not stored"),
        );
        record_draft(ctx, d)?;
    }
    Ok(())
}

fn last_activity(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some((inv, t)) = query_on(
        ctx,
        &l.tree,
        &l.path,
        "SELECT last_activity_date FROM last_activity_date",
        10,
    )?
    else {
        return Ok(());
    };
    for row in &t.rows {
        let v = t.get(row, "last_activity_date");
        let mut d = Draft::new("accounts", "Tinder account last activity");
        d.fact(FactType::Path, Some(&l.path), &l.found);
        d.time(v, unix_millis(v), "Tinder account last active", &inv);
        d.interpretation = format!(
            "The last_activity_date table of {}: the account's last activity as the app stored it (Unix milliseconds).",
            l.name()
        );
        record_draft(ctx, d)?;
    }
    Ok(())
}
