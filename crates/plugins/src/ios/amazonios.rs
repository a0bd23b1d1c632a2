//! Amazon Shopping for iOS (the storefront apps `com.amazon.Amazon` and `com.amazon.Amazon<CC>`,
//! e.g. `com.amazon.AmazonUK`), iLEAPP's `amazonShopping` ("Amazon - Account and App State",
//! "Profiles", "Orders", "Product Lookups", "Delivery Location", "Image Cache"): the customer
//! and the Amazon accounts the app knows, the orders it last listed, the products it looked up,
//! the delivery place the storefront chose and the product images it cached.
//!
//! | file | phenomenon | fields |
//! |---|---|---|
//! | `Library/Preferences/<bundle>.plist` (`parse_plist`, `CMICustomerID` qualified `amazon-customer:<id>`) | one `accounts` ("Amazon Shopping account <customer id>", or "Amazon Shopping app state (<bundle>)") | the bundle; iLEAPP's keys: customer id and `amazon-customer:` id, anonymous customer id, teen account, marketplace, localisation country and language, App Store storefront country, app and system versions, user agents, identifier for vendor, install and CDV UUIDs, Bugsnag user id, push notification AI and app ids, state and sequence, app starts, foreground and deep-link counts, cached cart count, biometric unlock and camera permission flags, Amazon Pay, international shopping, camera search mode, attestation state, advertising marketplace and SIS domain, the `Pam*` and SKAdNetwork dates as stored, last refresh time as stored; per marketplace (`<marketplace>/<key>`): most recent authenticated account, Prime, business account and shipping flags, user state status; times: DCM and Minerva configuration synced (Unix ms), local sampling key updated (Unix s), advertising device info, configuration, identify user, login status and session registration (`AmazonAd:*`, Cocoa seconds), the plist's dates (sign-in interstitial shown, tooltip shown, CXI revert threshold, creation and expiration, as `parse_plist` prints them) |
//! | `Documents/RCTAsyncLocalStorage_V1/manifest.json` › `persist:root` › `pandaStore` (or the file the manifest keeps `persist:root` in, named by its MD5; `read_json` with `decode_nested`, `accountId` qualified `amazon:<id>`) | one `accounts` per profile ("Amazon Shopping profile <full name>") | account id and `amazon:` id, full name, primary account claim (e-mail or phone) and its type, the storefront's marketplace (`marketplaceStore`); last active and last updated (Unix ms) |
//! | `Library/Preferences/amzn1.account.<id>.plist` (its name only: the file holds Alexa wake-word settings) | one `accounts` per file ("Amazon Shopping account <id> (preference file)") | the account id |
//! | `Library/Caches/<bundle>/Cache.db` (CFNetwork; a response in the database read by SQLite's `json_tree`, one in `fsCachedData/` by `read_json`) `…/api/orders/v1…` › `orderInfoList.orderInfos[]` | one `transactions` per line item ("Amazon order <order id> item <ASIN>"), or per order without any ("Amazon order <order id>") | order id, ASIN, quantity, adult item, product page, image URL, order details page, line items in the order (as stored), the request address; ordered (`orderDate`, Unix s), cached (the entry's `time_stamp`, UTC, as Unix seconds from SQL) |
//! | the same, `…get-location-label…` | one `accounts` per response ("Amazon delivery location <city> <postal code>") | city, postal code, state, country, location type and address source (as stored), delivery lines 1 and 2, default shipping address and account address flags (as stored), address id, legacy address id, obfuscated id, the page type (cut from the request address in the query), the address; cached |
//! | the same, `…/api/marketplaces/<marketplace>/products/<ASIN>…` | one `web` per response ("Amazon product lookup <ASIN>") | ASIN and marketplace (cut from the request address in the query), the address, entry id; cached |
//! | `Library/LocalDatabase/ssnapImageCacheRegistry.db`: `FileCacheRegistry` | one `media` per cached image ("Amazon cached image <file name>") | image URL, feature, size, hits (as stored), the recorded file path and its file name (cut in the query), last modified (the HTTP header as stored); last accessed, expires (Unix ms) |
//!
//! The orders are the list the app last fetched (capped by the request), not the account's
//! history; the delivery location is the destination the storefront had selected for the
//! session, not a position of the device (no coordinates); a product lookup is the app asking
//! for the product's details, not the user opening its page. A product response is a Snappy
//! stream of multipart parts: its title is not decoded (the ASIN and marketplace come from the
//! address); an orders or location response kept compressed, or that is no JSON, is noted. The
//! rest of `Cache.db` — every cached address — is read by the URL cache reader
//! ([`super::safari`]). Not read: the queued metric batches (`Library/METRICS_*`: Protocol
//! Buffers without a schema, written by other Amazon apps too, holding session ids), the image
//! files of `Library/Caches/ssnap_image_cache/` and `Documents/asins/` (a server-sent lookup
//! table, not products viewed). The preferences file is read whole by `parse_plist`: only the
//! keys above are recorded, never the session id (`CMISessionID`) or the push notification
//! device token.
//!
//! The preferences and `Cache.db` name their storefront by their path (the bundle); the
//! AsyncStorage manifest, the per-account preference files and the image registry are read
//! only in a container known to be a storefront's: by the folder's name (a backup), FrontBoard,
//! the container's metadata ([`super::appcontainer::container_owner`]), or else the
//! storefront's preferences file in it. Every path and key was observed by iLEAPP in
//! `com.amazon.AmazonUK`'s containers only; the other storefronts are read alike.
//!
//! Identities: the customer id of the preferences is the device's user's (`owner`:
//! `amazon-customer:<id>`). The one profile of `pandaStore` is the device's user's (`owner`:
//! `amazon:<account id>` — the namespace of the Android reader,
//! `android::amazonshopping` —, full name, the claim's e-mail or phone); with several,
//! each is the person `amazon:<account id>`. The per-account files' ids are facts only.

use std::collections::{BTreeMap, BTreeSet};

use masf_agents::RuntimeError;
use masf_graph::{FactType, IdType, TimeEncoding};
use masf_tools::Invoked;
use serde_json::{Value, json};

use super::appcontainer::container_owner;
use super::plists::parse_with;
use super::{Draft, ENTRY_CAP, Run, container_of, file_name, handle_fact_type};
use crate::calls::{require_columns, select_columns};
use crate::drafts::{Encoding, apple_seconds, date_text, unix_millis, unix_seconds};
use crate::outputs::{in_json, json_scalar, raw};

