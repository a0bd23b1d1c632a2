//! The device's users (`/data/system/users/<id>.xml`, AOSP `UserManagerService`; plain XML
//! before Android 12, ABX since, read with `read_xml`): one phenomenon per user — id, serial,
//! type (full, guest, managed work profile), flags, the name the user has on the device, when
//! it was created and last logged in (Unix ms; 0 is "not recorded"). The primary user's name
//! (id 0) is a display name of the device's user (weak; Android's default "Owner" is none);
//! another full user's is an `android-user:<id>` person's (a work profile's or a guest's name
//! names no person).

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{EntityKind, FactType, IdType};
use quick_xml::events::Event;

use super::Located;
use crate::drafts::{Draft, record_draft, unix_millis};
use crate::identity::{artefact_name, observe};

/// Whether `l` is a user's file (`…/system/users/<digits>.xml`).
pub fn is_user_file(l: &Located) -> bool {
    l.path.contains("/system/users/")
        && l.name()
            .strip_suffix(".xml")
            .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// The `<user>` element's attributes and its `<name>` text, as the XML text holds them.
#[derive(Debug, Default)]
struct User {
    attrs: Vec<(String, String)>,
    name: Option<String>,
}

impl User {
    fn get(&self, key: &str) -> Option<&str> {
        self.attrs
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }
}

fn parse(xml: &str) -> Result<User, String> {
    let mut reader = quick_xml::Reader::from_str(xml);
    let mut user = None::<User>;
    let mut in_name = false;
    loop {
        match reader.read_event() {
            Ok(Event::Start(e)) | Ok(Event::Empty(e)) => {
                let tag = AsRef::<str>::as_ref(&e.name()).to_string();
                match (&mut user, tag.as_str()) {
                    (None, "user") => {
                        let mut u = User::default();
                        for a in e.attributes().flatten() {
                            u.attrs.push((
                                AsRef::<str>::as_ref(&a.key).to_string(),
                                a.value.into_owned(),
                            ));
                        }
                        user = Some(u);
                    }
                    (None, other) => {
                        return Err(format!("its root element is <{other}>, not <user>"));
                    }
                    (Some(_), "name") => in_name = true,
                    _ => {}
                }
            }
            Ok(Event::Text(t)) if in_name => {
                if let Some(u) = &mut user {
                    u.name = Some(AsRef::<str>::as_ref(&t).to_string());
                }
            }
            Ok(Event::End(_)) => in_name = false,
            Ok(Event::Eof) => break,
            Ok(_) => {}
            Err(e) => return Err(format!("at byte {}: {e}", reader.error_position())),
        }
    }
    user.ok_or_else(|| "it holds no XML element".into())
}

/// One user's file.
pub fn user_file(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let name = artefact_name(&l.tree, &l.path);
    let Some((inv, _, user)) = super::read_xml(ctx, l, "a user's file", parse)? else {
        return Ok(());
    };
    let id = user.get("id").unwrap_or("?");
    let who = user.name.as_deref().filter(|n| !n.trim().is_empty());
    let kind = user.get("type").unwrap_or("type not recorded");
    let mut d = Draft::new(
        "accounts",
        format!(
            "Android user {id}{}",
            who.map(|n| format!(": {n}")).unwrap_or_default()
        ),
    );
    d.fact(FactType::Path, Some(&l.path), &l.found);
    d.fact(FactType::Name, who, &inv);
    d.fact(FactType::Identifier, user.get("serialNumber"), &inv);
    d.fact(FactType::Text, user.get("type"), &inv);
    d.fact(FactType::Text, user.get("lastLoggedInFingerprint"), &inv);
    for (key, what) in [
        ("created", "User created"),
        ("lastLoggedIn", "User last logged in"),
    ] {
        let v = user.get(key);
        d.time(v, unix_millis(v), what, &inv);
    }
    d.interpretation = format!(
        "{name}: the device's user {id} ({kind}, flags {}){}; created and lastLoggedIn are Unix milliseconds (0: not recorded).",
        user.get("flags").unwrap_or("?"),
        who.map(|n| format!(", named {n} on the device"))
            .unwrap_or_else(|| ", without a name".into()),
    );
    record_draft(ctx, d)?;
    // a person's name: a full user's, not a work profile's or a guest's, nor Android's default
    let full = user
        .get("type")
        .is_none_or(|t| t.contains(".full.") && !t.ends_with(".GUEST"));
    if let Some(n) = who.filter(|n| full && *n != "Owner") {
        let (context, label) = if id == "0" {
            ("owner".to_string(), "device owner".to_string())
        } else {
            (format!("android-user:{id}"), n.to_string())
        };
        observe(
            ctx,
            &context,
            EntityKind::Person,
            &label,
            IdType::DisplayName,
            n,
            &inv,
            format!("{n} is the name of the device's user {id} ({})", l.name()),
        )?;
    }
    Ok(())
}
