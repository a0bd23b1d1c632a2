//! Viber on iOS (the `group.viber.share.container` app group's `com.viber/` folder), the
//! identity half of iLEAPP's `viber` module:
//!
//! - `settings/Settings.data` (`Data` key/value): the account — user name, e-mail, phone number
//!   as typed, canonized (international digits) and formatted, country, Viber uid, device id,
//!   registration and last backup dates (iLEAPP's `viber_settings`); the `owner` by the
//!   canonized number (`+` and its digits, written by the query so that it grounds), the user
//!   name and the e-mail;
//! - `database/Contacts.data` (Core Data): one phenomenon per `ZABCONTACT` with its
//!   `ZABCONTACTNUMBER`s (main, prefix and suffix name, phone as typed and canonized, contact
//!   id: iLEAPP's `viber_contacts`), each number observed as that person's phone — under the
//!   address-book card that holds it when there is one, else `handle:<number>`.

use masf_agents::RuntimeError;
use masf_graph::{EntityKind, FactType, IdType};
use masf_tools::Invoked;

use super::{Draft, Run, file_name, raw};
use crate::calls::column_or_null;

/// The settings iLEAPP reports, with what each is.
const SETTINGS: &[(&str, &str)] = &[
    ("_myUserName", "user name"),
    ("_currentEmail", "e-mail"),
    ("_myPhoneNumber", "phone number"),
    ("_myCanonizedPhoneNumber", "canonized phone number"),
    ("_myFormattedPhoneNumber", "formatted phone number"),
    ("_myCountryPhoneCode", "country calling code"),
    ("_myCountryCode", "country"),
    ("_myLanguageCode", "language"),
    ("_uid", "Viber user id"),
    ("_appVersion", "app version"),
    ("_savedDeviceId", "device id"),
    ("_registrationDate", "registration date (Unix seconds)"),
    ("_lastBackupStartDate", "last backup start (Unix seconds)"),
    (
        "_autoBackupLastRunTime",
        "last automatic backup (Unix seconds)",
    ),
];

/// Whether `path` is in Viber's folder.
fn is_viber(path: &str) -> bool {
    path.contains("/com.viber/")
}

/// Triage of Viber's settings and contacts.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    run.each("Settings.data", |find, path| {
        if is_viber(path) {
            settings(run, find, path)?;
        }
        Ok(())
    })?;
    run.each("Contacts.data", |find, path| {
        if is_viber(path) {
            contacts(run, find, path)?;
        }
        Ok(())
    })
}

fn settings(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let Some(schema) = run.schema(path, &["Data"])? else {
        return Ok(());
    };
    if !schema.require(run, "Data", &["key", "value"])? {
        return Ok(());
    }
    let keys = SETTINGS
        .iter()
        .map(|(k, _)| format!("'{k}'"))
        .collect::<Vec<_>>()
        .join(", ");
    // the canonized number is international digits without the plus: the query writes it
    let sql = format!(
        "SELECT key, value, CASE WHEN key = '_myCanonizedPhoneNumber' AND CAST(value AS TEXT) GLOB '[1-9]*' AND NOT CAST(value AS TEXT) GLOB '*[^0-9]*' THEN '+' || value END AS international, CASE WHEN key = '_uid' AND CAST(value AS TEXT) != '' THEN 'viber:' || value END AS account FROM Data WHERE key IN ({keys}) ORDER BY key"
    );
    let Some((inv, t)) = run.query(path, &sql, 100)? else {
        return Ok(());
    };
    if t.rows.is_empty() {
        return Ok(());
    }
    let mut d = Draft::new("accounts", "Viber account (Settings.data)");
    d.fact(FactType::Path, Some(path), find);
    let mut listed = Vec::new();
    for row in &t.rows {
        let (Some(key), Some(value)) = (t.get(row, "key"), raw(&t, row, "value")) else {
            continue;
        };
        let what = SETTINGS
            .iter()
            .find(|(k, _)| *k == key)
            .map_or(key, |(_, w)| *w);
        let fact_type = match key {
            "_myPhoneNumber" | "_myFormattedPhoneNumber" => FactType::Phone,
            "_currentEmail" => FactType::Email,
            "_myUserName" => FactType::Name,
            "_uid" => FactType::Account,
            "_savedDeviceId" => FactType::Identifier,
            _ => FactType::Text,
        };
        if key.ends_with("Date") || key.ends_with("RunTime") {
            let seconds = t.get(row, "value");
            let encoding = seconds
                .filter(|v| !v.starts_with('-'))
                .and_then(|v| crate::drafts::unix_seconds(Some(v)));
            d.time(seconds, encoding, what, &inv);
        } else {
            d.fact(fact_type, Some(&value), &inv);
        }
        d.fact(
            FactType::Phone,
            raw(&t, row, "international").as_deref(),
            &inv,
        );
        listed.push(format!("{what} {value}"));
    }
    d.interpretation = format!(
        "Data rows of {}: the Viber account signed in on the device — {}.",
        file_name(path),
        listed.join("; ")
    );
    run.record(d)?;
    for row in &t.rows {
        let key = t.get(row, "key").unwrap_or("");
        let (id_type, value, what) = match key {
            "_myCanonizedPhoneNumber" => {
                (IdType::Phone, t.get(row, "international"), "phone number")
            }
            "_myUserName" => (IdType::DisplayName, t.get(row, "value"), "user name"),
            "_currentEmail" => (IdType::Email, t.get(row, "value"), "e-mail"),
            "_uid" => (IdType::AccountId, t.get(row, "account"), "user id"),
            _ => continue,
        };
        if let Some(v) = value.filter(|v| !v.is_empty()) {
            run.observe(
                "owner",
                EntityKind::Person,
                "device owner",
                id_type,
                v,
                &inv,
                format!("The Viber account's {what} ({key} of Settings.data)."),
            )?;
        }
    }
    Ok(())
}

