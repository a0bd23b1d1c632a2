//! iOS artefacts beyond the first core (issue 17 part 2), each against iLEAPP's recorded
//! output for the corpus's test cases: every row and field iLEAPP's module reports is found in
//! a phenomenon's verified facts or time marks.

use masf_graph::Phenomenon;
use serde_json::Value;

use crate::ios::{expected, has, ileapp};
use crate::ios_support::{assert_all_accepted, triage};

const APPLE_EPOCH: i64 = 978_307_200;

/// The row's value of `header`, as iLEAPP prints it ("" when absent).
pub(crate) fn cell(exp: &Value, row: &Value, header: &str) -> String {
    let i = exp["headers"]
        .as_array()
        .and_then(|h| h.iter().position(|x| x == header))
        .unwrap_or_else(|| panic!("iLEAPP has no column {header}"));
    match &row[i] {
        Value::String(s) => s.clone(),
        Value::Null => String::new(),
        v => v.to_string(),
    }
}

/// Unix seconds of each time mark of `p` (Apple seconds or ISO 8601 facts).
pub(crate) fn unix_times(p: &Phenomenon) -> Vec<(String, i64)> {
    p.times
        .iter()
        .filter_map(|t| {
            let v = &p.verified_facts[t.fact].value;
            let secs = match t.encoding {
                masf_graph::TimeEncoding::AppleSeconds => {
                    v.parse::<f64>().ok()?.floor() as i64 + APPLE_EPOCH
                }
                masf_graph::TimeEncoding::Iso8601 => v.parse::<jiff::Timestamp>().ok()?.as_second(),
                _ => return None,
            };
            Some((t.description.clone(), secs))
        })
        .collect()
}

#[test]
fn ios_ileapp_store_system_app_installs_every_field() {
    // (iLEAPP column, our time mark) for the times; the other columns are facts.
    let times = [
        ("Record Timestamp", "App install recorded"),
        ("Last Start Date", "App last started"),
        ("Purchase Date", "App purchased"),
        ("App Release Date", "App released"),
    ];
    let fields = [
        "App Name",
        "Bundle ID",
        "Short Version",
        "Bundle Version",
        "Developer",
        "Genre",
        "Rating",
        "Apple ID",
        "Account DSID",
        "altDSID",
        "Item ID",
        "External Version ID",
        "Storefront",
        "Source App",
        "Client ID",
        "Install Path",
        "Transaction ID",
        "Phase",
        "Update Type",
        "Source Type",
        "Redownload",
    ];
    let mut rows_seen = 0;
    for case in ["mvs_ios_2023", "josh_ios17_ffs"] {
        let o = triage(
            &ileapp(&format!(
                "testdata.storeSystem.storeSystemAppInstalls.{case}.zip"
            )),
            "America/New_York",
        );
        assert_all_accepted(&o);
        let exp = expected(&format!("storeSystem.storeSystemAppInstalls.{case}"));
        let rows = exp["data"].as_array().expect("rows");
        // the install records (the same database's packages and update records are
        // ios_parity's)
        let apps: Vec<_> = o
            .category("apps")
            .into_iter()
            .filter(|p| {
                !p.title.starts_with("App download package")
                    && !p.title.starts_with("App update record")
            })
            .collect();
        // josh's database has no app_install row: iLEAPP reports none, nor do we
        assert_eq!(apps.len(), rows.len(), "{case}");
        let (mut want, mut found) = (0usize, 0usize);
        let mut missing = Vec::new();
        for row in rows {
            rows_seen += 1;
            let bundle = cell(&exp, row, "Bundle ID");
            let p = apps
                .iter()
                .find(|p| has(p, &bundle))
                .unwrap_or_else(|| panic!("{case}: no phenomenon for {bundle}"));
            for f in fields {
                let v = cell(&exp, row, f);
                // iLEAPP prints 0 flags too; we record only the set ones (0 = not set)
                if v.is_empty() || (v == "0" && f != "Phase") {
                    continue;
                }
                want += 1;
                if has(p, &v) {
                    found += 1;
                } else {
                    missing.push(format!("{bundle} {f}={v}"));
                }
            }
            let ours = unix_times(p);
            for (col, mark) in times {
                let v = cell(&exp, row, col);
                if v.is_empty() {
                    continue;
                }
                want += 1;
                let t: i64 = v.parse().expect("unix seconds");
                if ours.contains(&(mark.to_string(), t)) {
                    found += 1;
                } else {
                    missing.push(format!("{bundle} {col}={v} (ours {ours:?})"));
                }
            }
        }
        assert!(
            missing.is_empty(),
            "{case}: {found}/{want} fields: {missing:#?}"
        );
        // the purchasing account joins the device owner: Apple ID and DSID
        if case == "mvs_ios_2023" {
            let owner: Vec<(String, String)> = o
                .identities()
                .into_iter()
                .filter(|(c, _, _)| c == "owner")
                .map(|(_, t, v)| (t, v))
                .collect();
            for want in [
                ("apple_id", "blueisth3best@icloud.com"),
                ("dsid", "20758809832"),
            ] {
                assert!(
                    owner.contains(&(want.0.to_string(), want.1.to_string())),
                    "{owner:?}"
                );
            }
        }
    }
    assert_eq!(rows_seen, 16);
}

#[test]
fn ios_accounts3_properties_give_the_dsid_and_primary_email_on_two_devices() {
    // The archived ZACCOUNTPROPERTY values, as Python's plistlib reads them from the two
    // devices' Accounts3.sqlite (dsid, personID and primaryEmail of the Apple account).
    for (case, dsid, email, first) in [
        (
            "mvs_ios_2023",
            "20758809832",
            "blueisth3best@icloud.com",
            "Michael",
        ),
        (
            "belkasoft_ctf6_ios_device1",
            "21634198525",
            "billthemegakill@icloud.com",
            "William",
        ),
    ] {
        let o = triage(
            &ileapp(&format!("testdata.accountData.accountData.{case}.zip")),
            "America/Chicago",
        );
        assert_all_accepted(&o);
        let ids = o.identities();
        for (t, v) in [("dsid", dsid), ("email", email)] {
            assert!(
                ids.contains(&("owner".to_string(), t.to_string(), v.to_string())),
                "{case}: owner {t} {v} in {ids:?}"
            );
        }
        let props: Vec<_> = o
            .category("accounts")
            .into_iter()
            .filter(|p| p.title.starts_with("Properties of account"))
            .collect();
        assert!(
            props.iter().any(|p| has(p, dsid) && has(p, first)),
            "{case}: {props:#?}"
        );
    }
}

/// iLEAPP prints Core Data times as `YYYY-MM-DD HH:MM:SS` UTC.
fn utc_text(secs: i64) -> String {
    jiff::Timestamp::from_second(secs)
        .unwrap()
        .strftime("%Y-%m-%d %H:%M:%S")
        .to_string()
}

/// A fact value as the note's text: the JSON-escaped, cell-escaped form unescaped.
fn note_body(p: &Phenomenon) -> Option<String> {
    p.verified_facts
        .iter()
        .filter(|f| f.fact_type == masf_graph::FactType::Text)
        .filter_map(|f| {
            let cell = masf_plugins::outputs::unescape(&f.value);
            serde_json::from_str::<String>(&format!("\"{cell}\"")).ok()
        })
        .max_by_key(String::len)
}

