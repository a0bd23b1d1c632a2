//! PayPal (`com.paypal.android.p2pmobile`), ALEAPP's `payPal` (`paypal_app_sessions`,
//! `paypal_device`): the app sessions its tracking store recorded, the app's device and
//! installation ids, and which of its account stores are encrypted.
//!
//! | file, table | phenomenon | fields |
//! |---|---|---|
//! | `databases/tracking`: `session_event` | one `app_usage` per session ("PayPal app session <session id>") | session id, events, the API versions its events carry, whether they are encrypted (`is_encrypted`, the highest as stored); first and last event (local text as stored, no zone) |
//! | `shared_prefs/PayPal.xml` | one `apps` ("PayPal app device <device id>") | the app's device id (`shared_pref_device_id`), app version; configuration cached (`elmo_cache_time`, Unix ms) |
//! | `shared_prefs/version.6.shared.keys.xml` | one `apps` ("PayPal app installation <GUID>") | the installation GUID (`app_installation_guid`) |
//! | `shared_prefs/FoundationAccount.AccountState.xml` | one `accounts` ("PayPal account state, keep me logged in opt-out <value>") | `kmliOptOutFlag` as stored |
//! | `shared_prefs/*_encrypted.xml` (`stat` only) | one `accounts` per file ("PayPal encrypted preferences <file>") | the file's size (bytes); last modified |
//!
//! A session is grouped in the query from the rows of its events (count, first and last time,
//! `group_concat` of the API versions, `max` of the flag): the events themselves are not listed,
//! because each event's payload is encrypted (ALEAPP found the flag set on every row of its
//! samples) and is never selected. The event times carry no zone and are local text as stored;
//! which zone the app wrote them in is not established (ALEAPP's authors could not settle it), so
//! they are read as the source's local time. The account itself is not readable: the app keeps
//! its account state and tokens in AndroidX EncryptedSharedPreferences (`*_encrypted.xml`;
//! ALEAPP found `kmliOptOutFlag` the one account-state value kept in the clear), names and values
//! encrypted under a Tink keyset wrapped by an Android Keystore key the extraction does not hold. The `*_encrypted.xml` files
//! are therefore never read — only `stat`ed, so that their presence, size and last write are
//! said and no keyset or ciphertext reaches an output; the three plain files are read with
//! `read_xml`, which prints the whole file (any encrypted entry kept beside a key read too), but
//! only the keys named above are taken. The home and hub databases (server-supplied screen
//! layouts) are not read, as ALEAPP does not.
//!
//! Identities: none — no file read names the account (no e-mail, phone or PayPal id is stored
//! in the clear); the device id and installation GUID are the app's own ids (facts). Columns
//! are taken by name (`api_version`, `is_encrypted` NULL where an older table lacks them); a
//! `tracking` without `session_event`, or one without `session_id` or `create_timestamp`, is
//! noted, as is a preferences file that holds no `<map>`. Another app's file of one of these
//! names (`tracking` is common) is never read: each is taken only under the package's folder.

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::FactType;
use serde_json::json;

use super::Located;
use crate::calls::{Tables, call_or_note, column_expr};
use crate::drafts::{
    Draft, Encoding, RowPhenomena, date_text, no_identity, record_draft, unix_millis,
};
use crate::identity::{args_on, artefact_name, schema_on};
use crate::outputs::raw;

/// The package's data folder, as it appears in a path.
const PACKAGE: &str = "/com.paypal.android.p2pmobile/";

/// The names of the files read (globs, for the dispatch and `ARTEFACTS`).
pub const NAMES: [&str; 5] = [
    "tracking",
    "PayPal.xml",
    "version.6.shared.keys.xml",
    "FoundationAccount.AccountState.xml",
    "*_encrypted.xml",
];

/// The plain preferences files read: `(file, category, title prefix, key titling the
/// phenomenon, facts, times)`.
type PrefsFile = (
    &'static str,
    &'static str,
    &'static str,
    &'static str,
    &'static [(&'static str, FactType, &'static str)],
    &'static [(&'static str, Encoding, &'static str)],
);

