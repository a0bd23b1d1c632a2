//! Crypto-wallet apps on a file tree: browser wallet extensions of Chromium-family profiles
//! (Chrome, Edge, Brave, Opera, … on Windows, macOS and Linux, wherever the profile sits in
//! the tree), read by the disk and archive plugins' tree triage; and MetaMask Mobile's state
//! files on a phone ([`triage_mobile`], run by the Android and iOS plugins), which hold the
//! same controllers' state and are read by the same code, the holder being the device's user.
//!
//! A wallet extension keeps its state in the profile's LevelDB stores: `Local Extension
//! Settings/<extension id>/` (MetaMask 3 and later: one key `data`, the whole state as JSON,
//! rewritten on every change, so the log keeps earlier versions too) and, for MetaMask 2, the
//! profile's `Local Storage/leveldb/` (`metamask-config`). Each store is read once with the
//! `leveldb_records` tool (every record version; secrets redacted before anything is logged)
//! and gives:
//!
//! | what | phenomenon | identities |
//! |---|---|---|
//! | the wallet's own accounts (MetaMask `identities`, `internalAccounts`, `AccountTracker` accounts, `selectedAddress`, 2.x `walletNicknames` / `selectedAccount`) | one per store: each address with the name the user gave it, its balance and when it was added where the state keeps them, which were only in older versions, whether the key store (vault) is present (encrypted: not opened), how many secrets were redacted | `wallet:<address>`; a control claim of `browser-profile:<profile>` (cue "account of the wallet app") |
//! | the wallet's address book (`AddressBookController`) | one per store: name, address, chain | `wallet:<address>`; the name's claim `named:<name>` (cue "address book") |
//! | transactions (`TransactionController` / `TxController`) | one per transaction: hash, from, to, value, chain, status, time | `wallet:<address>` for both sides |
//! | another known wallet extension (Phantom, Coinbase, TronLink, Trust, OKX, Binance, Rabby, Keplr, Ronin), or a store whose values are no JSON MetaMask wrote | one per store: the wallet addresses written anywhere in it, no claim (whose they are is not known) | `wallet:<address>` |
//!
//! The profile's `Preferences` (JSON) names the browser account signed in (`account_info`:
//! e-mail, full name): observed on the same `browser-profile:` person, so the wallet's accounts
//! join the actor that e-mail belongs to on other devices.

use std::collections::{BTreeMap, BTreeSet};

use masf_agents::{AgentCtx, PhenomenonDraft, RuntimeError};
use masf_graph::{EntityKind, FactClaim, FactType, IdType, TimeEncoding, TimeMark};
use masf_tools::Invoked;
use serde_json::{Value, json};

use crate::calls::call_or_note;
use crate::drafts::fact;
use crate::identity::{
    TreeRef, args_on, artefact_name, observe, observe_cued, observe_named, record,
};
use crate::outputs::unescape;

/// Browser wallet extensions by Chrome Web Store id: (id, name, whether its state is parsed).
pub const EXTENSIONS: &[(&str, &str, bool)] = &[
    ("nkbihfbeogaeaoehlefnkodbefgpgknn", "MetaMask", true),
    (
        "ejbalbakoplchlghecdalmeeeajnimhm",
        "MetaMask (Edge Add-ons)",
        true,
    ),
    ("ljfoeinjpaedjfecbmggjgodbgkmjkjk", "MetaMask Flask", true),
    ("bfnaelmomeimhlpmgjnjophhpkkoljpa", "Phantom", false),
    ("hnfanknocfeofbddgcijnmhnfnkdnaad", "Coinbase Wallet", false),
    ("ibnejdfjmmkpcnlpebklmnkoeoihofec", "TronLink", false),
    ("egjidjbpglichdcondbcbdnbeeppgdph", "Trust Wallet", false),
    ("mcohilncbfahbmgdjkbpemcciiolgcge", "OKX Wallet", false),
    ("fhbohimaelbohpjbbldcngcnapndodjp", "Binance Wallet", false),
    ("acmacodkjbdgmoleebolmdjonilkdbch", "Rabby", false),
    ("dmkamcknogkgcdfhhbddcghachkejeap", "Keplr", false),
    ("fnjhmkhhmkbjkkabndcnnogagogbneec", "Ronin Wallet", false),
];

/// The cue of a wallet app's own account (a claim of weight 2).
pub const OWN_ACCOUNT_CUE: &str = "account of the wallet app";

/// Transactions recorded per store before the rest are counted.
const MAX_TXS: usize = 500;

/// A LevelDB store of a browser profile that may hold a wallet's state.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Store {
    /// The profile directory (`…/User Data/Default`).
    pub profile: String,
    /// The store directory.
    pub dir: String,
    /// The extension (id, name, parsed) of an extension store; `None` for Local Storage.
    pub extension: Option<(&'static str, &'static str, bool)>,
}

