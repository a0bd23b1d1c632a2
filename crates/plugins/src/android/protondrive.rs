//! Proton Drive (`me.proton.android.drive/databases/db-drive`), ALEAPP's `ProtonDrive`
//! (`protondrive_useraccount`, `protondrive_fileinfo`): the Proton account signed in, the files,
//! folders and albums of its drive as the app last listed them, and the shares it belongs to.
//!
//! | table | phenomenon | fields |
//! |---|---|---|
//! | `UserEntity` (with `AccountEntity`) | one `accounts` per account ("Proton Drive account <e-mail>") | user id, e-mail, name, display name, used and maximum space (bytes; the drive's own where kept), the account's user name and state; created (Unix ms) |
//! | `AddressEntity` | one `accounts` per address of the account ("Proton Drive address <e-mail>") | e-mail, display name |
//! | `LinkEntity` (with `LinkFilePropertiesEntity`) | one `files` per link ("Proton Drive file <id>", "… folder …", "… album …") | link, share and parent ids, type and state as stored, the name said to be kept encrypted (a PGP message, never decrypted) or as stored when in clear, MIME type, size, shared, public-link accesses, the address that signed the node and its name; created, modified, trashed, link expiry (Unix s), photo taken (Unix s) |
//! | `ShareEntity` | one `files` per share ("Proton Drive share <id>") | share, volume and root link ids, type and volume type as stored, flags, locked, the creator's e-mail, editors may share; created (Unix s) |
//! | `ShareMembershipEntity` | one `files` per membership ("Proton Drive share <id> shared by <inviter>") | share id, inviter and invitee e-mails, permissions as stored; created (Unix s) |
//!
//! A link's type and state are the app's constants (its `LinkDto`: type 1 folder, 2 file,
//! 3 album; state 0 draft, 1 active, 2 trashed, 3 deleted, 4 restoring), kept as stored. Names
//! and extended attributes are encrypted by the app: a name that is a PGP message is said to be
//! one, not quoted and never decrypted. Never selected: the node and share keys and passphrases
//! (`node_key`, `node_passphrase`, `key`, `passphrase`, the membership's `key_packet`), the
//! user's stored passphrase. Identities: the account is the device's user's (`owner`:
//! `proton:<user id>`, computed in the query — the id Proton Mail's reader observes — with its
//! e-mail addresses and display name); whoever invited the account to a share is a person
//! `handle:<address>` (unless the address is the account's own). Columns are taken by name
//! (absent ones NULL: older releases keep fewer); a store with none of the tables is noted.

use std::collections::BTreeSet;

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{FactType, IdType};

use super::{Located, Schema};
use crate::calls::column_or_null;
use crate::drafts::{RowPhenomena, unix_millis, unix_seconds};
use crate::identity::{artefact_name, observe_columns, observe_correspondents, schema_on};
use crate::outputs::raw;

/// Whether `l` is Proton Drive's store.
pub fn is_store(l: &Located) -> bool {
    l.name() == "db-drive" && l.path.contains("/me.proton.android.drive/")
}

/// The tables read.
const TABLES: &[&str] = &[
    "UserEntity",
    "AddressEntity",
    "LinkEntity",
    "ShareEntity",
    "ShareMembershipEntity",
];

/// Whether `schema` has `table` with each of `cols`.
fn has(schema: &Schema, table: &str, cols: &[&str]) -> bool {
    schema
        .get(table)
        .is_some_and(|c| cols.iter().all(|x| c.contains(*x)))
}

/// One `db-drive`.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(schema) = schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    if !TABLES.iter().any(|t| schema.contains_key(*t)) {
        ctx.unparsed(
            &artefact_name(&l.tree, &l.path),
            &format!(
                "not Proton Drive's db-drive: none of the tables {}",
                TABLES.join(", ")
            ),
            None,
        )?;
        return Ok(());
    }
    let own = account(ctx, l, &schema)?;
    links(ctx, l, &schema)?;
    shares(ctx, l, &schema, &own)
}

