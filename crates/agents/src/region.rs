//! The phone-numbering region of a source (DESIGN §8): how its numbers written without a
//! country code are read. It comes from the source's own evidence first — the triage agent
//! reads the SIM (MCC of the IMSI, the ICCID's country code), the carrier, the owner's own
//! number written internationally and the device locale, asks the `phone_region` tool to
//! decide, and records the decision as a `phone-region` phenomenon whose first fact is the
//! region, grounded in that tool's logged output — then from the examiner's `region:` in
//! case.yaml (per source or for the case). Never from the time zone.

use masf_graph::{FactType, GraphState, Region};

use crate::session::SourceInfo;

/// The category of the phenomenon that records a source's region.
pub const CATEGORY: &str = "phone-region";

/// The region the source's evidence gave, as recorded in the graph: the first fact of the
/// newest `phone-region` phenomenon of the source (an identifier fact holding the ISO code).
pub fn recorded(state: &GraphState, source_id: &str) -> Option<Region> {
    state
        .phenomena()
        .values()
        .filter(|p| p.source_id == source_id && p.category == CATEGORY)
        .filter_map(|p| {
            let fact = p.verified_facts.first()?;
            if fact.fact_type != FactType::Identifier {
                return None;
            }
            Region::parse(&fact.value).ok().map(|r| (p.id.as_str(), r))
        })
        .max_by(|a, b| a.0.cmp(b.0))
        .map(|(_, r)| r)
}

/// How the numbers of a source are read: the region its evidence gave (recorded in the
/// graph), else the examiner's (`region:` of the source or the case), else none (national
/// numbers are then not read as phones).
pub fn of_source(state: &GraphState, source: &SourceInfo) -> Option<Region> {
    recorded(state, &source.id).or(source.region)
}
