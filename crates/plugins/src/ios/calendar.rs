//! Calendar (`Library/Calendar/Calendar.sqlitedb`): one phenomenon per calendar with the fields
//! of iLEAPP's `calendarList` (name, colour, type, account — the `Store` —, the account's own
//! e-mail, the owner's name and e-mail, sharing status, the sharing participants from `Sharee`
//! with their access level, notes), and one per `CalendarItem` with
//! those of `calendarEvents` and `calendarBirthdays` (start, end, time zone, all-day, calendar
//! and account, title, place name, address and coordinates, organiser, invitees with their
//! answers, conference URL, attachments (file name and size, from `AttachmentFile` through
//! `Attachment.file_id` or from `Attachment` itself, whichever the schema has), URL, notes,
//! status, creation and modification times, unique id).
//!
//! Times are Core Data seconds since 2001; a `start_tz` of `_float` is a floating time (no
//! zone), as all-day events are. Schema drift: the columns iOS added later
//! (`self_identity_email`, `owner_identity_email`, `notes`, `conference_url_detected` or
//! `conference_url`, `creation_date`) are read when present; an item table without `ROWID`,
//! `summary` or `start_date` is noted as unparsed, naming them.
//!
//! Identities: the e-mails the calendar marks as the user's own (`self_identity_email`, a
//! participant with `is_self` 1, an e-mail-shaped account name) are the owner's; organisers,
//! invitees, sharing participants and the owner of a calendar shared with the user are
//! counterparties
//! (`handle:<e-mail>` unless a card holds it).

use std::collections::BTreeMap;

use masf_agents::RuntimeError;
use masf_graph::{FactType, IdType};
use masf_tools::Invoked;

use super::photos::{fields, times};
use super::{Draft, Run, core_data_encoding, raw, summarise};
use crate::calls::column_or_null;
use crate::outputs::Table;

/// Triage of every `Calendar.sqlitedb` of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    run.each("Calendar.sqlitedb", |find, path| one(run, find, path))
}

