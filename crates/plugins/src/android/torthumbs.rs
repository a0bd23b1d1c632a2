//! Tor Browser for Android (`org.torproject.torbrowser`, and its alpha
//! `org.torproject.torbrowser_alpha`), ALEAPP's `torThumbs` (`get_torThumbs`): the page
//! thumbnails the browser cached, `cache/mozac_browser_thumbnails/thumbnails/*.0` of the app's
//! data folder (found by the folder's name, then listed with `find_files`).
//!
//! | source | phenomenon | fields |
//! |---|---|---|
//! | `cache/mozac_browser_thumbnails/thumbnails/<key>.0` | one `web` per cached thumbnail ("Tor Browser thumbnail <key>") | path, size, the cache key (the file's name without `.0`); written (the listing's modified time) |
//!
//! Mozilla's Android Components (on which Tor Browser for Android is built) keep a small image
//! of each tab's page in a disk LRU cache, one file per key (the `.0` is the cache's first value
//! of the entry; the key is the id of the tab or request the image was made for, not matched to
//! a tab here): a thumbnail says a page was open in a tab of the browser when it was taken,
//! and its modified time when that was — the page is what the image shows, which is not decoded
//! here (the examiner opens the file: a plain image without an extension, in the format the
//! release wrote).
//! The cache is pruned as tabs close and its size limit is reached: what is left is a sample,
//! not a history. The cache's `journal` (keys written and removed) is not read. The same folder
//! of other browsers built on Android Components (Firefox, Focus) is not listed: only the Tor
//! Browser packages' folders are. More than [`super::MAX_ROWS`] thumbnails are noted. No folder,
//! no thumbnails: nothing is noted. Identities: none.

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::FactType;
use serde_json::json;

use super::Located;
use crate::drafts::{Draft, record_draft};
use crate::identity::{args_on, artefact_name};

/// The stable release's data folder name.
pub const PACKAGE: &str = "org.torproject.torbrowser";
/// The alpha release's.
pub const ALPHA: &str = "org.torproject.torbrowser_alpha";

/// The thumbnails' folder below the data folder.
const THUMBNAILS: &str = "cache/mozac_browser_thumbnails/thumbnails";

/// Whether `l` is a Tor Browser data folder.
pub fn is_app_dir(l: &Located) -> bool {
    matches!(l.path.rsplit('/').next(), Some(PACKAGE | ALPHA))
}

/// Whether `path` is a thumbnail of Tor Browser's cache (for `categorise`).
pub fn is_thumbnail_path(path: &str) -> bool {
    path.ends_with(".0")
        && [PACKAGE, ALPHA]
            .iter()
            .any(|p| path.contains(&format!("/{p}/{THUMBNAILS}/")))
}

/// One Tor Browser data folder: its cached thumbnails.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let dir = format!("{}/{THUMBNAILS}", l.path.trim_end_matches('/'));
    let listing = ctx.call(
        "find_files",
        args_on(
            &l.tree,
            json!({"path": dir, "name_globs": ["*.0"], "limit": super::MAX_ROWS + 1}),
        ),
    )?;
    if !crate::calls::succeeded(&listing) {
        // no thumbnails folder (a browser never run, a cache cleared): nothing to read
        return Ok(());
    }
    let files = crate::outputs::listed_files(&listing.output.text);
    let prefix = format!("{dir}/");
    let app = if l.path.ends_with(ALPHA) {
        "Tor Browser Alpha"
    } else {
        "Tor Browser"
    };
    for (i, f) in files.iter().enumerate() {
        if i as u64 >= super::MAX_ROWS {
            ctx.unparsed(
                &artefact_name(&l.tree, &dir),
                &format!(
                    "more than {} thumbnails; the first {} were recorded",
                    super::MAX_ROWS,
                    super::MAX_ROWS
                ),
                Some(&listing.record.invocation_id),
            )?;
            break;
        }
        // only the folder's own files (a key's name, `.0`), not deeper ones
        let Some(name) = f.path.strip_prefix(&prefix).filter(|n| !n.contains('/')) else {
            continue;
        };
        let key = name.strip_suffix(".0").unwrap_or(name);
        let mut d = Draft::new("web", format!("{app} thumbnail {key}"));
        d.fact(FactType::Path, Some(&f.path), &listing);
        d.fact(FactType::Count, Some(&f.size), &listing);
        d.fact(FactType::Identifier, Some(key), &listing);
        let (value, encoding) = super::fishingnet::listed_modified(f);
        d.time(
            value,
            encoding,
            &format!("{app} page thumbnail written"),
            &listing,
        );
        d.interpretation = format!(
            "{}: an image {app} cached of the page shown in one of its tabs ({} bytes; cache key {key}, the tab's or request's id, not matched to a tab here), written {}; the page is what the image shows (not decoded here). A thumbnail says the page was open in the browser then, not how long or by whom.",
            f.path,
            f.size,
            value.unwrap_or("at a time the listing does not give"),
        );
        record_draft(ctx, d)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thumbnail_paths() {
        assert!(is_thumbnail_path(
            "/data/data/org.torproject.torbrowser/cache/mozac_browser_thumbnails/thumbnails/3f1c.0"
        ));
        assert!(is_thumbnail_path(
            "/data/user/0/org.torproject.torbrowser_alpha/cache/mozac_browser_thumbnails/thumbnails/x.0"
        ));
        assert!(!is_thumbnail_path(
            "/data/data/org.mozilla.firefox/cache/mozac_browser_thumbnails/thumbnails/x.0"
        ));
    }
}