/// The bundle ids of Amazon's storefront apps: `com.amazon.Amazon`, then at most three capital
/// letters (a country: `UK`, `DE`, `JP`).
fn storefront(bundle: &str) -> bool {
    bundle
        .strip_prefix("com.amazon.Amazon")
        .is_some_and(|cc| cc.len() <= 3 && cc.bytes().all(|b| b.is_ascii_uppercase()))
}

/// The storefront whose preferences `path` is (`<container>/Library/Preferences/<bundle>.plist`).
fn prefs_bundle(path: &str) -> Option<&str> {
    let name = file_name(path);
    let bundle = name.strip_suffix(".plist")?;
    let container = container_of(path)?;
    (storefront(bundle) && path == format!("{container}/Library/Preferences/{name}"))
        .then_some(bundle)
}

/// Whether `path` is a storefront's preferences (for `categorise`).
pub fn is_prefs(path: &str) -> bool {
    prefs_bundle(path).is_some()
}

/// Whether `path` is a storefront's URL cache `Cache.db` (for `categorise`).
pub fn is_cache(path: &str) -> bool {
    cache_bundle(path).is_some()
}

/// The storefront whose URL cache `path` is (`<container>/Library/Caches/<bundle>/Cache.db`).
fn cache_bundle(path: &str) -> Option<&str> {
    let dir = path.strip_suffix("/Cache.db")?;
    let (parent, bundle) = dir.rsplit_once('/')?;
    let container = container_of(path)?;
    (storefront(bundle) && parent == format!("{container}/Library/Caches")).then_some(bundle)
}

/// The storefronts' data containers, as the source tells them.
struct Storefronts {
    /// Containers holding a storefront's preferences → its bundle.
    prefs: BTreeMap<String, String>,
    /// Each container asked about: how it is known to be a storefront's.
    known: BTreeMap<String, Option<String>>,
}

impl Storefronts {
    fn new(run: &Run<'_, '_>) -> Result<Self, RuntimeError> {
        let mut prefs = BTreeMap::new();
        if let Some((_, paths)) = run.find("com.amazon.Amazon*.plist")? {
            for p in &paths {
                if let (Some(bundle), Some(c)) = (prefs_bundle(p), container_of(p)) {
                    prefs.insert(c.to_string(), bundle.to_string());
                }
            }
        }
        Ok(Self {
            prefs,
            known: BTreeMap::new(),
        })
    }

    /// How the container holding `path` is known to be a storefront's; `None` when it is
    /// another app's or nothing says.
    fn holds(&mut self, run: &Run<'_, '_>, path: &str) -> Result<Option<String>, RuntimeError> {
        let Some(container) = container_of(path).map(str::to_string) else {
            return Ok(None);
        };
        if let Some(how) = self.known.get(&container) {
            return Ok(how.clone());
        }
        let mut how = None;
        let mut named = false;
        if let Some(find) = run.searched_call()
            && let Some(owner) = container_owner(run, &find, path)?
            && let Some(bundle) = owner.bundle.as_deref()
        {
            named = true;
            if storefront(bundle) {
                how = Some(owner.how.clone());
            }
        }
        if !named && let Some(bundle) = self.prefs.get(&container) {
            how = Some(format!(
                "the container holds {bundle}'s preferences (Library/Preferences/{bundle}.plist)"
            ));
        }
        self.known.insert(container, how.clone());
        Ok(how)
    }
}

/// Triage of every Amazon Shopping container of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    let mut apps = Storefronts::new(run)?;
    run.each("com.amazon.Amazon*.plist", |find, path| {
        if let Some(bundle) = prefs_bundle(path) {
            preferences(run, find, path, bundle)?;
        }
        Ok(())
    })?;
    run.each("manifest.json", |find, path| {
        if path.ends_with("/Documents/RCTAsyncLocalStorage_V1/manifest.json")
            && let Some(how) = apps.holds(run, path)?
        {
            profiles(run, find, path, &how)?;
        }
        Ok(())
    })?;
    run.each("amzn1.account.*.plist", |find, path| {
        let in_prefs = container_of(path).is_some_and(|c| {
            path.strip_prefix(c)
                .is_some_and(|rest| rest == format!("/Library/Preferences/{}", file_name(path)))
        });
        if in_prefs && let Some(how) = apps.holds(run, path)? {
            account_file(run, find, path, &how)?;
        }
        Ok(())
    })?;
    run.each("Cache.db", |find, path| {
        if let Some(bundle) = cache_bundle(path) {
            cache(run, find, path, bundle)?;
        }
        Ok(())
    })?;
    run.each("ssnapImageCacheRegistry.db", |find, path| {
        if path.ends_with("/Library/LocalDatabase/ssnapImageCacheRegistry.db")
            && let Some(how) = apps.holds(run, path)?
        {
            images(run, find, path, &how)?;
        }
        Ok(())
    })
}

// ------------------------------------------------------------------------------- preferences

/// How a preferences value is read as a time.
#[derive(Clone, Copy)]
enum When {
    /// Not a time (recorded as stored).
    No,
    /// Unix milliseconds.
    Millis,
    /// Unix seconds.
    Seconds,
    /// Cocoa seconds.
    Cocoa,
    /// A plist date (`parse_plist`'s RFC 3339 text); a number is recorded as stored.
    Date,
}

