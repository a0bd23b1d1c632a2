//! Google Chat's `dynamite.db` (`crate::gchat`, shared by the Android and iOS plugins): an
//! Android phone's store inside Gmail (`user_accounts/<e-mail>/`) and an iPhone's of an older
//! layout (`user_accounts/<user id>/`), both from `tests/fixtures/gchat/` (built by the sqlite3
//! CLI, the protobuf columns encoded by `protoc --encode`). Every row and field of ALEAPP's four
//! queries (run by the CLI; its inner joins made left joins, a message whose conversation and
//! creator are not cached being read here too) is found, and the values encoded in the
//! annotation and reaction protobufs; each phone's user is the account its folder names, and
//! the users resolve across the two platforms by Google account id and e-mail. Beside them a
//! truncated copy and a store of another layout (noted), and another app's `dynamite.db`
//! (passed over).

use masf_graph::Phenomenon;

use crate::android_support::{check, copy_fixture, triage};

const DANA: &str = "105000000000000000001";
const RAVI: &str = "105000000000000000002";

/// ALEAPP's get_googleChat (its annotation decoding checked below), joins made left joins.
const MESSAGES: &str = "SELECT topic_messages.create_time, Groups.name, users.name, topic_messages.text_body, topic_messages.group_id, topic_messages.creator_id, topic_messages.message_id FROM topic_messages LEFT JOIN Groups on Groups.group_id=topic_messages.group_id LEFT JOIN users ON users.user_id=topic_messages.creator_id ORDER BY topic_messages.create_time ASC";
/// ALEAPP's get_googleChat_groups, its join made a left join.
const GROUPS: &str = "SELECT Groups.create_time, Groups.name, users.name, Groups.last_view_time, Groups.group_id FROM Groups LEFT JOIN users ON users.user_id=Groups.creator_id ORDER BY Groups.create_time ASC";
const DRAFTS: &str = "SELECT drafts.group_id, drafts.topic_id, drafts.text, Groups.name, drafts.group_type FROM drafts LEFT JOIN Groups on drafts.group_id = Groups.group_id";
const USERS: &str = "SELECT last_updated_time_micros, user_id, name, email, avatar_url, dasher_customer_id FROM users";

