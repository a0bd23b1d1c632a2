//! A folder of thousands of files (issue 24, scale): its inventory is one phenomenon whose
//! cited outputs hold every file's row; report.json parses; report.html folds its long tables
//! and writes their pages, none holding more than a page of rows.

use std::collections::BTreeSet;
use std::path::Path;

use serde_json::Value;

use crate::support::masf_ok;

/// `count` small files in nested folders with names as a home folder has them; a few are text.
fn folder(root: &Path, count: usize) -> BTreeSet<String> {
    let mut paths = BTreeSet::new();
    for i in 0..count {
        let dir = format!("home/user{}/projects/p{:03}", i % 3, i % 40);
        let ext = if i % 1000 == 0 { "txt" } else { "dat" };
        let rel = format!("{dir}/part_{i:05}.{ext}");
        std::fs::create_dir_all(root.join(&dir)).unwrap();
        std::fs::write(root.join(&rel), format!("{i}\n")).unwrap();
        paths.insert(format!("/{rel}"));
    }
    paths
}

fn rows(html: &str) -> usize {
    html.matches("<tr><td>").count()
}

#[test]
fn a_folder_of_thousands_of_files_is_one_inventory_and_a_folded_report() {
    let dir = tempfile::tempdir().unwrap();
    let evidence = dir.path().join("evidence");
    let count = 6500;
    let paths = folder(&evidence, count);
    masf_ok(&[
        "init",
        dir.path().to_str().unwrap(),
        evidence.to_str().unwrap(),
    ]);
    let case = dir.path().join("case.yaml");
    let out = dir.path().join("report");
    masf_ok(&[
        "run",
        case.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);

    let report: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("report.json")).unwrap())
            .expect("report.json parses");
    let phenomena = report["phenomena"].as_array().unwrap();
    let inventories: Vec<&Value> = phenomena
        .iter()
        .filter(|p| p["category"] == "inventory")
        .collect();
    assert_eq!(inventories.len(), 1, "one inventory for the one tree");
    // Not one phenomenon per file: the few text files are read, nothing else is recorded.
    assert!(phenomena.len() < 20, "{} phenomena", phenomena.len());
    let inventory = inventories[0];
    assert!(
        inventory["title"]
            .as_str()
            .unwrap()
            .starts_with(&format!("Inventory: {count} files")),
        "{}",
        inventory["title"]
    );
    let facts = inventory["verified_facts"].as_array().unwrap();
    assert_eq!(facts[0]["value"], format!("{count} files"));

    // The cited outputs (published beside the report) hold every file's row, once.
    let cited: BTreeSet<&str> = facts
        .iter()
        .map(|f| f["invocation_id"].as_str().unwrap())
        .collect();
    assert_eq!(cited.len(), 2, "{count} files are two pages");
    let mut listed = Vec::new();
    for inv in &cited {
        let text = std::fs::read_to_string(out.join(format!("outputs/{inv}.out"))).unwrap();
        for line in text.lines().filter(|l| !l.starts_with('#')) {
            let cols: Vec<&str> = line.split('\t').collect();
            if cols[0] == "size" {
                continue;
            }
            assert_eq!(cols[1].len(), 64, "a SHA-256 in {line}");
            listed.push(cols[5].to_string());
        }
    }
    assert_eq!(listed.len(), count);
    assert_eq!(listed.iter().cloned().collect::<BTreeSet<_>>(), paths);

    // report.html folds the evidence files' table (every file is an evidence file of a
    // folder source) and links its pages; no page holds more than a page of rows.
    let html = std::fs::read_to_string(out.join("report.html")).unwrap();
    assert!(html.contains("<details><summary>"), "folded");
    let pages: Vec<_> = std::fs::read_dir(out.join("report-pages"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("files-"))
        })
        .collect();
    let per_page = 500; // masf_report::render::html::PAGE_ROWS
    assert_eq!(pages.len(), count.div_ceil(per_page));
    let mut total = 0;
    for page in &pages {
        let name = page.file_name().unwrap().to_str().unwrap();
        assert!(
            html.contains(&format!("href=\"report-pages/{name}\"")),
            "{name} linked"
        );
        let text = std::fs::read_to_string(page).unwrap();
        assert!(text.contains("<base href=\"../report.html\">"));
        assert!(rows(&text) <= per_page, "{name}: {} rows", rows(&text));
        total += rows(&text);
    }
    assert_eq!(total, count, "every evidence file on a page");
    assert!(
        rows(&html) < count / 2,
        "report.html shows {} rows",
        rows(&html)
    );
}
