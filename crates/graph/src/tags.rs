//! The examiner's tags, bookmarks and notes (issue 21): what the examiner marked as mattering,
//! on any phenomenon, fact, entity, actor, timeline entry or file.
//!
//! Every tag and untag, bookmark and unbookmark, note added and note withdrawn is one
//! [`MarkEvent`] in the case's append-only log (who, when, why); nothing is ever changed or
//! removed except by a later event. [`Marks`] is their projection, a fold like the graph's;
//! [`judge`] decides what one examiner request writes, on the graph and the marks folded so
//! far, and refuses a target that does not exist with the id and the kinds that do.
//!
//! These events are not graph events: a graph rebuild (`masf repair`) leaves them in effect,
//! and the graph's fold skips them. Their targets name the graph's records by id; a target
//! that a later graph no longer holds is kept and shown with the description recorded when it
//! was marked ([`MarkEvent`]'s `label`).
//!
//! A target is a tagged JSON object (`{"kind": "phenomenon", "id": "ph-000012"}`), so a new
//! kind is one more variant, read by old and new code alike (search hits came so: a hit line of
//! a logged `search_index` call); its text form is what the CLI takes ([`Target::parse`]).

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::events::digest;
use crate::state::GraphState;

/// The tags offered first; any other free text is a tag too.
pub const DEFAULT_TAGS: [&str; 4] = ["Notable", "Suspicious", "Follow up", "Exculpatory"];

/// The longest tag, in characters.
pub const MAX_TAG_CHARS: usize = 64;

/// What the examiner marks.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Target {
    /// A phenomenon (`ph-000012`).
    Phenomenon {
        /// Its id.
        id: String,
    },
    /// One verified fact of a phenomenon (`ph-000012#fact2`).
    Fact {
        /// The phenomenon.
        phenomenon_id: String,
        /// The fact's position among its facts, from 1.
        fact: u32,
    },
    /// A tentative entity (`ent-000003`).
    Entity {
        /// Its id.
        id: String,
    },
    /// An actor (`actor-000003`, see `masf actors`).
    Actor {
        /// Its id.
        id: String,
    },
    /// One timeline entry: a time mark of a phenomenon (`ph-000012#time1`).
    TimelineEntry {
        /// The phenomenon.
        phenomenon_id: String,
        /// The mark's position among the phenomenon's time marks, from 1.
        mark: u32,
    },
    /// A file or folder inside a source (`src-usb:/DCIM/a.jpg`, `src-android#userdata:/data`).
    File {
        /// The case's source id.
        source_id: String,
        /// The file system when the source holds several: a 1-based partition index or a
        /// partition name, as the tools' `partition` argument.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        layer: Option<String>,
        /// The absolute path inside the evidence, `/`-separated.
        path: String,
    },
    /// One hit of a logged `search_index` call (`inv-000014#hit3`: the third hit line of that
    /// invocation's output, which holds its source, layer, path, offset and context).
    SearchHit {
        /// The search's invocation.
        invocation_id: String,
        /// The hit's position among the output's hit lines, from 1.
        hit: u32,
    },
}

/// What the text forms of targets are, for messages.
pub const TARGET_FORMS: &str = "a phenomenon (ph-000012), one of its facts (ph-000012#fact2), \
an entity (ent-000003), an actor (actor-000003, see `masf actors`), a timeline entry \
(ph-000012#time1, the `entry` of `masf timeline --json`), a file (SOURCE[#LAYER]:/path, \
e.g. src-usb:/DCIM/a.jpg) or a search hit (inv-000014#hit3: the third hit of that logged \
`masf search`)";

