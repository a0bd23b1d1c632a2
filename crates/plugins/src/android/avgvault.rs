//! AVG AntiVirus (`com.antivirus`) and its Photo Vault, ALEAPP's `AVG` (`get_AVG`,
//! `get_AVG_media`): whether the vault is locked by a PIN or a pattern, and which files the
//! user hid in it.
//!
//! | file | phenomenon | fields |
//! |---|---|---|
//! | `shared_prefs/PinSettingsImpl.xml` (read by `read_xml`) | one `apps` ("AVG vault lock: PIN set", "…: PIN and pattern set", "…: no PIN stored") | the names of the preferences holding the PIN's and the pattern's hashes (`encrypted_pin`, `encrypted_pattern`) when they hold a value — never the value —, every other preference's name and value as stored, but those whose names say they hold a secret (pin, pattern, pass, hash, salt, secret, token, key, code, encrypted: said stored, not copied) |
//! | a `Vault/` folder holding `.key_store/` (listed by `find_files`) | one `files` for the vault ("AVG vault <folder>") | the folder, the key store's and metadata store's files; how many hidden files and previews it holds (said) |
//! | each file of the vault but its key store, metadata store and previews (`pictures/`) | one `files` per hidden file ("Hidden in the AVG vault: <name>") | the path, the name AVG gave it, its folder, size; modified (the listing's time: about when it was hidden) |
//!
//! What it proves: `encrypted_pin` holds the SHA-1 of the vault's four-digit PIN (ALEAPP and
//! the published research brute-force it, and derive from it the key of the files): a value
//! there means a PIN was set; the PIN cannot be turned off once a pattern is chosen, so both may
//! be set. The hash is never copied here, nor the PIN searched for (it is in `read_xml`'s
//! output, as the file holds it: the examiner's lead). The vault's files are AES-encrypted
//! copies of what the user hid (with previews in `.mid_pictures/` and `.thumbnail/`); their
//! original names and paths are in the encrypted `.metadata_store`: neither is decrypted or
//! read here. A hidden file says the vault held it when the phone was extracted, not who put it
//! there. The vault lies on the shared storage, wherever the search finds a `.key_store` folder
//! in a folder named `Vault`; another app's `PinSettingsImpl.xml` (outside `com.antivirus`) is
//! not read.
//!
//! Schema drift: preferences are read by name (any absent); a preferences file that does not
//! parse, or holds no `<map>`, is noted; the vault's folders are taken as listed (one named
//! other than the stores and previews is read as hidden files too); files past
//! [`super::MAX_ROWS`] are noted. Identities: none (the vault keeps no account).

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{FactType, TimeEncoding};
use serde_json::json;

use super::{Located, MAX_ROWS};
use crate::drafts::{Draft, record_draft};
use crate::identity::{args_on, artefact_name};

/// The name of the vault's key folder, searched for among the app folders (it marks a vault).
pub const KEY_STORE: &str = ".key_store";

/// The vault's folders that hold no hidden file of their own: the stores and the previews.
const NOT_HIDDEN: &[&str] = &[
    ".key_store",
    ".metadata_store",
    ".mid_pictures",
    ".thumbnail",
];

/// Words naming a preference that holds a secret (its value is never copied).
const SECRET_WORDS: &[&str] = &[
    "pin",
    "pattern",
    "pass",
    "hash",
    "salt",
    "secret",
    "token",
    "key",
    "code",
    "encrypted",
];

/// Whether `l` is AVG's lock preferences.
pub fn is_prefs(l: &Located) -> bool {
    l.name() == "PinSettingsImpl.xml" && l.path.contains("/com.antivirus/shared_prefs/")
}

/// The vault folder of `l` when it is a `.key_store` folder in a folder named `Vault`.
fn vault_of(l: &Located) -> Option<&str> {
    let vault = l.path.strip_suffix(KEY_STORE)?.strip_suffix('/')?;
    (vault.rsplit('/').next() == Some("Vault")).then_some(vault)
}

/// Whether `l` is the key folder of an AVG vault.
pub fn is_key_store(l: &Located) -> bool {
    vault_of(l).is_some()
}

/// Whether a preference named `name` holds a secret.
fn secret(name: &str) -> bool {
    let n = name.to_ascii_lowercase();
    SECRET_WORDS.iter().any(|w| n.contains(w))
}

