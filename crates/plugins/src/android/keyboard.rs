//! What the keyboards kept of what the user copied and typed: Gboard's clipboard, its typing
//! caches and sessions (`com.google.android.inputmethod.latin/databases/`), Samsung Keyboard's
//! clipboard (`com.samsung.android.honeyboard/databases/ClipItem.db`) and the system's user
//! dictionary (`com.android.providers.userdictionary/databases/user_dict.db`). ALEAPP's
//! `gboard` (`get_gboardCache`, `_keystrokes`, `_sessions`), `samsung_honeyboard_clipboard`
//! and `userDict`.
//!
//! | store, table | phenomenon | fields |
//! |---|---|---|
//! | `gboard_clipboard.db`, `clips` | one `keyboard` per clip ("Copied to the clipboard (Gboard): …") | text, HTML text, URI of an image clip, pinned, entity type (a link), when (Unix ms) |
//! | `trainingcache2.db`/`trainingcache3.db`, `training_input_events_table` | one per typing event ("Typed in <app> (Gboard): …") | each piece of text (the `_payload` message's field 7 → 2 → 1, decoded by `sqlite_query`'s `protobuf` option), the app, the text box's name and id, when (`f9`, Unix ms) |
//! | the same, older `tf_table` with `s_table` | one per typing session | the text (`f3` of the session's rows in order, joined by the query), the app, the text box, when the first row was written, the session's start and end (Unix ms) |
//! | `trainingcachev3.db`, `session` | one per typing session ("Gboard typing session in <app>") | the app, the session id (its start, Unix ms) and when it was written |
//! | `ClipItem.db`, `clip_table` | one per clip ("Copied to the clipboard (Samsung Keyboard): …"), and one per clip only the write-ahead log or free space still holds ("Deleted clip …", `sqlite_wal_history`) | text, type (1 text, 2 intent, 3 URI, 4 HTML), HTML, URI, MIME type, the app it was copied from (its package, or on older releases its uid as stored), the Android user (150 is the Secure Folder), when (Unix ms) |
//! | `user_dict.db`, `words` | one per word the user added to the dictionary | word, shortcut, frequency, locale, app id |
//!
//! What was copied or typed is the user's own writing (addresses, amounts, wallet addresses,
//! passwords typed in the clear): quoted as stored, never interpreted. Columns are taken by name
//! (absent ones NULL); a store without its table or its key column is noted. Identities: none
//! (who a copied number or address belongs to is not said).

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::FactType;

use super::Located;
use crate::calls::{column_or_null, note_pages_cap};
use crate::drafts::{Draft, headline, record_draft, unix_millis};
use crate::identity::{artefact_name, pages_on, pages_on_args, schema_on};
use crate::outputs::{protobuf_cell, raw};

/// Gboard's folder of stores.
const GBOARD: &str = "/com.google.android.inputmethod.latin/databases/";

/// Whether `l` is one of Gboard's stores this module reads.
pub fn is_gboard(l: &Located) -> bool {
    l.path.contains(GBOARD)
        && matches!(
            l.name(),
            "gboard_clipboard.db"
                | "trainingcache2.db"
                | "trainingcache3.db"
                | "trainingcachev3.db"
        )
}

/// Whether `l` is Samsung Keyboard's clipboard.
pub fn is_samsung_clipboard(l: &Located) -> bool {
    l.name() == "ClipItem.db" && l.path.contains("/com.samsung.android.honeyboard/")
}

/// Whether `l` is the system's user dictionary.
pub fn is_user_dictionary(l: &Located) -> bool {
    l.name() == "user_dict.db" && l.path.contains("/com.android.providers.userdictionary/")
}

/// One of Gboard's stores.
pub fn gboard(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    match l.name() {
        "gboard_clipboard.db" => gboard_clips(ctx, l),
        "trainingcachev3.db" => gboard_sessions(ctx, l),
        _ => gboard_typed(ctx, l),
    }
}

