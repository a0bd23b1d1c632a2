//! Hinge on Android (`co.hinge.app`), the fields of ALEAPP's seven `hinge` artefacts, from the
//! app's one store `databases/db` (found by listing the app's folder; its name is too common
//! to search for alone), each table read where present with the columns it has:
//!
//! | table | phenomenon | fields |
//! |---|---|---|
//! | `basic_choices` (selected rows) | one `accounts`: the account holder's own profile | birthday (Unix ms), first and last name, e-mail, location (name, latitude, longitude, admin areas, country, metro area, source), home town, height, job title, employment, education, and every attribute ALEAPP reports as stored (genders, identities, orientations, ethnicities, religion, politics, dating intention, relationship type, children, family plans, smoking, drinking, drugs, marijuana, education attained; several selected values joined with `, `) |
//! | `basic_choices` location | one `locations` | the coordinates the app stored with the account's place name — geocoded, so the place the account is set to, not a position the device observed |
//! | `preference_choices` (selected rows) | one `apps` per match preference | preference, value, display, deal breaker, applies to, sort order |
//! | `profiles` | one `contacts` per profile the app cached | row created and updated (Unix ms), names, age, height, home town, location, job, education, employment, every attribute (the `…Text` form where the app keeps one), selfie verified, compatibility, last active, just joined, state, its media and answers counted, user id |
//! | `subject_media`, `player_media` | one `media` per photo or video | created, whose (a cached profile's, by name and id, or the account holder's), position, photo, thumbnail and video addresses, dimensions, source, description, location, prompt, CDN and content ids |
//! | `subject_answers`, `player_answers` | one `social` per prompt answer | created and modified, whose, the answer's text (its envelope's `response`, computed in the query; the record as stored when it has another shape), type, position, question id |
//! | `metrics` | one `app_usage` per event the app queued | time (ISO 8601), event, subject (the profile's name and id), referrer, data as stored, session, authenticated, attribution and event ids |
//! | `matches`, `chat_messages`, `match_messages` | one `messages` per row, every column by name | (no public copy of these tables holds rows, so their columns are read as stored) |
//!
//! Identities: the e-mail and the name of `basic_choices` are the device's user's (`owner`); a
//! cached profile is `hinge:<user id>` with its first name.

use std::collections::BTreeSet;

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{FactType, IdType};

use super::{Located, record_query};
use crate::calls::{Tables, column_or_null, select_columns};
use crate::drafts::{RowPhenomena, date_text, unix_millis};
use crate::identity::{artefact_name, observe_columns, schema_on};

/// The app's data folder name.
pub const PACKAGE: &str = "co.hinge.app";

/// Lists the app's `databases/` and reads its store `db`.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some((listing, paths)) = crate::identity::stores_in(
        ctx,
        &l.tree,
        &l.path,
        &format!("{}/databases", l.path),
        &["db"],
    )?
    else {
        return Ok(());
    };
    for path in paths {
        let db = Located {
            tree: l.tree.clone(),
            path,
            found: listing.clone(),
        };
        ctx.artefact(&artefact_name(&db.tree, &db.path), || store(ctx, &db))?;
    }
    Ok(())
}

/// The tables read (ALEAPP's, and the message tables it found empty).
const TABLES: [&str; 11] = [
    "basic_choices",
    "preference_choices",
    "profiles",
    "subject_media",
    "player_media",
    "subject_answers",
    "player_answers",
    "metrics",
    "matches",
    "chat_messages",
    "match_messages",
];

