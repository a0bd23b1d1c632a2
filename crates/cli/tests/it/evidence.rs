//! `masf inspect`, `ls`, `cat`, `verify-media` from the outside.

use crate::support::{masf, masf_ok, repo};

fn demo(name: &str) -> String {
    repo()
        .join("tests/fixtures/demo/evidence")
        .join(name)
        .to_str()
        .unwrap()
        .to_string()
}

#[test]
fn inspect_json_names_type_reasons_layers_and_partitions() {
    let out: serde_json::Value =
        serde_json::from_str(&masf_ok(&["inspect", &demo("blk0_sda.bin"), "--json"])).unwrap();
    assert_eq!(out["evidence_type"], "android_disk");
    let names: Vec<_> = out["layers"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|l| l["partition"]["name"].as_str())
        .collect();
    assert_eq!(names, ["misc", "efs", "persist", "system", "userdata"]);
    let userdata_fs = out["layers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["kind"] == "ext4" && l["depth"] == 2 && l["files"].as_u64() == Some(7));
    assert!(userdata_fs.is_some(), "{out:#}");

    let usb: serde_json::Value =
        serde_json::from_str(&masf_ok(&["inspect", &demo("usb.E01"), "--json"])).unwrap();
    assert_eq!(usb["evidence_type"], "disk_image");
    assert_eq!(usb["files"].as_array().unwrap().len(), 2);
    assert_eq!(usb["ewf"]["stored_md5"], "e27432322548bbde45eb518f3b0f3337");
}

#[test]
fn ls_json_carries_raw_times_ids_and_the_deleted_flag() {
    let out = masf_ok(&["ls", "-r", "--json", &format!("{}:/", demo("usb.E01"))]);
    let entries: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let notes = entries.iter().find(|e| e["path"] == "/notes.txt").unwrap();
    assert_eq!(notes["times"][0]["raw"]["encoding"], "fat_local");
    assert!(notes["id"].is_u64());
    assert!(entries.iter().any(|e| e["deleted"] == true));
}

#[test]
fn cat_writes_exact_bytes_and_a_wrong_path_fails_with_1() {
    let out = masf(&["cat", &format!("{}:/notes.txt", demo("usb.E01"))]);
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("yl.leung@example.com"));
    let out = masf(&["cat", &format!("{}:/no/such/file", demo("usb.E01"))]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("/no/such/file"));
}

#[test]
fn verify_media_passes_on_a_good_image_and_fails_naming_the_bad_chunk() {
    let ok = masf(&["verify-media", &demo("usb.E01")]);
    assert_eq!(ok.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&ok.stdout).contains("verified"));
    let bad = masf_testkit::corpus::path("ewf/e01rs-bad_chunk.E01");
    let out = masf(&["verify-media", bad.to_str().unwrap(), "--json"]);
    assert_eq!(out.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["md5_check"], "mismatch");
    assert_eq!(v["bad_chunks"][0]["chunk"], 0);
}
