//! WhatsApp for Android (`com.whatsapp`, WhatsApp Business `com.whatsapp.w4b`), read the way
//! ALEAPP's `WhatsApp` module reads it, and further:
//!
//! | file | phenomena | identities |
//! |---|---|---|
//! | `databases/wa.db` `wa_contacts` | one per contact: JID, number, the address book's name (display, given, family), the name the person set (`wa_name`), nickname, company, title, status and when it was set, whether a WhatsApp user | `handle:<jid>` of a person's JID: the JID (a phone for `@s.whatsapp.net`), the number, the names |
//! | `msgstore.db` `message` (2021 on, with `chat`, `jid`) | one per message: chat (JID, group subject), direction, sender in a group, type by name, text, starred, received time; its media (path, size, MIME type, name, caption, duration), location (latitude, longitude, place, address, URL, live sharing's duration and final position and time) and the message it quotes | `handle:<jid>`: the other party of a one-to-one chat, the sender of a received group message; wallet claims by direction |
//! | `msgstore.db` `call_log` | one per call: JID, direction, voice or video, start, duration, result, bytes, call id, group | `handle:<jid>` of the party |
//! | `msgstore.db` group chats (`chat` of a `@g.us` JID) with `group_participant_user` (or `group_participants`), and `wa.db` `wa_group_admin_settings` | one per group: subject, created, creator, each participant with admin rank and pending flag | `handle:<jid>` of each participant |
//! | `msgstore.db` `jid_map` | one per LID mapped to its phone JID | both on `handle:<phone jid>`, so a member known by its LID is its number |
//! | `msgstore.db` `messages` (before 2021) | one per message: JID, group sender (`remote_resource`), direction, text, media URL, received time | as above |
//! | `shared_prefs/com.whatsapp_preferences_light.xml` (`…w4b_preferences_light.xml`) | the account: push name, status, version, country code and number | `owner`: the number (and its JID), the push name |
//!
//! Columns are read by name (a missing optional column or table is `NULL`); the tables a kind
//! needs missing are noted ("could not parse …"). Times are Unix milliseconds, durations
//! seconds.

use std::collections::{BTreeMap, BTreeSet};

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{EntityKind, FactType, IdType};
use masf_tools::Invoked;

use super::Located;
use crate::calls::{column_or_null, note_pages_cap, require_columns};
use crate::drafts::{Draft, record_draft, unix_millis};
use crate::identity::{Party, artefact_name, jid_type, observe, pages_on};
use crate::outputs::{Table, raw};

/// A group participant: JID, rank (or admin flag), pending flag.
/// A group member: the page that holds it, the JID, rank and pending flag.
type Member<'a> = (&'a Invoked, String, Option<String>, Option<String>);

/// A database's tables and their columns.
type Columns = BTreeMap<String, BTreeSet<String>>;

/// What `wa.db` tells the message store beside it: names by JID, group creators by group JID.
#[derive(Default)]
struct Book {
    names: BTreeMap<String, String>,
    creators: BTreeMap<String, (String, Invoked)>,
}

/// Whether `l` lies in a WhatsApp app folder.
fn in_app(l: &Located) -> bool {
    l.path.contains("/com.whatsapp/") || l.path.contains("/com.whatsapp.w4b/")
}

/// The folder of a file.
fn folder(path: &str) -> &str {
    path.rsplit_once('/').map(|(d, _)| d).unwrap_or("")
}

/// Triage of the WhatsApp files found: each `wa.db` (beside a `msgstore.db` or in the app's
/// folder), then each `msgstore.db` with the names of the `wa.db` beside it, then the account's
/// preferences.
pub fn triage(ctx: &AgentCtx<'_>, found: &[Located]) -> Result<(), RuntimeError> {
    let stores: Vec<&Located> = found.iter().filter(|l| l.name() == "msgstore.db").collect();
    let mut books: BTreeMap<String, Book> = BTreeMap::new();
    for l in found.iter().filter(|l| {
        l.name() == "wa.db"
            && (in_app(l)
                || stores
                    .iter()
                    .any(|s| s.tree == l.tree && folder(&s.path) == folder(&l.path)))
    }) {
        let mut book = Book::default();
        ctx.artefact(&artefact_name(&l.tree, &l.path), || {
            contacts(ctx, l, &mut book)
        })?;
        books.insert(format!("{}:{}", l.tree.label, folder(&l.path)), book);
    }
    let none = Book::default();
    for l in &stores {
        let book = books
            .get(&format!("{}:{}", l.tree.label, folder(&l.path)))
            .unwrap_or(&none);
        ctx.artefact(&artefact_name(&l.tree, &l.path), || msgstore(ctx, l, book))?;
    }
    for l in found
        .iter()
        .filter(|l| l.name().ends_with("_preferences_light.xml") && in_app(l))
    {
        ctx.artefact(&artefact_name(&l.tree, &l.path), || account(ctx, l))?;
    }
    Ok(())
}

/// Observes the person a JID names (`handle:<jid>`), when it names one (not a group or a
/// broadcast list): the JID itself, a phone for `…@s.whatsapp.net`.
fn observe_jid(
    ctx: &AgentCtx<'_>,
    jid: &str,
    inv: &Invoked,
    why: String,
) -> Result<(), RuntimeError> {
    if jid.is_empty() || jid_type(jid) == IdType::AccountId {
        return Ok(());
    }
    observe(
        ctx,
        &format!("handle:{jid}"),
        EntityKind::Person,
        jid,
        jid_type(jid),
        jid,
        inv,
        why,
    )?;
    Ok(())
}

