//! Twitch (`tv.twitch.android.app/shared_prefs/user.xml`, or `twitch_user_prefs.xml` which
//! newer releases write alike), ALEAPP's `twitch`: the signed-in account.
//!
//! One `accounts` phenomenon ("Twitch account <login>"): login name, display name, e-mail, user
//! id, user type, verified, two-factor authentication, partner, affiliate, Turbo, push
//! notifications, the avatar URL, when the account was created (ISO 8601 UTC). Identities: the
//! e-mail, login and display name are the device's user's (`owner`). Read through
//! [`super::prefsaccount`]; a file holding no map is noted.

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{FactType, IdType};

use super::Located;
use super::prefsaccount::{PrefsAccount, prefs_account};
use crate::drafts::date_text;

/// Whether `l` is one of Twitch's account preferences.
pub fn is_prefs(l: &Located) -> bool {
    matches!(l.name(), "user.xml" | "twitch_user_prefs.xml")
        && l.path.contains("/tv.twitch.android.app/shared_prefs/")
}

/// One file.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    prefs_account(
        ctx,
        l,
        &PrefsAccount {
            app: "Twitch",
            title: &["name", "DisplayName", "email"],
            facts: &[
                ("name", FactType::Account, "login"),
                ("DisplayName", FactType::Name, "display name"),
                ("email", FactType::Email, "e-mail"),
                ("userIdInt", FactType::Account, "user id"),
                ("user_type", FactType::Text, "user type"),
                ("account_is_verified", FactType::Text, "verified"),
                (
                    "has_two_factor_authentication_enabled",
                    FactType::Text,
                    "two-factor authentication",
                ),
                ("is_partner", FactType::Text, "partner"),
                ("is_affiliate", FactType::Text, "affiliate"),
                ("is_turbo", FactType::Text, "Turbo"),
                (
                    "arePushNotificationsEnabled",
                    FactType::Text,
                    "push notifications",
                ),
                ("Logo", FactType::Url, "avatar"),
            ],
            times: &[("created_at", date_text, "Twitch account created")],
            owner: &[
                ("email", IdType::Email, "The e-mail address"),
                ("name", IdType::Nickname, "The Twitch login"),
                (
                    "DisplayName",
                    IdType::DisplayName,
                    "The Twitch display name",
                ),
            ],
        },
    )
}
