//! iLEAPP parity of the iOS plugin, issue 17 part 3: App Store packages and update records,
//! Wi-Fi times and private addresses, CommCenter device data, note participants, Google
//! image-fetcher caches, Control Center modules and app cookies — each against iLEAPP's recorded output for
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

/// Python's plistlib on the one file of `zip` ending with `suffix`: `script` gets the parsed
/// plist as `d` and prints tab-separated lines.
fn plistlib(zip: &std::path::Path, suffix: &str, script: &str) -> Vec<Vec<String>> {
    let prog = format!(
        "import plistlib, sys, zipfile, datetime\nz = zipfile.ZipFile(sys.argv[1])\nname = [n for n in z.namelist() if n.endswith(sys.argv[2])][0]\nd = plistlib.loads(z.read(name))\ndef ts(x):\n    return str(int(x.replace(tzinfo=datetime.timezone.utc).timestamp())) if x is not None else ''\n{script}"
    );
    let out = std::process::Command::new("python3")
        .arg("-c")
        .arg(prog)
        .arg(zip)
        .arg(suffix)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| l.split('\t').map(str::to_string).collect())
        .collect()
}

#[test]
fn ios_ileapp_wifi_known_network_times_and_private_addresses_on_two_devices() {
    let mut missing = Vec::new();
    let mut want = 0usize;
    // Private addresses: iLEAPP's rows on the MVS iPhone (MAC addresses written with colons,
    // ours as the plist's data hex; booleans as words of the interpretation).
    let o = triage(
        &ileapp("testdata.appleWifiPlist.appleWifiScannedPrivate.mvs_ios_2023.zip"),
        "America/Chicago",
    );
    assert_all_accepted(&o);
    let wifi: Vec<&Phenomenon> = o
        .category("wifi")
        .into_iter()
        .filter(|p| p.title.starts_with("Wi-Fi private address for "))
        .collect();
    let exp = expected("appleWifiPlist.appleWifiScannedPrivate.mvs_ios_2023");
    let rows = exp["data"].as_array().unwrap();
    assert_eq!(rows.len(), 5);
    assert_eq!(wifi.len(), rows.len());
    for row in rows {
        let ssid = cell(&exp, row, "SSID");
        let p = wifi
            .iter()
            .find(|p| p.title == format!("Wi-Fi private address for {ssid}"))
            .unwrap_or_else(|| panic!("{ssid}"));
        for (h, v) in [
            ("SSID", ssid.clone()),
            ("BSSID", cell(&exp, row, "BSSID")),
            (
                "MAC Used For Network",
                cell(&exp, row, "MAC Used For Network").replace(':', ""),
            ),
            (
                "Private MAC Computed For Network",
                cell(&exp, row, "Private MAC Computed For Network").replace(':', ""),
            ),
        ] {
            want += 1;
            if !has(p, &v) {
                missing.push(format!("{ssid}: {h}={v}"));
            }
        }
        for (h, yes, no) in [
            (
                "MAC Valid",
                "the private address is valid",
                "the private address is not valid",
            ),
            (
                "In Known Networks",
                "a known network",
                "not a known network",
            ),
        ] {
            want += 1;
            let word = if cell(&exp, row, h) == "true" {
                yes
            } else {
                no
            };
            if !p.interpretation.contains(&format!(", {word}")) {
                missing.push(format!("{ssid}: {h} not {word:?} in {}", p.interpretation));
            }
        }
        let ours = unix_times(p);
        for (h, mark) in [
            ("Last Updated", "Wi-Fi private address updated"),
            ("Added At", "Wi-Fi network added"),
            ("Last Joined", "Wi-Fi last joined"),
        ] {
            let v = cell(&exp, row, h);
            if v.is_empty() {
                continue;
            }
            want += 1;
            if !ours.contains(&(mark.into(), v.parse().unwrap())) {
                missing.push(format!("{ssid}: {h}={v} ours {ours:?}"));
            }
        }
    }
    // Belkasoft's iPhone has no recorded iLEAPP output: plistlib is the oracle for the same
    // fields.
    let zip =
        ileapp("testdata.appleWifiPlist.appleWifiScannedPrivate.belkasoft_ctf6_ios_device1.zip");
    let o = triage(&zip, "America/Chicago");
    assert_all_accepted(&o);
    let wifi: Vec<&Phenomenon> = o
        .category("wifi")
        .into_iter()
        .filter(|p| p.title.starts_with("Wi-Fi private address for "))
        .collect();
    let oracle = plistlib(
        &zip,
        "com.apple.wifi-private-mac-networks.plist",
        r#"
for n in d["List of scanned networks with private mac"]:
    m = n.get("PRIVATE_MAC_ADDRESS", {})
    print(n.get("SSID_STR", ""), n.get("BSSID", ""), m.get("PRIVATE_MAC_ADDRESS_IN_USE", b"").hex(), m.get("PRIVATE_MAC_ADDRESS_VALUE", b"").hex(), ts(n.get("lastUpdated")), ts(n.get("addedAt")), ts(n.get("lastJoined")), sep="\t")
"#,
    );
    assert!(oracle.len() >= 2);
    assert_eq!(wifi.len(), oracle.len());
    for c in &oracle {
        let Some(p) = wifi
            .iter()
            .find(|p| p.title == format!("Wi-Fi private address for {}", c[0]))
        else {
            missing.push(format!("belkasoft private address for {}", c[0]));
            continue;
        };
        for v in &c[1..4] {
            want += 1;
            if !v.is_empty() && !has(p, v) {
                missing.push(format!("belkasoft {}: {v}", c[0]));
            }
        }
        let ours = unix_times(p);
        for (v, mark) in c[4..].iter().zip([
            "Wi-Fi private address updated",
            "Wi-Fi network added",
            "Wi-Fi last joined",
        ]) {
            want += 1;
            if !v.is_empty() && !ours.contains(&(mark.into(), v.parse().unwrap())) {
                missing.push(format!("belkasoft {}: {mark} {v} ours {ours:?}", c[0]));
            }
        }
    }

    // Known-network times, from the appleWifiKnownNetworksTimes cases: iLEAPP's rows on the MVS
    // iPhone, plistlib's reading of every time key on Belkasoft's (no recorded output).
    let marks = [
        ("Last Updated", "UpdatedAt", "Wi-Fi network updated"),
        (
            "Last Auto Joined",
            "lastAutoJoined",
            "Wi-Fi last auto-joined",
        ),
        ("Last Joined", "lastJoined", "Wi-Fi last joined"),
        (
            "System Joined",
            "JoinedBySystemAt",
            "Wi-Fi joined by system",
        ),
        ("User Joined", "JoinedByUserAt", "Wi-Fi joined by user"),
        (
            "WiFi Network Password Modification Date",
            "WiFiNetworkPasswordModificationDate",
            "Wi-Fi password modified",
        ),
        (
            "Last Discovered",
            "LastDiscoveredAt",
            "Wi-Fi network last discovered",
        ),
        ("Added At", "AddedAt", "Wi-Fi network added"),
        (
            "Whitelisted Captive Network Probe Date",
            "WhitelistedCaptiveNetworkProbeDate",
            "Captive network probe",
        ),
        (
            "Captive Web Sheet Login Date",
            "CaptiveWebSheetLoginDate",
            "Captive web sheet login",
        ),
        ("Previous Joined", "prevJoined", "Wi-Fi previously joined"),
    ];
    let o = triage(
        &ileapp("testdata.appleWifiPlist.appleWifiKnownNetworksTimes.mvs_ios_2023.zip"),
        "America/Chicago",
    );
    assert_all_accepted(&o);
    let nets = o.category("wifi");
    let exp = expected("appleWifiPlist.appleWifiKnownNetworksTimes.mvs_ios_2023");
    let rows = exp["data"].as_array().unwrap();
    assert_eq!(rows.len(), 5);
    for row in rows {
        let ssid = cell(&exp, row, "SSID");
        let Some(p) = nets
            .iter()
            .find(|p| p.title == format!("Wi-Fi network {ssid}"))
        else {
            missing.push(format!("network {ssid}"));
            continue;
        };
        want += 1;
        if !has(p, &cell(&exp, row, "BSSID")) {
            missing.push(format!("{ssid}: BSSID"));
        }
        let ours = unix_times(p);
        for (h, _, mark) in marks {
            let v = cell(&exp, row, h);
            if v.is_empty() {
                continue;
            }
            want += 1;
            if !ours.contains(&(mark.into(), v.parse().unwrap())) {
                missing.push(format!("{ssid}: {h}={v} ours {ours:?}"));
            }
        }
    }
    let zip = ileapp(
        "testdata.appleWifiPlist.appleWifiKnownNetworksTimes.belkasoft_ctf6_ios_device1.zip",
    );
    let o = triage(&zip, "America/Chicago");
    assert_all_accepted(&o);
    let nets = o.category("wifi");
    let keys: Vec<&str> = marks.iter().map(|(_, k, _)| *k).collect();
    let oracle = plistlib(
        &zip,
        "com.apple.wifi.known-networks.plist",
        &format!(
            r#"
keys = {keys:?}
for k, v in d.items():
    os = v.get("__OSSpecific__", {{}})
    print(k.removeprefix("wifi.network.ssid."), *[ts(v.get(t, os.get(t))) for t in keys], sep="\t")
"#
        ),
    );
    assert!(oracle.len() >= 2);
    for c in &oracle {
        let Some(p) = nets
            .iter()
            .find(|p| p.title == format!("Wi-Fi network {}", c[0]))
        else {
            missing.push(format!("belkasoft network {}", c[0]));
            continue;
        };
        let ours = unix_times(p);
        for (v, (_, _, mark)) in c[1..].iter().zip(marks) {
            if v.is_empty() {
                continue;
            }
            want += 1;
            if !ours.contains(&(mark.into(), v.parse().unwrap())) {
                missing.push(format!("belkasoft {}: {mark} {v} ours {ours:?}", c[0]));
            }
        }
    }
    assert!(missing.is_empty(), "of {want}: {missing:#?}");
    assert!(want > 80, "{want}");
}

