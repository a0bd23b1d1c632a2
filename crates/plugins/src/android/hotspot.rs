//! The phone's Wi-Fi hotspot (`/data/misc/apexdata/com.android.wifi/WifiConfigStoreSoftAp.xml`,
//! Android 11 on; `/data/misc/wifi/WifiConfigStoreSoftAp.xml` before), ALEAPP's `wifiHotspot`:
//! one `wifi` phenomenon with the network the phone offers others — its name (`WifiSsid`, or
//! `SSID`), security type (SoftApConfiguration's numbers: 0 open, 1 WPA2-PSK, 2 WPA3-SAE
//! transition, 3 WPA3-SAE, 4 OWE transition, 5 OWE), band, channel, hidden flag, and every other
//! value of the `<SoftAp>` element — among them the clients the user blocked or allowed (their MAC
//! addresses). Read with `read_text`, parsed with `quick-xml`; values are the file's raw text
//! (`&quot;` and all), so they ground verbatim.
//!
//! Secrets are never facts: the passphrase is said to be stored, not copied (ALEAPP prints it).
//! Another phone of the case that joined this hotspot keeps its name among its saved networks.
//! Identities: none observed (a hotspot name is a name the user chose).

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::FactType;
use quick_xml::events::Event;

use super::Located;
use crate::drafts::{Draft, record_draft};
use crate::identity::artefact_name;

/// Values whose content is a secret: said to be stored, never copied.
const SECRETS: [&str; 2] = ["Passphrase", "PreSharedKey"];

/// SoftApConfiguration's security types by number.
const SECURITY: [&str; 6] = [
    "open",
    "WPA2-PSK",
    "WPA3-SAE transition",
    "WPA3-SAE",
    "OWE transition",
    "OWE",
];

/// One value of `<SoftAp>`: the element path below it (`BlockedClientList`, …), its `name`,
/// and its raw value (a `value` attribute, or the element's text).
struct Value {
    within: String,
    name: String,
    raw: String,
}

/// The values of the `<SoftAp>` element, or why the file is not a hotspot store.
fn parse(text: &str) -> Result<Vec<Value>, String> {
    let mut reader = quick_xml::Reader::from_str(text);
    let mut stack: Vec<String> = Vec::new();
    let mut root: Option<String> = None;
    let mut values = Vec::new();
    let mut open: Option<Value> = None;
    let mut seen = false;
    loop {
        match reader.read_event() {
            Ok(Event::Start(e)) => {
                let tag = AsRef::<str>::as_ref(&e.name()).to_string();
                root.get_or_insert_with(|| tag.clone());
                seen |= tag == "SoftAp";
                stack.push(tag);
                open = element_value(&e, &stack);
            }
            Ok(Event::Empty(e)) => {
                let tag = AsRef::<str>::as_ref(&e.name()).to_string();
                root.get_or_insert_with(|| tag.clone());
                seen |= tag == "SoftAp";
                stack.push(tag);
                values.extend(element_value(&e, &stack));
                stack.pop();
            }
            Ok(Event::Text(t)) => {
                if let Some(v) = open.as_mut() {
                    v.raw.push_str(AsRef::<str>::as_ref(&t));
                }
            }
            // an entity reference, kept as written (`&quot;`) so that the value grounds verbatim
            Ok(Event::GeneralRef(r)) => {
                if let Some(v) = open.as_mut() {
                    v.raw.push('&');
                    v.raw.push_str(AsRef::<str>::as_ref(&r));
                    v.raw.push(';');
                }
            }
            Ok(Event::End(_)) => {
                if let Some(v) = open.take()
                    && !v.raw.trim().is_empty()
                {
                    values.push(v);
                }
                stack.pop();
            }
            Ok(Event::Eof) => break,
            Ok(_) => {}
            Err(e) => return Err(format!("at byte {}: {e}", reader.error_position())),
        }
    }
    match root.as_deref() {
        Some("WifiConfigStoreData") if seen => Ok(values),
        Some("WifiConfigStoreData") => Err("the store holds no <SoftAp> element".into()),
        Some(other) => Err(format!(
            "the root element is <{other}>, not <WifiConfigStoreData>"
        )),
        None => Err("no XML element in the file".into()),
    }
}

/// The value an element of `<SoftAp>` holds: its `value` attribute now, or (`raw` empty) the
/// text that follows; `None` for the `<SoftAp>` element itself and elements without a name.
fn element_value(e: &quick_xml::events::BytesStart<'_>, stack: &[String]) -> Option<Value> {
    let at = stack.iter().position(|t| t == "SoftAp")?;
    if at + 1 >= stack.len() {
        return None;
    }
    let attrs = super::xml_attrs(e);
    let get = |k: &str| attrs.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone());
    let tag = stack.last().cloned().unwrap_or_default();
    let name = get("name").unwrap_or(tag);
    Some(Value {
        within: stack[at + 1..stack.len() - 1].join("/"),
        name,
        raw: get("value").unwrap_or_default(),
    })
}

/// One hotspot store.
pub fn softap(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(inv) = super::files::read(ctx, l)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    let values = match parse(&inv.output.text) {
        Ok(v) => v,
        Err(why) => {
            ctx.unparsed(&name, &why, Some(&inv.record.invocation_id))?;
            return Ok(());
        }
    };
    let ssid = values
        .iter()
        .find(|v| v.within.is_empty() && (v.name == "WifiSsid" || v.name == "SSID"))
        .map(|v| v.raw.trim().to_string());
    let shown = ssid
        .as_deref()
        .map(|s| super::system::ssid_of(s).1)
        .unwrap_or_else(|| "unnamed".into());
    let mut d = Draft::new("wifi", format!("Wi-Fi hotspot {shown}"));
    d.fact(FactType::Path, Some(&l.path), &l.found);
    let mut said = Vec::new();
    let mut secrets = Vec::new();
    for v in &values {
        if SECRETS.contains(&v.name.as_str()) {
            secrets.push(v.name.clone());
            continue;
        }
        let raw = v.raw.trim();
        let ft = match v.name.as_str() {
            "WifiSsid" | "SSID" => FactType::Name,
            _ if !v.within.is_empty() => FactType::Identifier,
            _ => FactType::Text,
        };
        d.fact(ft, Some(raw), &inv);
        let meaning = (v.name == "SecurityType")
            .then(|| raw.parse::<usize>().ok().and_then(|i| SECURITY.get(i)))
            .flatten()
            .map(|m| format!(" ({m})"))
            .unwrap_or_default();
        said.push(if v.within.is_empty() {
            format!("{} {raw}{meaning}", v.name)
        } else {
            format!("{} {} {raw}", v.within, v.name)
        });
    }
    d.interpretation = format!(
        "{name}: the Wi-Fi hotspot this phone offers others, {shown}: {}{}.",
        said.join(", "),
        if secrets.is_empty() {
            String::new()
        } else {
            format!(
                "; its {} is stored in the file and not copied here",
                secrets.join(", ")
            )
        }
    );
    record_draft(ctx, d)
}
