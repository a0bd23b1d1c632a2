//! SBB Mobile for Android (the Swiss Federal Railways' app, `ch.sbb.mobile.…/databases/
//! SbbMobile.db`), ALEAPP's `sbbmobile` (`cff_search_history`, `cff_searched_places`,
//! `cff_travel_cards`, `cff_purchased_tickets`): the connections the user looked up, the places
//! searched, the travel cards linked to the SwissPass and the tickets bought — with the
//! traveller's name.
//!
//! | table | phenomenon | fields |
//! |---|---|---|
//! | `SearchHistory` | one `locations` per search ("SBB Mobile search from <departure> to <target>") | departure and its type, target and its type (types as stored), the result's latitude and longitude; searched (`timestamp`, Unix ms) |
//! | `SearchedPlaces` | one `locations` per place ("SBB Mobile place <title>") | title, favourite and type as stored, latitude, longitude; searched (`timestamp`, Unix ms) |
//! | `SwissPassTravelCards` | one `accounts` per travel card ("SBB Mobile travel card <name>") | name, type, contract id, contract state, valid from and to (as stored; a time when it is one) |
//! | `PurchasedTickets` | one `transactions` per ticket ("SBB Mobile ticket <first> to <last>") | traveller, ticket type, first and last segment of its title line, payment method, refund state (as stored: `COMPLETE` refunded); valid from and until (as stored; a time when it is one: Unix by its size, or date text) |
//!
//! A search is a connection looked up (planned, checked, or bought for), not one travelled; its
//! coordinates are the searched result's place (ALEAPP's "Result Coordinates"), not the phone's.
//! The types are the app's letters, kept as stored (`a` address, `p` point of interest, `c`
//! coordinate, `s` station, as ALEAPP found them by testing). A ticket's traveller is the person
//! it was bought for — the device's user or a companion — so the name is a fact, not an
//! identity. Identities: none. Tables and columns are taken by name (absent ones NULL: older
//! generations lack the types and coordinates, `SearchedPlaces` and `SwissPassTravelCards`); a
//! store with none of the four tables, or a table without its key column, is noted.

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{FactType, TimeEncoding};

use super::Located;
use crate::calls::Tables;
use crate::drafts::{RowPhenomena, date_text, unix_by_magnitude, unix_millis};
use crate::identity::{artefact_name, schema_on};
use crate::outputs::{Table, raw};

/// Whether `l` is SBB Mobile's store.
pub fn is_store(l: &Located) -> bool {
    l.name() == "SbbMobile.db" && is_store_path(&l.path)
}

/// Whether `path` is SBB Mobile's store (for `categorise`).
pub fn is_store_path(path: &str) -> bool {
    path.ends_with("/databases/SbbMobile.db") && path.contains("/ch.sbb.mobile.")
}

const TABLES: [&str; 4] = [
    "SearchHistory",
    "SearchedPlaces",
    "SwissPassTravelCards",
    "PurchasedTickets",
];

/// A stored validity: Unix (seconds or milliseconds, by magnitude) when it is digits, else date
/// text (a date alone is no time: it stays a fact).
fn stamp(value: Option<&str>) -> Option<TimeEncoding> {
    match value.map(str::trim) {
        Some(v) if !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()) => {
            unix_by_magnitude(value)
        }
        _ => date_text(value),
    }
}

/// A present, non-blank cell as stored.
fn cell(t: &Table, row: &[Option<String>], col: &str) -> Option<String> {
    raw(t, row, col).filter(|v| !v.trim().is_empty())
}

