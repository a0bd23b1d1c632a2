//! The SQLite artefacts: contacts, calls, SMS, accounts, SIMs and WhatsApp messages.

use std::collections::BTreeMap;

use masf_agents::{AgentCtx, PhenomenonDraft, RuntimeError};
use masf_graph::{EntityKind, FactClaim, FactType, IdType, TimeEncoding, TimeMark};
use masf_tools::Invoked;

use super::Located;
use crate::calls::{ROW_CAP, note_pages_cap};
use crate::drafts::fact;
use crate::identity::{
    Party, artefact_name, message_claims, normalized, observe, observe_cued,
    observe_written_wallets, pages_on, query_on, raw_cell, record, tables_on,
};
use crate::outputs::Table;

/// The contacts read so far: each contact's phones (canonical) by raw contact id, so message and
/// call counterparties are attributed to the contact that holds their number.
#[derive(Debug, Default)]
pub struct Book {
    phones: BTreeMap<String, (String, String)>,
}

impl Book {
    /// The context and label of the contact holding `number`, if any.
    fn contact_of(&self, ctx: &AgentCtx<'_>, number: &str) -> Option<&(String, String)> {
        self.phones.get(&normalized(ctx, IdType::Phone, number)?)
    }
}

/// The entity a message or call counterparty is observed as: the contact holding the number,
/// else `handle:<number>`.
pub(super) fn counterparty(ctx: &AgentCtx<'_>, book: &Book, number: &str) -> (String, String) {
    book.contact_of(ctx, number).cloned().unwrap_or_else(|| {
        let key = normalized(ctx, IdType::Phone, number).unwrap_or_else(|| number.to_string());
        (format!("handle:{key}"), number.to_string())
    })
}

/// Observes a counterparty's number (as a phone when it is one, else not at all: alphanumeric
/// senders are no person's identifier).
pub(super) fn observe_party(
    ctx: &AgentCtx<'_>,
    book: &Book,
    number: &str,
    inv: &Invoked,
    what: &str,
) -> Result<(), RuntimeError> {
    if normalized(ctx, IdType::Phone, number).is_none() {
        return Ok(());
    }
    let (context, label) = counterparty(ctx, book, number);
    observe(
        ctx,
        &context,
        EntityKind::Person,
        &label,
        IdType::Phone,
        number,
        inv,
        format!("{number} is the other party of {what}."),
    )?;
    Ok(())
}

/// Fact type of a counterparty value: a phone when it reads as one.
pub(super) fn party_fact(ctx: &AgentCtx<'_>, value: &str, inv: &Invoked) -> FactClaim {
    let t = if normalized(ctx, IdType::Phone, value).is_some() {
        FactType::Phone
    } else {
        FactType::Identifier
    };
    fact(t, value, inv)
}

/// Notes `l` unparsed because the tables it needs are missing; returns whether all are there.
/// Adds `value` (when present) as a timestamp fact of `facts` marked in `times` as the time of
/// `description` in `encoding`.
fn timed(
    facts: &mut Vec<FactClaim>,
    times: &mut Vec<TimeMark>,
    value: Option<&str>,
    encoding: TimeEncoding,
    description: &str,
    inv: &Invoked,
) {
    if let Some(v) = value {
        times.push(TimeMark {
            fact: facts.len(),
            encoding,
            description: description.to_string(),
        });
        facts.push(fact(FactType::Timestamp, v, inv));
    }
}

/// The tables of the database `l` when it has every one of `needed` (`sqlite_tables`); `None`
/// when it cannot be read or lacks one (noted unparsed, naming the missing tables).
pub(crate) fn tables_with(
    ctx: &AgentCtx<'_>,
    l: &Located,
    needed: &[&str],
) -> Result<Option<Vec<String>>, RuntimeError> {
    let Some((inv, tables)) = tables_on(ctx, &l.tree, &l.path)? else {
        return Ok(None);
    };
    Ok(require(ctx, l, &inv, &tables, needed)?.then_some(tables))
}

fn require(
    ctx: &AgentCtx<'_>,
    l: &Located,
    inv: &Invoked,
    tables: &[String],
    needed: &[&str],
) -> Result<bool, RuntimeError> {
    let have = |t: &str| tables.iter().any(|x| x == t);
    super::require_all(ctx, l, Some(inv), needed, have, |missing| {
        let listed = if tables.is_empty() {
            "none".to_string()
        } else {
            tables.join(", ")
        };
        format!("unexpected schema: no table {missing} (tables: {listed})")
    })
}

/// Notes `l` unparsed because a query result lacks columns it needs; returns whether all are
/// there.
fn require_columns(
    ctx: &AgentCtx<'_>,
    l: &Located,
    inv: &Invoked,
    table: &Table,
    what: &str,
    needed: &[&str],
) -> Result<bool, RuntimeError> {
    super::require_all(
        ctx,
        l,
        Some(inv),
        needed,
        |c| table.col(c).is_some(),
        |missing| format!("unexpected schema: {what} has no column {missing}"),
    )
}

/// When a table has more rows than [`ROW_CAP`]: one summary phenomenon for the rest (count,
/// first and last time of `time_col`).
fn summarise_rest(
    ctx: &AgentCtx<'_>,
    l: &Located,
    table: &str,
    time_col: &str,
    category: &str,
    what: &str,
) -> Result<(), RuntimeError> {
    let sql = format!(
        "SELECT COUNT(*) AS rows, MIN({time_col}) AS first, MAX({time_col}) AS last FROM (SELECT {time_col} FROM {table} ORDER BY _id LIMIT -1 OFFSET {ROW_CAP})"
    );
    let Some((inv, t)) = query_on(ctx, &l.tree, &l.path, &sql, 1)? else {
        return Ok(());
    };
    let Some(row) = t.rows.first() else {
        return Ok(());
    };
    let (Some(n), first, last) = (t.get(row, "rows"), t.get(row, "first"), t.get(row, "last"))
    else {
        return Ok(());
    };
    let mut facts = vec![
        fact(FactType::Path, &l.path, &l.found),
        fact(FactType::Count, n, &inv),
    ];
    let mut times = Vec::new();
    for (v, d) in [(first, "First of the rest"), (last, "Last of the rest")] {
        if let Some(v) = v {
            times.push(TimeMark {
                fact: facts.len(),
                encoding: TimeEncoding::UnixMillis,
                description: format!("{what}: {d}"),
            });
            facts.push(fact(FactType::Timestamp, v, &inv));
        }
    }
    record(
        ctx,
        PhenomenonDraft {
            category: category.into(),
            title: format!("{n} more {what} rows summarised"),
            facts,
            interpretation: format!(
                "{} holds {n} {what} rows beyond the first {ROW_CAP}, which are recorded one by one; these are summarised by count and first/last time only.",
                artefact_name(&l.tree, &l.path)
            ),
            times,
        },
    )?;
    Ok(())
}

const MIME_NAME: &str = "vnd.android.cursor.item/name";
const MIME_PHONE: &str = "vnd.android.cursor.item/phone_v2";
const MIME_EMAIL: &str = "vnd.android.cursor.item/email_v2";

