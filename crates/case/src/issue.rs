//! Problems found in `case.yaml` and `config.yaml`, and the errors that carry them.
//!
//! Loading never stops at the first problem: every problem in a file is collected as an [`Issue`]
//! (where it is: file, item, field; what it is: an [`IssueKind`]) and returned together inside one
//! [`CaseError::Invalid`] or [`ConfigError::Invalid`].

use std::fmt;
use std::path::{Path, PathBuf};

/// Where in a file a problem is: an item (`sources[1]`, `case.persons[0]`, `llm`, or the document
/// root), the item's `id` when it has a readable one, and the field within the item.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Location {
    /// Key path of the item, e.g. `sources[1]`, `case`, `scoring.log10_lr`; empty for the root.
    pub item: String,
    /// The item's `id` as written, for list items that have one.
    pub id: Option<String>,
    /// The field (key) within the item the problem concerns, if any.
    pub field: Option<String>,
}

impl Location {
    /// The dotted key path of the problem, e.g. `sources[1].path` or `llm.api_key_env`.
    pub fn key_path(&self) -> String {
        match (&self.field, self.item.is_empty()) {
            (Some(field), true) => field.clone(),
            (Some(field), false) => format!("{}.{field}", self.item),
            (None, _) => self.item.clone(),
        }
    }

    fn is_root(&self) -> bool {
        self.item.is_empty() && self.field.is_none()
    }
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts = Vec::new();
        if !self.item.is_empty() {
            match &self.id {
                Some(id) => parts.push(format!("{} (id {id:?})", self.item)),
                None => parts.push(self.item.clone()),
            }
        }
        if let Some(field) = &self.field {
            parts.push(format!("field {field:?}"));
        }
        f.write_str(&parts.join(": "))
    }
}

/// What is wrong. Each class of problem is its own variant so callers can match on it.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum IssueKind {
    /// The file is not valid YAML. `message` is the parser's, and names the line and column too.
    #[error("YAML syntax error: {message}")]
    Syntax {
        /// 1-based line of the error, when the parser knows it.
        line: Option<usize>,
        /// 1-based column of the error, when the parser knows it.
        column: Option<usize>,
        /// The parser's description.
        message: String,
    },
    /// A required field is absent (or has no value).
    #[error("missing required field")]
    MissingField,
    /// A field that is optional on its own is required by another setting.
    #[error("required when {condition}")]
    RequiredWhen {
        /// The setting that requires it, e.g. `llm.provider is openai_compatible`.
        condition: String,
    },
    /// A key the schema does not know. Never ignored: a typo would otherwise silently drop data.
    #[error("{}", unknown_key(expected, *suggestion))]
    UnknownKey {
        /// The keys valid at this place.
        expected: &'static [&'static str],
        /// The valid key closest to the one written, if any is close.
        suggestion: Option<&'static str>,
    },
    /// The value has the wrong YAML type (e.g. a list where a string belongs).
    #[error("expected {expected}, found {found}")]
    WrongType {
        /// What belongs here, e.g. `a string`.
        expected: &'static str,
        /// What was written, e.g. `a list`.
        found: &'static str,
    },
    /// A text field that must not be empty is empty.
    #[error("must not be empty")]
    EmptyValue,
    /// An id is empty or not of the form `[a-z0-9][a-z0-9_-]*`.
    #[error("{}", invalid_id(value, suggestion.as_deref()))]
    InvalidId {
        /// The id as written.
        value: String,
        /// A valid id derived from it, if one can be.
        suggestion: Option<String>,
    },
    /// Two sources share an id.
    #[error("duplicate source id {id:?} (already used by sources[{first}])")]
    DuplicateSourceId {
        /// The repeated id.
        id: String,
        /// Index of the first source with this id.
        first: usize,
    },
    /// Two persons share an id.
    #[error("duplicate person id {id:?} (already used by case.persons[{first}])")]
    DuplicatePersonId {
        /// The repeated id.
        id: String,
        /// Index of the first person with this id.
        first: usize,
    },
    /// A source's `owner` names no person declared under `case.persons`.
    #[error("{}", unknown_owner(owner, known))]
    UnknownOwner {
        /// The owner as written.
        owner: String,
        /// The person ids that are declared.
        known: Vec<String>,
    },
    /// The evidence path does not exist.
    #[error("evidence not found: {}", shown(path))]
    EvidenceNotFound {
        /// The resolved, absolute path.
        path: PathBuf,
    },
    /// The evidence path exists (or may) but cannot be examined.
    #[error("evidence cannot be accessed: {}: {reason}", shown(path))]
    EvidenceUnreadable {
        /// The resolved, absolute path.
        path: PathBuf,
        /// The operating system's reason.
        reason: String,
    },
    /// A time zone that is not an IANA time zone name.
    #[error(
        "unknown time zone {name:?} (not an IANA name such as \"Asia/Hong_Kong\" or \"UTC\"){}",
        did_you_mean(suggestion.as_deref())
    )]
    UnknownTimeZone {
        /// The name as written.
        name: String,
        /// The closest valid name, if one is close.
        suggestion: Option<String>,
    },
    /// A source `type` that is not one of [`SourceType::ALL`](crate::SourceType::ALL).
    #[error(
        "unknown source type {value:?}; valid types: {} (or leave `type` out to have it sniffed)",
        crate::SourceType::ALL.map(|t| t.as_str()).join(", ")
    )]
    UnknownSourceType {
        /// The type as written.
        value: String,
    },
    /// A `region` that is not an ISO 3166-1 alpha-2 code with telephone numbering metadata.
    #[error(
        "unknown region {value:?}: expected an ISO 3166-1 alpha-2 country code such as \"US\", \"GB\", \"HK\" or \"CN\" (the country whose national phone numbers the source holds)"
    )]
    UnknownRegion {
        /// The region as written.
        value: String,
    },
    /// A setting that must be one of a fixed set of words.
    #[error("unknown value {value:?}; valid values: {}", expected.join(", "))]
    UnknownChoice {
        /// The value as written.
        value: String,
        /// The valid values.
        expected: &'static [&'static str],
    },
    /// A number outside its allowed range, or out of order with another.
    #[error("{value} is out of range: {rule}")]
    OutOfRange {
        /// The value as written.
        value: String,
        /// The rule it breaks, e.g. `must be between 0 and 1 (exclusive)`.
        rule: String,
    },
    /// Settings that contradict each other.
    #[error("{reason}")]
    Conflict {
        /// What contradicts what, and how to fix it.
        reason: String,
    },
    /// A URL that is not `http://` or `https://`.
    #[error("invalid URL {value:?}: must start with http:// or https://")]
    InvalidUrl {
        /// The URL as written.
        value: String,
    },
    /// A value that should name an environment variable but is not a valid name.
    #[error(
        "{value:?} is not an environment variable name (letters, digits and '_', not starting with a digit)"
    )]
    InvalidEnvVarName {
        /// The value as written.
        value: String,
    },
    /// A value that looks like a secret (an API key) where only the name of an environment
    /// variable belongs. The value itself is deliberately not kept.
    #[error(
        "this looks like an API key; keys never go in files: put the key in an environment \
         variable and write that variable's name here (e.g. api_key_env: DEEPSEEK_API_KEY)"
    )]
    SecretInFile,
}

