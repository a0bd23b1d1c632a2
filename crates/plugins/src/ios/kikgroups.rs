//! Kik's groups and pending uploads, beside what [`super::kik`] (users, messages) and
//! [`super::kikattachments`] (attachment metadata) read: iLEAPP's `kikUsersgroups`,
//! `kikGroupadmins`, `kikLocaladmin` (from `kik.sqlite`) and `kikPendingUploads` (from
//! `Containers/Shared/AppGroup/<id>/cores/private/<account>/chunked_upload_storage/`).
//!
//! | store / table | phenomenon | fields |
//! |---|---|---|
//! | `kik.sqlite` `Z_<n>MEMBERS`, `Z_<n>ADMINSINVERSE`, `Z_<n>BANSINVERSE` (Core Data join tables of `ZKIKUSER` with itself) with `ZKIKUSER` | one `contacts` per group and user ("Kik group <group>: <user> (<role>)") | the role (member, admin, banned, or several: the join tables holding the pair, joined in the query), the group's JID, tag (`ZGROUPTAG`) and name; the user's user name, display name and JID; whether the user is the account holder |
//! | `kik.sqlite` `ZKIKUSER` row with `ZFLAGS` 258 | one `accounts` ("Kik local account <user name>") | user name, display name, first and last name, e-mail, JID, the flags; the groups it administers, is a member of, is banned from (named in the query) |
//! | `kik.sqlite` `ZKIKUSEREXTRA` (`ZENTITYUSERDATA`, `ZROSTERENTRYDATA`: Protocol Buffers, decoded by `sqlite_query`'s `protobuf`) | one `contacts` per user with either ("Kik profile data <user>") | the user's user name and JID; of the entity data the texts at iLEAPP's places: 1.1 (a user name), 1.1.1 (a description), 1.5.1.2 and 104.1.2 (interests); of the roster entry 1.1, 2.1.1, 3.1, 4.1 (two user ids, a value, a display name) |
//! | `chunked_upload_storage/pending_uploads` (a property list, `parse_plist`) | one `messages` per upload ("Kik pending upload <content id>") | content id, app id, progress, retries remaining, state, any other member by its name; the upload's start (`uploadStartTime`: a number read by its size as Unix seconds or milliseconds, a date as ISO 8601); the file of `data_cache/` whose name holds the content id (path, size) |
//! | `chunked_upload_storage/data_cache/*` no upload names | one `messages` per file ("Kik upload data cache file <name>") | path, size, modified (the listing's) |
//!
//! Which column of a join table is the user and which the group is read from its names, as
//! iLEAPP reads them: `Z_<n><REL>` holds the user's `Z_PK`, `Z_<n><REL>INVERSE` the group's (in
//! plaso's real store the account holder is `Z_6ADMINS` of its group, the members
//! `Z_6MEMBERS`). The entity number `<n>` differs between versions (6 in Kik 7, 9 today), so the
//! tables are found by name. The account holder is the `ZKIKUSER` row whose `ZFLAGS` is 258,
//! as Ovens and Morison found (Digital Investigation, 2016) and plaso's store shows; iLEAPP's
//! `kikLocaladmin` lists the rows with a first or last name instead, which other users have too,
//! so that is not taken as the account. The account holder is not listed in `Z_<n>MEMBERS` of a
//! group it created: its admin row says it. The Protocol Buffers places are iLEAPP's, which it
//! calls best effort: the texts are given with their places, not named further. The pending
//! uploads say what was being sent when the extraction was made (or when the app was last
//! stopped); the cached file is the media itself, not opened here.
//!
//! Drift and damage: columns and tables by name (`ZGROUPTAG`, `ZFLAGS`, `ZKIKUSEREXTRA`'s
//! blobs absent in older stores: left out); a store that cannot be read, or has no `ZKIKUSER`
//! or no join table, is noted; a pending-uploads file that is no property list, or names no
//! upload, is noted.
//!
//! Not read: `ZKIKUSEREXTRA.ZPUBLICMESSAGINGKEY` (a key). Identities: the account holder's JID,
//! user name and e-mail are the device's user's (`owner`); the other users are [`super::kik`]'s
//! `kik:<Z_PK>` persons (not observed again here).

