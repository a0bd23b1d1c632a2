//! NordVPN (`com.nordvpn.android/databases/Moose.db` and `Settings.db`), ALEAPP's `nordVpn`
//! (`nordvpn_app_events`, and the database part of `nordvpn_settings`): the connection state the
//! app last recorded (the VPN server, its address, the network under it), the queued events that
//! each carry whether the phone was on the VPN and the network it was on, and the connection
//! settings.
//!
//! | store: table | phenomenon | fields |
//! |---|---|---|
//! | `Moose.db`: `shared_context` (key, JSON value) | one `apps` ("NordVPN recorded state (server <domain>)") | logged in, on VPN, server city, country, domain, IP address and group, protocol, technology, ISP and its ASN, mobile network type, active network interface, kill switch, connection preference, consent level, threat protection, dark web monitor, post-quantum, Meshnet; last cache date and token renewal (Unix s) |
//! | `Moose.db`: `queue_elements` (`obj`, a JSON text) | one `app_usage` per queued event ("NordVPN event <name>") | event name, category and group, local time as stored (with its offset), session count, ISP and ASN, on VPN, device country, mobile network type, device fingerprint, the event's body (JSON); a cell that is not JSON kept as stored; when (`event.timestamp`, Unix s) |
//! | `Settings.db`: `AutoConnectEntity` | one `apps` ("NordVPN auto-connect settings") | auto-connect, on Wi-Fi, mobile and Ethernet, exceptions |
//! | `Settings.db`: `PreferredTechnologyEntity` | one `apps` ("NordVPN preferred technology <name>") | name, technology id, protocol ids, API protocol ids |
//! | `Settings.db`: `ConnectionLocationEntity` | one `apps` ("NordVPN preferred connection location") | preference type, category, country, region and server ids |
//! | `Settings.db`: `DnsConfigurationEntity` | one `apps` ("NordVPN custom DNS") | custom DNS addresses |
//! | `Settings.db`: `MultiFactorAuthStatusEntity` | one `apps` ("NordVPN multi-factor authentication <status>") | status |
//!
//! The shared context is the app's analytics library's: its keys carry the prefix
//! `application.nordvpnapp.config.` and a type suffix (`.value._string`, `._bool`, …), each value
//! a JSON scalar, unwrapped in the query (`true` reads 1). The state is the last the app recorded,
//! not a history. The queue holds the events the app had not yet sent, not every event: each says,
//! at its time, whether the phone was on the VPN and which network (ISP, ASN) it was on — the ISP
//! is the phone's own network's, not the VPN server's. Event names, categories, network types and
//! settings are the app's own, kept as stored. Identities: none (the device fingerprint is a fact).
//! Not read: the preference files (device and user identifiers, location record — its values
//! encrypted), `Main.db` (the server catalogue, what the service offers), `PDP.db`. A store with
//! none of its tables is noted; columns and members are taken by name (absent ones NULL).

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::FactType;

use super::{Located, Schema};
use crate::calls::json_at;
use crate::drafts::{RowPhenomena, no_identity, unix_seconds};
use crate::identity::{artefact_name, schema_on};
use crate::outputs::{Table, raw};

/// Whether `l` is one of NordVPN's stores read.
pub fn is_store(l: &Located) -> bool {
    matches!(l.name(), "Moose.db" | "Settings.db")
        && l.path.contains("/com.nordvpn.android/databases/")
}

/// The prefix of the shared context's keys.
const PREFIX: &str = "application.nordvpnapp.config.";

