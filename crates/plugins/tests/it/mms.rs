//! MMS (`android::mms`) in the telephony provider's `mmssms.db`: plaso's public database (an
//! Android emulator's, from the corpus: AOSP's own `pdu`, `part` and `addr` tables with their
//! triggers) copied onto two phones, MMS inserted by the sqlite3 CLI — the second phone's
//! `pdu` upgraded with the later `sub_id` and `creator` columns as newer Androids add them.
//! Every header, address, part and attachment is found; SMIL layouts and delivery reports are
//! not listed; the SMS of the same database are still read; the sender of a one-to-one MMS
//! holds the wallet address its text names as theirs.

use std::path::Path;

use crate::android_support::{Run, triage};
use crate::browsers::sqlite3;

const DB: &str = "data/user_de/0/com.android.providers.telephony/databases/mmssms.db";

fn phone(root: &Path, extra: &str) -> std::path::PathBuf {
    let db = root.join(DB);
    std::fs::create_dir_all(db.parent().unwrap()).unwrap();
    std::fs::copy(masf_testkit::corpus::path("android/plaso-mmssms.db"), &db).unwrap();
    std::fs::create_dir_all(root.join("data/system/users/0")).unwrap();
    let out = std::process::Command::new("sqlite3")
        .arg(&db)
        .arg(extra)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    db
}

const PHONE_A: &str = "INSERT INTO pdu (_id, thread_id, date, date_sent, msg_box, read, seen, m_id, sub, sub_cs, ct_t, m_type, v, m_size) VALUES
  (1, 1, 1714600000, 1714599990, 1, 1, 1, 'mms-7f3a-0001', 'Receipt', 106, 'application/vnd.wap.multipart.related', 132, 18, 20480),
  (2, 1, 1714600100, 0, 2, 1, 1, 'mms-7f3a-0002', NULL, NULL, 'application/vnd.wap.multipart.related', 128, 18, 512),
  (3, 1, 1714600105, 0, 1, 1, 1, 'mms-7f3a-0002', NULL, NULL, NULL, 134, 18, NULL);
INSERT INTO part (mid, seq, ct, name, cl, _data, text) VALUES
  (1, -1, 'application/smil', 'smil.xml', 'smil.xml', NULL, '<smil><body><par><img src=\"IMG_0001.jpg\"/></par></body></smil>'),
  (1, 0, 'image/jpeg', 'IMG_0001.jpg', 'IMG_0001.jpg', '/data/user_de/0/com.android.providers.telephony/app_parts/PART_1714600000_IMG_0001.jpg', NULL),
  (1, 0, 'text/plain', NULL, 'text_0.txt', NULL, 'paid, my USDT wallet is TRh4MqLekE9MbxTkLrQ673AHbsU46khwF2'),
  (2, 0, 'text/plain', NULL, 'text_0.txt', NULL, 'got it');
INSERT INTO addr (msg_id, address, type, charset) VALUES
  (1, '+15555550123', 137, 106), (1, 'insert-address-token', 151, 106),
  (2, 'insert-address-token', 137, 106), (2, '+15555550123', 151, 106);";

const PHONE_B: &str = "ALTER TABLE pdu ADD COLUMN sub_id INTEGER DEFAULT -1; ALTER TABLE pdu ADD COLUMN creator TEXT;
INSERT INTO pdu (_id, thread_id, date, date_sent, msg_box, read, seen, m_id, sub, m_type, m_size, sub_id, creator) VALUES
  (1, 2, 1714700000, 0, 2, 1, 1, 'mms-9b1c-0001', 'Tonight', 128, 1024, 1, 'com.google.android.apps.messaging');
INSERT INTO part (mid, seq, ct, name, _data, text) VALUES
  (1, 0, 'text/plain', NULL, NULL, 'meet at the desk'),
  (1, 1, 'video/mp4', 'VID_0002.mp4', '/data/user_de/0/com.android.providers.telephony/app_parts/PART_1714700000_VID_0002.mp4', NULL);
