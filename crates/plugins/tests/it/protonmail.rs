//! Proton Mail (`crate::protonmail`, read by both plugins): Iris's iPhone and her Android
//! phone, both signed in to one Proton account (the current app's store: `account.db` and a
//! mail cache, the iPhone's of the older cache generation that keeps bodies in `message_body`,
//! the Android one's of the newer that keeps them in `raw_message_body`), and Ben's older
//! Android phone (the `db-mail` Room store), who writes to her. The stores are written by
//! Python's `sqlite3` with the tables and columns of the app's own schema (its public
//! migrations: `ProtonMail/rust-mail` `mail/mail-common/src/db/migrations/`, the Room entities
//! of `ProtonMail/android-mail`); no public copy is in the corpus. Every row and field of
//! iLEAPP's `protonMailInbox*` and ALEAPP's `protonmailInbox*` / `protonmailDbMail*` queries
//! (run by the sqlite3 CLI; their "Name <address>" strings are the addresses and names the
//! lists hold, checked one by one) is found; both of Iris's phones resolve to one person by the
//! Proton user id, and Ben's phone meets her by her address. Beside them a truncated store, a
//! store whose message list is not JSON, and a store of another schema (noted or kept as
//! stored).

use std::path::Path;

use crate::android_support::{check, rows_in, triage};

const IRIS: &str = "dXNlcklyaXM3Nzg5MA==";
const BEN: &str = "dXNlckJlbjQ0MjE=";

/// argv: iris iPhone account.db, mail cache; iris Android account.db, mail cache; Ben's db-mail.
const WRITE: &str = r#"
import json, sqlite3, sys
ios_acc, ios_mail, and_acc, and_mail, ben, IRIS, BEN = sys.argv[1:8]

def account(path, login):
    db = sqlite3.connect(path)
    db.executescript("""
CREATE TABLE core_accounts (remote_id TEXT PRIMARY KEY, name_or_addr TEXT NOT NULL, is_ready INTEGER NOT NULL, second_factor_mode INTEGER, password_mode INTEGER, username TEXT, display_name TEXT, primary_addr TEXT, primary_at REAL);
CREATE TABLE core_sessions (remote_id TEXT PRIMARY KEY, account_id TEXT NOT NULL REFERENCES core_accounts (remote_id) ON DELETE CASCADE, access_token BLOB NOT NULL, refresh_token BLOB NOT NULL, auth_scopes TEXT NOT NULL, key_secret BLOB);
""")
    db.execute("INSERT INTO core_accounts VALUES (?, ?, 1, 0, 1, 'irisv', 'Iris Vogel', 'iris@proton.me', 1701300000)", (IRIS, login))
    db.execute("INSERT INTO core_sessions VALUES ('sess-1', ?, x'746f6b656e41434345535353', x'52454652455348', 'full self', x'4b45595345435245544b')", (IRIS,))
    db.commit()

