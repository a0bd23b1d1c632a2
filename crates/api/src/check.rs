//! The consistency check of a case store (issue 24): [`check`] finds what a sound store never
//! holds (see `masf_tools::consistency`), and every phase that writes refuses an inconsistent
//! store with [`refuse_inconsistent`] (`masf repair` mends what can be mended: [`crate::repair`]).

use masf_tools::consistency::Consistency;

use crate::{ApiError, CaseCtx, ErrorCode};

/// How many problems an error message lists before "and N more".
const LISTED: usize = 5;

/// Checks the case store's consistency; reads only.
pub fn check(ctx: &CaseCtx) -> Result<Consistency, ApiError> {
    Ok(masf_tools::consistency::check(
        &ctx.store,
        crate::compose::scoring(&ctx.config.scoring),
    )?)
}

/// Fails with [`ErrorCode::StoreInconsistent`], listing the problems, unless the store is
/// consistent.
pub(crate) fn refuse_inconsistent(ctx: &CaseCtx) -> Result<(), ApiError> {
    let c = check(ctx)?;
    if c.ok() {
        return Ok(());
    }
    Err(inconsistent(&ctx.case.meta.id, &c))
}

/// The error of an inconsistent store.
pub(crate) fn inconsistent(case_id: &str, c: &Consistency) -> ApiError {
    let mut message = format!(
        "the store of case {case_id} is inconsistent ({} problem(s)):",
        c.problems.len()
    );
    for p in c.problems.iter().take(LISTED) {
        message.push_str(&format!("\n  {p}"));
    }
    if c.problems.len() > LISTED {
        message.push_str(&format!("\n  … and {} more", c.problems.len() - LISTED));
    }
    message.push_str(if c.repairable() {
        "\nrun `masf repair` to rebuild the graph from the recorded tool outputs"
    } else {
        "\nrows are missing from the store's logs: restore the work folder from a backup"
    });
    ApiError::new(ErrorCode::StoreInconsistent, message)
}
