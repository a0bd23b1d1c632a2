//! Booking.com (`com.booking`), ALEAPP's `booking` (`booking_reservations`,
//! `booking_reservation_rooms`, `booking_account_profile`, `booking_profile_preferences`,
//! `booking_search_query`, `booking_notifications`): who is signed in, every stay the app cached
//! (property, address, dates, status), its rooms, the last hotel search and the app's
//! notifications.
//!
//! | file: table | phenomenon | fields |
//! |---|---|---|
//! | `databases/post_booking_reservation_cache`: `records` (root `postBookingReservationQuery(…)`) | one `transactions` per booking ("Booking.com reservation <booking number> at <property>") | booking number (from the root key's input, else `identity.reservationId`), status, confirmed, cancelled, no-show, travel purpose, property name, address, city, zip, country and its code, time zone, telephone, e-mail, URL, id, accommodation type, formatted address, check-in and check-out hours, paid through Booking; check-in and check-out (`rawDate`, Unix s) |
//! | `records` (`<root>.roomReservations.<n>`) | one `transactions` per room, once per booking number and room reservation id ("Booking.com room <room reservation id> of reservation <booking number>") | booking number, room index, room reservation id, room id, name and type, guests, maximum persons and children, smoking preference, cancelled, cancellation type, its text, bucket, description, refundable as stored |
//! | `databases/account_data_cache`: `records` (`personalProfile`, `geniusGuestData`) | one `accounts` ("Booking.com profile <e-mail or display name>") | first, last and display name, gender, date of birth, citizenship, e-mail and verified, contact phone, address, city, region, postcode, country, avatar type, Genius level, how many travel documents and co-travellers |
//! | `shared_prefs/mybooking.xml`, `remote_profile.xml` (`read_xml`) | one `accounts` per file ("Booking.com account <e-mail or user id> (<file>)") | user id, names, e-mail, phone, title, gender, address, city, zip, country, company, VAT number, travel purpose, smoking, Genius level and flags, wallet, subscribed, login type |
//! | `shared_prefs/com.booking_preferences.xml` (`read_xml`) | one `web` per stored query key ("Booking.com search <place> (<key>)") | arrival and departure dates as stored, destination name, city, type, id, country code, source, adults, children's ages, rooms, sort, travel purpose |
//! | `databases/notifications.db`: `notification` | one `notifications` per row ("Booking.com notification <title>") | title, body, server and action ids, viewed, clicked, deleted and their sync flags, thumbnail, icon, arguments; `time_epoch` (Unix s) |
//!
//! The two caches are Apollo's normalised GraphQL cache: one `records` row per object, its JSON
//! naming nested objects as `ApolloCacheReference{<key>}` strings. The query follows each
//! reference with a join on `key` (an object kept inline instead, as older releases do, is read
//! in place), so every value is one the logged output holds. A reservation is what the app
//! cached for the account: it shows a booking was made or looked up with it, not that anyone
//! stayed; check-in and check-out are the stored Unix seconds (midnight at the property, whose
//! zone is a fact; the calendar date at the property is not computed). The search is the last
//! one the app kept, not a history. Left in the stores, never selected: the booking's PIN code
//! (in the root key, in `identity` and in every reference string, so neither keys nor whole
//! records are selected), the `payment` record's other members (card details, tokens) and the
//! wallet. `read_xml` prints a preference file whole: a token kept there is in its output.
//! Not read: the accommodationDetailsQueries shape of the reservation cache, the OkHttp response
//! caches (`cache/okhttp`: profile, destination and deep-link answers), the app state and deep
//! link preferences; ALEAPP reads no guest names, prices or coordinates for a reservation.
//!
//! Schema drift: Apollo Kotlin's table (`key` primary key) and Apollo Android 2's (`_id`, `key`,
//! `record`) are both read by `key` and `record`; JSON members absent read as NULL; a cache
//! without `records(key, record)` is noted, as is a `notification` table without `time_epoch`,
//! and a malformed preference file.
//!
//! Identities: the cached profile's e-mail and contact phone, and the preferences' e-mail, phone
//! and `booking:<pref3uid>` (qualified by `read_xml`'s `qualify`) are the device's user's
//! (`owner`): the account signed in. A property's telephone and e-mail are facts, not identities.

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{FactType, IdType};

