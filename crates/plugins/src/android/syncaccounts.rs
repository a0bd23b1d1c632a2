//! The sync manager's accounts file (`/data/system/sync/accounts.xml`, AOSP's
//! `SyncStorageEngine`), ALEAPP's `syncAccounts` (`syncAccountsXml`): which data of which
//! account the device syncs. Plain XML before Android 12, Android Binary XML (ABX) since, read
//! with `read_xml` either way so the facts ground in the same XML text; values are taken as the
//! text holds them.
//!
//! | element | phenomenon | fields |
//! |---|---|---|
//! | `<authority account type authority …>` | one `accounts` per account and provider ("Sync of <provider> for <account> (<type>)", with " (user <n>)" for another Android user) | account name, account type, provider authority, sync automatically (`enabled`), syncable as stored (-2 undefined, -1 not initialised, 0 not syncable, 1 syncable, 2 syncable before its initial sync, 3 syncable without access to the account; `true`/`false`/`unknown` in old files), the entry's id, the Android user; each `<periodicSync>` child's period and flex (seconds; Android 7 and earlier) |
//! | `<authority package class …>` (no account; Android 5–7) | one `accounts` per sync service ("Sync of service <package>/<class>") | package, class, enabled, syncable, id, user |
//! | `<listenForTickles user enabled>` (the root's `listen-for-tickles` in the oldest files) | one `accounts` per user ("Auto-sync of user <n>") | user, enabled: the "automatically sync data" switch |
//!
//! An entry says the account exists (or existed) on the device with that provider registered
//! for it, and whether the user left it to sync; it is no proof data was synced. The file keeps
//! no time: the last sync times are in `status.bin` (a Parcel, protobuf since Android 9), not
//! read. Identities: each account name of Android user 0 that is an e-mail address (a Google
//! account when its type is `com.google`) or a phone number (`+…`: a messenger's account) is
//! observed as the owner's — the device's user added the account; another user's as that
//! user's `android-user:<id>` person (a work profile or a second person, which the file does not
//! tell); a name that is neither ("WhatsApp") stays a fact. A file whose root is not
//! `<accounts>`, or an ABX file that does not decode, is noted.

use std::collections::BTreeSet;

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{EntityKind, FactType, IdType};
use masf_tools::Invoked;
use quick_xml::events::{BytesStart, Event};

use super::Located;
use crate::drafts::{Draft, record_draft};
use crate::identity::{artefact_name, normalized, observe};

/// Whether `l` is the sync manager's accounts file.
pub fn is_sync_accounts(l: &Located) -> bool {
    l.path.ends_with("/system/sync/accounts.xml")
}

/// An element's attributes as the XML text holds them (escaped, never unescaped).
#[derive(Debug, Default, Clone)]
struct Attrs(Vec<(String, String)>);

impl Attrs {
    fn of(e: &BytesStart<'_>) -> Self {
        Attrs(
            e.attributes()
                .flatten()
                .map(|a| {
                    (
                        AsRef::<str>::as_ref(&a.key).to_string(),
                        a.value.into_owned(),
                    )
                })
                .collect(),
        )
    }

    fn get(&self, key: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
            .filter(|v| !v.is_empty())
    }
}

/// One `<authority>` with its `<periodicSync>` children.
#[derive(Debug, Default)]
struct Authority {
    attrs: Attrs,
    periodic: Vec<Attrs>,
}

/// The file: the root's attributes, the auto-sync switches, the authorities.
#[derive(Debug, Default)]
struct Accounts {
    root: Attrs,
    tickles: Vec<Attrs>,
    authorities: Vec<Authority>,
}

fn parse(xml: &str) -> Result<Accounts, String> {
    let mut reader = quick_xml::Reader::from_str(xml);
    let mut out = None::<Accounts>;
    // whether the last authority is still open (its children follow)
    let mut open = false;
    loop {
        let (e, empty) = match reader.read_event() {
            Ok(Event::Start(e)) => (e, false),
            Ok(Event::Empty(e)) => (e, true),
            Ok(Event::End(e)) => {
                if AsRef::<str>::as_ref(&e.name()) == "authority" {
                    open = false;
                }
                continue;
            }
            Ok(Event::Eof) => break,
            Ok(_) => continue,
            Err(e) => return Err(format!("at byte {}: {e}", reader.error_position())),
        };
        let tag = AsRef::<str>::as_ref(&e.name()).to_string();
        if out.is_none() {
            if tag != "accounts" {
                return Err(format!("its root element is <{tag}>, not <accounts>"));
            }
            out = Some(Accounts {
                root: Attrs::of(&e),
                ..Default::default()
            });
            continue;
        }
        let Some(acc) = out.as_mut() else {
            continue;
        };
        match tag.as_str() {
            "listenForTickles" => acc.tickles.push(Attrs::of(&e)),
            "authority" => {
                acc.authorities.push(Authority {
                    attrs: Attrs::of(&e),
                    periodic: Vec::new(),
                });
                open = !empty;
            }
            "periodicSync" if open => {
                if let Some(a) = acc.authorities.last_mut() {
                    a.periodic.push(Attrs::of(&e));
                }
            }
            _ => {}
        }
    }
    out.ok_or_else(|| "it holds no XML element".into())
}

/// What a `syncable` value means (AOSP's `AuthorityInfo` constants; old files' words).
fn syncable_meaning(v: &str) -> &'static str {
    match v {
        "-2" => "undefined",
        "-1" | "unknown" => "not initialised",
        "0" | "false" => "not syncable",
        "1" | "true" => "syncable",
        "2" => "syncable, awaiting its initial sync",
        "3" => "syncable, awaiting access to the account",
        _ => "a value AOSP does not define",
    }
}

