//! Screenshots kept on a phone (issue 16 part 4, "a screenshot on a person's device"): two
//! wallet-app screens rendered by ImageMagick (`tests/fixtures/phone-screens/generate.sh`), a
//! "Receive" screen with the user's own address and a "Send to" screen, placed where iOS and
//! Android keep screenshots. The receive screen's address is the device owner's claim; the
//! paid address is a wallet and nobody's claim.

use std::path::Path;
use std::process::Command;

use serde_json::Value;

use crate::ios_support::repo;

fn truth() -> (String, String) {
    let t: Value = serde_json::from_str(
        &std::fs::read_to_string(repo().join("tests/fixtures/phone-screens/truth.json")).unwrap(),
    )
    .unwrap();
    (
        t["receive.png"]["own"].as_str().unwrap().to_string(),
        t["send.png"]["paid"].as_str().unwrap().to_string(),
    )
}

fn put(dir: &Path, name: &str, fixture: &str) {
    std::fs::create_dir_all(dir).unwrap();
    std::fs::copy(
        repo().join("tests/fixtures/phone-screens").join(fixture),
        dir.join(name),
    )
    .unwrap();
}

fn run(cmd: &mut Command) {
    let out = cmd.output().unwrap_or_else(|e| panic!("{cmd:?}: {e}"));
    assert!(
        out.status.success(),
        "{cmd:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// (context, wallet) of every wallet identifier held by a person entity, and every wallet
/// entity's address.
fn wallets(ids: &[(String, String, String)]) -> (Vec<(String, String)>, Vec<String>) {
    let claims = ids
        .iter()
        .filter(|(c, t, _)| t == "wallet" && !c.starts_with("wallet:"))
        .map(|(c, _, v)| (c.clone(), v.clone()))
        .collect();
    let mut entities: Vec<String> = ids
        .iter()
        .filter(|(c, _, _)| c.starts_with("wallet:"))
        .map(|(_, _, v)| v.clone())
        .collect();
    entities.sort();
    (claims, entities)
}

#[test]
fn an_iphone_receive_screenshot_is_the_owners_claim_a_send_screenshot_is_not() {
    let (own, paid) = truth();
    let tmp = tempfile::tempdir().unwrap();
    let dcim = tmp.path().join("private/var/mobile/Media/DCIM/100APPLE");
    put(&dcim, "IMG_0001.PNG", "receive.png");
    put(&dcim, "IMG_0002.PNG", "send.png");
    std::fs::create_dir_all(tmp.path().join("private/var/mobile/Library")).unwrap();
    let o = crate::ios_support::triage(tmp.path(), "Asia/Hong_Kong");
    crate::ios_support::assert_all_accepted(&o);
    let ids: Vec<_> = o.identities().into_iter().collect();
    let (claims, entities) = wallets(&ids);
    assert_eq!(claims, [("owner".to_string(), own.clone())]);
    let mut want = vec![own, paid];
    want.sort();
    assert_eq!(entities, want);
    assert_eq!(o.category("transaction_screenshot").len(), 2);
}

#[test]
fn an_android_phones_screenshots_on_its_userdata_partition() {
    let (own, paid) = truth();
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path();
    let shots = t.join("userdata/media/0/Pictures/Screenshots");
    put(
        &shots,
        "Screenshot_20250301-101010_Wallet.png",
        "receive.png",
    );
    put(&shots, "Screenshot_20250301-101200_Wallet.png", "send.png");
    std::fs::create_dir_all(t.join("system")).unwrap();
    std::fs::write(t.join("system/build.prop"), "ro.product.model=Pixel 7\n").unwrap();
    for (name, size) in [("system", "2M"), ("userdata", "8M")] {
        run(Command::new("mkfs.ext4")
            .args(["-q", "-F", "-d"])
            .arg(t.join(name))
            .arg(t.join(format!("{name}.img")))
            .arg(size));
    }
    let disk = t.join("disk.img");
    run(Command::new("truncate").args(["-s", "12M"]).arg(&disk));
    run(Command::new("sgdisk")
        .args(["-n1:2048:+2M", "-c1:system", "-n2:6144:+8M", "-c2:userdata"])
        .arg(&disk));
    for (name, sector) in [("system", "2048"), ("userdata", "6144")] {
        run(Command::new("dd")
            .arg(format!("if={}", t.join(format!("{name}.img")).display()))
            .arg(format!("of={}", disk.display()))
            .args([
                "bs=512",
                &format!("seek={sector}"),
                "conv=notrunc",
                "status=none",
            ]));
    }
    let r = crate::android_support::triage(&[("phone", &disk, "Asia/Hong_Kong", Some("HK"))]);
    assert_eq!(r.report("phone").plugin.as_deref(), Some("android"));
    assert_eq!(r.rejections(), Vec::<String>::new());
    let state = r.session.state().unwrap();
    let ids: Vec<(String, String, String)> = state
        .entities()
        .values()
        .filter(|e| e.source_id == "phone")
        .flat_map(|e| {
            e.identifiers.iter().map(|i| {
                (
                    e.context.clone(),
                    i.id_type.to_string(),
                    i.normalized.clone(),
                )
            })
        })
        .collect();
    let (claims, entities) = wallets(&ids);
    assert_eq!(claims, [("owner".to_string(), own.clone())], "{ids:?}");
    let mut want = vec![own, paid];
    want.sort();
    assert_eq!(entities, want);
}
