//! Proton Mail, three store generations, each found by the tables it holds (the fields of
//! iLEAPP's `protonMailInbox*` and ALEAPP's `protonmailInbox*` and `protonmailDbMail*`):
//!
//! - the current app's store (a Rust core shared by both platforms): iOS keeps it in the app
//!   group's `support/` (`account.db` and one `<id>.db` mail cache per account), Android in
//!   `ch.protonmail.android/databases/` (`account.db`, `<id>.db`);
//! - the Android app of 2022–2025 (`databases/db-mail`, a Room store of `…Entity` tables);
//! - the first Android app (`databases/<user>-MessagesDatabase.db` and
//!   `<user>-ContactsDatabase.db`, ALEAPP's `protonmail`).
//! - the first iOS app (`ProtonMail.sqlite`, Core Data; iLEAPP's `protonMail`): what it keeps in
//!   clear — each message's time, flags, MIME type, attachments — its parties, subject and
//!   body being encrypted (the main key in the keychain, the body's PGP key in the account):
//!   said and noted, not decrypted.
//!
//! | table | phenomenon | fields |
//! |---|---|---|
//! | `core_accounts` (`account.db`) | one `accounts` per signed-in account | user id, login name or address, user name, display name, primary address, ready, second-factor and password modes, made primary (Unix s), the number of sessions (their tokens and key secrets are never copied) |
//! | `users`, `addresses` (mail cache) | one `accounts` per user and per address | user id, name, display name, e-mail, created (Unix s), used / maximum space, maximum upload, currency, credit, subscribed, services, role; an address's e-mail, display name, status, send / receive, type |
//! | `messages` with `labels`, `message_labels`, `conversations`, `attachments`, `message_body` / `raw_message_body` | one `messages` per message | time (Unix s), every address and name of the sender, `to`, `cc`, `bcc` and reply-to lists (JSON read with `json_each`), subject, the conversation's subject and id, the folders and labels (by the app's own labels), read, replied, replied to all, forwarded, attachment count and names, size, deleted, expiration and snooze times, flags, remote id; the body where the store keeps it in clear (`message_body`, or a `raw_message_body` of raw type 0), else said to be kept encrypted |
//! | `attachments` with `attachment_cache` | one `media` per attachment | file name, size, MIME type, disposition, message (remote id and subject), the decrypted copy the app cached (path, size, created and last read, Unix s, hits) |
//! | `contact_emails` with `contacts` | one `contacts` per contact address | name, e-mail, kind, canonical e-mail, last used (Unix s), Proton or not, the contact's name, uid (`proton-autosave` ones the app made itself), created and modified (Unix s), deleted |
//! | `MessageEntity` (db-mail) with `MessageAttachmentEntity` | one `messages` per message | time (Unix s), sender address and name, `to`, `cc`, `bcc` (JSON), subject, read, replied, replied to all, forwarded, attachment count and names, size, expiration, conversation and message ids, flags (the body, `MessageBodyEntity`, is kept encrypted) |
//! | `MessageAttachmentEntity` with `MessageAttachmentMetadataEntity` | one `media` per attachment | name, size, MIME type, disposition, message id, where the user saved it (a content URI) |
//! | `ContactEmailEntity` with `ContactEntity` | one `contacts` per contact address | name, e-mail, canonical e-mail, Proton or not, contact id and name |
//! | `messagev3` with `attachmentv3` (first app) | one `messages` per message | time (Unix s), sender address and name, direction and draft by its type, subject, read, replied, replied to all, forwarded, location (Inbox, Drafts, Sent, Trash, Archive, else as stored), starred, encrypted, attachment count and names, size, last opened (Unix ms), expiration, label ids, conversation and message ids, header, flags; every address and name of the recipient lists (Base64 of a Java-serialised list, decoded by `sqlite_query`'s `java`); the body when not PGP-armoured |
//! | `attachmentv3` | one `media` per attachment | file name, size, MIME type, inline or not, message (id and subject), the app's file path |
//! | `contact_emailsv3` with `fullContactsDetails` | one `contacts` per address, and per contact without one | name, e-mail, last used (Unix s), PGP, the contact's id, name, uid, created and modified (Unix s) |
//! | `UserEntity`, `AccountEntity`, `AddressEntity` | one `accounts` per user and per address | user id, e-mail, name, display name, created (Unix ms), used / maximum space, the account's user name and state; an address's e-mail and display name (the stored passphrase is never copied) |
//!
//! Identities: a Proton user id is `proton:<user id>` (computed in the query), the same on every
//! device signed in to the account; with the account's addresses, names and login it is the
//! device's user's (`owner`; in the first app's store, which keeps no account, the one sender
//! of the messages the device's user wrote). A message whose sender is one of the account's addresses is sent
//! by the device's user; every other address is a person `handle:<address>` (with the name the
//! list gives it), so the people a Proton account writes to meet the same people in other mail
//! apps and phones. Wallet addresses in a body in clear or a subject are claims by direction.
//! Schema drift: every store is read by its tables, each table when it has its key columns,
//! other columns where present; a JSON list that does not parse is kept as stored.

use std::collections::{BTreeMap, BTreeSet};

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{FactType, IdType};
use masf_tools::Invoked;

use crate::calls::{column_or_null, note_pages_cap, require_columns};
use crate::drafts::{Draft, RowPhenomena, record_draft, record_rows, unix_millis, unix_seconds};
use crate::identity::{
    TreeRef, artefact_name, email_addresses, observe_columns, observe_owner_ids, schema_on,
};
use crate::outputs::raw;

/// The Android app's data folder name.
pub const PACKAGE: &str = "ch.protonmail.android";

type Schema = BTreeMap<String, BTreeSet<String>>;

/// Whether `path` is the iOS app's `account.db` (in an app group's `support/`).
pub fn is_ios_account_store(path: &str) -> bool {
    path.contains("/Shared/AppGroup/") && path.ends_with("/support/account.db")
}

/// iOS: the app group's `support/` beside `account` (its `account.db`, found by `found`):
/// when `account.db` is Proton's (it has `core_accounts`), every `*.db` of the folder is read.
pub fn ios_app_group(
    ctx: &AgentCtx<'_>,
    tree: &TreeRef,
    account: &str,
    found: &Invoked,
) -> Result<(), RuntimeError> {
    let Some(schema) = schema_on(ctx, tree, account)? else {
        return Ok(());
    };
    if !schema.contains_key("core_accounts") {
        // another app's account.db
        return Ok(());
    }
    ctx.artefact(&artefact_name(tree, account), || {
        read(ctx, tree, account, found, &schema)
    })?;
    let dir = account.rsplit_once('/').map(|(d, _)| d).unwrap_or("");
    folder(ctx, tree, dir, dir, &["*.db"], Some(account))
}

/// Whether `path` is the first iOS app's store (`ProtonMail.sqlite`, Core Data, in its app
/// group or container).
pub fn is_ios_first_app_store(path: &str) -> bool {
    path.ends_with("/ProtonMail.sqlite")
        && (path.contains("/Shared/AppGroup/") || path.contains("/Containers/Data/Application/"))
}

