//! The plugin interface (DESIGN §9): what the core knows of an evidence type. Implementations
//! live in `masf-plugins`; the core holds them as `Arc<dyn Plugin>` and never names one.

use std::sync::Arc;

use masf_evidence::scan::Scan;
use masf_graph::Lead;
use masf_graph::views::ExpectedArtefact;
use masf_tools::{Catalog, SourceCtx, Tool};
use serde::Serialize;

use crate::context::AgentCtx;
use crate::session::RuntimeError;

/// What a scanned source is: the device type a plugin recognised it as, or, when none did,
/// the scan's own form (`masf_evidence::scan::Form`), with the content that decided it. The
/// evidence layer names formats only; device types are the plugins' ([`Plugin::typing`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Typing {
    pub evidence_type: String,
    /// The plugin that recognised the source as its device; `None` when the type is the form.
    pub plugin: Option<&'static str>,
    pub reasons: Vec<String>,
}

impl Typing {
    /// Whether `plugin` recognised the source as its device.
    pub fn by(&self, plugin: &str) -> bool {
        self.plugin == Some(plugin)
    }
}

/// A device type a plugin recognises, with the content that says so ([`Plugin::typing`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeviceType {
    pub name: &'static str,
    pub reasons: Vec<String>,
}

/// How well a plugin fits a source, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Detection {
    /// Higher is a better fit: 100 for a plugin made for the source's evidence type (its own
    /// device type, or a form no device plugin recognised), lower for a generic fallback.
    pub score: u8,
    /// The content that decided it (for the examiner).
    pub reasons: Vec<String>,
}

/// One evidence type's capabilities: detection, tools, categorisation, the expected-artefact
/// catalogue and the deterministic triage agent.
pub trait Plugin: Send + Sync {
    /// Stable short name (lower case, one word); the triage agent is `<name>-triage`.
    fn name(&self) -> &'static str;

    /// The device type this plugin recognises a scanned source as, from the layers,
    /// partitions and trees the scan exposes; `None` when the source is not one of its
    /// devices. Asked in preference order ([`Plugins::typing`]): the first answer names it.
    fn typing(&self, scan: &Scan) -> Option<DeviceType> {
        let _ = scan;
        None
    }

    /// Whether and how well the plugin fits a scanned source, given what the source is
    /// (`typed`, from [`Plugins::typing`]).
    fn detect(&self, source: &SourceCtx, typed: &Typing) -> Option<Detection>;

    /// Tools the plugin adds to the shared catalog (logged like every other call).
    fn tools(&self) -> Vec<Arc<dyn Tool>> {
        Vec::new()
    }

    /// The artefacts a source of this type is expected to hold: a hint for coverage views.
    fn expected_artefacts(&self) -> Vec<ExpectedArtefact>;

    /// The category of an artefact path in this evidence type (`messages`, `contacts`, …),
    /// `None` when the plugin has no opinion.
    fn categorise(&self, path: &str) -> Option<&'static str>;

    /// The deterministic triage agent's name.
    fn agent_name(&self) -> String {
        format!("{}-triage", self.name())
    }

    /// Runs the deterministic triage agent on `ctx`'s source: catalog tools only, gateway
    /// writes only. Artefacts it cannot parse become `ctx.unparsed(..)` notes; an `Err` means
    /// the runtime itself failed (the store), never that evidence was bad.
    fn triage(&self, ctx: &AgentCtx<'_>) -> Result<(), RuntimeError>;

    /// Runs a strategist lead aimed at this plugin's agent on `ctx`'s source. By default the
    /// agent examines the source again: gateway writes are idempotent, so only what it had not
    /// recorded yet is added (for example after a budget halt cut its triage short).
    fn follow_lead(&self, ctx: &AgentCtx<'_>, lead: &Lead) -> Result<(), RuntimeError> {
        let _ = lead;
        self.triage(ctx)
    }
}

/// The score from which a detection means the plugin recognised the source's content (its
/// own device tree or evidence type), not a generic fallback: such a plugin examines
/// the source even when another fits it better ([`Plugins::fitting`]).
pub const RECOGNISED: u8 = 60;

/// The plugins of a build, in preference order.
#[derive(Clone, Default)]
pub struct Plugins {
    plugins: Vec<Arc<dyn Plugin>>,
}

impl Plugins {
    /// A set of plugins.
    pub fn new(plugins: Vec<Arc<dyn Plugin>>) -> Self {
        Self { plugins }
    }

