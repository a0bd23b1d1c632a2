//! The location daemon's caches (`ios::locationd`). iLEAPP's recorded results in the corpus
//! (`locationdCacheEncryptedB.*.mvs_ios_2023`) hold 0 rows for the MVS 2023 iPhone (iOS 16.1.1:
//! its tables present and empty, the harvest table absent), and the corpus holds no
//! `cache_encryptedB.db`. So the databases here are written by Python's sqlite3: one as iLEAPP
//! describes the MVS phone's (empty tables: nothing recorded, as iLEAPP reports nothing), one of
//! an iOS 17 layout with rows in every table iLEAPP reads (the integer `MAC` written as iLEAPP's
//! `_mac` writes it, -1 sentinels), and an iOS 4 `consolidated.db` with the schema published
//! when that file was found in 2011 (text `MAC`). Beside them a truncated copy, a foreign
//! schema and a file of the name outside `locationd` (passed over).

use crate::ios_support::{Outcome, assert_all_accepted, triage};

const GEN: &str = r#"
import os, sqlite3, sys
root = sys.argv[1]
def db(rel, script, rows=()):
    p = os.path.join(root, rel)
    os.makedirs(os.path.dirname(p), exist_ok=True)
    c = sqlite3.connect(p)
    c.executescript(script)
    for sql, vals in rows:
        c.executemany(sql, vals)
    c.commit()
    c.close()
    return p
L = "private/var/root/Library/Caches/locationd/"
MOTION = "HorizontalAccuracy FLOAT, Altitude FLOAT, VerticalAccuracy FLOAT, Speed FLOAT, Course FLOAT, Confidence INTEGER"
WIFI = f"CREATE TABLE WifiLocation (MAC INTEGER, Channel INTEGER, InfoMask INTEGER, Timestamp FLOAT, Latitude FLOAT, Longitude FLOAT, {MOTION}, Score INTEGER, Reach INTEGER, PRIMARY KEY (MAC));"
CELLS = "".join(
    f"CREATE TABLE {t} (MCC INTEGER, MNC INTEGER, {a} INTEGER, CI INTEGER, {ch} INTEGER, {ph} INTEGER, Timestamp FLOAT, Latitude FLOAT, Longitude FLOAT, {MOTION}, PRIMARY KEY (MCC, MNC, {a}, CI));"
    for t, a, ch, ph in [("CellLocation", "LAC", "UARFCN", "PSC"), ("LteCellLocation", "TAC", "UARFCN", "PID"), ("NrCellLocation", "TAC", "NRARFCN", "PID"), ("ScdmaCellLocation", "LAC", "UARFCN", "PSC")])
CDMA = f"CREATE TABLE CdmaCellLocation (MCC INTEGER, SID INTEGER, NID INTEGER, BSID INTEGER, ZONEID INTEGER, BANDCLASS INTEGER, CHANNEL INTEGER, PNOFFSET INTEGER, Timestamp FLOAT, Latitude FLOAT, Longitude FLOAT, {MOTION}, PRIMARY KEY (MCC, SID, NID, BSID));"
TILES = "CREATE TABLE WifiTileHeader (TileX INTEGER, TileY INTEGER, Version INTEGER, Flags INTEGER, AccessTimestamp FLOAT, GenerationTimestamp FLOAT, ExpirationAge FLOAT, SouthwestLatitude FLOAT, SouthwestLongitude FLOAT, DeltaLatitude FLOAT, DeltaLongitude FLOAT, Altitude FLOAT, MinimumAltitude FLOAT, MaximumAltitude FLOAT, NumberOfIndexEntries INTEGER, NumberOfInputPoints INTEGER, PRIMARY KEY (TileX, TileY));"
HARVEST = "CREATE TABLE WifiAssociatedApWifiHarvestTable (MAC INTEGER, Rssi INTEGER, Channel INTEGER, LoiType INTEGER, Timestamp FLOAT, ScanTimestamp FLOAT, Latitude FLOAT, Longitude FLOAT, HorizontalAccuracy FLOAT, Altitude FLOAT, VerticalAccuracy FLOAT);"

# the MVS 2023 iPhone as iLEAPP describes it: every table it reads present and empty, no harvest table
db("mvs/" + L + "cache_encryptedB.db", WIFI + CELLS + CDMA + TILES)

