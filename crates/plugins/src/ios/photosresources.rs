//! The resources of the Photos library's assets (`Media/PhotoData/Photos.sqlite`, and any other
//! `*.photoslibrary/database/Photos.sqlite`, as [`super::photos`] takes them): the fields of
//! iLEAPP's `Ph050AssetIntResouData` (every `ZINTERNALRESOURCE` row: each file Photos keeps or can
//! fetch for an asset — the original, the full-size render of an edit, the thumbnails, a Live
//! Photo's video, the adjustment data —, whether it is on the device or only in iCloud, its size
//! and type, its iCloud state) and `Ph051PossOptimizedAssetsIntResouData` (the originals not on
//! the device that carry an iCloud fingerprint: possibly removed by Optimize iPhone Storage), and
//! from the asset-analysis tables the reference modules `Ph094`…`Ph098` and `Ph126` join
//! (`ZMEDIAANALYSISASSETATTRIBUTES`, `ZASSETANALYSISSTATE`) when the device analysed each asset.
//! What [`super::photos`] reads of the asset (its file, names, times, place, camera, flags, the
//! original's size) stays that reader's: a resource names its asset by `Z_PK`, file and UUID
//! only.
//!
//! | table | phenomenon | fields |
//! |---|---|---|
//! | `ZINTERNALRESOURCE` ⋈ asset (⋈ `ZUNIFORMTYPEIDENTIFIER`) | one `media` per row ("Photos resource <Z_PK>: <what> of <file> (<on the device or not>)") | the asset (`Z_PK`, `ZDIRECTORY/ZFILENAME`, UUID); resource type, data-store subtype and recipe as stored and their meanings; version; local availability (1 on the device, -1 not, -32768 a Shared with You link) and remote availability (in iCloud or not), both targets as stored; iCloud state, iCloud source type, store class (the library, an iCloud Shared Album, Shared with You); the type (`ZCOMPACTUTI` decoded to its identifier, or the `ZUNIFORMTYPEIDENTIFIER` row) and its conformance hint; size (`ZDATALENGTH`), unoriented width and height, codec, fingerprint, stable hash, file id, sidecar index, iCloud prefetch count, iCloud deletion id; trashed, deleted from iCloud, trashed by a computer import (PTP); for an original, whether it is on the device, or not with an iCloud fingerprint (Ph051's test, computed in the query); trashed, iCloud master created, last prefetched, last downloaded on demand |
//! | `ZINTERNALRESOURCE` (counted in the query) | one `media` per library ("Photos library originals: <n> on the device, <m> not (of <k> resources)") | resources, originals, originals on the device, originals not on it, those of them with an iCloud fingerprint, resources on the device, bytes on the device, bytes of the originals not on it |
//! | asset ⋈ `ZMEDIAANALYSISASSETATTRIBUTES`, `ZASSETANALYSISSTATE` | one `media` per asset analysed ("Photos analysis of asset <Z_PK>: <file>") | the asset (file, UUID), media-analysis version, faces counted, Screen Time image sensitivity (as stored), each analysis worker's type, state and flags (as stored, in one text); analysed (`ZMEDIAANALYSISTIMESTAMP`), last passed over and deferred until (the latest of the workers' dates) |
//!
//! Codes are decoded in the query (`CASE … END`, so the output holds the meaning) with iLEAPP's
//! meanings in our words; a code iLEAPP calls "still testing" gives nothing beside its stored
//! value, any other unknown code `code <n>`. `ZCOMPACTUTI` holds a small number for a known type
//! or the type identifier itself: the number is decoded to the identifier Photos uses for it
//! (`3` `public.heic`, `23` `com.apple.quicktime-movie`, …), anything else kept as stored.
//!
//! Schema drift, keyed on the columns found: the asset table is `ZASSET` (iOS 14+) or
//! `ZGENERICASSET` (13); the type is `ZCOMPACTUTI` (iOS 15+) or a row of `ZUNIFORMTYPEIDENTIFIER`
//! named by `ZINTERNALRESOURCE.ZUNIFORMTYPEIDENTIFIER` (earlier); the conformance hint and codec
//! exist from iOS 15, the stable hash from iOS 18; the media-analysis row is the asset's
//! `ZMEDIAANALYSISATTRIBUTES` or the row naming it by `ZASSET`; `ZASSETANALYSISSTATE` and the
//! Screen Time sensitivity are read where present; every other column where present. A library
//! without `ZINTERNALRESOURCE` gives no resource (a database that is no library is
//! [`super::photos`]'s to note); one whose `ZINTERNALRESOURCE` lacks `Z_PK`, `ZASSET`,
//! `ZRESOURCETYPE` or `ZLOCALAVAILABILITY` is noted naming them; one that does not open is noted
//! by the call. Resources and analyses are read in pages up to the row cap (resources then
//! counted in a summary, analyses noted).
//!
//! Times are Core Data seconds since 2001. Not read: `ZDATASTOREKEYDATA` (the store's binary key
//! of the file), the media-analysis scores iLEAPP lists (blur, exposure, activity, audio and
//! others: numbers whose scale is not known), the recognised text and codes
//! (`ZCHARACTERRECOGNITIONATTRIBUTES`) and visual-search data (archived blobs of no known layout),
//! the analysis sort token. No identities: a resource names no person.

