//! Roblox (`com.roblox.client`), ALEAPP's `roblox` (`roblox_account`,
//! `roblox_previous_accounts`, `roblox_game_activity`): the account signed in, the accounts the
//! app's account picker remembers, and the games the client joined.
//!
//! | file | phenomenon | fields |
//! |---|---|---|
//! | `files/appData/LocalStorage/appStorage.json` | one `accounts` for the account signed in ("Roblox account <user name>") | user id, user name, display name, under 13, country, membership, last sign-in method and the credential it used (a user name, e-mail or phone as stored), locale, and from `PlayerHydrationBlob` (JSON inside the JSON, decoded by `read_json`) the account's creation (Unix ms), age bracket, gender |
//! | the same, `PreviousAccountsList` | one `accounts` per remembered account ("Roblox account remembered: <user name>") | user id, user name, display name, shown in the picker, signed out (Unix s) |
//! | `files/appData/logs/<version>_<time>_Player_<id>_<suffix>.log` | one `app_usage` per game joined ("Roblox game joined: place <id>") | when (the line's ISO time), place id, job id, the game server's address, the analytics session id, and from the `game_join_loadtime` report of that place the universe id, user id and referral page |
//!
//! Identities: the signed-in account is the device's user's (`owner`): `roblox:<user id>`
//! (qualified by `read_json`), the user name, the display name. A remembered account is a
//! `roblox:<user id>` person of its own: the picker lists accounts the client held credentials
//! for, which does not say who used them (said). A server address is the game's, not the
//! user's. A file that is not the JSON expected is noted; logs past 4 MiB are read in their first
//! 4 MiB (noted).

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{EntityKind, FactType, IdType};
use masf_tools::Invoked;
use serde_json::{Value, json};

use super::Located;
use crate::drafts::{Draft, date_text, record_draft, unix_millis, unix_seconds};
use crate::identity::{args_on, artefact_name};
use crate::outputs::json_scalar;

/// Most bytes of one client log read.
const LOG_MAX: u64 = 4 << 20;

/// Whether `l` is the client's key-value store.
pub fn is_storage(l: &Located) -> bool {
    l.path
        .ends_with("/com.roblox.client/files/appData/LocalStorage/appStorage.json")
}

/// Whether `l` is one of the client's Player logs.
pub fn is_log(l: &Located) -> bool {
    l.path.contains("/com.roblox.client/files/appData/logs/")
        && l.name().ends_with(".log")
        && l.name().contains("_Player_")
}

/// `appStorage.json`: the account, then the remembered ones.
pub fn storage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let name = artefact_name(&l.tree, &l.path);
    let Some(inv) = crate::calls::call_or_note(
        ctx,
        &name,
        "read_json",
        args_on(
            &l.tree,
            json!({
                "path": l.path,
                "decode_nested": true,
                "qualify": {"UserId": "roblox", "userId": "roblox"},
            }),
        ),
    )?
    else {
        return Ok(());
    };
    let Some(doc) = crate::outputs::json_document(&inv.output.text).filter(Value::is_object) else {
        ctx.unparsed(
            &name,
            "could not parse Roblox's appStorage.json because it is not a JSON object",
            Some(&inv.record.invocation_id),
        )?;
        return Ok(());
    };
    let s = |k: &str| json_scalar(doc.get(k)).filter(|v| !v.is_empty());
    if s("UserId").is_some() || s("Username").is_some() {
        account(ctx, l, &inv, &doc)?;
    }
    if let Some(list) = doc.get("PreviousAccountsList").and_then(Value::as_object) {
        for (key, entry) in list {
            if !entry.is_object() {
                ctx.unparsed(
                    &name,
                    &format!(
                        "could not parse the remembered Roblox account {key} because its entry is not an object"
                    ),
                    Some(&inv.record.invocation_id),
                )?;
                continue;
            }
            remembered(ctx, l, &inv, key, entry)?;
        }
    }
    Ok(())
}

