//! Mobile crypto-wallet and exchange apps whose stores are not parsed (Trust Wallet, imToken,
//! TokenPocket, Binance, OKX, TronLink, Bitget Wallet, Coinbase Wallet on Android): the wallet
//! addresses written in clear anywhere in the app's data, read by the Android and iOS plugins.
//!
//! These apps keep their state in Realm, MMKV, LevelDB, SQLite or plist files whose layouts are
//! private and change between versions, and several encrypt the key material. What an examiner
//! needs first — which addresses this phone's wallet app knows — is written in clear in most of
//! them, whatever the container format: so each data folder of such an app is listed
//! (`find_files`) and every file in it that can hold state (smallest first, up to 300 files and
//! 256 MiB a folder) is scanned for printable runs
//! (`strings`, ASCII, runs of at least [`MIN_RUN`] characters: the shortest address), and the
//! addresses in them are those [`crate::extract::identifiers`] validates (Base58Check and
//! Bech32 checksums, EIP-55 mixed case). Nothing is decoded that the tools did not log.
//!
//! | where | phenomena | identities |
//! |---|---|---|
//! | Android: every folder named by the app's package (`data/data/<package>`, `user/<n>/<package>`, `user_de/…`, `Android/data/<package>`) | one per folder: files listed and scanned, each address with the files it is in, files that hold lists (more than [`MANY`] addresses: token lists, price caches), counted | `wallet:<address>` for each address of a file that is no list; no claim: whose it is (the wallet's own, a payee, a token contract) is not known |
//! | iOS: the app's data container, found by its preferences file (`Library/Preferences/<bundle>.plist`) or its caches folder (`Library/Caches/<bundle>`) in a file-system extraction, or by the container folder an iTunes/Finder backup names after the bundle | the same | the same |
//!
//! Cache and code folders (`cache`, `code_cache`, `Caches`, `WebKit`, …) and media and code
//! files are not scanned (named in the phenomenon): they hold token lists and page caches, not
//! the wallet. Each app's folder is also noted unparsed ("its stores are not parsed; …"), so
//! the coverage table says the app was looked at by its addresses only.

use std::collections::{BTreeMap, BTreeSet};

use masf_agents::{AgentCtx, PhenomenonDraft, RuntimeError};
use masf_graph::{EntityKind, FactType, IdType};
use masf_tools::Invoked;
use serde_json::json;

use crate::calls::call_or_note;
use crate::drafts::fact;
use crate::identity::{TreeRef, args_on, artefact_name, observe, record};

/// A wallet or exchange app: its name, Android package and iOS bundle identifier.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WalletApp {
    /// What examiners call it.
    pub name: &'static str,
    /// Its Android package (the name of its data folders).
    pub android: Option<&'static str>,
    /// Its iOS bundle identifier.
    pub ios: Option<&'static str>,
}

/// The apps swept. MetaMask (both platforms) and Coinbase Wallet on iOS are not here: their
/// stores are parsed (`wallets`, and the iOS plugin's Coinbase Wallet reader).
pub const APPS: &[WalletApp] = &[
    WalletApp {
        name: "Trust Wallet",
        android: Some("com.wallet.crypto.trustapp"),
        ios: Some("com.sixdays.trust"),
    },
    WalletApp {
        name: "imToken",
        android: Some("im.token.app"),
        ios: Some("im.token.app"),
    },
    WalletApp {
        name: "TokenPocket",
        android: Some("vip.mytokenpocket"),
        ios: Some("com.tokenpocket.pro"),
    },
    WalletApp {
        name: "Binance",
        android: Some("com.binance.dev"),
        ios: Some("com.czzhao.binance"),
    },
    WalletApp {
        name: "OKX",
        android: Some("com.okinc.okex.gp"),
        ios: Some("com.okex.OKExAppstoreFull"),
    },
    WalletApp {
        name: "TronLink",
        android: Some("com.tronlinkpro.wallet"),
        ios: Some("com.tronlink.hdwallet"),
    },
    WalletApp {
        name: "Bitget Wallet",
        android: Some("com.bitkeep.wallet"),
        ios: Some("com.bitkeep.os"),
    },
    WalletApp {
        name: "Coinbase Wallet",
        android: Some("org.toshi"),
        ios: None,
    },
];

