//! Spotlight's cache of item texts (`mobile/Library/Spotlight/CoreSpotlight/
//! NSFileProtectionCompleteUntilFirstUserAuthentication/index.spotlightV2/Cache/<folder>/<n>.txt`,
//! and the same under CoreSpotlight's other protection-class folders), iLEAPP's `spotlightIndex`
//! ("Spotlight Index Cache V2"): the text content Spotlight extracted from items apps gave it to
//! index (messages, mail, notes, documents, web pages …) and kept as plain text files.
//!
//! | file | phenomenon | fields |
//! |---|---|---|
//! | `Cache/<folder>/<name>.txt` (found with `find_files`, read with `read_text`) | one `files` per file ("Spotlight cached text <folder>/<name>") | the path and size (the listing's); each non-blank line of the text, in order (the first [`MAX_LINES`] as facts, the rest counted); when the file was last modified (the listing's) |
//!
//! The index folder is found by the one search (`index.spotlightV2`, kept only below
//! `/Library/Spotlight/CoreSpotlight/`); its `Cache` folder is listed for `*.txt` files one
//! folder deep (the layout iLEAPP reads). What a text proves: that an app gave Spotlight an item
//! holding it to index (often a message or e-mail body, a note, a page's text) and Spotlight kept
//! its text, possibly after the item itself was deleted; the file does not say which app or item
//! it came from (the name is Spotlight's own number), nor when the item was made — the
//! modification time is when Spotlight wrote the file. Lines are read as text (invalid UTF-8
//! shown as U+FFFD); CR line ends are dropped; lines holding NUL bytes are not copied (counted);
//! the first MiB of a file is read (the rest noted). At most [`ENTRY_CAP`] files a folder
//! (noted beyond). Identities: none (a text's names and numbers are not known to be anyone's).

use masf_agents::RuntimeError;
use masf_graph::{FactType, TimeEncoding};
use serde_json::json;

use super::{Draft, ENTRY_CAP, Run};
use crate::outputs::{ListedFile, listed_files};

/// The index folder's name, searched as a folder.
pub const FOLDER: &str = "index.spotlightV2";

/// Lines of one file recorded as facts; the others are counted.
pub const MAX_LINES: usize = 200;

/// Bytes of one file read.
const READ: u64 = 1 << 20;

/// Whether `dir` is a CoreSpotlight index folder of the device's user.
pub fn is_index(dir: &str) -> bool {
    dir.contains("/Library/Spotlight/CoreSpotlight/") && dir.ends_with(&format!("/{FOLDER}"))
}

/// Triage of every CoreSpotlight index's text cache.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    let Some((_, dirs)) = run.find_dirs(FOLDER)? else {
        return Ok(());
    };
    for dir in dirs.iter().filter(|d| is_index(d)) {
        cache(run, &format!("{dir}/Cache"))?;
    }
    Ok(())
}

/// The modified time a listing gives a file, with its encoding.
fn listed_modified(f: &ListedFile) -> (Option<&str>, Option<TimeEncoding>) {
    match f.time("modified") {
        Some(m) if m.ends_with('Z') => (Some(m), Some(TimeEncoding::Iso8601)),
        Some(m) => match m.strip_suffix(" (local)") {
            Some(local) => (Some(local), Some(TimeEncoding::LocalText)),
            None => (None, None),
        },
        None => (None, None),
    }
}

/// The lines of a text worth a fact: (non-blank lines without NUL, in order; lines holding
/// NUL).
fn lines(text: &str) -> (Vec<&str>, usize) {
    let mut kept = Vec::new();
    let mut damaged = 0;
    for l in text.lines() {
        let l = l.strip_suffix('\r').unwrap_or(l);
        if l.contains('\0') {
            damaged += 1;
        } else if !l.trim().is_empty() {
            kept.push(l);
        }
    }
    (kept, damaged)
}

/// One index's `Cache` folder.
fn cache(run: &Run<'_, '_>, dir: &str) -> Result<(), RuntimeError> {
    let listing = run.ctx.call(
        "find_files",
        json!({"path": dir, "name_glob": "*.txt", "limit": 100_000}),
    )?;
    if !crate::calls::succeeded(&listing) {
        // an index without a text cache: nothing to read
        return Ok(());
    }
    let prefix = format!("{dir}/");
    // only `Cache/<folder>/<name>.txt`, the layout Spotlight writes
    let files: Vec<(String, ListedFile)> = listed_files(&listing.output.text)
        .into_iter()
        .filter_map(|f| {
            let rel = f.path.strip_prefix(&prefix)?.to_string();
            (rel.matches('/').count() == 1).then_some((rel, f))
        })
        .collect();
    if files.len() as u64 > ENTRY_CAP {
        run.ctx.unparsed(
            dir,
            &format!(
                "{} cached texts: the first {ENTRY_CAP} were read",
                files.len()
            ),
            Some(&listing.record.invocation_id),
        )?;
    }
    for (rel, f) in files.iter().take(ENTRY_CAP as usize) {
        let Some(inv) = crate::calls::call_or_note(
            run.ctx,
            &f.path,
            "read_text",
            json!({"path": f.path, "length": READ}),
        )?
        else {
            continue;
        };
        crate::calls::note_unread_rest(run.ctx, &f.path, &inv, "read as Spotlight's cached text")?;
        let (kept, damaged) = lines(&inv.output.text);
        let mut d = Draft::new("files", format!("Spotlight cached text {rel}"));
        d.fact(FactType::Path, Some(&f.path), &listing);
        d.fact(FactType::Count, Some(&f.size), &listing);
        for l in kept.iter().take(MAX_LINES) {
            d.fact(FactType::Text, Some(*l), &inv);
        }
        let (value, encoding) = listed_modified(f);
        d.time(value, encoding, "Spotlight cached text written", &listing);
        let rest = kept.len().saturating_sub(MAX_LINES);
        d.interpretation = format!(
            "{}: text Spotlight extracted from an item an app gave it to index and kept in its cache ({} bytes, {} lines with text{}{}); it shows the item held this text, not which app or item it was (the name is Spotlight's own number) nor when the item was made: the modification time{} is when Spotlight wrote the file.",
            f.path,
            f.size,
            kept.len(),
            if rest > 0 {
                format!(", the first {MAX_LINES} recorded, {rest} more counted")
            } else {
                String::new()
            },
            if damaged > 0 {
                format!("; {damaged} lines holding NUL bytes not copied")
            } else {
                String::new()
            },
            value.map(|v| format!(" ({v})")).unwrap_or_default(),
        );
        run.record(d)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_folders_and_lines() {
        assert!(is_index(
            "/private/var/mobile/Library/Spotlight/CoreSpotlight/NSFileProtectionCompleteUntilFirstUserAuthentication/index.spotlightV2"
        ));
        assert!(!is_index(
            "/private/var/mobile/Containers/Data/Application/X/index.spotlightV2"
        ));
        let (kept, damaged) = lines("Hello\r\n\n  \nSee you at 8\nbad\0line\n");
        assert_eq!(kept, vec!["Hello", "See you at 8"]);
        assert_eq!(damaged, 1);
    }
}
