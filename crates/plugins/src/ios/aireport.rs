//! The Apple Intelligence Report (`Apple_Intelligence_Report*.json`, wherever the user saved
//! it: Files, iCloud Drive, an app's folder), iLEAPP's `appleIntelligenceReport` ("Apple
//! Intelligence Report"): the export a user makes from Settings › Privacy & Security › Apple
//! Intelligence Report (iOS 18.4 and later) of the requests the device made to Apple
//! Intelligence models and to Apple's Private Cloud Compute servers in the window they chose.
//! Read with `read_json` (`decode_nested`: the members that are JSON text — the pipeline
//! parameters, a response — decoded by the tool), [`PAGE`] entries a call by JSON pointers
//! (`/modelRequests/<i>`, `/privateCloudComputeRequests/<i>`) until one is not present, so that a
//! report of megabytes is read in short outputs.
//!
//! | array | phenomenon | fields |
//! |---|---|---|
//! | `modelRequests` | one `apps` per entry ("Apple Intelligence model request <identifier>") | identifier, use case, client (the app's bundle id), model, model version, execution environment (`OnDevice` or `PrivateCloudCompute`), the prompt and the response as the report keeps them (a response that is JSON text: each of its values), every other member's values by their key path; the time (`timestamp`, Unix seconds) |
//! | `privateCloudComputeRequests` | one `apps` per entry ("Apple Intelligence Private Cloud Compute request <requestId>") | request id, pipeline kind, the pipeline parameters' values (adapter, model, token ranges … by key path), each node's `node` and `nodeState`, every other member's values by their key path; the time (Unix seconds) |
//!
//! What it proves: that the device sent that request to that model (on the device, or to
//! Private Cloud Compute when the environment says so) at that time, from that app, with that
//! prompt and response. The report exists only because someone exported it (it is not kept by
//! iOS) and covers only the window chosen then; the export's own date is its file's. Prompts are
//! often a Swift `PromptTemplateInfo(…)` serialisation (template id, variable bindings, locale):
//! kept as written, not decoded; iLEAPP's "User Trigger" and "Source App" are its own labels
//! derived from the use case and client identifiers, not made here.
//!
//! Not read: the nodes' attestation bundles (any member whose key path names an attestation:
//! kilobytes of base64 certificates, opaque; still in the tool's output). `read_json` redacts
//! values under secret-naming keys (password, access token …) and strings shaped like a recovery
//! phrase before printing: such a value of a prompt would read `[redacted by MASForensics …]`.
//!
//! Drift and damage: members are read where present (older reports lack model version and
//! execution environment; pipeline parameters are JSON text or an object). A file that is no
//! JSON (a cut copy) is noted by the call; a file with no entry in either array (another JSON of
//! that name, or an empty export) is noted; an entry that is no object is noted, the others read.
//! At most [`ENTRY_CAP`] entries a file (noted beyond).
//!
//! Identities: none (the report names apps, not people; an address in a prompt is the prompt's).

use masf_agents::RuntimeError;
use masf_graph::FactType;
use masf_tools::Invoked;
use serde_json::{Value, json};

use super::{Draft, ENTRY_CAP, Run};
use crate::drafts::unix_by_magnitude;
use crate::outputs::{json_leaves, json_scalar};

/// Entries asked for per `read_json` call.
pub const PAGE: usize = 16;

/// What an array of the report holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// `modelRequests`: requests to a model (on the device or in the cloud).
    Model,
    /// `privateCloudComputeRequests`: requests to Private Cloud Compute with their nodes.
    Cloud,
}

/// The arrays read, in order.
const ARRAYS: [(&str, Kind); 2] = [
    ("modelRequests", Kind::Model),
    ("privateCloudComputeRequests", Kind::Cloud),
];

/// The members of a model request read with a label: (key, fact, label).
const MODEL: [(&str, FactType, &str); 6] = [
    ("identifier", FactType::Identifier, "identifier"),
    ("useCase", FactType::Text, "use case"),
    ("clientIdentifier", FactType::Identifier, "client"),
    ("model", FactType::Text, "model"),
    ("modelVersion", FactType::Text, "model version"),
    (
        "executionEnvironment",
        FactType::Text,
        "execution environment",
    ),
];

/// The members of a Private Cloud Compute request read with a label.
const CLOUD: [(&str, FactType, &str); 2] = [
    ("requestId", FactType::Identifier, "request id"),
    ("pipelineKind", FactType::Text, "pipeline kind"),
];

/// Triage of every exported Apple Intelligence Report of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    run.each("Apple_Intelligence_Report*.json", |find, path| {
        report(run, find, path)
    })
}

