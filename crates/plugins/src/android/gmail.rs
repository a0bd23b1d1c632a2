//! Gmail (`com.google.android.gm`), `shared_prefs/Gmail.xml` read by `read_xml`: ALEAPP's
//! `GmailActive` — the account the app has active (`active-account`), one `accounts`
//! phenomenon with the file's path. A Gmail account on the phone is a Google account of its
//! user: observed on `owner` (a Google account where the normaliser takes it, an e-mail address
//! otherwise). A file without the key says nothing (the app may have no account yet) and is
//! passed over; an unreadable file is noted by the read.

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{FactType, IdType};

use super::Located;
use super::wechat::{pref, prefs_xml};
use crate::drafts::{Draft, record_draft};

/// The preferences file.
pub const FILE: &str = "Gmail.xml";

/// Whether `l` is Gmail's own preferences file.
pub fn is_prefs(l: &Located) -> bool {
    l.path
        .ends_with(&format!("/com.google.android.gm/shared_prefs/{FILE}"))
}

/// One `Gmail.xml`.
pub fn active(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some((inv, prefs)) = prefs_xml(ctx, l, "Gmail", None)? else {
        return Ok(());
    };
    let Some(account) = pref(&prefs, "active-account") else {
        return Ok(());
    };
    let mut d = Draft::new("accounts", format!("Gmail active account {account}"));
    d.fact(FactType::Path, Some(&l.path), &l.found);
    d.fact(FactType::Email, Some(&account), &inv);
    d.interpretation = format!(
        "{}: the Gmail app's active account (active-account) is {account}, the account it shows when opened; a Google account of the phone's user.",
        l.path
    );
    record_draft(ctx, d)?;
    let google = crate::identity::normalized(ctx, IdType::GoogleAccount, &account).is_some();
    crate::identity::observe_owner_ids(
        ctx,
        &inv,
        vec![(
            Some(account.clone()),
            if google {
                IdType::GoogleAccount
            } else {
                IdType::Email
            },
            "Gmail account",
        )],
        &|w| format!("The {w} active in the Gmail app (Gmail.xml active-account)."),
    )
}
