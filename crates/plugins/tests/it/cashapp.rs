//! Cash App on Android (`android::cashapp`): KW's `cash_money.db` (`tests/fixtures/cashapp/`,
//! built by the sqlite3 CLI with the columns ALEAPP's cashApp module queries) and Ben's, of a
//! layout without `render_data`, where the other side of one of KW's payments is the device's
//! user. Every row and field of ALEAPP's query (run here by the CLI) is found, and the payments
//! its INNER JOINs drop too; a `render_data` that is no JSON loses only its amount and note; the
//! side `role` names is the owner, another role names none; the two phones resolve each other's
//! users by customer id and by `$cashtag` in any case; a note's address is its writer's claim.
//! Beside them a truncated copy and a store of another layout (noted) and another app's
//! `cash_money.db` (passed over).

use masf_graph::Phenomenon;

use crate::android_support::{sqlite_fixture, triage};
use crate::browsers::sqlite3;

fn has(p: &Phenomenon, v: &str) -> bool {
    p.verified_facts.iter().any(|f| f.value == v)
}

#[test]
fn cash_app_payments_on_two_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let kw = tmp.path().join("kw");
    let db = kw.join("data/data/com.squareup.cash/databases/cash_money.db");
    sqlite_fixture(&db, "cashapp/cash_money.sql", "SELECT 1;");
    crate::android_support::damaged_copies(
        &kw,
        "com.squareup.cash/databases/cash_money.db",
        "CREATE TABLE payment (token TEXT, amount INTEGER); INSERT INTO payment VALUES ('x', 1);",
    );
    let other = kw.join("data/data/com.example.wallet/databases/cash_money.db");
    std::fs::create_dir_all(other.parent().unwrap()).unwrap();
    std::fs::copy(&db, &other).unwrap();
    std::fs::create_dir_all(kw.join("data/system/users/0")).unwrap();

    let ben = tmp.path().join("ben");
    let bdb = ben.join("data/data/com.squareup.cash/databases/cash_money.db");
    crate::ios_nearby::sqlite3(
        &bdb,
        "CREATE TABLE customer (customer_id TEXT, cashtag TEXT, customer_display_name TEXT); \
         CREATE TABLE payment (role TEXT, sender_id TEXT, recipient_id TEXT, state TEXT, display_date INTEGER); \
         INSERT INTO customer VALUES ('C_ben002', 'benotc', 'Ben'); \
         INSERT INTO customer VALUES ('C_kw0001', 'kwtrader', 'KW'); \
         INSERT INTO payment VALUES ('recipient', 'C_kw0001', 'C_ben002', 'COMPLETE', 1700000000000);",
    );
    std::fs::create_dir_all(ben.join("data/system/users/0")).unwrap();

    let run = triage(&[
        ("kw", &kw, "America/New_York", Some("US")),
        ("ben", &ben, "America/New_York", Some("US")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());

    // ALEAPP's query, with LEFT JOINs (its INNER JOINs drop C_unknown9's payment); its
    // placeholders for a missing cashtag or note are left out
    for (source, db, sql) in [
        (
            "kw",
            &db,
            "SELECT payment.role, payment.sender_id, customer.cashtag, customer.customer_display_name, payment.recipient_id, customer1.cashtag, \
             customer1.customer_display_name, payment.state, payment.display_date, \
             CASE WHEN json_valid(payment.render_data) THEN json_extract(payment.render_data, '$.\"note\"') END, \
             CASE WHEN json_valid(payment.render_data) THEN printf('%.2f', json_extract(payment.render_data, '$.\"amount\".\"amount\"') / 100.0) END \
             FROM payment LEFT JOIN customer ON customer.customer_id = payment.sender_id LEFT JOIN customer customer1 ON payment.recipient_id = customer1.customer_id",
        ),
        (
            "ben",
            &bdb,
            "SELECT payment.role, payment.sender_id, customer.cashtag, customer.customer_display_name, payment.recipient_id, customer1.cashtag, \
             customer1.customer_display_name, payment.state, payment.display_date, NULL, NULL \
             FROM payment LEFT JOIN customer ON customer.customer_id = payment.sender_id LEFT JOIN customer customer1 ON payment.recipient_id = customer1.customer_id",
        ),
    ] {
        let all = run.all_phenomena(source);
        for p in &all {
            assert!(p.warnings.is_empty(), "{}: {:#?}", p.title, p.warnings);
        }
        let payments: Vec<&Phenomenon> = all
            .iter()
            .filter(|p| p.title.starts_with("Cash App payment "))
            .collect();
        let rows = sqlite3(db, sql);
        assert_eq!(payments.len(), rows.len(), "{source}");
        for row in &rows {
            let p = payments
                .iter()
                .find(|p| has(p, &row[1]) && has(p, &row[4]) && has(p, &row[8]))
                .unwrap_or_else(|| panic!("{source}: {row:?}"));
            assert_eq!(p.category, "transactions");
            for v in &row[1..] {
                assert!(v.is_empty() || has(p, v), "{source}: {v} in {p:#?}");
            }
            assert!(
                p.interpretation
                    .contains(&format!("the account's role {}", row[0])),
                "{}",
                p.interpretation
            );
        }
    }
    let all = run.all_phenomena("kw");
    let broken = all
        .iter()
        .find(|p| p.title.starts_with("Cash App payment ") && has(p, "FAILED"))
        .expect("the payment whose render_data is no JSON");
    assert!(
        !broken.interpretation.contains("amount.amount")
            && !broken.interpretation.contains("note:"),
        "{}",
        broken.interpretation
    );
    // only Cash App's store is read
    assert!(
        !all.iter().any(|p| p.title.starts_with("Cash App ")
            && p.verified_facts
                .iter()
                .any(|f| f.value.contains("com.example.wallet"))),
        "another app's store was read"
    );
    let ents = run.entities("kw");
    assert!(
        ents.iter()
            .any(|e| e.starts_with("owner [Person] device owner:")
                && e.contains("account_id=cashapp:c_kw0001")
                || e.starts_with("owner [Person] device owner:")
                    && e.contains("account_id=cashapp:C_kw0001")),
        "{ents:#?}"
    );
    // the note's address: the device's user wrote it, asking Ben to send there
    assert!(
        ents.iter().any(|e| e.starts_with("owner [Person]")
            && e.contains("wallet=TRh4MqLekE9MbxTkLrQ673AHbsU46khwF2")),
        "{ents:#?}"
    );
    // role OTHER names no owner: Ben and the runner stay themselves
    assert!(
        ents.iter()
            .any(|e| e.starts_with("cashapp:C_ben002 [Person]")),
        "{ents:#?}"
    );

    // the $cashtag, in any case and with or without `$`, is one id on both phones
    assert!(
        ents.iter()
            .any(|e| e.starts_with("cashapp:C_ben002 [Person]")
                && e.contains("account_id=cashtag:benotc")),
        "{ents:#?}"
    );
    let bens = run.entities("ben");
    assert!(
        bens.iter()
            .any(|e| e.starts_with("owner [Person]") && e.contains("account_id=cashtag:benotc")),
        "{bens:#?}"
    );

    let with = crate::who::resolved(&run);
    for (member, known_as) in [
        ("kw/owner", "ben/cashapp:C_kw0001"),
        ("ben/owner", "kw/cashapp:C_ben002"),
    ] {
        assert!(
            with(member).iter().any(|m| m == known_as),
            "{member}: {:#?}",
            with(member)
        );
    }

    run.assert_noted(
        "kw",
        &[
            (
                "user/10/com.squareup.cash/databases/cash_money.db",
                "malformed",
            ),
            (
                "user/11/com.squareup.cash/databases/cash_money.db",
                "table payment lacks sender_id, recipient_id, display_date",
            ),
        ],
    );
}
