//! Microsoft Outlook on Android (`com.microsoft.office.outlook`), the fields of ALEAPP's
//! `outlook_accounts`, `outlook_installation` and `outlook_settings`, from the app's shared
//! preferences (found by listing its folder), read by `read_xml`:
//!
//! - `com.microsoft.oneauth.accounts.xml`: each entry a JSON text of the credential broker's
//!   account — one `accounts` per entry: e-mail, login name, display, first and last name,
//!   phone number, birthday, age group, location, account type, home account, account and
//!   provider ids, realm, authority, sovereignty, telemetry region, association status,
//!   on-premises SID, password-change URL — and, where the entry keeps them, the claims of a
//!   token it cached (`additional_properties`, a JSON text inside the JSON: preferred user name,
//!   object, tenant and subject ids, issuer, audience, Graph URL, version, flow status; issued
//!   at, not before and expires, Unix seconds); the opaque `aio` claim is not copied;
//! - `versions.xml` with `acompli_prefs.xml`'s `pref_install_id`: one `apps` phenomenon — the
//!   install id, the initial, previous and last-run version names and codes;
//! - `com.microsoft.office.outlook_preferences.xml`: one `apps` phenomenon with every setting
//!   as stored (`officeConfigLastFetchedTime` Unix ms, `wearUpsellLastCheck` Unix seconds).
//!
//! Each value of a JSON text is cited in the form `read_xml`'s output keeps it (XML-escaped
//! JSON). Identities: the accounts' e-mail addresses (e-mail, login name and preferred user
//! name where they are addresses), phone numbers and display names are the device's user's
//! (`owner`).

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{FactType, IdType};
use masf_tools::Invoked;
use serde_json::{Value, json};

use super::Located;
use super::prefs::{cited_in_prefs, pref, pref_json, prefs_xml};
use crate::drafts::{Draft, record_draft, unix_millis, unix_seconds};
use crate::identity::{args_on, artefact_name};

/// The app's data folder name.
pub const PACKAGE: &str = "com.microsoft.office.outlook";

const ACCOUNTS: &str = "com.microsoft.oneauth.accounts.xml";
const VERSIONS: &str = "versions.xml";
const ACOMPLI: &str = "acompli_prefs.xml";
const SETTINGS: &str = "com.microsoft.office.outlook_preferences.xml";

/// Lists the app's preferences and reads those named above.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(listing) = crate::calls::call_or_note(
        ctx,
        &artefact_name(&l.tree, &l.path),
        "find_files",
        args_on(
            &l.tree,
            json!({"path": l.path, "name_globs": [ACCOUNTS, VERSIONS, ACOMPLI, SETTINGS]}),
        ),
    )?
    else {
        return Ok(());
    };
    let dir = format!("{}/shared_prefs", l.path);
    let file = |name: &str| {
        crate::outputs::found_paths(&listing.output.text)
            .into_iter()
            .find(|p| *p == format!("{dir}/{name}"))
            .map(|path| Located {
                tree: l.tree.clone(),
                path,
                found: listing.clone(),
            })
    };
    if let Some(f) = file(ACCOUNTS) {
        ctx.artefact(&artefact_name(&f.tree, &f.path), || accounts(ctx, &f))?;
    }
    if let Some(f) = file(VERSIONS) {
        let acompli = file(ACOMPLI);
        ctx.artefact(&artefact_name(&f.tree, &f.path), || {
            installation(ctx, &f, acompli.as_ref())
        })?;
    }
    if let Some(f) = file(SETTINGS) {
        ctx.artefact(&artefact_name(&f.tree, &f.path), || settings(ctx, &f))?;
    }
    Ok(())
}