/// `contacts2.db`: one phenomenon per raw contact (name, phones, e-mails from `data` joined with
/// `mimetypes`), observed as `contact:<raw_contact_id>`; Google accounts of its `accounts` table
/// observed as the owner's.
pub fn contacts(ctx: &AgentCtx<'_>, l: &Located, book: &mut Book) -> Result<(), RuntimeError> {
    let Some((tinv, tables)) = tables_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    if !require(ctx, l, &tinv, &tables, &["data", "mimetypes"])? {
        return Ok(());
    }
    let name = artefact_name(&l.tree, &l.path);
    // raw_contacts gives the display name; a copy without it still has the names in data.
    let has_raw = tables.iter().any(|t| t == "raw_contacts");
    let (display, join) = if has_raw {
        (
            "rc.display_name",
            "LEFT JOIN raw_contacts rc ON rc._id = d.raw_contact_id",
        )
    } else {
        ("NULL AS display_name", "")
    };
    // contacts.contact_last_updated_timestamp (Android 4.3 on): when the contact last changed.
    let (modified, join_contacts) = if has_raw
        && tables.iter().any(|t| t == "contacts")
        && tinv.output.text.contains("contact_last_updated_timestamp")
    {
        (
            "c.contact_last_updated_timestamp AS modified",
            "LEFT JOIN contacts c ON c._id = rc.contact_id",
        )
    } else {
        ("NULL AS modified", "")
    };
    let sql = format!(
        "SELECT d._id AS data_id, d.raw_contact_id, m.mimetype, d.data1, d.data4, {display}, {modified} FROM data d JOIN mimetypes m ON m._id = d.mimetype_id {join} {join_contacts} WHERE m.mimetype IN ('{MIME_NAME}', '{MIME_PHONE}', '{MIME_EMAIL}') ORDER BY d.raw_contact_id, d._id"
    );
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, &name, &pages, "contact data rows")?;
    // Rows grouped by raw contact, in id order; a contact's rows may sit on two pages, and
    // each value cites the page that holds it.
    for (id, rows) in pages.runs_by("raw_contact_id") {
        let context = format!("contact:{id}");
        let display = rows
            .iter()
            .find_map(|&(i, t, r)| t.get(r, "display_name").map(|v| (i, v)))
            .or_else(|| {
                rows.iter()
                    .find(|(_, t, r)| t.get(r, "mimetype") == Some(MIME_NAME))
                    .and_then(|&(i, t, r)| t.get(r, "data1").map(|v| (i, v)))
            });
        let mut facts = vec![fact(FactType::Path, &l.path, &l.found)];
        if let Some((i, d)) = display.filter(|(_, d)| !d.is_empty()) {
            facts.push(fact(FactType::Name, raw_cell(d), i));
        }
        let display = display.filter(|(_, d)| !d.is_empty());
        let (mut phones, mut emails) = (Vec::new(), Vec::new());
        for &(inv, t, r) in &rows {
            let Some(v) = t.get(r, "data1") else { continue };
            match t.get(r, "mimetype") {
                Some(MIME_PHONE) => {
                    facts.push(party_fact(ctx, v, inv));
                    phones.push((inv, v.to_string()));
                    if let Some(n4) = t.get(r, "data4").filter(|n| *n != v) {
                        phones.push((inv, n4.to_string()));
                    }
                }
                Some(MIME_EMAIL) => {
                    facts.push(fact(FactType::Email, raw_cell(v), inv));
                    emails.push((inv, v.to_string()));
                }
                _ => {}
            }
        }
        if facts.len() == 1 {
            continue;
        }
        let mut times = Vec::new();
        if let Some((i, m)) = rows
            .iter()
            .find_map(|&(i, t, r)| t.get(r, "modified").map(|m| (i, m)))
            .filter(|(_, m)| *m != "0")
        {
            times.push(TimeMark {
                fact: facts.len(),
                encoding: TimeEncoding::UnixMillis,
                description: "Contact modified".to_string(),
            });
            facts.push(fact(FactType::Timestamp, m, i));
        }
        let label = display.map_or_else(|| context.clone(), |(_, d)| d.to_string());
        let listed = |vs: &[(&Invoked, String)]| {
            if vs.is_empty() {
                "none".to_string()
            } else {
                vs.iter()
                    .map(|(_, v)| v.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            }
        };
        record(
            ctx,
            PhenomenonDraft {
                category: "contacts".into(),
                title: format!("Contact {label}"),
                facts,
                interpretation: format!(
                    "raw_contacts._id {id} in {name}: name {}, phones {}, e-mails {}.",
                    display.map_or("none", |(_, d)| d),
                    listed(&phones),
                    listed(&emails),
                ),
                times,
            },
        )?;
        let note = format!("Contact raw_contacts._id {id} of {}.", l.name());
        if let Some((i, d)) = display {
            observe(
                ctx,
                &context,
                EntityKind::Person,
                &label,
                IdType::DisplayName,
                d,
                i,
                note.clone(),
            )?;
        }
        for (i, p) in &phones {
            if let Some(n) = normalized(ctx, IdType::Phone, p) {
                book.phones
                    .entry(n)
                    .or_insert((context.clone(), label.clone()));
            }
            observe(
                ctx,
                &context,
                EntityKind::Person,
                &label,
                IdType::Phone,
                p,
                i,
                note.clone(),
            )?;
        }
        for (i, e) in &emails {
            observe(
                ctx,
                &context,
                EntityKind::Person,
                &label,
                IdType::Email,
                e,
                i,
                note.clone(),
            )?;
        }
    }
    if tables.iter().any(|t| t == "accounts") {
        account_rows(
            ctx,
            l,
            "SELECT _id, account_name AS name, account_type AS type FROM accounts ORDER BY _id",
        )?;
    }
    contacts_recovered(ctx, l, tables.iter().any(|t| t == "deleted_contacts"))
}

/// The accounts databases (`accounts.db`, `accounts_ce.db`, `accounts_de.db`): one phenomenon per
/// account (never the password column), the owner's identifiers, and the Google user id from
/// `extras`.
pub fn accounts(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(tables) = tables_with(ctx, l, &["accounts"])? else {
        return Ok(());
    };
    account_rows(ctx, l, "SELECT _id, name, type FROM accounts ORDER BY _id")?;
    if tables.iter().any(|t| t == "extras") {
        let sql = "SELECT e._id, e.key, e.value, a.name, a.type FROM extras e JOIN accounts a ON a._id = e.accounts_id WHERE e.key = 'GoogleUserId' ORDER BY e._id";
        let Some(pages) = pages_on(ctx, &l.tree, &l.path, sql)? else {
            return Ok(());
        };
        for (inv, t, row) in pages.rows() {
            let (Some(value), Some(account)) = (t.get(row, "value"), t.get(row, "name")) else {
                continue;
            };
            record(
                ctx,
                PhenomenonDraft {
                    category: "accounts".into(),
                    title: format!("Google user id of {account}"),
                    facts: vec![
                        fact(FactType::Path, &l.path, &l.found),
                        fact(FactType::Account, raw_cell(account), inv),
                        fact(FactType::Account, raw_cell(value), inv),
                    ],
                    interpretation: format!(
                        "The account {account} has the Google user id {value} ({}, extras key GoogleUserId).",
                        artefact_name(&l.tree, &l.path)
                    ),
                    times: vec![],
                },
            )?;
            observe(
                ctx,
                "owner",
                EntityKind::Person,
                "device owner",
                IdType::AccountId,
                value,
                inv,
                format!("Google user id of the account {account} configured on the device."),
            )?;
        }
    }
    Ok(())
}

/// Records the rows of an accounts query (`_id`, `name`, `type`) and observes them as the
/// owner's: a Google account, an e-mail, a phone, or else an account id.
fn account_rows(ctx: &AgentCtx<'_>, l: &Located, sql: &str) -> Result<(), RuntimeError> {
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, sql)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    for (inv, t, row) in pages.rows() {
        let Some(account) = t.get(row, "name") else {
            continue;
        };
        let kind = t.get(row, "type").unwrap_or("");
        let mut facts = vec![
            fact(FactType::Path, &l.path, &l.found),
            fact(FactType::Account, raw_cell(account), inv),
        ];
        if !kind.is_empty() {
            facts.push(fact(FactType::Text, raw_cell(kind), inv));
        }
        let id_type = if kind == "com.google"
            && normalized(ctx, IdType::GoogleAccount, account).is_some()
        {
            IdType::GoogleAccount
        } else if normalized(ctx, IdType::Email, account).is_some() {
            IdType::Email
        } else if account.starts_with('+') && normalized(ctx, IdType::Phone, account).is_some() {
            IdType::Phone
        } else {
            IdType::AccountId
        };
        let service = if kind == "com.google" {
            "Google account"
        } else {
            "account"
        };
        record(
            ctx,
            PhenomenonDraft {
                category: "accounts".into(),
                title: format!(
                    "{service} {account} ({}) in {}",
                    if kind.is_empty() {
                        "type not given"
                    } else {
                        kind
                    },
                    l.name()
                ),
                facts,
                interpretation: format!(
                    "{name} has the {service} {account} of type {} configured: an account of the device's user.",
                    if kind.is_empty() { "unknown" } else { kind }
                ),
                times: vec![],
            },
        )?;
        observe(
            ctx,
            "owner",
            EntityKind::Person,
            "device owner",
            id_type,
            account,
            inv,
            format!("{service} configured on the device ({}).", l.name()),
        )?;
    }
    Ok(())
}

/// The `siminfo` query (also run by the region step before it).
pub(crate) const SIMINFO_SQL: &str = "SELECT * FROM siminfo ORDER BY _id";

/// `telephony.db` `siminfo`: one phenomenon per SIM; its number is the owner's, its ICCID (and
/// IMSI where stored) the device's.
pub fn siminfo(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(_) = tables_with(ctx, l, &["siminfo"])? else {
        return Ok(());
    };
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, SIMINFO_SQL)? else {
        return Ok(());
    };
    let (inv, t) = pages.first();
    if !require_columns(ctx, l, inv, t, "siminfo", &["icc_id"])? {
        return Ok(());
    }
    let name = artefact_name(&l.tree, &l.path);
    for (inv, t, row) in pages.rows() {
        let iccid = t.get(row, "icc_id");
        let number = t.get(row, "number");
        let imsi = t.get(row, "imsi");
        let carrier = t
            .get(row, "carrier_name")
            .or_else(|| t.get(row, "display_name"));
        let mut facts = vec![fact(FactType::Path, &l.path, &l.found)];
        if let Some(v) = iccid {
            facts.push(fact(FactType::Iccid, v, inv));
        }
        if let Some(v) = number {
            facts.push(party_fact(ctx, v, inv));
        }
        if let Some(v) = imsi {
            facts.push(fact(FactType::Imsi, v, inv));
        }
        if let Some(v) = carrier {
            facts.push(fact(FactType::Name, raw_cell(v), inv));
        }
        if facts.len() == 1 {
            continue;
        }
        record(
            ctx,
            PhenomenonDraft {
                category: "device".into(),
                title: format!("SIM {}", iccid.unwrap_or("without ICCID")),
                facts,
                interpretation: format!(
                    "{name} records a SIM: ICCID {}, number {}, carrier {}.",
                    iccid.unwrap_or("not stored"),
                    number.unwrap_or("not stored"),
                    carrier.unwrap_or("not stored")
                ),
                times: vec![],
            },
        )?;
        if let Some(v) = iccid {
            observe(
                ctx,
                "device",
                EntityKind::Device,
                "Android device",
                IdType::Iccid,
                v,
                inv,
                format!("ICCID of a SIM used in the device ({}).", l.name()),
            )?;
        }
        if let Some(v) = imsi {
            observe(
                ctx,
                "device",
                EntityKind::Device,
                "Android device",
                IdType::Imsi,
                v,
                inv,
                format!("IMSI of a SIM used in the device ({}).", l.name()),
            )?;
        }
        if let Some(v) = number {
            observe(
                ctx,
                "owner",
                EntityKind::Person,
                "device owner",
                IdType::Phone,
                v,
                inv,
                format!(
                    "The number of a SIM in the device ({}): the owner's own number.",
                    l.name()
                ),
            )?;
        }
    }
    Ok(())
}