/// `UserEntity` and `AddressEntity`: the account, the device's user's; answers its addresses
/// (lower-cased).
fn account(
    ctx: &AgentCtx<'_>,
    l: &Located,
    schema: &Schema,
) -> Result<BTreeSet<String>, RuntimeError> {
    let mut own = BTreeSet::new();
    let file = l.name().to_string();
    if let Some(cols) = schema.get("UserEntity").filter(|c| c.contains("userId")) {
        let u = |c: &str| column_or_null(cols, "u.", c, c);
        // ALEAPP spells it createdAtUTC; SQLite's names are caseless, the set is not
        let created = cols
            .iter()
            .find(|c| c.eq_ignore_ascii_case("createdAtUtc"))
            .map_or_else(
                || "NULL AS created".to_string(),
                |c| format!("u.\"{c}\" AS created"),
            );
        let of_account = |c: &str, alias: &str| {
            if has(schema, "AccountEntity", &["userId", c]) {
                format!(
                    "(SELECT a.\"{c}\" FROM AccountEntity a WHERE a.userId = u.userId) AS {alias}"
                )
            } else {
                format!("NULL AS {alias}")
            }
        };
        let sql = format!(
            "SELECT u.rowid AS rid, u.userId AS user_id, CASE WHEN u.userId IS NOT NULL AND u.userId != '' THEN 'proton:' || u.userId END AS qualified, {}, {}, {}, {}, {}, {}, {}, {created}, {}, {} FROM UserEntity u ORDER BY u.rowid",
            u("email"),
            u("name"),
            u("displayName"),
            u("usedSpace"),
            u("maxSpace"),
            u("usedDriveSpace"),
            u("maxDriveSpace"),
            of_account("username", "username"),
            of_account("state", "state"),
        );
        super::record_query(
            ctx,
            l,
            &sql,
            &RowPhenomena {
                table: "UserEntity",
                category: "accounts",
                what: "the Proton account signed in to Proton Drive on the phone (space in bytes; created Unix milliseconds; the stored passphrase is never read)",
                title: &|t, row| {
                    format!(
                        "Proton Drive account {}",
                        raw(t, row, "email")
                            .or_else(|| raw(t, row, "username"))
                            .or_else(|| raw(t, row, "user_id"))
                            .unwrap_or_else(|| "?".into())
                    )
                },
                fields: &[
                    ("user_id", FactType::Account, "user id"),
                    ("email", FactType::Email, "e-mail"),
                    ("name", FactType::Account, "name"),
                    ("displayName", FactType::Name, "display name"),
                    ("usedSpace", FactType::Count, "used space"),
                    ("maxSpace", FactType::Count, "maximum space"),
                    ("usedDriveSpace", FactType::Count, "drive space used"),
                    ("maxDriveSpace", FactType::Count, "drive space"),
                    ("username", FactType::Account, "user name"),
                    ("state", FactType::Text, "state"),
                ],
                times: &[("created", "Proton account created", unix_millis)],
            },
            &mut |inv, t, row| {
                if let Some(e) = t.get(row, "email") {
                    own.insert(e.to_lowercase());
                }
                observe_columns(
                    ctx,
                    "owner",
                    "device owner",
                    t,
                    row,
                    inv,
                    &[
                        ("qualified", IdType::AccountId, "The Proton user id"),
                        ("email", IdType::Email, "The e-mail address"),
                        ("displayName", IdType::DisplayName, "The display name"),
                    ],
                    &|what| {
                        format!(
                            "{what} of the Proton account signed in to Proton Drive on the phone (UserEntity of {file}), the device's user's."
                        )
                    },
                )
            },
        )?;
    }
    if let Some(cols) = schema.get("AddressEntity").filter(|c| c.contains("email")) {
        let sql = format!(
            "SELECT rowid AS rid, email, {} FROM AddressEntity ORDER BY rowid",
            column_or_null(cols, "", "displayName", "displayName"),
        );
        super::record_query(
            ctx,
            l,
            &sql,
            &RowPhenomena {
                table: "AddressEntity",
                category: "accounts",
                what: "an address of the Proton account signed in to Proton Drive on the phone",
                title: &|t, row| {
                    format!(
                        "Proton Drive address {}",
                        raw(t, row, "email").unwrap_or_else(|| "?".into())
                    )
                },
                fields: &[
                    ("email", FactType::Email, "e-mail"),
                    ("displayName", FactType::Name, "display name"),
                ],
                times: &[],
            },
            &mut |inv, t, row| {
                if let Some(e) = t.get(row, "email") {
                    own.insert(e.to_lowercase());
                }
                observe_columns(
                    ctx,
                    "owner",
                    "device owner",
                    t,
                    row,
                    inv,
                    &[
                        ("email", IdType::Email, "The address"),
                        ("displayName", IdType::DisplayName, "The display name"),
                    ],
                    &|what| {
                        format!(
                            "{what} of the Proton account signed in to Proton Drive on the phone (AddressEntity of {file}), the device's user's."
                        )
                    },
                )
            },
        )?;
    }
    Ok(own)
}

