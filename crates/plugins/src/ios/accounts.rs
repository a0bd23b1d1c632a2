//! `Accounts3.sqlite`: the accounts configured on the device (`ZACCOUNT` joined with
//! `ZACCOUNTTYPE`), one phenomenon per account, and their user names as the owner's Apple ID,
//! Google account, e-mail or other account id. `com.apple.accounts.exists.plist`
//! (`/private/var/preferences/SystemConfiguration/`): which account types are configured and
//! how many of each (`com.apple.account.<type>.count` / `.exists`), one phenomenon per type —
//! iLEAPP's `accountConfig`; it survives where `Accounts3.sqlite` is not extracted.

use masf_agents::RuntimeError;
use masf_graph::{EntityKind, FactType, IdType};
use masf_tools::Invoked;

use super::{Draft, Run, core_data_encoding, raw, summarise};

const ACCOUNT_SQL: &str = "SELECT a.Z_PK AS pk, a.ZUSERNAME AS username, a.ZACCOUNTDESCRIPTION AS description, \
a.ZIDENTIFIER AS identifier, a.ZOWNINGBUNDLEID AS bundle, a.ZDATE AS date, \
t.ZACCOUNTTYPEDESCRIPTION AS type_description, t.ZIDENTIFIER AS type_identifier \
FROM ZACCOUNT a LEFT JOIN ZACCOUNTTYPE t ON t.Z_PK = a.ZACCOUNTTYPE";

/// The account properties that identify the person behind an Apple account: each value an
/// NSKeyedArchiver plist (read as JSON through `sqlite_query`'s `plists`).
const PROPERTY_SQL: &str = "SELECT p.Z_PK AS pk, p.ZOWNER AS account, p.ZKEY AS key, p.ZVALUE AS value \
FROM ZACCOUNTPROPERTY p WHERE p.ZKEY IN ('dsid', 'personID', 'altDSID', 'primaryEmail', 'firstName', 'lastName')";

const SUMMARY_SQL: &str = "SELECT count(*) AS total, min(NULLIF(ZDATE, 0)) AS first_time, max(ZDATE) AS last_time FROM ZACCOUNT";

/// Account types whose user name is the Apple ID.
const APPLE_ID_TYPES: [&str; 10] = [
    "AppleAccount",
    "AppleID",
    "iTunesStore",
    "IdentityServices",
    "CloudKit",
    "GameCenter",
    "FaceTime",
    "Madrid",
    "iCloud",
    "AppStore",
];

/// Triage of every `Accounts3.sqlite` and `com.apple.accounts.exists.plist` of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    run.each("Accounts3.sqlite", |find, path| one(run, find, path))?;
    run.each("com.apple.accounts.exists.plist", |find, path| {
        types(run, find, path)
    })
}

/// The account types of `com.apple.accounts.exists.plist`: one phenomenon per type with its
/// count (or only its `exists` flag).
fn types(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let Some((inv, v)) = super::plists::parse(run, path)? else {
        return Ok(());
    };
    // type → (count key and value, exists key and value)
    let mut by_type: std::collections::BTreeMap<&str, [Option<(&str, String)>; 2]> =
        std::collections::BTreeMap::new();
    for (key, value) in v.as_object().into_iter().flatten() {
        let Some(rest) = key.strip_prefix("com.apple.account.") else {
            continue;
        };
        let (ty, slot) = if let Some(t) = rest.strip_suffix(".count") {
            (t, 0)
        } else if let Some(t) = rest.strip_suffix(".exists") {
            (t, 1)
        } else {
            continue;
        };
        if let Some(x) = crate::outputs::json_scalar(Some(value)) {
            by_type.entry(ty).or_default()[slot] = Some((key.as_str(), x));
        }
    }
    if by_type.is_empty() {
        run.ctx.unparsed(
            path,
            "unexpected content: no com.apple.account.<type>.count or .exists key",
            Some(&inv.record.invocation_id),
        )?;
        return Ok(());
    }
    for (ty, [count, exists]) in &by_type {
        let n = count.as_ref().map(|(_, c)| c.as_str());
        let mut d = Draft::new(
            "accounts",
            match n {
                Some(n) => format!("Account type {ty} configured ({n})"),
                None => format!("Account type {ty} configured"),
            },
        );
        d.fact(FactType::Path, Some(path), find);
        for (key, value) in [count, exists].into_iter().flatten() {
            d.fact(FactType::Identifier, Some(key), &inv);
            d.fact(FactType::Count, Some(value), &inv);
        }
        d.interpretation = format!(
            "com.apple.accounts.exists.plist records accounts of type com.apple.account.{ty} on the device: {}.",
            match (n, exists) {
                (Some(n), _) => format!("{n} of them"),
                (None, Some((_, e))) => format!("exists flag {e}, no count"),
                (None, None) => "no count".to_string(),
            }
        );
        run.record(d)?;
    }
    Ok(())
}

/// How a user name of an account type is observed.
pub fn account_id_type(type_identifier: Option<&str>, username: &str) -> IdType {
    let ty = type_identifier.unwrap_or("");
    if ty.to_ascii_lowercase().contains("google") {
        IdType::GoogleAccount
    } else if ty.starts_with("com.apple.") && APPLE_ID_TYPES.iter().any(|k| ty.contains(k)) {
        IdType::AppleId
    } else if username.contains('@') {
        IdType::Email
    } else {
        IdType::AccountId
    }
}