/// The first iOS app's `ProtonMail.sqlite` (Core Data, until 2023): its messages' times, flags,
/// MIME types and attachment counts and sizes are in clear, one `messages` phenomenon each; the
/// sender, recipients and subject are encrypted with the app's main key (kept in the keychain)
/// and the body with the account's PGP key: said on each message and noted once for the store,
/// not decrypted.
pub fn ios_first_app(
    ctx: &AgentCtx<'_>,
    tree: &TreeRef,
    path: &str,
    found: &Invoked,
) -> Result<(), RuntimeError> {
    let Some(schema) = schema_on(ctx, tree, path)? else {
        return Ok(());
    };
    let name = artefact_name(tree, path);
    let store = "Proton Mail's ProtonMail.sqlite";
    let Some(cols) = schema.get("ZMESSAGE").filter(|c| !c.is_empty()) else {
        ctx.unparsed(
            &name,
            &format!("could not parse {store} because it has no table ZMESSAGE"),
            None,
        )?;
        return Ok(());
    };
    if !require_columns(ctx, &name, store, "ZMESSAGE", cols, &["Z_PK", "ZTIME"])? {
        return Ok(());
    }
    let m = |col: &str, alias: &str| column_or_null(cols, "m.", col, alias);
    let stored = |col: &str, alias: &str| {
        if cols.contains(col) {
            format!("length(m.{col}) AS {alias}")
        } else {
            format!("NULL AS {alias}")
        }
    };
    let attachments = schema
        .get("ZATTACHMENT")
        .filter(|c| c.contains("ZMESSAGE") && c.contains("ZFILESIZE"))
        .map(|_| {
            "(SELECT group_concat(a.ZFILESIZE, char(10)) FROM ZATTACHMENT a WHERE a.ZMESSAGE = m.Z_PK)"
        })
        .unwrap_or("NULL");
    let pgp = if cols.contains("ZBODY") {
        "CASE WHEN CAST(m.ZBODY AS TEXT) LIKE '-----BEGIN PGP%' THEN 'PGP message' WHEN m.ZBODY IS NOT NULL THEN 'stored' END"
    } else {
        "NULL"
    };
    let sql = format!(
        "SELECT m.Z_PK AS rid, m.ZTIME AS at, {}, {}, {}, {}, {}, {}, {}, {pgp} AS body, {attachments} AS attachment_sizes FROM ZMESSAGE m ORDER BY m.Z_PK",
        m("ZISENCRYPTED", "encrypted"),
        m("ZNUMATTACHMENTS", "attachments"),
        m("ZMIMETYPE", "mime"),
        stored("ZSENDER", "sender_bytes"),
        stored("ZTOLIST", "to_bytes"),
        stored("ZREPLYTOS", "reply_to_bytes"),
        stored("ZTITLE", "title_bytes"),
    );
    let Some(pages) = crate::identity::pages_on(ctx, tree, path, &sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, &name, &pages, "Proton Mail messages")?;
    for (inv, t, row) in pages.rows() {
        let rid = t.get(row, "rid").unwrap_or("?");
        let mut d = Draft::new(
            "messages",
            format!("Proton Mail e-mail {rid} (first iOS app, encrypted)"),
        );
        d.fact(FactType::Path, Some(path), found);
        let said = d.fields(
            t,
            row,
            inv,
            &[
                ("encrypted", FactType::Count, "encrypted flag"),
                ("attachments", FactType::Count, "attachments"),
                ("mime", FactType::Text, "MIME type"),
                ("sender_bytes", FactType::Count, "sender (encrypted bytes)"),
                ("to_bytes", FactType::Count, "recipients (encrypted bytes)"),
                (
                    "reply_to_bytes",
                    FactType::Count,
                    "reply-to (encrypted bytes)",
                ),
                ("title_bytes", FactType::Count, "subject (encrypted bytes)"),
                ("body", FactType::Text, "body"),
            ],
        );
        for size in t.get(row, "attachment_sizes").unwrap_or_default().lines() {
            d.fact(FactType::Count, Some(size), inv);
        }
        let at = t.get(row, "at");
        d.time(
            at,
            crate::drafts::apple_seconds(at),
            "Proton Mail e-mail time",
            inv,
        );
        d.interpretation = format!(
            "ZMESSAGE row {rid} of ProtonMail.sqlite (Proton Mail's first iOS app): an e-mail of the account whose time, flags and attachments are in clear: {}{}; its sender, recipients and subject are encrypted with the app's main key (kept in the keychain) and its body with the account's PGP key, not decrypted here. The time is Core Data seconds.",
            said.join(", "),
            t.get(row, "attachment_sizes")
                .map(|s| format!(", attachment sizes {}", s.replace('\n', ", ")))
                .unwrap_or_default(),
        );
        record_draft(ctx, d)?;
    }
    if !pages.is_empty() {
        ctx.unparsed(
            &name,
            &format!(
                "read in part: the sender, recipients, subject and body of its {} messages are encrypted (the app's main key is in the keychain, the body's PGP key in the account); their times, flags and attachments are read",
                pages.len()
            ),
            None,
        )?;
    }
    Ok(())
}

/// Android: the app's data folder `app` (`ch.protonmail.android`, listed whole: a profile's
/// folder may have no `databases/`): every `databases/*.db` and `databases/db-mail`.
pub fn android_app(ctx: &AgentCtx<'_>, tree: &TreeRef, app: &str) -> Result<(), RuntimeError> {
    folder(
        ctx,
        tree,
        app,
        &format!("{app}/databases"),
        &["*.db", "db-mail"],
        None,
    )
}

/// Lists `dir`'s files named like `globs` and reads each store of Proton's in folder `parent`
/// (by its tables; `skip`: one already read).
fn folder(
    ctx: &AgentCtx<'_>,
    tree: &TreeRef,
    dir: &str,
    parent: &str,
    globs: &[&str],
    skip: Option<&str>,
) -> Result<(), RuntimeError> {
    let Some((listing, paths)) = crate::identity::stores_in(ctx, tree, dir, parent, globs)? else {
        return Ok(());
    };
    for path in paths.into_iter().filter(|p| Some(p.as_str()) != skip) {
        ctx.artefact(&artefact_name(tree, &path), || {
            let Some(schema) = schema_on(ctx, tree, &path)? else {
                return Ok(());
            };
            read(ctx, tree, &path, &listing, &schema)
        })?;
    }
    Ok(())
}

/// One store, by the tables it holds; a store of none of Proton's tables is another of the
/// app's (passed over).
fn read(
    ctx: &AgentCtx<'_>,
    tree: &TreeRef,
    path: &str,
    found: &Invoked,
    schema: &Schema,
) -> Result<(), RuntimeError> {
    let s = Store {
        ctx,
        tree,
        path,
        found,
        name: artefact_name(tree, path),
        file: path.rsplit('/').next().unwrap_or(path).to_string(),
        schema,
    };
    let table = |t: &str| schema.get(t).filter(|c| !c.is_empty());
    if let Some(c) = table("core_accounts")
        && s.require("core_accounts", c, &["remote_id"])?
    {
        s.core_accounts(c)?;
    }
    if let Some(c) = table("messages")
        && (schema.contains_key("labels") || schema.contains_key("addresses"))
    {
        let own = s.mail_cache_owner()?;
        if s.require("messages", c, &["local_id", "time"])? {
            s.messages(c, &own)?;
        }
        if let Some(c) = table("attachments")
            && s.require("attachments", c, &["local_id", "filename"])?
        {
            s.attachments(c)?;
        }
        if let Some(c) = table("contact_emails")
            && s.require("contact_emails", c, &["email"])?
        {
            s.contacts(c, &own)?;
        }
    }
    if let Some(c) = table("messagev3")
        && s.require("messagev3", c, &["ID", "Time"])?
    {
        s.legacy_messages(c)?;
        if let Some(c) = table("attachmentv3")
            && s.require("attachmentv3", c, &["file_name", "message_id"])?
        {
            s.legacy_attachments(c)?;
        }
    }
    if let Some(c) = table("contact_emailsv3")
        && s.require("contact_emailsv3", c, &["Email"])?
    {
        s.legacy_contacts(c)?;
    }
    if let Some(c) = table("MessageEntity") {
        let own = s.room_owner()?;
        if s.require("MessageEntity", c, &["messageId", "time"])? {
            s.room_messages(c, &own)?;
        }
        if let Some(c) = table("MessageAttachmentEntity")
            && s.require("MessageAttachmentEntity", c, &["messageId", "name"])?
        {
            s.room_attachments(c)?;
        }
        if let Some(c) = table("ContactEmailEntity")
            && s.require("ContactEmailEntity", c, &["email"])?
        {
            s.room_contacts(c, &own)?;
        }
    }
    Ok(())
}

/// `'proton:' || <expr>` when the value is not empty.
fn qualified(expr: &str) -> String {
    format!("CASE WHEN {expr} IS NOT NULL AND {expr} != '' THEN 'proton:' || {expr} END")
}

