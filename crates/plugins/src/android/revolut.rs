//! Revolut (`com.revolut.revolut`), ALEAPP's `revolut` (`revolut_payment_recipients`,
//! `revolut_app_state`): the recipients the app listed as recently paid, and when the app last
//! refreshed its configuration and its rate, help and device caches.
//!
//! | file, table | phenomenon | fields |
//! |---|---|---|
//! | `databases/payments_recent_db`: `payments_recent_v2` | one `transactions` per recipient ("Revolut recent recipient <recipient id> (<type>)") | recipient id, recipient type as stored (`BANK`, `CONTACT_CODE`, `CRYPTO`), the linked item's id (a transaction id) and type, unread counter, `revolut:<recipient id>` for a contact code; unread counter last synced (Unix ms; 0 none) |
//! | `databases/rates_database`: `rates_cache`, `mid_rates_cache` | one `apps` ("Revolut exchange-rate cache") | cached rates and mid rates (counted in the query); rates last fetched (the latest `time_stamp`, Unix ms) |
//! | `databases/revolut_support_db`: `light_faq`, `pigeon_tree_node` | one `apps` ("Revolut help cache") | help articles, their languages, help tree nodes (counted in the query) |
//! | `databases/android-devices.db`: `devices` | one `apps` ("Revolut device catalogue cache") | catalogue rows (counted in the query) |
//! | `shared_prefs/configuration_storage.pref.xml` | one `apps` ("Revolut configuration storage") | file version; configuration last modified (`COMMON_CONFIG_LAST_MODIFIED_DATE`, Unix ms) |
//!
//! A recent recipient is a lead, not a payment: the store holds no amount, currency, direction
//! or payment date (the app's transaction and chat stores are encrypted with no key in the
//! extraction, ALEAPP says, and are not read), and that the app listed a recipient does not say
//! a payment was made. The linked item (`itemId`) is the transaction id an examiner would put
//! to Revolut. A `BANK` or `CRYPTO` recipient is an opaque id; a `CONTACT_CODE` recipient is a
//! handle naming another Revolut user. The sync time is the unread counter's marker, not a
//! payment time (0 on most rows ALEAPP saw: no time). The caches hold what the service supplied
//! (rates, help articles in the app's language, device models), so they are counted, never
//! listed; their fetch and modification times are dated facts about the phone. The support
//! store holds the help centre, not a conversation with support (that chat store is one of the
//! encrypted ones). No file read names the account holder.
//!
//! Identities: each `CONTACT_CODE` recipient is a person `revolut:<handle>` (qualified in the
//! query, so it grounds), labelled by the handle; the other recipients stay facts. Columns are
//! taken by name (absent ones NULL: older tables lack the unread counter and its sync time, the
//! help table its language; an absent cache table counts as NULL); a store without the tables
//! read, or a recipients table without `recipientId`, is noted, as is a configuration file that
//! holds no `<map>`. Another app's file of one of these names (`rates_database`,
//! `android-devices.db` are common) is never read: each is taken only under the package's folder.

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{FactType, IdType};

use super::Located;
use crate::calls::{Tables, column_or_null};
use crate::drafts::{Draft, RowPhenomena, no_identity, record_draft, unix_millis};
use crate::identity::{artefact_name, observe_row_person, schema_on};
use crate::outputs::raw;

/// The package's data folder, as it appears in a path.
const PACKAGE: &str = "/com.revolut.revolut/";

/// The databases read.
pub const STORES: [&str; 4] = [
    "payments_recent_db",
    "rates_database",
    "revolut_support_db",
    "android-devices.db",
];

/// The configuration file read.
pub const CONFIG: &str = "configuration_storage.pref.xml";

/// The names of the files read (for the dispatch and `ARTEFACTS`).
pub const NAMES: [&str; 5] = [
    "payments_recent_db",
    "rates_database",
    "revolut_support_db",
    "android-devices.db",
    CONFIG,
];

/// Whether `l` is one of Revolut's databases read.
pub fn is_store(l: &Located) -> bool {
    STORES.contains(&l.name()) && l.path.contains(&format!("{PACKAGE}databases/"))
}

/// Whether `l` is Revolut's configuration file.
pub fn is_prefs(l: &Located) -> bool {
    l.name() == CONFIG && l.path.contains(&format!("{PACKAGE}shared_prefs/"))
}

/// Whether `l` is one of Revolut's files read (a database or the configuration).
pub fn is_file(l: &Located) -> bool {
    is_store(l) || is_prefs(l)
}

/// Whether `name` is the name of one of Revolut's files read, wherever it lies (for
/// `categorise` and the artefact-file filter: other apps' files of these names are not read).
pub fn is_name(name: &str) -> bool {
    NAMES.contains(&name)
}