fn store(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(schema) = schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    let Some(tables) = Tables::of(ctx, &name, "Hinge's db", &schema, &TABLES)? else {
        return Ok(());
    };
    let (table, need) = (
        |t: &str| tables.get(t),
        |t: &str, c: &[&str]| tables.need(t, c),
    );
    if need(
        "basic_choices",
        &["attribute", "apiId", "display", "selected"],
    )?
    .is_some()
    {
        account(ctx, l)?;
    }
    if let Some(c) = need(
        "preference_choices",
        &["attribute", "apiId", "display", "selected"],
    )? {
        preferences(ctx, l, c)?;
    }
    let profiles = need("profiles", &["userId"])?;
    if let Some(c) = profiles {
        cached_profiles(ctx, l, c, table("subject_media"), table("subject_answers"))?;
    }
    // whose a row of another person is: the cached profile's name and id
    let whose = |alias: &str| {
        if profiles.is_some_and(|c| c.contains("firstName")) {
            format!(
                "(SELECT p.firstName FROM profiles p WHERE p.userId = {alias}.userId LIMIT 1) AS profile_name"
            )
        } else {
            "NULL AS profile_name".to_string()
        }
    };
    for (t, own) in [("subject_media", false), ("player_media", true)] {
        if let Some(c) = need(t, &["created"])? {
            media(ctx, l, t, c, own, &whose("m"))?;
        }
    }
    for (t, own) in [("subject_answers", false), ("player_answers", true)] {
        if let Some(c) = need(t, &["created"])? {
            answers(ctx, l, t, c, own, &whose("a"))?;
        }
    }
    if let Some(c) = need("metrics", &["ts", "eventType"])? {
        metrics(ctx, l, c, profiles.is_some_and(|p| p.contains("firstName")))?;
    }
    for t in ["matches", "chat_messages", "match_messages"] {
        if let Some(c) = table(t) {
            as_stored(ctx, l, t, c)?;
        }
    }
    Ok(())
}

/// `<expr> AS <alias>` of a selected `basic_choices` value: of `(attribute, apiId)`, or every
/// selected value of an attribute joined with `, `.
fn choice(attribute: &str, api_id: Option<&str>, alias: &str) -> String {
    let api = api_id
        .map(|a| format!(" AND b.apiId = '{a}'"))
        .unwrap_or_default();
    format!(
        "(SELECT group_concat(b.display, ', ') FROM basic_choices b WHERE b.selected AND b.attribute = '{attribute}'{api}) AS {alias}"
    )
}