/// Call types of `calls.type`.
fn call_type(t: &str) -> (&'static str, &'static str) {
    match t {
        "1" => ("Incoming call from", "Incoming call started"),
        "2" => ("Outgoing call to", "Outgoing call started"),
        "3" => ("Missed call from", "Missed call"),
        "4" => ("Voicemail from", "Voicemail received"),
        "5" => ("Rejected call from", "Rejected call"),
        "6" => ("Blocked call from", "Blocked call"),
        _ => ("Call with", "Call started"),
    }
}

/// `calls` of `calllog.db` (or of `contacts2.db` when `in_contacts`): one phenomenon per call.
pub fn calls(
    ctx: &AgentCtx<'_>,
    l: &Located,
    book: &Book,
    in_contacts: bool,
) -> Result<(), RuntimeError> {
    let Some((tinv, tables)) = tables_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    if in_contacts {
        if !tables.iter().any(|t| t == "calls") {
            return Ok(());
        }
    } else if !require(ctx, l, &tinv, &tables, &["calls"])? {
        return Ok(());
    }
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, "SELECT * FROM calls ORDER BY _id")? else {
        return Ok(());
    };
    let (inv, t) = pages.first();
    if !require_columns(
        ctx,
        l,
        inv,
        t,
        "calls",
        &["_id", "number", "date", "duration", "type"],
    )? {
        return Ok(());
    }
    let name = artefact_name(&l.tree, &l.path);
    for (inv, t, row) in pages.rows() {
        let id = t.get(row, "_id").unwrap_or("?");
        let number = t.get(row, "number");
        let kind = t.get(row, "type").unwrap_or("");
        let (title, desc) = call_type(kind);
        let mut facts = vec![fact(FactType::Path, &l.path, &l.found)];
        let mut times = Vec::new();
        if let Some(n) = number {
            facts.push(party_fact(ctx, n, inv));
        }
        if let Some(d) = t.get(row, "date") {
            times.push(TimeMark {
                fact: facts.len(),
                encoding: TimeEncoding::UnixMillis,
                description: desc.to_string(),
            });
            facts.push(fact(FactType::Timestamp, d, inv));
        }
        let duration = t.get(row, "duration").unwrap_or("0");
        facts.push(fact(FactType::Count, duration, inv));
        if let Some(cached) = t.get(row, "name") {
            facts.push(fact(FactType::Name, raw_cell(cached), inv));
        }
        let own = t.get(row, "phone_account_address");
        if let Some(v) = own {
            facts.push(party_fact(ctx, v, inv));
        }
        let party = number.unwrap_or("an unknown number");
        record(
            ctx,
            PhenomenonDraft {
                category: "calls".into(),
                title: format!("{title} {party} ({duration} s)"),
                facts,
                interpretation: format!(
                    "calls._id {id} in {name}: {} {party} at {} (Unix ms), {duration} s{}.",
                    title.to_lowercase(),
                    t.get(row, "date").unwrap_or("an unknown time"),
                    own.map(|o| format!(", on the line {o}"))
                        .unwrap_or_default()
                ),
                times,
            },
        )?;
        let what = format!("call {id} ({})", l.name());
        for col in ["number", "normalized_number", "formatted_number"] {
            if let Some(v) = t.get(row, col) {
                observe_party(ctx, book, v, inv, &what)?;
            }
        }
        if let Some(v) = own {
            observe(
                ctx,
                "owner",
                EntityKind::Person,
                "device owner",
                IdType::Phone,
                v,
                inv,
                format!("The device's own line that handled {what}."),
            )?;
        }
        if let Some(v) = t.get(row, "subscription_id") {
            observe(
                ctx,
                "device",
                EntityKind::Device,
                "Android device",
                IdType::Iccid,
                v,
                inv,
                format!("The SIM (ICCID) that handled {what}."),
            )?;
        }
    }
    if pages.truncated {
        summarise_rest(ctx, l, "calls", "date", "calls", "call")?;
    }
    calls_recovered(ctx, l)?;
    missing(
        ctx,
        l,
        &crate::gaps::Spec {
            table: "calls",
            key: "_id",
            time: "date",
            label: "number",
            sequence: crate::gaps::Sequence::Sqlite,
            what: ("call", "calls"),
            category: "calls",
            encoding: crate::drafts::unix_millis,
            time_said: "Unix milliseconds",
            pruned_by: Some(
                "the call log itself, which deletes its oldest calls past its limit (500 in AOSP's CallLog)",
            ),
        },
        tables.iter().any(|t| t == "sqlite_sequence"),
    )
}

/// The gaps in a table's keys ([`crate::gaps`]): rows deleted, their content left or not.
fn missing(
    ctx: &AgentCtx<'_>,
    l: &Located,
    spec: &crate::gaps::Spec,
    sequence: bool,
) -> Result<(), RuntimeError> {
    let sql = crate::gaps::sql(spec, sequence);
    if let Some((inv, t)) = query_on(ctx, &l.tree, &l.path, &sql, crate::gaps::GAPS_MAX)? {
        let name = artefact_name(&l.tree, &l.path);
        crate::gaps::record(ctx, spec, &name, &l.path, &l.found, &inv, &t)?;
    }
    Ok(())
}

/// Contacts `data` (and `raw_contacts`) no longer show that earlier page versions hold: one
/// phenomenon per raw contact with its recovered names, numbers and e-mails, observed on its
/// `contact:<raw_contacts._id>` entity; the deletion time from `deleted_contacts` when the
/// recovered raw contact names its aggregate contact there.
fn contacts_recovered(
    ctx: &AgentCtx<'_>,
    l: &Located,
    has_deleted_contacts: bool,
) -> Result<(), RuntimeError> {
    let name = artefact_name(&l.tree, &l.path);
    let Some((dinv, d)) = crate::recovered::wal_rows_on(ctx, &l.tree, &l.path, "data", &[])? else {
        return Ok(());
    };
    let raws = crate::recovered::wal_rows_on(ctx, &l.tree, &l.path, "raw_contacts", &[])?;
    let Some((_, mimes)) = crate::identity::query_on(
        ctx,
        &l.tree,
        &l.path,
        "SELECT _id, mimetype FROM mimetypes",
        10_000,
    )?
    else {
        return Ok(());
    };
    let mime = |id: Option<&str>| {
        mimes
            .rows
            .iter()
            .find(|r| mimes.get(r, "_id").is_some() && mimes.get(r, "_id") == id)
            .and_then(|r| mimes.get(r, "mimetype"))
            .map(str::to_string)
    };
    let deleted_at = if has_deleted_contacts {
        crate::identity::query_on(
            ctx,
            &l.tree,
            &l.path,
            "SELECT contact_id, contact_deleted_timestamp FROM deleted_contacts",
            100_000,
        )?
    } else {
        None
    };
    let mut by_raw: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    for (i, row) in d.rows.iter().enumerate() {
        if let Some(r) = d.get(row, "raw_contact_id") {
            by_raw.entry(r.to_string()).or_default().push(i);
        }
    }
    for (raw_id, rows) in by_raw {
        let (mut names, mut phones, mut emails) = (Vec::new(), Vec::new(), Vec::new());
        let mut deleted = true;
        for &i in &rows {
            let row = &d.rows[i];
            deleted &= d.get(row, "status") == Some("deleted");
            let Some(v) = d.get(row, "data1") else {
                continue;
            };
            match mime(d.get(row, "mimetype_id")).as_deref() {
                Some(MIME_NAME) => names.push(v.to_string()),
                Some(MIME_PHONE) => phones.push(v.to_string()),
                Some(MIME_EMAIL) => emails.push(v.to_string()),
                _ => {}
            }
        }
        if names.is_empty() && phones.is_empty() && emails.is_empty() {
            continue;
        }
        let raw_row = raws.as_ref().and_then(|(rinv, r)| {
            r.rows
                .iter()
                .find(|x| r.get(x, "_id") == Some(raw_id.as_str()))
                .map(|x| (rinv, r, x))
        });
        let display: Option<(String, &Invoked)> = raw_row
            .and_then(|(rinv, r, x)| r.get(x, "display_name").map(|n| (n.to_string(), rinv)))
            .or_else(|| names.first().map(|n| (n.clone(), &dinv)));
        let label = display
            .as_ref()
            .map(|(n, _)| n.clone())
            .unwrap_or_else(|| format!("raw contact {raw_id}"));
        let mut facts = vec![fact(FactType::Path, &l.path, &l.found)];
        facts.push(fact(
            FactType::Text,
            if deleted { "deleted" } else { "changed" },
            &dinv,
        ));
        if let Some((rinv, r, x)) = raw_row
            && let Some(dn) = r.get(x, "display_name")
        {
            facts.push(fact(FactType::Name, raw_cell(dn), rinv));
        }
        for n in &names {
            facts.push(fact(FactType::Name, raw_cell(n), &dinv));
        }
        for p in &phones {
            facts.push(party_fact(ctx, p, &dinv));
        }
        for e in &emails {
            facts.push(fact(FactType::Email, raw_cell(e), &dinv));
        }
        let mut times = Vec::new();
        let contact_id = raw_row.and_then(|(_, r, x)| r.get(x, "contact_id"));
        if let (Some(c), Some((delinv, del))) = (contact_id, &deleted_at)
            && let Some(when) = del
                .rows
                .iter()
                .find(|x| del.get(x, "contact_id") == Some(c))
                .and_then(|x| del.get(x, "contact_deleted_timestamp"))
        {
            times.push(TimeMark {
                fact: facts.len(),
                encoding: TimeEncoding::UnixMillis,
                description: "Contact deleted".to_string(),
            });
            facts.push(fact(FactType::Timestamp, when, delinv));
        }
        let first = &d.rows[rows[0]];
        record(
            ctx,
            PhenomenonDraft {
                category: "contacts".into(),
                title: format!(
                    "{} contact {label} (recovered)",
                    if deleted {
                        "Deleted"
                    } else {
                        "Earlier version of"
                    }
                ),
                facts,
                interpretation: format!(
                    "raw_contacts._id {raw_id} in {name}: names {}, phones {}, e-mails {}, from {} recovered data row(s); {}.",
                    if names.is_empty() {
                        "none".to_string()
                    } else {
                        names.join(", ")
                    },
                    if phones.is_empty() {
                        "none".to_string()
                    } else {
                        phones.join(", ")
                    },
                    if emails.is_empty() {
                        "none".to_string()
                    } else {
                        emails.join(", ")
                    },
                    rows.len(),
                    crate::recovered::provenance(&d, first)
                ),
                times,
            },
        )?;
        let context = format!("contact:{raw_id}");
        let note = format!(
            "A recovered data row of raw_contacts._id {raw_id} of {}.",
            l.name()
        );
        if let Some((dn, from)) = &display {
            observe(
                ctx,
                &context,
                EntityKind::Person,
                &label,
                IdType::DisplayName,
                dn,
                from,
                note.clone(),
            )?;
        }
        for p in &phones {
            observe(
                ctx,
                &context,
                EntityKind::Person,
                &label,
                IdType::Phone,
                p,
                &dinv,
                note.clone(),
            )?;
        }
        for e in &emails {
            observe(
                ctx,
                &context,
                EntityKind::Person,
                &label,
                IdType::Email,
                e,
                &dinv,
                note.clone(),
            )?;
        }
    }
    Ok(())
}

