//! One agent working one task on one source: the only handle a triage agent gets.

use std::sync::Mutex;

use masf_graph::{
    Call, EntityKind, FactClaim, IdType, IdentityObservation, NewPhenomenon, Region, TimeMark,
    Verdict,
};
use masf_store::ActorKind;
use masf_tools::Invoked;
use serde::Serialize;
use serde_json::Value;

use crate::session::{ArtefactUnparsed, RuntimeError, Session, SourceInfo};

/// What a task did, counted as it goes.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct TaskTally {
    /// Tool calls made (all outcomes).
    pub tool_calls: u64,
    /// Tool calls that did not end `ok` or `cached`.
    pub tool_failures: u64,
    /// Phenomena accepted (identity observations included).
    pub phenomena: u64,
    /// Identity observations accepted.
    pub identities: u64,
    /// Requests answered as duplicates of earlier ones (a resumed run).
    pub duplicates: u64,
    /// Requests the gateway rejected.
    pub rejections: u64,
    /// Artefacts that could not be parsed.
    pub unparsed: u64,
}

/// A phenomenon as a triage agent drafts it; the context fills in source, agent, task and
/// the source's phone region.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PhenomenonDraft {
    /// The artefact category (from the plugin's categorisation).
    pub category: String,
    /// A one-line title.
    pub title: String,
    /// The facts, each citing the invocation that holds it.
    pub facts: Vec<FactClaim>,
    /// A templated interpretation.
    pub interpretation: String,
    /// Which timestamp facts are event times.
    pub times: Vec<TimeMark>,
}

/// An identity observation as a triage agent drafts it.
#[derive(Debug, Clone, PartialEq)]
pub struct Observation {
    /// The context that scopes the entity (`device-owner`, `contact:12`, `account:3`).
    pub context: String,
    /// What the entity is.
    pub entity_kind: EntityKind,
    /// A label for the entity (the contact's name).
    pub label: String,
    /// The identifier's type.
    pub id_type: IdType,
    /// The value as read.
    pub value: String,
    /// The invocation whose output contains it.
    pub invocation_id: String,
    /// A templated note.
    pub interpretation: String,
    /// For a wallet held by a person (a control claim): the word before the address that
    /// named them its holder (`my`, `sent`), if any.
    pub cue: Option<String>,
}

/// An agent's handle on its task: tool calls and gateway requests, all logged.
pub struct AgentCtx<'s> {
    session: &'s Session,
    agent: String,
    task_id: String,
    source: SourceInfo,
    /// How local phone numbers are read: see [`crate::region`]; set again once the task
    /// records the region its evidence gives.
    region: Mutex<Option<Region>>,
    tally: Mutex<TaskTally>,
    /// Added to the `versions` of every event this context writes (an LLM agent's model and
    /// prompt).
    provenance: masf_store::Versions,
    /// The artefact being read and when its time is up ([`AgentCtx::artefact`]).
    deadline: Mutex<Option<(String, std::time::Instant)>>,
}

impl<'s> AgentCtx<'s> {
    /// `agent` working `task_id` on `source_id`.
    pub fn new(
        session: &'s Session,
        agent: &str,
        task_id: &str,
        source_id: &str,
    ) -> Result<Self, RuntimeError> {
        let source = session.source_info(source_id)?.clone();
        let region = crate::region::of_source(&*session.state()?, &source);
        Ok(Self {
            region: Mutex::new(region),
            session,
            agent: agent.to_string(),
            task_id: task_id.to_string(),
            source,
            tally: Mutex::new(TaskTally::default()),
            provenance: masf_store::Versions::new(),
            deadline: Mutex::new(None),
        })
    }

    /// The same context, writing `versions` on every event (model id, prompt version).
    pub fn with_provenance(mut self, versions: masf_store::Versions) -> Self {
        self.provenance = versions;
        self
    }

    /// The agent's name.
    pub fn agent(&self) -> &str {
        &self.agent
    }

    /// The task id.
    pub fn task_id(&self) -> &str {
        &self.task_id
    }

    /// The source worked on.
    pub fn source(&self) -> &SourceInfo {
        &self.source
    }

    /// The session (read-only uses: the catalog, the state, the source's layers).
    pub fn session(&self) -> &Session {
        self.session
    }

    /// How local phone numbers of this source are read.
    pub fn phone_region(&self) -> Option<Region> {
        self.region.lock().ok().and_then(|r| *r)
    }

    /// Reads this source's numbers with `region` from now on (after the task recorded it as
    /// the region its evidence gives, [`crate::region::CATEGORY`]).
    pub fn set_phone_region(&self, region: Option<Region>) {
        if let Ok(mut r) = self.region.lock() {
            *r = region;
        }
    }

    /// What the task has done so far.
    pub fn tally(&self) -> TaskTally {
        self.tally.lock().map(|t| t.clone()).unwrap_or_default()
    }

    fn count(&self, f: impl FnOnce(&mut TaskTally)) {
        if let Ok(mut t) = self.tally.lock() {
            f(&mut t);
        }
    }

