//! Siri Remembers (`mobile/Library/com.apple.siri.inference/siriremembers.sqlite3`), iLEAPP's
//! `SiriRemembers` ("Siri Remembers - Messages", "- Calls", "- Media", after James McGee's
//! research): the interactions apps and Siri donated to the system (messages sent and received,
//! calls, media played, other intents), kept for Siri's suggestions.
//!
//! | table | phenomenon | fields |
//! |---|---|---|
//! | `intents` (with `domains`, `verbs`, `apps`; `intent_entities` → `parameter_names`, `entities`; `group_entities` → `entities`, `entity_types`) | one per intent: `messages` (domain Messages: "Siri Remembers outgoing message to <party> (<app>)", "… incoming message from …"), `calls` (Calls: "Siri Remembers outgoing call to …", "… incoming call from …", "… call with …"), `media` (Media: "Siri Remembers media played: <item> (<app>)"), `apps` (any other domain: "Siri Remembers <domain> <verb> intent (<app>)") | intent UUID, domain, verb, app (bundle id), direction as stored and said (1 outgoing, 2 incoming, 0 unspecified, in the query), donated by Siri as stored and said, duration (seconds), the recipients' names (`recipients`), their handles (`recipientHandles`), the sender's name and handle (`sender`, `senderHandle`), a call's contacts and their handles (`contacts`, `contactHandles`), the group name (`speakableGroupName`), every other parameter as `name: value`, a media intent's items (its group's entities, cut before `mediatype` or ` zzz` as iLEAPP cuts them, and as stored), the event UUID (after the bundle id of `dkevent_uuid`); when (`start_date`, Unix seconds) |
//!
//! A name is an entity's `tokens`, a handle its `uuid` (iLEAPP's reading), several joined by
//! `; ` in the query and a `tel:` or `mailto:` prefix taken off there. The direction is
//! SiriKit's (`INInteractionDirection`: 1 outgoing, 2 incoming), as iLEAPP reads this store (the
//! Biome `Siri.Remembers.*` streams, read by [`super::biome`], number it otherwise). Every intent
//! is recorded: iLEAPP drops an app's message whose Siri-donated twin has the same start time,
//! here both are kept, each saying who donated it; a Siri-donated call of direction 0 iLEAPP
//! calls outgoing, here it stays "unspecified" (said). An intent is what the app told the system
//! the user did (a message composed, a call placed or received, media played): not proof a
//! message was delivered or a call answered (iLEAPP reads a duration of 0 as not answered or
//! missed). The Messages, Calls and Media domains are iLEAPP's; other domains are recorded with
//! their parameters too.
//!
//! Columns and tables are taken by name (absent ones NULL: older stores lack the duration, event
//! and group columns, the entity types and group entities — then a media item's words are given
//! as stored); a store without an `intents` table with `id` and `start_date` (another file of
//! that name) is noted.
//!
//! Identities: the other party's handles — a call's contact handles, an outgoing message's
//! recipient handles, an incoming message's sender handle — observed as counterparties
//! (`handle:<normalised>`, or the address-book card holding the number or e-mail). Names alone
//! are facts.

use std::collections::BTreeSet;

use masf_agents::RuntimeError;
use masf_graph::FactType;
use masf_tools::Invoked;

use super::{Draft, Run, Schema, file_name};
use crate::drafts::unix_seconds;
use crate::outputs::raw;

const INTENTS: &str = "intents";
const DOMAINS: &str = "domains";
const VERBS: &str = "verbs";
const APPS: &str = "apps";
const LINKS: &str = "intent_entities";
const PARAMS: &str = "parameter_names";
const ENTITIES: &str = "entities";
const TYPES: &str = "entity_types";
const GROUPED: &str = "group_entities";

/// The parameters read into their own columns: (parameter name, column, a handle?).
const ROLES: [(&str, &str, bool); 7] = [
    ("recipients", "recipients", false),
    ("recipientHandles", "recipient_handles", true),
    ("sender", "sender", false),
    ("senderHandle", "sender_handle", true),
    ("contacts", "contacts", false),
    ("contactHandles", "contact_handles", true),
    ("speakableGroupName", "group_name", false),
];

/// Triage of every Siri Remembers store of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    let Some((find, paths)) = run.find("siriremembers.sqlite3")? else {
        return Ok(());
    };
    for path in &paths {
        let tables = [
            INTENTS, DOMAINS, VERBS, APPS, LINKS, PARAMS, ENTITIES, TYPES, GROUPED,
        ];
        let Some(schema) = run.schema(path, &tables)? else {
            continue;
        };
        if !schema.require(run, INTENTS, &["id", "start_date"])? {
            continue;
        }
        intents(run, &find, path, &schema)?;
    }
    Ok(())
}

