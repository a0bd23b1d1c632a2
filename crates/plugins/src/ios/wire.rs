//! Wire on iOS: each account's Core Data store
//! `…/AccountData/<the account's user id>/store/store.wiredatabase` of the app group, with the
//! fields of iLEAPP's `wireAccount` and `wireMessages` and more:
//!
//! | table | phenomenon | fields |
//! |---|---|---|
//! | `ZUSER` | one `accounts` (the device's user) or `contacts` per user | user id (`ZREMOTEIDENTIFIER_DATA`, a UUID), handle, name, e-mail, phone (older versions), federation domain |
//! | `ZUSERCLIENT` | one `accounts` per client (a device registered to a user) | client id, label, model, device class, the user's name and handle, activation date (Core Data seconds) and, before data model 2.110, its latitude and longitude |
//! | `ZMESSAGE` (with `ZGENERICMESSAGEDATA`, `ZCONVERSATION`) | one `messages` per message | server time (Core Data seconds), category (iLEAPP's words for 0, 2, 8, 256, 2048; others as stored), the normalised text iLEAPP reports, the text as sent (the `GenericMessage` protobuf's text, an ephemeral or edited message's too), an asset's name and type, a location's name, call duration, the sender's name and handle, the conversation and its name |
//!
//! iLEAPP leaves out category 1 (undefined in Wire's source); read here too.
//!
//! Identities: a user is `wire:<user id>` (the UUID computed from the 16 stored bytes in the
//! query), the id Android's Wire keeps, with `wire:@<handle>`, name, e-mail and phone; the
//! device's user is the user whose id names the account's folder (`owner`), and a message is
//! outgoing when that user sent it. Wallet addresses in a message are claims by direction.
//! Schema drift: each table is read when it has its key columns, the others where present.

use masf_agents::RuntimeError;
use masf_graph::{FactType, IdType};
use masf_tools::Invoked;

use super::photos::fields;
use super::{Draft, Run, Schema, core_data_encoding, raw};

/// Triage of every Wire account store of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    run.each("store.wiredatabase", |find, path| {
        if path.contains("/AccountData/") && path.ends_with("/store/store.wiredatabase") {
            store(run, find, path)
        } else {
            Ok(())
        }
    })
}

/// The account's user id: the folder below `AccountData/`, when it is a UUID (lower case).
fn account_id(path: &str) -> Option<String> {
    let id = path.split("/AccountData/").nth(1)?.split('/').next()?;
    let uuid = id.len() == 36
        && id.char_indices().all(|(i, c)| {
            if matches!(i, 8 | 13 | 18 | 23) {
                c == '-'
            } else {
                c.is_ascii_hexdigit()
            }
        });
    uuid.then(|| id.to_ascii_lowercase())
}

/// A SQL expression giving the lower-case UUID text of the 16-byte BLOB `col`, else NULL.
fn uuid_sql(col: &str) -> String {
    let h = format!("hex({col})");
    format!(
        "CASE WHEN length({col}) = 16 THEN lower(substr({h}, 1, 8) || '-' || substr({h}, 9, 4) || '-' || substr({h}, 13, 4) || '-' || substr({h}, 17, 4) || '-' || substr({h}, 21, 12)) END"
    )
}

/// The columns naming a `ZUSER` row aliased `u`, each prefixed by `p`: `<p>id` (UUID),
/// `<p>user` (`wire:<id>`), `<p>handle`, `<p>at` (`wire:@<handle>`), `<p>name`, `<p>self`
/// (1 when the user is the account's own).
fn user_columns(schema: &Schema, p: &str, me: Option<&str>) -> String {
    let id = if schema.columns("ZUSER").contains("ZREMOTEIDENTIFIER_DATA") {
        uuid_sql("u.ZREMOTEIDENTIFIER_DATA")
    } else {
        "NULL".into()
    };
    let handle = schema.col("u", "ZUSER", "ZHANDLE");
    let me = me
        .map(|m| format!("CASE WHEN {id} = '{m}' THEN 1 ELSE 0 END"))
        .unwrap_or("NULL".into());
    format!(
        "{id} AS {p}id, 'wire:' || {id} AS {p}user, {handle} AS {p}handle, CASE WHEN {handle} != '' THEN 'wire:@' || {handle} END AS {p}at, {} AS {p}name, {me} AS {p}self",
        schema.col("u", "ZUSER", "ZNAME"),
    )
}

