//! Dubox (TeraBox), iLEAPP's `dubox` (`dubox_messages`, `dubox_conversations`, `dubox_contacts`,
//! `dubox_cloud_files`, `dubox_photos`): the cloud-storage app's chat, its friends, the cloud
//! files and photos it listed.
//!
//! | store, table | phenomenon | fields |
//! |---|---|---|
//! | `mbox_main.sqlite` `mbox_friendlist` | one `contacts` per friend ("Dubox contact <user name>") | user key (`uk`), user name, nickname, display name, the user's remark, secure mobile and e-mail (as stored: the service may mask them), intro, VIP type, friend flag |
//! | `mbox_main.sqlite` `mbox_msg` | one `messages` per message ("Dubox message to/from <partner>: <text>") | time (Unix seconds), direction (`is_receive`: 0 sent, 1 received), sender's user name, text, content type (as stored), a sent file's path, MD5 and size, link, the partner's user key and the friend list's user name and nickname for it |
//! | `mbox_main.sqlite` `mbox_conversations` | one `messages` per conversation ("Dubox conversation with <name>") | last message and created times (Unix seconds), session name, user name, last message, unread count, conversation type, official account, the draft left in it, the partner's user key |
//! | `netdisk.sqlite` `cachefilelist` | one `files` per cloud file or folder ("Dubox cloud file <path>") | created and modified (Unix seconds), name, server path, size, MD5, folder, category (as stored), favourite, shared, collected, file id |
//! | `imageDB.sqlite` `image_filelist` | one `media` per photo or video ("Dubox photo <name>") | taken, created and modified (Unix seconds), name, server path, size, MD5, latitude and longitude (0 read as none), address, city, street, resolution, duration, file id |
//!
//! The cloud listing is what the app had cached, not necessarily the whole account (said); a
//! photo's position is where its source recorded it was taken. Tables are read by their
//! columns found (absent ones NULL), in pages by `rowid`. `netdisk.sqlite` and `imageDB.sqlite`
//! are common names: read in apps' containers when they hold their table; one without it is
//! noted only in a container that also holds `mbox_main.sqlite` (Dubox's), left alone
//! elsewhere. An `mbox_main.sqlite` with none of its three tables is noted.
//!
//! Identities: every chat partner and friend is the person `dubox:<uk>` (qualified in the
//! query) with their user name (nickname identifier), nickname, display name and the user's
//! remark for them (display names), and their secure mobile number or e-mail address when it
//! is a whole one (a masked value, with `*`, is a fact only). The account's own user key is not
//! in these stores.

use masf_agents::RuntimeError;
use masf_graph::{EntityKind, FactType, IdType};
use masf_tools::Invoked;

use super::{Draft, Run, Schema, file_name};
use crate::calls::select_columns;
use crate::drafts::{headline, unix_seconds};
use crate::outputs::{Table, raw};

const FRIENDS: &str = "mbox_friendlist";
const MESSAGES: &str = "mbox_msg";
const CONVERSATIONS: &str = "mbox_conversations";
const FILES: &str = "cachefilelist";
const PHOTOS: &str = "image_filelist";

/// The app's container of a path (`…/Containers/Data/Application/<id>/` or
/// `…/Containers/Shared/AppGroup/<id>/`), `None` outside one.
fn container(path: &str) -> Option<&str> {
    [
        "/Containers/Data/Application/",
        "/Containers/Shared/AppGroup/",
    ]
    .iter()
    .find_map(|marker| {
        let at = path.find(marker)? + marker.len();
        let end = path[at..].find('/')? + at + 1;
        Some(&path[..end])
    })
}