/// The shared context's values read: `(name after the prefix, alias, type, label)`.
const STATE: &[(&str, &str, FactType, &str)] = &[
    (
        "current_state.is_logged_in",
        "logged_in",
        FactType::Text,
        "logged in",
    ),
    (
        "current_state.is_on_vpn",
        "on_vpn",
        FactType::Text,
        "on VPN",
    ),
    (
        "current_state.server_city",
        "server_city",
        FactType::Text,
        "server city",
    ),
    (
        "current_state.server_country",
        "server_country",
        FactType::Text,
        "server country",
    ),
    (
        "current_state.server_domain",
        "server_domain",
        FactType::Identifier,
        "server",
    ),
    (
        "current_state.server_ip",
        "server_ip",
        FactType::Identifier,
        "server IP address",
    ),
    (
        "current_state.server_group",
        "server_group",
        FactType::Text,
        "server group",
    ),
    (
        "current_state.protocol",
        "protocol",
        FactType::Text,
        "protocol",
    ),
    (
        "current_state.technology",
        "technology",
        FactType::Text,
        "technology",
    ),
    ("current_state.isp", "isp", FactType::Text, "ISP"),
    (
        "current_state.isp_asn",
        "isp_asn",
        FactType::Identifier,
        "ISP ASN",
    ),
    (
        "current_state.mobile_network_type",
        "network_type",
        FactType::Text,
        "mobile network type",
    ),
    (
        "current_state.active_network_interface",
        "interface",
        FactType::Text,
        "network interface",
    ),
    (
        "user_preferences.kill_switch_enabled",
        "kill_switch",
        FactType::Text,
        "kill switch",
    ),
    (
        "user_preferences.connection_preference",
        "connection_preference",
        FactType::Text,
        "connection preference",
    ),
    (
        "user_preferences.consent_level",
        "consent_level",
        FactType::Text,
        "consent level",
    ),
    (
        "user_preferences.threat_protection_lite_enabled",
        "threat_protection",
        FactType::Text,
        "threat protection",
    ),
    (
        "user_preferences.dark_web_monitor_enabled",
        "dark_web_monitor",
        FactType::Text,
        "dark web monitor",
    ),
    (
        "user_preferences.post_quantum_enabled",
        "post_quantum",
        FactType::Text,
        "post-quantum",
    ),
    (
        "user_preferences.meshnet_enabled",
        "meshnet",
        FactType::Text,
        "Meshnet",
    ),
];

/// The shared context's times read (Unix seconds): `(name after the prefix, alias, what)`.
const STATE_TIMES: &[(&str, &str, &str)] = &[
    (
        "current_state.last_cache_date",
        "last_cache_date",
        "NordVPN state cached",
    ),
    (
        "current_state.token_renew_date",
        "token_renew_date",
        "NordVPN token renewed",
    ),
];

/// The value of the shared context's key `name` (bare, or with a type suffix; never a `.meta`
/// one) as `alias`, its JSON scalar unwrapped (a value that is not JSON as stored).
fn context_value(name: &str, alias: &str) -> String {
    let p = format!("{PREFIX}{name}");
    format!(
        "(SELECT CASE WHEN json_valid(val) THEN json_extract(val, '$') ELSE val END FROM shared_context WHERE key GLOB '{p}.value.*' OR key GLOB '{p}.value_*' OR key GLOB '{p}._*' OR key = '{p}.value' OR key = '{p}' ORDER BY rowid DESC LIMIT 1) AS {alias}"
    )
}

/// `<prefix> <first present of cols>` (else `fallback`).
fn named<'a>(
    prefix: &'a str,
    cols: &'a [&'a str],
    fallback: &'a str,
) -> impl Fn(&Table, &[Option<String>]) -> String + 'a {
    move |t, row| match cols.iter().find_map(|c| raw(t, row, c)) {
        Some(shown) => format!("{prefix} {shown}"),
        None => fallback.to_string(),
    }
}

/// One `Moose.db` or `Settings.db`.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(schema) = schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    let moose = l.name() == "Moose.db";
    let expected: &[&str] = if moose {
        &["shared_context", "queue_elements"]
    } else {
        &[
            "AutoConnectEntity",
            "PreferredTechnologyEntity",
            "ConnectionLocationEntity",
            "DnsConfigurationEntity",
            "MultiFactorAuthStatusEntity",
        ]
    };
    if !expected.iter().any(|t| schema.contains_key(*t)) {
        ctx.unparsed(
            &artefact_name(&l.tree, &l.path),
            &format!(
                "not NordVPN's {}: none of the tables {}",
                l.name(),
                expected.join(", ")
            ),
            None,
        )?;
        return Ok(());
    }
    if moose {
        state(ctx, l, &schema)?;
        queue(ctx, l, &schema)
    } else {
        settings(ctx, l, &schema)
    }
}