fn store(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let tables = [
        "ZUSER",
        "ZUSERCLIENT",
        "ZMESSAGE",
        "ZCONVERSATION",
        "ZGENERICMESSAGEDATA",
    ];
    let Some(schema) = run.schema(path, &tables)? else {
        return Ok(());
    };
    if schema.columns("ZUSER").is_empty() && schema.columns("ZMESSAGE").is_empty() {
        run.ctx.unparsed(
            path,
            "could not parse Wire's store.wiredatabase because it has neither a ZUSER nor a ZMESSAGE table",
            None,
        )?;
        return Ok(());
    }
    let me = account_id(path);
    if !schema.columns("ZUSER").is_empty() && schema.require(run, "ZUSER", &["Z_PK"])? {
        users(run, find, path, &schema, me.as_deref())?;
    }
    if !schema.columns("ZUSERCLIENT").is_empty() && schema.require(run, "ZUSERCLIENT", &["Z_PK"])? {
        clients(run, find, path, &schema, me.as_deref())?;
    }
    if !schema.columns("ZMESSAGE").is_empty()
        && schema.require(run, "ZMESSAGE", &["Z_PK", "ZSERVERTIMESTAMP"])?
    {
        messages(run, find, path, &schema, me.as_deref())?;
    }
    Ok(())
}

fn users(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    schema: &Schema,
    me: Option<&str>,
) -> Result<(), RuntimeError> {
    let u = |c: &str| schema.col("u", "ZUSER", c);
    let sql = format!(
        "SELECT * FROM (SELECT u.Z_PK AS pk, {}, {} AS email, {} AS phone, {} AS domain FROM ZUSER u)",
        user_columns(schema, "", me),
        u("ZEMAILADDRESS"),
        u("ZPHONENUMBER"),
        u("ZDOMAIN"),
    );
    let Some(paged) = run.paged(path, &sql, "pk")? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        let pk = t.get(row, "pk").unwrap_or("?");
        let own = t.get(row, "self") == Some("1");
        let who = t
            .get(row, "name")
            .or(t.get(row, "handle"))
            .or(t.get(row, "id"))
            .unwrap_or("an unnamed user")
            .to_string();
        let mut d = if own {
            Draft::new("accounts", format!("Wire account {who}"))
        } else {
            Draft::new("contacts", format!("Wire user {who}"))
        };
        d.fact(FactType::Path, Some(path), find);
        let said = fields(
            &mut d,
            t,
            row,
            inv,
            &[
                ("id", FactType::Identifier, "user id"),
                ("handle", FactType::Account, "handle"),
                ("name", FactType::Name, "name"),
                ("email", FactType::Email, "e-mail"),
                ("phone", FactType::Phone, "phone"),
                ("domain", FactType::Text, "domain"),
            ],
        );
        d.interpretation = format!(
            "ZUSER Z_PK {pk} of {}: {}: {}.",
            file_name(path),
            if own {
                "the Wire account of the device's user (its user id names the account's folder)"
            } else {
                "a Wire user the account knows (a contact, a conversation member or a user it looked up)"
            },
            said.join(", ")
        );
        run.record(d)?;
        let Some(user) = t.get(row, "user") else {
            continue;
        };
        let (context, label) = if own {
            ("owner".to_string(), "device owner".to_string())
        } else {
            (user.to_string(), who.clone())
        };
        crate::identity::observe_columns(
            run.ctx,
            &context,
            &label,
            t,
            row,
            inv,
            &[
                ("user", IdType::AccountId, "The Wire user id"),
                ("at", IdType::AccountId, "The Wire handle"),
                ("name", IdType::DisplayName, "The name"),
                ("email", IdType::Email, "The e-mail address"),
                ("phone", IdType::Phone, "The phone number"),
            ],
            &|what| {
                format!(
                    "{what} of {} (ZUSER Z_PK {pk} of store.wiredatabase).",
                    if own {
                        "the Wire account of the device's user".to_string()
                    } else {
                        format!("the Wire user {who}")
                    }
                )
            },
        )?;
    }
    Ok(())
}

