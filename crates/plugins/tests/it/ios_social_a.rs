//! Mastodon and Truth Social on iOS (issue 17): every row and field of iLEAPP's recorded output
//! for the corpus's test case found in a phenomenon's verified facts, time marks or stated
//! flags; identities; a second user's databases built by the sqlite3 CLI from the real schemas;
//! broken copies.

use masf_graph::Phenomenon;
use serde_json::Value;

use crate::ios::{expected, has, ileapp};
use crate::ios_support::{Outcome, assert_all_accepted, triage};

const APPLE_EPOCH: i64 = 978_307_200;

/// The row's value of `header`, as iLEAPP prints it ("" when absent).
fn cell(exp: &Value, row: &Value, header: &str) -> String {
    let i = exp["headers"]
        .as_array()
        .and_then(|h| h.iter().position(|x| x == header))
        .unwrap_or_else(|| panic!("iLEAPP has no column {header}"));
    match &row[i] {
        Value::String(s) => s.clone(),
        Value::Null => String::new(),
        v => v.to_string(),
    }
}

/// Unix seconds of each Core Data time mark of `p`.
fn unix_marks(p: &Phenomenon) -> Vec<i64> {
    p.times
        .iter()
        .filter(|t| t.encoding == masf_graph::TimeEncoding::AppleSeconds)
        .filter_map(|t| {
            let v: f64 = p.verified_facts[t.fact].value.parse().ok()?;
            Some(v.floor() as i64 + APPLE_EPOCH)
        })
        .collect()
}

/// One iLEAPP artefact against our phenomena.
struct Artefact<'a> {
    what: &'a str,
    key: &'a str,
    times: &'a [&'a str],
    fields: &'a [&'a str],
    /// (iLEAPP column, how our interpretation states it: `<words> 1` when set, `<words> 0`
    /// when iLEAPP says 0).
    flags: &'a [(&'a str, &'a str)],
}

/// Parity figures of one artefact.
#[derive(Debug, Default)]
struct Parity {
    rows: usize,
    rows_matched: usize,
    fields: usize,
    fields_matched: usize,
    misses: Vec<String>,
}

impl Parity {
    fn ratio(&self) -> f64 {
        self.fields_matched as f64 / self.fields.max(1) as f64
    }
}

/// Matches each iLEAPP row to the phenomenon (not yet matched) holding its key and times with
/// the most of its fields, and counts the fields and flags found.
fn parity(a: &Artefact<'_>, ps: &[&Phenomenon], exp: &Value) -> Parity {
    let rows = exp["data"].as_array().unwrap();
    let mut out = Parity {
        rows: rows.len(),
        ..Parity::default()
    };
    let mut used = vec![false; ps.len()];
    for row in rows {
        let k = masf_tools::sqlite::escape_cell(&cell(exp, row, a.key));
        let times: Vec<i64> = a
            .times
            .iter()
            .map(|h| cell(exp, row, h))
            .filter(|v| !v.is_empty())
            .map(|v| v.parse().unwrap())
            .collect();
        let values: Vec<String> = a
            .fields
            .iter()
            .map(|f| masf_tools::sqlite::escape_cell(&cell(exp, row, f)))
            .collect();
        let holds = |p: &Phenomenon| values.iter().filter(|v| !v.is_empty() && has(p, v)).count();
        let best = (0..ps.len())
            .filter(|&i| {
                !used[i] && has(ps[i], &k) && times.iter().all(|t| unix_marks(ps[i]).contains(t))
            })
            .max_by_key(|&i| (holds(ps[i]), std::cmp::Reverse(i)));
        let wanted = values.iter().filter(|v| !v.is_empty()).count() + times.len() + a.flags.len();
        out.fields += wanted + 1;
        let Some(i) = best else {
            out.misses.push(format!(
                "{}: no phenomenon for {}={k} at {times:?}",
                a.what, a.key
            ));
            continue;
        };
        used[i] = true;
        out.rows_matched += 1;
        out.fields_matched += 1 + times.len() + holds(ps[i]);
        for (f, v) in a.fields.iter().zip(&values) {
            if !v.is_empty() && !has(ps[i], v) {
                out.misses.push(format!("{} {k}: {f}={v:?}", a.what));
            }
        }
        for (h, words) in a.flags {
            let v = cell(exp, row, h);
            let said = &ps[i].interpretation;
            let ok = match v.as_str() {
                "Yes" | "1" => said.contains(&format!("{words} 1")),
                "0" => said.contains(&format!("{words} 0")),
                _ => !said.contains(&format!("{words} 1")),
            };
            if ok {
                out.fields_matched += 1;
            } else {
                out.misses
                    .push(format!("{} {k}: {h}={v:?} not stated as {words:?}", a.what));
            }
        }
    }
    if ps.len() != rows.len() {
        out.misses.push(format!(
            "{}: {} phenomena, iLEAPP {} rows",
            a.what,
            ps.len(),
            rows.len()
        ));
    }
    out
}