/// Unix seconds of every time mark of `p` (Unix and Apple seconds, ISO 8601).
fn instants(p: &Phenomenon) -> Vec<i64> {
    p.times
        .iter()
        .filter_map(|t| {
            let v = &p.verified_facts[t.fact].value;
            match t.encoding {
                masf_graph::TimeEncoding::UnixSeconds => {
                    Some(v.parse::<f64>().ok()?.floor() as i64)
                }
                masf_graph::TimeEncoding::AppleSeconds => {
                    Some(v.parse::<f64>().ok()?.floor() as i64 + 978_307_200)
                }
                masf_graph::TimeEncoding::Iso8601 => {
                    Some(v.parse::<jiff::Timestamp>().ok()?.as_second())
                }
                _ => None,
            }
        })
        .collect()
}

/// The values of a Python repr as iLEAPP prints a nested property (`{'k': 'v', 'n': [1,
/// True]}`): quoted strings that are not keys, and bare words (numbers, `True`).
fn python_values(repr: &str) -> Vec<String> {
    let mut out = Vec::new();
    let b: Vec<char> = repr.chars().collect();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == '\'' || c == '"' {
            let start = i + 1;
            let mut j = start;
            while j < b.len() && b[j] != c {
                j += 1;
            }
            let s: String = b[start..j.min(b.len())].iter().collect();
            let mut k = j + 1;
            while k < b.len() && b[k] == ' ' {
                k += 1;
            }
            if b.get(k) != Some(&':') {
                out.push(s);
            }
            i = j + 1;
        } else if c.is_ascii_alphanumeric() || c == '-' || c == '.' {
            let start = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || ".-+".contains(b[i])) {
                i += 1;
            }
            let s: String = b[start..i].iter().collect();
            if s != "None" {
                out.push(s);
            }
        } else {
            i += 1;
        }
    }
    out
}

