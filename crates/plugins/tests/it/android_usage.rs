//! Android's usage statistics (`/data/system/usagestats/0/<interval>/<begin ms>`) on two
//! phones whose files are written by Python's `xml.etree` in the layouts AOSP's
//! `UsageStatsXmlV1` writes: Android 9 (times as offsets from the begin time the file's name
//! gives, `<packages>`, `<event-log>` of `<event>` elements, screen and keyguard totals,
//! chooser counts) and Android 5.0 (absolute times, `beginTime`, `<event-log>` elements with
//! the event's attributes). Beside them a tokenised protocol-buffer file without its `mappings` (refused, noted),
//! a file whose time is no number (noted), a `.bak` copy and the `version` file (not read).
//! Then Android 10's and Android 12's protocol-buffer files, written by Google's protobuf
//! runtime from AOSP's field layouts: names from the file's string pool, and from the user's
//! `mappings` file.

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

/// The phenomenon of `all` titled `title` (fails listing the usage titles when there is none).
fn titled<'a>(all: &'a [masf_graph::Phenomenon], title: &str) -> &'a masf_graph::Phenomenon {
    all.iter().find(|p| p.title == title).unwrap_or_else(|| {
        panic!(
            "{title}: {:#?}",
            all.iter()
                .filter(|p| p.category == "app_usage")
                .map(|p| &p.title)
                .collect::<Vec<_>>()
        )
    })
}

