//! Etsy (`com.etsy.android`), ALEAPP's `etsy` (`etsy_account`, `etsy_recently_viewed`,
//! `etsy_listing_interactions`, `etsy_ad_impressions`, `etsy_app_logs`): the Etsy account signed
//! in on the phone, the listings viewed and shown, the advertisements shown and tapped, the app's
//! own queued log records, and the app's install id and start times — with the rows the stores'
//! write-ahead logs and replaced pages still hold after the app dropped them.
//!
//! | store: table | phenomenon | fields |
//! |---|---|---|
//! | `databases/recentlyViewedListings`: `recentlyViewedListings` | one `transactions` per listing ("Etsy listing viewed <title or id>") | listing id, title, image URL, original and discounted price as shown, rating, rating count, visible as stored; viewed (Unix ms) |
//! | `databases/ListingInteractions`: `listingInteractions` | one `app_usage` per row ("Etsy listing interaction <id> (<type>)") | id, interaction type, listing source, display location, position (all as stored), logging key, and from `encoded_data` its leading number and ten-digit value (taken in the query); when (Unix ms), the ten-digit value (Unix s, as stored) |
//! | `databases/AdImpressions`: `adImpressions`, `adClicks` | one `app_usage` per ad shown ("Etsy ad impression <logging key> (<location>)") and per ad tapped ("Etsy ad click <id>") | display location, logging key, id; when (Unix ms) |
//! | `databases/etsy-logs`: `logs` | one `app_usage` per record ("Etsy app log <id> (<data type>)") | id, and from `logAsJson` (JSON) the data type, log namespace, message, app version, device id, device model, OS version; written (Unix s with a fraction) |
//! | the same four tables, rows only earlier page versions hold (`sqlite_wal_history`) | one per row ("Deleted Etsy listing view <title> (recovered)", "Earlier version of …") | the table's columns as the tool writes them (a log record's JSON whole); where it was found |
//! | `shared_prefs/EtsyUserPrefs.xml` | one `accounts` ("Etsy account <login or id>") | user id, login, display name, primary e-mail, shipping country and its ISO code, profile image URL |
//! | `shared_prefs/EtsyInstallPrefs.xml`, `com.etsy.android_preferences.xml`, `server_config.xml` | one `app_usage` per file ("Etsy install id", "Etsy app starts", "Etsy server configuration") | the install id (`EtsyUUID`); first and last app start, server configuration last updated (Unix ms) |
//!
//! The stores are Room databases in WAL mode; the app empties some of them once their rows are
//! uploaded, so the committed state can be short. Each table is read as SQLite sees it, then
//! `sqlite_wal_history` reads the rows only the database file's replaced pages, the log's earlier
//! frames or free space still hold (as ALEAPP's pre-checkpoint and recovered views do): a row no
//! longer in the table is "Deleted", an earlier version of a row still there (a listing viewed
//! again: its earlier view time) "Earlier version of". Why a row left the table — upload, eviction
//! or the user — is not established. Interaction type, listing source, display location, ad
//! location and log data type are reported as stored (no mapping for them is sourced). Where
//! `encoded_data` begins with a number and a ten-digit value, both are taken from it in the query
//! and reported as stored; what they are is not established (ALEAPP observed the number matching
//! a listing id on some rows and the value running minutes before the row's time); the base64
//! part is not reproduced. An ad impression records delivery by the app, not an action of the
//! user; a click row records a tap. Not read: `SecureEtsyUserPrefs.xml` (AndroidX
//! EncryptedSharedPreferences, its key wrapped by the Android Keystore, which the extraction does
//! not hold: noted), the crash reporter's JSON caches, `files/INSTALLATION`, `device-id`, the
//! breadcrumb buffer and the image caches (files, not stores; a later reader's). The generic
//! `server_config.xml` is read only in Etsy's folder. Columns are taken by name (absent ones NULL:
//! older releases keep fewer); a store with none of its tables, or a table without its key
//! columns, is noted. Identities: `EtsyUserPrefs.xml` is the signed-in account, the device's
//! user's (`owner`): its e-mail, `etsy:<user id>` (qualified by `read_xml`), login and display
//! name. The install id names the installation, not a person: a fact.

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{FactType, IdType};

