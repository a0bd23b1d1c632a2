//! App permissions (`mobile/Library/TCC/TCC.db`, Transparency, Consent and Control), the fields of
//! iLEAPP's `tcc`: one `apps` phenomenon per `access` row — the app (`client`, a bundle id or a
//! path, and its type), the protected service (`kTCCService…`: camera, microphone, contacts,
//! photos, location-adjacent services, Bluetooth, …), the decision (`auth_value` since iOS 14:
//! 0 denied, 2 allowed, 3 limited — the meanings community research established, Apple does not
//! document them; `allowed` 0/1 before), why (`auth_reason`: the user's consent, a system or MDM
//! policy …), how often the user was asked (`prompt_count`, before iOS 14), when the row last
//! changed (`last_modified`, Unix seconds) and when the user was last reminded, and the object
//! of an indirect grant. Values the meanings do not cover are said as stored.
//!
//! For the examiner: which apps could read the contacts, see the camera or the photos, and when
//! the user granted or withdrew it.
//!
//! Schema drift: a table without `service` or `client` is noted; the other columns are read where
//! present. Identities: none observed.

use masf_agents::RuntimeError;
use masf_graph::FactType;
use masf_tools::Invoked;

use super::{Draft, Run, file_name, raw};

/// Triage of every `TCC.db` of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    run.each("TCC.db", |find, path| one(run, find, path))
}

/// The decision `auth_value` (iOS 14 on) or `allowed` (before) stands for.
fn decision(auth_value: Option<&str>, allowed: Option<&str>) -> String {
    match (auth_value, allowed) {
        (Some("0"), _) => "not allowed".into(),
        (Some("1"), _) => "unknown".into(),
        (Some("2"), _) => "allowed".into(),
        (Some("3"), _) => "limited".into(),
        (Some(v), _) => format!("auth_value {v}"),
        (None, Some("0")) => "not allowed".into(),
        (None, Some("1")) => "allowed".into(),
        (None, Some(v)) => format!("allowed {v}"),
        (None, None) => "not kept".into(),
    }
}

/// Why the decision was made (`auth_reason`), in community research's words.
fn reason(v: &str) -> Option<&'static str> {
    Some(match v {
        "1" => "error",
        "2" => "the user's consent",
        "3" => "set by the user",
        "4" => "set by the system",
        "5" => "a service policy",
        "6" => "an MDM policy",
        "7" => "an override policy",
        "8" => "a missing usage string",
        "9" => "the prompt timed out",
        "10" => "preflight unknown",
        "11" => "entitled",
        "12" => "an app type policy",
        _ => return None,
    })
}

fn one(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let Some(schema) = run.schema(path, &["access"])? else {
        return Ok(());
    };
    if !schema.require(run, "access", &["service", "client"])? {
        return Ok(());
    }
    let c = |col: &str| schema.col("a", "access", col);
    let sql = format!(
        "SELECT a.rowid AS rid, a.service AS service, a.client AS client, {} AS client_type, {} AS auth_value, {} AS allowed, {} AS auth_reason, {} AS prompt_count, {} AS indirect, {} AS last_modified, {} AS last_reminded FROM access a",
        c("client_type"),
        c("auth_value"),
        c("allowed"),
        c("auth_reason"),
        c("prompt_count"),
        c("indirect_object_identifier"),
        c("last_modified"),
        c("last_reminded"),
    );
    let Some(pages) = run.paged(path, &sql, "a.rowid")? else {
        return Ok(());
    };
    crate::calls::note_pages_cap(run.ctx, path, &pages, "permissions")?;
    let file = file_name(path);
    for (inv, t, row) in pages.rows() {
        let get = |c: &str| t.get(row, c);
        let service = get("service").unwrap_or("?");
        let short = service.strip_prefix("kTCCService").unwrap_or(service);
        let client = get("client").unwrap_or("?");
        let decided = decision(get("auth_value"), get("allowed"));
        let mut d = Draft::new(
            "apps",
            format!("Permission {short} for {client}: {decided}"),
        );
        d.fact(FactType::Path, Some(path), find);
        d.fact(FactType::Identifier, get("client"), inv);
        d.fact(FactType::Identifier, get("service"), inv);
        d.fact(FactType::Text, get("auth_value").or(get("allowed")), inv);
        d.fact(FactType::Text, get("auth_reason"), inv);
        d.fact(FactType::Count, get("prompt_count"), inv);
        let indirect = get("indirect").filter(|v| *v != "UNUSED");
        d.fact(FactType::Identifier, indirect, inv);
        let modified = raw(t, row, "last_modified");
        d.time(
            modified.as_deref(),
            crate::drafts::unix_seconds(modified.as_deref()),
            "App permission last changed",
            inv,
        );
        let reminded = raw(t, row, "last_reminded");
        d.time(
            reminded.as_deref(),
            crate::drafts::unix_seconds(reminded.as_deref()),
            "User last reminded of the app permission",
            inv,
        );
        let mut said = Vec::new();
        if let Some(r) = get("auth_reason") {
            said.push(format!(
                "reason {r}{}",
                reason(r).map(|w| format!(" ({w})")).unwrap_or_default()
            ));
        }
        if let Some(n) = get("prompt_count") {
            said.push(format!("the user was asked {n} time(s)"));
        }
        if let Some(v) = indirect {
            said.push(format!("for {v}"));
        }
        if let Some(v) = get("last_reminded").filter(|v| *v != "0") {
            said.push(format!("last reminded {v} (Unix seconds)"));
        }
        d.interpretation = format!(
            "access row {} of {file}: the access of {client} ({}) to {short} ({service}): {decided}{}; last changed {} (Unix seconds). The meanings of the stored values follow community research of TCC, not Apple's documentation.",
            get("rid").unwrap_or("?"),
            match get("client_type") {
                Some("0") => "a bundle id",
                Some("1") => "an absolute path",
                _ => "client type not kept",
            },
            if said.is_empty() {
                String::new()
            } else {
                format!(", {}", said.join(", "))
            },
            get("last_modified").unwrap_or("not kept"),
        );
        run.record(d)?;
    }
    Ok(())
}
