//! LevelDB files of the MetaMask browser extension from real Chrome/Chromium profiles (the
//! corpus's `wallet/metamask/`, four MetaMask versions from 2.14 to 10.24): every record read,
//! checksums checked, and the values the extension wrote parse as the JSON it wrote.

use masf_evidence::leveldb::{self, FileKind, State};
use masf_testkit::corpus;
use serde_json::Value;

const LOG_108: &str = "wallet/metamask/walletrs-chromium-108.0_5359.98_4.10.24.2_000003.log";
const LOG_94: &str = "wallet/metamask/walletrs-chromium-94.0.4606.81_4.17_000003.log";
const LOG_90: &str = "wallet/metamask/walletrs-chromium-90-0.4430.72_2.14.1_000003.log";
const TABLE: &str = "wallet/metamask/walletrs-chrome-windows-1_000005.ldb";

fn read(rel: &str) -> leveldb::FileRead {
    let data = corpus::bytes(rel);
    leveldb::read(rel, &data, rel).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// The newest live value of `key`.
fn newest<'a>(r: &'a leveldb::FileRead, key: &[u8]) -> Option<&'a [u8]> {
    r.records
        .iter()
        .filter(|x| x.key == key && x.state == State::Live)
        .max_by_key(|x| x.seq)
        .map(|x| x.value.as_slice())
}

#[test]
fn extension_logs_every_batch_read_and_the_state_is_json() {
    for (rel, address, versions) in [
        (
            LOG_108,
            "0x1aece8ddbbc4cc2dcdfa47fc78750a6e9910e80a",
            2..200,
        ),
        (LOG_94, "0xd7703838fe974458221eda637dd8b92d41db2cb2", 2..200),
    ] {
        let r = read(rel);
        assert_eq!(r.kind, FileKind::Log);
        assert!(r.problems.is_empty(), "{rel}: {:?}", r.problems);
        // each write of the extension's state is one record of the key `data`, in sequence
        let writes: Vec<_> = r.records.iter().filter(|x| x.key == b"data").collect();
        assert!(
            versions.contains(&writes.len()),
            "{rel}: {} writes",
            writes.len()
        );
        assert!(
            writes.windows(2).all(|w| w[0].seq < w[1].seq),
            "{rel}: sequences"
        );
        let state: Value = serde_json::from_slice(newest(&r, b"data").unwrap()).unwrap();
        let ids = &state["PreferencesController"]["identities"];
        assert_eq!(ids[address]["address"], address, "{rel}");
        assert_eq!(ids[address]["name"], "Account 1", "{rel}");
        assert!(
            state["KeyringController"]["vault"].is_string(),
            "{rel}: vault"
        );
    }
}

#[test]
fn local_storage_log_keeps_origin_keys_and_every_version() {
    let r = read(LOG_90);
    assert!(r.problems.is_empty(), "{:?}", r.problems);
    let key = b"_chrome-extension://inpljngchbmkogmbbciiennjamfechef\x00\x01metamask-config";
    let versions: Vec<_> = r
        .records
        .iter()
        .filter(|x| x.key.as_slice() == key)
        .collect();
    assert!(versions.len() >= 2, "{} versions", versions.len());
    // Chromium's Local Storage value: one encoding byte (1 = Latin-1), then the text
    let v = newest(&r, key).unwrap();
    assert_eq!(v[0], 1);
    let config: Value = serde_json::from_slice(&v[1..]).unwrap();
    assert_eq!(config["meta"]["version"], 4);
    assert!(
        r.records.iter().any(|x| x
            .value
            .windows(42)
            .any(|w| w == b"0x173f9bcfe086d0c36e6dae31f001dd003f5292b5")),
        "selected address"
    );
}

#[test]
fn table_blocks_decompress_and_entries_are_sorted() {
    let r = read(TABLE);
    assert_eq!(r.kind, FileKind::Table);
    assert!(r.problems.is_empty(), "{:?}", r.problems);
    assert!(!r.records.is_empty());
    // internal order: user key ascending, then sequence descending
    assert!(
        r.records
            .windows(2)
            .all(|w| (w[0].key.as_slice(), std::cmp::Reverse(w[0].seq))
                <= (w[1].key.as_slice(), std::cmp::Reverse(w[1].seq))),
        "order"
    );
    let state: Value = serde_json::from_slice(newest(&r, b"data").expect("data key")).unwrap();
    let vault: Value =
        serde_json::from_str(state["KeyringController"]["vault"].as_str().unwrap()).unwrap();
    for field in ["data", "iv", "salt"] {
        assert!(vault[field].is_string(), "vault {field}");
    }
}

#[test]
fn truncated_and_flipped_files_give_errors_or_problems_never_panics() {
    for rel in [LOG_108, LOG_94, LOG_90, TABLE] {
        let data = corpus::bytes(rel);
        let full = leveldb::read(rel, &data, rel).unwrap();
        let step = (data.len() / 97).max(1);
        for cut in (0..data.len()).step_by(step) {
            match leveldb::read(rel, &data[..cut], rel) {
                Ok(r) if full.kind == FileKind::Log => {
                    // a log's prefix gives a prefix of its records
                    assert!(r.records.len() <= full.records.len());
                    assert!(
                        r.records.iter().zip(&full.records).all(|(a, b)| a == b),
                        "{rel} cut {cut}"
                    );
                }
                Ok(_) => {}
                Err(e) => assert!(!e.to_string().is_empty()),
            }
        }
        for at in (0..data.len()).step_by(step) {
            let mut bad = data.clone();
            bad[at] ^= 0x5a;
            if let Ok(r) = leveldb::read(rel, &bad, rel) {
                // a flipped byte in a checked record or block is caught, never read as data
                assert!(
                    r.records.iter().all(|x| full.records.contains(x)),
                    "{rel} flip {at}"
                );
            }
        }
    }
}
