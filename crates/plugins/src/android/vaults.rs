//! "Hide my files" vault apps (after [`super::nqvault`]): apps that move the user's pictures,
//! videos, documents, notes and contacts out of sight, or lock other apps, behind a PIN or a
//! fake calculator. ALEAPP's `galleryVault`, `HideX`, `vaulty_files` and `vaulty_info`,
//! `calculatorLockVault`:
//!
//! | store | table | phenomenon | fields |
//! |---|---|---|---|
//! | GalleryVault `com.thinkyeah.galleryvault/databases/galleryvault.db` | `file_v1` (with `folder_v1`, `recycle_bin_v1`) | one `files` per hidden file ("Hidden in GalleryVault: <name>") | name, original path (where it was taken from), the vault object's UUID, folder, MIME type, size, width, height, video length, type, encrypt, storage, complete and delete states, source; hidden, last modified and moved to the recycle bin (Unix ms) |
//! | | `break_in_report` | one `app_usage` per failed unlock ("GalleryVault break-in attempt") | when (Unix ms), the code entered, the lock type, the intruder photo's path, latitude, longitude, address, unread |
//! | HideX `com.flatfish.cal.privacy/databases/hidex.db` | `p_lock_app` | one `apps` per app ("App locked by HideX: <package>") | package, id, active |
//! | Vaulty `com.theronrogers.vaultyfree/databases/media.db` | `Media` | one `files` per hidden file ("Hidden in Vaulty: <original name>") | original path and name, where the vault keeps it (`_data`), MIME type, id; `date_added` (Unix seconds: the file's creation) and `date_modified` (Unix ms: when hidden), as the published research reads them (not re-verified: said) |
//! | Vaulty `shared_prefs/com.theronrogers.vaultyfree_preferences.xml` | — | one `accounts` (through [`super::prefsaccount`]) | the Google Drive account it backs up to, the security question, the vault's location, the PIN's and the answer's hashes (base64 of their MD5, as stored: not brute-forced here, the examiner's lead) |
//! | Calculator Lock `com.calculator.lock.hide.photo.video/databases/note_contact.db` | `Hide`, `File` | one `files` per hidden file ("Hidden in Calculator Lock: <name>", "Kept in Calculator Lock: <title>") | the name in the vault's `.Calculator_Lock` folder and the path recorded with it (where it was); a kept file's title, path, original path, extension, date |
//! | | `Note`, `Contact`, `Delete_Data`, `History` | one `notes` per note, `contacts` per contact, `files` per deletion, `web` per page visited in its browser | title and text; name and number; name; page title, URL, image; each date as stored |
//!
//! Calculator Lock writes its dates as day-first text without a time (`16-06-2024`,
//! `16/06/2024`): facts, not times (a time of day would be made up). The media themselves are not
//! decoded here (GalleryVault's objects are DES-wrapped, Vaulty's obfuscated). Columns are
//! taken by name (absent ones NULL: older releases keep fewer); a store without its main table
//! (`file_v1`, `p_lock_app`, `Media`), a Calculator Lock store with none of its tables, or a table
//! without the column it is read for is noted; a preferences file that holds no map too.
//!
//! Identities: Vaulty's Drive backup account is the device user's Google account (`owner`);
//! each Calculator Lock contact with an id is a `calculatorlock:<id>` person with their number
//! and name (a contact the user hid). Nothing else: a vault says what was hidden, not by whom.

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{FactType, IdType};
use std::collections::BTreeSet;

use super::Located;
use super::prefsaccount::{PrefsAccount, prefs_account};
use crate::calls::{column_or_null, qualified_or_null, require_columns};
use crate::drafts::{RowPhenomena, headline, unix_millis, unix_seconds};
use crate::identity::{artefact_name, table_columns};
use crate::outputs::raw;

/// Whether `l` is GalleryVault's database.
pub fn is_galleryvault(l: &Located) -> bool {
    l.name() == "galleryvault.db" && l.path.contains("/com.thinkyeah.galleryvault/databases/")
}