/// The columns of `table` of the message store, when it has every one of `needed` (else
/// noted, naming those missing).
fn store_columns<'s>(
    ctx: &AgentCtx<'_>,
    l: &Located,
    schema: &'s Columns,
    table: &str,
    needed: &[&str],
) -> Result<Option<&'s BTreeSet<String>>, RuntimeError> {
    static EMPTY: BTreeSet<String> = BTreeSet::new();
    let cols = schema.get(table).unwrap_or(&EMPTY);
    let name = artefact_name(&l.tree, &l.path);
    Ok(require_columns(ctx, &name, "WhatsApp's msgstore.db", table, cols, needed)?.then_some(cols))
}

/// `wa.db`: the contacts WhatsApp knows, and who created each group.
fn contacts(ctx: &AgentCtx<'_>, l: &Located, book: &mut Book) -> Result<(), RuntimeError> {
    let Some(schema) = crate::identity::schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    let empty = BTreeSet::new();
    let c = schema.get("wa_contacts").unwrap_or(&empty);
    if !require_columns(ctx, &name, "WhatsApp's wa.db", "wa_contacts", c, &["jid"])? {
        return Ok(());
    }
    let cols = [
        ("is_whatsapp_user", "wa_user"),
        ("number", "number"),
        ("raw_contact_id", "raw_contact_id"),
        ("display_name", "display_name"),
        ("given_name", "given_name"),
        ("family_name", "family_name"),
        ("wa_name", "wa_name"),
        ("nickname", "nickname"),
        ("company", "company"),
        ("title", "title"),
        ("status", "status"),
        ("status_timestamp", "status_time"),
    ]
    .map(|(col, alias)| column_or_null(c, "", col, alias))
    .join(", ");
    let key = if c.contains("_id") { "_id" } else { "rowid" };
    let sql = format!("SELECT {key} AS id, jid, {cols} FROM wa_contacts ORDER BY {key}");
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, &name, &pages, "WhatsApp contacts")?;
    for (inv, t, row) in pages.rows() {
        let Some(jid) = raw(t, row, "jid") else {
            continue;
        };
        let id = t.get(row, "id").unwrap_or("?");
        let display = raw(t, row, "display_name");
        let given = raw(t, row, "given_name");
        let family = raw(t, row, "family_name");
        let wa_name = raw(t, row, "wa_name");
        let number = raw(t, row, "number").filter(|n| !n.is_empty());
        // ALEAPP's name: given and family names, else the display name, else the JID
        let label = match (&given, &family) {
            (Some(g), Some(f)) => format!("{g} {f}"),
            (Some(n), None) | (None, Some(n)) => n.clone(),
            (None, None) => display.clone().unwrap_or_else(|| jid.clone()),
        };
        book.names.insert(
            jid.clone(),
            wa_name.clone().unwrap_or_else(|| label.clone()),
        );
        let mut d = Draft::new("contacts", format!("WhatsApp contact {label} ({jid})"));
        d.fact(FactType::Path, Some(&l.path), &l.found);
        d.fact(FactType::Account, Some(&jid), inv);
        d.fact(FactType::Phone, number.as_deref(), inv);
        for n in [&display, &given, &family, &wa_name] {
            d.fact(FactType::Name, n.as_deref(), inv);
        }
        for col in ["nickname", "company", "title"] {
            d.fact(FactType::Name, raw(t, row, col).as_deref(), inv);
        }
        d.fact(FactType::Text, raw(t, row, "status").as_deref(), inv);
        let status_time = t.get(row, "status_time");
        d.time(
            status_time,
            unix_millis(status_time),
            "WhatsApp status set",
            inv,
        );
        d.interpretation = format!(
            "wa_contacts row {id} of {name}: {jid}{}{}{}{}.",
            display
                .as_deref()
                .map(|n| format!(", in the address book as {n}"))
                .unwrap_or_default(),
            wa_name
                .as_deref()
                .map(|n| format!(", who calls themself {n} on WhatsApp"))
                .unwrap_or_default(),
            number
                .as_deref()
                .map(|n| format!(", number {n}"))
                .unwrap_or_default(),
            match t.get(row, "wa_user") {
                Some("1") => ", a WhatsApp user",
                Some("0") => ", not a WhatsApp user",
                _ => "",
            },
        );
        record_draft(ctx, d)?;
        if jid_type(&jid) == IdType::AccountId {
            continue; // a group or broadcast list: no person
        }
        let context = format!("handle:{jid}");
        let what = format!("WhatsApp contact {jid} ({})", l.name());
        observe(
            ctx,
            &context,
            EntityKind::Person,
            &label,
            jid_type(&jid),
            &jid,
            inv,
            format!("{what}: its JID."),
        )?;
        if let Some(n) = &number {
            observe(
                ctx,
                &context,
                EntityKind::Person,
                &label,
                IdType::Phone,
                n,
                inv,
                format!("{what}: the number WhatsApp keeps for it."),
            )?;
        }
        for (n, how) in [
            (&display, "the address book's name for it"),
            (&wa_name, "the name its user set on WhatsApp"),
        ] {
            if let Some(n) = n {
                observe(
                    ctx,
                    &context,
                    EntityKind::Person,
                    &label,
                    IdType::DisplayName,
                    n,
                    inv,
                    format!("{what}: {how}."),
                )?;
            }
        }
    }
    if schema
        .get("wa_group_admin_settings")
        .is_some_and(|c| c.contains("jid") && c.contains("creator_jid"))
        && let Some(pages) = pages_on(
            ctx,
            &l.tree,
            &l.path,
            "SELECT jid, creator_jid FROM wa_group_admin_settings WHERE creator_jid IS NOT NULL ORDER BY jid",
        )?
    {
        for (inv, t, row) in pages.rows() {
            if let (Some(g), Some(c)) = (raw(t, row, "jid"), raw(t, row, "creator_jid")) {
                book.creators.insert(g, (c, inv.clone()));
            }
        }
    }
    Ok(())
}

