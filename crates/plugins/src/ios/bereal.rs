//! BeReal on iOS (`AlexisBarreyat.BeReal`): the fields of iLEAPP's BeReal artefacts its app
//! keeps in the clear —
//!
//! - the app's JSON caches (`Library/Caches/<cache>/<entry>` of its container, each `{"object":
//!   …}`, read with `read_json`, every `id` qualified `bereal:<id>` by the tool):
//!   `disk-bereal-ProfileRepository` (the account: created, profile type, full name, user name,
//!   picture, gender, birthday, biography, country code, region, address, phone number, each
//!   device's id, model and OS, app version and time zone, private, RealMojis, user id: one
//!   `accounts`), `disk-bereal-RelationshipsFriendsListManager`, `…RequestSentListManager`,
//!   `…RequestReceivedListManager` (friends and requests: status and its time, profile type, full
//!   name, user name, picture, mutual friends, user id: one `contacts` each), the `.following` /
//!   `.followers` entries (following or follower), `PersonRepository` (profiles the app opened:
//!   created, profile type, names, picture, biography, address, relationship and when friended,
//!   links, streak, id), `disk-bereal-BlockedUserManager` (blocked users and when) and
//!   `disk-bereal-RelationshipsContactsManager-contact` (the address book the app read: names,
//!   organisation, phone numbers);
//! - `bereal-chat.sqlite` of its app group (Core Data): one `messages` per `ZMESSAGEMO` row
//!   (sent — Core Data seconds —, the conversation's owner, direction — outgoing when the sender
//!   is the owner, as iLEAPP reads it —, sender, text, type: 1 text, 3 RealMoji, 9 photo, 10
//!   deleted, as iLEAPP names them; the media's source and URL, the conversation id) and one per
//!   `ZCONVERSATIONMO` row (created, owner, private or group, administrators and participants —
//!   archived lists read with `plists` —, the last message, total messages, last updated — Unix
//!   seconds —, unread count, id);
//! - `group.BeReal.plist` of its app group: the signed-in user's id and user name and the friends'
//!   names by id, which name the ids above;
//! - posts, as iLEAPP's `bereal_posts` and `bereal_comments` read them: an opened profile's day
//!   (`PersonRepository`'s `beRealOfTheDay.series.posts`), the account's memories
//!   (`disk-bereal-MemoriesRepository-subject-key`: its own posts' details) and the feed
//!   (`disk-bereal-Production_postFeedItems` of the app group): one `social` per post (author,
//!   caption, latitude and longitude, taken and moment times — Core Data seconds —, type: on time,
//!   late, bonus —, retakes, lateness, every medium's URL and type, tagged users, post and moment
//!   ids) and per comment (author, text, time, id; outgoing when its author wrote the post);
//! - their RealMojis (`realMojis`: author, emoji, the selfie's URL, time, id; outgoing when the
//!   post's author reacted), as iLEAPP's `bereal_realmojis` reads them, and pinned memories
//!   (`disk-bereal-{Memories,Person}Repository-pinnedMemories-key`: taken and moment day, post
//!   type, author id, media, moment and pin ids), as its `bereal_pinned_memories` does.
//!
//! Identities: the signed-in user (`bereal:<id>`, user name, phone number) is the device's user
//! (`owner`); every friend, request, follower, opened profile, blocked user, chat party, poster,
//! commenter and reacting user is a person `bereal:<id>` with user name and name; the address
//! book's numbers are observed as `handle:<number>` (or the card holding them); wallet addresses
//! in a chat message are claims by direction. A cache entry that is not JSON, or not the shape
//! its cache holds, is noted.

use std::collections::BTreeMap;

use masf_agents::RuntimeError;
use masf_graph::{EntityKind, FactType, IdType};
use masf_tools::Invoked;
use serde_json::{Value, json};

use super::{Draft, Run, core_data_encoding, file_name, raw};
use crate::drafts::unix_seconds;
use crate::outputs::{in_json, in_json_cell, json_document, plist_cell};

/// The JSON caches read, by folder, with what each holds.
const CACHES: &[(&str, Cache)] = &[
    ("disk-bereal-ProfileRepository", Cache::Profile),
    (
        "disk-bereal-RelationshipsFriendsListManager",
        Cache::Friends,
    ),
    (
        "disk-bereal-RelationshipsRequestSentListManager",
        Cache::Friends,
    ),
    (
        "disk-bereal-RelationshipsRequestReceivedListManager",
        Cache::Friends,
    ),
    ("disk-bereal-BlockedUserManager", Cache::Blocked),
    (
        "disk-bereal-RelationshipsContactsManager-contact",
        Cache::Contacts,
    ),
    ("PersonRepository", Cache::Person),
    (
        "disk-bereal-MemoriesRepository-subject-key",
        Cache::Memories,
    ),
    ("disk-bereal-Production_postFeedItems", Cache::Feed),
    (
        "disk-bereal-MemoriesRepository-pinnedMemories-key",
        Cache::Pinned,
    ),
    (
        "disk-bereal-PersonRepository-pinnedMemories-key",
        Cache::Pinned,
    ),
];

/// What a cache holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Cache {
    Profile,
    Friends,
    Blocked,
    Contacts,
    Person,
    /// The account's memories (its own posts).
    Memories,
    /// The feed's posts (the app group's root, not `Library/Caches`).
    Feed,
    /// Pinned memories (the account's, or other users' by author).
    Pinned,
}

/// What the preferences say: the signed-in user and the names of users by id.
#[derive(Default)]
struct Known {
    /// `(qualified id, user name)` of the signed-in user.
    me: Option<User>,
    names: BTreeMap<String, String>,
}

/// The folders of the caches, for the one search.
pub fn folders() -> impl Iterator<Item = &'static str> {
    CACHES.iter().map(|(f, _)| *f)
}

