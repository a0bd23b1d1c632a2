//! SimpleX Chat for Android (`chat.simplex.app`), the fields of ALEAPP's five `simplex`
//! artefacts (messages, contacts, files, message edits, reactions) and the user's own profile,
//! from its `files_chat.db`. The store is SQLCipher 4 (its defaults) with a passphrase the app
//! keeps in the Android keystore: it is read through `sqlite_query`'s `cipher` (profile
//! `simplex_android`: the tool reads the `"databasePassword"` of the app's entry of the
//! extraction's `Secrets/secrets.json` itself; the passphrase never appears in a call or an
//! output). Without that file the store is named encrypted (its header probed), not read.
//!
//! | table | phenomenon | fields |
//! |---|---|---|
//! | `users` with the user's own contact profile and address (`user_contact_links`) | one `accounts` per chat profile | local and display name, full name, description, active, created; the SimpleX address others connect through |
//! | `contacts` with `contact_profiles` | one `contacts` per contact | last chat, created, updated, display and local name, full name, local alias, description, incognito, favourite, deleted, status, unread, used, notifications, the contact's address, id |
//! | `chat_items` | one `messages` per chat item | time, created, updated, deleted at (UTC text, as stored, and its Unix seconds computed in the query), direction (`item_sent`), the contact or the group and the member who sent it, text, status, deleted, edited, quoted content and whether the user sent it, live, disappearing TTL and when, mention, the item's structured content, id |
//! | `files` | one `files` per transfer | created, updated, name, size, status, contact, protocol, cancelled, whether it is stored encrypted and the key's and nonce's lengths (never the key or the nonce), path, group, chat item and file ids |
//! | `chat_item_versions` | one `messages` per earlier version of an edited item | version time, created, updated, direction, the earlier content, the current text, ids |
//! | `chat_item_reactions` | one `messages` per reaction | time, created, updated, the reaction, sent or received, the contact, group and member, id |
//!
//! Identities: SimpleX has no account ids by design; a SimpleX address (the link a user shares
//! for others to connect) is one: the user's own (`simplex:<address>`) is the device's user's
//! (`owner`), a contact's (its profile's `contact_link`) a person with display name. Wallet
//! addresses in a message are claims by direction, a direct chat's contact named.

use std::collections::BTreeSet;

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{FactType, IdType};
use serde_json::{Map, Value};

use super::{Located, record_query_args};
use crate::calls::{Tables, column_or_null};
use crate::drafts::{RowPhenomena, unix_seconds};
use crate::identity::{artefact_name, observe_columns};

/// Whether `l` is SimpleX Chat's store.
pub fn is_store(l: &Located) -> bool {
    l.name() == "files_chat.db" && l.path.contains("/chat.simplex.app/")
}

/// `<col> AS <alias>, <its Unix seconds> AS <alias>_unix` of a UTC time kept as text.
fn ts(cols: &BTreeSet<String>, prefix: &str, col: &str, alias: &str) -> String {
    if cols.contains(col) {
        format!(
            "{prefix}{col} AS {alias}, CAST(strftime('%s', {prefix}{col}) AS INTEGER) AS {alias}_unix"
        )
    } else {
        format!("NULL AS {alias}, NULL AS {alias}_unix")
    }
}