/// The account holder's own profile and the place it is set to.
fn account(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let pairs: [(&str, Option<&str>, &str, FactType, &str); 32] = [
        ("age", Some("birthday"), "birthday", FactType::Timestamp, ""),
        (
            "name",
            Some("firstName"),
            "first_name",
            FactType::Name,
            "first name",
        ),
        (
            "name",
            Some("lastName"),
            "last_name",
            FactType::Name,
            "last name",
        ),
        ("email", Some("name"), "email", FactType::Email, "e-mail"),
        (
            "location",
            Some("name"),
            "location",
            FactType::Text,
            "location",
        ),
        (
            "location",
            Some("latitude"),
            "latitude",
            FactType::Text,
            "latitude",
        ),
        (
            "location",
            Some("longitude"),
            "longitude",
            FactType::Text,
            "longitude",
        ),
        (
            "location",
            Some("adminArea2"),
            "admin2",
            FactType::Text,
            "admin area 2",
        ),
        (
            "location",
            Some("adminArea1Long"),
            "admin1",
            FactType::Text,
            "admin area 1",
        ),
        (
            "location",
            Some("countryShort"),
            "country",
            FactType::Text,
            "country",
        ),
        (
            "location",
            Some("metroAreaV2"),
            "metro",
            FactType::Text,
            "metro area",
        ),
        (
            "location",
            Some("source"),
            "location_source",
            FactType::Text,
            "location source",
        ),
        (
            "hometown",
            Some("name"),
            "hometown",
            FactType::Text,
            "home town",
        ),
        ("height", Some("height"), "height", FactType::Text, "height"),
        ("jobTitle", Some("name"), "job", FactType::Text, "job title"),
        (
            "employment",
            Some("name"),
            "employment",
            FactType::Text,
            "employment",
        ),
        ("education", None, "education", FactType::Text, "education"),
        ("genders", None, "genders", FactType::Text, "gender"),
        (
            "genderIdentities",
            None,
            "gender_identities",
            FactType::Text,
            "gender identity",
        ),
        (
            "sexualOrientations",
            None,
            "orientations",
            FactType::Text,
            "sexual orientation",
        ),
        (
            "ethnicities",
            None,
            "ethnicities",
            FactType::Text,
            "ethnicity",
        ),
        ("religion", None, "religion", FactType::Text, "religion"),
        ("politics", None, "politics", FactType::Text, "politics"),
        (
            "datingIntention",
            None,
            "intention",
            FactType::Text,
            "dating intention",
        ),
        (
            "relationshipType",
            None,
            "relationship",
            FactType::Text,
            "relationship type",
        ),
        ("children", None, "children", FactType::Text, "children"),
        (
            "familyPlans",
            None,
            "family_plans",
            FactType::Text,
            "family plans",
        ),
        ("smoking", None, "smoking", FactType::Text, "smoking"),
        ("drinking", None, "drinking", FactType::Text, "drinking"),
        ("drugs", None, "drugs", FactType::Text, "drugs"),
        ("marijuana", None, "marijuana", FactType::Text, "marijuana"),
        (
            "educationAttained",
            None,
            "education_attained",
            FactType::Text,
            "education attained",
        ),
    ];
    let sql = format!(
        "SELECT * FROM (SELECT {}) WHERE first_name IS NOT NULL OR last_name IS NOT NULL OR email IS NOT NULL OR location IS NOT NULL",
        pairs
            .iter()
            .map(|(a, api, alias, ..)| choice(a, *api, alias))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let fields: Vec<(&str, FactType, &str)> = pairs
        .iter()
        .filter(|(.., label)| !label.is_empty())
        .map(|(_, _, alias, ft, label)| (*alias, *ft, *label))
        .collect();
    let title = |t: &crate::outputs::Table, row: &[Option<String>]| {
        format!(
            "Hinge account {}",
            [t.get(row, "first_name"), t.get(row, "last_name")]
                .into_iter()
                .flatten()
                .collect::<Vec<_>>()
                .join(" ")
        )
    };
    let file = l.name().to_string();
    record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "basic_choices",
            category: "accounts",
            what: "the Hinge account holder's own profile (the selected choices; codes as stored)",
            title: &title,
            fields: &fields,
            times: &[("birthday", "Hinge account holder's birthday", unix_millis)],
        },
        &mut |inv, t, row| {
            observe_columns(
                ctx,
                "owner",
                "device owner",
                t,
                row,
                inv,
                &[
                    ("email", IdType::Email, "The e-mail address"),
                    ("first_name", IdType::DisplayName, "The first name"),
                ],
                &|what| {
                    format!(
                        "{what} of the Hinge account holder's own profile (basic_choices of {file})."
                    )
                },
            )
        },
    )?;
    // the place the account is set to
    let sql = format!(
        "SELECT * FROM (SELECT {}) WHERE latitude IS NOT NULL AND longitude IS NOT NULL",
        pairs[4..12]
            .iter()
            .map(|(a, api, alias, ..)| choice(a, *api, alias))
            .collect::<Vec<_>>()
            .join(", ")
    );
    record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "basic_choices",
            category: "locations",
            what: "the place the Hinge account is set to, with the coordinates the app stored for it (from a geocoding provider: where the account says it is, not a position the device observed)",
            title: &|t, row| {
                format!(
                    "Hinge account location {}",
                    t.get(row, "location").unwrap_or("?")
                )
            },
            fields: &fields[3..11],
            times: &[],
        },
        &mut |_, _, _| Ok(()),
    )
}

fn preferences(
    ctx: &AgentCtx<'_>,
    l: &Located,
    cols: &BTreeSet<String>,
) -> Result<(), RuntimeError> {
    let sql = format!(
        "SELECT p.rowid AS rid, p.attribute AS attribute, p.apiId AS apiId, p.display AS display, {} FROM preference_choices p WHERE p.selected = 1 ORDER BY p.rowid",
        select_columns(
            cols,
            "p.",
            &[
                ("dealBreaker", "dealBreaker"),
                ("genderedAttributePreference", "appliesTo"),
                ("sortOrder", "sortOrder")
            ]
        )
    );
    record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "preference_choices",
            category: "apps",
            what: "a match preference the Hinge account holder selected (values as stored; -1 is left open)",
            title: &|t, row| {
                format!(
                    "Hinge preference {}",
                    t.get(row, "attribute").unwrap_or("?")
                )
            },
            fields: &[
                ("attribute", FactType::Text, "preference"),
                ("apiId", FactType::Text, "value"),
                ("display", FactType::Text, "display"),
                ("dealBreaker", FactType::Count, "deal breaker"),
                ("appliesTo", FactType::Text, "applies to"),
                ("sortOrder", FactType::Count, "sort order"),
            ],
            times: &[],
        },
        &mut |_, _, _| Ok(()),
    )
}

