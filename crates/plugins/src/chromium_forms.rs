//! What a Chromium-family browser (Chrome, Edge, Brave, Samsung Internet, …) keeps of the forms
//! its user filled: the saved logins of `Login Data` (and `Login Data For Account`, the
//! account-scoped store) and the autofill data of `Web Data`, on Android, iOS, Windows, macOS
//! and Linux alike. Read by the Android parsers (which every tree triage runs) and the iOS
//! plugin, wherever a profile sits.
//!
//! | table | phenomenon | fields (ALEAPP's `chromeLoginData`, `chromeAutofill`) and identities |
//! |---|---|---|
//! | `logins` | one per saved login or never-save entry | origin, action URL, realm, user name and its field, display name, federation URL, created / last used / password changed / received / last filled times (WebKit µs), times used, never-save flag, scheme, sender of a shared password. The user name, when an e-mail or a phone, is the browser profile user's (`browser-profile:<profile>`, as the signed-in account); a password's sender is a `handle:<e-mail>` person. **The password is never read.** |
//! | `autofill` | one per autocomplete entry | field name, value, created and last used (Unix s), count; no identity (whose a value is, is not known) |
//! | `autofill_profiles` with `autofill_profile_names`/`_emails`/`_phones` (before 2023), `addresses` or `local_addresses` with their `…type_tokens` (after) | one per saved address | names, e-mails, phones, company, street, city, state, postcode, country, modified and last used (Unix s), use count; each profile an `autofill:<guid>` person with its names, e-mails and phones |
//! | `omni_box_shortcuts` (`Shortcuts`), `network_action_predictor` (`Network Action Predictor`) | one per entry | what was typed in the address bar, the URL it led to, hits (and misses), last use (WebKit µs); only in a profile folder |
//! | `top_sites` (`Top Sites`) | one per most-visited site | URL, rank, title, redirects (ALEAPP's `chromeTopSites`); only in a profile folder |
//! | `cookies` (`Cookies`, `Network/Cookies`, a WebView's) | one per host | how many cookies, their names, first set and last used (WebKit µs); **cookie values are never read** |
//! | `credit_cards`, `masked_credit_cards` | one per card | name on card, expiry, nickname, network and last four digits of server cards, use count and date; **the card number is never read** |
//!
//! Columns are taken by name (each table has grown over the years); a table lacking the columns
//! it is read by is noted with their names. Times are as stored, marked with their encoding.

use std::collections::BTreeMap;

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{EntityKind, FactType, IdType};
use masf_tools::Invoked;

use crate::browsers::browser_of;
use crate::calls::{column_or_null, note_pages_cap, require_columns};
use crate::drafts::{Draft, record_draft, unix_seconds, webkit};
use crate::identity::{
    TreeRef, artefact_name, normalized, observe, pages_on, required_columns, table_columns,
    tables_on,
};
use crate::outputs::raw;

/// Whether a file found by name is one of the stores (not a `-journal`, `-wal` or `-shm`);
/// `Shortcuts` and `Network Action Predictor` only in a profile folder (`Default`,
/// `Profile N`), their names being common.
pub fn is_store(path: &str) -> bool {
    let mut parts = path.rsplit('/');
    let name = parts.next().unwrap_or(path);
    let profile = parts
        .next()
        .is_some_and(|d| d == "Default" || d.starts_with("Profile "));
    match name {
        "Login Data" | "Login Data For Account" | "Web Data" => true,
        "Shortcuts" | "Network Action Predictor" | "Top Sites" => profile,
        // Chrome 96+ keeps it in the profile's Network folder; a WebView in its own
        "Cookies" => {
            let dirs: Vec<&str> = path.rsplit('/').skip(1).take(2).collect();
            let is_profile = |d: &str| d == "Default" || d.starts_with("Profile ");
            match dirs.as_slice() {
                [d, ..] if is_profile(d) || *d == "app_webview" => true,
                ["Network", d] => is_profile(d) || *d == "app_webview",
                _ => false,
            }
        }
        _ => false,
    }
}

/// The profile folder holding `path`.
fn profile_dir(path: &str) -> &str {
    path.rsplit_once('/').map_or(path, |(dir, _)| dir)
}

