//! Which app an app data container (`Containers/Data/Application/<GUID>/`) belongs to, for the
//! readers of files whose names other apps use too (`Messaging.sqlite`, `activeUser`, a GraphQL
//! cache in `Library/gqlData/`, `conversation_cache`): a file is read as the app's only when its
//! container is known to be the app's, by the first of
//!
//! 1. the folder's name: an iTunes/Finder backup names an app's container after its bundle
//!    (`AppDomain-<bundle>`, presented as `Containers/Data/Application/<bundle>`);
//! 2. FrontBoard's application state ([`super::appstate`], [`Run::app_of`]): a container it
//!    gives to another bundle is not the app's, whatever else it holds;
//! 3. the container's metadata (`.com.apple.mobile_container_manager.metadata.plist`, read with
//!    `parse_plist`): its `MCMMetadataIdentifier` is the bundle ([`super::containers`] records
//!    every container's owner so);
//! 4. the app's preferences file named after its bundle (`Library/Preferences/<bundle>.plist`)
//!    in the same container.
//!
//! The first three are [`container_owner`], which also serves readers that ask whose a
//! container is rather than whether it is one app's (DMSS, Hik-Connect, Duo).
//!
//! A container none of them names is not the app's: its files are neither read nor noted (they
//! are another app's).

use std::collections::BTreeMap;

use masf_agents::RuntimeError;
use masf_graph::FactType;
use masf_tools::Invoked;
use serde_json::{Value, json};

use super::{Draft, Run, container_of};

/// The data containers of one app, as the source tells them.
pub struct AppContainers {
    bundle: &'static str,
    /// The file name of the app's preferences (`<bundle>.plist`).
    prefs_name: String,
    /// The containers holding the app's preferences file.
    prefs: Vec<String>,
    /// Each container asked about: how it is known to be the app's (`None`: it is not, or
    /// nothing says so).
    known: BTreeMap<String, Option<String>>,
}

impl AppContainers {
    /// The containers of the app `bundle`, whose preferences file is `prefs`
    /// (`Library/Preferences/<prefs>` of its container).
    pub fn new(run: &Run<'_, '_>, bundle: &'static str, prefs: &str) -> Result<Self, RuntimeError> {
        let tail = format!("/Library/Preferences/{prefs}");
        let with_prefs: Vec<String> = run
            .find(prefs)?
            .map(|(_, paths)| {
                paths
                    .iter()
                    .filter_map(|p| {
                        let c = p.strip_suffix(tail.as_str())?;
                        (container_of(p) == Some(c)).then(|| c.to_string())
                    })
                    .collect()
            })
            .unwrap_or_default();
        Ok(Self {
            bundle,
            prefs_name: prefs.to_string(),
            prefs: with_prefs,
            known: BTreeMap::new(),
        })
    }

    /// How the data container holding `path` is known to be the app's (a phrase for the
    /// interpretation); `None` when `path` is in no data container, when the container is
    /// another app's, or when nothing says whose it is.
    pub fn holds(&mut self, run: &Run<'_, '_>, path: &str) -> Result<Option<String>, RuntimeError> {
        let Some(container) = container_of(path).map(str::to_string) else {
            return Ok(None);
        };
        if let Some(how) = self.known.get(&container) {
            return Ok(how.clone());
        }
        let how = self.owner(run, path, &container)?;
        self.known.insert(container, how.clone());
        Ok(how)
    }

    /// Whether the container holding `path` is known to be the app's ([`AppContainers::holds`]).
    pub fn is_app(&mut self, run: &Run<'_, '_>, path: &str) -> Result<bool, RuntimeError> {
        Ok(self.holds(run, path)?.is_some())
    }