/// Whether `table` has every one of `cols`.
fn has(schema: &Schema, table: &str, cols: &[&str]) -> bool {
    let c = schema.columns(table);
    cols.iter().all(|x| c.contains(*x))
}

/// `(SELECT x.<col> FROM <table> x WHERE x.id = i.<key>) AS <alias>`: a name the intent points
/// to (its domain, verb, app), NULL where the store lacks the table, column or key.
fn lookup(schema: &Schema, table: &str, col: &str, key: &str, alias: &str) -> String {
    if has(schema, table, &["id", col]) && has(schema, INTENTS, &[key]) {
        format!("(SELECT x.{col} FROM {table} x WHERE x.id = i.{key}) AS {alias}")
    } else {
        format!("NULL AS {alias}")
    }
}

/// `<x>` without a `tel:` or `mailto:` prefix.
fn bare(x: &str) -> String {
    format!(
        "CASE WHEN {x} LIKE 'tel:%' THEN substr({x}, 5) WHEN {x} LIKE 'mailto:%' THEN substr({x}, 8) ELSE {x} END"
    )
}

/// Whether the intent's parameters can be read (the link, name and entity tables with their
/// keys).
fn parameters_held(schema: &Schema) -> bool {
    has(
        schema,
        LINKS,
        &["intent_id", "parameter_name_id", "entity_id"],
    ) && has(schema, PARAMS, &["id", "name"])
        && has(schema, ENTITIES, &["id"])
}

/// The values of the intent's parameter `name` joined by `; ` as `alias`: the entities' handles
/// (`uuid`, prefix taken off) or names (`tokens`).
fn parameter(schema: &Schema, name: &str, alias: &str, handle: bool) -> String {
    let e = schema.columns(ENTITIES);
    let value = match (handle, e.contains("uuid"), e.contains("tokens")) {
        (true, true, _) => bare("e.uuid"),
        (false, _, true) => "e.tokens".to_string(),
        _ => return format!("NULL AS {alias}"),
    };
    if !parameters_held(schema) {
        return format!("NULL AS {alias}");
    }
    format!(
        "(SELECT group_concat({value}, '; ') FROM {LINKS} x JOIN {PARAMS} n ON n.id = x.parameter_name_id JOIN {ENTITIES} e ON e.id = x.entity_id WHERE x.intent_id = i.id AND n.name = '{name}') AS {alias}"
    )
}

/// Every other parameter of the intent as `name: value` (the entity's `tokens`, else its
/// `uuid`), joined by `; `.
fn other_parameters(schema: &Schema) -> String {
    let e = schema.columns(ENTITIES);
    let value = match (e.contains("tokens"), e.contains("uuid")) {
        (true, true) => "coalesce(e.tokens, e.uuid)",
        (true, false) => "e.tokens",
        (false, true) => "e.uuid",
        (false, false) => return "NULL AS other_parameters".into(),
    };
    if !parameters_held(schema) {
        return "NULL AS other_parameters".into();
    }
    let known = ROLES
        .iter()
        .map(|(n, ..)| format!("'{n}'"))
        .collect::<Vec<_>>()
        .join(", ");
    format!(
        "(SELECT group_concat(n.name || ': ' || {value}, '; ') FROM {LINKS} x JOIN {PARAMS} n ON n.id = x.parameter_name_id JOIN {ENTITIES} e ON e.id = x.entity_id WHERE x.intent_id = i.id AND n.name NOT IN ({known})) AS other_parameters"
    )
}

