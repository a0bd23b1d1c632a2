//! Hinge on Android (`android::hinge`): Maya's phone and Leo's. No public copy of the app's
//! store is in the corpus, so each `databases/db` is written by Python's `sqlite3` with the
//! tables and columns ALEAPP's seven `hinge` artefacts read: Maya's with every table (the
//! account's selected choices — two ethnicities —, preferences, cached profiles with media and
//! answers, her own media and answers, queued events, and a `chat_messages` row), Leo's of an
//! older schema (profiles without pronouns, zodiac sign, vaccination or compatibility, no
//! `player_answers`, no `metrics`, an answer of another envelope kept as stored). ALEAPP's
//! logic, re-run in Python on the same stores, is the oracle: every row and field it reports
//! is found. Beside them a truncated store and another app's store under Hinge's name, noted.

use std::path::Path;

use crate::android_support::{assert_rows_in, oracle_rows, triage};

/// argv: Maya's databases folder, Leo's.
const WRITE: &str = r#"
import json, sqlite3, sys, os
maya, leo = sys.argv[1:3]
def store(path, older):
    db = sqlite3.connect(path)
    extra = "" if older else ", pronouns TEXT, zodiacSign INTEGER, covidVax INTEGER, compatibility INTEGER"
    db.executescript(f"""
CREATE TABLE basic_choices (id INTEGER PRIMARY KEY, attribute TEXT, apiId TEXT, display TEXT, selected INTEGER);
CREATE TABLE preference_choices (id INTEGER PRIMARY KEY, attribute TEXT, apiId TEXT, display TEXT, dealBreaker INTEGER, genderedAttributePreference TEXT, sortOrder INTEGER, selected INTEGER);
CREATE TABLE profiles (userId TEXT PRIMARY KEY, created INTEGER, updated INTEGER, firstName TEXT, lastName TEXT, age INTEGER, height INTEGER, hometown TEXT, location TEXT, jobTitle TEXT, jobTitleText TEXT, educationHistory TEXT, educationHistoryText TEXT, employmentHistory TEXT, gender INTEGER, genderIdentity TEXT, genderIdentityId INTEGER, sexualOrientations TEXT, ethnicity TEXT, ethnicitiesText TEXT, religion TEXT, religionText TEXT, politics INTEGER, politicsText TEXT, datingIntention INTEGER, datingIntentionText TEXT, relationshipType TEXT, relationshipTypeText TEXT, kids INTEGER, familyPlans INTEGER, smoking INTEGER, drinking INTEGER, drugs INTEGER, marijuana INTEGER, pet TEXT, languagesSpoken TEXT, languagesSpokenText TEXT, educationAttained INTEGER, selfieVerified INTEGER, lastActiveStatusId TEXT, didJustJoin INTEGER, state TEXT{extra});
CREATE TABLE subject_media (id INTEGER PRIMARY KEY, created INTEGER, userId TEXT, position INTEGER, photoUrl TEXT, thumbnailUrl TEXT, videoUrl TEXT, width INTEGER, height INTEGER, source TEXT, description TEXT, location TEXT, mediaPromptText TEXT, cdnId TEXT, contentId TEXT);
CREATE TABLE player_media (id INTEGER PRIMARY KEY, created INTEGER, position INTEGER, photoUrl TEXT, thumbnailUrl TEXT, videoUrl TEXT, width INTEGER, height INTEGER, source TEXT, description TEXT, location TEXT, mediaPromptText TEXT, cdnId TEXT, contentId TEXT);
CREATE TABLE subject_answers (id TEXT PRIMARY KEY, created INTEGER, modified INTEGER, userId TEXT, type TEXT, questionId TEXT, position INTEGER, answerData TEXT);
CREATE TABLE matches (subjectId TEXT PRIMARY KEY, created INTEGER, chatId TEXT);
CREATE TABLE chat_messages (id TEXT PRIMARY KEY, chatId TEXT, senderId TEXT, body TEXT, sentAt INTEGER);
CREATE TABLE match_messages (id TEXT PRIMARY KEY, subjectId TEXT, text TEXT);
""")
    if not older:
        db.executescript("""
CREATE TABLE player_answers (id TEXT PRIMARY KEY, created INTEGER, modified INTEGER, type TEXT, questionId TEXT, position INTEGER, answerData TEXT);
CREATE TABLE metrics (id TEXT PRIMARY KEY, ts TEXT, eventType TEXT, subjectId TEXT, referrerId TEXT, data TEXT, sessionId TEXT, authenticated INTEGER, crmAttributionId TEXT);
""")
    return db
