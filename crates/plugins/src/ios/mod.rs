//! iOS: full-file-system extractions (zip, tar, folder) and iTunes/Finder backups, which the
//! evidence layer presents as the same tree.
//!
//! The triage agent (`ios-triage`) finds each artefact with `find_files`, reads databases with
//! `sqlite_query` (a working copy with its `-wal`, so rows only in the WAL are read) and
//! property lists with `parse_plist`, and records:
//!
//! | artefact | module | phenomena | identities |
//! |---|---|---|---|
//! | `sms.db` | [`sms`] | one per message (handle, chat, direction, Apple time, text, attachments) | `handle:<id>` per counterparty, `owner` from the accounts the messages went through |
//! | `AddressBook.sqlitedb` | [`addressbook`] | one per person | `contact:<ROWID>`: name, phones, e-mails |
//! | `Accounts3.sqlite` | [`accounts`] | one per account | `owner`: Apple ID, Google account, e-mail accounts |
//! | WhatsApp `ChatStorage.sqlite`, `ContactsV2.sqlite`, `CallHistory.sqlite` | [`whatsapp`] | messages, contacts, calls | `contact:whatsapp:<Z_PK>`, `handle:<jid>` |
//! | Google Voice `threadingStore.sqlite` | [`googlevoice`] | one per text, call, voicemail (transcript), participant | `owner`: own Google Voice numbers, Google account id; `handle:<E.164>` |
//! | Kik `kik.sqlite` | [`kik`] | one per user, per message | `kik:<Z_PK>`: JID, user name, display name |
//! | WeChat `Documents/<md5>/DB/MM.sqlite`, `WCDB_Contact.sqlite`, `mmsetting.archive` | [`wechat`] | the account; one per contact or group, per message | `owner`: wxid, WeChat ID, nickname, mobile; `wechat:<user name>` (`wechat`, names); groups as accounts |
//! | LINE `Line.sqlite` | [`line`] | one per user, per message | `line:<mid>`: mid, names |
//! | Session `database/Session.sqlite` with a keychain export | [`session`] | messages and calls, contacts (iLEAPP's fields); without the key one naming the database, noted unparsed | `session:<Session ID>` with name; `owner`: the author of outgoing messages |
//! | Signal `grdb/signal.sqlite` with a keychain export | [`signal`] | contacts, conversations, messages (iLEAPP's fields); without the key one naming the database, noted unparsed | `signal:<ACI>` with phone and profile name |
//! | Mastodon `Databases/shared.sqlite` (only with its `ZMASTODONUSER` table) | [`mastodon`] | the signed-in account; one per user, per status (direct ones as messages), per notification | `owner`: `mastodon:user@instance`, user name, display name; `mastodon:user@instance` per other user; wallets in direct messages (claims of the writer) |
//! | Truth Social `chat/v1/<account id>/ChatModel.sqlite` | [`truthsocial`] | one per account, per chat, per chat event (messages, membership, expiry) | `owner`: `truthsocial:<id>` (the chats' owner); `truthsocial:<id>` per other account; wallets in messages (claims of the writer) |
//! | MeWe `sgrouplesdb.sqlite` | [`mewe`] | the signed-in account; one per user, group, post, poll, chat message | `owner`: `mewe:<id>`, handle, name, primary e-mail and phone; `mewe:<id>`: handle, name |
//! | Twitter/X `com.atebits.tweetie.direct-message.cache/TDfir-*` | [`twitter`] | one per cached user, per direct message | `owner`: `twitter:<id>`, user name, name; `twitter:<id>`: user name, name |
//! | Gmail `searchsqlitedb` | [`gmail`] | one per indexed message (from, to, cc, bcc, subject, body) | `owner`: the Google account; `handle:<e-mail>` |
//! | Safari `History.db`, `Downloads.plist` | [`safarihistory`] | one per visit (URL, title, time, count, redirects, origin), per download | — |
//! | Firefox `profile.profile/places.db` (app group) | [`crate::firefox`] | one per visit (URL, title, time, type, made here or synced, local and synced visit counts, description, GUID, the page it came from), per bookmark (title, URL, folder, position, added, modified, GUID) | — |
//! | Microsoft OneDrive `DatabaseQT/QTMetadata.db` (or `DatabaseQt`, app group) | [`crate::onedrive`] (shared with Android) | one per file or folder (name, folder path, size, types, deleted and sharing state, Personal Vault, owner, shared by, hash, position, camera; item, created, modified, accessed, taken, shared, deleted), per drive (account, path, names, synced files, web URLs, last sync), per sharing permission (who, e-mail, role, link, item, expiry), per cached stream | `owner`: `onedrive:<account id>`; `handle:<e-mail>`: who shared an item with the account, whom an item is shared with |
//! | Safari `BrowserState.db`, `CloudTabs.db` | [`safaritabs`] | one per open tab (URL, title, last viewed, private); per iCloud Tabs device of the same Apple account, per tab open on it, per close request | `cloud-device:<uuid>`: each other device's name (weak) |
//! | keyboard `dynamic-lexicon.dat`, `user_model_database.sqlite`, `app_usage_database.plist`, `AutocorrectionRejections.db`, `VulgarWordUsage.db` | [`keyboard`] | learned words per language; typing totals; keyboard sessions per app; autocorrections and inline completions met (typed, offered, counts, times); vulgar words (app, recipient, count, last use) | — |
//! | `CallHistory.storedata` | [`callhistory`] | one per call | `handle:<address>` |
//! | `voicemail.db` | [`voicemail`] | one per voicemail, kept or deleted (sender, callback, receiver, SIM ICCID, duration, times, audio file) | `owner` phone (receiver), `device` ICCID, `handle:<sender>` |
//! | Clubhouse preference plists | [`clubhouse`] | the account; each address-book contact it uploaded; widget conversations; notifications | `owner`: `clubhouse:<id>`, user name, phone; `clubhouse-contact:<hash>`: name, phone, person GUID |
//! | GroupMe `com.groupme.iphone-app.plist` | [`groupme`] | the signed-in account (profile and app state) | `owner`: `groupme:<id>`, e-mail, phone, name |
//! | GroupMe `GroupMe.sqlite` | [`groupmedb`] | one per message (sender, text, chat, attachments, location, flags, deletion status, ids), chat, group member, contact | `groupme:<id>` persons (names, a contact's phone); `owner`: the account plist's `userId`; wallet claims of a message's writer |
//! | `Photos.sqlite` | [`photos`] | one per asset (file, original name, times, GPS, camera, hidden/trashed) | — |
//! | `Calendar.sqlitedb` | [`calendar`] | one per calendar, per event (times, place, organiser, invitees) | `owner`: the user's calendar e-mails; `handle:<e-mail>` per organiser and invitee |
//! | Reminders `Container_v1/Stores/Data-*.sqlite` | [`reminders`] | one per reminder (title, notes, list, created, modified, due, completed, flags, priority; marked-for-deletion ones too), both store generations | — |
//! | Mail `Envelope Index` (+ `Protected Index`) | [`mail`] | one per message (sender, recipients, subject, summary, dates, mailbox, read/flagged) | `owner`: accounts named by mailbox URLs, senders of sent mail; `handle:<e-mail>` per other party |
//! | Mail `MessageData/<id>/*.emlx` (any `.emlx` of a `Mail` folder) | [`emlx`] | one per message (every address of From, Sender, To, Cc, Bcc, Reply-To with names; subject, Date, ids, References, attachments, the body; Mail's received and viewed times, flags) | none (the Envelope Index reader observes the parties) |
//! | `knowledgeC.db` | [`knowledgec`] | one per app-in-focus, lock, plugged-in, backlight, now-playing event (Mac absolute times) | — |
//! | Biome `Library/Biome/streams/*/<stream>/` (`local/` and other devices' `remote/<device>/`; SEGB v1 and v2: `App.InFocus`, `Device.Wireless.Bluetooth`, `_DKEvent.Safari.History`, `Safari.Navigations`, `App.WebUsage`, `Device.Display.Backlight`, `_DKEvent.Device.IsPluggedIn`, `_DKEvent.Carplay.IsConnected`, `Device.Wireless.WiFi`, `Notification`, `NowPlaying`, `Location.Visit`, `App.Installation`, `Siri.Remembers.{Call,Message,Interaction}History`, `Wallet.Transaction`, `MLSE.ShareSheet.ConversationUserInteraction`, text input sessions, `AppleIntelligence.*` and `CameraCapture.AutoFocusROI` among the streams read field by field) and `Biome/sync/sync.db` | [`biome`] | one per record: app in focus (bundle id, foreground/background, time), Bluetooth device (address, name), Safari visit or navigation (address, title, times, source), web page used in an app, screen on/off, plugged in and CarPlay (interval), Wi-Fi connected/disconnected (SSID), notification (app, texts), media played (app, texts, output), location visit (coordinates, place, times), app installation (bundle, version, times), call or message Siri remembers (direction, app, parties with handles and names, conversation, time), Siri intent (class, app, parameters), Wallet transaction (card, pass, UUID), share-sheet conversation (handle), text input session (app, duration), Apple Intelligence availability or report (feature or client, attribute, asset, OS build, time), camera autofocus (the camera port); deleted records, CRC mismatches and records synced from another device (named from sync.db) said; one per sync.db peer device (name, platform, model, last sync) | `bluetooth:<address>` devices; the other party's handles of calls, messages and shared conversations (`handle:<normalised>` or the card holding it); each peer device's name (`biome-device:<identifier>`, this device's on `device`) |
//! | Biome sets `Library/Biome/sets/Default/<set>/Database/Set.db` (`App.InstalledApp`, `Contacts.Contact`, `FindMy.Device`, `Location.SignificantLocation`, `App.Shortcut.Phrase` and `.Entity` per app) | [`biomesets`] | one per record (its Protocol Buffers content: an app's bundle id and name; a contact's names; a Find My device's name and owner's names; a place's label and address; an app's Siri phrase with template and URL, or entity with identifier, type, provider), modified (Unix microseconds) | each Find My device by name (`biome-findmy:<name>`) |
//! | Biome databases `Library/Biome/databases/IntelligencePlatform.Entity/…sqlite3`, `ApplePay.Security.Features/…sqlite3` | [`biomedbs`] | one per row of each table the release has (the knowledge graph's triples; app openings raw and hourly, cable and backlight events, daily button, battery, CarPlay and audio route counts) | — |
//! | routined `Cache.sqlite`, `Local.sqlite`, `Cloud-V2.sqlite` | [`routined`] | one per cached location fix, per significant-location visit, per trip (origin and destination visits, motion), per learned place (name, category, coordinates, address, the user's label), per location of interest, per parked-car event; iCloud's synced copy said as such | — |
//! | `com.apple.Maps.plist`, `group.com.apple.Maps.plist` | [`mapsprefs`] | one per last map camera position (`__internal__LastActivityCamera`, `MapsActivity` protocol buffers: latitude, longitude, the other values as stored; the plist's modification time as the latest it was saved) | — |
//! | CoreAccessories `acc_analytics_accessoryd_v3.db`, `acc_analytics_UserEventAgent_v3.db` | [`accessories`] | one per `all_events` row: every key and value of its property list, the event time, a Lightning cable's kind | — |
//! | Clock `com.apple.mobiletimerd.plist`, `com.apple.mobiletimer.plist` | [`clock`] | one per alarm (title, time, repeat days, enabled, sound, fire, dismissed and modified dates), timer, stopwatch, and world clock city (name, country, time zone, coordinates) | — |
//! | locationd `cache.plist` | [`carconnection`] | one per plist with the last car connection (start and end, Cocoa seconds; type) and the calibration identifier | — |
//! | Maps `MapsSync_0.0.1` (app group) | [`mapssync`] | one per Maps history item: search typed, location displayed, place name, coordinates, the text of directions and places (protocol buffers decoded), kind, times | — |
//! | `NoteStore.sqlite` | [`notes`] | one per note (full text decoded; for a locked note how it is locked: the wrapped key's length and iteration count), one per share participant | wallets the owner wrote (claims of `owner`); participants: `owner` (the current user) or `note-participant:<id>` |
//! | `com.apple.wifi.known-networks.plist`, `com.apple.wifi-private-mac-networks.plist`, DHCP leases, `SyncedPreferences/com.apple.wifid.plist` | [`wifi`] | one per known network, per access point, per network with a private address (used and computed address, times), per lease, per network iCloud synced from the account's other devices (SSID, BSSID, the device that added it, enabled, added at) | — |
//! | `iTunesPrefs` | [`computers`] | one per computer synced with (user, computer name) | `computer:<name>` device name |
//! | `com.apple.lsdidentifiers.plist` | [`adid`] | advertising and vendor identifiers | — |
//! | `Cache.db` (CFNetwork URL cache) | [`safari`] | one per cached response | — |
//! | `storeSystem.db` | [`apps`] | one per installed app (store metadata included), per download package (sizes, variant, URL), per App Store update record (catalog entry) | `owner`: Apple ID, DSID |
//! | Control Center `ModuleConfiguration.plist` | [`controlcenter`] | one per configured module (position, bundle, list: active, disabled, user-enabled fixed) | — |
//! | `Cookies.binarycookies` (apps and extensions) | [`cookies`] | one per cookie (domain, name, path, flags, expiry, creation; the value's length, never the value), decoded by the plugin's `binary_cookies` tool | — |
//! | Google Drive / Photos image-fetcher `cacheV0.db` | [`cachev0`] | one per cached image (row id, data size, leading bytes) | — |
//! | `idstatuscache.plist` (identity-services lookups) | [`idstatus`] | one per destination and service (status, lookup time) | `handle:<id>` for iMessage, FaceTime and Find My lookups |
//! | `DataUsage.sqlite`, `netusage.sqlite` | [`datausage`] | one per app usage row (process, bundle, Wi-Fi/cellular/wired bytes, times), per network attachment | — |
//! | Screen Time `RMAdminStore-Local.sqlite` | [`screentime`] | one per usage item (app or domain, seconds, category, block start, device, user), per user, per device | `owner`: the local user's Apple ID, DSID, name; `screentime:<DSID>` per family member |
//! | MetaMask Mobile `Documents/persistStore/persist-root` (to 7.x) or `persist-<Controller>` (since) | `crate::wallets::triage_mobile` | one per wallet (its accounts with names, balances and when each was added), per address book, per transaction; the in-app browser's history | `owner`: each own account (`wallet:`, a control claim); `named:<name>` per address-book entry; `wallet:` for both sides of each transaction |
//! | locationd caches `root/Library/Caches/locationd/cache_encryptedB.db` (`cache_encryptedA.db`, `consolidated.db` on older iOS) | [`locationd`] | one per cached access-point position (BSSID, position, accuracies, motion, channel, scores), harvested associated access point (BSSID, position, RSSI, scan time), cell position of each radio (MCC, MNC, area, cell, channel, physical id, CDMA ids), Wi-Fi tile (corner, spans, times); -1 times none | — |
//! | Wi-Fi location cache `root/Library/Caches/com.apple.wifid/ThreeBars.sqlite` | [`threebars`] | one per network (centroid, name, identifier, access-point count, flags, scores, codes, tile), per access point (BSSID, position, its network, edge, TCP good, scores), per downloaded tile (key, network count, ETag); 0/0 positions not recorded | — |
//! | React Native AsyncStorage `RCTAsyncLocalStorage_V1/manifest.json` | [`asyncstorage`] | one per key (value as stored, secrets redacted, a long one cut; a value kept in the file named by the key's MD5 named from the folder's listing), the app by its container | `wallet:<address>` in values, no claim |
//! | App snapshots `SplashBoard/Snapshots/<bundle>/…`, `Library/Caches/Snapshots/<bundle>/…` (`.ktx`, `.jpeg`) | [`snapshots`] | one per image (app, file, size, modified time from the search's listing; not decoded) | — |
//! | CoreDuet `interactionC.db` | [`interactions`] | one per donated interaction (app, target app, start/end/recorded, direction, response, recipients, content URL, the sender's name and identifier) | the sender's phone or e-mail as a counterparty |
//! | Snapchat `Documents/user_scoped/<id>/arroyo/arroyo.db`, `…/DocObjects/primary.docobjects` | [`crate::snapchat`] | one per chat message (sender id and user name, conversation, text from the protobuf, flags, times), one per friend of `primary.docobjects` (user id, user names) | `snapchat:<user id>` senders and friends (the id Android's friends carry) with `snapchat-username:<name>`; `owner`: the one sender of messages created on the device; wallet claims by direction |
//! | Slack `ModelDatabase/db.sqlite` (app group), `Library/Application Support/Slack/*/*/main_db` | [`slack`] | one per user, message (sender, channel, text, shared file), channel or conversation, workspace | `slack:<user id>` persons (e-mail, phone, names; the id Android's Slack keeps); `owner`: the is-me user or the team's signed-in user |
//! | Microsoft Teams `SkypeSpacesDogfood/*/Skype*.sqlite` (app group) | [`teams`] | one per message (sender, thread and topic, content, direction), per matched address-book entry and cached user, per call log (parties, direction, state, start/connect/end) and shared location card | `teams:<MRI>` persons (the id Android's Teams keeps; e-mail, number, name); `owner`: the sender of a message sent by the device's user |
//! | Discord `Library/Caches/kv-storage/@account.<id>/a` and `Library/Caches/com.hammerandchisel.discord/fsCachedData/` | [`crate::discord`] (the kv-storage shared with Android) | one per cached message (the key-value store's and the cached API responses') (author, channel, content, type, attachments, embeds, mentions, times, direction by the folder's account) | `discord:<user id>` persons with `discord-username:<name>`; `owner`: the folder's account as author |
//! | Threema `ThreemaData.sqlite` (app group) | [`threema`] | one per message (entity, text or caption, conversation, sender, attachment file or embedded size, location, delivered/read) and per contact (Threema ID, names, address-book id) | `threema:<Threema ID>` persons (names, `contact_guid`); wallet claims by direction |
//! | Google Chat `Documents/user_accounts/<user id>/dynamite.db` | [`crate::gchat`] (shared with Android) | one per message (creator, conversation, text, attachment, meeting, reaction), per conversation, draft and user | `gchat:<user id>` persons (Google account id, e-mail, name); `owner`: the folder's user |
//! | Tinder `Library/Application Support/Tinder/Tinder2.sqlite`, `com.cardify.tinder.plist` | [`tinder`] | the account (current user, preferences' e-mail and phone), one per message (sender, text, URLs, match), per match (the matched profile, flags, times) and per recommended profile | `tinder:<user id>` persons (the id Android's Tinder keeps; first name, public user name); `owner`: the current user, e-mail, phone; wallet claims by direction |
//! | Burner `Phoenix.sqlite` (app group) | [`burner`] | the account (own number, country, Burner numbers, do-not-disturb, voicemail URL, user id), each Burner number (name, allotments, expiry, auto-reply, calling settings), contacts (numbers with labels, notes, flags, images), texts, calls and voicemails (direction, read, thread, text or call state, type, asset and media URLs, ids) | `owner`: the own number, each Burner number, `burner:<user id>`; other parties by number |
//! | LinkedIn `Library/Preferences/com.linkedin.LinkedIn.plist`, `Documents/msg_database.sqlite` | [`linkedin`] | the signed-in member (member id, names, headline, location, public identifier), one per message (sender's names, headline, profile URL, distance, text, conversation and its name, delivery) | `linkedin:<public identifier>` senders (the id Android's LinkedIn keeps); `owner`: the account's public identifier and name, the sender at distance SELF |
//! | Kijiji `Library/Caches/conversation_cache` (JSON) | [`kijiji`] | one per message (conversation, ad id and title, counterparty id and name, sender, status, text, time) | `kijiji:<id>` counterparties (the id Android's Kijiji keeps) |
//! | Text Free (Pinger) `Messaging_*.sqlite` | [`pinger`] | one per message (time, conversation, direction, other party, status, text, type) | the other party by number or e-mail |
//! | Wire `AccountData/<user id>/store/store.wiredatabase` (app group) | [`wire`] | the account and every user (id, handle, name, e-mail, phone, domain), one per client (label, model, activation time and place), per message (server time, category, normalised text and the text as sent, asset and location names, call duration, sender, conversation) | `wire:<user id>` persons (`wire:@<handle>`, name, e-mail, phone; the id Android's Wire keeps); `owner`: the user naming the account's folder |
//! | Apple Wallet `Library/Passes/passes23.sqlite`, `Cards/*.pkpass/pass.json`, the Watch's `nanopasses.sqlite3` | [`applewallet`] | one per Apple Pay / Apple Cash transaction (time, merchant, place, amount, currency, location, peer counterpart and memo, status, type), per pass (organisation, description, serial, type and team ids, dates, every value of its fields), per Watch pass | a peer payment's counterpart by number or e-mail |
//! | BeReal `Library/Caches/disk-bereal-*/` and `PersonRepository/` JSON caches of its container, `group.BeReal.plist` and `bereal-chat.sqlite` of its app group | [`bereal`] | the account (names, phone, birthday, devices, app version, time zones), one per friend, request, follower, opened profile, blocked user and address-book contact, one per post (author, caption, place, times, media, tags), comment, RealMoji and pinned memory, one per chat message (direction, sender, text, type, media) and chat (kind, admins, participants, last message, unread, times) | `owner`: `bereal:<id>`, user name, phone; persons `bereal:<id>`; the address book's numbers as `handle:` |
//! | Zalo `Documents/profile.sqlite`, `chatgroup.sqlite`, `chat_dbs/<user id>/*.db` of its container | [`zalo`] | one per message (sender, chat or group, direction, text, type, attachment, location, address), per user the app knows, per group | `zalo:<user id>` persons (display name, phone); `owner`: the sender of the outgoing messages |
//! | Telegram `telegram-data/account-<id>/postbox/db/db_sqlite` (app group; SQLCipher, its key and salt in `telegram-data/.tempkey`) | [`telegram`] | the account (signed-in user, environment, datacenter), one per message (chat, author, direction, text, forward, thread, media: files, photos, locations, web pages, service actions, with their stored files in `postbox/media/`), per peer (users with names, user name, phone and contact-list membership; groups, channels, secret chats), per address-book number Telegram imported (name, the user it resolved to), per last-seen status and per cached profile (about) | `telegram:<user id>` persons (name, user name, phone, the address book's number the server resolved; the id Android's Telegram reader writes); `owner`: the signed-in user and the author of sent messages; wallet claims by direction |
//! | Zangi `zangidb*.sqlite` (app group) | [`zangi`] | the account (number, names, e-mail, status, country; stored secrets named, not copied), one per contact number (names, number, e-mail, registration type, blocked, favourite, times), per message (time, direction, text, type, ids, conversation kind and name, sender's name and number, media path) | `zangi:<number>` persons (the id Android's Zangi keeps); `owner`: the account's number |
//! | TeleGuard `Library/teleguard_database.db` and `teleguard_temp.db` (app group) | [`crate::teleguard`] (shared with Android) | the account, one per message, call and chat event, contact, channel, post and draft | `teleguard:<server id>` persons (the id Android's TeleGuard keeps); `owner`: the account's server id, alias, phone |
//! | Proton Mail `support/account.db` and the mail caches `support/<id>.db` beside it (app group); the first app's `ProtonMail.sqlite` | [`crate::protonmail`] (shared with Android) | the accounts, users and addresses, one per e-mail (every address and name of its lists, subject, conversation, folders, flags, the body where kept in clear), per attachment (with the app's decrypted cached copy), per contact address; the first app's e-mails with their times, flags and attachments (their parties, subject and body encrypted: said and noted) | `proton:<user id>` (the id Android's Proton Mail keeps); `owner`: the account's addresses, names and login; correspondents `handle:<address>` |
//! | Find My `Library/Caches/com.apple.findmy.fmipcore/Items.data` (JSON; iOS 17.5+ encrypted: noted) | [`findmy`] | one per item (name, serial, identifier, role, product, manufacturer, owner, battery, lost mode, capabilities, system version), per last, crowd-sourced and safe location (time, position, accuracy, address) | `findmy-item:<identifier>` accessories by serial number; an owner or lost-mode contact's e-mail a person |
//! | Reddit `Library/Caches/MatrixChat/roomsAccount/<account>/Account-*/Account.db` with `Downloads-*/ContentService.db`, `MatrixUsers-*/RoomsUsersService.db`, `redditAccount/<account>/RedditUsers-*/RedditUsersStore.db` | [`reddit`] | one per chat message, reaction and deletion (sender, display name, room members, text, media and its cached file, room, event), per chat user, per cached account | `reddit:t2_<id>` persons (the id Android's Reddit keeps; display name); `owner`: the account's own Matrix id (its push rules), the chat user flagged current |
//! | ChatGPT `Library/Application Support/conversations-*/<id>.json`, `drafts-*/<id>.json`, `Library/Preferences/com.openai.chat.StatsigService.plist` | [`chatgpt`] | one per conversation (title, model, custom instructions, times), per message (author role, text parts, content type, finish, model, time), per draft; the account (ids, e-mail, plan) | `owner`: the account's e-mail and `chatgpt:<user id>`; the user's prompts' wallet claims |
//! | Claude `Library/Application Support/ClaudeCache/cache_*.sqlite`, `Library/Caches/bootstrap/*.json` | [`claude`] | one per conversation (name, model, incognito, starred, times), per message (sender, text, file, conversation, time), per project (name, description, creator, documents); the account (names, e-mail, tagged id, times) | `owner`: the account's e-mail and names ([`crate::claude`], shared with Android); the user's prompts' wallet claims |
//! | Bumble `Library/Caches/Chat.sqlite`, `Documents/yap-database.sqlite` (YapDatabase) | [`bumble`] | one per message (archived objects: sender, receiver, text, direction, read, times), the account (user id, name, version), its last location | `bumble:<user id>` senders (the id Android's Bumble keeps); `owner`: the account's user id and name |
//! | Cash App `CCEntitySync-api.squareup.com.sqlite`, `CCEntitySync-internal.cashappapi.com.sqlite` (app group) | [`cashapp`] | one per payment (time, amount, currency, state, note, role, the other party) | `cashapp:<customer token>` persons (`cashtag:<name>`, name; the id Android's Cash App keeps); wallet claims of a note's writer |
//! | Venmo `PrivateFeed`, `PublicFeed`, `FriendsFeed` (app container) | [`venmo`] | one per pay or charge (payer, receiver, amount, note, status, times), per user named | `venmo:<id>` persons (`venmo-user:<name>`, display name); wallet claims of a note's writer |
//! | Facebook Messenger `lightspeed-userDatabases/<uid>.db` | [`crate::messenger`] | one per contact, message (attachments, reactions), call | `facebook:<id>` persons (Facebook id, user name, name, e-mail, phone); `owner`: the contact whose id names the store; wallet claims of a message's writer |
//! | Trust Wallet, imToken, TokenPocket, Binance, OKX, TronLink, Bitget Wallet: the app's container (by `Library/Preferences/<bundle>.plist`, `Library/Caches/<bundle>`, or a backup's folder named after the bundle) | [`crate::wallet_apps`] | one per container: the wallet addresses written in clear in its files (`strings`), with the files they are in; lists (token contracts, caches) counted | `wallet:<address>`, no claim |
//! | Coinbase Wallet `Documents/default/wallet-rn-v2.sqlite` | [`coinbasewallet`] | one per account (with its wallet group), per derived address, per tracked asset, per transaction (`tx_history_v2`, `tx_history`) | `owner`: each account's primary address and every derived address (control claims); `wallet:` for those and both sides of each transaction |
//! | imo `IMODb2.sqlite` | [`imo`] | one per contact, per message (text, direction, time, item action and object) | `imo:<ZBUID>`: qualified id, display name, alias, phone; wallets in messages (claims of the writer) |
//! | Instagram `DirectSQLiteDatabase/<id>.db` | [`instagram`] | one per direct thread (viewer, users), per message (sender, time, subtype, text, call, photo) | `owner`: `instagram:<viewer id>`, user and full name; `instagram:<id>` (account id, the archived `pk` qualified) per other user and sender |
//! | App Privacy Report export (`*rivacy*eport*.ndjson`) | [`privacyreport`] | one per access record (app, resource, interval begin/end, time) and per network activity record (app, domain, owner, initiator, hits, first and last time) | — |
//! | `com.apple.MobileBackup.plist`, `com.apple.CarPlayApp.plist` | [`backupinfo`] | iCloud backup state, each result, each time its conditions were met, each domain's size; each CarPlay app with its last time, the start app | — |
//! | `com.apple.akd/devicelist.db`, `*TrustedPeersHelper.db`, `com.apple.icloud.fmfd.notbackedup.plist`, `com.apple.icloud.findmydeviced.FMIPAccounts.plist` | [`appleaccount`] | one per device of the Apple Account as the authentication daemon cached it (name, model, OS, build, serial, IMEIs, trusted, circle status, services, machine id, altDSID, updated) and per removed device; one per trusted peer of the keychain's trust circle (escrow time, model, name, serial, passcode length, colours, the peer's own OS, model, computer name, serial from its DER record); one per Find My device (name, ids, active, this device, companion); the Find My iPhone account (tokens left out) | each device by serial, IMEIs and name (`apple-device:<serial>`); Find My devices by name (this one on `device`); the Find My account's Apple ID and DSID (`owner`) |
//! | `wireless/Library/Databases/CellularUsage.db` | [`simhistory`] | one per SIM card the phone held (`subscriber_info`: slot, ICCID, phone number, last update) | each ICCID on `device`, each number the owner's |
//! | `MedicalID/MedicalIDData.archive` | [`medicalid`] | the Medical ID (every value: name, birth date, conditions, allergies, medications, blood type, organ donor, height and weight with units, language, saved), one per emergency contact (name, number, relationship, labels) | the name the owner's; each emergency contact by number with their name |
//! | `UserNotifications/<app>/DeliveredNotifications.plist`, `UserNotifications/Library.plist` | [`notifications`] | one per notification still in Notification Centre: the app (bundle id, from `Library.plist` where the folder is a UUID), delivered, title, subtitle, message, sender's name, thread, category, trigger, deep link, attachments, the other values not at their default | none (the sender is a display name) |
//! | `TCC/TCC.db` | [`tcc`] | one per app permission: the app (bundle id or path), the service, the decision (allowed, denied, limited; before iOS 14 allowed and the prompt count), its reason, the object of an indirect grant, last changed and last reminded | none |
//! | `CloudDocs/session/db/server.db`, `client.db` | [`clouddocs`] | one per device of the account that wrote to iCloud Drive, per person who shared items, per file or folder (path, size, created, modified, last opened, the device that wrote its version, sharing and by whom, tags, favourite, Recently Deleted), per app library, per OS build booted | each device by name (`clouddocs-device:<name>`) |
//! | Voice Memos `Recordings/CloudRecordings.db`, `Media/Recordings/Recordings.db` | [`voicememos`] | one per recording: recorded, duration, title, audio file, unique id, folder, eviction from Recently Deleted | none |
//! | `installd/Library/Logs/MobileInstallation/mobile_installation.log.<n>` | [`installlog`] | one per app installed (its kind), uninstalled, container destroyed, moved or made live, delta update, reboot: local time as written, bundle id, path | none |
//! | `logs/lockdownd.log`, `lockdownd.log.<n>` | [`lockdownlog`] | one per passcode change, OS upgrade detected, lockdownd start; one per session of a lockdown client (a computer's Finder or iTunes, a tool) reading the device's values or starting its services: client, values asked for and those missing, services, first and last line; month-first local times | none |
//! | `Logs/mobileactivationd/mobileactivationd.log`, `.log.<n>` | [`activationlog`] | one per OS upgrade detected (builds before and after) and per start of the activation daemon; ctime local times as written | none |
//! | `db/diagnostics/shutdown.log`, sysdiagnose `Extra/shutdown.log` | [`shutdownlog`] | one per shutdown (SIGTERM time, delay notices, longest delay, every process still running with pid, path and delay); one per process running from `/private/var/db/` or `/private/var/tmp/` (Kaspersky's iShutdown lead) | none |
//! | `MobileSoftwareUpdate/restore.log` | [`restorelog`] | one per OS update event (time, builds before and after, event, device class, board id, battery, every other value) | none |
//! | Quick Look `cloudthumbnails.db` | [`quicklook`] | one per cached iCloud file thumbnail (last seen path, size, last asked for) | none |
//! | Keyboard `query_predictions.db` | [`querypredictions`] | one per message text the keyboard kept (sent or received, conversation, ids, time) | none |
//! | Siri `VoiceTrigger/SAT/<profile>/td/audio/<n>.json` (+ `.wav`) | [`voicetrigger`] | one per "Hey Siri" enrolment recording (day, recording device, utterance path, other values, the recording beside it) | none |
//! | DuckDuckGo `Library/Application Support/History.sqlite` | [`duckduckgo`] | one per history entry (URL, title, last visit, visits, trackers blocked and found, blocked entities, failed, cookie pop-up blocked) and per page visit (time, URL, title, tab) | none |
//! | Ookla Speedtest `speedtest.sqlite` | [`speedtest`] | one per test (time, external and internal IP, carrier, ISP, SSID, WAN type, device model, latitude, longitude, accuracy, speeds) | none |
//! | FIT activity files `*.fit` | [`crate::fitfile`] (shared with Android, via `read_fit`) | one per file (the creating device's maker, product, serial; each device; the user profile; each session's sport, start, distance, start position; first and last track points) | `fit-device:<serial>` per device |
//! | BitTorrent `*.torrent`, `*.resume`, `*.fastresume` | [`crate::torrentfile`] (shared with Android, via `read_bencode`) | one per file (info hash, name, each file and size, trackers, comment, creator, created; a resume's save path, totals, added, completed, last down- and uploaded) | none |
//! | Tile `AppGroup/<id>/com.thetileapp.tile-TileNetworkDB.sqlite` | [`tile`] | one per Tile (name, id, type, status, lost, last position and time, activation, registration, last community connection) and per account (e-mail, name, phone, registered) | `owner`: the account's e-mail, phone, name |
//! | `containers/Bundle/Application/<id>/iTunesMetadata.plist` (+ `BundleMetadata.plist`) | [`itunesmeta`] | one per app (bundle id, name, developer, version, genre, factory install, source app, side-loaded, variant and item ids, purchase, release and install dates, the downloading Apple ID and DSID) | `owner`: the downloading Apple ID and DSID |
//! | Safari `Library/Image Cache/Favicons/Favicons.db` | [`favicons`] | one per page whose icon Safari kept (page URL, icon URL, size, when saved): pages loaded even when their history is gone | none |
//! | Google Translate `Documents/translate.db` | [`translate`] | one per translation (languages, source text, translation, starred, romanization, when), starred phrase, phrase spoken aloud | none |
//! | Splitwise `Library/Application Support/database.sqlite` (with `SWPerson`) | [`splitwise`] | one per person (name, e-mail, phone, currency, country), expense (description, cost, currency, category, group, creator), member's share (owed, paid), balance with a friend, group (members) | `splitwise:<person id>`: e-mail, phone, name |
//! | `Library/Preferences/com.apple.MobileSMS.plist` (or `mobileSMS`) | [`messageretention`] | one per retention setting (`KeepMessageForDays`, `SSKeepMessages`: forever, 30 days, 1 year) | none |
//! | `Library/SMS/Drafts/<recipient>/composition.plist` | [`smsdrafts`] | one per unsent Messages draft (recipient folder, text from the archived attributed string, last edited from the search's listing) | the recipient's number or e-mail as `handle:<id>` (a group chat's folder: none) |
//! | Weather app `AppGroup/<id>/Library/Preferences/group.com.apple.weather.plist` | [`weather`] | one per saved city and the local weather (name, country, time zone, latitude, longitude, update times; both layouts) | none |
//! | PayByPhone `Documents/PayByPhone.sqlite` | [`paybyphone`] | the account (e-mail, member id, user name); one per vehicle (licence plate, country, description), per parking session (lot, vendor, position, start and expiry, amount, plate) | `owner`: e-mail, login number, `paybyphone:<member id>` (plates are facts only: no identifier type) |
//! | Vipps `Vipps.sqlite` | [`vipps`] | one per contact (name, numbers), per payment with its message (`ZFEEDDETAILMODEL` CHAT items: number, contact, amount, direction, status, ids, time) | each number as `handle:<id>` with the contact's name |
//! | TWINT `Library/Application Support/Twint.sqlite` | [`twint`] | one per transaction (merchant or sender and recipient with messages, amounts, currency, state, side, times) | sender's and recipient's numbers as `handle:<id>`, the recipient's name |
//! | Wickr `AppGroup/<id>/wickrLocal.sqlite` | [`wickr`] | metadata only (bodies, names encrypted): one per conversation (kind, group id, members' and administrators' user hashes, times), per message (sender hash, times, type, attached files, body size), per user (hashes, source, flags, last activity) | none (hashes are facts) |
//! | Airbnb `Library/Application Support/user_<id>_messaging_core.sqlite3` | [`airbnb`] | one per user (id, name), per message (thread, sender and type, text of every part, translation, content without text, created, updated, fetched), per thread (participants, count, first and last message) | `owner`: `airbnb:<the file name's user id>` with its name; `airbnb:<user id>` per other user |
//! | Google Photos `Library/Application Support/store/photos-<account>.db` (+ `photos-shared.db`) | [`googlephotos`] | one per library item (file name, camera, taken and created, position unpacked from `latitudeLongitudeE7`, dimensions, size, duration, keys, the device asset), per device item of `LocalAssets`, per album, shared album (title, share link, recipients, times), shared-album item (album, contributor's actor key), recent search | none (accounts are opaque actor keys) |
//! | Google Drive (DriveKit) `Documents/drivekit/users/<account id>/cello/cello.db` (or `gdx-cello/`) | [`crate::googledrive`] (shared with Android) | the account (folder, id, e-mail, name, image, root folder: the `properties` message); one per file or folder (title, id, folder path, MIME type, size, owned, starred, trashed, hidden, offline status; created, modified, modified by me, viewed by me, shared with me, trashed) | `owner`: the folder's and the message's Google account id, e-mail, name |
//! | Potato Chat `AppGroup/<id>/Documents/tgdata.db` (Telegram's legacy store) | [`potatochat`] | one per user (names, address-book name, phone, user name, contact, last seen), per message (chat, sender, recipient, direction, text or document name, time); channel messages counted in a note | `potato:<uid>` per user (names, user name, phone); `owner`: the sender of outgoing messages |
//! | geod `Library/Caches/com.apple.geod/PDPlaceCache.db` | [`geodplaces`] | one per place lookup Apple Maps or a MapKit app made (request key, place hash, last used, expiry; every text of the cached `GEOPDPlace`: names, address, phone, web address, time zone; the lookup kept when its place is gone; positions not read) | none |
//! | geod `Library/Caches/com.apple.geod/AP.db`, `…/MapTiles.sqlitedb` | [`geodapps`] | one per app's use of Apple's map services (app, count type, created; `mkcount`, older `dailycounts`); one per second at which cached map tiles were last used (count, tilesets, kinds, bytes; three layouts; tile areas and labels not read) | none |
//! | Apple Wallet `Library/Caches/com.apple.Passbook/Cache.db` | [`walletcards`] | one per cached `CARDS` response holding a card number (its last four digits, length, type heuristic, possible expiry, cached time; the number matched in the query and never recorded) | none |
//! | Google Maps `Library/Application Support/CachedRoutes/<ms>.plist` | [`gmaproutes`] | one per cached route (its distinct points with their other values, the file name as Unix milliseconds) | none |
//! | `Library/Logs/AppConduit/AppConduit.log.<n>` | [`appconduit`] | one per paired Apple Watch connection and disconnection (local time as written, the watch's IDS device id and pairing id, product type and OS build — a disconnection's from its pairing id's first connection —, the line) | none (the watch's ids are UUIDs no identifier type holds: facts) |
//! | Oura `Library/Preferences/com.ouraring.oura.plist` with the account suite (`<UUID>.plist` holding `deviceUid`) and `com.segment.storage.<key>.plist` beside it | [`oura`] | the account (e-mails, account UID, device UID, Segment ids, app activity times); one per ring (Bluetooth id, model, colour, design, size, firmware, battery and low-battery records, firmware update, last seen); the ring's last known location | `owner`: each e-mail, `oura:<accountUid>` (ring ids and Segment ids are facts) |
//! | SBB Mobile `Documents/ch.sbb.coredata.searchhistory.sqlite`, `ch.sbb.coredata.logs.sqlite` | [`sbb`] | one per timetable search (from, to, their types, the result's coordinates, when); one per EasyRide journey (check-in and check-out paired by time as iLEAPP, or one left alone) | none |
//! | MeteoSwiss `Library/Application Support/databases/favorites_prediction_db.sqlite` (+ `Documents/localdata.sqlite`) | [`swissmeteo`] | one per forecast looked at (postal code, the place's name, altitude and centre from the app's postal-code list, LV03/LV95 turned into degrees in the query; the position stored with it; when), per app opening (where the phone was, when) | none |
//! | Home Depot `Library/Preferences/com.thehomedepot.homedepot.plist`, the app group's `group.com.thehomedepot.homedepot.plist` and `userInfo.txt` | [`homedepot`] | per source, the account (user id, logon e-mail, names, phone, ZIP, customer account, local and preferred store ids) and its local store (name, address, position, phone); the last known location (archived `CLLocation`); one per saved search (term, when, still listed) | `owner`: logon e-mail, phone, `homedepot:<userId>` |
//! | United Airlines `UnitediPhoneCoreData.sqlite` (app or app group) | [`united`] | the MileagePlus account (names, number, status, balance, Known Traveler Number, birth date, customer id, last login); one per saved traveller, per trip (active and past), per passenger of a trip's JSON, per flight, per mobile boarding pass (seat, gate, birth date), per flight search and flight-status look-up | `owner`: `united:<MileagePlus number>` with the name; `united:<number>` per other passenger with the name |
//! | Dubox (TeraBox) `mbox_main.sqlite`, `netdisk.sqlite`, `imageDB.sqlite` | [`dubox`] | one per chat friend (names, remark, secure mobile and e-mail), per chat message (direction, text or file, time), per conversation (last message, draft), per cached cloud file or folder (path, size, MD5, flags, times), per photo or video (taken, position, address) | `dubox:<uk>` per friend and chat partner: user name, names, remark, whole numbers and e-mail addresses (masked ones: facts) |
//! | Kik `AppGroup/<id>/cores/private/<account>/attachments/<content id>` | [`kikattachments`] | one per attachment's metadata (content id, app id, file name and size, app name, SHA-1s and block hash; a thumbnail kept, not read) | none |
//! | DriveIQ SDK (seen in Microsoft Teams) `Library/DriveIQ/segments/current/*` | [`driveiq`] | one per logged location (latitude, longitude, speed, altitude, accuracies, fix time), motion activity, time-zone check, power state and state change | none |
//! | Wi-Fi analytics `root/Library/Application Support/com.apple.wifianalyticsd/DeviceAnalyticsModel.sqlite` | [`wifianalytics`] | one per geotag (latitude, longitude, date; the access point's BSSID and last seen; the network's SSID) | none |
//! | `preferences/SystemConfiguration/NetworkInterfaces.plist` | [`netinterfaces`] | one per network interface (hardware address as hex, the name Settings shows, BSD name, type, built in, I/O Kit type, unit and path; the model) | none |
//! | `root/Library/Caches/locationd/clients.plist` | [`locservices`] | one per Location Services client — app, system bundle or daemon (client key, bundle id, bundle path, executable, Authorization code as stored, supported mask, registered, whitelisted; when it last started and stopped getting locations, fence and significant-change times, consumption period) | none |
//! | Foursquare Swarm `Containers/Data/Application/<id>/Library/Caches/foursquare.sqlite` | [`foursquare`] | the account (names, phone, e-mail, birthday, home city, linked Facebook id, counts, created and joined); one per other user (relationship, type, names, phone, e-mail, last mentioned), per check-in — the user's and friends' — (venue with address and coordinates, or the recorded position of a venue-less one; kind, visibility, shout, friends tagged, time) | `owner`: `foursquare:<id>`, phone, e-mail, name; `foursquare:<id>` per other user with phone, e-mail, name (a brand or venue page as an account) |
//! | Apple Podcasts `Containers/Shared/AppGroup/<id>/Documents/MTLibrary.sqlite` | [`podcasts`] | one per show (title, author, feed and web page, subscribed, episodes in the library and how many are listed, added, last played, updated, downloaded), per episode played, started, marked as played or downloaded (show, title, URLs, downloaded file, GUID, duration, play head, play state and count as stored, flags; last played, play state changed, downloaded, imported, published); the feed's other episodes counted, not listed | none |
//! | Siri Remembers `Library/com.apple.siri.inference/siriremembers.sqlite3` | [`siriremembers`] | one per intent apps and Siri donated: message (direction, app, recipients or sender with their handles, group name), call (direction, contacts and handles, duration), media played (the item), any other intent (domain, verb, parameters); who donated it, intent and event UUIDs, time (Unix seconds) | the other party's handles as counterparties (`handle:<normalised>` or the card holding them) |
//! | parsecd `Library/Caches/com.apple.parsecd/EngagedCompletions/Cache.db` (under `mobile` or the PegasusConfiguration app group) | [`parsecd`] | one per engaged search completion (what was typed, the completion chosen, transformed text, score, an app's bundle id told apart, time) | none |
//! | NS Vault ("Calculator #", Folder Lock) `Library/FolderLockAdvanced.sqlite` and the container's `Documents/FolderLockAdvanced/` | [`nsvault`] | one per video album (title, folder, videos, a stored password said, never read), per hidden video (name, album, storage and thumbnail paths, duration, size, row modified; its hidden file where the folder holds it), per other file of the media folder (path, size, time) | none |
//! | RongCloud IM SDK `Library/Application Support/RongCloud/<app key>/<user id>/storage` (Oops and other apps) | [`oops`] | one per user (id, the name their messages carry, conversation title, messages sent, first and last), per conversation (type, title, draft, pinned, last message), per message (direction, text, media, location, extra nickname, sent and stored times) | `rongcloud:<app key>:<id>` per user with the name; `owner`: the user folder's id and the sender of `message_direction` 1 messages; wallets in messages (claims of the writer) |
//! | Uber `Documents/database.db` (recognised by its `place` table), `Documents/ur_message.db`, `RealtimeRider.StreamModelKey/client`, `city`, `clientStatus`, `targetLocationSynced`, `eyeball` | [`uberplaces`] | one per cached place (title, address, label, position, categories, trips, times), per search hit, per analytics log (summary: count, first and last position, cities), per account (names, e-mail, mobile digits, UUID, city, status time, target location), per reverse-geocoded address | `owner`: the account's e-mail and `uber:<UUID>` |
//! | Onion Browser `Documents/bookmarks.plist` (recognised by its `bookmarks` list), `Documents/hsts_cache.plist` | [`onionbrowser`] | one per bookmark (name, URL, icon and its file), per HSTS host met (expiration, subdomains; no time mark), one summary of the preloaded entries | none |
//! | Personalization Portrait `Library/PersonalizationPortrait/PPSQLDatabase.db` | [`portrait`] | one per place the Portrait learned (coordinates, name, address parts, country; category, algorithm, scores, iOS build, remote and sync flags), per named entity (name, category number, language, scores), per topic (qid, scores), each with its source's app, group, document id and time | none (a learned name is text, not an identity) |
//! | App Store `Library/Caches/com.apple.appstored/storeUser.db`, `Containers/Data/PluginKitPlugin/<id>/Documents/AMDSQLite.db.0` | [`amdsqlite`] | one per App Store account event (DSID, Apple ID, altDSID, active from and until, recorded), per current app (bundle id, name, developer, versions, App Store id, system app, installed, deleted), per purchase-history app (title, bundle id, developer, URL, genre, capabilities, purchaser DSID and its Apple ID, hidden, family shared, purchased; never its tokens), per usage event (install or update, uninstall, open: time, App Store id, version, foreground duration, user id; the app's name and the Apple ID from storeUser.db), per device-storage row (available and total GB) | `owner`: each account event's Apple ID and DSID |
//! | TikTok `ChatFiles/<account uid>/db.sqlite` (`TIMMessageKVORM`, else `TIMMessageNewPropertyORM`) with `AwemeIM.db`; `Documents/search_history/history_words/AWESearchHistory*` | [`tiktokim`] | one per reply's copy of the message it quoted (the quoted message's id, sender and text; the reply's id, sender, text, deleted flag, conversation, time; both senders' nicknames and @handles), per search (keyword, time) | the quoted and the reply's senders as `tiktok:<uid>` (`owner` for the account's uid); wallets in a quoted text as claims of its writer |
//! | Container metadata `.com.apple.mobile_container_manager.metadata.plist` of `Containers/Data/Application/<GUID>/`, `Containers/Shared/AppGroup/<GUID>/`, `Containers/Data/PluginKitPlugin/<GUID>/`; a vault app's `Library/data.sqlite` | [`containers`] | one per container: its owner (bundle id of the app, extension or app group), GUID, folder, metadata UUID, content class, versions, data protection, info values, persona; vault apps disguised as a calculator flagged; one per item such a vault hides (stored path, id, date, video, album) | none |
//! | `Library/Caches/com.apple.cache_delete/CacheDeletePurgeHistory.txt` (and a sysdiagnose's `logs/CacheDelete/` copy) | [`purgehistory`] | one per purge: time as written (no zone: local), target directory or volume, urgency (1 routine, 3 critical), bytes available and purged, seconds | none |
//! | `root/Library/Logs/MobileContainerManager/containermanagerd.log.<n>` | [`containerlogs`] | one per container removal: group container removed, its last reference, queued for deletion after its last app's removal (with the app), container deleted (path, identity): local time as written, group or bundle id, path | none |
//! | `Preferences/com.apple.AppStore.plist`, `db/timed/Library/Preferences/com.apple.preferences.datetime.plist` | [`appstoretz`] | the App Store's last bootstrap time zone and time (Cocoa seconds or a date) with its other preferences; timed's `timezoneset` | none |
//! | Google Docs and Google Sheets `Library/Preferences/com.google.Docs.plist`, `com.google.Sheets.plist` with `Documents/<account id>/localStore/documents/<id>/<id>.db` and `localStore/shared/documentMetadata.db` of the same container | [`googledocs`] | one per account id the preferences name (signed in or not); one per document or spreadsheet kept offline (title, id, type, MIME type, owned by the account, revision, access level, the signed-in account's name, e-mail, id and photo; created, modified on the server, synced, last opened and resumed in the app — 8-byte doubles decoded in the query —, the sync record's times and state) | `owner`: `signed_in_user_id`, each account folder's Google account id, `docosKeyData`'s id, e-mail and name |
//! | Box `Containers/Shared/AppGroup/<id>/`: `Library/Preferences/group.net.box.BoxNet.plist`, `Documents/db/Item.db`, `Recents.db`, `annotations.db`, `Documents/offlinefilesinfo/*.plist`, `File Provider Storage/boxpreview/<user>/db/PreviewItem.db` | [`boxnet`] | the account (login, name, phone, space, created); one per file or folder (path walked up the parents, owner, creator, modifier, shared link, favourite, SHA-1, times, kept offline and when); per recent item, comment or annotation (message, author, times), preview (last accessed) | `owner`: `box:<user id>`, login, name, phone; `box:<user id>` per other user named (login, name) |
//! | `Media/iTunes_Control/iTunes/MediaLibrary.sqlitedb` | [`medialibrary`] | one per item of the Music library (title, media kind, artist, album, album artist, genre, composer, year, track, duration, file; play and skip counts, rating, liked; in the library, cloud status, subscription, bought over the air; store ids; the buying, downloading and family accounts' DSIDs and Apple IDs; added, downloaded, last played, last skipped, purchased, released); one per store account (DSID, Apple ID, alt-DSID, whether `_MLDatabaseProperties` names it the library's, items bought and downloaded) | `owner`: the Apple ID and DSID of the account `MLJaliscoAccountID`/`MLCloudAccountID` names; other accounts facts only |
//! | `containers/Data/System/<id>/history/installHistory.db` | [`installhistory`] | one per OS update (or security response) the updater finished installing or rolling back: name, build, operation type and its meaning, local time as written | none |
//! | Fitbit `Documents/fitbit.sqlite` (Core Data: `ZFBACTIVITYLOG`, `ZFBLOCATIONGROUP`, `ZFBLOCATION`, `ZMANAGEDHEARTRATE`, `ZFBACTIVITYSTAT2`, `ZFBUSER`) | [`fitbitios`] | one per exercise session (name, log id and type, durations, distance, steps, calories, heart rate, elevation, speed, active and zone minutes, GPS and in-progress flags, source name, type and id, GPS points; start and last modified, big-endian double BLOBs decoded in the query); one per location group's GPS route (points, interpolated, first and last position and time); one per activity source (tracker or app: id, name, type, sessions, first and last); one per day of heart rate (samples, lowest, highest, average, first and last) and of day totals (steps, distance, floors, calories, active minutes); one per user (encoded id, names, avatar, gender) | each user `fitbit:<encoded id>` with its display name (none made the device's user) |
//! | CoreDuet `Library/DuetExpertCenter/streams/location/`, `streams/userNotificationEvents/` (SEGB v1 and v2) | [`duetstreams`] | one per location record (latitude, longitude, accuracies, altitude, speed, course, the fix's time: a CLLocation archive); one per notification record (app and second bundle id, title, subtitle, body, GUIDs, optional data, person identifier and info, both times); deleted records and CRC mismatches said | — |
//! | Maps `Library/Maps/GeoHistory.mapsdata` (iOS 12–13; any `GeoHistory.mapsdata`) | [`geohistory`] | one per search-history record: search typed, result places, place shown, directions' waypoints with their address lines, iLEAPP's current location, place-request texts as stored, other texts (protocol buffers decoded), when last modified | — |
//! | `root/Library/Application Support/WiFiNetworkStoreModel.sqlite` (or under `com.apple.wifianalyticsd/`) | [`wifistoremodel`] | one per network record (SSID, entity, auth flag as stored, geotags linking to it), per geotag (position, BSSID, the linked networks' SSIDs, Cocoa date) | none |
//! | `preferences/SystemConfiguration/preferences.plist` | [`sysconfprefs`] | the device's computer, host and Bonjour names, model and current set; one per network service (interface, addresses, router, DNS servers, proxies, in the current set or not) | `device`: the computer name as the device's name |
//! | `db/dhcpd_leases` (bootpd, Personal Hotspot) | [`dhcpserverleases`] | one per lease the phone's DHCP server gave (client name, IP address, hardware address, client identifier, lease end as written) | none |
//! | CoreDuet `Library/DuetExpertCenter/notificationAndSuggestionDB.db` (`notifications`, `suggestions`) | [`notifsuggestions`] | one per notification received (app, message or group message, urgency, delivery method and reason, latest outcome as stored, prominent, active, expansions, body length, thread and contact ids, received mode, raw identifier, UUID; received and outcome times), per suggestion made from them (type, scope, entity, outcome as stored, active, feedback key, the triggering notification's UUID and app; created, shown, outcome times) | — |
//! | `.ash_history` anywhere (the root user's home, a jailbreak's or terminal app's folder) | [`ashhistory`] (lines split by `crate::shellhistory`, shared with Android's bash history) | one per file: the commands in order (the first 500 as facts, the rest counted; lines that look like they carry a password withheld and counted); ash writes no times | — |
//! | Battery Data Collection `/private/var/db/Battery/BDC/BDC_SBC_*.csv` (sysdiagnose `logs/BatteryBDC/`) | [`batterybdc`] | one per sample: every column by its header name — charge level shown (`StateOfCharge`) and raw (`CurrentCapacity`), `IsCharging`, temperature (hundredths of °C), amperage (mA), voltage (mV), the others as named —, the time as written | — |
//! | Apple Intelligence Report export `Apple_Intelligence_Report*.json` (wherever the user saved it) | [`aireport`] | one per model request (identifier, use case, client app, model and version, execution environment, prompt and response as kept, other members; time) and per Private Cloud Compute request (request id, pipeline kind, the pipeline parameters, each node's id and state; time); attestation bundles not copied | — |
//! | Tile `AppGroup/<id>/com.thetileapp.tile-DiscoveredTileDB.sqlite` | [`tilediscovered`] | one per Tile the app heard nearby over Bluetooth (its UUID, when the app last modified the record) | none |
//! | DMSS `Library/Support/Devices.sqlite3` of a DMSS container (by its owner's bundle id or its cloud store), `Library/Support/<account>/DMSSCloud.sqlite` | [`dmssios`] | one per recorder or camera (name, address as added — IP, serial or domain —, port, login user name, a stored password said, DDNS configuration), per channel (id, name, device); per alarm sensor (name, model, serial, type, states, battery, hub), per cloud device (name, model, serial, type, channels, online, sharing, user name, capabilities, ports, hardware id), per alarm message (id, type and meaning, sensor, area, nickname, device, viewed, local time) | each sensor and cloud device `dmss-device:<serial>` (a device) |
//! | Hik-Connect `Documents/database.hik`, `Documents/DCLOG/YSDCLogItem.sqlite` | [`hikvisionios`] | one per recorder or camera (id, name, serial, port, channels, DDNS address and port, login user name, a stored password said), per channel (number, name, enabled, device), per usage-log record (type, data, time) | each device `hikvision-device:<serial>` |
//! | Google Duo / Meet `Library/Application Support/DataStore` of `com.google.Tachyon`'s container (by its owner or the app's preferences beside it) | [`googleduoios`] | one per contact (id, name, number label, registered, synced), per call (local and other user, contact name, duration, direction, video or audio, time), per clip (message id, local user, source as stored, text, MD5, sizes, created, message date, viewed) | `owner`: the local user's number or e-mail; `duo:<id>` per contact and other party |
//! | Life360 `Library/Caches/Logs/com.life360.safetymap <date>.log` (any folder), `Library/Application Support/Messaging.sqlite` of its container | [`life360ios`] | one per log line holding an `X-UserContext` header (position, altitude, speed, heading, accuracies, activity, location mode, precise flag, battery and charging, the fix's time); one per circle member (names, e-mail, phone, member id, avatar, admin, circle; the signed-in one as the account); one per chat message (text, ids, thread, sent status, read, deleted, liked, action, sender, shared place with coordinates, Cocoa time) | `owner`: the member marked signed in (`life360:<member id>`, e-mail, phone, name); `life360:<member id>` per other member; wallet claims by direction |
//! | Pinterest `Documents/activeUser*`, `Library/Preferences/pinterest.plist`, `Library/Caches/com.pinterest.PINDiskCache.PINRemoteModelCache/conversations%2F…` of its container (NSKeyedArchiver archives) | [`pinterestios`] | the account (user name, names, e-mail, profile, counts, connected services, created); one per cached direct message (text, sender, conversation and participants, shared pin with its link and largest image, sent, read by the account); the app's own preferences | `owner`: `pinterest:<id>`, e-mail, user name, name; `pinterest:<id>` per other user a message names; wallet claims by direction |
//! | Kleinanzeigen `Library/Preferences/com.ebaykleinanzeigen.ebc.plist`, `Library/Caches/conversation_cache`, `Library/Private Documents/.last_search_query` of its container | [`kleinanzeigenios`] | the account (e-mail, id, contact name, type, registered, modified); one per keyword searched (time); one per cached message (conversation, ad and its status, the account's role, both sides' names and ids, sender, status, text, images, time) or a conversation's last message as summarised; the last search (keywords, category, areas) | `owner`: e-mail, `kleinanzeigen:<id>`, contact name, the cache's own side; `kleinanzeigen:<id>` per counterparty; wallet claims by direction |
//! | Netflix `Library/gqlData/<profile guid>-<version>-gql<n>.db` (Apollo's GraphQL cache: `records`), `Library/Preferences/com.netflix.Netflix.plist` of its container | [`netflixios`] | one per stored playback position (video id, title, position, progress, last modified), profile (name, guid, current, owner, kids, PIN-locked and other flags, maturity, languages, avatar, created; never the lock PIN), the account (status, country, plan, profiles, member since), continue-watching entry (title shown, video id); the preferences (login, ESN, device id, version, profile guids) | `owner`: the preferences' login e-mail |
//! | FSEvents logs `/private/var/.fseventsd/`, `/private/var/mobile/.fseventsd/` (`read_fsevents`; crate level, shared with macOS volumes) | (`fsevents_logs`, [`crate::fsevents`]) | one per record (path, event id, flags in words, node id, log file) and per log file (size, records; written: the records' changes at or before) | none |
//! | `Photos.sqlite` sharing records (`Media/PhotoData/`, `Syndication.photoslibrary/`, other `*.photoslibrary/`) | [`photossharing`] | one per Shared with You conversation album and syndicated asset, iCloud share (Shared Photo Library, link), share participant, Shared Library asset (contributor, trasher), link asset | `owner` from the participant marked current user (e-mail, phone, `icloud-photos:<id>`); other participants `icloud-photos:<id>` or `handle:`; a conversation named by a phone or e-mail `handle:` |
//! | `Photos.sqlite` (`Media/PhotoData/`, other `*.photoslibrary/`): `ZPERSON`, `ZDETECTEDFACE` | [`photospeople`] | one per person of the People album (names, UUID, linked contact, the contact-matching dictionary's members, verified, favourite, face counts, age and gender estimates, is-me confidence, merged into), per detected face or torso (its asset's file, `Z_PK` and UUID, its person, iLEAPP's decoded estimates, hidden, trashed, position, quality) | `photos-person:<UUID>` only with an identifier in clear: `ZPERSONURI` as `contact_guid`, the dictionary's e-mails, phones and contact ids; names alone are facts, never the owner |
//! | `Photos.sqlite` (`Media/PhotoData/`, other `*.photoslibrary/`): `ZGENERICALBUM`, the album-asset join table | [`photosalbums`] | one per album, folder, shared album, import session … (kind and meaning, title, UUID, cloud GUID, counts, trashed, pinned, sort, folder, assets listed; created, earliest and latest asset, trashed), per album item (the album, the asset's file, `Z_PK`, UUID, hidden, trashed, position); the join table found by its columns | — |
//! | Kik `kik.sqlite` join tables `Z_<n>MEMBERS`, `Z_<n>ADMINSINVERSE`, `Z_<n>BANSINVERSE` and `ZKIKUSEREXTRA`; `AppGroup/<id>/cores/private/<account>/chunked_upload_storage/pending_uploads` and its `data_cache/` | [`kikgroups`] | one per group and user (roles: member, admin, banned; both rows' names and JIDs), the account holder (`ZFLAGS` 258: names, e-mail, JID, the groups it holds a role in), per user's profile data (Protocol Buffers texts at iLEAPP's places), per pending upload (content id, app id, progress, retries, state, start; its cached file), per cached file no upload names | `owner`: the account holder's JID, user name, e-mail (other users are [`kik`]'s `kik:<Z_PK>`) |
//! | Uber `Library/Application Support/com.ubercab.UberClient/storagev2/` (LevelDB, `leveldb_records`; the folder or any folder below it) | [`uberleveldb`] | one per put version of a message with `jsonConformingObject` (the phone's position, speed, course, altitude, accuracies, city, the fix's time; when made; the screen shown and its metadata, the active trips, the app type values; key, sequence, a later deletion said) | none (the account is [`uberplaces`]') |
//! | Spotlight `mobile/Library/Spotlight/CoreSpotlight/<protection class>/index.spotlightV2/Cache/<folder>/<n>.txt` | [`spotlightcache`] | one per cached text file (path, size, its non-blank lines — 200 as facts, the rest counted —, modified) | none |
//! | privacyaccountingd `Library/PrivacyAccounting/Biome/com.apple.privacy.accounting.stream.{tcc,location,oop}/` (`local/`; SEGB, the folders found by the one search) | [`privacyaccounting`] | one per access record behind the App Privacy Report (app, its identifier type, TCC service or picker type, kind, access id, time); deleted records whose payload is gone by their time; deleted records and CRC mismatches said | — |
//! | CoreDuet `Library/CoreDuet/People/Feedback/CNA/` (`local/`; SEGB v2, each record a property list) | [`cnafeedback`] | one per contacts-autocomplete feedback record (app, feedback type and its word, implicit, the entered / exited / typed / tapped / erased members, each suggestion offered with its conversation, reason, group and recipients' names, handles and identifiers; record and report times); deleted records and CRC mismatches said | each suggested recipient by its handle (`handle:<normalised>` or the card holding it) with its name and address-book person id; without a handle `cna-contact:<UUID>` |
//! | myAudi `Library/Caches/de.audi.myaudimobileassistant/fsCachedData/<UUID>` (JSON holding `tripData`) and `Cache.db` beside it | [`auditrip`] | one per trip (trip id, type, report reason, average speed, travel time, start, trip and overall mileage, fuel and electric consumption, zero-emission distance, timestamp; the request address, the VIN it names and when it was cached); one per VIN the cached request addresses name (responses, first and last cached) | — (the VIN is a fact) |
//! | Lidl Plus `Library/Caches/com.lidl.eci.lidl.plus/Cache.db` with `fsCachedData/` | [`lidlplus`] | one per ticket of a cached ticket list (id, store code, total, currency, articles, coupons, returns, flags, purchase time); one per cached ticket detail (store id, name, address, postal code, locality, total, barcode, coupons, purchase time) and one per article of its printed receipt (description, quantity, unit price, tax type, product id, line, discount); the loyalty card number cut from the payment QR (never the QR) | `owner`: `lidlplus:<card number>` |
//! | Google Maps `Containers/Data/Application/<id>/Library/Application Support/SemanticLocation/odlh-storage.db` (its container known by [`appcontainer`]; another Google app's as the location library's) | [`googlemapsios`] (read by `crate::android::odlh`) | one per Timeline segment (start, end, record time, type, the place's coordinates from the segment message, shown, finalised, level, id, obfuscated account id), per edited segment (its block, uploaded) | — |
//! | CommCenter `wireless/Library/Preferences/com.apple.commcenter.data.plist` | [`siminfo`] | one per SIM of `PersonalWallet` (number, number as shown, type, eSIM, label id and confirmed, cb_id, cb_ver, EAP-AKA, no_src, other values, its label and slot, ts), per label of `unique-sim-label-store` (text, tag, the SIMs carrying it, ts), per `PersonalitySlots` entry | each ICCID and IMSI on `device`, each number the owner's |
//! | `Photos.sqlite` (`Media/PhotoData/`, other `*.photoslibrary/`): `ZMIGRATIONHISTORY` | [`photosmigration`] | one per migration of the library (iOS build, the release its number names, index, type and meaning, rebuild reason, model versions, origin, store UUID, global values' size, when) | — |
//! | Photos app `com.apple.mobileslideshow.plist`, Camera `com.apple.camera.plist`, `com.apple.mediaanalysisd.plist` (a `Library/Preferences/` folder), `PhotoData/Caches/SmartSharing/camera_smart_sharing_metadata.plist`, `cloudServiceEnableLog.plist` (`com.apple.accountsd/`, `com.apple.assetsd/`), a UFED extraction's `device_values.plist` | [`photosplists`] | one per property of each preference plist and of the device values (every value below it; a property holding an archived `CLLocation` a `locations` phenomenon with its coordinates and fix time); the Smart Sharing metadata and each home and frequent location; one per iCloud service enable event (service, on/off, reason, time) | `device`: the device values' IMEI, serial, UDID, name, ICCID, IMSI, Bluetooth address; `owner`: their phone number |
//! | `Photos.sqlite` (`Media/PhotoData/`, other `*.photoslibrary/`): `ZINTERNALRESOURCE`, `ZMEDIAANALYSISASSETATTRIBUTES`, `ZASSETANALYSISSTATE` | [`photosresources`] | one per resource of an asset (the asset's `Z_PK`, file, UUID; type, subtype and recipe as stored and decoded, version, on the device or not, in iCloud or not, iCloud state and source, store class, type identifier, size, dimensions, codec, fingerprint, stable hash, trash and iCloud-delete states, whether an original was optimised away; trashed, iCloud master created, last prefetched, last downloaded), per library (originals on the device and not, bytes), per analysed asset (analysis version, faces counted, Screen Time sensitivity, workers' states; analysed, passed over, deferred) | none |
//! | `Health/healthdb_secure.sqlite`: `location_series_data`, `data_series`, `associations` | [`workoutroutes`] | one per workout route, summarised in the query (series, points and the count Health kept, finished or not, first and last point with their times, seconds between them, bounding box, lowest and highest altitude, top speed, mean accuracy, the route's object and when added, the workout's object, row and activity: named as [`health`] titles the workout) | none |
//! | `CallHistory.storedata` (`ZCALLRECORD`, `Z_<n>REMOTEPARTICIPANTHANDLES`, `ZHANDLE`), `interactionC.db` (`ZINTERACTIONS`, `Z_<n>INTERACTIONRECIPIENT`, `ZCONTACTS`): calls with several remote participants | [`groupcalls`] | one per group call (address, direction, answered, call type and iLEAPP's reading, duration, provider, disconnect cause, country, location, name, ids, participant count; each participant's handle, normalised handle and type; started, ended), per group call interaction of InCallService, FaceTime or Phone (app, direction, recipient counts, group name, UUID, seconds; each recipient's name, identifier, person id; started, ended) | `handle:<normalised>` (or the card holding it) per participant that is a phone or an e-mail |
//! | WhatsApp `ChatStorage.sqlite`: `ZWAMESSAGEINFO.ZRECEIPTINFO` (Protocol Buffers, field 7), `ZWAMESSAGE.ZGROUPEVENTTYPE`, `ZWAGROUPMEMBERSCHANGE` | [`whatsappextended`] | one per reaction (emoji, reactor's JID where the record keeps it, message key, the message's chat, direction and text; reacted, the message's time), per message's channel reaction tallies (emoji, count), per group event (types as stored, text, JIDs, chat), per membership change (type, group, member JIDs; changed) | `handle:<JID>` per reactor and member JID naming a person, never the account's own JID |
//! | OrNET Browser `Library/Preferences/ch.b-eng.tor.plist` | [`ornetios`] | one per open and private tab (URL from the archived NSURL list), one for the settings (connection mode, VPN address and city, server, privacy and clean-up switches, subscription, custom bridges; last active) | none |
//! | saved web pages `*.mhtml`, `*.mht` anywhere (`read_text` of the MIME header; Android's reader shared) | [`offlinepagesios`] | one per archive (address, title, date, writer, size; the file's modification) | none |
//! | Withings Health Mate `Library/Application Support/account` (JSON) and `Library/Application Support/coredata/` (`*_Tracks*`, `*_HM3Timeline*`, `*_vasistas*`, `associated_device.sqlite`; Core Data) of its container | [`withingsios`] | one per user of the account (ids, names, e-mail; born, created, modified); one per track: night (sleep phases, wake-ups), day summary (durations, steps, distance), activity (subcategory, pause, steps, distance, heart rate, speeds, temperatures) or other, with its times, and per activity its start, end and region-centre positions; one per message between connected users (sender, receiver, direction, type, text; sent, modified, expires); one per UTC day and category of the per-minute samples (counts, devices, sums, heart rate, SpO2 and temperature ranges and averages; GPS points with the first and last position); one per device (id, user, Bluetooth address, firmware, position, time zone; associated, last connected, last weigh-in) | `owner`: the one user with an e-mail (e-mail, `withings:<id>`, short name); `withings:<id>` per other user and message counterpart; `bluetooth:<address>` per device |
//! | AllTrails `Documents/AllTrails.sqlite` (Core Data: `ZTRAIL`, `ZLOCATION`, `ZPARKAREA`, `ZACTIVITYSTATS`, `ZUSER`, `ZPROFILE`) | [`alltrailsios`] | one per trail (name, route type, difficulty as stored and said, rating, reviews, length, elevation gain, park area, its place: coordinates, city, region, postal code, country); one per user (user name, names, e-mail, remote id, referral link, the place recorded, why taken for the account; created) | `owner`: the user of the app's profile or the only user (e-mail, user name, name, `alltrails:<remote id>`); `alltrails:<remote id>` per other user |
//! | Amazon Shopping (`com.amazon.Amazon`, `com.amazon.Amazon<CC>`) `Library/Preferences/<bundle>.plist`, `Documents/RCTAsyncLocalStorage_V1/manifest.json` (`persist:root` › `pandaStore`), `Library/Preferences/amzn1.account.*.plist`, `Library/Caches/<bundle>/Cache.db` (with `fsCachedData/`), `Library/LocalDatabase/ssnapImageCacheRegistry.db` | [`amazonios`] | the customer and app state (iLEAPP's keys: customer and anonymous ids, marketplace, localisation, versions, user agents, vendor and install ids, counts, flags, Prime and business per marketplace, sync and advertising times); one per profile (account id, full name, primary claim, marketplace; last active, updated); one per per-account preference file; one per line item of the cached orders list (order id, ASIN, quantity, adult, pages, image; ordered, cached); one per cached delivery location (city, postal code, state, country, address source and ids, delivery lines, page type); one per product lookup (ASIN, marketplace); one per cached image (URL, feature, size, hits, file; last accessed, expires) | `owner`: `amazon-customer:<customer id>`; the only profile (`amazon:<account id>`, full name, e-mail or phone); `amazon:<account id>` per profile when several |
//! | `root/.obliterated`, `root/.bootstrapped` | [`wipe`] | one per file: its modification time, the first boot after the device's last erase | none |
//! | `Preferences/com.apple.mobilesafari.plist` | [`safarisearches`] | one per recent Safari search (text, time) | none |
//! | `WebClips/<id>.webclip/Info.plist` | [`webclips`] | one per home screen web clip (title, address, other values) | none |
//! | Waze `Documents/user.db` of the container holding `com.waze.iphone.plist` | [`crate::waze`] (shared with Android) | one per place, recent destination, saved place (home, work …), shared place, planned drive, each with its place's address and coordinates | none |
//! | `Health/healthdb.sqlite`, `Health/healthdb_secure.sqlite` | [`health`] | one per device that gave Health data (name, manufacturer, model, hardware, firmware, software, local identifier, sync provenance and identity, first met); one per workout activity (start, end, type, indoor or outdoor, duration, distance, goal, active and resting energy, METs, heart rate, weather, where the weather was read, elevation, the device and app that recorded it, time zone, added); one per device of the account sharing the data (product type, OS, modified); one per product type, and per product type and OS build, that wrote Health objects (first and last, count, sources); with [`healthsamples`], one per sample of steps, heart rate, resting heart rate, height, body mass, headphone audio level, wrist temperature and sleep (start, end, value, metadata, recorder, added), per heart-rate measurement of a series, per period the watch was worn, per achievement earned | a device's local identifier that is a Bluetooth address (`bluetooth:<address>`) |
//! | PowerLog `BatteryLife/CurrentPowerlog.PLSQL`, other `*.PLSQL`, archives `*.PLSQL.gz` (inflated) | [`powerlog`] | one per row of eleven tables: app runtime (screen-on, background), app state, device lock and unlock, auto-lock, sleep/wake, battery level, power adapter, display, audio route, camera, torch — each at its time corrected by the log's `TimeOffset` table, the raw time beside it | none |
//! | `com.apple.sharingd.plist` | [`airdrop`] | the AirDrop ID and discoverable mode, with the file's other values | — |
//! | iCloud Shared Albums `Media/PhotoData/PhotoCloudSharingData/<account>/`: each album's `Info.plist` and `DCIM_CLOUD.plist`, `cloudSharedPersonInfos.plist`, `cloudSharedEmails.plist` | [`sharedalbums`] | one per album (title, owner's e-mail and names, hashed person id, public link, subscribed, relationship state, DCIM counters), per person (e-mail, names, id), the e-mails kept | the owner and every person by e-mail and name (`handle:` or their card) |
//! | `root/Library/Caches/Backup/cloudkit_cache.db` | [`cloudkit`] | one per iCloud backup snapshot (device name and UUID, iOS version, type, reason, cellular, times, file count and size; its plist plain or keyed) and per file of a snapshot (domain, path, id, size, type, deleted, protection class, modified) | the snapshot's device by name (`icloud-backup:<UUID>`) |
//! | Lockdown, CommCenter, purplebuddy, SystemVersion plists; an iTunes backup's `Info.plist` and `Manifest.plist`; keychain exports | [`plists`] | device identity (a backup's: IMEI, serial, number, name, UDID, model); every property of CommCenter's `device_specific_nobackup` plist; keychain account + service (never secrets) | `device`, `owner` |
//!
//! Each artefact keeps to 2,000 row phenomena and then one summary phenomenon (count, first and
//! last time). An artefact that cannot be read is noted with `ctx.unparsed` and the rest of the
//! source is still analysed.