impl Target {
    /// Reads a target's text form (see [`TARGET_FORMS`]).
    pub fn parse(text: &str) -> Result<Target, String> {
        let text = text.trim();
        let bad = |why: &str| {
            Err(format!(
                "{text:?} is not a target: {why}; a target is {TARGET_FORMS}"
            ))
        };
        if let Some((source, path)) = text.split_once(':') {
            let (source_id, layer) = match source.split_once('#') {
                Some((s, l)) => (s, Some(l)),
                None => (source, None),
            };
            if source_id.is_empty() || layer.is_some_and(str::is_empty) {
                return bad("the source id (or the layer after #) is empty");
            }
            if !path.starts_with('/') {
                return bad("a file's path starts with /");
            }
            return Ok(Target::File {
                source_id: source_id.to_owned(),
                layer: layer.map(str::to_owned),
                path: path.to_owned(),
            });
        }
        if let Some((id, part)) = text.split_once('#') {
            if id.starts_with("inv-") {
                return match part
                    .strip_prefix("hit")
                    .and_then(|n| n.parse::<u32>().ok())
                    .filter(|n| *n > 0)
                {
                    Some(hit) => Ok(Target::SearchHit {
                        invocation_id: id.to_owned(),
                        hit,
                    }),
                    None => bad("after a search's invocation id comes #hitN, N from 1"),
                };
            }
            if !id.starts_with("ph-") {
                return bad("only a phenomenon has facts and time marks (ph-…#fact2, ph-…#time1)");
            }
            let number = |prefix: &str| {
                part.strip_prefix(prefix)
                    .and_then(|n| n.parse::<u32>().ok())
                    .filter(|n| *n > 0)
            };
            return match (number("fact"), number("time")) {
                (Some(fact), _) => Ok(Target::Fact {
                    phenomenon_id: id.to_owned(),
                    fact,
                }),
                (_, Some(mark)) => Ok(Target::TimelineEntry {
                    phenomenon_id: id.to_owned(),
                    mark,
                }),
                _ => bad("after # comes factN or timeN, N from 1"),
            };
        }
        let id = text.to_owned();
        if text.starts_with("ph-") {
            Ok(Target::Phenomenon { id })
        } else if text.starts_with("ent-") {
            Ok(Target::Entity { id })
        } else if text.starts_with("actor-") {
            Ok(Target::Actor { id })
        } else {
            bad("unknown id prefix")
        }
    }

    /// The kind's name (`phenomenon`, `fact`, `entity`, `actor`, `timeline_entry`, `file`).
    pub fn kind(&self) -> &'static str {
        match self {
            Target::Phenomenon { .. } => "phenomenon",
            Target::Fact { .. } => "fact",
            Target::Entity { .. } => "entity",
            Target::Actor { .. } => "actor",
            Target::TimelineEntry { .. } => "timeline_entry",
            Target::File { .. } => "file",
            Target::SearchHit { .. } => "search_hit",
        }
    }

    /// The phenomenon the target is or is part of.
    pub fn phenomenon_id(&self) -> Option<&str> {
        match self {
            Target::Phenomenon { id } => Some(id),
            Target::Fact { phenomenon_id, .. } | Target::TimelineEntry { phenomenon_id, .. } => {
                Some(phenomenon_id)
            }
            _ => None,
        }
    }
}

impl fmt::Display for Target {
    /// The text form [`Target::parse`] reads.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Target::Phenomenon { id } | Target::Entity { id } | Target::Actor { id } => {
                f.write_str(id)
            }
            Target::Fact {
                phenomenon_id,
                fact,
            } => write!(f, "{phenomenon_id}#fact{fact}"),
            Target::TimelineEntry {
                phenomenon_id,
                mark,
            } => write!(f, "{phenomenon_id}#time{mark}"),
            Target::File {
                source_id,
                layer,
                path,
            } => match layer {
                Some(l) => write!(f, "{source_id}#{l}:{path}"),
                None => write!(f, "{source_id}:{path}"),
            },
            Target::SearchHit { invocation_id, hit } => write!(f, "{invocation_id}#hit{hit}"),
        }
    }
}

