//! MeWe (`sgrouplesdb.sqlite`) and Twitter/X direct messages (the NSKeyedArchiver
//! `direct-message.cache`) against iLEAPP's recorded output for the corpus's test cases: every
//! row iLEAPP's modules report is found in a phenomenon holding each of its non-empty fields
//! (verified facts, time marks, or flags in the interpretation), plus the identities they give.

use masf_graph::Phenomenon;
use serde_json::Value;

use crate::ios::{expected, has, ileapp};
use crate::ios_artefacts::{db_from_schema, walk};
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

/// Unix seconds (floored) of each time mark of `p`.
fn marks(p: &Phenomenon) -> Vec<i64> {
    p.times
        .iter()
        .filter_map(|t| {
            let v = &p.verified_facts[t.fact].value;
            Some(match t.encoding {
                masf_graph::TimeEncoding::AppleSeconds => {
                    v.parse::<f64>().ok()?.floor() as i64 + APPLE_EPOCH
                }
                masf_graph::TimeEncoding::Iso8601 => v.parse::<jiff::Timestamp>().ok()?.as_second(),
                _ => return None,
            })
        })
        .collect()
}

/// How one iLEAPP column is found in a phenomenon.
#[derive(Clone, Copy)]
enum Col<'a> {
    /// A fact holding the value as the tool output prints it.
    Fact,
    /// A time mark at the value's Unix second.
    Time,
    /// `"<label>: yes"` / `"<label>: no"` in the interpretation ("Yes" / "").
    Flag(&'a str),
    /// `"from me: yes"` / `"from me: no"` in the interpretation (1 / 0).
    FromMe,
    /// iLEAPP's `Full Name (@username)` label: each part a fact.
    Label,
    /// A text written in the interpretation (the timeline name).
    Said,
}

/// The value as the cited output holds it: sqlite_query cells escaped, plist strings
/// JSON-escaped.
type Form = fn(&str) -> String;

fn sqlite_form(v: &str) -> String {
    masf_tools::sqlite::escape_cell(v)
}

fn json_form(v: &str) -> String {
    let j = serde_json::to_string(v).unwrap();
    j[1..j.len() - 1].to_string()
}

/// How iLEAPP prints one of our times (Unix seconds).
type Shown = fn(i64) -> i64;

/// iLEAPP prints the time itself.
fn as_is(secs: i64) -> i64 {
    secs
}

/// iLEAPP's Twitter direct-message times: nska_deserialize gives the NSDate as a naive UTC
/// date-time, which iLEAPP's recording machine (in America/Chicago) read as local time, so
/// each is 5 hours (CDT) or 6 hours (CST) after the instant. Their UTC text is the wall clock
/// of our time mark.
fn chicago_wall_clock(secs: i64) -> i64 {
    let civil = jiff::Timestamp::from_second(secs)
        .unwrap()
        .in_tz("UTC")
        .unwrap()
        .datetime();
    civil
        .in_tz("America/Chicago")
        .unwrap()
        .timestamp()
        .as_second()
}

fn holds(p: &Phenomenon, col: Col<'_>, v: &str, form: Form, shown: Shown) -> bool {
    match col {
        Col::Fact => has(p, &form(v)),
        Col::Time => v
            .parse::<i64>()
            .is_ok_and(|s| marks(p).into_iter().any(|m| shown(m) == s)),
        Col::Flag(label) => {
            let on = v == "Yes" || v == "true" || v == "1";
            p.interpretation
                .contains(&format!("{label}: {}", if on { "yes" } else { "no" }))
        }
        Col::FromMe => p
            .interpretation
            .contains(&format!("from me: {}", if v == "1" { "yes" } else { "no" })),
        Col::Label => v.split(", ").all(|one| match one.rsplit_once(" (@") {
            Some((name, user)) => has(p, &form(name)) && has(p, &form(user.trim_end_matches(')'))),
            None => has(p, &form(one.trim_start_matches('@'))),
        }),
        Col::Said => p.interpretation.contains(&format!("the {v} timeline")),
    }
}

