//! Tinder on iOS: the Core Data store `Library/Application Support/Tinder/Tinder2.sqlite` of
//! its container and its preferences `com.cardify.tinder.plist`, with the fields of iLEAPP's
//! `tinderMessages`, `tinderMatches`, `tinderRecommendations` and `tinderAccount`:
//!
//! - one `accounts` phenomenon for the device's user: the `ZUSER` row flagged
//!   `ZISCURRENTUSER` (user id, first name, birth date, gender, bio, city, public user name,
//!   Instagram name, number) and the preferences (account created, first and last consecutive
//!   login, e-mail, the `Profile.account` JSON's e-mail, phone and linked Apple, Facebook,
//!   Google and LINE ids, previously logged in);
//! - one `messages` per `ZMESSAGE` row: created and client-created (Core Data seconds), sender
//!   id and first name, text, type, subtype, liked, viewed, hidden, media, photo, local image and
//!   link URLs, message id, the match's id and the matched person's name; direction by the
//!   current user's id;
//! - one `contacts` per `ZMATCH` row with the matched person's `ZUSER` row: created, last
//!   activity, touched, expires, first name, user id, bio, city, birth date, gender, distance in
//!   miles, server message count, the super-like, fast, boost, top-picks, expired, seen, viewed
//!   and following flags, subscription tier, message draft, match id;
//! - one `contacts` per `ZRECOMMENDATION` row (a profile the app offered): the profile's birth
//!   date, first name, user id, bio, city, location name, distance, gender and custom gender,
//!   verified, liked, super-liked, Instagram and public user names, school; the
//!   recommendation's type, source, sub-source, new, rewound, swipe note, expiry and id.
//!
//! Identities: the current user and every matched person are `tinder:<user id>` (qualified in
//! the query; the id Android's Tinder keeps), with first name and public user name; the
//! preferences' e-mail and phone go on `owner`. Recommended profiles are not persons: the app
//! offered them, nothing says the user knew them. Schema drift: each table is read when it has
//! `Z_PK` and its key column, the others where present.

use masf_agents::RuntimeError;
use masf_graph::{EntityKind, FactType, IdType};
use masf_tools::Invoked;

use super::photos::{fields, times};
use super::{Draft, Run, Schema};
use crate::calls::column_or_null;
use crate::calls::select_columns as select;
use crate::outputs::json_scalar;

/// Triage of every Tinder store and preferences file of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    run.each("com.cardify.tinder.plist", |find, path| {
        if path.contains("/Containers/Data/Application/") {
            prefs(run, find, path)
        } else {
            Ok(())
        }
    })?;
    run.each("Tinder2.sqlite", |find, path| {
        if path.ends_with("/Library/Application Support/Tinder/Tinder2.sqlite") {
            store(run, find, path)
        } else {
            Ok(())
        }
    })
}

