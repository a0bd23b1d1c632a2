//! MetaMask Mobile on two phones, its state files written by Python's `json` module in the
//! two layouts the app has used (React Native's redux-persist through
//! `redux-persist-filesystem-storage`): an iPhone's `Documents/persistStore/persist-root`
//! (to 7.x: every reducer a JSON text inside the file, the engine's controllers under
//! `engine` → `backgroundState`, the older transaction shape) and an Android phone's
//! `files/persistStore/persist-<Controller>` files (since 7.4x: one plain JSON file per
//! controller, `AccountsController`, `txParams`). Beside them: another React Native app's
//! `persist-root` (passed over), a truncated copy (noted with its offset, the rest read), and a
//! recovery phrase stored in clear (redacted, never logged). Then resolution: the iPhone's
//! account, named in the Android phone's address book, is one wallet on both.

use std::path::Path;

use crate::android_support::triage;

const IPHONE_ACCOUNT: &str = "0x8ba1f109551bd432803012645ac136ddd64dba72";
const OTC_DESK: &str = "0x1f9840a85d5af5bf1d1762f925bdaddc4201f984";
const ANDROID_ACCOUNT: &str = "0xab5801a7d398351b8be11c439e05c5b3259aec9b";
const TX_HASH: &str = "0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060";
const PHRASE: &str = "legal winner thank year wave sausage worth useful legal winner thank yellow";