use super::{Located, Schema};
use crate::drafts::{Draft, RowPhenomena, record_draft, unix_seconds};
use crate::identity::{artefact_name, observe_owner_ids, schema_on};
use crate::outputs::{Table, raw};

const PKG: &str = "/com.booking/";

/// Whether `l` is one of Booking.com's databases read here.
pub fn is_store(l: &Located) -> bool {
    l.path.contains(PKG)
        && l.path.contains("/databases/")
        && matches!(
            l.name(),
            "post_booking_reservation_cache" | "account_data_cache" | "notifications.db"
        )
}

/// Whether `l` is one of Booking.com's preference files read here.
pub fn is_prefs(l: &Located) -> bool {
    l.path.contains(PKG)
        && l.path.contains("/shared_prefs/")
        && matches!(
            l.name(),
            "mybooking.xml" | "remote_profile.xml" | "com.booking_preferences.xml"
        )
}

/// Whether `l` is a file this reader reads.
pub fn is_file(l: &Located) -> bool {
    is_store(l) || is_prefs(l)
}

/// The cache's records with a valid JSON record, as the CTE `r` (`rid`, `key`, `record`).
const RECORDS: &str =
    "WITH r AS (SELECT rowid AS rid, key, record FROM records WHERE json_valid(record))";

/// Follows the member `member` of the object `parent` (a JSON expression) into the alias
/// `alias`: the join on the record its `ApolloCacheReference{<key>}` names is pushed on
/// `joins`, and the returned expression is that record, or the member itself when it is an
/// object kept inline (NULL otherwise).
fn follow(joins: &mut Vec<String>, parent: &str, member: &str, alias: &str) -> String {
    let m = format!("json_extract({parent}, '$.{member}')");
    joins.push(format!(
        "LEFT JOIN r {alias} ON {alias}.key = substr({m}, 22, length({m}) - 22)"
    ));
    format!(
        "coalesce({alias}.record, CASE WHEN json_type({parent}, '$.{member}') = 'object' THEN {m} END)"
    )
}

/// `json_extract(node, '$.<member>') AS alias`.
fn at(node: &str, member: &str, alias: &str) -> String {
    format!("json_extract({node}, '$.{member}') AS {alias}")
}

/// The booking number in the input of the query a cache key starts with
/// (`postBookingReservationQuery({"input":{"bookingNumber":…}})…`), NULL when none. Only this
/// member is taken: the input holds the PIN code too.
fn booking_number(key: &str) -> String {
    let args =
        format!("substr({key}, instr({key}, '(') + 1, instr({key}, ')') - instr({key}, '(') - 1)");
    format!("CASE WHEN json_valid({args}) THEN json_extract({args}, '$.input.bookingNumber') END")
}

/// One Booking.com database.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(schema) = schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    match l.name() {
        "notifications.db" => notifications(ctx, l, &schema),
        name => {
            let ok = schema
                .get("records")
                .is_some_and(|c| c.contains("key") && c.contains("record"));
            if !ok {
                ctx.unparsed(
                    &artefact_name(&l.tree, &l.path),
                    &format!(
                        "could not parse Booking.com's {name} because it is not Apollo's cache (missing table records with columns key, record)"
                    ),
                    None,
                )?;
                return Ok(());
            }
            if name == "account_data_cache" {
                profile(ctx, l)
            } else {
                reservations(ctx, l)?;
                rooms(ctx, l)
            }
        }
    }
}

