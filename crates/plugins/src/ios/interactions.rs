//! CoreDuet's people interactions (`Library/CoreDuet/People/interactionC.db`): every call,
//! message, mail or share an app donated to the system — which app, when it started and
//! ended, direction, whether it answered another, how many recipients, the content URL — with
//! the sender's display name and identifier (`ZINTERACTIONS` ⟕ `ZCONTACTS` on `ZSENDER`), the
//! fields of iLEAPP's `interactionCContacts`. One phenomenon per interaction; the sender's
//! identifier, when a phone number or an e-mail, is a counterparty (`handle:<normalised>` unless
//! an address-book card holds it): it names who the user dealt with across every app that
//! donates, WhatsApp and Telegram included.
//!
//! The interactions' attachments (`ZATTACHMENT` through Core Data's `Z_<n>INTERACTIONS` join
//! table, found by its columns): one phenomenon each — iLEAPP's `interactionCAttachments`.
//!
//! Times are Core Data seconds since 2001. `ZDIRECTION` is printed as stored (its values are
//! not documented by Apple).

use masf_agents::RuntimeError;
use masf_graph::FactType;
use masf_tools::Invoked;

use super::{Draft, Run, core_data_encoding, raw};
use crate::calls::column_or_null;

/// Triage of every `interactionC.db` of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    run.each("interactionC.db", |find, path| one(run, find, path))
}

fn one(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let Some(schema) = run.schema(path, &["ZINTERACTIONS", "ZCONTACTS"])? else {
        return Ok(());
    };
    if !schema.require(run, "ZINTERACTIONS", &["Z_PK", "ZSTARTDATE", "ZBUNDLEID"])?
        || !schema.require(run, "ZCONTACTS", &["Z_PK", "ZIDENTIFIER"])?
    {
        return Ok(());
    }
    let (icols, ccols) = (schema.columns("ZINTERACTIONS"), schema.columns("ZCONTACTS"));
    let i = |c: &str, alias: &str| column_or_null(&icols, "i.", c, alias);
    let sql = format!(
        "SELECT i.Z_PK AS pk, i.ZSTARTDATE AS start, {}, i.ZBUNDLEID AS bundle, {}, {}, {}, {}, {}, {}, {}, \
         {}, c.ZIDENTIFIER AS identifier, {} FROM ZINTERACTIONS i LEFT JOIN ZCONTACTS c ON c.Z_PK = {}",
        i("ZENDDATE", "end"),
        i("ZTARGETBUNDLEID", "target"),
        i("ZDIRECTION", "direction"),
        i("ZISRESPONSE", "response"),
        i("ZRECIPIENTCOUNT", "recipients"),
        i("ZCREATIONDATE", "created"),
        i("ZCONTENTURL", "url"),
        i("ZDOMAINIDENTIFIER", "domain"),
        column_or_null(&ccols, "c.", "ZDISPLAYNAME", "name"),
        column_or_null(&ccols, "c.", "ZCREATIONDATE", "contact_created"),
        if icols.contains("ZSENDER") {
            "i.ZSENDER"
        } else {
            "NULL"
        },
    );
    let Some(paged) = run.paged(path, &sql, "i.Z_PK")? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        let pk = raw(t, row, "pk").unwrap_or_default();
        let bundle = raw(t, row, "bundle").unwrap_or_default();
        let who = raw(t, row, "name")
            .filter(|n| !n.is_empty())
            .or_else(|| raw(t, row, "identifier"))
            .unwrap_or_else(|| "an unrecorded sender".to_string());
        let mut d = Draft::new(
            "messages",
            format!("Interaction {pk} in {bundle} with {who}"),
        );
        d.fact(FactType::Path, Some(path), find);
        d.fact(FactType::Identifier, Some(&bundle), inv);
        d.fact(FactType::Identifier, raw(t, row, "target").as_deref(), inv);
        d.fact(FactType::Name, raw(t, row, "name").as_deref(), inv);
        let identifier = raw(t, row, "identifier");
        d.fact(
            match identifier.as_deref().and_then(|v| run.handle_type(v)) {
                Some((masf_graph::IdType::Email, _)) => FactType::Email,
                Some(_) => FactType::Phone,
                None => FactType::Identifier,
            },
            identifier.as_deref(),
            inv,
        );
        d.fact(FactType::Url, raw(t, row, "url").as_deref(), inv);
        d.fact(FactType::Identifier, raw(t, row, "domain").as_deref(), inv);
        d.fact(FactType::Count, raw(t, row, "recipients").as_deref(), inv);
        for (col, what) in [
            ("start", "Interaction started"),
            ("end", "Interaction ended"),
            ("created", "Interaction recorded"),
        ] {
            let v = raw(t, row, col);
            d.time(v.as_deref(), core_data_encoding(v.as_deref()), what, inv);
        }
        d.interpretation = format!(
            "ZINTERACTIONS Z_PK {pk} of {path}: {bundle} donated an interaction with {who} (direction {}, response {}, {} recipient(s)); times are Core Data seconds since 2001.",
            raw(t, row, "direction").unwrap_or_else(|| "not stored".into()),
            raw(t, row, "response").unwrap_or_else(|| "not stored".into()),
            raw(t, row, "recipients").unwrap_or_else(|| "?".into()),
        );
        run.record(d)?;
        if let Some(id) = &identifier {
            run.observe_handle(id, inv, &format!("interaction {pk} ({bundle})"))?;
        }
    }
    attachments(run, find, path, &icols)
}