    fn owner(
        &self,
        run: &Run<'_, '_>,
        path: &str,
        container: &str,
    ) -> Result<Option<String>, RuntimeError> {
        let bundle = self.bundle;
        let guid = container.rsplit('/').next().unwrap_or_default();
        // the folder's name, FrontBoard's state, the container's metadata: a container one of
        // them gives to another bundle is not the app's
        if let Some(find) = run.searched_call()
            && let Some(owner) = container_owner(run, &find, path)?
            && owner.bundle.is_some()
        {
            return Ok((owner.bundle.as_deref() == Some(bundle)).then_some(owner.how));
        }
        Ok(self.prefs.iter().any(|c| c == container).then(|| {
            format!(
                "container {guid} holds {bundle}'s preferences (Library/Preferences/{})",
                self.prefs_name
            )
        }))
    }
}

/// Who owns the app data container a file sits in, with the call that says so.
pub struct Owner {
    /// The owner's bundle id, when a call names it.
    pub bundle: Option<String>,
    /// The fact saying so: the bundle id, or the path of the file that marks the container.
    pub fact: (FactType, String),
    /// The call it cites.
    pub cite: Invoked,
    /// How it is known, for the interpretation.
    pub how: String,
}

impl Owner {
    /// Adds the fact naming the owner to `d`.
    pub fn name_in(&self, d: &mut Draft) {
        d.fact(self.fact.0, Some(&self.fact.1), &self.cite);
    }
}

/// Whether `name` is a container's GUID (`8-4-4-4-12` hexadecimal digits).
pub(super) fn is_guid(name: &str) -> bool {
    name.len() == 36
        && name.bytes().enumerate().all(|(i, b)| {
            if [8, 13, 18, 23].contains(&i) {
                b == b'-'
            } else {
                b.is_ascii_hexdigit()
            }
        })
}

/// The owner of the app data container (`…/Containers/Data/Application/<GUID>`) holding
/// `path` (found by `find`): the folder's own name when it is a bundle id (an iTunes backup's
/// `AppDomain-<bundle>`, which the evidence layer places there), else the app FrontBoard's
/// application state gives the container ([`Run::app_of`]), else the container's
/// `MCMMetadataIdentifier` (its `.com.apple.mobile_container_manager.metadata.plist`, read
/// with `parse_plist`: a metadata file that does not read is the containers reader's to note).
/// `None` when none says.
pub fn container_owner(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
) -> Result<Option<Owner>, RuntimeError> {
    let Some(container) = container_of(path) else {
        return Ok(None);
    };
    let folder = container.rsplit('/').next().unwrap_or(container);
    if !is_guid(folder) && folder.contains('.') {
        return Ok(Some(Owner {
            bundle: Some(folder.to_string()),
            fact: (FactType::Identifier, folder.to_string()),
            cite: find.clone(),
            how: format!("the container's folder is named {folder} (a backup's app domain)"),
        }));
    }
    if let Some((bundle, inv)) = run.app_of(path) {
        return Ok(Some(Owner {
            bundle: Some(bundle.clone()),
            fact: (FactType::Identifier, bundle.clone()),
            cite: inv,
            how: format!("FrontBoard's application state gives the container to {bundle}"),
        }));
    }
    let metadata = format!("{container}/{}", super::containers::METADATA);
    let Some((_, listed)) = run.find(super::containers::METADATA)? else {
        return Ok(None);
    };
    if !listed.contains(&metadata) {
        return Ok(None);
    }
    let inv = run.ctx.call("parse_plist", json!({ "path": metadata }))?;
    if !crate::calls::succeeded(&inv) {
        return Ok(None);
    }
    let bundle = serde_json::from_str::<Value>(&inv.output.text)
        .ok()
        .and_then(|v| {
            v.get("MCMMetadataIdentifier")
                .and_then(Value::as_str)
                .map(str::to_string)
        })
        .filter(|b| !b.trim().is_empty() && !b.contains('"') && !b.contains('\\'));
    Ok(bundle.map(|bundle| Owner {
        bundle: Some(bundle.clone()),
        fact: (FactType::Identifier, bundle.clone()),
        cite: inv,
        how: format!("the container's metadata names {bundle} its owner (MCMMetadataIdentifier)"),
    }))
}