/// The addresses and names of a JSON address list (`[{"address", "name"}, …]` or one such
/// object) in column `col` (of `m.`), as `<alias>_addresses` and `<alias>_names` (one per
/// line), and the value as stored when it is not JSON (`<alias>_raw`).
fn address_list(cols: &BTreeSet<String>, col: &str, alias: &str) -> String {
    if !cols.contains(col) {
        return format!("NULL AS {alias}_addresses, NULL AS {alias}_names, NULL AS {alias}_raw");
    }
    let each = format!(
        "json_each(CASE json_type(m.\"{col}\") WHEN 'array' THEN m.\"{col}\" ELSE json_array(json(m.\"{col}\")) END) j"
    );
    // the current stores write `address`/`name`, the first app's the API's `Address`/`Name`
    let key = |k: &str, upper: &str| {
        format!("COALESCE(json_extract(j.value, '$.{k}'), json_extract(j.value, '$.{upper}'))")
    };
    let (address, name) = (key("address", "Address"), key("name", "Name"));
    format!(
        "CASE WHEN json_valid(m.\"{col}\") THEN (SELECT group_concat({address}, char(10)) FROM {each} WHERE json_type(j.value) = 'object') END AS {alias}_addresses, \
CASE WHEN json_valid(m.\"{col}\") THEN (SELECT group_concat({name}, char(10)) FROM {each} WHERE json_type(j.value) = 'object' AND {name} != '') END AS {alias}_names, \
CASE WHEN m.\"{col}\" IS NOT NULL AND NOT json_valid(m.\"{col}\") THEN m.\"{col}\" END AS {alias}_raw"
    )
}

/// The lists a message names its parties in.
const LISTS: [(&str, &str); 5] = [
    ("from", "sender"),
    ("to", "to"),
    ("cc", "cc"),
    ("bcc", "bcc"),
    ("reply_to", "reply-to"),
];

/// The title of an address row's phenomenon.
fn address_title(t: &crate::outputs::Table, row: &[Option<String>]) -> String {
    format!(
        "Proton Mail address {}",
        t.get(row, "email").unwrap_or("(no e-mail)")
    )
}

/// The `(address, name)` of each recipient of a list `sqlite_query` decoded from a
/// Java-serialised list (`java:` + JSON, the `java` option): the members of its elements named
/// `Address` / `EmailAddress` and `Name`, in any case. Empty for any other cell.
fn java_recipients(cell: &str) -> Vec<(Option<String>, Option<String>)> {
    let Some(doc) = cell
        .strip_prefix("java:")
        .and_then(|j| serde_json::from_str::<serde_json::Value>(j).ok())
    else {
        return Vec::new();
    };
    let member = |o: &serde_json::Map<String, serde_json::Value>, names: &[&str]| {
        o.iter()
            .find(|(k, _)| names.iter().any(|n| k.eq_ignore_ascii_case(n)))
            .and_then(|(_, v)| v.as_str())
            .filter(|v| !v.is_empty())
            .map(str::to_string)
    };
    doc.get("@elements")
        .and_then(|e| e.as_array())
        .into_iter()
        .flatten()
        .filter_map(|e| e.as_object())
        .map(|o| {
            (
                member(o, &["Address", "EmailAddress"]),
                member(o, &["Name"]),
            )
        })
        .filter(|(a, n)| a.is_some() || n.is_some())
        .collect()
}

/// How [`Store::message`] reads one message: which row, its body in clear, what is said of a
/// body kept encrypted, and the direction the store records (sent or not, and why).
struct Mail<'a> {
    which: &'a str,
    body: Option<&'a str>,
    encrypted: Option<&'a str>,
    stored: Option<(bool, &'a str)>,
}

struct Store<'a, 'c> {
    ctx: &'a AgentCtx<'c>,
    tree: &'a TreeRef,
    path: &'a str,
    found: &'a Invoked,
    name: String,
    file: String,
    schema: &'a Schema,
}

impl Store<'_, '_> {
    fn require(
        &self,
        table: &str,
        cols: &BTreeSet<String>,
        needed: &[&str],
    ) -> Result<bool, RuntimeError> {
        require_columns(
            self.ctx,
            &self.name,
            &format!("Proton Mail's {}", self.file),
            table,
            cols,
            needed,
        )
    }

    fn has(&self, table: &str, col: &str) -> bool {
        self.schema.get(table).is_some_and(|c| c.contains(col))
    }

    fn pages(&self, sql: &str, what: &str) -> Result<Option<crate::calls::Paged>, RuntimeError> {
        self.pages_with(sql, what, &[])
    }

    /// [`Store::pages`] with `sqlite_query`'s decoding options.
    fn pages_with(
        &self,
        sql: &str,
        what: &str,
        options: &[&str],
    ) -> Result<Option<crate::calls::Paged>, RuntimeError> {
        let Some(pages) =
            crate::identity::pages_on_with(self.ctx, self.tree, self.path, sql, options)?
        else {
            return Ok(None);
        };
        note_pages_cap(self.ctx, &self.name, &pages, what)?;
        Ok(Some(pages))
    }

    fn draft(&self, category: &'static str, title: String) -> Draft {
        let mut d = Draft::new(category, title);
        d.fact(FactType::Path, Some(self.path), self.found);
        d
    }

    /// `account.db`: the signed-in accounts.
    fn core_accounts(&self, cols: &BTreeSet<String>) -> Result<(), RuntimeError> {
        let c = |col: &str| column_or_null(cols, "a.", col, col);
        let sessions = if self.has("core_sessions", "account_id") {
            "(SELECT count(*) FROM core_sessions s WHERE s.account_id = a.remote_id)"
        } else {
            "NULL"
        };
        let login_email = if cols.contains("name_or_addr") {
            "CASE WHEN instr(a.name_or_addr, '@') > 0 THEN a.name_or_addr END"
        } else {
            "NULL"
        };
        let sql = format!(
            "SELECT a.rowid AS rid, a.remote_id AS remote_id, {} AS qualified, {}, {login_email} AS login_email, {}, {}, {}, {}, {}, {}, {}, {sessions} AS sessions FROM core_accounts a ORDER BY a.rowid",
            qualified("a.remote_id"),
            c("name_or_addr"),
            c("username"),
            c("display_name"),
            c("primary_addr"),
            c("is_ready"),
            c("second_factor_mode"),
            c("password_mode"),
            c("primary_at"),
        );
        let title = |t: &crate::outputs::Table, row: &[Option<String>]| {
            format!(
                "Proton Mail account {}",
                t.get(row, "primary_addr")
                    .or(t.get(row, "name_or_addr"))
                    .unwrap_or("(not named)")
            )
        };
        self.owner_rows(
            &sql,
            &RowPhenomena {
                table: "core_accounts",
                category: "accounts",
                what: "a Proton account signed in to the app on this device (made primary: Unix seconds; the sessions' access and refresh tokens and key secrets are not copied)",
                title: &title,
                fields: &[
                    ("remote_id", FactType::Account, "user id"),
                    ("name_or_addr", FactType::Account, "login name or address"),
                    ("username", FactType::Account, "user name"),
                    ("display_name", FactType::Name, "display name"),
                    ("primary_addr", FactType::Email, "primary address"),
                    ("is_ready", FactType::Count, "ready"),
                    ("second_factor_mode", FactType::Text, "second-factor mode"),
                    ("password_mode", FactType::Text, "password mode"),
                    ("sessions", FactType::Count, "sessions"),
                ],
                times: &[("primary_at", "Proton Mail account made primary", unix_seconds)],
            },
            &[
                ("qualified", IdType::AccountId, "The Proton user id"),
                ("primary_addr", IdType::Email, "The primary address"),
                ("login_email", IdType::Email, "The login address"),
                ("display_name", IdType::DisplayName, "The display name"),
            ],
            "the Proton account signed in to Proton Mail on the device (core_accounts",
        )?;
        Ok(())
    }

