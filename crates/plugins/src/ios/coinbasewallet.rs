//! Coinbase Wallet (the self-custody app, bundle `org.toshi.distribution`; not the Coinbase
//! exchange app): `Documents/default/wallet-rn-v2.sqlite` of its container, read with its
//! `-wal`, with the fields of iLEAPP's `coinbase_wallet_*` reports:
//!
//! - one phenomenon per `account` row joined to the `wallet_group` row naming it: created, type,
//!   primary address and its chain, nickname, MPC conversion state, deleted, backup flow
//!   completed; the group's id, creation, nickname, index, hidden flag and hardware derivation
//!   path;
//! - one per `address` row (the addresses the app derived for the account): address,
//!   blockchain, currency, network, type, derivation path and index, used and change flags,
//!   balance, contract;
//! - one per `wallet` row (one per asset the app tracks): display name, currency, blockchain,
//!   network, balance, decimals, minimum balance, primary address, contract, icon URL, asset
//!   UUID, last balance-update transaction, spam and whitelist flags;
//! - one per `tx_history_v2` and older `tx_history` row: created and confirmed times, type,
//!   state, direction (`isSent`), from and to address with the names the app resolved for them
//!   (`fromDomain`, `toDomain`), amount and fee in the asset's base unit with their currency,
//!   token name and decimals, hash, blockchain, network, contract, nonce, gas fields,
//!   submission type, transfers, metadata, wallet.
//!
//! Columns are taken by name (the app adds columns between releases: absent ones read as
//! NULL); a table without its key columns is noted naming them. Times are stored as
//! `YYYY-MM-DD HH:MM:SS[.fff]` text without a zone and are read as UTC, as the app writes them
//! (iLEAPP's reading, from the zone-marked migration time the app's MMKV store keeps beside
//! them); the query turns them into ISO 8601 with `Z`. The MMKV store (`CBStore.plaintext`:
//! device id, active wallet group, extended public keys) is not read.
//!
//! Identities: every address the app derived and each account's primary address are the
//! device user's (`owner`, a control claim with the cue "account of the wallet app": the app
//! derived them from the user's recovery phrase); each is observed as `wallet:<address>` too,
//! and both sides of each transaction are.

use masf_agents::RuntimeError;
use masf_graph::{EntityKind, FactType, IdType, TimeEncoding};
use masf_tools::Invoked;

use super::{Draft, Run, raw};
use crate::calls::column_or_null;
use crate::outputs::Table;

/// A stored `YYYY-MM-DD HH:MM:SS[.fff]` text column as ISO 8601 UTC (`…T…Z`), else NULL.
fn utc(cols: &std::collections::BTreeSet<String>, prefix: &str, col: &str, alias: &str) -> String {
    if cols.contains(col) {
        format!(
            "CASE WHEN {prefix}{col} GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9] [0-9][0-9]:[0-9][0-9]:[0-9][0-9]*' \
THEN replace({prefix}{col}, ' ', 'T') || 'Z' END AS {alias}"
        )
    } else {
        format!("NULL AS {alias}")
    }
}

/// Triage of every `wallet-rn-v2.sqlite` of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    run.each("wallet-rn-v2.sqlite", |find, path| one(run, find, path))
}

fn one(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let tables = [
        "account",
        "wallet_group",
        "address",
        "wallet",
        "tx_history_v2",
        "tx_history",
    ];
    let Some(schema) = run.schema(path, &tables)? else {
        return Ok(());
    };
    if tables.iter().all(|t| schema.columns(t).is_empty()) {
        run.ctx.unparsed(
            path,
            "could not parse Coinbase Wallet's wallet-rn-v2.sqlite because it has none of the tables account, address, wallet, tx_history_v2, tx_history",
            None,
        )?;
        return Ok(());
    }
    if !schema.columns("account").is_empty() && schema.require(run, "account", &["id"])? {
        accounts(run, find, path, &schema)?;
    }
    if !schema.columns("address").is_empty() && schema.require(run, "address", &["address"])? {
        addresses(run, find, path, &schema)?;
    }
    if !schema.columns("wallet").is_empty() && schema.require(run, "wallet", &["balanceStr"])? {
        assets(run, find, path, &schema)?;
    }
    for table in ["tx_history_v2", "tx_history"] {
        if !schema.columns(table).is_empty() && schema.require(run, table, &["txHash"])? {
            transactions(run, find, path, &schema, table)?;
        }
    }
    Ok(())
}

