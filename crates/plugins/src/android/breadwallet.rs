//! BRD, formerly Bread Wallet (`com.breadwallet`), ALEAPP's `breadWallet`
//! (`breadwallet_transaction_metadata`, `breadwallet_kv_store`, `breadwallet_app_state`): the
//! wallet's own receive addresses, the transactions it kept metadata on, and the app's state.
//!
//! | source | phenomenon | fields |
//! |---|---|---|
//! | `databases/platform.db` `kvStoreTable`, keys `txn2-<hash>` | one `transactions` per key ("BRD transaction <hash> metadata record") | transaction hash (the key after `txn2-`, cut in the query), key, versions kept, latest version, its remote version, deleted flag and encrypted value size; first and last written (the server's Unix ms) |
//! | `databases/platform.db` `kvStoreTable`, other keys | one `wallets` per key ("BRD key-value record <key>") | the same fields (`wallet-info`, `asset-index`, `plat-vuex-…` as stored) |
//! | `shared_prefs/MyPrefsFile.xml` `receive_address<ISO>`, `firstAddress` | one `wallets` per address ("BRD <ISO> receive address <address>", "BRD first wallet address <address>") | the address, the preference it is under |
//! | `shared_prefs/MyPrefsFile.xml`, the rest | one `accounts` ("BRD wallet app preferences") | install user id, wallet reward id, current wallet, fiat currency, recovery phrase marked written, every other preference as stored; secure time and each wallet's last sync (by magnitude: Unix s or ms) |
//!
//! The store keeps every version of a key as its own row; the query groups them by key (how
//! many, the newest version's remote version, deleted flag and value size, the earliest and
//! latest write time; a key written once has no last time). The values are encrypted by the
//! app and are never selected, only their length: a metadata record says the wallet knew the
//! transaction and when the record was written, not its amount, parties or memo. Columns are
//! taken by name (a missing one reads as NULL); a store without `kvStoreTable` or its `key`
//! column is noted. `platform.db` often lives in its write-ahead log, which `sqlite_query`
//! reads with it.
//!
//! The preferences are read by `read_xml`. BRD keeps the current receive address of each wallet
//! (`receive_address<ISO>`), and 3.x the wallet's first address (`firstAddress`), in clear where
//! the app wrote them (ALEAPP's test phone held none). The
//! recovery phrase, PIN and keys are not in this file (they are wrapped by the Android keystore
//! in `keyStorePrefs.xml`, or 4.x's `crypto_shared_prefs.xml`: not read); the push registration
//! token (`fcmToken`) and any preference named like a secret are named, never copied into a fact.
//! The exchange rates ALEAPP lists from `databases/breadwallet.db` are not read (no evidence of a
//! transaction).
//!
//! Identities: each address the wallet-address normaliser accepts (Base58Check, Bech32,
//! EIP-55) is a `wallet:<address>` entity and, as an address of the wallet app on the device
//! (derived from its keys), a control claim of the device's user (`owner`, cue
//! [`crate::wallets::OWN_ACCOUNT_CUE`]); a value it refuses (BCH's CashAddr form) stays a text
//! fact. The install's user id and reward id name no person and are not observed.

use std::collections::BTreeSet;

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{EntityKind, FactType, IdType};

use super::Located;
use crate::calls::{column_expr, require_columns};
use crate::drafts::{Draft, RowPhenomena, record_draft, unix_by_magnitude, unix_millis};
use crate::identity::{artefact_name, normalized, observe, observe_cued, schema_on};
use crate::outputs::raw;

/// Whether `l` is BRD's key-value store.
pub fn is_store(l: &Located) -> bool {
    l.name() == "platform.db" && l.path.contains("/com.breadwallet/databases/")
}

/// Whether `l` is BRD's preferences file.
pub fn is_prefs(l: &Located) -> bool {
    l.path
        .ends_with("/com.breadwallet/shared_prefs/MyPrefsFile.xml")
}

/// Whether a store path is BRD's (for `categorise`).
pub fn is_path(path: &str) -> bool {
    path.contains("/com.breadwallet/databases/platform.db")
        || path.ends_with("/com.breadwallet/shared_prefs/MyPrefsFile.xml")
}

/// The prefix of a transaction's metadata key (the app's `TX_META_DATA_KEY_PREFIX`).
const TX_PREFIX: &str = "txn2-";

/// Words in a preference's name that mark a secret: named, never copied.
const SECRET_MARKS: &[&str] = &[
    "token", "secret", "password", "passcode", "seed", "mnemonic", "private",
];