/// A Media intent's items (its group's entities): cut as iLEAPP cuts them where the store types
/// them (`MediaSearchItem` before `mediatype`, `INMediaItem` before ` zzz`), and as stored.
fn media(schema: &Schema) -> String {
    let none = "NULL AS media, NULL AS media_tokens".to_string();
    if !has(schema, GROUPED, &["group_id", "entity_id"])
        || !has(schema, ENTITIES, &["id", "tokens"])
        || !has(schema, INTENTS, &["group_id", "domain_id"])
        || !has(schema, DOMAINS, &["id", "name"])
    {
        return none;
    }
    let of_media = format!(
        "g.group_id = i.group_id AND i.domain_id IN (SELECT d.id FROM {DOMAINS} d WHERE d.name = 'Media')"
    );
    let stored = format!(
        "(SELECT group_concat(e.tokens, '; ') FROM {GROUPED} g JOIN {ENTITIES} e ON e.id = g.entity_id WHERE {of_media})"
    );
    if !has(schema, TYPES, &["id", "name"]) || !has(schema, ENTITIES, &["type_id"]) {
        // no types: the words as stored
        return format!("{stored} AS media, NULL AS media_tokens");
    }
    format!(
        "(SELECT group_concat(CASE WHEN y.name = 'MediaSearchItem' AND instr(e.tokens, 'mediatype') > 0 THEN rtrim(substr(e.tokens, 1, instr(e.tokens, 'mediatype') - 1)) WHEN y.name = 'INMediaItem' AND instr(e.tokens, ' zzz') > 0 THEN substr(e.tokens, 1, instr(e.tokens, ' zzz') - 1) ELSE e.tokens END, '; ') FROM {GROUPED} g JOIN {ENTITIES} e ON e.id = g.entity_id LEFT JOIN {TYPES} y ON y.id = e.type_id WHERE {of_media}) AS media, {stored} AS media_tokens"
    )
}

/// The select list of one intent's columns, each NULL where the store lacks it.
fn intent_columns(i: &BTreeSet<String>) -> String {
    let mut out = vec![crate::calls::column_or_null(i, "i.", "uuid", "intent_uuid")];
    if i.contains("direction") {
        out.push(
            "i.direction AS direction, CASE CAST(i.direction AS INTEGER) WHEN 1 THEN 'outgoing' WHEN 2 THEN 'incoming' WHEN 0 THEN 'unspecified' END AS direction_label".into(),
        );
    } else {
        out.push("NULL AS direction, NULL AS direction_label".into());
    }
    if i.contains("donated_by_siri") {
        out.push(
            "i.donated_by_siri AS by_siri, CASE CAST(i.donated_by_siri AS INTEGER) WHEN 1 THEN 'Siri' WHEN 0 THEN 'the app' END AS donated_by".into(),
        );
    } else {
        out.push("NULL AS by_siri, NULL AS donated_by".into());
    }
    out.push(crate::calls::column_or_null(
        i,
        "i.",
        "duration_seconds",
        "duration",
    ));
    if i.contains("dkevent_uuid") {
        out.push("CASE WHEN instr(i.dkevent_uuid, ':') > 0 THEN substr(i.dkevent_uuid, instr(i.dkevent_uuid, ':') + 1) ELSE i.dkevent_uuid END AS event_uuid".into());
    } else {
        out.push("NULL AS event_uuid".into());
    }
    out.join(", ")
}

/// The SQL of the intents (without paging).
fn sql(schema: &Schema) -> String {
    let mut cols = vec![
        "i.id AS pk".to_string(),
        "i.start_date AS started".to_string(),
        intent_columns(&schema.columns(INTENTS)),
        lookup(schema, DOMAINS, "name", "domain_id", "domain"),
        lookup(schema, VERBS, "name", "verb_id", "verb"),
        lookup(schema, APPS, "bundle_id", "app_id", "app"),
    ];
    for (name, alias, handle) in ROLES {
        cols.push(parameter(schema, name, alias, handle));
    }
    cols.push(other_parameters(schema));
    cols.push(media(schema));
    format!("SELECT {} FROM {INTENTS} i", cols.join(", "))
}

