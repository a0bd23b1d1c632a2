//! Role holders (`system/users/<user>/roles.xml` on Android 10; since Android 11 the permission
//! module's `misc_de/<user>/apexdata/com.android.permission/roles.xml`), ALEAPP's `roles`
//! (`get_roles`): which app holds each role of one Android user — the default SMS app, phone app
//! (dialer), browser, digital assistant, home screen, caller-ID and spam app, wallet, notes app …
//! AOSP writes the file as plain XML (`<roles version packagesHash>`, one `<role name>` each
//! holding its `<holder name>` packages; newer releases add `fallbackEnabled` to a role); it is
//! read with `read_xml`, which decodes an ABX copy to the same text.
//!
//! | element | phenomenon | fields |
//! |---|---|---|
//! | `<roles>` | one `apps` per file, titled `Roles of Android user <user>: <n> roles, <m> held` | the user (from the path), `version` and `packagesHash` as stored; how many roles and how many held (interpretation) |
//! | `<role>` | one `apps` per role, titled `Role <name> of Android user <user>: <holders>` (or `no holder`) | role name, each holder's package, `fallbackEnabled` and any other attribute of the role as stored |
//!
//! What it proves: the holders the role service last wrote for that user — the app made the
//! default by the user, by the phone's setup, or by an app's request the user accepted (a
//! sideloaded SMS or dialer app holding the role reads every message or call). It does not say
//! when a holder was set, nor who chose it. A role without a holder is one no app holds (the
//! user chose none, or no installed app qualifies). `packagesHash` is the role service's hash of
//! the installed packages when it last granted the default holders, and `version` the version of
//! the role configuration then: neither is a user's value. ALEAPP reports one holder per role;
//! every holder is read here.
//!
//! Schema drift: the root's and a role's attributes are read as the file has them (Android 10's
//! file has no `packagesHash`; a role's attributes other than `name` — `fallbackEnabled` — are
//! each a fact when present). A file whose root is not `<roles>` (another app's `roles.xml` at
//! the same path, a damaged copy) is noted and the source's other files are read; an ABX copy
//! that does not decode is noted by `read_xml`'s failure. At most [`MAX_ROWS`] roles a file
//! (noted beyond). Another app's `roles.xml` (its `shared_prefs`) is not read ([`is_file`]).
//!
//! Identities: none (holders are apps, not persons).

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::FactType;
use quick_xml::events::Event;

use super::{Attrs, Located, MAX_ROWS};
use crate::drafts::{Draft, record_draft};
use crate::identity::artefact_name;

/// What the roles AOSP defines are for (role name → what its holder is), for the
/// interpretation; a role not listed is named as stored.
const KNOWN: &[(&str, &str)] = &[
    ("android.app.role.SMS", "the default SMS app"),
    ("android.app.role.DIALER", "the default phone (dialer) app"),
    ("android.app.role.BROWSER", "the default browser"),
    ("android.app.role.HOME", "the home screen (launcher)"),
    ("android.app.role.ASSISTANT", "the digital assistant"),
    (
        "android.app.role.CALL_SCREENING",
        "the caller ID and spam app",
    ),
    (
        "android.app.role.CALL_REDIRECTION",
        "the call redirection app",
    ),
    (
        "android.app.role.EMERGENCY",
        "the emergency information app",
    ),
    ("android.app.role.NOTES", "the notes app"),
    (
        "android.app.role.WALLET",
        "the default wallet (contactless payment) app",
    ),
    ("android.app.role.SYSTEM_GALLERY", "the system gallery"),
    (
        "android.app.role.COMPANION_DEVICE_WATCH",
        "a companion app of a watch",
    ),
    (
        "android.app.role.DEVICE_POLICY_MANAGEMENT",
        "the device policy (management) app",
    ),
];

/// Whether `l` is a role holders file (not another app's `roles.xml`).
pub fn is_file(l: &Located) -> bool {
    is_path(&l.path)
}

/// Whether `path` is a role holders file's (`categorise`'s guard).
pub fn is_path(path: &str) -> bool {
    user(path).is_some()
}

