//! MeWe on Android (`com.mewe`), the fields of ALEAPP's nine `mewe` artefacts:
//!
//! - the store `databases/app_database` (older builds) or `databases/app_v3.db` (newer; the
//!   empty `mewe_old` beside it holds nothing), each table read when present:
//!
//!   | table | phenomenon | fields |
//!   |---|---|---|
//!   | `CHAT_MESSAGE` (with `CHAT_THREAD`) | one `messages` per message | sent (Unix seconds), direction (`currentUserMessage`), the sender's name and user id, the thread's name, id, group id and chat type, text, attachment type and name, deleted |
//!   | `CHAT_THREAD_PARTICIPANT` | one `contacts` per participant | name, handle, status, owner, admin, fingerprint, the thread's name and chat type, thread and participant ids |
//!   | `POST` | one `messages` per post | created and edited (Unix seconds), author and handle, group name and id, text, posted by the device's user, comment, media and share counts, link URL and title, album, poll question and votes, event name and place, the feeds it was cached for, post id |
//!   | `COMMENT` (with `POST`) | one `messages` per comment | created, edited, author and handle, text, by the device's user, replies, photo, audio and its duration, link, document, the post's author, text and id, comment id |
//!   | `POST_MEDIA` (with `POST`) | one `media` per item | the post's time, author and group, type, MIME type, file name, image URL and size, video URL template and resolutions, post and item ids |
//!   | `POLL_OPTION` (with `POST`) | one `messages` per option | the post's time, author, group, question, closed, end, total votes; the option's text, votes, position, image URL; post id |
//!   | `EMOJI_POST`, `EMOJI_COMMENT`, `EMOJI_CHAT_MESSAGE` | one `messages` per reaction | the emoji, count, whether the device's user reacted, the target's id, author, text and time |
//!   | `GROUP_`, `PAGE`, `COMMUNITY` | one `contacts` per group, page, community | name, description, access, role, flags, followers, URL id, owner id, id, last opened or visited (Unix ms) |
//!
//! - `shared_prefs/SGSession.xml` (`read_xml`): one `accounts` phenomenon with every
//!   preference whose name holds no dot, as ALEAPP lists them; the user id is the suffix of its
//!   `user_info<id>` key.
//!
//! Identities: a message's sender is `mewe:<user id>` (computed in the query; the id iOS's
//! MeWe keeps) with its name; the one sender of the device's user's messages
//! (`currentUserMessage` 1) is `owner`; wallet addresses in a message are claims by direction.

use std::collections::{BTreeMap, BTreeSet};

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{FactType, IdType};

use super::Located;
use crate::calls::{column_or_null, note_pages_cap};
use crate::drafts::{
    Draft, Encoding, RowPhenomena, record_draft, record_rows, unix_millis, unix_seconds,
};
use crate::identity::{artefact_name, pages_on, schema_on};
use crate::outputs::Table;

/// Whether `l` is one of MeWe's stores.
pub fn is_store(l: &Located) -> bool {
    l.path.contains("/com.mewe/databases/") && matches!(l.name(), "app_database" | "app_v3.db")
}

/// Whether `l` is MeWe's session preferences.
pub fn is_session(l: &Located) -> bool {
    l.path.contains("/com.mewe/shared_prefs/") && l.name() == "SGSession.xml"
}

/// One table's reading: its rows' phenomena.
struct Read<'a> {
    table: &'a str,
    category: &'static str,
    /// what one row is ("a MeWe post")
    what: &'a str,
    sql: String,
    /// the row's title from its cells
    title: &'a dyn Fn(&Table, &[Option<String>]) -> String,
    fields: &'a [(&'a str, FactType, &'a str)],
    times: &'a [(&'a str, &'a str, Encoding)],
}

