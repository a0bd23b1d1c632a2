//! Life360 on Android (`android::life360`): Nora's and Leo's phones, members of one circle. The
//! stores are written by Python's `sqlite3` with the tables, columns and event JSON ALEAPP's
//! Life360 artefacts read (no public copy is in the corpus), Leo's of an older layout (no roles,
//! avatars or circles table; messages without locations). Every row and field of ALEAPP's
//! queries (run by the sqlite3 CLI, times and flags as stored) and of its reading of the event
//! store's BLE events (Python's `json`, as ALEAPP reads them) is found; each phone's user
//! resolves as a member of the other's circle. Beside them a truncated store (noted) and a
//! malformed event (left out, as ALEAPP leaves it).

use crate::android_support::{check, triage};

const NORA: &str = "1f6c2a9e-0b7d-4c3e-9a51-7d2e8f4b6c10";
const LEO: &str = "8a3d5e7f-2c1b-4e9d-b6a0-3f4e5d6c7b8a";

/// argv[1]: Nora's databases folder, argv[2]: Leo's; prints `<event id>\t<value>` for each value
/// ALEAPP's BLE reading shows.
const WRITE: &str = r#"
import json, os, sqlite3, sys
nora, leo, NORA, LEO = sys.argv[1:5]
for d in (nora, leo):
    os.makedirs(d, exist_ok=True)
db = sqlite3.connect(os.path.join(nora, 'MembersEngineRoomDatabase'))
db.executescript("""
CREATE TABLE circles (id TEXT PRIMARY KEY, name TEXT, created_at INTEGER, last_updated INTEGER);
CREATE TABLE members (id TEXT, circle_id TEXT, first_name TEXT, last_name TEXT, login_email TEXT, login_phone TEXT, avatar TEXT, is_admin INTEGER, role TEXT, created_at INTEGER, last_updated INTEGER, PRIMARY KEY (id, circle_id));
""")
db.execute("INSERT INTO circles VALUES ('c-fam', 'Family', 1690000000, 1701000000000)")
db.execute("INSERT INTO members VALUES (?, 'c-fam', 'Nora', 'Berg', 'nora.berg@example.com', '+13125550142', 'https://cdn.example/nora.jpg', 1, 'mom', 1690000000, 1701000000000)", (NORA,))
db.execute("INSERT INTO members VALUES (?, 'c-fam', 'Leo', 'Berg', 'leo.berg@example.com', '+13125550177', NULL, 0, 'child', 1690000100, 1701000100000)", (LEO,))
db.commit()
db = sqlite3.connect(os.path.join(nora, 'messaging.db'))
db.executescript("""
CREATE TABLE thread_participant (thread_id TEXT, participant_id TEXT, participant_name TEXT);
CREATE TABLE message (id TEXT PRIMARY KEY, thread_id TEXT, sender_id TEXT, content TEXT, created_at INTEGER, sent INTEGER, read INTEGER, dismissed INTEGER, deleted INTEGER, has_location INTEGER, location_latitude REAL, location_longitude REAL, location_name TEXT, location_timestamp INTEGER);
""")
db.execute("INSERT INTO thread_participant VALUES ('t1', ?, 'Leo')", (LEO,))
db.execute("INSERT INTO message VALUES ('x1', 't1', ?, 'at the station, send 0.5 ETH to 0x52908400098527886E0F7030069857D2E4169EE7', 1701340800, 0, 1, 0, 0, 1, 41.8786, -87.6403, 'Union Station', 1701340790)", (LEO,))
db.execute("INSERT INTO message VALUES ('x2', 't1', ?, 'coming', 1701340860, 1, 1, 0, 0, 0, NULL, NULL, NULL, NULL)", (NORA,))
db.commit()
db = sqlite3.connect(os.path.join(nora, 'L360LocalStoreRoomDatabase'))
db.executescript("""
CREATE TABLE places (place_id TEXT PRIMARY KEY, circle_id TEXT, name TEXT, latitude REAL, longitude REAL, radius REAL, source TEXT, source_id TEXT, owner_id TEXT, has_alerts INTEGER, website TEXT, types TEXT, category TEXT);
CREATE TABLE place_alerts (place_id TEXT, circle_id TEXT, member_id TEXT, name TEXT, arrive INTEGER, leave INTEGER);
""")
db.execute("INSERT INTO places VALUES ('pl-1', 'c-fam', 'School', 41.8902, -87.6243, 152.4, 'life360', 'src-9', ?, 1, 'https://school.example', 'school', 'education')", (NORA,))
db.execute("INSERT INTO place_alerts VALUES ('pl-1', 'c-fam', ?, 'School', 1, 1)", (LEO,))
db.commit()
db = sqlite3.connect(os.path.join(nora, 'L360EventStore.db'))
db.execute("CREATE TABLE event (id TEXT PRIMARY KEY, eventVersion INTEGER, data TEXT)")
events = [
    ('ev1', 5, json.dumps({'tag': 'BLE', 'locationData': {'time': 1701340700000, 'latitude': 41.8781, 'longitude': -87.6298, 'altitude': 181.5, 'speed': 1.2, 'course': 90, 'bearing': 88.5, 'verticalAccuracy': 4, 'horizontalAccuracy': 11.5}, 'metaData': {'lmode': 'fg', 'battery': 76, 'chargingState': 'NOT_CHARGING', 'wifiData': {'connectedAccessPoint': {'bssid': 'a4:2b:b0:11:22:33', 'ssid': '"HomeNet"'}}}})),
    ('ev2', 5, json.dumps({'tag': 'BLE', 'locationData': {'time': 1701340760000, 'latitude': 41.8790, 'longitude': -87.6350}, 'metaData': {'battery': 75}})),
    ('ev3', 5, json.dumps({'tag': 'OTHER', 'locationData': {'time': 1}})),
    ('ev4', 5, '{"tag": "BLE", broken'),
    ('ev5', 4, json.dumps({'tag': 'BLE', 'locationData': {'time': 2}})),
]
db.executemany("INSERT INTO event VALUES (?, ?, ?)", events)
db.commit()
for ev_id, version, data in events:
    if version != 5:
        continue
    try:
        j = json.loads(data)
    except ValueError:
        continue
    if j.get('tag') != 'BLE':
        continue
    loc, meta = j.get('locationData') or {}, j.get('metaData') or {}
    wifi = (meta.get('wifiData') or {}).get('connectedAccessPoint') or {}
    for v in [loc.get(k) for k in ('time', 'latitude', 'longitude', 'altitude', 'speed', 'course', 'bearing', 'verticalAccuracy', 'horizontalAccuracy')] + [meta.get('lmode'), meta.get('battery'), meta.get('chargingState'), wifi.get('bssid'), (wifi.get('ssid') or '').replace('"', '') or None]:
        if v is not None:
            print(ev_id + '\t' + (json.dumps(v)[1:-1] if isinstance(v, str) else str(v)))