#[test]
fn ios_ileapp_notes_every_field_and_the_text() {
    let o = triage(
        &ileapp("testdata.notes.notes.josh_ios17_ffs.zip"),
        "America/New_York",
    );
    assert_all_accepted(&o);
    let exp = expected("notes.notes.josh_ios17_ffs");
    let notes: Vec<&Phenomenon> = o
        .category("notes")
        .into_iter()
        .filter(|p| {
            !p.title.contains(" shared with ")
                && !p.title.starts_with("Invitation to the shared note ")
                && !p.title.ends_with("(recovered)")
        })
        .collect();
    let rows = exp["data"].as_array().unwrap();
    assert_eq!(notes.len(), rows.len());
    // this iPhone's log still holds the data of note 43 as the database file had it before (an
    // empty text: the note was written after); iLEAPP reads the live rows only
    let earlier: Vec<&str> = o
        .category("notes")
        .into_iter()
        .filter(|p| p.title.ends_with("(recovered)"))
        .map(|p| p.title.as_str())
        .collect();
    assert_eq!(earlier.len(), 1, "{earlier:?}");
    assert!(
        earlier[0].starts_with("Earlier version of note 43: "),
        "{earlier:?}"
    );
    let mut missing = Vec::new();
    for row in rows {
        let title = cell(&exp, row, "Note Title");
        let created = cell(&exp, row, "Creation Date");
        let Some(p) = notes.iter().find(|p| {
            // one note of the case has no title
            (title.is_empty() || has(p, &title))
                && unix_times(p)
                    .iter()
                    .any(|(d, t)| d == "Note created" && utc_text(*t) == created)
        }) else {
            missing.push(format!("no note {title} created {created}"));
            continue;
        };
        for f in ["Snippet", "Folder", "Storage Place"] {
            let v = cell(&exp, row, f);
            if !v.is_empty() && !has(p, &v) {
                missing.push(format!("{title}: {f}={v}"));
            }
        }
        let modified = cell(&exp, row, "Last Modified");
        if !unix_times(p)
            .iter()
            .any(|(d, t)| d == "Note modified" && utc_text(*t) == modified)
        {
            missing.push(format!("{title}: Last Modified={modified}"));
        }
        // iLEAPP's contents are the protobuf text; ours too (trailing white space aside)
        let want = cell(&exp, row, "Note Contents");
        let ours = note_body(p).unwrap_or_default();
        if ours.trim_end() != want.trim_end() {
            missing.push(format!("{title}: contents {ours:?} != {want:?}"));
        }
        for (f, word) in [
            ("Password Protected", "password protected"),
            ("Marked for Deletion", "marked for deletion"),
            ("Pinned", "pinned"),
        ] {
            if (cell(&exp, row, f) == "Yes") != p.interpretation.contains(word) {
                missing.push(format!("{title}: {f}"));
            }
        }
    }
    assert!(missing.is_empty(), "{missing:#?}");

    // the shares' participants, against iLEAPP's notesParticipants: each participant of a
    // shared note, and each invitation (ZICINVITATION: its times, the note's title and snippet,
    // the share URL) with its participants
    let exp = expected("notes.notesParticipants.josh_ios17_ffs");
    let invitations: Vec<&Phenomenon> = o
        .category("notes")
        .into_iter()
        .filter(|p| p.title.starts_with("Invitation to the shared note "))
        .collect();
    for row in exp["data"].as_array().unwrap() {
        let id = cell(&exp, row, "Participant ID");
        let url = cell(&exp, row, "Share URL");
        let p = invitations
            .iter()
            .find(|p| has(p, &id) && has(p, &url))
            .unwrap_or_else(|| panic!("invitation with {id} and {url}: {invitations:#?}"));
        for f in [
            "Note Title",
            "Note Snippet",
            "Email Address",
            "Phone Number",
        ] {
            let v = cell(&exp, row, f);
            assert!(v.is_empty() || has(p, &v), "{id} {f}={v}");
        }
        for (f, what) in [
            ("Invitation Created", "Note invitation created"),
            ("Invitation Received", "Note invitation received"),
            ("Last Modified", "Note invitation modified"),
        ] {
            let want: i64 = row
                .as_array()
                .unwrap()
                .get(
                    exp["headers"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .position(|h| h == f)
                        .unwrap(),
                )
                .and_then(serde_json::Value::as_i64)
                .unwrap();
            assert!(
                unix_times(p).iter().any(|(d, t)| d == what && *t == want),
                "{id} {f}={want}: {:?}",
                unix_times(p)
            );
        }
        assert!(p.interpretation.contains(&format!("participant {id} is")));
    }
    assert_eq!(invitations.len(), 2);
    let shared: Vec<&Phenomenon> = o
        .category("notes")
        .into_iter()
        .filter(|p| p.title.contains(" shared with "))
        .collect();
    for row in exp["data"].as_array().unwrap() {
        let id = cell(&exp, row, "Participant ID");
        let p = shared
            .iter()
            .find(|p| has(p, &id))
            .unwrap_or_else(|| panic!("participant {id}: {shared:#?}"));
        for f in ["Email Address", "Phone Number"] {
            let v = cell(&exp, row, f);
            assert!(v.is_empty() || has(p, &v), "{id} {f}={v}");
        }
        let name = cell(&exp, row, "Participant Name");
        for (f, want) in [
            (
                "Role",
                format!("its {}", cell(&exp, row, "Role").to_lowercase()),
            ),
            (
                "Permission",
                format!(
                    "permission {}",
                    cell(&exp, row, "Permission").to_lowercase()
                ),
            ),
            (
                "Acceptance Status",
                format!(
                    "acceptance status {}",
                    cell(&exp, row, "Acceptance Status").to_lowercase()
                ),
            ),
            (
                "Participant Name",
                if name.is_empty() {
                    "unnamed".into()
                } else {
                    format!("is {name}")
                },
            ),
        ] {
            assert!(
                p.interpretation.contains(&want),
                "{id} {f}: {want:?} in {}",
                p.interpretation
            );
        }
    }
}

#[test]
fn ios_notes_of_a_second_device_read_with_their_text() {
    // Belkasoft CTF 6's iPhone (its NoteStore.sqlite is in the cloudkit test case): the
    // titles and snippets as the sqlite3 CLI reads them, each note's decoded text starting
    // with its title and holding its snippet's first words.
    let zip =
        ileapp("testdata.cloudkitSharing.cloudkit_participants.belkasoft_ctf6_ios_device1.zip");
    let o = triage(&zip, "America/New_York");
    assert_all_accepted(&o);
    let dir = tempfile::tempdir().unwrap();
    let st = std::process::Command::new("unzip")
        .args(["-q", "-j"])
        .arg(&zip)
        .arg("-d")
        .arg(dir.path())
        .status()
        .unwrap();
    assert!(st.success());
    let out = std::process::Command::new("sqlite3")
        .arg(dir.path().join("NoteStore.sqlite"))
        .arg("SELECT ZTITLE1 || char(9) || ZSNIPPET FROM ZICCLOUDSYNCINGOBJECT WHERE ZNOTEDATA IS NOT NULL ORDER BY Z_PK")
        .output()
        .unwrap();
    let oracle: Vec<(String, String)> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .filter_map(|l| {
            l.split_once('\t')
                .map(|(a, b)| (a.to_string(), b.to_string()))
        })
        .collect();
    assert_eq!(oracle.len(), 6);
    let notes = o.category("notes");
    for (title, snippet) in &oracle {
        let p = notes
            .iter()
            .find(|p| has(p, title))
            .unwrap_or_else(|| panic!("{title}"));
        let body = note_body(p).unwrap_or_else(|| panic!("{title}: no text"));
        assert!(body.starts_with(title.as_str()), "{title}: {body:?}");
        let first = snippet.split_whitespace().next().unwrap_or("");
        assert!(body.contains(first), "{title}: {snippet:?} in {body:?}");
    }
}

#[test]
fn a_wallet_address_in_the_owners_note_is_their_claim() {
    // The iOS 17 case's NoteStore.sqlite with one note's text replaced, by Python's sqlite3,
    // gzip and a hand-encoded NoteStoreProto (2 → 3 → 2), with a line holding a wallet address.
    let tmp = tempfile::tempdir().unwrap();
    let zip = ileapp("testdata.notes.notes.josh_ios17_ffs.zip");
    let st = std::process::Command::new("unzip")
        .args(["-q", "-j"])
        .arg(&zip)
        .arg("-d")
        .arg(tmp.path())
        .status()
        .unwrap();
    assert!(st.success());
    let group = tmp
        .path()
        .join("tree/mobile/Containers/Shared/AppGroup/72DA7FCC");
    std::fs::create_dir_all(&group).unwrap();
    std::fs::create_dir_all(tmp.path().join("tree/mobile/Library")).unwrap();
    for f in [
        "NoteStore.sqlite",
        "NoteStore.sqlite-wal",
        "NoteStore.sqlite-shm",
    ] {
        if tmp.path().join(f).exists() {
            std::fs::rename(tmp.path().join(f), group.join(f)).unwrap();
        }
    }
    let script = r#"
import gzip, sqlite3, sys
def field(n, payload):
    key = bytes([n << 3 | 2])
    ln, out = len(payload), b""
    while True:
        b = ln & 0x7f; ln >>= 7
        out += bytes([b | (0x80 if ln else 0)])
        if not ln: break
    return key + out + payload
text = "Wallets\nMy USDT (TRC20) address: TRh4MqLekE9MbxTkLrQ673AHbsU46khwF2\n".encode()
blob = gzip.compress(field(2, field(3, field(2, text))))
db = sqlite3.connect(sys.argv[1])
db.execute("UPDATE ZICNOTEDATA SET ZDATA = ? WHERE Z_PK = (SELECT ZNOTEDATA FROM ZICCLOUDSYNCINGOBJECT WHERE ZTITLE1 = 'iOS 15 Note')", (blob,))
db.commit()
"#;
    let st = std::process::Command::new("python3")
        .arg("-c")
        .arg(script)
        .arg(group.join("NoteStore.sqlite"))
        .status()
        .unwrap();
    assert!(st.success());
    let o = triage(&tmp.path().join("tree"), "Asia/Hong_Kong");
    assert_all_accepted(&o);
    let ids = o.identities();
    let address = "TRh4MqLekE9MbxTkLrQ673AHbsU46khwF2";
    assert!(
        ids.contains(&("owner".into(), "wallet".into(), address.into())),
        "{ids:?}"
    );
    assert!(ids.contains(&(format!("wallet:{address}"), "wallet".into(), address.into())));
    let note = o
        .category("notes")
        .into_iter()
        .find(|p| p.title.ends_with(": iOS 15 Note"))
        .expect("the note");
    assert!(note_body(note).unwrap().contains(address));
}

/// The phenomenon of `category` whose facts hold every one of `values`.
pub(crate) fn find_with<'a>(ps: &[&'a Phenomenon], values: &[&str]) -> Option<&'a Phenomenon> {
    ps.iter()
        .copied()
        .find(|p| values.iter().all(|v| has(p, v)))
}

