//! Safari's tabs (`ios::safaritabs`) on two iPhones built with the sqlite3 CLI: one with
//! `CloudTabs.db` in Safari's current layout (the tables and columns Safari creates, as its
//! schema lists them: `cloud_tab_devices`, `cloud_tabs` with `last_viewed_time`,
//! `cloud_tab_close_requests`) and `BrowserState.db`; one with the older iCloud Tabs layout
//! (no device type, no last-viewed time). Every field of iLEAPP's `safariTabs` and
//! `safariCloudTabs` is checked; the other devices are named entities; a `CloudTabs.db`
//! without `cloud_tabs` is noted, the rest read. iOS 15+'s `SafariTabs.db` in two layouts
//! (Python's sqlite3 and plistlib): every field of iLEAPP's `safariTabsDatabase`.

use std::path::Path;

use crate::ios_nearby::sqlite3;
use crate::ios_support::{assert_all_accepted, triage};

const SAFARI: &str = "private/var/mobile/Library/Safari";

fn phone(root: &Path) {
    std::fs::create_dir_all(root.join("private/var/mobile/Media")).unwrap();
}

const CLOUD_TABS: &str = "CREATE TABLE cloud_tab_devices(device_uuid TEXT PRIMARY KEY NOT NULL, system_fields BLOB NOT NULL, device_name TEXT, device_type_identifier TEXT, has_duplicate_device_name BOOLEAN DEFAULT 0, is_ephemeral_device BOOLEAN DEFAULT 0, last_modified REAL NOT NULL);
CREATE TABLE cloud_tabs(tab_uuid TEXT PRIMARY KEY NOT NULL, system_fields BLOB NOT NULL, device_uuid TEXT NOT NULL, position BLOB NOT NULL, title TEXT, url TEXT NOT NULL, is_showing_reader BOOLEAN DEFAULT 0, is_pinned BOOLEAN DEFAULT 0, reader_scroll_position_page_index INTEGER, scene_id TEXT, last_viewed_time REAL DEFAULT 0, FOREIGN KEY(device_uuid) REFERENCES cloud_tab_devices(device_uuid) ON DELETE CASCADE);
CREATE TABLE cloud_tab_close_requests(close_request_uuid TEXT PRIMARY KEY NOT NULL, system_fields BLOB NOT NULL, destination_device_uuid TEXT NOT NULL, url TEXT NOT NULL, tab_uuid TEXT NOT NULL, FOREIGN KEY(destination_device_uuid) REFERENCES cloud_tab_devices(device_uuid) ON DELETE CASCADE);
CREATE TABLE metadata(key TEXT NOT NULL UNIQUE, value);
INSERT INTO cloud_tab_devices VALUES ('1EBFBD4B-F483-44C6-9808-DFBE4097937C', x'62706c6973743030', 'Mia''s MacBook Pro', 'Mac14,2', 0, 0, 736000000.5);
INSERT INTO cloud_tab_devices VALUES ('2C3D4E5F-6A7B-4C8D-9E0F-1A2B3C4D5E6F', x'62706c6973743030', 'Mia''s iPad', 'iPad13,1', 0, 1, 735900000.25);
INSERT INTO cloud_tabs VALUES ('7A1B2C3D-0000-4000-8000-000000000001', x'00', '1EBFBD4B-F483-44C6-9808-DFBE4097937C', x'00', 'OTC desk — orders', 'https://otc.example.org/orders?id=77', 0, 1, NULL, 'S1', 736000100.75);
INSERT INTO cloud_tabs VALUES ('7A1B2C3D-0000-4000-8000-000000000002', x'00', '2C3D4E5F-6A7B-4C8D-9E0F-1A2B3C4D5E6F', x'00', NULL, 'https://tronscan.org/#/address/TRh4MqLekE9MbxTkLrQ673AHbsU46khwF2', 1, 0, 3, NULL, 0);
INSERT INTO cloud_tab_close_requests VALUES ('15522CA7-FE12-4A44-9D5C-2BE66DD6D1BB', x'00', '1EBFBD4B-F483-44C6-9808-DFBE4097937C', 'https://otc.example.org/old', '1E7D3D06-B4BC-4FF1-94E8-0CF39169BF94');";

