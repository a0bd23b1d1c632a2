//! `AddressBook.sqlitedb`: one phenomenon per person card (names, organisation, phones and
//! e-mails from `ABMultiValue`, created and modified times) and a `contact:<ROWID>` entity with
//! its display name, phones, e-mails and person GUID (`ABPerson.guid`, which apps such as
//! WhatsApp repeat as their contact's identifier: a `contact_guid` key they share).
//!
//! Cards and phone numbers or e-mails deleted (or changed) since the last checkpoint that the
//! write-ahead log, the file's replaced pages or its free space still hold (`sqlite_wal_history` on `ABPerson`
//! and `ABMultiValue`) are recorded as recovered, and their names, numbers and e-mails observed
//! on the card's `contact:<ROWID>` entity: a person the user knew, even after the card is gone.

use std::collections::BTreeMap;

use masf_agents::RuntimeError;
use masf_graph::{EntityKind, FactType, IdType};
use masf_tools::Invoked;

use super::{Draft, Run, core_data_encoding, raw, summarise};

const PERSON_SQL: &str = "SELECT ROWID AS rowid, First AS first, Middle AS middle, Last AS last, Organization AS organization, \
TRIM(COALESCE(First || ' ', '') || COALESCE(Middle || ' ', '') || COALESCE(Last, '')) AS name, \
CASE WHEN First IS NOT NULL AND Last IS NOT NULL THEN TRIM(Last || ' ' || First || COALESCE(' ' || Middle, '')) END AS name_last_first, \
CreationDate AS created, ModificationDate AS modified, {guid} FROM ABPerson";

const VALUE_SQL: &str = "SELECT mv.UID AS uid, mv.record_id, mv.property, l.value AS label, mv.value \
FROM ABMultiValue mv LEFT JOIN ABMultiValueLabel l ON l.ROWID = mv.label \
WHERE mv.property IN (3, 4) AND mv.value IS NOT NULL ORDER BY mv.record_id, mv.UID";

const SUMMARY_SQL: &str = "SELECT count(*) AS total, min(NULLIF(CreationDate, 0)) AS first_time, max(ModificationDate) AS last_time FROM ABPerson";

/// Triage of every `AddressBook.sqlitedb` of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    run.each("AddressBook.sqlitedb", |find, path| one(run, find, path))
}