def choices(db, rows):
    for attribute, api, display, selected in rows:
        db.execute("INSERT INTO basic_choices (attribute, apiId, display, selected) VALUES (?, ?, ?, ?)", (attribute, api, display, selected))
def profile(db, older, uid, first, **kw):
    cols = {"userId": uid, "firstName": first, "created": 1717236000000, "updated": 1717236065000, "age": 31, "height": 172,
            "hometown": "Aarhus", "location": "Copenhagen", "jobTitle": "Architect", "jobTitleText": None, "educationHistory": "[\"KADK\"]",
            "employmentHistory": "[\"Studio N\"]", "gender": 1, "genderIdentityId": 2, "sexualOrientations": "[1]", "ethnicity": "[4]",
            "religion": "[1]", "politics": 2, "datingIntention": 3, "relationshipType": "[1]", "kids": 1, "familyPlans": 2,
            "smoking": 0, "drinking": 1, "drugs": 0, "marijuana": 0, "pet": "[2]", "languagesSpoken": "[1,7]",
            "educationAttained": 3, "selfieVerified": 1, "lastActiveStatusId": "active_now", "didJustJoin": 0, "state": "2"}
    if not older:
        cols.update({"pronouns": "[1]", "zodiacSign": 5, "covidVax": 1, "compatibility": 0})
    cols.update(kw)
    db.execute(f"INSERT INTO profiles ({', '.join(cols)}) VALUES ({', '.join('?' * len(cols))})", list(cols.values()))
# Maya's phone
db = store(os.path.join(maya, "db"), False)
choices(db, [("age", "birthday", "649209600000", 1), ("name", "firstName", "Maya", 1), ("name", "lastName", "Sørensen", 1),
             ("email", "name", "maya.sorensen@proton.me", 1), ("location", "name", "Nørrebro", 1), ("location", "latitude", "55.6973", 1),
             ("location", "longitude", "12.5446", 1), ("location", "adminArea2", "København", 1), ("location", "adminArea1Long", "Capital Region", 1),
             ("location", "countryShort", "DK", 1), ("location", "metroAreaV2", "Copenhagen", 1), ("location", "source", "geocoder", 1),
             ("hometown", "name", "Odense", 1), ("height", "height", "168", 1), ("jobTitle", "name", "Nurse", 1),
             ("employment", "name", "Rigshospitalet", 1), ("education", "1", "KU", 1), ("genders", "1", "1", 1),
             ("ethnicities", "3", "3", 1), ("ethnicities", "6", "6", 1), ("religion", "2", "2", 0), ("politics", "1", "1", 1),
             ("datingIntention", "2", "2", 1), ("smoking", "0", "0", 1)])
for attribute, api, display, breaker, applies, order in [("ageRange", "28-36", "28-36", 1, None, 0), ("maxDistance", "25", "25", 0, None, 1), ("ethnicities", "-1", "-1", 0, "male", 2)]:
    db.execute("INSERT INTO preference_choices (attribute, apiId, display, dealBreaker, genderedAttributePreference, sortOrder, selected) VALUES (?, ?, ?, ?, ?, ?, 1)", (attribute, api, display, breaker, applies, order))
