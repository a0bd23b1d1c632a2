//! Playground AppLocker (`playground.develop.applocker`, a build of the open-source AppLocker
//! whose vault encrypts with Facebook's Conceal), ALEAPP's `playgroundVault`: the files the
//! user moved into the app's vault, kept on the shared storage under `applocker/vault/`, and
//! the key file Conceal keeps beside the app's preferences.
//!
//! | store | phenomenon | fields |
//! |---|---|---|
//! | `applocker/vault/*` (the `applocker` folder found by its name, listed with `find_files`) | one `files` per vault file ("Hidden in Playground AppLocker: EIF<ms>", "Preview in Playground AppLocker's vault: PREVIEW_EIF<ms>") | path, name, what it is (picture `EIF`, video `EVF`, a preview `PREVIEW_` of one), size; when it was hidden (the Unix milliseconds of its name), the file system's modified time |
//! | `applocker/intruders/*` | one `files` per photo ("Intruder photo taken by Playground AppLocker: <name>") | path, name, size; when taken (the Unix milliseconds of its `IMG_<ms>.jpeg` name), modified time |
//! | `playground.develop.applocker/shared_prefs/crypto.KEY_256.xml` | one `apps` ("Playground AppLocker vault key file present") | path, size, modified time, as the artefact search listed the file |
//!
//! The app names each vault file `EIF` (an image) or `EVF` (a video) and the current time in
//! Unix milliseconds when it encrypts it, and its preview `PREVIEW_` and that name (the app's
//! open-source `VaultRepository`): the number is when the file was hidden, the name's digits
//! quoted as the fact; a name of another shape gives no such time. The files are Conceal's output
//! (a 2-byte header, a 12-byte IV, the AES-GCM ciphertext, a 16-byte tag): not decoded here, so
//! what they show is not said; one shorter than 30 bytes cannot hold even an empty file and is
//! noted as truncated. The original paths are in the app's own database, not read by ALEAPP's
//! module and not here. The intruder feature's photos are of whoever failed to unlock the app
//! (the app's `applocker/intruders/` folder, each named `IMG_` and the Unix
//! milliseconds when taken): listed, not decoded.
//!
//! Conceal keeps the vault's AES key in the clear in `crypto.KEY_256.xml` (`cipher_key`): the file
//! is never read — the key never enters a call's output or the record — and only said to be
//! there (from the artefact search's listing), the examiner's lead to decrypting the files.
//! An `applocker` folder without `vault/` or `intruders/` (another app's) is passed over; a
//! listing cut at its limit is noted. Identities: none.

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::FactType;
use serde_json::json;

use super::Located;
use super::fishingnet::listed_modified;
use crate::calls::call_or_note;
use crate::drafts::{Draft, record_draft, unix_millis};
use crate::identity::{args_on, artefact_name};
use crate::outputs::{ListedFile, listed_files};

/// The app's folder on the shared storage.
pub const DIR: &str = "applocker";

/// Most entries the folder's listing returns.
const LIST_LIMIT: u64 = 20_000;

/// The least a Conceal file holds: header (2), IV (12) and tag (16) around no ciphertext.
const CONCEAL_MIN: u64 = 30;

/// Whether `l` is a folder named like the app's.
pub fn is_app_dir(l: &Located) -> bool {
    l.path.rsplit('/').next() == Some(DIR)
}

/// Whether `l` is Conceal's key file of the app.
pub fn is_key(l: &Located) -> bool {
    l.name() == "crypto.KEY_256.xml"
        && l.path
            .contains("/playground.develop.applocker/shared_prefs/")
}

/// What a vault file is by its name (picture, video, a preview of one, another file) and the
/// Unix milliseconds its name holds.
fn kind_of(name: &str) -> (&'static str, Option<&str>) {
    let (preview, rest) = match name.strip_prefix("PREVIEW_") {
        Some(r) => (true, r),
        None => (false, name),
    };
    let (kind, digits) = if let Some(d) = rest.strip_prefix("EIF") {
        (
            if preview {
                "the preview of a picture"
            } else {
                "a picture"
            },
            d,
        )
    } else if let Some(d) = rest.strip_prefix("EVF") {
        (
            if preview {
                "the preview of a video"
            } else {
                "a video"
            },
            d,
        )
    } else {
        return ("a file of another name", None);
    };
    let stamp =
        (!digits.is_empty() && digits.len() <= 16 && digits.bytes().all(|b| b.is_ascii_digit()))
            .then_some(digits);
    (kind, stamp)
}

