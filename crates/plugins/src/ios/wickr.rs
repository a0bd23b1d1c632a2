//! Wickr (Wickr Me and AWS Wickr: `wickrLocal.sqlite` of the app group, a Core Data store),
//! iLEAPP's `wickr` (messages, conversations, users): who talked in which conversation when —
//! metadata only.
//!
//! | table | phenomenon | fields |
//! |---|---|---|
//! | `ZSECEX_CONVO` | one `messages` per conversation or room ("Wickr conversation <group id>") | kind (the entity `Z_PRIMARYKEY` names: `Secex_Convo`, `Secex_Secure_Room`), group id, last message, last sync and message sync times (Unix seconds, as iLEAPP reads them), unread count, blocked, the members' and the room administrators' user hashes |
//! | `ZWICKR_MESSAGE` | one `messages` per message ("Wickr message in <group id> from <user hash>") | sent, read, delivered and clean-up times (Cocoa seconds), the conversation's group id, the sender's user hash, message id, full and primary type (6000: a file transfer; the rest as stored), read, starred, the attached files' GUIDs, the encrypted body's size |
//! | `ZSECEX_USER` | one `contacts` per user ("Wickr user <hash>") | user id hash, alias hash, source (`ME`, `PRO`), domain, last activity (Unix seconds), active, in network, blocked, hidden, starred, bot |
//!
//! Wickr encrypts every text column: message bodies, conversation names, user names and file
//! titles are not read (said; a body's size is), so a message here proves that a message was
//! exchanged, by whom and when, not what it said. The join tables of members, room
//! administrators and a file's message are named after Core Data's entity numbers, which differ
//! between app versions: they are found by their columns' numbers read against `Z_PRIMARYKEY`
//! (a store without them lists no members). Columns are taken by name (absent ones NULL: older
//! stores have no read or delivery time); a `wickrLocal.sqlite` without `ZWICKR_MESSAGE` is
//! noted.
//!
//! Identities: none. A user is known only by the hashes Wickr keeps in the clear; whether
//! another device's Wickr keeps the same hash for the same user is not established, so they
//! are facts, not identifiers.

use std::collections::BTreeMap;

use masf_agents::RuntimeError;
use masf_graph::FactType;
use masf_tools::Invoked;

use super::{Draft, Run, Schema};
use crate::calls::select_columns;
use crate::drafts::{apple_seconds, unix_seconds};
use crate::outputs::raw;

const CONVO: &str = "ZSECEX_CONVO";
const USER: &str = "ZSECEX_USER";
const MESSAGE: &str = "ZWICKR_MESSAGE";
const FILE: &str = "ZWICKR_FILE";

/// The entity numbers of `Z_PRIMARYKEY` and the columns of every table named `Z_<n>…` (Core
/// Data's join tables), in one query.
const JOINS_SQL: &str = "SELECT 'entity' AS kind, CAST(k.Z_ENT AS TEXT) AS a, k.Z_NAME AS b FROM Z_PRIMARYKEY k \
UNION ALL SELECT 'column', m.name, p.name FROM sqlite_master m JOIN pragma_table_info(m.name) p \
WHERE m.type = 'table' AND m.name GLOB 'Z_[0-9]*' ORDER BY 1, 2, 3";

/// A join table and its two columns: `(table, column of the first entity, of the second)`.
type Join = (String, String, String);

