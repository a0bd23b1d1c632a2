//! AllTrails for iOS (`Containers/Data/Application/<id>/Documents/AllTrails.sqlite`, the app's
//! Core Data store), iLEAPP's `allTrails` ("AllTrails - Trail Details", "AllTrails - User
//! Info"): the trails the app keeps with where each lies, and the AllTrails users it keeps — the
//! account signed in with its e-mail and home place.
//!
//! | table | phenomenon | fields |
//! |---|---|---|
//! | `ZTRAIL` (with `ZLOCATION`, `ZPARKAREA`, `ZACTIVITYSTATS`) | one `locations` per trail ("AllTrails trail <name>") | name, route type, difficulty as stored and as iLEAPP reads it (1 easy, 3 moderate, 5 hard, said in the query), rating, reviews, length and elevation gain (metres), the park area's name; the trail's place: latitude, longitude, city, region and its name, postal code, country and its name |
//! | `ZUSER` (with `ZPROFILE`, `ZLOCATION`) | one `accounts` per user ("AllTrails user <user name>") | user name, first and last name, e-mail (the user's `ZPROFILE`), remote id (`ZREMOTEID`, where the store has it), referral link, the place recorded for the user (as for a trail), why the user is taken for the account held (said in the query); created (`ZCREATIONTIME`, Cocoa seconds) |
//!
//! A trail's place is the trail's (iLEAPP maps it), not a position of the device: the store does
//! not say whether the user viewed, saved, downloaded or walked it (recorded activities are not
//! among the tables iLEAPP reads, and are not read here). Every trail is listed, not only those
//! with a park area and difficulty (iLEAPP's inner joins); a trail with several park areas or
//! activity statistics gives the first (by `Z_PK`). A user's place is the one the account keeps
//! (city, region), not a position fix.
//!
//! Identities: the account held on the phone is the device's user's (`owner`: e-mail, user
//! name, name, and `alltrails:<remote id>` where the store keeps `ZREMOTEID` — the namespace of
//! the Android reader, `android::alltrails`): the one user `ZPROFILE` names (the app's
//! own profile), or else the only row of `ZUSER`. Any other user is the person
//! `alltrails:<remote id>` with user name and name; without a remote id, facts only. Nothing is
//! left unread for being a secret: the tables read hold none.
//!
//! Columns are taken by name (absent ones NULL); a store with neither `ZTRAIL` nor `ZUSER`
//! (another app's file of the name) is noted, as is a `ZTRAIL` without `Z_PK` or `ZNAME`, a
//! `ZUSER` without `Z_PK` or `ZUSERNAME`, and a store that does not open (by the call).

use std::collections::BTreeSet;

use masf_agents::RuntimeError;
use masf_graph::{FactType, IdType};
use masf_tools::Invoked;

use super::{Draft, Run, Schema, file_name};
use crate::calls::{column_expr, qualified_or_null, require_columns, select_columns};
use crate::drafts::apple_seconds;
use crate::outputs::raw;

const TRAIL: &str = "ZTRAIL";
const USER: &str = "ZUSER";
const PROFILE: &str = "ZPROFILE";
const PLACE: &str = "ZLOCATION";
const PARK: &str = "ZPARKAREA";
const STATS: &str = "ZACTIVITYSTATS";

/// The place columns read, on a trail and on a user: (column, alias).
const PLACE_COLUMNS: [(&str, &str); 8] = [
    ("ZLATITUDE", "latitude"),
    ("ZLONGITUDE", "longitude"),
    ("ZCITY", "city"),
    ("ZREGION", "region"),
    ("ZREGIONNAME", "region_name"),
    ("ZPOSTALCODE", "postal_code"),
    ("ZCOUNTRY", "country"),
    ("ZCOUNTRYNAME", "country_name"),
];

/// The place facts: (alias, type, label).
const PLACE_FIELDS: [(&str, FactType, &str); 8] = [
    ("latitude", FactType::Text, "latitude"),
    ("longitude", FactType::Text, "longitude"),
    ("city", FactType::Text, "city"),
    ("region", FactType::Text, "region"),
    ("region_name", FactType::Text, "region name"),
    ("postal_code", FactType::Text, "postal code"),
    ("country", FactType::Text, "country"),
    ("country_name", FactType::Text, "country name"),
];

/// Triage of every AllTrails store of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    let Some((find, paths)) = run.find("AllTrails.sqlite")? else {
        return Ok(());
    };
    for path in paths
        .iter()
        .filter(|p| p.ends_with("/Documents/AllTrails.sqlite"))
    {
        store(run, &find, path)?;
    }
    Ok(())
}

