//! United Airlines (`UnitediPhoneCoreData.sqlite`, a Core Data store of the app's container or
//! of its app group `group.com.united.UnitedCustomerFacingIPhone`), iLEAPP's `united_airlines`
//! (`united_account`, `united_saved_travelers`, `united_trips`, `united_trip_passengers`,
//! `united_boarding_passes`, `united_booking_searches`, `united_flight_status_searches`): who
//! the MileagePlus member is, with whom and where they flew or meant to fly.
//!
//! | table | phenomenon | fields |
//! |---|---|---|
//! | `ZUACDUSER` | one `accounts` per row ("United MileagePlus account <number> (<name>)") | title, first, middle and last name, MileagePlus number, elite status and its code, mileage balance, million-miler indicator, Star Alliance status, club member, club and its expiry (as written), Known Traveler Number (`ZSAVEDTRAVELERSJSON`'s `ktnNumber`), birth date (as written), customer id, billing country, last login (Cocoa seconds) |
//! | `ZUACDUSER.ZSAVEDTRAVELERSJSON` (`simplifiedTravelers`) | one `contacts` per saved traveller ("United saved traveler <name>") | first and last name, prefix, birth date, age, passenger type, profile owner, traveller key |
//! | `ZUACDWALLETRESERVATION`, `ZUACDWALLETPASTRESERVATION` | one `locations` per trip ("United trip <locator>: <origin> to <destination>", active or past) | record locator (else the `ZJSON`'s `recordLocator` or `pnr.uaRecordLocator`), traveller's name, origin and destination with their cities, flight date and trip dates (as written), carrier, number of travellers, MileagePlus account, check-in eligible, irregular operations, sort date and last refreshed (Cocoa seconds) |
//! | their `ZJSON` (`pnr.passengers`, else `passengers`) | one `contacts` per passenger ("United passenger <name> (trip <locator>)") | the trip, name (title, first, middle, last, suffix), birth date, traveller type, MileagePlus id, Known Traveler Number, redress number, profile owner |
//! | `ZUACDWALLETRESERVATIONSEGMENT`, `ZUACDWALLETPASTRESERVATIONSEGMENT` | one `locations` per flight of a trip ("United flight <number> <origin> to <destination> (<locator>)") | record locator (the trip's where the segment has none), origin, destination, scheduled departure, displayed departure and arrival (as written), flight and trip numbers, seats, sort date and last refreshed (Cocoa seconds) |
//! | `ZUACDWALLETMBP` | one `locations` per mobile boarding pass ("United boarding pass <flight> <origin> to <destination>: <passenger>") | record locator, passenger's name, MileagePlus number, birth date (`dob=` of `ZADDITIONALDATA`, cut out in the query), flight, origin and destination with their cities, flight date, departure, arrival, boarding and boarding-end times (as written), gate, terminal, seat, leg status, premier status, TSA PreCheck, OnePass, sequence number, cabin, sort date and last refreshed (Cocoa seconds) |
//! | `ZUACDBOOKINGRECENTSEARCH` | one `locations` per flight search ("United flight search <origin> to <destination>") | origin, destination, departure and return dates, when it was searched (Cocoa seconds), award travel, tag, travellers, cabin, point-of-sale country |
//! | `ZUACDFLIFORECENTSEARCH` | one `locations` per flight-status look-up ("United flight status <carrier><number> <origin> to <destination>") | carrier, flight number, origin and destination with their names, scheduled departure and arrival, last updated, expiry (Cocoa seconds), type |
//!
//! A trip, flight or boarding pass says where the member (or a companion booked with them)
//! meant to be, not that they flew (said); a search or look-up is interest only. Each table is
//! read when present, its columns by name (absent ones NULL; older stores keep past trips'
//! names as `ZFIRSTNAME`/`ZLASTNAME`, `ZFLIGHTDATE` for `ZFLIGHTDATESTR`); JSON is read in the
//! query (`json_extract`, `json_each`), a value that is no JSON left out. A store holding none
//! of these tables is noted. Not read: the PNR documents (`ZUACDPNRDOCUMENT`,
//! `ZUACDRESERVATIONRESPONSEJSON`), `Documents/logFile.txt`, the in-flight entertainment
//! positions, the Watch complications and the iMessage extension's recipient cache.
//!
//! Identities: the account's MileagePlus number is the device user's (`owner`:
//! `united:<number>`, qualified in the query) with its name; a passenger's or a boarding pass's
//! MileagePlus number is the person `united:<number>` with the passenger's name (`owner` when
//! it is the account's). Known Traveler and redress numbers, birth dates and customer ids are
//! facts only (the graph has no identifier type for them).

use std::collections::BTreeSet;

use masf_agents::RuntimeError;
use masf_graph::{EntityKind, FactType, IdType};
use masf_tools::Invoked;