/// Reads the store at `path` (`Login Data`, `Login Data For Account` or `Web Data`).
pub fn read(
    ctx: &AgentCtx<'_>,
    tree: &TreeRef,
    path: &str,
    found: &Invoked,
) -> Result<(), RuntimeError> {
    match path.rsplit('/').next().unwrap_or(path) {
        "Web Data" => web_data(ctx, tree, path, found),
        "Shortcuts" => typed(ctx, tree, path, found, Typed::Shortcuts),
        "Network Action Predictor" => typed(ctx, tree, path, found, Typed::Predictor),
        "Cookies" => cookies(ctx, tree, path, found),
        "Top Sites" => top_sites(ctx, tree, path, found),
        _ => logins(ctx, tree, path, found),
    }
}

/// The columns of `table`, the one table a store named `what` is read by: `None` when the
/// database does not read, lacks the table ("not {what}: no {table} table") or one of `needed`
/// (each noted).
pub(crate) fn store_table(
    ctx: &AgentCtx<'_>,
    tree: &TreeRef,
    path: &str,
    what: &str,
    table: &str,
    needed: &[&str],
) -> Result<Option<std::collections::BTreeSet<String>>, RuntimeError> {
    let Some((_, tables)) = tables_on(ctx, tree, path)? else {
        return Ok(None);
    };
    let name = artefact_name(tree, path);
    if !tables.iter().any(|t| t == table) {
        ctx.unparsed(&name, &format!("not {what}: no {table} table"), None)?;
        return Ok(None);
    }
    required_columns(ctx, tree, path, what, table, needed)
}

/// The saved logins of a `Login Data` store.
fn logins(
    ctx: &AgentCtx<'_>,
    tree: &TreeRef,
    path: &str,
    found: &Invoked,
) -> Result<(), RuntimeError> {
    let Some(cols) = store_table(
        ctx,
        tree,
        path,
        "a Chromium login store",
        "logins",
        &["origin_url", "username_value", "signon_realm"],
    )?
    else {
        return Ok(());
    };
    let name = artefact_name(tree, path);
    let browser = browser_of(path);
    // every column but the password and the binary form data, by name
    let c = |col: &str| column_or_null(&cols, "", col, col);
    let sql = format!(
        "SELECT rowid AS login, origin_url, signon_realm, username_value, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {} FROM logins ORDER BY rowid",
        c("action_url"),
        c("username_element"),
        c("display_name"),
        c("federation_url"),
        c("date_created"),
        c("date_last_used"),
        c("date_password_modified"),
        c("date_received"),
        c("date_last_filled"),
        c("times_used"),
        c("blacklisted_by_user"),
        c("scheme"),
        c("password_type"),
        c("sender_email"),
        c("sender_name"),
    );
    let Some(pages) = pages_on(ctx, tree, path, &sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, &name, &pages, "saved logins")?;
    let profile = profile_dir(path);
    let context = format!("browser-profile:{profile}");
    let label = format!("user of browser profile {profile}");
    for (inv, t, row) in pages.rows() {
        let id = t.get(row, "login").unwrap_or("?");
        let user = t.get(row, "username_value").filter(|u| !u.is_empty());
        let realm = t.get(row, "signon_realm").unwrap_or("?");
        let never = t.get(row, "blacklisted_by_user") == Some("1");
        let title = match (never, user) {
            (true, _) => format!("{browser} never saves a password for {realm}"),
            (false, Some(u)) => format!("{browser} saved login {u} for {realm}"),
            (false, None) => format!("{browser} saved login without user name for {realm}"),
        };
        let mut d = Draft::new("accounts", title);
        d.fact(FactType::Path, Some(path), found);
        for col in ["origin_url", "action_url", "federation_url"] {
            d.fact(FactType::Url, raw(t, row, col).as_deref(), inv);
        }
        d.fact(
            if realm.starts_with("http") {
                FactType::Url
            } else {
                FactType::Identifier
            },
            raw(t, row, "signon_realm").as_deref(),
            inv,
        );
        let user_type = match user {
            Some(u) if normalized(ctx, IdType::Email, u).is_some() => FactType::Email,
            Some(u) if u.starts_with('+') && normalized(ctx, IdType::Phone, u).is_some() => {
                FactType::Phone
            }
            _ => FactType::Account,
        };
        d.fact(user_type, raw(t, row, "username_value").as_deref(), inv);
        d.fact(FactType::Name, raw(t, row, "display_name").as_deref(), inv);
        for (col, what) in [
            ("date_created", "Login saved"),
            ("date_last_used", "Login last used"),
            ("date_password_modified", "Password changed"),
            ("date_received", "Shared password received"),
            ("date_last_filled", "Login last filled"),
        ] {
            let v = t.get(row, col);
            d.time(v, webkit(v), what, inv);
        }
        d.fact(FactType::Count, t.get(row, "times_used"), inv);
        let sender = t.get(row, "sender_email").filter(|s| !s.is_empty());
        d.fact(FactType::Email, sender, inv);
        d.fact(FactType::Name, raw(t, row, "sender_name").as_deref(), inv);
        d.interpretation = format!(
            "logins row {id} of {name}: {} in {browser} profile {} (user name field {}, used {} time(s), scheme {}, password type {}){}. The password is encrypted and was not read; times are WebKit microseconds.",
            if never {
                format!("the user chose never to save a password for {realm}")
            } else {
                format!(
                    "a login saved for {realm}{}",
                    user.map(|u| format!(" with the user name {u}"))
                        .unwrap_or_default()
                )
            },
            profile.rsplit('/').next().unwrap_or(profile),
            t.get(row, "username_element")
                .filter(|e| !e.is_empty())
                .unwrap_or("not stored"),
            t.get(row, "times_used").unwrap_or("?"),
            t.get(row, "scheme").unwrap_or("?"),
            t.get(row, "password_type").unwrap_or("?"),
            sender
                .map(|s| format!("; shared by {s}"))
                .unwrap_or_default(),
        );
        record_draft(ctx, d)?;
        if let (false, Some(u)) = (never, user) {
            let id_type = match user_type {
                FactType::Email => Some(IdType::Email),
                FactType::Phone => Some(IdType::Phone),
                _ => None,
            };
            if let Some(id_type) = id_type {
                observe(
                    ctx,
                    &context,
                    EntityKind::Person,
                    &label,
                    id_type,
                    u,
                    inv,
                    format!(
                        "{u} is the user name of a login saved in the browser profile for {realm}: an account its user signs in with."
                    ),
                )?;
            }
        }
        if let Some(s) = sender {
            let who = t.get(row, "sender_name").filter(|n| !n.is_empty());
            let person = format!("handle:{s}");
            observe(
                ctx,
                &person,
                EntityKind::Person,
                who.unwrap_or(s),
                IdType::Email,
                s,
                inv,
                format!("{s} shared the password of a login for {realm} with the profile's user."),
            )?;
            if let Some(n) = who {
                observe(
                    ctx,
                    &person,
                    EntityKind::Person,
                    n,
                    IdType::DisplayName,
                    n,
                    inv,
                    format!("{n} is the name of {s}, who shared a password (logins.sender_name)."),
                )?;
            }
        }
    }
    Ok(())
}

