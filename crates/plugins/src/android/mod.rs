//! The Android plugin: whole-disk images (raw or E01) sniffed `android_disk`.
//!
//! Its triage agent (`android-triage`) uses catalog tools only:
//!
//! 1. `partition_table` and `fs_info`: one phenomenon naming every partition, what it holds
//!    and which are encrypted or unreadable (each of those also noted as unparsed, with why);
//! 2. one `find_files` in every readable file system for all the artefacts below (`name_globs`),
//!    wherever they lie;
//! 3. per artefact, `sqlite_tables` (a truncated or non-SQLite file is noted unparsed here) and
//!    `sqlite_query` / `read_text`, then phenomena and identity observations:
//!
//! | artefact | phenomena | identities |
//! |---|---|---|
//! | `build.prop` | build properties (model, fingerprint, build id, serial) | `device`: serial |
//! | `serial_no` (efs) | the serial number | `device`: serial |
//! | `telephony.db` `siminfo` | one per SIM | `owner`: its number; `device`: ICCID, IMSI |
//! | `accounts.db`, `accounts_ce.db`, `accounts_de.db` | one per account; the Google user id | `owner`: Google account / e-mail / account id |
//! | `contacts2.db` (`data` ⋈ `mimetypes` ⋈ `raw_contacts`) | one per raw contact; its `accounts` rows | `contact:<raw_contact_id>`: name, phones, e-mails; `owner`: Google account |
//! | `calllog.db` `calls` (or `contacts2.db` `calls` before Android 7) | one per call | counterparty (`contact:<id>` when the number is a contact's, else `handle:<number>`); `owner`: `phone_account_address`; `device`: ICCID in `subscription_id` |
//! | `blockednumbers.db` ([`blocked`]) | one per blocked number (as typed and as E.164) | the number on the contact holding it, else `handle:<number>` |
//! | `mmssms.db` `sms`, `threads`; `pdu`, `part`, `addr` ([`mms`]) | one per SMS, one per thread; one per MMS with its addresses, parts and attachments | counterparty as for calls; `wallet:<address>` for wallet addresses in bodies; wallet claims of one-to-one MMS text by direction |
//! | Google Messages `bugle_db` ([`bugle`]) | one per message with its parts (text, type, attachment, size, cached file), one per self participant with a number | `owner`: the self participants' numbers; counterparty as for SMS; wallet claims by direction |
//! | Chromium `Login Data`, `Login Data For Account`, `Web Data`, `Shortcuts`, `Network Action Predictor`, `Cookies`, `Top Sites` ([`crate::chromium_forms`]) | one per saved login, autocomplete value, saved address, payment card, address-bar entry, cookie site, most-visited site | `browser-profile:<dir>`: login user names that are e-mails or phones; `autofill:<guid>`: each address's names, e-mails, phones; `handle:<e-mail>`: who shared a password |
//! | Gboard `gboard_clipboard.db`, `trainingcache2.db`/`trainingcache3.db`, `trainingcachev3.db`; Samsung Keyboard `ClipItem.db`; `user_dict.db` ([`keyboard`]) | one per clip copied (text, HTML, URI, app copied from, user, when; Samsung's deleted clips recovered), per typing event or session (the text typed, app, text box, when), per word added to the user dictionary | — |
//! | Firefox for Android `mozac_downloads_database`, `recently_closed_tabs`, `top_sites`; a Firefox profile's `permissions.sqlite`, `cookies.sqlite` ([`fenix`]) | one per download (file, URL, MIME type, size, status, folder, when), closed tab, top site, site permission (type, allowed or blocked, modified, expiry), cookie host (count, names — never values —, first set, last used) | — |
//! | Google's on-device Timeline `com.google.android.gms/databases/odlh-storage.db` ([`odlh`]) | one per Timeline segment (start, end, type, the place's latitude and longitude from the segment message, shown, finalised, level, id, obfuscated account id), per edited segment | — |
//! | Life360 `DriveBladeDB` ([`life360drives`]) | one per drive (member, speeds, distance, duration, event counts, score, start, end), per drive event (type, position, speed), per waypoint | — |
//! | Roblox `com.roblox.client/files/appData/LocalStorage/appStorage.json`, `files/appData/logs/*_Player_*.log` ([`roblox`]) | one for the account signed in (user id, name, display name, under 13, country, sign-in method and credential, creation, age bracket), per remembered account (signed out), per game joined (place, job, server, session, universe, user id, referral, when) | `owner`: `roblox:<user id>`, user name, display name; `roblox:<user id>` per remembered account |
//! | Microsoft OneDrive `com.microsoft.skydrive/files/QTMetadata.db` ([`crate::onedrive`], shared with iOS) | one per file or folder (name, folder path, size, types, deleted and sharing state, Personal Vault, owner, shared by, hash, position, camera; item, created, modified, accessed, taken, shared, deleted), per drive (account, path, names, synced files, web URLs, last sync), per sharing permission (who, e-mail, role, link, item, expiry), per cached stream | `owner`: `onedrive:<account id>`; `handle:<e-mail>`: who shared an item with the account, whom an item is shared with |
//! | Fitbit `com.fitbit.FitbitMobile/databases/` `activity_db`, `device_database`, `exercise_db`, `heart_rate_db`, `sleep`, `social_db`; Wear OS `user.db`, `passive_stats.db` ([`fitbit`]) | one per activity or exercise (name, durations, distance, steps, calories, heart rate and zones, source, GPS; logged), tracker (name, Bluetooth address, battery, type, last sync), exercise session's GPS track (points, labels, first and last position and time), day's heart rate, sleep, friend, profile, the watch app's account, workout and GPS track | `owner`: `fitbit:<owning user id>`, the watch app's e-mail, `fitbit:<user id>`, name; `fitbit:<encoded id>` per friend and profile; `bluetooth:<address>` per tracker |
//! | Chromium `Media History`, `DIPS` of a profile folder ([`crate::chromium_activity`]) | one per media playback, media session (title, artist, album, position of duration), media site (watch time, engagement), DIPS site (first and last interaction, storage, bounces), DIPS pop-up | — |
//! | Facebook Messenger `msys_database_<uid>` ([`crate::messenger`]) | one per contact, message (attachments, reactions), call | `facebook:<id>` persons (Facebook id, user name, name, e-mail, phone); `owner`: the contact whose id names the store; wallet claims of a message's writer |
//! | Instagram `direct.db` ([`instagram`]) | the signed-in account; one per thread (title, users), per message (text, reel reply, action, link) | `instagram:<pk>` persons (pk, user name, full name); `owner`: the session's account; wallet claims of a message's writer |
//! | TikTok and Douyin `<uid>_im.db`, `db_im_xx`, `db_im_contact` ([`tiktok`]) | the account; one per user, per message (text, GIF/link) | `tiktok:<uid>` / `douyin:<uid>` persons (uid, @handle, nickname); `owner`: the uid the store is named after; wallet claims of a message's writer |
//! | Google Maps `da_destination_history` ([`maps`]) | one per navigation destination (time, title, address, destination and start in degrees and as stored) | — |
//! | Kik `kikCoreDatabase.db`, `[<core id>.]kikDatabase.db` ([`kik`]) | the account; one per user or group, per group's members, per message (attachments) | `kik:<JID>` persons (JID, user name, display and local name); `owner`: the core table's user name; wallet claims of a message's writer |
//! | GroupMe `com.groupme.android/databases/groupme.db` ([`groupme`]) | one per group (creator, counters, times), per group's member list, per message (sender, text, attachments, location, deletion) | `groupme:<user id>` persons (the id iOS's `GroupMe.sqlite` keeps; names, nickname) |
//! | Truecaller `com.truecaller/databases/tc.db`, `insights.db`, `calling-cache.db` ([`truecaller`]) | one per call-history row (number, cached name, codes), cached directory contact (names, numbers, company, spam), messaging peer, classified SMS sender, call lookup | `truecaller:<raw_contact id>` and `truecaller-im:<peer id>` persons (numbers, the directory's names, said to be crowd-sourced); call parties as `handle:` |
//! | TextNow `com.enflick.android.TextNow/databases/textnow_data.db` ([`textnow`]) | one per contact, message (direction, text, attachment, group members), call (start, direction, ALEAPP's computed end) | `textnow:<value>` persons (number or handle, name); message and call parties by number; wallet claims by direction |
//! | Google Duo / Meet `com.google.android.apps.tachyon/databases/tachyon.db` ([`duo`]) | one per call, note or reaction (users, direction, state), per note message (sender, recipient, file, size, times), per known user | `owner`: the local user's number; `duo:<user id>` persons (number or e-mail, name); call parties by number |
//! | Microsoft Teams `com.microsoft.teams/databases/SkypeTeams.db` ([`teams`]) | one per message (sender name and MRI, content, conversation and topic, arrival/compose/delete times), per cached user (names, e-mails, numbers, flags), per call log (originator, target, direction, state, connect/end), per activity-feed entry, per file reference | `teams:<MRI>` persons (e-mails, numbers, names) |
//! | Discord `com.discord/files/kv-storage/@account.<id>/a` ([`crate::discord`], shared with iOS) | one per cached message (author, channel, content, type, attachments, embeds, mentions, sent/edited/call-ended times, direction by the folder's account) | `discord:<user id>` persons with `discord-username:<name>`; `owner`: the folder's account as author |
//! | Google Chat `dynamite.db` (Gmail's `user_accounts/<e-mail>/` or Chat's databases; [`crate::gchat`], shared with iOS) | one per message (creator, conversation, text, attachment, meeting, reaction), per conversation, draft and user | `gchat:<user id>` persons (Google account id, e-mail, name); `owner`: the user of the folder's e-mail |
//! | Tinder `com.tinder/databases/tinder-3.db` ([`tinder`]) | one per message (sender, recipient, text, content type, direction), per match (the matched person's profile, photo URLs, flags), per inbox message from Tinder, the account's last activity | `tinder:<user id>` persons (the id iOS's Tinder keeps); `owner`: the one sender of messages sent to matches |
//! | Bumble `com.bumble.app/databases/ChatComDatabase` ([`bumble`]) | one per message (direction, sender, recipient, text and URL of the JSON payload), per match (name, age, gender, mode, image URL) | `bumble:<user id>` persons (the id iOS's Bumble keeps); `owner`: the one sender of outgoing messages |
//! | K-9 Mail / Thunderbird `com.fsck.k9`, `net.thunderbird.android` `databases/preferences_storage` and `<account uuid>.db` ([`k9mail`]) | one per account (address, name, servers, user names, last sync; a stored password said, not copied), per e-mail (dates, address lists, subject, preview, text, header, folder, flags) | `owner`: the accounts' addresses and names; `handle:<address>` persons for every other address |
//! | Kijiji `com.ebay.kijiji.ca` `databases/messageBoxDatabase` and `shared_prefs/LoginData.xml` ([`kijiji`]) | one per message (conversation, ad id and title, counterparty id and name, sender, state, text, time), the signed-in user (e-mail, display name, eBay user id, logged in) | `kijiji:<id>` counterparties (the id iOS's Kijiji keeps); `owner`: the user's e-mail, name, `kijiji:<eBay user id>` |
//! | LinkedIn `com.linkedin.android` `shared_prefs/linkedInPrefsName.xml` and `databases/messenger-sdk*` ([`linkedin`]) | the signed-in member (member id, e-mail, names, headline, public identifier, last login), one per message (sender, subject, text, conversation label, delivery, status), per participant | `linkedin:<public identifier>` persons (the id iOS's LinkedIn keeps); `owner`: the participant at distance SELF, the preferences' e-mail and name |
//! | Burner `com.adhoclabs.burner/databases/burnerDatabase.db` and `burners.db` ([`burner`]) | one per Burner number (created, number, name, auto-reply, allotments, expiry), per text and call (time, direction, other party's number and name, text, attachment URL, duration), per contact, per subscription | `owner`: each Burner number (a phone); the other parties by number |
//! | Wire `com.wire` `databases/<user id>` (legacy), `databases/user-db-…` (SQLCipher), Proteus session files ([`wire`]) | every user (id, name, handle, e-mail, phone, connection), client (label, model, verification, registered), message (time, type, text, asset, call duration, sender, conversation, likes) and deletion; the encrypted store noted; one per Proteus session (the other party's user id, domain, client) | `wire:<user id>` persons (`wire:@<handle>`, name, e-mail, phone; the id iOS's Wire keeps); `owner`: the `self` user |
//! | ChatGPT `com.openai.chatgpt` `databases/*conversations.db`, `files/datastore/*_user.preferences_pb` ([`chatgpt`]) | one per conversation, per message (`DBMessage.messageNode` or the `DBMessageChunk` chunks joined in order: role, text, model, flags, times), the account (user id, e-mail, name) | `owner`: the account's e-mail (the one iOS's ChatGPT keeps); the user's prompts' wallet claims |
//! | DeepSeek `com.deepseek.chat` `databases/deepseek_chat.db`, `deepseek_chat_*.db` ([`deepseek`]) | the account (user id, e-mail, mobile; a token said, never copied), one per chat (title, updated), per message of each `chat_session_messages_<chat>` table (role, text, time) | `owner`: the account's e-mail and mobile number; the user's prompts' wallet claims |
//! | Claude `com.anthropic.claude` `databases/acc_*_claude_cache.db`, `cache/app_start/acc_*/org_*/cache.json` ([`claude`]) | one per conversation, message (sender, text, file, time) and project; the account (names, e-mail) | `owner`: the account's e-mail and names ([`crate::claude`], shared with iOS); the user's prompts' wallet claims |
//! | Life360 `com.life360.android.safetymapd` `MembersEngineRoomDatabase`, `messaging.db`, `L360LocalStoreRoomDatabase`, `L360EventStore.db`, `com.amplitude.api` ([`life360`]) | one per circle member (names, login e-mail and phone, role, circle), message (sender, text, flags, shared location), saved place, place alert, recorded position (coordinates, accuracy, battery, Wi-Fi), and the analytics keys | `life360:<member id>` persons with their e-mails and phones; `owner`: the analytics store's `user_id` |
//! | TeleGuard `ch.swisscows.messenger.teleguardapp/app_flutter/teleguard_database.db`, `teleguard_temp.db` ([`crate::teleguard`], shared with iOS) | the account, one per message, call and chat event, contact, channel, post and draft | `teleguard:<server id>` persons (the id iOS's TeleGuard keeps); `owner`: the account's server id, alias, phone |
//! | MeWe `com.mewe` `databases/app_database` or `app_v3.db`, `shared_prefs/SGSession.xml` ([`mewe`]) | one per chat message (sender, user id, thread, text, attachment, deleted), participant, post, comment, post media item, poll option, reaction, group, page, community; the session's preferences | `mewe:<user id>` senders (the id iOS's MeWe keeps); `owner`: the one sender of the user's messages |
//! | Zangi `com.beint.zangi` `databases/*.db` (found by listing the app's folder) ([`zangi`]) | one per message (time, direction, chat, ids, text, attachment, sender's and recipient's numbers and names) | `zangi:<number>` persons (the id iOS's Zangi keeps); `owner`: the one sender of outgoing messages |
//! | Proton Mail `ch.protonmail.android` `databases/*.db` and `databases/db-mail` (found by listing the app's folder) ([`crate::protonmail`], shared with iOS) | the accounts, users and addresses, one per e-mail (every address and name of its lists, subject, conversation, folders, flags), per attachment (the app's decrypted cached copy, or where the user saved it), per contact address, of the current store, `db-mail` and the first app's `*-MessagesDatabase.db` / `*-ContactsDatabase.db` | `proton:<user id>` (the id iOS's Proton Mail keeps); `owner`: the account's addresses, names and login; correspondents `handle:<address>` |
//! | Bluesky `xyz.blueskyweb.app` `databases/RKStorage` and `cache/http-cache/` (found by listing the app's folder) ([`bluesky`]) | the signed-in accounts and the app's settings (`BSKY_STORAGE`), the searches; from the cached API answers every profile, conversation, direct message (text, sender, conversation, links, reactions, direction) and post (author, text, languages, counts, reply and embed) | `bluesky:<DID>` persons (`bluesky-handle:<handle>`, display name); `owner`: the signed-in accounts (DID, handle, e-mail) |
//! | Hinge `co.hinge.app` `databases/db` (found by listing the app's folder) ([`hinge`]) | the account holder's profile (every selected choice) and the place it is set to, match preferences, one per cached profile, per photo or video, per prompt answer, per queued in-app event, per match or chat row (every column) | `hinge:<user id>` persons (first name); `owner`: the account's e-mail and first name |
//! | Mastodon `org.joinmastodon.android` `databases/<instance>_<id>.db`, `files/accounts.json`, `files/instance*.json` (found by listing the app's folder) ([`mastodon`]) | the signed-in accounts, instances, one per recent search, per notification, per home-timeline status (a direct one as a message) | `mastodon:user@domain` persons (display name); `owner`: the account's handle (from its own statuses and notifications in the cache) and display name |
//! | Threads `com.instagram.barcelona` `shared_prefs/com.instagram.barcelona_preferences.xml`, `autobackupprefs.xml`, `*_USER_PREFERENCES.xml`, `databases/time_in_app_<id>.db`, `barcelona_feed_items_room_db_<id>` (found by listing the app's folder) ([`threads`]) | one per account the app recorded, per foreground interval, per post of the feed store | `instagram:<id>` persons (a Threads account is an Instagram account; user name, full name); `owner`: the current and last seen accounts |
//! | Tusky `com.keylesspalace.tusky` `databases/tuskyDB` ([`tusky`]) | the signed-in accounts, one per timeline account, per status (a direct one as a message), per direct conversation, per notification | `mastodon:user@domain` persons (as the Mastodon readers name them; display name); `owner`: the signed-in accounts |
//! | Outlook `com.microsoft.office.outlook` `shared_prefs/com.microsoft.oneauth.accounts.xml`, `versions.xml`, `acompli_prefs.xml`, `com.microsoft.office.outlook_preferences.xml` (found by listing the app's folder) ([`outlook`]) | one per OneAuth account (e-mail, names, phone, birthday, ids, token claims and times), the installation, the settings | `owner`: the accounts' e-mail addresses, phone numbers, display names |
//! | SimpleX Chat `chat.simplex.app` `files/files_chat.db` (SQLCipher 4, read with the passphrase of the extraction's `Secrets/secrets.json`) ([`simplex`]) | the user's profiles, one per contact, per chat item, per file transfer, per earlier version of an edited item, per reaction | `simplex:<address>` persons (display name); `owner`: the user's own SimpleX address and display name |
//! | Digital Wellbeing `com.google.android.apps.wellbeing/files/AccountData.pb` ([`wellbeing`], `read_protobuf`) | the account data: every text with its field path | `owner`: the e-mail addresses (Google account) |
//! | Samsung Notes `com.samsung.android.app.notes/databases/sdoc.db` ([`samsungnotes`]) | one per note: title, text, created, modified, first/second/last opened, recycle bin and since when, its file | `owner`: wallet and amount claims in the text |
//! | Google Call Screen `com.google.android.dialer/databases/callscreen_transcripts` ([`callscreen`]) | one per screened call: id, modified, recording, every utterance (time, text; the conversation protobuf decoded by `sqlite_query`) | — |
//! | Gmail `com.google.android.gm/shared_prefs/Gmail.xml`, `databases/EmailProvider.db` ([`gmail`]) | the active account (`active-account`); one per account of another provider added to the app (address, shown and sender name, incoming and outgoing server: protocol, host, port, login, flags; never the password or OAuth tokens); one per message of those accounts (sender, to, cc, bcc, reply-to, subject, snippet, folder and its type, attachments' names, MIME types and sizes, flags, Message-ID, when) | `owner`: the active account (Google account, else e-mail), each added account's address and sender name; `handle:<address>` persons: every other address of a message |
//! | Intercom SDK `shared_prefs/INTERCOM_SDK_USER_PREFS.xml`, `INTERCOM_DEDUPER_PREFS.xml` of any app ([`intercom`]) | one per app: the user id, e-mail, name and every attribute the app gave the SDK (Grok's `xUsername`) | `owner`: the e-mail addresses, name, X user name |
//! | ROMEO `com.planetromeo.android.app` `databases/planetromeo-room.db`, `accounts.db` ([`romeo`]) | one per message (chat partner, text, status, images), per contact (profile fetched), the account | `romeo:<profile id>` persons (user name); `owner`: the account's id, user name, e-mail |
//! | Reddit `com.reddit.frontpage` `databases/reddit_db_*`, `matrix_auth`, `matrix-users-db`, `matrix_session_*` (found by listing the app's folder) ([`reddit`]) | the account, cached communities, the chat session, cached users, one per chat event (message, reaction, deletion, membership: sender, body, media, room, direction), per room and per member | `reddit:t2_<id>` persons (`reddit-user:<name>`, display name); `owner`: the account (id, name, e-mail) and the chat session's user |
//! | FairEmail `eu.faircode.email/databases/fairemail` ([`fairemail`]) | one per account identity (addresses, names, signature, server, user; a stored password said, not copied), per contact (address, name, times and dates contacted), per e-mail (every address and name of each list, return path, subject, preview, folder, seen, attachments, dates) | `owner`: the identities' addresses and names; `handle:<address>` persons for contacts and correspondents |
//! | Badoo `com.badoo.mobile/databases/ChatComDatabase` and `CombinedConnectionsDatabase` ([`bumble`]: the same chat platform) | one per message (sender, recipient, text, URL, question-game answers), per match (name, age, gender, photo URLs, work, education), per connection (name, gender, origin, sort time, avatar, last message shown) | `badoo:<user id>` and `badoo:<encrypted id>` persons; `owner` where the store keeps `is_incoming` |
//! | Session `network.loki.messenger` ([`session`]) | the account (Account ID, profile name, avatar, registration id, times) and every other preference; the SQLCipher stores detected | `owner`: `session:<Account ID>`, the profile name |
//! | Skout `com.skout.android/databases/skoutDatabase` ([`skout`]) | one per message (sender, text, type, picture and gift URLs, thread), per cached user | `skout:<user id>` persons; `owner`: the one sender without a cached user row |
//! | MeetMe `com.myyearbook.m/databases/chats.db` ([`meetme`]) | one per message (sender, names, body, type, attachment path, thread) | `meetme:<member id>` senders |
//! | Slack `com.Slack/databases/account_manager`, `org_<team id>` ([`slack`]) | the account (never its tokens); one per cached member, conversation, message or thread reply, shared file | `owner`: `slack:<user id>`, e-mail; `slack:<user id>` persons (e-mail, phone, names) |
//! | Snapchat `com.snapchat.android/databases/main.db`, `arroyo.db` ([`snapchat`]) | one per friend, per chat message (sender, conversation, text from the protobuf, flags, times) | `snapchat:<user id>` persons (`snapchat-username:<name>`, display name, phone); `owner`: the one sender of messages created on the device; wallet claims by direction |
//! | Cash App `com.squareup.cash/databases/cash_money.db` ([`cashapp`]) | one per payment (time, amount, currency, state, note, role, both parties) | `cashapp:<customer id>` persons (`cashtag:<name>`, display name); `owner`: the side `role` names; wallet claims of a note's writer |
//! | imo `com.imo.android.imo*/databases/accountdb.db`, `imofriends.db` ([`imo`]) | the account; one per buddy and message (partner, direction as ALEAPP reads `message_type`, text, attachment path, read) | `imo:<buid>` persons (the id iOS's `IMODb2.sqlite` keeps, name); `owner`: `imo:<uid>` of `accountdb.db`; wallet claims of a message's writer |
//! | Skype `com.skype.raider/databases/live:<account>` ([`skype`]) | the account; one per contact, group, message and call | `skype:<id>` persons (Skype id, name); `owner`: the account the store is named after; wallet claims of a message's writer |
//! | Zapya `transfer20.db` ([`zapya`]) | one per phone-to-phone transfer (other device, file, time, direction as stored) | — |
//! | SHAREit `history.db`, Xender `trans-history-db` ([`transfers`]) | one per phone-to-phone transfer (other device's id and name, sender and recipient, file, size, time, direction as stored, session); one per device Xender met (id, nickname, connections) | — |
//! | Facebook `threads_db2` and `threads_db2-uid` ([`fbthreads`]; Messenger and the Facebook app before msys) | the signed-in id; one per user, message (attachments, shares, coordinates, reactions), call | `facebook:<id>` persons (Facebook id, user name, name; a `PHONE_NUMBER:` key's phone); `owner`: the user the uid file names; wallet claims of a message's writer |
//! | WhatsApp `msgstore.db` (unencrypted), `wa.db`, `com.whatsapp_preferences_light.xml` ([`whatsapp`]) | one per message (media, location, quote, group sender), call, group (creator, participants with rank), contact; the account | `handle:<jid>`: JID, number, names; `owner`: the account's number and push name; wallet claims by direction |
//! | WhatsApp `msgstore.db` add-ons ([`whatsappextra`]) | one per reaction (emoji, direction, reacting member, chat, the reacted-to message's key and text, when), edited message (key, original key, text now, edited), message deleted for everyone (revoked key, admin, when), poll (question, options with vote totals, selectable count, closes), per-recipient receipt (delivered, read, played), system event (action type as stored, participants, old and new JID of a number change, prior value) | `handle:<jid>`: reacting members, receipt recipients, deleting admins; a number change's old and new JID on one person |
//! | `packages.list` | the installed packages | — |
//! | `users/<id>.xml` ([`users`], plain XML or ABX) | one per user (name, type, flags, created, last logged in) | `owner`: user 0's name (display name); `android-user:<id>`: another user's |
//! | `recent_tasks/<id>_task.xml` ([`recents`], plain XML or ABX) | one per task in the overview screen (activity, app, caller, uid, first/last active, last moved) | — |
//! | `system_ce/<user>/notification_history/history/<time>` ([`notifications`], AOSP's `NotificationHistoryProto` via `read_protobuf`) | one per notification of the history (app, channel name and id, uid, user, posted, title, text, icon, conversation; pooled strings resolved) | — |
//! | Play services' push-message queue `com.google.android.gms/files/fcm_queued_messages.ldb` ([`fcm`], LevelDB via `leveldb_records`, values decoded as Protocol Buffers) | one per queued Firebase Cloud Messaging message (the app's package, every payload key and value — a notification's title and text —, sender project, message and persistent ids, registration, collapse key, user, time to live, queued in Unix µs from the key, sent, delivered or still queued) | — |
//! | `misc/bootstat/factory_reset`, `last_boot_time_utc`, `system/shutdown-checkpoints/checkpoints-<n>`, `property/persistent_properties`, Samsung's `efs/recovery/history` and `log/recovery_history.log` ([`lifecycle`]) | one per bootstat record (its value, the file's modification time: last factory reset, last boot), one per shutdown or reboot request (who asked, Unix ms, the calling process or intent), the properties kept across boots, one per boot reason (reason, Unix seconds), one per boot into Samsung's recovery (factory reset with who asked — Find My Mobile, Find My Device, Settings —, firmware update, locale, reboot reason, local time, requested time) | — |
//! | Samsung weather widget `com.sec.android.daemonapp/databases/WeatherClock` ([`weatherclock`]) | one per `TABLE_WEATHER_INFO` row (city, state, country, time zone, conditions, provider, every other `COL_WEATHER_*` column, observed, updated, sunrise and sunset in Unix ms) | — |
//! | Google Fit `com.google.android.gms/databases/fitness.db.<account>` ([`fit`]) | one per `Sessions` row (start, end, activity named, contributing app, name, description) | `owner`: the account the store is named after |
//! | Android Auto `com.google.android.projection.gearhead/databases/carservicedata.db` ([`auto`]) | one per `allowedcars` row (manufacturer, model, year, head unit make, model and software, vehicle client id, Bluetooth address, Wi-Fi SSID and BSSID, connected in Unix ms; whether a Wi-Fi password is stored, never the password) | `bluetooth:<address>` the car by its Bluetooth address |
//! | Unknown tracker alerts `com.google.android.gms/databases/personalsafety_db` ([`trackers`]) | one per `DeviceData` alert (address, type, other data, life cycle id, status, created and updated in Unix ms) and one per `Scan` sighting (address, state, signal strength and the phone's position from the `blescan` and `locationScan` messages, times) | — (a tracker's address rotates) |
//! | Samsung's trash `com.samsung.android.providers.trash/databases/trash.db`, My Files `com.sec.android.app.myfiles/databases/myfiles.db`, `FileInfo.db`, `OperationHistory.db` ([`samsungfiles`]) | one per file in the trash (deleted and expiry in Unix ms, original path, the copy's path, names, size, MIME type, the app it was deleted from, user, extra), per recent file of My Files (recent and modified in Unix ms, name, path, size, extension, source, description, id, app, downloaded, hidden, trashed), per My Files operation (type, the item path as stored and the older releases' obfuscated path decoded, items, folders, page, result, when) and per item of one (source and destination paths and file ids) | — |
//! | Samsung's system stores: Secure Folder `com.samsung.knox.securefolder/databases/history_log_database`, Privacy Dashboard `com.samsung.android.privacydashboard/databases/permission_db`, `com.samsung.android.providers.context/databases/ContextLog.db`, `data/system/wifigeofence.db` and `WifiConfigStore.db`, `com.samsung.android.mcfds/databases/SleepDetection.db`, `com.sec.android.provider.badge/databases/badge.db` ([`samsung`]) | one per Secure Folder history entry (message, tag, the Android users from and to, into or out of the Secure Folder, local time), per permission access (app, permission group, operation code, background, proxy, uid, when), per app session (app, activity, duration, start, stop) and install or removal, per Wi-Fi geofence (configuration key, SSID, security, BSSID, the position ALEAPP chooses and its source, times), per saved network (key, SSID, security, score, flags, created), per screen change and detected sleep, per app badge (package, activity, count, hidden) | — |
//! | Google Cast `com.google.android.gms/databases/cast.db` ([`cast`]) | one per `DeviceInfo` receiver (name, model, device and cloud ids, version, capabilities, metrics id, service instance, address, port, criteria, notification status, hotspot BSSID, last published, discovered and discovered over BLE in Unix ms) | — |
//! | LibreTorrent, BitLord `libretorrent.db` ([`torrent`]) | one per `Torrent` (name, info hash, download folder, magnet, added in Unix ms, error, paused, fetching metadata, visibility) | — |
//! | DuckDuckGo `com.duckduckgo.mobile.android/databases/history.db`, `app.db` ([`duckduckgo`]) | one per visit (URL, title, search or page, query, local time) and one per open tab (tab id, URL, title, preview file, selected, last accessed) | — |
//! | Ookla Speedtest `org.zwanoo.android.speedtest/databases/speedtest` ([`speedtest`]) | one per `UnivSpeedTestResult` (time, connection type, SSID, latitude, longitude, external and internal IP, speeds) and one per `REPORT` with a position or Wi-Fi scan (time, latitude, longitude, altitude, accuracy, each network's BSSID, SSID, level) | — |
//! | The telephony provider's backup `com.android.providers.telephony/d_f/*sms_backup`, `*mms_backup` ([`smsbackup`], zlib-compressed JSON inflated by `read_json`) | one per SMS (address, body, type, read, status, recipients, date, date sent) and per MMS (recipients, addresses, text, subject, box, read, transaction, date, date sent) | each address the other party (the contact holding the number, else `handle:<number>`) |
//! | Twitch `tv.twitch.android.app/shared_prefs/user.xml`, `twitch_user_prefs.xml` ([`twitch`], through [`prefsaccount`]) | one for the account (login, display name, e-mail, user id, type, verified, two-factor, partner, affiliate, Turbo, avatar, created) | `owner`: the e-mail, login, display name |
//! | Pinterest `com.pinterest/shared_prefs/pinterest.xml` (`PREF_MY_USER`) ([`pinterest`]) | one for the account (id, user name, name, e-mail, country, gender, age, birthday, counts, privacy, connected accounts) | `owner`: the e-mail, user name, name |
//! | NQ Vault `Android/data/com.netqin.ps/files/Documents/SystemAndroid/Data/322w465ay423xy11` ([`nqvault`]) | one per hidden picture or video (original path and name, vault path, when hidden, length, resolution, album, the PIN's hash) | — |
//! | Kleinanzeigen `com.ebay.kleinanzeigen` `messageBoxDatabase.db`, preferences ([`kleinanzeigen`]) | one for the account (name, e-mails, user id, phone, type, registered, saved location), per message (text, direction, state, when, counterparty, ad) | `owner`: the account's e-mails, phone, name; `kleinanzeigen:<id>`: each counterparty with their name |
//! | Ryanair `com.ryanair.cheapflights/databases/fr-local-db` ([`ryanair`]) | one per profile (names, e-mail, phone, birth date, nationality, member since …), per booked flight (number, origin, destination, departure, arrival, check-in, record locator, status, balance), per passenger (names, type, check-in) | `owner`: the profile's e-mail, phone, name |
//! | Yahoo Mail `com.yahoo.mobile.client.android.mail/databases/flux_database.db` ([`yahoomail`]) | one per account (e-mail, name, id, domain), per cached e-mail (date, sync, from, to, cc, bcc, reply-to, subject, snippet, read, flagged, folder, HTML body, conversation, ids) | `owner`: each account's e-mail; `handle:<address>`: every other address |
//! | Google Tasks `com.google.android.apps.tasks/files/tasks-<account>/data.db` ([`googletasks`]) | one per task (title, details, time zone, created, modified, completed from the `EffectiveTask` message; ids, flags, due date as stored), per list (id, task count, the texts of its message) | `owner`: the folder's account when it is an e-mail address |
//! | Todoist `com.todoist/databases/database.db` ([`todoist`]) | one per project (name, colour, view, type, shared, favourite …), per task (text, description, project, labels, added by, assigned to, due date, due string, recurring, priority, completed, added), per comment (text, task, poster, attached file, posted), per collaborator (user id, e-mail, name, time zone) | `todoist:<user id>`: each collaborator with their e-mail and name |
//! | Vault apps: GalleryVault `com.thinkyeah.galleryvault/databases/galleryvault.db`, HideX `com.flatfish.cal.privacy/databases/hidex.db`, Vaulty `com.theronrogers.vaultyfree/databases/media.db` and its preferences, Calculator Lock `com.calculator.lock.hide.photo.video/databases/note_contact.db` ([`vaults`]) | one per hidden file (original path and name, where the vault keeps it, when hidden, type, size, folder, recycled), per GalleryVault break-in attempt (code entered, intruder photo, position, when), per app HideX locks, Vaulty's settings (Drive account, security question, PIN hash), per Calculator Lock note, contact, deletion and browser visit | `owner`: Vaulty's Drive account; `calculatorlock:<id>`: each hidden contact by number and name |
//! | Knuddels `com.knuddels.android/databases/knuddels<nickname>` ([`knuddels`]) | one per user (nickname, user id, internal id, age, sex and friend-list type as stored, online status, distance, last active), per message (text, time, sender, chat, participants, snap expired; snaps and GIFs said by their markers) | `owner`: the user the store is named after (nickname, `knuddels:<uid>`); `knuddels:<uid>` (else `knuddels-nick:<nickname>`) persons with their nicknames; wallet claims by direction |
//! | Chess.com `com.chess` `databases/chess-database`, `shared_prefs/com.chess.app.session_preferences.xml`, `com.chess.app.login_credentials.xml` ([`chesscom`]) | the account (user name, e-mail, member since), the saved sign-in (a password said, never copied); one per friend (user name, names, last login), daily game (players, friend flag, result, first and last move), message (text, sender, conversation, its other senders; direction by the session's user name) | `owner`: the session's e-mail and `chesscom:<user name>`, the saved sign-in's; `chesscom:<user name>` persons: friends, opponents, correspondents; wallet claims by direction |
//! | Netflix `com.netflix.mediaclient/databases/appHistory`, `OfflineDb` ([`netflix`]) | one per play event (playable id, playback session, event type, network, offline, duration, when), stream record (stream id, bytes, IP address and location id as stored, network type, buffering, when), profile (id, name, kids, avatar), resume position (playable id, title where downloaded, position, profile, updated), download (title, season, episode, genres, actors, quality, profile, expiry) | — (profile names and ids are facts) |
//! | Disney+ `com.disney.disneyplus/databases/db_offline_bookmarks`, `shared_prefs/default.xml`, `shared_prefs/RecentSearchSharedPref.xml` ([`disneyplus`]) | one per resume point (content id, profile id, playhead, runtime, caption settings, saved), per last-played key (content, media and series ids, when), per search kept (term, content id, profile id) | — (profile ids are facts) |
//! | Prime Video `com.amazon.avod.thirdpartyclient/files/databases/dbplaybackhistory`, `bookmark` ([`primevideo`]) | one per title played (title id, content type, title, series, season, episode, watched position, runtime, credits start, rating, profile id, account id, frame URL, last played), per resume point (title id, position, timecode type, profile id, account id, saved) | — (account and profile ids are facts) |
//! | NordVPN `com.nordvpn.android/databases/Moose.db`, `Settings.db` ([`nordvpn`]) | the state last recorded (logged in, on VPN, server city, country, domain, IP address, group, protocol, technology, ISP and ASN, network type and interface, kill switch and other preferences, cached, token renewed), one per queued analytics event (name, category, group, local time, on VPN, ISP, ASN, device country, network type, fingerprint, body, when), per settings row (auto-connect and its exceptions, preferred technology and protocols, preferred location, custom DNS, multi-factor status) | — |
//! | Proton VPN `ch.protonvpn.android/shared_prefs/ServerListUpdater.xml`, `log/Data*.log` ([`protonvpn`]) | the last known network (public IP address, ISP, country, netzone, server counts, checked, server list updated and modified), one per connection event of the log (requested, connecting to a server with its entry IP, connected, disconnection, server switch; the line's UTC time) | — |
//! | Google Drive `com.google.android.apps.docs/app_cello/<account>/cello.db` ([`crate::googledrive`], shared with iOS) | the account (folder, id, e-mail, name, root folder); one per file or folder (title, id, folder path, MIME type, size, owned, starred, trashed, hidden, offline status; created, modified, modified by me, viewed by me, shared with me, trashed) | `owner`: the folder's e-mail, the account message's id, e-mail and name |
//! | Nike Run Club `com.nike.plusgps/databases/com.nike.nrc.room…`, `ns_inbox.db` ([`nike`]) | one per activity (id, platform and app id, type, deleted, active duration; tags: name, location, temperature, weather, app version; summary: distance, calories, steps, ascent, descent, speed, pace, cadence, heart rate; moments, pauses, GPS losses; start, end, modified), per route (points, first and last position decoded from the encoded polyline in the query), per inbox notification (sender ids, type, message, read, deleted; when) | — |
//! | Adidas Running (Runtastic) `com.runtastic.android/databases/` `db`, `user.db`, `goals` ([`runtastic`]) | one per session (sample and user id, sport type, distance, run time, speeds, calories, temperature, humidity, note, pulse, elevations — the app's no-value sentinels dropped; start, end), per route (points, first and last position decoded from the encoded trace in the query), the account (user id, names, e-mail, gender, height, weight, country, avatar, connected services; created, last sync), per goal | `owner`: the account's e-mail, `runtastic:<user id>`, name; the sessions' one user id |
//! | AllTrails `com.alltrails.alltrails/databases/alltrails` ([`alltrails`]) | one per user (user name, names, remote id, e-mail, the recorded place, pro, counts, connections, referral link), per map and line (name, user, type, activity, privacy, distance, elevations, speed, moving and total time; created, started, ended), per track (points, segments, first and last position and time), per map or trail photo (local path, title, description, map, the place's coordinates and names; created), per list | `owner`: the account's e-mail, `alltrails:<remote id>`, user name, name (the only user, or the one the recorded maps belong to); `alltrails:<remote id>` per other user |
//! | Zepp Life (Mi Fit) `com.xiaomi.hm.health/databases/origin_db`, `origin_db_<n>` ([`zepplife`]) | one per day (UTC) of `HEART_RATE` samples (samples, readings, lowest, average and highest; first and last sample) | — |
//! | Withings Health Mate `com.withings.wiscale2/databases/Withings-WiScale`, `room-healthmate` ([`withings`]) | one per user (ids, names, e-mail, gender, birth, created), per device (Bluetooth address, firmware, the position recorded for it, battery, type, model, name; associated, last used), per measurement group (its measures as `type=value`; taken), per day of activity (steps, distance, calories, heart rate, SpO2), per tracked activity (category, device, data, the GPS points recorded during it with the first and last position), per day of GPS points (count, first and last position and time), per leaderboard entry; never the device's `klSecret` | `owner`: the one user with an e-mail (e-mail, `withings:<id>`, name); `withings:<id>` per other user and leaderboard entry; `bluetooth:<address>` per device |
//! | Google Maps `files/new_recent_history_cache_search`, `…_navigated`, `new_recent_history_cache`, `saved_directions.data` (`.cs`, or the older layout without it) ([`mapscaches`], `read_protobuf` with `doubles`) | one per recent search, per navigation started (text, further texts, coordinates in degrees, URL, time), the last trip (its waypoints in order: name or text, coordinates, address lines; two times) | — |
//! | Weibo `com.sina.weibo/databases/feed_database`, `ArticleDb.db`, `sina_weibo` ([`weibo`]) | one per post cached for the timeline (text, author's screen name and id, location, verified, posted from, likes, comments, reposts, image ids, topics, post id and short id, the account it is filed under, created — `Wed May 21 11:00:20 +0800 2025` turned into ISO 8601 in the query), per long post (full text, topics, page title and URLs as stored, paid, account), per post image (post and picture ids, URLs per size, local path), per account the rows are filed under | `owner`: `weibo:<uid>` of the rows; `weibo:<user id>` per post author with the screen name |
//! | Xiaohongshu (RED) `com.xingin.xhs/databases/PlayHistoryRecordDB`, `msgDB`, `localRelationDB` ([`xiaohongshu`]) | one per play-history entry (note id, title, description, the author's display name and id, the account it is filed under, recorded), per account the history is filed under; the encrypted messages and relations noted | `owner`: `xiaohongshu:<user id>` of the rows; `xiaohongshu:<author id>` per note author with the display name |
//! | Likee `video.like/databases/like_pub.db`, `databases/message_u*.db`, `files/*/*location.kv` ([`likee`]) | one per user searched (name, Likee ID, user id), per message (text, the row's user id, when), per location file with a line holding `address` (its printable runs as written: the binary key-value format has no tool, read as text like ALEAPP) | `likee:<uid>` per user searched with name and Likee ID |
//! | RandoChat `com.random.chat.app/databases/ramdochatV2.db` ([`randochat`]) | the account (nickname, sex, age, language, device id, the ages and sex searched for), one per stranger chatted with (id, nickname, age, sex, favourite, blocked, picture URL), per message (text, direction by `minha`, media file, conversation and message ids, the stranger; sent or received) | `owner`: the account's nickname; `randochat:<id>` per stranger with the nickname; wallet claims by direction |
//! | Samsung's Gallery store `com.samsung.cmh/databases/cmh.db` ([`cmh`]) | one per image, and per other file with a label or recognised text (path, title, album, type, latitude and longitude, the address and location URI the Gallery resolved, private; scene labels, QR and barcode content, recognised text and recogniser version; taken, added, modified, text recognised), per user tag (tag, linked file, recorded) | — |
//! | Hik-Connect `com.connect.enduser/databases/database.hik` ([`hikvision`]) | one per CCTV recorder or camera (device id, name, serial number, port, channel and IP-channel counts, DDNS address and port; whether a login is stored, never its values), per channel (number, name, enabled, the device's name and serial number) | `hikvision-device:<serial>`: each device by its serial number |
//! | Dahua DMSS `com.mm.android.DMSS/databases/devicechannel.db` ([`dmss`]) | one per CCTV recorder or camera (device id, name, channel count, serial number, IP address and port as stored — encrypted by recent releases; whether a login is stored, never its values), per channel (number, name, favourite, the device's name and serial number) | `dmss-device:<serial>`: each device by its serial number |
//! | PikPak `com.pikcloud.pikpak/databases/pikpak_files_*.db`, `pikpak_downloads.db`, `greendao.db` ([`pikpak`]) | one per cloud file or folder (name, kind, ids, size, MIME type, hash, trashed, user id, URL, thumbnail; created, modified, deleted, updated locally), per download (title, source link or magnet, local file, description, MIME type, bytes, status; created, modified), per video played (duration, played to, furthest point; last played) | `owner`: `pikpak:<user id>` when the drive's files name one |
//! | Proton Drive `me.proton.android.drive/databases/db-drive` ([`protondrive`]) | the account (user id, e-mail, names, space, created) and its addresses; one per file, folder or album (ids, type, state, MIME type, size, shared, public-link accesses, signer; the name said to be a PGP message, never decrypted; created, modified, trashed, link expiry, photo taken), per share (ids, types, flags, creator; created), per membership (inviter, invitee, permissions; created); never a key or passphrase | `owner`: `proton:<user id>`, e-mails, display name; `handle:<address>`: who invited the account to a share |
//! | Podcast Addict `com.bambuna.podcastaddict/databases/podcastAddict.db` ([`podcastaddict`]) | one per podcast (name, author, feed, home page, category, language, subscribed, episodes in the feed and kept; whether a feed login is stored, never its values; last played), per episode played, started or downloaded (podcast, page and download URLs, duration, size, playing and seen status, position to resume, favourite, season and episode; published, played, downloaded) | — |
//! | Garmin Connect `com.garmin.android.apps.connectmobile` `shared_prefs/gcm_user_preferences*.xml`, `databases/cache-database`, `gcm_cache.db`, `sync_cache*`, `notification-database` ([`garmin`]) | the account (user name or e-mail, user id, GUID, place, body, VO2 max, primary tracker), one per activity (first store's details and summary JSON, newer store's JSON: name, type, start, distance, duration, start and end position, heart rate, calories, owner; cached), route (points, first and last position from the encoded polyline in the query), day's totals, sleep, weigh-in, pulse-ox reading, cached answer (URL, length), device (unit id, product, Bluetooth name and address, software, last connected), device's sync day (audit lines, versions, first and last), activity weather (position, station, conditions), forwarded notification (app, title, text, number, status, times); JSON caches counted | `owner`: the preferences' e-mail or user name and `garmin:<user id>`; `garmin:<id>` per activity owner with names; `fit-device:<unit id>` per device with its Bluetooth address (one with the watch of a FIT file) |
//! | Device Health Services `com.google.android.apps.turbo/databases/bluetooth.db`, `shared_prefs/app_usage_stats.xml` ([`devicehealth`]) | one per Bluetooth device that connected (address, identifier, index), per battery reading of one (address, identifier, battery level, volume level, time zone, when), per app launch (package, when) | `bluetooth:<address>` per device |
//! | Play services' semantic location raw signals `com.google.android.gms/app_semanticlocation_rawsignal_db/` ([`semloc`], LevelDB via `leveldb_records`, found by its `CURRENT`, values decoded as Protocol Buffers) | one per location fix (latitude and longitude as decoded, degrees × 10⁷, accuracy as stored, the record's file and sequence, key deleted since or not, when) | — |
//! | Samsung Gallery `com.sec.android.gallery3d/databases/local.db` ([`samsunggallery`]) | one per item in the Gallery's trash (original path and name, the copy in the trash, id, expiry period, MIME type, size, coordinates as stored, the restore data; deleted, taken, cloud time), per deletion the app logged (operation, the line as stored with its encoded paths; when, local text) | — |
//! | Play Store `com.android.vending/databases/frosting.db` ([`frosting`]) | one per package the Play Store recorded (package, APK path, last updated) | — |
//! | Play services `com.google.android.gms/databases/gass.db` ([`gass`]) | one per `app_info` row (package, version code, SHA-256 digest) | — |
//! | Samsung's `system/PkgPredictions.db` ([`pkgpredictions`]) | one per app launch sample (package, version, activity, the three packages launched before, orientation, Wi-Fi, Bluetooth, hour, day of week, prediction and its time as stored, user, when launched) | — |
//! | Apple Tracker Detect `com.apple.trackerdetect/shared_prefs/com.apple.trackerdetect_preferences.xml` ([`trackerdetect`]) | one per tracker found in a scan (Bluetooth address, each `device_<address>_<what>` preference and its value: milliseconds since boot, not times); one for the app's settings | — (a tracker's address rotates) |
//! | Amazon Shopping `com.amazon.mShop.android.shopping/databases/map_data_storage.db` ([`amazonshopping`]) | one per account signed in (directed id, display name, full and first name, device name and e-mail, country of residence, marketplace, sync flags; record written); never its tokens or cookies | `owner`: `amazon:<directed id>`, the display and full name where plain text (the only account); `amazon:<directed id>` per account when there are several |
//! | Citymapper `com.citymapper.app.release/databases/citymapper.db`, `shared_prefs/preferences.xml`, `Session.xml`, `superProperties.xml`, `no_backup_preferences.xml` ([`citymapper`]) | one per location-history place (name, address, latitude, longitude, role: home, work; dated), per saved commute (type, region, home and work coordinates; created), per preferences file holding the keys read (device id, IP address as stored, last location, versions, sessions, region; last used, terms accepted) | — (home and work are places: facts) |
//! | OruxMaps `oruxmaps/tracklogs/oruxmapstracks.db` (shared storage or the app's external files) ([`oruxmaps`]) | one per track (name, description, folder, city, country, type, difficulty, server user, stored position; segments, distance, moving time, highest and lowest altitude; points, first and last position; started, first and last point's time), per waypoint (name, description, latitude, longitude, altitude, type, its track, folder, city, country, notes, URL; created) | — |
//! | Slopes `com.consumedbycode.slopes/databases/slopes.db` ([`slopes`]) | one per ski day (location, runs and lifts by type, distance, top speed, altitudes, the area covered; first start, last end), per resort kept (name, locality, region, country, coordinates, website, numbers, altitudes, runs) | — |
//! | REMA 1000 `dk.rema1000.app/databases/receipts.db` ([`rema1000`]) | one per receipt (display id, store number, the store's street and town from the search text, postcode, total as shown and in øre, discount, VAT, payment source, card type, masked card number, payment id, chargeback, search text; paid) | — |
//! | SBB Mobile `ch.sbb.mobile.…/databases/SbbMobile.db` ([`sbb`]) | one per connection searched (departure, destination, their types, the result's coordinates; when), per place searched (title, favourite, type, coordinates; when), per SwissPass travel card (name, type, contract id and state, validity), per ticket bought (traveller, ticket type, from, to, payment method, refund state; valid from and until) | — (the traveller's name is a fact) |
//! | MeteoSwiss `ch.admin.meteoswiss/databases/favorites_prediction_db.sqlite` (+ `files/db/localdata.sqlite`) ([`swissmeteo`]) | one per forecast looked at (postal code, the position stored with it, the place's name, altitude and centre from the app's postal-code list, LV03/LV95 turned into degrees in the query; when), per app opening (where the phone was; when) | — |
//! | Battery usage `com.google.android.settings.intelligence/databases/battery-usage-db-v4`, `user_de/<user>/com.android.settings/databases/battery-usage-db-v9` ([`batteryusage`]) | one per app in each hourly battery snapshot (package, app label, uid, user, foreground and background use in ms, power consumed and total, battery level and status, time zone; the snapshot's time and the boot it counts from), per app usage event (package, task root, uid, event: activity resumed or stopped, device shutdown; when) | — (packages and uids are apps') |
//! | One UI Home `com.sec.android.app.launcher/databases/OneUI.db`, `Icon.db` ([`samsunglauncher`]) | one per layout item (type, title, component and its package, referenced package, hidden as stored and hidden or shown, restored, profile, rank and position; the container: the folder's title, or the item group's type and rank and the group holding it; a folder's item count), per cached icon (label, component, package, profile, version, last updated in Unix ms) | — |
//! | Samsung SCPM `com.samsung.android.scpm/databases/scpmv2.db` ([`scpm`]) | one per `devices` row (device id, alias, type, model name and code, OS type and version, platform version, country, SIM MCC and MNC, CSC; registered and last access, Unix ms or s by magnitude) | — |
//! | Samsung Story Service `com.samsung.storyservice/databases/dme.db` ([`storyservice`]) | one per indexed file (path, title, media type, latitude and longitude with 0/0 read as none, country, locality, place of interest and its city, street, scenes, faces, deleted, moment and its title; taken, added) and per moment (id, story, title, files, country, location, places, streets, type; start, end, created), Unix ms or s by magnitude | — |
//! | Samsung Members `com.samsung.oh/databases/com_pocketgeek_sdk_app_inventory.db`, `com_pocketgeek_sdk.db` ([`samsungmembers`]) | one per inventoried app (package, name, system app, confidence hash, SHA-1, classification; last used in Unix ms), per device event (type, value, in snapshot; created in Unix ms) | — |
//! | Samsung Device Care (Smart Manager) `com.samsung.android.sm/databases/sm.db`, `lowpowercontext-system-db` ([`smartmanager`]) | one per app crash (package, when), per app-use session (package, activity, id, uploaded; started, ended, record created and modified), Unix ms | — |
//! | MapMyWalk `com.mapmywalk.android2/databases/workout.db`, `mmdk_user` ([`mapmywalk`]) | one per recorded activity (the `timeSeries` samples of one local id: samples, positioned samples, distance, mean and max speed, duration, time-offset span; first and last sample), per route (points, first and last position and time, summarised in the query), per user (id, user name, e-mail, display name, birth date, gender, height, weight, time zone, country, image; joined, last login) | `owner`: the only user (or the only one with an e-mail): e-mail, `mapmywalk:<id>`, user name, display name; `mapmywalk:<id>` per other user |
//! | PUMATRAC `com.pumapumatrac/databases/pumatrac-db` ([`pumatrac`]) | one per completed exercise (duration, score, calories, city, country, distance, altitudes, speeds, time per km, location type, pace; start, end), per route (points, first and last position and time, summarised in the query), per user (id, e-mail, name, sex, birth day, weight, height, country, location, interests, image, score, following, followers, goal, workout preferences; born) | `owner`: the only user (or the only one with an e-mail): e-mail, `pumatrac:<id>`, name; `pumatrac:<id>` per other user |
//! | Runkeeper `com.fitnesskeeper.runkeeper.pro/databases/RunKeeper.sqlite`, `shared_prefs/com.fitnesskeeper.runkeeper.pro_preferences.xml` ([`runkeeper`]) | one per trip (UUID, activity type, distance, elapsed time, calories, heart rate, climb, name; start, synced), per route (points, first and last position and time, summarised in the query), the account of the preferences (user and ASICS ids, name, gender, height, weight, privacy, lifetime distance, locale, picture, connected services as flags — a token never copied; created, last active, weight synced, born) | `owner`: `runkeeper:<id>`, `asics:<id>`, name |
//! | Ornet / Tor Browser `com.ornet.torbrowser/databases/appDatabase`, `kdownloader.db`, `shared_prefs/com.ornet.torbrowser_preferences.xml` ([`ornet`]) | one per visit (URL, title, the stored date and time joined), bookmark (title, URL, folder), suggestion, open tab (URL, title, preview file and the Unix ms its name holds), frequent site (count as stored), search, download (file, URL, folder, bytes, status, last modified), one for the preferences (current tabs, search engine, last closed) | — |
//! | Honor's media library `com.hihonor.medialibrary/databases/gallery.db` ([`honorgallery`]) | one per picture or video (path, name, title, MIME type, size, position — none for 0,0 —, time zone, album, duration, resolution, hash as stored, recycle flag and state, the path it was deleted from; added, modified, taken, recycled) | — |
//! | Etsy `com.etsy.android/databases/recentlyViewedListings`, `ListingInteractions`, `AdImpressions`, `etsy-logs`; `shared_prefs/EtsyUserPrefs.xml`, `EtsyInstallPrefs.xml`, `com.etsy.android_preferences.xml`, `server_config.xml` ([`etsy`]) | one per listing viewed (title, prices, rating, image; when), listing interaction (type, source, location, position, the encoded data's leading values; when), ad shown or tapped, app log record (type, namespace, message, app version, device model; when), and per row the write-ahead log or replaced pages still hold (`sqlite_wal_history`: deleted, earlier version); one for the account (id, login, name, e-mail, shipping country), the install id, the app's first and last start; `SecureEtsyUserPrefs.xml` noted (encrypted) | `owner`: the account's e-mail, `etsy:<user id>`, login, display name |
//! | Verizon RDD `com.verizon.mips.services/databases/RDD_ANALYTICS_DATABASE`, `RDD_WIFI_DATA_DATABASE` ([`verizonrdd`]) | one per battery sample (level, GPS, charging, screen on, brightness, temperature as stored; when), per Wi-Fi event (event, BSSID, SSID, IP address, session time and traffic, cell; when) | — |
//! | BRD (Bread Wallet) `com.breadwallet/databases/platform.db`, `shared_prefs/MyPrefsFile.xml` ([`breadwallet`]) | one per key of the key-value store (transaction metadata by hash; the wallet's own records: versions, deleted, encrypted value size, first and last written), per receive address kept in clear, the app's preferences (user id, reward id, recovery phrase marked written, secure and sync times; never the push token) | `wallet:<address>`; `owner`: each receive address and the first address (cue "account of the wallet app") |
//! | VLC for Android `org.videolan.vlc/app_db/vlc_media.db` and `files/medialib/` ([`vlc`]) | one per media-library entry (title, file name, type, duration, last position, times played, favourite, the main file's MRL and size, folder; last played, last accessed, added), per cached thumbnail (path, size, written) | — |
//! | Chess With Friends `com.zynga.chess.googleplay/databases/` (or `db/`), Words With Friends `com.zynga.words/db/` `wf_database.sqlite` ([`zynga`]) | one per player (name, With Friends user id, Zynga account id, e-mail, phone, Facebook id and name), chat message (`chat_messages` or `messages`: text, sender with the `users` row's ids, game or conversation, written as stored), game (creator, whose move, move count, matchmaking, moves kept and who made them, chat messages kept; created, last move kept) | persons `zynga:<Zynga account id>` (else `zyngawf:<user id>`) with both ids, e-mail, phone, names: players and senders; no owner (the store does not mark the user's own account) |
//! | Adobe Acrobat Reader `com.adobe.reader` `shared_prefs/FoundationMigrated.xml`, `databases/com.adobe.reader.ARRecentDatabase`, `…ARRecentsFileDatabase`, `…ARThumbnailDatabase`, `Notification.db`, `database`, `DCMQnAConversationDb`, `nba_database`, `ARDatabase`, `…ARMultiDocDatabase`, `…ARShareDatabase` ([`adobereader`]) | the account (e-mail, names, Adobe ID, type, level, country, device; token expiry; never the tokens); one per recent file (path, open count, last opened), listed document (name, path, type, flags, page, zoom, cloud ids, its share with participants counted; last accessed, shared, modified, expiry), thumbnail (key, URL, length; never the image), comment notification (event, author, document, annotation; when), shared, cloud, reviewed, tracked and parcel record, AI Assistant conversation (name, documents, events; times), tool use, file info, cloud transfer, open document, share in progress | `owner`: the account's e-mail, `adobe:<Adobe ID>`, display name; persons `adobe:<user id>`: notifications' authors |
//! | PayPal `com.paypal.android.p2pmobile` `databases/tracking`, `shared_prefs/PayPal.xml`, `version.6.shared.keys.xml`, `FoundationAccount.AccountState.xml`, `*_encrypted.xml` ([`paypal`]) | one per app session grouped from its tracking events (session id, events, API versions, encrypted flag; first and last event as stored), the app's device id and version (configuration cached), installation GUID, keep-me-logged-in opt-out, one per encrypted preferences file (size, last modified: said, never read) | — (no file names the account) |
//! | Revolut `com.revolut.revolut` `databases/payments_recent_db`, `rates_database`, `revolut_support_db`, `android-devices.db`, `shared_prefs/configuration_storage.pref.xml` ([`revolut`]) | one per recent payment recipient (recipient id and type, transaction id, item type, unread counter; its sync time), the rate cache (rates and mid rates counted; last fetched), the help cache (articles, languages, nodes counted), the device catalogue cache (counted), the configuration (version; last modified) | `revolut:<handle>` per contact-code recipient |
//! | CapCut `com.lemon.lvoverseas/databases/ss_app_log.db`, `shared_prefs/applog_stats.xml`, `common_config.xml`, `byte_sync_settings.xml`, `applog_monitor.xml`, `appsflyer-data.xml`, `com.ss.android.deviceregister.utils.*.xml` ([`capcut`]) | one per AppLog session (UUID, duration and pause time as stored, app version and code, events counted, pages shown; started, first and last event), per AppLog event (category, tag, label, values as stored, parameters JSON, user id, session; when), per preferences file holding the ids read (ByteDance device and install ids, OpenUDID, client UDID, candidate `cdid`, the Android id AppsFlyer cached; install recorded) | `owner`: `capcut:<user id>` the events recorded (not 0) |
//! | eBay `com.ebay.mobile/databases/nautilus_db`, `suggestions.db` ([`ebay`]) | one per watched listing (title, listing and variation id, image URL, aspects, entry key; ends), per recent search (keyword, category, result count recorded, prefixes, user id; when), per query kept in `suggestions.db` (when), per followed seller (following as stored, hashed user id), per app session (screens, network calls counted, start since boot; started), per app state entry (key, value and its column, user id; a secret-named key's value withheld, the encrypted blob's length only; written), per configuration record (app version, site, country, language, SDK, environment; fetched), per share channel (value as stored and as a time, user id), per distinct user id of each id column (form, table, column) | `owner`: `ebay:<public user id>` of the state entries (not `global`) |
//! | Samsung My Files `com.sec.android.app.myfiles/databases/` `myfiles.db`, `MyFiles*.db`, `FileInfo.db`, `FileCache.db`, `Frequency.db`, `TrashAppInfo.db` and its own trash folder `files/trash/` ([`myfiles`]; the recent files and operation history are [`samsungfiles`]'s) | one per download (name, path, size, type, the source URL or app, hidden, trashed, when; three layouts), per recent file of the older m-prefixed layout, per Google Drive entry (file id, name, Drive path, size, type, web link, modified), per file of the storage index and storage analysis, per search term, per cached file (path, size, storage, preview index, modified, latest), per frequent folder (times opened), per app's trash count, per file in My Files' own trash (original folder, the item deleted, size, deleted) | — |
//! | Samsung Device Health Manager `com.sec.android.sdhms/databases/sec_batterystats_history*` ([`samsungbattery`]) | one per app (uid) and UTC day, summed over its windows (power, screen power, foreground, background, CPU, wakelock, GPS and audio time, mobile and Wi-Fi packets, wakeup alarms, mobile active, Bluetooth scans; first start, last end), per device day (screen on and off time and discharge, screen-on count, high brightness and refresh time), per battery event type and day (count, lowest and highest value), per system drain type and day | — |
//! | AVG AntiVirus `com.antivirus/shared_prefs/PinSettingsImpl.xml` and its Photo Vault `Vault/` (found by its `.key_store` folder) ([`avgvault`]) | the vault lock (whether a PIN and a pattern are set — never their hashes —, the other settings as stored), the vault (folder, key and metadata store files, how many hidden files and previews), one per hidden file (path, name, size, modified) | — |
//! | Uber rider app `com.ubercab` `files/base-key-value-store/realtime-demo_KEY_RIDER`, `ShortcutsCache_CACHED_SHORTCUTS_MAP_KEY`, `realtime-demo_KEY_TARGET_LOCATION_SYNCED`, `realtime-demo_KEY_CITY`, `payments_KEY_PROFILES`, `session_LAST_SESSION`, `realtime-demo_KEY_CLIENT_STATUS` (a header byte then JSON, `read_json` with `skip_header`, by pointer), `files/simplestore/*/CACHED_UBER_LOCATION` (`read_protobuf` with `floats`), `databases/ur_message.db` ([`uberandroid`]) | the rider account (names, e-mail, mobile, flags; modified, originated), one per destination suggested (title, addresses, coordinates, categories, trigger position, map cell; when), the target and the cached location (coordinates; cached), the city, one per payment profile (display name, type, status; updated; never a card number), the last session, the client status, one per queued telemetry message (app, device, session, city, carrier, network; created) | `owner`: `uber:<uuid>`, the e-mail, the mobile number (international, or national to the source's region) |
//! | Play services `com.google.android.gms/databases/icing_contacts.db` ([`icingcontacts`]) | one per contact Play services indexed for search (contact id, lookup key, names, organization, note, numbers, e-mails and postal address as the row keeps them and from the method tables with their labels, times contacted, starred; last updated) | `contact:icing:<contact id>` persons: display name, numbers, e-mail addresses |
//! | RAR `com.rarlab.rar/shared_prefs/com.rarlab.rar_preferences.xml` ([`rarprefs`]) | one per archive in `ArcHistory` and per folder in `ExtrPathHistory` (path as written, the preference; the position in the interpretation); one for the other preferences (start and default extraction folders, switches) | — |
//! | Sideline `com.sideline.phone.number/databases/textfree` ([`sideline`]) | one per text, call or voicemail (the other party's number, the contact record's names, method and its kind, text, duration, Unix ms) | the other party by number (the address-book contact holding it, else `handle:`) with the contact record's name |
//! | Google Services Framework `com.google.android.gsf/databases/googlesettings.db` ([`gsfsettings`]) | one per partner setting (name, value: the partner build's client ids, the location consent flags, the framework's ids) | — |
//! | `system/sync/accounts.xml` ([`syncaccounts`]; plain XML or ABX) | one per account and provider the sync manager knows (account, type, provider, sync automatically, syncable, id, user, periodic syncs), per sync service, per user's auto-sync switch | `owner`: user 0's accounts named by an e-mail address (a Google account for `com.google`) or a phone number; another user's as `android-user:<id>` |
//! | Grok `ai.x.grok` `databases/exoplayer_internal.db` and `cache/*/video-cache/*/*.exo` (found by listing the app's folder) ([`grok`]) | one per cached video span (file name, cache id, offset, length, original URL, user generated or public, the span file's path and size when still on disk; written and last touched, Unix ms), one per span file the file index does not name (path, size, URL from the content index) | — (the account is [`intercom`]'s) |
//! | Chromium's `<profile>/Offline Pages/metadata/OfflinePages.db` (Chrome, Samsung Internet, a WebView); saved web pages `*.mhtml`, `*.mht` anywhere ([`offlinepages`]) | one per page saved for reading offline (URL, original URL, title, the archive's path, size and SHA-256, client namespace and what it means — downloaded by the user or kept by the browser —, requesting app, Android download id, times opened; saved, last opened, archive found missing), per MHTML archive (its header's address, title, date and writer, size; the file's modification) | — |
//! | WebKit's geolocation cache `<package>/app_geolocation/CachedGeoposition.db` (the AOSP Browser's, an old WebView's; [`browserlocation`]) | one per cached position (latitude, longitude, accuracy, altitude and its accuracy, heading, speed; acquired, Unix ms) | — |
//! | App Locker by fishingnet (HLD: `com.hld.anzenbokusufake`, `…cal`, `com.hld.anzenbokusu`): the shared storage's `.privacy_safe/` folder (found by its name) and `shared_prefs/share_privacy_safe.xml` ([`fishingnet`]) | one per hidden picture or video (path, the vault's name for it, folder, size, written); the vault index `db/privacy_safe.db` said encrypted (SQLCipher, noted) or, as a plain copy, one per `FILE_INFO` row (original name and path, album, the vault's name and path, sizes, added and created as device-local text); whether an unlock pattern is set (never the pattern or its ciphertext) | — |
//! | Playground AppLocker: the shared storage's `applocker/` folder (found by its name: `vault/`, `intruders/`) and `playground.develop.applocker/shared_prefs/crypto.KEY_256.xml` ([`playgroundvault`]) | one per vault file (path, name, picture/video/preview, size; when hidden from the Unix ms of its `EIF`/`EVF` name, modified), per intruder photo (path, size, modified); the key file said present from the listing, never read | — |
//! | LG's RCS tables of `mmssms.db`: `message` ⟕ `file_info` ([`lgrcs`]) | one per RCS message (address, text, thread, message id, file transfer: name, path, size, thumbnail, descriptor; Unix ms; read, is-file), one per chat (`thread_id`: its distinct addresses, count, first and last) | the addresses as parties, as for SMS (the contact holding the number, else `handle:<number>`) |
//! | Samsung's `log/power_off_reset_reason.txt` and `log/power_off_reset_reason_backup.txt` ([`poweroffreset`]) | one per shutdown request (its `yy/MM/dd` time line as written, reason, caller, the call's stack frames), per power-log line (shut down, started, started in charge-only mode or another record: time with its offset, reason, record number, power-off and power-on sources, reset status, build, battery as written) | — |
//! | Pixel Launcher `com.google.android.apps.nexuslauncher/databases/app_icons.db` ([`appicons`]) | one per cached icon (component, package and class, the app's own entry or an activity, label, user serial, version code, system state — locales and API level —, keywords, icon size, never the image; last updated) | — |
//! | `system/users/<user>/roles.xml`, `misc_de/<user>/apexdata/com.android.permission/roles.xml` ([`roles`], plain XML or ABX) | one per user's role state (version, packages hash as stored, roles and held counts), one per role (role, every holder's package, `fallbackEnabled` and other attributes as stored) | — |
//! | `system/appops/discrete/<Unix ms>tl` ([`discreteops`], ABX or plain XML) | one per access of an app to a protected operation (package, uid, operation and AOSP's name, attribution tag, time, duration, uid state, op and attribution flags, attribution chain); a file of more than 1,000 accesses one per package, operation and UTC day (count, first and last time, summed durations, states, tags) | — |
//! | `.bash_history` anywhere ([`bashhistory`], via `read_text`) | one per file: the commands in order (the first 500 as facts, the rest counted; lines that look like they carry a password withheld and counted), the first and last time bash wrote (`#<Unix seconds>` lines), the app whose folder holds it (Termux) | — |
//! | Booking.com `com.booking` `databases/post_booking_reservation_cache`, `account_data_cache`, `notifications.db`, `shared_prefs/mybooking.xml`, `remote_profile.xml`, `com.booking_preferences.xml` ([`booking`]) | one per cached reservation (booking number, property, address, zip, country, time zone, phone, e-mail, URL, hours, statuses, travel purpose; check-in and check-out), per room (room, guests, occupancy, smoking, cancellation terms), the cached profile (names, e-mail, phone, address, Genius level), per profile file (user id, names, e-mail, phone, address, flags), per stored search (dates, destination, guests), per notification (title, text, flags, when); never the PIN code, cards or tokens | `owner`: the profile's and preferences' e-mail and phone, `booking:<user id>` |
//! | OkHttp response caches of every app: `cache/…/journal` with `<key>.0` metadata files (`read_okhttp_cache`; no ALEAPP module) ([`okhttpcache`]) | one per cached response (URL, method, status, headers, TLS, times sent and received, how often served from the cache) and per cache folder (counts by state); credentials and cookies redacted by the tool | none |
//! | Samsung's `system/users/service/data/eRR.p` and `system/users/service/eRR.p` ([`errp`]) | one per power-event line (shut down, started, started in charge-only mode or another event: event, code, details, reason, record number as written; the time with its offset) | — |
//! | BitTorrent for Android `com.bittorrent.client/shared_prefs/com.bittorrent.client_preferences.xml`; BitTorrent's and µTorrent's `dlhistory*.config` and `.config.bak` anywhere ([`bittorrentapp`], via `read_xml` and `read_bencode`) | one for the preferences (every name and value, `BornOn` marked; tokens redacted by `read_xml`), one per download-history entry (name, path saved to, other members as stored, the entry's time in Unix ms) | — |
//! | Tor Browser for Android `org.torproject.torbrowser` (and `_alpha`) `cache/mozac_browser_thumbnails/thumbnails/*.0` (found by the data folder's name, then listed) ([`torthumbs`]) | one per cached page thumbnail (path, size, cache key, written) | — |
//! | ColorOS / OxygenOS Smart Sidebar `com.coloros.smartsidebar/databases/smartSidebar.db` and the shared storage's `Download/.com_coloros_smartsidebar/transferdock/` (found by its name, then listed) ([`smartsidebar`]) | one per File Dock item and removed item (type, MIME type, text and whether whole, file name, original source, link with title, subtitle and image, size, MD5, status, cached copy's path, local file id, group UUID, MediaStore URI, Android user; added, updated), per cached copy (path, name, size, folder; a drag's app, view and capture time; a text's words, a link's members; the time in a text's or link's name; written) | — |
//! | Samsung's media provider `com.samsung.android.providers.media/databases/media.db` ([`samsungmedia`]) | one per picture, recording or video of `files` (path, name, title, kind, MIME type, size, dimensions, duration, bucket, relative path, volume, owning app, latitude and longitude — none for 0/0 —, Samsung's packed address, the page and app a screenshot was captured from, download and referrer URLs, downloaded, favourite, hidden, in the trash, deleted; taken, added, modified, expires), per other file or folder (the same), per place of `location` (coordinates, address, country, areas, locality, street, postal code) | — |
//! | Samsung Digital Wellbeing `com.samsung.android.forest/databases/dwbCommon.db` ([`samsungwellbeing`]) | one per usage event of `usageEvents` ⟕ `foundPackages` (event id, package, package id, event type as stored and AOSP's name for the code; when, Unix ms), per time-zone change of `Logging` (previous and new zone, the line; when) | — |
//! | The Settings search index `search_index.db` of `com.android.settings.intelligence`, `com.google.android.settings.intelligence`, `com.android.settings` ([`settingssearch`]) | one per saved search of `saved_queries` (the query; when, Unix ms) | — |
//! | Android System Intelligence `com.google.android.as/databases/reflection_gel_events.db` ([`reflectionusage`]) | one per app event of `reflection_event` (id, deleted app, type, generated from; from the `proto` message the app — field 1 — and fields 2, 5›1, 5›6, 8 as decoded, the message whole; when, Unix ms) | — |
//! | Play services' Location History preferences `com.google.android.gms/shared_prefs/ULR_USER_PREFS.xml` ([`ulrprefs`]) | one per Google account named in the keys (`<e-mail>:<setting>`: reporting and history enabled, authorised, restriction, every other setting as written; the `…Millis` settings as times), one for the keys naming no account | `owner`: each account's e-mail (Google account) |
//! | Life360 driver behaviour `com.life360.android.safetymapd/files/DriverBehavior/trips/*.json` (the folder found by its name, only under Life360's package) ([`life360trips`]) | one per trip file (top-level members, trip ids, events counted by type, first and last event), per event (type, trip, latitude, longitude, speed, top and average speed, distance as stored, when), per event's route (waypoints counted, the first and last waypoint's coordinates and accuracy, their times) | — |
//! | Android 16's intrusion logs: the shared storage's `Download/Intrusion Logging/`, androidqf's `intrusion_logs/` (found by their names), `YYYY-MM-DD*.txt` JSON lines ([`intrusionlog`]) | one per day file (events counted by kind, first and last event), per DNS lookup (package, host name, resolved addresses, when), per connection (package, address, port, when), per security event (action as `SecurityLog` names it: ADB shell and commands, unlock attempts, app installs and process starts, Wi-Fi, certificates …, every scalar of its payload; a command carrying a secret withheld) | — |
//! | Google Maps' text-to-speech cache `com.google.android.apps.maps/app_tts-cache/<number>_<ms>` (the folder found by its name) ([`mapstts`], `hexdump` and `strings`) | one per spoken navigation instruction file (name, its number, size, the audio container and for WAV its encoding, rate and duration, the text the file writes if any; the Unix ms of its name, modified) | — |
//! | Glide's image caches `<package>/cache/image_manager_disk_cache/` of any app (internal or shared-storage cache; the folder found by its name) ([`glidecache`]) | one per folder (the app, the DiskLruCache journal's header, files, keys, reads and removals counted), per cached image (key, size, format from its head, the journal's lines for its key; modified), per journal entry whose file is gone (its lines: evicted or deleted) | — |
//! | Facebook app `com.facebook.katana/databases/` `ssus.<uid>.android_facebook_contacts_db`, `ssus.<uid>.android_facebook_newsfeed_db`, `search_bootstrap_db_<uid>`, `time_in_app_<uid>.db`, `prefs_db` ([`facebookapp`]) | one per contact (Facebook id, names, the phones of its `data` JSON, pictures, flags, birthday; added, Messenger installed, last fetched), contact-sync property (last syncs), the upload snapshot (counted), cached feed story (feed type, seen states, media count; fetched), mention suggestion (id, name, type, friendship status), foreground interval (start, end, seconds), preference (a secret-named key's value withheld) | `facebook:<id>` persons (Facebook id, name, phones); `owner`: the contact or suggestion whose id names the store |
//! | Google Voice `com.google.android.apps.googlevoice/files/AccountData.pb` (`read_protobuf`), `files/accounts/<n>/SqliteKeyValueCache:VoiceAccountCache.db`, `LegacyMsgDbInstance.db` (`sqlite_query`'s `protobuf`) ([`googlevoice`]) | one per account (number, name, e-mail), per cached account response (Google Voice and linked numbers), per text, group text, call (incoming, outgoing, missed; recorded), voicemail (Google's transcript) and unnamed record (ids, numbers, text, read flag, type, duration as stored; time) | `owner`: the account's e-mail and name, the Google Voice and linked numbers, the records' own number; counterparties by number (the contact holding it, else `handle:`) |
//! | Google Photos `com.google.android.apps.photos/databases/gphotos<n>.db`, `local_trash.db` (with a listing of `files/trash_files/`), `disk_cache` ([`googlephotos`]) | one per local item (path, file, folder, size, dimensions, duration, coordinates, capture time and offset as stored; time, trashed, purge), cloud item (media key, URL, coordinates and inferred ones, upload status; time, created on the server), shared item (album), backup folder holding indexed files, shared album (title, share link, owner, counts; created, last activity), album member (GAIA id, name), comment (text; when), trashed item (original path, trash file still there or not; deleted), image cache entry; never an album's auth key or sync tokens | `gphotos:<actor id>` persons (name; e-mail and phone where the layout keeps them) |
//! | Life360 `com.life360.android.safetymapd/databases/` `L360LocalStoreRoomDatabase` (its `Premium` table), `NoShowAlertRoomDatabase`, `PetProfileRoomDatabase` ([`life360extra`]) | one per circle's plan and features (feature set, collision, SOS and place alerts, driver reports, location history, data breach detection, Tile GPS, Uber One), per no-show alert (type, trigger, critical, daily, place, circle, the observed member and the creator; last updated, due), per pet (name, type, breed, colour, weight, gender, birth date, Tile tracker, circle, avatar; created, updated) | `life360:<user id>` of each alert's observed member and creator |
//! | Kijiji `com.ebay.kijiji.ca/databases/searches.db` ([`kijijisearches`]) | one per recent search (keyword, thumbnail, address, latitude, longitude, distance, ad type, price type, price limits — the app's -1 none —; when) | — |
//! | The Google Calendar app's own store `com.google.android.calendar/databases/cal_v2a` ([`gcalendarapp`]) | one per event of `Events` ⟕ `Accounts` (event id, type, to be removed, start and end day, the account; from its `Proto` record: title, description, web link, iCal UID, calendar id and name; start, end, created, updated) | `owner`: the accounts' e-mails |
//! | WhatsApp's own logs `com.whatsapp/files/Logs/whatsapp*.log` (and WhatsApp Business's; `read_text` in reads of 1 MiB) ([`whatsapplogs`]) | one per event line (message sent or received, conversation opened or left, typing, message notification, deletion, connection event, call event: the tag, the line, its JIDs, the line's local time), one per file (the zones its headers declare, levels, app versions, lines and events counted, first and last line); the gzip rotations noted, not read | `handle:<jid>`: the complete person JIDs of message, typing and notification lines |
//! | Microsoft Authenticator `com.azure.authenticator/databases/PhoneFactor` ([`msauthenticator`]) | one per enrolled account (service, user name, account type, Entra tenant and user ids, authority, tenant country, data boundary, Microsoft account CID and PUID; never the one-time-code seed, PIN, keys or token) | `owner`: each user name that is an e-mail address |
//! | DHL Express `com.dhl.exp.dhlmobile/databases/dhledb.db` ([`dhl`]) | one per tracking search (airway bill, account, when as stored), per user record (language, notifications) | — |
//! | Vinted `fr.vinted/databases/vinted_database_2.db` ([`vinted`]) | one per cached listing (title, description, price, condition, brand, seller, counts, flags, URL, listed, cache expiry), per favourite (with the cached listing's title and price), per feedback (owner, author, rating, text, reply and its author, URL, stored, left) | `vinted:<user id>` per seller, feedback author and replier, with the login |
//! | The Google Phone app's call transcripts `com.google.android.dialer/files/fermat_files/*-transcription.pb` ([`calltranscripts`]) | one per utterance of a recorded call (text, speaker as numbered, file, when) | — |
//! | The Google app's `com.google.android.googlequicksearchbox/files/recently/<account e-mail>` ([`googlesearch`]) | one per recent search or page opened (query, URL, domain, title, category, engine, entry and screenshot ids, times) | `owner`: the account's e-mail (the file's name) |
//! | FIT activity files `*.fit` anywhere ([`crate::fitfile`], shared with iOS, via `read_fit`) | one per file (type, the creating device's maker, product, serial, created; each device with serial and software; the user profile; each session's sport, start, times, distance, calories, heart rate, start position; the first and last track points) | `fit-device:<serial>`: each device by its serial number |
//! | BitTorrent `*.torrent`, `*.resume`, `*.fastresume` anywhere ([`crate::torrentfile`], shared with iOS, via `read_bencode`) | one per file (info hash, name, each file and size, trackers, comment, creator, created; a resume's save path, totals, added, completed, last down- and uploaded) | — |
//! | Pixel's Now Playing `com.google.android.as/databases/history_db` (older `com.google.intelligence.sense/db/history_db`) ([`nowplaying`]) | one per recognised song (Unix ms; time zone, title, artist, album, year, duration from the `history_entry` message) | — |
//! | Google's Phone app `com.google.android.dialer/databases/annotated_call_log.db`, `phone_lookup_history.db`, `dialer.db` ([`dialer`]) | one per call of the app's own call log (time, numbers, type, presentation, duration, place, account, read, new, voicemail and transcription), per looked-up number (contact name, label, URI, caller ID name, location, time), per smart-dial entry, per cached caller ID (name, label, source, photo, key, time) | the numbers as parties (the contact holding them, else `handle:<number>`) |
//! | `system/users/<user>/runtime-permissions.xml`, `misc_de/<user>/apexdata/com.android.permission/runtime-permissions.xml` ([`runtimeperms`], plain XML or ABX) | one per app or shared user (every permission, granted or not, flags) | — |
//! | `com.google.android.settings.intelligence/shared_prefs/setup_wizard_info.xml` ([`setupwizard`]) | one per file: when the setup wizard finished (Unix ms: the first use after new or reset), every other value | — |
//! | Samsung SmartThings `com.samsung.android.oneconnect/databases/QcDB.db` ([`smartthings`]) | one per `devices` row (name, type, network type, Wi-Fi Direct, Bluetooth and LE addresses, connected in Unix ms) | `bluetooth:<address>` devices by their classic Bluetooth address |
//! | `system/etc/hosts` ([`hosts`]) | one per entry but Android's localhost defaults (address, names) | — |
//! | `system/appops.xml` ([`appops`], plain XML or ABX) | one per recorded use of a protected operation (package, uid, operation, access and rejection times, duration, proxy, attribution tag; before Android 10 the times by process state) | — |
//! | `com.waze/user.db` ([`crate::waze`], shared with iOS) | one per place, recent destination, saved place (home, work …), shared place, planned drive, each with its place's address and coordinates | — |
//! | `packages.xml` ([`packagesxml`], plain XML or ABX) | one per app on the data partition (first installed, last updated, version, uid, installer, initiator); one counting the system image's | — |
//! | Google Keep `keep.db` ([`keep`]) | one per note item (title, text, synced text, times, deleted, last modifier); one per sharing | `owner`: the notes' Google accounts; `handle:<e-mail>`: who a note is shared with or was changed by; wallet claims of the account's user |
//! | Play Store `library.db`, `localappstate.db`, `suggestions.db` ([`playstore`]) | one per item an account acquired (account, document id, library, types, purchase time); one per app the store installed (title, account, first download, last update, install reason, auto-update, requesting app, …); one per store search | `owner`: every Google account that acquired or installed something |
//! | `WifiConfigStore.xml`, `wpa_supplicant.conf` | one per saved Wi-Fi network (never its key) | — |
//! | `WifiConfigStoreSoftAp.xml` ([`hotspot`]) | the phone's Wi-Fi hotspot: name, security, band, channel, hidden, blocked and allowed clients (never its passphrase) | — |
//! | `bt_config.conf` | the adapter; one per known Bluetooth device (never a key) | `device`: the Bluetooth name |
//! | Play services `constellation.db`, `google_account_history.db` ([`gms`]) | one per SIM number Google verified (number, IMSI, the SIM's own number, state, method, slot, time); one per change to a Google account (account, change type, event, data) | `owner`: the numbers and the Google accounts; `device`: the IMSIs |
//! | `/data/misc/adb/adb_keys` ([`crate::adb`]) | one per computer the device allowed USB debugging from (its user and host as adb named them, its public key) | `adb-host:<hash>`: the key (strong) and host name, as the computer's own `adbkey.pub` is observed |
//! | `settings_ssaid.xml`, `settings_secure.xml`, `settings_global.xml` ([`settings`]; plain XML or ABX) | one per app's Android id (SSAID), the user's Android id, device and Bluetooth names (never the SSAID key) | `device`: Android ids, device names |
//! | `calendar.db` (calendar provider) | one per calendar, one per event with its attendees | `owner`: the calendars' accounts; `handle:<e-mail>`: attendees, organizers, owners of shared calendars |
//! | `external*.db` (media provider) `files` | one per photo or video (time taken, GPS where kept) | — |
//! | LINE `naver_line` and `call_history` ([`line`]) | one per contact, per message, per group (members), per call (start, end, direction, audio/video/group) | `line:<mid>`: mid, names; wallet claims by direction |
//! | Telegram `cache4.db` ([`telegram`]) | one per user, phone-book contact, group, secret chat (never its keys), dialog, message | `owner`: the account with the self flag (id, `telegram_username`, phone), the sender of outgoing secret-chat messages; `telegram:<id>`: user name, phone, name; claims by direction |
//! | wallet and exchange apps' data folders (`data/data/<package>`, `user/<n>/<package>`, `Android/data/<package>`: Trust Wallet, imToken, TokenPocket, Binance, OKX, TronLink, Bitget Wallet, Coinbase Wallet; [`crate::wallet_apps`]) | one per folder: the wallet addresses written in clear in its files (`strings`), with the files they are in; lists (token contracts, caches) counted | `wallet:<address>`, no claim |
//! | WeChat shared prefs, `MicroMsg/CompatibleInfo.cfg`, `EnMicroMsg.db`; Signal's prefs ([`wechat`]) | the accounts; the device id WeChat read (`CompatibleInfo.cfg` key 258, `read_java`); `EnMicroMsg.db`'s contacts and messages when the key WeChat derives (md5 of that IMEI, else the default IMEI, and the uin) opens it, else one naming it (noted unparsed) | `owner`: wxid, WeChat ID, nickname, phone; Signal's registered number; the device's IMEI |
//! | Signal `signal.db`, `signal-key-value.db` with the extraction's `Secrets/secrets.json` ([`signal`]) | contacts, messages (direction, status, quotes, timers), calls, groups with members, attachments, the account; without a key one naming the database (noted unparsed) | `signal:<ACI>` with phone, `signal-user:` username, e-mail, name; `owner`: the key-value store's account and the one sender of outgoing messages |
//!
//! Times are facts with their raw values (`sms.date` in Unix milliseconds, …) marked by
//! [`TimeMark`](masf_graph::TimeMark)s. Tables are read in pages of
//! [`crate::identity::PAGE_ROWS`] rows ([`crate::identity::pages_on`], each page one short
//! output a fact cites) up to [`crate::calls::ROW_CAP`] rows; rows past the cap are noted as not
//! read, or for SMS, calls and media give one summary phenomenon (count, first and last time).

