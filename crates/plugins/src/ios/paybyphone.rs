//! PayByPhone (`Containers/Data/Application/<id>/Documents/PayByPhone.sqlite`, a Core Data
//! store), iLEAPP's `payByPhone` (`userPayByPhone`, `sessionPayByPhone`): where and when the
//! user's cars were parked.
//!
//! | table | phenomenon | fields |
//! |---|---|---|
//! | `ZUSERACCOUNT` | one `accounts` per account ("PayByPhone account <e-mail>") | e-mail, member id, user name, parking account |
//! | `ZVEHICLE` | one `accounts` per vehicle of the account ("PayByPhone vehicle <plate>") | licence plate, its country, description, type, vehicle id, the account's e-mail |
//! | `ZPARKINGSESSION` (with `ZVEHICLE`, `ZLOCATION` by location number, `ZUSERACCOUNT` by parking account) | one `locations` per parking session ("PayByPhone parking at <lot> (<plate>)") | start and expiry (Cocoa seconds), amount and currency, latitude and longitude, location number, the lot's name, vendor, country and message (HTML, as stored), the vehicle's plate and description, the account's e-mail |
//!
//! A session is the car, not necessarily the phone, at that place from start to expiry (said).
//! The sessions are joined as iLEAPP joins them (the lot by `ZLOCATIONNUMBER`, the account by
//! `ZPARKINGSESSION.ZUSERACCOUNT = ZUSERACCOUNT.ZPARKINGACCOUNT`), but a session without its
//! vehicle, lot or account is kept (iLEAPP's inner joins drop it), and one lot per number is
//! taken. Columns are taken by name (absent ones NULL: older stores have no `ZLOCATION` or no
//! `ZAMOUNT`); a store whose `ZPARKINGSESSION` lacks `ZSTARTTIME` is noted.
//!
//! Identities: the account is the device user's (`owner`): its e-mail address, its user name
//! when that is a phone number or an e-mail address, and `paybyphone:<member id>`. A licence
//! plate links a car across devices and other evidence (a second phone's parking app,
//! number-plate cameras, a rental contract): the graph has no identifier type for plates, so it
//! is a fact of the vehicle and of every session, said, and not observed.

use masf_agents::RuntimeError;
use masf_graph::{FactType, IdType};
use masf_tools::Invoked;

use super::{Draft, Run, Schema};
use crate::calls::{column_or_null, qualified_or_null, select_columns};
use crate::drafts::apple_seconds;
use crate::outputs::raw;

const ACCOUNT: &str = "ZUSERACCOUNT";
const VEHICLE: &str = "ZVEHICLE";
const SESSION: &str = "ZPARKINGSESSION";
const LOCATION: &str = "ZLOCATION";

/// Triage of every PayByPhone store of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    let Some((find, paths)) = run.find("PayByPhone.sqlite")? else {
        return Ok(());
    };
    for path in &paths {
        let Some(schema) = run.schema(path, &[ACCOUNT, VEHICLE, SESSION, LOCATION])? else {
            continue;
        };
        if !schema.require(run, SESSION, &["ZSTARTTIME"])? {
            continue;
        }
        if schema.columns(ACCOUNT).contains("Z_PK") {
            accounts(run, &find, path, &schema)?;
        }
        if schema.columns(VEHICLE).contains("ZLICENSEPLATE") {
            vehicles(run, &find, path, &schema)?;
        }
        sessions(run, &find, path, &schema)?;
    }
    Ok(())
}

