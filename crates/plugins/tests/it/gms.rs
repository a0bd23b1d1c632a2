//! Google Play services' identity stores (`android::gms`): two Android devices'
//! `constellation.db` (one without the newer `sim_slot` column) and `google_account_history.db`,
//! written by `tests/fixtures/gms/gms.py` (sqlite3; no public copy is in the corpus). The
//! generator's record is the oracle: every verified SIM number with its IMSI and time (the
//! number the owner's, the IMSI the device's) and every account change (the account the
//! owner's); a store of another schema is noted and the rest still read.

use crate::android_support::{generate, has_fact, triage};

#[test]
fn verified_sim_numbers_and_google_account_history() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/gms/gms.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (pixel, galaxy) = (tmp.path().join("pixel"), tmp.path().join("galaxy"));
    // the Galaxy's account history in a foreign schema: noted
    let db = galaxy.join("data/data/com.google.android.gms/databases/google_account_history.db");
    let st = std::process::Command::new("sqlite3")
        .arg(&db)
        .arg("ALTER TABLE AccountHistory RENAME COLUMN account_name TO who;")
        .status()
        .unwrap();
    assert!(st.success());
    let run = triage(&[
        ("pixel", &pixel, "Europe/Berlin", Some("DE")),
        ("galaxy", &galaxy, "Europe/Berlin", Some("DE")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for source in ["pixel", "galaxy"] {
        let all = run.all_phenomena(source);
        let ids = run.identifiers(source);
        for s in o[source]["sims"].as_array().unwrap() {
            let number = s["number"].as_str().unwrap();
            let p = all
                .iter()
                .find(|p| p.title == format!("SIM number verified by Google: {number}"))
                .unwrap_or_else(|| panic!("{source}: {number}"));
            for v in [
                s["imsi"].as_str().unwrap().to_string(),
                s["time"].to_string(),
            ] {
                assert!(has_fact(p, &v), "{v}: {p:#?}");
            }
            assert_eq!(p.times.len(), 1);
            assert!(ids.contains(&("phone".into(), number.into())), "{ids:?}");
            assert!(
                ids.contains(&("imsi".into(), s["imsi"].as_str().unwrap().into())),
                "{ids:?}"
            );
            if let Some(slot) = s.get("slot") {
                assert!(
                    p.interpretation.contains(&format!("slot {slot}")),
                    "{}",
                    p.interpretation
                );
            }
        }
        if source == "galaxy" {
            run.assert_noted(source, &[("google_account_history.db", "account_name")]);
            continue;
        }
        for h in o[source]["history"].as_array().unwrap() {
            let account = h["account"].as_str().unwrap();
            let p = all
                .iter()
                .find(|p| {
                    p.title == format!("Google account change: {account} (type {})", h["type"])
                })
                .unwrap_or_else(|| panic!("{source}: {account}"));
            if let Some(d) = h["data"].as_str() {
                assert!(has_fact(p, d), "{p:#?}");
            }
            assert!(
                ids.contains(&("google_account".into(), account.into())),
                "{ids:?}"
            );
        }
    }
}
