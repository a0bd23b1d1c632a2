//! The archive plugin: a ZIP, TAR or TAR.GZ whose content is not an iOS extraction (the iOS
//! plugin recognises those and takes them) becomes a tree source. Its agent
//! (`archive-triage`) works the tree with the content handlers of the plugins its content
//! matches, reused, not copied: the Android artefact parsers when the tree holds Android
//! databases or property files (an extraction zipped from a phone's `/data`), and the disk
//! plugin's inventory, document, EXIF and text handling for everything.

use std::sync::Arc;

use masf_agents::{AgentCtx, Detection, Plugin, RuntimeError, Typing};
use masf_evidence::scan::Form;
use masf_graph::views::ExpectedArtefact;
use masf_tools::{SourceCtx, Tool};

use crate::disk::doc_text;
use crate::tree;

/// The archive plugin.
pub struct ArchivePlugin;

impl Plugin for ArchivePlugin {
    fn name(&self) -> &'static str {
        "archive"
    }

    fn detect(&self, source: &SourceCtx, typed: &Typing) -> Option<Detection> {
        // 50: a plugin that recognises the archive's content (an iOS tree inside a zip scores
        // 60) takes it; otherwise the archive is examined as a generic tree. An archive a
        // plugin recognised as its device (an iOS extraction zipped) is that plugin's.
        (typed.plugin.is_none() && source.scan.form == Form::Archive).then(|| Detection {
            score: 50,
            reasons: std::iter::once("an archive whose content is no iOS extraction".to_string())
                .chain(source.scan.reasons.iter().cloned())
                .collect(),
        })
    }

    fn tools(&self) -> Vec<Arc<dyn Tool>> {
        vec![Arc::new(doc_text::DocText)]
    }

    fn expected_artefacts(&self) -> Vec<ExpectedArtefact> {
        tree::expected()
    }

    fn categorise(&self, path: &str) -> Option<&'static str> {
        crate::android::AndroidPlugin
            .categorise(path)
            .or_else(|| tree::file_category(path))
    }

    fn triage(&self, ctx: &AgentCtx<'_>) -> Result<(), RuntimeError> {
        // the Android parsers on any Android databases inside, then the generic tree triage
        crate::android::artefacts(ctx, false)?;
        tree::contents(ctx)
    }
}
