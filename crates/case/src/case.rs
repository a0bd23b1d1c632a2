//! `case.yaml`: the case, its persons and its evidence sources.

use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};

use jiff::tz::TimeZone;
use serde::{Deserialize, Serialize};
use serde_yaml_ng::Value;

use crate::issue::{CaseError, IssueKind};
use crate::paths::normalize;
use crate::yaml::{At, Obj, Reader};
use crate::zone;

const ROOT_KEYS: &[&str] = &["case", "sources"];
const CASE_KEYS: &[&str] = &["id", "title", "examiner", "timezone", "region", "persons"];
const PERSON_KEYS: &[&str] = &["id", "name", "aliases"];
const SOURCE_KEYS: &[&str] = &[
    "id",
    "label",
    "path",
    "owner",
    "type",
    "timezone",
    "region",
    "notes",
    "password_env",
];

/// A loaded and validated case: every id well formed and unique, every owner a declared person,
/// every time zone an IANA zone, every evidence path present.
#[derive(Clone, Debug, PartialEq)]
pub struct Case {
    /// The `case.yaml` file, absolute.
    pub file: PathBuf,
    /// The directory holding `case.yaml`; source paths are relative to it.
    pub dir: PathBuf,
    /// The `case:` section.
    pub meta: CaseMeta,
    /// The `sources:` section, in file order.
    pub sources: Vec<SourceSpec>,
}

/// The `case:` section.
#[derive(Clone, Debug, PartialEq)]
pub struct CaseMeta {
    /// Case id, `[a-z0-9][a-z0-9_-]*`.
    pub id: String,
    /// Human title.
    pub title: String,
    /// The examiner responsible.
    pub examiner: String,
    /// IANA name of the display time zone of the report (canonical spelling).
    pub timezone: String,
    /// The display time zone, parsed.
    pub tz: TimeZone,
    /// The phone-numbering region (ISO 3166-1 alpha-2) the examiner sets for every source
    /// whose own evidence does not give one (`region:`); never derived from the time zone.
    pub region: Option<masf_graph::Region>,
    /// Known actors (may be empty).
    pub persons: Vec<Person>,
}

/// A known actor of the case.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Person {
    /// Person id, `[a-z0-9][a-z0-9_-]*`, referenced by [`SourceSpec::owner`].
    pub id: String,
    /// Name as the examiner writes it, e.g. `LEUNG YL`.
    pub name: String,
    /// Other names the person is known by.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub aliases: Vec<String>,
}

/// One evidence source as declared in `case.yaml`.
#[derive(Clone, Debug, PartialEq)]
pub struct SourceSpec {
    /// Source id, `[a-z0-9][a-z0-9_-]*`, unique within the case.
    pub id: String,
    /// Human label.
    pub label: String,
    /// The evidence path, resolved against the case directory and made absolute (lexically:
    /// `.` and `..` folded, symlinks not resolved).
    pub path: PathBuf,
    /// The path exactly as written in `case.yaml`.
    pub path_as_written: String,
    /// Id of the person who owns the device, if declared.
    pub owner: Option<String>,
    /// The type declared in `case.yaml`; `None` means it is to be sniffed from content.
    pub declared_type: Option<SourceType>,
    /// IANA name (canonical spelling) of the zone naive timestamps in this source are read in:
    /// the source's own `timezone`, else the case's.
    pub timezone: String,
    /// That zone, parsed.
    pub tz: TimeZone,
    /// Whether `timezone` was written for this source (rather than inherited from the case).
    pub timezone_declared: bool,
    /// The phone-numbering region the examiner sets for this source (`region:`, ISO 3166-1
    /// alpha-2), else the case's; used only when the source's own evidence (its SIM, its own
    /// number, its locale) gives none.
    pub region: Option<masf_graph::Region>,
    /// Free-text notes.
    pub notes: Option<String>,
    /// The environment variable holding the password of an encrypted iTunes/Finder backup
    /// (`password_env:`); the name only, never the password.
    pub password_env: Option<String>,
}