# an iOS 17 layout with rows
db("ios17/" + L + "cache_encryptedB.db", WIFI + CELLS + CDMA + TILES + HARVEST, [
    ("INSERT INTO WifiLocation VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)", [
        (0x0011AABBCCDD, 6, 3, 720000000.5, 22.3193, 114.1694, 35.0, 12.0, -1.0, -1.0, -1.0, 80, 12, 4),
        (0xF0DE1234567A, 149, 1, -1, 22.2783, 114.1747, 50.0, 8.0, 4.0, 1.5, 270.0, 70, 3, 2),
    ]),
    ("INSERT INTO LteCellLocation VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)", [
        (454, 6, 10301, 27845633, 1300, 211, 720000100.25, 22.3001, 114.1702, 1500.0, 0.0, -1.0, -1.0, -1.0, 60),
    ]),
    ("INSERT INTO CdmaCellLocation VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)", [
        (460, 13824, 1, 4371, 2, 0, 283, 312, 720000200.0, 31.2304, 121.4737, 2500.0, 0.0, -1.0, -1.0, -1.0, 50),
    ]),
    ("INSERT INTO WifiTileHeader VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)", [
        (53507, 28617, 3, 0, 720000300.0, 719990000.0, 604800.0, 22.28, 114.16, 0.02, 0.03, 10.0, -5.0, 220.0, 412, 9000),
    ]),
    ("INSERT INTO WifiAssociatedApWifiHarvestTable VALUES (?,?,?,?,?,?,?,?,?,?,?)", [
        (0x0011AABBCCDD, -61, 6, 2, 720000400.0, -1, 22.3193, 114.1694, 20.0, 12.0, 6.0),
    ]),
])

# iOS 4's consolidated.db (the schema published in 2011): MAC as text
db("ios4/" + L + "consolidated.db",
   "CREATE TABLE CellLocation (MCC INTEGER, MNC INTEGER, LAC INTEGER, CI INTEGER, Timestamp FLOAT, Latitude FLOAT, Longitude FLOAT, HorizontalAccuracy FLOAT, Altitude FLOAT, VerticalAccuracy FLOAT, Speed FLOAT, Course FLOAT, Confidence INTEGER, PRIMARY KEY (MCC, MNC, LAC, CI));"
   "CREATE TABLE WifiLocation (MAC TEXT, Timestamp FLOAT, Latitude FLOAT, Longitude FLOAT, HorizontalAccuracy FLOAT, Altitude FLOAT, VerticalAccuracy FLOAT, Speed FLOAT, Course FLOAT, Confidence INTEGER, PRIMARY KEY (MAC));", [
    ("INSERT INTO CellLocation VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)", [(234, 30, 1234, 56789, 325000000.0, 51.5072, -0.1276, 1000.0, 0.0, -1.0, -1.0, -1.0, 50)]),
    ("INSERT INTO WifiLocation VALUES (?,?,?,?,?,?,?,?,?,?)", [("0:1b:63:aa:bb:c", 325000100.0, 51.5033, -0.1196, 100.0, 0.0, -1.0, -1.0, -1.0, 60)]),
])