/// The name of a `message_type` (ALEAPP's and WhatsApp's own names).
fn message_type(v: Option<&str>) -> String {
    let name = match v {
        Some("0") => "text",
        Some("1") => "picture",
        Some("2") => "audio",
        Some("3") => "video",
        Some("4") => "contact card",
        Some("5") => "static location",
        Some("7") => "system message",
        Some("9") => "document",
        Some("10") => "missed call",
        Some("13") => "animated GIF",
        Some("15") => "deleted message",
        Some("16") => "live location",
        Some("20") => "sticker",
        Some(other) => return format!("type {other}"),
        None => return "type not stored".into(),
    };
    name.into()
}

/// `msgstore.db`: messages, calls and groups (2021 on), or the older `messages` table.
fn msgstore(ctx: &AgentCtx<'_>, l: &Located, book: &Book) -> Result<(), RuntimeError> {
    let Some(schema) = crate::identity::schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    let has = |t: &str| schema.contains_key(t);
    if has("message") && has("chat") && has("jid") {
        for (table, needed) in [
            ("message", &["_id", "chat_row_id", "from_me"][..]),
            ("chat", &["_id", "jid_row_id"][..]),
            ("jid", &["_id", "raw_string"][..]),
        ] {
            if store_columns(ctx, l, &schema, table, needed)?.is_none() {
                return Ok(());
            }
        }
        messages(ctx, l, &schema, book)?;
        if has("call_log") {
            calls(ctx, l, &schema)?;
        }
        groups(ctx, l, &schema, book)?;
        lid_map(ctx, l, &schema)?;
        recovered(ctx, l, book, "message")
    } else if has("messages") {
        legacy(ctx, l, &schema, book)?;
        recovered(ctx, l, book, "messages")
    } else {
        ctx.unparsed(
            &name,
            "could not parse WhatsApp's msgstore.db: it has neither the message, chat and jid tables nor the older messages table",
            None,
        )?;
        Ok(())
    }
}

/// The columns the message query takes from the optional tables: (table, alias, column, as).
const JOINED: &[(&str, &str, &str, &str)] = &[
    ("message_media", "mm", "file_path", "media_path"),
    ("message_media", "mm", "file_size", "media_size"),
    ("message_media", "mm", "mime_type", "media_type"),
    ("message_media", "mm", "media_name", "media_name"),
    ("message_media", "mm", "media_caption", "media_caption"),
    ("message_media", "mm", "media_duration", "media_duration"),
    ("message_location", "ml", "latitude", "latitude"),
    ("message_location", "ml", "longitude", "longitude"),
    ("message_location", "ml", "place_name", "place_name"),
    ("message_location", "ml", "place_address", "place_address"),
    ("message_location", "ml", "url", "place_url"),
    (
        "message_location",
        "ml",
        "live_location_share_duration",
        "live_duration",
    ),
    (
        "message_location",
        "ml",
        "live_location_final_latitude",
        "final_latitude",
    ),
    (
        "message_location",
        "ml",
        "live_location_final_longitude",
        "final_longitude",
    ),
    (
        "message_location",
        "ml",
        "live_location_final_timestamp",
        "final_time",
    ),
    ("message_quoted", "mq", "text_data", "quoted_text"),
    ("message_quoted", "mq", "key_id", "quoted_key"),
];

fn messages(
    ctx: &AgentCtx<'_>,
    l: &Located,
    schema: &Columns,
    book: &Book,
) -> Result<(), RuntimeError> {
    let empty = BTreeSet::new();
    let col = |t: &str| schema.get(t).unwrap_or(&empty);
    let m = col("message");
    let mut select = vec![
        "m._id AS id".to_string(),
        "m.from_me AS from_me".to_string(),
        "cj.raw_string AS chat_jid".to_string(),
        column_or_null(col("chat"), "c.", "subject", "subject"),
        column_or_null(m, "m.", "timestamp", "time"),
        column_or_null(m, "m.", "received_timestamp", "received"),
        column_or_null(m, "m.", "message_type", "type"),
        column_or_null(m, "m.", "text_data", "text"),
        column_or_null(m, "m.", "starred", "starred"),
        column_or_null(m, "m.", "key_id", "key_id"),
    ];
    let mut joins = String::new();
    if m.contains("sender_jid_row_id") {
        select.push("sj.raw_string AS sender".into());
        joins.push_str(" LEFT JOIN jid sj ON sj._id = m.sender_jid_row_id");
    } else {
        select.push("NULL AS sender".into());
    }
    for table in ["message_media", "message_location", "message_quoted"] {
        let alias = JOINED
            .iter()
            .find(|j| j.0 == table)
            .map(|j| j.1)
            .unwrap_or("");
        let usable = col(table).contains("message_row_id");
        if usable {
            joins.push_str(&format!(
                " LEFT JOIN {table} {alias} ON {alias}.message_row_id = m._id"
            ));
        }
        for (_, a, c, to) in JOINED.iter().filter(|j| j.0 == table) {
            select.push(if usable {
                column_or_null(col(table), &format!("{a}."), c, to)
            } else {
                format!("NULL AS {to}")
            });
        }
    }
    let sql = format!(
        "SELECT {} FROM message m JOIN chat c ON c._id = m.chat_row_id LEFT JOIN jid cj ON cj._id = c.jid_row_id{joins} ORDER BY m._id",
        select.join(", ")
    );
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    note_pages_cap(ctx, &name, &pages, "WhatsApp messages")?;
    for (inv, t, row) in pages.rows() {
        message(ctx, l, t, row, inv, book)?;
    }
    Ok(())
}