/// The kinds of evidence source. Written in snake_case in YAML.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SourceType {
    /// A disk image (E01 or raw) with a file system or partition table.
    DiskImage,
    /// An Android whole-disk dump (raw or E01, GPT-partitioned).
    AndroidDisk,
    /// An iOS full-file-system extraction (zip, tar or folder).
    IosExtraction,
    /// An iTunes/Finder backup folder.
    ItunesBackup,
    /// A zip or tar archive.
    Archive,
    /// Screenshots or photos.
    MediaCollection,
    /// A plain folder.
    Folder,
}

impl SourceType {
    /// Every source type, in documentation order.
    pub const ALL: [SourceType; 7] = [
        SourceType::DiskImage,
        SourceType::AndroidDisk,
        SourceType::IosExtraction,
        SourceType::ItunesBackup,
        SourceType::Archive,
        SourceType::MediaCollection,
        SourceType::Folder,
    ];

    /// The YAML name, e.g. `disk_image`.
    pub fn as_str(self) -> &'static str {
        match self {
            SourceType::DiskImage => "disk_image",
            SourceType::AndroidDisk => "android_disk",
            SourceType::IosExtraction => "ios_extraction",
            SourceType::ItunesBackup => "itunes_backup",
            SourceType::Archive => "archive",
            SourceType::MediaCollection => "media_collection",
            SourceType::Folder => "folder",
        }
    }

    /// The type with this YAML name, if any.
    pub fn from_name(name: &str) -> Option<SourceType> {
        SourceType::ALL.into_iter().find(|t| t.as_str() == name)
    }
}

impl fmt::Display for SourceType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Whether `id` is a valid case, person or source id: `[a-z0-9][a-z0-9_-]*`.
pub fn is_valid_id(id: &str) -> bool {
    let mut chars = id.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
        && chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_')
}

/// A valid id made from arbitrary text: lower-cased, every run of other characters turned into
/// one `-`, trimmed. Empty when the text has no ASCII letter or digit.
pub fn id_from_text(text: &str) -> String {
    let mut id = String::new();
    for c in text.chars() {
        if c.is_ascii_alphanumeric() {
            id.push(c.to_ascii_lowercase());
        } else if !id.is_empty() && !id.ends_with('-') {
            id.push('-');
        }
    }
    id.trim_end_matches('-').to_string()
}

impl Case {
    /// Reads and validates a `case.yaml`. Every problem found is reported in one
    /// [`CaseError::Invalid`].
    pub fn load(path: &Path) -> Result<Case, CaseError> {
        let file = absolute(path);
        let text = std::fs::read_to_string(&file).map_err(|source| CaseError::Read {
            file: file.clone(),
            source,
        })?;
        Case::parse(&text, &file)
    }

    /// Validates `case.yaml` text as if read from `file` (relative source paths are resolved
    /// against its directory, and evidence paths must exist).
    pub fn parse(text: &str, file: &Path) -> Result<Case, CaseError> {
        let file = absolute(file);
        let dir = file.parent().map(Path::to_path_buf).unwrap_or_default();
        let mut r = Reader::new(&file);
        let case = r
            .parse(text)
            .and_then(|root| read_case(&mut r, &root, &file, &dir));
        match case {
            Some(case) if r.issues.is_empty() => Ok(case),
            _ => Err(CaseError::Invalid {
                file,
                issues: r.issues,
            }),
        }
    }

    /// The source with this id.
    pub fn source(&self, id: &str) -> Option<&SourceSpec> {
        self.sources.iter().find(|s| s.id == id)
    }

    /// The person with this id.
    pub fn person(&self, id: &str) -> Option<&Person> {
        self.meta.persons.iter().find(|p| p.id == id)
    }
}

/// `path` made absolute against the current directory, and normalised.
fn absolute(path: &Path) -> PathBuf {
    normalize(&std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf()))
}

