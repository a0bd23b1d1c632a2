//! WeChat (`com.tencent.mm`) and Signal (`org.thoughtcrime.securesms`) on Android.
//!
//! - WeChat's `shared_prefs/com.tencent.mm_preferences.xml` (`login_weixin_username` the wxid,
//!   `last_login_uin`, `last_login_alias`, `last_login_nick_name`, `last_login_bind_mobile`,
//!   `login_user_name`) and `auth_info_key_prefs.xml` (`_auth_uin`): the signed-in account, the
//!   owner's `wechat`, name, phone or e-mail; the uin is a fact (a bare number, no identity).
//! - WeChat's `MicroMsg/<md5("mm" + uin)>/EnMicroMsg.db` is SQLCipher-encrypted (SQLCipher 1
//!   settings) with a key derived from the IMEI and the uin: the first 7 hex digits of
//!   md5(IMEI + uin). Its folder is matched to the uin read from the preferences, and the key
//!   of that uin and the IMEI WeChat uses where Android lets it read none (`1234567890ABCDEF`,
//!   Android 10 and later) — after the IMEI WeChat itself read, kept at key 258 of its
//!   `MicroMsg/CompatibleInfo.cfg` (a Java-serialised `HashMap`, read by `read_java`; the IMEI
//!   is the device's too) — is tried through `sqlite_query`'s `cipher` (profile
//!   `wechat_android`: the tool derives the key, never printed; the `-wal` replayed). A database
//!   that key does not open is noted "encrypted (SQLCipher), key derived from IMEI+uin, not
//!   read; tried …". Opened, or a copy already decrypted (a plain SQLite file), it is read: every
//!   `rcontact` (user name, alias, nickname, remark) as `wechat:<user name>`, every `message`
//!   (ids, type, `isSend`, Unix-ms `createTime`, `talker`, content) with wallet claims by
//!   `isSend` (a group's received text by the sender its `<sender>:\n` prefix names).
//! - Signal's `org.thoughtcrime.securesms_preferences.xml` gives the registered number
//!   (`pref_local_number`, the owner's phone) and account id (`pref_local_uuid`); its databases
//!   are [`super::signal`]'s.
//!
//! A file that is neither SQLite nor whole pages (truncated, foreign) is "not a SQLite
//! database", never called encrypted; a plain SQLite copy of Signal's is said to be one.

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{EntityKind, FactType, IdType};
use md5::{Digest, Md5};

use super::Located;
use super::prefs::prefs_of;
use crate::calls::note_pages_cap;
use crate::drafts::{Draft, record_draft, unix_millis};
use crate::identity::{args_on, artefact_name, normalized, observe, pages_on_args, schema_on_args};
use crate::ios::signal::{Header, sqlcipher};
use crate::outputs::raw;

