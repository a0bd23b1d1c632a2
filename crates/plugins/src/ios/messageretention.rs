//! How long Messages keeps messages (`Library/Preferences/com.apple.MobileSMS.plist`, also
//! spelled `com.apple.mobileSMS.plist`; both read), iLEAPP's `messageRetention`: one `messages`
//! phenomenon per setting found — `KeepMessageForDays` (through iOS 16) or `SSKeepMessages`
//! (iOS 17 on): 0 forever, 30 thirty days, 365 one year; any other value as stored. A retention
//! of 30 days or a year explains messages absent from `sms.db` that were not deleted by hand
//! (said). A preferences file without either key records nothing; one that is no dictionary is
//! noted. Identities: none.

use masf_agents::RuntimeError;
use masf_graph::FactType;

use super::plists::parse;
use super::{Draft, Run};
use crate::outputs::json_scalar;

/// What a stored retention means.
fn meaning(v: &str) -> Option<&'static str> {
    match v {
        "0" => Some("forever"),
        "30" => Some("30 days"),
        "365" => Some("1 year"),
        _ => None,
    }
}

/// Triage of every Messages preferences file of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    run.each("com.apple.*obileSMS.plist", |find, path| {
            if !path.ends_with("/Library/Preferences/com.apple.MobileSMS.plist")
                && !path.ends_with("/Library/Preferences/com.apple.mobileSMS.plist")
            {
                return Ok(());
            }
            let Some((inv, doc)) = parse(run, path)? else {
                return Ok(());
            };
            if !doc.is_object() {
                run.ctx.unparsed(
                    path,
                    "could not read Messages' retention because the preferences file is no dictionary",
                    Some(&inv.record.invocation_id),
                )?;
                return Ok(());
            }
            for (key, since) in [
                ("KeepMessageForDays", "through iOS 16"),
                ("SSKeepMessages", "from iOS 17"),
            ] {
                let Some(v) = json_scalar(doc.get(key)) else {
                    continue;
                };
                let said = meaning(&v)
                    .map(str::to_string)
                    .unwrap_or_else(|| format!("an unrecognised value {v}"));
                let mut d = Draft::new("messages", format!("Messages kept {said}"));
                d.fact(FactType::Path, Some(path), find);
                d.fact(FactType::Text, Some(key), &inv);
                d.fact(FactType::Count, Some(&v), &inv);
                d.interpretation = format!(
                    "{key} of {path} ({since}): Messages keeps messages {said}{}.",
                    if matches!(v.as_str(), "30" | "365") {
                        "; older messages are deleted by iOS on its own, so messages missing from sms.db may be gone by this setting rather than by the user's hand"
                    } else {
                        ""
                    },
                );
                run.record(d)?;
            }
            Ok(())
        })
}
