//! The iOS plugin on the demo iPhone, on generated fixtures with the real iOS layouts, on
//! public artefacts (plaso, iLEAPP's test cases against iLEAPP's expected output) and on
//! malformed artefacts.

use std::collections::BTreeSet;
use std::path::Path;

use masf_graph::{FactType, Phenomenon};
use serde_json::Value;

use crate::ios_support::{Outcome, assert_all_accepted, public, repo, triage};

/// Time marks as (encoding, description).
type Marks = Vec<(String, String)>;
/// A finding as (category, title, fact values, time marks).
type Row = (String, String, Vec<String>, Marks);

/// Seconds between 1970-01-01 and 2001-01-01.
const APPLE_EPOCH: f64 = 978_307_200.0;

fn set(items: &[(&str, &str, &str)]) -> BTreeSet<(String, String, String)> {
    items
        .iter()
        .map(|(a, b, c)| (a.to_string(), b.to_string(), c.to_string()))
        .collect()
}

/// Unix seconds (truncated, as iLEAPP prints them) of a Core Data / Apple time fact.
fn unix(raw: &str) -> i64 {
    let v: f64 = raw.parse().expect("numeric time");
    let secs = if v.abs() >= 1e12 { v / 1e9 } else { v };
    (secs + APPLE_EPOCH).floor() as i64
}

/// The values of the phenomenon's facts marked as times, as Unix seconds.
fn times(p: &Phenomenon) -> Vec<(String, i64)> {
    p.times
        .iter()
        .map(|t| (t.description.clone(), unix(&p.verified_facts[t.fact].value)))
        .collect()
}

pub(crate) fn has(p: &Phenomenon, v: &str) -> bool {
    p.verified_facts.iter().any(|f| f.value == v)
}

fn demo_iphone() -> Outcome {
    triage(
        &repo().join("tests/fixtures/demo/evidence/iphone_ffs.zip"),
        "Asia/Hong_Kong",
    )
}

#[test]
fn ios_demo_iphone_planted_identifiers_and_wal_only_messages() {
    let o = demo_iphone();
    assert_all_accepted(&o);
    assert!(o.unparsed.is_empty(), "{:#?}", o.unparsed);
    let truth: Value = serde_json::from_str(
        &std::fs::read_to_string(repo().join("tests/fixtures/demo/ground_truth.json"))
            .expect("ground truth"),
    )
    .expect("json");
    let ours: BTreeSet<(String, String)> = o
        .identities()
        .into_iter()
        .map(|(_, t, v)| (t, v.to_lowercase()))
        .collect();
    let mut checked = 0;
    for id in truth["identifiers"].as_array().expect("identifiers") {
        if id["where"]["source"] != "src-iphone" {
            continue;
        }
        let t = id["type"].as_str().expect("type");
        let t = if t == "name" { "display_name" } else { t };
        let kinds = [
            "phone",
            "email",
            "apple_id",
            "imei",
            "iccid",
            "imsi",
            "device_name",
            "display_name",
        ];
        if !kinds.contains(&t) {
            // Wallets and hashes in message text and screenshots are the OCR/document plugins'
            // part; organisation and computer names have no identifier type.
            continue;
        }
        let norm = id["normalized"]
            .as_str()
            .expect("normalized")
            .to_lowercase();
        assert!(
            ours.contains(&(t.to_string(), norm.clone())),
            "planted {t} {norm} ({}) not observed; ours: {ours:#?}",
            id["where"]
        );
        checked += 1;
    }
    assert!(checked >= 27, "{checked}");
    // The planted identities by context.
    let ids = o.identities();
    for want in [
        ("device", "imei", "353911104285730"),
        ("device", "iccid", "89852000123456789013"),
        ("device", "imsi", "454001234567890"),
        ("device", "device_name", "fung cc’s iphone"),
        ("owner", "apple_id", "fung.cc@example.org"),
        ("owner", "phone", "+85254321098"),
        ("handle:+85261234567", "phone", "+85261234567"),
        (
            "handle:yl.leung@example.com",
            "email",
            "yl.leung@example.com",
        ),
        ("contact:1", "phone", "+85298765432"),
        ("contact:2", "email", "yeeling.leung@example.net"),
        ("contact:1", "display_name", "chan man ho"),
        ("contact:2", "display_name", "leung y l"),
    ] {
        let w = (want.0.to_string(), want.1.to_string(), want.2.to_string());
        assert!(ids.contains(&w), "{w:?} missing");
    }
    // CHAN's handle belongs to his card, so no separate handle entity.
    assert!(!ids.iter().any(|(c, _, _)| c == "handle:+85298765432"));
    // Every message, the WAL-only ones included, with its Apple-nanosecond time.
    let msgs = o.category("messages");
    assert_eq!(msgs.len(), 7);
    for wal in truth["wal_only"].as_array().expect("wal_only") {
        if wal["table"] != "message" {
            let file = wal["filename"].as_str().expect("filename");
            assert!(
                msgs.iter().any(|p| has(p, file)),
                "attachment {file} not found"
            );
            continue;
        }
        let guid = wal["guid"].as_str().expect("guid");
        let p = msgs
            .iter()
            .find(|p| has(p, guid))
            .expect("WAL-only message found");
        assert!(has(p, wal["text"].as_str().expect("text")));
        assert!(has(p, wal["handle"].as_str().expect("handle")));
        let date = wal["date_apple_ns"].as_i64().expect("date").to_string();
        let mark = &p.times[0];
        assert_eq!(p.verified_facts[mark.fact].value, date);
        assert_eq!(mark.encoding.as_str(), "apple_nanos");
        let sent = wal["is_from_me"] == 1;
        assert_eq!(
            mark.description,
            if sent {
                "Message sent"
            } else {
                "Message received"
            }
        );
    }
    assert_eq!(o.category("accounts").len(), 5);
    assert_eq!(o.category("contacts").len(), 4);
}