pub mod accessories;
pub mod accounts;
pub mod activationlog;
pub mod addressbook;
pub mod adid;
pub mod airbnb;
pub mod airdrop;
pub mod aireport;
pub mod alltrailsios;
pub mod amazonios;
pub mod amdsqlite;
pub mod appconduit;
pub mod appcontainer;
pub mod appleaccount;
pub mod applewallet;
pub mod apps;
pub mod appstate;
pub mod appstoretz;
pub mod ashhistory;
pub mod asyncstorage;
pub mod auditrip;
pub mod backupinfo;
pub mod batterybdc;
pub mod bereal;
pub mod biome;
pub mod biomedbs;
pub mod biomesets;
pub mod bluetooth;
pub mod boxnet;
pub mod bumble;
pub mod burner;
pub mod cachev0;
pub mod calendar;
pub mod callhistory;
pub mod carconnection;
pub mod cashapp;
pub mod chatgpt;
pub mod claude;
pub mod clock;
pub mod clouddocs;
pub mod cloudkit;
pub mod clubhouse;
pub mod cnafeedback;
pub mod coinbasewallet;
pub mod computers;
pub mod containerlogs;
pub mod containers;
pub mod controlcenter;
pub mod cookies;
pub mod datausage;
pub mod dhcpserverleases;
pub mod dmssios;
pub mod driveiq;
pub mod dubox;
pub mod duckduckgo;
pub mod duetstreams;
pub mod emlx;
pub mod favicons;
pub mod findmy;
pub mod fitbitios;
pub mod foursquare;
pub mod geodapps;
pub mod geodplaces;
pub mod geohistory;
pub mod gmail;
pub mod gmaproutes;
pub mod googledocs;
pub mod googleduoios;
pub mod googlemapsios;
pub mod googlephotos;
pub mod googlevoice;
pub mod groupcalls;
pub mod groupme;
pub mod groupmedb;
pub mod health;
pub mod healthsamples;
pub mod hikvisionios;
pub mod homedepot;
pub mod idstatus;
pub mod imo;
pub mod instagram;
pub mod installhistory;
pub mod installlog;
pub mod interactions;
pub mod itunesmeta;
pub mod keyboard;
pub mod kijiji;
pub mod kik;
pub mod kikattachments;
pub mod kikgroups;
pub mod kleinanzeigenios;
pub mod knowledgec;
pub mod lidlplus;
pub mod life360ios;
pub mod line;
pub mod linkedin;
pub mod locationd;
pub mod lockdownlog;
pub mod locservices;
pub mod mail;
pub mod mapsprefs;
pub mod mapssync;
pub mod mastodon;
pub mod medialibrary;
pub mod medicalid;
pub mod messageretention;
pub mod mewe;
pub mod netflixios;
pub mod netinterfaces;
pub mod notes;
pub mod notifications;
pub mod notifsuggestions;
pub mod nsvault;
pub mod offlinepagesios;
pub mod onionbrowser;
pub mod oops;
pub mod ornetios;
pub mod oura;
pub mod parsecd;
pub mod paybyphone;
pub mod photos;
pub mod photosalbums;
pub mod photosmigration;
pub mod photospeople;
pub mod photosplists;
pub mod photosresources;
pub mod photossharing;
pub mod pinger;
pub mod pinterestios;
pub mod plists;
pub mod podcasts;
pub mod portrait;
pub mod potatochat;
pub mod powerlog;
pub mod privacyaccounting;
pub mod privacyreport;
pub mod purgehistory;
pub mod querypredictions;
pub mod quicklook;
pub mod reddit;
pub mod reminders;
pub mod restorelog;
pub mod routined;
pub mod safari;
pub mod safarihistory;
pub mod safarisearches;
pub mod safaritabs;
pub mod sbb;
pub mod screentime;
pub mod session;
pub mod sharedalbums;
pub mod shutdownlog;
pub mod signal;
pub mod simhistory;
pub mod siminfo;
pub mod siriremembers;
pub mod slack;
pub mod sms;
pub mod smsdrafts;
pub mod snapshots;
pub mod speedtest;
pub mod splitwise;
pub mod spotlightcache;
pub mod swissmeteo;
pub mod sysconfprefs;
pub mod tcc;
pub mod teams;
pub mod telegram;
pub mod threebars;
pub mod threema;
pub mod tiktok;
pub mod tiktokim;
pub mod tile;
pub mod tilediscovered;
pub mod tinder;
pub mod translate;
pub mod truthsocial;
pub mod twint;
pub mod twitter;
pub mod twittercache;
pub mod uberleveldb;
pub mod uberplaces;
pub mod united;
pub mod venmo;
pub mod viber;
pub mod vipps;
pub mod voicemail;
pub mod voicememos;
pub mod voicetrigger;
pub mod walletcards;
pub mod weather;
pub mod webclips;
pub mod wechat;
pub mod whatsapp;
pub mod whatsappextended;
pub mod wickr;
pub mod wifi;
pub mod wifianalytics;
pub mod wifistoremodel;
pub mod wipe;
pub mod wire;
pub mod withingsios;
pub mod workoutroutes;
pub mod zalo;
pub mod zangi;

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};

