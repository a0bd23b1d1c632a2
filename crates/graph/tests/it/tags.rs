//! The examiner's marks, given/when/then over events: what `judge` writes on a graph and the
//! marks so far, what it refuses, and what the fold keeps.

use masf_graph::tags::{
    Asked, FileCheck, Judged, MarkEvent, MarkRequest, Marks, Target, describe, judge,
};
use masf_graph::{GraphState, Scoring};

use crate::support::phenomenon_event;

/// Files: only `/a.txt` of `src-a` exists.
struct OneFile;

impl FileCheck for OneFile {
    fn describe(&self, source: &str, layer: Option<&str>, path: &str) -> Result<String, String> {
        match (source, layer, path) {
            ("src-a", None, "/a.txt") => Ok("/a.txt: file, 3 bytes".into()),
            _ => Err(format!("{path} is not in {source}")),
        }
    }
}

fn graph() -> GraphState {
    let mut state = GraphState::new(Scoring::default());
    state.apply(&phenomenon_event("ph-000001", "src-a"));
    state.apply(&phenomenon_event("ph-000002", "src-a"));
    state
}

const ASKED: Asked<'static> = Asked {
    by: "J. Doe",
    at: "2025-03-01T10:00:00Z",
    reason: "  why  ",
};

/// Judges `request` and applies what it writes; returns the verdict.
fn act(state: &GraphState, marks: &mut Marks, request: MarkRequest) -> Judged {
    let judged = judge(state, marks, &request, &ASKED, &OneFile);
    if let Judged::Record(event) = &judged {
        // Every event survives its payload round trip and applies.
        let back = MarkEvent::from_payload(&event.to_payload()).unwrap();
        assert_eq!(&back, event);
        marks.apply(&back).unwrap();
    }
    judged
}

fn tag(target: &str, tag: &str) -> MarkRequest {
    MarkRequest::Tag {
        target: Target::parse(target).unwrap(),
        tag: tag.into(),
    }
}

fn untag(target: &str, tag: &str) -> MarkRequest {
    MarkRequest::Untag {
        target: Target::parse(target).unwrap(),
        tag: tag.into(),
    }
}

#[test]
fn targets_read_and_print_the_same() {
    for text in [
        "ph-000001",
        "ph-000001#fact2",
        "ph-000001#time1",
        "ent-000003",
        "actor-000003",
        "src-a:/a.txt",
        "src-a#userdata:/data/x:y",
        "inv-000014#hit3",
    ] {
        assert_eq!(Target::parse(text).unwrap().to_string(), text);
    }
    for bad in [
        "",
        "hyp-000001",
        "ph-000001#fact0",
        "ent-1#fact1",
        "src-a:rel",
        ":/a",
        "inv-000014#hit0",
        "inv-000014#fact1",
    ] {
        let err = Target::parse(bad).unwrap_err();
        assert!(
            err.contains("a target is a phenomenon (ph-000012)"),
            "{bad}: {err}"
        );
    }
    // A target's JSON is tagged by kind, so another kind can be added beside these.
    assert_eq!(
        serde_json::to_value(Target::parse("src-a:/a.txt").unwrap()).unwrap(),
        serde_json::json!({"kind": "file", "source_id": "src-a", "path": "/a.txt"})
    );
    assert_eq!(
        serde_json::to_value(Target::parse("inv-000014#hit3").unwrap()).unwrap(),
        serde_json::json!({"kind": "search_hit", "invocation_id": "inv-000014", "hit": 3})
    );
}

#[test]
fn a_tag_is_numbered_among_its_events_and_undone_only_by_a_later_one() {
    let state = graph();
    let mut marks = Marks::new();
    let Judged::Record(first) = act(&state, &mut marks, tag("ph-000001", "suspicious")) else {
        panic!("recorded");
    };
    // The default's spelling, the reason trimmed, what the target is in words.
    let MarkEvent::Tagged {
        tag: t,
        number,
        reason,
        label,
        ..
    } = &first
    else {
        panic!("{first:?}")
    };
    assert_eq!(
        (t.as_str(), *number, reason.as_str()),
        ("Suspicious", 1, "why")
    );
    assert_eq!(label, "phenomenon ph-000001 (messages, src-a)");
    assert!(matches!(
        act(&state, &mut marks, tag("ph-000001", "SUSPICIOUS")),
        Judged::Unchanged(_)
    ));
    let Judged::Record(second) = act(&state, &mut marks, untag("ph-000001", "Suspicious")) else {
        panic!("recorded");
    };
    let Judged::Record(third) = act(&state, &mut marks, tag("ph-000001", "Suspicious")) else {
        panic!("recorded");
    };
    let keys: Vec<String> = [&first, &second, &third]
        .iter()
        .map(|e| e.idempotency_key())
        .collect();
    assert!(keys[0].ends_with("/1") && keys[1].ends_with("/2") && keys[2].ends_with("/3"));
    assert!(keys[0].starts_with("examiner/tag/"));
    assert!(marks.has_tag(&Target::parse("ph-000001").unwrap(), "suspicious"));
    // A replayed event (a second writer's, or the log edited) changes nothing.
    let mut replayed = marks.clone();
    assert_eq!(
        replayed.apply(&second),
        Err("tag event numbered out of sequence")
    );
    assert_eq!(replayed, marks);
}