/// One examiner event on the marks. Every event names the examiner, the time the caller gave
/// and why; each is numbered among the events on the same (target, tag), bookmark or note, so
/// its idempotency key is unique and a repeat is refused by the store.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind")]
pub enum MarkEvent {
    /// A tag put on a target.
    Tagged {
        /// What is tagged.
        target: Target,
        /// The tag.
        tag: String,
        /// The event's number among the (target, tag)'s events, from 1.
        number: u32,
        /// What the target was when it was tagged, in words.
        label: String,
        /// The examiner.
        by: String,
        /// When, as given by the caller (RFC 3339).
        at: String,
        /// Why (may be empty).
        reason: String,
    },
    /// A tag taken off.
    Untagged {
        /// What was tagged.
        target: Target,
        /// The tag.
        tag: String,
        /// The event's number among the (target, tag)'s events.
        number: u32,
        /// The examiner.
        by: String,
        /// When (RFC 3339).
        at: String,
        /// Why (may be empty).
        reason: String,
    },
    /// A target bookmarked.
    Bookmarked {
        /// What is bookmarked.
        target: Target,
        /// The event's number among the target's bookmark events, from 1.
        number: u32,
        /// What the target was, in words.
        label: String,
        /// The examiner.
        by: String,
        /// When (RFC 3339).
        at: String,
        /// Why (may be empty).
        reason: String,
    },
    /// A bookmark taken off.
    Unbookmarked {
        /// What was bookmarked.
        target: Target,
        /// The event's number among the target's bookmark events.
        number: u32,
        /// The examiner.
        by: String,
        /// When (RFC 3339).
        at: String,
        /// Why (may be empty).
        reason: String,
    },
    /// A note written on a target.
    NoteAdded {
        /// `note-000001`, …
        note_id: String,
        /// What it is on.
        target: Target,
        /// What the target was, in words.
        label: String,
        /// The note.
        text: String,
        /// The examiner.
        by: String,
        /// When (RFC 3339).
        at: String,
    },
    /// A note withdrawn (it stays in the log).
    NoteWithdrawn {
        /// The note.
        note_id: String,
        /// The examiner.
        by: String,
        /// When (RFC 3339).
        at: String,
        /// Why (may be empty).
        reason: String,
    },
}

impl MarkEvent {
    /// Every kind name (the store's `kind` column).
    pub const KINDS: [&'static str; 6] = [
        "Tagged",
        "Untagged",
        "Bookmarked",
        "Unbookmarked",
        "NoteAdded",
        "NoteWithdrawn",
    ];

    /// The stable kind name.
    pub fn kind(&self) -> &'static str {
        match self {
            Self::Tagged { .. } => "Tagged",
            Self::Untagged { .. } => "Untagged",
            Self::Bookmarked { .. } => "Bookmarked",
            Self::Unbookmarked { .. } => "Unbookmarked",
            Self::NoteAdded { .. } => "NoteAdded",
            Self::NoteWithdrawn { .. } => "NoteWithdrawn",
        }
    }

    /// The key the store deduplicates on (`examiner/…`).
    pub fn idempotency_key(&self) -> String {
        match self {
            Self::Tagged {
                target,
                tag,
                number,
                ..
            }
            | Self::Untagged {
                target,
                tag,
                number,
                ..
            } => format!("examiner/tag/{}/{number}", tag_digest(target, tag)),
            Self::Bookmarked { target, number, .. } | Self::Unbookmarked { target, number, .. } => {
                format!(
                    "examiner/bookmark/{}/{number}",
                    digest(&Value::String(target.to_string()))
                )
            }
            Self::NoteAdded { note_id, .. } => format!("examiner/note/{note_id}"),
            Self::NoteWithdrawn { note_id, .. } => format!("examiner/note/{note_id}/withdrawn"),
        }
    }

    /// The examiner and the time given.
    pub fn by_at(&self) -> (&str, &str) {
        match self {
            Self::Tagged { by, at, .. }
            | Self::Untagged { by, at, .. }
            | Self::Bookmarked { by, at, .. }
            | Self::Unbookmarked { by, at, .. }
            | Self::NoteAdded { by, at, .. }
            | Self::NoteWithdrawn { by, at, .. } => (by, at),
        }
    }

    /// The event as the JSON payload the store keeps (with its `kind` tag).
    pub fn to_payload(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }

    /// Reads an event back from a stored payload.
    pub fn from_payload(payload: &Value) -> Result<Self, serde_json::Error> {
        Self::deserialize(payload)
    }
}

