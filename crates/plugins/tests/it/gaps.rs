//! Deleted rows shown by the gaps in a table's keys (`plugins::gaps`): the corpus's real Messages
//! store (plaso's `imessage_chat.db`, Messages' `chat.db`: 10 messages left of 236 ROWIDs given
//! out, 226 GUIDs in `deleted_messages`) read as an iPhone's `sms.db`, and the generated
//! extractions of `tests/fixtures/wal/sms_wal.py` (two Android phones' `mmssms.db` and an iPhone's
//! `sms.db`, messages deleted by Python's sqlite3): every deleted key lies in one recorded gap,
//! whose count and neighbours are the store's.

use crate::android_support::{generate, has_fact, triage};

/// (before, after, missing, last issued) of each gap phenomenon of the messages of `all`.
fn gaps(all: &[masf_graph::Phenomenon]) -> Vec<(i64, Option<i64>, i64, Option<i64>)> {
    all.iter()
        .filter(|p| p.category == "messages" && p.title.contains(" missing "))
        .map(|p| {
            let words: Vec<&str> = p.title.split(' ').collect();
            let missing: i64 = words[0].parse().unwrap();
            let nums: Vec<i64> = words.iter().filter_map(|w| w.parse().ok()).collect();
            let (before, after) = if p.title.contains(" between ") {
                (nums[1], Some(nums[2]))
            } else if p.title.contains(" before ") {
                (0, Some(nums[1]))
            } else {
                (nums[1], None)
            };
            let last = p
                .interpretation
                .split(" while ")
                .nth(1)
                .and_then(|r| r.split(' ').next())
                .and_then(|n| n.parse().ok());
            (before, after, missing, last)
        })
        .collect()
}

#[test]
fn deleted_messages_shown_by_missing_keys_on_real_and_generated_stores() {
    let tmp = tempfile::tempdir().unwrap();
    let real = tmp.path().join("r/private/var/mobile/Library/SMS/sms.db");
    std::fs::create_dir_all(real.parent().unwrap()).unwrap();
    std::fs::copy(
        masf_testkit::corpus::path("ios/plaso-imessage_chat.db"),
        &real,
    )
    .unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/wal/sms_wal.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let p = |n: &str| tmp.path().join(n);
    let run = triage(&[
        ("r", &p("r"), "America/Los_Angeles", Some("US")),
        ("a", &p("a"), "Europe/London", Some("GB")),
        ("c", &p("c"), "Europe/London", Some("GB")),
        ("e", &p("e"), "Europe/London", Some("GB")),
        ("d", &p("d"), "Europe/Berlin", Some("DE")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());

    // the real store: the 226 messages deleted after ROWID 10, and their GUIDs
    let all = run.all_phenomena("r");
    let g = gaps(&all);
    assert_eq!(g, [(10, None, 226, Some(236))], "{all:#?}");
    let gap = all
        .iter()
        .find(|p| p.title == "226 messages missing after ROWID 10")
        .unwrap();
    for v in [
        "226",
        "236",
        "9CB10CCD-5B14-4884-830D-2C492851BA6D",
        "470777093",
    ] {
        assert!(has_fact(gap, v), "{v}: {gap:#?}");
    }
    assert_eq!(gap.times.len(), 1);
    let deleted: Vec<_> = all
        .iter()
        .filter(|p| p.title.starts_with("Deleted message "))
        .collect();
    assert_eq!(deleted.len(), 226);
    assert!(deleted.iter().any(|p| p.title
        == "Deleted message A0B425E8-7FEC-415C-B440-3E5CE3A6BED1"
        && has_fact(p, "1")));

    // generated iPhones (`message` is AUTOINCREMENT): every deleted key is in one gap
    for source in ["a", "e"] {
        let all = run.all_phenomena(source);
        let g = gaps(&all);
        let deleted: Vec<i64> = o[source]["deleted"]
            .as_object()
            .unwrap()
            .keys()
            .map(|k| k.parse().unwrap())
            .collect();
        assert!(!deleted.is_empty());
        for k in &deleted {
            assert!(
                g.iter().any(|(b, a, _, last)| *b < *k
                    && match a {
                        Some(a) => k < a,
                        None => last.is_some_and(|l| *k <= l),
                    }),
                "{source}: key {k} in no gap: {g:?}"
            );
        }
        let total: i64 = g.iter().map(|(_, _, m, _)| m).sum();
        assert_eq!(total, deleted.len() as i64, "{source}: {g:?}");
    }
    // generated Android phones (`sms` is not AUTOINCREMENT): a deleted message between two left
    // is seen; the last one deleted (phone c's _id 101) leaves no trace in the keys
    assert_eq!(gaps(&run.all_phenomena("c")), [(30, Some(32), 1, None)]);
    assert_eq!(gaps(&run.all_phenomena("d")), [(11, Some(13), 1, None)]);
}
