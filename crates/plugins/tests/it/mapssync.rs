//! Apple Maps history (`ios::mapssync`): Ava's iPhone (the iOS 16–18 layout: displayed
//! location, second coordinates, directions' and places' protocol buffers) and Ben's (the iOS 15
//! layout: a place's name, no protocol buffers). `MapsSync_0.0.1` is written by Python's
//! `sqlite3` with the tables and columns iLEAPP's `mapsSync` reads, the protocol buffers by
//! Google's protobuf runtime in the field layout iLEAPP walks (no public copy is in the corpus).
//! Every row and field of iLEAPP's queries (run by the sqlite3 CLI, times as stored) is found but
//! its kind word, which it gives by three entity numbers of one version (the kind here is the
//! entity's name from `Z_PRIMARYKEY`); every string of the protocol buffers iLEAPP reads
//! addresses and the directions' ends from is a fact. Beside them a truncated copy (noted).

use crate::android_support::{check, triage};

/// argv[1]: Ava's store, argv[2]: Ben's; prints `<Z_PK>\t<string>` for each string of Ava's
/// protocol buffers, as Python's runtime reads them back.
const WRITE: &str = r#"
import sqlite3, sys
from google.protobuf import descriptor_pb2, descriptor_pool, message_factory
F = descriptor_pb2.FieldDescriptorProto
fd = descriptor_pb2.FileDescriptorProto(name="maps.proto", package="m", syntax="proto2")
def message(name, fields):
    m = fd.message_type.add(name=name)
    for number, fname, kind, label, type_name in fields:
        f = m.field.add(name=fname, number=number, type=kind, label=label)
        if type_name:
            f.type_name = ".m." + type_name
O, R, S, M, D = F.LABEL_OPTIONAL, F.LABEL_REPEATED, F.TYPE_STRING, F.TYPE_MESSAGE, F.TYPE_DOUBLE
message("Address", [(11, "lines", S, R, None), (1, "country", S, O, None)])
message("Detail", [(2, "address", M, O, "Address")])
message("Place", [(101, "detail", M, O, "Detail"), (5, "lat", D, O, None)])
message("MapItem", [(1, "place", M, O, "Place")])
message("Ends", [(1, "start", S, O, None), (3, "end", S, O, None)])
message("Waypoint", [(8, "ends", M, O, "Ends")])
message("Leg", [(2, "waypoint", M, O, "Waypoint")])
message("Route", [(1, "legs", M, R, "Leg")])
pool = descriptor_pool.DescriptorPool()
pool.Add(fd)
cls = lambda n: message_factory.GetMessageClass(pool.FindMessageTypeByName("m." + n))
item = cls("MapItem")()
item.place.detail.address.lines.extend(["Bahnhofplatz 1", "8001 Zürich", "Switzerland"])
item.place.detail.address.country = "CH"
item.place.lat = 47.3782
route = cls("Route")()
leg = route.legs.add()
leg.waypoint.ends.start = "My Location"
leg.waypoint.ends.end = "Zürich HB"
db = sqlite3.connect(sys.argv[1])
db.executescript("""
CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
CREATE TABLE ZMIXINMAPITEM (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZMAPITEMSTORAGE BLOB);
CREATE TABLE ZHISTORYITEM (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCREATETIME TIMESTAMP, ZMODIFICATIONTIME TIMESTAMP, ZQUERY VARCHAR, ZLOCATIONDISPLAY VARCHAR, ZLATITUDE FLOAT, ZLONGITUDE FLOAT, ZLATITUDE1 FLOAT, ZLONGITUDE1 FLOAT, ZROUTEREQUESTSTORAGE BLOB, ZMAPITEM INTEGER);
INSERT INTO Z_PRIMARYKEY VALUES (12, 'HistoryDirectionsItem', 11, 3), (14, 'HistoryPlaceItem', 11, 5), (16, 'HistorySearchItem', 11, 9);
""")
db.execute("INSERT INTO ZMIXINMAPITEM VALUES (1, 20, 1, ?)", (item.SerializeToString(),))
db.execute("INSERT INTO ZHISTORYITEM VALUES (1, 16, 1, 722001000.5, 722001000.5, 'pharmacy near me', NULL, 47.37, 8.54, NULL, NULL, NULL, NULL)")
db.execute("INSERT INTO ZHISTORYITEM VALUES (2, 14, 1, 722002000.0, 722002100.0, NULL, 'Zürich HB', 47.3782, 8.5402, 47.3769, 8.5417, NULL, 1)")
db.execute("INSERT INTO ZHISTORYITEM VALUES (3, 12, 1, 722003000.0, 722003000.0, NULL, NULL, NULL, NULL, NULL, NULL, ?, NULL)", (route.SerializeToString(),))
db.commit()
for pk, blob, kind in ((2, item.SerializeToString(), "MapItem"), (3, route.SerializeToString(), "Route")):
    m = cls(kind)()
    m.ParseFromString(blob)
    def strings(msg):
        for f, v in msg.ListFields():
            vals = v if f.label == F.LABEL_REPEATED else [v]
            for x in vals:
                if f.type == F.TYPE_MESSAGE:
                    yield from strings(x)
                elif f.type == F.TYPE_STRING:
                    yield x
    for s in strings(m):
        print(f"{pk}\t{s}")