/// `Proton Drive <folder|file|album|link> <id>`, by the link's stored type.
fn link_title(t: &crate::outputs::Table, row: &[Option<String>]) -> String {
    let kind = match t.get(row, "type") {
        Some("1") => "folder",
        Some("2") => "file",
        Some("3") => "album",
        _ => "link",
    };
    format!(
        "Proton Drive {kind} {}",
        raw(t, row, "link_id").unwrap_or_else(|| "?".into())
    )
}

/// `LinkEntity`: the drive's files, folders and albums.
fn links(ctx: &AgentCtx<'_>, l: &Located, schema: &Schema) -> Result<(), RuntimeError> {
    let Some(cols) = schema.get("LinkEntity").filter(|c| c.contains("id")) else {
        if schema.contains_key("LinkEntity") {
            crate::calls::require_columns(
                ctx,
                &artefact_name(&l.tree, &l.path),
                "Proton Drive's db-drive",
                "LinkEntity",
                &schema["LinkEntity"],
                &["id"],
            )?;
        }
        return Ok(());
    };
    let k = |c: &str| column_or_null(cols, "k.", c, c);
    // the name: said to be a PGP message when it is one (never quoted), else as stored
    let (name, encrypted) = if cols.contains("name") {
        (
            "CASE WHEN k.name NOT LIKE '-----BEGIN PGP%' THEN k.name END AS name",
            "CASE WHEN k.name LIKE '-----BEGIN PGP%' THEN 'a PGP message' END AS name_encrypted",
        )
    } else {
        ("NULL AS name", "NULL AS name_encrypted")
    };
    let capture = if has(
        schema,
        "LinkFilePropertiesEntity",
        &[
            "file_user_id",
            "file_share_id",
            "file_link_id",
            "capture_time",
        ],
    ) && cols.contains("user_id")
        && cols.contains("share_id")
    {
        "(SELECT p.capture_time FROM LinkFilePropertiesEntity p WHERE p.file_user_id = k.user_id AND p.file_share_id = k.share_id AND p.file_link_id = k.id) AS capture_time"
    } else {
        "NULL AS capture_time"
    };
    let sql = format!(
        "SELECT k.rowid AS rid, k.id AS link_id, {}, {}, {}, {}, {name}, {encrypted}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {capture} FROM LinkEntity k ORDER BY k.rowid",
        column_or_null(cols, "k.", "share_id", "share_id"),
        column_or_null(cols, "k.", "parent_id", "parent_id"),
        k("type"),
        k("state"),
        k("mime_type"),
        k("size"),
        k("is_shared"),
        k("number_of_accesses"),
        k("signature_address"),
        k("name_signature_email"),
        k("creation_time"),
        k("last_modified"),
        k("trashed_time"),
        k("expiration_time"),
        k("share_url_expiration_time"),
    );
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "LinkEntity",
            category: "files",
            what: "a file, folder or album of the Proton Drive account as the app last listed it (type as stored: 1 folder, 2 file, 3 album; state as stored: 0 draft, 1 active, 2 trashed, 3 deleted, 4 restoring; the name is kept encrypted by the app and never decrypted; size in bytes; times Unix seconds)",
            title: &link_title,
            fields: &[
                ("link_id", FactType::Identifier, "link id"),
                ("share_id", FactType::Identifier, "share id"),
                ("parent_id", FactType::Identifier, "parent id"),
                ("type", FactType::Text, "type"),
                ("state", FactType::Text, "state"),
                ("name", FactType::Name, "name"),
                ("name_encrypted", FactType::Text, "name kept encrypted as"),
                ("mime_type", FactType::Text, "MIME type"),
                ("size", FactType::Count, "size"),
                ("is_shared", FactType::Text, "shared"),
                (
                    "number_of_accesses",
                    FactType::Count,
                    "public link accesses",
                ),
                ("signature_address", FactType::Email, "signed by"),
                ("name_signature_email", FactType::Email, "name signed by"),
            ],
            times: &[
                ("creation_time", "Proton Drive item created", unix_seconds),
                ("last_modified", "Proton Drive item modified", unix_seconds),
                ("trashed_time", "Proton Drive item trashed", unix_seconds),
                ("expiration_time", "Proton Drive item expires", unix_seconds),
                (
                    "share_url_expiration_time",
                    "Proton Drive public link expires",
                    unix_seconds,
                ),
                ("capture_time", "Proton Drive photo taken", unix_seconds),
            ],
        },
        &mut |_, _, _| Ok(()),
    )
}

