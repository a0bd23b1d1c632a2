//! Apple Notes (`NoteStore.sqlite`, iOS 9 and later): one phenomenon per note with every
//! field iLEAPP's `notes` module reports — title, snippet, the full text (the gzip-compressed
//! protobuf of `ZICNOTEDATA.ZDATA`, read through `sqlite_query`'s `protobuf` option: field
//! 2 → 3 → 2), folder, account (storage place), created and modified times (Core Data
//! seconds), locked, password hint, marked for deletion, pinned — and the identifiers in the
//! text: a wallet address the device's user wrote in their own note is their control claim
//! ("my address" or no cue at all: the note's writer is the owner), phones and e-mails are
//! noted on the note's `document:` mention.
//!
//! Then the people a note is shared with (`ZSERVERSHAREDATA`, an archived `CKShare`, read
//! through `plists`): each participant's name, e-mail, phone, role, permission and acceptance
//! status. The current user (`IsCurrentUser`) is the device's owner; the others are person
//! entities `note-participant:<id>` with their name, e-mail and phone.
//!
//! Columns are keyed by name: Core Data renumbers them between iOS versions
//! (`ZCREATIONDATE3` on iOS 17, `ZCREATIONDATE1` before; the account link `ZACCOUNT2`…`8`).

use std::collections::BTreeSet;

use masf_agents::RuntimeError;
use masf_graph::{EntityKind, FactType, IdType};
use masf_tools::Invoked;
use serde_json::Value;

use super::{Draft, Run, core_data_encoding, escape, raw};
use crate::identity::Party;
use crate::outputs::plist_cell;

/// Triage of every `NoteStore.sqlite` of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    run.each("NoteStore.sqlite", |find, path| one(run, find, path))
}

/// The first present column of `names`, as an SQL expression (`COALESCE` of those present),
/// `NULL` when none is.
fn first_of(cols: &BTreeSet<String>, table: &str, names: &[&str]) -> String {
    let present: Vec<String> = names
        .iter()
        .filter(|c| cols.contains(**c))
        .map(|c| format!("{table}.{c}"))
        .collect();
    match present.len() {
        0 => "NULL".into(),
        1 => present[0].clone(),
        _ => format!("COALESCE({})", present.join(", ")),
    }
}

/// The note text of a decoded `ZICNOTEDATA.ZDATA` (NoteStoreProto → Document → Note → text).
pub fn note_text(message: &Value) -> Option<&str> {
    message
        .get("2")?
        .get(0)?
        .get("3")?
        .get(0)?
        .get("2")?
        .get(0)?
        .as_str()
}

use crate::outputs::in_json_cell;