/// A name for a JID: the one `wa.db` gives it, else the JID.
fn named(book: &Book, jid: &str) -> String {
    match book.names.get(jid) {
        Some(n) if n != jid => format!("{n} ({jid})"),
        _ => jid.to_string(),
    }
}

fn message(
    ctx: &AgentCtx<'_>,
    l: &Located,
    t: &Table,
    row: &[Option<String>],
    inv: &Invoked,
    book: &Book,
) -> Result<(), RuntimeError> {
    let id = t.get(row, "id").unwrap_or("?");
    // the placeholder row of the older table is no message
    let Some(chat) = raw(t, row, "chat_jid").filter(|c| c != "-1") else {
        return Ok(());
    };
    let sent = t.get(row, "from_me") == Some("1");
    let group = chat.ends_with("@g.us");
    let sender = raw(t, row, "sender").filter(|s| !s.is_empty());
    let subject = raw(t, row, "subject");
    let chat_label = match (&subject, group) {
        (Some(s), true) => format!("group {s} ({chat})"),
        _ => chat.clone(),
    };
    let title = match (sent, group, &sender) {
        (true, _, _) => format!("WhatsApp message sent to {chat_label}"),
        (false, true, Some(s)) => format!("WhatsApp message received in {chat_label} from {s}"),
        (false, _, _) => format!("WhatsApp message received from {chat_label}"),
    };
    let mut d = Draft::new("messages", title);
    d.fact(FactType::Path, Some(&l.path), &l.found);
    d.fact(FactType::Identifier, Some(&chat), inv);
    d.fact(FactType::Identifier, sender.as_deref(), inv);
    d.fact(FactType::Name, subject.as_deref(), inv);
    let text = raw(t, row, "text").unwrap_or_default();
    d.fact(FactType::Text, Some(&text), inv);
    for (c, ft) in [
        ("media_path", FactType::Path),
        ("media_url", FactType::Url),
        ("media_size", FactType::Count),
        ("media_type", FactType::Identifier),
        ("media_name", FactType::Name),
        ("media_caption", FactType::Text),
        ("media_duration", FactType::Count),
        ("latitude", FactType::Text),
        ("longitude", FactType::Text),
        ("place_name", FactType::Name),
        ("place_address", FactType::Text),
        ("place_url", FactType::Url),
        ("live_duration", FactType::Count),
        ("final_latitude", FactType::Text),
        ("final_longitude", FactType::Text),
        ("quoted_text", FactType::Text),
        ("quoted_key", FactType::Identifier),
    ] {
        d.fact(ft, raw(t, row, c).as_deref(), inv);
    }
    let time = t.get(row, "time");
    d.time(time, unix_millis(time), "Message sent", inv);
    let received = t.get(row, "received");
    if !sent {
        d.time(received, unix_millis(received), "Message received", inv);
    }
    let final_time = t.get(row, "final_time");
    d.time(
        final_time,
        unix_millis(final_time),
        "Live location last shared",
        inv,
    );
    let mut said = format!(
        "WhatsApp message {id} in {}: a {} {}",
        artefact_name(&l.tree, &l.path),
        message_type(t.get(row, "type")),
        if sent {
            format!("sent by the device's user to {}", named(book, &chat))
        } else if group {
            format!(
                "received in {chat_label} from {}",
                sender
                    .as_deref()
                    .map(|s| named(book, s))
                    .unwrap_or_else(|| "a sender not stored".into())
            )
        } else {
            format!("received from {}", named(book, &chat))
        }
    );
    if let Some(p) = raw(t, row, "media_path") {
        said.push_str(&format!(", with the file {p}"));
    }
    if let (Some(la), Some(lo)) = (t.get(row, "latitude"), t.get(row, "longitude")) {
        said.push_str(&format!(", sharing the location {la}, {lo}"));
    }
    if let Some(q) = raw(t, row, "quoted_key") {
        said.push_str(&format!(", quoting message {q}"));
    }
    if t.get(row, "starred") == Some("1") {
        said.push_str(", starred");
    }
    said.push_str("; timestamp and received_timestamp are Unix milliseconds.");
    d.interpretation = said;
    record_draft(ctx, d)?;

    // who is who: the other party of a one-to-one chat; the writer of a received group message
    let what = format!("WhatsApp message {id} ({})", l.name());
    let other = match (group, sent) {
        (false, _) => Some(chat.clone()),
        (true, false) => sender.clone(),
        (true, true) => None,
    }
    .filter(|j| jid_type(j) != IdType::AccountId);
    if let Some(j) = &other {
        observe_jid(
            ctx,
            j,
            inv,
            format!(
                "The WhatsApp account {j}, {} of {what}.",
                if group {
                    "the writer"
                } else {
                    "the other party"
                }
            ),
        )?;
    }
    let context = other.as_ref().map(|j| format!("handle:{j}"));
    let role = other.as_ref().map(|j| {
        if sent {
            format!("{j}, to whom it was sent (from_me 1)")
        } else {
            format!("{j}, who sent it (from_me 0)")
        }
    });
    let party = context
        .as_deref()
        .zip(other.as_deref())
        .zip(role.as_deref())
        .map(|((context, label), role)| Party {
            context,
            label,
            role,
        });
    let owner_role = if sent {
        "the device's user, who sent it (from_me 1)"
    } else {
        "the device's user, who received it (from_me 0)"
    };
    // in a group the user's own words name no one other party: claims only for one-to-one
    // chats and for received group messages (their writer)
    if !(group && sent) {
        crate::identity::message_claims(ctx, inv, &text, &what, sent, owner_role, party)?;
    }
    Ok(())
}