/// The account signed in.
fn account(
    ctx: &AgentCtx<'_>,
    l: &Located,
    inv: &Invoked,
    doc: &Value,
) -> Result<(), RuntimeError> {
    let s = |k: &str| json_scalar(doc.get(k)).filter(|v| !v.is_empty());
    let blob = doc.get("PlayerHydrationBlob").filter(|b| b.is_object());
    let b = |k: &str| json_scalar(blob.and_then(|b| b.get(k))).filter(|v| !v.is_empty());
    let user = s("Username").or_else(|| s("UserId")).unwrap_or_default();
    let mut d = Draft::new("accounts", format!("Roblox account {user}"));
    d.fact(FactType::Path, Some(&l.path), &l.found);
    let mut said = d.json_fields(
        doc,
        inv,
        &[
            ("UserId", FactType::Account, "user id"),
            ("Username", FactType::Account, "user name"),
            ("DisplayName", FactType::Name, "display name"),
            ("IsUnder13", FactType::Text, "under 13"),
            ("CountryCode", FactType::Text, "country"),
            ("Membership", FactType::Text, "membership"),
            ("LastSuccessfulSignInMethod", FactType::Text, "signed in by"),
            ("CredentialValue", FactType::Text, "with"),
            ("RobloxLocaleId", FactType::Text, "locale"),
        ],
    );
    if let Some(blob) = blob {
        said.extend(d.json_fields(
            blob,
            inv,
            &[
                ("ageBracket", FactType::Text, "age bracket"),
                ("gender", FactType::Text, "gender"),
            ],
        ));
    }
    let created = b("originalAccountCreationTimestampMs");
    d.time(
        created.as_deref(),
        unix_millis(created.as_deref()),
        "Roblox account created",
        inv,
    );
    d.interpretation = format!(
        "appStorage.json of {}: the Roblox account signed in on the phone ({}); the account's creation is Unix milliseconds (PlayerHydrationBlob, JSON kept as text and decoded).",
        l.path,
        said.join("; ")
    );
    record_draft(ctx, d)?;
    crate::identity::observe_owner_ids(
        ctx,
        inv,
        vec![
            (
                s("UserId.qualified"),
                IdType::AccountId,
                "The Roblox user id",
            ),
            (s("Username"), IdType::Nickname, "The Roblox user name"),
            (
                s("DisplayName"),
                IdType::DisplayName,
                "The Roblox display name",
            ),
        ],
        &|what| {
            format!(
                "{what} of the Roblox account signed in on the device (appStorage.json), the device's user."
            )
        },
    )?;
    Ok(())
}

/// One account the account picker remembers.
fn remembered(
    ctx: &AgentCtx<'_>,
    l: &Located,
    inv: &Invoked,
    key: &str,
    entry: &Value,
) -> Result<(), RuntimeError> {
    let s = |k: &str| json_scalar(entry.get(k)).filter(|v| !v.is_empty());
    let user = s("username")
        .or_else(|| s("userId"))
        .unwrap_or_else(|| key.to_string());
    let mut d = Draft::new("accounts", format!("Roblox account remembered: {user}"));
    d.fact(FactType::Path, Some(&l.path), &l.found);
    let said = d.json_fields(
        entry,
        inv,
        &[
            ("userId", FactType::Account, "user id"),
            ("username", FactType::Account, "user name"),
            ("displayName", FactType::Name, "display name"),
            ("userIdentifier", FactType::Text, "identifier"),
            ("showInAccountPicker", FactType::Text, "shown in the picker"),
        ],
    );
    let out = s("signOutTimestamp");
    d.time(
        out.as_deref(),
        unix_seconds(out.as_deref()),
        "Roblox account signed out",
        inv,
    );
    d.interpretation = format!(
        "PreviousAccountsList of {} (key {key}): an account the Roblox client held credentials for and lists in its account picker ({}); it does not say who used it. signOutTimestamp is Unix seconds.",
        l.path,
        said.join("; ")
    );
    record_draft(ctx, d)?;
    let Some(qualified) = s("userId.qualified") else {
        return Ok(());
    };
    for (k, id_type, what) in [
        ("userId.qualified", IdType::AccountId, "The Roblox user id"),
        ("username", IdType::Nickname, "The Roblox user name"),
        (
            "displayName",
            IdType::DisplayName,
            "The Roblox display name",
        ),
    ] {
        if let Some(v) = s(k) {
            crate::identity::observe(
                ctx,
                &qualified,
                EntityKind::Person,
                &user,
                id_type,
                &v,
                inv,
                format!(
                    "{what} of a Roblox account the phone's client remembers ({})",
                    l.path
                ),
            )?;
        }
    }
    Ok(())
}