#[test]
fn ios_ileapp_wifi_known_networks_times_access_points_and_leases() {
    let o = triage(
        &ileapp("testdata.appleWifiPlist.appleWifiKnownNetworks.mvs_ios_2023.zip"),
        "America/Chicago",
    );
    assert_all_accepted(&o);
    let wifi = o.category("wifi");
    let mut missing = Vec::new();
    // known networks: every field
    let exp = expected("appleWifiPlist.appleWifiKnownNetworks.mvs_ios_2023");
    for row in exp["data"].as_array().unwrap() {
        let ssid = cell(&exp, row, "SSID");
        let Some(p) = find_with(&wifi, &[&ssid])
            .filter(|p| p.title == format!("Wi-Fi network {ssid}"))
            .or_else(|| {
                wifi.iter()
                    .copied()
                    .find(|p| p.title == format!("Wi-Fi network {ssid}"))
            })
        else {
            missing.push(format!("network {ssid}"));
            continue;
        };
        for f in [
            "BSSID",
            "Network Usage",
            "Country Code",
            "Device Name",
            "Manufacturer",
            "Serial Number",
            "Model Name",
            "User Portal URL",
            "Add Reason",
            "Bundle ID",
        ] {
            let v = cell(&exp, row, f);
            if !v.is_empty() && !has(p, &v) {
                missing.push(format!("{ssid}: {f}={v}"));
            }
        }
        for (f, word) in [
            ("Hidden", "hidden"),
            ("Carplay Network", "CarPlay"),
            ("Captive Network", "a captive network"),
        ] {
            if cell(&exp, row, f).eq_ignore_ascii_case("true") != p.interpretation.contains(word) {
                missing.push(format!("{ssid}: {f} in {}", p.interpretation));
            }
        }
    }
    // their times
    let exp = expected("appleWifiPlist.appleWifiKnownNetworksTimes.mvs_ios_2023");
    let marks = [
        ("Last Updated", "Wi-Fi network updated"),
        ("Last Auto Joined", "Wi-Fi last auto-joined"),
        ("Last Joined", "Wi-Fi last joined"),
        ("System Joined", "Wi-Fi joined by system"),
        ("User Joined", "Wi-Fi joined by user"),
        (
            "WiFi Network Password Modification Date",
            "Wi-Fi password modified",
        ),
        ("Last Discovered", "Wi-Fi network last discovered"),
        ("Added At", "Wi-Fi network added"),
        (
            "Whitelisted Captive Network Probe Date",
            "Captive network probe",
        ),
        ("Captive Web Sheet Login Date", "Captive web sheet login"),
        ("Previous Joined", "Wi-Fi previously joined"),
    ];
    for row in exp["data"].as_array().unwrap() {
        let ssid = cell(&exp, row, "SSID");
        let p = wifi
            .iter()
            .find(|p| p.title == format!("Wi-Fi network {ssid}"))
            .unwrap();
        let ours = unix_times(p);
        for (col, mark) in marks {
            let v = cell(&exp, row, col);
            if v.is_empty() {
                continue;
            }
            if !ours.contains(&(mark.to_string(), v.parse().unwrap())) {
                missing.push(format!("{ssid}: {col}={v} ours {ours:?}"));
            }
        }
    }
    // access points
    let o2 = triage(
        &ileapp("testdata.appleWifiPlist.appleWifiBSSList.mvs_ios_2023.zip"),
        "America/Chicago",
    );
    let aps = o2.category("wifi");
    let exp = expected("appleWifiPlist.appleWifiBSSList.mvs_ios_2023");
    let rows = exp["data"].as_array().unwrap();
    assert_eq!(rows.len(), 37);
    for row in rows {
        let bssid = cell(&exp, row, "BSSID");
        let ssid = cell(&exp, row, "SSID");
        let Some(p) = aps
            .iter()
            .find(|p| p.title == format!("Wi-Fi access point {bssid} of {ssid}"))
        else {
            missing.push(format!("access point {bssid} of {ssid}"));
            continue;
        };
        for f in [
            "Channel Flags",
            "Channel",
            "Location Accuracy",
            "Location Latitude",
            "Location Longitude",
        ] {
            let v = cell(&exp, row, f);
            if !v.is_empty() && !has(p, &v) {
                missing.push(format!("{bssid}: {f}={v}"));
            }
        }
        let last = cell(&exp, row, "Last Associated At");
        if !last.is_empty()
            && !unix_times(p).contains(&(
                "Wi-Fi access point last associated".into(),
                last.parse().unwrap(),
            ))
        {
            missing.push(format!("{bssid}: Last Associated At={last}"));
        }
    }
    assert!(missing.is_empty(), "{missing:#?}");
}