mod adobereader;
mod alltrails;
mod amazonshopping;
mod appicons;
mod appops;
mod apps;
mod auto;
mod avgvault;
mod bashhistory;
mod batteryusage;
mod bittorrentapp;
mod blocked;
mod bluesky;
mod booking;
mod breadwallet;
mod browserlocation;
mod bugle;
mod bumble;
mod burner;
mod callscreen;
mod calltranscripts;
mod capcut;
mod cashapp;
mod cast;
mod chatgpt;
mod chesscom;
mod citymapper;
mod claude;
mod cmh;
mod databases;
mod deepseek;
mod devicehealth;
mod dhl;
mod dialer;
mod discreteops;
mod disneyplus;
mod dmss;
mod dropbox;
mod duckduckgo;
mod duo;
mod ebay;
mod errp;
mod etsy;
mod facebookapp;
mod fairemail;
mod fbthreads;
mod fcm;
mod fenix;
mod files;
mod fishingnet;
mod fit;
mod fitbit;
mod frosting;
mod garmin;
mod gass;
mod gcalendarapp;
mod glidecache;
mod gmail;
mod gms;
mod googlephotos;
mod googlesearch;
mod googletasks;
mod googlevoice;
mod grok;
mod groupme;
mod gsfsettings;
mod hikvision;
mod hinge;
mod honorgallery;
mod hosts;
mod hotspot;
mod icingcontacts;
mod imo;
mod instagram;
mod intercom;
mod intrusionlog;
mod k9mail;
mod keep;
mod keyboard;
mod kijiji;
mod kijijisearches;
mod kik;
mod kleinanzeigen;
mod knuddels;
mod lgrcs;
mod life360;
mod life360drives;
mod life360extra;
mod life360trips;
mod lifecycle;
mod likee;
mod line;
mod linkedin;
mod mapmywalk;
mod maps;
mod mapscaches;
mod mapstts;
mod mastodon;
mod meetme;
mod mega;
mod mewe;
mod mms;
mod msauthenticator;
mod myfiles;
mod netflix;
mod nike;
mod nordvpn;
mod notifications;
mod nowplaying;
mod nqvault;
mod odlh;
mod offlinepages;
mod okhttpcache;
mod ornet;
mod oruxmaps;
mod outlook;
mod packagesxml;
mod partitions;
mod paypal;
mod pikpak;
mod pinterest;
mod pkgpredictions;
mod playgroundvault;
mod playstore;
mod podcastaddict;
mod polyline;
mod poweroffreset;
mod prefs;
mod prefsaccount;
mod primevideo;
mod protondrive;
mod protonvpn;
mod pumatrac;
mod randochat;
mod rarprefs;
mod recents;
mod reddit;
mod reflectionusage;
mod rema1000;
mod revolut;
mod roblox;
mod roles;
mod romeo;
mod runkeeper;
mod runtastic;
mod runtimeperms;
mod ryanair;
mod samsung;
mod samsungbattery;
mod samsungfiles;
mod samsunggallery;
mod samsunglauncher;
mod samsungmedia;
mod samsungmembers;
mod samsungnotes;
mod samsungwellbeing;
mod sbb;
mod scpm;
mod semloc;
mod session;
mod settings;
mod settingssearch;
mod setupwizard;
mod shazam;
mod sideline;
mod signal;
mod simplex;
mod skout;
mod skype;
mod slack;
mod slopes;
mod smartmanager;
mod smartsidebar;
mod smartthings;
mod smsbackup;
mod snapchat;
mod speedtest;
mod storyservice;
mod swissmeteo;
mod syncaccounts;
mod system;
mod teams;
mod telegram;
mod textnow;
mod threads;
mod tiktok;
mod tinder;
mod todoist;
mod torrent;
mod torthumbs;
mod trackerdetect;
mod trackers;
mod transfers;
mod truecaller;
mod tusky;
mod twitch;
mod uberandroid;
mod ulrprefs;
mod usagestats;
mod users;
mod vaults;
mod verizonrdd;
mod vibermsg;
mod vinted;
mod vlc;
mod weatherclock;
mod wechat;
mod weibo;
mod wellbeing;
mod whatsapp;
mod whatsappextra;
mod whatsapplogs;
mod wire;
mod withings;
mod xiaohongshu;
mod yahoomail;
mod zangi;
mod zapya;
mod zepplife;
mod zynga;