/// The preferences keys read: (key, type, label, time).
const KEYS: &[(&str, FactType, &str, When)] = &[
    ("CMICustomerID", FactType::Account, "customer id", When::No),
    (
        "CMICustomerID.qualified",
        FactType::Account,
        "customer",
        When::No,
    ),
    (
        "AnonymousCustomerId",
        FactType::Identifier,
        "anonymous customer id",
        When::No,
    ),
    ("IsTeenAccount", FactType::Text, "teen account", When::No),
    (
        "AmazonMarketplace",
        FactType::Identifier,
        "marketplace",
        When::No,
    ),
    (
        "kAMILocalizationSystemConfigDefaultKeyCountry",
        FactType::Text,
        "localisation country",
        When::No,
    ),
    (
        "kAMILocalizationSystemConfigDefaultKeyLanguage",
        FactType::Text,
        "localisation language",
        When::No,
    ),
    (
        "kAppleStorefrontCountryCode",
        FactType::Text,
        "App Store storefront country",
        When::No,
    ),
    (
        "AMIApplicationInformationImpl.LastRunAppVersion",
        FactType::Text,
        "last run app version",
        When::No,
    ),
    (
        "kCurrentAppVersionKey",
        FactType::Text,
        "current app version",
        When::No,
    ),
    (
        "AMIUserDefaultsAppVersionKey",
        FactType::Text,
        "user defaults app version",
        When::No,
    ),
    (
        "SMASH_STORED_APP_VERSION_KEY",
        FactType::Text,
        "stored app version",
        When::No,
    ),
    (
        "SMASH_STORED_SYSTEM_VERSION_KEY",
        FactType::Text,
        "stored system version",
        When::No,
    ),
    (
        "SMASH_STORED_USER_AGENT_STRING_KEY",
        FactType::Text,
        "stored user agent",
        When::No,
    ),
    (
        "AmazonAd:userAgent",
        FactType::Text,
        "advertising user agent",
        When::No,
    ),
    (
        "AWPushNotificationsAiIdKey",
        FactType::Identifier,
        "push notification AI id",
        When::No,
    ),
    (
        "AWPushNotificationsAppIdKey",
        FactType::Identifier,
        "push notification app id",
        When::No,
    ),
    (
        "kAWPushNotificationsEnabledOnDeviceStateKey",
        FactType::Text,
        "push notification device state",
        When::No,
    ),
    (
        "AWPushNotificationsSequenceKey",
        FactType::Text,
        "push notification sequence",
        When::No,
    ),
    (
        "SKADSPT_MSHOP_IDENTIFIER_FOR_VENDOR",
        FactType::Identifier,
        "identifier for vendor",
        When::No,
    ),
    ("CDVUUID", FactType::Identifier, "CDV UUID", When::No),
    (
        "BugsnagUserUserId",
        FactType::Identifier,
        "Bugsnag user id",
        When::No,
    ),
    (
        "SyncPushStateBPTInstallUUID",
        FactType::Identifier,
        "install UUID",
        When::No,
    ),
    (
        "AWApplicationDelegate.AppStartCount",
        FactType::Count,
        "app starts",
        When::No,
    ),
    (
        "AWApplicationDelegate.AppForegroundCount",
        FactType::Count,
        "app foregrounds",
        When::No,
    ),
    (
        "AWApplicationDelegate.AppDeepLinkCount",
        FactType::Count,
        "app deep links",
        When::No,
    ),
    (
        "PamAppStartCounter",
        FactType::Count,
        "Pam app start counter",
        When::No,
    ),
    (
        "PamAppInstallDate",
        FactType::Text,
        "Pam app install date (as stored)",
        When::No,
    ),
    (
        "PamFirstAppStartDate",
        FactType::Text,
        "Pam first app start date (as stored)",
        When::No,
    ),
    (
        "PamAppCloseTimestamp",
        FactType::Text,
        "Pam app close time (as stored)",
        When::No,
    ),
    (
        "SKADSPT_FIRST_UPDATE_TIMESTAMP",
        FactType::Text,
        "SKAdNetwork first update (as stored)",
        When::No,
    ),
    (
        "SKADSPT_LAST_UPDATE_TIMESTAMP",
        FactType::Text,
        "SKAdNetwork last update (as stored)",
        When::No,
    ),
    (
        "kAMICartServiceCurrentCartCountCacheKey",
        FactType::Count,
        "cached cart items",
        When::No,
    ),
    (
        "Preferences/TouchID/enabled",
        FactType::Text,
        "biometric unlock enabled",
        When::No,
    ),
    (
        "TouchID/hasSucceeded",
        FactType::Text,
        "biometric unlock has succeeded",
        When::No,
    ),
    (
        "TouchID/mostRecentAttemptSucceeded",
        FactType::Text,
        "biometric most recent attempt succeeded",
        When::No,
    ),
    (
        "CameraPermissionsDenied",
        FactType::Text,
        "camera permissions denied",
        When::No,
    ),
    (
        "APSPermissionKey_permission_stylesnap_camera_permission",
        FactType::Text,
        "StyleSnap camera permission",
        When::No,
    ),
    (
        "APSPermissionKey_permission_credit_card_scan_camera_permission",
        FactType::Text,
        "card scan camera permission",
        When::No,
    ),
    (
        "AmazonPayEnabled",
        FactType::Text,
        "Amazon Pay enabled",
        When::No,
    ),
    (
        "isInternationalShoppingMode",
        FactType::Text,
        "international shopping mode",
        When::No,
    ),
    (
        "a9vs_lens_last_used_mode_id",
        FactType::Text,
        "camera search last used mode",
        When::No,
    ),
    (
        "AttestationState",
        FactType::Text,
        "attestation state (as stored)",
        When::No,
    ),
    (
        "AmazonAd:UserSpecifiedMarketplaceKey",
        FactType::Text,
        "advertising marketplace",
        When::No,
    ),
    (
        "AmazonAd:SISDomainKey",
        FactType::Text,
        "advertising SIS domain",
        When::No,
    ),
    (
        "LastRefreshTime",
        FactType::Text,
        "last refresh time (as stored)",
        When::No,
    ),
    (
        "DCMArcusLastSyncedTimeKey",
        FactType::Text,
        "DCM configuration last synced",
        When::Millis,
    ),
    (
        "MinervaArcusLastSyncedTimeKey",
        FactType::Text,
        "Minerva configuration last synced",
        When::Millis,
    ),
    (
        "LocalSamplingKeyLastUpdatedTime",
        FactType::Text,
        "local sampling key last updated",
        When::Seconds,
    ),
    (
        "AmazonAd:DeviceInfoUpdateTimestampKey",
        FactType::Text,
        "advertising device info updated",
        When::Cocoa,
    ),
    (
        "AmazonAd:FetchConfigurationTimestampKey",
        FactType::Text,
        "advertising configuration fetched",
        When::Cocoa,
    ),
    (
        "AmazonAd:IdentifyUserTimestampKey",
        FactType::Text,
        "advertising user identified",
        When::Cocoa,
    ),
    (
        "AmazonAd:LoginStatusChangeTimestampKey",
        FactType::Text,
        "advertising login status changed",
        When::Cocoa,
    ),
    (
        "AmazonAd:SessionIdRegistrationTimestampKey",
        FactType::Text,
        "advertising session registered",
        When::Cocoa,
    ),
    (
        "AWSignInInterstitialLastShownDate",
        FactType::Text,
        "sign-in interstitial last shown",
        When::Date,
    ),
    (
        "YOTooltipCacheShownLast",
        FactType::Text,
        "Your Orders tooltip last shown",
        When::Date,
    ),
    (
        "cxiRevertThresholdTimestampKey",
        FactType::Text,
        "CXI revert threshold",
        When::Date,
    ),
    (
        "creation-date",
        FactType::Text,
        "preferences created",
        When::Date,
    ),
    (
        "expiration-date",
        FactType::Text,
        "preferences expire",
        When::Date,
    ),
];

