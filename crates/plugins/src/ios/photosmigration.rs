//! The Photos library's migration history (`Photos.sqlite` of `Media/PhotoData/` and of any
//! other `*.photoslibrary/`, as [`super::photos`] takes it: table `ZMIGRATIONHISTORY`), iLEAPP's
//! `photosMigration` ("Migrations", after Scott Koenig's queries): each time Photos migrated its
//! library — on an iOS update, or when the library's history starts (the first setup, or after
//! an erase) — with the iOS build it ran. Evidence of the iOS versions the device ran, and when.
//!
//! | table | phenomenon | fields |
//! |---|---|---|
//! | `ZMIGRATIONHISTORY` | one `device` per row ("Photos library migration <Z_PK>: iOS build <build>") | the iOS build (`ZOSVERSION`) and the major release its number names (computed in the query: build `12`–`22…` is iOS 8–18, `23…` iOS 26; other numbers not named), the migration's index (`ZINDEX`), type as stored and its meaning (decoded in the query, iLEAPP's reading: 2 an iOS update, 3 the start of the library's OS history — first setup or factory reset —, 0 and 1 not established), the reason for a forced rebuild (`ZFORCEREBUILDREASON`), the Core Data model versions before and after (`ZSOURCEMODELVERSION`, `ZMODELVERSION`), origin (`ZORIGIN`), the store's UUID (`ZSTOREUUID`), the size of the global key values (`ZGLOBALKEYVALUES`, a BLOB counted in the query, not decoded); when (`ZMIGRATIONDATE`, Cocoa seconds) |
//!
//! The release is the build number's: the minor version needs Apple's table of builds (iLEAPP
//! looks it up), which is not kept here — the build is the fact. Columns are taken by name
//! (absent ones NULL: older libraries lack the origin, the store UUID, the rebuild reason and the
//! source model version). A library without `ZMIGRATIONHISTORY` gives nothing (iOS 12 and 13
//! libraries, or a database that is no library: [`super::photos`]' to note); a table without
//! `Z_PK`, `ZMIGRATIONDATE` or `ZOSVERSION` is noted; a file that does not open is noted by the
//! call. Read in pages up to the row cap. Identities: none (no account is named).

use masf_agents::RuntimeError;
use masf_graph::FactType;
use masf_tools::Invoked;

use super::photospeople::is_library;
use super::{Draft, Run, core_data_encoding, file_name};
use crate::calls::{require_columns, select_columns};

const TABLE: &str = "ZMIGRATIONHISTORY";

/// The major iOS release an iOS build number names (`21F90` → iOS 17), as SQL on `m.ZOSVERSION`.
const RELEASE: &str = "CASE WHEN m.ZOSVERSION GLOB '[1-2][0-9][A-Z]*' THEN CASE WHEN CAST(substr(m.ZOSVERSION, 1, 2) AS INTEGER) BETWEEN 12 AND 22 THEN 'iOS ' || (CAST(substr(m.ZOSVERSION, 1, 2) AS INTEGER) - 4) WHEN substr(m.ZOSVERSION, 1, 2) = '23' THEN 'iOS 26' END END";

/// Triage of the migration history of every Photos library of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    run.each("Photos.sqlite", |find, path| {
        if is_library(path) {
            one(run, find, path)
        } else {
            Ok(())
        }
    })
}

fn one(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let Some(schema) = run.schema(path, &[TABLE])? else {
        return Ok(());
    };
    let cols = schema.columns(TABLE);
    // no migration history kept (an older library, or no library): nothing to say
    if cols.is_empty() {
        return Ok(());
    }
    if !require_columns(
        run.ctx,
        path,
        "the Photos library's migration history",
        TABLE,
        &cols,
        &["Z_PK", "ZMIGRATIONDATE", "ZOSVERSION"],
    )? {
        return Ok(());
    }
    let kind = if cols.contains("ZMIGRATIONTYPE") {
        "CASE m.ZMIGRATIONTYPE WHEN 2 THEN 'an iOS update' WHEN 3 THEN 'the start of the library''s OS history (first setup or factory reset)' WHEN 0 THEN 'not established (iLEAPP: still testing)' WHEN 1 THEN 'not established (iLEAPP: still testing)' ELSE 'an undocumented type' END AS kind"
    } else {
        "NULL AS kind"
    };
    let global = if cols.contains("ZGLOBALKEYVALUES") {
        "length(m.ZGLOBALKEYVALUES) AS global_size"
    } else {
        "NULL AS global_size"
    };
    let sql = format!(
        "SELECT m.Z_PK AS pk, m.ZOSVERSION AS build, {RELEASE} AS os_release, m.ZMIGRATIONDATE AS migrated, {}, {kind}, {global} FROM {TABLE} m",
        select_columns(
            &cols,
            "m.",
            &[
                ("ZINDEX", "idx"),
                ("ZMIGRATIONTYPE", "migration_type"),
                ("ZFORCEREBUILDREASON", "rebuild_reason"),
                ("ZSOURCEMODELVERSION", "source_model"),
                ("ZMODELVERSION", "model"),
                ("ZORIGIN", "origin"),
                ("ZSTOREUUID", "store_uuid"),
            ],
        ),
    );
    let Some(paged) = run.paged(path, &sql, "m.Z_PK")? else {
        return Ok(());
    };
    let file = file_name(path);
    for (inv, t, row) in paged.rows() {
        let build = t.get(row, "build").filter(|b| !b.is_empty());
        let mut d = Draft::new(
            "device",
            format!(
                "Photos library migration {}: iOS build {}",
                t.get(row, "pk").unwrap_or("?"),
                build.unwrap_or("not kept")
            ),
        );
        d.fact(FactType::Path, Some(path), find);
        let said = d.fields(
            t,
            row,
            inv,
            &[
                ("build", FactType::Text, "iOS build"),
                ("os_release", FactType::Text, "release (the build number's)"),
                ("idx", FactType::Text, "index"),
                ("migration_type", FactType::Text, "type"),
                ("kind", FactType::Text, "meaning"),
                ("rebuild_reason", FactType::Text, "forced rebuild reason"),
                ("source_model", FactType::Text, "model version before"),
                ("model", FactType::Text, "model version"),
                ("origin", FactType::Text, "origin"),
                ("store_uuid", FactType::Identifier, "store UUID"),
                ("global_size", FactType::Count, "global key values (bytes)"),
            ],
        );
        let migrated = t.get(row, "migrated");
        d.time(
            migrated,
            core_data_encoding(migrated),
            "Photos library migrated",
            inv,
        );
        d.interpretation = format!(
            "{TABLE} Z_PK {} of {file}: Photos migrated its library{} ({}); ZMIGRATIONDATE {} is when (Cocoa seconds). The build is the iOS the device ran then (Photos migrates its library on an update, and starts its history on the first setup or after an erase): evidence of the iOS versions the device ran.",
            t.get(row, "pk").unwrap_or("?"),
            build
                .map(|b| format!(" under iOS build {b}"))
                .unwrap_or_default(),
            said.join("; "),
            migrated.unwrap_or("not kept"),
        );
        run.record(d)?;
    }
    crate::calls::note_pages_cap(run.ctx, path, &paged, "Photos library migrations")
}