fn tag_digest(target: &Target, tag: &str) -> String {
    digest(&serde_json::json!([target.to_string(), tag.to_lowercase()]))
}

/// One examiner act: who, when, why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Act {
    /// The examiner.
    pub by: String,
    /// When (RFC 3339).
    pub at: String,
    /// Why (may be empty).
    pub reason: String,
}

/// A note in effect.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Note {
    /// `note-000001`, …
    pub id: String,
    /// The note.
    pub text: String,
    /// The examiner.
    pub by: String,
    /// When (RFC 3339).
    pub at: String,
}

/// Everything in effect on one target.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Marked {
    /// The target.
    pub target: Target,
    /// What it was when first marked, in words.
    pub label: String,
    /// Its tags in effect, by tag, with the act that put each on.
    pub tags: BTreeMap<String, Act>,
    /// Its bookmark, when it is bookmarked.
    pub bookmark: Option<Act>,
    /// Its notes in effect, oldest first.
    pub notes: Vec<Note>,
}

impl Marked {
    /// Whether anything is in effect on it.
    pub fn is_empty(&self) -> bool {
        self.tags.is_empty() && self.bookmark.is_none() && self.notes.is_empty()
    }
}

/// The examiner's marks: the fold of the [`MarkEvent`]s, in log order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Marks {
    targets: BTreeMap<String, Marked>,
    /// (target text, lower-case tag) → events so far and whether the tag is on.
    tag_events: BTreeMap<(String, String), (u32, bool)>,
    /// target text → bookmark events so far.
    bookmark_events: BTreeMap<String, u32>,
    /// note id → (target text, withdrawn).
    notes: BTreeMap<String, (String, bool)>,
    /// Every tag ever used, by lower-case form, in its first spelling.
    spellings: BTreeMap<String, String>,
}

impl Marks {
    /// No marks.
    pub fn new() -> Self {
        Self::default()
    }