fn one(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let required = [
        "First",
        "Middle",
        "Last",
        "Organization",
        "CreationDate",
        "ModificationDate",
    ];
    let Some(schema) = run.schema(path, &["ABPerson", "ABMultiValue"])? else {
        return Ok(());
    };
    if !schema.require(run, "ABPerson", &required)?
        || !schema.require(
            run,
            "ABMultiValue",
            &["UID", "record_id", "property", "label", "value"],
        )?
    {
        return Ok(());
    }
    let Some((vinv, values)) = run.query(path, VALUE_SQL, 100_000)? else {
        return Ok(());
    };
    let mut by_person: BTreeMap<String, Vec<(bool, String)>> = BTreeMap::new();
    for row in &values.rows {
        let (Some(rid), Some(v)) = (values.get(row, "record_id"), raw(&values, row, "value"))
        else {
            continue;
        };
        let is_phone = values.get(row, "property") == Some("3");
        by_person
            .entry(rid.to_string())
            .or_default()
            .push((is_phone, v));
    }
    let guid = super::callhistory::optional(&schema.columns("ABPerson"), "guid", "guid");
    let person_sql = PERSON_SQL.replace("{guid}", &guid);
    let Some(paged) = run.paged(path, &person_sql, "ROWID")? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        let Some(rowid) = raw(t, row, "rowid") else {
            continue;
        };
        let name = raw(t, row, "name");
        let org = raw(t, row, "organization");
        let label = name
            .clone()
            .or_else(|| org.clone())
            .unwrap_or_else(|| format!("card {rowid}"));
        let context = format!("contact:{rowid}");
        let mut d = Draft::new("contacts", format!("Contact card {rowid}: {label}"));
        d.fact(FactType::Path, Some(path), find);
        d.fact(FactType::Name, raw(t, row, "first").as_deref(), inv);
        d.fact(FactType::Name, raw(t, row, "middle").as_deref(), inv);
        d.fact(FactType::Name, raw(t, row, "last").as_deref(), inv);
        d.fact(FactType::Name, org.as_deref(), inv);
        let guid = raw(t, row, "guid");
        d.fact(FactType::Identifier, guid.as_deref(), inv);
        let vals = by_person.get(&rowid).cloned().unwrap_or_default();
        for (is_phone, v) in &vals {
            d.fact(
                if *is_phone {
                    FactType::Phone
                } else {
                    FactType::Email
                },
                Some(v),
                &vinv,
            );
        }
        let created = raw(t, row, "created");
        let modified = raw(t, row, "modified");
        d.time(
            created.as_deref(),
            core_data_encoding(created.as_deref()),
            "Creation Time",
            inv,
        );
        d.time(
            modified.as_deref(),
            core_data_encoding(modified.as_deref()),
            "Contact modified",
            inv,
        );
        let phones = vals.iter().filter(|(p, _)| *p).count();
        d.interpretation = format!(
            "Address-book card ROWID {rowid} of {path} is {label}, with {phones} phone number(s) and {} e-mail address(es); its times are Core Data seconds since the Apple epoch (start of 2001 UTC) (apple_seconds).",
            vals.len() - phones
        );
        run.record(d)?;
        // Both renderings of a card with a first and a last name: iOS shows either, depending
        // on the locale and the user's setting (`CHAN Man Ho` on a Hong Kong phone).
        for n in [name.clone(), raw(t, row, "name_last_first")]
            .into_iter()
            .flatten()
        {
            run.observe(
                &context,
                EntityKind::Person,
                &label,
                IdType::DisplayName,
                &n,
                inv,
                format!("The address book names card ROWID {rowid} {n}."),
            )?;
        }
        if let Some(g) = &guid {
            run.observe(
                &context,
                EntityKind::Person,
                &label,
                IdType::ContactGuid,
                g,
                inv,
                format!("Card ROWID {rowid} ({label}) has the person GUID {g}."),
            )?;
        }
        for (is_phone, v) in &vals {
            let id_type = if *is_phone {
                IdType::Phone
            } else {
                IdType::Email
            };
            if run.observe(
                &context,
                EntityKind::Person,
                &label,
                id_type,
                v,
                &vinv,
                format!("Address-book card ROWID {rowid} ({label}) lists {v}."),
            )? && let Some(norm) = run.normalised(id_type, v)
            {
                run.contact_ids
                    .borrow_mut()
                    .entry(norm)
                    .or_insert_with(|| context.clone());
            }
        }
    }
    if paged.truncated {
        summarise(
            run,
            "contacts",
            path,
            find,
            "contact cards",
            SUMMARY_SQL,
            core_data_encoding,
            "First contact created",
            "Last contact modified",
        )?;
    }
    recovered(run, find, path)
}