fn titled<'a>(o: &'a Outcome, category: &str, prefix: &str) -> Vec<&'a Phenomenon> {
    o.category(category)
        .into_iter()
        .filter(|p| p.title.starts_with(prefix))
        .collect()
}

#[test]
fn ios_ileapp_mastodon_account_users_statuses_direct_messages_notifications() {
    // The five iLEAPP test cases of the module hold the same shared.sqlite (+ -wal).
    let o = triage(
        &ileapp("testdata.mastodon.mastodonStatuses.josh_ios17_ffs.zip"),
        "America/New_York",
    );
    assert_all_accepted(&o);
    assert!(o.unparsed.is_empty(), "{:#?}", o.unparsed);
    let account = titled(&o, "accounts", "Mastodon account");
    let users = titled(&o, "contacts", "Mastodon user");
    let dms = titled(&o, "messages", "Mastodon direct message");
    let public = titled(&o, "social", "Mastodon status");
    let statuses: Vec<&Phenomenon> = dms.iter().chain(&public).copied().collect();
    let notifications = titled(&o, "social", "Mastodon notification");
    let user_fields = [
        "Display Name",
        "Handle",
        "Username",
        "User ID",
        "Bio",
        "Followers Count",
        "Following Count",
        "Statuses Count",
        "Profile URL",
        "Avatar URL",
    ];
    let mut figures = Vec::new();
    let mut check = |a: Artefact<'_>, ps: &[&Phenomenon], case: &str| {
        let p = parity(
            &a,
            ps,
            &expected(&format!("mastodon.{case}.josh_ios17_ffs")),
        );
        figures.push(format!(
            "{}: rows {}/{}, fields {}/{}",
            a.what, p.rows_matched, p.rows, p.fields_matched, p.fields
        ));
        assert_eq!(p.rows_matched, p.rows, "{:#?}", p.misses);
        assert!(p.ratio() >= 0.98, "{}: {:#?}", a.what, p.misses);
        p.misses
    };
    let mut misses = Vec::new();
    misses.extend(check(
        Artefact {
            what: "account",
            key: "User ID",
            times: &[],
            fields: &[&user_fields[..], &["Instance Domain", "Instance Version"]].concat(),
            flags: &[],
        },
        &account,
        "mastodonAccount",
    ));
    misses.extend(check(
        Artefact {
            what: "users",
            key: "User ID",
            times: &["Created", "Updated"],
            fields: &[&user_fields[..], &["Domain"]].concat(),
            flags: &[
                ("Account Holder", "(account holder"),
                (
                    "Followed By Account Holder",
                    "followed by the account holder",
                ),
                ("Follows Account Holder", "follows the account holder"),
                ("Bot", ", bot"),
                ("Locked", "locked"),
                ("Suspended", "suspended"),
            ],
        },
        &users,
        "mastodonUsers",
    ));
    misses.extend(check(
        Artefact {
            what: "statuses",
            key: "Status ID",
            times: &["Created", "Edited", "Deleted"],
            fields: &[
                "Author",
                "Author Handle",
                "Author ID",
                "Visibility",
                "Content",
                "Content Warning",
                "Mentions",
                "Attachment URLs",
                "Attachment Descriptions",
                "Language",
                "Favourites",
                "Boosts",
                "Replies",
                "In Reply To Status ID",
                "In Reply To Account ID",
                "Posted With",
                "Domain",
                "URL",
            ],
            flags: &[("Sensitive", "sensitive")],
        },
        &statuses,
        "mastodonStatuses",
    ));
    misses.extend(check(
        Artefact {
            what: "direct messages",
            key: "Status ID",
            times: &["Timestamp", "Edited"],
            fields: &[
                "Conversation",
                "Conversation Key",
                "Author",
                "Author Handle",
                "Message",
                "Mentions",
                "Attachment URLs",
                "Attachment Descriptions",
                "Content Warning",
                "Language",
                "In Reply To Status ID",
                "URL",
            ],
            flags: &[("From Me", "from me")],
        },
        &dms,
        "mastodonDirectMessages",
    ));
    misses.extend(check(
        Artefact {
            what: "notifications",
            key: "Notification ID",
            times: &["Timestamp"],
            fields: &[
                "Type",
                "From User",
                "From Handle",
                "Related Status",
                "Domain",
                "Recipient User ID",
            ],
            flags: &[],
        },
        &notifications,
        "mastodonNotifications",
    ));
    eprintln!("Mastodon parity: {figures:#?}");
    assert!(misses.is_empty(), "{misses:#?}");
    // iLEAPP says "ZNOTIFICATION owner ID": the authentication table is empty, the holder is
    // the user the notifications were fetched for; we name the column.
    assert!(has(account[0], "ZNOTIFICATION.ZUSERID"));
    assert_eq!(dms.len(), 40);
    assert_eq!(
        dms.iter()
            .filter(|p| p.interpretation.contains("from me 1"))
            .count(),
        cell_count(
            &expected("mastodon.mastodonDirectMessages.josh_ios17_ffs"),
            "From Me",
            "1"
        )
    );

    // The holder's global handle, user name and display name; other users by theirs (a user
    // of another instance keeps its own domain).
    let ids = o.identities();
    for (t, v) in [
        ("account_id", "mastodon:thisisdfir@infosec.exchange"),
        ("nickname", "thisisdfir"),
    ] {
        assert!(
            ids.contains(&("owner".into(), t.into(), v.into())),
            "{t} {v}: {ids:#?}"
        );
    }
    for (c, v) in [
        (
            "mastodon:thisisdfirtwo@infosec.exchange",
            "mastodon:thisisdfirtwo@infosec.exchange",
        ),
        (
            "mastodon:joshua_hickman1@infosec.exchange",
            "mastodon:joshua_hickman1@infosec.exchange",
        ),
        ("mastodon:Alice@beige.party", "mastodon:Alice@beige.party"),
    ] {
        assert!(
            ids.contains(&(c.into(), "account_id".into(), v.into())),
            "{c}: {ids:#?}"
        );
    }
    assert!(
        !ids.iter()
            .any(|(c, _, v)| c != "owner" && v == "mastodon:thisisdfir@infosec.exchange"),
        "the holder is no other person"
    );
}

