//! Bluesky on Android (`android::bluesky`): Ana's phone and Ben's, who message each other on
//! Bluesky. No public copy of the app's data is in the corpus, so each phone's
//! `databases/RKStorage` is written by Python's `sqlite3` with React Native AsyncStorage's
//! table (`catalystLocalStorage`) and the state the app persists (`BSKY_STORAGE`, as the app's
//! own schema declares it, session tokens included; `searchHistory`), and its
//! `cache/http-cache/` as OkHttp writes it (`<md5 of the URL>.0`: URL, method, vary headers,
//! status line, response headers; `.1`: the body) with answers of the app's API in the
//! shapes of its lexicons (`chat.bsky.convo.getMessages`, `listConvos`, `getConvoForMembers`,
//! `getLog`, `app.bsky.actor.getProfile`, `searchActorsTypeahead`, `app.bsky.feed.getTimeline`,
//! `getPosts`). Ana's phone is of the current layout (every answer kind, a search history, an
//! avatar image and a compressed answer and an answer without its body beside them), Ben's of
//! an older one (an account without the newer members, no search history, the messages of a
//! conversation's log). Every row and field of ALEAPP's `blueskymessages` (messages, actors),
//! `blueskyposts` and `blueskysearches`, computed by their logic in Python from the same files,
//! is found; the session tokens are never copied; each phone's user is the other's
//! correspondent by `bluesky:<DID>`.

use std::path::Path;

use crate::android_support::{assert_rows_in, has_fact, oracle_rows, rows_in, triage};

const ANA: &str = "did:plc:ana4k2m7q9x3v5w8z1c6b0n";
const BEN: &str = "did:plc:ben7r3t9y2u5i8o1p4a6s0d";
const CONVO: &str = "3kqz7x2m4nb2a";