/// `gboard_clipboard.db`: one phenomenon per clip.
fn gboard_clips(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some((name, pages)) = super::table_rows(
        ctx,
        l,
        &super::TableSpec {
            what: "Gboard's gboard_clipboard.db",
            table: "clips",
            required: &["timestamp"],
            optional: &[
                "_id",
                "text",
                "html_text",
                "uri",
                "item_type",
                "entity_type",
            ],
            rows: "Gboard clips",
        },
        |_| Vec::new(),
    )?
    else {
        return Ok(());
    };
    for (inv, t, row) in pages.rows() {
        let shown = raw(t, row, "text")
            .map(|s| headline(&s))
            .or_else(|| raw(t, row, "uri"))
            .unwrap_or_else(|| "a clip".into());
        let mut d = Draft::new(
            "keyboard",
            format!("Copied to the clipboard (Gboard): {shown}"),
        );
        d.fact(FactType::Path, Some(&l.path), &l.found);
        let said = d.fields(
            t,
            row,
            inv,
            &[
                ("text", FactType::Text, "text"),
                ("html_text", FactType::Text, "HTML"),
                ("uri", FactType::Url, "image URI"),
            ],
        );
        let pinned = t.get(row, "item_type") == Some("1");
        let link = t.get(row, "entity_type") == Some("1");
        d.fact(FactType::Text, t.get(row, "item_type"), inv);
        d.fact(FactType::Text, t.get(row, "entity_type"), inv);
        let when = t.get(row, "timestamp");
        d.time(when, unix_millis(when), "Copied to the clipboard", inv);
        d.interpretation = format!(
            "clips row {} of {name}: something the user copied while Gboard was the keyboard ({}){}{}; timestamp is Unix milliseconds. Gboard keeps recent clips for an hour unless pinned.",
            t.get(row, "_id").or(t.get(row, "rowid")).unwrap_or("?"),
            said.join("; "),
            if pinned { ", pinned (item_type 1)" } else { "" },
            if link {
                ", recognised as a link (entity_type 1)"
            } else {
                ""
            },
        );
        record_draft(ctx, d)?;
    }
    Ok(())
}

/// `trainingcache2.db`/`trainingcache3.db`: what was typed, event by event (or session by
/// session in the older `tf_table` layout).
fn gboard_typed(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(schema) = schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    if let Some(cols) = schema.get("training_input_events_table") {
        if !crate::calls::require_columns(
            ctx,
            &name,
            "Gboard's typing cache",
            "training_input_events_table",
            cols,
            &["_payload"],
        )? {
            return Ok(());
        }
        let c = |col: &str, alias: &str| column_or_null(cols, "", col, alias);
        let sql = format!(
            "SELECT rowid AS rowid, {}, {}, {}, {}, {}, _payload FROM training_input_events_table ORDER BY {}rowid",
            c("_id", "id"),
            c("f2", "app"),
            c("f4", "field"),
            c("f5", "field_id"),
            c("f9", "time"),
            if cols.contains("f9") { "f9, " } else { "" },
        );
        let mut extra = serde_json::Map::new();
        extra.insert("protobuf".into(), serde_json::json!(true));
        let Some(pages) = pages_on_args(ctx, &l.tree, &l.path, &sql, &extra)? else {
            return Ok(());
        };
        note_pages_cap(ctx, &name, &pages, "Gboard typing events")?;
        for (inv, t, row) in pages.rows() {
            let message = t.get(row, "_payload").and_then(protobuf_cell);
            let pieces: Vec<String> = message
                .as_ref()
                .and_then(|m| m.get("7"))
                .and_then(|v| v.as_array())
                .into_iter()
                .flatten()
                .filter_map(|f7| f7.get("2").and_then(|v| v.as_array()))
                .flatten()
                .filter_map(|f2| f2.get("1").and_then(|v| v.as_array()))
                .flatten()
                .filter_map(|v| v.as_str().map(str::to_string))
                .collect();
            if pieces.is_empty() {
                continue;
            }
            let text = pieces.concat();
            let app = raw(t, row, "app").unwrap_or_else(|| "an app".into());
            let mut d = Draft::new(
                "keyboard",
                format!("Typed in {app} (Gboard): {}", headline(&text)),
            );
            d.fact(FactType::Path, Some(&l.path), &l.found);
            for p in &pieces {
                d.fact(FactType::Text, Some(p), inv);
            }
            let said = d.fields(
                t,
                row,
                inv,
                &[
                    ("app", FactType::Name, "app"),
                    ("field", FactType::Text, "text box"),
                    ("field_id", FactType::Identifier, "text box id"),
                ],
            );
            let when = t.get(row, "time");
            d.time(when, unix_millis(when), "Text typed", inv);
            d.interpretation = format!(
                "training_input_events_table row {} of {name}: text the user typed with Gboard, kept to train its suggestions ({}); the text is the event message's field 7 → 2 → 1 ({} piece(s), joined in the title); f9 is Unix milliseconds.",
                t.get(row, "id").or(t.get(row, "rowid")).unwrap_or("?"),
                said.join("; "),
                pieces.len(),
            );
            record_draft(ctx, d)?;
        }
        return Ok(());
    }
    let (Some(tf), Some(s)) = (schema.get("tf_table"), schema.get("s_table")) else {
        ctx.unparsed(
            &name,
            "not Gboard's typing cache: neither training_input_events_table nor tf_table with s_table",
            None,
        )?;
        return Ok(());
    };
    if !crate::calls::require_columns(
        ctx,
        &name,
        "Gboard's typing cache",
        "tf_table",
        tf,
        &["f1", "f3"],
    )? || !crate::calls::require_columns(
        ctx,
        &name,
        "Gboard's typing cache",
        "s_table",
        s,
        &["f1"],
    )? {
        return Ok(());
    }
    let sc = |col: &str, alias: &str| column_or_null(s, "s.", col, alias);
    let first = if tf.contains("_timestamp") {
        "min(_timestamp)"
    } else {
        "NULL"
    };
    let sql = format!(
        "SELECT x.f1 AS session, x.text, x.first AS time, {}, {}, {}, {}, {} FROM (SELECT f1, group_concat(f3, '') AS text, {first} AS first FROM (SELECT * FROM tf_table ORDER BY rowid) GROUP BY f1) x LEFT JOIN s_table s ON s.f1 = x.f1 ORDER BY x.first, x.f1",
        sc("_id", "id"),
        sc("f7", "field"),
        sc("f8", "app"),
        sc("f10", "start"),
        sc("f11", "end"),
    );
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, &name, &pages, "Gboard typing sessions")?;
    for (inv, t, row) in pages.rows() {
        let Some(text) = raw(t, row, "text").filter(|s| !s.is_empty()) else {
            continue;
        };
        let app = raw(t, row, "app").unwrap_or_else(|| "an app".into());
        let mut d = Draft::new(
            "keyboard",
            format!("Typed in {app} (Gboard): {}", headline(&text)),
        );
        d.fact(FactType::Path, Some(&l.path), &l.found);
        d.fact(FactType::Text, Some(&text), inv);
        let said = d.fields(
            t,
            row,
            inv,
            &[
                ("app", FactType::Name, "app"),
                ("field", FactType::Text, "text box"),
                ("session", FactType::Identifier, "session"),
            ],
        );
        d.times_of(
            t,
            row,
            inv,
            unix_millis,
            &[
                ("time", "Text typed"),
                ("start", "Typing session started"),
                ("end", "Typing session ended"),
            ],
        );
        d.interpretation = format!(
            "tf_table rows of session {} of {name}: text the user typed with Gboard, kept to train its suggestions ({}); the text is the session's f3 values in order, joined by the query; times are Unix milliseconds.",
            t.get(row, "session").unwrap_or("?"),
            said.join("; "),
        );
        record_draft(ctx, d)?;
    }
    Ok(())
}

