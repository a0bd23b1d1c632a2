//! Microsoft Authenticator's `PhoneFactor` (`android::msauthenticator`) on two Android phones,
//! written by `tests/fixtures/msauthenticator/msauthenticator.py` (Python's sqlite3, the table
//! and columns ALEAPP's MicrosoftAuthenticator reads and the others the app's `accounts` keeps).
//! The generator's record is the oracle: every account with its service, user name, type and
//! directory ids; the user names that are e-mail addresses observed as the owner's, a service's
//! own login not; an older table on phone B read; a truncated copy and a store of another layout
//! noted; and no secret (seed, PIN, keys, token) in any output of the run.

use crate::android_support::{generate, has_fact, titled, triage};

#[test]
fn microsoft_authenticator_accounts_on_two_android_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/msauthenticator/msauthenticator.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let run = triage(&[
        ("a", &a, "Europe/Prague", Some("CZ")),
        ("b", &b, "America/Toronto", Some("CA")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for source in ["a", "b"] {
        let o = &o[source];
        let all = run.all_phenomena(source);
        let accounts = o["accounts"].as_array().unwrap();
        let found: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("Microsoft Authenticator account "))
            .collect();
        assert_eq!(found.len(), accounts.len(), "{found:#?}");
        let owner = run.owner(source);
        for acc in accounts {
            let user = acc["username"].as_str().unwrap();
            let service = acc["name"].as_str().unwrap();
            let p = titled(
                &all,
                &format!("Microsoft Authenticator account {user} ({service})"),
            );
            assert_eq!(p.category, "accounts");
            for k in [
                "account_type",
                "aad_tenant_id",
                "aad_user_id",
                "cid",
                "puid",
                "paws_url",
            ] {
                if let Some(v) = acc.get(k).and_then(|v| v.as_str()) {
                    assert!(has_fact(p, v), "{k}: {p:#?}");
                }
            }
            assert!(p.times.is_empty(), "the store keeps no time: {p:#?}");
            // e-mail addresses (and user principal names) are the owner's, a login is not
            assert_eq!(
                owner.contains(&format!("email={user}")),
                user.contains('@'),
                "{user}: {owner}"
            );
        }
        // never a secret, in a phenomenon or in any output the run logged
        let secrets: Vec<&str> = o["secrets"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_str().unwrap())
            .collect();
        assert!(!secrets.is_empty());
        for (tool, args, text) in run.outputs(source) {
            for s in &secrets {
                assert!(!text.contains(s), "{s} in {tool} {args}");
            }
        }
        for p in &all {
            for s in &secrets {
                assert!(
                    !p.verified_facts.iter().any(|f| f.value.contains(s)),
                    "{s}: {p:#?}"
                );
            }
        }
    }
    // the work account of phone A with its tenant's country and data boundary
    let all = run.all_phenomena("a");
    let work = titled(
        &all,
        "Microsoft Authenticator account j.novak@contoso-logistics.example (Contoso Logistics)",
    );
    assert!(has_fact(work, "DE") && has_fact(work, "EU"), "{work:#?}");
    run.assert_noted(
        "b",
        &[
            (
                "user/10/com.azure.authenticator/databases/PhoneFactor",
                "malformed",
            ),
            (
                "user/11/com.azure.authenticator/databases/PhoneFactor",
                "accounts",
            ),
        ],
    );
}