/// Triage of every Dubox store of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    let mut chats = Vec::new();
    if let Some((find, paths)) = run.find("mbox_main.sqlite")? {
        for path in &paths {
            if let Some(c) = container(path) {
                chats.push(c.to_string());
            }
            chat_store(run, &find, path)?;
        }
    }
    // common names: read where they hold Dubox's table
    for (glob, table) in [("netdisk.sqlite", FILES), ("imageDB.sqlite", PHOTOS)] {
        let Some((find, paths)) = run.find(glob)? else {
            continue;
        };
        for path in &paths {
            let Some(c) = container(path) else {
                continue;
            };
            let Some(schema) = run.schema(path, &[table])? else {
                continue;
            };
            if schema.columns(table).is_empty() {
                // another app's file of the same name, unless Dubox's chat store is beside it
                if chats.iter().any(|d| d == c) {
                    schema.require(run, table, &[])?;
                }
                continue;
            }
            if table == FILES {
                cloud_files(run, &find, path, &schema)?;
            } else {
                photos(run, &find, path, &schema)?;
            }
        }
    }
    Ok(())
}

/// A non-empty value of a row, as the output holds it.
fn value(t: &Table, row: &[Option<String>], col: &str) -> Option<String> {
    raw(t, row, col).filter(|v| !v.is_empty())
}

/// `'dubox:' || <expr>` where the expression is a non-empty value, as `qualified`.
fn qualified(expr: &str) -> String {
    format!(
        "CASE WHEN {expr} IS NOT NULL AND {expr} != '' THEN 'dubox:' || {expr} END AS qualified"
    )
}

/// The chat store: friends, messages, conversations.
fn chat_store(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let Some(schema) = run.schema(path, &[FRIENDS, MESSAGES, CONVERSATIONS])? else {
        return Ok(());
    };
    let present = |t: &str| !schema.columns(t).is_empty();
    if ![FRIENDS, MESSAGES, CONVERSATIONS]
        .iter()
        .any(|t| present(t))
    {
        run.ctx.unparsed(
            path,
            &format!(
                "unexpected schema: the database has none of Dubox's chat tables ({FRIENDS}, {MESSAGES}, {CONVERSATIONS})"
            ),
            None,
        )?;
        return Ok(());
    }
    if present(FRIENDS) {
        friends(run, find, path, &schema)?;
    }
    if present(MESSAGES) {
        messages(run, find, path, &schema)?;
    }
    if present(CONVERSATIONS) {
        conversations(run, find, path, &schema)?;
    }
    Ok(())
}

/// Observes a Dubox user by its qualified key (`dubox:<uk>`), with its names and, where whole,
/// its number and e-mail.
fn observe_user(
    run: &Run<'_, '_>,
    t: &Table,
    row: &[Option<String>],
    inv: &Invoked,
    what: &str,
) -> Result<(), RuntimeError> {
    let Some(q) = value(t, row, "qualified") else {
        return Ok(());
    };
    let get = |c: &str| value(t, row, c);
    let label = get("uname")
        .or_else(|| get("nickname"))
        .unwrap_or_else(|| q.clone());
    // a masked number or address (`138****5678`) is no identifier
    let whole = |c: &str| get(c).filter(|v| !v.contains('*'));
    let (mobile, email) = (whole("mobile"), whole("email"));
    let why = |w: &str| format!("The {w} of {what}.");
    let ids = [
        (
            IdType::AccountId,
            Some(q.clone()),
            "user key (qualified in the query)",
        ),
        (IdType::Nickname, get("uname"), "user name"),
        (IdType::DisplayName, get("nickname"), "nickname"),
        (IdType::DisplayName, get("displayname"), "display name"),
        (
            IdType::DisplayName,
            get("remark"),
            "name the device's user gave them (remark)",
        ),
        (IdType::Phone, mobile, "mobile number"),
        (IdType::Email, email, "e-mail address"),
    ];
    for (ty, v, w) in ids {
        if let Some(v) = v {
            run.observe(&q, EntityKind::Person, &label, ty, &v, inv, why(w))?;
        }
    }
    Ok(())
}