fn intents(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    schema: &Schema,
) -> Result<(), RuntimeError> {
    let Some(paged) = run.paged(path, &sql(schema), "pk")? else {
        return Ok(());
    };
    let file = file_name(path);
    let what = format!("Siri Remembers ({file})");
    for (inv, t, row) in paged.rows() {
        let get = |c: &str| raw(t, row, c).filter(|v| !v.is_empty());
        let domain = t.get(row, "domain");
        let direction = t.get(row, "direction_label");
        let app = get("app").unwrap_or_else(|| "an unrecorded app".into());
        let first = |cols: &[&str]| cols.iter().find_map(|c| get(c));
        // the other party shown in the title and whose handles are observed
        let (category, title, other) = match (domain, direction) {
            (Some("Messages"), Some("outgoing")) => (
                "messages",
                format!(
                    "Siri Remembers outgoing message to {} ({app})",
                    first(&["group_name", "recipients", "recipient_handles"])
                        .unwrap_or_else(|| "?".into())
                ),
                get("recipient_handles"),
            ),
            (Some("Messages"), Some("incoming")) => (
                "messages",
                format!(
                    "Siri Remembers incoming message from {} ({app})",
                    first(&["sender", "sender_handle", "group_name"]).unwrap_or_else(|| "?".into())
                ),
                get("sender_handle"),
            ),
            (Some("Messages"), _) => ("messages", format!("Siri Remembers message ({app})"), None),
            (Some("Calls"), dir) => {
                let party = first(&["contacts", "contact_handles"]).unwrap_or_else(|| "?".into());
                let title = match dir {
                    Some("outgoing") => format!("Siri Remembers outgoing call to {party} ({app})"),
                    Some("incoming") => {
                        format!("Siri Remembers incoming call from {party} ({app})")
                    }
                    _ => format!("Siri Remembers call with {party} ({app})"),
                };
                ("calls", title, get("contact_handles"))
            }
            (Some("Media"), _) => (
                "media",
                format!(
                    "Siri Remembers media played: {} ({app})",
                    first(&["media", "media_tokens"]).unwrap_or_else(|| "?".into())
                ),
                None,
            ),
            (other_domain, _) => (
                "apps",
                format!(
                    "Siri Remembers {} {} intent ({app})",
                    other_domain.unwrap_or("unknown-domain"),
                    t.get(row, "verb").unwrap_or("unknown-verb"),
                ),
                None,
            ),
        };
        let mut d = Draft::new(category, title);
        d.fact(FactType::Path, Some(path), find);
        let said = d.fields(
            t,
            row,
            inv,
            &[
                ("intent_uuid", FactType::Identifier, "intent UUID"),
                ("domain", FactType::Text, "domain"),
                ("verb", FactType::Text, "verb"),
                ("app", FactType::Text, "app"),
                ("direction", FactType::Text, "direction (as stored)"),
                ("direction_label", FactType::Text, "that is"),
                ("by_siri", FactType::Text, "donated_by_siri"),
                ("donated_by", FactType::Text, "donated by"),
                ("duration", FactType::Text, "duration (s)"),
                ("recipients", FactType::Name, "recipients"),
                ("recipient_handles", FactType::Text, "recipient handles"),
                ("sender", FactType::Name, "sender"),
                ("sender_handle", FactType::Text, "sender handle"),
                ("contacts", FactType::Name, "contacts"),
                ("contact_handles", FactType::Text, "contact handles"),
                ("group_name", FactType::Name, "group name"),
                ("media", FactType::Text, "media"),
                ("media_tokens", FactType::Text, "media as stored"),
                ("other_parameters", FactType::Text, "other parameters"),
                ("event_uuid", FactType::Identifier, "event UUID"),
            ],
        );
        let at = t.get(row, "started");
        match (category, direction) {
            ("messages", Some("outgoing")) => d.message_time(at, unix_seconds(at), true, inv),
            ("messages", Some("incoming")) => d.message_time(at, unix_seconds(at), false, inv),
            ("calls", _) => d.time(at, unix_seconds(at), "Call started", inv),
            ("media", _) => d.time(at, unix_seconds(at), "Siri Remembers media played", inv),
            _ => d.time(at, unix_seconds(at), "Siri Remembers interaction", inv),
        };
        d.interpretation = format!(
            "{INTENTS} id {} of {file}: an interaction {app} or Siri donated to the system, which keeps it for Siri's suggestions ({}); start_date {} is Unix seconds; the direction is SiriKit's (1 outgoing, 2 incoming, 0 unspecified — iLEAPP calls a Siri-donated call of 0 outgoing). It says what the app reported the user did, not that a message was delivered or a call answered; an app's intent and Siri's twin of it may both be here.",
            t.get(row, "pk").unwrap_or("?"),
            said.join("; "),
            at.unwrap_or("?"),
        );
        run.record(d)?;
        if let Some(handles) = other {
            for h in handles.split("; ").filter(|h| !h.is_empty()) {
                run.observe_handle(h, inv, &what)?;
            }
        }
    }
    crate::calls::note_pages_cap(run.ctx, path, &paged, "Siri Remembers intents")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pieces() {
        assert_eq!(
            bare("e.uuid"),
            "CASE WHEN e.uuid LIKE 'tel:%' THEN substr(e.uuid, 5) WHEN e.uuid LIKE 'mailto:%' THEN substr(e.uuid, 8) ELSE e.uuid END"
        );
        let cols: BTreeSet<String> = ["uuid".to_string()].into();
        let s = intent_columns(&cols);
        assert!(s.starts_with("i.uuid AS intent_uuid, NULL AS direction"));
        assert!(s.ends_with("NULL AS duration, NULL AS event_uuid"));
    }
}
