//! Signal (`org.whispersystems.signal`): `grdb/signal.sqlite` in the app group is a SQLCipher 4
//! database that keeps its first 32 bytes in the clear; its key and salt (the 48-byte
//! `GRDBDatabaseCipherKeySpec`) are in the keychain. When the extraction holds a decrypted
//! keychain export (`*eychain*.plist` with `genp` entries), each is tried through
//! `sqlite_query`'s `cipher` (profile `signal_ios`: the tool reads the key itself, never printed);
//! a copy already decrypted (a plain SQLite file) is read as is. Read, columns by name, every
//! field of iLEAPP's Signal artefacts:
//!
//! | table | phenomenon | fields |
//! |---|---|---|
//! | `model_SignalRecipient` (+ `model_OWSUserProfile`) | one `contacts` per recipient | phone, ACI, PNI, profile name, unregistered time, phone number discoverable, unique id |
//! | `model_TSThread` | one `messages` per conversation | created, the other party's phone and ACI, group or one to one, message count, archived, marked unread, draft, muted until, thread id |
//! | `model_TSInteraction` (+ the thread, the profiles) | one `messages` per message | sent, received and server times (Unix ms), direction (record type 19 incoming, 21 outgoing), author (name, phone, ACI), the conversation's other party, text, read, voice, view once, remotely deleted, disappearing timer, thread, attachment count |
//! | `model_TSAttachment` | one `media` per attachment (kept in the clear) | its message, file name, content type, size, the stored file's path under the app group's `Attachments/` |
//!
//! Identities: every recipient is `signal:<ACI>` with their number and profile name; a message's
//! wallet addresses are claims by direction. Without a key that opens it, one phenomenon names
//! the file and an unparsed note "encrypted (SQLCipher) …" says why (no keychain export, or none
//! opened it). An encrypted keychain export (UFED's `backup_keychain_v2.plist`) is not read.
//!
//! [`sqlcipher`] tells an encrypted database from a damaged or foreign file by its first
//! bytes (`hexdump`): a SQLite file starts with `SQLite format 3\0`; a SQLCipher one with a
//! random 16-byte salt, its size a whole number of pages.

use std::collections::{BTreeMap, BTreeSet};

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{FactType, IdType};
use masf_tools::Invoked;
use serde_json::{Map, Value};

use super::{Draft, Run};
use crate::calls::column_or_null;
use crate::drafts::{RowPhenomena, record_rows, unix_by_magnitude, unix_millis};
use crate::identity::observe_columns;
use crate::outputs::raw;

/// What the first bytes of a database file say.
pub(crate) enum Header {
    /// A SQLite database (`SQLite format 3\0`).
    Sqlite,
    /// No SQLite header, the size a whole number of pages of at least 1 KiB: encrypted. The
    /// description names the evidence.
    Encrypted(String),
    /// Neither: truncated, damaged or another format.
    Other(String),
}

/// The SQLite header in hex.
const SQLITE_MAGIC: &str = "53514c69746520666f726d6174203300";

/// Reads the first 112 bytes of the file `args` names (`path`, optional `partition`) with
/// `hexdump`; `None` (noted unparsed under `artefact`) when the file cannot be read.
pub(crate) fn sqlcipher(
    ctx: &AgentCtx<'_>,
    artefact: &str,
    mut args: Value,
) -> Result<Option<(Invoked, Header)>, RuntimeError> {
    args["offset"] = Value::from(0);
    args["length"] = Value::from(112);
    let Some(inv) = crate::calls::call_or_note(ctx, artefact, "hexdump", args)? else {
        return Ok(None);
    };
    let s = inv.output.structured.clone().unwrap_or(Value::Null);
    let all = s
        .get("hex")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_ascii_lowercase();
    let hex = all.get(..32).unwrap_or(&all).to_string();
    let byte = |at: usize| {
        all.get(at * 2..at * 2 + 2)
            .and_then(|h| u8::from_str_radix(h, 16).ok())
    };
    let size = s.get("size").and_then(Value::as_u64).unwrap_or(0);
    // page 1's b-tree header follows the 100-byte file header: a table page (0x0d leaf, 0x05
    // interior) in a plain file; ciphertext in a SQLCipher file that keeps its header in the
    // clear (Signal for iOS keeps 32 bytes), whose pages reserve room for the IV and HMAC.
    // One random byte is a page type 2 times in 256, so the whole b-tree header is checked
    let plain_page = masf_tools::sqlite::plain_btree(&byte);
    let header = if hex == SQLITE_MAGIC && plain_page {
        Header::Sqlite
    } else if hex == SQLITE_MAGIC {
        Header::Encrypted(format!(
            "a SQLite header in the clear but page 1 not readable (its b-tree byte 0x{:02x}, {} bytes reserved per page): SQLCipher with a plaintext header",
            byte(100).unwrap_or(0),
            byte(20).unwrap_or(0)
        ))
    } else if size >= 1024 && size % 512 == 0 {
        Header::Encrypted(format!(
            "no SQLite header (its first 16 bytes, {hex}, are a SQLCipher salt) and its {size} bytes are whole pages"
        ))
    } else {
        Header::Other(format!(
            "not a SQLite database: no SQLite header (first bytes {hex}) and its {size} bytes are no whole number of pages (truncated or another format)"
        ))
    };
    Ok(Some((inv, header)))
}

