//! The App Privacy Report export (iOS 15+, Settings → Privacy → App Privacy Report → Save,
//! `App_Privacy_Report_v4_<time>.ndjson` wherever the user kept it), read with `read_text`
//! (up to 1 MiB; the rest noted as not read) and split into its JSON lines, with the fields
//! plaso's `ios_app_privacy` reports — one phenomenon per record:
//!
//! - `access`: the app (`accessor.identifier`, its `identifierType`) that used a protected
//!   resource (`category`: photos, location, contacts, camera, microphone, …), the interval's
//!   identifier and whether the record begins or ends it (`kind`), its time;
//! - `networkActivity`: the app (`bundleID`) that contacted `domain` (owner, context, who
//!   initiated it, domain type and classification), the number of hits and the first and last
//!   time.
//!
//! Times are ISO 8601 with the device's offset, kept as written. A line that is not a JSON
//! object of either type is counted and noted once; the other lines are still read. No
//! identity is observed: the records are about apps and domains, not people.

use masf_agents::RuntimeError;
use masf_graph::{FactType, TimeEncoding};
use masf_tools::Invoked;
use serde_json::Value;

use super::{Draft, ENTRY_CAP, Run};
use crate::outputs::json_scalar;

/// Bytes read of one export.
const MAX: u64 = 1 << 20;

/// Triage of every App Privacy Report export of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    run.each("*rivacy*eport*.ndjson", |find, path| one(run, find, path))
}

/// A string member as the export writes it (JSON-escaped), when present and non-empty.
fn text(v: &Value, key: &str) -> Option<String> {
    json_scalar(v.get(key))
}

fn one(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let args = serde_json::json!({"path": path, "length": MAX});
    let Some(inv) = crate::calls::call_or_note(run.ctx, path, "read_text", args)? else {
        return Ok(());
    };
    crate::calls::note_unread_rest(run.ctx, path, &inv, "App Privacy Report records")?;
    let more = inv
        .output
        .structured
        .as_ref()
        .and_then(|s| s.get("more"))
        .and_then(Value::as_bool)
        == Some(true);
    let lines: Vec<&str> = inv.output.text.lines().collect();
    let mut recorded = 0u64;
    let mut bad: Vec<usize> = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        // the last line of a cut read is partial: left to the unread rest
        if more && i + 1 == lines.len() {
            break;
        }
        let Ok(v) = serde_json::from_str::<Value>(line) else {
            bad.push(i + 1);
            continue;
        };
        if recorded >= ENTRY_CAP {
            run.ctx.unparsed(
                path,
                &format!("more than {ENTRY_CAP} records; the first {ENTRY_CAP} were recorded"),
                Some(&inv.record.invocation_id),
            )?;
            break;
        }
        let d = match v.get("type").and_then(Value::as_str) {
            Some("access") => access(path, find, &inv, &v, i + 1),
            Some("networkActivity") => network(path, find, &inv, &v, i + 1),
            _ => {
                bad.push(i + 1);
                continue;
            }
        };
        run.record(d)?;
        recorded += 1;
    }
    if !bad.is_empty() {
        let shown: Vec<String> = bad.iter().take(10).map(usize::to_string).collect();
        run.ctx.unparsed(
            path,
            &format!(
                "{} lines are not access or networkActivity JSON records (lines {}{}); the others were read",
                bad.len(),
                shown.join(", "),
                if bad.len() > 10 { ", …" } else { "" }
            ),
            Some(&inv.record.invocation_id),
        )?;
    }
    Ok(())
}

fn access(path: &str, find: &Invoked, inv: &Invoked, v: &Value, line: usize) -> Draft {
    let accessor = v.get("accessor").cloned().unwrap_or(Value::Null);
    let app = text(&accessor, "identifier");
    let id_type = text(&accessor, "identifierType");
    let category = text(v, "category");
    let kind = text(v, "kind");
    let interval = text(v, "identifier");
    let time = text(v, "timeStamp");
    let mut d = Draft::new(
        "usage",
        format!(
            "App privacy access: {} {} {}",
            app.as_deref().unwrap_or("an unnamed app"),
            category.as_deref().unwrap_or("(no category)"),
            kind.as_deref().unwrap_or("(no kind)"),
        ),
    );
    d.fact(FactType::Path, Some(path), find);
    d.fact(FactType::Identifier, app.as_deref(), inv);
    d.fact(FactType::Text, id_type.as_deref(), inv);
    d.fact(FactType::Text, category.as_deref(), inv);
    d.fact(FactType::Text, kind.as_deref(), inv);
    d.fact(FactType::Identifier, interval.as_deref(), inv);
    d.time(
        time.as_deref(),
        time.as_ref().map(|_| TimeEncoding::Iso8601),
        "App accessed a protected resource",
        inv,
    );
    d.interpretation = format!(
        "Line {line} of {path}, an App Privacy Report access record: {} ({}) accessed {} ({} of the access interval {}).",
        app.as_deref().unwrap_or("(no app)"),
        id_type.as_deref().unwrap_or("identifier"),
        category.as_deref().unwrap_or("(no category)"),
        kind.as_deref().unwrap_or("(no kind)"),
        interval.as_deref().unwrap_or("(none)"),
    );
    d
}

fn network(path: &str, find: &Invoked, inv: &Invoked, v: &Value, line: usize) -> Draft {
    let app = text(v, "bundleID");
    let domain = text(v, "domain");
    let mut d = Draft::new(
        "usage",
        format!(
            "App network activity: {} contacted {}",
            app.as_deref().unwrap_or("an unnamed app"),
            domain.as_deref().unwrap_or("(no domain)"),
        ),
    );
    d.fact(FactType::Path, Some(path), find);
    d.fact(FactType::Identifier, app.as_deref(), inv);
    d.fact(FactType::Url, domain.as_deref(), inv);
    let mut said = Vec::new();
    for (key, ft, what) in [
        ("domainOwner", FactType::Name, "domain owner"),
        ("context", FactType::Text, "context"),
        ("initiatedType", FactType::Text, "initiated"),
        ("domainType", FactType::Count, "domain type"),
        (
            "domainClassification",
            FactType::Count,
            "domain classification",
        ),
        (
            "contextVerificationType",
            FactType::Count,
            "context verification",
        ),
        ("hits", FactType::Count, "hits"),
    ] {
        if let Some(x) = text(v, key) {
            d.fact(ft, Some(&x), inv);
            said.push(format!("{what} {x}"));
        }
    }
    for (key, mark) in [
        ("firstTimeStamp", "App first contacted the domain"),
        ("timeStamp", "App last contacted the domain"),
    ] {
        let t = text(v, key);
        d.time(
            t.as_deref(),
            t.as_ref().map(|_| TimeEncoding::Iso8601),
            mark,
            inv,
        );
    }
    d.interpretation = format!(
        "Line {line} of {path}, an App Privacy Report network activity record: {} contacted {}; {}.",
        app.as_deref().unwrap_or("(no app)"),
        domain.as_deref().unwrap_or("(no domain)"),
        if said.is_empty() {
            "no other field".to_string()
        } else {
            said.join(", ")
        },
    );
    d
}
