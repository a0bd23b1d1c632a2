//! One test per class of problem in `case.yaml`: each message names the file, the source (or
//! person) id and the field.

use expect_test::{Expect, expect};
use masf_case::{Case, CaseError, Issue, IssueKind};

use crate::util::{CaseDir, expect_err};

const BASE: &str = "\
case:
  id: demo-2025
  title: Transaction fraud, three suspects
  examiner: J. Doe
  timezone: Asia/Hong_Kong
  persons:
    - { id: leung, name: LEUNG YL }
    - { id: chan, name: CHAN MH, aliases: [Ah Man] }
sources:
  - id: src-usb
    label: USB stick
    path: evidence/usb.E01
    owner: leung
    type: disk_image
  - id: src-android
    label: Android phone
    path: evidence/blk0_sda.bin
    owner: chan
    timezone: UTC
";

/// `BASE` with each `(from, to)` replacement applied (each `from` must occur).
fn variant(edits: &[(&str, &str)]) -> String {
    let mut yaml = BASE.to_string();
    for (from, to) in edits {
        assert!(yaml.contains(from), "{from:?} not in the base case");
        yaml = yaml.replacen(from, to, 1);
    }
    yaml
}

/// Loads `yaml` from a case directory holding the base evidence, expects failure, compares the
/// message (directory shown as `$CASE`) and returns the issues.
fn check(yaml: &str, expect: Expect) -> Vec<Issue> {
    let dir = CaseDir::new();
    dir.file("evidence/usb.E01");
    dir.file("evidence/blk0_sda.bin");
    let err = expect_err(dir.load(yaml));
    expect.assert_eq(&dir.sanitise(&err.to_string()));
    let CaseError::Invalid { file, issues } = err else {
        panic!("expected CaseError::Invalid")
    };
    assert!(file.ends_with("case.yaml"));
    issues
}

/// The only issue, checked to name the case file, the item id and the field.
fn single(issues: Vec<Issue>, id: &str, field: &str) -> IssueKind {
    let [issue] = issues.as_slice() else {
        panic!("expected one issue, got {issues:#?}")
    };
    let message = issue.to_string();
    assert!(issue.file.ends_with("case.yaml"), "{message}");
    assert_eq!(issue.location.id.as_deref(), Some(id), "{message}");
    assert_eq!(issue.location.field.as_deref(), Some(field), "{message}");
    for part in [
        "case.yaml",
        &format!("(id \"{id}\")"),
        &format!("field \"{field}\""),
    ] {
        assert!(message.contains(part), "{message:?} lacks {part:?}");
    }
    issue.kind.clone()
}

#[test]
fn base_case_loads() {
    let dir = CaseDir::new();
    dir.file("evidence/usb.E01");
    dir.file("evidence/blk0_sda.bin");
    let case = dir.load(BASE).expect("the base case is valid");
    assert_eq!(case.sources.len(), 2);
}

#[test]
fn yaml_syntax_error() {
    let issues = check(
        &variant(&[("    owner: chan\n", "    owner: [chan\n")]),
        expect![
            "$CASE/case.yaml: YAML syntax error: did not find expected ',' or ']' at line 19 column 13, while parsing a flow sequence at line 18 column 12"
        ],
    );
    let [issue] = issues.as_slice() else {
        panic!("{issues:?}")
    };
    assert!(matches!(
        issue.kind,
        IssueKind::Syntax {
            line: Some(19),
            column: Some(13),
            ..
        }
    ));
}

#[test]
fn missing_required_field() {
    let issues = check(
        &variant(&[("    label: Android phone\n", "")]),
        expect![[
            r#"$CASE/case.yaml: sources[1] (id "src-android"): field "label": missing required field"#
        ]],
    );
    assert_eq!(
        single(issues, "src-android", "label"),
        IssueKind::MissingField
    );
}