fn clients(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    schema: &Schema,
    me: Option<&str>,
) -> Result<(), RuntimeError> {
    let c = |x: &str| schema.col("c", "ZUSERCLIENT", x);
    let join = if schema.columns("ZUSERCLIENT").contains("ZUSER")
        && schema.columns("ZUSER").contains("Z_PK")
    {
        "LEFT JOIN ZUSER u ON u.Z_PK = c.ZUSER"
    } else {
        "LEFT JOIN ZUSER u ON 0"
    };
    let sql = format!(
        "SELECT * FROM (SELECT c.Z_PK AS pk, {} AS client, {} AS label, {} AS model, {} AS class, {} AS activated, {} AS latitude, {} AS longitude, {} AS u_email, {} AS u_phone, {} FROM ZUSERCLIENT c {join})",
        c("ZREMOTEIDENTIFIER"),
        c("ZLABEL"),
        c("ZMODEL"),
        c("ZDEVICECLASS"),
        c("ZACTIVATIONDATE"),
        c("ZACTIVATIONLOCATIONLATITUDE"),
        c("ZACTIVATIONLOCATIONLONGITUDE"),
        schema.col("u", "ZUSER", "ZEMAILADDRESS"),
        schema.col("u", "ZUSER", "ZPHONENUMBER"),
        user_columns(schema, "u_", me),
    );
    let Some(paged) = run.paged(path, &sql, "pk")? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        let pk = t.get(row, "pk").unwrap_or("?");
        let of = t
            .get(row, "u_name")
            .or(t.get(row, "u_handle"))
            .unwrap_or("a user not stored")
            .to_string();
        let device = t
            .get(row, "model")
            .or(t.get(row, "label"))
            .or(t.get(row, "client"))
            .unwrap_or("a client")
            .to_string();
        let mut d = Draft::new("accounts", format!("Wire client {device} of {of}"));
        d.fact(FactType::Path, Some(path), find);
        let said = fields(
            &mut d,
            t,
            row,
            inv,
            &[
                ("client", FactType::Identifier, "client id"),
                ("label", FactType::Name, "label"),
                ("model", FactType::Text, "model"),
                ("class", FactType::Text, "device class"),
                ("u_name", FactType::Name, "user"),
                ("u_handle", FactType::Account, "handle"),
                ("u_email", FactType::Email, "e-mail"),
                ("u_phone", FactType::Phone, "phone"),
                ("latitude", FactType::Text, "activation latitude"),
                ("longitude", FactType::Text, "activation longitude"),
            ],
        );
        let activated = raw(t, row, "activated");
        d.time(
            activated.as_deref(),
            core_data_encoding(activated.as_deref()),
            "Wire client activated",
            inv,
        );
        d.interpretation = format!(
            "ZUSERCLIENT Z_PK {pk} of {}: a device registered as a Wire client of {}: {}; the activation time is Core Data seconds.",
            file_name(path),
            if t.get(row, "u_self") == Some("1") {
                format!("the device's user's account ({of})")
            } else {
                of.clone()
            },
            said.join(", ")
        );
        run.record(d)?;
    }
    Ok(())
}

/// iLEAPP's words for `ZCACHEDCATEGORY` (Wire's `MessageCategory`).
const CATEGORIES: [(&str, &str); 6] = [
    ("0", "None (uncategorized)"),
    ("1", "Undefined"),
    ("2", "Text Message"),
    ("8", "Image Message"),
    ("256", "Location Message"),
    ("2048", "System Message"),
];