/// One part of a `read_json` output: the pointer and its value (`None`: not present).
type Section = (String, Option<Value>);

/// The parts of a `read_json` output asked for by pointers, in order: each `# at <pointer>` line
/// and the JSON after it (`Value::Null` when it does not parse), or `# at <pointer>: not present`.
fn sections(text: &str) -> Vec<Section> {
    let mut out: Vec<Section> = Vec::new();
    let mut current: Option<(String, Option<String>)> = None;
    let flush = |c: Option<(String, Option<String>)>, out: &mut Vec<Section>| {
        if let Some((pointer, body)) = c {
            let value = body.map(|b| serde_json::from_str::<Value>(&b).unwrap_or(Value::Null));
            out.push((pointer, value));
        }
    };
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("# at ") {
            flush(current.take(), &mut out);
            current = Some(match rest.strip_suffix(": not present") {
                Some(p) => (p.to_string(), None),
                None => (rest.to_string(), Some(String::new())),
            });
        } else if let Some((_, Some(body))) = current.as_mut() {
            body.push_str(line);
            body.push('\n');
        }
    }
    flush(current, &mut out);
    out
}

/// One report file.
fn report(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let mut recorded = 0u64;
    let mut not_objects: Vec<String> = Vec::new();
    let mut last: Option<String> = None;
    for (array, kind) in ARRAYS {
        let mut start = 0usize;
        'pages: loop {
            let pointers: Vec<String> = (start..start + PAGE)
                .map(|i| format!("/{array}/{i}"))
                .collect();
            let Some(inv) = crate::calls::call_or_note(
                run.ctx,
                path,
                "read_json",
                json!({"path": path, "pointers": pointers, "decode_nested": true}),
            )?
            else {
                // no JSON (a cut copy): noted by the call, nothing more to read
                return Ok(());
            };
            last = Some(inv.record.invocation_id.clone());
            let parts = sections(&inv.output.text);
            if parts.is_empty() {
                break 'pages;
            }
            for (i, (pointer, value)) in parts.into_iter().enumerate() {
                let Some(value) = value else {
                    break 'pages;
                };
                if !value.is_object() {
                    not_objects.push(pointer);
                    continue;
                }
                if recorded >= ENTRY_CAP {
                    run.ctx.unparsed(
                        path,
                        &format!(
                            "more than {ENTRY_CAP} entries: the first {ENTRY_CAP} were recorded"
                        ),
                        Some(&inv.record.invocation_id),
                    )?;
                    return Ok(());
                }
                recorded += 1;
                let d = match kind {
                    Kind::Model => model(find, &inv, path, start + i, &value),
                    Kind::Cloud => cloud(find, &inv, path, start + i, &value),
                };
                run.record(d)?;
            }
            start += PAGE;
        }
    }
    if !not_objects.is_empty() {
        run.ctx.unparsed(
            path,
            &format!(
                "{} entries are not JSON objects ({}); the others were read",
                not_objects.len(),
                not_objects.join(", ")
            ),
            last.as_deref(),
        )?;
    } else if recorded == 0 {
        run.ctx.unparsed(
            path,
            "could not read an Apple Intelligence Report because the file holds no entry of modelRequests or privateCloudComputeRequests (another JSON of that name, or an empty export)",
            last.as_deref(),
        )?;
    }
    Ok(())
}

/// Facts of every scalar under the members of `e` not in `skip` (by key path; attestation
/// members left out), with `"path value"` of each for the interpretation.
fn others(d: &mut Draft, e: &Value, inv: &Invoked, skip: &[&str]) -> Vec<String> {
    let mut said = Vec::new();
    let Some(members) = e.as_object() else {
        return said;
    };
    for (key, v) in members {
        if skip.contains(&key.as_str()) {
            continue;
        }
        let mut leaves = Vec::new();
        json_leaves(v, key, &mut leaves);
        for (at, value) in leaves {
            if at.to_ascii_lowercase().contains("attestation") {
                continue;
            }
            d.fact(FactType::Text, Some(&value), inv);
            said.push(format!("{at} {value}"));
        }
    }
    said
}

/// The entry's time (`timestamp`, Unix seconds; milliseconds by size).
fn time(d: &mut Draft, e: &Value, inv: &Invoked, what: &str) -> Option<String> {
    let t = json_scalar(e.get("timestamp"));
    d.time(t.as_deref(), unix_by_magnitude(t.as_deref()), what, inv);
    t
}

