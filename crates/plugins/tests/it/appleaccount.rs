//! The devices of the phone's Apple Account (`ios::appleaccount`): an iPhone's akd
//! `devicelist.db`, its trust circle's `TrustedPeersHelper.db` (the peer records DER, written by
//! OpenSSL), the Find My daemon's device list (a keyed archive in a data value) and the Find My
//! iPhone account, and an iPad of the same account — written by
//! `tests/fixtures/appleaccount/appleaccount.py` (sqlite3, plistlib, openssl; no public copy is
//! in the corpus). The generator's record is the oracle: every device, removed device, trusted
//! peer (with its own record's fields) and Find My device is found; the account's devices are
//! observed by serial and IMEI, so the iPad's own extraction is the same device once resolved
//! and the phone's own row joins the phone; the Find My token is never copied; the trust
//! circle's empty context database and a foreign device list are noted, the rest still read.

use crate::android_support::{generate, has_fact, triage};
use crate::who::resolved;

#[test]
fn apple_account_devices_link_the_ipad_and_name_the_mac() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/appleaccount/appleaccount.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (phone, ipad) = (tmp.path().join("phone"), tmp.path().join("ipad"));
    // a second phone whose device list has a foreign schema: noted, the rest still read
    let other = tmp.path().join("other");
    let copy = std::process::Command::new("cp")
        .arg("-r")
        .arg(&phone)
        .arg(&other)
        .status()
        .unwrap();
    assert!(copy.success());
    let db =
        other.join("private/var/mobile/Library/Application Support/com.apple.akd/devicelist.db");
    let st = std::process::Command::new("sqlite3")
        .arg(&db)
        .arg("ALTER TABLE device_list RENAME COLUMN name TO device_title;")
        .status()
        .unwrap();
    assert!(st.success());

    let run = triage(&[
        ("phone", &phone, "Europe/Berlin", Some("DE")),
        ("ipad", &ipad, "Europe/Berlin", Some("DE")),
        ("other", &other, "Europe/Berlin", Some("DE")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    let all = run.all_phenomena("phone");
    let find = |title: &str| {
        all.iter().find(|p| p.title == title).unwrap_or_else(|| {
            panic!(
                "{title} in {:#?}",
                all.iter().map(|p| &p.title).collect::<Vec<_>>()
            )
        })
    };
    let s = |v: &serde_json::Value| v.as_str().unwrap().to_string();

    // akd's device list: every field iLEAPP reports
    for d in o["devices"].as_array().unwrap() {
        let p = find(&format!(
            "Apple Account device: {} ({})",
            s(&d["name"]),
            s(&d["model"])
        ));
        for k in ["serial", "os_version", "build", "mid"] {
            assert!(has_fact(p, &s(&d[k])), "{k}: {p:#?}");
        }
        for i in d["imeis"].as_array().unwrap() {
            assert!(has_fact(p, &s(i)), "imei {i}: {p:#?}");
        }
        assert!(has_fact(p, &d["updated"].to_string()));
        assert_eq!(p.times.len(), 2, "{p:#?}");
    }
    let removed = &o["deleted"][0];
    let p = find(&format!(
        "Apple Account device removed: machine id {}",
        s(&removed["mid"])
    ));
    assert!(
        has_fact(p, &removed["deleted"].to_string()) && has_fact(p, &removed["reason"].to_string())
    );

    // the trust circle: escrow records with the peer's own DER record
    for peer in o["peers"].as_array().unwrap() {
        let p = find(&format!(
            "Apple Account trusted peer: {} ({})",
            s(&peer["name"]),
            s(&peer["model"])
        ));
        assert!(has_fact(p, &s(&peer["serial"])), "{p:#?}");
        assert!(has_fact(p, &peer["passcode_length"].to_string()));
        for (k, v) in peer["gestalt"].as_object().unwrap() {
            assert!(has_fact(p, v.as_str().unwrap()), "{k}: {p:#?}");
            assert!(p.interpretation.contains(v.as_str().unwrap()), "{k}");
        }
        assert_eq!(p.times.len(), 1);
    }

    // Find My's device list, from the keyed archive inside the property list
    for d in o["fmf"].as_array().unwrap() {
        let p = find(&format!("Find My device: {}", s(&d["name"])));
        assert!(
            has_fact(p, &s(&d["id"])) && has_fact(p, &s(&d["ids"])),
            "{p:#?}"
        );
        let this = if d["this"] == true { "yes" } else { "no" };
        assert!(
            p.interpretation.contains(&format!("this device {this}")),
            "{}",
            p.interpretation
        );
    }

    // the Find My iPhone account: its Apple ID the owner's, its token never copied
    let p = find("Find My iPhone account");
    let fmip = &o["fmip"];
    for k in ["username", "personID", "authMechanism", "accountType"] {
        assert!(has_fact(p, &s(&fmip[k])), "{k}: {p:#?}");
    }
    assert_eq!(p.times.len(), 1);
    let token = s(&fmip["fmipAuthToken"]);
    for q in &all {
        let text = format!("{} {} {:?}", q.title, q.interpretation, q.verified_facts);
        assert!(!text.contains(&token), "{text}");
    }
    assert!(
        p.interpretation
            .contains("fmipAuthToken kept, their values not copied")
    );
    let owner = run.owner("phone");
    assert!(
        owner.contains("apple_id=anna.k@icloud.com") && owner.contains("dsid=11223344556"),
        "{owner}"
    );

    // identities: the account's devices by serial and IMEI
    let ids = run.identifiers("phone");
    for serial in ["ipad_serial", "mac_serial", "phone_serial"] {
        let v = s(&o[serial]);
        assert!(
            ids.contains(&("serial".into(), v.clone())),
            "{v} in {ids:?}"
        );
    }
    assert!(
        ids.contains(&("imei".into(), "358765432109870".into())),
        "{ids:?}"
    );
    assert!(
        ids.contains(&("device_name".into(), "anna's iphone".into())),
        "{ids:?}"
    );
    run.assert_noted(
        "phone",
        &[(
            "com.apple.security.keychain-.TrustedPeersHelper.db",
            "no ZESCROWCLIENTMETADATA table",
        )],
    );
    run.assert_noted("other", &[("devicelist.db", "device_list lacks name")]);
    assert!(
        run.all_phenomena("other")
            .iter()
            .any(|p| p.title.starts_with("Apple Account trusted peer: ")),
        "the rest of the source is still read"
    );

    // resolution: the iPad's own extraction is the account's iPad
    let with = resolved(&run);
    let ipad_device = with("ipad/device");
    let serial = s(&o["ipad_serial"]);
    assert!(
        ipad_device.contains(&format!("phone/apple-device:{serial}")),
        "{ipad_device:?}"
    );
}