/// The sync manager's `accounts.xml`.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some((inv, format, acc)) =
        super::read_xml(ctx, l, "the sync manager's accounts file", parse)?
    else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    let version = acc.root.get("version").unwrap_or("not given");
    let file = format!("{name} ({format}, accounts version {version})");
    // the auto-sync switch of each user (the oldest files: one on the root)
    let mut switches: Vec<(Option<&str>, &str, bool)> = acc
        .tickles
        .iter()
        .filter_map(|t| Some((t.get("user"), t.get("enabled")?, false)))
        .collect();
    if let Some(v) = acc.root.get("listen-for-tickles") {
        switches.push((None, v, true));
    }
    for (user, enabled, on_root) in switches {
        let u = user.unwrap_or("0");
        let mut d = Draft::new("accounts", format!("Auto-sync of user {u}"));
        d.fact(FactType::Path, Some(&l.path), &l.found);
        d.fact(FactType::Text, user, &inv);
        d.fact(FactType::Text, Some(enabled), &inv);
        d.interpretation = format!(
            "{file}: {} = {enabled}: the \"automatically sync data\" switch of Android user {u} ({}).",
            if on_root {
                "the root's listen-for-tickles"
            } else {
                "listenForTickles enabled"
            },
            if enabled == "true" {
                "on: accounts sync by themselves"
            } else {
                "off: nothing syncs unless asked"
            }
        );
        record_draft(ctx, d)?;
    }
    let mut observed = BTreeSet::new();
    for a in &acc.authorities {
        let at = &a.attrs;
        let user = at.get("user").unwrap_or("0");
        let on_user = if user == "0" {
            String::new()
        } else {
            format!(" (user {user})")
        };
        let title = match (at.get("account"), at.get("authority"), at.get("package")) {
            (Some(account), Some(provider), _) => format!(
                "Sync of {provider} for {account} ({}){on_user}",
                at.get("type").unwrap_or("type not given")
            ),
            (_, _, Some(package)) => format!(
                "Sync of service {package}/{}{on_user}",
                at.get("class").unwrap_or("?")
            ),
            _ => format!("Sync entry {}{on_user}", at.get("id").unwrap_or("?")),
        };
        let mut d = Draft::new("accounts", title);
        d.fact(FactType::Path, Some(&l.path), &l.found);
        d.fact(FactType::Account, at.get("account"), &inv);
        for key in [
            "type",
            "authority",
            "package",
            "class",
            "enabled",
            "syncable",
            "user",
        ] {
            d.fact(FactType::Text, at.get(key), &inv);
        }
        d.fact(FactType::Identifier, at.get("id"), &inv);
        let mut periods = Vec::new();
        for p in &a.periodic {
            d.fact(FactType::Count, p.get("period"), &inv);
            d.fact(FactType::Count, p.get("flex"), &inv);
            periods.push(format!(
                "every {} s (flex {} s)",
                p.get("period").unwrap_or("?"),
                p.get("flex").unwrap_or("?")
            ));
        }
        let syncable = at.get("syncable");
        d.interpretation = format!(
            "{file}, authority {}: {} of Android user {user}; sync automatically {}; syncable {}{}.",
            at.get("id").unwrap_or("?"),
            match (at.get("account"), at.get("authority")) {
                (Some(account), Some(provider)) => format!(
                    "the provider {provider} registered to sync the account {account} (type {})",
                    at.get("type").unwrap_or("not given")
                ),
                _ => format!(
                    "the sync service {}/{} (bound to no account)",
                    at.get("package").unwrap_or("?"),
                    at.get("class").unwrap_or("?")
                ),
            },
            at.get("enabled").unwrap_or("not stored"),
            syncable
                .map(|s| format!("{s} ({})", syncable_meaning(s)))
                .unwrap_or_else(|| "not stored".into()),
            if periods.is_empty() {
                String::new()
            } else {
                format!("; periodic sync {}", periods.join(", "))
            },
        );
        record_draft(ctx, d)?;
        if let Some(account) = at.get("account")
            && observed.insert((user.to_string(), account.to_string()))
        {
            owner_account(ctx, &inv, &name, user, account, at.get("type"))?;
        }
    }
    Ok(())
}

/// Observes an account name that is an e-mail address or a phone number: the owner's for
/// Android user 0, else that user's `android-user:<id>` person.
fn owner_account(
    ctx: &AgentCtx<'_>,
    inv: &Invoked,
    file: &str,
    user: &str,
    account: &str,
    kind: Option<&str>,
) -> Result<(), RuntimeError> {
    let id_type = if kind == Some("com.google")
        && normalized(ctx, IdType::GoogleAccount, account).is_some()
    {
        IdType::GoogleAccount
    } else if account.contains('@') && normalized(ctx, IdType::Email, account).is_some() {
        IdType::Email
    } else if account.starts_with('+') && normalized(ctx, IdType::Phone, account).is_some() {
        IdType::Phone
    } else {
        return Ok(());
    };
    let (context, label) = if user == "0" {
        ("owner".to_string(), "device owner".to_string())
    } else {
        (
            format!("android-user:{user}"),
            format!("Android user {user}"),
        )
    };
    observe(
        ctx,
        &context,
        EntityKind::Person,
        &label,
        id_type,
        account,
        inv,
        format!(
            "{account} is an account ({}) of Android user {user} that the sync manager syncs ({file}): an account added on the device by its user.",
            kind.unwrap_or("type not given")
        ),
    )?;
    Ok(())
}