/// Triage of BeReal's preferences, chat store and caches.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    let mut known = Known::default();
    run.each("group.BeReal.plist", |find, path| {
        preferences(run, find, path, &mut known)
    })?;
    for (folder, cache) in CACHES {
        let Some((_, dirs)) = run.find_dirs(folder)? else {
            continue;
        };
        for dir in &dirs {
            // PersonRepository is a common name: only beside BeReal's own caches
            if *cache == Cache::Person && !beside_bereal(run, dir)? {
                continue;
            }
            if !dir.contains("/Library/Caches/") && *cache != Cache::Feed {
                continue;
            }
            run.ctx
                .artefact(dir, || cache_dir(run, dir, *cache, &known))?;
        }
    }
    run.each("bereal-chat.sqlite", |find, path| {
        chats(run, find, path, &known.names)
    })?;
    Ok(())
}

/// Whether a `Library/Caches/<folder>` sits in a container that holds BeReal's caches.
fn beside_bereal(run: &Run<'_, '_>, dir: &str) -> Result<bool, RuntimeError> {
    let Some((caches, _)) = dir.rsplit_once('/') else {
        return Ok(false);
    };
    let Some((_, dirs)) = run.find_dirs("disk-bereal-ProfileRepository")? else {
        return Ok(false);
    };
    Ok(dirs
        .iter()
        .any(|d| d.rsplit_once('/').is_some_and(|(c, _)| c == caches)))
}

/// `group.BeReal.plist`: the signed-in user and the friends' names by id.
fn preferences(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    known: &mut Known,
) -> Result<(), RuntimeError> {
    let names = &mut known.names;
    let q = json!({"bereal-user-id": "bereal", "userId": "bereal", "myUserID": "bereal"});
    let Some(inv) = crate::calls::call_or_note(
        run.ctx,
        path,
        "parse_plist",
        json!({"path": path, "qualify": q}),
    )?
    else {
        return Ok(());
    };
    let Ok(doc) = serde_json::from_str::<Value>(&inv.output.text) else {
        return Ok(());
    };
    let key = ["bereal-user-id", "userId", "myUserID"]
        .into_iter()
        .find(|k| doc.get(*k).and_then(Value::as_str).is_some());
    for (id, name) in doc
        .get("currentFriends")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
    {
        if let Some(n) = name.as_str() {
            names.insert(id.clone(), n.to_string());
        }
    }
    let Some(key) = key else {
        return Ok(());
    };
    let id = doc[key].as_str().unwrap_or_default().to_string();
    let user = doc["myAccount"][&id]["username"]
        .as_str()
        .map(str::to_string);
    if let Some(u) = &user {
        names.insert(id.clone(), u.clone());
    }
    let mut d = Draft::new(
        "accounts",
        format!("BeReal account {}", user.as_deref().unwrap_or(id.as_str())),
    );
    d.fact(FactType::Path, Some(path), find);
    d.fact(FactType::Account, Some(&in_json(&id)), &inv);
    d.fact(
        FactType::Account,
        user.as_deref().map(in_json).as_deref(),
        &inv,
    );
    d.interpretation = format!(
        "{path}: BeReal's preferences name the signed-in user {id} ({key}){}, and {} friends by id.",
        user.as_deref()
            .map(|u| format!(", user name {u}"))
            .unwrap_or_default(),
        names.len().saturating_sub(usize::from(user.is_some())),
    );
    run.record(d)?;
    let q = doc[format!("{key}.qualified")].as_str().map(str::to_string);
    if let Some(q) = &q {
        known.me = Some((q.clone(), user.clone()));
    }
    run.observe_person(
        "owner",
        "device owner",
        &inv,
        &|what| {
            format!("The {what} of the BeReal account signed in on the device (its preferences).")
        },
        &[
            (
                IdType::AccountId,
                q.as_deref(),
                "user id (qualified by the tool)",
            ),
            (IdType::Nickname, user.as_deref(), "user name"),
        ],
    )?;
    Ok(())
}

/// One cache folder: each entry read by `read_json`.
fn cache_dir(
    run: &Run<'_, '_>,
    dir: &str,
    cache: Cache,
    known: &Known,
) -> Result<(), RuntimeError> {
    let Some(listed) =
        crate::calls::call_or_note(run.ctx, dir, "list_dir", json!({ "path": dir }))?
    else {
        return Ok(());
    };
    for path in crate::outputs::found_paths(&listed.output.text) {
        if file_name(&path).starts_with('.') {
            continue;
        }
        let Some(inv) = crate::calls::call_or_note(
            run.ctx,
            &path,
            "read_json",
            json!({"path": path, "qualify": {"id": "bereal", "userId": "bereal", "uid": "bereal"}}),
        )?
        else {
            continue;
        };
        let Some(object) = json_document(&inv.output.text).and_then(|d| d.get("object").cloned())
        else {
            run.ctx.unparsed(
                &path,
                "could not parse the BeReal cache entry because it holds no `object` (not the cache's JSON)",
                Some(&inv.record.invocation_id),
            )?;
            continue;
        };
        let what = Entry {
            run,
            // the entry's path stands in the folder's listing
            find: &listed,
            inv: &inv,
            path: &path,
        };
        match cache {
            Cache::Profile => what.profile(&object)?,
            Cache::Person => {
                what.person(&object, "opened profile")?;
                what.posts(&posts_of(&object, cache, None), &known.names)?;
            }
            Cache::Pinned => what.pinned(&object)?,
            Cache::Memories | Cache::Feed => {
                what.posts(&posts_of(&object, cache, known.me.as_ref()), &known.names)?;
            }
            Cache::Friends | Cache::Blocked => {
                let (users, relation) = if let Some(users) = object.get("users") {
                    // the `.following` / `.followers` entries
                    let r = object["relationship"].as_str().unwrap_or("");
                    (
                        users.clone(),
                        if r.eq_ignore_ascii_case("following") {
                            Some("Following")
                        } else {
                            Some("Follower")
                        },
                    )
                } else {
                    (object.clone(), None)
                };
                for (i, u) in users.as_array().into_iter().flatten().enumerate() {
                    if cache == Cache::Blocked {
                        what.blocked(u, i)?;
                    } else {
                        what.friend(u, i, relation)?;
                    }
                }
            }
            Cache::Contacts => {
                for (i, c) in object.as_array().into_iter().flatten().enumerate() {
                    what.contact(c, i)?;
                }
            }
        }
    }
    Ok(())
}