#[test]
fn ios_ileapp_device_data_every_property_and_the_identities() {
    let o = triage(
        &ileapp("testdata.deviceDatam.deviceDatam.mvs_ios_2023.zip"),
        "America/Chicago",
    );
    assert_all_accepted(&o);
    let exp = expected("deviceDatam.deviceDatam.mvs_ios_2023");
    let rows = exp["data"].as_array().unwrap();
    assert_eq!(rows.len(), 36);
    let props: Vec<&Phenomenon> = o
        .category("device")
        .into_iter()
        .filter(|p| p.title.starts_with("CommCenter device data "))
        .collect();
    assert_eq!(props.len(), rows.len());
    let (mut want, mut missing) = (0usize, Vec::new());
    for row in rows {
        let key = cell(&exp, row, "Property");
        let value = cell(&exp, row, "Property Value");
        let Some(p) = props
            .iter()
            .find(|p| p.title == format!("CommCenter device data {key}"))
        else {
            missing.push(format!("property {key}"));
            continue;
        };
        let values = if value.starts_with('{') || value.starts_with('[') {
            python_values(&value)
        } else {
            vec![value.clone()]
        };
        for v in values {
            if v.is_empty() {
                continue;
            }
            want += 1;
            let ok = if let Some((_, orig)) = v.split_once("(original: ") {
                // iLEAPP converts time-named numbers, keeping the stored one: ours is a time
                // mark on the stored number (Apple or Unix seconds) or, for kCKUploadDate
                // (days since 1970, "2022-11-21 (original: 19317)"), the number itself
                has(p, orig.trim_end_matches(')'))
            } else if v.len() >= 19 && v.as_bytes()[10] == b' ' && v.as_bytes()[4] == b'-' {
                // a plist date, printed naive in UTC by iLEAPP: compare the instant
                let t: jiff::Timestamp = format!("{}Z", v.replace(' ', "T")).parse().unwrap();
                instants(p).contains(&t.as_second())
            } else if v == "True" || v == "False" {
                has(p, &v.to_lowercase())
            } else {
                has(p, &v)
            };
            if !ok {
                missing.push(format!(
                    "{key}: {v} not in {:?}",
                    crate::ios_support::Outcome::values(p)
                ));
            }
        }
    }
    assert!(missing.is_empty(), "of {want}: {missing:#?}");
    assert!(want >= 54, "{want}");
    // the identifiers in it: both IMEIs and the MEID's device, the SIM's ICCID
    let ids = o.identities();
    for (t, v) in [
        ("imei", "359669602382763"),
        ("imei", "359669602478579"),
        ("iccid", "89148000008588244776"),
    ] {
        assert!(
            ids.contains(&("device".into(), t.into(), v.into())),
            "{t} {v}: {ids:?}"
        );
    }
}