/// `trainingcachev3.db`: one phenomenon per typing session (which app, when).
fn gboard_sessions(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some((name, pages)) = super::table_rows(
        ctx,
        l,
        &super::TableSpec {
            what: "Gboard's trainingcachev3.db",
            table: "session",
            required: &["_session_id"],
            optional: &["package_name", "_timestamp_"],
            rows: "Gboard typing sessions",
        },
        |_| Vec::new(),
    )?
    else {
        return Ok(());
    };
    for (inv, t, row) in pages.rows() {
        let app = raw(t, row, "package_name").unwrap_or_else(|| "an app".into());
        let mut d = Draft::new("keyboard", format!("Gboard typing session in {app}"));
        d.fact(FactType::Path, Some(&l.path), &l.found);
        d.fact(FactType::Name, raw(t, row, "package_name").as_deref(), inv);
        d.times_of(
            t,
            row,
            inv,
            unix_millis,
            &[
                ("_session_id", "Typing session started"),
                ("_timestamp_", "Typing session written"),
            ],
        );
        d.interpretation = format!(
            "session row {} of {name}: the user typed with Gboard in {app}; _session_id is the session's start and _timestamp_ when it was written, both Unix milliseconds. The text itself is not in this table.",
            t.get(row, "rowid").unwrap_or("?"),
        );
        record_draft(ctx, d)?;
    }
    Ok(())
}

/// What a ClipData type code means.
fn clip_type(code: Option<&str>) -> Option<&'static str> {
    match code? {
        "1" => Some("text"),
        "2" => Some("intent"),
        "3" => Some("URI"),
        "4" => Some("HTML"),
        _ => None,
    }
}

/// The clip columns Samsung Keyboard's `clip_table` is read by.
const SAMSUNG_CLIP: &[(&str, FactType, &str)] = &[
    ("text", FactType::Text, "text"),
    ("html", FactType::Text, "HTML"),
    ("uri", FactType::Url, "URI"),
    ("mime_type", FactType::Text, "MIME type"),
    ("caller_package_name", FactType::Name, "copied from"),
    (
        "caller_app_uid",
        FactType::Identifier,
        "copied from app uid",
    ),
    ("user_id", FactType::Identifier, "Android user"),
];

