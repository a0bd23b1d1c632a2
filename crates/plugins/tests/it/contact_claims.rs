//! Contact claims on real bytes (issue 16, part 4): a phone number or e-mail address a person
//! writes as their own in a message ("my new number is …") joins the phone's entity of
//! whoever holds it as their own on another device; a number written as someone else's ("my
//! brother's is …") joins nobody. Two Android phones whose `mmssms.db` are built at test time
//! by the sqlite3 CLI from the schema of plaso's real one (rows invented), triaged in one
//! session and resolved.

use std::path::Path;

use masf_graph::resolution;

use crate::android_support::triage;
use crate::who::resolve;

/// An `mmssms.db` with the schema of plaso's (`.schema --nosys`) and `rows` (SQL), in a folder
/// of its own below `root`.
fn phone(root: &Path, name: &str, rows: &str) -> std::path::PathBuf {
    let schema = std::process::Command::new("sqlite3")
        .arg("-readonly")
        .arg(masf_testkit::corpus::path("android/plaso-mmssms.db"))
        .arg(".schema --nosys")
        .output()
        .unwrap();
    assert!(schema.status.success());
    let dir = root
        .join(name)
        .join("data/com.android.providers.telephony/databases");
    std::fs::create_dir_all(&dir).unwrap();
    let out = std::process::Command::new("sqlite3")
        .arg(dir.join("mmssms.db"))
        .arg(format!(
            "{}\n{rows}",
            String::from_utf8_lossy(&schema.stdout)
        ))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    root.join(name)
}