use masf_agents::{AgentCtx, Detection, DeviceType, Observation, Plugin, RuntimeError, Typing};
use masf_evidence::scan::{Form, Scan};
use masf_graph::identifiers::normalize;
use masf_graph::views::ExpectedArtefact;
use masf_graph::{EntityKind, FactType, IdType, TimeEncoding};
use masf_tools::{Invoked, SourceCtx};
use serde_json::json;

use crate::outputs::Table;

pub use crate::calls::{Paged, ROW_CAP};

/// Entries recorded from an artefact read in one output (a property list, a cookie file, one
/// unpaged query): every fact re-reads the cited output, so these stay shorter.
pub const ENTRY_CAP: u64 = 2000;

/// Rows per `sqlite_query` call of a paged read (grounding reads the cited output once per fact,
/// so short outputs keep recording linear).
pub const PAGE: u64 = 250;

/// The iOS plugin.
pub struct Ios;

/// The evidence type of a source this plugin recognises as an iOS file-system extraction.
pub const IOS_EXTRACTION: &str = "ios_extraction";

impl Plugin for Ios {
    fn name(&self) -> &'static str {
        "ios"
    }

    /// An iOS extraction: a file system of the source holds the device's `/private/var`
    /// (or `/var/mobile`) at its root. An iTunes/Finder backup is its own form (the scanner
    /// reads it as one tree), claimed in [`Plugin::detect`].
    fn typing(&self, scan: &Scan) -> Option<DeviceType> {
        if scan.form == Form::ItunesBackup {
            return None;
        }
        scan.file_systems().iter().find_map(|f| {
            ["/private/var/mobile", "/private/var", "/var/mobile"]
                .into_iter()
                .find(|marker| {
                    f.fs.stat(marker)
                        .is_ok_and(|e| e.kind == masf_evidence::fs::EntryKind::Dir)
                })
                .map(|marker| DeviceType {
                    name: IOS_EXTRACTION,
                    reasons: vec![format!("{} tree contains {marker}", f.fs.format())],
                })
        })
    }

    fn detect(&self, source: &SourceCtx, typed: &Typing) -> Option<Detection> {
        if typed.by(self.name()) || source.scan.form == Form::ItunesBackup {
            let mut reasons = vec![format!("evidence sniffed as {}", typed.evidence_type)];
            reasons.extend(typed.reasons.iter().cloned());
            return Some(Detection {
                score: 100,
                reasons,
            });
        }
        // Any other tree (a zip, tar or folder of a partial or tool-specific extraction, a disk
        // image holding a copied device tree): claimed by the iOS directories it holds,
        // wherever they sit (`filesystem1/private/var/…`, `Dump/var/…`, a copied `mobile`).
        crate::layout::layout_detection(&typed.evidence_type, ios_layout(&source.scan.root))
    }

    fn tools(&self) -> Vec<std::sync::Arc<dyn masf_tools::Tool>> {
        vec![
            std::sync::Arc::new(crate::region::PhoneRegionTool),
            std::sync::Arc::new(cookies::BinaryCookies),
        ]
    }

    fn expected_artefacts(&self) -> Vec<ExpectedArtefact> {
        catalogue()
    }

    fn categorise(&self, path: &str) -> Option<&'static str> {
        categorise(path)
    }

    fn triage(&self, ctx: &AgentCtx<'_>) -> Result<(), RuntimeError> {
        let run = Run::new(ctx);
        // One search for every file the readers look for, before any artefact's time runs.
        run.search()?;
        // The region of the source's numbers before any number is read.
        plists::region(&run)?;
        // The address book first: message and call handles that belong to a card are then
        // left to the card's entity.
        ctx.artefact("AddressBook.sqlitedb", || addressbook::triage(&run))?;
        ctx.artefact("sms.db", || sms::triage(&run))?;
        ctx.artefact("CallHistory.storedata", || callhistory::triage(&run))?;
        ctx.artefact("voicemail.db", || voicemail::triage(&run))?;
        ctx.artefact("CoreDuet interactionC.db", || interactions::triage(&run))?;
        ctx.artefact("WhatsApp", || whatsapp::triage(&run))?;
        ctx.artefact("Google Voice threadingStore.sqlite", || {
            googlevoice::triage(&run)
        })?;
        ctx.artefact("Kik kik.sqlite", || kik::triage(&run))?;
        ctx.artefact("WeChat MM.sqlite", || wechat::triage(&run))?;
        ctx.artefact("LINE Line.sqlite", || line::triage(&run))?;
        ctx.artefact("Signal signal.sqlite", || signal::triage(&run))?;
        ctx.artefact("Session Session.sqlite", || session::triage(&run))?;
        ctx.artefact("Clubhouse preferences", || clubhouse::triage(&run))?;
        ctx.artefact("GroupMe preferences", || groupme::triage(&run))?;
        ctx.artefact("GroupMe GroupMe.sqlite", || groupmedb::triage(&run))?;
        ctx.artefact("Mastodon shared.sqlite", || mastodon::triage(&run))?;
        ctx.artefact("Truth Social ChatModel.sqlite", || {
            truthsocial::triage(&run)
        })?;
        ctx.artefact("MeWe sgrouplesdb.sqlite", || mewe::triage(&run))?;
        ctx.artefact("MetaMask Mobile persistStore", || metamask(&run))?;
        ctx.artefact("Coinbase Wallet wallet-rn-v2.sqlite", || {
            coinbasewallet::triage(&run)
        })?;
        ctx.artefact("Facebook Messenger lightspeed store", || messenger(&run))?;
        ctx.artefact("Snapchat arroyo.db", || snapchat(&run))?;
        ctx.artefact("Slack ModelDatabase and main_db", || slack::triage(&run))?;
        ctx.artefact("Microsoft Teams Skype*.sqlite", || teams::triage(&run))?;
        ctx.artefact("Discord kv-storage and URL cache", || discord(&run))?;
        ctx.artefact("Threema ThreemaData.sqlite", || threema::triage(&run))?;
        ctx.artefact("Google Chat dynamite.db", || google_chat(&run))?;
        ctx.artefact("Tinder Tinder2.sqlite", || tinder::triage(&run))?;
        ctx.artefact("Bumble Chat.sqlite and yap-database.sqlite", || {
            bumble::triage(&run)
        })?;
        ctx.artefact("Burner Phoenix.sqlite", || burner::triage(&run))?;
        ctx.artefact("LinkedIn preferences and msg_database.sqlite", || {
            linkedin::triage(&run)
        })?;
        ctx.artefact("Kijiji conversation_cache", || kijiji::triage(&run))?;
        ctx.artefact("Text Free Messaging_*.sqlite", || pinger::triage(&run))?;
        ctx.artefact("Wire store.wiredatabase", || wire::triage(&run))?;
        ctx.artefact("Apple Wallet passes and transactions", || {
            applewallet::triage(&run)
        })?;
        ctx.artefact("Zangi zangidb.sqlite", || zangi::triage(&run))?;
        ctx.artefact("TeleGuard teleguard_database.db", || teleguard(&run))?;
        ctx.artefact("Proton Mail account.db and mail caches", || {
            protonmail(&run)
        })?;
        ctx.artefact("Find My Items.data", || findmy::triage(&run))?;
        ctx.artefact("Reddit chat and user stores", || reddit::triage(&run))?;
        ctx.artefact("BeReal caches, preferences and chats", || {
            bereal::triage(&run)
        })?;
        ctx.artefact("Zalo profile, group and chat stores", || zalo::triage(&run))?;
        ctx.artefact("Telegram Postbox db_sqlite", || telegram::triage(&run))?;
        ctx.artefact("ChatGPT conversations and account", || {
            chatgpt::triage(&run)
        })?;
        ctx.artefact("Claude cache and account", || claude::triage(&run))?;
        ctx.artefact("Cash App CCEntitySync", || cashapp::triage(&run))?;
        ctx.artefact("Venmo feeds", || venmo::triage(&run))?;
        ctx.artefact("Twitter direct-message cache", || twitter::triage(&run))?;
        ctx.artefact("X model cache modelCache.sqlite3", || {
            twittercache::triage(&run)
        })?;
        ctx.artefact("Gmail searchsqlitedb", || gmail::triage(&run))?;
        ctx.artefact("Safari History.db", || safarihistory::triage(&run))?;
        ctx.artefact("Safari tabs and iCloud Tabs", || safaritabs::triage(&run))?;
        ctx.artefact("Chromium-family History and Bookmarks", || chromium(&run))?;
        ctx.artefact("Firefox places.db", || firefox(&run))?;
        ctx.artefact("OneDrive QTMetadata.db", || onedrive(&run))?;
        ctx.artefact("keyboard lexicon and statistics", || keyboard::triage(&run))?;
        ctx.artefact("NoteStore.sqlite", || notes::triage(&run))?;
        ctx.artefact("Accounts3.sqlite", || accounts::triage(&run))?;
        ctx.artefact("storeSystem.db", || apps::triage(&run))?;
        ctx.artefact("applicationState.db", || appstate::triage(&run))?;
        // after the application state, which names the apps' containers
        ctx.artefact("wallet apps' data", || wallet_apps(&run))?;
        ctx.artefact("React Native AsyncStorage", || asyncstorage::triage(&run))?;
        ctx.artefact("Wi-Fi known networks", || wifi::triage(&run))?;
        ctx.artefact("Wi-Fi location cache ThreeBars.sqlite", || {
            threebars::triage(&run)
        })?;
        ctx.artefact("locationd caches", || locationd::triage(&run))?;
        ctx.artefact("Bluetooth devices", || bluetooth::triage(&run))?;
        ctx.artefact("iTunesPrefs", || computers::triage(&run))?;
        ctx.artefact("lsdidentifiers plist", || adid::triage(&run))?;
        ctx.artefact("URL cache Cache.db", || safari::triage(&run))?;
        ctx.artefact("Control Center configuration", || {
            controlcenter::triage(&run)
        })?;
        ctx.artefact("app cookies", || cookies::triage(&run))?;
        ctx.artefact("Google image-fetcher cacheV0.db", || cachev0::triage(&run))?;
        ctx.artefact("identity-services lookups", || idstatus::triage(&run))?;
        ctx.artefact("network data usage", || datausage::triage(&run))?;
        ctx.artefact("Screen Time", || screentime::triage(&run))?;
        ctx.artefact("imo IMODb2.sqlite", || imo::triage(&run))?;
        ctx.artefact("Instagram direct messages", || instagram::triage(&run))?;
        ctx.artefact("TikTok messages", || tiktok::triage(&run))?;
        ctx.artefact("Viber account and contacts", || viber::triage(&run))?;
        ctx.artefact("App Privacy Report", || privacyreport::triage(&run))?;
        ctx.artefact("iCloud backup and CarPlay preferences", || {
            backupinfo::triage(&run)
        })?;
        ctx.artefact("iCloud backup CloudKit cache", || cloudkit::triage(&run))?;
        ctx.artefact("Apple Account devices", || appleaccount::triage(&run))?;
        ctx.artefact("SIM card history", || simhistory::triage(&run))?;
        ctx.artefact("AirDrop settings", || airdrop::triage(&run))?;
        ctx.artefact("iCloud Shared Albums", || sharedalbums::triage(&run))?;
        ctx.artefact("Medical ID", || medicalid::triage(&run))?;
        ctx.artefact("Notifications", || notifications::triage(&run))?;
        ctx.artefact("App permissions TCC.db", || tcc::triage(&run))?;
        ctx.artefact("iCloud Drive (Files app)", || clouddocs::triage(&run))?;
        ctx.artefact("Voice Memos", || voicememos::triage(&run))?;
        ctx.artefact("installation logs", || installlog::triage(&run))?;
        ctx.artefact("lockdownd log", || lockdownlog::triage(&run))?;
        ctx.artefact("activation log", || activationlog::triage(&run))?;
        ctx.artefact("wipe indicators", || wipe::triage(&run))?;
        ctx.artefact("Safari recent searches", || safarisearches::triage(&run))?;
        ctx.artefact("home screen web clips", || webclips::triage(&run))?;
        ctx.artefact("Waze user.db", || waze(&run))?;
        ctx.artefact("Apple Health", || health::triage(&run))?;
        ctx.artefact("PowerLog", || powerlog::triage(&run))?;
        ctx.artefact("Photos.sqlite", || photos::triage(&run))?;
        ctx.artefact("Calendar.sqlitedb", || calendar::triage(&run))?;
        ctx.artefact("Reminders stores", || reminders::triage(&run))?;
        ctx.artefact("Mail Envelope Index", || mail::triage(&run))?;
        ctx.artefact("Apple Mail messages (.emlx)", || emlx::triage(&run))?;
        ctx.artefact("KnowledgeC knowledgeC.db", || knowledgec::triage(&run))?;
        ctx.artefact("Biome streams", || biome::triage(&run))?;
        ctx.artefact("Biome sets", || biomesets::triage(&run))?;
        ctx.artefact("Biome databases", || biomedbs::triage(&run))?;
        ctx.artefact("routined locations", || routined::triage(&run))?;
        ctx.artefact("Apple Maps history MapsSync_0.0.1", || {
            mapssync::triage(&run)
        })?;
        ctx.artefact("Apple Maps preferences", || mapsprefs::triage(&run))?;
        ctx.artefact("locationd car connection", || carconnection::triage(&run))?;
        ctx.artefact("CoreAccessories analytics", || accessories::triage(&run))?;
        ctx.artefact("Clock alarms and world clock", || clock::triage(&run))?;
        ctx.artefact("shutdown log", || shutdownlog::triage(&run))?;
        ctx.artefact("software update restore log", || restorelog::triage(&run))?;
        ctx.artefact("Quick Look iCloud thumbnails", || quicklook::triage(&run))?;
        ctx.artefact("keyboard query predictions", || {
            querypredictions::triage(&run)
        })?;
        ctx.artefact("Siri voice trigger enrolment", || {
            voicetrigger::triage(&run)
        })?;
        ctx.artefact("DuckDuckGo History.sqlite", || duckduckgo::triage(&run))?;
        ctx.artefact("Ookla Speedtest", || speedtest::triage(&run))?;
        ctx.artefact("BitTorrent files", || {
            read_each(
                &run,
                &["*.torrent", "*.resume", "*.fastresume"],
                crate::torrentfile::read,
            )
        })?;
        ctx.artefact("FIT activity files", || {
            read_each(&run, &["*.fit", "*.FIT"], crate::fitfile::read)
        })?;
        ctx.artefact("Tile TileNetworkDB.sqlite", || tile::triage(&run))?;
        ctx.artefact("apps' iTunesMetadata.plist", || itunesmeta::triage(&run))?;
        ctx.artefact("Safari favicons", || favicons::triage(&run))?;
        ctx.artefact("Google Translate translate.db", || translate::triage(&run))?;
        ctx.artefact("Splitwise database.sqlite", || splitwise::triage(&run))?;
        ctx.artefact("Messages retention setting", || {
            messageretention::triage(&run)
        })?;
        ctx.artefact("Messages drafts", || smsdrafts::triage(&run))?;
        ctx.artefact("Weather app locations", || weather::triage(&run))?;
        ctx.artefact("PayByPhone PayByPhone.sqlite", || paybyphone::triage(&run))?;
        ctx.artefact("Vipps Vipps.sqlite", || vipps::triage(&run))?;
        ctx.artefact("TWINT Twint.sqlite", || twint::triage(&run))?;
        ctx.artefact("Wickr wickrLocal.sqlite", || wickr::triage(&run))?;
        ctx.artefact("Apple Maps place cache PDPlaceCache.db", || {
            geodplaces::triage(&run)
        })?;
        ctx.artefact("geod AP.db and MapTiles.sqlitedb", || {
            geodapps::triage(&run)
        })?;
        ctx.artefact("Apple Wallet cached cards", || walletcards::triage(&run))?;
        ctx.artefact("Google Maps cached routes", || gmaproutes::triage(&run))?;
        ctx.artefact("Airbnb messaging_core.sqlite3", || airbnb::triage(&run))?;
        ctx.artefact("Google Photos photos-*.db", || googlephotos::triage(&run))?;
        ctx.artefact("Google Drive cello.db", || google_drive(&run))?;
        ctx.artefact("Potato Chat tgdata.db", || potatochat::triage(&run))?;
        ctx.artefact("AppConduit log", || appconduit::triage(&run))?;
        ctx.artefact("Oura preferences", || oura::triage(&run))?;
        ctx.artefact("SBB Mobile searches and EasyRide log", || sbb::triage(&run))?;
        ctx.artefact("MeteoSwiss favorites_prediction_db.sqlite", || {
            swissmeteo::triage(&run)
        })?;
        ctx.artefact("Home Depot preferences and userInfo.txt", || {
            homedepot::triage(&run)
        })?;
        ctx.artefact("United Airlines UnitediPhoneCoreData.sqlite", || {
            united::triage(&run)
        })?;
        ctx.artefact("Dubox chat and cloud listings", || dubox::triage(&run))?;
        ctx.artefact("Kik attachment metadata", || kikattachments::triage(&run))?;
        ctx.artefact("DriveIQ segments", || driveiq::triage(&run))?;
        ctx.artefact("Wi-Fi analytics geotags", || wifianalytics::triage(&run))?;
        ctx.artefact("Network interfaces", || netinterfaces::triage(&run))?;
        ctx.artefact("Location Services clients", || locservices::triage(&run))?;
        ctx.artefact("Foursquare Swarm foursquare.sqlite", || {
            foursquare::triage(&run)
        })?;
        ctx.artefact("Apple Podcasts MTLibrary.sqlite", || podcasts::triage(&run))?;
        ctx.artefact("Siri Remembers siriremembers.sqlite3", || {
            siriremembers::triage(&run)
        })?;
        ctx.artefact("Spotlight engaged completions Cache.db", || {
            parsecd::triage(&run)
        })?;
        ctx.artefact(
            "NS Vault FolderLockAdvanced.sqlite and hidden media",
            || nsvault::triage(&run),
        )?;
        ctx.artefact("RongCloud IM storage (Oops and other apps)", || {
            oops::triage(&run)
        })?;
        ctx.artefact("Uber places, account and analytics log", || {
            uberplaces::triage(&run)
        })?;
        ctx.artefact("Onion Browser bookmarks and HSTS cache", || {
            onionbrowser::triage(&run)
        })?;
        ctx.artefact("Personalization Portrait PPSQLDatabase.db", || {
            portrait::triage(&run)
        })?;
        ctx.artefact("App Store storeUser.db and AMDSQLite.db.0", || {
            amdsqlite::triage(&run)
        })?;
        ctx.artefact("TikTok replies and search history", || {
            tiktokim::triage(&run)
        })?;
        ctx.artefact("Container owners (MobileContainerManager metadata)", || {
            containers::triage(&run)
        })?;
        ctx.artefact("CacheDelete purge history", || purgehistory::triage(&run))?;
        ctx.artefact("containermanagerd logs", || containerlogs::triage(&run))?;
        ctx.artefact("App Store and Date & Time time zone preferences", || {
            appstoretz::triage(&run)
        })?;
        ctx.artefact("Google Docs and Sheets document stores", || {
            googledocs::triage(&run)
        })?;
        ctx.artefact("Box files, recents and comments", || boxnet::triage(&run))?;
        ctx.artefact("Music library MediaLibrary.sqlitedb", || {
            medialibrary::triage(&run)
        })?;
        ctx.artefact("software update installHistory.db", || {
            installhistory::triage(&run)
        })?;
        ctx.artefact("Fitbit fitbit.sqlite", || fitbitios::triage(&run))?;
        ctx.artefact("CoreDuet DuetExpertCenter streams", || {
            duetstreams::triage(&run)
        })?;
        ctx.artefact("Apple Maps search history GeoHistory.mapsdata", || {
            geohistory::triage(&run)
        })?;
        ctx.artefact("Wi-Fi network store WiFiNetworkStoreModel.sqlite", || {
            wifistoremodel::triage(&run)
        })?;
        ctx.artefact("System configuration preferences", || {
            sysconfprefs::triage(&run)
        })?;
        ctx.artefact("Personal Hotspot DHCP leases", || {
            dhcpserverleases::triage(&run)
        })?;
        ctx.artefact("DuetExpertCenter notificationAndSuggestionDB.db", || {
            notifsuggestions::triage(&run)
        })?;
        ctx.artefact("ash shell history", || ashhistory::triage(&run))?;
        ctx.artefact("Battery Data Collection BDC_SBC", || {
            batterybdc::triage(&run)
        })?;
        ctx.artefact("Apple Intelligence Report export", || {
            aireport::triage(&run)
        })?;
        ctx.artefact("Tile DiscoveredTileDB.sqlite", || {
            tilediscovered::triage(&run)
        })?;
        ctx.artefact("DMSS Devices.sqlite3 and DMSSCloud.sqlite", || {
            dmssios::triage(&run)
        })?;
        ctx.artefact("Hik-Connect database.hik and YSDCLogItem.sqlite", || {
            hikvisionios::triage(&run)
        })?;
        ctx.artefact("Google Duo / Meet DataStore", || googleduoios::triage(&run))?;
        ctx.artefact("Life360 logs and Messaging.sqlite", || {
            life360ios::triage(&run)
        })?;
        ctx.artefact("Pinterest account, messages and preferences", || {
            pinterestios::triage(&run)
        })?;
        ctx.artefact(
            "Kleinanzeigen preferences, conversation_cache and last search",
            || kleinanzeigenios::triage(&run),
        )?;
        ctx.artefact("Netflix gqlData GraphQL cache and preferences", || {
            netflixios::triage(&run)
        })?;
        ctx.artefact("FSEvents logs (.fseventsd)", || fsevents_logs(&run))?;
        ctx.artefact("Photos.sqlite sharing", || photossharing::triage(&run))?;
        ctx.artefact("Photos people and faces", || photospeople::triage(&run))?;
        ctx.artefact("Photos albums", || photosalbums::triage(&run))?;
        ctx.artefact("Kik groups, account holder and pending uploads", || {
            kikgroups::triage(&run)
        })?;
        ctx.artefact("Uber storagev2 LevelDB", || uberleveldb::triage(&run))?;
        ctx.artefact("Spotlight index text cache", || {
            spotlightcache::triage(&run)
        })?;
        ctx.artefact("Privacy accounting streams", || {
            privacyaccounting::triage(&run)
        })?;
        ctx.artefact("CoreDuet contacts autocomplete feedback", || {
            cnafeedback::triage(&run)
        })?;
        ctx.artefact("myAudi trip cache", || auditrip::triage(&run))?;
        ctx.artefact("Lidl Plus tickets and receipts", || lidlplus::triage(&run))?;
        ctx.artefact("Google Maps semantic location history", || {
            googlemapsios::triage(&run)
        })?;
        ctx.artefact("CommCenter SIM data", || siminfo::triage(&run))?;
        ctx.artefact("Photos library migrations", || {
            photosmigration::triage(&run)
        })?;
        ctx.artefact("Photos and Camera plists, UFED device values", || {
            photosplists::triage(&run)
        })?;
        ctx.artefact("Photos resources and analysis", || {
            photosresources::triage(&run)
        })?;
        ctx.artefact("Health workout routes", || workoutroutes::triage(&run))?;
        ctx.artefact("Group call participants", || groupcalls::triage(&run))?;
        ctx.artefact(
            "WhatsApp reactions, group events and membership changes",
            || whatsappextended::triage(&run),
        )?;
        ctx.artefact("OrNET Browser preferences", || ornetios::triage(&run))?;
        ctx.artefact("saved web pages (MHTML)", || offlinepagesios::triage(&run))?;
        ctx.artefact("Withings Health Mate account and coredata stores", || {
            withingsios::triage(&run)
        })?;
        ctx.artefact("AllTrails AllTrails.sqlite", || alltrailsios::triage(&run))?;
        ctx.artefact(
            "Amazon Shopping preferences, profiles, URL cache and image registry",
            || amazonios::triage(&run),
        )?;
        ctx.artefact("camera-roll screenshots", || screenshots(&run))?;
        ctx.artefact("app snapshots", || snapshots::triage(&run))?;
        ctx.artefact("device and keychain plists", || plists::triage(&run))?;
        Ok(())
    }
}