/// Samsung Keyboard's `ClipItem.db`: live clips, then the clips only earlier page versions hold.
pub fn samsung_clipboard(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some((name, pages)) = super::table_rows(
        ctx,
        l,
        &super::TableSpec {
            what: "Samsung Keyboard's ClipItem.db",
            table: "clip_table",
            required: &["time_stamp"],
            optional: &[
                "id",
                "type",
                "text",
                "html",
                "uri",
                "mime_type",
                "caller_package_name",
                "caller_app_uid",
                "user_id",
            ],
            rows: "Samsung Keyboard clips",
        },
        |_| Vec::new(),
    )?
    else {
        return Ok(());
    };
    for (inv, t, row) in pages.rows() {
        let mut d = samsung_clip(l, t, row, inv, "");
        d.interpretation = format!(
            "clip_table row {} of {name}: something the user copied while Samsung Keyboard was the keyboard ({}); time_stamp is Unix milliseconds; user 150 is the Secure Folder.",
            t.get(row, "id").or(t.get(row, "rowid")).unwrap_or("?"),
            clip_said(t, row),
        );
        record_draft(ctx, d)?;
    }
    let Some((inv, t)) = crate::recovered::wal_rows_on(ctx, &l.tree, &l.path, "clip_table", &[])?
    else {
        return Ok(());
    };
    for row in &t.rows {
        let word = crate::recovered::title_word(t.get(row, "status"));
        let mut d = samsung_clip(l, &t, row, &inv, word);
        d.interpretation = format!(
            "clip_table row {} of {name}: a clip copied with Samsung Keyboard ({}) that {}; time_stamp is Unix milliseconds.",
            crate::recovered::key(&t, row, "id"),
            clip_said(&t, row),
            crate::recovered::provenance(&t, row),
        );
        record_draft(ctx, d)?;
    }
    Ok(())
}

/// One Samsung Keyboard clip, live (`word` empty) or recovered.
fn samsung_clip(
    l: &Located,
    t: &crate::outputs::Table,
    row: &[Option<String>],
    inv: &masf_tools::Invoked,
    word: &str,
) -> Draft {
    let shown = raw(t, row, "text")
        .map(|s| headline(&s))
        .or_else(|| raw(t, row, "uri"))
        .unwrap_or_else(|| "a clip".into());
    let title = if word.is_empty() {
        format!("Copied to the clipboard (Samsung Keyboard): {shown}")
    } else {
        format!("{word} clip of Samsung Keyboard: {shown} (recovered)")
    };
    let mut d = Draft::new("keyboard", title);
    d.fact(FactType::Path, Some(&l.path), &l.found);
    d.fields(t, row, inv, SAMSUNG_CLIP);
    d.fact(FactType::Text, t.get(row, "type"), inv);
    let when = t.get(row, "time_stamp");
    d.time(when, unix_millis(when), "Copied to the clipboard", inv);
    d
}

/// The clip's values for an interpretation.
fn clip_said(t: &crate::outputs::Table, row: &[Option<String>]) -> String {
    let mut said: Vec<String> = Vec::new();
    if let Some(kind) = clip_type(t.get(row, "type")) {
        said.push(format!("type {kind}"));
    }
    for (col, _, label) in SAMSUNG_CLIP {
        if let Some(v) = raw(t, row, col).filter(|v| !v.trim().is_empty()) {
            said.push(format!("{label} {v}"));
        }
    }
    said.join("; ")
}

/// `user_dict.db`: one phenomenon per word the user added.
pub fn user_dictionary(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some((name, pages)) = super::table_rows(
        ctx,
        l,
        &super::TableSpec {
            what: "the user dictionary user_dict.db",
            table: "words",
            required: &["word"],
            optional: &["_id", "shortcut", "frequency", "locale", "appid"],
            rows: "user dictionary words",
        },
        |_| Vec::new(),
    )?
    else {
        return Ok(());
    };
    for (inv, t, row) in pages.rows() {
        let Some(word) = raw(t, row, "word") else {
            continue;
        };
        let mut d = Draft::new(
            "keyboard",
            format!("Word added to the user dictionary: {word}"),
        );
        d.fact(FactType::Path, Some(&l.path), &l.found);
        d.fact(FactType::Text, Some(&word), inv);
        let said = d.fields(
            t,
            row,
            inv,
            &[
                ("shortcut", FactType::Text, "shortcut"),
                ("frequency", FactType::Count, "frequency"),
                ("locale", FactType::Text, "locale"),
                ("appid", FactType::Identifier, "app id"),
            ],
        );
        d.interpretation = format!(
            "words row {} of {name}: a word the user (or an app for them) added to the system's personal dictionary, so keyboards suggest it ({}); the table keeps no time.",
            t.get(row, "_id").or(t.get(row, "rowid")).unwrap_or("?"),
            if said.is_empty() {
                "no other value".to_string()
            } else {
                said.join("; ")
            },
        );
        record_draft(ctx, d)?;
    }
    Ok(())
}