fn read_case(r: &mut Reader, root: &Value, file: &Path, dir: &Path) -> Option<Case> {
    let root = r.obj(root, At::root(), None, ROOT_KEYS)?;
    let meta = match root.get("case") {
        Some(value) => r
            .obj(value, At::root().child("case"), Some("case"), CASE_KEYS)
            .map(|obj| read_meta(r, &obj)),
        None => {
            r.missing(&root, "case");
            None
        }
    };
    // Owners are checked only when the person list could be read, to avoid a cascade of
    // "unknown person" reports caused by one broken `case:` section.
    let (zone, person_ids, region) = match &meta {
        Some(m) => (
            m.timezone.as_ref(),
            m.person_ids.as_deref(),
            m.region.flatten(),
        ),
        None => (None, None, None),
    };
    let sources = read_sources(r, &root, dir, zone, region, person_ids);
    let meta = meta?;
    let zone = meta.timezone?;
    Some(Case {
        file: file.to_path_buf(),
        dir: dir.to_path_buf(),
        meta: CaseMeta {
            id: meta.id?,
            title: meta.title?,
            examiner: meta.examiner?,
            timezone: zone.0,
            tz: zone.1,
            region: meta.region?,
            persons: meta.persons?,
        },
        sources: sources?,
    })
}

/// The `case:` section as far as it could be read.
struct PartialMeta {
    id: Option<String>,
    title: Option<String>,
    examiner: Option<String>,
    timezone: Option<(String, TimeZone)>,
    /// `Some(None)` when no region is written; `None` when the one written is invalid.
    region: Option<Option<masf_graph::Region>>,
    persons: Option<Vec<Person>>,
    /// Every person id as written, for checking owners; `None` when unknowable.
    person_ids: Option<Vec<String>>,
}

fn read_meta(r: &mut Reader, obj: &Obj<'_>) -> PartialMeta {
    let id = read_id(r, obj, "id");
    let title = r.req_str(obj, "title");
    let examiner = r.req_str(obj, "examiner");
    let timezone = r
        .req_str(obj, "timezone")
        .and_then(|name| read_zone(r, obj, "timezone", &name));
    let region = read_region(r, obj);
    let (persons, person_ids) = read_persons(r, obj);
    PartialMeta {
        id,
        title,
        examiner,
        timezone,
        region,
        persons,
        person_ids,
    }
}

/// The persons, and the ids written for them. The ids are `None` when the list itself could not be
/// read; they include persons whose entries are otherwise broken, so that sources owned by those
/// persons are not reported as well.
fn read_persons(r: &mut Reader, case: &Obj<'_>) -> (Option<Vec<Person>>, Option<Vec<String>>) {
    if case.get("persons").is_none() {
        return (Some(Vec::new()), Some(Vec::new()));
    }
    let Some(items) = r.opt_list(case, "persons") else {
        return (None, None);
    };
    let mut persons = Vec::new();
    let mut written_ids = Vec::new();
    let mut first_index: HashMap<String, usize> = HashMap::new();
    let mut ok = true;
    for (i, item) in items.iter().enumerate() {
        let at = case.at.element("persons", i);
        let Some(obj) = r.obj(item, at, None, PERSON_KEYS) else {
            ok = false;
            continue;
        };
        if let Some(Value::String(id)) = obj.get("id") {
            written_ids.push(id.clone());
        }
        let id = read_id(r, &obj, "id");
        if let Some(id) = &id {
            if let Some(&first) = first_index.get(id) {
                let kind = IssueKind::DuplicatePersonId {
                    id: id.clone(),
                    first,
                };
                r.report(&obj.at, Some("id"), kind);
            } else {
                first_index.insert(id.clone(), i);
            }
        }
        let name = r.req_str(&obj, "name");
        let aliases = match obj.get("aliases") {
            None => Some(Vec::new()),
            Some(_) => r.opt_str_list(&obj, "aliases"),
        };
        match (id, name, aliases) {
            (Some(id), Some(name), Some(aliases)) => persons.push(Person { id, name, aliases }),
            _ => ok = false,
        }
    }
    (ok.then_some(persons), Some(written_ids))
}