fn store(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let Some(schema) = run.schema(path, &[TRAIL, USER, PROFILE, PLACE, PARK, STATS])? else {
        return Ok(());
    };
    let (trail, user) = (schema.columns(TRAIL), schema.columns(USER));
    if trail.is_empty() && user.is_empty() {
        run.ctx.unparsed(
            path,
            "could not parse AllTrails' AllTrails.sqlite because it has none of the tables ZTRAIL, ZUSER",
            None,
        )?;
        return Ok(());
    }
    let what = "AllTrails' AllTrails.sqlite";
    if !trail.is_empty() && require_columns(run.ctx, path, what, TRAIL, &trail, &["Z_PK", "ZNAME"])?
    {
        trails(run, find, path, &schema)?;
    }
    if !user.is_empty()
        && require_columns(run.ctx, path, what, USER, &user, &["Z_PK", "ZUSERNAME"])?
    {
        users(run, find, path, &schema)?;
    }
    Ok(())
}

/// The place of the row aliased `of` (its `ZLOCATION`): the place columns and the join, or NULLs
/// when the store keeps no place.
fn place(schema: &Schema, of: &BTreeSet<String>, prefix: &str) -> (String, String) {
    let l = schema.columns(PLACE);
    if of.contains("ZLOCATION") && l.contains("Z_PK") {
        (
            select_columns(&l, "l.", &PLACE_COLUMNS),
            format!(" LEFT JOIN {PLACE} l ON l.Z_PK = {prefix}ZLOCATION"),
        )
    } else {
        (
            PLACE_COLUMNS
                .iter()
                .map(|(_, a)| format!("NULL AS {a}"))
                .collect::<Vec<_>>()
                .join(", "),
            String::new(),
        )
    }
}

/// The first value of `column` of the rows of `table` (whose columns are `c`) naming the trail
/// (`ZTRAIL`), by row id (Core Data's `Z_PK`).
fn of_trail(c: &BTreeSet<String>, table: &str, column: &str, alias: &str) -> String {
    if ["ZTRAIL", column].iter().all(|x| c.contains(*x)) {
        format!(
            "(SELECT x.{column} FROM {table} x WHERE x.ZTRAIL = t.Z_PK ORDER BY x.rowid LIMIT 1) AS {alias}"
        )
    } else {
        format!("NULL AS {alias}")
    }
}

fn trails(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    schema: &Schema,
) -> Result<(), RuntimeError> {
    let t = schema.columns(TRAIL);
    let (place_cols, join) = place(schema, &t, "t.");
    let sql = format!(
        "SELECT * FROM (SELECT q.*, CASE q.difficulty WHEN 1 THEN 'easy' WHEN 3 THEN 'moderate' WHEN 5 THEN 'hard' END AS difficulty_said FROM (SELECT t.Z_PK AS pk, t.ZNAME AS name, {}, {}, {}, {place_cols} FROM {TRAIL} t{join}) q)",
        select_columns(
            &t,
            "t.",
            &[
                ("ZROUTETYPENAME", "route_type"),
                ("ZRATING", "rating"),
                ("ZREVIEWCOUNT", "reviews"),
                ("ZLENGTH", "length"),
                ("ZELEVATIONGAIN", "elevation_gain"),
            ],
        ),
        of_trail(&schema.columns(STATS), STATS, "ZDIFFICULTY", "difficulty"),
        of_trail(&schema.columns(PARK), PARK, "ZNAME", "park"),
    );
    let Some(paged) = run.paged(path, &sql, "pk")? else {
        return Ok(());
    };
    let file = file_name(path);
    for (inv, t, row) in paged.rows() {
        let name = raw(t, row, "name").unwrap_or_else(|| "without a name".into());
        let mut d = Draft::new("locations", format!("AllTrails trail {name}"));
        d.fact(FactType::Path, Some(path), find);
        let mut spec = vec![
            ("name", FactType::Name, "name"),
            ("route_type", FactType::Text, "route type"),
            ("difficulty", FactType::Text, "difficulty (as stored)"),
            ("difficulty_said", FactType::Text, "difficulty"),
            ("rating", FactType::Text, "rating"),
            ("reviews", FactType::Count, "reviews"),
            ("length", FactType::Text, "length (m)"),
            ("elevation_gain", FactType::Text, "elevation gain (m)"),
            ("park", FactType::Name, "park area"),
        ];
        spec.extend(PLACE_FIELDS);
        let said = d.fields(t, row, inv, &spec);
        d.interpretation = format!(
            "{TRAIL} Z_PK {} of {file}: a trail the AllTrails app keeps ({}). Its place is the trail's, not a position of the device; the store does not say whether the user viewed, saved, downloaded or walked it. The difficulty is as stored, with iLEAPP's reading (1 easy, 3 moderate, 5 hard) said where it applies.",
            t.get(row, "pk").unwrap_or("?"),
            said.join("; "),
        );
        run.record(d)?;
    }
    crate::calls::note_pages_cap(run.ctx, path, &paged, "AllTrails trails")
}