/// Observes `address` as the device user's own (a control claim) and as a wallet entity.
fn own(run: &Run<'_, '_>, inv: &Invoked, address: &str, why: &str) -> Result<(), RuntimeError> {
    let Some(norm) = run.normalised(IdType::Wallet, address) else {
        return Ok(());
    };
    run.observe(
        &format!("wallet:{norm}"),
        EntityKind::Wallet,
        address,
        IdType::Wallet,
        address,
        inv,
        format!("An address of the Coinbase Wallet app: {why}."),
    )?;
    run.observe_cued(
        "owner",
        EntityKind::Person,
        "device owner",
        IdType::Wallet,
        address,
        inv,
        format!(
            "{address} is {why} in the Coinbase Wallet app on the device: whoever uses the device \
             holds its keys (a claim that they control it, weighed against any other claim on it)."
        ),
        Some(crate::wallets::OWN_ACCOUNT_CUE),
    )?;
    Ok(())
}

/// The ISO 8601 times the query made of stored UTC texts (`utc`), each as a marked fact.
fn utc_times(
    d: &mut Draft,
    t: &Table,
    row: &[Option<String>],
    inv: &Invoked,
    marks: &[(&str, &str)],
) {
    for (alias, mark) in marks {
        let v = raw(t, row, alias);
        let enc = v.as_ref().map(|_| TimeEncoding::Iso8601);
        d.time(v.as_deref(), enc, mark, inv);
    }
}

/// `label value` of each present column, for interpretations.
fn said(t: &Table, row: &[Option<String>], cols: &[(&str, &str)]) -> Vec<String> {
    cols.iter()
        .filter_map(|(alias, label)| raw(t, row, alias).map(|v| format!("{label} {v}")))
        .collect()
}

fn accounts(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    schema: &super::Schema,
) -> Result<(), RuntimeError> {
    let a = schema.columns("account");
    let g = schema.columns("wallet_group");
    let group = g.contains("accountId");
    let gcol = |col: &str, alias: &str| {
        if group {
            column_or_null(&g, "g.", col, alias)
        } else {
            format!("NULL AS {alias}")
        }
    };
    let sql = format!(
        "SELECT a.rowid AS pk, a.id AS account_id, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {} FROM account a {}",
        utc(&a, "a.", "createdAt", "created"),
        column_or_null(&a, "a.", "type", "kind"),
        column_or_null(&a, "a.", "primaryAddressChain", "chain"),
        column_or_null(&a, "a.", "primaryAddress", "address"),
        column_or_null(&a, "a.", "nickname", "nickname"),
        column_or_null(&a, "a.", "mpcConversionState", "mpc"),
        column_or_null(&a, "a.", "isDeleted", "deleted"),
        column_or_null(&a, "a.", "hasCompletedBackupFlow", "backed_up"),
        gcol("id", "group_id"),
        if group && g.contains("createdAt") {
            utc(&g, "g.", "createdAt", "group_created")
        } else {
            "NULL AS group_created".into()
        },
        gcol("nickname", "group_nickname"),
        gcol("walletIndex", "group_index"),
        gcol("isHidden", "group_hidden"),
        gcol("hardwareDerivationPath", "group_derivation"),
        column_or_null(&a, "a.", "createdAt", "created_raw"),
        if group {
            "LEFT JOIN wallet_group g ON g.accountId = a.id"
        } else {
            ""
        },
    );
    let Some(paged) = run.paged(path, &sql, "a.rowid")? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        let id = raw(t, row, "account_id").unwrap_or_default();
        let address = raw(t, row, "address");
        let mut d = Draft::new(
            "wallets",
            format!(
                "Coinbase Wallet account {}",
                address.as_deref().unwrap_or(&id)
            ),
        );
        d.fact(FactType::Path, Some(path), find);
        d.fact(FactType::Identifier, Some(&id), inv);
        d.fact(FactType::Wallet, address.as_deref(), inv);
        for alias in ["nickname", "group_nickname"] {
            d.fact(FactType::Name, raw(t, row, alias).as_deref(), inv);
        }
        for alias in ["kind", "chain", "mpc", "group_id", "group_derivation"] {
            d.fact(FactType::Text, raw(t, row, alias).as_deref(), inv);
        }
        utc_times(
            &mut d,
            t,
            row,
            inv,
            &[
                ("created", "Coinbase Wallet account created"),
                ("group_created", "Coinbase Wallet wallet group created"),
            ],
        );
        let details = said(
            t,
            row,
            &[
                ("created_raw", "created (stored, UTC)"),
                ("kind", "type"),
                ("chain", "primary address chain"),
                ("nickname", "nickname"),
                ("mpc", "MPC conversion state"),
                ("deleted", "deleted"),
                ("backed_up", "backup flow completed"),
                ("group_id", "wallet group"),
                ("group_nickname", "group nickname"),
                ("group_index", "wallet index"),
                ("group_hidden", "group hidden"),
                ("group_derivation", "hardware derivation path"),
            ],
        );
        d.interpretation = format!(
            "Coinbase Wallet's account {id} in {path}: primary address {}; {}.",
            address.as_deref().unwrap_or("(none)"),
            details.join(", ")
        );
        run.record(d)?;
        if let Some(a) = &address {
            own(run, inv, a, "the primary address of an account")?;
        }
    }
    Ok(())
}