/// Whether `l` is HideX's database.
pub fn is_hidex(l: &Located) -> bool {
    l.name() == "hidex.db" && l.path.contains("/com.flatfish.cal.privacy/databases/")
}

/// Whether `l` is Vaulty's media database.
pub fn is_vaulty(l: &Located) -> bool {
    l.name() == "media.db" && l.path.contains("/com.theronrogers.vaultyfree/databases/")
}

/// Whether `l` is Vaulty's preferences.
pub fn is_vaulty_prefs(l: &Located) -> bool {
    l.name() == "com.theronrogers.vaultyfree_preferences.xml"
        && l.path
            .contains("/com.theronrogers.vaultyfree/shared_prefs/")
}

/// Whether `l` is Calculator Lock's database.
pub fn is_calculator(l: &Located) -> bool {
    l.name() == "note_contact.db" && l.path.contains("/com.calculator.lock.hide.photo.video/")
}

/// Whether `l` is one of the vault apps' stores.
pub fn is_store(l: &Located) -> bool {
    is_galleryvault(l) || is_hidex(l) || is_vaulty(l) || is_vaulty_prefs(l) || is_calculator(l)
}

/// One vault app's store, read as its app keeps it.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    if is_galleryvault(l) {
        gallery_vault(ctx, l)
    } else if is_hidex(l) {
        hidex(ctx, l)
    } else if is_vaulty(l) {
        vaulty(ctx, l)
    } else if is_vaulty_prefs(l) {
        vaulty_prefs(ctx, l)
    } else if is_calculator(l) {
        calculator(ctx, l)
    } else {
        Ok(())
    }
}

/// The columns of `table` when the store has it, else none.
fn columns_of(
    ctx: &AgentCtx<'_>,
    l: &Located,
    tables: &[String],
    table: &str,
) -> Result<BTreeSet<String>, RuntimeError> {
    if tables.iter().any(|t| t == table) {
        table_columns(ctx, &l.tree, &l.path, table)
    } else {
        Ok(BTreeSet::new())
    }
}