    /// Applies one event. An event that does not follow from the ones before (numbered out
    /// of sequence, removing what is not there, a note id in use) changes nothing and says
    /// why: the consistency check reports it.
    pub fn apply(&mut self, event: &MarkEvent) -> Result<(), &'static str> {
        match event {
            MarkEvent::Tagged {
                target,
                tag,
                number,
                by,
                at,
                reason,
                ..
            }
            | MarkEvent::Untagged {
                target,
                tag,
                number,
                by,
                at,
                reason,
            } => {
                let label = match event {
                    MarkEvent::Tagged { label, .. } => Some(label.as_str()),
                    _ => None,
                };
                let on = matches!(event, MarkEvent::Tagged { .. });
                let key = (target.to_string(), tag.to_lowercase());
                let (count, live) = self.tag_events.get(&key).copied().unwrap_or((0, false));
                if *number != count + 1 {
                    return Err("tag event numbered out of sequence");
                }
                if live == on {
                    return Err(if on {
                        "tag already on"
                    } else {
                        "unknown tag: not on the target"
                    });
                }
                self.tag_events.insert(key, (*number, on));
                let spelled = self
                    .spellings
                    .entry(tag.to_lowercase())
                    .or_insert_with(|| tag.clone())
                    .clone();
                let marked = self.entry(target, label);
                if on {
                    marked.tags.insert(
                        spelled,
                        Act {
                            by: by.clone(),
                            at: at.clone(),
                            reason: reason.clone(),
                        },
                    );
                } else {
                    marked.tags.remove(&spelled);
                }
            }
            MarkEvent::Bookmarked {
                target,
                number,
                by,
                at,
                reason,
                ..
            }
            | MarkEvent::Unbookmarked {
                target,
                number,
                by,
                at,
                reason,
            } => {
                let on = matches!(event, MarkEvent::Bookmarked { .. });
                let key = target.to_string();
                let count = self.bookmark_events.get(&key).copied().unwrap_or(0);
                if *number != count + 1 {
                    return Err("bookmark event numbered out of sequence");
                }
                let live = self.targets.get(&key).is_some_and(|m| m.bookmark.is_some());
                if live == on {
                    return Err(if on {
                        "already bookmarked"
                    } else {
                        "unknown bookmark: the target is not bookmarked"
                    });
                }
                self.bookmark_events.insert(key, *number);
                let label = match event {
                    MarkEvent::Bookmarked { label, .. } => Some(label.as_str()),
                    _ => None,
                };
                let marked = self.entry(target, label);
                marked.bookmark = on.then(|| Act {
                    by: by.clone(),
                    at: at.clone(),
                    reason: reason.clone(),
                });
            }
            MarkEvent::NoteAdded {
                note_id,
                target,
                label,
                text,
                by,
                at,
            } => {
                if self.notes.contains_key(note_id) {
                    return Err("note id in use");
                }
                self.notes
                    .insert(note_id.clone(), (target.to_string(), false));
                self.entry(target, Some(label)).notes.push(Note {
                    id: note_id.clone(),
                    text: text.clone(),
                    by: by.clone(),
                    at: at.clone(),
                });
            }
            MarkEvent::NoteWithdrawn { note_id, .. } => {
                let Some((target, withdrawn)) = self.notes.get_mut(note_id) else {
                    return Err("unknown note");
                };
                if *withdrawn {
                    return Err("note already withdrawn");
                }
                *withdrawn = true;
                if let Some(m) = self.targets.get_mut(target.as_str()) {
                    m.notes.retain(|n| &n.id != note_id);
                }
            }
        }
        Ok(())
    }

    fn entry(&mut self, target: &Target, label: Option<&str>) -> &mut Marked {
        let marked = self
            .targets
            .entry(target.to_string())
            .or_insert_with(|| Marked {
                target: target.clone(),
                label: String::new(),
                tags: BTreeMap::new(),
                bookmark: None,
                notes: Vec::new(),
            });
        if marked.label.is_empty()
            && let Some(l) = label
        {
            marked.label = l.to_owned();
        }
        marked
    }

    /// Every target with something in effect, in target-text order.
    pub fn items(&self) -> impl Iterator<Item = &Marked> {
        self.targets.values().filter(|m| !m.is_empty())
    }

    /// What is in effect on `target`, if anything.
    pub fn get(&self, target: &Target) -> Option<&Marked> {
        self.targets
            .get(&target.to_string())
            .filter(|m| !m.is_empty())
    }

    /// The tag names to offer: the defaults, then every other tag used, in first spelling.
    pub fn tag_names(&self) -> Vec<String> {
        let mut names: Vec<String> = DEFAULT_TAGS.iter().map(|t| (*t).to_owned()).collect();
        for spelled in self.spellings.values() {
            if !names.iter().any(|n| n.eq_ignore_ascii_case(spelled)) {
                names.push(spelled.clone());
            }
        }
        names
    }

    /// `tag` in the spelling already in use (a default, or its first use), else trimmed with
    /// its white space collapsed.
    pub fn spelling(&self, tag: &str) -> String {
        let tag = tag.split_whitespace().collect::<Vec<_>>().join(" ");
        DEFAULT_TAGS
            .iter()
            .find(|d| d.to_lowercase() == tag.to_lowercase())
            .map(|d| (*d).to_owned())
            .or_else(|| self.spellings.get(&tag.to_lowercase()).cloned())
            .unwrap_or(tag)
    }

    /// Whether `target` (or, for a fact or timeline entry, its phenomenon) carries `tag`.
    pub fn has_tag(&self, target: &Target, tag: &str) -> bool {
        let tag = self.spelling(tag);
        self.get(target).is_some_and(|m| m.tags.contains_key(&tag))
    }

    fn next_note_id(&self) -> String {
        format!("note-{:06}", self.notes.len() + 1)
    }
}

