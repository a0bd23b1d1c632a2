//! `masf index` and `masf search` on demo sources: builds logged as `index_text`, searches as
//! `search_index` invocations that `masf rerun` re-derives, an index built once per source.

use serde_json::Value;

use crate::support::{demo_subset, masf, masf_ok};

#[test]
fn index_once_search_across_sources_and_rederive_a_search() {
    let dir = tempfile::tempdir().unwrap();
    let case = demo_subset(dir.path(), &["src-usb", "src-iphone"]);
    let work = dir.path().join("work");
    let w = work.to_str().unwrap();

    let built: Value =
        serde_json::from_str(&masf_ok(&["index", &case, "--work", w, "--json"])).unwrap();
    let built = built.as_array().unwrap();
    assert_eq!(built.len(), 2);
    for b in built {
        assert_eq!(b["outcome"], "built", "{b}");
        assert!(b["files"].as_u64().unwrap() > 0, "{b}");
    }
    assert!(work.join("index/src-usb/manifest.json").is_file());
    assert!(!work.join("index/src-usb.partial").exists());

    // A second run has nothing to do; --rebuild builds again.
    let again = masf_ok(&["index", &case, "--work", w]);
    assert_eq!(again.matches("already indexed").count(), 2, "{again}");
    let one = masf_ok(&[
        "index",
        &case,
        "--work",
        w,
        "--source",
        "src-usb",
        "--rebuild",
    ]);
    assert!(one.contains("src-usb: indexed"), "{one}");
    assert!(!one.contains("src-iphone"), "{one}");

    // Words across both sources: the USB's invoice and the iPhone's messages.
    let found: Value =
        serde_json::from_str(&masf_ok(&["search", &case, "--work", w, "USDT", "--json"])).unwrap();
    let hits = found["hits"].as_array().unwrap();
    let sources: std::collections::BTreeSet<&str> = hits
        .iter()
        .map(|h| h["source_id"].as_str().unwrap())
        .collect();
    assert_eq!(sources, ["src-iphone", "src-usb"].into(), "{found:#}");
    let row = hits
        .iter()
        .find(|h| h["kind"] == "sqlite_row" && h["path"].as_str().unwrap().ends_with("sms.db"))
        .unwrap_or_else(|| panic!("{found:#}"));
    assert_eq!(row["label"], "text");
    assert_eq!(row["matched"], "USDT");

    // Each source's search is a logged invocation, and it re-derives to the same output.
    let inv = row["invocation_id"].as_str().unwrap();
    let rerun = masf_ok(&["rerun", &case, "--work", w, inv]);
    assert!(
        rerun.contains("search_index") && rerun.contains(": match"),
        "{rerun}"
    );

    // A hit is tagged by its search's invocation and its position: checked against the
    // logged output, listed with the hit's line.
    let hit_no = 1 + hits
        .iter()
        .filter(|h| h["invocation_id"] == inv)
        .position(|h| h == row)
        .unwrap();
    let target = format!("{inv}#hit{hit_no}");
    masf_ok(&[
        "tag",
        &case,
        "--work",
        w,
        &target,
        "Notable",
        "--reason",
        "the transfer",
    ]);
    let tags: Value =
        serde_json::from_str(&masf_ok(&["tags", &case, "--work", w, "--json"])).unwrap();
    let listed = tags.to_string();
    assert!(
        listed.contains(&target) && listed.contains("[[USDT]]"),
        "{tags:#}"
    );
    let bad = masf(&[
        "tag",
        &case,
        "--work",
        w,
        &format!("{inv}#hit999"),
        "Notable",
    ]);
    assert!(!bad.status.success());
    assert!(
        String::from_utf8_lossy(&bad.stderr).contains("hit(s)"),
        "{bad:?}"
    );
    let not_search = masf(&["tag", &case, "--work", w, "inv-000001#hit1", "Notable"]);
    assert!(
        String::from_utf8_lossy(&not_search.stderr).contains("not a search"),
        "{not_search:?}"
    );

    // The text form: one hit a line, the match in [[ ]].
    let text = masf_ok(&["search", &case, "--work", w, "usdt", "--source", "src-usb"]);
    assert!(text.lines().all(|l| l.starts_with("src-usb\t")), "{text}");
    assert!(text.contains("[[USDT]]"), "{text}");

    // Bad requests are the examiner's to fix, with what to do.
    let bad = masf(&["search", &case, "--work", w, "x", "--source", "src-nope"]);
    assert!(!bad.status.success());
    assert!(
        String::from_utf8_lossy(&bad.stderr).contains("src-usb"),
        "{bad:?}"
    );
    let bad = masf(&["search", &case, "--work", w, "hello", "--identifier"]);
    assert!(!bad.status.success());
    assert!(
        String::from_utf8_lossy(&bad.stderr).contains("no phone number"),
        "{bad:?}"
    );
}