/// The facts a recovered SMS or call starts with: the file, the row's status (deleted,
/// changed), the party, and the row's `date` (Unix ms) as the time `desc` says.
fn recovered_head(
    ctx: &AgentCtx<'_>,
    l: &Located,
    t: &Table,
    row: &[Option<String>],
    inv: &Invoked,
    party: Option<&str>,
    desc: &str,
) -> (Vec<FactClaim>, Vec<TimeMark>) {
    let mut facts = vec![fact(FactType::Path, &l.path, &l.found)];
    if let Some(st) = t.get(row, "status") {
        facts.push(fact(FactType::Text, st, inv));
    }
    if let Some(p) = party {
        facts.push(party_fact(ctx, p, inv));
    }
    let mut times = Vec::new();
    if let Some(d) = t.get(row, "date") {
        times.push(TimeMark {
            fact: facts.len(),
            encoding: TimeEncoding::UnixMillis,
            description: desc.to_string(),
        });
        facts.push(fact(FactType::Timestamp, d, inv));
    }
    (facts, times)
}

/// Calls `calls` no longer shows that earlier page versions hold (deleted from the call log
/// since the last checkpoint, or changed): one phenomenon each, as a live call is recorded.
fn calls_recovered(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let name = artefact_name(&l.tree, &l.path);
    let Some((inv, t)) = crate::recovered::wal_rows_on(ctx, &l.tree, &l.path, "calls", &[])? else {
        return Ok(());
    };
    for row in &t.rows {
        let id = crate::recovered::key(&t, row, "_id");
        let number = t.get(row, "number");
        let (title, desc) = call_type(t.get(row, "type").unwrap_or(""));
        let (mut facts, times) = recovered_head(ctx, l, &t, row, &inv, number, desc);
        let duration = t.get(row, "duration").unwrap_or("0");
        facts.push(fact(FactType::Count, duration, &inv));
        if let Some(cached) = t.get(row, "name") {
            facts.push(fact(FactType::Name, raw_cell(cached), &inv));
        }
        let party = number.unwrap_or("an unknown number");
        record(
            ctx,
            PhenomenonDraft {
                category: "calls".into(),
                title: format!(
                    "{} {title} {party} ({duration} s) (recovered)",
                    crate::recovered::title_word(t.get(row, "status"))
                ),
                facts,
                interpretation: format!(
                    "calls._id {id} in {name}: {} {party} at {} (Unix ms), {duration} s; {}.",
                    title.to_lowercase(),
                    t.get(row, "date").unwrap_or("an unknown time"),
                    crate::recovered::provenance(&t, row)
                ),
                times,
            },
        )?;
    }
    Ok(())
}

/// `mmssms.db`: one phenomenon per SMS and per thread; counterparties observed; wallet
/// addresses in bodies observed as `wallet:<address>`.
pub fn sms(ctx: &AgentCtx<'_>, l: &Located, book: &Book) -> Result<(), RuntimeError> {
    let Some(tables) = tables_with(ctx, l, &["sms"])? else {
        return Ok(());
    };
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, "SELECT * FROM sms ORDER BY _id")? else {
        return Ok(());
    };
    let (inv, t) = pages.first();
    if !require_columns(
        ctx,
        l,
        inv,
        t,
        "sms",
        &["_id", "address", "date", "type", "body"],
    )? {
        return Ok(());
    }
    let name = artefact_name(&l.tree, &l.path);
    for (inv, t, row) in pages.rows() {
        let id = t.get(row, "_id").unwrap_or("?");
        let address = t.get(row, "address");
        let kind = t.get(row, "type").unwrap_or("");
        let (title, desc) = sms_kind(kind);
        let mut facts = vec![fact(FactType::Path, &l.path, &l.found)];
        let mut times = Vec::new();
        if let Some(a) = address {
            facts.push(party_fact(ctx, a, inv));
        }
        if let Some(d) = t.get(row, "date") {
            times.push(TimeMark {
                fact: facts.len(),
                encoding: TimeEncoding::UnixMillis,
                description: desc.to_string(),
            });
            facts.push(fact(FactType::Timestamp, d, inv));
        }
        if kind == "1"
            && let Some(s) = t.get(row, "date_sent").filter(|s| *s != "0")
        {
            times.push(TimeMark {
                fact: facts.len(),
                encoding: TimeEncoding::UnixMillis,
                description: "Message sent".to_string(),
            });
            facts.push(fact(FactType::Timestamp, s, inv));
        }
        let body = t.get(row, "body").unwrap_or("");
        if !body.is_empty() {
            facts.push(fact(FactType::Text, raw_cell(body), inv));
        }
        let party = address.unwrap_or("an unknown address");
        record(
            ctx,
            PhenomenonDraft {
                category: "messages".into(),
                title: format!("{title} {party}"),
                facts,
                interpretation: format!(
                    "sms._id {id} (thread {}) in {name}: {} {party} at {} (Unix ms).",
                    t.get(row, "thread_id").unwrap_or("?"),
                    title.to_lowercase(),
                    t.get(row, "date").unwrap_or("an unknown time"),
                ),
                times,
            },
        )?;
        let what = format!("SMS {id} ({})", l.name());
        if let Some(a) = address {
            observe_party(ctx, book, a, inv, &what)?;
        }
        sms_claims(ctx, book, kind, address, body, &what, inv)?;
    }
    if pages.truncated {
        summarise_rest(ctx, l, "sms", "date", "messages", "SMS")?;
    }
    if tables.iter().any(|t| t == "threads") && tables.iter().any(|t| t == "canonical_addresses") {
        threads(ctx, l)?;
    }
    sms_recovered(ctx, l, book)?;
    missing(
        ctx,
        l,
        &crate::gaps::Spec {
            table: "sms",
            key: "_id",
            time: "date",
            label: "address",
            sequence: crate::gaps::Sequence::Sqlite,
            what: ("SMS", "SMS"),
            category: "messages",
            encoding: crate::drafts::unix_millis,
            time_said: "Unix milliseconds",
            pruned_by: None,
        },
        tables.iter().any(|t| t == "sqlite_sequence"),
    )
}

/// What an SMS of `sms.type` is: the title's words and its time's description.
fn sms_kind(kind: &str) -> (&'static str, &'static str) {
    match kind {
        "1" => ("SMS received from", "Message received"),
        "2" => ("SMS sent to", "Message sent"),
        "3" => ("SMS draft to", "Draft saved"),
        "4" => ("SMS outbox to", "Message queued"),
        "5" => ("SMS failed to", "Message failed"),
        "6" => ("SMS queued to", "Message queued"),
        _ => ("SMS with", "Message time"),
    }
}

/// SMS the `sms` table no longer shows that earlier page versions hold (deleted since the last
/// checkpoint, or edited): one phenomenon each, titled as recovered, with the same facts and
/// claims as a live one.
fn sms_recovered(ctx: &AgentCtx<'_>, l: &Located, book: &Book) -> Result<(), RuntimeError> {
    let name = artefact_name(&l.tree, &l.path);
    let Some((inv, t)) = crate::recovered::wal_rows_on(ctx, &l.tree, &l.path, "sms", &[])? else {
        return Ok(());
    };
    for row in &t.rows {
        let id = crate::recovered::key(&t, row, "_id");
        let address = t.get(row, "address");
        let kind = t.get(row, "type").unwrap_or("");
        let (title, desc) = sms_kind(kind);
        let (mut facts, times) = recovered_head(ctx, l, &t, row, &inv, address, desc);
        let body = t.get(row, "body").unwrap_or("");
        if !body.is_empty() {
            facts.push(fact(FactType::Text, raw_cell(body), &inv));
        }
        let party = address.unwrap_or("an unknown address");
        record(
            ctx,
            PhenomenonDraft {
                category: "messages".into(),
                title: format!(
                    "{} {} {party} (recovered)",
                    crate::recovered::title_word(t.get(row, "status")),
                    title
                ),
                facts,
                interpretation: format!(
                    "sms._id {id} (thread {}) in {name}: {} {party} at {} (Unix ms); {}.",
                    t.get(row, "thread_id").unwrap_or("?"),
                    title.to_lowercase(),
                    t.get(row, "date").unwrap_or("an unknown time"),
                    crate::recovered::provenance(&t, row)
                ),
                times,
            },
        )?;
        let what = format!("recovered SMS {id} ({})", l.name());
        sms_claims(ctx, book, kind, address, body, &what, &inv)?;
    }
    Ok(())
}

