//! FIT activity files (`plugins::fitfile`, via `read_fit`) on an Android phone (Strava's and
//! Garmin Connect's folders) and an iPhone (Garmin Connect's container), written by
//! `tests/fixtures/fit/fit_files.py` (fit-tool, Stages Cycling's encoder). The generator's
//! decoding is the oracle: each activity's sport, start, distance and start position, the
//! devices' serial numbers and the user profile, the first and last track points with their
//! times and degrees; the watch that recorded the run is one `fit-device:<serial>` device on
//! both phones; a file cut short is read up to the cut and said damaged; a text file named .fit
//! is noted.

use std::path::Path;

use crate::android_support::{has_fact, titled, triage};

fn copy(from: &Path, to: &Path) {
    std::fs::create_dir_all(to.parent().unwrap()).unwrap();
    std::fs::copy(from, to).unwrap();
}

#[test]
fn fit_activities_on_an_android_phone_and_an_iphone() {
    let tmp = tempfile::tempdir().unwrap();
    let fit = tmp.path().join("fit");
    let oracle_file = tmp.path().join("oracle.json");
    let o = crate::android_support::generate(
        "fit_tool",
        "tests/fixtures/fit/fit_files.py",
        &[fit.as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let android = tmp.path().join("android");
    std::fs::create_dir_all(android.join("data/system/users/0")).unwrap();
    copy(
        &fit.join("strava_ride.fit"),
        &android.join("data/data/com.strava/files/activities/9f8e7d.fit"),
    );
    copy(
        &fit.join("garmin_run.fit"),
        &android
            .join("data/data/com.garmin.android.apps.connectmobile/files/fit/activity_160001.fit"),
    );
    let iphone = tmp.path().join("iphone");
    let app = iphone.join(
        "private/var/mobile/Containers/Data/Application/5C1D2E3F-0000-4000-8000-00000000F001/Documents/FitFiles",
    );
    copy(&fit.join("garmin_run.fit"), &app.join("160001.fit"));
    copy(&fit.join("cut.fit"), &app.join("160002.fit"));
    copy(&fit.join("notfit.fit"), &app.join("readme.fit"));
    let run = triage(&[
        ("android", &android, "Asia/Hong_Kong", Some("HK")),
        ("iphone", &iphone, "Asia/Hong_Kong", Some("HK")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());

    let run_title = "Fitness activity: running from 2024-06-04T06:00:00Z";
    for source in ["android", "iphone"] {
        let all = run.all_phenomena(source);
        let p = titled(&all, run_title);
        assert_eq!(p.category, "locations");
        for v in ["3987654321", "1234509876", "Lok", "running", "fr945"] {
            assert!(has_fact(p, v), "{v}: {p:#?}");
        }
        let hk = o["hk"].as_array().unwrap();
        let first = hk[0][0].as_f64().unwrap();
        let last = hk[hk.len() - 1][1].as_f64().unwrap();
        assert!(
            p.verified_facts.iter().any(|f| f
                .value
                .parse::<f64>()
                .is_ok_and(|v| (v - first).abs() < 1e-6)),
            "{p:#?}"
        );
        assert!(
            p.verified_facts.iter().any(|f| f
                .value
                .parse::<f64>()
                .is_ok_and(|v| (v - last).abs() < 1e-6)),
            "{p:#?}"
        );
        let times: Vec<(&str, &str)> = p
            .times
            .iter()
            .map(|t| {
                (
                    t.description.as_str(),
                    p.verified_facts[t.fact].value.as_str(),
                )
            })
            .collect();
        for want in [
            ("FIT file created", "2024-06-04T06:00:00Z"),
            ("Activity started", "2024-06-04T06:00:00Z"),
            ("First track point", "2024-06-04T06:00:00Z"),
            ("Last track point", "2024-06-04T06:00:50Z"),
        ] {
            assert!(times.contains(&want), "{want:?}: {times:?}");
        }
        // the watch, a device of its own on both phones
        let entities = run.entities(source);
        assert!(
            entities
                .iter()
                .any(|e| e.starts_with("fit-device:3987654321 [Device]")
                    && e.contains("serial=3987654321")),
            "{entities:#?}"
        );
    }
    // the Strava ride west of Greenwich
    let all = run.all_phenomena("android");
    let ride = titled(&all, "Fitness activity: cycling from 2023-07-22T04:26:40Z");
    assert!(
        ride.verified_facts
            .iter()
            .any(|f| f.value.starts_with("-9.135455")),
        "{ride:#?}"
    );
    assert!(has_fact(ride, "strava"), "{ride:#?}");
    // the iPhone's damaged copy and the text file
    let all = run.all_phenomena("iphone");
    let damaged: Vec<_> = all
        .iter()
        .filter(|p| p.interpretation.contains("The file is damaged"))
        .collect();
    assert_eq!(damaged.len(), 1, "{damaged:#?}");
    assert!(
        damaged[0]
            .interpretation
            .contains("decoding stopped at byte offset")
    );
    run.assert_noted("iphone", &[("readme.fit", "not a FIT file")]);
}