/// The name of an autofill field type (Chromium `FieldType`) kept in an address profile.
fn field_type(t: &str) -> Option<(&'static str, Option<IdType>)> {
    Some(match t {
        "3" => ("first name", None),
        "4" => ("middle name", None),
        "5" => ("last name", None),
        "7" => ("name", Some(IdType::DisplayName)),
        "9" => ("e-mail", Some(IdType::Email)),
        "14" => ("phone", Some(IdType::Phone)),
        "30" => ("address line 1", None),
        "31" => ("address line 2", None),
        "33" => ("city", None),
        "34" => ("state", None),
        "35" => ("postcode", None),
        "36" => ("country", None),
        "60" => ("company", None),
        "77" => ("street address", None),
        _ => return None,
    })
}

/// One saved address profile being gathered from its tables.
#[derive(Default)]
struct Profile {
    /// (what, value, id type, the call that printed it)
    values: Vec<(String, String, Option<IdType>, usize)>,
}

/// A saved address's use and change, from its profile table.
struct Meta {
    guid: String,
    count: Option<String>,
    used: Option<String>,
    modified: Option<String>,
    /// The call that printed them (index into the calls made).
    at: usize,
}

impl Meta {
    fn of(guid: &str, t: &crate::outputs::Table, row: &[Option<String>], at: usize) -> Meta {
        let get = |c: &str| t.get(row, c).map(str::to_string);
        Meta {
            guid: guid.to_string(),
            count: get("use_count"),
            used: get("use_date"),
            modified: get("date_modified"),
            at,
        }
    }
}