/// The two sides of an SMS's words: the device's user wrote what it sent (or drafted, queued)
/// and read what it received; the party (when the address is a number, i.e. a person's) the
/// other way round. Wallet addresses in the body are observed as the writer's claims.
fn sms_claims(
    ctx: &AgentCtx<'_>,
    book: &Book,
    kind: &str,
    address: Option<&str>,
    body: &str,
    what: &str,
    inv: &Invoked,
) -> Result<(), RuntimeError> {
    let party = address
        .filter(|a| normalized(ctx, IdType::Phone, a).is_some())
        .map(|a| (counterparty(ctx, book, a), a));
    let (party_role, owner_role) = match kind {
        "1" => (
            party
                .as_ref()
                .map(|(_, a)| format!("{a}, who sent it (sms.type 1, received)")),
            "the device's user, who received it (sms.type 1)".to_string(),
        ),
        _ => (
            party
                .as_ref()
                .map(|(_, a)| format!("{a}, to whom it was written (sms.type {kind})")),
            format!("the device's user, who wrote it (sms.type {kind})"),
        ),
    };
    let other = party
        .as_ref()
        .zip(party_role.as_deref())
        .map(|(((context, label), _), role)| Party {
            context,
            label,
            role,
        });
    let owner = Party {
        context: "owner",
        label: "device owner",
        role: &owner_role,
    };
    let (writer, reader) = match kind {
        "1" => (other, Some(owner)),
        "2" | "3" | "4" | "5" | "6" => (Some(owner), other),
        _ => (None, None),
    };
    observe_written_wallets(
        ctx.phone_region().as_ref(),
        body,
        what,
        writer,
        reader,
        &mut |c, k, l, t, v, i, cue| observe_cued(ctx, c, k, l, t, v, inv, i, cue),
    )?;
    Ok(())
}

/// `threads` with their recipients from `canonical_addresses`: one phenomenon per thread.
fn threads(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let sql = "SELECT t._id, t.message_count, t.date, t.recipient_ids, (SELECT group_concat(c.address, ';') FROM canonical_addresses c WHERE (' ' || t.recipient_ids || ' ') LIKE ('% ' || c._id || ' %')) AS addresses FROM threads t ORDER BY t._id";
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, sql)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    for (inv, t, row) in pages.rows() {
        let id = t.get(row, "_id").unwrap_or("?");
        let addresses = t.get(row, "addresses").unwrap_or("");
        let count = t.get(row, "message_count").unwrap_or("0");
        let mut facts: Vec<FactClaim> = vec![fact(FactType::Path, &l.path, &l.found)];
        facts.extend(
            addresses
                .split(';')
                .filter(|a| !a.is_empty())
                .map(|a| party_fact(ctx, a, inv)),
        );
        facts.push(fact(FactType::Count, count, inv));
        let mut times = Vec::new();
        timed(
            &mut facts,
            &mut times,
            t.get(row, "date").filter(|d| *d != "0"),
            TimeEncoding::UnixMillis,
            "Thread last updated",
            inv,
        );
        record(
            ctx,
            PhenomenonDraft {
                category: "messages".into(),
                title: format!(
                    "SMS thread {id} with {}",
                    if addresses.is_empty() {
                        "unknown recipients"
                    } else {
                        addresses
                    }
                ),
                facts,
                interpretation: format!(
                    "threads._id {id} in {name}: {count} messages with {} (recipient ids {}).",
                    if addresses.is_empty() {
                        "unknown recipients"
                    } else {
                        addresses
                    },
                    t.get(row, "recipient_ids").unwrap_or("none")
                ),
                times,
            },
        )?;
    }
    Ok(())
}

/// Google Hangouts (`babel*.db`, `com.google.android.talk`): every message (conversation,
/// author's name and Google account id, text, direction, status, time in Unix µs) and every
/// participant (Google account id as `account_id`, name, the e-mail Hangouts falls back to).
/// The author of the sent messages (`type` 1) is the device's user: their account id, name
/// and e-mail go on `owner`; the other participants are `hangouts:<gaia id>` persons. Wallet
/// addresses in one-to-one conversations are claims of the side the words before them name.
pub fn hangouts(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(_) = tables_with(ctx, l, &["messages", "participants", "conversations"])? else {
        return Ok(());
    };
    let people = "SELECT _id, gaia_id, full_name, first_name, fallback_name, blocked FROM participants ORDER BY _id";
    let Some(pt_pages) = pages_on(ctx, &l.tree, &l.path, people)? else {
        return Ok(());
    };
    let sql = "SELECT m._id, m.conversation_id, m.author_gaia_id AS author, p.full_name AS author_name, \
m.text, m.timestamp, m.type, m.status, c.name AS conversation_name, c.generated_name, c.conversation_type \
FROM messages m LEFT JOIN participants p ON p.gaia_id = m.author_gaia_id \
LEFT JOIN conversations c ON c.conversation_id = m.conversation_id ORDER BY m._id";
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, sql)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    // the device's user: the author of the sent messages
    let me: Option<String> = pages
        .rows()
        .find(|(_, t, r)| t.get(r, "type") == Some("1"))
        .and_then(|(_, t, r)| t.get(r, "author"))
        .map(str::to_string);
    // participants (per gaia id: context, label)
    let mut who: BTreeMap<String, (String, String)> = BTreeMap::new();
    for (pinv, pt, row) in pt_pages.rows() {
        let Some(gaia) = pt.get(row, "gaia_id") else {
            continue;
        };
        let full = pt.get(row, "full_name").filter(|n| !n.trim().is_empty());
        let fallback = pt
            .get(row, "fallback_name")
            .filter(|n| !n.trim().is_empty());
        let mine = me.as_deref() == Some(gaia);
        let (context, label) = if mine {
            ("owner".to_string(), "device owner".to_string())
        } else {
            (
                format!("hangouts:{gaia}"),
                full.or(fallback).unwrap_or(gaia).to_string(),
            )
        };
        let mut facts = vec![
            fact(FactType::Path, &l.path, &l.found),
            fact(FactType::Account, gaia, pinv),
        ];
        for n in [full, fallback].into_iter().flatten() {
            facts.push(fact(FactType::Name, raw_cell(n), pinv));
        }
        record(
            ctx,
            PhenomenonDraft {
                category: "contacts".into(),
                title: format!("Hangouts participant {}", full.or(fallback).unwrap_or(gaia)),
                facts,
                interpretation: format!(
                    "A Hangouts participant in {name}: Google account id {gaia}{}{}{}.",
                    full.map(|n| format!(", named {n}")).unwrap_or_default(),
                    fallback
                        .filter(|f| f.contains('@'))
                        .map(|f| format!(", e-mail {f}"))
                        .unwrap_or_default(),
                    if mine {
                        " — the device's user (the author of the sent messages)"
                    } else {
                        ""
                    }
                ),
                times: vec![],
            },
        )?;
        let why = |what: &str| format!("{what} of the Hangouts participant {gaia} ({}).", l.name());
        observe(
            ctx,
            &context,
            EntityKind::Person,
            &label,
            IdType::AccountId,
            gaia,
            pinv,
            why("The Google account id"),
        )?;
        if let Some(n) = full {
            observe(
                ctx,
                &context,
                EntityKind::Person,
                &label,
                IdType::DisplayName,
                n,
                pinv,
                why("The name"),
            )?;
        }
        if let Some(e) = fallback.filter(|f| f.contains('@')) {
            observe(
                ctx,
                &context,
                EntityKind::Person,
                &label,
                IdType::Email,
                e,
                pinv,
                why("The e-mail"),
            )?;
        }
        who.insert(gaia.to_string(), (context, label));
    }
    // the other side of each one-to-one conversation (conversation_type 1): its one other author
    let mut others: BTreeMap<String, BTreeMap<String, ()>> = BTreeMap::new();
    for (_, t, row) in pages.rows() {
        if let (Some(c), Some(a)) = (t.get(row, "conversation_id"), t.get(row, "author"))
            && me.as_deref() != Some(a)
        {
            others
                .entry(c.to_string())
                .or_default()
                .insert(a.to_string(), ());
        }
    }
    for (inv, t, row) in pages.rows() {
        let id = t.get(row, "_id").unwrap_or("?");
        let sent = t.get(row, "type") == Some("1");
        let author = t.get(row, "author").unwrap_or("");
        let author_name = t.get(row, "author_name").unwrap_or(author);
        let conversation = t.get(row, "conversation_id").unwrap_or("");
        let conv_name = t
            .get(row, "conversation_name")
            .or_else(|| t.get(row, "generated_name"))
            .unwrap_or(conversation);
        let mut facts = vec![
            fact(FactType::Path, &l.path, &l.found),
            fact(FactType::Identifier, conversation, inv),
            fact(FactType::Account, author, inv),
        ];
        if let Some(n) = t.get(row, "author_name") {
            facts.push(fact(FactType::Name, raw_cell(n), inv));
        }
        let mut times = Vec::new();
        timed(
            &mut facts,
            &mut times,
            t.get(row, "timestamp"),
            TimeEncoding::UnixMicros,
            if sent {
                "Message sent"
            } else {
                "Message received"
            },
            inv,
        );
        let text = t.get(row, "text").unwrap_or("");
        if !text.is_empty() {
            facts.push(fact(FactType::Text, raw_cell(text), inv));
        }
        let status = match t.get(row, "status") {
            Some("4") => "read",
            Some("0") => "unread",
            Some(_) | None => "status unknown",
        };
        record(
            ctx,
            PhenomenonDraft {
                category: "messages".into(),
                title: format!(
                    "Hangouts message {} {author_name}",
                    if sent { "sent by" } else { "received from" }
                ),
                facts,
                interpretation: format!(
                    "Hangouts message {id} in {name}, conversation {conv_name}: {} by {author_name} (Google account id {author}), {status}, at {} (Unix µs).",
                    if sent {
                        "sent by the device's user"
                    } else {
                        "received, written"
                    },
                    t.get(row, "timestamp").unwrap_or("an unknown time"),
                ),
                times,
            },
        )?;
        // one-to-one: the writer and the reader are the two sides
        let other = others
            .get(conversation)
            .filter(|o| o.len() == 1 && t.get(row, "conversation_type") == Some("1"))
            .and_then(|o| o.keys().next())
            .and_then(|g| who.get(g));
        let other_role = format!("{author_name}, the other side of the conversation");
        let other_side = other.map(|(c, lbl)| Party {
            context: c,
            label: lbl,
            role: &other_role,
        });
        let owner_role = if sent {
            "the device's user, who sent it (type 1)"
        } else {
            "the device's user, who received it"
        };
        let what = format!("Hangouts message {id} ({})", l.name());
        message_claims(ctx, inv, text, &what, sent, owner_role, other_side)?;
    }
    Ok(())
}