/// A path for a one-line message: control characters escaped.
fn shown(path: &Path) -> String {
    path.display()
        .to_string()
        .chars()
        .map(|c| {
            if c.is_control() {
                c.escape_default().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}

fn did_you_mean(suggestion: Option<&str>) -> String {
    suggestion
        .map(|s| format!("; did you mean {s:?}?"))
        .unwrap_or_default()
}

fn unknown_key(expected: &[&str], suggestion: Option<&str>) -> String {
    let valid = expected.join(", ");
    match suggestion {
        Some(s) => format!("unknown key; did you mean {s:?}? Valid keys here: {valid}"),
        None => format!("unknown key; valid keys here: {valid}"),
    }
}

fn invalid_id(value: &str, suggestion: Option<&str>) -> String {
    let rule = "ids are lower-case letters, digits, '-' and '_', starting with a letter or digit";
    let head = if value.is_empty() {
        "empty id".to_string()
    } else {
        format!("invalid id {value:?}")
    };
    match suggestion {
        Some(s) => format!("{head}: {rule} (e.g. {s:?})"),
        None => format!("{head}: {rule}"),
    }
}

fn unknown_owner(owner: &str, known: &[String]) -> String {
    if known.is_empty() {
        format!("unknown person {owner:?}; no persons are declared under case.persons")
    } else {
        format!(
            "unknown person {owner:?}; persons declared under case.persons: {}",
            known.join(", ")
        )
    }
}

/// One problem in one file.
#[derive(Clone, Debug, PartialEq)]
pub struct Issue {
    /// The file, as an absolute path.
    pub file: PathBuf,
    /// Where in the file.
    pub location: Location,
    /// What is wrong.
    pub kind: IssueKind,
}

impl fmt::Display for Issue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.location.is_root() {
            write!(f, "{}: {}", self.file.display(), self.kind)
        } else {
            write!(
                f,
                "{}: {}: {}",
                self.file.display(),
                self.location,
                self.kind
            )
        }
    }
}

/// Formats the issues of one file: a single issue on its own, several under a count.
fn fmt_issues(f: &mut fmt::Formatter<'_>, file: &Path, issues: &[Issue]) -> fmt::Result {
    match issues {
        [one] => write!(f, "{one}"),
        many => {
            write!(f, "{}: {} problems", file.display(), many.len())?;
            for issue in many {
                write!(f, "\n  {issue}")?;
            }
            Ok(())
        }
    }
}

/// Why a `case.yaml` could not be loaded (or made, see
/// [`CaseFile::new_for_evidence`](crate::CaseFile::new_for_evidence)).
#[derive(Debug, thiserror::Error)]
pub enum CaseError {
    /// The file could not be read.
    #[error("{}: cannot read case file: {source}", file.display())]
    Read {
        /// The case file.
        file: PathBuf,
        /// The operating system's error.
        #[source]
        source: std::io::Error,
    },
    /// The file was read and has problems; all of them are listed.
    #[error("{}", Issues(file, issues))]
    Invalid {
        /// The case file.
        file: PathBuf,
        /// Every problem found.
        issues: Vec<Issue>,
    },
    /// An evidence path given to the case writer cannot be used (not valid UTF-8, or not
    /// resolvable).
    #[error("{}: {reason}", shown(path))]
    Path {
        /// The path as given.
        path: PathBuf,
        /// Why it cannot be used.
        reason: String,
    },
}

impl CaseError {
    /// The problems found (empty for [`CaseError::Read`]).
    pub fn issues(&self) -> &[Issue] {
        match self {
            CaseError::Read { .. } | CaseError::Path { .. } => &[],
            CaseError::Invalid { issues, .. } => issues,
        }
    }
}

/// Why a `config.yaml` could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// The file could not be read.
    #[error("{}: cannot read config file: {source}", file.display())]
    Read {
        /// The config file.
        file: PathBuf,
        /// The operating system's error.
        #[source]
        source: std::io::Error,
    },
    /// The file was read and has problems; all of them are listed.
    #[error("{}", Issues(file, issues))]
    Invalid {
        /// The config file.
        file: PathBuf,
        /// Every problem found.
        issues: Vec<Issue>,
    },
}