/// Whether a verified fact of `p` has the value `v`.
fn has(p: &masf_graph::Phenomenon, v: String) -> bool {
    p.verified_facts.iter().any(|f| f.value == v)
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
        titled(&run.all_phenomena(source), title).clone()
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

/// Android 11+'s usage statistics, written by Google's protobuf runtime (Python `protobuf`,
/// messages built from AOSP's `usagestatsservice_v2.proto` field layout): an interval file of
/// tokens and the user's `mappings` file that names them (tokens written + 1 as AOSP's
/// `UsageStatsProtoV2` writes them).
const WRITE_V2: &str = r#"
import os, sys
from google.protobuf import descriptor_pb2, descriptor_pool, message_factory
root, day = sys.argv[1], int(sys.argv[2])
F = descriptor_pb2.FieldDescriptorProto
fd = descriptor_pb2.FileDescriptorProto(name="usagestats_v2.proto", package="t", syntax="proto2")
def message(name, fields):
    m = fd.message_type.add(name=name)
    for number, fname, kind, label, type_name in fields:
        f = m.field.add(name=fname, number=number, type=kind, label=label)
        if type_name:
            f.type_name = ".t." + type_name
O, R = F.LABEL_OPTIONAL, F.LABEL_REPEATED
I32, I64, S, M, B = F.TYPE_INT32, F.TYPE_INT64, F.TYPE_STRING, F.TYPE_MESSAGE, F.TYPE_BOOL
message("CountAndTime", [(1, "count", I32, O, None), (2, "time_ms", I64, O, None)])
message("CategoryCount", [(1, "category_token", I32, O, None), (2, "count", I32, O, None)])
message("ChooserAction", [(1, "action_token", I32, O, None), (2, "counts", M, R, "CategoryCount")])
message("UsageStats", [(1, "package_token", I32, O, None), (3, "last_time_active_ms", I64, O, None),
    (4, "total_time_active_ms", I64, O, None), (5, "last_event", I32, O, None), (6, "app_launch_count", I32, O, None),
    (7, "chooser_actions", M, R, "ChooserAction"), (8, "last_time_service_used_ms", I64, O, None),
    (9, "total_time_service_used_ms", I64, O, None), (10, "last_time_visible_ms", I64, O, None),
    (11, "total_time_visible_ms", I64, O, None)])
message("Configuration", [(2, "last_time_active_ms", I64, O, None), (3, "total_time_active_ms", I64, O, None),
    (4, "count", I32, O, None), (5, "active", B, O, None)])
message("Event", [(1, "package_token", I32, O, None), (2, "class_token", I32, O, None), (3, "time_ms", I64, O, None),
    (4, "flags", I32, O, None), (5, "type", I32, O, None), (7, "shortcut_id_token", I32, O, None),
    (8, "standby_bucket", I32, O, None), (9, "notification_channel_id_token", I32, O, None),
    (10, "instance_id", I32, O, None), (11, "task_root_package_token", I32, O, None),
    (12, "task_root_class_token", I32, O, None)])
message("IntervalStats", [(1, "end_time_ms", I64, O, None), (2, "major_version", I32, O, None),
    (3, "minor_version", I32, O, None), (10, "interactive", M, O, "CountAndTime"),
    (11, "non_interactive", M, O, "CountAndTime"), (12, "keyguard_shown", M, O, "CountAndTime"),
    (13, "keyguard_hidden", M, O, "CountAndTime"), (20, "packages", M, R, "UsageStats"),
    (21, "configurations", M, R, "Configuration"), (22, "event_log", M, R, "Event")])
message("PackagesMap", [(1, "package_token", I32, O, None), (2, "strings", S, R, None)])
message("ObfuscatedPackages", [(1, "counter", I32, O, None), (2, "packages_map", M, R, "PackagesMap")])
pool = descriptor_pool.DescriptorPool()
pool.Add(fd)
cls = lambda n: message_factory.GetMessageClass(pool.FindMessageTypeByName("t." + n))
user = os.path.join(root, "android12/data/system/usagestats/0")
os.makedirs(os.path.join(user, "daily"), exist_ok=True)
m = cls("ObfuscatedPackages")(counter=4)
m.packages_map.add(package_token=2, strings=["com.whatsapp", "com.whatsapp.HomeActivity", "channel_messages", "android.intent.action.SEND", "text/plain"])
m.packages_map.add(package_token=3, strings=["org.telegram.messenger", "org.telegram.ui.LaunchActivity"])
open(os.path.join(user, "mappings"), "wb").write(m.SerializeToString())
s = cls("IntervalStats")(end_time_ms=86399999, major_version=1, minor_version=1)
s.interactive.count, s.interactive.time_ms = 5, 7200000
s.keyguard_hidden.count, s.keyguard_hidden.time_ms = 4, 600000
p = s.packages.add(package_token=2, last_time_active_ms=3800000, total_time_active_ms=200000, last_event=2,
    app_launch_count=4, total_time_visible_ms=250000, last_time_service_used_ms=-day, total_time_service_used_ms=0)
a = p.chooser_actions.add(action_token=4)
a.counts.add(category_token=5, count=2)
s.packages.add(package_token=3, last_time_active_ms=5000000, total_time_active_ms=90000, last_event=23)
s.configurations.add(last_time_active_ms=1000, total_time_active_ms=80000000, count=1, active=True)
s.event_log.add(package_token=2, class_token=2, time_ms=3600000, flags=0, type=1, instance_id=7, task_root_package_token=1, task_root_class_token=2)
s.event_log.add(package_token=2, time_ms=3700000, type=12, notification_channel_id_token=3)
s.event_log.add(package_token=3, class_token=2, time_ms=4900000, type=1)
s.event_log.add(package_token=9, time_ms=5000000, type=1)
open(os.path.join(user, "daily", str(day)), "wb").write(s.SerializeToString())
# Android 10: IntervalStatsProto, names as index + 1 into the file's own string pool
message("StringPool", [(1, "size", I32, O, None), (2, "strings", S, R, None)])
message("CategoryCount1", [(1, "name", S, O, None), (3, "count", I32, O, None)])
message("ChooserAction1", [(1, "name", S, O, None), (3, "counts", M, R, "CategoryCount1")])
message("UsageStats1", [(1, "package", S, O, None), (2, "package_index", I32, O, None),
    (3, "last_time_active_ms", I64, O, None), (4, "total_time_active_ms", I64, O, None),
    (5, "last_event", I32, O, None), (6, "app_launch_count", I32, O, None),
    (7, "chooser_actions", M, R, "ChooserAction1")])
message("Event1", [(1, "package", S, O, None), (2, "package_index", I32, O, None), (3, "class", S, O, None),
    (4, "class_index", I32, O, None), (5, "time_ms", I64, O, None), (6, "flags", I32, O, None),
    (7, "type", I32, O, None), (9, "shortcut_id", S, O, None), (11, "standby_bucket", I32, O, None),
    (12, "notification_channel", S, O, None), (13, "notification_channel_index", I32, O, None),
    (14, "instance_id", I32, O, None), (15, "task_root_package_index", I32, O, None),
    (16, "task_root_class_index", I32, O, None)])
message("IntervalStats1", [(1, "end_time_ms", I64, O, None), (2, "stringpool", M, O, "StringPool"),
    (3, "major_version", I32, O, None), (4, "minor_version", I32, O, None),
    (10, "interactive", M, O, "CountAndTime"), (20, "packages", M, R, "UsageStats1"),
    (22, "event_log", M, R, "Event1")])
pool1 = descriptor_pool.DescriptorPool()
pool1.Add(fd)
cls1 = lambda n: message_factory.GetMessageClass(pool1.FindMessageTypeByName("t." + n))
v1 = cls1("IntervalStats1")(end_time_ms=86399999, major_version=1)
v1.stringpool.size = 3
v1.stringpool.strings.extend(["com.tencent.mm", "com.tencent.mm.ui.LauncherUI", "message_channel"])
v1.interactive.count, v1.interactive.time_ms = 3, 900000
v1.packages.add(package_index=1, last_time_active_ms=7200000, total_time_active_ms=1200000, last_event=1, app_launch_count=2)
v1.event_log.add(package_index=1, class_index=2, time_ms=7000000, type=1, flags=0, task_root_package_index=1)
v1.event_log.add(package_index=1, time_ms=7300000, type=12, notification_channel_index=3)
d10 = os.path.join(root, "android10/data/system/usagestats/0/daily")
os.makedirs(d10, exist_ok=True)
open(os.path.join(d10, str(day)), "wb").write(v1.SerializeToString())
for phone in ("android12", "android10"):
    os.makedirs(os.path.join(root, phone, "data/system/users/0"), exist_ok=True)
    os.makedirs(os.path.join(root, phone, "data/user/0/com.android.providers.telephony"), exist_ok=True)
"#;

/// The Android 10 and Android 12 phones of [`WRITE_V2`] in a fresh folder.
fn write_protobuf() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    let python = masf_testkit::corpus::py_oracle("python3", "protobuf");
    let st = std::process::Command::new(python)
        .args(["-c", WRITE_V2])
        .arg(tmp.path())
        .arg(DAY.to_string())
        .status()
        .unwrap();
    assert!(st.success());
    tmp
}