def mail(path, newer):
    db = sqlite3.connect(path)
    db.executescript("""
CREATE TABLE addresses (local_id INTEGER PRIMARY KEY AUTOINCREMENT, remote_id TEXT NOT NULL, domain_id TEXT DEFAULT NULL, email TEXT UNIQUE NOT NULL, send INTEGER NOT NULL, receive INTEGER NOT NULL, status INTEGER NOT NULL, address_type INTEGER NOT NULL, display_order INTEGER NOT NULL, display_name TEXT NOT NULL, signature TEXT NOT NULL, catch_all INTEGER NOT NULL, proton_mx INTEGER NOT NULL, signed_key_list TEXT, keys TEXT);
CREATE TABLE users (remote_id TEXT PRIMARY KEY, name TEXT, display_name TEXT, email TEXT NOT NULL, currency TEXT NOT NULL, credit INTEGER NOT NULL, user_type INTEGER NOT NULL, create_time INTEGER, max_space INTEGER NOT NULL, max_upload INTEGER NOT NULL, used_space INTEGER NOT NULL, role INTEGER NOT NULL, private INTEGER NOT NULL, to_migrate INTEGER NOT NULL, mnemonic_status INTEGER NOT NULL, subscribed INTEGER NOT NULL, services INTEGER NOT NULL, delinquent INTEGER NOT NULL, flags INTEGER NOT NULL, keys TEXT);
CREATE TABLE labels (local_id INTEGER PRIMARY KEY AUTOINCREMENT, remote_id TEXT UNIQUE DEFAULT NULL, label_type INTEGER NOT NULL, display INTEGER NOT NULL DEFAULT 0, display_order INTEGER NOT NULL, name TEXT NOT NULL, path TEXT DEFAULT NULL, local_parent_id INTEGER DEFAULT NULL, remote_parent_id TEXT DEFAULT NULL, color TEXT NOT NULL, deleted INTEGER NOT NULL DEFAULT 0, notify INTEGER NOT NULL DEFAULT 0, expanded INTEGER NOT NULL DEFAULT 0, sticky INTEGER NOT NULL DEFAULT 0);
CREATE TABLE conversations (local_id INTEGER PRIMARY KEY AUTOINCREMENT, remote_id TEXT UNIQUE DEFAULT NULL, subject TEXT NOT NULL, num_messages INTEGER NOT NULL DEFAULT 0);
CREATE TABLE messages (local_id INTEGER PRIMARY KEY AUTOINCREMENT, remote_id TEXT UNIQUE DEFAULT NULL, local_address_id INTEGER NOT NULL, remote_address_id TEXT NOT NULL, local_conversation_id INTEGER NOT NULL, remote_conversation_id TEXT DEFAULT NULL, display_order INTEGER NOT NULL, subject TEXT NOT NULL, unread INTEGER NOT NULL, to_list TEXT DEFAULT NULL, cc_list TEXT DEFAULT NULL, bcc_list TEXT DEFAULT NULL, reply_tos TEXT DEFAULT NULL, sender TEXT DEFAULT NULL, time INTEGER NOT NULL, size INTEGER NOT NULL, expiration_time INTEGER NOT NULL, is_replied INTEGER NOT NULL, is_replied_all INTEGER NOT NULL, is_forwarded INTEGER NOT NULL, external_id TEXT, num_attachments INTEGER NOT NULL, flags INTEGER NOT NULL, snooze_time INTEGER NOT NULL DEFAULT 0, deleted INTEGER NOT NULL DEFAULT 0);
CREATE TABLE message_labels (local_message_id INTEGER NOT NULL, local_label_id INTEGER NOT NULL, PRIMARY KEY (local_message_id, local_label_id));
CREATE TABLE attachments (local_id INTEGER PRIMARY KEY AUTOINCREMENT, local_conversation_id INTEGER DEFAULT NULL, remote_conversation_id TEXT DEFAULT NULL, local_message_id INTEGER DEFAULT NULL, remote_message_id TEXT DEFAULT NULL, filename TEXT NOT NULL, size INTEGER NOT NULL, mime_type INTEGER NOT NULL, local_address_id INTEGER DEFAULT NULL, remote_address_id TEXT DEFAULT NULL, key_packets TEXT DEFAULT NULL, signature TEXT DEFAULT NULL, enc_signature TEXT DEFAULT NULL, disposition INTEGER NOT NULL, sender TEXT DEFAULT NULL, is_auto_forwardee INTEGER NOT NULL DEFAULT 0, content_id TEXT DEFAULT NULL, transfer_encoding TEXT DEFAULT NULL, image_width TEXT DEFAULT NULL, image_height TEXT DEFAULT NULL, attachment_type TEXT NOT NULL);
CREATE TABLE attachment_cache (attachment_id INTEGER PRIMARY KEY, atime INTEGER NOT NULL DEFAULT (unixepoch('now')), ctime INTEGER NOT NULL DEFAULT (unixepoch('now')), hit_count INTEGER NOT NULL DEFAULT 0, path TEXT NOT NULL, size INTEGER NOT NULL);
CREATE TABLE contacts (local_id INTEGER PRIMARY KEY AUTOINCREMENT, remote_id TEXT UNIQUE, name TEXT NOT NULL, uid TEXT NOT NULL, size INTEGER NOT NULL, create_time INTEGER NOT NULL, modify_time INTEGER NOT NULL, deleted INTEGER NOT NULL DEFAULT 0, label_ids TEXT NOT NULL);
CREATE TABLE contact_emails (local_id INTEGER PRIMARY KEY AUTOINCREMENT, remote_id TEXT UNIQUE, name TEXT NOT NULL, email TEXT NOT NULL COLLATE NOCASE, contact_type TEXT NOT NULL, defaults INTEGER NOT NULL, display_order INTEGER NOT NULL, local_contact_id INTEGER NOT NULL, remote_contact_id TEXT NOT NULL, label_ids TEXT NOT NULL, canonical_email TEXT NOT NULL, last_used_time INTEGER NOT NULL, is_proton INTEGER NOT NULL);
""")
    if newer:
        db.execute("CREATE TABLE raw_message_body (message_id INTEGER PRIMARY KEY, raw_type INTEGER NOT NULL, body BLOB NOT NULL, signatures BLOB NOT NULL, decryption_error TEXT DEFAULT NULL, raw_message_id TEXT DEFAULT NULL)")
    else:
        db.execute("CREATE TABLE message_body (message_id INTEGER PRIMARY KEY, body TEXT NOT NULL)")
    db.execute("INSERT INTO addresses VALUES (1, 'addr-1', NULL, 'iris@proton.me', 1, 1, 1, 1, 0, 'Iris Vogel', '', 0, 1, NULL, NULL)")
    db.execute("INSERT INTO users VALUES (?, 'irisv', 'Iris Vogel', 'iris@proton.me', 'EUR', 0, 1, 1690000000, 536870912, 26214400, 10485760, 1, 1, 0, 0, 1, 1, 0, 0, NULL)", (IRIS,))
    for i, (name, ltype) in enumerate([('Inbox', 4), ('Sent', 4), ('All Mail', 4), ('Invoices', 1)], 1):
        db.execute("INSERT INTO labels (local_id, remote_id, label_type, display_order, name, color) VALUES (?, ?, ?, ?, ?, '#8080FF')", (i, str(i), ltype, i, name))
    db.execute("INSERT INTO conversations VALUES (1, 'conv-A', 'Invoice March', 2)")
    ben = {'address': 'ben@pm.me', 'name': 'Ben Adler'}
    iris = {'address': 'iris@proton.me', 'name': 'Iris Vogel', 'is_proxy': False}
    carol = {'address': 'carol@example.com', 'name': ''}
    rows = [
        (1, 'msg-r1', 1, 'addr-1', 1, 'conv-A', 1, 'Invoice March', 0, json.dumps([iris]), '[]', '[]', json.dumps([ben]), json.dumps(ben), 1701340800, 48211, 0, 1, 0, 0, '<inv-1@pm.me>', 1, 0, 0, 0),
        (2, 'msg-s1', 1, 'addr-1', 1, 'conv-A', 2, 'Re: Invoice March', 0, json.dumps([ben]), json.dumps([carol]), json.dumps([{'address': 'dana@example.org', 'name': 'Dana'}]), '[]', json.dumps(iris), 1701344400, 2210, 0, 0, 0, 1, None, 0, 8194, 1701950000, 0),
    ]
    for r in rows:
        db.execute("INSERT INTO messages VALUES (" + ",".join("?" * 25) + ")", r)
    for m, l in [(1, 1), (1, 3), (1, 4), (2, 2), (2, 3)]:
        db.execute("INSERT INTO message_labels VALUES (?, ?)", (m, l))
    db.execute("INSERT INTO attachments (local_id, local_message_id, remote_message_id, filename, size, mime_type, disposition, attachment_type) VALUES (7, 1, 'msg-r1', 'invoice-march.pdf', 45120, 12, 1, '{}')")
    db.execute("INSERT INTO attachment_cache VALUES (7, 1701341000, 1701340900, 3, '/data/user/0/ch.protonmail.android/cache/mail-cache/attachments/7/invoice-march.pdf', 45120)")
    if newer:
        db.execute("INSERT INTO raw_message_body VALUES (1, 1, CAST('-----BEGIN PGP MESSAGE-----\nwcBMA5xyz\n-----END PGP MESSAGE-----' AS BLOB), x'', NULL, NULL)")
        db.execute("INSERT INTO raw_message_body VALUES (2, 0, CAST('Done. Next time send it to bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq' AS BLOB), x'', NULL, NULL)")
    else:
        db.execute("INSERT INTO message_body VALUES (1, '<p>Please pay 0.02 BTC to bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh by Friday.</p>')")
        db.execute("INSERT INTO message_body VALUES (2, '<p>Done, sent.</p>')")
    db.execute("INSERT INTO contacts VALUES (1, 'c-1', 'Ben Adler', 'proton-web-5c1f', 310, 1690000100, 1690000200, 0, '[]')")
    db.execute("INSERT INTO contacts VALUES (2, 'c-2', 'carol@example.com', 'proton-autosave-77ab', 120, 1701344500, 1701344500, 0, '[]')")
    db.execute("INSERT INTO contact_emails VALUES (1, 'ce-1', 'Ben Adler', 'ben@pm.me', 'Internet', 1, 0, 1, 'c-1', '[]', 'ben@pm.me', 1701344400, 1)")
    db.execute("INSERT INTO contact_emails VALUES (2, 'ce-2', 'carol@example.com', 'carol@example.com', 'Internet', 1, 0, 2, 'c-2', '[]', 'carol@example.com', 1701344400, 0)")
    db.commit()

