//! Shell histories (`.bash_history`, `.ash_history`, …): the commands in order with bash's
//! `#<Unix seconds>` time lines, and which lines look like they carry a secret typed in clear.
//! Shared by Android's bash history reader and iOS's ash history reader.

/// Most commands of one file recorded as facts; the rest are counted.
pub const MAX_COMMANDS: usize = 500;

/// Words that mark a command line as likely to carry a password, token or key typed in clear
/// (compared in lower case): such a line is withheld — counted, never a fact.
pub const SECRET_MARKS: &[&str] = &[
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
pub fn secret(line: &str) -> bool {
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

/// The commands of a history file: `(time line, command)` in order, and the lines holding
/// NUL bytes (not read).
pub fn commands(text: &str) -> (Vec<(Option<&str>, &str)>, usize) {
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

/// How one shell's history is named and its times worded.
pub struct Shell {
    /// The title's first words ("Bash history").
    pub title: &'static str,
    /// Who saved it ("a bash shell").
    pub saved_by: &'static str,
    /// The description of the first and last timed commands' times ("bash history").
    pub times_of: &'static str,
    /// The clause of several timed commands (count, first, last).
    pub timed: fn(usize, &str, &str) -> String,
    /// The clause of one timed command.
    pub timed_one: fn(&str) -> String,
    /// The clause when no command has a time.
    pub untimed: &'static str,
}

/// The phenomenon of one history file read by `inv` (the file at `path`, found by `found`;
/// `artefact` names it in notes, `whose` says whose folder holds it): every command in order
/// (the first [`MAX_COMMANDS`] as facts, the rest counted and noted; a line that looks like it
/// carries a secret withheld and counted), the first and last times bash wrote, and a note of
/// the lines holding NUL bytes.
pub fn draft(
    ctx: &masf_agents::AgentCtx<'_>,
    artefact: &str,
    path: &str,
    found: &masf_tools::Invoked,
    inv: &masf_tools::Invoked,
    shell: &Shell,
    whose: &str,
) -> Result<crate::drafts::Draft, masf_agents::RuntimeError> {
    use crate::drafts::{Draft, unix_seconds};
    use masf_graph::FactType;
    let (cmds, damaged) = commands(&inv.output.text);
    if damaged > 0 {
        ctx.unparsed(
            artefact,
            &format!(
                "{damaged} lines hold NUL bytes (a zero-filled or damaged region) and were not read; the other lines were"
            ),
            Some(&inv.record.invocation_id),
        )?;
    }
    let mut d = Draft::new(
        "device",
        format!("{} {path}: {} commands", shell.title, cmds.len()),
    );
    d.fact(FactType::Path, Some(path), found);
    let mut withheld = 0usize;
    for (_, c) in cmds.iter().take(MAX_COMMANDS) {
        if secret(c) {
            withheld += 1;
        } else {
            d.fact(FactType::Text, Some(*c), inv);
        }
    }
    let timed: Vec<&str> = cmds.iter().filter_map(|(t, _)| *t).collect();
    let (first, last) = (timed.first().copied(), timed.last().copied());
    d.time(
        first,
        unix_seconds(first),
        &format!("first command with a time in the {}", shell.times_of),
        inv,
    );
    if timed.len() > 1 {
        d.time(
            last,
            unix_seconds(last),
            &format!("last command with a time in the {}", shell.times_of),
            inv,
        );
    }
    let rest = cmds.len().saturating_sub(MAX_COMMANDS);
    if rest > 0 {
        ctx.unparsed(
            artefact,
            &format!(
                "{} commands: the first {MAX_COMMANDS} were recorded as facts, the other {rest} counted",
                cmds.len()
            ),
            Some(&inv.record.invocation_id),
        )?;
    }
    d.interpretation = format!(
        "{artefact}{whose}: the history {} saved, {} commands{}{}{}{}.",
        shell.saved_by,
        cmds.len(),
        if rest > 0 {
            format!(" (the first {MAX_COMMANDS} recorded in order, {rest} more counted)")
        } else {
            " (recorded in order)".to_string()
        },
        match (first, last) {
            (Some(f), Some(x)) if timed.len() > 1 => (shell.timed)(timed.len(), f, x),
            (Some(f), _) => (shell.timed_one)(f),
            _ => shell.untimed.to_string(),
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
    Ok(d)
}
