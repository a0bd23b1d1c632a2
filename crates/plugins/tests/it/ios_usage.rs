//! Identity-services lookups, network data usage and Screen Time on plaso's public iOS
//! artefacts placed where iOS keeps them, checked against Python's plistlib and the sqlite3
//! CLI; a second Screen Time store built with sqlite3 from the real file's schema; broken
//! copies noted while the rest is read.

use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

use masf_graph::Phenomenon;

use crate::ios::has;
use crate::ios_support::{Outcome, assert_all_accepted, public, triage};

const IDSTATUS: &str =
    "private/var/mobile/Library/Preferences/com.apple.identityservices.idstatuscache.plist";
const DATAUSAGE: &str = "private/var/wireless/Library/Databases/DataUsage.sqlite";
const NETUSAGE: &str = "private/var/networkd/netusage.sqlite";
const SCREENTIME: &str = "private/var/mobile/Library/Application Support/com.apple.remotemanagementd/RMAdminStore-Local.sqlite";

/// Copies a corpus file to `rel` below `root`.
fn place(root: &Path, corpus: &str, rel: &str) {
    let to = root.join(rel);
    std::fs::create_dir_all(to.parent().unwrap()).unwrap();
    std::fs::copy(public(corpus), &to).unwrap();
}

/// Rows of `sql` by the sqlite3 CLI over a read-only, immutable open of `db`.
fn cli(db: &Path, sql: &str) -> Vec<Vec<String>> {
    let out = Command::new("sqlite3")
        .args(["-readonly", "-separator", "\t", "-nullvalue", ""])
        .arg(format!("file:{}?immutable=1", db.display()))
        .arg(sql)
        .output()
        .expect("sqlite3 CLI");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| l.split('\t').map(str::to_string).collect())
        .collect()
}

/// Runs sqlite3 statements on a new database.
fn sqlite3(db: &Path, sql: &str) {
    let st = Command::new("sqlite3").arg(db).arg(sql).status().unwrap();
    assert!(st.success());
}

/// Phenomena whose path fact ends with `suffix` and whose title starts with `prefix`.
fn of<'a>(o: &'a Outcome, suffix: &str, prefix: &str) -> Vec<&'a Phenomenon> {
    o.phenomena
        .iter()
        .filter(|p| p.title.starts_with(prefix))
        .filter(|p| p.verified_facts.iter().any(|f| f.value.ends_with(suffix)))
        .collect()
}

fn tree(root: &Path) {
    place(
        root,
        "plist/plaso-com.apple.identityservices.idstatuscache.plist",
        IDSTATUS,
    );
    place(root, "ios/plaso-DataUsage.sqlite", DATAUSAGE);
    place(root, "ios/plaso-netusage.sqlite", NETUSAGE);
    place(root, "ios/plaso-RMAdminStore-Local.sqlite", SCREENTIME);
    place(
        root,
        "plist/plaso-com.apple.wifi.known-networks.plist",
        "private/var/preferences/com.apple.wifi.known-networks.plist",
    );
}

#[test]
fn ios_plaso_identity_lookups_every_entry_and_counterparts_only() {
    let dir = tempfile::tempdir().unwrap();
    place(
        dir.path(),
        "plist/plaso-com.apple.identityservices.idstatuscache.plist",
        IDSTATUS,
    );
    let o = triage(dir.path(), "America/New_York");
    assert_all_accepted(&o);
    // plistlib as the oracle: service, destination, IDStatus, LookupDate as JSON writes it
    let out = Command::new("python3")
        .arg("-c")
        .arg(
            r#"import plistlib, sys, json
v = plistlib.load(open(sys.argv[1], 'rb'))
for s, d in v.items():
    if isinstance(d, dict):
        for k, e in d.items():
            print(s, k, e.get('IDStatus'), json.dumps(e.get('LookupDate')), sep='\t')
"#,
        )
        .arg(public(
            "plist/plaso-com.apple.identityservices.idstatuscache.plist",
        ))
        .output()
        .unwrap();
    assert!(out.status.success());
    let rows: Vec<Vec<String>> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| l.split('\t').map(str::to_string).collect())
        .collect();
    assert_eq!(rows.len(), 40);
    let lookups = of(&o, "idstatuscache.plist", "IDS lookup of");
    assert_eq!(lookups.len(), rows.len());
    for r in &rows {
        let title = format!("IDS lookup of {} for {}", r[1], r[0]);
        let p = lookups
            .iter()
            .find(|p| p.title == title)
            .unwrap_or_else(|| panic!("no {title}"));
        assert!(has(p, &r[2]), "{title}");
        let t = &p.times[0];
        assert_eq!(p.verified_facts[t.fact].value, r[3], "{title}");
        assert_eq!(t.encoding.as_str(), "apple_seconds");
    }
    // counterparts: the numbers and e-mails looked up for iMessage, FaceTime and Find My;
    // the pairing, continuity, Watch and nearby services' destinations (the user's own
    // account, here thisisdfir@gmail.com and the DSID urn) are not taken as people
    let handles: BTreeSet<String> = o
        .identities()
        .into_iter()
        .filter(|(c, _, _)| c.starts_with("handle:"))
        .map(|(_, _, v)| v)
        .collect();
    let want: BTreeSet<String> = rows
        .iter()
        .filter(|r| {
            [
                "com.apple.madrid",
                "com.apple.ess",
                "com.apple.private.alloy.fmf",
            ]
            .contains(&r[0].as_str())
        })
        .map(|r| r[1].trim_start_matches("tel:").to_string())
        .collect();
    assert_eq!(handles, want);
    assert_eq!(want.len(), 6, "{want:?}");
    assert!(
        o.identities()
            .iter()
            .all(|(c, _, v)| c != "owner" && !v.contains("thisisdfir"))
    );
}