use std::collections::{BTreeMap, BTreeSet};

use masf_agents::RuntimeError;
use masf_graph::{FactType, IdType, TimeEncoding};
use masf_tools::Invoked;
use serde_json::{Value, json};

use super::{Draft, ENTRY_CAP, Run, file_name};
use crate::calls::{column_expr, column_or_null, failure_reason, note_pages_cap, succeeded};
use crate::drafts::{date_text, unix_by_magnitude};
use crate::outputs::{
    Table, columns_by_table, in_json_cell, json_scalar, listed_files, protobuf_cell, raw,
};

/// The file name of the pending uploads.
pub const PENDING: &str = "pending_uploads";

/// The `ZFLAGS` of the account holder's `ZKIKUSER` row.
const OWNER_FLAGS: &str = "258";

/// The join tables read: the relationship's name in their columns, and the role it gives.
const RELATIONS: [(&str, &str); 3] = [
    ("MEMBERS", "member"),
    ("ADMINS", "admin"),
    ("BANS", "banned"),
];

/// The members of a pending upload read by name: (key, type, label).
const UPLOAD_FIELDS: [(&str, FactType, &str); 5] = [
    ("contentID", FactType::Identifier, "content id"),
    ("appID", FactType::Identifier, "app id"),
    ("progress", FactType::Text, "progress"),
    ("retriesRemaining", FactType::Count, "retries remaining"),
    ("state", FactType::Text, "state"),
];

/// The member holding an upload's start.
const UPLOAD_START: &str = "uploadStartTime";

/// Whether `path` is a Kik account's pending uploads.
pub fn is_pending_uploads(path: &str) -> bool {
    path.contains("/cores/private/")
        && path.ends_with(&format!("/chunked_upload_storage/{PENDING}"))
}

/// Triage of every `kik.sqlite` and every pending-uploads file of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    run.each("kik.sqlite", |find, path| store(run, find, path))?;
    run.each(PENDING, |find, path| {
        if is_pending_uploads(path) {
            pending(run, find, path)
        } else {
            Ok(())
        }
    })
}

/// A join table of `ZKIKUSER` with itself.
struct Relation {
    table: String,
    user: String,
    group: String,
    role: &'static str,
}

/// What follows `Z_<digits>` in a Core Data name (`Z_9MEMBERSINVERSE` → `MEMBERSINVERSE`).
fn after_entity(name: &str) -> Option<&str> {
    let rest = name.strip_prefix("Z_")?;
    let at = rest.find(|c: char| !c.is_ascii_digit())?;
    (at > 0).then_some(&rest[at..])
}

/// The join tables of the schema: for each relationship, a table named after it (or its
/// inverse) with a `Z_<n><REL>` column (the user) and a `Z_<n><REL>INVERSE` one (the group).
fn relations(cols: &BTreeMap<String, BTreeSet<String>>) -> Vec<Relation> {
    let mut out = Vec::new();
    for (rel, role) in RELATIONS {
        for (table, c) in cols {
            let Some(named) = after_entity(table) else {
                continue;
            };
            if named != rel && named.strip_suffix("INVERSE") != Some(rel) {
                continue;
            }
            let user = c.iter().find(|x| after_entity(x) == Some(rel));
            let group = c
                .iter()
                .find(|x| after_entity(x).and_then(|r| r.strip_suffix("INVERSE")) == Some(rel));
            if let (Some(user), Some(group)) = (user, group) {
                out.push(Relation {
                    table: table.clone(),
                    user: user.clone(),
                    group: group.clone(),
                    role,
                });
                break;
            }
        }
    }
    out
}