const PREFS: &[PrefsFile] = &[
    (
        "PayPal.xml",
        "apps",
        "PayPal app device",
        "shared_pref_device_id",
        &[
            ("shared_pref_device_id", FactType::Identifier, "device id"),
            ("shared_pref_app_version", FactType::Text, "app version"),
        ],
        &[(
            "elmo_cache_time",
            unix_millis,
            "PayPal configuration cached",
        )],
    ),
    (
        "version.6.shared.keys.xml",
        "apps",
        "PayPal app installation",
        "app_installation_guid",
        &[(
            "app_installation_guid",
            FactType::Identifier,
            "installation GUID",
        )],
        &[],
    ),
    (
        "FoundationAccount.AccountState.xml",
        "accounts",
        "PayPal account state, keep me logged in opt-out",
        "kmliOptOutFlag",
        &[(
            "kmliOptOutFlag",
            FactType::Text,
            "keep me logged in opt-out (as stored)",
        )],
        &[],
    ),
];

/// Whether `l` is PayPal's tracking store.
pub fn is_tracking(l: &Located) -> bool {
    l.name() == "tracking" && l.path.contains(&format!("{PACKAGE}databases/"))
}

/// Whether `l` is one of PayPal's plain preferences files read.
pub fn is_prefs(l: &Located) -> bool {
    PREFS.iter().any(|p| p.0 == l.name()) && l.path.contains(&format!("{PACKAGE}shared_prefs/"))
}

/// Whether `l` is one of PayPal's encrypted preferences files (stated, never read).
pub fn is_encrypted_prefs(l: &Located) -> bool {
    l.name().ends_with("_encrypted.xml") && l.path.contains(&format!("{PACKAGE}shared_prefs/"))
}

/// Whether `l` is one of PayPal's files read (any of the three kinds).
pub fn is_file(l: &Located) -> bool {
    is_tracking(l) || is_prefs(l) || is_encrypted_prefs(l)
}

/// Whether `name` is the name of one of PayPal's files read, wherever it lies (for
/// `categorise` and the artefact-file filter: other apps' files of these names are not read).
pub fn is_name(name: &str) -> bool {
    name == "tracking" || PREFS.iter().any(|p| p.0 == name) || name.ends_with("_encrypted.xml")
}

/// The category of `path` when it is one of PayPal's files read (for `categorise`), `None`
/// for another app's file of the same name.
pub fn category(path: &str) -> Option<&'static str> {
    let name = path.rsplit('/').next().unwrap_or(path);
    if name == "tracking" {
        return path
            .contains(&format!("{PACKAGE}databases/"))
            .then_some("app_usage");
    }
    if !path.contains(&format!("{PACKAGE}shared_prefs/")) {
        return None;
    }
    if name.ends_with("_encrypted.xml") {
        return Some("accounts");
    }
    PREFS.iter().find(|p| p.0 == name).map(|p| p.1)
}

/// One of PayPal's files read.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    if is_tracking(l) {
        tracking(ctx, l)
    } else if is_encrypted_prefs(l) {
        encrypted_prefs(ctx, l)
    } else {
        prefs(ctx, l)
    }
}

/// The tracking store: one phenomenon per session, grouped in the query.
fn tracking(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(schema) = schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    let Some(cols) = Tables::one(
        ctx,
        &name,
        "PayPal's tracking store",
        &schema,
        "session_event",
        &["session_id", "create_timestamp"],
    )?
    else {
        return Ok(());
    };
    let sql = format!(
        "SELECT session_id, count(*) AS events, min(create_timestamp) AS first_event, max(create_timestamp) AS last_event, group_concat(DISTINCT {}) AS api_versions, max({}) AS encrypted FROM session_event GROUP BY session_id ORDER BY first_event, session_id",
        column_expr(cols, "", "api_version"),
        column_expr(cols, "", "is_encrypted"),
    );
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "session_event",
            category: "app_usage",
            what: "a PayPal app session as the app's tracking store recorded it, grouped from its events (their payloads encrypted and not read; encrypted is the highest is_encrypted as stored, 1 when any event is; the first and last event are local text as stored, no zone)",
            title: &|t, row| {
                format!(
                    "PayPal app session {}",
                    raw(t, row, "session_id").unwrap_or_else(|| "?".into())
                )
            },
            fields: &[
                ("session_id", FactType::Identifier, "session"),
                ("events", FactType::Count, "events"),
                ("api_versions", FactType::Text, "API versions"),
                ("encrypted", FactType::Text, "events encrypted"),
            ],
            times: &[
                ("first_event", "PayPal session first event", date_text),
                ("last_event", "PayPal session last event", date_text),
            ],
        },
        &mut no_identity,
    )
}