use std::collections::BTreeSet;

use masf_agents::RuntimeError;
use masf_graph::FactType;
use masf_tools::Invoked;

use super::photospeople::{Codes, decode, is_library};
use super::{Draft, Run, core_data_encoding, raw, summarise};
use crate::calls::{column_expr, column_or_null, require_columns};
use crate::outputs::Table;

const RESOURCE: &str = "ZINTERNALRESOURCE";
const MEDIA: &str = "ZMEDIAANALYSISASSETATTRIBUTES";
const STATE: &str = "ZASSETANALYSISSTATE";
const UTI: &str = "ZUNIFORMTYPEIDENTIFIER";

/// The tables read (one schema query per library).
const TABLES: [&str; 6] = [RESOURCE, "ZASSET", "ZGENERICASSET", UTI, MEDIA, STATE];

/// Triage of the resources and the analysis state of every Photos library of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    run.each("Photos.sqlite", |find, path| {
        if is_library(path) {
            one(run, find, path)
        } else {
            Ok(())
        }
    })
}

const RESOURCE_TYPE: Codes = &[
    (0, Some("photo")),
    (1, Some("video")),
    (3, Some("Live Photo video")),
    (5, Some("adjustment data")),
    (6, Some("screenshot")),
    (9, None),
    (13, Some("movie")),
    (14, Some("wallpaper")),
];
const SUBTYPE: Codes = &[
    (0, Some("no cloud resource")),
    (1, Some("full-size original")),
    (2, Some("full-size render of an edited photo")),
    (3, Some("large JPEG thumbnail")),
    (4, Some("medium JPEG thumbnail")),
    (5, Some("small JPEG thumbnail")),
    (6, Some("medium-size video")),
    (7, Some("small video")),
    (8, Some("MP4 for cloud sharing")),
    (9, None),
    (10, None),
    (11, None),
    (12, None),
    (13, Some("optimised PNG")),
    (14, Some("wallpaper")),
    (15, Some("render with markup and adjustments")),
    (16, Some("video render with adjustments")),
    (17, Some("RAW photo")),
    (18, Some("optimised Live Photo video")),
    (19, Some("Live Photo render with adjustments")),
    (20, None),
    (21, Some("optimised HEVC 4K video")),
    (22, Some("adjustment data (AAE)")),
    (23, None),
    (24, None),
    (25, None),
    (26, Some("optimised video")),
    (27, None),
    (28, Some("medium-size HDR video")),
];
const RECIPE: Codes = &[
    (0, Some("no recipe (an original, or its optimised copy)")),
    (65737, Some("full-size JPEG of a ProRAW (DNG) original")),
    (65739, Some("large JPEG thumbnail")),
    (65741, Some("thumbnail or other derived image")),
    (65743, Some("JPEG thumbnail of a photo")),
    (65749, Some("JPEG thumbnail of a video key frame")),
    (65938, Some("full-size render of a photo")),
    (131072, Some("full-size render of a video")),
    (131077, Some("medium HEVC 4K video")),
    (131079, Some("medium MP4 of an edited video")),
    (131081, Some("JPEG thumbnail of a video")),
    (131272, Some("full-size render of a Live Photo video")),
    (131275, Some("medium Live Photo video")),
    (131277, Some("Live Photo video kept for iCloud sync")),
    (131475, Some("medium HDR video")),
    (327683, None),
    (327687, Some("wallpaper compute resource")),
];
const VERSION: Codes = &[
    (0, Some("standard version")),
    (1, None),
    (2, Some("adjusted version (an edit)")),
];
const LOCAL: Codes = &[
    (1, Some("on the device")),
    (-1, Some("not on the device")),
    (-32768, Some("a Shared with You link, not in the library")),
];
const REMOTE: Codes = &[(0, Some("not in iCloud")), (1, Some("in iCloud"))];
const CLOUD_LOCAL: Codes = &[
    (0, Some("not synced with iCloud")),
    (1, Some("waiting to upload to iCloud")),
    (2, Some("an iCloud Shared Album item on the device")),
    (3, Some("synced with iCloud")),
];
const STORE_CLASS: Codes = &[
    (0, Some("the library (on the device or in iCloud Photos)")),
    (1, None),
    (2, Some("an iCloud Shared Album")),
    (3, Some("Shared with You")),
];
const CONFORMANCE: Codes = &[
    (0, Some("neither an image nor a movie")),
    (1, Some("an image")),
    (2, Some("a ProRAW photo")),
    (3, Some("a movie")),
];
const TRASHED: Codes = &[(1, Some("in Recently Deleted"))];
const CLOUD_DELETED: Codes = &[(1, Some("deleted from iCloud Photos"))];
const PTP: Codes = &[(1, Some("trashed by a computer import (PTP)"))];

