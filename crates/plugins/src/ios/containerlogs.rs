//! containermanagerd's logs (`root/Library/Logs/MobileContainerManager/containermanagerd.log.<n>`),
//! iLEAPP's `mobileContainerManager`: the lines that record a container going away — apps and
//! app groups removed, and when —, read with `read_text`:
//!
//! | line (after C's ctime time, `[<pid>]`, level, thread) | phenomenon | fields |
//! |---|---|---|
//! | `… Removing group container [<group>] for <user> at <container path>` (iLEAPP's) | one `apps` ("Group container <group> removed (containermanagerd log)") | the line's time as written, the group's identifier, the container's path where the line names one under `/private/var/` or `/var/` |
//! | `… Last reference to group container <rest>` (iLEAPP's, older logs) | one `apps` ("Group container last reference: <rest> (containermanagerd log)") | the time, the rest of the line as written (iLEAPP keeps it whole rather than take one word as the group) |
//! | `… Ref count for [<group>] will reach zero after removing [<app>]; queueing …` | one `apps` ("Group container <group> queued for deletion after <app> removed (containermanagerd log)") | the time, the group, the app whose removal leaves it unused |
//! | `… DELETED: [<container path>] <identity>` | one `apps` ("Container deleted: <identifier> (containermanagerd log)") | the time, the path, the identity as written, the identifier it starts with (`<identifier(class);user;platform>`) |
//!
//! The first two are the lines iLEAPP reads; the other two are containermanagerd's own messages
//! for the same removals (their wording from its code; which iOS releases write them to this
//! file is not established, said). A line names a removal and its time; the app or group had
//! been on the device. containermanagerd logs no line when it creates a container, so installs
//! are not read here (the installation logs, [`super::installlog`], hold them). The times are
//! C's ctime layout, the device's local time without a zone (`local_text`, read in the source's
//! zone). Other lines are not read. A file with no line of that layout (a compressed rotation,
//! another file of the name) is noted. Read in 1 MiB pieces cut at line ends
//! ([`super::installlog::each_line`]); at most [`ENTRY_CAP`] events a source (noted beyond).
//!
//! Identities: none (an app or group is no person).

use masf_agents::RuntimeError;
use masf_graph::{FactType, TimeEncoding};
use masf_tools::Invoked;

use super::installlog::stamp;
use super::{Draft, ENTRY_CAP, Run, file_name};

/// One removal a line records.
struct Event<'a> {
    title: String,
    what: &'static str,
    owner: Option<&'a str>,
    app: Option<&'a str>,
    path: Option<&'a str>,
    text: Option<&'a str>,
}

/// The text between `start` and `end` after `start`, trimmed, if not empty.
fn between<'a>(line: &'a str, start: &str, end: &str) -> Option<&'a str> {
    let rest = &line[line.find(start)? + start.len()..];
    let v = rest[..rest.find(end)?].trim();
    (!v.is_empty()).then_some(v)
}

/// The first device path (`/private/var/…` or `/var/…`) in `text`, up to a space, `>`, `;` or
/// `,`.
fn device_path(text: &str) -> Option<&str> {
    let at = text.find("/private/var/").or_else(|| text.find("/var/"))?;
    let rest = &text[at..];
    let end = rest
        .find(|c: char| c.is_whitespace() || matches!(c, '>' | ';' | ','))
        .unwrap_or(rest.len());
    Some(&rest[..end])
}

