//! Google Fit on Android (`com.google.android.gms/databases/fitness.db.<account>`: Play services
//! keeps one store per Google account, named after it), ALEAPP's `googleFitGMS`: one `health`
//! phenomenon per `Sessions` row — start and end (Unix ms), the app that contributed it, the
//! activity (Google's activity numbers: 0 in a vehicle, 1 biking, 3 still, 7 walking, 8 running,
//! 72 sleeping; others as stored), its name and description. The account the store is named
//! after is the phone user's Google account (`owner`), read from the file's name as the listing
//! gives it.
//!
//! Columns are taken by name (absent ones NULL); a store without `Sessions` or its times is
//! noted.

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{FactType, IdType};

use super::Located;
use crate::drafts::{Draft, record_draft, unix_millis};
use crate::outputs::raw;

/// The account a store is named after (`fitness.db.<account>`), `None` for its `-wal`/`-shm`.
fn account(l: &Located) -> Option<&str> {
    let a = l.name().strip_prefix("fitness.db.")?;
    (!a.is_empty() && !a.ends_with("-wal") && !a.ends_with("-shm") && !a.ends_with("-journal"))
        .then_some(a)
}

/// Whether `l` is a Google Fit store of Play services.
pub fn is_store(l: &Located) -> bool {
    l.path.contains("/com.google.android.gms/databases/") && account(l).is_some()
}

/// Google's activity numbers, as far as they are named here.
fn activity(v: &str) -> Option<&'static str> {
    Some(match v {
        "0" => "in a vehicle",
        "1" => "biking",
        "3" => "still",
        "7" => "walking",
        "8" => "running",
        "72" => "sleeping",
        _ => return None,
    })
}

/// One `fitness.db.<account>`.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(account) = account(l) else {
        return Ok(());
    };
    let Some((name, pages)) = super::table_rows(
        ctx,
        l,
        &super::TableSpec {
            what: "Google Fit's fitness.db",
            table: "Sessions",
            required: &["start_time", "end_time"],
            optional: &["app_package", "activity", "name", "description"],
            rows: "Google Fit sessions",
        },
        |_| Vec::new(),
    )?
    else {
        return Ok(());
    };
    for (inv, t, row) in pages.rows() {
        let kind = t.get(row, "activity");
        let word = kind
            .and_then(activity)
            .map(str::to_string)
            .or_else(|| kind.map(|k| format!("activity {k}")))
            .unwrap_or_else(|| "activity not recorded".into());
        let mut d = Draft::new("health", format!("Google Fit session: {word}"));
        d.fact(FactType::Path, Some(&l.path), &l.found);
        d.fact(FactType::Email, Some(account), &l.found);
        let said = d.fields(
            t,
            row,
            inv,
            &[
                ("activity", FactType::Text, "activity (as stored)"),
                ("app_package", FactType::Identifier, "contributing app"),
                ("name", FactType::Text, "name"),
                ("description", FactType::Text, "description"),
            ],
        );
        for (c, what) in [
            ("start_time", "Fitness session started"),
            ("end_time", "Fitness session ended"),
        ] {
            let v = t.get(row, c);
            d.time(v, unix_millis(v), what, inv);
        }
        d.interpretation = format!(
            "Sessions row {} of {name}, the Google Fit store of the account {account}: a {word} session; {}. Times are Unix milliseconds.",
            raw(t, row, "rowid").unwrap_or_default(),
            said.join("; ")
        );
        record_draft(ctx, d)?;
    }
    // the account the store is named after: the phone user's
    let google = crate::identity::normalized(ctx, IdType::GoogleAccount, account).is_some();
    crate::identity::observe_owner_ids(
        ctx,
        &l.found,
        vec![(
            Some(account.to_string()),
            if google {
                IdType::GoogleAccount
            } else {
                IdType::Email
            },
            "Google account",
        )],
        &|w| format!("The {w} Google Fit keeps its store for (the store's file name, {name})."),
    )
}
