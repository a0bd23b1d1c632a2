//! iLEAPP parity of the iOS plugin, issue 17 part 3: App Store packages and update records,
//! Wi-Fi times and private addresses, CommCenter device data, note participants, Google
//! image-fetcher caches and Control Center modules — each against iLEAPP's recorded output for
//! the corpus's test cases (every row found, every non-empty field in the facts of one
//! phenomenon), plus broken copies of the new artefacts.

use masf_graph::Phenomenon;
use serde_json::Value;

use crate::ios::{expected, has, ileapp};
use crate::ios_artefacts::{cell, db_from_schema, unix_times, walk};
use crate::ios_support::{assert_all_accepted, triage};

/// Unzips an iLEAPP test case (paths kept) into `to`.
fn unzip(zip: &str, to: &std::path::Path) {
    std::fs::create_dir_all(to).unwrap();
    let st = std::process::Command::new("unzip")
        .args(["-q", "-o"])
        .arg(ileapp(zip))
        .arg("-d")
        .arg(to)
        .status()
        .unwrap();
    // 1: warnings only (absolute paths stripped)
    assert!(st.success() || st.code() == Some(1));
}

/// Counts each iLEAPP field of `row` (by header) found among the facts of `p`, pushing the
/// misses; `skip` are the headers not compared as facts (times, the source file).
fn fields(
    exp: &Value,
    row: &Value,
    p: &Phenomenon,
    skip: &[&str],
    want: &mut usize,
    missing: &mut Vec<String>,
) {
    for h in exp["headers"].as_array().unwrap() {
        let h = h.as_str().unwrap();
        if skip.contains(&h) {
            continue;
        }
        let v = cell(exp, row, h);
        if v.is_empty() {
            continue;
        }
        *want += 1;
        if !has(p, &v) {
            missing.push(format!("{}: {h}={v}", p.title));
        }
    }
}

#[test]
fn ios_ileapp_store_system_packages_and_updates_every_field() {
    for case in ["mvs_ios_2023", "josh_ios17_ffs"] {
        let o = triage(
            &ileapp(&format!(
                "testdata.storeSystem.storeSystemAppPackages.{case}.zip"
            )),
            "America/New_York",
        );
        assert_all_accepted(&o);
        let exp = expected(&format!("storeSystem.storeSystemAppPackages.{case}"));
        let rows = exp["data"].as_array().unwrap();
        let packages: Vec<&Phenomenon> = o
            .category("apps")
            .into_iter()
            .filter(|p| p.title.starts_with("App download package"))
            .collect();
        // josh's app_package table is empty: iLEAPP reports no row, nor do we
        assert_eq!(packages.len(), rows.len(), "{case}");
        let (mut want, mut missing) = (0usize, Vec::new());
        let mut used = std::collections::BTreeSet::new();
        for row in rows {
            // a package is told by its URL (unique per row)
            let url = cell(&exp, row, "Package URL");
            let (i, p) = packages
                .iter()
                .enumerate()
                .find(|(_, p)| has(p, &url))
                .unwrap_or_else(|| panic!("{case}: no package {url}"));
            assert!(used.insert(i), "{case}: {url} twice");
            fields(&exp, row, p, &["Timestamp"], &mut want, &mut missing);
            want += 1;
            let t: i64 = cell(&exp, row, "Timestamp").parse().unwrap();
            if !unix_times(p).contains(&("App package recorded".into(), t)) {
                missing.push(format!("{url}: Timestamp {t} ours {:?}", unix_times(p)));
            }
        }
        assert!(missing.is_empty(), "{case}: of {want}: {missing:#?}");
        if case == "mvs_ios_2023" {
            assert_eq!(rows.len(), 32);
            assert!(want > 32 * 9, "{want}");
        }
        // neither device has a mapi_app_update row; iLEAPP reports none, nor do we
        let exp = expected(&format!("storeSystem.storeSystemAppUpdates.{case}"));
        assert!(exp["data"].as_array().unwrap().is_empty());
        assert!(
            o.category("apps")
                .iter()
                .all(|p| !p.title.starts_with("App update record"))
        );
    }

    // Neither device has an update record: one written into the real schema (sqlite3 CLI)
    // with a catalog entry shaped as iLEAPP reads it (attributes, platformAttributes.ios,
    // latestVersionInfo), every field checked as iLEAPP would report it.
    let tmp = tempfile::tempdir().unwrap();
    unzip(
        "testdata.storeSystem.storeSystemAppUpdates.mvs_ios_2023.zip",
        &tmp.path().join("real"),
    );
    let real = walk(&tmp.path().join("real"), "storeSystem.db").unwrap();
    let db = tmp
        .path()
        .join("tree/private/var/containers/Data/System/A/Documents/Persistence/storeSystem.db");
    let catalog = r#"{"id":"310633997","type":"apps","attributes":{"name":"WhatsApp Messenger","artistName":"WhatsApp Inc.","genreDisplayName":"Social Networking","url":"https://apps.apple.com/us/app/whatsapp-messenger/id310633997","platformAttributes":{"ios":{"externalVersionId":855123456,"releaseDate":"2009-05-04","latestVersionInfo":{"versionDisplay":"23.1.75","releaseNotes":"Bug fixes.\nSay \"hi\".","releaseTimestamp":"2023-01-09T17:01:48Z"}}}}}"#;
    db_from_schema(
        &real,
        &db,
        &format!(
            "INSERT INTO mapi_app_update (pid, bundle_id, install_date, item_id, metadata, store_software_version_id, timestamp, update_state) \
             VALUES (7, 'net.whatsapp.WhatsApp', 695000000.5, 310633997, CAST('{}' AS BLOB), 855123456, 695001000, 2);",
            catalog.replace('\'', "''")
        ),
    );
    let o = triage(&tmp.path().join("tree"), "America/New_York");
    assert_all_accepted(&o);
    let ups: Vec<&Phenomenon> = o
        .category("apps")
        .into_iter()
        .filter(|p| p.title.starts_with("App update record"))
        .collect();
    assert_eq!(ups.len(), 1);
    let p = ups[0];
    for v in [
        "net.whatsapp.WhatsApp",
        "310633997",
        "855123456",
        "2",
        "WhatsApp Messenger",
        "WhatsApp Inc.",
        "Social Networking",
        "23.1.75",
        // as the sqlite_query output holds it (JSON-escaped in the cell, then cell-escaped)
        r#"Bug fixes.\\nSay \\"hi\\"."#,
        "https://apps.apple.com/us/app/whatsapp-messenger/id310633997",
        "2009-05-04",
    ] {
        assert!(has(p, v), "{v} in {p:#?}");
    }
    let times = unix_times(p);
    for (mark, t) in [
        ("App update recorded", 978_307_200 + 695_001_000),
        ("App update installed", 978_307_200 + 695_000_000),
        ("App latest version released", 1_673_283_708),
    ] {
        assert!(times.contains(&(mark.into(), t)), "{mark} {t}: {times:?}");
    }
}