/// The marketplace-scoped keys (`<marketplace>/<key>`): (key, type, label).
const SCOPED: &[(&str, FactType, &str)] = &[
    (
        "AWUser.MostRecentAuthenticatedAccountInMarketplace",
        FactType::Account,
        "most recent authenticated account",
    ),
    ("AWUserKeyIsPrime", FactType::Text, "Prime"),
    ("AWUserKeyIsBusiness", FactType::Text, "business account"),
    (
        "AWUserKeyIsBusinessPrimeShipping",
        FactType::Text,
        "business Prime shipping",
    ),
    (
        "AWUserKeyIsComplimentaryBusinessShipping",
        FactType::Text,
        "complimentary business shipping",
    ),
    (
        "AWUserStateStatus",
        FactType::Text,
        "user state status (as stored)",
    ),
];

fn preferences(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    bundle: &str,
) -> Result<(), RuntimeError> {
    let options = json!({"qualify": {"CMICustomerID": "amazon-customer"}});
    let Some((inv, doc)) = parse_with(run, path, options)? else {
        return Ok(());
    };
    let Some(map) = doc.as_object() else {
        run.ctx.unparsed(
            path,
            "could not read Amazon Shopping's preferences because the plist is no dictionary",
            Some(&inv.record.invocation_id),
        )?;
        return Ok(());
    };
    let get = |k: &str| json_scalar(map.get(k)).filter(|v| !v.trim().is_empty());
    let customer = get("CMICustomerID");
    let mut d = Draft::new(
        "accounts",
        match &customer {
            Some(c) => format!("Amazon Shopping account {c}"),
            None => format!("Amazon Shopping app state ({bundle})"),
        },
    );
    d.fact(FactType::Path, Some(path), find);
    d.fact(FactType::Identifier, Some(bundle), find);
    let mut said = Vec::new();
    for &(key, ft, label, when) in KEYS {
        let Some(v) = get(key) else {
            continue;
        };
        let encoding: Option<TimeEncoding> = match when {
            When::No => None,
            When::Millis => unix_millis(Some(&v)),
            When::Seconds => unix_seconds(Some(&v)),
            When::Cocoa => apple_seconds(Some(&v)),
            When::Date => date_text(Some(&v)),
        };
        match encoding {
            Some(e) => {
                d.time(Some(&v), Some(e), &format!("Amazon Shopping {label}"), &inv);
            }
            None => {
                d.fact(ft, Some(&v), &inv);
            }
        }
        said.push(format!("{label} {v}"));
    }
    let mut scoped: Vec<(&String, &Value)> = map
        .iter()
        .filter(|(k, _)| SCOPED.iter().any(|(s, _, _)| k.ends_with(&format!("/{s}"))))
        .collect();
    scoped.sort_by(|a, b| a.0.cmp(b.0));
    for (key, value) in scoped {
        let Some((market, name)) = key.split_once('/') else {
            continue;
        };
        let Some((_, ft, label)) = SCOPED.iter().find(|(s, _, _)| *s == name) else {
            continue;
        };
        let Some(v) = json_scalar(Some(value)).filter(|v| !v.trim().is_empty()) else {
            continue;
        };
        d.fact(FactType::Identifier, Some(&in_json(market)), &inv);
        d.fact(*ft, Some(&v), &inv);
        said.push(format!("{label} in marketplace {market}: {v}"));
    }
    d.interpretation = format!(
        "The preferences of Amazon Shopping ({bundle}) in {}: the customer signed in and the app's state as the app saved them ({}). Other values of the file (A/B test treatments, the session id, the push notification token) are not recorded. DCM and Minerva sync times are Unix milliseconds, the local sampling key's Unix seconds, the AmazonAd times Cocoa seconds (iLEAPP's readings), dates as parse_plist prints them; the Pam and SKAdNetwork dates and the last refresh time are as stored.",
        file_name(path),
        said.join("; "),
    );
    run.record(d)?;
    let qualified = get("CMICustomerID.qualified");
    let why = |what: &str| {
        format!(
            "{what} of the Amazon customer signed in to Amazon Shopping ({bundle}) on the device (CMICustomerID of {}).",
            file_name(path)
        )
    };
    run.observe_person(
        "owner",
        "device owner",
        &inv,
        &why,
        &[(
            IdType::AccountId,
            qualified.as_deref(),
            "The Amazon customer id (qualified by parse_plist)",
        )],
    )
}

// ------------------------------------------------------------------------------- profiles