/// Columns of the DownloadProvider's `downloads` table read when present (never `cookiedata`
/// or the request headers: credentials), each with its fact type and how it is named.
const DOWNLOAD_COLUMNS: &[(&str, FactType, &str)] = &[
    ("uri", FactType::Url, "from"),
    ("_data", FactType::Path, "saved as"),
    ("hint", FactType::Url, "hinted destination"),
    ("title", FactType::Name, "title"),
    ("description", FactType::Text, "description"),
    ("mimetype", FactType::Text, "type"),
    ("total_bytes", FactType::Count, "size (bytes)"),
    ("current_bytes", FactType::Count, "bytes received"),
    (
        "notificationpackage",
        FactType::Identifier,
        "requested by the app",
    ),
    ("referer", FactType::Url, "referrer"),
    ("useragent", FactType::Text, "user agent"),
    ("etag", FactType::Identifier, "ETag"),
    ("mediaprovider_uri", FactType::Url, "media store entry"),
    ("errorMsg", FactType::Text, "error"),
];

/// The Download Manager's `downloads.db` (`com.android.providers.downloads`): one phenomenon
/// per download with every column ALEAPP's and plaso's parsers report that this database has
/// (URL, local path, title, MIME type, sizes, the requesting app, referrer, ETag, error, status
/// code, deleted and visibility flags), `lastmod` as "Download last modified" (Unix ms).
/// Columns are read by name: Android versions add and drop them.
pub fn downloads(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(_) = tables_with(ctx, l, &["downloads"])? else {
        return Ok(());
    };
    let Some((cinv, cols)) = query_on(
        ctx,
        &l.tree,
        &l.path,
        "SELECT name FROM pragma_table_info('downloads')",
        1000,
    )?
    else {
        return Ok(());
    };
    let present: Vec<&str> = cols
        .rows
        .iter()
        .filter_map(|r| cols.get(r, "name"))
        .collect();
    let have = |c: &str| present.contains(&c);
    if !have("_id") || !have("uri") {
        ctx.unparsed(
            &artefact_name(&l.tree, &l.path),
            "unexpected schema: downloads has no column _id or uri",
            Some(&cinv.record.invocation_id),
        )?;
        return Ok(());
    }
    let mut select = vec!["_id".to_string()];
    for c in DOWNLOAD_COLUMNS.iter().map(|(c, _, _)| *c).chain([
        "status",
        "lastmod",
        "deleted",
        "is_visible_in_downloads_ui",
    ]) {
        select.push(if have(c) {
            format!("\"{c}\"")
        } else {
            format!("NULL AS \"{c}\"")
        });
    }
    let sql = format!("SELECT {} FROM downloads ORDER BY _id", select.join(", "));
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    for (inv, t, row) in pages.rows() {
        let id = t.get(row, "_id").unwrap_or("?");
        let mut facts = vec![fact(FactType::Path, &l.path, &l.found)];
        let mut said = Vec::new();
        for (c, ft, what) in DOWNLOAD_COLUMNS {
            if let Some(v) = t.get(row, c).filter(|v| !v.trim().is_empty()) {
                facts.push(fact(*ft, raw_cell(v), inv));
                said.push(format!("{what} {v}"));
            }
        }
        let status = t.get(row, "status").unwrap_or("");
        if !status.is_empty() {
            facts.push(fact(FactType::Text, status, inv));
        }
        let outcome = match status.parse::<u32>() {
            Ok(200) => "completed".to_string(),
            Ok(s @ 190..=199) => format!("pending or running (status {s})"),
            Ok(s @ 400..=599) => format!("failed (status {s})"),
            Ok(s) => format!("status {s}"),
            Err(_) => "status unknown".to_string(),
        };
        let mut times = Vec::new();
        if let Some(ts) = t
            .get(row, "lastmod")
            .filter(|v| v.parse::<i64>().is_ok_and(|n| n > 0))
        {
            times.push(TimeMark {
                fact: facts.len(),
                encoding: TimeEncoding::UnixMillis,
                description: "Download last modified".into(),
            });
            facts.push(fact(FactType::Timestamp, ts, inv));
        }
        let flags: Vec<&str> = [
            (t.get(row, "deleted") == Some("1")).then_some("deleted from the list"),
            (t.get(row, "is_visible_in_downloads_ui") == Some("0"))
                .then_some("hidden from the Downloads app"),
        ]
        .into_iter()
        .flatten()
        .collect();
        record(
            ctx,
            PhenomenonDraft {
                category: "downloads".into(),
                title: format!(
                    "Download {id}: {}",
                    t.get(row, "title")
                        .filter(|v| !v.is_empty())
                        .or_else(|| t.get(row, "uri"))
                        .unwrap_or("?")
                ),
                facts,
                interpretation: format!(
                    "Download {id} in {name}, {outcome}{}: {}; lastmod is Unix ms.",
                    if flags.is_empty() {
                        String::new()
                    } else {
                        format!(", {}", flags.join(", "))
                    },
                    said.join("; ")
                ),
                times,
            },
        )?;
    }
    Ok(())
}