/// The store a file of the tree belongs to, when it is a LevelDB file of a known wallet
/// extension's storage or of a profile's Local Storage.
pub fn store_of(path: &str) -> Option<Store> {
    let (dir, name) = path.rsplit_once('/')?;
    if !masf_tools::leveldb_tool::is_store_file(name) {
        return None;
    }
    for marker in ["/Local Extension Settings/", "/Sync Extension Settings/"] {
        if let Some((profile, id)) = dir.rsplit_once(marker)
            && !id.contains('/')
            && let Some(&ext) = EXTENSIONS.iter().find(|(x, _, _)| *x == id)
        {
            return Some(Store {
                profile: profile.to_string(),
                dir: dir.to_string(),
                extension: Some(ext),
            });
        }
    }
    let profile = dir.strip_suffix("/Local Storage/leveldb")?;
    Some(Store {
        profile: profile.to_string(),
        dir: dir.to_string(),
        extension: None,
    })
}

/// What the state values of one store say.
#[derive(Debug, Default)]
struct State {
    /// Own accounts by lower-case address: (the address as written, its name, whether the
    /// newest version holds it).
    own: BTreeMap<String, (String, Option<String>, bool)>,
    /// Selected account (as written).
    selected: Option<String>,
    /// Address book: (address as written, name, chain).
    book: BTreeSet<(String, String, String)>,
    /// Transactions by hash (or id): their fields as written.
    txs: BTreeMap<String, Tx>,
    /// Whether an encrypted key store (vault / wallet) is present.
    vault: bool,
    /// Whether any value was MetaMask's state.
    metamask: bool,
    /// Balances by lower-case address (hexadecimal wei, as the account tracker wrote them).
    balance: BTreeMap<String, String>,
    /// When each account was added (`importTime`, Unix milliseconds) by lower-case address.
    imported: BTreeMap<String, String>,
}

#[derive(Debug, Default, Clone)]
struct Tx {
    hash: Option<String>,
    from: Option<String>,
    to: Option<String>,
    value: Option<String>,
    chain: Option<String>,
    status: Option<String>,
    time: Option<String>,
}

fn is_address(s: &str) -> bool {
    s.len() == 42 && s.starts_with("0x") && s[2..].bytes().all(|b| b.is_ascii_hexdigit())
}

