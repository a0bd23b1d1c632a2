//! Biome (iOS 15+): the SEGB streams of `Library/Biome/streams/{restricted,public}/<stream>/`,
//! which on iOS 16+ take the place of KnowledgeC's app usage, read by `read_segb`
//! ([`masf_tools::segb_tool`]: one call per stream folder, its `local/` files and the
//! `remote/<device>/` files the account's other devices synced; v1 and v2 files, each record's
//! state, times, CRC check and its Protocol Buffers payload decoded without a schema), and
//! Biome's `sync/sync.db`, which names those devices. The fields of iLEAPP's Biome modules:
//!
//! | stream | phenomenon | fields |
//! |---|---|---|
//! | `App.InFocus` | one `app_usage` per record | the app's bundle id, foreground or background (field 3: 1 or 0, as iLEAPP reads it), the time it came to or left the foreground (field 4), the record's time |
//! | `Device.Wireless.Bluetooth` | one `device` per record | the Bluetooth device's address and name, the record's time |
//! | `_DKEvent.Safari.History` | one `web` per record | the address, the page's title, the visit's start and end, the source (bundle id, source and item ids), the event's GUID |
//! | `Safari.Navigations` | one `web` per record | the address, host and country, the time rounded to 30 minutes (Unix seconds) |
//! | `App.WebUsage` | one `web` per record | the address and domain, the app, the GUID, fields 3 and 8 as stored, the time |
//! | `Device.Display.Backlight` (`public/Backlight` on older releases) | one `device` per record | the screen turned on or off (field 2), its time (field 1) |
//! | `_DKEvent.Device.IsPluggedIn`, `_DKEvent.Carplay.IsConnected` | one `device` per record | plugged in (CarPlay connected) or not, the interval's start and end, the event's GUID |
//! | `Device.Wireless.WiFi` | one `wifi` per record | the SSID, connected or disconnected |
//! | `Notification` (public) | one `apps` per record | the app's bundle id, the time, the string fields iLEAPP reports unnamed (8, 9, 12, 15, 5, 1: a notification's texts as stored) |
//! | `NowPlaying` (public), `Media.NowPlaying` | one `media` per record | the app's bundle id, the time, the output routes' names, the string fields iLEAPP reports as "Info" (10, 8, 5) |
//! | `App.Installation` | one `apps` per record | the app's bundle id and UUID, version and build, the event type as stored, the two digests, the event's and the app's times (Unix seconds) |
//! | `Location.Visit` | one `locations` per record | latitude, longitude, horizontal and vertical accuracy, altitude, confidence, the matched place (name, address, category, id), the visit id; arrival, departure and detection times (Unix seconds; said to need corroborating, as iLEAPP's module and Mattia Epifani's study of the stream found) |
//! | `Siri.Remembers.CallHistory`, `Siri.Remembers.MessageHistory` | one `calls` / `messages` per record | direction (field 1.6: 1 incoming, 2 outgoing), the app, the intent, every party (contacts and their handles; sender, recipients and their handles) with the display name its attributes give, the group name and flag, the conversation id, the GUID, the time (field 1.8, Unix seconds) |
//! | `Siri.Remembers.InteractionHistory` | one `apps` per record | the intent class, app, domain, every parameter, the intent's UUID and item GUID, the time (Unix seconds) |
//! | `Wallet.Transaction` | one `transactions` per record | the card as Wallet names it, the pass id, the transaction's UUID, fields 3 and 5 as stored |
//! | `MLSE.ShareSheet.ConversationUserInteraction` | one `apps` per record | the app, the conversation id and the handle it ends with, field 10 as stored, the time (field 11, Unix seconds) |
//! | `Text.InputSession` (`public/TextInputSession` on older releases) | one `app_usage` per record | the app, the session's duration, its start (Unix seconds in the restricted stream, Cocoa in the public one, as iLEAPP reads them) |
//! | the streams of [`SIMPLE`], read field by field: `Device.TimeZone`, `NotesContent`, `App.LocationActivity`, `App.Activity`, `Audio.Route`, `Media.Route`, `CommCenter.Call.EmergencyVoiceCall`, `Device.Metadata`, `SystemSettings.SearchTerms`, `App.Intents.Transcript`, `Clock.Alarm`, `AeroML.Insights.PhotosSearchInsights`, `ShareSheet.Feedback`, `FrontBoard.DisplayElement`, `UserActivityMetadata` and `UniversalRecents.UserActivity.Metadata` (the property list in the payload: title, activity type, web page, when, the content attributes' container), `ProactiveHarvesting.Messages` (conversation, text, sender, GUID; the conversation's handle observed), `ProactiveHarvesting.Mail` (subject, message id, headers, date), `Messages.Read`, `ScreenTime.AppUsage`, `Notification.Usage`, `Emoji.Engagement`, `Device.BootSession`, `Safari.WebPagePerformance`, `Siri.UI`, `Autonaming.Messages.MessageIds`, `OSAnalytics.Hardware.Reliability` (the hardware), `Discoverability.Signals` (signal, value, payload, context id), `Siri.Remembers.AudioHistory` (app, intent class and UUID, media id, the item's id and JSON attributes: title, artist, kind; when it played, Unix seconds), `Siri.Remembers.AssistantSuggestions` (app, intent class, event id, metadata, the suggested entities and their kinds, when, Unix seconds), `Device.Networking.EdgeSelection` (the network address cut to its prefix, IP version, prefix length, interface, radio technology, country, time zone), `App.RelevantShortcuts` (app, widget kind, role, the shortcut's title, activity app and intent, watch template, the relevance window), `AppleIntelligence.Availability` (the language evaluated, three raw state fields) and the Apple Intelligence reporting streams `AppleIntelligence.Reporting.AssetDeliveryLog.{Availability,ModelCatalog,SoftwareUpdateController,UnifiedAssetFramework}` and `AppleIntelligence.Reporting.SafetyOverrides` (the feature or client, the attribute evaluated and its value, the requesting client, asset id and category, OS build, user id and status as stored, the event's time, Unix seconds), `CameraCapture.AutoFocusROI` (the camera port in use; the capture parameters raw, field 8 a 32-bit float's bits as stored), the `Device.*` state streams (screen and keybag locked, airplane mode, low power, cellular data, orientation, ringer, battery level and temperature, plugged in, energy mode), `CarPlay.Connected`, and every other `_DKEvent.*` stream | one per record (`device`, `notes`, `locations`, `app_usage`, `calls`, `apps`, `media`) | every field iLEAPP's module reads (the time zone; a note's text and identifiers; an app's place: title, street, city, postal code, addresses, payload, UUID, source; an app's activity; a route's name, port and identifiers; an emergency number, MCC, MNC, duration; the OS build; a Settings or Photos search and its results; an app intent's class, parameters, entities with their titles and URLs, phrase template; an alarm's id and state; a share sheet's source app, chosen activity and offered candidates; the app FrontBoard displayed with its scene and display), a state with its word (iLEAPP's maps), raw fields whose meaning is not public said as stored; a DuetKnowledge event's stream name, value (string, integer with its word, or double), GUID, source, metadata, UTC offset, start, end and written times — for any `_DKEvent.*` stream, iLEAPP's modules or not |
//! | `sync/sync.db` `DevicePeer` | one `device` per row | the device's identifier, name, platform, model, whether it is this device, the last sync (Unix seconds) |
//!
//! A record marked deleted whose data is still in the file is read the same way and said to be
//! deleted; a CRC that does not match is said so; a record under `remote/<device>/` is said to
//! be synced from that device (named from `sync.db` when it lists it): it happened there. Dot
//! files and `tombstone` folders are not read. Times are Cocoa seconds (since 2001) unless said.
//!
//! Identities: a Bluetooth device's stable address is observed as the device
//! `bluetooth:<address>`, as the Bluetooth pairing readers observe it (this device's records
//! only); the other party's handles of a remembered call or message (a received message's
//! sender, a sent one's recipients — never a received message's recipients, which include the
//! device's user) and of a share-sheet conversation as `handle:<normalised>` (or the card holding
//! them); each sync peer by its name (`biome-device:<identifier>`, this device's on `device`).

use std::collections::BTreeMap;

use masf_agents::RuntimeError;
use masf_graph::{EntityKind, FactType, IdType};
use masf_tools::Invoked;
use serde_json::{Value, json};

use super::{Draft, Run, handle_fact_type, raw};
use crate::outputs::{Table, proto_text};

/// What a stream holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    InFocus,
    Bluetooth,
    Safari,
    Backlight,
    Plugged,
    Notification,
    NowPlaying,
    LocationVisit,
    AppInstall,
    CallHistory,
    MessageHistory,
    InteractionHistory,
    Wallet,
    Wifi,
    SafariNavigation,
    WebUsage,
    ShareSheet,
    CarPlay,
    TextInput,
    /// A stream of [`SIMPLE`], by its index.
    Simple(usize),
}

/// The streams read, by their folder's name.
const STREAMS: &[(&str, Kind)] = &[
    ("App.InFocus", Kind::InFocus),
    ("Device.Wireless.Bluetooth", Kind::Bluetooth),
    ("_DKEvent.Safari.History", Kind::Safari),
    ("Device.Display.Backlight", Kind::Backlight),
    ("Backlight", Kind::Backlight),
    ("_DKEvent.Device.IsPluggedIn", Kind::Plugged),
    ("Notification", Kind::Notification),
    ("NowPlaying", Kind::NowPlaying),
    ("Media.NowPlaying", Kind::NowPlaying),
    ("Location.Visit", Kind::LocationVisit),
    ("App.Installation", Kind::AppInstall),
    ("Siri.Remembers.CallHistory", Kind::CallHistory),
    ("Siri.Remembers.MessageHistory", Kind::MessageHistory),
    (
        "Siri.Remembers.InteractionHistory",
        Kind::InteractionHistory,
    ),
    ("Wallet.Transaction", Kind::Wallet),
    ("Device.Wireless.WiFi", Kind::Wifi),
    ("Safari.Navigations", Kind::SafariNavigation),
    ("App.WebUsage", Kind::WebUsage),
    (
        "MLSE.ShareSheet.ConversationUserInteraction",
        Kind::ShareSheet,
    ),
    ("_DKEvent.Carplay.IsConnected", Kind::CarPlay),
    ("TextInputSession", Kind::TextInput),
    ("Text.InputSession", Kind::TextInput),
];

/// A parameter of a Siri.Remembers record (its field 2): the parameter's name (`contacts`,
/// `contactHandles`, `sender`, `recipientHandles`, `speakableGroupName`, …), the entity's value
/// and the display name its JSON attributes give, each with the form it has in the output.
struct Parameter {
    name: String,
    value: (String, String),
    display: Option<(String, String)>,
}