/// Burner (`burners.sqlite`, `com.adhoclabs.burner`): the second phone numbers the device's
/// user rents, their contacts and their messages. Each burner number (`burners.phone_number_id`,
/// with its name, account and dates) is a phone of `owner` — the user's own, as reachable as
/// their SIM's; each contact (name, number) is a `contact:burner:<_id>` person; each message
/// (text, counterparty, `direction` 2 sent / 1 received, `date_created` Unix ms, type, read)
/// one phenomenon, wallet addresses in it claims of the side the text names.
pub fn burner(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(tables) = tables_with(ctx, l, &["burners", "messages"])? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    let Some(bt_pages) = pages_on(
        ctx,
        &l.tree,
        &l.path,
        "SELECT _id, phone_number_id, name, user_id, date_created, expiration_date FROM burners ORDER BY _id",
    )?
    else {
        return Ok(());
    };
    for (binv, bt, row) in bt_pages.rows() {
        let Some(number) = bt.get(row, "phone_number_id") else {
            continue;
        };
        let label = bt.get(row, "name").unwrap_or("");
        let mut facts = vec![
            fact(FactType::Path, &l.path, &l.found),
            fact(FactType::Phone, number, binv),
        ];
        if !label.is_empty() {
            facts.push(fact(FactType::Name, raw_cell(label), binv));
        }
        if let Some(u) = bt.get(row, "user_id") {
            facts.push(fact(FactType::Account, u, binv));
        }
        let mut times = Vec::new();
        for (c, what) in [
            ("date_created", "Burner number created"),
            ("expiration_date", "Burner number expires"),
        ] {
            if let Some(v) = bt
                .get(row, c)
                .filter(|v| v.parse::<i64>().is_ok_and(|n| n > 0))
            {
                times.push(TimeMark {
                    fact: facts.len(),
                    encoding: TimeEncoding::UnixMillis,
                    description: what.into(),
                });
                facts.push(fact(FactType::Timestamp, v, binv));
            }
        }
        record(
            ctx,
            PhenomenonDraft {
                category: "accounts".into(),
                title: format!("Burner number {number}"),
                facts,
                interpretation: format!(
                    "{name}: the device's user rents the Burner number {number}{}; times are Unix ms.",
                    if label.is_empty() {
                        String::new()
                    } else {
                        format!(" (named \"{label}\")")
                    }
                ),
                times,
            },
        )?;
        observe(
            ctx,
            "owner",
            EntityKind::Person,
            "device owner",
            IdType::Phone,
            number,
            binv,
            format!(
                "{number} is a Burner number of the device's user ({}).",
                l.name()
            ),
        )?;
    }
    let mut book: BTreeMap<String, (String, String)> = BTreeMap::new();
    if tables.iter().any(|t| t == "contacts")
        && let Some(ct_pages) = pages_on(
            ctx,
            &l.tree,
            &l.path,
            "SELECT _id, name, phone_number, date_created FROM contacts ORDER BY _id",
        )?
    {
        for (cinv, ct, row) in ct_pages.rows() {
            let (Some(id), Some(number)) = (ct.get(row, "_id"), ct.get(row, "phone_number")) else {
                continue;
            };
            let cname = ct.get(row, "name").unwrap_or(number);
            let context = format!("contact:burner:{id}");
            record(
                ctx,
                PhenomenonDraft {
                    category: "contacts".into(),
                    title: format!("Burner contact {cname}"),
                    facts: vec![
                        fact(FactType::Path, &l.path, &l.found),
                        fact(FactType::Name, raw_cell(cname), cinv),
                        fact(FactType::Phone, number, cinv),
                    ],
                    interpretation: format!("{name}: the Burner contact {cname}, {number}."),
                    times: vec![],
                },
            )?;
            observe(
                ctx,
                &context,
                EntityKind::Person,
                cname,
                IdType::Phone,
                number,
                cinv,
                format!("The Burner contact {cname} has the number {number}."),
            )?;
            if cname != number {
                observe(
                    ctx,
                    &context,
                    EntityKind::Person,
                    cname,
                    IdType::DisplayName,
                    cname,
                    cinv,
                    format!("The Burner contact with the number {number} is named {cname}."),
                )?;
            }
            if let Some(n) = normalized(ctx, IdType::Phone, number) {
                book.insert(n, (context, cname.to_string()));
            }
        }
    }
    let Some(pages) = pages_on(
        ctx,
        &l.tree,
        &l.path,
        "SELECT _id, message, contact_phone_number AS number, direction, message_type, date_created, read FROM messages ORDER BY _id",
    )?
    else {
        return Ok(());
    };
    for (inv, t, row) in pages.rows() {
        let id = t.get(row, "_id").unwrap_or("?");
        let number = t.get(row, "number").unwrap_or("");
        let sent = t.get(row, "direction") == Some("2");
        let text = t.get(row, "message").unwrap_or("");
        let mut facts = vec![
            fact(FactType::Path, &l.path, &l.found),
            fact(FactType::Phone, number, inv),
        ];
        let mut times = Vec::new();
        timed(
            &mut facts,
            &mut times,
            t.get(row, "date_created"),
            TimeEncoding::UnixMillis,
            if sent {
                "Message sent"
            } else {
                "Message received"
            },
            inv,
        );
        if !text.is_empty() {
            facts.push(fact(FactType::Text, raw_cell(text), inv));
        }
        let dir = if sent { "sent to" } else { "received from" };
        record(
            ctx,
            PhenomenonDraft {
                category: "messages".into(),
                title: format!("Burner message {dir} {number}"),
                facts,
                interpretation: format!(
                    "Burner message {id} in {name}: {dir} {number} (direction {}), message type {}, {}, at {} (Unix ms).",
                    t.get(row, "direction").unwrap_or("?"),
                    t.get(row, "message_type").unwrap_or("?"),
                    if t.get(row, "read") == Some("1") {
                        "read"
                    } else {
                        "unread"
                    },
                    t.get(row, "date_created").unwrap_or("an unknown time"),
                ),
                times,
            },
        )?;
        let (context, label) = normalized(ctx, IdType::Phone, number)
            .and_then(|n| book.get(&n).cloned())
            .unwrap_or_else(|| {
                let key =
                    normalized(ctx, IdType::Phone, number).unwrap_or_else(|| number.to_string());
                (format!("handle:{key}"), number.to_string())
            });
        if context.starts_with("handle:") {
            observe(
                ctx,
                &context,
                EntityKind::Person,
                &label,
                IdType::Phone,
                number,
                inv,
                format!("{number} is a counterparty of Burner messages with no Burner contact."),
            )?;
        }
        let other_role = format!("{label}, the other party");
        let other = Some(Party {
            context: &context,
            label: &label,
            role: &other_role,
        });
        let owner_role = if sent {
            "the device's user, who sent it (direction 2)"
        } else {
            "the device's user, who received it (direction 1)"
        };
        let what = format!("Burner message {id} ({})", l.name());
        message_claims(ctx, inv, text, &what, sent, owner_role, other)?;
    }
    Ok(())
}

/// `UsageEvents.Event` types by number (android.app.usage), as the app-usage summary names them.
fn usage_event(kind: &str) -> String {
    match kind {
        "1" => "resumed (foreground)".into(),
        "2" => "paused (background)".into(),
        "5" => "configuration change".into(),
        "7" => "user interaction".into(),
        "8" => "shortcut invocation".into(),
        "10" => "notification seen".into(),
        "11" => "standby bucket changed".into(),
        "12" => "notification interruption".into(),
        "15" => "screen interactive".into(),
        "16" => "screen non-interactive".into(),
        "17" => "keyguard shown".into(),
        "18" => "keyguard hidden".into(),
        "19" => "foreground service start".into(),
        "20" => "foreground service stop".into(),
        "23" => "activity stopped".into(),
        "26" => "device shutdown".into(),
        "27" => "device startup".into(),
        other => format!("event type {other}"),
    }
}

/// The app-usage database (`app_usage`, Android's usage-stats events kept by Google's Digital
/// Wellbeing): per package, how many events of each type and the first and last event time
/// (Unix ms) — one phenomenon per package rather than per event (tens of thousands), its
/// first and last use on the timeline; the per-type counts as facts, as plaso's
/// `android_app_usage` events summed.
pub fn app_usage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(_) = tables_with(ctx, l, &["events", "packages"])? else {
        return Ok(());
    };
    let sql = "SELECT p.package_name AS package, e.type AS type, count(*) AS events, \
min(e.timestamp) AS first, max(e.timestamp) AS last FROM events e JOIN packages p ON p._id = e.package_id \
GROUP BY p.package_name, e.type ORDER BY p.package_name, e.type";
    let Some((inv, t)) = query_on(ctx, &l.tree, &l.path, sql, 100_000)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    let mut by_package: BTreeMap<&str, Vec<&Vec<Option<String>>>> = BTreeMap::new();
    for row in &t.rows {
        if let Some(p) = t.get(row, "package") {
            by_package.entry(p).or_default().push(row);
        }
    }
    for (package, rows) in by_package {
        let mut facts = vec![
            fact(FactType::Path, &l.path, &l.found),
            fact(FactType::Identifier, package, &inv),
        ];
        let mut total = 0u64;
        let mut kinds = Vec::new();
        // (value, as written) of the earliest and latest event
        let mut first: Option<(i64, &str)> = None;
        let mut last: Option<(i64, &str)> = None;
        for row in rows {
            let n = t.get(row, "events").unwrap_or("0");
            total += n.parse::<u64>().unwrap_or(0);
            facts.push(fact(FactType::Count, n, &inv));
            kinds.push(format!(
                "{} {n}",
                usage_event(t.get(row, "type").unwrap_or("?"))
            ));
            for (col, slot, better) in [
                ("first", &mut first, std::cmp::Ordering::Less),
                ("last", &mut last, std::cmp::Ordering::Greater),
            ] {
                if let Some(v) = t.get(row, col)
                    && let Ok(x) = v.parse::<i64>()
                    && slot.is_none_or(|(y, _)| x.cmp(&y) == better)
                {
                    *slot = Some((x, v));
                }
            }
        }
        let mut times = Vec::new();
        for (slot, what) in [(first, "App first used"), (last, "App last used")] {
            if let Some((_, v)) = slot {
                times.push(TimeMark {
                    fact: facts.len(),
                    encoding: TimeEncoding::UnixMillis,
                    description: what.into(),
                });
                facts.push(fact(FactType::Timestamp, v, &inv));
            }
        }
        record(
            ctx,
            PhenomenonDraft {
                category: "app_usage".into(),
                title: format!("App usage of {package}: {total} events"),
                facts,
                interpretation: format!(
                    "{name} records {total} usage events of {package} ({}), from {} to {} (Unix ms).",
                    kinds.join(", "),
                    first.map_or("?", |(_, v)| v),
                    last.map_or("?", |(_, v)| v),
                ),
                times,
            },
        )?;
    }
    Ok(())
}

/// The launcher's `SimpleStorage` (Android System Intelligence / Pixel launcher): each app
/// launch of `EchoAppLaunchMetricsEvents` — one phenomenon per launch (time and package; the
/// launcher writes one row per prediction source for the same launch, counted in it), Unix ms
/// "App launched". plaso's `android_app_launch` reports the rows.
pub fn app_launches(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(_) = tables_with(ctx, l, &["EchoAppLaunchMetricsEvents"])? else {
        return Ok(());
    };
    let sql = "SELECT timestampMillis AS ts, packageName AS package, launchLocationId AS location, count(*) AS rows \
FROM EchoAppLaunchMetricsEvents GROUP BY timestampMillis, packageName ORDER BY timestampMillis, packageName";
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, sql)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    for (inv, t, row) in pages.rows() {
        let (Some(ts), Some(package)) = (t.get(row, "ts"), t.get(row, "package")) else {
            continue;
        };
        record(
            ctx,
            PhenomenonDraft {
                category: "app_usage".into(),
                title: format!("App launched: {package}"),
                facts: vec![
                    fact(FactType::Path, &l.path, &l.found),
                    fact(FactType::Identifier, package, inv),
                    fact(FactType::Timestamp, ts, inv),
                ],
                interpretation: format!(
                    "{name}: {package} was launched at {ts} (Unix ms) from launch location {} ({} prediction row(s) of the launcher for this launch).",
                    t.get(row, "location").unwrap_or("?"),
                    t.get(row, "rows").unwrap_or("?"),
                ),
                times: vec![TimeMark {
                    fact: 2,
                    encoding: TimeEncoding::UnixMillis,
                    description: "App launched".into(),
                }],
            },
        )?;
    }
    if pages.truncated {
        ctx.unparsed(
            &name,
            &format!("more than {ROW_CAP} launches; the first {ROW_CAP} were recorded"),
            pages
                .pages
                .last()
                .map(|(inv, _)| inv.record.invocation_id.as_str()),
        )?;
    }
    Ok(())
}