/// A string member as it is and as `read_json`'s output holds it.
fn s(v: &Value, k: &str) -> Option<(String, String)> {
    match v.get(k)? {
        Value::String(x) if !x.trim().is_empty() => Some((x.clone(), in_json(x))),
        Value::Number(n) => Some((n.to_string(), n.to_string())),
        _ => None,
    }
}

/// A member as `read_json`'s output holds it.
fn cited(v: &Value, k: &str) -> Option<String> {
    s(v, k).map(|(_, c)| c)
}

/// A member as it is, `?` when absent.
fn shown(v: &Value, k: &str) -> String {
    s(v, k).map(|(x, _)| x).unwrap_or_else(|| "?".into())
}

/// A user's user name, else full name.
fn label_of(u: &Value) -> String {
    s(u, "username")
        .or(s(u, "fullname"))
        .map(|(v, _)| v)
        .unwrap_or_else(|| "?".into())
}

/// The first key of an enum-like object (`{"male": {}}`), as iLEAPP reads it.
fn key0(v: Option<&Value>) -> Option<String> {
    v?.as_object()?.keys().next().cloned()
}

/// A profile's type: `isRealPeople` (older releases) or `profileType`'s key, as iLEAPP reads it.
fn profile_type(v: &Value) -> Option<String> {
    match v.get("isRealPeople").and_then(Value::as_bool) {
        Some(true) => Some("real_people".into()),
        Some(false) => Some("regular".into()),
        None => key0(v.get("profileType")),
    }
}

/// One cache entry being read: its calls and path.
struct Entry<'a, 'c, 's> {
    run: &'a Run<'c, 's>,
    find: &'a Invoked,
    inv: &'a Invoked,
    path: &'a str,
}

