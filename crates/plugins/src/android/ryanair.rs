//! Ryanair (`com.ryanair.cheapflights/databases/fr-local-db`), ALEAPP's `ryanair`
//! (`ryanair_user_profile`, `ryanair_bookings`, `ryanair_flights`, `ryanair_passengers`): who
//! the account is, and who flew where and when.
//!
//! | table | phenomenon | fields |
//! |---|---|---|
//! | `user_profile` | one `accounts` per profile ("Ryanair account <e-mail>") | id, first, last and second surname, e-mail, phone with its calling code, gender, birth date (Unix ms; before 1970 negative), nationality, title, member since (Unix ms), customer state, Prime status, KYC verified, sign-in provider, linked social accounts |
//! | `booking` (`booking_json`, each flight of `flights`) | one `locations` per flight ("Ryanair flight <number> <origin>-<destination>") | flight number, origin and destination airports, departure and arrival (UTC, and local as stored), check-in opening and closing, journey number, the booking's record locator, id, status, balance due and currency |
//! | `booking` (each passenger of `passengers`) | one `contacts` per passenger of a booking ("Ryanair passenger <name> (<locator>)") | first, middle and last name, title, passenger type and number, the record locator, check-in status of each journey |
//!
//! The booking's JSON is read by SQLite's JSON functions in the query (`json_valid` guarding
//! each), so each value grounds in the output. Identities: the profile's e-mail, phone and name
//! are the device's user's (`owner`). Passengers are facts, not identities: a name alone is no
//! identifier (a companion's name is said, to be linked by the examiner). A store without
//! `user_profile` or `booking` is noted.

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{FactType, IdType};

use super::Located;
use crate::calls::{column_or_null, json_at};
use crate::drafts::{RowPhenomena, date_text, unix_millis};
use crate::identity::table_columns;
use crate::outputs::raw;

/// Whether `l` is Ryanair's local store.
pub fn is_store(l: &Located) -> bool {
    l.name() == "fr-local-db" && l.path.contains("/com.ryanair.cheapflights/")
}