fn md5_hex(s: &str) -> String {
    Md5::digest(s.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Triage of WeChat's and Signal's files found.
pub fn triage(ctx: &AgentCtx<'_>, found: &[Located]) -> Result<(), RuntimeError> {
    let named = |n: &'static str| found.iter().filter(move |l| l.name() == n);
    let mut uins: Vec<(String, String)> = Vec::new();
    for l in named("com.tencent.mm_preferences.xml").chain(named("auth_info_key_prefs.xml")) {
        ctx.artefact(&artefact_name(&l.tree, &l.path), || {
            wechat_prefs(ctx, l, &mut uins)
        })?;
    }
    // the IMEI WeChat read on this phone (before Android 10), which its key is derived from
    let mut imeis: Vec<String> = Vec::new();
    for l in named("CompatibleInfo.cfg").filter(|l| l.path.contains("/com.tencent.mm/")) {
        ctx.artefact(&artefact_name(&l.tree, &l.path), || {
            compatible_info(ctx, l, &mut imeis)
        })?;
    }
    imeis.extend(IMEIS.iter().map(|i| i.to_string()));
    imeis.dedup();
    for l in named("EnMicroMsg.db") {
        ctx.artefact(&artefact_name(&l.tree, &l.path), || {
            en_micro_msg(ctx, l, &uins, &imeis)
        })?;
    }
    for l in named("org.thoughtcrime.securesms_preferences.xml") {
        ctx.artefact(&artefact_name(&l.tree, &l.path), || signal_prefs(ctx, l))?;
    }
    Ok(())
}

/// The IMEIs WeChat derives a key from that are tried after the one its `CompatibleInfo.cfg`
/// keeps: the one it uses where Android lets it read no IMEI (Android 10 and later, and any
/// phone without the permission).
const IMEIS: [&str; 1] = ["1234567890ABCDEF"];

/// The key of WeChat's `MicroMsg/CompatibleInfo.cfg` (a Java-serialised `HashMap`) that holds
/// the device id WeChat read: the IMEI its database key is derived from.
const IMEI_KEY: i64 = 258;

/// WeChat's `CompatibleInfo.cfg` (`read_java`): the device id at key 258 — the IMEI WeChat read,
/// which its database key is derived from (added to `imeis`) — as a device phenomenon, and the
/// device's IMEI when it is one (14 to 16 digits).
fn compatible_info(
    ctx: &AgentCtx<'_>,
    l: &Located,
    imeis: &mut Vec<String>,
) -> Result<(), RuntimeError> {
    let name = artefact_name(&l.tree, &l.path);
    let Some(inv) = crate::calls::call_or_note(
        ctx,
        &name,
        "read_java",
        args_on(&l.tree, serde_json::json!({"path": l.path})),
    )?
    else {
        return Ok(());
    };
    let doc: Option<serde_json::Value> = inv
        .output
        .text
        .split_once('\n')
        .and_then(|(_, body)| serde_json::from_str(body).ok());
    let id = doc.as_ref().and_then(|d| {
        d.as_array()?
            .iter()
            .filter_map(|c| c.get("@entries")?.as_array())
            .flatten()
            .find(|e| e.get("key").and_then(|k| k.as_i64()) == Some(IMEI_KEY))?
            .get("value")?
            .as_str()
            .map(|v| v.trim().to_string())
            .filter(|v| !v.is_empty())
    });
    let Some(id) = id else {
        ctx.unparsed(
            &name,
            "could not parse WeChat's CompatibleInfo.cfg because it holds no map with a device id at key 258",
            Some(&inv.record.invocation_id),
        )?;
        return Ok(());
    };
    let imei = (14..=16).contains(&id.len()) && id.chars().all(|c| c.is_ascii_digit());
    let mut d = crate::drafts::Draft::new("device", format!("WeChat device id {id}"));
    d.fact(FactType::Path, Some(&l.path), &l.found);
    d.fact(
        if imei {
            FactType::Imei
        } else {
            FactType::Identifier
        },
        Some(&id),
        &inv,
    );
    d.interpretation = format!(
        "{} (a Java-serialised map WeChat keeps) holds at key 258 the device id WeChat read, {id}{}; WeChat derives its database key from it (md5 of it and the account's uin).",
        l.name(),
        if imei { ", an IMEI" } else { "" }
    );
    crate::drafts::record_draft(ctx, d)?;
    if imei {
        crate::identity::observe(
            ctx,
            "device",
            EntityKind::Device,
            "Android device",
            IdType::Imei,
            &id,
            &inv,
            format!(
                "The IMEI WeChat read on this device, as its {} keeps it (key 258).",
                l.name()
            ),
        )?;
    }
    imeis.push(id);
    Ok(())
}

/// An `EnMicroMsg.db`: a copy already decrypted is read; an encrypted one is opened with the key
/// WeChat derives, md5(IMEI + uin), of the account whose uin names its folder and each of
/// `imeis` (the one `CompatibleInfo.cfg` keeps, then [`IMEIS`]) (`sqlite_query`'s `cipher`, profile `wechat_android`: the key derived by the tool,
/// never printed); else named and noted.
fn en_micro_msg(
    ctx: &AgentCtx<'_>,
    l: &Located,
    uins: &[(String, String)],
    imeis: &[String],
) -> Result<(), RuntimeError> {
    let name = artefact_name(&l.tree, &l.path);
    let Some((inv, header)) = sqlcipher(
        ctx,
        &name,
        args_on(&l.tree, serde_json::json!({"path": l.path})),
    )?
    else {
        return Ok(());
    };
    let mut tried = Vec::new();
    if let Header::Encrypted(_) = &header {
        let folder = l
            .path
            .rsplit('/')
            .nth(1)
            .unwrap_or_default()
            .to_ascii_lowercase();
        for (uin, _) in uins
            .iter()
            .filter(|(uin, _)| md5_hex(&format!("mm{uin}")) == folder)
        {
            for imei in imeis {
                let mut extra = serde_json::Map::new();
                extra.insert(
                    "cipher".into(),
                    serde_json::json!({"profile": "wechat_android", "imei": imei, "uin": uin}),
                );
                // a key that does not open it is said in the note below, not one note each
                let invoked = ctx.call(
                    "sqlite_query",
                    args_on(
                        &l.tree,
                        serde_json::json!({"path": l.path, "sql": crate::outputs::SCHEMA_SQL, "limit": 100_000, "cipher": extra["cipher"]}),
                    ),
                )?;
                if crate::calls::succeeded(&invoked) {
                    let t = crate::outputs::Table::parse(&invoked.output.text);
                    return decrypted(ctx, l, &extra, &crate::outputs::columns_by_table(&t));
                }
                tried.push(format!(
                    "the key of IMEI {imei} and uin {uin} ({})",
                    crate::calls::failure_reason(&invoked)
                ));
            }
        }
    }
    let mut note = wechat_key_note(l, uins);
    if !tried.is_empty() {
        note = format!("{note}; tried {}", tried.join("; "));
    }
    encrypted_as(ctx, l, "WeChat", &note, &inv, header)
}

/// What the key of an `EnMicroMsg.db` is derived from, with the account whose uin names its
/// folder when one was read.
fn wechat_key_note(l: &Located, uins: &[(String, String)]) -> String {
    let folder = l
        .path
        .rsplit('/')
        .nth(1)
        .unwrap_or_default()
        .to_ascii_lowercase();
    match uins
        .iter()
        .find(|(uin, _)| md5_hex(&format!("mm{uin}")) == folder)
    {
        Some((uin, who)) => {
            format!("key derived from IMEI+uin (its folder is md5(\"mm\" + uin) of uin {uin}{who})")
        }
        None => "key derived from IMEI+uin".to_string(),
    }
}

fn wechat_prefs(
    ctx: &AgentCtx<'_>,
    l: &Located,
    uins: &mut Vec<(String, String)>,
) -> Result<(), RuntimeError> {
    let Some((inv, prefs)) = prefs_of(ctx, l)? else {
        return Ok(());
    };
    let get = |k: &str| {
        prefs
            .iter()
            .find(|(n, _)| n == k)
            .map(|(_, v)| v.clone())
            .filter(|v| !v.trim().is_empty())
    };
    let wxid = get("login_weixin_username");
    let uin = get("last_login_uin").or_else(|| get("_auth_uin"));
    if wxid.is_none() && uin.is_none() {
        ctx.unparsed(
            &artefact_name(&l.tree, &l.path),
            "could not parse WeChat's preferences because neither login_weixin_username nor a uin is set",
            Some(&inv.record.invocation_id),
        )?;
        return Ok(());
    }
    let alias = get("last_login_alias");
    let nick = get("last_login_nick_name");
    let mobile = get("last_login_bind_mobile");
    let login = get("login_user_name");
    if let Some(u) = &uin {
        uins.push((
            u.clone(),
            wxid.as_deref()
                .map(|w| format!(", the account {w}"))
                .unwrap_or_default(),
        ));
    }
    let mut d = Draft::new(
        "accounts",
        format!(
            "WeChat account {}",
            wxid.as_deref().or(uin.as_deref()).unwrap_or("?")
        ),
    );
    d.fact(FactType::Path, Some(&l.path), &l.found);
    d.fact(FactType::Account, wxid.as_deref(), &inv);
    d.fact(FactType::Identifier, uin.as_deref(), &inv);
    d.fact(FactType::Account, alias.as_deref(), &inv);
    d.fact(FactType::Name, nick.as_deref(), &inv);
    d.fact(FactType::Phone, mobile.as_deref(), &inv);
    d.fact(FactType::Account, login.as_deref(), &inv);
    d.interpretation = format!(
        "WeChat's preferences ({}): the signed-in account {}, uin {}, WeChat ID {}, nickname {}, bound mobile {}, login name {}.",
        l.name(),
        wxid.as_deref().unwrap_or("(not kept here)"),
        uin.as_deref().unwrap_or("(not kept here)"),
        alias.as_deref().unwrap_or("(none)"),
        nick.as_deref().unwrap_or("(none)"),
        mobile.as_deref().unwrap_or("(none)"),
        login.as_deref().unwrap_or("(none)"),
    );
    record_draft(ctx, d)?;
    let label = nick.clone().or(wxid.clone()).unwrap_or_default();
    let why = |what: &str| {
        format!(
            "{what} of the WeChat account signed in on the device ({}).",
            l.name()
        )
    };
    let mut ids = vec![
        (IdType::Wechat, wxid.clone(), "The WeChat user name"),
        (IdType::Wechat, alias.clone(), "The WeChat ID (alias)"),
        (IdType::DisplayName, nick.clone(), "The WeChat nickname"),
        (IdType::Phone, mobile.clone(), "The bound mobile number"),
    ];
    if let Some(login) = login {
        // the name it signs in with: a phone number, an e-mail address or the WeChat ID
        let t = if login.contains('@') {
            IdType::Email
        } else if normalized(ctx, IdType::Phone, &login).is_some() {
            IdType::Phone
        } else {
            IdType::Wechat
        };
        ids.push((t, Some(login), "The login name"));
    }
    for (t, v, what) in ids {
        if let Some(v) = v {
            observe(
                ctx,
                "owner",
                EntityKind::Person,
                &label,
                t,
                &v,
                &inv,
                why(what),
            )?;
        }
    }
    Ok(())
}

/// An app database expected to be SQLCipher-encrypted: a phenomenon naming it and a note.
pub(super) fn encrypted(
    ctx: &AgentCtx<'_>,
    l: &Located,
    app: &str,
    key: &str,
) -> Result<(), RuntimeError> {
    let name = artefact_name(&l.tree, &l.path);
    let Some((inv, header)) = sqlcipher(
        ctx,
        &name,
        args_on(&l.tree, serde_json::json!({"path": l.path})),
    )?
    else {
        return Ok(());
    };
    encrypted_as(ctx, l, app, key, &inv, header)
}

/// [`encrypted`] of a database whose first bytes `inv` (`sqlcipher`) already read.
pub(super) fn encrypted_as(
    ctx: &AgentCtx<'_>,
    l: &Located,
    app: &str,
    key: &str,
    inv: &masf_tools::Invoked,
    header: Header,
) -> Result<(), RuntimeError> {
    let name = artefact_name(&l.tree, &l.path);
    if matches!(header, Header::Sqlite) && app == "WeChat" {
        // a copy decrypted with its key: read as the app keeps it
        let plain = serde_json::Map::new();
        return match schema_on_args(ctx, &l.tree, &l.path, &plain)? {
            Some(schema) => decrypted(ctx, l, &plain, &schema),
            None => Ok(()),
        };
    }
    let (state, reason) = match header {
        Header::Encrypted(why) => (
            "encrypted",
            format!(
                "could not parse {app}'s {}: encrypted (SQLCipher), {key}, not read: {why}",
                l.name()
            ),
        ),
        Header::Other(why) => (
            "unreadable",
            format!("could not parse {app}'s {}: {why}", l.name()),
        ),
        Header::Sqlite => (
            "not encrypted",
            format!(
                "{app}'s {} is a plain SQLite file (a decrypted copy): its tables are not read by this version",
                l.name()
            ),
        ),
    };
    let mut d = Draft::new("messages", format!("{app} {} ({state})", l.name()));
    d.fact(FactType::Path, Some(&l.path), &l.found);
    d.interpretation = format!(
        "{app} is installed and keeps its messages in {}, {state}{}.",
        l.name(),
        if state == "encrypted" {
            " with SQLCipher: its messages are not read"
        } else {
            ""
        }
    );
    record_draft(ctx, d)?;
    ctx.unparsed(&name, &reason, Some(&inv.record.invocation_id))
}

/// A decrypted `EnMicroMsg.db`: every contact (`rcontact`: user name, alias, the owner's remark,
/// nickname) and every message (`message`: local and server ids, type, `isSend`, `createTime` in
/// Unix milliseconds, `talker`, content; a group's received text starts with `<sender>:\n`).
fn decrypted(
    ctx: &AgentCtx<'_>,
    l: &Located,
    extra: &serde_json::Map<String, serde_json::Value>,
    schema: &std::collections::BTreeMap<String, std::collections::BTreeSet<String>>,
) -> Result<(), RuntimeError> {
    use super::line::col;
    let name = artefact_name(&l.tree, &l.path);
    let (Some(ccols), Some(mcols)) = (schema.get("rcontact"), schema.get("message")) else {
        let tables: Vec<&str> = schema.keys().map(String::as_str).collect();
        ctx.unparsed(
            &name,
            &format!(
                "could not parse WeChat's decrypted EnMicroMsg.db because it lacks {} (unexpected schema; tables: {})",
                ["rcontact", "message"]
                    .into_iter()
                    .filter(|t| !schema.contains_key(*t))
                    .collect::<Vec<_>>()
                    .join(", "),
                if tables.is_empty() {
                    "none".to_string()
                } else {
                    tables.join(", ")
                }
            ),
            None,
        )?;
        return Ok(());
    };
    let ccols: Vec<String> = ccols.iter().cloned().collect();
    let mcols: Vec<String> = mcols.iter().cloned().collect();
    let missing: Vec<String> = [
        ("rcontact", &ccols, &["username"][..]),
        (
            "message",
            &mcols,
            &["msgId", "isSend", "createTime", "talker", "content"][..],
        ),
    ]
    .iter()
    .flat_map(|(t, cols, need)| {
        need.iter()
            .filter(|c| !cols.iter().any(|x| x == *c))
            .map(move |c| format!("{t}.{c}"))
    })
    .collect();
    if !missing.is_empty() {
        ctx.unparsed(
            &name,
            &format!(
                "could not parse WeChat's decrypted EnMicroMsg.db because it lacks {} (unexpected schema)",
                missing.join(", ")
            ),
            None,
        )?;
        return Ok(());
    }
    let sql = format!(
        "SELECT rowid AS rid, username, {}, {}, {}, {} FROM rcontact ORDER BY rowid",
        col(&ccols, "alias", "alias"),
        col(&ccols, "conRemark", "remark"),
        col(&ccols, "nickname", "nickname"),
        col(&ccols, "type", "type"),
    );
    if let Some(pages) = pages_on_args(ctx, &l.tree, &l.path, &sql, extra)? {
        note_pages_cap(ctx, &name, &pages, "WeChat contacts")?;
        for (inv, t, row) in pages.rows() {
            let Some(user) = raw(t, row, "username").filter(|u| !u.is_empty()) else {
                continue;
            };
            let alias = raw(t, row, "alias").filter(|v| !v.is_empty());
            let remark = raw(t, row, "remark").filter(|v| !v.is_empty());
            let nick = raw(t, row, "nickname").filter(|v| !v.is_empty());
            let group = user.ends_with("@chatroom");
            let kind = if group {
                "group"
            } else if user.starts_with("gh_") {
                "official account"
            } else {
                "contact"
            };
            let mut d = Draft::new("contacts", format!("WeChat {kind} {user}"));
            d.fact(FactType::Path, Some(&l.path), &l.found);
            d.fact(FactType::Account, Some(&user), inv);
            d.fact(FactType::Account, alias.as_deref(), inv);
            d.fact(FactType::Name, nick.as_deref(), inv);
            d.fact(FactType::Name, remark.as_deref(), inv);
            d.interpretation = format!(
                "A WeChat {kind} of the account (rcontact of the decrypted {}): user name {user}, WeChat ID {}, nickname {}, remark {}.",
                l.name(),
                alias.as_deref().unwrap_or("(none)"),
                nick.as_deref().unwrap_or("(none)"),
                remark.as_deref().unwrap_or("(none)"),
            );
            record_draft(ctx, d)?;
            if kind == "official account" {
                continue;
            }
            let label = remark.clone().or(nick.clone()).unwrap_or(user.clone());
            let context = format!("wechat:{user}");
            let why = |what: &str| format!("{what} of the WeChat {kind} {user} ({}).", l.name());
            let entity = if group {
                EntityKind::Account
            } else {
                EntityKind::Person
            };
            for (t, v, what) in [
                (IdType::Wechat, Some(user.clone()), "The user name"),
                (IdType::Wechat, alias.clone(), "The WeChat ID (alias)"),
                (IdType::DisplayName, nick.clone(), "The nickname"),
                (IdType::Nickname, remark.clone(), "The remark"),
            ] {
                if let Some(v) = v.filter(|_| !group || t != IdType::Nickname) {
                    observe(ctx, &context, entity, &label, t, &v, inv, why(what))?;
                }
            }
        }
    }
    let sql = format!(
        "SELECT msgId, {}, {}, isSend, createTime, talker, content FROM message ORDER BY msgId",
        col(&mcols, "msgSvrId", "server_id"),
        col(&mcols, "type", "type"),
    );
    let Some(pages) = pages_on_args(ctx, &l.tree, &l.path, &sql, extra)? else {
        return Ok(());
    };
    note_pages_cap(ctx, &name, &pages, "WeChat messages")?;
    for (inv, t, row) in pages.rows() {
        let id = t.get(row, "msgId").unwrap_or("?");
        let sent = t.get(row, "isSend") == Some("1");
        let talker = raw(t, row, "talker").filter(|v| !v.is_empty());
        let body = t.get(row, "content").unwrap_or("");
        let group = talker.as_deref().is_some_and(|t| t.ends_with("@chatroom"));
        let sender = body.split_once(":\n").map(|(w, _)| w).filter(|w| {
            group
                && !sent
                && !w.is_empty()
                && w.len() <= 64
                && w.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "_-".contains(c))
        });
        let with = talker.as_deref().unwrap_or("?");
        let mut d = Draft::new(
            "messages",
            match (sent, sender) {
                (true, _) => format!("WeChat message {id} sent to {with}"),
                (false, Some(s)) => format!("WeChat message {id} from {s} in {with}"),
                (false, None) => format!("WeChat message {id} from {with}"),
            },
        );
        d.fact(FactType::Path, Some(&l.path), &l.found);
        d.fact(FactType::Account, talker.as_deref(), inv);
        d.fact(FactType::Account, sender, inv);
        d.fact(FactType::Text, raw(t, row, "content").as_deref(), inv);
        d.fact(
            FactType::Identifier,
            raw(t, row, "server_id").as_deref(),
            inv,
        );
        let ts = raw(t, row, "createTime");
        d.time(
            ts.as_deref(),
            unix_millis(ts.as_deref()),
            if sent {
                "Message sent"
            } else {
                "Message received"
            },
            inv,
        );
        d.interpretation = format!(
            "message msgId {id} of the decrypted {}: {} {with} (isSend {}, type {}); createTime is Unix milliseconds.",
            l.name(),
            if sent {
                "sent by the account to"
            } else {
                "received by the account in the conversation with"
            },
            t.get(row, "isSend").unwrap_or("?"),
            t.get(row, "type").unwrap_or("?"),
        );
        record_draft(ctx, d)?;
        if t.get(row, "type") != Some("1") {
            continue;
        }
        let other = match (group, sender) {
            (false, _) => talker.clone(),
            (true, Some(s)) => Some(s.to_string()),
            (true, None) => None,
        };
        let context = other.map(|o| format!("wechat:{o}"));
        let mark = if sent { "isSend 1" } else { "isSend 0" };
        super::apps::claims_by_direction(
            ctx,
            inv,
            body,
            &format!("WeChat message {id} ({})", l.name()),
            sent,
            context.as_deref(),
            mark,
        )?;
    }
    Ok(())
}

fn signal_prefs(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some((inv, prefs)) = prefs_of(ctx, l)? else {
        return Ok(());
    };
    let get = |k: &str| prefs.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone());
    let number = get("pref_local_number");
    let uuid = get("pref_local_uuid");
    if number.is_none() && uuid.is_none() {
        // newer clients keep the registration in their encrypted key-value store
        return Ok(());
    }
    let mut d = Draft::new(
        "accounts",
        format!(
            "Signal account {}",
            number.as_deref().or(uuid.as_deref()).unwrap_or("?")
        ),
    );
    d.fact(FactType::Path, Some(&l.path), &l.found);
    d.fact(FactType::Phone, number.as_deref(), &inv);
    d.fact(FactType::Identifier, uuid.as_deref(), &inv);
    d.interpretation = format!(
        "Signal's preferences ({}): the number Signal is registered with, {}, and its account id {}.",
        l.name(),
        number.as_deref().unwrap_or("(not kept here)"),
        uuid.as_deref().unwrap_or("(not kept here)"),
    );
    record_draft(ctx, d)?;
    if let Some(n) = number {
        observe(
            ctx,
            "owner",
            EntityKind::Person,
            "device owner",
            IdType::Phone,
            &n,
            &inv,
            format!(
                "The number Signal is registered with on the device ({}).",
                l.name()
            ),
        )?;
    }
    Ok(())
}