#[test]
fn ios_plaso_data_usage_screen_time_and_known_networks() {
    let dir = tempfile::tempdir().unwrap();
    tree(dir.path());
    let o = triage(dir.path(), "America/New_York");
    assert_all_accepted(&o);
    assert!(o.unparsed.is_empty(), "{:#?}", o.unparsed);

    // DataUsage.sqlite and netusage.sqlite: every ZLIVEUSAGE row with its process, bundle,
    // kind, traffic and times (the CLI as the oracle; iLEAPP's DataUsage drops kind 257)
    for (corpus, suffix, wifi) in [
        ("ios/plaso-DataUsage.sqlite", "/DataUsage.sqlite", true),
        ("ios/plaso-netusage.sqlite", "/netusage.sqlite", true),
    ] {
        let db = public(corpus);
        let rows = cli(
            &db,
            "SELECT u.Z_PK, p.ZPROCNAME, p.ZBUNDLENAME, u.ZKIND, u.ZWIFIIN, u.ZWIFIOUT, u.ZWWANIN, u.ZWWANOUT, \
u.ZTIMESTAMP, p.ZFIRSTTIMESTAMP, p.ZTIMESTAMP FROM ZLIVEUSAGE u LEFT JOIN ZPROCESS p ON p.Z_PK = u.ZHASPROCESS ORDER BY u.Z_PK",
        );
        let found = of(&o, suffix, "Network usage ");
        assert_eq!(found.len(), rows.len(), "{suffix}");
        for r in &rows {
            let p = found
                .iter()
                .find(|p| p.title.starts_with(&format!("Network usage {} of ", r[0])))
                .unwrap_or_else(|| panic!("{suffix} row {}", r[0]));
            for v in r[1..8].iter().filter(|v| !v.is_empty()) {
                assert!(
                    has(p, v),
                    "{suffix} row {}: {v} in {:?}",
                    r[0],
                    Phenomenon::clone(p).verified_facts
                );
            }
            let times: Vec<&str> = p
                .times
                .iter()
                .map(|t| p.verified_facts[t.fact].value.as_str())
                .collect();
            for v in r[8..].iter().filter(|v| !v.is_empty() && *v != "0") {
                assert!(times.contains(&v.as_str()), "{suffix} row {}: {v}", r[0]);
            }
        }
        assert!(wifi);
    }
    assert_eq!(of(&o, "/DataUsage.sqlite", "Network usage ").len(), 887);
    assert_eq!(of(&o, "/netusage.sqlite", "Network usage ").len(), 335);
    // netusage's network attachments, with the totals of the route rows that point at each
    // (iLEAPP joins ZLIVEROUTEPERF on its own Z_PK, which pairs rows of two different
    // attachments: ZHASNETWORKATTACHMENT is the link the schema declares)
    let att = cli(
        &public("ios/plaso-netusage.sqlite"),
        "SELECT a.Z_PK, a.ZIDENTIFIER, (SELECT total(ZBYTESIN) FROM ZLIVEROUTEPERF r WHERE r.ZHASNETWORKATTACHMENT = a.Z_PK), \
(SELECT count(*) FROM ZLIVEROUTEPERF r WHERE r.ZHASNETWORKATTACHMENT = a.Z_PK) FROM ZNETWORKATTACHMENT a",
    );
    assert_eq!(att.len(), 49);
    let nets: Vec<&Phenomenon> = o
        .category("usage")
        .into_iter()
        .filter(|p| p.title.contains(" attachment "))
        .collect();
    assert_eq!(nets.len(), att.len());
    for r in &att {
        let p = nets
            .iter()
            .find(|p| p.title.contains(&format!(" attachment {}: ", r[0])))
            .unwrap();
        assert!(has(p, &r[1]), "{}", r[1]);
        assert!(has(p, &r[3]));
        if r[3] != "0" {
            assert!(has(p, &r[2]), "{} {}", r[1], r[2]);
        }
    }
    assert!(
        nets.iter()
            .any(|p| p.title == "Wi-Fi attachment 76: CcookiesDcastleR5 Guest-f8:bb:bf:8d:b9:ca")
    );
    assert!(
        nets.iter()
            .any(|p| p.title == "cellular attachment 3: Carrier-18005506")
    );

    // Screen Time: plaso expects 777 events, one per ZUSAGETIMEDITEM
    let st = public("ios/plaso-RMAdminStore-Local.sqlite");
    let items = of(&o, "/RMAdminStore-Local.sqlite", "Screen Time ");
    let items: Vec<&&Phenomenon> = items.iter().filter(|p| p.category == "usage").collect();
    assert_eq!(items.len(), 777);
    let rows = cli(
        &st,
        "SELECT i.Z_PK, i.ZBUNDLEIDENTIFIER, i.ZDOMAIN, i.ZTOTALTIMEINSECONDS, c.ZIDENTIFIER, b.ZSTARTDATE, \
b.ZNUMBEROFPICKUPSWITHOUTAPPLICATIONUSAGE, d.ZNAME, d.ZIDENTIFIER, p.ZGIVENNAME, p.ZFAMILYNAME, p.ZDSID \
FROM ZUSAGETIMEDITEM i LEFT JOIN ZUSAGECATEGORY c ON c.Z_PK = i.ZCATEGORY LEFT JOIN ZUSAGEBLOCK b ON b.Z_PK = c.ZBLOCK \
LEFT JOIN ZUSAGE u ON u.Z_PK = b.ZUSAGE LEFT JOIN ZCOREDEVICE d ON d.Z_PK = u.ZDEVICE LEFT JOIN ZCOREUSER p ON p.Z_PK = u.ZUSER",
    );
    assert_eq!(rows.len(), 777);
    let mut fields = 0;
    let mut found = 0;
    for r in &rows {
        let p = items
            .iter()
            .find(|p| p.title.starts_with(&format!("Screen Time {}: ", r[0])))
            .unwrap_or_else(|| panic!("item {}", r[0]));
        for v in r[1..].iter().filter(|v| !v.is_empty()) {
            fields += 1;
            if has(p, v) {
                found += 1;
            } else {
                panic!("item {}: {v}", r[0]);
            }
        }
        assert_eq!(p.times.len(), usize::from(!r[5].is_empty()));
    }
    assert_eq!(found, fields);
    // the local user is the owner: DSID (also the urn:ds of the IDS cache) and name
    let ids = o.identities();
    for (t, v) in [("dsid", "17193901029"), ("display_name", "This Is DFIR")] {
        assert!(
            ids.iter()
                .any(|(c, ty, n)| c == "owner" && ty == t && n.eq_ignore_ascii_case(v)),
            "{t} {v}: {ids:#?}"
        );
    }
    let devices: BTreeSet<&str> = o
        .category("device")
        .iter()
        .filter(|p| p.title.starts_with("Screen Time device "))
        .map(|p| p.title.as_str())
        .collect();
    assert_eq!(
        devices,
        BTreeSet::from([
            "Screen Time device iPhone",
            "Screen Time device This Is’s Apple\u{a0}Watch",
            "Screen Time device This’s Mac",
        ])
    );

    // plaso's known-networks plist (a second device for the Wi-Fi artefact): the network and
    // each of its nine access points
    let wifi = o.category("wifi");
    let net = wifi
        .iter()
        .find(|p| p.title == "Wi-Fi network Matt_Foley")
        .expect("Matt_Foley");
    assert!(has(net, "WPA2 Personal"));
    assert!(has(net, "6a:22:32:98:f4:df"));
    assert!(has(net, "2262707.5380142927"));
    let marks: BTreeSet<&str> = net.times.iter().map(|t| t.description.as_str()).collect();
    for m in [
        "Wi-Fi network added",
        "Wi-Fi network updated",
        "Wi-Fi joined by user",
        "Wi-Fi joined by system",
        "Wi-Fi previously joined",
        "Wi-Fi password modified",
    ] {
        assert!(marks.contains(m), "{m}: {marks:?}");
    }
    assert_eq!(
        wifi.iter()
            .filter(|p| p.title.starts_with("Wi-Fi access point ")
                && p.title.ends_with(" of Matt_Foley"))
            .count(),
        9
    );
}

