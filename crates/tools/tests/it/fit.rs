//! `read_fit` on FIT files fit-tool wrote (`tests/fixtures/fit/fit_files.py`, Stages Cycling's
//! encoder): every message fit-tool decodes back is printed with its fields (the watch's and the
//! strap's serial numbers, the friendly name, the session's sport, start and distance), times in
//! UTC, positions in semicircles with their degrees (west of Greenwich negative); `messages`
//! filters and `skip`/`limit` page the track points; a file cut short keeps what precedes the
//! cut and names its offset; a bad checksum is said and the file read without it; a text file is
//! refused.

use std::process::Command;

use masf_testkit::corpus;
use masf_tools::{Catalog, SourceCtx};
use serde_json::{Value, json};

use crate::support::run;

/// The message lines of an output.
fn lines(text: &str) -> Vec<Value> {
    text.lines()
        .filter(|l| l.starts_with('{'))
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// The oracle's Unix milliseconds as the tool's RFC 3339 UTC text.
fn utc(ms: &Value) -> String {
    let s = ms.as_i64().unwrap() / 1000;
    jiff::Timestamp::from_second(s)
        .unwrap()
        .strftime("%Y-%m-%dT%H:%M:%SZ")
        .to_string()
}

#[test]
fn activities_written_by_fit_tool() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("fit");
    let oracle_file = tmp.path().join("oracle.json");
    let out = Command::new(corpus::py_oracle("python3", "fit_tool"))
        .arg(corpus::repo_root().join("tests/fixtures/fit/fit_files.py"))
        .arg(&dir)
        .arg(&oracle_file)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let o: Value = serde_json::from_slice(&std::fs::read(&oracle_file).unwrap()).unwrap();
    let ctx = SourceCtx::open("a", &dir).unwrap();

    for (file, points) in [("garmin_run.fit", "hk"), ("strava_ride.fit", "lisbon")] {
        let got = run(&ctx, "read_fit", json!({"path": format!("/{file}")}));
        let msgs = lines(&got.text);
        let expected = o[file].as_array().unwrap();
        assert_eq!(msgs.len(), expected.len(), "{}", got.text);
        assert!(!got.text.contains("# problem"), "{}", got.text);
        for (m, e) in msgs.iter().zip(expected) {
            assert_eq!(m["message"], e["message"], "{m}");
            for (k, v) in e["fields"].as_object().unwrap() {
                let mine = &m["fields"][k];
                match k.as_str() {
                    "timestamp" | "time_created" | "start_time" => {
                        assert_eq!(mine.as_str().unwrap(), utc(v), "{k}: {m}")
                    }
                    // the device's wall clock, seconds since the FIT epoch, printed without a zone
                    "local_timestamp" => {
                        let wall = jiff::civil::date(1989, 12, 31)
                            .at(0, 0, 0, 0)
                            .checked_add(jiff::Span::new().seconds(v.as_i64().unwrap()))
                            .unwrap()
                            .strftime("%Y-%m-%dT%H:%M:%S")
                            .to_string();
                        assert_eq!(mine.as_str().unwrap(), wall, "{k}: {m}")
                    }
                    // a Garmin product is its named subfield (fr945)
                    "product" => assert!(
                        !mine.is_null() || !m["fields"]["garmin_product"].is_null(),
                        "{k}: {m}"
                    ),
                    // enums print by name in the profile's words
                    "type" | "manufacturer" | "sport" | "event" | "event_type" | "gender"
                    | "device_index" => {
                        assert!(!mine.is_null(), "{k}: {m}")
                    }
                    _ if k.starts_with("position_") || k.starts_with("start_position_") => {
                        let deg = m["fields"][format!("{k}_degrees")].as_f64().unwrap();
                        assert!((deg - v.as_f64().unwrap()).abs() < 1e-6, "{k}: {m}");
                    }
                    _ => match (mine.as_f64(), v.as_f64()) {
                        (Some(a), Some(b)) => assert!((a - b).abs() < 1e-3, "{k}: {m}"),
                        _ => assert_eq!(mine, v, "{k}: {m}"),
                    },
                }
            }
        }
        // the track points are the generator's, in degrees
        let records: Vec<&Value> = msgs.iter().filter(|m| m["message"] == "record").collect();
        let pts = o[points].as_array().unwrap();
        assert_eq!(records.len(), pts.len());
        for (r, p) in records.iter().zip(pts) {
            let lat = r["fields"]["position_lat_degrees"].as_f64().unwrap();
            let lon = r["fields"]["position_long_degrees"].as_f64().unwrap();
            assert!((lat - p[0].as_f64().unwrap()).abs() < 1e-6, "{r}");
            assert!((lon - p[1].as_f64().unwrap()).abs() < 1e-6, "{r}");
            assert_eq!(r["units"]["position_lat"], "semicircles");
        }
    }
    // the devices and the user, by name
    let got = run(
        &ctx,
        "read_fit",
        json!({"path": "/garmin_run.fit", "messages": ["file_id", "device_info", "user_profile", "session"]}),
    );
    let msgs = lines(&got.text);
    assert_eq!(
        msgs.iter()
            .map(|m| m["message"].as_str().unwrap())
            .collect::<Vec<_>>(),
        [
            "file_id",
            "device_info",
            "device_info",
            "user_profile",
            "session"
        ]
    );
    assert_eq!(msgs[0]["fields"]["manufacturer"], "garmin");
    assert_eq!(msgs[0]["fields"]["serial_number"], 3987654321u64);
    assert_eq!(msgs[2]["fields"]["serial_number"], 1234509876u64);
    assert_eq!(msgs[3]["fields"]["friendly_name"], "Lok");
    assert_eq!(msgs[4]["fields"]["sport"], "running");
    // the activity's local time: the watch's wall clock (UTC+8), no zone, whatever the machine's
    let got = run(
        &ctx,
        "read_fit",
        json!({"path": "/garmin_run.fit", "messages": ["activity"]}),
    );
    assert_eq!(
        lines(&got.text)[0]["fields"]["local_timestamp"],
        "2024-06-04T14:01:00"
    );
    assert_eq!(got.structured.as_ref().unwrap()["counts"]["record"], 6);
    // pages of track points
    let got = run(
        &ctx,
        "read_fit",
        json!({"path": "/garmin_run.fit", "messages": ["record"], "skip": 4, "limit": 10}),
    );
    assert!(
        got.text.contains("# page: messages 5 to 6 of 6 shown"),
        "{}",
        got.text
    );
    assert_eq!(lines(&got.text).len(), 2);
    // cut short: what precedes the cut, and where it stopped
    let got = run(&ctx, "read_fit", json!({"path": "/cut.fit"}));
    let msgs = lines(&got.text);
    assert!(!msgs.is_empty() && msgs.len() < o["garmin_run.fit"].as_array().unwrap().len());
    assert_eq!(msgs[0]["message"], "file_id");
    assert!(
        got.text
            .contains("# problem: decoding stopped at byte offset"),
        "{}",
        got.text
    );
    // a bad checksum: said, and read without it
    let got = run(&ctx, "read_fit", json!({"path": "/badcrc.fit"}));
    assert!(got.text.contains("# problem: CRC"), "{}", got.text);
    assert_eq!(
        lines(&got.text).len(),
        o["garmin_run.fit"].as_array().unwrap().len()
    );
    // not a FIT file
    let e = Catalog::standard()
        .get("read_fit")
        .unwrap()
        .run(&ctx, &json!({"path": "/notfit.fit"}))
        .unwrap_err()
        .to_string();
    assert!(e.contains("not a FIT file it can read"), "{e}");
}

/// Every cut and every flipped byte of a FIT file decodes to an answer, never a panic.
#[test]
fn hostile_fit_bytes_never_panic() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("fit");
    let oracle_file = tmp.path().join("oracle.json");
    let out = Command::new(corpus::py_oracle("python3", "fit_tool"))
        .arg(corpus::repo_root().join("tests/fixtures/fit/fit_files.py"))
        .arg(&dir)
        .arg(&oracle_file)
        .output()
        .unwrap();
    assert!(out.status.success());
    let data = std::fs::read(dir.join("garmin_run.fit")).unwrap();
    for cut in 0..data.len() {
        let _ = masf_tools::fit::decode(&data[..cut]);
    }
    for at in 0..data.len() {
        for x in [0x00u8, 0xff, 0x40, 0x80] {
            let mut m = data.clone();
            m[at] ^= x;
            let _ = masf_tools::fit::decode(&m);
        }
    }
}
