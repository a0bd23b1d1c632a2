//! The settings provider's files (`/data/system/users/<user>/settings_ssaid.xml`,
//! `settings_secure.xml`, `settings_global.xml`; AOSP `SettingsProvider`'s `SettingsState`):
//! plain XML before Android 12, Android Binary XML (ABX) since, read with `read_xml` either way
//! so the facts ground in the same XML text. Each `<setting id name value package …/>` is read
//! by its attributes; values are facts as the file's text holds them.
//!
//! - `settings_ssaid.xml` (Android 8+): one Android id (SSAID) per app signing key and user —
//!   the `ANDROID_ID` each app sees —, `name` the app's uid, `package` the app: each an
//!   `android_id` of the `device` entity, one phenomenon per app. The `userkey` entry is the
//!   secret the SSAIDs are derived from: said to be present, its value never copied.
//! - `settings_secure.xml`: `android_id` (Android 7 and earlier: the one id of the user), the
//!   Bluetooth name (`bluetooth_name`, a device name of the `device` entity) and address.
//! - `settings_global.xml`: `device_name` (the name the user gave the phone).

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{EntityKind, FactType, IdType};
use masf_tools::Invoked;
use quick_xml::events::Event;

use super::Located;
use crate::drafts::{Draft, record_draft};
use crate::identity::{artefact_name, observe};

/// One `<setting>` element: its attributes as the text holds them (escaped, never unescaped).
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Setting {
    pub id: Option<String>,
    pub name: String,
    pub value: Option<String>,
    pub package: Option<String>,
}

/// The `<setting>` elements of a settings file's XML text.
pub fn parse(xml: &str) -> Result<Vec<Setting>, String> {
    let mut reader = quick_xml::Reader::from_str(xml);
    let mut out = Vec::new();
    let mut root = None;
    loop {
        match reader.read_event() {
            Ok(Event::Start(e)) | Ok(Event::Empty(e)) => {
                let tag = AsRef::<str>::as_ref(&e.name()).to_string();
                if root.is_none() {
                    root = Some(tag.clone());
                }
                if tag != "setting" {
                    continue;
                }
                let mut s = Setting::default();
                for a in e.attributes().flatten() {
                    let v = a.value.into_owned();
                    match AsRef::<str>::as_ref(&a.key) {
                        "id" => s.id = Some(v),
                        "name" => s.name = v,
                        "value" => s.value = Some(v),
                        "package" => s.package = Some(v),
                        _ => {}
                    }
                }
                if !s.name.is_empty() {
                    out.push(s);
                }
            }
            Ok(Event::Eof) => break,
            Ok(_) => {}
            Err(e) => return Err(format!("at byte {}: {e}", reader.error_position())),
        }
    }
    match root.as_deref() {
        Some("settings") => Ok(out),
        Some(other) => Err(format!("its root element is <{other}>, not <settings>")),
        None => Err("it holds no XML element".into()),
    }
}

/// One settings file.
pub fn settings(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let name = artefact_name(&l.tree, &l.path);
    let Some((inv, format, all)) = super::read_xml(ctx, l, "a settings file", parse)? else {
        return Ok(());
    };
    let file = l.name();
    let user = user_of(&l.path);
    for s in &all {
        let Some(value) = s.value.as_deref().filter(|v| !v.is_empty() && *v != "null") else {
            continue;
        };
        match (file, s.name.as_str()) {
            ("settings_ssaid.xml", "userkey") => {
                let mut d = Draft::new("device", format!("SSAID key of user {user} (present)"));
                d.fact(FactType::Path, Some(&l.path), &l.found);
                d.fact(FactType::Text, Some("userkey"), &inv);
                d.interpretation = format!(
                    "{name} ({format}) holds the user's SSAID key (setting `userkey`, package {}): the secret from which Android derives each app's Android id; its value is not copied.",
                    s.package.as_deref().unwrap_or("?")
                );
                record_draft(ctx, d)?;
            }
            ("settings_ssaid.xml", uid) => {
                let package = s.package.as_deref().unwrap_or("?");
                android_id(
                    ctx,
                    l,
                    &inv,
                    value,
                    format!("Android id of {package} (user {user})"),
                    Some(package),
                    format!(
                        "{name} ({format}): the Android id (SSAID) that app {package} (uid {uid}) sees on this device for user {user}: Android 8+ gives each app signing key and user its own, kept across reinstalls."
                    ),
                    format!(
                        "The Android id {package} sees on this device ({name}, setting {uid})."
                    ),
                )?;
            }
            ("settings_secure.xml", "android_id") => {
                android_id(
                    ctx,
                    l,
                    &inv,
                    value,
                    format!("Android id (user {user})"),
                    None,
                    format!(
                        "{name} ({format}): setting `android_id`, the Android id of user {user} on this device (Android 7 and earlier: one for every app)."
                    ),
                    format!(
                        "The device's Android id for user {user} ({name}, setting android_id)."
                    ),
                )?;
            }
            ("settings_secure.xml", "bluetooth_name") | ("settings_global.xml", "device_name") => {
                let mut d = Draft::new("device", format!("Device name {value} ({})", s.name));
                d.fact(FactType::Path, Some(&l.path), &l.found);
                d.fact(FactType::Text, Some(value), &inv);
                d.interpretation = format!(
                    "{name} ({format}): setting `{}` = {value}, the name {}.",
                    s.name,
                    if s.name == "device_name" {
                        "the user gave the device (Settings › About phone › Device name)"
                    } else {
                        "the device shows to Bluetooth peers"
                    }
                );
                record_draft(ctx, d)?;
                observe(
                    ctx,
                    "device",
                    EntityKind::Device,
                    "Android device",
                    IdType::DeviceName,
                    value,
                    &inv,
                    format!("The device's name ({name}, setting {}).", s.name),
                )?;
            }
            ("settings_secure.xml", "bluetooth_address") => {
                let mut d = Draft::new("device", format!("Bluetooth address {value}"));
                d.fact(FactType::Path, Some(&l.path), &l.found);
                d.fact(FactType::Identifier, Some(value), &inv);
                d.interpretation = format!(
                    "{name} ({format}): setting `bluetooth_address` = {value}, the device's own Bluetooth adapter address."
                );
                record_draft(ctx, d)?;
            }
            _ => {}
        }
    }
    Ok(())
}

/// The user folder a settings file lies in (`/data/system/users/<user>/…`), `0` when unknown.
fn user_of(path: &str) -> &str {
    path.rsplit_once("/users/")
        .and_then(|(_, rest)| rest.split('/').next())
        .filter(|u| !u.is_empty() && u.bytes().all(|b| b.is_ascii_digit()))
        .unwrap_or("0")
}

/// One Android id: a `device` phenomenon (the id, and the app it belongs to when it is an
/// SSAID) and the `android_id` of the `device` entity.
#[allow(clippy::too_many_arguments)]
fn android_id(
    ctx: &AgentCtx<'_>,
    l: &Located,
    inv: &Invoked,
    value: &str,
    title: String,
    package: Option<&str>,
    interpretation: String,
    why: String,
) -> Result<(), RuntimeError> {
    let mut d = Draft::new("device", title);
    d.fact(FactType::Path, Some(&l.path), &l.found);
    d.fact(FactType::Identifier, Some(value), inv);
    d.fact(FactType::Text, package, inv);
    d.interpretation = interpretation;
    record_draft(ctx, d)?;
    observe(
        ctx,
        "device",
        EntityKind::Device,
        "Android device",
        IdType::AndroidId,
        value,
        inv,
        why,
    )?;
    Ok(())
}