/// `ShareEntity` and `ShareMembershipEntity`: the shares and who invited the account to them.
fn shares(
    ctx: &AgentCtx<'_>,
    l: &Located,
    schema: &Schema,
    own: &BTreeSet<String>,
) -> Result<(), RuntimeError> {
    if let Some(cols) = schema.get("ShareEntity").filter(|c| c.contains("id")) {
        let s = |c: &str| column_or_null(cols, "", c, c);
        let sql = format!(
            "SELECT rowid AS rid, id AS share_id, {}, {}, {}, {}, {}, {}, {}, {}, {}, {} FROM ShareEntity ORDER BY rowid",
            s("volume_id"),
            s("link_id"),
            s("type"),
            s("volume_type"),
            s("flags"),
            s("locked"),
            s("creator_email"),
            s("editors_can_share"),
            s("address_id"),
            s("creation_time"),
        );
        super::record_query(
            ctx,
            l,
            &sql,
            &RowPhenomena {
                table: "ShareEntity",
                category: "files",
                what: "a Proton Drive share the account has on the phone (a volume's root, a shared folder or file, a device or photo share; type, volume type and flags as stored; created Unix seconds; its keys and passphrase are never read)",
                title: &|t, row| {
                    format!(
                        "Proton Drive share {}",
                        raw(t, row, "share_id").unwrap_or_else(|| "?".into())
                    )
                },
                fields: &[
                    ("share_id", FactType::Identifier, "share id"),
                    ("volume_id", FactType::Identifier, "volume id"),
                    ("link_id", FactType::Identifier, "root link id"),
                    ("type", FactType::Text, "type"),
                    ("volume_type", FactType::Text, "volume type"),
                    ("flags", FactType::Text, "flags"),
                    ("locked", FactType::Text, "locked"),
                    ("creator_email", FactType::Email, "creator"),
                    ("editors_can_share", FactType::Text, "editors may share"),
                    ("address_id", FactType::Identifier, "address id"),
                ],
                times: &[("creation_time", "Proton Drive share created", unix_seconds)],
            },
            &mut |_, _, _| Ok(()),
        )?;
    }
    if let Some(cols) = schema
        .get("ShareMembershipEntity")
        .filter(|c| c.contains("share_id"))
    {
        let m = |c: &str| column_or_null(cols, "", c, c);
        let sql = format!(
            "SELECT rowid AS rid, share_id, {}, {}, {}, {} FROM ShareMembershipEntity ORDER BY rowid",
            m("inviter_email"),
            m("invitee_email"),
            m("permissions"),
            m("create_time"),
        );
        let file = l.name().to_string();
        super::record_query(
            ctx,
            l,
            &sql,
            &RowPhenomena {
                table: "ShareMembershipEntity",
                category: "files",
                what: "the account's membership of a Proton Drive share: who invited whom (permissions as stored; created Unix seconds; its key packet is never read)",
                title: &|t, row| {
                    let share = raw(t, row, "share_id").unwrap_or_else(|| "?".into());
                    match raw(t, row, "inviter_email") {
                        Some(by) => format!("Proton Drive share {share} shared by {by}"),
                        None => format!("Proton Drive share {share} membership"),
                    }
                },
                fields: &[
                    ("share_id", FactType::Identifier, "share id"),
                    ("inviter_email", FactType::Email, "invited by"),
                    ("invitee_email", FactType::Email, "invitee"),
                    ("permissions", FactType::Text, "permissions"),
                ],
                times: &[(
                    "create_time",
                    "Proton Drive share membership created",
                    unix_seconds,
                )],
            },
            &mut |inv, t, row| {
                let (Some(by), invitee) =
                    (t.get(row, "inviter_email"), t.get(row, "invitee_email"))
                else {
                    return Ok(());
                };
                // the invitee is the account itself: its address is one of its own
                let mut mine = own.clone();
                if let Some(i) = invitee {
                    mine.insert(i.to_lowercase());
                }
                observe_correspondents(ctx, by, &mine, inv, &|address| {
                    format!(
                        "{address} invited the Proton account signed in on the phone to a Proton Drive share (ShareMembershipEntity of {file})."
                    )
                })
            },
        )?;
    }
    Ok(())
}