/// The entity number a join column names (`Z_13FILES` → 13): `Z_`, digits, then a name of
/// letters, digits and `_` (so the column is safe to write into a query).
fn entity_of(column: &str) -> Option<&str> {
    let rest = column.strip_prefix("Z_")?;
    let digits = rest.find(|c: char| !c.is_ascii_digit())?;
    let (n, name) = rest.split_at(digits);
    (!n.is_empty()
        && !name.is_empty()
        && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_'))
    .then_some(n)
}

/// Core Data's join tables of a store: every `(table, column)` named `Z_<n>…` and the entity
/// names by number.
struct Joins {
    entities: BTreeMap<String, String>,
    columns: Vec<(String, String)>,
}

impl Joins {
    /// The join table between the entities named `a` and `b` (case ignored), with the column
    /// holding each one's `Z_PK`.
    fn between(&self, a: &str, b: &str) -> Option<Join> {
        let number = |name: &str| {
            self.entities
                .iter()
                .find(|(_, n)| n.eq_ignore_ascii_case(name))
                .map(|(e, _)| e.as_str())
        };
        let (na, nb) = (number(a)?, number(b)?);
        if na == nb {
            return None;
        }
        let safe = |t: &str| t.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
        let mut tables: Vec<&str> = self.columns.iter().map(|(t, _)| t.as_str()).collect();
        tables.dedup();
        tables.into_iter().filter(|&t| safe(t)).find_map(|t| {
            let col = |n: &str| {
                self.columns
                    .iter()
                    .find(|(tt, c)| tt == t && entity_of(c) == Some(n))
                    .map(|(_, c)| c.clone())
            };
            Some((t.to_string(), col(na)?, col(nb)?))
        })
    }
}

/// Triage of every Wickr store of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    let Some((find, paths)) = run.find("wickrLocal.sqlite")? else {
        return Ok(());
    };
    for path in &paths {
        let Some(schema) = run.schema(path, &[CONVO, USER, MESSAGE, FILE, "Z_PRIMARYKEY"])? else {
            continue;
        };
        if !schema.require(run, MESSAGE, &["ZTIMESTAMP"])? {
            continue;
        }
        let joins = if schema.columns("Z_PRIMARYKEY").contains("Z_NAME") {
            run.query(path, JOINS_SQL, 10_000)?.map(|(_, t)| {
                let mut j = Joins {
                    entities: BTreeMap::new(),
                    columns: Vec::new(),
                };
                for row in &t.rows {
                    if let (Some(k), Some(a), Some(b)) =
                        (t.get(row, "kind"), t.get(row, "a"), t.get(row, "b"))
                    {
                        if k == "entity" {
                            j.entities.insert(a.to_string(), b.to_string());
                        } else {
                            j.columns.push((a.to_string(), b.to_string()));
                        }
                    }
                }
                j
            })
        } else {
            None
        };
        let join = |a: &str, b: &str| joins.as_ref().and_then(|j| j.between(a, b));
        if schema.columns(CONVO).contains("Z_PK") {
            conversations(
                run,
                &find,
                path,
                &schema,
                join("Secex_Convo", "Secex_User"),
                join("Secex_Secure_Room", "Secex_User"),
            )?;
        }
        messages(
            run,
            &find,
            path,
            &schema,
            join("Wickr_file", "Wickr_Message"),
        )?;
        if schema.columns(USER).contains("Z_PK") {
            users(run, &find, path, &schema)?;
        }
    }
    Ok(())
}

/// The user hashes a join table links to a conversation `c`, in key order, as `alias`.
fn hashes(schema: &Schema, join: Option<&Join>, alias: &str) -> String {
    match join {
        Some((table, convo, user)) if schema.columns(USER).contains("ZUSERIDHASH") => format!(
            "(SELECT group_concat(h, ', ') FROM (SELECT u.ZUSERIDHASH AS h FROM {table} j JOIN {USER} u ON u.Z_PK = j.{user} WHERE j.{convo} = c.Z_PK ORDER BY u.Z_PK)) AS {alias}"
        ),
        _ => format!("NULL AS {alias}"),
    }
}

fn conversations(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    schema: &Schema,
    members: Option<Join>,
    masters: Option<Join>,
) -> Result<(), RuntimeError> {
    let c = schema.columns(CONVO);
    let kind = if c.contains("Z_ENT") && schema.columns("Z_PRIMARYKEY").contains("Z_NAME") {
        "(SELECT k.Z_NAME FROM Z_PRIMARYKEY k WHERE k.Z_ENT = c.Z_ENT) AS kind"
    } else {
        "NULL AS kind"
    };
    let sql = format!(
        "SELECT c.Z_PK AS pk, {kind}, {}, {}, {} FROM {CONVO} c",
        select_columns(
            &c,
            "c.",
            &[
                ("ZVGROUPID", "group_id"),
                ("ZLASTTIMESTAMP", "last_message"),
                ("ZLASTSYNCTIMESTAMP", "last_sync"),
                ("ZMSGSYNTIMESTAMP", "message_sync"),
                ("ZUNREADMESSAGES", "unread"),
                ("ZCHATBLOCKED", "blocked"),
            ],
        ),
        hashes(schema, members.as_ref(), "members"),
        hashes(schema, masters.as_ref(), "masters"),
    );
    let Some(paged) = run.paged(path, &sql, "pk")? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        let get = |c: &str| raw(t, row, c).filter(|v| !v.is_empty());
        let mut d = Draft::new(
            "messages",
            format!(
                "Wickr conversation {}",
                get("group_id")
                    .unwrap_or_else(|| format!("Z_PK {}", t.get(row, "pk").unwrap_or("?")))
            ),
        );
        d.fact(FactType::Path, Some(path), find);
        let said = d.fields(
            t,
            row,
            inv,
            &[
                ("kind", FactType::Text, "kind"),
                ("group_id", FactType::Identifier, "group id"),
                ("members", FactType::Text, "members (user hashes)"),
                (
                    "masters",
                    FactType::Text,
                    "room administrators (user hashes)",
                ),
                ("unread", FactType::Count, "unread messages"),
                ("blocked", FactType::Text, "blocked"),
            ],
        );
        d.times_of(
            t,
            row,
            inv,
            unix_seconds,
            &[
                ("last_message", "Wickr conversation last message"),
                ("last_sync", "Wickr conversation last synced"),
                ("message_sync", "Wickr conversation messages synced"),
            ],
        );
        d.interpretation = format!(
            "ZSECEX_CONVO Z_PK {} of {path}: a Wickr conversation of the device's user ({}); its name is encrypted and not read; members are the users' hashes Wickr keeps in the clear; times are Unix seconds, as iLEAPP reads them.",
            t.get(row, "pk").unwrap_or("?"),
            said.join("; ")
        );
        run.record(d)?;
    }
    crate::calls::note_pages_cap(run.ctx, path, &paged, "Wickr conversations")
}

