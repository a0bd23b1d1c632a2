//! Bluesky on Android (`xyz.blueskyweb.app`, a React Native app), the fields of ALEAPP's
//! `blueskymessages` (messages, actors), `blueskyposts` and `blueskysearches`, from the two
//! places the app keeps them, found by listing its folder:
//!
//! - `databases/RKStorage` (React Native's AsyncStorage, table `catalystLocalStorage`), read
//!   with `json_each` / `json_extract` in the query: `BSKY_STORAGE`, the app's persisted state —
//!   one `accounts` phenomenon per signed-in account (DID, handle, e-mail, e-mail confirmed,
//!   sign-in code by e-mail, service, PDS, active, status, sign-up queued, whether it is the
//!   current one; its session tokens are never selected) and one `apps` phenomenon of its
//!   settings (languages, muted threads, hidden posts, last home feed, PDS history, copied
//!   invites); `searchHistory`: one `web` phenomenon per search.
//! - `cache/http-cache/` (OkHttp's cache: `<key>.0` holds the request's URL and the response's
//!   headers, `<key>.1` its body): each cached answer of the app's API (`/xrpc/` in the URL)
//!   is read by `read_json` — every profile it holds (any object with a DID and a handle:
//!   profiles, search results, post authors, followers, conversation members; one `contacts`
//!   phenomenon per DID, the fullest copy), every conversation (`contacts`: members, unread,
//!   muted, status, last message), every direct message (`messages`: sent, text, sender with the
//!   handle and name its profile gives, conversation — from the message's own `convoId`, its
//!   conversation's entry, or the `convoId` of the URL —, embedded record, links, reactions;
//!   a deleted one said), every post (`social`: created, author, text, languages, counts,
//!   reply parent, embedded record or link, the API method that returned it). An answer
//!   the cache keeps compressed is noted, not read.
//!
//! Identities: an account is `bluesky:<DID>` with `bluesky-handle:<handle>` (qualified by
//! `read_json`'s `qualify`, or in the query); the signed-in accounts, with their e-mail, are
//! the device's user's (`owner`), and fix each message's direction. Wallet addresses in a
//! message are claims by direction (the other party of a two-member conversation named).

use std::collections::{BTreeMap, BTreeSet};

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{EntityKind, FactType, IdType};
use masf_tools::Invoked;
use serde_json::{Value, json};

use super::Located;
use crate::calls::Tables;
use crate::calls::note_pages_cap;
use crate::drafts::{Draft, RowPhenomena, date_text, record_draft, record_rows};
use crate::identity::{args_on, artefact_name, observe, observe_columns, pages_on, schema_on};
use crate::outputs::json_scalar;

/// The app's data folder name.
pub const PACKAGE: &str = "xyz.blueskyweb.app";

/// Cache entries read per app folder; the rest are noted.
const ENTRIES_MAX: usize = 5000;

/// Lists the app's folder once, reads its storage, then its cached API answers.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(listing) = crate::calls::call_or_note(
        ctx,
        &artefact_name(&l.tree, &l.path),
        "find_files",
        args_on(
            &l.tree,
            json!({"path": l.path, "name_globs": ["RKStorage", "*.0", "*.1"]}),
        ),
    )?
    else {
        return Ok(());
    };
    let paths = crate::outputs::found_paths(&listing.output.text);
    let in_dir = |dir: &str| -> Vec<String> {
        let dir = format!("{}/{dir}", l.path);
        paths
            .iter()
            .filter(|p| p.rsplit_once('/').map(|(d, _)| d) == Some(dir.as_str()))
            .cloned()
            .collect()
    };
    let mut own = BTreeSet::new();
    for path in in_dir("databases")
        .into_iter()
        .filter(|p| p.ends_with("/RKStorage"))
    {
        let db = Located {
            tree: l.tree.clone(),
            path,
            found: listing.clone(),
        };
        ctx.artefact(&artefact_name(&db.tree, &db.path), || {
            storage(ctx, &db, &mut own)
        })?;
    }
    let cache = in_dir("cache/http-cache");
    if !cache.is_empty() {
        let dir = format!("{}/cache/http-cache", l.path);
        // the listing names each entry (the paths of the phenomena cite it)
        let app = Located {
            found: listing.clone(),
            ..l.clone()
        };
        ctx.artefact(&artefact_name(&l.tree, &dir), || {
            http_cache(ctx, &app, &cache, &own)
        })?;
    }
    Ok(())
}

