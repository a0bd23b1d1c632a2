//! Media (issue 5, item 5): folders of screenshots and photos, and single image files. The
//! plugin adds the `ocr_image` tool ([`ocr`]) and a triage agent that OCRs every image once
//! and records what a transaction screenshot shows ([`text`]): wallet addresses, amounts with
//! their currency, transaction hashes, times as displayed and phone numbers, each a fact
//! copied from (or, for a misread wallet address, a recorded look-alike repair of) the OCR
//! output it cites.
//!
//! Identity: each wallet address is observed as `wallet:<canonical>` (Wallet); phone numbers
//! seen in a screenshot as `screenshot:<path>` (Person). Times are `local_text` time marks
//! ("Transaction time"): the screen shows wall-clock time without a zone.

pub mod ocr;
pub mod text;

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use masf_agents::{
    AgentCtx, Detection, DeviceType, Observation, PhenomenonDraft, Plugin, RuntimeError, Typing,
};
use masf_evidence::scan::{Form, Scan};
use masf_graph::views::ExpectedArtefact;
use masf_graph::{EntityKind, FactType, IdType, TimeEncoding, TimeMark};
use masf_tools::{Invoked, SourceCtx, Tool};
use serde_json::json;

use crate::calls::{failure_reason, succeeded};
use crate::drafts::fact;
use crate::outputs::found_paths;
use text::Found;

/// Category of a screenshot showing a transfer (a wallet, an amount or a transaction hash).
pub const CATEGORY_TRANSACTION: &str = "transaction_screenshot";
/// Category of an image whose text holds only times or phone numbers.
pub const CATEGORY_TEXT: &str = "image_text";

/// File name endings treated as images.
pub const IMAGE_EXTENSIONS: &[&str] = &[
    "png", "jpg", "jpeg", "gif", "tif", "tiff", "bmp", "webp", "heic",
];

/// Most images a source's triage OCRs (the rest are counted in a summary phenomenon-free note).
pub const MAX_IMAGES: usize = 2000;

/// The media plugin.
pub struct Media;

impl Media {
    /// As a plugin.
    pub fn arc() -> Arc<dyn Plugin> {
        Arc::new(Media)
    }
}

/// Whether a path names an image ([`IMAGE_EXTENSIONS`]).
pub fn is_image_name(path: &str) -> bool {
    path.rsplit_once('.')
        .is_some_and(|(_, ext)| IMAGE_EXTENSIONS.contains(&ext.to_ascii_lowercase().as_str()))
}

/// The evidence type of a source this plugin recognises as a folder of pictures.
pub const MEDIA_COLLECTION: &str = "media_collection";

/// Whether a scanned source is one image file.
fn single_image(source: &SourceCtx) -> Option<&'static str> {
    if source.scan.form != Form::File || !source.scan.file_systems().is_empty() {
        return None;
    }
    let bytes = source.scan.root.bytes.as_ref()?;
    let mut head = [0u8; 16];
    let n = bytes.len().min(16) as usize;
    bytes.read_exact_at(0, &mut head[..n]).ok()?;
    ocr::image_format(&head[..n])
}

