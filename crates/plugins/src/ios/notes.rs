//! Apple Notes (`NoteStore.sqlite`, iOS 9 and later): one phenomenon per note with every
//! field iLEAPP's `notes` module reports — title, snippet, the full text (the gzip-compressed
//! protobuf of `ZICNOTEDATA.ZDATA`, read through `sqlite_query`'s `protobuf` option: field
//! 2 → 3 → 2), folder, account (storage place), created and modified times (Core Data
//! seconds), locked, password hint, marked for deletion, pinned, and for a locked note how it is
//! locked (iLEAPP's `notesPasswordProtected`: the wrapped key's length, `length(ZCRYPTOWRAPPEDKEY)`
//! in the query, and `ZCRYPTOITERATIONCOUNT`; 24 bytes is the scheme Ciofeca Forensics
//! documented — PBKDF2-SHA256, AES key wrap, AES-GCM — which the note's password opens, 16 bytes
//! the revised scheme seen from iOS 16 that the published method does not open; the note's text
//! stays encrypted either way) — and the identifiers in the
//! text: a wallet address the device's user wrote in their own note is their control claim
//! ("my address" or no cue at all: the note's writer is the owner), phones and e-mails are
//! noted on the note's `document:` mention.
//!
//! Then the people a note is shared with (`ZSERVERSHAREDATA`, an archived `CKShare`, read
//! through `plists`): each participant's name, e-mail, phone, role, permission and acceptance
//! status. The current user (`IsCurrentUser`) is the device's owner; the others are person
//! entities `note-participant:<id>` with their name, e-mail and phone. And the invitations to
//! shared notes (`ZICINVITATION`, iLEAPP's `notesParticipants`): created, received and
//! modified, the note's title and snippet, the share URL, and the participants of its share.
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
    let Some(schema) = run.schema(path, &[obj, "ZICNOTEDATA", "ZICINVITATION"])? else {
        return Ok(());
    };
    if !schema.columns("ZICINVITATION").is_empty()
        && schema.require(run, "ZICINVITATION", &["Z_PK", "ZSERVERSHAREDATA"])?
    {
        invitations(run, find, path, &schema)?;
    }
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
{deleted} AS deleted, {pinned} AS pinned, {wrapped} AS wrapped_bytes, {iterations} AS iterations, \
{share} AS share, d.ZDATA AS data \
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
        wrapped = if cols.contains("ZCRYPTOWRAPPEDKEY") {
            "length(n.ZCRYPTOWRAPPEDKEY)"
        } else {
            "NULL"
        },
        iterations = col("ZCRYPTOITERATIONCOUNT"),
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
        // how a locked note is locked: the wrapped key's length and the iteration count
        let wrapped = raw(t, row, "wrapped_bytes").filter(|_| flag("locked"));
        d.fact(FactType::Count, wrapped.as_deref(), inv);
        d.fact(
            FactType::Count,
            raw(t, row, "iterations")
                .filter(|_| flag("locked") && wrapped.is_some())
                .as_deref(),
            inv,
        );
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
                None if flag("locked") => format!(
                    "its text is encrypted (a locked note) and was not read; {}",
                    lock_scheme(wrapped.as_deref(), raw(t, row, "iterations").as_deref())
                ),
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
    recovered(run, find, path, &cols)
}

/// How a locked note is locked, by the length of its wrapped key (`ZCRYPTOWRAPPEDKEY`) as
/// iLEAPP's `notesPasswordProtected` tells the schemes apart (the iteration count moves with it).
fn lock_scheme(wrapped: Option<&str>, iterations: Option<&str>) -> String {
    let rounds = iterations
        .map(|i| format!(", ZCRYPTOITERATIONCOUNT {i}"))
        .unwrap_or_default();
    match wrapped {
        Some("24") => format!(
            "its key is locked with the scheme Ciofeca Forensics documented (a 24-byte AES-wrapped key{rounds}: PBKDF2-SHA256, AES key wrap, AES-GCM), which the note's password opens"
        ),
        Some("16") => format!(
            "its key is locked with the revised scheme seen from iOS 16 (a 16-byte wrapped key{rounds}), which the published method does not open"
        ),
        Some(n) => format!("its wrapped key is {n} bytes long{rounds}, a scheme not recognised"),
        None => {
            "the store keeps no wrapped key for it (no ZCRYPTOWRAPPEDKEY column, or none stored)"
                .to_string()
        }
    }
}