use super::{Draft, Run, Schema, file_name};
use crate::calls::{json_at, qualified_or_null, select_columns};
use crate::drafts::apple_seconds;
use crate::outputs::{Table, raw};

const USER: &str = "ZUACDUSER";
const MBP: &str = "ZUACDWALLETMBP";
const BOOKING: &str = "ZUACDBOOKINGRECENTSEARCH";
const FLIFO: &str = "ZUACDFLIFORECENTSEARCH";

/// The reservation tables with their segment tables and what their trips are.
const TRIPS: [(&str, &str, &str); 2] = [
    (
        "ZUACDWALLETRESERVATION",
        "ZUACDWALLETRESERVATIONSEGMENT",
        "active",
    ),
    (
        "ZUACDWALLETPASTRESERVATION",
        "ZUACDWALLETPASTRESERVATIONSEGMENT",
        "past",
    ),
];

/// Every table read.
const TABLES: [&str; 8] = [
    USER,
    "ZUACDWALLETRESERVATION",
    "ZUACDWALLETRESERVATIONSEGMENT",
    "ZUACDWALLETPASTRESERVATION",
    "ZUACDWALLETPASTRESERVATIONSEGMENT",
    MBP,
    BOOKING,
    FLIFO,
];

/// A fact read from a column: `(alias, type, label)`.
type Spec = [(&'static str, FactType, &'static str)];

/// Triage of every United store of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    let Some((find, paths)) = run.find("UnitediPhoneCoreData.sqlite")? else {
        return Ok(());
    };
    for path in &paths {
        let Some(schema) = run.schema(path, &TABLES)? else {
            continue;
        };
        let has = |t: &str| schema.columns(t).contains("Z_PK");
        if !TABLES.iter().any(|t| has(t)) {
            run.ctx.unparsed(
                path,
                &format!(
                    "unexpected schema: the database has none of United's tables ({})",
                    TABLES.join(", ")
                ),
                None,
            )?;
            continue;
        }
        // the account's MileagePlus numbers: a passenger holding one is the device's user
        let mut own = BTreeSet::new();
        if has(USER) {
            account(run, &find, path, &schema, &mut own)?;
            if schema.columns(USER).contains("ZSAVEDTRAVELERSJSON") {
                travelers(run, &find, path)?;
            }
        }
        for (table, segments, status) in TRIPS {
            if has(table) {
                trips(run, &find, path, &schema, table, status)?;
                if schema.columns(table).contains("ZJSON") {
                    passengers(run, &find, path, &schema, table, status, &own)?;
                }
            }
            if has(segments) {
                flights(run, &find, path, &schema, (table, segments, status))?;
            }
        }
        if has(MBP) {
            boarding_passes(run, &find, path, &schema, &own)?;
        }
        if has(BOOKING) {
            searches(run, &find, path, &schema)?;
        }
        if has(FLIFO) {
            lookups(run, &find, path, &schema)?;
        }
    }
    Ok(())
}

/// `NULLIF(ltrim(' ' || a || ' ' || b …), '')` over the SQL expressions `parts`, each left out
/// where NULL or empty: a name joined in the query, so that it grounds.
fn joined(parts: &[String]) -> String {
    let each: Vec<String> = parts
        .iter()
        .map(|p| format!("coalesce(' ' || NULLIF({p}, ''), '')"))
        .collect();
    format!("NULLIF(ltrim({}), '')", each.join(" || "))
}

/// `'united:' || <expr>` where the expression is a non-empty value.
fn qualified(expr: &str) -> String {
    format!("CASE WHEN {expr} IS NOT NULL AND {expr} != '' THEN 'united:' || {expr} END")
}

/// A non-empty value of a row, as the output holds it.
fn value(t: &Table, row: &[Option<String>], col: &str) -> Option<String> {
    raw(t, row, col).filter(|v| !v.is_empty())
}

/// Observes a MileagePlus number (qualified in the query) with the name read beside it: the
/// device's user when the account holds it, else the person `united:<number>`.
#[allow(clippy::too_many_arguments)]
fn member(
    run: &Run<'_, '_>,
    own: &BTreeSet<String>,
    number: Option<&str>,
    qualified: Option<&str>,
    name: Option<&str>,
    inv: &Invoked,
    what: &str,
) -> Result<(), RuntimeError> {
    let (Some(number), Some(q)) = (number, qualified) else {
        return Ok(());
    };
    let (context, label) = if own.contains(number) {
        ("owner".to_string(), "device owner".to_string())
    } else {
        (q.to_string(), name.unwrap_or(number).to_string())
    };
    run.observe(
        &context,
        EntityKind::Person,
        &label,
        IdType::AccountId,
        q,
        inv,
        format!("The MileagePlus number of {what}."),
    )?;
    if let Some(n) = name {
        run.observe(
            &context,
            EntityKind::Person,
            &label,
            IdType::DisplayName,
            n,
            inv,
            format!("The name United keeps for {what}."),
        )?;
    }
    Ok(())
}

