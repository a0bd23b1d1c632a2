//! Runtime permissions (`system/users/<user>/runtime-permissions.xml`; since Android 11
//! `misc_de/<user>/apexdata/com.android.permission/runtime-permissions.xml`), plain XML or ABX,
//! ALEAPP's `runtimePerms`: which dangerous permissions (location, camera, microphone, contacts,
//! SMS, call log …) each app and shared user held for one Android user. One `apps` phenomenon per
//! `<pkg>` or `<shared-user>`: its name, every permission with whether it was granted and its
//! flags as stored (a permission the user refused is `granted="false"`, often with the
//! user-set flag). Read with `read_xml` (ABX decoded). At most [`MAX_ROWS`] packages a file.
//! Identities: none.

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::FactType;
use quick_xml::events::Event;

use super::{Attrs, Located, MAX_ROWS};
use crate::drafts::{Draft, record_draft};
use crate::identity::artefact_name;

/// Whether `l` is a runtime permissions file.
pub fn is_file(l: &Located) -> bool {
    l.name() == "runtime-permissions.xml"
        && (l.path.contains("/system/users/")
            || l.path.contains("/apexdata/com.android.permission/"))
}

/// The Android user a file belongs to, from its path.
fn user(path: &str) -> Option<&str> {
    let after = path
        .split_once("/system/users/")
        .or_else(|| path.split_once("/misc_de/"))?
        .1;
    let u = after.split('/').next()?;
    u.bytes().all(|b| b.is_ascii_digit()).then_some(u)
}

/// One `<pkg>` or `<shared-user>` with its items (name, granted, flags).
struct Holder {
    kind: String,
    name: String,
    items: Vec<(String, Option<String>, Option<String>)>,
}

fn get(a: &Attrs, key: &str) -> Option<String> {
    a.iter()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v.clone())
        .filter(|v| !v.is_empty())
}

fn parse(xml: &str) -> Result<Vec<Holder>, String> {
    let mut reader = quick_xml::Reader::from_str(xml);
    let mut seen_root = false;
    let mut out: Vec<Holder> = Vec::new();
    loop {
        let e = match reader.read_event() {
            Ok(Event::Start(e) | Event::Empty(e)) => e,
            Ok(Event::Eof) => break,
            Ok(_) => continue,
            Err(e) => return Err(format!("at byte {}: {e}", reader.error_position())),
        };
        let tag = AsRef::<str>::as_ref(&e.name()).to_string();
        let a = super::xml_attrs(&e);
        match tag.as_str() {
            "runtime-permissions" => seen_root = true,
            _ if !seen_root => {
                return Err(format!(
                    "its root element is <{tag}>, not <runtime-permissions>"
                ));
            }
            "pkg" | "shared-user" => out.push(Holder {
                kind: tag.clone(),
                name: get(&a, "name").unwrap_or_else(|| "?".into()),
                items: Vec::new(),
            }),
            "item" | "permission" => {
                if let (Some(h), Some(n)) = (out.last_mut(), get(&a, "name")) {
                    h.items.push((n, get(&a, "granted"), get(&a, "flags")));
                }
            }
            _ => {}
        }
    }
    if !seen_root {
        return Err("it holds no XML element".into());
    }
    Ok(out)
}

/// One `runtime-permissions.xml`.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let name = artefact_name(&l.tree, &l.path);
    let Some((inv, format, holders)) = super::read_xml(ctx, l, "runtime permissions", parse)?
    else {
        return Ok(());
    };
    let who = user(&l.path).unwrap_or("?");
    for (i, h) in holders.iter().enumerate() {
        if i as u64 >= MAX_ROWS {
            ctx.unparsed(
                &name,
                &format!(
                    "{} packages: those past the first {MAX_ROWS} were not read",
                    holders.len()
                ),
                Some(&inv.record.invocation_id),
            )?;
            break;
        }
        let granted: Vec<&str> = h
            .items
            .iter()
            .filter(|(_, g, _)| g.as_deref() == Some("true"))
            .map(|(n, _, _)| n.as_str())
            .collect();
        let mut d = Draft::new(
            "apps",
            format!(
                "Runtime permissions of {}{} (user {who}): {} granted",
                if h.kind == "shared-user" {
                    "the shared user "
                } else {
                    ""
                },
                h.name,
                granted.len()
            ),
        );
        d.fact(FactType::Path, Some(&l.path), &l.found);
        d.fact(
            FactType::Identifier,
            Some(h.name.as_str()).filter(|n| *n != "?"),
            &inv,
        );
        let mut said = Vec::new();
        for (perm, g, flags) in &h.items {
            d.fact(FactType::Text, Some(perm), &inv);
            said.push(format!(
                "{perm} {}{}",
                match g.as_deref() {
                    Some("true") => "granted",
                    Some("false") => "not granted",
                    _ => "state not recorded",
                },
                flags
                    .as_deref()
                    .map(|f| format!(" (flags {f})"))
                    .unwrap_or_default()
            ));
        }
        d.interpretation = format!(
            "{name} ({format}): the runtime permissions Android recorded for {} {} of user {who}: {}.",
            if h.kind == "shared-user" {
                "the shared user"
            } else {
                "the app"
            },
            h.name,
            if said.is_empty() {
                "none".to_string()
            } else {
                said.join("; ")
            }
        );
        record_draft(ctx, d)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn users_of_both_locations() {
        assert_eq!(
            user("/data/system/users/0/runtime-permissions.xml"),
            Some("0")
        );
        assert_eq!(
            user("/data/misc_de/10/apexdata/com.android.permission/runtime-permissions.xml"),
            Some("10")
        );
        assert_eq!(user("/x/runtime-permissions.xml"), None);
    }
}
