//! KnowledgeC (`Library/CoreDuet/Knowledge/knowledgeC.db`): one phenomenon per `ZOBJECT` event
//! of the streams iLEAPP's `knowledgeC` modules report, with their fields — app in focus
//! (`/app/inFocus`: bundle id, usage in seconds), device lock (`/device/isLocked`: locked or
//! unlocked), plugged in (`/device/isPluggedIn`), backlight (`/display/isBacklit`) and now
//! playing (`/media/nowPlaying`: app, title, artist, album, genre, duration, elapsed,
//! playing, AirPlay video, media type from `ZSTRUCTUREDMETADATA`) —, each with start, end and entry creation (Core Data seconds
//! since 2001, the Mac absolute time), the day of week, the offset from GMT, the source app
//! and the event's UUID (hex).
//!
//! Schema drift: `ZOBJECT` must have `Z_PK`, `ZSTREAMNAME`, `ZSTARTDATE` and `ZENDDATE` (else
//! noted, naming what is missing); `ZSOURCE`, `ZSTRUCTUREDMETADATA` and every other column are
//! read when present.

use masf_agents::RuntimeError;
use masf_graph::FactType;
use masf_tools::Invoked;

use super::photos::{fields, times};
use super::{Draft, Run, core_data_encoding, raw, summarise};
use crate::calls::column_or_null;

/// The streams read, with what their value says.
const STREAMS: &[(&str, &str)] = &[
    ("/app/inFocus", "app in focus"),
    ("/device/isLocked", "device lock"),
    ("/device/isPluggedIn", "device plugged in"),
    ("/display/isBacklit", "display backlight"),
    ("/media/nowPlaying", "now playing"),
];

/// Triage of every `knowledgeC.db` of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    run.each("knowledgeC.db", |find, path| one(run, find, path))
}

