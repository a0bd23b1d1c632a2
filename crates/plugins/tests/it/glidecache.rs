//! Glide's image disk caches (`android::glidecache`) on two Android phones and a third tree,
//! written by `tests/fixtures/glidecache/glidecache.py` (real JPEG, PNG, WebP and GIF images from
//! ImageMagick's `convert` as `<key>.0` files, and DiskLruCache journals, in the
//! `cache/image_manager_disk_cache/` folders ALEAPP's imagemngCache lists). The generator's record
//! is the oracle: every folder with its package, journal and header; every cached file with its
//! path, key, size, modified time, format marker and journal lines; every journal entry whose
//! file is gone; phone B's shared-storage cache read from `journal.bkp`, with an entry still being
//! written; phone C's cut journal, foreign journal and cut image noted while their folders'
//! images are listed, and other apps' DiskLruCache files neither read nor noted.

use crate::android_support::{generate, has_fact, time_values, titled, triage};

fn s(v: &serde_json::Value) -> String {
    v.as_str().unwrap().to_string()
}

#[test]
fn glide_image_caches_on_two_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/glidecache/glidecache.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b, c) = (
        tmp.path().join("a"),
        tmp.path().join("b"),
        tmp.path().join("c"),
    );
    let run = triage(&[
        ("a", &a, "Europe/London", Some("GB")),
        ("b", &b, "Europe/Dublin", Some("IE")),
        ("c", &c, "Europe/Lisbon", Some("PT")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());

    for source in ["a", "b", "c"] {
        let all = run.all_phenomena(source);
        let folders = o[source]["folders"].as_array().unwrap();
        let found = all
            .iter()
            .filter(|p| p.title.starts_with("Glide image cache of "))
            .count();
        assert_eq!(found, folders.len(), "{source}");
        let (mut n_files, mut n_gone) = (0, 0);
        for fo in folders {
            let pkg = s(&fo["package"]);
            let p = titled(&all, &format!("Glide image cache of {pkg}"));
            assert_eq!(p.category, "media");
            assert!(has_fact(p, &s(&fo["dir"])), "{p:#?}");
            let foreign = source == "c" && fo["journal"] == o["c"]["foreign_journal"];
            if !foreign {
                assert!(has_fact(p, &s(&fo["journal"])), "{p:#?}");
                assert!(has_fact(p, &s(&fo["app_version"])), "{p:#?}");
                assert_eq!(time_values(p), vec![s(&fo["journal_modified"])], "{p:#?}");
            }
            for f in fo["files"].as_array().unwrap() {
                n_files += 1;
                let p = titled(
                    &all,
                    &format!("Glide cached image {} ({pkg})", s(&f["name"])),
                );
                assert_eq!(p.category, "media");
                for k in ["path", "key", "size", "marker"] {
                    assert!(has_fact(p, &s(&f[k])), "{source} {k}: {p:#?}");
                }
                for line in f["lines"].as_array().unwrap() {
                    assert!(has_fact(p, &s(line)), "{source} {line}: {p:#?}");
                }
                assert_eq!(time_values(p), vec![s(&f["modified"])], "{p:#?}");
            }
            for g in fo["gone"].as_array().unwrap() {
                n_gone += 1;
                let p = titled(
                    &all,
                    &format!("Glide cache entry {} without a file ({pkg})", s(&g["key"])),
                );
                for line in g["lines"].as_array().unwrap() {
                    assert!(has_fact(p, &s(line)), "{line}: {p:#?}");
                }
                assert!(p.interpretation.contains("REMOVE"), "{p:#?}");
            }
        }
        assert_eq!(
            all.iter()
                .filter(|p| p.title.starts_with("Glide cached image "))
                .count(),
            n_files,
            "{source}"
        );
        assert_eq!(
            all.iter()
                .filter(|p| p.title.starts_with("Glide cache entry "))
                .count(),
            n_gone,
            "{source}"
        );
    }
    // phone A's images are read again: the READ lines are facts, counted in the interpretation
    assert!(
        run.all_phenomena("a")
            .iter()
            .any(|p| p.interpretation.contains("read again 3 times"))
    );
    for source in ["a", "b"] {
        assert!(
            !run.unparsed(source)
                .iter()
                .any(|u| u.artefact.contains("image_manager_disk_cache")),
            "{source}: {:#?}",
            run.unparsed(source)
        );
    }

    // C: the cut journal, the foreign journal and the cut image noted; other apps' files not
    run.assert_noted(
        "c",
        &[
            (&s(&o["c"]["cut_journal"]), "cut"),
            (&s(&o["c"]["foreign_journal"]), "not a DiskLruCache journal"),
            (&s(&o["c"]["cut_image"]), "CLEAN line counts"),
        ],
    );
    let notes = run.unparsed("c");
    for other in o["c"]["others"].as_array().unwrap().iter().map(s) {
        assert!(
            !notes.iter().any(|u| u.artefact.ends_with(&other)),
            "{other} noted: {notes:#?}"
        );
    }
    let key = s(&o["c"]["other_key"]);
    assert!(
        !run.all_phenomena("c")
            .iter()
            .any(|p| p.title.starts_with("Glide") && p.title.contains(&key)),
        "another app's folder read"
    );
    for (tool, args, _) in run.outputs("c") {
        assert!(
            !(matches!(tool.as_str(), "hexdump" | "read_text")
                && args.contains("com.example.okhttp")),
            "{tool} {args}"
        );
    }
}