#[test]
fn broken_copies_of_packages_private_addresses_and_device_data_are_noted_and_the_rest_is_read() {
    // A storeSystem.db whose app_package and mapi_app_update tables are of a foreign schema
    // (sqlite3 CLI), a private-address plist that is no plist, CommCenter's device-specific
    // plist cut short, and the MVS iPhone's good Wi-Fi known networks.
    let tmp = tempfile::tempdir().unwrap();
    let var = tmp.path().join("private/var");
    let store = var.join("containers/Data/System/Y/Documents/Persistence");
    std::fs::create_dir_all(&store).unwrap();
    let st = std::process::Command::new("sqlite3")
        .arg(store.join("storeSystem.db"))
        .arg("CREATE TABLE app_package (id INTEGER, url TEXT); INSERT INTO app_package VALUES (1, 'x'); CREATE TABLE mapi_app_update (pid INTEGER, name TEXT);")
        .status()
        .unwrap();
    assert!(st.success());
    let sc = var.join("preferences/SystemConfiguration");
    std::fs::create_dir_all(&sc).unwrap();
    std::fs::write(
        sc.join("com.apple.wifi-private-mac-networks.plist"),
        b"<?xml version=\"1.0\"?><not-a-plist>",
    )
    .unwrap();
    let prefs = var.join("wireless/Library/Preferences");
    let real = tmp.path().join("real");
    unzip("testdata.deviceDatam.deviceDatam.mvs_ios_2023.zip", &real);
    let name = "com.apple.commcenter.device_specific_nobackup.plist";
    let bytes = std::fs::read(walk(&real, name).unwrap()).unwrap();
    std::fs::create_dir_all(&prefs).unwrap();
    std::fs::write(prefs.join(name), &bytes[..bytes.len() / 2]).unwrap();
    let known = tmp.path().join("known");
    unzip(
        "testdata.appleWifiPlist.appleWifiKnownNetworks.mvs_ios_2023.zip",
        &known,
    );
    std::fs::copy(
        walk(&known, "com.apple.wifi.known-networks.plist").unwrap(),
        var.join("preferences/com.apple.wifi.known-networks.plist"),
    )
    .unwrap();
    std::fs::remove_dir_all(&real).unwrap();
    std::fs::remove_dir_all(&known).unwrap();

    let o = triage(tmp.path(), "America/Chicago");
    assert_all_accepted(&o);
    let noted = |suffix: &str, word: &str| o.assert_noted(suffix, word);
    noted("/storeSystem.db", "app_package lacks pid");
    // (one note per file: the update table's foreign schema is not noted a second time)
    noted("/com.apple.wifi-private-mac-networks.plist", "plist");
    noted(&format!("/{name}"), "plist");
    assert!(o.category("apps").is_empty());
    assert!(o.category("device").is_empty());
    let wifi = o.category("wifi");
    assert!(
        wifi.iter()
            .all(|p| !p.title.starts_with("Wi-Fi private address"))
    );
    // the good plist is still read
    assert!(wifi.iter().any(|p| p.title == "Wi-Fi network NETGEAR-345"));
}