/// The identifier of each `ZCOMPACTUTI` number (Photos' compact form of a type identifier).
const COMPACT_UTI: [(u32, &str); 39] = [
    (1, "public.jpeg"),
    (2, "public.jpeg"),
    (3, "public.heic"),
    (4, "public.heif"),
    (5, "public.avci"),
    (6, "public.png"),
    (7, "com.compuserve.gif"),
    (8, "public.tiff"),
    (9, "com.adobe.raw-image"),
    (10, "com.sony.arw-raw-image"),
    (11, "com.canon.cr2-raw-image"),
    (12, "com.canon.crw-raw-image"),
    (13, "com.olympus.raw-image"),
    (14, "com.panasonic.rw2-raw-image"),
    (15, "com.panasonic.raw-image"),
    (16, "com.pentax.raw-image"),
    (17, "com.nikon.raw-image"),
    (18, "com.samsung.raw-image"),
    (19, "com.leafamerica.raw-image"),
    (20, "com.hasselblad.3fr-raw-image"),
    (21, "com.fuji.raw-image"),
    (22, "com.hasselblad.fff-raw-image"),
    (23, "com.apple.quicktime-movie"),
    (24, "public.mpeg-4"),
    (25, "com.apple.m4v-video"),
    (26, "public.3gpp"),
    (27, "public.avi"),
    (28, "com.apple.m4a-audio"),
    (29, "com.apple.coreaudio-format"),
    (30, "com.microsoft.waveform-audio"),
    (31, "public.aifc-audio"),
    (32, "public.aiff-audio"),
    (33, "public.mp3"),
    (34, "public.ac3-audio"),
    (35, "com.apple.property-list"),
    (36, "public.data"),
    (37, "com.apple.photos.apple-adjustment-envelope"),
    (38, "public.avif"),
    (39, "public.jpeg-xl"),
];

