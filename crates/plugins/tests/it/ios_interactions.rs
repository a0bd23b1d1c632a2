//! CoreDuet's `interactionC.db` (`ios::interactions`) on two iPhones' trees: the database as
//! `tests/fixtures/ios-interactions/interactionC.sql` builds it (sqlite3 CLI) and an older
//! one without `ZTARGETBUNDLEID`, `ZCONTENTURL` and `ZDOMAINIDENTIFIER` (dropped by sqlite3).
//! Every row of iLEAPP's `interactionCContacts` query, run by the CLI, is found with its
//! fields, and every row of its `interactionCAttachments` query; phones and e-mails of senders
//! are counterparties; a database whose `ZCONTACTS` lacks `ZIDENTIFIER` is noted.

use std::path::Path;

use crate::android_support::sqlite_fixture;
use crate::browsers::sqlite3;
use crate::ios_support::{assert_all_accepted, triage};

const DB: &str = "private/var/mobile/Library/CoreDuet/People/interactionC.db";

fn check(root: &Path) {
    let o = triage(root, "Asia/Hong_Kong");
    assert_all_accepted(&o);
    let db = root.join(DB);
    let rows = sqlite3(
        &db,
        "SELECT zinteractions.z_pk, zinteractions.zstartdate, zinteractions.zenddate, zinteractions.zbundleid, zcontacts.zdisplayname, zcontacts.zidentifier, zinteractions.zrecipientcount, zinteractions.zcreationdate FROM zinteractions LEFT JOIN zcontacts ON zinteractions.zsender = zcontacts.z_pk",
    );
    assert_eq!(rows.len(), 5);
    let found = o.findings();
    for row in &rows {
        let p = found
            .iter()
            .find(|p| p.title.starts_with(&format!("Interaction {} in ", row[0])))
            .unwrap_or_else(|| panic!("{row:?}"));
        for v in &row[1..] {
            assert!(
                v.is_empty() || p.verified_facts.iter().any(|f| &f.value == v),
                "{v} in {p:#?}"
            );
        }
    }
    let ids = o.identities();
    for (ty, v) in [("phone", "+85298765432"), ("email", "fung.cc@example.org")] {
        assert!(
            ids.iter().any(|(_, t, n)| t == ty && n == v),
            "{ty} {v}: {ids:?}"
        );
    }
    assert!(!ids.iter().any(|(_, _, n)| n.contains("telegram")));
    // iLEAPP's interactionCAttachments query (its join table as this model numbers it)
    let target = if db_has_target(&db) {
        "zinteractions.ztargetbundleid"
    } else {
        "''"
    };
    let rows = sqlite3(
        &db,
        &format!(
            "SELECT zattachment.z_pk, zinteractions.zcreationdate, zinteractions.zbundleid, {target}, zinteractions.zuuid, zattachment.zcontenttext, zattachment.zuti, zattachment.zcontenturl FROM zinteractions INNER JOIN z_1interactions ON zinteractions.z_pk = z_1interactions.z_3interactions INNER JOIN zattachment ON z_1interactions.z_1attachments = zattachment.z_pk"
        ),
    );
    assert_eq!(rows.len(), 1);
    for row in &rows {
        let p = found
            .iter()
            .find(|p| {
                p.title
                    .starts_with(&format!("Interaction attachment {} in ", row[0]))
            })
            .unwrap_or_else(|| {
                panic!(
                    "{row:?}: {:#?}",
                    found.iter().map(|p| &p.title).collect::<Vec<_>>()
                )
            });
        for v in &row[1..] {
            assert!(
                v.is_empty() || p.verified_facts.iter().any(|f| &f.value == v),
                "{v} in {p:#?}"
            );
        }
    }
}

fn db_has_target(db: &Path) -> bool {
    !sqlite3(
        db,
        "SELECT name FROM pragma_table_info('ZINTERACTIONS') WHERE name = 'ZTARGETBUNDLEID'",
    )
    .is_empty()
}

#[test]
fn interactions_on_two_iphones() {
    let tmp = tempfile::tempdir().unwrap();
    let (new, old) = (tmp.path().join("new"), tmp.path().join("old"));
    sqlite_fixture(
        &new.join(DB),
        "ios-interactions/interactionC.sql",
        "SELECT 1;",
    );
    sqlite_fixture(
        &old.join(DB),
        "ios-interactions/interactionC.sql",
        "ALTER TABLE ZINTERACTIONS DROP COLUMN ZTARGETBUNDLEID; ALTER TABLE ZINTERACTIONS DROP COLUMN ZCONTENTURL; ALTER TABLE ZINTERACTIONS DROP COLUMN ZDOMAINIDENTIFIER;",
    );
    check(&new);
    check(&old);
    let broken = tmp.path().join("broken");
    sqlite_fixture(
        &broken.join(DB),
        "ios-interactions/interactionC.sql",
        "ALTER TABLE ZCONTACTS DROP COLUMN ZIDENTIFIER;",
    );
    let o = triage(&broken, "Asia/Hong_Kong");
    o.assert_noted(
        "CoreDuet/People/interactionC.db",
        "table ZCONTACTS lacks ZIDENTIFIER",
    );
}
