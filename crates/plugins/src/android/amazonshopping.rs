//! Amazon Shopping (`com.amazon.mShop.android.shopping/databases/map_data_storage.db`, the store
//! of Amazon's MAP sign-in library), ALEAPP's `amazonShopping` (`get_amazon_account_store`): the
//! Amazon accounts signed in to the app — whose, under which name, from which country.
//!
//! | table | phenomenon | fields |
//! |---|---|---|
//! | `accounts` (with `userdata`) | one `accounts` per account ("Amazon Shopping account <display name>") | directed id (`amzn1.account.…`), display name, deleted and dirty flags as stored; from the account's `userdata` (keys `com.amazon.dcp.sso.property.*`, bare or after a package and "/"): full name (`username`), first name, device name, device e-mail, country of residence (`account.cor`), preferred marketplace (`account.pfm`); record written (`account_timestamp`, Unix ms) |
//!
//! Not read, never selected: the `tokens` table (cookies, OAuth access and refresh tokens, the
//! device's private key), `device_data`, and every other `userdata` key — secrets that would let
//! anyone act as the account, not facts about it. Newer releases keep `userdata` values encrypted:
//! they are then facts as stored, and no name is observed from them.
//!
//! Identities: the account signed in to the app is the device's user's when it is the only one
//! not deleted (`owner`): `amazon:<directed id>` (computed in the query), the display name and the
//! full name where they are plain text (no digit, at most 80 characters: an encrypted value never
//! is). With several accounts each is a person `amazon:<directed id>` with those names. The device
//! name and device e-mail are the device's (an Amazon-made address for the app's instance), facts
//! only. Columns are taken by name (absent ones NULL); a store without `accounts.directed_id` is
//! noted.

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{FactType, IdType};

use super::Located;
use crate::calls::{Tables, column_or_null};
use crate::drafts::{RowPhenomena, unix_millis};
use crate::identity::{artefact_name, observe_columns, observe_row_person, schema_on};
use crate::outputs::{Table, raw};

/// Whether `l` is Amazon Shopping's account store.
pub fn is_store(l: &Located) -> bool {
    l.name() == "map_data_storage.db" && is_store_path(&l.path)
}

/// Whether `path` is Amazon Shopping's account store (for `categorise`).
pub fn is_store_path(path: &str) -> bool {
    path.ends_with("/com.amazon.mShop.android.shopping/databases/map_data_storage.db")
}

/// The `userdata` properties read: `(key after com.amazon.dcp.sso.property., alias)`.
const PROPERTIES: &[(&str, &str)] = &[
    ("username", "full_name"),
    ("firstname", "first_name"),
    ("devicename", "device_name"),
    ("deviceemail", "device_email"),
    ("account.cor", "country"),
    ("account.pfm", "marketplace"),
];

/// `v` where it is plain text (no digit, 1 to 80 characters), else NULL.
fn plain(v: &str) -> String {
    format!("CASE WHEN length({v}) BETWEEN 1 AND 80 AND {v} NOT GLOB '*[0-9]*' THEN {v} END")
}