account(ios_acc, 'iris@proton.me')
mail(ios_mail, False)
account(and_acc, 'irisv')
mail(and_mail, True)

db = sqlite3.connect(ben)
db.executescript("""
CREATE TABLE UserEntity (userId TEXT NOT NULL, email TEXT, name TEXT, displayName TEXT, currency TEXT NOT NULL, credit INTEGER NOT NULL, createdAtUtc INTEGER NOT NULL, usedSpace INTEGER NOT NULL, maxSpace INTEGER NOT NULL, maxUpload INTEGER NOT NULL, role INTEGER, private INTEGER NOT NULL, subscribed INTEGER NOT NULL, services INTEGER NOT NULL, delinquent INTEGER, passphrase BLOB, PRIMARY KEY(userId));
CREATE TABLE AccountEntity (userId TEXT NOT NULL, username TEXT NOT NULL, email TEXT, state TEXT NOT NULL, sessionId TEXT, sessionState TEXT, PRIMARY KEY(userId));
CREATE TABLE AddressEntity (userId TEXT NOT NULL, addressId TEXT NOT NULL, email TEXT NOT NULL, displayName TEXT, signature TEXT, domainId TEXT, canSend INTEGER NOT NULL, canReceive INTEGER NOT NULL, enabled INTEGER NOT NULL, type INTEGER, `order` INTEGER NOT NULL, PRIMARY KEY(addressId));
CREATE TABLE MessageEntity (userId TEXT NOT NULL, messageId TEXT NOT NULL, conversationId TEXT NOT NULL, `order` INTEGER NOT NULL, subject TEXT NOT NULL, unread INTEGER NOT NULL, toList TEXT NOT NULL, ccList TEXT NOT NULL, bccList TEXT NOT NULL, time INTEGER NOT NULL, size INTEGER NOT NULL, expirationTime INTEGER NOT NULL, isReplied INTEGER NOT NULL, isRepliedAll INTEGER NOT NULL, isForwarded INTEGER NOT NULL, addressId TEXT NOT NULL, externalId TEXT, numAttachments INTEGER NOT NULL, flags INTEGER NOT NULL, sender_address TEXT NOT NULL, sender_name TEXT NOT NULL, PRIMARY KEY(userId, messageId));
CREATE TABLE MessageBodyEntity (userId TEXT NOT NULL, messageId TEXT NOT NULL, body TEXT, header TEXT NOT NULL, mimeType TEXT NOT NULL, spamScore TEXT NOT NULL, replyTo TEXT NOT NULL, replyTos TEXT NOT NULL, unsubscribeMethods TEXT, PRIMARY KEY(userId, messageId));
CREATE TABLE MessageAttachmentEntity (userId TEXT NOT NULL, messageId TEXT NOT NULL, attachmentId TEXT NOT NULL, name TEXT NOT NULL, size INTEGER NOT NULL, mimeType TEXT NOT NULL, disposition TEXT, keyPackets TEXT, signature TEXT, encSignature TEXT, headers TEXT NOT NULL, PRIMARY KEY(userId, messageId, attachmentId));
CREATE TABLE MessageAttachmentMetadataEntity (userId TEXT NOT NULL, messageId TEXT NOT NULL, attachmentId TEXT NOT NULL, uri TEXT, status TEXT NOT NULL, PRIMARY KEY(userId, messageId, attachmentId));
CREATE TABLE ContactEntity (userId TEXT NOT NULL, contactId TEXT NOT NULL, name TEXT NOT NULL, PRIMARY KEY(contactId));
CREATE TABLE ContactEmailEntity (userId TEXT NOT NULL, contactEmailId TEXT NOT NULL, name TEXT NOT NULL, email TEXT NOT NULL, defaults INTEGER NOT NULL, `order` INTEGER NOT NULL, contactId TEXT NOT NULL, canonicalEmail TEXT, isProton INTEGER, PRIMARY KEY(contactEmailId));
""")
db.execute("INSERT INTO UserEntity VALUES (?, 'ben@pm.me', 'benadler', 'Ben Adler', 'CHF', 0, 1650000000000, 1048576, 536870912, 26214400, 0, 1, 0, 1, 0, x'50415353504852415345')", (BEN,))
db.execute("INSERT INTO AccountEntity VALUES (?, 'benadler', 'ben@pm.me', 'Ready', 'sess-b', 'Authenticated')", (BEN,))
db.execute("INSERT INTO AddressEntity VALUES (?, 'addr-b', 'ben@pm.me', 'Ben Adler', '', 'dom-1', 1, 1, 1, 1, 0)", (BEN,))
iris = json.dumps([{'address': 'iris@proton.me', 'name': 'Iris Vogel'}])
db.execute("INSERT INTO MessageEntity VALUES (?, 'msg-r1', 'conv-A', 1, 'Invoice March', 0, ?, '[]', '[]', 1701340790, 48211, 0, 0, 0, 0, 'addr-b', '<inv-1@pm.me>', 1, 8194, 'ben@pm.me', 'Ben Adler')", (BEN, iris))
db.execute("INSERT INTO MessageEntity VALUES (?, 'msg-s1', 'conv-A', 2, 'Re: Invoice March', 1, ?, '[]', '[]', 1701344410, 2210, 0, 0, 0, 0, 'addr-b', NULL, 0, 1, 'iris@proton.me', 'Iris Vogel')", (BEN, json.dumps([{'address': 'ben@pm.me', 'name': 'Ben Adler'}])))
db.execute("INSERT INTO MessageBodyEntity VALUES (?, 'msg-r1', '-----BEGIN PGP MESSAGE-----', '', 'text/html', '0', '{}', '[]', NULL)", (BEN,))
db.execute("INSERT INTO MessageAttachmentEntity VALUES (?, 'msg-r1', 'att-9', 'invoice-march.pdf', 45120, 'application/pdf', 'attachment', NULL, NULL, NULL, '{}')", (BEN,))
db.execute("INSERT INTO MessageAttachmentMetadataEntity VALUES (?, 'msg-r1', 'att-9', 'content://media/external/downloads/1042', 'Saved')", (BEN,))
db.execute("INSERT INTO ContactEntity VALUES (?, 'ct-1', 'Iris V.')", (BEN,))
db.execute("INSERT INTO ContactEmailEntity VALUES (?, 'cte-1', 'Iris Vogel', 'iris@proton.me', 1, 0, 'ct-1', 'iris@proton.me', 1)", (BEN,))
db.commit()
"#;