/// One plain preferences file: the keys read, one phenomenon when it holds any; a file that
/// holds no `<map>` is noted.
fn prefs(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(&(file, category, prefix, title_key, facts, times)) =
        PREFS.iter().find(|p| p.0 == l.name())
    else {
        return Ok(());
    };
    let Some((inv, _, entries)) =
        super::read_xml(ctx, l, "shared preferences", super::prefs::shared_prefs)?
    else {
        return Ok(());
    };
    if !inv.output.text.contains("<map") {
        ctx.unparsed(
            &artefact_name(&l.tree, &l.path),
            &format!("could not parse PayPal's {file} because it holds no <map> of preferences"),
            Some(&inv.record.invocation_id),
        )?;
        return Ok(());
    }
    let get = |k: &str| -> Option<String> {
        entries
            .iter()
            .find(|(n, _)| n.as_str() == k)
            .map(|(_, v)| v.trim().to_string())
            .filter(|v| !v.is_empty())
    };
    if !facts.iter().any(|f| get(f.0).is_some()) && !times.iter().any(|t| get(t.0).is_some()) {
        return Ok(());
    }
    let mut d = Draft::new(
        category,
        match get(title_key) {
            Some(v) => format!("{prefix} {v}"),
            None => format!("PayPal preferences {file}"),
        },
    );
    d.fact(FactType::Path, Some(&l.path), &l.found);
    let mut said = Vec::new();
    for &(k, t, label) in facts {
        if let Some(v) = get(k) {
            d.fact(t, Some(&v), &inv);
            said.push(format!("{label} {v}"));
        }
    }
    for &(k, enc, what) in times {
        let v = get(k);
        d.time(v.as_deref(), enc(v.as_deref()), what, &inv);
        if let Some(v) = v {
            said.push(format!("{k} {v} (Unix ms)"));
        }
    }
    d.interpretation = format!(
        "{file} of PayPal's shared preferences ({}): {}. No key read names the account; the account state and tokens the app keeps encrypted are not read.",
        l.path,
        said.join(", ")
    );
    record_draft(ctx, d)
}

/// One encrypted preferences file: stated (size, last modified), never read.
fn encrypted_prefs(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let name = artefact_name(&l.tree, &l.path);
    let Some(inv) = call_or_note(
        ctx,
        &name,
        "stat",
        args_on(&l.tree, json!({"path": l.path})),
    )?
    else {
        return Ok(());
    };
    let file = l.name();
    let size = inv
        .output
        .text
        .lines()
        .find_map(|line| line.strip_prefix("size: "))
        .map(str::trim);
    let mut d = Draft::new("accounts", format!("PayPal encrypted preferences {file}"));
    d.fact(FactType::Path, Some(&l.path), &l.found);
    d.fact(FactType::Count, size, &inv);
    if let Some((modified, encoding)) = crate::outputs::stat_modified(&inv.output.text) {
        d.time(
            Some(modified),
            Some(encoding),
            "PayPal encrypted preferences last modified",
            &inv,
        );
    }
    d.interpretation = format!(
        "{name}: one of the PayPal app's encrypted preferences files (AndroidX EncryptedSharedPreferences, {} bytes): the app keeps its account state and tokens so, entry names and values encrypted under a Tink keyset wrapped by an Android Keystore key the extraction does not hold. The file is said to be present, not read: no entry, keyset or value is copied. Its modification time is when the app last wrote it, should the extraction keep file times.",
        size.unwrap_or("?")
    );
    record_draft(ctx, d)
}
