//! Reminders (`ios::reminders`): Ava's iPhone (iOS 17 on: `ZREMCDREMINDER` in the Reminders app
//! group, with lists) and Ben's (iOS 15: the single table `ZREMCDOBJECT`, the reminders' entity
//! named in `Z_PRIMARYKEY` with a number of its own), written by the sqlite3 CLI with the tables
//! and columns iLEAPP's `reminders` reads (no public store with reminders is in the corpus: the
//! two file lists name theirs only). Every row and field of iLEAPP's queries (run by the CLI,
//! times as stored) is found, the reminder marked for deletion too; another store of the folder
//! is passed over and a truncated one noted.

use crate::android_support::{check, triage};

const AVA: &str = "CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
CREATE TABLE ZREMCDBASELIST (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR);
CREATE TABLE ZREMCDREMINDER (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZLIST INTEGER, ZCREATIONDATE TIMESTAMP, ZLASTMODIFIEDDATE TIMESTAMP, ZDUEDATE TIMESTAMP, ZCOMPLETIONDATE TIMESTAMP, ZTITLE VARCHAR, ZNOTES VARCHAR, ZCOMPLETED INTEGER, ZFLAGGED INTEGER, ZMARKEDFORDELETION INTEGER, ZPRIORITY INTEGER);
INSERT INTO Z_PRIMARYKEY VALUES (30, 'REMCDReminder', 0, 3), (12, 'REMCDBaseList', 0, 2);
INSERT INTO ZREMCDBASELIST VALUES (1, 12, 1, 'Errands'), (2, 12, 1, 'Work');
INSERT INTO ZREMCDREMINDER VALUES (1, 30, 1, 1, 722000000.5, 722000100.0, 722086400.0, NULL, 'Pick up the parcel at the kiosk', 'ask for Lena, code 4471', 0, 1, 0, 1);
INSERT INTO ZREMCDREMINDER VALUES (2, 30, 1, 2, 722000200.0, 722090000.0, NULL, 722090000.0, 'Send 0.5 ETH to 0x52908400098527886E0F7030069857D2E4169EE7', NULL, 1, 0, 0, 0);
INSERT INTO ZREMCDREMINDER VALUES (3, 30, 1, 1, 722000300.0, 722000400.0, NULL, NULL, 'Old plan', NULL, 0, 0, 1, 0);";

const BEN: &str = "CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
CREATE TABLE ZREMCDOBJECT (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZLIST INTEGER, ZNAME VARCHAR, ZCREATIONDATE TIMESTAMP, ZLASTMODIFIEDDATE TIMESTAMP, ZDUEDATE TIMESTAMP, ZCOMPLETIONDATE TIMESTAMP, ZTITLE VARCHAR, ZTITLE1 VARCHAR, ZNOTES VARCHAR, ZCOMPLETED INTEGER, ZFLAGGED INTEGER, ZMARKEDFORDELETION INTEGER);
INSERT INTO Z_PRIMARYKEY VALUES (28, 'REMCDReminder', 0, 2), (21, 'REMCDList', 0, 1);
INSERT INTO ZREMCDOBJECT VALUES (1, 21, 1, NULL, 'Reminders', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, 0);
INSERT INTO ZREMCDOBJECT VALUES (2, 28, 1, 1, NULL, 650000000.0, 650000100.0, 650086400.0, NULL, NULL, 'Call the notary', 'before noon', 0, 0, 0);
INSERT INTO ZREMCDOBJECT VALUES (3, 28, 1, 1, NULL, 650000200.0, 650000300.0, NULL, 650000300.0, 'Renew the lease', NULL, NULL, 1, 1, 0);";

/// iLEAPP's columns (the times as stored).
const COLUMNS: &str = "ZCREATIONDATE, ZLASTMODIFIEDDATE, ZDUEDATE, ZCOMPLETIONDATE, {title}, ZNOTES, ZCOMPLETED, ZFLAGGED, ZMARKEDFORDELETION";

#[test]
fn reminders_of_two_store_generations() {
    let tmp = tempfile::tempdir().unwrap();
    let (ava, ben) = (tmp.path().join("ava-iphone"), tmp.path().join("ben-iphone"));
    let astores = ava.join("private/var/mobile/Containers/Shared/AppGroup/5D2E1F0A-3B4C-4D5E-8F60-718293A4B5C6/Container_v1/Stores");
    let bstores = ben.join("private/var/mobile/Library/Reminders/Container_v1/Stores");
    let adb = astores.join("Data-1BE510CC-D2F4-4818-9216-A7A71C14AED5.sqlite");
    let bdb = bstores.join("Data-CB9E1979-1428-4447-94E0-6FA040FFAEFD.sqlite");
    for p in [&adb, &bdb] {
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    }
    crate::ios_nearby::sqlite3(&adb, AVA);
    crate::ios_nearby::sqlite3(&bdb, BEN);
    // another store of the folder; a truncated copy
    crate::ios_nearby::sqlite3(
        &astores.join("Data-local.sqlite"),
        "CREATE TABLE ZREMCDACCOUNT (Z_PK INTEGER PRIMARY KEY, ZNAME VARCHAR); INSERT INTO ZREMCDACCOUNT VALUES (1, 'iCloud');",
    );
    let bytes = std::fs::read(&bdb).unwrap();
    std::fs::write(bstores.join("Data-cut.sqlite"), &bytes[..bytes.len() / 3]).unwrap();
    for root in [&ava, &ben] {
        std::fs::create_dir_all(root.join("private/var/mobile/Library/Preferences")).unwrap();
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
    assert_eq!(
        check(
            &all,
            "Reminder:",
            &adb,
            &format!(
                "SELECT {} FROM ZREMCDREMINDER",
                COLUMNS.replace("{title}", "ZTITLE")
            ),
            0
        ),
        3
    );
    let lists: Vec<&str> = all
        .iter()
        .flat_map(|p| p.verified_facts.iter())
        .filter(|f| f.value == "Errands" || f.value == "Work")
        .map(|f| f.value.as_str())
        .collect();
    assert_eq!(lists.len(), 3);
    let ball = run.all_phenomena("ben-iphone");
    assert_eq!(
        check(
            &ball,
            "Reminder:",
            &bdb,
            &format!(
                "SELECT {} FROM ZREMCDOBJECT WHERE Z_ENT = (SELECT Z_ENT FROM Z_PRIMARYKEY WHERE Z_NAME = 'REMCDReminder')",
                COLUMNS.replace("{title}", "COALESCE(ZTITLE1, ZTITLE)")
            ),
            0
        ),
        2
    );
    assert!(ball.iter().any(|p| p.title == "Reminder: Call the notary"
        && p.verified_facts.iter().any(|f| f.value == "Reminders")));
    assert!(
        !run.unparsed("ava-iphone")
            .iter()
            .any(|u| u.artefact.ends_with("Data-local.sqlite"))
    );
    run.assert_noted("ben-iphone", &[("Stores/Data-cut.sqlite", "malformed")]);
}