impl Entry<'_, '_, '_> {
    /// A user (`{id, username, fullname}`) observed as the person `bereal:<id>`.
    fn observe_user(&self, u: &Value, what: &str) -> Result<(), RuntimeError> {
        let Some(q) = u["id.qualified"].as_str() else {
            return Ok(());
        };
        let user = s(u, "username").map(|(v, _)| v);
        let name = s(u, "fullname").map(|(v, _)| v);
        let label = name.clone().or(user.clone()).unwrap_or(q.to_string());
        self.run.observe_person(
            q,
            &label,
            self.inv,
            &|w| format!("The {w} of a BeReal user, {what} (the app's cache)."),
            &[
                (
                    IdType::AccountId,
                    Some(q),
                    "user id (qualified by the tool)",
                ),
                (IdType::Nickname, user.as_deref(), "user name"),
                (IdType::DisplayName, name.as_deref(), "full name"),
            ],
        )
    }

    /// Member `key` of `v` as a time of `d` in Core Data seconds.
    fn stamp(&self, d: &mut Draft, v: &Value, key: &str, what: &str) {
        let t = cited(v, key);
        d.time(
            t.as_deref(),
            core_data_encoding(t.as_deref()),
            what,
            self.inv,
        );
    }

    /// The common facts of a user record.
    fn user_facts(&self, d: &mut Draft, u: &Value) {
        d.fact(FactType::Path, Some(self.path), self.find);
        d.fact(FactType::Account, u["id.qualified"].as_str(), self.inv);
        d.fact(FactType::Account, cited(u, "username").as_deref(), self.inv);
        d.fact(FactType::Name, cited(u, "fullname").as_deref(), self.inv);
        d.fact(
            FactType::Url,
            cited(u, "profilePictureURL").as_deref(),
            self.inv,
        );
    }

    fn profile(&self, a: &Value) -> Result<(), RuntimeError> {
        let user = s(a, "username").map(|(v, _)| v);
        let mut d = Draft::new(
            "accounts",
            format!(
                "BeReal account {}",
                user.as_deref().unwrap_or("(no user name)")
            ),
        );
        self.user_facts(&mut d, a);
        d.fact(
            FactType::Url,
            a["profilePicture"]["url"].as_str().map(in_json).as_deref(),
            self.inv,
        );
        d.fact(
            FactType::Phone,
            cited(a, "phoneNumber").as_deref(),
            self.inv,
        );
        d.fact(FactType::Text, cited(a, "biography").as_deref(), self.inv);
        d.fact(FactType::Text, cited(a, "location").as_deref(), self.inv);
        let mut devices = Vec::new();
        for dev in a["devices"].as_array().into_iter().flatten() {
            for k in ["deviceId", "device", "clientVersion", "timezone"] {
                d.fact(
                    if k == "deviceId" {
                        FactType::Identifier
                    } else {
                        FactType::Text
                    },
                    s(dev, k).map(|(_, c)| c).as_deref(),
                    self.inv,
                );
            }
            devices.push(format!(
                "{} ({}, app {}, time zone {})",
                s(dev, "deviceId").map(|(v, _)| v).unwrap_or_default(),
                s(dev, "device").map(|(v, _)| v).unwrap_or_default(),
                s(dev, "clientVersion").map(|(v, _)| v).unwrap_or_default(),
                s(dev, "timezone").map(|(v, _)| v).unwrap_or_default(),
            ));
        }
        for (k, what) in [
            ("createdAt", "BeReal account created"),
            ("birthDate", "Birthday (as the account states it)"),
        ] {
            let v = s(a, k).map(|(_, c)| c);
            d.time(
                v.as_deref(),
                core_data_encoding(v.as_deref()),
                what,
                self.inv,
            );
        }
        let region = match a.get("region") {
            Some(Value::Object(o)) => o.get("value").and_then(Value::as_str).map(str::to_string),
            Some(Value::String(r)) => Some(r.clone()),
            _ => None,
        };
        d.interpretation = format!(
            "{}: the BeReal account signed in on the device: user id {}, user name {}, full name {}, profile type {}, gender {}, country code {}, region {}, phone number {}, private {}, {} RealMojis; devices: {}; createdAt and birthDate are Core Data seconds.",
            self.path,
            shown(a, "id"),
            user.as_deref().unwrap_or("?"),
            shown(a, "fullname"),
            profile_type(a).unwrap_or_else(|| "?".into()),
            key0(a.get("gender")).unwrap_or_else(|| "?".into()),
            shown(a, "countryCode"),
            region.unwrap_or_else(|| "?".into()),
            s(a, "phoneNumber")
                .map(|(v, _)| v)
                .unwrap_or_else(|| "none".into()),
            a["isPrivate"],
            a["realmojis"].as_array().map(Vec::len).unwrap_or(0),
            if devices.is_empty() {
                "none".to_string()
            } else {
                devices.join("; ")
            },
        );
        self.run.record(d)?;
        let q = a["id.qualified"].as_str();
        let phone = s(a, "phoneNumber").map(|(v, _)| v);
        let name = s(a, "fullname").map(|(v, _)| v);
        self.run.observe_person(
            "owner",
            "device owner",
            self.inv,
            &|w| {
                format!(
                    "The {w} of the BeReal account signed in on the device (its profile cache)."
                )
            },
            &[
                (IdType::AccountId, q, "user id (qualified by the tool)"),
                (IdType::Nickname, user.as_deref(), "user name"),
                (IdType::DisplayName, name.as_deref(), "full name"),
                (IdType::Phone, phone.as_deref(), "phone number"),
            ],
        )
    }

    fn person(&self, p: &Value, what: &str) -> Result<(), RuntimeError> {
        let label = label_of(p);
        let mut d = Draft::new("contacts", format!("BeReal profile {label}"));
        self.user_facts(&mut d, p);
        d.fact(FactType::Text, cited(p, "biography").as_deref(), self.inv);
        d.fact(FactType::Text, cited(p, "location").as_deref(), self.inv);
        let links: Vec<String> = p["links"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|l| l["url"].as_str().map(str::to_string))
            .collect();
        for l in &links {
            d.fact(FactType::Url, Some(&in_json(l)), self.inv);
        }
        self.stamp(&mut d, p, "createdAt", "BeReal profile created");
        let rel = &p["relationship"];
        self.stamp(&mut d, rel, "friendedAt", "Became BeReal friends");
        d.interpretation = format!(
            "{}: a BeReal profile the app cached ({what}): user id {}, profile type {}, relationship {}{}, streak {}, links {}; times are Core Data seconds.",
            self.path,
            shown(p, "id"),
            profile_type(p).unwrap_or_else(|| "?".into()),
            rel["status"].as_str().unwrap_or("none"),
            match rel["status"].as_str() {
                Some("accepted") | Some("pending") => " (a friend, as iLEAPP reads it)",
                _ => "",
            },
            p["streakCount"],
            if links.is_empty() {
                "none".to_string()
            } else {
                links.join(", ")
            },
        );
        self.run.record(d)?;
        self.observe_user(p, what)
    }

    fn friend(&self, u: &Value, i: usize, relation: Option<&str>) -> Result<(), RuntimeError> {
        let status = match relation {
            Some(r) => r.to_string(),
            None => match u["status"].as_str().unwrap_or("").to_lowercase().as_str() {
                "accepted" => "Friend".into(),
                "sent" => "Request Sent".into(),
                "pending" => "Request Received".into(),
                "canceled" => "Request Canceled".into(),
                "rejected" => "Request Rejected".into(),
                other => other.to_string(),
            },
        };
        let label = label_of(u);
        let mut d = Draft::new(
            "contacts",
            format!("BeReal {}: {label}", status.to_lowercase()),
        );
        self.user_facts(&mut d, u);
        self.stamp(
            &mut d,
            u,
            "statusUpdatedAt",
            "BeReal relationship status updated",
        );
        d.interpretation = format!(
            "{} entry {i}: {status} (status {}), user id {}, profile type {}, mutual friends {}; statusUpdatedAt is Core Data seconds.",
            self.path,
            u["status"].as_str().unwrap_or(relation.unwrap_or("?")),
            shown(u, "id"),
            profile_type(u).unwrap_or_else(|| "?".into()),
            u["mutualFriends"],
        );
        self.run.record(d)?;
        self.observe_user(
            u,
            &format!("whose relationship with the account is {status}"),
        )
    }

    fn blocked(&self, u: &Value, i: usize) -> Result<(), RuntimeError> {
        let label = label_of(u);
        let mut d = Draft::new("contacts", format!("BeReal blocked user {label}"));
        self.user_facts(&mut d, u);
        self.stamp(&mut d, u, "blockedDate", "BeReal user blocked");
        d.interpretation = format!(
            "{} entry {i}: a user the account blocked, user id {}; blockedDate is Core Data seconds.",
            self.path,
            shown(u, "id"),
        );
        self.run.record(d)?;
        self.observe_user(u, "whom the account blocked")
    }

    fn contact(&self, c: &Value, i: usize) -> Result<(), RuntimeError> {
        let name = s(c, "completeName")
            .or(s(c, "givenName"))
            .map(|(v, _)| v)
            .unwrap_or_else(|| "(no name)".into());
        let phones: Vec<String> = c["phoneNumbers"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|p| p.as_str().map(str::to_string))
            .collect();
        let mut d = Draft::new("contacts", format!("BeReal address-book contact {name}"));
        d.fact(FactType::Path, Some(self.path), self.find);
        for k in [
            "completeName",
            "familyName",
            "middleName",
            "givenName",
            "nickName",
        ] {
            d.fact(FactType::Name, s(c, k).map(|(_, x)| x).as_deref(), self.inv);
        }
        d.fact(
            FactType::Text,
            cited(c, "organizationName").as_deref(),
            self.inv,
        );
        for p in &phones {
            d.fact(FactType::Phone, Some(&in_json(p)), self.inv);
        }
        d.interpretation = format!(
            "{} entry {i}: a contact of the device's address book as BeReal read it: {name}{}, phone numbers {}.",
            self.path,
            s(c, "organizationName")
                .map(|(v, _)| format!(" ({v})"))
                .unwrap_or_default(),
            if phones.is_empty() {
                "none".to_string()
            } else {
                phones.join(", ")
            },
        );
        self.run.record(d)?;
        for p in &phones {
            self.run
                .observe_handle(p, self.inv, "BeReal's copy of the address book")?;
        }
        Ok(())
    }
}