/// The category of `path` when it is one of Revolut's files read (for `categorise`), `None`
/// for another app's file of the same name.
pub fn category(path: &str) -> Option<&'static str> {
    let name = path.rsplit('/').next().unwrap_or(path);
    if name == CONFIG {
        return path
            .contains(&format!("{PACKAGE}shared_prefs/"))
            .then_some("apps");
    }
    if !(STORES.contains(&name) && path.contains(&format!("{PACKAGE}databases/"))) {
        return None;
    }
    Some(if name == "payments_recent_db" {
        "transactions"
    } else {
        "apps"
    })
}

/// One of Revolut's files read.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    if is_prefs(l) {
        return config(ctx, l);
    }
    let Some(schema) = schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    match l.name() {
        "payments_recent_db" => recipients(ctx, l, &name, &schema),
        "rates_database" => rates(ctx, l, &name, &schema),
        "revolut_support_db" => help(ctx, l, &name, &schema),
        "android-devices.db" => devices(ctx, l, &name, &schema),
        _ => Ok(()),
    }
}

/// `(SELECT <expr> FROM <table>)` when the store has the table (and `col`, when given), else
/// NULL: a count or latest value of a cache, as `alias`.
fn scalar(
    schema: &super::Schema,
    table: &str,
    col: Option<&str>,
    expr: &str,
    alias: &str,
) -> String {
    let held = schema
        .get(table)
        .is_some_and(|cols| col.is_none_or(|c| cols.contains(c)));
    if held {
        format!("(SELECT {expr} FROM {table}) AS {alias}")
    } else {
        format!("NULL AS {alias}")
    }
}

/// The recent recipients, a `CONTACT_CODE` one observed as the person its handle names.
fn recipients(
    ctx: &AgentCtx<'_>,
    l: &Located,
    name: &str,
    schema: &super::Schema,
) -> Result<(), RuntimeError> {
    let Some(cols) = Tables::one(
        ctx,
        name,
        "Revolut's payments_recent_db",
        schema,
        "payments_recent_v2",
        &["recipientId"],
    )?
    else {
        return Ok(());
    };
    let qualified = if cols.contains("recipientType") {
        "CASE WHEN recipientType = 'CONTACT_CODE' AND recipientId IS NOT NULL AND recipientId != '' THEN 'revolut:' || recipientId END AS qualified"
    } else {
        "NULL AS qualified"
    };
    let sql = format!(
        "SELECT rowid AS rid, recipientId, {}, {}, {}, {}, {}, {qualified} FROM payments_recent_v2 ORDER BY rowid",
        column_or_null(cols, "", "recipientType", "recipientType"),
        column_or_null(cols, "", "itemId", "itemId"),
        column_or_null(cols, "", "itemType", "itemType"),
        column_or_null(cols, "", "unreadCounter", "unreadCounter"),
        column_or_null(cols, "", "unreadSyncTimestamp", "unreadSyncTimestamp"),
    );
    let file = l.name().to_string();
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "payments_recent_v2",
            category: "transactions",
            what: "a recipient the Revolut app listed as recently paid (a lead, not a payment: no amount, currency, direction or payment date is stored; the linked item is the transaction id; BANK and CRYPTO recipients are opaque ids, a CONTACT_CODE recipient a handle naming a Revolut user; the sync time is the unread counter's, Unix milliseconds, not the payment's)",
            title: &|t, row| {
                let id = raw(t, row, "recipientId").unwrap_or_else(|| "?".into());
                match raw(t, row, "recipientType") {
                    Some(kind) => format!("Revolut recent recipient {id} ({kind})"),
                    None => format!("Revolut recent recipient {id}"),
                }
            },
            fields: &[
                ("recipientId", FactType::Account, "recipient"),
                ("recipientType", FactType::Text, "recipient type"),
                ("itemId", FactType::Identifier, "transaction id"),
                ("itemType", FactType::Text, "item type"),
                ("unreadCounter", FactType::Count, "unread counter"),
                ("qualified", FactType::Account, "Revolut user"),
            ],
            times: &[(
                "unreadSyncTimestamp",
                "Revolut recipient's unread counter last synced",
                unix_millis,
            )],
        },
        &mut |inv, t, row| {
            observe_row_person(
                ctx,
                t,
                row,
                inv,
                "recipientId",
                &[("qualified", IdType::AccountId, "Revolut contact code")],
                &|what, who| {
                    format!(
                        "The {what} {who}: a Revolut user the app listed as a recent payment recipient ({file}, payments_recent_v2), a counterparty of the device's user."
                    )
                },
            )
        },
    )
}

