//! Uber (`com.ubercab.UberClient`): iLEAPP's `uberPlaces` (`uber_places`, "Uber - Places") and
//! the readable stores of its `uberClient` (`uber_cached_locations`, `uber_searched_rides`,
//! `uber_ur_locations`, `uber_account`, `uber_user_address`): the places the rider app cached,
//! the searches that picked them, where the phone was as the app's analytics log kept it, and
//! the account signed in.
//!
//! | store / table | phenomenon | fields |
//! |---|---|---|
//! | `Documents/database.db` `place` | one `locations` per place ("Uber place <title> (<subtitle>)") | title, subtitle, tag, latitude and longitude (`latitude`, else `latitude_v2`: coalesced in the query), historical, Uber id, the row's time (`timestamp_ms`, seconds or milliseconds, read by its size), from `place_result` (JSON, read in the query): the saved place's id and label (`HOME`, `WORK`), first address line and full address, categories, provider, distance, the access point's use, distance to target and trip count, when a vehicle was last used there (Unix ms or ISO 8601); how many hits picked it |
//! | `Documents/database.db` `hits` (with its `place`) | one `locations` per hit ("Uber search hit <id>: <title>") | when (`timestamp_ms`, by its size), the place's id, title, subtitle, tag and position |
//! | `Documents/ur_message.db` `message` | one `locations` per store ("Uber analytics messages with locations in <path> (summary)") | messages, messages with a position, the first and last position with their times (`meta.time_ms`, Unix ms), the cities named — summarised in the query, not one phenomenon per point |
//! | `Library/Application Support/PersistentStorage/BootstrapStore/RealtimeRider.StreamModelKey/` `client`, `city`, `clientStatus`, `targetLocationSynced` (`read_json`) | one `accounts` ("Uber account <e-mail>") | first and last name, mobile digits and their country, e-mail, referral code, picture URL, profile type, user UUID (and `uber:<UUID>`, qualified by the tool), last payment profile UUID; the city's id, name, currency and time zone; the client status's last change (Unix ms); the target location synced (latitude, longitude) |
//! | the same folder's `eyeball` | one `locations` ("Uber reverse-geocoded address <address>") | latitude, longitude, address, id |
//!
//! `database.db` is a generic name: a store is Uber's when its `place` table has Uber's
//! `title_segment` (as iLEAPP tests for `place`), wherever it is; one in a container known as
//! Uber's — FrontBoard's application state names `com.ubercab.UberClient` for it, or it holds
//! `Documents/ur_message.db` or the `RealtimeRider.StreamModelKey` folder — that cannot be read
//! or lacks the table is noted; another app's `database.db` is neither read nor noted. A
//! place is one the app showed or the user saved, searched or rode to (the tag and label say
//! which, `historical` marks past trips' places), not a position of the phone; a hit is a
//! search result the user picked. The analytics messages carry the phone's position when the
//! app logged an event; the reverse-geocoded address is what Uber's servers named the
//! phone's position when the app last refreshed. Columns and members are taken by name
//! (absent ones NULL: older stores lack `latitude`/`longitude`, `historical`, `hits`); a
//! `place_result` or `content` that is no JSON leaves its members out; a file that is no JSON
//! is noted. Not read: the nearby vehicles of `eyeball` (other cars' positions), the payment
//! profiles (card data), and the `__METADATA` LevelDB (binary property lists).
//!
//! Identities: the account is the device's user's (`owner`): its e-mail and `uber:<UUID>`;
//! the mobile digits are a fact only (stored without their country code).

use std::collections::{BTreeMap, BTreeSet};

use masf_agents::RuntimeError;
use masf_graph::{FactType, IdType, TimeEncoding};
use masf_tools::Invoked;
use serde_json::{Value, json};

use super::{Draft, Run, container_of, file_name};
use crate::calls::{column_expr, json_at, require_columns, select_columns};
use crate::drafts::{date_text, unix_by_magnitude, unix_millis};
use crate::outputs::{Table, columns_by_table, found_paths, json_document, json_scalar, raw};

/// Uber's bundle id.
pub const BUNDLE: &str = "com.ubercab.UberClient";
const PLACE: &str = "place";
const HITS: &str = "hits";
/// The folder of the rider app's JSON state files.
pub const RIDER: &str = "RealtimeRider.StreamModelKey";
/// The JSON files of that folder read.
const RIDER_FILES: [&str; 5] = [
    "client",
    "city",
    "clientStatus",
    "targetLocationSynced",
    "eyeball",
];