/// The resource columns read as stored: (column, alias, fact type, label).
const RAW: [(&str, &str, FactType, &str); 15] = [
    (
        "ZRESOURCETYPE",
        "type_code",
        FactType::Count,
        "resource type (as stored)",
    ),
    (
        "ZDATASTORESUBTYPE",
        "subtype_code",
        FactType::Count,
        "data-store subtype (as stored)",
    ),
    (
        "ZRECIPEID",
        "recipe_code",
        FactType::Count,
        "recipe (as stored)",
    ),
    ("ZDATALENGTH", "size", FactType::Count, "size (bytes)"),
    ("ZUNORIENTEDWIDTH", "width", FactType::Count, "width"),
    ("ZUNORIENTEDHEIGHT", "height", FactType::Count, "height"),
    ("ZCODECFOURCHARCODENAME", "codec", FactType::Text, "codec"),
    (
        "ZFINGERPRINT",
        "fingerprint",
        FactType::Identifier,
        "fingerprint",
    ),
    (
        "ZSTABLEHASH",
        "stable_hash",
        FactType::Identifier,
        "stable hash",
    ),
    ("ZFILEID", "file_id", FactType::Identifier, "file id"),
    ("ZSIDECARINDEX", "sidecar", FactType::Count, "sidecar index"),
    (
        "ZLOCALAVAILABILITYTARGET",
        "local_target",
        FactType::Count,
        "local availability target (as stored)",
    ),
    (
        "ZREMOTEAVAILABILITYTARGET",
        "remote_target",
        FactType::Count,
        "remote availability target (as stored)",
    ),
    (
        "ZCLOUDPREFETCHCOUNT",
        "prefetches",
        FactType::Count,
        "iCloud prefetches",
    ),
    (
        "ZCLOUDDELETEASSETUUIDWITHRESOURCETYPE",
        "cloud_delete_id",
        FactType::Identifier,
        "iCloud deletion id",
    ),
];

/// The resource codes decoded in the query: (column, alias, label, codes, whether an unknown
/// code is kept).
const CODES: [(&str, &str, &str, Codes, bool); 13] = [
    (
        "ZRESOURCETYPE",
        "kind",
        "resource type",
        RESOURCE_TYPE,
        true,
    ),
    (
        "ZDATASTORESUBTYPE",
        "subtype",
        "data-store subtype",
        SUBTYPE,
        true,
    ),
    ("ZRECIPEID", "recipe", "recipe", RECIPE, true),
    ("ZVERSION", "version", "version", VERSION, true),
    ("ZLOCALAVAILABILITY", "local", "here", LOCAL, true),
    ("ZREMOTEAVAILABILITY", "remote", "remote", REMOTE, true),
    (
        "ZCLOUDLOCALSTATE",
        "cloud_state",
        "iCloud state",
        CLOUD_LOCAL,
        true,
    ),
    (
        "ZCLOUDSOURCETYPE",
        "cloud_source",
        "iCloud source type",
        SUBTYPE,
        true,
    ),
    (
        "ZDATASTORECLASSID",
        "store_class",
        "store",
        STORE_CLASS,
        true,
    ),
    (
        "ZUTICONFORMANCEHINT",
        "conformance",
        "type conforms to",
        CONFORMANCE,
        true,
    ),
    ("ZTRASHEDSTATE", "trashed", "state", TRASHED, false),
    (
        "ZCLOUDDELETESTATE",
        "cloud_deleted",
        "state",
        CLOUD_DELETED,
        false,
    ),
    ("ZPTPTRASHEDSTATE", "ptp_trashed", "state", PTP, false),
];

/// The resource times: (column, alias, description).
const TIMES: [(&str, &str, &str); 4] = [
    ("ZTRASHEDDATE", "trashed_date", "Photos resource trashed"),
    (
        "ZCLOUDMASTERDATECREATED",
        "cloud_created",
        "Photos resource's iCloud master created",
    ),
    (
        "ZCLOUDLASTPREFETCHDATE",
        "prefetched",
        "Photos resource last prefetched from iCloud",
    ),
    (
        "ZCLOUDLASTONDEMANDDOWNLOADDATE",
        "downloaded",
        "Photos resource last downloaded from iCloud on demand",
    ),
];

/// What an original's availability says (computed in the query, iLEAPP's Ph051 test).
const ORIGINAL_HERE: &str = "the original is on the device";
const ORIGINAL_OPTIMISED: &str = "the original is not on the device but has a cloud fingerprint: possibly optimised away to iCloud (Optimize iPhone Storage)";
const ORIGINAL_GONE: &str = "the original is not on the device";