fn messages(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    schema: &Schema,
    files: Option<Join>,
) -> Result<(), RuntimeError> {
    let m = schema.columns(MESSAGE);
    let (convo, join_c) = if m.contains("ZCONVO") && schema.columns(CONVO).contains("Z_PK") {
        (
            crate::calls::column_or_null(&schema.columns(CONVO), "c.", "ZVGROUPID", "convo"),
            format!(" LEFT JOIN {CONVO} c ON c.Z_PK = m.ZCONVO"),
        )
    } else {
        ("NULL AS convo".into(), String::new())
    };
    let (sender, join_u) = if m.contains("ZUSERSENDER") && schema.columns(USER).contains("Z_PK") {
        (
            crate::calls::column_or_null(&schema.columns(USER), "u.", "ZUSERIDHASH", "sender"),
            format!(" LEFT JOIN {USER} u ON u.Z_PK = m.ZUSERSENDER"),
        )
    } else {
        ("NULL AS sender".into(), String::new())
    };
    let attached = match &files {
        Some((table, file, message)) if schema.columns(FILE).contains("ZGUID") => format!(
            "(SELECT group_concat(g, ', ') FROM (SELECT f.ZGUID AS g FROM {table} j JOIN {FILE} f ON f.Z_PK = j.{file} WHERE j.{message} = m.Z_PK ORDER BY f.Z_PK)) AS files"
        ),
        _ => "NULL AS files".into(),
    };
    let body = if m.contains("ZBODY") {
        "length(m.ZBODY) AS body_bytes"
    } else {
        "NULL AS body_bytes"
    };
    let sql = format!(
        "SELECT m.Z_PK AS pk, m.ZTIMESTAMP AS sent, {}, {convo}, {sender}, {attached}, {body} FROM {MESSAGE} m{join_c}{join_u}",
        select_columns(
            &m,
            "m.",
            &[
                ("ZREADTIMESTAMP", "read_at"),
                ("ZDELIVERYTIMESTAMP", "delivered_at"),
                ("ZCLEANUPTIME", "cleanup_at"),
                ("ZMSGID", "msg_id"),
                ("ZFULLTYPE", "full_type"),
                ("ZPRIMARYTYPE", "primary_type"),
                ("ZISREAD", "is_read"),
                ("ZISSTARRED", "is_starred"),
            ],
        ),
    );
    let Some(paged) = run.paged(path, &sql, "pk")? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        let get = |c: &str| raw(t, row, c).filter(|v| !v.is_empty());
        let mut d = Draft::new(
            "messages",
            format!(
                "Wickr message in {} from {}",
                get("convo").unwrap_or_else(|| "an unrecorded conversation".into()),
                get("sender").unwrap_or_else(|| "an unrecorded user".into()),
            ),
        );
        d.fact(FactType::Path, Some(path), find);
        let said = d.fields(
            t,
            row,
            inv,
            &[
                ("convo", FactType::Identifier, "conversation"),
                ("sender", FactType::Identifier, "sender (user hash)"),
                ("msg_id", FactType::Identifier, "message id"),
                ("full_type", FactType::Text, "type"),
                ("primary_type", FactType::Text, "primary type"),
                ("is_read", FactType::Text, "read"),
                ("is_starred", FactType::Text, "starred"),
                ("files", FactType::Identifier, "attached files (GUIDs)"),
                ("body_bytes", FactType::Count, "encrypted body bytes"),
            ],
        );
        d.times_of(
            t,
            row,
            inv,
            apple_seconds,
            &[
                ("sent", "Wickr message sent"),
                ("read_at", "Wickr message read"),
                ("delivered_at", "Wickr message delivered"),
                ("cleanup_at", "Wickr message due for clean-up"),
            ],
        );
        d.interpretation = format!(
            "ZWICKR_MESSAGE Z_PK {} of {path}: a Wickr message ({}){}; the body is encrypted and not read, so this is when and between whom a message passed, not what it said; times are Cocoa seconds.",
            t.get(row, "pk").unwrap_or("?"),
            said.join("; "),
            if t.get(row, "full_type") == Some("6000") {
                "; type 6000 is a file transfer"
            } else {
                ""
            },
        );
        run.record(d)?;
    }
    crate::calls::note_pages_cap(run.ctx, path, &paged, "Wickr messages")
}

