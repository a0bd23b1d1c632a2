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
use masf_graph::FactType;

use super::Located;
use crate::drafts::{Draft, record_draft, unix_seconds};
use crate::identity::artefact_name;

/// Most commands of one file recorded as facts; the rest are counted.
pub const MAX_COMMANDS: usize = 500;

/// Words that mark a command line as likely to carry a password, token or key typed in clear
/// (compared in lower case): such a line is withheld — counted, never a fact.
const SECRET_MARKS: &[&str] = &[
    "password",
    "passwd=",
    "pass=",
    "sshpass",
    "token=",
    "secret",
    "api_key",
    "apikey",
    "private_key",
    "--pass ",
];

/// Whether a command line looks like it carries a secret ([`SECRET_MARKS`], or a MySQL/MariaDB
/// client's `-p<password>`).
fn secret(line: &str) -> bool {
    let l = line.to_ascii_lowercase();
    SECRET_MARKS.iter().any(|m| l.contains(m))
        || ((l.starts_with("mysql") || l.starts_with("mariadb"))
            && line
                .split_whitespace()
                .any(|w| w.len() > 2 && w.starts_with("-p")))
}

/// A `#<Unix seconds>` line bash writes before a command when `HISTTIMEFORMAT` is set.
fn stamp(line: &str) -> Option<&str> {
    line.strip_prefix('#')
        .filter(|d| (9..=11).contains(&d.len()) && d.bytes().all(|b| b.is_ascii_digit()))
}

/// The package whose data folder holds `path` (`…/data/data/<package>/…`,
/// `…/data/user/<n>/<package>/…`, `…/data/user_de/<n>/<package>/…`).
fn package(path: &str) -> Option<&str> {
    if let Some((_, rest)) = path.split_once("/data/data/") {
        return rest.split('/').next().filter(|p| p.contains('.'));
    }
    let (_, rest) = path
        .split_once("/data/user/")
        .or_else(|| path.split_once("/data/user_de/"))?;
    let mut parts = rest.split('/');
    let _user = parts.next()?;
    parts.next().filter(|p| p.contains('.'))
}

/// The commands of a history file: `(time line, command)` in order, and the lines holding
/// NUL bytes (not read).
fn commands(text: &str) -> (Vec<(Option<&str>, &str)>, usize) {
    let mut out = Vec::new();
    let mut pending: Option<&str> = None;
    let mut damaged = 0usize;
    for line in text.lines() {
        if line.contains('\0') {
            damaged += 1;
            pending = None;
            continue;
        }
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        if let Some(t) = stamp(line) {
            pending = Some(t);
            continue;
        }
        out.push((pending.take(), line));
    }
    (out, damaged)
}

/// One `.bash_history`.
pub fn history(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let name = artefact_name(&l.tree, &l.path);
    let Some(inv) = super::files::read(ctx, l)? else {
        return Ok(());
    };
    let (cmds, damaged) = commands(&inv.output.text);
    if damaged > 0 {
        ctx.unparsed(
            &name,
            &format!(
                "{damaged} lines hold NUL bytes (a zero-filled or damaged region) and were not read; the other lines were"
            ),
            Some(&inv.record.invocation_id),
        )?;
    }
    let mut d = Draft::new(
        "device",
        format!("Bash history {}: {} commands", l.path, cmds.len()),
    );
    d.fact(FactType::Path, Some(&l.path), &l.found);
    let mut withheld = 0usize;
    for (_, c) in cmds.iter().take(MAX_COMMANDS) {
        if secret(c) {
            withheld += 1;
        } else {
            d.fact(FactType::Text, Some(*c), &inv);
        }
    }
    let timed: Vec<&str> = cmds.iter().filter_map(|(t, _)| *t).collect();
    let (first, last) = (timed.first().copied(), timed.last().copied());
    d.time(
        first,
        unix_seconds(first),
        "first command with a time in the bash history",
        &inv,
    );
    if timed.len() > 1 {
        d.time(
            last,
            unix_seconds(last),
            "last command with a time in the bash history",
            &inv,
        );
    }
    let rest = cmds.len().saturating_sub(MAX_COMMANDS);
    if rest > 0 {
        ctx.unparsed(
            &name,
            &format!(
                "{} commands: the first {MAX_COMMANDS} were recorded as facts, the other {rest} counted",
                cmds.len()
            ),
            Some(&inv.record.invocation_id),
        )?;
    }
    let whose = match package(&l.path) {
        Some("com.termux") => {
            " in the home folder of Termux (com.termux), a terminal app: typed in Termux"
                .to_string()
        }
        Some(p) => format!(" in the data folder of {p}"),
        None => String::new(),
    };
    d.interpretation = format!(
        "{name}{whose}: the history a bash shell saved, {} commands{}{}{}{}.",
        cmds.len(),
        if rest > 0 {
            format!(" (the first {MAX_COMMANDS} recorded in order, {rest} more counted)")
        } else {
            " (recorded in order)".to_string()
        },
        match (first, last) {
            (Some(f), Some(x)) if timed.len() > 1 => format!(
                "; {} carry the time bash wrote before them, from {f} to {x} (Unix seconds)",
                timed.len()
            ),
            (Some(f), _) =>
                format!("; one carries the time bash wrote before it, {f} (Unix seconds)"),
            _ => "; no command carries a time (HISTTIMEFORMAT was not set)".to_string(),
        },
        if withheld > 0 {
            format!(
                "; {withheld} of them withheld, not copied: they look like they carry a password, token or key"
            )
        } else {
            String::new()
        },
        if damaged > 0 {
            format!("; {damaged} lines holding NUL bytes were not read")
        } else {
            String::new()
        },
    );
    record_draft(ctx, d)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

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
        assert_eq!(
            package("/data/data/com.termux/files/home/.bash_history"),
            Some("com.termux")
        );
        assert_eq!(
            package("/data/user/10/com.termux/files/home/.bash_history"),
            Some("com.termux")
        );
        assert_eq!(package("/data/.bash_history"), None);
        assert!(secret("sshpass -p hunter2 ssh root@10.0.0.5"));
        assert!(secret("mysql -u root -phunter2 shop"));
        assert!(!secret("mkdir -p /sdcard/x"));
        assert!(!secret("ssh -p 2222 admin@host"));
        assert!(!secret("mysql -P3306 -u app shop"));
    }
}