fn accounts(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    schema: &Schema,
) -> Result<(), RuntimeError> {
    let a = schema.columns(ACCOUNT);
    let sql = format!(
        "SELECT u.Z_PK AS pk, {}, {} FROM {ACCOUNT} u",
        select_columns(
            &a,
            "u.",
            &[
                ("ZEMAIL", "email"),
                ("ZMEMBERID", "member_id"),
                ("ZUSERNAME", "username"),
                ("ZPARKINGACCOUNT", "parking_account"),
            ],
        ),
        qualified_or_null(&a, "u.", "ZMEMBERID", "paybyphone", "qualified"),
    );
    let Some(paged) = run.paged(path, &sql, "pk")? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        let get = |c: &str| raw(t, row, c).filter(|v| !v.is_empty());
        let label = get("email")
            .or_else(|| get("username"))
            .or_else(|| get("member_id"))
            .unwrap_or_else(|| "?".into());
        let mut d = Draft::new("accounts", format!("PayByPhone account {label}"));
        d.fact(FactType::Path, Some(path), find);
        let said = d.fields(
            t,
            row,
            inv,
            &[
                ("email", FactType::Email, "e-mail"),
                ("member_id", FactType::Account, "member id"),
                ("username", FactType::Account, "user name"),
                ("parking_account", FactType::Identifier, "parking account"),
            ],
        );
        d.interpretation = format!(
            "ZUSERACCOUNT Z_PK {} of {path}: the PayByPhone account signed in on the device, the device user's ({}).",
            t.get(row, "pk").unwrap_or("?"),
            said.join("; ")
        );
        run.record(d)?;
        let username = get("username");
        // a user name is the phone number or e-mail address the account signs in with
        let login = username
            .as_deref()
            .and_then(|u| run.handle_type(u).map(|(ty, _)| (ty, u)));
        let why = |what: &str| format!("{what} of the PayByPhone account signed in on the device.");
        let (qualified, email) = (get("qualified"), get("email"));
        let mut ids = vec![
            (
                IdType::AccountId,
                qualified.as_deref(),
                "The PayByPhone member id",
            ),
            (
                IdType::Email,
                email.as_deref(),
                "The account's e-mail address",
            ),
        ];
        if let Some((ty, u)) = login {
            ids.push((ty, Some(u), "The account's user name"));
        }
        run.observe_person("owner", "device owner", inv, &why, &ids)?;
    }
    crate::calls::note_pages_cap(run.ctx, path, &paged, "PayByPhone accounts")
}

fn vehicles(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    schema: &Schema,
) -> Result<(), RuntimeError> {
    let v = schema.columns(VEHICLE);
    let email = if v.contains("ZUSERACCOUNT") && schema.columns(ACCOUNT).contains("ZEMAIL") {
        format!("(SELECT u.ZEMAIL FROM {ACCOUNT} u WHERE u.Z_PK = v.ZUSERACCOUNT) AS email")
    } else {
        "NULL AS email".into()
    };
    let sql = format!(
        "SELECT v.Z_PK AS pk, v.ZLICENSEPLATE AS plate, {}, {email} FROM {VEHICLE} v",
        select_columns(
            &v,
            "v.",
            &[
                ("ZCOUNTRY", "country"),
                ("ZVEHICLEDESCRIPTION", "description"),
                ("ZVEHICLETYPESTRING", "vehicle_type"),
                ("ZVEHICLEID", "vehicle_id"),
            ],
        ),
    );
    let Some(paged) = run.paged(path, &sql, "pk")? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        let get = |c: &str| raw(t, row, c).filter(|v| !v.is_empty());
        let (plate, description) = (get("plate"), get("description"));
        let mut d = Draft::new(
            "accounts",
            format!(
                "PayByPhone vehicle {}",
                plate
                    .as_deref()
                    .or(description.as_deref())
                    .unwrap_or("without a plate")
            ),
        );
        d.fact(FactType::Path, Some(path), find);
        let said = d.fields(
            t,
            row,
            inv,
            &[
                ("plate", FactType::Identifier, "licence plate"),
                ("country", FactType::Text, "plate country"),
                ("description", FactType::Text, "description"),
                ("vehicle_type", FactType::Text, "type"),
                ("vehicle_id", FactType::Identifier, "vehicle id"),
                ("email", FactType::Email, "account e-mail"),
            ],
        );
        d.interpretation = format!(
            "ZVEHICLE Z_PK {} of {path}: a vehicle the device user's PayByPhone account pays parking for ({}); a licence plate links the car to other evidence (another phone's parking app, number-plate cameras, a rental), recorded as a fact: no identifier type exists for plates.",
            t.get(row, "pk").unwrap_or("?"),
            said.join("; ")
        );
        run.record(d)?;
    }
    crate::calls::note_pages_cap(run.ctx, path, &paged, "PayByPhone vehicles")
}