    /// A mail cache's user and addresses (accounts phenomena, the owner's ids); answers the
    /// account's own addresses, lower-cased.
    fn mail_cache_owner(&self) -> Result<BTreeSet<String>, RuntimeError> {
        let mut own = BTreeSet::new();
        if let Some(cols) = self.schema.get("users").filter(|c| c.contains("email")) {
            let c = |col: &str| column_or_null(cols, "u.", col, col);
            let sql = format!(
                "SELECT u.rowid AS rid, {}, {} AS qualified, {}, {}, u.email AS email, {}, {}, {}, {}, {}, {}, {}, {}, {} FROM users u ORDER BY u.rowid",
                c("remote_id"),
                if cols.contains("remote_id") {
                    qualified("u.remote_id")
                } else {
                    "NULL".into()
                },
                c("name"),
                c("display_name"),
                c("create_time"),
                c("used_space"),
                c("max_space"),
                c("max_upload"),
                c("currency"),
                c("credit"),
                c("subscribed"),
                c("services"),
                c("role"),
            );
            let title = |t: &crate::outputs::Table, row: &[Option<String>]| {
                format!(
                    "Proton Mail user {}",
                    t.get(row, "email").unwrap_or("(no e-mail)")
                )
            };
            own.extend(self.owner_rows(
                &sql,
                &RowPhenomena {
                    table: "users",
                    category: "accounts",
                    what: "the Proton user whose mail this cache holds (created: Unix seconds)",
                    title: &title,
                    fields: &[
                        ("remote_id", FactType::Account, "user id"),
                        ("name", FactType::Account, "name"),
                        ("display_name", FactType::Name, "display name"),
                        ("email", FactType::Email, "e-mail"),
                        ("used_space", FactType::Count, "used space (bytes)"),
                        ("max_space", FactType::Count, "maximum space (bytes)"),
                        ("max_upload", FactType::Count, "maximum upload (bytes)"),
                        ("currency", FactType::Text, "currency"),
                        ("credit", FactType::Count, "credit"),
                        ("subscribed", FactType::Count, "subscribed"),
                        ("services", FactType::Count, "services"),
                        ("role", FactType::Count, "role"),
                    ],
                    times: &[("create_time", "Proton account created", unix_seconds)],
                },
                &[
                    ("qualified", IdType::AccountId, "The Proton user id"),
                    ("email", IdType::Email, "The e-mail address"),
                    ("display_name", IdType::DisplayName, "The display name"),
                ],
                "the Proton user whose mail Proton Mail keeps on the device (users",
            )?);
        }
        if let Some(cols) = self.schema.get("addresses").filter(|c| c.contains("email")) {
            let c = |col: &str| column_or_null(cols, "a.", col, col);
            let sql = format!(
                "SELECT a.rowid AS rid, a.email AS email, {}, {}, {}, {}, {} FROM addresses a ORDER BY a.rowid",
                c("display_name"),
                c("status"),
                c("send"),
                c("receive"),
                c("address_type"),
            );
            own.extend(self.owner_rows(
                &sql,
                &RowPhenomena {
                    table: "addresses",
                    category: "accounts",
                    what: "an address of the Proton account whose mail this cache holds",
                    title: &address_title,
                    fields: &[
                        ("email", FactType::Email, "e-mail"),
                        ("display_name", FactType::Name, "display name"),
                        ("status", FactType::Count, "status"),
                        ("send", FactType::Count, "send"),
                        ("receive", FactType::Count, "receive"),
                        ("address_type", FactType::Count, "type"),
                    ],
                    times: &[],
                },
                &[
                    ("email", IdType::Email, "The address"),
                    ("display_name", IdType::DisplayName, "The display name"),
                ],
                "the Proton account whose mail Proton Mail keeps on the device (addresses",
            )?);
        }
        Ok(own)
    }

    /// One phenomenon per row of `sql` (read in pages) as `spec` says, then `after` on the row.
    fn record(
        &self,
        sql: &str,
        spec: &RowPhenomena<'_>,
        after: &mut crate::drafts::AfterRow<'_>,
    ) -> Result<(), RuntimeError> {
        let Some(pages) = self.pages(sql, &format!("Proton Mail {}", spec.table))? else {
            return Ok(());
        };
        record_rows(self.ctx, self.path, self.found, &pages, spec, after)
    }

    /// One `accounts` phenomenon per row of `sql` as `spec` says, each row's `ids` observed on
    /// the device's user (of `whose`, completed by the file's name); answers the rows'
    /// lower-cased `email`s (the account's own addresses).
    fn owner_rows(
        &self,
        sql: &str,
        spec: &RowPhenomena<'_>,
        ids: &[(&str, IdType, &str)],
        whose: &str,
    ) -> Result<BTreeSet<String>, RuntimeError> {
        let mut own = BTreeSet::new();
        self.record(sql, spec, &mut |inv, t, row| {
            if let Some(e) = t.get(row, "email") {
                own.insert(e.to_lowercase());
            }
            observe_columns(
                self.ctx,
                "owner",
                "device owner",
                t,
                row,
                inv,
                ids,
                &|what| format!("{what} of {whose} of {}).", self.file),
            )
        })?;
        Ok(own)
    }

    /// The mail cache's messages.
    fn messages(
        &self,
        cols: &BTreeSet<String>,
        own: &BTreeSet<String>,
    ) -> Result<(), RuntimeError> {
        let m = |col: &str| column_or_null(cols, "m.", col, col);
        let conversation = if cols.contains("local_conversation_id")
            && self.has("conversations", "subject")
            && self.has("conversations", "local_id")
        {
            "(SELECT c.subject FROM conversations c WHERE c.local_id = m.local_conversation_id)"
        } else {
            "NULL"
        };
        let folders = if self.has("message_labels", "local_label_id") && self.has("labels", "name")
        {
            "(SELECT group_concat(n, char(10)) FROM (SELECT DISTINCT l.name AS n FROM message_labels x JOIN labels l ON l.local_id = x.local_label_id WHERE x.local_message_id = m.local_id ORDER BY l.name))"
        } else {
            "NULL"
        };
        let names = if self.has("attachments", "local_message_id") {
            "(SELECT group_concat(a.filename, char(10)) FROM attachments a WHERE a.local_message_id = m.local_id)"
        } else {
            "NULL"
        };
        // the body: in clear in message_body (the older cache), or in raw_message_body when
        // its raw type is 0 (a plain text the app keeps, as its own migration copies drafts)
        let (body, raw_type) = if self.has("message_body", "body") {
            (
                "(SELECT b.body FROM message_body b WHERE b.message_id = m.local_id)",
                "NULL",
            )
        } else if self.has("raw_message_body", "raw_type") {
            (
                "(SELECT CASE WHEN r.raw_type = 0 AND CAST(r.body AS TEXT) NOT LIKE '-----BEGIN PGP%' THEN CAST(r.body AS TEXT) END FROM raw_message_body r WHERE r.message_id = m.local_id)",
                "(SELECT r.raw_type FROM raw_message_body r WHERE r.message_id = m.local_id)",
            )
        } else {
            ("NULL", "NULL")
        };
        let sql = format!(
            "SELECT m.local_id AS rid, m.time AS at, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {conversation} AS conversation, {folders} AS folders, {names} AS attachment_names, {body} AS body, {raw_type} AS raw_type FROM messages m ORDER BY m.local_id",
            m("remote_id"),
            m("subject"),
            address_list(cols, "sender", "from"),
            address_list(cols, "to_list", "to"),
            address_list(cols, "cc_list", "cc"),
            address_list(cols, "bcc_list", "bcc"),
            address_list(cols, "reply_tos", "reply_to"),
            m("unread"),
            m("is_replied"),
            m("is_replied_all"),
            m("is_forwarded"),
            m("num_attachments"),
            m("size"),
            m("deleted"),
            m("expiration_time"),
            m("snooze_time"),
            m("flags"),
            m("remote_conversation_id"),
            m("external_id"),
        );
        let Some(pages) = self.pages(&sql, "Proton Mail messages")? else {
            return Ok(());
        };
        for (inv, t, row) in pages.rows() {
            let rid = t.get(row, "rid").unwrap_or("?").to_string();
            let body = t.get(row, "body");
            let encrypted = match (body, t.get(row, "raw_type")) {
                (None, Some(k)) => Some(format!(
                    "its body is kept encrypted in raw_message_body (raw type {k}), not read"
                )),
                _ => None,
            };
            self.message(
                inv,
                t,
                row,
                own,
                Mail {
                    which: &format!("messages row {rid}"),
                    body,
                    encrypted: encrypted.as_deref(),
                    stored: None,
                },
            )?;
        }
        Ok(())
    }