db.execute("INSERT INTO preference_choices (attribute, apiId, display, dealBreaker, sortOrder, selected) VALUES ('religion', '3', '3', 0, 3, 0)")
profile(db, False, "7731002", "Jonas", lastName="B", jobTitleText="Lead architect", ethnicitiesText="White", datingIntentionText="Long-term")
profile(db, False, "7731003", "Emil", lastName=None, age=29, hometown=None)
db.execute("INSERT INTO subject_media (created, userId, position, photoUrl, thumbnailUrl, videoUrl, width, height, source, description, location, mediaPromptText, cdnId, contentId) VALUES (1717236001000, '7731002', 0, 'https://media.hingenexus.com/p/jonas0.jpg', 'https://media.hingenexus.com/t/jonas0.jpg', NULL, 1080, 1350, 'instagram', 'At the harbour', 'Nyhavn', NULL, 'cdn-j0', 'c-j0')")
db.execute("INSERT INTO subject_media (created, userId, position, photoUrl, videoUrl, width, height, source) VALUES (1717236002000, '7731003', 0, NULL, 'https://media.hingenexus.com/v/emil0.mp4', 720, 1280, 'camera')")
db.execute("INSERT INTO player_media (created, position, photoUrl, thumbnailUrl, width, height, source, mediaPromptText, cdnId, contentId) VALUES (1717000000000, 0, 'https://media.hingenexus.com/p/maya0.jpg', 'https://media.hingenexus.com/t/maya0.jpg', 1080, 1080, 'gallery', 'Two truths and a lie', 'cdn-m0', 'c-m0')")
db.execute("INSERT INTO subject_answers VALUES ('a1', 1717236003000, 1717236004000, '7731002', 'text', 'q-118', 0, ?)", (json.dumps({"textAnswer": {"response": "Sunday swims at Islands Brygge"}}),))
db.execute("INSERT INTO subject_answers VALUES ('a2', 1717236005000, NULL, '7731003', 'poll', 'q-301', 1, ?)", (json.dumps({"pollAnswer": {"options": ["a", "b"]}}),))
db.execute("INSERT INTO player_answers VALUES ('p1', 1717000001000, 1717000002000, 'text', 'q-007', 0, ?)", (json.dumps({"textAnswer": {"response": "Pay me back: bc1q9vza2e8x573nczrlzms0wvx3gsqjx7vavgkx0l"}}),))
db.execute("INSERT INTO metrics VALUES ('ev-1', '2024-06-01T10:00:00.123456789Z', 'like_sent', '7731002', 'discover', '{\"surface\":\"discover\"}', 's-9', 1, 'attr-1')")
db.execute("INSERT INTO metrics VALUES ('ev-2', '2024-06-01T10:01:00Z', 'app_open', NULL, NULL, NULL, 's-9', 1, NULL)")
db.execute("INSERT INTO chat_messages VALUES ('cm-1', 'chat-77', '7731002', 'Coffee on Friday?', 1717300000000)")
db.commit()
# Leo's phone: an older schema
db = store(os.path.join(leo, "db"), True)
choices(db, [("name", "firstName", "Leo", 1), ("email", "name", "leo.k@gmail.com", 1), ("location", "name", "Aarhus C", 1), ("genders", "0", "0", 1)])
profile(db, True, "5510009", "Maya", lastName=None)
db.execute("INSERT INTO subject_media (created, userId, position, photoUrl) VALUES (1717400000000, '5510009', 0, 'https://media.hingenexus.com/p/maya0.jpg')")
db.execute("INSERT INTO subject_answers VALUES ('b1', 1717400001000, NULL, '5510009', 'video', 'q-5', 0, 'not json')")
db.commit()
"#;

/// ALEAPP's rows, by its logic (values as stored, not converted), from a store (argv 1) as
/// JSON lines `[kind, key, values…]`.
const ORACLE: &str = r#"
import json, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
def rows(sql):
    try:
        return db.execute(sql).fetchall()
    except sqlite3.Error:
        return []
def out(kind, key, values):
    print(json.dumps([kind, str(key)] + [str(v) for v in values if v not in (None, "")]))
chosen = {}
for attribute, api, display, selected in rows("SELECT attribute, apiId, display, selected FROM basic_choices"):
    if selected:
        chosen[(str(attribute), str(api))] = display
        chosen.setdefault(str(attribute), display)
c = lambda a, i=None: chosen.get((a, i) if i is not None else a, "")
if chosen:
    out("account", c("email", "name"), [c("age", "birthday"), c("name", "firstName"), c("name", "lastName"), c("email", "name"),
        c("location", "name"), c("location", "latitude"), c("location", "longitude"), c("location", "adminArea2"),
        c("location", "adminArea1Long"), c("location", "countryShort"), c("location", "metroAreaV2"), c("location", "source"),
        c("hometown", "name"), c("height", "height"), c("jobTitle", "name"), c("employment", "name"), c("education")]
        + [c(a) for a in ("genders", "genderIdentities", "sexualOrientations", "ethnicities", "religion", "politics", "datingIntention",
           "relationshipType", "children", "familyPlans", "smoking", "drinking", "drugs", "marijuana", "educationAttained")])
for r in rows("SELECT attribute, apiId, display, dealBreaker, genderedAttributePreference, sortOrder FROM preference_choices WHERE selected = 1"):
    out("preference", r[0], r)
media = dict(rows("SELECT userId, COUNT(*) FROM subject_media GROUP BY userId"))
answers = dict(rows("SELECT userId, COUNT(*) FROM subject_answers GROUP BY userId"))
cols = [r[1] for r in rows("PRAGMA table_info(profiles)")]
want = ["created", "updated", "firstName", "lastName", "age", "height", "hometown", "location", "jobTitle", "jobTitleText",
        "educationHistory", "educationHistoryText", "employmentHistory", "gender", "genderIdentity", "genderIdentityId", "pronouns",
        "sexualOrientations", "ethnicity", "ethnicitiesText", "religion", "religionText", "politics", "politicsText", "datingIntention",
        "datingIntentionText", "relationshipType", "relationshipTypeText", "kids", "familyPlans", "smoking", "drinking", "drugs",
        "marijuana", "pet", "zodiacSign", "covidVax", "languagesSpoken", "languagesSpokenText", "educationAttained", "selfieVerified",
        "compatibility", "lastActiveStatusId", "didJustJoin", "state", "userId"]
