//! Runtime permissions (`android::runtimeperms`) of two Android phones: phone A's
//! `misc_de/0/apexdata/com.android.permission/runtime-permissions.xml` in plain XML, phone B's
//! `system/users/0/runtime-permissions.xml` encoded as ABX by the `android_abx` crate, in the
//! layout ALEAPP's runtimePerms reads (`<pkg>` and `<shared-user>`, each `<item name granted
//! flags>`), and a second user's file that is not XML (noted). Every package with each
//! permission, its grant and flags is found; the granted count is in the title.

use crate::android_support::{has_fact, triage};

const A: &str = r#"<?xml version='1.0' encoding='utf-8' standalone='yes' ?>
<runtime-permissions version="10" fingerprint="google/oriole/oriole:14/AP2A.240605.024/11860263:user/release-keys">
  <pkg name="org.telegram.messenger">
    <item name="android.permission.ACCESS_FINE_LOCATION" granted="true" flags="301" />
    <item name="android.permission.CAMERA" granted="true" flags="1" />
    <item name="android.permission.READ_CONTACTS" granted="false" flags="3" />
  </pkg>
  <pkg name="com.whatsapp">
    <item name="android.permission.RECORD_AUDIO" granted="true" flags="0" />
  </pkg>
  <shared-user name="android.uid.phone">
    <item name="android.permission.READ_CALL_LOG" granted="true" flags="32" />
  </shared-user>
</runtime-permissions>
"#;

const B: &str = r#"<?xml version='1.0' encoding='utf-8' standalone='yes' ?>
<runtime-permissions version="9">
  <pkg name="com.zhiliaoapp.musically">
    <item name="android.permission.ACCESS_COARSE_LOCATION" granted="false" flags="1" />
    <item name="android.permission.READ_MEDIA_IMAGES" granted="true" flags="0" />
  </pkg>
</runtime-permissions>
"#;

#[test]
fn runtime_permissions_plain_and_abx_on_two_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let pa = a.join("data/misc_de/0/apexdata/com.android.permission");
    let pb = b.join("data/system/users/0");
    let pb10 = b.join("data/system/users/10");
    for d in [&pa, &pb, &pb10, &a.join("data/system/users/0")] {
        std::fs::create_dir_all(d).unwrap();
    }
    std::fs::write(pa.join("runtime-permissions.xml"), A).unwrap();
    std::fs::write(
        pb.join("runtime-permissions.xml"),
        android_abx::xml_to_abx(B).unwrap(),
    )
    .unwrap();
    std::fs::write(
        pb10.join("runtime-permissions.xml"),
        b"\x00\x01 not xml at all",
    )
    .unwrap();
    let run = triage(&[
        ("a", &a, "Europe/Berlin", Some("DE")),
        ("b", &b, "Europe/Berlin", Some("DE")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for (source, xml) in [("a", A), ("b", B)] {
        let all = run.all_phenomena(source);
        let found: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("Runtime permissions of "))
            .collect();
        // every holder of the XML, with its items
        let mut holders = Vec::new();
        for line in xml.lines().map(str::trim) {
            if let Some(rest) = line
                .strip_prefix("<pkg name=\"")
                .or_else(|| line.strip_prefix("<shared-user name=\""))
            {
                holders.push((rest.split('"').next().unwrap().to_string(), Vec::new(), 0));
            } else if let Some(rest) = line.strip_prefix("<item name=\"") {
                let perm = rest.split('"').next().unwrap().to_string();
                let h = holders.last_mut().unwrap();
                if line.contains("granted=\"true\"") {
                    h.2 += 1;
                }
                h.1.push(perm);
            }
        }
        assert_eq!(found.len(), holders.len(), "{source}: {found:#?}");
        for (name, perms, granted) in &holders {
            let p = found
                .iter()
                .find(|p| has_fact(p, name))
                .unwrap_or_else(|| panic!("{name}"));
            assert_eq!(p.category, "apps");
            assert!(
                p.title.ends_with(&format!("(user 0): {granted} granted")),
                "{}",
                p.title
            );
            for perm in perms {
                assert!(has_fact(p, perm), "{perm}: {p:#?}");
            }
        }
    }
    let a_all = run.all_phenomena("a");
    let tg = a_all
        .iter()
        .find(|p| {
            p.title
                .starts_with("Runtime permissions of org.telegram.messenger")
        })
        .unwrap();
    assert!(
        tg.interpretation
            .contains("android.permission.READ_CONTACTS not granted (flags 3)")
    );
    run.assert_noted("b", &[("system/users/10/runtime-permissions.xml", "")]);
}