/// `alias.col AS name` of each `(col, name)` of `cols` present in `table` (else `NULL AS name`).
fn select(
    schema: &BTreeMap<String, BTreeSet<String>>,
    table: &str,
    alias: &str,
    cols: &[(&str, &str)],
) -> String {
    let empty = BTreeSet::new();
    let present = schema.get(table).unwrap_or(&empty);
    cols.iter()
        .map(|(c, name)| column_or_null(present, &format!("{alias}."), c, name))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A `LEFT JOIN` of `table` as `alias` on `on` when the table and the column `on` needs are
/// present; one that joins nothing when only the table is (its columns read NULL); none when the
/// table is absent ([`select`] then names none of its columns).
fn join(
    schema: &BTreeMap<String, BTreeSet<String>>,
    table: &str,
    alias: &str,
    key: &str,
    on: &str,
    needs: (&str, &str),
) -> String {
    let Some(cols) = schema.get(table).filter(|c| !c.is_empty()) else {
        return String::new();
    };
    if cols.contains(key) && schema.get(needs.0).is_some_and(|c| c.contains(needs.1)) {
        format!("LEFT JOIN {table} {alias} ON {on}")
    } else {
        format!("LEFT JOIN {table} {alias} ON 0")
    }
}

fn read(ctx: &AgentCtx<'_>, l: &Located, name: &str, r: Read<'_>) -> Result<(), RuntimeError> {
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, &r.sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, name, &pages, &format!("MeWe {}", r.table))?;
    record_rows(
        ctx,
        &l.path,
        &l.found,
        &pages,
        &RowPhenomena {
            table: r.table,
            category: r.category,
            what: r.what,
            title: r.title,
            fields: r.fields,
            times: r.times,
        },
        &mut |_, _, _| Ok(()),
    )
}

/// `Some(v)` of a cell, else `default`.
fn or<'a>(t: &'a Table, row: &'a [Option<String>], col: &str, default: &'a str) -> &'a str {
    t.get(row, col).unwrap_or(default)
}

