//! Foursquare Swarm (`Containers/Data/Application/<id>/Library/Caches/foursquare.sqlite`, a Core
//! Data store), iLEAPP's `foursquareSwarm` (its reports "Foursquare Swarm - Account",
//! "- Contacts" and "- Check-ins"): the signed-in user, the other users the app cached, and the
//! check-ins — the user's own and those of friends the app showed.
//!
//! | table | phenomenon | fields |
//! |---|---|---|
//! | `ZFSUSER` (`ZRELATIONSHIP` 'self', with `ZFSFACEBOOKUSER`) | one `accounts` ("Foursquare Swarm account <name>") | user id, first and last name, phone, e-mail, gender, birthday (Cocoa seconds turned into a date in the query; year 1604 means none), home city, bio, profile URL, Twitter name, linked Facebook id, friends, check-ins and mayorships counts; created in Swarm and joined Foursquare (Cocoa seconds) |
//! | `ZFSUSER` (any other relationship or none) | one `contacts` per user ("Foursquare Swarm user <name>") | the same fields, the relationship and user type as stored (`friend`, `pendingMe`, `brand` …), blocked and muted as stored; last mentioned (Cocoa seconds) |
//! | `ZFSCHECKIN` (with `ZFSVENUE`, `ZFSUSER` and the many-to-many table `Z_<n>WITHFRIENDS`) | one `locations` per check-in ("Foursquare Swarm check-in at <venue> by <name>") | created (Cocoa seconds), time-zone offset (minutes), who checked in (name, user id, relationship), kind (automatic, passive or manual, as iLEAPP decides it, in the query), visibility (or private), shout, the venue (id, name, latitude, longitude, address, cross street, neighbourhood, city, state, postal code, country, phone, web site, Foursquare URL), a venue-less check-in's position and place name, passive stop id, friends tagged as with the user (names and user ids joined in the query), short URL, check-in id, source app, edited, liked, mayor |
//!
//! A check-in is a claim the user (or the friend named) made, or the app made for them
//! (automatic, passive), of being at the venue at that time; the venue's coordinates are the
//! venue's, not a fix of the phone — only a venue-less (passive) check-in keeps the position the
//! app recorded (`ZVENUELESSLAT`, `ZVENUELESSLNG`). A friend's check-in is in the store because
//! the app showed it (the feed), not because the device was there. The friends tagged are found
//! through Core Data's many-to-many table: `Z_PRIMARYKEY` names `FSCheckin`'s entity number `n`,
//! the table is `Z_<n>WITHFRIENDS`, its column ending in `WITHFRIENDSINVERSE` the check-in and
//! its other `Z_…WITHFRIENDS` column the user (the entity numbers differ between app versions);
//! a store without it gives no friends. iLEAPP's tips, stickers, photos, comments, plans, events,
//! lists, location history and feed reports are not read here.
//!
//! Columns are taken by name (absent ones NULL: older stores lack the Facebook table, the
//! visibility, passive and venue-less columns, the neighbourhood and cross street, the users'
//! created and mentioned times); a store with neither `ZFSUSER` nor `ZFSCHECKIN` (another app's
//! file of that name) is noted, as is a `ZFSUSER` without `Z_PK` or a `ZFSCHECKIN` without
//! `Z_PK` or `ZCREATEDAT`.
//!
//! Identities: the 'self' user is the device's user (`owner`): `foursquare:<user id>`, its phone,
//! e-mail and name; every other user is `foursquare:<user id>` with its phone, e-mail and name (a
//! brand, chain or venue page as an account, the others as persons). The linked Facebook id, a
//! venue's phone and the check-in ids are facts only.

use std::collections::BTreeSet;

use masf_agents::RuntimeError;
use masf_graph::{EntityKind, FactType, IdType};
use masf_tools::Invoked;

use super::{Draft, Run, Schema, file_name};
use crate::calls::{column_or_null, qualified_or_null, select_columns};
use crate::drafts::apple_seconds;
use crate::outputs::raw;