/// `shared_context`: the state the app last recorded, one phenomenon (none when no key of the
/// app's is there).
fn state(ctx: &AgentCtx<'_>, l: &Located, schema: &Schema) -> Result<(), RuntimeError> {
    let Some(cols) = schema.get("shared_context") else {
        return Ok(());
    };
    if !crate::calls::require_columns(
        ctx,
        &artefact_name(&l.tree, &l.path),
        "NordVPN's Moose.db",
        "shared_context",
        cols,
        &["key", "val"],
    )? {
        return Ok(());
    }
    let sql = format!(
        "SELECT {}, {} WHERE EXISTS (SELECT 1 FROM shared_context WHERE key GLOB '{PREFIX}*')",
        STATE
            .iter()
            .map(|(n, a, ..)| context_value(n, a))
            .collect::<Vec<_>>()
            .join(", "),
        STATE_TIMES
            .iter()
            .map(|(n, a, _)| context_value(n, a))
            .collect::<Vec<_>>()
            .join(", "),
    );
    let fields: Vec<(&str, FactType, &str)> =
        STATE.iter().map(|(_, a, t, w)| (*a, *t, *w)).collect();
    let times: Vec<(&str, &str, crate::drafts::Encoding)> = STATE_TIMES
        .iter()
        .map(|(_, a, w)| (*a, *w, unix_seconds as crate::drafts::Encoding))
        .collect();
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "shared_context",
            category: "apps",
            what: "the connection state and settings NordVPN last recorded in its analytics context (not a history; values as stored, true read as 1; the ISP and ASN are the phone's own network's; times Unix seconds)",
            title: &|t, row| match raw(t, row, "server_domain") {
                Some(server) => format!("NordVPN recorded state (server {server})"),
                None => "NordVPN recorded state".to_string(),
            },
            fields: &fields,
            times: &times,
        },
        &mut |_, _, _| Ok(()),
    )
}

/// `queue_elements`: one phenomenon per queued event.
fn queue(ctx: &AgentCtx<'_>, l: &Located, schema: &Schema) -> Result<(), RuntimeError> {
    let Some(cols) = schema.get("queue_elements") else {
        return Ok(());
    };
    if !crate::calls::require_columns(
        ctx,
        &artefact_name(&l.tree, &l.path),
        "NordVPN's Moose.db",
        "queue_elements",
        cols,
        &["obj"],
    )? {
        return Ok(());
    }
    let state = "$.context.application.nordvpnapp.config.current_state";
    let js = |path: &str, alias: &str| format!("{} AS {alias}", json_at("obj", path));
    let sql = format!(
        "SELECT rowid AS rid, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, CASE WHEN json_valid(obj) THEN NULL ELSE obj END AS stored FROM queue_elements ORDER BY rowid",
        js("$.event.timestamp", "at"),
        js("$.event.datetime_local", "local_time"),
        js("$.event.name", "name"),
        js("$.event.category", "category"),
        js("$.event.group", "event_group"),
        js("$.event.session.count", "session_count"),
        js(&format!("{state}.isp.value"), "isp"),
        js(&format!("{state}.isp_asn.value"), "isp_asn"),
        js(&format!("{state}.is_on_vpn.value"), "on_vpn"),
        js("$.context.device.location.country", "country"),
        js(
            &format!("{state}.mobile_network_type.value"),
            "network_type"
        ),
        js("$.context.device.fp", "fingerprint"),
        js("$.body", "body"),
    );
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "queue_elements",
            category: "app_usage",
            what: "an event NordVPN queued for its analytics and had not yet sent (names and network type as stored; on VPN as stored, true read as 1; the ISP and ASN are the phone's own network's; the local time as stored, with the phone's offset; the time Unix seconds)",
            title: &named("NordVPN event", &["name"], "NordVPN queued event"),
            fields: &[
                ("name", FactType::Text, "event"),
                ("category", FactType::Text, "category"),
                ("event_group", FactType::Text, "group"),
                ("local_time", FactType::Text, "local time"),
                ("session_count", FactType::Count, "session count"),
                ("on_vpn", FactType::Text, "on VPN"),
                ("isp", FactType::Text, "ISP"),
                ("isp_asn", FactType::Identifier, "ISP ASN"),
                ("country", FactType::Text, "device country"),
                ("network_type", FactType::Text, "mobile network type"),
                ("fingerprint", FactType::Identifier, "device fingerprint"),
                ("body", FactType::Text, "body"),
                ("stored", FactType::Text, "stored (not JSON)"),
            ],
            times: &[("at", "NordVPN event recorded", unix_seconds)],
        },
        &mut |_, _, _| Ok(()),
    )
}