/// The parameters of a Siri.Remembers record whose entity has a value. A display name is kept
/// only where it stands verbatim in `output` (the attributes are JSON inside the payload).
fn parameters(m: &Value, output: &str) -> Vec<Parameter> {
    m.get("2")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|p| {
            let name = proto_text(p, &["1"]).map(|(n, _)| n).unwrap_or_default();
            let entity = at(p, &["2"])?;
            let value = proto_text(entity, &["1"])?;
            let display = proto_text(entity, &["4"])
                .and_then(|(a, _)| serde_json::from_str::<Value>(&a).ok())
                .and_then(|a| a.get("name")?.as_str().map(str::to_string))
                .filter(|n| !n.is_empty() && *n != value.0)
                .map(|n| {
                    let cited = crate::outputs::in_json_cell(&crate::outputs::in_json(&n));
                    (n, cited)
                })
                .filter(|(_, c)| output.contains(c.as_str()));
            Some(Parameter {
                name,
                value,
                display,
            })
        })
        .collect()
}

/// A parameter's value with its display name (`+351… (Bruno Reis)`), as iLEAPP shows it.
fn shown(p: &Parameter) -> String {
    match &p.display {
        Some((n, _)) => format!("{} ({n})", p.value.0),
        None => p.value.0.clone(),
    }
}

/// The values of the parameters named `name`, shown, joined by `; `.
fn named(params: &[Parameter], name: &str) -> Option<String> {
    let v: Vec<String> = params
        .iter()
        .filter(|p| p.name == name)
        .map(shown)
        .collect();
    (!v.is_empty()).then(|| v.join("; "))
}

/// A handle as a parameter holds it, without a `tel:`/`mailto:` scheme.
fn bare_handle(v: &str) -> &str {
    v.strip_prefix("tel:")
        .or_else(|| v.strip_prefix("mailto:"))
        .unwrap_or(v)
}

/// The parameters whose values are the other party's handles: the call's contact, a received
/// message's sender, a sent message's recipients (a received message's recipients include the
/// device's user, so they are not the other party).
fn other_handles(kind: Kind, direction: Option<i64>) -> &'static [&'static str] {
    match (kind, direction) {
        (Kind::CallHistory, _) => &["contactHandles"],
        (Kind::MessageHistory, Some(1)) => &["senderHandle"],
        (Kind::MessageHistory, Some(2)) => &["recipientHandles"],
        _ => &[],
    }
}

/// A Siri.Remembers direction (field 1.6: 1 incoming, 2 outgoing, as iLEAPP's modules, checked
/// against CallHistory.storedata and sms.db, read it).
fn direction(d: Option<i64>) -> &'static str {
    match d {
        Some(1) => "incoming",
        Some(2) => "outgoing",
        Some(0) => "of unspecified direction",
        _ => "of unrecorded direction",
    }
}

/// Whether a text input stream keeps its start as Unix seconds: the `restricted` stream of
/// iOS 17+ does, the older `public` one keeps Cocoa seconds.
fn unix_text_input(dir: &str) -> bool {
    dir.to_ascii_lowercase().contains("/restricted/")
}

/// The handle of an Apple conversation id (`iMessage;-;+351…`), as iLEAPP reads it.
fn conversation_handle(id: &str) -> Option<&str> {
    id.rsplit_once(";-;")
        .map(|(_, h)| h)
        .filter(|h| !h.is_empty())
}

/// How a time field counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Epoch {
    /// Seconds since 2001 (Cocoa).
    Cocoa,
    /// Seconds since 1970.
    Unix,
    /// A date as RFC 3339 text (a property list's date).
    Text,
}

/// A field a record is read for: its path of field numbers, the fact it gives (`None`: said in
/// the interpretation only — a raw value whose meaning is not public) and its name there.
struct Field {
    path: &'static [&'static str],
    fact: Option<FactType>,
    name: &'static str,
}

const fn field(path: &'static [&'static str], fact: FactType, name: &'static str) -> Field {
    Field {
        path,
        fact: Some(fact),
        name,
    }
}

const fn raw_field(path: &'static [&'static str], name: &'static str) -> Field {
    Field {
        path,
        fact: None,
        name,
    }
}

/// A stream whose records are read field by field, as iLEAPP's modules for it read them.
struct Simple {
    /// The stream's folder name (a glob for the `_DKEvent.*` family).
    folder: &'static str,
    category: &'static str,
    /// The title: `{state}` is the state's word, `{<path>}` (`{2}`, `{4.3}`) that field's value.
    title: &'static str,
    /// What a record is, leading the interpretation.
    what: &'static str,
    /// An integer field whose values have words (`1 locked`), with those words.
    state: Option<(&'static [&'static str], Words)>,
    fields: &'static [Field],
    times: &'static [(&'static [&'static str], Epoch, &'static str)],
}

/// The words of an integer field's values.
type Words = &'static [(i64, &'static str)];

const ON_OFF: &[(i64, &str)] = &[(0, "off"), (1, "on")];
const LOCKED: &[(i64, &str)] = &[(0, "unlocked"), (1, "locked")];
const ENABLED: &[(i64, &str)] = &[(0, "disabled"), (1, "enabled")];
const CONNECTED: &[(i64, &str)] = &[(0, "not connected"), (1, "connected")];
const PLUGGED: &[(i64, &str)] = &[(0, "not plugged in"), (1, "plugged in")];
const SILENT: &[(i64, &str)] = &[(0, "ringer on"), (1, "silent")];
/// UIInterfaceOrientation (its landscape values are UIDeviceOrientation's crossed).
const INTERFACE_ORIENTATION: &[(i64, &str)] = &[
    (0, "unknown"),
    (1, "portrait"),
    (2, "portrait upside down"),
    (3, "landscape right"),
    (4, "landscape left"),
];
/// UIDeviceOrientation.
const DEVICE_ORIENTATION: &[(i64, &str)] = &[
    (0, "unknown"),
    (1, "portrait"),
    (2, "portrait upside down"),
    (3, "landscape left"),
    (4, "landscape right"),
    (5, "face up"),
    (6, "face down"),
];

/// The `Device.*` state streams: field 1 the state (field 2 and others raw).
const fn state_stream(folder: &'static str, title: &'static str, words: Words) -> Simple {
    Simple {
        folder,
        category: "device",
        title,
        what: "a device state change",
        state: Some((&["1"], words)),
        fields: FIELD_2,
        times: &[],
    }
}

/// A user activity's metadata (`UserActivityMetadata`, `UniversalRecents.UserActivity.Metadata`):
/// the property list in field 2 (title, activity type, when, the content attributes' container)
/// and the texts of fields 4 and 5, as iLEAPP's biomeUseractmeta reads them.
const fn user_activity(folder: &'static str) -> Simple {
    Simple {
        folder,
        category: "app_usage",
        title: "User activity in {5}: {2.@plist.title}",
        what: "a user activity an app donated (what was on screen)",
        state: None,
        fields: USER_ACTIVITY,
        times: &[(&["2", "@plist", "when"], Epoch::Text, "User activity")],
    }
}

/// The fields of a user activity's metadata.
const USER_ACTIVITY: &[Field] = &[
    field(&["5"], FactType::Identifier, "app"),
    field(&["4"], FactType::Text, "description"),
    field(&["2", "@plist", "title"], FactType::Text, "title"),
    field(
        &["2", "@plist", "activityType"],
        FactType::Identifier,
        "activity type",
    ),
    field(&["2", "@plist", "webpageURL"], FactType::Url, "web page"),
    field(
        &[
            "2",
            "@plist",
            "contentAttributeSetData",
            "$data_plist",
            "container",
        ],
        FactType::Text,
        "container",
    ),
];

/// The raw field 2 of a state stream.
const FIELD_2: &[Field] = &[raw_field(&["2"], "field 2")];

/// The shared wrapper of the Apple Intelligence reporting streams (iLEAPP's
/// biomeAppleIntelligence): field 1 the event (its time, status, context with the feature or
/// client and one attribute, requesting client, OS build, asset id and category, user id).
const AI_EVENT: &[Field] = &[
    field(&["1", "3", "1"], FactType::Text, "feature or client"),
    field(&["1", "3", "2", "1"], FactType::Text, "attribute"),
    field(&["1", "3", "2", "2"], FactType::Text, "attribute value"),
    field(&["1", "5"], FactType::Identifier, "requesting client"),
    field(&["1", "8"], FactType::Identifier, "asset id"),
    field(&["1", "9"], FactType::Text, "asset category"),
    field(&["1", "7"], FactType::Identifier, "OS build"),
    raw_field(&["1", "10"], "user id"),
    raw_field(&["1", "2"], "status (as stored)"),
];

/// An Apple Intelligence reporting stream read by its shared wrapper.
const fn ai_reporting(
    folder: &'static str,
    category: &'static str,
    title: &'static str,
    what: &'static str,
) -> Simple {
    Simple {
        folder,
        category,
        title,
        what,
        state: None,
        fields: AI_EVENT,
        times: &[(&["1", "1"], Epoch::Unix, "Apple Intelligence event")],
    }
}

