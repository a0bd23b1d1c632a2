//! Pinterest (`com.pinterest/shared_prefs/pinterest.xml`), ALEAPP's `pinterest_account`: the
//! signed-in account's record, kept as JSON in the preference `PREF_MY_USER`.
//!
//! One `accounts` phenomenon ("Pinterest account <user name>"): id, user name, full name,
//! e-mail and its status, type, country, locale, location, gender, age, about, birthday (Unix
//! seconds; before 1970 negative), account created and last pin saved (text as stored, no zone),
//! the pin, board, secret board, follower and following counts, private profile, under 18,
//! parental passcode, and the accounts it is connected to (Facebook, Instagram, YouTube, Etsy).
//! Identities: the e-mail, user name and full name are the device's user's (`owner`). A
//! preferences file that holds no map is noted; one without `PREF_MY_USER` records nothing.

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{FactType, IdType, TimeEncoding};
use serde_json::Value;

use super::Located;
use crate::drafts::{Draft, record_draft};
use crate::outputs::json_scalar;

/// Whether `l` is Pinterest's own preferences.
pub fn is_prefs(l: &Located) -> bool {
    l.name() == "pinterest.xml" && l.path.contains("/com.pinterest/shared_prefs/")
}

/// One `pinterest.xml`.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some((inv, _, entries)) =
        super::read_xml(ctx, l, "shared preferences", super::prefs::shared_prefs)?
    else {
        return Ok(());
    };
    if entries.is_empty() && !inv.output.text.contains("<map") {
        ctx.unparsed(
            &crate::identity::artefact_name(&l.tree, &l.path),
            "could not parse Pinterest's preferences because they hold no <map> of preferences",
            Some(&inv.record.invocation_id),
        )?;
        return Ok(());
    }
    let Some(user) = entries
        .iter()
        .find(|(k, _)| k == "PREF_MY_USER")
        .and_then(|(_, v)| serde_json::from_str::<Value>(v).ok())
        .filter(|u| u.get("id").is_some())
    else {
        return Ok(());
    };
    let s = |k: &str| json_scalar(user.get(k)).filter(|v| !v.is_empty());
    let mut d = Draft::new(
        "accounts",
        format!(
            "Pinterest account {}",
            s("username").or_else(|| s("id")).unwrap_or_default()
        ),
    );
    d.fact(FactType::Path, Some(&l.path), &l.found);
    let said = d.json_fields(
        &user,
        &inv,
        &[
            ("id", FactType::Account, "id"),
            ("username", FactType::Account, "username"),
            ("full_name", FactType::Name, "full_name"),
            ("email", FactType::Email, "email"),
            ("email_status", FactType::Text, "email_status"),
            ("type", FactType::Text, "type"),
            ("country", FactType::Text, "country"),
            ("locale", FactType::Text, "locale"),
            ("location", FactType::Text, "location"),
            ("gender", FactType::Text, "gender"),
            ("age_in_years", FactType::Text, "age_in_years"),
            ("about", FactType::Text, "about"),
            ("created_at", FactType::Text, "created_at"),
            ("last_pin_save_time", FactType::Text, "last_pin_save_time"),
            ("pin_count", FactType::Count, "pin_count"),
            ("board_count", FactType::Count, "board_count"),
            ("secret_board_count", FactType::Count, "secret_board_count"),
            ("follower_count", FactType::Count, "follower_count"),
            ("following_count", FactType::Count, "following_count"),
            ("is_private_profile", FactType::Text, "is_private_profile"),
            ("is_under_18", FactType::Text, "is_under_18"),
            (
                "is_parental_control_passcode_enabled",
                FactType::Text,
                "is_parental_control_passcode_enabled",
            ),
            (
                "connected_to_facebook",
                FactType::Text,
                "connected_to_facebook",
            ),
            (
                "connected_to_instagram",
                FactType::Text,
                "connected_to_instagram",
            ),
            (
                "connected_to_youtube",
                FactType::Text,
                "connected_to_youtube",
            ),
            ("connected_to_etsy", FactType::Text, "connected_to_etsy"),
        ],
    );
    let birthday = s("birthday").filter(|b| b.parse::<i64>().is_ok_and(|n| n != 0));
    d.time(
        birthday.as_deref(),
        birthday.as_ref().map(|_| TimeEncoding::UnixSeconds),
        "Date of birth (Pinterest account)",
        &inv,
    );
    d.interpretation = format!(
        "PREF_MY_USER of {}: the Pinterest account signed in on the phone, its record kept as JSON ({}); the birthday is Unix seconds (only its date meaningful), the other dates text as stored.",
        l.path,
        said.join("; ")
    );
    record_draft(ctx, d)?;
    crate::identity::observe_owner_ids(
        ctx,
        &inv,
        vec![
            (s("email"), IdType::Email, "The e-mail address"),
            (s("username"), IdType::Nickname, "The Pinterest user name"),
            (s("full_name"), IdType::DisplayName, "The name"),
        ],
        &|what| {
            format!(
                "{what} of the Pinterest account signed in on the device ({}), the device's user.",
                l.path
            )
        },
    )?;
    Ok(())
}