/// Shortest printable run scanned: a Base58 Bitcoin address has 26 characters at least.
pub const MIN_RUN: u64 = 26;
/// What a sweep's calls have and no other reader's: the catalogues' detector (a `strings` call
/// with runs of [`MIN_RUN`] characters; coverage matches it in the call's arguments).
pub const DETECTOR: &str = "\"min_len\":26";
/// Files listed per folder.
const MAX_LISTED: u64 = 2000;
/// Files scanned per folder; the rest are counted.
const MAX_SCANNED: usize = 300;
/// Bytes of a file one `strings` call scans (the tool's own cap).
const WINDOW: u64 = masf_tools::content_tools::STRINGS_MAX;
/// Windows scanned per file: its first 64 MiB.
const MAX_WINDOWS: u64 = 4;
/// Bytes scanned per folder, smallest files first; the rest are counted (a wallet's state is
/// small, a folder's bulk is caches and media).
const MAX_BYTES: u64 = 256 << 20;
/// A file with more distinct addresses than this is a list (token contracts, a price or page
/// cache): its addresses are counted, not named one by one nor observed.
pub const MANY: usize = 50;
/// Folders not scanned: caches and code, which hold token lists and pages, not the wallet.
const SKIPPED_DIRS: &[&str] = &[
    "cache",
    "code_cache",
    "Caches",
    "WebKit",
    "app_webview",
    "lib",
    "oat",
    "SplashBoard",
    "Snapshots",
];
/// Extensions of media and code files, not scanned.
const SKIPPED_EXTENSIONS: &[&str] = &[
    "png", "jpg", "jpeg", "gif", "webp", "heic", "svg", "mp4", "mov", "mp3", "m4a", "ttf", "otf",
    "woff", "woff2", "so", "dex", "odex", "vdex", "oat", "apk", "car", "nib",
];

/// The name globs of every app's Android data folder (its package), for the plugin's search.
pub fn android_globs() -> impl Iterator<Item = &'static str> {
    APPS.iter().filter_map(|a| a.android)
}

/// The name globs that find an app's iOS container: its bundle id (a backup's container
/// folder, `Library/Caches/<bundle>`) and `<bundle>.plist` (its preferences).
pub fn ios_globs() -> Vec<String> {
    APPS.iter()
        .filter_map(|a| a.ios)
        .flat_map(|b| [b.to_string(), format!("{b}.plist")])
        .collect()
}

/// The app whose Android package is the last component of `dir`.
pub fn android_app(dir: &str) -> Option<&'static WalletApp> {
    let name = dir.rsplit('/').next()?;
    APPS.iter().find(|a| a.android == Some(name))
}

/// The iOS data container a found path names, with the app: `…/<container>/Library/
/// Preferences/<bundle>.plist` or `…/<container>/Library/Caches/<bundle>` give the container
/// (not the user's own `/var/mobile/Library`); a folder named after the bundle outside any
/// `Library` (a backup's `Containers/Data/Application/<bundle>`) is the container itself.
pub fn ios_container(path: &str, is_dir: bool) -> Option<(String, &'static WalletApp)> {
    let (parent, name) = path.rsplit_once('/')?;
    let bundle = if is_dir {
        name
    } else {
        name.strip_suffix(".plist")?
    };
    let app = APPS.iter().find(|a| a.ios == Some(bundle))?;
    let container = match parent
        .strip_suffix("/Library/Preferences")
        .or_else(|| parent.strip_suffix("/Library/Caches"))
    {
        Some(c) => c,
        None if is_dir && !parent.contains("/Library") => path,
        None => return None,
    };
    let last = container.rsplit('/').next().unwrap_or("");
    if container.is_empty() || last == "mobile" || last == "root" {
        return None;
    }
    Some((container.to_string(), app))
}

/// Whether a file under `folder` is scanned (not in a cache or code folder, not media or code).
fn scanned(folder: &str, path: &str) -> bool {
    let rel = path.strip_prefix(folder).unwrap_or(path);
    let mut parts: Vec<&str> = rel.split('/').filter(|p| !p.is_empty()).collect();
    let Some(name) = parts.pop() else {
        return false;
    };
    if parts.iter().any(|d| SKIPPED_DIRS.contains(d)) {
        return false;
    }
    let ext = name
        .rsplit_once('.')
        .map(|(_, e)| e.to_ascii_lowercase())
        .unwrap_or_default();
    !SKIPPED_EXTENSIONS.contains(&ext.as_str())
}