fn read_sources(
    r: &mut Reader,
    root: &Obj<'_>,
    dir: &Path,
    case_zone: Option<&(String, TimeZone)>,
    case_region: Option<masf_graph::Region>,
    person_ids: Option<&[String]>,
) -> Option<Vec<SourceSpec>> {
    if root.get("sources").is_none() {
        r.missing(root, "sources");
        return None;
    }
    let items = r.opt_list(root, "sources")?;
    if items.is_empty() {
        r.report(&root.at, Some("sources"), IssueKind::EmptyValue);
        return None;
    }
    let mut sources = Vec::new();
    let mut first_index: HashMap<String, usize> = HashMap::new();
    let mut ok = true;
    for (i, item) in items.iter().enumerate() {
        let at = root.at.element("sources", i);
        let Some(obj) = r.obj(item, at, None, SOURCE_KEYS) else {
            ok = false;
            continue;
        };
        if let Some(id) = read_id(r, &obj, "id")
            && let Some(&first) = first_index.get(&id)
        {
            r.report(
                &obj.at,
                Some("id"),
                IssueKind::DuplicateSourceId { id, first },
            );
        } else if let Some(Value::String(id)) = obj.get("id") {
            first_index.entry(id.clone()).or_insert(i);
        }
        match read_source(r, &obj, dir, case_zone, case_region, person_ids) {
            Some(source) => sources.push(source),
            None => ok = false,
        }
    }
    ok.then_some(sources)
}

/// Reads one source; its id has been checked by the caller and is re-read here quietly.
fn read_source(
    r: &mut Reader,
    obj: &Obj<'_>,
    dir: &Path,
    case_zone: Option<&(String, TimeZone)>,
    case_region: Option<masf_graph::Region>,
    person_ids: Option<&[String]>,
) -> Option<SourceSpec> {
    let id = match obj.get("id") {
        Some(Value::String(id)) if is_valid_id(id) => Some(id.clone()),
        _ => None,
    };
    let label = r.req_str(obj, "label");
    let path_as_written = r.req_str(obj, "path");
    let path = path_as_written.as_deref().and_then(|written| {
        let path = normalize(&dir.join(written));
        check_evidence(r, obj, &path).then_some(path)
    });
    let owner = r.opt_str(obj, "owner");
    if let (Some(owner), Some(person_ids)) = (&owner, person_ids)
        && !person_ids.contains(owner)
    {
        let known = person_ids.to_vec();
        let kind = IssueKind::UnknownOwner {
            owner: owner.clone(),
            known,
        };
        r.report(&obj.at, Some("owner"), kind);
    }
    let declared_type = match r.opt_str(obj, "type") {
        None => Some(None),
        Some(name) => match SourceType::from_name(&name) {
            Some(t) => Some(Some(t)),
            None => {
                r.report(
                    &obj.at,
                    Some("type"),
                    IssueKind::UnknownSourceType { value: name },
                );
                None
            }
        },
    };
    let (timezone, timezone_declared) = match r.opt_str(obj, "timezone") {
        Some(name) => (read_zone(r, obj, "timezone", &name), true),
        None => (case_zone.cloned(), false),
    };
    let region = match read_region(r, obj) {
        Some(None) => Some(case_region),
        other => other,
    };
    let notes = r.opt_str(obj, "notes");
    let password_env = match r.opt_str(obj, "password_env") {
        Some(name) if !crate::config::is_env_name(&name) => {
            // Not echoed: an examiner who wrote the password itself must not see it printed.
            let reason = "password_env names the environment variable that holds the backup \
                          password (letters, digits and '_', not starting with a digit), never \
                          the password itself; the value written is not shown"
                .to_string();
            r.report(
                &obj.at,
                Some("password_env"),
                IssueKind::Conflict { reason },
            );
            None
        }
        other => Some(other),
    };
    let timezone = timezone?;
    let region = region?;
    Some(SourceSpec {
        id: id?,
        label: label?,
        path: path?,
        path_as_written: path_as_written?,
        owner,
        declared_type: declared_type?,
        timezone: timezone.0,
        tz: timezone.1,
        timezone_declared,
        region,
        notes,
        password_env: password_env?,
    })
}