fn friends(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    schema: &Schema,
) -> Result<(), RuntimeError> {
    let f = schema.columns(FRIENDS);
    let uk = if f.contains("uk") { "f.uk" } else { "NULL" };
    let sql = format!(
        "SELECT f.rowid AS rid, {}, {} FROM {FRIENDS} f",
        select_columns(
            &f,
            "f.",
            &[
                ("uk", "uk"),
                ("uname", "uname"),
                ("nickname", "nickname"),
                ("displayname", "displayname"),
                ("remark", "remark"),
                ("securemobil", "mobile"),
                ("secureemail", "email"),
                ("intro", "intro"),
                ("viptype", "vip_type"),
                ("isFriend", "is_friend"),
            ],
        ),
        qualified(uk),
    );
    let Some(paged) = run.paged(path, &sql, "rid")? else {
        return Ok(());
    };
    let file = file_name(path);
    for (inv, t, row) in paged.rows() {
        let get = |c: &str| value(t, row, c);
        let label = get("uname")
            .or_else(|| get("nickname"))
            .or_else(|| get("uk"))
            .unwrap_or_else(|| "?".into());
        let mut d = Draft::new("contacts", format!("Dubox contact {label}"));
        d.fact(FactType::Path, Some(path), find);
        let mut said = d.fields(
            t,
            row,
            inv,
            &[
                ("uk", FactType::Identifier, "user key"),
                ("qualified", FactType::Account, "account"),
                ("uname", FactType::Account, "user name"),
                ("nickname", FactType::Name, "nickname"),
                ("displayname", FactType::Name, "display name"),
                ("remark", FactType::Name, "remark"),
                ("intro", FactType::Text, "intro"),
                ("vip_type", FactType::Text, "VIP type"),
                ("is_friend", FactType::Text, "friend flag"),
            ],
        );
        // a number or address as stored: whole ones typed, masked ones text
        for (col, ft, label) in [
            ("mobile", FactType::Phone, "secure mobile"),
            ("email", FactType::Email, "secure e-mail"),
        ] {
            if let Some(v) = get(col) {
                let ft = if v.contains('*') { FactType::Text } else { ft };
                d.fact(ft, Some(&v), inv);
                said.push(format!("{label} {v}"));
            }
        }
        d.interpretation = format!(
            "{FRIENDS} row {} of {path}: a user in the Dubox chat's friend list ({}); secure mobile and e-mail as the service returned them (masked values with *).",
            t.get(row, "rid").unwrap_or("?"),
            said.join("; ")
        );
        run.record(d)?;
        observe_user(
            run,
            t,
            row,
            inv,
            &format!("a user of the Dubox chat's friend list ({file})"),
        )?;
    }
    crate::calls::note_pages_cap(run.ctx, path, &paged, "Dubox friends")
}

/// The friend list's `col` for a message's or conversation's `msguk`, as `alias`.
fn friend_of(schema: &Schema, owner: &str, col: &str, alias: &str) -> String {
    let f = schema.columns(FRIENDS);
    if f.contains("uk") && f.contains(col) {
        format!(
            "(SELECT f.{col} FROM {FRIENDS} f WHERE f.uk = {owner}.msguk ORDER BY f.rowid LIMIT 1) AS {alias}"
        )
    } else {
        format!("NULL AS {alias}")
    }
}

