//! Apple Wallet on iOS (`ios::applewallet`): Ava's and Ben's iPhones, their `passes23.sqlite`
//! (the second of an older layout without the location columns) written by Python's `sqlite3`
//! with the columns iLEAPP's `appleWalletTransactions` reads, their passes' `pass.json` by
//! `json` in PassKit's format, and Ava's Watch store `nanopasses.sqlite3` with binary property
//! lists by `plistlib`; no public copy is in the corpus. Every row and field of iLEAPP's
//! queries (run by the sqlite3 CLI) and every value of its pass reading (by Python) is found;
//! a peer payment's counterpart is a person by number. Beside them a truncated store and a
//! malformed pass (noted).

use std::path::Path;

use crate::android_support::{check, triage};

/// argv[1]: the root of Ava's tree, argv[2]: Ben's; prints every value iLEAPP's pass and Watch
/// readings show, one per line as `<pass>\t<value>`.
const WRITE: &str = r#"
import json, os, plistlib, sqlite3, sys
ava, ben = sys.argv[1], sys.argv[2]
def mk(p):
    os.makedirs(os.path.dirname(p), exist_ok=True)
    return p
lib = 'private/var/mobile/Library'
db = sqlite3.connect(mk(os.path.join(ava, lib, 'Passes/passes23.sqlite')))
db.execute('CREATE TABLE payment_transaction (pid INTEGER PRIMARY KEY, identifier TEXT, transaction_date REAL, merchant_name TEXT, locality TEXT, administrative_area TEXT, amount INTEGER, currency_code TEXT, location_date REAL, location_latitude REAL, location_longitude REAL, location_altitude REAL, peer_payment_counterpart_handle TEXT, peer_payment_memo TEXT, transaction_status INTEGER, transaction_type INTEGER)')
rows = [
    ('A1', 722001000.5, 'Blue Bottle Coffee', 'Chicago', 'IL', 125000, 'USD', 722001002.0, 41.8781, -87.6298, 181.2, None, None, 1, 0),
    ('A2', 722002000.0, None, None, None, 2500000, 'USD', None, None, None, None, '+13125550177', 'rent, or send 0.5 ETH to 0x52908400098527886E0F7030069857D2E4169EE7', 1, 3),
    ('A3', 722003000.0, None, None, None, 100000, 'USD', None, None, None, None, 'lena.vogt@example.net', 'thanks', 2, 3),
]
for r in rows:
    db.execute('INSERT INTO payment_transaction (identifier, transaction_date, merchant_name, locality, administrative_area, amount, currency_code, location_date, location_latitude, location_longitude, location_altitude, peer_payment_counterpart_handle, peer_payment_memo, transaction_status, transaction_type) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)', r)
