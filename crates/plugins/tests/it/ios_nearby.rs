//! Apps, bookmarks and what was near the phone, on trees built at test time with the sqlite3
//! CLI and Python's plistlib in the layouts iOS writes (the paths as the corpus's file lists of
//! the Belkasoft CTF 6 and Magnet MVS 2023 iPhones hold them; the public zips do not carry the
//! files themselves): FrontBoard's application state (which container is which app), Safari's
//! bookmarks and reading list, and the Bluetooth devices (the LE paired and seen databases and
//! the classic paired-devices plist), each with a foreign-schema copy noted while the rest is
//! read.

use std::path::Path;

use crate::ios_support::{assert_all_accepted, triage};

const GROUP: &str = "private/var/containers/Shared/SystemGroup/D6F6A65C-41DE-4119-9315-F6A5EBED1FC3/Library/Database";
const PREFS: &str = "private/var/mobile/Library/Preferences";

/// Runs `sql` on `db` with the sqlite3 CLI (its folder made first).
pub fn sqlite3(db: &Path, sql: &str) {
    std::fs::create_dir_all(db.parent().unwrap()).unwrap();
    let out = std::process::Command::new("sqlite3")
        .arg(db)
        .arg(sql)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn plist(to: &Path, python_dict: &str) {
    std::fs::create_dir_all(to.parent().unwrap()).unwrap();
    let script = format!(
        "import plistlib, sys\nplistlib.dump({python_dict}, open(sys.argv[1], 'wb'), fmt=plistlib.FMT_BINARY)"
    );
    let st = std::process::Command::new("python3")
        .args(["-c", &script])
        .arg(to)
        .status()
        .unwrap();
    assert!(st.success());
}

/// A phone's Bluetooth files: `full` is the iOS 16 layout, else an older one without the
/// resolved address and name origin.
fn bluetooth_tree(root: &Path, full: bool) {
    let extra = if full {
        "NameOrigin INTEGER, ResolvedAddress TEXT, "
    } else {
        ""
    };
    let (extra_cols, extra_vals) = if full {
        (
            "NameOrigin, ResolvedAddress, ",
            "1, 'Public 7C:9A:54:11:22:33', ",
        )
    } else {
        ("", "")
    };
    sqlite3(
        &root.join(GROUP).join("com.apple.MobileBluetooth.ledevices.paired.db"),
        &format!(
            "CREATE TABLE PairedDevices (Uuid TEXT PRIMARY KEY, Name TEXT, {extra}Address TEXT, LastSeenTime INTEGER, LastConnectionTime INTEGER);
             INSERT INTO PairedDevices (Uuid, Name, {extra_cols}Address, LastSeenTime, LastConnectionTime)
             VALUES ('4A5B6C7D-8E9F-4011-8213-141516171819', 'Leung''s AirPods Pro', {extra_vals}'Random 5E:11:22:33:44:55', 1700000100, 1700000050);"
        ),
    );
    sqlite3(
        &root.join(GROUP).join("com.apple.MobileBluetooth.ledevices.other.db"),
        "CREATE TABLE OtherDevices (Uuid TEXT PRIMARY KEY, Name TEXT, Address TEXT, LastSeenTime INTEGER);
         INSERT INTO OtherDevices VALUES ('0F1E2D3C-4B5A-4697-8877-665544332211', 'Galaxy Watch5 (A1B2)', 'Public D0:C2:4E:AA:BB:CC', 1700000300),
           ('1F1E2D3C-4B5A-4697-8877-665544332212', NULL, 'Random 6A:00:11:22:33:44', 0);",
    );
    plist(
        &root
            .join(PREFS)
            .join("com.apple.MobileBluetooth.devices.plist"),
        "{'F4:AF:E7:12:34:56': {'Name': 'Toyota Prius', 'DefaultName': 'CAR MULTIMEDIA', 'LastSeenTime': 1700000200.5, 'DeviceIdProduct': 8203, 'DeviceIdVendor': 76}}",
    );
}

#[test]
fn bluetooth_devices_paired_and_seen_on_two_layouts() {
    for full in [true, false] {
        let tmp = tempfile::tempdir().unwrap();
        bluetooth_tree(tmp.path(), full);
        let o = triage(tmp.path(), "Asia/Hong_Kong");
        assert_all_accepted(&o);
        assert!(o.unparsed.is_empty(), "{:#?}", o.unparsed);
        let bt: Vec<_> = o
            .findings()
            .into_iter()
            .filter(|p| p.title.starts_with("Bluetooth device "))
            .collect();
        let titles: Vec<&str> = bt.iter().map(|p| p.title.as_str()).collect();
        assert_eq!(titles.len(), 4, "{titles:#?}");
        let find = |t: &str| {
            *bt.iter()
                .find(|p| p.title == t)
                .unwrap_or_else(|| panic!("{t}: {titles:#?}"))
        };
        let pods = find("Bluetooth device Random 5E:11:22:33:44:55 (paired): Leung's AirPods Pro");
        let values: Vec<&str> = pods
            .verified_facts
            .iter()
            .map(|f| f.value.as_str())
            .collect();
        assert!(
            values.contains(&"4A5B6C7D-8E9F-4011-8213-141516171819"),
            "{values:?}"
        );
        assert_eq!(
            values.contains(&"Public 7C:9A:54:11:22:33"),
            full,
            "{values:?}"
        );
        let times: Vec<(&str, &str)> = pods
            .times
            .iter()
            .map(|t| {
                (
                    t.description.as_str(),
                    pods.verified_facts[t.fact].value.as_str(),
                )
            })
            .collect();
        assert_eq!(
            times,
            [
                ("Bluetooth device last seen", "1700000100"),
                ("Bluetooth device last connected", "1700000050"),
            ]
        );
        find(
            "Bluetooth device Public D0:C2:4E:AA:BB:CC (seen nearby, not paired): Galaxy Watch5 (A1B2)",
        );
        // no name and never seen: the row is kept, without a time
        let anon =
            find("Bluetooth device Random 6A:00:11:22:33:44 (seen nearby, not paired): (no name)");
        assert!(anon.times.is_empty());
        let car = find("Bluetooth device F4:AF:E7:12:34:56 (paired): Toyota Prius");
        let values: Vec<&str> = car
            .verified_facts
            .iter()
            .map(|f| f.value.as_str())
            .collect();
        for v in [
            "F4:AF:E7:12:34:56",
            "Toyota Prius",
            "CAR MULTIMEDIA",
            "8203",
            "76",
            "1700000200.5",
        ] {
            assert!(values.contains(&v), "{v}: {values:?}");
        }
        // a peer's name is no identity of anyone
        assert!(
            !o.identities()
                .iter()
                .any(|(_, _, v)| v.contains("airpods") || v.contains("prius"))
        );
    }
    // a foreign table where the seen devices should be: noted, naming the columns; the rest read
    let tmp = tempfile::tempdir().unwrap();
    bluetooth_tree(tmp.path(), true);
    let other = tmp
        .path()
        .join(GROUP)
        .join("com.apple.MobileBluetooth.ledevices.other.db");
    std::fs::remove_file(&other).unwrap();
    sqlite3(
        &other,
        "CREATE TABLE OtherDevices (Uuid TEXT, Label TEXT); INSERT INTO OtherDevices VALUES ('x', 'y');",
    );
    let o = triage(tmp.path(), "Asia/Hong_Kong");
    assert_all_accepted(&o);
    o.assert_noted("ledevices.other.db", "Name, Address");
    let n = o
        .findings()
        .into_iter()
        .filter(|p| p.title.starts_with("Bluetooth device "))
        .count();
    assert_eq!(n, 2);
}

/// Safari's `Bookmarks.db`: the bookmark bar, a folder, the reading list; folders and the
/// root are no bookmarks. An older layout without `external_uuid`, `read` and `deleted` reads
/// the same bookmarks.
#[test]
fn safari_bookmarks_and_reading_list_on_two_layouts() {
    for full in [true, false] {
        let tmp = tempfile::tempdir().unwrap();
        let db = tmp
            .path()
            .join("private/var/mobile/Library/Safari/Bookmarks.db");
        let (cols, extra) = if full {
            (
                ", external_uuid TEXT, read INTEGER, deleted INTEGER",
                ", NULL, NULL, 0",
            )
        } else {
            ("", "")
        };
        let rows = [
            "(0, 0, NULL, 1, '', NULL, 0, 0)",
            "(1, 0, 0, 1, 'BookmarksBar', NULL, 0, 0)",
            "(2, 0, 0, 1, 'com.apple.ReadingList', NULL, 0, 0)",
            "(3, 0, 1, 1, 'Crypto', NULL, 0, 0)",
            "(4, 0, 3, 0, 'OKX | Buy Bitcoin', 'https://www.okx.com/', 0, 718000000.5)",
            "(5, 0, 1, 0, 'Harbour City', 'https://www.harbourcity.com.hk/', 1, 718000100)",
            "(6, 0, 2, 0, 'How to move USDT off an exchange', 'https://example.org/guide?a=1&b=2', 0, 718000200)",
        ];
        let values: Vec<String> = rows
            .iter()
            .map(|r| format!("{}{extra})", r.trim_end_matches(')')))
            .collect();
        let extra_names = if full {
            ", external_uuid, read, deleted"
        } else {
            ""
        };
        sqlite3(
            &db,
            &format!(
                "CREATE TABLE bookmarks (id INTEGER PRIMARY KEY, special_id INTEGER, parent INTEGER, type INTEGER, title TEXT, url TEXT, hidden INTEGER, last_modified REAL{cols});
                 INSERT INTO bookmarks (id, special_id, parent, type, title, url, hidden, last_modified{extra_names}) VALUES {};",
                values.join(", ")
            ),
        );
        if full {
            sqlite3(
                &db,
                "UPDATE bookmarks SET read = 1, external_uuid = '9C2D4E6F-1A3B-4C5D-8E9F-0A1B2C3D4E5F' WHERE id = 6;",
            );
        }
        let o = triage(tmp.path(), "Asia/Hong_Kong");
        assert_all_accepted(&o);
        assert!(o.unparsed.is_empty(), "{:#?}", o.unparsed);
        let marks: Vec<_> = o
            .findings()
            .into_iter()
            .filter(|p| p.title.starts_with("Safari "))
            .collect();
        let titles: Vec<&str> = marks.iter().map(|p| p.title.as_str()).collect();
        assert_eq!(
            titles,
            [
                "Safari bookmark 4: OKX | Buy Bitcoin",
                "Safari bookmark 5: Harbour City",
                "Safari reading list item 6: How to move USDT off an exchange",
            ]
        );
        let okx = marks[0];
        let values: Vec<&str> = okx
            .verified_facts
            .iter()
            .map(|f| f.value.as_str())
            .collect();
        for v in [
            "https://www.okx.com/",
            "OKX | Buy Bitcoin",
            "Crypto",
            "718000000.5",
        ] {
            assert!(values.contains(&v), "{v}: {values:?}");
        }
        assert_eq!(okx.times.len(), 1);
        assert!(
            marks[1]
                .verified_facts
                .iter()
                .any(|f| f.value == "BookmarksBar")
        );
        let reading = marks[2];
        assert!(
            reading
                .verified_facts
                .iter()
                .any(|f| f.value == "https://example.org/guide?a=1&b=2")
        );
        assert_eq!(
            reading
                .verified_facts
                .iter()
                .any(|f| f.value == "9C2D4E6F-1A3B-4C5D-8E9F-0A1B2C3D4E5F"),
            full
        );
    }
}

/// FrontBoard's `applicationState.db` (tables built with the sqlite3 CLI, each app's
/// `compatibilityInfo` an NSKeyedArchiver object written with plistlib): each app with its
/// bundle and data container paths; other keys are passed over; a copy without `key_tab` is
/// noted naming it.
#[test]
fn application_state_names_each_apps_container() {
    let tmp = tempfile::tempdir().unwrap();
    let db = tmp
        .path()
        .join("private/var/mobile/Library/FrontBoard/applicationState.db");
    std::fs::create_dir_all(db.parent().unwrap()).unwrap();
    let script = r#"
import plistlib, sqlite3, sys
from plistlib import UID
def archive(fields):
    objects = ['$null', {'$class': UID(2)}, {'$classname': 'LSApplicationProxy', '$classes': ['LSApplicationProxy', 'LSBundleProxy', 'NSObject']}]
    for k, v in fields.items():
        objects[1][k] = UID(len(objects))
        objects.append(v)
    return plistlib.dumps({'$version': 100000, '$archiver': 'NSKeyedArchiver', '$top': {'root': UID(1)}, '$objects': objects}, fmt=plistlib.FMT_BINARY)
db = sqlite3.connect(sys.argv[1])
db.executescript('''
CREATE TABLE application_identifier_tab (id INTEGER PRIMARY KEY AUTOINCREMENT, application_identifier TEXT UNIQUE NOT NULL);
CREATE TABLE key_tab (id INTEGER PRIMARY KEY AUTOINCREMENT, key TEXT UNIQUE NOT NULL);
CREATE TABLE kvs (id INTEGER PRIMARY KEY AUTOINCREMENT, application_identifier INTEGER REFERENCES application_identifier_tab(id), key INTEGER REFERENCES key_tab(id), value BLOB);
INSERT INTO key_tab (key) VALUES ('compatibilityInfo'), ('XBApplicationSnapshotManifest');
INSERT INTO application_identifier_tab (application_identifier) VALUES ('net.whatsapp.WhatsApp'), ('com.apple.Preferences');
''')
wa = archive({'bundleIdentifier': 'net.whatsapp.WhatsApp',
              'bundlePath': '/private/var/containers/Bundle/Application/1D2C3B4A-5F6E-4D7C-8B9A-0F1E2D3C4B5A/WhatsApp.app',
              'sandboxPath': '/private/var/mobile/Containers/Data/Application/7A6B5C4D-3E2F-4A1B-9C8D-7E6F5A4B3C2D'})
prefs = archive({'bundleIdentifier': 'com.apple.Preferences', 'bundlePath': '/Applications/Preferences.app'})
db.execute('INSERT INTO kvs (application_identifier, key, value) VALUES (1, 1, ?), (2, 1, ?), (1, 2, ?)', (wa, prefs, b'bplist00 not an archive'))
db.commit()
"#;
    let st = std::process::Command::new("python3")
        .args(["-c", script])
        .arg(&db)
        .status()
        .unwrap();
    assert!(st.success());
    let o = triage(tmp.path(), "Asia/Hong_Kong");
    assert_all_accepted(&o);
    assert!(o.unparsed.is_empty(), "{:#?}", o.unparsed);
    let apps: Vec<_> = o
        .findings()
        .into_iter()
        .filter(|p| p.title.starts_with("App "))
        .collect();
    let titles: Vec<&str> = apps.iter().map(|p| p.title.as_str()).collect();
    assert_eq!(
        titles,
        [
            "App net.whatsapp.WhatsApp: data container 7A6B5C4D-3E2F-4A1B-9C8D-7E6F5A4B3C2D",
            "App com.apple.Preferences",
        ]
    );
    let wa = apps[0];
    for v in [
        "net.whatsapp.WhatsApp",
        "/private/var/containers/Bundle/Application/1D2C3B4A-5F6E-4D7C-8B9A-0F1E2D3C4B5A/WhatsApp.app",
        "/private/var/mobile/Containers/Data/Application/7A6B5C4D-3E2F-4A1B-9C8D-7E6F5A4B3C2D",
    ] {
        assert!(wa.verified_facts.iter().any(|f| f.value == v), "{v}");
    }
    assert!(
        wa.interpretation
            .contains("Artefact paths under that container are this app's")
    );
    assert!(
        apps[1]
            .verified_facts
            .iter()
            .any(|f| f.value == "/Applications/Preferences.app")
    );
    // a copy without key_tab: noted, naming it
    sqlite3(&db, "DROP TABLE key_tab;");
    let o = triage(tmp.path(), "Asia/Hong_Kong");
    assert_all_accepted(&o);
    o.assert_noted("applicationState.db", "key_tab");
}

/// An iPhone that paired with an Android phone and with the speaker that phone also paired
/// with: the iPhone's Bluetooth plist (plistlib) and the Android phone's `bt_config.conf` (in
/// AOSP's `config_save` layout), triaged in one session: the iPhone's peer is the Android
/// phone's own adapter, and both phones' speaker is one device.
#[test]
fn two_phones_and_a_speaker_meet_by_bluetooth_address() {
    let tmp = tempfile::tempdir().unwrap();
    let iphone = tmp.path().join("iphone");
    plist(
        &iphone
            .join(PREFS)
            .join("com.apple.MobileBluetooth.devices.plist"),
        "{'3C:28:6D:11:22:33': {'Name': \"Mia's Pixel 5\", 'LastSeenTime': 1704440000.0}, '00:1A:7D:DA:71:13': {'Name': 'JBL Flip 4', 'LastSeenTime': 1704441000.0}}",
    );
    let android = tmp.path().join("android");
    let conf = android.join("data/misc/bluedroid/bt_config.conf");
    std::fs::create_dir_all(conf.parent().unwrap()).unwrap();
    std::fs::write(
        &conf,
        "[Info]\nFileSource = Empty\nTimeCreated = 2024-01-05 08:12:44\n\n[Adapter]\nAddress = 3c:28:6d:11:22:33\nName = Mia's Pixel 5\n\n[00:1a:7d:da:71:13]\nTimestamp = 1704442964\nName = JBL Flip 4\nDevClass = 2360324\nDevType = 1\nLinkKeyType = 5\nLinkKey = 0f1e2d3c4b5a69788796a5b4c3d2e1f0\n",
    )
    .unwrap();
    std::fs::create_dir_all(android.join("data/system/users/0")).unwrap();
    std::fs::create_dir_all(android.join("data/user/0/com.android.providers.telephony")).unwrap();
    let run = crate::android_support::triage(&[
        ("ios", &iphone, "Asia/Hong_Kong", None),
        ("android", &android, "Asia/Hong_Kong", None),
    ]);
    assert_eq!(run.report("ios").plugin.as_deref(), Some("ios"));
    assert_eq!(run.report("android").plugin.as_deref(), Some("android"));
    assert_eq!(run.rejections(), Vec::<String>::new());
    crate::who::resolve(&run);
    let state = run.session.state().unwrap();
    let actors = masf_graph::resolution::actors(&state);
    let name = |id: &str| {
        let e = &state.entities()[id];
        format!("{}/{}", e.source_id, e.context)
    };
    let with = |who: &str| -> Vec<String> {
        let mut v: Vec<String> = actors
            .iter()
            .find(|a| a.entities.iter().any(|e| name(e) == who))
            .map(|a| a.entities.iter().map(|e| name(e)).collect())
            .unwrap_or_default();
        v.sort();
        v
    };
    assert_eq!(
        with("ios/bluetooth:3C:28:6D:11:22:33"),
        ["android/device", "ios/bluetooth:3C:28:6D:11:22:33"]
    );
    assert_eq!(
        with("ios/bluetooth:00:1A:7D:DA:71:13"),
        [
            "android/bluetooth:00:1A:7D:DA:71:13",
            "ios/bluetooth:00:1A:7D:DA:71:13"
        ]
    );
}