/// Triage of every Signal `signal.sqlite` of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    run.each("signal.sqlite", |find, path| {
        if !path.contains("/grdb/") {
            return Ok(());
        }
        keyed_store(run, find, path, "Signal", "signal_ios", read)
    })
}

/// How a GRDB app's tables are read once its database opens (`extra`: the `cipher`, if any).
pub(crate) type ReadStore = fn(
    &Run<'_, '_>,
    &Invoked,
    &str,
    &BTreeMap<String, BTreeSet<String>>,
    &Map<String, Value>,
) -> Result<(), RuntimeError>;

/// A GRDB app's SQLCipher database at `path` whose key is in the keychain (`profile` of
/// `sqlite_query`'s `cipher`): read by `read` as a plain file (a decrypted copy), or with the
/// key of the first keychain export of the extraction that opens it; else one phenomenon
/// naming it and a note saying why it was not read.
pub(crate) fn keyed_store(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    app: &str,
    profile: &str,
    read: ReadStore,
) -> Result<(), RuntimeError> {
    keyed_store_from(run, find, path, app, profile, &KeySource::Keychain, read)
}

/// Where an encrypted store's key is kept.
pub(crate) enum KeySource {
    /// In the keychain: each keychain export of the extraction (`*eychain*.plist`) is tried.
    Keychain,
    /// In key files of the extraction (`files`, tried in turn), described as `what`.
    Files { files: Vec<String>, what: String },
}

/// [`keyed_store`] with the key kept where `keys` says.
pub(crate) fn keyed_store_from(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    app: &str,
    profile: &str,
    keys: &KeySource,
    read: ReadStore,
) -> Result<(), RuntimeError> {
    let Some((inv, header)) = sqlcipher(run.ctx, path, serde_json::json!({ "path": path }))? else {
        return Ok(());
    };
    let tried = match &header {
        Header::Sqlite => {
            if let Some(schema) = schema(run, path, &Map::new())? {
                return read(run, find, path, &schema, &Map::new());
            }
            return Ok(());
        }
        Header::Encrypted(_) => {
            let candidates = match keys {
                KeySource::Keychain => run
                    .find("*eychain*.plist")?
                    .map(|(_, exports)| exports)
                    .unwrap_or_default(),
                KeySource::Files { files, .. } => files.clone(),
            };
            let mut tried = 0;
            for secrets in &candidates {
                tried += 1;
                let mut extra = Map::new();
                extra.insert(
                    "cipher".into(),
                    serde_json::json!({"profile": profile, "secrets": secrets}),
                );
                if let Some(schema) = schema(run, path, &extra)? {
                    return read(run, find, path, &schema, &extra);
                }
            }
            tried
        }
        Header::Other(_) => 0,
    };
    let kept = match keys {
        KeySource::Keychain => "its key is in the keychain".to_string(),
        KeySource::Files { what, .. } => format!("its key is in {what}"),
    };
    let (state, reason) = match header {
        Header::Encrypted(why) => (
            "encrypted",
            format!(
                "could not parse {app}'s database: encrypted (SQLCipher), {kept} ({}), not read: {why}",
                match (keys, tried) {
                    (KeySource::Keychain, 0) =>
                        "the extraction holds no keychain export".to_string(),
                    (KeySource::Keychain, n) =>
                        format!("none of the {n} keychain exports of the extraction opened it"),
                    (KeySource::Files { .. }, 0) => "the extraction holds no such file".to_string(),
                    (KeySource::Files { .. }, n) => format!(
                        "the extraction's {n} key file(s) did not open it (see the failed call)"
                    ),
                }
            ),
        ),
        Header::Other(why) => (
            "unreadable",
            format!("could not parse {app}'s database: {why}"),
        ),
        Header::Sqlite => ("not encrypted", String::new()),
    };
    let mut d = Draft::new("messages", format!("{app} database ({state})"));
    d.fact(FactType::Path, Some(path), find);
    d.interpretation = format!(
        "{app} is installed and has a message database, {state}{}.",
        if state == "encrypted" {
            format!(" with SQLCipher ({kept}): its messages are not read")
        } else {
            String::new()
        }
    );
    run.record(d)?;
    run.ctx
        .unparsed(path, &reason, Some(&inv.record.invocation_id))?;
    Ok(())
}