fn cell_count(exp: &Value, header: &str, value: &str) -> usize {
    exp["data"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| cell(exp, r, header) == value)
        .count()
}

#[test]
fn ios_ileapp_truth_social_accounts_chats_messages() {
    let o = triage(
        &ileapp("testdata.truthSocial.truthSocialMessages.josh_ios17_ffs.zip"),
        "America/New_York",
    );
    assert_all_accepted(&o);
    assert!(o.unparsed.is_empty(), "{:#?}", o.unparsed);
    let accounts: Vec<&Phenomenon> = titled(&o, "accounts", "Truth Social account")
        .into_iter()
        .chain(titled(&o, "contacts", "Truth Social account"))
        .collect();
    let chats = titled(&o, "messages", "Truth Social chat ")
        .into_iter()
        .filter(|p| !p.title.starts_with("Truth Social chat event"))
        .collect::<Vec<_>>();
    let events: Vec<&Phenomenon> = o
        .category("messages")
        .into_iter()
        .filter(|p| {
            p.title.starts_with("Truth Social message")
                || p.title.starts_with("Truth Social chat event")
        })
        .collect();
    let mut figures = Vec::new();
    let mut misses = Vec::new();
    let mut check = |a: Artefact<'_>, ps: &[&Phenomenon], case: &str| {
        let p = parity(
            &a,
            ps,
            &expected(&format!("truthSocial.{case}.josh_ios17_ffs")),
        );
        figures.push(format!(
            "{}: rows {}/{}, fields {}/{}",
            a.what, p.rows_matched, p.rows, p.fields_matched, p.fields
        ));
        assert_eq!(p.rows_matched, p.rows, "{:#?}", p.misses);
        assert!(p.ratio() >= 0.98, "{}: {:#?}", a.what, p.misses);
        misses.extend(p.misses);
    };
    check(
        Artefact {
            what: "accounts",
            key: "Account ID",
            times: &[],
            fields: &["Handle", "Display Name", "Event Count", "Avatar URL"],
            flags: &[
                ("Verified", "verified"),
                ("Account Holder", "account holder"),
            ],
        },
        &accounts,
        "truthSocialAccounts",
    );
    check(
        Artefact {
            what: "chats",
            key: "Chat ID",
            times: &["Created", "Last Activity", "Last Read"],
            fields: &[
                "Other Party Display Name",
                "Other Party Handle",
                "Other Party Account ID",
                "Owned By Account ID",
                "Created By Account ID",
                "Message Count",
                "Unread Count",
                "Message TTL (Seconds)",
                "Avatar URL",
            ],
            flags: &[
                ("Accepted", "accepted"),
                ("Blocked", "blocked"),
                ("Blocking", "blocking"),
                ("Hidden", "hidden"),
                ("Silenced", "silenced"),
                ("Other Party Verified", "other party verified"),
            ],
        },
        &chats,
        "truthSocialChats",
    );
    check(
        Artefact {
            what: "messages",
            key: "Event Type",
            times: &["Timestamp"],
            fields: &[
                "Conversation",
                "Chat ID",
                "Sender",
                "Sender Account ID",
                "Message",
                "Attachment Type",
                "Attachment URL",
                "Reactions",
                "Message Expiration (Seconds)",
                "URL",
                "Membership Account ID",
                "Changed By Account ID",
                "Invited Account ID",
                "Invited By Account ID",
                "Raw HTML Content",
                "Message ID",
            ],
            flags: &[
                ("Unread", "unread"),
                ("Hidden", "hidden"),
                ("Failed To Send", "failed to send"),
                ("From Me", "from me"),
            ],
        },
        &events,
        "truthSocialMessages",
    );
    eprintln!("Truth Social parity: {figures:#?}");
    assert!(misses.is_empty(), "{misses:#?}");
    // Chat Type: iLEAPP labels the channel "Channel" (ZTYPE channel) and the chat with no
    // ZTYPE "Direct Message"; we give the stored type, and say "a direct chat" when none.
    let channel = chats.iter().find(|p| has(p, "1066771")).unwrap();
    assert!(has(channel, "channel"));
    let direct = chats.iter().find(|p| has(p, "239")).unwrap();
    assert!(direct.interpretation.contains("a direct chat"));

    let ids = o.identities();
    assert!(
        ids.contains(&(
            "owner".into(),
            "account_id".into(),
            "truthsocial:107848900006371409".into()
        )),
        "{ids:#?}"
    );
    for (c, t, v) in [
        (
            "truthsocial:108809937055864312",
            "account_id",
            "truthsocial:108809937055864312",
        ),
        ("truthsocial:108809937055864312", "nickname", "lizdehner"),
        (
            "truthsocial:107759501782461327",
            "account_id",
            "truthsocial:107759501782461327",
        ),
    ] {
        assert!(
            ids.contains(&(c.into(), t.into(), v.into())),
            "{c} {t} {v}: {ids:#?}"
        );
    }
}

