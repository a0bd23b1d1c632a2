//! ROMEO (PlanetRomeo, `com.planetromeo.android.app`), the fields of ALEAPP's three
//! `romeo_dating` artefacts, from the app's `databases/`:
//!
//! | store, table | phenomenon | fields |
//! |---|---|---|
//! | `planetromeo-room.db` `MessageEntity` with `ChatPartnerEntity` | one `messages` per message | time, the chat partner's id and name, text, transmission status, saved, unread, message id, the images attached (`ImageAttachmentEntity`, counted: their content is not kept on the phone) |
//! | `planetromeo-room.db` `ContactEntity` with `ChatPartnerEntity` | one `contacts` per contact | last fetched and deleted (Unix ms), user id, name, headline, the user's note, link status, age, weight, height, city, country, deactivated, blocked |
//! | `accounts.db` `accounts` | one `accounts` per signed-in account | id, user name, e-mail, the location's address, city, latitude and longitude, headline, profile text, created, last login, age, birth date (the JSON columns read in the query) |
//!
//! A message row names its chat partner, not its sender: the store keeps no direction in a
//! column ALEAPP or this reader can name, so none is given. ALEAPP's message query drops a
//! message whose partner has no row (an inner join); here it is kept. Identities: a user is
//! `romeo:<profile id>` with name; the account (`romeo:<_id>`, user name, e-mail) is the
//! device's user's (`owner`).

use std::collections::BTreeSet;

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{FactType, IdType, TimeEncoding};

use super::{Located, record_query};
use crate::calls::{Tables, column_or_null, select_columns};
use crate::drafts::{RowPhenomena, date_text, unix_by_magnitude, unix_millis};
use crate::identity::{artefact_name, observe_columns, schema_on};

const DIR: &str = "/com.planetromeo.android.app/databases/";

/// Whether `l` is the app's main store.
pub fn is_store(l: &Located) -> bool {
    l.path.contains(DIR) && l.name() == "planetromeo-room.db"
}

/// Whether `l` is the app's account store.
pub fn is_accounts(l: &Located) -> bool {
    l.path.contains(DIR) && l.name() == "accounts.db"
}

/// A time written as a number (Unix, by its size) or as text.
fn number_or_text(value: Option<&str>) -> Option<TimeEncoding> {
    let v = value?.trim();
    if v.parse::<f64>().is_ok() {
        unix_by_magnitude(Some(v))
    } else {
        date_text(Some(v))
    }
}

/// The main store.
pub fn store(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(schema) = schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    let Some(tables) = Tables::of(
        ctx,
        &name,
        "ROMEO's planetromeo-room.db",
        &schema,
        &["MessageEntity", "ContactEntity", "ChatPartnerEntity"],
    )?
    else {
        return Ok(());
    };
    let partners = tables
        .get("ChatPartnerEntity")
        .filter(|c| c.contains("profileId"));
    if let Some(c) = tables.need("MessageEntity", &["chatPartnerId", "date"])? {
        messages(ctx, l, c, partners, tables.get("ImageAttachmentEntity"))?;
    }
    if let Some(c) = tables.need("ContactEntity", &["userId"])? {
        contacts(ctx, l, c, partners)?;
    }
    Ok(())
}

/// `p.<col> AS <alias>` of the partner join, NULL when the partner table lacks it.
fn partner(partners: Option<&BTreeSet<String>>, col: &str, alias: &str) -> String {
    match partners {
        Some(p) => column_or_null(p, "p.", col, alias),
        None => format!("NULL AS {alias}"),
    }
}

