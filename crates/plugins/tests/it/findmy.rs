//! Find My's items (`ios::findmy`): Noor's iPhone, whose Apple Account owns an AirTag on her
//! keys, and Sam's iPhone, with which she shared it (iOS 17 item sharing: the item names its
//! owner), each `Items.data` written by Python's `json` with the keys iLEAPP's `findMyItems`
//! module reads (no public copy is in the corpus). The oracle: iLEAPP's four artefacts' key
//! paths read by Python from the same file; every value is found on the item's phenomenon or
//! its position's. The AirTag is one accessory across both phones (its serial number); the
//! owner named by e-mail is a person on Sam's phone. Beside them an iOS 17.5 file (a property
//! list holding `encryptedData`, written by plistlib) and a truncated one, each noted.

use std::path::Path;

use crate::android_support::triage;

/// argv: Noor's Items.data, Sam's, the encrypted one, the truncated one.
const WRITE: &str = r#"
import json, plistlib, sys
noor, sam, enc, cut = sys.argv[1:5]
def tag(owner, lost):
    return {
        "name": "Keys", "serialNumber": "H0TK72QXP0GV", "identifier": "6E1C2A90-4F7B-4C1E-9D3A-0B5D7E2F8A11",
        "role": {"name": "Keys", "emoji": "🔑", "identifier": 3},
        "productType": {"type": "b389", "productInformation": {"manufacturerName": "Apple Inc.", "productIdentifier": 21760, "vendorIdentifier": 76, "antennaPower": 4}},
        "groupIdentifier": None, "owner": owner, "batteryStatus": 1, "lostModeMetadata": lost,
        "capabilities": 1015, "systemVersion": "2.0.73",
        "location": {"timeStamp": 1701340800123, "positionType": "crowdsourced", "verticalAccuracy": 0, "longitude": 8.541694, "latitude": 47.376887, "isInaccurate": False, "isOld": False, "horizontalAccuracy": 12.5, "altitude": 0, "locationFinished": True, "floorLevel": None},
        "address": {"subAdministrativeArea": "Zurich", "label": "Bahnhofstrasse 1", "streetAddress": "1", "countryCode": "CH", "stateCode": "ZH", "administrativeArea": "Zurich", "streetName": "Bahnhofstrasse", "formattedAddressLines": ["Bahnhofstrasse 1", "8001 Zurich", "Switzerland"], "mapItemFullAddress": "Bahnhofstrasse 1, 8001 Zurich, Switzerland", "fullThroroughfare": "Bahnhofstrasse 1", "areaOfInterest": ["Altstadt"], "locality": "Zurich", "country": "Switzerland"},
        "crowdSourcedLocation": {"timeStamp": 1701340700456, "positionType": "crowdsourced", "verticalAccuracy": 0, "longitude": 8.54012, "latitude": 47.37655, "altitude": 0, "floorLevel": None, "isInaccurate": False, "isOld": True, "horizontalAccuracy": 35.2, "locationFinished": True},
        "safeLocations": [{"name": "Home", "type": 1, "identifier": "SAFE-1", "location": {"timeStamp": 1699000000000, "verticalAccuracy": 0, "horizontalAccuracy": 20, "longitude": 8.5301, "latitude": 47.3612, "floorLevel": 2, "isInaccurate": False, "isOld": False, "altitude": 410}, "address": {"subAdministrativeArea": "Zurich", "label": "Seestrasse 12", "streetAddress": "12", "countryCode": "CH", "stateCode": "ZH", "administrativeArea": "Zurich", "streetName": "Seestrasse", "formattedAddressLines": ["Seestrasse 12", "8002 Zurich"], "mapItemFullAddress": "Seestrasse 12, 8002 Zurich", "fullThroroughfare": "Seestrasse 12", "areaOfInterest": [], "locality": "Zurich", "country": "Switzerland"}}],
    }
wallet = dict(tag(None, None))
wallet.update({"name": "Wallet", "serialNumber": "H0TK88RZQ1LM", "identifier": "0D9E4B22-7A61-4E0B-8C55-3F2A1B9C6D77", "role": {"name": "Wallet", "emoji": "👛", "identifier": 7}, "safeLocations": []})
del wallet["crowdSourcedLocation"]
json.dump([tag(None, None), wallet], open(noor, "w"), ensure_ascii=False)
json.dump([tag("noor.haddad@icloud.com", {"email": "noor.haddad@icloud.com", "phoneNumber": "+41795550142", "message": "Please call me"})], open(sam, "w"), ensure_ascii=False)
plistlib.dump({"encryptedData": b"\x8f" * 64}, open(enc, "wb"), fmt=plistlib.FMT_BINARY)
open(cut, "w").write(json.dumps([tag(None, None)])[:300])
"#;

/// iLEAPP's key paths, read by Python: `kind<TAB>item name<TAB>value…`, one value per scalar
/// (a list's items one by one, JSON for non-strings as a JSON reader prints them).
const ORACLE: &str = r#"
import json, sys
def flat(v):
    if v is None: return []
    if isinstance(v, list): return [x for i in v for x in flat(i)]
    if isinstance(v, dict): return [x for i in v.values() for x in flat(i)]
    return [v if isinstance(v, str) else json.dumps(v)]
