//! FairEmail on Android (`android::fairemail`): two phones' `fairemail` stores built by the
//! sqlite3 CLI with the tables and columns ALEAPP's FairEmail modules query (no public copy is
//! in the corpus), the second of an older layout (no display name, signature, infrastructure or
//! attachment table). Every row and field of ALEAPP's account, contact and message queries (run
//! by the CLI) is found — but the password, which ALEAPP prints and this reader only says is
//! stored — and every address of a list, where ALEAPP's joins keep the first; each phone's user
//! is its identity's address, and each is the other phone's correspondent. Beside them a
//! truncated copy and a store of another layout (noted).

use crate::android_support::{check, triage};

const DANA: &str = r#"CREATE TABLE account (id INTEGER PRIMARY KEY, name TEXT, protocol INTEGER, host TEXT, port INTEGER, user TEXT, password TEXT, created INTEGER, last_connected INTEGER);
CREATE TABLE identity (id INTEGER PRIMARY KEY, account INTEGER, name TEXT, email TEXT, display TEXT, signature TEXT, host TEXT, port INTEGER, user TEXT, password TEXT);
CREATE TABLE folder (id INTEGER PRIMARY KEY, account INTEGER, name TEXT, type TEXT);
CREATE TABLE contact (id INTEGER PRIMARY KEY, account INTEGER, type INTEGER, email TEXT, name TEXT, times_contacted INTEGER, first_contacted INTEGER, last_contacted INTEGER);
CREATE TABLE message (id INTEGER PRIMARY KEY, account INTEGER, folder INTEGER, msgid TEXT, "from" TEXT, "to" TEXT, cc TEXT, bcc TEXT, return_path TEXT, subject TEXT, preview TEXT, sent INTEGER, received INTEGER, stored INTEGER, seen INTEGER, attachments INTEGER, infrastructure TEXT);
CREATE TABLE attachment (id INTEGER PRIMARY KEY, message INTEGER, sequence INTEGER, name TEXT, type TEXT, size INTEGER);
INSERT INTO account VALUES (1, 'Work', 0, 'imap.example.org', 993, 'dana.whitfield@example.org', 'hunter2-not-copied', 1701000000000, 1701345000000);
INSERT INTO identity VALUES (1, 1, 'Dana Whitfield', 'dana.whitfield@example.org', 'Dana W.', '<p>Dana Whitfield, Accounts</p>', 'smtp.example.org', 465, 'dana.whitfield@example.org', 'hunter2-not-copied');
INSERT INTO folder VALUES (1, 1, 'INBOX', 'Inbox'), (2, 1, 'Sent', 'Sent');
INSERT INTO contact VALUES (1, 1, 0, 'ravi.menon@contoso-freight.example', 'Ravi Menon', 4, 1701000100000, 1701344400000);
INSERT INTO contact VALUES (2, 1, 1, 'audit@contoso-freight.example', NULL, 1, 1701344400000, 1701344400000);
INSERT INTO message VALUES (1, 1, 2, '<a1@example.org>', '[{"address":"dana.whitfield@example.org","personal":"Dana Whitfield"}]',
  '[{"address":"ravi.menon@contoso-freight.example","personal":"Ravi Menon"},{"address":"lena.vogt@example.net","personal":"Lena Vogt"}]',
  '[{"address":"accounts@example.org"}]', NULL, '[{"address":"bounce@example.org"}]', 'Invoice 4471',
  'Please pay 0.5 ETH to 0x52908400098527886E0F7030069857D2E4169EE7 today', 1701340800000, 1701340800500, 1701340801000, 1, 1, 'gmail');
INSERT INTO message VALUES (2, 1, 1, '<b2@contoso-freight.example>', '[{"address":"ravi.menon@contoso-freight.example","personal":"Ravi Menon"}]',
  '[{"address":"dana.whitfield@example.org","personal":"Dana Whitfield"}]', NULL, '[{"address":"audit@contoso-freight.example"}]', NULL, 'Re: Invoice 4471',
  'Done, sent.', 1701344400000, 1701344405000, 1701344406000, 0, 0, NULL);
