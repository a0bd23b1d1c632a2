//! The Apple devices a computer knows (`masf_plugins::lockdown`): a laptop's folder holding the
//! lockdown pairing records of two iPhones (written with Python's plistlib as iTunes writes
//! them, keys and certificates included) and an iTunes backup's `Info.plist` (the iTunes backup
//! fixture's own, made by `tests/fixtures/itunes/generate.sh`), triaged in one session with that
//! backup and with a second phone's partial extraction holding the phone's own copy of the
//! pairing (`pair_records/<HostID>.plist`): the laptop's paired phone is proposed `same_as` the
//! backed-up phone by its UDID and IMEI, its user the backup's owner by the number, the laptop
//! the computer the second phone trusted by its host id; the other phone stays on its own, and
//! no key of a record reaches a finding.

use std::path::Path;

use masf_graph::resolution;

use crate::android_support::triage;
use crate::ios_support::repo;
use crate::who::resolve;

const UDID: &str = "00008030-001A2B3C4D5E802E";
const OTHER: &str = "2b6f0cc904d137be2e1730235f5664094b831186";
const HOST: &str = "1F2E3D4C-5B6A-4978-8695-A4B3C2D1E0F9";
const KEY: &[u8] = b"-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEAwfake0key0material\n-----END RSA PRIVATE KEY-----\n";