/// The store (encrypted: read with the extraction's key file when it has one).
pub fn store(ctx: &AgentCtx<'_>, l: &Located, found: &[Located]) -> Result<(), RuntimeError> {
    let name = artefact_name(&l.tree, &l.path);
    let Some((extra, schema)) =
        super::signal::open_with_key(ctx, l, found, "simplex_android", "SimpleX Chat")?
    else {
        return Ok(());
    };
    let Some(tables) = Tables::of(
        ctx,
        &name,
        "SimpleX Chat's files_chat.db",
        &schema,
        &[
            "users",
            "contacts",
            "chat_items",
            "files",
            "chat_item_versions",
            "chat_item_reactions",
        ],
    )?
    else {
        return Ok(());
    };
    let (table, need) = (
        |t: &str| tables.get(t),
        |t: &str, c: &[&str]| tables.need(t, c),
    );
    let r = Read {
        ctx,
        l,
        extra: &extra,
        profiles: table("contact_profiles"),
    };
    if let Some(c) = need("users", &["user_id", "local_display_name"])? {
        r.users(c, table("contacts"), table("user_contact_links"))?;
    }
    if let Some(c) = need("contacts", &["contact_id", "local_display_name"])? {
        r.contacts(c)?;
    }
    let groups = table("groups").filter(|g| g.contains("group_id"));
    let members = table("group_members").filter(|g| g.contains("group_member_id"));
    if let Some(c) = need("chat_items", &["chat_item_id", "item_sent", "item_ts"])? {
        r.items(c, groups, members)?;
    }
    if let Some(c) = need("files", &["file_id", "file_name"])? {
        r.files(c)?;
    }
    if let Some(c) = need("chat_item_versions", &["chat_item_id", "msg_content"])? {
        r.versions(c, table("chat_items"))?;
    }
    if let Some(c) = need("chat_item_reactions", &["reaction", "reaction_sent"])? {
        r.reactions(c, groups, members)?;
    }
    Ok(())
}

struct Read<'a, 'c, 's> {
    ctx: &'a AgentCtx<'s>,
    l: &'a Located,
    extra: &'a Map<String, Value>,
    profiles: Option<&'c BTreeSet<String>>,
}