    /// All of them.
    pub fn iter(&self) -> impl Iterator<Item = &Arc<dyn Plugin>> {
        self.plugins.iter()
    }

    /// The plugin by name.
    pub fn get(&self, name: &str) -> Option<&Arc<dyn Plugin>> {
        self.plugins.iter().find(|p| p.name() == name)
    }

    /// What a scanned source is: the first device type a plugin recognises in preference
    /// order, else the scan's form with the scanner's reasons.
    pub fn typing(&self, scan: &Scan) -> Typing {
        self.plugins
            .iter()
            .find_map(|p| {
                p.typing(scan).map(|t| Typing {
                    evidence_type: t.name.to_string(),
                    plugin: Some(p.name()),
                    reasons: t.reasons,
                })
            })
            .unwrap_or_else(|| Typing {
                evidence_type: scan.form.as_str().to_string(),
                plugin: None,
                reasons: scan.reasons.clone(),
            })
    }

    /// How the plugin `name` sees a source (its detection given the source's typing), `None`
    /// when it does not fit or there is no such plugin.
    pub fn detection(&self, name: &str, source: &SourceCtx) -> Option<Detection> {
        self.get(name)?.detect(source, &self.typing(&source.scan))
    }

    /// The best-fitting plugin for a source (highest score; the first on a tie), with its
    /// detection.
    pub fn choose(&self, source: &SourceCtx) -> Option<(Arc<dyn Plugin>, Detection)> {
        self.choose_typed(source, &self.typing(&source.scan))
    }

    fn choose_typed(
        &self,
        source: &SourceCtx,
        typed: &Typing,
    ) -> Option<(Arc<dyn Plugin>, Detection)> {
        let mut best: Option<(Arc<dyn Plugin>, Detection)> = None;
        for plugin in &self.plugins {
            if let Some(d) = plugin.detect(source, typed)
                && best.as_ref().is_none_or(|(_, b)| d.score > b.score)
            {
                best = Some((plugin.clone(), d));
            }
        }
        best
    }

    /// Every plugin that examines a source: the best-fitting one ([`Plugins::choose`]) first,
    /// then each other plugin that recognised the source's content (score at least
    /// [`RECOGNISED`]: a device tree of its own found inside, such as a phone extraction
    /// copied onto a USB stick that a file-system plugin takes), highest score first. A generic
    /// fallback (a container or file tree that no plugin recognises) is never added beside another.
    pub fn fitting(&self, source: &SourceCtx) -> Vec<(Arc<dyn Plugin>, Detection)> {
        let typed = self.typing(&source.scan);
        let Some(best) = self.choose_typed(source, &typed) else {
            return Vec::new();
        };
        let mut others: Vec<(Arc<dyn Plugin>, Detection)> = self
            .plugins
            .iter()
            .filter(|p| p.name() != best.0.name())
            .filter_map(|p| p.detect(source, &typed).map(|d| (p.clone(), d)))
            .filter(|(_, d)| d.score >= RECOGNISED)
            .collect();
        // stable: equal scores keep the plugins' preference order
        others.sort_by_key(|o| std::cmp::Reverse(o.1.score));
        std::iter::once(best).chain(others).collect()
    }

    /// The standard catalog with every plugin's tools registered.
    pub fn catalog(&self) -> Catalog {
        let mut catalog = Catalog::standard();
        for plugin in &self.plugins {
            for tool in plugin.tools() {
                catalog.register(tool);
            }
        }
        catalog
    }
}