/// The Unix milliseconds in an intruder photo's name (`IMG_<ms>.jpeg`, `.IMG_<ms>.jpeg`).
fn intruder_stamp(name: &str) -> Option<&str> {
    let rest = name
        .strip_prefix(".IMG_")
        .or_else(|| name.strip_prefix("IMG_"))?;
    let digits = rest.split('.').next().unwrap_or(rest);
    (!digits.is_empty() && digits.len() <= 16 && digits.bytes().all(|b| b.is_ascii_digit()))
        .then_some(digits)
}

/// The `applocker` folder: its vault's files and its intruder photos.
pub fn vault(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let name = artefact_name(&l.tree, &l.path);
    let Some(listing) = call_or_note(
        ctx,
        &name,
        "find_files",
        args_on(&l.tree, json!({"path": l.path, "limit": LIST_LIMIT})),
    )?
    else {
        return Ok(());
    };
    let prefix = format!("{}/", l.path.trim_end_matches('/'));
    let files: Vec<(String, ListedFile)> = listed_files(&listing.output.text)
        .into_iter()
        .filter_map(|f| {
            let folder = f.path.strip_prefix(&prefix)?.split_once('/')?.0.to_string();
            matches!(folder.as_str(), "vault" | "intruders").then_some((folder, f))
        })
        .collect();
    if files.is_empty() {
        // another app's folder of the same name
        return Ok(());
    }
    if listing.output.text.contains("\n# truncated") {
        ctx.unparsed(
            &name,
            &format!(
                "more than {LIST_LIMIT} entries in Playground AppLocker's folder; those past the first {LIST_LIMIT} were not read"
            ),
            Some(&listing.record.invocation_id),
        )?;
    }
    for (folder, f) in &files {
        if folder == "vault" {
            vault_file(ctx, l, &listing, f)?;
        } else {
            intruder(ctx, &listing, f)?;
        }
    }
    Ok(())
}

/// One file of `applocker/vault/`.
fn vault_file(
    ctx: &AgentCtx<'_>,
    l: &Located,
    listing: &masf_tools::Invoked,
    f: &ListedFile,
) -> Result<(), RuntimeError> {
    let file = f.path.rsplit('/').next().unwrap_or(&f.path);
    let (kind, stamp) = kind_of(file);
    let mut d = Draft::new(
        "files",
        if file.starts_with("PREVIEW_") {
            format!("Preview in Playground AppLocker's vault: {file}")
        } else {
            format!("Hidden in Playground AppLocker: {file}")
        },
    );
    d.fact(FactType::Path, Some(&f.path), listing);
    d.fact(FactType::Name, Some(file), listing);
    d.fact(FactType::Count, Some(&f.size), listing);
    d.time(
        stamp,
        unix_millis(stamp),
        "File hidden in Playground AppLocker (the time in its name)",
        listing,
    );
    let (at, enc) = listed_modified(f);
    d.time(
        at,
        enc,
        "Vault file written by Playground AppLocker",
        listing,
    );
    d.interpretation = format!(
        "{}: {kind} kept in Playground AppLocker's vault ({} bytes), encrypted with Conceal (AES-GCM) under the key in the app's crypto.KEY_256.xml; not decoded here, so what it shows is not said{}{}.",
        f.path,
        f.size,
        match stamp {
            Some(s) => format!(
                "; its name holds {s}, the Unix milliseconds at which the app encrypted it (when it was hidden)"
            ),
            None => "; its name holds no time".to_string(),
        },
        match at {
            Some(t) => format!("; the file system's modified time is {t}"),
            None => String::new(),
        }
    );
    record_draft(ctx, d)?;
    if f.size.parse::<u64>().is_ok_and(|s| s < CONCEAL_MIN) {
        ctx.unparsed(
            &artefact_name(&l.tree, &f.path),
            &format!(
                "could not parse Playground AppLocker's vault file because it holds {} bytes, fewer than the {CONCEAL_MIN} of Conceal's header, IV and tag (truncated or damaged)",
                f.size
            ),
            Some(&listing.record.invocation_id),
        )?;
    }
    Ok(())
}