#[test]
fn google_chat_on_an_android_phone_and_an_iphone() {
    let tmp = tempfile::tempdir().unwrap();
    let phone = tmp.path().join("dana-android");
    let adb = phone.join(
        "data/data/com.google.android.gm/databases/user_accounts/dana.whitfield@gmail.example/dynamite.db",
    );
    copy_fixture(&adb, "gchat/dynamite.db");
    let bytes = std::fs::read(&adb).unwrap();
    let cut = phone.join(
        "data/user/10/com.google.android.gm/databases/user_accounts/x@example.com/dynamite.db",
    );
    std::fs::create_dir_all(cut.parent().unwrap()).unwrap();
    std::fs::write(&cut, &bytes[..bytes.len() / 3]).unwrap();
    crate::ios_nearby::sqlite3(
        &phone.join("data/user/11/com.google.android.apps.dynamite/databases/dynamite.db"),
        "CREATE TABLE things (a TEXT);",
    );
    let other = phone.join("data/data/com.example.chat/databases/user_accounts/y/dynamite.db");
    std::fs::create_dir_all(other.parent().unwrap()).unwrap();
    std::fs::copy(&adb, &other).unwrap();
    std::fs::create_dir_all(phone.join("data/system/users/0")).unwrap();

    let iphone = tmp.path().join("ravi-iphone");
    let idb = iphone.join(format!(
        "private/var/mobile/Containers/Data/Application/4C3B2A19-0F8E-4D7C-9B6A-5F4E3D2C1B0A/Documents/user_accounts/{RAVI}/dynamite.db"
    ));
    copy_fixture(&idb, "gchat/dynamite-ios.db");
    std::fs::create_dir_all(iphone.join("private/var/mobile/Library")).unwrap();

    let run = triage(&[
        ("dana-android", &phone, "Europe/London", Some("GB")),
        ("ravi-iphone", &iphone, "Europe/London", Some("GB")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    let a = run.all_phenomena("dana-android");
    let i = run.all_phenomena("ravi-iphone");
    for p in a.iter().chain(&i) {
        assert!(p.warnings.is_empty(), "{}: {:#?}", p.title, p.warnings);
    }
    assert_eq!(check(&a, "Google Chat message", &adb, MESSAGES, 6), 5);
    assert_eq!(
        check(
            &a,
            "Google Chat group conversation",
            &adb,
            &format!("{GROUPS} LIMIT 1"),
            4
        ),
        1
    );
    assert_eq!(
        check(
            &a,
            "Google Chat one-to-one conversation",
            &adb,
            &format!(
                "{} WHERE Groups.group_type = 2",
                GROUPS.replace(" ORDER BY Groups.create_time ASC", "")
            ),
            4
        ),
        1
    );
    assert_eq!(check(&a, "Google Chat draft", &adb, DRAFTS, 2), 1);
    assert_eq!(check(&a, "Google Chat user", &adb, USERS, 1), 3);
    assert_eq!(
        check(
            &i,
            "Google Chat message",
            &idb,
            "SELECT topic_messages.create_time, Groups.name, users.name, topic_messages.text_body, topic_messages.message_id FROM topic_messages LEFT JOIN Groups on Groups.group_id=topic_messages.group_id LEFT JOIN users ON users.user_id=topic_messages.creator_id",
            4
        ),
        2
    );
    // the protobuf values (as generate.sh encoded them; ALEAPP's and iLEAPP's paths)
    let has = |p: &Phenomenon, v: &str| p.verified_facts.iter().any(|f| f.value == v);
    let by_id = |id: &str| {
        a.iter()
            .find(|p| p.title.starts_with("Google Chat message") && has(p, id))
            .unwrap_or_else(|| panic!("{id}"))
    };
    for v in ["invoice-4471.jpg", "image/jpeg", "1536", "2048", "👍", RAVI] {
        assert!(has(by_id("m2"), v), "{v} in {:#?}", by_id("m2"));
    }
    for v in ["abc-mnop-xyz", "https://meet.google.com/abc-mnop-xyz"] {
        assert!(has(by_id("m3"), v), "{v}");
    }
    for v in [
        "qrs-tuvw-xyz",
        "https://meet.google.com/qrs-tuvw-xyz",
        "Ravi Menon",
    ] {
        assert!(has(by_id("m4"), v), "{v}");
    }
    // direction by the folder's account (an e-mail on Android, a user id on iOS)
    assert!(
        by_id("m1")
            .title
            .starts_with("Google Chat message sent in Ravi Menon")
    );
    assert!(
        by_id("m2")
            .title
            .starts_with("Google Chat message from Ravi Menon")
    );
    assert!(
        i.iter()
            .any(|p| p.title == "Google Chat message sent in Dana Whitfield")
    );
    assert!(
        run.owner("dana-android")
            .contains(&format!("account_id={DANA}"))
            && run
                .owner("dana-android")
                .contains("email=dana.whitfield@gmail.example"),
        "{}",
        run.owner("dana-android")
    );
    let with = crate::who::resolved(&run);
    for (member, known_as) in [
        ("dana-android/owner", format!("ravi-iphone/gchat:{DANA}")),
        ("ravi-iphone/owner", format!("dana-android/gchat:{RAVI}")),
    ] {
        assert!(
            with(member).contains(&known_as),
            "{member}: {:#?}",
            with(member)
        );
    }
    assert!(
        run.owner("dana-android")
            .contains("wallet=0x52908400098527886e0f7030069857d2e4169ee7")
    );
    assert!(
        !a.iter().any(|p| p.title.starts_with("Google Chat ")
            && p.verified_facts
                .iter()
                .any(|f| f.value.contains("com.example.chat"))),
        "another app's dynamite.db was read"
    );
    run.assert_noted(
        "dana-android",
        &[
            ("user_accounts/x@example.com/dynamite.db", "malformed"),
            (
                "com.google.android.apps.dynamite/databases/dynamite.db",
                "none of the tables topic_messages",
            ),
        ],
    );
}