/// The removal a line records, if any.
fn event(line: &str) -> Option<Event<'_>> {
    if let Some(group) = between(line, "Removing group container [", "]") {
        let after = &line[line.find("Removing group container [")?..];
        let path = after.find(" at ").and_then(|i| device_path(&after[i..]));
        return Some(Event {
            title: format!("Group container {group} removed (containermanagerd log)"),
            what: "removed the group container",
            owner: Some(group),
            app: None,
            path,
            text: None,
        });
    }
    const LAST: &str = "Last reference to group container ";
    if let Some(at) = line.find(LAST) {
        let rest = line[at + LAST.len()..].trim();
        return (!rest.is_empty()).then(|| Event {
            title: format!("Group container last reference: {rest} (containermanagerd log)"),
            what: "logged the last reference to a group container",
            owner: None,
            app: None,
            path: None,
            text: Some(rest),
        });
    }
    if line.contains("will reach zero after removing [") {
        let group = between(line, "Ref count for [", "]")?;
        let app = between(line, "will reach zero after removing [", "]")?;
        return Some(Event {
            title: format!(
                "Group container {group} queued for deletion after {app} removed (containermanagerd log)"
            ),
            what: "queued for deletion the group container",
            owner: Some(group),
            app: Some(app),
            path: None,
            text: None,
        });
    }
    if let Some(path) = between(line, "DELETED: [", "]") {
        let after = &line[line.find("DELETED: [")? + "DELETED: [".len()..];
        let identity = after
            .split_once(']')
            .map(|(_, r)| r.trim())
            .filter(|r| !r.is_empty());
        // `<identifier(class);user;platform>`: the identifier before the bracket
        let owner = identity
            .and_then(|i| i.strip_prefix('<'))
            .and_then(|i| i.split_once('(').map(|(id, _)| id))
            .filter(|id| !id.is_empty() && !id.contains(char::is_whitespace));
        return Some(Event {
            title: format!(
                "Container deleted: {} (containermanagerd log)",
                owner.unwrap_or(path)
            ),
            what: "deleted the container",
            owner,
            app: None,
            path: Some(path),
            text: identity,
        });
    }
    None
}

/// Triage of every containermanagerd log of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    let mut count = 0usize;
    run.each("containermanagerd*.log.*", |find, path| {
        one(run, find, path, &mut count)
    })
}

fn one(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    count: &mut usize,
) -> Result<(), RuntimeError> {
    let file = file_name(path);
    let mut stamped = 0usize;
    let mut cite: Option<String> = None;
    super::installlog::each_line(run, path, "container removals", |inv, line| {
        if cite.is_none() {
            cite = Some(inv.record.invocation_id.clone());
        }
        let Some(t) = stamp(line) else {
            return Ok(true);
        };
        stamped += 1;
        let Some(ev) = event(line) else {
            return Ok(true);
        };
        if *count >= ENTRY_CAP as usize {
            return Ok(false);
        }
        *count += 1;
        record(run, find, inv, path, file, t, &ev)?;
        Ok(true)
    })?;
    if stamped == 0 && cite.is_some() {
        run.ctx.unparsed(
            path,
            "could not read containermanagerd's log because no line has its layout (C's ctime time, then `[<pid>]`): a compressed rotation or another file of the name",
            cite.as_deref(),
        )?;
    }
    Ok(())
}

fn record(
    run: &Run<'_, '_>,
    find: &Invoked,
    inv: &Invoked,
    path: &str,
    file: &str,
    t: &str,
    ev: &Event<'_>,
) -> Result<(), RuntimeError> {
    let mut d = Draft::new("apps", ev.title.clone());
    d.fact(FactType::Path, Some(path), find);
    d.time(
        Some(t),
        Some(TimeEncoding::LocalText),
        "Container removal (containermanagerd log)",
        inv,
    );
    d.fact(FactType::Identifier, ev.owner, inv);
    d.fact(FactType::Identifier, ev.app, inv);
    d.fact(FactType::Path, ev.path, inv);
    d.fact(FactType::Text, ev.text, inv);
    d.interpretation = format!(
        "{file}: at {t} (the device's local time, as containermanagerd wrote it) containermanagerd {}{}{}{}{}. The app or group had been on the device and was removed then.",
        ev.what,
        ev.owner.map(|o| format!(" {o}")).unwrap_or_default(),
        ev.app
            .map(|a| format!(" (after removing {a})"))
            .unwrap_or_default(),
        ev.path.map(|p| format!(" at {p}")).unwrap_or_default(),
        ev.text
            .map(|x| format!(
                " ({} {x})",
                if ev.path.is_some() {
                    "identity"
                } else {
                    "as written:"
                }
            ))
            .unwrap_or_default(),
    );
    run.record(d)
}