use super::Located;
use crate::calls::{Tables, column_expr, column_or_null, json_at};
use crate::drafts::{
    Draft, Encoding, RowPhenomena, no_identity, record_draft, title_of, unix_millis, unix_seconds,
};
use crate::identity::{artefact_name, schema_on};
use crate::outputs::{Table, raw};

/// Etsy's folders of stores and preferences.
const DATABASES: &str = "/com.etsy.android/databases/";
const SHARED_PREFS: &str = "/com.etsy.android/shared_prefs/";

/// The stores read, by file name.
pub const STORES: &[&str] = &[
    "recentlyViewedListings",
    "ListingInteractions",
    "AdImpressions",
    "etsy-logs",
];

/// The preferences files read (or noted), by file name.
pub const PREFS: &[&str] = &[
    "EtsyUserPrefs.xml",
    "EtsyInstallPrefs.xml",
    "com.etsy.android_preferences.xml",
    "server_config.xml",
    "SecureEtsyUserPrefs.xml",
];

/// Whether `path` is one of Etsy's files this module reads (in Etsy's own folder).
pub fn is_store_path(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    (STORES.contains(&name) && path.ends_with(&format!("{DATABASES}{name}")))
        || (PREFS.contains(&name) && path.ends_with(&format!("{SHARED_PREFS}{name}")))
}

/// Whether `l` is one of Etsy's files this module reads.
pub fn is_store(l: &Located) -> bool {
    is_store_path(&l.path)
}

/// One of Etsy's files.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    match l.name() {
        "recentlyViewedListings" => viewed(ctx, l),
        "ListingInteractions" => interactions(ctx, l),
        "AdImpressions" => ads(ctx, l),
        "etsy-logs" => logs(ctx, l),
        "EtsyUserPrefs.xml" => account(ctx, l),
        "SecureEtsyUserPrefs.xml" => ctx.unparsed(
            &artefact_name(&l.tree, &l.path),
            "not read: Etsy keeps these preferences with AndroidX EncryptedSharedPreferences (names AES-SIV, values AES-GCM) under keysets the Android Keystore wraps, and a file-system extraction does not hold that key",
            None,
        ),
        _ => app_state(ctx, l),
    }
}

/// How the rows only earlier page versions hold are recorded for one table.
struct Recover<'a> {
    table: &'a str,
    category: &'static str,
    /// The row's name in a title ("Etsy listing view").
    title: &'a str,
    /// The columns naming the row, the first present taken (else its rowid).
    shown: &'a [&'a str],
    /// What a row is, for the interpretation.
    what: &'a str,
    fields: &'a [(&'a str, FactType, &'a str)],
    times: &'a [(&'a str, &'a str, Encoding)],
}

/// One phenomenon per row of `r.table` that only the write-ahead log, the database file's
/// replaced pages or free space still hold (`sqlite_wal_history`), as the live rows are drafted.
fn recovered(ctx: &AgentCtx<'_>, l: &Located, r: &Recover<'_>) -> Result<(), RuntimeError> {
    let Some((inv, t)) = crate::recovered::wal_rows_on(ctx, &l.tree, &l.path, r.table, &[])? else {
        return Ok(());
    };
    let file = l.name();
    for row in &t.rows {
        let word = crate::recovered::title_word(t.get(row, "status"));
        let shown = r
            .shown
            .iter()
            .find_map(|c| raw(&t, row, c))
            .unwrap_or_else(|| crate::recovered::key(&t, row, "rowid"));
        let mut d = Draft::new(
            r.category,
            format!("{word} {} {shown} (recovered)", r.title),
        );
        d.fact(FactType::Path, Some(&l.path), &l.found);
        let said = d.fields(&t, row, &inv, r.fields);
        for (col, desc, enc) in r.times {
            let v = t.get(row, col);
            d.time(v, enc(v), desc, &inv);
        }
        d.interpretation = format!(
            "{} row {} of {file}: {} ({}) that {}.",
            r.table,
            crate::recovered::key(&t, row, "rowid"),
            r.what,
            said.join(", "),
            crate::recovered::provenance(&t, row),
        );
        record_draft(ctx, d)?;
    }
    Ok(())
}