fn addresses(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    schema: &super::Schema,
) -> Result<(), RuntimeError> {
    let c = schema.columns("address");
    let cols = [
        ("id", "row_id"),
        ("blockchainStr", "blockchain"),
        ("currencyCodeStr", "currency"),
        ("networkStr", "network"),
        ("typeStr", "kind"),
        ("derivationPath", "derivation"),
        ("indexStr", "idx"),
        ("isUsedStr", "used"),
        ("isChangeAddressStr", "change"),
        ("balanceStr", "balance"),
        ("contractAddress", "contract"),
        ("accountId", "account"),
    ];
    let sql = format!(
        "SELECT a.rowid AS pk, a.address AS address, {} FROM address a",
        cols.iter()
            .map(|(col, alias)| column_or_null(&c, "a.", col, alias))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let Some(paged) = run.paged(path, &sql, "a.rowid")? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        let Some(address) = raw(t, row, "address") else {
            continue;
        };
        let currency = raw(t, row, "currency");
        let mut d = Draft::new(
            "wallets",
            format!(
                "Coinbase Wallet address {address}{}",
                currency
                    .as_deref()
                    .map(|c| format!(" ({c})"))
                    .unwrap_or_default()
            ),
        );
        d.fact(FactType::Path, Some(path), find);
        d.fact(FactType::Wallet, Some(&address), inv);
        d.fact(FactType::Amount, raw(t, row, "balance").as_deref(), inv);
        for alias in ["derivation", "blockchain", "kind", "contract", "account"] {
            d.fact(FactType::Text, raw(t, row, alias).as_deref(), inv);
        }
        let details = said(
            t,
            row,
            &[
                ("blockchain", "blockchain"),
                ("currency", "currency"),
                ("network", "network"),
                ("kind", "type"),
                ("derivation", "derivation path"),
                ("idx", "index"),
                ("used", "used"),
                ("change", "change address"),
                ("balance", "balance (base unit)"),
                ("contract", "contract"),
                ("account", "account"),
                ("row_id", "row id"),
            ],
        );
        d.interpretation = format!(
            "Coinbase Wallet derived the address {address} for its account ({path}): {}. A derived address is not by itself evidence that it was used or funded.",
            details.join(", ")
        );
        run.record(d)?;
        own(
            run,
            inv,
            &address,
            "an address the app derived for its account",
        )?;
    }
    Ok(())
}