/// `call_log`: WhatsApp voice and video calls.
fn calls(ctx: &AgentCtx<'_>, l: &Located, schema: &Columns) -> Result<(), RuntimeError> {
    let name = artefact_name(&l.tree, &l.path);
    let Some(c) = store_columns(
        ctx,
        l,
        schema,
        "call_log",
        &["_id", "jid_row_id", "from_me", "timestamp"],
    )?
    else {
        return Ok(());
    };
    let group = if c.contains("group_jid_row_id") {
        "gc.subject AS group_subject, gj.raw_string AS group_jid"
    } else {
        "NULL AS group_subject, NULL AS group_jid"
    };
    let group_join = if c.contains("group_jid_row_id") {
        " LEFT JOIN jid gj ON gj._id = k.group_jid_row_id AND k.group_jid_row_id != 0 LEFT JOIN chat gc ON gc.jid_row_id = gj._id"
    } else {
        ""
    };
    let sql = format!(
        "SELECT k._id AS id, j.raw_string AS jid, k.from_me, k.timestamp AS time, {}, {}, {}, {}, {}, {group} \
FROM call_log k LEFT JOIN jid j ON j._id = k.jid_row_id{group_join} ORDER BY k._id",
        column_or_null(c, "k.", "video_call", "video"),
        column_or_null(c, "k.", "duration", "duration"),
        column_or_null(c, "k.", "call_result", "result"),
        column_or_null(c, "k.", "bytes_transferred", "bytes"),
        column_or_null(c, "k.", "call_id", "call_id"),
    );
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, &name, &pages, "WhatsApp calls")?;
    for (inv, t, row) in pages.rows() {
        let id = t.get(row, "id").unwrap_or("?");
        let jid = raw(t, row, "jid");
        let sent = t.get(row, "from_me") == Some("1");
        let kind = match t.get(row, "video") {
            Some("1") => "video",
            Some("0") => "voice",
            _ => "voice or video",
        };
        let party = jid.clone().unwrap_or_else(|| "a party not stored".into());
        let mut d = Draft::new(
            "calls",
            format!(
                "WhatsApp {kind} call {} {party}",
                if sent { "to" } else { "from" }
            ),
        );
        d.fact(FactType::Path, Some(&l.path), &l.found);
        d.fact(FactType::Identifier, jid.as_deref(), inv);
        d.fact(FactType::Count, raw(t, row, "duration").as_deref(), inv);
        d.fact(FactType::Count, raw(t, row, "bytes").as_deref(), inv);
        d.fact(FactType::Identifier, raw(t, row, "call_id").as_deref(), inv);
        d.fact(FactType::Name, raw(t, row, "group_subject").as_deref(), inv);
        d.fact(
            FactType::Identifier,
            raw(t, row, "group_jid").as_deref(),
            inv,
        );
        let time = t.get(row, "time");
        d.time(time, unix_millis(time), "Call started", inv);
        d.interpretation = format!(
            "call_log row {id} of {name}: an {} WhatsApp {kind} call {} {party}{}, lasting {} seconds (call_result {}, {} bytes transferred); timestamp is Unix milliseconds.",
            if sent { "outgoing" } else { "incoming" },
            if sent { "to" } else { "from" },
            raw(t, row, "group_subject")
                .map(|g| format!(" in the group {g}"))
                .unwrap_or_default(),
            t.get(row, "duration").unwrap_or("an unknown number of"),
            t.get(row, "result").unwrap_or("not stored"),
            t.get(row, "bytes").unwrap_or("an unknown number of"),
        );
        record_draft(ctx, d)?;
        if let Some(j) = jid {
            observe_jid(
                ctx,
                &j,
                inv,
                format!(
                    "The WhatsApp account {j}, the other party of WhatsApp call {id} ({}).",
                    l.name()
                ),
            )?;
        }
    }
    Ok(())
}

