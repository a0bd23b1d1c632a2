//! The shutdown log (`/private/var/db/diagnostics/shutdown.log`, in a sysdiagnose
//! `system_logs.logarchive/Extra/shutdown.log`), iLEAPP's `sysShutdownReboots` and
//! `sysShutdownProcesses` (Kaspersky's iShutdown research). While the device shuts down, logd
//! writes which processes are still running after each delay (`After 0.63s, these clients are
//! still here:`, then `remaining client pid: <pid> (<path>)` lines; older releases write
//! `After 0.1s, remaining client pid: …` on one line), then `SIGTERM: [<Unix seconds>]` when it
//! flushed its buffers.
//!
//! One `device` phenomenon per shutdown (each `SIGTERM` line): its time, the number of delay
//! notices and the longest delay, every process still running with its pid, path and the delay
//! it appeared under. Kaspersky found Pegasus, Reign and Predator processes delaying shutdown
//! from `/private/var/db/` and `/private/var/tmp/`: each process running from there is also a
//! phenomenon of its own, said to be a lead to review (legitimate software runs there too), not
//! a finding. Lines after the last `SIGTERM` (a shutdown the log does not see end) are one
//! phenomenon without a time. At most [`ENTRY_CAP`] phenomena a source. Identities: none.

use masf_agents::RuntimeError;
use masf_graph::{FactType, TimeEncoding};
use masf_tools::Invoked;

use super::{Draft, ENTRY_CAP, Run, file_name};

/// The directories Kaspersky's research found mobile malware running from.
pub const INDICATOR_DIRS: [&str; 2] = ["/private/var/db/", "/private/var/tmp/"];

/// Whether `path` is a shutdown log by its name (`shutdown.log`, rotated `shutdown*.log`).
pub fn is_log(path: &str) -> bool {
    let name = file_name(path);
    name.starts_with("shutdown") && name.ends_with(".log")
}

/// One process line: (the line's `remaining client pid: …` text, pid, path).
fn client(line: &str) -> Option<(&str, &str, &str)> {
    let at = line.find("remaining client pid: ")?;
    let text = &line[at..];
    let rest = &text["remaining client pid: ".len()..];
    let (pid, rest) = rest.split_once(" (")?;
    let close = rest.find(')')?;
    let path = &rest[..close];
    let end = "remaining client pid: ".len() + pid.len() + 2 + close + 1;
    (pid.bytes().all(|b| b.is_ascii_digit()) && !pid.is_empty() && !path.is_empty())
        .then(|| (&text[..end], pid, path))
}

/// The delay of an `After <s>s` line.
fn delay(line: &str) -> Option<f64> {
    let rest = line.trim_start().strip_prefix("After ")?;
    let (n, _) = rest.split_once('s')?;
    n.trim().parse().ok()
}

/// The Unix seconds of a `SIGTERM: [<n>]` line.
fn sigterm(line: &str) -> Option<&str> {
    let rest = &line[line.find("SIGTERM: [")? + "SIGTERM: [".len()..];
    let n = rest.split(']').next()?;
    (!n.is_empty() && n.bytes().all(|b| b.is_ascii_digit())).then_some(n)
}

/// A shutdown being gathered.
#[derive(Default)]
struct Shutdown {
    notices: usize,
    longest: Option<f64>,
    current: Option<f64>,
    /// (line text, pid, path, delay, citing read)
    clients: Vec<(String, String, String, Option<f64>, Invoked)>,
}

/// Triage of every shutdown log of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    let mut count = 0usize;
    run.each("shutdown*.log", |find, path| {
        if is_log(path) {
            one(run, find, path, &mut count)?;
        }
        Ok(())
    })
}

fn one(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    count: &mut usize,
) -> Result<(), RuntimeError> {
    let mut open = Shutdown::default();
    let mut n = 0usize;
    super::installlog::each_line(run, path, "shutdowns", |inv, line| {
        if let Some(d) = delay(line) {
            open.current = Some(d);
            open.notices += 1;
            open.longest = Some(open.longest.map_or(d, |l| l.max(d)));
        }
        if let Some((text, pid, p)) = client(line) {
            open.clients.push((
                text.to_string(),
                pid.to_string(),
                p.to_string(),
                open.current,
                inv.clone(),
            ));
        }
        if let Some(t) = sigterm(line) {
            n += 1;
            let s = std::mem::take(&mut open);
            return record(run, find, path, n, Some((t, inv)), s, count);
        }
        Ok(true)
    })?;
    if !open.clients.is_empty() {
        record(run, find, path, n + 1, None, open, count)?;
    }
    Ok(())
}

