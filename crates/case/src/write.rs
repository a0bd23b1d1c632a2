//! Writing `case.yaml` (for `masf init DIR FILE...`): a plain model of the file and a stable,
//! commented YAML rendering of it that [`Case::load`](crate::Case::load) reads back.

use std::collections::HashSet;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use crate::case::{Case, Person, SourceType, id_from_text, is_valid_id};
use crate::issue::{CaseError, Issue, IssueKind, Location};
use crate::paths::{normalize, relative_to};

/// The contents of a `case.yaml`, as written.
#[derive(Clone, Debug, PartialEq)]
pub struct CaseFile {
    /// The `case:` section.
    pub case: CaseFileMeta,
    /// The `sources:` section.
    pub sources: Vec<SourceEntry>,
}

/// The `case:` section as written (`timezone` is an IANA name).
#[derive(Clone, Debug, PartialEq)]
pub struct CaseFileMeta {
    /// Case id.
    pub id: String,
    /// Human title.
    pub title: String,
    /// The examiner responsible.
    pub examiner: String,
    /// IANA name of the display time zone.
    pub timezone: String,
    /// The case's phone-numbering region (ISO 3166-1 alpha-2), if the examiner set one.
    pub region: Option<String>,
    /// Known actors.
    pub persons: Vec<Person>,
}

/// One entry of `sources:` as written.
#[derive(Clone, Debug, PartialEq)]
pub struct SourceEntry {
    /// Source id.
    pub id: String,
    /// Human label.
    pub label: String,
    /// Path relative to the case directory (or absolute), with `/` separators.
    pub path: String,
    /// Owner person id.
    pub owner: Option<String>,
    /// Declared type; `None` leaves it to sniffing.
    pub source_type: Option<SourceType>,
    /// IANA name of the source's time zone, when it differs from the case's.
    pub timezone: Option<String>,
    /// The source's phone-numbering region, when it differs from the case's.
    pub region: Option<String>,
    /// The environment variable holding an encrypted backup's password (its name only).
    pub password_env: Option<String>,
    /// Free-text notes.
    pub notes: Option<String>,
}

impl CaseFile {
    /// A case file for `evidence`, to be written as `case_dir/case.yaml`. Nothing is read from
    /// disk.
    ///
    /// - `case.id` is `case_id`, or is derived from the directory name; `title` is the directory
    ///   name, `examiner` is `unassigned` and `timezone` is `UTC`, for the examiner to complete
    ///   (the fields of [`CaseFile::case`] can also be set before writing).
    /// - Each source's path is written relative to `case_dir` (see [`SourceEntry::path`]), its
    ///   label is the file name, its id is derived from the file name (`usb.E01` →
    ///   `src-usb-e01`) and made unique, and no `type` is written so that every type is sniffed.
    ///
    /// Errors: no evidence, an invalid `case_id` ([`CaseError::Invalid`]), or a path that cannot
    /// be resolved or written in YAML ([`CaseError::Path`]).
    pub fn new_for_evidence(
        case_dir: &Path,
        evidence: &[PathBuf],
        case_id: Option<&str>,
    ) -> Result<CaseFile, CaseError> {
        let case_dir = resolve(case_dir)?;
        let file = case_dir.join("case.yaml");
        let dir_name = case_dir
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let id = match case_id {
            Some(id) => id.to_string(),
            None => Some(id_from_text(&dir_name))
                .filter(|id| !id.is_empty())
                .unwrap_or_else(|| "case".to_string()),
        };
        let mut issues = Vec::new();
        let mut problem = |item: &str, field: &str, kind: IssueKind| {
            issues.push(Issue {
                file: file.clone(),
                location: Location {
                    item: item.to_string(),
                    id: None,
                    field: Some(field.to_string()),
                },
                kind,
            })
        };
        if !is_valid_id(&id) {
            let suggestion = Some(id_from_text(&id)).filter(|s| !s.is_empty());
            let kind = IssueKind::InvalidId {
                value: id.clone(),
                suggestion,
            };
            problem("case", "id", kind);
        }
        if evidence.is_empty() {
            problem("", "sources", IssueKind::EmptyValue);
        }
        if !issues.is_empty() {
            return Err(CaseError::Invalid { file, issues });
        }

        let mut taken = HashSet::new();
        let mut sources = Vec::with_capacity(evidence.len());
        for path in evidence {
            let resolved = resolve(path)?;
            let relative = relative_to(&resolved, &case_dir);
            let Some(written) = relative.to_str() else {
                return Err(CaseError::Path {
                    path: path.clone(),
                    reason: "not valid UTF-8, so it cannot be written to case.yaml".into(),
                });
            };
            let label = resolved
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_else(|| written.to_string());
            let stem = id_from_text(&label);
            let base = if stem.is_empty() {
                "src".to_string()
            } else {
                format!("src-{stem}")
            };
            sources.push(SourceEntry {
                id: unique(&base, &mut taken),
                label,
                path: written.replace(std::path::MAIN_SEPARATOR, "/"),
                owner: None,
                source_type: None,
                timezone: None,
                region: None,
                password_env: None,
                notes: None,
            });
        }
        let title = if dir_name.is_empty() {
            id.clone()
        } else {
            dir_name
        };
        Ok(CaseFile {
            case: CaseFileMeta {
                id,
                title,
                examiner: "unassigned".into(),
                timezone: "UTC".into(),
                region: None,
                persons: Vec::new(),
            },
            sources,
        })
    }