INSERT INTO attachment VALUES (1, 1, 1, 'invoice-4471.pdf', 'application/pdf', 48213);"#;

const RAVI: &str = r#"CREATE TABLE account (id INTEGER PRIMARY KEY, name TEXT, host TEXT, port INTEGER, user TEXT, password TEXT, created INTEGER, last_connected INTEGER);
CREATE TABLE identity (id INTEGER PRIMARY KEY, account INTEGER, name TEXT, email TEXT);
CREATE TABLE folder (id INTEGER PRIMARY KEY, account INTEGER, name TEXT);
CREATE TABLE message (id INTEGER PRIMARY KEY, account INTEGER, folder INTEGER, "from" TEXT, "to" TEXT, subject TEXT, preview TEXT, sent INTEGER, received INTEGER, stored INTEGER, seen INTEGER, attachments INTEGER);
INSERT INTO account VALUES (1, 'Contoso', 'outlook.office365.com', 993, 'ravi.menon@contoso-freight.example', NULL, 1700000000000, 1701345100000);
INSERT INTO identity VALUES (1, 1, 'Ravi Menon', 'ravi.menon@contoso-freight.example');
INSERT INTO folder VALUES (1, 1, 'INBOX');
INSERT INTO message VALUES (1, 1, 1, '[{"address":"dana.whitfield@example.org","personal":"Dana Whitfield"}]', '[{"address":"ravi.menon@contoso-freight.example"}]', 'Invoice 4471', 'Please pay', 1701340800000, 1701340801000, 1701340802000, 1, 1);"#;

/// ALEAPP's get_fair_mail_accounts, but the password.
const ACCOUNTS: &str = "SELECT identity.account, identity.name, identity.email, identity.display, identity.signature, account.host, account.port, account.user, account.name, account.created, account.last_connected FROM account INNER JOIN identity ON account.id = identity.account";
/// ALEAPP's get_fair_mail_contacts.
const CONTACTS: &str = "SELECT contact.id, contact.name, contact.email, contact.times_contacted, contact.first_contacted, contact.last_contacted, account.name, account.user FROM account INNER JOIN contact ON account.id = contact.account";
/// ALEAPP's get_fair_mail_messages (its joins keep the first address and name of each list).
/// Its `GROUP_CONCAT(attachment.id, ',')` repeats an attachment's id once per row the address
/// joins make (`1,1` for a message to two people): wrong, so DISTINCT here.
const MESSAGES: &str = "SELECT m.id, account.user, folder.name, json_extract(jefrom.value, '$.address'), json_extract(jefrom.value, '$.personal'), json_extract(jeto.value, '$.address'), json_extract(jeto.value, '$.personal'), json_extract(jecc.value, '$.address'), json_extract(jecc.value, '$.personal'), json_extract(jebcc.value, '$.address'), json_extract(jebcc.value, '$.personal'), json_extract(return_path, '$[0].address'), subject, sent, received, stored, seen, attachments, infrastructure, GROUP_CONCAT(DISTINCT attachment.id), m.preview FROM message m LEFT JOIN json_each(\"from\") jefrom LEFT JOIN json_each(\"to\") jeto LEFT JOIN json_each(\"cc\") jecc LEFT JOIN json_each(\"bcc\") jebcc INNER JOIN account ON account.id = m.account INNER JOIN folder ON folder.id = m.folder LEFT JOIN attachment ON attachment.message = m.id GROUP BY m.id";