fn messages(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    schema: &Schema,
) -> Result<(), RuntimeError> {
    let m = schema.columns(MESSAGES);
    let uk = if m.contains("msguk") {
        "m.msguk"
    } else {
        "NULL"
    };
    let (uname, nickname) = if m.contains("msguk") {
        (
            friend_of(schema, "m", "uname", "uname"),
            friend_of(schema, "m", "nickname", "nickname"),
        )
    } else {
        ("NULL AS uname".into(), "NULL AS nickname".into())
    };
    let sql = format!(
        "SELECT m.rowid AS rid, {}, {uname}, {nickname}, {} FROM {MESSAGES} m",
        select_columns(
            &m,
            "m.",
            &[
                ("time", "time"),
                ("is_receive", "is_receive"),
                ("username", "sender"),
                ("content", "content"),
                ("contentType", "content_type"),
                ("path", "file_path"),
                ("md5", "md5"),
                ("size", "size"),
                ("link", "link"),
                ("msguk", "msguk"),
            ],
        ),
        qualified(uk),
    );
    let Some(paged) = run.paged(path, &sql, "rid")? else {
        return Ok(());
    };
    let file = file_name(path);
    for (inv, t, row) in paged.rows() {
        let get = |c: &str| value(t, row, c);
        let received = match t.get(row, "is_receive") {
            Some("0") => Some(false),
            Some("1") => Some(true),
            _ => None,
        };
        let partner = get("uname")
            .or_else(|| get("nickname"))
            .or_else(|| get("msguk"))
            .unwrap_or_else(|| "an unrecorded user".into());
        let what = get("content")
            .map(|c| headline(&c))
            .or_else(|| {
                get("file_path").map(|p| format!("(file {})", p.rsplit('/').next().unwrap_or(&p)))
            })
            .unwrap_or_else(|| "(no text)".into());
        let mut d = Draft::new(
            "messages",
            format!(
                "Dubox message {} {partner}: {what}",
                match received {
                    Some(true) => "from",
                    Some(false) => "to",
                    None => "with",
                }
            ),
        );
        d.fact(FactType::Path, Some(path), find);
        let said = d.fields(
            t,
            row,
            inv,
            &[
                ("msguk", FactType::Identifier, "partner's user key"),
                ("qualified", FactType::Account, "partner"),
                ("uname", FactType::Account, "partner's user name"),
                ("nickname", FactType::Name, "partner's nickname"),
                ("sender", FactType::Account, "sender's user name"),
                ("content", FactType::Text, "text"),
                ("content_type", FactType::Text, "content type (as stored)"),
                ("file_path", FactType::Text, "file path"),
                ("md5", FactType::Hash, "file MD5"),
                ("size", FactType::Count, "file size"),
                ("link", FactType::Url, "link"),
            ],
        );
        let at = t.get(row, "time");
        d.time(
            at,
            unix_seconds(at),
            match received {
                Some(true) => "Message received",
                Some(false) => "Message sent",
                None => "Dubox message",
            },
            inv,
        );
        d.interpretation = format!(
            "{MESSAGES} row {} of {path}: a message of the Dubox in-app chat, {} ({}); is_receive 0 is sent, 1 received; the partner is the friend list's user of msguk; the time is Unix seconds.",
            t.get(row, "rid").unwrap_or("?"),
            match received {
                Some(true) => "received by the device's user",
                Some(false) => "sent by the device's user",
                None => "of unrecorded direction",
            },
            said.join("; ")
        );
        run.record(d)?;
        observe_user(
            run,
            t,
            row,
            inv,
            &format!("a Dubox chat partner ({MESSAGES} of {file})"),
        )?;
    }
    crate::calls::note_pages_cap(run.ctx, path, &paged, "Dubox messages")
}