#[test]
fn ios_screen_time_second_device_with_a_family_member() {
    // A second Screen Time store: the real file's schema (sqlite3 .schema), a local user with
    // an Apple ID and a child of the family, each with a device and a usage block.
    let dir = tempfile::tempdir().unwrap();
    let to = dir.path().join(SCREENTIME);
    std::fs::create_dir_all(to.parent().unwrap()).unwrap();
    let schema = Command::new("sqlite3")
        .arg(format!(
            "file:{}?immutable=1",
            public("ios/plaso-RMAdminStore-Local.sqlite").display()
        ))
        .arg(".schema")
        .output()
        .unwrap();
    assert!(schema.status.success());
    let mut sql = String::from_utf8(schema.stdout).unwrap();
    sql.push_str(
        "INSERT INTO ZCOREUSER (Z_PK, ZDSID, ZISPARENT, ZLOCALUSERDEVICESTATE, ZAPPLEID, ZFAMILYMEMBERTYPE, ZGIVENNAME, ZFAMILYNAME) \
VALUES (1, 20012345678, 1, 1, 'mara.lind@icloud.com', 'Adult', 'Mara', 'Lind'), \
(2, 20087654321, 0, NULL, 'ole.lind@icloud.com', 'Child', 'Ole', 'Lind');
INSERT INTO ZCOREDEVICE (Z_PK, ZPLATFORM, ZLOCALUSERDEVICESTATE, ZIDENTIFIER, ZNAME) \
VALUES (1, 2, 1, '00008110-000A1B2C3D4E5F6A', 'Mara''s iPhone'), (2, 2, NULL, '00008101-0011223344556677', 'Ole''s iPad');
INSERT INTO ZUSAGE (Z_PK, ZDEVICE, ZUSER, ZLASTEVENTDATE) VALUES (1, 1, 1, 700000000.5), (2, 2, 2, 700003600.5);
INSERT INTO ZUSAGEBLOCK (Z_PK, ZNUMBEROFPICKUPSWITHOUTAPPLICATIONUSAGE, ZSCREENTIMEINSECONDS, ZUSAGE, ZSTARTDATE) \
VALUES (1, 3, 1800, 1, 699998400), (2, 0, 600, 2, 700002000);
INSERT INTO ZUSAGECATEGORY (Z_PK, ZTOTALTIMEINSECONDS, ZBLOCK, ZIDENTIFIER) VALUES (1, 1500, 1, 'DH1002'), (2, 600, 2, 'DH1001');
INSERT INTO ZUSAGETIMEDITEM (Z_PK, ZTOTALTIMEINSECONDS, ZCATEGORY, ZBUNDLEIDENTIFIER, ZDOMAIN) \
VALUES (1, 1200, 1, 'net.whatsapp.WhatsApp', NULL), (2, 300, 1, NULL, 'www.binance.com'), (3, 600, 2, 'com.supercell.clashroyale', NULL);",
    );
    sqlite3(&to, &sql);
    let o = triage(dir.path(), "Europe/Oslo");
    assert_all_accepted(&o);
    assert!(o.unparsed.is_empty(), "{:#?}", o.unparsed);
    let items: Vec<&Phenomenon> = o.category("usage");
    assert_eq!(items.len(), 3);
    let web = items
        .iter()
        .find(|p| p.title == "Screen Time 2: www.binance.com")
        .unwrap();
    for v in [
        "300",
        "DH1002",
        "3",
        "Mara's iPhone",
        "mara.lind@icloud.com",
        "699998400",
    ] {
        assert!(has(web, v), "{v}");
    }
    assert!(web.interpretation.contains("Social Networking"));
    let child = items
        .iter()
        .find(|p| p.title == "Screen Time 3: com.supercell.clashroyale")
        .unwrap();
    assert!(has(child, "Ole's iPad") && has(child, "20087654321"));
    let ids = o.identities();
    let want = [
        ("owner", "apple_id", "mara.lind@icloud.com"),
        ("owner", "dsid", "20012345678"),
        ("screentime:20087654321", "apple_id", "ole.lind@icloud.com"),
        ("screentime:20087654321", "dsid", "20087654321"),
    ];
    for (c, t, v) in want {
        assert!(
            ids.iter()
                .any(|(ic, it, iv)| ic == c && it == t && iv.eq_ignore_ascii_case(v)),
            "{c} {t} {v}: {ids:#?}"
        );
    }
    // the child's account is never the owner's
    assert!(
        !ids.iter()
            .any(|(c, _, v)| c == "owner" && v.contains("ole.lind"))
    );
}