/// `<prefix><col> AS <col>` of each of `cols` the table has, NULL for the others, joined.
fn optional(cols: &BTreeSet<String>, prefix: &str, names: &[&str]) -> String {
    names
        .iter()
        .map(|c| column_or_null(cols, prefix, c, c))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The file name of the path column `col` (after its last `/`), computed in the query.
fn base_name(cols: &BTreeSet<String>, col: &str, alias: &str) -> String {
    if cols.contains(col) {
        format!("replace({col}, rtrim({col}, replace({col}, '/', '')), '') AS {alias}")
    } else {
        format!("NULL AS {alias}")
    }
}

/// GalleryVault's `galleryvault.db`: the hidden files, the failed unlocks.
fn gallery_vault(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(tables) = super::databases::tables_with(ctx, l, &["file_v1"])? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    let what = "GalleryVault's galleryvault.db";
    let cols = table_columns(ctx, &l.tree, &l.path, "file_v1")?;
    if !require_columns(ctx, &name, what, "file_v1", &cols, &["name"])? {
        return Ok(());
    }
    let folders = columns_of(ctx, l, &tables, "folder_v1")?;
    let folder =
        if cols.contains("folder_id") && folders.contains("_id") && folders.contains("name") {
            "(SELECT d.name FROM folder_v1 d WHERE d._id = f.folder_id) AS folder"
        } else {
            "NULL AS folder"
        };
    let bin = columns_of(ctx, l, &tables, "recycle_bin_v1")?;
    let recycled = if cols.contains("_id") && bin.contains("file_id") && bin.contains("delete_time")
    {
        "(SELECT r.delete_time FROM recycle_bin_v1 r WHERE r.file_id = f._id) AS recycled"
    } else {
        "NULL AS recycled"
    };
    let sql = format!(
        "SELECT f.rowid AS rid, f.name AS name, {}, {folder}, {recycled} FROM file_v1 f ORDER BY f.rowid",
        optional(
            &cols,
            "f.",
            &[
                "uuid",
                "original_path",
                "mime_type",
                "file_size",
                "image_width",
                "image_height",
                "video_duration",
                "file_type",
                "encrypt_state",
                "storage_type",
                "complete_state",
                "delete_state",
                "source",
                "added_time_utc",
                "file_last_modified_time_utc",
            ],
        ),
    );
    let title = |t: &crate::outputs::Table, row: &[Option<String>]| {
        format!(
            "Hidden in GalleryVault: {}",
            raw(t, row, "name").unwrap_or_default()
        )
    };
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "file_v1",
            category: "files",
            what: "a file the user hid in GalleryVault: where it was taken from and the vault object (its UUID) that keeps it, encrypted; added_time_utc is when it was hidden, file_last_modified_time_utc the file's own last change, the recycle bin's delete_time when it was deleted in the vault (Unix milliseconds each); states and types as stored",
            title: &title,
            fields: &[
                ("name", FactType::Name, "name"),
                ("original_path", FactType::Path, "hidden from"),
                ("uuid", FactType::Identifier, "vault object"),
                ("folder", FactType::Name, "folder"),
                ("mime_type", FactType::Text, "type"),
                ("file_size", FactType::Count, "size"),
                ("image_width", FactType::Count, "width"),
                ("image_height", FactType::Count, "height"),
                ("video_duration", FactType::Count, "video length"),
                ("file_type", FactType::Text, "file type"),
                ("encrypt_state", FactType::Text, "encrypt state"),
                ("storage_type", FactType::Text, "storage"),
                ("complete_state", FactType::Text, "complete state"),
                ("delete_state", FactType::Text, "delete state"),
                ("source", FactType::Text, "source"),
            ],
            times: &[
                ("added_time_utc", "File hidden in GalleryVault", unix_millis),
                (
                    "file_last_modified_time_utc",
                    "Hidden file last modified (GalleryVault)",
                    unix_millis,
                ),
                (
                    "recycled",
                    "Hidden file deleted to GalleryVault's recycle bin",
                    unix_millis,
                ),
            ],
        },
        &mut |_, _, _| Ok(()),
    )?;
    if !tables.iter().any(|t| t == "break_in_report") {
        return Ok(());
    }
    let cols = table_columns(ctx, &l.tree, &l.path, "break_in_report")?;
    if !require_columns(ctx, &name, what, "break_in_report", &cols, &["timestamp"])? {
        return Ok(());
    }
    let sql = format!(
        "SELECT rowid AS rid, timestamp, {} FROM break_in_report ORDER BY rowid",
        optional(
            &cols,
            "",
            &[
                "wrongly_attempt_code",
                "locking_type",
                "photo_path",
                "location_latitude",
                "location_longitude",
                "address",
                "is_new",
            ],
        ),
    );
    let title = |_: &crate::outputs::Table, _: &[Option<String>]| {
        "GalleryVault break-in attempt".to_string()
    };
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "break_in_report",
            category: "app_usage",
            what: "a failed attempt to open GalleryVault: the wrong code entered, the photo the app took of whoever held the phone and where the phone was (timestamp Unix milliseconds)",
            title: &title,
            fields: &[
                ("wrongly_attempt_code", FactType::Text, "code entered"),
                ("locking_type", FactType::Text, "lock type"),
                ("photo_path", FactType::Path, "intruder photo"),
                ("location_latitude", FactType::Text, "latitude"),
                ("location_longitude", FactType::Text, "longitude"),
                ("address", FactType::Text, "address"),
                ("is_new", FactType::Text, "unread"),
            ],
            times: &[(
                "timestamp",
                "Wrong code entered in GalleryVault",
                unix_millis,
            )],
        },
        &mut |_, _, _| Ok(()),
    )
}

