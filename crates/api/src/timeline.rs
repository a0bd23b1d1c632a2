//! `masf timeline`: the cross-source timeline of a case (DESIGN §12), built by `masf-report`
//! from the graph folded read-only out of the case store.

use std::collections::BTreeSet;

use masf_report::timeline::{self, Filter, SourceMeta, Timeline};

use crate::{ApiError, CaseCtx, ErrorCode};

/// A timeline request as a user writes it: source ids and time bounds as text. Bounds are
/// RFC 3339 with an offset, or `YYYY-MM-DD[ HH:MM[:SS]]` in the case's zone; the range is
/// half-open, `[from, to)`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TimelineQuery {
    /// Only these sources (empty: all).
    pub sources: Vec<String>,
    /// Entries at or after this time.
    pub from: Option<String>,
    /// Entries before this time.
    pub to: Option<String>,
    /// Only entries that concern this actor (an actor id from `masf actors`, or the id of one
    /// of its entities).
    pub actor: Option<String>,
    /// Only entries the examiner's tag selects (see `masf_report::timeline::TagScope`).
    pub tag: Option<String>,
}

/// Checks a [`TimelineQuery`] against the case and turns it into a [`Filter`]. An actor is
/// resolved on the case's graph by [`masf_graph::resolution::actor_scope`]: its entities'
/// strong identifiers, the phenomena that observed them, and the sources where it is the
/// device's owner or the device itself. `masf timeline --actor` and the desktop's `timeline`
/// command both come through here.
pub fn timeline_filter(ctx: &CaseCtx, query: &TimelineQuery) -> Result<Filter, ApiError> {
    let zone = &ctx.case.meta.timezone;
    for s in &query.sources {
        if !ctx.case.sources.iter().any(|c| &c.id == s) {
            let known: Vec<&str> = ctx.case.sources.iter().map(|c| c.id.as_str()).collect();
            return Err(ApiError::new(
                ErrorCode::BadRequest,
                format!("unknown source {s:?}; the case has {}", known.join(", ")),
            ));
        }
    }
    let bound = |text: &Option<String>, which: &str| {
        text.as_deref()
            .map(|t| timeline::parse_bound(t, zone))
            .transpose()
            .map_err(|e| ApiError::new(ErrorCode::BadRequest, format!("--{which}: {e}")))
    };
    let (from, to) = (bound(&query.from, "from")?, bound(&query.to, "to")?);
    if let (Some(f), Some(t)) = (from, to)
        && f >= t
    {
        return Err(ApiError::new(
            ErrorCode::BadRequest,
            format!("the range is empty: --from {f} is not before --to {t}"),
        ));
    }
    let actor = match &query.actor {
        None => None,
        Some(id) => Some(actor_filter(ctx, id)?),
    };
    let tagged = match &query.tag {
        None => None,
        Some(tag) => {
            let state = crate::compose::graph_state(ctx)?;
            let marks = crate::marks::marks_of(ctx)?;
            let tag = marks.spelling(tag);
            if !marks.items().any(|m| m.tags.contains_key(&tag)) {
                return Err(ApiError::new(
                    ErrorCode::BadRequest,
                    format!("nothing is tagged {tag:?}; tags in use: {}", in_use(&marks)),
                ));
            }
            Some(masf_report::tagged::timeline_scope(&state, &marks, &tag))
        }
    };
    Ok(Filter {
        sources: query.sources.iter().cloned().collect::<BTreeSet<_>>(),
        from,
        to,
        actor,
        tagged,
    })
}

/// The tags on at least one item, for messages.
fn in_use(marks: &masf_graph::tags::Marks) -> String {
    let tags: BTreeSet<&String> = marks.items().flat_map(|m| m.tags.keys()).collect();
    if tags.is_empty() {
        "none".to_owned()
    } else {
        tags.into_iter()
            .map(String::as_str)
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// The timeline's view of one actor: the graph's one rule
/// ([`masf_graph::resolution::actor_scope`]) as the report's filter.
fn actor_filter(ctx: &CaseCtx, id: &str) -> Result<masf_report::timeline::ActorFilter, ApiError> {
    let state = crate::compose::graph_state(ctx)?;
    let scope = masf_graph::resolution::actor_scope(&state, id)
        .map_err(|e| ApiError::new(ErrorCode::BadRequest, e.to_string()))?;
    Ok(masf_report::timeline::ActorFilter {
        sources: scope.sources,
        identifiers: scope.identifiers,
        phenomena: scope.phenomena,
    })
}

/// The timeline a [`TimelineQuery`] asks for: [`timeline_filter`], then [`timeline`]. What
/// `masf timeline` prints and what the desktop's `timeline` command serves.
pub fn query_timeline(ctx: &CaseCtx, query: &TimelineQuery) -> Result<Timeline, ApiError> {
    let filter = timeline_filter(ctx, query)?;
    timeline(ctx, &filter)
}

/// The case's timeline: every time mark of every phenomenon in the store, converted, merged
/// across sources, sorted and filtered. Naive times are read in each source's `timezone`;
/// `case_time` is shown in the case's.
pub fn timeline(ctx: &CaseCtx, filter: &Filter) -> Result<Timeline, ApiError> {
    Ok(timeline_of(ctx, &crate::compose::graph_state(ctx)?, filter))
}

/// [`timeline`] over a graph already folded.
pub(crate) fn timeline_of(
    ctx: &CaseCtx,
    state: &masf_graph::GraphState,
    filter: &Filter,
) -> Timeline {
    let sources: Vec<SourceMeta> = ctx
        .case
        .sources
        .iter()
        .map(|s| SourceMeta {
            id: s.id.clone(),
            label: s.label.clone(),
            timezone: s.timezone.clone(),
            phone_region: masf_agents::region::recorded(state, &s.id).or(s.region),
        })
        .collect();
    timeline::build(state, &sources, &ctx.case.meta.timezone).filtered(filter)
}