fn one(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let obj = "ZICCLOUDSYNCINGOBJECT";
    let Some(schema) = run.schema(path, &[obj, "ZICNOTEDATA"])? else {
        return Ok(());
    };
    if !schema.require(run, obj, &["Z_PK", "ZNOTEDATA"])?
        || !schema.require(run, "ZICNOTEDATA", &["Z_PK", "ZDATA"])?
    {
        return Ok(());
    }
    let cols = schema.columns(obj);
    let col = |c: &str| {
        if cols.contains(c) {
            format!("n.{c}")
        } else {
            "NULL".into()
        }
    };
    let accounts: Vec<String> = (1..=8).rev().map(|i| format!("ZACCOUNT{i}")).collect();
    let accounts: Vec<&str> = accounts.iter().map(String::as_str).collect();
    let folder_title = if cols.contains("ZTITLE2") {
        "f.ZTITLE2"
    } else {
        "NULL"
    };
    let account_name = if cols.contains("ZNAME") {
        "a.ZNAME"
    } else {
        "NULL"
    };
    let folder_join = if cols.contains("ZFOLDER") {
        "LEFT JOIN ZICCLOUDSYNCINGOBJECT f ON f.Z_PK = n.ZFOLDER"
    } else {
        "LEFT JOIN ZICCLOUDSYNCINGOBJECT f ON 0"
    };
    let sql = format!(
        "SELECT * FROM (SELECT n.Z_PK AS pk, {title} AS title, {snippet} AS snippet, {folder_title} AS folder, \
{account_name} AS account, {created} AS created, {modified} AS modified, {locked} AS locked, {hint} AS hint, \
{deleted} AS deleted, {pinned} AS pinned, {share} AS share, d.ZDATA AS data \
FROM ZICCLOUDSYNCINGOBJECT n JOIN ZICNOTEDATA d ON d.Z_PK = n.ZNOTEDATA {folder_join} \
LEFT JOIN ZICCLOUDSYNCINGOBJECT a ON a.Z_PK = {account})",
        title = col("ZTITLE1"),
        snippet = col("ZSNIPPET"),
        created = first_of(
            &cols,
            "n",
            &["ZCREATIONDATE3", "ZCREATIONDATE1", "ZCREATIONDATE"]
        ),
        modified = first_of(&cols, "n", &["ZMODIFICATIONDATE1", "ZMODIFICATIONDATE"]),
        locked = col("ZISPASSWORDPROTECTED"),
        hint = col("ZPASSWORDHINT"),
        deleted = col("ZMARKEDFORDELETION"),
        pinned = col("ZISPINNED"),
        share = col("ZSERVERSHAREDATA"),
        account = first_of(&cols, "n", &accounts),
    );
    let Some(paged) = run.paged_with(path, &sql, "pk", &["plists", "protobuf"])? else {
        return Ok(());
    };
    let region = run.ctx.phone_region();
    for (inv, t, row) in paged.rows() {
        let pk = raw(t, row, "pk").unwrap_or_default();
        let title = raw(t, row, "title");
        let decoded = t
            .get(row, "data")
            .and_then(|c| serde_json::from_str::<Value>(c.strip_prefix("protobuf:")?).ok());
        let text = decoded.as_ref().and_then(note_text).map(str::to_string);
        let flag = |c: &str| t.get(row, c) == Some("1");
        let mut d = Draft::new(
            "notes",
            format!("Note {pk}: {}", title.as_deref().unwrap_or("(untitled)")),
        );
        d.fact(FactType::Path, Some(path), find);
        d.fact(FactType::Name, title.as_deref(), inv);
        d.fact(FactType::Text, raw(t, row, "snippet").as_deref(), inv);
        if let Some(x) = &text {
            d.fact(FactType::Text, Some(&in_json_cell(x)), inv);
        }
        d.fact(FactType::Name, raw(t, row, "folder").as_deref(), inv);
        d.fact(FactType::Name, raw(t, row, "account").as_deref(), inv);
        d.fact(FactType::Text, raw(t, row, "hint").as_deref(), inv);
        let created = raw(t, row, "created");
        d.time(
            created.as_deref(),
            core_data_encoding(created.as_deref()),
            "Note created",
            inv,
        );
        let modified = raw(t, row, "modified");
        d.time(
            modified.as_deref(),
            core_data_encoding(modified.as_deref()),
            "Note modified",
            inv,
        );
        let mut flags = Vec::new();
        for (c, what) in [
            ("locked", "password protected"),
            ("deleted", "marked for deletion"),
            ("pinned", "pinned"),
        ] {
            if flag(c) {
                flags.push(what);
            }
        }
        d.interpretation = format!(
            "Note Z_PK {pk} of {path}{}{}{}: {}. Its text is the gzip-compressed protobuf ZICNOTEDATA.ZDATA (field 2 → 3 → 2); times are Core Data seconds since 2001 UTC (apple_seconds).",
            raw(t, row, "folder")
                .map(|f| format!(" in the folder {f}"))
                .unwrap_or_default(),
            raw(t, row, "account")
                .map(|a| format!(" of the {a} account"))
                .unwrap_or_default(),
            if flags.is_empty() {
                String::new()
            } else {
                format!(" ({})", flags.join(", "))
            },
            match &text {
                Some(_) => "its full text is decoded".to_string(),
                None if flag("locked") =>
                    "its text is encrypted (a locked note) and was not read".to_string(),
                None => "its text could not be decoded".to_string(),
            }
        );
        run.record(d)?;
        if let Some(x) = &text {
            let shown = in_json_cell(x);
            let what = format!("note {pk} of {}", super::file_name(path));
            let owner = Party {
                context: "owner",
                label: "device owner",
                role: "the device's user (the note's writer)",
            };
            let mut obs = |c: &str,
                           k: EntityKind,
                           l: &str,
                           ty: IdType,
                           v: &str,
                           why: String,
                           cue: Option<&str>| {
                run.observe_cued(c, k, l, ty, v, inv, why, cue)
            };
            crate::identity::observe_written_wallets(
                region.as_ref(),
                &shown,
                &what,
                Some(owner),
                None,
                &mut obs,
            )?;
        }
        if let Some(share) = t.get(row, "share").and_then(plist_cell) {
            participants(run, find, inv, path, &pk, title.as_deref(), &share)?;
        }
    }
    Ok(())
}