fn users(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    schema: &Schema,
) -> Result<(), RuntimeError> {
    let sql = format!(
        "SELECT u.Z_PK AS pk, {} FROM {USER} u",
        select_columns(
            &schema.columns(USER),
            "u.",
            &[
                ("ZUSERIDHASH", "user_hash"),
                ("ZUSERALIASHASH", "alias_hash"),
                ("ZSOURCE", "source"),
                ("ZDOMAIN", "domain"),
                ("ZLASTACTIVITYTIME", "last_activity"),
                ("ZISACTIVE", "active"),
                ("ZINNETWORK", "in_network"),
                ("ZISBLOCKED", "blocked"),
                ("ZISHIDDEN", "hidden"),
                ("ZISSTARRED", "starred"),
                ("ZIS_BOT", "bot"),
            ],
        ),
    );
    let Some(paged) = run.paged(path, &sql, "pk")? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        let get = |c: &str| raw(t, row, c).filter(|v| !v.is_empty());
        let mut d = Draft::new(
            "contacts",
            format!(
                "Wickr user {}",
                get("user_hash")
                    .unwrap_or_else(|| format!("Z_PK {}", t.get(row, "pk").unwrap_or("?")))
            ),
        );
        d.fact(FactType::Path, Some(path), find);
        let said = d.fields(
            t,
            row,
            inv,
            &[
                ("user_hash", FactType::Identifier, "user id hash"),
                ("alias_hash", FactType::Identifier, "alias hash"),
                ("source", FactType::Text, "source"),
                ("domain", FactType::Text, "domain"),
                ("active", FactType::Text, "active"),
                ("in_network", FactType::Text, "in network"),
                ("blocked", FactType::Text, "blocked"),
                ("hidden", FactType::Text, "hidden"),
                ("starred", FactType::Text, "starred"),
                ("bot", FactType::Text, "bot"),
            ],
        );
        let at = t.get(row, "last_activity");
        d.time(at, unix_seconds(at), "Wickr user last active", inv);
        d.interpretation = format!(
            "ZSECEX_USER Z_PK {} of {path}: a Wickr user the app knows ({}); the user name is encrypted and not read, so the user is known by the hashes Wickr keeps in the clear; last activity is Unix seconds, as iLEAPP reads it.",
            t.get(row, "pk").unwrap_or("?"),
            said.join("; ")
        );
        run.record(d)?;
    }
    crate::calls::note_pages_cap(run.ctx, path, &paged, "Wickr users")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn join_tables_by_entity_numbers() {
        assert_eq!(entity_of("Z_13FILES"), Some("13"));
        assert_eq!(entity_of("Z_FOK_3ASSETS"), None);
        assert_eq!(entity_of("Z_5"), None);
        assert_eq!(entity_of("Z_5A;DROP"), None);
        let j = Joins {
            entities: [
                ("5", "Secex_Convo"),
                ("9", "Secex_User"),
                ("13", "Wickr_file"),
            ]
            .into_iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect(),
            columns: [
                ("Z_13MSG", "Z_11MSG"),
                ("Z_13MSG", "Z_13FILES"),
                ("Z_5MEMBERS", "Z_5CONVOS"),
                ("Z_5MEMBERS", "Z_9MEMBERS"),
            ]
            .into_iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect(),
        };
        assert_eq!(
            j.between("Secex_Convo", "Secex_User"),
            Some(("Z_5MEMBERS".into(), "Z_5CONVOS".into(), "Z_9MEMBERS".into()))
        );
        assert_eq!(j.between("Secex_Secure_Room", "Secex_User"), None);
    }
}
