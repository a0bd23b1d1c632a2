//! The albums of the Photos library (`Media/PhotoData/Photos.sqlite`, and any other
//! `*.photoslibrary/database/Photos.sqlite`) and the assets each holds, the fields of iLEAPP's
//! `Ph020AlbumsNAD` (every `ZGENERICALBUM` row), `Ph021AlbumsNonSharedNAD` (an album's folder,
//! sort, pinned, unseen and cloud state) and `Ph022AssetsInNonSharedAlbums` (the assets in an
//! album): what [`super::photos`] does not read. An album item names its asset by `Z_PK`, file
//! and UUID (with its hidden and trashed flags, as Ph022 shows them); the asset's other fields
//! and times stay that reader's.
//!
//! | table | phenomenon | fields |
//! |---|---|---|
//! | `ZGENERICALBUM` (⋈ its parent folder) | one `media` per row ("Photos album <Z_PK>: <title>") | kind as stored and its meaning, title, UUID, cloud GUID, import session, importing or creating app's bundle id, Core Data entity, cached photo, video and item counts, pending and unseen items, privacy state (as stored), in Recently Deleted, deleted from iCloud, pinned, unseen content, sort (by hand, date or title; newest or oldest first), the parent folder's title, UUID and kind, the assets the join table lists for it (counted in the query); created (`ZCREATIONDATE`, iOS 14+), its earliest and latest asset (`ZSTARTDATE`, `ZENDDATE`), trashed |
//! | the album–asset join table ⋈ `ZGENERICALBUM` ⋈ asset | one `media` per row ("Photos album <Z_PK> holds <file>") | the album (`Z_PK`, title, UUID, kind), the asset (`Z_PK`, `ZDIRECTORY/ZFILENAME`, UUID, hidden, in Recently Deleted), its position in the album (`Z_FOK_<n>ASSETS`) |
//!
//! Kinds, decoded in the query (iLEAPP's meanings, our words): 2 an album the user made, 1505
//! an iCloud Shared Album, 1506 an import session, 1508 a My Projects album, 1509 media shared in
//! a Messages conversation (Shared with You), 1510 duplicates pending a merge, 3571–3573
//! progress albums (sync, over-the-air restore, file-system import), 3998 the projects' root
//! folder, 3999 the albums' root folder, 4000 a folder of albums; another kind is kept as
//! `code <n>`. Every kind is recorded, as Ph020 lists them; Ph021 and Ph022 keep to kind 2, the
//! kind is in each row here. The Hidden and Recently Deleted albums are no rows: an asset's
//! hidden and trashed flags are (read here for an album's items, and by [`super::photos`]).
//!
//! Schema drift: the join table's name carries Core Data entity numbers that change with the
//! iOS version (`Z_26ASSETS` with `Z_34ASSETS` on iOS 13, `Z_26ASSETS`/`Z_27ASSETS`/
//! `Z_28ASSETS`/`Z_30ASSETS` with `Z_3ASSETS` later, …): it is found by its columns — the table
//! `Z_<n>ASSETS` holding `Z_<n>ALBUMS` and a `Z_<m>ASSETS` column —, never by a number. The asset
//! table is `ZASSET` (iOS 14+) or `ZGENERICASSET` (11–13); `ZCREATIONDATE` is iOS 14+, the
//! importing app `ZIMPORTEDBYBUNDLEIDENTIFIER` (iOS 15+) or `ZCREATORBUNDLEID` (14), the privacy
//! state iOS 18; every column is read where present. A library without `ZGENERICALBUM` gives
//! nothing (a database that is no library is [`super::photos`]'s to note); one without its
//! `Z_PK` is noted, as is one without the join table (the albums still read); one
//! that does not open is noted by the call. Albums and album items are read in pages up to the
//! row cap, then summarised (count).
//!
//! Times are Core Data seconds since 2001. Not read: album lists (`Z_<n>ALBUMLISTS`), shared
//! album invitations and the Shared Library (other iLEAPP modules), project documents and custom
//! queries (iLEAPP lists them as still testing). No identities: an album names no person.

use std::collections::{BTreeMap, BTreeSet};

use masf_agents::RuntimeError;
use masf_graph::FactType;
use masf_tools::Invoked;