#[test]
fn ios_ileapp_dhcp_leases_on_two_devices_and_known_networks_of_the_second() {
    for case in ["mvs_ios_2023", "belkasoft_ctf6_ios_device1"] {
        let o = triage(
            &ileapp(&format!("testdata.dhcpl.dhcpLeases.{case}.zip")),
            "America/Chicago",
        );
        assert_all_accepted(&o);
        let exp = expected(&format!("dhcpl.dhcpLeases.{case}"));
        let leases = o.category("wifi");
        assert_eq!(leases.len(), 1, "{case}");
        let p = leases[0];
        for row in exp["data"].as_array().unwrap() {
            let (name, value) = (row[0].as_str().unwrap(), &row[1]);
            let v = match value {
                Value::String(s) => s.clone(),
                v => v.to_string(),
            };
            let ok = match name {
                "LeaseStartDate" => unix_times(p).iter().any(|(_, t)| utc_text(*t) == v),
                "RouterHardwareAddress" => has(p, &v.replace(':', "")),
                _ => has(p, &v),
            };
            assert!(ok, "{case}: {name}={v} in {p:#?}");
        }
    }
    // Belkasoft's iPhone has no recorded iLEAPP output for its known networks: Python's
    // plistlib is the oracle (each network's SSID key, BSSID and AddedAt).
    let zip =
        ileapp("testdata.appleWifiPlist.appleWifiKnownNetworks.belkasoft_ctf6_ios_device1.zip");
    let o = triage(&zip, "America/Chicago");
    assert_all_accepted(&o);
    let script = r#"
import plistlib, sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
name = [n for n in z.namelist() if n.endswith("com.apple.wifi.known-networks.plist")][0]
for k, v in plistlib.loads(z.read(name)).items():
    os = v.get("__OSSpecific__", {})
    print(k.removeprefix("wifi.network.ssid."), os.get("BSSID", ""), int(v["AddedAt"].timestamp()) if "AddedAt" in v else "", sep="\t")
"#;
    let out = std::process::Command::new("python3")
        .arg("-c")
        .arg(script)
        .arg(&zip)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let oracle = String::from_utf8(out.stdout).unwrap();
    assert!(oracle.lines().count() >= 2);
    let wifi = o.category("wifi");
    for line in oracle.lines() {
        let c: Vec<&str> = line.split('\t').collect();
        let p = wifi
            .iter()
            .find(|p| p.title == format!("Wi-Fi network {}", c[0]))
            .unwrap_or_else(|| panic!("{line}"));
        assert!(c[1].is_empty() || has(p, c[1]), "{line}");
        assert!(
            c[2].is_empty()
                || unix_times(p).contains(&("Wi-Fi network added".into(), c[2].parse().unwrap())),
            "{line}: {:?}",
            unix_times(p)
        );
    }
}

#[test]
fn broken_copies_of_the_new_artefacts_are_noted_and_the_rest_is_read() {
    // A tree with a truncated NoteStore.sqlite, a storeSystem.db of a foreign schema (made by
    // the sqlite3 CLI), a known-networks plist that is no plist, a leases plist cut short, and
    // the MVS iPhone's good Accounts3.sqlite.
    let tmp = tempfile::tempdir().unwrap();
    let var = tmp.path().join("private/var");
    let unzip = |zip: &str, to: &std::path::Path| {
        std::fs::create_dir_all(to).unwrap();
        let st = std::process::Command::new("unzip")
            .args(["-q", "-j", "-o"])
            .arg(ileapp(zip))
            .arg("-d")
            .arg(to)
            .status()
            .unwrap();
        assert!(st.success() || st.code() == Some(1));
    };
    let notes = var.join("mobile/Containers/Shared/AppGroup/X");
    unzip("testdata.notes.notes.josh_ios17_ffs.zip", &notes);
    let bytes = std::fs::read(notes.join("NoteStore.sqlite")).unwrap();
    std::fs::write(notes.join("NoteStore.sqlite"), &bytes[..bytes.len() / 3]).unwrap();
    for f in ["NoteStore.sqlite-wal", "NoteStore.sqlite-shm"] {
        let _ = std::fs::remove_file(notes.join(f));
    }
    let store = var.join("containers/Data/System/Y/Documents/Persistence");
    std::fs::create_dir_all(&store).unwrap();
    let st = std::process::Command::new("sqlite3")
        .arg(store.join("storeSystem.db"))
        .arg("CREATE TABLE app_install (pid INTEGER PRIMARY KEY, name TEXT); INSERT INTO app_install VALUES (1, 'x');")
        .status()
        .unwrap();
    assert!(st.success());
    let prefs = var.join("preferences");
    std::fs::create_dir_all(&prefs).unwrap();
    std::fs::write(
        prefs.join("com.apple.wifi.known-networks.plist"),
        b"bplist00 not really",
    )
    .unwrap();
    let leases = var.join("db/dhcpclient/leases");
    unzip("testdata.dhcpl.dhcpLeases.mvs_ios_2023.zip", &leases);
    let lease = std::fs::read(leases.join("en0.plist")).unwrap();
    std::fs::write(leases.join("en0.plist"), &lease[..lease.len() / 2]).unwrap();
    unzip(
        "testdata.accountData.accountData.mvs_ios_2023.zip",
        &var.join("mobile/Library/Accounts"),
    );

    let o = triage(tmp.path(), "America/Chicago");
    assert_all_accepted(&o);
    let noted = |suffix: &str| o.noted(suffix);
    let n = noted("/NoteStore.sqlite");
    assert!(
        n.contains("malformed") || n.contains("not a database"),
        "{n}"
    );
    assert!(
        noted("/storeSystem.db").starts_with("unexpected schema"),
        "{}",
        noted("/storeSystem.db")
    );
    assert!(noted("/com.apple.wifi.known-networks.plist").contains("not a readable plist"));
    assert!(
        noted("/en0.plist").contains("plist"),
        "{}",
        noted("/en0.plist")
    );
    assert!(
        o.category("notes").is_empty()
            && o.category("apps").is_empty()
            && o.category("wifi").is_empty()
    );
    // the good database is still read
    assert!(!o.category("accounts").is_empty());
    assert!(
        o.identities()
            .contains(&("owner".into(), "dsid".into(), "20758809832".into()))
    );
}

#[test]
fn ios_ileapp_connected_computers() {
    let o = triage(
        &ileapp("testdata.connectedDevices.conDev.belkasoft_ctf6_ios_device1.zip"),
        "America/Chicago",
    );
    assert_all_accepted(&o);
    let exp = expected("connectedDevices.conDev.belkasoft_ctf6_ios_device1");
    let found = o.category("device");
    for row in exp["data"].as_array().unwrap() {
        let (user, computer) = (
            cell(&exp, row, "User Name"),
            cell(&exp, row, "Computer Name"),
        );
        assert!(
            found.iter().any(|p| has(p, &user) && has(p, &computer)),
            "{user}@{computer} in {found:#?}"
        );
    }
    let ids = o.identities();
    assert!(
        ids.iter()
            .any(|(c, t, _)| c == "computer:DESKTOP-0CBP2ID" && t == "device_name"),
        "{ids:?}"
    );
}