/// The `key=value&…` pairs of a `game_join_loadtime` report.
fn report_fields(body: &str) -> Vec<(&str, &str)> {
    body.split('&')
        .filter_map(|kv| kv.split_once('='))
        .collect()
}

/// One client log: a phenomenon per game joined.
pub fn log(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let name = artefact_name(&l.tree, &l.path);
    let Some(inv) = crate::calls::call_or_note(
        ctx,
        &name,
        "read_text",
        args_on(&l.tree, json!({"path": l.path, "length": LOG_MAX})),
    )?
    else {
        return Ok(());
    };
    let text = &inv.output.text;
    if text.len() as u64 >= LOG_MAX {
        ctx.unparsed(
            &name,
            &format!("the Roblox log is larger than {LOG_MAX} bytes: only its first {LOG_MAX} bytes were read"),
            Some(&inv.record.invocation_id),
        )?;
    }
    let lines: Vec<&str> = text.lines().collect();
    let mut session: Option<&str> = None;
    for (i, line) in lines.iter().enumerate() {
        if let Some(rest) = line.split("AnalyticsSessionId is ").nth(1) {
            session = rest.split_whitespace().next();
        }
        let Some(rest) = line.split("! Joining game '").nth(1) else {
            continue;
        };
        let Some((job, rest)) = rest.split_once("' place ") else {
            continue;
        };
        let mut words = rest.split_whitespace();
        let (Some(place), Some("at"), server) = (words.next(), words.next(), words.next()) else {
            continue;
        };
        let stamp = line
            .split(',')
            .next()
            .filter(|s| date_text(Some(s)).is_some());
        let report = lines[i + 1..]
            .iter()
            .filter_map(|l| l.split("Report game_join_loadtime: ").nth(1))
            .map(report_fields)
            .find(|f| f.iter().any(|(k, v)| *k == "placeid" && *v == place));
        let field = |k: &str| {
            report
                .as_ref()
                .and_then(|f| f.iter().find(|(fk, _)| *fk == k).map(|(_, v)| *v))
        };
        let mut d = Draft::new("app_usage", format!("Roblox game joined: place {place}"));
        d.fact(FactType::Path, Some(&l.path), &l.found);
        d.fact(FactType::Identifier, Some(place), &inv);
        d.fact(FactType::Identifier, Some(job), &inv);
        d.fact(FactType::Text, server, &inv);
        d.fact(FactType::Identifier, session, &inv);
        let mut said = vec![format!("place {place}"), format!("job {job}")];
        for (k, ft, what) in [
            ("universeid", FactType::Identifier, "universe"),
            ("userid", FactType::Account, "user id"),
            ("referral_page", FactType::Text, "from"),
        ] {
            if let Some(v) = field(k).filter(|v| !v.is_empty()) {
                d.fact(ft, Some(v), &inv);
                said.push(format!("{what} {v}"));
            }
        }
        d.time(stamp, date_text(stamp), "Roblox game joined", &inv);
        d.interpretation = format!(
            "line {} of {}: the Roblox client joined a game ({}{}){}; the time is the line's own (ISO 8601, UTC).",
            i + 1,
            l.path,
            said.join(", "),
            server
                .map(|s| format!(", on the game server {s}: the game's address, not the user's"))
                .unwrap_or_default(),
            session
                .map(|s| format!(" in analytics session {s}"))
                .unwrap_or_default(),
        );
        record_draft(ctx, d)?;
    }
    Ok(())
}