fn messages(
    ctx: &AgentCtx<'_>,
    l: &Located,
    cols: &BTreeSet<String>,
    partners: Option<&BTreeSet<String>>,
    images: Option<&BTreeSet<String>>,
) -> Result<(), RuntimeError> {
    let join = if partners.is_some() {
        " LEFT JOIN ChatPartnerEntity p ON p.profileId = m.chatPartnerId"
    } else {
        ""
    };
    let images = match images {
        Some(i) if i.contains("parentMessageId") && cols.contains("messageId") => {
            "(SELECT COUNT(*) FROM ImageAttachmentEntity i WHERE i.parentMessageId = m.messageId)"
        }
        _ => "NULL",
    };
    let sql = format!(
        "SELECT m.rowid AS rid, m.date AS date, m.chatPartnerId AS partner_id, 'romeo:' || m.chatPartnerId AS qualified, {}, {}, {images} AS images FROM MessageEntity m{join} ORDER BY m.date, m.rowid",
        partner(partners, "name", "partner_name"),
        select_columns(
            cols,
            "m.",
            &[
                ("text", "text"),
                ("transmissionStatus", "status"),
                ("saved", "saved"),
                ("unread", "unread"),
                ("messageId", "message_id"),
            ]
        ),
    );
    let file = l.name().to_string();
    record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "MessageEntity",
            category: "messages",
            what: "a ROMEO message of the chat with this partner (the store names the partner, not the sender: no direction is given)",
            title: &|t, row| {
                format!(
                    "ROMEO message in the chat with {}",
                    t.get(row, "partner_name")
                        .or(t.get(row, "partner_id"))
                        .unwrap_or("?")
                )
            },
            fields: &[
                ("text", FactType::Text, "text"),
                ("partner_id", FactType::Identifier, "chat partner id"),
                ("qualified", FactType::Account, "chat partner"),
                ("partner_name", FactType::Name, "chat partner name"),
                ("status", FactType::Text, "transmission status"),
                ("saved", FactType::Count, "saved"),
                ("unread", FactType::Count, "unread"),
                ("images", FactType::Count, "images attached"),
                ("message_id", FactType::Identifier, "message id"),
            ],
            times: &[("date", "ROMEO message", number_or_text)],
        },
        &mut |inv, t, row| {
            crate::identity::observe_row_person(
                ctx,
                t,
                row,
                inv,
                "partner_name",
                &[
                    ("qualified", IdType::AccountId, "The ROMEO profile id"),
                    ("partner_name", IdType::Nickname, "The user name"),
                ],
                &|what, who| {
                    format!(
                        "{what} of {who}, a ROMEO chat partner of the device's user (MessageEntity row {} of {file}).",
                        t.get(row, "rid").unwrap_or("?")
                    )
                },
            )
        },
    )
}

fn contacts(
    ctx: &AgentCtx<'_>,
    l: &Located,
    cols: &BTreeSet<String>,
    partners: Option<&BTreeSet<String>>,
) -> Result<(), RuntimeError> {
    let join = if partners.is_some() {
        " LEFT JOIN ChatPartnerEntity p ON p.profileId = c.userId"
    } else {
        ""
    };
    let sql = format!(
        "SELECT c.rowid AS rid, c.userId AS user_id, 'romeo:' || c.userId AS qualified, {}, {}, {} FROM ContactEntity c{join} ORDER BY c.rowid",
        select_columns(
            cols,
            "c.",
            &[("contactNote", "note"), ("linkStatus", "link_status")]
        ),
        [
            ("name", "name"),
            ("headline", "headline"),
            ("age", "age"),
            ("weight", "weight"),
            ("height", "height"),
            ("locationName", "city"),
            ("country", "country"),
            ("isDeactivated", "deactivated"),
            ("isBLocked", "blocked"),
        ]
        .iter()
        .map(|(c, a)| partner(partners, c, a))
        .collect::<Vec<_>>()
        .join(", "),
        [("fetchDate", "fetched"), ("deletionDate", "deleted")]
            .iter()
            .map(|(c, a)| partner(partners, c, a))
            .collect::<Vec<_>>()
            .join(", "),
    );
    let file = l.name().to_string();
    record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "ContactEntity",
            category: "contacts",
            what: "a ROMEO contact of the device's user, with the profile the app fetched",
            title: &|t, row| {
                format!(
                    "ROMEO contact {}",
                    t.get(row, "name").or(t.get(row, "user_id")).unwrap_or("?")
                )
            },
            fields: &[
                ("user_id", FactType::Identifier, "user id"),
                ("qualified", FactType::Account, "account"),
                ("name", FactType::Name, "name"),
                ("headline", FactType::Text, "headline"),
                ("note", FactType::Text, "the user's note"),
                ("link_status", FactType::Text, "link status"),
                ("age", FactType::Count, "age"),
                ("weight", FactType::Count, "weight"),
                ("height", FactType::Count, "height"),
                ("city", FactType::Text, "city"),
                ("country", FactType::Text, "country"),
                ("deactivated", FactType::Count, "deactivated"),
                ("blocked", FactType::Count, "blocked"),
            ],
            times: &[
                ("fetched", "ROMEO profile last fetched", unix_millis),
                ("deleted", "ROMEO contact deleted", unix_millis),
            ],
        },
        &mut |inv, t, row| {
            crate::identity::observe_row_person(
                ctx,
                t,
                row,
                inv,
                "name",
                &[
                    ("qualified", IdType::AccountId, "The ROMEO profile id"),
                    ("name", IdType::Nickname, "The user name"),
                ],
                &|what, who| {
                    format!(
                        "{what} of {who}, a ROMEO contact of the device's user (ContactEntity row {} of {file}).",
                        t.get(row, "rid").unwrap_or("?")
                    )
                },
            )
        },
    )
}

