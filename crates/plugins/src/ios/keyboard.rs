//! The keyboard's learned words and typing statistics (`…/Library/Keyboard/`):
//!
//! - `<language>-dynamic.lm/dynamic-lexicon.dat` (`DynamicDictionary-9`): the words the user
//!   typed that the keyboard learned — names, places, slang — read with `strings` (runs of three
//!   or more printable characters, as iLEAPP's `keyboardLexicon` reads them), one phenomenon
//!   per file with every word. The format's entry headers are binary; where iLEAPP glues a
//!   header byte to the word that follows (`N.2mo`) because it decodes the file as UTF-8 and
//!   drops what is not, the word is recorded alone (`2mo`).
//! - `user_model_database.sqlite` (`usermodeldurablerecords`, with its `-wal`: on some devices
//!   the rows exist only there): totals of words typed, autocorrected, swiped (pathed) and taken
//!   from the candidate bar, with their creation and last-update times (Unix seconds), as
//!   iLEAPP's `keyboardUsageStats`.
//! - `app_usage_database.plist`: for each app, the sessions the keyboard was up in it — the
//!   start (a plist date), the app time and the keyboard times as stored (their units are not
//!   documented), as iLEAPP's `keyboardAppUsage`; one phenomenon per session.
//! - `AutocorrectionRejections.db` (iOS 17+): `rejections` (what the user typed and the
//!   autocorrection performed or rejected) and `inline_completion_rejections` (the same for
//!   inline completions): typed text, correction, hard and soft rejection counts, hard
//!   acceptances, journaled, the last hard and soft rejection (Unix seconds; the schema's
//!   default -1e10 is no time), as iLEAPP's `keyboardAutocorrectionRejections` and
//!   `keyboardInlineCompletionRejections`. What the user typed, word for word.
//! - `VulgarWordUsage.db` (`vword_usage`): a vulgar word the user typed, its reading, the app
//!   and recipient, the count and the last use (Cocoa seconds, 0 none), as iLEAPP's
//!   `keyboardVulgarWordUsage`.
//!
//! Schema drift: a table without its text columns is noted; other columns are read where
//! present. Identities: none observed (a vulgar word's recipient is recorded as stored).

use masf_agents::RuntimeError;
use masf_graph::{FactType, TimeEncoding};
use masf_tools::Invoked;
use serde_json::{Value, json};

use super::plists::parse;
use super::{Draft, ENTRY_CAP, Run, raw};
use crate::calls::column_or_null;
use crate::drafts::{apple_seconds, unix_seconds};
use crate::outputs::{in_json, json_scalar};

/// The format's magic, which is no word.
const MAGIC: &str = "DynamicDictionary-9";

/// Triage of the keyboard's lexicons and usage statistics.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    run.each("dynamic-lexicon.dat", |find, path| {
        let Some(inv) = crate::calls::call_or_note(
            run.ctx,
            path,
            "strings",
            json!({"path": path, "min_len": 3}),
        )?
        else {
            return Ok(());
        };
        let words: Vec<&str> = inv
            .output
            .text
            .lines()
            .filter_map(|l| l.split_once('\t').map(|(_, w)| w))
            .filter(|w| *w != MAGIC)
            .collect();
        let language = path
            .rsplit('/')
            .nth(1)
            .and_then(|d| d.strip_suffix("-dynamic.lm"))
            .unwrap_or("?");
        let mut d = Draft::new(
            "keyboard",
            format!(
                "Keyboard lexicon ({language}): {} learned words",
                words.len()
            ),
        );
        d.fact(FactType::Path, Some(path), find);
        for w in &words {
            d.fact(FactType::Text, Some(w), &inv);
        }
        d.interpretation = format!(
            "{path}: the {language} keyboard learned these words from what the user typed \
(text runs of the DynamicDictionary file): {}.",
            words.join(", ")
        );
        run.record(d)
    })?;
    run.each("user_model_database.sqlite", |find, path| {
        let Some(schema) = run.schema(path, &["usermodeldurablerecords"])? else {
            return Ok(());
        };
        if !schema.require(
            run,
            "usermodeldurablerecords",
            &["key", "value", "creation_date", "last_update_date"],
        )? {
            return Ok(());
        }
        let sql = "SELECT rowid AS rid, key, value, creation_date AS created, last_update_date AS updated FROM usermodeldurablerecords";
        let Some(paged) = run.paged(path, sql, "rowid")? else {
            return Ok(());
        };
        for (inv, t, row) in paged.rows() {
            let key = raw(t, row, "key").unwrap_or_default();
            let value = raw(t, row, "value");
            let mut d = Draft::new("keyboard", format!("Keyboard statistic {key}"));
            d.fact(FactType::Path, Some(path), find);
            d.fact(FactType::Identifier, Some(&key), inv);
            d.fact(FactType::Count, value.as_deref(), inv);
            let created = t.get(row, "created");
            d.time(created, unix_seconds(created), "Statistic first counted", inv);
            let updated = t.get(row, "updated");
            d.time(updated, unix_seconds(updated), "Statistic last updated", inv);
            d.interpretation = format!(
                "{path}: the keyboard's durable statistic {key} is {} (times are Unix seconds, unix_seconds).",
                value.as_deref().unwrap_or("?")
            );
            run.record(d)?;
        }
        Ok(())
    })?;
    run.each("app_usage_database.plist", |find, path| {
        app_usage(run, find, path)
    })?;
    run.each("AutocorrectionRejections.db", |find, path| {
        rejections(run, find, path)
    })?;
    run.each("VulgarWordUsage.db", |find, path| vulgar(run, find, path))
}