/// The facts of a listing view, live or recovered.
const VIEW_FIELDS: &[(&str, FactType, &str)] = &[
    ("listingId", FactType::Identifier, "listing id"),
    ("title", FactType::Name, "title"),
    ("formattedOriginalPrice", FactType::Amount, "price"),
    (
        "formattedDiscountedPrice",
        FactType::Amount,
        "discounted price",
    ),
    ("rating", FactType::Text, "rating"),
    ("ratingCount", FactType::Count, "ratings"),
    ("visible", FactType::Text, "visible"),
    ("imageUrl", FactType::Url, "image"),
];

/// `recentlyViewedListings`: the listings viewed.
fn viewed(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(schema) = schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    if Tables::one(
        ctx,
        &name,
        "Etsy's recentlyViewedListings",
        &schema,
        "recentlyViewedListings",
        &["listingId", "timestamp"],
    )?
    .is_none()
    {
        return Ok(());
    }
    super::record_table(
        ctx,
        l,
        &schema,
        "listingId",
        &|_| Vec::new(),
        &RowPhenomena {
            table: "recentlyViewedListings",
            category: "transactions",
            what: "a listing the Etsy app recorded as recently viewed (one row per listing: a listing viewed again keeps the latest time; prices as the app formatted them; visible as stored; timestamp Unix milliseconds)",
            title: &title_of("Etsy listing viewed", &["title", "listingId"]),
            fields: VIEW_FIELDS,
            times: &[("timestamp", "Etsy listing viewed", unix_millis)],
        },
        &mut no_identity,
    )?;
    recovered(
        ctx,
        l,
        &Recover {
            table: "recentlyViewedListings",
            category: "transactions",
            title: "Etsy listing view",
            shown: &["title", "listingId"],
            what: "a listing view the Etsy app recorded (timestamp Unix milliseconds)",
            fields: VIEW_FIELDS,
            times: &[("timestamp", "Etsy listing viewed", unix_millis)],
        },
    )
}

/// The facts of a listing interaction read as stored, live or recovered.
const INTERACTION_FIELDS: &[(&str, FactType, &str)] = &[
    ("id", FactType::Identifier, "id"),
    ("interaction_type", FactType::Text, "interaction type"),
    ("listing_source", FactType::Text, "listing source"),
    ("display_loc", FactType::Text, "display location"),
    ("position", FactType::Text, "position"),
    ("logging_key", FactType::Identifier, "logging key"),
];

/// `ListingInteractions`: listing impressions and taps, the leading values of `encoded_data`
/// taken in the query.
fn interactions(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(schema) = schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    let Some(cols) = Tables::one(
        ctx,
        &name,
        "Etsy's ListingInteractions",
        &schema,
        "listingInteractions",
        &["timestamp"],
    )?
    else {
        return Ok(());
    };
    let enc = column_expr(cols, "", "encoded_data");
    let dash = format!("instr({enc}, '-')");
    let lead = format!("substr({enc}, 1, {dash} - 1)");
    // `<digits>-<ten digits>-…`: the form ALEAPP reads; anything else yields NULLs
    let ok = format!(
        "{dash} > 1 AND {lead} NOT GLOB '*[^0-9]*' AND substr({enc}, {dash} + 1, 11) GLOB '{}-'",
        "[0-9]".repeat(10)
    );
    let sql = format!(
        "SELECT rowid AS rid, {}, timestamp, CASE WHEN {ok} THEN {lead} END AS encoded_lead, CASE WHEN {ok} THEN substr({enc}, {dash} + 1, 10) END AS encoded_time FROM listingInteractions ORDER BY rowid",
        INTERACTION_FIELDS
            .iter()
            .map(|(c, ..)| column_or_null(cols, "", c, c))
            .collect::<Vec<_>>()
            .join(", "),
    );
    let title = |t: &Table, row: &[Option<String>]| {
        let id = raw(t, row, "id").unwrap_or_else(|| t.get(row, "rid").unwrap_or("?").to_string());
        match raw(t, row, "interaction_type") {
            Some(kind) => format!("Etsy listing interaction {id} ({kind})"),
            None => format!("Etsy listing interaction {id}"),
        }
    };
    let mut fields = INTERACTION_FIELDS.to_vec();
    fields.push((
        "encoded_lead",
        FactType::Identifier,
        "encoded data's leading number",
    ));
    fields.push((
        "encoded_time",
        FactType::Text,
        "encoded data's ten-digit value",
    ));
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "listingInteractions",
            category: "app_usage",
            what: "a listing the Etsy app showed or the user tapped, as the app logged it (type, source, location and position as stored, no mapping sourced; timestamp Unix milliseconds; the encoded data's leading number and ten-digit value as stored, their meaning not established, the value read as Unix seconds)",
            title: &title,
            fields: &fields,
            times: &[
                ("timestamp", "Etsy listing interaction", unix_millis),
                (
                    "encoded_time",
                    "Etsy listing interaction: encoded data's ten-digit value (meaning not established)",
                    unix_seconds,
                ),
            ],
        },
        &mut no_identity,
    )?;
    recovered(
        ctx,
        l,
        &Recover {
            table: "listingInteractions",
            category: "app_usage",
            title: "Etsy listing interaction",
            shown: &["id"],
            what: "a listing shown or tapped in the Etsy app (as stored; timestamp Unix milliseconds)",
            fields: INTERACTION_FIELDS,
            times: &[("timestamp", "Etsy listing interaction", unix_millis)],
        },
    )
}

