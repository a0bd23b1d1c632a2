//! The Intercom SDK's user preferences, in any Android app that embeds it (Grok keeps its
//! account there: ALEAPP's `grok_useraccount`, here read for every app):
//! `shared_prefs/INTERCOM_SDK_USER_PREFS.xml` (the Intercom session's user id and e-mail) and
//! `shared_prefs/INTERCOM_DEDUPER_PREFS.xml` (`CachedAttributes`: the JSON of the user
//! attributes the app last sent — name, e-mail and every custom attribute, such as Grok's
//! `xUsername`), read by `read_xml`. One `accounts` phenomenon per app: the app's package, the
//! user id, e-mail, name, every attribute; each value of the JSON text cited in the form the
//! output keeps it (XML-escaped JSON).
//!
//! Identities: the e-mail addresses are the device's user's (`owner`), so is the name; an X
//! user name (`xUsername`) is observed as the user's nickname.

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{FactType, IdType};
use serde_json::Value;

use super::Located;
use super::prefs::{cited_in_prefs, pref, pref_json, prefs_xml};
use crate::drafts::{Draft, record_draft};
use crate::identity::artefact_name;

/// The user preferences' file name.
pub const USER: &str = "INTERCOM_SDK_USER_PREFS.xml";
/// The cached attributes' file name.
pub const DEDUPER: &str = "INTERCOM_DEDUPER_PREFS.xml";

const USER_ID: &str = "intercomsdk-session-INTERCOM_SDK_USER_ID";
const EMAIL: &str = "intercomsdk-session-INTERCOM_SDK_EMAIL_ID";

/// The app a preferences file belongs to: the folder above `shared_prefs/`.
fn app_of(path: &str) -> Option<&str> {
    let (dir, _) = path.rsplit_once("/shared_prefs/")?;
    dir.rsplit('/').next()
}

/// Triage of every app's Intercom preferences (the files of [`USER`] and [`DEDUPER`] found).
pub fn triage(ctx: &AgentCtx<'_>, found: &[Located]) -> Result<(), RuntimeError> {
    let mut apps: Vec<(&crate::identity::TreeRef, &str)> = Vec::new();
    for l in found
        .iter()
        .filter(|l| l.name() == USER || l.name() == DEDUPER)
    {
        if let Some((dir, _)) = l.path.rsplit_once("/shared_prefs/")
            && !apps.iter().any(|(t, d)| **t == l.tree && *d == dir)
        {
            apps.push((&l.tree, dir));
        }
    }
    for (tree, dir) in apps {
        let of = |name: &str| {
            found
                .iter()
                .find(|l| l.tree == *tree && l.path == format!("{dir}/shared_prefs/{name}"))
        };
        let (user, deduper) = (of(USER), of(DEDUPER));
        let Some(first) = user.or(deduper) else {
            continue;
        };
        ctx.artefact(&artefact_name(tree, &first.path), || {
            account(ctx, user, deduper)
        })?;
    }
    Ok(())
}

fn account(
    ctx: &AgentCtx<'_>,
    user: Option<&Located>,
    deduper: Option<&Located>,
) -> Result<(), RuntimeError> {
    let app = user
        .or(deduper)
        .and_then(|l| app_of(&l.path))
        .unwrap_or("an app")
        .to_string();
    let mut d = Draft::new("accounts", format!("Intercom user of {app}"));
    let mut said = Vec::new();
    let mut owner = Vec::new();
    if let Some(l) = user
        && let Some((inv, prefs)) = prefs_xml(ctx, l, "Intercom", None)?
    {
        d.fact(FactType::Path, Some(&l.path), &l.found);
        if let Some(id) = pref(&prefs, USER_ID) {
            d.fact(FactType::Identifier, Some(&id), &inv);
            said.push(format!("user id {id}"));
        }
        if let Some(e) = pref(&prefs, EMAIL) {
            d.fact(FactType::Email, Some(&e), &inv);
            said.push(format!("e-mail {e}"));
            owner.push((inv.clone(), Some(e), IdType::Email, "e-mail"));
        }
    }
    if let Some(l) = deduper
        && let Some((inv, prefs)) = prefs_xml(ctx, l, "Intercom", None)?
        && let Some(text) = pref(&prefs, "CachedAttributes")
    {
        d.fact(FactType::Path, Some(&l.path), &l.found);
        match pref_json(&text) {
            Ok(v) => {
                let custom = v.get("custom_attributes").filter(|c| c.is_object());
                let mut leaves = Vec::new();
                crate::outputs::json_leaves(&v, "", &mut leaves);
                for (k, _) in leaves {
                    // each value, as the output keeps it
                    let node = k
                        .split('.')
                        .try_fold(&v, |n, key| n.get(key))
                        .filter(|n| !n.is_array());
                    let cited = match node {
                        Some(Value::String(s)) if !s.is_empty() => cited_in_prefs(&inv, s),
                        Some(Value::Number(n)) => Some(n.to_string()),
                        Some(Value::Bool(b)) => Some(b.to_string()),
                        _ => None,
                    };
                    let Some(c) = cited else {
                        continue;
                    };
                    let last = k.rsplit('.').next().unwrap_or(&k);
                    let ft = match last {
                        "email" => FactType::Email,
                        "name" => FactType::Name,
                        "user_id" | "id" => FactType::Identifier,
                        _ => FactType::Text,
                    };
                    d.fact(ft, Some(&c), &inv);
                    said.push(format!("{k} {c}"));
                    match last {
                        "email" => owner.push((inv.clone(), Some(c), IdType::Email, "e-mail")),
                        "name" => owner.push((inv.clone(), Some(c), IdType::DisplayName, "name")),
                        "xUsername" if custom.is_some() => {
                            owner.push((inv.clone(), Some(c), IdType::Nickname, "X user name"))
                        }
                        _ => {}
                    }
                }
            }
            Err(e) => ctx.unparsed(
                &artefact_name(&l.tree, &l.path),
                &format!("could not parse Intercom's CachedAttributes because it is not JSON: {e}"),
                Some(&inv.record.invocation_id),
            )?,
        }
    }
    if said.is_empty() {
        // nothing of the user kept (or its attributes unreadable, noted)
        return Ok(());
    }
    d.interpretation = format!(
        "the Intercom SDK's user of the {app} app (its support and messaging component), as the app last identified its user to it: {}.",
        said.join(", ")
    );
    record_draft(ctx, d)?;
    for (inv, value, id_type, what) in owner {
        crate::identity::observe_owner_ids(ctx, &inv, vec![(value, id_type, what)], &|w| {
            format!(
                "The {w} the {app} app gave the Intercom SDK as its user's (the device's user)."
            )
        })?;
    }
    Ok(())
}