/// Note texts `ZICNOTEDATA` no longer shows that earlier page versions hold (a note's data
/// deleted, or its earlier text before an edit): one phenomenon each, the note named by its
/// live title where the note is still listed.
fn recovered(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    cols: &BTreeSet<String>,
) -> Result<(), RuntimeError> {
    let Some((inv, t)) = run.wal_rows(path, "ZICNOTEDATA", &["protobuf"])? else {
        return Ok(());
    };
    let notes = crate::recovered::ids(&t, "ZNOTE");
    let titles = if notes.is_empty() || !cols.contains("ZTITLE1") {
        None
    } else {
        run.query(
            path,
            &format!(
                "SELECT Z_PK AS pk, ZTITLE1 AS title FROM ZICCLOUDSYNCINGOBJECT WHERE Z_PK IN ({})",
                notes.join(",")
            ),
            10_000,
        )?
    };
    for row in &t.rows {
        let pk = crate::recovered::key(&t, row, "Z_PK");
        let note = t.get(row, "ZNOTE");
        let title = titles.as_ref().and_then(|(tinv, tt)| {
            tt.rows
                .iter()
                .find(|r| tt.get(r, "pk").is_some() && tt.get(r, "pk") == note)
                .and_then(|r| raw(tt, r, "title").map(|x| (tinv, x)))
        });
        let decoded = t
            .get(row, "ZDATA")
            .and_then(|c| serde_json::from_str::<Value>(c.strip_prefix("protobuf:")?).ok());
        let text = decoded.as_ref().and_then(note_text).map(in_json_cell);
        let mut d = Draft::new(
            "notes",
            format!(
                "{} note {}: {} (recovered)",
                crate::recovered::title_word(t.get(row, "status")),
                note.unwrap_or("?"),
                title
                    .as_ref()
                    .map(|(_, x)| x.as_str())
                    .unwrap_or("(a note no longer listed)")
            ),
        );
        d.fact(FactType::Path, Some(path), find);
        d.fact(FactType::Text, raw(&t, row, "status").as_deref(), &inv);
        if let Some((tinv, x)) = &title {
            d.fact(FactType::Name, Some(x), tinv);
        }
        d.fact(FactType::Text, text.as_deref(), &inv);
        d.interpretation = format!(
            "ZICNOTEDATA Z_PK {pk} of {path}, the data of note {}: {}{}.",
            note.unwrap_or("?"),
            crate::recovered::provenance(&t, row),
            if text.is_some() {
                ". Its text is the gzip-compressed protobuf ZDATA (field 2 → 3 → 2)"
            } else {
                ". Its ZDATA holds no note text this reader knows (a table, a drawing, or not a note body)"
            }
        );
        run.record(d)?;
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
        let who = Participant::of(p);
        let mut d = Draft::new(
            "notes",
            format!(
                "Note {pk} shared with {}",
                who.email
                    .or(who.phone)
                    .map(str::to_string)
                    .unwrap_or_else(|| who.name.join(" "))
            ),
        );
        d.fact(FactType::Path, Some(path), find);
        d.fact(FactType::Name, title.map(escape).as_deref(), inv);
        d.fact(FactType::Identifier, Some(&who.id), inv);
        for n in &who.name {
            d.fact(FactType::Name, Some(&escape(n)), inv);
        }
        d.fact(FactType::Email, who.email, inv);
        d.fact(FactType::Phone, who.phone, inv);
        d.interpretation = format!(
            "Note Z_PK {pk} of {path} is shared (iCloud share, ZSERVERSHAREDATA); {}.",
            who.describe()
        );
        run.record(d)?;
        who.observe(run, inv)?;
    }
    Ok(())
}

/// The invitations to shared notes (`ZICINVITATION`), the fields of iLEAPP's
/// `notesParticipants`: one `notes` phenomenon per invitation — created, received and modified
/// (Core Data seconds), the note's title and snippet, the share URL — with each participant of
/// its archived `CKShare` (`ZSERVERSHAREDATA`: id, name, e-mail, phone, role, permission,
/// acceptance), the participants observed as the note rows' are.
fn invitations(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    schema: &super::Schema,
) -> Result<(), RuntimeError> {
    let c = |x: &str| schema.col("i", "ZICINVITATION", x);
    let sql = format!(
        "SELECT * FROM (SELECT i.Z_PK AS pk, {} AS created, {} AS received, {} AS modified, {} AS title, {} AS snippet, {} AS url, i.ZSERVERSHAREDATA AS share FROM ZICINVITATION i WHERE i.ZSERVERSHAREDATA IS NOT NULL)",
        c("ZCREATIONDATE"),
        c("ZRECEIVEDDATE"),
        c("ZMODIFICATIONDATE"),
        c("ZTITLE"),
        c("ZSNIPPET"),
        c("ZSHAREURL"),
    );
    let Some(paged) = run.paged_with(path, &sql, "pk", &["plists"])? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        let pk = raw(t, row, "pk").unwrap_or_default();
        let title = raw(t, row, "title");
        let mut d = Draft::new(
            "notes",
            format!(
                "Invitation to the shared note {}",
                title.as_deref().unwrap_or("(untitled)")
            ),
        );
        d.fact(FactType::Path, Some(path), find);
        d.fact(FactType::Name, title.as_deref(), inv);
        d.fact(FactType::Text, raw(t, row, "snippet").as_deref(), inv);
        d.fact(FactType::Url, raw(t, row, "url").as_deref(), inv);
        for (col, what) in [
            ("created", "Note invitation created"),
            ("received", "Note invitation received"),
            ("modified", "Note invitation modified"),
        ] {
            let v = raw(t, row, col);
            d.time(v.as_deref(), core_data_encoding(v.as_deref()), what, inv);
        }
        let share = t.get(row, "share").and_then(plist_cell);
        let mut found = Vec::new();
        if let Some(share) = &share {
            collect(share, &mut found, 0);
        }
        let mut said = Vec::new();
        for p in &found {
            let who = Participant::of(p);
            d.fact(FactType::Identifier, Some(&who.id), inv);
            for n in &who.name {
                d.fact(FactType::Name, Some(&escape(n)), inv);
            }
            d.fact(FactType::Email, who.email, inv);
            d.fact(FactType::Phone, who.phone, inv);
            said.push(who.describe());
        }
        d.interpretation = format!(
            "ZICINVITATION Z_PK {pk} of {path}: an invitation to the shared note \"{}\"{}; its participants: {}. Times are Core Data seconds.",
            title.as_deref().unwrap_or("(untitled)"),
            t.get(row, "url")
                .map(|u| format!(" ({u})"))
                .unwrap_or_default(),
            if said.is_empty() {
                "none stored".to_string()
            } else {
                said.join("; ")
            },
        );
        run.record(d)?;
        for p in &found {
            Participant::of(p).observe(run, inv)?;
        }
    }
    Ok(())
}

