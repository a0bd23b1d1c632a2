//! Proton VPN (`ch.protonvpn.android`), ALEAPP's `protonVPN` (`get_protonvpn_device_info`,
//! `get_protonvpn_connection_history`): the public address, ISP and country Proton's service last
//! saw the phone at, and the connections the app logged — when, to which server.
//!
//! | file | phenomenon | fields |
//! |---|---|---|
//! | `shared_prefs/ServerListUpdater.xml` | one `device` ("ProtonVPN last known network <IP address>") | public IP address, ISP, country, netzone, server and country counts; address checked (`ipAddressCheckTimestamp`, Unix ms), server list updated (`lastFullUpdateTimestamp`, Unix ms), server list last modified (`serverListLastModified`, Unix, unit by size) |
//! | `log/Data.log` (and the rotated `Data1.log`, `Data2.log`) | one `app_usage` per connection event ("ProtonVPN connecting to <server>", "ProtonVPN connected", "ProtonVPN connection requested", "ProtonVPN disconnection requested", "ProtonVPN server switch") | the event as logged (`conn.connect:start`, …), the message, the server's host name and entry IP address where the line names them; when (the line's own ISO 8601 UTC time) |
//!
//! The log's lines are `<time> | <level> | <category>:<event> | <message>`; the connection events
//! read are those of `conn.connect` (`trigger`, `start`, `connected`), `conn.disconnect` and
//! `conn.server_switch` (port scans and state changes are left: they repeat each connection), and
//! — as ALEAPP reads the app's older lines — any line naming a `….protonvpn.net` host after
//! `to:`. A continuation line (a multi-line message) is part of the line before it. The IP
//! address of `ServerListUpdater.xml` is the one Proton's API saw: the phone's own network's when
//! not connected, the VPN's exit when connected (the file does not say which); a server is
//! Proton's, not the user's. Identities: none. Not read: `databases/db` (the Proton account, its
//! `UserEntity` and `AccountEntity`). A log past 1 MiB is read in its first 1 MiB (noted);
//! preferences that are not XML are noted.

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{FactType, TimeEncoding};
use serde_json::json;

use super::Located;
use super::prefs::prefs_xml;
use crate::drafts::{Draft, date_text, record_draft, unix_by_magnitude, unix_millis};
use crate::identity::{args_on, artefact_name};

/// Most bytes of one log read (`read_text`'s limit; the app rotates its log at 300 KB).
const LOG_MAX: u64 = 1 << 20;

/// Whether `l` is the app's server-list preferences.
pub fn is_prefs(l: &Located) -> bool {
    l.name() == "ServerListUpdater.xml" && l.path.contains("/ch.protonvpn.android/shared_prefs/")
}

/// Whether `l` is one of the app's logs (`Data.log`, rotated `Data1.log`, `Data2.log`).
pub fn is_log(l: &Located) -> bool {
    let n = l.name();
    l.path.contains("/ch.protonvpn.android/log/") && n.starts_with("Data") && n.ends_with(".log")
}

/// `ServerListUpdater.xml`: one phenomenon (none when it holds none of the values read).
pub fn prefs(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some((inv, prefs)) = prefs_xml(ctx, l, "ProtonVPN", None)? else {
        return Ok(());
    };
    let get = |k: &str| super::prefs::pref(&prefs, k);
    let facts: [(&str, FactType, &str); 6] = [
        ("ipAddress", FactType::Identifier, "public IP address"),
        ("lastKnownIsp", FactType::Text, "ISP"),
        ("lastKnownCountry", FactType::Text, "country"),
        ("lastNetzoneForLogicals", FactType::Text, "netzone"),
        ("vpnServerCount", FactType::Count, "servers"),
        ("vpnCountryCount", FactType::Count, "countries"),
    ];
    let times: [(&str, crate::drafts::Encoding, &str); 3] = [
        (
            "ipAddressCheckTimestamp",
            unix_millis,
            "ProtonVPN public IP address checked",
        ),
        (
            "lastFullUpdateTimestamp",
            unix_millis,
            "ProtonVPN server list updated",
        ),
        (
            "serverListLastModified",
            unix_by_magnitude,
            "ProtonVPN server list last modified (by the service)",
        ),
    ];
    if !facts.iter().any(|(k, ..)| get(k).is_some())
        && !times.iter().any(|(k, ..)| get(k).is_some())
    {
        return Ok(());
    }
    let ip = get("ipAddress");
    let mut d = Draft::new(
        "device",
        match &ip {
            Some(ip) => format!("ProtonVPN last known network {ip}"),
            None => "ProtonVPN last known network".to_string(),
        },
    );
    d.fact(FactType::Path, Some(&l.path), &l.found);
    let mut said = Vec::new();
    for (k, ft, what) in facts {
        if let Some(v) = get(k) {
            d.fact(ft, Some(&v), &inv);
            said.push(format!("{what} {v}"));
        }
    }
    for (k, enc, what) in times {
        let v = get(k);
        d.time(v.as_deref(), enc(v.as_deref()), what, &inv);
        if let Some(v) = v {
            said.push(format!("{k} {v}"));
        }
    }
    d.interpretation = format!(
        "{}: the public address, ISP and country Proton VPN's service last saw the phone at (the phone's own network's when not connected, the VPN's exit when connected: the file does not say which), and the server list's state: {}.",
        l.path,
        said.join(", ")
    );
    record_draft(ctx, d)
}