#[test]
fn a_number_texted_as_my_new_number_joins_its_holder_on_another_phone() {
    let tmp = tempfile::tempdir().unwrap();
    // Phone A: PAT texts from their old number that the new one is 6222 3333, and names their
    // brother's; A's user answers with their own e-mail address.
    let a = phone(
        tmp.path(),
        "phone-a",
        "INSERT INTO sms (thread_id, address, date, type, read, body) VALUES
           (1, '+852 9111 0000', 1764000000000, 1, 1, 'Hi, my new number is 6222 3333. My brother''s number is 6333 4444.'),
           (1, '+852 9111 0000', 1764000060000, 2, 1, 'Noted. Email me at owner.a@example.org');",
    );
    // Phone B: texts from the new number and from the brother's, nothing else about them.
    let b = phone(
        tmp.path(),
        "phone-b",
        "INSERT INTO sms (thread_id, address, date, type, read, body) VALUES
           (1, '62223333', 1764100000000, 1, 1, 'See you at 8'),
           (2, '63334444', 1764100060000, 1, 1, 'Who is this?');",
    );
    let run = triage(&[
        ("phone-a", a.as_path(), "Asia/Hong_Kong", Some("HK")),
        ("phone-b", b.as_path(), "Asia/Hong_Kong", Some("HK")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    resolve(&run);
    let state = run.session.state().expect("state");
    let entity = |source: &str, context: &str| {
        state
            .entities()
            .values()
            .find(|e| e.source_id == source && e.context == context)
            .unwrap_or_else(|| panic!("{source}/{context}: {:#?}", run.entities(source)))
            .clone()
    };

    // The claims: the sender's handle claims the new number only; the owner claims the e-mail.
    let pat = entity("phone-a", "handle:+85291110000");
    let claims: Vec<(String, String, Option<String>)> = pat
        .identifiers
        .iter()
        .filter(|i| i.is_claim())
        .map(|i| (i.id_type.to_string(), i.normalized.clone(), i.cue.clone()))
        .collect();
    assert_eq!(
        claims,
        [("phone".into(), "+85262223333".into(), Some("my".into()))]
    );
    let owner = entity("phone-a", "owner");
    assert!(
        owner
            .identifiers
            .iter()
            .any(|i| i.is_claim() && i.normalized == "owner.a@example.org"),
        "{owner:#?}"
    );
    // The claim's phenomenon cites the message and says whose words they are.
    let claim = pat.identifiers.iter().find(|i| i.is_claim()).unwrap();
    let ph = &state.phenomena()[&claim.phenomenon_id];
    assert!(
        ph.interpretation.contains("names it as their own")
            && ph.verified_facts.iter().any(|f| f.value == "6222 3333"),
        "{ph:#?}"
    );

    // Resolution: PAT's old-number handle on A and the new-number handle on B are one actor,
    // joined by one direct_evidence edge from the claim; the brother's number joins nobody.
    let actors = resolution::actors(&state);
    let actor = |id: &str| actors.iter().find(|a| a.entities.iter().any(|e| e == id));
    let new = entity("phone-b", "handle:+85262223333");
    let brother = entity("phone-b", "handle:+85263334444");
    assert_eq!(actor(&pat.id).map(|a| &a.id), actor(&new.id).map(|a| &a.id));
    assert_eq!(
        actor(&brother.id).unwrap().entities,
        std::slice::from_ref(&brother.id)
    );
    // The actor lists the number with the entity that wrote it as theirs.
    let listed = actor(&pat.id)
        .unwrap()
        .identifiers
        .iter()
        .find(|i| i.normalized == "+85262223333")
        .unwrap();
    assert_eq!(listed.claimed_by, std::slice::from_ref(&pat.id));
    assert!(listed.entities.contains(&new.id));
    let h = &state.hypotheses()[&state.coreference_hypotheses(&pat.id, &new.id)[0]];
    assert_eq!(h.edges.len(), 1);
    assert_eq!(h.edges[0].phenomenon_id, claim.phenomenon_id);
    assert_eq!(h.status, masf_graph::Status::Supported);
}

/// Account-id claims and a forwarded quote on real bytes (issue 16): PAT texts B from the old
/// number "my new number is 6222 3333. Add me on WeChat: pat_wong88" (seen sent on PAT's
/// phone and received on B's), and tells D the number too; B forwards "my new number is
/// 6222 3333" to C. B's phone holds B's claim and PAT's: rivals, so the number is contested.
/// PAT's claims (two handles of one number) outweigh B's (B's phone) and B-as-seen-by-C's:
/// PAT joins the new number's handle, B joins nobody through it; the WeChat ID, claimed by
/// PAT's phone and PAT's handle alone, ties PAT's old phone to PAT. A friend's WeChat ID is
/// no claim.
#[test]
fn an_account_id_claim_ties_its_writer_and_a_forwarded_number_joins_no_two_people() {
    let tmp = tempfile::tempdir().unwrap();
    let said = "Hi, my new number is 6222 3333. Add me on WeChat: pat_wong88";
    let forward = "FYI from Pat: my new number is 6222 3333";
    let pat = phone(
        tmp.path(),
        "phone-pat",
        &format!(
            "INSERT INTO sms (thread_id, address, date, type, read, body) VALUES
               (1, '+852 9333 0000', 1764000000000, 2, 1, '{said}');"
        ),
    );
    let b = phone(
        tmp.path(),
        "phone-b",
        &format!(
            "INSERT INTO sms (thread_id, address, date, type, read, body) VALUES
               (1, '+852 9111 0000', 1764000000500, 1, 1, '{said}'),
               (1, '+852 9111 0000', 1764000001000, 1, 1, 'And my friend''s WeChat is lee_friend1'),
               (2, '+852 9444 0000', 1764000100000, 2, 1, '{forward}');"
        ),
    );
    let c = phone(
        tmp.path(),
        "phone-c",
        &format!(
            "INSERT INTO sms (thread_id, address, date, type, read, body) VALUES
               (1, '+852 9333 0000', 1764000100500, 1, 1, '{forward}');"
        ),
    );
    let d = phone(
        tmp.path(),
        "phone-d",
        "INSERT INTO sms (thread_id, address, date, type, read, body) VALUES
           (1, '+852 9111 0000', 1764000200000, 1, 1, 'my new number is 6222 3333');",
    );
    let new = phone(
        tmp.path(),
        "phone-new",
        "INSERT INTO sms (thread_id, address, date, type, read, body) VALUES
           (1, '62223333', 1764100000000, 1, 1, 'See you at 8');",
    );
    let run = triage(&[
        ("phone-pat", pat.as_path(), "Asia/Hong_Kong", Some("HK")),
        ("phone-b", b.as_path(), "Asia/Hong_Kong", Some("HK")),
        ("phone-c", c.as_path(), "Asia/Hong_Kong", Some("HK")),
        ("phone-d", d.as_path(), "Asia/Hong_Kong", Some("HK")),
        ("phone-new", new.as_path(), "Asia/Hong_Kong", Some("HK")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    resolve(&run);
    let state = run.session.state().expect("state");
    let entity = |source: &str, context: &str| {
        state
            .entities()
            .values()
            .find(|e| e.source_id == source && e.context == context)
            .unwrap_or_else(|| panic!("{source}/{context}: {:#?}", run.entities(source)))
            .clone()
    };
    let claims = |e: &masf_graph::Entity| -> Vec<(String, String, Option<String>)> {
        let mut v: Vec<_> = e
            .identifiers
            .iter()
            .filter(|i| i.is_claim())
            .map(|i| (i.id_type.to_string(), i.normalized.clone(), i.cue.clone()))
            .collect();
        v.sort();
        v
    };

    // The claims, with their cues; the friend's WeChat ID is nobody's claim.
    let pat_owner = entity("phone-pat", "owner");
    let pat_on_b = entity("phone-b", "handle:+85291110000");
    for e in [&pat_owner, &pat_on_b] {
        assert_eq!(
            claims(e),
            [
                ("phone".into(), "+85262223333".into(), Some("my".into())),
                (
                    "wechat".into(),
                    "wechat:pat_wong88".into(),
                    Some("me".into())
                ),
            ],
            "{e:#?}"
        );
    }
    assert!(
        state
            .entities()
            .values()
            .flat_map(|e| &e.identifiers)
            .all(|i| !i.normalized.contains("lee_friend1"))
    );
    let b_owner = entity("phone-b", "owner");
    assert_eq!(
        claims(&b_owner),
        [("phone".into(), "+85262223333".into(), Some("my".into()))]
    );
    // The WeChat claim cites the message and names the app.
    let wechat = pat_on_b
        .identifiers
        .iter()
        .find(|i| i.id_type == masf_graph::IdType::Wechat)
        .unwrap();
    let ph = &state.phenomena()[&wechat.phenomenon_id];
    assert!(
        ph.interpretation.contains("WeChat ID pat_wong88")
            && ph.verified_facts.iter().any(|f| f.value == "pat_wong88"),
        "{ph:#?}"
    );

    // Actors: PAT's old phone, PAT's handles on B's and D's phones and the new number's
    // handle are one; B (B's phone, and B's number as C and PAT saw it) is apart.
    let actors = resolution::actors(&state);
    let actor = |e: &masf_graph::Entity| {
        actors
            .iter()
            .find(|a| a.entities.contains(&e.id))
            .unwrap()
            .clone()
    };
    let pat_actor = actor(&pat_on_b);
    for e in [
        &pat_owner,
        &entity("phone-d", "handle:+85291110000"),
        &entity("phone-new", "handle:+85262223333"),
    ] {
        assert!(pat_actor.entities.contains(&e.id), "{e:#?} {pat_actor:#?}");
    }
    for e in [
        &b_owner,
        &entity("phone-c", "handle:+85293330000"),
        &entity("phone-pat", "handle:+85293330000"),
    ] {
        assert!(!pat_actor.entities.contains(&e.id), "{e:#?} {pat_actor:#?}");
    }
    // B's claim on the number is refuted; the WeChat ID is listed with its claimants.
    let h = &state.hypotheses()[state
        .coreference_hypotheses(&b_owner.id, &entity("phone-new", "handle:+85262223333").id)
        .last()
        .unwrap()];
    assert_eq!(h.status, masf_graph::Status::Refuted, "{h:#?}");
    let listed = pat_actor
        .identifiers
        .iter()
        .find(|i| i.normalized == "wechat:pat_wong88")
        .unwrap();
    let mut by = listed.claimed_by.clone();
    by.sort();
    let mut want = vec![pat_owner.id.clone(), pat_on_b.id.clone()];
    want.sort();
    assert_eq!(by, want);
}