/// `RKStorage`: the accounts and settings of `BSKY_STORAGE`, the searches of `searchHistory`.
fn storage(
    ctx: &AgentCtx<'_>,
    l: &Located,
    own: &mut BTreeSet<String>,
) -> Result<(), RuntimeError> {
    let Some(schema) = schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    if Tables::one(
        ctx,
        &name,
        "Bluesky's RKStorage",
        &schema,
        "catalystLocalStorage",
        &["key", "value"],
    )?
    .is_none()
    {
        return Ok(());
    }
    let file = l.name().to_string();
    // the accounts: each member by name, never the session tokens beside them
    let member = |m: &str, alias: &str| format!("json_extract(a.value, '$.{m}') AS {alias}");
    let sql = format!(
        "SELECT a.key AS n, {}, 'bluesky:' || json_extract(a.value, '$.did') AS qualified, 'bluesky-handle:' || json_extract(a.value, '$.handle') AS qualified_handle, CASE WHEN json_extract(a.value, '$.did') = json_extract(k.value, '$.session.currentAccount.did') THEN 1 ELSE 0 END AS current FROM catalystLocalStorage k, json_each(k.value, '$.session.accounts') a WHERE k.key = 'BSKY_STORAGE' AND json_valid(k.value) ORDER BY a.key",
        [
            ("did", "did"),
            ("handle", "handle"),
            ("email", "email"),
            ("emailConfirmed", "email_confirmed"),
            ("emailAuthFactor", "email_auth"),
            ("service", "service"),
            ("pdsUrl", "pds"),
            ("active", "active"),
            ("status", "status"),
            ("signupQueued", "signup_queued"),
        ]
        .iter()
        .map(|(m, a)| member(m, a))
        .collect::<Vec<_>>()
        .join(", ")
    );
    let fields = [
        ("handle", FactType::Account, "handle"),
        ("did", FactType::Identifier, "DID"),
        ("qualified", FactType::Account, "account"),
        ("email", FactType::Email, "e-mail"),
        ("email_confirmed", FactType::Count, "e-mail confirmed"),
        ("email_auth", FactType::Count, "sign-in code by e-mail"),
        ("service", FactType::Url, "service"),
        ("pds", FactType::Url, "PDS"),
        ("active", FactType::Count, "active"),
        ("status", FactType::Text, "status"),
        ("signup_queued", FactType::Count, "sign-up queued"),
        ("current", FactType::Count, "current account"),
    ];
    let title = |t: &crate::outputs::Table, row: &[Option<String>]| {
        format!(
            "Bluesky account @{} signed in",
            t.get(row, "handle").unwrap_or("?")
        )
    };
    if let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? {
        note_pages_cap(ctx, &name, &pages, "Bluesky accounts")?;
        record_rows(
            ctx,
            &l.path,
            &l.found,
            &pages,
            &RowPhenomena {
                table: "catalystLocalStorage BSKY_STORAGE session.accounts",
                category: "accounts",
                what: "a Bluesky account signed in to the app (its session tokens are not copied)",
                title: &title,
                fields: &fields,
                times: &[],
            },
            &mut |inv, t, row| {
                if let Some(d) = t.get(row, "did") {
                    own.insert(d.to_string());
                }
                observe_columns(
                    ctx,
                    "owner",
                    "device owner",
                    t,
                    row,
                    inv,
                    &[
                        ("qualified", IdType::AccountId, "The Bluesky account (DID)"),
                        ("qualified_handle", IdType::AccountId, "The Bluesky handle"),
                        ("email", IdType::Email, "The e-mail address"),
                    ],
                    &|what| {
                        format!(
                            "{what} of the Bluesky account signed in to the app on the device (BSKY_STORAGE of {file})."
                        )
                    },
                )
            },
        )?;
    }
    // the settings the examiner may ask about
    let setting = |p: &str, alias: &str| format!("json_extract(k.value, '$.{p}') AS {alias}");
    let sql = format!(
        "SELECT {} FROM catalystLocalStorage k WHERE k.key = 'BSKY_STORAGE' AND json_valid(k.value)",
        [
            ("languagePrefs.primaryLanguage", "primary_language"),
            ("languagePrefs.appLanguage", "app_language"),
            ("languagePrefs.postLanguage", "post_language"),
            ("languagePrefs.contentLanguages", "content_languages"),
            ("mutedThreads", "muted_threads"),
            ("hiddenPosts", "hidden_posts"),
            ("lastSelectedHomeFeed", "home_feed"),
            ("pdsAddressHistory", "pds_history"),
            ("invites.copiedInvites", "copied_invites"),
            ("colorMode", "color_mode"),
        ]
        .iter()
        .map(|(p, a)| setting(p, a))
        .collect::<Vec<_>>()
        .join(", ")
    );
    if let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? {
        record_rows(
            ctx,
            &l.path,
            &l.found,
            &pages,
            &RowPhenomena {
                table: "catalystLocalStorage BSKY_STORAGE",
                category: "apps",
                what: "the Bluesky app's settings",
                title: &|_, _| "Bluesky settings".to_string(),
                fields: &[
                    ("primary_language", FactType::Text, "primary language"),
                    ("app_language", FactType::Text, "app language"),
                    ("post_language", FactType::Text, "post language"),
                    ("content_languages", FactType::Text, "content languages"),
                    ("muted_threads", FactType::Text, "muted threads"),
                    ("hidden_posts", FactType::Text, "hidden posts"),
                    ("home_feed", FactType::Text, "last home feed"),
                    ("pds_history", FactType::Text, "PDS addresses used"),
                    ("copied_invites", FactType::Text, "invite codes copied"),
                    ("color_mode", FactType::Text, "colour mode"),
                ],
                times: &[],
            },
            &mut |_, _, _| Ok(()),
        )?;
    }
    // the searches, newest first as the app keeps them
    let sql = "SELECT j.key AS n, j.value AS term FROM catalystLocalStorage k, json_each(k.value) j WHERE k.key = 'searchHistory' AND json_valid(k.value) ORDER BY j.key";
    if let Some(pages) = pages_on(ctx, &l.tree, &l.path, sql)? {
        note_pages_cap(ctx, &name, &pages, "Bluesky searches")?;
        record_rows(
            ctx,
            &l.path,
            &l.found,
            &pages,
            &RowPhenomena {
                table: "catalystLocalStorage searchHistory",
                category: "web",
                what: "a search made in the Bluesky app (item n of its history, newest first)",
                title: &|t, row| format!("Bluesky search {}", t.get(row, "term").unwrap_or("?")),
                fields: &[
                    ("term", FactType::Text, "search"),
                    ("n", FactType::Count, "n"),
                ],
                times: &[],
            },
            &mut |_, _, _| Ok(()),
        )?;
    }
    Ok(())
}

