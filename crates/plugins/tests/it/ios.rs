//! The iOS plugin on the demo iPhone, on generated fixtures with the real iOS layouts, on
//! public artefacts (plaso, iLEAPP's test cases against iLEAPP's expected output) and on
//! malformed artefacts.

use crate::ios_support::{Outcome, assert_all_accepted, repo, triage};

fn demo_iphone() -> Outcome {
    triage(&repo().join("tests/fixtures/demo/evidence/iphone_ffs.zip"), "Asia/Hong_Kong")
}

#[test]
fn ios_demo_dump() {
    let o = demo_iphone();
    for p in &o.phenomena {
        eprintln!("{} [{}] {} :: {:?} :: {}", p.id, p.category, p.title, Outcome::values(p), p.interpretation);
    }
    for i in o.identities() {
        eprintln!("{i:?}");
    }
    eprintln!("{:?}\n{:?}", o.tally, o.unparsed);
    assert_all_accepted(&o);
}