/// One `kik.sqlite`.
fn store(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let sql = "SELECT m.name AS tbl, p.name AS col FROM sqlite_master m JOIN pragma_table_info(m.name) p WHERE m.type = 'table' AND (m.name IN ('ZKIKUSER', 'ZKIKUSEREXTRA') OR m.name GLOB 'Z_[0-9]*') ORDER BY m.name, p.cid";
    let inv = run.ctx.call(
        "sqlite_query",
        json!({"path": path, "sql": sql, "limit": 10_000}),
    )?;
    if !succeeded(&inv) {
        run.ctx.unparsed(
            path,
            &format!(
                "could not parse Kik's groups because the database could not be read ({})",
                failure_reason(&inv)
            ),
            Some(&inv.record.invocation_id),
        )?;
        return Ok(());
    }
    let cols = columns_by_table(&Table::parse(&inv.output.text));
    let Some(users) = cols.get("ZKIKUSER").filter(|u| u.contains("Z_PK")) else {
        run.ctx.unparsed(
            path,
            "could not parse Kik's groups because the database has no ZKIKUSER table with Z_PK (unexpected schema)",
            Some(&inv.record.invocation_id),
        )?;
        return Ok(());
    };
    let rels = relations(&cols);
    if rels.is_empty() {
        run.ctx.unparsed(
            path,
            "could not parse Kik's groups because the database has no group join table (Z_<n>MEMBERS, Z_<n>ADMINSINVERSE or Z_<n>BANSINVERSE with its two columns)",
            Some(&inv.record.invocation_id),
        )?;
    } else {
        memberships(run, find, path, users, &rels)?;
    }
    local_account(run, find, path, users, &rels)?;
    if let Some(extra) = cols.get("ZKIKUSEREXTRA") {
        profiles(run, find, path, users, extra)?;
    }
    Ok(())
}

/// A `ZKIKUSER` row's name for a title: user name, display name, JID, else its key.
fn label(t: &Table, row: &[Option<String>], cols: &[&str], pk: &str, what: &str) -> String {
    cols.iter()
        .find_map(|c| t.get(row, c))
        .map(str::to_string)
        .unwrap_or_else(|| format!("{what} {pk}"))
}