/// `jid_map`: which phone JID each LID (`…@lid`, the privacy id newer WhatsApp shows in
/// groups) stands for — one phenomenon per pair, both observed on the phone JID's person, so a
/// member known by its LID on one phone is the number another phone knows.
fn lid_map(ctx: &AgentCtx<'_>, l: &Located, schema: &Columns) -> Result<(), RuntimeError> {
    let Some(m) = schema.get("jid_map") else {
        return Ok(());
    };
    if !(m.contains("lid_row_id") && m.contains("jid_row_id")) {
        ctx.unparsed(
            &artefact_name(&l.tree, &l.path),
            "could not parse WhatsApp's jid_map: it lacks lid_row_id or jid_row_id",
            None,
        )?;
        return Ok(());
    }
    let sql = "SELECT lj.raw_string AS lid, pj.raw_string AS jid FROM jid_map m \
JOIN jid lj ON lj._id = m.lid_row_id JOIN jid pj ON pj._id = m.jid_row_id ORDER BY m.lid_row_id";
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, sql)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    note_pages_cap(ctx, &name, &pages, "WhatsApp LID mappings")?;
    for (inv, t, row) in pages.rows() {
        let (Some(lid), Some(jid)) = (raw(t, row, "lid"), raw(t, row, "jid")) else {
            continue;
        };
        if jid_type(&lid) != IdType::WhatsappLid || jid_type(&jid) != IdType::Phone {
            continue;
        }
        let mut d = Draft::new("contacts", format!("WhatsApp LID {lid} is {jid}"));
        d.fact(FactType::Path, Some(&l.path), &l.found);
        d.fact(FactType::Account, Some(&lid), inv);
        d.fact(FactType::Account, Some(&jid), inv);
        d.interpretation = format!(
            "jid_map of {name} maps the WhatsApp LID {lid} to the phone JID {jid}: one account, shown by its LID where WhatsApp hides the number."
        );
        record_draft(ctx, d)?;
        let context = format!("handle:{jid}");
        for (value, id_type) in [(&jid, IdType::Phone), (&lid, IdType::WhatsappLid)] {
            observe(
                ctx,
                &context,
                EntityKind::Person,
                &jid,
                id_type,
                value,
                inv,
                format!("WhatsApp's jid_map pairs {lid} with {jid}."),
            )?;
        }
    }
    Ok(())
}

/// Group chats: subject, creation, creator and participants.
fn groups(
    ctx: &AgentCtx<'_>,
    l: &Located,
    schema: &Columns,
    book: &Book,
) -> Result<(), RuntimeError> {
    let empty = BTreeSet::new();
    let chat = schema.get("chat").unwrap_or(&empty);
    let chat_list = schema.get("chat_list").unwrap_or(&empty);
    // the group chats: `chat` by its JID row (2021 on), or the older `chat_list` by JID string
    let sql = if chat.contains("jid_row_id") && schema.contains_key("jid") {
        format!(
            "SELECT c._id AS id, j.raw_string AS jid, {}, {} FROM chat c JOIN jid j ON j._id = c.jid_row_id \
WHERE j.raw_string LIKE '%@g.us' ORDER BY c._id",
            column_or_null(chat, "c.", "subject", "subject"),
            column_or_null(chat, "c.", "created_timestamp", "created"),
        )
    } else if chat_list.contains("key_remote_jid") {
        format!(
            "SELECT rowid AS id, key_remote_jid AS jid, {}, {} FROM chat_list \
WHERE key_remote_jid LIKE '%@g.us' ORDER BY rowid",
            column_or_null(chat_list, "", "subject", "subject"),
            column_or_null(chat_list, "", "creation", "created"),
        )
    } else {
        return Ok(());
    };
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(());
    };
    if pages.is_empty() {
        return Ok(());
    }
    // participants: the newer table by JID row ids, or the older one by JID strings
    let gpu = schema.get("group_participant_user").unwrap_or(&empty);
    let gp = schema.get("group_participants").unwrap_or(&empty);
    let members_sql = if gpu.contains("group_jid_row_id") && gpu.contains("user_jid_row_id") {
        Some(format!(
            "SELECT g.raw_string AS grp, u.raw_string AS member, {}, {} FROM group_participant_user p \
JOIN jid g ON g._id = p.group_jid_row_id JOIN jid u ON u._id = p.user_jid_row_id ORDER BY p.group_jid_row_id, p._id",
            if gpu.contains("rank") {
                "p.rank AS rank".to_string()
            } else {
                column_or_null(gpu, "p.", "admin", "rank")
            },
            column_or_null(gpu, "p.", "pending", "pending"),
        ))
    } else if gp.contains("gjid") && gp.contains("jid") {
        Some(format!(
            "SELECT gjid AS grp, jid AS member, {}, {} FROM group_participants ORDER BY gjid, rowid",
            column_or_null(gp, "", "admin", "rank"),
            column_or_null(gp, "", "pending", "pending"),
        ))
    } else {
        None
    };
    let mut members: BTreeMap<String, Vec<Member>> = BTreeMap::new();
    let member_pages = match members_sql {
        Some(sql) => pages_on(ctx, &l.tree, &l.path, &sql)?,
        None => None,
    };
    for (minv, mt, row) in member_pages.iter().flat_map(|p| p.rows()) {
        if let (Some(g), Some(m)) = (raw(mt, row, "grp"), raw(mt, row, "member")) {
            members.entry(g).or_default().push((
                minv,
                m,
                raw(mt, row, "rank"),
                raw(mt, row, "pending"),
            ));
        }
    }
    let name = artefact_name(&l.tree, &l.path);
    for (inv, t, row) in pages.rows() {
        let Some(jid) = raw(t, row, "jid") else {
            continue;
        };
        let subject = raw(t, row, "subject");
        let label = subject.clone().unwrap_or_else(|| jid.clone());
        let mut d = Draft::new("contacts", format!("WhatsApp group {label} ({jid})"));
        d.fact(FactType::Path, Some(&l.path), &l.found);
        d.fact(FactType::Identifier, Some(&jid), inv);
        d.fact(FactType::Name, subject.as_deref(), inv);
        let created = t.get(row, "created");
        d.time(created, unix_millis(created), "Group created", inv);
        let creator = book.creators.get(&jid);
        if let Some((c, cinv)) = creator {
            d.fact(FactType::Identifier, Some(c), cinv);
        }
        let list = members.get(&jid).map(Vec::as_slice).unwrap_or_default();
        let mut each = Vec::new();
        for (mi, m, rank, pending) in list {
            // an empty member string is the device's user in the older table
            if m.is_empty() {
                continue;
            }
            d.fact(FactType::Identifier, Some(m), mi);
            let role = match rank.as_deref() {
                Some("1") => " (admin)",
                Some("2") => " (creator)",
                _ => "",
            };
            let waiting = if pending.as_deref() == Some("1") {
                " (pending)"
            } else {
                ""
            };
            each.push(format!("{}{role}{waiting}", named(book, m)));
        }
        d.interpretation = format!(
            "chat row {} of {name} is the WhatsApp group {label} ({jid}){}{}; created_timestamp is Unix milliseconds.",
            t.get(row, "id").unwrap_or("?"),
            creator
                .map(|(c, _)| format!(", created by {}", named(book, c)))
                .unwrap_or_default(),
            if each.is_empty() {
                String::new()
            } else {
                format!(
                    ", with {} participant(s) besides the device's user: {}",
                    each.len(),
                    each.join(", ")
                )
            },
        );
        record_draft(ctx, d)?;
        for (mi, m, ..) in list {
            observe_jid(
                ctx,
                m,
                mi,
                format!("The WhatsApp account {m}, a participant of the group {label}."),
            )?;
        }
    }
    Ok(())
}