/// One cached API answer: the call that read its URL and headers, the call that read its body.
struct Answer {
    meta: Invoked,
    url: String,
    body: Invoked,
    body_path: String,
}

impl Answer {
    /// The API method (`chat.bsky.convo.getMessages`).
    fn method(&self) -> &str {
        let after = self.url.split_once("/xrpc/").map_or("", |(_, m)| m);
        after.split(['?', '#']).next().unwrap_or(after)
    }

    /// A query parameter of the URL, as written.
    fn param(&self, key: &str) -> Option<&str> {
        let (_, q) = self.url.split_once('?')?;
        q.split('&')
            .find_map(|kv| kv.strip_prefix(key)?.strip_prefix('='))
            .filter(|v| !v.is_empty())
    }
}

/// What the answers hold, each kept once: a profile per DID (the one with the most members),
/// a conversation per id (likewise), a message per id and a post per URI (the first seen).
#[derive(Default)]
struct Found<'a> {
    actors: BTreeMap<String, (usize, &'a Value)>,
    convos: BTreeMap<String, (usize, &'a Value)>,
    messages: BTreeMap<String, (usize, &'a Value, Option<String>)>,
    posts: BTreeMap<String, (usize, &'a Value)>,
}

fn str_at<'a>(v: &'a Value, path: &[&str]) -> Option<&'a str> {
    path.iter()
        .try_fold(v, |node, k| node.get(k))
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
}

impl<'a> Found<'a> {
    /// Walks answer `i`'s document `v`; `convo` is the conversation an enclosing object names.
    fn walk(&mut self, i: usize, v: &'a Value, convo: Option<&str>) {
        match v {
            Value::Object(o) => {
                let convo = str_at(v, &["convoId"]).or(convo);
                let fuller = |map: &BTreeMap<String, (usize, &Value)>, key: &str| {
                    map.get(key)
                        .is_none_or(|(_, old)| old.as_object().map_or(0, |m| m.len()) < o.len())
                };
                if let (Some(did), Some(_)) = (str_at(v, &["did"]), str_at(v, &["handle"]))
                    && did.starts_with("did:")
                    && fuller(&self.actors, did)
                {
                    self.actors.insert(did.to_string(), (i, v));
                }
                if let (Some(id), Some(Value::Array(_))) = (str_at(v, &["id"]), o.get("members")) {
                    if fuller(&self.convos, id) {
                        self.convos.insert(id.to_string(), (i, v));
                    }
                    // its last message is one of its messages
                    if let Some(last) = o.get("lastMessage") {
                        self.message(i, last, Some(id));
                    }
                } else if str_at(v, &["sentAt"]).is_some()
                    && str_at(v, &["sender", "did"]).is_some()
                {
                    self.message(i, v, convo);
                }
                if let (Some(uri), Some("app.bsky.feed.post"), Some(_)) = (
                    str_at(v, &["uri"]),
                    str_at(v, &["record", "$type"]),
                    o.get("author"),
                ) && uri.starts_with("at://")
                {
                    self.posts.entry(uri.to_string()).or_insert((i, v));
                }
                for (k, x) in o {
                    if k != "lastMessage" {
                        self.walk(i, x, convo);
                    }
                }
            }
            Value::Array(a) => {
                for x in a {
                    self.walk(i, x, convo);
                }
            }
            _ => {}
        }
    }

    fn message(&mut self, i: usize, v: &'a Value, convo: Option<&str>) {
        if let Some(id) = str_at(v, &["id"]) {
            self.messages
                .entry(id.to_string())
                .or_insert((i, v, convo.map(str::to_string)));
        }
    }
}

/// The response headers' value of `name` (lower case) in an OkHttp entry's metadata.
fn header<'t>(meta: &'t str, name: &str) -> Option<&'t str> {
    meta.lines().find_map(|line| {
        let (k, v) = line.split_once(':')?;
        k.trim().eq_ignore_ascii_case(name).then(|| v.trim())
    })
}