use masf_agents::{AgentCtx, Detection, DeviceType, Plugin, RuntimeError, Typing};
use masf_evidence::scan::{Form, Node, Scan};
use masf_graph::views::ExpectedArtefact;
use masf_tools::SourceCtx;
use serde_json::json;

use masf_agents::PhenomenonDraft;
use masf_graph::{FactType, TimeMark};

use crate::drafts::fact;
use crate::identity::{TreeRef, args_on, artefact_name, record, trees};
use crate::outputs::found_paths;

/// Files found per artefact kind, on average, before the search of a tree stops.
const FOUND_PER_ARTEFACT: u64 = 100;

/// Most entries recorded from an artefact read in one output (a file's list, an XML's
/// networks): every fact re-reads the cited output,
/// so these stay shorter than the paged tables' [`crate::calls::ROW_CAP`].
pub const MAX_ROWS: u64 = 2000;

/// `read_protobuf` of the file `path` of `tree` and the message its output holds, with the call
/// citing it; `None` when the call failed or its output holds no message (each noted under the
/// artefact's name). Shared by the readers of Protocol Buffers files.
pub(super) fn protobuf_message(
    ctx: &AgentCtx<'_>,
    tree: &TreeRef,
    path: &str,
) -> Result<Option<(masf_tools::Invoked, serde_json::Value)>, RuntimeError> {
    let name = artefact_name(tree, path);
    let Some(inv) = crate::calls::call_or_note(
        ctx,
        &name,
        "read_protobuf",
        args_on(tree, json!({"path": path})),
    )?
    else {
        return Ok(None);
    };
    let Some(doc) = crate::outputs::protobuf_document(&inv.output.text) else {
        ctx.unparsed(
            &name,
            "read_protobuf's output holds no message",
            Some(&inv.record.invocation_id),
        )?;
        return Ok(None);
    };
    Ok(Some((inv, doc)))
}

/// Records a page of `leveldb_records` holds.
const LEVELDB_PAGE: u64 = 1000;

/// Every page of `leveldb_records` (values decoded as Protocol Buffers) of the LevelDB folder
/// `dir` of `tree`, read before any record is interpreted (a key's deletion may be recorded in a
/// later file); damage named by the first page's `# problem` lines is noted as `what`'s ("part
/// of <what> is damaged, the records before the damage were read"), records past
/// [`crate::calls::ROW_CAP`] too. `None` when the first call failed (noted).
pub(super) fn leveldb_pages(
    ctx: &AgentCtx<'_>,
    tree: &TreeRef,
    dir: &str,
    name: &str,
    what: &str,
) -> Result<Option<Vec<masf_tools::Invoked>>, RuntimeError> {
    use crate::calls::{ROW_CAP, call_or_note};
    let mut pages: Vec<masf_tools::Invoked> = Vec::new();
    let mut skip = 0u64;
    loop {
        let args = json!({"path": dir, "protobuf": true, "skip": skip, "limit": LEVELDB_PAGE});
        let Some(inv) = call_or_note(ctx, name, "leveldb_records", args_on(tree, args))? else {
            return Ok((!pages.is_empty()).then_some(pages));
        };
        let s = inv.output.structured.clone().unwrap_or_default();
        let shown = s["shown"].as_u64().unwrap_or(0);
        let matched = s["matched"].as_u64().unwrap_or(0);
        if skip == 0 {
            let problems: Vec<&str> = inv
                .output
                .text
                .lines()
                .filter_map(|x| x.strip_prefix("# problem "))
                .collect();
            if !problems.is_empty() {
                ctx.unparsed(
                    name,
                    &format!(
                        "part of {what} is damaged, the records before the damage were read: {}",
                        problems.join("; ")
                    ),
                    Some(&inv.record.invocation_id),
                )?;
            }
        }
        pages.push(inv);
        skip += shown;
        if shown == 0 || skip >= matched || skip >= ROW_CAP {
            if skip < matched {
                ctx.unparsed(
                    name,
                    &format!(
                        "{} records past the first {skip} were not read (the cap of a store)",
                        matched - skip
                    ),
                    pages.last().map(|i| i.record.invocation_id.as_str()),
                )?;
            }
            return Ok(Some(pages));
        }
    }
}

/// The Android plugin.
pub struct AndroidPlugin;

/// The artefacts the agent looks for: (file-name glob, category).
const ARTEFACTS: &[(&str, &str)] = &[
    ("build.prop", "device"),
    ("serial_no", "device"),
    ("factory_reset", "device"),
    ("appops.xml", "apps"),
    ("user.db", "locations"),
    ("last_boot_time_utc", "device"),
    ("persistent_properties", "device"),
    ("checkpoints-*", "device"),
    ("history", "device"),
    ("recovery_history.log", "device"),
    ("hosts", "device"),
    ("telephony.db", "device"),
    ("accounts*.db", "accounts"),
    ("constellation.db", "device"),
    ("google_account_history.db", "accounts"),
    ("contacts2.db", "contacts"),
    ("calllog.db", "calls"),
    ("callscreen_transcripts", "calls"),
    ("sdoc.db", "notes"),
    ("AccountData.pb", "accounts"),
    ("blockednumbers.db", "contacts"),
    ("mmssms.db", "messages"),
    ("bugle_db", "messages"),
    ("msys_database_*", "messages"),
    ("threads_db2", "messages"),
    ("direct.db", "messages"),
    ("*_im.db", "messages"),
    ("db_im_xx", "contacts"),
    ("db_im_contact*", "contacts"),
    ("*kikDatabase.db", "messages"),
    ("kikCoreDatabase.db", "accounts"),
    ("live:*", "messages"),
    ("transfer20.db", "files"),
    ("history.db", "files"),
    ("trans-history-db", "files"),
    ("accountdb.db", "accounts"),
    ("cash_money.db", "transactions"),
    ("groupme.db", "messages"),
    ("main.db", "contacts"),
    ("arroyo.db", "messages"),
    ("user_session_shared_pref.xml", "accounts"),
    ("account_manager", "accounts"),
    ("org_*", "messages"),
    ("tachyon.db", "calls"),
    ("QcDB.db", "device"),
    ("carservicedata.db", "device"),
    ("setup_wizard_info.xml", "device"),
    ("gboard_clipboard.db", "keyboard"),
    ("trainingcache2.db", "keyboard"),
    ("trainingcache3.db", "keyboard"),
    ("trainingcachev3.db", "keyboard"),
    ("ClipItem.db", "keyboard"),
    ("user_dict.db", "keyboard"),
    ("runtime-permissions.xml", "apps"),
    ("annotated_call_log.db", "calls"),
    ("phone_lookup_history.db", "contacts"),
    ("dialer.db", "contacts"),
    ("history_db", "media"),
    ("*.torrent", "files"),
    ("*.resume", "files"),
    ("*.fastresume", "files"),
    ("*.fit", "locations"),
    ("*.FIT", "locations"),
    ("speedtest", "locations"),
    ("app.db", "web"),
    ("cast.db", "device"),
    ("libretorrent.db", "files"),
    ("trash.db", "files"),
    ("myfiles.db", "files"),
    ("FileInfo.db", "files"),
    ("personalsafety_db", "locations"),
    ("fitness.db.*", "health"),
    ("WeatherClock", "locations"),
    ("SkypeTeams.db", "messages"),
    ("a", "messages"),
    ("dynamite.db", "messages"),
    ("tinder-3.db", "messages"),
    ("ChatComDatabase", "messages"),
    ("CombinedConnectionsDatabase", "contacts"),
    ("preferences_storage", "accounts"),
    ("fairemail", "messages"),
    ("burnerDatabase.db", "messages"),
    ("burners.db", "messages"),
    ("linkedInPrefsName.xml", "accounts"),
    ("messenger-sdk*", "messages"),
    ("messageBoxDatabase", "messages"),
    ("LoginData.xml", "accounts"),
    ("????????-????-????-????-????????????.db", "messages"),
    ("????????-????-????-????-????????????", "messages"),
    ("????????-????-????-????-????????????*_*", "contacts"),
    ("user-db-*", "messages"),
    ("app_database", "messages"),
    ("app_v3.db", "messages"),
    ("SGSession.xml", "accounts"),
    ("teleguard_database.db", "messages"),
    ("teleguard_temp.db", "messages"),
    ("MembersEngineRoomDatabase", "contacts"),
    ("messaging.db", "messages"),
    ("L360LocalStoreRoomDatabase", "locations"),
    ("L360EventStore.db", "locations"),
    ("com.amplitude.api", "accounts"),
    ("*conversations.db", "messages"),
    ("*_user.preferences_pb", "accounts"),
    ("acc_*_claude_cache.db", "messages"),
    ("cache.json", "accounts"),
    ("deepseek_chat*.db", "messages"),
    ("c2V0dGluZ3M=", "accounts"),
    ("skoutDatabase", "messages"),
    ("chats.db", "messages"),
    ("network.loki.messenger_preferences.xml", "accounts"),
    ("signal_v4.db", "messages"),
    ("session.db", "messages"),
    ("textnow_data.db", "messages"),
    ("insights.db", "contacts"),
    ("calling-cache.db", "calls"),
    ("imofriends.db", "messages"),
    ("threads_db2-uid", "accounts"),
    ("msgstore.db", "messages"),
    ("wa.db", "contacts"),
    ("com.whatsapp*_preferences_light.xml", "accounts"),
    ("babel*.db", "messages"),
    ("downloads.db", "downloads"),
    ("burners.sqlite", "messages"),
    ("app_usage", "app_usage"),
    ("SimpleStorage", "app_usage"),
    ("webviewCache.db", "web"),
    ("viber_data", "messages"),
    ("viber_messages", "messages"),
    ("usage-history.xml", "app_usage"),
    ("packages.list", "apps"),
    ("packages.xml", "apps"),
    ("*_task.xml", "app_usage"),
    ("library.db", "apps"),
    ("keep.db", "notes"),
    ("suggestions.db", "web"),
    ("localappstate.db", "apps"),
    ("twitter.db", "messages"),
    ("*-66.db", "messages"),
    ("attd_db", "locations"),
    ("da_destination_history", "locations"),
    ("files_master_database", "files"),
    ("search_history_database", "files"),
    ("gmm_myplaces.db", "locations"),
    ("*-db.db", "files"),
    ("*-prefs.db", "accounts"),
    ("karere-*.db", "messages"),
    ("appStorage.json", "accounts"),
    ("odlh-storage.db", "locations"),
    ("flux_database.db", "messages"),
    ("fr-local-db", "locations"),
    ("pinterest.xml", "accounts"),
    ("user.xml", "accounts"),
    ("twitch_user_prefs.xml", "accounts"),
    ("*sms_backup", "messages"),
    ("*mms_backup", "messages"),
    ("322w465ay423xy11", "files"),
    ("messageBoxDatabase.db", "messages"),
    ("com.ebay.kleinanzeigen_preferences.xml", "accounts"),
    ("*@*.*", "web"),
    ("mozac_downloads_database", "web"),
    ("recently_closed_tabs", "web"),
    ("top_sites", "web"),
    ("permissions.sqlite", "web"),
    ("cookies.sqlite", "web"),
    ("DriveBladeDB", "locations"),
    ("*_Player_*.log", "app_usage"),
    ("History", "web"),
    ("Login Data*", "accounts"),
    ("Web Data", "web"),
    ("Shortcuts", "web"),
    ("Cookies", "web"),
    ("Network Action Predictor", "web"),
    ("Top Sites", "web"),
    ("Media History", "web"),
    ("DIPS", "web"),
    ("QTMetadata.db", "files"),
    ("cello.db", "files"),
    ("*-transcription.pb", "calls"),
    ("dhledb.db", "transactions"),
    ("PhoneFactor", "accounts"),
    ("whatsapp*.log", "app_usage"),
    ("whatsapp*.log.gz", "app_usage"),
    ("*cal_v2a", "calendar"),
    ("searches.db", "web"),
    ("NoShowAlertRoomDatabase", "locations"),
    ("PetProfileRoomDatabase", "contacts"),
    ("gphotos*.db", "media"),
    ("local_trash.db", "files"),
    ("disk_cache", "media"),
    ("*VoiceAccountCache.db", "accounts"),
    ("LegacyMsgDbInstance.db", "messages"),
    ("*android_facebook_contacts_db", "contacts"),
    ("*android_facebook_newsfeed_db", "social"),
    ("search_bootstrap_db*", "contacts"),
    ("time_in_app_*.db", "app_usage"),
    ("prefs_db", "apps"),
    ("ULR_USER_PREFS.xml", "locations"),
    ("reflection_gel_events.db", "app_usage"),
    ("search_index.db", "app_usage"),
    ("dwbCommon.db", "app_usage"),
    ("smartSidebar.db", "files"),
    ("com.bittorrent.client_preferences.xml", "apps"),
    ("dlhistory*.config", "files"),
    ("dlhistory*.config.bak", "files"),
    ("eRR.p", "device"),
    ("journal", "web"),
    ("post_booking_reservation_cache", "transactions"),
    ("account_data_cache", "accounts"),
    ("mybooking.xml", "accounts"),
    ("remote_profile.xml", "accounts"),
    ("com.booking_preferences.xml", "web"),
    ("notifications.db", "notifications"),
    (".bash_history", "device"),
    ("?????????????tl", "apps"),
    ("roles.xml", "apps"),
    ("app_icons.db", "apps"),
    ("power_off_reset_reason.txt", "device"),
    ("power_off_reset_reason_backup.txt", "device"),
    ("crypto.KEY_256.xml", "apps"),
    ("share_privacy_safe.xml", "apps"),
    ("CachedGeoposition.db", "locations"),
    ("OfflinePages.db", "web"),
    ("*.mhtml", "web"),
    ("*.mht", "web"),
    ("accounts.xml", "accounts"),
    ("googlesettings.db", "device"),
    ("textfree", "messages"),
    ("com.rarlab.rar_preferences.xml", "files"),
    ("icing_contacts.db", "contacts"),
    ("realtime-demo_KEY_RIDER", "accounts"),
    ("ShortcutsCache_CACHED_SHORTCUTS_MAP_KEY", "locations"),
    ("realtime-demo_KEY_TARGET_LOCATION_SYNCED", "locations"),
    ("realtime-demo_KEY_CITY", "locations"),
    ("payments_KEY_PROFILES", "accounts"),
    ("session_LAST_SESSION", "app_usage"),
    ("realtime-demo_KEY_CLIENT_STATUS", "app_usage"),
    ("CACHED_UBER_LOCATION", "locations"),
    ("ur_message.db", "app_usage"),
    ("PinSettingsImpl.xml", "apps"),
    ("sec_batterystats_history*", "app_usage"),
    ("MyFiles*.db", "files"),
    ("FileCache.db", "files"),
    ("Frequency.db", "files"),
    ("TrashAppInfo.db", "files"),
    ("nautilus_db", "transactions"),
    ("ss_app_log.db", "app_usage"),
    ("applog_stats.xml", "device"),
    ("common_config.xml", "device"),
    ("byte_sync_settings.xml", "device"),
    ("applog_monitor.xml", "device"),
    ("appsflyer-data.xml", "device"),
    ("com.ss.android.deviceregister.utils*.xml", "device"),
    ("payments_recent_db", "transactions"),
    ("rates_database", "apps"),
    ("revolut_support_db", "apps"),
    ("android-devices.db", "apps"),
    ("configuration_storage.pref.xml", "apps"),
    ("tracking", "app_usage"),
    ("PayPal.xml", "apps"),
    ("version.6.shared.keys.xml", "apps"),
    ("FoundationAccount.AccountState.xml", "accounts"),
    ("*_encrypted.xml", "accounts"),
    ("FoundationMigrated.xml", "accounts"),
    ("com.adobe.reader.ARRecentDatabase", "files"),
    (
        "com.adobe.reader.filebrowser.ARRecentsFileManager.ARRecentsFileDatabase",
        "files",
    ),
    ("com.adobe.reader.filebrowser.ARThumbnailDatabase", "files"),
    ("Notification.db", "notifications"),
    ("database", "files"),
    ("DCMQnAConversationDb", "app_usage"),
    ("nba_database", "app_usage"),
    ("ARDatabase", "files"),
    ("com.adobe.reader.multidoc.ARMultiDocDatabase", "files"),
    ("com.adobe.reader.share.ARShareDatabase", "files"),
    ("wf_database.sqlite", "messages"),
    ("vlc_media.db", "media"),
    ("platform.db", "wallets"),
    ("MyPrefsFile.xml", "wallets"),
    ("RDD_ANALYTICS_DATABASE", "device"),
    ("RDD_WIFI_DATA_DATABASE", "wifi"),
    ("recentlyViewedListings", "transactions"),
    ("ListingInteractions", "app_usage"),
    ("AdImpressions", "app_usage"),
    ("etsy-logs", "app_usage"),
    ("EtsyUserPrefs.xml", "accounts"),
    ("SecureEtsyUserPrefs.xml", "accounts"),
    ("EtsyInstallPrefs.xml", "app_usage"),
    ("com.etsy.android_preferences.xml", "app_usage"),
    ("server_config.xml", "app_usage"),
    ("gallery.db", "media"),
    ("appDatabase", "web"),
    ("kdownloader.db", "web"),
    ("com.ornet.torbrowser_preferences.xml", "app_usage"),
    ("RunKeeper.sqlite", "health"),
    (
        "com.fitnesskeeper.runkeeper.pro_preferences.xml",
        "accounts",
    ),
    ("pumatrac-db", "health"),
    ("workout.db", "health"),
    ("mmdk_user", "accounts"),
    ("sm.db", "apps"),
    ("lowpowercontext-system-db", "app_usage"),
    ("com_pocketgeek_sdk_app_inventory.db", "apps"),
    ("com_pocketgeek_sdk.db", "device"),
    ("dme.db", "media"),
    ("scpmv2.db", "device"),
    ("OneUI.db", "apps"),
    ("Icon.db", "apps"),
    ("EmailProvider.db", "messages"),
    ("battery-usage-db-v4", "app_usage"),
    ("battery-usage-db-v9", "app_usage"),
    ("favorites_prediction_db.sqlite", "locations"),
    ("localdata.sqlite", "locations"),
    ("SbbMobile.db", "locations"),
    ("receipts.db", "transactions"),
    ("slopes.db", "locations"),
    ("oruxmapstracks.db", "locations"),
    ("citymapper.db", "locations"),
    ("preferences.xml", "locations"),
    ("Session.xml", "locations"),
    ("superProperties.xml", "locations"),
    ("no_backup_preferences.xml", "locations"),
    ("map_data_storage.db", "accounts"),
    ("com.apple.trackerdetect_preferences.xml", "device"),
    ("PkgPredictions.db", "app_usage"),
    ("gass.db", "apps"),
    ("frosting.db", "apps"),
    ("local.db", "files"),
    ("CURRENT", "locations"),
    ("bluetooth.db", "bluetooth"),
    ("app_usage_stats.xml", "app_usage"),
    ("gcm_user_preferences*.xml", "accounts"),
    ("cache-database", "health"),
    ("gcm_cache.db", "health"),
    ("sync_cache*", "device"),
    ("notification-database", "notifications"),
    ("podcastAddict.db", "media"),
    ("db-drive", "files"),
    ("pikpak_files_*.db", "files"),
    ("pikpak_downloads.db", "files"),
    ("greendao.db", "media"),
    ("devicechannel.db", "device"),
    ("database.hik", "device"),
    ("cmh.db", "media"),
    ("ramdochatV2.db", "messages"),
    ("like_pub.db", "social"),
    ("message_u*.db", "messages"),
    ("*location.kv", "locations"),
    ("PlayHistoryRecordDB", "media"),
    ("msgDB", "messages"),
    ("localRelationDB", "contacts"),
    ("feed_database", "social"),
    ("ArticleDb.db", "social"),
    ("sina_weibo", "social"),
    ("new_recent_history_cache*", "locations"),
    ("saved_directions.data*", "locations"),
    ("OperationHistory.db", "files"),
    ("history_log_database", "files"),
    ("permission_db", "apps"),
    ("ContextLog.db", "app_usage"),
    ("wifigeofence.db", "locations"),
    ("WifiConfigStore.db", "wifi"),
    ("SleepDetection.db", "device"),
    ("badge.db", "notifications"),
    ("Withings-WiScale", "health"),
    ("room-healthmate*", "health"),
    ("origin_db*", "health"),
    ("alltrails", "locations"),
    ("db", "health"),
    ("goals", "health"),
    ("com.nike.nrc.room*", "health"),
    ("ns_inbox.db", "notifications"),
    ("ServerListUpdater.xml", "device"),
    ("Data*.log", "app_usage"),
    ("Moose.db", "apps"),
    ("Settings.db", "apps"),
    ("dbplaybackhistory", "media"),
    ("bookmark", "media"),
    ("db_offline_bookmarks", "media"),
    ("default.xml", "media"),
    ("RecentSearchSharedPref.xml", "media"),
    ("appHistory", "media"),
    ("OfflineDb", "media"),
    ("chess-database", "messages"),
    ("com.chess.app.session_preferences.xml", "accounts"),
    ("com.chess.app.login_credentials.xml", "accounts"),
    ("knuddels*", "messages"),
    ("galleryvault.db", "files"),
    ("hidex.db", "apps"),
    ("media.db", "files"),
    ("com.theronrogers.vaultyfree_preferences.xml", "accounts"),
    ("note_contact.db", "files"),
    ("database.db", "notes"),
    ("data.db", "notes"),
    ("vinted_database_2.db", "transactions"),
    ("activity_db", "health"),
    ("device_database", "device"),
    ("exercise_db", "locations"),
    ("heart_rate_db", "health"),
    ("sleep", "health"),
    ("social_db", "contacts"),
    ("passive_stats.db", "health"),
    ("places.sqlite", "web"),
    ("formhistory.sqlite", "web"),
    ("webview.db", "web"),
    ("cache4.db", "messages"),
    ("userconfing.xml", "accounts"),
    ("tango_android_tc.db", "messages"),
    ("tc.db", "messages"),
    ("tango_profile.db", "contacts"),
    ("turbo.db", "device"),
    ("WifiConfigStore.xml", "wifi"),
    ("WifiConfigStoreSoftAp.xml", "wifi"),
    ("wpa_supplicant.conf", "wifi"),
    ("bt_config.conf", "bluetooth"),
    ("adb_keys", "device"),
    ("settings_ssaid.xml", "device"),
    ("settings_secure.xml", "device"),
    ("settings_global.xml", "device"),
    ("?.xml", "accounts"),
    ("??.xml", "accounts"),
    ("???.xml", "accounts"),
    ("calendar.db", "calendar"),
    ("external*.db", "media"),
    ("naver_line", "messages"),
    ("call_history", "calls"),
    ("CompatibleInfo.cfg", "device"),
    ("EnMicroMsg.db", "messages"),
    ("com.tencent.mm_preferences.xml", "accounts"),
    ("auth_info_key_prefs.xml", "accounts"),
    ("signal.db", "messages"),
    ("signal-key-value.db", "accounts"),
    ("secrets.json", "accounts"),
    ("org.thoughtcrime.securesms_preferences.xml", "accounts"),
    ("persist-*", "wallets"),
    ("RKStorage", "apps"),
    ("tuskyDB", "messages"),
    ("files_chat.db", "messages"),
    ("planetromeo-room.db", "messages"),
    ("INTERCOM_SDK_USER_PREFS.xml", "accounts"),
    ("Gmail.xml", "accounts"),
    ("INTERCOM_DEDUPER_PREFS.xml", "accounts"),
];