/// Every (group, user) pair of the join tables, with the roles it holds.
fn memberships(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    users: &BTreeSet<String>,
    rels: &[Relation],
) -> Result<(), RuntimeError> {
    let unions = rels
        .iter()
        .map(|r| {
            let flag = |role: &str| u8::from(r.role == role);
            format!(
                "SELECT \"{}\" AS g, \"{}\" AS u, {} AS m, {} AS a, {} AS b FROM \"{}\"",
                r.group,
                r.user,
                flag("member"),
                flag("admin"),
                flag("banned"),
                r.table
            )
        })
        .collect::<Vec<_>>()
        .join(" UNION ALL ");
    let g = |c: &str, alias: &str| column_or_null(users, "g.", c, alias);
    let u = |c: &str, alias: &str| column_or_null(users, "u.", c, alias);
    let sql = format!(
        "SELECT * FROM (SELECT (r.g << 32) + r.u AS k, r.g AS group_pk, r.u AS user_pk, \
ltrim(CASE WHEN r.m = 1 THEN ', member' ELSE '' END || CASE WHEN r.a = 1 THEN ', admin' ELSE '' END || CASE WHEN r.b = 1 THEN ', banned' ELSE '' END, ', ') AS role, \
{}, {}, {}, {}, {}, {}, {} \
FROM (SELECT g, u, max(m) AS m, max(a) AS a, max(b) AS b FROM ({unions}) WHERE g IS NOT NULL AND u IS NOT NULL GROUP BY g, u) r \
LEFT JOIN ZKIKUSER g ON g.Z_PK = r.g LEFT JOIN ZKIKUSER u ON u.Z_PK = r.u) x",
        g("ZJID", "group_jid"),
        g("ZGROUPTAG", "group_tag"),
        g("ZDISPLAYNAME", "group_name"),
        u("ZUSERNAME", "username"),
        u("ZDISPLAYNAME", "display"),
        u("ZJID", "jid"),
        u("ZFLAGS", "flags"),
    );
    let Some(paged) = run.paged(path, &sql, "x.k")? else {
        return Ok(());
    };
    let file = file_name(path);
    for (inv, t, row) in paged.rows() {
        let group_pk = t.get(row, "group_pk").unwrap_or("?");
        let user_pk = t.get(row, "user_pk").unwrap_or("?");
        let role = t.get(row, "role").unwrap_or("?");
        let group = label(
            t,
            row,
            &["group_name", "group_tag", "group_jid"],
            group_pk,
            "group",
        );
        let user = label(t, row, &["username", "display", "jid"], user_pk, "user");
        let holder = t.get(row, "flags") == Some(OWNER_FLAGS);
        let mut d = Draft::new("contacts", format!("Kik group {group}: {user} ({role})"));
        d.fact(FactType::Path, Some(path), find);
        let said = d.fields(
            t,
            row,
            inv,
            &[
                ("role", FactType::Text, "role"),
                ("group_jid", FactType::Account, "group JID"),
                ("group_tag", FactType::Text, "group tag"),
                ("group_name", FactType::Name, "group name"),
                ("username", FactType::Account, "user name"),
                ("display", FactType::Name, "display name"),
                ("jid", FactType::Account, "JID"),
            ],
        );
        d.interpretation = format!(
            "The join tables of {file} pair the Kik group ZKIKUSER Z_PK {group_pk} with the user Z_PK {user_pk} as {role} ({}){}: the group as the app last synced it, not since when.",
            said.join(", "),
            if holder {
                "; the user is the account holder (ZFLAGS 258), so this is the device's user's own role"
            } else {
                ""
            },
        );
        run.record(d)?;
    }
    note_pages_cap(run.ctx, path, &paged, "Kik group memberships")
}

/// The account holder's row (`ZFLAGS` 258), with the groups it holds a role in.
fn local_account(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    users: &BTreeSet<String>,
    rels: &[Relation],
) -> Result<(), RuntimeError> {
    if !users.contains("ZFLAGS") {
        return Ok(());
    }
    let name = format!(
        "coalesce(NULLIF(g.ZDISPLAYNAME, ''), NULLIF({}, ''), NULLIF(g.ZJID, ''))",
        column_expr(users, "g.", "ZGROUPTAG")
    );
    let roles = ["member", "admin", "banned"]
        .iter()
        .map(|role| match rels.iter().find(|r| r.role == *role) {
            Some(r) => format!(
                "(SELECT group_concat(coalesce({name}, 'Z_PK ' || j.\"{g}\"), ', ') FROM \"{t}\" j LEFT JOIN ZKIKUSER g ON g.Z_PK = j.\"{g}\" WHERE j.\"{u}\" = u.Z_PK) AS {role}_of",
                g = r.group,
                u = r.user,
                t = r.table,
            ),
            None => format!("NULL AS {role}_of"),
        })
        .collect::<Vec<_>>()
        .join(", ");
    let u = |c: &str, alias: &str| column_or_null(users, "u.", c, alias);
    let sql = format!(
        "SELECT u.Z_PK AS pk, {}, {}, {}, {}, {}, {}, u.ZFLAGS AS flags, {roles} FROM ZKIKUSER u WHERE u.ZFLAGS = {OWNER_FLAGS} ORDER BY u.Z_PK",
        u("ZUSERNAME", "username"),
        u("ZDISPLAYNAME", "display"),
        u("ZFIRSTNAME", "first"),
        u("ZLASTNAME", "last"),
        u("ZEMAIL", "email"),
        u("ZJID", "jid"),
    );
    let Some((inv, t)) = run.query(path, &sql, 10)? else {
        return Ok(());
    };
    let file = file_name(path);
    for row in &t.rows {
        let pk = t.get(row, "pk").unwrap_or("?");
        let user = label(&t, row, &["username", "display", "jid"], pk, "user");
        let mut d = Draft::new("accounts", format!("Kik local account {user}"));
        d.fact(FactType::Path, Some(path), find);
        let said = d.fields(
            &t,
            row,
            &inv,
            &[
                ("username", FactType::Account, "user name"),
                ("display", FactType::Name, "display name"),
                ("first", FactType::Name, "first name"),
                ("last", FactType::Name, "last name"),
                ("email", FactType::Email, "e-mail"),
                ("jid", FactType::Account, "JID"),
                ("flags", FactType::Text, "ZFLAGS"),
                ("admin_of", FactType::Text, "administers"),
                ("member_of", FactType::Text, "member of"),
                ("banned_of", FactType::Text, "banned from"),
            ],
        );
        d.interpretation = format!(
            "ZKIKUSER Z_PK {pk} of {file} has ZFLAGS 258, the account holder's row (Ovens and Morison, 2016): the Kik account signed in on the device ({}); the groups are named from the join tables.",
            said.join(", "),
        );
        run.record(d)?;
        let why = |what: &str| {
            format!(
                "The {what} of the Kik account signed in ({file}, ZKIKUSER row with ZFLAGS 258)."
            )
        };
        run.observe_person(
            "owner",
            "device owner",
            &inv,
            &why,
            &[
                (IdType::AccountId, raw(&t, row, "jid").as_deref(), "JID"),
                (
                    IdType::Nickname,
                    raw(&t, row, "username").as_deref(),
                    "user name",
                ),
                (IdType::Email, raw(&t, row, "email").as_deref(), "e-mail"),
            ],
        )?;
    }
    Ok(())
}

