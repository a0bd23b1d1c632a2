//! Browser wallet extensions on file trees: the MetaMask LevelDB files of four real Chrome and
//! Chromium profiles (the corpus's `wallet/metamask/`, MetaMask 2.14, 4.17, 10.24 and a
//! Windows Chrome table file) placed where Windows and Linux keep a profile, read by the disk
//! plugin's tree triage; then resolution gives each wallet account to the profile's user.

use std::path::Path;

use masf_graph::resolution;
use masf_testkit::corpus;

use crate::android_support::triage;
use crate::who::resolve;

const METAMASK: &str = "nkbihfbeogaeaoehlefnkodbefgpgknn";
const PHANTOM: &str = "bfnaelmomeimhlpmgjnjophhpkkoljpa";
const WIN: &str = "Users/leung/AppData/Local/Google/Chrome/User Data/Default";
const LINUX: &str = "home/chan/.config/google-chrome/Profile 1";

fn put(root: &Path, rel: &str, corpus_file: &str) {
    let to = root.join(rel);
    std::fs::create_dir_all(to.parent().unwrap()).unwrap();
    std::fs::copy(corpus::path(corpus_file), to).unwrap();
}

/// The mnemonics the corpus's oracle gives for the four files (none may leave the evidence).
fn mnemonics() -> Vec<String> {
    corpus::text("wallet/metamask/METAMASK_ORACLES.md")
        .lines()
        .filter(|l| l.starts_with("| walletrs-"))
        .filter_map(|l| l.split('|').nth(4).map(|m| m.trim().to_string()))
        .filter(|m| m.split_whitespace().count() == 12)
        .collect()
}

