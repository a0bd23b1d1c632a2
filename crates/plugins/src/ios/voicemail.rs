//! Carrier voicemail (`Library/Voicemail/voicemail.db`): one phenomenon per voicemail in the
//! `voicemail` table and per one in `deleted` (its rows kept after the user removed them):
//! time received, sender, callback number, receiver (the device's own number), the ICCID of
//! the SIM it came to (through `map`, keyed by the voicemail's `label`), duration, expiry,
//! trashed time, flags and the audio file (`<ROWID>.amr` beside the database), the fields of
//! iLEAPP's `voicemail` bar the transcript (`*.transcript` files are not read yet).
//!
//! Times: `date` and `expiration` are Unix seconds; `trashed_date` is Apple seconds since 2001
//! (0 when not trashed). Identities: the receiver is the owner's phone number, the ICCID the
//! device's SIM, the sender a counterparty (`handle:<number>` unless a card holds it).

use masf_agents::RuntimeError;
use masf_graph::{EntityKind, FactType, IdType};
use masf_tools::Invoked;

use super::{Draft, Run, core_data_encoding, raw, summarise};
use crate::calls::column_or_null;
use crate::drafts::unix_seconds;

/// Triage of every `voicemail.db` of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    let mut audio: Option<Option<(Invoked, Vec<String>)>> = None;
    run.each("voicemail.db", |find, path| {
        if !path.contains("/Voicemail/") {
            return Ok(());
        }
        // The audio files, looked for once, when there is a database.
        if audio.is_none() {
            audio = Some(run.find("*.amr")?);
        }
        one(run, find, path, audio.as_ref().and_then(Option::as_ref))
    })
}

fn one(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    audio: Option<&(Invoked, Vec<String>)>,
) -> Result<(), RuntimeError> {
    let Some(schema) = run.schema(path, &["voicemail", "deleted", "map"])? else {
        return Ok(());
    };
    let required = ["ROWID", "date", "sender", "duration"];
    if !schema.require(run, "voicemail", &required)? {
        return Ok(());
    }
    let map = schema.columns("map");
    let has_map = map.contains("account") && map.contains("label");
    let dir = path.rsplit_once('/').map_or("", |(d, _)| d);
    for table in ["voicemail", "deleted"] {
        let cols = schema.columns(table);
        if table == "deleted" && !required.iter().all(|c| cols.contains(*c)) {
            continue;
        }
        let c = |col: &str, alias: &str| column_or_null(&cols, "v.", col, alias);
        let iccid = if has_map && cols.contains("label") {
            "(SELECT m.account FROM map m WHERE m.label = v.label LIMIT 1)"
        } else {
            "NULL"
        };
        let sql = format!(
            "SELECT v.ROWID AS rowid, v.date AS date, v.sender AS sender, {}, {}, {iccid} AS iccid, \
v.duration AS duration, {}, {}, {}, {}, {} FROM {table} v",
            c("callback_num", "callback"),
            c("receiver", "receiver"),
            c("expiration", "expiration"),
            c("trashed_date", "trashed"),
            c("flags", "flags"),
            c("remote_uid", "remote_uid"),
            c("token", "token"),
        );
        let Some(paged) = run.paged(path, &sql, "v.ROWID")? else {
            continue;
        };
        let deleted = table == "deleted";
        for (inv, t, row) in paged.rows() {
            let rowid = raw(t, row, "rowid").unwrap_or_default();
            let sender = raw(t, row, "sender");
            let receiver = raw(t, row, "receiver");
            let iccid = raw(t, row, "iccid");
            let trashed = raw(t, row, "trashed").filter(|v| v != "0");
            let mut d = Draft::new(
                "calls",
                format!(
                    "Voicemail {rowid}{} from {}",
                    if deleted { " (deleted)" } else { "" },
                    sender.as_deref().unwrap_or("an unknown caller")
                ),
            );
            d.fact(FactType::Path, Some(path), find);
            d.fact(FactType::Phone, sender.as_deref(), inv);
            d.fact(FactType::Phone, raw(t, row, "callback").as_deref(), inv);
            d.fact(FactType::Phone, receiver.as_deref(), inv);
            d.fact(FactType::Iccid, iccid.as_deref(), inv);
            d.fact(FactType::Count, raw(t, row, "duration").as_deref(), inv);
            d.fact(FactType::Count, raw(t, row, "flags").as_deref(), inv);
            let date = raw(t, row, "date");
            d.time(
                date.as_deref(),
                unix_seconds(date.as_deref()),
                "Voicemail received",
                inv,
            );
            let exp = raw(t, row, "expiration");
            d.time(
                exp.as_deref(),
                unix_seconds(exp.as_deref()),
                "Voicemail expires",
                inv,
            );
            d.time(
                trashed.as_deref(),
                core_data_encoding(trashed.as_deref()),
                "Voicemail trashed",
                inv,
            );
            d.interpretation = format!(
                "{table} ROWID {rowid} of {path}: a voicemail{} from {} (callback {}) to {} (SIM ICCID {}), {} s long, flags {}, {}. date and expiration are Unix seconds, trashed_date Apple seconds since 2001.",
                if deleted {
                    " the user deleted (kept in the deleted table)"
                } else {
                    ""
                },
                sender.as_deref().unwrap_or("(unknown)"),
                raw(t, row, "callback").as_deref().unwrap_or("(none)"),
                receiver.as_deref().unwrap_or("(unknown)"),
                iccid.as_deref().unwrap_or("(unknown)"),
                raw(t, row, "duration").as_deref().unwrap_or("?"),
                raw(t, row, "flags").as_deref().unwrap_or("?"),
                if trashed.is_some() {
                    "trashed"
                } else {
                    "not trashed"
                },
            );
            let amr = format!("{dir}/{rowid}.amr");
            match audio.filter(|(_, found)| found.contains(&amr)) {
                Some((found, _)) => {
                    d.fact(FactType::Path, Some(&amr), found);
                    d.interpretation.push_str(&format!(" Its audio is {amr}."));
                }
                None => d.interpretation.push_str(&format!(
                    " No audio file named after ROWID {rowid} is beside the database."
                )),
            }
            run.record(d)?;
            if let Some(s) = &sender {
                run.observe_handle(s, inv, &format!("voicemail {rowid}"))?;
            }
            if let Some(r) = &receiver {
                run.observe(
                    "owner",
                    EntityKind::Person,
                    "device owner",
                    IdType::Phone,
                    r,
                    inv,
                    format!("The device's own number, which received voicemail {rowid}."),
                )?;
            }
            if let Some(i) = &iccid {
                run.observe(
                    "device",
                    EntityKind::Device,
                    "examined device",
                    IdType::Iccid,
                    i,
                    inv,
                    format!("The ICCID of the SIM voicemail {rowid} came to."),
                )?;
            }
        }
        if paged.truncated {
            summarise(
                run,
                "calls",
                path,
                find,
                "voicemails",
                &format!(
                    "SELECT count(*) AS total, min(NULLIF(date, 0)) AS first_time, max(date) AS last_time FROM {table}"
                ),
                unix_seconds,
                "First voicemail",
                "Last voicemail",
            )?;
        }
    }
    Ok(())
}