db = sqlite3.connect(os.path.join(nora, 'com.amplitude.api'))
db.execute("CREATE TABLE store (key TEXT PRIMARY KEY, value TEXT)")
db.executemany("INSERT INTO store VALUES (?, ?)", [('user_id', NORA), ('device_id', 'd-77aa'), ('opt_out', 'false')])
db.commit()
# Leo's phone: an older layout
db = sqlite3.connect(os.path.join(leo, 'MembersEngineRoomDatabase'))
db.execute("CREATE TABLE members (id TEXT, circle_id TEXT, first_name TEXT, last_name TEXT, login_email TEXT, login_phone TEXT, is_admin INTEGER, created_at INTEGER, last_updated INTEGER)")
db.execute("INSERT INTO members VALUES (?, 'c-fam', 'Nora', 'Berg', 'nora.berg@example.com', '+13125550142', 1, 1690000000, 1701000000000)", (NORA,))
db.commit()
db = sqlite3.connect(os.path.join(leo, 'messaging.db'))
db.execute("CREATE TABLE message (id TEXT PRIMARY KEY, thread_id TEXT, sender_id TEXT, content TEXT, created_at INTEGER, sent INTEGER)")
db.execute("INSERT INTO message VALUES ('x1', 't1', ?, 'at the station', 1701340800, 1)", (LEO,))
db.commit()
db = sqlite3.connect(os.path.join(leo, 'com.amplitude.api'))
db.execute("CREATE TABLE store (key TEXT PRIMARY KEY, value TEXT)")
db.execute("INSERT INTO store VALUES ('user_id', ?)", (LEO,))
db.commit()
"#;