/// Every text of a decoded message at `path` (field numbers; every value of a repeated field
/// followed), as it was decoded (undecodable bytes, `x'…'`, left out).
fn texts_at<'a>(m: &'a Value, path: &[&str], out: &mut Vec<&'a str>) {
    let Some((first, rest)) = path.split_first() else {
        if let Some(s) = m
            .as_str()
            .filter(|s| !s.starts_with("x'") && !s.trim().is_empty())
        {
            out.push(s);
        }
        return;
    };
    for v in m
        .get(*first)
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        texts_at(v, rest, out);
    }
}

/// The places of the entity data and roster entry read, as iLEAPP reads them: (column, field
/// path, type, label).
const PLACES: [(&str, &[&str], FactType, &str); 8] = [
    (
        "entity",
        &["1", "1"],
        FactType::Text,
        "entity data 1.1 (a user name)",
    ),
    (
        "entity",
        &["1", "1", "1"],
        FactType::Text,
        "entity data 1.1.1 (a description)",
    ),
    (
        "entity",
        &["1", "5", "1", "2"],
        FactType::Text,
        "entity data 1.5.1.2 (an interest)",
    ),
    (
        "entity",
        &["104", "1", "2"],
        FactType::Text,
        "entity data 104.1.2 (an interest)",
    ),
    ("roster", &["1", "1"], FactType::Text, "roster entry 1.1"),
    (
        "roster",
        &["2", "1", "1"],
        FactType::Text,
        "roster entry 2.1.1",
    ),
    ("roster", &["3", "1"], FactType::Text, "roster entry 3.1"),
    (
        "roster",
        &["4", "1"],
        FactType::Name,
        "roster entry 4.1 (a display name)",
    ),
];