/// A WebView's HTTP cache index (`webviewCache.db`): every cached URL with its file, HTTP
/// status, type, length, ETag, `Last-Modified` as written and expiry (Unix ms, "Web cache entry
/// expires"), as plaso's `android_webviewcache` reads it.
pub fn webview_cache(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(_) = tables_with(ctx, l, &["cache"])? else {
        return Ok(());
    };
    let sql = "SELECT _id, url, filepath, lastmodify, etag, expires, mimetype, httpstatus, contentlength, location FROM cache ORDER BY _id";
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, sql)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    for (inv, t, row) in pages.rows() {
        let Some(url) = t.get(row, "url") else {
            continue;
        };
        let mut facts = vec![
            fact(FactType::Path, &l.path, &l.found),
            fact(FactType::Url, raw_cell(url), inv),
        ];
        for (c, ft) in [
            ("filepath", FactType::Name),
            ("lastmodify", FactType::Text),
            ("etag", FactType::Identifier),
            ("mimetype", FactType::Text),
            ("httpstatus", FactType::Text),
            ("contentlength", FactType::Count),
            ("location", FactType::Url),
        ] {
            if let Some(v) = t.get(row, c).filter(|v| !v.is_empty()) {
                facts.push(fact(ft, raw_cell(v), inv));
            }
        }
        let mut times = Vec::new();
        if let Some(e) = t
            .get(row, "expires")
            .filter(|v| v.parse::<i64>().is_ok_and(|n| n > 0))
        {
            times.push(TimeMark {
                fact: facts.len(),
                encoding: TimeEncoding::UnixMillis,
                description: "Web cache entry expires".into(),
            });
            facts.push(fact(FactType::Timestamp, e, inv));
        }
        record(
            ctx,
            PhenomenonDraft {
                category: "web".into(),
                title: format!("WebView cache: {url}"),
                facts,
                interpretation: format!(
                    "{name}: a WebView cached {url} (HTTP {}, {}, {} bytes) in the file {}.",
                    t.get(row, "httpstatus").unwrap_or("?"),
                    t.get(row, "mimetype").unwrap_or("unknown type"),
                    t.get(row, "contentlength").unwrap_or("?"),
                    t.get(row, "filepath").unwrap_or("?"),
                ),
                times,
            },
        )?;
    }
    Ok(())
}

/// Viber (`viber_data`, `com.viber.voip`): its copy of the address book (`phonebookcontact`
/// with the numbers of `phonebookdata`, mime type 0: as dialled, as E.164), the numbers that are
/// Viber members (`vibernumbers`: member id), and the Viber calls (`calls`: number, `type` 1
/// incoming / 2 outgoing, `viber_call_type` 1 audio / 4 video, duration, Unix ms start). A
/// contact is `contact:viber:<_id>` (name, numbers, the member id of a number that is one); a
/// call's number without a contact is `handle:<E.164>`.
pub fn viber(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(tables) = tables_with(ctx, l, &["phonebookcontact", "phonebookdata", "calls"])? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    let has_members = tables.iter().any(|t| t == "vibernumbers");
    let sql = format!(
        "SELECT c._id, c.display_name, d.data1 AS dialled, d.data2 AS number{} FROM phonebookcontact c \
JOIN phonebookdata d ON d.contact_id = c._id AND d.mime_type = 0{} ORDER BY c._id, d._id",
        if has_members {
            ", v.member_id"
        } else {
            ", NULL AS member_id"
        },
        if has_members {
            " LEFT JOIN vibernumbers v ON v.canonized_number = d.data2"
        } else {
            ""
        }
    );
    let Some(ct_pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(());
    };
    let mut by_contact: BTreeMap<String, Vec<crate::calls::PagedRow>> = BTreeMap::new();
    for (cinv, ct, row) in ct_pages.rows() {
        if let Some(id) = ct.get(row, "_id") {
            by_contact
                .entry(id.to_string())
                .or_default()
                .push((cinv, ct, row));
        }
    }
    let mut book: BTreeMap<String, (String, String)> = BTreeMap::new();
    for (id, rows) in &by_contact {
        // every group has a first row
        let (cinv, ct, first) = rows[0];
        let display = ct.get(first, "display_name").unwrap_or(id.as_str());
        let context = format!("contact:viber:{id}");
        let mut facts = vec![
            fact(FactType::Path, &l.path, &l.found),
            fact(FactType::Name, raw_cell(display), cinv),
        ];
        let mut said = Vec::new();
        for &(cinv, ct, r) in rows {
            for c in ["dialled", "number"] {
                if let Some(v) = ct.get(r, c) {
                    facts.push(fact(FactType::Phone, v, cinv));
                }
            }
            if let Some(m) = ct.get(r, "member_id") {
                facts.push(fact(FactType::Account, m, cinv));
            }
            said.push(format!(
                "{}{}",
                ct.get(r, "number")
                    .or_else(|| ct.get(r, "dialled"))
                    .unwrap_or("?"),
                if ct.get(r, "member_id").is_some() {
                    " (a Viber member)"
                } else {
                    ""
                }
            ));
        }
        record(
            ctx,
            PhenomenonDraft {
                category: "contacts".into(),
                title: format!("Viber contact {display}"),
                facts,
                interpretation: format!(
                    "{name}: Viber's copy of the contact {display}: {}.",
                    said.join(", ")
                ),
                times: vec![],
            },
        )?;
        let why = |what: &str| {
            format!(
                "{what} of the contact {display} in Viber's address book ({}).",
                l.name()
            )
        };
        observe(
            ctx,
            &context,
            EntityKind::Person,
            display,
            IdType::DisplayName,
            display,
            cinv,
            why("The name"),
        )?;
        for &(cinv, ct, r) in rows {
            if let Some(n) = ct.get(r, "number") {
                observe(
                    ctx,
                    &context,
                    EntityKind::Person,
                    display,
                    IdType::Phone,
                    n,
                    cinv,
                    why(&format!("The number {n}")),
                )?;
                if let Some(k) = normalized(ctx, IdType::Phone, n) {
                    book.insert(k, (context.clone(), display.to_string()));
                }
            }
            if let Some(m) = ct.get(r, "member_id") {
                observe(
                    ctx,
                    &context,
                    EntityKind::Person,
                    display,
                    IdType::AccountId,
                    m,
                    cinv,
                    why(&format!("The Viber member id {m}")),
                )?;
            }
        }
    }
    let calls = "SELECT _id, number, canonized_number, date, duration, type, viber_call_type FROM calls ORDER BY _id";
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, calls)? else {
        return Ok(());
    };
    for (inv, t, row) in pages.rows() {
        let id = t.get(row, "_id").unwrap_or("?");
        let number = t
            .get(row, "canonized_number")
            .or_else(|| t.get(row, "number"))
            .unwrap_or("");
        let outgoing = t.get(row, "type") == Some("2");
        let video = t.get(row, "viber_call_type") == Some("4");
        let mut facts = vec![
            fact(FactType::Path, &l.path, &l.found),
            fact(FactType::Phone, number, inv),
        ];
        let mut times = Vec::new();
        timed(
            &mut facts,
            &mut times,
            t.get(row, "date"),
            TimeEncoding::UnixMillis,
            if outgoing {
                "Outgoing call started"
            } else {
                "Incoming call started"
            },
            inv,
        );
        if let Some(d) = t.get(row, "duration") {
            facts.push(fact(FactType::Count, d, inv));
        }
        let kind = if video { "video" } else { "audio" };
        record(
            ctx,
            PhenomenonDraft {
                category: "calls".into(),
                title: format!(
                    "Viber {kind} call {} {number} ({} s)",
                    if outgoing { "to" } else { "from" },
                    t.get(row, "duration").unwrap_or("?")
                ),
                facts,
                interpretation: format!(
                    "Viber call {id} in {name}: an {} {kind} call {} {number} (type {}, viber_call_type {}), lasting {} s; date is Unix ms.",
                    if outgoing { "outgoing" } else { "incoming" },
                    if outgoing { "to" } else { "from" },
                    t.get(row, "type").unwrap_or("?"),
                    t.get(row, "viber_call_type").unwrap_or("?"),
                    t.get(row, "duration").unwrap_or("?"),
                ),
                times,
            },
        )?;
        let known = normalized(ctx, IdType::Phone, number).is_some_and(|k| book.contains_key(&k));
        if !known && let Some(k) = normalized(ctx, IdType::Phone, number) {
            observe(
                ctx,
                &format!("handle:{k}"),
                EntityKind::Person,
                number,
                IdType::Phone,
                number,
                inv,
                format!("{number} is a counterparty of Viber calls with no Viber contact."),
            )?;
        }
    }
    Ok(())
}
