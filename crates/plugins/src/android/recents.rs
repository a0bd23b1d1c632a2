//! Recent tasks (`/data/system_ce/<user>/recent_tasks/<id>_task.xml`, AOSP `TaskRecord`'s
//! persisted state; plain XML before Android 12, ABX since, read with `read_xml`): one
//! phenomenon per task in the overview screen — its activity, affinity (the app), the app that
//! started it, uid, user, and when it was first active, last active and last moved (Unix ms) —
//! the fields of ALEAPP's `recentactivity` bar the snapshot images. Which apps the user had
//! open, and when.

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::FactType;
use quick_xml::events::Event;

use super::{Attrs, Located};
use crate::drafts::{Draft, record_draft, unix_millis};
use crate::identity::artefact_name;

/// Whether `l` is a persisted task (`…/recent_tasks/<digits>_task.xml`).
pub fn is_task_file(l: &Located) -> bool {
    l.path.contains("/recent_tasks/")
        && l.name()
            .strip_suffix("_task.xml")
            .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// The root `<task>` element's attributes and its `<intent>`'s.
fn parse(xml: &str) -> Result<(Attrs, Attrs), String> {
    let mut reader = quick_xml::Reader::from_str(xml);
    let mut task = None;
    let mut intent = Vec::new();
    let attrs = super::xml_attrs;
    loop {
        match reader.read_event() {
            Ok(Event::Start(e)) | Ok(Event::Empty(e)) => {
                let tag = AsRef::<str>::as_ref(&e.name()).to_string();
                match (&task, tag.as_str()) {
                    (None, "task") => task = Some(attrs(&e)),
                    (None, other) => {
                        return Err(format!("its root element is <{other}>, not <task>"));
                    }
                    (Some(_), "intent") if intent.is_empty() => intent = attrs(&e),
                    _ => {}
                }
            }
            Ok(Event::Eof) => break,
            Ok(_) => {}
            Err(e) => return Err(format!("at byte {}: {e}", reader.error_position())),
        }
    }
    task.map(|t| (t, intent))
        .ok_or_else(|| "it holds no XML element".into())
}

/// One persisted task.
pub fn task_file(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let name = artefact_name(&l.tree, &l.path);
    let Some((inv, _, (task, intent))) = super::read_xml(ctx, l, "a recent task", parse)? else {
        return Ok(());
    };
    let get = |key: &str| {
        task.iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
            .filter(|v| !v.is_empty())
    };
    let app = get("affinity")
        .or_else(|| get("real_activity"))
        .unwrap_or("an unnamed app");
    let id = get("task_id").unwrap_or("?");
    let mut d = Draft::new("app_usage", format!("Recent task {id}: {app}"));
    d.fact(FactType::Path, Some(&l.path), &l.found);
    for key in ["affinity", "real_activity", "calling_package"] {
        d.fact(FactType::Identifier, get(key), &inv);
    }
    d.fact(
        FactType::Identifier,
        intent
            .iter()
            .find(|(k, _)| k == "component")
            .map(|(_, v)| v.as_str()),
        &inv,
    );
    d.fact(FactType::Identifier, get("effective_uid"), &inv);
    for (key, what) in [
        ("first_active_time", "Task first active"),
        ("last_active_time", "Task last active"),
        ("last_time_moved", "Task last moved"),
    ] {
        let v = get(key);
        d.time(v, unix_millis(v), what, &inv);
    }
    d.interpretation = format!(
        "{name}: task {id} of user {} in the overview screen — {app} (activity {}{}); the times are Unix milliseconds.",
        get("user_id").unwrap_or("?"),
        get("real_activity").unwrap_or("not stored"),
        get("calling_package")
            .map(|c| format!(", started by {c}"))
            .unwrap_or_default(),
    );
    record_draft(ctx, d)
}