/// What an examiner asks.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "act", rename_all = "snake_case")]
pub enum MarkRequest {
    /// Put a tag on a target.
    Tag {
        /// The target.
        target: Target,
        /// The tag (free text; [`DEFAULT_TAGS`] first).
        tag: String,
    },
    /// Take a tag off.
    Untag {
        /// The target.
        target: Target,
        /// The tag.
        tag: String,
    },
    /// Bookmark a target.
    Bookmark {
        /// The target.
        target: Target,
    },
    /// Take a bookmark off.
    Unbookmark {
        /// The target.
        target: Target,
    },
    /// Write a note on a target.
    Note {
        /// The target.
        target: Target,
        /// The note.
        text: String,
    },
    /// Withdraw a note.
    WithdrawNote {
        /// The note (`note-000001`).
        note_id: String,
    },
}

/// Who asks, when and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Asked<'a> {
    /// The examiner.
    pub by: &'a str,
    /// When (RFC 3339).
    pub at: &'a str,
    /// Why (may be empty).
    pub reason: &'a str,
}

/// What [`judge`] decided.
#[derive(Debug, Clone, PartialEq)]
pub enum Judged {
    /// Write this event.
    Record(MarkEvent),
    /// Already so (tagged with that tag, bookmarked, note withdrawn): nothing to write.
    Unchanged(String),
    /// Refused, with why in words naming the id and what exists.
    Refused(String),
}

/// How a file target is checked: the caller opens the source (the graph does no I/O).
pub trait FileCheck {
    /// Describes the file (`file, 1234 bytes`) when it exists in the source's layer, else
    /// says why not (unknown source, no such layer, no such path).
    fn describe(&self, source_id: &str, layer: Option<&str>, path: &str) -> Result<String, String>;

    /// Describes hit `hit` (from 1) of the logged search `invocation_id` when there is one,
    /// else says why not (no such invocation, not a search, fewer hits).
    fn describe_hit(&self, invocation_id: &str, hit: u32) -> Result<String, String> {
        let _ = hit;
        Err(format!(
            "search hits cannot be checked here ({invocation_id})"
        ))
    }
}