/// `bereal-chat.sqlite`: messages and conversations.
fn chats(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    names: &BTreeMap<String, String>,
) -> Result<(), RuntimeError> {
    let Some(schema) = run.schema(
        path,
        &[
            "ZMESSAGEMO",
            "ZCONVERSATIONMO",
            "ZCONVERSATIONSTATUSMO",
            "ZMEDIAMO",
        ],
    )?
    else {
        return Ok(());
    };
    if !schema.require(
        run,
        "ZMESSAGEMO",
        &["Z_PK", "ZCREATEDAT", "ZSENDER", "ZCONVERSATION"],
    )? {
        return Ok(());
    }
    let named = |id: Option<&str>| match id {
        Some(i) => match names.get(i) {
            Some(n) => format!("{i} ({n})"),
            None => i.to_string(),
        },
        None => "?".to_string(),
    };
    let m = |c: &str| schema.col("M", "ZMESSAGEMO", c);
    let c = |col: &str| schema.col("C", "ZCONVERSATIONMO", col);
    let me = |col: &str| schema.col("ME", "ZMEDIAMO", col);
    let media_join = if schema.columns("ZMEDIAMO").contains("ZMESSAGE") {
        "LEFT JOIN ZMEDIAMO ME ON ME.ZMESSAGE = M.Z_PK"
    } else {
        ""
    };
    let (src, url) = if media_join.is_empty() {
        ("NULL".to_string(), "NULL".to_string())
    } else {
        (me("ZSOURCE"), me("ZURL"))
    };
    let conv_join = if schema.columns("ZCONVERSATIONMO").contains("Z_PK") {
        "LEFT JOIN ZCONVERSATIONMO C ON C.Z_PK = M.ZCONVERSATION"
    } else {
        ""
    };
    let owner = if conv_join.is_empty() {
        "NULL".to_string()
    } else {
        c("ZOWNER")
    };
    let sql = format!(
        "SELECT M.Z_PK AS pk, M.ZCREATEDAT AS sent, {owner} AS owner, 'bereal:' || {owner} AS owner_q, M.ZSENDER AS sender, 'bereal:' || M.ZSENDER AS sender_q, \
CAST({} AS TEXT) AS body, {} AS body_type, {src} AS source, {url} AS url, {} AS conversation FROM ZMESSAGEMO M {conv_join} {media_join}",
        m("ZBODY"),
        m("ZBODYTYPE"),
        m("ZCONVERSATIONID"),
    );
    let Some(pages) = run.paged(path, &sql, "M.Z_PK")? else {
        return Ok(());
    };
    crate::calls::note_pages_cap(run.ctx, path, &pages, "BeReal messages")?;
    let file = file_name(path);
    for (inv, t, row) in pages.rows() {
        let sender = t.get(row, "sender");
        let owner = t.get(row, "owner");
        let outgoing = sender.is_some() && sender == owner;
        let kind = match t.get(row, "body_type") {
            Some("1") => "text".to_string(),
            Some("3") => "RealMoji".to_string(),
            Some("9") => "photo".to_string(),
            Some("10") => "deleted".to_string(),
            Some(v) => format!("type {v}"),
            None => "message".to_string(),
        };
        let body = raw(t, row, "body");
        let mut d = Draft::new(
            "messages",
            format!(
                "BeReal {kind} {} {}",
                if outgoing { "sent by" } else { "from" },
                named(sender),
            ),
        );
        d.fact(FactType::Path, Some(path), find);
        d.fact(FactType::Account, t.get(row, "sender_q"), inv);
        d.fact(FactType::Account, t.get(row, "owner_q"), inv);
        d.fact(FactType::Text, body.as_deref(), inv);
        d.fact(FactType::Url, raw(t, row, "url").as_deref(), inv);
        d.fact(
            FactType::Identifier,
            raw(t, row, "conversation").as_deref(),
            inv,
        );
        let sent = raw(t, row, "sent");
        d.time(
            sent.as_deref(),
            core_data_encoding(sent.as_deref()),
            if outgoing {
                "Message sent"
            } else {
                "Message received"
            },
            inv,
        );
        d.interpretation = format!(
            "ZMESSAGEMO Z_PK {} of {file}: a {kind} ({}) of the conversation {} owned by {}, sent by {}{}; {}; ZCREATEDAT is Core Data seconds.",
            t.get(row, "pk").unwrap_or("?"),
            if outgoing {
                "outgoing: its sender is the conversation's owner, as iLEAPP reads it"
            } else {
                "incoming"
            },
            t.get(row, "conversation").unwrap_or("?"),
            named(owner),
            named(sender),
            raw(t, row, "source")
                .map(|s| format!(", media from {s}"))
                .unwrap_or_default(),
            body.as_deref()
                .map(|b| format!("text {b}"))
                .unwrap_or_else(|| "no text".into()),
        );
        run.record(d)?;
        if let Some(text) = t.get(row, "body") {
            let other = (!outgoing)
                .then(|| t.get(row, "sender_q"))
                .flatten()
                .map(|q| (q.to_string(), named(sender)));
            run.message_claims(
                inv,
                text,
                &format!(
                    "BeReal message {} ({file})",
                    t.get(row, "pk").unwrap_or("?")
                ),
                outgoing,
                other,
                "its sender is the conversation's owner",
                "its sender is not the conversation's owner",
            )?;
        }
        if let (Some(q), Some(s)) = (t.get(row, "sender_q"), sender) {
            let label = names.get(s).cloned().unwrap_or(s.to_string());
            run.observe(
                q,
                EntityKind::Person,
                &label,
                IdType::AccountId,
                q,
                inv,
                format!(
                    "{q} sent BeReal message {} ({file}).",
                    t.get(row, "pk").unwrap_or("?")
                ),
            )?;
        }
    }
    if schema.columns("ZCONVERSATIONMO").contains("Z_PK") {
        conversations(run, find, path, &schema, &named)?;
    }
    Ok(())
}

