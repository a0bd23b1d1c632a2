//! Google Play services' push-message queue
//! (`com.google.android.gms/files/fcm_queued_messages.ldb`), ALEAPP's `FCMQueuedMessagesDump`
//! (CCL's research): a LevelDB store where Play services keeps each Firebase Cloud Messaging
//! message it received for an app until the app takes it — chat apps' pushes, notifications with
//! their title and text, sync requests. The store keeps a message's record after its key was
//! deleted until LevelDB compacts the file, so delivered messages are read too: often the only
//! copy of a message whose app encrypts or deleted it.
//!
//! Read with `leveldb_records` (`protobuf`: each value decoded), in pages of [`PAGE`] records.
//! Each value is a wrapper whose field 2 is the `DataMessageStanza` of Chromium's
//! `google_apis/gcm/protocol/mcs.proto`. One `notifications` phenomenon per message:
//!
//! | field | meaning |
//! |---|---|
//! | 5 `category` | the app it is for (its package) |
//! | 7 `app_data` | the payload: key and value pairs, each a fact (`gcm.notification.title`/`body`: a notification's title and text; other keys are the app's own) |
//! | 3 `from`, 2 `id`, 9 `persistent_id`, 4 `to`, 6 `token` | the sender (the app's Firebase project), the message ids, the app instance's registration, the collapse key |
//! | 16, 17, 18, 19 | the Android user, time to live (s), sent (the server's clock, Unix s or ms by magnitude), seconds queued |
//! | the key | text, `:`, the time it was queued (Unix µs), `%`, text (as CCL's parser reads it) |
//!
//! Whether the message's key was deleted (delivered to its app) or not is said. Payload values
//! are quoted as the output shows them (JSON string escapes kept). A record that is no message
//! is counted, a damaged file noted (the records before the damage are read). At most
//! [`crate::calls::ROW_CAP`] messages a store. Identities: none observed (a payload's names
//! are the app's words; an e-mail address in it is kept as an `email` fact).

use std::collections::BTreeSet;

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{FactType, TimeEncoding};
use masf_tools::Invoked;
use serde_json::Value;

use super::Located;
use crate::drafts::{Draft, record_draft, unix_by_magnitude};
use crate::identity::artefact_name;
use crate::outputs::unescape;

/// The store's folder name.
pub const DIR: &str = "fcm_queued_messages.ldb";

/// Whether `l` is Play services' queue.
pub fn is_store(l: &Located) -> bool {
    l.name() == DIR && l.path.contains("/com.google.android.gms/")
}

/// One record line of a page: (state put, key, encoding, value), as shown.
fn line(l: &str) -> Option<(bool, &str, &str, &str)> {
    let c: Vec<&str> = l.splitn(8, '\t').collect();
    (c.len() == 8).then(|| (c[4] == "put", c[6], c[5], c[7]))
}

/// A text as the tool shows it inside a decoded value: JSON string escapes, then the tool's own
/// escaping of the line.
fn shown(s: &str) -> String {
    let json = serde_json::to_string(s).unwrap_or_default();
    let inner = &json[1..json.len().saturating_sub(1).max(1)];
    masf_tools::leveldb_tool::escape(inner.as_bytes())
}

/// The first value of field `f` of a decoded message.
fn first<'a>(m: &'a Value, f: &str) -> Option<&'a Value> {
    m.get(f)?.get(0)
}