#[test]
fn metamask_accounts_address_books_and_secrets_on_two_profiles() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("laptops");
    let ext = |profile: &str, id: &str, file: &str| {
        format!("{profile}/Local Extension Settings/{id}/{file}")
    };
    put(
        &root,
        &ext(WIN, METAMASK, "000003.log"),
        "wallet/metamask/walletrs-chromium-108.0_5359.98_4.10.24.2_000003.log",
    );
    put(
        &root,
        &ext(LINUX, METAMASK, "000003.log"),
        "wallet/metamask/walletrs-chromium-94.0.4606.81_4.17_000003.log",
    );
    put(
        &root,
        &ext(LINUX, METAMASK, "000005.ldb"),
        "wallet/metamask/walletrs-chrome-windows-1_000005.ldb",
    );
    put(
        &root,
        &format!("{LINUX}/Local Storage/leveldb/000003.log"),
        "wallet/metamask/walletrs-chromium-90-0.4430.72_2.14.1_000003.log",
    );
    // real MetaMask bytes under another wallet's id: not read as MetaMask's state
    put(
        &root,
        &ext(LINUX, PHANTOM, "000003.log"),
        "wallet/metamask/walletrs-chromium-94.0.4606.81_4.17_000003.log",
    );
    std::fs::write(
        root.join(WIN).join("Preferences"),
        r#"{"account_info":[{"email":"yl.leung.wallets@gmail.com","full_name":"LEUNG Yuk Lam","gaia":"1234"}],"profile":{"name":"Person 1"}}"#,
    )
    .unwrap();

    let run = triage(&[("laptops", &root, "Asia/Hong_Kong", Some("HK"))]);
    assert_eq!(run.report("laptops").plugin.as_deref(), Some("disk"));
    assert_eq!(run.rejections(), Vec::<String>::new());
    let titles: Vec<String> = run
        .phenomena("laptops")
        .into_iter()
        .filter(|p| p.starts_with("wallets |") || p.starts_with("transactions |"))
        .collect();
    let win = format!("/{WIN}");
    let linux = format!("/{LINUX}");
    assert_eq!(
        titles,
        [
            format!("wallets | MetaMask wallet in browser profile {win}: 1 account"),
            format!("wallets | Wallet addresses in the Phantom store of browser profile {linux}"),
            // MetaMask 4.17's log and a table of another version in one store
            format!("wallets | MetaMask wallet in browser profile {linux}: 2 accounts"),
            // the Local Storage of MetaMask 2.14: three accounts, two named by the user
            format!("wallets | MetaMask wallet in browser profile {linux}: 3 accounts"),
        ]
        .iter()
        .map(|t| t.to_string())
        .collect::<Vec<_>>(),
        "{:#?}",
        run.phenomena("laptops")
    );
    let unparsed: Vec<String> = run
        .unparsed("laptops")
        .into_iter()
        .map(|u| u.reason)
        .collect();
    assert!(
        unparsed
            .iter()
            .any(|r| r.contains("Phantom extension's state format is not parsed")),
        "{unparsed:?}"
    );

    let mut entities = run.entities("laptops");
    entities.retain(|e| e.starts_with("browser-profile:") || e.starts_with("named:"));
    assert_eq!(
        entities,
        [
            format!(
                "browser-profile:{win} [Person] user of browser profile {win}: display_name=leung yuk lam, email=yl.leung.wallets@gmail.com, wallet=0x1aece8ddbbc4cc2dcdfa47fc78750a6e9910e80a"
            ),
            // 0x1993… is the account of the Windows Chrome table file's MetaMask
            format!(
                "browser-profile:{linux} [Person] user of browser profile {linux}: wallet=0x173f9bcfe086d0c36e6dae31f001dd003f5292b5, wallet=0x199320969f735fd3cfaaf95e534cd9fa6ab3e9dd, wallet=0x95c4aef5886a6201035fe4c458e4ad952f4a8f84, wallet=0xd7703838fe974458221eda637dd8b92d41db2cb2, wallet=0xdf8bd147f86a05b875720f4ec4645214e2cd81f0"
            ),
        ]
    );
    // The 2.14 wallet's names ("no 3") are the user's names for their own accounts.
    let all = run.all_phenomena("laptops");
    let v214 = all
        .iter()
        .find(|p| p.title.ends_with(": 3 accounts"))
        .expect("the 2.14 wallet");
    assert!(
        v214.interpretation
            .contains("0xdf8bd147f86a05b875720f4ec4645214e2cd81f0 (\"no 3\")"),
        "{}",
        v214.interpretation
    );
    assert!(
        v214.interpretation.contains("secret value(s)"),
        "{}",
        v214.interpretation
    );

    // No recovery phrase reaches a logged output, a phenomenon or an interpretation.
    let secrets = mnemonics();
    assert_eq!(secrets.len(), 4, "the oracle's four mnemonics");
    let outputs = run.outputs("laptops");
    let leveldb: Vec<_> = outputs
        .iter()
        .filter(|(t, _, _)| t == "leveldb_records")
        .collect();
    // one call per store, two for the Local Storage (MetaMask's keys, then its origin's)
    assert_eq!(leveldb.len(), 5);
    for m in &secrets {
        let first_two: String = m.split_whitespace().take(3).collect::<Vec<_>>().join(" ");
        for (tool, args, text) in &outputs {
            assert!(
                !text.contains(&first_two),
                "{tool} {args} holds a recovery phrase"
            );
        }
        for p in &all {
            assert!(!p.interpretation.contains(&first_two) && !p.title.contains(&first_two));
        }
    }

    // Resolution: each account is controlled by the profile's user; the Windows one joins
    // the actor of the signed-in Google account.
    resolve(&run);
    let state = run.session.state().unwrap();
    let actors = resolution::actors(&state);
    let label_of = |id: &str| {
        state
            .entities()
            .get(id)
            .map(|e| e.context.clone())
            .unwrap_or_default()
    };
    let with = |ctx: &str| {
        actors
            .iter()
            .find(|a| a.entities.iter().any(|e| label_of(e) == ctx))
            .map(|a| a.entities.iter().map(|e| label_of(e)).collect::<Vec<_>>())
            .unwrap_or_default()
    };
    let leung = with(&format!("browser-profile:{win}"));
    assert!(
        leung.contains(&"wallet:0x1aece8ddbbc4cc2dcdfa47fc78750a6e9910e80a".to_string()),
        "{leung:?}"
    );
    let chan = with(&format!("browser-profile:{linux}"));
    for a in [
        "0xd7703838fe974458221eda637dd8b92d41db2cb2",
        "0x173f9bcfe086d0c36e6dae31f001dd003f5292b5",
    ] {
        assert!(chan.contains(&format!("wallet:{a}")), "{chan:?}");
    }
    assert!(
        !chan.iter().any(|e| leung.contains(e)),
        "two profiles' users merged"
    );
}
