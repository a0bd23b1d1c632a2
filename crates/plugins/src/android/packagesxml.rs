//! The package manager's `/data/system/packages.xml` (plain XML before Android 12, Android
//! Binary XML since; read with `read_xml` either way): every package the device knows with its
//! install record — first installed (`it`) and last updated (`ut`), Unix milliseconds in
//! hexadecimal —, version, code path, uid (`userId` or `sharedUserId`) and who installed it
//! (`installer`, `installInitiator`: the Play Store, a browser, adb's package installer). One
//! phenomenon per app installed on the data partition (`codePath` under `/data/app`) and one
//! counting the packages of the system image: when each app came onto the phone, and from where.

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::FactType;
use quick_xml::events::Event;

use super::{Located, MAX_ROWS};
use crate::drafts::{Draft, record_draft, unix_millis_hex};
use crate::identity::artefact_name;

/// One `<package>` element's attributes, as the text holds them.
#[derive(Debug, Default, Clone)]
struct Package {
    name: String,
    code_path: Option<String>,
    first_installed: Option<String>,
    updated: Option<String>,
    version: Option<String>,
    uid: Option<String>,
    installer: Option<String>,
    initiator: Option<String>,
}

/// The top-level `<package>` elements of a `packages.xml` text.
fn parse(xml: &str) -> Result<Vec<Package>, String> {
    let mut reader = quick_xml::Reader::from_str(xml);
    let mut out = Vec::new();
    let mut root = None;
    let mut depth = 0usize;
    loop {
        let (e, empty) = match reader.read_event() {
            Ok(Event::Start(e)) => (e, false),
            Ok(Event::Empty(e)) => (e, true),
            Ok(Event::End(_)) => {
                depth = depth.saturating_sub(1);
                continue;
            }
            Ok(Event::Eof) => break,
            Ok(_) => continue,
            Err(e) => return Err(format!("at byte {}: {e}", reader.error_position())),
        };
        let tag = AsRef::<str>::as_ref(&e.name()).to_string();
        if root.is_none() {
            root = Some(tag.clone());
        }
        if depth == 1 && tag == "package" {
            let mut p = Package::default();
            for a in e.attributes().flatten() {
                let v = a.value.into_owned();
                match AsRef::<str>::as_ref(&a.key) {
                    "name" => p.name = v,
                    "codePath" => p.code_path = Some(v),
                    "it" => p.first_installed = Some(v),
                    "ut" => p.updated = Some(v),
                    "version" => p.version = Some(v),
                    "userId" | "sharedUserId" => p.uid = Some(v),
                    "installer" => p.installer = Some(v),
                    "installInitiator" => p.initiator = Some(v),
                    _ => {}
                }
            }
            if !p.name.is_empty() {
                out.push(p);
            }
        }
        if !empty {
            depth += 1;
        }
    }
    match root.as_deref() {
        Some("packages") => Ok(out),
        Some(other) => Err(format!("its root element is <{other}>, not <packages>")),
        None => Err("it holds no XML element".into()),
    }
}

/// One `packages.xml`.
pub fn packages_xml(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let name = artefact_name(&l.tree, &l.path);
    let Some((inv, format, all)) = super::read_xml(ctx, l, "the package manager's list", parse)?
    else {
        return Ok(());
    };
    let (apps, system): (Vec<&Package>, Vec<&Package>) = all.iter().partition(|p| {
        p.code_path
            .as_deref()
            .is_some_and(|c| c.starts_with("/data/app"))
    });
    for p in apps.iter().take(MAX_ROWS as usize) {
        let mut d = Draft::new("apps", format!("App {} installed", p.name));
        d.fact(FactType::Path, Some(&l.path), &l.found);
        d.fact(FactType::Name, Some(&p.name), &inv);
        d.fact(FactType::Path, p.code_path.as_deref(), &inv);
        d.fact(FactType::Text, p.version.as_deref(), &inv);
        d.fact(FactType::Identifier, p.uid.as_deref(), &inv);
        d.fact(FactType::Name, p.installer.as_deref(), &inv);
        d.fact(FactType::Name, p.initiator.as_deref(), &inv);
        let first = p.first_installed.as_deref();
        d.time(first, unix_millis_hex(first), "App first installed", &inv);
        let updated = p.updated.as_deref().filter(|u| Some(*u) != first);
        d.time(updated, unix_millis_hex(updated), "App last updated", &inv);
        d.interpretation = format!(
            "{name} ({format}) lists the package {} installed on the data partition (version {}, uid {}), installed by {}{}; it and ut are Unix milliseconds in hexadecimal.",
            p.name,
            p.version.as_deref().unwrap_or("not stored"),
            p.uid.as_deref().unwrap_or("not stored"),
            p.installer
                .as_deref()
                .unwrap_or("no recorded installer (sideloaded or preinstalled)"),
            p.initiator
                .as_deref()
                .filter(|i| Some(*i) != p.installer.as_deref())
                .map(|i| format!(" at the request of {i}"))
                .unwrap_or_default(),
        );
        record_draft(ctx, d)?;
    }
    if apps.len() > MAX_ROWS as usize {
        ctx.unparsed(
            &name,
            &format!(
                "only the first {MAX_ROWS} of {} installed apps were recorded",
                apps.len()
            ),
            Some(&inv.record.invocation_id),
        )?;
    }
    let mut d = Draft::new(
        "apps",
        format!("{} packages of the system image", system.len()),
    );
    d.fact(FactType::Path, Some(&l.path), &l.found);
    for p in system.iter().take(MAX_ROWS as usize) {
        d.fact(FactType::Name, Some(&p.name), &inv);
    }
    d.interpretation = format!(
        "{name} ({format}) lists {} packages whose code lies in the system image (not in the data partition's app folder) and {} installed on the data partition.",
        system.len(),
        apps.len()
    );
    if !system.is_empty() {
        record_draft(ctx, d)?;
    }
    Ok(())
}