/// One photo of `applocker/intruders/`.
fn intruder(
    ctx: &AgentCtx<'_>,
    listing: &masf_tools::Invoked,
    f: &ListedFile,
) -> Result<(), RuntimeError> {
    let file = f.path.rsplit('/').next().unwrap_or(&f.path);
    let mut d = Draft::new(
        "files",
        format!("Intruder photo taken by Playground AppLocker: {file}"),
    );
    d.fact(FactType::Path, Some(&f.path), listing);
    d.fact(FactType::Name, Some(file), listing);
    d.fact(FactType::Count, Some(&f.size), listing);
    let stamp = intruder_stamp(file);
    d.time(
        stamp,
        unix_millis(stamp),
        "Intruder photo taken by Playground AppLocker (the time in its name)",
        listing,
    );
    let (at, enc) = listed_modified(f);
    d.time(
        at,
        enc,
        "Intruder photo written by Playground AppLocker",
        listing,
    );
    d.interpretation = format!(
        "{}: a photo Playground AppLocker's intruder feature keeps ({} bytes), taken with the front camera of whoever failed to unlock a locked app{}{}; not decoded here.",
        f.path,
        f.size,
        match stamp {
            Some(s) => format!(", at {s} (Unix ms, the time the app writes into its name)"),
            None => String::new(),
        },
        match at {
            Some(t) => format!(" (the file system's modified time is {t})"),
            None => String::new(),
        }
    );
    record_draft(ctx, d)
}

/// Conceal's key file: said to be there, never read.
pub fn key(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let listed = listed_files(&l.found.output.text)
        .into_iter()
        .find(|f| f.path == l.path);
    let mut d = Draft::new("apps", "Playground AppLocker vault key file present");
    d.fact(FactType::Path, Some(&l.path), &l.found);
    if let Some(f) = &listed {
        d.fact(FactType::Count, Some(&f.size), &l.found);
        let (at, enc) = listed_modified(f);
        d.time(
            at,
            enc,
            "Playground AppLocker vault key file written",
            &l.found,
        );
    }
    d.interpretation = format!(
        "{}: the file in which Conceal, the library Playground AppLocker encrypts its vault with, keeps the vault's AES key in the clear (cipher_key){}. It is not read here, so the key is in no output: with it the examiner can decrypt the applocker/vault files (as ALEAPP's playgroundVault does).",
        l.path,
        listed
            .as_ref()
            .map(|f| format!(", {} bytes", f.size))
            .unwrap_or_default()
    );
    record_draft(ctx, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vault_names() {
        assert_eq!(
            kind_of("EIF1642345678901"),
            ("a picture", Some("1642345678901"))
        );
        assert_eq!(
            kind_of("PREVIEW_EVF1642349999000"),
            ("the preview of a video", Some("1642349999000"))
        );
        assert_eq!(kind_of("EIFx12"), ("a picture", None));
        assert_eq!(kind_of("EVF"), ("a video", None));
        assert_eq!(kind_of("restored.tmp"), ("a file of another name", None));
        assert_eq!(kind_of("EIF12345678901234567"), ("a picture", None));
        assert_eq!(
            intruder_stamp("IMG_1642400000000.jpeg"),
            Some("1642400000000")
        );
        assert_eq!(
            intruder_stamp(".IMG_1642400000000.jpeg"),
            Some("1642400000000")
        );
        assert_eq!(intruder_stamp("IMG_20220117-061320.jpeg"), None);
        assert_eq!(intruder_stamp("photo.jpeg"), None);
    }
}