fn text_of(v: &Value) -> Option<String> {
    match v {
        Value::String(s) if !s.is_empty() => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

impl State {
    fn own(&mut self, address: &str, name: Option<&str>, newest: bool) {
        if !is_address(address) {
            return;
        }
        let e = self
            .own
            .entry(address.to_ascii_lowercase())
            .or_insert_with(|| (address.to_string(), None, false));
        if e.1.is_none() {
            e.1 = name.filter(|n| !n.trim().is_empty()).map(str::to_string);
        }
        e.2 |= newest;
    }

    /// Reads one version of MetaMask's state (any version from 2.x on).
    fn read(&mut self, v: &Value, newest: bool) {
        let Some(root) = v.as_object() else {
            return;
        };
        // 2.x wraps it in {"meta", "data"}
        let data = root.get("data").filter(|d| d.is_object()).unwrap_or(v);
        let known = [
            "KeyringController",
            "PreferencesController",
            "AccountsController",
            "AccountTracker",
            "AccountTrackerController",
            "AddressBookController",
            "TransactionController",
            "walletNicknames",
            "config",
        ];
        if !known.iter().any(|k| data.get(k).is_some()) {
            return;
        }
        self.metamask = true;
        let prefs = &data["PreferencesController"];
        if let Some(ids) = prefs["identities"].as_object() {
            for (addr, id) in ids {
                let a = id["address"].as_str().unwrap_or(addr);
                self.own(a, id["name"].as_str(), newest);
                if let Some(t) = text_of(&id["importTime"]).filter(|_| is_address(a)) {
                    self.imported.entry(a.to_ascii_lowercase()).or_insert(t);
                }
            }
        }
        if let Some(accts) = data["AccountsController"]["internalAccounts"]["accounts"].as_object()
        {
            for acct in accts.values() {
                if let Some(a) = acct["address"].as_str() {
                    self.own(a, acct["metadata"]["name"].as_str(), newest);
                    if let Some(t) =
                        text_of(&acct["metadata"]["importTime"]).filter(|_| is_address(a))
                    {
                        self.imported.entry(a.to_ascii_lowercase()).or_insert(t);
                    }
                }
            }
        }
        for tracker in ["AccountTracker", "AccountTrackerController"] {
            if let Some(accts) = data[tracker]["accounts"].as_object() {
                for (addr, acct) in accts {
                    self.own(addr, None, newest);
                    if let Some(b) = acct["balance"].as_str().filter(|_| is_address(addr))
                        && (newest || !self.balance.contains_key(&addr.to_ascii_lowercase()))
                    {
                        self.balance
                            .insert(addr.to_ascii_lowercase(), b.to_string());
                    }
                }
            }
        }
        if let Some(nicks) = data["walletNicknames"].as_object() {
            for (addr, name) in nicks {
                self.own(addr, name.as_str(), newest);
            }
        }
        for sel in [
            &prefs["selectedAddress"],
            &data["selectedAddress"],
            &data["config"]["selectedAccount"],
        ] {
            if let Some(a) = sel.as_str().filter(|a| is_address(a)) {
                self.own(a, None, newest);
                if newest || self.selected.is_none() {
                    self.selected = Some(a.to_string());
                }
            }
        }
        // a string as written, an object where a reader decoded the JSON text
        let vault = &data["KeyringController"]["vault"];
        if vault.is_string() || vault.is_object() || data["wallet"].is_string() {
            self.vault = true;
        }
        if let Some(chains) = data["AddressBookController"]["addressBook"].as_object() {
            for (chain, entries) in chains {
                for (addr, e) in entries.as_object().into_iter().flatten() {
                    let a = e["address"].as_str().unwrap_or(addr);
                    if let Some(name) = e["name"].as_str().filter(|n| !n.trim().is_empty())
                        && is_address(a)
                    {
                        self.book
                            .insert((a.to_string(), name.to_string(), chain.clone()));
                    }
                }
            }
        }
        for list in [
            &data["TransactionController"]["transactions"],
            &data["TxController"]["transactions"],
        ] {
            let items: Vec<&Value> = match list {
                Value::Array(a) => a.iter().collect(),
                Value::Object(m) => m.values().collect(),
                _ => Vec::new(),
            };
            for t in items {
                // the extension and MetaMask Mobile since 7.x write `txParams` and `hash`;
                // older Mobile versions `transaction` and `transactionHash`
                let p = if t["txParams"].is_object() {
                    &t["txParams"]
                } else {
                    &t["transaction"]
                };
                let tx = Tx {
                    hash: t["hash"]
                        .as_str()
                        .or_else(|| t["transactionHash"].as_str())
                        .map(str::to_string),
                    from: p["from"].as_str().map(str::to_string),
                    to: p["to"].as_str().map(str::to_string),
                    value: p["value"].as_str().map(str::to_string),
                    chain: text_of(&t["chainId"]).or_else(|| text_of(&t["metamaskNetworkId"])),
                    status: t["status"].as_str().map(str::to_string),
                    time: text_of(&t["time"]),
                };
                let Some(key) = tx.hash.clone().or_else(|| text_of(&t["id"])) else {
                    continue;
                };
                self.txs.insert(key, tx);
            }
        }
    }
}

/// One line of a `leveldb_records` output: (sequence, put, key, value as shown).
fn records(text: &str) -> Vec<(u64, bool, &str, &str)> {
    text.lines()
        .skip_while(|l| l.starts_with('#'))
        .skip(1)
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| {
            let c: Vec<&str> = l.splitn(8, '\t').collect();
            (c.len() == 8).then(|| (c[3].parse().unwrap_or(0), c[4] == "put", c[6], c[7]))
        })
        .collect()
}

/// The number of secret values the tool redacted, from its header line.
fn redacted(text: &str) -> u64 {
    text.lines()
        .next()
        .and_then(|l| l.rsplit_once(" secret values redacted"))
        .and_then(|(head, _)| head.rsplit(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or(0)
}

/// Reads the wallet stores found in one tree (see the module documentation).
pub fn triage_stores(
    ctx: &AgentCtx<'_>,
    tree: &TreeRef,
    stores: &BTreeSet<Store>,
    preferences: &BTreeSet<String>,
) -> Result<(), RuntimeError> {
    let mut profiles_done: BTreeSet<&str> = BTreeSet::new();
    for store in stores {
        let what = artefact_name(tree, &store.dir);
        let mut args = json!({"path": store.dir});
        if store.extension.is_none() {
            // a profile's Local Storage holds every site's data: first the keys of MetaMask 2
            args["key_contains"] = json!("metamask");
        }
        let Some(mut out) = call_or_note(ctx, &what, "leveldb_records", args_on(tree, args))?
        else {
            continue;
        };
        if store.extension.is_none() {
            // then everything its extension origin stored (`_chrome-extension://<id>\x00…`),
            // secrets included (the tool redacts and counts them)
            let origin = records(&out.output.text).iter().find_map(|r| {
                r.2.starts_with("_chrome-extension://")
                    .then(|| r.2.split("\\x00").next())
                    .flatten()
                    .map(str::to_string)
            });
            let Some(origin) = origin else {
                continue;
            };
            let args = json!({"path": store.dir, "key_contains": format!("{origin}\\x00")});
            let Some(o) = call_or_note(ctx, &what, "leveldb_records", args_on(tree, args))? else {
                continue;
            };
            out = o;
        }
        let rows = records(&out.output.text);
        if rows.is_empty() {
            continue;
        }
        let prefs = format!("{}/Preferences", store.profile);
        if preferences.contains(&prefs) && profiles_done.insert(store.profile.as_str()) {
            profile_user(ctx, tree, &prefs)?;
        }
        // the newest version of each key is the state as the extension left it
        let mut newest: BTreeMap<&str, u64> = BTreeMap::new();
        for r in rows.iter().filter(|r| r.1) {
            let n = newest.entry(r.2).or_default();
            *n = (*n).max(r.0);
        }
        let mut state = State::default();
        for &(seq, put, key, shown) in &rows {
            if !put {
                continue;
            }
            if let Ok(v) = serde_json::from_str::<Value>(&unescape(shown)) {
                state.read(&v, newest.get(key) == Some(&seq));
            }
        }
        let name = store.extension.map_or("MetaMask", |e| e.1);
        let parsed = store.extension.is_none_or(|e| e.2);
        if parsed && state.metamask {
            let holder = Holder {
                name,
                kind: "browser extension",
                place: &store.dir,
                at: format!("in browser profile {}", store.profile),
                context: format!("browser-profile:{}", store.profile),
                label: format!("user of browser profile {}", store.profile),
                whose: format!(
                    "installed in the browser profile {}: whoever uses the profile",
                    store.profile
                ),
                secrets: redacted(&out.output.text),
            };
            metamask(ctx, &what, &holder, &|_| &out, &state)?;
        } else {
            addresses_only(ctx, tree, store, name, &out)?;
        }
    }
    Ok(())
}

/// The browser account a profile is signed in to (`Preferences` → `account_info`), observed
/// on the profile's person entity.
fn profile_user(ctx: &AgentCtx<'_>, tree: &TreeRef, path: &str) -> Result<(), RuntimeError> {
    let profile = path.strip_suffix("/Preferences").unwrap_or(path);
    let Some(read) = call_or_note(
        ctx,
        &artefact_name(tree, path),
        "read_text",
        args_on(tree, json!({"path": path, "length": 1_048_576})),
    )?
    else {
        return Ok(());
    };
    let body = &read.output.text;
    let Some(start) = body.find('{') else {
        return Ok(());
    };
    let Ok(prefs) = serde_json::from_str::<Value>(&body[start..]) else {
        return Ok(());
    };
    let context = format!("browser-profile:{profile}");
    let label = format!("user of browser profile {profile}");
    for acct in prefs["account_info"].as_array().into_iter().flatten() {
        if let Some(email) = acct["email"].as_str() {
            observe(
                ctx,
                &context,
                EntityKind::Person,
                &label,
                IdType::Email,
                email,
                &read,
                format!(
                    "The browser profile is signed in to the account {email} (Preferences, account_info)."
                ),
            )?;
        }
        if let Some(name) = acct["full_name"].as_str().filter(|n| !n.trim().is_empty()) {
            observe(
                ctx,
                &context,
                EntityKind::Person,
                &label,
                IdType::DisplayName,
                name,
                &read,
                format!(
                    "The browser account signed in to the profile is {name} (Preferences, account_info)."
                ),
            )?;
        }
    }
    Ok(())
}

/// Where a wallet's state was found and whose its own accounts are.
struct Holder<'a> {
    /// The wallet's name (`MetaMask`, `MetaMask Mobile`).
    name: &'a str,
    /// What it is: `browser extension`, `app`.
    kind: &'a str,
    /// The store or state directory.
    place: &'a str,
    /// Where, for titles: `in browser profile <profile>`, `on the device`.
    at: String,
    /// The entity context and label of whoever holds the keys.
    context: String,
    label: String,
    /// Who that is, for the claim: `installed in the browser profile …: whoever uses the
    /// profile`.
    whose: String,
    /// Secret values the reading tool redacted.
    secrets: u64,
}

/// Records what a wallet's state holds: its own accounts (with their balances and the time
/// each was added) as claims of the holder, its address book, its transactions. `cite` gives
/// the call whose output holds a value.
fn metamask<'i>(
    ctx: &AgentCtx<'_>,
    what: &str,
    h: &Holder<'_>,
    cite: &dyn Fn(&str) -> &'i Invoked,
    state: &State,
) -> Result<(), RuntimeError> {
    let first = cite(h.place);
    let name = h.name;
    let mut facts: Vec<FactClaim> = vec![fact(FactType::Path, h.place, first)];
    let mut times = Vec::new();
    let mut lines = Vec::new();
    for (lower, (address, acct_name, newest)) in &state.own {
        facts.push(fact(FactType::Wallet, address.as_str(), cite(address)));
        if let Some(n) = acct_name {
            let shown = crate::outputs::in_json(n);
            facts.push(fact(FactType::Name, shown.as_str(), cite(&shown)));
        }
        let balance = state.balance.get(lower);
        if let Some(b) = balance {
            facts.push(fact(FactType::Amount, b.as_str(), cite(b)));
        }
        let imported = state
            .imported
            .get(lower)
            .filter(|t| t.bytes().all(|b| b.is_ascii_digit()));
        if let Some(t) = imported {
            facts.push(fact(FactType::Timestamp, t.as_str(), cite(t)));
            times.push(TimeMark {
                fact: facts.len() - 1,
                encoding: TimeEncoding::UnixMillis,
                description: format!("{name} account {} added", short(address)),
            });
        }
        lines.push(format!(
            "{address}{}{}{}{}{}",
            acct_name
                .as_deref()
                .map(|n| format!(" (\"{n}\")"))
                .unwrap_or_default(),
            balance
                .map(|b| match wei_to_eth(b) {
                    Some(e) => format!(", balance {b} wei = {e} in the chain's native coin"),
                    None => format!(", balance {b}"),
                })
                .unwrap_or_default(),
            imported
                .map(|t| format!(", added at {t} (Unix ms)"))
                .unwrap_or_default(),
            if state.selected.as_deref() == Some(address.as_str()) {
                ", selected"
            } else {
                ""
            },
            if *newest {
                ""
            } else {
                ", only in earlier versions of the state"
            },
        ));
    }
    let n = state.own.len();
    let secrets = h.secrets;
    record(
        ctx,
        PhenomenonDraft {
            category: "wallets".into(),
            title: format!(
                "{name} wallet {}: {n} account{}",
                h.at,
                if n == 1 { "" } else { "s" }
            ),
            facts,
            interpretation: format!(
                "The {name} {} keeps its state in {}; it holds {n} account{} of its own: {}. {}{}",
                h.kind,
                h.place,
                if n == 1 { "" } else { "s" },
                if lines.is_empty() {
                    "none".to_string()
                } else {
                    lines.join("; ")
                },
                if state.vault {
                    "Its key store (vault) is present, encrypted with the user's password; it was not opened. "
                } else {
                    ""
                },
                if secrets > 0 {
                    format!(
                        "{secrets} secret value(s) (a recovery phrase or password) are stored in clear text in this store; they were redacted before logging and are only in the evidence."
                    )
                } else {
                    String::new()
                }
            ),
            times,
        },
    )?;
    for (address, _, _) in state.own.values() {
        observe(
            ctx,
            &format!("wallet:{}", address.to_ascii_lowercase()),
            EntityKind::Wallet,
            address,
            IdType::Wallet,
            address,
            cite(address),
            format!("An account of the {name} wallet {}.", h.at),
        )?;
        observe_cued(
            ctx,
            &h.context,
            EntityKind::Person,
            &h.label,
            IdType::Wallet,
            address,
            cite(address),
            format!(
                "{address} is an account of the {name} wallet {} holds its keys (a claim that \
                 they control it, weighed against any other claim on it).",
                h.whose
            ),
            Some(OWN_ACCOUNT_CUE),
        )?;
    }
    if !state.book.is_empty() {
        let mut facts = vec![fact(FactType::Path, h.place, first)];
        for (a, n, _) in &state.book {
            let shown = crate::outputs::in_json(n);
            facts.push(fact(FactType::Name, shown.as_str(), cite(&shown)));
            facts.push(fact(FactType::Wallet, a.as_str(), cite(a)));
        }
        record(
            ctx,
            PhenomenonDraft {
                category: "wallets".into(),
                title: format!("{name} address book {}: {} entries", h.at, state.book.len()),
                facts,
                interpretation: format!(
                    "The {name} wallet's address book in {} names {}.",
                    h.place,
                    state
                        .book
                        .iter()
                        .map(|(a, n, c)| format!("{a} as \"{n}\" (chain {c})"))
                        .collect::<Vec<_>>()
                        .join("; ")
                ),
                times: vec![],
            },
        )?;
        for (a, n, _) in &state.book {
            let out = cite(a);
            let mut obs = |c: &str,
                           k: EntityKind,
                           l: &str,
                           t: IdType,
                           v: &str,
                           why: String,
                           cue: Option<&str>| {
                observe_cued(ctx, c, k, l, t, v, out, why, cue)
            };
            obs(
                &format!("wallet:{}", a.to_ascii_lowercase()),
                EntityKind::Wallet,
                a,
                IdType::Wallet,
                a,
                format!("An address in the {name} wallet's address book {}.", h.at),
                None,
            )?;
            observe_named(
                n,
                "address book",
                a,
                &format!("the {name} wallet's address book"),
                &mut obs,
            )?;
        }
    }
    for (i, (key, tx)) in state.txs.iter().enumerate() {
        if i == MAX_TXS {
            ctx.unparsed(
                what,
                &format!(
                    "{} transactions; the first {MAX_TXS} were recorded",
                    state.txs.len()
                ),
                Some(&first.record.invocation_id),
            )?;
            break;
        }
        transaction(ctx, h, cite(key), first, key, tx)?;
    }
    Ok(())
}

/// One transaction of the wallet's history.
fn transaction(
    ctx: &AgentCtx<'_>,
    h: &Holder<'_>,
    out: &Invoked,
    place: &Invoked,
    key: &str,
    tx: &Tx,
) -> Result<(), RuntimeError> {
    let name = h.name;
    let mut facts = vec![
        fact(
            if tx.hash.is_some() {
                FactType::Hash
            } else {
                FactType::Identifier
            },
            key,
            out,
        ),
        fact(FactType::Path, h.place, place),
    ];
    let mut times = Vec::new();
    if let Some(t) = &tx.time
        && t.bytes().all(|b| b.is_ascii_digit())
    {
        facts.push(fact(FactType::Timestamp, t.as_str(), out));
        times.push(TimeMark {
            fact: facts.len() - 1,
            encoding: TimeEncoding::UnixMillis,
            description: "Transaction created".into(),
        });
    }
    for a in [&tx.from, &tx.to].into_iter().flatten() {
        facts.push(fact(FactType::Wallet, a.as_str(), out));
    }
    if let Some(v) = &tx.value {
        facts.push(fact(FactType::Amount, v.as_str(), out));
    }
    let amount = tx.value.as_deref().and_then(wei_to_eth);
    record(
        ctx,
        PhenomenonDraft {
            category: "transactions".into(),
            title: format!(
                "{name} transaction {}{}",
                short(key),
                amount
                    .as_deref()
                    .map(|a| format!(": {a}"))
                    .unwrap_or_default()
            ),
            facts,
            interpretation: format!(
                "The {name} wallet in {} recorded a transaction {key} from {} to {}{}{}{}.",
                h.place,
                tx.from.as_deref().unwrap_or("?"),
                tx.to.as_deref().unwrap_or("?"),
                match (&tx.value, &amount) {
                    (Some(v), Some(a)) =>
                        format!(", value {v} wei = {a} in the chain's native coin"),
                    _ => String::new(),
                },
                tx.chain
                    .as_deref()
                    .map(|c| format!(", chain {c}"))
                    .unwrap_or_default(),
                tx.status
                    .as_deref()
                    .map(|s| format!(", status {s}"))
                    .unwrap_or_default(),
            ),
            times,
        },
    )?;
    for a in [&tx.from, &tx.to].into_iter().flatten() {
        if is_address(a) {
            observe(
                ctx,
                &format!("wallet:{}", a.to_ascii_lowercase()),
                EntityKind::Wallet,
                a,
                IdType::Wallet,
                a,
                out,
                format!(
                    "A side of a transaction in the {name} wallet's history {}.",
                    h.at
                ),
            )?;
        }
    }
    Ok(())
}

fn short(s: &str) -> String {
    if s.len() > 14 {
        format!("{}…", &s[..12.min(s.len())])
    } else {
        s.to_string()
    }
}

/// A hexadecimal wei amount (`0x2386f26fc10000`) in whole coins (`0.01`), exactly.
pub fn wei_to_eth(hex: &str) -> Option<String> {
    let digits = hex.strip_prefix("0x").unwrap_or(hex);
    if digits.is_empty() || digits.len() > 32 {
        return None;
    }
    let wei = u128::from_str_radix(digits, 16).ok()?;
    let unit = 1_000_000_000_000_000_000u128;
    let (whole, frac) = (wei / unit, wei % unit);
    if frac == 0 {
        return Some(whole.to_string());
    }
    let f = format!("{frac:018}");
    Some(format!("{whole}.{}", f.trim_end_matches('0')))
}

/// A store whose state is not parsed: the wallet addresses written in it, without a claim.
fn addresses_only(
    ctx: &AgentCtx<'_>,
    tree: &TreeRef,
    store: &Store,
    name: &str,
    out: &Invoked,
) -> Result<(), RuntimeError> {
    let found: BTreeMap<String, String> = crate::extract::identifiers(&out.output.text, None)
        .into_iter()
        .filter(|f| f.id_type == IdType::Wallet)
        .map(|f| (f.normalized, f.raw))
        .collect();
    let what = artefact_name(tree, &store.dir);
    if store.extension.is_some_and(|e| !e.2) {
        ctx.unparsed(
            &what,
            &format!("the {name} extension's state format is not parsed; wallet addresses written in it are listed"),
            Some(&out.record.invocation_id),
        )?;
    }
    if found.is_empty() {
        return Ok(());
    }
    let mut facts = vec![fact(FactType::Path, store.dir.as_str(), out)];
    facts.extend(
        found
            .values()
            .map(|r| fact(FactType::Wallet, r.as_str(), out)),
    );
    record(
        ctx,
        PhenomenonDraft {
            category: "wallets".into(),
            title: format!(
                "Wallet addresses in the {name} store of browser profile {}",
                store.profile
            ),
            facts,
            interpretation: format!(
                "The {name} browser extension's store {} holds {} wallet address(es): {}. Its format is not read, so whose they are is not known.",
                store.dir,
                found.len(),
                found.values().cloned().collect::<Vec<_>>().join(", ")
            ),
            times: vec![],
        },
    )?;
    for (norm, raw) in &found {
        observe(
            ctx,
            &format!("wallet:{norm}"),
            EntityKind::Wallet,
            norm,
            IdType::Wallet,
            raw,
            out,
            format!(
                "A wallet address in the {name} extension's store {}.",
                store.dir
            ),
        )?;
    }
    Ok(())
}

/// MetaMask Mobile's controllers whose state is read (the others — token lists, gas fees,
/// currency rates — say nothing about who is who).
pub const MOBILE_CONTROLLERS: &[&str] = &[
    "PreferencesController",
    "AccountsController",
    "AccountTrackerController",
    "AddressBookController",
    "TransactionController",
    "KeyringController",
];

/// Whether a file is one of MetaMask Mobile's state files (React Native's redux-persist through
/// `redux-persist-filesystem-storage`, in the app's `files/persistStore/` on Android and
/// `Documents/persistStore/` on iOS): `persist-root` (to 7.x, every reducer, the engine's
/// controllers in `engine` → `backgroundState`), or since 7.4x one `persist-<Controller>` per
/// controller of [`MOBILE_CONTROLLERS`]; on iOS before that, AsyncStorage's file of
/// `persist:root` ([`async_storage_name`]), which holds what `persist-root` holds. Other React
/// Native apps write these too; whether one is MetaMask's is decided by what it holds.
pub fn mobile_state_file(path: &str) -> bool {
    let Some((dir, name)) = path.rsplit_once('/') else {
        return false;
    };
    (dir.ends_with("/persistStore")
        && (name == "persist-root"
            || name
                .strip_prefix("persist-")
                .is_some_and(|c| MOBILE_CONTROLLERS.contains(&c))))
        || async_storage_root(path)
}

/// The name React Native's iOS AsyncStorage (`RCTAsyncLocalStorage_V1/`, MetaMask Mobile
/// before it moved to files) gives the value of the key `persist:root`: too large for the
/// folder's `manifest.json`, it is kept in a file named by the MD5 of its key.
pub fn async_storage_name() -> String {
    async_storage_file("persist:root")
}

/// The name iOS AsyncStorage gives the file of a value too large for its `manifest.json`: the
/// MD5 of the key, in hex.
pub fn async_storage_file(key: &str) -> String {
    crate::identity::md5_hex(key)
}

/// Whether `path` is AsyncStorage's file of `persist:root` (see [`async_storage_name`]).
fn async_storage_root(path: &str) -> bool {
    path.rsplit_once('/').is_some_and(|(dir, name)| {
        dir.ends_with("/RCTAsyncLocalStorage_V1") && name == async_storage_name()
    })
}

/// The parts of a `read_json` output: each `# at <pointer>` section's pointer and value
/// (absent parts left out).
fn json_parts(text: &str) -> Vec<(String, Value)> {
    let mut out = Vec::new();
    let mut current: Option<(String, String)> = None;
    let flush = |c: Option<(String, String)>, out: &mut Vec<(String, Value)>| {
        if let Some((p, body)) = c
            && let Ok(v) = serde_json::from_str::<Value>(&body)
        {
            out.push((p, v));
        }
    };
    for line in text.lines() {
        if let Some(p) = line.strip_prefix("# at ") {
            flush(current.take(), &mut out);
            if !p.ends_with(": not present") {
                current = Some((p.to_string(), String::new()));
            }
        } else if line.starts_with("# json ") {
            continue;
        } else if let Some((_, body)) = current.as_mut() {
            body.push_str(line);
            body.push('\n');
        }
    }
    flush(current, &mut out);
    out
}

/// The number of secret values `read_json` redacted, from its header line.
fn json_redacted(text: &str) -> u64 {
    text.lines()
        .next()
        .and_then(|l| l.strip_suffix(" secret values redacted"))
        .and_then(|head| head.rsplit(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or(0)
}

/// Reads MetaMask Mobile's state files found in `tree` (see [`mobile_state_file`]), one
/// wallet per `persistStore` directory, with `read_json` (nested JSON texts decoded, secrets
/// redacted, only the controllers of [`MOBILE_CONTROLLERS`] and the in-app browser's history
/// printed): the accounts (name, balance, when added) as claims of the device's user (`owner`,
/// cue [`OWN_ACCOUNT_CUE`]), the address book (names as `named:` claims), transactions (both
/// sides observed), the in-app browser's history. A `persist-root` of another app is passed
/// over; one that is no JSON is noted with the reason and the offset.
pub fn triage_mobile(
    ctx: &AgentCtx<'_>,
    tree: &TreeRef,
    paths: &[String],
) -> Result<(), RuntimeError> {
    let mut dirs: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for p in paths.iter().filter(|p| mobile_state_file(p)) {
        if let Some((dir, _)) = p.rsplit_once('/') {
            dirs.entry(dir).or_default().push(p);
        }
    }
    for (dir, files) in dirs {
        let mut parts: Vec<(Invoked, Value)> = Vec::new();
        let mut history: Vec<(Invoked, Value)> = Vec::new();
        for path in files {
            let root = path.ends_with("/persist-root") || async_storage_root(path);
            let pointers: Vec<String> = if root {
                MOBILE_CONTROLLERS
                    .iter()
                    .map(|c| format!("/engine/backgroundState/{c}"))
                    .chain(["/browser/history".to_string()])
                    .collect()
            } else {
                vec![String::new()]
            };
            let Some(out) = call_or_note(
                ctx,
                &artefact_name(tree, path),
                "read_json",
                args_on(
                    tree,
                    json!({"path": path, "pointers": pointers, "decode_nested": true}),
                ),
            )?
            else {
                continue;
            };
            let mut data = serde_json::Map::new();
            for (pointer, v) in json_parts(&out.output.text) {
                if pointer == "/browser/history" {
                    history.push((out.clone(), v));
                } else if let Some(c) = pointer.rsplit('/').next().filter(|_| root) {
                    data.insert(c.to_string(), v);
                } else if let Some(c) = path.rsplit_once("/persist-").map(|x| x.1) {
                    data.insert(c.to_string(), v);
                }
            }
            parts.push((out, Value::Object(data)));
        }
        let mut state = State::default();
        for (_, data) in &parts {
            state.read(data, true);
        }
        if !state.metamask {
            // another React Native app's store
            continue;
        }
        let secrets = parts
            .iter()
            .map(|(o, _)| json_redacted(&o.output.text))
            .sum();
        let holder = Holder {
            name: "MetaMask Mobile",
            kind: "app",
            place: dir,
            at: "on the device".into(),
            context: "owner".into(),
            label: "device owner".into(),
            whose: "app on the device: whoever uses the device".into(),
            secrets,
        };
        let invs: Vec<&Invoked> = parts.iter().map(|(o, _)| o).collect();
        // one file (persist-root) holds every value; only the per-controller files need a
        // search for the output holding a value
        let cite = |v: &str| -> &Invoked {
            if invs.len() == 1 {
                return invs[0];
            }
            invs.iter()
                .copied()
                .find(|o| o.output.text.contains(v))
                .unwrap_or(invs[0])
        };
        let what = artefact_name(tree, dir);
        metamask(ctx, &what, &holder, &cite, &state)?;
        for (out, list) in &history {
            browser_history(ctx, dir, out, out, list)?;
        }
    }
    Ok(())
}

/// MetaMask Mobile on Android before its state moved to files: React Native's AsyncStorage,
/// the SQLite database `databases/RKStorage` (`catalystLocalStorage`: key, value), whose
/// `persist:root` row holds what `persist-root` holds. Every React Native app keeps an
/// `RKStorage`; one without that row, or whose state is not MetaMask's, is passed over. The
/// query prints only that row.
pub fn triage_rkstorage(
    ctx: &AgentCtx<'_>,
    tree: &TreeRef,
    path: &str,
    found: &Invoked,
) -> Result<(), RuntimeError> {
    let Some((inv, t)) = crate::identity::query_on(
        ctx,
        tree,
        path,
        "SELECT value FROM catalystLocalStorage WHERE key = 'persist:root'",
        1,
    )?
    else {
        return Ok(());
    };
    let Some(text) = t.rows.first().and_then(|r| t.get(r, "value")) else {
        return Ok(());
    };
    let root = match serde_json::from_str::<Value>(text) {
        Ok(v) => v,
        Err(e) => {
            ctx.unparsed(
                &artefact_name(tree, path),
                &format!(
                    "could not parse RKStorage's persist:root because its value is not JSON: {e}"
                ),
                Some(&inv.record.invocation_id),
            )?;
            return Ok(());
        }
    };
    // each reducer's state is a JSON text inside the value
    let nested = |key: &str| -> Value {
        match &root[key] {
            Value::String(s) => serde_json::from_str(s).unwrap_or(Value::Null),
            v => v.clone(),
        }
    };
    let mut state = State::default();
    state.read(&nested("engine")["backgroundState"], true);
    if !state.metamask {
        return Ok(());
    }
    let holder = Holder {
        name: "MetaMask Mobile",
        kind: "app",
        place: path,
        at: "on the device".into(),
        context: "owner".into(),
        label: "device owner".into(),
        whose: "app on the device: whoever uses the device".into(),
        secrets: 0,
    };
    // the path is in the search that found the database, the rest in the query's row
    let cite = |v: &str| if v == path { found } else { &inv };
    metamask(ctx, &artefact_name(tree, path), &holder, &cite, &state)?;
    let history = &nested("browser")["history"];
    browser_history(ctx, path, found, &inv, history)
}

/// MetaMask Mobile's in-app browser history (`browser` → `history`: name and URL of each page
/// visited, newest last), one phenomenon.
fn browser_history(
    ctx: &AgentCtx<'_>,
    dir: &str,
    dir_cite: &Invoked,
    out: &Invoked,
    list: &Value,
) -> Result<(), RuntimeError> {
    let pages: Vec<(&str, &str)> = list
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|p| Some((p["name"].as_str().unwrap_or(""), p["url"].as_str()?)))
        .filter(|(_, u)| !u.is_empty())
        .collect();
    if pages.is_empty() {
        return Ok(());
    }
    let mut facts = vec![fact(FactType::Path, dir, dir_cite)];
    for (name, url) in &pages {
        facts.push(fact(FactType::Url, crate::outputs::in_json(url), out));
        if !name.trim().is_empty() {
            facts.push(fact(FactType::Name, crate::outputs::in_json(name), out));
        }
    }
    record(
        ctx,
        PhenomenonDraft {
            category: "web".into(),
            title: format!(
                "MetaMask Mobile in-app browser: {} page{} visited",
                pages.len(),
                if pages.len() == 1 { "" } else { "s" }
            ),
            facts,
            interpretation: format!(
                "The in-app browser of the MetaMask Mobile wallet ({dir}) keeps a history of the pages visited, in the order it lists them: {}. Its entries carry no time.",
                pages
                    .iter()
                    .map(|(n, u)| if n.trim().is_empty() {
                        (*u).to_string()
                    } else {
                        format!("{n} ({u})")
                    })
                    .collect::<Vec<_>>()
                    .join("; ")
            ),
            times: vec![],
        },
    )?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_are_found_wherever_the_profile_sits() {
        let s = store_of("/Users/a/AppData/Local/Google/Chrome/User Data/Default/Local Extension Settings/nkbihfbeogaeaoehlefnkodbefgpgknn/000003.log").unwrap();
        assert_eq!(
            s.profile,
            "/Users/a/AppData/Local/Google/Chrome/User Data/Default"
        );
        assert_eq!(s.extension.map(|e| e.1), Some("MetaMask"));
        let s = store_of("/home/b/.config/BraveSoftware/Brave-Browser/Profile 1/Local Storage/leveldb/000005.ldb").unwrap();
        assert_eq!(s.extension, None);
        assert!(
            store_of("/x/Local Extension Settings/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa/000003.log")
                .is_none()
        );
        assert!(
            store_of("/x/Local Extension Settings/nkbihfbeogaeaoehlefnkodbefgpgknn/LOCK").is_none()
        );
    }

    #[test]
    fn wei_amounts_are_exact() {
        assert_eq!(wei_to_eth("0x2386f26fc10000").as_deref(), Some("0.01"));
        assert_eq!(wei_to_eth("0xde0b6b3a7640000").as_deref(), Some("1"));
        assert_eq!(wei_to_eth("0x0").as_deref(), Some("0"));
        assert_eq!(wei_to_eth("0xzz"), None);
    }
}