use super::photospeople::{Codes, decode, is_library};
use super::{Draft, Run, core_data_encoding, raw, summarise};
use crate::calls::{column_expr, column_or_null, require_columns};
use crate::outputs::{Table, columns_by_table};

const ALBUM: &str = "ZGENERICALBUM";

/// Triage of the albums of every Photos library of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    run.each("Photos.sqlite", |find, path| {
        if is_library(path) {
            one(run, find, path)
        } else {
            Ok(())
        }
    })
}

const KIND: Codes = &[
    (2, Some("an album the user made")),
    (1505, Some("an iCloud Shared Album")),
    (1506, Some("an import session (assets imported together)")),
    (1508, Some("a My Projects album (a card, calendar or book)")),
    (
        1509,
        Some("media shared in a Messages conversation (Shared with You)"),
    ),
    (1510, Some("an album of duplicates pending a merge")),
    (3571, Some("a progress album (sync)")),
    (3572, Some("a progress album (over-the-air restore)")),
    (3573, Some("a progress album (file-system import)")),
    (3998, Some("the root folder of projects")),
    (3999, Some("the root folder of albums")),
    (4000, Some("a folder of albums")),
];
const TRASHED: Codes = &[(1, Some("in Recently Deleted"))];
const CLOUD_DELETED: Codes = &[(1, Some("deleted from iCloud Photos"))];
const PINNED: Codes = &[(1, Some("pinned"))];
const UNSEEN: Codes = &[(1, Some("has content not yet seen"))];
const SORT: Codes = &[
    (0, Some("sorted by hand")),
    (1, Some("sorted by date")),
    (5, Some("sorted by title")),
];
const SORT_ORDER: Codes = &[(0, Some("newest first")), (1, Some("oldest first"))];
const HIDDEN: Codes = &[(1, Some("hidden"))];

/// The album columns read as stored: (column, alias, fact type, label).
const ALBUM_COLS: [(&str, &str, FactType, &str); 14] = [
    ("ZKIND", "kind", FactType::Count, "kind"),
    ("ZTITLE", "title", FactType::Text, "title"),
    ("ZUUID", "uuid", FactType::Identifier, "UUID"),
    (
        "ZCLOUDGUID",
        "cloud_guid",
        FactType::Identifier,
        "cloud GUID",
    ),
    (
        "ZIMPORTSESSIONID",
        "import_session",
        FactType::Identifier,
        "import session",
    ),
    (
        "ZIMPORTEDBYBUNDLEIDENTIFIER",
        "imported_by",
        FactType::Identifier,
        "imported by",
    ),
    (
        "ZCREATORBUNDLEID",
        "creator",
        FactType::Identifier,
        "creator bundle id",
    ),
    ("Z_ENT", "entity", FactType::Count, "Core Data entity"),
    ("ZCACHEDPHOTOSCOUNT", "photos", FactType::Count, "photos"),
    ("ZCACHEDVIDEOSCOUNT", "videos", FactType::Count, "videos"),
    ("ZCACHEDCOUNT", "items", FactType::Count, "items"),
    (
        "ZPENDINGITEMSCOUNT",
        "pending",
        FactType::Count,
        "pending items",
    ),
    (
        "ZUNSEENASSETSCOUNT",
        "unseen",
        FactType::Count,
        "unseen items",
    ),
    (
        "ZPRIVACYSTATE",
        "privacy",
        FactType::Count,
        "privacy state (as stored)",
    ),
];

/// The album codes decoded in the query: (column, alias, label, codes, whether an unknown code
/// is kept).
const ALBUM_CODES: [(&str, &str, &str, Codes, bool); 7] = [
    ("ZKIND", "kind_meaning", "which is", KIND, true),
    ("ZTRASHEDSTATE", "trashed", "state", TRASHED, false),
    (
        "ZCLOUDDELETESTATE",
        "cloud_deleted",
        "state",
        CLOUD_DELETED,
        false,
    ),
    ("ZISPINNED", "pinned", "state", PINNED, false),
    (
        "ZHASUNSEENCONTENT",
        "unseen_content",
        "state",
        UNSEEN,
        false,
    ),
    ("ZCUSTOMSORTKEY", "sort", "sort", SORT, true),
    (
        "ZCUSTOMSORTASCENDING",
        "sort_order",
        "order",
        SORT_ORDER,
        false,
    ),
];