/// One MeWe store.
pub fn store(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(schema) = schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    let has = |t: &str| schema.get(t).is_some_and(|c| !c.is_empty());
    let known = [
        "CHAT_MESSAGE",
        "CHAT_THREAD_PARTICIPANT",
        "POST",
        "COMMENT",
        "POST_MEDIA",
        "POLL_OPTION",
        "GROUP_",
        "PAGE",
        "COMMUNITY",
    ];
    if !known.iter().any(|t| has(t)) {
        ctx.unparsed(
            &name,
            &format!(
                "could not parse MeWe's {} because it has none of the tables {}",
                l.name(),
                known.join(", ")
            ),
            None,
        )?;
        return Ok(());
    }
    if has("CHAT_MESSAGE") {
        chat(ctx, l, &name, &schema)?;
    }
    let s = |table: &str, alias: &str, cols: &[(&str, &str)]| select(&schema, table, alias, cols);
    if has("CHAT_THREAD_PARTICIPANT") {
        read(
            ctx,
            l,
            &name,
            Read {
                table: "CHAT_THREAD_PARTICIPANT",
                category: "contacts",
                what: "a participant of a MeWe chat thread",
                sql: format!(
                    "SELECT {}, {} FROM CHAT_THREAD_PARTICIPANT p {} ORDER BY p.rowid",
                    s(
                        "CHAT_THREAD_PARTICIPANT",
                        "p",
                        &[
                            ("name", "name"),
                            ("handle", "handle"),
                            ("status", "status"),
                            ("isOwner", "is_owner"),
                            ("isAdmin", "is_admin"),
                            ("fingerprint", "fingerprint"),
                            ("chatThreadId", "thread"),
                            ("id", "id")
                        ]
                    ),
                    s(
                        "CHAT_THREAD",
                        "t",
                        &[("name", "thread_name"), ("chatType", "chat_type")]
                    ),
                    join(
                        &schema,
                        "CHAT_THREAD",
                        "t",
                        "id",
                        "t.id = p.chatThreadId",
                        ("CHAT_THREAD_PARTICIPANT", "chatThreadId")
                    ),
                ),
                title: &|t, row| {
                    format!(
                        "MeWe chat participant {}",
                        or(t, row, "name", or(t, row, "handle", "not named"))
                    )
                },
                fields: &[
                    ("name", FactType::Name, "name"),
                    ("handle", FactType::Account, "handle"),
                    ("status", FactType::Text, "status"),
                    ("is_owner", FactType::Count, "owner"),
                    ("is_admin", FactType::Count, "admin"),
                    ("fingerprint", FactType::Identifier, "fingerprint"),
                    ("thread_name", FactType::Name, "thread"),
                    ("chat_type", FactType::Text, "chat type"),
                    ("thread", FactType::Identifier, "thread id"),
                    ("id", FactType::Identifier, "participant id"),
                ],
                times: &[],
            },
        )?;
    }
    let post_cols: &[(&str, &str)] = &[
        ("createdAt", "created"),
        ("editedAt", "edited"),
        ("ownerName", "author"),
        ("ownerHandle", "handle"),
        ("groupName", "group_name"),
        ("groupId", "group_id"),
        ("textPlain", "text"),
        ("currentUserPost", "own"),
        ("commentsCount", "comments"),
        ("mediasCount", "medias"),
        ("sharesCount", "shares"),
        ("linkUrl", "link_url"),
        ("linkTitle", "link_title"),
        ("albumName", "album"),
        ("pollQuestion", "poll"),
        ("pollVotes", "poll_votes"),
        ("eventName", "event"),
        ("eventLocation", "event_location"),
        ("isAllfeed", "all_feed"),
        ("isDiscoveryFeed", "discovery"),
        ("isFavoriteFeed", "favorite"),
        ("inProfile", "in_profile"),
        ("isRefpost", "refpost"),
        ("id", "id"),
    ];
    if has("POST") {
        read(
            ctx,
            l,
            &name,
            Read {
                table: "POST",
                category: "messages",
                what: "a MeWe post the app cached (the feed flags say for which feeds)",
                sql: format!(
                    "SELECT {} FROM POST p ORDER BY p.rowid",
                    s("POST", "p", post_cols)
                ),
                title: &|t, row| {
                    format!("MeWe post by {}", or(t, row, "author", "an unnamed author"))
                },
                fields: &[
                    ("author", FactType::Name, "author"),
                    ("handle", FactType::Account, "handle"),
                    ("group_name", FactType::Name, "group"),
                    ("group_id", FactType::Identifier, "group id"),
                    ("text", FactType::Text, "text"),
                    ("own", FactType::Count, "posted by the device's user"),
                    ("comments", FactType::Count, "comments"),
                    ("medias", FactType::Count, "media"),
                    ("shares", FactType::Count, "shares"),
                    ("link_url", FactType::Url, "link"),
                    ("link_title", FactType::Text, "link title"),
                    ("album", FactType::Name, "album"),
                    ("poll", FactType::Text, "poll"),
                    ("poll_votes", FactType::Count, "poll votes"),
                    ("event", FactType::Text, "event"),
                    ("event_location", FactType::Text, "event place"),
                    ("all_feed", FactType::Count, "all feed"),
                    ("discovery", FactType::Count, "discovery feed"),
                    ("favorite", FactType::Count, "favourites feed"),
                    ("in_profile", FactType::Count, "profile"),
                    ("refpost", FactType::Count, "reshared"),
                    ("id", FactType::Identifier, "post id"),
                ],
                times: &[
                    ("created", "MeWe post created", unix_seconds),
                    ("edited", "MeWe post edited", unix_seconds),
                ],
            },
        )?;
    }
    let post_join =
        |on: &str, needs: (&'static str, &'static str)| join(&schema, "POST", "p", "id", on, needs);
    if has("COMMENT") {
        read(
            ctx,
            l,
            &name,
            Read {
                table: "COMMENT",
                category: "messages",
                what: "a MeWe comment the app cached",
                sql: format!(
                    "SELECT {}, {} FROM COMMENT c {} ORDER BY c.rowid",
                    s(
                        "COMMENT",
                        "c",
                        &[
                            ("createdAt", "created"),
                            ("editedAt", "edited"),
                            ("ownerName", "author"),
                            ("ownerHandle", "handle"),
                            ("textPlain", "text"),
                            ("currentUserPost", "own"),
                            ("repliesCount", "replies"),
                            ("hasPhoto", "has_photo"),
                            ("photoName", "photo"),
                            ("hasAudio", "has_audio"),
                            ("audioDuration", "audio_duration"),
                            ("linkUrl", "link_url"),
                            ("documentName", "document"),
                            ("postId", "post_id"),
                            ("id", "id")
                        ]
                    ),
                    s(
                        "POST",
                        "p",
                        &[("textPlain", "post_text"), ("ownerName", "post_author")]
                    ),
                    post_join("p.id = c.postId", ("COMMENT", "postId")),
                ),
                title: &|t, row| {
                    format!(
                        "MeWe comment by {}",
                        or(t, row, "author", "an unnamed author")
                    )
                },
                fields: &[
                    ("author", FactType::Name, "author"),
                    ("handle", FactType::Account, "handle"),
                    ("text", FactType::Text, "text"),
                    ("own", FactType::Count, "by the device's user"),
                    ("replies", FactType::Count, "replies"),
                    ("has_photo", FactType::Count, "photo"),
                    ("photo", FactType::Name, "photo name"),
                    ("has_audio", FactType::Count, "audio"),
                    ("audio_duration", FactType::Count, "audio duration"),
                    ("link_url", FactType::Url, "link"),
                    ("document", FactType::Name, "document"),
                    ("post_author", FactType::Name, "on a post by"),
                    ("post_text", FactType::Text, "the post's text"),
                    ("post_id", FactType::Identifier, "post id"),
                    ("id", FactType::Identifier, "comment id"),
                ],
                times: &[
                    ("created", "MeWe comment created", unix_seconds),
                    ("edited", "MeWe comment edited", unix_seconds),
                ],
            },
        )?;
    }
    if has("POST_MEDIA") {
        read(
            ctx,
            l,
            &name,
            Read {
                table: "POST_MEDIA",
                category: "media",
                what: "an item of a MeWe post's media (a URL on MeWe's servers)",
                sql: format!(
                    "SELECT {}, {} FROM POST_MEDIA m {} ORDER BY m.rowid",
                    s(
                        "POST_MEDIA",
                        "m",
                        &[
                            ("postId", "post_id"),
                            ("type", "type"),
                            ("mime", "mime"),
                            ("name", "file"),
                            ("imageUrl", "image_url"),
                            ("imageWidth", "width"),
                            ("imageHeight", "height"),
                            ("videoUrlTemplate", "video_url"),
                            ("availableVideoResolutions", "resolutions"),
                            ("itemId", "item_id")
                        ]
                    ),
                    s(
                        "POST",
                        "p",
                        &[
                            ("createdAt", "created"),
                            ("ownerName", "author"),
                            ("groupName", "group_name")
                        ]
                    ),
                    post_join("p.id = m.postId", ("POST_MEDIA", "postId")),
                ),
                title: &|t, row| {
                    format!(
                        "MeWe post media {}",
                        or(t, row, "file", or(t, row, "type", "item"))
                    )
                },
                fields: &[
                    ("author", FactType::Name, "post by"),
                    ("group_name", FactType::Name, "group"),
                    ("type", FactType::Text, "type"),
                    ("mime", FactType::Text, "MIME type"),
                    ("file", FactType::Name, "file name"),
                    ("image_url", FactType::Url, "image URL"),
                    ("width", FactType::Count, "width"),
                    ("height", FactType::Count, "height"),
                    ("video_url", FactType::Url, "video URL template"),
                    ("resolutions", FactType::Text, "video resolutions"),
                    ("post_id", FactType::Identifier, "post id"),
                    ("item_id", FactType::Identifier, "item id"),
                ],
                times: &[("created", "MeWe post created", unix_seconds)],
            },
        )?;
    }
    if has("POLL_OPTION") {
        read(
            ctx,
            l,
            &name,
            Read {
                table: "POLL_OPTION",
                category: "messages",
                what: "an option of a MeWe poll",
                sql: format!(
                    "SELECT {}, {} FROM POLL_OPTION o {} ORDER BY o.rowid",
                    s(
                        "POLL_OPTION",
                        "o",
                        &[
                            ("text", "option"),
                            ("votes", "votes"),
                            ("position", "position"),
                            ("imageUrl", "image_url")
                        ]
                    ),
                    s(
                        "POST",
                        "p",
                        &[
                            ("createdAt", "created"),
                            ("ownerName", "author"),
                            ("groupName", "group_name"),
                            ("pollQuestion", "question"),
                            ("pollClosed", "closed"),
                            ("pollEndDate", "ends"),
                            ("pollVotes", "total_votes"),
                            ("id", "post_id")
                        ]
                    ),
                    post_join("p.id = o.postId", ("POLL_OPTION", "postId")),
                ),
                title: &|t, row| format!("MeWe poll option {}", or(t, row, "option", "not named")),
                fields: &[
                    ("author", FactType::Name, "poll by"),
                    ("group_name", FactType::Name, "group"),
                    ("question", FactType::Text, "question"),
                    ("option", FactType::Text, "option"),
                    ("votes", FactType::Count, "votes"),
                    ("position", FactType::Count, "position"),
                    ("total_votes", FactType::Count, "total votes"),
                    ("closed", FactType::Count, "closed"),
                    ("image_url", FactType::Url, "image URL"),
                    ("post_id", FactType::Identifier, "post id"),
                ],
                times: &[
                    ("created", "MeWe poll created", unix_seconds),
                    ("ends", "MeWe poll ends", unix_seconds),
                ],
            },
        )?;
    }
    for (table, target, key, label) in [
        ("EMOJI_POST", "POST", "postId", "post"),
        ("EMOJI_COMMENT", "COMMENT", "commentId", "comment"),
        (
            "EMOJI_CHAT_MESSAGE",
            "CHAT_MESSAGE",
            "chatMessageId",
            "chat message",
        ),
    ] {
        if !has(table) {
            continue;
        }
        let what = format!("a reaction to a MeWe {label}");
        read(
            ctx,
            l,
            &name,
            Read {
                table,
                category: "messages",
                what: &what,
                sql: format!(
                    "SELECT {}, {} AS target, {} FROM {table} e {} ORDER BY e.rowid",
                    s(
                        table,
                        "e",
                        &[("key", "emoji"), ("count", "count"), ("userReacted", "own")]
                    ),
                    if schema.get(table).is_some_and(|c| c.contains(key)) {
                        format!("e.{key}")
                    } else {
                        "NULL".into()
                    },
                    s(
                        target,
                        "x",
                        &[
                            ("ownerName", "author"),
                            ("textPlain", "text"),
                            ("createdAt", "created")
                        ]
                    ),
                    join(
                        &schema,
                        target,
                        "x",
                        "id",
                        &format!("x.id = e.{key}"),
                        (table, key)
                    ),
                ),
                title: &|t, row| {
                    format!(
                        "MeWe reaction {} to a {label} by {}",
                        or(t, row, "emoji", "?"),
                        or(t, row, "author", "an unnamed author")
                    )
                },
                fields: &[
                    ("emoji", FactType::Text, "emoji"),
                    ("count", FactType::Count, "count"),
                    ("own", FactType::Count, "the device's user reacted"),
                    ("target", FactType::Identifier, "target id"),
                    ("author", FactType::Name, "target's author"),
                    ("text", FactType::Text, "target's text"),
                ],
                times: &[("created", "MeWe reaction target created", unix_seconds)],
            },
        )?;
    }
    if has("GROUP_") {
        read(
            ctx,
            l,
            &name,
            Read {
                table: "GROUP_",
                category: "contacts",
                what: "a MeWe group the account knows",
                sql: format!(
                    "SELECT {} FROM GROUP_ g ORDER BY g.rowid",
                    s(
                        "GROUP_",
                        "g",
                        &[
                            ("lastOpenTime", "opened"),
                            ("name", "name"),
                            ("descriptionPlain", "description"),
                            ("groupAccessType", "access"),
                            ("roleEnum", "role"),
                            ("isPublic", "public"),
                            ("isConfirmed", "confirmed"),
                            ("publicUrlId", "url_id"),
                            ("ownerId", "owner_id"),
                            ("_id", "id")
                        ]
                    )
                ),
                title: &|t, row| format!("MeWe group {}", or(t, row, "name", "not named")),
                fields: &[
                    ("name", FactType::Name, "name"),
                    ("description", FactType::Text, "description"),
                    ("access", FactType::Text, "access"),
                    ("role", FactType::Text, "role"),
                    ("public", FactType::Count, "public"),
                    ("confirmed", FactType::Count, "confirmed"),
                    ("url_id", FactType::Identifier, "public URL id"),
                    ("owner_id", FactType::Identifier, "owner id"),
                    ("id", FactType::Identifier, "id"),
                ],
                times: &[("opened", "MeWe group last opened", unix_millis)],
            },
        )?;
    }
    if has("PAGE") {
        read(
            ctx,
            l,
            &name,
            Read {
                table: "PAGE",
                category: "contacts",
                what: "a MeWe page the account knows",
                sql: format!(
                    "SELECT {} FROM PAGE g ORDER BY g.rowid",
                    s(
                        "PAGE",
                        "g",
                        &[
                            ("name", "name"),
                            ("description", "description"),
                            ("categoryName", "category"),
                            ("followers", "followers"),
                            ("isVerified", "verified"),
                            ("isFollower", "follower"),
                            ("isOwner", "owner"),
                            ("isAdmin", "admin"),
                            ("urlId", "url_id"),
                            ("id", "id")
                        ]
                    )
                ),
                title: &|t, row| format!("MeWe page {}", or(t, row, "name", "not named")),
                fields: &[
                    ("name", FactType::Name, "name"),
                    ("description", FactType::Text, "description"),
                    ("category", FactType::Text, "category"),
                    ("followers", FactType::Count, "followers"),
                    ("verified", FactType::Count, "verified"),
                    ("follower", FactType::Count, "followed by the account"),
                    ("owner", FactType::Count, "owned by the account"),
                    ("admin", FactType::Count, "administered by the account"),
                    ("url_id", FactType::Identifier, "URL id"),
                    ("id", FactType::Identifier, "id"),
                ],
                times: &[],
            },
        )?;
    }
    if has("COMMUNITY") {
        read(
            ctx,
            l,
            &name,
            Read {
                table: "COMMUNITY",
                category: "contacts",
                what: "a MeWe community the account knows",
                sql: format!(
                    "SELECT {} FROM COMMUNITY g ORDER BY g.rowid",
                    s(
                        "COMMUNITY",
                        "g",
                        &[
                            ("lastVisit", "visited"),
                            ("name", "name"),
                            ("type", "type"),
                            ("isConfirmed", "confirmed"),
                            ("isVerified", "verified"),
                            ("id", "id")
                        ]
                    )
                ),
                title: &|t, row| format!("MeWe community {}", or(t, row, "name", "not named")),
                fields: &[
                    ("name", FactType::Name, "name"),
                    ("type", FactType::Text, "type"),
                    ("confirmed", FactType::Count, "confirmed"),
                    ("verified", FactType::Count, "verified"),
                    ("id", FactType::Identifier, "id"),
                ],
                times: &[("visited", "MeWe community last visited", unix_millis)],
            },
        )?;
    }
    Ok(())
}