/// The signed-in MileagePlus member (`ZUACDUSER`).
fn account(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    schema: &Schema,
    own: &mut BTreeSet<String>,
) -> Result<(), RuntimeError> {
    let u = schema.columns(USER);
    let c = |col: &str| schema.col("u", USER, col);
    let ktn = if u.contains("ZSAVEDTRAVELERSJSON") {
        json_at("u.ZSAVEDTRAVELERSJSON", "$.ktnNumber")
    } else {
        "NULL".into()
    };
    let sql = format!(
        "SELECT u.Z_PK AS pk, {}, {} AS full_name, {}, {ktn} AS ktn FROM {USER} u",
        select_columns(
            &u,
            "u.",
            &[
                ("ZTITLE", "title"),
                ("ZFIRSTNAME", "first_name"),
                ("ZMIDDLENAME", "middle_name"),
                ("ZLASTNAME", "last_name"),
                ("ZMILEAGEPLUSNUMBER", "mileageplus"),
                ("ZELITESTATUSDESCRIPTION", "elite_status"),
                ("ZELITESTATUSCODE", "elite_code"),
                ("ZMILEAGEBALANCE", "balance"),
                ("ZMILLIONMILERINDICATOR", "million_miler"),
                ("ZSTARELITEDESCRIPTION", "star_status"),
                ("ZISCLUBMEMBER", "club_member"),
                ("ZCLUBDESCRIPTION", "club"),
                ("ZCLUBEXPIRATIONDATESTR", "club_expiry"),
                ("ZBIRTHDATE", "birth_date"),
                ("ZCUSTOMERID", "customer_id"),
                ("ZBILLINGCOUNTRY", "billing_country"),
                ("ZLASTLOGINDATETIME", "last_login"),
            ],
        ),
        joined(&[c("ZFIRSTNAME"), c("ZMIDDLENAME"), c("ZLASTNAME")]),
        qualified_or_null(&u, "u.", "ZMILEAGEPLUSNUMBER", "united", "qualified"),
    );
    let Some(paged) = run.paged(path, &sql, "pk")? else {
        return Ok(());
    };
    let file = file_name(path);
    for (inv, t, row) in paged.rows() {
        let number = value(t, row, "mileageplus");
        let name = value(t, row, "full_name");
        let mut d = Draft::new(
            "accounts",
            format!(
                "United MileagePlus account {}{}",
                number.as_deref().unwrap_or("(no number)"),
                name.as_deref()
                    .map(|n| format!(" ({n})"))
                    .unwrap_or_default()
            ),
        );
        d.fact(FactType::Path, Some(path), find);
        let said = d.fields(
            t,
            row,
            inv,
            &[
                ("full_name", FactType::Name, "name"),
                ("title", FactType::Text, "title"),
                ("mileageplus", FactType::Account, "MileagePlus number"),
                ("elite_status", FactType::Text, "elite status"),
                ("elite_code", FactType::Text, "elite status code"),
                ("balance", FactType::Count, "mileage balance"),
                ("million_miler", FactType::Text, "million-miler indicator"),
                ("star_status", FactType::Text, "Star Alliance status"),
                ("club_member", FactType::Text, "club member"),
                ("club", FactType::Text, "club"),
                ("club_expiry", FactType::Text, "club expiry (as written)"),
                ("ktn", FactType::Identifier, "Known Traveler Number"),
                ("birth_date", FactType::Text, "birth date (as written)"),
                ("customer_id", FactType::Identifier, "customer id"),
                ("billing_country", FactType::Text, "billing country"),
            ],
        );
        d.times_of(
            t,
            row,
            inv,
            apple_seconds,
            &[("last_login", "United last login")],
        );
        d.interpretation = format!(
            "ZUACDUSER Z_PK {} of {path}: the MileagePlus member signed in to the United app, the device's user ({}); the last login is Cocoa seconds.",
            t.get(row, "pk").unwrap_or("?"),
            said.join("; ")
        );
        run.record(d)?;
        if let Some(n) = &number {
            own.insert(n.clone());
        }
        let q = value(t, row, "qualified");
        let why = |what: &str| {
            format!("The {what} of the MileagePlus member signed in to the United app ({file}).")
        };
        run.observe_person(
            "owner",
            "device owner",
            inv,
            &why,
            &[
                (
                    IdType::AccountId,
                    q.as_deref(),
                    "MileagePlus number (qualified in the query)",
                ),
                (IdType::DisplayName, name.as_deref(), "name"),
            ],
        )?;
    }
    crate::calls::note_pages_cap(run.ctx, path, &paged, "United accounts")
}