fn one(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let Some(schema) = run.schema(path, &TABLES)? else {
        return Ok(());
    };
    let asset = ["ZASSET", "ZGENERICASSET"]
        .into_iter()
        .find(|t| schema.columns(t).contains("Z_PK"));
    let r = schema.columns(RESOURCE);
    // a library without resources (or a database that is no library, which the Photos reader
    // notes) gives none
    if !r.is_empty()
        && require_columns(
            run.ctx,
            path,
            "the Photos library's resources",
            RESOURCE,
            &r,
            &["Z_PK", "ZASSET", "ZRESOURCETYPE", "ZLOCALAVAILABILITY"],
        )?
    {
        let a = asset.map(|t| (t, schema.columns(t)));
        resources(run, find, path, &r, a.as_ref(), &schema.columns(UTI))?;
        tally(run, find, path, &r)?;
    }
    if let Some(table) = asset {
        analysis(run, find, path, &schema, table)?;
    }
    Ok(())
}

/// `a.ZDIRECTORY || '/' || a.ZFILENAME AS file` where the asset table has both, else NULL.
fn file_column(a: &BTreeSet<String>) -> String {
    if a.contains("ZDIRECTORY") && a.contains("ZFILENAME") {
        "a.ZDIRECTORY || '/' || a.ZFILENAME AS file".to_string()
    } else {
        "NULL AS file".to_string()
    }
}

/// The resource's type identifier: `ZCOMPACTUTI` decoded (a number Photos keeps for a known
/// type, else the identifier itself), or the `ZUNIFORMTYPEIDENTIFIER` row it names; with the
/// join that needs.
fn uti_column(r: &BTreeSet<String>, u: &BTreeSet<String>) -> (String, &'static str) {
    if r.contains("ZCOMPACTUTI") {
        let mut s = "CASE CAST(r.ZCOMPACTUTI AS TEXT)".to_string();
        for (code, id) in COMPACT_UTI {
            s.push_str(&format!(" WHEN '{code}' THEN '{id}'"));
        }
        s.push_str(" ELSE r.ZCOMPACTUTI END AS uti");
        (s, "")
    } else if r.contains(UTI) && u.contains("Z_PK") && u.contains("ZIDENTIFIER") {
        (
            "u.ZIDENTIFIER AS uti".to_string(),
            " LEFT JOIN ZUNIFORMTYPEIDENTIFIER u ON u.Z_PK = r.ZUNIFORMTYPEIDENTIFIER",
        )
    } else {
        ("NULL AS uti".to_string(), "")
    }
}

fn resources(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    r: &BTreeSet<String>,
    asset: Option<&(&str, BTreeSet<String>)>,
    u: &BTreeSet<String>,
) -> Result<(), RuntimeError> {
    let mut cols = vec![
        "r.Z_PK AS pk".to_string(),
        "r.ZASSET AS asset_pk".to_string(),
    ];
    let mut from = format!("FROM {RESOURCE} r");
    match asset {
        Some((table, a)) => {
            cols.push(file_column(a));
            cols.push(column_or_null(a, "a.", "ZUUID", "asset_uuid"));
            from.push_str(&format!(" LEFT JOIN {table} a ON a.Z_PK = r.ZASSET"));
        }
        None => cols.push("NULL AS file, NULL AS asset_uuid".to_string()),
    }
    for (c, alias, _, _) in RAW {
        cols.push(column_or_null(r, "r.", c, alias));
    }
    for (c, alias, _, codes, others) in CODES {
        cols.push(if r.contains(c) {
            decode(&format!("r.{c}"), codes, others, alias)
        } else {
            format!("NULL AS {alias}")
        });
    }
    let (uti, join) = uti_column(r, u);
    cols.push(uti);
    from.push_str(join);
    cols.push(if r.contains("ZDATASTORESUBTYPE") {
        let fingerprint = if r.contains("ZFINGERPRINT") {
            "r.ZFINGERPRINT IS NOT NULL"
        } else {
            "0"
        };
        format!(
            "CASE WHEN r.ZDATASTORESUBTYPE = 1 THEN CASE WHEN r.ZLOCALAVAILABILITY = 1 THEN '{ORIGINAL_HERE}' WHEN r.ZLOCALAVAILABILITY = -1 AND {fingerprint} THEN '{ORIGINAL_OPTIMISED}' WHEN r.ZLOCALAVAILABILITY = -1 THEN '{ORIGINAL_GONE}' END END AS original"
        )
    } else {
        "NULL AS original".to_string()
    });
    for (c, alias, _) in TIMES {
        cols.push(column_or_null(r, "r.", c, alias));
    }
    let select = format!("SELECT {} {from}", cols.join(", "));
    let Some(paged) = run.paged(path, &select, "r.Z_PK")? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        resource(run, find, path, inv, t, row)?;
    }
    if paged.truncated {
        summarise(
            run,
            "media",
            path,
            find,
            "Photos library resources",
            &format!(
                "SELECT count(*) AS total, NULL AS first_time, NULL AS last_time FROM {RESOURCE}"
            ),
            core_data_encoding,
            "",
            "",
        )?;
    }
    Ok(())
}