/// The autofill data of a `Web Data` store.
fn web_data(
    ctx: &AgentCtx<'_>,
    tree: &TreeRef,
    path: &str,
    found: &Invoked,
) -> Result<(), RuntimeError> {
    let Some((_, tables)) = tables_on(ctx, tree, path)? else {
        return Ok(());
    };
    let has = |t: &str| tables.iter().any(|x| x == t);
    let name = artefact_name(tree, path);
    let browser = browser_of(path);
    if !has("autofill") && !has("autofill_profiles") && !has("addresses") {
        ctx.unparsed(
            &name,
            "not a Chromium Web Data store: no autofill, autofill_profiles or addresses table",
            None,
        )?;
        return Ok(());
    }
    if has("autofill") {
        autocomplete(ctx, tree, path, found, &name, browser)?;
    }
    profiles(ctx, tree, path, found, &name, browser, &has)?;
    cards(ctx, tree, path, found, &name, browser, &has)?;
    Ok(())
}

/// The `autofill` table: what was typed into each named form field.
fn autocomplete(
    ctx: &AgentCtx<'_>,
    tree: &TreeRef,
    path: &str,
    found: &Invoked,
    name: &str,
    browser: &str,
) -> Result<(), RuntimeError> {
    let Some(cols) = required_columns(
        ctx,
        tree,
        path,
        "Chromium autocomplete entries",
        "autofill",
        &["name", "value"],
    )?
    else {
        return Ok(());
    };
    let sql = format!(
        "SELECT rowid AS entry, name, value, {}, {}, {} FROM autofill ORDER BY rowid",
        column_or_null(&cols, "", "date_created", "date_created"),
        column_or_null(&cols, "", "date_last_used", "date_last_used"),
        column_or_null(&cols, "", "count", "count"),
    );
    let Some(pages) = pages_on(ctx, tree, path, &sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, name, &pages, "autocomplete entries")?;
    for (inv, t, row) in pages.rows() {
        let field = raw(t, row, "name").unwrap_or_default();
        let mut d = Draft::new("web", format!("{browser} autocomplete value for {field}"));
        d.fact(FactType::Path, Some(path), found);
        d.fact(FactType::Text, Some(&field), inv);
        let value = raw(t, row, "value");
        let vt = match value.as_deref() {
            Some(v) if normalized(ctx, IdType::Email, v).is_some() => FactType::Email,
            _ => FactType::Text,
        };
        d.fact(vt, value.as_deref(), inv);
        for (col, what) in [
            ("date_created", "Value first typed"),
            ("date_last_used", "Value last typed"),
        ] {
            let v = t.get(row, col);
            d.time(v, unix_seconds(v), what, inv);
        }
        d.fact(FactType::Count, t.get(row, "count"), inv);
        d.interpretation = format!(
            "autofill row {} of {name}: a value typed {} time(s) into a form field named {field} in {browser}; the times are Unix seconds. Whose value it is, is not recorded.",
            t.get(row, "entry").unwrap_or("?"),
            t.get(row, "count").unwrap_or("?"),
        );
        record_draft(ctx, d)?;
    }
    Ok(())
}