/// `ZCONVERSATIONMO`: each chat.
fn conversations(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    schema: &super::Schema,
    named: &dyn Fn(Option<&str>) -> String,
) -> Result<(), RuntimeError> {
    let c = |col: &str| schema.col("C", "ZCONVERSATIONMO", col);
    let status = if schema.columns("ZCONVERSATIONSTATUSMO").contains("Z_PK")
        && schema.columns("ZCONVERSATIONMO").contains("ZSTATUS")
    {
        (
            "LEFT JOIN ZCONVERSATIONSTATUSMO S ON S.Z_PK = C.ZSTATUS",
            schema.col("S", "ZCONVERSATIONSTATUSMO", "ZUNREADMESSAGECOUNT"),
        )
    } else {
        ("", "NULL".to_string())
    };
    let last = if schema.columns("ZCONVERSATIONMO").contains("ZLASTMESSAGE") {
        (
            "LEFT JOIN ZMESSAGEMO L ON L.Z_PK = C.ZLASTMESSAGE",
            schema.col("L", "ZMESSAGEMO", "ZBODY"),
        )
    } else {
        ("", "NULL".to_string())
    };
    let sql = format!(
        "SELECT C.Z_PK AS pk, {} AS created, {} AS owner, {} AS kind, {} AS admins, {} AS participants, CAST({} AS TEXT) AS last, {} AS total, {} AS updated, {} AS unread, {} AS id \
FROM ZCONVERSATIONMO C {} {}",
        c("ZCREATEDAT"),
        c("ZOWNER"),
        c("ZTYPE"),
        c("ZADMINS"),
        c("ZPARTICIPANTS"),
        last.1,
        c("ZCURRENTSEQNUM"),
        c("ZLASTUPDATETIME"),
        status.1,
        c("ZID"),
        status.0,
        last.0,
    );
    let Some((inv, t)) = crate::calls::query_with(run.ctx, path, &sql, 10_000, &["plists"])? else {
        return Ok(());
    };
    let file = file_name(path);
    let ids = |cell: Option<&str>| -> Vec<String> {
        cell.and_then(plist_cell)
            .map(|v| v.get("root").cloned().unwrap_or(v))
            .and_then(|v| v.as_array().cloned())
            .into_iter()
            .flatten()
            .filter_map(|x| x.as_str().map(str::to_string))
            .collect()
    };
    for row in &t.rows {
        let kind = if t.get(row, "kind") == Some("1") {
            "private"
        } else {
            "group"
        };
        let admins = ids(t.get(row, "admins"));
        let parts = ids(t.get(row, "participants"));
        let listed = |v: &[String]| {
            v.iter()
                .map(|i| named(Some(i)))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let mut d = Draft::new(
            "messages",
            format!(
                "BeReal {kind} chat {}",
                raw(&t, row, "id").unwrap_or_else(|| "?".into())
            ),
        );
        d.fact(FactType::Path, Some(path), find);
        d.fact(FactType::Identifier, raw(&t, row, "id").as_deref(), &inv);
        for p in &parts {
            d.fact(FactType::Account, Some(&in_json_cell(p)), &inv);
        }
        d.fact(FactType::Text, raw(&t, row, "last").as_deref(), &inv);
        let created = raw(&t, row, "created");
        d.time(
            created.as_deref(),
            core_data_encoding(created.as_deref()),
            "BeReal chat created",
            &inv,
        );
        let updated = raw(&t, row, "updated");
        d.time(
            updated.as_deref(),
            unix_seconds(updated.as_deref()),
            "BeReal chat last updated",
            &inv,
        );
        d.interpretation = format!(
            "ZCONVERSATIONMO Z_PK {} of {file}: a {kind} chat owned by {}, administrators {}, participants {}, {} messages in all, {} unread, last message {}; ZCREATEDAT is Core Data seconds, ZLASTUPDATETIME Unix seconds.",
            t.get(row, "pk").unwrap_or("?"),
            named(t.get(row, "owner")),
            if admins.is_empty() {
                "none".to_string()
            } else {
                listed(&admins)
            },
            if parts.is_empty() {
                "none".to_string()
            } else {
                listed(&parts)
            },
            t.get(row, "total").unwrap_or("?"),
            t.get(row, "unread").unwrap_or("?"),
            raw(&t, row, "last").unwrap_or_else(|| "none".into()),
        );
        run.record(d)?;
    }
    Ok(())
}

/// A post found in a cache: the post, where its capture data and its metadata (caption,
/// location, comments) sit, its author and the owner of the series it belongs to, and where in
/// the entry it is.
struct Post<'v> {
    post: &'v Value,
    data: &'v Value,
    meta: &'v Value,
    comments: &'v Value,
    realmojis: &'v Value,
    /// The author's `(qualified id, user name)`, when known.
    author: Option<User>,
    /// Whether the entry itself names the author (the account's memories do not: theirs is
    /// the signed-in user, named by the preferences).
    author_in_entry: bool,
    at: String,
}

/// A user as a post names them: `(qualified id, user name)`.
type User = (String, Option<String>);

/// What a reaction to a post is.
#[derive(Debug, Clone, Copy)]
enum Reaction {
    Comment,
    RealMoji,
}

/// A user an object names (`user {id, username}`, or `uid`/`userName`, or `id`/`username`), as
/// iLEAPP's `get_user` reads it: `(qualified id, user name)`.
fn user_of(v: &Value) -> Option<User> {
    let (u, id, name) = if v["user"].is_object() {
        (&v["user"], "id", "username")
    } else if v["uid"].is_string() && v["userName"].is_string() {
        (v, "uid", "userName")
    } else if v["username"].is_string() {
        (v, "id", "username")
    } else {
        return None;
    };
    let q = u[format!("{id}.qualified")].as_str()?;
    Some((q.to_string(), u[name].as_str().map(str::to_string)))
}

