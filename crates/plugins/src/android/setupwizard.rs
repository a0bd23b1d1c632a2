//! The setup wizard's record (`com.google.android.settings.intelligence/shared_prefs/
//! setup_wizard_info.xml`), ALEAPP's `get_setupWizardinfo`: when the phone's setup wizard
//! finished (`suw_finished_time_ms`, Unix ms) — the first use of the phone after it was new or
//! reset —, with every other value of the file as written. One `device` phenomenon per file
//! (none when it holds nothing; a file without a `<map>` is noted). Read with `read_xml`. Identities: none.

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{FactType, TimeEncoding};

use super::Located;
use crate::drafts::{Draft, record_draft};

/// Whether `l` is the setup wizard's record.
pub fn is_file(l: &Located) -> bool {
    l.name() == "setup_wizard_info.xml"
        && l.path
            .contains("/com.google.android.settings.intelligence/shared_prefs/")
}

/// One `setup_wizard_info.xml`.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some((inv, _, entries)) =
        super::read_xml(ctx, l, "shared preferences", super::prefs::shared_prefs)?
    else {
        return Ok(());
    };
    if entries.is_empty() {
        // an empty `<map/>` holds nothing; a file without one is no preferences file
        if !inv.output.text.contains("<map") {
            ctx.unparsed(
                &crate::identity::artefact_name(&l.tree, &l.path),
                "could not parse the setup wizard's record because it holds no <map> of preferences",
                Some(&inv.record.invocation_id),
            )?;
        }
        return Ok(());
    }
    let finished = entries
        .iter()
        .find(|(k, _)| k == "suw_finished_time_ms")
        .map(|(_, v)| v.as_str())
        .filter(|v| v.parse::<i64>().is_ok_and(|t| t > 0));
    let mut d = Draft::new(
        "device",
        if finished.is_some() {
            "Setup wizard finished"
        } else {
            "Setup wizard record"
        },
    );
    d.fact(FactType::Path, Some(&l.path), &l.found);
    d.time(
        finished,
        finished.map(|_| TimeEncoding::UnixMillis),
        "Setup wizard finished (the phone first set up after it was new or reset)",
        &inv,
    );
    let mut said = Vec::new();
    for (k, v) in &entries {
        if k != "suw_finished_time_ms" {
            d.fact(FactType::Text, Some(v), &inv);
        }
        said.push(format!("{k} = {v}"));
    }
    d.interpretation = format!(
        "{}: the setup wizard's record{}; {}.",
        l.path,
        finished
            .map(|t| format!(": it finished at {t} (Unix ms), the first use of the phone after it was new or reset"))
            .unwrap_or_default(),
        said.join("; ")
    );
    record_draft(ctx, d)
}