/// The saved address profiles, of either layout.
fn profiles(
    ctx: &AgentCtx<'_>,
    tree: &TreeRef,
    path: &str,
    found: &Invoked,
    name: &str,
    browser: &str,
    has: &dyn Fn(&str) -> bool,
) -> Result<(), RuntimeError> {
    let mut calls: Vec<Invoked> = Vec::new();
    let mut by_guid: BTreeMap<String, Profile> = BTreeMap::new();
    // the use count, use date and modification time of each profile, from its main table
    let mut meta: Vec<Meta> = Vec::new();
    let q = |sql: &str| pages_on(ctx, tree, path, sql);
    if has("autofill_profiles") {
        // before 2023: one table per kind of value
        let Some(cols) = required_columns(
            ctx,
            tree,
            path,
            "Chromium autofill profiles",
            "autofill_profiles",
            &["guid"],
        )?
        else {
            return Ok(());
        };
        let c = |col: &str| column_or_null(&cols, "", col, col);
        let sql = format!(
            "SELECT guid, {}, {}, {}, {}, {}, {}, {}, {}, {}, {} FROM autofill_profiles ORDER BY rowid",
            c("company_name"),
            c("street_address"),
            c("city"),
            c("state"),
            c("zipcode"),
            c("country_code"),
            c("date_modified"),
            c("use_count"),
            c("use_date"),
            c("origin"),
        );
        if let Some(pages) = q(&sql)? {
            for (inv, t) in pages.pages {
                let at = calls.len();
                for row in &t.rows {
                    let Some(guid) = t.get(row, "guid") else {
                        continue;
                    };
                    let p = by_guid.entry(guid.to_string()).or_default();
                    for (col, what) in [
                        ("company_name", "company"),
                        ("street_address", "street address"),
                        ("city", "city"),
                        ("state", "state"),
                        ("zipcode", "postcode"),
                        ("country_code", "country"),
                    ] {
                        if let Some(v) = raw(&t, row, col).filter(|v| !v.is_empty()) {
                            p.values.push((what.into(), v, None, at));
                        }
                    }
                    meta.push(Meta::of(guid, &t, row, at));
                }
                calls.push(inv);
            }
        }
        for (table, col, what, id_type) in [
            (
                "autofill_profile_names",
                "full_name",
                "name",
                Some(IdType::DisplayName),
            ),
            (
                "autofill_profile_emails",
                "email",
                "e-mail",
                Some(IdType::Email),
            ),
            (
                "autofill_profile_phones",
                "number",
                "phone",
                Some(IdType::Phone),
            ),
        ] {
            if !has(table) {
                continue;
            }
            let cols = table_columns(ctx, tree, path, table)?;
            if !cols.contains("guid") || !cols.contains(col) {
                continue;
            }
            let extra = if table == "autofill_profile_names" {
                format!(
                    ", {}, {}, {}",
                    column_or_null(&cols, "", "first_name", "first_name"),
                    column_or_null(&cols, "", "middle_name", "middle_name"),
                    column_or_null(&cols, "", "last_name", "last_name")
                )
            } else {
                String::new()
            };
            let sql = format!("SELECT guid, {col}{extra} FROM {table} ORDER BY rowid");
            if let Some(pages) = q(&sql)? {
                for (inv, t) in pages.pages {
                    let at = calls.len();
                    for row in &t.rows {
                        let Some(guid) = t.get(row, "guid") else {
                            continue;
                        };
                        let p = by_guid.entry(guid.to_string()).or_default();
                        if let Some(v) = raw(&t, row, col).filter(|v| !v.is_empty()) {
                            p.values.push((what.into(), v, id_type, at));
                        }
                        for (c, w) in [
                            ("first_name", "first name"),
                            ("middle_name", "middle name"),
                            ("last_name", "last name"),
                        ] {
                            if let Some(v) = raw(&t, row, c).filter(|v| !v.is_empty()) {
                                p.values.push((w.into(), v, None, at));
                            }
                        }
                    }
                    calls.push(inv);
                }
            }
        }
    }
    // 2023 on: one table of profiles, one of typed tokens (named `local_addresses` for a while)
    for (main, tokens) in [
        ("addresses", "address_type_tokens"),
        ("local_addresses", "local_addresses_type_tokens"),
    ] {
        if !has(main) || !has(tokens) {
            continue;
        }
        let mcols = table_columns(ctx, tree, path, main)?;
        let tcols = table_columns(ctx, tree, path, tokens)?;
        if !require_columns(ctx, name, "Chromium addresses", main, &mcols, &["guid"])?
            || !require_columns(
                ctx,
                name,
                "Chromium addresses",
                tokens,
                &tcols,
                &["guid", "type", "value"],
            )?
        {
            continue;
        }
        let c = |col: &str| column_or_null(&mcols, "", col, col);
        let sql = format!(
            "SELECT guid, {}, {}, {} FROM {main} ORDER BY rowid",
            c("use_count"),
            c("use_date"),
            c("date_modified"),
        );
        if let Some(pages) = q(&sql)? {
            for (inv, t) in pages.pages {
                let at = calls.len();
                for row in &t.rows {
                    if let Some(guid) = t.get(row, "guid") {
                        by_guid.entry(guid.to_string()).or_default();
                        meta.push(Meta::of(guid, &t, row, at));
                    }
                }
                calls.push(inv);
            }
        }
        let sql = format!("SELECT guid, type, value FROM {tokens} ORDER BY guid, type");
        if let Some(pages) = q(&sql)? {
            for (inv, t) in pages.pages {
                let at = calls.len();
                for row in &t.rows {
                    let (Some(guid), Some(ty)) = (t.get(row, "guid"), t.get(row, "type")) else {
                        continue;
                    };
                    let Some((what, id_type)) = field_type(ty) else {
                        continue;
                    };
                    if let Some(v) = raw(&t, row, "value").filter(|v| !v.is_empty()) {
                        by_guid.entry(guid.to_string()).or_default().values.push((
                            what.into(),
                            v,
                            id_type,
                            at,
                        ));
                    }
                }
                calls.push(inv);
            }
        }
    }
    for (guid, p) in &by_guid {
        if p.values.is_empty() {
            continue;
        }
        let label = p
            .values
            .iter()
            .find(|(w, ..)| w == "name")
            .or_else(|| p.values.iter().find(|(w, ..)| w == "e-mail"))
            .or_else(|| p.values.first())
            .map(|(_, v, ..)| v.clone())
            .unwrap_or_else(|| guid.clone());
        let mut d = Draft::new("contacts", format!("{browser} autofill profile {label}"));
        d.fact(FactType::Path, Some(path), found);
        for (what, v, id_type, at) in &p.values {
            let t = match (what.as_str(), id_type) {
                (_, Some(IdType::Email)) => FactType::Email,
                (_, Some(IdType::Phone)) => FactType::Phone,
                ("name" | "first name" | "middle name" | "last name" | "company", _) => {
                    FactType::Name
                }
                _ => FactType::Text,
            };
            d.fact(t, Some(v), &calls[*at]);
        }
        let m = meta.iter().find(|m| &m.guid == guid);
        if let Some(m) = m {
            let inv = &calls[m.at];
            d.fact(FactType::Identifier, Some(guid), inv);
            let (used, modified) = (m.used.as_deref(), m.modified.as_deref());
            d.time(used, unix_seconds(used), "Address last used", inv);
            d.time(
                modified,
                unix_seconds(modified),
                "Address saved or changed",
                inv,
            );
            d.fact(FactType::Count, m.count.as_deref(), inv);
        }
        d.interpretation = format!(
            "An address saved for autofill in {browser} ({name}): {}; used {} time(s); times are Unix seconds.",
            p.values
                .iter()
                .map(|(w, ..)| w.as_str())
                .collect::<Vec<_>>()
                .join(", "),
            m.and_then(|m| m.count.as_deref()).unwrap_or("?"),
        );
        record_draft(ctx, d)?;
        let context = format!("autofill:{guid}");
        for (what, v, id_type, at) in &p.values {
            if let Some(id_type) = id_type {
                observe(
                    ctx,
                    &context,
                    EntityKind::Person,
                    &label,
                    *id_type,
                    v,
                    &calls[*at],
                    format!("The {what} of an address saved for autofill in {browser} ({label})."),
                )?;
            }
        }
    }
    Ok(())
}

