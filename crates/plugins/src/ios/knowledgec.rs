//! KnowledgeC (`Library/CoreDuet/Knowledge/knowledgeC.db`): one phenomenon per `ZOBJECT` event
//! of the streams iLEAPP's `knowledgeC` modules report, with their fields — app in focus
//! (`/app/inFocus`: bundle id, usage in seconds), device lock (`/device/isLocked`: locked or
//! unlocked), plugged in (`/device/isPluggedIn`), backlight (`/display/isBacklit`), now
//! playing (`/media/nowPlaying`: app, title, artist, album, genre, duration, elapsed,
//! playing, AirPlay video, media type from `ZSTRUCTUREDMETADATA`), web usage
//! (`/app/webUsage`: the app, the domain and page), Bluetooth connections
//! (`/bluetooth/isConnected`: connected or not, the peer's name, address, type and product id:
//! a car, a headset, another device), CarPlay (`/carplay/isConnected`), battery level
//! (`/device/batteryPercentage`) and app activities (`/app/activity`: activity type, title,
//! content URL and description, item id) —, each with start, end and entry creation (Core Data
//! seconds since 2001, the Mac absolute time), the day of week, the offset from GMT, the source
//! app and the event's UUID (hex). Metadata columns are read when the table has them.
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
    ("/app/webUsage", "web usage"),
    ("/bluetooth/isConnected", "Bluetooth connection"),
    ("/carplay/isConnected", "CarPlay connection"),
    ("/device/batteryPercentage", "battery level"),
    ("/app/activity", "app activity"),
];

/// `ZSTRUCTUREDMETADATA` columns read (when present): (column, alias, fact type, what it is).
const METADATA: &[(&str, &str, FactType, &str)] = &[
    (
        "Z_DKNOWPLAYINGMETADATAKEY__TITLE",
        "np_title",
        FactType::Text,
        "title",
    ),
    (
        "Z_DKNOWPLAYINGMETADATAKEY__ARTIST",
        "np_artist",
        FactType::Name,
        "artist",
    ),
    (
        "Z_DKNOWPLAYINGMETADATAKEY__ALBUM",
        "np_album",
        FactType::Text,
        "album",
    ),
    (
        "Z_DKNOWPLAYINGMETADATAKEY__GENRE",
        "np_genre",
        FactType::Text,
        "genre",
    ),
    (
        "Z_DKNOWPLAYINGMETADATAKEY__DURATION",
        "np_duration",
        FactType::Text,
        "duration (s)",
    ),
    (
        "Z_DKNOWPLAYINGMETADATAKEY__PLAYING",
        "np_playing",
        FactType::Count,
        "playing",
    ),
    (
        "Z_DKNOWPLAYINGMETADATAKEY__MEDIATYPE",
        "np_media",
        FactType::Text,
        "media type",
    ),
    (
        "Z_DKNOWPLAYINGMETADATAKEY__ELAPSED",
        "np_elapsed",
        FactType::Count,
        "elapsed (s)",
    ),
    (
        "Z_DKNOWPLAYINGMETADATAKEY__ISAIRPLAYVIDEO",
        "np_airplay",
        FactType::Count,
        "AirPlay video",
    ),
    (
        "Z_DKDIGITALHEALTHMETADATAKEY__WEBDOMAIN",
        "web_domain",
        FactType::Identifier,
        "web domain",
    ),
    (
        "Z_DKDIGITALHEALTHMETADATAKEY__WEBPAGEURL",
        "web_url",
        FactType::Url,
        "web page",
    ),
    (
        "Z_DKBLUETOOTHMETADATAKEY__NAME",
        "bt_name",
        FactType::Name,
        "Bluetooth device name",
    ),
    (
        "Z_DKBLUETOOTHMETADATAKEY__ADDRESS",
        "bt_address",
        FactType::Identifier,
        "Bluetooth address",
    ),
    (
        "Z_DKBLUETOOTHMETADATAKEY__DEVICETYPE",
        "bt_type",
        FactType::Count,
        "Bluetooth device type",
    ),
    (
        "Z_DKBLUETOOTHMETADATAKEY__PRODUCTID",
        "bt_product",
        FactType::Count,
        "Bluetooth product id",
    ),
    (
        "Z_DKAPPLICATIONACTIVITYMETADATAKEY__ACTIVITYTYPE",
        "act_type",
        FactType::Identifier,
        "activity type",
    ),
    (
        "Z_DKAPPLICATIONACTIVITYMETADATAKEY__TITLE",
        "act_title",
        FactType::Text,
        "activity title",
    ),
    (
        "Z_DKAPPLICATIONACTIVITYMETADATAKEY__ITEMRELATEDCONTENTURL",
        "act_url",
        FactType::Url,
        "content URL",
    ),
    (
        "Z_DKAPPLICATIONACTIVITYMETADATAKEY__CONTENTDESCRIPTION",
        "act_description",
        FactType::Text,
        "content description",
    ),
    (
        "Z_DKAPPLICATIONACTIVITYMETADATAKEY__ITEMIDENTIFIER",
        "act_item",
        FactType::Identifier,
        "item identifier",
    ),
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
        ("ZVALUEDOUBLE", "value_double"),
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
    if md.contains("Z_PK") && o.contains("ZSTRUCTUREDMETADATA") {
        joins.push_str(" LEFT JOIN ZSTRUCTUREDMETADATA m ON m.Z_PK = o.ZSTRUCTUREDMETADATA");
        for (c, a, _, _) in METADATA {
            cols.push(column_or_null(&md, "m.", c, a));
        }
    } else {
        for (_, a, _, _) in METADATA {
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
            ("/bluetooth/isConnected" | "/carplay/isConnected", Some("1")) => {
                "connected (ZVALUEINTEGER 1)".to_string()
            }
            ("/bluetooth/isConnected" | "/carplay/isConnected", Some("0")) => {
                "disconnected (ZVALUEINTEGER 0)".to_string()
            }
            ("/device/batteryPercentage", _) if raw(t, row, "value_double").is_some() => format!(
                "{}% (ZVALUEDOUBLE)",
                raw(t, row, "value_double").unwrap_or_default()
            ),
            (_, _) => match &value {
                Some(v) => v.clone(),
                None => "(no value)".to_string(),
            },
        };
        let mut d = Draft::new("app_usage", format!("KnowledgeC {what} {pk}: {}", state));
        d.fact(FactType::Path, Some(path), find);
        d.fact(FactType::Text, Some(&stream), inv);
        let mut read: Vec<(&str, FactType, &str)> = vec![
            ("value", FactType::Identifier, "value"),
            ("value_int", FactType::Count, "integer value"),
            ("value_double", FactType::Text, "value"),
            ("seconds", FactType::Text, "usage in seconds"),
            ("gmt_offset", FactType::Count, "seconds from GMT"),
            ("weekday", FactType::Count, "day of week"),
            ("source_bundle", FactType::Identifier, "source app"),
            ("source_device", FactType::Identifier, "source device"),
        ];
        read.extend(METADATA.iter().map(|(_, a, f, w)| (*a, *f, *w)));
        read.push(("uuid", FactType::Identifier, "UUID"));
        let said = fields(&mut d, t, row, inv, &read);
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