    /// One message of any store (the columns of [`Store::messages`]).
    fn message(
        &self,
        inv: &Invoked,
        t: &crate::outputs::Table,
        row: &[Option<String>],
        own: &BTreeSet<String>,
        m: Mail<'_>,
    ) -> Result<(), RuntimeError> {
        let Mail {
            which,
            body,
            encrypted,
            stored,
        } = m;
        let from = email_addresses(t.get(row, "from_addresses").unwrap_or_default());
        let (known, sent) = match stored {
            Some((sent, _)) => (true, sent),
            None => {
                let known = !own.is_empty() && !from.is_empty();
                (known, known && from.iter().any(|(_, a)| own.contains(a)))
            }
        };
        let subject = t.get(row, "subject").unwrap_or("(no subject)");
        let mut d = self.draft(
            "messages",
            if sent {
                format!("Proton Mail e-mail sent: {subject}")
            } else {
                format!(
                    "Proton Mail e-mail from {}: {subject}",
                    from.first()
                        .map(|(w, _)| w.as_str())
                        .unwrap_or("an unknown sender")
                )
            },
        );
        for (col, _) in LISTS {
            for (suffix, ft) in [("addresses", FactType::Email), ("names", FactType::Name)] {
                for line in t
                    .get(row, &format!("{col}_{suffix}"))
                    .unwrap_or_default()
                    .lines()
                {
                    d.fact(ft, Some(&crate::outputs::escape(line)), inv);
                }
            }
            // a list not in JSON: as stored (a Java-serialised one decoded by the tool), and
            // the addresses and names it holds
            if let Some(list) = t.get(row, &format!("{col}_raw")) {
                d.fact(FactType::Text, Some(&crate::outputs::escape(list)), inv);
                let java = java_recipients(list);
                for (address, name) in &java {
                    for (ft, v) in [(FactType::Email, address), (FactType::Name, name)] {
                        d.fact(
                            ft,
                            v.as_deref().map(crate::outputs::in_json_cell).as_deref(),
                            inv,
                        );
                    }
                }
                if java.is_empty() {
                    for (written, _) in email_addresses(list) {
                        d.fact(
                            FactType::Email,
                            Some(&crate::outputs::escape(&written)),
                            inv,
                        );
                    }
                }
            }
        }
        let said = d.fields(
            t,
            row,
            inv,
            &[
                ("subject", FactType::Text, "subject"),
                ("conversation", FactType::Text, "conversation"),
                ("unread", FactType::Count, "unread"),
                ("is_replied", FactType::Count, "replied"),
                ("is_replied_all", FactType::Count, "replied to all"),
                ("is_forwarded", FactType::Count, "forwarded"),
                ("num_attachments", FactType::Count, "attachments"),
                ("size", FactType::Count, "size"),
                ("deleted", FactType::Count, "deleted"),
                ("flags", FactType::Count, "flags"),
                (
                    "remote_conversation_id",
                    FactType::Identifier,
                    "conversation id",
                ),
                ("remote_id", FactType::Identifier, "message id"),
                ("external_id", FactType::Identifier, "external id"),
                ("kind", FactType::Text, "type"),
                ("location", FactType::Text, "location"),
                ("starred", FactType::Count, "starred"),
                ("is_encrypted", FactType::Count, "encrypted"),
                ("label_ids", FactType::Text, "label ids"),
                ("sender_proton", FactType::Count, "sender on Proton"),
                ("header", FactType::Text, "header"),
            ],
        );
        for col in ["folders", "attachment_names"] {
            for line in t.get(row, col).unwrap_or_default().lines() {
                d.fact(FactType::Text, Some(&crate::outputs::escape(line)), inv);
            }
        }
        d.fact(
            FactType::Text,
            body.map(crate::outputs::escape).as_deref(),
            inv,
        );
        let at = t.get(row, "at");
        if t.get(row, "kind") == Some("draft") {
            d.time(at, unix_seconds(at), "Proton Mail draft saved", inv);
        } else if known {
            d.message_time(at, unix_seconds(at), sent, inv);
        } else {
            d.time(at, unix_seconds(at), "Proton Mail e-mail time", inv);
        }
        for (col, what) in [
            ("expiration_time", "Proton Mail e-mail expires"),
            ("snooze_time", "Proton Mail e-mail snoozed until"),
        ] {
            let v = t.get(row, col);
            d.time(v, unix_seconds(v), what, inv);
        }
        let accessed = t.get(row, "access_time");
        d.time(
            accessed,
            unix_millis(accessed),
            "Proton Mail e-mail last opened",
            inv,
        );
        let direction = match stored {
            Some((true, why)) => format!("sent by the device's user ({why})"),
            Some((false, why)) => format!("received by the device's user ({why})"),
            None if sent => {
                "sent by the device's user (its sender is one of the account's addresses)".into()
            }
            None if known => "received by the device's user".into(),
            None => "of the account (the account's addresses are not stored, so its direction is not known)".into(),
        };
        d.interpretation = format!(
            "{which} of {}: an e-mail {direction}, {}; in {}; from {}{}. Times are Unix seconds{}.",
            self.file,
            said.join(", "),
            t.get(row, "folders")
                .map(|f| f.replace('\n', ", "))
                .unwrap_or_else(|| "no folder or label stored".into()),
            t.get(row, "from_addresses")
                .map(|a| a.replace('\n', ", "))
                .unwrap_or_else(|| "no sender stored".into()),
            match (body, encrypted) {
                (Some(_), _) => "; its body is kept in clear".to_string(),
                (None, Some(e)) => format!("; {e}"),
                (None, None) => String::new(),
            },
            if accessed.is_some() {
                ", the last-opened time Unix milliseconds"
            } else {
                ""
            }
        );
        record_draft(self.ctx, d)?;
        for (col, what) in LISTS {
            let addresses = [
                t.get(row, &format!("{col}_addresses")),
                t.get(row, &format!("{col}_raw")),
            ]
            .into_iter()
            .flatten()
            .collect::<Vec<_>>()
            .join("\n");
            crate::identity::observe_correspondents(self.ctx, &addresses, own, inv, &|written| {
                format!(
                    "{written} is the {what} address of an e-mail of the device's Proton Mail account ({which} of {}).",
                    self.file
                )
            })?;
        }
        if known {
            let text = [Some(subject), body]
                .into_iter()
                .flatten()
                .collect::<Vec<_>>()
                .join("\n");
            crate::identity::mail_claims(
                self.ctx,
                inv,
                &text,
                &format!("Proton Mail {which} ({})", self.file),
                sent,
                t.get(row, "from_addresses").unwrap_or_default(),
                t.get(row, "to_addresses")
                    .or(t.get(row, "to_raw"))
                    .unwrap_or_default(),
            )?;
        }
        Ok(())
    }

    /// The mail cache's attachments, with the decrypted copies the app cached.
    fn attachments(&self, cols: &BTreeSet<String>) -> Result<(), RuntimeError> {
        let a = |col: &str| column_or_null(cols, "a.", col, col);
        let cache = |col: &str, alias: &str| {
            if self.has("attachment_cache", "attachment_id") && self.has("attachment_cache", col) {
                format!(
                    "(SELECT k.\"{col}\" FROM attachment_cache k WHERE k.attachment_id = a.local_id) AS {alias}"
                )
            } else {
                format!("NULL AS {alias}")
            }
        };
        let subject = if cols.contains("local_message_id") && self.has("messages", "subject") {
            "(SELECT m.subject FROM messages m WHERE m.local_id = a.local_message_id)"
        } else {
            "NULL"
        };
        let sql = format!(
            "SELECT a.local_id AS rid, a.filename AS filename, {}, {}, {}, {}, {subject} AS message_subject, {}, {}, {}, {}, {} FROM attachments a ORDER BY a.local_id",
            a("size"),
            a("mime_type"),
            a("disposition"),
            a("remote_message_id"),
            cache("path", "cached_path"),
            cache("size", "cached_size"),
            cache("ctime", "cached_at"),
            cache("atime", "read_at"),
            cache("hit_count", "hits"),
        );
        self.record_attachments(&sql, "attachments")
    }

    /// One `media` per row of `sql` (the columns of [`Store::attachments`]; `table`: the table
    /// they come from).
    fn record_attachments(&self, sql: &str, table: &str) -> Result<(), RuntimeError> {
        let Some(pages) = self.pages(sql, "Proton Mail attachments")? else {
            return Ok(());
        };
        for (inv, t, row) in pages.rows() {
            let file = t.get(row, "filename").unwrap_or("(no name)");
            let mut d = self.draft("media", format!("Proton Mail attachment {file}"));
            let said = d.fields(
                t,
                row,
                inv,
                &[
                    ("filename", FactType::Text, "file name"),
                    ("size", FactType::Count, "size"),
                    ("mime_type", FactType::Text, "MIME type"),
                    ("disposition", FactType::Text, "disposition"),
                    ("remote_message_id", FactType::Identifier, "message id"),
                    ("message_subject", FactType::Text, "message subject"),
                    ("cached_path", FactType::Path, "cached copy"),
                    ("cached_size", FactType::Count, "cached size"),
                    ("hits", FactType::Count, "cache hits"),
                ],
            );
            d.times_of(
                t,
                row,
                inv,
                unix_seconds,
                &[
                    ("cached_at", "Proton Mail attachment cached"),
                    ("read_at", "Proton Mail attachment last read from the cache"),
                ],
            );
            d.interpretation = format!(
                "{table} row {} of {}: an attachment of a Proton Mail e-mail: {}{}. Times are Unix seconds.",
                t.get(row, "rid").unwrap_or("?"),
                self.file,
                said.join(", "),
                match (t.get(row, "cached_path"), table) {
                    (None, _) => "",
                    (Some(_), "attachments") =>
                        "; the app keeps a decrypted copy at the cached path",
                    (Some(_), _) => "; the app keeps a copy at the cached path",
                }
            );
            record_draft(self.ctx, d)?;
        }
        Ok(())
    }