/// Payment cards saved in the browser: the name, expiry and (server cards) the last four
/// digits; never the number.
fn cards(
    ctx: &AgentCtx<'_>,
    tree: &TreeRef,
    path: &str,
    found: &Invoked,
    name: &str,
    browser: &str,
    has: &dyn Fn(&str) -> bool,
) -> Result<(), RuntimeError> {
    for (table, key, local) in [
        ("credit_cards", "guid", true),
        ("masked_credit_cards", "id", false),
    ] {
        if !has(table) {
            continue;
        }
        let Some(cols) =
            required_columns(ctx, tree, path, "Chromium payment cards", table, &[key])?
        else {
            continue;
        };
        let c = |col: &str| column_or_null(&cols, "", col, col);
        let (month, year) = if local {
            ("expiration_month", "expiration_year")
        } else {
            ("exp_month", "exp_year")
        };
        let sql = format!(
            "SELECT {key} AS card, {}, {}, {}, {}, {}, {}, {}, {}, {}, {} FROM {table} ORDER BY rowid",
            c("name_on_card"),
            column_or_null(&cols, "", month, "month"),
            column_or_null(&cols, "", year, "year"),
            c("nickname"),
            c("network"),
            c("last_four"),
            c("bank_name"),
            c("use_count"),
            c("use_date"),
            c("date_modified"),
        );
        let Some(pages) = pages_on(ctx, tree, path, &sql)? else {
            continue;
        };
        for (inv, t, row) in pages.rows() {
            let holder = raw(t, row, "name_on_card");
            let last4 = t.get(row, "last_four");
            let mut d = Draft::new(
                "accounts",
                format!(
                    "{browser} {} card{}{}",
                    if local { "saved" } else { "server" },
                    last4.map(|l| format!(" ending {l}")).unwrap_or_default(),
                    holder
                        .as_deref()
                        .map(|h| format!(" of {h}"))
                        .unwrap_or_default()
                ),
            );
            d.fact(FactType::Path, Some(path), found);
            d.fact(FactType::Name, holder.as_deref(), inv);
            d.fact(FactType::Name, raw(t, row, "nickname").as_deref(), inv);
            d.fact(FactType::Name, raw(t, row, "bank_name").as_deref(), inv);
            d.fact(FactType::Identifier, raw(t, row, "network").as_deref(), inv);
            d.fact(FactType::Identifier, last4, inv);
            let used = t.get(row, "use_date");
            d.time(used, unix_seconds(used), "Card last used", inv);
            let modified = t.get(row, "date_modified");
            d.time(
                modified,
                unix_seconds(modified),
                "Card saved or changed",
                inv,
            );
            d.fact(FactType::Count, t.get(row, "use_count"), inv);
            d.interpretation = format!(
                "{table} row {} of {name}: a payment card {} in {browser}, expiring {}/{}; its number is encrypted and was not read.",
                t.get(row, "card").unwrap_or("?"),
                if local {
                    "saved on the device"
                } else {
                    "of the user's Google Pay account, as the browser mirrors it"
                },
                t.get(row, "month").unwrap_or("?"),
                t.get(row, "year").unwrap_or("?"),
            );
            record_draft(ctx, d)?;
        }
    }
    Ok(())
}