/// Android directories (parent, child that must be in it, what it holds) that mark a tree as
/// an Android file system, looked for at any of its first six levels (`crate::layout::LAYOUT_DEPTH`).
const LAYOUT_MARKERS: &[(&str, &str, &str)] = &[
    (
        "data",
        "com.android.providers.telephony",
        "the telephony provider's app data",
    ),
    (
        "data",
        "com.android.providers.contacts",
        "the contacts provider's app data",
    ),
    ("user", "0", "the primary user's app data"),
    ("media", "0", "the primary user's shared storage"),
    ("system", "users", "the system's per-user settings"),
    ("system_ce", "0", "the credential-encrypted system data"),
];

/// Notes `l` unparsed when one of `needed` is not `present` (a table, a column), the reason
/// made by `why` from the missing names joined with ", " and citing `inv` when given; returns
/// whether all are there. The one schema check every Android reader makes before it reads rows.
pub(super) fn require_all(
    ctx: &AgentCtx<'_>,
    l: &Located,
    inv: Option<&masf_tools::Invoked>,
    needed: &[&str],
    present: impl Fn(&str) -> bool,
    why: impl FnOnce(&str) -> String,
) -> Result<bool, RuntimeError> {
    let missing: Vec<&str> = needed.iter().copied().filter(|c| !present(c)).collect();
    if missing.is_empty() {
        return Ok(true);
    }
    ctx.unparsed(
        &artefact_name(&l.tree, &l.path),
        &why(&missing.join(", ")),
        inv.map(|i| i.record.invocation_id.as_str()),
    )?;
    Ok(false)
}

/// The evidence type of a source this plugin recognises as an Android disk.
pub const ANDROID_DISK: &str = "android_disk";

/// GPT partition names that only Android devices use; seeing one makes a disk an Android disk.
const ANDROID_PARTITIONS: &[&str] = &[
    "userdata", "system", "vendor", "boot", "recovery", "efs", "persist", "modem", "metadata",
    "super", "cache", "misc", "vbmeta", "dtbo", "frp", "param",
];

/// The Android partition names of a layer stack, in the order the scan found them.
fn android_partitions(node: &Node) -> Vec<String> {
    let mut names = Vec::new();
    if let Some(p) = &node.partition
        && ANDROID_PARTITIONS.contains(&p.name.to_ascii_lowercase().as_str())
    {
        names.push(p.name.clone());
    }
    for c in &node.children {
        names.extend(android_partitions(c));
    }
    names
}

/// Whether a layer stack holds an Android sparse or super image layer.
fn android_container(node: &Node) -> bool {
    matches!(node.layer.kind.as_str(), "android_sparse" | "android_super")
        || node.children.iter().any(android_container)
}

/// What marks a tree as an Android file system (see [`LAYOUT_MARKERS`]): each found marker as
/// `"<path> (<what it holds>)"`, over the first six levels of each file system of the source
/// ([`crate::layout::find_markers`]).
pub fn android_layout(node: &Node) -> Vec<String> {
    crate::layout::find_markers(node, &mut |_, dir, children| {
        let name = dir.rsplit('/').next().unwrap_or("");
        let found = LAYOUT_MARKERS
            .iter()
            .filter(|(parent, _, _)| name == *parent)
            .filter_map(|(_, child, what)| {
                children
                    .iter()
                    .find(|(n, _)| n == child)
                    .map(|(_, path)| format!("{path} ({what})"))
            })
            .collect();
        (found, true)
    })
}

/// An artefact file found in one of the source's file systems.
#[derive(Debug, Clone)]
pub(crate) struct Located {
    pub tree: TreeRef,
    pub path: String,
    /// The `find_files` call that found it (its output holds the path).
    pub found: masf_tools::Invoked,
}

/// Lists the folder `l` (every entry below it, at most `limit`, one `find_files`) and notes when
/// there were more ("more than <limit> entries in <what>"); `None` when the call failed
/// (noted). The listing readers of a folder found by its name start so.
pub(crate) fn list_folder(
    ctx: &AgentCtx<'_>,
    l: &Located,
    limit: u64,
    what: &str,
) -> Result<Option<masf_tools::Invoked>, RuntimeError> {
    let name = artefact_name(&l.tree, &l.path);
    let Some(listing) = crate::calls::call_or_note(
        ctx,
        &name,
        "find_files",
        args_on(&l.tree, json!({"path": l.path, "limit": limit})),
    )?
    else {
        return Ok(None);
    };
    if listing.output.text.contains("\n# truncated") {
        ctx.unparsed(
            &name,
            &format!(
                "more than {limit} entries in {what}; those past the first {limit} were not read"
            ),
            Some(&listing.record.invocation_id),
        )?;
    }
    Ok(Some(listing))
}

/// The package whose data folder holds `path` (`…/data/data/<package>/…`,
/// `…/data/user/<n>/<package>/…`, `…/data/user_de/<n>/<package>/…`, or on shared storage
/// `…/Android/data/<package>/…`).
pub(crate) fn data_package(path: &str) -> Option<&str> {
    for marker in ["/data/data/", "/Android/data/"] {
        if let Some((_, rest)) = path.split_once(marker) {
            return rest.split('/').next().filter(|p| p.contains('.'));
        }
    }
    let (_, rest) = path
        .split_once("/data/user/")
        .or_else(|| path.split_once("/data/user_de/"))?;
    let mut parts = rest.split('/');
    let _user = parts.next()?;
    parts.next().filter(|p| p.contains('.'))
}

impl Located {
    pub(crate) fn name(&self) -> &str {
        self.path.rsplit('/').next().unwrap_or(&self.path)
    }
}

/// A table [`table_rows`] reads: the store's name for notes (`what`), the table, its required
/// and optional columns, and what its rows are (for the cap's note).
#[derive(Clone, Copy)]
pub(crate) struct TableSpec<'a> {
    pub what: &'a str,
    pub table: &'a str,
    pub required: &'a [&'a str],
    pub optional: &'a [&'a str],
    pub rows: &'a str,
}

/// The rows of `table` of the store `l`, read in pages: `rowid`, each `required` column, each
/// `optional` one (NULL where the table lacks it) and the expressions `extra` makes of the
/// table's columns; a table without a required column is noted as `what`'s unexpected schema,
/// rows past the cap are noted as `rows`. With the artefact's name and the table's columns.
pub(crate) fn table_rows(
    ctx: &AgentCtx<'_>,
    l: &Located,
    spec: &TableSpec<'_>,
    extra: impl Fn(&std::collections::BTreeSet<String>) -> Vec<String>,
) -> Result<Option<(String, crate::calls::Paged)>, RuntimeError> {
    let TableSpec {
        what,
        table,
        required,
        optional,
        rows,
    } = *spec;
    let name = artefact_name(&l.tree, &l.path);
    let Some(cols) =
        crate::identity::required_columns(ctx, &l.tree, &l.path, what, table, required)?
    else {
        return Ok(None);
    };
    let select: Vec<String> = required
        .iter()
        .map(|c| c.to_string())
        .chain(
            optional
                .iter()
                .map(|c| crate::calls::column_or_null(&cols, "", c, c)),
        )
        .chain(extra(&cols))
        .collect();
    let sql = format!(
        "SELECT rowid AS rowid, {} FROM {table} ORDER BY rowid",
        select.join(", ")
    );
    let Some(pages) = crate::identity::pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(None);
    };
    crate::calls::note_pages_cap(ctx, &name, &pages, rows)?;
    Ok(Some((name, pages)))
}

/// A database's tables with their columns (`identity::schema_on`).
pub(crate) type Schema = std::collections::BTreeMap<String, std::collections::BTreeSet<String>>;

/// One phenomenon per row of `table` (with `key`) as `spec` says: `rowid` as `rid`, every
/// column of its fields and times (NULL where the table lacks it) and the expressions `extra`
/// makes of the table's columns.
pub(crate) fn record_table(
    ctx: &AgentCtx<'_>,
    l: &Located,
    schema: &Schema,
    key: &str,
    extra: &dyn Fn(&std::collections::BTreeSet<String>) -> Vec<String>,
    spec: &crate::drafts::RowPhenomena<'_>,
    after: &mut crate::drafts::AfterRow<'_>,
) -> Result<(), RuntimeError> {
    let Some(cols) = schema.get(spec.table) else {
        return Ok(());
    };
    if !crate::calls::require_columns(
        ctx,
        &artefact_name(&l.tree, &l.path),
        &format!("{}'s table {}", l.name(), spec.table),
        spec.table,
        cols,
        &[key],
    )? {
        return Ok(());
    }
    let mut seen = std::collections::BTreeSet::new();
    let select: Vec<String> = spec
        .fields
        .iter()
        .map(|f| f.0)
        .chain(spec.times.iter().map(|t| t.0))
        .filter(|c| seen.insert(*c))
        .map(|c| crate::calls::column_or_null(cols, "", c, c))
        .chain(extra(cols))
        .collect();
    let sql = format!(
        "SELECT rowid AS rid, {} FROM {} ORDER BY rowid",
        select.join(", "),
        spec.table
    );
    record_query(ctx, l, &sql, spec, after)
}

/// One phenomenon per row of `sql` on the store `l` as `spec` says, then `after` on the row
/// ([`crate::drafts::record_rows`]); the rows read in pages, a read stopped at the row cap
/// noted. A query that fails is noted (see [`crate::identity::pages_on`]).
pub(crate) fn record_query(
    ctx: &AgentCtx<'_>,
    l: &Located,
    sql: &str,
    spec: &crate::drafts::RowPhenomena<'_>,
    after: &mut crate::drafts::AfterRow<'_>,
) -> Result<(), RuntimeError> {
    record_query_args(ctx, l, sql, &serde_json::Map::new(), spec, after)
}

/// [`record_query`] with more of `sqlite_query`'s arguments (a `cipher`, decoders).
pub(crate) fn record_query_args(
    ctx: &AgentCtx<'_>,
    l: &Located,
    sql: &str,
    extra: &serde_json::Map<String, serde_json::Value>,
    spec: &crate::drafts::RowPhenomena<'_>,
    after: &mut crate::drafts::AfterRow<'_>,
) -> Result<(), RuntimeError> {
    let Some(pages) = crate::identity::pages_on_args(ctx, &l.tree, &l.path, sql, extra)? else {
        return Ok(());
    };
    crate::calls::note_pages_cap(
        ctx,
        &artefact_name(&l.tree, &l.path),
        &pages,
        &format!("rows of {}", spec.table),
    )?;
    crate::drafts::record_rows(ctx, &l.path, &l.found, &pages, spec, after)
}

