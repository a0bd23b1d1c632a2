//! App ops (`/data/system/appops.xml`, plain XML or ABX, read with `read_xml`), ALEAPP's
//! `get_appops` and `get_appops_legacy`: when each app last used — or was refused — a protected
//! operation (location, camera, microphone, contacts, SMS, clipboard …). One `apps` phenomenon per
//! recorded use: the package, its uid, the operation (its number `n` and AOSP's
//! `AppOpsManager` name), and, since Android 10, each state entry (`<st>`) with its access
//! (`t`) and rejection (`r`) times in Unix ms, duration (`d`), proxy package and uid (`pp`, `pu`,
//! an app acting for another) and attribution tag (`id`); before, the op's own times by the
//! app's process state (`tp` top, `tfs` foreground service, `tf` foreground, `tb` background,
//! `tc` cached, `tt` top sleeping; `r…` the rejections). An op without a time records no use
//! and is left out. At most [`MAX_ROWS`] uses a file (noted beyond).
//!
//! Identities: none observed.

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::FactType;
use quick_xml::events::Event;

use super::{Attrs, Located, MAX_ROWS};
use crate::drafts::{Draft, record_draft, unix_millis};
use crate::identity::artefact_name;

/// AOSP's `AppOpsManager` operation names by number (`OP_` left out).
pub(super) const OPS: [&str; 121] = [
    "COARSE_LOCATION",
    "FINE_LOCATION",
    "GPS",
    "VIBRATE",
    "READ_CONTACTS",
    "WRITE_CONTACTS",
    "READ_CALL_LOG",
    "WRITE_CALL_LOG",
    "READ_CALENDAR",
    "WRITE_CALENDAR",
    "WIFI_SCAN",
    "POST_NOTIFICATION",
    "NEIGHBORING_CELLS",
    "CALL_PHONE",
    "READ_SMS",
    "WRITE_SMS",
    "RECEIVE_SMS",
    "RECEIVE_EMERGENCY_BROADCAST",
    "RECEIVE_MMS",
    "RECEIVE_WAP_PUSH",
    "SEND_SMS",
    "READ_ICC_SMS",
    "WRITE_ICC_SMS",
    "WRITE_SETTINGS",
    "SYSTEM_ALERT_WINDOW",
    "ACCESS_NOTIFICATIONS",
    "CAMERA",
    "RECORD_AUDIO",
    "PLAY_AUDIO",
    "READ_CLIPBOARD",
    "WRITE_CLIPBOARD",
    "TAKE_MEDIA_BUTTONS",
    "TAKE_AUDIO_FOCUS",
    "AUDIO_MASTER_VOLUME",
    "AUDIO_VOICE_VOLUME",
    "AUDIO_RING_VOLUME",
    "AUDIO_MEDIA_VOLUME",
    "AUDIO_ALARM_VOLUME",
    "AUDIO_NOTIFICATION_VOLUME",
    "AUDIO_BLUETOOTH_VOLUME",
    "WAKE_LOCK",
    "MONITOR_LOCATION",
    "MONITOR_HIGH_POWER_LOCATION",
    "GET_USAGE_STATS",
    "MUTE_MICROPHONE",
    "TOAST_WINDOW",
    "PROJECT_MEDIA",
    "ACTIVATE_VPN",
    "WRITE_WALLPAPER",
    "ASSIST_STRUCTURE",
    "ASSIST_SCREENSHOT",
    "READ_PHONE_STATE",
    "ADD_VOICEMAIL",
    "USE_SIP",
    "PROCESS_OUTGOING_CALLS",
    "USE_FINGERPRINT",
    "BODY_SENSORS",
    "READ_CELL_BROADCASTS",
    "MOCK_LOCATION",
    "READ_EXTERNAL_STORAGE",
    "WRITE_EXTERNAL_STORAGE",
    "TURN_SCREEN_ON",
    "GET_ACCOUNTS",
    "RUN_IN_BACKGROUND",
    "AUDIO_ACCESSIBILITY_VOLUME",
    "READ_PHONE_NUMBERS",
    "REQUEST_INSTALL_PACKAGES",
    "PICTURE_IN_PICTURE",
    "INSTANT_APP_START_FOREGROUND",
    "ANSWER_PHONE_CALLS",
    "RUN_ANY_IN_BACKGROUND",
    "CHANGE_WIFI_STATE",
    "REQUEST_DELETE_PACKAGES",
    "BIND_ACCESSIBILITY_SERVICE",
    "ACCEPT_HANDOVER",
    "MANAGE_IPSEC_TUNNELS",
    "START_FOREGROUND",
    "BLUETOOTH_SCAN",
    "USE_BIOMETRIC",
    "ACTIVITY_RECOGNITION",
    "SMS_FINANCIAL_TRANSACTIONS",
    "READ_MEDIA_AUDIO",
    "WRITE_MEDIA_AUDIO",
    "READ_MEDIA_VIDEO",
    "WRITE_MEDIA_VIDEO",
    "READ_MEDIA_IMAGES",
    "WRITE_MEDIA_IMAGES",
    "LEGACY_STORAGE",
    "ACCESS_ACCESSIBILITY",
    "READ_DEVICE_IDENTIFIERS",
    "ACCESS_MEDIA_LOCATION",
    "QUERY_ALL_PACKAGES",
    "MANAGE_EXTERNAL_STORAGE",
    "INTERACT_ACROSS_PROFILES",
    "ACTIVATE_PLATFORM_VPN",
    "LOADER_USAGE_STATS",
    "DEPRECATED_1",
    "AUTO_REVOKE_PERMISSIONS_IF_UNUSED",
    "AUTO_REVOKE_MANAGED_BY_INSTALLER",
    "NO_ISOLATED_STORAGE",
    "PHONE_CALL_MICROPHONE",
    "PHONE_CALL_CAMERA",
    "RECORD_AUDIO_HOTWORD",
    "MANAGE_ONGOING_CALLS",
    "MANAGE_CREDENTIALS",
    "USE_ICC_AUTH_WITH_DEVICE_IDENTIFIER",
    "RECORD_AUDIO_OUTPUT",
    "SCHEDULE_EXACT_ALARM",
    "FINE_LOCATION_SOURCE",
    "COARSE_LOCATION_SOURCE",
    "MANAGE_MEDIA",
    "BLUETOOTH_CONNECT",
    "UWB_RANGING",
    "ACTIVITY_RECOGNITION_SOURCE",
    "BLUETOOTH_ADVERTISE",
    "RECORD_INCOMING_PHONE_AUDIO",
    "NEARBY_WIFI_DEVICES",
    "ESTABLISH_VPN_SERVICE",
    "ESTABLISH_VPN_MANAGER",
    "ACCESS_RESTRICTED_SETTINGS",
    "RECEIVE_SOUNDTRIGGER_AUDIO",
];