/// Chrome, Edge, Brave and other Chromium-family browsers on iOS keep the same `History`
/// database and `Bookmarks` file as on every platform (`Library/Application Support/Google/
/// Chrome/Default/` of the app's container): read by [`crate::browsers`]; and the saved
/// logins and autofill data of its `Login Data` and `Web Data`, read by
/// [`crate::chromium_forms`].
fn chromium(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    let tree = crate::identity::TreeRef {
        partition: None,
        label: "/".into(),
    };
    // a profile folder holds both; `History` alone names other things too (app caches)
    let profile = |p: &str| p.contains("/Default/") || p.contains("/Profile ");
    if let Some((find, paths)) = run.find("History")? {
        for p in paths.iter().filter(|p| profile(p)) {
            crate::browsers::chromium_history(run.ctx, &tree, p, &find)?;
        }
    }
    if let Some((find, paths)) = run.find("Bookmarks")? {
        for p in paths.iter().filter(|p| profile(p)) {
            crate::browsers::chromium_bookmarks(run.ctx, &tree, p, &find)?;
        }
    }
    for glob in [
        "Login Data*",
        "Web Data",
        "Shortcuts",
        "Network Action Predictor",
        "Top Sites",
    ] {
        if let Some((find, paths)) = run.find(glob)? {
            for p in paths
                .iter()
                .filter(|p| profile(p) && crate::chromium_forms::is_store(p))
            {
                crate::chromium_forms::read(run.ctx, &tree, p, &find)?;
            }
        }
    }
    Ok(())
}

/// Firefox for iOS keeps its history and bookmarks in Mozilla's Application Services store,
/// `profile.profile/places.db` of its app group: read by [`crate::firefox`] (Unix
/// milliseconds; visits made here and synced from the account's other devices told apart).
fn firefox(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    let tree = crate::identity::TreeRef {
        partition: None,
        label: "/".into(),
    };
    if let Some((find, paths)) = run.find("places.db")? {
        for p in paths.iter().filter(|p| p.contains("/profile.profile/")) {
            crate::firefox::places(run.ctx, &tree, p, &find)?;
        }
    }
    Ok(())
}

/// OneDrive keeps its files' metadata in `QTMetadata.db` of its app group's `DatabaseQT` (or
/// `DatabaseQt`): read by [`crate::onedrive`] as on Android.
fn onedrive(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    let tree = crate::identity::TreeRef {
        partition: None,
        label: "/".into(),
    };
    if let Some((find, paths)) = run.find("QTMetadata.db")? {
        for p in paths.iter().filter(|p| crate::onedrive::is_store(p)) {
            crate::onedrive::read(run.ctx, &tree, p, &find)?;
        }
    }
    Ok(())
}

/// Google's DriveKit store of an app's Drive cache (`Documents/drivekit/users/<account id>/
/// cello/cello.db` of Google Drive's, Docs', Sheets', Gmail's or Chat's container): read by
/// [`crate::googledrive`] as on Android.
fn google_drive(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    let tree = crate::identity::TreeRef {
        partition: None,
        label: "/".into(),
    };
    if let Some((find, paths)) = run.find("cello.db")? {
        for p in paths.iter().filter(|p| crate::googledrive::is_store(p)) {
            crate::googledrive::read(run.ctx, &tree, p, &find)?;
        }
    }
    Ok(())
}

/// Wallet and exchange apps whose stores are not parsed ([`crate::wallet_apps`]): each app's
/// data container, as FrontBoard's application state names it ([`appstate`]), found by its
/// preferences file or caches folder (a file-system extraction), or the folder a backup names
/// after the bundle; swept for wallet addresses in clear.
fn wallet_apps(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    let tree = crate::identity::TreeRef {
        partition: None,
        label: "/".into(),
    };
    let mut folders = Vec::new();
    for (bundle, container, inv) in run.containers.borrow().iter() {
        if let Some(app) = crate::wallet_apps::APPS
            .iter()
            .find(|a| a.ios == Some(bundle.as_str()))
        {
            folders.push(crate::wallet_apps::Folder {
                path: container.clone(),
                app,
                cite: inv.clone(),
                listed: false,
            });
        }
    }
    for glob in crate::wallet_apps::ios_globs() {
        let is_dir = !glob.ends_with(".plist");
        let found = if is_dir {
            run.find_dirs(&glob)?
        } else {
            run.find(&glob)?
        };
        if let Some((inv, paths)) = found {
            for p in paths {
                if let Some((container, app)) = crate::wallet_apps::ios_container(&p, is_dir) {
                    folders.push(crate::wallet_apps::Folder {
                        path: container,
                        app,
                        cite: inv.clone(),
                        listed: true,
                    });
                }
            }
        }
    }
    crate::wallet_apps::sweep(run.ctx, &tree, &folders)
}

/// Snapchat's chat stores (`…/Documents/user_scoped/<id>/arroyo/arroyo.db`, the layout it shares
/// with Android: [`crate::snapchat`]), each after the friends of its account
/// (`…/user_scoped/<id>/DocObjects/primary.docobjects`), which name the messages' senders.
fn snapchat(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    let tree = crate::identity::TreeRef {
        partition: None,
        label: "/".into(),
    };
    let docs: Vec<(Invoked, String)> = run
        .find("primary.docobjects")?
        .map(|(find, paths)| {
            paths
                .into_iter()
                .filter(|p| crate::snapchat::is_docobjects(p))
                .map(|p| (find.clone(), p))
                .collect()
        })
        .unwrap_or_default();
    let account = |p: &str| {
        p.split("/user_scoped/")
            .nth(1)?
            .split('/')
            .next()
            .map(str::to_string)
    };
    let mut friends: BTreeMap<String, crate::calls::Paged> = BTreeMap::new();
    for (find, path) in &docs {
        if let Some(pages) = crate::snapchat::docobjects_friends(run.ctx, &tree, path, find)?
            && let Some(a) = account(path)
        {
            friends.insert(
                format!("{}/{a}", path.split("/user_scoped/").next().unwrap_or("")),
                pages,
            );
        }
    }
    run.each("arroyo.db", |find, path| {
        if !crate::snapchat::is_arroyo(path) {
            return Ok(());
        }
        let key = account(path)
            .map(|a| format!("{}/{a}", path.split("/user_scoped/").next().unwrap_or("")));
        let mut by_id: BTreeMap<String, crate::snapchat::Friend> = BTreeMap::new();
        if let Some(pages) = key.and_then(|k| friends.get(&k)) {
            for (inv, t, row) in pages.rows() {
                if let Some(id) = t.get(row, "userId") {
                    by_id.insert(id.to_string(), (inv, raw(t, row, "username"), None));
                }
            }
        }
        crate::snapchat::arroyo(run.ctx, &tree, path, find, &by_id, None)
    })
}

/// Waze's `user.db` ([`crate::waze`]): the one in the app container that holds Waze's
/// preferences (`com.waze.iphone.plist`), or that FrontBoard's application state names
/// `com.waze.iphone`; other apps' `user.db` are left alone.
fn waze(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    let tree = crate::identity::TreeRef {
        partition: None,
        label: "/".into(),
    };
    let mut containers: BTreeSet<String> = run
        .containers
        .borrow()
        .iter()
        .filter(|(bundle, _, _)| bundle == "com.waze.iphone")
        .map(|(_, c, _)| c.clone())
        .collect();
    if let Some((_, prefs)) = run.find("com.waze.iphone.plist")? {
        containers.extend(
            prefs
                .iter()
                .filter_map(|p| container_of(p))
                .map(str::to_string),
        );
    }
    run.each("user.db", |find, path| {
        if container_of(path).is_some_and(|c| containers.contains(c)) {
            crate::waze::user_db(run.ctx, &tree, path, find)
        } else {
            Ok(())
        }
    })
}

/// The app container a path sits in (`…/Containers/Data/Application/<UUID>`), to pair files
/// of one app found by different names.
pub fn container_of(path: &str) -> Option<&str> {
    let at = path.find("/Containers/Data/Application/")? + "/Containers/Data/Application/".len();
    let end = path[at..].find('/').map_or(path.len(), |e| at + e);
    Some(&path[..end])
}

/// Discord's message caches (`…/Library/Caches/kv-storage/@account.<id>/a`, the layout it
/// shares with Android, and the API responses of `…/com.hammerandchisel.discord/fsCachedData/`:
/// [`crate::discord`]).
fn discord(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    let tree = crate::identity::TreeRef {
        partition: None,
        label: "/".into(),
    };
    // the account each container's kv-storage folder names
    let mut accounts: BTreeMap<String, String> = BTreeMap::new();
    run.each("a", |find, path| {
        if !crate::discord::is_kv_storage(path) {
            return Ok(());
        }
        if let (Some(c), Some(a)) = (container_of(path), crate::discord::account_of(path)) {
            accounts.insert(c.to_string(), a.to_string());
        }
        crate::discord::kv_storage(run.ctx, &tree, path, find)
    })?;
    let Some((_, dirs)) = run.find_dirs("fsCachedData")? else {
        return Ok(());
    };
    for dir in dirs.iter().filter(|d| crate::discord::is_url_cache(d)) {
        let account = container_of(dir)
            .and_then(|c| accounts.get(c))
            .map(String::as_str);
        crate::discord::url_cache(run.ctx, &tree, dir, account)?;
    }
    Ok(())
}

/// Google Chat's stores (`…/Documents/user_accounts/<user id>/dynamite.db` of the Chat or Gmail
/// container, the layout it shares with Android: [`crate::gchat`]).
fn google_chat(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    let tree = crate::identity::TreeRef {
        partition: None,
        label: "/".into(),
    };
    run.each("dynamite.db", |find, path| {
        if crate::gchat::is_dynamite(path) {
            crate::gchat::dynamite(run.ctx, &tree, path, find)
        } else {
            Ok(())
        }
    })
}

/// Facebook Messenger's stores (`…/lightspeed-userDatabases/<uid>.db`, the msys layout it
/// shares with Android): found by their folder, then the stores in it
/// ([`crate::messenger`]).
/// TeleGuard's stores ([`crate::teleguard`], shared with Android), with the drafts store beside
/// each.
fn teleguard(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    let tree = crate::identity::TreeRef {
        partition: None,
        label: "/".into(),
    };
    let temps = run.find("teleguard_temp.db")?;
    run.each("teleguard_database.db", |find, path| {
        if !crate::teleguard::is_store(path) {
            return Ok(());
        }
        let dir = path.rsplit_once('/').map(|(d, _)| d).unwrap_or("");
        let temp = temps.as_ref().and_then(|(inv, paths)| {
            paths
                .iter()
                .find(|p| p.rsplit_once('/').map(|(d, _)| d) == Some(dir))
                .map(|p| (p.as_str(), inv))
        });
        crate::teleguard::store(run.ctx, &tree, path, find, temp)
    })
}

/// Proton Mail's stores ([`crate::protonmail`], shared with Android): found by the app group's
/// `support/account.db`, then every store of that folder.
fn protonmail(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    let tree = crate::identity::TreeRef {
        partition: None,
        label: "/".into(),
    };
    run.each("account.db", |find, path| {
        if !crate::protonmail::is_ios_account_store(path) {
            return Ok(());
        }
        crate::protonmail::ios_app_group(run.ctx, &tree, path, find)
    })?;
    // the first app's store
    run.each("ProtonMail.sqlite", |find, path| {
        if !crate::protonmail::is_ios_first_app_store(path) {
            return Ok(());
        }
        run.ctx
            .artefact(&crate::identity::artefact_name(&tree, path), || {
                crate::protonmail::ios_first_app(run.ctx, &tree, path, find)
            })?;
        Ok(())
    })
}

fn messenger(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    let tree = crate::identity::TreeRef {
        partition: None,
        label: "/".into(),
    };
    let Some((_, dirs)) = run.find_dirs("lightspeed-userDatabases")? else {
        return Ok(());
    };
    for dir in dirs {
        let Some(inv) = crate::calls::call_or_note(
            run.ctx,
            &dir,
            "find_files",
            json!({"path": dir, "name_glob": "*.db", "limit": 100}),
        )?
        else {
            continue;
        };
        for p in crate::outputs::found_paths(&inv.output.text) {
            if crate::messenger::store_uid(&p).is_some() {
                crate::messenger::msys(run.ctx, &tree, &p, &inv)?;
            }
        }
    }
    Ok(())
}

/// MetaMask Mobile's state files (`Documents/persistStore/` of its container, or AsyncStorage's
/// `RCTAsyncLocalStorage_V1/` file of `persist:root` in older versions:
/// [`crate::wallets::triage_mobile`]); the device's user holds the wallet's own accounts.
fn metamask(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    let mut found = Vec::new();
    for glob in [
        "persist-*".to_string(),
        crate::wallets::async_storage_name(),
    ] {
        if let Some((_, paths)) = run.find(&glob)? {
            found.extend(paths);
        }
    }
    let tree = crate::identity::TreeRef {
        partition: None,
        label: "/".into(),
    };
    crate::wallets::triage_mobile(run.ctx, &tree, &found)
}

/// Screenshots in the camera roll (`Media/DCIM/…`: iOS saves screenshots as PNG, photos as
/// HEIC or JPEG), OCR'd by the media plugin's reader with the owner's claims
/// ([`crate::media::device_screenshots`]).
fn screenshots(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    let mut paths = Vec::new();
    for glob in ["*.PNG", "*.png"] {
        if let Some((_, found)) = run.find(glob)? {
            paths.extend(found.into_iter().filter(|p| p.contains("/DCIM/")));
        }
    }
    paths.sort();
    paths.dedup();
    let located: Vec<(Option<String>, String)> = paths.into_iter().map(|p| (None, p)).collect();
    crate::media::device_screenshots(run.ctx, &located)
}

/// The iOS directories below an iOS `var` directory, each with the child that must be in it
/// and what it holds: a tree is recognised by these, not by one folder name.
const VAR_MARKERS: &[(&str, &[&str], &str)] = &[
    (
        "mobile",
        &["Library", "Containers", "Media"],
        "the iOS user data directory",
    ),
    (
        "wireless",
        &["Library"],
        "CommCenter's SIM and carrier data",
    ),
    (
        "root",
        &["Library"],
        "the root user's Library (Lockdown, caches)",
    ),
    (
        "containers",
        &["Data", "Shared", "Bundle"],
        "the system and app group containers",
    ),
    (
        "preferences",
        &["SystemConfiguration"],
        "system configuration (Wi-Fi, accounts)",
    ),
];