impl Plugin for AndroidPlugin {
    fn name(&self) -> &'static str {
        "android"
    }

    /// An Android disk: a partition table with Android partition names, or an Android sparse
    /// or super image (a whole-disk dump or a partition image of a phone).
    fn typing(&self, scan: &Scan) -> Option<DeviceType> {
        let names = android_partitions(&scan.root);
        if !names.is_empty() {
            return Some(DeviceType {
                name: ANDROID_DISK,
                reasons: vec![format!(
                    "partition table with Android partition names: {}",
                    names.join(", ")
                )],
            });
        }
        // the scan's own reasons name the container chain ("Android sparse image holding ext4")
        android_container(&scan.root).then(|| DeviceType {
            name: ANDROID_DISK,
            reasons: scan.reasons.clone(),
        })
    }

    fn detect(&self, source: &SourceCtx, typed: &Typing) -> Option<Detection> {
        if typed.by(self.name()) {
            return Some(Detection {
                score: 100,
                reasons: std::iter::once("sniffed as an Android disk".to_string())
                    .chain(typed.reasons.iter().cloned())
                    .collect(),
            });
        }
        // A file-system extraction, an `adb pull` or a copied `/data` (zip, tar, folder, a
        // stick holding one): claimed by the Android directories it holds, wherever they sit
        // — unless another plugin recognised the source as its own device.
        if typed.plugin.is_some() || source.scan.form == Form::ItunesBackup {
            return None;
        }
        crate::layout::layout_detection(&typed.evidence_type, android_layout(&source.scan.root))
    }

    fn tools(&self) -> Vec<std::sync::Arc<dyn masf_tools::Tool>> {
        vec![
            std::sync::Arc::new(crate::region::PhoneRegionTool),
            std::sync::Arc::new(usagestats::UsageStatsTool),
        ]
    }

    fn expected_artefacts(&self) -> Vec<ExpectedArtefact> {
        let e = |name: &str, detector: &[&str], value_for: &str| ExpectedArtefact {
            name: name.to_string(),
            detector: detector.iter().map(|d| d.to_string()).collect(),
            value_for: value_for.to_string(),
        };
        vec![
            e(
                "partition table",
                &["partition_table", "fs_info"],
                "partitions, encryption",
            ),
            e("build.prop", &["/build.prop\""], "model, build, serial"),
            e(
                "telephony.db",
                &["/telephony.db\""],
                "SIM ICCID, own number",
            ),
            e(
                "accounts_ce.db",
                &["/accounts.db\"", "/accounts_ce.db\"", "/accounts_de.db\""],
                "Google account",
            ),
            e("contacts2.db", &["/contacts2.db\""], "contacts"),
            e("calllog.db", &["/calllog.db\""], "calls"),
            e(
                "blockednumbers.db",
                &["/blockednumbers.db\""],
                "the numbers the user blocked",
            ),
            e(
                "mmssms.db",
                &["/mmssms.db\""],
                "SMS, MMS with their parts and attachments, threads; LG's RCS chat messages and file transfers",
            ),
            e(
                "Google Messages bugle_db",
                &["/bugle_db\""],
                "SMS, MMS and RCS messages with their parts and attachments; the SIM numbers sent from",
            ),
            e(
                "Facebook Messenger msys_database",
                &["/msys_database_"],
                "Messenger contacts (Facebook ids, names, user names, e-mails, phones), messages with attachments and reactions, calls",
            ),
            e(
                "Facebook threads_db2",
                &["/threads_db2\""],
                "Messenger and Facebook app users (Facebook ids, names, user names), messages with attachments, shares, places and reactions, calls; the signed-in id (threads_db2-uid)",
            ),
            e(
                "Instagram direct.db",
                &["com.instagram.android/databases/direct.db\""],
                "Instagram direct threads (every user's id, user name, full name) and messages (text, reel replies, actions, links); the signed-in account",
            ),
            e(
                "TikTok / Douyin messages",
                &[
                    "/com.zhiliaoapp.musically/databases/",
                    "/com.ss.android.ugc.trill/databases/",
                    "/com.ss.android.ugc.aweme/databases/",
                ],
                "TikTok and Douyin direct messages (text, GIFs and links) and the users they name (uid, @handle, nickname); the signed-in uid",
            ),
            e(
                "Kik kikDatabase.db",
                &["kikDatabase.db\"", "/kikCoreDatabase.db\""],
                "Kik messages (body, attachments, groups), users and groups (JIDs, user names, display names), the account's user name",
            ),
            e(
                "Skype live:<account>",
                &["/com.skype.raider/databases/live:"],
                "Skype messages and calls, contacts and group participants (Skype ids, names); the signed-in account",
            ),
            e(
                "GroupMe groupme.db",
                &["/com.groupme.android/databases/groupme.db\""],
                "GroupMe groups (creator, counters), their members (GroupMe user ids, names) and messages (sender, text, pictures, videos, locations, deletions)",
            ),
            e(
                "Truecaller tc.db, insights.db, calling-cache.db",
                &[
                    "/com.truecaller/databases/tc.db\"",
                    "/com.truecaller/databases/insights.db\"",
                    "/com.truecaller/databases/calling-cache.db\"",
                ],
                "Truecaller's call history (numbers, cached names), the contacts it cached from its directory lookups (names, numbers, company, spam scores), messaging peers, classified SMS senders and call lookups",
            ),
            e(
                "TextNow textnow_data.db",
                &["/com.enflick.android.TextNow/databases/textnow_data.db\""],
                "TextNow messages (direction, text, attachments, groups), calls and contacts (numbers, names)",
            ),
            e(
                "Google Duo / Meet tachyon.db",
                &["/com.google.android.apps.tachyon/databases/tachyon.db\""],
                "Duo / Meet calls, notes and reactions (local and remote user, direction, state), video and audio notes (sender, recipient, file), the users it knows (numbers or e-mails, names); the device's own number",
            ),
            e(
                "Microsoft Teams SkypeTeams.db",
                &["/com.microsoft.teams/databases/SkypeTeams.db\""],
                "Microsoft Teams messages (sender name and MRI, HTML content, conversation topic, arrival and delete times), the directory users it cached (names, e-mails, numbers, flags), call logs (originator, target, direction, state), the activity feed and file references",
            ),
            e(
                "Discord kv-storage",
                &["/com.discord/files/kv-storage/@account."],
                "Discord's cached messages (author ids, user and global names, channel, content, attachments, embeds, mentioned users, edits, calls); the signed-in account",
            ),
            e(
                "Google Chat dynamite.db",
                &[
                    "/com.google.android.gm/databases/user_accounts/",
                    "/com.google.android.apps.dynamite/databases/dynamite.db",
                ],
                "Google Chat messages (creator, conversation, text, attachments, meetings, reactions), conversations, drafts and users (Google account ids, e-mails, names); the signed-in account",
            ),
            e(
                "Tinder tinder-3.db",
                &["/com.tinder/databases/tinder-3.db\""],
                "Tinder messages (sender, recipient, text, GIFs, direction), matches (the matched person's name, bio, birth date, photo URLs, flags), inbox messages from Tinder, the account's last activity and user id",
            ),
            e(
                "Bumble ChatComDatabase and settings",
                &[
                    "/com.bumble.app/databases/ChatComDatabase\"",
                    "/com.bumble.app/files/c2V0dGluZ3M=\"",
                ],
                "Bumble messages (direction, sender and recipient ids, text, URLs) and matches (user names, ages, genders, modes, image URLs, user ids); the signed-in user (user id, e-mail, phone, name, from the settings file)",
            ),
            e(
                "Badoo ChatComDatabase and CombinedConnectionsDatabase",
                &[
                    "/com.badoo.mobile/databases/ChatComDatabase\"",
                    "/com.badoo.mobile/databases/CombinedConnectionsDatabase\"",
                ],
                "Badoo messages (sender and recipient ids, text, URLs, question-game answers) and matches (user names, ages, genders, photo URLs, work, education, user and encrypted ids); connections (names, genders, origins, avatars, last messages shown)",
            ),
            e(
                "K-9 Mail and Thunderbird preferences and account stores",
                &[
                    "/com.fsck.k9/databases/",
                    "/net.thunderbird.android/databases/",
                ],
                "e-mail accounts (address, shown name, incoming and outgoing servers, user names, last sync) and each account's e-mails (sender and recipients, subject, preview, full text or first body part, header, folder, flags, dates)",
            ),
            e(
                "Kijiji messageBoxDatabase and LoginData.xml",
                &[
                    "/com.ebay.kijiji.ca/databases/messageBoxDatabase\"",
                    "/com.ebay.kijiji.ca/shared_prefs/LoginData.xml\"",
                ],
                "Kijiji messages (the ad, the other user's id and name, sender, state, text) and the signed-in user (e-mail, display name, eBay user id)",
            ),
            e(
                "LinkedIn preferences and messenger store",
                &[
                    "/com.linkedin.android/shared_prefs/linkedInPrefsName.xml\"",
                    "/com.linkedin.android/databases/messenger-sdk",
                ],
                "the signed-in LinkedIn member (member id, e-mail, names, headline, public identifier, last login), messages (sender with headline and profile URL, subject, text, conversation and its label, delivery) and the members of the conversations",
            ),
            e(
                "Burner burnerDatabase.db and burners.db",
                &[
                    "/com.adhoclabs.burner/databases/burnerDatabase.db\"",
                    "/com.adhoclabs.burner/databases/burners.db\"",
                ],
                "the device's user's Burner second numbers (created, names, auto-replies, minutes and texts left, expiry), texts and calls on them (the other party's number and name, direction, text, attachment URL, duration), contacts, subscriptions",
            ),
            e(
                "ChatGPT conversations and account",
                &[
                    "/com.openai.chatgpt/databases/",
                    "/com.openai.chatgpt/files/datastore/",
                ],
                "ChatGPT conversations (title, times, GPT id), every message of both store generations (role, text, model, flags, references, times), the signed-in account (user id, e-mail, name)",
            ),
            e(
                "DeepSeek stores",
                &["/com.deepseek.chat/databases/deepseek_chat"],
                "DeepSeek chats (title, updated) and every message (role, the prompt's or answer's text, time), the signed-in account (user id, e-mail, mobile number)",
            ),
            e(
                "Claude cache and account",
                &[
                    "/com.anthropic.claude/databases/",
                    "/com.anthropic.claude/cache/app_start/",
                ],
                "Claude conversations, every message (sender, text, file, time), projects, the signed-in account (names, e-mail)",
            ),
            e(
                "Life360 stores",
                &["/com.life360.android.safetymapd/databases/"],
                "Life360 circle members (names, login e-mails and phones, roles, circles), circle messages with shared locations, saved places and their alerts, the device's recorded positions with battery and Wi-Fi, the analytics store's user id",
            ),
            e(
                "TeleGuard teleguard_database.db",
                &["/ch.swisscows.messenger.teleguardapp/app_flutter/teleguard_database.db\""],
                "TeleGuard messages, calls and chat events (sender and receiver with their aliases, direction, text, metadata), contacts, channels and their posts, drafts, the account (server id, alias, phone)",
            ),
            e(
                "MeWe store and session",
                &[
                    "/com.mewe/databases/app_database\"",
                    "/com.mewe/databases/app_v3.db\"",
                    "/com.mewe/shared_prefs/SGSession.xml\"",
                ],
                "MeWe chat messages (sender and user id, thread, text, attachments, deleted), chat participants, posts, comments, post media, polls, reactions, groups, pages and communities; the session preferences",
            ),
            e(
                "Zangi message store",
                &["/com.beint.zangi/databases/"],
                "Zangi messages (time, direction, chat, ids, text, attachment, the sender's and recipient's numbers and names)",
            ),
            e(
                "Reddit stores",
                &["/com.reddit.frontpage/databases/"],
                "Reddit: the account (name, id, e-mail, masked phone, karma, flags), cached communities, the chat session's user, cached users (Reddit and Matrix ids, karma, flags), chat events (messages with media, reactions, deletions, membership) with senders and direction, rooms and members",
            ),
            e(
                "Bluesky storage and HTTP cache",
                &["/xyz.blueskyweb.app/"],
                "Bluesky: the signed-in accounts (DID, handle, e-mail, PDS, status), settings (languages, muted threads, hidden posts), searches; from the app's cached API answers every profile (handle, name, description, counts, relationship), conversation (members, unread, last message), direct message (text, sender, conversation, links, reactions, direction) and post (author, text, languages, counts, reply, embed)",
            ),
            e(
                "Hinge store",
                &["/co.hinge.app/databases/"],
                "Hinge: the account holder's own profile (names, e-mail, birthday, the place it is set to, every attribute), match preferences, cached profiles of other people with their photos, videos and prompt answers, the account holder's own media and answers, queued in-app events, match and chat rows",
            ),
            e(
                "Mastodon caches and session files",
                &["/org.joinmastodon.android/"],
                "Mastodon: the signed-in accounts (handle, names, counts, bio, instance, push alerts), instances, recent searches (hashtags, accounts, statuses), notifications (type, from whom, the status), the home timeline's statuses (author, application, text, attachments, boosts, counts, visibility) with direct messages as messages",
            ),
            e(
                "Threads preferences and stores",
                &["/com.instagram.barcelona/"],
                "Threads: the accounts the app recorded (id, user name, picture, current, last seen), foreground intervals per account, the posts held in each account's feed store (author, text, likes, code, media type, source)",
            ),
            e(
                "SimpleX Chat files_chat.db",
                &["/chat.simplex.app/files/files_chat.db\""],
                "SimpleX Chat (read with the extraction's key file): the user's profiles and SimpleX address, contacts with their addresses, messages of direct and group chats (direction, text, quotes, edits, deletions, disappearing), file transfers (never their keys), earlier versions of edited messages, reactions",
            ),
            e(
                "Intercom SDK user preferences",
                &[
                    "/INTERCOM_SDK_USER_PREFS.xml\"",
                    "/INTERCOM_DEDUPER_PREFS.xml\"",
                ],
                "the user any app embedding the Intercom SDK identified to it (Grok among them): user id, e-mail, name, every attribute such as Grok's X user name",
            ),
            e(
                "Digital Wellbeing account",
                &["/com.google.android.apps.wellbeing/files/AccountData.pb\""],
                "the Google account Digital Wellbeing is signed in with, and the file's other texts",
            ),
            e(
                "Samsung Notes sdoc.db",
                &["/com.samsung.android.app.notes/databases/sdoc.db\""],
                "Samsung Notes: title, text, created, modified, opened, deleted notes in the recycle bin; wallet addresses and amounts in them",
            ),
            e(
                "Google Call Screen transcripts",
                &["/callscreen_transcripts\""],
                "calls the Phone app's assistant answered: what the caller said, each utterance with its time, the recording",
            ),
            e(
                "Gmail active account",
                &["/com.google.android.gm/shared_prefs/Gmail.xml\""],
                "the account the Gmail app has active: a Google account of the phone's user",
            ),
            e(
                "ROMEO planetromeo-room.db and accounts.db",
                &["/com.planetromeo.android.app/databases/"],
                "ROMEO (PlanetRomeo): messages with their chat partner, status and images attached, contacts with the profile fetched (headline, note, age, city, country, flags), the account (user name, e-mail, location, profile)",
            ),
            e(
                "Tusky tuskyDB",
                &["/com.keylesspalace.tusky/databases/tuskyDB\""],
                "Tusky (Mastodon): the signed-in accounts (user name, domain, display name, notification settings), timeline accounts, statuses (author, text, attachments, counts, visibility; direct ones as messages), direct conversations, notifications",
            ),
            e(
                "Outlook preferences",
                &["/com.microsoft.office.outlook/shared_prefs/"],
                "Outlook: the accounts of its credential broker (e-mail, names, phone number, birthday, account and tenant ids, token claims and times), the installation (install id, versions), the settings",
            ),
            e(
                "Proton Mail stores",
                &["/ch.protonmail.android/databases/"],
                "Proton Mail e-mails (sender, recipients, subject, conversation, folders and labels, flags), attachments (with the decrypted copies the app cached, or where the user saved them), contacts, the account (user id, addresses, names, login) of the current app's store, of db-mail and of the first app's stores",
            ),
            e(
                "Wire store, encrypted store and Proteus sessions",
                &["/com.wire/databases/", "/proteus/sessions/", "/files/otr/"],
                "Wire users (the account's own and every other: id, name, handle, e-mail, phone, connection), clients (model, label, verification, registration), messages (time, type, text, asset name, call duration, sender, conversation, likes), deletions; the current app's SQLCipher store detected; Proteus sessions (the other party's user id, domain and client)",
            ),
            e(
                "FairEmail fairemail",
                &["/eu.faircode.email/databases/fairemail\""],
                "e-mail accounts and identities (addresses, names, signatures, servers, user names, created and last connected), contacts (addresses, names, times contacted), e-mails (every address and name of from, to, cc and bcc, return path, subject, preview, folder, seen, attachments, dates)",
            ),
            e(
                "Session preferences and stores",
                &[
                    "/network.loki.messenger/shared_prefs/network.loki.messenger_preferences.xml\"",
                    "/network.loki.messenger/databases/",
                ],
                "Session: the account's Account ID and profile (name, avatar, registration id), every preference; its SQLCipher message stores detected",
            ),
            e(
                "Skout skoutDatabase",
                &["/com.skout.android/databases/skoutDatabase\""],
                "Skout messages (sender, text, pictures, gifts, threads) and the users they were exchanged with (user ids, names, pictures); the device's user id",
            ),
            e(
                "MeetMe chats.db",
                &["/com.myyearbook.m/databases/chats.db\""],
                "MeetMe messages (sender member id and name, body, type, attachment path, thread)",
            ),
            e(
                "Slack account_manager and org_<team id>",
                &[
                    "/com.Slack/databases/account_manager\"",
                    "/com.Slack/databases/org_",
                ],
                "Slack: the signed-in account (user id, e-mail, workspace; never its tokens), the workspace members it cached (user ids, e-mails, phones, names, flags), channels and DMs, messages and thread replies (sender, text, files, reactions), shared files",
            ),
            e(
                "Snapchat main.db and arroyo.db",
                &[
                    "/com.snapchat.android/databases/main.db\"",
                    "/com.snapchat.android/databases/arroyo.db\"",
                    "/com.snapchat.android/shared_prefs/user_session_shared_pref.xml\"",
                ],
                "Snapchat friends (user ids, user names, display names, phones) and chat messages (sender, conversation, the text of chat messages, read, saved, viewed); the device's user",
            ),
            e(
                "Cash App cash_money.db",
                &["/com.squareup.cash/databases/cash_money.db\""],
                "Cash App payments: time, amount, state, note, both parties' customer ids, $cashtags and display names; which side the device's user is",
            ),
            e(
                "imo imofriends.db",
                &[
                    "/imofriends.db\"",
                    "/com.imo.android.imoim/databases/",
                    "/com.imo.android.imous/databases/",
                ],
                "imo messages (text, attachment path, direction, read) and buddies (imo user ids, names); the signed-in account",
            ),
            e(
                "msgstore.db",
                &["/msgstore.db\"", "/wa.db\""],
                "WhatsApp messages (media, locations, quotes), calls, groups with their participants; wa.db contacts; the account's number and name",
            ),
            e(
                "WhatsApp msgstore.db add-ons",
                &[
                    "/com.whatsapp/databases/msgstore.db\"",
                    "/com.whatsapp.w4b/databases/msgstore.db\"",
                ],
                "WhatsApp reactions, edited messages, messages deleted for everyone (and by which admin), polls with their vote totals, when each recipient got, read and played the user's messages, group events and number changes",
            ),
            e("packages.list", &["/packages.list\""], "installed apps"),
            e(
                "users/<id>.xml",
                &["/system/users/0.xml\"", "/system/users/10.xml\""],
                "the device's users: name, type, created, last logged in",
            ),
            e(
                "recent_tasks",
                &["/recent_tasks/"],
                "the apps in the overview screen: activity, app, who started it, first and last active",
            ),
            e(
                "packages.xml",
                &["/system/packages.xml\""],
                "when each app was first installed and last updated, by which installer (plain XML or ABX)",
            ),
            e(
                "Google Keep keep.db",
                &["/com.google.android.keep/databases/keep.db\""],
                "notes and lists of each Google account, with whom each is shared",
            ),
            e(
                "Play Store library.db, localappstate.db and suggestions.db",
                &[
                    "/com.android.vending/databases/library.db\"",
                    "/com.android.vending/databases/localappstate.db\"",
                    "/com.android.vending/databases/suggestions.db\"",
                ],
                "what each Google account acquired and when (the accounts are the owner's); which apps the store installed and updated, when and for which account; Play Store searches",
            ),
            e(
                "Hangouts babel.db",
                &["/babel"],
                "Hangouts messages and participants",
            ),
            e(
                "Firefox places.sqlite and formhistory.sqlite",
                &["/places.sqlite\"", "/formhistory.sqlite\""],
                "Firefox for Android visits, bookmarks, downloads, form values",
            ),
            e(
                "usage statistics",
                &["/usagestats/"],
                "which app was used when and for how long; activity, screen and keyguard events",
            ),
            e(
                "Wi-Fi hotspot",
                &["/WifiConfigStoreSoftAp.xml\""],
                "the hotspot the phone offers others: its name, security, band, hidden flag, blocked and allowed clients (never its passphrase)",
            ),
            e(
                "Waze user.db",
                &["/com.waze/user.db\""],
                "Waze's places, recent destinations, saved places (home, work), places shared with the user, planned drives",
            ),
            e(
                "app ops",
                &["/appops.xml\""],
                "when each app last used or was refused location, camera, microphone, contacts, SMS, clipboard and other protected operations",
            ),
            e(
                "device lifecycle",
                &[
                    "/bootstat/",
                    "/shutdown-checkpoints/",
                    "/persistent_properties\"",
                    "/recovery/history\"",
                    "/recovery_history.log\"",
                ],
                "when the device was last reset to its factory state and last booted (bootstat), each shutdown or reboot request with who asked, the boot reasons with their times and the properties kept across boots (persistent_properties), Samsung's recovery history (every factory reset with who asked — remotely by Find My Mobile or Find My Device, or in Settings —, firmware updates, when)",
            ),
            e(
                "Samsung WeatherClock",
                &["/com.sec.android.daemonapp/databases/WeatherClock\""],
                "the places Samsung's weather widget showed (the phone's current location as it moved, the cities added): city, state, country, time zone, conditions, when",
            ),
            e(
                "FCM queued messages",
                &["/com.google.android.gms/files/fcm_queued_messages.ldb/"],
                "the push messages Google Play services received for each app (chat apps' pushes, notifications with their title and text, sync requests): the app, every payload key and value, sender, ids, when queued and sent, delivered or still queued — often the only copy of a message its app encrypts or deleted",
            ),
            e(
                "Google Fit fitness.db",
                &["/com.google.android.gms/databases/fitness.db."],
                "Google Fit's sessions (walking, running, biking, sleeping: start, end, the app that recorded them) and the Google account they belong to",
            ),
            e(
                "Android Auto carservicedata.db",
                &["/com.google.android.projection.gearhead/databases/carservicedata.db\""],
                "the cars the phone projected to with Android Auto: make, model, year, head unit, the car's Bluetooth address and Wi-Fi network, when connected (never the Wi-Fi password)",
            ),
            e(
                "unknown tracker alerts personalsafety_db",
                &["/com.google.android.gms/databases/personalsafety_db\""],
                "the Bluetooth trackers not the user's (AirTags, Tiles, SmartTags) that Android saw travelling with the phone: alerts, each sighting with its signal strength and where the phone was",
            ),
            e(
                "Samsung trash trash.db",
                &["/com.samsung.android.providers.trash/databases/trash.db\""],
                "the files the user deleted to Samsung's trash: original path, the copy kept in the trash, name, size, type, the app it was deleted from, when deleted and when it expires",
            ),
            e(
                "Samsung My Files recent files",
                &[
                    "/com.sec.android.app.myfiles/databases/myfiles.db\"",
                    "/com.sec.android.app.myfiles/databases/FileInfo.db\"",
                ],
                "the files the user opened or handled through Samsung's My Files: name, path, size, app, downloaded, hidden or trashed, when",
            ),
            e(
                "Samsung My Files operation history",
                &["/com.sec.android.app.myfiles/databases/OperationHistory.db\""],
                "the copies, moves and deletions the user ran in Samsung's My Files: the paths (the older releases' obfuscated paths decoded, the newer releases' source and destination of each item), how many items, the result, when",
            ),
            e(
                "Samsung Secure Folder history_log_database",
                &["/com.samsung.knox.securefolder/databases/history_log_database\""],
                "what was moved into and out of the Secure Folder: the Android users from and to, the app, how many items, the folder, when",
            ),
            e(
                "Samsung Privacy Dashboard permission_db",
                &["/com.samsung.android.privacydashboard/databases/permission_db\""],
                "which app used the camera, microphone, location or another protected permission, in the background or not, and when",
            ),
            e(
                "Samsung ContextLog.db",
                &["/com.samsung.android.providers.context/databases/ContextLog.db\""],
                "the apps in use (start, stop, duration) and the apps installed or removed, kept even after an app is deleted",
            ),
            e(
                "Samsung wifigeofence.db",
                &["/system/wifigeofence.db\""],
                "the Wi-Fi networks the phone keeps a geofence for, with the position recorded for each (latitude, longitude) and its BSSID",
            ),
            e(
                "Samsung WifiConfigStore.db",
                &["/system/WifiConfigStore.db\""],
                "the Wi-Fi networks saved on a Samsung phone (SSID, security, captive portal, when created; never a key)",
            ),
            e(
                "Samsung SleepDetection.db",
                &["/com.samsung.android.mcfds/databases/SleepDetection.db\""],
                "when the screen went on and off and the nights Samsung's continuity service detected from the phone's use",
            ),
            e(
                "Samsung badge.db",
                &["/com.sec.android.provider.badge/databases/badge.db\""],
                "the unread-count badges on the apps' icons when the store was last written",
            ),
            e(
                "Google Cast cast.db",
                &["/com.google.android.gms/databases/cast.db\""],
                "the Cast receivers (televisions, speakers, Chromecasts) found on the networks the phone joined: name, model, ids, address, when last discovered",
            ),
            e(
                "LibreTorrent libretorrent.db",
                &["/libretorrent.db\""],
                "the torrents added to LibreTorrent or BitLord: name, info hash, magnet link, download folder, when added, paused or failed",
            ),
            e(
                "DuckDuckGo browser",
                &[
                    "/com.duckduckgo.mobile.android/databases/history.db\"",
                    "/com.duckduckgo.mobile.android/databases/app.db\"",
                ],
                "DuckDuckGo's browsing history (pages and searches with their queries, when) and its open tabs",
            ),
            e(
                "Ookla Speedtest",
                &["/org.zwanoo.android.speedtest/databases/speedtest\""],
                "the speed tests the user ran (external and internal IP addresses, network, position, speeds, when) and the app's reports with positions and the Wi-Fi networks around",
            ),
            e(
                "BitTorrent files",
                &["read_bencode "],
                "torrent files (info hash, name, every file they hold with its size, trackers, when created) and clients' resume data (where saved, when added and completed, how much downloaded and uploaded)",
            ),
            e(
                "telephony backup of SMS and MMS",
                &["/com.android.providers.telephony/d_f/"],
                "the SMS and MMS of the telephony provider's backup (as adb backup or a device transfer leaves it): messages that may be gone from mmssms.db since, with their parties, text and times",
            ),
            e(
                "Twitch account",
                &[
                    "/tv.twitch.android.app/shared_prefs/user.xml\"",
                    "/tv.twitch.android.app/shared_prefs/twitch_user_prefs.xml\"",
                ],
                "the Twitch account signed in (the owner's e-mail, login and display name, user id, verified, partner, when created)",
            ),
            e(
                "Pinterest account",
                &["/com.pinterest/shared_prefs/pinterest.xml\""],
                "the Pinterest account signed in (the owner's e-mail, user name and name, birthday, country, counts, the accounts it is connected to)",
            ),
            e(
                "NQ Vault hidden files",
                &["/com.netqin.ps/files/Documents/SystemAndroid/Data/322w465ay423xy11\""],
                "the pictures and videos the user hid in the NQ Vault app: original folder and name, where the vault keeps them, when hidden, album, and the PIN's hash",
            ),
            e(
                "Kleinanzeigen account and messages",
                &[
                    "/com.ebay.kleinanzeigen/databases/messageBoxDatabase.db\"",
                    "/com.ebay.kleinanzeigen/shared_prefs/com.ebay.kleinanzeigen_preferences.xml\"",
                ],
                "the Kleinanzeigen marketplace account (the owner's e-mail, phone, name, saved location) and every message with buyers and sellers about an ad",
            ),
            e(
                "Ryanair fr-local-db",
                &["/com.ryanair.cheapflights/databases/fr-local-db\""],
                "the Ryanair account (the owner's e-mail, phone, name, birth date, nationality), every booked flight (number, airports, departure and arrival, record locator) and every passenger of the bookings",
            ),
            e(
                "Yahoo Mail flux_database.db",
                &["/com.yahoo.mobile.client.android.mail/databases/flux_database.db\""],
                "the Yahoo Mail accounts signed in (the owner's e-mails) and every cached e-mail with its sender, recipients, subject, snippet, flags, folder and, where fetched, its body",
            ),
            e(
                "Google app recent searches",
                &["/com.google.android.googlequicksearchbox/files/recently/"],
                "what the user searched for and the pages they opened from the Google app, per Google account (the file's name: the account's e-mail, the owner's)",
            ),
            e(
                "FIT activity files",
                &["read_fit "],
                "the activity files of watches and fitness apps (Garmin, Strava, Wahoo…): the devices with their serial numbers, the user profile, each session's sport, start, distance and start position, the first and last track points",
            ),
            e(
                "Now Playing history_db",
                &[
                    "/com.google.android.as/databases/history_db\"",
                    "/com.google.intelligence.sense/db/history_db\"",
                ],
                "the songs a Pixel recognised playing near it on its own (title, artist, album, year, when, time zone): where music was playing around the phone",
            ),
            e(
                "Google Phone app stores",
                &[
                    "/com.google.android.dialer/databases/annotated_call_log.db\"",
                    "/com.google.android.dialer/databases/phone_lookup_history.db\"",
                    "/com.google.android.dialer/databases/dialer.db\"",
                ],
                "the Phone app's own call log (calls that may be gone from the system's, voicemail transcriptions), the numbers it looked up with their names and caller ID, smart-dial entries, cached caller IDs from directories",
            ),
            e(
                "runtime permissions",
                &["/runtime-permissions.xml\""],
                "which dangerous permissions (location, camera, microphone, contacts, SMS, call log …) each app held or was refused, per Android user",
            ),
            e(
                "setup wizard record",
                &["/shared_prefs/setup_wizard_info.xml\""],
                "when the phone's setup wizard finished: the first use of the phone after it was new or reset",
            ),
            e(
                "Google Maps labelled places",
                &["/com.google.android.apps.maps/databases/gmm_myplaces.db\""],
                "the places the user labelled in Google Maps (Home, Work, their own labels) with address, coordinates, link and when synced",
            ),
            e(
                "Shazam library.db",
                &["/com.shazam.android/databases/library.db\""],
                "every song Shazam recognised, when, and where the phone was (coordinates, place, city, country)",
            ),
            e(
                "Dropbox stores",
                &["/com.dropbox.android/databases/"],
                "the Dropbox account signed in (e-mail, account id, plan, sign-up and last login), the files and folders in it with their times, the thumbnails the app cached",
            ),
            e(
                "MEGA chat karere db",
                &["/mega.privacy.android.app/karere-"],
                "MEGA's chat history (messages with their text, attachments, calls, joins), its chats and the MEGA users it knows with their e-mail addresses",
            ),
            e(
                "Firefox downloads, closed tabs, top sites, permissions, cookies",
                &[
                    "/mozac_downloads_database\"",
                    "/recently_closed_tabs\"",
                    "/top_sites\"",
                    "/permissions.sqlite\"",
                    "/cookies.sqlite\"",
                ],
                "Firefox's downloads (file, URL, status, folder, when), the tabs the user closed, the home screen's top sites, the permissions given or refused to sites, and the sites that set cookies (names only, never values)",
            ),
            e(
                "Google on-device Timeline odlh-storage.db",
                &["/com.google.android.gms/databases/odlh-storage.db\""],
                "the phone's on-device Google Timeline: every visit and activity segment with its start, end and the place's coordinates, and the segments the user edited",
            ),
            e(
                "Life360 drives DriveBladeDB",
                &["/com.life360.android.safetymapd/databases/DriveBladeDB\""],
                "every drive Life360 detected for a circle member (start, end, speeds, distance, hard braking, phone use, crashes) with each event's position and the route's waypoints",
            ),
            e(
                "Roblox",
                &["/com.roblox.client/files/appData/"],
                "the Roblox account signed in (user id, user name, display name, under 13, country, how it signed in), the accounts its picker remembers, and every game the client joined (place, server, when)",
            ),
            e(
                "Gboard clipboard and typing caches",
                &[
                    "/com.google.android.inputmethod.latin/databases/gboard_clipboard.db\"",
                    "/com.google.android.inputmethod.latin/databases/trainingcache2.db\"",
                    "/com.google.android.inputmethod.latin/databases/trainingcache3.db\"",
                    "/com.google.android.inputmethod.latin/databases/trainingcachev3.db\"",
                ],
                "what the user copied while Gboard was the keyboard (text, links, images, pinned), what they typed in which app and text box as Gboard kept it to learn from, and its typing sessions per app",
            ),
            e(
                "Todoist database.db",
                &["/com.todoist/databases/database.db\""],
                "the user's Todoist projects, tasks (with due dates, labels, who added and who is assigned) and the comments on them with their files, and the people the projects are shared with (e-mail addresses, names)",
            ),
            e(
                "vault apps (GalleryVault, HideX, Vaulty, Calculator Lock)",
                &[
                    "/com.thinkyeah.galleryvault/databases/galleryvault.db\"",
                    "/com.flatfish.cal.privacy/databases/hidex.db\"",
                    "/com.theronrogers.vaultyfree/databases/media.db\"",
                    "/com.theronrogers.vaultyfree/shared_prefs/com.theronrogers.vaultyfree_preferences.xml\"",
                    "/com.calculator.lock.hide.photo.video/databases/note_contact.db\"",
                ],
                "the files the user hid in vault apps (original path and name, where the vault keeps them, when hidden), GalleryVault's break-in photos with the wrong code and position, the apps HideX locks, Vaulty's Drive backup account and PIN hash, and the notes, contacts and browsing Calculator Lock hides behind its calculator",
            ),
            e(
                "Knuddels chat store",
                &["/com.knuddels.android/databases/knuddels"],
                "Knuddels chats (every message with its sender, chat, participants, time; snaps said) and the users the app knows (nickname, user id, age, last active); the owner by the nickname the store is named after",
            ),
            e(
                "Chess.com account and chess-database",
                &[
                    "/com.chess/databases/chess-database\"",
                    "/com.chess/shared_prefs/com.chess.app.session_preferences.xml\"",
                    "/com.chess/shared_prefs/com.chess.app.login_credentials.xml\"",
                ],
                "the Chess.com account signed in (the owner's user name and e-mail, member since; a saved password said, never copied), its friends (user names, names, last login), its daily games (players, result, first and last move) and its messages with the other players",
            ),
            e(
                "Netflix appHistory and OfflineDb",
                &[
                    "/com.netflix.mediaclient/databases/appHistory\"",
                    "/com.netflix.mediaclient/databases/OfflineDb\"",
                ],
                "what Netflix played and when (playable ids, sessions, streams with their IP addresses), the account's profiles, where each title was left off and the titles downloaded for offline viewing",
            ),
            e(
                "Disney+ resume points, last played and searches",
                &[
                    "/com.disney.disneyplus/databases/db_offline_bookmarks\"",
                    "/com.disney.disneyplus/shared_prefs/default.xml\"",
                    "/com.disney.disneyplus/shared_prefs/RecentSearchSharedPref.xml\"",
                ],
                "where each Disney+ title was left off and when, per profile, the item last played (overall and per series), and the searches the app keeps per profile",
            ),
            e(
                "Prime Video dbplaybackhistory and bookmark",
                &[
                    "/com.amazon.avod.thirdpartyclient/files/databases/dbplaybackhistory\"",
                    "/com.amazon.avod.thirdpartyclient/files/databases/bookmark\"",
                ],
                "the titles played in Prime Video (series, season, episode, how far, on which profile of which account, when last played) and where each was left off",
            ),
            e(
                "NordVPN Moose.db and Settings.db",
                &[
                    "/com.nordvpn.android/databases/Moose.db\"",
                    "/com.nordvpn.android/databases/Settings.db\"",
                ],
                "the VPN server NordVPN last recorded (domain, IP address, city, country) with the phone's own ISP, the queued app events each saying whether the phone was on the VPN and on which network, and the connection settings (auto-connect exceptions, technology, preferred location, custom DNS)",
            ),
            e(
                "Proton VPN ServerListUpdater.xml and connection log",
                &[
                    "/ch.protonvpn.android/shared_prefs/ServerListUpdater.xml\"",
                    "/ch.protonvpn.android/log/Data.log\"",
                ],
                "the public IP address, ISP and country Proton VPN last saw the phone at, and every connection the app logged (when, to which server and entry IP, connected, disconnected)",
            ),
            e(
                "Google Drive cello.db",
                &["/app_cello/"],
                "the files and folders of the Google account's Drive the Drive app cached (folder paths, owned or shared with the account, trashed, when created, changed, viewed), the Google account signed in",
            ),
            e(
                "Nike Run Club",
                &[
                    "/com.nike.plusgps/databases/com.nike.nrc.room",
                    "/com.nike.plusgps/databases/ns_inbox.db\"",
                ],
                "the runs Nike Run Club recorded or synced (when, how far and fast, heart rate, pauses, the route's point count and where it began and ended) and the notifications its inbox kept",
            ),
            e(
                "Adidas Running (Runtastic)",
                &[
                    "/com.runtastic.android/databases/db\"",
                    "/com.runtastic.android/databases/user.db\"",
                    "/com.runtastic.android/databases/goals\"",
                ],
                "the Adidas Running account (e-mail, name, user id: the owner's), every session it recorded (when, how far, pulse, weather, the route's point count and where it began and ended) and its goals",
            ),
            e(
                "AllTrails alltrails",
                &["/com.alltrails.alltrails/databases/alltrails\""],
                "the AllTrails account (e-mail, user name, id, home place: the owner's), the hikes and rides it recorded (when, how far, elevation; each track's start and end positions and times), the photos with their places, and the user's lists",
            ),
            e(
                "Zepp Life origin_db",
                &["/com.xiaomi.hm.health/databases/origin_db"],
                "the heart rate the Zepp Life (Mi Fit) band measured, per day: how many samples, the lowest, average and highest reading and when the first and last were taken (so when the band was worn)",
            ),
            e(
                "Withings Health Mate",
                &[
                    "/com.withings.wiscale2/databases/Withings-WiScale\"",
                    "/com.withings.wiscale2/databases/room-healthmate",
                ],
                "the Withings account holder (e-mail, id, name: the owner's) and the people measured under the account, the scales and watches paired (by Bluetooth address, with where they were set up), weighings and blood-pressure readings, each day's activity, tracked workouts with their GPS start and end, GPS points per day, and the leaderboard's people (never the devices' keys)",
            ),
            e(
                "Google Maps recent searches and navigations",
                &["/com.google.android.apps.maps/files/new_recent_history_cache"],
                "what the user searched for in Google Maps and the places they started navigating to: the text, the place's coordinates, its Maps URL, when",
            ),
            e(
                "Google Maps last trip",
                &["/com.google.android.apps.maps/files/saved_directions.data"],
                "the last directions asked for in Google Maps: origin, stops and destination with their names, addresses and coordinates, and two times",
            ),
            e(
                "Weibo feed_database, ArticleDb.db and sina_weibo",
                &[
                    "/com.sina.weibo/databases/feed_database\"",
                    "/com.sina.weibo/databases/ArticleDb.db\"",
                    "/com.sina.weibo/databases/sina_weibo\"",
                ],
                "the Weibo account signed in (the owner's uid), the posts cached for its timeline with their authors, text, counts, topics and times, the long posts' full text and the images the posts reference",
            ),
            e(
                "Xiaohongshu (RED) PlayHistoryRecordDB, msgDB and localRelationDB",
                &[
                    "/com.xingin.xhs/databases/PlayHistoryRecordDB\"",
                    "/com.xingin.xhs/databases/msgDB\"",
                    "/com.xingin.xhs/databases/localRelationDB\"",
                ],
                "the notes in Xiaohongshu's play history (title, description, author, when) and the account it is filed under (the owner's); whether its messages and contact relations are encrypted",
            ),
            e(
                "Likee like_pub.db, message stores and location files",
                &[
                    "/video.like/databases/like_pub.db\"",
                    "/video.like/databases/message_u",
                    "location.kv\"",
                ],
                "the Likee users searched for (names, Likee IDs, user ids), the messages of its chat store, and the address text its location files hold",
            ),
            e(
                "RandoChat ramdochatV2.db",
                &["/com.random.chat.app/databases/ramdochatV2.db\""],
                "the RandoChat account (the owner's nickname, age, sex and whom it searches for), the strangers it chatted with (nicknames, ages, blocked) and every message with them, sent or received",
            ),
            e(
                "Samsung CMH cmh.db",
                &["/com.samsung.cmh/databases/cmh.db\""],
                "the Samsung Gallery's images with where they were taken and the address it resolved, what the phone's image analysis recorded against each (scene labels, text read in the image, QR and barcode content) and the tags the user added",
            ),
            e(
                "Hik-Connect database.hik",
                &["/com.connect.enduser/databases/database.hik\""],
                "the Hikvision CCTV recorders and cameras the Hik-Connect app reaches (name, serial number, port, DDNS address) and their channels; a stored login is said, never copied",
            ),
            e(
                "Dahua DMSS devicechannel.db",
                &["/com.mm.android.DMSS/databases/devicechannel.db\""],
                "the Dahua CCTV recorders and cameras the DMSS app reaches (name, serial number, address and port as stored) and their channels; a stored login is said, never copied",
            ),
            e(
                "PikPak pikpak_files, pikpak_downloads.db and greendao.db",
                &[
                    "/com.pikcloud.pikpak/databases/pikpak_files_",
                    "/com.pikcloud.pikpak/databases/pikpak_downloads.db\"",
                    "/com.pikcloud.pikpak/databases/greendao.db\"",
                ],
                "the files and folders of the PikPak cloud drive (the account the owner's), what the app downloaded and from where (web links, magnet links) and the videos it played",
            ),
            e(
                "Proton Drive db-drive",
                &["/me.proton.android.drive/databases/db-drive\""],
                "the Proton account signed in to Proton Drive (the owner's), its files, folders and albums as last listed (names encrypted, said not decrypted), its shares and who invited it to them; never a key or passphrase",
            ),
            e(
                "Podcast Addict podcastAddict.db",
                &["/com.bambuna.podcastaddict/databases/podcastAddict.db\""],
                "the podcasts Podcast Addict follows and the episodes it played, started or downloaded (when, how far); a private feed's login is said, never copied",
            ),
            e(
                "Garmin Connect stores and preferences",
                &[
                    "/com.garmin.android.apps.connectmobile/databases/",
                    "/com.garmin.android.apps.connectmobile/shared_prefs/gcm_user_preferences",
                ],
                "the Garmin Connect account (the owner's e-mail or user name and user id), the watches and sensors paired with the phone (unit ids — the serial numbers of their FIT files —, Bluetooth addresses, when last connected and synced), every activity cached (where it started and ended, when, how far, whose), routes, daily totals, sleep, weight, SpO2, and the phone's notifications passed on to the watch",
            ),
            e(
                "Device Health bluetooth.db and app_usage_stats.xml",
                &[
                    "/com.google.android.apps.turbo/databases/bluetooth.db\"",
                    "/com.google.android.apps.turbo/shared_prefs/app_usage_stats.xml\"",
                ],
                "the Bluetooth devices that connected to the phone (headsets, cars, watches: by address) with their battery and volume over time, and when each app was launched",
            ),
            e(
                "Play services semantic location raw signals",
                &["/com.google.android.gms/app_semanticlocation_rawsignal_db/CURRENT\""],
                "the phone's own location fixes Google Play services kept for its on-device Timeline (latitude, longitude, accuracy, when), whether or not the user opened a Timeline",
            ),
            e(
                "Samsung Gallery local.db",
                &["/com.sec.android.gallery3d/databases/local.db\""],
                "the pictures and videos the user deleted to Samsung Gallery's trash (original path, the copy kept, type, size, where taken, when taken and deleted) and the deletions, restores and emptying of the trash the app logged",
            ),
            e(
                "Play Store frosting.db",
                &["/com.android.vending/databases/frosting.db\""],
                "the apps whose install or update the Play Store handled, with their APK path and when the record was last updated (removed apps too)",
            ),
            e(
                "Google Play services: app records (gass.db)",
                &["/com.google.android.gms/databases/gass.db\""],
                "the apps Play services recorded on the phone, each with its version code and the SHA-256 digest of its package (removed apps too)",
            ),
            e(
                "Samsung package predictions PkgPredictions.db",
                &["/PkgPredictions.db\""],
                "the app launches Samsung's app prediction sampled: which app was opened and when, the three opened before it, the phone's orientation, Wi-Fi and Bluetooth then",
            ),
            e(
                "Apple Tracker Detect preferences",
                &[
                    "/com.apple.trackerdetect/shared_prefs/com.apple.trackerdetect_preferences.xml\"",
                ],
                "the Find My trackers (AirTags and the like) Apple's Tracker Detect found near the phone when its user scanned, by Bluetooth address, and the app's settings",
            ),
            e(
                "Amazon Shopping map_data_storage.db",
                &["/com.amazon.mShop.android.shopping/databases/map_data_storage.db\""],
                "the Amazon account signed in to Amazon Shopping (its id, the customer's name, country of residence and marketplace: the owner's) — never its tokens or cookies",
            ),
            e(
                "Citymapper citymapper.db and preferences",
                &[
                    "/com.citymapper.app.release/databases/citymapper.db\"",
                    "/com.citymapper.app.release/shared_prefs/preferences.xml\"",
                    "/com.citymapper.app.release/shared_prefs/Session.xml\"",
                ],
                "the places the user looked up or saved in Citymapper (home and work among them, with their coordinates), the commutes saved between them, and the app's last position for the phone, the IP address it stored and when it was last used",
            ),
            e(
                "OruxMaps oruxmapstracks.db",
                &["/oruxmaps/tracklogs/oruxmapstracks.db\""],
                "the tracks OruxMaps recorded or holds (where and when each began and ended, how far, its points counted) and the waypoints the user saved, with their places and times",
            ),
            e(
                "Slopes slopes.db",
                &["/com.consumedbycode.slopes/databases/slopes.db\""],
                "the ski and snowboard days Slopes recorded (where, when the first run began and the last ended, how far and fast, the area the phone covered) and the resorts it keeps",
            ),
            e(
                "REMA 1000 receipts.db",
                &["/dk.rema1000.app/databases/receipts.db\""],
                "the REMA 1000 purchase receipts the app kept: when, in which store (number, street, town), how much, paid how (card type, masked card number)",
            ),
            e(
                "SBB Mobile SbbMobile.db",
                &["/databases/SbbMobile.db\""],
                "the train connections looked up in SBB Mobile (from, to, when), the places searched, the SwissPass travel cards and the tickets bought, with the traveller's name, route, payment and validity",
            ),
            e(
                "MeteoSwiss favorites_prediction_db.sqlite (Android)",
                &["/ch.admin.meteoswiss/databases/favorites_prediction_db.sqlite\""],
                "the places whose MeteoSwiss forecasts the user looked at (postal code, place, when) and where the phone was each time the app was opened",
            ),
            e(
                "Battery usage battery-usage-db-v4 and battery-usage-db-v9",
                &[
                    "/com.google.android.settings.intelligence/databases/battery-usage-db-v4\"",
                    "/com.android.settings/databases/battery-usage-db-v9\"",
                ],
                "which apps drew battery in each hourly snapshot of the battery-usage screen (foreground and background use, power, battery level and status, boot time) and when each app's activity came to the front or left it",
            ),
            e(
                "Gmail EmailProvider.db",
                &["/com.google.android.gm/databases/EmailProvider.db\""],
                "the IMAP, POP3 and Exchange accounts added to the Gmail app (the owner's addresses, their servers and logins — never the passwords or tokens) and their e-mails: sender, recipients, subject, snippet, folder, attachments, when",
            ),
            e(
                "Samsung One UI Home OneUI.db and Icon.db",
                &[
                    "/com.sec.android.app.launcher/databases/OneUI.db\"",
                    "/com.sec.android.app.launcher/databases/Icon.db\"",
                ],
                "the apps, folders and widgets on a Samsung phone's home screen and apps screen (which folder each is in, which page, hidden apps, work-profile copies) and the apps whose icons the launcher cached, with when",
            ),
            e(
                "Samsung SCPM scpmv2.db",
                &["/com.samsung.android.scpm/databases/scpmv2.db\""],
                "the Samsung phone as it registered with Samsung's policy service: the device name the user gave it, model, Android version, country, SIM and sales codes, when it registered and last reached the service",
            ),
            e(
                "Samsung Story Service dme.db",
                &["/com.samsung.storyservice/databases/dme.db\""],
                "the pictures and videos Samsung's Story Service indexed, with where each was taken and the place names it resolved (country, town, place of interest, street), scenes and faces, and the moments it grouped them into with their times and places",
            ),
            e(
                "Samsung Members PocketGeek stores",
                &[
                    "/com.samsung.oh/databases/com_pocketgeek_sdk_app_inventory.db\"",
                    "/com.samsung.oh/databases/com_pocketgeek_sdk.db\"",
                ],
                "the apps Samsung Members' diagnostics listed on the phone (names, SHA-1 of the package, when last used) and the device events it logged",
            ),
            e(
                "Samsung Device Care sm.db and lowpowercontext-system-db",
                &[
                    "/com.samsung.android.sm/databases/sm.db\"",
                    "/com.samsung.android.sm/databases/lowpowercontext-system-db\"",
                ],
                "which apps crashed on a Samsung phone and when (Device Care), and the app-use sessions its low-power context service logged (app, activity, start, end)",
            ),
            e(
                "MapMyWalk workout.db and mmdk_user",
                &[
                    "/com.mapmywalk.android2/databases/workout.db\"",
                    "/com.mapmywalk.android2/databases/mmdk_user\"",
                ],
                "the walks MapMyWalk recorded (when, for how long, how far and fast; each route's point count and where and when it began and ended) and the Under Armour account signed in (e-mail, user name, birth date, country: the owner's)",
            ),
            e(
                "PUMATRAC pumatrac-db",
                &["/com.pumapumatrac/databases/pumatrac-db\""],
                "the workouts PUMATRAC recorded (when, how long, how far and fast, in which city; each route's point count and where and when it began and ended), the account signed in (e-mail, name, date of birth, location: the owner's) and the athletes the app showed",
            ),
            e(
                "Runkeeper RunKeeper.sqlite and preferences",
                &[
                    "/com.fitnesskeeper.runkeeper.pro/databases/RunKeeper.sqlite\"",
                    "/com.fitnesskeeper.runkeeper.pro/shared_prefs/com.fitnesskeeper.runkeeper.pro_preferences.xml\"",
                ],
                "the activities Runkeeper recorded (when, how long, how far; each route's point count and where and when it began and ended) and the account signed in (Runkeeper and ASICS ids, name: the owner's)",
            ),
            e(
                "Ornet / Tor Browser appDatabase, kdownloader.db and preferences",
                &[
                    "/com.ornet.torbrowser/databases/appDatabase\"",
                    "/com.ornet.torbrowser/databases/kdownloader.db\"",
                    "/com.ornet.torbrowser/shared_prefs/com.ornet.torbrowser_preferences.xml\"",
                ],
                "the pages visited, bookmarked and left open in the Ornet Tor browser (URLs, titles, when visited), what was searched for and downloaded, and when the app was last closed",
            ),
            e(
                "Honor media library gallery.db",
                &["/com.hihonor.medialibrary/databases/gallery.db\""],
                "the pictures and videos Honor's Gallery indexed: where each file is, when it was added and taken, where it was taken, and which sit in the recycle bin with the path they were deleted from",
            ),
            e(
                "Etsy stores and preferences",
                &[
                    "/com.etsy.android/databases/recentlyViewedListings\"",
                    "/com.etsy.android/databases/ListingInteractions\"",
                    "/com.etsy.android/databases/AdImpressions\"",
                    "/com.etsy.android/databases/etsy-logs\"",
                    "/com.etsy.android/shared_prefs/EtsyUserPrefs.xml\"",
                ],
                "the Etsy account signed in (the owner's e-mail, user id, login), the listings viewed and shown (with views and records the app had already dropped, recovered from the write-ahead log), the ads shown and tapped, the app's log records and when it was first and last started",
            ),
            e(
                "Verizon RDD analytics and Wi-Fi stores",
                &[
                    "/com.verizon.mips.services/databases/RDD_ANALYTICS_DATABASE\"",
                    "/com.verizon.mips.services/databases/RDD_WIFI_DATA_DATABASE\"",
                ],
                "the phone's battery, charging and screen state as Verizon's diagnostics service sampled it, and the Wi-Fi networks it joined and left (BSSID, SSID, IP address, traffic, cell) with when",
            ),
            e(
                "BRD platform.db and MyPrefsFile.xml",
                &[
                    "/com.breadwallet/databases/platform.db\"",
                    "/com.breadwallet/shared_prefs/MyPrefsFile.xml\"",
                ],
                "the BRD (Bread Wallet) wallet's receive addresses kept in clear (the owner's), the transactions it kept metadata on (by hash, when written), its key-value records and preferences (never the push token)",
            ),
            e(
                "VLC vlc_media.db",
                &["/org.videolan.vlc/app_db/vlc_media.db\""],
                "the audio and video files VLC indexed and played: how often, where each was left off, when last played, the file and its folder, and the thumbnails it cached",
            ),
            e(
                "Zynga wf_database.sqlite",
                &[
                    "/com.zynga.chess.googleplay/databases/wf_database.sqlite\"",
                    "/com.zynga.chess.googleplay/db/wf_database.sqlite\"",
                    "/com.zynga.words/db/wf_database.sqlite\"",
                ],
                "the players Chess With Friends and Words With Friends know (names, e-mail addresses, phone numbers, Zynga ids), their in-game chat messages with sender and time, and the games (who created them, whose move, the moves kept)",
            ),
            e(
                "Adobe Reader recent files",
                &[
                    "/com.adobe.reader/shared_prefs/FoundationMigrated.xml\"",
                    "/com.adobe.reader/databases/com.adobe.reader.ARRecentDatabase\"",
                    "/com.adobe.reader/databases/com.adobe.reader.filebrowser.ARRecentsFileManager.ARRecentsFileDatabase\"",
                    "/com.adobe.reader/databases/com.adobe.reader.filebrowser.ARThumbnailDatabase\"",
                    "/com.adobe.reader/databases/Notification.db\"",
                    "/com.adobe.reader/databases/database\"",
                    "/com.adobe.reader/databases/DCMQnAConversationDb\"",
                    "/com.adobe.reader/databases/nba_database\"",
                    "/com.adobe.reader/databases/ARDatabase\"",
                    "/com.adobe.reader/databases/com.adobe.reader.multidoc.ARMultiDocDatabase\"",
                    "/com.adobe.reader/databases/com.adobe.reader.share.ARShareDatabase\"",
                ],
                "the Adobe account signed in to Acrobat Reader (the owner's e-mail and Adobe ID), the documents it opened (paths, when last, how often), its document list with cloud and sharing state, comment notifications with their authors, shared and reviewed documents, AI Assistant conversations, the tools used and the cloud transfers",
            ),
            e(
                "PayPal tracking and preferences",
                &[
                    "/com.paypal.android.p2pmobile/databases/tracking\"",
                    "/com.paypal.android.p2pmobile/shared_prefs/",
                ],
                "the PayPal app's sessions (when, how many events; the events themselves encrypted), its device and installation ids, and which account stores it keeps encrypted (said, never read)",
            ),
            e(
                "Revolut payments_recent_db and app state",
                &[
                    "/com.revolut.revolut/databases/payments_recent_db\"",
                    "/com.revolut.revolut/databases/rates_database\"",
                    "/com.revolut.revolut/databases/revolut_support_db\"",
                    "/com.revolut.revolut/databases/android-devices.db\"",
                    "/com.revolut.revolut/shared_prefs/configuration_storage.pref.xml\"",
                ],
                "the recipients the Revolut app listed as recently paid (contact codes naming Revolut users, bank and crypto ids, transaction ids; no amounts), when it last fetched rates and its configuration, and its help and device caches (counted)",
            ),
            e(
                "CapCut ss_app_log.db and preferences",
                &[
                    "/com.lemon.lvoverseas/databases/ss_app_log.db\"",
                    "/com.lemon.lvoverseas/shared_prefs/applog_stats.xml\"",
                    "/com.lemon.lvoverseas/shared_prefs/common_config.xml\"",
                ],
                "what the CapCut video editor logged while it ran (sessions with the screens shown, each event with its parameters and time), the signed-in account's user id (the owner's) and the ByteDance device and install ids of the app on the phone",
            ),
            e(
                "eBay nautilus_db and suggestions.db",
                &[
                    "/com.ebay.mobile/databases/nautilus_db\"",
                    "/com.ebay.mobile/databases/suggestions.db\"",
                ],
                "what the user searched for on eBay (recent searches, queries kept), the listings on the watch list, the sellers followed, the app's sessions with the screens shown, its state and configuration, and the user ids it keyed them by (the public id the owner's) — never a token",
            ),
            e(
                "Samsung My Files downloads, Drive, index, cache and trash",
                &[
                    "/com.sec.android.app.myfiles/databases/myfiles.db\"",
                    "/com.sec.android.app.myfiles/databases/FileInfo.db\"",
                    "/com.sec.android.app.myfiles/databases/MyFiles",
                    "/com.sec.android.app.myfiles/databases/FileCache.db\"",
                    "/com.sec.android.app.myfiles/databases/Frequency.db\"",
                    "/com.sec.android.app.myfiles/databases/TrashAppInfo.db\"",
                    "/com.sec.android.app.myfiles/files/trash\"",
                ],
                "the files Samsung's My Files lists as downloaded (name, path, the page or app they came from, when), the Google Drive files it showed, its index of storage, the user's searches in it, the files it cached previews of, the folders opened most, each app's trash count and the files deleted to its own trash (original folder, when)",
            ),
            e(
                "Samsung Device Health battery history",
                &["/com.sec.android.sdhms/databases/sec_batterystats_history"],
                "which apps (by uid) drew battery day by day and how long they ran in the foreground and background, used the CPU, GPS and audio; how long the screen was on each day",
            ),
            e(
                "AVG AntiVirus vault lock and Photo Vault",
                &[
                    "/com.antivirus/shared_prefs/PinSettingsImpl.xml\"",
                    "/Vault\"",
                ],
                "whether AVG's Photo Vault is locked by a PIN or a pattern (never their hashes) and the files hidden in it: their names as the vault keeps them, sizes and when they were written",
            ),
            e(
                "Uber rider app",
                &[
                    "/com.ubercab/files/base-key-value-store/",
                    "/com.ubercab/files/simplestore/",
                    "/com.ubercab/databases/ur_message.db\"",
                ],
                "the Uber rider account (uuid, e-mail, mobile: the owner's), the destinations the app suggested (addresses, coordinates, when), its target and cached locations, the city it served, the payment profiles (never a card number), the last session and the telemetry it queued (device, session, city, network)",
            ),
            e(
                "Google Play services: contacts index (icing_contacts.db)",
                &["/com.google.android.gms/databases/icing_contacts.db\""],
                "the address book as Play services indexed it for search (names, numbers, e-mail and postal addresses, organisation, times contacted, last updated), a copy kept apart from contacts2.db",
            ),
            e(
                "RAR preferences",
                &["/com.rarlab.rar/shared_prefs/com.rarlab.rar_preferences.xml\""],
                "the archives RAR opened and the folders it extracted them to (paths, most recent first), its start and default extraction folders and settings",
            ),
            e(
                "Sideline textfree",
                &["/com.sideline.phone.number/databases/textfree\""],
                "the second number's texts, calls and voicemails with the other party's number and the name Sideline's contacts give it",
            ),
            e(
                "Google Services Framework googlesettings.db",
                &["/com.google.android.gsf/databases/googlesettings.db\""],
                "the partner settings Google's apps read: the phone's partner build (client ids), the location consent flags, the framework's logging id",
            ),
            e(
                "sync manager accounts (system/sync/accounts.xml)",
                &["/system/sync/accounts.xml\""],
                "every account the sync manager syncs with its providers (contacts, calendar, mail…), whether each syncs automatically, each user's auto-sync switch",
            ),
            e(
                "Grok video cache (exoplayer_internal.db, .exo spans)",
                &[
                    "/ai.x.grok/databases/exoplayer_internal.db\"",
                    "/ai.x.grok\"",
                ],
                "the videos Grok's player cached: each span's original URL (user-generated under the account's folder, or public), when written and last read by the player, whether its file is still on disk",
            ),
            e(
                "Chromium OfflinePages.db",
                &["/Offline Pages/metadata/OfflinePages.db\""],
                "the pages a Chromium browser saved for reading offline (URL, original URL, title, the archive's path, size and SHA-256, whether the user downloaded the page or the browser kept it by itself, the app that asked for it, how often opened, when saved and last opened)",
            ),
            e(
                "MHTML saved web pages",
                &[".mhtml\"}", ".mht\"}"],
                "web pages saved as single-file MHTML archives (by a Chromium browser's Download page, Save page or offline pages): the page's address, title and date from the archive's header",
            ),
            e(
                "Browser CachedGeoposition.db",
                &["/app_geolocation/CachedGeoposition.db\""],
                "the last position the AOSP Browser (or an app's WebKit WebView) gave a web page that asked for the device's location: latitude, longitude, accuracy, when",
            ),
            e(
                "App Locker (HLD) vault",
                &["/.privacy_safe\"", "/shared_prefs/share_privacy_safe.xml\""],
                "the pictures and videos hidden in App Locker's .privacy_safe folder (the vault's names, sizes, when written), its vault index (encrypted: said; a plain copy: each file's original name and path, album, when hidden) and whether an unlock pattern is set (never the pattern)",
            ),
            e(
                "Playground AppLocker vault",
                &["/applocker\""],
                "the files moved into Playground AppLocker's vault (picture, video or preview, size, when hidden from the time in their names), its intruder photos, and whether its vault key file is on the device (never read)",
            ),
            e(
                "Samsung power-off and reset log",
                &[
                    "/log/power_off_reset_reason.txt\"",
                    "/log/power_off_reset_reason_backup.txt\"",
                ],
                "when a Samsung phone was shut down or restarted and why (the user from the power menu, a flat battery, an update …) and which code asked, and when it started again (in charge-only mode too) with the power-off and power-on sources and reset status its power-management side recorded",
            ),
            e(
                "Pixel Launcher app_icons.db",
                &["/com.google.android.apps.nexuslauncher/databases/app_icons.db\""],
                "the apps and activities the Pixel Launcher cached an icon and label for (package, version code, the user or work profile, the languages the phone was set to, when each package was last installed or updated), apps removed since that the launcher had not yet cleaned too",
            ),
            e(
                "role holders",
                &["/roles.xml\""],
                "which app holds each role per Android user: the default SMS app, phone app, browser, digital assistant, home screen, caller ID and spam app, wallet",
            ),
            e(
                "discrete app ops history",
                &["/appops/discrete/"],
                "each access of an app to the camera, microphone, location, contacts, call log, SMS and other protected operations over the last week (the privacy dashboard's history): when, how long, in the foreground or background, for which attribution tag",
            ),
            e(
                "bash history",
                &["/.bash_history\""],
                "the commands typed in a bash shell on the phone (Termux, a rooted shell), in order, with their times when bash kept them",
            ),
            e(
                "Booking.com caches and preferences",
                &[
                    "/com.booking/databases/post_booking_reservation_cache\"",
                    "/com.booking/databases/account_data_cache\"",
                    "/com.booking/databases/notifications.db\"",
                    "/com.booking/shared_prefs/mybooking.xml\"",
                    "/com.booking/shared_prefs/remote_profile.xml\"",
                    "/com.booking/shared_prefs/com.booking_preferences.xml\"",
                ],
                "the Booking.com account (the owner's e-mail, phone and user id), every reservation the app cached (property, address, check-in and check-out, status) with its rooms, the last hotel search and the app's notifications; never the booking PIN codes, cards or tokens",
            ),
            e(
                "OkHttp response caches",
                &["read_okhttp_cache"],
                "the addresses every app fetched through OkHttp (Retrofit, Picasso, Coil, Apollo) and the answers it cached: URL, method, status, content type, server headers and certificates, when the request was sent and the answer received; never the credentials or cookies",
            ),
            e(
                "Samsung eRR.p power events",
                &[
                    "/system/users/service/data/eRR.p\"",
                    "/system/users/service/eRR.p\"",
                ],
                "when a Samsung phone was shut down or restarted (with the reason written), when it started again or into charge-only mode, with the codes and details its power events log keeps",
            ),
            e(
                "BitTorrent download history and preferences",
                &[
                    "/dlhistory",
                    "/com.bittorrent.client/shared_prefs/com.bittorrent.client_preferences.xml\"",
                ],
                "what BitTorrent (or µTorrent) for Android downloaded, where each download was saved and when it was recorded, and how the client was set up (download folder, limits, when it first started)",
            ),
            e(
                "Tor Browser page thumbnails",
                &[
                    "/org.torproject.torbrowser/cache/mozac_browser_thumbnails/thumbnails\"",
                    "/org.torproject.torbrowser_alpha/cache/mozac_browser_thumbnails/thumbnails\"",
                ],
                "the thumbnails Tor Browser cached of the pages open in its tabs (images of the pages, when each was written)",
            ),
            e(
                "Smart Sidebar File Dock (smartSidebar.db, transferdock)",
                &[
                    "/com.coloros.smartsidebar/databases/smartSidebar.db\"",
                    "/.com_coloros_smartsidebar\"",
                ],
                "what the user dropped into an OPPO, OnePlus or realme phone's Smart Sidebar File Dock: media dragged out of an app (which app, captured when), text selections, links and files, kept as copies that outlive the originals, with when each was added and the items removed from the dock",
            ),
            e(
                "Samsung media provider media.db",
                &["/com.samsung.android.providers.media/databases/media.db\""],
                "every file Samsung's media provider indexed (path, type, size, owning app, when taken, added and modified, where a picture was taken and the address resolved for it, the page and app a screenshot was captured from, the URL a download came from, whether it is hidden, in the trash or deleted) and the places it resolved",
            ),
            e(
                "Samsung Digital Wellbeing dwbCommon.db",
                &["/com.samsung.android.forest/databases/dwbCommon.db\""],
                "the app-usage events Samsung's Digital Wellbeing recorded (apps to the foreground and background, screen on and off, unlocks, start-ups and shutdowns, with the package and time) and the time-zone changes it logged",
            ),
            e(
                "Settings search index search_index.db",
                &[
                    "/com.android.settings.intelligence/databases/search_index.db\"",
                    "/com.google.android.settings.intelligence/databases/search_index.db\"",
                    "/com.android.settings/databases/search_index.db\"",
                ],
                "what the user searched for in the Settings app (Wi-Fi, developer options, factory reset …) and when",
            ),
            e(
                "Android System Intelligence reflection_gel_events.db",
                &["/com.google.android.as/databases/reflection_gel_events.db\""],
                "the app launches and uses Android System Intelligence (Device Personalization Services) recorded for its app predictions, with the app and time, apps since removed too",
            ),
            e(
                "Location History preferences ULR_USER_PREFS.xml",
                &["/com.google.android.gms/shared_prefs/ULR_USER_PREFS.xml\""],
                "for each Google account on the phone, whether Location Reporting and Location History were on, with Play services' other Location History settings and their times",
            ),
            e(
                "Life360 driver-behaviour trips (DriverBehavior/trips/*.json)",
                &["/com.life360.android.safetymapd/files/DriverBehavior/trips"],
                "the trips Life360's driving SDK recorded: each event (hard braking, speeding, phone use, crash) with where, how fast and when, and each route's first and last waypoint",
            ),
            e(
                "Android intrusion logs (Intrusion Logging/YYYY-MM-DD.txt)",
                &[
                    "/Intrusion Logging\"",
                    "/intrusion_logs\"",
                    "/intrusion-logs\"",
                ],
                "what Android 16's intrusion logging recorded: every DNS lookup and connection with the app that made it, and the security events (ADB shell commands, unlock attempts, app installs, process starts, certificates installed, Wi-Fi and Bluetooth connections)",
            ),
            e(
                "Google Maps voice guidance (app_tts-cache)",
                &["/com.google.android.apps.maps/app_tts-cache"],
                "the navigation instructions Google Maps spoke, one audio file each, with the time it cached each (navigation running then) and the text a file carries",
            ),
            e(
                "Glide image caches (cache/image_manager_disk_cache)",
                &["/cache/image_manager_disk_cache"],
                "the images apps that load pictures with Glide kept after showing them (social, shopping, news, dating apps): each image with when it was cached and its format, and the cache journal's history of what was shown again and evicted",
            ),
            e(
                "Facebook app stores",
                &[
                    "android_facebook_contacts_db\"",
                    "android_facebook_newsfeed_db\"",
                    "/com.facebook.katana/databases/search_bootstrap_db",
                    "/com.facebook.katana/databases/time_in_app_",
                    "/com.facebook.katana/databases/prefs_db\"",
                ],
                "the Facebook app's own contacts (Facebook ids, names, phones, pictures; the signed-in user the owner), its contact-sync times, the feed stories it cached, the people and pages it fetched for mentions, its foreground time and its preferences (never the session token or cookies)",
            ),
            e(
                "Google Voice stores",
                &[
                    "/com.google.android.apps.googlevoice/files/AccountData.pb\"",
                    "/com.google.android.apps.googlevoice/files/accounts/",
                ],
                "the Google Voice account (the owner's e-mail, name, Google Voice and linked numbers) and every text, group text, call (answered, placed, missed, recorded) and voicemail with Google's transcript, with the other party's number",
            ),
            e(
                "Google Photos stores",
                &[
                    "/com.google.android.apps.photos/databases/gphotos",
                    "/com.google.android.apps.photos/databases/local_trash.db\"",
                    "/com.google.android.apps.photos/databases/disk_cache\"",
                ],
                "the pictures and videos Google Photos indexed on the phone and knows in the cloud library (where and when taken, inferred places), items shared with the account, the folders set to back up, the shared albums with their members and comments, the app's trash (original paths, when deleted, files still there) and its image cache",
            ),
            e(
                "Life360 circle settings, no-show alerts and pets",
                &[
                    "/com.life360.android.safetymapd/databases/NoShowAlertRoomDatabase\"",
                    "/com.life360.android.safetymapd/databases/PetProfileRoomDatabase\"",
                    "/com.life360.android.safetymapd/databases/L360LocalStoreRoomDatabase\"",
                ],
                "each Life360 circle's plan and features, the no-show alerts set on a member's arrival at a place (the member watched, who set it, the place, when due) and the pets the circle tracks (breed, weight, birth date, Tile tracker)",
            ),
            e(
                "Kijiji searches.db",
                &["/com.ebay.kijiji.ca/databases/searches.db\""],
                "what the user searched for on Kijiji (keyword, the area's address and coordinates, distance, ad and price types, price limits, when)",
            ),
            e(
                "Google Calendar app cal_v2a",
                &["/com.google.android.calendar/databases/cal_v2a\""],
                "the events the Google Calendar app keeps apart from the calendar provider (title, description, calendar, web link, iCal UID, start and end, created and updated) with the Google account they belong to",
            ),
            e(
                "WhatsApp log files",
                &[
                    "/com.whatsapp/files/Logs/whatsapp",
                    "/com.whatsapp.w4b/files/Logs/whatsapp",
                ],
                "when WhatsApp sent and received messages, the user opened and left conversations, typed, got notifications, deleted messages, connected to the server and had calls (its own log lines, with the JIDs they name), the zone the log declares and the app version",
            ),
            e(
                "Google Tasks data.db",
                &["/com.google.android.apps.tasks/files/tasks-"],
                "the user's Google Tasks lists and every task on them (title, details, due date, when created, modified and completed) and the Google account they were kept for (the owner's)",
            ),
            e(
                "Microsoft Authenticator PhoneFactor",
                &["/com.azure.authenticator/databases/PhoneFactor\""],
                "the accounts enrolled in Microsoft Authenticator: the owner's work or school accounts (user principal name, organisation, Entra tenant), personal Microsoft account and the services whose one-time codes it generates (never their secrets)",
            ),
            e(
                "DHL dhledb.db",
                &["/com.dhl.exp.dhlmobile/databases/dhledb.db\""],
                "which DHL shipments were tracked on the phone (airway bills, when), the app's account settings",
            ),
            e(
                "Vinted vinted_database_2.db",
                &["/fr.vinted/databases/vinted_database_2.db\""],
                "the second-hand listings the Vinted app cached (prices, sellers), the account's favourites, the feedback users left one another (authors, ratings, replies)",
            ),
            e(
                "Google Phone call transcripts",
                &["/com.google.android.dialer/files/fermat_files/"],
                "what was said in calls the user recorded with the Phone app, utterance by utterance with the speaker and time",
            ),
            e(
                "Fitbit stores",
                &[
                    "/com.fitbit.FitbitMobile/databases/activity_db\"",
                    "/com.fitbit.FitbitMobile/databases/device_database\"",
                    "/com.fitbit.FitbitMobile/databases/exercise_db\"",
                    "/com.fitbit.FitbitMobile/databases/heart_rate_db\"",
                    "/com.fitbit.FitbitMobile/databases/sleep\"",
                    "/com.fitbit.FitbitMobile/databases/social_db\"",
                    "/com.fitbit.FitbitMobile/databases/user.db\"",
                    "/com.fitbit.FitbitMobile/databases/passive_stats.db\"",
                ],
                "what the Fitbit wearer did, where and when (activities, exercise GPS tracks, heart rate, sleep), the trackers paired with the phone (Bluetooth addresses), the account and its friends",
            ),
            e(
                "OneDrive QTMetadata.db",
                &["/com.microsoft.skydrive/files/QTMetadata.db\""],
                "the files and folders of the OneDrive accounts on the phone (folder paths, sizes, hashes, Personal Vault, deleted, shared with whom and by whom, photo positions), the accounts and drives, cached copies",
            ),
            e(
                "Samsung Keyboard clipboard",
                &["/com.samsung.android.honeyboard/databases/ClipItem.db\""],
                "what the user copied while Samsung Keyboard was the keyboard (text, HTML, URIs, the app copied from, the Secure Folder's clips), and clips deleted since that the write-ahead log or free space still holds",
            ),
            e(
                "user dictionary",
                &["/com.android.providers.userdictionary/databases/user_dict.db\""],
                "the words the user added to the system's personal dictionary (with shortcuts, frequency, locale)",
            ),
            e(
                "Chromium Media History and DIPS",
                &["/Media History\"", "/DIPS\""],
                "the media a Chromium browser played (each playback with its watch time, each media session with its title, artist and where it stopped, each site's total watch time) and the sites its bounce-tracking mitigation watched (first and last user interaction, storage and bounces)",
            ),
            e(
                "Samsung SmartThings QcDB.db",
                &["/com.samsung.android.oneconnect/databases/QcDB.db\""],
                "the devices SmartThings found or connected to (televisions, earbuds, watches, appliances): name, type, network, Wi-Fi Direct and Bluetooth addresses, when",
            ),
            e(
                "hosts file",
                &["/etc/hosts\""],
                "names the system's hosts file sends elsewhere than DNS would (an ad blocker, a redirection, a blocked server)",
            ),
            e(
                "notification history",
                &["/notification_history/"],
                "the notifications of the last day (when the user turned the history on): app, channel, posted, title, text, conversation",
            ),
            e(
                "MetaMask Mobile persistStore",
                &["/persistStore/persist-", "/RKStorage\""],
                "the wallet's accounts (name, balance, when added), address book, transactions, in-app browser history",
            ),
            e(
                "wallet apps' data",
                &[crate::wallet_apps::DETECTOR],
                "Trust Wallet, imToken, TokenPocket, Binance, OKX, TronLink, Bitget Wallet, Coinbase Wallet: the wallet addresses written in clear in each app's data folders",
            ),
            e(
                "Burner burners.sqlite",
                &["/burners.sqlite\""],
                "second numbers, their contacts and messages",
            ),
            e(
                "Viber viber_data",
                &["/viber_data\"", "/viber_messages\""],
                "Viber contacts, member ids, calls; messages (viber_messages)",
            ),
            e(
                "downloads.db",
                &["/downloads.db\""],
                "downloaded files: URL, path, requesting app",
            ),
            e(
                "app usage",
                &["/app_usage\"", "/usage-history.xml\"", "/SimpleStorage\""],
                "app use and launches over time",
            ),
            e(
                "webviewCache.db",
                &["/webviewCache.db\""],
                "URLs an app's WebView cached",
            ),
            e(
                "Twitter database",
                &["/twitter.db\"", "-66.db\""],
                "tweets, searches, the users the app knows; the signed-in accounts",
            ),
            e(
                "Google Maps da_destination_history",
                &["/da_destination_history\""],
                "navigation destinations: time, title, address, the destination's and start's coordinates",
            ),
            e(
                "Zapya transfer20.db",
                &["/com.dewmobile.kuaiya"],
                "files moved phone to phone with Zapya: the other device, the file, the time",
            ),
            e(
                "SHAREit history.db and Xender trans-history-db",
                &["/com.lenovo.anyshare", "/cn.xender/"],
                "files moved phone to phone with SHAREit or Xender: the other device, sender and recipient, the file, the time; the devices Xender met",
            ),
            e(
                "AirGuard attd_db",
                &["/attd_db\""],
                "trackers (AirTags, Tiles) that followed the phone, with times and positions",
            ),
            e(
                "Files by Google files_master_database",
                &["/files_master_database\""],
                "the files on the device as the app indexed them: names, paths, sizes, times",
            ),
            e(
                "Files by Google search history",
                &["/com.google.android.apps.nbu.files/databases/search_history_database\""],
                "what the user searched for among the phone's files, when",
            ),
            e(
                "Telegram cache4.db",
                &["/cache4.db\""],
                "Telegram messages (text of the stored objects), users, phone-book contacts with numbers",
            ),
            e(
                "Tango tc.db",
                &["/tango_android_tc.db\"", "/tc.db\""],
                "Tango messages (base64 Protocol Buffers payloads decoded), the other party's user id",
            ),
            e(
                "Tango profile.db",
                &["/tango_profile.db\""],
                "the Tango users the app knows: names, city, country, friends",
            ),
            e(
                "webview.db",
                &["/webview.db\""],
                "form data typed into web pages (e-mails); cookies' sites and expiry",
            ),
            e(
                "Device Health turbo.db",
                &["/turbo.db\""],
                "battery level and charging over time; the device's time zone",
            ),
            e(
                "Chrome History",
                &["/History\""],
                "Chrome/WebView visits, downloads, searches",
            ),
            e(
                "Chromium Login Data and Web Data",
                &[
                    "/Login Data\"",
                    "/Login Data For Account\"",
                    "/Web Data\"",
                    "/Top Sites\"",
                ],
                "saved logins (never the passwords), autocomplete values, saved addresses, payment cards (never the numbers); the most-visited sites",
            ),
            e(
                "WifiConfigStore.xml",
                &["/WifiConfigStore.xml\"", "/wpa_supplicant.conf\""],
                "saved Wi-Fi networks: SSID, security, creator app, random MAC, ever connected",
            ),
            e(
                "bt_config.conf",
                &["/bt_config.conf\""],
                "the device's Bluetooth name and address; paired devices with names and times",
            ),
            e(
                "Google Play services: verified SIM numbers (constellation.db)",
                &["/constellation.db\""],
                "the phone numbers and IMSIs of the SIMs whose numbers Google verified, with times",
            ),
            e(
                "Google Play services: account history (google_account_history.db)",
                &["/google_account_history.db\""],
                "the changes Play services recorded to the device's Google accounts",
            ),
            e(
                "ADB trusted computers (adb_keys)",
                &["/misc/adb/adb_keys\""],
                "the computers the device allowed USB debugging from: user and host name, the public key that matches the computer's own",
            ),
            e(
                "settings provider (settings_ssaid.xml, settings_secure.xml, settings_global.xml)",
                &[
                    "/settings_ssaid.xml\"",
                    "/settings_secure.xml\"",
                    "/settings_global.xml\"",
                ],
                "each app's Android id (SSAID), the Android id, device and Bluetooth names",
            ),
            e(
                "calendar.db",
                &["/calendar.db\""],
                "calendar events with times, places, attendees; the calendars' accounts",
            ),
            e(
                "media store external.db",
                &["/external.db\""],
                "photos and videos: path, app, time taken, GPS where kept",
            ),
            e(
                "screenshots",
                &["/Screenshots/"],
                "screenshots (OCR): wallets, amounts, receive screens",
            ),
            e(
                "LINE naver_line",
                &["/naver_line\""],
                "LINE messages, contacts and groups: mids, names; its call_history beside it: calls",
            ),
            e(
                "WeChat",
                &["/com.tencent.mm_preferences.xml\"", "/EnMicroMsg.db\""],
                "the WeChat account (wxid, uin, nickname, phone); the IMEI WeChat read (CompatibleInfo.cfg); EnMicroMsg.db opened with the key WeChat derives from that IMEI or, where Android gives it none, the default one (contacts, messages), else detected (SQLCipher)",
            ),
            e(
                "Signal",
                &[
                    "/signal.db\"",
                    "/signal-key-value.db\"",
                    "/org.thoughtcrime.securesms_preferences.xml\"",
                ],
                "Signal's registered number; signal.db and signal-key-value.db read with the key in the extraction's Secrets/secrets.json (contacts, messages, calls, groups, attachments, the account), else detected (SQLCipher)",
            ),
        ]
    }

    fn categorise(&self, path: &str) -> Option<&'static str> {
        let name = path.rsplit('/').next().unwrap_or(path);
        if usagestats::interval_file(path).is_some() {
            return Some("app_usage");
        }
        if notifications::history_file(path) || path.contains("/fcm_queued_messages.ldb/") {
            return Some("notifications");
        }
        if name == "database.db" {
            return path.contains("/com.todoist/databases/").then_some("notes");
        }
        if name == "media.db" && samsungmedia::is_store_path(path) {
            return Some("media");
        }
        if name == "media.db" {
            return path
                .contains("/com.theronrogers.vaultyfree/databases/")
                .then_some("files");
        }
        if name.starts_with("knuddels") {
            return path
                .contains("/com.knuddels.android/databases/")
                .then_some("messages");
        }
        if matches!(name, "appHistory" | "OfflineDb") {
            return path
                .contains("/com.netflix.mediaclient/databases/")
                .then_some("media");
        }
        if matches!(
            name,
            "db_offline_bookmarks" | "default.xml" | "RecentSearchSharedPref.xml"
        ) {
            return path.contains("/com.disney.disneyplus/").then_some("media");
        }
        if matches!(name, "dbplaybackhistory" | "bookmark") {
            return path
                .contains("/com.amazon.avod.thirdpartyclient/")
                .then_some("media");
        }
        if matches!(name, "Moose.db" | "Settings.db") {
            return path
                .contains("/com.nordvpn.android/databases/")
                .then_some("apps");
        }
        if name == "ServerListUpdater.xml" || (name.starts_with("Data") && name.ends_with(".log")) {
            if !path.contains("/ch.protonvpn.android/") {
                return None;
            }
            return Some(if name == "ServerListUpdater.xml" {
                "device"
            } else {
                "app_usage"
            });
        }
        if name == "cello.db" {
            return crate::googledrive::is_store(path).then_some("files");
        }
        if name == "ns_inbox.db" {
            return path
                .contains("/com.nike.plusgps/databases/")
                .then_some("notifications");
        }
        if runtastic::is_store_path(path) {
            return Some(if name == "user.db" {
                "accounts"
            } else {
                "health"
            });
        }
        if matches!(name, "db" | "goals") {
            return None;
        }
        if name.starts_with("origin_db") {
            return path
                .contains("/com.xiaomi.hm.health/databases/")
                .then_some("health");
        }
        if matches!(
            name,
            "history_log_database"
                | "permission_db"
                | "ContextLog.db"
                | "wifigeofence.db"
                | "WifiConfigStore.db"
                | "SleepDetection.db"
                | "badge.db"
        ) {
            return samsung::category(path);
        }
        if name == "OperationHistory.db" {
            return path
                .contains("/com.sec.android.app.myfiles/")
                .then_some("files");
        }
        if name.starts_with("new_recent_history_cache") || name.starts_with("saved_directions.data")
        {
            return (path.contains("/com.google.android.apps.maps/files/")
                && !name.ends_with(".adler32"))
            .then_some("locations");
        }
        if matches!(name, "feed_database" | "ArticleDb.db" | "sina_weibo") {
            return path
                .contains("/com.sina.weibo/databases/")
                .then_some("social");
        }
        if matches!(name, "PlayHistoryRecordDB" | "msgDB" | "localRelationDB") {
            if !path.contains("/com.xingin.xhs/databases/") {
                return None;
            }
            return Some(match name {
                "PlayHistoryRecordDB" => "media",
                "msgDB" => "messages",
                _ => "contacts",
            });
        }
        if likee::is_name(name) {
            return likee::is_store_path(path).then_some(if name.ends_with("location.kv") {
                "locations"
            } else if name == "like_pub.db" {
                "social"
            } else {
                "messages"
            });
        }
        if name == "ramdochatV2.db" {
            return path.contains("/com.random.chat.app/").then_some("messages");
        }
        if name == "cmh.db" {
            return path.contains("/com.samsung.cmh/").then_some("media");
        }
        if name == "database.hik" {
            return path.contains("/com.connect.enduser/").then_some("device");
        }
        if name == "devicechannel.db" {
            return path.contains("/com.mm.android.DMSS/").then_some("device");
        }
        if (name.starts_with("pikpak_files_") && name.ends_with(".db"))
            || matches!(name, "pikpak_downloads.db" | "greendao.db")
        {
            if !path.contains("/com.pikcloud.pikpak/databases/") {
                return None;
            }
            return Some(if name == "greendao.db" {
                "media"
            } else {
                "files"
            });
        }
        if name == "db-drive" {
            return path
                .contains("/me.proton.android.drive/")
                .then_some("files");
        }
        if name == "podcastAddict.db" {
            return path
                .contains("/com.bambuna.podcastaddict/")
                .then_some("media");
        }
        if garmin::is_garmin_name(name) {
            return garmin::category(path);
        }
        if matches!(name, "bluetooth.db" | "app_usage_stats.xml") {
            if !path.contains("/com.google.android.apps.turbo/") {
                return None;
            }
            return Some(if name == "bluetooth.db" {
                "bluetooth"
            } else {
                "app_usage"
            });
        }
        if name == "CURRENT" {
            return (path.contains("/com.google.android.gms/")
                && path.ends_with("/app_semanticlocation_rawsignal_db/CURRENT"))
            .then_some("locations");
        }
        if name == "local.db" {
            return path
                .contains("/com.sec.android.gallery3d/")
                .then_some("files");
        }
        if name == "frosting.db" {
            return path.contains("/com.android.vending/").then_some("apps");
        }
        if name == "gass.db" {
            return path.contains("/com.google.android.gms/").then_some("apps");
        }
        if name == "PkgPredictions.db" {
            return Some("app_usage");
        }
        if name == "com.apple.trackerdetect_preferences.xml" {
            return path
                .contains("/com.apple.trackerdetect/")
                .then_some("device");
        }
        if name == "map_data_storage.db" {
            return amazonshopping::is_store_path(path).then_some("accounts");
        }
        if name == "citymapper.db" || citymapper::PREFS.contains(&name) {
            return citymapper::is_path(path).then_some("locations");
        }
        if name == "oruxmapstracks.db" {
            return oruxmaps::is_store_path(path).then_some("locations");
        }
        if name == "slopes.db" {
            return slopes::is_store_path(path).then_some("locations");
        }
        if name == "receipts.db" {
            return rema1000::is_store_path(path).then_some("transactions");
        }
        if name == "SbbMobile.db" {
            return sbb::is_store_path(path).then_some("locations");
        }
        if matches!(name, "favorites_prediction_db.sqlite" | "localdata.sqlite") {
            return swissmeteo::is_path(path).then_some("locations");
        }
        if batteryusage::is_name(name) {
            return (path.contains("/com.google.android.settings.intelligence/databases/")
                || path.contains("/com.android.settings/databases/"))
            .then_some("app_usage");
        }
        if name == "EmailProvider.db" {
            return path
                .contains("/com.google.android.gm/databases/")
                .then_some("messages");
        }
        if matches!(name, "OneUI.db" | "Icon.db") {
            return samsunglauncher::category(path);
        }
        if name == "dme.db" {
            return path
                .contains("/com.samsung.storyservice/")
                .then_some("media");
        }
        if name == "com_pocketgeek_sdk_app_inventory.db" || name == "com_pocketgeek_sdk.db" {
            if !path.contains("/com.samsung.oh/") {
                return None;
            }
            return Some(if name == "com_pocketgeek_sdk.db" {
                "device"
            } else {
                "apps"
            });
        }
        if matches!(name, "sm.db" | "lowpowercontext-system-db") {
            return smartmanager::category(path);
        }
        if matches!(name, "workout.db" | "mmdk_user") {
            return mapmywalk::category(path);
        }
        if matches!(name, "appDatabase" | "kdownloader.db") {
            return ornet::is_store_path(path).then_some("web");
        }
        if name == "gallery.db" {
            return honorgallery::is_store_path(path).then_some("media");
        }
        if etsy::STORES.contains(&name) || etsy::PREFS.contains(&name) {
            if !etsy::is_store_path(path) {
                return None;
            }
            return Some(match name {
                "recentlyViewedListings" => "transactions",
                "EtsyUserPrefs.xml" | "SecureEtsyUserPrefs.xml" => "accounts",
                _ => "app_usage",
            });
        }
        if name == "platform.db" || name == "MyPrefsFile.xml" {
            return breadwallet::is_path(path).then_some("wallets");
        }
        if adobereader::is_name(name) {
            return adobereader::category(path);
        }
        if paypal::is_name(name) {
            return paypal::category(path);
        }
        if revolut::is_name(name) {
            return revolut::category(path);
        }
        if capcut::is_name(name) {
            // ByteDance's and AppsFlyer's SDK names: other apps (TikTok among them) write them too
            return capcut::is_path(path).then_some(if name == capcut::STORE {
                "app_usage"
            } else {
                "device"
            });
        }
        if name == ebay::STORE {
            return ebay::is_path(path).then_some("transactions");
        }
        if matches!(name, "FileCache.db" | "Frequency.db" | "TrashAppInfo.db")
            || (name.starts_with("MyFiles") && name.ends_with(".db"))
        {
            return path
                .contains("/com.sec.android.app.myfiles/databases/")
                .then_some("files");
        }
        if name.starts_with("sec_batterystats_history") {
            return (path.contains("/com.sec.android.sdhms/databases/")
                && !["-wal", "-shm", "-journal"]
                    .iter()
                    .any(|x| name.ends_with(x)))
            .then_some("app_usage");
        }
        if name == "PinSettingsImpl.xml" {
            return path
                .contains("/com.antivirus/shared_prefs/")
                .then_some("apps");
        }
        if uberandroid::is_name(name) {
            return uberandroid::is_path(path).then_some(uberandroid::category(name));
        }
        if name == "icing_contacts.db" {
            return gms::is_gms(path).then_some("contacts");
        }
        if name == "power_off_reset_reason.txt" || name == "power_off_reset_reason_backup.txt" {
            return poweroffreset::is_log_path(path).then_some("device");
        }
        if name == "app_icons.db" {
            return appicons::is_store_path(path).then_some("apps");
        }
        if name == "roles.xml" {
            return roles::is_path(path).then_some("apps");
        }
        if discreteops::is_name(name) {
            return discreteops::is_path(path).then_some("apps");
        }
        if matches!(
            name,
            "post_booking_reservation_cache"
                | "account_data_cache"
                | "notifications.db"
                | "mybooking.xml"
                | "remote_profile.xml"
                | "com.booking_preferences.xml"
        ) && path.contains("/com.booking/")
        {
            return Some(match name {
                "post_booking_reservation_cache" => "transactions",
                "notifications.db" => "notifications",
                "com.booking_preferences.xml" => "web",
                _ => "accounts",
            });
        }
        if name == "journal" {
            return (path.contains("/cache/")
                && !path.contains("/image_manager_disk_cache/")
                && data_package(path).is_some())
            .then_some("web");
        }
        if name == errp::NAME {
            return errp::is_log_path(path).then_some("device");
        }
        if name == bittorrentapp::PREFS {
            return bittorrentapp::is_prefs_path(path).then_some("apps");
        }
        if bittorrentapp::is_history_name(name) {
            return Some("files");
        }
        if torthumbs::is_thumbnail_path(path) {
            return Some("web");
        }
        if name == smartsidebar::DB {
            return smartsidebar::is_store_path(path).then_some("files");
        }
        if smartsidebar::is_dock_path(path) {
            return Some("files");
        }
        if name == "dwbCommon.db" {
            return path
                .contains("/com.samsung.android.forest/databases/")
                .then_some("app_usage");
        }
        if name == "search_index.db" {
            return settingssearch::is_store_path(path).then_some("app_usage");
        }
        if name == "reflection_gel_events.db" {
            return path
                .contains("/com.google.android.as/databases/")
                .then_some("app_usage");
        }
        if name == "ULR_USER_PREFS.xml" {
            return path
                .contains("/com.google.android.gms/shared_prefs/")
                .then_some("locations");
        }
        if life360trips::is_trip_path(path) {
            return Some("locations");
        }
        if intrusionlog::is_log_path(path) {
            return Some("device");
        }
        if mapstts::is_tts_path(path) {
            return Some("locations");
        }
        if glidecache::is_cache_file(path) {
            return Some("media");
        }
        if facebookapp::is_named_like(name) {
            return facebookapp::is_store_path(path).then_some(facebookapp::category(name));
        }
        if name == "LegacyMsgDbInstance.db" || name.ends_with("VoiceAccountCache.db") {
            return googlevoice::is_store_path(path).then_some(
                if name == "LegacyMsgDbInstance.db" {
                    "messages"
                } else {
                    "accounts"
                },
            );
        }
        if googlephotos::is_name(name) {
            return googlephotos::is_store_path(path).then_some(googlephotos::category(name));
        }
        if name == "NoShowAlertRoomDatabase" || name == "PetProfileRoomDatabase" {
            return path
                .contains("/com.life360.android.safetymapd/databases/")
                .then_some(if name == "PetProfileRoomDatabase" {
                    "contacts"
                } else {
                    "locations"
                });
        }
        if name == kijijisearches::STORE {
            return path
                .contains("/com.ebay.kijiji.ca/databases/")
                .then_some("web");
        }
        if name.ends_with("cal_v2a") {
            return path
                .contains("/com.google.android.calendar/databases/")
                .then_some("calendar");
        }
        if whatsapplogs::is_name(name) {
            return whatsapplogs::is_log_path(path).then_some("app_usage");
        }
        if name == "data.db" {
            return path
                .contains("/com.google.android.apps.tasks/files/tasks-")
                .then_some("notes");
        }
        if name.ends_with("-transcription.pb") {
            return path
                .contains("/com.google.android.dialer/files/fermat_files/")
                .then_some("calls");
        }
        if fitbit::is_store_path(path) {
            return Some(match name {
                "device_database" => "device",
                "exercise_db" => "locations",
                "social_db" => "contacts",
                "user.db" => "accounts",
                _ => "health",
            });
        }
        if matches!(
            name,
            "activity_db"
                | "device_database"
                | "exercise_db"
                | "heart_rate_db"
                | "sleep"
                | "social_db"
                | "passive_stats.db"
        ) {
            return None;
        }
        if name == "user.db" {
            return crate::waze::is_android(path).then_some("locations");
        }
        if name == "history.db" {
            if path.contains("/com.duckduckgo.mobile.android/") {
                return Some("web");
            }
            return path.contains("/com.lenovo.anyshare").then_some("files");
        }
        if matches!(
            name,
            "annotated_call_log.db" | "phone_lookup_history.db" | "dialer.db"
        ) {
            if !path.contains("/com.google.android.dialer/") {
                return None;
            }
            return Some(if name == "annotated_call_log.db" {
                "calls"
            } else {
                "contacts"
            });
        }
        if name == "history_db" {
            return (path.contains("/com.google.android.as/")
                || path.contains("/com.google.intelligence.sense/"))
            .then_some("media");
        }
        if name == "search_history_database" {
            return path
                .contains("/com.google.android.apps.nbu.files/")
                .then_some("files");
        }
        if name == "library.db" && path.contains("/com.shazam.android/") {
            return Some("media");
        }
        if name.ends_with("-db.db") || name.ends_with("-prefs.db") {
            if !path.contains("/com.dropbox.android/") {
                return None;
            }
            return Some(if name.ends_with("-db.db") {
                "files"
            } else {
                "accounts"
            });
        }
        if name.starts_with("karere-") {
            return path
                .contains("/mega.privacy.android.app/")
                .then_some("messages");
        }
        if name == "appStorage.json" || (name.contains("_Player_") && name.ends_with(".log")) {
            if !path.contains("/com.roblox.client/files/appData/") {
                return None;
            }
            return Some(if name == "appStorage.json" {
                "accounts"
            } else {
                "app_usage"
            });
        }
        if matches!(
            name,
            "mozac_downloads_database"
                | "recently_closed_tabs"
                | "top_sites"
                | "permissions.sqlite"
                | "cookies.sqlite"
        ) {
            return fenix::is_store_path(path).then_some("web");
        }
        if name.contains('@')
            && path.contains("/com.google.android.googlequicksearchbox/files/recently/")
        {
            return Some("web");
        }
        if name.ends_with("sms_backup") || name.ends_with("mms_backup") {
            return path
                .contains("/com.android.providers.telephony/d_f/")
                .then_some("messages");
        }
        if name == "user.xml" || name == "twitch_user_prefs.xml" {
            return path
                .contains("/tv.twitch.android.app/shared_prefs/")
                .then_some("accounts");
        }
        if name == "pinterest.xml" {
            return path
                .contains("/com.pinterest/shared_prefs/")
                .then_some("accounts");
        }
        if name == "ClipItem.db" {
            return path
                .contains("/com.samsung.android.honeyboard/")
                .then_some("keyboard");
        }
        if name == "QTMetadata.db" {
            return crate::onedrive::is_store(path).then_some("files");
        }
        if name == "Media History" || name == "DIPS" {
            return crate::chromium_activity::is_store(path).then_some("web");
        }
        if name == "speedtest" {
            return path
                .contains("/org.zwanoo.android.speedtest/databases/")
                .then_some("locations");
        }
        if name == "app.db" {
            return path
                .contains("/com.duckduckgo.mobile.android/")
                .then_some("web");
        }
        if name.starts_with("persist-") {
            return crate::wallets::mobile_state_file(path).then_some("wallets");
        }
        if name == "history" {
            return path.contains("/recovery/").then_some("device");
        }
        if name == "hosts" {
            return path.ends_with("/etc/hosts").then_some("device");
        }
        if name == "cast.db" {
            return path
                .contains("/com.google.android.gms/")
                .then_some("device");
        }
        if name == "trash.db" {
            return path
                .contains("/com.samsung.android.providers.trash/")
                .then_some("files");
        }
        if name == "myfiles.db" || name == "FileInfo.db" {
            return path
                .contains("/com.sec.android.app.myfiles/")
                .then_some("files");
        }
        ARTEFACTS
            .iter()
            .find(|(glob, _)| masf_tools::fs_tools::glob_match(glob, name))
            .map(|(_, c)| *c)
    }

    fn triage(&self, ctx: &AgentCtx<'_>) -> Result<(), RuntimeError> {
        // the partition table and its encryption verdicts exist only on a whole disk
        let disk = self
            .typing(&ctx.session().source(&ctx.source().id)?.scan)
            .is_some();
        if disk {
            partitions::triage(ctx)?;
        }
        artefacts(ctx, true)?;
        if !disk {
            // an extraction may hold more than the phone's databases (documents, photos): the
            // generic tree triage reads the rest, as it would have had it claimed the source
            crate::tree::contents(ctx)?;
        }
        Ok(())
    }
}

