//! `AddressBook.sqlitedb`: one phenomenon per person card (names, organisation, phones and
//! e-mails from `ABMultiValue`, created and modified times) and a `contact:<ROWID>` entity with
//! its display name, phones, e-mails and person GUID (`ABPerson.guid`, which apps such as
//! WhatsApp repeat as their contact's identifier: a `contact_guid` key they share).

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
    Ok(())
}