/// The streams read field by field.
const SIMPLE: &[Simple] = &[
    Simple {
        folder: "Device.TimeZone",
        category: "device",
        title: "Time zone {2}",
        what: "the device's time zone as set",
        state: None,
        fields: &[field(&["2"], FactType::Text, "time zone")],
        times: &[],
    },
    Simple {
        folder: "NotesContent",
        category: "notes",
        title: "Note content: {5}",
        what: "a note's text as Biome kept it",
        state: None,
        fields: &[
            field(&["5"], FactType::Text, "text"),
            field(&["1"], FactType::Identifier, "identifier 1"),
            field(&["2"], FactType::Identifier, "identifier 2"),
        ],
        times: &[(&["3"], Epoch::Cocoa, "Note content recorded")],
    },
    Simple {
        folder: "App.LocationActivity",
        category: "locations",
        title: "App location activity in {1}: {34}",
        what: "a place an app showed (its user activity with a location)",
        state: None,
        fields: &[
            field(&["1"], FactType::Identifier, "app"),
            field(&["2"], FactType::Identifier, "activity type"),
            field(&["34"], FactType::Name, "title"),
            field(&["29"], FactType::Text, "street address"),
            field(&["26"], FactType::Text, "city"),
            field(&["32"], FactType::Text, "postal code"),
            field(&["9"], FactType::Url, "address"),
            field(&["35"], FactType::Url, "place address"),
            field(&["14"], FactType::Text, "payload (URL-encoded as stored)"),
            field(&["19"], FactType::Text, "donation type"),
            field(&["15"], FactType::Identifier, "activity UUID"),
            field(&["16"], FactType::Text, "source"),
        ],
        times: &[(&["5"], Epoch::Unix, "App location activity expires")],
    },
    Simple {
        folder: "App.Activity",
        category: "app_usage",
        title: "App activity in {1}: {2}",
        what: "an app's user activity",
        state: None,
        fields: &[
            field(&["1"], FactType::Identifier, "app"),
            field(&["2"], FactType::Identifier, "activity type"),
            field(&["14"], FactType::Text, "payload (URL-encoded as stored)"),
            field(&["10"], FactType::Url, "item URI"),
            field(&["8"], FactType::Identifier, "activity UUID"),
            field(&["15"], FactType::Identifier, "session UUID"),
            field(&["16"], FactType::Text, "source"),
            raw_field(&["3"], "status"),
        ],
        times: &[(&["5"], Epoch::Unix, "App activity expires")],
    },
    Simple {
        folder: "Audio.Route",
        category: "device",
        title: "Audio route {2}",
        what: "an audio route the device used",
        state: None,
        fields: &[
            field(&["2"], FactType::Name, "route"),
            field(&["3"], FactType::Identifier, "port type"),
            field(&["4"], FactType::Name, "port"),
            raw_field(&["1"], "field 1"),
            raw_field(&["5"], "field 5"),
            raw_field(&["6"], "field 6"),
        ],
        times: &[],
    },
    Simple {
        folder: "Media.Route",
        category: "device",
        title: "Media route {2}",
        what: "a media route the device used",
        state: None,
        fields: &[
            field(&["2"], FactType::Name, "route"),
            field(&["4", "1"], FactType::Identifier, "route identifier"),
            raw_field(&["4", "2"], "route type"),
            raw_field(&["4", "3"], "route subtype"),
            raw_field(&["1"], "field 1"),
        ],
        times: &[],
    },
    Simple {
        folder: "CommCenter.Call.EmergencyVoiceCall",
        category: "calls",
        title: "Emergency call to {1}",
        what: "an emergency voice call",
        state: None,
        fields: &[
            field(&["1"], FactType::Phone, "emergency number"),
            field(&["2"], FactType::Identifier, "mobile country code"),
            field(&["3"], FactType::Identifier, "mobile network code"),
            field(
                &["7"],
                FactType::Count,
                "duration in seconds (iLEAPP: unconfirmed)",
            ),
            raw_field(&["4"], "field 4"),
            raw_field(&["5"], "field 5"),
            raw_field(&["6"], "field 6"),
        ],
        times: &[],
    },
    Simple {
        folder: "Device.Metadata",
        category: "device",
        title: "Operating system build {2}",
        what: "the device's operating system build",
        state: None,
        fields: &[
            field(&["2"], FactType::Identifier, "build"),
            field(&["4"], FactType::Identifier, "build (field 4)"),
            raw_field(&["3"], "type"),
        ],
        times: &[],
    },
    Simple {
        folder: "SystemSettings.SearchTerms",
        category: "apps",
        title: "Settings search: {1}",
        what: "a search in the Settings app",
        state: None,
        fields: &[
            field(&["1"], FactType::Text, "search term"),
            field(&["2", "1"], FactType::Identifier, "result URI"),
            field(&["2", "2"], FactType::Text, "result label"),
        ],
        times: &[],
    },
    state_stream(
        "Device.Display.InterfaceOrientation",
        "Interface orientation {state}",
        INTERFACE_ORIENTATION,
    ),
    state_stream(
        "Device.Power.LowPowerMode",
        "Low Power Mode {state}",
        ON_OFF,
    ),
    state_stream(
        "Device.Wireless.AirplaneMode",
        "Airplane mode {state}",
        ON_OFF,
    ),
    state_stream(
        "Device.Wireless.CellularDataEnabled",
        "Cellular data {state}",
        ENABLED,
    ),
    state_stream("CarPlay.Connected", "CarPlay {state}", CONNECTED),
    state_stream("Device.ScreenLocked", "Screen {state}", LOCKED),
    state_stream("Device.KeybagLocked", "Keybag {state}", LOCKED),
    state_stream("Device.Power.PluggedIn", "Power {state}", PLUGGED),
    Simple {
        folder: "Device.SilentMode",
        category: "device",
        title: "Ringer: {state}",
        what: "a device state change",
        state: Some((&["1"], SILENT)),
        fields: &[
            field(&["4"], FactType::Text, "reason"),
            raw_field(&["2"], "field 2"),
        ],
        times: &[],
    },
    Simple {
        folder: "Device.Power.BatteryLevel",
        category: "device",
        title: "Battery level {1} %",
        what: "the battery's level",
        state: None,
        fields: &[
            field(&["1"], FactType::Count, "level (%)"),
            raw_field(&["2"], "field 2"),
        ],
        times: &[],
    },
    Simple {
        folder: "Device.Thermals.BatteryTemperature",
        category: "device",
        title: "Battery temperature {1} (hundredths of a degree Celsius)",
        what: "the battery's temperature in hundredths of a degree Celsius, as iLEAPP reads it",
        state: None,
        fields: &[
            field(&["1"], FactType::Count, "temperature"),
            raw_field(&["2"], "field 2"),
        ],
        times: &[],
    },
    Simple {
        folder: "Device.Power.EnergyMode",
        category: "device",
        title: "Energy mode {1}",
        what: "the device's energy mode as stored (its meaning is not public)",
        state: None,
        fields: &[raw_field(&["1"], "field 1"), raw_field(&["2"], "field 2")],
        times: &[],
    },
    Simple {
        folder: "App.Intents.Transcript",
        category: "apps",
        title: "App intent {5.1} in {1}",
        what: "an app intent the system recorded (App Intents)",
        state: None,
        fields: &[
            field(&["1"], FactType::Identifier, "app"),
            field(&["5", "1"], FactType::Identifier, "intent class"),
            field(&["5", "7", "1"], FactType::Text, "parameter"),
            field(
                &["5", "7", "2", "1", "3", "1"],
                FactType::Identifier,
                "entity type",
            ),
            field(
                &["5", "7", "2", "3", "1", "1"],
                FactType::Text,
                "entity title",
            ),
            field(&["5", "7", "2", "3", "1", "4"], FactType::Url, "app URL"),
            field(&["6", "1"], FactType::Identifier, "intent class (field 6)"),
            field(&["6", "7", "1"], FactType::Text, "parameter (field 6)"),
            field(
                &["6", "7", "2", "3", "1", "1"],
                FactType::Text,
                "entity title (field 6)",
            ),
            field(&["8", "2", "1", "1"], FactType::Text, "phrase template"),
        ],
        times: &[(&["4"], Epoch::Unix, "App intent")],
    },
    Simple {
        folder: "Clock.Alarm",
        category: "device",
        title: "Clock alarm {3}: state {2}",
        what: "an alarm's state change (the state's meaning is not public; iLEAPP reports it raw)",
        state: None,
        fields: &[
            field(&["3"], FactType::Identifier, "alarm id"),
            raw_field(&["2"], "state"),
            raw_field(&["1"], "field 1"),
            raw_field(&["4"], "field 4"),
        ],
        times: &[],
    },
    Simple {
        folder: "AeroML.Insights.PhotosSearchInsights",
        category: "apps",
        title: "Photos search: {9}",
        what: "a search in the Photos app",
        state: None,
        fields: &[
            field(&["9"], FactType::Text, "search term"),
            field(&["22"], FactType::Text, "language"),
            field(&["23"], FactType::Text, "region"),
            field(&["24"], FactType::Text, "schema version"),
            raw_field(&["1"], "field 1"),
            raw_field(&["5"], "field 5"),
            raw_field(&["25"], "field 25"),
            raw_field(&["26"], "field 26"),
        ],
        times: &[],
    },
    Simple {
        folder: "ShareSheet.Feedback",
        category: "apps",
        title: "Share sheet in {15}: {16}",
        what: "a use of the share sheet",
        state: None,
        fields: &[
            field(&["15"], FactType::Identifier, "source app"),
            field(&["16"], FactType::Identifier, "chosen activity"),
            field(&["2"], FactType::Identifier, "activity type"),
            field(&["11"], FactType::Text, "offered candidates"),
            field(&["5"], FactType::Identifier, "event UUID"),
            field(&["3"], FactType::Identifier, "session id"),
            raw_field(&["17"], "field 17"),
            raw_field(&["20"], "field 20"),
        ],
        times: &[],
    },
    Simple {
        folder: "FrontBoard.DisplayElement",
        category: "app_usage",
        title: "Displayed: {3}",
        what: "an element FrontBoard put on a display (an app's scene)",
        state: None,
        fields: &[
            field(&["3"], FactType::Identifier, "app"),
            field(&["2"], FactType::Identifier, "scene id"),
            field(&["9", "2"], FactType::Text, "display type"),
            field(&["9", "3"], FactType::Text, "display role"),
            raw_field(&["4"], "field 4"),
            raw_field(&["5"], "field 5"),
            raw_field(&["6"], "field 6"),
            raw_field(&["7"], "field 7"),
            raw_field(&["8"], "field 8"),
            raw_field(&["10"], "field 10"),
        ],
        times: &[(&["1"], Epoch::Unix, "Element displayed")],
    },
    user_activity("UserActivityMetadata"),
    user_activity("UniversalRecents.UserActivity.Metadata"),
    // Siri's proactive harvesting, Messages' reads and Screen Time's app use (iLEAPP's
    // biomeStreams)
    Simple {
        folder: "ProactiveHarvesting.Messages",
        category: "messages",
        title: "Harvested message in {2}: {10}",
        what: "a message Siri's proactive harvesting kept (the conversation's service and handle, the text, the sender)",
        state: None,
        fields: &[
            field(&["2"], FactType::Identifier, "service and handle"),
            field(&["10"], FactType::Text, "content"),
            field(&["11", "1"], FactType::Identifier, "sender"),
            field(&["1"], FactType::Identifier, "GUID"),
        ],
        times: &[],
    },
    Simple {
        folder: "ProactiveHarvesting.Mail",
        category: "mail",
        title: "Harvested e-mail: {11}",
        what: "an e-mail Siri's proactive harvesting kept (its subject, message id and headers)",
        state: None,
        fields: &[
            field(&["11"], FactType::Text, "subject"),
            field(&["2"], FactType::Identifier, "message id"),
            raw_field(&["10", "1"], "header names"),
            field(
                &["10", "2"],
                FactType::Text,
                "header values (in the names' order)",
            ),
        ],
        times: &[(&["3"], Epoch::Cocoa, "E-mail dated")],
    },
    Simple {
        folder: "Messages.Read",
        category: "messages",
        title: "Message read: {1}",
        what: "a message the user read in Messages (the record's time is when)",
        state: None,
        fields: &[field(&["1"], FactType::Identifier, "message id")],
        times: &[],
    },
    Simple {
        folder: "ScreenTime.AppUsage",
        category: "app_usage",
        title: "Screen Time app usage: {3}",
        what: "an app's use as Screen Time counted it",
        state: None,
        fields: &[
            field(&["3"], FactType::Identifier, "app"),
            field(&["1"], FactType::Text, "event (as stored)"),
        ],
        times: &[],
    },
    Simple {
        folder: "Notification.Usage",
        category: "apps",
        title: "Notification usage of {14}",
        what: "a notification's use (shown, opened or dismissed)",
        state: None,
        fields: &[
            field(&["14"], FactType::Identifier, "app"),
            field(&["8"], FactType::Text, "content"),
            field(&["12"], FactType::Text, "content 2"),
            raw_field(&["3"], "field 3"),
            raw_field(&["11"], "field 11"),
        ],
        times: &[(&["2"], Epoch::Cocoa, "Notification")],
    },
    Simple {
        folder: "Emoji.Engagement",
        category: "keyboard",
        title: "Emoji used: {1}",
        what: "an emoji the user picked",
        state: None,
        fields: &[
            field(&["1"], FactType::Text, "emoji"),
            raw_field(
                &["3", "12"],
                "context (four ASCII characters as an integer)",
            ),
            raw_field(&["2"], "field 2"),
            raw_field(&["4"], "field 4"),
        ],
        times: &[],
    },
    Simple {
        folder: "Device.BootSession",
        category: "device",
        title: "Boot session: {state}",
        what: "a boot session's start or end",
        state: Some((&["2"], &[(0, "session end"), (1, "session start")])),
        fields: &[field(&["1"], FactType::Identifier, "session id")],
        times: &[],
    },
    Simple {
        folder: "Siri.UI",
        category: "apps",
        title: "Siri interface: {state}",
        what: "Siri's interface shown or dismissed",
        state: Some((&["5"], &[(0, "dismissed"), (1, "presented")])),
        fields: &[
            field(&["4"], FactType::Text, "dismissal reason"),
            field(&["2"], FactType::Identifier, "session id"),
            field(&["7"], FactType::Identifier, "related id"),
            raw_field(&["3"], "presentation (as stored)"),
        ],
        times: &[],
    },
    // iLEAPP's biomeHardware, biomeDiscoverabilitySignals and biomeSiriRemembersAudioHistory
    Simple {
        folder: "OSAnalytics.Hardware.Reliability",
        category: "device",
        title: "Hardware reliability record: {1}",
        what: "a record of the OS analytics' hardware reliability stream",
        state: None,
        fields: &[field(&["1"], FactType::Text, "hardware")],
        times: &[],
    },
    Simple {
        folder: "Discoverability.Signals",
        category: "apps",
        title: "Discoverability signal {1}",
        what: "a signal the system's feature discoverability (its tips) recorded",
        state: None,
        fields: &[
            field(&["1"], FactType::Text, "signal"),
            field(&["2"], FactType::Text, "value"),
            field(&["4"], FactType::Text, "payload"),
            raw_field(&["3", "13"], "context id (as stored)"),
        ],
        times: &[],
    },
    Simple {
        folder: "Siri.Remembers.AudioHistory",
        category: "media",
        title: "Audio played through Siri in {1.4}",
        what: "audio the user had Siri play, as Siri remembers it (the app, the intent, the media item; its title, artist and kind are the JSON attributes of the item)",
        state: None,
        fields: &[
            field(&["1", "4"], FactType::Identifier, "app"),
            field(&["1", "2"], FactType::Text, "intent class"),
            field(&["1", "1"], FactType::Identifier, "intent UUID"),
            field(&["1", "12"], FactType::Identifier, "media id"),
            field(&["2", "2", "1"], FactType::Identifier, "item id"),
            field(&["2", "2", "4"], FactType::Text, "item attributes"),
        ],
        times: &[(&["1", "8"], Epoch::Unix, "Audio played through Siri")],
    },
    // iLEAPP's biomeSiriRemembersAssistantSuggestions, biomeNetworkingEdgeSelection and
    // biomeAppRelevantShortcuts
    Simple {
        folder: "Siri.Remembers.AssistantSuggestions",
        category: "apps",
        title: "Siri suggestion in {1.4}: {2.2.1}",
        what: "a suggestion Siri made, as Siri remembers it (the app, the intent, the suggested entities and their kinds)",
        state: None,
        fields: &[
            field(&["1", "4"], FactType::Identifier, "app"),
            field(&["1", "2"], FactType::Text, "intent class"),
            field(&["1", "1"], FactType::Identifier, "event id"),
            field(&["1", "11"], FactType::Text, "metadata"),
            field(&["2", "2", "1"], FactType::Text, "suggestion"),
            field(&["2", "2", "2"], FactType::Text, "suggestion kind"),
        ],
        times: &[(&["1", "8"], Epoch::Unix, "Siri suggestion")],
    },
    Simple {
        folder: "Device.Networking.EdgeSelection",
        category: "device",
        title: "Network edge: {1}/{3} over {4}",
        what: "a network the device chose to send through (the address is stored cut to its prefix: the network, not the device's own address)",
        state: None,
        fields: &[
            field(
                &["1"],
                FactType::Text,
                "network address (cut to its prefix)",
            ),
            raw_field(&["2"], "IP version"),
            raw_field(&["3"], "prefix length"),
            field(&["4"], FactType::Text, "interface"),
            field(&["5"], FactType::Text, "radio technology"),
            raw_field(&["6"], "field 6"),
            field(&["7"], FactType::Text, "country"),
            field(&["8"], FactType::Text, "time zone"),
        ],
        times: &[],
    },
    Simple {
        folder: "App.RelevantShortcuts",
        category: "apps",
        title: "Relevant shortcut of {1}: {3.@plist.shortcut.activitySubtitle}",
        what: "a shortcut an app told the system was relevant (for widgets, the watch face, Spotlight), with the window it wanted it shown in",
        state: None,
        fields: &[
            field(&["1"], FactType::Identifier, "app"),
            field(
                &["3", "@plist", "widgetKind"],
                FactType::Text,
                "widget kind",
            ),
            raw_field(&["3", "@plist", "shortcutRole"], "shortcut role"),
            field(
                &["3", "@plist", "shortcut", "activitySubtitle"],
                FactType::Text,
                "title",
            ),
            field(
                &["3", "@plist", "shortcut", "activityBundleIdentifier"],
                FactType::Identifier,
                "activity app",
            ),
            field(
                &["3", "@plist", "shortcut", "intent", "intentClassName"],
                FactType::Text,
                "intent",
            ),
            field(
                &["3", "@plist", "watchTemplate"],
                FactType::Text,
                "watch template",
            ),
        ],
        times: &[
            (
                &["3", "@plist", "relevanceProviders", "startDate"],
                Epoch::Text,
                "Shortcut relevant from",
            ),
            (
                &["3", "@plist", "relevanceProviders", "endDate"],
                Epoch::Text,
                "Shortcut relevant until",
            ),
        ],
    },
    Simple {
        folder: "Autonaming.Messages.MessageIds",
        category: "messages",
        title: "Message seen for autonaming in {2}: {3}",
        what: "a message the system read to suggest names for its chat (Messages' autonaming)",
        state: None,
        fields: &[
            field(&["2"], FactType::Identifier, "app"),
            field(&["3"], FactType::Identifier, "chat id"),
            field(&["7"], FactType::Identifier, "chat id (other field)"),
            field(&["4"], FactType::Identifier, "message GUID"),
            field(&["6"], FactType::Identifier, "message GUID (other field)"),
        ],
        times: &[(&["10"], Epoch::Unix, "Message (as autonaming read it)")],
    },
    Simple {
        folder: "Safari.WebPagePerformance",
        category: "web",
        title: "Safari page performance: {1}",
        what: "a page load Safari measured",
        state: None,
        fields: &[
            field(&["1"], FactType::Text, "detail"),
            raw_field(&["3"], "field 3"),
            raw_field(&["4"], "field 4"),
            raw_field(&["5"], "field 5"),
        ],
        times: &[(
            &["2"],
            Epoch::Unix,
            "Safari page load (rounded to 30 minutes)",
        )],
    },
    // iLEAPP's biomeAppleIntelligence and biomeCameraAutoFocusROI
    Simple {
        folder: "AppleIntelligence.Availability",
        category: "device",
        title: "Apple Intelligence availability ({6})",
        what: "a change of Apple Intelligence's availability on the device, for the language evaluated (the three state fields are as stored: which condition each denotes is not public)",
        state: None,
        fields: &[
            field(&["6"], FactType::Text, "language"),
            raw_field(&["1"], "state 1"),
            raw_field(&["1", "1"], "state 1"),
            raw_field(&["2"], "state 2"),
            raw_field(&["2", "1"], "state 2"),
            raw_field(&["3"], "state 3"),
        ],
        times: &[],
    },
    ai_reporting(
        "AppleIntelligence.Reporting.AssetDeliveryLog.Availability",
        "device",
        "Apple Intelligence asset availability: {1.3.1}",
        "an Apple Intelligence asset availability report (the client, the attribute it was evaluated against)",
    ),
    ai_reporting(
        "AppleIntelligence.Reporting.AssetDeliveryLog.ModelCatalog",
        "apps",
        "Apple Intelligence model requested: {1.3.1}",
        "an Apple Intelligence feature whose model was requested, with the language it was requested for (the request, not that the user used the feature)",
    ),
    ai_reporting(
        "AppleIntelligence.Reporting.AssetDeliveryLog.SoftwareUpdateController",
        "device",
        "Apple Intelligence software update: {1.3.1}",
        "an Apple Intelligence software update controller report",
    ),
    ai_reporting(
        "AppleIntelligence.Reporting.AssetDeliveryLog.UnifiedAssetFramework",
        "apps",
        "Apple Intelligence asset requested: {1.8}",
        "an Apple Intelligence asset a client requested through the unified asset framework",
    ),
    ai_reporting(
        "AppleIntelligence.Reporting.SafetyOverrides",
        "apps",
        "Apple Intelligence safety override: {1.3.1}",
        "an Apple Intelligence safety override report (read with the reporting streams' wrapper, as iLEAPP does: the stream's own layout is not confirmed)",
    ),
    Simple {
        folder: "CameraCapture.AutoFocusROI",
        category: "device",
        title: "Camera autofocus: {1}",
        what: "a camera autofocus region-of-interest event: the camera was in use, with the port named (the capture parameters' units are not public: as stored)",
        state: None,
        fields: &[
            field(&["1"], FactType::Text, "camera port"),
            raw_field(&["2"], "field 2"),
            raw_field(&["3"], "field 3"),
            raw_field(&["4"], "field 4"),
            raw_field(&["5"], "field 5"),
            raw_field(&["6"], "field 6"),
            raw_field(&["7"], "field 7"),
            raw_field(&["8"], "field 8 (a 32-bit float's bits)"),
            raw_field(&["9"], "field 9"),
        ],
        times: &[],
    },
    // Every other DuetKnowledge event stream: its shared wrapper (the event's stream name, start
    // and end, the value — a string, integer or double —, GUID, source, metadata, when it was
    // written, the device's UTC offset), as iLEAPP's biomeDKEventStreams reads them.
    Simple {
        folder: "_DKEvent.*",
        category: "device",
        title: "{folder}: {state}",
        what: "a DuetKnowledge event",
        state: Some((&["4", "4"], &[])),
        fields: &[
            field(&["1", "1"], FactType::Identifier, "event stream"),
            field(&["4", "3"], FactType::Text, "value"),
            field(&["4", "5"], FactType::Count, "value"),
            field(&["5"], FactType::Identifier, "GUID"),
            field(&["6", "1"], FactType::Identifier, "source"),
            field(&["6", "2"], FactType::Identifier, "source bundle"),
            field(&["7", "2", "3"], FactType::Text, "metadata"),
            raw_field(&["7", "2", "4"], "metadata value"),
            raw_field(&["10"], "device UTC offset (seconds)"),
        ],
        times: &[
            (&["2"], Epoch::Cocoa, "Event began"),
            (&["3"], Epoch::Cocoa, "Event ended"),
            (&["8"], Epoch::Cocoa, "Event written"),
        ],
    },
];