impl Read<'_, '_, '_> {
    /// A contact's name (`contact_profiles.display_name`, else the local one) of the contact
    /// id `col`, as `alias`.
    fn contact_name(&self, col: &str, alias: &str) -> String {
        match self.profiles {
            Some(p) if p.contains("display_name") => format!(
                "(SELECT COALESCE(NULLIF(cp.display_name, ''), cc.local_display_name) FROM contacts cc LEFT JOIN contact_profiles cp ON cp.contact_profile_id = cc.contact_profile_id WHERE cc.contact_id = {col}) AS {alias}"
            ),
            _ => format!(
                "(SELECT cc.local_display_name FROM contacts cc WHERE cc.contact_id = {col}) AS {alias}"
            ),
        }
    }

    /// The qualified SimpleX address (`simplex:<link>`) of the contact id `col`, as `alias`.
    fn contact_link(&self, col: &str, alias: &str) -> String {
        match self.profiles {
            Some(p) if p.contains("contact_link") => format!(
                "(SELECT 'simplex:' || CAST(cp.contact_link AS TEXT) FROM contacts cc JOIN contact_profiles cp ON cp.contact_profile_id = cc.contact_profile_id WHERE cc.contact_id = {col} AND cp.contact_link IS NOT NULL AND length(cp.contact_link) > 0) AS {alias}"
            ),
            _ => format!("NULL AS {alias}"),
        }
    }

    fn profile(&self, col: &str, alias: &str) -> String {
        match self.profiles {
            Some(p) if p.contains(col) => format!("p.{col} AS {alias}"),
            _ => format!("NULL AS {alias}"),
        }
    }

    fn users(
        &self,
        cols: &BTreeSet<String>,
        contacts: Option<&BTreeSet<String>>,
        links: Option<&BTreeSet<String>>,
    ) -> Result<(), RuntimeError> {
        let join = if contacts.is_some_and(|c| c.contains("contact_profile_id"))
            && cols.contains("contact_id")
            && self.profiles.is_some()
        {
            " LEFT JOIN contacts c ON c.contact_id = u.contact_id LEFT JOIN contact_profiles p ON p.contact_profile_id = c.contact_profile_id"
        } else {
            ""
        };
        let prof = |c: &str, a: &str| {
            if join.is_empty() {
                format!("NULL AS {a}")
            } else {
                self.profile(c, a)
            }
        };
        let address = if links
            .is_some_and(|c| c.contains("conn_req_contact") && c.contains("user_id"))
        {
            let group = if links.is_some_and(|c| c.contains("group_id")) {
                " AND k.group_id IS NULL"
            } else {
                ""
            };
            format!(
                "(SELECT CAST(k.conn_req_contact AS TEXT) FROM user_contact_links k WHERE k.user_id = u.user_id{group} ORDER BY k.user_contact_link_id LIMIT 1)"
            )
        } else {
            "NULL".into()
        };
        let sql = format!(
            "SELECT *, CASE WHEN address IS NOT NULL AND address != '' THEN 'simplex:' || address END AS qualified FROM (SELECT u.user_id AS rid, u.local_display_name AS local_name, {}, {}, {}, {}, {}, {address} AS address FROM users u{join} ORDER BY u.user_id)",
            prof("display_name", "display_name"),
            prof("full_name", "full_name"),
            prof("short_descr", "description"),
            column_or_null(cols, "u.", "active_user", "active"),
            ts(cols, "u.", "created_at", "created"),
        );
        let file = self.l.name().to_string();
        record_query_args(
            self.ctx,
            self.l,
            &sql,
            self.extra,
            &RowPhenomena {
                table: "users",
                category: "accounts",
                what: "a SimpleX Chat profile of the device's user",
                title: &|t, row| {
                    format!(
                        "SimpleX profile {}",
                        t.get(row, "display_name")
                            .or(t.get(row, "local_name"))
                            .unwrap_or("?")
                    )
                },
                fields: &[
                    ("local_name", FactType::Name, "local name"),
                    ("display_name", FactType::Name, "display name"),
                    ("full_name", FactType::Name, "full name"),
                    ("description", FactType::Text, "description"),
                    ("active", FactType::Count, "active"),
                    ("address", FactType::Url, "SimpleX address"),
                    ("qualified", FactType::Account, "account"),
                    ("created", FactType::Text, "created (UTC)"),
                ],
                times: &[("created_unix", "SimpleX profile created", unix_seconds)],
            },
            &mut |inv, t, row| {
                observe_columns(
                    self.ctx,
                    "owner",
                    "device owner",
                    t,
                    row,
                    inv,
                    &[
                        ("qualified", IdType::AccountId, "The SimpleX address"),
                        ("display_name", IdType::DisplayName, "The display name"),
                    ],
                    &|what| {
                        format!(
                            "{what} of the device's user's SimpleX Chat profile (users row {} of {file}).",
                            t.get(row, "rid").unwrap_or("?")
                        )
                    },
                )
            },
        )
    }

    fn contacts(&self, cols: &BTreeSet<String>) -> Result<(), RuntimeError> {
        let join = if cols.contains("contact_profile_id") && self.profiles.is_some() {
            " LEFT JOIN contact_profiles p ON p.contact_profile_id = c.contact_profile_id"
        } else {
            ""
        };
        let prof = |c: &str, a: &str| {
            if join.is_empty() {
                format!("NULL AS {a}")
            } else {
                self.profile(c, a)
            }
        };
        let link = if !join.is_empty() && self.profiles.is_some_and(|p| p.contains("contact_link"))
        {
            "CAST(p.contact_link AS TEXT)"
        } else {
            "NULL"
        };
        let sql = format!(
            "SELECT *, CASE WHEN link IS NOT NULL AND link != '' THEN 'simplex:' || link END AS qualified FROM (SELECT c.contact_id AS rid, c.contact_id AS contact_id, c.local_display_name AS local_name, {}, {}, {}, {}, {}, {link} AS link, {}, {}, {}, {}, {}, {}, {}, {}, {} FROM contacts c{join}{} ORDER BY c.contact_id)",
            prof("display_name", "display_name"),
            prof("full_name", "full_name"),
            prof("local_alias", "alias"),
            prof("short_descr", "description"),
            prof("incognito", "incognito"),
            column_or_null(cols, "c.", "favorite", "favorite"),
            column_or_null(cols, "c.", "deleted", "deleted"),
            column_or_null(cols, "c.", "contact_status", "status"),
            column_or_null(cols, "c.", "unread_chat", "unread"),
            column_or_null(cols, "c.", "contact_used", "used"),
            column_or_null(cols, "c.", "enable_ntfs", "notifications"),
            ts(cols, "c.", "chat_ts", "chat"),
            ts(cols, "c.", "created_at", "created"),
            ts(cols, "c.", "updated_at", "updated"),
            if cols.contains("is_user") {
                " WHERE c.is_user = 0"
            } else {
                ""
            },
        );
        let file = self.l.name().to_string();
        record_query_args(
            self.ctx,
            self.l,
            &sql,
            self.extra,
            &RowPhenomena {
                table: "contacts",
                category: "contacts",
                what: "a SimpleX Chat contact",
                title: &|t, row| {
                    format!(
                        "SimpleX contact {}",
                        t.get(row, "display_name")
                            .or(t.get(row, "local_name"))
                            .unwrap_or("?")
                    )
                },
                fields: &[
                    ("display_name", FactType::Name, "display name"),
                    ("local_name", FactType::Name, "local name"),
                    ("full_name", FactType::Name, "full name"),
                    ("alias", FactType::Name, "local alias"),
                    ("description", FactType::Text, "description"),
                    ("incognito", FactType::Count, "incognito"),
                    ("favorite", FactType::Count, "favourite"),
                    ("deleted", FactType::Count, "deleted"),
                    ("status", FactType::Text, "status"),
                    ("unread", FactType::Count, "unread"),
                    ("used", FactType::Count, "used"),
                    ("notifications", FactType::Count, "notifications"),
                    ("link", FactType::Url, "SimpleX address"),
                    ("qualified", FactType::Account, "account"),
                    ("chat", FactType::Text, "last chat (UTC)"),
                    ("created", FactType::Text, "created (UTC)"),
                    ("updated", FactType::Text, "updated (UTC)"),
                    ("contact_id", FactType::Identifier, "contact id"),
                ],
                times: &[
                    ("chat_unix", "SimpleX chat's last activity", unix_seconds),
                    ("created_unix", "SimpleX contact created", unix_seconds),
                ],
            },
            &mut |inv, t, row| {
                let Some(q) = t.get(row, "qualified") else {
                    return Ok(());
                };
                let label = t
                    .get(row, "display_name")
                    .or(t.get(row, "local_name"))
                    .unwrap_or(q)
                    .to_string();
                observe_columns(
                    self.ctx,
                    q,
                    &label,
                    t,
                    row,
                    inv,
                    &[
                        ("qualified", IdType::AccountId, "The SimpleX address"),
                        ("display_name", IdType::DisplayName, "The display name"),
                    ],
                    &|what| {
                        format!(
                            "{what} of the SimpleX Chat contact {label} (contacts row {} of {file}).",
                            t.get(row, "rid").unwrap_or("?")
                        )
                    },
                )
            },
        )
    }

    /// `<group name> AS group_name, <member name> AS member` of a row aliased `x`.
    fn group_and_member(
        &self,
        cols: &BTreeSet<String>,
        groups: Option<&BTreeSet<String>>,
        members: Option<&BTreeSet<String>>,
    ) -> String {
        let group = match groups {
            Some(g) if cols.contains("group_id") && g.contains("local_display_name") => {
                "(SELECT g.local_display_name FROM groups g WHERE g.group_id = x.group_id)"
            }
            _ => "NULL",
        };
        let member = match members {
            Some(m) if cols.contains("group_member_id") && m.contains("local_display_name") => {
                "(SELECT m.local_display_name FROM group_members m WHERE m.group_member_id = x.group_member_id)"
            }
            _ => "NULL",
        };
        format!("{group} AS group_name, {member} AS member")
    }

    fn items(
        &self,
        cols: &BTreeSet<String>,
        groups: Option<&BTreeSet<String>>,
        members: Option<&BTreeSet<String>>,
    ) -> Result<(), RuntimeError> {
        let c = |col: &str, alias: &str| column_or_null(cols, "x.", col, alias);
        let sql = format!(
            "SELECT x.chat_item_id AS rid, x.chat_item_id AS item_id, x.item_sent AS sent, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {} FROM chat_items x ORDER BY x.item_ts, x.chat_item_id",
            ts(cols, "x.", "item_ts", "at"),
            ts(cols, "x.", "created_at", "created"),
            ts(cols, "x.", "updated_at", "updated"),
            ts(cols, "x.", "item_deleted_ts", "deleted_at"),
            ts(cols, "x.", "timed_delete_at", "disappears"),
            if cols.contains("contact_id") {
                self.contact_name("x.contact_id", "contact")
            } else {
                "NULL AS contact".into()
            },
            self.group_and_member(cols, groups, members),
            c("item_text", "text"),
            c("item_status", "status"),
            c("item_deleted", "deleted"),
            c("item_edited", "edited"),
            c("quoted_content", "quoted"),
            c("quoted_sent", "quoted_sent"),
            c("item_live", "live"),
            c("timed_ttl", "ttl"),
            c("user_mention", "mention"),
            c("group_id", "group_id"),
            c("item_content", "content"),
            c("contact_id", "contact_id"),
            self.contact_link("x.contact_id", "contact_qualified"),
        );
        let file = self.l.name().to_string();
        record_query_args(
            self.ctx,
            self.l,
            &sql,
            self.extra,
            &RowPhenomena {
                table: "chat_items",
                category: "messages",
                what: "a SimpleX Chat chat item (item_sent says whether the device's user sent it)",
                title: &|t, row| {
                    let with = t
                        .get(row, "group_name")
                        .map(|g| format!("group {g}"))
                        .or(t.get(row, "contact").map(str::to_string))
                        .unwrap_or_else(|| "?".into());
                    if t.get(row, "sent") == Some("1") {
                        format!("SimpleX message sent to {with}")
                    } else {
                        format!(
                            "SimpleX message from {}",
                            t.get(row, "member")
                                .map(|m| format!("{m} in {with}"))
                                .unwrap_or(with)
                        )
                    }
                },
                fields: &[
                    ("text", FactType::Text, "text"),
                    ("sent", FactType::Count, "sent"),
                    ("contact", FactType::Name, "contact"),
                    ("group_name", FactType::Name, "group"),
                    ("member", FactType::Name, "member"),
                    ("status", FactType::Text, "status"),
                    ("deleted", FactType::Count, "deleted"),
                    ("edited", FactType::Count, "edited"),
                    ("quoted", FactType::Text, "quoted content"),
                    ("quoted_sent", FactType::Count, "quoted sent"),
                    ("live", FactType::Count, "live"),
                    ("ttl", FactType::Count, "disappearing TTL"),
                    ("mention", FactType::Count, "user mention"),
                    ("content", FactType::Text, "item content"),
                    ("at", FactType::Text, "time (UTC)"),
                    ("created", FactType::Text, "created (UTC)"),
                    ("updated", FactType::Text, "updated (UTC)"),
                    ("deleted_at", FactType::Text, "deleted at (UTC)"),
                    ("disappears", FactType::Text, "disappears at (UTC)"),
                    ("group_id", FactType::Identifier, "group id"),
                    ("contact_id", FactType::Identifier, "contact id"),
                    ("item_id", FactType::Identifier, "chat item id"),
                ],
                times: &[
                    ("at_unix", "SimpleX message", unix_seconds),
                    ("deleted_at_unix", "SimpleX message deleted", unix_seconds),
                ],
            },
            &mut |inv, t, row| {
                // wallet addresses: claims by direction, a direct chat's contact named
                let Some(text) = t.get(row, "text") else {
                    return Ok(());
                };
                let other = t
                    .get(row, "contact_qualified")
                    .map(|q| (q, t.get(row, "contact").unwrap_or(q)));
                crate::identity::claims_by_direction(
                    self.ctx,
                    inv,
                    text,
                    &format!(
                        "SimpleX message (chat_items row {} of {file})",
                        t.get(row, "rid").unwrap_or("?")
                    ),
                    t.get(row, "sent") == Some("1"),
                    other,
                )?;
                Ok(())
            },
        )
    }

    fn files(&self, cols: &BTreeSet<String>) -> Result<(), RuntimeError> {
        let c = |col: &str, alias: &str| column_or_null(cols, "f.", col, alias);
        // never the key or the nonce: whether they are kept, and their lengths
        let (encrypted, key_len, nonce_len) = if cols.contains("file_crypto_key") {
            (
                "CASE WHEN f.file_crypto_key IS NOT NULL AND length(f.file_crypto_key) > 0 THEN 'yes' ELSE 'no' END",
                "length(f.file_crypto_key)",
                if cols.contains("file_crypto_nonce") {
                    "length(f.file_crypto_nonce)"
                } else {
                    "NULL"
                },
            )
        } else {
            ("NULL", "NULL", "NULL")
        };
        let sql = format!(
            "SELECT f.file_id AS rid, f.file_id AS file_id, f.file_name AS file_name, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {encrypted} AS encrypted, {key_len} AS key_length, {nonce_len} AS nonce_length FROM files f ORDER BY f.file_id",
            ts(cols, "f.", "created_at", "created"),
            ts(cols, "f.", "updated_at", "updated"),
            c("file_path", "file_path"),
            c("file_size", "size"),
            c("ci_file_status", "status"),
            if cols.contains("contact_id") {
                self.contact_name("f.contact_id", "contact")
            } else {
                "NULL AS contact".into()
            },
            c("protocol", "protocol"),
            c("cancelled", "cancelled"),
            c("group_id", "group_id"),
            c("chat_item_id", "chat_item_id"),
        );
        record_query_args(
            self.ctx,
            self.l,
            &sql,
            self.extra,
            &RowPhenomena {
                table: "files",
                category: "files",
                what: "a file sent or received in SimpleX Chat (stored encrypted when a key is kept: the key and nonce are not copied)",
                title: &|t, row| format!("SimpleX file {}", t.get(row, "file_name").unwrap_or("?")),
                fields: &[
                    ("file_name", FactType::Name, "name"),
                    ("file_path", FactType::Path, "path"),
                    ("size", FactType::Count, "size"),
                    ("status", FactType::Text, "status"),
                    ("contact", FactType::Name, "contact"),
                    ("protocol", FactType::Text, "protocol"),
                    ("cancelled", FactType::Count, "cancelled"),
                    ("encrypted", FactType::Text, "stored encrypted"),
                    ("key_length", FactType::Count, "key length"),
                    ("nonce_length", FactType::Count, "nonce length"),
                    ("created", FactType::Text, "created (UTC)"),
                    ("updated", FactType::Text, "updated (UTC)"),
                    ("group_id", FactType::Identifier, "group id"),
                    ("chat_item_id", FactType::Identifier, "chat item id"),
                    ("file_id", FactType::Identifier, "file id"),
                ],
                times: &[(
                    "created_unix",
                    "SimpleX file transfer created",
                    unix_seconds,
                )],
            },
            &mut |_, _, _| Ok(()),
        )
    }

    fn versions(
        &self,
        cols: &BTreeSet<String>,
        items: Option<&BTreeSet<String>>,
    ) -> Result<(), RuntimeError> {
        let item = |col: &str, alias: &str| match items {
            Some(i) if i.contains(col) => format!(
                "(SELECT i.{col} FROM chat_items i WHERE i.chat_item_id = v.chat_item_id) AS {alias}"
            ),
            _ => format!("NULL AS {alias}"),
        };
        let sql = format!(
            "SELECT v.rowid AS rid, v.chat_item_id AS item_id, v.msg_content AS content, {}, {}, {}, {}, {}, {} FROM chat_item_versions v ORDER BY v.rowid",
            ts(cols, "v.", "item_version_ts", "at"),
            ts(cols, "v.", "created_at", "created"),
            ts(cols, "v.", "updated_at", "updated"),
            item("item_text", "current"),
            item("item_sent", "sent"),
            column_or_null(cols, "v.", "chat_item_version_id", "version_id"),
        );
        record_query_args(
            self.ctx,
            self.l,
            &sql,
            self.extra,
            &RowPhenomena {
                table: "chat_item_versions",
                category: "messages",
                what: "a version of an edited SimpleX Chat item (the earlier content, as stored, beside the current text)",
                title: &|t, row| {
                    format!(
                        "SimpleX message version of item {}",
                        t.get(row, "item_id").unwrap_or("?")
                    )
                },
                fields: &[
                    ("content", FactType::Text, "content"),
                    ("current", FactType::Text, "current text"),
                    ("sent", FactType::Count, "sent"),
                    ("at", FactType::Text, "version time (UTC)"),
                    ("created", FactType::Text, "created (UTC)"),
                    ("updated", FactType::Text, "updated (UTC)"),
                    ("item_id", FactType::Identifier, "chat item id"),
                    ("version_id", FactType::Identifier, "version id"),
                ],
                times: &[("at_unix", "SimpleX message version", unix_seconds)],
            },
            &mut |_, _, _| Ok(()),
        )
    }

    fn reactions(
        &self,
        cols: &BTreeSet<String>,
        groups: Option<&BTreeSet<String>>,
        members: Option<&BTreeSet<String>>,
    ) -> Result<(), RuntimeError> {
        let sql = format!(
            "SELECT x.rowid AS rid, x.reaction AS reaction, x.reaction_sent AS sent, {}, {}, {}, {}, {}, {} FROM chat_item_reactions x ORDER BY x.rowid",
            ts(cols, "x.", "reaction_ts", "at"),
            ts(cols, "x.", "created_at", "created"),
            ts(cols, "x.", "updated_at", "updated"),
            if cols.contains("contact_id") {
                self.contact_name("x.contact_id", "contact")
            } else {
                "NULL AS contact".into()
            },
            self.group_and_member(cols, groups, members),
            column_or_null(cols, "x.", "chat_item_reaction_id", "reaction_id"),
        );
        record_query_args(
            self.ctx,
            self.l,
            &sql,
            self.extra,
            &RowPhenomena {
                table: "chat_item_reactions",
                category: "messages",
                what: "a reaction to a SimpleX Chat item (reaction_sent says whether the device's user sent it)",
                title: &|t, row| {
                    format!(
                        "SimpleX reaction {}",
                        if t.get(row, "sent") == Some("1") {
                            "sent"
                        } else {
                            "received"
                        }
                    )
                },
                fields: &[
                    ("reaction", FactType::Text, "reaction"),
                    ("sent", FactType::Count, "sent"),
                    ("contact", FactType::Name, "contact"),
                    ("group_name", FactType::Name, "group"),
                    ("member", FactType::Name, "member"),
                    ("at", FactType::Text, "time (UTC)"),
                    ("created", FactType::Text, "created (UTC)"),
                    ("updated", FactType::Text, "updated (UTC)"),
                    ("reaction_id", FactType::Identifier, "reaction id"),
                ],
                times: &[("at_unix", "SimpleX reaction", unix_seconds)],
            },
            &mut |_, _, _| Ok(()),
        )
    }
}