/// The legacy op's times by process state: (access attribute, rejection attribute, state).
const LEGACY: [(&str, &str, &str); 6] = [
    ("tp", "rp", "top"),
    ("tfs", "rfs", "foreground service"),
    ("tf", "rf", "foreground"),
    ("tb", "rb", "background"),
    ("tc", "rc", "cached"),
    ("tt", "rt", "top sleeping"),
];

/// One recorded use: package, uid, the op's attributes, the state entry's (empty: legacy).
struct Use {
    pkg: String,
    uid: String,
    op: Attrs,
    st: Attrs,
}

fn get<'a>(attrs: &'a Attrs, key: &str) -> Option<&'a str> {
    attrs
        .iter()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v.as_str())
        .filter(|v| !v.is_empty())
}

/// Whether `attrs` holds a time (an attribute among `keys` other than 0).
fn timed(attrs: &Attrs, keys: &[&str]) -> bool {
    keys.iter().any(|k| get(attrs, k).is_some_and(|v| v != "0"))
}

/// The uses `appops.xml` records, in document order.
fn parse(xml: &str) -> Result<Vec<Use>, String> {
    let mut reader = quick_xml::Reader::from_str(xml);
    let attrs = super::xml_attrs;
    let (mut pkg, mut uid, mut op): (String, String, Option<Attrs>) = Default::default();
    let mut seen_root = false;
    let mut uses = Vec::new();
    let legacy_keys: Vec<&str> = LEGACY.iter().flat_map(|(t, r, _)| [*t, *r]).collect();
    loop {
        let (e, empty) = match reader.read_event() {
            Ok(Event::Start(e)) => (e, false),
            Ok(Event::Empty(e)) => (e, true),
            Ok(Event::End(e)) => {
                if AsRef::<str>::as_ref(&e.name()) == "op"
                    && let Some(o) = op.take()
                    && timed(&o, &legacy_keys)
                {
                    uses.push(Use {
                        pkg: pkg.clone(),
                        uid: uid.clone(),
                        op: o,
                        st: Vec::new(),
                    });
                }
                continue;
            }
            Ok(Event::Eof) => break,
            Ok(_) => continue,
            Err(e) => return Err(format!("at byte {}: {e}", reader.error_position())),
        };
        let tag = AsRef::<str>::as_ref(&e.name()).to_string();
        match tag.as_str() {
            "app-ops" => seen_root = true,
            _ if !seen_root => return Err(format!("its root element is <{tag}>, not <app-ops>")),
            "pkg" => pkg = get(&attrs(&e), "n").unwrap_or("?").to_string(),
            "uid" => uid = get(&attrs(&e), "n").unwrap_or("?").to_string(),
            "op" => {
                let a = attrs(&e);
                if empty {
                    if timed(&a, &legacy_keys) {
                        uses.push(Use {
                            pkg: pkg.clone(),
                            uid: uid.clone(),
                            op: a,
                            st: Vec::new(),
                        });
                    }
                } else {
                    op = Some(a);
                }
            }
            "st" => {
                let a = attrs(&e);
                if let Some(o) = &op
                    && timed(&a, &["t", "r"])
                {
                    uses.push(Use {
                        pkg: pkg.clone(),
                        uid: uid.clone(),
                        op: o.clone(),
                        st: a,
                    });
                    // the op is recorded through its states
                    op = Some(o.iter().filter(|(k, _)| k == "n").cloned().collect());
                }
            }
            _ => {}
        }
    }
    if !seen_root {
        return Err("it holds no XML element".into());
    }
    Ok(uses)
}