fn resource(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    inv: &Invoked,
    t: &Table,
    row: &[Option<String>],
) -> Result<(), RuntimeError> {
    let pk = raw(t, row, "pk").unwrap_or_default();
    let asset = raw(t, row, "asset_pk").unwrap_or_default();
    let file = raw(t, row, "file");
    let what = raw(t, row, "subtype")
        .or_else(|| raw(t, row, "kind"))
        .unwrap_or_else(|| "resource".to_string());
    let of = file.clone().unwrap_or_else(|| format!("asset {asset}"));
    let local = raw(t, row, "local");
    let mut title = format!("Photos resource {pk}: {what} of {of}");
    if let Some(l) = &local {
        title.push_str(&format!(" ({l})"));
    }
    let mut d = Draft::new("media", title);
    d.fact(FactType::Path, Some(path), find);
    d.fact(FactType::Path, file.as_deref(), inv);
    let mut said = d.fields(
        t,
        row,
        inv,
        &[
            ("asset_pk", FactType::Identifier, "asset Z_PK"),
            ("asset_uuid", FactType::Identifier, "asset UUID"),
        ],
    );
    let spec: Vec<(&str, FactType, &str)> = RAW
        .iter()
        .map(|(_, alias, ft, label)| (*alias, *ft, *label))
        .collect();
    said.extend(d.fields(t, row, inv, &spec));
    let codes: Vec<(&str, FactType, &str)> = CODES
        .iter()
        .map(|(_, alias, label, _, _)| (*alias, FactType::Text, *label))
        .collect();
    said.extend(d.fields(t, row, inv, &codes));
    said.extend(d.fields(
        t,
        row,
        inv,
        &[
            ("uti", FactType::Identifier, "type"),
            ("original", FactType::Text, "so"),
        ],
    ));
    let times: Vec<(&str, &str)> = TIMES
        .iter()
        .map(|(_, alias, what)| (*alias, *what))
        .collect();
    d.times_of(t, row, inv, core_data_encoding, &times);
    d.interpretation = format!(
        "{RESOURCE} Z_PK {pk} of {path}: one file Photos keeps or can fetch for {} (asset Z_PK {asset}) — the original, the render of an edit, a thumbnail, a Live Photo's video or adjustment data; {}. Whether it is on this device is ZLOCALAVAILABILITY (1 on the device, -1 not: only in iCloud where ZREMOTEAVAILABILITY is 1). The asset's own fields and times are the Photos library reader's; times are Core Data seconds since 2001.",
        file.as_deref().unwrap_or("an asset not in the asset table"),
        said.join("; "),
    );
    run.record(d)
}