fn profiles(run: &Run<'_, '_>, find: &Invoked, path: &str, how: &str) -> Result<(), RuntimeError> {
    let args =
        |p: &str| json!({"path": p, "decode_nested": true, "qualify": {"accountId": "amazon"}});
    let Some(inv) = crate::calls::call_or_note(run.ctx, path, "read_json", args(path))? else {
        return Ok(());
    };
    let doc = crate::outputs::json_document(&inv.output.text).unwrap_or(Value::Null);
    // the value of persist:root, in the manifest or in the file named by the key's MD5
    let (root_inv, root, root_path) = match doc.get("persist:root") {
        Some(v) if v.is_object() => (inv.clone(), v.clone(), path.to_string()),
        Some(Value::Null) => {
            let dir = path.rsplit_once('/').map(|(d, _)| d).unwrap_or("");
            let name = crate::wallets::async_storage_name();
            let file = format!("{dir}/{name}");
            let listed = run
                .find(&name)?
                .is_some_and(|(_, paths)| paths.contains(&file));
            if !listed {
                run.ctx.unparsed(
                    path,
                    &format!(
                        "could not read Amazon Shopping's profiles because the manifest keeps persist:root in {name}, which the folder lacks"
                    ),
                    Some(&inv.record.invocation_id),
                )?;
                return Ok(());
            }
            let Some(file_inv) =
                crate::calls::call_or_note(run.ctx, &file, "read_json", args(&file))?
            else {
                return Ok(());
            };
            let v = crate::outputs::json_document(&file_inv.output.text).unwrap_or(Value::Null);
            (file_inv, v, file)
        }
        _ => {
            run.ctx.unparsed(
                path,
                "could not read Amazon Shopping's profiles because the AsyncStorage manifest holds no persist:root object",
                Some(&inv.record.invocation_id),
            )?;
            return Ok(());
        }
    };
    let Some(panda) = root.get("pandaStore").and_then(Value::as_object) else {
        run.ctx.unparsed(
            &root_path,
            "could not read Amazon Shopping's profiles because persist:root holds no pandaStore object",
            Some(&root_inv.record.invocation_id),
        )?;
        return Ok(());
    };
    let market = json_scalar(root.pointer("/marketplaceStore/marketplace"));
    let records: Vec<&Value> = panda
        .values()
        .filter(|r| r.is_object())
        .take(ENTRY_CAP as usize)
        .collect();
    let only = records.len() == 1;
    let file = file_name(&root_path).to_string();
    for r in records {
        let s = |k: &str| json_scalar(r.get(k)).filter(|v| !v.trim().is_empty());
        let (id, name, claim) = (s("accountId"), s("fullName"), s("primaryAccountClaim"));
        let shown = name
            .clone()
            .or_else(|| id.clone())
            .unwrap_or_else(|| "?".into());
        let mut d = Draft::new("accounts", format!("Amazon Shopping profile {shown}"));
        d.fact(FactType::Path, Some(path), find);
        if root_path != path {
            d.fact(FactType::Path, Some(&root_path), &root_inv);
        }
        let mut said = d.json_fields(
            r,
            &root_inv,
            &[
                ("accountId", FactType::Account, "account id"),
                ("accountId.qualified", FactType::Account, "account"),
                ("fullName", FactType::Name, "full name"),
                ("primaryAccountClaimType", FactType::Text, "claim type"),
            ],
        );
        if let Some(c) = &claim {
            d.fact(handle_fact_type(c), Some(c), &root_inv);
            said.push(format!("primary account claim {c}"));
        }
        if let Some(m) = &market {
            d.fact(FactType::Identifier, Some(m), &root_inv);
            said.push(format!("marketplace {m}"));
        }
        for (k, what) in [
            ("lastActive", "Amazon Shopping profile last active"),
            ("lastUpdated", "Amazon Shopping profile last updated"),
        ] {
            let v = s(k);
            d.time(v.as_deref(), unix_millis(v.as_deref()), what, &root_inv);
        }
        d.interpretation = format!(
            "pandaStore of persist:root in {file} (Amazon Shopping's AsyncStorage; {how}): an Amazon account profile the app keeps ({}); {}. Last active and last updated are Unix milliseconds. A profile records that the account was known to the app on the device, not that it was signed in when the phone was seized.",
            said.join("; "),
            if only {
                "the only profile: the device's user's"
            } else {
                "one of several profiles: each its own person"
            },
        );
        run.record(d)?;
        let qualified = s("accountId.qualified");
        let (email, phone) = match claim.as_deref() {
            Some(c) if c.contains('@') => (Some(c), None),
            Some(c) if run.normalised(IdType::Phone, c).is_some() => (None, Some(c)),
            _ => (None, None),
        };
        let ids = [
            (
                IdType::AccountId,
                qualified.as_deref(),
                "The Amazon account id (qualified by read_json)",
            ),
            (IdType::DisplayName, name.as_deref(), "The full name"),
            (
                IdType::Email,
                email,
                "The primary account claim (an e-mail)",
            ),
            (IdType::Phone, phone, "The primary account claim (a phone)"),
        ];
        if only {
            let why = |what: &str| {
                format!(
                    "{what} of the only Amazon profile Amazon Shopping keeps on the device (pandaStore of {file}), the device's user's."
                )
            };
            run.observe_person("owner", "device owner", &root_inv, &why, &ids)?;
        } else if let Some(context) = qualified.as_deref() {
            let why = |what: &str| {
                format!(
                    "{what} of the Amazon profile {shown}, one of several Amazon Shopping keeps on the device ({file})."
                )
            };
            run.observe_person(context, &shown, &root_inv, &why, &ids)?;
        }
    }
    Ok(())
}

fn account_file(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    how: &str,
) -> Result<(), RuntimeError> {
    let Some(id) = file_name(path).strip_suffix(".plist") else {
        return Ok(());
    };
    let mut d = Draft::new(
        "accounts",
        format!("Amazon Shopping account {id} (preference file)"),
    );
    d.fact(FactType::Path, Some(path), find);
    d.fact(FactType::Account, Some(id), find);
    d.interpretation = format!(
        "Amazon Shopping keeps a preferences file named after the Amazon account {id} ({how}): the account was known to the app on the device. The file's contents (Alexa wake-word settings) are not read."
    );
    run.record(d)
}

// ------------------------------------------------------------------------------- Cache.db

/// The cache entries read, classed in the query, with the product's marketplace and ASIN and
/// the location request's page type cut from the address.
const ENTRIES: &str = "SELECT * FROM (SELECT entry, url, cached, on_fs, fs_name, json_ok, kind, \
CASE WHEN instr(mk, '/') > 0 THEN substr(mk, 1, instr(mk, '/') - 1) END AS marketplace, \
CASE WHEN instr(pq, '/') > 0 THEN substr(pq, 1, instr(pq, '/') - 1) ELSE pq END AS asin, \
CASE WHEN instr(pt, '&') > 0 THEN substr(pt, 1, instr(pt, '&') - 1) ELSE pt END AS page_type \
FROM (SELECT b.*, \
CASE WHEN kind = 'product' THEN substr(url, instr(url, '/marketplaces/') + 14) END AS mk, \
CASE WHEN kind = 'product' THEN CASE WHEN instr(substr(url, instr(url, '/products/') + 10), '?') > 0 \
THEN substr(substr(url, instr(url, '/products/') + 10), 1, instr(substr(url, instr(url, '/products/') + 10), '?') - 1) \
ELSE substr(url, instr(url, '/products/') + 10) END END AS pq, \
CASE WHEN kind = 'location' AND instr(url, 'pageType=') > 0 THEN substr(url, instr(url, 'pageType=') + 9) END AS pt \
FROM (SELECT r.entry_ID AS entry, r.request_key AS url, strftime('%s', r.time_stamp) AS cached, \
d.isDataOnFS AS on_fs, CASE WHEN d.isDataOnFS = 1 THEN CAST(d.receiver_data AS TEXT) END AS fs_name, \
CASE WHEN d.isDataOnFS = 1 THEN NULL ELSE json_valid(CAST(d.receiver_data AS TEXT)) END AS json_ok, \
CASE WHEN r.request_key LIKE '%/api/orders/v1%' THEN 'orders' \
WHEN r.request_key LIKE '%get-location-label%' THEN 'location' \
WHEN r.request_key LIKE '%/api/marketplaces/%/products/%' THEN 'product' END AS kind \
FROM cfurl_cache_response r LEFT JOIN cfurl_cache_receiver_data d ON d.entry_ID = r.entry_ID) b \
WHERE b.kind IS NOT NULL))";