/// The query of `kvStoreTable`'s keys, one row per key (the transactions' metadata keys when
/// `transactions`, else the others), in the order of each key's first row.
fn records_sql(cols: &BTreeSet<String>, transactions: bool) -> String {
    let written = column_expr(cols, "", "thetime");
    let newest = |expr: String, alias: &str| {
        format!(
            "(SELECT {expr} FROM kvStoreTable k WHERE k.key = g.key ORDER BY {} DESC, k.rowid DESC LIMIT 1) AS {alias}",
            column_expr(cols, "k.", "version")
        )
    };
    let size = if cols.contains("value") {
        "length(k.value)".to_string()
    } else {
        "NULL".to_string()
    };
    let filter = if transactions {
        format!("substr(key, 1, 5) = '{TX_PREFIX}'")
    } else {
        format!("substr(key, 1, 5) != '{TX_PREFIX}'")
    };
    format!(
        "SELECT g.first_row AS rid, g.key AS key, CASE WHEN substr(g.key, 1, 5) = '{TX_PREFIX}' THEN substr(g.key, 6) END AS tx_hash, g.versions AS versions, g.first_written AS first_written, CASE WHEN g.last_written != g.first_written THEN g.last_written END AS last_written, {}, {}, {}, {} FROM (SELECT key, COUNT(*) AS versions, MIN({written}) AS first_written, MAX({written}) AS last_written, MIN(rowid) AS first_row FROM kvStoreTable WHERE {filter} GROUP BY key) g ORDER BY g.first_row",
        newest(column_expr(cols, "k.", "version"), "latest_version"),
        newest(column_expr(cols, "k.", "remote_version"), "remote_version"),
        newest(column_expr(cols, "k.", "deleted"), "deleted"),
        newest(size, "value_size"),
    )
}

/// The fields of a grouped key (after its own first ones).
const RECORD_FIELDS: &[(&str, FactType, &str)] = &[
    ("key", FactType::Text, "key"),
    ("versions", FactType::Count, "versions kept"),
    ("latest_version", FactType::Text, "latest version"),
    ("remote_version", FactType::Text, "its remote version"),
    ("deleted", FactType::Text, "deleted flag (1 deleted)"),
    ("value_size", FactType::Count, "encrypted value bytes"),
];

/// One `platform.db`: its key-value records, the transactions' metadata first.
pub fn store(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(schema) = schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    let Some(cols) = schema.get("kvStoreTable").filter(|c| !c.is_empty()) else {
        ctx.unparsed(
            &name,
            "could not parse BRD's platform.db because it has no kvStoreTable table",
            None,
        )?;
        return Ok(());
    };
    if !require_columns(
        ctx,
        &name,
        "BRD's platform.db",
        "kvStoreTable",
        cols,
        &["key"],
    )? {
        return Ok(());
    }
    let mut tx_fields = vec![("tx_hash", FactType::Hash, "transaction hash")];
    tx_fields.extend_from_slice(RECORD_FIELDS);
    super::record_query(
        ctx,
        l,
        &records_sql(cols, true),
        &RowPhenomena {
            table: "kvStoreTable",
            category: "transactions",
            what: "BRD's metadata record of a transaction (key txn2- and the transaction hash): the wallet knew the transaction; the record's value (amount, rate, memo) is encrypted and not read; written times are the server's Unix milliseconds of the first and last version kept",
            title: &|t, row| {
                format!(
                    "BRD transaction {} metadata record",
                    raw(t, row, "tx_hash").unwrap_or_else(|| "?".into())
                )
            },
            fields: &tx_fields,
            times: &[
                (
                    "first_written",
                    "BRD transaction metadata first written",
                    unix_millis,
                ),
                (
                    "last_written",
                    "BRD transaction metadata last written",
                    unix_millis,
                ),
            ],
        },
        &mut |_, _, _| Ok(()),
    )?;
    super::record_query(
        ctx,
        l,
        &records_sql(cols, false),
        &RowPhenomena {
            table: "kvStoreTable",
            category: "wallets",
            what: "a record of BRD's replicated key-value store (its value encrypted and not read; the key names what it is about); written times are the server's Unix milliseconds of the first and last version kept",
            title: &|t, row| {
                format!(
                    "BRD key-value record {}",
                    raw(t, row, "key").unwrap_or_else(|| "?".into())
                )
            },
            fields: RECORD_FIELDS,
            times: &[
                (
                    "first_written",
                    "BRD key-value record first written",
                    unix_millis,
                ),
                (
                    "last_written",
                    "BRD key-value record last written",
                    unix_millis,
                ),
            ],
        },
        &mut |_, _, _| Ok(()),
    )
}

/// The preferences with a known meaning: (name, fact type, label).
const KNOWN: &[(&str, FactType, &str)] = &[
    ("userId", FactType::Identifier, "install user id"),
    ("walletRewardId", FactType::Identifier, "wallet reward id"),
    ("currentWalletIso", FactType::Text, "current wallet"),
    ("currentCurrency", FactType::Text, "fiat currency"),
    (
        "phraseWritten",
        FactType::Text,
        "recovery phrase marked written down",
    ),
];

/// Whether a preference's name marks a secret.
fn is_secret(name: &str) -> bool {
    let n = name.to_ascii_lowercase();
    SECRET_MARKS.iter().any(|m| n.contains(m))
}

/// The wallet of an address preference: `Some(Some(iso))` for `receive_address<ISO>`,
/// `Some(None)` for `firstAddress`, `None` for any other preference.
fn address_of(name: &str) -> Option<Option<&str>> {
    if name == "firstAddress" {
        return Some(None);
    }
    name.strip_prefix("receive_address")
        .filter(|iso| !iso.is_empty())
        .map(Some)
}