/// The fields of a [`SIMPLE`] stream whose values are the other party's handles (a
/// conversation id `service;-;handle`, `tel:`/`mailto:` or bare), observed as people.
const HANDLE_FIELDS: &[(&str, &[&str])] = &[("ProactiveHarvesting.Messages", &["2"])];

/// The words of a `_DKEvent.*` stream's integer value (iLEAPP's biomeDKEventStreams maps).
fn dk_words(folder: &str) -> Words {
    match folder {
        "_DKEvent.System.AirplaneMode"
        | "_DKEvent.Device.LowPowerMode"
        | "_DKEvent.Settings.DoNotDisturb" => ON_OFF,
        "_DKEvent.Keybag.IsLocked" | "_DKEvent.Device.IsLockedImputed" => LOCKED,
        "_DKEvent.Display.Orientation" => DEVICE_ORIENTATION,
        _ => &[],
    }
}

/// Every value at `path` (each step through every repeated value), as shown and as cited: a
/// string (escaped as in the cell), an integer, or a fixed64's double.
pub(super) fn values_at(m: &Value, path: &[&str]) -> Vec<(String, String)> {
    let mut nodes = vec![m];
    for f in path {
        // a protobuf field is an array of its values; a member of a property list the payload
        // holds (`@plist`) is the value itself
        nodes = nodes
            .into_iter()
            .filter_map(|n| n.get(f))
            .flat_map(|v| match v {
                Value::Array(a) => a.iter().collect::<Vec<_>>(),
                other => vec![other],
            })
            .collect();
    }
    nodes
        .into_iter()
        .filter_map(|n| match n {
            Value::String(s) if !s.is_empty() => Some((s.clone(), crate::outputs::in_json_cell(s))),
            Value::Number(v) => Some((v.to_string(), v.to_string())),
            Value::Object(o) => o
                .get("double")
                .filter(|d| d.is_number())
                .map(|d| (d.to_string(), d.to_string())),
            _ => None,
        })
        .collect()
}