/// Tables and their columns.
type Columns = BTreeMap<String, BTreeSet<String>>;

/// Triage of every Uber store of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    // the containers known as Uber's: FrontBoard's, and those holding Uber's own files
    let mut uber: BTreeSet<String> = run
        .containers
        .borrow()
        .iter()
        .filter(|(bundle, _, _)| bundle == BUNDLE)
        .map(|(_, c, _)| c.clone())
        .collect();
    let ur = run.find("ur_message.db")?;
    let ur_paths: Vec<String> = ur
        .as_ref()
        .map(|(_, p)| {
            p.iter()
                .filter(|p| p.ends_with("/Documents/ur_message.db"))
                .cloned()
                .collect()
        })
        .unwrap_or_default();
    let rider: Vec<String> = run
        .find_dirs(RIDER)?
        .map(|(_, d)| {
            d.into_iter()
                .filter(|d| d.ends_with(&format!("/BootstrapStore/{RIDER}")))
                .collect()
        })
        .unwrap_or_default();
    uber.extend(
        ur_paths
            .iter()
            .chain(rider.iter())
            .filter_map(|p| container_of(p))
            .map(str::to_string),
    );
    run.each("database.db", |find, path| {
        if path.ends_with("/Documents/database.db") {
            let known = container_of(path).is_some_and(|c| uber.contains(c));
            places_store(run, find, path, known)
        } else {
            Ok(())
        }
    })?;
    if let Some((find, _)) = &ur {
        for p in &ur_paths {
            analytics(run, find, p)?;
        }
    }
    for dir in &rider {
        rider_state(run, dir)?;
    }
    Ok(())
}

/// The columns of `place` and `hits`: through [`Run::query`] (a failure noted) for a store in
/// an Uber container, else by a call whose failure is not noted (another app's store).
fn tables(run: &Run<'_, '_>, path: &str, known: bool) -> Result<Option<Columns>, RuntimeError> {
    let sql = format!(
        "SELECT m.name AS tbl, p.name AS col FROM sqlite_master m JOIN pragma_table_info(m.name) p WHERE m.type = 'table' AND m.name IN ('{PLACE}', '{HITS}') ORDER BY m.name, p.cid"
    );
    let t = if known {
        run.query(path, &sql, 10_000)?.map(|(_, t)| t)
    } else {
        let inv = run.ctx.call(
            "sqlite_query",
            json!({"path": path, "sql": sql, "limit": 10_000}),
        )?;
        crate::calls::succeeded(&inv).then(|| Table::parse(&inv.output.text))
    };
    Ok(t.map(|t| columns_by_table(&t)))
}

fn places_store(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    known: bool,
) -> Result<(), RuntimeError> {
    let Some(cols) = tables(run, path, known)? else {
        return Ok(());
    };
    let Some(place) = cols.get(PLACE).filter(|c| c.contains("title_segment")) else {
        if known {
            run.ctx.unparsed(
                path,
                "could not parse Uber's places because database.db in Uber's container has no place table with title_segment",
                None,
            )?;
        }
        return Ok(());
    };
    let what = "Uber's places";
    if !require_columns(run.ctx, path, what, PLACE, place, &["_id"])? {
        return Ok(());
    }
    let hits = cols
        .get(HITS)
        .filter(|h| h.contains("_id") && h.contains("fk_place_row_id"));
    places(run, find, path, place, hits.is_some())?;
    if hits.is_some() {
        search_hits(run, find, path, &cols)?;
    }
    Ok(())
}

/// `COALESCE(<alias>.latitude, <alias>.latitude_v2)` (and longitude) over the columns a
/// `place` table has.
fn position(place: &BTreeSet<String>, alias: &str) -> (String, String) {
    let c = |col: &str| column_expr(place, &format!("{alias}."), col);
    (
        format!("COALESCE({}, {})", c("latitude"), c("latitude_v2")),
        format!("COALESCE({}, {})", c("longitude"), c("longitude_v2")),
    )
}