/// One phenomenon per row of `select` (paged by `key`, read with `extra`: its `cipher`) as
/// `spec` says, then `after` (see [`record_rows`]); a row cap reached is noted as `what`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn record_paged(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    select: &str,
    key: &str,
    extra: &Map<String, Value>,
    what: &str,
    spec: &RowPhenomena<'_>,
    after: &mut crate::drafts::AfterRow<'_>,
) -> Result<(), RuntimeError> {
    let Some(pages) = run.paged_args(path, select, key, extra)? else {
        return Ok(());
    };
    crate::calls::note_pages_cap(run.ctx, path, &pages, what)?;
    record_rows(run.ctx, path, find, &pages, spec, after)
}

/// Every table's columns of the database at `path`, read with `extra` (its `cipher`); `None`,
/// noted, when it cannot be read.
pub(crate) fn schema(
    run: &Run<'_, '_>,
    path: &str,
    extra: &Map<String, Value>,
) -> Result<Option<BTreeMap<String, BTreeSet<String>>>, RuntimeError> {
    Ok(
        crate::calls::query_args(run.ctx, path, crate::outputs::SCHEMA_SQL, 100_000, extra)?
            .map(|(_, t)| crate::outputs::columns_by_table(&t)),
    )
}

/// Signal for iOS's tables, as iLEAPP's Signal artefacts read them (messages, contacts,
/// conversations), columns by name; a profile's name beside each person.
fn read(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    schema: &BTreeMap<String, BTreeSet<String>>,
    extra: &Map<String, Value>,
) -> Result<(), RuntimeError> {
    let ctx = run.ctx;
    let table = |t: &str| schema.get(t).filter(|c| c.contains("id"));
    if table("model_TSInteraction").is_none() && table("model_SignalRecipient").is_none() {
        ctx.unparsed(
            path,
            "could not parse Signal's database because it has no model_TSInteraction or model_SignalRecipient table (with id)",
            None,
        )?;
        return Ok(());
    }
    // a person's profile name by their ACI
    let profile = |uuid: &str| match schema.get("model_OWSUserProfile") {
        Some(c) if c.contains("recipientUUID") && c.contains("profileName") => {
            let family = if c.contains("familyName") {
                " || COALESCE(' ' || NULLIF(p.familyName, ''), '')"
            } else {
                ""
            };
            format!(
                "(SELECT NULLIF(p.profileName, ''){family} FROM model_OWSUserProfile p WHERE p.recipientUUID = {uuid} LIMIT 1)"
            )
        }
        _ => "NULL".into(),
    };
    let qualified = |uuid: &str| {
        format!("CASE WHEN {uuid} IS NOT NULL AND {uuid} != '' THEN 'signal:' || {uuid} END")
    };
    if let Some(cols) = table("model_SignalRecipient") {
        let c = |col: &str, alias: &str| column_or_null(cols, "r.", col, alias);
        let uuid = if cols.contains("recipientUUID") {
            "r.recipientUUID"
        } else {
            "NULL"
        };
        let select = format!(
            "SELECT r.id AS id, {}, {uuid} AS aci, {} AS qualified, {} AS name, {}, {}, {}, {} FROM model_SignalRecipient r",
            c("recipientPhoneNumber", "phone"),
            qualified(uuid),
            profile(uuid),
            c("pni", "pni"),
            c("unregisteredAtTimestamp", "unregistered"),
            c("isPhoneNumberDiscoverable", "discoverable"),
            c("uniqueId", "unique_id"),
        );
        record_paged(
            run,
            find,
            path,
            &select,
            "r.id",
            extra,
            "Signal recipients",
            &RowPhenomena {
                table: "model_SignalRecipient",
                category: "contacts",
                what: "a Signal recipient the account knows (its unregistration time Unix milliseconds; discoverable as stored)",
                title: &|t, row| {
                    format!(
                        "Signal contact {}",
                        t.get(row, "name")
                            .or(t.get(row, "phone"))
                            .or(t.get(row, "aci"))
                            .unwrap_or("?")
                    )
                },
                fields: &[
                    ("phone", FactType::Phone, "phone"),
                    ("aci", FactType::Account, "ACI"),
                    ("pni", FactType::Identifier, "PNI"),
                    ("name", FactType::Name, "profile name"),
                    ("discoverable", FactType::Count, "phone number discoverable"),
                    ("unique_id", FactType::Identifier, "unique id"),
                ],
                times: &[("unregistered", "Signal recipient unregistered", unix_millis)],
            },
            &mut |inv, t, row| {
                let Some(q) = t.get(row, "qualified") else {
                    return Ok(());
                };
                let who = t
                    .get(row, "name")
                    .or(t.get(row, "phone"))
                    .unwrap_or(q)
                    .to_string();
                observe_columns(
                    ctx,
                    q,
                    &who,
                    t,
                    row,
                    inv,
                    &[
                        (
                            "qualified",
                            IdType::AccountId,
                            "The Signal account id (ACI)",
                        ),
                        ("phone", IdType::Phone, "The phone number"),
                        ("name", IdType::DisplayName, "The profile name"),
                    ],
                    &|what| {
                        format!(
                            "{what} of {who}, a Signal recipient (model_SignalRecipient of Signal's database)."
                        )
                    },
                )
            },
        )?;
    }
    let threads = table("model_TSThread");
    if let Some(cols) = threads {
        let c = |col: &str, alias: &str| column_or_null(cols, "t.", col, alias);
        let count = if table("model_TSInteraction").is_some_and(|c| c.contains("uniqueThreadId"))
            && cols.contains("uniqueId")
        {
            "(SELECT count(*) FROM model_TSInteraction i WHERE i.uniqueThreadId = t.uniqueId)"
        } else {
            "NULL"
        };
        let kind = if cols.contains("groupModel") {
            "CASE WHEN t.groupModel IS NOT NULL THEN 'group' ELSE 'one to one' END"
        } else {
            "NULL"
        };
        let select = format!(
            "SELECT t.id AS id, {}, {}, {}, {kind} AS kind, {count} AS messages, {}, {}, {}, {}, {} FROM model_TSThread t",
            c("creationDate", "created"),
            c("contactPhoneNumber", "phone"),
            c("contactUUID", "aci"),
            c("isArchived", "archived"),
            c("isMarkedUnread", "unread"),
            c("messageDraft", "draft"),
            c("mutedUntilTimestamp", "muted_until"),
            c("uniqueId", "thread"),
        );
        record_paged(
            run,
            find,
            path,
            &select,
            "t.id",
            extra,
            "Signal conversations",
            &RowPhenomena {
                table: "model_TSThread",
                category: "messages",
                what: "a Signal conversation (created: seconds or milliseconds since 1970 by magnitude; archived and unread as stored)",
                title: &|t, row| {
                    format!(
                        "Signal conversation with {}",
                        t.get(row, "phone")
                            .or(t.get(row, "aci"))
                            .unwrap_or("a group")
                    )
                },
                fields: &[
                    ("phone", FactType::Phone, "with"),
                    ("aci", FactType::Account, "with ACI"),
                    ("kind", FactType::Text, "type"),
                    ("messages", FactType::Count, "messages"),
                    ("archived", FactType::Count, "archived"),
                    ("unread", FactType::Count, "marked unread"),
                    ("draft", FactType::Text, "draft"),
                    ("thread", FactType::Identifier, "thread id"),
                ],
                times: &[
                    ("created", "Signal conversation created", unix_by_magnitude),
                    (
                        "muted_until",
                        "Signal conversation muted until",
                        unix_millis,
                    ),
                ],
            },
            &mut |_, _, _| Ok(()),
        )?;
    }
    let Some(cols) = table("model_TSInteraction") else {
        return Ok(());
    };
    let c = |col: &str, alias: &str| column_or_null(cols, "i.", col, alias);
    let author = if cols.contains("authorUUID") {
        "i.authorUUID"
    } else {
        "NULL"
    };
    let with = |col: &str| match threads {
        Some(t) if t.contains(col) && t.contains("uniqueId") && cols.contains("uniqueThreadId") => {
            format!("(SELECT t.{col} FROM model_TSThread t WHERE t.uniqueId = i.uniqueThreadId)")
        }
        _ => "NULL".into(),
    };
    let kind = if cols.contains("recordType") {
        "CASE i.recordType WHEN 19 THEN 'incoming' WHEN 21 THEN 'outgoing' ELSE 'other (record type ' || i.recordType || ')' END"
    } else {
        "NULL"
    };
    // a message's attachments: the rows of model_TSAttachment naming it (albumMessageId)
    let attachments = match table("model_TSAttachment") {
        Some(a) if a.contains("albumMessageId") && cols.contains("uniqueId") => {
            "(SELECT count(*) FROM model_TSAttachment a WHERE a.albumMessageId = i.uniqueId)"
        }
        _ => "NULL",
    };
    let select = format!(
        "SELECT i.id AS id, {}, {}, {}, {}, {kind} AS direction, {}, {}, {author} AS author_aci, {} AS author, {} AS author_name, {}, {} AS with_phone, {} AS with_aci, {} AS with_name, {}, {}, {}, {}, {}, {}, {attachments} AS attachments FROM model_TSInteraction i",
        c("timestamp", "sent_at"),
        c("receivedAtTimestamp", "received_at"),
        c("serverTimestamp", "server_at"),
        c("recordType", "record_type"),
        c("body", "body"),
        c("authorPhoneNumber", "author_phone"),
        qualified(author),
        profile(author),
        c("uniqueThreadId", "thread"),
        with("contactPhoneNumber"),
        with("contactUUID"),
        profile(&with("contactUUID")),
        c("read", "read"),
        c("isVoiceMessage", "voice"),
        c("isViewOnceMessage", "view_once"),
        c("wasRemotelyDeleted", "remote_deleted"),
        c("expiresInSeconds", "expires_s"),
        c("uniqueId", "unique_id"),
    );
    let Some(pages) = run.paged_args(path, &select, "i.id", extra)? else {
        return Ok(());
    };
    crate::calls::note_pages_cap(ctx, path, &pages, "Signal messages")?;
    for (inv, t, row) in pages.rows() {
        let dir = t.get(row, "direction").unwrap_or("other");
        let sent = dir == "outgoing";
        let other = t
            .get(row, "with_name")
            .or(t.get(row, "with_phone"))
            .or(t.get(row, "with_aci"))
            .unwrap_or("a group")
            .to_string();
        let from = t
            .get(row, "author_name")
            .or(t.get(row, "author_phone"))
            .or(t.get(row, "author_aci"))
            .unwrap_or(&other)
            .to_string();
        let mut d = Draft::new(
            "messages",
            if sent {
                format!("Signal message sent to {other}")
            } else {
                format!("Signal message from {from}")
            },
        );
        d.fact(FactType::Path, Some(path), find);
        let said = d.fields(
            t,
            row,
            inv,
            &[
                ("direction", FactType::Text, "direction"),
                ("author_name", FactType::Name, "author"),
                ("author_phone", FactType::Phone, "author phone"),
                ("author_aci", FactType::Account, "author ACI"),
                ("with_name", FactType::Name, "conversation with"),
                ("with_phone", FactType::Phone, "conversation with phone"),
                ("with_aci", FactType::Account, "conversation with ACI"),
                ("body", FactType::Text, "text"),
                ("read", FactType::Count, "read"),
                ("voice", FactType::Count, "voice message"),
                ("view_once", FactType::Count, "view once"),
                ("remote_deleted", FactType::Count, "remotely deleted"),
                ("expires_s", FactType::Count, "disappearing timer (s)"),
                ("thread", FactType::Identifier, "thread id"),
                ("unique_id", FactType::Identifier, "unique id"),
                ("attachments", FactType::Count, "attachments"),
            ],
        );
        for (col, what) in [
            ("sent_at", "Signal message sent"),
            ("received_at", "Signal message received"),
            ("server_at", "Signal message at the server"),
        ] {
            let at = t.get(row, col);
            d.time(at, unix_millis(at), what, inv);
        }
        d.interpretation = format!(
            "model_TSInteraction row {} of Signal's database: a {dir} message (record type {}); {}. Times are Unix milliseconds.",
            t.get(row, "id").unwrap_or("?"),
            t.get(row, "record_type").unwrap_or("?"),
            said.join(", "),
        );
        run.record(d)?;
        if let Some(text) = raw(t, row, "body") {
            // the other party of a one-to-one conversation: the author of a received message
            let party = if sent {
                t.get(row, "with_aci")
                    .map(|a| (format!("signal:{a}"), other.clone()))
            } else {
                t.get(row, "author").map(|q| (q.to_string(), from.clone()))
            };
            crate::identity::claims_by_direction(
                ctx,
                inv,
                &text,
                &format!("a Signal message ({dir})"),
                sent,
                party.as_ref().map(|(c, l)| (c.as_str(), l.as_str())),
            )?;
        }
    }
    if let Some(a) = table("model_TSAttachment") {
        attachments_of(run, find, path, a, extra)?;
    }
    Ok(())
}