/// The participants of a note's share (an archived `CKShare`).
fn participants(
    run: &Run<'_, '_>,
    find: &Invoked,
    inv: &Invoked,
    path: &str,
    pk: &str,
    title: Option<&str>,
    share: &Value,
) -> Result<(), RuntimeError> {
    let mut found = Vec::new();
    collect(share, &mut found, 0);
    for p in found {
        let s = |k: &str| p.get(k).and_then(Value::as_str).map(str::to_string);
        let identity = p.get("UserIdentity").unwrap_or(&Value::Null);
        let lookup = identity.get("LookupInfo").unwrap_or(&Value::Null);
        let email = lookup.get("EmailAddress").and_then(Value::as_str);
        let phone = lookup.get("PhoneNumber").and_then(Value::as_str);
        let components = identity.get("NameComponents").unwrap_or(&Value::Null);
        let names = components
            .get("NS.nameComponentsPrivate")
            .unwrap_or(components);
        let name: Vec<&str> = ["NS.givenName", "NS.middleName", "NS.familyName"]
            .iter()
            .filter_map(|k| names.get(*k).and_then(Value::as_str))
            .collect();
        let id = s("ParticipantID").unwrap_or_default();
        let current = p.get("IsCurrentUser") == Some(&Value::Bool(true));
        // the archived participant type as iLEAPP reads it (1 owner, 2 private user)
        let role = match p.get("Type").and_then(Value::as_u64) {
            Some(1) => "owner".to_string(),
            Some(2) => "private user".to_string(),
            Some(n) => format!("participant of type {n}"),
            None => "participant".to_string(),
        };
        let permission = match p.get("Permission").and_then(Value::as_u64) {
            Some(1) => "no access",
            Some(2) => "read only",
            Some(3) => "read/write",
            _ => "unknown",
        };
        let acceptance = match p.get("AcceptanceStatus").and_then(Value::as_u64) {
            Some(1) => "pending",
            Some(2) => "accepted",
            Some(3) => "removed",
            _ => "unknown",
        };
        let mut d = Draft::new(
            "notes",
            format!(
                "Note {pk} shared with {}",
                email
                    .or(phone)
                    .map(str::to_string)
                    .unwrap_or_else(|| name.join(" "))
            ),
        );
        d.fact(FactType::Path, Some(path), find);
        d.fact(FactType::Name, title.map(escape).as_deref(), inv);
        d.fact(FactType::Identifier, Some(&id), inv);
        for n in &name {
            d.fact(FactType::Name, Some(&escape(n)), inv);
        }
        d.fact(FactType::Email, email, inv);
        d.fact(FactType::Phone, phone, inv);
        d.interpretation = format!(
            "Note Z_PK {pk} of {path} is shared (iCloud share, ZSERVERSHAREDATA); participant {id} is {}{}{}, its {role}{}, permission {}, acceptance status {}.",
            if name.is_empty() {
                "unnamed".to_string()
            } else {
                name.join(" ")
            },
            email.map(|e| format!(" <{e}>")).unwrap_or_default(),
            phone.map(|p| format!(" ({p})")).unwrap_or_default(),
            if current {
                ", the device's own user"
            } else {
                ""
            },
            permission,
            acceptance,
        );
        run.record(d)?;
        let (context, label) = if current {
            ("owner".to_string(), "device owner".to_string())
        } else {
            (
                format!("note-participant:{id}"),
                if name.is_empty() {
                    id.clone()
                } else {
                    name.join(" ")
                },
            )
        };
        let why =
            |v: &str| format!("{v} is a participant ({role}) of a shared note on this device.");
        for (ty, v) in [(IdType::Email, email), (IdType::Phone, phone)] {
            if let Some(v) = v {
                run.observe(&context, EntityKind::Person, &label, ty, v, inv, why(v))?;
            }
        }
        // a name is observed only when the output holds it whole (one name component)
        if let ([only], false) = (name.as_slice(), current) {
            run.observe(
                &context,
                EntityKind::Person,
                &label,
                IdType::DisplayName,
                only,
                inv,
                why(only),
            )?;
        }
    }
    Ok(())
}

/// Every participant object below `v` (an object with `ParticipantID` and `UserIdentity`).
fn collect<'a>(v: &'a Value, out: &mut Vec<&'a Value>, depth: usize) {
    if depth > 32 {
        return;
    }
    match v {
        Value::Object(m) => {
            if m.contains_key("ParticipantID") && m.contains_key("UserIdentity") {
                if !out.iter().any(|o| {
                    std::ptr::eq(*o, v) || o.get("ParticipantID") == m.get("ParticipantID")
                }) {
                    out.push(v);
                }
                return;
            }
            for x in m.values() {
                collect(x, out, depth + 1);
            }
        }
        Value::Array(a) => {
            for x in a {
                collect(x, out, depth + 1);
            }
        }
        _ => {}
    }
}