/// Decides what `request` writes on the graph and the marks as folded so far.
pub fn judge(
    state: &GraphState,
    marks: &Marks,
    request: &MarkRequest,
    asked: &Asked<'_>,
    files: &dyn FileCheck,
) -> Judged {
    if asked.by.trim().is_empty() || asked.at.trim().is_empty() {
        return Judged::Refused("the examiner and the time are required".to_owned());
    }
    let act = || {
        (
            asked.by.to_owned(),
            asked.at.to_owned(),
            asked.reason.trim().to_owned(),
        )
    };
    match request {
        MarkRequest::Tag { target, tag } | MarkRequest::Untag { target, tag } => {
            let tag = marks.spelling(tag);
            if tag.is_empty() {
                return Judged::Refused("the tag is empty".to_owned());
            }
            if tag.chars().count() > MAX_TAG_CHARS || tag.chars().any(char::is_control) {
                return Judged::Refused(format!(
                    "a tag is at most {MAX_TAG_CHARS} characters without control characters"
                ));
            }
            let on = matches!(request, MarkRequest::Tag { .. });
            let key = (target.to_string(), tag.to_lowercase());
            let (count, live) = marks.tag_events.get(&key).copied().unwrap_or((0, false));
            let number = count + 1;
            let (by, at, reason) = act();
            if on {
                if live {
                    return Judged::Unchanged(format!("{target} is already tagged {tag:?}"));
                }
                match describe_new(state, target, files) {
                    Ok(label) => Judged::Record(MarkEvent::Tagged {
                        target: target.clone(),
                        tag,
                        number,
                        label,
                        by,
                        at,
                        reason,
                    }),
                    Err(why) => Judged::Refused(why),
                }
            } else if !live {
                let on_it: Vec<&str> = marks
                    .get(target)
                    .map(|m| m.tags.keys().map(String::as_str).collect())
                    .unwrap_or_default();
                Judged::Refused(format!(
                    "{target} is not tagged {tag:?} ({})",
                    if on_it.is_empty() {
                        "it has no tags".to_owned()
                    } else {
                        format!("its tags: {}", on_it.join(", "))
                    }
                ))
            } else {
                Judged::Record(MarkEvent::Untagged {
                    target: target.clone(),
                    tag,
                    number,
                    by,
                    at,
                    reason,
                })
            }
        }
        MarkRequest::Bookmark { target } | MarkRequest::Unbookmark { target } => {
            let on = matches!(request, MarkRequest::Bookmark { .. });
            let live = marks.get(target).is_some_and(|m| m.bookmark.is_some());
            let number = marks
                .bookmark_events
                .get(&target.to_string())
                .copied()
                .unwrap_or(0)
                + 1;
            let (by, at, reason) = act();
            match (on, live) {
                (true, true) => Judged::Unchanged(format!("{target} is already bookmarked")),
                (false, false) => Judged::Refused(format!("{target} is not bookmarked")),
                (true, false) => match describe_new(state, target, files) {
                    Ok(label) => Judged::Record(MarkEvent::Bookmarked {
                        target: target.clone(),
                        number,
                        label,
                        by,
                        at,
                        reason,
                    }),
                    Err(why) => Judged::Refused(why),
                },
                (false, true) => Judged::Record(MarkEvent::Unbookmarked {
                    target: target.clone(),
                    number,
                    by,
                    at,
                    reason,
                }),
            }
        }
        MarkRequest::Note { target, text } => {
            let text = text.trim();
            if text.is_empty() {
                return Judged::Refused("the note is empty".to_owned());
            }
            match describe_new(state, target, files) {
                Ok(label) => Judged::Record(MarkEvent::NoteAdded {
                    note_id: marks.next_note_id(),
                    target: target.clone(),
                    label,
                    text: text.to_owned(),
                    by: asked.by.to_owned(),
                    at: asked.at.to_owned(),
                }),
                Err(why) => Judged::Refused(why),
            }
        }
        MarkRequest::WithdrawNote { note_id } => match marks.notes.get(note_id) {
            None => Judged::Refused(format!(
                "no note has the id {note_id:?} (the case has {} notes; see `masf tags`)",
                marks.notes.len()
            )),
            Some((_, true)) => Judged::Unchanged(format!("{note_id} is already withdrawn")),
            Some((_, false)) => {
                let (by, at, reason) = act();
                Judged::Record(MarkEvent::NoteWithdrawn {
                    note_id: note_id.clone(),
                    by,
                    at,
                    reason,
                })
            }
        },
    }
}

/// The description of a target about to be marked, or why it cannot be.
fn describe_new(
    state: &GraphState,
    target: &Target,
    files: &dyn FileCheck,
) -> Result<String, String> {
    if let Target::File {
        source_id,
        layer,
        path,
    } = target
    {
        return files
            .describe(source_id, layer.as_deref(), path)
            .map_err(|why| format!("cannot mark {target}: {why}"));
    }
    if let Target::SearchHit { invocation_id, hit } = target {
        return files
            .describe_hit(invocation_id, *hit)
            .map_err(|why| format!("cannot mark {target}: {why}"));
    }
    describe(state, target).ok_or_else(|| unknown(state, target))
}

/// Whether `state` still holds what `marked` was put on. Records never change within a graph,
/// so a phenomenon, fact, timeline entry or entity whose description is no longer the one
/// recorded when it was first marked is another record under the same id (a rebuild numbered
/// the graph afresh): the mark is not on it. An actor is held while its id names one (actors
/// regroup as edges are decided); a file always is (evidence does not change).
pub fn holds(state: &GraphState, marked: &Marked) -> bool {
    match &marked.target {
        // Files and logged outputs never change.
        Target::File { .. } | Target::SearchHit { .. } => true,
        Target::Actor { .. } => describe(state, &marked.target).is_some(),
        t => describe(state, t).is_some_and(|now| marked.label.is_empty() || now == marked.label),
    }
}