/// The reservation query (see the module table).
pub(crate) fn reservations_sql() -> String {
    let mut j = Vec::new();
    let identity = follow(&mut j, "b.record", "identity", "i");
    let prop = follow(&mut j, "b.record", "property", "p");
    let name = follow(&mut j, &prop, "hotelName", "pn");
    let address = follow(&mut j, &prop, "hotelAddress", "pa");
    let city = follow(&mut j, &prop, "hotelCity", "pc");
    let country = follow(&mut j, &prop, "country", "pk");
    let cin = follow(&mut j, &prop, "hotelCheckin", "hi");
    let cout = follow(&mut j, &prop, "hotelCheckout", "ho");
    let din = follow(&mut j, "b.record", "reservationCheckinDate", "di");
    let dout = follow(&mut j, "b.record", "reservationCheckoutDate", "dd");
    let page = follow(&mut j, "b.record", "hotelPageProperty", "hp");
    let location = follow(&mut j, &page, "location", "hl");
    let payment = follow(&mut j, "b.record", "payment", "pay");
    let hours = |node: &str, alias: &str| {
        format!(
            "nullif(trim(coalesce(json_extract({node}, '$.from'), '') || ' - ' || coalesce(json_extract({node}, '$.until'), ''), ' -'), '') AS {alias}"
        )
    };
    let cols = [
        "b.rid AS rid".to_string(),
        format!(
            "coalesce({}, json_extract({identity}, '$.reservationId')) AS booking_number",
            booking_number("b.key")
        ),
        at("b.record", "reservationStatus", "status"),
        at("b.record", "confirmedStatus", "confirmed"),
        at("b.record", "cancelledStatus", "cancelled"),
        at("b.record", "isNoShow", "no_show"),
        at("b.record", "travelPurpose", "purpose"),
        at(&name, "translation", "property"),
        at(&address, "rawValue", "address"),
        at(&city, "rawValue", "city"),
        at(&prop, "hotelZip", "zip"),
        at(&country, "translation", "country"),
        at(&prop, "hotelCountryCode", "country_code"),
        at(&prop, "hotelTimezone", "timezone"),
        at(&prop, "telephone", "telephone"),
        at(&prop, "hotelEmail", "email"),
        at(&prop, "url", "url"),
        at(&prop, "hotelId", "property_id"),
        at(&prop, "accommodationTypeId", "accommodation_type"),
        at(&location, "formattedAddress", "formatted_address"),
        hours(&cin, "checkin_hours"),
        hours(&cout, "checkout_hours"),
        at(&payment, "isPayByBooking", "paid_through_booking"),
        at(&din, "rawDate", "check_in"),
        at(&dout, "rawDate", "check_out"),
    ];
    format!(
        "{RECORDS} SELECT {} FROM r b {} WHERE b.key GLOB 'postBookingReservationQuery(*)' AND instr(b.key, ')') = length(b.key) ORDER BY b.rid",
        cols.join(", "),
        j.join(" ")
    )
}

fn reservations(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    super::record_query(
        ctx,
        l,
        &reservations_sql(),
        &RowPhenomena {
            table: "records (postBookingReservationQuery)",
            category: "transactions",
            what: "a Booking.com reservation the app cached for the account (a booking made or looked up, not proof of a stay; statuses as stored; check-in and check-out Unix seconds, midnight at the property in its time zone)",
            title: &|t, row| {
                format!(
                    "Booking.com reservation {} at {}",
                    t.get(row, "booking_number").unwrap_or("?"),
                    raw(t, row, "property").unwrap_or_else(|| "?".into())
                )
            },
            fields: &[
                ("booking_number", FactType::Identifier, "booking number"),
                ("status", FactType::Text, "status"),
                ("confirmed", FactType::Text, "confirmed"),
                ("cancelled", FactType::Text, "cancelled"),
                ("no_show", FactType::Text, "no-show"),
                ("purpose", FactType::Text, "travel purpose"),
                ("property", FactType::Name, "property"),
                ("address", FactType::Text, "address"),
                ("city", FactType::Text, "city"),
                ("zip", FactType::Text, "zip"),
                ("country", FactType::Text, "country"),
                ("country_code", FactType::Text, "country code"),
                ("timezone", FactType::Text, "property time zone"),
                ("telephone", FactType::Text, "property telephone"),
                ("email", FactType::Text, "property e-mail"),
                ("url", FactType::Url, "URL"),
                ("property_id", FactType::Identifier, "property id"),
                ("accommodation_type", FactType::Text, "accommodation type"),
                ("formatted_address", FactType::Text, "formatted address"),
                ("checkin_hours", FactType::Text, "check-in hours"),
                ("checkout_hours", FactType::Text, "check-out hours"),
                (
                    "paid_through_booking",
                    FactType::Text,
                    "paid through Booking",
                ),
            ],
            times: &[
                ("check_in", "Booking.com reservation check-in", unix_seconds),
                (
                    "check_out",
                    "Booking.com reservation check-out",
                    unix_seconds,
                ),
            ],
        },
        &mut |_, _, _| Ok(()),
    )
}