/// What marks a tree as an iOS file system (see [`VAR_MARKERS`]): looked for below every
/// directory named `var` and every `mobile` directory in the first six levels of each file
/// system of the source ([`crate::layout::find_markers`]). Each found marker is
/// `"<path> with <children> (<what it holds>)"`.
pub fn ios_layout(node: &masf_evidence::scan::Node) -> Vec<String> {
    crate::layout::find_markers(node, &mut |fs, dir, children| {
        let holds = |path: &str, wanted: &[&'static str]| -> Vec<&'static str> {
            let inner = crate::layout::subdirs(fs, path);
            wanted
                .iter()
                .filter(|w| inner.iter().any(|(n, _)| n == *w))
                .copied()
                .collect()
        };
        let name = dir.rsplit('/').next().unwrap_or("");
        let mut found = Vec::new();
        if name == "var" {
            for (child, path) in children {
                if let Some((_, wanted, what)) = VAR_MARKERS.iter().find(|(m, _, _)| m == child) {
                    let has = holds(path, wanted);
                    if !has.is_empty() {
                        found.push(format!("{path} with {} ({what})", has.join(", ")));
                    }
                }
            }
            // its own children are markers, not more places to look
            return (found, false);
        }
        if name == "mobile" {
            let has = holds(dir, &["Library", "Containers"]);
            if !has.is_empty() {
                found.push(format!(
                    "{dir} with {} (the iOS user data directory)",
                    has.join(", ")
                ));
                return (found, false);
            }
        }
        (found, true)
    })
}

/// Every FSEvents folder of the iPhone (`/private/var/.fseventsd`, `/private/var/mobile/.fseventsd`),
/// found by the one search ([`crate::fsevents`]).
fn fsevents_logs(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    let Some((find, dirs)) = run.find_dirs(".fseventsd")? else {
        return Ok(());
    };
    for dir in dirs {
        crate::fsevents::folder(run.ctx, &dir, &dir, &find, &|a| a)?;
    }
    Ok(())
}

/// The expected-artefact catalogue of an iOS source.
pub fn catalogue() -> Vec<ExpectedArtefact> {
    let entry = |name: &str, detector: &[&str], value_for: &str| ExpectedArtefact {
        name: name.to_string(),
        detector: detector.iter().map(|d| d.to_string()).collect(),
        value_for: value_for.to_string(),
    };
    vec![
        entry(
            "sms.db",
            &["/SMS/sms.db\""],
            "iMessage/SMS messages, handles, chats, attachments",
        ),
        entry(
            "AddressBook.sqlitedb",
            &["/AddressBook/AddressBook.sqlitedb\""],
            "contacts: names, phone numbers, e-mail addresses",
        ),
        entry(
            "Accounts3.sqlite",
            &[
                "/Accounts/Accounts3.sqlite\"",
                "/com.apple.accounts.exists.plist\"",
            ],
            "Apple ID and other accounts configured on the device; the account types and their counts",
        ),
        entry(
            "CallHistory.storedata",
            &["/CallHistory.storedata\""],
            "phone and FaceTime calls",
        ),
        entry(
            "WhatsApp ChatStorage.sqlite",
            &["/ChatStorage.sqlite\""],
            "WhatsApp messages and chats",
        ),
        entry(
            "WhatsApp ContactsV2.sqlite",
            &["/ContactsV2.sqlite\""],
            "WhatsApp contacts: names, phone numbers, WhatsApp ids",
        ),
        entry(
            "WhatsApp CallHistory.sqlite",
            &["/CallHistory.sqlite\""],
            "WhatsApp calls",
        ),
        entry(
            "NoteStore.sqlite",
            &["/NoteStore.sqlite\""],
            "notes: title, full text, folder, times; the people a note is shared with",
        ),
        entry(
            "Wi-Fi known networks",
            &["/com.apple.wifi.known-networks.plist\""],
            "Wi-Fi networks joined, their access points, times and locations",
        ),
        entry(
            "Wi-Fi private addresses",
            &["/com.apple.wifi-private-mac-networks.plist\""],
            "networks scanned or joined with a private Wi-Fi address: the address, times",
        ),
        entry(
            "DHCP leases",
            &["/dhcpclient/leases/"],
            "the device's IP address, router and network of its last leases",
        ),
        entry(
            "Bluetooth devices",
            &[
                "/com.apple.MobileBluetooth.ledevices.paired.db\"",
                "/com.apple.MobileBluetooth.ledevices.other.db\"",
                "/com.apple.MobileBluetooth.devices.plist\"",
            ],
            "paired and nearby Bluetooth devices (car kits, headsets, watches): name, address, last seen and connected",
        ),
        entry(
            "iTunesPrefs",
            &["/iTunesPrefs\""],
            "the computers the device was synced with (user and computer names)",
        ),
        entry(
            "lsdidentifiers plist",
            &["/com.apple.lsdidentifiers.plist\""],
            "advertising identifier (IDFA) and per-vendor identifiers (IDFV)",
        ),
        entry(
            "URL cache Cache.db",
            &["/Cache.db\""],
            "web pages and resources Safari and apps fetched: URL, time, status, headers",
        ),
        entry(
            "storeSystem.db",
            &["/storeSystem.db\""],
            "installed apps with the Apple ID and DSID that bought them",
        ),
        entry(
            "applicationState.db",
            &["/FrontBoard/applicationState.db\""],
            "installed apps with their bundle and data container paths (which container UUID is which app)",
        ),
        entry(
            "Lockdown data_ark.plist",
            &["/Lockdown/data_ark.plist\""],
            "device name, time zone, last backup computer",
        ),
        entry(
            "CommCenter plists",
            &["/Preferences/com.apple.commcenter"],
            "own phone number, IMEI, ICCID, IMSI",
        ),
        entry(
            "SystemVersion.plist",
            &["/CoreServices/SystemVersion.plist\""],
            "iOS version and build",
        ),
        entry(
            "Lockdown pair_records",
            &["/Lockdown/pair_records/"],
            "the computers the device trusted (host id, system BUID)",
        ),
        entry(
            "iTunes backup Info.plist",
            &["/.backup/Info.plist\""],
            "the phone as backed up: IMEI, MEID, serial, ICCID, phone number, device name, UDID, model, iOS version, backup date",
        ),
        entry(
            "keychain export",
            // Not the bare word: the agent's own `find_files` glob `*eychain*.plist` holds it.
            &["/Keychains/", "eychain.plist\""],
            "accounts and services holding credentials (never their secrets)",
        ),
        entry(
            "Google Voice threadingStore.sqlite",
            &["/threadingStore.sqlite\""],
            "Google Voice texts, calls, voicemails (transcripts), participants; the user's own numbers and Google account id",
        ),
        entry(
            "Kik kik.sqlite",
            &["/kik.sqlite\""],
            "Kik messages and the users the app knows: user names, JIDs, display names",
        ),
        entry(
            "Mastodon shared.sqlite",
            // The app group's database; the module reads it only when it holds Mastodon's
            // tables (another app's `shared.sqlite` is passed over).
            &["/Databases/shared.sqlite\""],
            "Mastodon: the signed-in account and instance, cached users (follow relations), statuses, direct messages, notifications",
        ),
        entry(
            "Truth Social ChatModel.sqlite",
            &["/ChatModel.sqlite\""],
            "Truth Social chats: accounts (the holder's id), chats, messages with attachments and reactions, chat events",
        ),
        entry(
            "MeWe sgrouplesdb.sqlite",
            &["/sgrouplesdb.sqlite\""],
            "MeWe chats (shared locations, attachments), users and contacts, groups, posts, polls; the signed-in account with its e-mail and phone",
        ),
        entry(
            "Chromium-family History and Bookmarks",
            &["/Default/History\"", "/Default/Bookmarks\""],
            "Chrome, Edge, Brave on iOS: visits, downloads, searches, bookmarks; with its Login Data and Web Data: saved logins (never the passwords), autocomplete values, saved addresses, payment cards (never the numbers)",
        ),
        entry(
            "Firefox places.db",
            &["/profile.profile/places.db\""],
            "Firefox for iOS: visits (made on this device or synced from the account's other devices), the pages' local and synced visit counts, bookmarks with their folders",
        ),
        entry(
            "OneDrive QTMetadata.db",
            &["/DatabaseQT/QTMetadata.db\"", "/DatabaseQt/QTMetadata.db\""],
            "the files and folders of the OneDrive accounts on the phone (folder paths, sizes, hashes, Personal Vault, deleted, shared with whom and by whom, photo positions), the accounts and drives, cached copies",
        ),
        entry(
            "MetaMask Mobile persistStore",
            &["/persistStore/persist-", "/RCTAsyncLocalStorage_V1/"],
            "MetaMask Mobile: the wallet's accounts (name, balance, when added), address book, transactions, in-app browser history",
        ),
        entry(
            "Wi-Fi location cache ThreeBars.sqlite",
            &["/com.apple.wifid/ThreeBars.sqlite\""],
            "the Wi-Fi location tiles the device downloaded: networks and access points the location service reported nearby (BSSIDs, positions, flags, scores), tiles with their download times",
        ),
        entry(
            "locationd caches",
            &[
                "/locationd/cache_encryptedB.db\"",
                "/locationd/cache_encryptedA.db\"",
                "/locationd/consolidated.db\"",
            ],
            "the location daemon's caches: positions it reported for access points (BSSID) and cells (MCC, MNC, area, cell id) of every radio, associated access points it harvested, Wi-Fi tiles with their times",
        ),
        entry(
            "Snapchat arroyo.db",
            &["/arroyo/arroyo.db\"", "/DocObjects/primary.docobjects\""],
            "Snapchat chat messages: sender (Snapchat user id and user name), conversation, the text of chat messages, read, saved, viewed; the device's user; the account's friends (user ids and user names)",
        ),
        entry(
            "Slack ModelDatabase and main_db",
            &["/ModelDatabase/db.sqlite\"", "/main_db\""],
            "Slack: workspace members (user ids, e-mails, phones, names), messages (sender, channel, text, shared files), channels and DMs, the signed-in user",
        ),
        entry(
            "Microsoft Teams Skype*.sqlite",
            &["/SkypeSpacesDogfood/"],
            "Microsoft Teams messages (sender MRI and name, thread and topic, HTML content, sent by me), the address-book entries it matched and the users it cached (names, e-mails, numbers, MRIs), call logs (parties, direction, state, times) and shared locations; the device's user",
        ),
        entry(
            "Discord kv-storage and URL cache",
            &[
                "/Library/Caches/kv-storage/@account.",
                "/com.hammerandchisel.discord/fsCachedData",
            ],
            "Discord's cached messages, from its key-value store and its cached API responses (author ids, user and global names, channel, content, attachments, embeds, mentioned users, edits, calls); the signed-in account",
        ),
        entry(
            "Threema ThreemaData.sqlite",
            &["/ThreemaData.sqlite\""],
            "Threema messages (text, captions, attachments, locations, system messages; sender and conversation by Threema ID) and contacts (Threema IDs, names, public nicknames, address-book ids)",
        ),
        entry(
            "Google Chat dynamite.db",
            &["/Documents/user_accounts/"],
            "Google Chat messages (creator, conversation, text, attachments, meetings, reactions), conversations, drafts and users (Google account ids, e-mails, names); the signed-in account",
        ),
        entry(
            "Tinder Tinder2.sqlite",
            &["/Tinder/Tinder2.sqlite\"", "/com.cardify.tinder.plist\""],
            "Tinder: the signed-in account (user id, e-mail, phone, profile), messages (sender, text, media and link URLs), matches (the matched profile, flags, times) and recommended profiles",
        ),
        entry(
            "Bumble Chat.sqlite and yap-database.sqlite",
            &[
                "/Library/Caches/Chat.sqlite\"",
                "/Documents/yap-database.sqlite\"",
            ],
            "Bumble messages (sender and receiver ids, text, direction, read), the signed-in account (user id, name) and its last location",
        ),
        entry(
            "Burner Phoenix.sqlite",
            &["/Phoenix.sqlite\""],
            "Burner: the account (the user's own number, user id), its Burner numbers (second numbers: names, allotments, expiry, auto-replies), contacts (numbers, names, other numbers, notes) and the texts, calls and voicemails on them",
        ),
        entry(
            "LinkedIn preferences and msg_database.sqlite",
            &[
                "/com.linkedin.LinkedIn.plist\"",
                "/Documents/msg_database.sqlite\"",
            ],
            "LinkedIn: the signed-in member (member id, names, headline, location, public identifier) and messages (sender with headline and profile URL, text, conversation, delivery)",
        ),
        entry(
            "Kijiji conversation_cache",
            &["/Library/Caches/conversation_cache\""],
            "Kijiji messages: the ad, the other user's id and name, sender, status, text",
        ),
        entry(
            "Text Free Messaging_*.sqlite",
            &["/Messaging_"],
            "Text Free (Pinger) messages: time, conversation, direction, the other party, status, text, type",
        ),
        entry(
            "Wire store.wiredatabase",
            &["/store/store.wiredatabase\""],
            "Wire users (the account's own and every other: id, handle, name, e-mail, phone), clients (model, label, activation time and place), messages (server time, category, text, asset and location names, call duration, sender, conversation)",
        ),
        entry(
            "Apple Wallet passes and transactions",
            &[
                "/Library/Passes/passes23.sqlite\"",
                ".pkpass/pass.json\"",
                "/nanopasses.sqlite3\"",
            ],
            "Apple Pay and Apple Cash transactions (merchant, place, amount, currency, location, peer payment counterpart and memo), Wallet passes (issuer, description, serial and type ids, dates, field labels and values, barcodes), the Watch's passes",
        ),
        entry(
            "Zangi zangidb.sqlite",
            &["/zangidb"],
            "Zangi messages (time, direction, text, type, conversation and chat name, sender's name and number, media), contacts (names, numbers, e-mails, flags) and the account (number, names, e-mail, country)",
        ),
        entry(
            "TeleGuard teleguard_database.db",
            &["/teleguard_database.db\""],
            "TeleGuard messages, calls and chat events (sender and receiver with their aliases, direction, text, metadata), contacts, channels and their posts, drafts, the account (server id, alias, phone)",
        ),
        entry(
            "Proton Mail account.db and mail caches",
            &["/support/account.db\"", "/ProtonMail.sqlite\""],
            "Proton Mail e-mails (sender, recipients, subject, conversation, folders and labels, flags, the body where kept in clear), attachments with the decrypted copies the app cached, contacts, the account (user id, addresses, names, login); the first app's e-mails (times, flags, attachments; their encrypted parts said)",
        ),
        entry(
            "Find My Items.data",
            &["/com.apple.findmy.fmipcore/Items.data\""],
            "Find My items (AirTags and other accessories: name, serial number, role, product, owner, battery, lost mode), their last, crowd-sourced and safe locations with addresses",
        ),
        entry(
            "Reddit chat and user stores",
            &["/MatrixChat/roomsAccount/", "/MatrixChat/redditAccount/"],
            "Reddit chat messages (sender and display name, room members, text, media and its cached file, reactions, deletions), the chat users (the current app user) and the cached accounts (ids, karma, flags)",
        ),
        entry(
            "BeReal caches, preferences and chats",
            &[
                "/disk-bereal-",
                "/PersonRepository/",
                "/group.BeReal.plist\"",
                "/bereal-chat.sqlite\"",
            ],
            "BeReal: the account (names, phone, devices), friends and requests, followers, opened profiles, blocked users, the address book it read, posts with captions, places, comments and RealMojis, pinned memories, chat messages and chats",
        ),
        entry(
            "Zalo profile, group and chat stores",
            &["/Documents/chat_dbs", "/Documents/profile.sqlite\""],
            "Zalo messages (sender and name, chat or group, direction, text, type, attachment, location, link or voice-note address), the users the app knows (id, name, phone, global id), groups",
        ),
        entry(
            "Telegram Postbox db_sqlite",
            &["/postbox/db/db_sqlite\""],
            "Telegram messages (chat, author, direction, text, forward, thread, files, photos, locations, web pages, service actions, the stored media files), the account signed in, the users, groups, channels and secret chats it knows (names, user names, phones, contact list), the address book's numbers it imported and the users they resolved to, last-seen statuses, cached profiles; the database opened with the app's key file",
        ),
        entry(
            "ChatGPT conversations and account",
            &["/conversations-", "/com.openai.chat.StatsigService.plist\""],
            "ChatGPT conversations (title, model, custom instructions), every message (author, text, model, time), drafts, the signed-in account (e-mail, user id, plan)",
        ),
        entry(
            "Claude cache and account",
            &["/ClaudeCache/cache_", "/Library/Caches/bootstrap/"],
            "Claude conversations, every message (sender, text, file, time), projects with their documents, the signed-in account (names, e-mail)",
        ),
        entry(
            "Cash App CCEntitySync",
            &[
                "/CCEntitySync-api.squareup.com.sqlite\"",
                "/CCEntitySync-internal.cashappapi.com.sqlite\"",
            ],
            "Cash App payments: time, amount and currency, state, note, the account's role, the other party's customer id, name and $cashtag",
        ),
        entry(
            "Venmo feeds",
            &["/PrivateFeed\"", "/PublicFeed\"", "/FriendsFeed\""],
            "Venmo payments and charges (payer, receiver, amount, note, status, times) and the users they name (ids, user names, names)",
        ),
        entry(
            "React Native AsyncStorage",
            &["/RCTAsyncLocalStorage_V1/manifest.json\""],
            "any React Native app's AsyncStorage: every key with its value (secrets redacted), the file of a value kept out of the manifest; wallet addresses in values",
        ),
        entry(
            "CoreDuet interactionC.db",
            &["/interactionC.db\""],
            "the calls, messages, mails and shares apps donated: app, times, direction, the sender's name and number or e-mail",
        ),
        entry(
            "Facebook Messenger lightspeed store",
            &["/lightspeed-userDatabases/"],
            "Facebook Messenger: contacts (Facebook ids, names, user names, e-mails, phones), messages with attachments and reactions, calls",
        ),
        entry(
            "Coinbase Wallet wallet-rn-v2.sqlite",
            &["/wallet-rn-v2.sqlite\""],
            "Coinbase Wallet: the account, every address it derived, the assets it tracks with balances, transactions",
        ),
        entry(
            "wallet apps' data",
            &[crate::wallet_apps::DETECTOR],
            "Trust Wallet, imToken, TokenPocket, Binance, OKX, TronLink, Bitget Wallet: the wallet addresses written in clear in each app's container",
        ),
        entry(
            "Twitter direct-message cache",
            &["/com.atebits.tweetie.direct-message.cache/"],
            "Twitter/X direct messages and the users of the inbox; the signed-in account id",
        ),
        entry(
            "X model cache modelCache.sqlite3",
            &["/database/modelCache.sqlite3\""],
            "X (Twitter): the posts, users and notifications the app cached (text, counts, authors, user names, bios, followers)",
        ),
        entry(
            "Gmail searchsqlitedb",
            &["/searchsqlitedb\""],
            "Gmail messages (offline search index): senders, receivers, subjects, bodies; the signed-in account",
        ),
        entry(
            "Safari History.db",
            &["/Safari/History.db\"", "/History.db\""],
            "Safari visits: URL, title, time, visit count, redirects, origin (this device or iCloud)",
        ),
        entry(
            "Safari tabs and iCloud Tabs",
            &[
                "/Safari/CloudTabs.db\"",
                "/Safari/BrowserState.db\"",
                "/Safari/SafariTabs.db\"",
            ],
            "tabs open on this device, and on the account's other devices by name (iCloud Tabs): URL, title, last viewed, private; the other devices' names",
        ),
        entry(
            "Safari Downloads.plist",
            &["/Safari/Downloads/Downloads.plist\""],
            "files Safari downloaded: URL, path, size, time added",
        ),
        entry(
            "Safari Bookmarks.db",
            &["/Safari/Bookmarks.db\""],
            "Safari bookmarks and reading list: title, URL, folder, modified",
        ),
        entry(
            "keyboard lexicon and statistics",
            &[
                "/dynamic-lexicon.dat\"",
                "/user_model_database.sqlite\"",
                "/app_usage_database.plist\"",
                "/AutocorrectionRejections.db\"",
                "/VulgarWordUsage.db\"",
            ],
            "words the user typed that the keyboard learned; typing totals; the keyboard's sessions per app; autocorrections and completions met (typed text and correction); vulgar words used",
        ),
        entry(
            "voicemail.db",
            &["/Voicemail/voicemail.db\""],
            "carrier voicemails (kept and deleted): sender, callback number, the device's own number, SIM ICCID, duration, times",
        ),
        entry(
            "Clubhouse preferences",
            &[
                "/co.alphaexploration.clubhouse.plist\"",
                "/group.alphaexploration.clubhouse.plist\"",
            ],
            "the Clubhouse account (user id, user name, phone), the address-book contacts it uploaded, conversations, notifications",
        ),
        entry(
            "GroupMe preferences",
            &["/com.groupme.iphone-app.plist\""],
            "the GroupMe account: user id, name, e-mail, phone number, app state",
        ),
        entry(
            "GroupMe GroupMe.sqlite",
            &["/GroupMe.sqlite\""],
            "GroupMe messages (attachments, shared locations, deletion status), chats and groups, group members, contacts (names, phone numbers, user ids)",
        ),
        entry(
            "Photos.sqlite",
            &["/PhotoData/Photos.sqlite\""],
            "the photo library: files, original names, times, GPS, camera make/model, hidden and trashed assets",
        ),
        entry(
            "Calendar.sqlitedb",
            &["/Calendar/Calendar.sqlitedb\""],
            "calendar events: times, title, place, organiser and invitees (e-mails), calendars and their accounts",
        ),
        entry(
            "Reminders stores",
            &["/Container_v1/Stores/Data-"],
            "reminders: title, notes, list, created, due and completed times, flags (those marked for deletion too)",
        ),
        entry(
            "Mail Envelope Index",
            &["/Mail/Envelope Index\"", "/Mail/Protected Index\""],
            "Apple Mail messages: sender, recipients, subject, summary, dates, mailbox, read/flagged; the user's mail accounts",
        ),
        entry(
            "Apple Mail messages (.emlx)",
            &["read_email {"],
            "each message as stored: every address of From, To, Cc, Bcc and Reply-To, subject, Date, ids, attachments' names, the body, Mail's received and viewed times",
        ),
        entry(
            "KnowledgeC knowledgeC.db",
            &["/Knowledge/knowledgeC.db\""],
            "app usage: app in focus, device lock, plugged in, backlight, now playing, web usage, Bluetooth and CarPlay connections, battery level, app activities, with times",
        ),
        ExpectedArtefact {
            name: "Biome streams".into(),
            detector: biome::detectors(),
            value_for: "Biome (iOS 15+, SEGB): apps in focus with their times (KnowledgeC's app usage on iOS 16+), Bluetooth devices connected, Safari visits and navigations, web pages used in apps, screen on and off, plugged-in intervals, CarPlay connections, Wi-Fi connections, notifications with their texts, media played, location visits with their places, app installation events, calls and messages as Siri remembers them (parties, handles, direction), Siri intents, Wallet transactions, share-sheet conversations, text input sessions, device states (lock, orientation, airplane mode, ringer, battery), time zone, note content, app location activity, audio and media routes, emergency calls, Settings and Photos searches, app intents, alarms, share-sheet use, displayed apps, user activities (titles, web pages), messages and e-mails Siri harvested, messages read, Screen Time app use, notification and emoji use, boot sessions, Safari page loads, every DuetKnowledge event stream; the records the account's other devices synced (remote/), and those devices (sync.db)".into(),
        },
        entry(
            "Biome databases",
            &["/IntelligencePlatform.Entity.sqlite3\"", "/ApplePay.Security.Features.sqlite3\""],
            "Biome's databases: the intelligence knowledge graph's triples (names, numbers, apps), app openings, cable, backlight, button, battery, CarPlay and audio route statistics",
        ),
        entry(
            "Biome sets",
            &["/Biome/sets/Default/"],
            "Biome's sets: installed apps, contacts, Find My devices with their owners' names, significant locations, the phrases and entities apps expose to Siri and Shortcuts",
        ),
        entry(
            "routined locations",
            &[
                "/com.apple.routined/Cache.sqlite\"",
                "/com.apple.routined/Local.sqlite\"",
                "/com.apple.routined/Cloud-V2.sqlite\"",
            ],
            "locations with times: cached location fixes, significant-location visits, trips between them, learned places with names and addresses, locations of interest (also as iCloud synced them from the account's other devices), parked-car events",
        ),
        entry(
            "Apple Maps history MapsSync_0.0.1",
            &["/MapsSync_0.0.1\""],
            "Apple Maps history: searches typed, places viewed with their addresses, directions with their ends, coordinates, times (synced through iCloud)",
        ),
        entry(
            "camera-roll screenshots",
            &["/DCIM/"],
            "screenshots (OCR): wallets, amounts, receive screens",
        ),
        entry(
            "app snapshots",
            &["/SplashBoard/Snapshots/", "/Library/Caches/Snapshots/"],
            "the app-switcher snapshots iOS keeps of each app's screen (app, file, size, modified time)",
        ),
        entry(
            "Control Center configuration",
            &["/ControlCenter/ModuleConfiguration.plist\""],
            "the controls the user put in Control Center (reachable from the lock screen), in order",
        ),
        entry(
            "app cookies",
            &["/Cookies/Cookies.binarycookies\""],
            "the web sites apps kept cookies of: domain, name, path, flags, creation and expiry (never the values)",
        ),
        entry(
            "Google image-fetcher cacheV0.db",
            &["/cacheV0.db\""],
            "images Google Drive and Google Photos fetched and cached (per Drive account)",
        ),
        entry(
            "identity-services lookups",
            &[
                "/com.apple.identityservices.idstatuscache.plist\"",
                "/IdentityServices/idstatuscache.plist\"",
            ],
            "phone numbers and e-mails the device looked up for iMessage, FaceTime and other Apple services, with status and time",
        ),
        entry(
            "network data usage",
            &["/DataUsage.sqlite\"", "/netusage.sqlite\""],
            "per-app Wi-Fi, cellular and wired bytes with first and last times; networks attached to (netusage)",
        ),
        entry(
            "Screen Time",
            &[
                "/RMAdminStore-Local.sqlite\"",
                "/RMAdminStore-Cloud.sqlite\"",
            ],
            "time per app and web domain per usage block, per device and user; the user's Apple ID, DSID and name; the user's other devices",
        ),
        entry(
            "imo IMODb2.sqlite",
            &["/IMODb2.sqlite\""],
            "imo.im messages (text, direction, time, shared objects) and contacts: user ids, names, phone numbers",
        ),
        entry(
            "Instagram direct messages",
            &["/DirectSQLiteDatabase/"],
            "Instagram direct threads and messages (text, calls, photos, times); the signed-in account and the users it wrote with",
        ),
        entry(
            "TikTok messages",
            &["/AwemeIM.db\"", "/ChatFiles/"],
            "TikTok direct messages (text, GIFs and links, times) and the users they name (uid, @handle, nickname); the signed-in uid",
        ),
        entry(
            "Viber account and contacts",
            &[
                "/com.viber/settings/Settings.data\"",
                "/com.viber/database/Contacts.data\"",
            ],
            "the Viber account (phone number, user name, e-mail, uid, registration), the phone-book contacts Viber keeps (names, numbers), and its chats and calls, with messages deleted or edited that the write-ahead log or the free space still hold",
        ),
        entry(
            "App Privacy Report",
            &["rivacy_report.ndjson\"", "/App_Privacy_Report"],
            "the App Privacy Report the user saved: apps' accesses to photos, location, contacts, camera, microphone; domains each app contacted",
        ),
        entry(
            "iCloud backup and CarPlay preferences",
            &[
                "/com.apple.MobileBackup.plist\"",
                "/com.apple.CarPlayApp.plist\"",
            ],
            "iCloud backup state and results, the apps whose data it backs up; apps used on CarPlay with times",
        ),
        entry(
            "iCloud backup CloudKit cache",
            &["/cloudkit_cache.db\""],
            "the device's iCloud backup snapshots (device name and UUID, iOS version, type, reason, times, file count and size) and every file each holds (domain, path, size, deleted, modified)",
        ),
        entry(
            "Apple Account devices",
            &[
                "/com.apple.akd/devicelist.db\"",
                ".TrustedPeersHelper.db\"",
                "/com.apple.icloud.fmfd.notbackedup.plist\"",
                "/com.apple.icloud.findmydeviced.FMIPAccounts.plist\"",
            ],
            "the Apple Account's other devices (name, model, OS, serial, IMEIs, trusted; removed devices), the keychain's trusted peers (model, name, serial, the peer's own record), Find My's device list, the Find My iPhone account",
        ),
        entry(
            "SIM card history",
            &["/CellularUsage.db\""],
            "every SIM card the phone held: slot, ICCID, phone number, last update",
        ),
        entry(
            "AirDrop settings",
            &["/com.apple.sharingd.plist\""],
            "the device's AirDrop ID and discoverable mode",
        ),
        entry(
            "Medical ID",
            &["/MedicalIDData.archive\""],
            "the Medical ID the user entered: name, date of birth, conditions, allergies, medications, blood type, organ donor, height, weight; the emergency contacts with their numbers and relationships",
        ),
        entry(
            "iCloud Shared Albums",
            &["/PhotoCloudSharingData/"],
            "iCloud Shared Albums: each album's title, owner (e-mail, name), subscription date, public link, DCIM counters; the albums' people with their e-mails and names",
        ),
        entry(
            "Notifications",
            &["/DeliveredNotifications.plist\""],
            "the notifications still in Notification Centre: app, time, title, subtitle, message, sender, thread, category, deep link, attachments",
        ),
        entry(
            "App permissions TCC.db",
            &["/TCC.db\""],
            "which apps were allowed or denied the camera, microphone, contacts, photos and other protected services, why, and when it last changed",
        ),
        entry(
            "iCloud Drive (Files app)",
            &["/CloudDocs/session/db/client.db\"", "/CloudDocs/session/db/server.db\""],
            "iCloud Drive: the account's devices that wrote to it, each file and folder with its path, size, times, the device that wrote its current version, sharing and who shared it, tags, favourites, Recently Deleted; app libraries; OS builds booted",
        ),
        entry(
            "Voice Memos",
            &["/CloudRecordings.db\"", "/Recordings/Recordings.db\""],
            "voice memos: when recorded, duration, title (by default the place), audio file, folder, deleted ones in Recently Deleted",
        ),
        entry(
            "installation logs",
            &["/mobile_installation.log."],
            "apps installed and uninstalled (App Store placeholder, customer, system), containers made live, moved or destroyed, delta updates, reboots, each with its local time",
        ),
        entry(
            "lockdownd log",
            &["/lockdownd.log"],
            "passcode changes, OS upgrades, lockdownd starts; the computers and tools that talked to the phone (Finder, iTunes …), what they read and when",
        ),
        entry(
            "activation log",
            &["/mobileactivationd.log"],
            "the device's OS history: each upgrade from one build to the next, and the activation daemon's starts, with their times",
        ),
        entry(
            "wipe indicators",
            &["/root/.obliterated\"", "/root/.bootstrapped\""],
            "when the device was last erased and set up again (the first boot after its last reset)",
        ),
        entry(
            "Safari recent searches",
            &["/com.apple.mobilesafari.plist\""],
            "the searches the user typed in Safari's address bar, with their times",
        ),
        entry(
            "home screen web clips",
            &[".webclip/Info.plist\""],
            "the web pages and web apps on the home screen: title, address",
        ),
        entry(
            "Waze user.db",
            &["/Documents/user.db\""],
            "Waze's places, recent destinations, saved places (home, work), places shared with the user, planned drives",
        ),
        entry(
            "Apple Health",
            &["/Health/healthdb.sqlite\"", "/Health/healthdb_secure.sqlite\""],
            "the devices that gave Health data (watch, headphones, scales: names, models, Bluetooth addresses), the account's devices sharing it and every device model and OS build that wrote to it, first and last; workouts with their times, type, distance, energy, heart rate, weather and where it was read, and the device and app that recorded them; samples of steps, heart rate (each measurement), resting heart rate, height, weight, headphone audio levels, wrist temperature and sleep states with their times and recorders; the periods the watch was worn; achievements",
        ),
        entry(
            "PowerLog",
            &["name LIKE 'PL%'"],
            "what the phone did and when: apps on screen and in the background, state changes, lock and unlock, sleep and wake, battery and charger, display, audio route (headphones, Bluetooth), camera and torch use, at times corrected for the log's clock",
        ),
        entry(
            "WeChat MM.sqlite",
            &["/DB/MM.sqlite\"", "/DB/message_"],
            "WeChat messages per conversation (Chat_<md5> tables of MM.sqlite and message_<n>.sqlite), contacts and groups (WCDB_Contact.sqlite), the account's wxid, nickname and mobile (mmsetting.archive)",
        ),
        entry(
            "LINE Line.sqlite",
            &["/Line.sqlite\""],
            "LINE messages, chats and users: mids, names the owner gave",
        ),
        entry(
            "Signal signal.sqlite",
            &["/signal.sqlite\""],
            "Signal: messages, contacts, conversations and attachments, the SQLCipher database opened with the key of a keychain export in the extraction; without one detected and said",
        ),
        entry(
            "Session Session.sqlite",
            &["/Session.sqlite\""],
            "Session: messages and calls, contacts by Session ID, the SQLCipher database opened with the key of a keychain export in the extraction; without one detected and said",
        ),
        entry(
            "iCloud-synced Wi-Fi",
            &["/SyncedPreferences/com.apple.wifid.plist\""],
            "Wi-Fi networks iCloud synced from the account's other devices: SSID, BSSID, the device that added it, when",
        ),
        entry(
            "Apple Maps preferences",
            &["/com.apple.Maps.plist\"", "/group.com.apple.Maps.plist\""],
            "where the Maps app's map was last shown (latitude and longitude of its camera)",
        ),
        entry(
            "locationd car connection",
            &["/locationd/cache.plist\""],
            "the last connection to a car (CarPlay or Bluetooth): start, end, type",
        ),
        entry(
            "CoreAccessories analytics",
            &[
                "/acc_analytics_accessoryd_v3.db\"",
                "/acc_analytics_UserEventAgent_v3.db\"",
            ],
            "accessories and cables connected (headphones, chargers, cars, HDMI adapters) with the time of each event",
        ),
        entry(
            "Clock alarms and world clock",
            &[
                "/com.apple.mobiletimerd.plist\"",
                "/com.apple.mobiletimer.plist\"",
            ],
            "alarms (time, repeat days, when last dismissed: someone's hand on the phone), timers, stopwatches, the cities of the world clock",
        ),
        entry(
            "shutdown log",
            &["/shutdown.log\""],
            "every shutdown and reboot with its time, the processes still running and how long they delayed it; those running from /private/var/db/ or /private/var/tmp/ (where Kaspersky found Pegasus, Reign and Predator) as leads",
        ),
        entry(
            "software update restore log",
            &["/MobileSoftwareUpdate/restore.log\""],
            "the OS updates of the device: when, the builds before and after, the board, the battery",
        ),
        entry(
            "Quick Look iCloud thumbnails",
            &["/cloudthumbnails.db\""],
            "the iCloud files whose thumbnails Quick Look cached: path, size, when last shown",
        ),
        entry(
            "keyboard query predictions",
            &["/query_predictions.db\""],
            "the text of messages sent and received that the keyboard kept for its predictions, with their conversation and time",
        ),
        entry(
            "Siri voice trigger enrolment",
            &["/VoiceTrigger/SAT/"],
            "the \"Hey Siri\" recordings of the enrolled user's voice: the day, the device that recorded them, the audio files",
        ),
        entry(
            "DuckDuckGo History.sqlite",
            &["/Library/Application Support/History.sqlite\""],
            "DuckDuckGo's browsing history (pages, visits with their tabs, trackers blocked) where the browser is installed",
        ),
        entry(
            "Ookla Speedtest",
            &["/speedtest.sqlite\""],
            "the speed tests the user ran: external and internal IP addresses, carrier, ISP, Wi-Fi network, position, speeds, when",
        ),
        entry(
            "BitTorrent files",
            &["read_bencode "],
            "torrent files (info hash, name, every file they hold with its size, trackers, when created) and clients' resume data (where saved, when added and completed, how much downloaded and uploaded)",
        ),
        entry(
            "FIT activity files",
            &["read_fit "],
            "the activity files of watches and fitness apps (Garmin, Strava, Wahoo…): the devices with their serial numbers, the user profile, each session's sport, start, distance and start position, the first and last track points",
        ),
        entry(
            "Tile TileNetworkDB.sqlite",
            &["/com.thetileapp.tile-TileNetworkDB.sqlite\""],
            "the user's Tile trackers (what each is fixed to, where and when it was last heard, lost or not) and the Tile account (e-mail, name, phone)",
        ),
        entry(
            "apps' iTunesMetadata.plist",
            &["/iTunesMetadata.plist\""],
            "every app installed from the App Store with its developer, version, purchase and install dates and the Apple ID that downloaded it",
        ),
        entry(
            "Safari favicons",
            &["/Image Cache/Favicons/Favicons.db\""],
            "the pages whose icons Safari kept, with when: pages loaded in Safari even after their history was cleared",
        ),
        entry(
            "Google Translate translate.db",
            &["/Documents/translate.db\""],
            "what the user translated with Google Translate (text, translation, languages, when), starred phrases, phrases spoken aloud",
        ),
        entry(
            "Splitwise database.sqlite",
            &["/Library/Application Support/database.sqlite\""],
            "who shares costs with the user in Splitwise (names, e-mails, phones), every expense with its cost, each member's share, balances with friends, groups",
        ),
        entry(
            "Messages retention setting",
            &[
                "/Preferences/com.apple.MobileSMS.plist\"",
                "/Preferences/com.apple.mobileSMS.plist\"",
            ],
            "how long Messages keeps messages (forever, 30 days, 1 year): whether messages missing from sms.db may have been removed by iOS itself",
        ),
        entry(
            "Messages drafts",
            &["/composition.plist\""],
            "messages the user typed in Messages and never sent: the recipient (number, e-mail or group chat), the text, when last edited",
        ),
        entry(
            "Weather app locations",
            &["/group.com.apple.weather.plist\""],
            "the cities the user saved in the Weather app (names, countries, coordinates) and where the phone was at the app's last location update",
        ),
        entry(
            "PayByPhone PayByPhone.sqlite",
            &["/PayByPhone.sqlite\""],
            "where and when the user's cars were parked (lot, position, start and expiry, amount), the cars' licence plates, the PayByPhone account (e-mail, login)",
        ),
        entry(
            "Vipps Vipps.sqlite",
            &["/Vipps.sqlite\""],
            "Vipps payments with their messages (counterpart's number and name, amount, direction, time) and the contacts Vipps matched",
        ),
        entry(
            "TWINT Twint.sqlite",
            &["/Twint.sqlite\""],
            "TWINT payments to shops and transfers between people: numbers, names, messages, amounts, times",
        ),
        entry(
            "Wickr wickrLocal.sqlite",
            &["/wickrLocal.sqlite\""],
            "Wickr conversations and messages as metadata (who, in which conversation, when; bodies encrypted) and the users' hashes",
        ),
        entry(
            "Apple Maps place cache PDPlaceCache.db",
            &["/PDPlaceCache.db\""],
            "the places Apple Maps and apps showing a map looked up (names, addresses, phone numbers, web addresses) with when each lookup was last used",
        ),
        entry(
            "geod app use AP.db",
            &["/com.apple.geod/AP.db\""],
            "which apps used Apple's map services, and when",
        ),
        entry(
            "Apple Maps tile cache MapTiles.sqlitedb",
            &["/MapTiles.sqlitedb\""],
            "when a map was on screen: the seconds at which cached map tiles were last used, how many, of which kinds",
        ),
        entry(
            "Apple Wallet cached cards",
            &["/com.apple.Passbook/Cache.db\""],
            "payment cards in Wallet's cached responses, by their last four digits, type and expiry, with when they were cached",
        ),
        entry(
            "Google Maps cached routes",
            &["/Application Support/CachedRoutes/"],
            "routes Google Maps computed: their points (latitude, longitude, names where kept) and the time each file is named after",
        ),
        entry(
            "Airbnb messaging_core.sqlite3",
            &["/Application Support/user_"],
            "the user's Airbnb messages with hosts, guests and Airbnb (text, translation, who, which thread, when) and the Airbnb users they name, the account's own by the store's file name",
        ),
        entry(
            "Google Photos photos-*.db",
            &["/Application Support/store/photos-"],
            "the photos and videos of the Google account's library (file names, cameras, when and where taken), its albums, the shared albums the account is in (share links, contributors), what the user searched for in Google Photos",
        ),
        entry(
            "Google Drive cello.db",
            &["/drivekit/users/"],
            "the files and folders of the Google account's Drive the app cached (folder paths, owned or shared with the account, trashed, when created, changed, viewed), the Google account signed in",
        ),
        entry(
            "Potato Chat tgdata.db",
            &["/Documents/tgdata.db\""],
            "Potato Chat's users (names, phone numbers, user names) and messages (who, to whom, the text or a document's name, when), the user's own account",
        ),
        entry(
            "AppConduit log",
            &["/Logs/AppConduit/AppConduit.log."],
            "when a paired Apple Watch came within reach of the iPhone and left it, with the watch's IDS device id, pairing id, model identifier and OS build",
        ),
        entry(
            "Oura preferences",
            &["/com.ouraring.oura.plist\""],
            "the Oura account signed in (e-mail, account UID), the rings paired (Bluetooth ids, model, size, firmware, battery) and where the phone last heard the ring",
        ),
        entry(
            "SBB Mobile searches and EasyRide log",
            &[
                "/ch.sbb.coredata.searchhistory.sqlite\"",
                "/ch.sbb.coredata.logs.sqlite\"",
            ],
            "the train and public-transport connections the user looked up in SBB Mobile (from, to, when) and the journeys EasyRide ticketed (check-in and check-out times)",
        ),
        entry(
            "MeteoSwiss favorites_prediction_db.sqlite",
            &["/favorites_prediction_db.sqlite\""],
            "the places whose MeteoSwiss forecast the user looked at (postal code, place, when) and where the phone was each time the app was opened",
        ),
        entry(
            "Home Depot preferences and userInfo.txt",
            &[
                "/com.thehomedepot.homedepot.plist\"",
                "/group.com.thehomedepot.homedepot.plist\"",
            ],
            "the Home Depot account (e-mail, name, phone, ZIP code) and its local store, the phone's last location the app took, the searches the user saved",
        ),
        entry(
            "United Airlines UnitediPhoneCoreData.sqlite",
            &["/UnitediPhoneCoreData.sqlite\""],
            "the MileagePlus member (name, number, birth date, Known Traveler Number), the travellers saved to the profile, trips with their flights and passengers, boarding passes, flight searches and status look-ups",
        ),
        entry(
            "Dubox chat and cloud listings",
            &[
                "/mbox_main.sqlite\"",
                "/netdisk.sqlite\"",
                "/imageDB.sqlite\"",
            ],
            "Dubox (TeraBox) chat messages and friends (user names, remarks, numbers, e-mails), conversations with their drafts, the cloud files the app listed and its photos with where they were taken",
        ),
        entry(
            "Kik attachment metadata",
            &["/cores/private/"],
            "what files Kik messages carried (file name, size, sharing app, SHA-1 hashes), also for messages deleted from kik.sqlite",
        ),
        entry(
            "DriveIQ segments",
            &["/DriveIQ/segments/current\""],
            "where the phone was and how it moved as the DriveIQ SDK in Microsoft Teams logged it (coordinates, speed, times), the time zone and power state",
        ),
        entry(
            "Wi-Fi analytics geotags",
            &["/com.apple.wifianalyticsd/DeviceAnalyticsModel.sqlite\""],
            "where the phone was when it was on or saw a Wi-Fi network, as the Wi-Fi analytics daemon geotagged it (coordinates, date, the network's name and access point)",
        ),
        entry(
            "Network interfaces",
            &["/SystemConfiguration/NetworkInterfaces.plist\""],
            "the device's own hardware (MAC) addresses of Wi-Fi and its other network interfaces, which routers and Wi-Fi logs elsewhere may hold",
        ),
        entry(
            "Location Services clients",
            &["/Library/Caches/locationd/clients.plist\""],
            "which apps and system services asked for the phone's location, whether they were allowed (as stored), and when each last started and stopped getting locations",
        ),
        entry(
            "Foursquare Swarm foursquare.sqlite",
            &["/Library/Caches/foursquare.sqlite\""],
            "the Foursquare Swarm account (names, phone, e-mail, birthday), the users it knows (friends, requests: names, phones, e-mails) and the check-ins of the user and of friends (venue, address, coordinates, who was with them, when)",
        ),
        entry(
            "Apple Podcasts MTLibrary.sqlite",
            &["/Documents/MTLibrary.sqlite\""],
            "the podcasts in the Apple Podcasts library (followed or not, when added and last played) and the episodes played, started, marked as played or downloaded (how far, how often, when)",
        ),
        entry(
            "Siri Remembers siriremembers.sqlite3",
            &["/com.apple.siri.inference/siriremembers.sqlite3\""],
            "the messages, calls and media apps and Siri reported to the system for Siri's suggestions (the app, direction, the other party's name and number or e-mail, the media item, when)",
        ),
        entry(
            "Spotlight engaged completions Cache.db",
            &["/EngagedCompletions/Cache.db\""],
            "what the user typed in Spotlight or Safari's search and the completion they chose (an app's result told apart), when",
        ),
        entry(
            "NS Vault FolderLockAdvanced.sqlite and hidden media",
            &[
                "/Library/FolderLockAdvanced.sqlite\"",
                "/Documents/FolderLockAdvanced\"",
            ],
            "the photos and videos hidden in the NS Vault (\"Calculator #\", Folder Lock) vault: their names, albums (a locked album said), when each video row changed, and the hidden files themselves",
        ),
        entry(
            "RongCloud IM storage (Oops and other apps)",
            &["/Application Support/RongCloud"],
            "the chats of Oops and other apps built on the RongCloud SDK: the users (ids, names), conversations (titles, drafts) and messages (who, to whom, text, images, locations, when), the device's user's own account",
        ),
        entry(
            "Uber places, account and analytics log",
            &[
                "/Documents/ur_message.db\"",
                "/RealtimeRider.StreamModelKey",
            ],
            "the places the Uber app cached (saved home and work, searched and past destinations with their addresses and positions), the searches that picked them, where the phone was as its analytics log kept it, the Uber account (e-mail, name, mobile) and the address Uber's servers gave for the phone's position",
        ),
        entry(
            "Onion Browser bookmarks and HSTS cache",
            &["/Documents/hsts_cache.plist\""],
            "the bookmarks kept in Onion Browser, the Tor browser (seeded defaults among them), and the hosts whose HTTPS responses it received (its HSTS cache)",
        ),
        entry(
            "Personalization Portrait PPSQLDatabase.db",
            &["/PersonalizationPortrait/PPSQLDatabase.db\""],
            "the places, names (people, organisations, places) and topics iOS extracted from the user's messages, e-mails, notes and pages, with the app and document each came from and when",
        ),
        entry(
            "App Store storeUser.db and AMDSQLite.db.0",
            &[
                "/com.apple.appstored/storeUser.db\"",
                "/Documents/AMDSQLite.db.0",
            ],
            "the Apple accounts signed in to the App Store, the apps it saw installed and deleted, the account's purchase history, and when apps were installed, updated, removed and opened (and for how long) with the App Store account, with the phone's free storage over time",
        ),
        entry(
            "TikTok replies and search history",
            &["/ChatFiles/", "/search_history/history_words/AWESearchHistory"],
            "the copies of quoted messages TikTok keeps with replies (who wrote them and what, even when the message itself is gone) and the terms searched in TikTok, with when",
        ),
        entry(
            "Container owners (MobileContainerManager metadata)",
            &["/.com.apple.mobile_container_manager.metadata.plist\""],
            "which app, app extension or app group owns each container (its GUID, the folder every path of the app holds), groups and extensions kept for apps no longer installed; vault apps disguised as a calculator flagged, with the photos and videos they hide",
        ),
        entry(
            "CacheDelete purge history",
            &["/CacheDeletePurgeHistory.txt\""],
            "when iOS purged caches and other purgeable data to free space: where, how many bytes, how urgently, with the space then available",
        ),
        entry(
            "containermanagerd logs",
            &["/containermanagerd"],
            "app and app group containers removed (the group, the app whose removal left it unused, the container's path), with their times",
        ),
        entry(
            "App Store and Date & Time time zone preferences",
            &[
                "/Preferences/com.apple.AppStore.plist\"",
                "/com.apple.preferences.datetime.plist\"",
            ],
            "the time zone the device was set to when the App Store last bootstrapped, and when; whether a time zone was set (timed)",
        ),
        entry(
            "Google Docs and Sheets document stores",
            &[
                "/com.google.Docs.plist\"",
                "/com.google.Sheets.plist\"",
                "/localStore/shared/documentMetadata.db\"",
            ],
            "the documents and spreadsheets each Google account kept offline in Google Docs and Google Sheets (titles, owned or shared with the account, when created, changed, synced and last opened in the app) and the Google accounts signed in",
        ),
        entry(
            "Box files, recents and comments",
            &[
                "/group.net.box.BoxNet.plist\"",
                "/Documents/db/Item.db\"",
            ],
            "the Box account signed in (login, name, phone), the files and folders the app cached with their paths, owners, shared links and times, what it kept offline, opened recently, commented and previewed, and the other Box users named",
        ),
        entry(
            "Music library MediaLibrary.sqlitedb",
            &["/iTunes_Control/iTunes/MediaLibrary.sqlitedb\""],
            "the songs, videos, podcasts and audiobooks in the Music library: how often and when each was played, when added and bought, and the Apple ID that bought it (the device's own account named by the library)",
        ),
        entry(
            "software update installHistory.db",
            &["/history/installHistory.db\""],
            "the OS updates and security responses the device finished installing or rolled back (update name, build, when; the updater keeps its newest 25)",
        ),
        entry(
            "Fitbit fitbit.sqlite",
            &["/Documents/fitbit.sqlite\""],
            "what the Fitbit wearer did, where and when (exercise sessions with their GPS routes, heart rate and totals per day), the trackers and apps that recorded the sessions, and the Fitbit users the app keeps",
        ),
        ExpectedArtefact {
            name: "CoreDuet DuetExpertCenter streams".into(),
            detector: duetstreams::detectors(),
            value_for: "where the phone was as CoreDuet's DuetExpertCenter logged it (latitude, longitude, accuracy, altitude, speed, when) and the notifications the device showed (app, title, subtitle, body, person fields, when), deleted records too".into(),
        },
        entry(
            "Apple Maps search history GeoHistory.mapsdata",
            &["/GeoHistory.mapsdata\""],
            "Apple Maps' search history of iOS 12 and 13: searches typed, the places found, shown and navigated to with their addresses, directions' waypoints, when each was last made",
        ),
        entry(
            "Wi-Fi network store WiFiNetworkStoreModel.sqlite",
            &["/WiFiNetworkStoreModel.sqlite\""],
            "the Wi-Fi networks iOS 12 to 14 kept in its network store and where the phone was when the store geotagged their access points (coordinates, BSSID, date)",
        ),
        entry(
            "System configuration preferences",
            &["/SystemConfiguration/preferences.plist\""],
            "the name the user gave the device (which other devices saw over AirDrop, Bluetooth and Personal Hotspot), its host and Bonjour names and model, and its network services with their manual addresses, DNS servers and proxies",
        ),
        entry(
            "Personal Hotspot DHCP leases",
            &["/db/dhcpd_leases"],
            "the devices that joined the phone's Personal Hotspot: the names they gave, the addresses the phone leased them and their hardware addresses",
        ),
        entry(
            "DuetExpertCenter notificationAndSuggestionDB.db",
            &["/DuetExpertCenter/notificationAndSuggestionDB.db\""],
            "the notifications the device received as CoreDuet kept them (which app, a message or not, how urgent, how delivered, what became of each, when) and the suggestions it made about handling them (muting, turning off) with what the user did",
        ),
        entry(
            "ash shell history",
            &["/.ash_history\""],
            "the commands typed in an ash shell on the phone (a jailbroken phone's, a terminal app's), in the order typed; lines that carry a password withheld",
        ),
        entry(
            "Battery Data Collection BDC_SBC",
            &["/Battery/BDC/BDC_SBC_", "/BatteryBDC/BDC_SBC_"],
            "the battery's state over time: the charge level shown and raw, whether it was charging (the phone on power), its temperature, current and voltage, with when",
        ),
        entry(
            "Apple Intelligence Report export",
            &["/Apple_Intelligence_Report"],
            "the Apple Intelligence requests a user exported from Settings: each request to a model on the device or to Apple's Private Cloud Compute, with the app, use case, model, prompt and response, and when",
        ),
        entry(
            "Tile DiscoveredTileDB.sqlite",
            &["/com.thetileapp.tile-DiscoveredTileDB.sqlite\""],
            "the Tile trackers the Tile app heard near the phone (by UUID, with when the record was last updated): the user's own or someone else's, a tracker travelling with the user among them",
        ),
        entry(
            "DMSS Devices.sqlite3 and DMSSCloud.sqlite",
            &[
                "/Library/Support/Devices.sqlite3\"",
                "/DMSSCloud.sqlite\"",
            ],
            "the Dahua CCTV recorders and cameras the DMSS app reaches (names, the address, serial number or domain each was added by, ports, login user names — never passwords —, DDNS settings, channels) and the alarm hub's sensors, devices and alarm messages (who armed or disarmed which area, when)",
        ),
        entry(
            "Hik-Connect database.hik and YSDCLogItem.sqlite",
            &[
                "/Documents/database.hik\"",
                "/Documents/DCLOG/YSDCLogItem.sqlite\"",
            ],
            "the Hikvision CCTV recorders and cameras Hik-Connect reaches (names, serial numbers, ports, DDNS addresses, login user names — never passwords —, channels) and the app's usage log (live views and playbacks among its records, when)",
        ),
        entry(
            "Google Duo / Meet DataStore",
            &["/Library/Application Support/DataStore\""],
            "Google Duo / Meet calls (who, video or audio, incoming or outgoing, how long, when), its contacts and the video and audio messages (clips) with their texts and times; the account's number or e-mail",
        ),
        entry(
            "Life360 logs and Messaging.sqlite",
            &[
        "/com.life360.safetymap ",
        "/Library/Application Support/Messaging.sqlite\"",
            ],
            "where Life360 reported the phone to be (its logs' X-UserContext headers: position, speed, activity, battery, when), the members of the user's circles (names, e-mails, phones; the signed-in one the owner's) and the circle chat's messages with the places they shared",
        ),
        entry(
            "Pinterest account, messages and preferences",
            &[
        "/Documents/activeUser",
        "/com.pinterest.PINDiskCache.PINRemoteModelCache/conversations%2F",
        "/Library/Preferences/pinterest.plist\"",
            ],
            "the Pinterest account signed in (user name, names, e-mail, counts, connected services), the direct messages the app cached with their senders, participants and shared pins (sent, read), and the app's own preferences",
        ),
        entry(
            "Kleinanzeigen preferences, conversation_cache and last search",
            &[
        "/com.ebaykleinanzeigen.ebc.plist\"",
        "/Library/Private Documents/.last_search_query\"",
            ],
            "the Kleinanzeigen account signed in (e-mail, id, name), the keywords searched with when, the messages cached with buyers and sellers about each ad (the other side by id and name), and the last search with the areas searched",
        ),
        entry(
            "Netflix gqlData GraphQL cache and preferences",
            &["/Library/gqlData/", "/com.netflix.Netflix.plist\""],
            "where playback of each title last stopped and when, the account's profiles (kids, PIN-locked, created), the account (member since, plan, country), the Continue Watching row, and the login, ESN and device id the app kept",
        ),
        entry(
            "FSEvents logs (.fseventsd)",
            &["read_fsevents"],
            "every change fseventsd logged on the data volumes: paths created, removed, renamed and modified (a file created and deleted since is still named), ordered by event id, bounded in time by each log's write",
        ),
        entry(
            "Photos.sqlite sharing",
            &["/PhotoData/Photos.sqlite\"", "/Syndication.photoslibrary/database/Photos.sqlite\""],
            "Photos sharing: Shared with You conversations (the other person's phone or e-mail) and the items received or sent, the iCloud Shared Photo Library and iCloud links (URL, expiry) with their participants (names, e-mails, phones, user ids, the current user), who added and who trashed each shared asset",
        ),
        entry(
            "Photos people and faces",
            &["/PhotoData/Photos.sqlite\""],
            "the people the user named in Photos (names, the address-book contact linked, e-mails and phones Photos matched, favourites, how many faces) and every face or body Photos detected in each photo or video, with whose it is and Photos' age, gender and other estimates",
        ),
        entry(
            "Photos albums",
            &["/PhotoData/Photos.sqlite\""],
            "the albums and folders of the Photos library (the user's own, iCloud Shared Albums, import sessions, Shared with You, trashed ones: titles, counts, when made, the dates of their photos) and which photos and videos each album holds",
        ),
        entry(
            "Kik groups, account holder and pending uploads",
            &["/kik.sqlite\"", "/chunked_upload_storage/pending_uploads\""],
            "which Kik groups each user belongs to, administers or is banned from (the device's user's own roles said), the Kik account signed in, the bios and interests Kik kept of users, and the photos and videos being sent when the phone was seized (with the cached media file)",
        ),
        entry(
            "Uber storagev2 LevelDB",
            &["/com.ubercab.UberClient/storagev2"],
            "where the phone was (coordinates, speed, accuracy, city, GPS time) each time the Uber rider app queued an analytics message, what screen it showed and the trips active, deleted messages' values too",
        ),
        entry(
            "Spotlight index text cache",
            &["/index.spotlightV2/Cache\""],
            "the text Spotlight kept of items apps gave it to index (message and e-mail bodies, notes, documents), sometimes after the item itself was deleted, and when it wrote each",
        ),
        ExpectedArtefact {
            name: "Privacy accounting streams".into(),
            detector: privacyaccounting::detectors(),
            value_for: "which app used the camera, microphone, contacts, photos, location or a system picker and when, as privacyaccountingd recorded it for the App Privacy Report (its records kept even when no report was saved); deleted records' times".into(),
        },
        ExpectedArtefact {
            name: "CoreDuet contacts autocomplete feedback".into(),
            detector: cnafeedback::detectors(),
            value_for: "the people and groups the recipient autocomplete of Messages, FaceTime and other apps suggested while the user addressed a message or call (names, numbers, e-mails, conversations), what was typed or erased in the recipient field, and when".into(),
        },
        ExpectedArtefact {
            name: "myAudi trip cache".into(),
            detector: auditrip::detectors(),
            value_for: "the car trips the myAudi app showed (when, how far, how long, average speed, consumption, the car's mileage) and the car they are of (its VIN, from the cached request addresses)".into(),
        },
        ExpectedArtefact {
            name: "Lidl Plus tickets and receipts".into(),
            detector: lidlplus::detectors(),
            value_for: "the purchases at Lidl stores the Lidl Plus app listed (store, total, when) and the receipts it showed with every article, price and discount, and the account's loyalty card number (never the payment QR)".into(),
        },
        entry(
            "Google Maps semantic location history",
            &["/SemanticLocation/odlh-storage.db\""],
            "where the phone was and how it moved, as Google Maps' on-device Timeline kept it (visits with their places' coordinates, trips, times) and the segments the user corrected",
        ),
        entry(
            "CommCenter SIM data",
            &["/Preferences/com.apple.commcenter.data.plist\""],
            "every SIM CommCenter kept (ICCID, phone number, eSIM or not, carrier bundle, the label the user gave the line, its slot, when last used)",
        ),
        entry(
            "Photos library migrations",
            &["/PhotoData/Photos.sqlite\""],
            "the iOS builds the device ran and when: each time Photos migrated its library (an iOS update, the first setup or an erase) with the build",
        ),
        entry(
            "Photos and Camera plists, UFED device values",
            &[
                "/com.apple.mobileslideshow.plist\"",
                "/com.apple.camera.plist\"",
                "/com.apple.mediaanalysisd.plist\"",
                "/camera_smart_sharing_metadata.plist\"",
                "/cloudServiceEnableLog.plist\"",
                "/device_values.plist\"",
            ],
            "the Photos app's, the Camera's and the media analysis daemon's settings (the Camera's last Shared Library positions, the libraries analysed and how far), the Camera's Smart Sharing home and frequent locations, when iCloud Photos and other Photos cloud services were switched on or off, and a UFED extraction's device values (IMEI, serial, UDID, phone number, name, iOS version)",
        ),
        entry(
            "Photos resources and analysis",
            &["/PhotoData/Photos.sqlite\""],
            "which files of each photo and video are on the phone and which only in iCloud (originals removed by Optimize iPhone Storage, renders of edits, thumbnails, Live Photo videos: sizes, types, iCloud state, trashed), how many originals the phone holds, and when the phone analysed each picture",
        ),
        entry(
            "Health workout routes",
            &["/Health/healthdb_secure.sqlite\""],
            "where each workout recorded on the phone or the watch went: its GPS route's start and end (place and time), the area it covered, altitude and speed, and the workout it belongs to",
        ),
        entry(
            "Group call participants",
            &["/CallHistory.storedata\"", "/interactionC.db\""],
            "who was on each group FaceTime or conference call: every remote participant's number or e-mail (call history) and every recipient's name and number or e-mail (CoreDuet's call interactions), with the call's type, direction, answered, duration and times",
        ),
        entry(
            "WhatsApp reactions, group events and membership changes",
            &["/ChatStorage.sqlite\""],
            "WhatsApp reactions (emoji, who reacted, when, to which message), channel reaction counts, group events and changes of a group's members (who, when)",
        ),
        entry(
            "OrNET Browser preferences",
            &["/Library/Preferences/ch.b-eng.tor.plist\""],
            "the tabs open in OrNET Browser, a Tor browser (private ones too), its connection and privacy settings, the Tor bridges the user entered and when the app was last active",
        ),
        entry(
            "saved web pages (MHTML)",
            &[".mhtml\"}", ".mht\"}"],
            "web pages saved as MHTML archives (a Chromium browser's saved pages, pages copied to the phone): the page's address, title and date, the program that saved it, when the file was written",
        ),
        entry(
            "Withings Health Mate account and coredata stores",
            &[
        "/Library/Application Support/account\"",
        "/Library/Application Support/coredata/",
            ],
            "the users of the Withings account on the phone (names, e-mail, birth), the nights, days and workouts the watches and scales tracked (with where a workout began and ended), their per-minute heart rate, steps, SpO2, temperature and GPS samples by day, the messages between connected users, and the scales and watches paired by Bluetooth address",
        ),
        entry(
            "AllTrails AllTrails.sqlite",
            &["/Documents/AllTrails.sqlite\""],
            "the trails the AllTrails app keeps with where each lies (park, city, coordinates, length, difficulty, rating) and the AllTrails users it keeps: the account signed in with its e-mail and home place",
        ),
        entry(
            "Amazon Shopping preferences, profiles, URL cache and image registry",
            &[
        "/Library/Preferences/com.amazon.Amazon",
        "/Library/Caches/com.amazon.Amazon",
        "/Library/Preferences/amzn1.account.",
        "/ssnapImageCacheRegistry.db\"",
            ],
            "the Amazon customer signed in to Amazon Shopping and the accounts and profiles the app knows (names, e-mail or phone), the orders it last listed (order ids, products, quantities, when ordered), the delivery place the storefront chose, the products it looked up and the product images it cached",
        ),
    ]
}

/// A reader of one file anywhere by one tool, shared with Android ([`crate::torrentfile`],
/// [`crate::fitfile`]): the artefact's name, the tool's arguments, the listing, the path.
type FileReader =
    fn(&AgentCtx<'_>, &str, serde_json::Value, &Invoked, &str) -> Result<(), RuntimeError>;

/// Every file of the source named like one of `globs`, read by `read`.
fn read_each(run: &Run<'_, '_>, globs: &[&str], read: FileReader) -> Result<(), RuntimeError> {
    for glob in globs {
        run.each(glob, |find, path| {
            read(run.ctx, path, json!({"path": path}), find, path)
        })?;
    }
    Ok(())
}

/// The category of an iOS artefact path.
pub fn categorise(path: &str) -> Option<&'static str> {
    let name = path.rsplit('/').next().unwrap_or(path);
    let base = name
        .strip_suffix("-wal")
        .or_else(|| name.strip_suffix("-shm"))
        .unwrap_or(name);
    Some(match base {
        "sms.db"
        | "ChatStorage.sqlite"
        | "threadingStore.sqlite"
        | "kik.sqlite"
        | "sgrouplesdb.sqlite"
        | "MM.sqlite"
        | "Line.sqlite"
        | "signal.sqlite"
        | "Session.sqlite" => "messages",
        "WCDB_Contact.sqlite" => "contacts",
        _ if path.contains("/com.atebits.tweetie.direct-message.cache/") => "messages",
        "searchsqlitedb" | "Envelope Index" | "Protected Index" => "mail",
        b if b.ends_with(".emlx") && path.contains("/Mail/") => "mail",
        "ChatModel.sqlite" if path.contains("/chat/v1/") => "messages",
        "shared.sqlite" if path.contains("/AppGroup/") && path.contains("/Databases/") => "social",
        "History.db" | "Downloads.plist" if path.contains("/Safari/") => "web",
        "History" | "Bookmarks" if path.contains("/Default/") => "web",
        "places.db" if path.contains("/profile.profile/") => "web",
        "QTMetadata.db" if crate::onedrive::is_store(path) => "files",
        "clients.plist" if path.contains("/Library/Caches/locationd/") => "locations",
        "foursquare.sqlite" => "locations",
        "MTLibrary.sqlite" => "media",
        "siriremembers.sqlite3" => "messages",
        "Cache.db" if path.contains("/EngagedCompletions/") => "web",
        "FolderLockAdvanced.sqlite" => "files",
        _ if path.contains("/Documents/FolderLockAdvanced/") => "files",
        "storage" if path.contains("/Application Support/RongCloud/") => "messages",
        "ur_message.db" if path.ends_with("/Documents/ur_message.db") => "locations",
        _ if path.contains("/RealtimeRider.StreamModelKey/") => "accounts",
        "hsts_cache.plist" if path.ends_with("/Documents/hsts_cache.plist") => "web",
        "bookmarks.plist" if path.ends_with("/Documents/bookmarks.plist") => "web",
        "PPSQLDatabase.db" if path.contains("/PersonalizationPortrait/") => "locations",
        "storeUser.db" if path.contains("/com.apple.appstored/") => "apps",
        b if b.starts_with("AMDSQLite.db.0") && path.contains("/PluginKitPlugin/") => "app_usage",
        b if b.starts_with("AWESearchHistory")
            && path.contains("/search_history/history_words/") =>
        {
            "web"
        }
        ".com.apple.mobile_container_manager.metadata.plist"
            if containers::container(path).is_some() =>
        {
            "apps"
        }
        "CacheDeletePurgeHistory.txt" => "device",
        b if b.starts_with("containermanagerd") && b.contains(".log.") => "apps",
        "com.apple.AppStore.plist"
            if path.ends_with("/Library/Preferences/com.apple.AppStore.plist") =>
        {
            "device"
        }
        "com.apple.preferences.datetime.plist" if path.contains("/db/timed/") => "device",
        "com.google.Docs.plist" | "com.google.Sheets.plist" => "accounts",
        "documentMetadata.db" if path.contains("/localStore/shared/") => "files",
        b if b.ends_with(".db") && path.contains("/localStore/documents/") => "files",
        "group.net.box.BoxNet.plist" => "accounts",
        "Item.db" | "Recents.db"
            if path.contains("/Containers/Shared/AppGroup/") && path.contains("/Documents/db/") =>
        {
            "files"
        }
        "annotations.db"
            if path.contains("/Containers/Shared/AppGroup/") && path.contains("/Documents/db/") =>
        {
            "messages"
        }
        "itemIDs.plist" | "lastDownloadDates.plist" if path.contains("/offlinefilesinfo/") => {
            "files"
        }
        "PreviewItem.db" if path.contains("/boxpreview/") => "media",
        "MediaLibrary.sqlitedb" => "media",
        "installHistory.db" if installhistory::is_store(path) => "device",
        "fitbit.sqlite" if path.contains("/Documents/") => "health",
        _ if path.contains("/DuetExpertCenter/streams/location/") => "locations",
        _ if path.contains("/DuetExpertCenter/streams/userNotificationEvents/") => "apps",
        "GeoHistory.mapsdata" => "locations",
        "WiFiNetworkStoreModel.sqlite" => "wifi",
        "preferences.plist" if sysconfprefs::is_store(path) => "device",
        b if b.starts_with("dhcpd_leases") && dhcpserverleases::is_store(path) => "wifi",
        "notificationAndSuggestionDB.db" if path.contains("/DuetExpertCenter/") => "notifications",
        ".ash_history" => "device",
        b if b.starts_with("BDC_SBC_") && batterybdc::is_file(path) => "device",
        b if b.starts_with("Apple_Intelligence_Report") && b.ends_with(".json") => "apps",
        "com.thetileapp.tile-DiscoveredTileDB.sqlite" => "device",
        "Devices.sqlite3" if path.ends_with("/Library/Support/Devices.sqlite3") => "device",
        "DMSSCloud.sqlite" if path.contains("/Library/Support/") => "device",
        "database.hik" if path.ends_with("/Documents/database.hik") => "device",
        "YSDCLogItem.sqlite" if path.contains("/Documents/DCLOG/") => "app_usage",
        "DataStore" if path.ends_with("/Library/Application Support/DataStore") => "calls",
        b if b.starts_with("com.life360.safetymap ") && b.ends_with(".log") => "locations",
        "Messaging.sqlite" if path.ends_with("/Library/Application Support/Messaging.sqlite") => {
            "messages"
        }
        "com.life360.safetymap.plist" if path.contains("/Library/Preferences/") => "apps",
        _ if path.contains("/com.pinterest.PINDiskCache.PINRemoteModelCache/conversations%2F") => {
            "messages"
        }
        b if b.starts_with("activeUser") && path.contains("/Documents/") => "accounts",
        "pinterest.plist" if path.contains("/Library/Preferences/") => "apps",
        "com.ebaykleinanzeigen.ebc.plist" => "accounts",
        ".last_search_query" if path.contains("/Private Documents/") => "web",
        "conversation_cache" if path.ends_with("/Library/Caches/conversation_cache") => "messages",
        b if b.ends_with(".db") && b.contains("gql") && path.contains("/Library/gqlData/") => {
            "media"
        }
        "com.netflix.Netflix.plist" => "accounts",
        _ if path.contains("/.fseventsd/") => "files",
        "pending_uploads" if kikgroups::is_pending_uploads(path) => "messages",
        _ if path.contains("/cores/private/")
            && path.contains("/chunked_upload_storage/data_cache/") =>
        {
            "attachments"
        }
        _ if path.contains("/com.ubercab.UberClient/storagev2/") => "locations",
        b if b.ends_with(".txt")
            && path.contains("/Library/Spotlight/CoreSpotlight/")
            && path.contains("/index.spotlightV2/Cache/") =>
        {
            "files"
        }
        _ if path.contains("/PrivacyAccounting/Biome/com.apple.privacy.accounting.stream") => {
            "usage"
        }
        _ if path.contains("/CoreDuet/People/Feedback/CNA/") => "contacts",
        _ if path.contains("/Library/Caches/de.audi.myaudimobileassistant/") => "locations",
        "Cache.db" if lidlplus::is_store(path) => "transactions",
        _ if path.contains("/Library/Caches/com.lidl.eci.lidl.plus/fsCachedData/") => {
            "transactions"
        }
        "odlh-storage.db" if path.contains("/SemanticLocation/") => "locations",
        "com.apple.mobileslideshow.plist"
        | "com.apple.camera.plist"
        | "com.apple.mediaanalysisd.plist"
            if path.contains("/Library/Preferences/") =>
        {
            "media"
        }
        "camera_smart_sharing_metadata.plist" => "media",
        "cloudServiceEnableLog.plist"
            if path.contains("/com.apple.accountsd/") || path.contains("/com.apple.assetsd/") =>
        {
            "accounts"
        }
        "device_values.plist" if !path.contains("/Containers/") && !path.contains("/Library/") => {
            "device"
        }
        "ch.b-eng.tor.plist" if path.ends_with("/Library/Preferences/ch.b-eng.tor.plist") => "web",
        b if b.ends_with(".mhtml") || b.ends_with(".mht") => "web",
        "account" if path.ends_with("/Library/Application Support/account") => "accounts",
        b if path.contains("/Library/Application Support/coredata/")
            && (b.contains("_Tracks") || b.contains("_vasistas")) =>
        {
            "health"
        }
        b if path.contains("/Library/Application Support/coredata/")
            && b.contains("_HM3Timeline") =>
        {
            "messages"
        }
        "associated_device.sqlite" if path.contains("/Library/Application Support/coredata/") => {
            "device"
        }
        "com.withings.wiScaleNG.plist" => "apps",
        "AllTrails.sqlite" if path.contains("/Documents/") => "locations",
        b if b.starts_with("com.amazon.Amazon") && amazonios::is_prefs(path) => "accounts",
        "Cache.db" if amazonios::is_cache(path) => "transactions",
        "ssnapImageCacheRegistry.db" if path.contains("/Library/LocalDatabase/") => "media",
        b if b.starts_with("amzn1.account.")
            && b.ends_with(".plist")
            && path.contains("/Library/Preferences/") =>
        {
            "accounts"
        }
        "DeviceAnalyticsModel.sqlite" if path.contains("/com.apple.wifianalyticsd/") => "locations",
        "NetworkInterfaces.plist" if path.contains("/SystemConfiguration/") => "device",
        "UnitediPhoneCoreData.sqlite" => "locations",
        "mbox_main.sqlite" => "messages",
        _ if path.contains("/Containers/Shared/AppGroup/")
            && path.contains("/cores/private/")
            && path.contains("/attachments/") =>
        {
            "attachments"
        }
        _ if path.contains("/Library/DriveIQ/segments/") => "locations",
        _ if appconduit::is_log(path) => "device",
        "com.ouraring.oura.plist" => "accounts",
        "ch.sbb.coredata.searchhistory.sqlite" | "ch.sbb.coredata.logs.sqlite" => "locations",
        "favorites_prediction_db.sqlite" => "locations",
        "com.thehomedepot.homedepot.plist" | "group.com.thehomedepot.homedepot.plist" => "accounts",
        "PDPlaceCache.db" | "MapTiles.sqlitedb" => "locations",
        "AP.db" if path.contains("/com.apple.geod/") => "app_usage",
        "Cache.db" if path.contains("/com.apple.Passbook/") => "accounts",
        b if b.ends_with(".plist") && path.contains("/Application Support/CachedRoutes/") => {
            "locations"
        }
        b if b.starts_with("user_")
            && b.ends_with("_messaging_core.sqlite3")
            && path.contains("/Library/Application Support/") =>
        {
            "messages"
        }
        b if b.starts_with("photos-")
            && b.ends_with(".db")
            && path.contains("/Application Support/store/") =>
        {
            "media"
        }
        "cello.db" if crate::googledrive::is_store(path) => "files",
        "tgdata.db" if path.contains("/Containers/Shared/AppGroup/") => "messages",
        "composition.plist" if path.contains("/SMS/Drafts/") => "messages",
        "group.com.apple.weather.plist" => "locations",
        "PayByPhone.sqlite" => "locations",
        "Vipps.sqlite" | "Twint.sqlite" => "transactions",
        "wickrLocal.sqlite" => "messages",
        "dynamic-lexicon.dat"
        | "user_model_database.sqlite"
        | "app_usage_database.plist"
        | "AutocorrectionRejections.db"
        | "VulgarWordUsage.db" => "keyboard",
        "AddressBook.sqlitedb" | "AddressBookImages.sqlitedb" | "ContactsV2.sqlite" => "contacts",
        "Accounts3.sqlite" | "com.apple.accounts.exists.plist" => "accounts",
        "storeSystem.db" => "apps",
        "NoteStore.sqlite" => "notes",
        "knowledgeC.db" => "app_usage",
        "Cache.sqlite" | "Local.sqlite" | "Cloud-V2.sqlite"
            if path.contains("/com.apple.routined/") =>
        {
            "locations"
        }
        "Calendar.sqlitedb" => "calendar",
        "iTunesPrefs" | "com.apple.lsdidentifiers.plist" => "device",
        "devicelist.db" if path.contains("/com.apple.akd/") => "device",
        "CellularUsage.db" | "com.apple.sharingd.plist" => "device",
        "MedicalIDData.archive" => "health",
        "DeliveredNotifications.plist" => "notifications",
        "TCC.db" => "apps",
        "CloudRecordings.db" => "media",
        "healthdb.sqlite" | "healthdb_secure.sqlite" if path.contains("/Health/") => "health",
        b if b.ends_with(".PLSQL") || b.ends_with(".PLSQL.gz") => "app_usage",
        "com.apple.mobilesafari.plist" => "web",
        "com.waze.iphone.plist" => "locations",
        "Info.plist" if path.contains(".webclip/") => "web",
        ".obliterated" | ".bootstrapped" if path.contains("/root/") => "device",
        b if b.starts_with("mobile_installation.log.") => "apps",
        b if b == "lockdownd.log" || b.starts_with("lockdownd.log.") => "device",
        _ if shutdownlog::is_log(path) || restorelog::is_log(path) => "device",
        "cloudthumbnails.db" => "files",
        "speedtest.sqlite" => "locations",
        "primary.docobjects" if crate::snapchat::is_docobjects(path) => "contacts",
        "Favicons.db" if path.contains("/Image Cache/Favicons/") => "web",
        "translate.db" if path.ends_with("/Documents/translate.db") => "web",
        "database.sqlite" if path.ends_with("/Library/Application Support/database.sqlite") => {
            "transactions"
        }
        "com.apple.MobileSMS.plist" | "com.apple.mobileSMS.plist" => "messages",
        "com.thetileapp.tile-TileNetworkDB.sqlite" => "locations",
        "iTunesMetadata.plist" | "BundleMetadata.plist"
            if path.contains("/Bundle/Application/") =>
        {
            "apps"
        }
        b if crate::torrentfile::is_torrent_file(b) => "files",
        b if crate::fitfile::is_fit_file(b) => "locations",
        "History.sqlite" if path.contains("/Application Support/") => "web",
        "query_predictions.db" => "messages",
        _ if path.contains("/VoiceTrigger/SAT/") => "media",
        b if b == "mobileactivationd.log" || b.starts_with("mobileactivationd.log.") => "device",
        "Recordings.db" if path.contains("/Recordings/") => "media",
        "client.db" | "server.db" if path.contains("/CloudDocs/session/db/") => "files",
        "Library.plist" if notifications::library_plist(path) => "notifications",
        _ if path.contains("/PhotoCloudSharingData/") => "media",
        "Set.db" if path.contains("/Biome/sets/") => "apps",
        _ if path.contains("/Biome/databases/") => "app_usage",
        "com.apple.icloud.fmfd.notbackedup.plist" => "device",
        "com.apple.icloud.findmydeviced.FMIPAccounts.plist" => "accounts",
        b if b.ends_with("TrustedPeersHelper.db") => "device",
        "com.apple.wifi.known-networks.plist" | "com.apple.wifi-private-mac-networks.plist" => {
            "wifi"
        }
        "com.apple.wifid.plist" if path.contains("/SyncedPreferences/") => "wifi",
        "com.apple.Maps.plist" | "group.com.apple.Maps.plist" => "locations",
        "cache.plist" if path.contains("/locationd/") => "device",
        "acc_analytics_accessoryd_v3.db" | "acc_analytics_UserEventAgent_v3.db" => "device",
        "com.apple.mobiletimerd.plist" => "device",
        "com.apple.mobiletimer.plist" => "locations",
        _ if path.contains("/dhcpclient/leases/") => "wifi",
        "CallHistory.storedata" | "CallHistory.sqlite" => "calls",
        "voicemail.db" => "calls",
        "co.alphaexploration.clubhouse.plist"
        | "group.alphaexploration.clubhouse.plist"
        | "com.groupme.iphone-app.plist" => "accounts",
        "data_ark.plist" | "SystemVersion.plist" => "device",
        "ModuleConfiguration.plist" if path.contains("/ControlCenter/") => "device",
        "Cookies.binarycookies" => "web",
        _ if crate::wallets::mobile_state_file(path) => "wallets",
        "wallet-rn-v2.sqlite" => "wallets",
        "interactionC.db" => "messages",
        _ if path.contains("/lightspeed-userDatabases/") && name.ends_with(".db") => "messages",
        "cacheV0.db" | "Photos.sqlite" => "media",
        "com.apple.identityservices.idstatuscache.plist" => "accounts",
        "idstatuscache.plist" if path.contains("/IdentityServices/") => "accounts",
        "DataUsage.sqlite" | "netusage.sqlite" => "usage",
        "IMODb2.sqlite" => "messages",
        b if b.ends_with(".db") && path.contains("/DirectSQLiteDatabase/") => "messages",
        "com.apple.MobileBackup.plist" => "device",
        "com.apple.CarPlayApp.plist" => "apps",
        b if b.ends_with(".ndjson") && b.to_ascii_lowercase().contains("privacy_report") => "usage",
        "RMAdminStore-Local.sqlite" | "RMAdminStore-Cloud.sqlite" => "usage",
        b if b.starts_with("com.apple.commcenter") || b.starts_with("com.apple.purplebuddy") => {
            "device"
        }
        b if b.to_ascii_lowercase().contains("keychain") => "credentials",
        _ if path.contains("/Library/SMS/Attachments/") => "attachments",
        _ if path.contains("/Message/Media/") => "attachments",
        _ => return None,
    })
}

/// One triage run: the agent's context and what it observed so far.
pub struct Run<'c, 's> {
    /// The agent's context.
    pub ctx: &'c AgentCtx<'s>,
    observed: RefCell<BTreeSet<(String, IdType, String)>>,
    /// Normalised identifiers of address-book cards → their context (`contact:<ROWID>`).
    pub contact_ids: RefCell<BTreeMap<String, String>>,
    /// The one search for every file the readers look for by name ([`searched_globs`]):
    /// made on the first [`Run::find`] of one of them; `Some(None)` when it failed (noted).
    searched: RefCell<Option<Option<Found>>>,
    /// The folders the one search found, read from its listing once (for [`Run::find_dirs`]).
    searched_dirs: RefCell<Option<Vec<String>>>,
    /// [`searched_globs`], made once per run.
    globs: Vec<String>,
    /// Apps' data containers FrontBoard's application state names: (bundle, container path,
    /// the query that read it), filled by [`appstate`] for the readers after it.
    pub containers: RefCell<Vec<(String, String, Invoked)>>,
}

/// Whether `k`, a page's last key as the query wrote it, can start the next page: an integer, or
/// a binary key as `quote(key)` writes it (`X'<hex>'`: Telegram's Postbox tables).
fn key_literal(k: &str) -> bool {
    let digits = k.strip_prefix('-').unwrap_or(k);
    (!digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()))
        || k.strip_prefix("X'")
            .and_then(|h| h.strip_suffix('\''))
            .is_some_and(|h| h.bytes().all(|b| b.is_ascii_hexdigit()))
}