/// The Android user a file belongs to, from its path (`…/system/users/<user>/roles.xml`,
/// `…/misc_de/<user>/apexdata/com.android.permission/roles.xml`).
fn user(path: &str) -> Option<&str> {
    let (u, rest) = if let Some((_, after)) = path.split_once("/system/users/") {
        after.split_once('/')?
    } else {
        let (_, after) = path.split_once("/misc_de/")?;
        let (u, rest) = after.split_once('/')?;
        (u, rest.strip_prefix("apexdata/com.android.permission/")?)
    };
    (rest == "roles.xml" && !u.is_empty() && u.bytes().all(|b| b.is_ascii_digit())).then_some(u)
}

/// One `<role>`: its attributes and its holders' package names, as the text holds them.
#[derive(Debug)]
struct Role {
    attrs: Attrs,
    holders: Vec<String>,
}

fn get<'a>(a: &'a Attrs, key: &str) -> Option<&'a str> {
    a.iter()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v.as_str())
        .filter(|v| !v.is_empty())
}

/// What a `roles.xml` holds: the root's attributes, the roles in document order, and what cut
/// the file short, if anything (the roles before the cut or the damage are read).
#[derive(Debug)]
struct Roles {
    root: Attrs,
    roles: Vec<Role>,
    cut: Option<String>,
}

fn parse(xml: &str) -> Result<Roles, String> {
    let mut reader = quick_xml::Reader::from_str(xml);
    let mut root: Option<Attrs> = None;
    let mut roles: Vec<Role> = Vec::new();
    let mut closed = false;
    let mut damage = None;
    loop {
        let (e, empty) = match reader.read_event() {
            Ok(Event::Start(e)) => (e, false),
            Ok(Event::Empty(e)) => (e, true),
            Ok(Event::End(e)) => {
                closed |= AsRef::<str>::as_ref(&e.name()) == "roles";
                continue;
            }
            Ok(Event::Eof) => break,
            Ok(_) => continue,
            Err(e) if root.is_some() => {
                damage = Some(format!(
                    "it is damaged at byte {}: {e}",
                    reader.error_position()
                ));
                break;
            }
            Err(e) => return Err(format!("at byte {}: {e}", reader.error_position())),
        };
        let tag = AsRef::<str>::as_ref(&e.name()).to_string();
        let a = super::xml_attrs(&e);
        match tag.as_str() {
            "roles" if root.is_none() => {
                root = Some(a);
                // `<roles … />`: no role at all
                closed = empty;
            }
            _ if root.is_none() => {
                return Err(format!("its root element is <{tag}>, not <roles>"));
            }
            "role" => roles.push(Role {
                attrs: a,
                holders: Vec::new(),
            }),
            "holder" => {
                if let (Some(r), Some(n)) = (roles.last_mut(), get(&a, "name")) {
                    r.holders.push(n.to_string());
                }
            }
            _ => {}
        }
    }
    let root = root.ok_or_else(|| "it holds no XML element".to_string())?;
    let cut = damage.or_else(|| (!closed).then(|| "it ends before </roles> (cut short)".into()));
    Ok(Roles { root, roles, cut })
}