fn chat(
    ctx: &AgentCtx<'_>,
    l: &Located,
    name: &str,
    schema: &BTreeMap<String, BTreeSet<String>>,
) -> Result<(), RuntimeError> {
    let m = schema.get("CHAT_MESSAGE").cloned().unwrap_or_default();
    if !crate::calls::require_columns(
        ctx,
        name,
        &format!("MeWe's {}", l.name()),
        "CHAT_MESSAGE",
        &m,
        &["createdAt"],
    )? {
        return Ok(());
    }
    let owner_id = if m.contains("ownerId") {
        "CASE WHEN m.ownerId IS NOT NULL AND m.ownerId != '' THEN 'mewe:' || m.ownerId END"
    } else {
        "NULL"
    };
    let sql = format!(
        "SELECT m.rowid AS rid, {}, {}, {}, {owner_id} AS sender, {} FROM CHAT_MESSAGE m {} ORDER BY m.rowid",
        select(
            schema,
            "CHAT_MESSAGE",
            "m",
            &[
                ("createdAt", "at"),
                ("currentUserMessage", "own"),
                ("ownerName", "sender_name"),
                ("ownerId", "sender_id"),
                ("textPlain", "text"),
                ("threadId", "thread"),
                ("attachmentName", "attachment")
            ]
        ),
        if m.contains("attachmentType") {
            "CASE WHEN m.attachmentType = 'UNSUPPORTED' THEN NULL ELSE m.attachmentType END AS attachment_type"
        } else {
            "NULL AS attachment_type"
        },
        column_or_null(&m, "m.", "deleted", "deleted"),
        select(
            schema,
            "CHAT_THREAD",
            "t",
            &[
                ("name", "thread_name"),
                ("groupId", "group_id"),
                ("chatType", "chat_type")
            ]
        ),
        join(
            schema,
            "CHAT_THREAD",
            "t",
            "id",
            "t.id = m.threadId",
            ("CHAT_MESSAGE", "threadId")
        ),
    );
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, name, &pages, "MeWe chat messages")?;
    for (inv, t, row) in pages.rows() {
        let rid = t.get(row, "rid").unwrap_or("?").to_string();
        let sent = t.get(row, "own") == Some("1");
        let from = t
            .get(row, "sender_name")
            .or(t.get(row, "sender_id"))
            .unwrap_or("a sender not stored")
            .to_string();
        let thread = t
            .get(row, "thread_name")
            .map(|n| format!(" in {n}"))
            .unwrap_or_default();
        let mut d = Draft::new(
            "messages",
            if sent {
                format!("MeWe message sent{thread}")
            } else {
                format!("MeWe message from {from}{thread}")
            },
        );
        d.fact(FactType::Path, Some(&l.path), &l.found);
        let said = d.fields(
            t,
            row,
            inv,
            &[
                ("sender_name", FactType::Name, "sender"),
                ("sender_id", FactType::Account, "sender's user id"),
                ("thread_name", FactType::Name, "thread"),
                ("text", FactType::Text, "text"),
                ("thread", FactType::Identifier, "thread id"),
                ("group_id", FactType::Identifier, "group id"),
                ("chat_type", FactType::Text, "chat type"),
                ("attachment_type", FactType::Text, "attachment type"),
                ("attachment", FactType::Name, "attachment"),
                ("deleted", FactType::Count, "deleted"),
                ("own", FactType::Count, "currentUserMessage"),
            ],
        );
        let at = t.get(row, "at");
        d.message_time(at, unix_seconds(at), sent, inv);
        d.interpretation = format!(
            "CHAT_MESSAGE row {rid} of {}: a MeWe chat message {}: {}; the time is Unix seconds{}.",
            l.name(),
            if sent {
                "sent by the device's user (currentUserMessage 1)".to_string()
            } else {
                format!("from {from}")
            },
            said.join(", "),
            if t.get(row, "deleted") == Some("1") {
                "; the app marked it deleted, its text is still stored"
            } else {
                ""
            },
        );
        record_draft(ctx, d)?;
        let other = match (sent, t.get(row, "sender")) {
            (false, Some(id)) => {
                crate::identity::observe_columns(
                    ctx,
                    id,
                    &from,
                    t,
                    row,
                    inv,
                    &[
                        ("sender", IdType::AccountId, "The MeWe user id"),
                        ("sender_name", IdType::DisplayName, "The name"),
                    ],
                    &|what| {
                        format!(
                            "{what} of {from}, who sent a MeWe chat message (CHAT_MESSAGE row {rid} of {}).",
                            l.name()
                        )
                    },
                )?;
                Some((id, from.as_str()))
            }
            _ => None,
        };
        if let Some(text) = t.get(row, "text") {
            crate::identity::claims_by_direction(
                ctx,
                inv,
                text,
                &format!("MeWe chat message row {rid} ({})", l.name()),
                sent,
                other,
            )?;
        }
    }
    if m.contains("ownerId") && m.contains("currentUserMessage") {
        crate::identity::sole_owner(
            ctx,
            &l.tree,
            &l.path,
            "SELECT DISTINCT 'mewe:' || ownerId AS qualified FROM CHAT_MESSAGE WHERE currentUserMessage = 1 AND ownerId IS NOT NULL AND ownerId != ''",
            "The MeWe user id",
            "the one sender of the device's user's chat messages (currentUserMessage 1)",
        )?;
    }
    Ok(())
}