/// A search and the paths it found.
type Found = (Invoked, Vec<String>);

/// The names the readers look for, searched in one walk of the tree (`find_files` with
/// `name_globs`) instead of one walk each: every glob a reader passes to [`Run::find`] or
/// [`Run::each`] but the bare extension globs (`*.png`, `*.amr`: many files, searched on
/// their own). A glob missing here still works, by its own search
/// (`searched_globs_cover_every_reader` checks the list against the readers' sources).
const SEARCHED: &[&str] = &[
    "*eychain*.plist",
    "*rivacy*eport*.ndjson",
    "????????-????-????-????-????????????.plist",
    ".GlobalPreferences.plist",
    ".tempkey",
    ".tempkeyEncrypted",
    "Accounts3.sqlite",
    "AddressBook.sqlitedb",
    "Bookmarks",
    "Bookmarks.db",
    "BrowserState.db",
    "Cache.db",
    "Cache.sqlite",
    "Calendar.sqlitedb",
    "CallHistory.sqlite",
    "CallHistory.storedata",
    "ChatModel.sqlite",
    "ChatStorage.sqlite",
    "ContactsV2.sqlite",
    "Downloads.plist",
    "Envelope Index",
    "*.emlx",
    "History",
    "History.db",
    "IMODb2.sqlite",
    "Line.sqlite",
    "Local.sqlite",
    "Cookies",
    "Login Data*",
    "Network Action Predictor",
    "Session.sqlite",
    "Shortcuts",
    "MM.sqlite",
    "Manifest.plist",
    "ModuleConfiguration.plist",
    "NoteStore.sqlite",
    "Photos.sqlite",
    "Protected Index",
    "WCDB_Contact.sqlite",
    "Web Data",
    "applicationState.db",
    "cacheV0.db",
    "cloudkit_cache.db",
    "places.db",
    "QTMetadata.db",
    "composition.plist",
    "group.com.apple.weather.plist",
    "PayByPhone.sqlite",
    "Vipps.sqlite",
    "Twint.sqlite",
    "wickrLocal.sqlite",
    "clients.plist",
    "foursquare.sqlite",
    "MTLibrary.sqlite",
    "siriremembers.sqlite3",
    "FolderLockAdvanced.sqlite",
    "FolderLockAdvanced",
    "RongCloud",
    "database.db",
    "ur_message.db",
    "RealtimeRider.StreamModelKey",
    "bookmarks.plist",
    "hsts_cache.plist",
    "PPSQLDatabase.db",
    "storeUser.db",
    "AMDSQLite.db.0*",
    "AWESearchHistory*",
    ".com.apple.mobile_container_manager.metadata.plist",
    "data.sqlite",
    "CacheDeletePurgeHistory.txt",
    "containermanagerd*.log.*",
    "com.apple.AppStore.plist",
    "com.apple.preferences.datetime.plist",
    "com.google.Docs.plist",
    "com.google.Sheets.plist",
    "localStore",
    "group.net.box.BoxNet.plist",
    "Item.db",
    "Recents.db",
    "annotations.db",
    "PreviewItem.db",
    "itemIDs.plist",
    "lastDownloadDates.plist",
    "MediaLibrary.sqlitedb",
    "installHistory.db",
    "fitbit.sqlite",
    "GeoHistory.mapsdata",
    "WiFiNetworkStoreModel.sqlite",
    "preferences.plist",
    "dhcpd_leases*",
    "notificationAndSuggestionDB.db",
    ".ash_history",
    "BDC_SBC_*.csv",
    "Apple_Intelligence_Report*.json",
    "com.thetileapp.tile-DiscoveredTileDB.sqlite",
    "Devices.sqlite3",
    "DMSSCloud.sqlite",
    "database.hik",
    "YSDCLogItem.sqlite",
    "DataStore",
    "com.google.Tachyon.plist",
    "com.life360.safetymap *.log",
    "com.life360.safetymap.plist",
    "Messaging.sqlite",
    "activeUser*",
    "pinterest.plist",
    "conversations%2F*",
    "com.ebaykleinanzeigen.ebc.plist",
    ".last_search_query",
    "*gql*.db",
    "com.netflix.Netflix.plist",
    ".fseventsd",
    "pending_uploads",
    "storagev2",
    "index.spotlightV2",
    "com.apple.privacy.accounting.stream*",
    "CNA",
    "odlh-storage.db",
    "com.google.Maps.plist",
    "com.apple.mobileslideshow.plist",
    "com.apple.camera.plist",
    "com.apple.mediaanalysisd.plist",
    "camera_smart_sharing_metadata.plist",
    "cloudServiceEnableLog.plist",
    "device_values.plist",
    "ch.b-eng.tor.plist",
    "account",
    "com.withings.wiScaleNG.plist",
    "*_Tracks*",
    "*.mhtml",
    "*.mht",
    "*_HM3Timeline*",
    "*_vasistas*",
    "associated_device.sqlite",
    "AllTrails.sqlite",
    "com.amazon.Amazon*.plist",
    "amzn1.account.*.plist",
    "ssnapImageCacheRegistry.db",
    "DeviceAnalyticsModel.sqlite",
    "NetworkInterfaces.plist",
    "UnitediPhoneCoreData.sqlite",
    "mbox_main.sqlite",
    "netdisk.sqlite",
    "imageDB.sqlite",
    "attachments",
    "DriveIQ",
    "AppConduit.log.*",
    "com.ouraring.oura.plist",
    "com.segment.storage.*.plist",
    "ch.sbb.coredata.searchhistory.sqlite",
    "ch.sbb.coredata.logs.sqlite",
    "favorites_prediction_db.sqlite",
    "localdata.sqlite",
    "com.thehomedepot.homedepot.plist",
    "group.com.thehomedepot.homedepot.plist",
    "userInfo.txt",
    "PDPlaceCache.db",
    "AP.db",
    "MapTiles.sqlitedb",
    "?????????????.plist",
    "user_*_messaging_core.sqlite3",
    "photos-*.db",
    "cello.db",
    "tgdata.db",
    "devicelist.db",
    "MedicalIDData.archive",
    "Set.db",
    "IntelligencePlatform.Entity.sqlite3",
    "ApplePay.Security.Features.sqlite3",
    "CellularUsage.db",
    "com.apple.sharingd.plist",
    "DCIM_CLOUD.plist",
    "cloudSharedPersonInfos.plist",
    "cloudSharedEmails.plist",
    "DeliveredNotifications.plist",
    "Library.plist",
    "TCC.db",
    "Cloud-V2.sqlite",
    "client.db",
    "server.db",
    "CloudRecordings.db",
    "healthdb.sqlite",
    "healthdb_secure.sqlite",
    "*.PLSQL",
    "lockdownd.log",
    "lockdownd.log.*",
    "shutdown*.log",
    "restore.log",
    "cloudthumbnails.db",
    "speedtest.sqlite",
    "Favicons.db",
    "translate.db",
    "database.sqlite",
    "com.apple.*obileSMS.plist",
    "com.thetileapp.tile-TileNetworkDB.sqlite",
    "iTunesMetadata.plist",
    "BundleMetadata.plist",
    "*.torrent",
    "*.resume",
    "*.fastresume",
    "*.fit",
    "*.FIT",
    "primary.docobjects",
    "History.sqlite",
    "query_predictions.db",
    "VoiceTrigger",
    "mobileactivationd.log",
    "mobileactivationd.log.*",
    "*.PLSQL.gz",
    "Recordings.db",
    "mobile_installation.log.*",
    ".obliterated",
    ".bootstrapped",
    "com.apple.mobilesafari.plist",
    "*.webclip",
    "user.db",
    "com.waze.iphone.plist",
    "*TrustedPeersHelper.db",
    "com.apple.icloud.fmfd.notbackedup.plist",
    "com.apple.icloud.findmydeviced.FMIPAccounts.plist",
    "group.BeReal.plist",
    "bereal-chat.sqlite",
    "co.alphaexploration.clubhouse.plist",
    "com.apple.CarPlayApp.plist",
    "com.apple.accounts.exists.plist",
    "com.apple.MobileBackup.plist",
    "com.apple.MobileBluetooth.devices.plist",
    "com.apple.lsdidentifiers.plist",
    "com.apple.wifi-private-mac-networks.plist",
    "com.apple.wifi.known-networks.plist",
    "com.apple.wifid.plist",
    "com.apple.Maps.plist",
    "group.com.apple.Maps.plist",
    "cache.plist",
    "acc_analytics_accessoryd_v3.db",
    "acc_analytics_UserEventAgent_v3.db",
    "com.apple.mobiletimerd.plist",
    "com.apple.mobiletimer.plist",
    "com.groupme.iphone-app.plist",
    "dynamic-lexicon.dat",
    "en*.plist",
    "group.alphaexploration.clubhouse.plist",
    "iTunesPrefs",
    "kik.sqlite",
    "knowledgeC.db",
    "sync.db",
    "message_*.sqlite",
    "mmsetting.archive",
    "persist-*",
    "searchsqlitedb",
    "sgrouplesdb.sqlite",
    "shared.sqlite",
    "signal.sqlite",
    "sms.db",
    "storeSystem.db",
    "threadingStore.sqlite",
    "user_model_database.sqlite",
    "app_usage_database.plist",
    "AutocorrectionRejections.db",
    "VulgarWordUsage.db",
    "voicemail.db",
    "interactionC.db",
    "wallet-rn-v2.sqlite",
    "lightspeed-userDatabases",
    "CloudTabs.db",
    "Top Sites",
    "AwemeIM.db",
    "db.sqlite",
    "db_sqlite",
    "Settings.data",
    "Contacts.data",
    "manifest.json",
    "ThreeBars.sqlite",
    "arroyo.db",
    "main_db",
    "CCEntitySync-*.sqlite",
    "PrivateFeed",
    "PublicFeed",
    "FriendsFeed",
    "cache_encryptedB.db",
    "cache_encryptedA.db",
    "consolidated.db",
    "GroupMe.sqlite",
    "Skype*.sqlite",
    "ThreemaData.sqlite",
    "dynamite.db",
    "Tinder2.sqlite",
    "SafariTabs.db",
    "Chat.sqlite",
    "yap-database.sqlite",
    "Phoenix.sqlite",
    "com.linkedin.LinkedIn.plist",
    "msg_database.sqlite",
    "conversation_cache",
    "Messaging_*.sqlite",
    "store.wiredatabase",
    "passes23.sqlite",
    "pass.json",
    "nanopasses.sqlite3",
    "zangidb*.sqlite",
    "MapsSync_0.0.1",
    "Data-*.sqlite",
    "teleguard_database.db",
    "teleguard_temp.db",
    "account.db",
    "Items.data",
    "ProtonMail.sqlite",
    "Account.db",
    "ContentService.db",
    "RoomsUsersService.db",
    "RedditUsersStore.db",
    "profile.sqlite",
    "chatgroup.sqlite",
    "com.openai.chat.StatsigService.plist",
    "????????-????-????-????-????????????.json",
    "cache_*.sqlite",
    "bootstrap",
    "com.cardify.tinder.plist",
    "a",
    "fsCachedData",
    "modelCache.sqlite3",
    "*.ktx",
    "*.jpeg",
];