/// `ZKIKUSEREXTRA`'s entity data and roster entry of each user.
fn profiles(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    users: &BTreeSet<String>,
    extra: &BTreeSet<String>,
) -> Result<(), RuntimeError> {
    let has = |c: &str| extra.contains(c);
    if !has("Z_PK") || !has("ZUSER") || !(has("ZENTITYUSERDATA") || has("ZROSTERENTRYDATA")) {
        return Ok(());
    }
    let entity = column_expr(extra, "e.", "ZENTITYUSERDATA");
    let roster = column_expr(extra, "e.", "ZROSTERENTRYDATA");
    let u = |c: &str, alias: &str| column_or_null(users, "u.", c, alias);
    let sql = format!(
        "SELECT * FROM (SELECT e.Z_PK AS pk, e.ZUSER AS user_pk, {}, {}, {}, {entity} AS entity, {roster} AS roster FROM ZKIKUSEREXTRA e LEFT JOIN ZKIKUSER u ON u.Z_PK = e.ZUSER WHERE {entity} IS NOT NULL OR {roster} IS NOT NULL) x",
        u("ZUSERNAME", "username"),
        u("ZDISPLAYNAME", "display"),
        u("ZJID", "jid"),
    );
    let Some(paged) = run.paged_with(path, &sql, "x.pk", &["protobuf"])? else {
        return Ok(());
    };
    let file = file_name(path);
    for (inv, t, row) in paged.rows() {
        let pk = t.get(row, "pk").unwrap_or("?");
        let user_pk = t.get(row, "user_pk").unwrap_or("?");
        let user = label(t, row, &["username", "display", "jid"], user_pk, "user");
        let mut d = Draft::new("contacts", format!("Kik profile data {user}"));
        d.fact(FactType::Path, Some(path), find);
        let mut said = d.fields(
            t,
            row,
            inv,
            &[
                ("username", FactType::Account, "user name"),
                ("jid", FactType::Account, "JID"),
            ],
        );
        let decoded: BTreeMap<&str, Option<Value>> = ["entity", "roster"]
            .into_iter()
            .map(|c| (c, t.get(row, c).and_then(protobuf_cell)))
            .collect();
        let mut undecoded = Vec::new();
        for c in ["entity", "roster"] {
            if t.get(row, c).is_some() && decoded.get(c).is_some_and(Option::is_none) {
                undecoded.push(c);
            }
        }
        for (col, places, ft, what) in PLACES {
            let Some(Some(m)) = decoded.get(col) else {
                continue;
            };
            let mut texts = Vec::new();
            texts_at(m, places, &mut texts);
            for s in texts {
                d.fact(ft, Some(&in_json_cell(s)), inv);
                said.push(format!("{what}: {s}"));
            }
        }
        d.interpretation = format!(
            "ZKIKUSEREXTRA Z_PK {pk} of {file}, of the user ZKIKUSER Z_PK {user_pk}: the profile data Kik keeps for the user as Protocol Buffers ({}); the texts are given at iLEAPP's places, whose meaning iLEAPP itself calls best effort{}.",
            if said.is_empty() {
                "no text at those places".to_string()
            } else {
                said.join("; ")
            },
            if undecoded.is_empty() {
                String::new()
            } else {
                format!(
                    "; {} is no Protocol Buffers message (not decoded)",
                    undecoded
                        .iter()
                        .map(|c| if *c == "entity" {
                            "ZENTITYUSERDATA"
                        } else {
                            "ZROSTERENTRYDATA"
                        })
                        .collect::<Vec<_>>()
                        .join(" and ")
                )
            },
        );
        run.record(d)?;
    }
    note_pages_cap(run.ctx, path, &paged, "Kik profile data rows")
}

/// The objects of a property list that are uploads (holding one of the members read), wherever
/// they sit (a list of uploads, a dictionary of them).
fn uploads<'a>(v: &'a Value, out: &mut Vec<&'a serde_json::Map<String, Value>>) {
    match v {
        Value::Object(o)
            if UPLOAD_FIELDS
                .iter()
                .map(|(k, ..)| *k)
                .chain([UPLOAD_START])
                .any(|k| o.contains_key(k)) =>
        {
            out.push(o)
        }
        Value::Object(o) => o.values().for_each(|x| uploads(x, out)),
        Value::Array(a) => a.iter().for_each(|x| uploads(x, out)),
        _ => {}
    }
}

