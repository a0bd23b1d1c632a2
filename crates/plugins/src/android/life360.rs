//! Life360 on Android (`com.life360.android.safetymapd`): the family-locator app whose circles
//! share their members' positions. The fields of ALEAPP's Life360 artefacts, each store read
//! when present:
//!
//! | store, table | phenomenon | fields |
//! |---|---|---|
//! | `MembersEngineRoomDatabase`, `members` with `circles` | one `contacts` per member of a circle | created (Unix s), updated (Unix ms), member id, first and last name, login e-mail and phone, avatar URL, admin, role, the circle's name and times |
//! | `messaging.db`, `message` with `thread_participant` | one `messages` per message | created (Unix s), thread, sender id and name, text, sent, read, dismissed, deleted, a shared location (latitude, longitude, name, time) |
//! | `L360LocalStoreRoomDatabase`, `places` / `place_alerts` | one `locations` per saved place, one `contacts` per place alert | place id, circle, name, latitude, longitude, radius, source and its id, owner, alerts, website, types, category; an alert's member and arrive and leave flags |
//! | `L360EventStore.db`, `event` (version 5, tag `BLE`) | one `locations` per position the app recorded | time (Unix ms), latitude, longitude, altitude, speed, course, bearing, accuracies, location mode, battery and charging, the connected access point's BSSID and SSID, event id |
//! | `com.amplitude.api`, `store` | one `accounts` with every key and value | the analytics store's keys (the signed-in user's id among them) |
//!
//! Identities: a member is `life360:<member id>` (computed in the query) with their e-mail,
//! phone and name — a circle names its people by the numbers and addresses they log in with;
//! the analytics store's `user_id` is the device's user's (`owner`). A message's sender is
//! the member of that id. Wallet addresses in a message are claims by direction.

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{FactType, IdType};

use super::Located;
use crate::calls::{column_or_null, note_pages_cap};
use crate::drafts::{Draft, RowPhenomena, record_draft, record_rows, unix_millis, unix_seconds};
use crate::identity::{artefact_name, observe_columns, pages_on, schema_on};
use crate::outputs::raw;

const PACKAGE: &str = "/com.life360.android.safetymapd/databases/";

/// Whether `l` is one of Life360's stores.
pub fn is_store(l: &Located) -> bool {
    l.path.contains(PACKAGE)
        && matches!(
            l.name(),
            "MembersEngineRoomDatabase"
                | "messaging.db"
                | "L360LocalStoreRoomDatabase"
                | "L360EventStore.db"
                | "com.amplitude.api"
        )
}

fn or<'a>(
    t: &'a crate::outputs::Table,
    row: &'a [Option<String>],
    col: &str,
    d: &'a str,
) -> &'a str {
    t.get(row, col).unwrap_or(d)
}