/// The travellers saved to the profile (`ZSAVEDTRAVELERSJSON`'s `simplifiedTravelers`).
fn travelers(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let list = "CASE WHEN json_valid(u.ZSAVEDTRAVELERSJSON) AND json_type(u.ZSAVEDTRAVELERSJSON, '$.simplifiedTravelers') = 'array' THEN json_extract(u.ZSAVEDTRAVELERSJSON, '$.simplifiedTravelers') END";
    let m = |k: &str| format!("json_extract(t.value, '$.{k}')");
    let sql = format!(
        "SELECT * FROM (SELECT u.Z_PK * 1000 + t.key AS k, u.Z_PK AS pk, {} AS first_name, {} AS last_name, {} AS full_name, {} AS prefix, {} AS birth_date, {} AS age, {} AS pax_type, {} AS owner, {} AS traveler_key FROM {USER} u, json_each({list}) t WHERE json_type(t.value) = 'object')",
        m("firstName"),
        m("lastName"),
        joined(&[m("firstName"), m("lastName")]),
        m("prefix"),
        m("birthDate"),
        m("age"),
        m("paxTypeID"),
        m("isProfileOwner"),
        m("travelerKey"),
    );
    let Some(paged) = run.paged(path, &sql, "k")? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        let name = value(t, row, "full_name").unwrap_or_else(|| "(unnamed)".into());
        let owner = t.get(row, "owner") == Some("1");
        let mut d = Draft::new("contacts", format!("United saved traveler {name}"));
        d.fact(FactType::Path, Some(path), find);
        let said = d.fields(
            t,
            row,
            inv,
            &[
                ("full_name", FactType::Name, "name"),
                ("prefix", FactType::Text, "prefix"),
                ("birth_date", FactType::Text, "birth date (as written)"),
                ("age", FactType::Count, "age"),
                ("pax_type", FactType::Text, "passenger type"),
                ("traveler_key", FactType::Identifier, "traveller key"),
            ],
        );
        d.interpretation = format!(
            "A traveller of simplifiedTravelers in ZSAVEDTRAVELERSJSON of ZUACDUSER Z_PK {} of {path}: {} saved to the MileagePlus profile ({}).",
            t.get(row, "pk").unwrap_or("?"),
            if owner {
                "the profile's owner (isProfileOwner), the device's user,"
            } else {
                "a companion the member"
            },
            said.join("; ")
        );
        run.record(d)?;
    }
    crate::calls::note_pages_cap(run.ctx, path, &paged, "United saved travellers")
}

/// The record locator of a reservation `r`: its column, else its JSON's.
fn locator(cols: &BTreeSet<String>) -> String {
    let mut parts = Vec::new();
    if cols.contains("ZRECORDLOCATOR") {
        parts.push("NULLIF(r.ZRECORDLOCATOR, '')".to_string());
    }
    if cols.contains("ZJSON") {
        parts.push(json_at("r.ZJSON", "$.recordLocator"));
        parts.push(json_at("r.ZJSON", "$.pnr.uaRecordLocator"));
    }
    match parts.len() {
        0 => "NULL".into(),
        1 => parts.remove(0),
        _ => format!("coalesce({})", parts.join(", ")),
    }
}

/// The trips of a reservation table (active or past).
fn trips(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    schema: &Schema,
    table: &str,
    status: &str,
) -> Result<(), RuntimeError> {
    let r = schema.columns(table);
    let c = |col: &str| schema.col("r", table, col);
    let date = if r.contains("ZFLIGHTDATESTR") {
        "r.ZFLIGHTDATESTR"
    } else if r.contains("ZFLIGHTDATE") {
        "r.ZFLIGHTDATE"
    } else {
        "NULL"
    };
    let sql = format!(
        "SELECT r.Z_PK AS pk, {} AS locator, {} AS traveler, {date} AS flight_date, {} FROM {table} r",
        locator(&r),
        joined(&[c("ZFIRSTNAME"), c("ZLASTNAME")]),
        select_columns(
            &r,
            "r.",
            &[
                ("ZORIGIN", "origin"),
                ("ZORIGINCITY", "origin_city"),
                ("ZDESTINATION", "destination"),
                ("ZDESTINATIONCITY", "destination_city"),
                ("ZTRIPDATE", "trip_dates"),
                ("ZCARRIERCODE", "carrier"),
                ("ZNUMBEROFTRAVELERS", "travelers"),
                ("ZMILEAGEPLUSACCOUNT", "mileageplus"),
                ("ZCHECKINELIGIBLE", "checkin_eligible"),
                ("ZIRROPS", "irrops"),
                ("ZSORTFLIGHTDATE", "sort_date"),
                ("ZLASTREFRESHED", "refreshed"),
            ],
        ),
    );
    let Some(paged) = run.paged(path, &sql, "pk")? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        let v = |c: &str| value(t, row, c).unwrap_or_else(|| "?".into());
        let mut d = Draft::new(
            "locations",
            format!(
                "United trip {}: {} to {}",
                v("locator"),
                v("origin"),
                v("destination")
            ),
        );
        d.fact(FactType::Path, Some(path), find);
        let said = d.fields(
            t,
            row,
            inv,
            &[
                ("locator", FactType::Identifier, "record locator"),
                ("traveler", FactType::Name, "traveller"),
                ("origin", FactType::Text, "origin"),
                ("origin_city", FactType::Text, "origin city"),
                ("destination", FactType::Text, "destination"),
                ("destination_city", FactType::Text, "destination city"),
                ("flight_date", FactType::Text, "flight date (as written)"),
                ("trip_dates", FactType::Text, "trip dates (as written)"),
                ("carrier", FactType::Text, "carrier"),
                ("travelers", FactType::Count, "travellers"),
                ("mileageplus", FactType::Account, "MileagePlus account"),
                ("checkin_eligible", FactType::Text, "check-in eligible"),
                ("irrops", FactType::Text, "irregular operations"),
            ],
        );
        d.times_of(
            t,
            row,
            inv,
            apple_seconds,
            &[
                ("sort_date", "United trip flight date (sort date)"),
                ("refreshed", "United trip last refreshed"),
            ],
        );
        d.interpretation = format!(
            "{table} Z_PK {} of {path}: a United trip ({status}) in the app's wallet ({}); where the member meant to travel, not proof that they flew; times are Cocoa seconds.",
            t.get(row, "pk").unwrap_or("?"),
            said.join("; ")
        );
        run.record(d)?;
    }
    crate::calls::note_pages_cap(run.ctx, path, &paged, "United trips")
}