fn prefs(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let Some((inv, v)) =
        super::plists::parse_with(run, path, serde_json::json!({"decode_data": true}))?
    else {
        return Ok(());
    };
    let account = v
        .get("Profile.account")
        .map(|a| a.get("$data_json").unwrap_or(a))
        .filter(|a| a.is_object());
    let get = |k: &str| json_scalar(v.get(k));
    let acc = |k: &str| account.and_then(|a| json_scalar(a.get(k)));
    if get("Profile.email").is_none()
        && account.is_none()
        && get("Profile.accountCreated").is_none()
    {
        return Ok(());
    }
    let mut d = Draft::new("accounts", "Tinder account preferences");
    d.fact(FactType::Path, Some(path), find);
    d.fact(FactType::Email, get("Profile.email").as_deref(), &inv);
    d.fact(FactType::Email, acc("account_email").as_deref(), &inv);
    d.fact(
        FactType::Phone,
        acc("account_phone_number").as_deref(),
        &inv,
    );
    for k in [
        "apple_id_linked",
        "facebook_id_linked",
        "google_id_linked",
        "line_id_linked",
    ] {
        d.fact(FactType::Text, acc(k).as_deref(), &inv);
    }
    d.fact(
        FactType::Text,
        get("Session.hasAnyUserPreviouslyLoggedIn").as_deref(),
        &inv,
    );
    for (k, what) in [
        ("Profile.accountCreated", "Tinder account created"),
        (
            "Session.firstConsecutiveLoginDate",
            "First consecutive login",
        ),
        ("Session.lastConsecutiveLoginDate", "Last consecutive login"),
    ] {
        let t = get(k);
        d.time(
            t.as_deref(),
            crate::drafts::date_text(t.as_deref()),
            what,
            &inv,
        );
    }
    d.interpretation = format!(
        "Tinder's preferences {}: the signed-in account{}{}; linked Apple {}, Facebook {}, Google {}, LINE {} (as stored).",
        path.rsplit('/').next().unwrap_or(path),
        get("Profile.email")
            .or(acc("account_email"))
            .map(|e| format!(", e-mail {e}"))
            .unwrap_or_default(),
        acc("account_phone_number")
            .map(|p| format!(", phone {p}"))
            .unwrap_or_default(),
        acc("apple_id_linked").unwrap_or("not stored".into()),
        acc("facebook_id_linked").unwrap_or("not stored".into()),
        acc("google_id_linked").unwrap_or("not stored".into()),
        acc("line_id_linked").unwrap_or("not stored".into()),
    );
    run.record(d)?;
    for (value, id_type, what) in [
        (
            get("Profile.email"),
            IdType::Email,
            "The e-mail (Profile.email)",
        ),
        (acc("account_email"), IdType::Email, "The account e-mail"),
        (
            acc("account_phone_number"),
            IdType::Phone,
            "The account phone number",
        ),
    ] {
        if let Some(v) = value {
            run.observe(
                "owner",
                EntityKind::Person,
                "device owner",
                id_type,
                &v,
                &inv,
                format!("{what} of the Tinder account signed in on the device (its preferences)."),
            )?;
        }
    }
    Ok(())
}

fn store(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let tables = ["ZUSER", "ZMATCH", "ZMESSAGE", "ZRECOMMENDATION", "ZSCHOOL"];
    let Some(schema) = run.schema(path, &tables)? else {
        return Ok(());
    };
    if ["ZUSER", "ZMATCH", "ZMESSAGE"]
        .iter()
        .all(|t| schema.columns(t).is_empty())
    {
        run.ctx.unparsed(
            path,
            "could not parse Tinder's Tinder2.sqlite because it has none of the tables ZUSER, ZMATCH, ZMESSAGE",
            None,
        )?;
        return Ok(());
    }
    let users = !schema.columns("ZUSER").is_empty()
        && schema.require(run, "ZUSER", &["Z_PK", "ZUSERID"])?;
    let me = if users && schema.columns("ZUSER").contains("ZISCURRENTUSER") {
        account(run, find, path, &schema)?
    } else {
        None
    };
    if !schema.columns("ZMESSAGE").is_empty()
        && schema.require(run, "ZMESSAGE", &["Z_PK", "ZCREATED"])?
    {
        messages(run, find, path, &schema, users, me.as_deref())?;
    }
    if !schema.columns("ZMATCH").is_empty() && schema.require(run, "ZMATCH", &["Z_PK"])? {
        matches(run, find, path, &schema, users)?;
    }
    if !schema.columns("ZRECOMMENDATION").is_empty()
        && schema.require(run, "ZRECOMMENDATION", &["Z_PK"])?
    {
        recommendations(run, find, path, &schema, users)?;
    }
    Ok(())
}

/// The profile columns of a `ZUSER` row (alias `u`).
const PROFILE: &[(&str, &str)] = &[
    ("ZFIRSTNAME", "name"),
    ("ZBIRTHDATE", "birth"),
    ("ZGENDER", "gender"),
    ("ZBIO", "bio"),
    ("ZCITYNAME", "city"),
    ("ZPUBLICUSERNAME", "username"),
    ("ZINSTAGRAMNAME", "instagram"),
];

/// The facts of a profile's columns.
const PROFILE_FACTS: &[(&str, FactType, &str)] = &[
    ("user_id", FactType::Account, "user id"),
    ("name", FactType::Name, "first name"),
    ("gender", FactType::Count, "gender (as stored)"),
    ("bio", FactType::Text, "bio"),
    ("city", FactType::Text, "city"),
    ("username", FactType::Account, "public user name"),
    ("instagram", FactType::Account, "Instagram name"),
];