for x in json.load(open(sys.argv[1])):
    p = x["productType"]; pi = p["productInformation"]
    info = [x["name"], x["serialNumber"], x["identifier"], x["role"].get("name"), x["role"].get("emoji"), x["role"].get("identifier"), p.get("type"), pi.get("manufacturerName"), pi.get("productIdentifier"), pi.get("vendorIdentifier"), pi.get("antennaPower"), x["groupIdentifier"], x.get("owner"), x["batteryStatus"], x["lostModeMetadata"], x["capabilities"], x["systemVersion"]]
    print("\t".join(["info", x["name"]] + [y for v in info for y in flat(v)]))
    l, a = x["location"], x["address"]
    loc = [l.get(k) for k in ("timeStamp", "positionType", "verticalAccuracy", "longitude", "isInaccurate", "isOld", "horizontalAccuracy", "latitude", "altitude", "locationFinished")]
    addr = [a.get(k) for k in ("subAdministrativeArea", "label", "streetAddress", "countryCode", "stateCode", "administrativeArea", "streetName", "formattedAddressLines", "mapItemFullAddress", "fullThroroughfare", "areaOfInterest", "locality", "country")]
    print("\t".join(["last location", x["name"]] + [y for v in loc + addr for y in flat(v)]))
    if "crowdSourcedLocation" in x:
        c = x["crowdSourcedLocation"]
        print("\t".join(["crowd-sourced location", x["name"]] + [y for k in ("timeStamp", "positionType", "verticalAccuracy", "longitude", "latitude", "altitude", "floorLevel", "isInaccurate", "isOld", "horizontalAccuracy", "locationFinished") for y in flat(c.get(k))]))
    for s in x.get("safeLocations"):
        sl, sa = s["location"], s["address"]
        vals = [s.get("name"), s.get("type"), s.get("identifier")] + [sl.get(k) for k in ("timeStamp", "verticalAccuracy", "horizontalAccuracy", "longitude", "latitude", "floorLevel", "isInaccurate", "isOld", "altitude")] + [sa.get(k) for k in ("subAdministrativeArea", "label", "countryCode", "stateCode", "administrativeArea", "streetName", "formattedAddressLines", "mapItemFullAddress", "fullThroroughfare", "areaOfInterest", "locality", "country")]
        print("\t".join(["safe location " + s["name"], x["name"]] + [y for v in vals for y in flat(v)]))
"#;

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn find_my_items_on_two_iphones_and_an_encrypted_and_a_truncated_file() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = |phone: &str, user: &str| {
        let d = tmp.path().join(phone).join(format!(
            "private/var/{user}/Library/Caches/com.apple.findmy.fmipcore"
        ));
        std::fs::create_dir_all(&d).unwrap();
        std::fs::create_dir_all(tmp.path().join(phone).join("private/var/mobile/Library")).unwrap();
        d.join("Items.data")
    };
    let (noor, sam) = (dir("noor", "mobile"), dir("sam", "mobile"));
    let enc = dir("sam", "mobile/Containers/Data/Application/A1B2");
    let cut = dir("noor", "mobile/Containers/Data/Application/C3D4");
    let st = std::process::Command::new("python3")
        .args(["-c", WRITE, s(&noor), s(&sam), s(&enc), s(&cut)])
        .status()
        .unwrap();
    assert!(st.success());
    let run = triage(&[
        (
            "noor",
            &tmp.path().join("noor"),
            "Europe/Zurich",
            Some("CH"),
        ),
        ("sam", &tmp.path().join("sam"), "Europe/Zurich", Some("CH")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for (source, file, items) in [("noor", &noor, 2), ("sam", &sam, 1)] {
        let all = run.all_phenomena(source);
        for p in &all {
            assert!(p.warnings.is_empty(), "{}: {:#?}", p.title, p.warnings);
        }
        let out = std::process::Command::new("python3")
            .args(["-c", ORACLE, s(file)])
            .output()
            .unwrap();
        assert!(out.status.success());
        let rows = String::from_utf8(out.stdout).unwrap();
        let mut seen = 0;
        for row in rows.lines() {
            let cols: Vec<&str> = row.split('\t').collect();
            let (kind, name) = (cols[0], cols[1]);
            let title = if kind == "info" {
                format!("Find My item {name}")
            } else {
                format!("Find My {kind} of {name}")
            };
            let p = all
                .iter()
                .find(|p| p.title == title)
                .unwrap_or_else(|| panic!("{source}: {title}: {:#?}", run.phenomena(source)));
            for v in &cols[2..] {
                assert!(
                    p.verified_facts.iter().any(|f| f.value == *v),
                    "{source}: {v} in {p:#?}"
                );
            }
            seen += 1;
        }
        // per item: the item, its last location, (the Keys) a crowd-sourced and a safe one
        assert_eq!(seen, if items == 2 { 6 } else { 4 }, "{source}: {rows}");
        assert_eq!(
            all.iter()
                .filter(|p| p.title.starts_with("Find My item"))
                .count(),
            items
        );
        let last = all
            .iter()
            .find(|p| p.title == "Find My last location of Keys")
            .unwrap();
        assert_eq!(last.times.len(), 1, "{last:#?}");
    }
    // the owner named by e-mail, and her lost-mode phone, on Sam's phone
    let sam_ids = run.identifiers("sam");
    assert!(
        sam_ids.contains(&("email".into(), "noor.haddad@icloud.com".into())),
        "{sam_ids:?}"
    );
    // the AirTag is one accessory on both phones (its serial number)
    let with = crate::who::resolved(&run);
    let keys = "findmy-item:6E1C2A90-4F7B-4C1E-9D3A-0B5D7E2F8A11";
    assert!(
        with(&format!("noor/{keys}")).contains(&format!("sam/{keys}")),
        "{:#?}",
        with(&format!("noor/{keys}"))
    );
    run.assert_noted(
        "sam",
        &[(
            "A1B2/Library/Caches/com.apple.findmy.fmipcore/Items.data",
            "encrypted: a property list holding encryptedData",
        )],
    );
    run.assert_noted(
        "noor",
        &[(
            "C3D4/Library/Caches/com.apple.findmy.fmipcore/Items.data",
            "not JSON",
        )],
    );
}