/// One `appops.xml`.
pub fn appops(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let name = artefact_name(&l.tree, &l.path);
    let Some((inv, format, uses)) = super::read_xml(ctx, l, "app ops", parse)? else {
        return Ok(());
    };
    for (i, u) in uses.iter().enumerate() {
        if i as u64 >= MAX_ROWS {
            ctx.unparsed(
                &name,
                &format!(
                    "{} recorded uses: those past the first {MAX_ROWS} were not read",
                    uses.len()
                ),
                Some(&inv.record.invocation_id),
            )?;
            break;
        }
        let n = get(&u.op, "n").unwrap_or("?");
        let op = n
            .parse::<usize>()
            .ok()
            .and_then(|i| OPS.get(i).copied())
            .unwrap_or("an operation this release does not name");
        let mut d = Draft::new("apps", format!("App op {op} of {}", u.pkg));
        d.fact(FactType::Path, Some(&l.path), &l.found);
        d.fact(FactType::Identifier, Some(&u.pkg), &inv);
        d.fact(
            FactType::Identifier,
            Some(u.uid.as_str()).filter(|v| *v != "?"),
            &inv,
        );
        d.fact(FactType::Identifier, get(&u.op, "n"), &inv);
        let mut said = Vec::new();
        if u.st.is_empty() {
            for (t, r, state) in LEGACY {
                let (at, rej) = (get(&u.op, t), get(&u.op, r));
                let what = format!("{op} used by the app in the {state} state");
                d.time(at, unix_millis(at), &what, &inv);
                let refused = format!("{op} refused to the app in the {state} state");
                d.time(rej, unix_millis(rej), &refused, &inv);
                if let Some(v) = at.filter(|v| *v != "0") {
                    said.push(format!("used {v} ({state})"));
                }
                if let Some(v) = rej.filter(|v| *v != "0") {
                    said.push(format!("refused {v} ({state})"));
                }
            }
            if let Some(v) = get(&u.op, "d") {
                d.fact(FactType::Text, Some(v), &inv);
                said.push(format!("duration {v} ms"));
            }
        } else {
            let (at, rej) = (get(&u.st, "t"), get(&u.st, "r"));
            d.time(at, unix_millis(at), &format!("{op} used by the app"), &inv);
            d.time(
                rej,
                unix_millis(rej),
                &format!("{op} refused to the app"),
                &inv,
            );
            for (k, what) in [("t", "used"), ("r", "refused")] {
                if let Some(v) = get(&u.st, k).filter(|v| *v != "0") {
                    said.push(format!("{what} {v}"));
                }
            }
            for (k, what, ft) in [
                ("d", "duration (ms)", FactType::Text),
                ("pp", "for the proxy package", FactType::Identifier),
                ("pu", "proxy uid", FactType::Identifier),
                ("id", "attribution tag", FactType::Identifier),
                ("n", "state key", FactType::Identifier),
            ] {
                if let Some(v) = get(&u.st, k) {
                    d.fact(ft, Some(v), &inv);
                    said.push(format!("{what} {v}"));
                }
            }
        }
        d.interpretation = format!(
            "{name} ({format}): Android's app ops record that {} (uid {}) {} operation {n} ({op}): {}; times in Unix ms.",
            u.pkg,
            u.uid,
            if said.iter().any(|s| s.starts_with("used")) {
                "used"
            } else {
                "was refused"
            },
            said.join(", "),
        );
        record_draft(ctx, d)?;
    }
    Ok(())
}