/// A database built with the sqlite3 CLI from the schema of a real one (`.schema`, no row
/// copied) plus `rows`, at `to`.
fn db_from_schema(real: &std::path::Path, to: &std::path::Path, rows: &str) {
    let schema = std::process::Command::new("sqlite3")
        .arg("-readonly")
        .arg(real)
        .arg(".schema")
        .output()
        .unwrap();
    assert!(schema.status.success());
    std::fs::create_dir_all(to.parent().unwrap()).unwrap();
    let out = std::process::Command::new("sqlite3")
        .arg(to)
        .arg(format!(
            "{}\n{rows}",
            // Core Data's triggers call functions only the app defines.
            String::from_utf8_lossy(&schema.stdout)
                .lines()
                .filter(|l| !l.starts_with("CREATE TRIGGER"))
                .collect::<Vec<_>>()
                .join("\n")
        ))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The real database of an iLEAPP zip, unzipped into `dir`.
fn real_db(zip: &str, name: &str, dir: &std::path::Path) -> std::path::PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    let st = std::process::Command::new("unzip")
        .args(["-q", "-j", "-o"])
        .arg(ileapp(zip))
        .arg("-d")
        .arg(dir)
        .status()
        .unwrap();
    assert!(st.success() || st.code() == Some(1));
    dir.join(name)
}

const TRON: &str = "TRh4MqLekE9MbxTkLrQ673AHbsU46khwF2";
const ETH: &str = "0x1850cE0E73407A9997C467BABc60fe887C567625";

fn holds_wallet(o: &Outcome, context: &str, v: &str) -> bool {
    o.identities()
        .iter()
        .any(|(c, t, val)| c == context && t == "wallet" && val.eq_ignore_ascii_case(v))
}