/// A profile's column and the label of its fact (the `…Text` form first where kept).
const PROFILE: [(&str, &str, &str); 36] = [
    ("firstName", "", "first name"),
    ("lastName", "", "last name"),
    ("age", "", "age"),
    ("height", "", "height"),
    ("hometown", "", "home town"),
    ("location", "", "location"),
    ("jobTitle", "jobTitleText", "job title"),
    ("educationHistory", "educationHistoryText", "education"),
    ("employmentHistory", "", "employment"),
    ("gender", "", "gender"),
    ("genderIdentityId", "genderIdentity", "gender identity"),
    ("pronouns", "", "pronouns"),
    ("sexualOrientations", "", "sexual orientation"),
    ("ethnicity", "ethnicitiesText", "ethnicity"),
    ("religion", "religionText", "religion"),
    ("politics", "politicsText", "politics"),
    ("datingIntention", "datingIntentionText", "dating intention"),
    (
        "relationshipType",
        "relationshipTypeText",
        "relationship type",
    ),
    ("kids", "", "children"),
    ("familyPlans", "", "family plans"),
    ("smoking", "", "smoking"),
    ("drinking", "", "drinking"),
    ("drugs", "", "drugs"),
    ("marijuana", "", "marijuana"),
    ("pet", "", "pet"),
    ("zodiacSign", "", "zodiac sign"),
    ("covidVax", "", "covid vaccination"),
    ("languagesSpoken", "languagesSpokenText", "languages"),
    ("educationAttained", "", "education attained"),
    ("selfieVerified", "", "selfie verified"),
    ("compatibility", "", "compatibility"),
    ("lastActiveStatusId", "", "last active status"),
    ("didJustJoin", "", "just joined"),
    ("state", "", "state"),
    ("created", "", ""),
    ("updated", "", ""),
];

fn cached_profiles(
    ctx: &AgentCtx<'_>,
    l: &Located,
    cols: &BTreeSet<String>,
    media: Option<&BTreeSet<String>>,
    answers: Option<&BTreeSet<String>>,
) -> Result<(), RuntimeError> {
    let mut select = Vec::new();
    for (col, text, _) in PROFILE {
        select.push(column_or_null(cols, "p.", col, col));
        if !text.is_empty() {
            select.push(column_or_null(cols, "p.", text, text));
        }
    }
    let count = |t: &str, c: Option<&BTreeSet<String>>, alias: &str| match c {
        Some(c) if c.contains("userId") => {
            format!("(SELECT COUNT(*) FROM {t} x WHERE x.userId = p.userId) AS {alias}")
        }
        _ => format!("NULL AS {alias}"),
    };
    let sql = format!(
        "SELECT p.rowid AS rid, p.userId AS userId, 'hinge:' || p.userId AS qualified, {}, {}, {} FROM profiles p WHERE p.userId IS NOT NULL AND p.userId != '' ORDER BY p.rowid",
        select.join(", "),
        count("subject_media", media, "media_count"),
        count("subject_answers", answers, "answer_count"),
    );
    let mut fields: Vec<(&str, FactType, &str)> = Vec::new();
    for (col, text, label) in PROFILE.iter().filter(|(.., label)| !label.is_empty()) {
        let ft = match *col {
            "firstName" | "lastName" => FactType::Name,
            _ => FactType::Text,
        };
        if !text.is_empty() {
            fields.push((text, ft, label));
        }
        fields.push((col, ft, label));
    }
    fields.extend([
        ("media_count", FactType::Count, "media"),
        ("answer_count", FactType::Count, "answers"),
        ("userId", FactType::Identifier, "user id"),
    ]);
    let file = l.name().to_string();
    record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "profiles",
            category: "contacts",
            what: "a profile of another person the Hinge app cached (received by the app, not necessarily viewed; codes as stored)",
            title: &|t, row| {
                format!(
                    "Hinge profile {}",
                    t.get(row, "firstName")
                        .or(t.get(row, "userId"))
                        .unwrap_or("?")
                )
            },
            fields: &fields,
            times: &[
                ("created", "Hinge profile cached", unix_millis),
                ("updated", "Hinge profile updated", unix_millis),
            ],
        },
        &mut |inv, t, row| {
            crate::identity::observe_row_person(
                ctx,
                t,
                row,
                inv,
                "firstName",
                &[
                    ("qualified", IdType::AccountId, "The Hinge user id"),
                    ("firstName", IdType::DisplayName, "The first name"),
                ],
                &|what, _| {
                    format!(
                        "{what} of a profile the Hinge app cached (profiles row {} of {file}).",
                        t.get(row, "rid").unwrap_or("?")
                    )
                },
            )
        },
    )
}

