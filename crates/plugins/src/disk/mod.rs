//! The disk-image plugin: USB sticks and other disks (E01 or raw; FAT, NTFS, ext4), sniffed
//! `disk_image`, and the generic fallback for folders, single files and archives whose content
//! no more specific plugin claims.
//!
//! Its triage agent (`disk-triage`) describes the volumes (`fs_info`) and then works every file
//! tree of the source the same way (the Android parsers, then [`crate::tree::contents`]; the
//! archive plugin does the same):
//!
//! | what | tools | phenomena | identities |
//! |---|---|---|---|
//! | Android artefacts anywhere in the tree | as the Android plugin | as the Android plugin | as the Android plugin |
//! | inventory | `inventory` (every file, in pages of 5,000) | one per tree, never one per file: the file and deleted counts and every page's closing line, so the cited outputs hold the table of every file (size, SHA-256, id, deleted flag, stored times, path); counts per category in the title | — |
//! | deleted files | (the inventory's pages) | one per tree: the first 100 paths, every stored time with its encoding (`fat_local` for FAT entries, `iso8601` for UTC renderings) | — |
//! | Office documents, PDF | `doc_metadata`, `doc_text` | metadata (creator, last modified by, created/modified), identifiers in the text, amounts with their currency, IBANs and transaction hashes in the text ([`crate::extract::money`]) | `author:<name>` display name; `document:<path>` phones and e-mails; `wallet:<address>` |
//! | JPEG/TIFF | `doc_metadata` | EXIF (camera, serial, original time as `local_text`, GPS) | `camera:<serial>` serial |
//! | text files | `read_text` | identifiers, amounts, IBANs and transaction hashes in the text | `document:<path>`; `wallet:<address>` |
//!
//! Documents, photos and text files are read for their content up to 2,000 per tree; the
//! others are counted in one "not read" note. A document that is not what its name says (a `.docx` that is no zip) is noted unparsed with
//! the tool's reason; the rest of the source is still worked.

pub mod doc_text;

use std::sync::Arc;

use masf_agents::{AgentCtx, Detection, PhenomenonDraft, Plugin, RuntimeError, Typing};
use masf_evidence::scan::Form;
use masf_graph::FactType;
use masf_graph::views::ExpectedArtefact;
use masf_tools::{SourceCtx, Tool};
use serde_json::json;

use crate::drafts::fact;
use crate::identity::record;

/// The disk-image plugin.
pub struct DiskPlugin;

/// Score of the generic fallback (any tree no specific plugin claims).
pub const FALLBACK_SCORE: u8 = 10;

impl Plugin for DiskPlugin {
    fn name(&self) -> &'static str {
        "disk"
    }

    fn detect(&self, source: &SourceCtx, typed: &Typing) -> Option<Detection> {
        // a source another plugin recognised as its device (an Android disk) is that plugin's
        if typed.plugin.is_some() {
            return None;
        }
        match source.scan.form {
            Form::DiskImage => Some(Detection {
                score: 100,
                reasons: std::iter::once("sniffed as a disk image".to_string())
                    .chain(typed.reasons.iter().cloned())
                    .collect(),
            }),
            Form::Folder | Form::File | Form::Archive if !source.scan.file_systems().is_empty() => {
                Some(Detection {
                    score: FALLBACK_SCORE,
                    reasons: vec![format!(
                        "generic file tree: a {} whose content no more specific plugin claims",
                        typed.evidence_type
                    )],
                })
            }
            _ => None,
        }
    }

    fn tools(&self) -> Vec<Arc<dyn Tool>> {
        vec![Arc::new(doc_text::DocText)]
    }

    fn expected_artefacts(&self) -> Vec<ExpectedArtefact> {
        crate::tree::expected()
    }

    fn categorise(&self, path: &str) -> Option<&'static str> {
        crate::android::AndroidPlugin
            .categorise(path)
            .or_else(|| crate::tree::file_category(path))
    }

    fn triage(&self, ctx: &AgentCtx<'_>) -> Result<(), RuntimeError> {
        volumes(ctx)?;
        // Android databases and property files anywhere in the tree (a phone's /data copied
        // to a stick) are read by the Android plugin's parsers, which first decide and record
        // the source's phone region; then the generic tree triage. A tree with the Android
        // layout (a bare userdata image) is claimed by the Android plugin as well, which reads
        // them itself: read here too, every finding would be recorded twice.
        let source = ctx.session().source(&ctx.source().id)?;
        if crate::android::android_layout(&source.scan.root).is_empty() {
            crate::android::artefacts(ctx, false)?;
        }
        crate::tree::contents(ctx)
    }
}

/// One phenomenon per file system `fs_info` describes: its format, label and UUID.
fn volumes(ctx: &AgentCtx<'_>) -> Result<(), RuntimeError> {
    let Some(info) = crate::calls::call_or_note(ctx, "volume", "fs_info", json!({}))? else {
        return Ok(());
    };
    // Blocks of `format:`/`readable:`/`label:`/`uuid:` lines, one per probed layer.
    let mut blocks: Vec<Vec<(String, String)>> = Vec::new();
    for line in info.output.text.lines() {
        let t = line.trim_start();
        if t.starts_with("layer:") {
            blocks.push(Vec::new());
        } else if let Some((k, v)) = t.split_once(": ")
            && let Some(b) = blocks.last_mut()
        {
            b.push((k.to_string(), v.to_string()));
        }
    }
    for b in blocks {
        let get = |k: &str| b.iter().find(|(key, _)| key == k).map(|(_, v)| v.as_str());
        let Some(format) = get("format") else {
            continue;
        };
        let label = get("label");
        let uuid = get("uuid");
        let readable = get("readable") == Some("true");
        let mut facts = vec![fact(FactType::Text, format, &info)];
        if let Some(l) = label {
            facts.push(fact(FactType::Name, l, &info));
        }
        if let Some(u) = uuid {
            facts.push(fact(FactType::Identifier, u, &info));
        }
        let encryption = get("encryption").filter(|e| *e != "none");
        if let Some(e) = encryption {
            facts.push(fact(FactType::Text, e, &info));
        }
        record(
            ctx,
            PhenomenonDraft {
                category: "volumes".into(),
                title: format!(
                    "Volume {format}{}",
                    label.map(|l| format!(" labelled {l}")).unwrap_or_default()
                ),
                facts,
                interpretation: format!(
                    "A {format} volume{}{}; {}{}.",
                    label.map(|l| format!(" labelled {l}")).unwrap_or_default(),
                    uuid.map(|u| format!(" (UUID {u})")).unwrap_or_default(),
                    if readable {
                        "its files were inventoried"
                    } else {
                        "MASForensics cannot read it"
                    },
                    encryption
                        .map(|e| format!("; encryption: {e}"))
                        .unwrap_or_default()
                ),
                times: vec![],
            },
        )?;
        if !readable {
            ctx.unparsed(
                &format!("volume {format}"),
                get("problem").unwrap_or("the file system is recognised but not readable"),
                Some(&info.record.invocation_id),
            )?;
        }
    }
    Ok(())
}
