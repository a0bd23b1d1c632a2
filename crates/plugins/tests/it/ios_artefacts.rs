//! iOS artefacts beyond the first core (issue 17 part 2), each against iLEAPP's recorded
//! output for the corpus's test cases: every row and field iLEAPP's module reports is found in
//! a phenomenon's verified facts or time marks.

use masf_graph::Phenomenon;
use serde_json::Value;

use crate::ios::{expected, ileapp};
use crate::ios_support::{assert_all_accepted, triage};

const APPLE_EPOCH: i64 = 978_307_200;

/// The row's value of `header`, as iLEAPP prints it ("" when absent).
fn cell(exp: &Value, row: &Value, header: &str) -> String {
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
fn unix_times(p: &Phenomenon) -> Vec<(String, i64)> {
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

fn has(p: &Phenomenon, v: &str) -> bool {
    p.verified_facts.iter().any(|f| f.value == v)
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
        let apps = o.category("apps");
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
