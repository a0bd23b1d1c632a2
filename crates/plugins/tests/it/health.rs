//! Apple Health (`ios::health`): two iPhones' stores written by the sqlite3 CLI from
//! `tests/fixtures/health/` — iOS 17's `healthdb.sqlite` (source devices, sources) and
//! `healthdb_secure.sqlite` with `workout_activities`, statistics and metadata; iOS 13's
//! `healthdb_secure.sqlite` with the totals on `workouts` and no metadata tables. Every row and
//! field of iLEAPP's `Health - Source Devices` and `Health - Workouts` queries and of
//! `Connected Device Information`'s three (re-run here by the CLI) is found; the named device
//! and the one-object build iLEAPP passes over are reported and Health's placeholders are not;
//! the watch's Bluetooth address is observed; the device and app that recorded each workout are
//! named from `healthdb.sqlite`; a truncated copy and a `workouts` table without
//! `activity_type` are noted and the rest of the source is still read.

use masf_graph::Phenomenon;

use crate::android_support::{has_fact, sqlite_fixture, triage};
use crate::browsers::sqlite3;

fn build(db: &std::path::Path, fixture: &str) {
    sqlite_fixture(db, &format!("health/{fixture}"), "SELECT 1;");
}

fn titled<'a>(all: &'a [Phenomenon], prefix: &str) -> Vec<&'a Phenomenon> {
    all.iter().filter(|p| p.title.starts_with(prefix)).collect()
}