INSERT INTO addr (msg_id, address, type, charset) VALUES
  (1, 'insert-address-token', 137, 106), (1, '+15555550123', 151, 106), (1, '+15555550199', 151, 106);";

fn find(run: &Run, source: &str, title: &str) -> masf_graph::Phenomenon {
    run.all_phenomena(source)
        .into_iter()
        .find(|p| p.title == title)
        .unwrap_or_else(|| {
            panic!(
                "{title}: {:#?}",
                run.all_phenomena(source)
                    .iter()
                    .map(|p| p.title.clone())
                    .collect::<Vec<_>>()
            )
        })
}

fn has(p: &masf_graph::Phenomenon, v: &str) -> bool {
    p.verified_facts.iter().any(|f| f.value == v)
}

#[test]
fn mms_with_parts_and_addresses_on_two_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let db_a = phone(&a, PHONE_A);
    phone(&b, PHONE_B);
    let run = triage(&[
        ("a", &a, "America/New_York", Some("US")),
        ("b", &b, "America/New_York", Some("US")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for s in ["a", "b"] {
        for p in run.all_phenomena(s) {
            assert!(p.warnings.is_empty(), "{}: {:#?}", p.title, p.warnings);
        }
        assert!(run.unparsed(s).is_empty(), "{:#?}", run.unparsed(s));
    }
    // the received MMS: headers, sender, the picture and the text; no SMIL part
    let got = find(&run, "a", "MMS 1 received from +15555550123");
    for v in [
        "+15555550123",
        "Receipt",
        "mms-7f3a-0001",
        "1714600000",
        "1714599990",
        "image/jpeg",
        "IMG_0001.jpg",
        "/data/user_de/0/com.android.providers.telephony/app_parts/PART_1714600000_IMG_0001.jpg",
        "paid, my USDT wallet is TRh4MqLekE9MbxTkLrQ673AHbsU46khwF2",
    ] {
        assert!(has(&got, v), "{v}");
    }
    assert!(!has(&got, "smil.xml"));
    assert!(!has(&got, "insert-address-token"));
    let times: Vec<(&str, &str)> = got
        .times
        .iter()
        .map(|m| {
            (
                got.verified_facts[m.fact].value.as_str(),
                m.description.as_str(),
            )
        })
        .collect();
    assert_eq!(
        times,
        [("1714600000", "MMS received"), ("1714599990", "MMS sent")]
    );
    assert!(
        got.interpretation
            .contains("attached: IMG_0001.jpg (image/jpeg)")
    );
    let sent = find(&run, "a", "MMS 2 sent to +15555550123");
    assert!(has(&sent, "got it"));
    assert!(sent.interpretation.contains("from the device's user"));
    // the delivery report is no message
    assert!(
        !run.all_phenomena("a")
            .iter()
            .any(|p| p.title.starts_with("MMS 3 "))
    );
    // plaso's SMS still read
    let sms = sqlite3(&db_a, "SELECT count(*) FROM sms");
    let n: usize = sms[0][0].parse().unwrap();
    assert_eq!(
        run.all_phenomena("a")
            .iter()
            .filter(|p| p.title.starts_with("SMS ") && !p.title.starts_with("SMS thread"))
            .count(),
        n
    );
    // the sender named the wallet as theirs: a claim of the counterparty
    let entities = run.entities("a");
    assert!(
        entities
            .iter()
            .any(|e| e.starts_with("handle:+15555550123 ")
                && e.contains("wallet=TRh4MqLekE9MbxTkLrQ673AHbsU46khwF2")),
        "{entities:#?}"
    );
    // phone B: a group MMS it sent, with a video
    let group = find(&run, "b", "MMS 1 sent to +15555550123, +15555550199");
    for v in [
        "Tonight",
        "video/mp4",
        "VID_0002.mp4",
        "meet at the desk",
        "1714700000",
    ] {
        assert!(has(&group, v), "{v}");
    }
}