#[test]
fn life360_circle_on_two_android_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let (nora, leo) = (tmp.path().join("nora"), tmp.path().join("leo"));
    let dbs =
        |root: &std::path::Path| root.join("data/data/com.life360.android.safetymapd/databases");
    let (nd, ld) = (dbs(&nora), dbs(&leo));
    let out = std::process::Command::new("python3")
        .arg("-c")
        .arg(WRITE)
        .args([nd.as_os_str(), ld.as_os_str()])
        .args([NORA, LEO])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let ble: Vec<(String, String)> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .filter_map(|l| l.split_once('\t'))
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect();
    assert!(ble.len() > 15, "{ble:?}");
    for root in [&nora, &leo] {
        std::fs::create_dir_all(root.join("data/system/users/0")).unwrap();
    }
    let bytes = std::fs::read(nd.join("messaging.db")).unwrap();
    let cut = leo.join("data/user/10/com.life360.android.safetymapd/databases");
    std::fs::create_dir_all(&cut).unwrap();
    std::fs::write(cut.join("messaging.db"), &bytes[..bytes.len() / 3]).unwrap();
    let run = triage(&[
        ("nora", &nora, "America/Chicago", Some("US")),
        ("leo", &leo, "America/Chicago", Some("US")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    let all = run.all_phenomena("nora");
    for p in &all {
        assert!(p.warnings.is_empty(), "{}: {:#?}", p.title, p.warnings);
    }
    for (prefix, db, sql, key, rows) in [
        (
            "Life360 member",
            "MembersEngineRoomDatabase",
            "SELECT members.created_at, members.last_updated, members.id, members.first_name, members.last_name, members.login_email, members.login_phone, members.avatar, members.is_admin, members.role, circles.created_at, circles.last_updated, circles.name FROM members LEFT JOIN circles ON members.circle_id = circles.id",
            2,
            2,
        ),
        (
            "Life360 message",
            "messaging.db",
            "SELECT message.created_at, message.thread_id, message.sender_id, thread_participant.participant_name, message.content, message.sent, message.read, message.dismissed, message.deleted, message.has_location, message.location_latitude, message.location_longitude, message.location_name, message.location_timestamp FROM message LEFT JOIN thread_participant ON message.sender_id = thread_participant.participant_id",
            0,
            2,
        ),
        (
            "Life360 place School",
            "L360LocalStoreRoomDatabase",
            "SELECT place_id, circle_id, name, latitude, longitude, radius, source, source_id, owner_id, has_alerts, website, types, category FROM places",
            0,
            1,
        ),
        (
            "Life360 place alert",
            "L360LocalStoreRoomDatabase",
            "SELECT place_alerts.place_id, place_alerts.circle_id, place_alerts.member_id, place_alerts.name, place_alerts.arrive, place_alerts.leave, places.latitude, places.longitude FROM place_alerts LEFT JOIN places ON places.place_id = place_alerts.place_id",
            2,
            1,
        ),
    ] {
        assert_eq!(
            check(&all, prefix, &nd.join(db), sql, key),
            rows,
            "{prefix}"
        );
    }
    // ALEAPP's BLE events: each value in the position of its event
    let positions: Vec<&masf_graph::Phenomenon> = all
        .iter()
        .filter(|p| p.title.starts_with("Life360 position"))
        .collect();
    assert_eq!(positions.len(), 2);
    for (id, v) in &ble {
        let p = positions
            .iter()
            .find(|p| p.verified_facts.iter().any(|f| f.value == *id))
            .unwrap_or_else(|| panic!("{id}"));
        assert!(
            p.verified_facts.iter().any(|f| f.value == *v),
            "{v} in {p:#?}"
        );
    }
    let analytics = all
        .iter()
        .find(|p| p.title == "Life360 analytics store")
        .expect("analytics");
    for v in ["user_id", NORA, "device_id", "d-77aa"] {
        assert!(analytics.verified_facts.iter().any(|f| f.value == v), "{v}");
    }
    // Leo's older layout
    let lall = run.all_phenomena("leo");
    assert_eq!(
        check(
            &lall,
            "Life360 member",
            &ld.join("MembersEngineRoomDatabase"),
            "SELECT created_at, last_updated, id, first_name, last_name, login_email, login_phone, is_admin FROM members",
            2
        ),
        1
    );
    assert!(
        lall.iter()
            .any(|p| p.title.starts_with("Life360 message sent"))
    );
    run.assert_noted(
        "leo",
        &[(
            "user/10/com.life360.android.safetymapd/databases/messaging.db",
            "malformed",
        )],
    );
    // who is who: each phone's user is a member of the other's circle
    assert!(
        run.owner("nora")
            .contains(&format!("account_id=life360:{NORA}"))
    );
    let with = crate::who::resolved(&run);
    for (member, known_as) in [
        ("nora/owner", format!("leo/life360:{NORA}")),
        ("leo/owner", format!("nora/life360:{LEO}")),
    ] {
        assert!(
            with(member).contains(&known_as),
            "{member}: {:#?}",
            with(member)
        );
    }
    // the member's login phone and e-mail are the person's
    let ids = run.identifiers("leo");
    assert!(
        ids.iter().any(|(t, v)| t == "phone" && v == "+13125550142"),
        "{ids:#?}"
    );
}