impl Plugin for Media {
    fn name(&self) -> &'static str {
        "media"
    }

    /// A media collection: a folder more than half of whose sampled files are images.
    fn typing(&self, scan: &Scan) -> Option<DeviceType> {
        let f = scan.folder_formats.as_ref()?;
        (f.sampled > 0 && f.images * 2 > f.sampled).then(|| DeviceType {
            name: MEDIA_COLLECTION,
            reasons: vec![format!(
                "{} of {} files are images ({})",
                f.images,
                f.sampled,
                f.image_kinds.join(", ")
            )],
        })
    }

    fn detect(&self, source: &SourceCtx, typed: &Typing) -> Option<Detection> {
        if typed.by(self.name()) {
            let mut reasons = vec!["sniffed as a media collection".to_string()];
            reasons.extend(typed.reasons.iter().cloned());
            return Some(Detection {
                score: 100,
                reasons,
            });
        }
        single_image(source).map(|format| Detection {
            score: 100,
            reasons: vec![format!("a single {format} image file")],
        })
    }

    fn tools(&self) -> Vec<Arc<dyn Tool>> {
        vec![ocr::OcrImage::arc()]
    }

    fn expected_artefacts(&self) -> Vec<ExpectedArtefact> {
        Vec::new()
    }

    fn categorise(&self, path: &str) -> Option<&'static str> {
        is_image_name(path).then_some(CATEGORY_TRANSACTION)
    }

    fn triage(&self, ctx: &AgentCtx<'_>) -> Result<(), RuntimeError> {
        // The region of the numbers read from the images: the examiner's, recorded as such.
        crate::region::settle(ctx, &[])?;
        let source = ctx.session().source(&ctx.source().id)?;
        let paths = if single_image(&source).is_some() {
            vec!["/".to_string()]
        } else {
            let listing = ctx.call(
                "find_files",
                json!({"path": "/", "name_glob": "*", "limit": 100_000}),
            )?;
            if !succeeded(&listing) {
                let reason = failure_reason(&listing);
                ctx.unparsed("/", &reason, Some(&listing.record.invocation_id))?;
                return Ok(());
            }
            let mut paths: Vec<String> = found_paths(&listing.output.text)
                .into_iter()
                .filter(|p| is_image_name(p))
                .collect();
            if paths.len() > MAX_IMAGES {
                let rest = paths.len() - MAX_IMAGES;
                ctx.unparsed(
                    "/",
                    &format!(
                        "{rest} more images than the {MAX_IMAGES} OCR'd per source were not read"
                    ),
                    Some(&listing.record.invocation_id),
                )?;
                paths.truncate(MAX_IMAGES);
            }
            paths
        };
        let located: Vec<(Option<String>, String)> =
            paths.iter().map(|p| (None, p.clone())).collect();
        ocr_and_record(ctx, &located)?;
        Ok(())
    }
}

/// Most screenshots OCR'd per phone source (OCR costs about a second an image).
pub const MAX_DEVICE_SCREENSHOTS: usize = 300;

/// Screenshots kept on a phone (`DCIM`, `Screenshots` folders, found by the phone plugins):
/// OCR'd and recorded like a media source's images ([`record_image`]), and a wallet address
/// that the screen calls the user's own — the cue nearest it is a word of possession or
/// receipt (`identity::own_cue`: "My TRC20 address", "Receive", "收款") — is the device
/// owner's control claim (a wallet app's receive screen, captured on their phone). A "Send
/// to" screen shows whom the owner paid: no claim.
pub fn device_screenshots(
    ctx: &AgentCtx<'_>,
    paths: &[(Option<String>, String)],
) -> Result<(), RuntimeError> {
    let mut paths = paths.to_vec();
    if paths.len() > MAX_DEVICE_SCREENSHOTS {
        ctx.unparsed(
            "screenshots",
            &format!(
                "{} screenshots; the first {MAX_DEVICE_SCREENSHOTS} were OCR'd",
                paths.len()
            ),
            None,
        )?;
        paths.truncate(MAX_DEVICE_SCREENSHOTS);
    }
    for (path, invoked, found) in ocr_and_record(ctx, &paths)? {
        let text = &invoked.output.text;
        for w in &found.wallets {
            // the label a screen puts right above or before the address: the two lines of the
            // recognised text (before the tool's `# ` re-read notes) above the line that holds
            // the address, spaces ignored (OCR may split a long address)
            let label = screen_label(text, &w.value);
            let Some(cue) = label.and_then(|l| crate::identity::own_cue(&l)) else {
                continue;
            };
            ctx.observe(Observation {
                context: "owner".into(),
                entity_kind: EntityKind::Person,
                label: "device owner".into(),
                id_type: IdType::Wallet,
                value: w.value.clone(),
                invocation_id: invoked.record.invocation_id.clone(),
                interpretation: format!(
                    "The screenshot {path} on this device shows the wallet address {} after \"{cue}\": the screen names it the user's own (a receive screen) — a claim that the device's user controls it, weighed against any other claim on it.",
                    w.value
                ),
                cue: Some(cue),
            })?;
        }
    }
    Ok(())
}

