//! Text Free (Pinger) on iOS: its Core Data store `Messaging_<account>.sqlite`, with the fields of
//! iLEAPP's `pingertextfree`: one `messages` phenomenon per `ZCOMMUNICATIONCD` row — created
//! (`ZTIMECREATED`, Unix seconds), conversation (`ZCONVERSATION`), direction as stored
//! (`ZDIRECTION`, which iLEAPP prints as it is), the other party (the conversation's
//! `ZDISPLAYNAME`), status (`ZMYSTATUS`), text, type. iLEAPP joins the conversation (a message
//! without one is dropped); read here too.
//!
//! Identities: an other party written as a phone number or e-mail is observed by it (the
//! address-book card holding it, else `handle:<value>`). The store's name is not the app's
//! alone (`Messaging_*.sqlite`): a store without `ZCOMMUNICATIONCD` is passed over.

use masf_agents::RuntimeError;
use masf_graph::FactType;
use masf_tools::Invoked;

use super::photos::fields;
use super::{Draft, Run, raw};
use crate::drafts::unix_seconds;

/// Triage of every Text Free store of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    run.each("Messaging_*.sqlite", |find, path| store(run, find, path))
}

fn store(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let Some(schema) = run.schema(path, &["ZCOMMUNICATIONCD", "ZCONVERSATIONCD"])? else {
        return Ok(());
    };
    if schema.columns("ZCOMMUNICATIONCD").is_empty() {
        // another app's store of that name
        return Ok(());
    }
    if !schema.require(run, "ZCOMMUNICATIONCD", &["Z_PK", "ZTIMECREATED"])? {
        return Ok(());
    }
    let m = |x: &str| schema.col("m", "ZCOMMUNICATIONCD", x);
    let conv = schema.columns("ZCONVERSATIONCD");
    let party = if conv.contains("Z_PK")
        && conv.contains("ZDISPLAYNAME")
        && schema.columns("ZCOMMUNICATIONCD").contains("ZCONVERSATION")
    {
        "(SELECT c.ZDISPLAYNAME FROM ZCONVERSATIONCD c WHERE c.Z_PK = m.ZCONVERSATION)"
    } else {
        "NULL"
    };
    let sql = format!(
        "SELECT * FROM (SELECT m.Z_PK AS pk, m.ZTIMECREATED AS created, {} AS conversation, {} AS direction, {party} AS party, {} AS status, {} AS text, {} AS type FROM ZCOMMUNICATIONCD m)",
        m("ZCONVERSATION"),
        m("ZDIRECTION"),
        m("ZMYSTATUS"),
        m("ZTEXT"),
        m("ZTYPE"),
    );
    let Some(paged) = run.paged(path, &sql, "pk")? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        let pk = t.get(row, "pk").unwrap_or("?");
        let with = t
            .get(row, "party")
            .unwrap_or("an unnamed party")
            .to_string();
        let mut d = Draft::new("messages", format!("Text Free message with {with}"));
        d.fact(FactType::Path, Some(path), find);
        let said = fields(
            &mut d,
            t,
            row,
            inv,
            &[
                ("conversation", FactType::Identifier, "conversation"),
                ("direction", FactType::Count, "direction"),
                ("party", FactType::Name, "other party"),
                ("status", FactType::Count, "status"),
                ("text", FactType::Text, "text"),
                ("type", FactType::Count, "type"),
            ],
        );
        let created = raw(t, row, "created");
        d.time(
            created.as_deref(),
            unix_seconds(created.as_deref()),
            "Text Free message created",
            inv,
        );
        d.interpretation = format!(
            "ZCOMMUNICATIONCD Z_PK {pk} of {path}: a Text Free (Pinger) message in a conversation with {with}: {}; direction and status as stored (their meanings are not documented); the time is Unix seconds.",
            said.join(", ")
        );
        run.record(d)?;
        if let Some(p) = t.get(row, "party") {
            run.observe_handle(
                p,
                inv,
                &format!("a Text Free message (ZCOMMUNICATIONCD Z_PK {pk})"),
            )?;
        }
    }
    Ok(())
}