/// The rooms query: one row per booking number and room reservation id (the first record of
/// a room cached again under another key).
pub(crate) fn rooms_sql() -> String {
    let mut j = Vec::new();
    let room = follow(&mut j, "q.record", "room", "rm");
    let occupancy = follow(&mut j, &room, "roomOccupancy", "oc");
    let term = follow(&mut j, "q.record", "paymentTerm", "pt");
    let cancel = follow(&mut j, &term, "cancellation", "ca");
    let info = follow(&mut j, &cancel, "info", "ci");
    let cols = [
        "q.rid AS rid".to_string(),
        "q.booking_number AS booking_number".to_string(),
        "q.room_index AS room_index".to_string(),
        "q.rrid AS room_reservation_id".to_string(),
        at(&room, "roomId", "room_id"),
        at(&room, "roomName", "room_name"),
        at(&room, "roomTypeId", "room_type"),
        at("q.record", "guestNumber", "guests"),
        at(&occupancy, "maxPersons", "max_persons"),
        at(&occupancy, "maxChildren", "max_children"),
        at("q.record", "smokingPreference", "smoking"),
        at("q.record", "isCancelled", "cancelled"),
        at(&cancel, "type", "cancellation_type"),
        at(&cancel, "typeTranslation", "cancellation_text"),
        at(&cancel, "bucket", "cancellation_bucket"),
        at(&cancel, "description", "cancellation_description"),
        at(&info, "refundable", "refundable"),
    ];
    format!(
        "{RECORDS}, rr AS (SELECT x.rid AS rid, x.record AS record, {} AS booking_number, substr(x.key, instr(x.key, ').roomReservations.') + 19) AS room_index, json_extract(x.record, '$.roomReservationId') AS rrid FROM r x WHERE x.key GLOB '*).roomReservations.[0-9]*' AND substr(x.key, instr(x.key, ').roomReservations.') + 19) NOT GLOB '*[^0-9]*') SELECT {} FROM rr q {} WHERE q.rrid IS NULL OR q.rid = (SELECT min(z.rid) FROM rr z WHERE z.booking_number IS q.booking_number AND z.rrid = q.rrid) ORDER BY q.rid",
        booking_number("x.key"),
        cols.join(", "),
        j.join(" ")
    )
}

fn rooms(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    super::record_query(
        ctx,
        l,
        &rooms_sql(),
        &RowPhenomena {
            table: "records (roomReservations)",
            category: "transactions",
            what: "a room of a Booking.com reservation the app cached (once per booking number and room reservation id; preferences, cancellation and refundable as stored)",
            title: &|t, row| {
                format!(
                    "Booking.com room {} of reservation {}",
                    t.get(row, "room_reservation_id")
                        .or_else(|| t.get(row, "room_index"))
                        .unwrap_or("?"),
                    t.get(row, "booking_number").unwrap_or("?")
                )
            },
            fields: &[
                ("booking_number", FactType::Identifier, "booking number"),
                ("room_index", FactType::Count, "room index"),
                (
                    "room_reservation_id",
                    FactType::Identifier,
                    "room reservation id",
                ),
                ("room_id", FactType::Identifier, "room id"),
                ("room_name", FactType::Text, "room"),
                ("room_type", FactType::Text, "room type"),
                ("guests", FactType::Count, "guests"),
                ("max_persons", FactType::Count, "maximum persons"),
                ("max_children", FactType::Count, "maximum children"),
                ("smoking", FactType::Text, "smoking preference"),
                ("cancelled", FactType::Text, "cancelled"),
                ("cancellation_type", FactType::Text, "cancellation type"),
                ("cancellation_text", FactType::Text, "cancellation"),
                ("cancellation_bucket", FactType::Text, "cancellation bucket"),
                (
                    "cancellation_description",
                    FactType::Text,
                    "cancellation terms",
                ),
                ("refundable", FactType::Text, "refundable"),
            ],
            times: &[],
        },
        &mut |_, _, _| Ok(()),
    )
}