/// HideX's `hidex.db`: the apps it locks.
fn hidex(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    if super::databases::tables_with(ctx, l, &["p_lock_app"])?.is_none() {
        return Ok(());
    }
    let name = artefact_name(&l.tree, &l.path);
    let cols = table_columns(ctx, &l.tree, &l.path, "p_lock_app")?;
    if !require_columns(
        ctx,
        &name,
        "HideX's hidex.db",
        "p_lock_app",
        &cols,
        &["packageName"],
    )? {
        return Ok(());
    }
    let sql = format!(
        "SELECT rowid AS rid, packageName, {}, {} FROM p_lock_app ORDER BY rowid",
        column_or_null(&cols, "", "id", "lock_id"),
        column_or_null(&cols, "", "isActive", "isActive"),
    );
    let title = |t: &crate::outputs::Table, row: &[Option<String>]| {
        format!(
            "App locked by HideX: {}",
            raw(t, row, "packageName").unwrap_or_default()
        )
    };
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "p_lock_app",
            category: "apps",
            what: "an app the user hid or locked behind HideX (isActive 1 while locked)",
            title: &title,
            fields: &[
                ("packageName", FactType::Identifier, "app"),
                ("lock_id", FactType::Identifier, "id"),
                ("isActive", FactType::Text, "active"),
            ],
            times: &[],
        },
        &mut |_, _, _| Ok(()),
    )
}

/// Vaulty's `media.db`: the hidden files.
fn vaulty(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    if super::databases::tables_with(ctx, l, &["Media"])?.is_none() {
        return Ok(());
    }
    let name = artefact_name(&l.tree, &l.path);
    let cols = table_columns(ctx, &l.tree, &l.path, "Media")?;
    if !require_columns(ctx, &name, "Vaulty's media.db", "Media", &cols, &["_data"])? {
        return Ok(());
    }
    let sql = format!(
        "SELECT rowid AS rid, _data AS vault_path, {}, {}, {}, {} FROM Media ORDER BY rowid",
        column_or_null(&cols, "", "_id", "media_id"),
        base_name(&cols, "path", "original_name"),
        optional(&cols, "", &["path", "mime_type"]),
        optional(&cols, "", &["date_added", "date_modified"]),
    );
    let title = |t: &crate::outputs::Table, row: &[Option<String>]| {
        format!(
            "Hidden in Vaulty: {}",
            raw(t, row, "original_name")
                .or_else(|| raw(t, row, "vault_path"))
                .unwrap_or_default()
        )
    };
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "Media",
            category: "files",
            what: "a file the user hid in Vaulty: where it was (path) and where the vault keeps it (_data); as the published research on Vaulty reads the columns (not re-verified), date_added is the file's creation in Unix seconds and date_modified when it was hidden in Unix milliseconds",
            title: &title,
            fields: &[
                ("original_name", FactType::Name, "original name"),
                ("path", FactType::Path, "hidden from"),
                ("vault_path", FactType::Path, "kept at"),
                ("mime_type", FactType::Text, "type"),
                ("media_id", FactType::Identifier, "id"),
            ],
            times: &[
                (
                    "date_added",
                    "Hidden file created (as Vaulty recorded it)",
                    unix_seconds,
                ),
                ("date_modified", "File hidden in Vaulty", unix_millis),
            ],
        },
        &mut |_, _, _| Ok(()),
    )
}

/// Vaulty's preferences: its Drive backup account, security question and hashes.
fn vaulty_prefs(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    prefs_account(
        ctx,
        l,
        &PrefsAccount {
            app: "Vaulty",
            title: &["drive_account_name"],
            facts: &[
                (
                    "drive_account_name",
                    FactType::Email,
                    "Google Drive backup account",
                ),
                ("security_question", FactType::Text, "security question"),
                ("location", FactType::Text, "vault location"),
                (
                    "password_hash",
                    FactType::Hash,
                    "PIN hash (base64 of its MD5, not brute-forced here)",
                ),
                (
                    "security_answer_hash",
                    FactType::Hash,
                    "security answer hash (base64 of its MD5)",
                ),
            ],
            times: &[],
            owner: &[(
                "drive_account_name",
                IdType::GoogleAccount,
                "The Google account Vaulty backs its vault up to",
            )],
        },
    )
}