const WRITE: &str = r#"
import json, os, sys
kind, root = sys.argv[1], sys.argv[2]
iphone, otc, android, txh, phrase = sys.argv[3:8]
def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    open(path, "w").write(text)
if kind == "ios":
    docs = root + "/private/var/mobile/Containers/Data/Application/6F1C7A52-0D3B-4E1F-9A44-8B2D51C0E7F3/Documents"
    engine = {"backgroundState": {
        "PreferencesController": {"selectedAddress": iphone, "identities": {
            iphone: {"address": iphone, "name": "Leung 主帳戶", "importTime": 1699990000000}}},
        "AccountTrackerController": {"accounts": {iphone: {"balance": "0x2386f26fc10000"}}},
        "AddressBookController": {"addressBook": {"0x1": {
            otc: {"address": otc, "chainId": "0x1", "name": "Mia OTC desk", "memo": "", "isEns": False}}}},
        "TransactionController": {"transactions": [{
            "id": "b6a0c4e0-7d1f-11ee-9a3c-8f2b3c4d5e6f", "chainId": "0x1", "networkID": "1",
            "status": "confirmed", "time": 1700000000000, "transactionHash": txh,
            "transaction": {"from": iphone, "to": otc, "value": "0xde0b6b3a7640000", "gas": "0x5208"}}]},
        "KeyringController": {"vault": json.dumps({"data": "q1w2e3", "iv": "aXY=", "salt": "c2FsdA=="})},
        "TokenListController": {"tokenList": {("0x%040x" % i): {"symbol": "T%d" % i} for i in range(500)}}}}
    state = {"engine": json.dumps(engine),
             "browser": json.dumps({"history": [{"name": "Uniswap Interface", "url": "https://app.uniswap.org/#/swap"},
                                                {"name": "", "url": "https://etherscan.io/address/" + otc}]}),
             "user": json.dumps({"backUpSeedphraseVisible": False, "seedphrase": phrase}),
             "_persist": json.dumps({"version": 29, "rehydrated": True})}
    text = json.dumps(state)
    write(docs + "/persistStore/persist-root", text)
    # another React Native app's store, and a copy cut short
    write(root + "/private/var/mobile/Containers/Data/Application/0A1B2C3D-4E5F-4A6B-8C7D-9E0F1A2B3C4D/Documents/persistStore/persist-root",
          json.dumps({"auth": json.dumps({"token": "abc"}), "_persist": json.dumps({"version": -1})}))
    write(root + "/private/var/mobile/Containers/Data/Application/11111111-2222-4333-8444-555555555555/Documents/persistStore/persist-root",
          text[:len(text) // 3])
    os.makedirs(root + "/private/var/mobile/Library", exist_ok=True)
    os.makedirs(root + "/private/var/mobile/Media", exist_ok=True)
else:
    store = root + "/data/data/io.metamask/files/persistStore/"
    persist = {"version": 1, "rehydrated": True}
    write(store + "persist-AccountsController", json.dumps({"internalAccounts": {
        "selectedAccount": "9d6a7a8e-1c1e-4b6f-a0d8-7e0d1c2b3a49",
        "accounts": {"9d6a7a8e-1c1e-4b6f-a0d8-7e0d1c2b3a49": {
            "id": "9d6a7a8e-1c1e-4b6f-a0d8-7e0d1c2b3a49", "address": android, "type": "eip155:eoa",
            "metadata": {"name": "Mia", "importTime": 1698000000000, "keyring": {"type": "HD Key Tree"}}}}},
        "_persist": persist}))
    write(store + "persist-AddressBookController", json.dumps({"addressBook": {"0x1": {
        iphone: {"address": iphone, "chainId": "0x1", "name": "Leung", "memo": "", "isEns": False}}}, "_persist": persist}))
    write(store + "persist-TransactionController", json.dumps({"transactions": [{
        "id": "0c3b5a70-7d20-11ee-8f1a-1b2c3d4e5f60", "chainId": "0x1", "status": "confirmed", "time": 1700000600000,
        "hash": txh, "txParams": {"from": iphone, "to": otc, "value": "0xde0b6b3a7640000"}}], "_persist": persist}))
    write(store + "persist-TokenListController", json.dumps({"tokenList": {}, "_persist": persist}))
    os.makedirs(root + "/data/system/users/0", exist_ok=True)
    os.makedirs(root + "/data/user/0/com.android.providers.telephony", exist_ok=True)
"#;

fn write(kind: &str, root: &Path) {
    let st = std::process::Command::new("python3")
        .args(["-c", WRITE, kind])
        .arg(root)
        .args([IPHONE_ACCOUNT, OTC_DESK, ANDROID_ACCOUNT, TX_HASH, PHRASE])
        .status()
        .unwrap();
    assert!(st.success());
}

#[test]
fn metamask_mobile_on_an_iphone_and_an_android_phone() {
    let tmp = tempfile::tempdir().unwrap();
    let (iphone, android) = (tmp.path().join("iphone"), tmp.path().join("android"));
    write("ios", &iphone);
    write("android", &android);
    let run = triage(&[
        ("ios", &iphone, "Asia/Hong_Kong", None),
        ("android", &android, "Asia/Hong_Kong", None),
    ]);
    assert_eq!(run.report("ios").plugin.as_deref(), Some("ios"));
    assert_eq!(run.report("android").plugin.as_deref(), Some("android"));
    assert_eq!(run.rejections(), Vec::<String>::new());
    for source in ["ios", "android"] {
        for p in run.all_phenomena(source) {
            assert!(p.warnings.is_empty(), "{}: {:#?}", p.title, p.warnings);
        }
    }

    // the iPhone: the 7.x persist-root
    let ios = run.all_phenomena("ios");
    let find = |list: &[masf_graph::Phenomenon], start: &str| -> masf_graph::Phenomenon {
        list.iter()
            .find(|p| p.title.starts_with(start))
            .unwrap_or_else(|| {
                panic!(
                    "{start}: {:#?}",
                    list.iter().map(|p| &p.title).collect::<Vec<_>>()
                )
            })
            .clone()
    };
    let values = |p: &masf_graph::Phenomenon| -> Vec<String> {
        p.verified_facts.iter().map(|f| f.value.clone()).collect()
    };
    let wallet = find(&ios, "MetaMask Mobile wallet on the device: 1 account");
    for v in [
        IPHONE_ACCOUNT,
        "Leung 主帳戶",
        "0x2386f26fc10000",
        "1699990000000",
    ] {
        assert!(values(&wallet).iter().any(|x| x == v), "{v}: {wallet:#?}");
    }
    assert!(
        wallet
            .interpretation
            .contains("balance 0x2386f26fc10000 wei = 0.01 in the chain's native coin"),
        "{}",
        wallet.interpretation
    );
    assert!(wallet.interpretation.contains(", selected"));
    assert!(
        wallet
            .interpretation
            .contains("Its key store (vault) is present")
    );
    assert!(
        wallet
            .interpretation
            .contains("1 secret value(s) (a recovery phrase or password) are stored in clear text")
    );
    let book = find(
        &ios,
        "MetaMask Mobile address book on the device: 1 entries",
    );
    assert!(values(&book).iter().any(|v| v == "Mia OTC desk"));
    let tx = find(&ios, "MetaMask Mobile transaction 0x5c504ed432…: 1");
    for v in [TX_HASH, IPHONE_ACCOUNT, OTC_DESK, "1700000000000"] {
        assert!(values(&tx).iter().any(|x| x == v), "{v}");
    }
    let web = find(&ios, "MetaMask Mobile in-app browser: 2 pages visited");
    assert!(
        values(&web)
            .iter()
            .any(|v| v == "https://app.uniswap.org/#/swap")
    );
    assert_eq!(web.category, "web");
    // one wallet only: the other app's store said nothing, the cut copy was noted
    assert_eq!(
        ios.iter()
            .filter(|p| p.title.starts_with("MetaMask Mobile wallet"))
            .count(),
        1
    );
    let unparsed = run.unparsed("ios");
    let cut = unparsed
        .iter()
        .find(|u| u.artefact.contains("11111111-2222-4333-8444-555555555555"))
        .unwrap_or_else(|| panic!("{unparsed:#?}"));
    assert!(
        cut.reason.contains("not JSON: EOF while parsing") && cut.reason.contains("byte offset"),
        "{}",
        cut.reason
    );
    // the recovery phrase never left the evidence
    for (_, _, text) in run.outputs("ios") {
        assert!(!text.contains("legal winner"), "{text}");
    }

    // the Android phone: one file per controller, the token list not read
    let and = run.all_phenomena("android");
    let wallet = find(&and, "MetaMask Mobile wallet on the device: 1 account");
    for v in [ANDROID_ACCOUNT, "Mia", "1698000000000"] {
        assert!(values(&wallet).iter().any(|x| x == v), "{v}");
    }
    let book = find(
        &and,
        "MetaMask Mobile address book on the device: 1 entries",
    );
    assert!(values(&book).iter().any(|v| v == "Leung"));
    find(&and, "MetaMask Mobile transaction 0x5c504ed432…: 1");
    assert!(
        !run.outputs("android")
            .iter()
            .any(|(tool, args, _)| tool == "read_json" && args.contains("TokenListController"))
    );

    // each phone's own account is its user's claim; the iPhone's account is one wallet on both
    for (source, account) in [("ios", IPHONE_ACCOUNT), ("android", ANDROID_ACCOUNT)] {
        let entities = run.entities(source);
        assert!(
            entities
                .iter()
                .any(|e| e.starts_with("owner [") && e.contains(account)),
            "{entities:#?}"
        );
    }
    crate::who::resolve(&run);
    let state = run.session.state().unwrap();
    let actors = masf_graph::resolution::actors(&state);
    let name = |id: &str| {
        let e = &state.entities()[id];
        format!("{}/{}", e.source_id, e.context)
    };
    let wallet_ctx = format!("wallet:{IPHONE_ACCOUNT}");
    let together: Vec<String> = actors
        .iter()
        .find(|a| {
            a.entities
                .iter()
                .any(|e| name(e) == format!("ios/{wallet_ctx}"))
        })
        .map(|a| a.entities.iter().map(|e| name(e)).collect())
        .unwrap_or_default();
    assert!(
        together.contains(&format!("android/{wallet_ctx}")),
        "{together:#?}"
    );
}

/// Coinbase Wallet's `wallet-rn-v2.sqlite` built with the sqlite3 CLI in the two shapes the
/// app has written (the columns of iLEAPP's `coinbaseWallet` reader: the older store without
/// `mpcConversionState`, `isDeleted`, `hasCompletedBackupFlow`, `isSpam`, `isWhitelist` and
/// with the older `tx_history`), in two app containers of one iPhone; beside them a copy with
/// none of its tables, one that is no database, and one whose `tx_history_v2` lacks
/// `txHash`: each noted, the rest read.
#[test]
fn coinbase_wallet_accounts_addresses_assets_and_transactions() {
    const ACCOUNT: &str = "0x7e5f4552091a69125d5dfcb7b8c2659029395bdf";
    const SEGWIT: &str = "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4";
    const SENDER: &str = "0x2b5ad5c4795c026514f8317c7a215e218dccd6cf";
    const HASH: &str = "0x88df016429689c079f3b2f6ad39fa052532c56795b733da78a91ebe6a713944b";
    let tmp = tempfile::tempdir().unwrap();
    let apps = tmp
        .path()
        .join("private/var/mobile/Containers/Data/Application");
    std::fs::create_dir_all(tmp.path().join("private/var/mobile/Library")).unwrap();
    let sqlite3 = crate::ios_nearby::sqlite3;
    let store = |uuid: &str| {
        apps.join(uuid)
            .join("Documents/default/wallet-rn-v2.sqlite")
    };
    let (newer, older) = (
        store("3B0E7A61-52C4-4F0B-9A1D-6C2E8F4B7D10"),
        store("9C4D2E1F-7A6B-4C3D-8E9F-0A1B2C3D4E5F"),
    );
    let tables = |extra_account: &str, extra_wallet: &str, old_tx: bool| {
        format!(
            "CREATE TABLE account (id TEXT PRIMARY KEY, createdAt TEXT, type TEXT, primaryAddressChain TEXT, primaryAddress TEXT, nickname TEXT{extra_account});
             CREATE TABLE wallet_group (id TEXT PRIMARY KEY, accountId TEXT, createdAt TEXT, nickname TEXT, walletIndex TEXT, isHidden INTEGER, hardwareDerivationPath TEXT);
             CREATE TABLE address (id TEXT PRIMARY KEY, address TEXT, indexStr TEXT, currencyCodeStr TEXT, networkStr TEXT, typeStr TEXT, blockchainStr TEXT, derivationPath TEXT, isUsedStr TEXT, isChangeAddressStr TEXT, balanceStr TEXT, contractAddress TEXT, accountId TEXT);
             CREATE TABLE wallet (id TEXT PRIMARY KEY, displayName TEXT, currencyCodeStr TEXT, blockchainStr TEXT, networkStr TEXT, balanceStr TEXT, decimalsStr TEXT, minimumBalanceStr TEXT, primaryAddress TEXT, contractAddress TEXT, imageURLStr TEXT, accountId TEXT, assetUUID TEXT, lastBalanceUpdateTxHash TEXT{extra_wallet});
             CREATE TABLE tx_history_v2 (id TEXT PRIMARY KEY, createdAt TEXT, confirmedAt TEXT, type TEXT, state INTEGER, isSent INTEGER, fromAddress TEXT, fromDomain TEXT, toAddress TEXT, toDomain TEXT, amount TEXT, fee TEXT, tokenName TEXT, tokenDecimal TEXT, currencyCodeStr TEXT, feeCurrencyCodeStr TEXT, blockchainStr TEXT, networkStr TEXT, txHash TEXT, contractAddress TEXT, nonce INTEGER, gasLimit TEXT, maxFeePerGas TEXT, maxPriorityFeePerGas TEXT, baseFeePerGas TEXT, txSubmissionType TEXT, transfersStr TEXT, metadataStrArray TEXT, walletId TEXT);
             {}",
            if old_tx {
                "CREATE TABLE tx_history (id TEXT PRIMARY KEY, createdAt TEXT, isSent INTEGER, fromAddress TEXT, toAddress TEXT, amount TEXT, txHash TEXT);"
            } else {
                ""
            }
        )
    };
    let rows = |acct: &str| {
        format!(
            "INSERT INTO account (id, createdAt, type, primaryAddressChain, primaryAddress, nickname) VALUES ('{acct}', '2024-05-01 10:00:00.123', 'mnemonic', 'ETH', '{ACCOUNT}', NULL);
             INSERT INTO wallet_group VALUES ('grp-{acct}', '{acct}', '2024-05-01 10:00:01', 'Main', '0', 0, NULL);
             INSERT INTO address VALUES ('a1-{acct}', '{ACCOUNT}', '0', 'ETH', 'ethereum_mainnet', 'EthereumAddress', 'ETH', 'm/44''/60''/0''/0/0', 'true', 'false', '25000000000000000', NULL, '{acct}'),
                                       ('a2-{acct}', '{SEGWIT}', '0', 'BTC', 'bitcoin_mainnet', 'BitcoinSegWit', 'BTC', 'm/84''/0''/0''/0/0', 'false', 'false', '0', NULL, '{acct}');
             INSERT INTO wallet (id, displayName, currencyCodeStr, blockchainStr, networkStr, balanceStr, decimalsStr, primaryAddress, imageURLStr, accountId) VALUES
                ('w1-{acct}', 'Ethereum', 'ETH', 'ETH', 'ethereum_mainnet', '25000000000000000', '18', '{ACCOUNT}', 'https://wallet-api-production.s3.amazonaws.com/uploads/tokens/eth_288.png', '{acct}');
             INSERT INTO tx_history_v2 (id, createdAt, confirmedAt, type, state, isSent, fromAddress, toAddress, toDomain, amount, fee, currencyCodeStr, blockchainStr, networkStr, txHash, transfersStr, walletId) VALUES
                ('t1-{acct}', '2024-05-02 08:30:00', '2024-05-02 08:30:45', 'RECEIVE', 3, 0, '{SENDER}', '{ACCOUNT}', 'leung.cb.id', '25000000000000000', '21000', 'ETH', 'ETH', 'ethereum_mainnet', '{HASH}', '[]', 'w1-{acct}');"
        )
    };
    sqlite3(
        &newer,
        &format!(
            "{}{}",
            tables(
                ", mpcConversionState TEXT, isDeleted INTEGER, hasCompletedBackupFlow INTEGER",
                ", isSpam INTEGER, isWhitelist INTEGER",
                false
            ),
            rows("acct-17")
        ),
    );
    sqlite3(
        &older,
        &format!("{}{}", tables("", "", true), rows("acct-16")),
    );
    sqlite3(
        &store("00000000-0000-4000-8000-000000000001"),
        "CREATE TABLE preferences (k TEXT, v TEXT); INSERT INTO preferences VALUES ('a', 'b');",
    );
    let junk = store("00000000-0000-4000-8000-000000000002");
    std::fs::create_dir_all(junk.parent().unwrap()).unwrap();
    std::fs::write(&junk, b"SQLite format 3\0 but cut short").unwrap();
    sqlite3(
        &store("00000000-0000-4000-8000-000000000003"),
        "CREATE TABLE tx_history_v2 (id TEXT, amount TEXT);",
    );

    let o = crate::ios_support::triage(tmp.path(), "Asia/Hong_Kong");
    crate::ios_support::assert_all_accepted(&o);
    let titles: Vec<&str> = o.findings().iter().map(|p| p.title.as_str()).collect();
    for (start, n) in [
        ("Coinbase Wallet account ", 2),
        ("Coinbase Wallet address ", 4),
        (
            "Coinbase Wallet asset Ethereum: balance 25000000000000000",
            2,
        ),
        (
            "Coinbase Wallet transaction 0x88df016429… (received): 25000000000000000 ETH",
            2,
        ),
    ] {
        assert_eq!(
            titles.iter().filter(|t| t.starts_with(start)).count(),
            n,
            "{start}: {titles:#?}"
        );
    }
    let account = o
        .findings()
        .into_iter()
        .find(|p| {
            p.title == format!("Coinbase Wallet account {ACCOUNT}")
                && p.interpretation.contains("acct-17")
        })
        .unwrap()
        .clone();
    let values = crate::ios_support::Outcome::values(&account);
    for v in [
        ACCOUNT,
        "acct-17",
        "Main",
        "mnemonic",
        "2024-05-01T10:00:00.123Z",
        "2024-05-01T10:00:01Z",
    ] {
        assert!(values.contains(&v), "{v}: {values:?}");
    }
    assert!(
        account
            .interpretation
            .contains("created (stored, UTC) 2024-05-01 10:00:00.123")
    );
    let segwit = o
        .findings()
        .into_iter()
        .find(|p| p.title == format!("Coinbase Wallet address {SEGWIT} (BTC)"))
        .unwrap();
    assert!(crate::ios_support::Outcome::values(segwit).contains(&"m/84'/0'/0'/0/0"));
    let tx = o
        .findings()
        .into_iter()
        .find(|p| p.title.starts_with("Coinbase Wallet transaction"))
        .unwrap();
    let values = crate::ios_support::Outcome::values(tx);
    for v in [
        HASH,
        SENDER,
        ACCOUNT,
        "leung.cb.id",
        "21000",
        "2024-05-02T08:30:00Z",
        "2024-05-02T08:30:45Z",
    ] {
        assert!(values.contains(&v), "{v}: {values:?}");
    }
    assert_eq!(tx.category, "transactions");
    // the older store's empty tx_history is read (no row), its missing columns are NULL
    assert!(
        !o.unparsed.iter().any(|u| u.artefact.contains("9C4D2E1F")),
        "{:#?}",
        o.unparsed
    );
    // every address the app derived is the device user's claim; the sender is a wallet only
    let ids = o.identities();
    for a in [ACCOUNT, SEGWIT] {
        assert!(
            ids.iter()
                .any(|(c, t, v)| c == "owner" && t == "wallet" && v.starts_with(a)),
            "{a}: {ids:#?}"
        );
    }
    assert!(ids.iter().any(|(c, _, _)| c == &format!("wallet:{SENDER}")));
    assert!(
        !ids.iter()
            .any(|(c, _, v)| c == "owner" && v.starts_with(SENDER))
    );
    // the copies that do not read are noted, naming why
    o.assert_noted(
        "00000000-0000-4000-8000-000000000001/Documents/default/wallet-rn-v2.sqlite",
        "none of the tables",
    );
    o.noted("00000000-0000-4000-8000-000000000002/Documents/default/wallet-rn-v2.sqlite");
    o.assert_noted(
        "00000000-0000-4000-8000-000000000003/Documents/default/wallet-rn-v2.sqlite",
        "txHash",
    );
}

/// MetaMask Mobile before its state moved to files: React Native's iOS AsyncStorage
/// (`RCTAsyncLocalStorage_V1/`), whose `manifest.json` holds small values and names a large one
/// `null`, keeping it in a file named by the MD5 of its key (here `persist:root`, the name
/// computed by Python's hashlib). Written by Python's json module.
#[test]
fn metamask_mobile_in_async_storage() {
    const ACCOUNT: &str = "0x6813eb9362372eef6200f3b1dbc3f819671cba69";
    let tmp = tempfile::tempdir().unwrap();
    let script = r#"
import hashlib, json, os, sys
root, account = sys.argv[1], sys.argv[2]
store = root + "/private/var/mobile/Containers/Data/Application/5E2D1C0B-9A8F-4E7D-8C6B-5A4F3E2D1C0B/Documents/RCTAsyncLocalStorage_V1"
os.makedirs(store, exist_ok=True)
engine = {"backgroundState": {
    "PreferencesController": {"selectedAddress": account, "identities": {account: {"address": account, "name": "Wallet 2020"}}},
    "AccountTrackerController": {"accounts": {account: {"balance": "0x0"}}}}}
json.dump({"@MetaMask:existingUser": "true", "persist:root": None}, open(store + "/manifest.json", "w"))
open(store + "/" + hashlib.md5(b"persist:root").hexdigest(), "w").write(json.dumps({"engine": json.dumps(engine), "_persist": json.dumps({"version": 2})}))
os.makedirs(root + "/private/var/mobile/Library", exist_ok=True)
print(hashlib.md5(b"persist:root").hexdigest())
"#;
    let out = std::process::Command::new("python3")
        .args(["-c", script])
        .arg(tmp.path())
        .arg(ACCOUNT)
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        masf_plugins::wallets::async_storage_name()
    );
    let o = crate::ios_support::triage(tmp.path(), "Asia/Hong_Kong");
    crate::ios_support::assert_all_accepted(&o);
    let wallet = o
        .findings()
        .into_iter()
        .find(|p| p.title == "MetaMask Mobile wallet on the device: 1 account")
        .unwrap_or_else(|| {
            panic!(
                "{:#?}",
                o.findings().iter().map(|p| &p.title).collect::<Vec<_>>()
            )
        });
    let values = crate::ios_support::Outcome::values(wallet);
    assert!(
        values.contains(&ACCOUNT) && values.contains(&"Wallet 2020"),
        "{values:?}"
    );
    assert!(wallet.interpretation.contains("/RCTAsyncLocalStorage_V1"));
    assert!(
        o.identities()
            .iter()
            .any(|(c, t, v)| c == "owner" && t == "wallet" && v.starts_with(ACCOUNT))
    );
}

/// MetaMask Mobile on Android before its state moved to files: React Native's AsyncStorage
/// database `RKStorage` (`catalystLocalStorage`), written by Python's sqlite3 module with the
/// `persist:root` row as the app wrote it; beside it another app's `RKStorage` without that row
/// (passed over).
#[test]
fn metamask_mobile_in_android_rkstorage() {
    const ACCOUNT: &str = "0xe0fc04fa2d34a66b779fd5cee748268032a146c0";
    const FRIEND: &str = "0x2546bcd3c84621e976d8185a91a922ae77ecec30";
    let tmp = tempfile::tempdir().unwrap();
    let script = r#"
import json, os, sqlite3, sys
root, account, friend = sys.argv[1:4]
def store(app, rows):
    d = root + "/data/data/" + app + "/databases"
    os.makedirs(d, exist_ok=True)
    db = sqlite3.connect(d + "/RKStorage")
    db.execute("CREATE TABLE catalystLocalStorage (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
    db.executemany("INSERT INTO catalystLocalStorage VALUES (?, ?)", rows)
    db.commit()
engine = {"backgroundState": {
    "PreferencesController": {"selectedAddress": account, "identities": {account: {"address": account, "name": "Account 1", "importTime": 1600000000000}}},
    "AddressBookController": {"addressBook": {"1": {friend: {"address": friend, "chainId": "1", "name": "Chan OTC", "memo": ""}}}},
    "TransactionController": {"transactions": [{"id": "1", "networkID": "1", "status": "confirmed", "time": 1600000500000,
        "transaction": {"from": account, "to": friend, "value": "0x1bc16d674ec80000"},
        "transactionHash": "0x9f1c8e6a2b7d4f5e3c1a0b9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a3b2c1d0e9f"}]}}}
state = {"engine": json.dumps(engine), "browser": json.dumps({"history": [{"name": "PancakeSwap", "url": "https://pancakeswap.finance/"}]}),
         "_persist": json.dumps({"version": 1, "rehydrated": True})}
store("io.metamask", [("persist:root", json.dumps(state)), ("@MetaMask:existingUser", "true")])
store("com.example.rnapp", [("persist:auth", json.dumps({"token": "abc"}))])
os.makedirs(root + "/data/system/users/0", exist_ok=True)
os.makedirs(root + "/data/user/0/com.android.providers.telephony", exist_ok=True)
"#;
    let st = std::process::Command::new("python3")
        .args(["-c", script])
        .arg(tmp.path())
        .args([ACCOUNT, FRIEND])
        .status()
        .unwrap();
    assert!(st.success());
    let run = triage(&[("android", tmp.path(), "Asia/Hong_Kong", None)]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    let all = run.all_phenomena("android");
    for p in &all {
        assert!(p.warnings.is_empty(), "{}: {:#?}", p.title, p.warnings);
    }
    let titles: Vec<&str> = all.iter().map(|p| p.title.as_str()).collect();
    for t in [
        "MetaMask Mobile wallet on the device: 1 account",
        "MetaMask Mobile address book on the device: 1 entries",
        "MetaMask Mobile transaction 0x9f1c8e6a2b…: 2",
        "MetaMask Mobile in-app browser: 1 page visited",
    ] {
        assert_eq!(
            titles.iter().filter(|x| **x == t).count(),
            1,
            "{t}: {titles:#?}"
        );
    }
    let wallet = all
        .iter()
        .find(|p| p.title == "MetaMask Mobile wallet on the device: 1 account")
        .unwrap();
    assert!(
        wallet
            .verified_facts
            .iter()
            .any(|f| f.value == "1600000000000")
    );
    assert!(
        wallet
            .interpretation
            .contains("io.metamask/databases/RKStorage")
    );
    assert!(
        run.entities("android")
            .iter()
            .any(|e| e.starts_with("owner [") && e.contains(ACCOUNT))
    );
    assert!(
        run.unparsed("android").is_empty(),
        "{:#?}",
        run.unparsed("android")
    );
}