/// [`SEARCHED`] and the names the readers keep in their own tables.
fn searched_globs() -> Vec<String> {
    let mut globs: Vec<String> = SEARCHED.iter().map(|g| g.to_string()).collect();
    globs.extend(plists::IDENTITY_GLOBS.iter().map(|g| g.to_string()));
    globs.extend(bluetooth::DATABASES.iter().map(|(f, ..)| f.to_string()));
    globs.extend(datausage::DATABASES.iter().map(|(f, _)| f.to_string()));
    globs.extend(idstatus::NAMES.iter().map(|f| f.to_string()));
    globs.extend(screentime::NAMES.iter().map(|f| f.to_string()));
    globs.extend(biome::folders().map(str::to_string));
    globs.extend(duetstreams::folders().map(str::to_string));
    globs.extend(bereal::folders().map(str::to_string));
    globs.push(crate::wallets::async_storage_name());
    globs.extend(crate::wallet_apps::ios_globs());
    globs.sort();
    globs.dedup();
    globs
}

/// Files found per searched name, on average, before the one search stops.
const FOUND_PER_GLOB: u64 = 1000;

impl<'c, 's> Run<'c, 's> {
    /// The app whose data container holds `path`, as FrontBoard's application state names it
    /// ([`Run::containers`]), with the call that names it.
    pub fn app_of(&self, path: &str) -> Option<(String, Invoked)> {
        self.containers
            .borrow()
            .iter()
            .find(|(_, container, _)| {
                path.strip_prefix(container.as_str())
                    .is_some_and(|rest| rest.starts_with('/'))
            })
            .map(|(bundle, _, inv)| (bundle.clone(), inv.clone()))
    }

