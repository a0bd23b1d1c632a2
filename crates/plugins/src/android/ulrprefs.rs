//! Google Play services' Location History preferences (User Location Reporting,
//! `com.google.android.gms/shared_prefs/ULR_USER_PREFS.xml`), ALEAPP's `ulrUserprefs`
//! (`get_urluser`): for each Google account on the phone, whether Location Reporting and
//! Location History were on, and the other settings and times Play services kept for it; and the
//! file's settings of the device.
//!
//! | file | phenomenon | fields |
//! |---|---|---|
//! | `ULR_USER_PREFS.xml` (`read_xml`), keys `<account e-mail>:<setting>` | one `locations` per account ("Google Location History settings of <e-mail>") | the account's e-mail, every setting's value as written (`reportingEnabled`, `historyEnabled`, `authorized`, `defined`, `dirty`, `restriction`, `deviceTag` …); each setting named `…Millis`, `…Time` or `…Timestamp` holding a positive number a time (read by its size: Unix ms, else s) |
//! | the keys without an account | one `locations` ("Google Location History device settings") | every value as written, times as above |
//!
//! ALEAPP lists the file's name/value pairs as they are; here they are grouped by the account
//! their name begins with (a key whose part before the first `:` holds an `@`), so that each
//! account's settings are one phenomenon. `reportingEnabled` is Location Reporting (the phone
//! sending its positions), `historyEnabled` Location History (Google keeping them) for that
//! account, as Play services last knew them; the values are the file's, not a statement of what
//! Google's servers hold. The setting names are Play services' own and change between releases:
//! every one is read, none is required. A malformed file is noted (by the read), and so is one
//! that holds no `<map>` of preferences; an empty `<map/>` says nothing and is passed over.
//! Secrets: none kept (no token is stored in this file). Identities: each account's e-mail is a
//! Google account of the device's user (`owner`; an e-mail address where the normaliser takes it
//! as no Google account).

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{FactType, IdType};

use super::Located;
use crate::drafts::{Draft, record_draft, unix_by_magnitude};
use crate::identity::{artefact_name, normalized, observe_owner_ids};

/// The file's name.
pub const FILE: &str = "ULR_USER_PREFS.xml";

/// Whether `l` is Play services' Location History preferences.
pub fn is_file(l: &Located) -> bool {
    l.name() == FILE && l.path.contains("/com.google.android.gms/shared_prefs/")
}

/// Whether the setting `name` holding `value` is a time: named `…Millis`, `…Time` or
/// `…Timestamp` and a positive whole number.
fn is_time(name: &str, value: &str) -> bool {
    let n = name.to_ascii_lowercase();
    (n.ends_with("millis") || n.ends_with("time") || n.ends_with("timestamp"))
        && value.trim().parse::<i64>().is_ok_and(|v| v > 0)
}

/// A phenomenon of `settings` (`(setting, value)`): each value a fact, the times marked
/// (described with `about`); returns the draft and the `setting = value` list.
fn draft(
    title: String,
    l: &Located,
    inv: &masf_tools::Invoked,
    settings: &[(String, String)],
    about: &str,
) -> (Draft, Vec<String>) {
    let mut d = Draft::new("locations", title);
    d.fact(FactType::Path, Some(&l.path), &l.found);
    let mut said = Vec::new();
    for (name, value) in settings {
        if is_time(name, value) {
            d.time(
                Some(value),
                unix_by_magnitude(Some(value)),
                &format!("Google Location History {name} ({about})"),
                inv,
            );
        } else {
            d.fact(FactType::Text, Some(value), inv);
        }
        said.push(format!("{name} = {value}"));
    }
    (d, said)
}

/// One `ULR_USER_PREFS.xml`.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some((inv, prefs)) = super::prefs::prefs_xml(ctx, l, "Google Location History", None)?
    else {
        return Ok(());
    };
    if prefs.is_empty() {
        // an empty `<map/>` holds nothing; a file without one is no preferences file
        if !inv.output.text.contains("<map") {
            ctx.unparsed(
                &artefact_name(&l.tree, &l.path),
                &format!(
                    "could not parse Google Location History's {FILE} because it holds no <map> of preferences"
                ),
                Some(&inv.record.invocation_id),
            )?;
        }
        return Ok(());
    }
    let mut accounts: Vec<(String, Vec<(String, String)>)> = Vec::new();
    let mut device: Vec<(String, String)> = Vec::new();
    for (key, value) in &prefs {
        match key.split_once(':') {
            Some((account, setting)) if account.contains('@') && !setting.is_empty() => {
                let entry = match accounts.iter().position(|(a, _)| a == account) {
                    Some(i) => &mut accounts[i].1,
                    None => {
                        accounts.push((account.to_string(), Vec::new()));
                        &mut accounts.last_mut().expect("just pushed").1
                    }
                };
                entry.push((setting.to_string(), value.clone()));
            }
            _ => device.push((key.clone(), value.clone())),
        }
    }
    let file = l.name();
    for (email, settings) in &accounts {
        let (mut d, said) = draft(
            format!("Google Location History settings of {email}"),
            l,
            &inv,
            settings,
            email,
        );
        d.fact(FactType::Email, Some(email), &inv);
        d.interpretation = format!(
            "{}: Google Play services' Location History settings for the Google account {email}, as the phone last kept them (reportingEnabled: Location Reporting, the phone sending its positions; historyEnabled: Location History, Google keeping them; values as written, times read by their size): {}.",
            l.path,
            said.join("; ")
        );
        record_draft(ctx, d)?;
        let id_type = if normalized(ctx, IdType::GoogleAccount, email).is_some() {
            IdType::GoogleAccount
        } else {
            IdType::Email
        };
        observe_owner_ids(
            ctx,
            &inv,
            vec![(Some(email.clone()), id_type, "Google account")],
            &|w| {
                format!(
                    "The {w} whose Location History settings Google Play services keeps on the device ({file}): an account of the device's user."
                )
            },
        )?;
    }
    if !device.is_empty() {
        let (mut d, said) = draft(
            "Google Location History device settings".to_string(),
            l,
            &inv,
            &device,
            "device",
        );
        d.interpretation = format!(
            "{}: Google Play services' Location History settings of the device (keys naming no account; values as written, times read by their size): {}.",
            l.path,
            said.join("; ")
        );
        record_draft(ctx, d)?;
    }
    Ok(())
}
