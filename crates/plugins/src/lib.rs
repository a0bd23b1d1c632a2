//! Capability plugins (DESIGN §9): one module per evidence type, each a [`Plugin`] with its
//! detection, its tools (registered in the shared catalog), its artefact categorisation, its
//! expected-artefact catalogue and its deterministic triage agent. The core sees them only as
//! `Arc<dyn Plugin>` through [`all`].
//!
//! Triage agents use catalog tools only ([`AgentCtx::call`](masf_agents::AgentCtx::call)) and
//! write only through the gateway; every fact they record is a value copied from the output of
//! the call they cite. Helpers shared by the agents are in [`calls`], [`outputs`], [`drafts`]
//! and [`layout`].
//!
//! # The plugins
//!
//! [`all`] is the set the API composes in (`masf_api::compose`, the one place that names this
//! crate):
//!
//! - [`ios`] (docs/plugins-ios.md): claimed by the iOS directories its tree holds wherever they
//!   sit (`ios::ios_layout`). sms.db, AddressBook, Accounts3 with its archived properties,
//!   CallHistory, WhatsApp, Google Voice, Kik, WeChat, LINE, Signal (SQLCipher: detected and
//!   said), Gmail's offline index, Safari history and downloads, the keyboard's lexicon, Notes
//!   with their protobuf text and share participants, storeSystem installed apps, packages and
//!   updates, Wi-Fi known networks, private addresses and DHCP leases, voicemail, the social apps
//!   Mastodon, Truth Social, MeWe, Twitter/X direct messages, Clubhouse and GroupMe, app cookies
//!   (the `binary_cookies` tool: values never printed), Control Center, image-fetcher caches,
//!   camera-roll screenshots, identity plists, keychain exports, identity-services lookups,
//!   network data usage, Screen Time, imo, Instagram direct, the App Privacy Report export, iCloud
//!   backup state and CarPlay apps, the Photos library, Calendar, Mail's Envelope/Protected Index,
//!   KnowledgeC app usage, routined locations, FrontBoard app state, Bluetooth, Safari
//!   bookmarks, Chromium-family history and bookmarks, the crypto wallets MetaMask Mobile and
//!   Coinbase Wallet, the addresses in clear of other wallet apps, Safari tabs and iCloud Tabs,
//!   and more (the table in `ios/mod.rs`): 233 catalogue artefacts.
//! - [`android`] (docs/plugins-android-disk-archive.md): partitions and encryption;
//!   telephony, contacts, calls, SMS, accounts, WhatsApp, Hangouts and Download Manager
//!   databases, usage-history.xml, build.prop, screenshots. `android::apps`: Twitter, AirGuard,
//!   Files by Google, webview.db, turbo.db, Tango. `android::telegram`: Telegram's cache4.db
//!   (users, the own account, chats, secret chats without keys, messages) and userconfing.xml.
//!   `android::line`, `android::wechat`: LINE, WeChat and Signal accounts; WeChat's SQLCipher
//!   database opened with the key WeChat derives without an IMEI (contacts, messages), else said. `android::signal`: Signal's `signal.db` and
//!   `signal-key-value.db` read with the key the extraction captured (`Secrets/secrets.json`,
//!   `sqlite_query`'s `cipher`): contacts, messages, calls, groups, attachments, the account. `android::system`: saved Wi-Fi networks (never the key),
//!   Bluetooth pairings (never link keys), calendar, media-store photos. `android::settings`: the
//!   settings provider. `android::usagestats`: the usage statistics of Android 5 and later (XML, Android 10's and 11+'s protocol buffers; the
//!   `android_usage_stats` tool). MetaMask Mobile, other wallet apps' addresses in clear, Firefox for Android, and the
//!   apps of the table in `android/mod.rs`: 265 catalogue artefacts.
//! - [`adb`]: ADB keys: the computers an Android device allowed USB debugging from
//!   (`adb_keys`) and a computer's own `adbkey.pub`, both observed by the key (`adb_key`).
//! - [`discord`], [`gchat`], [`snapchat`], [`messenger`], [`teleguard`], [`claude`] (its account), [`protonmail`], [`reddit`] (its qualified ids): stores an app keeps in the same layout on both
//!   platforms, read by both plugins.
//! - [`browsers`]: Chromium-family `History` (visits, downloads, searches), read by the Android
//!   plugin and by every tree triage; [`firefox`]: Firefox-family `places.sqlite` (visits,
//!   bookmarks, downloads; Application Services' store of Fenix and Firefox for iOS too, read
//!   by the iOS plugin as well) and `formhistory.sqlite`, read the same way.
//! - [`media`] (docs/plugins-media.md): the `ocr_image` tool over `leptess`, pooled
//!   single-threaded engines; transaction screenshots.
//! - [`disk`] and [`archive`] (docs/plugins-android-disk-archive.md): one inventory phenomenon
//!   per tree citing the `inventory` pages, never one per file; the deleted files; documents via
//!   the `doc_text` tool, EXIF, identifiers in text, amounts with currency, IBANs
//!   (`iban_validate`) and transaction hashes in document bodies (`extract::money`); the Android
//!   parsers wherever a tree holds such databases.
//! - [`wallets`]: crypto-wallet apps in a tree: browser wallet extensions' LevelDB stores in any
//!   Chromium profile (MetaMask's own accounts as control claims of the profile's user, its
//!   address book as named claims, its transactions; other known wallet extensions' addresses
//!   without a claim); MetaMask Mobile's state files on Android and iOS (the device user's
//!   accounts, address book, transactions, in-app browser history).
//! - [`wallet_apps`]: mobile wallet and exchange apps whose stores are not parsed (Trust
//!   Wallet, imToken, TokenPocket, Binance, OKX, TronLink, Bitget Wallet, Coinbase Wallet on
//!   Android): their data folders on Android and iOS, the wallet addresses written in clear in
//!   them (`strings`, checksums validated), without a claim.
//! - [`waze`]: Waze's `user.db`, one schema on Android and iOS: places, recent destinations,
//!   saved places (home, work), shared places, planned drives, with addresses and coordinates.
//! - [`identity`] turns message and note text into claims: wallets by the cue before them,
//!   contact claims, app account ids ("my WeChat is …", `identity::account_claims`).
//! - [`extract`] finds phones, e-mails and wallets in free text (validated by
//!   `masf_graph::identifiers`).
//! - [`region`] decides a source's phone-numbering region with the deterministic `phone_region`
//!   tool from the evidence clues an agent gathers (SIM, carrier, own number, locale; then the
//!   examiner's `region:`; never the time zone) and records it as a `phone-region` phenomenon
//!   before any number is read; `masf_agents::region` reads it back for every later agent, the
//!   timeline and `masf verify`.
//! - The shared helpers, each named for what it holds: [`calls`] (calling tools with the
//!   "could not parse X because Y" bookkeeping), [`outputs`] (reading `sqlite_query` and
//!   listing texts back from the logged text, so a cached answer reads the same as a fresh one,
//!   and writing values as outputs hold them), [`drafts`] (phenomena being drafted, time
//!   encodings), [`layout`] (recognising a device tree by its directories), and [`identity`]
//!   (observations of who is who).