fn conversations(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    schema: &Schema,
) -> Result<(), RuntimeError> {
    let c = schema.columns(CONVERSATIONS);
    let uk = if c.contains("msguk") {
        "c.msguk"
    } else {
        "NULL"
    };
    let uname = if c.contains("msguk") {
        friend_of(schema, "c", "uname", "uname")
    } else {
        "NULL AS uname".into()
    };
    let sql = format!(
        "SELECT c.rowid AS rid, {}, {uname}, {} FROM {CONVERSATIONS} c",
        select_columns(
            &c,
            "c.",
            &[
                ("mtime", "mtime"),
                ("time", "created"),
                ("sessionName", "session"),
                ("username", "username"),
                ("content", "content"),
                ("unreadcount", "unread"),
                ("conversationType", "kind"),
                ("is_official", "official"),
                ("draft_content", "draft"),
                ("msguk", "msguk"),
            ],
        ),
        qualified(uk),
    );
    let Some(paged) = run.paged(path, &sql, "rid")? else {
        return Ok(());
    };
    let file = file_name(path);
    for (inv, t, row) in paged.rows() {
        let get = |c: &str| value(t, row, c);
        let name = get("session")
            .or_else(|| get("username"))
            .or_else(|| get("uname"))
            .or_else(|| get("msguk"))
            .unwrap_or_else(|| "?".into());
        let mut d = Draft::new("messages", format!("Dubox conversation with {name}"));
        d.fact(FactType::Path, Some(path), find);
        let said = d.fields(
            t,
            row,
            inv,
            &[
                ("session", FactType::Name, "session name"),
                ("username", FactType::Account, "user name"),
                ("msguk", FactType::Identifier, "partner's user key"),
                ("qualified", FactType::Account, "partner"),
                ("content", FactType::Text, "last message"),
                ("unread", FactType::Count, "unread"),
                ("kind", FactType::Text, "conversation type (as stored)"),
                ("official", FactType::Text, "official account"),
                ("draft", FactType::Text, "draft"),
            ],
        );
        d.times_of(
            t,
            row,
            inv,
            unix_seconds,
            &[
                ("mtime", "Dubox conversation last message"),
                ("created", "Dubox conversation created"),
            ],
        );
        d.interpretation = format!(
            "{CONVERSATIONS} row {} of {path}: a conversation of the Dubox in-app chat ({}){}; times are Unix seconds.",
            t.get(row, "rid").unwrap_or("?"),
            said.join("; "),
            if get("draft").is_some() {
                "; its draft is text the device's user typed and did not send"
            } else {
                ""
            }
        );
        run.record(d)?;
        // a conversation names its partner by key only: the names are the friend list's
        let uname = get("uname");
        if let Some(q) = get("qualified") {
            let what = format!("a Dubox chat partner ({CONVERSATIONS} of {file})");
            let label = uname.clone().unwrap_or_else(|| q.clone());
            run.observe(
                &q,
                EntityKind::Person,
                &label,
                IdType::AccountId,
                &q,
                inv,
                format!("The user key (qualified in the query) of {what}."),
            )?;
            if let Some(u) = &uname {
                run.observe(
                    &q,
                    EntityKind::Person,
                    &label,
                    IdType::Nickname,
                    u,
                    inv,
                    format!("The user name of {what}."),
                )?;
            }
        }
    }
    crate::calls::note_pages_cap(run.ctx, path, &paged, "Dubox conversations")
}

fn cloud_files(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    schema: &Schema,
) -> Result<(), RuntimeError> {
    let sql = format!(
        "SELECT f.rowid AS rid, {} FROM {FILES} f",
        select_columns(
            &schema.columns(FILES),
            "f.",
            &[
                ("ctime", "created"),
                ("mtime", "modified"),
                ("server_full_path", "server_path"),
                ("file_name", "name"),
                ("file_size", "size"),
                ("file_md5", "md5"),
                ("isdir", "is_dir"),
                ("file_category", "category"),
                ("is_favorite", "favorite"),
                ("is_shared", "shared"),
                ("is_collected", "collected"),
                ("fid", "fid"),
            ],
        ),
    );
    let Some(paged) = run.paged(path, &sql, "rid")? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        let get = |c: &str| value(t, row, c);
        let dir = t.get(row, "is_dir") == Some("1");
        let mut d = Draft::new(
            "files",
            format!(
                "Dubox cloud {} {}",
                if dir { "folder" } else { "file" },
                get("server_path")
                    .or_else(|| get("name"))
                    .unwrap_or_else(|| "?".into())
            ),
        );
        d.fact(FactType::Path, Some(path), find);
        let mut said = d.fields(
            t,
            row,
            inv,
            &[
                ("server_path", FactType::Text, "server path"),
                ("name", FactType::Name, "name"),
                ("size", FactType::Count, "size"),
                ("md5", FactType::Hash, "MD5"),
                ("category", FactType::Text, "category (as stored)"),
                ("fid", FactType::Identifier, "file id"),
            ],
        );
        for (col, word) in [
            ("favorite", "a favourite"),
            ("shared", "shared"),
            ("collected", "collected"),
        ] {
            if t.get(row, col) == Some("1") {
                said.push(word.to_string());
            }
        }
        d.times_of(
            t,
            row,
            inv,
            unix_seconds,
            &[
                ("created", "Dubox cloud file created"),
                ("modified", "Dubox cloud file modified"),
            ],
        );
        d.interpretation = format!(
            "{FILES} row {} of {path}: a {} of the Dubox cloud the app had listed ({}); the listing the app cached, not necessarily the whole account; times are Unix seconds.",
            t.get(row, "rid").unwrap_or("?"),
            if dir { "folder" } else { "file" },
            said.join("; ")
        );
        run.record(d)?;
    }
    crate::calls::note_pages_cap(run.ctx, path, &paged, "Dubox cloud files")
}