#[test]
fn usage_statistics_of_android_12_named_through_the_mappings_file() {
    let tmp = write_protobuf();
    let phone = tmp.path().join("android12");
    let run = triage(&[("a12", &phone, "Asia/Hong_Kong", None)]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    let all = run.all_phenomena("a12");
    for p in &all {
        assert!(p.warnings.is_empty(), "{}: {:#?}", p.title, p.warnings);
    }
    let find = |title: &str| titled(&all, title);
    let summary = find(&format!("Usage statistics, daily interval from {DAY}"));
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
            .contains("interactive: count 5, duration 7200000 ms")
    );
    assert!(summary.interpretation.contains(
        "1 record(s) of packages the user's mappings file does not name were not recorded"
    ));
    let wa = find(&format!(
        "App com.whatsapp used (daily interval from {DAY})"
    ));
    assert!(has(wa, (DAY + 3_800_000).to_string()));
    assert!(
        wa.interpretation.contains(
            "last event 2 MOVE_TO_BACKGROUND; time in foreground 200000 ms, launches 4, time visible 250000 ms"
        ),
        "{}",
        wa.interpretation
    );
    let tg = find(&format!(
        "App org.telegram.messenger used (daily interval from {DAY})"
    ));
    assert!(tg.interpretation.contains("last event 23 ACTIVITY_STOPPED"));
    let fg = find("Usage event MOVE_TO_FOREGROUND of com.whatsapp");
    assert!(has(fg, (DAY + 3_600_000).to_string()));
    assert!(has(fg, "com.whatsapp.HomeActivity".into()));
    assert!(
        fg.interpretation.contains(
            "instance 7, task root package com.whatsapp, task root class com.whatsapp.HomeActivity"
        ),
        "{}",
        fg.interpretation
    );
    let notified = find("Usage event NOTIFICATION_INTERRUPTION of com.whatsapp");
    assert!(
        notified
            .interpretation
            .contains("notification channel channel_messages")
    );
    let launch = find("Usage event MOVE_TO_FOREGROUND of org.telegram.messenger");
    assert!(has(launch, "org.telegram.ui.LaunchActivity".into()));
    // a token the mappings lack is shown as such, never guessed
    assert!(
        all.iter().all(|p| !p.title.contains("token 8")),
        "an event of an unmapped package is an event of no known app"
    );
    let out = run
        .outputs("a12")
        .into_iter()
        .find(|(tool, _, _)| tool == "android_usage_stats")
        .unwrap();
    assert!(
        out.2.contains("(package token 8 not in mappings)"),
        "{}",
        out.2
    );
    assert!(
        out.2
            .contains("chooser\t\tcom.whatsapp\t\t\t\taction android.intent.action.SEND, category text/plain, count 2")
    );
}

#[test]
fn usage_statistics_of_android_10_named_through_the_string_pool() {
    let tmp = write_protobuf();
    let phone = tmp.path().join("android10");
    let run = triage(&[("a10", &phone, "Asia/Hong_Kong", None)]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    let all = run.all_phenomena("a10");
    let find = |title: &str| titled(&all, title);
    let mm = find(&format!(
        "App com.tencent.mm used (daily interval from {DAY})"
    ));
    assert!(has(mm, (DAY + 7_200_000).to_string()));
    assert!(
        mm.interpretation
            .contains("time in foreground 1200000 ms, launches 2")
    );
    let fg = find("Usage event MOVE_TO_FOREGROUND of com.tencent.mm");
    assert!(has(fg, (DAY + 7_000_000).to_string()));
    assert!(has(fg, "com.tencent.mm.ui.LauncherUI".into()));
    assert!(
        fg.interpretation
            .contains("task root package com.tencent.mm")
    );
    let n = find("Usage event NOTIFICATION_INTERRUPTION of com.tencent.mm");
    assert!(
        n.interpretation
            .contains("notification channel message_channel")
    );
    let summary = find(&format!("Usage statistics, daily interval from {DAY}"));
    assert!(
        summary.interpretation.contains("1 packages, 2 events"),
        "{}",
        summary.interpretation
    );
    assert!(run.unparsed("a10").is_empty(), "{:#?}", run.unparsed("a10"));
}