/// A cached response read, as `Cache.db` lists it (values as the output holds them).
struct Entry {
    inv: Invoked,
    entry: String,
    url: Option<String>,
    cached: Option<String>,
    on_fs: bool,
    fs_name: Option<String>,
    json_ok: bool,
    kind: String,
    marketplace: Option<String>,
    asin: Option<String>,
    page_type: Option<String>,
}

/// A response's JSON flattened: each scalar by its path (`$.a.b[0].c`, as `json_tree` names
/// it), as the output holds it.
struct Doc<'a> {
    inv: &'a Invoked,
    leaves: BTreeMap<String, String>,
    /// The response file read, when it is one.
    file: Option<String>,
}

impl Doc<'_> {
    fn get(&self, key: &str) -> Option<&str> {
        self.leaves.get(key).map(String::as_str)
    }

    /// The indices of the list at `base`, in order.
    fn indices(&self, base: &str) -> BTreeSet<usize> {
        let open = format!("{base}[");
        self.leaves
            .keys()
            .filter_map(|k| {
                let rest = k.strip_prefix(&open)?;
                rest[..rest.find(']')?].parse().ok()
            })
            .collect()
    }
}

/// The scalars of a `read_json` document by their path, as `json_tree` names them.
fn flatten(v: &Value, at: &str, out: &mut BTreeMap<String, String>) {
    match v {
        Value::Object(o) => {
            for (k, x) in o {
                flatten(x, &format!("{at}.{k}"), out);
            }
        }
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                flatten(x, &format!("{at}[{i}]"), out);
            }
        }
        x => {
            if let Some(s) = json_scalar(Some(x)) {
                out.insert(at.to_string(), s);
            }
        }
    }
}

fn cache(run: &Run<'_, '_>, find: &Invoked, path: &str, bundle: &str) -> Result<(), RuntimeError> {
    let tables = ["cfurl_cache_response", "cfurl_cache_receiver_data"];
    let Some(schema) = run.schema(path, &tables)? else {
        return Ok(());
    };
    let what = format!("Amazon Shopping's URL cache ({bundle}) Cache.db");
    for (table, needed) in [
        (
            "cfurl_cache_response",
            &["entry_ID", "request_key", "time_stamp"][..],
        ),
        (
            "cfurl_cache_receiver_data",
            &["entry_ID", "isDataOnFS", "receiver_data"][..],
        ),
    ] {
        if !require_columns(run.ctx, path, &what, table, &schema.columns(table), needed)? {
            return Ok(());
        }
    }
    let Some(paged) = run.paged(path, ENTRIES, "entry")? else {
        return Ok(());
    };
    let entries: Vec<Entry> = paged
        .rows()
        .filter_map(|(inv, t, row)| {
            Some(Entry {
                inv: inv.clone(),
                entry: raw(t, row, "entry")?,
                url: raw(t, row, "url"),
                cached: raw(t, row, "cached"),
                on_fs: t.get(row, "on_fs") == Some("1"),
                fs_name: t.get(row, "fs_name").map(str::to_string),
                json_ok: t.get(row, "json_ok") == Some("1"),
                kind: t.get(row, "kind")?.to_string(),
                marketplace: raw(t, row, "marketplace"),
                asin: raw(t, row, "asin"),
                page_type: raw(t, row, "page_type"),
            })
        })
        .collect();
    crate::calls::note_pages_cap(run.ctx, path, &paged, "cached Amazon responses")?;
    let inline = if entries
        .iter()
        .any(|e| !e.on_fs && e.kind != "product" && e.json_ok)
    {
        super::safari::cached_json_values(
            run,
            path,
            "r.request_key LIKE '%/api/orders/v1%' OR r.request_key LIKE '%get-location-label%'",
            "orders and location responses",
        )?
    } else {
        None
    };
    let base = path.strip_suffix("/Cache.db").unwrap_or(path);
    let mut budget = ENTRY_CAP;
    for e in &entries {
        if e.kind == "product" {
            product(run, find, path, e)?;
            continue;
        }
        let file_read = if e.on_fs {
            let Some(name) = &e.fs_name else { continue };
            let file = format!("{base}/fsCachedData/{name}");
            let Some(inv) =
                crate::calls::call_or_note(run.ctx, &file, "read_json", json!({"path": file}))?
            else {
                continue;
            };
            let Some(v) = crate::outputs::json_document(&inv.output.text) else {
                continue;
            };
            let mut leaves = BTreeMap::new();
            flatten(&v, "$", &mut leaves);
            Some((inv, leaves, file))
        } else {
            if !e.json_ok {
                run.ctx.unparsed(
                    path,
                    &format!(
                        "could not parse the cached Amazon response of entry {} ({}) because the data kept in the database is no JSON (compressed or cut)",
                        e.entry,
                        e.url.as_deref().unwrap_or("?")
                    ),
                    Some(&e.inv.record.invocation_id),
                )?;
                continue;
            }
            None
        };
        let doc = match (&file_read, &inline) {
            (Some((inv, leaves, file)), _) => Doc {
                inv,
                leaves: leaves.clone(),
                file: Some(file.clone()),
            },
            (None, Some((inv, t))) => {
                let mut leaves = BTreeMap::new();
                for row in t
                    .rows
                    .iter()
                    .filter(|r| raw(t, r, "entry").as_deref() == Some(e.entry.as_str()))
                {
                    if let (Some(k), Some(v)) = (t.get(row, "k"), raw(t, row, "v")) {
                        leaves.insert(k.to_string(), v);
                    }
                }
                Doc {
                    inv,
                    leaves,
                    file: None,
                }
            }
            _ => continue,
        };
        if e.kind == "orders" {
            orders(run, find, path, e, &doc, &mut budget)?;
        } else {
            location(run, find, path, e, &doc)?;
        }
    }
    Ok(())
}

