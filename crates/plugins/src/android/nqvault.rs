//! NQ Vault (`com.netqin.ps`), a "hide my photos" vault app, ALEAPP's `NQ_Vault`
//! (`get_NQVault_media`): its database `Android/data/com.netqin.ps/files/Documents/
//! SystemAndroid/Data/322w465ay423xy11` on the shared storage lists every picture and video
//! the user moved into the vault.
//!
//! One `files` phenomenon per `hideimagevideo` row ("Hidden in NQ Vault: <original name>"): the
//! file's original folder and name (where it was before it was hidden), where the vault keeps
//! it (`file_path_new`: a `.bin` whose first 128 bytes the app XORs with a byte of the PIN's
//! hash), when it was hidden (`time`, Unix ms), a video's length (ms), the resolution, the
//! album (and its former name), and the vault's password id (the Java `String.hashCode` of the
//! PIN, as stored). The PIN is not searched for and the media not decoded here (said): the
//! password id is the examiner's lead to both. Columns and the album tables are taken where
//! present; a database without `hideimagevideo` is noted. Identities: none.

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::FactType;

use super::Located;
use crate::calls::column_or_null;
use crate::drafts::{RowPhenomena, unix_millis};
use crate::identity::table_columns;
use crate::outputs::raw;

/// The database's file name.
const NAME: &str = "322w465ay423xy11";

/// Whether `l` is NQ Vault's database.
pub fn is_store(l: &Located) -> bool {
    l.name() == NAME && l.path.contains("/com.netqin.ps/")
}

/// One vault database.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(tables) = super::databases::tables_with(ctx, l, &["hideimagevideo"])? else {
        return Ok(());
    };
    let cols = table_columns(ctx, &l.tree, &l.path, "hideimagevideo")?;
    if !crate::calls::require_columns(
        ctx,
        &crate::identity::artefact_name(&l.tree, &l.path),
        "NQ Vault's database",
        "hideimagevideo",
        &cols,
        &["file_path_new"],
    )? {
        return Ok(());
    }
    let has = |t: &str| tables.iter().any(|x| x == t);
    let c = |col: &str| column_or_null(&cols, "h.", col, col);
    let (album, join_a) = if has("albums") && cols.contains("album_id") {
        (
            "a.album_name AS album",
            " LEFT JOIN albums a ON h.album_id = a._id",
        )
    } else {
        ("NULL AS album", "")
    };
    let (former, join_t) = if has("albumstemp") && cols.contains("album_id") {
        (
            "t.album_name_temp AS former_album",
            " LEFT JOIN albumstemp t ON h.album_id = t.album_temp_id",
        )
    } else {
        ("NULL AS former_album", "")
    };
    let sql = format!(
        "SELECT h.rowid AS rid, h.file_path_new AS file_path_new, {}, {}, {}, {}, {}, {}, {album}, {former} FROM hideimagevideo h{join_a}{join_t} ORDER BY h.rowid",
        c("file_path_from"),
        c("file_name_from"),
        c("time"),
        c("viode_time"),
        c("resolution"),
        c("password_id"),
    );
    let title = |t: &crate::outputs::Table, row: &[Option<String>]| {
        format!(
            "Hidden in NQ Vault: {}",
            raw(t, row, "file_name_from")
                .or_else(|| raw(t, row, "file_path_new"))
                .unwrap_or_default()
        )
    };
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "hideimagevideo",
            category: "files",
            what: "a picture or video the user moved into NQ Vault: where it was and where the vault keeps it (its first 128 bytes XORed with a byte of the PIN's hash; neither the PIN nor the media is recovered here — the password id, the PIN's Java String.hashCode, is the lead); time is Unix milliseconds, viode_time a video's length in ms",
            title: &title,
            fields: &[
                ("file_path_from", FactType::Path, "hidden from"),
                ("file_name_from", FactType::Name, "original name"),
                ("file_path_new", FactType::Path, "kept at"),
                ("viode_time", FactType::Count, "video length (ms)"),
                ("resolution", FactType::Text, "resolution"),
                ("album", FactType::Name, "album"),
                ("former_album", FactType::Name, "former album"),
                ("password_id", FactType::Identifier, "password id"),
            ],
            times: &[("time", "File hidden in the vault", unix_millis)],
        },
        &mut |_, _, _| Ok(()),
    )
}