/// The facts of an ad impression and of an ad click.
const IMPRESSION_FIELDS: &[(&str, FactType, &str)] = &[
    ("displayLocation", FactType::Text, "display location"),
    ("loggingKey", FactType::Identifier, "logging key"),
];
const CLICK_FIELDS: &[(&str, FactType, &str)] = &[
    ("id", FactType::Identifier, "id"),
    ("loggingKey", FactType::Identifier, "logging key"),
];

/// `AdImpressions`: the advertisements shown and tapped.
fn ads(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(schema) = schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    let Some(tables) = Tables::of(
        ctx,
        &name,
        "Etsy's AdImpressions",
        &schema,
        &["adImpressions", "adClicks"],
    )?
    else {
        return Ok(());
    };
    if tables.need("adImpressions", &["loggingKey"])?.is_some() {
        let title = |t: &Table, row: &[Option<String>]| {
            let key = raw(t, row, "loggingKey").unwrap_or_else(|| "?".into());
            match raw(t, row, "displayLocation") {
                Some(at) => format!("Etsy ad impression {key} ({at})"),
                None => format!("Etsy ad impression {key}"),
            }
        };
        super::record_table(
            ctx,
            l,
            &schema,
            "loggingKey",
            &|_| Vec::new(),
            &RowPhenomena {
                table: "adImpressions",
                category: "app_usage",
                what: "an advertisement the Etsy app displayed (delivery by the app, not an action of the user; location as stored; timestamp Unix milliseconds)",
                title: &title,
                fields: IMPRESSION_FIELDS,
                times: &[("timestamp", "Etsy ad shown", unix_millis)],
            },
            &mut no_identity,
        )?;
        recovered(
            ctx,
            l,
            &Recover {
                table: "adImpressions",
                category: "app_usage",
                title: "Etsy ad impression",
                shown: &["loggingKey"],
                what: "an advertisement the Etsy app displayed (timestamp Unix milliseconds)",
                fields: IMPRESSION_FIELDS,
                times: &[("timestamp", "Etsy ad shown", unix_millis)],
            },
        )?;
    }
    if tables.need("adClicks", &["loggingKey"])?.is_some() {
        super::record_table(
            ctx,
            l,
            &schema,
            "loggingKey",
            &|_| Vec::new(),
            &RowPhenomena {
                table: "adClicks",
                category: "app_usage",
                what: "an advertisement tapped in the Etsy app (timestamp Unix milliseconds)",
                title: &title_of("Etsy ad click", &["id"]),
                fields: CLICK_FIELDS,
                times: &[("timestamp", "Etsy ad tapped", unix_millis)],
            },
            &mut no_identity,
        )?;
        recovered(
            ctx,
            l,
            &Recover {
                table: "adClicks",
                category: "app_usage",
                title: "Etsy ad click",
                shown: &["id"],
                what: "an advertisement tapped in the Etsy app (timestamp Unix milliseconds)",
                fields: CLICK_FIELDS,
                times: &[("timestamp", "Etsy ad tapped", unix_millis)],
            },
        )?;
    }
    Ok(())
}