/// The older `messages` table (before 2021): JID, group sender, direction, text, media,
/// location; the groups of `chat_list` with `group_participants`.
fn legacy(
    ctx: &AgentCtx<'_>,
    l: &Located,
    schema: &Columns,
    book: &Book,
) -> Result<(), RuntimeError> {
    let name = artefact_name(&l.tree, &l.path);
    let Some(c) = store_columns(
        ctx,
        l,
        schema,
        "messages",
        &["_id", "key_remote_jid", "key_from_me"],
    )?
    else {
        return Ok(());
    };
    let sql = format!(
        "SELECT _id AS id, key_remote_jid AS chat_jid, key_from_me AS from_me, NULL AS subject, {}, {}, {}, {}, {}, {}, {}, {} FROM messages ORDER BY _id",
        column_or_null(c, "", "timestamp", "time"),
        column_or_null(c, "", "received_timestamp", "received"),
        column_or_null(c, "", "media_wa_type", "type"),
        column_or_null(c, "", "data", "text"),
        column_or_null(c, "", "starred", "starred"),
        column_or_null(c, "", "key_id", "key_id"),
        column_or_null(c, "", "remote_resource", "sender"),
        [
            ("media_url", "media_url"),
            ("media_size", "media_size"),
            ("media_mime_type", "media_type"),
            ("media_name", "media_name"),
            ("media_caption", "media_caption"),
            ("media_duration", "media_duration"),
            ("latitude", "latitude"),
            ("longitude", "longitude"),
        ]
        .map(|(col, to)| column_or_null(c, "", col, to))
        .join(", "),
    );
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, &name, &pages, "WhatsApp messages")?;
    for (inv, t, row) in pages.rows() {
        message(ctx, l, t, row, inv, book)?;
    }
    groups(ctx, l, schema, book)
}