impl ConfigError {
    /// The problems found (empty for [`ConfigError::Read`]).
    pub fn issues(&self) -> &[Issue] {
        match self {
            ConfigError::Read { .. } => &[],
            ConfigError::Invalid { issues, .. } => issues,
        }
    }
}

struct Issues<'a>(&'a Path, &'a [Issue]);

impl fmt::Display for Issues<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt_issues(f, self.0, self.1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn loc(item: &str, id: Option<&str>, field: Option<&str>) -> Location {
        Location {
            item: item.into(),
            id: id.map(Into::into),
            field: field.map(Into::into),
        }
    }

    #[test]
    fn location_display_and_key_path() {
        let cases = [
            (
                loc("", None, Some("sourcez")),
                "field \"sourcez\"",
                "sourcez",
            ),
            (
                loc("case", None, Some("timezone")),
                "case: field \"timezone\"",
                "case.timezone",
            ),
            (
                loc("sources[1]", Some("src-usb"), Some("path")),
                "sources[1] (id \"src-usb\"): field \"path\"",
                "sources[1].path",
            ),
            (loc("sources[0]", None, None), "sources[0]", "sources[0]"),
        ];
        for (location, display, key_path) in cases {
            assert_eq!(location.to_string(), display);
            assert_eq!(location.key_path(), key_path);
        }
    }

    #[test]
    fn one_issue_shows_alone_several_under_a_count() {
        let file = PathBuf::from("/c/case.yaml");
        let issue = Issue {
            file: file.clone(),
            location: loc("", None, Some("case")),
            kind: IssueKind::MissingField,
        };
        let one = CaseError::Invalid {
            file: file.clone(),
            issues: vec![issue.clone()],
        };
        assert_eq!(
            one.to_string(),
            "/c/case.yaml: field \"case\": missing required field"
        );
        let two = CaseError::Invalid {
            file,
            issues: vec![issue.clone(), issue],
        };
        assert_eq!(
            two.to_string(),
            "/c/case.yaml: 2 problems\n  /c/case.yaml: field \"case\": missing required field\n  \
             /c/case.yaml: field \"case\": missing required field"
        );
    }
}
