//! `case.yaml` written for `masf init` reads back through `Case::load`.

use std::path::PathBuf;

use expect_test::expect;
use masf_case::{Case, CaseError, CaseFile, IssueKind, Person, SourceType};

use crate::util::CaseDir;

#[test]
fn init_writes_a_case_that_loads() {
    let root = CaseDir::new();
    let evidence: Vec<PathBuf> = vec![
        root.file("case/evidence/usb.E01"),
        root.file("case/evidence/android/blk0_sda.bin"),
        root.file("case/evidence/other/usb.E01"),
        root.file("case/evidence/USB.e01"),
        root.dir("case/evidence/ios ffs (iPhone 12)"),
        root.file("case/evidence/照片.zip"),
        root.file("elsewhere/yes"),
    ];
    let case_dir = root.path().join("case");
    let mut file = CaseFile::new_for_evidence(&case_dir, &evidence, None).expect("case file");
    assert_eq!(
        (
            file.case.id.as_str(),
            file.case.title.as_str(),
            file.case.timezone.as_str()
        ),
        ("case", "case", "UTC")
    );
    file.case.id = "demo-2025".into();
    file.case.title = "Fraud: three suspects".into();
    file.case.examiner = "J. Doe".into();
    file.case.timezone = "Asia/Hong_Kong".into();
    let yaml = file.to_yaml();
    expect![[r##"
        # MASForensics case file. Source paths are relative to this file; a source
        # without `type` has its type sniffed from its content. Time zones are IANA
        # names, e.g. Asia/Hong_Kong.
        case:
          id: demo-2025
          title: "Fraud: three suspects"
          examiner: J. Doe
          timezone: Asia/Hong_Kong
        sources:
          - id: src-usb-e01
            label: usb.E01
            path: evidence/usb.E01
          - id: src-blk0-sda-bin
            label: blk0_sda.bin
            path: evidence/android/blk0_sda.bin
          - id: src-usb-e01-2
            label: usb.E01
            path: evidence/other/usb.E01
          - id: src-usb-e01-3
            label: USB.e01
            path: evidence/USB.e01
          - id: src-ios-ffs-iphone-12
            label: ios ffs (iPhone 12)
            path: evidence/ios ffs (iPhone 12)
          - id: src-zip
            label: 照片.zip
            path: evidence/照片.zip
          - id: src-yes
            label: "yes"
            path: ../elsewhere/yes
    "##]]
    .assert_eq(&yaml);

    std::fs::write(case_dir.join("case.yaml"), &yaml).expect("write");
    let case = Case::load(&case_dir.join("case.yaml")).expect("the written case loads");
    let paths: Vec<PathBuf> = case.sources.iter().map(|s| s.path.clone()).collect();
    assert_eq!(paths, evidence);
    assert!(case.sources.iter().all(|s| s.declared_type.is_none()));
}

#[test]
fn a_loaded_case_writes_back_unchanged() {
    let dir = CaseDir::new();
    dir.file("evidence/usb.E01");
    dir.dir("evidence/ios");
    let original = dir
        .load(
            "case:\n  id: c\n  title: 'Title: with colon'\n  examiner: \"J. O'Doe\"\n  \
             timezone: asia/hong_kong\n  persons:\n    - {id: leung, name: LEUNG YL, aliases: [\"L, Y\", 'no']}\n\
             sources:\n  - {id: s1, label: '#1 USB', path: evidence/usb.E01, owner: leung, type: disk_image, \
             timezone: UTC, notes: \"line 1\\nline 2\\ttab\"}\n  - {id: s2, label: iOS, path: ./evidence/ios}\n",
        )
        .expect("the case is valid");
    let yaml = CaseFile::from(&original).to_yaml();
    expect![[r##"
        # MASForensics case file. Source paths are relative to this file; a source
        # without `type` has its type sniffed from its content. Time zones are IANA
        # names, e.g. Asia/Hong_Kong.
        case:
          id: c
          title: "Title: with colon"
          examiner: "J. O'Doe"
          timezone: Asia/Hong_Kong
          persons:
            - id: leung
              name: LEUNG YL
              aliases: ["L, Y", "no"]
        sources:
          - id: s1
            label: "#1 USB"
            path: evidence/usb.E01
            owner: leung
            type: disk_image
            timezone: UTC
            notes: "line 1\nline 2\ttab"
          - id: s2
            label: iOS
            path: ./evidence/ios
    "##]]
    .assert_eq(&yaml);
    let reloaded = dir.load(&yaml).expect("the written case loads");
    assert_eq!(reloaded, original);
    assert_eq!(
        reloaded.meta.persons,
        [Person {
            id: "leung".into(),
            name: "LEUNG YL".into(),
            aliases: vec!["L, Y".into(), "no".into()]
        }]
    );
    assert_eq!(
        reloaded.sources[0].declared_type,
        Some(SourceType::DiskImage)
    );
}

#[test]
fn init_defaults_load_as_they_are() {
    let root = CaseDir::new();
    let evidence = vec![root.file("Chan Case 2025/blk0_sda.bin")];
    let case_dir = root.path().join("Chan Case 2025");
    let file = CaseFile::new_for_evidence(&case_dir, &evidence, None).expect("case file");
    std::fs::write(case_dir.join("case.yaml"), file.to_yaml()).expect("write");
    let case = Case::load(&case_dir.join("case.yaml")).expect("the written case loads");
    assert_eq!(case.meta.id, "chan-case-2025");
    assert_eq!(case.meta.title, "Chan Case 2025");
    assert_eq!(case.meta.examiner, "unassigned");
    assert_eq!(case.meta.timezone, "UTC");
    assert_eq!(case.sources[0].id, "src-blk0-sda-bin");

    let named =
        CaseFile::new_for_evidence(&case_dir, &evidence, Some("op-harbour")).expect("case file");
    assert_eq!(named.case.id, "op-harbour");
}

#[test]
fn init_refuses_no_evidence_and_bad_ids() {
    let dir = CaseDir::new();
    let Err(err) = CaseFile::new_for_evidence(&dir.path(), &[], Some("Op Harbour")) else {
        panic!("expected an error")
    };
    let kinds: Vec<_> = err.issues().iter().map(|i| i.kind.clone()).collect();
    assert!(matches!(
        kinds.as_slice(),
        [IssueKind::InvalidId { .. }, IssueKind::EmptyValue]
    ));
    expect![[r#"
        $CASE/case.yaml: 2 problems
          $CASE/case.yaml: case: field "id": invalid id "Op Harbour": ids are lower-case letters, digits, '-' and '_', starting with a letter or digit (e.g. "op-harbour")
          $CASE/case.yaml: field "sources": must not be empty"#]].assert_eq(&dir.sanitise(&err.to_string()));
}

#[cfg(unix)]
#[test]
fn init_refuses_non_utf8_paths() {
    use std::os::unix::ffi::OsStrExt;
    let dir = CaseDir::new();
    let bad = dir.path().join(std::ffi::OsStr::from_bytes(b"img\xff.E01"));
    let Err(err) = CaseFile::new_for_evidence(&dir.path(), &[bad], None) else {
        panic!("expected an error")
    };
    assert!(matches!(err, CaseError::Path { .. }));
    expect!["$CASE/img�.E01: not valid UTF-8, so it cannot be written to case.yaml"]
        .assert_eq(&dir.sanitise(&err.to_string()));
}