const USER: &str = "ZFSUSER";
const FACEBOOK: &str = "ZFSFACEBOOKUSER";
const VENUE: &str = "ZFSVENUE";
const CHECKIN: &str = "ZFSCHECKIN";
const KEYS: &str = "Z_PRIMARYKEY";

/// The user types that are no person (iLEAPP's labels: Brand, Chain, Venue Page, Page).
const NOT_PERSONS: [&str; 4] = ["brand", "chain", "venuePage", "page"];

/// Triage of every Foursquare Swarm store of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    let Some((find, paths)) = run.find("foursquare.sqlite")? else {
        return Ok(());
    };
    for path in &paths {
        let Some(schema) = run.schema(path, &[USER, FACEBOOK, VENUE, CHECKIN, KEYS])? else {
            continue;
        };
        let (users_held, checkins_held) = (
            !schema.columns(USER).is_empty(),
            !schema.columns(CHECKIN).is_empty(),
        );
        if !users_held && !checkins_held {
            run.ctx.unparsed(
                path,
                "could not parse Foursquare Swarm's foursquare.sqlite because it has none of the tables ZFSUSER, ZFSCHECKIN (another app's file of that name)",
                None,
            )?;
            continue;
        }
        if users_held && schema.require(run, USER, &["Z_PK"])? {
            users(run, &find, path, &schema)?;
        }
        if checkins_held && schema.require(run, CHECKIN, &["Z_PK", "ZCREATEDAT"])? {
            checkins(run, &find, path, &schema)?;
        }
    }
    Ok(())
}

/// `trim(first || ' ' || last)` of the user alias `u` (NULL parts as empty), or NULL when the
/// table has neither name column.
fn full_name(cols: &BTreeSet<String>, u: &str) -> String {
    let part = |c: &str| {
        if cols.contains(c) {
            format!("coalesce({u}.{c}, '')")
        } else {
            "''".into()
        }
    };
    if !cols.contains("ZFIRSTNAME") && !cols.contains("ZLASTNAME") {
        return "NULL".into();
    }
    format!(
        "nullif(trim({} || ' ' || {}), '')",
        part("ZFIRSTNAME"),
        part("ZLASTNAME")
    )
}

