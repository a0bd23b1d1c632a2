//! The Google Play Store (`com.android.vending/databases/`): `library.db` — every app and item
//! each Google account on the device acquired (`ownership`: account, document id, library,
//! document and offer type, purchase time), ALEAPP's `installedappsLibrary` — and
//! `suggestions.db` — what was searched for in the store (`suggestions`: query, the text shown,
//! time), ALEAPP's `googlePlaySearches` — and `localappstate.db` — the store's install state of
//! every app it installed or updated (`appstate`: package, title, account, first download,
//! last update, install reason, auto-update, the app that asked for the install, …), ALEAPP's
//! `installedappsVending` with the user the database belongs to. Every account that acquired
//! or installed something is a Google account of the device's user (`owner`).

use std::collections::BTreeSet;

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{EntityKind, FactType, IdType};

use super::Located;
use super::databases::tables_with;
use crate::calls::{column_or_null, note_pages_cap, require_columns};
use crate::drafts::{Draft, record_draft, unix_millis};
use crate::identity::{artefact_name, columns_on, normalized, observe, pages_on};
use crate::outputs::raw;

/// Whether `l` is one of the Play Store's databases (the names are common to other apps).
pub fn is_play_store(l: &Located) -> bool {
    l.path.contains("/com.android.vending/")
}

/// Observes `account` as a Google account of the device's user (`owner`) the first time a
/// reader meets it (`seen`), when it is one; `why` says how the artefact shows it.
pub(super) fn owner_google_account(
    ctx: &AgentCtx<'_>,
    seen: &mut BTreeSet<String>,
    account: &str,
    inv: &masf_tools::Invoked,
    why: impl FnOnce() -> String,
) -> Result<(), RuntimeError> {
    if seen.insert(account.to_string()) && normalized(ctx, IdType::GoogleAccount, account).is_some()
    {
        observe(
            ctx,
            "owner",
            EntityKind::Person,
            "device owner",
            IdType::GoogleAccount,
            account,
            inv,
            why(),
        )?;
    }
    Ok(())
}

/// `library.db`: what each account acquired.
pub fn library(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    if tables_with(ctx, l, &["ownership"])?.is_none() {
        return Ok(());
    }
    let Some((_, cols)) = columns_on(ctx, &l.tree, &l.path, "ownership")? else {
        return Ok(());
    };
    if !require_columns(
        ctx,
        &artefact_name(&l.tree, &l.path),
        &format!("the Play Store's {}", l.name()),
        "ownership",
        &cols,
        &["account", "doc_id"],
    )? {
        return Ok(());
    }
    let c = |col: &str| column_or_null(&cols, "", col, col);
    let sql = format!(
        "SELECT rowid AS row, account, doc_id, {}, {}, {}, {}, {} FROM ownership ORDER BY {}",
        c("library_id"),
        c("doc_type"),
        c("offer_type"),
        c("purchase_time"),
        c("preordered"),
        if cols.contains("purchase_time") {
            "purchase_time, rowid"
        } else {
            "rowid"
        },
    );
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    note_pages_cap(ctx, &name, &pages, "Play Store library items")?;
    let mut accounts = BTreeSet::new();
    for (inv, t, row) in pages.rows() {
        let account = t.get(row, "account").unwrap_or("?");
        let doc = t.get(row, "doc_id").unwrap_or("?");
        let mut d = Draft::new("apps", format!("Google Play: {doc} acquired by {account}"));
        d.fact(FactType::Path, Some(&l.path), &l.found);
        let account_fact = if normalized(ctx, IdType::Email, account).is_some() {
            FactType::Email
        } else {
            FactType::Account
        };
        d.fact(account_fact, raw(t, row, "account").as_deref(), inv);
        d.fact(FactType::Identifier, raw(t, row, "doc_id").as_deref(), inv);
        d.fact(
            FactType::Identifier,
            raw(t, row, "library_id").as_deref(),
            inv,
        );
        let time = t.get(row, "purchase_time");
        d.time(time, unix_millis(time), "Acquired in the Play Store", inv);
        d.interpretation = format!(
            "ownership row {} of {name}: the Google account {account} acquired {doc} in the Play Store (library {}, document type {}, offer type {}{}); purchase_time is Unix milliseconds.",
            t.get(row, "row").unwrap_or("?"),
            t.get(row, "library_id").unwrap_or("not stored"),
            t.get(row, "doc_type").unwrap_or("?"),
            t.get(row, "offer_type").unwrap_or("?"),
            if t.get(row, "preordered") == Some("1") {
                ", pre-ordered"
            } else {
                ""
            },
        );
        record_draft(ctx, d)?;
        owner_google_account(ctx, &mut accounts, account, inv, || {
            format!(
                "{account} acquired apps in the Play Store on the device ({}): a Google account of its user.",
                l.name()
            )
        })?;
    }
    Ok(())
}

