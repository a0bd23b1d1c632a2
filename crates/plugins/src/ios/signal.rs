//! Signal (`org.whispersystems.signal`): `grdb/signal.sqlite` in the app group is a SQLCipher
//! database whose key is in the keychain, so it is detected and said, never read: one
//! phenomenon naming the file, and an unparsed note "encrypted (SQLCipher) …" that the
//! coverage shows. A copy that is a plain SQLite file (a decrypted export) is said to be one.
//!
//! [`sqlcipher`] tells an encrypted database from a damaged or foreign file by its first
//! bytes (`hexdump`): a SQLite file starts with `SQLite format 3\0`; a SQLCipher one with a
//! random 16-byte salt, its size a whole number of pages.

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::FactType;
use masf_tools::Invoked;
use serde_json::Value;

use super::{Draft, Run};

/// What the first bytes of a database file say.
pub(crate) enum Header {
    /// A SQLite database (`SQLite format 3\0`).
    Sqlite,
    /// No SQLite header, the size a whole number of pages of at least 1 KiB: encrypted. The
    /// description names the evidence.
    Encrypted(String),
    /// Neither: truncated, damaged or another format.
    Other(String),
}

/// The SQLite header in hex.
const SQLITE_MAGIC: &str = "53514c69746520666f726d6174203300";

/// Reads the first 16 bytes of the file `args` names (`path`, optional `partition`) with
/// `hexdump`; `None` (noted unparsed under `artefact`) when the file cannot be read.
pub(crate) fn sqlcipher(
    ctx: &AgentCtx<'_>,
    artefact: &str,
    mut args: Value,
) -> Result<Option<(Invoked, Header)>, RuntimeError> {
    args["offset"] = Value::from(0);
    args["length"] = Value::from(16);
    let Some(inv) = crate::calls::call_or_note(ctx, artefact, "hexdump", args)? else {
        return Ok(None);
    };
    let s = inv.output.structured.clone().unwrap_or(Value::Null);
    let hex = s
        .get("hex")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string();
    let size = s.get("size").and_then(Value::as_u64).unwrap_or(0);
    let header = if hex.eq_ignore_ascii_case(SQLITE_MAGIC) {
        Header::Sqlite
    } else if size >= 1024 && size % 512 == 0 {
        Header::Encrypted(format!(
            "no SQLite header (its first 16 bytes, {hex}, are a SQLCipher salt) and its {size} bytes are whole pages"
        ))
    } else {
        Header::Other(format!(
            "not a SQLite database: no SQLite header (first bytes {hex}) and its {size} bytes are no whole number of pages (truncated or another format)"
        ))
    };
    Ok(Some((inv, header)))
}

/// Triage of every Signal `signal.sqlite` of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    run.each("signal.sqlite", |find, path| {
        if !path.contains("/grdb/") {
            return Ok(());
        }
        let Some((inv, header)) =
            sqlcipher(run.ctx, path, serde_json::json!({ "path": path }))?
        else {
            return Ok(());
        };
        let (state, reason) = match header {
            Header::Encrypted(why) => (
                "encrypted",
                format!(
                    "could not parse Signal's database: encrypted (SQLCipher), its key is in the keychain, not read: {why}"
                ),
            ),
            Header::Other(why) => ("unreadable", format!("could not parse Signal's database: {why}")),
            Header::Sqlite => (
                "not encrypted",
                "Signal's database is a plain SQLite file (a decrypted copy): its tables are not read by this version".to_string(),
            ),
        };
        let mut d = Draft::new("messages", format!("Signal database ({state})"));
        d.fact(FactType::Path, Some(path), find);
        d.interpretation = format!(
            "Signal is installed and has a message database, {state}{}.",
            if state == "encrypted" {
                " with SQLCipher (its key is in the keychain): its messages are not read"
            } else {
                ""
            }
        );
        run.record(d)?;
        run.ctx
            .unparsed(path, &reason, Some(&inv.record.invocation_id))?;
        Ok(())
    })
}