/// `cache/http-cache/` (`files`, listed by `l.found`): each entry whose URL is one of the app's
/// API calls, its body read.
fn http_cache(
    ctx: &AgentCtx<'_>,
    l: &Located,
    files: &[String],
    own: &BTreeSet<String>,
) -> Result<(), RuntimeError> {
    let bodies: BTreeSet<&str> = files.iter().filter_map(|p| p.strip_suffix(".1")).collect();
    let metas: Vec<&String> = files.iter().filter(|p| p.ends_with(".0")).collect();
    let dir = artefact_name(&l.tree, &format!("{}/cache/http-cache", l.path));
    if metas.len() > ENTRIES_MAX {
        ctx.unparsed(
            &dir,
            &format!(
                "Bluesky's HTTP cache holds {} entries; those past the first {ENTRIES_MAX} were not read",
                metas.len()
            ),
            Some(&l.found.record.invocation_id),
        )?;
    }
    let mut answers = Vec::new();
    for meta_path in metas.into_iter().take(ENTRIES_MAX) {
        let Some(meta) = crate::calls::call_or_note(
            ctx,
            &artefact_name(&l.tree, meta_path),
            "read_text",
            args_on(&l.tree, json!({"path": meta_path, "length": 16384})),
        )?
        else {
            continue;
        };
        let url = meta
            .output
            .text
            .lines()
            .next()
            .unwrap_or("")
            .trim()
            .to_string();
        if !url.contains("/xrpc/") {
            // an image, a web page: not an answer of the app's API
            continue;
        }
        let stem = meta_path.trim_end_matches(".0");
        let body_path = format!("{stem}.1");
        let entry = artefact_name(&l.tree, &body_path);
        if !bodies.contains(stem) {
            ctx.unparsed(
                &entry,
                &format!("could not parse Bluesky's cached answer to {url} because its body ({body_path}) is not in the cache"),
                Some(&meta.record.invocation_id),
            )?;
            continue;
        }
        if let Some(enc) = header(&meta.output.text, "content-encoding")
            .filter(|e| !e.eq_ignore_ascii_case("identity"))
        {
            ctx.unparsed(
                &entry,
                &format!("could not parse Bluesky's cached answer to {url} because the cache keeps it compressed (content-encoding {enc}), which is not decompressed"),
                Some(&meta.record.invocation_id),
            )?;
            continue;
        }
        let Some(body) = crate::calls::call_or_note(
            ctx,
            &entry,
            "read_json",
            args_on(
                &l.tree,
                json!({"path": body_path, "qualify": {"did": "bluesky", "handle": "bluesky-handle"}}),
            ),
        )?
        else {
            continue;
        };
        answers.push(Answer {
            meta,
            url,
            body,
            body_path,
        });
    }
    let docs: Vec<Value> = answers
        .iter()
        .map(|a| crate::outputs::json_document(&a.body.output.text).unwrap_or(Value::Null))
        .collect();
    let mut found = Found::default();
    for (i, doc) in docs.iter().enumerate() {
        let convo = answers[i].param("convoId");
        found.walk(i, doc, convo);
    }
    for (did, (i, v)) in &found.actors {
        actor(ctx, &answers[*i], l, did, v, own)?;
    }
    for (id, (i, v)) in &found.convos {
        conversation(ctx, &answers[*i], l, id, v, own)?;
    }
    for (id, (i, v, convo)) in &found.messages {
        message(
            ctx,
            &answers[*i],
            l,
            id,
            v,
            convo.as_deref(),
            &found,
            &answers,
            own,
        )?;
    }
    for (uri, (i, v)) in &found.posts {
        post(ctx, &answers[*i], l, uri, v, own)?;
    }
    Ok(())
}