fn media(
    ctx: &AgentCtx<'_>,
    l: &Located,
    table: &str,
    cols: &BTreeSet<String>,
    own: bool,
    whose: &str,
) -> Result<(), RuntimeError> {
    let spec = [
        ("created", "created"),
        ("position", "position"),
        ("photoUrl", "photoUrl"),
        ("thumbnailUrl", "thumbnailUrl"),
        ("videoUrl", "videoUrl"),
        ("width", "width"),
        ("height", "height"),
        ("source", "source"),
        ("description", "description"),
        ("location", "location"),
        ("mediaPromptText", "prompt"),
        ("cdnId", "cdnId"),
        ("contentId", "contentId"),
    ];
    let sql = format!(
        "SELECT m.rowid AS rid, {}, {}, {} FROM {table} m ORDER BY m.rowid",
        select_columns(cols, "m.", &spec),
        if own {
            "NULL AS userId".to_string()
        } else {
            column_or_null(cols, "m.", "userId", "userId")
        },
        if own { "NULL AS profile_name" } else { whose },
    );
    let title = |t: &crate::outputs::Table, row: &[Option<String>]| {
        format!(
            "Hinge {} of {}",
            if t.get(row, "videoUrl").is_some() {
                "video"
            } else {
                "photo"
            },
            match (own, t.get(row, "profile_name"), t.get(row, "userId")) {
                (true, ..) => "the account holder".to_string(),
                (false, Some(n), _) => n.to_string(),
                (false, None, Some(u)) => u.to_string(),
                _ => "a cached profile".to_string(),
            }
        )
    };
    record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table,
            category: "media",
            what: if own {
                "a photo or video of the Hinge account holder's own profile (the address on the app's media host, not the bytes)"
            } else {
                "a photo or video of a profile the Hinge app cached (the address on the app's media host, not the bytes)"
            },
            title: &title,
            fields: &[
                ("profile_name", FactType::Name, "whose"),
                ("userId", FactType::Identifier, "user id"),
                ("position", FactType::Count, "position"),
                ("photoUrl", FactType::Url, "photo"),
                ("thumbnailUrl", FactType::Url, "thumbnail"),
                ("videoUrl", FactType::Url, "video"),
                ("width", FactType::Count, "width"),
                ("height", FactType::Count, "height"),
                ("source", FactType::Text, "source"),
                ("description", FactType::Text, "description"),
                ("location", FactType::Text, "location"),
                ("prompt", FactType::Text, "prompt"),
                ("cdnId", FactType::Identifier, "CDN id"),
                ("contentId", FactType::Identifier, "content id"),
            ],
            times: &[("created", "Hinge media row created", unix_millis)],
        },
        &mut |_, _, _| Ok(()),
    )
}