#[test]
fn ios_generated_ffs_exact_findings() {
    let o = triage(&repo().join("tests/fixtures/ios/ffs"), "Europe/London");
    assert_all_accepted(&o);
    assert!(o.unparsed.is_empty(), "{:#?}", o.unparsed);
    assert_eq!(
        o.identities(),
        set(&[
            (
                "contact:whatsapp:1",
                "contact_guid",
                "A1B2C3D4-0000-4000-8000-000000000001"
            ),
            ("contact:whatsapp:1", "display_name", "kim lee"),
            ("contact:whatsapp:1", "phone", "+447700900123"),
            ("handle:+447700900123", "phone", "+447700900123"),
            ("handle:+447700900999", "phone", "+447700900999"),
            (
                "handle:447700900123@s.whatsapp.net",
                "phone",
                "+447700900123"
            ),
            (
                "handle:447700900123@s.whatsapp.net",
                "display_name",
                "kim lee"
            ),
            ("handle:kim.lee@example.com", "email", "kim.lee@example.com"),
            ("owner", "apple_id", "sam.owner@example.org"),
            ("owner", "email", "sam.owner@example.org"),
        ])
    );
    let got: Vec<(String, String, Vec<&str>, Marks)> = o
        .findings()
        .into_iter()
        .map(|p| {
            (
                p.category.clone(),
                p.title.clone(),
                Outcome::values(p),
                p.times
                    .iter()
                    .map(|t| (t.encoding.as_str().to_string(), t.description.clone()))
                    .collect(),
            )
        })
        .collect();
    let sms = "/private/var/mobile/Library/SMS/sms.db";
    let calls = "/private/var/mobile/Library/CallHistoryDB/CallHistory.storedata";
    let wa = "/private/var/mobile/Containers/Shared/AppGroup/5A7C9A52-3B8E-4F0C-9C1D-2E6F1B0A7D43";
    let kc = "/private/var/Keychains/keychain-export.plist";
    let s = |v: &str| v.to_string();
    let t = |e: &str, d: &str| vec![(s(e), s(d))];
    let want: Vec<Row> = vec![
        (
            s("messages"),
            s("iMessage 1 received from +447700900123"),
            vec![
                s(sms),
                s("00000001-AAAA-4BBB-8CCC-DDDDDDDDDDD1"),
                s("+447700900123"),
                s("505000000"),
                s("Are you at the station?"),
            ],
            t("apple_seconds", "Message received"),
        ),
        (
            s("messages"),
            s("iMessage 2 sent to +447700900123"),
            vec![
                s(sms),
                s("00000002-AAAA-4BBB-8CCC-DDDDDDDDDDD2"),
                s("+447700900123"),
                s("505000060"),
                s("Platform 4, see you"),
            ],
            t("apple_seconds", "Message sent"),
        ),
        (
            s("messages"),
            s("iMessage 3 received from kim.lee@example.com"),
            vec![
                s(sms),
                s("00000003-AAAA-4BBB-8CCC-DDDDDDDDDDD3"),
                s("kim.lee@example.com"),
                s("505000300"),
                s("Deleted? No, only in the WAL"),
            ],
            t("apple_seconds", "Message received"),
        ),
        (
            s("calls"),
            s("Call 1 to +447700900123"),
            vec![
                s(calls),
                s("+447700900123"),
                s("C0FFEE01-1111-4222-8333-444444444444"),
                s("com.apple.Telephony"),
                s("65.0"),
                s("505001000.25"),
            ],
            t("apple_seconds", "Call started"),
        ),
        (
            s("calls"),
            s("Call 2 from +447700900999"),
            vec![
                s(calls),
                s("+447700900999"),
                s("C0FFEE02-1111-4222-8333-444444444444"),
                s("com.apple.Telephony"),
                s("0.0"),
                s("505002000.5"),
            ],
            t("apple_seconds", "Call started"),
        ),
        (
            s("contacts"),
            s("WhatsApp contact 1: Kim Lee"),
            vec![
                format!("{wa}/ContactsV2.sqlite"),
                s("Kim Lee"),
                s("+44 7700 900123"),
                s("447700900123@s.whatsapp.net"),
                s("A1B2C3D4-0000-4000-8000-000000000001"),
            ],
            vec![],
        ),
        (
            s("messages"),
            s("WhatsApp message 1 received from Kim Lee"),
            vec![
                format!("{wa}/ChatStorage.sqlite"),
                s("447700900123@s.whatsapp.net"),
                s("Kim Lee"),
                s("447700900123@s.whatsapp.net"),
                s("505004000"),
                s("WhatsApp hello"),
            ],
            t("apple_seconds", "Message received"),
        ),
        (
            s("messages"),
            s("WhatsApp message 2 sent to Kim Lee"),
            vec![
                format!("{wa}/ChatStorage.sqlite"),
                s("447700900123@s.whatsapp.net"),
                s("Kim Lee"),
                s("447700900123@s.whatsapp.net"),
                s("505004100"),
                s("WhatsApp reply"),
            ],
            t("apple_seconds", "Message sent"),
        ),
        (
            s("calls"),
            s("WhatsApp call 1 with 447700900123@s.whatsapp.net"),
            vec![
                format!("{wa}/CallHistory.sqlite"),
                s("447700900123@s.whatsapp.net"),
                s("Incoming"),
                s("Ended"),
                s("00:00:42"),
                s("505003000.5"),
                s("505003042.75"),
            ],
            vec![
                (s("apple_seconds"), s("Call started")),
                (s("apple_seconds"), s("Call ended")),
            ],
        ),
        (
            s("credentials"),
            s("Keychain item 1: sam.owner@example.org for com.example.mail"),
            vec![
                s(kc),
                s("sam.owner@example.org"),
                s("com.example.mail"),
                s("com.example.mail.group"),
                s("Example Mail"),
                s("2017-01-02T03:04:05Z"),
            ],
            t("iso8601", "Modification Time"),
        ),
        (
            s("credentials"),
            s("Keychain item 2: sam_owner for forum.example.net"),
            vec![s(kc), s("sam_owner"), s("forum.example.net")],
            vec![],
        ),
    ];
    let got: Vec<_> = got
        .into_iter()
        .map(|(c, t, v, m)| {
            (
                c,
                t,
                v.into_iter().map(str::to_string).collect::<Vec<_>>(),
                m,
            )
        })
        .collect();
    assert_eq!(got, want);
    // No secret of the keychain export reaches a finding.
    for p in &o.phenomena {
        let all = format!("{} {} {:?}", p.title, p.interpretation, Outcome::values(p));
        assert!(!all.contains("SECRET") && !all.contains("hunter2"), "{all}");
    }
}

#[test]
fn ios_malformed_artefacts_are_noted_and_the_rest_is_read() {
    let o = triage(
        &repo().join("tests/fixtures/ios/malformed"),
        "Europe/London",
    );
    assert_all_accepted(&o);
    let notes: Vec<(&str, &str)> = o
        .unparsed
        .iter()
        .map(|u| (u.artefact.as_str(), u.reason.as_str()))
        .collect();
    assert_eq!(notes.len(), 3, "{notes:#?}");
    let reason = |a: &str| {
        notes
            .iter()
            .find(|(x, _)| *x == a)
            .unwrap_or_else(|| panic!("{a} not noted: {notes:#?}"))
            .1
    };
    let sms = reason("/private/var/mobile/Library/SMS/sms.db");
    assert!(
        sms.contains("malformed") || sms.contains("not a database"),
        "{sms}"
    );
    let ark = reason("/private/var/root/Library/Lockdown/data_ark.plist");
    assert!(ark.contains("not a readable plist"), "{ark}");
    let ab = reason("/private/var/mobile/Library/AddressBook/AddressBook.sqlitedb");
    assert!(
        ab.starts_with("unexpected schema: table ABPerson lacks First"),
        "{ab}"
    );
    // Nothing from the three; the good Accounts3.sqlite is still read.
    let findings = o.findings();
    assert_eq!(findings.len(), 1, "{findings:#?}");
    assert_eq!(findings[0].category, "accounts");
    assert!(has(findings[0], "still.read@example.org"));
    assert_eq!(
        o.identities(),
        set(&[("owner", "apple_id", "still.read@example.org")])
    );
}

/// A tree made of plaso's public iOS artefacts placed where iOS keeps them.
fn plaso_tree(dir: &Path) {
    for (src, dest) in [
        (
            "ios/plaso-imessage_chat.db",
            "private/var/mobile/Library/SMS/sms.db",
        ),
        (
            "ios/plaso-Accounts3.sqlite",
            "private/var/mobile/Library/Accounts/Accounts3.sqlite",
        ),
        (
            "plist/plaso-com.apple.commcenter.data.plist",
            "private/var/wireless/Library/Preferences/com.apple.commcenter.data.plist",
        ),
    ] {
        let to = dir.join(dest);
        std::fs::create_dir_all(to.parent().expect("parent")).expect("mkdir");
        std::fs::copy(public(src), &to).expect("copy");
    }
}

