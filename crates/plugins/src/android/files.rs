//! Text artefacts: `build.prop`, the efs `serial_no` and `packages.list`.

use masf_agents::{AgentCtx, PhenomenonDraft, RuntimeError};
use masf_graph::{EntityKind, FactType, IdType};
use masf_tools::Invoked;
use serde_json::json;

use super::{Located, MAX_ROWS};
use crate::calls::call_or_note;
use crate::drafts::fact;
use crate::identity::{args_on, artefact_name, observe, record};

/// Reads a whole text artefact (up to 1 MiB); `None` (noted unparsed) when it cannot be read.
pub(super) fn read(ctx: &AgentCtx<'_>, l: &Located) -> Result<Option<Invoked>, RuntimeError> {
    let name = artefact_name(&l.tree, &l.path);
    let read = call_or_note(
        ctx,
        &name,
        "read_text",
        args_on(&l.tree, json!({"path": l.path, "length": 1 << 20})),
    )?;
    if let Some(read) = &read {
        crate::calls::note_unread_rest(ctx, &name, read, "parsed")?;
    }
    Ok(read)
}

/// `key=value` lines of a property file (comments and blank lines skipped; the first value of
/// a key wins).
pub fn properties(text: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with('#') || line.is_empty() {
            continue;
        }
        if let Some((k, v)) = line.split_once('=')
            && !out.iter().any(|(key, _)| key == k.trim())
        {
            out.push((k.trim().to_string(), v.trim().to_string()));
        }
    }
    out
}

/// The properties the build phenomenon reports, in this order, each with its first fallback.
const BUILD_KEYS: &[(&str, &[&str], FactType)] = &[
    (
        "model",
        &[
            "ro.product.model",
            "ro.product.system.model",
            "ro.product.vendor.model",
        ],
        FactType::Text,
    ),
    (
        "manufacturer",
        &["ro.product.manufacturer", "ro.product.system.manufacturer"],
        FactType::Text,
    ),
    (
        "fingerprint",
        &[
            "ro.build.fingerprint",
            "ro.system.build.fingerprint",
            "ro.vendor.build.fingerprint",
        ],
        FactType::Text,
    ),
    (
        "build id",
        &["ro.build.id", "ro.system.build.id"],
        FactType::Text,
    ),
    (
        "Android version",
        &[
            "ro.build.version.release",
            "ro.system.build.version.release",
        ],
        FactType::Text,
    ),
    (
        "security patch",
        &["ro.build.version.security_patch"],
        FactType::Text,
    ),
    (
        "serial",
        &["ro.serialno", "ro.boot.serialno"],
        FactType::Serial,
    ),
];

/// `build.prop`: model, build and serial; the serial also as the device's identifier.
pub fn build_prop(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(inv) = read(ctx, l)? else {
        return Ok(());
    };
    let props = properties(&inv.output.text);
    let get = |keys: &[&str]| {
        keys.iter().find_map(|k| {
            props
                .iter()
                .find(|(key, v)| key == k && !v.is_empty())
                .map(|(key, v)| (key.clone(), v.clone()))
        })
    };
    let mut facts = Vec::new();
    let mut parts = Vec::new();
    let mut serial = None;
    let mut model = None;
    for (what, keys, fact_type) in BUILD_KEYS {
        if let Some((key, value)) = get(keys) {
            facts.push(fact(*fact_type, &value, &inv));
            parts.push(format!("{what} {value} ({key})"));
            if *what == "serial" {
                serial = Some(value.clone());
            }
            if *what == "model" {
                model = Some(value);
            }
        }
    }
    let name = artefact_name(&l.tree, &l.path);
    if facts.is_empty() {
        ctx.unparsed(
            &name,
            "no build property (ro.product.model, ro.build.fingerprint, …) in the file",
            Some(&inv.record.invocation_id),
        )?;
        return Ok(());
    }
    facts.insert(0, fact(FactType::Path, &l.path, &l.found));
    record(
        ctx,
        PhenomenonDraft {
            category: "device".into(),
            title: format!(
                "Build properties: {}",
                model.as_deref().unwrap_or("model not given")
            ),
            facts,
            interpretation: format!("{name} gives {}.", parts.join(", ")),
            times: vec![],
        },
    )?;
    if let Some(serial) = serial {
        observe(
            ctx,
            "device",
            EntityKind::Device,
            model.as_deref().unwrap_or("Android device"),
            IdType::Serial,
            &serial,
            &inv,
            format!("The device's serial number as {} gives it.", l.name()),
        )?;
    }
    Ok(())
}

/// The efs `serial_no` file: the device's serial number.
pub fn serial_no(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(inv) = read(ctx, l)? else {
        return Ok(());
    };
    let value = inv.output.text.trim();
    let name = artefact_name(&l.tree, &l.path);
    let plausible =
        (4..=32).contains(&value.len()) && value.chars().all(|c| c.is_ascii_alphanumeric());
    if !plausible {
        ctx.unparsed(
            &name,
            "the file does not hold one alphanumeric serial number",
            Some(&inv.record.invocation_id),
        )?;
        return Ok(());
    }
    record(
        ctx,
        PhenomenonDraft {
            category: "device".into(),
            title: format!("Serial number {value}"),
            facts: vec![
                fact(FactType::Path, &l.path, &l.found),
                fact(FactType::Serial, value, &inv),
            ],
            interpretation: format!("{name} holds the device serial number {value}."),
            times: vec![],
        },
    )?;
    observe(
        ctx,
        "device",
        EntityKind::Device,
        "Android device",
        IdType::Serial,
        value,
        &inv,
        format!("The device's serial number as {} gives it.", l.name()),
    )?;
    Ok(())
}