#[test]
fn ios_ileapp_advertising_identifier() {
    let o = triage(
        &ileapp("testdata.advertisingID.get_adId.mvs_ios_2023.zip"),
        "America/Chicago",
    );
    assert_all_accepted(&o);
    let exp = expected("advertisingID.get_adId.mvs_ios_2023");
    let found = o.category("device");
    for row in exp["data"].as_array().unwrap() {
        let id = cell(&exp, row, "Data Value");
        assert!(found.iter().any(|p| has(p, &id)), "{id} in {found:#?}");
    }
    // and the vendors' identifiers beside it (Python's plistlib reads 21 vendors)
    let p = found
        .iter()
        .find(|p| p.title.starts_with("Advertising identifier"))
        .unwrap();
    assert!(has(p, "WhatsApp Inc.") && has(p, "EED6EE2C-A38A-47EF-BB26-331D55278D62"));
    assert_eq!(
        p.verified_facts
            .iter()
            .filter(|f| f.fact_type == masf_graph::FactType::Name)
            .count(),
        21
    );
}

#[test]
fn ios_ileapp_safari_cache_on_two_devices() {
    for case in ["mvs_ios_2023", "josh_ios17_ffs"] {
        let o = triage(
            &ileapp(&format!("testdata.safariCache.safariCache.{case}.zip")),
            "America/Chicago",
        );
        assert_all_accepted(&o);
        let exp = expected(&format!("safariCache.safariCache.{case}"));
        let web = o.category("web");
        let rows = exp["data"].as_array().unwrap();
        assert_eq!(web.len(), rows.len(), "{case}");
        let mut missing = Vec::new();
        for row in rows {
            let url = cell(&exp, row, "Request URL");
            let Some(p) = web.iter().find(|p| has(p, &url)) else {
                missing.push(format!("{case}: no entry for {url}"));
                continue;
            };
            for f in [
                "HTTP Status",
                "Request Method",
                "MIME Type",
                "Cache File Name",
                "Content Type",
                "Content Length",
                "Date",
                "Expires",
                "Last Modified",
                "Cache Control",
                "Server",
                "Storage Policy",
                "Payload Size",
                "Entry ID",
            ] {
                let v = cell(&exp, row, f);
                if !v.is_empty() && v != "None" && !has(p, &v) {
                    missing.push(format!("{case} {url}: {f}={v}"));
                }
            }
            let ts: i64 = cell(&exp, row, "Timestamp").parse().unwrap();
            if !p
                .times
                .iter()
                .any(|m| p.verified_facts[m.fact].value == ts.to_string())
            {
                missing.push(format!("{case} {url}: Timestamp={ts}"));
            }
            let on_fs = cell(&exp, row, "Payload Location") == "File system";
            if on_fs != p.interpretation.contains("fsCachedData/") {
                missing.push(format!("{case} {url}: Payload Location"));
            }
        }
        assert!(missing.is_empty(), "{missing:#?}");
    }
}

/// Unix seconds (truncated, as iLEAPP prints them) of the time marks of `p`.
fn unix_marks(p: &Phenomenon) -> Vec<i64> {
    p.times
        .iter()
        .filter(|t| t.encoding == masf_graph::TimeEncoding::UnixSeconds)
        .filter_map(|t| p.verified_facts[t.fact].value.parse::<f64>().ok())
        .map(|f| f.trunc() as i64)
        .collect()
}

#[test]
fn ios_ileapp_google_voice_texts_calls_voicemails_and_participants() {
    // The four iLEAPP test cases of the module hold the same threadingStore.sqlite.
    let o = triage(
        &ileapp("testdata.googleVoice.googleVoiceMessages.josh_ios17_ffs.zip"),
        "America/New_York",
    );
    assert_all_accepted(&o);
    let gv = |p: &&Phenomenon| p.title.starts_with("Google Voice");
    let texts: Vec<&Phenomenon> = o.category("messages").into_iter().filter(gv).collect();
    let calls: Vec<&Phenomenon> = o
        .category("calls")
        .into_iter()
        .filter(gv)
        .filter(|p| !p.title.contains("voicemail"))
        .collect();
    let voicemails: Vec<&Phenomenon> = o
        .category("calls")
        .into_iter()
        .filter(|p| p.title.starts_with("Google Voice voicemail"))
        .collect();
    let people: Vec<&Phenomenon> = o.category("contacts").into_iter().filter(gv).collect();
    let mut missing = Vec::new();
    let mut check = |what: &str, ps: &[&Phenomenon], exp: &Value, key: &str, fields: &[&str]| {
        let rows = exp["data"].as_array().unwrap();
        if ps.len() != rows.len() {
            missing.push(format!("{what}: {} rows, iLEAPP {}", ps.len(), rows.len()));
        }
        let mut used = vec![false; ps.len()];
        for row in rows {
            let k = cell(exp, row, key);
            let ts = cell(
                exp,
                row,
                if what == "participants" {
                    "Last Activity"
                } else {
                    "Timestamp"
                },
            );
            // The row's phenomenon: its key value and time, not yet matched to another row.
            let Some(i) = (0..ps.len()).find(|&i| {
                !used[i]
                    && has(ps[i], &k)
                    && (ts.is_empty() || unix_marks(ps[i]).contains(&ts.parse().unwrap()))
                    && fields.iter().all(|f| {
                        // multi-line cells as sqlite_query prints them (escaped)
                        let v = masf_tools::sqlite::escape_cell(&cell(exp, row, f));
                        v.is_empty() || has(ps[i], &v)
                    })
            }) else {
                missing.push(format!(
                    "{what}: no phenomenon for {key}={k} at {ts} with {fields:?}"
                ));
                continue;
            };
            used[i] = true;
            for flag in ["Unread", "Deleted", "System Message", "Blocked"] {
                if exp["headers"].as_array().unwrap().iter().any(|h| h == flag) {
                    let v = cell(exp, row, flag);
                    let said = match flag {
                        "Blocked" => format!("blocked: {}", if v == "1" { "yes" } else { "no" }),
                        f => format!("{} {v}", f.to_lowercase()),
                    };
                    if !ps[i].interpretation.contains(&said) {
                        missing.push(format!("{what} {k}: {flag}={v}"));
                    }
                }
            }
        }
    };
    let exp = expected("googleVoice.googleVoiceMessages.josh_ios17_ffs");
    check(
        "texts",
        &texts,
        &exp,
        "Thread Key",
        &["Conversation", "Sender", "Message", "Attachment Count"],
    );
    let exp = expected("googleVoice.googleVoiceCalls.josh_ios17_ffs");
    check(
        "calls",
        &calls,
        &exp,
        "Thread Key",
        &[
            "Other Party",
            "Duration (Seconds)",
            "Ring Group Name",
            "Ring Group Number",
            "Transferred From",
            "Transferred To",
        ],
    );
    let exp = expected("googleVoice.googleVoiceVoicemails.josh_ios17_ffs");
    check(
        "voicemails",
        &voicemails,
        &exp,
        "Thread Key",
        &[
            "Caller",
            "Duration (Seconds)",
            "Transcript",
            "Transcript Confidence",
        ],
    );
    let exp = expected("googleVoice.googleVoiceContacts.josh_ios17_ffs");
    check(
        "participants",
        &people,
        &exp,
        "Phone Number",
        &["Thread Count", "Item Count"],
    );
    assert!(missing.is_empty(), "{missing:#?}");
    // Directions and call kinds, as iLEAPP names them.
    assert_eq!(
        texts
            .iter()
            .filter(|p| p.title.contains(" sent to "))
            .count(),
        58
    );
    assert_eq!(
        calls
            .iter()
            .filter(|p| p.title.contains(" missed "))
            .count(),
        20
    );

    // The user's own Google Voice numbers (senders of outgoing texts) and Google account id
    // are the owner's; the other numbers are counterparties.
    let ids = o.identities();
    for own in ["+19106215169", "+19105576476", "+19108398620"] {
        assert!(
            ids.contains(&("owner".into(), "phone".into(), own.into())),
            "{own}: {ids:?}"
        );
    }
    assert!(ids.contains(&(
        "owner".into(),
        "account_id".into(),
        "116154953456844128063".into()
    )));
    assert!(ids.contains(&(
        "handle:+19198887386".into(),
        "phone".into(),
        "+19198887386".into()
    )));
}

