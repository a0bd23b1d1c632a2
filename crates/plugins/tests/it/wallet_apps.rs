//! Wallet and exchange apps whose stores are not parsed (`masf_plugins::wallet_apps`), on an
//! Android phone and an iPhone built here: Trust Wallet's data on both (an SQLite store written
//! by Python's `sqlite3` module, the address in a text column and another inside a BLOB; an
//! XML shared preference; a preferences plist written by `plistlib`; a binary store standing
//! for Realm, whose writer is not available here — the scan reads bytes, whatever the format),
//! Binance's data folder with no address, and a second Trust Wallet folder on shared storage.
//! Caches, media files and lists of addresses are not named one by one; an address with a bad
//! checksum is not an address; the user's own preferences folder is no app container.
//! Resolution: the address both phones' Trust Wallet holds is one wallet.

use std::path::Path;

use crate::android_support::triage;

/// EIP-55 mixed case (the checksum holds).
const SHARED: &str = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed";
/// The same address with one letter's case flipped: the checksum fails.
const BAD_CASE: &str = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD";
const TRON: &str = "TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW";
const BECH32: &str = "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq";
const EXTERNAL: &str = "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359";

const WRITE: &str = r#"
import os, sys, sqlite3, plistlib
kind, root, shared, bad, tron, bech32, external = sys.argv[1:8]
def write(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    open(path, "wb").write(data if isinstance(data, bytes) else data.encode())
# sixty distinct well-formed (lower-case) addresses: a token list
tokens = "\n".join('"0x%040x"' % (0x1000 + i) for i in range(60))
if kind == "android":
    app = root + "/data/user/0/com.wallet.crypto.trustapp"
    os.makedirs(app + "/databases", exist_ok=True)
    db = sqlite3.connect(app + "/databases/trust_wallet.db")
    db.execute("CREATE TABLE wallet (id INTEGER PRIMARY KEY, name TEXT, address TEXT, extra BLOB)")
    db.execute("INSERT INTO wallet (name, address, extra) VALUES (?, ?, ?)",
               ("Main wallet", shared, b"\x00\x01\x02" + bech32.encode() + b"\xff\xfe"))
    db.execute("INSERT INTO wallet (name, address, extra) VALUES (?, ?, NULL)", ("typo", bad))
    db.commit()
    db.close()
    write(app + "/shared_prefs/com.wallet.crypto.trustapp_preferences.xml",
          "<?xml version='1.0' encoding='utf-8' standalone='yes' ?>\n<map>\n"
          "    <string name=\"current_tron\">%s</string>\n</map>\n" % tron)
    # an MMKV store of the token list (each value after a length byte)
    write(app + "/files/mmkv/token_list", b"".join(b"\x2a" + t.strip('"').encode() for t in tokens.splitlines()))
    write(app + "/cache/http/0a1b", "cached " + external)
    write(app + "/files/logo.png", b"\x89PNG\r\n\x1a\n" + external.encode())
    write(root + "/data/media/0/Android/data/com.wallet.crypto.trustapp/files/walletconnect.log",
          "session proposal from %s\n" % external)
    os.makedirs(root + "/data/user/0/com.binance.dev/shared_prefs", exist_ok=True)
    write(root + "/data/user/0/com.binance.dev/shared_prefs/prefs.xml", "<map><int name=\"launches\" value=\"3\" /></map>\n")
    # more files than a folder's scan takes: the largest are counted, not scanned
    for i in range(301):
        write(root + "/data/user/0/com.binance.dev/files/kline/%03d.bin" % i, b"k" * (64 + i))
    os.makedirs(root + "/data/system/users/0", exist_ok=True)
    os.makedirs(root + "/data/user/0/com.android.providers.telephony", exist_ok=True)
else:
    c = root + "/private/var/mobile/Containers/Data/Application/3C1D9E2A-7B4F-4A8C-9D6E-1F2A3B4C5D6E"
    write(c + "/Library/Preferences/com.sixdays.trust.plist",
          plistlib.dumps({"selectedWallet": shared, "launches": 12}, fmt=plistlib.FMT_BINARY))
    write(c + "/Documents/default.realm", b"T-DB\x00\x00\x00\x00" + b"\x00" * 64 + tron.encode() + b"\x00" * 16)
    write(c + "/Library/Caches/com.sixdays.trust/Cache.db", "cached " + external)
    # the user's own preferences folder names the bundle too: no container
    write(root + "/private/var/mobile/Library/Preferences/com.sixdays.trust.plist",
          plistlib.dumps({"x": external}, fmt=plistlib.FMT_BINARY))
    os.makedirs(root + "/private/var/mobile/Media", exist_ok=True)
    # FrontBoard's application state names imToken's container (no preferences file in it)
    # and Binance's, which this extraction lacks
    im = root + "/private/var/mobile/Containers/Data/Application/9E8D7C6B-5A4F-4E3D-8C2B-1A0F9E8D7C6B"
    write(im + "/Documents/wallet.mmkv", b"\x00\x22" + tron.encode() + b"\x00")
    def archive(fields):
        from plistlib import UID
        objects = ['$null', {'$class': UID(2)}, {'$classname': 'LSApplicationProxy', '$classes': ['LSApplicationProxy', 'NSObject']}]
        for k, v in fields.items():
            objects[1][k] = UID(len(objects))
            objects.append(v)
        return plistlib.dumps({'$version': 100000, '$archiver': 'NSKeyedArchiver', '$top': {'root': UID(1)}, '$objects': objects}, fmt=plistlib.FMT_BINARY)
    fb = root + "/private/var/mobile/Library/FrontBoard"
    os.makedirs(fb, exist_ok=True)
    db = sqlite3.connect(fb + "/applicationState.db")
    db.executescript("""
CREATE TABLE application_identifier_tab (id INTEGER PRIMARY KEY AUTOINCREMENT, application_identifier TEXT UNIQUE NOT NULL);
CREATE TABLE key_tab (id INTEGER PRIMARY KEY AUTOINCREMENT, key TEXT UNIQUE NOT NULL);
CREATE TABLE kvs (id INTEGER PRIMARY KEY AUTOINCREMENT, application_identifier INTEGER, key INTEGER, value BLOB);
INSERT INTO key_tab (key) VALUES ('compatibilityInfo');
INSERT INTO application_identifier_tab (application_identifier) VALUES ('im.token.app'), ('com.czzhao.binance');
""")
    db.execute("INSERT INTO kvs (application_identifier, key, value) VALUES (1, 1, ?), (2, 1, ?)", (
        archive({'bundleIdentifier': 'im.token.app', 'sandboxPath': "/private/var/mobile/Containers/Data/Application/9E8D7C6B-5A4F-4E3D-8C2B-1A0F9E8D7C6B"}),
        archive({'bundleIdentifier': 'com.czzhao.binance', 'sandboxPath': "/private/var/mobile/Containers/Data/Application/00000000-1111-4222-8333-444444444444"})))
    db.commit()
"#;

fn write(kind: &str, root: &Path) {
    let st = std::process::Command::new("python3")
        .args(["-c", WRITE, kind])
        .arg(root)
        .args([SHARED, BAD_CASE, TRON, BECH32, EXTERNAL])
        .status()
        .unwrap();
    assert!(st.success());
}

fn values(p: &masf_graph::Phenomenon) -> Vec<String> {
    p.verified_facts.iter().map(|f| f.value.clone()).collect()
}

#[test]
fn wallet_apps_on_an_android_phone_and_an_iphone() {
    let tmp = tempfile::tempdir().unwrap();
    let (iphone, android) = (tmp.path().join("iphone"), tmp.path().join("android"));
    write("ios", &iphone);
    write("android", &android);
    let run = triage(&[
        ("ios", &iphone, "Europe/Zurich", None),
        ("android", &android, "Europe/Zurich", None),
    ]);
    assert_eq!(run.report("ios").plugin.as_deref(), Some("ios"));
    assert_eq!(run.report("android").plugin.as_deref(), Some("android"));
    assert_eq!(run.rejections(), Vec::<String>::new());
    let wallet_phenomena = |source: &str| -> Vec<masf_graph::Phenomenon> {
        let mut v: Vec<_> = run
            .all_phenomena(source)
            .into_iter()
            .filter(|p| p.category == "wallets")
            .collect();
        v.sort_by(|a, b| a.title.cmp(&b.title));
        v
    };
    for source in ["ios", "android"] {
        for p in run.all_phenomena(source) {
            assert!(p.warnings.is_empty(), "{}: {:#?}", p.title, p.warnings);
        }
    }

    // Android: three folders, each its own phenomenon
    let a = wallet_phenomena("android");
    let titles: Vec<&str> = a.iter().map(|p| p.title.as_str()).collect();
    assert_eq!(
        titles,
        [
            "Binance data at /data/user/0/com.binance.dev: no wallet address in clear",
            "Trust Wallet data at /data/media/0/Android/data/com.wallet.crypto.trustapp: 1 wallet address(es) in clear",
            "Trust Wallet data at /data/user/0/com.wallet.crypto.trustapp: 3 wallet address(es) in clear",
        ]
    );
    assert!(
        a[0].interpretation.contains(
            "; 2 more were not scanned (at most 300 files and 256 MiB a folder, smallest first)"
        ),
        "{}",
        a[0].interpretation
    );
    let trust = &a[2];
    let v = values(trust);
    for want in [SHARED, TRON, BECH32] {
        assert!(v.iter().any(|x| x == want), "{want}: {v:#?}");
    }
    // the bad checksum, the cache and the picture are not read as addresses
    assert!(!v.iter().any(|x| x == BAD_CASE || x == EXTERNAL), "{v:#?}");
    assert!(
        v.iter()
            .any(|x| x == "/data/user/0/com.wallet.crypto.trustapp/databases/trust_wallet.db")
    );
    let said = &trust.interpretation;
    assert!(
        said.contains("files/mmkv/token_list (60)"),
        "the token list is counted: {said}"
    );
    assert!(
        said.contains("2 in cache or code folders or media and code files were not"),
        "{said}"
    );
    assert!(said.contains("whose each is"), "{said}");
    assert!(values(&a[1]).iter().any(|x| x == EXTERNAL));
    // the token list's addresses are no entities; the folder is noted as not parsed
    let entities = run.entities("android");
    assert!(
        entities
            .iter()
            .any(|e| e.starts_with(&format!("wallet:{}", SHARED.to_lowercase()))),
        "{entities:#?}"
    );
    assert!(
        !entities
            .iter()
            .any(|e| e.contains("0x0000000000000000000000000000000000001000")),
        "{entities:#?}"
    );
    let noted: Vec<String> = run
        .unparsed("android")
        .into_iter()
        .map(|u| format!("{}: {}", u.artefact, u.reason))
        .collect();
    assert!(
        noted.iter().any(|n| n.starts_with("/data/user/0/com.wallet.crypto.trustapp: Trust Wallet (com.wallet.crypto.trustapp) keeps its state in stores that are not parsed")),
        "{noted:#?}"
    );

    // iPhone: the container found by its preferences file; its Caches not read; the user's
    // own preferences folder is no container
    let i = wallet_phenomena("ios");
    let titles: Vec<&str> = i.iter().map(|p| p.title.as_str()).collect();
    assert_eq!(
        titles,
        [
            "Trust Wallet data at /private/var/mobile/Containers/Data/Application/3C1D9E2A-7B4F-4A8C-9D6E-1F2A3B4C5D6E: 2 wallet address(es) in clear",
            "imToken data at /private/var/mobile/Containers/Data/Application/9E8D7C6B-5A4F-4E3D-8C2B-1A0F9E8D7C6B: 1 wallet address(es) in clear",
        ]
    );
    assert!(values(&i[1]).iter().any(|x| x == TRON));
    // Binance's recorded container is not in this extraction: passed over, not noted
    let noted: Vec<String> = run
        .unparsed("ios")
        .into_iter()
        .map(|u| format!("{}: {}", u.artefact, u.reason))
        .collect();
    assert!(
        !noted.iter().any(|n| n.contains("00000000-1111")),
        "{noted:#?}"
    );
    assert_eq!(
        noted
            .iter()
            .filter(|n| n.contains("keeps its state in stores that are not parsed"))
            .count(),
        2,
        "{noted:#?}"
    );
    let v = values(&i[0]);
    for want in [SHARED, TRON] {
        assert!(v.iter().any(|x| x == want), "{want}: {v:#?}");
    }
    assert!(!v.iter().any(|x| x == EXTERNAL), "{v:#?}");

    // coverage: the catalogues' entry is examined on both
    use masf_agents::Plugin;
    let invs = run.session.invocation_summaries().unwrap();
    for (source, catalogue) in [
        ("ios", masf_plugins::ios::Ios.expected_artefacts()),
        (
            "android",
            masf_plugins::android::AndroidPlugin.expected_artefacts(),
        ),
    ] {
        let cov = masf_graph::views::source_coverage(source, &catalogue, &invs);
        let item = cov
            .items
            .iter()
            .find(|i| i.name == "wallet apps' data")
            .unwrap();
        assert!(item.examined, "{source}: {item:?}");
    }

    // resolution: the address both phones' Trust Wallet holds is one wallet
    crate::who::resolve(&run);
    let state = run.session.state().unwrap();
    let actors = masf_graph::resolution::actors(&state);
    let context = format!("wallet:{}", SHARED.to_lowercase());
    let holders: Vec<String> = actors
        .iter()
        .find(|a| {
            a.entities.iter().any(|e| {
                let e = &state.entities()[e];
                e.source_id == "ios" && e.context == context
            })
        })
        .map(|a| {
            a.entities
                .iter()
                .map(|e| state.entities()[e].source_id.clone())
                .collect()
        })
        .unwrap_or_default();
    assert!(holders.contains(&"android".to_string()), "{holders:?}");
}