/// Packages whose presence an examiner of payment cases wants named.
const NOTABLE: &[(&str, &str)] = &[
    ("com.whatsapp", "WhatsApp"),
    ("org.telegram.messenger", "Telegram"),
    ("com.tencent.mm", "WeChat"),
    ("jp.naver.line.android", "LINE"),
    ("org.thoughtcrime.securesms", "Signal"),
    ("com.tronlinkpro.wallet", "TronLink"),
    ("com.wallet.crypto.trustapp", "Trust Wallet"),
    ("io.metamask", "MetaMask"),
    ("im.token.app", "imToken"),
    ("com.binance.dev", "Binance"),
    ("com.okinc.okex.gp", "OKX"),
    ("com.coinbase.android", "Coinbase"),
];

/// `packages.list`: the installed packages (one fact per package up to [`MAX_ROWS`]).
pub fn packages(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(inv) = read(ctx, l)? else {
        return Ok(());
    };
    let names: Vec<&str> = inv
        .output
        .text
        .lines()
        .filter_map(|line| line.split_whitespace().next())
        .filter(|n| n.contains('.'))
        .collect();
    let name = artefact_name(&l.tree, &l.path);
    if names.is_empty() {
        ctx.unparsed(
            &name,
            "no package line in the file",
            Some(&inv.record.invocation_id),
        )?;
        return Ok(());
    }
    let notable: Vec<String> = NOTABLE
        .iter()
        .filter(|(p, _)| names.contains(p))
        .map(|(p, app)| format!("{app} ({p})"))
        .collect();
    let mut facts = vec![fact(FactType::Path, &l.path, &l.found)];
    facts.extend(
        names
            .iter()
            .take(MAX_ROWS as usize)
            .map(|n| fact(FactType::Name, *n, &inv)),
    );
    let more = if names.len() > MAX_ROWS as usize {
        format!(" (the first {MAX_ROWS} are listed as facts)")
    } else {
        String::new()
    };
    record(
        ctx,
        PhenomenonDraft {
            category: "apps".into(),
            title: format!("{} installed packages", names.len()),
            facts,
            interpretation: format!(
                "{name} lists {} installed packages{more}. Messaging and wallet apps among them: {}.",
                names.len(),
                if notable.is_empty() {
                    "none".to_string()
                } else {
                    notable.join(", ")
                }
            ),
            times: vec![],
        },
    )?;
    Ok(())
}

/// `usage-history.xml` (`/data/system/usagestats/`, Android 4 to 7): one phenomenon per app
/// component with its last resume time (`lrt`, Unix ms) as "App component last resumed", as
/// plaso's `android_app_usage` parser reports them. Parsed with `quick-xml`; a file that is
/// not this XML is noted with the parser's reason and the position it stopped at.
pub fn usage_history(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    use quick_xml::events::Event;
    let Some(inv) = read(ctx, l)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    let mut reader = quick_xml::Reader::from_str(&inv.output.text);
    let mut package: Option<String> = None;
    let mut rows: Vec<(String, String, String)> = Vec::new();
    loop {
        match reader.read_event() {
            Ok(Event::Start(e)) | Ok(Event::Empty(e)) => {
                let attr = |k: &str| {
                    e.attributes()
                        .flatten()
                        .find(|a| AsRef::<str>::as_ref(&a.key) == k)
                        .and_then(|a| {
                            a.normalized_value(quick_xml::XmlVersion::Implicit1_0)
                                .ok()
                                .map(|v| v.into_owned())
                        })
                };
                match AsRef::<str>::as_ref(&e.name()) {
                    "pkg" => package = attr("name"),
                    "comp" => {
                        if let (Some(p), Some(c), Some(t)) =
                            (package.clone(), attr("name"), attr("lrt"))
                        {
                            rows.push((p, c, t));
                        }
                    }
                    _ => {}
                }
            }
            Ok(Event::End(e)) if AsRef::<str>::as_ref(&e.name()) == "pkg" => package = None,
            Ok(Event::Eof) => break,
            Ok(_) => {}
            Err(err) => {
                ctx.unparsed(
                    &name,
                    &format!(
                        "not a readable usage-history XML at byte {}: {err}",
                        reader.error_position()
                    ),
                    Some(&inv.record.invocation_id),
                )?;
                return Ok(());
            }
        }
    }
    for (package, component, lrt) in rows.iter().take(MAX_ROWS as usize) {
        let facts = vec![
            fact(FactType::Path, &l.path, &l.found),
            fact(FactType::Identifier, package.as_str(), &inv),
            fact(FactType::Identifier, component.as_str(), &inv),
            fact(FactType::Timestamp, lrt.as_str(), &inv),
        ];
        record(
            ctx,
            PhenomenonDraft {
                category: "app_usage".into(),
                title: format!("App {package} last resumed ({component})"),
                facts,
                interpretation: format!(
                    "{name}: the component {component} of {package} was last resumed at {lrt} (lrt, Unix ms)."
                ),
                times: vec![masf_graph::TimeMark {
                    fact: 3,
                    encoding: masf_graph::TimeEncoding::UnixMillis,
                    description: "App component last resumed".into(),
                }],
            },
        )?;
    }
    if rows.len() > MAX_ROWS as usize {
        ctx.unparsed(
            &name,
            &format!(
                "{} components; the first {MAX_ROWS} were recorded",
                rows.len()
            ),
            Some(&inv.record.invocation_id),
        )?;
    }
    Ok(())
}
