//! The archive plugin.

use crate::android_support::{repo, triage};

#[test]
fn show() {
    let a = repo("tests/fixtures/android/android_small.img");
    let z = repo("tests/fixtures/android/android_tree.zip");
    let run = triage(&[("a", &a, "Asia/Hong_Kong"), ("z", &z, "Asia/Hong_Kong")]);
    for s in ["a", "z"] {
        println!("== {s} {:?}", run.report(s).tally);
        for p in run.phenomena(s) {
            println!("P {p}");
        }
        for e in run.entities(s) {
            println!("E {e}");
        }
        for u in run.unparsed(s) {
            println!("U {} : {}", u.artefact, u.reason);
        }
        for p in run.all_phenomena(s) {
            if !p.warnings.is_empty() {
                println!("W {} {:?}", p.title, p.warnings);
            }
        }
    }
    for r in run.rejections() {
        println!("R {r}");
    }
    panic!();
}