/// The facts of `spec` (`(path, type, label)`) present in `v`, cited from `inv`; returns
/// `"label value"` of each.
fn facts(
    d: &mut Draft,
    v: &Value,
    inv: &Invoked,
    spec: &[(&[&str], FactType, &str)],
) -> Vec<String> {
    let mut said = Vec::new();
    for (path, ft, label) in spec {
        let node = path.iter().try_fold(v, |n, k| n.get(k));
        if let Some(s) = json_scalar(node) {
            d.fact(*ft, Some(&s), inv);
            said.push(format!("{label} {s}"));
        }
    }
    said
}

fn file_of(a: &Answer) -> &str {
    a.body_path.rsplit('/').next().unwrap_or(&a.body_path)
}

/// Where an answer came from, for interpretations.
fn whence(a: &Answer) -> String {
    format!(
        "cached answer {} of the app's HTTP cache to {}",
        file_of(a),
        a.method()
    )
}

/// A profile: one `contacts` phenomenon; its DID and handle observed (the device's user's when
/// it is a signed-in account).
fn actor(
    ctx: &AgentCtx<'_>,
    a: &Answer,
    l: &Located,
    did: &str,
    v: &Value,
    own: &BTreeSet<String>,
) -> Result<(), RuntimeError> {
    let handle = str_at(v, &["handle"]).unwrap_or(did);
    let mut d = Draft::new("contacts", format!("Bluesky profile @{handle}"));
    d.fact(FactType::Path, Some(&a.body_path), &l.found);
    let mut said = facts(
        &mut d,
        v,
        &a.body,
        &[
            (&["handle"], FactType::Account, "handle"),
            (&["did"], FactType::Identifier, "DID"),
            (&["did.qualified"], FactType::Account, "account"),
            (&["displayName"], FactType::Name, "display name"),
            (&["description"], FactType::Text, "description"),
            (&["avatar"], FactType::Url, "avatar"),
            (&["followersCount"], FactType::Count, "followers"),
            (&["followsCount"], FactType::Count, "follows"),
            (&["postsCount"], FactType::Count, "posts"),
        ],
    );
    for (key, what) in [("viewer", "viewer"), ("labels", "label")] {
        let mut out = Vec::new();
        if let Some(x) = v.get(key) {
            crate::outputs::json_leaves(x, "", &mut out);
        }
        for (k, s) in out {
            d.fact(FactType::Text, Some(&s), &a.body);
            said.push(format!("{what} {k} {s}"));
        }
    }
    for (key, what) in [
        ("createdAt", "Bluesky account created"),
        ("indexedAt", "Bluesky profile indexed"),
    ] {
        let t = str_at(v, &[key]);
        d.time(t, date_text(t), what, &a.body);
    }
    let mine = own.contains(did);
    d.interpretation = format!(
        "a Bluesky profile in the {}{}: {}.",
        whence(a),
        if mine {
            " (the signed-in account's own)"
        } else {
            ""
        },
        said.join(", ")
    );
    record_draft(ctx, d)?;
    let (context, label) = if mine {
        ("owner".to_string(), "device owner".to_string())
    } else {
        (format!("bluesky:{did}"), format!("@{handle}"))
    };
    for (key, id_type, what) in [
        (
            "did.qualified",
            IdType::AccountId,
            "The Bluesky account (DID)",
        ),
        ("handle.qualified", IdType::AccountId, "The Bluesky handle"),
        ("displayName", IdType::DisplayName, "The display name"),
    ] {
        if let Some(s) = json_scalar(v.get(key)) {
            observe(
                ctx,
                &context,
                EntityKind::Person,
                &label,
                id_type,
                &s,
                &a.body,
                format!("{what} of the Bluesky profile @{handle} ({}).", whence(a)),
            )?;
        }
    }
    Ok(())
}