/// A second Google Voice database, made at test time with the sqlite3 CLI from the schema of
/// the corpus's real one (`.schema`, no row copied): a user in Hong Kong whose outgoing text
/// gives their own TRON address and whose contact's incoming text gives theirs. Each address
/// is the claim of the side that wrote "my address", as in sms.db; the folder's GAIA id and
/// the sending number are the owner's.
#[test]
fn google_voice_of_a_second_user_gives_the_owners_and_the_contacts_wallet_claims() {
    let real = crate::ios_support::public(
        "ios/ileapp/testdata.googleVoice.googleVoiceMessages.josh_ios17_ffs.zip",
    );
    let tmp = tempfile::tempdir().unwrap();
    let st = std::process::Command::new("unzip")
        .args(["-q", "-d"])
        .arg(tmp.path().join("real"))
        .arg(&real)
        .status()
        .unwrap();
    assert!(st.success());
    let real_db = walk(&tmp.path().join("real"), "threadingStore.sqlite").expect("the corpus db");
    let schema = std::process::Command::new("sqlite3")
        .arg("-readonly")
        .arg(&real_db)
        .arg(".schema")
        .output()
        .unwrap();
    assert!(schema.status.success());
    let dir = tmp.path().join(
        "phone/private/var/mobile/Containers/Shared/AppGroup/0D1E2F3A-4B5C-6D7E-8F90-A1B2C3D4E5F6/Library/Application Support/104455667788990011223",
    );
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("threadingStore.sqlite");
    let rows = "\
INSERT INTO Thread(threadKey, threadType, isUnread, isText, timestamp, isDeleted, isSuspectedSpam, groupSMSSuspectedSpamParticipantsE164Strings) VALUES ('t.+85291234567', 1, 0, 1, 1700000100.5, 0, 0, '');
INSERT INTO ThreadParticipant(phoneNumberE164, threadKey, threadType) VALUES ('+85291234567', 't.+85291234567', 1);
INSERT INTO Participant(phoneNumberE164, isBlocked) VALUES ('+85291234567', 0);
INSERT INTO ThreadItem(threadItemKey, threadItemType, sortID, isUnread, messageText, senderPhoneNumber, failureReason, messageID, isSystemMessage, isDeleted, duration, timestamp, itemType, threadKey, threadType) VALUES
 ('k1', 1, 1700000000000000, 0, 'my USDT address is TRh4MqLekE9MbxTkLrQ673AHbsU46khwF2', '+85255501234', 0, 1, 0, 0, 0, 1700000000.25, 'SmsOut', 't.+85291234567', 1),
 ('k2', 1, 1700000100000000, 0, 'ok, pay to my address 0x1850cE0E73407A9997C467BABc60fe887C567625', '+85291234567', 0, 2, 0, 0, 0, 1700000100.5, 'SmsIn', 't.+85291234567', 1);
";
    let out = std::process::Command::new("sqlite3")
        .arg(&db)
        .arg(format!(
            "{}\n{rows}",
            String::from_utf8_lossy(&schema.stdout)
        ))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );

    let o = triage(&tmp.path().join("phone"), "Asia/Hong_Kong");
    assert_all_accepted(&o);
    let texts: Vec<&Phenomenon> = o
        .category("messages")
        .into_iter()
        .filter(|p| p.title.starts_with("Google Voice text"))
        .collect();
    assert_eq!(texts.len(), 2);
    let ids = o.identities();
    for want in [
        ("owner", "phone", "+85255501234"),
        ("owner", "account_id", "104455667788990011223"),
        ("owner", "wallet", "TRh4MqLekE9MbxTkLrQ673AHbsU46khwF2"),
        (
            "handle:+85291234567",
            "wallet",
            "0x1850ce0e73407a9997c467babc60fe887c567625",
        ),
    ] {
        let got = ids
            .iter()
            .any(|(c, t, v)| c == want.0 && t == want.1 && v.eq_ignore_ascii_case(want.2));
        assert!(got, "{want:?} not in {ids:#?}");
    }
}

/// The first file named `name` below `dir`.
pub(crate) fn walk(dir: &std::path::Path, name: &str) -> Option<std::path::PathBuf> {
    for e in std::fs::read_dir(dir).ok()?.flatten() {
        let p = e.path();
        if p.is_dir() {
            if let Some(f) = walk(&p, name) {
                return Some(f);
            }
        } else if p.file_name().is_some_and(|n| n == name) {
            return Some(p);
        }
    }
    None
}

/// `sqlite3 -readonly DB SQL` lines, split on the unit separator (U+001F) the CLI is told to
/// put between columns.
fn sqlite3_rows(db: &std::path::Path, sql: &str) -> Vec<Vec<String>> {
    let out = std::process::Command::new("sqlite3")
        .args(["-readonly", "-separator", "\u{1f}"])
        .arg(db)
        .arg(sql)
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
        .map(|l| l.split('\u{1f}').map(str::to_string).collect())
        .collect()
}