/// Calculator Lock's `note_contact.db`: hidden files, kept files, notes, contacts, deletions
/// and the pages its browser visited.
fn calculator(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(tables) = super::databases::tables_with(ctx, l, &[])? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    let what = "Calculator Lock's note_contact.db";
    let has = |t: &str| tables.iter().any(|x| x == t);
    if !["Hide", "File", "Note", "Contact"].iter().any(|&t| has(t)) {
        ctx.unparsed(
            &name,
            "not Calculator Lock's note_contact.db: none of Hide, File, Note, Contact",
            None,
        )?;
        return Ok(());
    }
    let dated = "dates are day-first text without a time, quoted as stored";
    let read = |table: &str, needed: &[&str]| -> Result<Option<BTreeSet<String>>, RuntimeError> {
        if !has(table) {
            return Ok(None);
        }
        let cols = table_columns(ctx, &l.tree, &l.path, table)?;
        Ok(require_columns(ctx, &name, what, table, &cols, needed)?.then_some(cols))
    };
    if let Some(cols) = read("Hide", &["hide_name"])? {
        let sql = format!(
            "SELECT rowid AS rid, hide_name, {}, {} FROM Hide ORDER BY rowid",
            column_or_null(&cols, "", "hide_path", "hide_path"),
            base_name(&cols, "hide_path", "original_name"),
        );
        let title = |t: &crate::outputs::Table, row: &[Option<String>]| {
            format!(
                "Hidden in Calculator Lock: {}",
                raw(t, row, "hide_name").unwrap_or_default()
            )
        };
        super::record_query(
            ctx,
            l,
            &sql,
            &RowPhenomena {
                table: "Hide",
                category: "files",
                what: "a file the user hid behind Calculator Lock's calculator: its name in the app's .Calculator_Lock folder and the path recorded with it (where it was)",
                title: &title,
                fields: &[
                    ("hide_name", FactType::Name, "name in the vault"),
                    ("hide_path", FactType::Path, "recorded path"),
                    ("original_name", FactType::Name, "original name"),
                ],
                times: &[],
            },
            &mut |_, _, _| Ok(()),
        )?;
    }
    if let Some(cols) = read("File", &["file_path"])? {
        let sql = format!(
            "SELECT rowid AS rid, file_path, {} FROM File ORDER BY rowid",
            optional(
                &cols,
                "",
                &[
                    "file_id",
                    "file_title",
                    "file_org_path",
                    "file_extend",
                    "file_date"
                ],
            ),
        );
        let title = |t: &crate::outputs::Table, row: &[Option<String>]| {
            format!(
                "Kept in Calculator Lock: {}",
                raw(t, row, "file_title")
                    .or_else(|| raw(t, row, "file_path"))
                    .unwrap_or_default()
            )
        };
        super::record_query(
            ctx,
            l,
            &sql,
            &RowPhenomena {
                table: "File",
                category: "files",
                what: &format!("a file kept in Calculator Lock's vault ({dated})"),
                title: &title,
                fields: &[
                    ("file_title", FactType::Name, "title"),
                    ("file_path", FactType::Path, "kept at"),
                    ("file_org_path", FactType::Path, "original path"),
                    ("file_extend", FactType::Text, "extension"),
                    ("file_id", FactType::Identifier, "id"),
                    ("file_date", FactType::Text, "date"),
                ],
                times: &[],
            },
            &mut |_, _, _| Ok(()),
        )?;
    }
    if let Some(cols) = read("Note", &["note_data"])? {
        let sql = format!(
            "SELECT rowid AS rid, note_data, {} FROM Note ORDER BY rowid",
            optional(&cols, "", &["note_id", "note_title", "note_date"]),
        );
        let title = |t: &crate::outputs::Table, row: &[Option<String>]| {
            format!(
                "Calculator Lock note: {}",
                headline(
                    &raw(t, row, "note_title")
                        .or_else(|| raw(t, row, "note_data"))
                        .unwrap_or_default()
                )
            )
        };
        super::record_query(
            ctx,
            l,
            &sql,
            &RowPhenomena {
                table: "Note",
                category: "notes",
                what: &format!("a note kept hidden in Calculator Lock ({dated})"),
                title: &title,
                fields: &[
                    ("note_title", FactType::Text, "title"),
                    ("note_data", FactType::Text, "note"),
                    ("note_id", FactType::Identifier, "id"),
                    ("note_date", FactType::Text, "date"),
                ],
                times: &[],
            },
            &mut |_, _, _| Ok(()),
        )?;
    }
    if let Some(cols) = read("Contact", &["contact_number"])? {
        let sql = format!(
            "SELECT rowid AS rid, contact_number, {}, {}, {} FROM Contact ORDER BY rowid",
            column_or_null(&cols, "", "contact_name", "contact_name"),
            column_or_null(&cols, "", "contact_id", "contact_id"),
            qualified_or_null(&cols, "", "contact_id", "calculatorlock", "qualified"),
        );
        let title = |t: &crate::outputs::Table, row: &[Option<String>]| {
            format!(
                "Calculator Lock contact {}",
                raw(t, row, "contact_name")
                    .or_else(|| raw(t, row, "contact_number"))
                    .unwrap_or_default()
            )
        };
        let file = l.name().to_string();
        super::record_query(
            ctx,
            l,
            &sql,
            &RowPhenomena {
                table: "Contact",
                category: "contacts",
                what: "a contact the user kept hidden in Calculator Lock, away from the phone's address book",
                title: &title,
                fields: &[
                    ("contact_name", FactType::Name, "name"),
                    ("contact_number", FactType::Phone, "number"),
                    ("contact_id", FactType::Identifier, "id"),
                ],
                times: &[],
            },
            &mut |inv, t, row| {
                crate::identity::observe_row_person(
                    ctx,
                    t,
                    row,
                    inv,
                    "contact_name",
                    &[
                        ("contact_number", IdType::Phone, "The phone number"),
                        ("contact_name", IdType::DisplayName, "The name"),
                    ],
                    &|what, who| {
                        format!(
                            "{what} of {who}, a contact kept hidden in Calculator Lock's vault ({file})."
                        )
                    },
                )
            },
        )?;
    }
    if let Some(cols) = read("Delete_Data", &["delete_name"])? {
        let sql = format!(
            "SELECT rowid AS rid, delete_name, {} FROM Delete_Data ORDER BY rowid",
            column_or_null(&cols, "", "delete_date", "delete_date"),
        );
        let title = |t: &crate::outputs::Table, row: &[Option<String>]| {
            format!(
                "Deleted in Calculator Lock: {}",
                raw(t, row, "delete_name").unwrap_or_default()
            )
        };
        super::record_query(
            ctx,
            l,
            &sql,
            &RowPhenomena {
                table: "Delete_Data",
                category: "files",
                what: &format!("an item deleted from Calculator Lock's vault ({dated})"),
                title: &title,
                fields: &[
                    ("delete_name", FactType::Name, "name"),
                    ("delete_date", FactType::Text, "date"),
                ],
                times: &[],
            },
            &mut |_, _, _| Ok(()),
        )?;
    }
    if let Some(cols) = read("History", &["history_url"])? {
        let sql = format!(
            "SELECT rowid AS rid, history_url, {} FROM History ORDER BY rowid",
            optional(
                &cols,
                "",
                &[
                    "history_id",
                    "history_name",
                    "history_image",
                    "history_date"
                ],
            ),
        );
        let title = |t: &crate::outputs::Table, row: &[Option<String>]| {
            format!(
                "Calculator Lock browser visit: {}",
                raw(t, row, "history_name")
                    .or_else(|| raw(t, row, "history_url"))
                    .unwrap_or_default()
            )
        };
        super::record_query(
            ctx,
            l,
            &sql,
            &RowPhenomena {
                table: "History",
                category: "web",
                what: &format!("a page visited in Calculator Lock's private browser ({dated})"),
                title: &title,
                fields: &[
                    ("history_name", FactType::Text, "title"),
                    ("history_url", FactType::Url, "URL"),
                    ("history_image", FactType::Text, "image"),
                    ("history_id", FactType::Identifier, "id"),
                    ("history_date", FactType::Text, "date"),
                ],
                times: &[],
            },
            &mut |_, _, _| Ok(()),
        )?;
    }
    Ok(())
}