#[test]
fn missing_case_field() {
    let issues = check(
        &variant(&[("  examiner: J. Doe\n", "")]),
        expect![[r#"$CASE/case.yaml: case: field "examiner": missing required field"#]],
    );
    assert_eq!(issues[0].location.key_path(), "case.examiner");
    assert_eq!(issues[0].kind, IssueKind::MissingField);
}

#[test]
fn unknown_key_is_reported_not_ignored() {
    let issues = check(
        &variant(&[(
            "    timezone: UTC\n",
            "    timezone: UTC\n    sha256: abc\n",
        )]),
        expect![[
            r#"$CASE/case.yaml: sources[1] (id "src-android"): field "sha256": unknown key; valid keys here: id, label, path, owner, type, timezone, region, notes, password_env"#
        ]],
    );
    assert_eq!(issues[0].location.key_path(), "sources[1].sha256");
    assert!(matches!(
        single(issues, "src-android", "sha256"),
        IssueKind::UnknownKey {
            suggestion: None,
            ..
        }
    ));
}

#[test]
fn misspelt_key_gets_a_suggestion() {
    let issues = check(
        &variant(&[("    label: Android phone\n", "    lable: Android phone\n")]),
        expect![[r#"
            $CASE/case.yaml: 2 problems
              $CASE/case.yaml: sources[1] (id "src-android"): field "lable": unknown key; did you mean "label"? Valid keys here: id, label, path, owner, type, timezone, region, notes, password_env
              $CASE/case.yaml: sources[1] (id "src-android"): field "label": missing required field"#]],
    );
    assert!(matches!(
        issues[0].kind,
        IssueKind::UnknownKey {
            suggestion: Some("label"),
            ..
        }
    ));
}

#[test]
fn missing_evidence_path() {
    let issues = check(
        &variant(&[("evidence/blk0_sda.bin", "evidence/blk0_sdb.bin")]),
        expect![[
            r#"$CASE/case.yaml: sources[1] (id "src-android"): field "path": evidence not found: $CASE/evidence/blk0_sdb.bin"#
        ]],
    );
    let IssueKind::EvidenceNotFound { path } = single(issues, "src-android", "path") else {
        panic!("expected EvidenceNotFound")
    };
    assert!(path.is_absolute() && path.ends_with("evidence/blk0_sdb.bin"));
}

#[test]
fn evidence_path_through_a_file_is_not_found() {
    let issues = check(
        &variant(&[("evidence/blk0_sda.bin", "evidence/usb.E01/inner")]),
        expect![[
            r#"$CASE/case.yaml: sources[1] (id "src-android"): field "path": evidence not found: $CASE/evidence/usb.E01/inner"#
        ]],
    );
    assert!(matches!(
        single(issues, "src-android", "path"),
        IssueKind::EvidenceNotFound { .. }
    ));
}

#[test]
fn unusable_evidence_path() {
    let issues = check(
        &variant(&[("evidence/blk0_sda.bin", "\"evidence/blk0\\0.bin\"")]),
        expect![[
            r#"$CASE/case.yaml: sources[1] (id "src-android"): field "path": evidence cannot be accessed: $CASE/evidence/blk0\u{0}.bin: file name contained an unexpected NUL byte"#
        ]],
    );
    assert!(matches!(
        single(issues, "src-android", "path"),
        IssueKind::EvidenceUnreadable { .. }
    ));
}

#[test]
fn duplicate_source_id() {
    let issues = check(
        &variant(&[("id: src-android", "id: src-usb")]),
        expect![[
            r#"$CASE/case.yaml: sources[1] (id "src-usb"): field "id": duplicate source id "src-usb" (already used by sources[0])"#
        ]],
    );
    assert_eq!(
        single(issues, "src-usb", "id"),
        IssueKind::DuplicateSourceId {
            id: "src-usb".into(),
            first: 0
        }
    );
}

#[test]
fn duplicate_person_id() {
    let issues = check(
        &variant(&[(
            "sources:\n",
            "    - { id: chan, name: CHAN M. H. }\nsources:\n",
        )]),
        expect![[
            r#"$CASE/case.yaml: case.persons[2] (id "chan"): field "id": duplicate person id "chan" (already used by case.persons[1])"#
        ]],
    );
    assert_eq!(
        single(issues, "chan", "id"),
        IssueKind::DuplicatePersonId {
            id: "chan".into(),
            first: 1
        }
    );
}

#[test]
fn owner_naming_an_unknown_person() {
    let issues = check(
        &variant(&[("owner: chan", "owner: fung")]),
        expect![[
            r#"$CASE/case.yaml: sources[1] (id "src-android"): field "owner": unknown person "fung"; persons declared under case.persons: leung, chan"#
        ]],
    );
    assert_eq!(
        single(issues, "src-android", "owner"),
        IssueKind::UnknownOwner {
            owner: "fung".into(),
            known: vec!["leung".into(), "chan".into()]
        }
    );
}

#[test]
fn unknown_time_zone() {
    let issues = check(
        &variant(&[("timezone: UTC", "timezone: Asia/HongKong")]),
        expect![[
            r#"$CASE/case.yaml: sources[1] (id "src-android"): field "timezone": unknown time zone "Asia/HongKong" (not an IANA name such as "Asia/Hong_Kong" or "UTC"); did you mean "Asia/Hong_Kong"?"#
        ]],
    );
    assert_eq!(
        single(issues, "src-android", "timezone"),
        IssueKind::UnknownTimeZone {
            name: "Asia/HongKong".into(),
            suggestion: Some("Asia/Hong_Kong".into())
        }
    );
}

#[test]
fn unknown_region() {
    let issues = check(
        &variant(&[("timezone: UTC", "timezone: UTC\n    region: USA")]),
        expect![[
            r#"$CASE/case.yaml: sources[1] (id "src-android"): field "region": unknown region "USA": expected an ISO 3166-1 alpha-2 country code such as "US", "GB", "HK" or "CN" (the country whose national phone numbers the source holds)"#
        ]],
    );
    assert_eq!(
        single(issues, "src-android", "region"),
        IssueKind::UnknownRegion {
            value: "USA".into()
        }
    );
}

/// A region set for the case applies to every source without its own; a source's own wins.
#[test]
fn regions_of_the_case_and_of_a_source() {
    let dir = CaseDir::new();
    dir.file("evidence/usb.E01");
    dir.file("evidence/blk0_sda.bin");
    let case = dir
        .load(&variant(&[
            (
                "timezone: Asia/Hong_Kong",
                "timezone: Asia/Hong_Kong\n  region: hk",
            ),
            ("timezone: UTC", "timezone: UTC\n    region: MX"),
        ]))
        .expect("valid case");
    assert_eq!(
        case.meta.region.map(|r| r.to_string()).as_deref(),
        Some("HK")
    );
    let regions: Vec<Option<String>> = case
        .sources
        .iter()
        .map(|s| s.region.map(|r| r.to_string()))
        .collect();
    assert_eq!(regions, [Some("HK".into()), Some("MX".into())]);
    // Written back, the case's region stays the case's and the source's its own.
    let text = masf_case::CaseFile::from(&case).to_yaml();
    assert!(text.contains("  region: HK\n"), "{text}");
    assert!(text.contains("    region: MX\n"), "{text}");
}

#[test]
fn offsets_are_not_time_zones() {
    let issues = check(
        &variant(&[("timezone: Asia/Hong_Kong", "timezone: \"+08:00\"")]),
        expect![[
            r#"$CASE/case.yaml: case: field "timezone": unknown time zone "+08:00" (not an IANA name such as "Asia/Hong_Kong" or "UTC")"#
        ]],
    );
    assert!(matches!(
        issues[0].kind,
        IssueKind::UnknownTimeZone {
            suggestion: None,
            ..
        }
    ));
}

#[test]
fn unknown_source_type() {
    let issues = check(
        &variant(&[("type: disk_image", "type: e01")]),
        expect![[
            r#"$CASE/case.yaml: sources[0] (id "src-usb"): field "type": unknown source type "e01"; valid types: disk_image, android_disk, ios_extraction, itunes_backup, archive, media_collection, folder (or leave `type` out to have it sniffed)"#
        ]],
    );
    assert_eq!(
        single(issues, "src-usb", "type"),
        IssueKind::UnknownSourceType {
            value: "e01".into()
        }
    );
}

#[test]
fn invalid_id() {
    let issues = check(
        &variant(&[("id: src-android", "id: Src Android")]),
        expect![[
            r#"$CASE/case.yaml: sources[1] (id "Src Android"): field "id": invalid id "Src Android": ids are lower-case letters, digits, '-' and '_', starting with a letter or digit (e.g. "src-android")"#
        ]],
    );
    assert!(matches!(
        single(issues, "Src Android", "id"),
        IssueKind::InvalidId {
            suggestion: Some(_),
            ..
        }
    ));
}

#[test]
fn empty_id() {
    let issues = check(
        &variant(&[("id: src-usb", "id: \"\"")]),
        expect![[
            r#"$CASE/case.yaml: sources[0] (id ""): field "id": empty id: ids are lower-case letters, digits, '-' and '_', starting with a letter or digit"#
        ]],
    );
    assert!(matches!(
        single(issues, "", "id"),
        IssueKind::InvalidId {
            suggestion: None,
            ..
        }
    ));
}

#[test]
fn every_problem_is_reported_in_one_pass() {
    let issues = check(
        &variant(&[
            ("  id: demo-2025", "  id: Demo 2025"),
            ("  timezone: Asia/Hong_Kong", "  timezone: Hong Kong"),
            (
                "{ id: chan, name: CHAN MH, aliases: [Ah Man] }",
                "{ id: chan, alias: x }",
            ),
            ("type: disk_image", "type: ewf"),
            ("evidence/usb.E01", "evidence/usb.e01"),
            ("id: src-android", "id: src-usb"),
            ("owner: chan", "owner: fung"),
            ("timezone: UTC", "timezone: Mars/Base"),
        ]),
        expect![[r#"
            $CASE/case.yaml: 9 problems
              $CASE/case.yaml: case: field "id": invalid id "Demo 2025": ids are lower-case letters, digits, '-' and '_', starting with a letter or digit (e.g. "demo-2025")
              $CASE/case.yaml: case: field "timezone": unknown time zone "Hong Kong" (not an IANA name such as "Asia/Hong_Kong" or "UTC"); did you mean "Asia/Hong_Kong"?
              $CASE/case.yaml: case.persons[1] (id "chan"): field "alias": unknown key; did you mean "aliases"? Valid keys here: id, name, aliases
              $CASE/case.yaml: case.persons[1] (id "chan"): field "name": missing required field
              $CASE/case.yaml: sources[0] (id "src-usb"): field "path": evidence not found: $CASE/evidence/usb.e01
              $CASE/case.yaml: sources[0] (id "src-usb"): field "type": unknown source type "ewf"; valid types: disk_image, android_disk, ios_extraction, itunes_backup, archive, media_collection, folder (or leave `type` out to have it sniffed)
              $CASE/case.yaml: sources[1] (id "src-usb"): field "id": duplicate source id "src-usb" (already used by sources[0])
              $CASE/case.yaml: sources[1] (id "src-usb"): field "owner": unknown person "fung"; persons declared under case.persons: leung, chan
              $CASE/case.yaml: sources[1] (id "src-usb"): field "timezone": unknown time zone "Mars/Base" (not an IANA name such as "Asia/Hong_Kong" or "UTC"); did you mean "America/Boise"?"#]],
    );
    assert_eq!(issues.len(), 9);
}

#[test]
fn unreadable_case_file() {
    let dir = CaseDir::new();
    let err = expect_err(Case::load(&dir.path().join("nope.yaml")));
    assert!(matches!(err, CaseError::Read { .. }));
    assert!(err.issues().is_empty());
    expect![[r#"$CASE/nope.yaml: cannot read case file: No such file or directory (os error 2)"#]]
        .assert_eq(&dir.sanitise(&err.to_string()));
}

#[test]
fn password_env_names_a_variable_and_never_echoes_a_password() {
    // A variable name is read as written.
    let dir = CaseDir::new();
    dir.file("evidence/usb.E01");
    dir.file("evidence/blk0_sda.bin");
    let case = dir
        .load(&variant(&[(
            "type: disk_image",
            "password_env: USB_BACKUP_PW",
        )]))
        .unwrap();
    assert_eq!(
        case.source("src-usb").unwrap().password_env.as_deref(),
        Some("USB_BACKUP_PW")
    );
    assert_eq!(case.source("src-android").unwrap().password_env, None);
    // The password itself written there: refused, and not repeated in the message.
    let issues = check(
        &variant(&[("type: disk_image", "password_env: \"s3cret pass!\"")]),
        expect![[
            r#"$CASE/case.yaml: sources[0] (id "src-usb"): field "password_env": password_env names the environment variable that holds the backup password (letters, digits and '_', not starting with a digit), never the password itself; the value written is not shown"#
        ]],
    );
    let kind = single(issues, "src-usb", "password_env");
    assert!(!format!("{kind:?}").contains("s3cret"));
}