/// A connection event of a log line: `(title, what it is)`, by the line's category (lower-cased)
/// and message; `None` for another line.
fn connection_event(
    tag: &str,
    message: &str,
    host: Option<&str>,
) -> Option<(String, &'static str)> {
    let to = |base: &str| match host {
        Some(h) => format!("{base} to {h}"),
        None => base.to_string(),
    };
    Some(match tag {
        "conn.connect:trigger" => (
            "ProtonVPN connection requested".to_string(),
            "a connection was asked for (by the user, or by the app: the message gives the reason)",
        ),
        "conn.connect:start" => (
            to("ProtonVPN connecting"),
            "the app began connecting to a server (the message names the protocol and the entry server)",
        ),
        "conn.connect:connected" => (
            "ProtonVPN connected".to_string(),
            "the VPN connection was up",
        ),
        "conn.disconnect:trigger" => (
            "ProtonVPN disconnection requested".to_string(),
            "a disconnection was asked for (the message gives the reason)",
        ),
        t if t.starts_with("conn.server_switch:") => (
            to("ProtonVPN server switch"),
            "the app switched, or tried to switch, to another server",
        ),
        _ if message.contains("to:") && host.is_some_and(|h| h.ends_with(".protonvpn.net")) => (
            to("ProtonVPN connecting"),
            "the app logged a connection to a Proton VPN server (the older log's wording)",
        ),
        _ => return None,
    })
}

/// The server a message names: the host after `IP: ` (`<host>/<entry IP>`), else the first word
/// ending in `.protonvpn.net`; with the entry IP address where the message gives one.
fn server(message: &str) -> (Option<&str>, Option<&str>) {
    let split = |c: char| c.is_whitespace() || matches!(c, ',' | '(' | ')' | '"' | '\'' | ';');
    if let Some(rest) = message.split("IP: ").nth(1) {
        let word = rest.split(split).next().unwrap_or("");
        let (host, ip) = word.split_once('/').unwrap_or((word, ""));
        if host.contains('.') {
            let ip = Some(ip).filter(|ip| ip.parse::<std::net::IpAddr>().is_ok());
            return (Some(host), ip);
        }
    }
    let host = message
        .split(|c: char| split(c) || c == '/')
        .find(|w| w.ends_with(".protonvpn.net") && w.len() > ".protonvpn.net".len());
    (host, None)
}

/// One log: a phenomenon per connection event.
pub fn log(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let name = artefact_name(&l.tree, &l.path);
    let Some(inv) = crate::calls::call_or_note(
        ctx,
        &name,
        "read_text",
        args_on(&l.tree, json!({"path": l.path, "length": LOG_MAX})),
    )?
    else {
        return Ok(());
    };
    let text = &inv.output.text;
    if text.len() as u64 >= LOG_MAX {
        ctx.unparsed(
            &name,
            &format!(
                "the Proton VPN log is larger than {LOG_MAX} bytes: only its first {LOG_MAX} bytes were read"
            ),
            Some(&inv.record.invocation_id),
        )?;
    }
    for (i, line) in text.lines().enumerate() {
        let mut parts = line.splitn(4, " | ");
        let (Some(stamp), Some(_level), Some(tag)) = (parts.next(), parts.next(), parts.next())
        else {
            continue;
        };
        let stamp = stamp.trim();
        if !stamp.starts_with(|c: char| c.is_ascii_digit())
            || date_text(Some(stamp)) != Some(TimeEncoding::Iso8601)
        {
            continue;
        }
        let tag = tag.trim();
        let message = parts.next().map(str::trim).unwrap_or("");
        let (host, ip) = server(message);
        let Some((title, what)) = connection_event(&tag.to_ascii_lowercase(), message, host) else {
            continue;
        };
        let mut d = Draft::new("app_usage", title.clone());
        d.fact(FactType::Path, Some(&l.path), &l.found);
        d.fact(FactType::Text, Some(tag), &inv);
        d.fact(FactType::Text, Some(message), &inv);
        d.fact(FactType::Identifier, host, &inv);
        d.fact(FactType::Identifier, ip, &inv);
        d.time(Some(stamp), Some(TimeEncoding::Iso8601), &title, &inv);
        d.interpretation = format!(
            "line {} of {}: {what} ({tag}{}{}); the time is the line's own (ISO 8601, UTC){}.",
            i + 1,
            l.path,
            host.map(|h| format!(", server {h}")).unwrap_or_default(),
            ip.map(|a| format!(", entry IP address {a}"))
                .unwrap_or_default(),
            if host.is_some() {
                ": the server is Proton's, not the user's"
            } else {
                ""
            },
        );
        record_draft(ctx, d)?;
    }
    Ok(())
}