#[test]
fn ios_ileapp_control_center_modules_on_two_devices() {
    for case in ["belkasoft_ctf6_ios_device1", "mvs_ios_2023"] {
        let o = triage(
            &ileapp(&format!("testdata.controlCenter.controlcenter.{case}.zip")),
            "America/New_York",
        );
        assert_all_accepted(&o);
        let exp = expected(&format!("controlCenter.controlCenter.{case}"));
        let rows = exp["data"].as_array().unwrap();
        assert_eq!(rows.len(), 7, "{case}");
        let modules: Vec<&Phenomenon> = o
            .category("device")
            .into_iter()
            .filter(|p| p.title.starts_with("Control Center module"))
            .collect();
        assert_eq!(modules.len(), rows.len(), "{case}");
        for row in rows {
            let (pos, bundle, kind) = (
                cell(&exp, row, "Position"),
                cell(&exp, row, "App Bundle"),
                cell(&exp, row, "Control Type"),
            );
            // position and type are derived (the list's order and name), so in the title;
            // the bundle and the list's key are facts
            let title = format!("Control Center module {pos} ({kind}): {bundle}");
            let p = modules
                .iter()
                .find(|p| p.title == title)
                .unwrap_or_else(|| panic!("{case}: no {title}"));
            assert!(has(p, &bundle), "{title}");
            assert!(has(p, "module-identifiers"), "{title}");
            assert!(
                p.verified_facts.iter().any(|f| f
                    .value
                    .ends_with("/mobile/Library/ControlCenter/ModuleConfiguration.plist")),
                "{title}"
            );
        }
    }
}