/// The encoding of an upload's start: a number (or a number written as text) is Unix seconds
/// or milliseconds by its size, a date ISO 8601.
fn start_encoding(v: Option<&str>) -> Option<TimeEncoding> {
    match v?.trim().parse::<f64>() {
        Ok(_) => unix_by_magnitude(v),
        Err(_) => date_text(v),
    }
}

/// The modified time a listing gives a file, with its encoding.
fn listed_modified(f: &crate::outputs::ListedFile) -> (Option<&str>, Option<TimeEncoding>) {
    match f.time("modified") {
        Some(m) if m.ends_with('Z') => (Some(m), Some(TimeEncoding::Iso8601)),
        Some(m) => match m.strip_suffix(" (local)") {
            Some(local) => (Some(local), Some(TimeEncoding::LocalText)),
            None => (None, None),
        },
        None => (None, None),
    }
}

/// One account's `pending_uploads`, with the files of its `data_cache`.
fn pending(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let Some(inv) =
        crate::calls::call_or_note(run.ctx, path, "parse_plist", json!({ "path": path }))?
    else {
        return Ok(());
    };
    let Ok(doc) = serde_json::from_str::<Value>(&inv.output.text) else {
        run.ctx.unparsed(
            path,
            "could not parse Kik's pending uploads because parse_plist gave no JSON",
            Some(&inv.record.invocation_id),
        )?;
        return Ok(());
    };
    let mut found = Vec::new();
    uploads(&doc, &mut found);
    if found.is_empty() {
        run.ctx.unparsed(
            path,
            "could not parse Kik's pending uploads because the property list holds no upload (no contentID, appID or uploadStartTime)",
            Some(&inv.record.invocation_id),
        )?;
        return Ok(());
    }
    // the cached files: `data_cache/` beside the file (absent when nothing is cached)
    let dir = path.strip_suffix(PENDING).unwrap_or(path);
    let cache = format!("{dir}data_cache");
    let listing = run
        .ctx
        .call("find_files", json!({"path": cache, "limit": ENTRY_CAP + 1}))?;
    let files = if succeeded(&listing) {
        listed_files(&listing.output.text)
    } else {
        Vec::new()
    };
    let mut matched: BTreeSet<String> = BTreeSet::new();
    for (i, o) in found.iter().enumerate() {
        if i as u64 >= ENTRY_CAP {
            run.ctx.unparsed(
                path,
                &format!(
                    "{} uploads: the first {ENTRY_CAP} were recorded",
                    found.len()
                ),
                Some(&inv.record.invocation_id),
            )?;
            break;
        }
        let obj = Value::Object((*o).clone());
        let content = o.get("contentID").and_then(Value::as_str);
        let mut d = Draft::new(
            "messages",
            format!(
                "Kik pending upload {}",
                json_scalar(o.get("contentID")).unwrap_or_else(|| "without a content id".into())
            ),
        );
        d.fact(FactType::Path, Some(path), find);
        let mut said = d.json_fields(&obj, &inv, &UPLOAD_FIELDS);
        for (k, v) in *o {
            if k == UPLOAD_START || UPLOAD_FIELDS.iter().any(|(f, ..)| f == k) {
                continue;
            }
            if let Some(s) = json_scalar(Some(v)) {
                d.fact(FactType::Text, Some(&s), &inv);
                said.push(format!("{k} {s}"));
            }
        }
        let start = json_scalar(o.get(UPLOAD_START));
        d.time(
            start.as_deref(),
            start_encoding(start.as_deref()),
            "Kik upload started",
            &inv,
        );
        let cached: Vec<&crate::outputs::ListedFile> = match content.filter(|c| !c.is_empty()) {
            Some(c) => files
                .iter()
                .filter(|f| file_name(&f.path).contains(c))
                .collect(),
            None => Vec::new(),
        };
        for f in &cached {
            d.fact(FactType::Path, Some(&f.path), &listing);
            d.fact(FactType::Count, Some(&f.size), &listing);
            matched.insert(f.path.clone());
        }
        d.interpretation = format!(
            "{}: an upload the Kik app had not finished when it last saved the file ({}){}; {}. The start is read by its size (Unix seconds or milliseconds) or as a date.",
            file_name(path),
            said.join(", "),
            start
                .as_deref()
                .map(|s| format!(", started {s}"))
                .unwrap_or_default(),
            if cached.is_empty() {
                "no file of data_cache/ holds its content id".to_string()
            } else {
                format!(
                    "the media being sent is kept in data_cache/ ({}; not opened here)",
                    cached
                        .iter()
                        .map(|f| format!("{}, {} bytes", file_name(&f.path), f.size))
                        .collect::<Vec<_>>()
                        .join("; ")
                )
            },
        );
        run.record(d)?;
    }
    for f in files
        .iter()
        .filter(|f| !matched.contains(&f.path))
        .take(ENTRY_CAP as usize)
    {
        let name = file_name(&f.path);
        let mut d = Draft::new("messages", format!("Kik upload data cache file {name}"));
        d.fact(FactType::Path, Some(&f.path), &listing);
        d.fact(FactType::Count, Some(&f.size), &listing);
        let (value, encoding) = listed_modified(f);
        d.time(
            value,
            encoding,
            "Kik upload data cache file modified",
            &listing,
        );
        d.interpretation = format!(
            "{}: a file of Kik's chunked-upload data cache ({} bytes) that no pending upload of {} names: media the app was sending or had sent (not opened here); its modification time is the listing's.",
            f.path,
            f.size,
            file_name(path),
        );
        run.record(d)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn join_tables_by_name() {
        let mut cols: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        cols.insert(
            "Z_6MEMBERS".into(),
            ["Z_6MEMBERSINVERSE".to_string(), "Z_6MEMBERS".to_string()].into(),
        );
        cols.insert(
            "Z_6ADMINSINVERSE".into(),
            ["Z_6ADMINS".to_string(), "Z_6ADMINSINVERSE".to_string()].into(),
        );
        cols.insert(
            "Z_3MESSAGES".into(),
            ["Z_3MESSAGES".to_string(), "Z_5MESSAGES".to_string()].into(),
        );
        let r = relations(&cols);
        assert_eq!(r.len(), 2);
        assert_eq!(
            (r[0].table.as_str(), r[0].user.as_str(), r[0].group.as_str()),
            ("Z_6MEMBERS", "Z_6MEMBERS", "Z_6MEMBERSINVERSE")
        );
        assert_eq!(
            (r[1].table.as_str(), r[1].user.as_str(), r[1].role),
            ("Z_6ADMINSINVERSE", "Z_6ADMINS", "admin")
        );
        assert_eq!(after_entity("Z_PRIMARYKEY"), None);
        assert!(is_pending_uploads(
            "/private/var/mobile/Containers/Shared/AppGroup/X/cores/private/a1/chunked_upload_storage/pending_uploads"
        ));
        assert!(!is_pending_uploads(
            "/private/var/mobile/tmp/pending_uploads"
        ));
        let v: Value = serde_json::from_str(
            r#"{"1":[{"5":[{"1":[{"2":["music"]},{"2":["chess"]}]}],"1":["ann"]}],"104":[{"1":[{"2":["art"]}]}]}"#,
        )
        .unwrap();
        let mut out = Vec::new();
        texts_at(&v, &["1", "5", "1", "2"], &mut out);
        texts_at(&v, &["104", "1", "2"], &mut out);
        texts_at(&v, &["1", "1"], &mut out);
        texts_at(&v, &["1", "1", "1"], &mut out);
        assert_eq!(out, vec!["music", "chess", "art", "ann"]);
    }
}