/// The columns of `appstate` read besides `package_name`, `first_download_ms` and
/// `last_update_timestamp_ms`: (column, fact type, how the interpretation names it). Older
/// stores lack the later ones (read as `NULL`).
const APPSTATE: &[(&str, FactType, &str)] = &[
    ("title", FactType::Name, "title"),
    ("account", FactType::Email, "account"),
    ("account_for_update", FactType::Email, "account for updates"),
    ("install_reason", FactType::Text, "install reason"),
    ("auto_update", FactType::Text, "auto-update"),
    ("desired_version", FactType::Text, "desired version"),
    (
        "last_notified_version",
        FactType::Text,
        "last notified version",
    ),
    ("installer_state", FactType::Text, "installer state"),
    ("referrer", FactType::Text, "referrer"),
    (
        "requesting_package_name",
        FactType::Identifier,
        "requested by",
    ),
    ("download_uri", FactType::Url, "download URI"),
];

/// The Android user a per-user database belongs to: `<n>` of `/user/<n>/` (or `/user_de/<n>/`)
/// in its path, user 0 for `/data/data/`.
fn user_of(path: &str) -> Option<String> {
    let parts: Vec<&str> = path.split('/').collect();
    parts.windows(2).find_map(|w| match w {
        ["user" | "user_de", n] if n.bytes().all(|b| b.is_ascii_digit()) && !n.is_empty() => {
            Some(n.to_string())
        }
        ["data", "data"] => Some("0".to_string()),
        _ => None,
    })
}