/// argv: Ana's app folder, Ben's, Ana's DID, Ben's, the conversation id.
const WRITE: &str = r#"
import gzip, hashlib, json, os, sqlite3, sys
ana, ben, ANA, BEN, CONVO = sys.argv[1:6]
XRPC = "https://bsky.social/xrpc/"
def storage(app, state, searches):
    os.makedirs(os.path.join(app, "databases"), exist_ok=True)
    db = sqlite3.connect(os.path.join(app, "databases", "RKStorage"))
    db.execute("CREATE TABLE catalystLocalStorage (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
    db.execute("INSERT INTO catalystLocalStorage VALUES ('BSKY_STORAGE', ?)", (json.dumps(state),))
    if searches is not None:
        db.execute("INSERT INTO catalystLocalStorage VALUES ('searchHistory', ?)", (json.dumps(searches, ensure_ascii=False),))
    db.execute("INSERT INTO catalystLocalStorage VALUES ('persist:root', '{}')")
    db.commit()
def entry(app, url, body, ctype="application/json; charset=utf-8", encoding=None, with_body=True):
    cache = os.path.join(app, "cache", "http-cache")
    os.makedirs(cache, exist_ok=True)
    key = hashlib.md5(url.encode()).hexdigest()
    headers = [("content-type", ctype), ("date", "Tue, 19 Nov 2024 10:00:00 GMT")]
    if encoding:
        headers.append(("content-encoding", encoding))
    headers += [("OkHttp-Sent-Millis", "1732010400000"), ("OkHttp-Received-Millis", "1732010400120")]
    meta = [url, "GET", "1", "Authorization: Bearer x", "HTTP/1.1 200 OK", str(len(headers))]
    meta += [f"{k}: {v}" for k, v in headers]
    meta += ["", "TLS_AES_128_GCM_SHA256", "0", "0", "TLSv1.3"]
    open(os.path.join(cache, key + ".0"), "w").write("\n".join(meta) + "\n")
    if with_body:
        open(os.path.join(cache, key + ".1"), "wb").write(body)
    open(os.path.join(cache, "journal"), "a").write(f"CLEAN {key} 100 100\n")
def account(did, handle, email, newer):
    a = {"service": "https://bsky.social/", "did": did, "handle": handle, "email": email,
         "emailConfirmed": True, "refreshJwt": "REFRESHSECRET", "accessJwt": "ACCESSSECRET"}
    if newer:
        a.update({"emailAuthFactor": False, "active": True, "pdsUrl": "https://morel.us-east.host.bsky.network"})
    return a
def state(acct, newer):
    s = {"colorMode": "system", "session": {"accounts": [acct], "currentAccount": {"did": acct["did"]}},
         "reminders": {}, "languagePrefs": {"primaryLanguage": "de", "contentLanguages": ["de", "en"],
         "postLanguage": "de", "postLanguageHistory": ["de", "en"], "appLanguage": "de"},
         "requireAltTextEnabled": False, "mutedThreads": [], "invites": {"copiedInvites": []},
         "onboarding": {"step": "Home"}}
    if newer:
        s.update({"hiddenPosts": ["at://did:plc:spam0000000000000000000/app.bsky.feed.post/3kspam"],
                  "lastSelectedHomeFeed": "following", "pdsAddressHistory": []})
    return s
ana_p = {"did": ANA, "handle": "ana.bsky.social", "displayName": "Ana Lindqvist", "description": "Malmö · ceramics",
         "avatar": "https://cdn.bsky.app/img/avatar/plain/ana/a1@jpeg", "followersCount": 212, "followsCount": 180,
         "postsCount": 96, "createdAt": "2023-05-02T08:11:09.000Z", "indexedAt": "2024-11-18T21:00:00.000Z",
         "viewer": {"muted": False, "blockedBy": False}, "labels": []}
ben_p = {"did": BEN, "handle": "benmoreau.bsky.social", "displayName": "Ben Moreau",
         "avatar": "https://cdn.bsky.app/img/avatar/plain/ben/b1@jpeg", "createdAt": "2023-09-14T17:40:00.000Z",
         "viewer": {"muted": False, "following": "at://" + ANA + "/app.bsky.graph.follow/3kf1"},
         "labels": [{"src": BEN, "uri": "at://" + BEN + "/app.bsky.actor.profile/self", "val": "!no-unauthenticated"}]}
cara_p = {"did": "did:plc:cara2x8c4v6b1n3m5q7w9e0r", "handle": "cara.example.org", "displayName": "Cara"}
m1 = {"$type": "chat.bsky.convo.defs#messageView", "id": "3kqz8a1", "rev": "2222a",
      "text": "Send the deposit to 0x52908400098527886E0F7030069857D2E4169EE7 today", "facets": [],
      "sender": {"did": BEN}, "sentAt": "2024-11-19T09:58:12.412Z"}
m2 = {"$type": "chat.bsky.convo.defs#messageView", "id": "3kqz8b2", "rev": "2222b",
      "text": "Done 👍 see https://example.org/receipt", "sender": {"did": ANA}, "sentAt": "2024-11-19T09:59:40.001Z",
      "facets": [{"index": {"byteStart": 12, "byteEnd": 39},
                  "features": [{"$type": "app.bsky.richtext.facet#link", "uri": "https://example.org/receipt"}]}],
      "reactions": [{"value": "❤️", "sender": {"did": BEN}, "createdAt": "2024-11-19T10:00:01.000Z"}]}
m3 = {"$type": "chat.bsky.convo.defs#deletedMessageView", "id": "3kqz8c3", "rev": "2222c",
      "sender": {"did": BEN}, "sentAt": "2024-11-19T10:01:00.000Z"}
convo = {"id": CONVO, "rev": "2222c", "members": [ana_p, ben_p], "lastMessage": m3, "muted": False,
         "status": "accepted", "unreadCount": 0}
post = lambda author, rkey, text, created, **kw: dict({"uri": f"at://{author['did']}/app.bsky.feed.post/{rkey}",
         "cid": "bafyrei" + rkey, "author": author,
         "record": dict({"$type": "app.bsky.feed.post", "text": text, "createdAt": created, "langs": ["de"]}, **kw),
         "replyCount": 1, "repostCount": 0, "likeCount": 4, "quoteCount": 0, "indexedAt": created})
p1 = post(ben_p, "3kpost1", "Neue Vasen im Studio", "2024-11-17T12:00:00.000Z")
p2 = post(ana_p, "3kpost2", "Danke! Wallet for the shop: 0x52908400098527886E0F7030069857D2E4169EE7", "2024-11-17T12:30:00.000Z",
          reply={"root": {"uri": p1["uri"], "cid": p1["cid"]}, "parent": {"uri": p1["uri"], "cid": p1["cid"]}})
p3 = post(cara_p, "3kpost3", "Market on Saturday", "2024-11-16T08:00:00.000Z",
          embed={"$type": "app.bsky.embed.external", "external": {"uri": "https://example.org/market", "title": "Market"}})
j = lambda v: json.dumps(v, ensure_ascii=False).encode()
# Ana's phone: the current layout
storage(ana, state(account(ANA, "ana.bsky.social", "ana.lindqvist@posteo.se", True), True), ["benmoreau", "vasen malmö"])
entry(ana, XRPC + f"chat.bsky.convo.getMessages?convoId={CONVO}&limit=50", j({"messages": [m3, m2, m1], "cursor": "x"}))
entry(ana, XRPC + "chat.bsky.convo.listConvos?limit=20", j({"convos": [convo]}))
entry(ana, XRPC + f"app.bsky.actor.getProfile?actor={ANA}", j(ana_p))
entry(ana, XRPC + "app.bsky.actor.searchActorsTypeahead?q=cara&limit=8", j({"actors": [cara_p]}))
entry(ana, XRPC + "app.bsky.feed.getTimeline?limit=30", j({"feed": [{"post": p1}, {"post": p3, "reason": {"$type": "app.bsky.feed.defs#reasonRepost", "by": ben_p}}], "cursor": "y"}))
entry(ana, "https://cdn.bsky.app/img/avatar/plain/ben/b1@jpeg", b"\xff\xd8\xff\xe0JFIF", ctype="image/jpeg")
entry(ana, XRPC + "app.bsky.feed.getAuthorFeed?actor=" + BEN, gzip.compress(j({"feed": [{"post": p1}]})), encoding="gzip")
entry(ana, XRPC + "app.bsky.notification.listNotifications", b"", with_body=False)
entry(ana, XRPC + "app.bsky.feed.getPosts?uris=cut", j({"posts": [p2, p3]})[:40])
# Ben's phone: an older layout, the conversation's log
storage(ben, state(account(BEN, "benmoreau.bsky.social", "ben.moreau@mailbox.org", False), False), None)
entry(ben, XRPC + f"chat.bsky.convo.getConvoForMembers?members={ANA}", j({"convo": convo}))
entry(ben, XRPC + "chat.bsky.convo.getLog", j({"logs": [
    {"$type": "chat.bsky.convo.defs#logCreateMessage", "rev": "2222a", "convoId": CONVO, "message": m1},
    {"$type": "chat.bsky.convo.defs#logCreateMessage", "rev": "2222b", "convoId": CONVO, "message": m2}]}))
entry(ben, XRPC + "app.bsky.feed.getPosts?uris=x", j({"posts": [p2]}))
"#;

/// ALEAPP's rows, by their logic, from an app folder (argv 1) as JSON lines
/// `[kind, key, values…]`: messages and actors of `blueskymessages`, posts of `blueskyposts`.
const ORACLE: &str = r#"
import glob, json, os, sqlite3, sys
app = sys.argv[1]
actors, seen = [], set()
db = sqlite3.connect(os.path.join(app, "databases", "RKStorage"))
for (v,) in db.execute("SELECT value FROM catalystLocalStorage WHERE key = 'BSKY_STORAGE'"):
    a = json.loads(v)["session"]["accounts"][0]
    actors.append(["", a.get("did"), a.get("handle"), "", "", "", "", "", a.get("email")])
docs = []
for f in sorted(glob.glob(os.path.join(app, "cache", "http-cache", "*.*"))):
    try:
        docs.append(json.load(open(f, encoding="utf-8")))
    except Exception:
        pass
s = lambda v: "" if v is None else (v if isinstance(v, str) else "")
for d in docs:
    if not isinstance(d, dict):
        continue
    for i in d.get("actors") or []:
        actors.append([i.get("createdAt") or "", i.get("did"), i.get("handle"), i.get("displayName") or "", s(i.get("avatar")), "", "", "", ""])
    if d.get("did") is not None and len(d) > 1:
        actors.append([d.get("createdAt") or "", d.get("did"), d.get("handle"), d.get("displayName") or "", s(d.get("avatar")), "", "", d.get("description") or "", ""])
for a in actors:
    print(json.dumps(["actor", a[1]] + [x for x in a if x]))
for d in docs:
    if not isinstance(d, dict):
        continue
    for m in d.get("messages") or []:
        h = next((a for a in actors if a[1] == m["sender"]["did"]), None)
        row = [m.get("sentAt"), h[2] if h else "", h[3] if h else "", m.get("text") or "", m["sender"]["did"], m.get("id")]
        print(json.dumps(["message", m.get("id")] + [x for x in row if x]))
    for coll, key in (("Feed", "feed"), ("Posts", "posts")):
        for e in d.get(key) or []:
            p = e.get("post") if coll == "Feed" else e
            r, a = p.get("record", {}), p.get("author", {})
            row = [r.get("createdAt"), a.get("createdAt"), r.get("$type"), a.get("handle"), a.get("displayName"), r.get("text"),
                   p.get("replyCount"), p.get("repostCount"), p.get("likeCount"), p.get("quoteCount"), a.get("avatar"), a.get("did"),
                   ", ".join(r.get("langs") or []), p.get("cid"), p.get("uri")]
            print(json.dumps(["post", p.get("uri")] + [str(x) for x in row if x not in (None, "")]))
"#;

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Each oracle row of `kind` is in a phenomenon titled `prefix…` holding its key and values
/// (ALEAPP joins a post's languages with ", ": each language then).
fn check(all: &[masf_graph::Phenomenon], app: &Path, kind: &str, prefix: &str) -> usize {
    let rows = oracle_rows("python3", ORACLE, &[s(app)], kind);
    let has = |p: &masf_graph::Phenomenon, v: &str| v.split(", ").all(|part| has_fact(p, part));
    assert_rows_in(all, &rows, prefix, 1, &has)
}

#[test]
fn bluesky_on_two_android_phones_of_two_layouts() {
    let tmp = tempfile::tempdir().unwrap();
    let (ana, ben) = (tmp.path().join("ana"), tmp.path().join("ben"));
    let app = |root: &Path| root.join("data/data/xyz.blueskyweb.app");
    for r in [&ana, &ben] {
        std::fs::create_dir_all(app(r)).unwrap();
        std::fs::create_dir_all(r.join("data/system/users/0")).unwrap();
    }
    let st = std::process::Command::new("python3")
        .args(["-c", WRITE, s(&app(&ana)), s(&app(&ben)), ANA, BEN, CONVO])
        .status()
        .unwrap();
    assert!(st.success());
    // a truncated copy of Ben's storage in a second profile
    let other = ben.join("data/user/10/xyz.blueskyweb.app/databases");
    std::fs::create_dir_all(&other).unwrap();
    let bytes = std::fs::read(app(&ben).join("databases/RKStorage")).unwrap();
    std::fs::write(other.join("RKStorage"), &bytes[..bytes.len() / 2]).unwrap();
    let run = triage(&[
        ("ana", &ana, "Europe/Stockholm", Some("SE")),
        ("ben", &ben, "Europe/Paris", Some("FR")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    let all = run.all_phenomena("ana");
    for p in &all {
        assert!(p.warnings.is_empty(), "{}: {:#?}", p.title, p.warnings);
    }
    // ALEAPP's messages (the deleted one too: ALEAPP lists it without text), actors, posts
    assert_eq!(check(&all, &app(&ana), "message", "Bluesky message"), 3);
    assert_eq!(check(&all, &app(&ana), "actor", "Bluesky "), 3);
    assert_eq!(check(&all, &app(&ana), "post", "Bluesky post"), 2);
    // every profile once (by DID): Ana's own, Ben (the fullest of his copies), Cara
    let profiles: Vec<&str> = all
        .iter()
        .filter(|p| p.title.starts_with("Bluesky profile"))
        .map(|p| p.title.as_str())
        .collect();
    assert_eq!(
        profiles,
        [
            "Bluesky profile @ana.bsky.social",
            "Bluesky profile @benmoreau.bsky.social",
            "Bluesky profile @cara.example.org"
        ]
    );
    let ben_profile = all
        .iter()
        .find(|p| p.title == "Bluesky profile @benmoreau.bsky.social")
        .unwrap();
    for v in [
        "!no-unauthenticated",
        &format!("at://{ANA}/app.bsky.graph.follow/3kf1"),
        "2023-09-14T17:40:00.000Z",
    ] {
        assert!(
            ben_profile.verified_facts.iter().any(|f| f.value == v),
            "{v} in {ben_profile:#?}"
        );
    }
    // direction, conversation, links and reactions of the messages
    let sent = all
        .iter()
        .find(|p| p.title == "Bluesky message sent")
        .unwrap();
    for v in [CONVO, "https://example.org/receipt", "❤️", BEN] {
        assert!(
            sent.verified_facts.iter().any(|f| f.value == v),
            "{v} in {sent:#?}"
        );
    }
    assert!(
        all.iter()
            .any(|p| p.title == "Bluesky message from @benmoreau.bsky.social"
                && p.interpretation.contains("that was deleted"))
    );
    let conversation = all
        .iter()
        .find(|p| p.title == "Bluesky conversation with @benmoreau.bsky.social")
        .unwrap();
    for v in [CONVO, "accepted", "ana.bsky.social", BEN] {
        assert!(
            conversation.verified_facts.iter().any(|f| f.value == v),
            "{v} in {conversation:#?}"
        );
    }
    // the post's method, its link
    assert!(all.iter().any(|p| {
        p.title == "Bluesky post by @cara.example.org"
            && p.verified_facts
                .iter()
                .any(|f| f.value == "app.bsky.feed.getTimeline")
            && p.verified_facts
                .iter()
                .any(|f| f.value == "https://example.org/market")
    }));
    // the account, settings and searches of RKStorage (ALEAPP's searches by the sqlite3 CLI)
    let storage = app(&ana).join("databases/RKStorage");
    let account = all
        .iter()
        .filter(|p| p.title == "Bluesky account @ana.bsky.social signed in")
        .collect::<Vec<_>>();
    assert_eq!(
        rows_in(
            &account,
            &storage,
            "SELECT json_extract(a.value, '$.did'), json_extract(a.value, '$.handle'), json_extract(a.value, '$.email'), json_extract(a.value, '$.pdsUrl') FROM catalystLocalStorage k, json_each(k.value, '$.session.accounts') a WHERE k.key = 'BSKY_STORAGE'",
            0,
            ""
        ),
        1
    );
    let searches: Vec<&masf_graph::Phenomenon> = all
        .iter()
        .filter(|p| p.title.starts_with("Bluesky search"))
        .collect();
    assert_eq!(
        rows_in(
            &searches,
            &storage,
            "SELECT j.value FROM catalystLocalStorage k, json_each(k.value) j WHERE k.key LIKE 'searchHistory'",
            0,
            ""
        ),
        2
    );
    assert_eq!(searches.len(), 2);
    assert!(all.iter().any(|p| p.title == "Bluesky settings"
        && p.verified_facts.iter().any(|f| f.value == "following")));
    // the session tokens are never copied
    for who in ["ana", "ben"] {
        assert!(
            !run.all_phenomena(who)
                .iter()
                .any(|p| { p.verified_facts.iter().any(|f| f.value.contains("SECRET")) })
        );
    }
    let owner = run.owner("ana").to_lowercase();
    for id in [
        format!("account_id=bluesky:{ANA}"),
        "account_id=bluesky-handle:ana.bsky.social".to_string(),
        "email=ana.lindqvist@posteo.se".to_string(),
    ] {
        assert!(owner.contains(&id), "{id} in {owner}");
    }
    // the wallet address of the messages and of Ana's own post
    assert!(
        run.identifiers("ana")
            .iter()
            .any(|(t, v)| t == "wallet" && v == "0x52908400098527886e0f7030069857d2e4169ee7"),
        "{:#?}",
        run.identifiers("ana")
    );
    // what could not be read, said: the compressed answer, the missing body, the cut one
    run.assert_noted(
        "ana",
        &[
            (".1", "content-encoding gzip"),
            (".1", "is not in the cache"),
            (".1", "read_json"),
        ],
    );
    // Ben's older layout: the log's messages with their conversation, his posts from getPosts
    let ball = run.all_phenomena("ben");
    let bmsg: Vec<&masf_graph::Phenomenon> = ball
        .iter()
        .filter(|p| p.title.starts_with("Bluesky message"))
        .collect();
    assert_eq!(bmsg.len(), 3, "{bmsg:#?}");
    assert!(
        bmsg.iter()
            .all(|p| p.verified_facts.iter().any(|f| f.value == CONVO))
    );
    assert_eq!(
        bmsg.iter()
            .filter(|p| p.title == "Bluesky message from @ana.bsky.social")
            .count(),
        1
    );
    assert!(
        ball.iter()
            .any(|p| p.title == "Bluesky post by @ana.bsky.social")
    );
    assert!(!ball.iter().any(|p| p.title.starts_with("Bluesky search")));
    run.assert_noted(
        "ben",
        &[(
            "user/10/xyz.blueskyweb.app/databases/RKStorage",
            "malformed",
        )],
    );
    // who is who: each phone's user is the other's correspondent
    let with = crate::who::resolved(&run);
    assert!(
        with("ana/owner").contains(&format!("ben/bluesky:{ANA}")),
        "{:#?}",
        with("ana/owner")
    );
    assert!(
        with("ben/owner").contains(&format!("ana/bluesky:{BEN}")),
        "{:#?}",
        with("ben/owner")
    );
}