fn assets(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    schema: &super::Schema,
) -> Result<(), RuntimeError> {
    let c = schema.columns("wallet");
    let cols = [
        ("id", "row_id"),
        ("displayName", "name"),
        ("currencyCodeStr", "currency"),
        ("blockchainStr", "blockchain"),
        ("networkStr", "network"),
        ("balanceStr", "balance"),
        ("decimalsStr", "decimals"),
        ("minimumBalanceStr", "minimum"),
        ("primaryAddress", "address"),
        ("contractAddress", "contract"),
        ("imageURLStr", "image"),
        ("accountId", "account"),
        ("assetUUID", "asset"),
        ("lastBalanceUpdateTxHash", "last_tx"),
        ("isSpam", "spam"),
        ("isWhitelist", "whitelist"),
    ];
    let sql = format!(
        "SELECT w.rowid AS pk, {} FROM wallet w",
        cols.iter()
            .map(|(col, alias)| column_or_null(&c, "w.", col, alias))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let Some(paged) = run.paged(path, &sql, "w.rowid")? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        let name = raw(t, row, "name");
        let currency = raw(t, row, "currency");
        let balance = raw(t, row, "balance");
        let mut d = Draft::new(
            "wallets",
            format!(
                "Coinbase Wallet asset {}: balance {}",
                name.as_deref()
                    .or(currency.as_deref())
                    .unwrap_or("(unnamed)"),
                balance.as_deref().unwrap_or("not recorded")
            ),
        );
        d.fact(FactType::Path, Some(path), find);
        d.fact(FactType::Name, name.as_deref(), inv);
        d.fact(FactType::Amount, balance.as_deref(), inv);
        d.fact(FactType::Wallet, raw(t, row, "address").as_deref(), inv);
        d.fact(FactType::Wallet, raw(t, row, "contract").as_deref(), inv);
        d.fact(FactType::Hash, raw(t, row, "last_tx").as_deref(), inv);
        d.fact(FactType::Url, raw(t, row, "image").as_deref(), inv);
        let details = said(
            t,
            row,
            &[
                ("currency", "currency"),
                ("blockchain", "blockchain"),
                ("network", "network"),
                ("balance", "balance (base unit)"),
                ("decimals", "decimals"),
                ("minimum", "minimum balance"),
                ("address", "primary address"),
                ("contract", "contract"),
                ("last_tx", "last balance-update transaction"),
                ("spam", "spam"),
                ("whitelist", "whitelisted"),
                ("asset", "asset"),
                ("account", "account"),
                ("image", "icon"),
                ("row_id", "row id"),
            ],
        );
        d.interpretation = format!(
            "Coinbase Wallet tracks the asset {} ({path}): {}. The app keeps one row per asset it lists, held or not; the balance is in the asset's base unit as stored.",
            name.as_deref().unwrap_or("(unnamed)"),
            details.join(", ")
        );
        run.record(d)?;
    }
    Ok(())
}