/// One `MyPrefsFile.xml`: the addresses, then the app's state.
pub fn prefs(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some((inv, prefs)) = super::prefs::prefs_xml(ctx, l, "BRD", None)? else {
        return Ok(());
    };
    let file = l.name();
    for (k, v) in &prefs {
        let Some(iso) = address_of(k) else {
            continue;
        };
        let norm = normalized(ctx, IdType::Wallet, v);
        let mut d = Draft::new(
            "wallets",
            match iso {
                Some(iso) => format!("BRD {iso} receive address {v}"),
                None => format!("BRD first wallet address {v}"),
            },
        );
        d.fact(FactType::Path, Some(&l.path), &l.found);
        d.fact(
            if norm.is_some() {
                FactType::Wallet
            } else {
                FactType::Text
            },
            Some(v),
            &inv,
        );
        d.fact(FactType::Text, Some(k), &inv);
        let what = match iso {
            Some(iso) => format!("the receive address of the wallet's {iso} account"),
            None => "the wallet's first address".to_string(),
        };
        d.interpretation = format!(
            "{file} ({k}): {what} as BRD kept it in clear, {v}{}.",
            if norm.is_some() {
                ": an address of the wallet on the device, derived from its keys"
            } else {
                " (a form the wallet-address normaliser does not take, such as BCH's CashAddr: kept as text, no identity)"
            }
        );
        record_draft(ctx, d)?;
        let Some(norm) = norm else {
            continue;
        };
        observe(
            ctx,
            &format!("wallet:{norm}"),
            EntityKind::Wallet,
            v,
            IdType::Wallet,
            v,
            &inv,
            format!("An address of the BRD wallet on the device ({file}, {k})."),
        )?;
        observe_cued(
            ctx,
            "owner",
            EntityKind::Person,
            "device owner",
            IdType::Wallet,
            v,
            &inv,
            format!(
                "{v} is {what} in the BRD app on the device: whoever uses the device holds its keys (a claim that they control it, weighed against any other claim on it)."
            ),
            Some(crate::wallets::OWN_ACCOUNT_CUE),
        )?;
    }
    let mut d = Draft::new("accounts", "BRD wallet app preferences");
    d.fact(FactType::Path, Some(&l.path), &l.found);
    let mut said = Vec::new();
    for (key, ft, label) in KNOWN {
        if let Some(v) = super::prefs::pref(&prefs, key) {
            d.fact(*ft, Some(&v), &inv);
            said.push(format!("{label} {v}"));
        }
    }
    let mut listed = Vec::new();
    let mut secrets = Vec::new();
    for (k, v) in &prefs {
        if address_of(k).is_some() || KNOWN.iter().any(|(n, _, _)| *n == k.as_str()) {
            continue;
        }
        if is_secret(k) {
            secrets.push(k.as_str());
            continue;
        }
        if k == "secureTime" {
            d.time(
                Some(v),
                unix_by_magnitude(Some(v)),
                "BRD secure (server) time stored",
                &inv,
            );
        } else if let Some(iso) = k.strip_prefix("lastSyncTime_") {
            d.time(
                Some(v),
                unix_by_magnitude(Some(v)),
                &format!("BRD {iso} wallet last synced"),
                &inv,
            );
        } else {
            // keys and values as the XML holds them (escaped); one the output lacks is said only
            for x in [k, v] {
                if inv.output.text.contains(x.as_str()) {
                    d.fact(FactType::Text, Some(x), &inv);
                }
            }
        }
        listed.push(format!("{k} = {v}"));
    }
    d.interpretation = format!(
        "{file}: BRD's preferences on the device: {}{}{}.",
        if said.is_empty() {
            "no user id, reward id or wallet setting stored".to_string()
        } else {
            said.join(", ")
        },
        if listed.is_empty() {
            String::new()
        } else {
            format!("; the other preferences, as stored: {}", listed.join("; "))
        },
        if secrets.is_empty() {
            String::new()
        } else {
            format!(
                "; {} present and not copied (a push registration token or secret)",
                secrets.join(", ")
            )
        }
    );
    record_draft(ctx, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn address_preferences_and_secret_names() {
        assert_eq!(address_of("receive_addressBTC"), Some(Some("BTC")));
        assert_eq!(address_of("firstAddress"), Some(None));
        assert_eq!(address_of("receive_address"), None);
        assert_eq!(address_of("userId"), None);
        assert!(is_secret("fcmToken"));
        assert!(!is_secret("phraseWritten"));
        assert!(!is_secret("walletRewardId"));
    }

    #[test]
    fn records_query_without_optional_columns() {
        let cols: BTreeSet<String> = ["key", "value", "thetime"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let sql = records_sql(&cols, true);
        assert!(sql.contains("ORDER BY NULL DESC, k.rowid DESC"), "{sql}");
        assert!(sql.contains("(SELECT NULL FROM kvStoreTable k"), "{sql}");
        assert!(sql.contains("substr(key, 1, 5) = 'txn2-'"), "{sql}");
        assert!(records_sql(&cols, false).contains("substr(key, 1, 5) != 'txn2-'"));
    }
}