/// The attachments of the interactions (`ZATTACHMENT`, joined through Core Data's many-to-many
/// table `Z_<n>INTERACTIONS`, whose number and column names follow the model's entity
/// numbering, so they are looked up): content text, type (UTI), URL, with the interaction's
/// app, target app, UUID and time — iLEAPP's `interactionCAttachments`.
fn attachments(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    icols: &std::collections::BTreeSet<String>,
) -> Result<(), RuntimeError> {
    let sql = "SELECT m.name AS tbl, p.name AS col FROM sqlite_master m JOIN pragma_table_info(m.name) p \
               WHERE m.type = 'table' AND (m.name = 'ZATTACHMENT' OR m.name GLOB 'Z_[0-9]*INTERACTIONS') ORDER BY m.name, p.cid";
    let Some((_, t)) = run.query(path, sql, 1000)? else {
        return Ok(());
    };
    let mut join: Option<(String, String, String)> = None;
    let mut attachment_cols = std::collections::BTreeSet::new();
    let mut by_table: std::collections::BTreeMap<String, Vec<String>> = Default::default();
    for row in &t.rows {
        if let (Some(tbl), Some(col)) = (t.get(row, "tbl"), t.get(row, "col")) {
            if tbl == "ZATTACHMENT" {
                attachment_cols.insert(col.to_string());
            } else {
                by_table
                    .entry(tbl.to_string())
                    .or_default()
                    .push(col.to_string());
            }
        }
    }
    for (tbl, cols) in &by_table {
        let a = cols.iter().find(|c| c.ends_with("ATTACHMENTS"));
        let i = cols.iter().find(|c| c.ends_with("INTERACTIONS"));
        if let (Some(a), Some(i)) = (a, i) {
            join = Some((tbl.clone(), a.clone(), i.clone()));
        }
    }
    let Some((tbl, a, i)) = join.filter(|_| attachment_cols.contains("Z_PK")) else {
        return Ok(());
    };
    let c = |col: &str, alias: &str| column_or_null(&attachment_cols, "a.", col, alias);
    let sql = format!(
        "SELECT a.Z_PK AS pk, i.Z_PK AS interaction, i.ZBUNDLEID AS bundle, {}, {}, {}, {}, {}, {} \
         FROM ZINTERACTIONS i JOIN {tbl} j ON j.{i} = i.Z_PK JOIN ZATTACHMENT a ON a.Z_PK = j.{a}",
        column_or_null(icols, "i.", "ZTARGETBUNDLEID", "target"),
        column_or_null(icols, "i.", "ZUUID", "uuid"),
        column_or_null(icols, "i.", "ZCREATIONDATE", "created"),
        c("ZCONTENTTEXT", "text"),
        c("ZUTI", "uti"),
        c("ZCONTENTURL", "url"),
    );
    let Some(paged) = run.paged(path, &sql, "a.Z_PK")? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        let pk = raw(t, row, "pk").unwrap_or_default();
        let bundle = raw(t, row, "bundle").unwrap_or_default();
        let mut d = Draft::new(
            "messages",
            format!(
                "Interaction attachment {pk} in {bundle}: {}",
                raw(t, row, "text").unwrap_or_else(|| "no text".into())
            ),
        );
        d.fact(FactType::Path, Some(path), find);
        d.fact(FactType::Identifier, Some(&bundle), inv);
        d.fact(FactType::Identifier, raw(t, row, "target").as_deref(), inv);
        d.fact(FactType::Identifier, raw(t, row, "uuid").as_deref(), inv);
        d.fact(FactType::Text, raw(t, row, "text").as_deref(), inv);
        d.fact(FactType::Identifier, raw(t, row, "uti").as_deref(), inv);
        d.fact(FactType::Url, raw(t, row, "url").as_deref(), inv);
        let v = raw(t, row, "created");
        d.time(
            v.as_deref(),
            core_data_encoding(v.as_deref()),
            "Interaction recorded",
            inv,
        );
        d.interpretation = format!(
            "ZATTACHMENT Z_PK {pk} of {path}: an attachment of interaction {} donated by {bundle}; ZCREATIONDATE is Core Data seconds since 2001.",
            raw(t, row, "interaction").unwrap_or_default(),
        );
        run.record(d)?;
    }
    Ok(())
}