/// The passengers a trip's JSON lists (`pnr.passengers`, else `passengers`).
#[allow(clippy::too_many_arguments)]
fn passengers(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    schema: &Schema,
    table: &str,
    status: &str,
    own: &BTreeSet<String>,
) -> Result<(), RuntimeError> {
    let r = schema.columns(table);
    let list = "CASE WHEN json_valid(r.ZJSON) THEN CASE WHEN json_type(r.ZJSON, '$.pnr.passengers') = 'array' THEN json_extract(r.ZJSON, '$.pnr.passengers') WHEN json_type(r.ZJSON, '$.passengers') = 'array' THEN json_extract(r.ZJSON, '$.passengers') END END";
    let m = |k: &str| format!("json_extract(p.value, '$.{k}')");
    let mp = format!(
        "CASE WHEN json_type(p.value, '$.mileagePlus') = 'object' THEN coalesce({}, {}) WHEN json_type(p.value, '$.mileagePlus') = 'text' THEN {} END",
        m("mileagePlus.mileagePlusId"),
        m("mileagePlus.key"),
        m("mileagePlus"),
    );
    let name = joined(&[
        m("passengerName.title"),
        m("passengerName.first"),
        m("passengerName.middle"),
        m("passengerName.last"),
        m("passengerName.suffix"),
    ]);
    let sql = format!(
        "SELECT * FROM (SELECT k, pk, locator, name, birth_date, traveler_type, mileageplus, {} AS qualified, ktn, redress, owner FROM (SELECT r.Z_PK * 1000 + p.key AS k, r.Z_PK AS pk, {} AS locator, {name} AS name, {} AS birth_date, coalesce({}, {}) AS traveler_type, {mp} AS mileageplus, {} AS ktn, {} AS redress, {} AS owner FROM {table} r, json_each({list}) p WHERE json_type(p.value) = 'object'))",
        qualified("mileageplus"),
        locator(&r),
        m("birthDate"),
        m("travelerTypeCode"),
        m("paxTypeID"),
        m("knownTravelerNumber"),
        m("redressNumber"),
        m("isProfileOwner"),
    );
    let Some(paged) = run.paged(path, &sql, "k")? else {
        return Ok(());
    };
    let file = file_name(path);
    for (inv, t, row) in paged.rows() {
        let name = value(t, row, "name");
        let trip = value(t, row, "locator").unwrap_or_else(|| "?".into());
        let mut d = Draft::new(
            "contacts",
            format!(
                "United passenger {} (trip {trip})",
                name.as_deref().unwrap_or("(unnamed)")
            ),
        );
        d.fact(FactType::Path, Some(path), find);
        let said = d.fields(
            t,
            row,
            inv,
            &[
                ("locator", FactType::Identifier, "trip"),
                ("name", FactType::Name, "name"),
                ("birth_date", FactType::Text, "birth date (as written)"),
                ("traveler_type", FactType::Text, "traveller type"),
                ("mileageplus", FactType::Account, "MileagePlus id"),
                ("ktn", FactType::Identifier, "Known Traveler Number"),
                ("redress", FactType::Identifier, "redress number"),
            ],
        );
        let owner = t.get(row, "owner") == Some("1");
        d.interpretation = format!(
            "A passenger in ZJSON of {table} Z_PK {} of {path} ({status} trip): {} ({}).",
            t.get(row, "pk").unwrap_or("?"),
            if owner {
                "the profile's owner (isProfileOwner), the device's user"
            } else {
                "a person booked on the member's trip"
            },
            said.join("; ")
        );
        run.record(d)?;
        let number = value(t, row, "mileageplus");
        member(
            run,
            own,
            number.as_deref(),
            value(t, row, "qualified").as_deref(),
            name.as_deref(),
            inv,
            &format!("a passenger of United trip {trip} ({file})"),
        )?;
    }
    crate::calls::note_pages_cap(run.ctx, path, &paged, "United trip passengers")
}