/// One participant of an archived `CKShare`.
struct Participant<'a> {
    id: String,
    email: Option<&'a str>,
    phone: Option<&'a str>,
    name: Vec<&'a str>,
    current: bool,
    role: String,
    permission: &'static str,
    acceptance: &'static str,
}

impl<'a> Participant<'a> {
    fn of(p: &'a Value) -> Self {
        let identity = p.get("UserIdentity").unwrap_or(&Value::Null);
        let lookup = identity.get("LookupInfo").unwrap_or(&Value::Null);
        let components = identity.get("NameComponents").unwrap_or(&Value::Null);
        let names = components
            .get("NS.nameComponentsPrivate")
            .unwrap_or(components);
        Participant {
            id: p
                .get("ParticipantID")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_string(),
            email: lookup.get("EmailAddress").and_then(Value::as_str),
            phone: lookup.get("PhoneNumber").and_then(Value::as_str),
            name: ["NS.givenName", "NS.middleName", "NS.familyName"]
                .iter()
                .filter_map(|k| names.get(*k).and_then(Value::as_str))
                .collect(),
            current: p.get("IsCurrentUser") == Some(&Value::Bool(true)),
            // the archived participant type as iLEAPP reads it (1 owner, 2 private user)
            role: match p.get("Type").and_then(Value::as_u64) {
                Some(1) => "owner".to_string(),
                Some(2) => "private user".to_string(),
                Some(n) => format!("participant of type {n}"),
                None => "participant".to_string(),
            },
            permission: match p.get("Permission").and_then(Value::as_u64) {
                Some(1) => "no access",
                Some(2) => "read only",
                Some(3) => "read/write",
                _ => "unknown",
            },
            acceptance: match p.get("AcceptanceStatus").and_then(Value::as_u64) {
                Some(1) => "pending",
                Some(2) => "accepted",
                Some(3) => "removed",
                _ => "unknown",
            },
        }
    }

    /// "participant <id> is <name> <e-mail> (<phone>), its <role>, permission …, acceptance
    /// status …".
    fn describe(&self) -> String {
        format!(
            "participant {} is {}{}{}, its {}{}, permission {}, acceptance status {}",
            self.id,
            if self.name.is_empty() {
                "unnamed".to_string()
            } else {
                self.name.join(" ")
            },
            self.email.map(|e| format!(" <{e}>")).unwrap_or_default(),
            self.phone.map(|p| format!(" ({p})")).unwrap_or_default(),
            self.role,
            if self.current {
                ", the device's own user"
            } else {
                ""
            },
            self.permission,
            self.acceptance,
        )
    }

    /// The participant's e-mail, phone and (a one-part) name: the device's user when current,
    /// else the person `note-participant:<id>`.
    fn observe(&self, run: &Run<'_, '_>, inv: &Invoked) -> Result<(), RuntimeError> {
        let (context, label) = if self.current {
            ("owner".to_string(), "device owner".to_string())
        } else {
            (
                format!("note-participant:{}", self.id),
                if self.name.is_empty() {
                    self.id.clone()
                } else {
                    self.name.join(" ")
                },
            )
        };
        let role = &self.role;
        let why =
            |v: &str| format!("{v} is a participant ({role}) of a shared note on this device.");
        for (ty, v) in [(IdType::Email, self.email), (IdType::Phone, self.phone)] {
            if let Some(v) = v {
                run.observe(&context, EntityKind::Person, &label, ty, v, inv, why(v))?;
            }
        }
        // a name is observed only when the output holds it whole (one name component)
        if let ([only], false) = (self.name.as_slice(), self.current) {
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
        Ok(())
    }
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
