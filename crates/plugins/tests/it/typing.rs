//! Device typing is the plugins' call (issue 22, part 3): the evidence layer names a source's
//! form (disk image, archive, folder, iTunes backup, file) and each plugin recognises its own
//! devices from the layers, partitions and trees the scan exposes. The demo's four sources,
//! an Android sparse image `img2simg` wrote, a corrupt one from the corpus, an iTunes backup
//! and a folder extraction are typed here with the reasons the examiner sees at intake.

use std::path::{Path, PathBuf};

use masf_agents::Typing;
use masf_evidence::scan::Form;

use crate::ios_support::repo;

fn typed(path: &Path) -> (Form, Typing, Vec<String>) {
    let ctx = masf_tools::SourceCtx::open("s", path).expect("scan");
    let plugins = masf_plugins::all();
    let chosen = plugins
        .fitting(&ctx)
        .into_iter()
        .map(|(p, _)| p.name().to_string())
        .collect();
    (ctx.scan.form, plugins.typing(&ctx.scan), chosen)
}

fn demo(name: &str) -> PathBuf {
    repo().join("tests/fixtures/demo/evidence").join(name)
}

fn has(t: &Typing, words: &str) -> bool {
    t.reasons.iter().any(|r| r.contains(words))
}

#[test]
fn each_plugin_recognises_its_own_devices_and_nothing_else_does() {
    // the USB stick: a disk image no device plugin recognises keeps its form as its type
    let (form, t, chosen) = typed(&demo("usb.E01"));
    assert_eq!(
        (form, t.evidence_type.as_str(), t.plugin),
        (Form::DiskImage, "disk_image", None)
    );
    assert!(has(&t, "fat32"), "{t:?}");
    assert_eq!(chosen, ["disk"]);

    // the phone's whole disk: recognised by its GPT partition names, by the Android plugin
    // alone (the disk plugin does not also claim a disk another plugin recognised)
    let (form, t, chosen) = typed(&demo("blk0_sda.bin"));
    assert_eq!(form, Form::DiskImage);
    assert_eq!(
        (t.evidence_type.as_str(), t.plugin),
        ("android_disk", Some("android"))
    );
    assert!(
        has(&t, "partition table with Android partition names:"),
        "{t:?}"
    );
    assert!(has(&t, "userdata"), "{t:?}");
    assert_eq!(chosen, ["android"]);

    // the iPhone zip: an archive to the evidence layer, an iOS extraction to the iOS plugin
    let (form, t, chosen) = typed(&demo("iphone_ffs.zip"));
    assert_eq!(form, Form::Archive);
    assert_eq!(
        (t.evidence_type.as_str(), t.plugin),
        ("ios_extraction", Some("ios"))
    );
    assert_eq!(t.reasons, ["zip tree contains /private/var/mobile"]);
    assert_eq!(chosen, ["ios"]);

    // the screenshots: a folder to the evidence layer, a media collection to the media plugin
    let (form, t, chosen) = typed(&demo("screenshots"));
    assert_eq!(form, Form::Folder);
    assert_eq!(
        (t.evidence_type.as_str(), t.plugin),
        ("media_collection", Some("media"))
    );
    assert_eq!(t.reasons, ["5 of 5 files are images (PNG)"]);
    assert_eq!(chosen, ["media"]);
}

#[test]
fn android_images_and_ios_trees_in_other_forms() {
    // an ext4 volume img2simg made sparse: no partition table, an Android container
    let (form, t, _) = typed(&repo().join("tests/fixtures/simg/ext4.simg"));
    assert_eq!(form, Form::DiskImage);
    assert_eq!(t.evidence_type, "android_disk");
    assert_eq!(t.reasons, ["Android sparse image holding ext4"]);

    // a sparse image with a wrong CRC: a file whose container could not be opened is no
    // device, and says why
    let (form, t, _) = typed(&masf_testkit::corpus::path(
        "android/sparse/androidsparse-invalid_crc.simg",
    ));
    assert_eq!(
        (form, t.evidence_type.as_str(), t.plugin),
        (Form::File, "file", None)
    );
    assert!(has(&t, "Android sparse image, not readable"), "{t:?}");

    // an iTunes backup is a form of its own, which the iOS plugin takes
    let (form, t, chosen) =
        typed(&repo().join("tests/fixtures/itunes/backup/00008030-001A2B3C4D5E802E"));
    assert_eq!(
        (form, t.evidence_type.as_str(), t.plugin),
        (Form::ItunesBackup, "itunes_backup", None)
    );
    assert_eq!(chosen, ["ios"]);

    // a folder extraction holding /private/var
    let (form, t, chosen) = typed(&repo().join("tests/fixtures/ios/ffs"));
    assert_eq!(form, Form::Folder);
    assert_eq!(
        (t.evidence_type.as_str(), t.plugin),
        ("ios_extraction", Some("ios"))
    );
    assert_eq!(chosen, ["ios"]);
}
