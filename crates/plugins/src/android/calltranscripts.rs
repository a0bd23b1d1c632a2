//! The Google Phone app's call transcripts (`com.google.android.dialer/files/fermat_files/
//! *-transcription.pb`), ALEAPP's `callTranscription`: when the user records a call, the app
//! writes what each side said as one Protocol Buffers message (read with `read_protobuf`) whose
//! repeated field 1 holds the utterances — 2 the text, 3 when (Unix ms), 4 the speaker.
//!
//! One `calls` phenomenon per utterance ("Said in a recorded call: <text>"): the text, the
//! speaker number as stored (the app's own numbering of the call's sides), the file and its
//! place in it, and the time. The file names no party: the call is found beside it in the call
//! log by time. A file that is not one message, or holds no utterance list, is noted.

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::FactType;
use serde_json::Value;

use super::Located;
use crate::drafts::{Draft, headline, record_draft, unix_millis};
use crate::identity::artefact_name;
use crate::outputs::proto_first;

/// Whether `l` is one of the Phone app's call transcripts.
pub fn is_transcript(l: &Located) -> bool {
    l.path
        .contains("/com.google.android.dialer/files/fermat_files/")
        && l.name().ends_with("-transcription.pb")
}

/// One transcript file.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let name = artefact_name(&l.tree, &l.path);
    let Some((inv, doc)) = super::protobuf_message(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    let Some(lines) = doc
        .get("1")
        .and_then(Value::as_array)
        .filter(|a| !a.is_empty() && a.iter().all(Value::is_object))
    else {
        ctx.unparsed(
            &name,
            "could not parse the call transcript because its message has no list of utterances (field 1)",
            Some(&inv.record.invocation_id),
        )?;
        return Ok(());
    };
    let file = l.name();
    for (i, line) in lines.iter().enumerate() {
        let text = proto_first(line, "2");
        let speaker = proto_first(line, "4");
        let mut d = Draft::new(
            "calls",
            format!(
                "Said in a recorded call: {}",
                text.as_deref().map(headline).unwrap_or_else(|| "?".into())
            ),
        );
        d.fact(FactType::Path, Some(&l.path), &l.found);
        d.fact(FactType::Text, text.as_deref(), &inv);
        d.fact(FactType::Text, speaker.as_deref(), &inv);
        let at = proto_first(line, "3");
        d.time(
            at.as_deref(),
            unix_millis(at.as_deref()),
            "Said in a recorded call",
            &inv,
        );
        d.interpretation = format!(
            "Utterance {} of {} of the Google Phone app's transcript of a recorded call ({}): {}, by speaker {} as the app numbers the call's sides; field 3 is Unix milliseconds. The call itself is the call-log entry of that time.",
            i + 1,
            lines.len(),
            file,
            text.as_deref()
                .map(|t| format!("{t:?}"))
                .unwrap_or_else(|| "no text".into()),
            speaker.as_deref().unwrap_or("not recorded"),
        );
        record_draft(ctx, d)?;
    }
    Ok(())
}