fn one(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let Some(schema) = run.schema(path, &["ZOBJECT", "ZSOURCE", "ZSTRUCTUREDMETADATA"])? else {
        return Ok(());
    };
    if !schema.require(
        run,
        "ZOBJECT",
        &["Z_PK", "ZSTREAMNAME", "ZSTARTDATE", "ZENDDATE"],
    )? {
        return Ok(());
    }
    let o = schema.columns("ZOBJECT");
    let src = schema.columns("ZSOURCE");
    let md = schema.columns("ZSTRUCTUREDMETADATA");
    let oc = |c: &str, a: &str| column_or_null(&o, "o.", c, a);
    let mut cols = vec![
        "o.Z_PK AS pk".to_string(),
        "o.ZSTREAMNAME AS stream".to_string(),
        "o.ZSTARTDATE AS start".to_string(),
        "o.ZENDDATE AS end_time".to_string(),
        "(o.ZENDDATE - o.ZSTARTDATE) AS seconds".to_string(),
    ];
    for (c, a) in [
        ("ZVALUESTRING", "value"),
        ("ZVALUEINTEGER", "value_int"),
        ("ZCREATIONDATE", "created"),
        ("ZSECONDSFROMGMT", "gmt_offset"),
        ("ZSTARTDAYOFWEEK", "weekday"),
    ] {
        cols.push(oc(c, a));
    }
    cols.push(if o.contains("ZUUID") {
        "hex(o.ZUUID) AS uuid".into()
    } else {
        "NULL AS uuid".into()
    });
    let mut joins = String::new();
    if src.contains("Z_PK") && o.contains("ZSOURCE") {
        joins.push_str(" LEFT JOIN ZSOURCE s ON s.Z_PK = o.ZSOURCE");
        cols.push(column_or_null(&src, "s.", "ZBUNDLEID", "source_bundle"));
        cols.push(column_or_null(&src, "s.", "ZDEVICEID", "source_device"));
    } else {
        cols.push("NULL AS source_bundle, NULL AS source_device".into());
    }
    let np = [
        ("TITLE", "np_title"),
        ("ARTIST", "np_artist"),
        ("ALBUM", "np_album"),
        ("GENRE", "np_genre"),
        ("DURATION", "np_duration"),
        ("PLAYING", "np_playing"),
        ("MEDIATYPE", "np_media"),
        ("ELAPSED", "np_elapsed"),
        ("ISAIRPLAYVIDEO", "np_airplay"),
    ];
    if md.contains("Z_PK") && o.contains("ZSTRUCTUREDMETADATA") {
        joins.push_str(" LEFT JOIN ZSTRUCTUREDMETADATA m ON m.Z_PK = o.ZSTRUCTUREDMETADATA");
        for (k, a) in np {
            cols.push(column_or_null(
                &md,
                "m.",
                &format!("Z_DKNOWPLAYINGMETADATAKEY__{k}"),
                a,
            ));
        }
    } else {
        for (_, a) in np {
            cols.push(format!("NULL AS {a}"));
        }
    }
    let streams = STREAMS
        .iter()
        .map(|(s, _)| format!("'{s}'"))
        .collect::<Vec<_>>()
        .join(", ");
    // `paged` adds its own WHERE: the stream filter goes in a subquery.
    let select = format!(
        "SELECT * FROM (SELECT {} FROM ZOBJECT o{joins} WHERE o.ZSTREAMNAME IN ({streams})) q",
        cols.join(", ")
    );
    let Some(paged) = run.paged(path, &select, "pk")? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        let pk = raw(t, row, "pk").unwrap_or_default();
        let stream = raw(t, row, "stream").unwrap_or_default();
        let what = STREAMS
            .iter()
            .find(|(s, _)| *s == stream)
            .map_or("event", |(_, w)| *w);
        let value = raw(t, row, "value");
        let int = raw(t, row, "value_int");
        let state = match (stream.as_str(), int.as_deref()) {
            ("/device/isLocked", Some("1")) => "locked (ZVALUEINTEGER 1)".to_string(),
            ("/device/isLocked", Some("0")) => "unlocked (ZVALUEINTEGER 0)".to_string(),
            ("/device/isPluggedIn", Some("1")) => "plugged in (ZVALUEINTEGER 1)".to_string(),
            ("/device/isPluggedIn", Some("0")) => "unplugged (ZVALUEINTEGER 0)".to_string(),
            ("/display/isBacklit", Some("1")) => "backlight on (ZVALUEINTEGER 1)".to_string(),
            ("/display/isBacklit", Some("0")) => "backlight off (ZVALUEINTEGER 0)".to_string(),
            (_, _) => match &value {
                Some(v) => v.clone(),
                None => "(no value)".to_string(),
            },
        };
        let mut d = Draft::new("app_usage", format!("KnowledgeC {what} {pk}: {}", state));
        d.fact(FactType::Path, Some(path), find);
        d.fact(FactType::Text, Some(&stream), inv);
        let said = fields(
            &mut d,
            t,
            row,
            inv,
            &[
                ("value", FactType::Identifier, "value"),
                ("value_int", FactType::Count, "integer value"),
                ("seconds", FactType::Text, "usage in seconds"),
                ("gmt_offset", FactType::Count, "seconds from GMT"),
                ("weekday", FactType::Count, "day of week"),
                ("source_bundle", FactType::Identifier, "source app"),
                ("source_device", FactType::Identifier, "source device"),
                ("np_title", FactType::Text, "title"),
                ("np_artist", FactType::Name, "artist"),
                ("np_album", FactType::Text, "album"),
                ("np_genre", FactType::Text, "genre"),
                ("np_duration", FactType::Text, "duration (s)"),
                ("np_playing", FactType::Count, "playing"),
                ("np_media", FactType::Text, "media type"),
                ("np_elapsed", FactType::Count, "elapsed (s)"),
                ("np_airplay", FactType::Count, "AirPlay video"),
                ("uuid", FactType::Identifier, "UUID"),
            ],
        );
        times(
            &mut d,
            t,
            row,
            inv,
            &[
                ("start", "KnowledgeC event starts"),
                ("end_time", "KnowledgeC event ends"),
                ("created", "KnowledgeC entry created"),
            ],
        );
        d.interpretation = format!(
            "ZOBJECT Z_PK {pk} of {path}: {stream} ({what}): {state}; {}. Start, end and creation are Mac absolute times (Core Data seconds since 2001).",
            said.join("; ")
        );
        run.record(d)?;
    }
    if paged.truncated {
        summarise(
            run,
            "app_usage",
            path,
            find,
            "KnowledgeC events",
            &format!(
                "SELECT count(*) AS total, min(ZSTARTDATE) AS first_time, max(ZSTARTDATE) AS last_time FROM ZOBJECT WHERE ZSTREAMNAME IN ({streams})"
            ),
            core_data_encoding,
            "First KnowledgeC event",
            "Last KnowledgeC event",
        )?;
    }
    Ok(())
}