/// A title template with its `{…}` placeholders replaced by `value(placeholder)`.
pub(super) fn fill(template: &str, value: impl Fn(&str) -> String) -> String {
    let mut out = String::new();
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let Some(close) = rest[open..].find('}') else {
            break;
        };
        out.push_str(&value(&rest[open + 1..open + close]));
        rest = &rest[open + close + 1..];
    }
    out.push_str(rest);
    out
}

/// The first value at a dotted path (`4.3`) of a message, as shown, or `?`.
pub(super) fn first_value(m: &Value, dotted: &str) -> String {
    let path: Vec<&str> = dotted.split('.').collect();
    values_at(m, &path)
        .into_iter()
        .next()
        .map(|(v, _)| v)
        .unwrap_or_else(|| "?".into())
}

/// A time field of a spec: a double (Cocoa or Unix seconds) or a date's text, as shown and as
/// cited.
fn time_at(m: &Value, path: &[&str], epoch: Epoch) -> Option<(String, String)> {
    match epoch {
        Epoch::Text => values_at(m, path).into_iter().next(),
        _ => double(m, path).map(|t| (t.clone(), t)),
    }
}

/// A simple stream's record: its title and what it says (`folder`: the stream's folder name).
fn simple_describe(spec: &Simple, folder: &str, m: &Value) -> (String, String) {
    let state = spec.state.and_then(|(path, words)| {
        let v = int(m, path)?;
        // the `_DKEvent.*` family's words are by stream
        let words = if words.is_empty() {
            dk_words(folder)
        } else {
            words
        };
        let word = words.iter().find(|(k, _)| *k == v).map(|(_, w)| *w);
        Some((v, word))
    });
    let state_shown = match state {
        Some((v, Some(w))) => format!("{w} ({v})"),
        Some((v, None)) => v.to_string(),
        None => values_at(m, &["4", "3"])
            .into_iter()
            .chain(values_at(m, &["4", "5"]))
            .map(|(v, _)| v)
            .next()
            .unwrap_or_else(|| "no value".into()),
    };
    // the title: `{state}`, `{folder}` and `{<path>}` placeholders filled
    let title = fill(spec.title, |key| match key {
        "state" => state_shown.clone(),
        "folder" => folder.trim_start_matches("_DKEvent.").to_string(),
        key => first_value(m, key),
    });
    let mut said = Vec::new();
    if let Some((v, w)) = state {
        said.push(format!(
            "state {v}{}",
            w.map(|w| format!(" ({w})")).unwrap_or_default()
        ));
    }
    for f in spec.fields {
        let values: Vec<String> = values_at(m, f.path).into_iter().map(|(v, _)| v).collect();
        if !values.is_empty() {
            said.push(format!("{} {}", f.name, values.join("; ")));
        }
    }
    for (path, epoch, what) in spec.times {
        if let Some(t) = time_at(m, path, *epoch).map(|(t, _)| t) {
            said.push(format!(
                "{} {t} ({})",
                what.to_lowercase(),
                match epoch {
                    Epoch::Cocoa => "Cocoa seconds",
                    Epoch::Unix => "Unix seconds",
                    Epoch::Text => "UTC",
                }
            ));
        }
    }
    let what = if said.is_empty() {
        spec.what.to_string()
    } else {
        format!("{}: {}", spec.what, said.join(", "))
    };
    (title, what)
}

/// A simple stream's record's facts and times.
fn simple_facts(spec: &Simple, m: &Value, inv: &Invoked, d: &mut Draft) {
    for f in spec.fields {
        if let Some(fact) = f.fact {
            for (_, cited) in values_at(m, f.path) {
                d.fact(fact, Some(&cited), inv);
            }
        }
    }
    for (path, epoch, what) in spec.times {
        let v = time_at(m, path, *epoch).map(|(_, cited)| cited);
        let encoding = match epoch {
            Epoch::Cocoa => super::apple_encoding(v.as_deref()),
            Epoch::Unix => crate::drafts::unix_seconds(v.as_deref()),
            Epoch::Text => crate::drafts::date_text(v.as_deref()),
        };
        d.time(v.as_deref(), encoding, what, inv);
    }
}

/// The string fields of a notification record iLEAPP reports without a name (its "Field 1"…
/// "Field 5" and "data"), in its order.
const NOTIFICATION_TEXTS: [&str; 6] = ["8", "9", "12", "15", "5", "1"];

/// The string fields of a now-playing record iLEAPP reports as its "Info" columns.
const NOW_PLAYING_TEXTS: [&str; 3] = ["10", "8", "5"];

/// The stream folders read (names and the `_DKEvent.*` glob), for the one search.
pub fn folders() -> impl Iterator<Item = &'static str> {
    STREAMS
        .iter()
        .map(|(f, _)| *f)
        .chain(SIMPLE.iter().map(|s| s.folder))
}

/// What shows the catalogue that Biome was read: a `read_segb` call on a stream folder read
/// (or on any `_DKEvent.` stream), a query of `sync.db`.
pub fn detectors() -> Vec<String> {
    folders()
        .map(|f| match f.strip_suffix('*') {
            Some(prefix) => format!("/{prefix}"),
            None => format!("/{f}\""),
        })
        .chain(["/Biome/sync/sync.db\"".to_string()])
        .collect()
}

/// Triage of Biome's `sync.db` and every Biome stream folder the one search found.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    let mut peers = BTreeMap::new();
    run.each("sync.db", |find, path| {
        if path.to_ascii_lowercase().contains("/biome/sync/") {
            run.ctx
                .artefact(path, || sync_peers(run, find, path, &mut peers))?;
        }
        Ok(())
    })?;
    // the streams read by their own kind, then those of the spec table (whose `_DKEvent.*`
    // glob also finds the streams read by their own kind: those are left to it)
    let kinds = STREAMS.iter().map(|(f, k)| (*f, *k)).chain(
        SIMPLE
            .iter()
            .enumerate()
            .map(|(i, spec)| (spec.folder, Kind::Simple(i))),
    );
    for (glob, kind) in kinds {
        let Some((find, dirs)) = run.find_dirs(glob)? else {
            continue;
        };
        for dir in dirs
            .iter()
            .filter(|d| d.to_ascii_lowercase().contains("/biome/streams/"))
        {
            let folder = super::file_name(dir);
            if matches!(kind, Kind::Simple(_)) && STREAMS.iter().any(|(f, _)| *f == folder) {
                continue;
            }
            run.ctx
                .artefact(dir, || stream(run, &find, dir, folder, kind, &peers))?;
        }
    }
    Ok(())
}

/// Biome's `sync/sync.db`: the devices of the same account Biome syncs with (`DevicePeer`: the
/// device's identifier, name, platform, model, whether it is this device, the last sync), each
/// a `device` phenomenon and, by its name, a device entity (this device's name on `device`, the
/// others' on `biome-device:<identifier>`). Fills `peers` (identifier → name) so that the
/// records those devices synced into a stream's `remote/<identifier>/` are said to be theirs.
fn sync_peers(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    peers: &mut BTreeMap<String, String>,
) -> Result<(), RuntimeError> {
    let Some(schema) = run.schema(path, &["DevicePeer"])? else {
        return Ok(());
    };
    if !schema.require(run, "DevicePeer", &["device_identifier"])? {
        return Ok(());
    }
    let cols = schema.columns("DevicePeer");
    let c = |col: &str| crate::calls::column_or_null(&cols, "", col, col);
    let sql = format!(
        "SELECT rowid AS rid, device_identifier, {}, {}, {}, {}, {} FROM DevicePeer",
        c("name"),
        c("platform"),
        c("model"),
        c("me"),
        c("last_sync_date"),
    );
    let Some(paged) = run.paged(path, &sql, "rowid")? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        let Some(id) = raw(t, row, "device_identifier") else {
            continue;
        };
        let name = raw(t, row, "name");
        let platform = t.get(row, "platform");
        let me = t.get(row, "me") == Some("1");
        // iLEAPP's biomeSync reading of `platform`
        let kind = match platform {
            Some("1") => "iPad",
            Some("2") => "iPhone",
            Some("3") | Some("4") => "Mac",
            Some("5") | Some("7") => "Apple TV",
            Some("6") => "Apple Watch",
            _ => "device of unknown type",
        };
        let label = name.clone().unwrap_or_else(|| id.clone());
        let mut d = Draft::new(
            "device",
            format!(
                "{} {label} (Biome sync peer)",
                if me { "This device," } else { "Synced device" }
            ),
        );
        d.fact(FactType::Path, Some(path), find);
        d.fact(FactType::Identifier, Some(&id), inv);
        d.fact(FactType::Name, name.as_deref(), inv);
        d.fact(FactType::Identifier, raw(t, row, "model").as_deref(), inv);
        let synced = raw(t, row, "last_sync_date");
        d.time(
            synced.as_deref(),
            crate::drafts::unix_seconds(synced.as_deref()),
            "Last Biome sync with the device",
            inv,
        );
        d.interpretation = format!(
            "DevicePeer row {} of {path}: {}{} ({kind}: platform {}, model {}), identifier {id}; last_sync_date is Unix seconds{}.",
            t.get(row, "rid").unwrap_or("?"),
            if me {
                "this device, "
            } else {
                "a device of the same account whose Biome streams sync with this one, "
            },
            name.as_deref().unwrap_or("unnamed"),
            platform.unwrap_or("?"),
            raw(t, row, "model").unwrap_or_else(|| "?".into()),
            if me {
                ""
            } else {
                "; what it synced is under each stream's remote/<identifier>/"
            },
        );
        run.record(d)?;
        if let Some(n) = &name {
            let context = if me {
                "device".to_string()
            } else {
                format!("biome-device:{id}")
            };
            run.observe(
                &context,
                EntityKind::Device,
                n,
                IdType::DeviceName,
                n,
                inv,
                if me {
                    format!("The name of this device, as Biome's sync.db lists it ({id}).")
                } else {
                    format!(
                        "The name of a {kind} of the same account that syncs Biome streams with this device ({id})."
                    )
                },
            )?;
            peers.insert(id, n.clone());
        }
    }
    Ok(())
}