/// The flights of a trip (`…SEGMENT`, joined to its reservation by `ZWALLETRESERVATION`).
fn flights(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    schema: &Schema,
    (table, segments, status): (&str, &str, &str),
) -> Result<(), RuntimeError> {
    let s = schema.columns(segments);
    let r = schema.columns(table);
    let joinable = s.contains("ZWALLETRESERVATION") && r.contains("Z_PK");
    let trip = if joinable { locator(&r) } else { "NULL".into() };
    let own_locator = if s.contains("ZRECORDLOCATOR") {
        format!("coalesce(NULLIF(s.ZRECORDLOCATOR, ''), {trip})")
    } else {
        trip
    };
    let join = if joinable {
        format!(" LEFT JOIN {table} r ON r.Z_PK = s.ZWALLETRESERVATION")
    } else {
        String::new()
    };
    let sql = format!(
        "SELECT s.Z_PK AS pk, {own_locator} AS locator, {} FROM {segments} s{join}",
        select_columns(
            &s,
            "s.",
            &[
                ("ZWALLETRESERVATION", "reservation"),
                ("ZORIGIN", "origin"),
                ("ZDESTINATION", "destination"),
                ("ZSCHEDULEDDEPARTUREDATETIMESTR", "scheduled"),
                ("ZDISPLAYDEPARTUREDATETIME", "departure"),
                ("ZDISPLAYARRIVALDATETIME", "arrival"),
                ("ZFLIGHTNUMBER", "flight"),
                ("ZTRIPNUMBER", "trip_number"),
                ("ZPASSENGERSEATS", "seats"),
                ("ZSORTDATE", "sort_date"),
                ("ZLASTREFRESHED", "refreshed"),
            ],
        ),
    );
    let Some(paged) = run.paged(path, &sql, "s.Z_PK")? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        let v = |c: &str| value(t, row, c).unwrap_or_else(|| "?".into());
        let mut d = Draft::new(
            "locations",
            format!(
                "United flight {} {} to {} ({})",
                v("flight"),
                v("origin"),
                v("destination"),
                v("locator")
            ),
        );
        d.fact(FactType::Path, Some(path), find);
        let said = d.fields(
            t,
            row,
            inv,
            &[
                ("locator", FactType::Identifier, "record locator"),
                ("flight", FactType::Text, "flight number"),
                ("origin", FactType::Text, "origin"),
                ("destination", FactType::Text, "destination"),
                (
                    "scheduled",
                    FactType::Text,
                    "scheduled departure (as written)",
                ),
                ("departure", FactType::Text, "departure (as shown)"),
                ("arrival", FactType::Text, "arrival (as shown)"),
                ("trip_number", FactType::Text, "trip number"),
                ("seats", FactType::Text, "seats"),
            ],
        );
        d.times_of(
            t,
            row,
            inv,
            apple_seconds,
            &[
                ("sort_date", "United flight date (sort date)"),
                ("refreshed", "United flight last refreshed"),
            ],
        );
        d.interpretation = format!(
            "{segments} Z_PK {} of {path}: a flight of the {status} trip {} (ZWALLETRESERVATION {}) in the app's wallet ({}); where the traveller was booked to fly, not proof of the flight; times are Cocoa seconds.",
            t.get(row, "pk").unwrap_or("?"),
            v("locator"),
            v("reservation"),
            said.join("; ")
        );
        run.record(d)?;
    }
    crate::calls::note_pages_cap(run.ctx, path, &paged, "United flights")
}

/// The `dob=` value of a boarding pass's `ZADDITIONALDATA` (`key=value~key=value`), cut out in
/// the query.
const DOB: &str = "CASE WHEN instr('~' || m.ZADDITIONALDATA, '~dob=') > 0 THEN substr(m.ZADDITIONALDATA || '~', instr('~' || m.ZADDITIONALDATA, '~dob=') + 4, instr(substr(m.ZADDITIONALDATA || '~', instr('~' || m.ZADDITIONALDATA, '~dob=') + 4), '~') - 1) END";