/// Whether the evidence exists; reports it when it does not.
fn check_evidence(r: &mut Reader, obj: &Obj<'_>, path: &Path) -> bool {
    match std::fs::metadata(path) {
        Ok(_) => true,
        Err(err)
            if matches!(
                err.kind(),
                std::io::ErrorKind::NotFound | std::io::ErrorKind::NotADirectory
            ) =>
        {
            let kind = IssueKind::EvidenceNotFound {
                path: path.to_path_buf(),
            };
            r.report(&obj.at, Some("path"), kind);
            false
        }
        Err(err) => {
            let kind = IssueKind::EvidenceUnreadable {
                path: path.to_path_buf(),
                reason: err.to_string(),
            };
            r.report(&obj.at, Some("path"), kind);
            false
        }
    }
}

/// A required, well-formed id.
fn read_id(r: &mut Reader, obj: &Obj<'_>, key: &str) -> Option<String> {
    if obj.get(key).is_none() {
        r.missing(obj, key);
        return None;
    }
    let id = r.opt_str(obj, key)?;
    if is_valid_id(&id) {
        return Some(id);
    }
    let suggestion = Some(id_from_text(&id)).filter(|s| !s.is_empty());
    r.report(
        &obj.at,
        Some(key),
        IssueKind::InvalidId {
            value: id,
            suggestion,
        },
    );
    None
}

/// The optional `region:` of `obj`: `Some(None)` when absent, `None` (reported) when it is
/// not a region libphonenumber's metadata knows.
fn read_region(r: &mut Reader, obj: &Obj<'_>) -> Option<Option<masf_graph::Region>> {
    if obj.get("region").is_none() {
        return Some(None);
    }
    let value = r.opt_str(obj, "region")?;
    match masf_graph::Region::parse(&value) {
        Ok(region) => Some(Some(region)),
        Err(_) => {
            r.report(&obj.at, Some("region"), IssueKind::UnknownRegion { value });
            None
        }
    }
}

fn read_zone(r: &mut Reader, obj: &Obj<'_>, key: &str, name: &str) -> Option<(String, TimeZone)> {
    let zone = zone::lookup(name);
    if zone.is_none() {
        let kind = IssueKind::UnknownTimeZone {
            name: name.to_string(),
            suggestion: zone::suggest(name),
        };
        r.report(&obj.at, Some(key), kind);
    }
    zone
}

#[cfg(test)]
mod tests {
    use expect_test::{Expect, expect};

    use super::*;

    /// Parses `yaml` as `case.yaml` in this crate's directory (so `Cargo.toml` and `src` are
    /// existing evidence) and compares the outcome, with that directory shown as `$DIR`.
    fn check(yaml: &str, expect: Expect) {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
        let actual = match Case::parse(yaml, &dir.join("case.yaml")) {
            Ok(case) => format!(
                "ok: {} sources: {}",
                case.meta.id,
                case.sources
                    .iter()
                    .map(|s| format!(
                        "{} {} {:?} {}",
                        s.id,
                        s.path.display(),
                        s.declared_type,
                        s.timezone
                    ))
                    .collect::<Vec<_>>()
                    .join("; ")
            ),
            Err(err) => err.to_string(),
        };
        expect.assert_eq(&actual.replace(&dir.display().to_string(), "$DIR"));
    }

    const CASE: &str = "case: {id: c1, title: T, examiner: E, timezone: Asia/Hong_Kong, \
                        persons: [{id: leung, name: LEUNG YL}]}\n";

