//! Claude (Anthropic) keeps its account the same way on both platforms: an `account` object
//! (`full_name`, `display_name`, `email_address`, `tagged_id`, `created_at`, `updated_at`) in
//! a start-up JSON cache (iOS `Library/Caches/bootstrap/*.json`, Android
//! `cache/app_start/acc_*/org_*/cache.json` under `response`). Its e-mail and names are the
//! device's user's, so one user's iPhone and Android phone are one person by the e-mail.

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{FactType, IdType};
use serde_json::Value;

use crate::drafts::{Draft, RowPhenomena, date_text, record_draft};
use crate::outputs::json_scalar;

/// The account object `account` (read by `inv` from the cache at `path`, listed by `found`) as
/// one `accounts` phenomenon, and the owner's identities.
pub fn account(
    ctx: &AgentCtx<'_>,
    path: &str,
    found: &masf_tools::Invoked,
    inv: &masf_tools::Invoked,
    account: &Value,
) -> Result<(), RuntimeError> {
    let s = |k: &str| json_scalar(account.get(k));
    let (full, display, email, tagged) = (
        s("full_name"),
        s("display_name"),
        s("email_address"),
        s("tagged_id"),
    );
    let mut d = Draft::new(
        "accounts",
        format!(
            "Claude account {}",
            email.as_deref().or(full.as_deref()).unwrap_or("not named")
        ),
    );
    d.fact(FactType::Path, Some(path), found);
    d.fact(FactType::Name, full.as_deref(), inv);
    d.fact(FactType::Name, display.as_deref(), inv);
    d.fact(FactType::Email, email.as_deref(), inv);
    d.fact(FactType::Identifier, tagged.as_deref(), inv);
    for (k, what) in [
        ("created_at", "Claude account created"),
        ("updated_at", "Claude account updated"),
    ] {
        let v = s(k);
        d.time(v.as_deref(), date_text(v.as_deref()), what, inv);
    }
    d.interpretation = format!(
        "{}: the Claude account signed in on the device: {}, e-mail {}; the times are ISO 8601.",
        path.rsplit('/').next().unwrap_or(path),
        full.as_deref()
            .or(display.as_deref())
            .unwrap_or("name not stored"),
        email.as_deref().unwrap_or("not stored"),
    );
    record_draft(ctx, d)?;
    crate::identity::observe_owner_ids(
        ctx,
        inv,
        vec![
            (email, IdType::Email, "e-mail"),
            (full, IdType::DisplayName, "full name"),
        ],
        &|what| format!("The {what} of the Claude account signed in on the device."),
    )
}

/// How a conversation row is recorded on both platforms (the query aliases its columns `id`,
/// `name`, `model`, `incognito`, `starred`, `created`, `updated`).
pub fn conversations(table: &'static str) -> RowPhenomena<'static> {
    RowPhenomena {
        table,
        category: "messages",
        what: "a Claude conversation (times ISO 8601)",
        title: &conversation_title,
        fields: &[
            ("id", FactType::Identifier, "id"),
            ("name", FactType::Text, "name"),
            ("model", FactType::Text, "model"),
            ("incognito", FactType::Count, "incognito"),
            ("starred", FactType::Count, "starred"),
        ],
        times: &[
            ("created", "Claude conversation started", date_text),
            ("updated", "Claude conversation updated", date_text),
        ],
    }
}

fn conversation_title(t: &crate::outputs::Table, row: &[Option<String>]) -> String {
    format!(
        "Claude conversation {}",
        t.get(row, "name").unwrap_or("not named (incognito)")
    )
}

/// How a project row is recorded on both platforms (the query aliases `name`, `description`,
/// `creator`, `starred`, `docs`, `created`, `updated`, and what each platform adds in `fields`).
pub fn projects(
    table: &'static str,
    fields: &'static [(&'static str, FactType, &'static str)],
) -> RowPhenomena<'static> {
    RowPhenomena {
        table,
        category: "messages",
        what: "a Claude project (times ISO 8601)",
        title: &project_title,
        fields,
        times: &[
            ("created", "Claude project created", date_text),
            ("updated", "Claude project updated", date_text),
        ],
    }
}

fn project_title(t: &crate::outputs::Table, row: &[Option<String>]) -> String {
    format!(
        "Claude project {}",
        t.get(row, "name").unwrap_or("not named")
    )
}