/// The handles of a conversation's members but the device's user's.
fn others<'v>(v: &'v Value, own: &BTreeSet<String>) -> Vec<(&'v str, &'v str)> {
    v.get("members")
        .and_then(Value::as_array)
        .map(|m| {
            m.iter()
                .filter_map(|x| Some((str_at(x, &["did"])?, str_at(x, &["handle"])?)))
                .filter(|(did, _)| !own.contains(*did))
                .collect()
        })
        .unwrap_or_default()
}

/// A conversation: one `contacts` phenomenon with its members and last message.
fn conversation(
    ctx: &AgentCtx<'_>,
    a: &Answer,
    l: &Located,
    id: &str,
    v: &Value,
    own: &BTreeSet<String>,
) -> Result<(), RuntimeError> {
    let with: Vec<String> = others(v, own)
        .iter()
        .map(|(_, h)| format!("@{h}"))
        .collect();
    let mut d = Draft::new(
        "contacts",
        format!("Bluesky conversation with {}", with.join(", ")),
    );
    d.fact(FactType::Path, Some(&a.body_path), &l.found);
    let mut said = facts(
        &mut d,
        v,
        &a.body,
        &[
            (&["id"], FactType::Identifier, "conversation id"),
            (&["unreadCount"], FactType::Count, "unread"),
            (&["muted"], FactType::Count, "muted"),
            (&["status"], FactType::Text, "status"),
            (&["lastMessage", "text"], FactType::Text, "last message"),
        ],
    );
    for m in v
        .get("members")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        said.extend(facts(
            &mut d,
            m,
            &a.body,
            &[
                (&["handle"], FactType::Account, "member"),
                (&["did"], FactType::Identifier, "member DID"),
                (&["displayName"], FactType::Name, "member name"),
            ],
        ));
    }
    let t = str_at(v, &["lastMessage", "sentAt"]);
    d.time(
        t,
        date_text(t),
        "Bluesky conversation's last message",
        &a.body,
    );
    d.interpretation = format!(
        "Bluesky conversation {id} in the {}: {}.",
        whence(a),
        said.join(", ")
    );
    record_draft(ctx, d)
}

