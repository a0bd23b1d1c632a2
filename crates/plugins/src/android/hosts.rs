//! The system's hosts file (`/system/etc/hosts`), ALEAPP's `etc_hosts`: names that override DNS
//! for every app. Android ships only the localhost entries; any other is someone's change (an ad
//! blocker, a redirection, a blocked update or licence server).
//!
//! Identities: none observed.

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::FactType;

use super::Located;
use crate::drafts::{Draft, record_draft};
use crate::identity::artefact_name;

/// Whether `l` is the system's hosts file (`/system/etc/hosts`).
pub fn is_hosts(l: &Located) -> bool {
    l.name() == "hosts" && l.path.ends_with("/etc/hosts")
}

/// The system's hosts file, ALEAPP's `etc_hosts`: one `device` phenomenon per entry other than
/// Android's two defaults (`127.0.0.1 localhost`, `::1 ip6-localhost`) — an address with the
/// names it is given, which override DNS for every app: an ad blocker's list, a redirection, a
/// blocked update server. Comments left out.
pub fn hosts(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let name = artefact_name(&l.tree, &l.path);
    let Some(inv) = super::files::read(ctx, l)? else {
        return Ok(());
    };
    let mut entries = 0usize;
    for line in inv.output.text.lines() {
        let entry = line.split('#').next().unwrap_or("").trim();
        let mut words = entry.split_whitespace();
        let (Some(address), Some(host)) = (words.next(), words.next()) else {
            continue;
        };
        if matches!(
            (address, host),
            ("127.0.0.1", "localhost") | ("::1", "ip6-localhost")
        ) {
            continue;
        }
        entries += 1;
        if entries > super::MAX_ROWS as usize {
            ctx.unparsed(
                &name,
                &format!(
                    "more than {} entries; the first were recorded",
                    super::MAX_ROWS
                ),
                Some(&inv.record.invocation_id),
            )?;
            break;
        }
        let aliases: Vec<&str> = words.collect();
        let mut d = Draft::new("device", format!("Hosts file: {host} is {address}"));
        d.fact(FactType::Path, Some(&l.path), &l.found);
        d.fact(FactType::Identifier, Some(address), &inv);
        d.fact(FactType::Name, Some(host), &inv);
        for a in &aliases {
            d.fact(FactType::Name, Some(a), &inv);
        }
        d.interpretation = format!(
            "{name} maps {host}{} to {address}: every app on the phone reaching that name reaches that address instead of what DNS says ({}). Android ships only the localhost entries.",
            if aliases.is_empty() {
                String::new()
            } else {
                format!(" (and {})", aliases.join(", "))
            },
            if address == "0.0.0.0"
                || address.starts_with("127.")
                || address == "::"
                || address == "::1"
            {
                "a blocked name: an ad blocker or a blocked server"
            } else {
                "a redirection"
            }
        );
        record_draft(ctx, d)?;
    }
    Ok(())
}