# hostile copies
p = db("bad/" + L + "cache_encryptedB.db", WIFI, [("INSERT INTO WifiLocation (MAC, Timestamp, Latitude, Longitude) VALUES (?,?,?,?)", [(i, 720000000 + i, 22.0, 114.0) for i in range(2000)])])
data = open(p, "rb").read()
open(p, "wb").write(data[:len(data) // 2])
db("bad/" + L + "cache_encryptedA.db", "CREATE TABLE WifiLocation (MAC INTEGER, Timestamp FLOAT, Lat FLOAT, Lon FLOAT); CREATE TABLE Other (x);")
db("bad/private/var/mobile/Documents/locationd-export/consolidated.db", "CREATE TABLE WifiLocation (MAC TEXT, Timestamp FLOAT, Latitude FLOAT, Longitude FLOAT);", [("INSERT INTO WifiLocation VALUES (?,?,?,?)", [("aa:bb", 1.0, 2.0, 3.0)])])
db("bad/private/var/root/Library/Caches/locationd/consolidated.db", "CREATE TABLE Unrelated (a, b);")
"#;

fn generated() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    crate::ios_support::python(GEN, tmp.path());
    tmp
}

fn located(o: &Outcome) -> Vec<&masf_graph::Phenomenon> {
    o.category("locations")
        .into_iter()
        .filter(|p| p.title.starts_with("locationd"))
        .collect()
}

fn facts(p: &masf_graph::Phenomenon) -> Vec<&str> {
    Outcome::values(p)
}

/// `(description, value)` of each time mark.
fn marks(p: &masf_graph::Phenomenon) -> Vec<(&str, &str)> {
    p.times
        .iter()
        .map(|m| {
            (
                m.description.as_str(),
                p.verified_facts[m.fact].value.as_str(),
            )
        })
        .collect()
}

#[test]
fn locationd_empty_tables_record_nothing_as_ileapp_reports_nothing() {
    // iLEAPP's four outputs for this phone hold no row
    for what in [
        "locationdWifiLocations",
        "locationdWifiHarvest",
        "locationdCellLocations",
        "locationdWifiTiles",
    ] {
        let exp = crate::ios::expected(&format!("locationdCacheEncryptedB.{what}.mvs_ios_2023"));
        assert_eq!(exp["data"].as_array().map(Vec::len), Some(0), "{what}");
    }
    let tmp = generated();
    let o = triage(&tmp.path().join("mvs"), "America/New_York");
    assert_all_accepted(&o);
    assert!(located(&o).is_empty());
    assert!(
        !o.unparsed
            .iter()
            .any(|u| u.artefact.contains("cache_encryptedB")),
        "{:#?}",
        o.unparsed
    );
}

#[test]
fn locationd_ios17_cache_every_table_every_field() {
    let tmp = generated();
    let o = triage(&tmp.path().join("ios17"), "Asia/Hong_Kong");
    assert_all_accepted(&o);
    let got = located(&o);
    let titles: Vec<&str> = got.iter().map(|p| p.title.as_str()).collect();
    assert_eq!(
        titles,
        [
            "locationd Wi-Fi location 00:11:aa:bb:cc:dd",
            "locationd Wi-Fi location f0:de:12:34:56:7a",
            "locationd harvested access point 00:11:aa:bb:cc:dd",
            "locationd LTE cell 454/6/10301/27845633",
            "locationd CDMA cell 460/?/?/4371",
            "locationd Wi-Fi tile 53507/28617",
        ]
    );
    let find = |t: &str| *got.iter().find(|p| p.title == t).unwrap();
    let path = "/private/var/root/Library/Caches/locationd/cache_encryptedB.db";

    // the BSSID as iLEAPP's _mac writes it, beside the integer as stored
    let w = find("locationd Wi-Fi location 00:11:aa:bb:cc:dd");
    assert_eq!(
        facts(w),
        [
            "22.3193",
            "114.1694",
            &(0x0011AABBCCDDu64).to_string(),
            "00:11:aa:bb:cc:dd",
            "35.0",
            "12.0",
            "-1.0",
            "-1.0",
            "-1.0",
            "80",
            "6",
            "12",
            "4",
            "3",
            "720000000.5",
            path
        ]
    );
    assert_eq!(marks(w), [("Access point position cached", "720000000.5")]);
    assert!(
        w.interpretation
            .contains("speed and course -1: none recorded")
    );
    assert!(w.interpretation.contains("not the device's position"));
    // a -1 time is no time
    let w2 = find("locationd Wi-Fi location f0:de:12:34:56:7a");
    assert!(marks(w2).is_empty());
    assert!(facts(w2).contains(&"270.0"));

    let h = find("locationd harvested access point 00:11:aa:bb:cc:dd");
    assert!(facts(h).contains(&"-61"));
    assert_eq!(marks(h), [("Access point harvested", "720000400.0")]);

    let lte = find("locationd LTE cell 454/6/10301/27845633");
    for v in [
        "454", "6", "10301", "27845633", "1300", "211", "1500.0", "60",
    ] {
        assert!(facts(lte).contains(&v), "{v}: {:?}", facts(lte));
    }
    assert_eq!(marks(lte), [("Cell position cached", "720000100.25")]);
    assert!(lte.interpretation.contains("area code (TAC) 10301"));
    assert!(lte.interpretation.contains("physical cell id (PID) 211"));

    let cdma = find("locationd CDMA cell 460/?/?/4371");
    for v in ["13824", "1", "4371", "2", "0", "283", "312"] {
        assert!(facts(cdma).contains(&v), "{v}: {:?}", facts(cdma));
    }
    assert!(cdma.interpretation.contains("SID 13824"));
    assert!(cdma.interpretation.contains("BANDCLASS 0"));

    let tile = find("locationd Wi-Fi tile 53507/28617");
    for v in [
        "22.28", "114.16", "0.02", "0.03", "-5.0", "220.0", "412", "9000", "604800.0", "3",
    ] {
        assert!(facts(tile).contains(&v), "{v}: {:?}", facts(tile));
    }
    assert_eq!(
        marks(tile),
        [
            ("Wi-Fi tile last used", "720000300.0"),
            ("Wi-Fi tile generated", "719990000.0")
        ]
    );
    // no identity: a cell or an access point names no one
    assert!(o.identities().is_empty(), "{:?}", o.identities());
}

#[test]
fn locationd_ios4_consolidated_db() {
    let tmp = generated();
    let o = triage(&tmp.path().join("ios4"), "Europe/London");
    assert_all_accepted(&o);
    let titles: Vec<&str> = located(&o).iter().map(|p| p.title.as_str()).collect();
    assert_eq!(
        titles,
        [
            "locationd Wi-Fi location 0:1b:63:aa:bb:c",
            "locationd GSM/UMTS cell 234/30/1234/56789",
        ]
    );
    let cell = located(&o)[1];
    assert_eq!(marks(cell), [("Cell position cached", "325000000.0")]);
    assert!(facts(cell).contains(&"51.5072"));
}

#[test]
fn locationd_hostile_copies_noted_and_passed_over() {
    let tmp = generated();
    let o = triage(&tmp.path().join("bad"), "Asia/Hong_Kong");
    assert_all_accepted(&o);
    // a truncated copy: noted, whatever the page it broke on
    assert!(
        o.unparsed
            .iter()
            .any(|u| u.artefact.ends_with("locationd/cache_encryptedB.db")),
        "{:#?}",
        o.unparsed
    );
    o.assert_noted("locationd/cache_encryptedA.db", "Latitude, Longitude");
    o.assert_noted("locationd/consolidated.db", "none of the tables");
    // the file of the name outside locationd is not read
    assert!(
        !o.phenomena.iter().any(|p| p.title.contains("aa:bb")),
        "{:#?}",
        located(&o)
    );
}