/// The current user's row, observed as `owner`; their user id.
fn account(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    schema: &Schema,
) -> Result<Option<String>, RuntimeError> {
    let u = schema.columns("ZUSER");
    let sql = format!(
        "SELECT u.Z_PK AS pk, u.ZUSERID AS user_id, {}, {}, 'tinder:' || u.ZUSERID AS qualified FROM ZUSER u WHERE u.ZISCURRENTUSER = 1 AND u.ZUSERID IS NOT NULL LIMIT 2",
        select(&u, "u.", PROFILE),
        column_or_null(&u, "u.", "ZSNUMBER", "number"),
    );
    let Some((inv, t)) = run.query(path, &sql, 2)? else {
        return Ok(None);
    };
    let [row] = t.rows.as_slice() else {
        return Ok(None);
    };
    let Some(id) = t.get(row, "user_id").map(str::to_string) else {
        return Ok(None);
    };
    let mut d = Draft::new("accounts", format!("Tinder account {id}"));
    d.fact(FactType::Path, Some(path), find);
    let said = fields(&mut d, &t, row, &inv, PROFILE_FACTS);
    fields(
        &mut d,
        &t,
        row,
        &inv,
        &[("number", FactType::Text, "number")],
    );
    birth(&mut d, &t, row, &inv);
    d.interpretation = format!(
        "ZUSER Z_PK {} of {path}: the Tinder user flagged ZISCURRENTUSER, the device's user: {}.",
        t.get(row, "pk").unwrap_or("?"),
        said.join(", ")
    );
    run.record(d)?;
    observe_profile(
        run,
        &t,
        row,
        &inv,
        "owner",
        "device owner",
        "the device's user (ZISCURRENTUSER 1)",
    )?;
    Ok(Some(id))
}

/// A profile's birth date: Core Data seconds, negative before 2001 (any non-zero number).
fn birth(d: &mut Draft, t: &crate::outputs::Table, row: &[Option<String>], inv: &Invoked) {
    let v = super::raw(t, row, "birth");
    let enc = v
        .as_deref()
        .and_then(|b| b.parse::<f64>().ok())
        .filter(|b| b.is_finite() && *b != 0.0)
        .map(|_| masf_graph::TimeEncoding::AppleSeconds);
    d.time(v.as_deref(), enc, "Birth date", inv);
}

/// Observes a profile row's ids under `context`.
fn observe_profile(
    run: &Run<'_, '_>,
    t: &crate::outputs::Table,
    row: &[Option<String>],
    inv: &Invoked,
    context: &str,
    label: &str,
    who: &str,
) -> Result<(), RuntimeError> {
    crate::identity::observe_columns(
        run.ctx,
        context,
        label,
        t,
        row,
        inv,
        &[
            ("qualified", IdType::AccountId, "The Tinder user id"),
            ("name", IdType::DisplayName, "The first name"),
            ("username", IdType::Nickname, "The public user name"),
        ],
        &|what| format!("{what} of {who}, a Tinder user."),
    )
}