/// The profile query on `account_data_cache` (never the wallet, which may hold a card).
pub(crate) fn profile_sql() -> String {
    let mut j = Vec::new();
    let personal = follow(&mut j, "p.record", "personalData", "pd");
    let email = follow(&mut j, "p.record", "contactEmail", "ce");
    let phone = follow(&mut j, "p.record", "contactPhone", "cp");
    let address = follow(&mut j, "p.record", "address", "ad");
    let avatar = follow(&mut j, "p.record", "avatar", "av");
    j.push("LEFT JOIN r g ON g.key = 'geniusGuestData'".to_string());
    let genius = follow(&mut j, "g.record", "userInfo", "gu");
    let count = |member: &str, alias: &str| {
        format!(
            "CASE WHEN json_type(p.record, '$.{member}') = 'array' THEN json_array_length(p.record, '$.{member}') END AS {alias}"
        )
    };
    let cols = [
        "p.rid AS rid".to_string(),
        at(&personal, "firstName", "first_name"),
        at(&personal, "lastName", "last_name"),
        at(&personal, "displayName", "display_name"),
        at(&personal, "gender", "gender"),
        at(&personal, "dateOfBirth", "birth"),
        at(&personal, "citizenshipCountry", "citizenship"),
        at(&email, "address", "email"),
        at(&email, "isVerified", "email_verified"),
        at(&phone, "number", "phone"),
        at(&address, "address", "street"),
        at(&address, "city", "city"),
        at(&address, "region", "region"),
        at(&address, "postcode", "postcode"),
        at(&address, "country", "country"),
        at(&avatar, "type", "avatar"),
        at(&genius, "level", "genius"),
        count("travelDocuments", "travel_documents"),
        count("coTravellers", "co_travellers"),
    ];
    format!(
        "{RECORDS} SELECT {} FROM r p {} WHERE p.key = 'personalProfile' ORDER BY p.rid",
        cols.join(", "),
        j.join(" ")
    )
}

fn profile(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let file = l.name();
    super::record_query(
        ctx,
        l,
        &profile_sql(),
        &RowPhenomena {
            table: "records (personalProfile)",
            category: "accounts",
            what: "the Booking.com account's profile the app cached (the account signed in; gender, Genius level and date of birth as stored)",
            title: &|t, row| {
                format!(
                    "Booking.com profile {}",
                    raw(t, row, "email")
                        .or_else(|| raw(t, row, "display_name"))
                        .unwrap_or_else(|| "?".into())
                )
            },
            fields: &[
                ("first_name", FactType::Name, "first name"),
                ("last_name", FactType::Name, "last name"),
                ("display_name", FactType::Name, "display name"),
                ("gender", FactType::Text, "gender"),
                ("birth", FactType::Text, "date of birth"),
                ("citizenship", FactType::Text, "citizenship"),
                ("email", FactType::Email, "e-mail"),
                ("email_verified", FactType::Text, "e-mail verified"),
                ("phone", FactType::Phone, "contact phone"),
                ("street", FactType::Text, "address"),
                ("city", FactType::Text, "city"),
                ("region", FactType::Text, "region"),
                ("postcode", FactType::Text, "postcode"),
                ("country", FactType::Text, "country"),
                ("avatar", FactType::Text, "avatar type"),
                ("genius", FactType::Text, "Genius level"),
                ("travel_documents", FactType::Count, "travel documents"),
                ("co_travellers", FactType::Count, "co-travellers"),
            ],
            times: &[],
        },
        &mut |inv, t, row| owner_of_row(ctx, inv, t, row, file),
    )
}