fn users(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    schema: &Schema,
) -> Result<(), RuntimeError> {
    let u = schema.columns(USER);
    let p = schema.columns(PROFILE);
    let (place_cols, join) = place(schema, &u, "u.");
    let profiled = p.contains("ZUSER");
    let email = if profiled && p.contains("ZEMAIL") {
        format!(
            "(SELECT p.ZEMAIL FROM {PROFILE} p WHERE p.ZUSER = u.Z_PK AND p.ZEMAIL IS NOT NULL AND p.ZEMAIL != '' ORDER BY p.rowid LIMIT 1) AS email"
        )
    } else {
        "NULL AS email".to_string()
    };
    let by_profile = if profiled {
        format!(
            "WHEN (SELECT count(DISTINCT ZUSER) FROM {PROFILE} WHERE ZUSER IS NOT NULL) = 1 AND EXISTS (SELECT 1 FROM {PROFILE} p WHERE p.ZUSER = u.Z_PK) THEN 'the user whose profile ZPROFILE keeps' "
        )
    } else {
        String::new()
    };
    let sql = format!(
        "SELECT * FROM (SELECT u.Z_PK AS pk, u.ZUSERNAME AS user_name, {}, trim(coalesce({}, '') || ' ' || coalesce({}, '')) AS full_name, {}, {email}, CASE {by_profile}WHEN (SELECT count(*) FROM {USER}) = 1 THEN 'the only user of the store' END AS owner_reason, {place_cols} FROM {USER} u{join})",
        select_columns(
            &u,
            "u.",
            &[
                ("ZFIRSTNAME", "first_name"),
                ("ZLASTNAME", "last_name"),
                ("ZREMOTEID", "remote_id"),
                ("ZREFERRALLINK", "referral_link"),
                ("ZCREATIONTIME", "created"),
            ],
        ),
        column_expr(&u, "u.", "ZFIRSTNAME"),
        column_expr(&u, "u.", "ZLASTNAME"),
        qualified_or_null(&u, "u.", "ZREMOTEID", "alltrails", "qualified"),
    );
    let Some(paged) = run.paged(path, &sql, "pk")? else {
        return Ok(());
    };
    let file = file_name(path);
    for (inv, t, row) in paged.rows() {
        let user_name = raw(t, row, "user_name");
        let full = raw(t, row, "full_name").filter(|n| !n.is_empty());
        let shown = user_name
            .clone()
            .or_else(|| full.clone())
            .unwrap_or_else(|| "without a name".into());
        let mut d = Draft::new("accounts", format!("AllTrails user {shown}"));
        d.fact(FactType::Path, Some(path), find);
        let mut spec = vec![
            ("user_name", FactType::Account, "user name"),
            ("first_name", FactType::Name, "first name"),
            ("last_name", FactType::Name, "last name"),
            ("email", FactType::Email, "e-mail"),
            ("remote_id", FactType::Account, "remote id"),
            ("referral_link", FactType::Url, "referral link"),
            ("owner_reason", FactType::Text, "held as"),
        ];
        spec.extend(PLACE_FIELDS);
        let said = d.fields(t, row, inv, &spec);
        let created = t.get(row, "created");
        d.time(
            created,
            apple_seconds(created),
            "AllTrails user created",
            inv,
        );
        let reason = t.get(row, "owner_reason");
        d.interpretation = format!(
            "{USER} Z_PK {} of {file}: an AllTrails user the app keeps ({}){}; the place is the one recorded for the user, not a position fix; created is Cocoa seconds.",
            t.get(row, "pk").unwrap_or("?"),
            said.join("; "),
            match reason {
                Some(r) => format!(", taken for the account held on the device ({r})"),
                None => ", another user than the account held on the device".to_string(),
            },
        );
        run.record(d)?;
        let qualified = t.get(row, "qualified");
        let (user_name, full) = (user_name.as_deref(), full.as_deref());
        if let Some(r) = reason {
            let why = |what: &str| {
                format!(
                    "{what} of the AllTrails account held on the device ({USER} of {file}: {r}), the device's user's."
                )
            };
            run.observe_person(
                "owner",
                "device owner",
                inv,
                &why,
                &[
                    (IdType::Email, t.get(row, "email"), "The e-mail address"),
                    (IdType::AccountId, qualified, "The AllTrails user id"),
                    (IdType::Nickname, user_name, "The AllTrails user name"),
                    (IdType::DisplayName, full, "The name"),
                ],
            )?;
        } else if let Some(context) = qualified {
            let label = user_name.or(full).unwrap_or(context);
            let why = |what: &str| {
                format!("{what} of the AllTrails user {label}, whom the app keeps ({file}).")
            };
            run.observe_person(
                context,
                label,
                inv,
                &why,
                &[
                    (IdType::AccountId, Some(context), "The AllTrails user id"),
                    (IdType::Nickname, user_name, "The AllTrails user name"),
                    (IdType::DisplayName, full, "The name"),
                ],
            )?;
        }
    }
    crate::calls::note_pages_cap(run.ctx, path, &paged, "AllTrails users")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_of_a_trail_only_when_the_columns_are_there() {
        let s: BTreeSet<String> = ["Z_PK", "ZTRAIL", "ZDIFFICULTY"]
            .iter()
            .map(|c| c.to_string())
            .collect();
        assert!(of_trail(&s, STATS, "ZDIFFICULTY", "d").starts_with("(SELECT x.ZDIFFICULTY"));
        assert_eq!(of_trail(&s, PARK, "ZNAME", "park"), "NULL AS park");
    }
}