/// The (path, size) of each file of a `find_files` listing.
fn files_with_sizes(listing: &str) -> Vec<(String, u64)> {
    crate::outputs::listed_files(listing)
        .into_iter()
        .map(|f| (f.path, f.size.parse().unwrap_or(0)))
        .collect()
}

/// The wallet addresses in `strings` output, (as written, normalised): those free text holds
/// ([`crate::extract::identifiers`]: set apart from the text around them) and those glued to
/// it, as a store's records keep them — SQLite writes a row's text columns side by side
/// (`Main wallet0x5aAe…`), MMKV a printable length byte before a value. Glued, an address is
/// taken only where its own check decides where it ends: an EIP-55 mixed-case Ethereum address
/// (a single-case one only when no hex digit follows), a Bech32 address by its checksum at its
/// standard lengths, a TRON address (`T` and 33 Base58 characters) by its Base58Check sum.
/// Legacy Bitcoin addresses (26 to 35 characters) are taken set apart only.
fn addresses_in(text: &str) -> Vec<(String, String)> {
    use masf_graph::identifiers::normalize;
    let mut out: Vec<(String, String)> = crate::extract::identifiers(text, None)
        .into_iter()
        .filter(|f| f.id_type == IdType::Wallet)
        .map(|f| (f.raw, f.normalized))
        .collect();
    let mut take = |raw: &str| {
        if let Ok(n) = normalize(IdType::Wallet, raw, None)
            && !out.iter().any(|(_, m)| *m == n)
        {
            out.push((raw.to_string(), n));
        }
    };
    for line in text.lines() {
        let b = line.as_bytes();
        let base58 = |c: u8| c.is_ascii_alphanumeric() && !matches!(c, b'0' | b'O' | b'I' | b'l');
        let mut i = 0;
        while i < b.len() {
            let rest = &b[i..];
            if rest.len() >= 42
                && rest[0] == b'0'
                && (rest[1] | 0x20) == b'x'
                && rest[2..42].iter().all(u8::is_ascii_hexdigit)
            {
                let hex = &line[i + 2..i + 42];
                let mixed = hex.bytes().any(|c| c.is_ascii_lowercase())
                    && hex.bytes().any(|c| c.is_ascii_uppercase());
                if mixed || !rest.get(42).is_some_and(u8::is_ascii_hexdigit) {
                    take(&line[i..i + 42]);
                }
                i += 42;
                continue;
            }
            if rest.len() >= 34 && rest[0] == b'T' && rest[1..34].iter().all(|c| base58(*c)) {
                take(&line[i..i + 34]);
            }
            if rest.len() >= 42 && (rest.starts_with(b"bc1") || rest.starts_with(b"tb1")) {
                for len in [62, 42] {
                    if let Some(c) = line.get(i..i + len) {
                        take(c);
                    }
                }
            }
            i += 1;
        }
    }
    out
}

/// One address found: as written, and each file it was in with the scan that logged it.
struct Found {
    raw: String,
    files: BTreeSet<String>,
    cite: Invoked,
}

/// A data folder of a wallet app.
#[derive(Debug, Clone)]
pub struct Folder {
    /// Its path.
    pub path: String,
    /// The app.
    pub app: &'static WalletApp,
    /// The call whose output names it (a listing, or the application state's query).
    pub cite: Invoked,
    /// Whether a listing of the tree showed it; a folder only named elsewhere (an app's
    /// recorded container) may be absent from the extraction, and is then passed over.
    pub listed: bool,
}

/// Sweeps the data folders of the source's wallet apps, nested folders once (under the
/// outermost).
pub fn sweep(ctx: &AgentCtx<'_>, tree: &TreeRef, folders: &[Folder]) -> Result<(), RuntimeError> {
    let mut sorted: Vec<&Folder> = folders.iter().collect();
    // a listed copy of a folder first, so that it is the one kept
    sorted.sort_by(|a, b| a.path.cmp(&b.path).then(b.listed.cmp(&a.listed)));
    sorted.dedup_by(|a, b| a.path == b.path);
    let mut done: Vec<&str> = Vec::new();
    for f in sorted {
        if done.iter().any(|d| f.path.starts_with(&format!("{d}/"))) {
            continue;
        }
        done.push(&f.path);
        one_folder(ctx, tree, f)?;
    }
    Ok(())
}