fn owner_of_row(
    ctx: &AgentCtx<'_>,
    inv: &masf_tools::Invoked,
    t: &Table,
    row: &[Option<String>],
    file: &str,
) -> Result<(), RuntimeError> {
    let get = |c: &str| t.get(row, c).filter(|v| !v.is_empty()).map(str::to_string);
    observe_owner_ids(
        ctx,
        inv,
        vec![
            (get("email"), IdType::Email, "contact e-mail"),
            (get("phone"), IdType::Phone, "contact phone"),
        ],
        &|what| {
            format!(
                "The {what} of the Booking.com profile cached by the app ({file}), the account signed in: the device's user."
            )
        },
    )
}

/// `(key, type, label)` of the profile preferences read.
const PREFS: &[(&str, FactType, &str)] = &[
    ("pref3uid", FactType::Account, "user id"),
    ("pref3firstname", FactType::Name, "first name"),
    ("pref3lastname", FactType::Name, "last name"),
    ("pref3email", FactType::Email, "e-mail"),
    ("pref3phone", FactType::Phone, "phone"),
    ("pref3_title", FactType::Text, "title"),
    ("pref3gender", FactType::Text, "gender"),
    ("pref3address", FactType::Text, "address"),
    ("pref3city", FactType::Text, "city"),
    ("pref3zipcode", FactType::Text, "zip"),
    ("pref3country", FactType::Text, "country"),
    ("pref3_private_country", FactType::Text, "private country"),
    ("pref3company_name", FactType::Text, "company"),
    ("pref3vat_number", FactType::Identifier, "VAT number"),
    ("pref3travel_purpose", FactType::Text, "travel purpose"),
    ("pref3smoking", FactType::Text, "smoking"),
    ("genius_level", FactType::Text, "Genius level"),
    ("pref3isgenius", FactType::Text, "Genius"),
    ("is_genius_vip", FactType::Text, "Genius VIP"),
    ("has_wallet", FactType::Text, "wallet"),
    ("pref3subscribed", FactType::Text, "subscribed"),
    ("mybooking_login_type", FactType::Text, "login type"),
];

/// `(member, type, label)` of a stored search query's JSON.
const QUERY: &[(&str, FactType, &str)] = &[
    ("arrival_date", FactType::Text, "arrival"),
    ("departure_date", FactType::Text, "departure"),
    ("adult_count", FactType::Count, "adults"),
    ("room_count", FactType::Count, "rooms"),
    ("travel_purpose", FactType::Text, "travel purpose"),
];
const LOCATION: &[(&str, FactType, &str)] = &[
    ("name", FactType::Text, "destination"),
    ("city", FactType::Text, "city"),
    ("type", FactType::Text, "destination type"),
    ("id", FactType::Identifier, "destination id"),
    ("country_code", FactType::Text, "country code"),
    ("location_source", FactType::Text, "source"),
];

/// One Booking.com preference file.
pub fn prefs(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    if l.name() == "com.booking_preferences.xml" {
        return search(ctx, l);
    }
    let Some((inv, prefs)) = super::prefs::prefs_xml(
        ctx,
        l,
        "Booking.com",
        Some(serde_json::json!({ "pref3uid": "booking" })),
    )?
    else {
        return Ok(());
    };
    let get = |k: &str| super::prefs::pref(&prefs, k);
    let email = get("pref3email");
    let Some(shown) = email.clone().or_else(|| get("pref3uid")) else {
        return Ok(());
    };
    let file = l.name();
    let mut d = Draft::new("accounts", format!("Booking.com account {shown} ({file})"));
    d.fact(FactType::Path, Some(&l.path), &l.found);
    let mut said = Vec::new();
    for (key, ft, label) in PREFS {
        if let Some(v) = get(key) {
            d.fact(*ft, Some(&v), &inv);
            said.push(format!("{label} {v}"));
        }
    }
    d.interpretation = format!(
        "{file}: the Booking.com account signed in on the phone, as the app's preferences keep it: {}. Values as stored.",
        said.join(", ")
    );
    record_draft(ctx, d)?;
    let qualified = inv
        .output
        .text
        .lines()
        .find_map(|line| line.strip_prefix("# qualified pref3uid: "))
        .map(str::to_string);
    observe_owner_ids(
        ctx,
        &inv,
        vec![
            (email, IdType::Email, "e-mail"),
            (get("pref3phone"), IdType::Phone, "phone"),
            (qualified, IdType::AccountId, "user id (qualified)"),
        ],
        &|what| {
            format!(
                "The Booking.com {what} of the account signed in on the device ({file}), the device's user."
            )
        },
    )
}

