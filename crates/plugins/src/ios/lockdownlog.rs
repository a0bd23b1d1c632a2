//! lockdownd's log (`/private/var/logs/lockdownd.log` and its rotations `lockdownd.log.<n>`,
//! also in sysdiagnose archives): the lines of iLEAPP's `lockdownEvents` — the device passcode
//! changed (`password_changed_callback`), an OS upgrade detected (`roll_keys: Detected
//! upgrade`), lockdownd starting (`main: Starting Up`: the daemon started, not by itself proof
//! of a boot) — one phenomenon each; and, beyond iLEAPP, each session of a lockdown client
//! that read the device's values or started its services (`handle_get_value: <client>
//! attempting to get [<key>]`, `handle_start_service: <client> attempting to spawn …`): the
//! client (`AMPDevicesAgent` is the agent of a Mac's Finder and Music, `iTunes` a PC's),
//! the values it asked for (serial number, UDID, IMEI …), those the device did not have, the
//! services it started, first and last line. A session is one client's lines under one
//! lockdownd pid with no gap over a minute. Such a session is a computer (or a tool) talking
//! to the phone over USB or Wi-Fi sync, at that time.
//!
//! Each line's time is as written, month first without a zone (the device's local time:
//! `us_local_text`, read in the source's zone). Read with `read_text` in 1 MiB pieces cut at
//! line ends (as the installation logs); at most [`ENTRY_CAP`] events a source. Identities: none
//! observed (a client's name names no one).

use masf_agents::RuntimeError;
use masf_graph::{FactType, TimeEncoding};
use masf_tools::Invoked;

use super::{Draft, ENTRY_CAP, Run, file_name};

/// The single-line events iLEAPP reports: (marker, what).
const MARKERS: [(&str, &str); 3] = [
    ("password_changed_callback", "Device passcode changed"),
    (
        "roll_keys: Detected upgrade",
        "Upgrade detected by lockdownd",
    ),
    ("main: Starting Up", "lockdownd started"),
];

/// Largest gap, in seconds, between two lines of one client's session.
const SESSION_GAP: f64 = 60.0;

/// Triage of every lockdownd log of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    let mut count = 0usize;
    for glob in ["lockdownd.log", "lockdownd.log.*"] {
        run.each(glob, |find, path| one(run, find, path, &mut count))?;
    }
    Ok(())
}

/// A line's time as written (`MM/DD/YY HH:MM:SS.ffffff`, month 01–12, day 01–31), its pid and
/// its message.
fn parse(line: &str) -> Option<(&str, &str, &str)> {
    let (date, rest) = line.split_once(' ')?;
    let (time, rest) = rest.split_once(' ')?;
    let rest = rest.trim_start();
    let pid = rest.strip_prefix("pid=")?;
    let (pid, message) = pid.split_once(' ')?;
    let d = date.as_bytes();
    let two = |at: usize| date.get(at..at + 2).and_then(|v| v.parse::<u8>().ok());
    let ok = d.len() == 8
        && d[2] == b'/'
        && d[5] == b'/'
        && two(0).is_some_and(|m| (1..=12).contains(&m))
        && two(3).is_some_and(|d| (1..=31).contains(&d))
        && two(6).is_some()
        && time.len() >= 8
        && time.as_bytes()[2] == b':'
        && pid.bytes().all(|b| b.is_ascii_digit());
    ok.then(|| {
        (
            &line[..date.len() + 1 + time.len()],
            pid,
            message.trim_start(),
        )
    })
}

/// Seconds of a line's time since its day-count origin, to measure gaps (not a calendar time).
fn seconds(t: &str) -> Option<f64> {
    let (date, time) = t.split_once(' ')?;
    let mut dp = date.split('/').map(|p| p.parse::<u32>().ok());
    let (m, d, y) = (dp.next()??, dp.next()??, dp.next()??);
    let days = f64::from(y * 372 + m * 31 + d);
    let mut tp = time.splitn(3, ':');
    let (h, mi, s) = (
        tp.next()?.parse::<f64>().ok()?,
        tp.next()?.parse::<f64>().ok()?,
        tp.next()?.parse::<f64>().ok()?,
    );
    Some(days * 86_400.0 + h * 3600.0 + mi * 60.0 + s)
}

/// One client's session being gathered.
struct Session {
    client: String,
    pid: String,
    first: (String, Invoked),
    last: (String, Invoked, f64),
    values: Vec<(String, Invoked)>,
    missing: Vec<String>,
    services: Vec<(String, Invoked)>,
}