const BROWSER_STATE: &str = "CREATE TABLE tabs (id INTEGER PRIMARY KEY AUTOINCREMENT, uuid TEXT UNIQUE NOT NULL, title TEXT NOT NULL, url TEXT NOT NULL, user_visible_url TEXT NOT NULL, opened_from_link BOOLEAN, showing_reader BOOLEAN, reader_view_top_scroll_offset INTEGER, order_index INTEGER, last_viewed_time REAL, browser_window_uuid TEXT, browser_window_id INTEGER, private_browsing BOOLEAN, scene_id TEXT);
INSERT INTO tabs VALUES (1, 'A1B2C3D4-1111-4222-8333-444455556666', 'Binance P2P', 'https://p2p.binance.com/en/trade/sell/USDT', 'p2p.binance.com/en/trade/sell/USDT', 1, 0, 0, 0, 736000200.5, 'W-1', 1, 0, 'S1');
INSERT INTO tabs VALUES (2, 'A1B2C3D4-1111-4222-8333-444455557777', '', 'https://www.example.com/private', 'www.example.com/private', 0, 0, 0, 1, 736000300.0, 'W-1', 1, 1, 'S1');";

fn values(p: &masf_graph::Phenomenon) -> Vec<&str> {
    p.verified_facts.iter().map(|f| f.value.as_str()).collect()
}