#[test]
fn ios_mastodon_and_truth_social_second_user_wallets_are_the_writers_claims() {
    let tmp = tempfile::tempdir().unwrap();
    let mastodon = real_db(
        "testdata.mastodon.mastodonAccount.josh_ios17_ffs.zip",
        "shared.sqlite",
        &tmp.path().join("real-m"),
    );
    let truth = real_db(
        "testdata.truthSocial.truthSocialAccounts.josh_ios17_ffs.zip",
        "ChatModel.sqlite",
        &tmp.path().join("real-t"),
    );
    let root = tmp
        .path()
        .join("b/private/var/mobile/Containers/Shared/AppGroup");
    // Mastodon: the holder (found through the authentication table) sends their TRON address
    // in a direct message; a user of another instance answers with an Ethereum address.
    db_from_schema(
        &mastodon,
        &root.join("0A1B2C3D-4E5F-4061-8273-94A5B6C7D8E9/Databases/shared.sqlite"),
        &format!(
            "INSERT INTO ZMASTODONAUTHENTICATION(Z_PK, ZUSERID, ZUSERNAME, ZDOMAIN) VALUES (1, '200001', 'wingkei', 'mastodon.hk');
INSERT INTO ZMASTODONUSER(Z_PK, ZID, ZACCT, ZUSERNAME, ZDISPLAYNAME, ZDOMAIN) VALUES
 (1, '200001', 'wingkei', 'wingkei', 'Wing Kei', 'mastodon.hk'),
 (2, '300002', 'ahmo@fedi.example', 'ahmo', 'Ah Mo', 'mastodon.hk');
INSERT INTO ZSTATUS(Z_PK, ZID, ZAUTHOR, ZCREATEDAT, ZCONTENT, ZVISIBILITYRAW, ZMENTIONS) VALUES
 (1, '9001', 1, 720000000.5, '<p><span class=\"h-card\">@<span>ahmo</span></span> my USDT address is {TRON}</p>', 'direct', '[{{\"acct\":\"ahmo@fedi.example\"}}]'),
 (2, '9002', 2, 720000100.5, '<p>@wingkei thanks, mine is {ETH}</p>', 'direct', '[{{\"acct\":\"wingkei\"}}]'),
 (3, '9003', 2, 720000200.5, '<p>hello world</p>', 'public', 'not json');"
        ),
    );
    // Truth Social: the holder (owner of the chat) sends their TRON address; the other party
    // answers with an Ethereum address.
    db_from_schema(
        &truth,
        &root.join("1B2C3D4E-5F60-4172-8384-A5B6C7D8E9F0/chat/v1/400004/ChatModel.sqlite"),
        &format!(
            "INSERT INTO ZMANAGEDACCOUNT(Z_PK, ZSERVERID, ZACCT, ZDISPLAYNAME) VALUES (1, '500005', 'chanmeiling', 'Chan Mei Ling');
INSERT INTO ZMANAGEDCHAT(Z_PK, ZSERVERID, ZOTHERACCOUNTID, ZOWNEDBYACCOUNTID, ZCREATEDAT) VALUES (1, '77', '500005', '400004', 720000000.0);
INSERT INTO ZMANAGEDEVENTBASE(Z_PK, ZCHAT, ZCREATEDAT, ZTYPE, ZACCOUNTID1, ZCONTENT, ZMESSAGEID) VALUES
 (1, 1, 720000010.0, 'message', '400004', '<p>send it to {TRON}</p>', 'm1'),
 (2, 1, 720000020.0, 'message', '500005', '<p>ok, refund to {ETH} &amp; thanks</p>', 'm2');"
        ),
    );
    let o = triage(&tmp.path().join("b"), "Asia/Hong_Kong");
    assert_all_accepted(&o);
    assert!(o.unparsed.is_empty(), "{:#?}", o.unparsed);
    let ids = o.identities();
    assert!(holds_wallet(&o, "owner", TRON), "{ids:#?}");
    assert!(
        holds_wallet(&o, "mastodon:ahmo@fedi.example", ETH),
        "{ids:#?}"
    );
    assert!(holds_wallet(&o, "truthsocial:500005", ETH), "{ids:#?}");
    assert!(ids.contains(&(
        "owner".into(),
        "account_id".into(),
        "mastodon:wingkei@mastodon.hk".into()
    )));
    assert!(ids.contains(&(
        "owner".into(),
        "account_id".into(),
        "truthsocial:400004".into()
    )));
    // The holder's own message, text decoded from its HTML; the public status with a mentions
    // cell that is no JSON is still read.
    let dm = titled(&o, "messages", "Mastodon direct message 9001")
        .pop()
        .expect("the holder's direct message");
    assert!(dm.interpretation.contains("from me 1"));
    assert!(has(dm, &format!("@ahmo my USDT address is {TRON}")));
    assert!(
        has(dm, "@ahmo@fedi.example, @wingkei"),
        "{:?}",
        Outcome::values(dm)
    );
    assert_eq!(titled(&o, "social", "Mastodon status 9003").len(), 1);
    let ts = titled(&o, "messages", "Truth Social message received")
        .pop()
        .expect("the received Truth Social message");
    assert!(has(ts, &format!("ok, refund to {ETH} & thanks")));
}