/// One phenomenon per artefact file that was read: its path and stored times (ext4 inode times as ISO 8601
/// UTC renderings), for the timeline.
fn artefact_files(ctx: &AgentCtx<'_>, found: &[Located]) -> Result<(), RuntimeError> {
    for l in found {
        let (entries, _) = crate::tree::parse_listing(&l.found.output.text);
        let Some(e) = entries.iter().find(|e| e.path == l.path) else {
            continue;
        };
        let mut facts = vec![fact(FactType::Path, &l.path, &l.found)];
        let mut times = Vec::new();
        for (role, raw) in &e.times {
            if let Some((encoding, description)) = crate::outputs::time_mark(role, raw) {
                times.push(TimeMark {
                    fact: facts.len(),
                    encoding,
                    description: description.to_string(),
                });
                facts.push(fact(FactType::Timestamp, raw, &l.found));
            }
        }
        let name = artefact_name(&l.tree, &l.path);
        record(
            ctx,
            PhenomenonDraft {
                category: "files".into(),
                title: format!("Artefact file {name}"),
                facts,
                interpretation: format!(
                    "{name} ({} bytes); stored times: {}.",
                    e.size,
                    if e.times.is_empty() {
                        "none".to_string()
                    } else {
                        e.times
                            .iter()
                            .map(|(r, v)| format!("{r} {v}"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    }
                ),
                times,
            },
        )?;
    }
    Ok(())
}

/// The phone-numbering region from the SIMs of `telephony.db` (`siminfo`: IMSI, `mcc`, ICCID,
/// a number written with `+`) and `build.prop` (`gsm.sim.operator.numeric`,
/// `gsm.sim.operator.iso-country`, `persist.sys.locale`, `ro.product.locale`), decided and
/// recorded by [`crate::region::settle`]; the examiner's when they give none. The calls are the
/// ones the parsers make next (served from the cache then); a failure here is noted there.
fn region(
    ctx: &AgentCtx<'_>,
    telephony: &[&Located],
    build: &[&Located],
) -> Result<(), RuntimeError> {
    use crate::region::Clue;
    use masf_graph::FactType;
    let mut clues: Vec<(Clue, masf_tools::Invoked)> = Vec::new();
    let mut push =
        |kind: &'static str, value: &str, at: String, fact_type, inv: &masf_tools::Invoked| {
            let value = value.trim();
            if !value.is_empty()
                && inv.output.text.contains(value)
                && !clues
                    .iter()
                    .any(|(c, _)| c.kind == kind && c.value == value)
            {
                clues.push((
                    Clue {
                        kind,
                        value: value.to_string(),
                        at,
                        fact_type,
                    },
                    inv.clone(),
                ));
            }
        };
    for l in telephony {
        let inv = ctx.call(
            "sqlite_query",
            crate::identity::args_on(
                &l.tree,
                serde_json::json!({"path": l.path, "sql": databases::SIMINFO_SQL, "limit": MAX_ROWS}),
            ),
        )?;
        if !crate::calls::succeeded(&inv) {
            continue;
        }
        let t = crate::outputs::Table::parse(&inv.output.text);
        for row in &t.rows {
            let at = |col: &str| format!("{} > siminfo.{col}", l.name());
            if let Some(v) = t.get(row, "imsi") {
                push("imsi", v, at("imsi"), FactType::Imsi, &inv);
            }
            if let Some(v) = t.get(row, "mcc").filter(|v| v.len() == 3) {
                push("mcc", v, at("mcc"), FactType::Identifier, &inv);
            }
            if let Some(v) = t.get(row, "icc_id") {
                push("iccid", v, at("icc_id"), FactType::Iccid, &inv);
            }
            if let Some(v) = t.get(row, "number").filter(|v| v.starts_with('+')) {
                push("own_number", v, at("number"), FactType::Phone, &inv);
            }
        }
    }
    for l in build {
        let inv = ctx.call(
            "read_text",
            crate::identity::args_on(
                &l.tree,
                serde_json::json!({"path": l.path, "length": 1 << 20}),
            ),
        )?;
        if !crate::calls::succeeded(&inv) {
            continue;
        }
        for (key, value) in files::properties(&inv.output.text) {
            let at = format!("{} > {key}", l.name());
            match key.as_str() {
                "gsm.sim.operator.numeric" => {
                    if let Some(mcc) = value
                        .get(..3)
                        .filter(|m| m.bytes().all(|b| b.is_ascii_digit()))
                    {
                        push("mcc", mcc, at, FactType::Identifier, &inv);
                    }
                }
                "gsm.sim.operator.iso-country" => {
                    push("carrier", &value, at, FactType::Text, &inv);
                }
                "persist.sys.locale" | "ro.product.locale" => {
                    push("locale", &value, at, FactType::Text, &inv);
                }
                _ => {}
            }
        }
    }
    crate::region::settle(ctx, &clues)?;
    Ok(())
}

/// Finds and works the Android artefacts in every readable file system of the task's source
/// (the Android disk's partitions, or an archive of an Android tree); returns how many were
/// found.
/// With `with_files`, each artefact file's path and stored times are recorded too (the generic
/// tree triage records every notable file itself).
pub fn artefacts(ctx: &AgentCtx<'_>, with_files: bool) -> Result<usize, RuntimeError> {
    {
        let found = locate(ctx)?;
        let of = |name: &str| -> Vec<&Located> {
            found
                .iter()
                .filter(|l| masf_tools::fs_tools::glob_match(name, l.name()))
                .collect()
        };
        // The region of the source's numbers before any number is read.
        region(ctx, &of("telephony.db"), &of("build.prop"))?;
        for l in of("build.prop") {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                files::build_prop(ctx, l)
            })?;
        }
        for l in of("serial_no") {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                files::serial_no(ctx, l)
            })?;
        }
        for l in of("user.db")
            .into_iter()
            .filter(|l| crate::waze::is_android(&l.path))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                crate::waze::user_db(ctx, &l.tree, &l.path, &l.found)
            })?;
        }
        for l in of("appops.xml") {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || appops::appops(ctx, l))?;
        }
        for l in found.iter().filter(|l| lifecycle::is_bootstat(l)) {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                lifecycle::bootstat(ctx, l)
            })?;
        }
        for l in found.iter().filter(|l| wellbeing::is_account(l)) {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                wellbeing::account(ctx, l)
            })?;
        }
        for l in found.iter().filter(|l| samsungnotes::is_store(l)) {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                samsungnotes::notes(ctx, l)
            })?;
        }
        for l in found.iter().filter(|l| callscreen::is_store(l)) {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                callscreen::transcripts(ctx, l)
            })?;
        }
        for l in found.iter().filter(|l| lifecycle::is_persistent(l)) {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                lifecycle::persistent(ctx, l)
            })?;
        }
        for l in found.iter().filter(|l| lifecycle::is_checkpoints(l)) {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                lifecycle::checkpoints(ctx, l)
            })?;
        }
        for l in found.iter().filter(|l| lifecycle::is_recovery_history(l)) {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                lifecycle::recovery_history(ctx, l)
            })?;
        }
        for l in found.iter().filter(|l| hosts::is_hosts(l)) {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || hosts::hosts(ctx, l))?;
        }
        for l in of("telephony.db") {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                databases::siminfo(ctx, l)
            })?;
        }
        for l in of("constellation.db")
            .into_iter()
            .filter(|l| gms::is_gms(&l.path))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                gms::constellation(ctx, l)
            })?;
        }
        for l in of("google_account_history.db")
            .into_iter()
            .filter(|l| gms::is_gms(&l.path))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                gms::account_history(ctx, l)
            })?;
        }
        for l in of("accounts*.db") {
            if romeo::is_accounts(l) {
                // ROMEO's own account store, read with its app
                ctx.artefact(&artefact_name(&l.tree, &l.path), || romeo::accounts(ctx, l))?;
                continue;
            }
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                databases::accounts(ctx, l)
            })?;
        }
        let mut book = databases::Book::default();
        let contacts = of("contacts2.db");
        for l in &contacts {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                databases::contacts(ctx, l, &mut book)
            })?;
        }
        let calllogs = of("calllog.db");
        for l in &calllogs {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                databases::calls(ctx, l, &book, false)
            })?;
        }
        if calllogs.is_empty() {
            // Before Android 7 the call log is a table of contacts2.db.
            for l in &contacts {
                databases::calls(ctx, l, &book, true)?;
            }
        }
        for l in of("blockednumbers.db") {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                blocked::blocked(ctx, l, &book)
            })?;
        }
        for l in of("mmssms.db") {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                databases::sms(ctx, l, &book)?;
                mms::mms(ctx, l, &book)?;
                lgrcs::lgrcs(ctx, l, &book)
            })?;
        }
        for l in of("bugle_db") {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                bugle::bugle_db(ctx, l, &book)
            })?;
        }
        for l in of("msys_database_*")
            .into_iter()
            .filter(|l| crate::messenger::store_uid(&l.path).is_some())
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                crate::messenger::msys(ctx, &l.tree, &l.path, &l.found)
            })?;
        }
        for l in of("direct.db")
            .into_iter()
            .filter(|l| l.path.contains("/com.instagram.android/"))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                instagram::direct(ctx, l)
            })?;
        }
        for l in of("threads_db2") {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                let uid_file = format!("{}-uid", l.path);
                let uid = match of("threads_db2-uid")
                    .into_iter()
                    .find(|u| u.tree == l.tree && u.path == uid_file)
                {
                    Some(u) => fbthreads::uid(ctx, u)?,
                    None => None,
                };
                fbthreads::threads_db2(ctx, l, uid.as_deref())
            })?;
        }
        for l in of("library.db")
            .into_iter()
            .filter(|l| playstore::is_play_store(l))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                playstore::library(ctx, l)
            })?;
        }
        for l in of("library.db").into_iter().filter(|l| shazam::is_store(l)) {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || shazam::triage(ctx, l))?;
        }
        for l in of("localappstate.db")
            .into_iter()
            .filter(|l| playstore::is_play_store(l))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                playstore::local_app_state(ctx, l)
            })?;
        }
        for l in of("suggestions.db")
            .into_iter()
            .filter(|l| playstore::is_play_store(l))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                playstore::suggestions(ctx, l)
            })?;
        }
        for l in of("?.xml")
            .into_iter()
            .chain(of("??.xml"))
            .chain(of("???.xml"))
            .filter(|l| users::is_user_file(l))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                users::user_file(ctx, l)
            })?;
        }
        for l in of("*_task.xml")
            .into_iter()
            .filter(|l| recents::is_task_file(l))
            .take(MAX_ROWS as usize)
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                recents::task_file(ctx, l)
            })?;
        }
        for l in of("packages.xml")
            .into_iter()
            .filter(|l| l.path.ends_with("/system/packages.xml"))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                packagesxml::packages_xml(ctx, l)
            })?;
        }
        for l in of("keep.db")
            .into_iter()
            .filter(|l| l.path.contains("/com.google.android.keep/"))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || keep::keep_db(ctx, l))?;
        }
        whatsapp::triage(ctx, &found)?;
        for l in of("msgstore.db")
            .into_iter()
            .filter(|l| whatsappextra::is_store(l))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                whatsappextra::triage(ctx, l)
            })?;
        }
        for l in of("babel*.db") {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                databases::hangouts(ctx, l)
            })?;
        }
        for l in of("downloads.db") {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                databases::downloads(ctx, l)
            })?;
        }
        {
            // MetaMask Mobile's state files, one wallet per persistStore directory
            let mut by_tree: Vec<(&TreeRef, Vec<String>)> = Vec::new();
            for l in of("persist-*") {
                match by_tree.iter_mut().find(|(t, _)| **t == l.tree) {
                    Some((_, paths)) => paths.push(l.path.clone()),
                    None => by_tree.push((&l.tree, vec![l.path.clone()])),
                }
            }
            for (tree, paths) in &by_tree {
                ctx.artefact(&artefact_name(tree, "MetaMask Mobile persistStore"), || {
                    crate::wallets::triage_mobile(ctx, tree, paths)
                })?;
            }
            // Bluesky's is read with its app's folder
            for l in of("RKStorage")
                .into_iter()
                .filter(|l| !l.path.contains(&format!("/{}/", bluesky::PACKAGE)))
            {
                ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                    crate::wallets::triage_rkstorage(ctx, &l.tree, &l.path, &l.found)
                })?;
            }
        }
        {
            // wallet and exchange apps whose stores are not parsed: their data folders
            let mut by_tree: Vec<(&TreeRef, Vec<crate::wallet_apps::Folder>)> = Vec::new();
            for l in &found {
                let Some(app) = crate::wallet_apps::android_app(&l.path) else {
                    continue;
                };
                let folder = crate::wallet_apps::Folder {
                    path: l.path.clone(),
                    app,
                    cite: l.found.clone(),
                    listed: true,
                };
                match by_tree.iter_mut().find(|(t, _)| **t == l.tree) {
                    Some((_, folders)) => folders.push(folder),
                    None => by_tree.push((&l.tree, vec![folder])),
                }
            }
            for (tree, folders) in &by_tree {
                ctx.artefact(&artefact_name(tree, "wallet apps' data"), || {
                    crate::wallet_apps::sweep(ctx, tree, folders)
                })?;
            }
        }
        for tree in trees(ctx)? {
            ctx.artefact(&artefact_name(&tree, "usage statistics"), || {
                usagestats::locate_and_triage(ctx, &tree)
            })?;
            ctx.artefact(&artefact_name(&tree, "notification history"), || {
                notifications::locate_and_triage(ctx, &tree)
            })?;
        }
        for l in of("burners.sqlite") {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                databases::burner(ctx, l)
            })?;
        }
        for l in of("app_usage") {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                databases::app_usage(ctx, l)
            })?;
        }
        for l in of("SimpleStorage") {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                databases::app_launches(ctx, l)
            })?;
        }
        for l in of("webviewCache.db") {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                databases::webview_cache(ctx, l)
            })?;
        }
        for l in of("viber_data") {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                databases::viber(ctx, l)
            })?;
        }
        for l in of("viber_messages")
            .into_iter()
            .filter(|l| vibermsg::is_viber(l))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                vibermsg::messages(ctx, l, &book)
            })?;
        }
        for l in of("usage-history.xml") {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                files::usage_history(ctx, l)
            })?;
        }
        for l in of("twitter.db").into_iter().chain(of("*-66.db")) {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || apps::twitter(ctx, l))?;
        }
        for l in of("da_destination_history")
            .into_iter()
            .filter(|l| maps::is_destinations(&l.path))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                maps::destinations(ctx, l)
            })?;
        }
        for l in of("gmm_myplaces.db")
            .into_iter()
            .filter(|l| maps::is_myplaces(l))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                maps::labelled_places(ctx, l)
            })?;
        }
        for l in of("*-db.db").into_iter().filter(|l| dropbox::is_files(l)) {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || dropbox::files(ctx, l))?;
        }
        for l in of("*-prefs.db")
            .into_iter()
            .filter(|l| dropbox::is_prefs(l))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || dropbox::prefs(ctx, l))?;
        }
        for l in of("karere-*.db").into_iter().filter(|l| mega::is_store(l)) {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || mega::triage(ctx, l))?;
        }
        for l in of("database.db")
            .into_iter()
            .filter(|l| todoist::is_store(l))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || todoist::triage(ctx, l))?;
        }
        for l in found.iter().filter(|l| vaults::is_store(l)) {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || vaults::triage(ctx, l))?;
        }
        for l in of("knuddels*")
            .into_iter()
            .filter(|l| knuddels::is_store(l))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                knuddels::triage(ctx, l)
            })?;
        }
        // Chess.com: the session's user name (per app folder) tells the database's own side
        let mut chess_users: Vec<(TreeRef, String, String)> = Vec::new();
        for l in of("com.chess.app.session_preferences.xml")
            .into_iter()
            .filter(|l| chesscom::is_session(l))
        {
            if let Some(Some(user)) = ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                chesscom::session(ctx, l)
            })? && let Some(folder) = chesscom::app_folder(&l.path)
            {
                chess_users.push((l.tree.clone(), folder.to_string(), user));
            }
        }
        for l in of("com.chess.app.login_credentials.xml")
            .into_iter()
            .filter(|l| chesscom::is_credentials(l))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                chesscom::credentials(ctx, l)
            })?;
        }
        for l in of("chess-database")
            .into_iter()
            .filter(|l| chesscom::is_store(l))
        {
            let folder = chesscom::app_folder(&l.path);
            let me = chess_users
                .iter()
                .find(|(tree, f, _)| *tree == l.tree && Some(f.as_str()) == folder)
                .map(|(_, _, user)| user.as_str());
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                chesscom::triage(ctx, l, me)
            })?;
        }
        for l in of("appHistory")
            .into_iter()
            .chain(of("OfflineDb"))
            .filter(|l| netflix::is_store(l))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || netflix::triage(ctx, l))?;
        }
        for l in of("db_offline_bookmarks")
            .into_iter()
            .filter(|l| disneyplus::is_store(l))
            .chain(
                of("default.xml")
                    .into_iter()
                    .chain(of("RecentSearchSharedPref.xml"))
                    .filter(|l| disneyplus::is_prefs(l)),
            )
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                disneyplus::triage(ctx, l)
            })?;
        }
        for l in of("dbplaybackhistory")
            .into_iter()
            .chain(of("bookmark"))
            .filter(|l| primevideo::is_store(l))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                primevideo::triage(ctx, l)
            })?;
        }
        for l in of("Moose.db")
            .into_iter()
            .chain(of("Settings.db"))
            .filter(|l| nordvpn::is_store(l))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || nordvpn::triage(ctx, l))?;
        }
        for l in of("ServerListUpdater.xml")
            .into_iter()
            .filter(|l| protonvpn::is_prefs(l))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                protonvpn::prefs(ctx, l)
            })?;
        }
        for l in of("Data*.log").into_iter().filter(|l| protonvpn::is_log(l)) {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || protonvpn::log(ctx, l))?;
        }
        for l in of("cello.db")
            .into_iter()
            .filter(|l| crate::googledrive::is_store(&l.path))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                crate::googledrive::read(ctx, &l.tree, &l.path, &l.found)
            })?;
        }
        for l in found.iter().filter(|l| nike::is_store(l)) {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || nike::triage(ctx, l))?;
        }
        for l in of("ns_inbox.db").into_iter().filter(|l| nike::is_inbox(l)) {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || nike::inbox(ctx, l))?;
        }
        for l in found.iter().filter(|l| runtastic::is_store(l)) {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                runtastic::triage(ctx, l)
            })?;
        }
        for l in of("alltrails")
            .into_iter()
            .filter(|l| alltrails::is_store(l))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                alltrails::triage(ctx, l)
            })?;
        }
        for l in found.iter().filter(|l| zepplife::is_store(l)) {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                zepplife::triage(ctx, l)
            })?;
        }
        for l in found.iter().filter(|l| withings::is_store(l)) {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                withings::triage(ctx, l)
            })?;
        }
        for l in of("new_recent_history_cache*")
            .into_iter()
            .chain(of("saved_directions.data*"))
            .filter(|l| mapscaches::is_cache(l))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                mapscaches::triage(ctx, l)
            })?;
        }
        for l in of("feed_database")
            .into_iter()
            .chain(of("ArticleDb.db"))
            .chain(of("sina_weibo"))
            .filter(|l| weibo::is_store(l))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || weibo::triage(ctx, l))?;
        }
        for l in of("PlayHistoryRecordDB")
            .into_iter()
            .chain(of("msgDB"))
            .chain(of("localRelationDB"))
            .filter(|l| xiaohongshu::is_store(l))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                xiaohongshu::triage(ctx, l)
            })?;
        }
        for l in of("like_pub.db")
            .into_iter()
            .chain(of("message_u*.db"))
            .chain(of("*location.kv"))
            .filter(|l| likee::is_store(l))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || likee::triage(ctx, l))?;
        }
        for l in of("ramdochatV2.db")
            .into_iter()
            .filter(|l| randochat::is_store(l))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                randochat::triage(ctx, l)
            })?;
        }
        for l in of("cmh.db").into_iter().filter(|l| cmh::is_store(l)) {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || cmh::triage(ctx, l))?;
        }
        for l in of("database.hik")
            .into_iter()
            .filter(|l| hikvision::is_store(l))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                hikvision::triage(ctx, l)
            })?;
        }
        for l in of("devicechannel.db")
            .into_iter()
            .filter(|l| dmss::is_store(l))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || dmss::triage(ctx, l))?;
        }
        for l in of("pikpak_files_*.db")
            .into_iter()
            .chain(of("pikpak_downloads.db"))
            .chain(of("greendao.db"))
            .filter(|l| pikpak::is_store(l))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || pikpak::triage(ctx, l))?;
        }
        for l in of("db-drive")
            .into_iter()
            .filter(|l| protondrive::is_store(l))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                protondrive::triage(ctx, l)
            })?;
        }
        for l in of("podcastAddict.db")
            .into_iter()
            .filter(|l| podcastaddict::is_store(l))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                podcastaddict::triage(ctx, l)
            })?;
        }
        for l in found.iter().filter(|l| garmin::is_prefs(l)) {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || garmin::prefs(ctx, l))?;
        }
        for l in found.iter().filter(|l| garmin::is_store(l)) {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || garmin::triage(ctx, l))?;
        }
        for l in of("bluetooth.db")
            .into_iter()
            .filter(|l| devicehealth::is_bluetooth(l))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                devicehealth::bluetooth(ctx, l)
            })?;
        }
        for l in of("app_usage_stats.xml")
            .into_iter()
            .filter(|l| devicehealth::is_app_usage(l))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                devicehealth::app_usage(ctx, l)
            })?;
        }
        for l in of("CURRENT").into_iter().filter(|l| semloc::is_store(l)) {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || semloc::triage(ctx, l))?;
        }
        for l in of("local.db")
            .into_iter()
            .filter(|l| samsunggallery::is_store(l))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                samsunggallery::triage(ctx, l)
            })?;
        }
        for l in of("frosting.db")
            .into_iter()
            .filter(|l| frosting::is_store(l))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                frosting::triage(ctx, l)
            })?;
        }
        for l in of("gass.db").into_iter().filter(|l| gass::is_store(l)) {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || gass::triage(ctx, l))?;
        }
        for l in of("PkgPredictions.db")
            .into_iter()
            .filter(|l| pkgpredictions::is_store(l))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                pkgpredictions::triage(ctx, l)
            })?;
        }
        for l in of("com.apple.trackerdetect_preferences.xml")
            .into_iter()
            .filter(|l| trackerdetect::is_store(l))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                trackerdetect::triage(ctx, l)
            })?;
        }
        for l in of("map_data_storage.db")
            .into_iter()
            .filter(|l| amazonshopping::is_store(l))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                amazonshopping::triage(ctx, l)
            })?;
        }
        for l in of("citymapper.db")
            .into_iter()
            .filter(|l| citymapper::is_store(l))
            .chain(
                citymapper::PREFS
                    .iter()
                    .flat_map(|&n| of(n))
                    .filter(|l| citymapper::is_prefs(l)),
            )
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                citymapper::triage(ctx, l)
            })?;
        }
        for l in of("oruxmapstracks.db")
            .into_iter()
            .filter(|l| oruxmaps::is_store(l))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                oruxmaps::triage(ctx, l)
            })?;
        }
        for l in of("slopes.db").into_iter().filter(|l| slopes::is_store(l)) {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || slopes::triage(ctx, l))?;
        }
        for l in of("receipts.db")
            .into_iter()
            .filter(|l| rema1000::is_store(l))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                rema1000::triage(ctx, l)
            })?;
        }
        for l in of("SbbMobile.db").into_iter().filter(|l| sbb::is_store(l)) {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || sbb::triage(ctx, l))?;
        }
        for l in of("favorites_prediction_db.sqlite")
            .into_iter()
            .filter(|l| swissmeteo::is_store(l))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                swissmeteo::triage(ctx, l, &of("localdata.sqlite"))
            })?;
        }
        for l in of("battery-usage-db-v4")
            .into_iter()
            .chain(of("battery-usage-db-v9"))
            .filter(|l| batteryusage::is_store(l))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                batteryusage::triage(ctx, l)
            })?;
        }
        for l in of("EmailProvider.db")
            .into_iter()
            .filter(|l| gmail::is_mail_store(l))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || gmail::mail(ctx, l))?;
        }
        for l in of("OneUI.db")
            .into_iter()
            .chain(of("Icon.db"))
            .filter(|l| samsunglauncher::is_store(l))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                samsunglauncher::triage(ctx, l)
            })?;
        }
        for l in of("scpmv2.db").into_iter().filter(|l| scpm::is_store(l)) {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || scpm::triage(ctx, l))?;
        }
        for l in of("dme.db")
            .into_iter()
            .filter(|l| storyservice::is_store(l))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                storyservice::triage(ctx, l)
            })?;
        }
        for l in of("com_pocketgeek_sdk_app_inventory.db")
            .into_iter()
            .chain(of("com_pocketgeek_sdk.db"))
            .filter(|l| samsungmembers::is_store(l))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                samsungmembers::triage(ctx, l)
            })?;
        }
        for l in of("sm.db")
            .into_iter()
            .chain(of("lowpowercontext-system-db"))
            .filter(|l| smartmanager::is_store(l))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                smartmanager::triage(ctx, l)
            })?;
        }
        for l in of("workout.db")
            .into_iter()
            .filter(|l| mapmywalk::is_store(l))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                mapmywalk::triage(ctx, l)
            })?;
        }
        for l in of("mmdk_user")
            .into_iter()
            .filter(|l| mapmywalk::is_user(l))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                mapmywalk::users(ctx, l)
            })?;
        }
        for l in of("pumatrac-db")
            .into_iter()
            .filter(|l| pumatrac::is_store(l))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                pumatrac::triage(ctx, l)
            })?;
        }
        for l in found.iter().filter(|l| runkeeper::is_prefs(l)) {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                runkeeper::prefs(ctx, l)
            })?;
        }
        for l in of("RunKeeper.sqlite")
            .into_iter()
            .filter(|l| runkeeper::is_store(l))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                runkeeper::triage(ctx, l)
            })?;
        }
        for l in found.iter().filter(|l| ornet::is_store(l)) {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || ornet::triage(ctx, l))?;
        }
        for l in found.iter().filter(|l| honorgallery::is_store(l)) {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                honorgallery::triage(ctx, l)
            })?;
        }
        for l in found.iter().filter(|l| etsy::is_store(l)) {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || etsy::triage(ctx, l))?;
        }
        for l in found.iter().filter(|l| verizonrdd::is_store(l)) {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                verizonrdd::triage(ctx, l)
            })?;
        }
        for l in of("platform.db")
            .into_iter()
            .filter(|l| breadwallet::is_store(l))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                breadwallet::store(ctx, l)
            })?;
        }
        for l in of("MyPrefsFile.xml")
            .into_iter()
            .filter(|l| breadwallet::is_prefs(l))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                breadwallet::prefs(ctx, l)
            })?;
        }
        for l in of("vlc_media.db").into_iter().filter(|l| vlc::is_store(l)) {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || vlc::triage(ctx, l))?;
        }
        for l in of("wf_database.sqlite")
            .into_iter()
            .filter(|l| zynga::is_store(l))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || zynga::triage(ctx, l))?;
        }
        for l in found.iter().filter(|l| adobereader::is_file(l)) {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                adobereader::triage(ctx, l)
            })?;
        }
        for l in paypal::NAMES
            .iter()
            .flat_map(|&n| of(n))
            .filter(|l| paypal::is_file(l))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || paypal::triage(ctx, l))?;
        }
        for l in revolut::NAMES
            .iter()
            .flat_map(|&n| of(n))
            .filter(|l| revolut::is_file(l))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || revolut::triage(ctx, l))?;
        }
        for l in of(capcut::STORE)
            .into_iter()
            .chain(capcut::PREFS.iter().flat_map(|&n| of(n)))
            .chain(of(capcut::REGISTER_GLOB))
            .filter(|l| capcut::is_store(l) || capcut::is_prefs(l))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || capcut::triage(ctx, l))?;
        }
        for l in of(ebay::STORE)
            .into_iter()
            .chain(of(ebay::SUGGESTIONS))
            .filter(|l| ebay::is_store(l) || ebay::is_suggestions(l))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || ebay::triage(ctx, l))?;
        }
        for l in found.iter().filter(|l| myfiles::is_store(l)) {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || myfiles::triage(ctx, l))?;
        }
        myfiles::trash_folders(ctx, &found)?;
        for l in found.iter().filter(|l| samsungbattery::is_store(l)) {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                samsungbattery::triage(ctx, l)
            })?;
        }
        for l in found.iter().filter(|l| avgvault::is_prefs(l)) {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || avgvault::prefs(ctx, l))?;
        }
        for l in found.iter().filter(|l| avgvault::is_key_store(l)) {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || avgvault::vault(ctx, l))?;
        }
        for l in found.iter().filter(|l| uberandroid::is_file(l)) {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                uberandroid::triage(ctx, l)
            })?;
        }
        for l in of("icing_contacts.db")
            .into_iter()
            .filter(|l| icingcontacts::is_store(l))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                icingcontacts::triage(ctx, l)
            })?;
        }
        for l in of("com.rarlab.rar_preferences.xml")
            .into_iter()
            .filter(|l| rarprefs::is_store(l))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                rarprefs::triage(ctx, l)
            })?;
        }
        for l in of("textfree").into_iter().filter(|l| sideline::is_store(l)) {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                sideline::triage(ctx, l, &book)
            })?;
        }
        for l in of("googlesettings.db")
            .into_iter()
            .filter(|l| gsfsettings::is_store(l))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                gsfsettings::triage(ctx, l)
            })?;
        }
        for l in of("accounts.xml")
            .into_iter()
            .filter(|l| syncaccounts::is_sync_accounts(l))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                syncaccounts::triage(ctx, l)
            })?;
        }
        for l in found.iter().filter(|l| grok::is_app_dir(l)) {
            grok::triage(ctx, l)?;
        }
        for l in of("OfflinePages.db")
            .into_iter()
            .filter(|l| offlinepages::is_store(l))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                offlinepages::store(ctx, l)
            })?;
        }
        for l in found.iter().filter(|l| offlinepages::is_archive(l)) {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                offlinepages::archive(ctx, l)
            })?;
        }
        for l in of("CachedGeoposition.db")
            .into_iter()
            .filter(|l| browserlocation::is_store(l))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                browserlocation::triage(ctx, l)
            })?;
        }
        for l in found.iter().filter(|l| fishingnet::is_app_dir(l)) {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                fishingnet::vault(ctx, l)
            })?;
        }
        for l in of("share_privacy_safe.xml")
            .into_iter()
            .filter(|l| fishingnet::is_prefs(l))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                fishingnet::prefs(ctx, l)
            })?;
        }
        for l in found.iter().filter(|l| playgroundvault::is_app_dir(l)) {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                playgroundvault::vault(ctx, l)
            })?;
        }
        for l in of("crypto.KEY_256.xml")
            .into_iter()
            .filter(|l| playgroundvault::is_key(l))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                playgroundvault::key(ctx, l)
            })?;
        }
        for l in found.iter().filter(|l| poweroffreset::is_log(l)) {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                poweroffreset::triage(ctx, l)
            })?;
        }
        for l in of("app_icons.db")
            .into_iter()
            .filter(|l| appicons::is_store(l))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                appicons::triage(ctx, l)
            })?;
        }
        for l in of("roles.xml").into_iter().filter(|l| roles::is_file(l)) {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || roles::triage(ctx, l))?;
        }
        for l in found.iter().filter(|l| discreteops::is_file(l)) {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                discreteops::triage(ctx, l)
            })?;
        }
        for l in of(".bash_history") {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                bashhistory::history(ctx, l)
            })?;
        }
        for l in found.iter().filter(|l| booking::is_prefs(l)) {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || booking::prefs(ctx, l))?;
        }
        for l in found.iter().filter(|l| booking::is_store(l)) {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || booking::triage(ctx, l))?;
        }
        for l in of("journal")
            .into_iter()
            .filter(|l| okhttpcache::is_journal(l))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                okhttpcache::triage(ctx, l)
            })?;
        }
        for l in found.iter().filter(|l| errp::is_log(l)) {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || errp::triage(ctx, l))?;
        }
        for l in of("com.bittorrent.client_preferences.xml")
            .into_iter()
            .filter(|l| bittorrentapp::is_prefs(l))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                bittorrentapp::prefs(ctx, l)
            })?;
        }
        for l in found.iter().filter(|l| bittorrentapp::is_history(l)) {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                bittorrentapp::history(ctx, l)
            })?;
        }
        for l in found.iter().filter(|l| torthumbs::is_app_dir(l)) {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                torthumbs::triage(ctx, l)
            })?;
        }
        for l in of("smartSidebar.db")
            .into_iter()
            .filter(|l| smartsidebar::is_store(l))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                smartsidebar::triage(ctx, l)
            })?;
        }
        for l in found.iter().filter(|l| smartsidebar::is_app_dir(l)) {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                smartsidebar::dock(ctx, l)
            })?;
        }
        for l in of("media.db")
            .into_iter()
            .filter(|l| samsungmedia::is_store(l))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                samsungmedia::triage(ctx, l)
            })?;
        }
        for l in of("dwbCommon.db")
            .into_iter()
            .filter(|l| samsungwellbeing::is_store(l))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                samsungwellbeing::triage(ctx, l)
            })?;
        }
        for l in of("search_index.db")
            .into_iter()
            .filter(|l| settingssearch::is_store(l))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                settingssearch::triage(ctx, l)
            })?;
        }
        for l in of("reflection_gel_events.db")
            .into_iter()
            .filter(|l| reflectionusage::is_store(l))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                reflectionusage::triage(ctx, l)
            })?;
        }
        for l in of("ULR_USER_PREFS.xml")
            .into_iter()
            .filter(|l| ulrprefs::is_file(l))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                ulrprefs::triage(ctx, l)
            })?;
        }
        for l in found.iter().filter(|l| life360trips::is_app_dir(l)) {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                life360trips::triage(ctx, l)
            })?;
        }
        for l in found.iter().filter(|l| intrusionlog::is_app_dir(l)) {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                intrusionlog::triage(ctx, l)
            })?;
        }
        for l in found.iter().filter(|l| mapstts::is_app_dir(l)) {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || mapstts::triage(ctx, l))?;
        }
        for l in found.iter().filter(|l| glidecache::is_app_dir(l)) {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                glidecache::triage(ctx, l)
            })?;
        }
        for l in found.iter().filter(|l| facebookapp::is_store(l)) {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                facebookapp::triage(ctx, l)
            })?;
        }
        for l in found.iter().filter(|l| googlevoice::is_file(l)) {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                googlevoice::triage(ctx, l, &book)
            })?;
        }
        for l in found.iter().filter(|l| googlephotos::is_store(l)) {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                googlephotos::triage(ctx, l)
            })?;
        }
        for l in found.iter().filter(|l| life360extra::is_store(l)) {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                life360extra::triage(ctx, l)
            })?;
        }
        for l in found.iter().filter(|l| kijijisearches::is_store(l)) {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                kijijisearches::triage(ctx, l)
            })?;
        }
        for l in found.iter().filter(|l| gcalendarapp::is_store(l)) {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                gcalendarapp::triage(ctx, l)
            })?;
        }
        for l in found.iter().filter(|l| whatsapplogs::is_log(l)) {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                whatsapplogs::log(ctx, l)
            })?;
        }
        for l in found.iter().filter(|l| whatsapplogs::is_rotation(l)) {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                whatsapplogs::rotation(ctx, l)
            })?;
        }
        for l in of("data.db")
            .into_iter()
            .filter(|l| googletasks::is_store(l))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                googletasks::triage(ctx, l)
            })?;
        }
        for l in of("PhoneFactor")
            .into_iter()
            .filter(|l| msauthenticator::is_store(l))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                msauthenticator::triage(ctx, l)
            })?;
        }
        for l in of("dhledb.db").into_iter().filter(|l| dhl::is_store(l)) {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || dhl::triage(ctx, l))?;
        }
        for l in of("vinted_database_2.db")
            .into_iter()
            .filter(|l| vinted::is_store(l))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || vinted::triage(ctx, l))?;
        }
        for l in of("*-transcription.pb")
            .into_iter()
            .filter(|l| calltranscripts::is_transcript(l))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                calltranscripts::triage(ctx, l)
            })?;
        }
        for l in of("*@*.*")
            .into_iter()
            .filter(|l| googlesearch::is_recent(l))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                googlesearch::triage(ctx, l)
            })?;
        }
        for l in of("flux_database.db")
            .into_iter()
            .filter(|l| yahoomail::is_store(l))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                yahoomail::triage(ctx, l)
            })?;
        }
        for l in of("fr-local-db")
            .into_iter()
            .filter(|l| ryanair::is_store(l))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || ryanair::triage(ctx, l))?;
        }
        for l in of("com.ebay.kleinanzeigen_preferences.xml")
            .into_iter()
            .filter(|l| kleinanzeigen::is_prefs(l))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                kleinanzeigen::account(ctx, l)
            })?;
        }
        for l in of("messageBoxDatabase.db")
            .into_iter()
            .filter(|l| kleinanzeigen::is_messages(l))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                kleinanzeigen::messages(ctx, l)
            })?;
        }
        for l in of("322w465ay423xy11")
            .into_iter()
            .filter(|l| nqvault::is_store(l))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || nqvault::triage(ctx, l))?;
        }
        for l in of("pinterest.xml")
            .into_iter()
            .filter(|l| pinterest::is_prefs(l))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                pinterest::triage(ctx, l)
            })?;
        }
        for l in of("user.xml")
            .into_iter()
            .chain(of("twitch_user_prefs.xml"))
            .filter(|l| twitch::is_prefs(l))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || twitch::triage(ctx, l))?;
        }
        for l in of("mozac_downloads_database")
            .into_iter()
            .chain(of("recently_closed_tabs"))
            .chain(of("top_sites"))
            .chain(of("permissions.sqlite"))
            .chain(of("cookies.sqlite"))
            .filter(|l| fenix::is_store(l))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || fenix::triage(ctx, l))?;
        }
        for l in of("odlh-storage.db")
            .into_iter()
            .filter(|l| odlh::is_store(l))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || odlh::triage(ctx, l))?;
        }
        for l in of("DriveBladeDB")
            .into_iter()
            .filter(|l| life360drives::is_store(l))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                life360drives::triage(ctx, l)
            })?;
        }
        for l in of("appStorage.json")
            .into_iter()
            .filter(|l| roblox::is_storage(l))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || roblox::storage(ctx, l))?;
        }
        for l in of("*_Player_*.log")
            .into_iter()
            .filter(|l| roblox::is_log(l))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || roblox::log(ctx, l))?;
        }
        for l in of("transfer20.db")
            .into_iter()
            .filter(|l| zapya::is_zapya(l))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                zapya::transfers(ctx, l)
            })?;
        }
        for l in of("history.db")
            .into_iter()
            .filter(|l| transfers::is_shareit(l))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                transfers::shareit(ctx, l)
            })?;
        }
        for l in of("trans-history-db")
            .into_iter()
            .filter(|l| transfers::is_xender(l))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                transfers::xender(ctx, l)
            })?;
        }
        for l in of("attd_db") {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || apps::airguard(ctx, l))?;
        }
        for l in of("files_master_database") {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                apps::files_by_google(ctx, l)
            })?;
        }
        for l in of("search_history_database")
            .into_iter()
            .filter(|l| apps::is_files_by_google_searches(l))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                apps::files_by_google_searches(ctx, l)
            })?;
        }
        // Truecaller keeps a tc.db too: read by its own reader
        for l in of("tango_android_tc.db")
            .into_iter()
            .chain(of("tc.db"))
            .filter(|l| !truecaller::is_truecaller(l))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                apps::tango_messages(ctx, l)
            })?;
        }
        for l in of("tango_profile.db") {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                apps::tango_profiles(ctx, l)
            })?;
        }
        for l in of("webview.db") {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                apps::webview_db(ctx, l)
            })?;
        }
        for l in of("turbo.db") {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || apps::turbo(ctx, l))?;
        }
        for l in of("History") {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                crate::browsers::chromium_history(ctx, &l.tree, &l.path, &l.found)
            })?;
        }
        for l in of("Login Data*")
            .into_iter()
            .chain(of("Web Data"))
            .chain(of("Shortcuts"))
            .chain(of("Network Action Predictor"))
            .chain(of("Cookies"))
            .chain(of("Top Sites"))
            .filter(|l| crate::chromium_forms::is_store(&l.path))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                crate::chromium_forms::read(ctx, &l.tree, &l.path, &l.found)
            })?;
        }
        for l in of("Media History")
            .into_iter()
            .chain(of("DIPS"))
            .filter(|l| crate::chromium_activity::is_store(&l.path))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                crate::chromium_activity::read(ctx, &l.tree, &l.path, &l.found)
            })?;
        }
        for l in found.iter().filter(|l| fitbit::is_store(l)) {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || fitbit::triage(ctx, l))?;
        }
        for l in of("QTMetadata.db")
            .into_iter()
            .filter(|l| crate::onedrive::is_store(&l.path))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                crate::onedrive::read(ctx, &l.tree, &l.path, &l.found)
            })?;
        }
        for l in of("places.sqlite") {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                crate::firefox::places(ctx, &l.tree, &l.path, &l.found)
            })?;
        }
        for l in of("formhistory.sqlite") {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                crate::firefox::form_history(ctx, &l.tree, &l.path, &l.found)
            })?;
        }
        for l in of("WifiConfigStoreSoftAp.xml") {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || hotspot::softap(ctx, l))?;
        }
        for l in of("WifiConfigStore.xml") {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                system::wifi_config_store(ctx, l)
            })?;
        }
        for l in of("wpa_supplicant.conf") {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                system::wpa_supplicant(ctx, l)
            })?;
        }
        for l in of("adb_keys")
            .into_iter()
            .filter(|l| crate::adb::is_trusted_keys(&l.path))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                crate::adb::trusted(ctx, &l.tree, &l.path, &l.found)
            })?;
        }
        for l in of("bt_config.conf") {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                system::bluetooth(ctx, l)
            })?;
        }
        for l in of("settings_ssaid.xml")
            .into_iter()
            .chain(of("settings_secure.xml"))
            .chain(of("settings_global.xml"))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                settings::settings(ctx, l)
            })?;
        }
        // by their provider's folder: other apps name databases `calendar.db`, `external.db` too
        for l in of("calendar.db")
            .into_iter()
            .filter(|l| l.path.contains("providers.calendar"))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                system::calendar(ctx, l)
            })?;
        }
        for l in of("external*.db")
            .into_iter()
            .filter(|l| l.path.contains("providers.media"))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                system::media_store(ctx, l)
            })?;
        }
        for l in of("packages.list") {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || files::packages(ctx, l))?;
        }
        line::triage(ctx, &found)?;
        tiktok::triage(ctx, &found)?;
        kik::triage(ctx, &found)?;
        imo::triage(ctx, &found)?;
        for l in of("cash_money.db")
            .into_iter()
            .filter(|l| cashapp::is_cashapp(l))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                cashapp::payments(ctx, l)
            })?;
        }
        for l in of("groupme.db")
            .into_iter()
            .filter(|l| groupme::is_groupme(l))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || groupme::triage(ctx, l))?;
        }
        for l in found
            .iter()
            .filter(|l| truecaller::is_truecaller(l) && truecaller::FILES.contains(&l.name()))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                truecaller::triage(ctx, l, &book)
            })?;
        }
        for l in of("textnow_data.db")
            .into_iter()
            .filter(|l| textnow::is_textnow(l))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                textnow::triage(ctx, l, &book)
            })?;
        }
        for l in of("SkypeTeams.db")
            .into_iter()
            .filter(|l| teams::is_teams(l))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || teams::triage(ctx, l))?;
        }
        for l in of("a")
            .into_iter()
            .filter(|l| crate::discord::is_kv_storage(&l.path))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                crate::discord::kv_storage(ctx, &l.tree, &l.path, &l.found)
            })?;
        }
        for l in of("dynamite.db")
            .into_iter()
            .filter(|l| crate::gchat::is_dynamite(&l.path))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                crate::gchat::dynamite(ctx, &l.tree, &l.path, &l.found)
            })?;
        }
        for l in of("tinder-3.db")
            .into_iter()
            .filter(|l| tinder::is_tinder(l))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || tinder::triage(ctx, l))?;
        }
        for l in of("ChatComDatabase") {
            if let Some(app) = bumble::chat_app(l) {
                ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                    bumble::triage(ctx, l, app)
                })?;
            }
        }
        let mut mail = k9mail::Accounts::new();
        for l in found.iter().filter(|l| k9mail::is_prefs(l)) {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                k9mail::prefs(ctx, l, &mut mail)
            })?;
        }
        for l in found.iter().filter(|l| k9mail::is_store(l)) {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                k9mail::store(ctx, l, &mail)
            })?;
        }
        for l in found.iter().filter(|l| kijiji::is_login(l)) {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || kijiji::login(ctx, l))?;
        }
        for l in found.iter().filter(|l| kijiji::is_store(l)) {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || kijiji::store(ctx, l))?;
        }
        for l in found.iter().filter(|l| linkedin::is_prefs(l)) {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || linkedin::prefs(ctx, l))?;
        }
        for l in found.iter().filter(|l| linkedin::is_store(l)) {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || linkedin::store(ctx, l))?;
        }
        for l in found.iter().filter(|l| burner::is_burner(l)) {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                burner::triage(ctx, l, &book)
            })?;
        }
        for l in found
            .iter()
            .filter(|l| l.name() == "teleguard_database.db" && crate::teleguard::is_store(&l.path))
        {
            let dir = l.path.rsplit_once('/').map(|(d, _)| d);
            let temp = found.iter().find(|t| {
                t.name() == "teleguard_temp.db" && t.path.rsplit_once('/').map(|(d, _)| d) == dir
            });
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                crate::teleguard::store(
                    ctx,
                    &l.tree,
                    &l.path,
                    &l.found,
                    temp.map(|t| (t.path.as_str(), &t.found)),
                )
            })?;
        }
        for l in found.iter().filter(|l| signal::is_store(l)) {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                signal::store(ctx, l, &found)
            })?;
        }
        for l in found.iter().filter(|l| deepseek::is_store(l)) {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || deepseek::store(ctx, l))?;
        }
        for l in found.iter().filter(|l| claude::is_account(l)) {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || claude::account(ctx, l))?;
        }
        for l in found.iter().filter(|l| claude::is_store(l)) {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || claude::store(ctx, l))?;
        }
        for l in found.iter().filter(|l| chatgpt::is_user(l)) {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || chatgpt::user(ctx, l))?;
        }
        for l in found.iter().filter(|l| chatgpt::is_store(l)) {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || chatgpt::store(ctx, l))?;
        }
        for l in found.iter().filter(|l| life360::is_store(l)) {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || life360::store(ctx, l))?;
        }
        for l in found.iter().filter(|l| mewe::is_session(l)) {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || mewe::session(ctx, l))?;
        }
        for l in found.iter().filter(|l| mewe::is_store(l)) {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || mewe::store(ctx, l))?;
        }
        for l in found.iter().filter(|l| zangi::is_app_dir(l)) {
            zangi::triage(ctx, l)?;
        }
        for l in found
            .iter()
            .filter(|l| l.path.rsplit('/').next() == Some(crate::protonmail::PACKAGE))
        {
            crate::protonmail::android_app(ctx, &l.tree, &l.path)?;
        }
        for l in found
            .iter()
            .filter(|l| l.path.rsplit('/').next() == Some(reddit::PACKAGE))
        {
            reddit::triage(ctx, l)?;
        }
        for l in found
            .iter()
            .filter(|l| l.path.rsplit('/').next() == Some(bluesky::PACKAGE))
        {
            bluesky::triage(ctx, l)?;
        }
        for l in found
            .iter()
            .filter(|l| l.path.rsplit('/').next() == Some(hinge::PACKAGE))
        {
            hinge::triage(ctx, l)?;
        }
        for l in found
            .iter()
            .filter(|l| l.path.rsplit('/').next() == Some(mastodon::PACKAGE))
        {
            mastodon::triage(ctx, l)?;
        }
        for l in found
            .iter()
            .filter(|l| l.path.rsplit('/').next() == Some(threads::PACKAGE))
        {
            threads::triage(ctx, l)?;
        }
        for l in found
            .iter()
            .filter(|l| l.path.rsplit('/').next() == Some(outlook::PACKAGE))
        {
            outlook::triage(ctx, l)?;
        }
        intercom::triage(ctx, &found)?;
        for l in found.iter().filter(|l| gmail::is_prefs(l)) {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || gmail::active(ctx, l))?;
        }
        for l in found.iter().filter(|l| romeo::is_store(l)) {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || romeo::store(ctx, l))?;
        }
        for l in found.iter().filter(|l| simplex::is_store(l)) {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                simplex::store(ctx, l, &found)
            })?;
        }
        for l in found.iter().filter(|l| tusky::is_store(l)) {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || tusky::store(ctx, l))?;
        }
        for l in found.iter().filter(|l| wire::is_store(l)) {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || wire::store(ctx, l))?;
        }
        for l in found.iter().filter(|l| wire::is_encrypted(l)) {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || wire::encrypted(ctx, l))?;
        }
        for l in found.iter().filter(|l| wire::is_session(l)) {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || wire::proteus(ctx, l))?;
        }
        for l in found.iter().filter(|l| fairemail::is_fairemail(l)) {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                fairemail::triage(ctx, l)
            })?;
        }
        for l in of("CombinedConnectionsDatabase")
            .into_iter()
            .filter(|l| bumble::is_badoo_connections(l))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                bumble::connections(ctx, l)
            })?;
        }
        for l in found.iter().filter(|l| meetme::is_meetme(l)) {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || meetme::triage(ctx, l))?;
        }
        for l in found.iter().filter(|l| skout::is_skout(l)) {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || skout::triage(ctx, l))?;
        }
        for l in found.iter().filter(|l| session::is_prefs(l)) {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || session::prefs(ctx, l))?;
        }
        for l in found.iter().filter(|l| session::is_store(l)) {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || session::store(ctx, l))?;
        }
        for l in found.iter().filter(|l| bumble::is_settings(l)) {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                bumble::settings(ctx, l)
            })?;
        }
        for l in found.iter().filter(|l| weatherclock::is_store(l)) {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                weatherclock::triage(ctx, l)
            })?;
        }
        for l in found.iter().filter(|l| fcm::is_store(l)) {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || fcm::triage(ctx, l))?;
        }
        for l in found.iter().filter(|l| fit::is_store(l)) {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || fit::triage(ctx, l))?;
        }
        for l in of("carservicedata.db")
            .into_iter()
            .filter(|l| auto::is_store(l))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || auto::triage(ctx, l))?;
        }
        for l in of("personalsafety_db")
            .into_iter()
            .filter(|l| trackers::is_store(l))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                trackers::triage(ctx, l)
            })?;
        }
        for l in of("trash.db")
            .into_iter()
            .filter(|l| samsungfiles::is_trash(l))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                samsungfiles::trash(ctx, l)
            })?;
        }
        for l in found.iter().filter(|l| samsungfiles::is_myfiles(l)) {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                samsungfiles::myfiles(ctx, l)
            })?;
        }
        for l in of("OperationHistory.db")
            .into_iter()
            .filter(|l| samsungfiles::is_operations(l))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                samsungfiles::operations(ctx, l)
            })?;
        }
        for l in found.iter().filter(|l| samsung::is_store(l)) {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || samsung::triage(ctx, l))?;
        }
        for l in of("cast.db").into_iter().filter(|l| cast::is_store(l)) {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || cast::triage(ctx, l))?;
        }
        for l in of("libretorrent.db")
            .into_iter()
            .filter(|l| torrent::is_store(l))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || torrent::triage(ctx, l))?;
        }
        for l in of("history.db")
            .into_iter()
            .filter(|l| duckduckgo::is_history(l))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                duckduckgo::history(ctx, l)
            })?;
        }
        for l in of("app.db").into_iter().filter(|l| duckduckgo::is_app(l)) {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                duckduckgo::tabs(ctx, l)
            })?;
        }
        for l in of("speedtest")
            .into_iter()
            .filter(|l| speedtest::is_store(l))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                speedtest::triage(ctx, l)
            })?;
        }
        // files anywhere read by one tool each, shared with iOS: torrents, FIT activities
        for l in &found {
            let read = if crate::torrentfile::is_torrent_file(l.name()) {
                crate::torrentfile::read
            } else if crate::fitfile::is_fit_file(l.name()) {
                crate::fitfile::read
            } else {
                continue;
            };
            let name = artefact_name(&l.tree, &l.path);
            ctx.artefact(&name, || {
                read(
                    ctx,
                    &name,
                    args_on(&l.tree, json!({"path": l.path})),
                    &l.found,
                    &l.path,
                )
            })?;
        }
        for l in of("history_db")
            .into_iter()
            .filter(|l| nowplaying::is_store(l))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                nowplaying::triage(ctx, l)
            })?;
        }
        for l in of("runtime-permissions.xml")
            .into_iter()
            .filter(|l| runtimeperms::is_file(l))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                runtimeperms::triage(ctx, l)
            })?;
        }
        for l in of("setup_wizard_info.xml")
            .into_iter()
            .filter(|l| setupwizard::is_file(l))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                setupwizard::triage(ctx, l)
            })?;
        }
        for l in found.iter().filter(|l| keyboard::is_gboard(l)) {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                keyboard::gboard(ctx, l)
            })?;
        }
        for l in of("ClipItem.db")
            .into_iter()
            .filter(|l| keyboard::is_samsung_clipboard(l))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                keyboard::samsung_clipboard(ctx, l)
            })?;
        }
        for l in of("user_dict.db")
            .into_iter()
            .filter(|l| keyboard::is_user_dictionary(l))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                keyboard::user_dictionary(ctx, l)
            })?;
        }
        for l in of("QcDB.db")
            .into_iter()
            .filter(|l| smartthings::is_store(l))
        {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                smartthings::triage(ctx, l)
            })?;
        }
        for l in found.iter().filter(|l| smsbackup::is_backup(l)) {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                smsbackup::triage(ctx, l, &book)
            })?;
        }
        for l in found.iter().filter(|l| dialer::is_store(l)) {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                dialer::triage(ctx, l, &book)
            })?;
        }
        for l in of("tachyon.db").into_iter().filter(|l| duo::is_duo(l)) {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || {
                duo::triage(ctx, l, &book)
            })?;
        }
        snapchat::triage(ctx, &found)?;
        for l in found.iter().filter(|l| slack::is_slack(l)) {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || slack::triage(ctx, l))?;
        }
        for l in found.iter().filter(|l| skype::account_of(l).is_some()) {
            ctx.artefact(&artefact_name(&l.tree, &l.path), || skype::live(ctx, l))?;
        }
        telegram::triage(ctx, &found)?;
        wechat::triage(ctx, &found)?;
        if with_files {
            // the phone's own screenshots (`DCIM/Screenshots`, `Pictures/Screenshots`)
            let mut shots = Vec::new();
            for tree in trees(ctx)? {
                let invoked = ctx.call(
                    "find_files",
                    args_on(&tree, json!({"name_glob": "Screenshot*", "limit": 5000})),
                )?;
                if crate::calls::succeeded(&invoked) {
                    shots.extend(
                        found_paths(&invoked.output.text)
                            .into_iter()
                            .filter(|p| {
                                p.contains("/Screenshots/") && crate::media::is_image_name(p)
                            })
                            .map(|p| (tree.partition.clone(), p)),
                    );
                }
            }
            ctx.artefact("screenshots", || {
                crate::media::device_screenshots(ctx, &shots)
            })?;
        }
        if with_files {
            // After the parsers, so an artefact noted unparsed gives no phenomenon at all.
            let unparsed: Vec<String> = ctx
                .session()
                .unparsed()?
                .into_iter()
                .filter(|u| {
                    u.source_id == ctx.source().id
                        && u.agent == ctx.agent()
                        && u.task_id == ctx.task_id()
                })
                .map(|u| u.artefact)
                .collect();
            let parsed: Vec<Located> = found
                .iter()
                .filter(|l| !unparsed.contains(&artefact_name(&l.tree, &l.path)))
                .filter(|l| !is_app_dir(&l.path))
                // generic names searched for one place only: other apps' files of the name are none
                .filter(|l| match l.name() {
                    "history" => lifecycle::is_recovery_history(l),
                    "hosts" => hosts::is_hosts(l),
                    n if n.starts_with("fitness.db.") => fit::is_store(l),
                    "data.db" => googletasks::is_store(l),
                    n if whatsapplogs::is_name(n) => whatsapplogs::is_file(l),
                    n if n.ends_with("cal_v2a") => gcalendarapp::is_store(l),
                    "searches.db" => kijijisearches::is_store(l),
                    "NoShowAlertRoomDatabase" | "PetProfileRoomDatabase" => {
                        life360extra::is_store(l)
                    }
                    n if googlephotos::is_name(n) => googlephotos::is_store(l),
                    "LegacyMsgDbInstance.db" => googlevoice::is_store(l),
                    n if n.ends_with("VoiceAccountCache.db") => googlevoice::is_store(l),
                    "AccountData.pb" => wellbeing::is_account(l) || googlevoice::is_account_data(l),
                    n if facebookapp::is_named_like(n) => facebookapp::is_store(l),
                    "search_index.db" => settingssearch::is_store(l),
                    "media.db" if samsungmedia::is_store(l) => true,
                    "smartSidebar.db" => smartsidebar::is_store(l),
                    "com.bittorrent.client_preferences.xml" => bittorrentapp::is_prefs(l),
                    "eRR.p" => errp::is_log(l),
                    "journal" => okhttpcache::is_journal(l),
                    "post_booking_reservation_cache"
                    | "account_data_cache"
                    | "mybooking.xml"
                    | "remote_profile.xml"
                    | "com.booking_preferences.xml" => booking::is_file(l),
                    "notifications.db" if booking::is_file(l) => true,
                    n if discreteops::is_name(n) => discreteops::is_file(l),
                    "roles.xml" => roles::is_file(l),
                    "app_icons.db" => appicons::is_store(l),
                    "power_off_reset_reason.txt" | "power_off_reset_reason_backup.txt" => {
                        poweroffreset::is_log(l)
                    }
                    "crypto.KEY_256.xml" => playgroundvault::is_key(l),
                    "share_privacy_safe.xml" => fishingnet::is_prefs(l),
                    "icing_contacts.db" => icingcontacts::is_store(l),
                    n if uberandroid::is_name(n) => uberandroid::is_file(l),
                    "PinSettingsImpl.xml" => avgvault::is_prefs(l),
                    n if n.starts_with("sec_batterystats_history") => samsungbattery::is_store(l),
                    "FileCache.db" | "Frequency.db" | "TrashAppInfo.db" => myfiles::is_store(l),
                    n if n.starts_with("MyFiles") && n.ends_with(".db") => myfiles::is_store(l),
                    n if capcut::is_name(n) => capcut::is_store(l) || capcut::is_prefs(l),
                    n if revolut::is_name(n) => revolut::is_file(l),
                    n if paypal::is_name(n) => paypal::is_file(l),
                    n if adobereader::is_name(n) => adobereader::is_file(l),
                    "platform.db" | "MyPrefsFile.xml" => {
                        breadwallet::is_store(l) || breadwallet::is_prefs(l)
                    }
                    n if etsy::STORES.contains(&n) || etsy::PREFS.contains(&n) => etsy::is_store(l),
                    "gallery.db" => honorgallery::is_store(l),
                    "appDatabase" | "kdownloader.db" => ornet::is_store(l),
                    "workout.db" | "mmdk_user" => mapmywalk::is_file(l),
                    "sm.db" | "lowpowercontext-system-db" => smartmanager::is_store(l),
                    "com_pocketgeek_sdk_app_inventory.db" | "com_pocketgeek_sdk.db" => {
                        samsungmembers::is_store(l)
                    }
                    "dme.db" => storyservice::is_store(l),
                    "OneUI.db" | "Icon.db" => samsunglauncher::is_store(l),
                    "EmailProvider.db" => gmail::is_mail_store(l),
                    n if batteryusage::is_name(n) => batteryusage::is_store(l),
                    "favorites_prediction_db.sqlite" | "localdata.sqlite" => {
                        swissmeteo::is_store(l) || swissmeteo::is_list(l)
                    }
                    "SbbMobile.db" => sbb::is_store(l),
                    "receipts.db" => rema1000::is_store(l),
                    "slopes.db" => slopes::is_store(l),
                    "oruxmapstracks.db" => oruxmaps::is_store(l),
                    "citymapper.db"
                    | "preferences.xml"
                    | "Session.xml"
                    | "superProperties.xml"
                    | "no_backup_preferences.xml" => {
                        citymapper::is_store(l) || citymapper::is_prefs(l)
                    }
                    "map_data_storage.db" => amazonshopping::is_store(l),
                    "com.apple.trackerdetect_preferences.xml" => trackerdetect::is_store(l),
                    "PkgPredictions.db" => pkgpredictions::is_store(l),
                    "gass.db" => gass::is_store(l),
                    "frosting.db" => frosting::is_store(l),
                    "local.db" => samsunggallery::is_store(l),
                    "CURRENT" => semloc::is_store(l),
                    "bluetooth.db" => devicehealth::is_bluetooth(l),
                    "app_usage_stats.xml" => devicehealth::is_app_usage(l),
                    n if garmin::is_garmin_name(n) => garmin::is_file(l),
                    "podcastAddict.db" => podcastaddict::is_store(l),
                    "db-drive" => protondrive::is_store(l),
                    n if n.starts_with("pikpak_files_") => pikpak::is_store(l),
                    "pikpak_downloads.db" | "greendao.db" => pikpak::is_store(l),
                    "devicechannel.db" => dmss::is_store(l),
                    "database.hik" => hikvision::is_store(l),
                    "cmh.db" => cmh::is_store(l),
                    "ramdochatV2.db" => randochat::is_store(l),
                    n if likee::is_name(n) => likee::is_store(l),
                    "PlayHistoryRecordDB" | "msgDB" | "localRelationDB" => xiaohongshu::is_store(l),
                    "feed_database" | "ArticleDb.db" | "sina_weibo" => weibo::is_store(l),
                    n if n.starts_with("new_recent_history_cache")
                        || n.starts_with("saved_directions.data") =>
                    {
                        mapscaches::is_cache(l)
                    }
                    "history_log_database"
                    | "permission_db"
                    | "ContextLog.db"
                    | "wifigeofence.db"
                    | "WifiConfigStore.db"
                    | "SleepDetection.db"
                    | "badge.db" => samsung::is_store(l),
                    "OperationHistory.db" => samsungfiles::is_operations(l),
                    n if n.starts_with("room-healthmate") => withings::is_store(l),
                    n if n.starts_with("origin_db") => zepplife::is_store(l),
                    "db" | "goals" => runtastic::is_store(l),
                    n if n.starts_with("com.nike.nrc.room") => nike::is_store(l),
                    "ns_inbox.db" => nike::is_inbox(l),
                    "ServerListUpdater.xml" => protonvpn::is_prefs(l),
                    n if n.starts_with("Data") && n.ends_with(".log") => protonvpn::is_log(l),
                    "Moose.db" | "Settings.db" => nordvpn::is_store(l),
                    "dbplaybackhistory" | "bookmark" => primevideo::is_store(l),
                    "db_offline_bookmarks" => disneyplus::is_store(l),
                    "default.xml" | "RecentSearchSharedPref.xml" => disneyplus::is_prefs(l),
                    "appHistory" | "OfflineDb" => netflix::is_store(l),
                    "media.db" => vaults::is_vaulty(l),
                    "database.db" => todoist::is_store(l),
                    "activity_db" | "device_database" | "exercise_db" | "heart_rate_db"
                    | "sleep" | "social_db" | "passive_stats.db" => fitbit::is_store(l),
                    _ => true,
                })
                .cloned()
                .collect();
            artefact_files(ctx, &parsed)?;
        }
        Ok(found.len())
    }
}

