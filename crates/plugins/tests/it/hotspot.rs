//! The phone's Wi-Fi hotspot (`android::hotspot`): `WifiConfigStoreSoftAp.xml` of Android 13
//! (apexdata path, `WifiSsid`, a blocked and an allowed client) and Android 10 (`misc/wifi`,
//! `SSID`), in the layout AOSP's `SoftApStoreData` writes through `XmlUtil`, and a file of another
//! root. The XML is the oracle (ALEAPP's `wifiHotspot` reads the same SSID and security type):
//! the name, security type (said by SoftApConfiguration's number), band, channel, hidden flag and
//! clients are found; the passphrase is never a fact, only said to be stored; the foreign file is
//! noted.

use crate::android_support::{has_fact, triage};

const A13: &str = r#"<?xml version='1.0' encoding='utf-8' standalone='yes' ?>
<WifiConfigStoreData>
<int name="Version" value="3" />
<SoftAp>
<string name="WifiSsid">&quot;Lena&apos;s Galaxy S22&quot;</string>
<boolean name="HiddenSSID" value="false" />
<int name="SecurityType" value="1" />
<string name="Passphrase">correct horse battery</string>
<int name="ApBand" value="3" />
<int name="Channel" value="0" />
<int name="MaxNumberOfClients" value="0" />
<boolean name="ClientControlByUser" value="true" />
<BlockedClientList>
<string name="ClientMacAddress">3a:1f:9c:22:7e:01</string>
</BlockedClientList>
<AllowedClientList>
<string name="ClientMacAddress">d2:44:10:ab:cd:ef</string>
</AllowedClientList>
</SoftAp>
</WifiConfigStoreData>
"#;

const A10: &str = r#"<?xml version='1.0' encoding='utf-8' standalone='yes' ?>
<WifiConfigStoreData>
<int name="Version" value="1" />
<SoftAp>
<string name="SSID">AndroidAP_5521</string>
<int name="Band" value="0" />
<int name="Channel" value="6" />
<boolean name="HiddenSSID" value="true" />
<int name="SecurityType" value="0" />
</SoftAp>
</WifiConfigStoreData>
"#;

#[test]
fn hotspot_name_security_and_clients_never_its_passphrase() {
    let tmp = tempfile::tempdir().unwrap();
    let roots: Vec<_> = ["a13", "a10", "foreign"]
        .iter()
        .map(|n| tmp.path().join(n))
        .collect();
    for (root, dir, text) in [
        (&roots[0], "data/misc/apexdata/com.android.wifi", A13),
        (&roots[1], "data/misc/wifi", A10),
        (
            &roots[2],
            "data/misc/wifi",
            "<?xml version='1.0'?>\n<map />\n",
        ),
    ] {
        std::fs::create_dir_all(root.join(dir)).unwrap();
        std::fs::create_dir_all(root.join("data/system/users/0")).unwrap();
        std::fs::write(root.join(dir).join("WifiConfigStoreSoftAp.xml"), text).unwrap();
    }
    let run = triage(&[
        ("a13", &roots[0], "UTC", Some("CH")),
        ("a10", &roots[1], "UTC", Some("CH")),
        ("foreign", &roots[2], "UTC", Some("CH")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    let a13 = run.all_phenomena("a13");
    let p = a13
        .iter()
        .find(|p| p.title == "Wi-Fi hotspot Lena's Galaxy S22")
        .unwrap_or_else(|| panic!("{a13:#?}"));
    assert_eq!(p.category, "wifi");
    for v in [
        "&quot;Lena&apos;s Galaxy S22&quot;",
        "3a:1f:9c:22:7e:01",
        "d2:44:10:ab:cd:ef",
        "3",
    ] {
        assert!(has_fact(p, v), "{v}: {p:#?}");
    }
    assert!(
        !p.verified_facts.iter().any(|f| f.value.contains("horse"))
            && !p.interpretation.contains("horse"),
        "{p:#?}"
    );
    assert!(
        p.interpretation.contains("SecurityType 1 (WPA2-PSK)")
            && p.interpretation
                .contains("BlockedClientList ClientMacAddress 3a:1f:9c:22:7e:01")
            && p.interpretation.contains("its Passphrase is stored"),
        "{}",
        p.interpretation
    );
    let a10 = run.all_phenomena("a10");
    let p = a10
        .iter()
        .find(|p| p.title == "Wi-Fi hotspot AndroidAP_5521")
        .unwrap_or_else(|| panic!("{a10:#?}"));
    assert!(
        p.interpretation.contains("HiddenSSID true")
            && p.interpretation.contains("SecurityType 0 (open)")
            && !p.interpretation.contains("Passphrase"),
        "{}",
        p.interpretation
    );
    run.assert_noted(
        "foreign",
        &[("WifiConfigStoreSoftAp.xml", "not <WifiConfigStoreData>")],
    );
}