/// Messages `table` (`message`, or the older `messages`) no longer shows that earlier page
/// versions hold (deleted since the last checkpoint, or edited): one phenomenon each. The
/// chat and sender of a `message` row are row ids, named from the live `chat` and `jid`
/// tables (one query each, for the ids the recovered rows name); an older row names its JID.
fn recovered(
    ctx: &AgentCtx<'_>,
    l: &Located,
    book: &Book,
    table: &str,
) -> Result<(), RuntimeError> {
    let name = artefact_name(&l.tree, &l.path);
    let Some((inv, t)) = crate::recovered::wal_rows_on(ctx, &l.tree, &l.path, table, &[])? else {
        return Ok(());
    };
    let modern = table == "message";
    // row id → JID, for the chats' and senders' ids the recovered rows name
    let lookup = |sql: String| -> Result<BTreeMap<String, (String, Invoked)>, RuntimeError> {
        let mut out = BTreeMap::new();
        if let Some((qinv, q)) = crate::identity::query_on(ctx, &l.tree, &l.path, &sql, 100_000)? {
            for r in &q.rows {
                if let (Some(id), Some(jid)) = (q.get(r, "id"), raw(&q, r, "jid")) {
                    out.insert(id.to_string(), (jid, qinv.clone()));
                }
            }
        }
        Ok(out)
    };
    let (chats, senders) = if modern {
        let chat_ids = crate::recovered::ids(&t, "chat_row_id");
        let sender_ids = crate::recovered::ids(&t, "sender_jid_row_id");
        (
            if chat_ids.is_empty() {
                BTreeMap::new()
            } else {
                lookup(format!(
                    "SELECT c._id AS id, j.raw_string AS jid FROM chat c JOIN jid j ON j._id = c.jid_row_id WHERE c._id IN ({})",
                    chat_ids.join(",")
                ))?
            },
            if sender_ids.is_empty() {
                BTreeMap::new()
            } else {
                lookup(format!(
                    "SELECT _id AS id, raw_string AS jid FROM jid WHERE _id IN ({})",
                    sender_ids.join(",")
                ))?
            },
        )
    } else {
        (BTreeMap::new(), BTreeMap::new())
    };
    for row in &t.rows {
        let id = t.get(row, "_id").unwrap_or("?");
        let (from_me, time, text, key) = if modern {
            ("from_me", "timestamp", "text_data", "key_id")
        } else {
            ("key_from_me", "timestamp", "data", "key_id")
        };
        let sent = t.get(row, from_me) == Some("1");
        let chat = if modern {
            t.get(row, "chat_row_id")
                .and_then(|c| chats.get(c))
                .map(|(j, i)| (j.clone(), Some(i)))
        } else {
            raw(&t, row, "key_remote_jid").map(|j| (j, None))
        };
        let sender = if modern {
            t.get(row, "sender_jid_row_id")
                .and_then(|c| senders.get(c))
                .map(|(j, i)| (j.clone(), Some(i)))
        } else {
            raw(&t, row, "remote_resource")
                .filter(|r| !r.is_empty())
                .map(|j| (j, None))
        };
        let who = chat
            .as_ref()
            .map(|(j, _)| named(book, j))
            .unwrap_or_else(|| "a chat no longer listed".to_string());
        let mut d = Draft::new(
            "messages",
            format!(
                "{} WhatsApp message {id} {} {who} (recovered)",
                crate::recovered::title_word(t.get(row, "status")),
                if sent { "sent to" } else { "received from" }
            ),
        );
        d.fact(FactType::Path, Some(&l.path), &l.found);
        d.fact(FactType::Text, raw(&t, row, "status").as_deref(), &inv);
        for (jid, from) in chat.iter().chain(sender.iter()) {
            d.fact(FactType::Account, Some(jid), from.unwrap_or(&inv));
        }
        d.fact(FactType::Identifier, raw(&t, row, key).as_deref(), &inv);
        let at = t.get(row, time);
        d.time(
            at,
            unix_millis(at),
            if sent {
                "Message sent"
            } else {
                "Message received"
            },
            &inv,
        );
        d.fact(FactType::Text, raw(&t, row, text).as_deref(), &inv);
        d.interpretation = format!(
            "{table}._id {id} of {name}, {} {who}{}: {}. Its time is Unix milliseconds.",
            if sent {
                "sent by the device user to"
            } else {
                "received by the device user from"
            },
            sender
                .as_ref()
                .filter(|_| !sent)
                .map(|(s, _)| format!(" (written by {s})"))
                .unwrap_or_default(),
            crate::recovered::provenance(&t, row)
        );
        record_draft(ctx, d)?;
    }
    Ok(())
}

/// The account's preferences: push name, status, version, country code and number.
fn account(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some((inv, prefs)) = super::prefs::prefs_of(ctx, l)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    let get = |k: &str| {
        prefs
            .iter()
            .find(|(n, v)| n == k && !v.trim().is_empty())
            .map(|(_, v)| v.clone())
    };
    let (push, status, version, cc, ph) = (
        get("push_name"),
        get("my_current_status"),
        get("version"),
        get("cc"),
        get("ph"),
    );
    if push.is_none() && ph.is_none() {
        return Ok(());
    }
    let mut d = Draft::new(
        "accounts",
        format!(
            "WhatsApp account{}",
            push.as_deref().map(|p| format!(" {p}")).unwrap_or_default()
        ),
    );
    d.fact(FactType::Path, Some(&l.path), &l.found);
    d.fact(FactType::Name, push.as_deref(), &inv);
    d.fact(FactType::Text, status.as_deref(), &inv);
    d.fact(FactType::Text, version.as_deref(), &inv);
    d.fact(FactType::Text, cc.as_deref(), &inv);
    d.fact(FactType::Phone, ph.as_deref(), &inv);
    d.interpretation = format!(
        "{name} holds the WhatsApp account of the device's user{}{}{}{}.",
        push.as_deref()
            .map(|p| format!(": push name {p}"))
            .unwrap_or_default(),
        match (&cc, &ph) {
            (Some(c), Some(p)) => format!(", country code {c} and number {p}"),
            (None, Some(p)) => format!(", number {p}"),
            _ => String::new(),
        },
        status
            .as_deref()
            .map(|s| format!(", status \"{s}\""))
            .unwrap_or_default(),
        version
            .as_deref()
            .map(|v| format!(", app version {v}"))
            .unwrap_or_default(),
    );
    record_draft(ctx, d)?;
    let what = format!("the WhatsApp account in {}", l.name());
    if let Some(p) = &push {
        observe(
            ctx,
            "owner",
            EntityKind::Person,
            "device owner",
            IdType::DisplayName,
            p,
            &inv,
            format!("The push name of {what}: the name the device's user shows on WhatsApp."),
        )?;
    }
    // `ph` is the national number and `cc` the country code; together, the account's number
    if let (Some(c), Some(p)) = (&cc, &ph) {
        // observed as written, when the source's region reads it as that country's number
        if crate::identity::normalized(ctx, IdType::Phone, p).as_deref()
            == Some(format!("+{c}{p}").as_str())
        {
            observe(
                ctx,
                "owner",
                EntityKind::Person,
                "device owner",
                IdType::Phone,
                p,
                &inv,
                format!("The number of {what} (country code {c}): the device's user's."),
            )?;
        }
    }
    Ok(())
}