#[test]
fn ios_ileapp_app_cookies_every_row_without_the_values() {
    let o = triage(
        &ileapp("testdata.appCookies.appCookies.josh_ios17_ffs.zip"),
        "America/New_York",
    );
    assert_all_accepted(&o);
    let exp = expected("appCookies.appCookies.josh_ios17_ffs");
    let rows = exp["data"].as_array().unwrap();
    assert_eq!(rows.len(), 409);
    let cookies: Vec<&Phenomenon> = o
        .category("web")
        .into_iter()
        .filter(|p| p.title.starts_with("Cookie "))
        .collect();
    assert_eq!(cookies.len(), rows.len());
    let (mut want, mut missing) = (0usize, Vec::new());
    let mut used = std::collections::BTreeSet::new();
    for row in rows {
        let (host, name) = (cell(&exp, row, "Host"), cell(&exp, row, "Cookie Name"));
        let source = cell(&exp, row, "Source File");
        let file = &source[source.find("/private/var/").unwrap()..];
        let created: i64 = cell(&exp, row, "Created").parse().unwrap();
        let expires: i64 = cell(&exp, row, "Expires").parse().unwrap();
        let found = cookies.iter().enumerate().find(|(i, p)| {
            !used.contains(i)
                && p.title == format!("Cookie {name} of {host}")
                && p.verified_facts.iter().any(|f| f.value.ends_with(file))
                && unix_times(p).contains(&("Cookie created".into(), created))
        });
        let Some((i, p)) = found else {
            missing.push(format!(
                "no cookie {name} of {host} created {created} in {file}"
            ));
            continue;
        };
        used.insert(i);
        // every field but the value (a session credential, never reproduced) and the source
        // file (the path fact, matched above)
        fields(
            &exp,
            row,
            p,
            &["Created", "Expires", "Value", "Source File"],
            &mut want,
            &mut missing,
        );
        want += 1;
        if !unix_times(p).contains(&("Cookie expires".into(), expires)) {
            missing.push(format!(
                "{}: Expires {expires} ours {:?}",
                p.title,
                unix_times(p)
            ));
        }
        let value = cell(&exp, row, "Value");
        if value.len() > 3 {
            assert!(
                p.verified_facts.iter().all(|f| !f.value.contains(&value))
                    && !p.interpretation.contains(&value),
                "{}: the value is reproduced",
                p.title
            );
        }
        assert!(
            p.interpretation
                .contains(&format!("its value ({} bytes)", value.len())),
            "{}: {}",
            p.title,
            p.interpretation
        );
    }
    assert!(missing.is_empty(), "of {want}: {missing:#?}");
    assert!(want > 409 * 3, "{want}");
}

#[test]
fn ios_ileapp_google_image_fetcher_caches_every_row() {
    let o = triage(
        &ileapp("testdata.cachev0.cachev0.mvs_ios_2023.zip"),
        "America/New_York",
    );
    assert_all_accepted(&o);
    let exp = expected("cachev0.cachev0.mvs_ios_2023");
    let rows = exp["data"].as_array().unwrap();
    assert_eq!(rows.len(), 5);
    let cached: Vec<&Phenomenon> = o
        .category("media")
        .into_iter()
        .filter(|p| p.title.starts_with("Cached image "))
        .collect();
    // the three Google Photos caches are empty: iLEAPP reports no row of them, nor do we
    assert_eq!(cached.len(), rows.len());
    let mut used = std::collections::BTreeSet::new();
    for row in rows {
        let id = cell(&exp, row, "ID");
        let source = cell(&exp, row, "Source DB");
        let file = &source[source.find("/private/var/").unwrap()..];
        let (i, p) = cached
            .iter()
            .enumerate()
            .find(|(_, p)| has(p, &id) && p.verified_facts.iter().any(|f| f.value.ends_with(file)))
            .unwrap_or_else(|| panic!("no cached image {id} of {file}"));
        assert!(used.insert(i), "{id} {file} twice");
        // iLEAPP exports the blob (Media); we record what identifies it: its size and kind
        assert!(
            p.interpretation.contains("a PNG image"),
            "{}",
            p.interpretation
        );
        assert!(has(p, "89504E470D0A1A0A"), "{}", p.title);
    }
    // sizes as the sqlite3 CLI reads them
    let drive = cached
        .iter()
        .find(|p| {
            has(p, "1")
                && p.verified_facts.iter().any(|f| {
                    f.value.ends_with(
                        "862D62F2-A6A8-476F-A76E-77885F11E736/Library/Caches/drivekit/users/100708051342911799753/image-fetcher-cache/main-cache/cacheV0.db",
                    )
                })
        })
        .unwrap();
    assert!(has(drive, "1727"), "{:?}", drive.verified_facts);
}