fn answers(
    ctx: &AgentCtx<'_>,
    l: &Located,
    table: &str,
    cols: &BTreeSet<String>,
    own: bool,
    whose: &str,
) -> Result<(), RuntimeError> {
    // the text of the answer's envelope ({"<type>": {"response": "…"}}), else as stored
    let text = if cols.contains("answerData") {
        "COALESCE(CASE WHEN json_valid(a.answerData) THEN (SELECT json_extract(j.value, '$.response') FROM json_each(a.answerData) j WHERE j.type = 'object' AND json_type(j.value, '$.response') = 'text' LIMIT 1) END, a.answerData) AS answer"
    } else {
        "NULL AS answer"
    };
    let sql = format!(
        "SELECT a.rowid AS rid, {}, {text}, {}, {} FROM {table} a ORDER BY a.rowid",
        select_columns(
            cols,
            "a.",
            &[
                ("created", "created"),
                ("modified", "modified"),
                ("type", "type"),
                ("questionId", "questionId"),
                ("position", "position"),
            ]
        ),
        if own {
            "NULL AS userId".to_string()
        } else {
            column_or_null(cols, "a.", "userId", "userId")
        },
        if own { "NULL AS profile_name" } else { whose },
    );
    let title = |t: &crate::outputs::Table, row: &[Option<String>]| {
        format!(
            "Hinge prompt answer of {}",
            match (own, t.get(row, "profile_name"), t.get(row, "userId")) {
                (true, ..) => "the account holder".to_string(),
                (false, Some(n), _) => n.to_string(),
                (false, None, Some(u)) => u.to_string(),
                _ => "a cached profile".to_string(),
            }
        )
    };
    record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table,
            category: "social",
            what: if own {
                "a written prompt answer of the Hinge account holder's own profile"
            } else {
                "a written prompt answer of a profile the Hinge app cached"
            },
            title: &title,
            fields: &[
                ("answer", FactType::Text, "answer"),
                ("profile_name", FactType::Name, "whose"),
                ("userId", FactType::Identifier, "user id"),
                ("type", FactType::Text, "type"),
                ("position", FactType::Count, "position"),
                ("questionId", FactType::Identifier, "question id"),
            ],
            times: &[
                ("created", "Hinge answer created", unix_millis),
                ("modified", "Hinge answer modified", unix_millis),
            ],
        },
        &mut |_, _, _| Ok(()),
    )
}

fn metrics(
    ctx: &AgentCtx<'_>,
    l: &Located,
    cols: &BTreeSet<String>,
    names: bool,
) -> Result<(), RuntimeError> {
    let sql = format!(
        "SELECT m.rowid AS rid, {}, {} FROM metrics m ORDER BY m.rowid",
        select_columns(
            cols,
            "m.",
            &[
                ("ts", "ts"),
                ("eventType", "eventType"),
                ("subjectId", "subjectId"),
                ("referrerId", "referrerId"),
                ("data", "data"),
                ("sessionId", "sessionId"),
                ("authenticated", "authenticated"),
                ("crmAttributionId", "attribution"),
                ("id", "id"),
            ]
        ),
        if names && cols.contains("subjectId") {
            "(SELECT p.firstName FROM profiles p WHERE p.userId = m.subjectId LIMIT 1) AS subject_name"
        } else {
            "NULL AS subject_name"
        },
    );
    record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "metrics",
            category: "app_usage",
            what: "an in-app event the Hinge app queued for its own reporting (what had not yet been sent, not a complete history)",
            title: &|t, row| format!("Hinge event {}", t.get(row, "eventType").unwrap_or("?")),
            fields: &[
                ("eventType", FactType::Text, "event"),
                ("subject_name", FactType::Name, "subject"),
                ("subjectId", FactType::Identifier, "subject id"),
                ("referrerId", FactType::Identifier, "referrer"),
                ("data", FactType::Text, "data"),
                ("sessionId", FactType::Identifier, "session"),
                ("authenticated", FactType::Text, "authenticated"),
                ("attribution", FactType::Identifier, "attribution id"),
                ("id", FactType::Identifier, "event id"),
            ],
            times: &[("ts", "Hinge event", date_text)],
        },
        &mut |_, _, _| Ok(()),
    )
}

/// A table whose columns no public copy shows: each row with every column by name.
fn as_stored(
    ctx: &AgentCtx<'_>,
    l: &Located,
    table: &str,
    cols: &BTreeSet<String>,
) -> Result<(), RuntimeError> {
    let names: Vec<&str> = cols.iter().map(String::as_str).collect();
    let sql = format!(
        "SELECT t.rowid AS rid, {} FROM {table} t ORDER BY t.rowid",
        names
            .iter()
            .map(|c| format!("t.\"{c}\" AS \"{c}\""))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let fields: Vec<(&str, FactType, &str)> =
        names.iter().map(|c| (*c, FactType::Text, *c)).collect();
    record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table,
            category: "messages",
            what: "a row of a Hinge match or chat table, every column as stored (their meaning is not documented)",
            title: &|t, row| format!("Hinge {table} row {}", t.get(row, "rid").unwrap_or("?")),
            fields: &fields,
            times: &[],
        },
        &mut |_, _, _| Ok(()),
    )
}
