//! Photos, Calendar, Mail, KnowledgeC and routined on the two generated iOS trees of
//! `tests/fixtures/ios-gen/` (sqlite3 CLI, the apps' table layouts; see its `generate.sh`):
//! `ios13` with the iOS 13 layouts and `ios16` with the iOS 16 ones, plus a truncated and a
//! foreign-schema copy of each database, noted while the rest of the tree is still read.

use std::path::{Path, PathBuf};

use masf_graph::Phenomenon;

use crate::ios::has;
use crate::ios_support::{Outcome, assert_all_accepted, repo, triage};

const APPLE_EPOCH: i64 = 978_307_200;

fn device(name: &str) -> PathBuf {
    repo().join("tests/fixtures/ios-gen").join(name)
}

/// `(description, Unix seconds)` of each Core Data or Unix time mark of `p`.
fn times(p: &Phenomenon) -> Vec<(String, i64)> {
    p.times
        .iter()
        .filter_map(|t| {
            let v: f64 = p.verified_facts[t.fact].value.parse().ok()?;
            let s = match t.encoding {
                masf_graph::TimeEncoding::AppleSeconds => v.trunc() as i64 + APPLE_EPOCH,
                masf_graph::TimeEncoding::UnixSeconds => v.trunc() as i64,
                _ => return None,
            };
            Some((t.description.clone(), s))
        })
        .collect()
}

fn titled<'a>(o: &'a Outcome, prefix: &str) -> Vec<&'a Phenomenon> {
    let mut v: Vec<&Phenomenon> = o
        .phenomena
        .iter()
        .filter(|p| p.title.starts_with(prefix))
        .collect();
    v.sort_by(|a, b| a.title.cmp(&b.title));
    v
}

fn one<'a>(o: &'a Outcome, prefix: &str) -> &'a Phenomenon {
    let v = titled(o, prefix);
    assert_eq!(
        v.len(),
        1,
        "{prefix}: {:#?}",
        v.iter().map(|p| &p.title).collect::<Vec<_>>()
    );
    v[0]
}

fn assert_has(p: &Phenomenon, values: &[&str]) {
    for v in values {
        assert!(
            has(p, v),
            "{}: no {v:?} in {:?}",
            p.title,
            crate::ios_support::Outcome::values(p)
        );
    }
}

/// A copy of the generated device `name` in a temporary folder.
fn copy(name: &str) -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    let st = std::process::Command::new("cp")
        .arg("-a")
        .arg(device(name).join("private"))
        .arg(tmp.path())
        .status()
        .unwrap();
    assert!(st.success());
    tmp
}

fn cut(path: &Path) {
    let bytes = std::fs::read(path).unwrap();
    std::fs::write(path, &bytes[..bytes.len() / 3]).unwrap();
}

