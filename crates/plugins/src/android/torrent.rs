//! LibreTorrent and the apps built on it (BitLord), `libretorrent.db`, ALEAPP's
//! `get_libretorrent`: the torrents added to the client. One `files` phenomenon per `Torrent`
//! row — the name, the folder it downloads to, the magnet link, when it was added (`dateAdded`,
//! Unix ms), the error, whether it was paused by hand, still fetching its metadata, its
//! visibility, its id (the info hash). A torrent added is content the user asked for; whether it
//! finished is in the download folder (said). Columns are taken by name (absent ones NULL); a
//! store without `Torrent` or its `name` is noted. Identities: none.

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::FactType;

use super::Located;
use crate::drafts::{Draft, record_draft, unix_millis};
use crate::outputs::raw;

/// Whether `l` is a LibreTorrent store.
pub fn is_store(l: &Located) -> bool {
    l.name() == "libretorrent.db"
}

/// One `libretorrent.db`.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some((name, pages)) = super::table_rows(
        ctx,
        l,
        &super::TableSpec {
            what: "LibreTorrent's libretorrent.db",
            table: "Torrent",
            required: &["name"],
            optional: &[
                "id",
                "downloadPath",
                "dateAdded",
                "error",
                "manuallyPaused",
                "magnet",
                "downloadingMetadata",
                "visibility",
            ],
            rows: "torrents",
        },
        |_| Vec::new(),
    )?
    else {
        return Ok(());
    };
    for (inv, t, row) in pages.rows() {
        let shown = raw(t, row, "name").unwrap_or_else(|| "unnamed".into());
        let mut d = Draft::new("files", format!("Torrent added: {shown}"));
        d.fact(FactType::Path, Some(&l.path), &l.found);
        let mut said = d.fields(
            t,
            row,
            inv,
            &[
                ("name", FactType::Name, "name"),
                ("id", FactType::Hash, "id (info hash)"),
                ("downloadPath", FactType::Path, "download folder"),
                ("magnet", FactType::Url, "magnet link"),
                ("error", FactType::Text, "error"),
                ("visibility", FactType::Text, "visibility"),
            ],
        );
        for (c, what) in [
            ("manuallyPaused", "paused by hand"),
            ("downloadingMetadata", "still fetching its metadata"),
        ] {
            if let Some(v) = t.get(row, c) {
                said.push(format!("{what}: {}", if v == "1" { "yes" } else { "no" }));
            }
        }
        let added = t.get(row, "dateAdded");
        d.time(added, unix_millis(added), "Torrent added", inv);
        d.interpretation = format!(
            "Torrent row {} of {name}: a torrent the device's user added to the client (content asked for; whether it finished is in the download folder); {}.",
            raw(t, row, "rowid").unwrap_or_default(),
            said.join("; "),
        );
        record_draft(ctx, d)?;
    }
    Ok(())
}