/// The album times: (column, alias, description).
const ALBUM_TIMES: [(&str, &str, &str); 4] = [
    ("ZCREATIONDATE", "created", "Photos album created"),
    ("ZSTARTDATE", "first_asset", "Photos album's earliest asset"),
    ("ZENDDATE", "last_asset", "Photos album's latest asset"),
    ("ZTRASHEDDATE", "trashed_date", "Photos album trashed"),
];

/// The album–asset join table: its name, album and asset columns, and position column.
struct Join {
    table: String,
    album: String,
    asset: String,
    position: Option<String>,
}

/// Whether `s` is `<prefix><digits><suffix>` (digits only, at least one).
fn numbered<'a>(s: &'a str, prefix: &str, suffix: &str) -> Option<&'a str> {
    let n = s.strip_prefix(prefix)?.strip_suffix(suffix)?;
    (!n.is_empty() && n.bytes().all(|b| b.is_ascii_digit())).then_some(n)
}

/// The album–asset join table, found by its columns: `Z_<n>ASSETS` holding `Z_<n>ALBUMS` and one
/// `Z_<m>ASSETS` column (the names' numbers are Core Data entity numbers, which change with the
/// iOS version).
fn join_table(schema: &BTreeMap<String, BTreeSet<String>>) -> Option<Join> {
    schema.iter().find_map(|(name, cols)| {
        let n = numbered(name, "Z_", "ASSETS")?;
        let album = format!("Z_{n}ALBUMS");
        if !cols.contains(&album) {
            return None;
        }
        let asset = cols
            .iter()
            .find(|c| numbered(c, "Z_", "ASSETS").is_some())?
            .clone();
        let position = format!("Z_FOK_{}", &asset[2..]);
        Some(Join {
            table: name.clone(),
            album,
            asset,
            position: cols.contains(&position).then_some(position),
        })
    })
}

fn one(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let sql = format!(
        "SELECT m.name AS tbl, p.name AS col FROM sqlite_master m JOIN pragma_table_info(m.name) p \
WHERE m.type = 'table' AND (m.name IN ('{ALBUM}', 'ZASSET', 'ZGENERICASSET') OR m.name GLOB 'Z_[0-9]*ASSETS') ORDER BY m.name, p.cid"
    );
    let Some((_, t)) = run.query(path, &sql, 100_000)? else {
        return Ok(());
    };
    let schema = columns_by_table(&t);
    // a library without albums (or a database that is no library, which the Photos reader
    // notes) gives nothing here
    let Some(g) = schema.get(ALBUM) else {
        return Ok(());
    };
    if !require_columns(
        run.ctx,
        path,
        "the Photos library's albums",
        ALBUM,
        g,
        &["Z_PK"],
    )? {
        return Ok(());
    }
    let asset = ["ZASSET", "ZGENERICASSET"]
        .into_iter()
        .find_map(|n| schema.get(n).filter(|c| c.contains("Z_PK")).map(|c| (n, c)));
    let join = join_table(&schema);
    albums(run, find, path, g, join.as_ref())?;
    match &join {
        Some(j) => members(run, find, path, g, j, asset),
        None => run.ctx.unparsed(
            path,
            "could not parse which assets the Photos library's albums hold because it has no album-asset join table (a Z_<n>ASSETS table with a Z_<n>ALBUMS column)",
            None,
        ),
    }
}