fn one(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let Some(schema) = run.schema(path, &["ZACCOUNT", "ZACCOUNTTYPE", "ZACCOUNTPROPERTY"])? else {
        return Ok(());
    };
    let account = [
        "ZUSERNAME",
        "ZACCOUNTTYPE",
        "ZDATE",
        "ZIDENTIFIER",
        "ZOWNINGBUNDLEID",
        "ZACCOUNTDESCRIPTION",
    ];
    if !schema.require(run, "ZACCOUNT", &account)?
        || !schema.require(
            run,
            "ZACCOUNTTYPE",
            &["ZACCOUNTTYPEDESCRIPTION", "ZIDENTIFIER"],
        )?
    {
        return Ok(());
    }
    let Some(paged) = run.paged(path, ACCOUNT_SQL, "a.Z_PK")? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        let pk = raw(t, row, "pk").unwrap_or_default();
        let user = raw(t, row, "username");
        let ty_desc = raw(t, row, "type_description");
        let ty_id = raw(t, row, "type_identifier");
        let kind = ty_desc
            .clone()
            .or_else(|| ty_id.clone())
            .unwrap_or_else(|| "account".into());
        let mut d = Draft::new(
            "accounts",
            format!(
                "{kind} account {}",
                user.as_deref().unwrap_or("(no user name)")
            ),
        );
        d.fact(FactType::Path, Some(path), find);
        d.fact(FactType::Account, user.as_deref(), inv);
        d.fact(FactType::Name, ty_desc.as_deref(), inv);
        d.fact(FactType::Identifier, ty_id.as_deref(), inv);
        d.fact(FactType::Name, raw(t, row, "description").as_deref(), inv);
        d.fact(
            FactType::Identifier,
            raw(t, row, "identifier").as_deref(),
            inv,
        );
        d.fact(FactType::Identifier, raw(t, row, "bundle").as_deref(), inv);
        let date = raw(t, row, "date");
        d.time(
            date.as_deref(),
            core_data_encoding(date.as_deref()),
            "Account created",
            inv,
        );
        d.interpretation = format!(
            "ZACCOUNT Z_PK {pk} of {path} is a {kind} account{} configured on the device; ZDATE is Core Data seconds since the Apple epoch (start of 2001 UTC) (apple_seconds).",
            user.as_deref()
                .map(|u| format!(" for {u}"))
                .unwrap_or_default()
        );
        run.record(d)?;
        if let Some(u) = &user {
            let id_type = account_id_type(ty_id.as_deref(), u);
            run.observe(
                "owner",
                EntityKind::Person,
                "device owner",
                id_type,
                u,
                inv,
                format!("The device is signed in to a {kind} account as {u}."),
            )?;
        }
    }
    properties(run, &schema, path, find)?;
    if paged.truncated {
        summarise(
            run,
            "accounts",
            path,
            find,
            "accounts",
            SUMMARY_SQL,
            core_data_encoding,
            "First account created",
            "Last account created",
        )?;
    }
    Ok(())
}

/// The identifying properties of the accounts (`ZACCOUNTPROPERTY`): one phenomenon per
/// account holding any (DSID, person id, altDSID, primary e-mail, first and last name), and the
/// DSID and primary e-mail as the owner's (`dsid`, `email`). A database without the table is
/// read as before, silently: older iOS versions keep these elsewhere.
fn properties(
    run: &Run<'_, '_>,
    schema: &super::Schema,
    path: &str,
    find: &Invoked,
) -> Result<(), RuntimeError> {
    let cols = schema.columns("ZACCOUNTPROPERTY");
    if !["ZOWNER", "ZKEY", "ZVALUE"]
        .iter()
        .all(|c| cols.contains(*c))
    {
        return Ok(());
    }
    let Some(paged) = run.paged_with(path, PROPERTY_SQL, "p.Z_PK", &["plists"])? else {
        return Ok(());
    };
    // per account: (key, value as written) with the call that returned it
    let mut by_account: std::collections::BTreeMap<String, Vec<(String, String, &Invoked)>> =
        std::collections::BTreeMap::new();
    for (inv, t, row) in paged.rows() {
        let (Some(account), Some(key)) = (raw(t, row, "account"), raw(t, row, "key")) else {
            continue;
        };
        let value = t
            .get(row, "value")
            .and_then(crate::outputs::plist_cell)
            .map(|v| v.get("root").cloned().unwrap_or(v));
        let text = match value {
            Some(serde_json::Value::String(s)) if !s.trim().is_empty() => s,
            Some(serde_json::Value::Number(n)) => n.to_string(),
            _ => continue,
        };
        by_account
            .entry(account)
            .or_default()
            .push((key, text, inv));
    }
    for (account, props) in &by_account {
        let get = |k: &str| props.iter().find(|(key, _, _)| key == k);
        let mut d = Draft::new(
            "accounts",
            format!(
                "Properties of account {account}{}",
                get("primaryEmail")
                    .map(|(_, v, _)| format!(" ({v})"))
                    .unwrap_or_default()
            ),
        );
        d.fact(FactType::Path, Some(path), find);
        let mut said = Vec::new();
        for (key, value, inv) in props {
            let ft = match key.as_str() {
                "dsid" | "personID" => FactType::Account,
                "primaryEmail" => FactType::Email,
                "firstName" | "lastName" => FactType::Name,
                _ => FactType::Identifier,
            };
            d.fact(ft, Some(value), inv);
            said.push(format!("{key} {value}"));
        }
        d.interpretation = format!(
            "ZACCOUNTPROPERTY rows of account Z_PK {account} of {path} (archived values): {}.",
            said.join(", ")
        );
        run.record(d)?;
        for (key, value, inv) in props {
            let id_type = match key.as_str() {
                "dsid" | "personID" => IdType::Dsid,
                "primaryEmail" => IdType::Email,
                _ => continue,
            };
            run.observe(
                "owner",
                EntityKind::Person,
                "device owner",
                id_type,
                value,
                inv,
                format!(
                    "Account Z_PK {account} configured on the device has the {key} {value} (Accounts3)."
                ),
            )?;
        }
    }
    Ok(())
}