/// A direct message: one `messages` phenomenon, its direction by the signed-in accounts.
#[allow(clippy::too_many_arguments)]
fn message(
    ctx: &AgentCtx<'_>,
    a: &Answer,
    l: &Located,
    id: &str,
    v: &Value,
    convo: Option<&str>,
    found: &Found<'_>,
    answers: &[Answer],
    own: &BTreeSet<String>,
) -> Result<(), RuntimeError> {
    let sender = str_at(v, &["sender", "did"]).unwrap_or("?");
    let profile = found.actors.get(sender);
    let handle = profile.and_then(|(_, p)| str_at(p, &["handle"]));
    let sent = own.contains(sender);
    let deleted = str_at(v, &["$type"]).is_some_and(|t| t.ends_with("#deletedMessageView"));
    let title = match (own.is_empty(), sent) {
        (false, true) => "Bluesky message sent".to_string(),
        _ => format!("Bluesky message from @{}", handle.unwrap_or(sender)),
    };
    let mut d = Draft::new("messages", title);
    d.fact(FactType::Path, Some(&a.body_path), &l.found);
    let mut said = facts(
        &mut d,
        v,
        &a.body,
        &[
            (&["text"], FactType::Text, "text"),
            (&["sender", "did"], FactType::Identifier, "sender DID"),
            (&["sender", "did.qualified"], FactType::Account, "sender"),
            (&["id"], FactType::Identifier, "message id"),
            (&["rev"], FactType::Identifier, "revision"),
            (&["$type"], FactType::Text, "type"),
            (
                &["embed", "record", "uri"],
                FactType::Url,
                "embedded record",
            ),
            (&["embed", "uri"], FactType::Url, "embedded record"),
        ],
    );
    // the sender's handle and name, from the profile the cache holds
    if let Some((pi, p)) = profile {
        said.extend(facts(
            &mut d,
            p,
            &answers[*pi].body,
            &[
                (&["handle"], FactType::Account, "sender handle"),
                (&["displayName"], FactType::Name, "sender name"),
            ],
        ));
    }
    // the conversation: the message's own convoId, its entry's id, or the URL's
    if let Some(c) = convo {
        let (c, cite) = if a.param("convoId") == Some(c) && str_at(v, &["convoId"]).is_none() {
            (c.to_string(), &a.meta)
        } else {
            (crate::outputs::in_json(c), &a.body)
        };
        d.fact(FactType::Identifier, Some(&c), cite);
        said.push(format!("conversation {c}"));
    }
    let mut out = Vec::new();
    for f in v
        .get("facets")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        for feat in f
            .get("features")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            for key in ["uri", "did", "tag"] {
                if let Some(s) = json_scalar(feat.get(key)) {
                    out.push((format!("link {key}"), s));
                }
            }
        }
    }
    for r in v
        .get("reactions")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        for (key, what) in [("value", "reaction"), ("sender", "reaction by")] {
            let mut leaves = Vec::new();
            if let Some(x) = r.get(key) {
                crate::outputs::json_leaves(x, "", &mut leaves);
            }
            out.extend(leaves.into_iter().map(|(_, s)| (what.to_string(), s)));
        }
    }
    for (what, s) in out {
        d.fact(FactType::Text, Some(&s), &a.body);
        said.push(format!("{what} {s}"));
    }
    let at = str_at(v, &["sentAt"]);
    if own.is_empty() {
        d.time(at, date_text(at), "Bluesky message", &a.body);
    } else {
        d.message_time(at, date_text(at), sent, &a.body);
    }
    d.interpretation = format!(
        "a Bluesky direct message{}{} in the {}: {}; the time is ISO 8601.",
        match (own.is_empty(), sent) {
            (true, _) => "",
            (false, true) => " sent by the device's user (its sender is the signed-in account)",
            (false, false) => " received by the device's user",
        },
        if deleted { " that was deleted" } else { "" },
        whence(a),
        said.join(", ")
    );
    record_draft(ctx, d)?;
    // the wallet addresses it holds: claims of its writer and reader
    if let Some(text) = str_at(v, &["text"])
        && !own.is_empty()
    {
        let other_of = convo
            .and_then(|c| found.convos.get(c))
            .map(|(_, cv)| others(cv, own))
            .unwrap_or_default();
        let other = match other_of.as_slice() {
            [(did, h)] => Some((format!("bluesky:{did}"), format!("@{h}"))),
            _ => None,
        };
        crate::identity::claims_by_direction(
            ctx,
            &a.body,
            text,
            &format!("Bluesky message {id} ({})", whence(a)),
            sent,
            other.as_ref().map(|(c, h)| (c.as_str(), h.as_str())),
        )?;
    }
    Ok(())
}

