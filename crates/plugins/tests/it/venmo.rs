//! Venmo on iOS (`ios::venmo`): an iPhone's `PrivateFeed` and `FriendsFeed`, written by Python's
//! plistlib (binary property lists) in the structure iLEAPP's venmo module reads (no public feed
//! is in the corpus): a pay, a charge, a disbursement story and a story without a payment.
//! Every field iLEAPP's transactions and users report is found — payer and receiver swapped on a
//! charge, as iLEAPP reads it —, each user once across both feeds, the stories it skips
//! counted in a note; the payer's note address is the payer's claim. Beside them a feed that is
//! no property list and one without stories (noted).

use masf_graph::Phenomenon;

use crate::ios_support::{Outcome, assert_all_accepted, triage};

const WRITE: &str = r#"
import os, plistlib, sys
root = sys.argv[1]
app = os.path.join(root, "private/var/mobile/Containers/Data/Application/7A6B5C4D-3E2F-4A1B-9C8D-7E6F5A4B3C2D/Library/Caches")
os.makedirs(app, exist_ok=True)
def user(i, username, display, first, last, joined):
    return {"id": i, "username": username, "display_name": display, "first_name": first, "last_name": last,
            "friend_status": "friend", "is_blocked": False, "is_active": True, "is_payable": True,
            "identity_type": "personal", "profile_picture_url": "https://pics.venmo.example/u/%s.jpg" % username,
            "date_joined": joined}
dre = user("2650010001", "Dre-Mills", "Dre Mills", "Dre", "Mills", "2017-03-01T10:00:00Z")
kim = user("2650010002", "kimlee_22", "Kim Lee", "Kim", "Lee", "2018-06-15T09:30:00Z")
zed = user("2650010003", "zed-j", "Zed J", "Zed", "J", "2019-01-20T12:00:00Z")
private = {"stories": [
    {"id": "s1", "type": "payment", "audience": "private", "date_created": "2023-11-14T22:13:20Z",
     "payment": {"id": "p1", "type": "payment", "action": "pay", "amount": 300.0, "note": "for the pack, rest to bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq",
                 "status": "settled", "date_completed": "2023-11-14T22:13:25Z", "actor": dre, "target": {"type": "user", "user": kim}}},
    {"id": "s2", "type": "payment", "audience": "friends", "date_created": "2023-11-15T08:00:00Z",
     "payment": {"id": "p2", "type": "payment", "action": "charge", "amount": 45.5, "note": "gas",
                 "status": "pending", "date_completed": None, "actor": kim, "target": {"type": "user", "user": zed}}},
    {"id": "s3", "type": "disbursement", "audience": "private", "date_created": "2023-11-16T09:00:00Z"},
]}
del private["stories"][1]["payment"]["date_completed"]
with open(os.path.join(app, "PrivateFeed"), "wb") as f:
    plistlib.dump(private, f, fmt=plistlib.FMT_BINARY)
friends = {"stories": [
    {"id": "s4", "type": "payment", "audience": "public", "date_created": "2023-11-17T11:00:00Z",
     "payment": {"id": "p4", "type": "payment", "action": "pay", "amount": 12.0, "note": "lunch",
                 "status": "settled", "date_completed": "2023-11-17T11:00:02Z", "actor": zed, "target": {"type": "user", "user": dre}}},
    {"id": "s5", "type": "payment", "audience": "public", "date_created": "2023-11-18T11:00:00Z",
     "payment": {"id": "p5", "type": "refund", "action": "pay", "amount": 1.0, "actor": zed, "target": {"type": "user", "user": dre}}},
]}
with open(os.path.join(app, "FriendsFeed"), "wb") as f:
    plistlib.dump(friends, f, fmt=plistlib.FMT_BINARY)
with open(os.path.join(app, "PublicFeed"), "wb") as f:
    f.write(b"bplist00 cut short")
other = os.path.join(root, "private/var/mobile/Containers/Data/Application/11111111-2222-4333-8444-555555555555/Library/Caches")
os.makedirs(other, exist_ok=True)
with open(os.path.join(other, "PublicFeed"), "wb") as f:
    plistlib.dump({"items": []}, f, fmt=plistlib.FMT_BINARY)
os.makedirs(os.path.join(root, "private/var/mobile/Library"), exist_ok=True)
"#;

fn has(p: &Phenomenon, v: &str) -> bool {
    p.verified_facts.iter().any(|f| f.value == v)
}

#[test]
fn venmo_feeds_payments_and_users() {
    let tmp = tempfile::tempdir().unwrap();
    crate::ios_support::python(WRITE, tmp.path());
    let o: Outcome = triage(tmp.path(), "America/New_York");
    assert_all_accepted(&o);
    let payments: Vec<&Phenomenon> = o
        .category("transactions")
        .into_iter()
        .filter(|p| p.title.starts_with("Venmo payment "))
        .collect();
    let titles: Vec<&str> = payments.iter().map(|p| p.title.as_str()).collect();
    assert_eq!(
        titles,
        [
            "Venmo payment from Dre Mills to Kim Lee: 300.0",
            "Venmo payment from Zed J to Kim Lee: 45.5",
            "Venmo payment from Zed J to Dre Mills: 12.0",
        ]
    );
    // iLEAPP's columns: created, completed, action, payer, payer user name, receiver, receiver
    // user name, note, amount, status, audience
    let pay = payments[0];
    for v in [
        "2023-11-14T22:13:20Z",
        "2023-11-14T22:13:25Z",
        "pay",
        "Dre Mills",
        "Dre-Mills",
        "Kim Lee",
        "kimlee_22",
        "for the pack, rest to bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq",
        "300.0",
        "settled",
        "private",
    ] {
        assert!(has(pay, v), "{v}: {pay:#?}");
    }
    let charge = payments[1];
    assert!(charge.interpretation.contains("Kim Lee charged Zed J 45.5"));
    assert_eq!(charge.times.len(), 1);
    let users: Vec<&Phenomenon> = o
        .findings()
        .into_iter()
        .filter(|p| p.title.starts_with("Venmo user "))
        .collect();
    assert_eq!(users.len(), 3);
    let kim = users
        .iter()
        .find(|p| p.title == "Venmo user Kim Lee")
        .unwrap();
    for v in [
        "2650010002",
        "kimlee_22",
        "Kim",
        "Lee",
        "friend",
        "personal",
        "https://pics.venmo.example/u/kimlee_22.jpg",
        "2018-06-15T09:30:00Z",
    ] {
        assert!(has(kim, v), "{v}: {kim:#?}");
    }
    let ids = o.identities();
    for want in [
        ("venmo:2650010001", "account_id", "venmo:2650010001"),
        ("venmo:2650010001", "account_id", "venmo-user:Dre-Mills"),
        (
            "venmo:2650010001",
            "wallet",
            "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq",
        ),
    ] {
        assert!(
            ids.iter()
                .any(|(c, t, v)| c == want.0 && t == want.1 && v.eq_ignore_ascii_case(want.2)),
            "{want:?} in {ids:#?}"
        );
    }
    o.assert_noted("FriendsFeed", "not pay or charge payments");
    o.assert_noted("PrivateFeed", "not pay or charge payments");
    assert!(
        o.unparsed.iter().any(|u| u
            .artefact
            .ends_with("7E6F5A4B3C2D/Library/Caches/PublicFeed")),
        "{:#?}",
        o.unparsed
    );
    o.assert_noted("555555555555/Library/Caches/PublicFeed", "no stories array");
}