/// Matches every iLEAPP row of `exp` to one phenomenon of `ps` (by `key` and, when given, the
/// time column `at`) and counts the non-empty fields held. Returns (rows matched, fields held,
/// fields) and the misses.
fn parity(
    ps: &[&Phenomenon],
    exp: &Value,
    key: &str,
    at: Option<&str>,
    cols: &[(&str, Col<'_>)],
    form: Form,
    shown: Shown,
) -> ((usize, usize, usize), Vec<String>) {
    let rows = exp["data"].as_array().unwrap();
    let mut used = vec![false; ps.len()];
    let mut misses = Vec::new();
    let (mut matched, mut held, mut fields) = (0, 0, 0);
    for row in rows {
        let k = cell(exp, row, key);
        let t = at.map(|h| cell(exp, row, h)).unwrap_or_default();
        let Some(i) = (0..ps.len()).find(|&i| {
            !used[i]
                && has(ps[i], &form(&k))
                && (t.is_empty() || holds(ps[i], Col::Time, &t, form, shown))
        }) else {
            misses.push(format!("no phenomenon for {key}={k} at {t}"));
            fields += cols.len();
            continue;
        };
        used[i] = true;
        matched += 1;
        for (h, col) in cols {
            let v = cell(exp, row, h);
            // Flags are checked both ways ("" is "no"); other empty cells are no field.
            if v.is_empty() && !matches!(col, Col::Flag(_)) {
                continue;
            }
            fields += 1;
            if holds(ps[i], *col, &v, form, shown) {
                held += 1;
            } else {
                misses.push(format!("{key}={k}: {h}={v:?}"));
            }
        }
    }
    if ps.len() != rows.len() {
        misses.push(format!(
            "{} phenomena, iLEAPP {} rows",
            ps.len(),
            rows.len()
        ));
    }
    ((matched, held, fields), misses)
}

fn titled<'a>(o: &'a Outcome, category: &str, prefix: &str) -> Vec<&'a Phenomenon> {
    o.category(category)
        .into_iter()
        .filter(|p| p.title.starts_with(prefix))
        .collect()
}

/// Asserts every row matched and at least 98 % of the fields held (each miss printed).
fn assert_parity(what: &str, rows: usize, got: ((usize, usize, usize), Vec<String>)) {
    let ((matched, held, fields), misses) = got;
    eprintln!("{what}: {matched}/{rows} rows, {held}/{fields} fields");
    assert_eq!(matched, rows, "{what}: {misses:#?}");
    assert!(
        held as f64 >= 0.98 * fields as f64,
        "{what}: {held}/{fields}: {misses:#?}"
    );
}