/// A draft with the store's path, the response file's, the entry's address and cached time.
fn draft(
    category: &'static str,
    find: &Invoked,
    path: &str,
    e: &Entry,
    doc: Option<&Doc<'_>>,
    title: String,
) -> Draft {
    let mut d = Draft::new(category, title);
    d.fact(FactType::Path, Some(path), find);
    if let Some(doc) = doc {
        d.fact(FactType::Path, doc.file.as_deref(), doc.inv);
    }
    d.fact(FactType::Url, e.url.as_deref(), &e.inv);
    d.time(
        e.cached.as_deref(),
        e.cached.as_ref().map(|_| TimeEncoding::UnixSeconds),
        "Amazon response cached",
        &e.inv,
    );
    d
}

/// Adds each `(key under prefix, type, label)` the document holds; returns what was said.
fn doc_fields(
    d: &mut Draft,
    doc: &Doc<'_>,
    prefix: &str,
    spec: &[(&str, FactType, &str)],
) -> Vec<String> {
    let mut said = Vec::new();
    for (k, ft, label) in spec {
        if let Some(v) = doc.get(&format!("{prefix}.{k}")) {
            d.fact(*ft, Some(v), doc.inv);
            said.push(format!("{label} {v}"));
        }
    }
    said
}

fn orders(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    e: &Entry,
    doc: &Doc<'_>,
    budget: &mut u64,
) -> Result<(), RuntimeError> {
    let base = "$.orderInfoList.orderInfos";
    let order_ids = doc.indices(base);
    if order_ids.is_empty() {
        run.ctx.unparsed(
            doc.file.as_deref().unwrap_or(path),
            &format!(
                "could not read the cached Amazon orders of entry {} because the response has no orderInfoList.orderInfos list",
                e.entry
            ),
            Some(&doc.inv.record.invocation_id),
        )?;
        return Ok(());
    }
    let file = file_name(path);
    for i in order_ids {
        let order = format!("{base}[{i}]");
        let id = doc
            .get(&format!("{order}.orderId"))
            .unwrap_or("without an id")
            .to_string();
        let items = format!("{order}.lineItemGroup.lineItems");
        let mut lines: Vec<Option<usize>> = doc.indices(&items).into_iter().map(Some).collect();
        if lines.is_empty() {
            lines.push(None);
        }
        for j in lines {
            if *budget == 0 {
                run.ctx.unparsed(
                    path,
                    &format!("more than {ENTRY_CAP} cached order lines: those past the first {ENTRY_CAP} were not read"),
                    Some(&doc.inv.record.invocation_id),
                )?;
                return Ok(());
            }
            *budget -= 1;
            let item = j.map(|j| format!("{items}[{j}]"));
            let asin = item.as_ref().and_then(|it| doc.get(&format!("{it}.asin")));
            let title = match asin {
                Some(a) => format!("Amazon order {id} item {a}"),
                None => format!("Amazon order {id}"),
            };
            let mut d = draft("transactions", find, path, e, Some(doc), title);
            let mut said = doc_fields(
                &mut d,
                doc,
                &order,
                &[
                    ("orderId", FactType::Identifier, "order id"),
                    ("landingPageUrl", FactType::Url, "order details page"),
                    ("asinCounts", FactType::Count, "line items in the order"),
                ],
            );
            if let Some(it) = &item {
                said.extend(doc_fields(
                    &mut d,
                    doc,
                    it,
                    &[
                        ("asin", FactType::Identifier, "ASIN"),
                        ("quantity", FactType::Count, "quantity"),
                        ("adult", FactType::Text, "adult item"),
                        ("detailsPageUrl", FactType::Url, "product page"),
                        ("imageUrl", FactType::Url, "image"),
                    ],
                ));
            }
            let ordered = doc.get(&format!("{order}.orderDate"));
            d.time(
                ordered,
                unix_seconds(ordered),
                "Amazon order placed",
                doc.inv,
            );
            d.interpretation = format!(
                "An order in the list Amazon Shopping last fetched (cache entry {} of {file}{}: {}); {}. The list is what the app last showed, capped by the request, not the account's whole history; ordered is Unix seconds, cached the entry's time (UTC). The adult flag is as stored.",
                e.entry,
                if doc.file.is_some() {
                    ", the response kept in fsCachedData"
                } else {
                    ", the response kept in the database"
                },
                said.join("; "),
                if item.is_some() {
                    "one line item of it"
                } else {
                    "the order lists no line item"
                },
            );
            run.record(d)?;
        }
    }
    Ok(())
}

fn location(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    e: &Entry,
    doc: &Doc<'_>,
) -> Result<(), RuntimeError> {
    let intent = "$.customerIntent";
    let city = doc.get(&format!("{intent}.city"));
    let zip = doc.get(&format!("{intent}.zipCode"));
    let shown = [city, zip]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>()
        .join(" ");
    let title = if shown.is_empty() {
        format!("Amazon delivery location (entry {})", e.entry)
    } else {
        format!("Amazon delivery location {shown}")
    };
    let mut d = draft("accounts", find, path, e, Some(doc), title);
    let mut said = doc_fields(
        &mut d,
        doc,
        intent,
        &[
            ("city", FactType::Text, "city"),
            ("zipCode", FactType::Text, "postal code"),
            ("state", FactType::Text, "state"),
            ("countryCode", FactType::Text, "country"),
            ("locationType", FactType::Text, "location type (as stored)"),
            (
                "addressSource",
                FactType::Text,
                "address source (as stored)",
            ),
            (
                "isDefaultShippingAddress",
                FactType::Text,
                "default shipping address (as stored)",
            ),
            (
                "isAccountAddress",
                FactType::Text,
                "account address (as stored)",
            ),
            ("addressId", FactType::Identifier, "address id"),
            ("legacyAddressId", FactType::Identifier, "legacy address id"),
            ("obfuscatedId", FactType::Identifier, "obfuscated id"),
        ],
    );
    said.extend(doc_fields(
        &mut d,
        doc,
        "$",
        &[
            ("deliveryLine1", FactType::Text, "delivery line 1"),
            ("deliveryLine2", FactType::Text, "delivery line 2"),
        ],
    ));
    if let Some(p) = &e.page_type {
        d.fact(FactType::Text, Some(p), &e.inv);
        said.push(format!("page type {p}"));
    }
    if said.is_empty() {
        run.ctx.unparsed(
            doc.file.as_deref().unwrap_or(path),
            &format!(
                "could not read the cached Amazon delivery location of entry {} because the response has no customerIntent or delivery lines",
                e.entry
            ),
            Some(&doc.inv.record.invocation_id),
        )?;
        return Ok(());
    }
    d.interpretation = format!(
        "The delivery destination the Amazon storefront had selected for the session (cache entry {} of {}: {}): the place orders would be delivered to, not a position of the device (no coordinates); the flags are as stored; cached is the entry's time (UTC).",
        e.entry,
        file_name(path),
        said.join("; "),
    );
    run.record(d)
}

