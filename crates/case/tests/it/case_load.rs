//! Loading a realistic case: the motivating case of DESIGN (USB E01, Android whole disk, three
//! iOS extractions, an iTunes backup, payment screenshots; three persons).

use std::path::Path;

use masf_case::{Case, SourceType};

use crate::util::{CaseDir, is_under};

const CASE: &str = r#"
case:
  id: demo-2025-individual
  title: "Transaction fraud: three suspects"
  examiner: J. Doe
  timezone: Asia/Hong_Kong          # display time zone of the report
  persons:
    - { id: leung, name: LEUNG YL }
    - { id: chan, name: CHAN MH, aliases: [Ah Man, 陈文] }
    - id: fung
      name: FUNG CC
sources:
  - id: src-usb
    label: USB stick
    path: evidence/usb.E01
    owner: leung
    type: disk_image
    timezone: UTC
  - id: src-android
    label: Android phone (CHAN)
    path: ./evidence/android/blk0_sda.bin
    owner: chan
  - id: src-ios-1
    label: iPhone 12 (FUNG)
    path: evidence/ios/iphone12_ffs.zip
    owner: fung
    type: ios_extraction
    notes: |
      Extracted with a full-file-system tool.
      Passcode known.
  - id: src-ios-2
    label: iPhone 8
    path: evidence/ios/iphone8_ffs.tar
  - id: src-ios-3
    label: iPad
    path: evidence/ios/ipad_ffs
    timezone: Europe/London
  - id: src-itunes
    label: iTunes backup
    path: evidence/backup/00008030-001A2B3C4D5E6F70
    type: itunes_backup
  - id: src-shots
    label: Payment screenshots
    path: ../shared/screenshots
    type: media_collection
"#;

/// A case directory `case/` beside a shared `shared/screenshots` folder.
fn setup() -> (CaseDir, std::path::PathBuf) {
    let root = CaseDir::new();
    root.file("case/evidence/usb.E01");
    root.file("case/evidence/android/blk0_sda.bin");
    root.file("case/evidence/ios/iphone12_ffs.zip");
    root.file("case/evidence/ios/iphone8_ffs.tar");
    root.dir("case/evidence/ios/ipad_ffs");
    root.file("case/evidence/backup/00008030-001A2B3C4D5E6F70/Manifest.db");
    root.file("shared/screenshots/IMG_0001.PNG");
    let case_file = root.path().join("case/case.yaml");
    std::fs::write(&case_file, CASE).expect("write case.yaml");
    (root, case_file)
}

#[test]
fn realistic_case() {
    let (root, case_file) = setup();
    let case = Case::load(&case_file).expect("the case is valid");
    let case_dir = root.path().join("case");

    assert_eq!(case.file, case_file);
    assert_eq!(case.dir, case_dir);
    assert_eq!(case.meta.id, "demo-2025-individual");
    assert_eq!(case.meta.title, "Transaction fraud: three suspects");
    assert_eq!(case.meta.examiner, "J. Doe");
    assert_eq!(case.meta.timezone, "Asia/Hong_Kong");
    let persons: Vec<_> = case.meta.persons.iter().map(|p| p.id.as_str()).collect();
    assert_eq!(persons, ["leung", "chan", "fung"]);
    assert_eq!(
        case.person("chan").map(|p| p.aliases.clone()),
        Some(vec!["Ah Man".into(), "陈文".into()])
    );

    let summary: Vec<String> = case
        .sources
        .iter()
        .map(|s| {
            format!(
                "{} | {} | {} | {} | {} | {} | tz {}{}",
                s.id,
                s.label,
                s.path_as_written,
                root.sanitise(&s.path.display().to_string()),
                s.owner.as_deref().unwrap_or("-"),
                s.declared_type.map_or("sniff", SourceType::as_str),
                s.timezone,
                if s.timezone_declared { "" } else { " (case)" },
            )
        })
        .collect();
    expect_test::expect![[r#"
        src-usb | USB stick | evidence/usb.E01 | $CASE/case/evidence/usb.E01 | leung | disk_image | tz UTC
        src-android | Android phone (CHAN) | ./evidence/android/blk0_sda.bin | $CASE/case/evidence/android/blk0_sda.bin | chan | sniff | tz Asia/Hong_Kong (case)
        src-ios-1 | iPhone 12 (FUNG) | evidence/ios/iphone12_ffs.zip | $CASE/case/evidence/ios/iphone12_ffs.zip | fung | ios_extraction | tz Asia/Hong_Kong (case)
        src-ios-2 | iPhone 8 | evidence/ios/iphone8_ffs.tar | $CASE/case/evidence/ios/iphone8_ffs.tar | - | sniff | tz Asia/Hong_Kong (case)
        src-ios-3 | iPad | evidence/ios/ipad_ffs | $CASE/case/evidence/ios/ipad_ffs | - | sniff | tz Europe/London
        src-itunes | iTunes backup | evidence/backup/00008030-001A2B3C4D5E6F70 | $CASE/case/evidence/backup/00008030-001A2B3C4D5E6F70 | - | itunes_backup | tz Asia/Hong_Kong (case)
        src-shots | Payment screenshots | ../shared/screenshots | $CASE/shared/screenshots | - | media_collection | tz Asia/Hong_Kong (case)"#]]
    .assert_eq(&summary.join("\n"));

    for s in &case.sources {
        assert!(
            s.path.is_absolute() && s.path.exists(),
            "{}",
            s.path.display()
        );
    }
    assert!(is_under(&case.sources[0].path, &case_dir));
    assert!(!is_under(&case.sources[6].path, &case_dir));
    assert_eq!(
        case.source("src-ios-1").and_then(|s| s.notes.as_deref()),
        Some("Extracted with a full-file-system tool.\nPasscode known.\n")
    );
    // The parsed zone is the real one: Hong Kong is UTC+8 all year.
    let zone = jiff::tz::TimeZone::get("Asia/Hong_Kong").expect("zone");
    assert_eq!(case.meta.tz, zone);
    let offset = case.meta.tz.to_offset(jiff::Timestamp::UNIX_EPOCH);
    assert_eq!(offset.seconds(), 8 * 3600);
    assert_eq!(case.sources[0].tz, jiff::tz::TimeZone::UTC);
}

#[test]
fn relative_and_dotted_case_paths_are_made_absolute() {
    let (root, _) = setup();
    let dotted = root.path().join("case/../case/./case.yaml");
    let case = Case::load(&dotted).expect("the case is valid");
    assert_eq!(case.file, root.path().join("case/case.yaml"));
    assert!(Path::new(&case.file).is_absolute());
}

#[test]
fn anchors_and_merges_are_understood() {
    let dir = CaseDir::new();
    dir.file("a.E01");
    dir.file("b.E01");
    let case = dir
        .load(
            "case: {id: c, title: T, examiner: E, timezone: UTC}\n\
             sources:\n\
             - &usb {id: a, label: USB, path: a.E01, type: disk_image}\n\
             - {<<: *usb, id: b, path: b.E01}\n",
        )
        .expect("the case is valid");
    assert_eq!(case.sources[1].label, "USB");
    assert_eq!(case.sources[1].declared_type, Some(SourceType::DiskImage));
}