fn sqlite3(db: &Path, sql: &str) {
    let _ = std::fs::remove_file(db);
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

#[test]
fn ios_gen_photos_of_two_schemas() {
    // iOS 13: ZGENERICASSET joined by ZADDITIONALATTRIBUTES; no ZEXTENDEDATTRIBUTES.
    let o = triage(&device("ios13"), "Asia/Hong_Kong");
    assert_all_accepted(&o);
    assert!(o.unparsed.is_empty(), "{:#?}", o.unparsed);
    let photos = titled(&o, "Photos library ");
    assert_eq!(photos.len(), 3, "{photos:#?}");
    let p1 = one(&o, "Photos library photo 1:");
    assert_has(
        p1,
        &[
            "DCIM/100APPLE/IMG_0001.HEIC",
            "IMG_0001.HEIC",
            "22.2808",
            "114.1588",
            "2512345",
            "Asia/Hong_Kong",
            "2020:08:25 08:13:10",
            "com.apple.camera",
            "6B1A0C2E-0001-4C1D-9A00-000000000001",
        ],
    );
    assert!(times(p1).contains(&("Photo created".into(), 619_999_990 + APPLE_EPOCH)));
    assert!(times(p1).contains(&(
        "Photo added to the library".into(),
        620_000_000 + APPLE_EPOCH
    )));
    assert!(p1.interpretation.contains("not hidden, not trashed"));
    // The -180/-180 sentinel is no location.
    let p2 = one(&o, "Photos library photo 2:");
    assert!(!has(p2, "-180.0"), "{p2:#?}");
    assert!(p2.interpretation.contains("no location"));
    assert!(p2.interpretation.contains("hidden (ZHIDDEN 1)"));
    assert_has(p2, &["Wallet receive screen", "com.apple.springboard"]);
    let v3 = one(&o, "Photos library video 3:");
    assert_has(
        v3,
        &[
            "VID-20200827-WA0001.mp4",
            "net.whatsapp.WhatsApp",
            "com.apple.mobileslideshow",
            "12.5",
            "5F1D2C3B-AIRDROP-SESSION-0003",
            "AQc1CloudGuid0003",
        ],
    );
    assert!(v3.interpretation.contains("Recently Deleted"));
    assert!(times(v3).contains(&("Photo trashed".into(), 620_259_200 + APPLE_EPOCH)));

    // iOS 16: ZASSET with ZEXTENDEDATTRIBUTES (camera make and model, lens, exposure).
    let o = triage(&device("ios16"), "Europe/London");
    assert_all_accepted(&o);
    assert!(o.unparsed.is_empty(), "{:#?}", o.unparsed);
    assert_eq!(titled(&o, "Photos library ").len(), 3);
    let p1 = one(&o, "Photos library photo 1:");
    assert_has(
        p1,
        &[
            "DCIM/100APPLE/IMG_0101.HEIC",
            "51.5007",
            "-0.1246",
            "Apple",
            "iPhone 14 Pro",
            "iPhone 14 Pro back triple camera 6.86mm f/1.78",
            "50",
            "1.78",
            "Europe/London",
            "5",
        ],
    );
    assert!(p1.interpretation.contains("a favourite"));
    assert!(times(p1).contains(&("Photo last shared".into(), 700_003_600 + APPLE_EPOCH)));
    // where Photos reverse-geocoded it (an archived PLRevGeoLocationInfo)
    assert_has(
        p1,
        &[
            "Westminster Bridge Road",
            "Lambeth",
            "London",
            "SE1 7PB",
            "United Kingdom",
            "GB",
        ],
    );
    assert!(
        p1.interpretation.contains(
            "Photos reverse-geocoded it to street Westminster Bridge Road, sub-locality Lambeth, city London"
        ),
        "{}",
        p1.interpretation
    );
    assert!(!p1.interpretation.contains("as home"));
    assert!(
        !o.findings()
            .iter()
            .any(|p| p.title.contains("Photos library photo 2:")
                && p.interpretation.contains("reverse-geocoded"))
    );
    let p2 = one(&o, "Photos library photo 2:");
    assert_has(p2, &["photo_2023-03-08.jpg", "org.telegram.messenger"]);
    assert!(p2.interpretation.contains("no location"));
    assert!(p2.interpretation.contains("Recently Deleted"));
    let p3 = one(&o, "Photos library photo 3:");
    assert_has(p3, &["48.8584", "2.2945", "400", "Hidden receipt"]);
    assert!(p3.interpretation.contains("hidden"));
}

#[test]
fn ios_gen_photos_truncated_and_foreign_noted() {
    let tmp = copy("ios16");
    let m = tmp.path().join("private/var/mobile");
    let photos = m.join("Media/PhotoData/Photos.sqlite");
    cut(&photos);
    // A second library of a foreign schema (another app's Photos.sqlite).
    let other = m.join("Media/PhotoData/Other/PhotoData/Photos.sqlite");
    std::fs::create_dir_all(other.parent().unwrap()).unwrap();
    sqlite3(
        &other,
        "CREATE TABLE ZPHOTO (Z_PK INTEGER PRIMARY KEY, ZNAME TEXT); INSERT INTO ZPHOTO VALUES (1, 'x');",
    );
    // An asset table lacking columns.
    let drift = m.join("Media/PhotoData/Drift/PhotoData/Photos.sqlite");
    std::fs::create_dir_all(drift.parent().unwrap()).unwrap();
    sqlite3(
        &drift,
        "CREATE TABLE ZASSET (Z_PK INTEGER PRIMARY KEY, ZFILENAME VARCHAR); INSERT INTO ZASSET VALUES (1, 'a.jpg');",
    );
    // A good library beside them (the iOS 13 one).
    let good = m.join("Media/PhotoData/Good/PhotoData/Photos.sqlite");
    std::fs::create_dir_all(good.parent().unwrap()).unwrap();
    std::fs::copy(
        device("ios13").join("private/var/mobile/Media/PhotoData/Photos.sqlite"),
        &good,
    )
    .unwrap();
    let o = triage(tmp.path(), "Europe/London");
    assert_all_accepted(&o);
    let r = o.noted("/Media/PhotoData/Photos.sqlite");
    assert!(
        r.contains("malformed") || r.contains("not a database"),
        "{r}"
    );
    o.assert_noted("/Other/PhotoData/Photos.sqlite", "neither a ZASSET");
    o.assert_noted("/Drift/PhotoData/Photos.sqlite", "ZDATECREATED, ZDIRECTORY");
    // The good library is still read.
    assert_eq!(titled(&o, "Photos library ").len(), 3);
    assert_eq!(o.unparsed.len(), 3, "{:#?}", o.unparsed);
}

#[test]
fn ios_gen_calendar_events_invitees_and_owner() {
    // iOS 13 layout: no self/owner identity columns; the user is the participant marked is_self.
    let o = triage(&device("ios13"), "Asia/Hong_Kong");
    assert_all_accepted(&o);
    assert!(o.unparsed.is_empty(), "{:#?}", o.unparsed);
    assert_eq!(titled(&o, "Calendar event ").len(), 2);
    let e = one(&o, "Calendar event 1:");
    assert_has(
        e,
        &[
            "Handover at the pier",
            "Home",
            "iCloud",
            "Asia/Hong_Kong",
            "Star Ferry Pier",
            "Tsim Sha Tsui, Kowloon, Hong Kong",
            "22.2937",
            "114.1686",
            "Chan Tai Man",
            "chan.tm@icloud.com",
            "wong.sm@example.com",
            "bring the ledger USB",
            "EVT-0001@icloud.com",
            "pier-map.pdf",
        ],
    );
    let t = times(e);
    for (d, s) in [
        ("Calendar event starts", 620_049_600),
        ("Calendar event ends", 620_053_200),
        ("Calendar event created", 620_000_000),
        ("Calendar event modified", 620_000_500),
    ] {
        assert!(t.contains(&(d.into(), s + APPLE_EPOCH)), "{d}: {t:?}");
    }
    assert!(
        e.interpretation
            .contains("attachments pier-map.pdf (48213 bytes)")
    );
    assert!(
        e.interpretation
            .contains("Wong Siu Ming <wong.sm@example.com> (accepted)"),
        "{}",
        e.interpretation
    );
    let h = one(&o, "Calendar event 2:");
    assert!(h.interpretation.contains("all-day") && h.interpretation.contains("floating"));
    assert_eq!(titled(&o, "Calendar 1: Home").len(), 1);
    let ids = o.identities();
    assert!(
        ids.contains(&("owner".into(), "email".into(), "chan.tm@icloud.com".into())),
        "{ids:#?}"
    );
    assert!(ids.contains(&(
        "handle:wong.sm@example.com".into(),
        "email".into(),
        "wong.sm@example.com".into()
    )));

    // iOS 16 layout: the account's own e-mail, a calendar shared with the user, a conference URL.
    let o = triage(&device("ios16"), "Europe/London");
    assert_all_accepted(&o);
    let e = one(&o, "Calendar event 1:");
    assert_has(
        e,
        &[
            "Wallet review",
            "leung.yl@example.org",
            "Café de Flore",
            "48.8541",
            "2.3326",
            "Mark Adler",
            "m.adler@example.net",
            "ops-team@example.net",
            "https://teams.example.net/l/meetup-join/0101",
            "Europe/Paris",
            "wallets-q1.xlsx",
        ],
    );
    assert!(
        e.interpretation.contains("(maybe, the user)"),
        "{}",
        e.interpretation
    );
    assert!(
        e.interpretation.contains("ops-team@example.net (declined)"),
        "{}",
        e.interpretation
    );
    let c = one(&o, "Calendar 1: Calendar");
    assert_has(
        c,
        &[
            "leung.yl@example.org",
            "m.adler@example.net",
            "Shared team calendar",
            "exchange",
        ],
    );
    assert!(c.interpretation.contains("shared with the user"));
    assert_has(c, &["Mark Adler", "ops-team@example.net"]);
    assert!(
        c.interpretation.contains(
            "sharing participants leung.yl@example.org (Leung Yee Ling) -> view & edit, ops-team@example.net -> view only"
        ),
        "{}",
        c.interpretation
    );
    let ids = o.identities();
    assert!(
        ids.contains(&(
            "owner".into(),
            "email".into(),
            "leung.yl@example.org".into()
        )),
        "{ids:#?}"
    );
    for other in ["m.adler@example.net", "ops-team@example.net"] {
        assert!(
            ids.contains(&(format!("handle:{other}"), "email".into(), other.into())),
            "{other}"
        );
    }
}

#[test]
fn ios_gen_mail_of_two_recipient_layouts() {
    // Older recipients(message_id, address_id); mailbox URLs by account UUID.
    let o = triage(&device("ios13"), "Asia/Hong_Kong");
    assert_all_accepted(&o);
    assert!(o.unparsed.is_empty(), "{:#?}", o.unparsed);
    assert_eq!(titled(&o, "Mail ").len(), 3);
    let m1 = one(&o, "Mail 1 from wong.sm@example.com");
    assert_has(
        m1,
        &[
            "wong.sm@example.com",
            "Wong Siu Ming",
            "Meeting tomorrow",
            "See you at the pier at 10.",
            "chan.tm@icloud.com",
            "lee.kk@example.com",
            "imap://7C9B3F1E-1111-4A2B-9C3D-000000000001/INBOX",
            "5120",
            "8001",
        ],
    );
    let t = times(m1);
    assert!(t.contains(&("Mail sent".into(), 1_597_910_400)), "{t:?}");
    assert!(t.contains(&("Mail received".into(), 1_597_910_405)));
    assert!(t.contains(&("Mail last viewed".into(), 1_597_914_000)));
    assert!(
        m1.interpretation
            .contains("To Lee Ka Kit <lee.kk@example.com>"),
        "{}",
        m1.interpretation
    );
    assert!(m1.interpretation.contains("read, not flagged"));
    let m2 = one(&o, "Mail 2 from");
    assert!(m2.interpretation.contains("unread, flagged"));
    // the iOS 13/14 attachments table: by message, no size; the global message id
    assert_has(m2, &["deposit-instructions.pdf", "9002", "0", "1"]);
    assert!(!m2.interpretation.contains("attachment sizes"));
    let m3 = one(&o, "Mail 3 to wong.sm@example.com: Meeting tomorrow");
    assert_has(m3, &["Re: ", "Confirmed, 10 am."]);
    assert!(m3.interpretation.contains("type-2 recipient Lee Ka Kit"));
    let ids = o.identities();
    // The sender of mail in the Sent mailbox is the user; the user is not a counterparty.
    assert!(
        ids.contains(&("owner".into(), "email".into(), "chan.tm@icloud.com".into())),
        "{ids:#?}"
    );
    assert!(!ids.iter().any(|(c, _, _)| c == "handle:chan.tm@icloud.com"));
    for other in [
        "wong.sm@example.com",
        "lee.kk@example.com",
        "accounts@exchange.example",
    ] {
        assert!(
            ids.iter()
                .any(|(c, _, v)| c.starts_with("handle:") && v == other),
            "{other}: {ids:#?}"
        );
    }

    // Current recipients(message, address); the account named in the mailbox URL.
    let o = triage(&device("ios16"), "Europe/London");
    assert_all_accepted(&o);
    assert!(o.unparsed.is_empty(), "{:#?}", o.unparsed);
    let m1 = one(&o, "Mail 1 from m.adler@example.net");
    assert_has(
        m1,
        &[
            "imap://leung.yl%40example.org@imap.example.org/INBOX",
            "ops-team@example.net",
            "48211",
            // message_attachments by global message id, sized from attachments
            "9101",
            "agenda.pdf, ledger.png",
            "48011, 1204",
        ],
    );
    assert!(m1.interpretation.contains("read, flagged"));
    let m2 = one(&o, "Mail 2 to m.adler@example.net");
    assert!(m2.interpretation.contains("sent by the user"));
    let ids = o.identities();
    assert!(
        ids.contains(&(
            "owner".into(),
            "email".into(),
            "leung.yl@example.org".into()
        )),
        "{ids:#?}"
    );
    // The user's own Ethereum address, written in sent mail, is the user's claim.
    assert!(
        ids.iter().any(|(c, t, v)| c == "owner"
            && t == "wallet"
            && v.to_ascii_lowercase()
                .contains("52908400098527886e0f7030069857d2e4169ee7")),
        "{ids:#?}"
    );
}

#[test]
fn ios_gen_knowledgec_app_usage_of_two_devices() {
    for (dev, b, tz) in [
        ("ios13", 620_000_000i64, "Asia/Hong_Kong"),
        ("ios16", 700_000_000, "Europe/London"),
    ] {
        let o = triage(&device(dev), tz);
        assert_all_accepted(&o);
        assert!(o.unparsed.is_empty(), "{dev}: {:#?}", o.unparsed);
        let events = titled(&o, "KnowledgeC ");
        let more = if dev == "ios16" { 5 } else { 0 };
        assert_eq!(events.len(), 7 + more, "{dev}: {events:#?}");
        assert!(events.iter().all(|p| p.category == "app_usage"));
        let wa = one(&o, "KnowledgeC app in focus 1: net.whatsapp.WhatsApp");
        assert_has(
            wa,
            &[
                "/app/inFocus",
                "net.whatsapp.WhatsApp",
                "300.5",
                "28800",
                "9A1B2C3D4E5F60718293A4B5C6D7E8F9",
            ],
        );
        let t = times(wa);
        assert!(
            t.contains(&("KnowledgeC event starts".into(), b + 100 + APPLE_EPOCH)),
            "{t:?}"
        );
        assert!(
            t.contains(&("KnowledgeC event ends".into(), b + 400 + APPLE_EPOCH)),
            "{t:?}"
        );
        assert!(
            t.contains(&("KnowledgeC entry created".into(), b + 401 + APPLE_EPOCH)),
            "{t:?}"
        );
        one(&o, "KnowledgeC device lock 3: locked");
        one(&o, "KnowledgeC device lock 4: unlocked");
        one(&o, "KnowledgeC device plugged in 5: plugged in");
        one(&o, "KnowledgeC display backlight 7: backlight on");
        let np = one(&o, "KnowledgeC now playing 6: com.apple.Music");
        assert_has(
            np,
            &[
                "Harbour Lights",
                "The Examples",
                "Night Album",
                "Pop",
                "245.5",
                "Music",
                "31",
            ],
        );
        if dev == "ios13" {
            continue;
        }
        // the iOS 16 phone's browsing, car, battery and Maps activity
        let web = one(&o, "KnowledgeC web usage 8: com.apple.mobilesafari");
        assert_has(
            web,
            &[
                "/app/webUsage",
                "example-exchange.com",
                "https://example-exchange.com/withdraw?asset=USDT",
                "180",
            ],
        );
        let bt = one(&o, "KnowledgeC Bluetooth connection 9: connected");
        assert_has(bt, &["Toyota Prius", "00:1A:7D:DA:71:13", "22", "8203"]);
        assert!(times(bt).contains(&("KnowledgeC event starts".into(), b + 5500 + APPLE_EPOCH)));
        one(&o, "KnowledgeC CarPlay connection 10: connected");
        assert_has(one(&o, "KnowledgeC battery level 11: 57.0%"), &["57.0"]);
        let act = one(&o, "KnowledgeC app activity 12: com.apple.Maps");
        assert_has(
            act,
            &[
                "com.apple.Maps.directions",
                "Directions to Harbour City",
                "https://maps.apple.com/?daddr=Harbour+City",
                "Harbour City, Canton Road",
                "maps-item-5521",
            ],
        );
    }
}

#[test]
fn ios_gen_routined_fixes_and_visits() {
    let o = triage(&device("ios16"), "Europe/London");
    assert_all_accepted(&o);
    assert!(o.unparsed.is_empty(), "{:#?}", o.unparsed);
    let fixes = titled(&o, "routined location ");
    assert_eq!(fixes.len(), 2);
    let f = one(&o, "routined location 1:");
    assert_eq!(f.category, "locations");
    assert_has(f, &["51.5", "-0.12", "5.0", "3.0", "12.5", "1.2", "90.0"]);
    assert!(times(f).contains(&("Device located".into(), 700_000_100 + APPLE_EPOCH)));
    let v = one(&o, "Significant location visit 1:");
    assert_has(v, &["51.5", "-0.12", "35.0", "0.9", "0.75", "42"]);
    let t = times(v);
    for (d, s) in [
        ("Significant location entered", 700_000_100),
        ("Significant location left", 700_004_000),
        ("Significant location visit recorded", 700_005_000),
        ("Significant location visit expires", 702_419_200),
    ] {
        assert!(t.contains(&(d.into(), s + APPLE_EPOCH)), "{d}: {t:?}");
    }
    // the parked car (the table has no notes column: read without it)
    let car = one(&o, "Parked car 1: 51.51, -0.11");
    assert_has(
        car,
        &[
            "51.51",
            "-0.11",
            "12.5",
            "CarPlay-2F6C8A10",
            "0A0B0C0D0E0F10111213141516171819",
        ],
    );
    let t = times(car);
    assert!(
        t.contains(&("Car parked".into(), 700_006_000 + APPLE_EPOCH)),
        "{t:?}"
    );
    assert!(
        t.contains(&("Parked car located".into(), 700_005_990 + APPLE_EPOCH)),
        "{t:?}"
    );
    let o = triage(&device("ios13"), "Asia/Hong_Kong");
    assert_all_accepted(&o);
    assert_has(
        one(&o, "routined location 2:"),
        &["22.29", "114.17", "65.0", "-1.0"],
    );
    // no car on the iOS 13 phone: no finding, no note
    assert!(titled(&o, "Parked car").is_empty());
    assert!(o.unparsed.is_empty(), "{:#?}", o.unparsed);
    // a vehicle table without its coordinates is noted, naming them; the visits still read
    let tmp = copy("ios16");
    let st = std::process::Command::new("sqlite3")
        .arg(tmp.path().join("private/var/mobile/Library/Caches/com.apple.routined/Local.sqlite"))
        .arg("DROP TABLE ZRTVEHICLEEVENTMO; CREATE TABLE ZRTVEHICLEEVENTMO (Z_PK INTEGER PRIMARY KEY, ZDATE TIMESTAMP); INSERT INTO ZRTVEHICLEEVENTMO VALUES (1, 700006000);")
        .status()
        .unwrap();
    assert!(st.success());
    let o = triage(tmp.path(), "Europe/London");
    assert_all_accepted(&o);
    o.assert_noted("/Local.sqlite", "ZLOCLATITUDE, ZLOCLONGITUDE");
    one(&o, "Significant location visit 1:");
}

/// The iOS 16 Envelope Index without its Protected Index: noted, naming the tables it lacks,
/// and each message still recorded with its dates, mailbox and flags.
#[test]
fn ios_gen_mail_without_protected_index_noted_messages_kept() {
    let tmp = copy("ios16");
    std::fs::remove_file(
        tmp.path()
            .join("private/var/mobile/Library/Mail/Protected Index"),
    )
    .unwrap();
    let o = triage(tmp.path(), "Europe/London");
    assert_all_accepted(&o);
    o.assert_noted("/Envelope Index", "addresses, subjects, summaries");
    let mails = titled(&o, "Mail ");
    assert_eq!(mails.len(), 2, "{mails:#?}");
    let m1 = one(&o, "Mail 1 from (unknown sender)");
    assert!(times(m1).contains(&("Mail received".into(), 1_678_269_612)));
    // Recipients are kept by address ROWID only, so none is named.
    assert!(!has(m1, "ops-team@example.net"));
    // The account the mailbox URL names is still the owner's.
    assert!(o.identities().contains(&(
        "owner".into(),
        "email".into(),
        "leung.yl@example.org".into()
    )));
}

/// Each database of the iOS 13 tree in turn cut short, and each replaced by a foreign schema:
/// a note naming the file and why, and every other artefact of the tree still read.
#[test]
fn ios_gen_truncated_and_foreign_copies_noted_rest_read() {
    let dbs = [
        ("Media/PhotoData/Photos.sqlite", "Photos library "),
        ("Library/Calendar/Calendar.sqlitedb", "Calendar event "),
        ("Library/Mail/Envelope Index", "Mail "),
        ("Library/CoreDuet/Knowledge/knowledgeC.db", "KnowledgeC "),
        (
            "Library/Caches/com.apple.routined/Cache.sqlite",
            "routined location ",
        ),
        (
            "Library/Caches/com.apple.routined/Local.sqlite",
            "Significant location visit ",
        ),
    ];
    let counts = [3usize, 2, 3, 7, 2, 1];
    for (i, (rel, _)) in dbs.iter().enumerate() {
        for foreign in [false, true] {
            let tmp = copy("ios13");
            let db = tmp.path().join("private/var/mobile").join(rel);
            if foreign {
                sqlite3(
                    &db,
                    "CREATE TABLE ZTHING (Z_PK INTEGER PRIMARY KEY, ZNAME TEXT); INSERT INTO ZTHING VALUES (1, 'x');",
                );
            } else {
                cut(&db);
            }
            let o = triage(tmp.path(), "Asia/Hong_Kong");
            assert_all_accepted(&o);
            let reason = o.noted(&format!("/{rel}"));
            if foreign {
                assert!(
                    reason.contains("unexpected schema") || reason.contains("could not parse"),
                    "{rel}: {reason}"
                );
            } else {
                assert!(
                    reason.contains("malformed") || reason.contains("not a database"),
                    "{rel}: {reason}"
                );
            }
            assert_eq!(o.unparsed.len(), 1, "{rel}: {:#?}", o.unparsed);
            for (j, (_, prefix)) in dbs.iter().enumerate() {
                let n = titled(&o, prefix).len();
                if j == i {
                    assert_eq!(n, 0, "{rel} {prefix}");
                } else {
                    assert_eq!(n, counts[j], "{rel} broken, {prefix} still read");
                }
            }
        }
    }
}

/// Paging through the row cap: a library of three assets more than the cap gives the cap's
/// number of asset phenomena and one summary counting all of them; 607 KnowledgeC events (the stream filter in a subquery) are
/// read across three pages, every one recorded.
#[test]
fn ios_gen_row_cap_and_paging() {
    let tmp = copy("ios16");
    let m = tmp.path().join("private/var/mobile");
    let exec = |db: &Path, sql: &str| {
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
    };
    let cap = masf_plugins::ios::ROW_CAP;
    exec(
        &m.join("Media/PhotoData/Photos.sqlite"),
        &format!(
            "WITH RECURSIVE c(x) AS (SELECT 4 UNION ALL SELECT x + 1 FROM c WHERE x < {})
         INSERT INTO ZASSET (Z_PK, Z_ENT, Z_OPT, ZKIND, ZDATECREATED, ZDIRECTORY, ZFILENAME, ZLATITUDE, ZLONGITUDE)
         SELECT x, 3, 1, 0, 700200000 + x, 'DCIM/101APPLE', printf('IMG_%05d.JPG', x), -180.0, -180.0 FROM c;",
            cap + 3
        ),
    );
    exec(
        &m.join("Library/CoreDuet/Knowledge/knowledgeC.db"),
        "WITH RECURSIVE c(x) AS (SELECT 13 UNION ALL SELECT x + 1 FROM c WHERE x < 607)
         INSERT INTO ZOBJECT (Z_PK, Z_ENT, Z_OPT, ZSTREAMNAME, ZVALUESTRING, ZSTARTDATE, ZENDDATE)
         SELECT x, 11, 1, '/app/inFocus', 'com.example.app' || x, 700300000 + 10 * x, 700300005 + 10 * x FROM c;
         INSERT INTO ZOBJECT (Z_PK, Z_ENT, Z_OPT, ZSTREAMNAME, ZVALUESTRING, ZSTARTDATE, ZENDDATE)
         VALUES (900, 11, 1, '/app/intents', 'not read', 700400000, 700400001);",
    );
    let o = triage(tmp.path(), "Europe/London");
    assert_all_accepted(&o);
    assert!(o.unparsed.is_empty(), "{:#?}", o.unparsed);
    assert_eq!(titled(&o, "Photos library ").len() as u64, cap);
    let summary = one(&o, "photo library assets in ");
    assert!(has(summary, &(cap + 3).to_string()), "{summary:#?}");
    let t = times(summary);
    assert!(
        t.contains(&(
            "Last asset created".into(),
            700_200_000 + cap as i64 + 3 + APPLE_EPOCH
        )),
        "{t:?}"
    );
    let events = titled(&o, "KnowledgeC ");
    assert_eq!(events.len(), 607);
    assert_eq!(
        titled(&o, "KnowledgeC app in focus 607: com.example.app607").len(),
        1
    );
    assert!(!events.iter().any(|p| p.title.contains("not read")));
}