fn one(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let Some(schema) = run.schema(
        path,
        &[
            "CalendarItem",
            "Calendar",
            "Store",
            "Location",
            "Participant",
            "Identity",
            "Attachment",
            "AttachmentFile",
            "Sharee",
        ],
    )?
    else {
        return Ok(());
    };
    if !schema.require(run, "CalendarItem", &["ROWID", "summary", "start_date"])? {
        return Ok(());
    }
    let cal = schema.columns("Calendar");
    let store = schema.columns("Store");
    let loc = schema.columns("Location");
    let part = schema.columns("Participant");
    let ident = schema.columns("Identity");
    let has_cal = cal.contains("ROWID");
    let has_store = has_cal && cal.contains("store_id") && store.contains("ROWID");
    let cc = |c: &str, a: &str| {
        if has_cal {
            column_or_null(&cal, "c.", c, a)
        } else {
            format!("NULL AS {a}")
        }
    };
    let sc = |c: &str, a: &str| {
        if has_store {
            column_or_null(&store, "s.", c, a)
        } else {
            format!("NULL AS {a}")
        }
    };
    let calendar_joins = if has_store {
        " LEFT JOIN Store s ON s.ROWID = c.store_id"
    } else {
        ""
    };

    // The calendars (iLEAPP's calendarList), with the people each is shared with.
    if has_cal {
        let sharees = sharees(run, path, &schema)?;
        let (owner_join, owner_name) = if cal.contains("owner_identity_id")
            && ident.contains("ROWID")
            && ident.contains("display_name")
        {
            (
                " LEFT JOIN Identity oi ON oi.ROWID = c.owner_identity_id",
                "oi.display_name AS owner_name",
            )
        } else {
            ("", "NULL AS owner_name")
        };
        let sql = format!(
            "SELECT c.ROWID AS rowid, {owner_name}, {}, {}, {}, {}, {}, {}, {}, {}, {} FROM Calendar c{calendar_joins}{owner_join}",
            cc("title", "calendar"),
            cc("color", "color"),
            cc("type", "type"),
            sc("name", "account"),
            cc("self_identity_email", "self_email"),
            cc("owner_identity_email", "owner_email"),
            cc("shared_owner_address", "shared_owner"),
            cc("sharing_status", "sharing"),
            cc("notes", "notes"),
        );
        if let Some(paged) = run.paged(path, &sql, "c.ROWID")? {
            for (inv, t, row) in paged.rows() {
                let rowid = raw(t, row, "rowid").unwrap_or_default();
                let name = raw(t, row, "calendar");
                let shared = sharees.get(&rowid).map(Vec::as_slice).unwrap_or_default();
                calendar(
                    run,
                    find,
                    path,
                    (inv, t, row),
                    &rowid,
                    name.as_deref(),
                    shared,
                )?;
            }
        }
    }

    let attachments = attachments(run, path, &schema)?;

    // Invitees (entity_type 7) by the item they belong to.
    type Invitee = (Invoked, Option<String>, String);
    let mut invitees: BTreeMap<String, Vec<Invitee>> = BTreeMap::new();
    if part.contains("owner_id") && part.contains("entity_type") {
        let email = participant_email(&part, &ident, "p", "i");
        let name = if ident.contains("display_name") && part.contains("identity_id") {
            "i.display_name"
        } else {
            "NULL"
        };
        let join = if ident.contains("ROWID") && part.contains("identity_id") {
            " LEFT JOIN Identity i ON i.ROWID = p.identity_id"
        } else {
            ""
        };
        let sql = format!(
            "SELECT p.ROWID AS rowid, p.owner_id AS item, {email} AS email, {name} AS name, {}, {}, {} FROM Participant p{join} WHERE p.entity_type = 7",
            column_or_null(&part, "p.", "status", "status"),
            column_or_null(&part, "p.", "role", "role"),
            column_or_null(&part, "p.", "is_self", "is_self"),
        );
        if let Some(paged) = run.paged(path, &sql, "p.ROWID")? {
            for (inv, t, row) in paged.rows() {
                let item = raw(t, row, "item").unwrap_or_default();
                let email = raw(t, row, "email");
                let status = match raw(t, row, "status").as_deref() {
                    Some("1") => "accepted",
                    Some("2") => "declined",
                    Some("3") => "maybe",
                    _ => "no response",
                };
                let is_self = raw(t, row, "is_self").as_deref() == Some("1");
                let who = match (raw(t, row, "name"), &email) {
                    (Some(n), Some(e)) => format!("{n} <{e}>"),
                    (None, Some(e)) => e.clone(),
                    (Some(n), None) => n,
                    (None, None) => "(unnamed)".to_string(),
                };
                invitees.entry(item.clone()).or_default().push((
                    inv.clone(),
                    email.clone(),
                    format!(
                        "{who} ({status}{})",
                        if is_self { ", the user" } else { "" }
                    ),
                ));
                if let Some(e) = &email {
                    person(run, inv, e, is_self, &format!("calendar item {item}"))?;
                }
            }
        }
    }

    // The items.
    let ic = |c: &str, a: &str| column_or_null(&schema.columns("CalendarItem"), "e.", c, a);
    let items = schema.columns("CalendarItem");
    let conference = if items.contains("conference_url_detected") {
        "e.conference_url_detected AS conference"
    } else if items.contains("conference_url") {
        "e.conference_url AS conference"
    } else {
        "NULL AS conference"
    };
    let has_loc = loc.contains("ROWID") && items.contains("location_id");
    let lc = |c: &str, a: &str| {
        if has_loc {
            column_or_null(&loc, "l.", c, a)
        } else {
            format!("NULL AS {a}")
        }
    };
    let has_org = part.contains("ROWID") && items.contains("organizer_id");
    let (org_email, org_name, org_self) = if has_org {
        (
            participant_email(&part, &ident, "op", "oi"),
            if ident.contains("display_name") && part.contains("identity_id") {
                "oi.display_name"
            } else {
                "NULL"
            },
            if part.contains("is_self") {
                "op.is_self"
            } else {
                "NULL"
            },
        )
    } else {
        ("NULL".to_string(), "NULL", "NULL")
    };
    let mut joins = String::new();
    if has_cal && items.contains("calendar_id") {
        joins.push_str(" LEFT JOIN Calendar c ON c.ROWID = e.calendar_id");
        if has_store {
            joins.push_str(" LEFT JOIN Store s ON s.ROWID = c.store_id");
        }
    }
    if has_loc {
        joins.push_str(" LEFT JOIN Location l ON l.ROWID = e.location_id");
    }
    if has_org {
        joins.push_str(" LEFT JOIN Participant op ON op.ROWID = e.organizer_id");
        if ident.contains("ROWID") && part.contains("identity_id") {
            joins.push_str(" LEFT JOIN Identity oi ON oi.ROWID = op.identity_id");
        }
    }
    let joined_cal = has_cal && items.contains("calendar_id");
    let sql = format!(
        "SELECT e.ROWID AS rowid, e.summary AS title, e.start_date AS start, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {conference}, {}, {}, {}, {}, {}, {}, {org_email} AS organiser_email, {org_name} AS organiser_name, {org_self} AS organiser_is_self FROM CalendarItem e{joins}",
        ic("end_date", "end"),
        ic("start_tz", "tz"),
        ic("all_day", "all_day"),
        ic("description", "notes"),
        ic("creation_date", "created"),
        ic("last_modified", "modified"),
        ic("url", "url"),
        ic("unique_identifier", "uid"),
        ic("status", "status"),
        ic("has_attendees", "has_attendees"),
        ic("calendar_scale", "scale"),
        if joined_cal {
            column_or_null(&cal, "c.", "title", "calendar")
        } else {
            "NULL AS calendar".into()
        },
        if joined_cal && has_store {
            column_or_null(&store, "s.", "name", "account")
        } else {
            "NULL AS account".into()
        },
        lc("title", "place"),
        lc("address", "place_address"),
        lc("latitude", "latitude"),
        lc("longitude", "longitude"),
    );
    let Some(paged) = run.paged(path, &sql, "e.ROWID")? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        let rowid = raw(t, row, "rowid").unwrap_or_default();
        let title = raw(t, row, "title");
        let birthday = raw(t, row, "scale").as_deref() == Some("gregorian");
        let mut d = Draft::new(
            "calendar",
            format!(
                "Calendar {} {rowid}: {}",
                if birthday { "birthday" } else { "event" },
                title.as_deref().unwrap_or("(untitled)")
            ),
        );
        d.fact(FactType::Path, Some(path), find);
        let mut said = fields(
            &mut d,
            t,
            row,
            inv,
            &[
                ("title", FactType::Text, "title"),
                ("calendar", FactType::Name, "calendar"),
                ("account", FactType::Account, "account"),
                ("tz", FactType::Text, "time zone"),
                ("place", FactType::Name, "place"),
                ("place_address", FactType::Text, "address"),
                ("latitude", FactType::Text, "latitude"),
                ("longitude", FactType::Text, "longitude"),
                ("organiser_name", FactType::Name, "organiser"),
                ("organiser_email", FactType::Email, "organiser e-mail"),
                ("conference", FactType::Url, "conference URL"),
                ("url", FactType::Url, "URL"),
                ("notes", FactType::Text, "notes"),
                ("uid", FactType::Identifier, "unique identifier"),
                ("status", FactType::Count, "status"),
            ],
        );
        let all_day = raw(t, row, "all_day").as_deref() == Some("1");
        times(
            &mut d,
            t,
            row,
            inv,
            &[
                ("start", "Calendar event starts"),
                ("end", "Calendar event ends"),
                ("created", "Calendar event created"),
                ("modified", "Calendar event modified"),
            ],
        );
        let list = invitees.get(&rowid);
        if let Some(list) = list {
            for (pinv, email, _) in list {
                d.fact(FactType::Email, email.as_deref(), pinv);
            }
            said.push(format!(
                "invitees {}",
                list.iter()
                    .map(|(_, _, w)| w.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        if let Some(list) = attachments.get(&rowid) {
            for (ainv, name, _) in list {
                d.fact(FactType::Name, name.as_deref(), ainv);
            }
            said.push(format!(
                "attachments {}",
                list.iter()
                    .map(|(_, _, w)| w.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        d.interpretation = format!(
            "CalendarItem ROWID {rowid} of {path}: a{} {}; {}. Start and end are Core Data seconds since 2001{}.",
            if all_day { "n all-day" } else { "" },
            if birthday { "birthday" } else { "event" },
            said.join("; "),
            if raw(t, row, "tz").as_deref() == Some("_float") {
                " in floating time (no time zone, _float)"
            } else {
                ""
            },
        );
        run.record(d)?;
        if let Some(e) = raw(t, row, "organiser_email") {
            let is_self = raw(t, row, "organiser_is_self").as_deref() == Some("1");
            person(run, inv, &e, is_self, &format!("calendar item {rowid}"))?;
        }
    }
    if paged.truncated {
        summarise(
            run,
            "calendar",
            path,
            find,
            "calendar items",
            "SELECT count(*) AS total, min(start_date) AS first_time, max(start_date) AS last_time FROM CalendarItem",
            core_data_encoding,
            "First calendar item starts",
            "Last calendar item starts",
        )?;
    }
    Ok(())
}

/// Rows listed under the ROWID they belong to (an item's attachments, a calendar's sharees):
/// `(call, the value recorded as a fact — file name or e-mail —, its description)`.
type ByOwner = BTreeMap<String, Vec<(Invoked, Option<String>, String)>>;

/// The attachments of the items (iLEAPP's `Attachments`): file name and size from
/// `AttachmentFile` through `Attachment.file_id` (later iOS) or from `Attachment` itself.
fn attachments(
    run: &Run<'_, '_>,
    path: &str,
    schema: &super::Schema,
) -> Result<ByOwner, RuntimeError> {
    let a = schema.columns("Attachment");
    let f = schema.columns("AttachmentFile");
    let mut out = ByOwner::new();
    if !a.contains("owner_id") {
        return Ok(out);
    }
    let sql = if a.contains("file_id") && f.contains("ROWID") && f.contains("filename") {
        format!(
            "SELECT a.ROWID AS rowid, a.owner_id AS item, f.filename AS name, {} FROM Attachment a LEFT JOIN AttachmentFile f ON f.ROWID = a.file_id",
            column_or_null(&f, "f.", "file_size", "size")
        )
    } else if a.contains("filename") {
        format!(
            "SELECT a.ROWID AS rowid, a.owner_id AS item, a.filename AS name, {} FROM Attachment a",
            column_or_null(&a, "a.", "file_size", "size")
        )
    } else {
        return Ok(out);
    };
    if let Some(paged) = run.paged(path, &sql, "a.ROWID")? {
        for (inv, t, row) in paged.rows() {
            let name = raw(t, row, "name");
            let desc = format!(
                "{} ({} bytes)",
                name.as_deref().unwrap_or("(unnamed)"),
                raw(t, row, "size").as_deref().unwrap_or("?")
            );
            out.entry(raw(t, row, "item").unwrap_or_default())
                .or_default()
                .push((inv.clone(), name, desc));
        }
    }
    Ok(out)
}

/// The e-mail of a participant: its `email`, else its identity's `mailto:` address.
fn participant_email(
    part: &std::collections::BTreeSet<String>,
    ident: &std::collections::BTreeSet<String>,
    p: &str,
    i: &str,
) -> String {
    let from_identity = ident.contains("address") && part.contains("identity_id");
    match (part.contains("email"), from_identity) {
        (true, true) => format!("COALESCE({p}.email, replace({i}.address, 'mailto:', ''))"),
        (true, false) => format!("{p}.email"),
        (false, true) => format!("replace({i}.address, 'mailto:', '')"),
        (false, false) => "NULL".to_string(),
    }
}

/// An e-mail of the calendar: the owner's when the calendar marks it as the user's own, else a
/// counterparty's.
fn person(
    run: &Run<'_, '_>,
    inv: &Invoked,
    email: &str,
    is_self: bool,
    what: &str,
) -> Result<(), RuntimeError> {
    if is_self {
        run.observe_person(
            "owner",
            "device owner",
            inv,
            &|w| {
                format!(
                    "{w}: the calendar marks this participant of {what} as the user (is_self 1)."
                )
            },
            &[(IdType::Email, Some(email), "the user's calendar e-mail")],
        )
    } else {
        run.observe_handle(email, inv, what).map(|_| ())
    }
}

/// The people each calendar is shared with (`Sharee`, iLEAPP's "Sharing Participants"), by the
/// calendar's ROWID: `(call, e-mail, "e-mail (name) -> access")`.
fn sharees(run: &Run<'_, '_>, path: &str, schema: &super::Schema) -> Result<ByOwner, RuntimeError> {
    let sh = schema.columns("Sharee");
    let ident = schema.columns("Identity");
    let mut out = ByOwner::new();
    if !(sh.contains("owner_id")
        && sh.contains("identity_id")
        && ident.contains("ROWID")
        && ident.contains("address"))
    {
        return Ok(out);
    }
    let sql = format!(
        "SELECT sh.ROWID AS rowid, sh.owner_id AS calendar, replace(i.address, 'mailto:', '') AS email, {}, {} FROM Sharee sh LEFT JOIN Identity i ON i.ROWID = sh.identity_id",
        column_or_null(&ident, "i.", "display_name", "name"),
        column_or_null(&sh, "sh.", "access_level", "access"),
    );
    if let Some(paged) = run.paged(path, &sql, "sh.ROWID")? {
        for (inv, t, row) in paged.rows() {
            let email = raw(t, row, "email");
            let access = match raw(t, row, "access").as_deref() {
                Some("1") => "view only".to_string(),
                Some("2") => "view & edit".to_string(),
                Some(v) => format!("access level {v}"),
                None => "access unknown".to_string(),
            };
            let desc = format!(
                "{}{} -> {access}",
                email.as_deref().unwrap_or("(no address)"),
                raw(t, row, "name")
                    .map(|n| format!(" ({n})"))
                    .unwrap_or_default()
            );
            out.entry(raw(t, row, "calendar").unwrap_or_default())
                .or_default()
                .push((inv.clone(), email, desc));
        }
    }
    Ok(out)
}

/// One calendar (iLEAPP's `calendarList` row) and the identities it gives.
fn calendar(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    (inv, t, row): (&Invoked, &Table, &[Option<String>]),
    rowid: &str,
    name: Option<&str>,
    shared: &[(Invoked, Option<String>, String)],
) -> Result<(), RuntimeError> {
    let mut d = Draft::new(
        "calendar",
        format!("Calendar {rowid}: {}", name.unwrap_or("(unnamed)")),
    );
    d.fact(FactType::Path, Some(path), find);
    let mut said = fields(
        &mut d,
        t,
        row,
        inv,
        &[
            ("calendar", FactType::Name, "name"),
            ("owner_name", FactType::Name, "owner name"),
            ("color", FactType::Text, "colour"),
            ("type", FactType::Text, "type"),
            ("account", FactType::Account, "account"),
            ("self_email", FactType::Email, "the user's e-mail"),
            ("owner_email", FactType::Email, "owner e-mail"),
            ("shared_owner", FactType::Text, "shared owner address"),
            ("notes", FactType::Text, "notes"),
        ],
    );
    for (sinv, email, _) in shared {
        d.fact(FactType::Email, email.as_deref(), sinv);
    }
    if !shared.is_empty() {
        said.push(format!(
            "sharing participants {}",
            shared
                .iter()
                .map(|(_, _, w)| w.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    let sharing = match raw(t, row, "sharing").as_deref() {
        Some("1") => "shared by the user (sharing_status 1)",
        Some("2") => "shared with the user (sharing_status 2)",
        _ => "not shared",
    };
    d.interpretation = format!(
        "Calendar ROWID {rowid} of {path}: {}; {sharing}.",
        if said.is_empty() {
            "no field".to_string()
        } else {
            said.join("; ")
        }
    );
    run.record(d)?;
    let self_email = raw(t, row, "self_email");
    if let Some(e) = &self_email {
        person(run, inv, e, true, &format!("calendar {rowid}"))?;
    }
    if let Some(a) = raw(t, row, "account").filter(|a| a.contains('@')) {
        run.observe_person(
            "owner",
            "device owner",
            inv,
            &|w| format!("{w}: the account (Store) calendar {rowid} is kept in."),
            &[(IdType::Email, Some(&a), "the calendar account")],
        )?;
    }
    if let Some(o) = raw(t, row, "owner_email").filter(|o| Some(o) != self_email.as_ref()) {
        run.observe_handle(&o, inv, &format!("calendar {rowid}, shared with the user"))?;
    }
    for (sinv, email, _) in shared {
        if let Some(e) = email.as_ref().filter(|e| Some(*e) != self_email.as_ref()) {
            run.observe_handle(e, sinv, &format!("calendar {rowid}, shared with them"))?;
        }
    }
    Ok(())
}