/// The session preferences (see the module documentation).
pub fn session(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some((inv, prefs)) = super::prefs::prefs_xml(ctx, l, "MeWe", None)? else {
        return Ok(());
    };
    let kept: Vec<&(String, String)> = prefs.iter().filter(|(n, _)| !n.contains('.')).collect();
    let user = prefs
        .iter()
        .find_map(|(n, _)| n.strip_prefix("user_info").filter(|id| !id.is_empty()));
    let mut d = Draft::new(
        "accounts",
        format!(
            "MeWe session{}",
            user.map(|u| format!(" of user {u}")).unwrap_or_default()
        ),
    );
    d.fact(FactType::Path, Some(&l.path), &l.found);
    d.fact(FactType::Identifier, user, &inv);
    for (n, v) in &kept {
        d.fact(FactType::Text, Some(n), &inv);
        d.fact(
            FactType::Text,
            Some(v.as_str()).filter(|v| !v.is_empty()),
            &inv,
        );
    }
    d.interpretation = format!(
        "{}: MeWe's session preferences, {} of them (those whose names hold no dot, as ALEAPP lists them){}.",
        l.name(),
        kept.len(),
        user.map(|u| format!("; the signed-in user's id is {u}, the suffix of its user_info key"))
            .unwrap_or_default(),
    );
    record_draft(ctx, d)
}
