//! Google Play services' semantic location raw signals
//! (`com.google.android.gms/app_semanticlocation_rawsignal_db/`), ALEAPP's `appSemloc`
//! (`get_appSemloc`): a LevelDB store where Play services keeps the phone's own location fixes
//! that feed its on-device Timeline (semantic location: visits and trips), kept whether or not
//! the user looks at a Timeline.
//!
//! | record | phenomenon | fields |
//! |---|---|---|
//! | each record whose value (a Protocol Buffers message) holds field 1.1 with a latitude and longitude | one `locations` per fix ("Google raw location signal <latitude>, <longitude>") | latitude and longitude as decoded (fields 1.1.1 and 1.1.2, degrees × 10⁷), accuracy as stored (1.1.3), the record's file and sequence, whether its key was since deleted; when (1.1.6, Unix ms) |
//!
//! Read with `leveldb_records` (`protobuf`: each value decoded) on the store's folder (found by
//! its `CURRENT` file), in pages of [`PAGE`] records, every version of a record (an older value
//! kept until LevelDB compacts the file is a fix too). A coordinate is quoted as the decoding
//! prints it (an unsigned number: a negative one written as a varint or a fixed32 is its two's
//! complement) and read as signed degrees × 10⁷ in the title and the interpretation
//! ([`crate::outputs::proto_field`]); the accuracy is kept as stored (ALEAPP reads it in thousandths
//! of a metre). The layout is the one ALEAPP reads; a record of another form is counted and
//! noted, a damaged file noted (the records before the damage are read). At most
//! [`crate::calls::ROW_CAP`] records a store. Identities: none (the fixes are the phone's own
//! positions).

use std::collections::BTreeSet;

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::FactType;
use masf_tools::Invoked;
use serde_json::Value;

use super::Located;
use crate::drafts::{Draft, record_draft, unix_millis};
use crate::identity::artefact_name;
use crate::outputs::proto_field as field;
use crate::outputs::unescape;

/// The store's folder name.
pub const DIR: &str = "app_semanticlocation_rawsignal_db";

/// Whether `l` is the `CURRENT` file of Play services' raw signal store.
pub fn is_store(l: &Located) -> bool {
    l.name() == "CURRENT"
        && l.path.contains("/com.google.android.gms/")
        && l.path.ends_with(&format!("/{DIR}/CURRENT"))
}

/// One record line of a page: (put, file, sequence, key, encoding, value), as shown.
fn line(l: &str) -> Option<(bool, &str, &str, &str, &str, &str)> {
    let c: Vec<&str> = l.splitn(8, '\t').collect();
    (c.len() == 8).then(|| (c[4] == "put", c[0], c[3], c[6], c[5], c[7]))
}

/// The first value of field `f` of a decoded message.
fn first<'a>(m: &'a Value, f: &str) -> Option<&'a Value> {
    m.get(f)?.get(0)
}

/// A number field of a decoded message as printed.
fn number(m: &Value, f: &str) -> Option<String> {
    first(m, f)?.as_u64().map(|n| n.to_string())
}

/// One store (its `CURRENT` file `l`).
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let name = artefact_name(&l.tree, &l.path);
    let dir = l
        .path
        .strip_suffix("/CURRENT")
        .unwrap_or(&l.path)
        .to_string();
    // every page first: a key's deletion may be recorded in a later file
    let Some(pages) =
        super::leveldb_pages(ctx, &l.tree, &dir, &name, "the semantic location store")?
    else {
        return Ok(());
    };
    let deleted: BTreeSet<&str> = pages
        .iter()
        .flat_map(|p| p.output.text.lines().skip(2))
        .filter_map(line)
        .filter(|r| !r.0)
        .map(|r| r.3)
        .collect();
    let mut other = 0usize;
    for inv in &pages {
        for (put, file, seq, key, enc, value) in inv.output.text.lines().skip(2).filter_map(line) {
            if !put {
                continue;
            }
            let decoded = (enc == "protobuf")
                .then(|| serde_json::from_str::<Value>(&unescape(value)).ok())
                .flatten();
            let fix = decoded
                .as_ref()
                .and_then(|v| first(v, "1"))
                .and_then(|o| first(o, "1"))
                .filter(|f| f.is_object());
            let Some(fix) = fix else {
                other += 1;
                continue;
            };
            let (Some(lat), Some(lon)) = (field(fix, "1"), field(fix, "2")) else {
                other += 1;
                continue;
            };
            record(
                ctx,
                inv,
                &dir,
                l,
                (file, seq),
                fix,
                (lat, lon),
                deleted.contains(key),
            )?;
        }
    }
    if other > 0 {
        ctx.unparsed(
            &name,
            &format!(
                "{other} records hold no location fix (no value field 1.1 with a latitude and longitude): not read"
            ),
            pages.first().map(|i| i.record.invocation_id.as_str()),
        )?;
    }
    Ok(())
}

#[allow(clippy::too_many_arguments)]
fn record(
    ctx: &AgentCtx<'_>,
    inv: &Invoked,
    dir: &str,
    l: &Located,
    (file, seq): (&str, &str),
    fix: &Value,
    ((lat_shown, lat), (lon_shown, lon)): ((String, i64), (String, i64)),
    key_deleted: bool,
) -> Result<(), RuntimeError> {
    let (lat_deg, lon_deg) = (lat as f64 / 1e7, lon as f64 / 1e7);
    let mut d = Draft::new(
        "locations",
        format!("Google raw location signal {lat_deg:.7}, {lon_deg:.7}"),
    );
    d.fact(FactType::Path, Some(dir), &l.found);
    d.fact(FactType::Text, Some(file), inv);
    d.fact(FactType::Identifier, Some(seq), inv);
    d.fact(FactType::Text, Some(&lat_shown), inv);
    d.fact(FactType::Text, Some(&lon_shown), inv);
    let accuracy = number(fix, "3");
    d.fact(FactType::Count, accuracy.as_deref(), inv);
    let time = number(fix, "6");
    d.time(
        time.as_deref(),
        unix_millis(time.as_deref()),
        "Google raw location signal recorded",
        inv,
    );
    d.interpretation = format!(
        "record {seq} of {file} in {dir}: Google Play services' semantic location kept a raw location fix of the phone at latitude {lat_deg:.7}, longitude {lon_deg:.7} (value fields 1.1.1 {lat_shown} and 1.1.2 {lon_shown}, degrees × 10⁷){}{}{}.",
        accuracy
            .as_deref()
            .map(|a| format!(
                ", accuracy {a} as stored (field 1.1.3; ALEAPP reads thousandths of a metre)"
            ))
            .unwrap_or_default(),
        time.as_deref()
            .map(|t| format!(", recorded {t} (field 1.1.6, Unix milliseconds)"))
            .unwrap_or_default(),
        if key_deleted {
            "; its key was deleted since (LevelDB keeps the record until it compacts the file)"
        } else {
            ""
        },
    );
    record_draft(ctx, d)
}