fn photos(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    schema: &Schema,
) -> Result<(), RuntimeError> {
    let p = schema.columns(PHOTOS);
    // 0 is no position (the source recorded none)
    let position = |col: &str, alias: &str| {
        if p.contains(col) {
            format!("NULLIF(i.{col}, 0) AS {alias}")
        } else {
            format!("NULL AS {alias}")
        }
    };
    let sql = format!(
        "SELECT i.rowid AS rid, {}, {}, {} FROM {PHOTOS} i",
        select_columns(
            &p,
            "i.",
            &[
                ("date_taken", "taken"),
                ("ctime", "created"),
                ("mtime", "modified"),
                ("file_name", "name"),
                ("server_full_path", "server_path"),
                ("file_size", "size"),
                ("file_md5", "md5"),
                ("full_addr", "address"),
                ("city", "city"),
                ("street", "street"),
                ("resolution", "resolution"),
                ("duration", "duration"),
                ("fid", "fid"),
            ],
        ),
        position("latitude", "latitude"),
        position("longitude", "longitude"),
    );
    let Some(paged) = run.paged(path, &sql, "rid")? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        let get = |c: &str| value(t, row, c);
        let located = get("latitude").is_some() && get("longitude").is_some();
        let mut d = Draft::new(
            "media",
            format!(
                "Dubox photo {}",
                get("name")
                    .or_else(|| get("server_path"))
                    .unwrap_or_else(|| "?".into())
            ),
        );
        d.fact(FactType::Path, Some(path), find);
        let said = d.fields(
            t,
            row,
            inv,
            &[
                ("name", FactType::Name, "name"),
                ("server_path", FactType::Text, "server path"),
                ("size", FactType::Count, "size"),
                ("md5", FactType::Hash, "MD5"),
                ("latitude", FactType::Text, "latitude"),
                ("longitude", FactType::Text, "longitude"),
                ("address", FactType::Text, "address"),
                ("city", FactType::Text, "city"),
                ("street", FactType::Text, "street"),
                ("resolution", FactType::Text, "resolution"),
                ("duration", FactType::Count, "duration"),
                ("fid", FactType::Identifier, "file id"),
            ],
        );
        d.times_of(
            t,
            row,
            inv,
            unix_seconds,
            &[
                ("taken", "Dubox photo taken"),
                ("created", "Dubox photo created"),
                ("modified", "Dubox photo modified"),
            ],
        );
        d.interpretation = format!(
            "{PHOTOS} row {} of {path}: a photo or video of the Dubox media listing ({}){}; times are Unix seconds.",
            t.get(row, "rid").unwrap_or("?"),
            said.join("; "),
            if located {
                "; the position is where the item's source recorded it was taken"
            } else {
                "; no position recorded"
            }
        );
        run.record(d)?;
    }
    crate::calls::note_pages_cap(run.ctx, path, &paged, "Dubox photos")
}
