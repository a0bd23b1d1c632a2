//! Delivered notifications (`mobile/Library/UserNotifications/<app>/DeliveredNotifications.plist`,
//! iOS 12 on), the fields of iLEAPP's `notificationsXII`: one `notifications` phenomenon per
//! notification still in Notification Centre — when it was delivered
//! (`AppNotificationCreationDate`), the app (the folder's bundle id, or the bundle
//! `UserNotifications/Library.plist` maps the folder's UUID to since iOS 15 — where two public
//! devices' file lists show it; iLEAPP looks for it in `UserNotificationsServer/`, so it shows
//! the UUID), the title,
//! subtitle and message as shown on the screen, the sender's name
//! (`CommunicationContextDisplayName`), the thread, category, trigger type and deep link, the
//! attachments (the app's name and the stored file's), and every other value the notification
//! keeps but those still at the value they hold on every device iLEAPP's authors examined
//! (`BadgeApplicationIcon` true, `ShouldPresentAlert` true, …: [`DEFAULTS`]). Binary values
//! (inline thumbnails) are said by size, not copied.
//!
//! The plist is a keyed archive of an array of dictionaries; `parse_plist` unwraps it. A
//! notification keeps the text of a message whose app stores it encrypted (Signal, WhatsApp
//! previews) or deletes it: for the examiner it may be the only copy.
//!
//! Identities: none observed. The sender is a display name the app chose (a contact's name,
//! a group's), not an identifier; it is a fact of the finding.

use std::collections::BTreeMap;

use masf_agents::RuntimeError;
use masf_graph::FactType;
use masf_tools::Invoked;
use serde_json::{Map, Value};

use super::plists::parse;
use super::{Draft, ENTRY_CAP, Run, file_name};
use crate::outputs::{json_leaves, json_scalar};

/// Keys said in their own words (key → what it is, its fact type).
const PROMOTED: [(&str, &str, FactType); 5] = [
    ("CommunicationContextDisplayName", "sender", FactType::Name),
    (
        "SBSPushStoreNotificationThreadKey",
        "thread",
        FactType::Identifier,
    ),
    (
        "SBSPushStoreNotificationCategoryKey",
        "category",
        FactType::Identifier,
    ),
    ("UNNotificationTriggerType", "trigger", FactType::Text),
    ("DefaultActionURL", "deep link", FactType::Url),
];

/// Values these keys held on every notification of every device iLEAPP's authors examined
/// (their `DEFAULT_VALUES`): left out while they still hold it (a device that sets one
/// otherwise shows it).
const DEFAULTS: [(&str, &str); 20] = [
    ("BadgeApplicationIcon", "true"),
    ("CommunicationContextBusinessCorrespondence", "false"),
    ("CommunicationContextCapabilities", "0"),
    ("CommunicationContextMentionsCurrentUser", "false"),
    ("CommunicationContextNotifyRecipientAnyway", "false"),
    ("CommunicationContextReplyToCurrentUser", "false"),
    ("CommunicationContextSystemImage", "false"),
    ("Footer", ""),
    ("IconShouldSuppressMask", "false"),
    ("ScreenCaptureProhibited", "false"),
    ("ShouldHideTime", "false"),
    ("ShouldIgnoreAccessibilityDisabledVibrationSetting", "false"),
    ("ShouldPresentAlert", "true"),
    ("ShouldSuppressSyncDismissalWhenRemoved", "false"),
    ("SoundShouldIgnoreRingerSwitch", "false"),
    ("SoundShouldRepeat", "false"),
    ("ToneMediaLibraryItemIdentifier", "0"),
    ("TriggerRepeatInterval", "0"),
    ("TriggerRepeats", "false"),
    ("UNNotificationRelevanceScore", "0.0"),
];

/// Other values said of one notification at most.
const OTHERS: usize = 40;

/// The apps `UserNotifications/Library.plist` names: folder → (bundle id, the parse citing it).
type Apps = BTreeMap<String, (String, usize)>;

/// Triage of every delivered-notifications plist of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    let mut parsed = Vec::new();
    let mut apps = Apps::new();
    run.each("Library.plist", |_, path| {
        if !library_plist(path) {
            return Ok(());
        }
        let Some((inv, v)) = parse(run, path)? else {
            return Ok(());
        };
        if let Some(o) = v.as_object() {
            for (bundle, folder) in o {
                if let Some(f) = folder.as_str() {
                    apps.insert(f.to_string(), (bundle.clone(), parsed.len()));
                }
            }
        }
        parsed.push(inv);
        Ok(())
    })?;
    let mut count = 0u64;
    run.each("DeliveredNotifications.plist", |find, path| {
        if count >= ENTRY_CAP {
            return Ok(());
        }
        one(run, find, path, &apps, &parsed, &mut count)
    })?;
    if count >= ENTRY_CAP {
        run.ctx.unparsed(
            "DeliveredNotifications.plist",
            &format!("more than {ENTRY_CAP} delivered notifications: those past the first {ENTRY_CAP} were not read"),
            None,
        )?;
    }
    Ok(())
}

/// Whether `path` is the notification server's map of apps to folders: in `UserNotifications/`
/// on the devices whose file lists are public; iLEAPP looks in `UserNotificationsServer/`, read
/// as well.
pub(super) fn library_plist(path: &str) -> bool {
    path.ends_with("/UserNotifications/Library.plist")
        || path.ends_with("/UserNotificationsServer/Library.plist")
}