/// The JSON of a `protobuf:` cell.
fn payload(t: &Table, row: &[Option<String>]) -> Option<Value> {
    decoded(t, row, "protobuf:")
}

/// The JSON of a record's `data` cell that `read_segb` decoded as `prefix` (`protobuf:`, or
/// `plist:` for a binary property list).
pub(super) fn decoded(t: &Table, row: &[Option<String>], prefix: &str) -> Option<Value> {
    t.get(row, "data")
        .and_then(|d| d.strip_prefix(prefix))
        .and_then(|j| serde_json::from_str(j).ok())
}

/// The first value of field path `path` (`["4", "3"]`).
fn at<'a>(m: &'a Value, path: &[&str]) -> Option<&'a Value> {
    let mut node = m;
    for f in path {
        node = node.get(f)?.get(0)?;
    }
    Some(node)
}

/// A time kept as a double field (`{"fixed64", "double"}`), as the output writes it; `None`
/// unless positive.
fn double(m: &Value, path: &[&str]) -> Option<String> {
    measure(m, path).filter(|v| v.parse::<f64>().is_ok_and(|v| v > 0.0))
}

/// Any double field (a coordinate, an accuracy), as the output writes it.
fn measure(m: &Value, path: &[&str]) -> Option<String> {
    at(m, path)?
        .get("double")
        .filter(|d| d.is_number())
        .map(Value::to_string)
}

/// An integer field, as the output writes it.
fn int(m: &Value, path: &[&str]) -> Option<i64> {
    at(m, path)?.as_i64()
}

/// The words of a DuetKnowledge interval stream whose value (field 4.4) is 1 or not.
struct Interval {
    subject: &'static str,
    title_on: &'static str,
    title_off: &'static str,
    on: &'static str,
    off: &'static str,
    began: &'static str,
    ended: &'static str,
}

/// The interval words of `kind` (plugged in, CarPlay connected).
fn interval(kind: Kind) -> &'static Interval {
    const PLUGGED: Interval = Interval {
        subject: "the device",
        title_on: "Device plugged in",
        title_off: "Device unplugged",
        on: "plugged in",
        off: "not plugged in",
        began: "Plugged-in state began",
        ended: "Plugged-in state ended",
    };
    const CARPLAY: Interval = Interval {
        subject: "CarPlay",
        title_on: "CarPlay connected",
        title_off: "CarPlay not connected",
        on: "connected",
        off: "not connected",
        began: "CarPlay state began",
        ended: "CarPlay state ended",
    };
    if kind == Kind::CarPlay {
        &CARPLAY
    } else {
        &PLUGGED
    }
}

/// The double at `path` as a time of `d` in Cocoa seconds.
fn cocoa_time(d: &mut Draft, m: &Value, path: &[&str], what: &str, inv: &Invoked) {
    let v = double(m, path);
    d.time(v.as_deref(), super::apple_encoding(v.as_deref()), what, inv);
}

/// The double at `path` as a time of `d` in Unix seconds.
fn unix_time(d: &mut Draft, m: &Value, path: &[&str], what: &str, inv: &Invoked) {
    let v = double(m, path);
    d.time(
        v.as_deref(),
        crate::drafts::unix_seconds(v.as_deref()),
        what,
        inv,
    );
}

/// A SEGB stream folder (its `local/` and `remote/` files) read by `read_segb`: the call and its
/// records; every problem the tool named noted once ("could not parse all of {what} (the rest
/// was read): …") and a listing cut at the tool's limit noted (`what`: the stream as the notes
/// name it, "Biome's App.InFocus stream"). `None` when the call failed (noted by it). Shared with
/// [`super::duetstreams`], whose DuetExpertCenter streams are SEGB files too.
pub(super) fn segb_stream(
    run: &Run<'_, '_>,
    dir: &str,
    what: &str,
) -> Result<Option<(Invoked, Table)>, RuntimeError> {
    let Some(inv) = crate::calls::call_or_note(run.ctx, dir, "read_segb", json!({ "path": dir }))?
    else {
        return Ok(None);
    };
    // one note per stream (a note per artefact stands): every problem the tool named
    let problems: Vec<&str> = inv
        .output
        .text
        .lines()
        .filter_map(|l| l.strip_prefix("# problem "))
        .collect();
    if !problems.is_empty() {
        run.ctx.unparsed(
            dir,
            &format!(
                "could not parse all of {what} (the rest was read): {}",
                problems.join("; ")
            ),
            Some(&inv.record.invocation_id),
        )?;
    }
    let t = Table::parse(&inv.output.text);
    if inv.output.text.contains("\n# truncated") {
        run.ctx.unparsed(
            dir,
            &format!(
                "only the first {} records of {what} were read",
                t.rows.len()
            ),
            Some(&inv.record.invocation_id),
        )?;
    }
    Ok(Some((inv, t)))
}

/// One stream folder: its `local/` and `remote/` files read by `read_segb`.
fn stream(
    run: &Run<'_, '_>,
    find: &Invoked,
    dir: &str,
    name: &str,
    kind: Kind,
    peers: &BTreeMap<String, String>,
) -> Result<(), RuntimeError> {
    let local = dir;
    let Some((inv, t)) = segb_stream(run, local, &format!("Biome's {name} stream"))? else {
        return Ok(());
    };
    for row in &t.rows {
        let state = t.get(row, "state").unwrap_or("?");
        if state == "empty" {
            continue;
        }
        let Some(m) = payload(&t, row) else {
            if state == "written" {
                run.ctx.unparsed(
                    local,
                    &format!(
                        "could not parse the Biome {name} record at offset {} of {} because its data is no Protocol Buffers message",
                        t.get(row, "offset").unwrap_or("?"),
                        t.get(row, "file").unwrap_or("?")
                    ),
                    Some(&inv.record.invocation_id),
                )?;
            }
            continue;
        };
        record(run, find, &inv, dir, (name, kind), peers, &t, row, &m)?;
    }
    Ok(())
}