fn one_folder(ctx: &AgentCtx<'_>, tree: &TreeRef, f: &Folder) -> Result<(), RuntimeError> {
    let (folder, app, found) = (f.path.as_str(), f.app, &f.cite);
    let what = artefact_name(tree, folder);
    let args = args_on(
        tree,
        json!({"path": folder, "min_size": 1, "limit": MAX_LISTED}),
    );
    let listing = if f.listed {
        call_or_note(ctx, &what, "find_files", args)?
    } else {
        Some(ctx.call("find_files", args)?).filter(crate::calls::succeeded)
    };
    let Some(listing) = listing else {
        return Ok(());
    };
    let files = files_with_sizes(&listing.output.text);
    if files.is_empty() && !f.listed {
        // a recorded container this extraction lacks (or holds empty)
        return Ok(());
    }
    let listed = files.len();
    let truncated = listing.output.text.contains("\n# truncated at limit");
    let (mut scan, skipped): (Vec<_>, Vec<_>) =
        files.into_iter().partition(|(p, _)| scanned(folder, p));
    // smallest first, within the file and byte budgets
    scan.sort_by(|a, b| a.1.cmp(&b.1).then_with(|| a.0.cmp(&b.0)));
    let mut addresses: BTreeMap<String, Found> = BTreeMap::new();
    let mut lists: Vec<(String, usize)> = Vec::new();
    let mut partly: Vec<String> = Vec::new();
    let mut spent = 0u64;
    let mut done = 0usize;
    for (path, size) in &scan {
        if done == MAX_SCANNED || spent >= MAX_BYTES {
            break;
        }
        done += 1;
        spent += (*size).min(MAX_WINDOWS * WINDOW);
        let mut here: BTreeMap<String, (String, Invoked)> = BTreeMap::new();
        let windows = size.div_ceil(WINDOW).clamp(1, MAX_WINDOWS);
        if size.div_ceil(WINDOW) > MAX_WINDOWS {
            partly.push(path.clone());
        }
        for w in 0..windows {
            let Some(out) = call_or_note(
                ctx,
                &artefact_name(tree, path),
                "strings",
                args_on(
                    tree,
                    json!({"path": path, "min_len": MIN_RUN, "offset": w * WINDOW, "length": WINDOW}),
                ),
            )?
            else {
                break;
            };
            for (raw, norm) in addresses_in(&out.output.text) {
                here.entry(norm).or_insert((raw, out.clone()));
            }
        }
        if here.len() > MANY {
            lists.push((path.clone(), here.len()));
            continue;
        }
        for (norm, (raw, cite)) in here {
            addresses
                .entry(norm)
                .or_insert_with(|| Found {
                    raw,
                    files: BTreeSet::new(),
                    cite,
                })
                .files
                .insert(path.clone());
        }
    }
    let id = app
        .android
        .filter(|p| folder.ends_with(p))
        .or(app.ios)
        .unwrap_or(app.name);
    ctx.unparsed(
        &what,
        &format!(
            "{} ({id}) keeps its state in stores that are not parsed; wallet addresses written in clear in its files are listed",
            app.name
        ),
        Some(&listing.record.invocation_id),
    )?;
    let mut facts = vec![fact(FactType::Path, folder, found)];
    let with_addresses: BTreeSet<&String> = addresses.values().flat_map(|f| &f.files).collect();
    facts.extend(
        with_addresses
            .into_iter()
            .chain(lists.iter().map(|(p, _)| p))
            .map(|p| fact(FactType::Path, p.as_str(), &listing)),
    );
    facts.extend(
        addresses
            .values()
            .map(|f| fact(FactType::Wallet, f.raw.as_str(), &f.cite)),
    );
    let mut said = format!(
        "{} ({id}) keeps data in {folder}: {listed} file(s) listed{}, {} scanned for wallet addresses written in clear",
        app.name,
        if truncated {
            format!(" (the listing stopped at {MAX_LISTED})")
        } else {
            String::new()
        },
        done,
    );
    if !skipped.is_empty() {
        said.push_str(&format!(
            "; {} in cache or code folders or media and code files were not",
            skipped.len()
        ));
    }
    if done < scan.len() {
        said.push_str(&format!(
            "; {} more were not scanned (at most {MAX_SCANNED} files and {} MiB a folder, smallest first)",
            scan.len() - done,
            MAX_BYTES >> 20
        ));
    }
    if !partly.is_empty() {
        said.push_str(&format!(
            "; only the first {} MiB of {} were scanned",
            (MAX_WINDOWS * WINDOW) >> 20,
            partly.join(", ")
        ));
    }
    said.push('.');
    if addresses.is_empty() {
        said.push_str(" No wallet address is written in clear in the files scanned.");
    } else {
        let each: Vec<String> = addresses
            .values()
            .map(|f| {
                format!(
                    "{} (in {})",
                    f.raw,
                    f.files.iter().cloned().collect::<Vec<_>>().join(", ")
                )
            })
            .collect();
        said.push_str(&format!(
            " Wallet addresses: {}. The app's stores are not parsed, so whose each is (the wallet's own, a payee's, a token contract) is not known.",
            each.join("; ")
        ));
    }
    if !lists.is_empty() {
        let each: Vec<String> = lists.iter().map(|(p, n)| format!("{p} ({n})")).collect();
        said.push_str(&format!(
            " Files holding more than {MANY} addresses, lists such as token contracts or a cache, whose addresses are counted and not named: {}.",
            each.join(", ")
        ));
    }
    record(
        ctx,
        PhenomenonDraft {
            category: "wallets".into(),
            title: if addresses.is_empty() {
                format!("{} data at {folder}: no wallet address in clear", app.name)
            } else {
                format!(
                    "{} data at {folder}: {} wallet address(es) in clear",
                    app.name,
                    addresses.len()
                )
            },
            facts,
            interpretation: said,
            times: vec![],
        },
    )?;
    for (norm, f) in &addresses {
        observe(
            ctx,
            &format!("wallet:{norm}"),
            EntityKind::Wallet,
            norm,
            IdType::Wallet,
            &f.raw,
            &f.cite,
            format!(
                "A wallet address written in clear in {}'s data; whose it is is not known.",
                app.name
            ),
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ios_containers_are_found_by_preferences_caches_and_backup_folders() {
        let c = "/private/var/mobile/Containers/Data/Application/0A1B";
        assert_eq!(
            ios_container(
                &format!("{c}/Library/Preferences/com.sixdays.trust.plist"),
                false
            )
            .map(|(p, a)| (p, a.name)),
            Some((c.to_string(), "Trust Wallet"))
        );
        assert_eq!(
            ios_container(&format!("{c}/Library/Caches/im.token.app"), true)
                .map(|(p, a)| (p, a.name)),
            Some((c.to_string(), "imToken"))
        );
        let backup = "/private/var/mobile/Containers/Data/Application/com.czzhao.binance";
        assert_eq!(
            ios_container(backup, true).map(|(p, a)| (p, a.name)),
            Some((backup.to_string(), "Binance"))
        );
        // the user's own preferences folder is no container; other names are no app's
        assert_eq!(
            ios_container(
                "/private/var/mobile/Library/Preferences/com.sixdays.trust.plist",
                false
            ),
            None
        );
        assert_eq!(
            ios_container(&format!("{c}/Library/Preferences/com.apple.x.plist"), false),
            None
        );
        assert_eq!(
            ios_container(&format!("{c}/Documents/com.sixdays.trust.plist"), false),
            None
        );
    }

    #[test]
    fn addresses_glued_to_the_text_around_them() {
        let eth = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed";
        let tron = "TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW";
        let bech = "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq";
        let text = format!(
            "Main wallet{eth}abc\n*{tron}\nlabel{bech}\nx0x{}e\n",
            "ab".repeat(20)
        );
        let mut found: Vec<String> = addresses_in(&text).into_iter().map(|(r, _)| r).collect();
        found.sort();
        assert_eq!(found, [eth, tron, bech]);
        // a bad checksum glued or apart is none; a lower-case one followed by hex is ambiguous
        let bad = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD";
        assert!(addresses_in(&format!("name{bad}")).is_empty());
        assert!(addresses_in("TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMX").is_empty());
        assert_eq!(DETECTOR, format!("\"min_len\":{MIN_RUN}"));
    }

    #[test]
    fn caches_code_and_media_are_not_scanned() {
        let f = "/data/data/com.wallet.crypto.trustapp";
        assert!(scanned(f, &format!("{f}/files/trust.realm")));
        assert!(scanned(f, &format!("{f}/databases/wallet.db")));
        assert!(!scanned(f, &format!("{f}/cache/tokens.json")));
        assert!(!scanned(f, &format!("{f}/app_webview/Default/x")));
        assert!(!scanned(f, &format!("{f}/files/logo.PNG")));
        assert!(!scanned(f, &format!("{f}/lib/libcore.so")));
    }
}
