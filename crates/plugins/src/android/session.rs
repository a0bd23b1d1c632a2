//! Session (`network.loki.messenger`, the Signal-derived messenger), the fields of ALEAPP's
//! `session_account` and `session_preferences`:
//!
//! - `shared_prefs/network.loki.messenger_preferences.xml` (read by `read_xml`, the Account ID
//!   qualified by its `qualify`): one `accounts` phenomenon — the Session Account ID
//!   (`pref_local_number`, 66 hexadecimal digits starting `05`), profile name, avatar URL and
//!   id, profile key, local registration id, has viewed the recovery phrase (as stored), last
//!   version code, last profile update and last profile picture upload (Unix ms; 0 is no time) —
//!   and one `accounts` phenomenon listing every other key with its type and value, as
//!   ALEAPP's preferences view lists them, except the wrapped passphrases
//!   (`pref_*_encrypted_secret`), which are named but not copied;
//! - the message and config stores `databases/signal_v4.db` and `session.db`: SQLCipher, their
//!   passphrase wrapped by a key of the Android keystore; detected and said, not read.
//!
//! Identities: the Account ID is the device's user (`owner`, `session:<Account ID>`), the
//! profile name its display name.

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{EntityKind, FactType, IdType};

use super::Located;
use crate::drafts::{Draft, record_draft, unix_millis};
use crate::identity::observe;

/// Whether `l` is Session's preferences file.
pub fn is_prefs(l: &Located) -> bool {
    l.path
        .ends_with("/network.loki.messenger/shared_prefs/network.loki.messenger_preferences.xml")
}

/// Whether `l` is one of Session's encrypted stores.
pub fn is_store(l: &Located) -> bool {
    l.path.contains("/network.loki.messenger/databases/")
        && matches!(l.name(), "signal_v4.db" | "session.db")
}

/// One of Session's SQLCipher stores: detected and said.
pub fn store(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    super::wechat::encrypted(
        ctx,
        l,
        "Session",
        "its passphrase is wrapped by a key of the Android keystore (pref_database_encrypted_secret)",
    )
}

/// The preferences file (see the module documentation).
pub fn prefs(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some((inv, prefs)) = super::prefs::prefs_xml(
        ctx,
        l,
        "Session",
        Some(serde_json::json!({"pref_local_number": "session"})),
    )?
    else {
        return Ok(());
    };
    let get = |k: &str| super::prefs::pref(&prefs, k);
    let id = get("pref_local_number");
    let profile = get("pref_profile_name");
    let mut d = Draft::new(
        "accounts",
        format!(
            "Session account {}",
            id.as_deref().unwrap_or("(no Account ID stored)")
        ),
    );
    d.fact(FactType::Path, Some(&l.path), &l.found);
    d.fact(FactType::Account, id.as_deref(), &inv);
    d.fact(FactType::Name, profile.as_deref(), &inv);
    d.fact(
        FactType::Url,
        get("pref_profile_avatar_url").as_deref(),
        &inv,
    );
    for k in [
        "pref_profile_avatar_id",
        "pref_profile_key",
        "pref_local_registration_id",
    ] {
        d.fact(FactType::Identifier, get(k).as_deref(), &inv);
    }
    for k in ["has_viewed_seed", "last_version_code"] {
        d.fact(FactType::Text, get(k).as_deref(), &inv);
    }
    for (k, what) in [
        ("pref_last_profile_update_time", "Profile last updated"),
        (
            "last_profile_picture_upload",
            "Profile picture last uploaded",
        ),
    ] {
        let v = get(k);
        d.time(v.as_deref(), unix_millis(v.as_deref()), what, &inv);
    }
    d.interpretation = format!(
        "{}: the Session account on the device, Account ID {} (pref_local_number){}; has viewed the recovery phrase: {} (as stored). Its message stores are encrypted.",
        l.name(),
        id.as_deref().unwrap_or("not stored"),
        profile
            .as_deref()
            .map(|p| format!(", profile name {p}"))
            .unwrap_or_default(),
        get("has_viewed_seed").as_deref().unwrap_or("not stored"),
    );
    record_draft(ctx, d)?;
    // every other key, as ALEAPP's preferences view lists them (wrapped passphrases named only)
    let mut rest = Draft::new("accounts", "Session preferences");
    rest.fact(FactType::Path, Some(&l.path), &l.found);
    let mut listed = Vec::new();
    let mut secrets = Vec::new();
    for (k, v) in &prefs {
        if k.ends_with("_encrypted_secret") {
            secrets.push(k.as_str());
            continue;
        }
        // keys and values as the XML holds them (escaped); one the output lacks is said only
        for x in [k, v] {
            if inv.output.text.contains(x.as_str()) {
                rest.fact(FactType::Text, Some(x), &inv);
            }
        }
        listed.push(format!("{k} = {v}"));
    }
    rest.interpretation = format!(
        "{}: Session's preferences, key by key: {}{}.",
        l.name(),
        listed.join("; "),
        if secrets.is_empty() {
            String::new()
        } else {
            format!(
                "; the wrapped passphrases {} are present and not copied",
                secrets.join(", ")
            )
        }
    );
    record_draft(ctx, rest)?;
    if let Some(qualified) = inv
        .output
        .text
        .lines()
        .find_map(|line| line.strip_prefix("# qualified pref_local_number: "))
    {
        observe(
            ctx,
            "owner",
            EntityKind::Person,
            "device owner",
            IdType::AccountId,
            qualified,
            &inv,
            format!(
                "The Session Account ID of the account on the device ({}, pref_local_number).",
                l.name()
            ),
        )?;
    }
    if let Some(p) = &profile {
        observe(
            ctx,
            "owner",
            EntityKind::Person,
            "device owner",
            IdType::DisplayName,
            p,
            &inv,
            format!(
                "The Session profile name of the account on the device ({}).",
                l.name()
            ),
        )?;
    }
    Ok(())
}
