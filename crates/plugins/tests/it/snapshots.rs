//! App snapshots (`ios::snapshots`) at parity with iLEAPP's `applicationSnapshots` on the two
//! iPhones whose recorded results the corpus holds (MVS 2023: 219 images, Belkasoft CTF 6: 99),
//! not their files: each listed image is written by Python at its path (2,600 bytes, the
//! modified time iLEAPP reports), and the tree triaged: every image's app, path and modified
//! time is found. A KTX file below 2,500 bytes is listed and said; a `.ktx` outside a
//! `Snapshots` folder is passed over.

use std::collections::HashMap;

use crate::android_support::triage;

const WRITE: &str = r#"
import json, os, sys, time
root, rows, times = sys.argv[1:4]
out = {}
for (ts, app, path, _) in json.load(open(rows))['data']:
    rel = path[path.index('/private/') + 1:]
    f = os.path.join(root, rel)
    os.makedirs(os.path.dirname(f), exist_ok=True)
    with open(f, 'wb') as h:
        h.write(b'\xabKTX 11\xbb\r\n\x1a\n' + bytes(2588))
    os.utime(f, (ts, ts))
    out['/' + rel] = [app, time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime(ts))]
json.dump(out, open(times, 'w'))
"#;

#[test]
fn app_snapshots_at_parity_with_ileapp_on_two_iphones() {
    let tmp = tempfile::tempdir().unwrap();
    let mut sources = Vec::new();
    let mut wanted = HashMap::new();
    for case in ["mvs_ios_2023", "belkasoft_ctf6_ios_device1"] {
        let root = tmp.path().join(case);
        let exp = crate::ios::expected(&format!("appSnapshots.applicationSnapshots.{case}"));
        let rows = tmp.path().join(format!("{case}.json"));
        let times = tmp.path().join(format!("{case}-times.json"));
        std::fs::write(&rows, exp.to_string()).unwrap();
        let st = std::process::Command::new("python3")
            .args(["-c", WRITE])
            .arg(&root)
            .arg(&rows)
            .arg(&times)
            .status()
            .unwrap();
        assert!(st.success());
        std::fs::create_dir_all(root.join("private/var/mobile/Library/SMS")).unwrap();
        let map: HashMap<String, (String, String)> =
            serde_json::from_str(&std::fs::read_to_string(&times).unwrap()).unwrap();
        assert_eq!(map.len(), exp["data"].as_array().unwrap().len());
        wanted.insert(case, map);
        sources.push((case, root));
    }
    // a tiny KTX and a KTX elsewhere
    let first = &sources[0].1;
    let tiny = first.join("private/var/mobile/Library/SplashBoard/Snapshots/com.example.app - {DEFAULT GROUP}/tiny@3x.ktx");
    std::fs::create_dir_all(tiny.parent().unwrap()).unwrap();
    std::fs::write(&tiny, b"\xabKTX 11").unwrap();
    let other = first.join("private/var/mobile/Library/Textures/cube.ktx");
    std::fs::create_dir_all(other.parent().unwrap()).unwrap();
    std::fs::write(&other, vec![0u8; 4000]).unwrap();

    let run = triage(
        &sources
            .iter()
            .map(|(c, r)| (*c, r.as_path(), "UTC", None))
            .collect::<Vec<(&str, &std::path::Path, &str, Option<&str>)>>(),
    );
    assert_eq!(run.rejections(), Vec::<String>::new());
    for (case, _) in &sources {
        let all = run.all_phenomena(case);
        let shots: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("App snapshot of "))
            .collect();
        let mut found = 0;
        let mut cut_names = 0;
        for (path, (app, time)) in &wanted[case] {
            let p = shots
                .iter()
                .find(|p| p.verified_facts.iter().any(|f| &f.value == path))
                .unwrap_or_else(|| panic!("{case}: {path}"));
            assert!(p.warnings.is_empty(), "{:#?}", p.warnings);
            let facts: Vec<&str> = p.verified_facts.iter().map(|f| f.value.as_str()).collect();
            // iLEAPP's recorded rows (an older version of its module) cut a bundle id at a
            // hyphen: `com.groupme.iphone` for the folder `com.groupme.iphone-app - {DEFAULT
            // GROUP}`, whose app is com.groupme.iphone-app (the bundle of its preferences
            // plist). Theirs is wrong there; ours is the folder's name, of which theirs is the
            // part before the hyphen.
            let cut = |f: &&str| {
                f.strip_prefix(app.as_str())
                    .is_some_and(|rest| rest.starts_with('-') && !rest.contains('/'))
            };
            if !facts.contains(&app.as_str()) {
                assert!(facts.iter().any(cut), "{app} in {facts:?}");
                cut_names += 1;
            }
            let mark = p.times.first().expect("a time");
            assert_eq!(p.verified_facts[mark.fact].value, *time);
            found += 1;
        }
        eprintln!("{case}: {found} snapshots, {cut_names} app names iLEAPP cut at a hyphen");
        assert!(cut_names * 50 <= found, "{cut_names} of {found}");
        if *case == "mvs_ios_2023" {
            assert_eq!(shots.len(), wanted[case].len() + 1);
            let t = shots
                .iter()
                .find(|p| p.title.ends_with("tiny@3x.ktx"))
                .expect("the tiny KTX");
            assert!(
                t.title.starts_with("App snapshot of com.example.app:"),
                "{}",
                t.title
            );
            assert!(t.interpretation.contains("under 2,500 bytes"));
        }
        assert!(!shots.iter().any(|p| p.title.contains("cube.ktx")));
    }
}