#[test]
fn safari_tabs_and_icloud_tabs_in_two_layouts() {
    let tmp = tempfile::tempdir().unwrap();
    phone(tmp.path());
    let safari = tmp.path().join(SAFARI);
    sqlite3(&safari.join("CloudTabs.db"), CLOUD_TABS);
    sqlite3(&safari.join("BrowserState.db"), BROWSER_STATE);
    let o = triage(tmp.path(), "Asia/Hong_Kong");
    assert_all_accepted(&o);
    assert!(o.unparsed.is_empty(), "{:#?}", o.unparsed);
    let find = |title: &str| {
        o.findings()
            .into_iter()
            .find(|p| p.title == title)
            .unwrap_or_else(|| {
                panic!(
                    "{title}: {:#?}",
                    o.findings().iter().map(|p| &p.title).collect::<Vec<_>>()
                )
            })
    };
    // the other devices of the account
    let mac = find("iCloud Tabs device Mia's MacBook Pro");
    for v in [
        "1EBFBD4B-F483-44C6-9808-DFBE4097937C",
        "Mia's MacBook Pro",
        "Mac14,2",
        "736000000.5",
    ] {
        assert!(values(mac).contains(&v), "{v}: {:?}", values(mac));
    }
    let ipad = find("iCloud Tabs device Mia's iPad");
    assert!(ipad.interpretation.contains("ephemeral: yes"));
    // iLEAPP's safariCloudTabs: title, URL, device name and UUID, pinned, reader
    let t1 = find("iCloud tab on Mia's MacBook Pro: OTC desk — orders");
    for v in [
        "https://otc.example.org/orders?id=77",
        "OTC desk — orders",
        "Mia's MacBook Pro",
        "1EBFBD4B-F483-44C6-9808-DFBE4097937C",
        "7A1B2C3D-0000-4000-8000-000000000001",
        "736000100.75",
    ] {
        assert!(values(t1).contains(&v), "{v}: {:?}", values(t1));
    }
    assert!(t1.interpretation.contains("pinned: yes, reader: no"));
    let t2 = find(
        "iCloud tab on Mia's iPad: https://tronscan.org/#/address/TRh4MqLekE9MbxTkLrQ673AHbsU46khwF2",
    );
    assert!(t2.times.is_empty(), "a zero last-viewed time is no time");
    assert!(t2.interpretation.contains("reader: yes"));
    let close = find("iCloud tab close request to Mia's MacBook Pro: https://otc.example.org/old");
    assert!(values(close).contains(&"1E7D3D06-B4BC-4FF1-94E8-0CF39169BF94"));
    // iLEAPP's safariTabs: last viewed, title, URL, the URL shown, opened from a link, private
    let local = find("Safari tab: Binance P2P");
    for v in [
        "https://p2p.binance.com/en/trade/sell/USDT",
        "p2p.binance.com/en/trade/sell/USDT",
        "736000200.5",
        "A1B2C3D4-1111-4222-8333-444455556666",
    ] {
        assert!(values(local).contains(&v), "{v}: {:?}", values(local));
    }
    assert!(local.interpretation.contains("opened from a link: yes"));
    find("Safari private tab: https://www.example.com/private");
    // the devices are entities with their names
    let ids = o.identities();
    assert!(
        ids.contains(&(
            "cloud-device:1EBFBD4B-F483-44C6-9808-DFBE4097937C".to_string(),
            "device_name".to_string(),
            "mia's macbook pro".to_string()
        )),
        "{ids:#?}"
    );

    // an older iCloud Tabs layout: no device type, no last-viewed time, no close requests
    let tmp2 = tempfile::tempdir().unwrap();
    phone(tmp2.path());
    let old = tmp2.path().join(SAFARI).join("CloudTabs.db");
    sqlite3(
        &old,
        "CREATE TABLE cloud_tab_devices(device_uuid TEXT PRIMARY KEY NOT NULL, system_fields BLOB NOT NULL, device_name TEXT, has_duplicate_device_name BOOLEAN DEFAULT 0, is_ephemeral_device BOOLEAN DEFAULT 0, last_modified REAL NOT NULL);
CREATE TABLE cloud_tabs(tab_uuid TEXT PRIMARY KEY NOT NULL, system_fields BLOB NOT NULL, device_uuid TEXT NOT NULL, position BLOB NOT NULL, title TEXT, url TEXT NOT NULL, is_showing_reader BOOLEAN DEFAULT 0, is_pinned BOOLEAN DEFAULT 0, reader_scroll_position_page_index INTEGER, scene_id TEXT);
INSERT INTO cloud_tab_devices VALUES ('9F8E7D6C-5B4A-4938-8271-605F4E3D2C1B', x'00', 'Chan''s iMac', 0, 0, 690000000);
INSERT INTO cloud_tabs VALUES ('T-1', x'00', '9F8E7D6C-5B4A-4938-8271-605F4E3D2C1B', x'00', 'Exchange', 'https://exchange.example.net/', 0, 0, NULL, NULL);",
    );
    let o = triage(tmp2.path(), "Asia/Hong_Kong");
    assert_all_accepted(&o);
    assert!(o.unparsed.is_empty(), "{:#?}", o.unparsed);
    assert!(
        o.findings()
            .iter()
            .any(|p| p.title == "iCloud tab on Chan's iMac: Exchange")
    );
    // a copy without cloud_tabs: noted
    sqlite3(&old, "DROP TABLE cloud_tabs;");
    let o = triage(tmp2.path(), "Asia/Hong_Kong");
    assert_all_accepted(&o);
    o.assert_noted("CloudTabs.db", "cloud_tabs");
}

