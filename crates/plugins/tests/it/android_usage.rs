//! Android's usage statistics (`/data/system/usagestats/0/<interval>/<begin ms>`) on two
//! phones whose files are written by Python's `xml.etree` in the layouts AOSP's
//! `UsageStatsXmlV1` writes: Android 9 (times as offsets from the begin time the file's name
//! gives, `<packages>`, `<event-log>` of `<event>` elements, screen and keyguard totals,
//! chooser counts) and Android 5.0 (absolute times, `beginTime`, `<event-log>` elements with
//! the event's attributes). Beside them a protocol-buffer file of Android 10+ (refused, noted),
//! a file whose time is no number (noted), a `.bak` copy and the `version` file (not read).

use std::path::Path;

use crate::android_support::triage;

const DAY: i64 = 1_546_300_800_000; // 2019-01-01T00:00:00Z

const WRITE: &str = r#"
import os, sys
import xml.etree.ElementTree as ET
root, day = sys.argv[1], int(sys.argv[2])
def write(rel, element):
    path = os.path.join(root, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    ET.ElementTree(element).write(path, encoding="utf-8", xml_declaration=True)
def el(tag, parent=None, **attrs):
    attrs = {k.replace("_", "-") if k == "non_interactive" else k: str(v) for k, v in attrs.items()}
    return ET.SubElement(parent, tag, attrs) if parent is not None else ET.Element(tag, attrs)
# Android 9: offsets from the file name's begin time
u = el("usagestats", version=1, endTime=86399999)
el("interactive", u, count=12, time=5400000)
el("non-interactive", u, count=11, time=80999999)
el("keyguard-shown", u, count=9, time=3600000)
el("keyguard-hidden", u, count=8, time=1800000)
pk = el("packages", u)
wa = el("package", pk, lastTimeActive=45296000, package="com.whatsapp", timeActive=1830000, lastEvent=2, appLaunchCount=7)
ca = el("chosen_action", wa, name="android.intent.action.SEND")
el("category", ca, name="text/plain", count=3)
el("package", pk, lastTimeActive=50000000, package="com.android.chrome", timeActive=600000, lastEvent=2)
cf = el("configurations", u)
el("config", cf, lastTimeActive=1000, timeActive=86000000, count=1, active="true", fs=1.0, locales="zh-Hant-HK", mcc=454, mnc=0, touch=3)
ev = el("event-log", u)
el("event", ev, time=45000000, package="com.whatsapp", **{"class": "com.whatsapp.Main"}, flags=0, type=1)
el("event", ev, time=45296000, package="com.whatsapp", **{"class": "com.whatsapp.Main"}, flags=0, type=2)
el("event", ev, time=44990000, package="android", flags=0, type=15)
el("event", ev, time=46000000, package="com.whatsapp", flags=0, type=11, standbyBucket=655360)
write("android9/data/system/usagestats/0/daily/%d" % day, u)
write("android9/data/system/usagestats/0/daily/%d.bak" % day, u)
w = el("usagestats", version=1, endTime=604799999)
pk = el("packages", w)
el("package", pk, lastTimeActive=45296000, package="com.whatsapp", timeActive=9830000, lastEvent=2, appLaunchCount=31)
write("android9/data/system/usagestats/0/weekly/%d" % day, w)
open(os.path.join(root, "android9/data/system/usagestats/0/version"), "w").write("3")
# a file whose event time is no number
bad = el("usagestats", version=1, endTime=1)
el("event", el("event-log", bad), time="12x", package="com.whatsapp", type=1)
write("android9/data/system/usagestats/0/daily/%d" % (day + 86400000), bad)
# Android 10+: a protocol buffer (field 1, end_time_ms 86399999; field 2, major version 1)
open(os.path.join(root, "android9/data/system/usagestats/0/daily/%d" % (day + 2 * 86400000)), "wb").write(bytes([0x08, 0xff, 0xd3, 0x99, 0x29, 0x10, 0x01]))
# Android 5.0: absolute times
a = el("usagestats", version=1, beginTime=day, endTime=day + 86399999)
el("package", a, name="com.tencent.mm", totalTimeActive=720000, lastTimeActive=day + 30000000, lastEvent=1)
el("event-log", a, package="com.tencent.mm", type=1, time=day + 29000000, **{"class": "com.tencent.mm.ui.LauncherUI"})
write("android5/data/system/usagestats/0/daily/%d" % day, a)
for phone in ("android9", "android5"):
    os.makedirs(os.path.join(root, phone, "data/system/users/0"), exist_ok=True)
    os.makedirs(os.path.join(root, phone, "data/user/0/com.android.providers.telephony"), exist_ok=True)
"#;

fn write(root: &Path) {
    let st = std::process::Command::new("python3")
        .args(["-c", WRITE])
        .arg(root)
        .arg(DAY.to_string())
        .status()
        .unwrap();
    assert!(st.success());
}

#[test]
fn usage_statistics_of_android_9_and_5_with_absolute_times() {
    let tmp = tempfile::tempdir().unwrap();
    write(tmp.path());
    let (a9, a5) = (tmp.path().join("android9"), tmp.path().join("android5"));
    let run = triage(&[
        ("a9", &a9, "Asia/Hong_Kong", None),
        ("a5", &a5, "Asia/Hong_Kong", None),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    let found = |source: &str, title: &str| -> masf_graph::Phenomenon {
        let all = run.all_phenomena(source);
        all.iter()
            .find(|p| p.title == title)
            .unwrap_or_else(|| {
                panic!(
                    "{title}: {:#?}",
                    all.iter()
                        .filter(|p| p.category == "app_usage")
                        .map(|p| &p.title)
                        .collect::<Vec<_>>()
                )
            })
            .clone()
    };
    let values = |p: &masf_graph::Phenomenon| -> Vec<String> {
        p.verified_facts.iter().map(|f| f.value.clone()).collect()
    };
    for p in run
        .all_phenomena("a9")
        .into_iter()
        .chain(run.all_phenomena("a5"))
    {
        assert!(p.warnings.is_empty(), "{}: {:#?}", p.title, p.warnings);
    }

    // Android 9: the offsets are added to the begin time the file's name gives
    let summary = found(
        "a9",
        &format!("Usage statistics, daily interval from {DAY}"),
    );
    assert!(
        summary.interpretation.contains(&format!(
            "daily from {DAY} to {} (Unix ms); 2 packages, 4 events, 1 configurations",
            DAY + 86_399_999
        )),
        "{}",
        summary.interpretation
    );
    assert!(
        summary
            .interpretation
            .contains("interactive: count 12, duration 5400000 ms")
    );
    let wa = found(
        "a9",
        &format!("App com.whatsapp used (daily interval from {DAY})"),
    );
    assert!(values(&wa).contains(&(DAY + 45_296_000).to_string()));
    assert!(
        wa.interpretation
            .contains("last event 2 MOVE_TO_BACKGROUND; time in foreground 1830000 ms, launches 7"),
        "{}",
        wa.interpretation
    );
    let weekly = found(
        "a9",
        &format!("App com.whatsapp used (weekly interval from {DAY})"),
    );
    assert!(weekly.interpretation.contains("launches 31"));
    let fg = found("a9", "Usage event MOVE_TO_FOREGROUND of com.whatsapp");
    assert!(values(&fg).contains(&(DAY + 45_000_000).to_string()));
    assert!(values(&fg).contains(&"com.whatsapp.Main".to_string()));
    found("a9", "Usage event SCREEN_INTERACTIVE of android");
    let bucket = found("a9", "Usage event STANDBY_BUCKET_CHANGED of com.whatsapp");
    assert!(bucket.interpretation.contains("standby bucket 655360"));
    assert_eq!(fg.times.len(), 1);
    assert_eq!(fg.times[0].encoding, masf_graph::TimeEncoding::UnixMillis);

    // the chooser counts, the configuration and the output's lines
    let outputs = run.outputs("a9");
    let daily = outputs
        .iter()
        .find(|(tool, args, _)| {
            tool == "android_usage_stats" && args.ends_with(&format!("/daily/{DAY}\"}}"))
        })
        .unwrap();
    assert!(
        daily
            .2
            .contains("chooser\t\tcom.whatsapp\t\t\t\taction android.intent.action.SEND, category text/plain, count 3")
    );
    assert!(daily.2.contains("locales=zh-Hant-HK"), "{}", daily.2);
    // the .bak copy and the version file are not read
    assert!(
        !outputs
            .iter()
            .any(|(tool, args, _)| tool == "android_usage_stats"
                && (args.contains(".bak") || args.contains("version")))
    );

    // what does not read is noted, the rest still read
    let unparsed = run.unparsed("a9");
    let note = |day: i64| {
        unparsed
            .iter()
            .find(|u| u.artefact.ends_with(&format!("/daily/{day}")))
            .map(|u| u.reason.clone())
            .unwrap_or_else(|| panic!("{day}: {unparsed:#?}"))
    };
    assert!(note(DAY + 86_400_000).contains("attribute time=\"12x\""));
    assert!(note(DAY + 2 * 86_400_000).contains("protocol buffers"));

    // Android 5.0: absolute times as written
    let mm = found(
        "a5",
        &format!("App com.tencent.mm used (daily interval from {DAY})"),
    );
    assert!(values(&mm).contains(&(DAY + 30_000_000).to_string()));
    assert!(mm.interpretation.contains("time in foreground 720000 ms"));
    let ev = found("a5", "Usage event MOVE_TO_FOREGROUND of com.tencent.mm");
    assert!(values(&ev).contains(&(DAY + 29_000_000).to_string()));
    assert!(values(&ev).contains(&"com.tencent.mm.ui.LauncherUI".to_string()));
}