    /// The mail cache's contact addresses.
    fn contacts(
        &self,
        cols: &BTreeSet<String>,
        own: &BTreeSet<String>,
    ) -> Result<(), RuntimeError> {
        let e = |col: &str| column_or_null(cols, "e.", col, col);
        let contact = |col: &str, alias: &str| {
            if cols.contains("local_contact_id")
                && self.has("contacts", "local_id")
                && self.has("contacts", col)
            {
                format!(
                    "(SELECT c.\"{col}\" FROM contacts c WHERE c.local_id = e.local_contact_id) AS {alias}"
                )
            } else {
                format!("NULL AS {alias}")
            }
        };
        let sql = format!(
            "SELECT e.rowid AS rid, e.email AS email, {}, {}, {}, {}, {}, {}, {}, {}, {}, {} FROM contact_emails e ORDER BY e.rowid",
            e("name"),
            e("contact_type"),
            e("canonical_email"),
            e("last_used_time"),
            e("is_proton"),
            contact("name", "contact_name"),
            contact("uid", "uid"),
            contact("create_time", "created"),
            contact("modify_time", "modified"),
            contact("deleted", "contact_deleted"),
        );
        let Some(pages) = self.pages(&sql, "Proton Mail contacts")? else {
            return Ok(());
        };
        for (inv, t, row) in pages.rows() {
            let email = t.get(row, "email").unwrap_or("(no e-mail)").to_string();
            let label = t.get(row, "name").unwrap_or(&email).to_string();
            let mut d = self.draft("contacts", format!("Proton Mail contact {label}"));
            let said = d.fields(
                t,
                row,
                inv,
                &[
                    ("name", FactType::Name, "name"),
                    ("email", FactType::Email, "e-mail"),
                    ("contact_type", FactType::Text, "kind"),
                    ("canonical_email", FactType::Email, "canonical e-mail"),
                    ("is_proton", FactType::Count, "Proton"),
                    ("contact_name", FactType::Name, "contact"),
                    ("uid", FactType::Identifier, "uid"),
                    ("contact_deleted", FactType::Count, "deleted"),
                ],
            );
            d.times_of(
                t,
                row,
                inv,
                unix_seconds,
                &[
                    ("last_used_time", "Proton Mail contact last used"),
                    ("created", "Proton Mail contact created"),
                    ("modified", "Proton Mail contact modified"),
                ],
            );
            let auto = t
                .get(row, "uid")
                .is_some_and(|u| u.starts_with("proton-autosave"));
            d.interpretation = format!(
                "contact_emails row {} of {}: an address in the Proton account's contacts{}: {}. Times are Unix seconds.",
                t.get(row, "rid").unwrap_or("?"),
                self.file,
                if auto {
                    " that the app saved itself from a message sent or received (its uid is proton-autosave)"
                } else {
                    ""
                },
                said.join(", ")
            );
            record_draft(self.ctx, d)?;
            self.contact_identity(t, row, inv, own, &email)?;
        }
        Ok(())
    }

    /// A contact's address as a person `handle:<address>` with its name (not the account's
    /// own).
    fn contact_identity(
        &self,
        t: &crate::outputs::Table,
        row: &[Option<String>],
        inv: &Invoked,
        own: &BTreeSet<String>,
        email: &str,
    ) -> Result<(), RuntimeError> {
        let address = email.to_lowercase();
        if own.contains(&address) || email_addresses(email).is_empty() {
            return Ok(());
        }
        observe_columns(
            self.ctx,
            &format!("handle:{address}"),
            t.get(row, "name").unwrap_or(email),
            t,
            row,
            inv,
            &[
                ("email", IdType::Email, "The e-mail address"),
                ("name", IdType::DisplayName, "The name"),
            ],
            &|what| {
                format!(
                    "{what} of {email}, a contact of the device's Proton Mail account ({}).",
                    self.file
                )
            },
        )
    }

    /// The first app's messages (`messagev3`): the direction as its type stores it; the one
    /// sender of the messages the device's user wrote is the account (`owner`).
    fn legacy_messages(&self, cols: &BTreeSet<String>) -> Result<(), RuntimeError> {
        let m = |col: &str, alias: &str| column_or_null(cols, "m.", col, alias);
        let own = self.legacy_owner(cols)?;
        let names = if self.has("attachmentv3", "message_id")
            && self.has("attachmentv3", "file_name")
        {
            "(SELECT group_concat(a.file_name, char(10)) FROM attachmentv3 a WHERE a.message_id = m.ID)"
        } else {
            "NULL"
        };
        let kind = if cols.contains("Type") {
            "CASE m.Type WHEN 0 THEN 'received' WHEN 1 THEN 'draft' WHEN 2 THEN 'sent' WHEN 3 THEN 'received and sent' ELSE m.Type END"
        } else {
            "NULL"
        };
        let location = if cols.contains("Location") {
            "CASE m.Location WHEN 0 THEN 'Inbox' WHEN 1 THEN 'Drafts' WHEN 2 THEN 'Sent' WHEN 3 THEN 'Trash' WHEN 6 THEN 'Archive' ELSE m.Location END"
        } else {
            "NULL"
        };
        let (body, access) = (
            if cols.contains("Body") {
                "CASE WHEN m.Body NOT LIKE '-----BEGIN PGP%' THEN m.Body END"
            } else {
                "NULL"
            },
            if cols.contains("AccessTime") {
                "CASE WHEN m.AccessTime > 0 THEN m.AccessTime END"
            } else {
                "NULL"
            },
        );
        let sql = format!(
            "SELECT m.rowid AS rid, m.Time AS at, m.ID AS remote_id, {}, {}, {}, NULL AS from_raw, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {kind} AS kind, {location} AS location, {}, {}, {}, {}, {}, {access} AS access_time, {names} AS attachment_names, {body} AS body FROM messagev3 m ORDER BY m.rowid",
            m("Subject", "subject"),
            m("Sender_SenderSerialized", "from_addresses"),
            m("Sender_SenderName", "from_names"),
            address_list(cols, "ToList", "to"),
            address_list(cols, "CCList", "cc"),
            address_list(cols, "BCCList", "bcc"),
            address_list(cols, "ReplyTos", "reply_to"),
            m("Unread", "unread"),
            m("IsReplied", "is_replied"),
            m("IsRepliedAll", "is_replied_all"),
            m("IsForwarded", "is_forwarded"),
            m("NumAttachments", "num_attachments"),
            m("Size", "size"),
            m("ExpirationTime", "expiration_time"),
            m("Flags", "flags"),
            m("ConversationID", "remote_conversation_id"),
            m("Starred", "starred"),
            m("IsEncrypted", "is_encrypted"),
            m("LabelIDs", "label_ids"),
            m("Sender_IsProton", "sender_proton"),
            m("Header", "header"),
        );
        // the recipient lists: Java-serialised, in Base64
        let Some(pages) = self.pages_with(&sql, "Proton Mail messages", &["java"])? else {
            return Ok(());
        };
        for (inv, t, row) in pages.rows() {
            let which = format!("messagev3 row {}", t.get(row, "rid").unwrap_or("?"));
            let stored = match t.get(row, "kind") {
                Some("sent") => Some((true, "its type, 2, says sent")),
                Some("received and sent") => {
                    Some((true, "its type, 3, says sent to the account itself"))
                }
                Some("draft") => Some((true, "its type, 1, says a draft the device's user wrote")),
                Some("received") => Some((false, "its type, 0, says received")),
                _ => None,
            };
            self.message(
                inv,
                t,
                row,
                &own,
                Mail {
                    which: &which,
                    body: t.get(row, "body"),
                    encrypted: (cols.contains("Body") && t.get(row, "body").is_none())
                        .then_some("its body (Body) is kept encrypted or not stored, not read"),
                    stored,
                },
            )?;
        }
        Ok(())
    }