/// One `map_data_storage.db`.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(schema) = schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    let Some(cols) = Tables::one(
        ctx,
        &name,
        "Amazon Shopping's map_data_storage.db",
        &schema,
        "accounts",
        &["directed_id"],
    )?
    else {
        return Ok(());
    };
    let linked = schema.get("userdata").is_some_and(|u| {
        ["userdata_account_id", "userdata_key", "userdata_value"]
            .iter()
            .all(|c| u.contains(*c))
    });
    let order = if schema
        .get("userdata")
        .is_some_and(|u| u.contains("userdata_deleted"))
    {
        "coalesce(u.userdata_deleted, 0), u.rowid DESC"
    } else {
        "u.rowid DESC"
    };
    let properties: Vec<String> = PROPERTIES
        .iter()
        .map(|(key, alias)| {
            if linked {
                format!(
                    "(SELECT u.userdata_value FROM userdata u WHERE u.userdata_account_id = a.directed_id AND (u.userdata_key = 'com.amazon.dcp.sso.property.{key}' OR u.userdata_key LIKE '%/com.amazon.dcp.sso.property.{key}') ORDER BY {order} LIMIT 1) AS {alias}"
                )
            } else {
                format!("NULL AS {alias}")
            }
        })
        .collect();
    let live = if cols.contains("account_deleted") {
        "coalesce(account_deleted, 0) = 0"
    } else {
        "1"
    };
    let sql = format!(
        "SELECT q.*, {} AS plain_display_name, {} AS plain_full_name FROM (SELECT a.rowid AS rid, a.directed_id AS directed_id, CASE WHEN a.directed_id IS NOT NULL AND a.directed_id != '' THEN 'amazon:' || a.directed_id END AS qualified, {}, {}, {}, {}, {}, CASE WHEN (SELECT count(*) FROM accounts WHERE {live}) = 1 AND a.rowid IN (SELECT rowid FROM accounts WHERE {live}) THEN 'the only account signed in' END AS owner_reason FROM accounts a) q ORDER BY q.rid",
        plain("q.display_name"),
        plain("q.full_name"),
        column_or_null(cols, "a.", "display_name", "display_name"),
        column_or_null(cols, "a.", "account_timestamp", "account_timestamp"),
        column_or_null(cols, "a.", "account_deleted", "account_deleted"),
        column_or_null(cols, "a.", "account_dirty", "account_dirty"),
        properties.join(", "),
    );
    let file = l.name().to_string();
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "accounts",
            category: "accounts",
            what: "an Amazon account signed in to Amazon Shopping (Amazon's MAP sign-in store), with the properties the app keeps for it (values as stored: newer releases encrypt them; deleted and dirty are the store's sync flags); its tokens and cookies are not read",
            title: &|t: &Table, row: &[Option<String>]| {
                let shown = raw(t, row, "display_name")
                    .filter(|v| !v.trim().is_empty())
                    .or_else(|| raw(t, row, "directed_id"))
                    .unwrap_or_else(|| "?".into());
                format!("Amazon Shopping account {shown}")
            },
            fields: &[
                ("directed_id", FactType::Account, "directed id"),
                ("display_name", FactType::Name, "display name"),
                ("full_name", FactType::Name, "full name"),
                ("first_name", FactType::Name, "first name"),
                ("device_name", FactType::Name, "device name"),
                ("device_email", FactType::Email, "device e-mail"),
                ("country", FactType::Text, "country of residence"),
                ("marketplace", FactType::Identifier, "preferred marketplace"),
                ("account_deleted", FactType::Text, "deleted"),
                ("account_dirty", FactType::Text, "dirty"),
                ("owner_reason", FactType::Text, "held as"),
            ],
            times: &[(
                "account_timestamp",
                "Amazon Shopping account record written",
                unix_millis,
            )],
        },
        &mut |inv, t, row| {
            let ids = [
                ("qualified", IdType::AccountId, "The Amazon account id"),
                ("plain_full_name", IdType::DisplayName, "The full name"),
                (
                    "plain_display_name",
                    IdType::DisplayName,
                    "The display name",
                ),
            ];
            if let Some(reason) = t.get(row, "owner_reason") {
                observe_columns(ctx, "owner", "device owner", t, row, inv, &ids, &|what| {
                    format!(
                        "{what} of the Amazon account signed in to Amazon Shopping on the device (accounts of {file}: {reason}), the device's user's."
                    )
                })
            } else {
                observe_row_person(
                    ctx,
                    t,
                    row,
                    inv,
                    "plain_display_name",
                    &ids,
                    &|what, who| {
                        format!(
                            "{what} of the Amazon account {who}, one of several signed in to Amazon Shopping on the device ({file})."
                        )
                    },
                )
            }
        },
    )
}
