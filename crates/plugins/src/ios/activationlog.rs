//! The activation daemon's log (`Logs/mobileactivationd/mobileactivationd.log` and its
//! rotations `.log.<n>`), the events of iLEAPP's `mobileActivationLogs`: one `device`
//! phenomenon per OS upgrade the daemon detected while migrating its data
//! (`perform_data_migration: Upgrade from <build> to <build> detected.`: the builds before and
//! after) and per start of the daemon (`Mobile Activation Startup`), each with the line's time as
//! written — C's ctime layout without a zone (`local_text`, read in the source's zone; iLEAPP
//! reads it as UTC, which the log does not say). The upgrades are the device's OS history.
//!
//! Read with `read_text` in 1 MiB pieces cut at line ends (`installlog::each_line`); at most
//! [`ENTRY_CAP`] events a source. Identities: none observed.

use masf_agents::RuntimeError;
use masf_graph::{FactType, TimeEncoding};
use masf_tools::Invoked;

use super::{Draft, ENTRY_CAP, Run, file_name};

/// The banner of a start.
const STARTUP: &str = "Mobile Activation Startup";

/// Triage of every activation log of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    let mut count = 0usize;
    for glob in ["mobileactivationd.log", "mobileactivationd.log.*"] {
        run.each(glob, |find, path| one(run, find, path, &mut count))?;
    }
    Ok(())
}

/// The builds of `Upgrade from <a> to <b> detected.` in a message.
fn upgrade(message: &str) -> Option<(&str, &str)> {
    let rest = &message[message.find("Upgrade from ")? + "Upgrade from ".len()..];
    let (from, rest) = rest.split_once(" to ")?;
    let to = rest.strip_suffix(" detected.")?;
    let build = |b: &str| !b.is_empty() && b.chars().all(|c| c.is_ascii_alphanumeric());
    (build(from) && build(to)).then_some((from, to))
}

fn one(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    count: &mut usize,
) -> Result<(), RuntimeError> {
    let file = file_name(path);
    super::installlog::each_line(run, path, "activation events", |inv, line| {
        let Some(t) = super::installlog::stamp(line) else {
            return Ok(true);
        };
        let message = line[t.len()..].trim();
        let (title, said) = if message.contains("perform_data_migration")
            && let Some((from, to)) = upgrade(message)
        {
            (
                format!("OS upgrade from {from} to {to} (activation log)"),
                format!(
                    "the activation daemon detected an upgrade of the OS from build {from} to build {to} while migrating its data"
                ),
            )
        } else if message.contains(STARTUP) {
            (
                "mobileactivationd started (activation log)".to_string(),
                "the activation daemon started (after a boot or a relaunch)".to_string(),
            )
        } else {
            return Ok(true);
        };
        if *count >= ENTRY_CAP as usize {
            return Ok(false);
        }
        *count += 1;
        let mut d = Draft::new("device", title.clone());
        d.fact(FactType::Path, Some(path), find);
        d.time(
            Some(t),
            Some(TimeEncoding::LocalText),
            title.trim_end_matches(" (activation log)"),
            inv,
        );
        d.fact(FactType::Text, Some(message), inv);
        d.interpretation = format!(
            "{file}: at {t} (as written, no zone: read in the device's time zone; iLEAPP reads it as UTC) {said}."
        );
        run.record(d)?;
        Ok(true)
    })
}