    /// The one address the first app's store names as the sender of the messages the device's
    /// user wrote (types 1–3): the account's (`owner`, with its name); several or none: none.
    fn legacy_owner(&self, cols: &BTreeSet<String>) -> Result<BTreeSet<String>, RuntimeError> {
        let mut own = BTreeSet::new();
        if !cols.contains("Type") || !cols.contains("Sender_SenderSerialized") {
            return Ok(own);
        }
        let sql = format!(
            "SELECT m.Sender_SenderSerialized AS email, max({}) AS name FROM messagev3 m WHERE m.Type IN (1, 2, 3) AND m.Sender_SenderSerialized IS NOT NULL AND m.Sender_SenderSerialized != '' GROUP BY lower(m.Sender_SenderSerialized)",
            if cols.contains("Sender_SenderName") {
                "m.Sender_SenderName"
            } else {
                "NULL"
            }
        );
        let Some((inv, t)) = crate::identity::query_on(self.ctx, self.tree, self.path, &sql, 2)?
        else {
            return Ok(own);
        };
        let [row] = t.rows.as_slice() else {
            return Ok(own);
        };
        if let Some(e) = t.get(row, "email") {
            own.insert(e.to_lowercase());
        }
        observe_owner_ids(
            self.ctx,
            &inv,
            vec![
                (raw(&t, row, "email"), IdType::Email, "The address"),
                (raw(&t, row, "name"), IdType::DisplayName, "The name"),
            ],
            &|what| {
                format!(
                    "{what} of the Proton account of the device: the one sender of the messages the device's user wrote (types 1 to 3 of messagev3 of {}).",
                    self.file
                )
            },
        )?;
        Ok(own)
    }

    /// The first app's attachments (`attachmentv3`).
    fn legacy_attachments(&self, cols: &BTreeSet<String>) -> Result<(), RuntimeError> {
        let a = |col: &str, alias: &str| column_or_null(cols, "a.", col, alias);
        let subject = if self.has("messagev3", "Subject") {
            "(SELECT m.Subject FROM messagev3 m WHERE m.ID = a.message_id)"
        } else {
            "NULL"
        };
        let inline = if cols.contains("is_inline") {
            "CASE a.is_inline WHEN 1 THEN 'inline' WHEN 0 THEN 'attachment' END"
        } else {
            "NULL"
        };
        let sql = format!(
            "SELECT a.rowid AS rid, a.file_name AS filename, {}, {}, {inline} AS disposition, a.message_id AS remote_message_id, {subject} AS message_subject, {}, NULL AS cached_size, NULL AS cached_at, NULL AS read_at, NULL AS hits FROM attachmentv3 a ORDER BY a.rowid",
            a("file_size", "size"),
            a("mime_type", "mime_type"),
            a("file_path", "cached_path"),
        );
        self.record_attachments(&sql, "attachmentv3")
    }

    /// The first app's contacts: each address (`contact_emailsv3`) with its contact
    /// (`fullContactsDetails`), and each contact without an address.
    fn legacy_contacts(&self, cols: &BTreeSet<String>) -> Result<(), RuntimeError> {
        let e = |col: &str, alias: &str| column_or_null(cols, "e.", col, alias);
        let details = self
            .schema
            .get("fullContactsDetails")
            .filter(|c| c.contains("ID"));
        let f = |col: &str, alias: &str| match details {
            Some(c) if cols.contains("ContactID") => format!(
                "{} AS {alias}",
                if c.contains(col) {
                    format!(
                        "(SELECT f.\"{col}\" FROM fullContactsDetails f WHERE f.ID = e.ContactID)"
                    )
                } else {
                    "NULL".into()
                }
            ),
            _ => format!("NULL AS {alias}"),
        };
        let with_address = format!(
            "SELECT 'e' || e.rowid AS rid, e.Email AS email, {}, {}, {}, {}, {}, {}, {}, {} FROM contact_emailsv3 e",
            e("Name", "name"),
            e("LastUsedTime", "last_used_time"),
            e("isPGP", "pgp"),
            e("ContactID", "contact_id"),
            f("Name", "contact_name"),
            f("Uid", "uid"),
            f("CreateTime", "created"),
            f("ModifyTIme", "modified"),
        );
        let sql = match details {
            Some(c) if cols.contains("ContactID") => {
                let g = |col: &str, alias: &str| column_or_null(c, "f.", col, alias);
                format!(
                    "SELECT * FROM ({with_address} UNION ALL SELECT 'f' || f.rowid AS rid, NULL AS email, NULL AS name, NULL AS last_used_time, NULL AS pgp, f.ID AS contact_id, {}, {}, {}, {} FROM fullContactsDetails f WHERE NOT EXISTS (SELECT 1 FROM contact_emailsv3 x WHERE x.ContactID = f.ID)) ORDER BY rid",
                    g("Name", "contact_name"),
                    g("Uid", "uid"),
                    g("CreateTime", "created"),
                    g("ModifyTIme", "modified"),
                )
            }
            _ => format!("{with_address} ORDER BY e.rowid"),
        };
        let Some(pages) = self.pages(&sql, "Proton Mail contacts")? else {
            return Ok(());
        };
        for (inv, t, row) in pages.rows() {
            let email = t.get(row, "email").unwrap_or("").to_string();
            let label = t
                .get(row, "name")
                .or(t.get(row, "contact_name"))
                .or(t.get(row, "email"))
                .unwrap_or("(not named)")
                .to_string();
            let mut d = self.draft("contacts", format!("Proton Mail contact {label}"));
            let said = d.fields(
                t,
                row,
                inv,
                &[
                    ("name", FactType::Name, "name"),
                    ("email", FactType::Email, "e-mail"),
                    ("pgp", FactType::Count, "PGP"),
                    ("contact_id", FactType::Identifier, "contact id"),
                    ("contact_name", FactType::Name, "contact"),
                    ("uid", FactType::Identifier, "uid"),
                ],
            );
            d.times_of(
                t,
                row,
                inv,
                unix_seconds,
                &[
                    ("last_used_time", "Proton Mail contact last used"),
                    ("created", "Proton Mail contact created"),
                    ("modified", "Proton Mail contact modified"),
                ],
            );
            d.interpretation = format!(
                "{} of {}: {}: {}. Times are Unix seconds.",
                if t.get(row, "email").is_some() {
                    "contact_emailsv3 row"
                } else {
                    "fullContactsDetails row"
                },
                self.file,
                if t.get(row, "email").is_some() {
                    "an address in the Proton account's contacts"
                } else {
                    "a contact of the Proton account without an address"
                },
                said.join(", ")
            );
            record_draft(self.ctx, d)?;
            if !email.is_empty() {
                self.contact_identity(t, row, inv, &BTreeSet::new(), &email)?;
            }
        }
        Ok(())
    }