fn messages(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    schema: &Schema,
    me: Option<&str>,
) -> Result<(), RuntimeError> {
    let m = |x: &str| schema.col("m", "ZMESSAGE", x);
    let mcols = schema.columns("ZMESSAGE");
    let sender = if mcols.contains("ZSENDER") && schema.columns("ZUSER").contains("Z_PK") {
        "LEFT JOIN ZUSER u ON u.Z_PK = m.ZSENDER"
    } else {
        "LEFT JOIN ZUSER u ON 0"
    };
    let conv_fk: Vec<String> = ["ZVISIBLEINCONVERSATION", "ZHIDDENINCONVERSATION"]
        .iter()
        .filter(|c| mcols.contains(**c))
        .map(|c| format!("m.{c}"))
        .collect();
    let conversation = match conv_fk.len() {
        0 => "NULL".to_string(),
        1 => conv_fk[0].clone(),
        _ => format!("COALESCE({})", conv_fk.join(", ")),
    };
    let conv_join = if conversation != "NULL" && schema.columns("ZCONVERSATION").contains("Z_PK") {
        format!("LEFT JOIN ZCONVERSATION c ON c.Z_PK = {conversation}")
    } else {
        "LEFT JOIN ZCONVERSATION c ON 0".into()
    };
    let g = schema.columns("ZGENERICMESSAGEDATA");
    let generic = if g.contains("ZDATA") {
        let links: Vec<String> = ["ZMESSAGE", "ZASSET"]
            .iter()
            .filter(|c| g.contains(**c))
            .map(|c| format!("g.{c} = m.Z_PK"))
            .collect();
        if links.is_empty() {
            "NULL".into()
        } else {
            format!(
                "(SELECT g.ZDATA FROM ZGENERICMESSAGEDATA g WHERE {} ORDER BY g.Z_PK LIMIT 1)",
                links.join(" OR ")
            )
        }
    } else {
        "NULL".into()
    };
    let category = m("ZCACHEDCATEGORY");
    let words: String = CATEGORIES
        .iter()
        .map(|(k, w)| format!(" WHEN {k} THEN '{w}'"))
        .collect();
    let sql = format!(
        "SELECT * FROM (SELECT m.Z_PK AS pk, m.ZSERVERTIMESTAMP AS at, {category} AS category, CASE {category}{words} END AS kind, {} AS normalized, {} AS duration, {conversation} AS conversation, {} AS conversation_name, {} AS conversation_type, {generic} AS generic, {} FROM ZMESSAGE m {sender} {conv_join})",
        m("ZNORMALIZEDTEXT"),
        m("ZDURATION"),
        schema.col("c", "ZCONVERSATION", "ZUSERDEFINEDNAME"),
        schema.col("c", "ZCONVERSATION", "ZCONVERSATIONTYPE"),
        user_columns(schema, "s_", me),
    );
    let Some(paged) = run.paged_with(path, &sql, "pk", &["protobuf"])? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        let pk = t.get(row, "pk").unwrap_or("?");
        let sent = t.get(row, "s_self") == Some("1");
        let from = t
            .get(row, "s_name")
            .or(t.get(row, "s_handle"))
            .unwrap_or("a sender not stored")
            .to_string();
        let place = t
            .get(row, "conversation_name")
            .map(|n| format!("in {n}"))
            .or(t
                .get(row, "conversation")
                .map(|c| format!("in conversation {c}")))
            .unwrap_or_default();
        let mut d = Draft::new(
            "messages",
            if sent {
                format!("Wire message sent {place}")
            } else {
                format!("Wire message from {from} {place}")
            }
            .trim()
            .to_string(),
        );
        d.fact(FactType::Path, Some(path), find);
        let mut said = fields(
            &mut d,
            t,
            row,
            inv,
            &[
                ("kind", FactType::Text, "category"),
                ("normalized", FactType::Text, "normalised text"),
                ("duration", FactType::Count, "call duration (seconds)"),
                ("s_name", FactType::Name, "sender"),
                ("s_handle", FactType::Account, "sender's handle"),
                ("conversation", FactType::Identifier, "conversation"),
                ("conversation_name", FactType::Name, "conversation name"),
                ("conversation_type", FactType::Count, "conversation type"),
            ],
        );
        if t.get(row, "kind").is_none()
            && let Some(c) = t.get(row, "category")
        {
            d.fact(FactType::Count, Some(c), inv);
            said.push(format!("category {c} (as stored)"));
        }
        let proto = t.get(row, "generic").and_then(|c| {
            serde_json::from_str::<serde_json::Value>(c.strip_prefix("protobuf:")?).ok()
        });
        let mut text = None;
        if let Some(p) = &proto {
            // GenericMessage: text 2 {content 1}; ephemeral 18 {text 2}; edited 15 {text 2};
            // asset 11 {original 1 {mime 1, name 3}}; location 13 {name 3}
            for (path_, what) in [
                (&["2", "1"][..], "text"),
                (&["18", "2", "1"][..], "text (ephemeral)"),
                (&["15", "2", "1"][..], "text (edited)"),
                (&["11", "1", "3"][..], "asset name"),
                (&["11", "1", "1"][..], "asset type"),
                (&["13", "3"][..], "location name"),
            ] {
                if let Some((plain, cited)) = crate::outputs::proto_text(p, path_) {
                    d.fact(FactType::Text, Some(&cited), inv);
                    said.push(format!("{what} \"{plain}\""));
                    if what.starts_with("text") && text.is_none() {
                        text = Some(plain);
                    }
                }
            }
        }
        let at = raw(t, row, "at");
        d.message_time(at.as_deref(), core_data_encoding(at.as_deref()), sent, inv);
        d.interpretation = format!(
            "ZMESSAGE Z_PK {pk} of {}: a Wire message {}: {}; the server time is Core Data seconds{}.",
            file_name(path),
            if sent {
                "sent by the device's user (the account's own user sent it)".to_string()
            } else {
                format!("from {from}")
            },
            said.join(", "),
            if proto.is_some() {
                "; the text as sent is the message's GenericMessage protobuf (ZGENERICMESSAGEDATA), the normalised text Wire's search copy"
            } else {
                ""
            },
        );
        run.record(d)?;
        let other = t
            .get(row, "s_user")
            .filter(|_| !sent)
            .map(|u| (u.to_string(), from.clone()));
        if let Some(text) = text.as_deref().or(t.get(row, "normalized")) {
            run.message_claims(
                inv,
                text,
                &format!("a Wire message (ZMESSAGE Z_PK {pk} of store.wiredatabase)"),
                sent,
                other,
                "sender the account's user",
                "sender another user",
            )?;
        }
    }
    Ok(())
}

fn file_name(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}