/// `etsy-logs`: the app's queued log records, their JSON members read in the query.
fn logs(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(schema) = schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    let Some(cols) = Tables::one(
        ctx,
        &name,
        "Etsy's etsy-logs",
        &schema,
        "logs",
        &["logAsJson"],
    )?
    else {
        return Ok(());
    };
    let js = |path: &str, alias: &str| format!("{} AS {alias}", json_at("logAsJson", path));
    let sql = format!(
        "SELECT rowid AS rid, {}, {}, {}, {}, {}, {}, {}, {}, {} FROM logs ORDER BY rowid",
        column_or_null(cols, "", "id", "id"),
        js("$.log_created_time", "created"),
        js("$.data_type", "data_type"),
        js("$.data.log_namespace", "namespace"),
        js("$.data.log_message", "message"),
        js("$.app_version", "app_version"),
        js("$.device_id", "device_id"),
        js("$.hardware_platform_string", "device_model"),
        js("$.device_system_version", "os_version"),
    );
    let title = |t: &Table, row: &[Option<String>]| {
        let id = raw(t, row, "id").unwrap_or_else(|| t.get(row, "rid").unwrap_or("?").to_string());
        match raw(t, row, "data_type") {
            Some(kind) => format!("Etsy app log {id} ({kind})"),
            None => format!("Etsy app log {id}"),
        }
    };
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "logs",
            category: "app_usage",
            what: "a log record the Etsy app queued for upload (data type and namespace as stored; the app version, device model and OS version it carries place that version on the phone then; log_created_time Unix seconds with a fraction)",
            title: &title,
            fields: &[
                ("id", FactType::Identifier, "id"),
                ("data_type", FactType::Text, "data type"),
                ("namespace", FactType::Text, "log namespace"),
                ("message", FactType::Text, "message"),
                ("app_version", FactType::Text, "app version"),
                ("device_id", FactType::Identifier, "install id"),
                ("device_model", FactType::Text, "device model"),
                ("os_version", FactType::Text, "OS version"),
            ],
            times: &[("created", "Etsy app log written", unix_seconds)],
        },
        &mut no_identity,
    )?;
    recovered(
        ctx,
        l,
        &Recover {
            table: "logs",
            category: "app_usage",
            title: "Etsy app log",
            shown: &["id"],
            what: "a log record the Etsy app queued for upload (its JSON as stored)",
            fields: &[
                ("id", FactType::Identifier, "id"),
                ("logAsJson", FactType::Text, "record"),
            ],
            times: &[],
        },
    )
}