/// The two stores of what was typed in the address bar.
#[derive(Clone, Copy)]
enum Typed {
    /// `Shortcuts` (`omni_box_shortcuts`): typed text, the suggestion taken, how often, when.
    Shortcuts,
    /// `Network Action Predictor` (`network_action_predictor`): typed text, the URL, hits and
    /// misses.
    Predictor,
}

/// What the user typed into the address bar (`Shortcuts`, `Network Action Predictor`): one
/// phenomenon per entry — the text, the URL it led to, counts and (shortcuts) the last use.
fn typed(
    ctx: &AgentCtx<'_>,
    tree: &TreeRef,
    path: &str,
    found: &Invoked,
    kind: Typed,
) -> Result<(), RuntimeError> {
    let (table, text_col, what) = match kind {
        Typed::Shortcuts => ("omni_box_shortcuts", "text", "Chromium omnibox shortcuts"),
        Typed::Predictor => (
            "network_action_predictor",
            "user_text",
            "Chromium's network action predictor",
        ),
    };
    let Some(cols) = store_table(ctx, tree, path, what, table, &[text_col, "url"])? else {
        return Ok(());
    };
    let name = artefact_name(tree, path);
    let c = |col: &str| column_or_null(&cols, "", col, col);
    let sql = format!(
        "SELECT rowid AS row, {text_col} AS typed, url, {}, {}, {}, {}, {} FROM {table} ORDER BY rowid",
        c("fill_into_edit"),
        c("description"),
        c("last_access_time"),
        c("number_of_hits"),
        c("number_of_misses"),
    );
    let Some(pages) = pages_on(ctx, tree, path, &sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, &name, &pages, "typed entries")?;
    let browser = browser_of(path);
    for (inv, t, row) in pages.rows() {
        let typed = raw(t, row, "typed").unwrap_or_default();
        let mut d = Draft::new("web", format!("{browser} address bar: typed {typed}"));
        d.fact(FactType::Path, Some(path), found);
        d.fact(FactType::Text, Some(&typed), inv);
        d.fact(FactType::Url, raw(t, row, "url").as_deref(), inv);
        d.fact(
            FactType::Text,
            raw(t, row, "fill_into_edit").as_deref(),
            inv,
        );
        d.fact(FactType::Text, raw(t, row, "description").as_deref(), inv);
        d.fact(FactType::Count, t.get(row, "number_of_hits"), inv);
        let last = t.get(row, "last_access_time");
        d.time(last, webkit(last), "Address-bar suggestion last used", inv);
        d.interpretation = format!(
            "{table} row {} of {name}: the user typed this text into {browser}'s address bar and {} (hits {}, misses {}){}.",
            t.get(row, "row").unwrap_or("?"),
            match kind {
                Typed::Shortcuts => "took the suggestion it shows, kept as a shortcut",
                Typed::Predictor => "the browser learned which page it leads to",
            },
            t.get(row, "number_of_hits").unwrap_or("?"),
            t.get(row, "number_of_misses").unwrap_or("not stored"),
            if last.is_some() {
                "; last_access_time is WebKit microseconds"
            } else {
                ""
            },
        );
        record_draft(ctx, d)?;
    }
    Ok(())
}