/// The library's originals on the device and not, and the bytes of each (counted in the query).
fn tally(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    r: &BTreeSet<String>,
) -> Result<(), RuntimeError> {
    let original = if r.contains("ZDATASTORESUBTYPE") {
        "ZDATASTORESUBTYPE = 1"
    } else {
        "0"
    };
    let fingerprint = if r.contains("ZFINGERPRINT") {
        "ZFINGERPRINT IS NOT NULL"
    } else {
        "0"
    };
    let size = column_expr(r, "", "ZDATALENGTH");
    let sql = format!(
        "SELECT count(*) AS resources, \
coalesce(sum(CASE WHEN {original} THEN 1 ELSE 0 END), 0) AS originals, \
coalesce(sum(CASE WHEN {original} AND ZLOCALAVAILABILITY = 1 THEN 1 ELSE 0 END), 0) AS originals_here, \
coalesce(sum(CASE WHEN {original} AND ZLOCALAVAILABILITY = -1 THEN 1 ELSE 0 END), 0) AS originals_away, \
coalesce(sum(CASE WHEN {original} AND ZLOCALAVAILABILITY = -1 AND {fingerprint} THEN 1 ELSE 0 END), 0) AS originals_optimised, \
coalesce(sum(CASE WHEN ZLOCALAVAILABILITY = 1 THEN 1 ELSE 0 END), 0) AS here, \
coalesce(sum(CASE WHEN ZLOCALAVAILABILITY = 1 THEN {size} END), 0) AS bytes_here, \
coalesce(sum(CASE WHEN {original} AND ZLOCALAVAILABILITY = -1 THEN {size} END), 0) AS bytes_away \
FROM {RESOURCE}"
    );
    let Some((inv, t)) = run.query(path, &sql, 1)? else {
        return Ok(());
    };
    let Some(row) = t.rows.first() else {
        return Ok(());
    };
    let n = raw(&t, row, "resources").unwrap_or_default();
    if n.is_empty() || n == "0" {
        return Ok(());
    }
    let here = raw(&t, row, "originals_here").unwrap_or_default();
    let away = raw(&t, row, "originals_away").unwrap_or_default();
    let mut d = Draft::new(
        "media",
        format!("Photos library originals: {here} on the device, {away} not (of {n} resources)"),
    );
    d.fact(FactType::Path, Some(path), find);
    let said = d.fields(
        &t,
        row,
        &inv,
        &[
            ("resources", FactType::Count, "resources"),
            ("originals", FactType::Count, "originals"),
            ("originals_here", FactType::Count, "originals on the device"),
            (
                "originals_away",
                FactType::Count,
                "originals not on the device",
            ),
            (
                "originals_optimised",
                FactType::Count,
                "of them with an iCloud fingerprint (possibly optimised away)",
            ),
            ("here", FactType::Count, "resources on the device"),
            ("bytes_here", FactType::Count, "bytes on the device"),
            (
                "bytes_away",
                FactType::Count,
                "bytes of the originals not on the device",
            ),
        ],
    );
    d.interpretation = format!(
        "{RESOURCE} of {path}, counted in the query: {}. An original (data-store subtype 1) not on the device (ZLOCALAVAILABILITY -1) is kept only in iCloud: with an iCloud fingerprint, most likely removed by Optimize iPhone Storage (iLEAPP's Ph051 test); the asset's thumbnails usually remain.",
        said.join("; ")
    );
    run.record(d)
}