pub mod adb;
pub mod android;
pub mod archive;
pub mod assistants;
pub mod browsers;
pub mod calls;
pub mod chromium_activity;
pub mod chromium_forms;
pub mod claude;
pub mod discord;
pub mod disk;
pub mod drafts;
pub mod extract;
pub mod firefox;
pub mod fitfile;
pub mod fsevents;
pub mod gaps;
pub mod gchat;
pub mod googledrive;
pub mod identity;
pub mod ios;
pub mod layout;
pub mod linkedin;
pub mod lockdown;
pub mod media;
pub mod messenger;
pub mod mhtml;
pub mod odlh;
pub mod onedrive;
pub mod outputs;
pub mod protonmail;
pub mod recovered;
pub mod reddit;
pub mod region;
pub mod shellhistory;
pub mod snapchat;
pub mod teleguard;
pub mod torrentfile;
pub mod tree;
pub mod wallet_apps;
pub mod wallets;
pub mod waze;

use std::sync::Arc;

use masf_agents::{Plugin, Plugins};

/// Every plugin of this build, in preference order (a tie in detection score goes to the
/// earlier one).
pub fn all() -> Plugins {
    let plugins: Vec<Arc<dyn Plugin>> = vec![
        Arc::new(ios::Ios),
        Arc::new(android::AndroidPlugin),
        media::Media::arc(),
        Arc::new(disk::DiskPlugin),
        Arc::new(archive::ArchivePlugin),
    ];
    Plugins::new(plugins)
}