/// One `SbbMobile.db`.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(schema) = schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    if Tables::of(ctx, &name, "SBB Mobile's SbbMobile.db", &schema, &TABLES)?.is_none() {
        return Ok(());
    }
    super::record_table(
        ctx,
        l,
        &schema,
        "timestamp",
        &|_| Vec::new(),
        &RowPhenomena {
            table: "SearchHistory",
            category: "locations",
            what: "a connection looked up in SBB Mobile (planned, checked or bought for — not one travelled); the types as the app stores them (a address, p point of interest, c coordinate, s station); the coordinates are the searched result's place, not the phone's; searched Unix milliseconds",
            title: &|t: &Table, row: &[Option<String>]| {
                let from = cell(t, row, "departure").unwrap_or_else(|| "?".into());
                let to = cell(t, row, "target").unwrap_or_else(|| "?".into());
                format!("SBB Mobile search from {from} to {to}")
            },
            fields: &[
                ("departure", FactType::Text, "departure"),
                ("departureType", FactType::Text, "departure type"),
                ("target", FactType::Text, "destination"),
                ("targetType", FactType::Text, "destination type"),
                ("latitude", FactType::Text, "result latitude"),
                ("longitude", FactType::Text, "result longitude"),
            ],
            times: &[("timestamp", "SBB Mobile connection searched", unix_millis)],
        },
        &mut |_, _, _| Ok(()),
    )?;
    super::record_table(
        ctx,
        l,
        &schema,
        "title",
        &|_| Vec::new(),
        &RowPhenomena {
            table: "SearchedPlaces",
            category: "locations",
            what: "a place searched in SBB Mobile (favourite and type as stored: a address, p point of interest, c coordinate, s station); the place's coordinates, not the phone's; last searched Unix milliseconds",
            title: &|t: &Table, row: &[Option<String>]| {
                format!(
                    "SBB Mobile place {}",
                    cell(t, row, "title").unwrap_or_else(|| "?".into())
                )
            },
            fields: &[
                ("title", FactType::Text, "place"),
                ("favorite", FactType::Text, "favourite"),
                ("type", FactType::Text, "type"),
                ("latitude", FactType::Text, "latitude"),
                ("longitude", FactType::Text, "longitude"),
            ],
            times: &[("timestamp", "SBB Mobile place searched", unix_millis)],
        },
        &mut |_, _, _| Ok(()),
    )?;
    super::record_table(
        ctx,
        l,
        &schema,
        "name",
        &|_| Vec::new(),
        &RowPhenomena {
            table: "SwissPassTravelCards",
            category: "accounts",
            what: "a travel card (a pass) linked to the SwissPass account signed in to SBB Mobile (type and contract state as stored; validity as stored)",
            title: &|t: &Table, row: &[Option<String>]| {
                format!(
                    "SBB Mobile travel card {}",
                    cell(t, row, "name")
                        .or_else(|| cell(t, row, "contract_id"))
                        .unwrap_or_else(|| "?".into())
                )
            },
            fields: &[
                ("name", FactType::Text, "card"),
                ("type", FactType::Text, "type"),
                ("contract_id", FactType::Identifier, "contract id"),
                ("contract_state", FactType::Text, "contract state"),
                ("valid_from", FactType::Text, "valid from"),
                ("valid_to", FactType::Text, "valid to"),
            ],
            times: &[
                ("valid_from", "SBB travel card valid from", stamp),
                ("valid_to", "SBB travel card valid to", stamp),
            ],
        },
        &mut |_, _, _| Ok(()),
    )?;
    super::record_table(
        ctx,
        l,
        &schema,
        "validFrom",
        &|_| Vec::new(),
        &RowPhenomena {
            table: "PurchasedTickets",
            category: "transactions",
            what: "a ticket bought in SBB Mobile for the traveller named (the device's user or a companion); payment method and refund state as stored (COMPLETE: refunded); validity as stored (Unix by its size, or text)",
            title: &|t: &Table, row: &[Option<String>]| {
                let first = cell(t, row, "displayInfo_titleLine_firstSegment");
                let last = cell(t, row, "displayInfo_titleLine_lastSegment");
                match (first, last) {
                    (Some(f), Some(l)) => format!("SBB Mobile ticket {f} to {l}"),
                    (Some(x), None) | (None, Some(x)) => format!("SBB Mobile ticket {x}"),
                    (None, None) => format!(
                        "SBB Mobile ticket {}",
                        cell(t, row, "displayInfo_ticketType").unwrap_or_else(|| "?".into())
                    ),
                }
            },
            fields: &[
                ("traveler", FactType::Name, "traveller"),
                ("displayInfo_ticketType", FactType::Text, "ticket"),
                ("displayInfo_titleLine_firstSegment", FactType::Text, "from"),
                ("displayInfo_titleLine_lastSegment", FactType::Text, "to"),
                ("paymentMethodType", FactType::Text, "payment method"),
                ("refundState", FactType::Text, "refund state"),
                ("validFrom", FactType::Text, "valid from"),
                ("validUntil", FactType::Text, "valid until"),
            ],
            times: &[
                ("validFrom", "SBB Mobile ticket valid from", stamp),
                ("validUntil", "SBB Mobile ticket valid until", stamp),
            ],
        },
        &mut |_, _, _| Ok(()),
    )
}
