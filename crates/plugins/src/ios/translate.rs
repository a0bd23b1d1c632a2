//! Google Translate on iOS (`Documents/translate.db` of the app's container), iLEAPP's
//! `googleTranslate` (`googleTranslateHistory`, `Starred`, `Tts`): what the user translated.
//!
//! | table | phenomenon | fields |
//! |---|---|---|
//! | `history` | one `messages`-free `web` phenomenon per translation ("Translated with Google Translate: …") | source and target language, the source text, the translation, starred, romanization, when (Unix s or ms, read by size) |
//! | `starred` | one per starred phrase | languages, source text, translation, romanization (no time kept) |
//! | `tts` | one per phrase the app spoke aloud | language, text (the audio itself is not read; its size is) |
//!
//! What was translated is the user's own text or what they wanted to understand (a message in
//! another language): quoted as stored. Columns are taken by name (absent ones NULL); a
//! `translate.db` without `history` is noted. Identities: none.

use masf_agents::RuntimeError;
use masf_graph::FactType;

use super::{Draft, Run};
use crate::drafts::{headline, unix_by_magnitude};

/// Triage of every Google Translate store of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    let Some((find, paths)) = run.find("translate.db")? else {
        return Ok(());
    };
    for path in paths
        .iter()
        .filter(|p| p.ends_with("/Documents/translate.db"))
    {
        let Some(schema) = run.schema(path, &["history", "starred", "tts"])? else {
            continue;
        };
        if !schema.require(run, "history", &["sourcetext"])? {
            continue;
        }
        for (table, what) in [
            ("history", "Translated"),
            ("starred", "Starred translation"),
        ] {
            let cols = schema.columns(table);
            if !cols.contains("sourcetext") {
                continue;
            }
            let c = |col: &str| format!("{} AS {col}", schema.col("h", table, col));
            let sql = format!(
                "SELECT h.rowid AS k, h.sourcetext AS sourcetext, {}, {}, {}, {}, {}, {} FROM {table} h",
                c("sourcelanguage"),
                c("targetlanguage"),
                c("targettext"),
                c("star"),
                c("romanization"),
                c("timestamp"),
            );
            let Some(paged) = run.paged(path, &sql, "k")? else {
                continue;
            };
            for (inv, t, row) in paged.rows() {
                let get = |c: &str| crate::outputs::raw(t, row, c);
                let Some(text) = get("sourcetext") else {
                    continue;
                };
                let mut d = Draft::new(
                    "web",
                    format!("{what} with Google Translate: {}", headline(&text)),
                );
                d.fact(FactType::Path, Some(path), &find);
                d.fact(FactType::Text, Some(&text), inv);
                let mut said = Vec::new();
                for (col, ft, label) in [
                    ("sourcelanguage", FactType::Text, "from"),
                    ("targetlanguage", FactType::Text, "to"),
                    ("targettext", FactType::Text, "translation"),
                    ("romanization", FactType::Text, "romanization"),
                ] {
                    if let Some(v) = get(col).filter(|v| !v.is_empty()) {
                        d.fact(ft, Some(&v), inv);
                        said.push(format!("{label} {v}"));
                    }
                }
                if get("star").as_deref() == Some("1") {
                    d.fact(FactType::Text, Some("1"), inv);
                    said.push("starred".into());
                }
                let at = t.get(row, "timestamp");
                d.time(at, unix_by_magnitude(at), "Text translated", inv);
                d.interpretation = format!(
                    "{table} row {} of {path}: the user translated {text:?} with Google Translate ({}){}",
                    t.get(row, "k").unwrap_or("?"),
                    said.join("; "),
                    if table == "history" {
                        "; timestamp is Unix time (seconds, or milliseconds when that large)."
                    } else {
                        "; the starred list keeps no time."
                    },
                );
                run.record(d)?;
            }
            crate::calls::note_pages_cap(run.ctx, path, &paged, "Google Translate entries")?;
        }
        let tts = schema.columns("tts");
        if !tts.contains("text") {
            continue;
        }
        let sql = format!(
            "SELECT t.rowid AS k, t.text AS text, {} AS language, {} AS audio_bytes FROM tts t",
            schema.col("t", "tts", "language"),
            if tts.contains("audio") {
                "length(t.audio)"
            } else {
                "NULL"
            },
        );
        let Some(paged) = run.paged(path, &sql, "k")? else {
            continue;
        };
        for (inv, t, row) in paged.rows() {
            let get = |c: &str| crate::outputs::raw(t, row, c);
            let Some(text) = get("text") else {
                continue;
            };
            let mut d = Draft::new(
                "web",
                format!("Spoken by Google Translate: {}", headline(&text)),
            );
            d.fact(FactType::Path, Some(path), &find);
            d.fact(FactType::Text, Some(&text), inv);
            d.fact(FactType::Text, get("language").as_deref(), inv);
            d.fact(FactType::Count, get("audio_bytes").as_deref(), inv);
            d.interpretation = format!(
                "tts row {} of {path}: Google Translate spoke {text:?} aloud{} and kept the audio ({} bytes, not read); no time is kept.",
                t.get(row, "k").unwrap_or("?"),
                get("language")
                    .map(|l| format!(" in {l}"))
                    .unwrap_or_default(),
                get("audio_bytes").unwrap_or_else(|| "?".into()),
            );
            run.record(d)?;
        }
        crate::calls::note_pages_cap(run.ctx, path, &paged, "Google Translate spoken phrases")?;
    }
    Ok(())
}