fn messages(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    schema: &Schema,
    users: bool,
    me: Option<&str>,
) -> Result<(), RuntimeError> {
    let m = schema.columns("ZMESSAGE");
    let user = |col: &str, id: &str| {
        if users && schema.columns("ZUSER").contains(col) {
            format!("(SELECT x.{col} FROM ZUSER x WHERE x.ZUSERID = {id} LIMIT 1)")
        } else {
            "NULL".into()
        }
    };
    let matched = |col: &str| {
        if m.contains("ZMATCH") && schema.columns("ZMATCH").contains(col) {
            format!("(SELECT y.{col} FROM ZMATCH y WHERE y.Z_PK = m.ZMATCH)")
        } else {
            "NULL".into()
        }
    };
    let other_name = if users && m.contains("ZMATCH") && schema.columns("ZMATCH").contains("ZUSER")
    {
        "(SELECT x.ZFIRSTNAME FROM ZMATCH y JOIN ZUSER x ON x.Z_PK = y.ZUSER WHERE y.Z_PK = m.ZMATCH)"
    } else {
        "NULL"
    };
    let sent = match me {
        Some(id) => format!(
            "CASE WHEN m.ZFROMUSERID = '{}' THEN 1 WHEN m.ZFROMUSERID IS NOT NULL THEN 0 END",
            id.replace('\'', "''")
        ),
        None => "NULL".into(),
    };
    let sql = format!(
        "SELECT * FROM (SELECT m.Z_PK AS pk, m.ZCREATED AS created, {}, {} AS sender_name, {} AS match_id, {other_name} AS match_name, {sent} AS sent, \
CASE WHEN m.ZFROMUSERID IS NOT NULL AND m.ZFROMUSERID != '' THEN 'tinder:' || m.ZFROMUSERID END AS qualified FROM ZMESSAGE m)",
        select(
            &m,
            "m.",
            &[
                ("ZCLIENTCREATED", "client_created"),
                ("ZFROMUSERID", "sender"),
                ("ZTEXT", "text"),
                ("ZTYPE", "type"),
                ("ZSUBTYPE", "subtype"),
                ("ZLIKED", "liked"),
                ("ZVIEWED", "viewed"),
                ("ZISHIDDEN", "hidden"),
                ("ZMEDIAURL", "media_url"),
                ("ZPHOTOURL", "photo_url"),
                ("ZLOCALIMAGEURL", "local_image_url"),
                ("ZLINKURL", "link_url"),
                ("ZMESSAGEID", "message_id"),
            ]
        ),
        if m.contains("ZFROMUSERID") {
            user("ZFIRSTNAME", "m.ZFROMUSERID")
        } else {
            "NULL".into()
        },
        matched("ZMATCHID"),
    );
    let Some(paged) = run.paged(path, &sql, "pk")? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        let pk = t.get(row, "pk").unwrap_or("?");
        let sender = t.get(row, "sender");
        let who = t
            .get(row, "sender_name")
            .or(sender)
            .unwrap_or("an unknown sender")
            .to_string();
        let with = t
            .get(row, "match_name")
            .or(t.get(row, "match_id"))
            .unwrap_or("an unknown match")
            .to_string();
        let sent = crate::drafts::stored_flag(t.get(row, "sent"));
        let mut d = Draft::new(
            "messages",
            match sent {
                Some(true) => format!("Tinder message sent to {with}"),
                _ => format!("Tinder message from {who}"),
            },
        );
        d.fact(FactType::Path, Some(path), find);
        fields(
            &mut d,
            t,
            row,
            inv,
            &[
                ("sender", FactType::Account, "sender"),
                ("sender_name", FactType::Name, "sender name"),
                ("text", FactType::Text, "text"),
                ("type", FactType::Text, "type"),
                ("subtype", FactType::Text, "subtype"),
                ("liked", FactType::Count, "liked"),
                ("viewed", FactType::Count, "viewed"),
                ("hidden", FactType::Count, "hidden"),
                ("media_url", FactType::Url, "media URL"),
                ("photo_url", FactType::Url, "photo URL"),
                ("local_image_url", FactType::Url, "local image URL"),
                ("link_url", FactType::Url, "link URL"),
                ("message_id", FactType::Identifier, "message id"),
                ("match_id", FactType::Identifier, "match id"),
                ("match_name", FactType::Name, "matched person"),
            ],
        );
        let created = super::raw(t, row, "created");
        let enc = super::core_data_encoding(created.as_deref());
        match sent {
            Some(s) => d.message_time(created.as_deref(), enc, s, inv),
            None => d.time(created.as_deref(), enc, "Tinder message created", inv),
        };
        times(
            &mut d,
            t,
            row,
            inv,
            &[("client_created", "Message created on the client")],
        );
        d.interpretation = format!(
            "ZMESSAGE Z_PK {pk} of {path}: a Tinder message by {who} in the match with {with}, {}; times are Core Data seconds.",
            match sent {
                Some(true) => "sent by the device's user (the sender is the ZISCURRENTUSER user)",
                Some(false) => "received (the sender is not the ZISCURRENTUSER user)",
                None => "direction unknown (no current user stored)",
            },
        );
        run.record(d)?;
        if sent != Some(true)
            && let Some(id) = sender
        {
            crate::identity::observe_columns(
                run.ctx,
                &format!("tinder:{id}"),
                &who,
                t,
                row,
                inv,
                &[
                    ("qualified", IdType::AccountId, "The Tinder user id"),
                    ("sender_name", IdType::DisplayName, "The first name"),
                ],
                &|what| format!("{what} of the sender of a Tinder message."),
            )?;
        }
        let (Some(text), Some(s)) = (t.get(row, "text"), sent) else {
            continue;
        };
        let context = sender.map(|id| format!("tinder:{id}"));
        crate::identity::claims_by_direction(
            run.ctx,
            inv,
            text,
            &format!("Tinder message ZMESSAGE Z_PK {pk}"),
            s,
            context.as_deref().filter(|_| !s).map(|c| (c, who.as_str())),
        )?;
    }
    Ok(())
}