/// The encoding of a "last used" time: a number is Unix milliseconds, a text ISO 8601.
fn last_used_encoding(v: Option<&str>) -> Option<TimeEncoding> {
    match v?.trim().parse::<f64>() {
        Ok(_) => unix_millis(v),
        Err(_) => date_text(v),
    }
}

fn places(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    place: &BTreeSet<String>,
    hits: bool,
) -> Result<(), RuntimeError> {
    let json = place.contains("place_result");
    let j = |p: &str| {
        if json {
            json_at("p.place_result", p)
        } else {
            "NULL".into()
        }
    };
    let categories = if json {
        "CASE WHEN json_valid(p.place_result) AND json_type(p.place_result, '$.location.categories') = 'array' THEN (SELECT group_concat(e.value, ', ') FROM json_each(p.place_result, '$.location.categories') e) END".to_string()
    } else {
        "NULL".into()
    };
    let picked = if hits {
        format!("(SELECT count(*) FROM {HITS} h WHERE h.fk_place_row_id = p._id)")
    } else {
        "NULL".into()
    };
    let (lat, lon) = position(place, "p");
    let sql = format!(
        "SELECT p._id AS pk, {}, {lat} AS latitude, {lon} AS longitude, {} AS personal_id, {} AS label, {} AS address_line, {} AS address, {categories} AS categories, {} AS provider, {} AS distance_m, {} AS usage, {} AS distance_to_target, {} AS trips, {} AS last_used, {picked} AS hits FROM {PLACE} p",
        select_columns(
            place,
            "p.",
            &[
                ("title_segment", "title"),
                ("subtitle_segment", "subtitle"),
                ("tag", "tag"),
                ("historical", "historical"),
                ("uber_id", "uber_id"),
                ("timestamp_ms", "time"),
            ],
        ),
        j("$.payload.personalPayload.id"),
        j("$.payload.personalPayload.labelType"),
        j("$.location.addressLine1"),
        j("$.location.fullAddress"),
        j("$.location.provider"),
        j("$.payload.locationPayload.distanceMeters"),
        j("$.location.accessPoints[0].usage"),
        j("$.location.accessPoints[0].attachments.distance_to_target"),
        j("$.location.accessPoints[0].attachments.tripCount"),
        j("$.payload.personalPreferencesPayload.preferredVehicles[0].lastUsedTimeMillis"),
    );
    let Some(paged) = run.paged(path, &sql, "pk")? else {
        return Ok(());
    };
    let file = file_name(path);
    for (inv, t, row) in paged.rows() {
        let get = |c: &str| raw(t, row, c).filter(|v| !v.is_empty());
        let mut d = Draft::new(
            "locations",
            format!(
                "Uber place {}{}",
                get("title")
                    .or_else(|| get("address"))
                    .unwrap_or_else(|| "without a title".into()),
                get("subtitle")
                    .map(|s| format!(" ({s})"))
                    .unwrap_or_default()
            ),
        );
        d.fact(FactType::Path, Some(path), find);
        let said = d.fields(
            t,
            row,
            inv,
            &[
                ("title", FactType::Name, "title"),
                ("subtitle", FactType::Text, "subtitle"),
                ("tag", FactType::Text, "tag"),
                ("latitude", FactType::Text, "latitude"),
                ("longitude", FactType::Text, "longitude"),
                ("historical", FactType::Text, "historical"),
                ("uber_id", FactType::Identifier, "Uber id"),
                ("personal_id", FactType::Identifier, "saved place id"),
                ("label", FactType::Text, "label"),
                ("address_line", FactType::Text, "address line"),
                ("address", FactType::Text, "full address"),
                ("categories", FactType::Text, "categories"),
                ("provider", FactType::Text, "provider"),
                ("distance_m", FactType::Text, "distance (m)"),
                ("usage", FactType::Text, "access point use"),
                ("distance_to_target", FactType::Text, "distance to target"),
                ("trips", FactType::Count, "trips"),
                ("hits", FactType::Count, "search hits"),
            ],
        );
        let at = t.get(row, "time");
        d.time(at, unix_by_magnitude(at), "Uber place row time", inv);
        let used = t.get(row, "last_used");
        d.time(
            used,
            last_used_encoding(used),
            "Uber vehicle last used for the place",
            inv,
        );
        d.interpretation = format!(
            "place _id {} of {file}: a place the Uber app cached ({}); the tag and label say whether the user saved it, searched it or rode there (historical 1 marks a past trip's place); the position is the place's, not the phone's. timestamp_ms{} is read by its size (seconds or milliseconds: the app writes both); the vehicle's last use is Unix ms or ISO 8601 as stored.",
            t.get(row, "pk").unwrap_or("?"),
            said.join(", "),
            at.map(|a| format!(" {a}")).unwrap_or_default(),
        );
        run.record(d)?;
    }
    crate::calls::note_pages_cap(run.ctx, path, &paged, "Uber places")
}