fn sessions(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    schema: &Schema,
) -> Result<(), RuntimeError> {
    let s = schema.columns(SESSION);
    let (vehicle, join_v) = if s.contains("ZVEHICLE") && schema.columns(VEHICLE).contains("Z_PK") {
        (
            format!(
                "{}, {}",
                column_or_null(&schema.columns(VEHICLE), "v.", "ZLICENSEPLATE", "plate"),
                column_or_null(
                    &schema.columns(VEHICLE),
                    "v.",
                    "ZVEHICLEDESCRIPTION",
                    "vehicle"
                ),
            ),
            format!(" LEFT JOIN {VEHICLE} v ON v.Z_PK = s.ZVEHICLE"),
        )
    } else {
        ("NULL AS plate, NULL AS vehicle".into(), String::new())
    };
    let a = schema.columns(ACCOUNT);
    let email = if s.contains("ZUSERACCOUNT")
        && a.contains("ZPARKINGACCOUNT")
        && a.contains("ZEMAIL")
    {
        format!(
            "(SELECT u.ZEMAIL FROM {ACCOUNT} u WHERE u.ZPARKINGACCOUNT = s.ZUSERACCOUNT ORDER BY u.Z_PK LIMIT 1) AS email"
        )
    } else {
        "NULL AS email".into()
    };
    let l = schema.columns(LOCATION);
    let (lot, join_l) = if s.contains("ZLOCATIONNUMBER") && l.contains("ZLOCATIONNUMBER") {
        (
            select_columns(
                &l,
                "l.",
                &[
                    ("ZNAME", "lot"),
                    ("ZVENDORNAME", "vendor"),
                    ("ZCOUNTRY", "country"),
                    ("ZCURRENCY", "currency"),
                    ("ZLOTMESSAGE", "lot_message"),
                ],
            ),
            // one lot per number
            format!(
                " LEFT JOIN {LOCATION} l ON l.Z_PK = (SELECT min(l2.Z_PK) FROM {LOCATION} l2 WHERE l2.ZLOCATIONNUMBER = s.ZLOCATIONNUMBER)"
            ),
        )
    } else {
        (
            "NULL AS lot, NULL AS vendor, NULL AS country, NULL AS currency, NULL AS lot_message"
                .into(),
            String::new(),
        )
    };
    let sql = format!(
        "SELECT s.Z_PK AS pk, s.ZSTARTTIME AS start_time, {}, {vehicle}, {email}, {lot} FROM {SESSION} s{join_v}{join_l}",
        select_columns(
            &s,
            "s.",
            &[
                ("ZEXPIRETIME", "expire_time"),
                ("ZAMOUNT", "amount"),
                ("ZCOORDINATELATITUDE", "latitude"),
                ("ZCOORDINATELONGITUDE", "longitude"),
                ("ZLOCATIONNUMBER", "location_number"),
            ],
        ),
    );
    let Some(paged) = run.paged(path, &sql, "pk")? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        let get = |c: &str| raw(t, row, c).filter(|v| !v.is_empty());
        let place = get("lot")
            .or_else(|| get("location_number").map(|n| format!("location {n}")))
            .unwrap_or_else(|| "an unrecorded place".into());
        let mut d = Draft::new(
            "locations",
            format!(
                "PayByPhone parking at {place}{}",
                get("plate").map(|p| format!(" ({p})")).unwrap_or_default()
            ),
        );
        d.fact(FactType::Path, Some(path), find);
        let said = d.fields(
            t,
            row,
            inv,
            &[
                ("plate", FactType::Identifier, "licence plate"),
                ("vehicle", FactType::Text, "vehicle"),
                ("amount", FactType::Amount, "amount"),
                ("currency", FactType::Text, "currency"),
                ("latitude", FactType::Text, "latitude"),
                ("longitude", FactType::Text, "longitude"),
                ("location_number", FactType::Identifier, "location number"),
                ("lot", FactType::Name, "lot"),
                ("vendor", FactType::Name, "vendor"),
                ("country", FactType::Text, "country"),
                ("lot_message", FactType::Text, "lot message"),
                ("email", FactType::Email, "account e-mail"),
            ],
        );
        d.times_of(
            t,
            row,
            inv,
            apple_seconds,
            &[
                ("start_time", "Parking session started"),
                ("expire_time", "Parking session expires"),
            ],
        );
        d.interpretation = format!(
            "ZPARKINGSESSION Z_PK {} of {path}: a parking session the device user paid with PayByPhone ({}); the car{} was parked there from the start to the expiry, the phone not necessarily; times are Cocoa seconds, the amount as stored.",
            t.get(row, "pk").unwrap_or("?"),
            said.join("; "),
            get("plate")
                .map(|p| format!(" with plate {p}"))
                .unwrap_or_default(),
        );
        run.record(d)?;
    }
    crate::calls::note_pages_cap(run.ctx, path, &paged, "PayByPhone parking sessions")
}