fn matches(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    schema: &Schema,
    users: bool,
) -> Result<(), RuntimeError> {
    let mt = schema.columns("ZMATCH");
    let u = if users && mt.contains("ZUSER") {
        schema.columns("ZUSER")
    } else {
        Default::default()
    };
    let join = if u.is_empty() {
        ""
    } else {
        " LEFT JOIN ZUSER u ON u.Z_PK = mm.ZUSER"
    };
    let sql = format!(
        "SELECT * FROM (SELECT mm.Z_PK AS pk, {}, {}, {}, {}, {} FROM ZMATCH mm{join})",
        select(
            &mt,
            "mm.",
            &[
                ("ZCREATED", "created"),
                ("ZLASTACTIVITY", "last_activity"),
                ("ZEXPIRATIONDATE", "expires"),
                ("ZTOUCHED", "touched"),
                ("ZSERVERMESSAGECOUNT", "messages"),
                ("ZISSUPERLIKEMATCH", "superlike"),
                ("ZISFASTMATCH", "fast"),
                ("ZISBOOSTMATCH", "boost"),
                ("ZISTOPPICKSMATCH", "top_picks"),
                ("ZISEXPIRED", "expired"),
                ("ZMATCHSEEN", "seen"),
                ("ZVIEWED", "viewed"),
                ("ZFOLLOWING", "following"),
                ("ZSUBSCRIPTIONTIER", "tier"),
                ("ZMESSAGEDRAFT", "draft"),
                ("ZMATCHID", "match_id"),
            ]
        ),
        select(&u, "u.", PROFILE),
        column_or_null(&u, "u.", "ZUSERID", "user_id"),
        column_or_null(&u, "u.", "ZDISTANCEMILES", "distance"),
        if u.contains("ZUSERID") {
            "CASE WHEN u.ZUSERID IS NOT NULL AND u.ZUSERID != '' THEN 'tinder:' || u.ZUSERID END AS qualified"
        } else {
            "NULL AS qualified"
        },
    );
    let Some(paged) = run.paged(path, &sql, "pk")? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        let label = t
            .get(row, "name")
            .or(t.get(row, "user_id"))
            .or(t.get(row, "match_id"))
            .unwrap_or("an unknown person")
            .to_string();
        let mut d = Draft::new("contacts", format!("Tinder match with {label}"));
        d.fact(FactType::Path, Some(path), find);
        let mut said = fields(&mut d, t, row, inv, PROFILE_FACTS);
        said.extend(fields(
            &mut d,
            t,
            row,
            inv,
            &[
                ("distance", FactType::Count, "distance (miles)"),
                ("messages", FactType::Count, "server message count"),
                ("superlike", FactType::Count, "super-like match"),
                ("fast", FactType::Count, "fast match"),
                ("boost", FactType::Count, "boost match"),
                ("top_picks", FactType::Count, "top-picks match"),
                ("expired", FactType::Count, "expired"),
                ("seen", FactType::Count, "seen"),
                ("viewed", FactType::Count, "viewed"),
                ("following", FactType::Count, "following"),
                ("tier", FactType::Text, "subscription tier"),
                ("draft", FactType::Text, "message draft"),
                ("match_id", FactType::Identifier, "match id"),
            ],
        ));
        times(
            &mut d,
            t,
            row,
            inv,
            &[
                ("created", "Match created"),
                ("last_activity", "Match last activity"),
                ("touched", "Match touched"),
                ("expires", "Match expires"),
            ],
        );
        birth(&mut d, t, row, inv);
        d.interpretation = format!(
            "ZMATCH Z_PK {} of {path}: a Tinder match of the device's user with {label}: {}; times are Core Data seconds.",
            t.get(row, "pk").unwrap_or("?"),
            said.join(", ")
        );
        run.record(d)?;
        if let Some(id) = t.get(row, "user_id") {
            observe_profile(
                run,
                t,
                row,
                inv,
                &format!("tinder:{id}"),
                &label,
                &format!("{label}, matched with the device's user"),
            )?;
        }
    }
    Ok(())
}

