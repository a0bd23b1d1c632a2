//! The examiner's tags, bookmarks and notes as the report, `masf tags` and the desktop app show
//! them: one row per marked item, saying what it is in words, and the timeline entries a tag
//! selects (`masf timeline --tag`). The report cut to its tagged items is `crate::tagged_only`.

use masf_graph::GraphState;
use masf_graph::tags::{Act, Marks, Target, describe, holds};
use serde::Serialize;

/// One tag on an item.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ts_rs::TS)]
pub struct TagRow {
    /// The tag.
    pub tag: String,
    /// Who put it on.
    pub by: String,
    /// When (RFC 3339).
    pub at: String,
    /// Why (may be empty).
    pub reason: String,
}

/// A bookmark on an item.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ts_rs::TS)]
pub struct BookmarkRow {
    /// Who bookmarked it.
    pub by: String,
    /// When (RFC 3339).
    pub at: String,
    /// Why (may be empty).
    pub reason: String,
}

/// A note on an item.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ts_rs::TS)]
pub struct NoteRow {
    /// `note-000001`, … (`masf withdraw-note` takes it).
    pub id: String,
    /// The note.
    pub text: String,
    /// Who wrote it.
    pub by: String,
    /// When (RFC 3339).
    pub at: String,
}

/// One item the examiner tagged, bookmarked or wrote a note on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ts_rs::TS)]
pub struct TaggedRow {
    /// The target as `masf tag` takes it (`ph-000012`, `ph-000012#fact2`, `ent-000003`,
    /// `actor-000003`, `ph-000012#time1`, `src-usb:/DCIM/a.jpg`).
    pub target: String,
    /// `phenomenon`, `fact`, `entity`, `actor`, `timeline_entry` or `file`.
    pub kind: String,
    /// What it is, in words: from the graph now, else as recorded when it was marked.
    pub what: String,
    /// False when the graph no longer holds it (after a rebuild renumbered its records, or an
    /// actor regrouped): `what` is then the description recorded when it was marked.
    pub present: bool,
    /// The source it comes from, when it has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub source_id: Option<String>,
    /// The phenomenon it is or is part of, when it is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub phenomenon_id: Option<String>,
    /// Its tags in effect.
    pub tags: Vec<TagRow>,
    /// Its bookmark, when bookmarked.
    pub bookmark: Option<BookmarkRow>,
    /// Its notes in effect, oldest first.
    pub notes: Vec<NoteRow>,
}

impl TaggedRow {
    /// Whether it carries `tag` (compared without case).
    pub fn has_tag(&self, tag: &str) -> bool {
        self.tags
            .iter()
            .any(|t| t.tag.eq_ignore_ascii_case(tag.trim()))
    }
}

fn tag_row(tag: &str, act: &Act) -> TagRow {
    TagRow {
        tag: tag.to_owned(),
        by: act.by.clone(),
        at: act.at.clone(),
        reason: act.reason.clone(),
    }
}

/// Every marked item, in target order; with `tag`, only those carrying it.
pub fn rows(state: &GraphState, marks: &Marks, tag: Option<&str>) -> Vec<TaggedRow> {
    marks
        .items()
        .map(|m| {
            // A file is described as it was found when marked (kind, size); a graph record as
            // it is now, or as it was when marked if the graph no longer holds it.
            let present = holds(state, m);
            let now = match &m.target {
                Target::File { .. } | Target::SearchHit { .. } if !m.label.is_empty() => {
                    Some(m.label.clone())
                }
                t => describe(state, t).filter(|_| present),
            };
            let source_id = match &m.target {
                Target::File { source_id, .. } => Some(source_id.clone()),
                Target::Entity { id } => state.entities().get(id).map(|e| e.source_id.clone()),
                t => t
                    .phenomenon_id()
                    .and_then(|p| state.phenomena().get(p))
                    .map(|p| p.source_id.clone()),
            };
            TaggedRow {
                target: m.target.to_string(),
                kind: m.target.kind().to_owned(),
                present,
                what: now.unwrap_or_else(|| m.label.clone()),
                source_id,
                phenomenon_id: m.target.phenomenon_id().map(str::to_owned),
                tags: m.tags.iter().map(|(t, a)| tag_row(t, a)).collect(),
                bookmark: m.bookmark.as_ref().map(|a| BookmarkRow {
                    by: a.by.clone(),
                    at: a.at.clone(),
                    reason: a.reason.clone(),
                }),
                notes: m
                    .notes
                    .iter()
                    .map(|n| NoteRow {
                        id: n.id.clone(),
                        text: n.text.clone(),
                        by: n.by.clone(),
                        at: n.at.clone(),
                    })
                    .collect(),
            }
        })
        .filter(|r| tag.is_none_or(|t| r.has_tag(t)))
        .collect()
}

/// The timeline entries `tag` selects ([`crate::timeline::TagScope`]). Actors are resolved on
/// `state` by the graph's one rule, `masf_graph::resolution::actor_scope`, as `--actor` does.
pub fn timeline_scope(state: &GraphState, marks: &Marks, tag: &str) -> crate::timeline::TagScope {
    let mut scope = crate::timeline::TagScope::default();
    for m in marks
        .items()
        .filter(|m| marks.has_tag(&m.target, tag) && holds(state, m))
    {
        match &m.target {
            Target::TimelineEntry { .. } => {
                scope.entries.insert(m.target.to_string());
            }
            Target::Phenomenon { id } => {
                scope.phenomena.insert(id.clone());
            }
            Target::Fact { phenomenon_id, .. } => {
                scope.phenomena.insert(phenomenon_id.clone());
            }
            Target::Entity { id } => {
                if let Some(e) = state.entities().get(id) {
                    scope
                        .phenomena
                        .extend(e.identifiers.iter().map(|i| i.phenomenon_id.clone()));
                }
            }
            Target::Actor { id } => {
                if let Ok(a) = masf_graph::resolution::actor_scope(state, id) {
                    scope.actors.push(crate::timeline::ActorFilter {
                        sources: a.sources,
                        identifiers: a.identifiers,
                        phenomena: a.phenomena,
                    });
                }
            }
            Target::File { .. } | Target::SearchHit { .. } => {}
        }
    }
    scope
}