/// What `target` is on `state`, in words (none when the graph does not hold it; a file is
/// described from its path only).
pub fn describe(state: &GraphState, target: &Target) -> Option<String> {
    let phenomenon = |id: &str| state.phenomena().get(id);
    match target {
        Target::Phenomenon { id } => {
            let p = phenomenon(id)?;
            Some(format!("{} ({}, {})", p.title, p.category, p.source_id))
        }
        Target::Fact {
            phenomenon_id,
            fact,
        } => {
            let p = phenomenon(phenomenon_id)?;
            let f = p
                .verified_facts
                .get(usize::try_from(*fact).ok()?.checked_sub(1)?)?;
            Some(format!(
                "{} {:?} of {} ({})",
                f.fact_type.as_str(),
                f.value,
                p.title,
                p.source_id
            ))
        }
        Target::TimelineEntry {
            phenomenon_id,
            mark,
        } => {
            let p = phenomenon(phenomenon_id)?;
            let m = p.times.get(usize::try_from(*mark).ok()?.checked_sub(1)?)?;
            let raw = p
                .verified_facts
                .get(m.fact)
                .map_or("", |f| f.value.as_str());
            Some(format!(
                "{} {raw} — {} ({})",
                m.description, p.title, p.source_id
            ))
        }
        Target::Entity { id } => {
            let e = state.entities().get(id)?;
            let kind = serde_json::to_value(e.kind)
                .ok()
                .and_then(|v| v.as_str().map(str::to_owned))
                .unwrap_or_default();
            Some(format!(
                "{kind} {:?} ({} {})",
                e.label, e.source_id, e.context
            ))
        }
        Target::Actor { id } => {
            let a = crate::resolution::actors(state)
                .into_iter()
                .find(|a| &a.id == id)?;
            Some(format!(
                "actor {:?}: {} entities in {}",
                a.label,
                a.entities.len(),
                a.sources.join(", ")
            ))
        }
        Target::File {
            source_id,
            layer,
            path,
        } => Some(match layer {
            Some(l) => format!("file {path} in {source_id} ({l})"),
            None => format!("file {path} in {source_id}"),
        }),
        Target::SearchHit { invocation_id, hit } => {
            Some(format!("hit {hit} of the search {invocation_id}"))
        }
    }
}

/// Why a graph target does not exist: the id, and what does.
fn unknown(state: &GraphState, target: &Target) -> String {
    let range = |ids: Vec<&String>, what: &str| match (ids.first(), ids.last()) {
        (Some(first), Some(last)) => format!("the case has {} {what}, {first} … {last}", ids.len()),
        _ => format!("the case has no {what} yet (run it first)"),
    };
    let phenomena = || range(state.phenomena().keys().collect(), "phenomena");
    let why = match target {
        Target::Phenomenon { id } => format!("no phenomenon has the id {id:?} ({})", phenomena()),
        Target::Fact {
            phenomenon_id,
            fact,
        }
        | Target::TimelineEntry {
            phenomenon_id,
            mark: fact,
        } => match state.phenomena().get(phenomenon_id) {
            None => format!(
                "no phenomenon has the id {phenomenon_id:?} ({})",
                phenomena()
            ),
            Some(p) if matches!(target, Target::Fact { .. }) => format!(
                "{phenomenon_id} has no fact {fact}: it has {} facts (#fact1 … #fact{})",
                p.verified_facts.len(),
                p.verified_facts.len()
            ),
            Some(p) => format!(
                "{phenomenon_id} has no time mark {fact}: it has {} ({})",
                p.times.len(),
                if p.times.is_empty() {
                    "it is on no timeline entry".to_owned()
                } else {
                    format!("#time1 … #time{}", p.times.len())
                }
            ),
        },
        Target::Entity { id } => format!(
            "no entity has the id {id:?} ({})",
            range(state.entities().keys().collect(), "entities")
        ),
        Target::Actor { id } => {
            let actors = crate::resolution::actors(state);
            let ids: Vec<&String> = actors.iter().map(|a| &a.id).collect();
            format!(
                "no actor has the id {id:?} ({}; see `masf actors --all`)",
                range(ids, "actors")
            )
        }
        Target::File { .. } => "no such file".to_owned(),
        Target::SearchHit { .. } => "no such search hit".to_owned(),
    };
    format!("cannot mark {target}: {why}. A target is {TARGET_FORMS}")
}