fn record(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    n: usize,
    at: Option<(&str, &Invoked)>,
    s: Shutdown,
    count: &mut usize,
) -> Result<bool, RuntimeError> {
    if *count >= ENTRY_CAP as usize {
        return Ok(false);
    }
    *count += 1;
    let file = file_name(path);
    let title = match at {
        Some(_) => format!("Device shut down (shutdown {n} of {file})"),
        None => format!("Shutdown begun, no SIGTERM line follows ({file})"),
    };
    let mut d = Draft::new("device", title);
    d.fact(FactType::Path, Some(path), find);
    if let Some((t, inv)) = at {
        d.time(
            Some(t),
            Some(TimeEncoding::UnixSeconds),
            "Shutdown (logd flushed its buffers)",
            inv,
        );
    }
    let mut said = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    for (text, pid, p, delay, inv) in &s.clients {
        if seen.insert(text.as_str()) {
            d.fact(FactType::Text, Some(text), inv);
        }
        said.push(format!(
            "pid {pid} {p}{}",
            delay.map(|d| format!(" (after {d} s)")).unwrap_or_default()
        ));
    }
    let flagged: Vec<_> = s
        .clients
        .iter()
        .filter(|c| INDICATOR_DIRS.iter().any(|d| c.2.starts_with(d)))
        .collect();
    d.interpretation = format!(
        "{file}: {}; {} delay notice(s){}; processes still running: {}.{}",
        match at {
            Some((t, _)) => format!("the device shut down at {t} (Unix seconds, when logd flushed its buffers)"),
            None => "a shutdown whose end the log does not record (the device may have lost power, or the log was cut)".to_string(),
        },
        s.notices,
        s.longest
            .map(|l| format!(", the longest {l} s"))
            .unwrap_or_default(),
        if said.is_empty() {
            "none listed".to_string()
        } else {
            said.join("; ")
        },
        if flagged.is_empty() {
            String::new()
        } else {
            format!(
                " {} of them ran from /private/var/db/ or /private/var/tmp/ (see their own phenomena).",
                flagged.len()
            )
        },
    );
    run.record(d)?;
    let mut flagged_seen = std::collections::BTreeSet::new();
    for (text, pid, p, delay, inv) in flagged {
        if !flagged_seen.insert(p.as_str()) {
            continue;
        }
        if *count >= ENTRY_CAP as usize {
            return Ok(false);
        }
        *count += 1;
        let dir = INDICATOR_DIRS
            .iter()
            .find(|d| p.starts_with(*d))
            .copied()
            .unwrap_or_default();
        let mut d = Draft::new(
            "device",
            format!(
                "Process running from {dir} delayed shutdown: {}",
                file_name(p)
            ),
        );
        d.fact(FactType::Text, Some(text), inv);
        if let Some((t, inv)) = at {
            d.time(
                Some(t),
                Some(TimeEncoding::UnixSeconds),
                "Shutdown (logd flushed its buffers)",
                inv,
            );
        }
        d.interpretation = format!(
            "{file}: pid {pid}, {p}, was still running{} when the device shut down. Kaspersky's iShutdown research found Pegasus, Reign and Predator processes delaying shutdown from {dir}; legitimate software runs there too, so this is a lead to review (what the file is, whether it is on the device), not a finding.",
            delay.map(|d| format!(" after {d} s")).unwrap_or_default()
        );
        run.record(d)?;
    }
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines() {
        assert_eq!(
            client("\t\tremaining client pid: 215 (/usr/libexec/nfcd)"),
            Some((
                "remaining client pid: 215 (/usr/libexec/nfcd)",
                "215",
                "/usr/libexec/nfcd"
            ))
        );
        assert_eq!(
            client("After 0.1s, remaining client pid: 2143 (/private/var/db/x/bh) trailing"),
            Some((
                "remaining client pid: 2143 (/private/var/db/x/bh)",
                "2143",
                "/private/var/db/x/bh"
            ))
        );
        assert_eq!(client("remaining client pid: x (/a)"), None);
        assert_eq!(client("remaining client pid: 1 ()"), None);
        assert_eq!(
            delay("After 2.62s, these clients are still here:"),
            Some(2.62)
        );
        assert_eq!(delay("After 0.1s, remaining client pid: 1 (/a)"), Some(0.1));
        assert_eq!(delay("Afterwards"), None);
        assert_eq!(
            sigterm("SIGTERM: [1774602168] All buffers flushed"),
            Some("1774602168")
        );
        assert_eq!(sigterm("SIGTERM: []"), None);
        assert!(is_log("/private/var/db/diagnostics/shutdown.log"));
        assert!(!is_log("/x/shutdown.txt"));
    }
}