/// argv: Carl's messages store, his contacts store (the first app's, 2016–2022), the Base64 of
/// a recipient list and of an empty one (Java-serialised by the JDK: tests/fixtures/java/).
const WRITE_LEGACY: &str = r#"
import sqlite3, sys
msgs, contacts, TO, EMPTY = sys.argv[1:5]
db = sqlite3.connect(msgs)
db.executescript("""
CREATE TABLE IF NOT EXISTS `attachmentv3` (`attachment_id` TEXT, `file_name` TEXT NOT NULL, `mime_type` TEXT, `file_size` INTEGER NOT NULL, `key_packets` TEXT, `message_id` TEXT NOT NULL, `uploaded` INTEGER NOT NULL, `uploading` INTEGER NOT NULL, `signature` TEXT, `headers` TEXT, `is_inline` INTEGER NOT NULL, `file_path` TEXT, `mime_data` BLOB, `_id` INTEGER PRIMARY KEY AUTOINCREMENT);
CREATE TABLE IF NOT EXISTS `messagev3` (`ID` TEXT, `ConversationID` TEXT, `Subject` TEXT, `Unread` INTEGER NOT NULL, `Type` INTEGER NOT NULL, `Time` INTEGER NOT NULL, `Size` INTEGER NOT NULL, `Location` INTEGER NOT NULL, `FolderLocation` TEXT, `Starred` INTEGER, `NumAttachments` INTEGER NOT NULL, `IsEncrypted` INTEGER NOT NULL, `ExpirationTime` INTEGER NOT NULL, `IsReplied` INTEGER, `IsRepliedAll` INTEGER, `IsForwarded` INTEGER, `Body` TEXT, `IsDownloaded` INTEGER NOT NULL, `AddressID` TEXT, `InlineResponse` INTEGER NOT NULL, `NewServerId` TEXT, `MIMEType` TEXT, `SpamScore` INTEGER NOT NULL, `AccessTime` INTEGER NOT NULL, `Header` TEXT, `ParsedHeaders` TEXT, `LabelIDs` TEXT NOT NULL, `ToList` TEXT NOT NULL, `ReplyTos` TEXT NOT NULL, `CCList` TEXT NOT NULL, `BCCList` TEXT NOT NULL, `Flags` INTEGER NOT NULL DEFAULT 0, `Order` INTEGER NOT NULL DEFAULT 9223372036854775807, `_id` INTEGER PRIMARY KEY AUTOINCREMENT, `Sender_SenderName` TEXT, `Sender_SenderSerialized` TEXT, `Sender_IsProton` INTEGER DEFAULT 0);
""")
cols = "ID, ConversationID, Subject, Unread, Type, Time, Size, Location, Starred, NumAttachments, IsEncrypted, ExpirationTime, IsReplied, IsRepliedAll, IsForwarded, Body, IsDownloaded, InlineResponse, SpamScore, AccessTime, Header, LabelIDs, ToList, ReplyTos, CCList, BCCList, Sender_SenderName, Sender_SenderSerialized, Sender_IsProton"
rows = [
    ('lm-1', 'lc-1', 'Keys for the flat', 0, 2, 1650000000, 3100, 2, 0, 1, 1, 0, 0, 0, 0, '-----BEGIN PGP MESSAGE-----', 1, 0, 0, 0, 'Message-Id: <lm-1@protonmail.com>', '["2","5"]', TO, EMPTY, EMPTY, EMPTY, 'Carl Brandt', 'carl@protonmail.com', 1),
    ('lm-2', 'lc-1', 'Re: Keys for the flat', 1, 0, 1650003600, 2900, 0, 1, 0, 1, 0, 1, 0, 0, '-----BEGIN PGP MESSAGE-----', 1, 0, 0, 1650003700123, 'Message-Id: <lm-2@proton.me>', '["0","5"]', EMPTY, EMPTY, EMPTY, EMPTY, 'Iris Vogel', 'iris@proton.me', 1),
]
for r in rows:
    db.execute("INSERT INTO messagev3 (" + cols + ") VALUES (" + ",".join("?" * 29) + ")", r)