/// Rows of `sql` run by the sqlite3 CLI on a copy of `db` (tab-separated).
fn sqlite3_rows(db: &Path, sql: &str) -> Vec<Vec<String>> {
    let out = std::process::Command::new("sqlite3")
        .args(["-separator", "\t", "-nullvalue", ""])
        .arg(db)
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

#[test]
fn ios_plaso_imessage_accounts_and_commcenter() {
    let dir = tempfile::tempdir().expect("tempdir");
    plaso_tree(dir.path());
    // plaso's truncated plist where purplebuddy's would be: noted, and the rest still read.
    let buddy = dir
        .path()
        .join("private/var/mobile/Library/Preferences/com.apple.purplebuddy.plist");
    std::fs::create_dir_all(buddy.parent().expect("parent")).expect("mkdir");
    std::fs::copy(public("plist/plaso-truncated.plist"), &buddy).expect("copy");
    let o = triage(dir.path(), "America/New_York");
    assert_all_accepted(&o);
    assert_eq!(o.unparsed.len(), 1, "{:#?}", o.unparsed);
    assert_eq!(
        o.unparsed[0].artefact,
        "/private/var/mobile/Library/Preferences/com.apple.purplebuddy.plist"
    );
    assert!(
        o.unparsed[0].reason.contains("not a readable plist"),
        "{:?}",
        o.unparsed[0]
    );
    // imessage_chat.db: 10 messages, dates in seconds (pre-iOS 11 layout).
    let copy = dir.path().join("check.db");
    std::fs::copy(public("ios/plaso-imessage_chat.db"), &copy).expect("copy");
    let rows = sqlite3_rows(
        &copy,
        "SELECT guid, date, is_from_me FROM message ORDER BY ROWID",
    );
    // (the 226 messages deleted after ROWID 10 and their GUIDs: tests/it/gaps.rs)
    let all: Vec<_> = o
        .category("messages")
        .into_iter()
        .filter(|p| !p.title.starts_with("Deleted message ") && !p.title.contains(" missing "))
        .collect();
    let (changed, msgs): (Vec<_>, Vec<_>) = all
        .into_iter()
        .partition(|p| p.title.starts_with("Message ROWID "));
    assert_eq!(msgs.len(), rows.len());
    assert_eq!(rows.len(), 10);
    // rows 6 and 10: the text column says "Open Office" where the archive Messages wrote says
    // "Microsoft Office" (pytypedstream reads the archives alike: the tools' typedstream tests)
    let titles: Vec<&str> = changed.iter().map(|p| p.title.as_str()).collect();
    assert_eq!(
        titles,
        [
            "Message ROWID 6: its text column differs from its archived text",
            "Message ROWID 10: its text column differs from its archived text",
        ]
    );
    for p in &changed {
        assert!(p.verified_facts.iter().any(
            |f| f.value.contains("install Open Office") || f.value.contains("with Open Office")
        ));
        assert!(
            p.verified_facts
                .iter()
                .any(|f| f.value.contains("Microsoft Office"))
        );
    }
    for r in &rows {
        let p = msgs.iter().find(|p| has(p, &r[0])).expect("message found");
        let m = &p.times[0];
        assert_eq!(p.verified_facts[m.fact].value, r[1]);
        assert_eq!(m.encoding.as_str(), "apple_seconds");
        assert_eq!(
            m.description,
            if r[2] == "1" {
                "Message sent"
            } else {
                "Message received"
            }
        );
    }
    // Accounts3.sqlite: every account iLEAPP's query lists (CLI as the oracle), same user name
    // and time.
    let acc = dir.path().join("acc.db");
    std::fs::copy(public("ios/plaso-Accounts3.sqlite"), &acc).expect("copy");
    let oracle = sqlite3_rows(&acc, ILEAPP_ACCOUNTS);
    assert!(!oracle.is_empty());
    check_accounts(&o, &oracle);
    // commcenter.data.plist: the SIM's number and ICCID.
    let ids = o.identities();
    assert!(
        ids.contains(&("owner".into(), "phone".into(), "+19195794674".into())),
        "{ids:#?}"
    );
    assert!(ids.contains(&(
        "device".into(),
        "iccid".into(),
        "8901260971148676693".into()
    )));
}

/// iOS 16 and later leave `message.text` NULL and keep the words only in `attributedBody`: plaso's
/// real archives with the text column emptied by the sqlite3 CLI give every message its text
/// from the archive (as pytypedstream reads it, see the tools' typedstream tests) and the link
/// Messages marked; the same database with its text column kept still cites that column.
#[test]
fn messages_whose_text_is_only_in_the_attributed_body_are_read() {
    let dir = tempfile::tempdir().expect("tempdir");
    plaso_tree(dir.path());
    let sms = dir.path().join("private/var/mobile/Library/SMS/sms.db");
    sqlite3_rows(&sms, "UPDATE message SET text = NULL WHERE ROWID % 2 = 1");
    sqlite3_rows(&sms, "UPDATE message SET text = '' WHERE ROWID % 2 = 0");
    // one archive cut short: said so, the other messages still read
    sqlite3_rows(
        &sms,
        "UPDATE message SET attributedBody = substr(attributedBody, 1, 60) WHERE ROWID = 3",
    );
    let o = triage(dir.path(), "America/New_York");
    assert_all_accepted(&o);
    let db = rusqlite::Connection::open(public("ios/plaso-imessage_chat.db")).expect("open");
    let mut stmt = db
        .prepare("SELECT guid, attributedBody FROM message ORDER BY ROWID")
        .expect("prepare");
    let rows: Vec<(String, Vec<u8>)> = stmt
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .expect("query")
        .map(|r| r.expect("row"))
        .collect();
    let msgs: Vec<_> = o
        .category("messages")
        .into_iter()
        .filter(|p| !p.title.starts_with("Deleted message ") && !p.title.contains(" missing "))
        .collect();
    assert_eq!(msgs.len(), 10);
    for (i, (guid, blob)) in rows.iter().enumerate() {
        let p = msgs.iter().find(|p| has(p, guid)).expect("message found");
        if i == 2 {
            assert!(
                p.interpretation
                    .contains("does not read as an archived string"),
                "{}",
                p.interpretation
            );
            assert!(
                !p.verified_facts
                    .iter()
                    .any(|f| f.fact_type == FactType::Text)
            );
            continue;
        }
        let decoded = masf_tools::typedstream::decode(blob).expect("archive reads");
        let words = decoded["text"].as_str().expect("text");
        let text = p
            .verified_facts
            .iter()
            .find(|f| f.fact_type == FactType::Text)
            .expect("a text fact");
        assert_eq!(text.value, masf_plugins::outputs::in_json_cell(words));
        assert!(
            p.interpretation.contains("read from attributedBody"),
            "{}",
            p.interpretation
        );
    }
    let first = msgs.iter().find(|p| has(p, &rows[0].0)).expect("row 1");
    assert!(
        first
            .verified_facts
            .iter()
            .any(|f| f.fact_type == FactType::Url && f.value == "tel:128874"),
        "{:#?}",
        first.verified_facts
    );
    assert!(first.interpretation.contains("marked tel:128874 as link"));
    // with the text column kept, the column is what is cited (the archive is only compared
    // with it: ios_plaso_imessage_accounts_and_commcenter)
    let kept = tempfile::tempdir().expect("tempdir");
    plaso_tree(kept.path());
    let o = triage(kept.path(), "America/New_York");
    for p in o
        .category("messages")
        .into_iter()
        .filter(|p| !p.title.starts_with("Message ROWID "))
    {
        assert!(!p.interpretation.contains("attributedBody"));
        assert!(
            !p.verified_facts
                .iter()
                .any(|f| f.fact_type == FactType::Url)
        );
    }
}

/// iLEAPP's accountData query.
const ILEAPP_ACCOUNTS: &str = "SELECT zdate, zaccounttypedescription, zusername, zaccountdescription, zaccount.zidentifier, zaccount.zowningbundleid FROM zaccount, zaccounttype WHERE zaccounttype.z_pk=zaccount.zaccounttype";

fn check_accounts(o: &Outcome, oracle: &[Vec<String>]) {
    let accounts = o.category("accounts");
    let mut missing = Vec::new();
    for r in oracle {
        let found = accounts.iter().any(|p| {
            has(p, &r[4])
                && (r[2].is_empty() || has(p, &r[2]))
                && (r[1].is_empty() || has(p, &r[1]))
                && (r[0].is_empty() || times(p).iter().any(|(_, t)| *t == unix(&r[0])))
        });
        if !found {
            missing.push(r.clone());
        }
    }
    assert!(
        missing.is_empty(),
        "iLEAPP account rows not covered: {missing:#?}"
    );
}

pub(crate) fn ileapp(name: &str) -> std::path::PathBuf {
    public(&format!("ios/ileapp/{name}"))
}

/// iLEAPP's recorded output for one module and test case (`module.artefact.case`), from the
/// corpus.
pub(crate) fn expected(prefix: &str) -> Value {
    let want = format!("ios/ileapp/expected/{prefix}.");
    let found: Vec<String> = masf_testkit::corpus::entries()
        .into_keys()
        .filter(|name| name.starts_with(&want))
        .collect();
    let [file] = found.as_slice() else {
        panic!("expected exactly one recorded output {want}*, found {found:?}")
    };
    serde_json::from_str(&masf_testkit::corpus::text(file)).expect("json")
}

#[test]
fn ios_ileapp_address_book_rows_covered() {
    for case in ["belkasoft_ctf6_ios_device1", "mvs_ios_2023"] {
        let o = triage(
            &ileapp(&format!("testdata.addressBook.addressBook.{case}.zip")),
            "America/Chicago",
        );
        assert_all_accepted(&o);
        let exp = expected(&format!("addressBook.addressBook.{case}"));
        let headers: Vec<&str> = exp["headers"]
            .as_array()
            .expect("headers")
            .iter()
            .map(|h| h.as_str().expect("h"))
            .collect();
        let col = |n: &str| headers.iter().position(|h| *h == n);
        let cards = o.category("contacts");
        let mut missing = Vec::new();
        for row in exp["data"].as_array().expect("data") {
            let text = |n: &str| col(n).and_then(|i| row[i].as_str()).unwrap_or("");
            let time = |n: &str| col(n).and_then(|i| row[i].as_i64());
            let ok = cards.iter().any(|p| {
                let ts = times(p);
                (text("First Name").is_empty() || has(p, text("First Name")))
                    && (text("Last Name").is_empty() || has(p, text("Last Name")))
                    && text("Email addresses")
                        .split('\r')
                        .filter(|e| !e.is_empty())
                        .all(|e| has(p, e.split_once(": ").map_or(e, |(_, v)| v)))
                    && time("Creation Date")
                        .is_none_or(|t| ts.contains(&("Creation Time".into(), t)))
                    && time("Modification Date")
                        .is_none_or(|t| ts.contains(&("Contact modified".into(), t)))
            });
            if !ok {
                missing.push(row.clone());
            }
        }
        assert!(
            missing.is_empty(),
            "{case}: iLEAPP rows not covered: {missing:#?}"
        );
    }
}

#[test]
fn ios_ileapp_accounts_rows_covered() {
    for case in ["belkasoft_ctf6_ios_device1", "mvs_ios_2023"] {
        let zip = ileapp(&format!("testdata.accountData.accountData.{case}.zip"));
        let o = triage(&zip, "America/Chicago");
        assert_all_accepted(&o);
        // No upstream expected output: iLEAPP's query on the extracted database (with its WAL),
        // run by the sqlite3 CLI, is the oracle.
        let dir = tempfile::tempdir().expect("tempdir");
        let st = std::process::Command::new("unzip")
            .args(["-q", "-j"])
            .arg(&zip)
            .arg("-d")
            .arg(dir.path())
            .status()
            .expect("unzip");
        assert!(st.success() || st.code() == Some(1));
        let oracle = sqlite3_rows(&dir.path().join("Accounts3.sqlite"), ILEAPP_ACCOUNTS);
        assert!(!oracle.is_empty(), "{case}");
        check_accounts(&o, &oracle);
    }
}

#[test]
fn ios_ileapp_whatsapp_contacts_and_calls_rows_covered() {
    // Contacts (mvs: iLEAPP lists no rows; every row it lists must be ours).
    let o = triage(
        &ileapp("testdata.whatsApp.whatsAppContacts.mvs_ios_2023.zip"),
        "America/Chicago",
    );
    assert_all_accepted(&o);
    let exp = expected("whatsApp.whatsAppContacts.mvs_ios_2023");
    for row in exp["data"].as_array().expect("data") {
        let name = row[0].as_str().unwrap_or("");
        assert!(o.category("contacts").iter().any(|p| has(p, name)), "{row}");
    }
    // Calls (josh iOS 15): four calls with This Is DFIR Two.
    let o = triage(
        &ileapp("testdata.whatsApp.whatsAppCallHistory.josh_ios15_ffs.zip"),
        "America/New_York",
    );
    assert_all_accepted(&o);
    let exp = expected("whatsApp.whatsAppCallHistory.josh_ios15_ffs");
    let rows = exp["data"].as_array().expect("data");
    assert_eq!(rows.len(), 4);
    let calls = o.category("calls");
    let contacts = o.category("contacts");
    let mut missing = Vec::new();
    for r in rows {
        let (start, end) = (r[0].as_i64().expect("start"), r[1].as_i64().expect("end"));
        let jid = r[5].as_str().expect("jid");
        let call = calls.iter().any(|p| {
            let ts = times(p);
            ts.contains(&("Call started".into(), start))
                && ts.contains(&("Call ended".into(), end))
                && has(p, r[2].as_str().expect("duration"))
                && has(p, r[3].as_str().expect("direction"))
                && has(p, r[4].as_str().expect("cause"))
                && has(p, jid)
        });
        let contact = contacts.iter().any(|p| {
            has(p, jid)
                && has(p, r[6].as_str().expect("name"))
                && has(p, r[7].as_str().expect("phone"))
        });
        if !(call && contact) {
            missing.push(r.clone());
        }
    }
    assert!(
        missing.is_empty(),
        "iLEAPP WhatsApp call rows not covered: {missing:#?}"
    );
}

#[test]
fn ios_ileapp_device_name_and_commcenter() {
    let o = triage(
        &ileapp("testdata.deviceName.deviceName.belkasoft_ctf6_ios_device1.zip"),
        "America/Chicago",
    );
    assert_all_accepted(&o);
    // iLEAPP's own table is empty (it reports the name in its device summary): our reading of
    // data_ark.plist is the name itself.
    let exp = expected("deviceName.deviceName.belkasoft_ctf6_ios_device1");
    assert!(exp["data"].as_array().expect("data").is_empty());
    // The name is iOS's default device name ("iPhone"): a placeholder, no identity.
    assert_eq!(o.identities(), set(&[]));
    let dev = o.category("device");
    assert_eq!(dev.len(), 1);
    for v in ["iPhone", "America/Chicago", "DESKTOP-0CBP2ID", "16.3"] {
        assert!(has(dev[0], v), "{v}");
    }
    // CommCenter plists of the MVS 2023 image: number, ICCID and both IMEIs.
    let o = triage(
        &ileapp("testdata.celWireless.celWireless.mvs_ios_2023.zip"),
        "America/New_York",
    );
    assert_all_accepted(&o);
    assert_eq!(
        o.identities(),
        set(&[
            ("device", "iccid", "89014102270842269970"),
            ("device", "iccid", "89148000008588244776"),
            ("device", "imei", "359669602382763"),
            ("device", "imei", "359669602478579"),
            ("device", "imsi", "310410084226997"),
            ("device", "imsi", "311480808008955"),
            ("owner", "phone", "+14439877293"),
            ("owner", "phone", "+19802135560"),
        ])
    );
    // iLEAPP's celWireless rows for these keys carry the same values.
    let exp = expected("celWireless.celWireless.mvs_ios_2023");
    let dev: Vec<&Phenomenon> = o.category("device");
    for row in exp["data"].as_array().expect("data") {
        let key = row[0].as_str().unwrap_or("");
        if ["LastKnownICCID", "PhoneNumber"].contains(&key) {
            let v = row[1].as_str().expect("value");
            assert!(dev.iter().any(|p| has(p, v)), "{key} {v}");
        }
    }
    assert_eq!(o.identities().len(), 8);
}

#[test]
fn ios_row_cap_then_one_summary() {
    // the fixture's 2,003 messages topped up by the sqlite3 CLI to three past the row cap
    let cap = masf_plugins::ios::ROW_CAP;
    let tmp = tempfile::tempdir().unwrap();
    let st = std::process::Command::new("cp")
        .arg("-a")
        .arg(repo().join("tests/fixtures/ios/many/private"))
        .arg(tmp.path())
        .status()
        .unwrap();
    assert!(st.success());
    let out = std::process::Command::new("sqlite3")
        .arg(tmp.path().join("private/var/mobile/Library/SMS/sms.db"))
        .arg(format!(
            "WITH RECURSIVE n(i) AS (SELECT 2004 UNION ALL SELECT i + 1 FROM n WHERE i < {}) \
             INSERT INTO message (ROWID, guid, text, handle_id, service, account, date, is_from_me, is_finished) \
             SELECT i, printf('%08X-0000-4000-8000-%012d', i, i), 'bulk message ' || i, 1, 'SMS', \
             'p:+85290000000', 700000000000000000 + i * 1000000000, i % 2, 1 FROM n;",
            cap + 3
        ))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let o = triage(tmp.path(), "Asia/Hong_Kong");
    assert_all_accepted(&o);
    let msgs = o.category("messages");
    assert_eq!(msgs.len() as u64, cap + 1);
    let summary = msgs.last().expect("summary");
    assert_eq!(
        summary.title,
        "messages in /private/var/mobile/Library/SMS/sms.db (summary)"
    );
    assert!(has(summary, &(cap + 3).to_string()));
    let marks: Vec<(String, &str, &str)> = summary
        .times
        .iter()
        .map(|t| {
            (
                summary.verified_facts[t.fact].value.clone(),
                t.encoding.as_str(),
                t.description.as_str(),
            )
        })
        .collect();
    assert_eq!(
        marks,
        [
            (s("700000001000000000"), "apple_nanos", "First message"),
            (
                (700_000_000_000_000_000 + (cap + 3) * 1_000_000_000).to_string(),
                "apple_nanos",
                "Last message"
            ),
        ]
    );
    assert!(
        summary
            .interpretation
            .contains(&format!("the first {cap} are recorded one by one"))
    );
    assert!(
        !msgs
            .iter()
            .any(|p| has(p, &format!("bulk message {}", cap + 1)))
    );
    assert!(msgs.iter().any(|p| has(p, &format!("bulk message {cap}"))));
}

fn s(v: &str) -> String {
    v.to_string()
}

#[test]
fn ios_detection_catalogue_and_coverage_through_the_runtime() {
    use masf_agents::{Plugin, triage_all};
    use masf_graph::views::{InvocationSummary, source_coverage};
    use masf_plugins::ios::{Ios, categorise};
    use std::sync::Arc;

    let dir = tempfile::tempdir().expect("tempdir");
    let plugins = masf_plugins::all();
    let session = masf_agents::Session::open(
        dir.path(),
        masf_graph::Scoring::default(),
        masf_tools::Invoker::new(Arc::new(plugins.catalog()), masf_tools::Limits::default()),
        vec![
            masf_agents::SourceInfo {
                id: "src-iphone".into(),
                label: "iPhone".into(),
                path: repo().join("tests/fixtures/demo/evidence/iphone_ffs.zip"),
                owner: None,
                timezone: "Asia/Hong_Kong".into(),
                region: None,
                password_env: None,
            },
            masf_agents::SourceInfo {
                id: "src-backup".into(),
                label: "iTunes backup".into(),
                path: repo().join("tests/fixtures/itunes/backup/00008030-001A2B3C4D5E802E"),
                owner: None,
                timezone: "Asia/Hong_Kong".into(),
                region: None,
                password_env: None,
            },
            masf_agents::SourceInfo {
                id: "src-screens".into(),
                label: "screens".into(),
                path: repo().join("tests/fixtures/demo/evidence/screenshots"),
                owner: None,
                timezone: "Asia/Hong_Kong".into(),
                region: None,
                password_env: None,
            },
        ],
        Arc::new(|| jiff::Timestamp::from_second(1_764_000_000).expect("time")),
    )
    .expect("session");
    let reports = triage_all(&session, &plugins, 2).expect("triage");
    let by = |id: &str| reports.iter().find(|r| r.source_id == id).expect("report");
    let iphone = by("src-iphone");
    assert_eq!(iphone.plugin.as_deref(), Some("ios"));
    assert_eq!(iphone.agent.as_deref(), Some("ios-triage"));
    assert_eq!(iphone.reasons[0], "evidence sniffed as ios_extraction");
    assert_eq!(iphone.tally.rejections, 0);
    assert!(iphone.tally.phenomena >= 37, "{:?}", iphone.tally);
    let backup = by("src-backup");
    assert_eq!(backup.plugin.as_deref(), Some("ios"), "{backup:?}");
    assert_eq!(backup.reasons[0], "evidence sniffed as itunes_backup");
    assert_eq!(backup.tally.rejections, 0);
    assert_eq!(by("src-screens").plugin.as_deref(), Some("media"));

    // The catalogue's detectors match the calls the agent made on the demo iPhone.
    let store = masf_store::Store::open(dir.path()).expect("store");
    let invs: Vec<InvocationSummary> = store
        .invocations_for("ios-triage", "triage/src-iphone")
        .expect("invocations")
        .into_iter()
        .map(|r| InvocationSummary {
            id: r.invocation_id,
            source_id: r.source_id,
            tool: r.tool,
            args: r.args,
        })
        .collect();
    let cov = source_coverage("src-iphone", &Ios.expected_artefacts(), &invs);
    let examined: Vec<(&str, bool)> = cov
        .items
        .iter()
        .map(|i| (i.name.as_str(), i.examined))
        .collect();
    assert_eq!(
        examined,
        [
            ("sms.db", true),
            ("AddressBook.sqlitedb", true),
            ("Accounts3.sqlite", true),
            ("CallHistory.storedata", false),
            ("WhatsApp ChatStorage.sqlite", false),
            ("WhatsApp ContactsV2.sqlite", false),
            ("WhatsApp CallHistory.sqlite", false),
            ("NoteStore.sqlite", false),
            ("Wi-Fi known networks", false),
            ("Wi-Fi private addresses", false),
            ("DHCP leases", false),
            ("Bluetooth devices", false),
            ("iTunesPrefs", false),
            ("lsdidentifiers plist", false),
            ("URL cache Cache.db", false),
            ("storeSystem.db", false),
            ("applicationState.db", false),
            ("Lockdown data_ark.plist", true),
            ("CommCenter plists", true),
            ("SystemVersion.plist", true),
            ("Lockdown pair_records", false),
            ("iTunes backup Info.plist", false),
            ("keychain export", false),
            ("Google Voice threadingStore.sqlite", false),
            ("Kik kik.sqlite", false),
            ("Mastodon shared.sqlite", false),
            ("Truth Social ChatModel.sqlite", false),
            ("MeWe sgrouplesdb.sqlite", false),
            ("Chromium-family History and Bookmarks", false),
            ("Firefox places.db", false),
            ("OneDrive QTMetadata.db", false),
            ("MetaMask Mobile persistStore", false),
            ("Wi-Fi location cache ThreeBars.sqlite", false),
            ("locationd caches", false),
            ("Snapchat arroyo.db", false),
            ("Slack ModelDatabase and main_db", false),
            ("Microsoft Teams Skype*.sqlite", false),
            ("Discord kv-storage and URL cache", false),
            ("Threema ThreemaData.sqlite", false),
            ("Google Chat dynamite.db", false),
            ("Tinder Tinder2.sqlite", false),
            ("Bumble Chat.sqlite and yap-database.sqlite", false),
            ("Burner Phoenix.sqlite", false),
            ("LinkedIn preferences and msg_database.sqlite", false),
            ("Kijiji conversation_cache", false),
            ("Text Free Messaging_*.sqlite", false),
            ("Wire store.wiredatabase", false),
            ("Apple Wallet passes and transactions", false),
            ("Zangi zangidb.sqlite", false),
            ("TeleGuard teleguard_database.db", false),
            ("Proton Mail account.db and mail caches", false),
            ("Find My Items.data", false),
            ("Reddit chat and user stores", false),
            ("BeReal caches, preferences and chats", false),
            ("Zalo profile, group and chat stores", false),
            ("Telegram Postbox db_sqlite", false),
            ("ChatGPT conversations and account", false),
            ("Claude cache and account", false),
            ("Cash App CCEntitySync", false),
            ("Venmo feeds", false),
            ("React Native AsyncStorage", false),
            ("CoreDuet interactionC.db", false),
            ("Facebook Messenger lightspeed store", false),
            ("Coinbase Wallet wallet-rn-v2.sqlite", false),
            ("wallet apps' data", false),
            ("Twitter direct-message cache", false),
            ("X model cache modelCache.sqlite3", false),
            ("Gmail searchsqlitedb", false),
            ("Safari History.db", false),
            ("Safari tabs and iCloud Tabs", false),
            ("Safari Downloads.plist", false),
            ("Safari Bookmarks.db", false),
            ("keyboard lexicon and statistics", false),
            ("voicemail.db", false),
            ("Clubhouse preferences", false),
            ("GroupMe preferences", false),
            ("GroupMe GroupMe.sqlite", false),
            ("Photos.sqlite", false),
            ("Calendar.sqlitedb", false),
            ("Reminders stores", false),
            ("Mail Envelope Index", false),
            ("Apple Mail messages (.emlx)", false),
            ("KnowledgeC knowledgeC.db", false),
            ("Biome streams", false),
            ("Biome databases", false),
            ("Biome sets", false),
            ("routined locations", false),
            ("Apple Maps history MapsSync_0.0.1", false),
            ("camera-roll screenshots", false),
            ("app snapshots", false),
            ("Control Center configuration", false),
            ("app cookies", false),
            ("Google image-fetcher cacheV0.db", false),
            ("identity-services lookups", false),
            ("network data usage", false),
            ("Screen Time", false),
            ("imo IMODb2.sqlite", false),
            ("Instagram direct messages", false),
            ("TikTok messages", false),
            ("Viber account and contacts", false),
            ("App Privacy Report", false),
            ("iCloud backup and CarPlay preferences", false),
            ("iCloud backup CloudKit cache", false),
            ("Apple Account devices", false),
            ("SIM card history", false),
            ("AirDrop settings", false),
            ("Medical ID", false),
            ("iCloud Shared Albums", false),
            ("Notifications", false),
            ("App permissions TCC.db", false),
            ("iCloud Drive (Files app)", false),
            ("Voice Memos", false),
            ("installation logs", false),
            ("lockdownd log", false),
            ("activation log", false),
            ("wipe indicators", false),
            ("Safari recent searches", false),
            ("home screen web clips", false),
            ("Waze user.db", false),
            ("Apple Health", false),
            ("PowerLog", false),
            ("WeChat MM.sqlite", false),
            ("LINE Line.sqlite", false),
            ("Signal signal.sqlite", false),
            ("Session Session.sqlite", false),
            ("iCloud-synced Wi-Fi", false),
            ("Apple Maps preferences", false),
            ("locationd car connection", false),
            ("CoreAccessories analytics", false),
            ("Clock alarms and world clock", false),
            ("shutdown log", false),
            ("software update restore log", false),
            ("Quick Look iCloud thumbnails", false),
            ("keyboard query predictions", false),
            ("Siri voice trigger enrolment", false),
            ("DuckDuckGo History.sqlite", false),
            ("Ookla Speedtest", false),
            ("BitTorrent files", false),
            ("FIT activity files", false),
            ("Tile TileNetworkDB.sqlite", false),
            ("apps' iTunesMetadata.plist", false),
            ("Safari favicons", false),
            ("Google Translate translate.db", false),
            ("Splitwise database.sqlite", false),
            ("Messages retention setting", false),
            ("Messages drafts", false),
            ("Weather app locations", false),
            ("PayByPhone PayByPhone.sqlite", false),
            ("Vipps Vipps.sqlite", false),
            ("TWINT Twint.sqlite", false),
            ("Wickr wickrLocal.sqlite", false),
            ("Apple Maps place cache PDPlaceCache.db", false),
            ("geod app use AP.db", false),
            ("Apple Maps tile cache MapTiles.sqlitedb", false),
            ("Apple Wallet cached cards", false),
            ("Google Maps cached routes", false),
            ("Airbnb messaging_core.sqlite3", false),
            ("Google Photos photos-*.db", false),
            ("Google Drive cello.db", false),
            ("Potato Chat tgdata.db", false),
            ("AppConduit log", false),
            ("Oura preferences", false),
            ("SBB Mobile searches and EasyRide log", false),
            ("MeteoSwiss favorites_prediction_db.sqlite", false),
            ("Home Depot preferences and userInfo.txt", false),
            ("United Airlines UnitediPhoneCoreData.sqlite", false),
            ("Dubox chat and cloud listings", false),
            ("Kik attachment metadata", false),
            ("DriveIQ segments", false),
            ("Wi-Fi analytics geotags", false),
            ("Network interfaces", false),
            ("Location Services clients", false),
            ("Foursquare Swarm foursquare.sqlite", false),
            ("Apple Podcasts MTLibrary.sqlite", false),
            ("Siri Remembers siriremembers.sqlite3", false),
            ("Spotlight engaged completions Cache.db", false),
            ("NS Vault FolderLockAdvanced.sqlite and hidden media", false),
            ("RongCloud IM storage (Oops and other apps)", false),
            ("Uber places, account and analytics log", false),
            ("Onion Browser bookmarks and HSTS cache", false),
            ("Personalization Portrait PPSQLDatabase.db", false),
            ("App Store storeUser.db and AMDSQLite.db.0", false),
            ("TikTok replies and search history", false),
            ("Container owners (MobileContainerManager metadata)", false),
            ("CacheDelete purge history", false),
            ("containermanagerd logs", false),
            ("App Store and Date & Time time zone preferences", false),
            ("Google Docs and Sheets document stores", false),
            ("Box files, recents and comments", false),
            ("Music library MediaLibrary.sqlitedb", false),
            ("software update installHistory.db", false),
            ("Fitbit fitbit.sqlite", false),
            ("CoreDuet DuetExpertCenter streams", false),
            ("Apple Maps search history GeoHistory.mapsdata", false),
            ("Wi-Fi network store WiFiNetworkStoreModel.sqlite", false),
            ("System configuration preferences", false),
            ("Personal Hotspot DHCP leases", false),
            ("DuetExpertCenter notificationAndSuggestionDB.db", false),
            ("ash shell history", false),
            ("Battery Data Collection BDC_SBC", false),
            ("Apple Intelligence Report export", false),
            ("Tile DiscoveredTileDB.sqlite", false),
            ("DMSS Devices.sqlite3 and DMSSCloud.sqlite", false),
            ("Hik-Connect database.hik and YSDCLogItem.sqlite", false),
            ("Google Duo / Meet DataStore", false),
            ("Life360 logs and Messaging.sqlite", false),
            ("Pinterest account, messages and preferences", false),
            (
                "Kleinanzeigen preferences, conversation_cache and last search",
                false
            ),
            ("Netflix gqlData GraphQL cache and preferences", false),
            ("FSEvents logs (.fseventsd)", false),
            ("Photos.sqlite sharing", false),
            ("Photos people and faces", false),
            ("Photos albums", false),
            ("Kik groups, account holder and pending uploads", false),
            ("Uber storagev2 LevelDB", false),
            ("Spotlight index text cache", false),
            ("Privacy accounting streams", false),
            ("CoreDuet contacts autocomplete feedback", false),
            ("myAudi trip cache", false),
            ("Lidl Plus tickets and receipts", false),
            ("Google Maps semantic location history", false),
            ("CommCenter SIM data", false),
            ("Photos library migrations", false),
            ("Photos and Camera plists, UFED device values", false),
            ("Photos resources and analysis", false),
            ("Health workout routes", false),
            ("Group call participants", false),
            (
                "WhatsApp reactions, group events and membership changes",
                false
            ),
            ("OrNET Browser preferences", false),
            ("saved web pages (MHTML)", false),
            ("Withings Health Mate account and coredata stores", false),
            ("AllTrails AllTrails.sqlite", false),
            (
                "Amazon Shopping preferences, profiles, URL cache and image registry",
                false
            ),
        ]
    );
    for (path, cat) in [
        (
            "/private/var/mobile/Library/SMS/sms.db-wal",
            Some("messages"),
        ),
        (
            "/private/var/mobile/Library/AddressBook/AddressBook.sqlitedb",
            Some("contacts"),
        ),
        (
            "/private/var/mobile/Library/UserNotifications/A9469C54-06AD-43C7-B993-F57E72897865/DeliveredNotifications.plist",
            Some("notifications"),
        ),
        (
            "/private/var/mobile/Library/UserNotifications/Library.plist",
            Some("notifications"),
        ),
        ("/private/var/mobile/Library/Foo/Library.plist", None),
        ("/private/var/mobile/Library/TCC/TCC.db", Some("apps")),
        (
            "/private/var/mobile/Library/Health/healthdb_secure.sqlite-wal",
            Some("health"),
        ),
        (
            "/private/var/mobile/Containers/Data/Application/X/healthdb.sqlite",
            None,
        ),
        (
            "/private/var/containers/Shared/SystemGroup/X/Library/BatteryLife/Archives/powerlog_2024-01-01.PLSQL.gz",
            Some("app_usage"),
        ),
        ("/private/var/logs/lockdownd.log.1", Some("device")),
        (
            "/private/var/mobile/Library/Logs/mobileactivationd/mobileactivationd.log.0",
            Some("device"),
        ),
        (
            "/private/var/mobile/Library/Application Support/CloudDocs/session/db/client.db",
            Some("files"),
        ),
        (
            "/private/var/mobile/Containers/Data/Application/X/client.db",
            None,
        ),
        (
            "/private/var/mobile/Library/Accounts/Accounts3.sqlite",
            Some("accounts"),
        ),
        (
            "/private/var/mobile/Library/CallHistoryDB/CallHistory.storedata",
            Some("calls"),
        ),
        (
            "/private/var/wireless/Library/Preferences/com.apple.commcenter.plist",
            Some("device"),
        ),
        (
            "/private/var/Keychains/keychain-export.plist",
            Some("credentials"),
        ),
        (
            "/private/var/mobile/Library/SMS/Attachments/4f/15/X/IMG_0457.PNG",
            Some("attachments"),
        ),
        (
            "/private/var/mobile/Media/DCIM/100APPLE/IMG_0001.HEIC",
            None,
        ),
        (
            "/private/var/mobile/Library/Keyboard/AutocorrectionRejections.db",
            Some("keyboard"),
        ),
        (
            "/private/var/mobile/Library/Keyboard/app_usage_database.plist",
            Some("keyboard"),
        ),
    ] {
        assert_eq!(categorise(path), cat, "{path}");
    }
}

#[test]
fn ios_ileapp_whatsapp_messages_rows_covered() {
    let o = triage(
        &ileapp("testdata.whatsApp.whatsAppMessages.josh_ios15_ffs.zip"),
        "America/New_York",
    );
    assert_all_accepted(&o);
    let exp = expected("whatsApp.whatsAppMessages.josh_ios15_ffs");
    let rows = exp["data"].as_array().expect("data");
    assert_eq!(rows.len(), 32);
    // four of them are locations, with their latitude and longitude
    assert_eq!(rows.iter().filter(|r| r[11].as_f64().is_some()).count(), 4);
    let msgs = o.category("messages");
    let escape = |s: &str| {
        s.replace('\\', "\\\\")
            .replace('\t', "\\t")
            .replace('\n', "\\n")
            .replace('\r', "\\r")
    };
    let mut missing = Vec::new();
    for r in rows {
        let time = r[0].as_i64().expect("time");
        let from_me = r[1] == "Local User";
        let ok = msgs.iter().any(|p| {
            let ts = times(p);
            let desc = if from_me {
                "Message sent"
            } else {
                "Message received"
            };
            ts.contains(&(desc.to_string(), time))
                && [2usize, 4]
                    .iter()
                    .all(|&i| r[i].as_str().is_none_or(|v| v.is_empty() || has(p, v)))
                && r[5].as_str().is_none_or(|m| has(p, &escape(m)))
                // latitude and longitude of a location message, as numbers (iLEAPP prints
                // Python's repr of the double, the CLI 15 significant digits)
                && [11usize, 12].iter().all(|&i| {
                    r[i].as_f64().is_none_or(|want| {
                        p.verified_facts.iter().any(|f| {
                            f.value
                                .parse::<f64>()
                                .is_ok_and(|got| (got - want).abs() < 1e-9)
                        })
                    })
                })
        });
        if !ok {
            missing.push(r.clone());
        }
    }
    assert!(
        missing.is_empty(),
        "iLEAPP WhatsApp message rows not covered: {missing:#?}"
    );
}

/// WhatsApp groups and the user's own account on the public iOS 15 store: four groups with
/// their subjects, creators and members (values as the sqlite3 CLI reads them:
/// `ZWAGROUPINFO` ⋈ `ZWACHATSESSION`, `ZWAGROUPMEMBER`), and the one address received messages
/// were delivered to as the device user's JID.
#[test]
fn ios_whatsapp_groups_and_account_on_a_public_store() {
    let o = triage(
        &ileapp("testdata.whatsApp.whatsAppMessages.josh_ios15_ffs.zip"),
        "America/New_York",
    );
    assert_all_accepted(&o);
    let mut groups: Vec<&str> = o
        .findings()
        .into_iter()
        // (the group events — subject changes, joins, leaves — are `ios::whatsappextended`'s)
        .filter(|p| {
            p.title.starts_with("WhatsApp group ") && !p.title.starts_with("WhatsApp group event ")
        })
        .map(|p| p.title.as_str())
        .collect();
    groups.sort();
    assert_eq!(
        groups,
        [
            "WhatsApp group Med Report 2 (120363043672417929@g.us)",
            "WhatsApp group Med Report Review (120363044520422953@g.us)",
            "WhatsApp group Our Test Group (120363023356659014@g.us)",
            "WhatsApp group Working Group (120363024323946819@g.us)",
        ]
    );
    let review = o
        .findings()
        .into_iter()
        .find(|p| p.title.starts_with("WhatsApp group Med Report Review"))
        .unwrap();
    for v in [
        "120363044520422953@g.us",
        "19195794674@s.whatsapp.net",
        "205690463334636@lid",
        "676082810",
        "679237904",
    ] {
        assert!(has(review, v), "{v}");
    }
    assert!(
        review
            .interpretation
            .contains("created by 19195794674@s.whatsapp.net")
            && review.interpretation.contains(
                "members: 19195794674@s.whatsapp.net, admin; 205690463334636@lid, not active"
            ),
        "{}",
        review.interpretation
    );
    let account = o
        .findings()
        .into_iter()
        .find(|p| p.title == "WhatsApp account 19195794674@s.whatsapp.net")
        .expect("account");
    assert!(has(account, "11"), "{:?}", account.interpretation);
    // the JID names a phone: the owner's number
    let ids = o.identities();
    assert!(
        ids.iter()
            .any(|(c, t, v)| c == "owner" && t == "phone" && v == "+19195794674"),
        "{ids:#?}"
    );
}

/// A second iPhone's WhatsApp store, built with the sqlite3 CLI in the public store's Core
/// Data layout (the columns of `ZWAGROUPINFO`, `ZWAGROUPMEMBER`, and those of `ZWAMESSAGE` and
/// `ZWACHATSESSION` the reader needs): a received group message names its writer through
/// `ZGROUPMEMBER`; the group's members with their names; the account from `ZTOJID`; and a copy
/// whose `ZWAGROUPINFO` lacks `ZCHATSESSION` is noted.
#[test]
fn ios_whatsapp_group_writer_members_and_a_foreign_schema() {
    let tmp = tempfile::tempdir().unwrap();
    let db = tmp
        .path()
        .join("private/var/mobile/Containers/Shared/AppGroup/5B1C2D3E-4F5A-4B6C-8D7E-9F0A1B2C3D4E/ChatStorage.sqlite");
    std::fs::create_dir_all(db.parent().unwrap()).unwrap();
    std::fs::create_dir_all(tmp.path().join("private/var/mobile/Library")).unwrap();
    std::fs::create_dir_all(tmp.path().join("private/var/mobile/Media")).unwrap();
    crate::ios_nearby::sqlite3(
        &db,
        "CREATE TABLE ZWACHATSESSION (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZSESSIONTYPE INTEGER, ZGROUPINFO INTEGER, ZLASTMESSAGEDATE TIMESTAMP, ZCONTACTJID VARCHAR, ZPARTNERNAME VARCHAR);
CREATE TABLE ZWAMESSAGE (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZISFROMME INTEGER, ZMESSAGETYPE INTEGER, ZCHATSESSION INTEGER, ZGROUPMEMBER INTEGER, ZMEDIAITEM INTEGER, ZMESSAGEDATE TIMESTAMP, ZSENTDATE TIMESTAMP, ZFROMJID VARCHAR, ZPUSHNAME VARCHAR, ZSTANZAID VARCHAR, ZTEXT VARCHAR, ZTOJID VARCHAR);
CREATE TABLE ZWAMEDIAITEM (Z_PK INTEGER PRIMARY KEY, ZMESSAGE INTEGER, ZMEDIALOCALPATH VARCHAR);
CREATE TABLE ZWAGROUPINFO (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZSTATE INTEGER, ZCHATSESSION INTEGER, ZLASTMESSAGEOWNER INTEGER, ZCREATIONDATE TIMESTAMP, ZSUBJECTTIMESTAMP TIMESTAMP, ZCREATORJID VARCHAR, ZOWNERJID VARCHAR, ZPICTUREID VARCHAR, ZPICTUREPATH VARCHAR, ZSOURCEJID VARCHAR, ZSUBJECTOWNERJID VARCHAR);
CREATE TABLE ZWAGROUPMEMBER (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCONTACTABID INTEGER, ZISACTIVE INTEGER, ZISADMIN INTEGER, ZSENDERKEYSENT INTEGER, ZCHATSESSION INTEGER, ZRECENTGROUPCHAT INTEGER, ZCONTACTIDENTIFIER VARCHAR, ZCONTACTNAME VARCHAR, ZFIRSTNAME VARCHAR, ZMEMBERJID VARCHAR);
INSERT INTO ZWACHATSESSION VALUES (1, 4, 1, 1, 1, 736000000, '120363099988877766@g.us', 'Shipping');
INSERT INTO ZWAGROUPINFO VALUES (1, 5, 1, 0, 1, NULL, 735000000, 735000100, '447700900123@s.whatsapp.net', NULL, NULL, NULL, NULL, '447700900123@s.whatsapp.net');
INSERT INTO ZWAGROUPMEMBER VALUES (1, 6, 1, 0, 1, 1, 0, 1, NULL, NULL, 'Kim Lee', 'Kim', '447700900123@s.whatsapp.net'),
  (2, 6, 1, 0, 1, 0, 0, 1, NULL, NULL, NULL, NULL, '447700900456@s.whatsapp.net');
INSERT INTO ZWAMESSAGE VALUES (1, 9, 1, 0, 0, 1, 1, NULL, 736000000, 735999990, '120363099988877766@g.us', NULL, 'A1', 'the container leaves Friday', '447700900999@s.whatsapp.net'),
  (2, 9, 1, 1, 0, 1, NULL, NULL, 736000100, 736000100, NULL, NULL, 'A2', 'noted', '120363099988877766@g.us');",
    );
    let o = triage(tmp.path(), "Europe/London");
    assert_all_accepted(&o);
    let m = o
        .findings()
        .into_iter()
        .find(|p| p.title == "WhatsApp message 1 received from Shipping (written by 447700900123@s.whatsapp.net)")
        .expect("group message");
    assert!(has(m, "447700900123@s.whatsapp.net"));
    let g = o
        .findings()
        .into_iter()
        .find(|p| p.title == "WhatsApp group Shipping (120363099988877766@g.us)")
        .expect("group");
    for v in [
        "Kim Lee",
        "Kim",
        "447700900456@s.whatsapp.net",
        "735000000",
        "735000100",
    ] {
        assert!(has(g, v), "{v}");
    }
    assert!(
        g.interpretation
            .contains("447700900123@s.whatsapp.net (Kim Lee), admin; 447700900456@s.whatsapp.net")
    );
    let ids = o.identities();
    for (c, t, v) in [
        ("owner", "phone", "+447700900999"),
        (
            "handle:447700900123@s.whatsapp.net",
            "display_name",
            "kim lee",
        ),
        (
            "handle:447700900456@s.whatsapp.net",
            "phone",
            "+447700900456",
        ),
    ] {
        assert!(
            ids.iter()
                .any(|(a, b, x)| a == c && b == t && x.eq_ignore_ascii_case(v)),
            "{c} {t} {v}: {ids:#?}"
        );
    }
    // a store whose ZWAGROUPINFO lacks ZCHATSESSION: noted, the messages still read
    crate::ios_nearby::sqlite3(&db, "ALTER TABLE ZWAGROUPINFO DROP COLUMN ZCHATSESSION;");
    let o = triage(tmp.path(), "Europe/London");
    assert_all_accepted(&o);
    o.assert_noted("ChatStorage.sqlite", "ZCHATSESSION");
    assert!(
        o.findings()
            .iter()
            .any(|p| p.title.starts_with("WhatsApp message 2 sent to Shipping"))
    );
}

#[test]
fn ios_detection_of_full_and_partial_trees() {
    let plugins = masf_plugins::all();
    let detect = |p: std::path::PathBuf| {
        let ctx = masf_tools::SourceCtx::open("src-x", &p).expect("scan");
        (
            plugins.typing(&ctx.scan).evidence_type,
            plugins
                .detection("ios", &ctx)
                .map(|d| (d.score, d.reasons[0].clone())),
        )
    };
    assert_eq!(
        detect(repo().join("tests/fixtures/demo/evidence/iphone_ffs.zip")),
        (
            s("ios_extraction"),
            Some((100, s("evidence sniffed as ios_extraction")))
        )
    );
    // iLEAPP's partial zip (`filesystem2/mobile/…`) is an archive to the evidence layer.
    assert_eq!(
        detect(ileapp(
            "testdata.whatsApp.whatsAppCallHistory.josh_ios15_ffs.zip"
        )),
        (
            s("archive"),
            Some((
                60,
                s(
                    "archive whose tree holds /filesystem2/mobile with Containers (the iOS user data directory)"
                )
            ))
        )
    );
    assert_eq!(
        detect(repo().join("tests/fixtures/demo/evidence/screenshots")).1,
        None
    );
    assert_eq!(detect(public("archive/dfvfs-mixed_paths.zip")).1, None);
}

#[test]
fn ios_rerun_reads_cached_outputs_and_adds_nothing() {
    use masf_agents::{AgentCtx, Plugin};
    use masf_plugins::ios::Ios;
    let o = triage(&repo().join("tests/fixtures/ios/ffs"), "Europe/London");
    let before = o.session.state().expect("state").phenomena().clone();
    // The same task again: every call is answered from the log (text only), every request is
    // a duplicate of one already recorded.
    let ctx = AgentCtx::new(&o.session, "ios-triage", "triage/src-ios", "src-ios").expect("ctx");
    Ios.triage(&ctx).expect("triage again");
    let tally = ctx.tally();
    assert_eq!(tally.phenomena, 0, "{tally:?}");
    assert_eq!(tally.rejections, 0, "{tally:?}");
    assert_eq!(tally.duplicates, o.tally.phenomena, "{tally:?}");
    assert_eq!(o.session.state().expect("state").phenomena(), &before);
}

/// Wallet addresses in messages are claims of the side the words before them name (issue 16,
/// part 4): plaso's public sms.db with three message texts rewritten by the sqlite3 CLI.
#[test]
fn ios_wallets_in_messages_are_claimed_by_the_side_the_text_names() {
    const BTC: &str = "bc1q7067uww8q52athgrmrdeshcd7cj5x9yfapwezn";
    const ETH: &str = "0x1850ce0e73407a9997c467babc60fe887c567625";
    let dir = tempfile::tempdir().expect("tempdir");
    plaso_tree(dir.path());
    let db = dir.path().join("private/var/mobile/Library/SMS/sms.db");
    // ROWID 8 came from the e-mail handle, 9 went to it, 5 went to the number (is_from_me in
    // the public data; checked below so a different copy fails loudly).
    let before = sqlite3_rows(
        &db,
        "SELECT m.ROWID, m.is_from_me, h.id FROM message m JOIN handle h ON h.ROWID = m.handle_id WHERE m.ROWID IN (5, 8, 9) ORDER BY m.ROWID",
    );
    assert_eq!(
        before,
        [
            vec!["5", "1", "447775455555"],
            vec!["8", "0", "xxxxxx2015@icloud.com"],
            vec!["9", "1", "xxxxxx2015@icloud.com"],
        ]
    );
    sqlite3_rows(
        &db,
        &format!(
            "UPDATE message SET text = 'my BTC address is {BTC} thx' WHERE ROWID = 8; \
             UPDATE message SET text = 'Sent 0.01 BTC to {BTC} just now' WHERE ROWID = 9; \
             UPDATE message SET text = 'Send the USB money to my wallet {ETH}' WHERE ROWID = 5;"
        ),
    );
    let o = triage(dir.path(), "America/New_York");
    assert_all_accepted(&o);
    let ids = o.identities();
    let handle = "handle:xxxxxx2015@icloud.com";
    // "my BTC address" from the handle, and "Sent … to" it from the device: both the handle's.
    assert!(
        ids.contains(&(handle.into(), "wallet".into(), BTC.into())),
        "{ids:#?}"
    );
    // "my wallet" written by the device's user: the owner's; the owner never claims the BTC.
    assert!(
        ids.contains(&("owner".into(), "wallet".into(), ETH.into())),
        "{ids:#?}"
    );
    assert!(
        !ids.contains(&("owner".into(), "wallet".into(), BTC.into())),
        "{ids:#?}"
    );
    for w in [BTC, ETH] {
        assert!(
            ids.contains(&(format!("wallet:{w}"), "wallet".into(), w.into())),
            "{ids:#?}"
        );
    }
    // The claims carry their cue words into the graph (a cued claim weighs twice a bare one).
    let cue_of = |context: &str, address: &str| {
        o.entities
            .iter()
            .find(|e| e.context == context)
            .and_then(|e| e.identifiers.iter().find(|i| i.normalized == address))
            .and_then(|i| i.cue.clone())
    };
    assert_eq!(cue_of(handle, BTC).as_deref(), Some("my"));
    assert_eq!(cue_of("owner", ETH).as_deref(), Some("my"));
    assert_eq!(cue_of(&format!("wallet:{BTC}"), BTC), None);
    // The claim's interpretation quotes its cue word.
    let claim = o
        .phenomena
        .iter()
        .find(|p| {
            p.category == "identity"
                && p.interpretation.contains("is written in")
                && p.interpretation.contains("ROWID 8")
        })
        .expect("the claim of ROWID 8");
    assert!(
        claim.interpretation.contains("the word \"my\""),
        "{}",
        claim.interpretation
    );
}

/// Issue 19 part 5: a full-file-system extraction that arrives as an HFS+ volume is read as the
/// same tree zipped. The volume is made by a real tool (xorriso's `-hfsplus`, as in
/// `tests/fixtures/hfs/generate.sh`) from the demo iPhone's extracted tree, and cut out of the
/// image at the Apple_HFS partition that `mmls -t mac` lists (to the end of the image, where
/// xorriso keeps the file data, as `fls -o` reads it).
#[test]
fn an_extraction_in_an_hfs_plus_volume_reads_as_the_same_tree_zipped() {
    use std::process::Command;
    let zip = repo().join("tests/fixtures/demo/evidence/iphone_ffs.zip");
    let tmp = tempfile::tempdir().expect("tempdir");
    let src = tmp.path().join("src");
    let ok = |cmd: &mut Command| {
        let out = cmd.output().expect("tool runs");
        assert!(
            out.status.success(),
            "{cmd:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        out.stdout
    };
    ok(Command::new("unzip")
        .arg("-q")
        .arg(&zip)
        .arg("-d")
        .arg(&src));
    let iso = tmp.path().join("ffs.iso");
    ok(Command::new("xorriso")
        .args(["-as", "mkisofs", "-hfsplus", "-V", "IPHONE", "-o"])
        .arg(&iso)
        .arg(&src));
    let mmls = String::from_utf8(ok(Command::new("mmls").args(["-t", "mac"]).arg(&iso))).unwrap();
    let start: u64 = mmls
        .lines()
        .find(|l| l.ends_with("Apple_HFS"))
        .and_then(|l| l.split_whitespace().nth(2))
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no Apple_HFS partition in:\n{mmls}"));
    let image = std::fs::read(&iso).unwrap();
    let volume = tmp.path().join("ffs.hfs");
    std::fs::write(&volume, &image[usize::try_from(start * 512).unwrap()..]).unwrap();

    let summary = |o: &Outcome| -> BTreeSet<(String, String, Vec<String>)> {
        o.phenomena
            .iter()
            .map(|p| {
                let mut facts: Vec<String> = p
                    .verified_facts
                    .iter()
                    .map(|f| format!("{:?}={}", f.fact_type, f.value))
                    .collect();
                facts.sort();
                (p.category.clone(), p.title.clone(), facts)
            })
            .collect()
    };
    let from_zip = triage(&zip, "Asia/Hong_Kong");
    let from_hfs = triage(&volume, "Asia/Hong_Kong");
    assert_all_accepted(&from_hfs);
    let (want, got) = (summary(&from_zip), summary(&from_hfs));
    assert!(want.len() >= 30, "{}", want.len());
    let missing: Vec<_> = want.difference(&got).collect();
    let extra: Vec<_> = got.difference(&want).collect();
    assert!(
        missing.is_empty() && extra.is_empty(),
        "missing from the HFS+ volume: {missing:#?}\nonly in the HFS+ volume: {extra:#?}"
    );
    assert_eq!(from_hfs.identities(), from_zip.identities());
}

/// An iTunes/Finder backup's own `Info.plist` and `Manifest.plist` (listed under `/.backup/` by
/// the evidence layer; the fixture is written by `tests/fixtures/itunes/generate.sh` with
/// Python's plistlib as iTunes lays them out): the phone's IMEI, serial, number and name as it
/// gave them to the computer, and its UDID, model and iOS version as facts.
#[test]
fn an_itunes_backup_names_its_phone_in_info_plist() {
    let o = triage(
        &repo().join("tests/fixtures/itunes/backup/00008030-001A2B3C4D5E802E"),
        "Asia/Hong_Kong",
    );
    assert_all_accepted(&o);
    let ids = o.identities();
    for (c, t, v) in [
        ("device", "imei", "356938035643809"),
        ("device", "serial", "F2LXK0AAAAAA"),
        ("device", "device_name", "leung's iphone"),
        ("owner", "phone", "+85255550101"),
        ("device", "udid", "00008030-001A2B3C4D5E802E"),
    ] {
        assert!(
            ids.contains(&(c.to_string(), t.to_string(), v.to_string())),
            "{c} {t} {v} not in {ids:#?}"
        );
    }
    let info = o
        .findings()
        .into_iter()
        .find(|p| p.title == "Device identity in /.backup/Info.plist")
        .expect("Info.plist read");
    for fact in [
        "00008030-001A2B3C4D5E802E",
        "iPhone12,1",
        "17.5",
        "21F79",
        "356938035643809",
    ] {
        assert!(has(info, fact), "{fact}: {:#?}", info.verified_facts);
    }
    assert!(
        info.interpretation
            .contains("udid 00008030-001A2B3C4D5E802E (Unique Identifier)"),
        "{}",
        info.interpretation
    );
    // an extraction has no /.backup: nothing read there, nothing noted
    let ffs = demo_iphone();
    assert!(!ffs.findings().iter().any(|p| p.title.contains("/.backup/")));
    assert!(!ffs.unparsed.iter().any(|u| u.artefact.contains("/.backup")));
}