/// Reads `l` with `read_xml` (plain XML, or ABX decoded to the XML it stands for) and parses
/// the XML text with `parse`: the call, the format its first line names (`xml`, `abx
/// (decoded)`) and what `parse` made of it; `None` when the call failed or the text is not
/// `kind` ("could not parse {artefact} as {kind}: {why}"), each noted.
/// An element's attributes, as the text holds them (raw values, entities left as written, so
/// that each grounds verbatim in `read_xml`'s output).
pub(crate) type Attrs = Vec<(String, String)>;

/// The attributes of `e` ([`Attrs`]).
pub(crate) fn xml_attrs(e: &quick_xml::events::BytesStart<'_>) -> Attrs {
    e.attributes()
        .flatten()
        .map(|a| {
            (
                AsRef::<str>::as_ref(&a.key).to_string(),
                a.value.into_owned(),
            )
        })
        .collect()
}

pub(crate) fn read_xml<T>(
    ctx: &AgentCtx<'_>,
    l: &Located,
    kind: &str,
    parse: impl FnOnce(&str) -> Result<T, String>,
) -> Result<Option<(masf_tools::Invoked, String, T)>, RuntimeError> {
    let name = artefact_name(&l.tree, &l.path);
    let Some(inv) = crate::calls::call_or_note(
        ctx,
        &name,
        "read_xml",
        args_on(&l.tree, json!({"path": l.path})),
    )?
    else {
        return Ok(None);
    };
    let text = &inv.output.text;
    let format = text
        .lines()
        .next()
        .and_then(|l| l.strip_prefix("# format: "))
        .unwrap_or("xml")
        .to_string();
    match parse(text.split_once('\n').map_or("", |(_, b)| b)) {
        Ok(parsed) => Ok(Some((inv, format, parsed))),
        Err(why) => {
            ctx.unparsed(
                &name,
                &format!("could not parse {name} as {kind}: {why}"),
                Some(&inv.record.invocation_id),
            )?;
            Ok(None)
        }
    }
}