#[test]
fn health_devices_and_workouts_on_two_iphones() {
    let tmp = tempfile::tempdir().unwrap();
    let a = tmp.path().join("a");
    let health = a.join("private/var/mobile/Library/Health");
    let (devices, secure) = (
        health.join("healthdb.sqlite"),
        health.join("healthdb_secure.sqlite"),
    );
    build(&devices, "healthdb.sql");
    build(&secure, "healthdb_secure_ios17.sql");
    let b = tmp.path().join("b");
    let old = b.join("private/var/mobile/Library/Health/healthdb_secure.sqlite");
    build(&old, "healthdb_secure_ios13.sql");
    let bytes = std::fs::read(&old).unwrap();
    let cut = b.join("copy/Library/Health/healthdb_secure.sqlite");
    std::fs::create_dir_all(cut.parent().unwrap()).unwrap();
    std::fs::write(&cut, &bytes[..bytes.len() / 3]).unwrap();
    crate::ios_nearby::sqlite3(
        &b.join("other/Library/Health/healthdb_secure.sqlite"),
        "CREATE TABLE workouts (data_id INTEGER PRIMARY KEY, duration REAL); INSERT INTO workouts VALUES (1, 60.0);",
    );

    let run = triage(&[
        ("a", &a, "Europe/Lisbon", Some("PT")),
        ("b", &b, "America/Chicago", Some("US")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    assert!(run.unparsed("a").is_empty(), "{:#?}", run.unparsed("a"));
    let all = run.all_phenomena("a");

    // Source devices: iLEAPP's rows, and the named device without a local identifier.
    let found = titled(&all, "Health source device ");
    let ileapp = sqlite3(
        &devices,
        "SELECT ROWID, name, manufacturer, model, hardware, firmware, software, localIdentifier, \
         sync_provenance, sync_identity, creation_date FROM source_devices \
         WHERE name NOT LIKE '__NONE__' AND localIdentifier NOT LIKE '__NONE__'",
    );
    assert_eq!(ileapp.len(), 3);
    for row in &ileapp {
        let p = found
            .iter()
            .find(|p| p.title == format!("Health source device {}: {}", row[0], row[1]))
            .unwrap_or_else(|| panic!("{row:?}: {found:#?}"));
        assert_eq!(p.category, "device");
        for v in row[1..].iter().filter(|v| !v.is_empty()) {
            assert!(has_fact(p, v), "{v}: {p:#?}");
        }
        assert_eq!(p.times.len(), 1, "{p:#?}");
        let local = row[7].strip_suffix("-tacl").unwrap_or(&row[7]);
        assert!(p.interpretation.contains(local), "{}", p.interpretation);
    }
    assert_eq!(found.len(), 4, "{found:#?}");
    let phone = found
        .iter()
        .find(|p| p.title.ends_with(": iPhone"))
        .unwrap();
    assert!(!has_fact(phone, "__NONE__"), "{phone:#?}");
    assert!(found.iter().all(|p| !p.title.contains("__NONE__")));
    let ids = run.identifiers("a");
    for address in ["3c:22:fb:91:0a:4e", "f4:af:e7:12:88:c1"] {
        assert!(
            ids.iter()
                .any(|(t, v)| t == "bluetooth_address" && v.eq_ignore_ascii_case(address)),
            "{address}: {ids:?}"
        );
    }

    // Workouts (iOS 16 on): the activity, the workout, its statistics and its metadata.
    let workouts = titled(&all, "Workout ");
    let rows = sqlite3(
        &secure,
        "SELECT a.ROWID, a.start_date, a.end_date, a.activity_type, a.location_type, a.duration, \
         w.total_distance, w.goal_type, w.goal, s.start_date, s.end_date, o.creation_date, \
         p.source_version, p.tz_name FROM workout_activities a \
         LEFT JOIN workouts w ON w.data_id = a.owner_id LEFT JOIN samples s ON s.data_id = a.owner_id \
         LEFT JOIN objects o ON o.data_id = a.owner_id LEFT JOIN data_provenances p ON p.ROWID = o.provenance",
    );
    assert_eq!(workouts.len(), rows.len(), "{workouts:#?}");
    for row in &rows {
        let p = workouts
            .iter()
            .find(|p| p.title.starts_with(&format!("Workout {}: ", row[0])))
            .unwrap_or_else(|| panic!("{row:?}"));
        for v in row[1..].iter().filter(|v| !v.is_empty()) {
            assert!(has_fact(p, v), "{v}: {p:#?}");
        }
    }
    let run10 = workouts
        .iter()
        .find(|p| p.title == "Workout 1: running")
        .unwrap();
    assert_eq!(run10.category, "locations");
    for row in sqlite3(
        &secure,
        "SELECT v.numerical_value FROM metadata_values v JOIN metadata_keys k ON k.ROWID = v.key_id \
         WHERE v.object_id = 10",
    ) {
        assert!(has_fact(run10, &row[0]), "{row:?}: {run10:#?}");
    }
    for row in sqlite3(
        &secure,
        "SELECT quantity FROM workout_statistics WHERE workout_activity_id = 1 AND data_type IN (9, 10)",
    ) {
        assert!(has_fact(run10, &row[0]), "{row:?}");
    }
    for v in [
        "Watch",
        "Watch6,2",
        "Ana’s Apple Watch",
        "com.apple.health.7F1E2D3C-4B5A-6978-8695-A4B3C2D1E0F9",
    ] {
        assert!(has_fact(run10, v), "{v}: {run10:#?}");
    }
    assert!(
        run10.interpretation.contains("outdoors"),
        "{}",
        run10.interpretation
    );
    assert!(
        run10
            .interpretation
            .contains("average heart rate 149 per minute"),
        "{}",
        run10.interpretation
    );
    let lift = workouts
        .iter()
        .find(|p| p.title == "Workout 2: traditional strength training")
        .unwrap();
    assert_eq!(lift.category, "health");
    assert!(has_fact(lift, "Strava") && has_fact(lift, "iPhone15,2") && has_fact(lift, "240.0"));
    assert!(lift.interpretation.contains("indoors"));

    // The devices that wrote Health's objects: iLEAPP's two history queries, as written there.
    let by_build = sqlite3(
        &secure,
        "SELECT MIN(objects.creation_date), MAX(objects.creation_date), origin_product_type, \
         source_id, origin_build FROM objects LEFT OUTER JOIN data_provenances \
         ON objects.provenance = data_provenances.ROWID \
         WHERE origin_product_type != 'iPhone0,0' AND origin_product_type != 'UnknownDevice' \
         AND objects.creation_date > 0 GROUP BY origin_product_type, origin_build \
         HAVING MIN(objects.creation_date) != MAX(objects.creation_date)",
    );
    assert_eq!(by_build.len(), 2, "{by_build:?}");
    let consolidated = sqlite3(
        &secure,
        "SELECT MIN(objects.creation_date), MAX(objects.creation_date), origin_product_type \
         FROM objects LEFT OUTER JOIN data_provenances ON objects.provenance = data_provenances.ROWID \
         WHERE origin_product_type != 'UnknownDevice' AND origin_product_type != 'iPhone0,0' \
         AND objects.creation_date > 1 GROUP BY origin_product_type",
    );
    assert_eq!(consolidated.len(), 3, "{consolidated:?}");
    for (rows, by) in [(&by_build, true), (&consolidated, false)] {
        for row in rows {
            let title = if by {
                format!("Health data written by {} on build {}", row[2], row[4])
            } else {
                format!("Health data written by {}", row[2])
            };
            let p = all
                .iter()
                .find(|p| p.title == title)
                .unwrap_or_else(|| panic!("{title}"));
            for v in row.iter().filter(|v| !v.is_empty()) {
                assert!(has_fact(p, v), "{v}: {p:#?}");
            }
            assert_eq!(p.times.len(), 2);
        }
    }
    // The one-object build iLEAPP's HAVING drops is reported; the placeholder is not.
    assert!(
        all.iter()
            .any(|p| p.title == "Health data written by iPhone15,2 on build 21B80")
    );
    assert!(!all.iter().any(|p| p.title.contains("iPhone0,0")));
    let older = all
        .iter()
        .find(|p| p.title == "Health data written by iPhone12,1 on build 17E262")
        .unwrap();
    assert!(
        has_fact(older, "Health") && has_fact(older, "2"),
        "{older:#?}"
    );
    let contexts = titled(&all, "Health device context ");
    let rows = sqlite3(
        &devices,
        "SELECT date_modified, product_type_name, currentOS_name, currentOS_version FROM device_context",
    );
    assert_eq!(contexts.len(), rows.len());
    for row in &rows {
        let p = contexts
            .iter()
            .find(|p| p.title.ends_with(&format!(": {}", row[1])))
            .unwrap_or_else(|| panic!("{row:?}"));
        for v in row {
            assert!(has_fact(p, v), "{v}: {p:#?}");
        }
    }

    // iOS 13: the totals on workouts, no metadata tables.
    let all = run.all_phenomena("b");
    let workouts = titled(&all, "Workout ");
    let rows = sqlite3(
        &old,
        "SELECT w.data_id, w.activity_type, w.duration, w.total_energy_burned, w.total_distance, \
         w.goal_type, w.goal, w.total_basal_energy_burned, s.start_date, s.end_date \
         FROM workouts w LEFT JOIN samples s ON s.data_id = w.data_id",
    );
    assert_eq!(workouts.len(), rows.len(), "{workouts:#?}");
    for row in &rows {
        let p = workouts
            .iter()
            .find(|p| p.interpretation.contains(&format!("(workout {})", row[0])))
            .unwrap_or_else(|| panic!("{row:?}: {workouts:#?}"));
        for v in row[1..].iter().filter(|v| !v.is_empty()) {
            assert!(has_fact(p, v), "{v}: {p:#?}");
        }
    }
    assert!(workouts.iter().any(|p| p.title.ends_with(": walking")));
    assert!(
        workouts
            .iter()
            .any(|p| p.title.ends_with(": activity type 9999"))
    );
    run.assert_noted(
        "b",
        &[
            ("copy/Library/Health/healthdb_secure.sqlite", "malformed"),
            (
                "other/Library/Health/healthdb_secure.sqlite",
                "table workouts lacks activity_type",
            ),
        ],
    );
}

/// Health's samples (`ios::healthsamples`) of the same two stores: every sample of each kind
/// iLEAPP's sample modules read (re-run here by the CLI, their joins on `objects` left out: the
/// iOS 13 store keeps no objects, so iLEAPP's inner-joined `Health - Steps` finds none of its
/// steps, which are read here), with its times, value and metadata; each heart-rate measurement
/// of a series (iLEAPP's per-minute value, rounded); the periods the watch was worn (iLEAPP's
/// `Watch Worn Data` reading of type 70); the achievements (a text creation date kept as text).
#[test]
fn health_samples_on_two_iphones() {
    let tmp = tempfile::tempdir().unwrap();
    let a = tmp.path().join("a");
    let health = a.join("private/var/mobile/Library/Health");
    let secure = health.join("healthdb_secure.sqlite");
    build(&health.join("healthdb.sqlite"), "healthdb.sql");
    build(&secure, "healthdb_secure_ios17.sql");
    let b = tmp.path().join("b");
    let old = b.join("private/var/mobile/Library/Health/healthdb_secure.sqlite");
    build(&old, "healthdb_secure_ios13.sql");
    let run = triage(&[
        ("a", &a, "Europe/Lisbon", Some("PT")),
        ("b", &b, "America/Chicago", Some("US")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for (source, db) in [("a", &secure), ("b", &old)] {
        // (the iOS 13 store's lack of an objects table is noted by the device history)
        let notes = run.unparsed(source);
        assert!(
            notes
                .iter()
                .all(|u| u.reason == "unexpected schema: the database has no objects table"),
            "{notes:#?}"
        );
        let all = run.all_phenomena(source);
        let mut total = 0;
        for (ty, name, table, column) in [
            (7, "Steps", "quantity_samples", "quantity"),
            (5, "Heart rate", "quantity_samples", "quantity"),
            (118, "Resting heart rate", "quantity_samples", "quantity"),
            (2, "Height", "quantity_samples", "quantity"),
            (3, "Body mass", "quantity_samples", "quantity"),
            (173, "Headphone audio level", "quantity_samples", "quantity"),
            (256, "Wrist temperature", "quantity_samples", "quantity"),
            (63, "Sleep", "category_samples", "value"),
        ] {
            let found = titled(&all, &format!("{name}: "));
            let rows = sqlite3(
                db,
                &format!(
                    "SELECT s.data_id, s.start_date, s.end_date, x.{column} FROM samples s \
                     JOIN {table} x ON x.data_id = s.data_id WHERE s.data_type = {ty}"
                ),
            );
            assert_eq!(found.len(), rows.len(), "{name}: {found:#?}");
            total += rows.len();
            for row in &rows {
                let p = found
                    .iter()
                    .find(|p| {
                        p.interpretation
                            .starts_with(&format!("samples row {} of", row[0]))
                    })
                    .unwrap_or_else(|| panic!("{name} {row:?}: {found:#?}"));
                assert_eq!(p.category, "health");
                for v in &row[1..] {
                    assert!(has_fact(p, v), "{v}: {p:#?}");
                }
                assert!(p.times.len() >= 2, "{p:#?}");
            }
        }
        assert!(total >= 3, "{source}: {total}");
        if source == "b" {
            // no metadata or series tables on this layout
            assert!(titled(&all, "Heart rate measurement: ").is_empty());
            continue;
        }
        // each sample's metadata, as iLEAPP's joins read it
        for row in sqlite3(
            db,
            "SELECT v.object_id, k.key, COALESCE(v.numerical_value, v.string_value) FROM metadata_values v \
             JOIN metadata_keys k ON k.ROWID = v.key_id JOIN samples s ON s.data_id = v.object_id \
             WHERE s.data_type IN (5, 173, 256)",
        ) {
            let p = all
                .iter()
                .find(|p| {
                    p.interpretation
                        .starts_with(&format!("samples row {} of", row[0]))
                })
                .unwrap();
            assert!(
                p.interpretation.contains(&format!("{}={}", row[1], row[2])),
                "{row:?}: {}",
                p.interpretation
            );
        }
        // iLEAPP's heart rate: the series' measurements where a sample has one, the sample else
        let series = sqlite3(
            db,
            "SELECT d.timestamp, CAST(round(d.value * 60) AS INT) FROM quantity_series_data d \
             JOIN quantity_sample_series q ON q.hfd_key = d.series_identifier \
             JOIN samples s ON s.data_id = q.data_id WHERE s.data_type = 5",
        );
        let points = titled(&all, "Heart rate measurement: ");
        assert_eq!(points.len(), series.len(), "{points:#?}");
        for row in &series {
            let p = points
                .iter()
                .find(|p| has_fact(p, &row[0]))
                .unwrap_or_else(|| panic!("{row:?}"));
            let per_minute: f64 = p.title["Heart rate measurement: ".len()..]
                .trim_end_matches(" per minute")
                .parse()
                .unwrap();
            assert_eq!(per_minute.round().to_string(), row[1], "{p:#?}");
        }
    }
    let all = run.all_phenomena("a");
    assert_eq!(titled(&all, "Heart rate measurement: ").len(), 3);
    let hr = all
        .iter()
        .find(|p| p.title == "Heart rate: 90 per minute")
        .unwrap();
    assert!(hr.interpretation.contains("heart rate context sedentary"));
    for v in ["Watch", "Ana’s Apple Watch", "Watch6,2", "Europe/Lisbon"] {
        assert!(has_fact(hr, v), "{v}: {hr:#?}");
    }
    assert!(all.iter().any(|p| p.title == "Sleep: asleep, deep"));
    assert!(all.iter().any(|p| p.title == "Sleep: in bed"));
    assert!(all.iter().any(|p| p.title == "Steps: 812 steps"));
    // the weight logged on the phone on a later build: its recorder from healthdb.sqlite
    let weight = all
        .iter()
        .find(|p| p.title == "Body mass: 71.4 kg")
        .unwrap();
    assert!(
        has_fact(weight, "iPhone15,2") && has_fact(weight, "Health"),
        "{weight:#?}"
    );

    // worn periods: iLEAPP's reading (a new period after more than an hour without a sample)
    let worn = titled(&all, "Watch worn for ");
    let titles: Vec<&str> = worn.iter().map(|p| p.title.as_str()).collect();
    assert_eq!(
        titles,
        ["Watch worn for 3.0 hours", "Watch worn for 2.0 hours"]
    );
    for (p, (from, until)) in worn.iter().zip([
        ("720400000.0", "720410800.0"),
        ("720420000.0", "720427200.0"),
    ]) {
        let marks: Vec<&str> = p
            .times
            .iter()
            .map(|t| p.verified_facts[t.fact].value.as_str())
            .collect();
        assert_eq!(marks, [from, until]);
    }
    assert!(has_fact(worn[0], "2.56"), "{:#?}", worn[0]);

    // achievements: iLEAPP's columns
    for (source, db) in [("a", &secure), ("b", &old)] {
        let all = run.all_phenomena(source);
        let found = titled(&all, "Achievement earned: ");
        let rows = sqlite3(
            db,
            "SELECT template_unique_name, created_date, earned_date, value_in_canonical_unit, \
             value_canonical_unit, creator_device FROM ACHAchievementsPlugin_earned_instances",
        );
        assert_eq!(found.len(), rows.len());
        for row in &rows {
            let p = found
                .iter()
                .find(|p| p.title == format!("Achievement earned: {}", row[0]))
                .unwrap();
            for v in row {
                assert!(has_fact(p, v), "{v}: {p:#?}");
            }
            // a number is a time; iOS 13's text date is kept as text
            assert_eq!(p.times.len(), usize::from(row[1].parse::<f64>().is_ok()));
        }
    }
}