#[test]
fn ios_ileapp_mewe_account_contacts_groups_posts_polls_and_chats() {
    // The six iLEAPP test cases of the module hold the same sgrouplesdb.sqlite (and -wal).
    let o = triage(
        &ileapp("testdata.meWe.meWeMessages.josh_ios17_ffs.zip"),
        "America/New_York",
    );
    assert_all_accepted(&o);
    let f = sqlite_form as Form;

    let exp = expected("meWe.meWeAccount.josh_ios17_ffs");
    let accounts = titled(&o, "accounts", "MeWe account");
    let cols = [
        ("Name", Col::Fact),
        ("Handle", Col::Fact),
        ("First Name", Col::Fact),
        ("Last Name", Col::Fact),
        ("Primary Email", Col::Fact),
        ("Primary Phone", Col::Fact),
        ("Contact Invite ID", Col::Fact),
        ("Registered", Col::Fact),
        ("DSNP Registered", Col::Flag("DSNP registered")),
        ("DSNP Handle", Col::Fact),
        ("Fingerprint", Col::Fact),
        ("Jail Date", Col::Time),
    ];
    assert_parity(
        "meWeAccount",
        1,
        parity(&accounts, &exp, "User ID", None, &cols, f, as_is),
    );

    let exp = expected("meWe.meWeContacts.josh_ios17_ffs");
    let users = titled(&o, "contacts", "MeWe user");
    let cols = [
        ("Contact Created", Col::Time),
        ("Name", Col::Fact),
        ("Handle", Col::Fact),
        ("First Name", Col::Fact),
        ("Last Name", Col::Fact),
        ("Account Holder", Col::Flag("account holder")),
        ("Contact Type", Col::Fact),
        ("Invitation Type", Col::Fact),
        ("Is Contact", Col::Flag("contact")),
        ("Following", Col::Flag("following")),
        ("Follower", Col::Flag("follower")),
        ("Muted", Col::Flag("muted")),
        ("Verified", Col::Flag("verified")),
        ("Premium", Col::Flag("premium")),
        ("Public", Col::Flag("public")),
        ("Followers Count", Col::Fact),
        ("Following Count", Col::Fact),
        ("DSNP Handle", Col::Fact),
    ];
    assert_parity(
        "meWeContacts",
        7,
        parity(&users, &exp, "User ID", None, &cols, f, as_is),
    );

    let exp = expected("meWe.meWeGroups.josh_ios17_ffs");
    let groups = titled(&o, "social", "MeWe group");
    let cols = [
        ("Group Name", Col::Fact),
        ("Description", Col::Fact),
        ("Category", Col::Fact),
        ("Owner ID", Col::Fact),
        ("Role", Col::Fact),
        ("Public Role", Col::Fact),
        ("Members Count", Col::Fact),
        ("Cached Post Count", Col::Fact),
        ("Unseen Posts", Col::Fact),
        ("Public", Col::Flag("public")),
        ("Confirmed", Col::Flag("confirmed")),
        ("Muted", Col::Flag("muted")),
        ("Owner Or Admin", Col::Flag("owner or admin")),
        ("Chat Mode", Col::Fact),
        ("Email", Col::Fact),
        ("Public URL ID", Col::Fact),
    ];
    assert_parity(
        "meWeGroups",
        1,
        parity(&groups, &exp, "Group ID", None, &cols, f, as_is),
    );

    let exp = expected("meWe.meWePosts.josh_ios17_ffs");
    let posts = titled(&o, "social", "MeWe post");
    let cols = [
        ("Edited", Col::Time),
        ("Author", Col::Fact),
        ("Author User ID", Col::Fact),
        ("Text", Col::Fact),
        ("Group Name", Col::Fact),
        ("Group ID", Col::Fact),
        ("Page ID", Col::Fact),
        ("Album Name", Col::Fact),
        ("Comments Count", Col::Fact),
        ("Photos Count", Col::Fact),
        ("Shares Count", Col::Fact),
        ("Public", Col::Flag("public")),
        ("Everyone", Col::Flag("everyone")),
        ("Featured", Col::Flag("featured")),
        ("Source", Col::Fact),
        ("Parent Post ID", Col::Fact),
    ];
    assert_parity(
        "meWePosts",
        33,
        parity(&posts, &exp, "Post ID", Some("Created"), &cols, f, as_is),
    );

    let exp = expected("meWe.meWePolls.josh_ios17_ffs");
    let polls = titled(&o, "social", "MeWe poll");
    let cols = [
        ("End Date", Col::Time),
        ("Question", Col::Fact),
        ("Options", Col::Fact),
        ("Option Votes", Col::Fact),
        ("Selected By User", Col::Fact),
        ("Option Count", Col::Fact),
        ("Closed", Col::Flag("closed")),
        ("Posted By User ID", Col::Fact),
    ];
    assert_parity(
        "meWePolls",
        10,
        parity(
            &polls,
            &exp,
            "Post ID",
            Some("Post Created"),
            &cols,
            f,
            as_is,
        ),
    );

    let exp = expected("meWe.meWeMessages.josh_ios17_ffs");
    let chats = titled(&o, "messages", "MeWe message");
    let cols = [
        ("Conversation", Col::Fact),
        ("Thread ID", Col::Fact),
        ("Chat Type", Col::Fact),
        ("Sender", Col::Fact),
        ("Sender ID", Col::Fact),
        ("Message", Col::Fact),
        ("Latitude", Col::Fact),
        ("Longitude", Col::Fact),
        ("Attachment Type", Col::Fact),
        ("Attachment Name", Col::Fact),
        ("Attachment URL", Col::Fact),
        ("Edited", Col::Time),
        ("Original Text", Col::Fact),
        ("Deleted By Sender", Col::Flag("deleted by sender")),
        ("Disappearing Type", Col::Fact),
        ("Event Type", Col::Fact),
        ("Call Duration", Col::Fact),
        ("Call Has Video", Col::Flag("call has video")),
        ("Reply To Message ID", Col::Fact),
        ("From Me", Col::FromMe),
    ];
    // Message ids repeat (a reply keeps a copy of its target's id), so rows are matched on the
    // id and the time.
    assert_parity(
        "meWeMessages",
        53,
        parity(
            &chats,
            &exp,
            "Message ID",
            Some("Timestamp"),
            &cols,
            f,
            as_is,
        ),
    );
    assert_eq!(
        chats
            .iter()
            .filter(|p| p.title.contains(" sent to "))
            .count(),
        exp["data"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|r| cell(&exp, r, "From Me") == "1")
            .count()
    );

    // The account holder: the namespaced id, handle and primary phone are the owner's; the
    // other users are persons of their own.
    let ids = o.identities();
    for want in [
        ("owner", "account_id", "mewe:5e2f8b72ae8d404b182c0d14"),
        ("owner", "nickname", "thisisdfir"),
        ("owner", "phone", "+19195794674"),
        (
            "mewe:662d4ec4a879f84505c0af2d",
            "account_id",
            "mewe:662d4ec4a879f84505c0af2d",
        ),
        ("mewe:662d4ec4a879f84505c0af2d", "nickname", "lizd505.46"),
        (
            "mewe:6172162ca0c1ec13cbd9da0e",
            "account_id",
            "mewe:6172162ca0c1ec13cbd9da0e",
        ),
    ] {
        assert!(
            ids.iter()
                .any(|(c, t, v)| c == want.0 && t == want.1 && v.eq_ignore_ascii_case(want.2)),
            "{want:?} not in {ids:#?}"
        );
    }
    assert!(
        !ids.iter()
            .any(|(c, _, v)| c != "owner" && v.contains("5e2f8b72ae8d404b182c0d14")),
        "the account holder is no other person: {ids:#?}"
    );
}