/// The stored search queries of `com.booking_preferences.xml`.
fn search(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some((inv, prefs)) = super::prefs::prefs_xml(ctx, l, "Booking.com", None)? else {
        return Ok(());
    };
    for key in ["specific_query", "general_query"] {
        let Some(text) = super::prefs::pref(&prefs, key) else {
            continue;
        };
        let Ok(q) = super::prefs::pref_json(&text) else {
            ctx.unparsed(
                &artefact_name(&l.tree, &l.path),
                &format!("could not parse Booking.com's {key} because it is not JSON"),
                Some(&inv.record.invocation_id),
            )?;
            continue;
        };
        let location = q.get("location").cloned().unwrap_or_default();
        let place =
            crate::outputs::json_scalar(location.get("name")).unwrap_or_else(|| "?".to_string());
        let mut d = Draft::new("web", format!("Booking.com search {place} ({key})"));
        d.fact(FactType::Path, Some(&l.path), &l.found);
        let mut said = d.json_fields(&q, &inv, QUERY);
        said.extend(d.json_fields(&location, &inv, LOCATION));
        if let Some(ages) = q.get("children_ages").and_then(|a| a.as_array()) {
            let n = ages.len().to_string();
            said.push(format!("{n} children"));
            for a in ages
                .iter()
                .filter_map(|a| crate::outputs::json_scalar(Some(a)))
            {
                d.fact(FactType::Text, Some(&a), &inv);
            }
        }
        d.interpretation = format!(
            "{}'s {key}: the last hotel search the Booking.com app kept (what was searched, not a booking; dates as stored, no zone): {}.",
            l.name(),
            said.join(", ")
        );
        record_draft(ctx, d)?;
    }
    Ok(())
}

/// `notifications.db`'s `notification` table.
fn notifications(ctx: &AgentCtx<'_>, l: &Located, schema: &Schema) -> Result<(), RuntimeError> {
    if !schema.contains_key("notification") {
        ctx.unparsed(
            &artefact_name(&l.tree, &l.path),
            "could not parse Booking.com's notifications.db because it has no notification table",
            None,
        )?;
        return Ok(());
    }
    super::record_table(
        ctx,
        l,
        schema,
        "time_epoch",
        &|_| Vec::new(),
        &RowPhenomena {
            table: "notification",
            category: "notifications",
            what: "a notification the Booking.com app stored (flags as stored; time_epoch Unix seconds)",
            title: &|t, row| {
                format!(
                    "Booking.com notification {}",
                    raw(t, row, "title").unwrap_or_else(|| "?".into())
                )
            },
            fields: &[
                ("title", FactType::Text, "title"),
                ("body", FactType::Text, "body"),
                ("server_id", FactType::Identifier, "server id"),
                ("action_id", FactType::Text, "action"),
                ("is_viewed", FactType::Text, "viewed"),
                ("is_clicked", FactType::Text, "clicked"),
                ("is_deleted", FactType::Text, "deleted"),
                ("sync_is_viewed", FactType::Text, "viewed (synced)"),
                ("sync_is_clicked", FactType::Text, "clicked (synced)"),
                ("thumb_url", FactType::Url, "thumbnail"),
                ("icon", FactType::Text, "icon"),
                ("args_json", FactType::Text, "arguments"),
            ],
            times: &[("time_epoch", "Booking.com notification", unix_seconds)],
        },
        &mut |_, _, _| Ok(()),
    )
}
