//! PowerLog (`ios::powerlog`): the corpus's real log (plaso's `powerlog_2021-12-16….PLSQL`, a
//! rotated iOS 15 log with seven clock corrections) placed where iOS keeps the current one, and a
//! later release's log written by the sqlite3 CLI (`tests/fixtures/powerlog/`: in-call run
//! times, a Bluetooth audio endpoint, a retention-suffixed adapter table beside an `_Array_`
//! side table, the torch, no TimeOffset table). Every row of every table iLEAPP's PowerLog
//! modules read is found with its values; the app runtime rows are the 102 events plaso's
//! `ios_powerlog` plugin reads from the same file; each row's corrected time is the raw one plus
//! the offset of the last correction at or before it (the oldest before them all), computed here
//! apart from the reader; without corrections the log's clock is kept and said. The same log
//! compressed by the gzip tool, as iOS archives earlier days, gives the same rows cited to the
//! archive. An archive cut short, a truncated copy and a table without `timestamp` are noted.

use masf_graph::Phenomenon;

use crate::android_support::{has_fact, sqlite_fixture, triage};
use crate::browsers::sqlite3;

/// iLEAPP's tables and the columns its modules select from each (timestamp first).
const TABLES: &[(&str, &str, &str)] = &[
    (
        "PLAppTimeService_Aggregate_AppRunTime",
        "app runtime",
        "BundleID, BackgroundTime, ScreenOnTime",
    ),
    (
        "PLApplicationAgent_EventForward_Application",
        "app state",
        "Identifier, pid, State, Reason",
    ),
    (
        "PLSpringBoardAgent_EventForward_SBLock",
        "device lock",
        "Locked",
    ),
    (
        "PLSpringBoardAgent_EventPoint_SBAutoLock",
        "auto-lock",
        "AutoLockType",
    ),
    (
        "PLSleepWakeAgent_EventForward_PowerState",
        "power state",
        "Event, State, Reason, UUID",
    ),
    (
        "PLBatteryAgent_EventBackward_BatteryUI",
        "battery level",
        "Level, IsCharging",
    ),
    (
        "PLDisplayAgent_EventForward_Display",
        "display",
        "Brightness, SliderValue, lux, mNits",
    ),
    (
        "PLAudioAgent_EventForward_Routing",
        "audio route",
        "Active, ActiveRoute, OutputCategory, HeadphonesConnected",
    ),
    (
        "PLCameraAgent_EventForward_Camera",
        "camera",
        "BundleId, CameraType, State",
    ),
    (
        "PLCameraAgent_EventForward_Torch",
        "torch",
        "BundleId, Level",
    ),
];

/// The phenomena of `table` of every log but the archives.
fn of<'a>(all: &'a [Phenomenon], table: &str) -> Vec<&'a Phenomenon> {
    all.iter()
        .filter(|p| {
            p.interpretation.starts_with(&format!("{table} row "))
                && !p.interpretation.contains(".PLSQL.gz:")
        })
        .collect()
}

/// The phenomena of `table` read from the archive `archive`.
fn of_archive<'a>(all: &'a [Phenomenon], table: &str, archive: &str) -> Vec<&'a Phenomenon> {
    all.iter()
        .filter(|p| {
            p.interpretation.starts_with(&format!("{table} row "))
                && p.interpretation.contains(&format!("{archive}:"))
        })
        .collect()
}

/// Whether `p` holds `v`: as written, or (a real) the same number as the tool writes it (the
/// CLI's `6.8e-05` is the tool's `6.8e-5`; the CLI prints 15 significant digits, the tool 17).
fn holds(p: &Phenomenon, v: &str) -> bool {
    has_fact(p, v)
        || v.parse::<f64>().is_ok_and(|x| {
            p.verified_facts.iter().any(|f| {
                f.value
                    .parse::<f64>()
                    .is_ok_and(|y| (x - y).abs() <= 1e-13 * x.abs().max(1.0))
            })
        })
}

