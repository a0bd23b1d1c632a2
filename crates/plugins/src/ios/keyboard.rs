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

use masf_agents::RuntimeError;
use masf_graph::FactType;
use serde_json::json;

use super::{Draft, Run, raw};
use crate::drafts::unix_seconds;

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
    })
}