    /// A run on `ctx`.
    pub fn new(ctx: &'c AgentCtx<'s>) -> Self {
        Self {
            ctx,
            observed: RefCell::new(BTreeSet::new()),
            contact_ids: RefCell::new(BTreeMap::new()),
            searched: RefCell::new(None),
            searched_dirs: RefCell::new(None),
            globs: searched_globs(),
            containers: RefCell::new(Vec::new()),
        }
    }

    /// `value` normalised as `id_type` under the source's region, if it is one.
    pub fn normalised(&self, id_type: IdType, value: &str) -> Option<String> {
        normalize(id_type, value, self.ctx.phone_region().as_ref()).ok()
    }

    /// Observes `value` as an identifier of the entity of `context`, once per run and only
    /// when it is a valid identifier of its type (so that every request is one the gateway
    /// accepts). Returns whether a request was made.
    #[allow(clippy::too_many_arguments)]
    pub fn observe(
        &self,
        context: &str,
        kind: EntityKind,
        label: &str,
        id_type: IdType,
        value: &str,
        inv: &Invoked,
        interpretation: String,
    ) -> Result<bool, RuntimeError> {
        self.observe_cued(
            context,
            kind,
            label,
            id_type,
            value,
            inv,
            interpretation,
            None,
        )
    }

    /// [`Run::observe`] with the cue word of a control claim
    /// (`crate::identity::observe_written_wallets`).
    #[allow(clippy::too_many_arguments)]
    pub fn observe_cued(
        &self,
        context: &str,
        kind: EntityKind,
        label: &str,
        id_type: IdType,
        value: &str,
        inv: &Invoked,
        interpretation: String,
        cue: Option<&str>,
    ) -> Result<bool, RuntimeError> {
        let Some(norm) = self.normalised(id_type, value) else {
            tracing::debug!(value, %id_type, "not observed: not a valid identifier");
            return Ok(false);
        };
        if let Some(why) = masf_graph::identifiers::placeholder(id_type, value) {
            // Kept in the artefact's phenomenon; as an identity it would say nothing.
            tracing::debug!(value, %id_type, why, "not observed: a placeholder");
            return Ok(false);
        }
        // A contact claim is kept apart from the same value observed as the entity's own
        // (`masf_graph::Identifier::is_claim`): neither hides the other.
        let norm = if cue.is_some() && masf_graph::model::is_claimable(id_type) {
            format!("{norm}#claim")
        } else {
            norm
        };
        let key = (context.to_string(), id_type, norm);
        if !self.observed.borrow_mut().insert(key) {
            return Ok(false);
        }
        self.ctx.observe(Observation {
            context: context.to_string(),
            entity_kind: kind,
            label: label.to_string(),
            id_type,
            value: value.to_string(),
            invocation_id: inv.record.invocation_id.clone(),
            interpretation,
            cue: cue.map(str::to_owned),
        })?;
        Ok(true)
    }

    /// Observes each present, non-empty `(type, value, what)` of `ids` as an identifier of the
    /// person entity `context` (labelled `label`; `owner` for the device's user), with the
    /// interpretation `why(what)` — an app's account: its namespaced id, user name, name,
    /// e-mail and phone.
    pub fn observe_person(
        &self,
        context: &str,
        label: &str,
        inv: &Invoked,
        why: &dyn Fn(&str) -> String,
        ids: &[(IdType, Option<&str>, &str)],
    ) -> Result<(), RuntimeError> {
        for (id_type, value, what) in ids {
            if let Some(v) = value.filter(|v| !v.is_empty()) {
                self.observe(
                    context,
                    EntityKind::Person,
                    label,
                    *id_type,
                    v,
                    inv,
                    why(what),
                )?;
            }
        }
        Ok(())
    }

    /// Observes a message or call counterparty (`+852…`, an e-mail) as `handle:<normalised>`,
    /// unless an address-book card holds the same identifier (then the card's entity has it).
    pub fn observe_handle(
        &self,
        value: &str,
        inv: &Invoked,
        what: &str,
    ) -> Result<bool, RuntimeError> {
        let Some((id_type, norm)) = self.handle_type(value) else {
            return Ok(false);
        };
        if self.contact_ids.borrow().contains_key(&norm) {
            return Ok(false);
        }
        self.observe(
            &format!("handle:{norm}"),
            EntityKind::Person,
            value,
            id_type,
            value,
            inv,
            format!("{value} is a counterparty of {what} with no address-book card."),
        )
    }

    /// The entity context a message handle is observed under: the address-book card holding
    /// it, else `handle:<normalised>` (see [`Run::observe_handle`]).
    pub fn handle_context(&self, value: &str) -> Option<String> {
        let (_, norm) = self.handle_type(value)?;
        let card = self.contact_ids.borrow().get(&norm).cloned();
        Some(card.unwrap_or_else(|| format!("handle:{norm}")))
    }

    /// Whether a handle is an e-mail address or a phone number, with its normal form.
    pub fn handle_type(&self, value: &str) -> Option<(IdType, String)> {
        let id_type = if value.contains('@') {
            IdType::Email
        } else {
            IdType::Phone
        };
        self.normalised(id_type, value).map(|n| (id_type, n))
    }

    /// Wallet addresses written in a message's `text`, each a claim of the side the words
    /// before it name (`crate::identity::observe_written_wallets`): the device's user (`owner`)
    /// or the other party (`other`: its entity context and label — see
    /// [`Run::handle_party`]). `sent` says which side wrote it; `sent_mark`/`received_mark`
    /// name the column value that says so (`is_from_me 1`, `itemType SmsOut`).
    #[allow(clippy::too_many_arguments)]
    pub fn message_claims(
        &self,
        inv: &Invoked,
        text: &str,
        what: &str,
        sent: bool,
        other: Option<(String, String)>,
        sent_mark: &str,
        received_mark: &str,
    ) -> Result<(), RuntimeError> {
        use crate::identity::{Party, observe_written_wallets};
        let other_role = match (&other, sent) {
            (Some((_, l)), true) => format!("{l}, to whom it was sent ({sent_mark})"),
            (Some((_, l)), false) => format!("{l}, who sent it ({received_mark})"),
            (None, _) => String::new(),
        };
        let other = other.as_ref().map(|(context, label)| Party {
            context,
            label,
            role: &other_role,
        });
        let owner_role = if sent {
            format!("the device's user, who sent it ({sent_mark})")
        } else {
            format!("the device's user, who received it ({received_mark})")
        };
        let owner = Some(Party {
            context: "owner",
            label: "device owner",
            role: &owner_role,
        });
        let (writer, reader) = if sent { (owner, other) } else { (other, owner) };
        observe_written_wallets(
            self.ctx.phone_region().as_ref(),
            text,
            what,
            writer,
            reader,
            // Through the run: a repeat (the same address in two messages) is not resent.
            &mut |c, k, l, t, v, i, cue| self.observe_cued(c, k, l, t, v, inv, i, cue),
        )?;
        Ok(())
    }

    /// The other party of a message by its handle (a phone number or an e-mail address): the
    /// entity context it is observed under ([`Run::handle_context`]) and the handle as label.
    pub fn handle_party(&self, handle: Option<&str>) -> Option<(String, String)> {
        let h = handle?;
        Some((self.handle_context(h)?, h.to_string()))
    }

    /// Records a phenomenon draft.
    pub fn record(&self, draft: Draft) -> Result<(), RuntimeError> {
        if let Some(request) = draft.into_request() {
            self.ctx.record(request)?;
        }
        Ok(())
    }

    /// Finds files named like `glob`: from the one search of every name the readers look for
    /// when `glob` is one of them (the citation is that search), else by a `find_files` call
    /// of its own; `None` when the search failed (noted).
    pub fn find(&self, glob: &str) -> Result<Option<(Invoked, Vec<String>)>, RuntimeError> {
        if !self.globs.iter().any(|g| g == glob) {
            return self.find_alone(glob);
        }
        self.search()?;
        let searched = self.searched.borrow();
        Ok(searched
            .as_ref()
            .and_then(|s| s.as_ref())
            .map(|(inv, paths)| (inv.clone(), named_like(paths.iter().cloned(), glob))))
    }

    /// The folders named like `glob` (one of [`searched_globs`]) that the one search found,
    /// with that search as their citation; `None` when it failed.
    pub fn find_dirs(&self, glob: &str) -> Result<Option<(Invoked, Vec<String>)>, RuntimeError> {
        self.search()?;
        let searched = self.searched.borrow();
        let Some((inv, _)) = searched.as_ref().and_then(|s| s.as_ref()) else {
            return Ok(None);
        };
        let mut dirs = self.searched_dirs.borrow_mut();
        let dirs = dirs.get_or_insert_with(|| crate::outputs::found_dirs(&inv.output.text));
        Ok(Some((inv.clone(), named_like(dirs.iter().cloned(), glob))))
    }

    /// The one search's call, when it ran and succeeded (for artefacts read from its listing:
    /// sizes and times).
    pub fn searched_call(&self) -> Option<Invoked> {
        self.searched
            .borrow()
            .as_ref()
            .and_then(|s| s.as_ref())
            .map(|(inv, _)| inv.clone())
    }

    /// The one search of every name in [`searched_globs`], once per run (the triage makes it
    /// before any artefact, so that no artefact's time limit is spent on it).
    pub fn search(&self) -> Result<(), RuntimeError> {
        let globs = &self.globs;
        if self.searched.borrow().is_none() {
            let limit = FOUND_PER_GLOB * globs.len() as u64;
            let args = json!({"name_globs": globs, "limit": limit});
            let found = crate::calls::call_or_note(
                self.ctx,
                "files named like an iOS artefact",
                "find_files",
                args,
            )?;
            if let Some(inv) = &found {
                crate::calls::note_links(self.ctx, str::to_string, inv)?;
                if inv.output.text.contains("\n# truncated at limit") {
                    self.ctx.unparsed(
                        "files named like an iOS artefact",
                        &format!(
                            "more than {limit} files are named like an iOS artefact; those past the first {limit} were not read"
                        ),
                        Some(&inv.record.invocation_id),
                    )?;
                }
            }
            let found = found.map(|inv| {
                let paths = crate::outputs::found_paths(&inv.output.text);
                (inv, paths)
            });
            *self.searched.borrow_mut() = Some(found);
        }
        Ok(())
    }

    /// Finds files named like `glob` by a `find_files` call of its own.
    fn find_alone(&self, glob: &str) -> Result<Option<(Invoked, Vec<String>)>, RuntimeError> {
        let args = json!({"name_glob": glob, "limit": 1000});
        let Some(inv) = crate::calls::call_or_note(
            self.ctx,
            &format!("files named {glob}"),
            "find_files",
            args,
        )?
        else {
            return Ok(None);
        };
        crate::calls::note_links(self.ctx, str::to_string, &inv)?;
        let paths = crate::outputs::found_paths(&inv.output.text);
        Ok(Some((inv, paths)))
    }

    /// Runs `each(find, path)` for every file named like `glob` (one [`Run::find`]; the `find`
    /// call is the citation of the path facts).
    pub fn each(
        &self,
        glob: &str,
        mut each: impl FnMut(&Invoked, &str) -> Result<(), RuntimeError>,
    ) -> Result<(), RuntimeError> {
        if let Some((find, paths)) = self.find(glob)? {
            for path in &paths {
                each(&find, path)?;
            }
        }
        Ok(())
    }

    /// Runs a query (noting the artefact as unparsed when it fails).
    pub fn query(
        &self,
        path: &str,
        sql: &str,
        limit: u64,
    ) -> Result<Option<(Invoked, Table)>, RuntimeError> {
        crate::calls::query(self.ctx, path, sql, limit)
    }

    /// Reads the rows of `select` (a `SELECT … FROM …` without `WHERE`/`ORDER BY`) in pages
    /// of [`PAGE`] rows ordered by `key` — an integer, or a binary key when the first column is
    /// `quote(key)` — up to [`ROW_CAP`] rows: each page is one
    /// `sqlite_query` call, so a fact cites a short output. `None` when the first page fails
    /// (noted); `truncated` when rows remain after the cap.
    pub fn paged(
        &self,
        path: &str,
        select: &str,
        key: &str,
    ) -> Result<Option<Paged>, RuntimeError> {
        self.paged_with(path, select, key, &[])
    }

    /// [`Run::paged`] with `sqlite_query`'s decoding options set (`plists`: binary property
    /// lists in BLOB cells as `plist:<JSON>`; `protobuf`: messages as `protobuf:<JSON>`).
    pub fn paged_with(
        &self,
        path: &str,
        select: &str,
        key: &str,
        options: &[&str],
    ) -> Result<Option<Paged>, RuntimeError> {
        self.paged_args(path, select, key, &crate::calls::flags(options))
    }

    /// [`Run::paged`] with more of `sqlite_query`'s arguments (`plists` with its `qualify`).
    pub fn paged_args(
        &self,
        path: &str,
        select: &str,
        key: &str,
        options: &serde_json::Map<String, serde_json::Value>,
    ) -> Result<Option<Paged>, RuntimeError> {
        let mut pages: Vec<(Invoked, Table)> = Vec::new();
        let mut got = 0u64;
        let mut after: Option<String> = None;
        loop {
            let filter = after
                .as_ref()
                .map(|a| format!(" WHERE {key} > {a}"))
                .unwrap_or_default();
            let sql = format!("{select}{filter} ORDER BY {key}");
            let limit = PAGE.min(ROW_CAP - got);
            let Some((inv, t)) = crate::calls::query_args(self.ctx, path, &sql, limit, options)?
            else {
                if pages.is_empty() {
                    return Ok(None);
                }
                return Ok(Some(Paged {
                    pages,
                    truncated: false,
                }));
            };
            got += t.rows.len() as u64;
            let more = t.truncated;
            let last = t.rows.last().and_then(|r| r.first().cloned().flatten());
            pages.push((inv, t));
            match (more, last) {
                (true, Some(last)) if got < ROW_CAP && key_literal(&last) => {
                    after = Some(last);
                }
                (more, _) => {
                    return Ok(Some(Paged {
                        pages,
                        truncated: more,
                    }));
                }
            }
        }
    }

    /// The rows of `table` of the database at `path` that only its log, replaced pages or free
    /// space hold ([`crate::recovered::wal_rows`], with `sqlite_wal_history`'s boolean
    /// `options`).
    pub fn wal_rows(
        &self,
        path: &str,
        table: &str,
        options: &[&str],
    ) -> Result<Option<(Invoked, Table)>, RuntimeError> {
        crate::recovered::wal_rows(
            self.ctx,
            path,
            serde_json::json!({"path": path}),
            table,
            options,
        )
    }

    /// The gaps in a table's keys ([`crate::gaps`]) of the database at `path`, recorded
    /// (`sequence`: whether the database has the table keeping the largest key given out).
    pub fn gaps(
        &self,
        find: &Invoked,
        path: &str,
        spec: &crate::gaps::Spec,
        sequence: bool,
    ) -> Result<(), RuntimeError> {
        let sql = crate::gaps::sql(spec, sequence);
        if let Some((inv, t)) = self.query(path, &sql, crate::gaps::GAPS_MAX)? {
            crate::gaps::record(self.ctx, spec, path, path, find, &inv, &t)?;
        }
        Ok(())
    }

    /// The columns of `tables` in the database at `path` (one `sqlite_query` over
    /// `pragma_table_info`); `None` when the database cannot be read (noted as unparsed).
    pub fn schema(&self, path: &str, tables: &[&str]) -> Result<Option<Schema>, RuntimeError> {
        let names = tables
            .iter()
            .map(|t| format!("'{t}'"))
            .collect::<Vec<_>>()
            .join(", ");
        let sql = format!(
            "SELECT m.name AS tbl, p.name AS col FROM sqlite_master m JOIN pragma_table_info(m.name) p \
WHERE m.type = 'table' AND m.name IN ({names}) ORDER BY m.name, p.cid"
        );
        Ok(self.query(path, &sql, 100_000)?.map(|(_, t)| Schema {
            path: path.to_string(),
            cols: crate::outputs::columns_by_table(&t),
        }))
    }
}

/// The tables and columns of one database, as far as the agent asked.
pub struct Schema {
    path: String,
    cols: BTreeMap<String, BTreeSet<String>>,
}

impl Schema {
    /// The columns of `table` (empty when it is absent).
    pub fn columns(&self, table: &str) -> BTreeSet<String> {
        self.cols.get(table).cloned().unwrap_or_default()
    }

    /// `alias.column` when `table` has `column`, else `NULL`: a column a query reads where the
    /// store's version has it.
    pub fn col(&self, alias: &str, table: &str, column: &str) -> String {
        if self.cols.get(table).is_some_and(|c| c.contains(column)) {
            format!("{alias}.{column}")
        } else {
            "NULL".into()
        }
    }

    /// Whether `table` has every `required` column; when not, notes the database as unparsed
    /// ("unexpected schema: …") and answers `false`.
    pub fn require(
        &self,
        run: &Run<'_, '_>,
        table: &str,
        required: &[&str],
    ) -> Result<bool, RuntimeError> {
        let Some(cols) = self.cols.get(table) else {
            run.ctx.unparsed(
                &self.path,
                &format!("unexpected schema: the database has no {table} table"),
                None,
            )?;
            return Ok(false);
        };
        let missing: Vec<&str> = required
            .iter()
            .copied()
            .filter(|c| !cols.contains(*c))
            .collect();
        if !missing.is_empty() {
            run.ctx.unparsed(
                &self.path,
                &format!(
                    "unexpected schema: table {table} lacks {}",
                    missing.join(", ")
                ),
                None,
            )?;
            return Ok(false);
        }
        Ok(true)
    }
}

pub use crate::drafts::Draft;

/// The encoding of an Apple absolute time as stored: nanoseconds since 2001 when the value is
/// that large (`sms.db` since iOS 11), seconds otherwise; `None` for zero, negative or
/// non-numeric values (no time recorded).
pub fn apple_encoding(raw: Option<&str>) -> Option<TimeEncoding> {
    let v: f64 = raw?.trim().parse().ok()?;
    if !v.is_finite() || v <= 0.0 {
        return None;
    }
    Some(if v.abs() >= 1e12 {
        TimeEncoding::AppleNanos
    } else {
        TimeEncoding::AppleSeconds
    })
}

/// A Core Data time (seconds since 2001, possibly fractional).
pub fn core_data_encoding(raw: Option<&str>) -> Option<TimeEncoding> {
    crate::drafts::apple_seconds(raw)
}

pub use crate::outputs::{escape, named_like, raw};

/// The fact type of a handle value (e-mail, phone or other account).
pub fn handle_fact_type(value: &str) -> FactType {
    if value.contains('@') {
        FactType::Email
    } else if value
        .chars()
        .all(|c| c.is_ascii_digit() || " +-().".contains(c))
    {
        FactType::Phone
    } else {
        FactType::Account
    }
}

/// The file name of a path (interpretations of identity observations name the artefact by
/// it: they cite only the query output, which does not hold the full path).
pub fn file_name(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

/// Records the summary phenomenon of an artefact cut at [`ROW_CAP`] rows.
#[allow(clippy::too_many_arguments)]
pub fn summarise(
    run: &Run<'_, '_>,
    category: &'static str,
    path: &str,
    find: &Invoked,
    what: &str,
    sql: &str,
    encoding: fn(Option<&str>) -> Option<TimeEncoding>,
    first_desc: &str,
    last_desc: &str,
) -> Result<(), RuntimeError> {
    let times = (encoding, first_desc, last_desc);
    summarise_after(run, category, path, find, what, sql, times, ROW_CAP)
}

/// [`summarise`] for a Core Data table cut at [`ROW_CAP`] rows: the count of `table` and the
/// first and last of its `column` (Core Data seconds), described by `first` and `last`.
#[allow(clippy::too_many_arguments)]
pub fn summarise_core_data(
    run: &Run<'_, '_>,
    category: &'static str,
    path: &str,
    find: &Invoked,
    what: &str,
    (table, column): (&str, &str),
    first: &str,
    last: &str,
) -> Result<(), RuntimeError> {
    summarise(
        run,
        category,
        path,
        find,
        what,
        &format!(
            "SELECT count(*) AS total, min({column}) AS first_time, max({column}) AS last_time FROM {table}"
        ),
        core_data_encoding,
        first,
        last,
    )
}

/// How a summary's first and last time are read: their encoding, and what each is.
pub type SummaryTimes<'a> = (fn(Option<&str>) -> Option<TimeEncoding>, &'a str, &'a str);

/// [`summarise`] for an artefact cut at `cap` rows (one unpaged query: [`ENTRY_CAP`]); `times`
/// is the encoding of the first and last time and what each is.
#[allow(clippy::too_many_arguments)]
pub fn summarise_after(
    run: &Run<'_, '_>,
    category: &'static str,
    path: &str,
    find: &Invoked,
    what: &str,
    sql: &str,
    times: SummaryTimes<'_>,
    cap: u64,
) -> Result<(), RuntimeError> {
    let (encoding, first_desc, last_desc) = times;
    let Some((inv, t)) = run.query(path, sql, 1)? else {
        return Ok(());
    };
    let Some(row) = t.rows.first() else {
        return Ok(());
    };
    let count = raw(&t, row, "total");
    let first = raw(&t, row, "first_time");
    let last = raw(&t, row, "last_time");
    let mut d = Draft::new(category, format!("{what} in {path} (summary)"));
    d.fact(FactType::Path, Some(path), find);
    d.fact(FactType::Count, count.as_deref(), &inv);
    d.time(
        first.as_deref(),
        encoding(first.as_deref()),
        first_desc,
        &inv,
    );
    d.time(last.as_deref(), encoding(last.as_deref()), last_desc, &inv);
    d.interpretation = format!(
        "{path} holds {} {what}; the first {cap} are recorded one by one, the rest only in this summary (count and the first and last time over all of them).",
        count.as_deref().unwrap_or("?"),
    );
    run.record(d)
}

#[cfg(test)]
mod tests {
    use super::searched_globs;

    /// Every name a reader of this plugin looks for (a literal passed to `run.find`/`run.each`,
    /// or listed in a `for glob in [...]`) is in the one search, but for bare extension globs;
    /// a name left out would still be found, by a walk of its own.
    #[test]
    fn searched_globs_cover_every_reader() {
        let call = regex::Regex::new(r#"(?:run|self)\.(?:find|each)\(\s*"([^"]+)""#).unwrap();
        let list = regex::Regex::new(r#"for glob in \[([^\]]+)\]"#).unwrap();
        let literal = regex::Regex::new(r#""([^"]+)""#).unwrap();
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/ios");
        let globs = searched_globs();
        let mut seen = 0;
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            let text = std::fs::read_to_string(&path).unwrap();
            let mut names: Vec<String> = call
                .captures_iter(&text)
                .map(|c| c[1].to_string())
                .collect();
            for l in list.captures_iter(&text) {
                names.extend(literal.captures_iter(&l[1]).map(|c| c[1].to_string()));
            }
            for n in names {
                seen += 1;
                if n.starts_with("*.") {
                    continue;
                }
                assert!(
                    globs.contains(&n),
                    "{}: {n} is not in ios::SEARCHED",
                    path.display()
                );
            }
        }
        assert!(seen > 50, "the scan found {seen} names");
        // the one search takes them all in one find_files call
        assert!(
            globs.len() <= masf_tools::fs_tools::MAX_GLOBS,
            "{} globs: find_files takes at most {}",
            globs.len(),
            masf_tools::fs_tools::MAX_GLOBS
        );
    }
}