/// The posts of a cache entry: a profile's `beRealOfTheDay.series.posts`, the account's
/// memories (`allDetailedPosts`, the account's own), the feed's moments (`[[{user, posts}]]`).
fn posts_of<'v>(object: &'v Value, cache: Cache, me: Option<&User>) -> Vec<Post<'v>> {
    let mut out = Vec::new();
    match cache {
        Cache::Person => {
            let series = &object["beRealOfTheDay"]["series"];
            for (i, p) in series["posts"].as_array().into_iter().flatten().enumerate() {
                out.push(Post {
                    post: p,
                    data: p,
                    meta: p,
                    comments: &p["comment"],
                    realmojis: &p["realMojis"],
                    author: user_of(p).or_else(|| user_of(series)),
                    author_in_entry: true,
                    at: format!("[object][beRealOfTheDay][series][posts][{i}]"),
                });
            }
        }
        Cache::Memories => {
            for (i, m) in object.as_array().into_iter().flatten().enumerate() {
                for (j, p) in m["allDetailedPosts"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .enumerate()
                {
                    let full = &p["details"]["full"];
                    let data = if full["data"].is_object() {
                        &full["data"]
                    } else {
                        &p["details"]["preview"]["data"]
                    };
                    out.push(Post {
                        post: p,
                        data,
                        meta: &full["metadata"],
                        comments: &full["metadata"]["comments"],
                        realmojis: &full["metadata"]["realMojis"],
                        author: me.cloned(),
                        author_in_entry: false,
                        at: format!("[object][{i}][allDetailedPosts][{j}]"),
                    });
                }
            }
        }
        Cache::Feed => {
            for (i, day) in object.as_array().into_iter().flatten().enumerate() {
                for (m, moment) in day.as_array().into_iter().flatten().enumerate() {
                    for (k, p) in moment["posts"].as_array().into_iter().flatten().enumerate() {
                        out.push(Post {
                            post: p,
                            data: p,
                            meta: p,
                            comments: &p["comment"],
                            realmojis: &p["realMojis"],
                            author: user_of(moment),
                            author_in_entry: true,
                            at: format!("[object][{i}][{m}][posts][{k}]"),
                        });
                    }
                }
            }
        }
        _ => {}
    }
    out
}

/// A medium (`primaryMedia`, `primary`, `thumbnail` …): its URL and type, as iLEAPP's
/// `get_media` reads them.
fn medium(v: &Value) -> Option<(String, Option<String>)> {
    let url = v["url"].as_str()?.to_string();
    let kind = match &v["mediaType"] {
        Value::String(s) => Some(s.clone()),
        Value::Object(o) => o.keys().next().cloned(),
        _ => None,
    };
    Some((url, kind))
}

/// A time a post keeps: Core Data seconds as a number, or a date as text.
fn time_encoding(v: Option<&str>) -> Option<masf_graph::TimeEncoding> {
    core_data_encoding(v).or_else(|| crate::drafts::date_text(v))
}