/// Field `f` as text (a string, or a number as written).
fn text(m: &Value, f: &str) -> Option<String> {
    match first(m, f)? {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

/// The queueing time of a key (`text:<µs>%text`): the digits after the first `:`.
fn queued_at(key: &str) -> Option<&str> {
    let (_, rest) = key.split_once(':')?;
    let digits = rest.split('%').next()?;
    (digits.len() >= 13 && digits.bytes().all(|b| b.is_ascii_digit())).then_some(digits)
}

/// Whether a payload value is written as an e-mail address.
fn email_like(v: &str) -> bool {
    v.split_once('@').is_some_and(|(user, host)| {
        !user.is_empty() && host.contains('.') && !v.contains(char::is_whitespace)
    })
}

/// One queue.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let name = artefact_name(&l.tree, &l.path);
    // every page first: a message's deletion may be recorded in a later file
    let Some(pages) = super::leveldb_pages(ctx, &l.tree, &l.path, &name, "the push-message queue")?
    else {
        return Ok(());
    };
    let deleted: BTreeSet<&str> = pages
        .iter()
        .flat_map(|p| p.output.text.lines().skip(2))
        .filter_map(line)
        .filter(|r| !r.0)
        .map(|r| r.1)
        .collect();
    let mut other = 0usize;
    for inv in &pages {
        for (put, key, enc, value) in inv.output.text.lines().skip(2).filter_map(line) {
            if !put {
                continue;
            }
            let stanza = (enc == "protobuf")
                .then(|| serde_json::from_str::<Value>(&unescape(value)).ok())
                .flatten();
            let stanza = stanza.as_ref().and_then(|v| first(v, "2"));
            let Some((stanza, package)) = stanza.and_then(|s| Some((s, text(s, "5")?))) else {
                other += 1;
                continue;
            };
            record(ctx, inv, key, stanza, &package, deleted.contains(key))?;
        }
    }
    if other > 0 {
        ctx.unparsed(
            &name,
            &format!(
                "{other} records are no queued message (no stanza with an app's package): not read"
            ),
            pages.first().map(|i| i.record.invocation_id.as_str()),
        )?;
    }
    Ok(())
}

fn record(
    ctx: &AgentCtx<'_>,
    inv: &Invoked,
    key: &str,
    s: &Value,
    package: &str,
    delivered: bool,
) -> Result<(), RuntimeError> {
    let pairs: Vec<(String, String)> = s
        .get("7")
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(|p| Some((text(p, "1")?, text(p, "2").unwrap_or_default())))
                .collect()
        })
        .unwrap_or_default();
    let get = |k: &str| pairs.iter().find(|(key, _)| key == k).map(|(_, v)| v);
    let title = get("gcm.notification.title").or_else(|| get("gcm.n.title"));
    let body = get("gcm.notification.body").or_else(|| get("gcm.n.body"));
    let mut d = Draft::new(
        "notifications",
        match title.or(body) {
            Some(t) => format!("Push notification to {package}: {t}"),
            None => format!("Push message to {package}"),
        },
    );
    d.fact(FactType::Identifier, Some(package), inv);
    let mut said = Vec::new();
    for (f, label, ft) in [
        (
            "3",
            "sender (the app's Firebase project)",
            FactType::Identifier,
        ),
        ("2", "message id", FactType::Identifier),
        ("9", "persistent id", FactType::Identifier),
        (
            "4",
            "to (the app instance's registration)",
            FactType::Identifier,
        ),
        ("6", "collapse key", FactType::Text),
        ("16", "Android user", FactType::Count),
        ("17", "time to live (s)", FactType::Count),
        ("19", "seconds queued before sending", FactType::Count),
    ] {
        if let Some(v) = text(s, f) {
            d.fact(ft, Some(&shown(&v)), inv);
            said.push(format!("{label} {v}"));
        }
    }
    for (k, v) in &pairs {
        d.fact(FactType::Text, Some(&shown(k)), inv);
        let ft = if email_like(v) {
            FactType::Email
        } else {
            FactType::Text
        };
        d.fact(ft, Some(&shown(v)), inv);
        said.push(format!("{k} = {v}"));
    }
    let queued = queued_at(key);
    d.time(
        queued,
        queued.map(|_| TimeEncoding::UnixMicros),
        "Queued by Google Play services",
        inv,
    );
    let sent = text(s, "18");
    d.time(
        sent.as_deref(),
        unix_by_magnitude(sent.as_deref()),
        "Sent (the sender's clock)",
        inv,
    );
    let state = if delivered {
        "Its key's deletion is recorded: Play services removed it from the queue once the app took it (delivered); the record outlived the deletion"
    } else {
        "No deletion of its key is recorded: it was still queued for its app, or its deletion was compacted away"
    };
    d.interpretation = format!(
        "Google Play services received a Firebase Cloud Messaging message for {package}{}: {}. {state}. The payload is the app's own words: a notification's title and text are what the app asked to show, not proof the user saw them.",
        queued
            .map(|q| format!(", queued at {q} (Unix µs)"))
            .unwrap_or_default(),
        said.join("; "),
    );
    record_draft(ctx, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_values_and_addresses() {
        assert_eq!(
            queued_at("com.tinder:1717430400123456%0:17%7f3a"),
            Some("1717430400123456")
        );
        assert_eq!(queued_at("version"), None);
        assert_eq!(queued_at("a:12%b"), None);
        assert_eq!(shown("plain"), "plain");
        assert_eq!(shown("a \"b\"\nc"), "a \\\\\"b\\\\\"\\\\nc");
        assert!(email_like("jan.k@gmail.com"));
        assert!(!email_like("@x.y") && !email_like("a@b") && !email_like("a @b.c"));
    }
}