/// The most-visited sites of a profile (`Top Sites`, table `top_sites`: ALEAPP's
/// `chromeTopSites`): one phenomenon per site with its URL, rank (0 first), title and, in the
/// older layout, the redirect chain that reached it. The list keeps no time.
fn top_sites(
    ctx: &AgentCtx<'_>,
    tree: &TreeRef,
    path: &str,
    found: &Invoked,
) -> Result<(), RuntimeError> {
    let Some(cols) = store_table(
        ctx,
        tree,
        path,
        "Chromium's top sites",
        "top_sites",
        &["url"],
    )?
    else {
        return Ok(());
    };
    let name = artefact_name(tree, path);
    let c = |col: &str| column_or_null(&cols, "", col, col);
    let sql = format!(
        "SELECT rowid AS row, url, {}, {}, {} FROM top_sites ORDER BY {}",
        c("url_rank"),
        c("title"),
        c("redirects"),
        if cols.contains("url_rank") {
            "url_rank, rowid"
        } else {
            "rowid"
        },
    );
    let Some(pages) = pages_on(ctx, tree, path, &sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, &name, &pages, "top sites")?;
    let browser = browser_of(path);
    for (inv, t, row) in pages.rows() {
        let Some(url) = raw(t, row, "url") else {
            continue;
        };
        let rank = t.get(row, "url_rank");
        let mut d = Draft::new(
            "web",
            format!(
                "{browser} top site{}: {url}",
                rank.map(|r| format!(" {r}")).unwrap_or_default()
            ),
        );
        d.fact(FactType::Path, Some(path), found);
        d.fact(FactType::Url, Some(&url), inv);
        d.fact(FactType::Name, raw(t, row, "title").as_deref(), inv);
        d.fact(FactType::Count, rank, inv);
        let redirects = raw(t, row, "redirects").filter(|r| !r.is_empty() && *r != url);
        d.fact(FactType::Text, redirects.as_deref(), inv);
        d.interpretation = format!(
            "top_sites row {} of {name}: {url} is on {browser}'s list of most-visited sites{}{}; the list keeps no time.",
            t.get(row, "row").unwrap_or("?"),
            rank.map(|r| format!(" at rank {r} (0 is first)"))
                .unwrap_or_default(),
            redirects
                .as_deref()
                .map(|r| format!(", reached through {r}"))
                .unwrap_or_default(),
        );
        record_draft(ctx, d)?;
    }
    Ok(())
}

/// The sites that set cookies (`Cookies`, `cookies`): one phenomenon per host — how many
/// cookies, their names, when the first was set and the last was used (WebKit µs). **Cookie
/// values are never selected** (they are session credentials).
fn cookies(
    ctx: &AgentCtx<'_>,
    tree: &TreeRef,
    path: &str,
    found: &Invoked,
) -> Result<(), RuntimeError> {
    let Some(cols) = store_table(
        ctx,
        tree,
        path,
        "a Chromium cookie store",
        "cookies",
        &["host_key", "name", "creation_utc"],
    )?
    else {
        return Ok(());
    };
    let name = artefact_name(tree, path);
    let last = if cols.contains("last_access_utc") {
        "max(last_access_utc)"
    } else {
        "NULL"
    };
    let sql = format!(
        "SELECT host_key AS host, count(*) AS cookies, group_concat(DISTINCT name) AS names, min(creation_utc) AS first_set, {last} AS last_access FROM cookies GROUP BY host_key ORDER BY host_key"
    );
    let Some(pages) = pages_on(ctx, tree, path, &sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, &name, &pages, "cookie hosts")?;
    let browser = browser_of(path);
    for (inv, t, row) in pages.rows() {
        let host = raw(t, row, "host").unwrap_or_default();
        let mut d = Draft::new("web", format!("{browser} cookies of {host}"));
        d.fact(FactType::Path, Some(path), found);
        d.fact(FactType::Text, Some(&host), inv);
        d.fact(FactType::Count, t.get(row, "cookies"), inv);
        d.fact(FactType::Text, raw(t, row, "names").as_deref(), inv);
        let first = t.get(row, "first_set");
        d.time(first, webkit(first), "First cookie set", inv);
        let last = t.get(row, "last_access");
        d.time(last, webkit(last), "Cookie last used", inv);
        d.interpretation = format!(
            "cookies of {name}: {} cookie(s) set by {host} in {browser} (their names listed, never their values); creation_utc and last_access_utc are WebKit microseconds.",
            t.get(row, "cookies").unwrap_or("?"),
        );
        record_draft(ctx, d)?;
    }
    Ok(())
}