/// One Life360 store.
pub fn store(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(schema) = schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    let (table, needed): (&str, &[&str]) = match l.name() {
        "MembersEngineRoomDatabase" => ("members", &["id"]),
        "messaging.db" => ("message", &["created_at"]),
        "L360LocalStoreRoomDatabase" => ("places", &["name"]),
        "L360EventStore.db" => ("event", &["data"]),
        _ => ("store", &["key", "value"]),
    };
    let Some(cols) = schema.get(table).filter(|c| !c.is_empty()) else {
        if l.name() != "L360LocalStoreRoomDatabase" || !schema.contains_key("place_alerts") {
            ctx.unparsed(
                &name,
                &format!(
                    "could not parse Life360's {} because it has no {table} table",
                    l.name()
                ),
                None,
            )?;
        }
        return Ok(());
    };
    if !crate::calls::require_columns(
        ctx,
        &name,
        &format!("Life360's {}", l.name()),
        table,
        cols,
        needed,
    )? {
        return Ok(());
    }
    let c = |col: &str, alias: &str| column_or_null(cols, "x.", col, alias);
    match l.name() {
        "MembersEngineRoomDatabase" => {
            let circles = schema
                .get("circles")
                .filter(|c| c.contains("id"))
                .cloned()
                .unwrap_or_default();
            let k = |col: &str, alias: &str| {
                if cols.contains("circle_id") && circles.contains(col) {
                    format!("(SELECT k.{col} FROM circles k WHERE k.id = x.circle_id) AS {alias}")
                } else {
                    format!("NULL AS {alias}")
                }
            };
            let full = if cols.contains("first_name") && cols.contains("last_name") {
                "NULLIF(TRIM(COALESCE(x.first_name, '') || ' ' || COALESCE(x.last_name, '')), '')"
            } else {
                "NULL"
            };
            let sql = format!(
                "SELECT x.rowid AS rid, x.id AS member_id, 'life360:' || x.id AS qualified, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {full} AS full_name, {}, {}, {} FROM members x WHERE x.id IS NOT NULL AND x.id != '' ORDER BY x.rowid",
                c("created_at", "created"),
                c("last_updated", "updated"),
                c("first_name", "first"),
                c("last_name", "last"),
                c("login_email", "email"),
                c("login_phone", "phone"),
                c("avatar", "avatar"),
                c("is_admin", "admin"),
                c("role", "role"),
                c("circle_id", "circle_id"),
                k("name", "circle"),
                k("created_at", "circle_created"),
                k("last_updated", "circle_updated"),
            );
            let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
                return Ok(());
            };
            note_pages_cap(ctx, &name, &pages, "Life360 members")?;
            record_rows(
                ctx,
                &l.path,
                &l.found,
                &pages,
                &RowPhenomena {
                    table: "members",
                    category: "contacts",
                    what: "a member of a Life360 circle (those who share their positions with the device's user)",
                    title: &|t, row| {
                        format!(
                            "Life360 member {} of {}",
                            or(t, row, "full_name", or(t, row, "member_id", "?")),
                            or(t, row, "circle", "a circle")
                        )
                    },
                    fields: &[
                        ("member_id", FactType::Account, "member id"),
                        ("first", FactType::Name, "first name"),
                        ("last", FactType::Name, "last name"),
                        ("email", FactType::Email, "e-mail"),
                        ("phone", FactType::Phone, "phone"),
                        ("avatar", FactType::Url, "avatar"),
                        ("admin", FactType::Count, "admin"),
                        ("role", FactType::Text, "role"),
                        ("circle", FactType::Name, "circle"),
                        ("circle_id", FactType::Identifier, "circle id"),
                    ],
                    times: &[
                        ("created", "Life360 member created", unix_seconds),
                        ("updated", "Life360 member updated", unix_millis),
                        ("circle_created", "Life360 circle created", unix_seconds),
                        ("circle_updated", "Life360 circle updated", unix_millis),
                    ],
                },
                &mut |inv, t, row| {
                    let q = t.get(row, "qualified").unwrap_or_default().to_string();
                    let who = or(t, row, "full_name", &q).to_string();
                    observe_columns(
                        ctx,
                        &q,
                        &who,
                        t,
                        row,
                        inv,
                        &[
                            ("qualified", IdType::AccountId, "The Life360 member id"),
                            ("email", IdType::Email, "The login e-mail"),
                            ("phone", IdType::Phone, "The login phone"),
                            ("full_name", IdType::DisplayName, "The name"),
                        ],
                        &|what| {
                            format!(
                                "{what} of {who}, a member of a Life360 circle (members of MembersEngineRoomDatabase)."
                            )
                        },
                    )
                },
            )
        }
        "messaging.db" => {
            let names = schema
                .get("thread_participant")
                .is_some_and(|p| p.contains("participant_id") && p.contains("participant_name"));
            let sender_name = if names && cols.contains("sender_id") {
                "(SELECT p.participant_name FROM thread_participant p WHERE p.participant_id = x.sender_id LIMIT 1)"
            } else {
                "NULL"
            };
            let sender = if cols.contains("sender_id") {
                "CASE WHEN x.sender_id IS NOT NULL AND x.sender_id != '' THEN 'life360:' || x.sender_id END"
            } else {
                "NULL"
            };
            let sql = format!(
                "SELECT x.rowid AS rid, x.created_at AS created, {}, {}, {sender} AS sender, {sender_name} AS sender_name, {}, {}, {}, {}, {}, {}, {}, {}, {}, {} FROM message x ORDER BY x.rowid",
                c("thread_id", "thread"),
                c("sender_id", "sender_id"),
                c("content", "text"),
                c("sent", "sent"),
                c("read", "read"),
                c("dismissed", "dismissed"),
                c("deleted", "deleted"),
                c("has_location", "has_location"),
                c("location_latitude", "latitude"),
                c("location_longitude", "longitude"),
                c("location_name", "place"),
                c("location_timestamp", "located"),
            );
            let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
                return Ok(());
            };
            note_pages_cap(ctx, &name, &pages, "Life360 messages")?;
            for (inv, t, row) in pages.rows() {
                let rid = t.get(row, "rid").unwrap_or("?").to_string();
                let sent = t.get(row, "sent") == Some("1");
                let from = or(
                    t,
                    row,
                    "sender_name",
                    or(t, row, "sender_id", "a sender not stored"),
                )
                .to_string();
                let mut d = Draft::new(
                    "messages",
                    if sent {
                        format!(
                            "Life360 message sent in thread {}",
                            or(t, row, "thread", "?")
                        )
                    } else {
                        format!("Life360 message from {from}")
                    },
                );
                d.fact(FactType::Path, Some(&l.path), &l.found);
                let said = d.fields(
                    t,
                    row,
                    inv,
                    &[
                        ("thread", FactType::Identifier, "thread"),
                        ("sender_id", FactType::Account, "sender id"),
                        ("sender_name", FactType::Name, "sender"),
                        ("text", FactType::Text, "text"),
                        ("sent", FactType::Count, "sent"),
                        ("read", FactType::Count, "read"),
                        ("dismissed", FactType::Count, "dismissed"),
                        ("deleted", FactType::Count, "deleted"),
                        ("has_location", FactType::Count, "has a location"),
                        ("latitude", FactType::Text, "latitude"),
                        ("longitude", FactType::Text, "longitude"),
                        ("place", FactType::Name, "place"),
                    ],
                );
                let at = t.get(row, "created");
                d.message_time(at, unix_seconds(at), sent, inv);
                let located = t.get(row, "located");
                d.time(
                    located,
                    unix_seconds(located),
                    "Life360 message location",
                    inv,
                );
                d.interpretation = format!(
                    "message row {rid} of {}: a Life360 circle message {}: {}; the times are Unix seconds.",
                    l.name(),
                    if sent {
                        "sent by the device's user (sent 1)".to_string()
                    } else {
                        format!("from {from}")
                    },
                    said.join(", ")
                );
                record_draft(ctx, d)?;
                let other = if sent {
                    None
                } else {
                    t.get(row, "sender").map(|s| (s, from.as_str()))
                };
                if let Some(s) = other.map(|(s, _)| s) {
                    observe_columns(
                        ctx,
                        s,
                        &from,
                        t,
                        row,
                        inv,
                        &[
                            ("sender", IdType::AccountId, "The Life360 member id"),
                            ("sender_name", IdType::DisplayName, "The name"),
                        ],
                        &|what| {
                            format!(
                                "{what} of {from}, who sent a Life360 message (message row {rid} of messaging.db)."
                            )
                        },
                    )?;
                }
                if let Some(text) = t.get(row, "text") {
                    crate::identity::claims_by_direction(
                        ctx,
                        inv,
                        text,
                        &format!("Life360 message row {rid} (messaging.db)"),
                        sent,
                        other,
                    )?;
                }
            }
            Ok(())
        }
        "L360LocalStoreRoomDatabase" => {
            let sql = format!(
                "SELECT x.rowid AS rid, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {} FROM places x ORDER BY x.rowid",
                c("place_id", "place_id"),
                c("circle_id", "circle_id"),
                c("name", "name"),
                c("latitude", "latitude"),
                c("longitude", "longitude"),
                c("radius", "radius"),
                c("source", "source"),
                c("source_id", "source_id"),
                c("owner_id", "owner_id"),
                c("has_alerts", "alerts"),
                c("website", "website"),
                c("types", "types"),
                c("category", "category"),
            );
            if let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? {
                note_pages_cap(ctx, &name, &pages, "Life360 places")?;
                record_rows(
                    ctx,
                    &l.path,
                    &l.found,
                    &pages,
                    &RowPhenomena {
                        table: "places",
                        category: "locations",
                        what: "a place saved in a Life360 circle",
                        title: &|t, row| {
                            format!("Life360 place {}", or(t, row, "name", "not named"))
                        },
                        fields: &[
                            ("place_id", FactType::Identifier, "place id"),
                            ("circle_id", FactType::Identifier, "circle"),
                            ("name", FactType::Name, "name"),
                            ("latitude", FactType::Text, "latitude"),
                            ("longitude", FactType::Text, "longitude"),
                            ("radius", FactType::Count, "radius as stored"),
                            ("source", FactType::Text, "source"),
                            ("source_id", FactType::Identifier, "source id"),
                            ("owner_id", FactType::Account, "owner"),
                            ("alerts", FactType::Count, "has alerts"),
                            ("website", FactType::Url, "website"),
                            ("types", FactType::Text, "types"),
                            ("category", FactType::Text, "category"),
                        ],
                        times: &[],
                    },
                    &mut |_, _, _| Ok(()),
                )?;
            }
            if let Some(a) = schema.get("place_alerts").filter(|a| !a.is_empty()) {
                let p = |col: &str, alias: &str| column_or_null(a, "x.", col, alias);
                let place = |col: &str| {
                    if a.contains("place_id") && cols.contains("place_id") && cols.contains(col) {
                        format!("(SELECT p.{col} FROM places p WHERE p.place_id = x.place_id)")
                    } else {
                        "NULL".into()
                    }
                };
                let sql = format!(
                    "SELECT x.rowid AS rid, {}, {}, {}, {}, {}, {}, {} AS latitude, {} AS longitude FROM place_alerts x ORDER BY x.rowid",
                    p("place_id", "place_id"),
                    p("circle_id", "circle_id"),
                    p("member_id", "member_id"),
                    p("name", "name"),
                    p("arrive", "arrive"),
                    p("leave", "leave"),
                    place("latitude"),
                    place("longitude"),
                );
                if let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? {
                    note_pages_cap(ctx, &name, &pages, "Life360 place alerts")?;
                    record_rows(
                        ctx,
                        &l.path,
                        &l.found,
                        &pages,
                        &RowPhenomena {
                            table: "place_alerts",
                            category: "contacts",
                            what: "an alert set on a Life360 place: whose arrivals and departures are reported",
                            title: &|t, row| {
                                format!(
                                    "Life360 place alert {} for member {}",
                                    or(t, row, "name", "?"),
                                    or(t, row, "member_id", "?")
                                )
                            },
                            fields: &[
                                ("place_id", FactType::Identifier, "place id"),
                                ("circle_id", FactType::Identifier, "circle"),
                                ("member_id", FactType::Account, "member"),
                                ("name", FactType::Name, "place"),
                                ("arrive", FactType::Count, "arrive alert"),
                                ("leave", FactType::Count, "leave alert"),
                                ("latitude", FactType::Text, "latitude"),
                                ("longitude", FactType::Text, "longitude"),
                            ],
                            times: &[],
                        },
                        &mut |_, _, _| Ok(()),
                    )?;
                }
            }
            Ok(())
        }
        "L360EventStore.db" => {
            let j =
                |path: &str, alias: &str| format!("json_extract(x.data, '$.{path}') AS {alias}");
            let version = if cols.contains("eventVersion") {
                " AND x.eventVersion = 5"
            } else {
                ""
            };
            let id = if cols.contains("id") {
                "x.id"
            } else {
                "x.rowid"
            };
            let sql = format!(
                "SELECT x.rowid AS rid, {id} AS event_id, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {} FROM event x WHERE json_valid(x.data) AND json_extract(x.data, '$.tag') = 'BLE'{version} ORDER BY x.rowid",
                j("locationData.time", "at"),
                j("locationData.latitude", "latitude"),
                j("locationData.longitude", "longitude"),
                j("locationData.altitude", "altitude"),
                j("locationData.speed", "speed"),
                j("locationData.course", "course"),
                j("locationData.bearing", "bearing"),
                j("locationData.verticalAccuracy", "vertical"),
                j("locationData.horizontalAccuracy", "horizontal"),
                j("metaData.lmode", "mode"),
                j("metaData.battery", "battery"),
                j("metaData.chargingState", "charging"),
                j("metaData.wifiData.connectedAccessPoint.bssid", "bssid"),
                // the SSID without the quotes Android keeps around it, as ALEAPP shows it
                "replace(json_extract(x.data, '$.metaData.wifiData.connectedAccessPoint.ssid'), '\"', '') AS ssid",
            );
            let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
                return Ok(());
            };
            note_pages_cap(ctx, &name, &pages, "Life360 positions")?;
            record_rows(
                ctx,
                &l.path,
                &l.found,
                &pages,
                &RowPhenomena {
                    table: "event",
                    category: "locations",
                    what: "a position of the device Life360 recorded (a BLE event), with its battery and Wi-Fi state",
                    title: &|t, row| {
                        format!(
                            "Life360 position {}, {}",
                            or(t, row, "latitude", "?"),
                            or(t, row, "longitude", "?")
                        )
                    },
                    fields: &[
                        ("event_id", FactType::Identifier, "event"),
                        ("latitude", FactType::Text, "latitude"),
                        ("longitude", FactType::Text, "longitude"),
                        ("altitude", FactType::Text, "altitude"),
                        ("speed", FactType::Text, "speed as stored"),
                        ("course", FactType::Text, "course"),
                        ("bearing", FactType::Text, "bearing"),
                        ("vertical", FactType::Text, "vertical accuracy as stored"),
                        (
                            "horizontal",
                            FactType::Text,
                            "horizontal accuracy as stored",
                        ),
                        ("mode", FactType::Text, "location mode"),
                        ("battery", FactType::Count, "battery %"),
                        ("charging", FactType::Text, "charging"),
                        ("bssid", FactType::Identifier, "access point BSSID"),
                        ("ssid", FactType::Name, "access point SSID"),
                    ],
                    times: &[("at", "Device located (Life360)", unix_millis)],
                },
                &mut |_, _, _| Ok(()),
            )
        }
        _ => {
            let sql = "SELECT x.rowid AS rid, x.key AS key, x.value AS value, CASE WHEN x.key = 'user_id' AND x.value IS NOT NULL AND x.value != '' THEN 'life360:' || x.value END AS qualified FROM store x ORDER BY x.rowid";
            let Some(pages) = pages_on(ctx, &l.tree, &l.path, sql)? else {
                return Ok(());
            };
            note_pages_cap(ctx, &name, &pages, "Life360 analytics keys")?;
            let mut d = Draft::new("accounts", "Life360 analytics store");
            d.fact(FactType::Path, Some(&l.path), &l.found);
            let mut said = Vec::new();
            let mut owner = None;
            for (inv, t, row) in pages.rows() {
                for col in ["key", "value"] {
                    d.fact(FactType::Text, raw(t, row, col).as_deref(), inv);
                }
                said.push(format!(
                    "{} {}",
                    or(t, row, "key", "?"),
                    or(t, row, "value", "")
                ));
                if t.get(row, "qualified").is_some() {
                    owner = Some((inv.clone(), t.clone(), row.to_vec()));
                }
            }
            d.interpretation = format!(
                "store of {}: Life360's analytics store (Amplitude), {} keys: {}.",
                l.name(),
                said.len(),
                said.join(", ")
            );
            record_draft(ctx, d)?;
            if let Some((inv, t, row)) = owner {
                observe_columns(
                    ctx,
                    "owner",
                    "device owner",
                    &t,
                    &row,
                    &inv,
                    &[("qualified", IdType::AccountId, "The Life360 member id")],
                    &|what| {
                        format!(
                            "{what} of the device's user: the user_id of Life360's analytics store (com.amplitude.api)."
                        )
                    },
                )?;
            }
            Ok(())
        }
    }
}
