//! Bash history files (`.bash_history`, wherever they lie: a terminal app's home such as
//! Termux's `data/data/com.termux/files/home/`, a rooted phone's shell home), ALEAPP's
//! `BashHistory` (`bashHistory`): the commands typed in a bash shell on the phone, oldest first.
//! Read with `read_text` (the first MiB; the rest noted).
//!
//! | file | phenomenon | fields |
//! |---|---|---|
//! | `.bash_history` | one `device` per file, titled `Bash history <path>: <n> commands` | each command line (the first [`MAX_COMMANDS`], in order; the rest counted in the interpretation and noted; a line that looks like it carries a password, token or key — [`SECRET_MARKS`], `mysql -p<password>` — withheld and counted, never copied), the first and last time bash recorded (a `#<Unix seconds>` line before a command, written when `HISTTIMEFORMAT` is set) |
//!
//! What it proves: that these commands were typed in a bash shell whose history file this is,
//! and saved when that shell exited (a shell killed before exiting saves nothing; `history -c`
//! or editing the file removes lines). Without `#<seconds>` lines it does not say when; the
//! package whose data folder holds the file (Termux …) is named from the path. It does not say
//! which person typed them, nor whether a command succeeded. ALEAPP reports every line,
//! timestamp lines included, as a command; here those lines are the commands' times.
//!
//! Drift and damage: lines are read as text (invalid UTF-8 shown as U+FFFD); CR line ends are
//! dropped; blank lines are skipped; lines holding NUL bytes (a zero-filled or damaged region)
//! are not read and are noted, the other lines still read.
//!
//! Secrets: `read_text`'s output holds every line of the file; a line that looks like it carries a
//! password, token or key is kept out of the phenomenon (no fact, title or interpretation quotes
//! it), only counted.
//!
//! Identities: none (a command line names no account reliably).

use masf_agents::{AgentCtx, RuntimeError};

use super::Located;
use crate::drafts::record_draft;
use crate::identity::artefact_name;
use crate::shellhistory::{Shell, draft};

/// How bash's history is worded.
const BASH: Shell = Shell {
    title: "Bash history",
    saved_by: "a bash shell",
    times_of: "bash history",
    timed: |n, f, x| {
        format!("; {n} carry the time bash wrote before them, from {f} to {x} (Unix seconds)")
    },
    timed_one: |f| format!("; one carries the time bash wrote before it, {f} (Unix seconds)"),
    untimed: "; no command carries a time (HISTTIMEFORMAT was not set)",
};

/// One `.bash_history`.
pub fn history(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let name = artefact_name(&l.tree, &l.path);
    let Some(inv) = super::files::read(ctx, l)? else {
        return Ok(());
    };
    let whose = match super::data_package(&l.path) {
        Some("com.termux") => {
            " in the home folder of Termux (com.termux), a terminal app: typed in Termux"
                .to_string()
        }
        Some(p) => format!(" in the data folder of {p}"),
        None => String::new(),
    };
    let d = draft(ctx, &name, &l.path, &l.found, &inv, &BASH, &whose)?;
    record_draft(ctx, d)
}

#[cfg(test)]
mod tests {

    #[test]
    fn bashhistory_commands_times_and_damage() {
        let (c, damaged) = commands("ls -la\r\n#1733000000\ncd /sdcard\n\n#12\n\0\0\0\nexit\n");
        assert_eq!(damaged, 1);
        assert_eq!(
            c,
            vec![
                (None, "ls -la"),
                (Some("1733000000"), "cd /sdcard"),
                (None, "#12"),
                (None, "exit"),
            ]
        );
        use crate::android::data_package as package;
        use crate::shellhistory::{commands, secret};
        assert_eq!(
            package("/data/data/com.termux/files/home/.bash_history"),
            Some("com.termux")
        );
        assert_eq!(
            package("/data/user/10/com.termux/files/home/.bash_history"),
            Some("com.termux")
        );
        assert_eq!(package("/data/.bash_history"), None);
        assert_eq!(
            package("/storage/emulated/0/Android/data/com.termux/cache/journal"),
            Some("com.termux")
        );
        assert!(secret("sshpass -p hunter2 ssh root@10.0.0.5"));
        assert!(secret("mysql -u root -phunter2 shop"));
        assert!(!secret("mkdir -p /sdcard/x"));
        assert!(!secret("ssh -p 2222 admin@host"));
        assert!(!secret("mysql -P3306 -u app shop"));
    }
}
