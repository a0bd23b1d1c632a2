//! Phenomena recorded through the real gateway over an in-memory invocation log.

use masf_graph::{
    Call, FactClaim, FactType, Gateway, GraphState, MemoryInvocation, MemoryLog, NewPhenomenon,
    Region, Scoring, TimeEncoding, TimeMark, Verdict,
};
use masf_report::timeline::SourceMeta;

/// A graph built by submitting phenomena to the gateway.
pub struct Graph {
    pub state: GraphState,
    log: MemoryLog,
    next: usize,
}

/// A timestamp fact with its encoding and description, plus other facts.
pub struct Ph<'a> {
    pub source: &'a str,
    pub title: &'a str,
    pub times: &'a [(&'a str, TimeEncoding, &'a str)],
    pub facts: &'a [(FactType, &'a str)],
}

impl Graph {
    pub fn new() -> Self {
        Graph {
            state: GraphState::new(Scoring::default()),
            log: MemoryLog::new(),
            next: 0,
        }
    }

    /// Logs one tool output holding every value, then records the phenomenon citing it.
    pub fn record(&mut self, ph: Ph<'_>) -> String {
        self.next += 1;
        let inv = format!("inv-{:06}", self.next);
        let agent = "test-triage";
        let task = format!("triage/{}", ph.source);
        let mut output = String::new();
        for (v, _, _) in ph.times {
            output.push_str(v);
            output.push('\n');
        }
        for (_, v) in ph.facts {
            output.push_str(v);
            output.push('\n');
        }
        self.log.push(MemoryInvocation {
            id: inv.clone(),
            source_id: ph.source.into(),
            agent: agent.into(),
            task_id: task.clone(),
            output: output.into_bytes(),
            structured: None,
        });
        let mut facts = Vec::new();
        let mut times = Vec::new();
        for (v, enc, desc) in ph.times {
            times.push(TimeMark {
                fact: facts.len(),
                encoding: *enc,
                description: (*desc).into(),
            });
            facts.push(FactClaim {
                fact_type: FactType::Timestamp,
                value: (*v).into(),
                invocation_id: inv.clone(),
            });
        }
        for (t, v) in ph.facts {
            facts.push(FactClaim {
                fact_type: *t,
                value: (*v).into(),
                invocation_id: inv.clone(),
            });
        }
        let call = Call::RecordPhenomenon(NewPhenomenon {
            source_id: ph.source.into(),
            agent: agent.into(),
            task_id: task,
            category: "messages".into(),
            title: ph.title.into(),
            facts,
            interpretation: String::new(),
            phone_region: Some(Region::parse("HK").expect("HK is a region")),
            times,
        });
        match Gateway::new(&self.state, &self.log).handle(&call) {
            Verdict::Accepted { id, events, .. } => {
                for e in &events {
                    self.state.apply(e);
                }
                id
            }
            v => panic!("rejected: {v:?}"),
        }
    }
}

pub fn source(id: &str, zone: &str) -> SourceMeta {
    SourceMeta {
        id: id.into(),
        label: format!("{id} label"),
        timezone: zone.into(),
        phone_region: Some(Region::parse("HK").expect("HK is a region")),
    }
}