#[test]
fn broken_control_center_cookies_and_image_caches_are_noted_and_the_rest_is_read() {
    // A Control Center configuration that is no plist, a cookie store cut in its header, one
    // whose first cookie offset points beyond its page, a cacheV0.db of a foreign schema
    // (sqlite3 CLI), and one good cookie store of josh's iPhone.
    let tmp = tempfile::tempdir().unwrap();
    let mobile = tmp.path().join("private/var/mobile");
    let cc = mobile.join("Library/ControlCenter");
    std::fs::create_dir_all(&cc).unwrap();
    std::fs::write(cc.join("ModuleConfiguration.plist"), b"not a plist").unwrap();
    let real = tmp.path().join("real");
    unzip("testdata.appCookies.appCookies.josh_ios17_ffs.zip", &real);
    let good = walk(&real, "Cookies.binarycookies").unwrap();
    let bytes = std::fs::read(&good).unwrap();
    let app = |n: &str| {
        let d = mobile.join(format!("Containers/Data/Application/{n}/Library/Cookies"));
        std::fs::create_dir_all(&d).unwrap();
        d.join("Cookies.binarycookies")
    };
    std::fs::copy(&good, app("GOOD")).unwrap();
    std::fs::write(app("CUT"), &bytes[..6]).unwrap();
    // the page starts after the header (8 bytes and 4 per page); its first cookie offset is
    // the page's third word
    let pages = u32::from_be_bytes(bytes[4..8].try_into().unwrap()) as usize;
    let first = 8 + 4 * pages + 8;
    let mut far = bytes.clone();
    far[first..first + 4].copy_from_slice(&60_000u32.to_le_bytes());
    std::fs::write(app("FAR"), &far).unwrap();
    let cache = mobile
        .join("Containers/Data/Application/G/Library/Caches/com.google.photos/ImageFetcherCache");
    std::fs::create_dir_all(&cache).unwrap();
    let st = std::process::Command::new("sqlite3")
        .arg(cache.join("cacheV0.db"))
        .arg("CREATE TABLE cache (key TEXT, value BLOB); INSERT INTO cache VALUES ('k', x'00');")
        .status()
        .unwrap();
    assert!(st.success());
    std::fs::remove_dir_all(&real).unwrap();

    let o = triage(tmp.path(), "America/New_York");
    assert_all_accepted(&o);
    let noted = |suffix: &str, word: &str| o.assert_noted(suffix, word);
    noted("/ControlCenter/ModuleConfiguration.plist", "plist");
    noted(
        "/CUT/Library/Cookies/Cookies.binarycookies",
        "truncated at offset 4: page count",
    );
    noted(
        "/FAR/Library/Cookies/Cookies.binarycookies",
        &format!("offset {first}: cookie offset 60000 is beyond its page"),
    );
    noted("/cacheV0.db", "cache lacks id, data");
    assert!(o.category("device").is_empty());
    assert!(o.category("media").is_empty());
    // the good store is read whole; the damaged page of the other gives only its other cookies
    let count = |dir: &str| {
        o.category("web")
            .iter()
            .filter(|p| {
                p.verified_facts
                    .iter()
                    .any(|f| f.value.contains(&format!("/{dir}/Library/Cookies/")))
            })
            .count()
    };
    let whole = parse_count(&bytes);
    assert!(whole > 1, "{whole}");
    assert_eq!(count("GOOD"), whole);
    assert_eq!(count("FAR"), whole - 1);
    assert_eq!(count("CUT"), 0);
}