#[test]
fn a_source_without_an_index_is_named_not_searched() {
    let dir = tempfile::tempdir().unwrap();
    let case = demo_subset(dir.path(), &["src-usb", "src-screens"]);
    let w = dir.path().join("work");
    let w = w.to_str().unwrap();
    masf_ok(&["index", &case, "--work", w, "--source", "src-usb"]);
    let out = masf(&["search", &case, "--work", w, "invoice"]);
    assert!(out.status.success(), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("src-screens: not searched") && err.contains("masf index"),
        "{err}"
    );
}

/// What a screenshot shows is searchable: after `masf run` has OCR'd the screenshots source,
/// `masf index` indexes each logged `ocr_image` output beside the image's own bytes (the
/// manifest names the invocation), and a word seen only in an image is found with a hit that
/// names that invocation. An index built before the OCR ran is rebuilt, not kept as current.
#[test]
fn ocr_text_of_a_screenshot_is_indexed_and_found() {
    let dir = tempfile::tempdir().unwrap();
    let case = demo_subset(dir.path(), &["src-screens"]);
    let w = dir.path().join("work");
    let w = w.to_str().unwrap();
    // an index without OCR text: nothing logged yet
    masf_ok(&["index", &case, "--work", w]);
    masf_ok(&["run", &case, "--work", w]);
    let built: Value =
        serde_json::from_str(&masf_ok(&["index", &case, "--work", w, "--json"])).unwrap();
    assert_eq!(built[0]["outcome"], "built", "{built:#}");
    let manifest: Value = serde_json::from_str(
        &std::fs::read_to_string(dir.path().join("work/index/src-screens/manifest.json")).unwrap(),
    )
    .unwrap();
    let ocr: Vec<&Value> = manifest["files"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["kind"].as_str().unwrap().starts_with("ocr:inv-"))
        .collect();
    assert!(ocr.len() >= 5, "{manifest:#}");
    // nothing new since: current
    let again = masf_ok(&["index", &case, "--work", w]);
    assert!(again.contains("already indexed"), "{again}");

    let found: Value = serde_json::from_str(&masf_ok(&[
        "search", &case, "--work", w, "TronLink", "--json",
    ]))
    .unwrap();
    let hits = found["hits"].as_array().unwrap();
    let hit = hits
        .iter()
        .find(|h| h["kind"] == "ocr")
        .unwrap_or_else(|| panic!("{found:#}"));
    assert!(
        hit["locator"].as_str().unwrap().starts_with("ocr inv-"),
        "{hit}"
    );
    assert!(
        hit["path"]
            .as_str()
            .unwrap()
            .to_lowercase()
            .ends_with(".png"),
        "{hit}"
    );
    // the OCR invocation the hit names is a logged ocr_image call of that image
    let inv = hit["locator"].as_str().unwrap().trim_start_matches("ocr ");
    let shown = masf_ok(&["rerun", &case, "--work", w, inv]);
    assert!(
        shown.contains("ocr_image") && shown.contains(": match"),
        "{shown}"
    );
}