/// A second MeWe user's database, built at test time with the sqlite3 CLI from the schema of
/// the corpus's real one (`.schema`, invented rows): the account holder (with a primary
/// e-mail) sends their TRON address in a chat and the contact answers with their Ethereum
/// address; each address is its writer's claim.
#[test]
fn mewe_of_a_second_user_gives_the_owners_and_the_contacts_wallet_claims() {
    let tmp = tempfile::tempdir().unwrap();
    let st = std::process::Command::new("unzip")
        .args(["-q", "-d"])
        .arg(tmp.path().join("real"))
        .arg(ileapp("testdata.meWe.meWeAccount.josh_ios17_ffs.zip"))
        .status()
        .unwrap();
    assert!(st.success());
    let real = walk(&tmp.path().join("real"), "sgrouplesdb.sqlite").expect("the corpus db");
    let db = tmp.path().join(
        "phone/private/var/mobile/Containers/Data/Application/1A2B3C4D-5E6F-4A7B-8C9D-0E1F2A3B4C5D/Documents/sgrouplesdb.sqlite",
    );
    db_from_schema(
        &real,
        &db,
        "INSERT INTO ZUSER(Z_PK, ZCURRENTUSER, ZUSERID, ZHANDLE, ZNAME, ZFIRSTNAME, ZLASTNAME) VALUES
 (1, 1, 'aa11bb22cc33dd44ee55ff66', 'mei.wong', 'Mei Wong', 'Mei', 'Wong'),
 (2, 0, '0123456789abcdef01234567', 'kit.lau', 'Kit Lau', 'Kit', 'Lau');
INSERT INTO ZCURRENTUSER(Z_PK, ZUSER, ZPRIMARYEMAIL, ZPRIMARYPHONE, ZREGISTERED) VALUES (1, 1, 'mei.wong@example.com', '+85255501234', 'true');
INSERT INTO ZCHATTHREAD(Z_PK, ZTHREADID, ZCHATTYPE, ZSTARTEDBY) VALUES (1, 'th1', 'UserChat', 'aa11bb22cc33dd44ee55ff66');
INSERT INTO ZCHATMESSAGE(Z_PK, ZDATE, ZSENDER, ZTHREADID, ZMESSAGEID, ZTEXT) VALUES
 (1, 720000000, 'aa11bb22cc33dd44ee55ff66', 'th1', 'm1', 'my USDT address is TRh4MqLekE9MbxTkLrQ673AHbsU46khwF2'),
 (2, 720000100, '0123456789abcdef01234567', 'th1', 'm2', 'ok, pay to my address 0x1850cE0E73407A9997C467BABc60fe887C567625');",
    );
    let o = triage(&tmp.path().join("phone"), "Asia/Hong_Kong");
    assert_all_accepted(&o);
    let chats = titled(&o, "messages", "MeWe message");
    assert_eq!(chats.len(), 2);
    assert!(
        chats[0].title.contains(" sent to Kit Lau"),
        "{}",
        chats[0].title
    );
    assert!(
        chats[1].title.contains(" from Kit Lau"),
        "{}",
        chats[1].title
    );
    let ids = o.identities();
    for want in [
        ("owner", "email", "mei.wong@example.com"),
        ("owner", "phone", "+85255501234"),
        ("owner", "account_id", "mewe:aa11bb22cc33dd44ee55ff66"),
        ("owner", "wallet", "TRh4MqLekE9MbxTkLrQ673AHbsU46khwF2"),
        (
            "mewe:0123456789abcdef01234567",
            "wallet",
            "0x1850ce0e73407a9997c467babc60fe887c567625",
        ),
    ] {
        assert!(
            ids.iter()
                .any(|(c, t, v)| c == want.0 && t == want.1 && v.eq_ignore_ascii_case(want.2)),
            "{want:?} not in {ids:#?}"
        );
    }
    // The contact's address is not the owner's, nor the owner's the contact's.
    assert!(!ids.iter().any(|(c, t, v)| c == "owner"
        && t == "wallet"
        && v.eq_ignore_ascii_case("0x1850ce0e73407a9997c467babc60fe887c567625")));
}

