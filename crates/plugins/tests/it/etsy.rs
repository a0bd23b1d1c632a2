//! Etsy's stores and preferences (`android::etsy`) on two Android phones and a third tree, written
//! by `tests/fixtures/etsy/etsy.py` (Python's sqlite3 — real SQLite, phone A's stores in WAL mode
//! copied with their -wal while open — and the preference files ALEAPP's etsy reads). The
//! generator's record is the oracle: the account (its e-mail, `etsy:` id, login and name the
//! owner's), every listing viewed, listing interaction (with the leading number and ten-digit
//! value of its encoded data), ad impression and click, app log record (its JSON members) and
//! the install id and start times; the rows the app dropped after the last checkpoint given back
//! by `sqlite_wal_history` (a listing's earlier view time, a deleted view, interaction and log
//! record); phone B's older tables read; on phone C a truncated copy and a store of another layout
//! noted, another app's `server_config.xml` neither read nor noted; the encrypted preferences
//! noted, their values in no phenomenon.

use crate::android_support::{generate, has_fact, time_values, titled, triage};

#[test]
fn etsy_account_views_interactions_ads_and_logs_on_two_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/etsy/etsy.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b, c) = (
        tmp.path().join("a"),
        tmp.path().join("b"),
        tmp.path().join("c"),
    );
    let run = triage(&[
        ("a", &a, "Europe/Dublin", Some("IE")),
        ("b", &b, "America/Denver", Some("US")),
        ("c", &c, "Europe/Dublin", Some("IE")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    let s = |v: &serde_json::Value| v.as_str().unwrap().to_string();
    let list = |v: &serde_json::Value| v.as_array().cloned().unwrap_or_default();
    for source in ["a", "b"] {
        let o = &o[source];
        let all = run.all_phenomena(source);
        let count = |prefix: &str| all.iter().filter(|p| p.title.starts_with(prefix)).count();
        // listings viewed, live
        let views = list(&o["views"]);
        assert_eq!(count("Etsy listing viewed "), views.len());
        for v in &views {
            let p = titled(&all, &format!("Etsy listing viewed {}", s(&v["title"])));
            assert_eq!(p.category, "transactions");
            for k in ["listingId", "imageUrl", "orig", "disc", "rating", "count"] {
                if let Some(x) = v.get(k) {
                    assert!(has_fact(p, &s(x)), "{k}: {p:#?}");
                }
            }
            assert_eq!(time_values(p), vec![s(&v["timestamp"])]);
        }
        // and the views only the database file's replaced page still holds
        let views_back = list(&o["views_recovered"]);
        assert_eq!(
            all.iter()
                .filter(
                    |p| p.title.contains("Etsy listing view ") && p.title.ends_with("(recovered)")
                )
                .count(),
            views_back.len()
        );
        for v in &views_back {
            let p = titled(
                &all,
                &format!(
                    "{} Etsy listing view {} (recovered)",
                    s(&v["word"]),
                    s(&v["title"])
                ),
            );
            assert!(has_fact(p, &s(&v["listingId"])), "{p:#?}");
            assert_eq!(time_values(p), vec![s(&v["timestamp"])]);
        }
        // listing interactions, live and recovered
        let inter = list(&o["interactions"]);
        assert_eq!(count("Etsy listing interaction "), inter.len());
        for r in &inter {
            let p = titled(
                &all,
                &format!(
                    "Etsy listing interaction {} ({})",
                    s(&r["id"]),
                    s(&r["interaction_type"])
                ),
            );
            for k in [
                "logging_key",
                "display_loc",
                "listing_source",
                "position",
                "lead",
            ] {
                if let Some(x) = r.get(k) {
                    assert!(has_fact(p, &s(x)), "{k}: {p:#?}");
                }
            }
            let mut times = vec![s(&r["timestamp"])];
            if let Some(t) = r.get("encoded_time") {
                times.push(s(t));
            }
            times.sort();
            assert_eq!(time_values(p), times, "{p:#?}");
            // the encoded data's base64 part is not reproduced
            assert!(
                !p.verified_facts.iter().any(|f| f.value.contains("Q2hpcHM")),
                "{p:#?}"
            );
        }
        for r in list(&o["interactions_recovered"]) {
            let p = titled(
                &all,
                &format!(
                    "{} Etsy listing interaction {} (recovered)",
                    s(&r["word"]),
                    s(&r["id"])
                ),
            );
            assert!(has_fact(p, &s(&r["logging_key"])), "{p:#?}");
            assert_eq!(time_values(p), vec![s(&r["timestamp"])]);
        }
        // ads shown and tapped
        for i in list(&o["impressions"]) {
            let p = titled(
                &all,
                &format!(
                    "Etsy ad impression {} ({})",
                    s(&i["loggingKey"]),
                    s(&i["displayLocation"])
                ),
            );
            assert_eq!(time_values(p), vec![s(&i["timestamp"])]);
        }
        for k in list(&o["clicks"]) {
            let p = titled(&all, &format!("Etsy ad click {}", s(&k["id"])));
            assert!(has_fact(p, &s(&k["loggingKey"])), "{p:#?}");
            assert_eq!(time_values(p), vec![s(&k["timestamp"])]);
        }
        assert_eq!(count("Etsy ad impression "), list(&o["impressions"]).len());
        // the app's log records, live and recovered
        for r in list(&o["logs"]) {
            let p = titled(&all, &format!("Etsy app log {} (log)", s(&r["id"])));
            for k in ["namespace", "message"] {
                assert!(has_fact(p, &s(&r[k])), "{k}: {p:#?}");
            }
            assert!(has_fact(p, "6.95.0") && has_fact(p, "Pixel 7"), "{p:#?}");
            assert_eq!(time_values(p), vec![s(&r["created"])]);
        }
        for r in list(&o["logs_recovered"]) {
            let p = titled(
                &all,
                &format!("{} Etsy app log {} (recovered)", s(&r["word"]), s(&r["id"])),
            );
            assert!(has_fact(p, &s(&r["json"])), "{p:#?}");
        }
        assert_eq!(count("Etsy app log "), list(&o["logs"]).len());
        // the account signed in is the owner's
        let u = &o["user"];
        let p = titled(&all, &format!("Etsy account {}", s(&u["etsyUserLogin"])));
        assert_eq!(p.category, "accounts");
        for (_, v) in u.as_object().unwrap() {
            assert!(has_fact(p, &s(v)), "{v}: {p:#?}");
        }
        let owner = run.owner(source);
        assert!(
            owner.contains(&format!("etsy:{}", s(&u["etsyUserId"]))),
            "{owner}"
        );
        match u.get("user_primary_email") {
            Some(e) => assert!(owner.contains(&format!("email={}", s(e))), "{owner}"),
            None => assert!(!owner.contains("email="), "{owner}"),
        }
    }
    // phone A: the install id, the app's start times, the server configuration
    let all = run.all_phenomena("a");
    let oa = &o["a"];
    let install = titled(&all, "Etsy install id");
    assert!(has_fact(install, &s(&oa["device_id"])), "{install:#?}");
    let starts = titled(&all, "Etsy app starts");
    let want: Vec<String> = list(&oa["starts"]).iter().map(s).collect();
    assert_eq!(time_values(starts), want);
    let config = titled(&all, "Etsy server configuration");
    assert_eq!(time_values(config), vec![s(&oa["server_config"])]);
    // the encrypted preferences are noted, their values never a fact
    run.assert_noted(
        "a",
        &[("SecureEtsyUserPrefs.xml", "EncryptedSharedPreferences")],
    );
    let hidden = s(&oa["encrypted_value"]);
    assert!(
        !all.iter()
            .any(|p| p.verified_facts.iter().any(|f| f.value.contains(&hidden)))
    );
    // phone B has no recovered rows, no ads, no logs
    assert!(
        !run.all_phenomena("b")
            .iter()
            .any(|p| p.title.ends_with("(recovered)") || p.title.starts_with("Etsy ad "))
    );
    // phone C
    run.assert_noted(
        "c",
        &[
            (
                "user/10/com.etsy.android/databases/ListingInteractions",
                "malformed",
            ),
            (
                "user/11/com.etsy.android/databases/recentlyViewedListings",
                "recentlyViewedListings",
            ),
        ],
    );
    let other = s(&o["other_config"]);
    assert!(
        !run.all_phenomena("c")
            .iter()
            .any(|p| p.title.starts_with("Etsy ")
                || p.verified_facts.iter().any(|f| f.value == other))
    );
    assert!(
        !run.unparsed("c")
            .iter()
            .any(|u| u.artefact.contains("com.other.shop"))
    );
}