/// `Settings.db`: one phenomenon per settings row.
fn settings(ctx: &AgentCtx<'_>, l: &Located, schema: &Schema) -> Result<(), RuntimeError> {
    super::record_table(
        ctx,
        l,
        schema,
        "isAutoConnectEnabled",
        &|_| Vec::new(),
        &RowPhenomena {
            table: "AutoConnectEntity",
            category: "apps",
            what: "NordVPN's auto-connect settings (flags as stored; the exceptions as stored)",
            title: &|_, _| "NordVPN auto-connect settings".to_string(),
            fields: &[
                ("isAutoConnectEnabled", FactType::Text, "auto-connect"),
                ("wifiEnabled", FactType::Text, "on Wi-Fi"),
                ("mobileEnabled", FactType::Text, "on mobile data"),
                ("ethernetEnabled", FactType::Text, "on Ethernet"),
                ("exceptions", FactType::Text, "exceptions"),
            ],
            times: &[],
        },
        &mut no_identity,
    )?;
    super::record_table(
        ctx,
        l,
        schema,
        "technologyId",
        &|_| Vec::new(),
        &RowPhenomena {
            table: "PreferredTechnologyEntity",
            category: "apps",
            what: "the VPN technology and protocols NordVPN was set to use (ids as stored)",
            title: &named(
                "NordVPN preferred technology",
                &["name", "technologyId"],
                "NordVPN preferred technology",
            ),
            fields: &[
                ("name", FactType::Text, "technology"),
                ("technologyId", FactType::Identifier, "technology id"),
                ("protocolIds", FactType::Text, "protocol ids"),
                ("apiProtocolIds", FactType::Text, "API protocol ids"),
            ],
            times: &[],
        },
        &mut no_identity,
    )?;
    super::record_table(
        ctx,
        l,
        schema,
        "preferenceType",
        &|_| Vec::new(),
        &RowPhenomena {
            table: "ConnectionLocationEntity",
            category: "apps",
            what: "where NordVPN was set to connect (preference type and ids as stored)",
            title: &|_, _| "NordVPN preferred connection location".to_string(),
            fields: &[
                ("preferenceType", FactType::Text, "preference type"),
                ("categoryId", FactType::Identifier, "category id"),
                ("countryId", FactType::Identifier, "country id"),
                ("regionId", FactType::Identifier, "region id"),
                ("serverId", FactType::Identifier, "server id"),
            ],
            times: &[],
        },
        &mut no_identity,
    )?;
    super::record_table(
        ctx,
        l,
        schema,
        "customDnsAddresses",
        &|_| Vec::new(),
        &RowPhenomena {
            table: "DnsConfigurationEntity",
            category: "apps",
            what: "the custom DNS servers NordVPN was set to use (as stored)",
            title: &|_, _| "NordVPN custom DNS".to_string(),
            fields: &[("customDnsAddresses", FactType::Text, "DNS addresses")],
            times: &[],
        },
        &mut no_identity,
    )?;
    super::record_table(
        ctx,
        l,
        schema,
        "mfaStatus",
        &|_| Vec::new(),
        &RowPhenomena {
            table: "MultiFactorAuthStatusEntity",
            category: "apps",
            what: "the NordVPN account's multi-factor authentication status (as stored)",
            title: &named(
                "NordVPN multi-factor authentication",
                &["mfaStatus"],
                "NordVPN multi-factor authentication",
            ),
            fields: &[("mfaStatus", FactType::Text, "status")],
            times: &[],
        },
        &mut no_identity,
    )
}