fn contacts(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let Some(schema) = run.schema(path, &["ZABCONTACT", "ZABCONTACTNUMBER"])? else {
        return Ok(());
    };
    if !schema.require(run, "ZABCONTACT", &["Z_PK"])?
        || !schema.require(run, "ZABCONTACTNUMBER", &["ZCONTACT"])?
    {
        return Ok(());
    }
    let c = schema.columns("ZABCONTACT");
    let n = schema.columns("ZABCONTACTNUMBER");
    let digits = if n.contains("ZCANONIZEDPHONENUM") {
        "CASE WHEN CAST(n.ZCANONIZEDPHONENUM AS TEXT) GLOB '[1-9]*' AND NOT CAST(n.ZCANONIZEDPHONENUM AS TEXT) GLOB '*[^0-9]*' THEN '+' || n.ZCANONIZEDPHONENUM END"
    } else {
        "NULL"
    };
    let sql = format!(
        "SELECT c.Z_PK AS pk, {}, {}, {}, {}, {}, {}, {digits} AS international FROM ZABCONTACT c LEFT JOIN ZABCONTACTNUMBER n ON n.ZCONTACT = c.Z_PK",
        column_or_null(&c, "c.", "ZMAINNAME", "main"),
        column_or_null(&c, "c.", "ZPREFIXNAME", "prefix"),
        column_or_null(&c, "c.", "ZSUFFIXNAME", "suffix"),
        column_or_null(&c, "c.", "ZCONTACTID", "contact_id"),
        column_or_null(&n, "n.", "ZPHONE", "phone"),
        column_or_null(&n, "n.", "ZCANONIZEDPHONENUM", "canonized"),
    );
    let Some(paged) = run.paged(path, &sql, "c.Z_PK")? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        let pk = t.get(row, "pk").unwrap_or("?");
        let name = t.get(row, "main").filter(|s| !s.is_empty());
        let number = t.get(row, "international").or(t.get(row, "phone"));
        let label = name.or(number).unwrap_or(pk).to_string();
        let mut d = Draft::new("contacts", format!("Viber contact {label}"));
        d.fact(FactType::Path, Some(path), find);
        for col in ["main", "prefix", "suffix"] {
            d.fact(FactType::Name, raw(t, row, col).as_deref(), inv);
        }
        d.fact(
            FactType::Identifier,
            raw(t, row, "contact_id").as_deref(),
            inv,
        );
        d.fact(FactType::Phone, raw(t, row, "phone").as_deref(), inv);
        d.fact(FactType::Text, raw(t, row, "canonized").as_deref(), inv);
        d.fact(
            FactType::Phone,
            raw(t, row, "international").as_deref(),
            inv,
        );
        d.interpretation = format!(
            "ZABCONTACT Z_PK {pk} of {}: a contact Viber took from the phone book, {label}{}.",
            file_name(path),
            number
                .map(|p| format!(", number {p}"))
                .unwrap_or_else(|| ", with no number".to_string()),
        );
        run.record(d)?;
        let Some(p) = t.get(row, "international").filter(|p| !p.is_empty()) else {
            continue;
        };
        let Some(context) = run.handle_context(p) else {
            continue;
        };
        let why = |what: &str| format!("{what} of the Viber contact {label} (Contacts.data).");
        run.observe_person(
            &context,
            &label,
            inv,
            &why,
            &[
                (IdType::Phone, Some(p), "The phone number"),
                (IdType::DisplayName, name, "The name"),
            ],
        )?;
    }
    Ok(())
}