/// A scalar of `v` at `key` as it is cited from `inv` (a string in its escaped form).
fn value(inv: &Invoked, v: &Value, key: &str) -> Option<String> {
    match v.get(key)? {
        Value::String(s) if !s.is_empty() => cited_in_prefs(inv, s),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

fn accounts(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some((inv, prefs)) = prefs_xml(ctx, l, "Outlook's OneAuth", None)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    for (key, text) in &prefs {
        let entry = match pref_json(text) {
            Ok(Value::Object(o)) => Value::Object(o),
            Ok(_) => continue,
            Err(e) => {
                ctx.unparsed(
                    &name,
                    &format!("could not parse OneAuth entry {key} because it is not JSON: {e}"),
                    Some(&inv.record.invocation_id),
                )?;
                continue;
            }
        };
        // the claims: a JSON text inside the entry (or an object)
        let claims = match entry.get("additional_properties") {
            Some(Value::String(s)) => serde_json::from_str::<Value>(s).unwrap_or(Value::Null),
            Some(v @ Value::Object(_)) => v.clone(),
            _ => Value::Null,
        };
        let email = value(&inv, &entry, "email");
        let mut d = Draft::new(
            "accounts",
            format!(
                "Outlook account {}",
                email
                    .as_deref()
                    .or(entry.get("display_name").and_then(Value::as_str))
                    .unwrap_or(key)
            ),
        );
        d.fact(FactType::Path, Some(&l.path), &l.found);
        let mut said = Vec::new();
        for (k, ft, what) in [
            ("email", FactType::Email, "e-mail"),
            ("login_name", FactType::Account, "login name"),
            ("display_name", FactType::Name, "display name"),
            ("first_name", FactType::Name, "first name"),
            ("last_name", FactType::Name, "last name"),
            ("phone_number", FactType::Phone, "phone number"),
            ("birthday", FactType::Text, "birthday"),
            ("age_group", FactType::Text, "age group"),
            ("location", FactType::Text, "location"),
            ("account_type", FactType::Text, "account type"),
            ("home_account_id", FactType::Identifier, "home account id"),
            ("id", FactType::Identifier, "account id"),
            ("provider_id", FactType::Identifier, "provider id"),
            ("realm", FactType::Identifier, "realm"),
            ("realm_name", FactType::Text, "realm name"),
            ("authority", FactType::Url, "authority"),
            ("sovereignty", FactType::Text, "sovereignty"),
            ("telemetry_region", FactType::Text, "telemetry region"),
            ("association_status", FactType::Text, "association status"),
            ("onprem_sid", FactType::Identifier, "on-premises SID"),
            ("password_change_url", FactType::Url, "password change URL"),
        ] {
            if let Some(v) = value(&inv, &entry, k) {
                d.fact(ft, Some(&v), &inv);
                said.push(format!("{what} {v}"));
            }
        }
        for (k, ft, what) in [
            (
                "preferred_username",
                FactType::Account,
                "preferred user name",
            ),
            ("oid", FactType::Identifier, "object id"),
            ("tid", FactType::Identifier, "tenant id"),
            ("sub", FactType::Identifier, "subject"),
            ("iss", FactType::Url, "issuer"),
            ("aud", FactType::Identifier, "audience"),
            ("graph_url", FactType::Url, "Graph URL"),
            ("ver", FactType::Text, "claims version"),
            ("tr_flow_status", FactType::Text, "token flow status"),
        ] {
            if let Some(v) = value(&inv, &claims, k) {
                d.fact(ft, Some(&v), &inv);
                said.push(format!("claim {what} {v}"));
            }
        }
        for (k, what) in [
            ("iat", "OneAuth token issued"),
            ("nbf", "OneAuth token valid from"),
            ("exp", "OneAuth token expires"),
        ] {
            let t = value(&inv, &claims, k);
            d.time(t.as_deref(), unix_seconds(t.as_deref()), what, &inv);
        }
        d.interpretation = format!(
            "OneAuth entry {key} of {}: an account signed in to Outlook's credential broker{}: {}.",
            l.name(),
            if claims.is_object() {
                ", with the claims of a token it cached (the opaque aio claim not copied; a claim is not proof the token was accepted)"
            } else {
                ""
            },
            said.join(", ")
        );
        record_draft(ctx, d)?;
        let as_email = |v: Option<String>| v.filter(|s| s.contains('@'));
        crate::identity::observe_owner_ids(
            ctx,
            &inv,
            vec![
                (email.clone(), IdType::Email, "e-mail"),
                (
                    as_email(value(&inv, &entry, "login_name")),
                    IdType::Email,
                    "login name",
                ),
                (
                    as_email(value(&inv, &claims, "preferred_username")),
                    IdType::Email,
                    "preferred user name",
                ),
                (
                    value(&inv, &entry, "phone_number"),
                    IdType::Phone,
                    "phone number",
                ),
                (
                    value(&inv, &entry, "display_name"),
                    IdType::DisplayName,
                    "display name",
                ),
            ],
            &|what| {
                format!(
                    "The {what} of an account signed in to Outlook on the device (OneAuth entry {key} of {}).",
                    l.name()
                )
            },
        )?;
    }
    Ok(())
}

fn installation(
    ctx: &AgentCtx<'_>,
    l: &Located,
    acompli: Option<&Located>,
) -> Result<(), RuntimeError> {
    let Some((inv, prefs)) = prefs_xml(ctx, l, "Outlook's versions", None)? else {
        return Ok(());
    };
    let mut d = Draft::new("apps", "Outlook installation");
    d.fact(FactType::Path, Some(&l.path), &l.found);
    let mut said = Vec::new();
    if let Some(a) = acompli
        && let Some((ainv, ap)) = prefs_xml(ctx, a, "Outlook's acompli", None)?
        && let Some(id) = pref(&ap, "pref_install_id")
    {
        d.fact(FactType::Path, Some(&a.path), &a.found);
        d.fact(FactType::Identifier, Some(&id), &ainv);
        said.push(format!("install id {id} ({})", a.name()));
    }
    for (k, ft, what) in [
        ("initialVersionName", FactType::Text, "initial version"),
        (
            "initialVersionCode",
            FactType::Count,
            "initial version code",
        ),
        ("previousVersionName", FactType::Text, "previous version"),
        (
            "previousVersionCode",
            FactType::Count,
            "previous version code",
        ),
        ("lastRunVersionName", FactType::Text, "last run version"),
        (
            "lastRunVersionCode",
            FactType::Count,
            "last run version code",
        ),
    ] {
        if let Some(v) = pref(&prefs, k) {
            d.fact(ft, Some(&v), &inv);
            said.push(format!("{what} {v}"));
        }
    }
    d.interpretation = format!(
        "{}: the Outlook app installed on the device and the versions it ran (no time is kept): {}.",
        l.name(),
        said.join(", ")
    );
    record_draft(ctx, d)
}

fn settings(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some((inv, prefs)) = prefs_xml(ctx, l, "Outlook's settings", None)? else {
        return Ok(());
    };
    let mut d = Draft::new("apps", "Outlook settings");
    d.fact(FactType::Path, Some(&l.path), &l.found);
    let mut said = Vec::new();
    for (k, v) in &prefs {
        if v.trim().is_empty() {
            continue;
        }
        match k.as_str() {
            "officeConfigLastFetchedTime" => {
                d.time(
                    Some(v),
                    unix_millis(Some(v)),
                    "Outlook fetched its Office configuration",
                    &inv,
                );
            }
            "wearUpsellLastCheck" => {
                d.time(
                    Some(v),
                    unix_seconds(Some(v)),
                    "Outlook last checked for a watch",
                    &inv,
                );
            }
            _ => {
                d.fact(FactType::Text, Some(v), &inv);
            }
        }
        said.push(format!("{k} {v}"));
    }
    d.interpretation = format!(
        "{}: the settings the Outlook app keeps, as stored: {}.",
        l.name(),
        said.join(", ")
    );
    record_draft(ctx, d)
}