/// `app_usage_database.plist`: one phenomenon per keyboard session in an app.
fn app_usage(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let Some((inv, v)) = parse(run, path)? else {
        return Ok(());
    };
    let Some(apps) = v.as_object().filter(|o| o.values().all(Value::is_array)) else {
        run.ctx.unparsed(
            path,
            "unexpected content: not a dictionary of apps, each with a list of sessions",
            Some(&inv.record.invocation_id),
        )?;
        return Ok(());
    };
    let mut count = 0u64;
    for (app, sessions) in apps {
        for s in sessions.as_array().into_iter().flatten() {
            count += 1;
            if count > ENTRY_CAP {
                run.ctx.unparsed(
                    path,
                    &format!("more than {ENTRY_CAP} sessions; the first {ENTRY_CAP} were recorded"),
                    Some(&inv.record.invocation_id),
                )?;
                return Ok(());
            }
            let start = s.get("startDate").and_then(Value::as_str).map(in_json);
            let app_time = json_scalar(s.get("appTime"));
            let keyboard: Vec<String> = s
                .get("keyboardTimes")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(|t| json_scalar(Some(t)))
                .collect();
            let mut d = Draft::new("keyboard", format!("Keyboard used in {app}"));
            d.fact(FactType::Path, Some(path), find);
            d.fact(FactType::Identifier, Some(&in_json(app)), &inv);
            d.fact(FactType::Text, app_time.as_deref(), &inv);
            for t in &keyboard {
                d.fact(FactType::Text, Some(t), &inv);
            }
            d.time(
                start.as_deref(),
                start.as_ref().map(|_| TimeEncoding::Iso8601),
                "Keyboard session started",
                &inv,
            );
            d.interpretation = format!(
                "{path}: a session of the keyboard in {app}, started {}; app time {} and keyboard times [{}] as stored (their units are not documented).",
                start.as_deref().unwrap_or("at no recorded time"),
                app_time.as_deref().unwrap_or("not recorded"),
                keyboard.join(", ")
            );
            run.record(d)?;
        }
    }
    Ok(())
}