fn one(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    count: &mut usize,
) -> Result<(), RuntimeError> {
    let file = file_name(path);
    let mut open: Option<Session> = None;
    let mut last_key: Option<String> = None;
    super::installlog::each_line(run, path, "lockdownd events", |inv, line| {
        let Some((t, pid, message)) = parse(line) else {
            return Ok(true);
        };
        if let Some((_, what)) = MARKERS.iter().find(|(m, _)| message.contains(m)) {
            if *count >= ENTRY_CAP as usize {
                return Ok(false);
            }
            *count += 1;
            let mut d = Draft::new("device", format!("{what} (lockdownd log)"));
            d.fact(FactType::Path, Some(path), find);
            d.time(Some(t), Some(TimeEncoding::UsLocalText), what, inv);
            d.fact(FactType::Text, Some(message), inv);
            d.interpretation = format!(
                "{file}: at {t} (the device's local time, month first, as lockdownd wrote it), pid {pid}: {}: {message}",
                what.to_lowercase()
            );
            run.record(d)?;
            return Ok(true);
        }
        let request = [
            ("handle_get_value: ", " attempting to get ["),
            ("handle_start_service: ", " attempting to spawn "),
        ]
        .into_iter()
        .find_map(|(head, verb)| {
            let rest = message.strip_prefix(head)?;
            let (client, what) = rest.split_once(verb)?;
            Some((head, client.trim(), what))
        });
        if message.starts_with("set_response_error: handle_get_value MissingValue") {
            if let (Some(s), Some(k)) = (open.as_mut(), last_key.take()) {
                s.missing.push(k);
            }
            return Ok(true);
        }
        let Some((head, client, what)) = request else {
            return Ok(true);
        };
        let at = seconds(t).unwrap_or(0.0);
        let same = open.as_ref().is_some_and(|s| {
            s.client == client && s.pid == pid && at - s.last.2 <= SESSION_GAP && at >= s.last.2
        });
        if !same {
            if let Some(s) = open.take() {
                if *count >= ENTRY_CAP as usize {
                    return Ok(false);
                }
                *count += 1;
                record(run, find, path, file, s)?;
            }
            open = Some(Session {
                client: client.to_string(),
                pid: pid.to_string(),
                first: (t.to_string(), inv.clone()),
                last: (t.to_string(), inv.clone(), at),
                values: Vec::new(),
                missing: Vec::new(),
                services: Vec::new(),
            });
        }
        let s = open.as_mut().expect("a session is open");
        s.last = (t.to_string(), inv.clone(), at);
        if head == "handle_get_value: " {
            let key = what.split(']').next().unwrap_or(what).to_string();
            last_key = Some(key.clone());
            if !s.values.iter().any(|(k, _)| *k == key) {
                s.values.push((key, inv.clone()));
            }
        } else {
            let service = what.split_whitespace().next().unwrap_or(what).to_string();
            if !s.services.iter().any(|(k, _)| *k == service) {
                s.services.push((service, inv.clone()));
            }
        }
        Ok(true)
    })?;
    if let Some(s) = open.take()
        && *count < ENTRY_CAP as usize
    {
        *count += 1;
        record(run, find, path, file, s)?;
    }
    Ok(())
}

fn record(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    file: &str,
    s: Session,
) -> Result<(), RuntimeError> {
    let mut d = Draft::new(
        "device",
        format!("Lockdown client {} (lockdownd log)", s.client),
    );
    d.fact(FactType::Path, Some(path), find);
    d.fact(FactType::Name, Some(&s.client), &s.first.1);
    d.time(
        Some(&s.first.0),
        Some(TimeEncoding::UsLocalText),
        "Lockdown client session began",
        &s.first.1,
    );
    d.time(
        Some(&s.last.0),
        Some(TimeEncoding::UsLocalText),
        "Lockdown client session ended",
        &s.last.1,
    );
    for (v, inv) in s.values.iter().chain(&s.services) {
        d.fact(FactType::Text, Some(v), inv);
    }
    let missing: Vec<&str> = s
        .missing
        .iter()
        .map(String::as_str)
        .filter(|m| !m.is_empty())
        .collect();
    let list = |v: &[(String, Invoked)]| {
        v.iter()
            .map(|(k, _)| k.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    };
    d.interpretation = format!(
        "{file}, pid {}: from {} to {} (the device's local time, month first, as lockdownd wrote it) the lockdown client {}{} asked the device for {} value(s): {}{}{}. A lockdown client is a program talking to the phone over USB or Wi-Fi sync (a computer's Finder, Music or iTunes, a forensic or management tool).",
        s.pid,
        s.first.0,
        s.last.0,
        s.client,
        match s.client.as_str() {
            "AMPDevicesAgent" => " (the device agent of a Mac's Finder and Music)",
            _ => "",
        },
        s.values.len(),
        list(&s.values),
        if missing.is_empty() {
            String::new()
        } else {
            format!("; the device had no value for {}", missing.join(", "))
        },
        if s.services.is_empty() {
            String::new()
        } else {
            format!("; it started the service(s) {}", list(&s.services))
        },
    );
    run.record(d)
}