fn albums(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    g: &BTreeSet<String>,
    join: Option<&Join>,
) -> Result<(), RuntimeError> {
    let mut cols = vec!["g.Z_PK AS pk".to_string()];
    for (c, alias, _, _) in ALBUM_COLS {
        cols.push(column_or_null(g, "g.", c, alias));
    }
    for (c, alias, _, codes, others) in ALBUM_CODES {
        cols.push(if g.contains(c) {
            decode(&format!("g.{c}"), codes, others, alias)
        } else {
            format!("NULL AS {alias}")
        });
    }
    for (c, alias, _) in ALBUM_TIMES {
        cols.push(column_or_null(g, "g.", c, alias));
    }
    let parent = g.contains("ZPARENTFOLDER");
    if parent {
        cols.push(column_or_null(g, "parent.", "ZTITLE", "folder_title"));
        cols.push(column_or_null(g, "parent.", "ZUUID", "folder_uuid"));
        cols.push(if g.contains("ZKIND") {
            decode("parent.ZKIND", KIND, true, "folder_kind")
        } else {
            "NULL AS folder_kind".to_string()
        });
    } else {
        cols.push("NULL AS folder_title, NULL AS folder_uuid, NULL AS folder_kind".to_string());
    }
    cols.push(match join {
        Some(j) => format!(
            "(SELECT count(*) FROM {} j WHERE j.{} = g.Z_PK) AS members",
            j.table, j.album
        ),
        None => "NULL AS members".to_string(),
    });
    let mut select = format!("SELECT {} FROM {ALBUM} g", cols.join(", "));
    if parent {
        select.push_str(&format!(
            " LEFT JOIN {ALBUM} parent ON parent.Z_PK = g.ZPARENTFOLDER"
        ));
    }
    let Some(paged) = run.paged(path, &select, "g.Z_PK")? else {
        return Ok(());
    };
    let join_name = join.map(|j| j.table.as_str());
    for (inv, t, row) in paged.rows() {
        album(run, find, path, join_name, inv, t, row)?;
    }
    if paged.truncated {
        summarise(
            run,
            "media",
            path,
            find,
            "Photos albums",
            &format!(
                "SELECT count(*) AS total, min(NULLIF({}, 0)) AS first_time, max({}) AS last_time FROM {ALBUM}",
                column_expr(g, "", "ZSTARTDATE"),
                column_expr(g, "", "ZENDDATE"),
            ),
            core_data_encoding,
            "Photos album's earliest asset",
            "Photos album's latest asset",
        )?;
    }
    Ok(())
}

fn album(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    join: Option<&str>,
    inv: &Invoked,
    t: &Table,
    row: &[Option<String>],
) -> Result<(), RuntimeError> {
    let pk = raw(t, row, "pk").unwrap_or_default();
    let title = raw(t, row, "title");
    let kind = raw(t, row, "kind_meaning");
    let mut d = Draft::new(
        "media",
        match (&title, &kind) {
            (Some(n), _) => format!("Photos album {pk}: {n}"),
            (None, Some(k)) => format!("Photos album {pk} ({k})"),
            (None, None) => format!("Photos album {pk}"),
        },
    );
    d.fact(FactType::Path, Some(path), find);
    let spec: Vec<(&str, FactType, &str)> = ALBUM_COLS
        .iter()
        .map(|(_, alias, ft, label)| (*alias, *ft, *label))
        .collect();
    let mut said = d.fields(t, row, inv, &spec);
    let codes: Vec<(&str, FactType, &str)> = ALBUM_CODES
        .iter()
        .map(|(_, alias, label, _, _)| (*alias, FactType::Text, *label))
        .collect();
    said.extend(d.fields(t, row, inv, &codes));
    said.extend(d.fields(
        t,
        row,
        inv,
        &[
            ("folder_title", FactType::Text, "in the folder"),
            ("folder_uuid", FactType::Identifier, "folder UUID"),
            ("folder_kind", FactType::Text, "folder kind"),
        ],
    ));
    let members = raw(t, row, "members");
    d.fact(FactType::Count, members.as_deref(), inv);
    let times: Vec<(&str, &str)> = ALBUM_TIMES
        .iter()
        .map(|(_, alias, what)| (*alias, *what))
        .collect();
    d.times_of(t, row, inv, core_data_encoding, &times);
    d.interpretation = format!(
        "{ALBUM} Z_PK {pk} of {path}: {}; {}. {} The start and end dates are those of the earliest and latest asset Photos counts in it, the cached counts Photos' own tallies; times are Core Data seconds since 2001.",
        kind.as_deref().unwrap_or("an album of no kind kept"),
        said.join("; "),
        match (join, &members) {
            (Some(j), Some(m)) => format!("{j} lists {m} asset(s) in it (counted in the query)."),
            _ => "The library has no album-asset join table: its assets are not known.".to_string(),
        },
    );
    run.record(d)
}

