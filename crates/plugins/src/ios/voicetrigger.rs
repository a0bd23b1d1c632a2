//! Siri's voice trigger enrolment (`Library/VoiceTrigger/SAT/<profile>/td/audio/<n>.json`, each
//! beside its `<n>.wav`), iLEAPP's `voiceTriggers`: the "Hey Siri" phrases the device's user
//! spoke to train Siri, kept as recordings with a JSON of their metadata. One `media`
//! phenomenon per JSON (`meta_version.json` excepted): the day it was recorded (`grainedDate`,
//! `YYYYMMDD` as written: a day, no time), the device that recorded it (`productType`: a profile
//! synced from another of the account's devices names that one), the utterance's own path
//! (`utteranceWav`), every other plain value, and whether the recording is beside it. The voice
//! is the enrolled user's (said as what enrolment means, not as an identification). A JSON that
//! does not parse is noted. Identities: none.

use masf_agents::RuntimeError;
use masf_graph::FactType;
use masf_tools::Invoked;
use serde_json::{Value, json};

use super::{Draft, Run, file_name};
use crate::outputs::json_scalar;

/// Triage of every voice trigger profile of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    let Some((_, dirs)) = run.find_dirs("VoiceTrigger")? else {
        return Ok(());
    };
    for dir in dirs.iter().filter(|d| d.ends_with("/Library/VoiceTrigger")) {
        let Some(listing) = crate::calls::call_or_note(
            run.ctx,
            dir,
            "find_files",
            json!({"path": dir, "limit": 2000}),
        )?
        else {
            continue;
        };
        let files = crate::outputs::found_paths(&listing.output.text);
        for path in files.iter().filter(|p| {
            p.contains("/SAT/")
                && p.contains("/td/audio/")
                && p.ends_with(".json")
                && file_name(p) != "meta_version.json"
        }) {
            let wav = format!("{}.wav", path.trim_end_matches(".json"));
            one(
                run,
                &listing,
                path,
                files.contains(&wav).then_some(wav.as_str()),
            )?;
        }
    }
    Ok(())
}

fn one(
    run: &Run<'_, '_>,
    listing: &Invoked,
    path: &str,
    wav: Option<&str>,
) -> Result<(), RuntimeError> {
    let Some(inv) = crate::calls::call_or_note(run.ctx, path, "read_json", json!({"path": path}))?
    else {
        return Ok(());
    };
    let Some(doc) = crate::outputs::json_document(&inv.output.text).filter(Value::is_object) else {
        run.ctx.unparsed(
            path,
            "could not parse the voice trigger recording's metadata because it is no JSON object",
            Some(&inv.record.invocation_id),
        )?;
        return Ok(());
    };
    let s = |k: &str| json_scalar(doc.get(k));
    let day = s("grainedDate");
    let product = s("productType");
    let mut d = Draft::new(
        "media",
        format!(
            "Siri voice trigger recording {}{}",
            file_name(path).trim_end_matches(".json"),
            product
                .as_deref()
                .map(|p| format!(" (recorded on {p})"))
                .unwrap_or_default()
        ),
    );
    d.fact(FactType::Path, Some(path), listing);
    if let Some(w) = wav {
        d.fact(FactType::Path, Some(w), listing);
    }
    d.fact(FactType::Text, day.as_deref(), &inv);
    d.fact(FactType::Identifier, product.as_deref(), &inv);
    d.fact(FactType::Path, s("utteranceWav").as_deref(), &inv);
    let mut said = Vec::new();
    if let Some(o) = doc.as_object() {
        for (k, v) in o {
            let Some(v) = json_scalar(Some(v)) else {
                continue;
            };
            if !matches!(k.as_str(), "grainedDate" | "productType" | "utteranceWav") {
                d.fact(FactType::Text, Some(&v), &inv);
            }
            said.push(format!("{k} {v}"));
        }
    }
    d.interpretation = format!(
        "A recording the device's user made to train \"Hey Siri\" (voice trigger enrolment){}{}: {}. {}",
        day.as_deref()
            .map(|t| format!(", recorded on the day {t} (YYYYMMDD as written)"))
            .unwrap_or_default(),
        product
            .as_deref()
            .map(|p| format!(
                " on a {p} (a profile synced from another of the account's devices names that one)"
            ))
            .unwrap_or_default(),
        said.join("; "),
        match wav {
            Some(w) => format!("The recording itself is {w}: the enrolled user's voice."),
            None => "The recording itself is not beside it.".to_string(),
        }
    );
    run.record(d)
}