/// Cookies in a store, by the plugin's decoder.
fn parse_count(bytes: &[u8]) -> usize {
    masf_plugins::ios::cookies::parse(bytes)
        .unwrap()
        .cookies
        .len()
}

/// `com.apple.accounts.exists.plist` (iLEAPP's `accountConfig`; the corpus holds the two
/// devices' plists but no recorded iLEAPP output, so Python's plistlib is the oracle): every
/// `com.apple.account.<type>.count`/`.exists` pair found in the phenomenon of its type.
#[test]
fn ios_ileapp_account_types_on_two_devices() {
    for case in ["mvs_ios_2023", "belkasoft_ctf6_ios_device1"] {
        let zip = format!("testdata.accountConfig.accountConfig.{case}.zip");
        let dir = tempfile::tempdir().unwrap();
        unzip(&zip, dir.path());
        let o = triage(dir.path(), "UTC");
        assert_all_accepted(&o);
        let rows = plistlib(
            &ileapp(&zip),
            "com.apple.accounts.exists.plist",
            "for k, v in sorted(d.items()):\n    print(f'{k}\\t{v}')",
        );
        assert!(rows.len() >= 28, "{case}: {rows:?}");
        let types: Vec<&Phenomenon> = o
            .findings()
            .iter()
            .filter(|p| p.title.starts_with("Account type "))
            .copied()
            .collect();
        assert_eq!(
            types.len() * 2,
            rows.len(),
            "{case}: every type has both keys"
        );
        for row in &rows {
            let ty = row[0]
                .strip_prefix("com.apple.account.")
                .and_then(|r| {
                    r.strip_suffix(".count")
                        .or_else(|| r.strip_suffix(".exists"))
                })
                .unwrap();
            let p = types
                .iter()
                .find(|p| {
                    p.title
                        .starts_with(&format!("Account type {ty} configured"))
                })
                .unwrap_or_else(|| panic!("{case}: {ty}"));
            assert!(
                has(p, &row[0]) && has(p, &row[1]),
                "{case}: {row:?} in {p:#?}"
            );
        }
        let store = types
            .iter()
            .find(|p| p.title == "Account type iTunesStore configured (2)")
            .expect("two iTunes Store accounts");
        assert!(store.interpretation.contains("2 of them"));
    }
}

/// A truncated copy and a plist of other keys under the same name are each noted; the real
/// one beside them is still read.
#[test]
fn broken_account_type_plists_are_noted_and_the_rest_is_read() {
    let dir = tempfile::tempdir().unwrap();
    unzip(
        "testdata.accountConfig.accountConfig.mvs_ios_2023.zip",
        dir.path(),
    );
    let real = dir
        .path()
        .join("private/var/preferences/SystemConfiguration/com.apple.accounts.exists.plist");
    let bytes = std::fs::read(&real).unwrap();
    let cut = dir
        .path()
        .join("private/var/mobile/cut/com.apple.accounts.exists.plist");
    std::fs::create_dir_all(cut.parent().unwrap()).unwrap();
    std::fs::write(&cut, &bytes[..bytes.len() / 2]).unwrap();
    let other = dir
        .path()
        .join("private/var/mobile/other/com.apple.accounts.exists.plist");
    std::fs::create_dir_all(other.parent().unwrap()).unwrap();
    let st = std::process::Command::new("python3")
        .arg("-c")
        .arg("import plistlib, sys; open(sys.argv[1], 'wb').write(plistlib.dumps({'Version': 3}, fmt=plistlib.FMT_BINARY))")
        .arg(&other)
        .status()
        .unwrap();
    assert!(st.success());
    let o = triage(dir.path(), "UTC");
    o.noted("cut/com.apple.accounts.exists.plist");
    o.assert_noted(
        "other/com.apple.accounts.exists.plist",
        "no com.apple.account.<type>.count or .exists key",
    );
    assert!(
        o.findings()
            .iter()
            .any(|p| p.title == "Account type iTunesStore configured (2)")
    );
}
