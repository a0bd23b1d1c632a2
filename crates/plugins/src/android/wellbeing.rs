//! Digital Wellbeing's account (`com.google.android.apps.wellbeing/files/AccountData.pb`),
//! ALEAPP's `wellbeingaccount`: a Protocol Buffers message whose layout is not published, read
//! with `read_protobuf` (its raw decoding). ALEAPP shows the decoded message as it is; here one
//! `accounts` phenomenon holds every text value of it with the field path it sits at, and each
//! value that is an e-mail address — the Google account the app is signed in with — is observed
//! on `owner` (a Google account where the normaliser takes it). A file that is no message is
//! noted.

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{FactType, IdType};

use super::Located;
use crate::drafts::{Draft, record_draft};
use crate::identity::{normalized, observe_owner_ids};
use crate::outputs::in_json;

/// The text values of a decoded message (not its numbers), each with its field path.
fn strings(v: &serde_json::Value, path: &str, out: &mut Vec<(String, String)>) {
    match v {
        serde_json::Value::Object(o) => {
            for (k, x) in o {
                let p = if path.is_empty() {
                    k.clone()
                } else {
                    format!("{path}.{k}")
                };
                strings(x, &p, out);
            }
        }
        serde_json::Value::Array(a) => a.iter().for_each(|x| strings(x, path, out)),
        serde_json::Value::String(s) if !s.trim().is_empty() => {
            out.push((path.to_string(), s.clone()))
        }
        _ => {}
    }
}

/// Whether `l` is Digital Wellbeing's account file.
pub fn is_account(l: &Located) -> bool {
    l.path
        .ends_with("/com.google.android.apps.wellbeing/files/AccountData.pb")
}

/// One `AccountData.pb`.
pub fn account(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some((inv, doc)) = super::protobuf_message(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    let mut texts = Vec::new();
    strings(&doc, "", &mut texts);
    let emails: Vec<&str> = texts
        .iter()
        .map(|(_, v)| v.as_str())
        .filter(|v| v.contains('@') && normalized(ctx, IdType::Email, v).is_some())
        .collect();
    if texts.is_empty() {
        return Ok(());
    }
    let mut d = Draft::new(
        "accounts",
        match emails.first() {
            Some(e) => format!("Digital Wellbeing account {e}"),
            None => "Digital Wellbeing account data".to_string(),
        },
    );
    d.fact(FactType::Path, Some(&l.path), &l.found);
    for (_, v) in &texts {
        let ft = if emails.contains(&v.as_str()) {
            FactType::Email
        } else {
            FactType::Text
        };
        d.fact(ft, Some(&in_json(v)), &inv);
    }
    d.interpretation = format!(
        "{}: the Digital Wellbeing app's account data (its layout is not published; every text value with the field path it sits at): {}.",
        l.path,
        texts
            .iter()
            .map(|(k, v)| format!("{k} = {v}"))
            .collect::<Vec<_>>()
            .join("; ")
    );
    record_draft(ctx, d)?;
    for e in emails {
        let id_type = if normalized(ctx, IdType::GoogleAccount, e).is_some() {
            IdType::GoogleAccount
        } else {
            IdType::Email
        };
        observe_owner_ids(
            ctx,
            &inv,
            vec![(Some(e.to_string()), id_type, "Google account")],
            &|w| format!("The {w} Digital Wellbeing is signed in with (AccountData.pb)."),
        )?;
    }
    Ok(())
}