#[test]
fn broken_lookup_caches_usage_and_screen_time_stores_are_noted_and_the_rest_is_read() {
    // An IDS cache that is no plist, a DataUsage.sqlite and an IMODb2.sqlite of a foreign
    // schema (sqlite3 CLI: ZLIVEUSAGE without its process link, messages without their time),
    // a Screen Time store cut in half, and plaso's good netusage.sqlite.
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let ids = root.join(IDSTATUS);
    std::fs::create_dir_all(ids.parent().unwrap()).unwrap();
    std::fs::write(&ids, b"bplist00 cut").unwrap();
    let du = root.join(DATAUSAGE);
    std::fs::create_dir_all(du.parent().unwrap()).unwrap();
    sqlite3(
        &du,
        "CREATE TABLE ZLIVEUSAGE (Z_PK INTEGER PRIMARY KEY, ZTIMESTAMP TIMESTAMP, ZWIFIIN FLOAT); \
CREATE TABLE ZPROCESS (Z_PK INTEGER PRIMARY KEY, ZPROCNAME VARCHAR); INSERT INTO ZLIVEUSAGE VALUES (1, 700000000, 5.0);",
    );
    let st = root.join(SCREENTIME);
    std::fs::create_dir_all(st.parent().unwrap()).unwrap();
    let bytes = std::fs::read(public("ios/plaso-RMAdminStore-Local.sqlite")).unwrap();
    std::fs::write(&st, &bytes[..bytes.len() / 2]).unwrap();
    place(root, "ios/plaso-netusage.sqlite", NETUSAGE);
    let imo = root.join(IMO);
    std::fs::create_dir_all(imo.parent().unwrap()).unwrap();
    sqlite3(
        &imo,
        "CREATE TABLE ZIMOCHATMSG (Z_PK INTEGER PRIMARY KEY, ZTEXT VARCHAR, ZISSENT INTEGER); INSERT INTO ZIMOCHATMSG VALUES (1, 'hi', 1);",
    );

    let o = triage(root, "America/New_York");
    assert_all_accepted(&o);
    o.assert_noted("/com.apple.identityservices.idstatuscache.plist", "plist");
    o.assert_noted("/DataUsage.sqlite", "ZLIVEUSAGE lacks ZHASPROCESS");
    o.assert_noted("/IMODb2.sqlite", "ZIMOCHATMSG lacks ZTS");
    assert!(o.category("messages").is_empty());
    let cut = o.noted("/RMAdminStore-Local.sqlite");
    assert!(!cut.is_empty());
    assert!(of(&o, "idstatuscache.plist", "IDS lookup").is_empty());
    assert!(of(&o, "/DataUsage.sqlite", "Network usage").is_empty());
    assert!(of(&o, "/RMAdminStore-Local.sqlite", "Screen Time").is_empty());
    // the good database is read whole
    assert_eq!(of(&o, "/netusage.sqlite", "Network usage ").len(), 335);
}

const IMO: &str = "private/var/mobile/Containers/Data/Application/5C4D1E2F-0A1B-4C3D-9E8F-112233445566/Documents/IMODb2.sqlite";