/// The two non-empty lines of an OCR text above the first line that holds `address` (spaces
/// ignored, case-insensitively on its first 12 characters), in the recognised text only (the
/// tool's `# ` note lines and what follows them are left out); `None` when no line holds it.
fn screen_label(text: &str, address: &str) -> Option<String> {
    let head: String = address.chars().take(12).collect::<String>().to_lowercase();
    let lines: Vec<&str> = text
        .lines()
        .skip(1)
        .take_while(|l| !l.starts_with("# "))
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    let at = lines.iter().position(|l| {
        l.chars()
            .filter(|c| !c.is_whitespace())
            .collect::<String>()
            .to_lowercase()
            .contains(&head)
    })?;
    Some(lines[at.saturating_sub(2)..at].join("\n") + " ")
}

/// OCRs `paths` ([`ocr_all`]), notes the images that could not be read, and records what each
/// other one shows ([`record_image`]); returns them with their call and findings.
fn ocr_and_record(
    ctx: &AgentCtx<'_>,
    paths: &[(Option<String>, String)],
) -> Result<Vec<(String, Invoked, Found)>, RuntimeError> {
    let mut out = Vec::new();
    for ((_, path), invoked) in paths.iter().zip(ocr_all(ctx, paths)) {
        let invoked = invoked?;
        if !succeeded(&invoked) {
            ctx.unparsed(
                path,
                &failure_reason(&invoked),
                Some(&invoked.record.invocation_id),
            )?;
            continue;
        }
        let found = text::extract(&invoked.output.text, ctx.phone_region().as_ref());
        record_image(ctx, path, &invoked, &found)?;
        out.push((path.clone(), invoked, found));
    }
    Ok(out)
}

/// OCRs `paths`, one `ocr_image` call per image, on one thread (and so one Tesseract engine)
/// per core; results in the order of `paths`.
fn ocr_all(
    ctx: &AgentCtx<'_>,
    paths: &[(Option<String>, String)],
) -> Vec<Result<Invoked, RuntimeError>> {
    let workers = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(paths.len())
        .max(1);
    let next = AtomicUsize::new(0);
    let mut results: Vec<Option<Result<Invoked, RuntimeError>>> =
        (0..paths.len()).map(|_| None).collect();
    let done = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some((partition, path)) = paths.get(i) else {
                        break;
                    };
                    let mut args = json!({"path": path});
                    if let Some(p) = partition {
                        args["partition"] = json!(p);
                    }
                    let r = ctx.call("ocr_image", args);
                    if let Ok(mut d) = done.lock() {
                        d.push((i, r));
                    }
                }
            });
        }
    });
    for (i, r) in done.into_inner().unwrap_or_default() {
        if let Some(slot) = results.get_mut(i) {
            *slot = Some(r);
        }
    }
    results
        .into_iter()
        .map(|r| {
            // A slot is empty only if a worker thread panicked.
            r.unwrap_or(Err(RuntimeError::Poisoned("OCR worker results")))
        })
        .collect()
}

