//! Weibo's stores (`android::weibo`) on two Android phones, written by
//! `tests/fixtures/weibo/weibo.py` (Python's sqlite3 and json, the tables, columns and JSON
//! members ALEAPP's weibo reads). The generator's record is the oracle: every cached timeline
//! post with its text, author, counts, topics and created time (the stored `Wed May 21 11:00:20
//! +0800 2025` and its ISO 8601 form); the cut document read by its item id; every long post
//! with its `#sina#`-joined values as stored; every post image with its URLs; the account the
//! rows are filed under observed as the owner's `weibo:<uid>`, each author a `weibo:<id>`
//! person; phone B's older layout read; a truncated `feed_database` and another app's
//! `ArticleDb.db` noted.

use crate::android_support::{generate, has_fact, time_values, titled, triage};

#[test]
fn weibo_timeline_long_posts_and_images_on_two_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/weibo/weibo.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let run = triage(&[
        ("a", &a, "Asia/Shanghai", Some("CN")),
        ("b", &b, "Asia/Shanghai", Some("CN")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    let s = |v: &serde_json::Value, k: &str| v[k].as_str().map(str::to_string);
    for source in ["a", "b"] {
        let o = &o[source];
        let all = run.all_phenomena(source);
        let count = |prefix: &str| all.iter().filter(|p| p.title.starts_with(prefix)).count();
        let owner = s(o, "owner").unwrap();
        // the account the rows are filed under: the owner's
        assert!(
            all.iter()
                .any(|p| p.title == format!("Weibo account {owner}") && p.category == "accounts"),
            "{all:#?}"
        );
        assert!(
            run.owner(source)
                .contains(&format!("account_id=weibo:{owner}")),
            "{}",
            run.owner(source)
        );
        // timeline posts: one per row with a document, the cut one by its item id
        let posts = o["posts"].as_array().unwrap();
        assert_eq!(
            count("Weibo post ") - count("Weibo post image "),
            posts.len()
        );
        for e in posts {
            let title = match (s(e, "post_id"), s(e, "author")) {
                (Some(id), Some(a)) => format!("Weibo post {id} by {a}"),
                (Some(id), None) => format!("Weibo post {id}"),
                _ => format!("Weibo post {}", s(e, "item_id").unwrap()),
            };
            let p = titled(&all, &title);
            assert_eq!(p.category, "social");
            for k in [
                "text",
                "qualified",
                "uid",
                "region",
                "likes",
                "topics",
                "created_at",
                "pic_ids",
                "item_id",
            ] {
                if let Some(v) = s(e, k) {
                    assert!(has_fact(p, &v), "{k} {v}: {p:#?}");
                }
            }
            match s(e, "created") {
                Some(iso) => assert_eq!(time_values(p), vec![iso]),
                None => assert!(p.times.is_empty(), "{p:#?}"),
            }
            // each author a weibo:<id> person with the screen name
            if let (Some(q), Some(a)) = (s(e, "qualified"), s(e, "author")) {
                assert!(
                    run.entities(source)
                        .iter()
                        .any(|x| x.starts_with(&format!("{q} [Person] {a}"))),
                    "{q}: {:#?}",
                    run.entities(source)
                );
            }
        }
        // long posts, with their values as stored
        let long = o["long"].as_array().unwrap();
        assert_eq!(count("Weibo long post "), long.len());
        for e in long {
            let p = titled(&all, &format!("Weibo long post {}", s(e, "_mid").unwrap()));
            for k in [
                "_content",
                "_page_title",
                "_page_short_url",
                "_page_ori_url",
                "_page_type",
                "_own_uid",
                "topics",
            ] {
                if let Some(v) = s(e, k) {
                    assert!(has_fact(p, &v), "{k} {v}: {p:#?}");
                }
            }
        }
        let images = o["images"].as_array().unwrap();
        assert_eq!(count("Weibo post image "), images.len());
        for e in images {
            let p = titled(
                &all,
                &format!("Weibo post image {}", s(e, "picid").unwrap()),
            );
            for k in ["mblogid", "originalurl", "thumbnailurl", "originalwidth"] {
                assert!(has_fact(p, &s(e, k).unwrap()), "{k}: {p:#?}");
            }
        }
    }
    // phone A: the joined values of a long post kept whole, the verified author's reason
    let all = run.all_phenomena("a");
    let long = titled(&all, "Weibo long post 5038520077451236");
    assert!(has_fact(long, "评测长文#sina#视频"), "{long:#?}");
    let post = titled(&all, "Weibo post 5038520077451236 by 数码小王");
    assert!(
        has_fact(post, "知名数码博主") && has_fact(post, "1204"),
        "{post:#?}"
    );
    run.assert_noted(
        "b",
        &[
            (
                "user/10/com.sina.weibo/databases/feed_database",
                "malformed",
            ),
            (
                "user/11/com.sina.weibo/databases/ArticleDb.db",
                "no table long_text_table",
            ),
        ],
    );
}