fn product(run: &Run<'_, '_>, find: &Invoked, path: &str, e: &Entry) -> Result<(), RuntimeError> {
    let shown = e
        .asin
        .clone()
        .unwrap_or_else(|| format!("(entry {})", e.entry));
    let mut d = draft(
        "web",
        find,
        path,
        e,
        None,
        format!("Amazon product lookup {shown}"),
    );
    d.fact(FactType::Identifier, e.asin.as_deref(), &e.inv);
    d.fact(FactType::Identifier, e.marketplace.as_deref(), &e.inv);
    d.fact(FactType::Identifier, Some(&e.entry), &e.inv);
    d.interpretation = format!(
        "Amazon Shopping requested the details of the product {shown} (marketplace {}; cache entry {} of {}): the app asking for the product, which is not the same as the user opening its page. The ASIN and marketplace are cut from the request address in the query; the response (a Snappy-compressed multipart document) is not decoded, so no title is read. Cached is the entry's time (UTC).",
        e.marketplace.as_deref().unwrap_or("not named"),
        e.entry,
        file_name(path),
    );
    run.record(d)
}

// ------------------------------------------------------------------------------- image cache

fn images(run: &Run<'_, '_>, find: &Invoked, path: &str, how: &str) -> Result<(), RuntimeError> {
    let table = "FileCacheRegistry";
    let Some(schema) = run.schema(path, &[table])? else {
        return Ok(());
    };
    let cols = schema.columns(table);
    let what = "Amazon Shopping's ssnapImageCacheRegistry.db";
    if cols.is_empty() {
        run.ctx.unparsed(
            path,
            &format!("could not parse {what} because it has no {table} table"),
            None,
        )?;
        return Ok(());
    }
    if !require_columns(run.ctx, path, what, table, &cols, &["url"])? {
        return Ok(());
    }
    let file_path = crate::calls::column_expr(&cols, "", "filePath");
    let sql = format!(
        "SELECT * FROM (SELECT rowid AS rid, url, {}, CASE WHEN {file_path} IS NOT NULL AND {file_path} != '' THEN replace({file_path}, rtrim({file_path}, replace({file_path}, '/', '')), '') END AS file_name FROM {table})",
        select_columns(
            &cols,
            "",
            &[
                ("featureName", "feature"),
                ("size", "size"),
                ("numHits", "hits"),
                ("filePath", "file_path"),
                ("lastModified", "last_modified"),
                ("lastAccessed", "last_accessed"),
                ("expiryDate", "expires"),
            ],
        ),
    );
    let Some(paged) = run.paged(path, &sql, "rid")? else {
        return Ok(());
    };
    let file = file_name(path);
    let times: [(&str, &str, Encoding); 2] = [
        (
            "last_accessed",
            "Amazon cached image last accessed",
            unix_millis,
        ),
        ("expires", "Amazon cached image expires", unix_millis),
    ];
    for (inv, t, row) in paged.rows() {
        let shown = raw(t, row, "file_name")
            .or_else(|| raw(t, row, "url"))
            .unwrap_or_else(|| "?".into());
        let mut d = Draft::new("media", format!("Amazon cached image {shown}"));
        d.fact(FactType::Path, Some(path), find);
        let said = d.fields(
            t,
            row,
            inv,
            &[
                ("url", FactType::Url, "image"),
                ("feature", FactType::Text, "feature"),
                ("size", FactType::Count, "size (bytes)"),
                ("hits", FactType::Count, "hits (as stored)"),
                ("file_path", FactType::Text, "recorded file"),
                ("file_name", FactType::Text, "file name"),
                ("last_modified", FactType::Text, "last modified (as stored)"),
            ],
        );
        for (col, what, enc) in times {
            let v = t.get(row, col);
            d.time(v, enc(v), what, inv);
        }
        d.interpretation = format!(
            "A product image Amazon Shopping cached ({table} of {file}, {how}): {}. The recorded path carries the container of the device that wrote it; the file, where kept, is in Library/Caches/ssnap_image_cache under the same name (not read here). Last accessed and expires are Unix milliseconds; last modified is the HTTP header as stored; hits are the counter as stored.",
            said.join("; "),
        );
        run.record(d)?;
    }
    crate::calls::note_pages_cap(run.ctx, path, &paged, "Amazon cached images")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn storefronts_by_bundle_and_path() {
        assert!(storefront("com.amazon.AmazonUK") && storefront("com.amazon.Amazon"));
        assert!(!storefront("com.amazon.AmazonVideo") && !storefront("com.amazon.echo"));
        let c =
            "/private/var/mobile/Containers/Data/Application/0A1B2C3D-0000-4000-8000-000000000001";
        assert_eq!(
            prefs_bundle(&format!(
                "{c}/Library/Preferences/com.amazon.AmazonUK.plist"
            )),
            Some("com.amazon.AmazonUK")
        );
        assert_eq!(
            prefs_bundle(&format!("{c}/Documents/com.amazon.AmazonUK.plist")),
            None
        );
        assert_eq!(
            cache_bundle(&format!("{c}/Library/Caches/com.amazon.AmazonDE/Cache.db")),
            Some("com.amazon.AmazonDE")
        );
        assert_eq!(
            cache_bundle(&format!("{c}/Library/Caches/com.other.app/Cache.db")),
            None
        );
    }

    #[test]
    fn flattened_as_json_tree_names() {
        let mut out = BTreeMap::new();
        flatten(
            &json!({"a": {"b": [{"c": "x"}, {"c": 2}]}, "t": true}),
            "$",
            &mut out,
        );
        assert_eq!(out.get("$.a.b[0].c").map(String::as_str), Some("x"));
        assert_eq!(out.get("$.a.b[1].c").map(String::as_str), Some("2"));
        assert_eq!(out.get("$.t").map(String::as_str), Some("true"));
    }
}