impl Entry<'_, '_, '_> {
    /// Every post of the entry (one `social` each) and its comments (one `social` each).
    fn posts(
        &self,
        posts: &[Post<'_>],
        names: &BTreeMap<String, String>,
    ) -> Result<(), RuntimeError> {
        let who = |a: &Option<User>| match a {
            Some((q, Some(u))) => format!("{u} ({q})"),
            Some((q, None)) => names
                .get(q.trim_start_matches("bereal:"))
                .map(|n| format!("{n} ({q})"))
                .unwrap_or(q.clone()),
            None => "an unnamed user".to_string(),
        };
        for p in posts {
            let author = who(&p.author);
            let caption = s(p.meta, "caption");
            let late = p.post["isLate"].as_bool().unwrap_or(false);
            let kind = match p.post["postType"].as_str() {
                Some(t) if t.eq_ignore_ascii_case("bonus") => {
                    format!("{} bonus", if late { "late" } else { "onTime" })
                }
                Some(t) => t.to_string(),
                None => format!(
                    "{}{}",
                    if late { "late" } else { "onTime" },
                    if p.post["isMain"] == false {
                        " bonus"
                    } else {
                        ""
                    }
                ),
            };
            let mut d = Draft::new(
                "social",
                format!(
                    "BeReal post by {author}{}",
                    caption
                        .as_ref()
                        .map(|(c, _)| format!(": {c}"))
                        .unwrap_or_default()
                ),
            );
            d.fact(FactType::Path, Some(self.path), self.find);
            if let Some((q, _)) = p.author.as_ref().filter(|_| p.author_in_entry) {
                d.fact(FactType::Account, Some(q), self.inv);
            }
            d.fact(
                FactType::Text,
                caption.as_ref().map(|(_, c)| c.as_str()),
                self.inv,
            );
            let location = &p.meta["location"];
            let (lat, lon) = (s(location, "latitude"), s(location, "longitude"));
            d.fact(
                FactType::Text,
                lat.as_ref().map(|(_, c)| c.as_str()),
                self.inv,
            );
            d.fact(
                FactType::Text,
                lon.as_ref().map(|(_, c)| c.as_str()),
                self.inv,
            );
            let mut media = Vec::new();
            for k in [
                "primaryMedia",
                "secondaryMedia",
                "primary",
                "secondary",
                "thumbnail",
            ] {
                if let Some((url, t)) = medium(&p.data[k]) {
                    d.fact(FactType::Url, Some(&in_json(&url)), self.inv);
                    media.push(format!(
                        "{k} {url}{}",
                        t.map(|t| format!(" ({t})")).unwrap_or_default()
                    ));
                }
            }
            let tags: Vec<String> = p.post["tags"]
                .as_array()
                .or(p.meta["tags"].as_array())
                .into_iter()
                .flatten()
                .map(|t| who(&user_of(t)))
                .collect();
            let taken = cited(p.data, "takenAt");
            d.time(
                taken.as_deref(),
                time_encoding(taken.as_deref()),
                "BeReal photo taken",
                self.inv,
            );
            let moment = cited(p.post, "momentAt");
            d.time(
                moment.as_deref(),
                time_encoding(moment.as_deref()),
                "BeReal moment (the day's notification)",
                self.inv,
            );
            d.interpretation = format!(
                "{} at {}: a BeReal post ({kind}) by {author}{}, post id {}, moment {}{}{}, retakes {}, late by {} seconds{}{}; times are Core Data seconds.",
                self.path,
                p.at,
                if p.author_in_entry {
                    ""
                } else {
                    " (the account's memories: its own post, the account named by the preferences)"
                },
                s(p.post, "id")
                    .map(|(v, _)| v)
                    .unwrap_or_else(|| "?".into()),
                s(p.post, "momentID")
                    .map(|(v, _)| v)
                    .unwrap_or_else(|| "?".into()),
                match (&lat, &lon) {
                    (Some((la, _)), Some((lo, _))) =>
                        format!(", taken at latitude/longitude {la}, {lo}"),
                    _ => String::new(),
                },
                caption
                    .as_ref()
                    .map(|(c, _)| format!(", caption {c}"))
                    .unwrap_or_default(),
                p.data["retakeCounter"],
                p.post["lateInSeconds"]
                    .as_i64()
                    .or(p.data["lateInSeconds"].as_i64())
                    .unwrap_or(0),
                if media.is_empty() {
                    String::new()
                } else {
                    format!("; {}", media.join(", "))
                },
                if tags.is_empty() {
                    String::new()
                } else {
                    format!("; tagged {}", tags.join(", "))
                },
            );
            self.run.record(d)?;
            for (i, c) in p.comments.as_array().into_iter().flatten().enumerate() {
                self.reaction(p, &author, Reaction::Comment, i, c, &who)?;
            }
            for (i, r) in p.realmojis.as_array().into_iter().flatten().enumerate() {
                self.reaction(p, &author, Reaction::RealMoji, i, r, &who)?;
            }
            if let Some((q, u)) = p.author.as_ref().filter(|_| p.author_in_entry) {
                self.observe_user(&json!({"id.qualified": q, "username": u}), "who posted")?;
            }
        }
        Ok(())
    }

    /// A comment or RealMoji on post `p` (by `author`): one `social`, its writer observed.
    fn reaction(
        &self,
        p: &Post<'_>,
        author: &str,
        kind: Reaction,
        i: usize,
        v: &Value,
        who: &dyn Fn(&Option<User>) -> String,
    ) -> Result<(), RuntimeError> {
        let by = user_of(v);
        // a comment's text, a RealMoji's emoji
        let (text_key, time_key, list, what, done, title) = match kind {
            Reaction::Comment => (
                "text",
                "creationDate",
                "comment",
                "a comment",
                "BeReal comment posted",
                "comment",
            ),
            Reaction::RealMoji => (
                "emoji",
                "date",
                "realMojis",
                "a RealMoji (a selfie reaction)",
                "BeReal RealMoji posted",
                "RealMoji",
            ),
        };
        let text = s(v, text_key);
        let outgoing = by.is_some() && by.as_ref().map(|b| &b.0) == p.author.as_ref().map(|a| &a.0);
        let mut d = Draft::new(
            "social",
            match kind {
                Reaction::Comment => format!(
                    "BeReal comment by {} on {author}'s post{}",
                    who(&by),
                    text.as_ref()
                        .map(|(t, _)| format!(": {t}"))
                        .unwrap_or_default()
                ),
                Reaction::RealMoji => format!(
                    "BeReal RealMoji {}by {} on {author}'s post",
                    text.as_ref()
                        .map(|(e, _)| format!("{e} "))
                        .unwrap_or_default(),
                    who(&by)
                ),
            },
        );
        d.fact(FactType::Path, Some(self.path), self.find);
        if let Some((q, _)) = &by {
            d.fact(FactType::Account, Some(q), self.inv);
        }
        d.fact(
            FactType::Text,
            text.as_ref().map(|(_, t)| t.as_str()),
            self.inv,
        );
        d.fact(FactType::Url, cited(v, "uri").as_deref(), self.inv);
        let at = s(v, time_key).map(|(_, c)| c);
        d.time(at.as_deref(), time_encoding(at.as_deref()), done, self.inv);
        d.interpretation = format!(
            "{} at {}[{list}][{i}]: {what} by {} on the post by {author} ({}), {title} id {}.",
            self.path,
            p.at,
            who(&by),
            if outgoing {
                "its author's own: outgoing, as iLEAPP reads it"
            } else {
                "incoming"
            },
            shown(v, "id"),
        );
        self.run.record(d)?;
        if let Some((q, u)) = &by {
            self.observe_user(
                &json!({"id.qualified": q, "username": u}),
                match kind {
                    Reaction::Comment => "who commented on a post",
                    Reaction::RealMoji => "who reacted to a post",
                },
            )?;
        }
        Ok(())
    }

    /// The pinned memories of a `…pinnedMemories-key` entry: the account's (an array) or, by
    /// author, other users' (an object of arrays); one `social` each.
    fn pinned(&self, object: &Value) -> Result<(), RuntimeError> {
        let mut items: Vec<(String, &Value)> = Vec::new();
        match object {
            Value::Array(a) => items.extend(
                a.iter()
                    .enumerate()
                    .map(|(i, v)| (format!("[object][{i}]"), v)),
            ),
            Value::Object(by_author) => {
                for (author, list) in by_author {
                    for (i, v) in list.as_array().into_iter().flatten().enumerate() {
                        items.push((format!("[object][{author}][{i}]"), v));
                    }
                }
            }
            _ => {}
        }
        for (at, m) in items {
            let author = s(m, "analyticsAuthorID");
            let mut d = Draft::new(
                "social",
                format!(
                    "BeReal pinned memory of {}",
                    author
                        .as_ref()
                        .map(|(a, _)| a.as_str())
                        .unwrap_or("the account")
                ),
            );
            d.fact(FactType::Path, Some(self.path), self.find);
            d.fact(
                FactType::Identifier,
                author.as_ref().map(|(_, c)| c.as_str()),
                self.inv,
            );
            let mut media = Vec::new();
            for k in ["primary", "secondary"] {
                if let Some((url, t)) = medium(&m[k]) {
                    d.fact(FactType::Url, Some(&in_json(&url)), self.inv);
                    media.push(format!(
                        "{k} {url}{}",
                        t.map(|t| format!(" ({t})")).unwrap_or_default()
                    ));
                }
            }
            for (k, what) in [
                ("takenAt", "BeReal pinned photo taken"),
                ("momentDay", "BeReal moment day of a pinned memory"),
            ] {
                let v = s(m, k).map(|(_, c)| c);
                d.time(v.as_deref(), time_encoding(v.as_deref()), what, self.inv);
            }
            d.interpretation = format!(
                "{} at {at}: a pinned memory (post type {}, author {}, moment {}, pin id {}){}; times are Core Data seconds.",
                self.path,
                shown(m, "analyticsPostType"),
                author.as_ref().map(|(a, _)| a.as_str()).unwrap_or("?"),
                shown(m, "analyticsMomentID"),
                shown(m, "id"),
                if media.is_empty() {
                    String::new()
                } else {
                    format!("; {}", media.join(", "))
                },
            );
            self.run.record(d)?;
        }
        Ok(())
    }
}