/// One `fr-local-db`.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(tables) = super::databases::tables_with(ctx, l, &[])? else {
        return Ok(());
    };
    let has = |t: &str| tables.iter().any(|x| x == t);
    if !has("user_profile") && !has("booking") {
        ctx.unparsed(
            &crate::identity::artefact_name(&l.tree, &l.path),
            "not Ryanair's fr-local-db: neither user_profile nor booking",
            None,
        )?;
        return Ok(());
    }
    if has("user_profile") {
        let cols = table_columns(ctx, &l.tree, &l.path, "user_profile")?;
        let c = |col: &str| column_or_null(&cols, "", col, col);
        let sql = format!(
            "SELECT rowid AS rid, {} FROM user_profile ORDER BY rowid",
            [
                "id",
                "first_name",
                "last_name",
                "second_surname",
                "email",
                "phone_number",
                "country_calling_code",
                "gender",
                "birth_date",
                "nationality_code",
                "title_name",
                "member_since",
                "customer_state",
                "prime_status",
                "kyc_verified",
                "auth_provider",
                "linked_social_accounts",
            ]
            .iter()
            .map(|k| c(k))
            .collect::<Vec<_>>()
            .join(", ")
                + ", trim(coalesce(first_name, '') || ' ' || coalesce(last_name, '')) AS full_name, CASE WHEN phone_number IS NOT NULL AND phone_number != '' THEN '+' || coalesce(country_calling_code, '') || phone_number END AS phone"
        );
        let sql = if cols.contains("first_name")
            && cols.contains("last_name")
            && cols.contains("phone_number")
            && cols.contains("country_calling_code")
        {
            sql
        } else {
            sql.replace(
                ", trim(coalesce(first_name, '') || ' ' || coalesce(last_name, '')) AS full_name, CASE WHEN phone_number IS NOT NULL AND phone_number != '' THEN '+' || coalesce(country_calling_code, '') || phone_number END AS phone",
                ", NULL AS full_name, NULL AS phone",
            )
        };
        let title = |t: &crate::outputs::Table, row: &[Option<String>]| {
            format!(
                "Ryanair account {}",
                raw(t, row, "email")
                    .or_else(|| raw(t, row, "full_name"))
                    .unwrap_or_default()
            )
        };
        super::record_query(
            ctx,
            l,
            &sql,
            &RowPhenomena {
                table: "user_profile",
                category: "accounts",
                what: "the Ryanair account signed in on the phone (times Unix milliseconds; a birth date before 1970 is negative)",
                title: &title,
                fields: &[
                    ("id", FactType::Account, "id"),
                    ("first_name", FactType::Name, "first name"),
                    ("last_name", FactType::Name, "last name"),
                    ("second_surname", FactType::Name, "second surname"),
                    ("email", FactType::Email, "e-mail"),
                    ("phone_number", FactType::Text, "phone"),
                    ("country_calling_code", FactType::Text, "calling code"),
                    ("gender", FactType::Text, "gender"),
                    ("nationality_code", FactType::Text, "nationality"),
                    ("title_name", FactType::Text, "title"),
                    ("customer_state", FactType::Text, "state"),
                    ("prime_status", FactType::Text, "Prime"),
                    ("kyc_verified", FactType::Text, "identity verified"),
                    ("auth_provider", FactType::Text, "signs in with"),
                    ("linked_social_accounts", FactType::Text, "linked accounts"),
                ],
                times: &[
                    ("member_since", "Ryanair member since", unix_millis),
                    ("birth_date", "Date of birth (Ryanair profile)", |v| {
                        v.filter(|s| s.trim() != "0")
                            .and_then(|s| s.trim().parse::<i64>().ok())
                            .map(|_| masf_graph::TimeEncoding::UnixMillis)
                    }),
                ],
            },
            &mut |inv, t, row| {
                crate::identity::observe_columns(
                    ctx,
                    "owner",
                    "device owner",
                    t,
                    row,
                    inv,
                    &[
                        ("email", IdType::Email, "The e-mail address"),
                        ("phone", IdType::Phone, "The phone number"),
                        ("full_name", IdType::DisplayName, "The name"),
                    ],
                    &|what| {
                        format!(
                            "{what} of the Ryanair account signed in on the device (user_profile of {}), the device's user.",
                            l.name()
                        )
                    },
                )
            },
        )?;
    }
    if !has("booking") {
        return Ok(());
    }
    let cols = table_columns(ctx, &l.tree, &l.path, "booking")?;
    if !crate::calls::require_columns(
        ctx,
        &crate::identity::artefact_name(&l.tree, &l.path),
        "Ryanair's fr-local-db",
        "booking",
        &cols,
        &["booking_json"],
    )? {
        return Ok(());
    }
    let b = |path: &str, alias: &str| format!("{} AS {alias}", json_at("b.booking_json", path));
    let f = |path: &str, alias: &str| format!("{} AS {alias}", json_at("f.value", path));
    let sql = format!(
        "SELECT b.rowid * 1000 + f.key AS rid, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {} FROM booking b, json_each(CASE WHEN json_valid(b.booking_json) THEN json_extract(b.booking_json, '$.flights') END) f ORDER BY rid",
        column_or_null(&cols, "b.", "id", "booking_id"),
        b("$.recordLocator", "locator"),
        b("$.status", "status"),
        b("$.balanceDue", "balance"),
        b("$.currency", "currency"),
        f("$.flightNumber", "flight"),
        f("$.origin", "origin"),
        f("$.destination", "destination"),
        f("$.depart", "depart"),
        f("$.arrive", "arrive"),
        f("$.times.depart", "depart_local"),
        f("$.times.arrive", "arrive_local"),
        f("$.checkInOpenUTC", "checkin_open"),
        f("$.checkInCloseUTC", "checkin_close"),
        f("$.journeyNum", "journey"),
        b("$.modifiedDate", "modified"),
    );
    let title = |t: &crate::outputs::Table, row: &[Option<String>]| {
        format!(
            "Ryanair flight {} {}-{}",
            t.get(row, "flight").unwrap_or("?"),
            t.get(row, "origin").unwrap_or("?"),
            t.get(row, "destination").unwrap_or("?")
        )
    };
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "booking",
            category: "locations",
            what: "a flight of a Ryanair booking kept on the phone (departure and arrival in UTC, and local as stored; a booking says the flight was booked, not who boarded)",
            title: &title,
            fields: &[
                ("flight", FactType::Identifier, "flight"),
                ("origin", FactType::Text, "from"),
                ("destination", FactType::Text, "to"),
                ("depart_local", FactType::Text, "departs (local)"),
                ("arrive_local", FactType::Text, "arrives (local)"),
                ("journey", FactType::Text, "journey"),
                ("locator", FactType::Identifier, "record locator"),
                ("booking_id", FactType::Identifier, "booking"),
                ("status", FactType::Text, "status"),
                ("balance", FactType::Amount, "balance due"),
                ("currency", FactType::Text, "currency"),
            ],
            times: &[
                ("depart", "Flight departs", date_text),
                ("arrive", "Flight arrives", date_text),
                ("checkin_open", "Check-in opens", date_text),
                ("checkin_close", "Check-in closes", date_text),
                ("modified", "Booking modified", date_text),
            ],
        },
        &mut |_, _, _| Ok(()),
    )?;
    let p = |path: &str, alias: &str| format!("{} AS {alias}", json_at("p.value", path));
    let sql = format!(
        "SELECT b.rowid * 1000 + p.key AS rid, {}, {}, {}, {}, {}, {}, {}, (SELECT group_concat('journey ' || json_extract(c.value, '$.journeyNum') || ': ' || json_extract(c.value, '$.status'), '; ') FROM json_each(CASE WHEN json_valid(b.booking_json) THEN json_extract(b.booking_json, '$.checkins') END) c WHERE json_extract(c.value, '$.paxNum') = json_extract(p.value, '$.paxNum')) AS checkins FROM booking b, json_each(CASE WHEN json_valid(b.booking_json) THEN json_extract(b.booking_json, '$.passengers') END) p ORDER BY rid",
        b("$.recordLocator", "locator"),
        p("$.firstName", "first"),
        p("$.middleName", "middle"),
        p("$.lastName", "last"),
        p("$.title", "title"),
        p("$.paxType", "pax_type"),
        p("$.paxNum", "pax_num"),
    );
    let title = |t: &crate::outputs::Table, row: &[Option<String>]| {
        format!(
            "Ryanair passenger {} {} ({})",
            t.get(row, "first").unwrap_or(""),
            t.get(row, "last").unwrap_or(""),
            t.get(row, "locator").unwrap_or("?")
        )
    };
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "booking",
            category: "contacts",
            what: "a passenger of a Ryanair booking kept on the phone (a companion's name is a fact, not an identity)",
            title: &title,
            fields: &[
                ("first", FactType::Name, "first name"),
                ("middle", FactType::Name, "middle name"),
                ("last", FactType::Name, "last name"),
                ("title", FactType::Text, "title"),
                ("pax_type", FactType::Text, "type"),
                ("pax_num", FactType::Count, "passenger number"),
                ("locator", FactType::Identifier, "record locator"),
                ("checkins", FactType::Text, "check-in"),
            ],
            times: &[],
        },
        &mut |_, _, _| Ok(()),
    )
}