# ALEAPP's query names every column; an older store lacks some (its query then fails): read what is there
for r in rows(f"SELECT {', '.join(w if w in cols else 'NULL' for w in want)} FROM profiles"):
    p = dict(zip(want, r))
    out("profile", p["userId"], [p["created"], p["updated"], p["firstName"], p["lastName"], p["age"], p["height"], p["hometown"],
        p["location"], p["jobTitleText"] or p["jobTitle"], p["educationHistoryText"] or p["educationHistory"], p["employmentHistory"],
        p["gender"], p["genderIdentity"] or p["genderIdentityId"], p["pronouns"], p["sexualOrientations"], p["ethnicitiesText"] or p["ethnicity"],
        p["religionText"] or p["religion"], p["politicsText"] or p["politics"], p["datingIntentionText"] or p["datingIntention"],
        p["relationshipTypeText"] or p["relationshipType"], p["kids"], p["familyPlans"], p["smoking"], p["drinking"], p["drugs"],
        p["marijuana"], p["pet"], p["zodiacSign"], p["covidVax"], p["languagesSpokenText"] or p["languagesSpoken"], p["educationAttained"],
        p["selfieVerified"], p["compatibility"], p["lastActiveStatusId"], p["didJustJoin"], p["state"], media.get(p["userId"], 0),
        answers.get(p["userId"], 0), p["userId"]])
names = dict(rows("SELECT userId, firstName FROM profiles"))
for t, own in (("subject_media", False), ("player_media", True)):
    for r in rows(f"SELECT created, {'NULL' if own else 'userId'}, position, photoUrl, thumbnailUrl, videoUrl, width, height, source, description, location, mediaPromptText, cdnId, contentId FROM {t}"):
        out("media", r[5] or r[3], [r[0]] + ([] if own else [names.get(r[1], ""), r[1]]) + list(r[2:6]) + list(r[8:]))
def answer_text(stored):
    try:
        d = json.loads(stored)
    except (TypeError, ValueError):
        return stored or ""
    if not isinstance(d, dict):
        return stored or ""
    for v in d.values():
        if isinstance(v, dict) and isinstance(v.get("response"), str):
            return v["response"]
    return stored or ""
for t, own in (("subject_answers", False), ("player_answers", True)):
    for created, modified, uid, typ, qid, pos, stored in rows(f"SELECT created, modified, {'NULL' if own else 'userId'}, type, questionId, position, answerData FROM {t}"):
        out("answer", answer_text(stored), [created, modified] + ([] if own else [names.get(uid, ""), uid]) + [answer_text(stored), typ, pos, qid])
for r in rows("SELECT ts, eventType, subjectId, referrerId, data, sessionId, authenticated, crmAttributionId, id FROM metrics"):
    out("event", r[8], list(r[:2]) + ([names.get(r[2], ""), r[2]] if r[2] else []) + list(r[3:]))
"#;

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Each oracle row of `kind` is in a phenomenon titled `prefix…` holding its key and every
/// value as a fact or, for an attribute with several selected values, as one of a fact's
/// `, `-joined values; returns the number of rows.
fn check(all: &[masf_graph::Phenomenon], db: &Path, kind: &str, prefix: &str) -> usize {
    let rows = oracle_rows("python3", ORACLE, &[s(db)], kind);
    let has = |p: &masf_graph::Phenomenon, v: &str| {
        p.verified_facts
            .iter()
            .any(|f| f.value == v || f.value.split(", ").any(|x| x == v))
    };
    assert_rows_in(all, &rows, prefix, 1, &has)
}