/// `accounts.db`: the signed-in account.
pub fn accounts(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(schema) = schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    let Some(tables) = Tables::of(ctx, &name, "ROMEO's accounts.db", &schema, &["accounts"])?
    else {
        return Ok(());
    };
    let Some(cols) = tables.need("accounts", &["_id"])? else {
        return Ok(());
    };
    let json = |col: &str, path: &str, alias: &str| {
        if cols.contains(col) {
            format!(
                "CASE WHEN json_valid(a.{col}) THEN json_extract(a.{col}, '{path}') END AS {alias}"
            )
        } else {
            format!("NULL AS {alias}")
        }
    };
    let sql = format!(
        "SELECT a._id AS rid, a._id AS id, 'romeo:' || a._id AS qualified, {}, {} FROM accounts a ORDER BY a._id",
        select_columns(cols, "a.", &[("username", "username"), ("email", "email")]),
        [
            json("location", "$.address.address", "address"),
            json("location", "$.name", "city"),
            json("location", "$.lat", "latitude"),
            json("location", "$.long", "longitude"),
            json("profile", "$.headline", "headline"),
            json("profile", "$.personal.profile_text", "profile_text"),
            json("profile", "$.creation_date", "created"),
            json("profile", "$.last_login", "last_login"),
            json("profile", "$.personal.age", "age"),
            json("profile", "$.personal.birthdate", "birthdate"),
        ]
        .join(", "),
    );
    let file = l.name().to_string();
    record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "accounts",
            category: "accounts",
            what: "the ROMEO account signed in to the app",
            title: &|t, row| {
                format!(
                    "ROMEO account {}",
                    t.get(row, "username").or(t.get(row, "id")).unwrap_or("?")
                )
            },
            fields: &[
                ("id", FactType::Identifier, "id"),
                ("qualified", FactType::Account, "account"),
                ("username", FactType::Account, "user name"),
                ("email", FactType::Email, "e-mail"),
                ("address", FactType::Text, "address"),
                ("city", FactType::Text, "city"),
                ("latitude", FactType::Text, "latitude"),
                ("longitude", FactType::Text, "longitude"),
                ("headline", FactType::Text, "headline"),
                ("profile_text", FactType::Text, "profile text"),
                ("age", FactType::Count, "age"),
                ("birthdate", FactType::Text, "birth date"),
            ],
            times: &[
                ("created", "ROMEO profile created", number_or_text),
                ("last_login", "ROMEO last login", number_or_text),
            ],
        },
        &mut |inv, t, row| {
            observe_columns(
                ctx,
                "owner",
                "device owner",
                t,
                row,
                inv,
                &[
                    ("qualified", IdType::AccountId, "The ROMEO profile id"),
                    ("username", IdType::Nickname, "The user name"),
                    ("email", IdType::Email, "The e-mail address"),
                ],
                &|what| {
                    format!(
                        "{what} of the ROMEO account signed in to the app on the device (accounts row {} of {file}).",
                        t.get(row, "rid").unwrap_or("?")
                    )
                },
            )
        },
    )
}
