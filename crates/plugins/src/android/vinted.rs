//! Vinted (`fr.vinted/databases/vinted_database_2.db`), ALEAPP's `vinted` (`vinted_items`,
//! `vinted_favorites`, `vinted_feedbacks`): the second-hand listings the app cached, the ones
//! the account favourited, and the feedback its users left one another.
//!
//! | table | phenomenon | fields |
//! |---|---|---|
//! | `items` (`json`) | one `transactions` per cached listing ("Vinted listing <title>") | title, description, price and currency, condition, brand, the seller's login and id, views, favourites, favourited, closed, reserved, URL, id; listed (date text), cache expiry (Unix ms) |
//! | `favorites` (with `items`) | one `transactions` per tracked listing ("Vinted favourite <title or id>") | id, favourited as stored, the cached listing's title, price, URL; cache expiry |
//! | `feedbacks` (`json`) | one `contacts` per feedback ("Vinted feedback by <login>") | the account it belongs to, the author's login and id, rating, text, the reply with its author, system feedback, localisation, URL, id; written (Unix ms), left (date text) |
//!
//! The documents are read by SQLite's JSON functions in the query (`json_valid` guarding each
//! cell, so a cut document yields NULLs and the rest is read). A cached listing says the app
//! held it, not that the user opened it. Identities: each seller, feedback author and replier is
//! a `vinted:<user id>` person with their login; the same seller on two phones meets. A store
//! with none of the tables is noted.

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{EntityKind, FactType, IdType};
use masf_tools::Invoked;

use super::Located;
use crate::calls::json_at;
use crate::drafts::{RowPhenomena, date_text, unix_millis};
use crate::identity::{artefact_name, observe, schema_on};
use crate::outputs::{Table, raw};

/// Whether `l` is Vinted's store.
pub fn is_store(l: &Located) -> bool {
    l.name() == "vinted_database_2.db" && l.path.contains("/fr.vinted/")
}

/// `json_at(cell, path) AS alias`.
fn js(cell: &str, path: &str, alias: &str) -> String {
    format!("{} AS {alias}", json_at(cell, path))
}

/// `'vinted:' || <user id at path>` where the cell holds one.
fn user(cell: &str, path: &str, alias: &str) -> String {
    let id = json_at(cell, path);
    format!("CASE WHEN {id} IS NOT NULL AND {id} != '' THEN 'vinted:' || {id} END AS {alias}")
}

/// Observes the `vinted:<id>` person of a row (`qualified`, `login`, `id` columns).
fn person(
    ctx: &AgentCtx<'_>,
    inv: &Invoked,
    t: &Table,
    row: &[Option<String>],
    (qualified, login, id): (&str, &str, &str),
    what: &str,
) -> Result<(), RuntimeError> {
    let Some(q) = t.get(row, qualified) else {
        return Ok(());
    };
    let label = t.get(row, login).unwrap_or(q);
    observe(
        ctx,
        q,
        EntityKind::Person,
        label,
        IdType::AccountId,
        q,
        inv,
        format!(
            "The Vinted user id {} of {label}, {what}.",
            t.get(row, id).unwrap_or("?")
        ),
    )?;
    if let Some(l) = t.get(row, login) {
        observe(
            ctx,
            q,
            EntityKind::Person,
            label,
            IdType::Nickname,
            l,
            inv,
            format!("The Vinted login of the user {q}, {what}."),
        )?;
    }
    Ok(())
}