/// `PinSettingsImpl.xml`: one `apps` phenomenon.
pub fn prefs(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some((inv, _, entries)) =
        super::read_xml(ctx, l, "shared preferences", super::prefs::shared_prefs)?
    else {
        return Ok(());
    };
    if entries.is_empty() && !inv.output.text.contains("<map") {
        ctx.unparsed(
            &artefact_name(&l.tree, &l.path),
            "could not parse AVG's PinSettingsImpl.xml as shared preferences: it holds no <map> of preferences",
            Some(&inv.record.invocation_id),
        )?;
        return Ok(());
    }
    let set = |k: &str| entries.iter().any(|(n, v)| n == k && !v.trim().is_empty());
    let (pin, pattern) = (set("encrypted_pin"), set("encrypted_pattern"));
    let title = match (pin, pattern) {
        (true, true) => "AVG vault lock: PIN and pattern set",
        (true, false) => "AVG vault lock: PIN set",
        (false, true) => "AVG vault lock: pattern set",
        (false, false) => "AVG vault lock: no PIN stored",
    };
    let mut d = Draft::new("apps", title);
    d.fact(FactType::Path, Some(&l.path), &l.found);
    let mut said = Vec::new();
    for (k, is_set, what) in [
        (
            "encrypted_pin",
            pin,
            "a PIN is set (encrypted_pin holds its SHA-1 hash, not copied)",
        ),
        (
            "encrypted_pattern",
            pattern,
            "a pattern is set (encrypted_pattern holds its SHA-1 hash, not copied)",
        ),
    ] {
        if is_set {
            // the preference's name, never its value
            d.fact(FactType::Text, Some(k), &inv);
            said.push(what.to_string());
        }
    }
    for (k, v) in &entries {
        if matches!(k.as_str(), "encrypted_pin" | "encrypted_pattern") {
            continue;
        }
        if secret(k) {
            said.push(format!("{k} stored (a secret, not copied)"));
            continue;
        }
        d.fact(FactType::Name, Some(k.as_str()), &inv);
        d.fact(FactType::Text, Some(v.as_str()), &inv);
        said.push(format!("{k} {v}"));
    }
    if !pin && !pattern {
        said.push("no PIN or pattern hash stored".into());
    }
    d.interpretation = format!(
        "{}: AVG AntiVirus's vault lock settings ({}). The PIN is four digits; its hash is the examiner's lead to it and to the vault's key (ALEAPP derives the key from the PIN); the vault's files are read from its folder.",
        l.path,
        said.join("; ")
    );
    record_draft(ctx, d)
}

/// The stored modified time of a listed file with its encoding (UTC `…Z`, or a FAT local time).
fn modified(file: &crate::outputs::ListedFile) -> (Option<&str>, Option<TimeEncoding>) {
    match file.time("modified") {
        Some(m) if m.ends_with('Z') => (Some(m), Some(TimeEncoding::Iso8601)),
        Some(m) => match m.strip_suffix(" (local)") {
            Some(local) => (Some(local), Some(TimeEncoding::LocalText)),
            None => (None, None),
        },
        None => (None, None),
    }
}

/// The vault whose `.key_store` folder `l` is: one `files` phenomenon for the vault, one per
/// hidden file.
pub fn vault(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(dir) = vault_of(l) else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, dir);
    let Some(listed) = crate::calls::call_or_note(
        ctx,
        &name,
        "find_files",
        args_on(&l.tree, json!({"path": dir, "limit": MAX_ROWS})),
    )?
    else {
        return Ok(());
    };
    let files = crate::outputs::listed_files(&listed.output.text);
    // the folder right below the vault a file lies in (`pictures`, `.thumbnail` …)
    let folder_of = |p: &str| -> Option<String> {
        let rest = p.strip_prefix(dir)?.strip_prefix('/')?;
        rest.split_once('/').map(|(f, _)| f.to_string())
    };
    let mut hidden = 0usize;
    let mut previews = 0usize;
    let mut stores: Vec<String> = Vec::new();
    for f in &files {
        let folder = folder_of(&f.path);
        match folder.as_deref() {
            Some(".key_store" | ".metadata_store") => {
                stores.push(f.path.clone());
                continue;
            }
            Some(".mid_pictures" | ".thumbnail") => {
                previews += 1;
                continue;
            }
            _ => {}
        }
        hidden += 1;
        let shown = f.path.rsplit('/').next().unwrap_or(&f.path);
        let mut d = Draft::new("files", format!("Hidden in the AVG vault: {shown}"));
        d.fact(FactType::Path, Some(&f.path), &listed);
        d.fact(FactType::Name, Some(shown), &listed);
        d.fact(FactType::Count, Some(&f.size), &listed);
        let (value, encoding) = modified(f);
        d.time(value, encoding, "File written to the AVG vault", &listed);
        d.interpretation = format!(
            "{}: a file the user hid in AVG AntiVirus's Photo Vault{} ({} bytes), AES-encrypted under a key derived from the vault's PIN; its original name and path are in the vault's encrypted metadata store (not read); modified {} (about when it was hidden).",
            f.path,
            folder
                .as_deref()
                .filter(|x| !NOT_HIDDEN.contains(x))
                .map(|x| format!(" (folder {x})"))
                .unwrap_or_default(),
            f.size,
            value.unwrap_or("unknown"),
        );
        record_draft(ctx, d)?;
    }
    let mut d = Draft::new("files", format!("AVG vault {dir}"));
    d.fact(FactType::Path, Some(dir), &listed);
    for s in &stores {
        d.fact(FactType::Path, Some(s), &listed);
    }
    d.interpretation = format!(
        "{dir}: AVG AntiVirus's Photo Vault, holding {hidden} hidden files and {previews} previews of them (.mid_pictures, .thumbnail){}; the files are encrypted and not decoded here.",
        if stores.is_empty() {
            String::new()
        } else {
            format!(
                ", its key store and metadata store files {} (the wrapped key and the encrypted list of the files' origins, not read)",
                stores.join(", ")
            )
        }
    );
    record_draft(ctx, d)?;
    if listed.output.text.contains("\n# truncated") {
        ctx.unparsed(
            &name,
            &format!("more than {MAX_ROWS} files in the AVG vault; those past the first {MAX_ROWS} were not read"),
            Some(&listed.record.invocation_id),
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secret_names() {
        for n in [
            "encrypted_pin",
            "pin_salt",
            "masterKey",
            "recovery_code",
            "Password",
        ] {
            assert!(secret(n), "{n}");
        }
        for n in ["fingerprint_enabled", "failed_attempts", "last_unlock"] {
            assert!(!secret(n), "{n}");
        }
    }
}