/// The exchange-rate cache: its rows counted and the latest fetch.
fn rates(
    ctx: &AgentCtx<'_>,
    l: &Located,
    name: &str,
    schema: &super::Schema,
) -> Result<(), RuntimeError> {
    if Tables::of(
        ctx,
        name,
        "Revolut's rates_database",
        schema,
        &["rates_cache", "mid_rates_cache"],
    )?
    .is_none()
    {
        return Ok(());
    }
    let sql = format!(
        "SELECT {}, {}, {}",
        scalar(
            schema,
            "rates_cache",
            Some("time_stamp"),
            "max(time_stamp)",
            "rates_fetched"
        ),
        scalar(schema, "rates_cache", None, "count(*)", "cached_rates"),
        scalar(
            schema,
            "mid_rates_cache",
            None,
            "count(*)",
            "cached_mid_rates"
        ),
    );
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "rates_cache and mid_rates_cache",
            category: "apps",
            what: "the exchange rates the Revolut app cached from the service, counted (rates are the service's, not the user's); rates last fetched is the latest time_stamp of rates_cache, Unix milliseconds",
            title: &|_, _| "Revolut exchange-rate cache".to_string(),
            fields: &[
                ("cached_rates", FactType::Count, "cached rates"),
                ("cached_mid_rates", FactType::Count, "cached mid rates"),
            ],
            times: &[(
                "rates_fetched",
                "Revolut exchange rates last fetched",
                unix_millis,
            )],
        },
        &mut no_identity,
    )
}

/// The help cache: its articles and nodes counted, their languages.
fn help(
    ctx: &AgentCtx<'_>,
    l: &Located,
    name: &str,
    schema: &super::Schema,
) -> Result<(), RuntimeError> {
    if Tables::of(
        ctx,
        name,
        "Revolut's revolut_support_db",
        schema,
        &["light_faq", "pigeon_tree_node"],
    )?
    .is_none()
    {
        return Ok(());
    }
    let sql = format!(
        "SELECT {}, {}, {}",
        scalar(schema, "light_faq", None, "count(*)", "help_articles"),
        scalar(
            schema,
            "light_faq",
            Some("language"),
            "group_concat(DISTINCT language)",
            "help_languages"
        ),
        scalar(schema, "pigeon_tree_node", None, "count(*)", "help_nodes"),
    );
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "light_faq and pigeon_tree_node",
            category: "apps",
            what: "the Revolut app's cached help centre, counted (articles the service supplied, in the language the app used; not a conversation with support)",
            title: &|_, _| "Revolut help cache".to_string(),
            fields: &[
                ("help_articles", FactType::Count, "help articles"),
                ("help_languages", FactType::Text, "languages"),
                ("help_nodes", FactType::Count, "help tree nodes"),
            ],
            times: &[],
        },
        &mut no_identity,
    )
}

/// The device-model catalogue: its rows counted.
fn devices(
    ctx: &AgentCtx<'_>,
    l: &Located,
    name: &str,
    schema: &super::Schema,
) -> Result<(), RuntimeError> {
    if Tables::one(
        ctx,
        name,
        "Revolut's android-devices.db",
        schema,
        "devices",
        &[],
    )?
    .is_none()
    {
        return Ok(());
    }
    super::record_query(
        ctx,
        l,
        "SELECT count(*) AS catalogue_devices FROM devices",
        &RowPhenomena {
            table: "devices",
            category: "apps",
            what: "the catalogue of Android device models the Revolut app cached from the service, counted (not the devices of the account)",
            title: &|_, _| "Revolut device catalogue cache".to_string(),
            fields: &[("catalogue_devices", FactType::Count, "catalogue rows")],
            times: &[],
        },
        &mut no_identity,
    )
}

/// The configuration file: when the configuration was last modified and the file's version.
fn config(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some((inv, _, entries)) =
        super::read_xml(ctx, l, "shared preferences", super::prefs::shared_prefs)?
    else {
        return Ok(());
    };
    if !inv.output.text.contains("<map") {
        ctx.unparsed(
            &artefact_name(&l.tree, &l.path),
            &format!("could not parse Revolut's {CONFIG} because it holds no <map> of preferences"),
            Some(&inv.record.invocation_id),
        )?;
        return Ok(());
    }
    let get = |k: &str| -> Option<String> {
        entries
            .iter()
            .find(|(n, _)| n.as_str() == k)
            .map(|(_, v)| v.trim().to_string())
            .filter(|v| !v.is_empty())
    };
    let (modified, version) = (get("COMMON_CONFIG_LAST_MODIFIED_DATE"), get("file_version"));
    if modified.is_none() && version.is_none() {
        return Ok(());
    }
    let mut d = Draft::new("apps", "Revolut configuration storage");
    d.fact(FactType::Path, Some(&l.path), &l.found);
    d.fact(FactType::Text, version.as_deref(), &inv);
    d.time(
        modified.as_deref(),
        unix_millis(modified.as_deref()),
        "Revolut configuration last modified",
        &inv,
    );
    d.interpretation = format!(
        "{CONFIG} of Revolut's shared preferences ({}): the configuration the app fetched from the service, last modified {} (COMMON_CONFIG_LAST_MODIFIED_DATE, Unix ms), file version {}. The configuration's values themselves are not read.",
        l.path,
        modified.as_deref().unwrap_or("not stored"),
        version.as_deref().unwrap_or("not stored"),
    );
    record_draft(ctx, d)
}
