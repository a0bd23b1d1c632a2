//! The computers the device was synced with (`Media/iTunes_Control/iTunes/iTunesPrefs`): the
//! file keeps, per pairing, the computer's user name and, 64 bytes after it, the computer's
//! name, as NUL-padded strings. Read with the `strings` tool (offsets in its output), as
//! iLEAPP's `connectedDevices` reads them; one phenomenon per (user, computer) pair with every
//! offset it is stored at, and the computer as a `computer:<name>` device entity (its name is a
//! weak identifier: it names a seized computer's host name for the examiner to compare).

use std::collections::BTreeMap;

use masf_agents::RuntimeError;
use masf_graph::{EntityKind, FactType, IdType};
use serde_json::json;

use super::{Draft, Run};

/// Bytes from a user name to its computer's name in a pairing record.
const COMPUTER_AFTER_USER: u64 = 64;

/// Triage of every `iTunesPrefs` of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    let Some((find, paths)) = run.find("iTunesPrefs")? else {
        return Ok(());
    };
    for path in &paths {
        let Some(inv) = crate::calls::call_or_note(
            run.ctx,
            path,
            "strings",
            json!({"path": path, "min_len": 2}),
        )?
        else {
            continue;
        };
        let found: Vec<(u64, &str)> = inv
            .output
            .text
            .lines()
            .filter_map(|l| {
                let (o, s) = l.split_once('\t')?;
                Some((o.parse().ok()?, s))
            })
            .collect();
        let mut pairs: BTreeMap<(&str, &str), Vec<u64>> = BTreeMap::new();
        for w in found.windows(2) {
            let ((uo, user), (co, computer)) = (w[0], w[1]);
            if co == uo + COMPUTER_AFTER_USER {
                pairs.entry((user, computer)).or_default().push(uo);
            }
        }
        for ((user, computer), offsets) in pairs {
            let mut d = Draft::new("device", format!("Synced with the computer {computer}"));
            d.fact(FactType::Path, Some(path), &find);
            d.fact(FactType::Name, Some(user), &inv);
            d.fact(FactType::Name, Some(computer), &inv);
            d.interpretation = format!(
                "{path} records the device's pairing with the computer {computer} (its user {user}) at offset(s) {}.",
                offsets
                    .iter()
                    .map(u64::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            );
            run.record(d)?;
            run.observe(
                &format!("computer:{computer}"),
                EntityKind::Device,
                computer,
                IdType::DeviceName,
                computer,
                &inv,
                format!("The name of a computer the device was synced with (user {user})."),
            )?;
        }
    }
    Ok(())
}