fn search_hits(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    cols: &Columns,
) -> Result<(), RuntimeError> {
    let empty = BTreeSet::new();
    let place = cols.get(PLACE).unwrap_or(&empty);
    let h = cols.get(HITS).unwrap_or(&empty);
    let (lat, lon) = position(place, "p");
    let sql = format!(
        "SELECT h._id AS pk, h.fk_place_row_id AS place_id, {}, {}, {lat} AS latitude, {lon} AS longitude FROM {HITS} h LEFT JOIN {PLACE} p ON p._id = h.fk_place_row_id",
        select_columns(h, "h.", &[("timestamp_ms", "time")]),
        select_columns(
            place,
            "p.",
            &[
                ("title_segment", "title"),
                ("subtitle_segment", "subtitle"),
                ("tag", "tag")
            ],
        ),
    );
    let Some(paged) = run.paged(path, &sql, "pk")? else {
        return Ok(());
    };
    let file = file_name(path);
    for (inv, t, row) in paged.rows() {
        let pk = t.get(row, "pk").unwrap_or("?");
        let mut d = Draft::new(
            "locations",
            format!(
                "Uber search hit {pk}: {}",
                raw(t, row, "title")
                    .filter(|s| !s.is_empty())
                    .unwrap_or_else(|| "a place not stored".into())
            ),
        );
        d.fact(FactType::Path, Some(path), find);
        let said = d.fields(
            t,
            row,
            inv,
            &[
                ("place_id", FactType::Identifier, "place _id"),
                ("title", FactType::Name, "title"),
                ("subtitle", FactType::Text, "subtitle"),
                ("tag", FactType::Text, "tag"),
                ("latitude", FactType::Text, "latitude"),
                ("longitude", FactType::Text, "longitude"),
            ],
        );
        let at = t.get(row, "time");
        d.time(at, unix_by_magnitude(at), "Uber search hit", inv);
        d.interpretation = format!(
            "hits _id {pk} of {file}: a place the user picked from the Uber app's search ({}); interest in going there, not that a ride was taken; timestamp_ms is read by its size.",
            said.join(", "),
        );
        run.record(d)?;
    }
    crate::calls::note_pages_cap(run.ctx, path, &paged, "Uber search hits")
}

/// The analytics log (`ur_message.db`): one summary of the positions it holds.
fn analytics(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let Some(schema) = run.schema(path, &["message"])? else {
        return Ok(());
    };
    if !schema.require(run, "message", &["content"])? {
        return Ok(());
    }
    let m = |p: &str| json_at("content", &format!("$.jsonConformingObject.meta.{p}"));
    let sql = format!(
        "WITH q AS (SELECT rowid AS id, {} AS t, {} AS lat, {} AS lng, {} AS city FROM message), \
l AS (SELECT * FROM q WHERE lat IS NOT NULL AND lng IS NOT NULL AND t IS NOT NULL) \
SELECT (SELECT count(*) FROM q) AS total, (SELECT count(*) FROM l) AS located, \
(SELECT t FROM l ORDER BY t, id LIMIT 1) AS first_time, (SELECT lat FROM l ORDER BY t, id LIMIT 1) AS first_latitude, (SELECT lng FROM l ORDER BY t, id LIMIT 1) AS first_longitude, \
(SELECT t FROM l ORDER BY t DESC, id DESC LIMIT 1) AS last_time, (SELECT lat FROM l ORDER BY t DESC, id DESC LIMIT 1) AS last_latitude, (SELECT lng FROM l ORDER BY t DESC, id DESC LIMIT 1) AS last_longitude, \
(SELECT group_concat(city, ', ') FROM (SELECT DISTINCT city FROM l WHERE city IS NOT NULL AND city != '' ORDER BY city)) AS cities",
        m("time_ms"),
        m("location.latitude"),
        m("location.longitude"),
        m("location.city"),
    );
    let Some((inv, t)) = run.query(path, &sql, 1)? else {
        return Ok(());
    };
    let Some(row) = t.rows.first() else {
        return Ok(());
    };
    let mut d = Draft::new(
        "locations",
        format!("Uber analytics messages with locations in {path} (summary)"),
    );
    d.fact(FactType::Path, Some(path), find);
    let said = d.fields(
        &t,
        row,
        &inv,
        &[
            ("total", FactType::Count, "messages"),
            ("located", FactType::Count, "with a position"),
            ("first_latitude", FactType::Text, "first latitude"),
            ("first_longitude", FactType::Text, "first longitude"),
            ("last_latitude", FactType::Text, "last latitude"),
            ("last_longitude", FactType::Text, "last longitude"),
            ("cities", FactType::Text, "cities"),
        ],
    );
    d.times_of(
        &t,
        row,
        &inv,
        unix_millis,
        &[
            ("first_time", "Uber analytics first position logged"),
            ("last_time", "Uber analytics last position logged"),
        ],
    );
    d.interpretation = format!(
        "{path}: the Uber app's analytics messages ({}); each located message carries where the phone was when the app logged an event (meta.location, at meta.time_ms in Unix ms), summarised here by the first and last position and the cities rather than recorded point by point.",
        said.join(", "),
    );
    run.record(d)
}

