//! The leases the device's own DHCP server gave out (`/private/var/db/dhcpd_leases`, written
//! by `bootpd` when Personal Hotspot shares the phone's connection), iLEAPP's `dhcphp`
//! (`dhcpHotspotClients`, "DHCP Hotspot Leases"), read with `read_text`:
//!
//! | block | phenomenon | fields |
//! |---|---|---|
//! | each `{ … }` block of `key=value` lines | one `wifi` per lease ("Personal Hotspot lease <IP address> to <name>") | the client's name (`name`: the host name it sent), the IP address given (`ip_address`), its hardware address (`hw_address`, after the hardware type and comma: `1,` is Ethernet; octets without leading zeros, as bootpd writes them), the client identifier (`identifier`, as written), the lease's end (`lease`, hexadecimal Unix seconds, as written), and any other line of the block (key and value) |
//!
//! These are other devices that joined the phone's hotspot (or the owner's own computer or
//! tablet): not the phone's own leases, which `db/dhcpclient/leases/` keeps ([`super::wifi`]).
//! The hardware address is the one the client showed the hotspot — a private (per-network)
//! address on recent Apple and Android clients, so not necessarily the client's own. `lease` is
//! when bootpd would take the address back (Unix seconds in hexadecimal, `0x5fd2a1b3`): no time
//! encoding reads hexadecimal seconds, so it is kept as written and said, not put on the
//! timeline. The file keeps the last lease per client, not every connection.
//!
//! Read in 1 MiB pieces cut at line ends (`installlog::each_line`), at most [`ENTRY_CAP`]
//! leases a source. A block cut before its closing `}` (the file's end) is noted and none of it
//! recorded; a file with text but no block is noted (an empty one is not: no client yet); lines
//! outside blocks are passed over. Only
//! `…/var/db/dhcpd_leases*` is read: a file of that name elsewhere (an app's) is neither read
//! nor noted.
//!
//! Identities: none observed (a client's name is the name a device gave itself; whose device it
//! was, the examiner weighs).

use masf_agents::RuntimeError;
use masf_graph::FactType;
use masf_tools::Invoked;

use super::{Draft, ENTRY_CAP, Run};

/// Whether `path` is bootpd's lease file.
pub fn is_store(path: &str) -> bool {
    path.rsplit_once('/').is_some_and(|(dir, name)| {
        (dir.ends_with("/var/db") || dir == "var/db") && name.starts_with("dhcpd_leases")
    })
}

/// The fields of a lease: `(key, type, label)`; `hw_address` is read apart.
const FIELDS: [(&str, FactType, &str); 4] = [
    ("name", FactType::Name, "client name"),
    ("ip_address", FactType::Identifier, "IP address given"),
    ("identifier", FactType::Identifier, "client identifier"),
    (
        "lease",
        FactType::Text,
        "lease ends (hexadecimal Unix seconds, as written)",
    ),
];

/// A block's `key=value` lines, each with the call whose output holds it.
type Block = Vec<(String, String, Invoked)>;

/// Triage of every lease file of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    let mut count = 0usize;
    run.each("dhcpd_leases*", |find, path| {
        if !is_store(path) {
            return Ok(());
        }
        one(run, find, path, &mut count)
    })
}

fn one(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    count: &mut usize,
) -> Result<(), RuntimeError> {
    let mut block: Option<Block> = None;
    let mut blocks = 0usize;
    let mut last: Option<Invoked> = None;
    super::installlog::each_line(run, path, "Personal Hotspot leases", |inv, line| {
        let l = line.trim();
        if !l.is_empty() {
            last = Some(inv.clone());
        }
        if l == "{" {
            block = Some(Vec::new());
        } else if l == "}" {
            if let Some(b) = block.take() {
                blocks += 1;
                if *count >= ENTRY_CAP as usize {
                    return Ok(false);
                }
                *count += 1;
                lease(run, find, path, &b)?;
            }
        } else if let (Some(b), Some((k, v))) = (block.as_mut(), l.split_once('=')) {
            b.push((k.trim().to_string(), v.trim().to_string(), inv.clone()));
        }
        Ok(true)
    })?;
    let cite = last.as_ref().map(|i| i.record.invocation_id.clone());
    if block.is_some() {
        run.ctx.unparsed(
            path,
            "the file ends inside a lease block (no closing brace): that lease was cut and not recorded",
            cite.as_deref(),
        )?;
    } else if blocks == 0 && cite.is_some() {
        run.ctx.unparsed(
            path,
            "could not read the DHCP server's leases because the file holds no lease block ({ … } of key=value lines)",
            cite.as_deref(),
        )?;
    }
    Ok(())
}

/// One lease block.
fn lease(run: &Run<'_, '_>, find: &Invoked, path: &str, b: &Block) -> Result<(), RuntimeError> {
    let get = |key: &str| {
        b.iter()
            .find(|(k, v, _)| k == key && !v.is_empty())
            .map(|(_, v, inv)| (v.as_str(), inv))
    };
    let ip = get("ip_address").map(|(v, _)| v);
    let name = get("name").map(|(v, _)| v);
    let title = match (ip, name) {
        (Some(i), Some(n)) => format!("Personal Hotspot lease {i} to {n}"),
        (Some(i), None) => format!("Personal Hotspot lease {i}"),
        (None, Some(n)) => format!("Personal Hotspot lease to {n}"),
        (None, None) => "Personal Hotspot lease (no address or name)".to_string(),
    };
    let mut d = Draft::new("wifi", title);
    d.fact(FactType::Path, Some(path), find);
    let mut said = Vec::new();
    for (key, ft, label) in FIELDS {
        if let Some((v, inv)) = get(key) {
            d.fact(ft, Some(v), inv);
            said.push(format!("{label} {v}"));
        }
    }
    if let Some((v, inv)) = get("hw_address") {
        // `<hardware type>,<address>`: the address alone is the identifier
        let (kind, mac) = v.split_once(',').unwrap_or(("", v));
        d.fact(FactType::Identifier, Some(mac), inv);
        said.push(format!(
            "hardware address {mac}{}",
            match kind {
                "1" => " (Ethernet/Wi-Fi)".to_string(),
                "" => String::new(),
                k => format!(" (hardware type {k})"),
            }
        ));
    }
    for (k, v, inv) in b {
        if v.is_empty() || FIELDS.iter().any(|(f, _, _)| f == k) || k == "hw_address" {
            continue;
        }
        d.fact(FactType::Text, Some(v.as_str()), inv);
        said.push(format!("{k} {v}"));
    }
    d.interpretation = format!(
        "A lease the phone's DHCP server (bootpd, for Personal Hotspot) gave a client ({path}): {}. The client joined the phone's hotspot; its hardware address is the one it showed the hotspot (a private address on recent phones). The lease's end is Unix seconds in hexadecimal, kept as written (not on the timeline); the file keeps the last lease per client.",
        if said.is_empty() {
            "no field".to_string()
        } else {
            said.join("; ")
        }
    );
    run.record(d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_bootpd_lease_files() {
        assert!(is_store("/private/var/db/dhcpd_leases"));
        assert!(is_store("/private/var/db/dhcpd_leases~"));
        assert!(is_store("var/db/dhcpd_leases"));
        assert!(!is_store(
            "/private/var/mobile/Containers/Data/Application/X/Library/db/dhcpd_leases"
        ));
        assert!(!is_store("/private/var/db/dhcpclient/leases/en0.plist"));
    }
}
