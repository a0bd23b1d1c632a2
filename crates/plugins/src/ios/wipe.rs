//! Wipe indicators (`/private/var/root/.obliterated`, `.bootstrapped`), iLEAPP's
//! `wipe_indicators`: iOS creates these files when the device is erased ("Erase All Content and
//! Settings", a restore) and set up again, so their modification time, as `stat` gives it, is
//! when the device first booted after its last reset. One `device` phenomenon per file with that
//! time: everything on the device is younger than it. An extraction that does not keep
//! modification times makes it the extraction's (said in the interpretation).
//!
//! Identities: none observed.

use masf_agents::RuntimeError;
use masf_graph::FactType;
use masf_tools::Invoked;
use serde_json::json;

use super::{Draft, Run};

/// The files read, and what their time is.
const FILES: [(&str, &str); 2] = [
    (".obliterated", "Device erased (first boot after the reset)"),
    (".bootstrapped", "Device set up after a reset (first boot)"),
];

/// Triage of the source's wipe indicators.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    for (name, what) in FILES {
        run.each(name, |find, path| {
            if path.ends_with(&format!("/root/{name}")) {
                one(run, find, path, what)
            } else {
                Ok(())
            }
        })?;
    }
    Ok(())
}

fn one(run: &Run<'_, '_>, find: &Invoked, path: &str, what: &str) -> Result<(), RuntimeError> {
    let Some(inv) = crate::calls::call_or_note(run.ctx, path, "stat", json!({"path": path}))?
    else {
        return Ok(());
    };
    let Some((modified, encoding)) = crate::outputs::stat_modified(&inv.output.text) else {
        run.ctx.unparsed(
            path,
            "the file system keeps no modification time for it: the indicator's value is that time",
            Some(&inv.record.invocation_id),
        )?;
        return Ok(());
    };
    let mut d = Draft::new("device", format!("{what}: {modified}"));
    d.fact(FactType::Path, Some(path), find);
    d.time(Some(modified), Some(encoding), what, &inv);
    d.interpretation = format!(
        "{path} was last modified {modified}: iOS writes it when the device is erased and set up again, so this is when the device first booted after its last reset; nothing on it is older than that, unless restored from a backup. An extraction that did not keep the file's times would make this the extraction's time."
    );
    run.record(d)
}
