//! Saved web pages (MHTML archives, `*.mhtml`, `*.mht`) anywhere on the iPhone, iLEAPP's
//! `offlinePages` ("Offline Pages (MHTML)"): the page's address (`Snapshot-Content-Location`),
//! its title (`Subject`), its `Date` and the program that saved it (`From`), with the file's
//! size and last modification. A Chromium browser (Chrome, Edge, Brave) saves pages so, and a
//! page saved elsewhere and copied to the phone (Files, iCloud Drive, a mail attachment kept)
//! is one too.
//!
//! | file | phenomenon | fields |
//! |---|---|---|
//! | `*.mhtml`, `*.mht` (`read_text`, the first 1024 bytes) | one `web` per archive ("Saved web page <URL>", else "… <file name>") | address, title (as written; an RFC 2047 encoded word decoded in the interpretation), `Date` as written, `From`, the file's size and last modification (from the listing that found it) |
//!
//! Read exactly as on Android ([`crate::android::offlinepages`]'s `archive`, shared): only the
//! MIME header, never the page's parts; `Date` is text as written (no time encoding), the
//! file's modification time stands for when it was written (iLEAPP takes that time alone). A
//! file of those names with no `Snapshot-Content-Location` header nor `multipart/related`
//! content (an HTML page so named) is noted, as is a header running past the bytes read. The
//! names are searched case-sensitively, as iLEAPP's and ALEAPP's globs are. No identity (a
//! saved page names no person). Safari's web archives (`.webarchive`, a property list) are
//! another format, not read here.

use masf_agents::RuntimeError;

use super::Run;

/// Triage of every saved web page of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    let tree = crate::identity::TreeRef {
        partition: None,
        label: "/".into(),
    };
    for glob in ["*.mhtml", "*.mht"] {
        let Some((find, paths)) = run.find(glob)? else {
            continue;
        };
        for path in paths {
            crate::mhtml::archive(run.ctx, &tree, &path, &find)?;
        }
    }
    Ok(())
}