#[test]
fn broken_mastodon_and_truth_social_copies_are_noted_and_the_rest_is_read() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp
        .path()
        .join("t/private/var/mobile/Containers/Shared/AppGroup");
    // A good Mastodon database.
    let good = root.join("A/Databases");
    real_db(
        "testdata.mastodon.mastodonAccount.josh_ios17_ffs.zip",
        "shared.sqlite",
        &good,
    );
    // Another app's shared.sqlite: passed over without a note.
    let other = root.join("B/Databases/shared.sqlite");
    std::fs::create_dir_all(other.parent().unwrap()).unwrap();
    let sql = |db: &std::path::Path, s: &str| {
        let st = std::process::Command::new("sqlite3")
            .arg(db)
            .arg(s)
            .status()
            .unwrap();
        assert!(st.success());
    };
    sql(
        &other,
        "CREATE TABLE prefs (k TEXT, v TEXT); INSERT INTO prefs VALUES ('a', 'b');",
    );
    // A Mastodon database of an unknown schema (no ZACCT).
    let drifted = root.join("C/Databases/shared.sqlite");
    std::fs::create_dir_all(drifted.parent().unwrap()).unwrap();
    sql(
        &drifted,
        "CREATE TABLE ZMASTODONUSER (Z_PK INTEGER PRIMARY KEY, ZID TEXT); INSERT INTO ZMASTODONUSER VALUES (1, '5');",
    );
    // A truncated Truth Social database.
    let chat = root.join("D/chat/v1/107848900006371409");
    let cut = real_db(
        "testdata.truthSocial.truthSocialAccounts.josh_ios17_ffs.zip",
        "ChatModel.sqlite",
        &chat,
    );
    let bytes = std::fs::read(&cut).unwrap();
    std::fs::write(&cut, &bytes[..bytes.len() / 3]).unwrap();
    for f in ["ChatModel.sqlite-wal", "ChatModel.sqlite-shm"] {
        let _ = std::fs::remove_file(chat.join(f));
    }
    // A ChatModel.sqlite of a foreign schema.
    let foreign = root.join("E/chat/v1/1/ChatModel.sqlite");
    std::fs::create_dir_all(foreign.parent().unwrap()).unwrap();
    sql(
        &foreign,
        "CREATE TABLE ZMANAGEDCHAT (Z_PK INTEGER PRIMARY KEY);",
    );

    let o = triage(&tmp.path().join("t"), "America/New_York");
    assert_all_accepted(&o);
    let noted = |part: &str| {
        o.unparsed
            .iter()
            .find(|u| u.artefact.contains(part))
            .map(|u| u.reason.clone())
            .unwrap_or_else(|| panic!("{part} not noted: {:#?}", o.unparsed))
    };
    let n = noted("/D/chat/v1/");
    assert!(
        n.contains("malformed") || n.contains("not a database"),
        "{n}"
    );
    assert!(noted("/E/chat/v1/").starts_with("unexpected schema"));
    assert!(
        noted("/C/Databases/").contains("ZMASTODONUSER lacks"),
        "{}",
        noted("/C/Databases/")
    );
    assert!(
        !o.unparsed
            .iter()
            .any(|u| u.artefact.contains("/B/Databases/")),
        "{:#?}",
        o.unparsed
    );
    assert_eq!(o.unparsed.len(), 3, "{:#?}", o.unparsed);
    // The good database is still read.
    assert_eq!(titled(&o, "messages", "Mastodon direct message").len(), 40);
    assert!(titled(&o, "messages", "Truth Social").is_empty());
}