#[test]
fn ios_plaso_imo_messages_and_contacts_every_row() {
    let dir = tempfile::tempdir().unwrap();
    place(dir.path(), "ios/plaso-IMODb2.sqlite", IMO);
    let o = triage(dir.path(), "America/New_York");
    assert_all_accepted(&o);
    assert!(o.unparsed.is_empty(), "{:#?}", o.unparsed);
    let db = public("ios/plaso-IMODb2.sqlite");
    // every message with plaso's fields (time in nanoseconds, alias, text, sent flag) and
    // iLEAPP's (the conversation's display name and number)
    let rows = cli(
        &db,
        "SELECT m.Z_PK, m.ZTS, m.ZISSENT, m.ZTEXT, m.ZALIAS, m.ZBUID, k.ZDISPLAY, k.ZPHONE FROM ZIMOCHATMSG m \
LEFT JOIN ZIMOCONTACT k ON k.ZBUID = m.ZBUID ORDER BY m.Z_PK",
    );
    assert_eq!(rows.len(), 16);
    let msgs = o.category("messages");
    assert_eq!(msgs.len(), rows.len());
    for r in &rows {
        let p = msgs
            .iter()
            .find(|p| p.title.starts_with(&format!("imo message {} ", r[0])))
            .unwrap_or_else(|| panic!("message {}", r[0]));
        for v in r[3..].iter().filter(|v| !v.is_empty()) {
            assert!(has(p, v), "message {}: {v}", r[0]);
        }
        let t = &p.times[0];
        assert_eq!(p.verified_facts[t.fact].value, r[1]);
        assert_eq!(t.encoding.as_str(), "unix_nanos");
        let want = if r[2] == "1" {
            "Message sent"
        } else {
            "Message received"
        };
        assert_eq!(t.description, want);
    }
    // the shared photo's archived item: its action, object id and file name
    let photo = msgs
        .iter()
        .find(|p| p.title.starts_with("imo message 5 "))
        .unwrap();
    for v in [
        "photo_uploaded",
        ".40tNyIfCwAKbKfEfKsHcyIsiAjQ",
        "0AK3-QnxEc0.webp",
    ] {
        assert!(has(photo, v), "{v}");
    }
    // the four buddies, each an imo person with its qualified id and display name
    let contacts = o.category("contacts");
    assert_eq!(contacts.len(), 4);
    let ids = o.identities();
    for (buid, name) in [
        ("2000810370507916", "This Is DFIR Two"),
        ("2002144460145418", "Josh"),
        ("2002249975714909", "Josh Hickman"),
        ("2001584915553829", "Josh Hickman"),
    ] {
        let c = format!("imo:{buid}");
        assert!(
            ids.contains(&(c.clone(), "account_id".into(), c.clone())),
            "{c}: {ids:#?}"
        );
        assert!(
            ids.iter()
                .any(|(ic, t, v)| *ic == c && t == "display_name" && v.eq_ignore_ascii_case(name)),
            "{c} {name}"
        );
    }
}

#[test]
fn ios_plaso_app_privacy_report_every_record_and_a_damaged_copy() {
    let dir = tempfile::tempdir().unwrap();
    let saved = "private/var/mobile/Library/Mobile Documents/com~apple~CloudDocs/Downloads/ios_app_privacy_report.ndjson";
    place(dir.path(), "ios/plaso-ios_app_privacy_report.ndjson", saved);
    // a second export as the device names it, with a line that is no record and a cut one
    let good = std::fs::read_to_string(public("ios/plaso-ios_app_privacy_report.ndjson")).unwrap();
    let lines: Vec<&str> = good.lines().collect();
    let damaged = format!(
        "{}\nnot json\n{{\"type\":\"somethingElse\"}}\n{}\n{}",
        lines[0],
        lines[8],
        &lines[9][..40]
    );
    let other = dir.path().join(
        "private/var/mobile/Containers/Shared/AppGroup/0A1B2C3D/File Provider Storage/App_Privacy_Report_v4_2022-04-28T09_00_00.ndjson",
    );
    std::fs::create_dir_all(other.parent().unwrap()).unwrap();
    std::fs::write(&other, damaged).unwrap();
    let o = triage(dir.path(), "America/New_York");
    assert_all_accepted(&o);
    // plaso expects 72 events: one per record (8 accesses, 64 network activities)
    let recs: Vec<serde_json::Value> = lines
        .iter()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(recs.len(), 72);
    let found = of(&o, "/ios_app_privacy_report.ndjson", "App ");
    assert_eq!(found.len(), 72);
    for r in &recs {
        let s = |k: &str| r[k].as_str().unwrap_or_default().to_string();
        let (title, fields, times): (String, Vec<String>, Vec<String>) = if s("type") == "access" {
            let app = r["accessor"]["identifier"].as_str().unwrap().to_string();
            (
                format!("App privacy access: {app} {} {}", s("category"), s("kind")),
                vec![app, s("identifier"), s("category"), s("kind")],
                vec![s("timeStamp")],
            )
        } else {
            (
                format!(
                    "App network activity: {} contacted {}",
                    s("bundleID"),
                    s("domain")
                ),
                vec![
                    s("bundleID"),
                    s("domain"),
                    s("initiatedType"),
                    r["hits"].to_string(),
                ],
                vec![s("firstTimeStamp"), s("timeStamp")],
            )
        };
        let p = found
            .iter()
            .find(|p| {
                p.title == title
                    && fields.iter().all(|f| has(p, f))
                    && times
                        .iter()
                        .all(|t| p.times.iter().any(|m| p.verified_facts[m.fact].value == *t))
            })
            .unwrap_or_else(|| panic!("no {title} with {fields:?} {times:?}"));
        assert!(p.times.iter().all(|m| m.encoding.as_str() == "iso8601"));
    }
    let access: Vec<&&Phenomenon> = found
        .iter()
        .filter(|p| p.title.starts_with("App privacy access"))
        .collect();
    assert_eq!(access.len(), 8);
    // the damaged export: its two good records read, the two foreign lines noted, the cut
    // last line read as not JSON too (the whole file was read)
    let other_found = of(
        &o,
        "/App_Privacy_Report_v4_2022-04-28T09_00_00.ndjson",
        "App ",
    );
    assert_eq!(other_found.len(), 2);
    o.assert_noted(
        "/App_Privacy_Report_v4_2022-04-28T09_00_00.ndjson",
        "3 lines are not access or networkActivity JSON records (lines 2, 3, 5)",
    );
}