db.execute("INSERT INTO attachmentv3 (attachment_id, file_name, mime_type, file_size, message_id, uploaded, uploading, is_inline, file_path) VALUES ('la-1', 'keys.jpg', 'image/jpeg', 88012, 'lm-1', 1, 0, 0, '/data/user/0/ch.protonmail.android/files/attachments/la-1')")
db.commit()
db = sqlite3.connect(contacts)
db.executescript("""
CREATE TABLE IF NOT EXISTS `contact_data` (`ID` TEXT, `Name` TEXT NOT NULL, `_id` INTEGER PRIMARY KEY AUTOINCREMENT);
CREATE TABLE IF NOT EXISTS `contact_emailsv3` (`ID` TEXT NOT NULL, `Email` TEXT NOT NULL, `Name` TEXT, `ContactID` TEXT, `LabelIDs` TEXT, `LastUsedTime` INTEGER NOT NULL, `selected` INTEGER NOT NULL, `pgpIcon` INTEGER NOT NULL, `pgpIconColor` INTEGER NOT NULL, `pgpDescription` INTEGER NOT NULL, `isPGP` INTEGER NOT NULL, PRIMARY KEY(`ID`));
CREATE TABLE IF NOT EXISTS `fullContactsDetails` (`ID` TEXT NOT NULL, `Name` TEXT, `Uid` TEXT, `CreateTime` INTEGER NOT NULL, `ModifyTIme` INTEGER NOT NULL, `Size` INTEGER NOT NULL, `Defaults` INTEGER NOT NULL, `EncryptedData` TEXT, PRIMARY KEY(`ID`));
""")
db.execute("INSERT INTO fullContactsDetails VALUES ('fc-1', 'Iris Vogel', 'proton-android-1', 1640000000, 1640000500, 200, 1, NULL)")
db.execute("INSERT INTO fullContactsDetails VALUES ('fc-2', 'Locksmith Keller', 'proton-android-2', 1640001000, 1640001000, 100, 1, NULL)")
db.execute("INSERT INTO contact_emailsv3 VALUES ('ce-1', 'iris@proton.me', 'Iris Vogel', 'fc-1', '[]', 1650003600, 0, 0, 0, 0, 1)")
db.commit()
"#;

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// The oracle's "every address of a list" (split on `|`).
fn list(col: &str) -> String {
    format!(
        "(SELECT group_concat(json_extract(value, '$.address'), '|') FROM json_each({col})), (SELECT group_concat(json_extract(value, '$.name'), '|') FROM json_each({col}) WHERE json_extract(value, '$.name') != '')"
    )
}