fn transactions(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    schema: &super::Schema,
    table: &str,
) -> Result<(), RuntimeError> {
    let c = schema.columns(table);
    let cols = [
        ("id", "row_id"),
        ("type", "kind"),
        ("state", "state"),
        ("isSent", "sent"),
        ("fromAddress", "from_addr"),
        ("fromDomain", "from_domain"),
        ("toAddress", "to_addr"),
        ("toDomain", "to_domain"),
        ("amount", "amount"),
        ("fee", "fee"),
        ("tokenName", "token"),
        ("tokenDecimal", "decimals"),
        ("currencyCodeStr", "currency"),
        ("feeCurrencyCodeStr", "fee_currency"),
        ("blockchainStr", "blockchain"),
        ("networkStr", "network"),
        ("contractAddress", "contract"),
        ("nonce", "nonce"),
        ("gasLimit", "gas_limit"),
        ("maxFeePerGas", "max_fee"),
        ("maxPriorityFeePerGas", "max_priority"),
        ("baseFeePerGas", "base_fee"),
        ("txSubmissionType", "submission"),
        ("transfersStr", "transfers"),
        ("metadataStrArray", "metadata"),
        ("walletId", "wallet"),
        ("createdAt", "created_raw"),
        ("confirmedAt", "confirmed_raw"),
    ];
    let sql = format!(
        "SELECT x.rowid AS pk, x.txHash AS hash, {}, {}, {} FROM {table} x",
        utc(&c, "x.", "createdAt", "created"),
        utc(&c, "x.", "confirmedAt", "confirmed"),
        cols.iter()
            .map(|(col, alias)| column_or_null(&c, "x.", col, alias))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let Some(paged) = run.paged(path, &sql, "x.rowid")? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        let hash = raw(t, row, "hash");
        let sent = raw(t, row, "sent").map(|s| matches!(s.as_str(), "1" | "true" | "True"));
        let direction = match sent {
            Some(true) => "sent",
            Some(false) => "received",
            None => "direction not recorded",
        };
        let amount = raw(t, row, "amount");
        let currency = raw(t, row, "currency");
        let mut d = Draft::new(
            "transactions",
            format!(
                "Coinbase Wallet transaction {} ({direction}){}",
                hash.as_deref()
                    .map(short)
                    .unwrap_or_else(|| "without hash".into()),
                match (&amount, &currency) {
                    (Some(a), Some(c)) => format!(": {a} {c} (base unit)"),
                    (Some(a), None) => format!(": {a} (base unit)"),
                    _ => String::new(),
                }
            ),
        );
        d.fact(FactType::Path, Some(path), find);
        d.fact(FactType::Hash, hash.as_deref(), inv);
        for alias in ["from_addr", "to_addr", "contract"] {
            d.fact(FactType::Wallet, raw(t, row, alias).as_deref(), inv);
        }
        for alias in ["from_domain", "to_domain", "token"] {
            d.fact(FactType::Name, raw(t, row, alias).as_deref(), inv);
        }
        for alias in ["amount", "fee"] {
            d.fact(FactType::Amount, raw(t, row, alias).as_deref(), inv);
        }
        utc_times(
            &mut d,
            t,
            row,
            inv,
            &[
                ("created", "Coinbase Wallet transaction created"),
                ("confirmed", "Coinbase Wallet transaction confirmed"),
            ],
        );
        let details = said(
            t,
            row,
            &[
                ("created_raw", "created (stored, UTC)"),
                ("confirmed_raw", "confirmed (stored, UTC)"),
                ("kind", "type"),
                ("state", "state"),
                ("from_addr", "from"),
                ("from_domain", "from name"),
                ("to_addr", "to"),
                ("to_domain", "to name"),
                ("amount", "amount (base unit)"),
                ("currency", "currency"),
                ("token", "token"),
                ("decimals", "token decimals"),
                ("fee", "fee (base unit)"),
                ("fee_currency", "fee currency"),
                ("blockchain", "blockchain"),
                ("network", "network"),
                ("contract", "contract"),
                ("nonce", "nonce"),
                ("gas_limit", "gas limit"),
                ("max_fee", "max fee per gas"),
                ("max_priority", "max priority fee per gas"),
                ("base_fee", "base fee per gas"),
                ("submission", "submission type"),
                ("transfers", "transfers"),
                ("metadata", "metadata"),
                ("wallet", "wallet"),
                ("row_id", "row id"),
            ],
        );
        d.interpretation = format!(
            "Coinbase Wallet recorded a transaction {} in {table} of {path}, {direction} (isSent {}): {}.",
            hash.as_deref().unwrap_or("(no hash)"),
            raw(t, row, "sent").as_deref().unwrap_or("not recorded"),
            details.join(", ")
        );
        run.record(d)?;
        for alias in ["from_addr", "to_addr"] {
            let Some(a) = raw(t, row, alias) else {
                continue;
            };
            let Some(norm) = run.normalised(IdType::Wallet, &a) else {
                continue;
            };
            run.observe(
                &format!("wallet:{norm}"),
                EntityKind::Wallet,
                &a,
                IdType::Wallet,
                &a,
                inv,
                "A side of a transaction in Coinbase Wallet's history (wallet-rn-v2.sqlite)."
                    .to_string(),
            )?;
        }
    }
    Ok(())
}

fn short(s: &str) -> String {
    if s.chars().count() > 14 {
        format!("{}…", s.chars().take(12).collect::<String>())
    } else {
        s.to_string()
    }
}