    /// The file as YAML: a header comment, then `case:` and `sources:` with keys in schema order;
    /// absent optional fields are left out; strings are quoted only when they must be.
    pub fn to_yaml(&self) -> String {
        let mut out = String::new();
        out.push_str(
            "# MASForensics case file. Source paths are relative to this file; a source\n",
        );
        out.push_str(
            "# without `type` has its type sniffed from its content. Time zones are IANA\n",
        );
        out.push_str("# names, e.g. Asia/Hong_Kong.\n");
        out.push_str("case:\n");
        let m = &self.case;
        field(&mut out, "  ", "id", &m.id);
        field(&mut out, "  ", "title", &m.title);
        field(&mut out, "  ", "examiner", &m.examiner);
        field(&mut out, "  ", "timezone", &m.timezone);
        if let Some(region) = &m.region {
            field(&mut out, "  ", "region", region);
        }
        if !m.persons.is_empty() {
            out.push_str("  persons:\n");
            for p in &m.persons {
                field(&mut out, "    - ", "id", &p.id);
                field(&mut out, "      ", "name", &p.name);
                if !p.aliases.is_empty() {
                    let aliases: Vec<String> = p.aliases.iter().map(|a| scalar(a)).collect();
                    let _ = writeln!(out, "      aliases: [{}]", aliases.join(", "));
                }
            }
        }
        out.push_str("sources:\n");
        for s in &self.sources {
            field(&mut out, "  - ", "id", &s.id);
            field(&mut out, "    ", "label", &s.label);
            field(&mut out, "    ", "path", &s.path);
            if let Some(owner) = &s.owner {
                field(&mut out, "    ", "owner", owner);
            }
            if let Some(t) = s.source_type {
                field(&mut out, "    ", "type", t.as_str());
            }
            if let Some(tz) = &s.timezone {
                field(&mut out, "    ", "timezone", tz);
            }
            if let Some(region) = &s.region {
                field(&mut out, "    ", "region", region);
            }
            if let Some(var) = &s.password_env {
                field(&mut out, "    ", "password_env", var);
            }
            if let Some(notes) = &s.notes {
                field(&mut out, "    ", "notes", notes);
            }
        }
        out
    }
}

impl From<&Case> for CaseFile {
    /// The file that describes a loaded case, with each path as it was written.
    fn from(case: &Case) -> CaseFile {
        CaseFile {
            case: CaseFileMeta {
                id: case.meta.id.clone(),
                title: case.meta.title.clone(),
                examiner: case.meta.examiner.clone(),
                timezone: case.meta.timezone.clone(),
                region: case.meta.region.map(|r| r.to_string()),
                persons: case.meta.persons.clone(),
            },
            sources: case
                .sources
                .iter()
                .map(|s| SourceEntry {
                    id: s.id.clone(),
                    label: s.label.clone(),
                    path: s.path_as_written.clone(),
                    owner: s.owner.clone(),
                    source_type: s.declared_type,
                    timezone: s.timezone_declared.then(|| s.timezone.clone()),
                    region: (s.region != case.meta.region)
                        .then(|| s.region.map(|r| r.to_string()))
                        .flatten(),
                    password_env: s.password_env.clone(),
                    notes: s.notes.clone(),
                })
                .collect(),
        }
    }
}