/// Writes iOS 15+'s `SafariTabs.db` at argv[1] (Python's sqlite3 and plistlib; argv[2] `new`
/// with the attribute property lists and tab UUIDs, `old` without those columns), then prints
/// iLEAPP's `safariTabsDatabase` rows (its query, its datetime() conversions left out; its
/// attribute reading by plistlib: booleans true/false, dates RFC 3339 as the tool prints them).
const SAFARI_TABS: &str = r#"
import datetime, plistlib, sqlite3, subprocess, sys
new = sys.argv[2] == 'new'
db = sqlite3.connect(sys.argv[1])
extra_cols = ', external_uuid TEXT, extra_attributes BLOB, local_attributes BLOB, date_closed REAL' if new else ''
db.execute('CREATE TABLE bookmarks (id INTEGER PRIMARY KEY AUTOINCREMENT, special_id INTEGER DEFAULT 0, parent INTEGER, type INTEGER, title TEXT, url TEXT, num_children INTEGER DEFAULT 0, editable INTEGER DEFAULT 1, deletable INTEGER DEFAULT 1, hidden INTEGER DEFAULT 0, order_index INTEGER NOT NULL DEFAULT 0, last_modified REAL, deleted INTEGER DEFAULT 0' + extra_cols + ')')
def bp(d):
    return plistlib.dumps(d, fmt=plistlib.FMT_BINARY)
t = lambda *a: datetime.datetime(*a)
rows = [
    (1, 0, 1, 'Public', None, 0, None, 0, None, None, None, None),
    (2, 0, 1, 'Private', None, 1, None, 0, None, None, None, None),
    (3, 0, 1, 'Trip planning', None, 2, 722000000.0, 0, None, None, None, None),
    (10, 1, 0, 'Binance P2P', 'https://p2p.binance.com/en/trade/sell/USDT', 0, 723035600.5, 0, '5B1C2D3E-4F50-4A6B-8C7D-9E0F1A2B3C4D',
     bp({'DateLastViewed': t(2023, 11, 30, 10, 35, 0)}), bp({'LastVisitTime': t(2023, 11, 30, 10, 34, 0), 'OpenedFromLink': True, 'TabIndex': 0, 'IsMuted': False, 'ShowingReader': False}), None),
    (11, 2, 0, 'Mixer', 'https://mixer.example.onion.example/deposit', 1, 1701340900.0, 0, '6C2D3E4F-5061-4B7C-9D8E-0F1A2B3C4D5E',
     None, bp({'LastVisitTime': t(2023, 11, 30, 10, 41, 40), 'TabIndex': 1, 'IsMuted': True}), None),
    (12, 3, 0, 'Flights to Lisbon', 'https://flights.example.com/lis', 2, None, 0, '7D3E4F50-6172-4C8D-8E9F-1A2B3C4D5E6F',
     None, None, 723040000.0),
    (13, 1, 0, 'gone', 'https://deleted.example.com/', 3, None, 1, None, None, None, None),
]
for r in rows:
    if new:
        db.execute('INSERT INTO bookmarks (id, parent, type, title, url, order_index, last_modified, deleted, external_uuid, extra_attributes, local_attributes, date_closed) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)', r)
    else:
        db.execute('INSERT INTO bookmarks (id, parent, type, title, url, order_index, last_modified, deleted) VALUES (?,?,?,?,?,?,?,?)', r[:8])
db.commit()
extra = 'tab.extra_attributes' if new else 'NULL'
local = 'tab.local_attributes' if new else 'NULL'
uuid = 'tab.external_uuid' if new else 'NULL'
closed = 'tab.date_closed' if new else 'NULL'
q = f"""WITH RECURSIVE ancestry(tab_id, ancestor_id, parent_id, ancestor_title, depth) AS (
 SELECT id, id, parent, title, 0 FROM bookmarks WHERE url IS NOT NULL AND trim(url) != '' AND COALESCE(deleted, 0) = 0
 UNION ALL SELECT ancestry.tab_id, parent.id, parent.parent, parent.title, ancestry.depth + 1 FROM ancestry JOIN bookmarks AS parent ON parent.id = ancestry.parent_id WHERE ancestry.depth < 20),
 tab_context AS (SELECT tab_id, MAX(CASE WHEN lower(ancestor_title) IN ('private', 'privatepinned') THEN 1 ELSE 0 END) AS is_private FROM ancestry GROUP BY tab_id)
 SELECT tab.last_modified, {closed}, tab.id, tab.title, tab.url, tab.parent, COALESCE(parent.title, CAST(tab.parent AS TEXT)),
 CASE WHEN lower(CAST(tab.parent AS TEXT)) = 'private' OR tab_context.is_private = 1 THEN 'Private' ELSE 'Normal' END,
 {extra}, {local}, {uuid}
 FROM bookmarks AS tab LEFT JOIN bookmarks AS parent ON parent.id = tab.parent LEFT JOIN tab_context ON tab_context.tab_id = tab.id
 WHERE tab.url IS NOT NULL AND trim(tab.url) != '' AND COALESCE(tab.deleted, 0) = 0 ORDER BY tab.order_index"""