/// One `roles.xml`.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let name = artefact_name(&l.tree, &l.path);
    let Some((inv, format, parsed)) = super::read_xml(ctx, l, "role holders", parse)? else {
        return Ok(());
    };
    let Roles { root, roles, cut } = parsed;
    if let Some(why) = cut {
        ctx.unparsed(
            &name,
            &format!("{why}: the {} roles before it were read", roles.len()),
            Some(&inv.record.invocation_id),
        )?;
    }
    let who = user(&l.path).unwrap_or("?");
    let held = roles.iter().filter(|r| !r.holders.is_empty()).count();

    // the user's role state
    let mut d = Draft::new(
        "apps",
        format!(
            "Roles of Android user {who}: {} roles, {held} held",
            roles.len()
        ),
    );
    d.fact(FactType::Path, Some(&l.path), &l.found);
    let version = get(&root, "version");
    let hash = get(&root, "packagesHash");
    d.fact(FactType::Identifier, version, &inv);
    d.fact(FactType::Hash, hash, &inv);
    d.interpretation = format!(
        "{name} ({format}): the role holders Android recorded for user {who}: {} roles, {held} of them held by an app; role configuration version {}, packages hash {} (the role service's hash of the installed packages when it last granted the default holders; not a user's value).",
        roles.len(),
        version.unwrap_or("not recorded"),
        hash.unwrap_or("not recorded"),
    );
    record_draft(ctx, d)?;

    for (i, r) in roles.iter().enumerate() {
        if i as u64 >= MAX_ROWS {
            ctx.unparsed(
                &name,
                &format!(
                    "{} roles: those past the first {MAX_ROWS} were not read",
                    roles.len()
                ),
                Some(&inv.record.invocation_id),
            )?;
            break;
        }
        let role = get(&r.attrs, "name").unwrap_or("?");
        let holders = if r.holders.is_empty() {
            "no holder".to_string()
        } else {
            r.holders.join(", ")
        };
        let mut d = Draft::new(
            "apps",
            format!("Role {role} of Android user {who}: {holders}"),
        );
        d.fact(FactType::Path, Some(&l.path), &l.found);
        d.fact(FactType::Identifier, Some(role).filter(|v| *v != "?"), &inv);
        for h in &r.holders {
            d.fact(FactType::Identifier, Some(h.as_str()), &inv);
        }
        let mut said = Vec::new();
        for (k, v) in r.attrs.iter().filter(|(k, _)| k != "name") {
            d.fact(FactType::Text, Some(v.as_str()), &inv);
            said.push(format!("{k} {v}"));
        }
        let what = KNOWN
            .iter()
            .find(|(n, _)| *n == role)
            .map(|(_, w)| format!(" ({w})"))
            .unwrap_or_default();
        d.interpretation = format!(
            "{name} ({format}): for Android user {who}, the role {role}{what} {}{}.",
            match r.holders.as_slice() {
                [] => "is held by no app".to_string(),
                [one] => format!("is held by {one}"),
                many => format!("is held by {} apps: {}", many.len(), many.join(", ")),
            },
            if said.is_empty() {
                String::new()
            } else {
                format!("; as stored: {}", said.join(", "))
            },
        );
        record_draft(ctx, d)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roles_users_of_both_locations() {
        assert_eq!(user("/data/system/users/0/roles.xml"), Some("0"));
        assert_eq!(
            user("/data/misc_de/10/apexdata/com.android.permission/roles.xml"),
            Some("10")
        );
        assert_eq!(user("/data/data/com.example/shared_prefs/roles.xml"), None);
        assert_eq!(user("/data/misc_de/0/apexdata/other/roles.xml"), None);
        assert_eq!(user("/data/system/users/0/x/roles.xml"), None);
    }

    #[test]
    fn roles_parse_holders_and_attributes() {
        let xml = "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>\n<roles version=\"3\" packagesHash=\"AB\">\n<role name=\"android.app.role.SMS\" fallbackEnabled=\"false\">\n<holder name=\"com.a\" />\n</role>\n<role name=\"android.app.role.HOME\"></role>\n</roles>\n";
        let r = parse(xml).unwrap();
        assert_eq!(r.cut, None);
        assert_eq!(get(&r.root, "packagesHash"), Some("AB"));
        assert_eq!(r.roles.len(), 2);
        assert_eq!(r.roles[0].holders, vec!["com.a".to_string()]);
        assert!(r.roles[1].holders.is_empty());
        let cut = parse(&xml[..xml.find("<role name=\"android.app.role.HOME").unwrap()]).unwrap();
        assert!(cut.cut.unwrap().contains("cut short"));
        assert_eq!(cut.roles.len(), 1);
        assert_eq!(parse("<roles version=\"0\" />").unwrap().cut, None);
        let bad = parse(&xml[..xml.find("fallbackEnabled").unwrap()]).unwrap();
        assert!(
            bad.cut.unwrap().contains("damaged"),
            "a tag cut in its middle"
        );
        assert!(parse("<map />").unwrap_err().contains("not <roles>"));
    }
}