/// One record's phenomenon.
#[allow(clippy::too_many_arguments)]
fn record(
    run: &Run<'_, '_>,
    find: &Invoked,
    inv: &Invoked,
    dir: &str,
    (name, kind): (&str, Kind),
    peers: &BTreeMap<String, String>,
    t: &Table,
    row: &[Option<String>],
    m: &Value,
) -> Result<(), RuntimeError> {
    let state = t.get(row, "state").unwrap_or("?");
    // a record another device synced: `remote/<device>/<file>` (or `remote/<file>`)
    let remote = t
        .get(row, "file")
        .and_then(|f| f.strip_prefix("remote/"))
        .map(|r| r.split_once('/').map(|(d, _)| d).unwrap_or(""));
    let peer = remote.map(|d| match (d, peers.get(d)) {
        ("", _) => "another device of the account".to_string(),
        (d, Some(n)) => format!("{n} ({d})"),
        (d, None) => format!("the device {d}"),
    });
    let deleted = match (state == "written", &peer) {
        (true, None) => String::new(),
        (true, Some(p)) => format!(" (synced from {p})"),
        (false, None) => " (a deleted record)".to_string(),
        (false, Some(p)) => format!(" (a deleted record synced from {p})"),
    };
    let params = parameters(m, &inv.output.text);
    let meta = |f: &str| proto_text(m, &["1", f]);
    let text = |path: &[&str]| proto_text(m, path);
    let (category, title, what) = match kind {
        Kind::InFocus => {
            let bundle = text(&["6"]).map(|(b, _)| b).unwrap_or_else(|| "?".into());
            let fg = int(m, &["3"]);
            (
                "app_usage",
                format!(
                    "{} {bundle}{deleted}",
                    if fg == Some(0) {
                        "App left the foreground:"
                    } else {
                        "App in focus:"
                    }
                ),
                format!(
                    "the app {bundle} {} (field 3 {})",
                    match fg {
                        Some(1) => "came to the foreground",
                        Some(0) => "went to the background",
                        _ => "changed focus",
                    },
                    fg.map(|v| v.to_string()).unwrap_or_else(|| "absent".into())
                ),
            )
        }
        Kind::Bluetooth => {
            let addr = text(&["1"]).map(|(a, _)| a).unwrap_or_else(|| "?".into());
            let dev = text(&["2"]).map(|(n, _)| n);
            (
                "device",
                format!(
                    "Bluetooth device {}{deleted}",
                    dev.as_ref()
                        .map(|n| format!("{n} ({addr})"))
                        .unwrap_or(addr.clone())
                ),
                format!(
                    "the Bluetooth device {addr}{} was connected",
                    dev.map(|n| format!(", named {n}")).unwrap_or_default()
                ),
            )
        }
        Kind::Safari => {
            let url = text(&["4", "3"])
                .map(|(u, _)| u)
                .unwrap_or_else(|| "?".into());
            let page = text(&["7", "2", "3"]).map(|(p, _)| p);
            (
                "web",
                format!(
                    "Safari visit: {}{deleted}",
                    page.clone().unwrap_or_else(|| url.clone())
                ),
                format!(
                    "Safari history event ({}): {url}{}; source {}, {}, {}; GUID {}",
                    text(&["1", "1"]).map(|(s, _)| s).unwrap_or_default(),
                    page.map(|p| format!(", titled {p}")).unwrap_or_default(),
                    text(&["6", "1"]).map(|(s, _)| s).unwrap_or_default(),
                    text(&["6", "2"]).map(|(s, _)| s).unwrap_or_default(),
                    text(&["6", "4"]).map(|(s, _)| s).unwrap_or_default(),
                    text(&["5"]).map(|(s, _)| s).unwrap_or_default(),
                ),
            )
        }
        Kind::Backlight => {
            let on = int(m, &["2"]);
            (
                "device",
                format!(
                    "Screen {}{deleted}",
                    match on {
                        Some(1) => "on",
                        Some(0) => "off",
                        _ => "state changed",
                    }
                ),
                format!(
                    "the screen's backlight state became {}",
                    on.map(|v| v.to_string()).unwrap_or_else(|| "?".into())
                ),
            )
        }
        Kind::Plugged | Kind::CarPlay => {
            let iv = interval(kind);
            let on = int(m, &["4", "4"]);
            (
                "device",
                format!(
                    "{}{deleted}",
                    if on == Some(1) {
                        iv.title_on
                    } else {
                        iv.title_off
                    }
                ),
                format!(
                    "{} was {} (field 4.4 {}) over the interval; GUID {}",
                    iv.subject,
                    if on == Some(1) { iv.on } else { iv.off },
                    on.map(|v| v.to_string()).unwrap_or_else(|| "?".into()),
                    text(&["5"]).map(|(s, _)| s).unwrap_or_default(),
                ),
            )
        }
        Kind::Notification => {
            let bundle = text(&["14"]).map(|(b, _)| b).unwrap_or_else(|| "?".into());
            let texts: Vec<String> = NOTIFICATION_TEXTS
                .iter()
                .filter_map(|f| text(&[f]).map(|(v, _)| format!("field {f}: {v}")))
                .collect();
            (
                "apps",
                format!("Notification of {bundle}{deleted}"),
                format!(
                    "a notification of {bundle}{}",
                    if texts.is_empty() {
                        String::new()
                    } else {
                        format!(
                            ", its texts as stored (fields whose meaning is not public; iLEAPP names them Field 1–5): {}",
                            texts.join("; ")
                        )
                    }
                ),
            )
        }
        Kind::NowPlaying => {
            let bundle = text(&["15"]).map(|(b, _)| b).unwrap_or_else(|| "?".into());
            let outputs: Vec<String> = m
                .get("14")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(|o| o.get("3")?.get(0)?.as_str().map(str::to_string))
                .collect();
            let infos: Vec<String> = NOW_PLAYING_TEXTS
                .iter()
                .filter_map(|f| text(&[f]).map(|(v, _)| v))
                .collect();
            (
                "media",
                format!(
                    "Now playing in {bundle}{}{deleted}",
                    infos.first().map(|i| format!(": {i}")).unwrap_or_default()
                ),
                format!(
                    "{bundle} played media{}{}",
                    if infos.is_empty() {
                        String::new()
                    } else {
                        format!(" ({})", infos.join("; "))
                    },
                    if outputs.is_empty() {
                        String::new()
                    } else {
                        format!(", output to {}", outputs.join(" and "))
                    }
                ),
            )
        }
        Kind::LocationVisit => {
            let geo = |f: &str| measure(m, &["3", f]);
            let place = text(&["8", "5", "2"]).map(|(p, _)| p);
            let at = match (geo("1"), geo("2")) {
                (Some(la), Some(lo)) => format!("{la}, {lo}"),
                _ => "?".into(),
            };
            (
                "locations",
                format!(
                    "Visit at {}{deleted}",
                    place.clone().unwrap_or_else(|| at.clone())
                ),
                format!(
                    "a visit iOS detected at latitude/longitude {at} (horizontal accuracy {} m, altitude {}, vertical accuracy {}, confidence {}){}; arrival, departure and detection are Unix seconds, which iLEAPP and Mattia Epifani's study found need corroborating (records are written in batches long after the visit)",
                    geo("3").unwrap_or_else(|| "?".into()),
                    geo("4").unwrap_or_else(|| "?".into()),
                    geo("5").unwrap_or_else(|| "?".into()),
                    measure(m, &["6"]).unwrap_or_else(|| "?".into()),
                    match &place {
                        Some(p) => format!(
                            ", the place {p}{}{} (place id {}, visit id {})",
                            text(&["8", "5", "3"])
                                .map(|(a, _)| format!(", {a}"))
                                .unwrap_or_default(),
                            text(&["8", "5", "4"])
                                .map(|(c, _)| format!(", category {c}"))
                                .unwrap_or_default(),
                            text(&["8", "5", "1"]).map(|(i, _)| i).unwrap_or_default(),
                            text(&["8", "1"]).map(|(i, _)| i).unwrap_or_default(),
                        ),
                        None => ", no place matched".to_string(),
                    }
                ),
            )
        }
        Kind::AppInstall => {
            let bundle = text(&["1", "1"])
                .map(|(b, _)| b)
                .unwrap_or_else(|| "?".into());
            let version = text(&["3", "3"]).map(|(v, _)| v);
            (
                "apps",
                format!(
                    "App installation event: {bundle}{}{deleted}",
                    version
                        .as_ref()
                        .map(|v| format!(" {v}"))
                        .unwrap_or_default()
                ),
                format!(
                    "an installation event of {bundle} (event type {} as stored; iLEAPP reports it raw), app UUID {}, version {}, build {}, digests {} and {}; the event and app times are Unix seconds",
                    int(m, &["2"])
                        .map(|v| v.to_string())
                        .unwrap_or_else(|| "?".into()),
                    text(&["1", "2"])
                        .map(|(u, _)| u)
                        .unwrap_or_else(|| "?".into()),
                    version.unwrap_or_else(|| "?".into()),
                    text(&["3", "2"])
                        .map(|(b, _)| b)
                        .unwrap_or_else(|| "?".into()),
                    text(&["3", "4"])
                        .map(|(h, _)| h)
                        .unwrap_or_else(|| "none".into()),
                    text(&["3", "5"])
                        .map(|(h, _)| h)
                        .unwrap_or_else(|| "none".into()),
                ),
            )
        }
        Kind::CallHistory | Kind::MessageHistory => {
            let dir_ = int(m, &["1", "6"]);
            let others: Vec<&Parameter> = params
                .iter()
                .filter(|p| other_handles(kind, dir_).contains(&p.name.as_str()))
                .collect();
            let other = others
                .iter()
                .map(|p| shown(p))
                .collect::<Vec<_>>()
                .join("; ");
            let bundle = meta("4").map(|(b, _)| b).unwrap_or_else(|| "?".into());
            let is_group = meta("11")
                .and_then(|(g, _)| serde_json::from_str::<Value>(&g).ok())
                .and_then(|g| g.get("isGroup").map(Value::to_string));
            let roles: &[(&str, &str)] = if kind == Kind::CallHistory {
                &[
                    ("contacts", "contacts"),
                    ("contactHandles", "contact handles"),
                    ("speakableGroupName", "group name"),
                ]
            } else {
                &[
                    ("sender", "sender"),
                    ("senderHandle", "sender handle"),
                    ("recipients", "recipients"),
                    ("recipientHandles", "recipient handles"),
                    ("speakableGroupName", "group name"),
                ]
            };
            let listed: Vec<String> = roles
                .iter()
                .filter_map(|(k, w)| named(&params, k).map(|v| format!("{w} {v}")))
                .collect();
            let what_kind = if kind == Kind::CallHistory {
                "call"
            } else {
                "message"
            };
            (
                if kind == Kind::CallHistory {
                    "calls"
                } else {
                    "messages"
                },
                format!(
                    "{} {what_kind} {} {}{deleted}",
                    match dir_ {
                        Some(1) => "Incoming",
                        Some(2) => "Outgoing",
                        _ => "A",
                    },
                    if dir_ == Some(2) { "to" } else { "with" },
                    if other.is_empty() {
                        "an unnamed party".to_string()
                    } else {
                        other.clone()
                    },
                ),
                format!(
                    "Siri remembered an {} {what_kind} in {bundle} (field 1.6 {}){}; intent {}, conversation {}, GUID {}, group {}; the {what_kind}'s time (field 1.8) is Unix seconds",
                    direction(dir_),
                    dir_.map(|v| v.to_string())
                        .unwrap_or_else(|| "absent".into()),
                    if listed.is_empty() {
                        String::new()
                    } else {
                        format!(": {}", listed.join(", "))
                    },
                    meta("2").map(|(v, _)| v).unwrap_or_else(|| "?".into()),
                    meta("12").map(|(v, _)| v).unwrap_or_else(|| "?".into()),
                    meta("13").map(|(v, _)| v).unwrap_or_else(|| "?".into()),
                    is_group.unwrap_or_else(|| "not said".into()),
                ),
            )
        }
        Kind::InteractionHistory => {
            let intent = meta("2").map(|(v, _)| v).unwrap_or_else(|| "?".into());
            let bundle = meta("4").map(|(b, _)| b).unwrap_or_else(|| "?".into());
            let listed: Vec<String> = params
                .iter()
                .map(|p| {
                    if p.name.is_empty() {
                        shown(p)
                    } else {
                        format!("{}: {}", p.name, shown(p))
                    }
                })
                .collect();
            (
                "apps",
                format!("Siri intent {intent} in {bundle}{deleted}"),
                format!(
                    "Siri remembered the intent {intent} of {bundle} (domain {}){}; intent UUID {}, item GUID {}; its time (field 1.8) is Unix seconds",
                    meta("3").map(|(v, _)| v).unwrap_or_else(|| "?".into()),
                    if listed.is_empty() {
                        String::new()
                    } else {
                        format!(", parameters {}", listed.join("; "))
                    },
                    meta("1").map(|(v, _)| v).unwrap_or_else(|| "?".into()),
                    meta("13").map(|(v, _)| v).unwrap_or_else(|| "?".into()),
                ),
            )
        }
        Kind::Wallet => {
            let card = text(&["2"]).map(|(c, _)| c);
            (
                "transactions",
                format!(
                    "Wallet transaction{}{deleted}",
                    card.as_ref()
                        .map(|c| format!(" with {c}"))
                        .unwrap_or_default()
                ),
                format!(
                    "a Wallet transaction with the card {} (pass {}), transaction UUID {}; fields 3 and 5 as stored ({} and {}: their meaning is not public); the amount and merchant are not in this stream (Apple Wallet's passes23.sqlite has them)",
                    card.unwrap_or_else(|| "?".into()),
                    text(&["1"]).map(|(v, _)| v).unwrap_or_else(|| "?".into()),
                    text(&["4"]).map(|(v, _)| v).unwrap_or_else(|| "?".into()),
                    int(m, &["3"])
                        .map(|v| v.to_string())
                        .unwrap_or_else(|| "absent".into()),
                    int(m, &["5"])
                        .map(|v| v.to_string())
                        .unwrap_or_else(|| "absent".into()),
                ),
            )
        }
        Kind::Wifi => {
            let ssid = text(&["1"]).map(|(v, _)| v).unwrap_or_else(|| "?".into());
            let on = int(m, &["2"]) == Some(1);
            (
                "wifi",
                format!(
                    "Wi-Fi {ssid} {}{deleted}",
                    if on { "connected" } else { "disconnected" }
                ),
                format!(
                    "the device {} the Wi-Fi network {ssid} (field 2 {})",
                    if on {
                        "connected to"
                    } else {
                        "disconnected from"
                    },
                    int(m, &["2"])
                        .map(|v| v.to_string())
                        .unwrap_or_else(|| "absent".into()),
                ),
            )
        }
        Kind::SafariNavigation => {
            let url = text(&["8"]).map(|(v, _)| v);
            let host = text(&["1"]).map(|(v, _)| v).unwrap_or_else(|| "?".into());
            (
                "web",
                format!(
                    "Safari navigation: {}{deleted}",
                    url.clone().unwrap_or_else(|| host.clone())
                ),
                format!(
                    "Safari navigated to {} (host {host}, country {}); the time (field 2) is Unix seconds rounded to 30 minutes",
                    url.unwrap_or_else(|| host.clone()),
                    text(&["5"]).map(|(v, _)| v).unwrap_or_else(|| "?".into()),
                ),
            )
        }
        Kind::WebUsage => {
            let url = text(&["4"]).map(|(v, _)| v).unwrap_or_else(|| "?".into());
            let bundle = text(&["6"]).map(|(v, _)| v).unwrap_or_else(|| "?".into());
            (
                "web",
                format!("Web usage in {bundle}: {url}{deleted}"),
                format!(
                    "{bundle} showed {url} (domain {}), GUID {}; fields 3 and 8 as stored ({} and {})",
                    text(&["5"]).map(|(v, _)| v).unwrap_or_else(|| "?".into()),
                    text(&["1"]).map(|(v, _)| v).unwrap_or_else(|| "?".into()),
                    int(m, &["3"])
                        .map(|v| v.to_string())
                        .unwrap_or_else(|| "absent".into()),
                    int(m, &["8"])
                        .map(|v| v.to_string())
                        .unwrap_or_else(|| "absent".into()),
                ),
            )
        }
        Kind::ShareSheet => {
            let conversation = text(&["2"]).map(|(v, _)| v).unwrap_or_else(|| "?".into());
            let bundle = text(&["1"]).map(|(v, _)| v).unwrap_or_else(|| "?".into());
            let handle = conversation_handle(&conversation)
                .unwrap_or("?")
                .to_string();
            (
                "apps",
                format!("Shared to {handle} with {bundle}{deleted}"),
                format!(
                    "the share sheet offered or used the conversation {conversation} (the handle {handle}) of {bundle}; field 10 as stored ({}); the interaction's time (field 11) is Unix seconds",
                    int(m, &["10"])
                        .map(|v| v.to_string())
                        .unwrap_or_else(|| "absent".into()),
                ),
            )
        }
        Kind::Simple(i) => {
            let spec = &SIMPLE[i];
            let (title, what) = simple_describe(spec, name, m);
            (spec.category, format!("{title}{deleted}"), what)
        }
        Kind::TextInput => {
            let bundle = text(&["3"]).map(|(v, _)| v).unwrap_or_else(|| "?".into());
            (
                "app_usage",
                format!("Text input in {bundle}{deleted}"),
                format!(
                    "a text input session in {bundle} lasting {} seconds; its start (field 2) is {}",
                    measure(m, &["1"]).unwrap_or_else(|| "?".into()),
                    if unix_text_input(dir) {
                        "Unix seconds in restricted/Text.InputSession (Cocoa seconds in the older public/TextInputSession), as iLEAPP's module reads them"
                    } else {
                        "Cocoa seconds in public/TextInputSession"
                    },
                ),
            )
        }
    };
    let mut d = Draft::new(category, title);
    d.fact(FactType::Path, Some(dir), find);
    let cited = |path: &[&str]| text(path).map(|(_, c)| c);
    match kind {
        Kind::InFocus => {
            d.fact(FactType::Identifier, cited(&["6"]).as_deref(), inv);
            let start = double(m, &["4"]);
            d.time(
                start.as_deref(),
                super::apple_encoding(start.as_deref()),
                if int(m, &["3"]) == Some(0) {
                    "App went to the background"
                } else {
                    "App came to the foreground"
                },
                inv,
            );
        }
        Kind::Bluetooth => {
            d.fact(FactType::Identifier, cited(&["1"]).as_deref(), inv);
            d.fact(FactType::Name, cited(&["2"]).as_deref(), inv);
        }
        Kind::Safari => {
            d.fact(FactType::Url, cited(&["4", "3"]).as_deref(), inv);
            d.fact(FactType::Text, cited(&["7", "2", "3"]).as_deref(), inv);
            for (f, what) in [("2", "Safari page visited"), ("3", "Safari visit ended")] {
                cocoa_time(&mut d, m, &[f], what, inv);
            }
        }
        Kind::Backlight => {
            cocoa_time(&mut d, m, &["1"], "Screen backlight changed", inv);
        }
        Kind::Plugged | Kind::CarPlay => {
            let iv = interval(kind);
            for (f, what) in [("2", iv.began), ("3", iv.ended)] {
                cocoa_time(&mut d, m, &[f], what, inv);
            }
        }
        Kind::Notification => {
            d.fact(FactType::Identifier, cited(&["14"]).as_deref(), inv);
            for f in NOTIFICATION_TEXTS {
                d.fact(FactType::Text, cited(&[f]).as_deref(), inv);
            }
            cocoa_time(&mut d, m, &["2"], "Notification delivered", inv);
        }
        Kind::NowPlaying => {
            d.fact(FactType::Identifier, cited(&["15"]).as_deref(), inv);
            for f in NOW_PLAYING_TEXTS {
                d.fact(FactType::Text, cited(&[f]).as_deref(), inv);
            }
            cocoa_time(&mut d, m, &["2"], "Media playing", inv);
        }
        Kind::LocationVisit => {
            for f in ["1", "2"] {
                d.fact(FactType::Text, measure(m, &["3", f]).as_deref(), inv);
            }
            d.fact(FactType::Name, cited(&["8", "5", "2"]).as_deref(), inv);
            d.fact(FactType::Text, cited(&["8", "5", "3"]).as_deref(), inv);
            for (f, what) in [
                ("4", "Visit arrival (to be corroborated)"),
                ("5", "Visit departure (to be corroborated)"),
                ("1", "Visit detected (to be corroborated)"),
            ] {
                unix_time(&mut d, m, &[f], what, inv);
            }
        }
        Kind::AppInstall => {
            d.fact(FactType::Identifier, cited(&["1", "1"]).as_deref(), inv);
            d.fact(FactType::Identifier, cited(&["1", "2"]).as_deref(), inv);
            d.fact(FactType::Text, cited(&["3", "3"]).as_deref(), inv);
            for (path, what) in [
                (&["4"][..], "App installation event"),
                (&["3", "1"][..], "App time of the installation event"),
            ] {
                unix_time(&mut d, m, path, what, inv);
            }
        }
        Kind::CallHistory | Kind::MessageHistory | Kind::InteractionHistory => {
            for f in ["4", "2", "3", "12", "13", "1"] {
                d.fact(
                    FactType::Identifier,
                    meta(f).map(|(_, c)| c).as_deref(),
                    inv,
                );
            }
            for p in &params {
                let v = bare_handle(&p.value.0);
                let fact = if p.name.ends_with("Handles") || p.name.ends_with("Handle") {
                    handle_fact_type(v)
                } else {
                    FactType::Text
                };
                d.fact(fact, Some(&p.value.1), inv);
                d.fact(
                    FactType::Name,
                    p.display.as_ref().map(|(_, c)| c.as_str()),
                    inv,
                );
            }
            let v = double(m, &["1", "8"]);
            d.time(
                v.as_deref(),
                crate::drafts::unix_seconds(v.as_deref()),
                match kind {
                    Kind::CallHistory => "Call (as Siri remembers it)",
                    Kind::MessageHistory => "Message (as Siri remembers it)",
                    _ => "Siri intent",
                },
                inv,
            );
        }
        Kind::Wallet => {
            d.fact(FactType::Name, cited(&["2"]).as_deref(), inv);
            d.fact(FactType::Identifier, cited(&["1"]).as_deref(), inv);
            d.fact(FactType::Identifier, cited(&["4"]).as_deref(), inv);
        }
        Kind::Wifi => {
            d.fact(FactType::Name, cited(&["1"]).as_deref(), inv);
        }
        Kind::SafariNavigation => {
            d.fact(FactType::Url, cited(&["8"]).as_deref(), inv);
            d.fact(FactType::Identifier, cited(&["1"]).as_deref(), inv);
            d.fact(FactType::Text, cited(&["5"]).as_deref(), inv);
            unix_time(
                &mut d,
                m,
                &["2"],
                "Safari navigation (rounded to 30 minutes)",
                inv,
            );
        }
        Kind::WebUsage => {
            d.fact(FactType::Url, cited(&["4"]).as_deref(), inv);
            d.fact(FactType::Identifier, cited(&["6"]).as_deref(), inv);
            d.fact(FactType::Identifier, cited(&["5"]).as_deref(), inv);
            d.fact(FactType::Identifier, cited(&["1"]).as_deref(), inv);
            cocoa_time(&mut d, m, &["2"], "Web page used in an app", inv);
        }
        Kind::ShareSheet => {
            d.fact(FactType::Identifier, cited(&["1"]).as_deref(), inv);
            d.fact(FactType::Identifier, cited(&["2"]).as_deref(), inv);
            unix_time(
                &mut d,
                m,
                &["11"],
                "Share sheet conversation interaction",
                inv,
            );
        }
        Kind::Simple(i) => simple_facts(&SIMPLE[i], m, inv, &mut d),
        Kind::TextInput => {
            d.fact(FactType::Identifier, cited(&["3"]).as_deref(), inv);
            d.fact(FactType::Count, measure(m, &["1"]).as_deref(), inv);
            let v = double(m, &["2"]);
            d.time(
                v.as_deref(),
                if unix_text_input(dir) {
                    crate::drafts::unix_seconds(v.as_deref())
                } else {
                    super::apple_encoding(v.as_deref())
                },
                "Text input session began",
                inv,
            );
        }
    }
    let time = t.get(row, "time");
    d.time(
        time,
        super::apple_encoding(time),
        "Biome record written",
        inv,
    );
    d.interpretation = format!(
        "Biome {name} record at offset {} of {} ({state}{}){}: {what}; times are Cocoa seconds (since 2001) unless said otherwise.",
        t.get(row, "offset").unwrap_or("?"),
        t.get(row, "file").unwrap_or("?"),
        if t.get(row, "crc") == Some("bad") {
            ", its data does not match its stored CRC-32"
        } else {
            ""
        },
        peer.as_ref()
            .map(|p| format!(
                ", a record {p} synced to this device (it happened on that device, signed in to the same account)"
            ))
            .unwrap_or_default(),
    );
    run.record(d)?;
    let what = format!("Biome's {name} stream");
    match kind {
        Kind::CallHistory | Kind::MessageHistory => {
            let other = other_handles(kind, int(m, &["1", "6"]));
            for p in params.iter().filter(|p| other.contains(&p.name.as_str())) {
                run.observe_handle(bare_handle(&p.value.0), inv, &what)?;
            }
        }
        Kind::ShareSheet => {
            if let Some(h) =
                text(&["2"]).and_then(|(c, _)| conversation_handle(&c).map(str::to_string))
            {
                run.observe_handle(&h, inv, &what)?;
            }
        }
        Kind::Simple(i) => {
            for (_, path) in HANDLE_FIELDS.iter().filter(|(f, _)| *f == SIMPLE[i].folder) {
                for (v, _) in values_at(m, path) {
                    let h = conversation_handle(&v).unwrap_or(bare_handle(&v));
                    // a group conversation (`service;+;chat…`) names no one
                    if !v.contains(";+;") {
                        run.observe_handle(h, inv, &what)?;
                    }
                }
            }
        }
        _ => {}
    }
    if kind == Kind::Bluetooth
        && state == "written"
        && peer.is_none()
        && let Some(addr) = cited(&["1"])
    {
        super::bluetooth::peer(
            run,
            &addr,
            text(&["2"]).map(|(n, _)| n).as_deref(),
            inv,
            &format!("{dir}/local"),
        )?;
    }
    Ok(())
}