    #[test]
    fn minimal_case() {
        check(
            &format!("{CASE}sources: [{{id: s1, label: L, path: Cargo.toml}}]"),
            expect![[r#"ok: c1 sources: s1 $DIR/Cargo.toml None Asia/Hong_Kong"#]],
        );
    }

    #[test]
    fn source_fields() {
        check(
            &format!(
                "{CASE}sources:\n  - {{id: s1, label: L, path: ./src/../src, owner: leung, \
                 type: folder, timezone: utc, notes: n}}"
            ),
            expect![[r#"ok: c1 sources: s1 $DIR/src Some(Folder) UTC"#]],
        );
    }

    #[test]
    fn empty_file() {
        check(
            "",
            expect![[r#"
                $DIR/case.yaml: 2 problems
                  $DIR/case.yaml: field "case": missing required field
                  $DIR/case.yaml: field "sources": missing required field"#]],
        );
    }

    #[test]
    fn root_not_a_mapping() {
        check(
            "- a\n- b\n",
            expect![[r#"$DIR/case.yaml: expected a mapping, found a list"#]],
        );
    }

    #[test]
    fn no_sources() {
        check(
            &format!("{CASE}sources: []"),
            expect![[r#"$DIR/case.yaml: field "sources": must not be empty"#]],
        );
    }

    #[test]
    fn wrong_types() {
        check(
            "case: {id: 7, title: [T], examiner: E, timezone: UTC, persons: {}}\n\
             sources: [{id: s1, label: L, path: Cargo.toml, notes: {a: 1}}, plain]",
            expect![[r#"
                $DIR/case.yaml: 5 problems
                  $DIR/case.yaml: case: field "id": expected a string, found a number
                  $DIR/case.yaml: case: field "title": expected a string, found a list
                  $DIR/case.yaml: case: field "persons": expected a list, found a mapping
                  $DIR/case.yaml: sources[0] (id "s1"): field "notes": expected a string, found a mapping
                  $DIR/case.yaml: sources[1]: expected a mapping, found a string"#]],
        );
    }

    #[test]
    fn broken_person_still_owns() {
        // The person's name is missing, but a source owned by it is not reported too.
        check(
            "case: {id: c1, title: T, examiner: E, timezone: UTC, persons: [{id: chan}]}\n\
             sources: [{id: s1, label: L, path: Cargo.toml, owner: chan}]",
            expect![[
                r#"$DIR/case.yaml: case.persons[0] (id "chan"): field "name": missing required field"#
            ]],
        );
    }

    #[test]
    fn missing_case_section_skips_owner_checks() {
        check(
            "sources: [{id: s1, label: L, path: Cargo.toml, owner: chan}]",
            expect![[r#"$DIR/case.yaml: field "case": missing required field"#]],
        );
    }

    #[test]
    fn ids() {
        for (id, valid) in [
            ("a", true),
            ("0", true),
            ("src-usb_1", true),
            ("", false),
            ("-a", false),
            ("_a", false),
            ("Src", false),
            ("a b", false),
            ("é", false),
        ] {
            assert_eq!(is_valid_id(id), valid, "{id:?}");
        }
        for (text, id) in [
            ("usb.E01", "usb-e01"),
            ("blk0_sda.bin", "blk0-sda-bin"),
            ("  iPhone (Chan) ", "iphone-chan"),
            ("照片", ""),
        ] {
            assert_eq!(id_from_text(text), id, "{text:?}");
        }
    }

    #[test]
    fn source_type_names_round_trip() {
        for t in SourceType::ALL {
            assert_eq!(SourceType::from_name(t.as_str()), Some(t));
            let yaml = serde_yaml_ng::to_string(&t).unwrap_or_default();
            assert_eq!(yaml.trim(), t.as_str());
        }
        assert_eq!(SourceType::from_name("DiskImage"), None);
    }
}