db.commit()
db = sqlite3.connect(mk(os.path.join(ben, lib, 'Passes/passes23.sqlite')))
db.execute('CREATE TABLE payment_transaction (pid INTEGER PRIMARY KEY, transaction_date REAL, merchant_name TEXT, amount INTEGER, currency_code TEXT, peer_payment_counterpart_handle TEXT, peer_payment_memo TEXT, transaction_status INTEGER, transaction_type INTEGER)')
db.execute("INSERT INTO payment_transaction VALUES (1, 721000000.0, 'Shell', 456700, 'EUR', NULL, NULL, 1, 0)")
db.commit()
passes = {
    ava: [('5F3A.pkpass', {'formatVersion': 1, 'passTypeIdentifier': 'pass.com.example.air', 'serialNumber': 'XK4711-22', 'teamIdentifier': 'A1B2C3D4E5',
        'organizationName': 'Example Air', 'description': 'Boarding pass ORD to ZRH', 'relevantDate': '2023-11-18T18:45:00-06:00',
        'locations': [{'latitude': 41.9742, 'longitude': -87.9073}],
        'barcode': {'message': 'M1KELLER/AVA EXK4711 ORDZRHEX 0042', 'format': 'PKBarcodeFormatPDF417', 'messageEncoding': 'iso-8859-1'},
        'boardingPass': {'transitType': 'PKTransitTypeAir', 'headerFields': [{'key': 'gate', 'label': 'GATE', 'value': 'B12'}],
            'primaryFields': [{'key': 'from', 'label': 'Chicago', 'value': 'ORD'}, {'key': 'to', 'label': 'Zürich', 'value': 'ZRH'}],
            'auxiliaryFields': [{'key': 'seat', 'label': 'SEAT', 'value': '14A'}, {'key': 'name', 'label': 'PASSENGER', 'value': 'Ava Keller'}]}}),
          ('9C1D.pkpass', {'formatVersion': 1, 'passTypeIdentifier': 'pass.com.example.coffee', 'serialNumber': '0031-7766', 'teamIdentifier': 'Z9Y8X7W6V5',
        'organizationName': 'Blue Bottle Coffee', 'description': 'Rewards card', 'sharingProhibited': True,
        'storeCard': {'primaryFields': [{'key': 'balance', 'label': 'BALANCE', 'value': 21.75, 'currencyCode': 'USD'}]}})],
    ben: [('11AA.pkpass', {'formatVersion': 1, 'passTypeIdentifier': 'pass.com.example.tickets', 'serialNumber': 'T-99', 'teamIdentifier': 'Q1W2E3R4T5',
        'organizationName': 'Hallenstadion', 'description': 'Concert ticket', 'expirationDate': '2024-02-01T23:00:00+01:00',
        'eventTicket': {'primaryFields': [{'key': 'event', 'label': 'EVENT', 'value': 'Winter Gala'}], 'backFields': [{'key': 'terms', 'label': 'Terms', 'value': 'No refunds.\nKeep this ticket.'}]}})],
}
def leaves(v):
    if isinstance(v, dict):
        for x in v.values():
            yield from leaves(x)
    elif isinstance(v, list):
        for x in v:
            yield from leaves(x)
    elif not isinstance(v, bool):
        yield v
for root, ps in passes.items():
    for name, doc in ps:
        p = mk(os.path.join(root, lib, 'Passes/Cards', name, 'pass.json'))
        with open(p, 'w', encoding='utf-8') as f:
            json.dump(doc, f, ensure_ascii=False, indent=2)
        # iLEAPP's reading: every key with its value (a nested value: each of its leaves)
        for k, v in json.load(open(p, encoding='utf-8')).items():
            for x in leaves(v):
                print(name + '\t' + (json.dumps(x, ensure_ascii=False)[1:-1] if isinstance(x, str) else str(x)))
# the malformed pass
with open(mk(os.path.join(ben, lib, 'Passes/Cards/BAD0.pkpass/pass.json')), 'w') as f:
    f.write('{"formatVersion": 1, "organizationName": "Cut')
# the Watch's store
db = sqlite3.connect(mk(os.path.join(ava, lib, 'NanoPasses/nanopasses.sqlite3')))
db.execute('CREATE TABLE PASS (pid INTEGER PRIMARY KEY, UNIQUE_ID TEXT, ORGANIZATION_NAME TEXT, TYPE_ID INTEGER, LOCALIZED_DESCRIPTION TEXT, INGESTED_DATE REAL, DELETE_PENDING INTEGER, ENCODED_PASS BLOB, FRONT_FIELD_BUCKETS BLOB, BACK_FIELD_BUCKETS BLOB)')
enc = plistlib.dumps(['pass.com.example.air', {'serialNumber': 'XK4711-22', 'passenger': 'Ava Keller'}], fmt=plistlib.FMT_BINARY)
front = plistlib.dumps([[{'label': 'GATE', 'value': 'B12'}], [{'label': 'SEAT', 'value': '14A'}]], fmt=plistlib.FMT_BINARY)
back = plistlib.dumps([[{'label': 'Baggage', 'value': '1 x 23 kg'}]], fmt=plistlib.FMT_BINARY)
db.execute('INSERT INTO PASS VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?, ?)', ('wXyZ-5F3A', 'Example Air', 1, 'Boarding pass ORD to ZRH', 721999000.0, 0, enc, front, back))
db.commit()
for blob in (enc, front, back):
    for x in leaves(plistlib.loads(blob)):
        print('watch\t' + str(x))
"#;

/// iLEAPP's transactions query (the times as stored).
const TRANSACTIONS: &str = "SELECT transaction_date, merchant_name, locality, administrative_area, CAST(amount AS REAL)/10000, currency_code, location_date, location_latitude, location_longitude, location_altitude, peer_payment_counterpart_handle, peer_payment_memo, transaction_status, transaction_type FROM payment_transaction";