fn pairing_record(to: &Path, host: &str, mac: &str) {
    std::fs::create_dir_all(to.parent().unwrap()).unwrap();
    let script = r#"
import plistlib, sys
key = sys.stdin.buffer.read()
plistlib.dump({'DeviceCertificate': b'-----BEGIN CERTIFICATE-----\nMIIC\n-----END CERTIFICATE-----\n',
               'EscrowBag': b'\x00\x01escrow', 'HostCertificate': b'-----BEGIN CERTIFICATE-----\nMIID\n-----END CERTIFICATE-----\n',
               'HostID': sys.argv[2], 'HostPrivateKey': key, 'RootCertificate': b'root',
               'RootPrivateKey': key, 'SystemBUID': '6B3F2A1C-0D4E-4F5A-8B9C-1D2E3F4A5B6C',
               'WiFiMACAddress': sys.argv[3]}, open(sys.argv[1], 'wb'))
"#;
    let mut child = std::process::Command::new("python3")
        .args(["-c", script])
        .arg(to)
        .args([host, mac])
        .stdin(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::io::Write::write_all(child.stdin.as_mut().unwrap(), KEY).unwrap();
    assert!(child.wait().unwrap().success());
}

#[test]
fn a_laptop_that_paired_with_and_backed_up_a_phone_is_linked_to_the_phone() {
    let tmp = tempfile::tempdir().unwrap();
    let laptop = tmp.path().join("laptop");
    let lockdown = laptop.join("ProgramData/Apple/Lockdown");
    pairing_record(
        &lockdown.join(format!("{UDID}.plist")),
        HOST,
        "a4:c3:f0:85:ac:2d",
    );
    pairing_record(
        &lockdown.join(format!("{OTHER}.plist")),
        HOST,
        "f0:99:b6:12:34:56",
    );
    // a damaged record (cut in half): noted with the reason, the rest still read
    let third = "00008101-000E2D4C1A38001E";
    let whole = std::fs::read(lockdown.join(format!("{UDID}.plist"))).unwrap();
    std::fs::write(
        lockdown.join(format!("{third}.plist")),
        &whole[..whole.len() / 2],
    )
    .unwrap();
    let backup = repo().join(format!("tests/fixtures/itunes/backup/{UDID}"));
    let kept = laptop.join(format!(
        "Users/leung/AppData/Roaming/Apple Computer/MobileSync/Backup/{UDID}"
    ));
    std::fs::create_dir_all(&kept).unwrap();
    std::fs::copy(backup.join("Info.plist"), kept.join("Info.plist")).unwrap();

    // the second phone's partial extraction: its root Library with the pairing record
    let second = tmp.path().join("second-phone");
    pairing_record(
        &second.join(format!(
            "private/var/root/Library/Lockdown/pair_records/{HOST}.plist"
        )),
        HOST,
        "f0:99:b6:12:34:56",
    );

    let run = triage(&[
        ("pc", &laptop, "Asia/Hong_Kong", Some("HK")),
        ("phone", &backup, "Asia/Hong_Kong", None),
        ("second", &second, "Asia/Hong_Kong", None),
    ]);
    assert_eq!(run.report("second").plugin.as_deref(), Some("ios"));
    assert!(
        run.phenomena("second")
            .contains(&format!("device | Computer {HOST} paired with this device")),
        "{:#?}",
        run.phenomena("second")
    );
    assert_eq!(run.rejections(), Vec::<String>::new());
    let notes = run.unparsed("pc");
    assert!(
        notes
            .iter()
            .any(|n| n.artefact.ends_with(&format!("{third}.plist"))
                && n.reason.contains("parse_plist")),
        "{notes:#?}"
    );
    let found = run.phenomena("pc");
    for title in [
        format!("device | iOS device {UDID} paired with this computer"),
        format!(
            "device | iOS device {} paired with this computer",
            OTHER.to_uppercase()
        ),
        format!("device | iTunes backup of iOS device {UDID} on this computer"),
    ] {
        assert!(found.contains(&title), "{title}: {found:#?}");
    }
    let all = run.all_phenomena("pc");
    let paired = all
        .iter()
        .find(|p| p.title == format!("iOS device {UDID} paired with this computer"))
        .unwrap();
    for v in [
        HOST,
        "6B3F2A1C-0D4E-4F5A-8B9C-1D2E3F4A5B6C",
        "a4:c3:f0:85:ac:2d",
        UDID,
    ] {
        assert!(
            paired.verified_facts.iter().any(|f| f.value == v),
            "{v}: {:#?}",
            paired.verified_facts
        );
    }
    // nothing of the keys, certificates or escrow bag in any finding
    let key_hex: String = KEY[..40].iter().map(|b| format!("{b:02x}")).collect();
    for p in &all {
        let text = format!("{} {} {:?}", p.title, p.interpretation, p.verified_facts);
        assert!(
            !text.contains(&key_hex) && !text.contains("PRIVATE KEY"),
            "{text}"
        );
    }
    let kept_backup = all
        .iter()
        .find(|p| p.title.starts_with("iTunes backup of iOS device"))
        .unwrap();
    for v in [
        "356938035643809",
        "F2LXK0AAAAAA",
        "+852 5555 0101",
        "iPhone12,1",
    ] {
        assert!(
            kept_backup.verified_facts.iter().any(|f| f.value == v),
            "{v}: {:#?}",
            kept_backup.verified_facts
        );
    }
    assert_eq!(kept_backup.times.len(), 1);

    // resolution: the laptop's phone is the backed-up phone, its user the backup's owner
    resolve(&run);
    let state = run.session.state().unwrap();
    let actors = resolution::actors(&state);
    let name = |id: &str| {
        let e = &state.entities()[id];
        format!("{}/{}", e.source_id, e.context)
    };
    let with = |who: &str| -> Vec<String> {
        actors
            .iter()
            .find(|a| a.entities.iter().any(|e| name(e) == who))
            .map(|a| a.entities.iter().map(|e| name(e)).collect())
            .unwrap_or_default()
    };
    let phone = with(&format!("pc/ios-device:{UDID}"));
    assert!(phone.contains(&"phone/device".to_string()), "{phone:?}");
    let user = with(&format!("pc/ios-user:{UDID}"));
    assert!(user.contains(&"phone/owner".to_string()), "{user:?}");
    let other = with(&format!("pc/ios-device:{}", OTHER.to_uppercase()));
    assert_eq!(other.len(), 1, "{other:?}");
    let host = with(&format!("pc/pairing-host:{HOST}"));
    assert!(
        host.contains(&format!("second/pairing-host:{HOST}")),
        "{host:?}"
    );
    // nothing of the keys on the phone's side either
    for p in &run.all_phenomena("second") {
        let text = format!("{} {} {:?}", p.title, p.interpretation, p.verified_facts);
        assert!(
            !text.contains(&key_hex) && !text.contains("PRIVATE KEY"),
            "{text}"
        );
    }
}
