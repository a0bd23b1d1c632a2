//! An app's account as its shared preferences keep it (one `<map>` of named values): the
//! readers of apps that hold their signed-in account there (Kleinanzeigen, Twitch) say which
//! keys are facts, which times, and which identify the device's user.

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{FactType, IdType};

use super::Located;
use crate::drafts::{Draft, Encoding, record_draft};

/// How one app's preferences file names its account.
pub(crate) struct PrefsAccount<'a> {
    /// The app, for titles and notes ("Twitch").
    pub app: &'a str,
    /// The keys whose values title the account, the first present taken.
    pub title: &'a [&'a str],
    /// `(key, fact type, label)` of each value recorded.
    pub facts: &'a [(&'a str, FactType, &'a str)],
    /// `(key, encoding, what happened)` of each time.
    pub times: &'a [(&'a str, Encoding, &'a str)],
    /// `(key, identifier type, what it is)` of each value that is the device's user's.
    pub owner: &'a [(&'a str, IdType, &'a str)],
}

/// One preferences file: an `accounts` phenomenon with the values present (none when no key of
/// `spec` is), the owner observed by the values `spec.owner` names; a file holding no `<map>`
/// is noted.
pub(crate) fn prefs_account(
    ctx: &AgentCtx<'_>,
    l: &Located,
    spec: &PrefsAccount<'_>,
) -> Result<(), RuntimeError> {
    let Some((inv, _, entries)) =
        super::read_xml(ctx, l, "shared preferences", super::prefs::shared_prefs)?
    else {
        return Ok(());
    };
    if entries.is_empty() && !inv.output.text.contains("<map") {
        ctx.unparsed(
            &crate::identity::artefact_name(&l.tree, &l.path),
            &format!(
                "could not parse {}'s preferences because they hold no <map> of preferences",
                spec.app
            ),
            Some(&inv.record.invocation_id),
        )?;
        return Ok(());
    }
    let get = |k: &str| {
        entries
            .iter()
            .find(|(n, _)| n == k)
            .map(|(_, v)| v.clone())
            .filter(|v| !v.is_empty())
    };
    if !spec.facts.iter().any(|(k, ..)| get(k).is_some()) {
        return Ok(());
    }
    let shown = spec.title.iter().find_map(|k| get(k)).unwrap_or_default();
    let mut d = Draft::new("accounts", format!("{} account {shown}", spec.app));
    d.fact(FactType::Path, Some(&l.path), &l.found);
    let mut said = Vec::new();
    for (k, ft, what) in spec.facts {
        if let Some(v) = get(k) {
            d.fact(*ft, Some(&v), &inv);
            said.push(format!("{what} {v}"));
        }
    }
    for (k, enc, what) in spec.times {
        let v = get(k);
        d.time(v.as_deref(), enc(v.as_deref()), what, &inv);
    }
    d.interpretation = format!(
        "{}: the {} account signed in on the phone ({}).",
        l.path,
        spec.app,
        said.join("; ")
    );
    record_draft(ctx, d)?;
    crate::identity::observe_owner_ids(
        ctx,
        &inv,
        spec.owner
            .iter()
            .map(|(k, id_type, what)| (get(k), *id_type, *what))
            .collect(),
        &|what| {
            format!(
                "{what} of the {} account signed in on the device ({}), the device's user.",
                spec.app, l.path
            )
        },
    )?;
    Ok(())
}
