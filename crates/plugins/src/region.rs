//! The phone-numbering region of a source, decided from its own evidence (DESIGN §8;
//! `masf_agents::region`). A triage agent gathers what the evidence says about the country of
//! its numbers — the SIM (the MCC of an IMSI, the country code of an ICCID), the carrier (a
//! subscriber MCC, a carrier bundle named for its country), the owner's own number written
//! internationally, the device locale — and hands it, with the examiner's `region:` from
//! case.yaml, to the deterministic `phone_region` tool. The tool's logged output says which
//! region was chosen, from which value, and what every other value said; the agent records it
//! as a `phone-region` phenomenon (the region fact grounded in the tool's output, the evidence
//! value in the artefact's) and reads the source's numbers with it from then on. The time zone
//! is never asked.
//!
//! Order of trust: `imsi`, `mcc`, `iccid`, `carrier`, `own_number`, `locale`, then the
//! examiner. The first kind that gives a region decides; values of the same kind that
//! disagree are listed (`disagrees`) and the first in the order given wins.

use masf_agents::{AgentCtx, PhenomenonDraft, RuntimeError};
use masf_graph::{FactType, Region};
use masf_tools::{Applicability, Invoked, SourceCtx, Tool, ToolError, ToolOutput};
use serde_json::{Value, json};

/// The kinds of evidence the tool reads, in order of trust.
pub const KINDS: [&str; 6] = ["imsi", "mcc", "iccid", "carrier", "own_number", "locale"];

/// What one kind of value says about its region.
pub fn region_of(kind: &str, value: &str) -> Option<Region> {
    match kind {
        "imsi" => Region::of_imsi(value),
        "mcc" => value.trim().parse().ok().and_then(Region::for_mcc),
        "iccid" => Region::of_iccid(value),
        // A carrier bundle named for its country: `Verizon_TFW_LTE_US`, `CMHK_hk`.
        "carrier" => value
            .rsplit(['_', '-', '.'])
            .next()
            .filter(|t| t.len() == 2)
            .and_then(|t| Region::parse(t).ok()),
        "own_number" => Region::of_international_number(value),
        "locale" => Region::of_locale(value),
        _ => None,
    }
}

/// One value of evidence about the region.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Clue {
    /// One of [`KINDS`].
    pub kind: &'static str,
    /// The value as read.
    pub value: String,
    /// Where it was read (`path > key`).
    pub at: String,
    /// The fact type it is cited as.
    pub fact_type: FactType,
}

/// The `phone_region` tool: decides a source's phone-numbering region from evidence values.
pub struct PhoneRegionTool;

impl Tool for PhoneRegionTool {
    fn name(&self) -> &str {
        "phone_region"
    }
    fn description(&self) -> &str {
        "Decide the phone-numbering region (ISO 3166-1 alpha-2) of a source from evidence values already read from it: IMSI (its MCC), MCC, ICCID (its country code), carrier bundle name, the owner's own number written internationally, device locale — trusted in that order — else the examiner's region from case.yaml. Prints `region`, `basis`, `value`, `at`, `reason`, and one `considered` line per value. Reads no evidence itself."
    }
    fn args_schema(&self) -> Value {
        json!({"type": "object", "properties": {
            "evidence": {"type": "array", "items": {"type": "object", "properties": {
                "kind": {"type": "string", "enum": KINDS},
                "value": {"type": "string"},
                "at": {"type": "string", "description": "Where the value was read (path > key)."}
            }, "required": ["kind", "value"], "additionalProperties": false}},
            "examiner": {"type": "string", "description": "The examiner's region from case.yaml, if any."}
        }, "required": ["evidence"], "additionalProperties": false})
    }
    fn applicability(&self) -> Applicability {
        Applicability::ANY
    }
    fn run(&self, _ctx: &SourceCtx, args: &Value) -> Result<ToolOutput, ToolError> {
        let items = args
            .get("evidence")
            .and_then(Value::as_array)
            .ok_or_else(|| ToolError::InvalidArgs("evidence must be an array".into()))?;
        let mut clues: Vec<(String, String, String)> = Vec::new();
        for item in items {
            let field = |k: &str| item.get(k).and_then(Value::as_str).map(str::to_string);
            let (Some(kind), Some(value)) = (field("kind"), field("value")) else {
                return Err(ToolError::InvalidArgs(
                    "each evidence item needs a kind and a value".into(),
                ));
            };
            if !KINDS.contains(&kind.as_str()) {
                return Err(ToolError::InvalidArgs(format!("unknown kind {kind:?}")));
            }
            clues.push((kind, value, field("at").unwrap_or_default()));
        }
        let examiner = match args.get("examiner") {
            None | Some(Value::Null) => None,
            Some(Value::String(s)) => Some(
                Region::parse(s).map_err(|e| ToolError::InvalidArgs(format!("examiner: {e}")))?,
            ),
            Some(_) => return Err(ToolError::InvalidArgs("examiner must be a string".into())),
        };
        Ok(ToolOutput::text(decide(&clues, examiner)))
    }
}