#[test]
fn ios_ileapp_twitter_direct_messages_and_their_users() {
    // Both iLEAPP test cases hold the same archive.
    let o = triage(
        &ileapp("testdata.twitterX.twitterDirectMessages.josh_ios17_ffs.zip"),
        "America/New_York",
    );
    assert_all_accepted(&o);
    let f = json_form as Form;

    let exp = expected("twitterX.twitterDMUsers.josh_ios17_ffs");
    let users = titled(&o, "contacts", "Twitter user");
    // iLEAPP's `Updated` is empty: the archive's kUpdatedTimestampCodingKey is an NSDate, which
    // iLEAPP's number check leaves out; ours is a time mark ("Twitter user cached (updated)").
    let cols = [
        ("Updated", Col::Time),
        ("Full Name", Col::Fact),
        ("Username", Col::Fact),
        ("Account Holder", Col::Flag("account holder")),
        ("Bio", Col::Fact),
        ("Verified", Col::Flag("verified")),
        ("Blue Verified", Col::Flag("blue verified")),
        ("Protected", Col::Flag("protected")),
        ("Blocking", Col::Flag("blocking")),
        ("Profile Image URL", Col::Fact),
    ];
    assert_parity(
        "twitterDMUsers",
        5,
        parity(&users, &exp, "User ID", None, &cols, f, as_is),
    );
    assert!(users.iter().all(|p| !marks(p).is_empty()));

    let exp = expected("twitterX.twitterDirectMessages.josh_ios17_ffs");
    let dms = titled(&o, "messages", "Twitter direct message");
    // `Conversation` and `Sender` are iLEAPP's labels `Full Name (@username)`: each part is a
    // fact (the label itself is not in the archive).
    let cols = [
        ("Conversation", Col::Label),
        ("Conversation ID", Col::Fact),
        ("Timeline", Col::Said),
        ("Sender", Col::Label),
        ("Sender User ID", Col::Fact),
        ("Message", Col::Fact),
        ("Attachment Media URL", Col::Fact),
        ("Attachment Display URL", Col::Fact),
        ("Marked As Spam", Col::Flag("marked as spam")),
        ("Marked As Abuse", Col::Flag("marked as abuse")),
        ("In Reply To Message ID", Col::Fact),
        ("Account ID", Col::Fact),
        ("From Me", Col::FromMe),
    ];
    assert_parity(
        "twitterDirectMessages",
        72,
        parity(
            &dms,
            &exp,
            "Message ID",
            Some("Timestamp"),
            &cols,
            f,
            chicago_wall_clock,
        ),
    );

    // The account holder is `twitter:<id>` (the form the Android parser writes); the other
    // users are persons of their own.
    let ids = o.identities();
    for want in [
        ("owner", "account_id", "twitter:1068228364824178689"),
        ("owner", "nickname", "tdfir"),
        (
            "twitter:1809677946439000064",
            "account_id",
            "twitter:1809677946439000064",
        ),
        ("twitter:1809677946439000064", "nickname", "ldehner505"),
        (
            "twitter:1307420811221966848",
            "account_id",
            "twitter:1307420811221966848",
        ),
    ] {
        assert!(
            ids.iter()
                .any(|(c, t, v)| c == want.0 && t == want.1 && v.eq_ignore_ascii_case(want.2)),
            "{want:?} not in {ids:#?}"
        );
    }
    assert!(
        !ids.iter()
            .any(|(c, _, _)| c == "twitter:1068228364824178689")
    );
}