/// `localappstate.db`: the store's install state of each app.
pub fn local_app_state(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    if tables_with(ctx, l, &["appstate"])?.is_none() {
        return Ok(());
    }
    let Some((_, cols)) = columns_on(ctx, &l.tree, &l.path, "appstate")? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    if !require_columns(
        ctx,
        &name,
        "the Play Store's localappstate.db",
        "appstate",
        &cols,
        &["package_name"],
    )? {
        return Ok(());
    }
    let c = |col: &str| column_or_null(&cols, "", col, col);
    let sql = format!(
        "SELECT package_name, {}, {}, {}, {}, {}, {} FROM appstate ORDER BY package_name",
        c("first_download_ms"),
        c("last_update_timestamp_ms"),
        c("install_request_timestamp_ms"),
        c("update_discovered_timestamp_ms"),
        c("delivery_data_timestamp_ms"),
        APPSTATE
            .iter()
            .map(|(col, ..)| c(col))
            .collect::<Vec<_>>()
            .join(", "),
    );
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, &name, &pages, "Play Store app states")?;
    let user = user_of(&l.path);
    let mut accounts = BTreeSet::new();
    for (inv, t, row) in pages.rows() {
        let Some(package) = t.get(row, "package_name") else {
            continue;
        };
        let title = raw(t, row, "title");
        let mut d = Draft::new(
            "apps",
            format!(
                "Google Play install state of {package}{}",
                title
                    .as_deref()
                    .map(|t| format!(" ({t})"))
                    .unwrap_or_default()
            ),
        );
        d.fact(FactType::Path, Some(&l.path), &l.found);
        d.fact(
            FactType::Identifier,
            raw(t, row, "package_name").as_deref(),
            inv,
        );
        let mut said = Vec::new();
        for (col, ft, what) in APPSTATE {
            let v = raw(t, row, col).filter(|v| !v.is_empty());
            let Some(v) = v else { continue };
            let ft = if *ft == FactType::Email && normalized(ctx, IdType::Email, &v).is_none() {
                FactType::Account
            } else {
                *ft
            };
            d.fact(ft, Some(&v), inv);
            let shown = match (*col, v.as_str()) {
                ("auto_update", "0") => "default".to_string(),
                ("auto_update", "1") => "yes".to_string(),
                ("auto_update", "2") => "never".to_string(),
                _ => v.clone(),
            };
            said.push(format!("{what} {shown}"));
        }
        for (col, mark) in [
            ("first_download_ms", "First downloaded from the Play Store"),
            (
                "last_update_timestamp_ms",
                "Last updated from the Play Store",
            ),
            ("install_request_timestamp_ms", "Install requested"),
            ("update_discovered_timestamp_ms", "Update discovered"),
            ("delivery_data_timestamp_ms", "Delivery data fetched"),
        ] {
            let v = t.get(row, col).filter(|v| *v != "0");
            d.time(v, unix_millis(v), mark, inv);
        }
        d.interpretation = format!(
            "appstate row of {name}{}: the Play Store installed or updated {package}{}; its times are Unix milliseconds.",
            user.as_deref()
                .map(|u| format!(" (Android user {u})"))
                .unwrap_or_default(),
            if said.is_empty() {
                String::new()
            } else {
                format!(" — {}", said.join(", "))
            },
        );
        record_draft(ctx, d)?;
        for col in ["account", "account_for_update"] {
            let Some(account) = t.get(row, col) else {
                continue;
            };
            owner_google_account(ctx, &mut accounts, account, inv, || {
                format!(
                    "{account} installed or updated apps through the Play Store on the device ({}): a Google account of its user.",
                    l.name()
                )
            })?;
        }
    }
    Ok(())
}

/// `suggestions.db`: the Play Store searches.
pub fn suggestions(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    if tables_with(ctx, l, &["suggestions"])?.is_none() {
        return Ok(());
    }
    let Some((_, cols)) = columns_on(ctx, &l.tree, &l.path, "suggestions")? else {
        return Ok(());
    };
    if !require_columns(
        ctx,
        &artefact_name(&l.tree, &l.path),
        &format!("the Play Store's {}", l.name()),
        "suggestions",
        &cols,
        &["query"],
    )? {
        return Ok(());
    }
    let c = |col: &str| column_or_null(&cols, "", col, col);
    let sql = format!(
        "SELECT rowid AS row, query, {}, {} FROM suggestions ORDER BY rowid",
        c("display1"),
        c("date"),
    );
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    note_pages_cap(ctx, &name, &pages, "Play Store searches")?;
    for (inv, t, row) in pages.rows() {
        let query = raw(t, row, "query").unwrap_or_default();
        let mut d = Draft::new("web", format!("Google Play search {query}"));
        d.fact(FactType::Path, Some(&l.path), &l.found);
        d.fact(FactType::Text, Some(&query), inv);
        d.fact(FactType::Text, raw(t, row, "display1").as_deref(), inv);
        let time = t.get(row, "date");
        d.time(time, unix_millis(time), "Searched in the Play Store", inv);
        d.interpretation = format!(
            "suggestions row {} of {name}: a search typed in the Play Store; date is Unix milliseconds.",
            t.get(row, "row").unwrap_or("?"),
        );
        record_draft(ctx, d)?;
    }
    Ok(())
}