/// Records what one image's OCR output shows: one phenomenon (if anything was found) and the
/// identity observations.
fn record_image(
    ctx: &AgentCtx<'_>,
    path: &str,
    invoked: &Invoked,
    found: &Found,
) -> Result<(), RuntimeError> {
    if found.is_empty() {
        return Ok(());
    }
    let transaction =
        !found.wallets.is_empty() || !found.amounts.is_empty() || !found.tx_hashes.is_empty();
    let mut facts = vec![fact(FactType::Path, path, invoked)];
    let mut lines = Vec::new();
    for a in &found.amounts {
        facts.push(fact(FactType::Amount, a.as_str(), invoked));
    }
    if !found.amounts.is_empty() {
        lines.push(format!("amount(s) shown: {}", found.amounts.join(", ")));
    }
    for w in &found.wallets {
        facts.push(fact(FactType::Wallet, w.value.as_str(), invoked));
        if w.repaired() {
            lines.push(format!(
                "{} wallet address {} — OCR read \"{}\"; repaired by look-alike normalisation ({} change(s)) to the only spelling that passes the address checksum",
                w.chain(),
                w.value,
                w.read,
                w.changes
            ));
        } else {
            lines.push(format!(
                "{} wallet address {} (read verbatim)",
                w.chain(),
                w.value
            ));
        }
    }
    for h in &found.tx_hashes {
        facts.push(fact(FactType::Hash, h.as_str(), invoked));
    }
    if !found.tx_hashes.is_empty() {
        lines.push(format!(
            "transaction hash(es): {}",
            found.tx_hashes.join(", ")
        ));
    }
    let mut times = Vec::new();
    for t in &found.times {
        times.push(TimeMark {
            fact: facts.len(),
            encoding: TimeEncoding::LocalText,
            description: "Transaction time".into(),
        });
        facts.push(fact(FactType::Timestamp, t.as_str(), invoked));
    }
    if !found.times.is_empty() {
        lines.push(format!(
            "time(s) as displayed, without a time zone: {}",
            found.times.join(", ")
        ));
    }
    for p in &found.phones {
        facts.push(fact(FactType::Phone, p.read.as_str(), invoked));
    }
    if !found.phones.is_empty() {
        lines.push(format!(
            "phone number(s): {}",
            found
                .phones
                .iter()
                .map(|p| p.read.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    if !found.unreadable.is_empty() {
        lines.push(format!(
            "address-like text no repair makes valid (read it off the image): {}",
            found.unreadable.join(", ")
        ));
    }
    let title = match (found.amounts.first(), found.wallets.first()) {
        (Some(a), Some(w)) => format!("Screenshot {path}: {a}, wallet {}", w.value),
        (None, Some(w)) => format!("Screenshot {path}: wallet {}", w.value),
        (Some(a), None) => format!("Screenshot {path}: {a}"),
        (None, None) => format!("Image {path}: text with times or phone numbers"),
    };
    let interpretation = format!(
        "OCR (ocr_image) of {path} {}: {}.",
        if transaction {
            "shows a cryptocurrency or payment transaction screen"
        } else {
            "holds text"
        },
        lines.join("; ")
    );
    ctx.record(PhenomenonDraft {
        category: if transaction {
            CATEGORY_TRANSACTION
        } else {
            CATEGORY_TEXT
        }
        .into(),
        title,
        facts,
        interpretation,
        times,
    })?;
    for w in &found.wallets {
        ctx.observe(Observation {
            context: format!("wallet:{}", w.canonical),
            entity_kind: EntityKind::Wallet,
            label: w.value.clone(),
            id_type: IdType::Wallet,
            value: w.value.clone(),
            invocation_id: invoked.record.invocation_id.clone(),
            interpretation: format!(
                "{} wallet address shown in the screenshot {path}{}.",
                w.chain(),
                if w.repaired() {
                    " (OCR look-alike repair, checksum verified)"
                } else {
                    ""
                }
            ),
            cue: None,
        })?;
    }
    for p in &found.phones {
        ctx.observe(Observation {
            context: format!("screenshot:{path}"),
            entity_kind: EntityKind::Person,
            label: format!("screenshot {path}"),
            id_type: IdType::Phone,
            value: p.read.clone(),
            invocation_id: invoked.record.invocation_id.clone(),
            interpretation: format!("Phone number shown in the screenshot {path}."),
            cue: None,
        })?;
    }
    Ok(())
}