/// The JSON state files of one `RealtimeRider.StreamModelKey` folder.
fn rider_state(run: &Run<'_, '_>, dir: &str) -> Result<(), RuntimeError> {
    let Some(list) = crate::calls::call_or_note(
        run.ctx,
        dir,
        "find_files",
        json!({"path": dir, "name_globs": RIDER_FILES, "limit": 100}),
    )?
    else {
        return Ok(());
    };
    let found: BTreeMap<String, String> = found_paths(&list.output.text)
        .into_iter()
        .filter_map(|p| {
            let name = p.strip_prefix(dir)?.strip_prefix('/')?;
            (!name.contains('/')).then(|| (name.to_string(), p.clone()))
        })
        .collect();
    let read = |name: &str,
                args: Value|
     -> Result<Option<(String, Invoked, Value)>, RuntimeError> {
        let Some(path) = found.get(name) else {
            return Ok(None);
        };
        let mut args = args;
        args["path"] = Value::from(path.as_str());
        let Some(inv) = crate::calls::call_or_note(run.ctx, path, "read_json", args)? else {
            return Ok(None);
        };
        match json_document(&inv.output.text).filter(Value::is_object) {
            Some(doc) => Ok(Some((path.clone(), inv, doc))),
            None => {
                run.ctx.unparsed(
                    path,
                    &format!("could not parse Uber's {name} file because it holds no JSON object"),
                    Some(&inv.record.invocation_id),
                )?;
                Ok(None)
            }
        }
    };
    if let Some(client) = read("client", json!({"qualify": {"uuid": "uber"}}))? {
        let others = [
            read("city", json!({}))?,
            read("clientStatus", json!({}))?,
            read("targetLocationSynced", json!({}))?,
        ];
        account(run, &list, &client, &others)?;
    }
    if let Some((path, inv, doc)) = read("eyeball", json!({}))?
        && let Some(r) = doc.get("reverseGeocode").filter(|r| r.is_object())
    {
        let address = json_scalar(r.get("longAddress"));
        let mut d = Draft::new(
            "locations",
            format!(
                "Uber reverse-geocoded address {}",
                address.as_deref().unwrap_or("not stored")
            ),
        );
        d.fact(FactType::Path, Some(&path), &list);
        let said = d.json_fields(
            r,
            &inv,
            &[
                ("longAddress", FactType::Text, "address"),
                ("latitude", FactType::Text, "latitude"),
                ("longitude", FactType::Text, "longitude"),
                ("uuid", FactType::Identifier, "id"),
            ],
        );
        d.interpretation = format!(
            "reverseGeocode of Uber's eyeball file ({}): the address Uber's servers gave for the phone's position when the rider app last refreshed its view of nearby vehicles; the file keeps no time for it. The nearby vehicles' paths of the same file (other cars) are not read.",
            said.join(", ")
        );
        run.record(d)?;
    }
    Ok(())
}