fn write(ava: &Path, ben: &Path) -> Vec<(String, String)> {
    let out = std::process::Command::new("python3")
        .arg("-c")
        .arg(WRITE)
        .arg(ava)
        .arg(ben)
        .output()
        .expect("python3 runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .filter_map(|l| l.split_once('\t'))
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect()
}

#[test]
fn apple_wallet_transactions_and_passes_on_two_iphones() {
    let tmp = tempfile::tempdir().unwrap();
    let (ava, ben) = (tmp.path().join("ava-iphone"), tmp.path().join("ben-iphone"));
    let values = write(&ava, &ben);
    let lib = "private/var/mobile/Library";
    let adb = ava.join(lib).join("Passes/passes23.sqlite");
    let bdb = ben.join(lib).join("Passes/passes23.sqlite");
    let bytes = std::fs::read(&adb).unwrap();
    let cut = ben.join(lib).join("Passes/Restored/passes23.sqlite");
    std::fs::create_dir_all(cut.parent().unwrap()).unwrap();
    std::fs::write(&cut, &bytes[..bytes.len() / 3]).unwrap();
    let run = triage(&[
        ("ava-iphone", &ava, "America/Chicago", Some("US")),
        ("ben-iphone", &ben, "Europe/Zurich", Some("CH")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    let all = run.all_phenomena("ava-iphone");
    for p in &all {
        assert!(p.warnings.is_empty(), "{}: {:#?}", p.title, p.warnings);
    }
    // every row and field of iLEAPP's query, on both layouts
    assert_eq!(
        check(&all, "Apple Wallet transaction", &adb, TRANSACTIONS, 0),
        3
    );
    let ball = run.all_phenomena("ben-iphone");
    assert_eq!(
        check(
            &ball,
            "Apple Wallet transaction",
            &bdb,
            "SELECT transaction_date, merchant_name, CAST(amount AS REAL)/10000, currency_code, transaction_status, transaction_type FROM payment_transaction",
            0
        ),
        1
    );
    assert!(
        all.iter()
            .any(|p| p.title == "Apple Wallet transaction with Blue Bottle Coffee: 12.5 USD")
    );
    // every value iLEAPP's pass readings show, in the pass (or Watch pass) it belongs to
    let passes: Vec<&masf_graph::Phenomenon> = all
        .iter()
        .chain(ball.iter())
        .filter(|p| p.title.contains("Wallet pass"))
        .collect();
    assert_eq!(passes.len(), 4);
    assert!(values.len() > 30, "{values:?}");
    for (pass, value) in &values {
        let p = passes
            .iter()
            .find(|p| {
                if pass == "watch" {
                    p.title.starts_with("Apple Watch")
                } else {
                    p.verified_facts
                        .iter()
                        .any(|f| f.value.contains(pass.as_str()))
                }
            })
            .unwrap_or_else(|| panic!("{pass}"));
        assert!(
            p.verified_facts.iter().any(|f| f.value == *value),
            "{pass}: {value} in {p:#?}"
        );
    }
    assert_eq!(
        check(
            &all,
            "Apple Watch Wallet pass",
            &ava.join(lib).join("NanoPasses/nanopasses.sqlite3"),
            "SELECT UNIQUE_ID, ORGANIZATION_NAME, TYPE_ID, LOCALIZED_DESCRIPTION, INGESTED_DATE, DELETE_PENDING FROM PASS",
            0
        ),
        1
    );
    let boarding = all
        .iter()
        .find(|p| p.title == "Apple Wallet pass (boardingPass): Boarding pass ORD to ZRH")
        .expect("boarding pass");
    assert!(
        boarding
            .times
            .iter()
            .any(|t| t.description == "Wallet pass relevant"),
        "{boarding:#?}"
    );
    // the peer payment's counterpart: a person by number; the other by e-mail
    let ids = run.identifiers("ava-iphone");
    assert!(
        ids.iter().any(|(t, v)| t == "phone" && v == "+13125550177"),
        "{ids:#?}"
    );
    assert!(
        ids.iter()
            .any(|(t, v)| t == "email" && v == "lena.vogt@example.net"),
        "{ids:#?}"
    );
    run.assert_noted(
        "ben-iphone",
        &[
            ("Restored/passes23.sqlite", "malformed"),
            ("BAD0.pkpass/pass.json", ""),
        ],
    );
}