#[test]
fn hinge_on_two_android_phones_of_two_schemas() {
    let tmp = tempfile::tempdir().unwrap();
    let (maya, leo) = (tmp.path().join("maya"), tmp.path().join("leo"));
    let dbs = |root: &Path| root.join("data/data/co.hinge.app/databases");
    for r in [&maya, &leo] {
        std::fs::create_dir_all(dbs(r)).unwrap();
        std::fs::create_dir_all(r.join("data/system/users/0")).unwrap();
    }
    let st = std::process::Command::new("python3")
        .args(["-c", WRITE, s(&dbs(&maya)), s(&dbs(&leo))])
        .status()
        .unwrap();
    assert!(st.success());
    // a truncated copy of Leo's store and another app's store under Hinge's name
    let cut = leo.join("data/user/10/co.hinge.app/databases");
    std::fs::create_dir_all(&cut).unwrap();
    let bytes = std::fs::read(dbs(&leo).join("db")).unwrap();
    std::fs::write(cut.join("db"), &bytes[..bytes.len() / 3]).unwrap();
    let foreign = leo.join("data/user/11/co.hinge.app/databases");
    std::fs::create_dir_all(&foreign).unwrap();
    crate::ios_nearby::sqlite3(
        &foreign.join("db"),
        "CREATE TABLE kv (k TEXT); INSERT INTO kv VALUES ('x');",
    );
    let run = triage(&[
        ("maya", &maya, "Europe/Copenhagen", Some("DK")),
        ("leo", &leo, "Europe/Copenhagen", Some("DK")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for who in ["maya", "leo"] {
        for p in run.all_phenomena(who) {
            assert!(p.warnings.is_empty(), "{}: {:#?}", p.title, p.warnings);
        }
    }
    let all = run.all_phenomena("maya");
    let db = dbs(&maya).join("db");
    for (kind, prefix, n) in [
        ("account", "Hinge account Maya", 1),
        ("preference", "Hinge preference", 3),
        ("profile", "Hinge profile", 2),
        ("media", "Hinge ", 3),
        ("answer", "Hinge prompt answer", 3),
        ("event", "Hinge event", 2),
    ] {
        assert_eq!(check(&all, &db, kind, prefix), n, "{kind}");
    }
    // one phenomenon per row: no more than ALEAPP's
    for (prefix, n) in [
        ("Hinge preference", 3),
        ("Hinge profile", 2),
        ("Hinge prompt answer", 3),
        ("Hinge event", 2),
        ("Hinge photo", 2),
        ("Hinge video", 1),
    ] {
        assert_eq!(
            all.iter().filter(|p| p.title.starts_with(prefix)).count(),
            n,
            "{prefix}"
        );
    }
    // the two selected ethnicities, the unselected religion left out
    let account = all
        .iter()
        .find(|p| p.title == "Hinge account Maya Sørensen")
        .unwrap();
    assert!(account.verified_facts.iter().any(|f| f.value == "3, 6"));
    assert!(!account.interpretation.contains("religion"));
    // the place the account is set to, said not to be a device position
    assert!(all.iter().any(|p| {
        p.title == "Hinge account location Nørrebro"
            && p.verified_facts.iter().any(|f| f.value == "55.6973")
            && p.interpretation
                .contains("not a position the device observed")
    }));
    // whose each photo and answer is
    assert!(all.iter().any(|p| p.title == "Hinge photo of Jonas"));
    assert!(all.iter().any(|p| p.title == "Hinge video of Emil"));
    assert!(
        all.iter()
            .any(|p| p.title == "Hinge photo of the account holder")
    );
    assert!(all.iter().any(|p| {
        p.title == "Hinge prompt answer of the account holder"
            && p.verified_facts
                .iter()
                .any(|f| f.value.starts_with("Pay me back"))
    }));
    // the chat row, every column as stored
    assert!(all.iter().any(|p| {
        p.title == "Hinge chat_messages row 1"
            && p.verified_facts
                .iter()
                .any(|f| f.value == "Coffee on Friday?")
    }));
    let owner = run.owner("maya").to_lowercase();
    assert!(owner.contains("email=maya.sorensen@proton.me"), "{owner}");
    assert!(
        run.identifiers("maya")
            .iter()
            .any(|(t, v)| t == "account_id" && v == "hinge:7731002")
    );
    // Leo's older schema
    let lall = run.all_phenomena("leo");
    let ldb = dbs(&leo).join("db");
    for (kind, prefix, n) in [
        ("account", "Hinge account Leo", 1),
        ("profile", "Hinge profile", 1),
        ("media", "Hinge photo", 1),
        ("answer", "Hinge prompt answer", 1),
    ] {
        assert_eq!(check(&lall, &ldb, kind, prefix), n, "{kind}");
    }
    assert!(lall.iter().any(|p| p.title == "Hinge prompt answer of Maya"
        && p.verified_facts.iter().any(|f| f.value == "not json")));
    assert!(
        !lall
            .iter()
            .any(|p| p.title.starts_with("Hinge account location"))
    );
    run.assert_noted(
        "leo",
        &[
            ("user/10/co.hinge.app/databases/db", "malformed"),
            ("user/11/co.hinge.app/databases/db", "none of the tables"),
        ],
    );
}