/// A JSON file read: its path, the call and the document.
type Read = (String, Invoked, Value);

/// The account of the `client` file, with the city, status and target location files.
fn account(
    run: &Run<'_, '_>,
    list: &Invoked,
    (path, inv, doc): &Read,
    [city, status, target]: &[Option<Read>; 3],
) -> Result<(), RuntimeError> {
    let s = |k: &str| json_scalar(doc.get(k));
    let (email, first, last, uuid) = (s("email"), s("firstName"), s("lastName"), s("uuid"));
    let shown = email
        .clone()
        .or_else(|| match (&first, &last) {
            (Some(f), Some(l)) => Some(format!("{f} {l}")),
            (f, l) => f.clone().or_else(|| l.clone()),
        })
        .or_else(|| uuid.clone())
        .unwrap_or_else(|| "not named".into());
    let mut d = Draft::new("accounts", format!("Uber account {shown}"));
    d.fact(FactType::Path, Some(path), list);
    let mut said = d.json_fields(
        doc,
        inv,
        &[
            ("firstName", FactType::Name, "first name"),
            ("lastName", FactType::Name, "last name"),
            ("email", FactType::Email, "e-mail"),
            ("mobileDigits", FactType::Phone, "mobile digits"),
            ("mobileCountryIso2", FactType::Text, "mobile country"),
            ("referralCode", FactType::Text, "referral code"),
            ("pictureUrl", FactType::Url, "picture URL"),
            ("profileType", FactType::Text, "profile type"),
            ("uuid", FactType::Account, "user UUID"),
            ("uuid.qualified", FactType::Account, "qualified id"),
            (
                "lastSelectedPaymentProfileUUID",
                FactType::Identifier,
                "last payment profile",
            ),
        ],
    );
    if let Some((p, i, c)) = city {
        d.fact(FactType::Path, Some(p), list);
        said.extend(d.json_fields(
            c,
            i,
            &[
                ("cityId", FactType::Identifier, "city id"),
                ("cityName", FactType::Name, "city"),
                ("currencyCode", FactType::Text, "currency"),
                ("timezone", FactType::Text, "time zone"),
            ],
        ));
    }
    if let Some((p, i, c)) = status {
        d.fact(FactType::Path, Some(p), list);
        let at = json_scalar(c.get("meta").and_then(|m| m.get("lastModifiedTimeMs")));
        d.time(
            at.as_deref(),
            unix_millis(at.as_deref()),
            "Uber client status last changed",
            i,
        );
    }
    if let Some((p, i, c)) = target {
        d.fact(FactType::Path, Some(p), list);
        said.extend(d.json_fields(
            c,
            i,
            &[
                ("latitude", FactType::Text, "target latitude"),
                ("longitude", FactType::Text, "target longitude"),
            ],
        ));
    }
    d.interpretation = format!(
        "{}: the Uber account signed in to the rider app, the device's user ({}); the mobile digits are stored without their country code; the target location is the position the app last synced as its target (a pickup or destination), not necessarily the phone's; the status time is Unix ms.",
        file_name(path),
        said.join(", "),
    );
    run.record(d)?;
    let qualified = s("uuid.qualified");
    let why = |what: &str| format!("The {what} of the Uber account signed in to the rider app.");
    run.observe_person(
        "owner",
        "device owner",
        inv,
        &why,
        &[
            (IdType::Email, email.as_deref(), "e-mail"),
            (
                IdType::AccountId,
                qualified.as_deref(),
                "user UUID (qualified by read_json)",
            ),
        ],
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_and_times() {
        let cols: BTreeSet<String> = ["latitude_v2".to_string(), "longitude".to_string()].into();
        assert_eq!(
            position(&cols, "p"),
            (
                "COALESCE(NULL, p.latitude_v2)".to_string(),
                "COALESCE(p.longitude, NULL)".to_string()
            )
        );
        assert_eq!(
            last_used_encoding(Some("1717001234567")),
            Some(TimeEncoding::UnixMillis)
        );
        assert_eq!(
            last_used_encoding(Some("2024-05-29T10:15:00Z")),
            Some(TimeEncoding::Iso8601)
        );
        assert_eq!(last_used_encoding(Some("x")), None);
    }
}