/// Signal for iOS keeps attachments in the clear under the app group's `Attachments/`: one
/// `media` phenomenon per `model_TSAttachment` row with its message, file name, content type,
/// size and the stored file's path (the app group's folder + `localRelativeFilePath`, computed
/// in the query), as iLEAPP links them to their messages.
fn attachments_of(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    cols: &BTreeSet<String>,
    extra: &Map<String, Value>,
) -> Result<(), RuntimeError> {
    let c = |col: &str, alias: &str| column_or_null(cols, "a.", col, alias);
    let group = path
        .split("/grdb/")
        .next()
        .unwrap_or(path)
        .replace('\'', "''");
    let stored = if cols.contains("localRelativeFilePath") {
        format!(
            "CASE WHEN a.localRelativeFilePath IS NOT NULL AND a.localRelativeFilePath != '' THEN '{group}/Attachments/' || ltrim(a.localRelativeFilePath, '/') END"
        )
    } else {
        "NULL".into()
    };
    let select = format!(
        "SELECT a.id AS id, {}, {}, {}, {}, {}, {stored} AS stored, {} FROM model_TSAttachment a",
        c("albumMessageId", "message"),
        c("sourceFilename", "file_name"),
        c("contentType", "content_type"),
        c("byteCount", "size"),
        c("localRelativeFilePath", "relative"),
        c("uniqueId", "unique_id"),
    );
    record_paged(
        run,
        find,
        path,
        &select,
        "a.id",
        extra,
        "Signal attachments",
        &RowPhenomena {
            table: "model_TSAttachment",
            category: "media",
            what: "an attachment of a Signal message, kept in the clear in the app group's Attachments folder",
            title: &|t, row| {
                format!(
                    "Signal attachment {}",
                    t.get(row, "file_name")
                        .or(t.get(row, "relative"))
                        .or(t.get(row, "content_type"))
                        .unwrap_or("?")
                )
            },
            fields: &[
                ("message", FactType::Identifier, "message"),
                ("file_name", FactType::Name, "file name"),
                ("content_type", FactType::Text, "content type"),
                ("size", FactType::Count, "size (bytes)"),
                ("stored", FactType::Path, "stored file"),
                ("unique_id", FactType::Identifier, "unique id"),
            ],
            times: &[],
        },
        &mut |_, _, _| Ok(()),
    )
}