/// `AutocorrectionRejections.db`: one phenomenon per row of its two tables.
fn rejections(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    const TABLES: [(&str, &str); 2] = [
        ("rejections", "autocorrection"),
        ("inline_completion_rejections", "inline completion"),
    ];
    let Some(schema) = run.schema(path, &TABLES.map(|(t, _)| t))? else {
        return Ok(());
    };
    if TABLES.iter().all(|(t, _)| schema.columns(t).is_empty()) {
        // neither table: noted as the missing rejections table
        schema.require(run, "rejections", &["typed", "correction"])?;
        return Ok(());
    }
    for (table, what) in TABLES {
        if schema.columns(table).is_empty()
            || !schema.require(run, table, &["typed", "correction"])?
        {
            continue;
        }
        let c = schema.columns(table);
        let time = |col: &str| {
            if c.contains(col) {
                format!("CASE WHEN {col} > 0 THEN {col} END AS {col}")
            } else {
                format!("NULL AS {col}")
            }
        };
        let mut cols = vec![
            "rowid AS rid".to_string(),
            "typed".to_string(),
            "correction".to_string(),
        ];
        cols.extend(
            [
                "hard_rejections",
                "soft_rejections",
                "performed_count",
                "journaled",
            ]
            .map(|n| column_or_null(&c, "", n, n)),
        );
        cols.push(time("last_hard_rejection"));
        cols.push(time("last_soft_rejection"));
        let sql = format!("SELECT {} FROM {table}", cols.join(", "));
        let Some(paged) = run.paged(path, &sql, "rowid")? else {
            continue;
        };
        for (inv, t, row) in paged.rows() {
            let typed = raw(t, row, "typed").unwrap_or_default();
            let correction = raw(t, row, "correction").unwrap_or_default();
            let mut d = Draft::new(
                "keyboard",
                format!("Keyboard {what}: typed \"{typed}\", offered \"{correction}\""),
            );
            d.fact(FactType::Path, Some(path), find);
            let said = d.fields(
                t,
                row,
                inv,
                &[
                    ("typed", FactType::Text, "typed"),
                    ("correction", FactType::Text, what),
                    ("hard_rejections", FactType::Count, "hard rejections"),
                    ("soft_rejections", FactType::Count, "soft rejections"),
                    ("performed_count", FactType::Count, "hard acceptances"),
                    ("journaled", FactType::Text, "journaled"),
                ],
            );
            for (col, mark) in [
                ("last_hard_rejection", "Last hard rejection"),
                ("last_soft_rejection", "Last soft rejection"),
            ] {
                let v = t.get(row, col);
                d.time(v, unix_seconds(v), mark, inv);
            }
            let rid = raw(t, row, "rid").unwrap_or_default();
            d.interpretation = format!(
                "{table} row {rid} of {path}: the user typed text the keyboard met with an {what} ({}). The database's own schema calls typed \"originally typed by the user\" and the correction the {what} \"performed or rejected\": a row alone does not say which. Times are Unix seconds; the default -1e10 is no time.",
                said.join("; ")
            );
            run.record(d)?;
        }
    }
    Ok(())
}

/// `VulgarWordUsage.db`: one phenomenon per vulgar word used.
fn vulgar(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let Some(schema) = run.schema(path, &["vword_usage"])? else {
        return Ok(());
    };
    if !schema.require(run, "vword_usage", &["vword"])? {
        return Ok(());
    }
    let c = schema.columns("vword_usage");
    let mut cols = vec!["rowid AS rid".to_string(), "vword".to_string()];
    cols.extend(
        [
            "word_reading",
            "app",
            "recipient",
            "usage_count",
            "journaled",
        ]
        .map(|n| column_or_null(&c, "", n, n)),
    );
    cols.push(if c.contains("last_use_timestamp") {
        "CASE WHEN last_use_timestamp > 0 THEN last_use_timestamp END AS last_used".to_string()
    } else {
        "NULL AS last_used".to_string()
    });
    let sql = format!("SELECT {} FROM vword_usage", cols.join(", "));
    let Some(paged) = run.paged(path, &sql, "rowid")? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        let word = raw(t, row, "vword").unwrap_or_default();
        let mut d = Draft::new("keyboard", format!("Keyboard vulgar word used: {word}"));
        d.fact(FactType::Path, Some(path), find);
        let said = d.fields(
            t,
            row,
            inv,
            &[
                ("vword", FactType::Text, "word"),
                ("word_reading", FactType::Text, "reading"),
                ("app", FactType::Identifier, "app"),
                ("recipient", FactType::Identifier, "recipient"),
                ("usage_count", FactType::Count, "uses"),
                ("journaled", FactType::Text, "journaled"),
            ],
        );
        let last = t.get(row, "last_used");
        d.time(last, apple_seconds(last), "Vulgar word last used", inv);
        let rid = raw(t, row, "rid").unwrap_or_default();
        d.interpretation = format!(
            "vword_usage row {rid} of {path}: a word the keyboard counts as vulgar, typed by the user ({}). The last use is Cocoa seconds since 2001 (0: none).",
            said.join("; ")
        );
        run.record(d)?;
    }
    Ok(())
}