#[test]
fn proton_mail_on_an_iphone_and_three_android_phones_of_four_store_generations() {
    let tmp = tempfile::tempdir().unwrap();
    let (iphone, pixel, ben) = (
        tmp.path().join("iris-iphone"),
        tmp.path().join("iris-pixel"),
        tmp.path().join("ben-phone"),
    );
    let group = iphone.join(
        "private/var/mobile/Containers/Shared/AppGroup/0F1E2D3C-4B5A-4968-8776-A5B4C3D2E1F0/support",
    );
    let pdbs = pixel.join("data/data/ch.protonmail.android/databases");
    let bdbs = ben.join("data/data/ch.protonmail.android/databases");
    for d in [&group, &pdbs, &bdbs] {
        std::fs::create_dir_all(d).unwrap();
    }
    let (ios_acc, ios_mail, and_acc, and_mail, bdb) = (
        group.join("account.db"),
        group.join("dXNlcklyaXM3Nzg5MA.db"),
        pdbs.join("account.db"),
        pdbs.join("dXNlcklyaXM3Nzg5MA.db"),
        bdbs.join("db-mail"),
    );
    let st = std::process::Command::new("python3")
        .arg("-c")
        .arg(WRITE)
        .args([
            s(&ios_acc),
            s(&ios_mail),
            s(&and_acc),
            s(&and_mail),
            s(&bdb),
            IRIS,
            BEN,
        ])
        .status()
        .unwrap();
    assert!(st.success());
    std::fs::create_dir_all(iphone.join("private/var/mobile/Library")).unwrap();
    for p in [&pixel, &ben] {
        std::fs::create_dir_all(p.join("data/system/users/0")).unwrap();
    }
    // beside Iris's Android store: a truncated copy, a store whose recipients are not JSON, and
    // another schema's `messages`
    let bytes = std::fs::read(&and_mail).unwrap();
    let other = pixel.join("data/user/10/ch.protonmail.android/databases");
    std::fs::create_dir_all(&other).unwrap();
    std::fs::write(other.join("cut.db"), &bytes[..bytes.len() / 3]).unwrap();
    crate::ios_nearby::sqlite3(
        &other.join("drift.db"),
        "CREATE TABLE labels (local_id INTEGER, name TEXT); CREATE TABLE messages (local_id INTEGER PRIMARY KEY, time INTEGER, subject TEXT, sender TEXT, to_list TEXT); INSERT INTO messages VALUES (1, 1701000000, 'Old format', 'legacy sender', 'erin@example.net; frank@example.net');",
    );
    crate::ios_nearby::sqlite3(
        &other.join("foreign.db"),
        "CREATE TABLE labels (id INTEGER); CREATE TABLE messages (id INTEGER, body TEXT); INSERT INTO messages VALUES (1, 'x');",
    );
    // Carl's phone of the first app
    let carl = tmp.path().join("carl-phone");
    let cdbs = carl.join("data/data/ch.protonmail.android/databases");
    std::fs::create_dir_all(&cdbs).unwrap();
    std::fs::create_dir_all(carl.join("data/system/users/0")).unwrap();
    let (cmsgs, ccontacts) = (
        cdbs.join("Y2FybA-MessagesDatabase.db"),
        cdbs.join("Y2FybA-ContactsDatabase.db"),
    );
    let st = std::process::Command::new("python3")
        .arg("-c")
        .arg(WRITE_LEGACY)
        .args([s(&cmsgs), s(&ccontacts)])
        .args(["recipients.b64", "empty-list.b64"].map(|f| {
            std::fs::read_to_string(crate::android_support::repo("tests/fixtures/java").join(f))
                .unwrap()
        }))
        .status()
        .unwrap();
    assert!(st.success());
    let run = triage(&[
        ("iris-iphone", &iphone, "Europe/Berlin", Some("DE")),
        ("iris-pixel", &pixel, "Europe/Berlin", Some("DE")),
        ("ben-phone", &ben, "Europe/Zurich", Some("CH")),
        ("carl-phone", &carl, "Europe/Vienna", Some("AT")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());

    // the current app's store on both platforms: iLEAPP's and ALEAPP's fields
    let messages = format!(
        "SELECT m.subject, m.time, json_extract(m.sender, '$.address'), json_extract(m.sender, '$.name'), {}, {}, {}, {}, m.unread, m.is_replied, m.is_forwarded, m.num_attachments, m.size, m.deleted, m.remote_conversation_id, c.subject, (SELECT group_concat(l.name, '|') FROM message_labels x JOIN labels l ON l.local_id = x.local_label_id WHERE x.local_message_id = m.local_id) FROM messages m LEFT JOIN conversations c ON c.local_id = m.local_conversation_id",
        list("m.to_list"),
        list("m.cc_list"),
        list("m.bcc_list"),
        list("m.reply_tos"),
    );
    for (source, mail_db, acc_db, login) in [
        ("iris-iphone", &ios_mail, &ios_acc, "iris@proton.me"),
        ("iris-pixel", &and_mail, &and_acc, "irisv"),
    ] {
        let all = run.all_phenomena(source);
        for p in &all {
            assert!(p.warnings.is_empty(), "{}: {:#?}", p.title, p.warnings);
        }
        let found: Vec<&masf_graph::Phenomenon> = all
            .iter()
            .filter(|p| {
                p.title.starts_with("Proton Mail e-mail") && !p.title.contains("Old format")
            })
            .collect();
        assert_eq!(rows_in(&found, mail_db, &messages, 0, "|"), 2, "{source}");
        assert_eq!(found.len(), 2, "{source}");
        // the folders and labels, in the app's words
        assert!(
            found
                .iter()
                .any(|p| p.interpretation.contains("in All Mail, Inbox, Invoices;"))
        );
        assert!(
            all.iter()
                .any(|p| p.title == "Proton Mail e-mail sent: Re: Invoice March")
        );
        assert!(
            all.iter()
                .any(|p| p.title == "Proton Mail e-mail from ben@pm.me: Invoice March")
        );
        assert_eq!(
            check(
                &all,
                "Proton Mail attachment",
                mail_db,
                "SELECT a.filename, a.size, a.mime_type, a.remote_message_id, k.path, k.ctime, k.atime, k.hit_count FROM attachments a LEFT JOIN attachment_cache k ON k.attachment_id = a.local_id",
                0
            ),
            1
        );
        assert_eq!(
            check(
                &all,
                "Proton Mail contact",
                mail_db,
                "SELECT e.email, e.name, e.last_used_time, e.is_proton, c.uid FROM contact_emails e LEFT JOIN contacts c ON c.local_id = e.local_contact_id",
                0
            ),
            2
        );
        assert_eq!(
            check(
                &all,
                "Proton Mail user",
                mail_db,
                "SELECT remote_id, name, display_name, email, create_time, used_space, max_space FROM users",
                0
            ),
            1
        );
        assert_eq!(
            check(
                &all,
                "Proton Mail account",
                acc_db,
                "SELECT remote_id, username, name_or_addr, is_ready, display_name, primary_addr FROM core_accounts",
                0
            ),
            1
        );
        // the sessions' tokens and key secrets are never copied
        assert!(!all.iter().any(|p| p.verified_facts.iter().any(|f| {
            f.value.contains("746f6b656e") || f.value.contains("4b45595345435245544b")
        })));
        assert!(all.iter().any(|p| {
            p.title == "Proton Mail account iris@proton.me"
                && p.verified_facts.iter().any(|f| f.value == login)
                && p.interpretation
                    .contains("tokens and key secrets are not copied")
        }));
        let owner = run.owner(source).to_lowercase();
        for id in [
            format!("account_id=proton:{}", IRIS.to_lowercase()),
            "email=iris@proton.me".to_string(),
        ] {
            assert!(owner.contains(&id), "{source}: {id} in {owner}");
        }
        // the other parties are persons by their addresses, the account's own address is not
        let ids = run.identifiers(source);
        for a in ["ben@pm.me", "carol@example.com", "dana@example.org"] {
            assert!(ids.contains(&("email".into(), a.into())), "{source}: {a}");
        }
        assert!(
            !run.entities(source)
                .iter()
                .any(|e| e.starts_with("handle:iris@proton.me"))
        );
    }
    // the iPhone's older cache keeps the body in clear; the Android one's keeps the received
    // message's encrypted (said) and the sent one's in clear (raw type 0)
    let ios = run.all_phenomena("iris-iphone");
    assert!(ios.iter().any(|p| p.verified_facts.iter().any(|f| f.value
        == "<p>Please pay 0.02 BTC to bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh by Friday.</p>")));
    let pixel_all = run.all_phenomena("iris-pixel");
    assert!(pixel_all.iter().any(|p| {
        p.title == "Proton Mail e-mail from ben@pm.me: Invoice March"
            && p.interpretation
                .contains("kept encrypted in raw_message_body (raw type 1)")
    }));
    assert!(!pixel_all.iter().any(|p| {
        p.verified_facts
            .iter()
            .any(|f| f.value.contains("BEGIN PGP"))
    }));
    // Ben wrote the wallet to Iris: his claim, on Iris's iPhone; Iris's own on her Android phone
    assert!(
        run.entities("iris-iphone")
            .iter()
            .any(|e| e.starts_with("handle:ben@pm.me")
                && e.contains("wallet=bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh")),
        "{:#?}",
        run.entities("iris-iphone")
    );
    assert!(
        run.owner("iris-pixel")
            .contains("wallet=bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq"),
        "{}",
        run.owner("iris-pixel")
    );

    // Ben's db-mail: ALEAPP's protonmailDbMail fields
    let ball = run.all_phenomena("ben-phone");
    for p in &ball {
        assert!(p.warnings.is_empty(), "{}: {:#?}", p.title, p.warnings);
    }
    assert_eq!(
        check(
            &ball,
            "Proton Mail e-mail",
            &bdb,
            &format!(
                "SELECT m.messageId, m.time, m.subject, m.sender_address, m.sender_name, {}, m.unread, m.isReplied, m.isForwarded, m.numAttachments, m.size, m.conversationId FROM MessageEntity m",
                list("m.toList")
            ),
            0
        ),
        2
    );
    assert!(
        ball.iter()
            .any(|p| p.title == "Proton Mail e-mail sent: Invoice March")
    );
    assert_eq!(
        check(
            &ball,
            "Proton Mail attachment",
            &bdb,
            "SELECT a.name, a.size, a.mimeType, a.disposition, x.uri, a.messageId FROM MessageAttachmentEntity a LEFT JOIN MessageAttachmentMetadataEntity x ON x.messageId = a.messageId AND x.attachmentId = a.attachmentId",
            0
        ),
        1
    );
    assert_eq!(
        check(
            &ball,
            "Proton Mail contact",
            &bdb,
            "SELECT email, name, isProton, contactId FROM ContactEmailEntity",
            0
        ),
        1
    );
    assert_eq!(
        check(
            &ball,
            "Proton Mail account",
            &bdb,
            "SELECT u.userId, u.email, u.name, u.displayName, u.createdAtUtc, u.usedSpace, u.maxSpace, a.username, a.state FROM UserEntity u LEFT JOIN AccountEntity a ON a.userId = u.userId",
            0
        ),
        1
    );
    // the stored passphrase is never copied
    assert!(!ball.iter().any(|p| {
        p.verified_facts
            .iter()
            .any(|f| f.value.contains("50415353"))
    }));
    assert!(
        run.owner("ben-phone").contains("email=ben@pm.me"),
        "{}",
        run.owner("ben-phone")
    );

    // Carl's first-app store: ALEAPP's protonmail fields; its recipient lists are Base64 of a
    // Java-serialised list, which ALEAPP prints as stored: here decoded (`sqlite_query`'s
    // `java`), so the oracle leaves them out and the addresses and names Generate.java wrote
    // are checked instead
    let call = run.all_phenomena("carl-phone");
    for p in &call {
        assert!(p.warnings.is_empty(), "{}: {:#?}", p.title, p.warnings);
    }
    assert_eq!(
        check(
            &call,
            "Proton Mail e-mail",
            &cmsgs,
            "SELECT ID, Time, Subject, Sender_SenderSerialized, Sender_SenderName, Unread, Size, AccessTime, Starred, NumAttachments, Header, ConversationID, LabelIDs FROM messagev3",
            0
        ),
        2
    );
    let sent = call
        .iter()
        .find(|p| p.title == "Proton Mail e-mail sent: Keys for the flat")
        .unwrap();
    assert!(sent.interpretation.contains("its type, 2, says sent"));
    for v in [
        "keys.jpg",
        "iris@proton.me",
        "Iris Vogel",
        "dana@example.org",
    ] {
        assert!(
            sent.verified_facts.iter().any(|f| f.value == v),
            "{v} in {sent:#?}"
        );
    }
    // the people Carl wrote to are persons by their addresses
    let ids = run.identifiers("carl-phone");
    assert!(
        ids.contains(&("email".into(), "dana@example.org".into())),
        "{ids:?}"
    );
    assert!(call.iter().any(|p| p.title
        == "Proton Mail e-mail from iris@proton.me: Re: Keys for the flat"
        && p.interpretation.contains("location Inbox")
        && p.interpretation.contains("kept encrypted or not stored")));
    assert_eq!(
        check(
            &call,
            "Proton Mail attachment",
            &cmsgs,
            "SELECT file_name, file_size, mime_type, message_id, file_path FROM attachmentv3",
            0
        ),
        1
    );
    assert_eq!(
        check(
            &call,
            "Proton Mail contact",
            &ccontacts,
            "SELECT f.Name, f.CreateTime, f.ModifyTIme, e.Email, f.Uid FROM fullContactsDetails f LEFT JOIN contact_emailsv3 e ON f.ID = e.ContactID",
            0
        ),
        2
    );
    let carl_owner = run.owner("carl-phone");
    assert!(
        carl_owner.contains("email=carl@protonmail.com")
            && carl_owner.contains("display_name=carl brandt"),
        "{carl_owner}"
    );

    // drift and damage beside Iris's Android store
    run.assert_noted(
        "iris-pixel",
        &[
            (
                "user/10/ch.protonmail.android/databases/cut.db",
                "malformed",
            ),
            (
                "user/10/ch.protonmail.android/databases/foreign.db",
                "lacks local_id, time",
            ),
        ],
    );
    // a list that is not JSON is kept as stored
    assert!(pixel_all.iter().any(|p| {
        p.title.contains("Old format")
            && p.verified_facts
                .iter()
                .any(|f| f.value == "erin@example.net; frank@example.net")
    }));

    // who is who: Iris's two phones by the Proton user id, Ben's phone by her address
    let with = crate::who::resolved(&run);
    let iris = with("iris-iphone/owner");
    for known_as in ["iris-pixel/owner", "ben-phone/handle:iris@proton.me"] {
        assert!(
            iris.contains(&known_as.to_string()),
            "{known_as}: {iris:#?}"
        );
    }
    assert!(
        iris.contains(&"carl-phone/handle:iris@proton.me".to_string()),
        "{iris:#?}"
    );
    let benp = with("ben-phone/owner");
    for known_as in [
        "iris-iphone/handle:ben@pm.me",
        "iris-pixel/handle:ben@pm.me",
    ] {
        assert!(
            benp.contains(&known_as.to_string()),
            "{known_as}: {benp:#?}"
        );
    }
}

/// argv: the first iOS app's store on two iPhones (the second of an older schema: no
/// ZATTACHMENT, no ZMIMETYPE). Its encrypted columns hold random bytes, as ciphertext reads.
const WRITE_FIRST_IOS: &str = r#"
import os, sqlite3, sys
a, b = sys.argv[1:3]
db = sqlite3.connect(a)
db.executescript("""
CREATE TABLE ZMESSAGE (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZISENCRYPTED INTEGER, ZNUMATTACHMENTS INTEGER, ZTIME TIMESTAMP, ZBODY VARCHAR, ZMIMETYPE VARCHAR, ZSENDER BLOB, ZTITLE BLOB, ZTOLIST BLOB, ZREPLYTOS BLOB);
CREATE TABLE ZATTACHMENT (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZMESSAGE INTEGER, ZFILESIZE INTEGER, ZFILENAME BLOB, ZMIMETYPE BLOB, ZHEADERINFO VARCHAR, ZLOCALURL BLOB, ZKEYPACKET VARCHAR);
""")
pgp = "-----BEGIN PGP MESSAGE-----\nwcBMA0xyz\n-----END PGP MESSAGE-----"
for pk, enc, n, t in [(1, 1, 1, 623000000.5), (2, 1, 0, 623003600.0)]:
    db.execute("INSERT INTO ZMESSAGE VALUES (?, 5, 1, ?, ?, ?, ?, 'text/html', ?, ?, ?, ?)", (pk, enc, n, t, pgp, os.urandom(60), os.urandom(40), os.urandom(80), os.urandom(30)))
db.execute("INSERT INTO ZATTACHMENT VALUES (1, 2, 1, 1, 88012, ?, ?, '{}', NULL, 'wcBMA0')", (os.urandom(30), os.urandom(20)))
db.commit()
db = sqlite3.connect(b)
db.execute("CREATE TABLE ZMESSAGE (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZISENCRYPTED INTEGER, ZNUMATTACHMENTS INTEGER, ZTIME TIMESTAMP, ZBODY VARCHAR, ZSENDER BLOB, ZTITLE BLOB, ZTOLIST BLOB)")
db.execute("INSERT INTO ZMESSAGE VALUES (1, 5, 1, 1, 0, 590000000.0, ?, ?, ?, ?)", (pgp, os.urandom(60), os.urandom(40), os.urandom(80)))
db.commit()
"#;

#[test]
fn proton_mail_first_ios_app_on_two_iphones_keeps_its_times_and_says_what_is_encrypted() {
    let tmp = tempfile::tempdir().unwrap();
    let store = |phone: &str| {
        let d = tmp.path().join(phone).join(
            "private/var/mobile/Containers/Shared/AppGroup/5D4C3B2A-1908-4F7E-A6D5-C4B3A2918070",
        );
        std::fs::create_dir_all(&d).unwrap();
        std::fs::create_dir_all(tmp.path().join(phone).join("private/var/mobile/Library")).unwrap();
        d.join("ProtonMail.sqlite")
    };
    let (a, b) = (store("ava-iphone"), store("bo-iphone"));
    let st = std::process::Command::new("python3")
        .args(["-c", WRITE_FIRST_IOS, s(&a), s(&b)])
        .status()
        .unwrap();
    assert!(st.success());
    let run = triage(&[
        (
            "ava-iphone",
            &tmp.path().join("ava-iphone"),
            "Europe/Vienna",
            Some("AT"),
        ),
        (
            "bo-iphone",
            &tmp.path().join("bo-iphone"),
            "Europe/Vienna",
            Some("AT"),
        ),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    // iLEAPP's query, but the columns it decrypts with the keychain: by the sqlite3 CLI
    for (source, db, sql, rows) in [
        (
            "ava-iphone",
            &a,
            "SELECT m.Z_PK, m.ZTIME, m.ZISENCRYPTED, m.ZNUMATTACHMENTS, m.ZMIMETYPE, (SELECT group_concat(x.ZFILESIZE) FROM ZATTACHMENT x WHERE x.ZMESSAGE = m.Z_PK) FROM ZMESSAGE m",
            2,
        ),
        (
            "bo-iphone",
            &b,
            "SELECT m.Z_PK, m.ZTIME, m.ZISENCRYPTED, m.ZNUMATTACHMENTS FROM ZMESSAGE m",
            1,
        ),
    ] {
        let all = run.all_phenomena(source);
        for p in &all {
            assert!(p.warnings.is_empty(), "{}: {:#?}", p.title, p.warnings);
        }
        let found: Vec<&masf_graph::Phenomenon> = all
            .iter()
            .filter(|p| p.title.contains("(first iOS app, encrypted)"))
            .inspect(|p| {
                assert_eq!(p.times.len(), 1, "{p:#?}");
                assert!(
                    p.interpretation
                        .contains("encrypted with the app's main key")
                );
            })
            .collect();
        assert_eq!(found.len(), rows, "{source}");
        // the key column: each row's Z_PK is in its phenomenon's title
        for row in crate::browsers::sqlite3(db, sql) {
            let p = found
                .iter()
                .find(|p| {
                    p.title == format!("Proton Mail e-mail {} (first iOS app, encrypted)", row[0])
                })
                .unwrap();
            for v in row[1..].iter().filter(|v| !v.is_empty()) {
                assert!(
                    p.verified_facts.iter().any(|f| f.value == *v),
                    "{v} in {p:#?}"
                );
            }
        }
        run.assert_noted(
            source,
            &[("ProtonMail.sqlite", &format!("read in part: the sender, recipients, subject and body of its {rows} messages are encrypted"))],
        );
    }
}
