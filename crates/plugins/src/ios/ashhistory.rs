//! Ash shell history files (`.ash_history`, wherever they lie: the root user's home
//! `private/var/root/`, `mobile`'s home, a jailbreak's or a terminal app's folder), iLEAPP's
//! `ashHistory` ("Ash Shell History"): the commands typed in a BusyBox ash shell on the phone,
//! oldest first. Read with `read_text` (the first MiB; the rest noted). The lines are split,
//! and lines carrying a secret withheld, by the code Android's `.bash_history` reader uses
//! (`crate::shellhistory`, shared with Android's bash history).
//!
//! | file | phenomenon | fields |
//! |---|---|---|
//! | `.ash_history` | one `device` per file, titled `Ash history <path>: <n> commands` | each command line (the first `MAX_COMMANDS` (500), in order; the rest counted in the interpretation and noted; a line that looks like it carries a password, token or key — `sshpass`, `password`, `token=`, `mysql -p<password>` … — withheld and counted, never copied) |
//!
//! What it proves: that these commands were typed in an ash shell whose history file this is,
//! and saved when that shell exited (a shell killed before exiting saves nothing; editing the
//! file removes lines). Ash writes no time: the file does not say when (its modification time,
//! in the listing, is the last save). It does not say which person typed them, nor whether a
//! command succeeded. iLEAPP numbers every line as a command; here blank lines are skipped. A
//! `#<Unix seconds>` line, which ash does not write but bash does before a command, is read as
//! bash's reader reads it: as the time of the next command.
//!
//! Drift and damage: lines are read as text (invalid UTF-8 shown as U+FFFD); CR line ends are
//! dropped; lines holding NUL bytes (a zero-filled or damaged region) are not read and are
//! noted, the other lines still read.
//!
//! Secrets: `read_text`'s output holds every line of the file; a line that looks like it carries
//! a password, token or key is kept out of the phenomenon (no fact, title or interpretation
//! quotes it), only counted.
//!
//! Identities: none (a command line names no account reliably).

use masf_agents::RuntimeError;
use masf_tools::Invoked;
use serde_json::json;

use super::Run;
use crate::shellhistory::{Shell, draft};

/// Triage of every ash history of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    run.each(".ash_history", |find, path| history(run, find, path))
}

/// How ash's history is worded (ash writes no times; a bash-style time line is read as bash's).
const ASH: Shell = Shell {
    title: "Ash history",
    saved_by: "an ash shell (BusyBox)",
    times_of: "shell history",
    timed: |n, f, x| {
        format!(
            "; {n} follow a `#<Unix seconds>` line as bash writes them (ash writes none), from {f} to {x}"
        )
    },
    timed_one: |f| {
        format!("; one follows a `#<Unix seconds>` line as bash writes them (ash writes none), {f}")
    },
    untimed: "; ash writes no times: when they were typed is not in the file",
};

/// One `.ash_history`.
fn history(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let Some(inv) = crate::calls::call_or_note(
        run.ctx,
        path,
        "read_text",
        json!({"path": path, "length": 1 << 20}),
    )?
    else {
        return Ok(());
    };
    crate::calls::note_unread_rest(run.ctx, path, &inv, "read as commands")?;
    let d = draft(run.ctx, path, path, find, &inv, &ASH, "")?;
    run.record(d)
}