#[cfg(test)]
mod tests {
    use masf_tools::sqlite::plain_btree;

    fn reader(bytes: &[u8]) -> impl Fn(usize) -> Option<u8> + '_ {
        move |at| bytes.get(at).copied()
    }

    /// A plain database's page 1 passes; a SQLCipher page whose first ciphertext byte happens to
    /// be a table page's type (2 files in 256 before) almost never does.
    #[test]
    fn page_one_is_told_from_ciphertext_by_its_whole_btree_header() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("plain.sqlite");
        let c = rusqlite::Connection::open(&p).unwrap();
        c.execute_batch("CREATE TABLE t (a); INSERT INTO t VALUES ('x');")
            .unwrap();
        drop(c);
        let bytes = std::fs::read(&p).unwrap();
        assert!(plain_btree(&reader(&bytes[..112])));
        // a file shorter than the b-tree header: plain (a new, empty database)
        assert!(plain_btree(&reader(&bytes[..100])));
        // ciphertext after the clear header, its type byte forced to a leaf's (xorshift bytes)
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut passed = 0;
        for _ in 0..10_000 {
            let mut h = bytes[..112].to_vec();
            for b in &mut h[101..112] {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                *b = x as u8;
            }
            h[100] = 0x0d;
            passed += usize::from(plain_btree(&reader(&h)));
        }
        assert!(passed < 100, "{passed} of 10000 random pages passed");
    }
}