/// `EtsyUserPrefs.xml`: the signed-in account, the device's user's.
fn account(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some((inv, prefs)) = super::prefs::prefs_xml(
        ctx,
        l,
        "Etsy",
        Some(serde_json::json!({"etsyUserId": "etsy"})),
    )?
    else {
        return Ok(());
    };
    if prefs.is_empty() && !inv.output.text.contains("<map") {
        ctx.unparsed(
            &artefact_name(&l.tree, &l.path),
            "could not parse Etsy's preferences because they hold no <map> of preferences",
            Some(&inv.record.invocation_id),
        )?;
        return Ok(());
    }
    let get = |k: &str| super::prefs::pref(&prefs, k);
    const FACTS: &[(&str, FactType, &str)] = &[
        ("etsyUserId", FactType::Account, "user id"),
        ("etsyUserLogin", FactType::Account, "login"),
        ("user_display_name", FactType::Name, "display name"),
        ("user_primary_email", FactType::Email, "primary e-mail"),
        ("shippingCountryName", FactType::Text, "shipping country"),
        (
            "shippingAddressCountryIso",
            FactType::Text,
            "shipping country code",
        ),
        ("user_profile_image_url", FactType::Url, "profile image"),
    ];
    if FACTS.iter().all(|&(k, ..)| get(k).is_none()) {
        return Ok(());
    }
    let shown = get("etsyUserLogin")
        .or_else(|| get("etsyUserId"))
        .unwrap_or_default();
    let mut d = Draft::new("accounts", format!("Etsy account {shown}"));
    d.fact(FactType::Path, Some(&l.path), &l.found);
    let mut said = Vec::new();
    for &(k, ft, label) in FACTS {
        if let Some(v) = get(k) {
            d.fact(ft, Some(&v), &inv);
            said.push(format!("{label} {v}"));
        }
    }
    d.interpretation = format!(
        "{}: the Etsy account signed in on the phone ({}).",
        l.path,
        said.join("; ")
    );
    record_draft(ctx, d)?;
    let qualified = inv
        .output
        .text
        .lines()
        .find_map(|line| line.strip_prefix("# qualified etsyUserId: "))
        .map(str::to_string);
    crate::identity::observe_owner_ids(
        ctx,
        &inv,
        vec![
            (
                get("user_primary_email"),
                IdType::Email,
                "The e-mail address",
            ),
            (qualified, IdType::AccountId, "The Etsy user id"),
            (get("etsyUserLogin"), IdType::Nickname, "The Etsy login"),
            (get("user_display_name"), IdType::DisplayName, "The name"),
        ],
        &|what| {
            format!(
                "{what} of the Etsy account signed in on the device ({}), the device's user.",
                l.path
            )
        },
    )
}

/// A preferences file of the app's own state: its title, the values kept as facts and the
/// times (Unix ms).
struct StateFile {
    file: &'static str,
    title: &'static str,
    facts: &'static [(&'static str, FactType, &'static str)],
    times: &'static [(&'static str, &'static str)],
}

const STATE_FILES: &[StateFile] = &[
    StateFile {
        file: "EtsyInstallPrefs.xml",
        title: "Etsy install id",
        facts: &[("EtsyUUID", FactType::Identifier, "install id (EtsyUUID)")],
        times: &[],
    },
    StateFile {
        file: "com.etsy.android_preferences.xml",
        title: "Etsy app starts",
        facts: &[],
        times: &[
            ("app_start_time", "Etsy app last started"),
            ("app_inital_start_time", "Etsy app first started"),
        ],
    },
    StateFile {
        file: "server_config.xml",
        title: "Etsy server configuration",
        facts: &[],
        times: &[("last_updated", "Etsy server configuration last updated")],
    },
];

/// `EtsyInstallPrefs.xml`, `com.etsy.android_preferences.xml`, `server_config.xml`: one
/// phenomenon per file holding a key read.
fn app_state(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(spec) = STATE_FILES.iter().find(|s| s.file == l.name()) else {
        return Ok(());
    };
    let Some((inv, prefs)) = super::prefs::prefs_xml(ctx, l, "Etsy", None)? else {
        return Ok(());
    };
    let get = |k: &str| super::prefs::pref(&prefs, k);
    if spec
        .facts
        .iter()
        .map(|(k, ..)| *k)
        .chain(spec.times.iter().map(|(k, _)| *k))
        .all(|k| get(k).is_none())
    {
        return Ok(());
    }
    let mut d = Draft::new("app_usage", spec.title);
    d.fact(FactType::Path, Some(&l.path), &l.found);
    let mut said = Vec::new();
    for &(k, ft, label) in spec.facts {
        if let Some(v) = get(k) {
            d.fact(ft, Some(&v), &inv);
            said.push(format!("{label} {v}"));
        }
    }
    for &(k, what) in spec.times {
        let v = get(k);
        d.time(v.as_deref(), unix_millis(v.as_deref()), what, &inv);
        if let Some(v) = v {
            said.push(format!("{k} {v}"));
        }
    }
    d.interpretation = format!(
        "{}: the Etsy app's own state — {} (times Unix milliseconds).",
        l.path,
        said.join(", ")
    );
    record_draft(ctx, d)
}
