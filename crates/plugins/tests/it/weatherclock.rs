//! Samsung's weather widget (`android::weatherclock`): two phones' `WeatherClock` written by
//! `tests/fixtures/weatherclock/weatherclock.py` with the columns ALEAPP's
//! get_samsungWeatherClockInfo reads (phone A's with coordinates and a current-location flag
//! beside them, phone B's older one without the feels-like temperature). The generator's
//! record is the oracle: every place with each value as stored and its four times (Unix ms);
//! the forecasts are not read.

use crate::android_support::{generate, has_fact, triage};

#[test]
fn weather_places_on_two_samsung_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/weatherclock/weatherclock.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let run = triage(&[
        ("a", &a, "Europe/Lisbon", Some("PT")),
        ("b", &b, "Asia/Hong_Kong", Some("HK")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for source in ["a", "b"] {
        assert!(
            run.unparsed(source).is_empty(),
            "{:#?}",
            run.unparsed(source)
        );
        let all = run.all_phenomena(source);
        let found: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("Weather place: "))
            .collect();
        let expected = o[source].as_array().unwrap();
        assert_eq!(found.len(), expected.len(), "{found:#?}");
        for place in expected {
            let city = place["COL_WEATHER_NAME"].as_str().unwrap();
            let p = found
                .iter()
                .find(|p| p.title.starts_with(&format!("Weather place: {city}")))
                .unwrap_or_else(|| panic!("{city}: {found:#?}"));
            assert_eq!(p.category, "locations");
            for (k, v) in place.as_object().unwrap() {
                let v = match v {
                    serde_json::Value::String(s) => s.clone(),
                    other => other.to_string(),
                };
                assert!(has_fact(p, &v), "{k} {v}: {p:#?}");
            }
            assert_eq!(p.times.len(), 4, "{p:#?}");
        }
        // the daily forecast is not a place the phone was
        assert!(!all.iter().any(|p| p.title.contains("Sunny")));
    }
}