/// The phenomenon of row `id` of `table`.
fn row<'a>(found: &[&'a Phenomenon], table: &str, id: &str) -> &'a Phenomenon {
    found
        .iter()
        .find(|p| {
            p.interpretation
                .starts_with(&format!("{table} row {id} of "))
        })
        .unwrap_or_else(|| panic!("{table} row {id}"))
}

#[test]
fn powerlog_real_and_later_release() {
    let tmp = tempfile::tempdir().unwrap();
    let a = tmp.path().join("a");
    let lib = a.join("private/var/containers/Shared/SystemGroup/0A1B/Library/BatteryLife");
    std::fs::create_dir_all(&lib).unwrap();
    let real = lib.join("CurrentPowerlog.PLSQL");
    std::fs::copy(
        masf_testkit::corpus::path("ios/plaso-powerlog_2021-12-16_05-54_84E2141B.PLSQL"),
        &real,
    )
    .unwrap();
    std::fs::create_dir_all(lib.join("Archives")).unwrap();
    let gz = lib.join("Archives/powerlog_2021-12-15_05-54_84E2141B.PLSQL.gz");
    let out = std::process::Command::new("gzip")
        .arg("-c")
        .arg(&real)
        .output()
        .unwrap();
    std::fs::write(&gz, &out.stdout).unwrap();
    // an archive cut short in its deflate data
    std::fs::write(
        lib.join("Archives/powerlog_2021-12-14_05-54_84E2141B.PLSQL.gz"),
        &out.stdout[..out.stdout.len() / 2],
    )
    .unwrap();

    let b = tmp.path().join("b");
    let later = b.join(
        "private/var/containers/Shared/SystemGroup/9F/Library/BatteryLife/CurrentPowerlog.PLSQL",
    );
    sqlite_fixture(&later, "powerlog/powerlog.sql", "SELECT 1;");
    let bytes = std::fs::read(&later).unwrap();
    let cut = b.join("copy/BatteryLife/old.PLSQL");
    std::fs::create_dir_all(cut.parent().unwrap()).unwrap();
    std::fs::write(&cut, &bytes[..bytes.len() / 3]).unwrap();

    let run = triage(&[
        ("a", &a, "Europe/Berlin", Some("DE")),
        ("b", &b, "America/New_York", Some("US")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());

    // The real log: every row of iLEAPP's tables, and the clock corrections.
    let all = run.all_phenomena("a");
    let offsets: Vec<(f64, f64)> = sqlite3(
        &real,
        "SELECT timestamp, system FROM PLStorageOperator_EventForward_TimeOffset \
         WHERE timestamp IS NOT NULL AND system IS NOT NULL ORDER BY timestamp",
    )
    .iter()
    .map(|r| (r[0].parse().unwrap(), r[1].parse().unwrap()))
    .collect();
    assert_eq!(offsets.len(), 7);
    let correction = |raw: f64| {
        offsets
            .iter()
            .rev()
            .find(|(t, _)| *t <= raw)
            .unwrap_or(&offsets[0])
            .1
    };
    let mut read = 0;
    for (table, _, cols) in TABLES {
        let found = of(&all, table);
        let rows = sqlite3(&real, &format!("SELECT ID, timestamp, {cols} FROM {table}"));
        assert_eq!(found.len(), rows.len(), "{table}");
        for r in &rows {
            let p = row(&found, table, &r[0]);
            for v in r[1..].iter().filter(|v| !v.is_empty()) {
                assert!(holds(p, v), "{table} {v}: {p:#?}");
            }
            assert_eq!(p.times.len(), 1, "{p:#?}");
            let at = &p.verified_facts[p.times[0].fact].value;
            let raw: f64 = r[1].parse().unwrap();
            let got: f64 = at.parse().unwrap();
            assert!(
                (got - (raw + correction(raw))).abs() < 1e-3,
                "{table} row {}: {got} vs {raw} + {}",
                r[0],
                correction(raw)
            );
            assert!(
                p.interpretation.contains("corrected by"),
                "{}",
                p.interpretation
            );
        }
        read += rows.len();
    }
    assert!(read > 1000, "{read}");
    // plaso's ios_powerlog plugin reads 102 events from this file: the app run times.
    let runtime = of(&all, "PLAppTimeService_Aggregate_AppRunTime");
    assert_eq!(runtime.len(), 102);
    assert!(runtime.iter().all(|p| p.category == "app_usage"));
    let locks = of(&all, "PLSpringBoardAgent_EventForward_SBLock");
    assert_eq!(
        locks
            .iter()
            .filter(|p| p.title == "PowerLog device unlocked")
            .count(),
        2,
        "{locks:#?}"
    );
    // The archive (the same log compressed by gzip): the same rows and times, cited to it.
    const ARCHIVE: &str = "Archives/powerlog_2021-12-15_05-54_84E2141B.PLSQL.gz";
    for (table, _, _) in TABLES {
        let live = of(&all, table);
        let archived = of_archive(&all, table, ARCHIVE);
        assert_eq!(archived.len(), live.len(), "{table}");
        for p in &live {
            let id = p.interpretation[table.len() + 5..]
                .split(' ')
                .next()
                .unwrap();
            let a = row(&archived, table, id);
            assert_eq!(a.title, p.title);
            let at = |p: &Phenomenon| p.verified_facts[p.times[0].fact].value.clone();
            assert_eq!(at(a), at(p), "{table} row {id}");
            assert!(
                a.verified_facts.iter().any(|f| f.value.ends_with(ARCHIVE)),
                "{a:#?}"
            );
        }
    }
    run.assert_noted(
        "a",
        &[(
            "Archives/powerlog_2021-12-14_05-54_84E2141B.PLSQL.gz",
            "not inflated: gzip in",
        )],
    );

    // The later release: optional columns, a suffixed table, no corrections.
    let all = run.all_phenomena("b");
    let runtime = of(&all, "PLAppTimeService_Aggregate_AppRunTime");
    assert_eq!(runtime.len(), 2);
    let wa = row(&runtime, "PLAppTimeService_Aggregate_AppRunTime", "1");
    assert_eq!(wa.title, "PowerLog app runtime: net.whatsapp.WhatsApp");
    for v in ["1730000000.25", "845.75", "12.5", "300.0", "3600.0"] {
        assert!(has_fact(wa, v), "{v}: {wa:#?}");
    }
    assert!(
        wa.interpretation.contains("the log's own clock"),
        "{}",
        wa.interpretation
    );
    let route = of(&all, "PLAudioAgent_EventForward_Routing");
    assert_eq!(route.len(), 1);
    assert!(has_fact(route[0], "Car") && has_fact(route[0], "BluetoothA2DPOutput"));
    let adapter = of(&all, "PLBatteryAgent_EventBackward_Adapter_Dynamic");
    assert_eq!(
        adapter.len(),
        1,
        "the suffixed table, not its _Array_ side table"
    );
    assert!(has_fact(adapter[0], "18500.0"));
    assert_eq!(of(&all, "PLCameraAgent_EventForward_Torch").len(), 2);
    let locks = of(&all, "PLSpringBoardAgent_EventForward_SBLock");
    let titles: Vec<&str> = locks.iter().map(|p| p.title.as_str()).collect();
    assert_eq!(
        titles,
        ["PowerLog device unlocked", "PowerLog device locked"]
    );
    assert!(of(&all, "PLDisplayAgent_EventForward_Display").is_empty());
    run.assert_noted(
        "b",
        &[
            ("copy/BatteryLife/old.PLSQL", "malformed"),
            (
                "9F/Library/BatteryLife/CurrentPowerlog.PLSQL",
                "table PLDisplayAgent_EventForward_Display lacks timestamp",
            ),
        ],
    );
}
