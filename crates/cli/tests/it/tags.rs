//! The examiner's tags, bookmarks and notes (issue 21) on a real case: made through `masf`,
//! refused with the id and the kinds that exist when the target does not, made while another
//! process runs the case, kept through a `kill -9` of that run, a run again, a `masf rerun`
//! and shown in the report (`--tagged-only` too) and by `masf timeline --tag`.

use std::collections::BTreeSet;
use std::path::Path;

use masf_store::{ActorKind, NewEvent, Store};
use serde_json::Value;

use crate::lease::{assert_consistent, holding_run, refused_by};
use crate::support::{demo_subset, masf, masf_ok, run_case};

fn text(out: &std::process::Output) -> String {
    format!(
        "{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

fn json(args: &[&str]) -> Value {
    serde_json::from_str(&masf_ok(args)).unwrap_or_else(|e| panic!("{args:?}: {e}"))
}

/// `masf tags --json`'s items by target.
fn items(case: &str, w: &str) -> std::collections::BTreeMap<String, Value> {
    json(&["tags", case, "--work", w, "--json"])["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| (i["target"].as_str().unwrap().to_owned(), i.clone()))
        .collect()
}

fn tag_names(item: &Value) -> Vec<&str> {
    item["tags"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["tag"].as_str().unwrap())
        .collect()
}

fn mark_events(work: &Path) -> usize {
    let store = Store::open_read_only(work).unwrap();
    masf_graph::tags::MarkEvent::KINDS
        .iter()
        .map(|k| store.events_of_kind(k).unwrap().len())
        .sum()
}

#[test]
fn marks_survive_kill_9_and_reruns_and_show_in_the_report_and_timeline() {
    let dir = tempfile::tempdir().unwrap();
    let case = demo_subset(dir.path(), &["src-usb", "src-iphone"]);
    let work = dir.path().join("work");
    let w = work.to_str().unwrap();
    run_case(&case, &work, &dir.path().join("out-1"));

    // Targets of every kind, taken from what the case shows.
    let timeline = json(&["timeline", &case, "--work", w, "--json"]);
    let entries = timeline["entries"].as_array().unwrap();
    let entry = entries[0]["entry"].as_str().unwrap().to_owned();
    let other = entries
        .iter()
        .find(|e| e["phenomenon_id"] != entries[0]["phenomenon_id"])
        .expect("entries of two phenomena");
    let phenomenon = other["phenomenon_id"].as_str().unwrap().to_owned();
    assert!(
        entry.starts_with("ph-") && entry.contains("#time"),
        "{entry}"
    );
    let actors = json(&["actors", &case, "--work", w, "--json", "--all"]);
    let actor = actors[0]["id"].as_str().unwrap().to_owned();
    let entity = actors[0]["entities"][0].as_str().unwrap().to_owned();
    let fact = format!("{phenomenon}#fact1");
    let file = "src-usb:/notes.txt";

    masf_ok(&[
        "tag",
        &case,
        "--work",
        w,
        &phenomenon,
        "Suspicious",
        "--reason",
        "sent at night",
    ]);
    masf_ok(&["tag", &case, "--work", w, &entry, "follow up"]);
    masf_ok(&["bookmark", &case, "--work", w, &actor]);
    masf_ok(&["note", &case, "--work", w, file, "the note names a wallet"]);
    masf_ok(&[
        "tag",
        &case,
        "--work",
        w,
        file,
        "Notable",
        "--examiner",
        "A. Other",
    ]);
    masf_ok(&["tag", &case, "--work", w, &fact, "Exculpatory"]);
    let made = mark_events(&work);
    assert_eq!(made, 6);

    // The same tag again records nothing; a tag spelled otherwise is the same tag.
    let again = masf_ok(&["tag", &case, "--work", w, &phenomenon, "suspicious"]);
    assert!(again.contains("nothing recorded"), "{again}");
    assert_eq!(mark_events(&work), made);

    // Targets that do not exist are refused, naming the id and the kinds that exist.
    for (target, says) in [
        ("ph-999999", "no phenomenon has the id \"ph-999999\""),
        (
            &*format!("{phenomenon}#fact99"),
            &*format!("{phenomenon} has no fact 99"),
        ),
        ("ent-999999", "no entity has the id \"ent-999999\""),
        ("actor-999999", "no actor has the id \"actor-999999\""),
        (
            "src-usb:/no/such.txt",
            "/no/such.txt is not in source src-usb",
        ),
        ("src-nope:/a", "no source has the id \"src-nope\""),
        ("hyp-000001", "unknown id prefix"),
    ] {
        let out = masf(&["tag", &case, "--work", w, target, "Notable"]);
        assert_eq!(out.status.code(), Some(1), "{target}: {}", text(&out));
        assert!(text(&out).contains(says), "{target}: {}", text(&out));
        assert!(
            target.contains(':') || text(&out).contains("an entity (ent-000003)"),
            "{target}: the refusal lists the kinds: {}",
            text(&out)
        );
    }
    let out = masf(&["untag", &case, "--work", w, &phenomenon, "Notable"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out).contains(&format!(
            "{phenomenon} is not tagged \"Notable\" (its tags: Suspicious)"
        )),
        "{}",
        text(&out)
    );
    assert_eq!(mark_events(&work), made);

    // Another process runs the case, holding its lease: the examiner marks meanwhile.
    let out_held = dir.path().join("out-held");
    let (mut holder, stream) = holding_run(&case, &work, &out_held);
    refused_by(&case, &work, holder.id());
    masf_ok(&["tag", &case, "--work", w, &entity, "Follow up"]);
    masf_ok(&[
        "untag",
        &case,
        "--work",
        w,
        &fact,
        "Exculpatory",
        "--reason",
        "misread",
    ]);
    holder.kill().unwrap(); // SIGKILL
    holder.wait().unwrap();
    drop(stream);
    assert_eq!(mark_events(&work), made + 2);

    // Run again, and re-run a tool call: nothing of the marks is lost or doubled.
    let out = dir.path().join("out-2");
    run_case(&case, &work, &out);
    masf_ok(&["rerun", &case, "--work", w, "inv-000001"]);
    assert_eq!(mark_events(&work), made + 2);
    assert_consistent(&case, &work, "after marks, a kill -9 and a run again");

    let listed = items(&case, w);
    assert_eq!(
        listed.keys().cloned().collect::<BTreeSet<_>>(),
        [&phenomenon, &entry, &actor, &entity, &file.to_owned()]
            .into_iter()
            .cloned()
            .collect::<BTreeSet<_>>(),
        "{listed:#?}"
    );
    let p = &listed[&phenomenon];
    assert_eq!(tag_names(p), ["Suspicious"]);
    assert_eq!(p["tags"][0]["by"], "J. Doe", "the examiner of case.yaml");
    assert_eq!(p["tags"][0]["reason"], "sent at night");
    assert_eq!(p["kind"], "phenomenon");
    assert_eq!(p["present"], true);
    assert_eq!(tag_names(&listed[&entry]), ["Follow up"]);
    assert_eq!(listed[&entry]["kind"], "timeline_entry");
    assert!(listed[&actor]["bookmark"].is_object());
    let f = &listed[file];
    assert_eq!(f["tags"][0]["by"], "A. Other");
    assert_eq!(f["notes"][0]["text"], "the note names a wallet");
    assert_eq!(f["notes"][0]["id"], "note-000001");
    assert!(
        f["what"].as_str().unwrap().contains("file, 237 bytes"),
        "{f}"
    );
    assert!(
        !listed.contains_key(&fact),
        "untagged while the run held the case"
    );

    // The report written by the run shows every marked item, in words.
    let report: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("report.json")).unwrap()).unwrap();
    let tagged = report["tagged"].as_array().unwrap();
    assert_eq!(tagged.len(), 5, "{tagged:#?}");
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    let html = std::fs::read_to_string(out.join("report.html")).unwrap();
    assert!(md.contains("## Tagged items"), "{md}");
    assert!(md.contains("Suspicious (J. Doe, ") && md.contains(": sent at night)"));
    assert!(md.contains("the note names a wallet — note-000001 (J. Doe"));
    assert!(html.contains("<h2 id=\"tagged-items\">Tagged items</h2>"));
    let title = report["phenomena"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["id"] == phenomenon.as_str())
        .unwrap()["title"]
        .as_str()
        .unwrap()
        .to_owned();
    let row = tagged
        .iter()
        .find(|t| t["target"] == phenomenon.as_str())
        .unwrap();
    assert!(row["what"].as_str().unwrap().starts_with(&title), "{row}");

    // The timeline filtered by a tag: the tagged entry; a tagged phenomenon's entries.
    let follow = json(&[
        "timeline",
        &case,
        "--work",
        w,
        "--json",
        "--tag",
        "Follow up",
    ]);
    let got: Vec<&str> = follow["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["entry"].as_str().unwrap())
        .collect();
    assert!(got.contains(&entry.as_str()), "{got:?}");
    let suspicious = json(&[
        "timeline",
        &case,
        "--work",
        w,
        "--json",
        "--tag",
        "suspicious",
    ]);
    let got = suspicious["entries"].as_array().unwrap();
    assert!(!got.is_empty());
    assert!(
        got.iter()
            .all(|e| e["phenomenon_id"] == phenomenon.as_str())
    );
    let out = masf(&["timeline", &case, "--work", w, "--tag", "Nothing"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out).contains("nothing is tagged \"Nothing\""),
        "{}",
        text(&out)
    );

    // The report restricted to tagged items and what they cite.
    let only = dir.path().join("out-only");
    masf_ok(&[
        "report",
        &case,
        "--work",
        w,
        "--out",
        only.to_str().unwrap(),
        "--tagged-only",
    ]);
    let r: Value =
        serde_json::from_str(&std::fs::read_to_string(only.join("report.json")).unwrap()).unwrap();
    assert_eq!(r["generated"]["tagged_only"], true);
    assert_eq!(r["tagged"].as_array().unwrap().len(), 5);
    let phenomena: BTreeSet<&str> = r["phenomena"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["id"].as_str().unwrap())
        .collect();
    assert!(phenomena.contains(phenomenon.as_str()));
    assert!(phenomena.contains(entry.split('#').next().unwrap()));
    assert!(phenomena.len() < report["phenomena"].as_array().unwrap().len());
    let cited: BTreeSet<&str> = r["phenomena"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|p| p["verified_facts"].as_array().unwrap())
        .map(|f| f["invocation_id"].as_str().unwrap())
        .collect();
    let invocations: BTreeSet<&str> = r["invocations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["id"].as_str().unwrap())
        .collect();
    assert_eq!(invocations, cited);
    let kept_actors: Vec<&str> = r["actors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["id"].as_str().unwrap())
        .collect();
    assert_eq!(kept_actors, [actor.as_str()], "the bookmarked actor only");
    assert!(
        r["timeline"]
            .as_array()
            .unwrap()
            .iter()
            .all(|t| phenomena.contains(t["phenomenon_id"].as_str().unwrap()))
    );
}

#[test]
fn a_mark_written_around_masf_is_seen_by_the_consistency_check() {
    let dir = tempfile::tempdir().unwrap();
    let case = demo_subset(dir.path(), &["src-usb"]);
    let work = dir.path().join("work");
    let w = work.to_str().unwrap();
    run_case(&case, &work, &dir.path().join("out"));
    masf_ok(&["tag", &case, "--work", w, "src-usb:/notes.txt", "Notable"]);
    let tagged = Store::open_read_only(&work)
        .unwrap()
        .events_of_kind("Tagged")
        .unwrap()
        .remove(0);
    assert!(tagged.causation_seq.is_some(), "a mark names its graph");
    let status = masf(&["status", &case, "--work", w]);
    assert!(status.status.success(), "{}", text(&status));

    // Appended through the store, triggers and chain intact: an untag numbered out of sequence,
    // and a tag naming no graph it was made on.
    let forged = |kind: &str, payload: Value, causation_seq, key: &str| NewEvent {
        kind: kind.to_owned(),
        payload,
        actor_kind: ActorKind::Examiner,
        actor_id: "someone".to_owned(),
        idempotency_key: key.to_owned(),
        causation_seq,
        ts: tagged.ts,
        versions: tagged.versions.clone(),
    };
    let mut untag = tagged.payload.clone();
    untag["kind"] = Value::from("Untagged");
    untag["number"] = Value::from(5);
    untag.as_object_mut().unwrap().remove("label");
    let mut other = tagged.payload.clone();
    other["tag"] = Value::from("Suspicious");
    let mut store = Store::open(&work).unwrap();
    let out_of_sequence = store
        .append(&forged("Untagged", untag, tagged.causation_seq, "forged-1"))
        .unwrap()
        .seq;
    let no_cause = store
        .append(&forged("Tagged", other, None, "forged-2"))
        .unwrap()
        .seq;
    drop(store);
    let status = masf(&["status", &case, "--work", w]);
    assert_eq!(status.status.code(), Some(1), "{}", text(&status));
    for says in [
        format!("event {out_of_sequence}: Untagged on src-usb:/notes.txt tag \"Notable\""),
        format!("event {no_cause}: Tagged names no event it was decided on"),
    ] {
        assert!(text(&status).contains(&says), "{says}:\n{}", text(&status));
    }
}