#[test]
fn fairemail_accounts_contacts_and_mail_on_two_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let rel = "eu.faircode.email/databases/fairemail";
    let (a, b) = (tmp.path().join("dana"), tmp.path().join("ravi"));
    let (adb, bdb) = (a.join("data/data").join(rel), b.join("data/data").join(rel));
    crate::ios_nearby::sqlite3(&adb, DANA);
    crate::ios_nearby::sqlite3(&bdb, RAVI);
    crate::android_support::damaged_copies(
        &a,
        rel,
        "CREATE TABLE message (id INTEGER, body TEXT); INSERT INTO message VALUES (1, 'x');",
    );
    for root in [&a, &b] {
        std::fs::create_dir_all(root.join("data/system/users/0")).unwrap();
    }
    let run = triage(&[
        ("dana", &a, "Europe/London", Some("GB")),
        ("ravi", &b, "Europe/London", Some("GB")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    let all = run.all_phenomena("dana");
    for p in all.iter().chain(run.all_phenomena("ravi").iter()) {
        assert!(p.warnings.is_empty(), "{}: {:#?}", p.title, p.warnings);
        assert!(
            !p.verified_facts.iter().any(|f| f.value.contains("hunter2")),
            "a password was copied: {p:#?}"
        );
    }
    assert_eq!(check(&all, "FairEmail account", &adb, ACCOUNTS, 0), 1);
    assert_eq!(check(&all, "FairEmail contact", &adb, CONTACTS, 0), 2);
    assert_eq!(check(&all, "FairEmail e-mail", &adb, MESSAGES, 0), 2);
    // every address and name of each list, where ALEAPP keeps the first
    let lists = "SELECT m.id, group_concat(json_extract(j.value, '$.address'), '|') FROM message m, json_each(m.\"to\") j GROUP BY m.id";
    let mails: Vec<&masf_graph::Phenomenon> = all
        .iter()
        .filter(|p| p.title.starts_with("FairEmail e-mail"))
        .collect();
    assert_eq!(
        crate::android_support::rows_in(&mails, &adb, lists, 0, "|"),
        2
    );
    assert!(
        all.iter()
            .any(|p| p.title == "FairEmail e-mail sent: Invoice 4471")
    );
    assert!(
        all.iter().any(|p| p.title
            == "FairEmail e-mail from ravi.menon@contoso-freight.example: Re: Invoice 4471")
    );
    assert!(all.iter().any(|p| {
        p.interpretation
            .contains("a password is stored (not copied here)")
    }));
    let ball = run.all_phenomena("ravi");
    assert_eq!(
        check(
            &ball,
            "FairEmail e-mail",
            &bdb,
            "SELECT m.id, json_extract(m.\"from\", '$[0].address'), json_extract(m.\"from\", '$[0].personal'), subject, preview, sent, received, stored, seen, attachments, folder.name, account.user FROM message m JOIN folder ON folder.id = m.folder JOIN account ON account.id = m.account",
            0
        ),
        1
    );
    assert_eq!(
        check(
            &ball,
            "FairEmail account",
            &bdb,
            "SELECT account.id, identity.name, identity.email, host, port, user, account.name, created, last_connected FROM account JOIN identity ON identity.account = account.id",
            0
        ),
        1
    );
    let owner = run.owner("dana");
    assert!(
        owner.contains("email=dana.whitfield@example.org"),
        "{owner}"
    );
    assert!(
        owner.contains("wallet=0x52908400098527886e0f7030069857d2e4169ee7"),
        "{owner}"
    );
    let with = crate::who::resolved(&run);
    for (member, known_as) in [
        (
            "ravi/owner",
            "dana/handle:ravi.menon@contoso-freight.example",
        ),
        ("dana/owner", "ravi/handle:dana.whitfield@example.org"),
    ] {
        assert!(
            with(member).iter().any(|m| m == known_as),
            "{member}: {:#?}",
            with(member)
        );
    }
    run.assert_noted(
        "dana",
        &[
            ("user/10/eu.faircode.email/databases/fairemail", "malformed"),
            (
                "user/11/eu.faircode.email/databases/fairemail",
                "table message lacks received",
            ),
        ],
    );
}
