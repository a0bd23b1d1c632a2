//! Safari's tabs (`ios::safaritabs`) on two iPhones built with the sqlite3 CLI: one with
//! `CloudTabs.db` in Safari's current layout (the tables and columns Safari creates, as its
//! schema lists them: `cloud_tab_devices`, `cloud_tabs` with `last_viewed_time`,
//! `cloud_tab_close_requests`) and `BrowserState.db`; one with the older iCloud Tabs layout
//! (no device type, no last-viewed time). Every field of iLEAPP's `safariTabs` and
//! `safariCloudTabs` is checked; the other devices are named entities; a `CloudTabs.db`
//! without `cloud_tabs` is noted, the rest read.

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