/// The data folders of apps whose stores have no fixed name (found by the folder, named after
/// the package, then listed by the reader).
const APP_DIRS: &[&str] = &[
    fcm::DIR,
    zangi::PACKAGE,
    crate::protonmail::PACKAGE,
    reddit::PACKAGE,
    bluesky::PACKAGE,
    hinge::PACKAGE,
    mastodon::PACKAGE,
    threads::PACKAGE,
    outlook::PACKAGE,
    avgvault::KEY_STORE,
    grok::PACKAGE,
    fishingnet::DIR,
    playgroundvault::DIR,
    torthumbs::PACKAGE,
    torthumbs::ALPHA,
    smartsidebar::DIR,
    life360trips::DIR,
    intrusionlog::DEVICE_DIR,
    intrusionlog::AQF_DIR,
    intrusionlog::AQF_DIR_DASH,
    mapstts::DIR,
    glidecache::DIR,
];

/// Whether `path` is a data folder [`locate`] finds by its name: a wallet app's or one of
/// [`APP_DIRS`].
fn is_app_dir(path: &str) -> bool {
    crate::wallet_apps::android_app(path).is_some()
        || APP_DIRS.contains(&path.rsplit('/').next().unwrap_or(path))
}

/// Finds every artefact of [`ARTEFACTS`] in every readable file system: one `find_files` per
/// file system with every glob (one walk of the tree, not one per artefact); deleted entries are
/// left out.
fn locate(ctx: &AgentCtx<'_>) -> Result<Vec<Located>, RuntimeError> {
    // the artefacts' files, then the wallet apps' data folders (by their package's name)
    let globs: Vec<&str> = ARTEFACTS
        .iter()
        .map(|(g, _)| *g)
        .chain(crate::wallet_apps::android_globs())
        .chain(APP_DIRS.iter().copied())
        .collect();
    let limit = FOUND_PER_ARTEFACT * ARTEFACTS.len() as u64;
    let mut out = Vec::new();
    for tree in trees(ctx)? {
        let invoked = ctx.call(
            "find_files",
            args_on(&tree, json!({"name_globs": globs, "limit": limit})),
        )?;
        if !crate::calls::succeeded(&invoked) {
            continue;
        }
        crate::calls::note_links(ctx, |p| artefact_name(&tree, p), &invoked)?;
        if invoked.output.text.contains("\n# truncated at limit") {
            ctx.unparsed(
                &format!("Android artefacts of {}", tree.label),
                &format!(
                    "more than {limit} files are named like an Android artefact; those past the first {limit} were not read"
                ),
                Some(&invoked.record.invocation_id),
            )?;
        }
        // in the order of ARTEFACTS (then of the walk), as the artefacts are worked
        let mut here: Vec<(usize, Located)> = Vec::new();
        for path in found_paths(&invoked.output.text) {
            let name = path.rsplit('/').next().unwrap_or(&path);
            let Some(rank) = globs[..ARTEFACTS.len()]
                .iter()
                .position(|g| masf_tools::fs_tools::glob_match(g, name))
            else {
                continue;
            };
            if globs[rank] == "persist-*" && !crate::wallets::mobile_state_file(&path) {
                // another React Native app's state, or a controller not read
                continue;
            }
            here.push((
                rank,
                Located {
                    tree: tree.clone(),
                    path,
                    found: invoked.clone(),
                },
            ));
        }
        for path in crate::outputs::found_dirs(&invoked.output.text) {
            if is_app_dir(&path) {
                here.push((
                    globs.len(),
                    Located {
                        tree: tree.clone(),
                        path,
                        found: invoked.clone(),
                    },
                ));
            }
        }
        here.sort_by_key(|(rank, _)| *rank);
        out.extend(here.into_iter().map(|(_, l)| l));
    }
    Ok(out)
}