#[test]
fn broken_mewe_and_twitter_caches_are_noted_and_the_rest_is_read() {
    // A truncated sgrouplesdb.sqlite, a MeWe-named database of a foreign schema, a plain plist
    // in the direct-message cache directory, and the corpus's good archive beside it.
    let tmp = tempfile::tempdir().unwrap();
    let app = tmp
        .path()
        .join("private/var/mobile/Containers/Data/Application");
    let unzip = |zip: &str, to: &std::path::Path| {
        std::fs::create_dir_all(to).unwrap();
        let st = std::process::Command::new("unzip")
            .args(["-q", "-j", "-o"])
            .arg(ileapp(zip))
            .arg("-d")
            .arg(to)
            .status()
            .unwrap();
        assert!(st.success());
    };
    let mewe = app.join("A/Documents");
    unzip("testdata.meWe.meWeAccount.josh_ios17_ffs.zip", &mewe);
    let bytes = std::fs::read(mewe.join("sgrouplesdb.sqlite")).unwrap();
    std::fs::write(mewe.join("sgrouplesdb.sqlite"), &bytes[..bytes.len() / 3]).unwrap();
    for f in ["sgrouplesdb.sqlite-wal", "sgrouplesdb.sqlite-shm"] {
        std::fs::remove_file(mewe.join(f)).unwrap();
    }
    let foreign = app.join("B/Documents");
    std::fs::create_dir_all(&foreign).unwrap();
    let st = std::process::Command::new("sqlite3")
        .arg(foreign.join("sgrouplesdb.sqlite"))
        .arg("CREATE TABLE ZUSER (Z_PK INTEGER PRIMARY KEY, ZNAME TEXT); INSERT INTO ZUSER VALUES (1, 'x');")
        .status()
        .unwrap();
    assert!(st.success());
    let cache = app.join("C/Library/Caches/com.atebits.tweetie.direct-message.cache");
    unzip(
        "testdata.twitterX.twitterDMUsers.josh_ios17_ffs.zip",
        &cache,
    );
    let st = std::process::Command::new("python3")
        .arg("-c")
        .arg(format!(
            "import plistlib; plistlib.dump({{'note': 'not a cache'}}, open({:?}, 'wb'), fmt=plistlib.FMT_BINARY)",
            cache.join("TDfir-1").to_str().unwrap()
        ))
        .status()
        .unwrap();
    assert!(st.success());

    let o = triage(tmp.path(), "America/New_York");
    assert_all_accepted(&o);
    let noted = |suffix: &str| {
        o.unparsed
            .iter()
            .filter(|u| u.artefact.ends_with(suffix))
            .map(|u| u.reason.clone())
            .collect::<Vec<_>>()
    };
    let truncated = noted("/A/Documents/sgrouplesdb.sqlite");
    assert!(
        truncated
            .iter()
            .any(|n| n.contains("malformed") || n.contains("not a database")),
        "{truncated:?} / {:#?}",
        o.unparsed
    );
    let schema = noted("/B/Documents/sgrouplesdb.sqlite");
    assert!(
        schema
            .iter()
            .any(|n| n.starts_with("unexpected schema") && n.contains("ZUSERID")),
        "{schema:?}"
    );
    let plist = noted("/TDfir-1");
    assert!(
        plist.iter().any(|n| n.contains("lacks root.inbox")),
        "{plist:?}"
    );
    assert!(titled(&o, "messages", "MeWe").is_empty());
    // the good archive is still read
    assert_eq!(titled(&o, "messages", "Twitter direct message").len(), 72);
    assert!(o.identities().contains(&(
        "owner".into(),
        "account_id".into(),
        "twitter:1068228364824178689".into()
    )));
}