db = sqlite3.connect(sys.argv[2])
db.executescript("""
CREATE TABLE ZMIXINMAPITEM (Z_PK INTEGER PRIMARY KEY, ZNAME VARCHAR);
CREATE TABLE ZHISTORYITEM (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, ZCREATETIME TIMESTAMP, ZMODIFICATIONTIME TIMESTAMP, ZQUERY VARCHAR, ZLATITUDE FLOAT, ZLONGITUDE FLOAT, ZMAPITEM INTEGER);
INSERT INTO ZMIXINMAPITEM VALUES (1, 'Blue Bottle Coffee');
INSERT INTO ZHISTORYITEM VALUES (1, 9, 650000000.0, 650000050.0, 'coffee', 41.88, -87.63, NULL);
INSERT INTO ZHISTORYITEM VALUES (2, 10, 650000100.0, 650000100.0, NULL, 41.8781, -87.6298, 1);
""")
db.commit()
"#;

#[test]
fn apple_maps_history_on_two_iphones() {
    let tmp = tempfile::tempdir().unwrap();
    let group =
        "private/var/mobile/Containers/Shared/AppGroup/4EA8EEDD-DA2C-4101-94EB-3923A26A7E76/Maps";
    let (ava, ben) = (tmp.path().join("ava-iphone"), tmp.path().join("ben-iphone"));
    let (adb, bdb) = (
        ava.join(group).join("MapsSync_0.0.1"),
        ben.join(group).join("MapsSync_0.0.1"),
    );
    for p in [&adb, &bdb] {
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    }
    let python = masf_testkit::corpus::py_oracle("python3", "protobuf");
    let out = std::process::Command::new(python)
        .arg("-c")
        .arg(WRITE)
        .args([&adb, &bdb])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let strings: Vec<(String, String)> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .filter_map(|l| l.split_once('\t'))
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect();
    assert_eq!(strings.len(), 6);
    // an older copy, cut short
    let bytes = std::fs::read(&bdb).unwrap();
    let old = ben.join("private/var/mobile/Containers/Shared/AppGroup/0000/Maps");
    std::fs::create_dir_all(&old).unwrap();
    std::fs::write(old.join("MapsSync_0.0.1"), &bytes[..bytes.len() / 3]).unwrap();
    for root in [&ava, &ben] {
        std::fs::create_dir_all(root.join("private/var/mobile/Library")).unwrap();
    }
    let run = triage(&[
        ("ava-iphone", &ava, "Europe/Zurich", Some("CH")),
        ("ben-iphone", &ben, "America/Chicago", Some("US")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    let all = run.all_phenomena("ava-iphone");
    for p in &all {
        assert!(p.warnings.is_empty(), "{}: {:#?}", p.title, p.warnings);
    }
    // iLEAPP's first query (its kind word left out, see the module doc)
    assert_eq!(
        check(
            &all,
            "Apple Maps",
            &adb,
            "SELECT ZHISTORYITEM.ZCREATETIME, ZHISTORYITEM.ZMODIFICATIONTIME, ZHISTORYITEM.ZQUERY, ZHISTORYITEM.ZLOCATIONDISPLAY, ZHISTORYITEM.ZLATITUDE, ZHISTORYITEM.ZLONGITUDE, ZHISTORYITEM.ZLATITUDE1, ZHISTORYITEM.ZLONGITUDE1 FROM ZHISTORYITEM LEFT JOIN ZMIXINMAPITEM ON ZMIXINMAPITEM.Z_PK = ZHISTORYITEM.ZMAPITEM",
            0
        ),
        3
    );
    // each string of the protocol buffers, in its item's phenomenon
    for (pk, s) in &strings {
        let p = all
            .iter()
            .find(|p| {
                p.interpretation
                    .starts_with(&format!("ZHISTORYITEM Z_PK {pk} "))
            })
            .unwrap_or_else(|| panic!("{pk}"));
        assert!(
            p.verified_facts.iter().any(|f| f.value == *s),
            "{s} in {p:#?}"
        );
    }
    let titles: Vec<&str> = all.iter().map(|p| p.title.as_str()).collect();
    for t in [
        "Apple Maps search \"pharmacy near me\"",
        "Apple Maps place Zürich HB",
        "Apple Maps directions from My Location to Zürich HB",
    ] {
        assert!(titles.contains(&t), "{t}: {titles:#?}");
    }
    assert!(all.iter().any(|p| {
        p.verified_facts
            .iter()
            .any(|f| f.value == "HistorySearchItem")
    }));
    // Ben's: iLEAPP's iOS 15 query
    let ball = run.all_phenomena("ben-iphone");
    assert_eq!(
        check(
            &ball,
            "Apple Maps",
            &bdb,
            "SELECT ZHISTORYITEM.ZCREATETIME, ZHISTORYITEM.ZMODIFICATIONTIME, ZHISTORYITEM.ZQUERY, ZMIXINMAPITEM.ZNAME, ZHISTORYITEM.ZLATITUDE, ZHISTORYITEM.ZLONGITUDE FROM ZHISTORYITEM LEFT JOIN ZMIXINMAPITEM ON ZHISTORYITEM.ZMAPITEM = ZMIXINMAPITEM.Z_PK",
            0
        ),
        2
    );
    assert!(
        ball.iter()
            .any(|p| p.title == "Apple Maps place Blue Bottle Coffee")
    );
    run.assert_noted("ben-iphone", &[("0000/Maps/MapsSync_0.0.1", "malformed")]);
}