/// The mobile boarding passes (`ZUACDWALLETMBP`).
fn boarding_passes(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    schema: &Schema,
    own: &BTreeSet<String>,
) -> Result<(), RuntimeError> {
    let m = schema.columns(MBP);
    let dob = if m.contains("ZADDITIONALDATA") {
        DOB
    } else {
        "NULL"
    };
    let sql = format!(
        "SELECT m.Z_PK AS pk, {}, {}, NULLIF({dob}, '') AS dob FROM {MBP} m",
        select_columns(
            &m,
            "m.",
            &[
                ("ZPNR", "locator"),
                ("ZCUSTOMERNAME", "name"),
                ("ZMILEAGEPLUSNUMBER", "mileageplus"),
                ("ZFLIGHTINFO", "flight"),
                ("ZORIGIN", "origin"),
                ("ZDEPARTURECITY", "origin_city"),
                ("ZDESTINATION", "destination"),
                ("ZARRIVALCITY", "destination_city"),
                ("ZFLIGHTDATESTR", "flight_date"),
                ("ZDEPARTURETIME", "departure"),
                ("ZARRIVALTIME", "arrival"),
                ("ZGATE", "gate"),
                ("ZTERMINAL", "terminal"),
                ("ZSEATNO", "seat"),
                ("ZBOARDTIME", "boarding"),
                ("ZBOARDENDTIME", "boarding_end"),
                ("ZLEGSTATUS", "leg_status"),
                ("ZPREMIERSTATUS", "premier"),
                ("ZTSAPRECHECK", "precheck"),
                ("ZONEPASS", "onepass"),
                ("ZSEQUENCENUMBER", "sequence"),
                ("ZCOS", "cabin"),
                ("ZSORTFLIGHTDATE", "sort_date"),
                ("ZLASTREFRESHED", "refreshed"),
            ],
        ),
        qualified_or_null(&m, "m.", "ZMILEAGEPLUSNUMBER", "united", "qualified"),
    );
    let Some(paged) = run.paged(path, &sql, "pk")? else {
        return Ok(());
    };
    let file = file_name(path);
    for (inv, t, row) in paged.rows() {
        let v = |c: &str| value(t, row, c).unwrap_or_else(|| "?".into());
        let name = value(t, row, "name");
        let mut d = Draft::new(
            "locations",
            format!(
                "United boarding pass {} {} to {}: {}",
                v("flight"),
                v("origin"),
                v("destination"),
                v("name")
            ),
        );
        d.fact(FactType::Path, Some(path), find);
        let said = d.fields(
            t,
            row,
            inv,
            &[
                ("locator", FactType::Identifier, "record locator"),
                ("name", FactType::Name, "passenger"),
                ("mileageplus", FactType::Account, "MileagePlus number"),
                ("dob", FactType::Text, "birth date (as written)"),
                ("flight", FactType::Text, "flight"),
                ("origin", FactType::Text, "origin"),
                ("origin_city", FactType::Text, "departure city"),
                ("destination", FactType::Text, "destination"),
                ("destination_city", FactType::Text, "arrival city"),
                ("flight_date", FactType::Text, "flight date (as written)"),
                ("departure", FactType::Text, "departure (as written)"),
                ("arrival", FactType::Text, "arrival (as written)"),
                ("gate", FactType::Text, "gate"),
                ("terminal", FactType::Text, "terminal"),
                ("seat", FactType::Text, "seat"),
                ("boarding", FactType::Text, "boarding (as written)"),
                ("boarding_end", FactType::Text, "boarding ends (as written)"),
                ("leg_status", FactType::Text, "leg status"),
                ("premier", FactType::Text, "premier status"),
                ("precheck", FactType::Text, "TSA PreCheck"),
                ("onepass", FactType::Text, "OnePass"),
                ("sequence", FactType::Text, "sequence number"),
                ("cabin", FactType::Text, "cabin"),
            ],
        );
        d.times_of(
            t,
            row,
            inv,
            apple_seconds,
            &[
                ("sort_date", "United boarding pass flight date (sort date)"),
                ("refreshed", "United boarding pass last refreshed"),
            ],
        );
        d.interpretation = format!(
            "ZUACDWALLETMBP Z_PK {} of {path}: a mobile boarding pass the United app kept ({}); issued for the flight, which does not show that the passenger boarded; times are Cocoa seconds.",
            t.get(row, "pk").unwrap_or("?"),
            said.join("; ")
        );
        run.record(d)?;
        member(
            run,
            own,
            value(t, row, "mileageplus").as_deref(),
            value(t, row, "qualified").as_deref(),
            name.as_deref(),
            inv,
            &format!("the passenger of a United boarding pass ({file})"),
        )?;
    }
    crate::calls::note_pages_cap(run.ctx, path, &paged, "United boarding passes")
}