def s(v):
    if v is None: return ''
    if isinstance(v, bool): return 'true' if v else 'false'
    if isinstance(v, datetime.datetime): return v.strftime('%Y-%m-%dT%H:%M:%SZ')
    return str(v)
for r in db.execute(q):
    ex = plistlib.loads(r[8]) if r[8] else {}
    lo = plistlib.loads(r[9]) if r[9] else {}
    out = [s(r[2]), s(r[0]), s(r[1]), s(r[3]), s(r[4]), s(r[5]), s(r[6]), r[7],
           s(lo.get('LastVisitTime')), s(ex.get('DateLastViewed')), s(lo.get('OpenedFromLink')), s(lo.get('TabIndex')),
           s(lo.get('IsMuted')), s(lo.get('ShowingReader')), s(r[10])]
    print('\t'.join(out))
"#;

#[test]
fn safari_tabs_db_of_ios_15_and_later_in_two_layouts() {
    for layout in ["new", "old"] {
        let tmp = tempfile::tempdir().unwrap();
        phone(tmp.path());
        let db = tmp.path().join(SAFARI).join("SafariTabs.db");
        std::fs::create_dir_all(db.parent().unwrap()).unwrap();
        let out = std::process::Command::new("python3")
            .arg("-c")
            .arg(SAFARI_TABS)
            .arg(&db)
            .arg(layout)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let rows = String::from_utf8(out.stdout).unwrap();
        let o = triage(tmp.path(), "Europe/London");
        assert_all_accepted(&o);
        assert!(o.unparsed.is_empty(), "{:#?}", o.unparsed);
        let tabs: Vec<_> = o
            .findings()
            .into_iter()
            .filter(|p| p.title.starts_with("Safari ") && p.title.contains("tab: "))
            .collect();
        assert_eq!(tabs.len(), 3, "{layout}: {tabs:#?}");
        for line in rows.lines() {
            let row: Vec<&str> = line.split('\t').collect();
            let p = tabs
                .iter()
                .find(|p| values(p).contains(&row[4]))
                .unwrap_or_else(|| panic!("{row:?}"));
            // iLEAPP's Private/Normal is the private flag (1/0); its Yes/No the booleans
            let private = row[7] == "Private";
            assert_eq!(
                p.title.starts_with("Safari private tab"),
                private,
                "{row:?}"
            );
            for v in row
                .iter()
                .enumerate()
                .filter(|(i, v)| *i != 7 && !v.is_empty())
                .map(|(_, v)| *v)
            {
                assert!(values(p).contains(&v), "{layout}: {v} in {p:#?}");
            }
        }
        // the deleted tab is not read; the times by iLEAPP's reading of the stored value
        assert!(
            !tabs
                .iter()
                .any(|p| values(p).contains(&"https://deleted.example.com/"))
        );
        let mixer = tabs
            .iter()
            .find(|p| values(p).contains(&"https://mixer.example.onion.example/deposit"))
            .unwrap();
        assert!(
            mixer
                .times
                .iter()
                .any(|t| t.encoding == masf_graph::TimeEncoding::UnixSeconds)
        );
    }
}