/// A `modelRequests` entry.
fn model(find: &Invoked, inv: &Invoked, path: &str, i: usize, e: &Value) -> Draft {
    let id = json_scalar(e.get("identifier"));
    let mut d = Draft::new(
        "apps",
        format!(
            "Apple Intelligence model request {}",
            id.unwrap_or_else(|| format!("#{i}"))
        ),
    );
    d.fact(FactType::Path, Some(path), find);
    let mut said = d.json_fields(e, inv, &MODEL);
    let mut texts = Vec::new();
    for key in ["prompt", "response"] {
        let Some(v) = e.get(key) else {
            continue;
        };
        let mut leaves = Vec::new();
        json_leaves(v, key, &mut leaves);
        if !leaves.is_empty() {
            texts.push(if v.is_string() {
                format!("its {key}")
            } else {
                format!("its {key} (JSON text, each value)")
            });
        }
        for (_, value) in leaves {
            d.fact(FactType::Text, Some(&value), inv);
        }
    }
    let mut skip: Vec<&str> = MODEL.iter().map(|(k, _, _)| *k).collect();
    skip.extend(["prompt", "response", "timestamp"]);
    said.extend(others(&mut d, e, inv, &skip));
    let t = time(&mut d, e, inv, "Apple Intelligence model request");
    let place = match json_scalar(e.get("executionEnvironment")).as_deref() {
        Some("OnDevice") => " It ran on the device (OnDevice).",
        Some("PrivateCloudCompute") => {
            " It ran on Apple's Private Cloud Compute servers: the prompt left the device."
        }
        _ => "",
    };
    d.interpretation = format!(
        "Entry {i} of modelRequests in the Apple Intelligence Report {path}, the export a user saved from Settings (it covers only the window chosen then): a request made to an Apple Intelligence model ({}){}{}.{place} A prompt in a PromptTemplateInfo(…) serialisation is kept as written, not decoded; iLEAPP's User Trigger and Source App labels are not made. The time is Unix seconds.",
        said.join("; "),
        if texts.is_empty() {
            String::new()
        } else {
            format!("; {} as the report keeps them", texts.join(" and "))
        },
        t.map(|t| format!(", at {t}")).unwrap_or_default(),
    );
    d
}

/// A `privateCloudComputeRequests` entry.
fn cloud(find: &Invoked, inv: &Invoked, path: &str, i: usize, e: &Value) -> Draft {
    let id = json_scalar(e.get("requestId"));
    let mut d = Draft::new(
        "apps",
        format!(
            "Apple Intelligence Private Cloud Compute request {}",
            id.unwrap_or_else(|| format!("#{i}"))
        ),
    );
    d.fact(FactType::Path, Some(path), find);
    let mut said = d.json_fields(e, inv, &CLOUD);
    said.extend(others(
        &mut d,
        e,
        inv,
        &["requestId", "pipelineKind", "timestamp"],
    ));
    let nodes: Vec<&Value> = e
        .get("nodes")
        .and_then(Value::as_array)
        .map(|a| a.iter().collect())
        .unwrap_or_default();
    let states: Vec<String> = nodes
        .iter()
        .filter_map(|n| json_scalar(n.get("nodeState")))
        .collect();
    let t = time(&mut d, e, inv, "Private Cloud Compute request");
    d.interpretation = format!(
        "Entry {i} of privateCloudComputeRequests in the Apple Intelligence Report {path}, the export a user saved from Settings (it covers only the window chosen then): a request the device sent to Apple's Private Cloud Compute servers ({}){}; {} node{} listed{}. The nodes' attestation bundles (certificates proving the servers' software) are not copied; the time is Unix seconds.",
        said.join("; "),
        t.map(|t| format!(", at {t}")).unwrap_or_default(),
        nodes.len(),
        if nodes.len() == 1 { "" } else { "s" },
        if states.is_empty() {
            String::new()
        } else {
            format!(" (states {})", states.join(", "))
        },
    );
    d
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sections_of_a_pointed_output() {
        let text = "# json /x/Apple_Intelligence_Report.json: 10 bytes, 1 nested JSON texts decoded, 0 secret values redacted\n# at /modelRequests/0\n{\n  \"identifier\": \"A\",\n  \"prompt\": \"# at home\"\n}\n# at /modelRequests/1: not present\n";
        let s = sections(text);
        assert_eq!(s.len(), 2);
        assert_eq!(s[0].0, "/modelRequests/0");
        assert_eq!(s[0].1.as_ref().unwrap()["identifier"], "A");
        assert_eq!(s[1], ("/modelRequests/1".to_string(), None));
    }
}