/// A scalar as `parse_plist` prints it, or an archived URL's text (`NS.relative`).
fn text_of(v: Option<&Value>) -> Option<String> {
    let v = v?;
    json_scalar(v.get("NS.relative").or(Some(v)))
}

/// A value as said in an interpretation: a data value by its size.
fn shown(key: &str, val: &str) -> String {
    match key.strip_suffix("$data_hex") {
        Some(k) => format!("{}<{} bytes of data>", k, val.len() / 2),
        None if key.is_empty() => val.to_string(),
        None => format!("{key} {val}"),
    }
}

fn one(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    apps: &Apps,
    parsed: &[Invoked],
    count: &mut u64,
) -> Result<(), RuntimeError> {
    let Some((inv, v)) = parse(run, path)? else {
        return Ok(());
    };
    let items = match v.get("root").unwrap_or(&v) {
        Value::Array(a) => a,
        // an app whose notifications were all cleared keeps `root: null`
        Value::Null => return Ok(()),
        _ => {
            run.ctx.unparsed(
                path,
                "unexpected content: the archive's root is not an array of notifications",
                Some(&inv.record.invocation_id),
            )?;
            return Ok(());
        }
    };
    let folder = path
        .rsplit('/')
        .nth(1)
        .filter(|f| !f.is_empty())
        .unwrap_or("?");
    let app = apps.get(folder);
    let bundle = app.map(|(b, _)| b.as_str()).unwrap_or(folder);
    let file = file_name(path);
    for item in items {
        if *count >= ENTRY_CAP {
            break;
        }
        let Some(o) = item.as_object() else {
            continue;
        };
        *count += 1;
        record(
            run,
            find,
            path,
            &inv,
            o,
            bundle,
            app.map(|(_, i)| &parsed[*i]),
            file,
        )?;
    }
    Ok(())
}

#[allow(clippy::too_many_arguments)]
fn record(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    inv: &Invoked,
    o: &Map<String, Value>,
    bundle: &str,
    library: Option<&Invoked>,
    file: &str,
) -> Result<(), RuntimeError> {
    let s = |k: &str| text_of(o.get(k));
    let (title, subtitle, message) = (
        s("AppNotificationTitle"),
        s("AppNotificationSubtitle"),
        s("AppNotificationMessage"),
    );
    let heading = title
        .as_deref()
        .or(message.as_deref())
        .map(|t| t.chars().take(80).collect::<String>())
        .unwrap_or_else(|| "(no text)".into());
    let mut d = Draft::new(
        "notifications",
        format!("Notification of {bundle}: {heading}"),
    );
    d.fact(FactType::Path, Some(path), find);
    d.fact(FactType::Identifier, Some(bundle), library.unwrap_or(find));
    let created = s("AppNotificationCreationDate");
    d.time(
        created.as_deref(),
        crate::drafts::date_text(created.as_deref()),
        "Notification delivered",
        inv,
    );
    d.fact(FactType::Text, title.as_deref(), inv);
    d.fact(FactType::Text, subtitle.as_deref(), inv);
    d.fact(FactType::Text, message.as_deref(), inv);
    let mut said = Vec::new();
    for (key, what, ft) in PROMOTED {
        if let Some(v) = s(key) {
            d.fact(ft, Some(&v), inv);
            said.push(format!("{what} {v}"));
        }
    }
    let mut attachments = Vec::new();
    for a in o
        .get("AppNotificationAttachments")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let id = text_of(a.get("AttachmentIdentifier"));
        let stored = text_of(a.get("AttachmentURL"));
        d.fact(FactType::Name, id.as_deref(), inv);
        d.fact(FactType::Path, stored.as_deref(), inv);
        attachments.push(format!(
            "{} (stored as {})",
            id.as_deref().unwrap_or("unnamed"),
            stored.as_deref().unwrap_or("?")
        ));
    }
    let mut others = Vec::new();
    for (k, x) in o {
        if k.starts_with("AppNotification") || PROMOTED.iter().any(|(p, _, _)| p == k) {
            continue;
        }
        let scalar = json_scalar(Some(x)).unwrap_or_default();
        if DEFAULTS.iter().any(|(dk, dv)| dk == k && *dv == scalar) {
            continue;
        }
        let mut leaves = Vec::new();
        json_leaves(x, k, &mut leaves);
        for (key, val) in leaves {
            if others.len() >= OTHERS {
                break;
            }
            if !key.ends_with("$data_hex") {
                d.fact(FactType::Text, Some(&val), inv);
            }
            others.push(shown(&key, &val));
        }
    }
    d.interpretation = format!(
        "{file} of {bundle}: a notification delivered {} and still in Notification Centre at extraction{}{}{}{}{}{}.",
        created.as_deref().unwrap_or("at a time not kept"),
        title.map(|t| format!(", titled {t}")).unwrap_or_default(),
        subtitle
            .map(|t| format!(", subtitle {t}"))
            .unwrap_or_default(),
        message
            .map(|t| format!(", reading {t}"))
            .unwrap_or_default(),
        if said.is_empty() {
            String::new()
        } else {
            format!("; {}", said.join(", "))
        },
        if attachments.is_empty() {
            String::new()
        } else {
            format!("; attachments {}", attachments.join(", "))
        },
        if others.is_empty() {
            String::new()
        } else {
            format!("; also {}", others.join(", "))
        },
    );
    run.record(d)
}