#[test]
fn what_does_not_exist_is_refused_naming_the_id_and_what_exists() {
    let state = graph();
    let mut marks = Marks::new();
    for (target, says) in [
        (
            "ph-000009",
            "no phenomenon has the id \"ph-000009\" (the case has 2 phenomena, ph-000001 … ph-000002)",
        ),
        (
            "ph-000001#fact2",
            "ph-000001 has no fact 2: it has 1 facts (#fact1 … #fact1)",
        ),
        (
            "ph-000001#time1",
            "ph-000001 has no time mark 1: it has 0 (it is on no timeline entry)",
        ),
        (
            "ent-000001",
            "no entity has the id \"ent-000001\" (the case has no entities yet",
        ),
        ("actor-000001", "no actor has the id \"actor-000001\""),
        ("src-a:/b.txt", "/b.txt is not in src-a"),
    ] {
        let Judged::Refused(why) = act(&state, &mut marks, tag(target, "Notable")) else {
            panic!("{target} accepted");
        };
        assert!(why.contains(says), "{target}: {why}");
    }
    let Judged::Refused(why) = act(&state, &mut marks, untag("ph-000001", "Notable")) else {
        panic!("untag of what is not on");
    };
    assert_eq!(why, "ph-000001 is not tagged \"Notable\" (it has no tags)");
    assert_eq!(marks.items().count(), 0);
    assert!(matches!(
        act(&state, &mut marks, tag("ph-000001", "  ")),
        Judged::Refused(_)
    ));
}

#[test]
fn bookmarks_and_notes_fold_to_what_is_in_effect() {
    let state = graph();
    let mut marks = Marks::new();
    let file = Target::parse("src-a:/a.txt").unwrap();
    act(
        &state,
        &mut marks,
        MarkRequest::Bookmark {
            target: file.clone(),
        },
    );
    let note = |text: &str| MarkRequest::Note {
        target: file.clone(),
        text: text.into(),
    };
    act(&state, &mut marks, note("first"));
    act(&state, &mut marks, note("second"));
    act(
        &state,
        &mut marks,
        MarkRequest::WithdrawNote {
            note_id: "note-000001".into(),
        },
    );
    let m = marks.get(&file).unwrap();
    assert_eq!(m.label, "/a.txt: file, 3 bytes");
    assert!(m.bookmark.is_some());
    let notes: Vec<(&str, &str)> = m
        .notes
        .iter()
        .map(|n| (n.id.as_str(), n.text.as_str()))
        .collect();
    assert_eq!(notes, [("note-000002", "second")]);
    assert!(matches!(
        act(
            &state,
            &mut marks,
            MarkRequest::WithdrawNote {
                note_id: "note-000001".into()
            }
        ),
        Judged::Unchanged(_)
    ));
    act(
        &state,
        &mut marks,
        MarkRequest::Unbookmark {
            target: file.clone(),
        },
    );
    assert!(matches!(
        act(
            &state,
            &mut marks,
            MarkRequest::Unbookmark {
                target: file.clone()
            }
        ),
        Judged::Refused(_)
    ));
    // A file's description does not need the graph; a graph record's does.
    assert!(describe(&state, &file).is_some());
    assert!(
        describe(
            &GraphState::new(Scoring::default()),
            &Target::parse("ph-000001").unwrap()
        )
        .is_none()
    );
    assert_eq!(
        marks.tag_names(),
        ["Notable", "Suspicious", "Follow up", "Exculpatory"]
    );
}

#[test]
fn a_mark_is_not_on_another_record_that_took_its_id() {
    let state = graph();
    let mut marks = Marks::new();
    act(&state, &mut marks, tag("ph-000001", "Notable"));
    let target = Target::parse("ph-000001").unwrap();
    assert!(masf_graph::tags::holds(&state, marks.get(&target).unwrap()));
    // A rebuilt graph where ph-000001 names another phenomenon.
    let mut rebuilt = GraphState::new(Scoring::default());
    rebuilt.apply(&phenomenon_event("ph-000002", "src-b"));
    rebuilt.apply(&phenomenon_event("ph-000001", "src-b"));
    assert!(describe(&rebuilt, &target).is_some());
    assert!(!masf_graph::tags::holds(
        &rebuilt,
        marks.get(&target).unwrap()
    ));
    assert!(!masf_graph::tags::holds(
        &GraphState::new(Scoring::default()),
        marks.get(&target).unwrap()
    ));
}