fn members(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    g: &BTreeSet<String>,
    j: &Join,
    asset: Option<(&str, &BTreeSet<String>)>,
) -> Result<(), RuntimeError> {
    let mut cols = vec![
        "j.rowid AS rid".to_string(),
        format!("j.{} AS album_pk", j.album),
        column_or_null(g, "g.", "ZTITLE", "album_title"),
        column_or_null(g, "g.", "ZUUID", "album_uuid"),
        if g.contains("ZKIND") {
            decode("g.ZKIND", KIND, true, "album_kind")
        } else {
            "NULL AS album_kind".to_string()
        },
        format!("j.{} AS asset_pk", j.asset),
        match &j.position {
            Some(p) => format!("j.{p} AS position"),
            None => "NULL AS position".to_string(),
        },
    ];
    let mut from = format!(
        "FROM {} j LEFT JOIN {ALBUM} g ON g.Z_PK = j.{}",
        j.table, j.album
    );
    match asset {
        Some((table, a)) => {
            cols.push(if a.contains("ZDIRECTORY") && a.contains("ZFILENAME") {
                "a.ZDIRECTORY || '/' || a.ZFILENAME AS file".to_string()
            } else {
                "NULL AS file".to_string()
            });
            cols.push(column_or_null(a, "a.", "ZUUID", "asset_uuid"));
            cols.push(if a.contains("ZHIDDEN") {
                decode("a.ZHIDDEN", HIDDEN, false, "asset_hidden")
            } else {
                "NULL AS asset_hidden".to_string()
            });
            cols.push(if a.contains("ZTRASHEDSTATE") {
                decode("a.ZTRASHEDSTATE", TRASHED, false, "asset_trashed")
            } else {
                "NULL AS asset_trashed".to_string()
            });
            from.push_str(&format!(" LEFT JOIN {table} a ON a.Z_PK = j.{}", j.asset));
        }
        None => cols.push(
            "NULL AS file, NULL AS asset_uuid, NULL AS asset_hidden, NULL AS asset_trashed"
                .to_string(),
        ),
    }
    let select = format!("SELECT {} {from}", cols.join(", "));
    let Some(paged) = run.paged(path, &select, "j.rowid")? else {
        return Ok(());
    };
    let table = asset.map(|(t, _)| t).unwrap_or("the asset table");
    for (inv, t, row) in paged.rows() {
        member(run, find, path, &j.table, table, inv, t, row)?;
    }
    if paged.truncated {
        summarise(
            run,
            "media",
            path,
            find,
            "Photos album items",
            &format!(
                "SELECT count(*) AS total, NULL AS first_time, NULL AS last_time FROM {}",
                j.table
            ),
            core_data_encoding,
            "",
            "",
        )?;
    }
    Ok(())
}

#[allow(clippy::too_many_arguments)]
fn member(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    join: &str,
    asset_table: &str,
    inv: &Invoked,
    t: &Table,
    row: &[Option<String>],
) -> Result<(), RuntimeError> {
    let album_pk = raw(t, row, "album_pk").unwrap_or_default();
    let asset_pk = raw(t, row, "asset_pk").unwrap_or_default();
    let file = raw(t, row, "file");
    let title = raw(t, row, "album_title");
    let mut d = Draft::new(
        "media",
        match &file {
            Some(f) => format!("Photos album {album_pk} holds {f}"),
            None => format!("Photos album {album_pk} holds asset {asset_pk}"),
        },
    );
    d.fact(FactType::Path, Some(path), find);
    d.fact(FactType::Path, file.as_deref(), inv);
    let said = d.fields(
        t,
        row,
        inv,
        &[
            ("album_pk", FactType::Identifier, "album Z_PK"),
            ("album_title", FactType::Text, "album title"),
            ("album_uuid", FactType::Identifier, "album UUID"),
            ("album_kind", FactType::Text, "album kind"),
            ("asset_pk", FactType::Identifier, "asset Z_PK"),
            ("asset_uuid", FactType::Identifier, "asset UUID"),
            ("asset_hidden", FactType::Text, "asset"),
            ("asset_trashed", FactType::Text, "asset"),
            ("position", FactType::Count, "position in the album"),
        ],
    );
    d.interpretation = format!(
        "A row of {join} (the album-asset join table, found by its columns) of {path}: album Z_PK {album_pk}{} holds {}; {}. The asset's own fields and times are the Photos library reader's.",
        title.map(|x| format!(" ({x})")).unwrap_or_default(),
        match &file {
            Some(f) => format!("{f} ({asset_table} Z_PK {asset_pk})"),
            None => format!("{asset_table} Z_PK {asset_pk}, which is not in the table"),
        },
        said.join("; "),
    );
    run.record(d)
}
