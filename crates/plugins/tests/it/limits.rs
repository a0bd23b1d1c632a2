//! The per-artefact time limit (issue 17, part 3): an artefact whose time is up is noted with
//! the reason at its next tool call and the triage goes on with the next artefact, so one
//! artefact never stalls a source. No test waits for a clock: a zero limit is up before the
//! first call, and a limit that cannot be reached must change nothing.

use std::time::Duration;

use crate::android_support::{repo, triage, triage_with_limit};

const LIMIT_WORDS: &str = "per-artefact time limit";

fn sources() -> Vec<(
    &'static str,
    std::path::PathBuf,
    &'static str,
    Option<&'static str>,
)> {
    vec![
        (
            "src-iphone",
            repo("tests/fixtures/demo/evidence/iphone_ffs.zip"),
            "Asia/Hong_Kong",
            Some("HK"),
        ),
        (
            "src-android",
            repo("tests/fixtures/demo/evidence/blk0_sda.bin"),
            "Asia/Hong_Kong",
            Some("HK"),
        ),
    ]
}

#[test]
fn an_artefact_out_of_time_is_noted_and_the_triage_goes_on() {
    let owned = sources();
    let srcs: Vec<_> = owned
        .iter()
        .map(|(id, p, z, r)| (*id, p.as_path(), *z, *r))
        .collect();
    let run = triage_with_limit(&srcs, Some(Duration::ZERO));
    for source in ["src-iphone", "src-android"] {
        let report = run.report(source);
        assert!(
            report.error.is_none() && report.halted.is_none(),
            "{report:?}"
        );
        let limited: Vec<String> = run
            .unparsed(source)
            .into_iter()
            .filter(|u| u.reason.contains(LIMIT_WORDS))
            .map(|u| u.artefact)
            .collect();
        // Every artefact scope that had something to read was stopped, each noted once by
        // name (the iOS plugin's one search of every artefact name runs before any artefact's
        // time: a scope whose files are not there, as WhatsApp's on this phone, calls nothing).
        let wanted: &[&str] = if source == "src-iphone" {
            &[
                "AddressBook.sqlitedb",
                "sms.db",
                "Accounts3.sqlite",
                "device and keychain plists",
            ]
        } else {
            &["mmssms.db", "contacts2.db", "calllog.db", "build.prop"]
        };
        for w in wanted {
            assert!(
                limited
                    .iter()
                    .any(|a| a == w || a.ends_with(&format!("/{w}"))),
                "{source}: {w} not noted as stopped; noted: {limited:?}"
            );
        }
        // Nothing was read from a stopped artefact: no message of the source was recorded.
        let messages = run
            .phenomena(source)
            .into_iter()
            .filter(|p| p.starts_with("messages |"))
            .count();
        assert_eq!(messages, 0, "{source}");
    }
    // The triage still ran to its end on both sources.
    let finished: Vec<String> = run
        .session
        .triages_finished()
        .unwrap()
        .into_iter()
        .map(|t| format!("{} {}", t.source_id, t.plugin))
        .collect();
    assert!(
        finished.contains(&"src-iphone ios".to_string()),
        "{finished:?}"
    );
    assert!(
        finished.contains(&"src-android android".to_string()),
        "{finished:?}"
    );
}

#[test]
fn a_limit_that_is_never_reached_changes_nothing() {
    let owned = sources();
    let srcs: Vec<_> = owned
        .iter()
        .map(|(id, p, z, r)| (*id, p.as_path(), *z, *r))
        .collect();
    let plain = triage(&srcs);
    let limited = triage_with_limit(&srcs, Some(Duration::MAX));
    for source in ["src-iphone", "src-android"] {
        assert_eq!(
            plain.phenomena(source),
            limited.phenomena(source),
            "{source}"
        );
        assert!(
            !limited
                .unparsed(source)
                .iter()
                .any(|u| u.reason.contains(LIMIT_WORDS))
        );
    }
}