/// The tool's output for `clues` (kind, value, where) and the examiner's region.
pub fn decide(clues: &[(String, String, String)], examiner: Option<Region>) -> String {
    let clean = |s: &str| s.replace(['\t', '\n', '\r'], " ");
    let mut considered = Vec::new();
    let mut chosen: Option<(Region, &str, &str, &str)> = None;
    for kind in KINDS {
        for (k, value, at) in clues.iter().filter(|(k, _, _)| k == kind) {
            let region = region_of(k, value);
            let said = region.map_or("(none)".to_string(), |r| r.to_string());
            let note = match (&chosen, region) {
                (Some((c, ..)), Some(r)) if *c != r => "\tdisagrees",
                _ => "",
            };
            considered.push(format!(
                "considered\t{k}\t{}\t{said}\t{}{note}",
                clean(value),
                clean(at)
            ));
            if chosen.is_none()
                && let Some(r) = region
            {
                chosen = Some((r, kind, value.as_str(), at.as_str()));
            }
        }
    }
    let mut out = String::new();
    match (chosen, examiner) {
        (Some((region, kind, value, at)), _) => {
            let why = match kind {
                "imsi" => "the mobile country code of the IMSI",
                "mcc" => "the subscriber's mobile country code",
                "iccid" => "the country code of the SIM's ICCID",
                "carrier" => "the carrier bundle's country",
                "own_number" => "the owner's own number, written internationally",
                _ => "the device locale",
            };
            out.push_str(&format!(
                "region\t{region}\nbasis\t{kind}\nvalue\t{}\nat\t{}\nreason\t{region} from {why} {}\n",
                clean(value),
                clean(at),
                clean(value)
            ));
            if let Some(e) = examiner.filter(|e| *e != region) {
                out.push_str(&format!(
                    "examiner\t{e}\tnot used: the evidence gives {region}\n"
                ));
            }
        }
        (None, Some(e)) => out.push_str(&format!(
            "region\t{e}\nbasis\texaminer\nreason\t{e} as the examiner set it in case.yaml (region:): no evidence value gives a region\n"
        )),
        (None, None) => out.push_str(
            "region\t(none)\nbasis\tnone\nreason\tno evidence value gives a region and the examiner set none: numbers written without a country code are not read as phone numbers\n",
        ),
    }
    for line in considered {
        out.push_str(&line);
        out.push('\n');
    }
    out
}

/// Decides the region of the task's source from `clues` (each with the call whose output
/// holds its value), records it as a `phone-region` phenomenon and reads the source's
/// numbers with it from then on. Returns the region, or `None` when neither the evidence nor
/// the examiner gives one (then nothing is recorded and the context keeps reading without a
/// region).
pub fn settle(
    ctx: &AgentCtx<'_>,
    clues: &[(Clue, Invoked)],
) -> Result<Option<Region>, RuntimeError> {
    let examiner = ctx.source().region;
    if clues.is_empty() && examiner.is_none() {
        // Nothing to decide from: no call, no record; national numbers stay unread.
        return Ok(None);
    }
    let evidence: Vec<Value> = clues
        .iter()
        .map(|(c, _)| json!({"kind": c.kind, "value": c.value, "at": c.at}))
        .collect();
    let mut args = json!({ "evidence": evidence });
    if let (Some(e), Some(obj)) = (examiner, args.as_object_mut()) {
        obj.insert("examiner".into(), Value::String(e.to_string()));
    }
    let invoked = ctx.call("phone_region", args)?;
    if !crate::calls::succeeded(&invoked) {
        ctx.unparsed(
            "phone region",
            &crate::calls::failure_reason(&invoked),
            Some(&invoked.record.invocation_id),
        )?;
        return Ok(examiner);
    }
    let text = invoked.output.text.clone();
    let line = |key: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix(key).and_then(|r| r.strip_prefix('\t')))
            .map(str::to_string)
    };
    let Some(region) = line("region").and_then(|r| Region::parse(&r).ok()) else {
        return Ok(None);
    };
    let basis = line("basis").unwrap_or_default();
    let reason = line("reason").unwrap_or_default();
    let mut facts = vec![crate::drafts::fact(
        FactType::Identifier,
        region.code(),
        &invoked,
    )];
    if let Some((clue, inv)) = clues
        .iter()
        .find(|(c, _)| c.kind == basis && line("value").as_deref() == Some(c.value.as_str()))
    {
        facts.push(crate::drafts::fact(clue.fact_type, &clue.value, inv));
    }
    let draft = PhenomenonDraft {
        category: masf_agents::region::CATEGORY.to_string(),
        title: format!("Phone numbers of this source are read as {region} numbers"),
        facts,
        interpretation: format!(
            "Phone numbers written without a country code in this source are read as numbers of {region}: {reason}."
        ),
        times: Vec::new(),
    };
    crate::identity::record(ctx, draft)?;
    ctx.set_phone_region(Some(region));
    Ok(Some(region))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(clues: &[(&str, &str)], examiner: Option<&str>, region: &str, basis: &str) {
        let clues: Vec<(String, String, String)> = clues
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string(), String::new()))
            .collect();
        let out = decide(&clues, examiner.map(|e| Region::parse(e).unwrap()));
        assert!(
            out.starts_with(&format!("region\t{region}\nbasis\t{basis}\n")),
            "{out}"
        );
    }

    #[test]
    fn evidence_first_then_the_examiner_never_the_zone() {
        // MVS 2023's CommCenter values.
        check(
            &[
                ("own_number", "+14439877293"),
                ("iccid", "89148000008588244776"),
                ("imsi", "311480808008955"),
            ],
            Some("GB"),
            "US",
            "imsi",
        );
        check(&[("locale", "en_GB")], Some("US"), "GB", "locale");
        check(
            &[("own_number", "19802135560")],
            Some("MX"),
            "MX",
            "examiner",
        );
        check(&[], None, "(none)", "none");
        check(&[("carrier", "Verizon_TFW_LTE_US")], None, "US", "carrier");
        check(&[("mcc", "454")], None, "HK", "mcc");
        // A disagreeing second value is listed, the first of the kind wins.
        let out = decide(
            &[
                ("imsi".into(), "454001234567890".into(), String::new()),
                ("imsi".into(), "310410084226997".into(), String::new()),
            ],
            None,
        );
        assert!(out.starts_with("region\tHK\n"), "{out}");
        assert!(out.contains("310410084226997\tUS\t\tdisagrees"), "{out}");
    }
}