#[test]
fn ios_plaso_icloud_backup_state_and_carplay_apps() {
    let dir = tempfile::tempdir().unwrap();
    let prefs = "private/var/mobile/Library/Preferences";
    place(
        dir.path(),
        "plist/plaso-com.apple.MobileBackup.plist",
        &format!("{prefs}/com.apple.MobileBackup.plist"),
    );
    place(
        dir.path(),
        "plist/plaso-com.apple.CarPlayApp.plist",
        &format!("{prefs}/com.apple.CarPlayApp.plist"),
    );
    // a second device's MobileBackup.plist that is no backup state (a plist of another shape)
    let other = dir
        .path()
        .join("Dump/private/var/mobile/Library/Preferences/com.apple.MobileBackup.plist");
    std::fs::create_dir_all(other.parent().unwrap()).unwrap();
    std::fs::write(
        &other,
        b"<?xml version=\"1.0\"?><plist version=\"1.0\"><dict><key>Other</key><true/></dict></plist>",
    )
    .unwrap();
    let o = triage(dir.path(), "America/New_York");
    assert_all_accepted(&o);
    o.assert_noted(
        "/Dump/private/var/mobile/Library/Preferences/com.apple.MobileBackup.plist",
        "no BackupStateInfo",
    );
    // plistlib as the oracle: results, condition events, domains, CarPlay history
    let out = Command::new("python3")
        .arg("-c")
        .arg(
            r#"import plistlib, sys
v = plistlib.load(open(sys.argv[1], 'rb'))
for e in v['BackupStateInfo']['errors']:
    print('result', e['localizedDescription'], e['date'].isoformat(), sep='\t')
for e in v['LastOnConditionEvents']:
    print('event', e, sep='\t')
for k, n in v['PreflightSizing'].items():
    if not k.startswith('_'):
        print('domain', k, n, sep='\t')
c = plistlib.load(open(sys.argv[2], 'rb'))
for k, t in c['CARRecentAppHistory'].items():
    print('carplay', k, repr(t), sep='\t')
"#,
        )
        .arg(public("plist/plaso-com.apple.MobileBackup.plist"))
        .arg(public("plist/plaso-com.apple.CarPlayApp.plist"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let rows: Vec<Vec<String>> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| l.split('\t').map(str::to_string).collect())
        .collect();
    let kind = |k: &str| rows.iter().filter(|r| r[0] == k).collect::<Vec<_>>();
    let device = o.category("device");
    let apps = o.category("apps");
    let results: Vec<&&Phenomenon> = device
        .iter()
        .filter(|p| p.title.starts_with("iCloud backup result: "))
        .collect();
    assert_eq!(results.len(), kind("result").len());
    assert_eq!(results.len(), 10);
    for r in kind("result") {
        // plistlib prints the date without its zone; parse_plist writes it in UTC with Z
        assert!(
            results
                .iter()
                .any(|p| p.title == format!("iCloud backup result: {}", r[1])
                    && p.times
                        .iter()
                        .any(|m| p.verified_facts[m.fact].value.starts_with(&r[2][..19]))),
            "{r:?}"
        );
    }
    let events: Vec<&&Phenomenon> = device
        .iter()
        .filter(|p| p.title == "iCloud backup conditions met")
        .collect();
    assert_eq!(events.len(), kind("event").len());
    for r in kind("event") {
        let at = r[1].split('|').next().unwrap();
        assert!(
            events
                .iter()
                .any(|p| has(p, &r[1])
                    && p.times.iter().any(|m| p.verified_facts[m.fact].value == at)),
            "{r:?}"
        );
    }
    let domains: Vec<&&Phenomenon> = apps
        .iter()
        .filter(|p| p.title.starts_with("iCloud backup domain "))
        .collect();
    assert_eq!(domains.len(), kind("domain").len());
    assert_eq!(domains.len(), 64);
    for r in kind("domain") {
        let p = domains
            .iter()
            .find(|p| p.title == format!("iCloud backup domain {}", r[1]))
            .unwrap_or_else(|| panic!("{r:?}"));
        assert!(has(p, &r[2]), "{r:?}");
    }
    let state = device
        .iter()
        .find(|p| p.title == "iCloud backup state")
        .unwrap();
    let marks: BTreeSet<&str> = state.times.iter().map(|t| t.description.as_str()).collect();
    assert!(has(state, "31198674"));
    assert_eq!(
        marks,
        BTreeSet::from([
            "iCloud backup enabled for the account",
            "iCloud backup state recorded",
            "Backup configuration expires",
        ])
    );
    // CarPlay: five apps with their Unix times, and the start app
    let car: Vec<&&Phenomenon> = apps
        .iter()
        .filter(|p| p.title.starts_with("CarPlay app "))
        .collect();
    assert_eq!(car.len(), 5);
    for r in kind("carplay") {
        let p = car
            .iter()
            .find(|p| p.title == format!("CarPlay app {}", r[1]))
            .unwrap();
        let m = &p.times[0];
        assert_eq!(m.encoding.as_str(), "unix_seconds");
        assert_eq!(
            p.verified_facts[m.fact].value.parse::<f64>().unwrap(),
            r[2].parse::<f64>().unwrap()
        );
    }
    assert!(
        apps.iter()
            .any(|p| p.title == "CarPlay start app com.apple.Music" && has(p, "101"))
    );
}

#[test]
fn ios_identity_lookups_second_device_in_the_ios14_place() {
    // A second device's cache where iOS 14+ keeps it (IdentityServices/idstatuscache.plist),
    // written by plistlib as identityservicesd writes it (binary, Apple-time floats): an
    // iMessage lookup of a number, a FaceTime lookup of an e-mail, and the user's own Apple ID
    // looked up by the Watch pairing service.
    let dir = tempfile::tempdir().unwrap();
    let to = dir
        .path()
        .join("filesystem1/private/var/mobile/Library/IdentityServices/idstatuscache.plist");
    std::fs::create_dir_all(to.parent().unwrap()).unwrap();
    let st = Command::new("python3")
        .arg("-c")
        .arg(
            r#"import plistlib, sys
v = {'CacheVersion': 1,
     'com.apple.madrid': {'tel:+4791234567': {'IDStatus': 1, 'LookupDate': 700000123.25}},
     'com.apple.ess': {'mailto:kari.nordmann@example.no': {'IDStatus': 2, 'LookupDate': 700000456.5, 'ValidExpiry': 3600.0}},
     'com.apple.private.alloy.terminus': {'mailto:mara.lind@icloud.com': {'IDStatus': 1, 'LookupDate': 700000789.75}}}
plistlib.dump(v, open(sys.argv[1], 'wb'), fmt=plistlib.FMT_BINARY)
"#,
        )
        .arg(&to)
        .status()
        .unwrap();
    assert!(st.success());
    let o = triage(dir.path(), "Europe/Oslo");
    assert_all_accepted(&o);
    assert!(o.unparsed.is_empty(), "{:#?}", o.unparsed);
    let lookups = of(&o, "/IdentityServices/idstatuscache.plist", "IDS lookup of");
    assert_eq!(lookups.len(), 3);
    let email = lookups
        .iter()
        .find(|p| p.title == "IDS lookup of mailto:kari.nordmann@example.no for com.apple.ess")
        .unwrap();
    assert!(has(email, "kari.nordmann@example.no") && has(email, "2") && has(email, "3600.0"));
    assert!(email.interpretation.contains("not registered"));
    let ids = o.identities();
    assert!(ids.contains(&(
        "handle:+4791234567".into(),
        "phone".into(),
        "+4791234567".into()
    )));
    assert!(ids.contains(&(
        "handle:kari.nordmann@example.no".into(),
        "email".into(),
        "kari.nordmann@example.no".into()
    )));
    // the pairing service's destination is the user's own: neither a handle nor the owner's
    assert!(
        ids.iter().all(|(_, _, v)| !v.contains("mara.lind")),
        "{ids:#?}"
    );
}

#[test]
fn ios_plaso_instagram_direct_threads_and_messages() {
    let dir = tempfile::tempdir().unwrap();
    place(
        dir.path(),
        "ios/plaso-9368974384.db",
        "private/var/mobile/Containers/Data/Application/7F3E2D1C-0B9A-4876-A5B4-C3D2E1F00A9B/Library/Application Support/DirectSQLiteDatabase/9368974384.db",
    );
    let o = triage(dir.path(), "America/New_York");
    assert_all_accepted(&o);
    assert!(o.unparsed.is_empty(), "{:#?}", o.unparsed);
    // plistlib unarchiving each row as the oracle: message id, sender, subtype, text, the
    // server time as Unix seconds, and iLEAPP's shared media URL and its expiry (the photo's
    // first image version)
    let out = Command::new("python3")
        .arg("-c")
        .arg(
            r#"import plistlib, sqlite3, sys
def un(data):
    v = plistlib.loads(data); objs = v['$objects']
    def r(x):
        if isinstance(x, plistlib.UID): x = objs[x.data]
        if x == '$null': return None
        if isinstance(x, dict):
            if 'NS.time' in x: return x['NS.time']
            if 'NS.objects' in x: return [r(o) for o in x['NS.objects']]
            return {k: r(o) for k, o in x.items() if k != '$class'}
        return x
    return r(v['$top']['root'])
db = sqlite3.connect('file:' + sys.argv[1] + '?immutable=1', uri=True)
for mid, a in db.execute('SELECT message_id, archive FROM messages ORDER BY row_id'):
    m = un(a); meta = m['IGDirectPublishedMessageMetadata*metadata']; c = m['IGDirectPublishedMessageContent*content']
    photo = ((c.get('IGDirectPublishedMessageMedia*media') or {}).get('IGDirectPublishedMessagePermanentMedia*permanentMedia') or {}).get('IGPhoto*photo') or {}
    v = (photo.get('imageVersions') or [{}])[0]
    url = (v.get('url') or {}).get('NS.relative') or ''
    exp = int(v['expiration_date'] + 978307200) if v.get('expiration_date') else ''
    print(mid, meta['NSString*senderPk'], c['codedSubtype'], int(meta['NSDate*serverTimestamp'] + 978307200), (c.get('NSString*string') or '').replace('\n', ' '), url, exp, sep='\t')
"#,
        )
        .arg(public("ios/plaso-9368974384.db"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let rows: Vec<Vec<String>> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| l.split('\t').map(str::to_string).collect())
        .collect();
    assert_eq!(rows.len(), 75);
    let msgs: Vec<&Phenomenon> = o
        .category("messages")
        .into_iter()
        .filter(|p| p.title.starts_with("Instagram message "))
        .collect();
    assert_eq!(msgs.len(), 75);
    for r in &rows {
        let p = msgs
            .iter()
            .find(|p| p.title.starts_with(&format!("Instagram message {} ", r[0])))
            .unwrap_or_else(|| panic!("message {}", r[0]));
        assert!(has(p, &r[1]) && has(p, &r[2]), "{r:?}");
        if !r[4].is_empty() && !r[4].contains('"') {
            assert!(
                p.verified_facts
                    .iter()
                    .any(|f| f.value.replace("\\n", " ") == r[4]),
                "{r:?}"
            );
        }
        if !r[5].is_empty() {
            assert!(has(p, &r[5]), "media URL {r:?}");
            assert!(
                p.times
                    .iter()
                    .any(|t| t.description == "Shared media URL expires"
                        && unix_of(&p.verified_facts[t.fact].value).to_string() == r[6]),
                "media URL expiry {r:?}"
            );
        }
        let m = p
            .times
            .iter()
            .find(|t| t.description.starts_with("Message "))
            .unwrap();
        let at = unix_of(&p.verified_facts[m.fact].value);
        assert_eq!(at, r[3].parse::<i64>().unwrap(), "{r:?}");
        let want = if r[1] == "9368974384" {
            "Message sent"
        } else {
            "Message received"
        };
        assert_eq!(m.description, want);
    }
    assert_eq!(
        msgs.iter()
            .filter(|p| p.title.contains(" sent by "))
            .count(),
        36
    );
    // the three threads; the viewer is the owner, the other users are persons of their own
    let threads = o
        .category("messages")
        .into_iter()
        .filter(|p| p.title.starts_with("Instagram thread "))
        .count();
    assert_eq!(threads, 3);
    let ids = o.identities();
    for (c, t, v) in [
        ("owner", "account_id", "instagram:9368974384"),
        ("owner", "nickname", "thisisdfir"),
        ("instagram:42293925776", "nickname", "thisisdfirtwo"),
        ("instagram:49849116416", "display_name", "this is dfirtwo"),
    ] {
        assert!(
            ids.iter()
                .any(|(ic, it, iv)| ic == c && it == t && iv.eq_ignore_ascii_case(v)),
            "{c} {t} {v}: {ids:#?}"
        );
    }
}

/// Unix seconds of an RFC 3339 instant.
fn unix_of(s: &str) -> i64 {
    s.parse::<jiff::Timestamp>().unwrap().as_second()
}

#[test]
fn ios_data_usage_of_an_older_schema_and_a_foreign_instagram_store() {
    // A second device's DataUsage.sqlite of the iOS 12 shape (sqlite3 CLI: the real ZPROCESS,
    // a ZLIVEUSAGE with cellular counters only, as iLEAPP's second query expects) and an
    // Instagram store whose threads table lacks viewer_id (noted).
    let dir = tempfile::tempdir().unwrap();
    let du = dir.path().join(DATAUSAGE);
    std::fs::create_dir_all(du.parent().unwrap()).unwrap();
    let schema = Command::new("sqlite3")
        .arg(format!(
            "file:{}?immutable=1",
            public("ios/plaso-DataUsage.sqlite").display()
        ))
        .arg(".schema ZPROCESS")
        .output()
        .unwrap();
    assert!(schema.status.success());
    let mut sql = String::from_utf8(schema.stdout).unwrap();
    sql.push_str(
        "CREATE TABLE ZLIVEUSAGE ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZKIND INTEGER, ZMETADATA INTEGER, ZTAG INTEGER, ZHASPROCESS INTEGER, ZBILLCYCLEEND TIMESTAMP, ZTIMESTAMP TIMESTAMP, ZWWANIN FLOAT, ZWWANOUT FLOAT );
INSERT INTO ZPROCESS VALUES (1, 7, 1, 560000000.5, 560003600.25, 'org.telegram.messenger', 'Telegram'), (2, 7, 1, 560000100.0, 560000200.0, NULL, 'mDNSResponder');
INSERT INTO ZLIVEUSAGE VALUES (1, 5, 1, 0, 0, 1, 1, NULL, 560003600.25, 48213.0, 1024.0), (2, 5, 1, 0, 0, 1, 2, NULL, 560000200.0, 77.0, 0.0);",
    );
    sqlite3(&du, &sql);
    let ig = dir.path().join(
        "private/var/mobile/Containers/Data/Application/A1/Library/Application Support/DirectSQLiteDatabase/123.db",
    );
    std::fs::create_dir_all(ig.parent().unwrap()).unwrap();
    sqlite3(
        &ig,
        "CREATE TABLE threads (thread_id TEXT, metadata BLOB, row_id INTEGER PRIMARY KEY); CREATE TABLE messages (message_id TEXT, thread_id TEXT, archive BLOB, row_id INTEGER PRIMARY KEY);",
    );
    let o = triage(dir.path(), "Europe/Berlin");
    assert_all_accepted(&o);
    o.assert_noted("/DirectSQLiteDatabase/123.db", "threads lacks viewer_id");
    assert_eq!(o.unparsed.len(), 1, "{:#?}", o.unparsed);
    let usage = of(&o, "/DataUsage.sqlite", "Network usage ");
    assert_eq!(usage.len(), 2);
    let tg = usage
        .iter()
        .find(|p| p.title == "Network usage 1 of org.telegram.messenger")
        .unwrap();
    for v in ["Telegram", "48213.0", "1024.0"] {
        assert!(has(tg, v), "{v}");
    }
    assert_eq!(tg.times.len(), 3);
    assert!(tg.interpretation.contains("cellular in 48213.0 bytes"));
    assert!(!tg.interpretation.contains("Wi-Fi"));
    assert!(
        usage
            .iter()
            .any(|p| p.title == "Network usage 2 of mDNSResponder" && has(p, "77.0"))
    );
}