/// A post: one `social` phenomenon.
fn post(
    ctx: &AgentCtx<'_>,
    a: &Answer,
    l: &Located,
    uri: &str,
    v: &Value,
    own: &BTreeSet<String>,
) -> Result<(), RuntimeError> {
    let handle = str_at(v, &["author", "handle"]).unwrap_or("?");
    let mut d = Draft::new("social", format!("Bluesky post by @{handle}"));
    d.fact(FactType::Path, Some(&a.body_path), &l.found);
    let mut said = facts(
        &mut d,
        v,
        &a.body,
        &[
            (&["record", "text"], FactType::Text, "text"),
            (&["author", "handle"], FactType::Account, "author"),
            (&["author", "did"], FactType::Identifier, "author DID"),
            (&["author", "displayName"], FactType::Name, "author name"),
            (&["author", "avatar"], FactType::Url, "author avatar"),
            (&["record", "$type"], FactType::Text, "type"),
            (&["uri"], FactType::Url, "URI"),
            (&["cid"], FactType::Identifier, "CID"),
            (&["replyCount"], FactType::Count, "replies"),
            (&["repostCount"], FactType::Count, "reposts"),
            (&["likeCount"], FactType::Count, "likes"),
            (&["quoteCount"], FactType::Count, "quotes"),
            (
                &["record", "reply", "parent", "uri"],
                FactType::Url,
                "reply to",
            ),
            (
                &["record", "embed", "record", "uri"],
                FactType::Url,
                "embedded record",
            ),
            (
                &["record", "embed", "external", "uri"],
                FactType::Url,
                "link",
            ),
        ],
    );
    for lang in v
        .pointer("/record/langs")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        if let Some(s) = json_scalar(Some(lang)) {
            d.fact(FactType::Text, Some(&s), &a.body);
            said.push(format!("language {s}"));
        }
    }
    // the API method that returned it, as the URL names it
    let method = a.method().to_string();
    d.fact(FactType::Text, Some(&method), &a.meta);
    for (path, what) in [
        (&["record", "createdAt"][..], "Bluesky post created"),
        (&["author", "createdAt"], "Bluesky account created"),
    ] {
        let t = str_at(v, path);
        d.time(t, date_text(t), what, &a.body);
    }
    let mine = str_at(v, &["author", "did"]).is_some_and(|x| own.contains(x));
    d.interpretation = format!(
        "a Bluesky post{} {uri} in the {}: {}; times are ISO 8601.",
        if mine { " of the device's user" } else { "" },
        whence(a),
        said.join(", ")
    );
    record_draft(ctx, d)?;
    if mine && let Some(text) = str_at(v, &["record", "text"]) {
        crate::identity::claims_by_direction(
            ctx,
            &a.body,
            text,
            &format!("Bluesky post {uri} ({})", whence(a)),
            true,
            None,
        )?;
    }
    Ok(())
}