    /// Reads one artefact (`read`) under the session's per-artefact time limit
    /// ([`Session::with_artefact_limit`]): once the limit has passed, the next tool call of
    /// `read` fails with [`RuntimeError::ArtefactTimeLimit`]; this notes the artefact as not
    /// parsed with that reason (what was recorded before stands) and answers `Ok(None)`, so the
    /// triage goes on with the next artefact. A scope inside another keeps the outer deadline.
    pub fn artefact<T>(
        &self,
        name: &str,
        read: impl FnOnce() -> Result<T, RuntimeError>,
    ) -> Result<Option<T>, RuntimeError> {
        let Some(limit) = self.session.artefact_limit() else {
            return read().map(Some);
        };
        let outer = {
            let mut d = self
                .deadline
                .lock()
                .map_err(|_| RuntimeError::Poisoned("artefact deadline"))?;
            let outer = d.is_some();
            if !outer && let Some(at) = std::time::Instant::now().checked_add(limit) {
                *d = Some((name.to_string(), at));
            }
            outer
        };
        let result = read();
        if outer {
            return result.map(Some);
        }
        if let Ok(mut d) = self.deadline.lock() {
            *d = None;
        }
        match result {
            Ok(v) => Ok(Some(v)),
            Err(RuntimeError::ArtefactTimeLimit { artefact, seconds }) => {
                self.unparsed(
                    &artefact,
                    &format!(
                        "stopped by the per-artefact time limit ({seconds} s, config \
                         tools.artefact_timeout_s): what was recorded before stands, the rest \
                         of it was not read"
                    ),
                    None,
                )?;
                Ok(None)
            }
            Err(e) => Err(e),
        }
    }

    /// Calls a catalog tool on the task's source (logged whatever the outcome).
    pub fn call(&self, tool: &str, args: Value) -> Result<Invoked, RuntimeError> {
        if let Ok(d) = self.deadline.lock()
            && let Some((artefact, at)) = d.as_ref()
            && std::time::Instant::now() >= *at
        {
            return Err(RuntimeError::ArtefactTimeLimit {
                artefact: artefact.clone(),
                seconds: self.session.artefact_limit().map_or(0, |l| l.as_secs()),
            });
        }
        let invoked = self.session.invoke_with(
            &self.agent,
            &self.task_id,
            &self.source.id,
            tool,
            &args,
            &self.provenance,
        )?;
        let ok = matches!(
            invoked.record.status,
            masf_store::InvocationStatus::Ok | masf_store::InvocationStatus::Cached
        );
        self.count(|t| {
            t.tool_calls += 1;
            if !ok {
                t.tool_failures += 1;
            }
        });
        Ok(invoked)
    }

    /// Submits any gateway request as this agent.
    pub fn submit(&self, call: &Call) -> Result<Verdict, RuntimeError> {
        let verdict =
            self.session
                .submit_with(ActorKind::Agent, &self.agent, call, &self.provenance)?;
        self.count(|t| match &verdict {
            Verdict::Accepted { events, .. } if events.is_empty() => t.duplicates += 1,
            Verdict::Accepted { .. } => {
                t.phenomena += u64::from(matches!(
                    call,
                    Call::RecordPhenomenon(_) | Call::ObserveIdentity(_)
                ));
                t.identities += u64::from(matches!(call, Call::ObserveIdentity(_)));
            }
            Verdict::Rejected { .. } => t.rejections += 1,
        });
        Ok(verdict)
    }

    /// Records a phenomenon on the task's source.
    pub fn record(&self, draft: PhenomenonDraft) -> Result<Verdict, RuntimeError> {
        self.submit(&Call::RecordPhenomenon(NewPhenomenon {
            source_id: self.source.id.clone(),
            agent: self.agent.clone(),
            task_id: self.task_id.clone(),
            category: draft.category,
            title: draft.title,
            facts: draft.facts,
            interpretation: draft.interpretation,
            phone_region: self.phone_region(),
            times: draft.times,
        }))
    }

    /// Observes an identifier of an entity of the task's source.
    pub fn observe(&self, obs: Observation) -> Result<Verdict, RuntimeError> {
        self.submit(&Call::ObserveIdentity(IdentityObservation {
            agent: self.agent.clone(),
            task_id: self.task_id.clone(),
            source_id: self.source.id.clone(),
            context: obs.context,
            entity_kind: obs.entity_kind,
            label: obs.label,
            id_type: obs.id_type,
            value: obs.value,
            invocation_id: obs.invocation_id,
            phone_region: self.phone_region(),
            interpretation: obs.interpretation,
            cue: obs.cue,
        }))
    }

    /// Notes that `artefact` could not be parsed because `reason` (no phenomenon from it).
    pub fn unparsed(
        &self,
        artefact: &str,
        reason: &str,
        invocation_id: Option<&str>,
    ) -> Result<(), RuntimeError> {
        tracing::info!(source = %self.source.id, agent = %self.agent, artefact, reason, "could not parse");
        self.count(|t| t.unparsed += 1);
        self.session.note_unparsed(&ArtefactUnparsed {
            source_id: self.source.id.clone(),
            agent: self.agent.clone(),
            task_id: self.task_id.clone(),
            artefact: artefact.to_string(),
            reason: reason.to_string(),
            invocation_id: invocation_id.map(str::to_string),
        })
    }
}