fn resolve(path: &Path) -> Result<PathBuf, CaseError> {
    std::path::absolute(path)
        .map(|p| normalize(&p))
        .map_err(|err| CaseError::Path {
            path: path.to_path_buf(),
            reason: format!("cannot be made absolute: {err}"),
        })
}

/// `base`, or `base-2`, `base-3`, … whichever is free first; marks it taken.
fn unique(base: &str, taken: &mut HashSet<String>) -> String {
    let mut candidate = base.to_string();
    let mut n = 2;
    while taken.contains(&candidate) {
        candidate = format!("{base}-{n}");
        n += 1;
    }
    taken.insert(candidate.clone());
    candidate
}

fn field(out: &mut String, indent: &str, key: &str, value: &str) {
    let _ = writeln!(out, "{indent}{key}: {}", scalar(value));
}

/// A YAML scalar for `s`: plain when that reads back as the same string, double-quoted otherwise.
fn scalar(s: &str) -> String {
    if plain_is_safe(s) {
        s.to_string()
    } else {
        double_quoted(s)
    }
}

/// Conservative: only letters, digits, space and `_ - . / ( ) +` (plus any non-ASCII letter),
/// starting with a letter, digit, `_`, `.` or `/`, not ending in a space, and not a word YAML
/// reads as a boolean, null or number.
fn plain_is_safe(s: &str) -> bool {
    let Some(first) = s.chars().next() else {
        return false;
    };
    let allowed = |c: char| c.is_alphanumeric() || " _-./()+".contains(c);
    let starts_ok = first.is_alphanumeric() || "_./".contains(first);
    if !starts_ok || s.ends_with(' ') || !s.chars().all(allowed) {
        return false;
    }
    let lower = s.to_ascii_lowercase();
    const SPECIAL: &[&str] = &[
        "y", "n", "yes", "no", "true", "false", "on", "off", "null", ".nan", ".inf",
    ];
    if SPECIAL.contains(&lower.as_str()) {
        return false;
    }
    // Anything starting like a number may be read as one (1e3, 0x1f, 1_000, .5, 2024).
    let dot_number = s
        .strip_prefix('.')
        .is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_digit()));
    !(first.is_ascii_digit() || dot_number)
}

fn double_quoted(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if c.is_control() => {
                let _ = write!(out, "\\u{:04x}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_yaml_ng::Value;

    #[test]
    fn scalars_read_back_as_the_same_string() {
        for s in [
            "plain",
            "LEUNG YL",
            "Asia/Hong_Kong",
            "evidence/usb.E01",
            "../ev/blk0_sda.bin",
            "yes",
            "No",
            "null",
            "~",
            "2024",
            "1e3",
            "0x1f",
            ".5",
            "a: b",
            "x # y",
            "- item",
            "[list]",
            "{map}",
            "'quoted'",
            "\"dq\"",
            "back\\slash",
            "line\nbreak",
            "tab\there",
            "trailing ",
            " leading",
            "",
            "陈 MH 的手机",
            "bell\u{7}",
            "*alias",
            "&anchor",
            "!tag",
            "%percent",
            "@at",
            "`tick",
            "|pipe",
            ">fold",
        ] {
            let yaml = format!("k: {}\n", scalar(s));
            let value: Value = serde_yaml_ng::from_str(&yaml).unwrap_or(Value::Null);
            assert_eq!(value.get("k").and_then(Value::as_str), Some(s), "{yaml}");
        }
    }

    #[test]
    fn unique_ids() {
        let mut taken = HashSet::new();
        let ids: Vec<String> = ["src-a", "src-a", "src-a", "src-b"]
            .iter()
            .map(|b| unique(b, &mut taken))
            .collect();
        assert_eq!(ids, ["src-a", "src-a-2", "src-a-3", "src-b"]);
    }
}