/// A database built with the sqlite3 CLI from the schema of a real one (`.schema`, no row
/// copied) plus `rows`, at `to`.
pub(crate) fn db_from_schema(real: &std::path::Path, to: &std::path::Path, rows: &str) {
    let schema = std::process::Command::new("sqlite3")
        .arg("-readonly")
        .arg(real)
        .arg(".schema")
        .output()
        .unwrap();
    assert!(schema.status.success());
    std::fs::create_dir_all(to.parent().unwrap()).unwrap();
    let out = std::process::Command::new("sqlite3")
        .arg(to)
        .arg(format!(
            "{}\n{rows}",
            String::from_utf8_lossy(&schema.stdout)
        ))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn ios_kik_messages_and_users_against_sqlite3_and_a_second_user() {
    let real = crate::ios_support::public("ios/plaso-kik.sqlite");
    let tmp = tempfile::tempdir().unwrap();
    let app = "private/var/mobile/Containers/Shared/AppGroup/5B3A2C1D-0E9F-4A8B-9C7D-6E5F4A3B2C1D/cores/private/3f2a9c/kik.sqlite";
    let db = tmp.path().join("a").join(app);
    std::fs::create_dir_all(db.parent().unwrap()).unwrap();
    std::fs::copy(&real, &db).unwrap();
    let o = triage(&tmp.path().join("a"), "UTC");
    assert_all_accepted(&o);
    let messages: Vec<&Phenomenon> = o
        .category("messages")
        .into_iter()
        .filter(|p| p.title.starts_with("Kik message"))
        .collect();
    // plaso's kik_ios test expects 60 messages; the sqlite3 CLI with iLEAPP's join gives each.
    let want = sqlite3_rows(
        &real,
        "SELECT m.Z_PK, ifnull(u.ZUSERNAME,''), ifnull(m.ZBODY,''), m.ZTIMESTAMP, m.ZRECEIVEDTIMESTAMP \
FROM ZKIKMESSAGE m LEFT JOIN ZKIKUSER u ON u.Z_PK = m.ZUSER WHERE instr(ifnull(m.ZBODY,''), char(10)) = 0",
    );
    assert!(want.len() > 50);
    assert_eq!(messages.len(), 60);
    let mut missing = Vec::new();
    for r in &want {
        let Some(p) = messages
            .iter()
            .find(|p| p.title.starts_with(&format!("Kik message {} ", r[0])))
        else {
            missing.push(format!("message {}", r[0]));
            continue;
        };
        for v in &r[1..3] {
            if !v.is_empty() && !has(p, v) {
                missing.push(format!("message {}: {v}", r[0]));
            }
        }
        // Times: the CLI prints a REAL with 15 significant digits, sqlite_query exactly.
        for v in &r[3..] {
            let want: f64 = v.parse().unwrap();
            if !p.verified_facts.iter().any(|f| {
                f.value
                    .parse::<f64>()
                    .is_ok_and(|got| (got - want).abs() < 1e-5)
            }) {
                missing.push(format!("message {}: time {v}", r[0]));
            }
        }
    }
    assert!(missing.is_empty(), "{missing:#?}");
    // The welcome message is kikteam's (plaso's join gives it to jon.doh2015).
    let welcome = messages
        .iter()
        .find(|p| p.title.starts_with("Kik message 1 "))
        .unwrap();
    assert!(has(welcome, "kikteam"), "{:?}", welcome.title);
    let users = o
        .category("contacts")
        .into_iter()
        .filter(|p| p.title.starts_with("Kik user"))
        .count();
    assert_eq!(users, 24, "25 rows, one of them the group EveryoneButRoss");
    let ids = o.identities();
    assert!(ids.contains(&(
        "kik:8".into(),
        "account_id".into(),
        "ken.doh_khv@talk.kik.com".into()
    )));
    assert!(!ids.iter().any(|(_, _, v)| v.ends_with("@groups.kik.com")));

    // A second user's kik.sqlite, built from the real schema: the owner sends their wallet to
    // a contact who answers with theirs.
    let second = tmp.path().join("b").join(app);
    db_from_schema(
        &real,
        &second,
        "INSERT INTO ZKIKUSER(Z_PK, ZUSERNAME, ZDISPLAYNAME, ZJID) VALUES (1, 'mei.chan', 'Mei Chan', 'mei.chan_x1y@talk.kik.com');
INSERT INTO ZKIKMESSAGE(Z_PK, ZTYPE, ZUSER, ZTIMESTAMP, ZRECEIVEDTIMESTAMP, ZBODY) VALUES
 (1, 2, 1, 720000000.5, 720000000.5, 'my USDT address is TRh4MqLekE9MbxTkLrQ673AHbsU46khwF2'),
 (2, 1, 1, 720000100.5, 720000101.0, 'thanks, my address is 0x1850cE0E73407A9997C467BABc60fe887C567625');",
    );
    let o = triage(&tmp.path().join("b"), "UTC");
    assert_all_accepted(&o);
    let ids = o.identities();
    let holds = |c: &str, v: &str| {
        ids.iter()
            .any(|(ctx, t, val)| ctx == c && t == "wallet" && val.eq_ignore_ascii_case(v))
    };
    assert!(
        holds("owner", "TRh4MqLekE9MbxTkLrQ673AHbsU46khwF2"),
        "{ids:#?}"
    );
    assert!(
        holds("kik:1", "0x1850cE0E73407A9997C467BABc60fe887C567625"),
        "{ids:#?}"
    );
}

#[test]
fn ios_gmail_offline_search_against_sqlite3_and_a_second_account() {
    let zip = ileapp("testdata.gmail.gmailOfflineSearch.mvs_ios_2023.zip");
    let o = triage(&zip, "America/Chicago");
    assert_all_accepted(&o);
    let tmp = tempfile::tempdir().unwrap();
    let st = std::process::Command::new("unzip")
        .args(["-q", "-d"])
        .arg(tmp.path().join("real"))
        .arg(&zip)
        .status()
        .unwrap();
    assert!(st.success() || st.code() == Some(1), "unzip: {st:?}");
    let real = walk(&tmp.path().join("real"), "searchsqlitedb").unwrap();
    let want = sqlite3_rows(
        &real,
        "SELECT c2, c0, ifnull(c7,'') FROM offline_search_content WHERE instr(ifnull(c7,''), char(10)) = 0",
    );
    let mail = o.category("mail");
    assert_eq!(mail.len(), 21, "iLEAPP's query gives 21 rows");
    assert_eq!(want.len(), 21);
    let mut missing = Vec::new();
    for r in &want {
        match mail.iter().find(|p| has(p, &r[0])) {
            Some(p) => {
                for v in &r[1..] {
                    if !v.is_empty() && !has(p, v) {
                        missing.push(format!("{}: {v}", r[0]));
                    }
                }
            }
            None => missing.push(format!("no message {}", r[0])),
        }
    }
    assert!(missing.is_empty(), "{missing:#?}");
    let ids = o.identities();
    assert!(ids.contains(&(
        "owner".into(),
        "google_account".into(),
        "mborchardt@kurvalis.com".into()
    )));
    for c in [
        "sgarza@kurvalis.com",
        "tlouis@kurvalis.com",
        "wilts1991@protonmail.com",
    ] {
        assert!(
            ids.iter()
                .any(|(ctx, _, v)| ctx == &format!("handle:{c}") && v == c),
            "{c}: {ids:#?}"
        );
    }

    // A second account's index, written through the FTS5 table by the sqlite3 CLI.
    let second = tmp.path().join(
        "b/private/var/mobile/Containers/Data/Application/1A2B3C4D-5E6F-7081-92A3-B4C5D6E7F809/Library/Application Support/data/lam.kwok@example.org/searchsqlitedb",
    );
    db_from_schema(
        &real,
        &second,
        "INSERT INTO offline_search(score, itemServerPermId, messageServerPermId, \"from\", \"to\", cc, bcc, subject, body, has) VALUES
 (1700000000000.0, 'thread-f:1', 'msg-f:1', 'Lam Kwok, lam.kwok@example.org', 'Ho Yee, ho.yee@example.net', '', '', 'payment', 'Please send it to my wallet: TRh4MqLekE9MbxTkLrQ673AHbsU46khwF2', '');",
    );
    let o = triage(&tmp.path().join("b"), "Asia/Hong_Kong");
    assert_all_accepted(&o);
    let ids = o.identities();
    assert!(ids.contains(&(
        "owner".into(),
        "google_account".into(),
        "lam.kwok@example.org".into()
    )));
    assert!(
        ids.iter().any(|(c, t, v)| c == "owner"
            && t == "wallet"
            && v == "TRh4MqLekE9MbxTkLrQ673AHbsU46khwF2"),
        "{ids:#?}"
    );
    assert!(ids.iter().any(|(c, _, _)| c == "handle:ho.yee@example.net"));
}

#[test]
fn ios_safari_history_every_visit_against_sqlite3_on_two_profiles() {
    // plaso's History.db (its safari_historydb test expects 25 visits), as the default
    // profile of one device and a named profile of another.
    let real = crate::ios_support::public("ios/plaso-safari-History.db");
    let tmp = tempfile::tempdir().unwrap();
    let default = tmp.path().join(
        "private/var/mobile/Containers/Data/Application/0A1B2C3D-4E5F-6071-8293-A4B5C6D7E8F9/Library/Safari/History.db",
    );
    let named = tmp.path().join(
        "private/var/mobile/Containers/Data/Application/0A1B2C3D-4E5F-6071-8293-A4B5C6D7E8F9/Library/Safari/Profiles/Work/History.db",
    );
    for p in [&default, &named] {
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::copy(&real, p).unwrap();
    }
    let o = triage(tmp.path(), "UTC");
    assert_all_accepted(&o);
    let visits: Vec<&Phenomenon> = o
        .category("web")
        .into_iter()
        .filter(|p| p.title.starts_with("Safari visit"))
        .collect();
    assert_eq!(visits.len(), 50, "25 visits in each copy");
    let want = sqlite3_rows(
        &real,
        "SELECT v.id, i.url, i.visit_count, ifnull(v.title,''), ifnull((SELECT i2.url FROM history_visits v2 JOIN history_items i2 ON i2.id = v2.history_item WHERE v2.id = v.redirect_source),''), ifnull((SELECT i2.url FROM history_visits v2 JOIN history_items i2 ON i2.id = v2.history_item WHERE v2.id = v.redirect_destination),''), v.visit_time FROM history_visits v JOIN history_items i ON i.id = v.history_item",
    );
    assert_eq!(want.len(), 25);
    let mut missing = Vec::new();
    for profile in ["profile Default", "profile Work"] {
        for r in &want {
            let Some(p) = visits.iter().find(|p| {
                p.title.starts_with(&format!("Safari visit {} ", r[0]))
                    && p.interpretation.contains(profile)
            }) else {
                missing.push(format!("{profile}: visit {}", r[0]));
                continue;
            };
            for v in &r[1..6] {
                if !v.is_empty() && !has(p, v) {
                    missing.push(format!("{profile} visit {}: {v}", r[0]));
                }
            }
            let t: f64 = r[6].parse().unwrap();
            if !unix_times(p)
                .iter()
                .any(|(_, s)| *s == t.floor() as i64 + APPLE_EPOCH)
            {
                missing.push(format!("{profile} visit {}: time {}", r[0], r[6]));
            }
        }
    }
    assert!(missing.is_empty(), "{missing:#?}");
    // plaso's asserted event: facebook.com visited twice, then redirected.
    let fb = visits
        .iter()
        .find(|p| p.title == "Safari visit 37 to http://facebook.com/")
        .unwrap();
    assert!(has(fb, "2") && has(fb, "https://www.facebook.com/"));
}

#[test]
fn ios_ileapp_keyboard_lexicon_and_usage_statistics_on_two_devices() {
    for case in ["belkasoft_ctf6_ios_device1", "mvs_ios_2023"] {
        let o = triage(
            &ileapp(&format!("testdata.keyboard.keyboardLexicon.{case}.zip")),
            "UTC",
        );
        assert_all_accepted(&o);
        let lexicons = o.category("keyboard");
        let lex = lexicons
            .iter()
            .find(|p| p.title.starts_with("Keyboard lexicon (en)"))
            .unwrap_or_else(|| panic!("{case}: no lexicon"));
        let exp = expected(&format!("keyboard.keyboardLexicon.{case}"));
        let words = cell(&exp, &exp["data"][0], "Found Strings");
        for w in words.split(',') {
            // iLEAPP decodes the file as UTF-8 and drops invalid bytes, which glues a binary
            // entry header's printable bytes ("N.", "N+?", "N*", "N$") to the word after it;
            // the word itself is what the keyboard learned.
            // Like iLEAPP, a run of fewer than three characters is no word: only the glued
            // header makes iLEAPP keep "N*Gr", whose word alone ("Gr") is too short.
            let tail = w
                .trim_start_matches('N')
                .trim_start_matches(|c: char| !c.is_alphanumeric() && c != '?');
            let found = has(lex, w)
                || (w.starts_with('N')
                    && (1..w.len())
                        .any(|i| w.is_char_boundary(i) && w[i..].len() >= 3 && has(lex, &w[i..])))
                || (w.starts_with('N') && tail.len() < 3);
            assert!(found, "{case}: {w} not among {:?}", lex.verified_facts);
        }
        let o = triage(
            &ileapp(&format!("testdata.keyboard.keyboardUsageStats.{case}.zip")),
            "UTC",
        );
        assert_all_accepted(&o);
        let stats = o.category("keyboard");
        let exp = expected(&format!("keyboard.keyboardUsageStats.{case}"));
        let rows = exp["data"].as_array().unwrap();
        let stats: Vec<&&Phenomenon> = stats
            .iter()
            .filter(|p| p.title.starts_with("Keyboard statistic"))
            .collect();
        assert_eq!(stats.len(), rows.len(), "{case}");
        for row in rows {
            let key = cell(&exp, row, "Key");
            let p = stats
                .iter()
                .find(|p| has(p, &key))
                .unwrap_or_else(|| panic!("{case}: {key}"));
            assert!(has(p, &cell(&exp, row, "Data Value")), "{case} {key}");
            for h in ["Creation Date", "Last Update Date"] {
                let want: i64 = cell(&exp, row, h).parse().unwrap();
                assert!(unix_marks(p).contains(&want), "{case} {key} {h}");
            }
        }
    }
}

#[test]
fn ios_safari_downloads_empty_on_ileapps_case_and_read_from_a_plistlib_history() {
    let o = triage(
        &ileapp("testdata.safariDownloads.safariDownloads.josh_ios17_ffs.zip"),
        "UTC",
    );
    assert_all_accepted(&o);
    let web = o.category("web");
    assert_eq!(
        web.len(),
        1,
        "iLEAPP reports 0 rows; one phenomenon says the history is empty"
    );
    assert_eq!(web[0].title, "Safari downloads: none recorded");

    // A populated history, written as a binary plist by Python's plistlib with the keys
    // iLEAPP's module reads.
    let tmp = tempfile::tempdir().unwrap();
    let plist = tmp.path().join(
        "private/var/mobile/Containers/Data/Application/90F2C1EE-68DD-4243-B040-007638E92E37/Library/Safari/Downloads/Downloads.plist",
    );
    std::fs::create_dir_all(plist.parent().unwrap()).unwrap();
    let script = r#"
import plistlib, sys, datetime
entry = {
    "DownloadEntryURL": "https://example.org/files/wallet-backup.pdf",
    "DownloadEntryPath": "/private/var/mobile/Downloads/wallet-backup.pdf",
    "DownloadEntryProgressBytesSoFar": 48213,
    "DownloadEntryProgressTotalToLoad": 48213,
    "DownloadEntryIdentifier": "5C1D3E2A-7B4F-4A11-9C0D-2F3E4A5B6C7D",
    "DownloadEntrySandboxIdentifier": "0B8E4F3C-1A2D-4E5F-8071-92A3B4C5D6E7",
    "DownloadEntryRemoveWhenDoneKey": False,
    "DownloadEntryDateAddedKey": datetime.datetime(2024, 3, 5, 14, 7, 9),
    "DownloadEntryBookmarkBlob": b"\x00\x01bookmark",
    "DownloadEntryProfileUUIDStringKey": "DefaultProfile",
}
with open(sys.argv[1], "wb") as f:
    plistlib.dump({"DownloadHistory": [entry]}, f, fmt=plistlib.FMT_BINARY)
"#;
    let st = std::process::Command::new("python3")
        .args(["-c", script])
        .arg(&plist)
        .status()
        .unwrap();
    assert!(st.success());
    let o = triage(tmp.path(), "UTC");
    assert_all_accepted(&o);
    let web = o.category("web");
    let d = web
        .iter()
        .find(|p| {
            p.title
                .starts_with("Safari download 1 of https://example.org/files/wallet-backup.pdf")
        })
        .unwrap_or_else(|| panic!("{:?}", web.iter().map(|p| &p.title).collect::<Vec<_>>()));
    for v in [
        "/private/var/mobile/Downloads/wallet-backup.pdf",
        "48213",
        "5C1D3E2A-7B4F-4A11-9C0D-2F3E4A5B6C7D",
        "0B8E4F3C-1A2D-4E5F-8071-92A3B4C5D6E7",
    ] {
        assert!(has(d, v), "{v}");
    }
    assert_eq!(
        unix_times(d).first().map(|(_, s)| *s),
        Some(1_709_647_629),
        "2024-03-05T14:07:09Z"
    );
    assert!(
        d.interpretation
            .contains("DownloadEntryProfileUUIDStringKey")
    );
    assert!(!d.interpretation.contains("BookmarkBlob"));
}