/// Records each row of a search table: `(alias, type, label)` facts of `spec`, Cocoa times of
/// `times`, the title made from the row.
#[allow(clippy::too_many_arguments)]
fn search_rows(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    sql: &str,
    table: &str,
    (spec, times): (&Spec, &[(&str, &str)]),
    title: impl Fn(&dyn Fn(&str) -> String) -> String,
    what: &str,
) -> Result<(), RuntimeError> {
    let Some(paged) = run.paged(path, sql, "pk")? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        let v = |c: &str| value(t, row, c).unwrap_or_else(|| "?".into());
        let mut d = Draft::new("locations", title(&v));
        d.fact(FactType::Path, Some(path), find);
        let said = d.fields(t, row, inv, spec);
        d.times_of(t, row, inv, apple_seconds, times);
        d.interpretation = format!(
            "{table} Z_PK {} of {path}: {what} ({}); times are Cocoa seconds.",
            t.get(row, "pk").unwrap_or("?"),
            said.join("; ")
        );
        run.record(d)?;
    }
    crate::calls::note_pages_cap(run.ctx, path, &paged, &format!("rows of {table}"))
}

/// The flight searches (`ZUACDBOOKINGRECENTSEARCH`).
fn searches(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    schema: &Schema,
) -> Result<(), RuntimeError> {
    let sql = format!(
        "SELECT b.Z_PK AS pk, {} FROM {BOOKING} b",
        select_columns(
            &schema.columns(BOOKING),
            "b.",
            &[
                ("ZAIRPORTORIGCODE", "origin"),
                ("ZAIRPORTDESTCODE", "destination"),
                ("ZDATEDEPART", "depart"),
                ("ZDATERETURN", "return_date"),
                ("ZDATEINSERT", "inserted"),
                ("ZISAWARDTRAVEL", "award"),
                ("ZTAG", "tag"),
                ("ZTRAVELERSINFO", "travelers"),
                ("ZCABININFO", "cabin"),
                ("ZPOINTOFSALECOUNTRYCODE", "country"),
            ],
        ),
    );
    search_rows(
        run,
        find,
        path,
        &sql,
        BOOKING,
        (
            &[
                ("origin", FactType::Text, "origin"),
                ("destination", FactType::Text, "destination"),
                ("award", FactType::Text, "award travel"),
                ("tag", FactType::Text, "tag"),
                ("travelers", FactType::Text, "travellers"),
                ("cabin", FactType::Text, "cabin"),
                ("country", FactType::Text, "point-of-sale country"),
            ],
            &[
                ("inserted", "United flight search made"),
                ("depart", "United flight search departure date"),
                ("return_date", "United flight search return date"),
            ],
        ),
        |v| {
            format!(
                "United flight search {} to {}",
                v("origin"),
                v("destination")
            )
        },
        "a flight search the user made in the United app (a trip looked for, not booked)",
    )
}

/// The flight-status look-ups (`ZUACDFLIFORECENTSEARCH`).
fn lookups(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    schema: &Schema,
) -> Result<(), RuntimeError> {
    let sql = format!(
        "SELECT f.Z_PK AS pk, {} FROM {FLIFO} f",
        select_columns(
            &schema.columns(FLIFO),
            "f.",
            &[
                ("ZCARRIERCODE", "carrier"),
                ("ZFLIGHTNUMBER", "flight"),
                ("ZORIGIN", "origin"),
                ("ZORIGINNAME", "origin_name"),
                ("ZDESTINATION", "destination"),
                ("ZDESTINATIONNAME", "destination_name"),
                ("ZSCHEDULEDDEPARTURE", "departure"),
                ("ZSCHEDULEDARRIVAL", "arrival"),
                ("ZLASTUPDATED", "updated"),
                ("ZEXPIRYDATE", "expiry"),
                ("ZTYPE", "kind"),
            ],
        ),
    );
    search_rows(
        run,
        find,
        path,
        &sql,
        FLIFO,
        (
            &[
                ("carrier", FactType::Text, "carrier"),
                ("flight", FactType::Text, "flight number"),
                ("origin", FactType::Text, "origin"),
                ("origin_name", FactType::Text, "origin name"),
                ("destination", FactType::Text, "destination"),
                ("destination_name", FactType::Text, "destination name"),
                ("kind", FactType::Text, "type"),
            ],
            &[
                ("updated", "United flight status last updated"),
                ("departure", "United flight status scheduled departure"),
                ("arrival", "United flight status scheduled arrival"),
                ("expiry", "United flight status look-up expires"),
            ],
        ),
        |v| {
            format!(
                "United flight status {}{} {} to {}",
                value_or_empty(&v("carrier")),
                v("flight"),
                v("origin"),
                v("destination")
            )
        },
        "a flight whose status the user looked up in the United app (interest in the flight: someone met, a flight taken)",
    )
}

/// A title part that is left out when it is unknown (`?`).
fn value_or_empty(v: &str) -> &str {
    if v == "?" { "" } else { v }
}