/// Whether `name` can stand in SQL as a table or column name read from the store (letters,
/// digits, underscores): Core Data's generated names, nothing else.
fn plain_name(name: &str) -> bool {
    !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

fn users(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    schema: &Schema,
) -> Result<(), RuntimeError> {
    let u = schema.columns(USER);
    let birthday = if u.contains("ZBIRTHDAY") {
        // Cocoa seconds; a birthday kept without its year falls in 1604 (iLEAPP's reading)
        "CASE WHEN u.ZBIRTHDAY IS NOT NULL THEN CASE WHEN strftime('%Y', u.ZBIRTHDAY + 978307200, 'unixepoch') = '1604' THEN strftime('--%m-%d', u.ZBIRTHDAY + 978307200, 'unixepoch') ELSE strftime('%Y-%m-%d', u.ZBIRTHDAY + 978307200, 'unixepoch') END END AS birthday".to_string()
    } else {
        "NULL AS birthday".into()
    };
    let facebook = if u.contains("ZFACEBOOKUSER") && schema.columns(FACEBOOK).contains("ZMONGOID") {
        format!(
            "(SELECT f.ZMONGOID FROM {FACEBOOK} f WHERE f.Z_PK = u.ZFACEBOOKUSER) AS facebook_id"
        )
    } else {
        "NULL AS facebook_id".into()
    };
    let sql = format!(
        "SELECT u.Z_PK AS pk, {} AS name, {}, {}, {birthday}, {facebook} FROM {USER} u",
        full_name(&u, "u"),
        select_columns(
            &u,
            "u.",
            &[
                ("ZMONGOID", "user_id"),
                ("ZFIRSTNAME", "first_name"),
                ("ZLASTNAME", "last_name"),
                ("ZRELATIONSHIP", "relationship"),
                ("ZUSERTYPE", "user_type"),
                ("ZPHONE", "phone"),
                ("ZEMAIL", "email"),
                ("ZGENDER", "gender"),
                ("ZHOMECITY", "home_city"),
                ("ZBIO", "bio"),
                ("ZCANONICALURL", "profile_url"),
                ("ZTWITTER", "twitter"),
                ("ZBLOCKEDSTATUS", "blocked"),
                ("ZMUTED", "muted"),
                ("ZFRIENDSCOUNT", "friends"),
                ("ZCHECKINSCOUNT", "checkins"),
                ("ZMAYORSHIPSCOUNT", "mayorships"),
                ("ZSWARMCREATEDAT", "created"),
                ("ZJOINEDAT", "joined"),
                ("ZLASTMENTIONED", "mentioned"),
            ],
        ),
        qualified_or_null(&u, "u.", "ZMONGOID", "foursquare", "qualified"),
    );
    let Some(paged) = run.paged(path, &sql, "pk")? else {
        return Ok(());
    };
    let file = file_name(path);
    for (inv, t, row) in paged.rows() {
        let get = |c: &str| raw(t, row, c).filter(|v| !v.is_empty());
        let own = t.get(row, "relationship") == Some("self");
        let label = get("name")
            .or_else(|| get("email"))
            .or_else(|| get("user_id"))
            .unwrap_or_else(|| format!("Z_PK {}", t.get(row, "pk").unwrap_or("?")));
        let mut d = if own {
            Draft::new("accounts", format!("Foursquare Swarm account {label}"))
        } else {
            Draft::new("contacts", format!("Foursquare Swarm user {label}"))
        };
        d.fact(FactType::Path, Some(path), find);
        let said = d.fields(
            t,
            row,
            inv,
            &[
                ("user_id", FactType::Account, "user id"),
                ("first_name", FactType::Name, "first name"),
                ("last_name", FactType::Name, "last name"),
                ("relationship", FactType::Text, "relationship"),
                ("user_type", FactType::Text, "user type"),
                ("phone", FactType::Phone, "phone"),
                ("email", FactType::Email, "e-mail"),
                ("gender", FactType::Text, "gender"),
                ("birthday", FactType::Text, "birthday"),
                ("home_city", FactType::Text, "home city"),
                ("bio", FactType::Text, "bio"),
                ("profile_url", FactType::Url, "profile"),
                ("twitter", FactType::Account, "Twitter"),
                ("facebook_id", FactType::Account, "linked Facebook id"),
                ("blocked", FactType::Text, "blocked"),
                ("muted", FactType::Text, "muted"),
                ("friends", FactType::Count, "friends"),
                ("checkins", FactType::Count, "check-ins"),
                ("mayorships", FactType::Count, "mayorships"),
            ],
        );
        d.times_of(
            t,
            row,
            inv,
            apple_seconds,
            &[
                ("created", "Foursquare Swarm account created"),
                ("joined", "Foursquare account joined"),
                ("mentioned", "Foursquare Swarm user last mentioned"),
            ],
        );
        d.interpretation = format!(
            "{USER} Z_PK {} of {file}: {} ({}); times are Cocoa seconds.",
            t.get(row, "pk").unwrap_or("?"),
            if own {
                "the Foursquare Swarm account signed in on the device, the device user's (ZRELATIONSHIP self)"
            } else {
                "a Foursquare user the app cached — a friend, a pending request, a brand or venue page, or someone met in the feed, as its relationship says"
            },
            said.join("; "),
        );
        run.record(d)?;
        // the identities
        let (qualified, phone, email, name) =
            (get("qualified"), get("phone"), get("email"), get("name"));
        if own {
            let why = |what: &str| {
                format!(
                    "{what} of the Foursquare Swarm account signed in on the device ({USER} of {file}, relationship self)."
                )
            };
            run.observe_person(
                "owner",
                "device owner",
                inv,
                &why,
                &[
                    (
                        IdType::AccountId,
                        qualified.as_deref(),
                        "The Foursquare user id",
                    ),
                    (IdType::Phone, phone.as_deref(), "The phone number"),
                    (IdType::Email, email.as_deref(), "The e-mail address"),
                    (IdType::DisplayName, name.as_deref(), "The name"),
                ],
            )?;
            continue;
        }
        let Some(id) = get("user_id") else {
            continue;
        };
        let entity = if t
            .get(row, "user_type")
            .is_some_and(|k| NOT_PERSONS.contains(&k))
        {
            EntityKind::Account
        } else {
            EntityKind::Person
        };
        let context = format!("foursquare:{id}");
        for (value, id_type, what) in [
            (&qualified, IdType::AccountId, "The Foursquare user id"),
            (&phone, IdType::Phone, "The phone number"),
            (&email, IdType::Email, "The e-mail address"),
            (&name, IdType::DisplayName, "The name"),
        ] {
            if let Some(v) = value {
                run.observe(
                    &context,
                    entity,
                    &label,
                    id_type,
                    v,
                    inv,
                    format!("{what} of the Foursquare user {label} ({USER} of {file})."),
                )?;
            }
        }
    }
    crate::calls::note_pages_cap(run.ctx, path, &paged, "Foursquare Swarm users")
}

/// The many-to-many table of the friends a check-in is with, and its check-in and user
/// columns, as the store's `Z_PRIMARYKEY` and schema name them (`None` when it has none).
fn with_friends(
    run: &Run<'_, '_>,
    path: &str,
    schema: &Schema,
) -> Result<Option<(String, String, String)>, RuntimeError> {
    let keys = schema.columns(KEYS);
    if !keys.contains("Z_ENT") || !keys.contains("Z_NAME") {
        return Ok(None);
    }
    let sql = format!(
        "SELECT m.name AS tbl, p.name AS col FROM sqlite_master m JOIN pragma_table_info(m.name) p \
WHERE m.type = 'table' AND m.name = (SELECT 'Z_' || k.Z_ENT || 'WITHFRIENDS' FROM {KEYS} k WHERE k.Z_NAME = 'FSCheckin' LIMIT 1) ORDER BY p.cid"
    );
    let Some((_, t)) = run.query(path, &sql, 100)? else {
        return Ok(None);
    };
    let mut table = None;
    let (mut checkin, mut user) = (None, None);
    for row in &t.rows {
        let (Some(tbl), Some(col)) = (t.get(row, "tbl"), t.get(row, "col")) else {
            continue;
        };
        if !plain_name(tbl) || !plain_name(col) {
            continue;
        }
        table = Some(tbl.to_string());
        if col.ends_with("WITHFRIENDSINVERSE") {
            if checkin.is_none() {
                checkin = Some(col.to_string());
            }
        } else if col.starts_with("Z_") && col.ends_with("WITHFRIENDS") && user.is_none() {
            user = Some(col.to_string());
        }
    }
    Ok(match (table, checkin, user) {
        (Some(t), Some(c), Some(u)) => Some((t, c, u)),
        _ => None,
    })
}

/// `CASE …` of a check-in's kind as iLEAPP decides it (automatic, then passive by its stop id or
/// type, else manual), from the columns the table has; NULL when it has none of them.
fn kind(c: &BTreeSet<String>) -> String {
    let mut arms = Vec::new();
    if c.contains("ZISAUTOMATIC") {
        arms.push("WHEN c.ZISAUTOMATIC = 1 THEN 'automatic'".to_string());
    }
    if c.contains("ZPASSIVESTOPID") {
        arms.push("WHEN c.ZPASSIVESTOPID IS NOT NULL THEN 'passive'".to_string());
    }
    if c.contains("ZCHECKINTYPE") {
        arms.push("WHEN lower(c.ZCHECKINTYPE) = 'passive' THEN 'passive'".to_string());
    }
    if arms.is_empty() {
        return "NULL AS checkin_kind".into();
    }
    format!("CASE {} ELSE 'manual' END AS checkin_kind", arms.join(" "))
}

fn checkins(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    schema: &Schema,
) -> Result<(), RuntimeError> {
    let c = schema.columns(CHECKIN);
    let (v, u) = (schema.columns(VENUE), schema.columns(USER));
    let (venue, join_v) = if c.contains("ZVENUE") && v.contains("Z_PK") {
        (
            select_columns(
                &v,
                "v.",
                &[
                    ("ZMONGOID", "venue_id"),
                    ("ZNAME", "venue"),
                    ("ZGEOLAT", "latitude"),
                    ("ZGEOLONG", "longitude"),
                    ("ZADDRESS", "address"),
                    ("ZCROSSSTREET", "cross_street"),
                    ("ZNEIGHBORHOOD", "neighborhood"),
                    ("ZCITY", "city"),
                    ("ZSTATE", "state"),
                    ("ZPOSTALCODE", "postal_code"),
                    ("ZCOUNTRY", "country"),
                    ("ZPHONE", "venue_phone"),
                    ("ZURL", "website"),
                    ("ZCANONICALURL", "venue_url"),
                ],
            ),
            format!(" LEFT JOIN {VENUE} v ON v.Z_PK = c.ZVENUE"),
        )
    } else {
        (
            "NULL AS venue_id, NULL AS venue, NULL AS latitude, NULL AS longitude, NULL AS address, \
NULL AS cross_street, NULL AS neighborhood, NULL AS city, NULL AS state, NULL AS postal_code, \
NULL AS country, NULL AS venue_phone, NULL AS website, NULL AS venue_url"
                .into(),
            String::new(),
        )
    };
    let (user, join_u) = if c.contains("ZUSER") && u.contains("Z_PK") {
        (
            format!(
                "{} AS by_name, {}, {}",
                full_name(&u, "u"),
                column_or_null(&u, "u.", "ZMONGOID", "by_id"),
                column_or_null(&u, "u.", "ZRELATIONSHIP", "by_relationship"),
            ),
            format!(" LEFT JOIN {USER} u ON u.Z_PK = c.ZUSER"),
        )
    } else {
        (
            "NULL AS by_name, NULL AS by_id, NULL AS by_relationship".into(),
            String::new(),
        )
    };
    let friends = match with_friends(run, path, schema)? {
        Some((tbl, ccol, ucol)) if u.contains("Z_PK") => {
            let name = full_name(&u, "w");
            let ids = if u.contains("ZMONGOID") {
                format!(
                    "(SELECT group_concat(w.ZMONGOID, '; ') FROM {tbl} f JOIN {USER} w ON w.Z_PK = f.{ucol} WHERE f.{ccol} = c.Z_PK)"
                )
            } else {
                "NULL".into()
            };
            format!(
                "(SELECT group_concat({name}, '; ') FROM {tbl} f JOIN {USER} w ON w.Z_PK = f.{ucol} WHERE f.{ccol} = c.Z_PK) AS with_names, {ids} AS with_ids"
            )
        }
        _ => "NULL AS with_names, NULL AS with_ids".into(),
    };
    let sql = format!(
        "SELECT c.Z_PK AS pk, c.ZCREATEDAT AS created, {}, {}, {venue}, {user}, {friends} FROM {CHECKIN} c{join_v}{join_u}",
        select_columns(
            &c,
            "c.",
            &[
                ("ZMONGOID", "checkin_id"),
                ("ZTIMEZONEOFFSET", "tz_offset"),
                ("ZSHOUT", "shout"),
                ("ZVISIBILITY", "visibility"),
                ("ZPRIVATE", "private"),
                ("ZCHECKINSHORTURL", "checkin_url"),
                ("ZSOURCENAME", "source_app"),
                ("ZEDITED", "edited"),
                ("ZLIKE", "liked"),
                ("ZISMAYOR", "mayor"),
                ("ZVENUELESSLAT", "place_latitude"),
                ("ZVENUELESSLNG", "place_longitude"),
                ("ZVENUELESSLOCATIONNAME", "place_name"),
                ("ZPASSIVESTOPID", "passive_stop"),
            ],
        ),
        kind(&c),
    );
    let Some(paged) = run.paged(path, &sql, "pk")? else {
        return Ok(());
    };
    let file = file_name(path);
    for (inv, t, row) in paged.rows() {
        let get = |c: &str| raw(t, row, c).filter(|v| !v.is_empty());
        let place = get("venue")
            .or_else(|| get("place_name"))
            .unwrap_or_else(|| "an unnamed place".into());
        let by = get("by_name")
            .or_else(|| get("by_id"))
            .unwrap_or_else(|| "an unrecorded user".into());
        let own = t.get(row, "by_relationship") == Some("self");
        let mut d = Draft::new(
            "locations",
            format!("Foursquare Swarm check-in at {place} by {by}"),
        );
        d.fact(FactType::Path, Some(path), find);
        let said = d.fields(
            t,
            row,
            inv,
            &[
                ("checkin_id", FactType::Identifier, "check-in id"),
                ("by_name", FactType::Name, "by"),
                ("by_id", FactType::Account, "user id"),
                ("by_relationship", FactType::Text, "relationship"),
                ("checkin_kind", FactType::Text, "kind"),
                ("visibility", FactType::Text, "visibility"),
                ("private", FactType::Text, "private"),
                ("shout", FactType::Text, "shout"),
                ("venue", FactType::Name, "venue"),
                ("venue_id", FactType::Identifier, "venue id"),
                ("latitude", FactType::Text, "venue latitude"),
                ("longitude", FactType::Text, "venue longitude"),
                ("address", FactType::Text, "address"),
                ("cross_street", FactType::Text, "cross street"),
                ("neighborhood", FactType::Text, "neighbourhood"),
                ("city", FactType::Text, "city"),
                ("state", FactType::Text, "state"),
                ("postal_code", FactType::Text, "postal code"),
                ("country", FactType::Text, "country"),
                ("venue_phone", FactType::Phone, "venue phone"),
                ("website", FactType::Url, "venue web site"),
                ("venue_url", FactType::Url, "venue on Foursquare"),
                ("place_latitude", FactType::Text, "recorded latitude"),
                ("place_longitude", FactType::Text, "recorded longitude"),
                ("place_name", FactType::Name, "recorded place"),
                ("passive_stop", FactType::Identifier, "passive stop id"),
                ("with_names", FactType::Text, "with"),
                ("with_ids", FactType::Text, "with user ids"),
                ("tz_offset", FactType::Text, "time-zone offset (minutes)"),
                ("checkin_url", FactType::Url, "short URL"),
                ("source_app", FactType::Text, "source app"),
                ("edited", FactType::Text, "edited"),
                ("liked", FactType::Text, "liked"),
                ("mayor", FactType::Text, "mayor"),
            ],
        );
        let at = t.get(row, "created");
        d.time(at, apple_seconds(at), "Foursquare Swarm check-in", inv);
        d.interpretation = format!(
            "{CHECKIN} Z_PK {} of {file}: {} ({}); created at {} (Cocoa seconds). A check-in says the user was at the venue then, by their own or the app's (automatic, passive) doing; the venue's coordinates are the venue's, not a fix of the phone — only a venue-less check-in keeps the position the app recorded.",
            t.get(row, "pk").unwrap_or("?"),
            if own {
                "a check-in of the device's user (the account, relationship self)".to_string()
            } else {
                format!(
                    "a check-in of {by}, which the app showed the device's user (the feed): it places {by}, not the device"
                )
            },
            said.join("; "),
            at.unwrap_or("?"),
        );
        run.record(d)?;
    }
    crate::calls::note_pages_cap(run.ctx, path, &paged, "Foursquare Swarm check-ins")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_kinds() {
        let cols: BTreeSet<String> = ["ZFIRSTNAME".to_string()].into();
        assert_eq!(
            full_name(&cols, "u"),
            "nullif(trim(coalesce(u.ZFIRSTNAME, '') || ' ' || ''), '')"
        );
        assert_eq!(full_name(&BTreeSet::new(), "u"), "NULL");
        assert!(plain_name("Z_6WITHFRIENDS") && !plain_name("x; DROP") && !plain_name(""));
        assert_eq!(kind(&BTreeSet::new()), "NULL AS checkin_kind");
        let c: BTreeSet<String> = ["ZISAUTOMATIC".to_string(), "ZCHECKINTYPE".to_string()].into();
        assert_eq!(
            kind(&c),
            "CASE WHEN c.ZISAUTOMATIC = 1 THEN 'automatic' WHEN lower(c.ZCHECKINTYPE) = 'passive' THEN 'passive' ELSE 'manual' END AS checkin_kind"
        );
    }
}