/// When the device analysed each asset (`ZMEDIAANALYSISASSETATTRIBUTES`) and where its analysis
/// workers stand (`ZASSETANALYSISSTATE`).
fn analysis(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    schema: &super::Schema,
    table: &str,
) -> Result<(), RuntimeError> {
    let a = schema.columns(table);
    let m = schema.columns(MEDIA);
    let s = schema.columns(STATE);
    let media = if m.contains("Z_PK") && a.contains("ZMEDIAANALYSISATTRIBUTES") {
        Some(("m.Z_PK = a.ZMEDIAANALYSISATTRIBUTES", "m.Z_PK IS NOT NULL"))
    } else if m.contains("ZASSET") {
        Some(("m.ZASSET = a.Z_PK", "m.ZASSET IS NOT NULL"))
    } else {
        None
    };
    let states = s.contains("ZASSET");
    if media.is_none() && !states {
        return Ok(());
    }
    let mut cols = vec![
        "a.Z_PK AS pk".to_string(),
        file_column(&a),
        column_or_null(&a, "a.", "ZUUID", "asset_uuid"),
    ];
    for (c, alias) in [
        ("ZMEDIAANALYSISTIMESTAMP", "analysed"),
        ("ZMEDIAANALYSISVERSION", "analysis_version"),
        ("ZFACECOUNT", "faces"),
        ("ZSCREENTIMEDEVICEIMAGESENSITIVITY", "sensitivity"),
    ] {
        cols.push(if media.is_some() {
            column_or_null(&m, "m.", c, alias)
        } else {
            format!("NULL AS {alias}")
        });
    }
    let parts: Vec<String> = [
        ("worker type ", "ZWORKERTYPE"),
        ("state ", "ZANALYSISSTATE"),
        ("flags ", "ZWORKERFLAGS"),
    ]
    .iter()
    .filter(|(_, c)| states && s.contains(*c))
    .map(|(label, c)| format!("'{label}' || ifnull(s.{c}, 'none')"))
    .collect();
    cols.push(if parts.is_empty() {
        "NULL AS states".to_string()
    } else {
        format!(
            "(SELECT group_concat(x, '; ') FROM (SELECT {} AS x FROM {STATE} s WHERE s.ZASSET = a.Z_PK ORDER BY s.rowid)) AS states",
            parts.join(" || ', ' || ")
        )
    });
    for (c, alias) in [
        ("ZLASTIGNOREDDATE", "last_ignored"),
        ("ZIGNOREUNTILDATE", "ignore_until"),
    ] {
        cols.push(if states && s.contains(c) {
            format!("(SELECT max(s.{c}) FROM {STATE} s WHERE s.ZASSET = a.Z_PK) AS {alias}")
        } else {
            format!("NULL AS {alias}")
        });
    }
    let mut from = format!("FROM {table} a");
    let mut some = Vec::new();
    if let Some((on, present)) = media {
        from.push_str(&format!(" LEFT JOIN {MEDIA} m ON {on}"));
        some.push(present.to_string());
    }
    if states {
        some.push(format!(
            "EXISTS (SELECT 1 FROM {STATE} s WHERE s.ZASSET = a.Z_PK)"
        ));
    }
    let select = format!(
        "SELECT * FROM (SELECT {} {from} WHERE {})",
        cols.join(", "),
        some.join(" OR ")
    );
    let Some(paged) = run.paged(path, &select, "pk")? else {
        return Ok(());
    };
    crate::calls::note_pages_cap(run.ctx, path, &paged, "Photos asset analyses")?;
    for (inv, t, row) in paged.rows() {
        let pk = raw(t, row, "pk").unwrap_or_default();
        let file = raw(t, row, "file");
        let mut d = Draft::new(
            "media",
            match &file {
                Some(f) => format!("Photos analysis of asset {pk}: {f}"),
                None => format!("Photos analysis of asset {pk}"),
            },
        );
        d.fact(FactType::Path, Some(path), find);
        d.fact(FactType::Path, file.as_deref(), inv);
        let said = d.fields(
            t,
            row,
            inv,
            &[
                ("asset_uuid", FactType::Identifier, "asset UUID"),
                (
                    "analysis_version",
                    FactType::Count,
                    "media analysis version",
                ),
                ("faces", FactType::Count, "faces the analysis counted"),
                (
                    "sensitivity",
                    FactType::Count,
                    "Screen Time image sensitivity (as stored)",
                ),
                ("states", FactType::Text, "analysis workers"),
            ],
        );
        d.times_of(
            t,
            row,
            inv,
            core_data_encoding,
            &[
                ("analysed", "Photos analysed the asset on the device"),
                ("last_ignored", "Photos analysis last passed the asset over"),
                ("ignore_until", "Photos analysis deferred the asset until"),
            ],
        );
        d.interpretation = format!(
            "{table} Z_PK {pk} of {path} with its media-analysis attributes and analysis state: {}; {}. The media-analysis time is when the device's analysis (faces, scenes, quality) processed the asset; the workers' codes are kept as stored, their meanings not being known. Times are Core Data seconds since 2001.",
            file.as_deref().unwrap_or("an asset without a file name"),
            said.join("; ")
        );
        run.record(d)?;
    }
    Ok(())
}