fn recommendations(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    schema: &Schema,
    users: bool,
) -> Result<(), RuntimeError> {
    let r = schema.columns("ZRECOMMENDATION");
    let u = if users && r.contains("ZUSER") {
        schema.columns("ZUSER")
    } else {
        Default::default()
    };
    let school = if u.contains("ZSCHOOL") && schema.columns("ZSCHOOL").contains("ZNAME") {
        "(SELECT s.ZNAME FROM ZSCHOOL s WHERE s.Z_PK = u.ZSCHOOL)"
    } else {
        "NULL"
    };
    let join = if u.is_empty() {
        ""
    } else {
        " LEFT JOIN ZUSER u ON u.Z_PK = rr.ZUSER"
    };
    let sql = format!(
        "SELECT * FROM (SELECT rr.Z_PK AS pk, {}, {}, {}, {school} AS school FROM ZRECOMMENDATION rr{join})",
        select(
            &r,
            "rr.",
            &[
                ("ZRECTYPE", "rec_type"),
                ("ZRECSOURCE", "source"),
                ("ZSUBSOURCE", "subsource"),
                ("ZISNEW", "new"),
                ("ZDIDREWIND", "rewound"),
                ("ZSWIPENOTE", "note"),
                ("ZEXPIRATIONDATE", "expires"),
                ("ZRECOMMENDATIONID", "rec_id"),
            ]
        ),
        select(&u, "u.", PROFILE),
        select(
            &u,
            "u.",
            &[
                ("ZUSERID", "user_id"),
                ("ZUSERLOCATIONNAME", "location"),
                ("ZDISTANCEMILES", "distance"),
                ("ZCUSTOMGENDER", "custom_gender"),
                ("ZVERIFIED", "verified"),
                ("ZLIKED", "liked"),
                ("ZSUPERLIKED", "superliked"),
            ]
        ),
    );
    let Some(paged) = run.paged(path, &sql, "pk")? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        let label = t
            .get(row, "name")
            .or(t.get(row, "user_id"))
            .unwrap_or("an unnamed profile")
            .to_string();
        let mut d = Draft::new("contacts", format!("Tinder recommended profile {label}"));
        d.fact(FactType::Path, Some(path), find);
        let mut said = fields(&mut d, t, row, inv, PROFILE_FACTS);
        said.extend(fields(
            &mut d,
            t,
            row,
            inv,
            &[
                ("location", FactType::Text, "location name"),
                ("distance", FactType::Count, "distance (miles)"),
                ("custom_gender", FactType::Text, "custom gender"),
                ("verified", FactType::Count, "verified"),
                ("liked", FactType::Count, "liked"),
                ("superliked", FactType::Count, "super-liked"),
                ("school", FactType::Name, "school"),
                ("rec_type", FactType::Text, "recommendation type"),
                ("source", FactType::Text, "source"),
                ("subsource", FactType::Text, "sub-source"),
                ("new", FactType::Count, "new"),
                ("rewound", FactType::Count, "rewound"),
                ("note", FactType::Text, "swipe note"),
                ("rec_id", FactType::Identifier, "recommendation id"),
            ],
        ));
        times(
            &mut d,
            t,
            row,
            inv,
            &[("expires", "Recommendation expires")],
        );
        birth(&mut d, t, row, inv);
        d.interpretation = format!(
            "ZRECOMMENDATION Z_PK {} of {path}: a profile Tinder offered the device's user to swipe on: {}; times are Core Data seconds.",
            t.get(row, "pk").unwrap_or("?"),
            said.join(", ")
        );
        run.record(d)?;
    }
    Ok(())
}
