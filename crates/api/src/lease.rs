//! One writer per case (issue 24): a run takes the case's run lease before it writes anything
//! and holds it until it ends. The lease is an OS lock on `run.lock` in the work folder
//! ([`masf_store::Lease`]: released by the kernel however the holder ends) and an event
//! (`RunLeased`: pid, host, since) so that the audit shows who ran the case. A second runner is
//! refused with [`ErrorCode::CaseBusy`] naming the holder, or waits for it.
//!
//! The examiner's decisions (approve, retract, pause, grants) take no lease: they are short
//! writes that go on during a run, and the graph's writers never append on a stale view
//! (`Store::append_batch_unless_newer`).

use std::path::Path;

use masf_store::lease::Wait;
use masf_store::{ActorKind, Holder, Lease, NewEvent, StoreError};

use crate::{ApiError, CaseCtx, Clock, ErrorCode};

/// The case's run lease, held until dropped. [`crate::run`] and [`crate::repair`] need one.
#[derive(Debug)]
pub struct RunLease {
    lease: Lease,
    seq: i64,
}

impl RunLease {
    /// The seq of its `RunLeased` event: what this run records starts there.
    pub fn seq(&self) -> i64 {
        self.seq
    }

    /// Who holds it (this process) and since when.
    pub fn holder(&self) -> &Holder {
        self.lease.holder()
    }

    /// Fails unless this is the lease of `ctx`'s work folder.
    pub(crate) fn check_for(&self, ctx: &CaseCtx) -> Result<(), ApiError> {
        if same_dir(self.lease.work_dir(), &ctx.work_dir) {
            Ok(())
        } else {
            Err(ApiError::new(
                ErrorCode::BadRequest,
                format!(
                    "the run lease held is of {}, not of {}",
                    self.lease.work_dir().display(),
                    ctx.work_dir.display()
                ),
            ))
        }
    }
}

fn same_dir(a: &Path, b: &Path) -> bool {
    a == b || matches!((a.canonicalize(), b.canonicalize()), (Ok(a), Ok(b)) if a == b)
}

/// Takes the run lease of the case: at once, or — with `wait` — once the process holding it
/// lets go (`wait` is told who holds it first; there is no time limit). Records a `RunLeased`
/// event. Refused with [`ErrorCode::CaseBusy`]: "case ID is being run by pid N on HOST since T".
pub fn take_lease(
    ctx: &mut CaseCtx,
    wait: Option<&mut dyn FnMut(&Holder)>,
    clock: &dyn Clock,
) -> Result<RunLease, ApiError> {
    let wait = match wait {
        Some(on_busy) => Wait::Yes(on_busy),
        None => Wait::No,
    };
    let lease = Lease::acquire(&ctx.work_dir, wait, &|| clock.now()).map_err(|e| match e {
        StoreError::Busy { holder } => busy(&ctx.case.meta.id, &holder),
        e => ApiError::store(e),
    })?;
    let holder = lease.holder();
    let payload =
        serde_json::to_value(holder).map_err(|e| ApiError::new(ErrorCode::Io, e.to_string()))?;
    let appended = ctx.store.append(&NewEvent {
        kind: masf_agents::run::RUN_LEASED.to_string(),
        payload,
        actor_kind: ActorKind::System,
        actor_id: "lease".to_string(),
        idempotency_key: format!("run-lease/{}/{}/{}", holder.host, holder.pid, holder.since),
        causation_seq: None,
        ts: holder.since,
        versions: Default::default(),
    })?;
    Ok(RunLease {
        lease,
        seq: appended.seq,
    })
}

/// The refusal of a busy case.
pub(crate) fn busy(case_id: &str, holder: &Holder) -> ApiError {
    ApiError::new(
        ErrorCode::CaseBusy,
        format!("case {case_id} is being run by {holder}"),
    )
}