/// One `vinted_database_2.db`.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(schema) = schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    let has = |t: &str, c: &[&str]| {
        schema
            .get(t)
            .is_some_and(|cols| c.iter().all(|x| cols.contains(*x)))
    };
    if !["items", "favorites", "feedbacks"]
        .iter()
        .any(|t| schema.contains_key(*t))
    {
        ctx.unparsed(
            &name,
            "not Vinted's store: none of items, favorites, feedbacks",
            None,
        )?;
        return Ok(());
    }
    let file = l.name();
    if has("items", &["id", "json"]) {
        let j = "json";
        let sql = format!(
            "SELECT rowid AS rid, id, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {} FROM items ORDER BY rowid",
            js(j, "$.title", "title"),
            js(j, "$.description", "description"),
            js(j, "$.price.amount", "price"),
            js(j, "$.price.currency_code", "currency"),
            js(j, "$.status", "status"),
            js(j, "$.brand_dto.title", "brand"),
            js(j, "$.user.login", "seller"),
            js(j, "$.user.id", "seller_id"),
            user(j, "$.user.id", "seller_q"),
            js(j, "$.view_count", "views"),
            js(j, "$.favourite_count", "favourites"),
            js(j, "$.is_favourite", "favourite"),
            js(j, "$.is_closed", "closed"),
            js(j, "$.is_reserved", "reserved"),
            js(j, "$.url", "url"),
            js(j, "$.created_at_ts", "created"),
            crate::calls::column_or_null(&schema["items"], "", "expires_at", "expires"),
        );
        super::record_query(
            ctx,
            l,
            &sql,
            &RowPhenomena {
                table: "items",
                category: "transactions",
                what: "a Vinted listing the app cached (held by the app, not proof the user opened it; counts are the service's; listed as the date text stored, cache expiry Unix milliseconds)",
                title: &|t, row| {
                    format!(
                        "Vinted listing {}",
                        raw(t, row, "title")
                            .unwrap_or_else(|| t.get(row, "id").unwrap_or("?").to_string())
                    )
                },
                fields: &[
                    ("title", FactType::Text, "title"),
                    ("description", FactType::Text, "description"),
                    ("price", FactType::Amount, "price"),
                    ("currency", FactType::Text, "currency"),
                    ("status", FactType::Text, "condition"),
                    ("brand", FactType::Text, "brand"),
                    ("seller", FactType::Account, "seller"),
                    ("seller_id", FactType::Account, "seller id"),
                    ("views", FactType::Count, "views"),
                    ("favourites", FactType::Count, "favourites"),
                    ("favourite", FactType::Text, "favourited"),
                    ("closed", FactType::Text, "closed"),
                    ("reserved", FactType::Text, "reserved"),
                    ("url", FactType::Url, "URL"),
                    ("id", FactType::Identifier, "listing id"),
                ],
                times: &[
                    ("created", "Vinted listing created", date_text),
                    ("expires", "Vinted cached listing expires", unix_millis),
                ],
            },
            &mut |inv, t, row| {
                person(
                    ctx,
                    inv,
                    t,
                    row,
                    ("seller_q", "seller", "seller_id"),
                    &format!("the seller of a listing cached by Vinted ({file})"),
                )
            },
        )?;
    }
    if has("favorites", &["id"]) {
        let fav = &schema["favorites"];
        let (listing, join) = if has("items", &["id", "json"]) {
            (
                format!(
                    "{}, {}, {}, {}",
                    js("i.json", "$.title", "title"),
                    js("i.json", "$.price.amount", "price"),
                    js("i.json", "$.price.currency_code", "currency"),
                    js("i.json", "$.url", "url"),
                ),
                " LEFT JOIN items i ON i.id = f.id",
            )
        } else {
            (
                "NULL AS title, NULL AS price, NULL AS currency, NULL AS url".to_string(),
                "",
            )
        };
        let sql = format!(
            "SELECT f.rowid AS rid, f.id AS id, {}, {}, {listing} FROM favorites f{join} ORDER BY f.rowid",
            crate::calls::column_or_null(fav, "f.", "isFavorite", "favourite"),
            crate::calls::column_or_null(fav, "f.", "expires_at", "expires"),
        );
        super::record_query(
            ctx,
            l,
            &sql,
            &RowPhenomena {
                table: "favorites",
                category: "transactions",
                what: "a listing the Vinted app tracked as the account's favourite (favourited as stored: 0 is tracked only; the title and price from the cached listing where kept; cache expiry Unix milliseconds)",
                title: &|t, row| {
                    format!(
                        "Vinted favourite {}",
                        raw(t, row, "title")
                            .unwrap_or_else(|| t.get(row, "id").unwrap_or("?").to_string())
                    )
                },
                fields: &[
                    ("id", FactType::Identifier, "listing id"),
                    ("favourite", FactType::Text, "favourited"),
                    ("title", FactType::Text, "title"),
                    ("price", FactType::Amount, "price"),
                    ("currency", FactType::Text, "currency"),
                    ("url", FactType::Url, "URL"),
                ],
                times: &[("expires", "Vinted cached favourite expires", unix_millis)],
            },
            &mut |_, _, _| Ok(()),
        )?;
    }
    if has("feedbacks", &["id", "json"]) {
        let fb = &schema["feedbacks"];
        let j = "json";
        let reply = format!(
            "coalesce({}, {}) AS reply",
            json_at(j, "$.comment.comment"),
            json_at(j, "$.comment.feedback")
        );
        let sql = format!(
            "SELECT rowid AS rid, id, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {} FROM feedbacks ORDER BY rowid",
            crate::calls::column_or_null(fb, "", "owner_id", "owner_id"),
            crate::calls::column_or_null(fb, "", "created_at", "written"),
            js(j, "$.created_at_ts", "left_at"),
            js(j, "$.user.login", "author"),
            js(j, "$.user.id", "author_id"),
            user(j, "$.user.id", "author_q"),
            js(j, "$.rating", "rating"),
            js(j, "$.feedback", "feedback"),
            reply,
            js(j, "$.comment.user.login", "replier"),
            js(j, "$.comment.user.id", "replier_id"),
            user(j, "$.comment.user.id", "replier_q"),
            js(j, "$.system_feedback", "system"),
            js(j, "$.localization", "localization"),
            js(j, "$.feedback_url", "url"),
        );
        super::record_query(
            ctx,
            l,
            &sql,
            &RowPhenomena {
                table: "feedbacks",
                category: "contacts",
                what: "feedback one Vinted user left another, as the app cached it (the owner is the account it belongs to; written is when the app stored it, Unix milliseconds; left is the feedback's date text)",
                title: &|t, row| {
                    format!(
                        "Vinted feedback by {}",
                        raw(t, row, "author")
                            .unwrap_or_else(|| t.get(row, "id").unwrap_or("?").to_string())
                    )
                },
                fields: &[
                    ("owner_id", FactType::Account, "belongs to"),
                    ("author", FactType::Account, "author"),
                    ("author_id", FactType::Account, "author id"),
                    ("rating", FactType::Count, "rating"),
                    ("feedback", FactType::Text, "feedback"),
                    ("reply", FactType::Text, "reply"),
                    ("replier", FactType::Account, "replied by"),
                    ("replier_id", FactType::Account, "replier id"),
                    ("system", FactType::Text, "system feedback"),
                    ("localization", FactType::Text, "localisation"),
                    ("url", FactType::Url, "URL"),
                    ("id", FactType::Identifier, "feedback id"),
                ],
                times: &[
                    ("written", "Vinted feedback stored by the app", unix_millis),
                    ("left_at", "Vinted feedback left", date_text),
                ],
            },
            &mut |inv, t, row| {
                let what = format!("who left feedback cached by Vinted ({file})");
                person(ctx, inv, t, row, ("author_q", "author", "author_id"), &what)?;
                person(
                    ctx,
                    inv,
                    t,
                    row,
                    ("replier_q", "replier", "replier_id"),
                    &format!("who replied to feedback cached by Vinted ({file})"),
                )
            },
        )?;
    }
    Ok(())
}