/// Cards and values `ABPerson`/`ABMultiValue` no longer show that earlier page versions hold.
fn recovered(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let at = serde_json::json!({"path": path});
    let persons = crate::recovered::wal_rows(run.ctx, path, at.clone(), "ABPerson", &[])?;
    let values = crate::recovered::wal_rows(run.ctx, path, at, "ABMultiValue", &[])?;
    // phone numbers (property 3) and e-mails (4): (row, card, value, is_phone), read once
    let parsed: Vec<(&[Option<String>], String, String, bool)> = values
        .as_ref()
        .map(|(_, v)| {
            v.rows
                .iter()
                .filter_map(|row| {
                    let is_phone = match v.get(row, "property") {
                        Some("3") => true,
                        Some("4") => false,
                        _ => return None,
                    };
                    Some((
                        row.as_slice(),
                        v.get(row, "record_id")?.to_string(),
                        raw(v, row, "value")?,
                        is_phone,
                    ))
                })
                .collect()
        })
        .unwrap_or_default();
    let mut by_card: BTreeMap<&str, Vec<(bool, &str)>> = BTreeMap::new();
    for (_, card, value, is_phone) in &parsed {
        by_card
            .entry(card.as_str())
            .or_default()
            .push((*is_phone, value.as_str()));
    }
    let mut cards_seen = Vec::new();
    if let Some((inv, t)) = &persons {
        for row in &t.rows {
            // a card carved from free space may have lost its ROWID: recorded, not observed
            let card = raw(t, row, "ROWID");
            if let Some(c) = &card {
                cards_seen.push(c.clone());
            }
            let rowid = crate::recovered::key(t, row, "ROWID");
            let name: Vec<String> = ["First", "Middle", "Last"]
                .iter()
                .filter_map(|c| t.get(row, c))
                .map(str::to_string)
                .collect();
            let label = if name.is_empty() {
                t.get(row, "Organization")
                    .map(str::to_string)
                    .unwrap_or_else(|| format!("card {rowid}"))
            } else {
                name.join(" ")
            };
            let mut d = Draft::new(
                "contacts",
                format!(
                    "{} contact card {rowid}: {label} (recovered)",
                    crate::recovered::title_word(t.get(row, "status"))
                ),
            );
            d.fact(FactType::Path, Some(path), find);
            d.fact(FactType::Text, raw(t, row, "status").as_deref(), inv);
            for c in ["First", "Middle", "Last", "Organization"] {
                d.fact(FactType::Name, raw(t, row, c).as_deref(), inv);
            }
            d.fact(FactType::Identifier, raw(t, row, "guid").as_deref(), inv);
            let vals = card
                .as_ref()
                .and_then(|c| by_card.get(c.as_str()))
                .cloned()
                .unwrap_or_default();
            if let Some((vinv, _)) = &values {
                for (is_phone, v) in &vals {
                    let ft = if *is_phone {
                        FactType::Phone
                    } else {
                        FactType::Email
                    };
                    d.fact(ft, Some(v), vinv);
                }
            }
            for (c, mark) in [
                ("CreationDate", "Creation Time"),
                ("ModificationDate", "Contact modified"),
            ] {
                let v = raw(t, row, c);
                d.time(v.as_deref(), core_data_encoding(v.as_deref()), mark, inv);
            }
            d.interpretation = format!(
                "Address-book card ROWID {rowid} of {path}, {label}{}: {}. Times are Core Data seconds since the Apple epoch (apple_seconds).",
                if vals.is_empty() {
                    String::new()
                } else {
                    format!(
                        ", with {} recovered phone number(s) and e-mail(s) of the card",
                        vals.len()
                    )
                },
                crate::recovered::provenance(t, row)
            );
            run.record(d)?;
            if card.is_none() {
                continue;
            }
            let context = format!("contact:{rowid}");
            if !name.is_empty() {
                run.observe(
                    &context,
                    EntityKind::Person,
                    &label,
                    IdType::DisplayName,
                    &raw(t, row, "First")
                        .into_iter()
                        .chain(raw(t, row, "Middle"))
                        .chain(raw(t, row, "Last"))
                        .collect::<Vec<_>>()
                        .join(" "),
                    inv,
                    format!(
                        "A recovered version of address-book card ROWID {rowid} names it {label}."
                    ),
                )?;
            }
            if let Some((vinv, _)) = &values {
                for (is_phone, v) in &vals {
                    let id_type = if *is_phone {
                        IdType::Phone
                    } else {
                        IdType::Email
                    };
                    run.observe(
                        &context,
                        EntityKind::Person,
                        &label,
                        id_type,
                        v,
                        vinv,
                        format!(
                            "A recovered value of address-book card ROWID {rowid} ({label}) is {v}."
                        ),
                    )?;
                }
            }
        }
    }
    // values of cards still in the book: a number or e-mail removed from a live card
    if let Some((vinv, v)) = &values {
        for (row, card, value, is_phone) in &parsed {
            let (row, is_phone) = (*row, *is_phone);
            if cards_seen.iter().any(|c| c == card) {
                continue;
            }
            let what = if is_phone { "phone number" } else { "e-mail" };
            let mut d = Draft::new(
                "contacts",
                format!(
                    "{} {what} {value} of contact card {card} (recovered)",
                    crate::recovered::title_word(v.get(row, "status"))
                ),
            );
            d.fact(FactType::Path, Some(path), find);
            d.fact(FactType::Text, raw(v, row, "status").as_deref(), vinv);
            d.fact(
                if is_phone {
                    FactType::Phone
                } else {
                    FactType::Email
                },
                Some(value),
                vinv,
            );
            d.interpretation = format!(
                "ABMultiValue UID {} of {path}: the {what} {value} of address-book card ROWID {card}: {}.",
                v.get(row, "UID").unwrap_or("?"),
                crate::recovered::provenance(v, row)
            );
            run.record(d)?;
            let id_type = if is_phone {
                IdType::Phone
            } else {
                IdType::Email
            };
            run.observe(
                &format!("contact:{card}"),
                EntityKind::Person,
                &format!("card {card}"),
                id_type,
                value,
                vinv,
                format!("A recovered value of address-book card ROWID {card} is {value}."),
            )?;
        }
    }
    Ok(())
}