    /// db-mail's user, account and addresses; answers the account's own addresses.
    fn room_owner(&self) -> Result<BTreeSet<String>, RuntimeError> {
        let mut own = BTreeSet::new();
        if let Some(cols) = self
            .schema
            .get("UserEntity")
            .filter(|c| c.contains("userId"))
        {
            let u = |col: &str| column_or_null(cols, "u.", col, col);
            let account = |col: &str, alias: &str| {
                if self.has("AccountEntity", "userId") && self.has("AccountEntity", col) {
                    format!(
                        "(SELECT x.\"{col}\" FROM AccountEntity x WHERE x.userId = u.userId) AS {alias}"
                    )
                } else {
                    format!("NULL AS {alias}")
                }
            };
            let sql = format!(
                "SELECT u.rowid AS rid, u.userId AS user_id, {} AS qualified, {}, {}, {}, {}, {}, {}, {}, {} FROM UserEntity u ORDER BY u.rowid",
                qualified("u.userId"),
                u("email"),
                u("name"),
                u("displayName"),
                u("createdAtUtc"),
                u("usedSpace"),
                u("maxSpace"),
                account("username", "username"),
                account("state", "state"),
            );
            let title = |t: &crate::outputs::Table, row: &[Option<String>]| {
                format!(
                    "Proton Mail account {}",
                    t.get(row, "email")
                        .or(t.get(row, "username"))
                        .unwrap_or("(not named)")
                )
            };
            own.extend(self.owner_rows(
                &sql,
                &RowPhenomena {
                    table: "UserEntity",
                    category: "accounts",
                    what: "the Proton account signed in to the app (created: Unix milliseconds; the stored passphrase is not copied)",
                    title: &title,
                    fields: &[
                        ("user_id", FactType::Account, "user id"),
                        ("email", FactType::Email, "e-mail"),
                        ("name", FactType::Account, "name"),
                        ("displayName", FactType::Name, "display name"),
                        ("usedSpace", FactType::Count, "used space (bytes)"),
                        ("maxSpace", FactType::Count, "maximum space (bytes)"),
                        ("username", FactType::Account, "user name"),
                        ("state", FactType::Text, "state"),
                    ],
                    times: &[("createdAtUtc", "Proton account created", unix_millis)],
                },
                &[
                    ("qualified", IdType::AccountId, "The Proton user id"),
                    ("email", IdType::Email, "The e-mail address"),
                    ("displayName", IdType::DisplayName, "The display name"),
                ],
                "the Proton account signed in to Proton Mail on the device (UserEntity",
            )?);
        }
        if let Some(cols) = self
            .schema
            .get("AddressEntity")
            .filter(|c| c.contains("email"))
        {
            let sql = format!(
                "SELECT a.rowid AS rid, a.email AS email, {} FROM AddressEntity a ORDER BY a.rowid",
                column_or_null(cols, "a.", "displayName", "displayName"),
            );
            own.extend(self.owner_rows(
                &sql,
                &RowPhenomena {
                    table: "AddressEntity",
                    category: "accounts",
                    what: "an address of the Proton account signed in to the app",
                    title: &address_title,
                    fields: &[
                        ("email", FactType::Email, "e-mail"),
                        ("displayName", FactType::Name, "display name"),
                    ],
                    times: &[],
                },
                &[
                    ("email", IdType::Email, "The address"),
                    ("displayName", IdType::DisplayName, "The display name"),
                ],
                "the Proton account signed in to Proton Mail on the device (AddressEntity",
            )?);
        }
        Ok(own)
    }

    /// db-mail's messages (`MessageEntity`; the sender in two columns).
    fn room_messages(
        &self,
        cols: &BTreeSet<String>,
        own: &BTreeSet<String>,
    ) -> Result<(), RuntimeError> {
        let m = |col: &str, alias: &str| column_or_null(cols, "m.", col, alias);
        let names = if self.has("MessageAttachmentEntity", "messageId") {
            "(SELECT group_concat(a.name, char(10)) FROM MessageAttachmentEntity a WHERE a.messageId = m.messageId)"
        } else {
            "NULL"
        };
        let sql = format!(
            "SELECT m.rowid AS rid, m.time AS at, m.messageId AS remote_id, {}, {}, {}, NULL AS from_raw, {}, {}, {}, NULL AS reply_to_addresses, NULL AS reply_to_names, NULL AS reply_to_raw, {}, {}, {}, {}, {}, {}, {}, {}, {}, {names} AS attachment_names FROM MessageEntity m ORDER BY m.rowid",
            m("subject", "subject"),
            m("sender_address", "from_addresses"),
            m("sender_name", "from_names"),
            address_list(cols, "toList", "to"),
            address_list(cols, "ccList", "cc"),
            address_list(cols, "bccList", "bcc"),
            m("unread", "unread"),
            m("isReplied", "is_replied"),
            m("isRepliedAll", "is_replied_all"),
            m("isForwarded", "is_forwarded"),
            m("numAttachments", "num_attachments"),
            m("size", "size"),
            m("expirationTime", "expiration_time"),
            m("flags", "flags"),
            m("conversationId", "remote_conversation_id"),
        );
        let Some(pages) = self.pages(&sql, "Proton Mail messages")? else {
            return Ok(());
        };
        let encrypted = self
            .schema
            .contains_key("MessageBodyEntity")
            .then_some("its body (MessageBodyEntity) is kept encrypted, not read");
        for (inv, t, row) in pages.rows() {
            let which = format!("MessageEntity row {}", t.get(row, "rid").unwrap_or("?"));
            self.message(
                inv,
                t,
                row,
                own,
                Mail {
                    which: &which,
                    body: None,
                    encrypted,
                    stored: None,
                },
            )?;
        }
        Ok(())
    }

    /// db-mail's attachments, with where the user saved each.
    fn room_attachments(&self, cols: &BTreeSet<String>) -> Result<(), RuntimeError> {
        let a = |col: &str| column_or_null(cols, "a.", col, col);
        let saved = if cols.contains("attachmentId")
            && self.has("MessageAttachmentMetadataEntity", "uri")
            && self.has("MessageAttachmentMetadataEntity", "attachmentId")
        {
            "(SELECT x.uri FROM MessageAttachmentMetadataEntity x WHERE x.messageId = a.messageId AND x.attachmentId = a.attachmentId)"
        } else {
            "NULL"
        };
        let sql = format!(
            "SELECT a.rowid AS rid, a.name AS name, a.messageId AS message_id, {}, {}, {}, {}, {saved} AS saved_to FROM MessageAttachmentEntity a ORDER BY a.rowid",
            a("attachmentId"),
            a("size"),
            a("mimeType"),
            a("disposition"),
        );
        let Some(pages) = self.pages(&sql, "Proton Mail attachments")? else {
            return Ok(());
        };
        for (inv, t, row) in pages.rows() {
            let file = t.get(row, "name").unwrap_or("(no name)");
            let mut d = self.draft("media", format!("Proton Mail attachment {file}"));
            let said = d.fields(
                t,
                row,
                inv,
                &[
                    ("name", FactType::Text, "name"),
                    ("size", FactType::Count, "size"),
                    ("mimeType", FactType::Text, "MIME type"),
                    ("disposition", FactType::Text, "disposition"),
                    ("message_id", FactType::Identifier, "message id"),
                    ("attachmentId", FactType::Identifier, "attachment id"),
                    ("saved_to", FactType::Text, "saved to"),
                ],
            );
            d.interpretation = format!(
                "MessageAttachmentEntity row {} of {}: an attachment of a Proton Mail e-mail: {}{}.",
                t.get(row, "rid").unwrap_or("?"),
                self.file,
                said.join(", "),
                if t.get(row, "saved_to").is_some() {
                    "; the user saved it (the content URI it was saved to)"
                } else {
                    ""
                }
            );
            record_draft(self.ctx, d)?;
        }
        Ok(())
    }

    /// db-mail's contact addresses.
    fn room_contacts(
        &self,
        cols: &BTreeSet<String>,
        own: &BTreeSet<String>,
    ) -> Result<(), RuntimeError> {
        let e = |col: &str| column_or_null(cols, "e.", col, col);
        let contact = if cols.contains("contactId") && self.has("ContactEntity", "name") {
            "(SELECT c.name FROM ContactEntity c WHERE c.contactId = e.contactId)"
        } else {
            "NULL"
        };
        let sql = format!(
            "SELECT e.rowid AS rid, e.email AS email, {}, {}, {}, {}, {contact} AS contact_name FROM ContactEmailEntity e ORDER BY e.rowid",
            e("name"),
            e("canonicalEmail"),
            e("isProton"),
            e("contactId"),
        );
        let title = |t: &crate::outputs::Table, row: &[Option<String>]| {
            format!(
                "Proton Mail contact {}",
                t.get(row, "name")
                    .or(t.get(row, "email"))
                    .unwrap_or("(no e-mail)")
            )
        };
        self.record(
            &sql,
            &RowPhenomena {
                table: "ContactEmailEntity",
                category: "contacts",
                what: "an address in the Proton account's contacts",
                title: &title,
                fields: &[
                    ("name", FactType::Name, "name"),
                    ("email", FactType::Email, "e-mail"),
                    ("canonicalEmail", FactType::Email, "canonical e-mail"),
                    ("isProton", FactType::Count, "Proton"),
                    ("contactId", FactType::Identifier, "contact id"),
                    ("contact_name", FactType::Name, "contact"),
                ],
                times: &[],
            },
            &mut |inv, t, row| {
                let email = t.get(row, "email").unwrap_or("(no e-mail)");
                self.contact_identity(t, row, inv, own, email)
            },
        )?;
        Ok(())
    }
}
