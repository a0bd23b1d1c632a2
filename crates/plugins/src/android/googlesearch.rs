//! The Google app's recent activity (`com.google.android.googlequicksearchbox/files/recently/
//! <account e-mail>`), ALEAPP's `googleQuickSearchboxRecent`: one file per signed-in Google
//! account, named by its e-mail address, holding one Protocol Buffers message (read with
//! `read_protobuf`) whose field 1 lists what the user searched for and the pages they opened
//! from the app.
//!
//! One `web` phenomenon per entry ("Searched in the Google app: <query>", or "Opened from the
//! Google app: <title>"): the query (field 5), the page's URL, domain and title (7 → 1, 2, 3), the
//! search's category and engine (8 → 1, 2), the entry id (1), the screenshot id (9: the app's
//! screenshot of the result, `<account>-<id>.jpg`, beside it), and its times (4 and 17, Unix ms).
//!
//! Identities: the file's name is the e-mail address of the Google account the searches were
//! made under: the device's user's (`owner`), grounded in the listing that found the file. A
//! file that is not one message, or holds no entry list, is noted.

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{EntityKind, FactType, IdType};
use serde_json::Value;

use super::Located;
use crate::drafts::{Draft, record_draft, unix_millis};
use crate::identity::artefact_name;
use crate::outputs::proto_first;

/// Whether `l` is one of the Google app's recent-activity files.
pub fn is_recent(l: &Located) -> bool {
    l.path
        .contains("/com.google.android.googlequicksearchbox/files/recently/")
        && l.name().contains('@')
}

/// One file.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let name = artefact_name(&l.tree, &l.path);
    let Some((inv, doc)) = super::protobuf_message(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    let Some(items) = doc
        .get("1")
        .and_then(Value::as_array)
        .filter(|a| a.iter().all(Value::is_object))
    else {
        ctx.unparsed(
            &name,
            "could not parse the Google app's recent activity because its message has no list of entries (field 1)",
            Some(&inv.record.invocation_id),
        )?;
        return Ok(());
    };
    let account = l.name().to_string();
    for item in items {
        let query = proto_first(item, "5");
        let page = item.get("7").and_then(|p| p.get(0));
        let search = item.get("8").and_then(|p| p.get(0));
        let at = |m: Option<&Value>, f: &str| m.and_then(|m| proto_first(m, f));
        let (url, domain, title) = (at(page, "1"), at(page, "2"), at(page, "3"));
        let mut d = Draft::new(
            "web",
            match (&query, &title, &url) {
                (Some(q), _, _) => format!("Searched in the Google app: {q}"),
                (None, Some(t), _) => format!("Opened from the Google app: {t}"),
                (None, None, Some(u)) => format!("Opened from the Google app: {u}"),
                _ => "Google app activity".to_string(),
            },
        );
        d.fact(FactType::Path, Some(&l.path), &l.found);
        let mut said = Vec::new();
        for (v, ft, what) in [
            (query.clone(), FactType::Text, "query"),
            (url.clone(), FactType::Url, "page"),
            (domain, FactType::Text, "domain"),
            (title, FactType::Name, "title"),
            (at(search, "1"), FactType::Text, "category"),
            (at(search, "2"), FactType::Text, "engine"),
            (proto_first(item, "1"), FactType::Identifier, "entry id"),
            (
                proto_first(item, "9"),
                FactType::Identifier,
                "screenshot id",
            ),
        ] {
            if let Some(v) = v {
                d.fact(ft, Some(&v), &inv);
                said.push(format!("{what} {v}"));
            }
        }
        for (f, what) in [
            ("4", "Google app activity"),
            ("17", "Google app activity updated"),
        ] {
            let t = proto_first(item, f);
            d.time(t.as_deref(), unix_millis(t.as_deref()), what, &inv);
        }
        d.interpretation = format!(
            "An entry of the Google app's recent activity for the account {account} ({}): {}; fields 4 and 17 are Unix milliseconds.",
            l.path,
            said.join("; "),
        );
        record_draft(ctx, d)?;
    }
    if account.contains('.') {
        crate::identity::observe(
            ctx,
            "owner",
            EntityKind::Person,
            "device owner",
            IdType::Email,
            &account,
            &l.found,
            format!(
                "The Google account the Google app's recent searches were made under: its recent-activity file ({}) is named by the account's e-mail address.",
                l.path
            ),
        )?;
    }
    Ok(())
}
