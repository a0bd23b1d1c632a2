//! Reading a YAML document field by field while collecting every problem.
//!
//! `serde` derive stops at the first error; this walks a parsed [`Value`] instead, so that one pass
//! reports every missing field, unknown key and bad value, each with its location.

use std::path::{Path, PathBuf};

use serde_yaml_ng::{Mapping, Value};

use crate::issue::{Issue, IssueKind, Location};

/// An item of the document: its key path and, for list items, the `id` it declares.
#[derive(Clone, Debug, Default)]
pub(crate) struct At {
    item: String,
    id: Option<String>,
}

impl At {
    /// The document root.
    pub(crate) fn root() -> At {
        At::default()
    }

    /// The mapping under `key` inside this item.
    pub(crate) fn child(&self, key: &str) -> At {
        let item = if self.item.is_empty() {
            key.to_string()
        } else {
            format!("{}.{key}", self.item)
        };
        At { item, id: None }
    }

    /// Element `index` of the list under `key` inside this item.
    pub(crate) fn element(&self, key: &str, index: usize) -> At {
        let mut at = self.child(key);
        at.item = format!("{}[{index}]", at.item);
        at
    }

    /// A location in this item, at `field` if given.
    pub(crate) fn location(&self, field: Option<&str>) -> Location {
        Location {
            item: self.item.clone(),
            id: self.id.clone(),
            field: field.map(str::to_string),
        }
    }

    /// The key path of this item.
    pub(crate) fn item(&self) -> &str {
        &self.item
    }
}

/// A mapping being read, with its location.
pub(crate) struct Obj<'v> {
    map: &'v Mapping,
    pub(crate) at: At,
}

impl<'v> Obj<'v> {
    /// The value under `key`; `None` when absent or null (`key:` or `key: ~`).
    pub(crate) fn get(&self, key: &str) -> Option<&'v Value> {
        self.map.get(key).filter(|v| !v.is_null())
    }
}

/// Collects the issues of one file.
pub(crate) struct Reader {
    file: PathBuf,
    pub(crate) issues: Vec<Issue>,
}

impl Reader {
    pub(crate) fn new(file: &Path) -> Reader {
        Reader {
            file: file.to_path_buf(),
            issues: Vec::new(),
        }
    }

    /// Records a problem at `field` of `at`.
    pub(crate) fn report(&mut self, at: &At, field: Option<&str>, kind: IssueKind) {
        self.issues.push(Issue {
            file: self.file.clone(),
            location: at.location(field),
            kind,
        });
    }

    /// Parses the text as one YAML document (anchors and `<<` merges applied). A syntax error is
    /// recorded and gives `None`; an empty document gives an empty mapping.
    pub(crate) fn parse(&mut self, text: &str) -> Option<Value> {
        let parsed = serde_yaml_ng::from_str::<Value>(text).and_then(|mut value| {
            value.apply_merge()?;
            Ok(value)
        });
        match parsed {
            Ok(Value::Null) => Some(Value::Mapping(Mapping::new())),
            Ok(value) => Some(value),
            Err(err) => {
                let location = err.location();
                self.report(
                    &At::root(),
                    None,
                    IssueKind::Syntax {
                        line: location.as_ref().map(|l| l.line()),
                        column: location.as_ref().map(|l| l.column()),
                        message: err.to_string(),
                    },
                );
                None
            }
        }
    }

    /// Reads `value` as a mapping at `at` whose keys must be among `allowed`; every other key is
    /// reported. For list items the `id` is read first so every report about the item names it.
    pub(crate) fn obj<'v>(
        &mut self,
        value: &'v Value,
        mut at: At,
        field: Option<&str>,
        allowed: &'static [&'static str],
    ) -> Option<Obj<'v>> {
        let Value::Mapping(map) = value else {
            let found = type_name(value);
            self.report(
                &at,
                field,
                IssueKind::WrongType {
                    expected: "a mapping",
                    found,
                },
            );
            return None;
        };
        if at.item.ends_with(']')
            && let Some(Value::String(id)) = map.get("id")
        {
            at.id = Some(id.clone());
        }
        for key in map.keys() {
            let name = match key {
                Value::String(s) => s.clone(),
                other => scalar_text(other),
            };
            if !allowed.contains(&name.as_str()) {
                let suggestion = closest(&name, allowed.iter().copied());
                self.report(
                    &at,
                    Some(&name),
                    IssueKind::UnknownKey {
                        expected: allowed,
                        suggestion,
                    },
                );
            }
        }
        Some(Obj { map, at })
    }

    /// The mapping under `key`, if present.
    pub(crate) fn child_obj<'v>(
        &mut self,
        obj: &Obj<'v>,
        key: &str,
        allowed: &'static [&'static str],
    ) -> Option<Obj<'v>> {
        let value = obj.get(key)?;
        self.obj(value, obj.at.child(key), Some(key), allowed)
    }

    /// Reports a missing required field.
    pub(crate) fn missing(&mut self, obj: &Obj<'_>, key: &str) {
        self.report(&obj.at, Some(key), IssueKind::MissingField);
    }

    /// An optional string; a non-string is reported.
    pub(crate) fn opt_str(&mut self, obj: &Obj<'_>, key: &str) -> Option<String> {
        match obj.get(key)? {
            Value::String(s) => Some(s.clone()),
            other => {
                self.wrong_type(&obj.at, key, "a string", other);
                None
            }
        }
    }

    /// A required, non-empty string.
    pub(crate) fn req_str(&mut self, obj: &Obj<'_>, key: &str) -> Option<String> {
        if obj.get(key).is_none() {
            self.missing(obj, key);
            return None;
        }
        let s = self.opt_str(obj, key)?;
        if s.trim().is_empty() {
            self.report(&obj.at, Some(key), IssueKind::EmptyValue);
            return None;
        }
        Some(s)
    }

    /// An optional list, as its elements.
    pub(crate) fn opt_list<'v>(&mut self, obj: &Obj<'v>, key: &str) -> Option<&'v [Value]> {
        match obj.get(key)? {
            Value::Sequence(items) => Some(items),
            other => {
                self.wrong_type(&obj.at, key, "a list", other);
                None
            }
        }
    }

    /// An optional list of strings.
    pub(crate) fn opt_str_list(&mut self, obj: &Obj<'_>, key: &str) -> Option<Vec<String>> {
        let items = self.opt_list(obj, key)?;
        let mut out = Vec::with_capacity(items.len());
        let mut ok = true;
        for (i, item) in items.iter().enumerate() {
            match item {
                Value::String(s) => out.push(s.clone()),
                other => {
                    self.wrong_type(&obj.at, &format!("{key}[{i}]"), "a string", other);
                    ok = false;
                }
            }
        }
        ok.then_some(out)
    }

    /// An optional number (integers are accepted).
    pub(crate) fn opt_f64(&mut self, obj: &Obj<'_>, key: &str) -> Option<f64> {
        match obj.get(key)? {
            Value::Number(n) => match n.as_f64() {
                Some(x) if x.is_finite() => Some(x),
                _ => {
                    self.report(
                        &obj.at,
                        Some(key),
                        IssueKind::OutOfRange {
                            value: n.to_string(),
                            rule: "must be a finite number".into(),
                        },
                    );
                    None
                }
            },
            other => {
                self.wrong_type(&obj.at, key, "a number", other);
                None
            }
        }
    }

    /// An optional list of numbers.
    pub(crate) fn opt_f64_list(&mut self, obj: &Obj<'_>, key: &str) -> Option<Vec<f64>> {
        let items = self.opt_list(obj, key)?;
        let mut out = Vec::with_capacity(items.len());
        let mut ok = true;
        for (i, item) in items.iter().enumerate() {
            match item.as_f64() {
                Some(x) if x.is_finite() => out.push(x),
                _ => {
                    self.wrong_type(&obj.at, &format!("{key}[{i}]"), "a number", item);
                    ok = false;
                }
            }
        }
        ok.then_some(out)
    }

    /// An optional non-negative integer that fits in `T`.
    pub(crate) fn opt_uint<T: TryFrom<u64>>(&mut self, obj: &Obj<'_>, key: &str) -> Option<T> {
        let value = obj.get(key)?;
        let Some(n) = value.as_u64() else {
            match value {
                Value::Number(n) => self.report(
                    &obj.at,
                    Some(key),
                    IssueKind::OutOfRange {
                        value: n.to_string(),
                        rule: "must be a whole number, 0 or more".into(),
                    },
                ),
                other => self.wrong_type(&obj.at, key, "a whole number", other),
            }
            return None;
        };
        match T::try_from(n) {
            Ok(x) => Some(x),
            Err(_) => {
                self.report(
                    &obj.at,
                    Some(key),
                    IssueKind::OutOfRange {
                        value: n.to_string(),
                        rule: "too large".into(),
                    },
                );
                None
            }
        }
    }

    fn wrong_type(&mut self, at: &At, field: &str, expected: &'static str, found: &Value) {
        let found = type_name(found);
        self.report(at, Some(field), IssueKind::WrongType { expected, found });
    }
}

/// How a value's YAML type is named in messages.
fn type_name(value: &Value) -> &'static str {
    match value {
        Value::Null => "nothing",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Sequence(_) => "a list",
        Value::Mapping(_) => "a mapping",
        Value::Tagged(_) => "a tagged value",
    }
}

/// A short rendering of a non-string key.
fn scalar_text(value: &Value) -> String {
    match value {
        Value::Null => "~".into(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        Value::String(s) => s.clone(),
        other => type_name(other).into(),
    }
}

/// The candidate closest to `wanted` (case-insensitive edit distance), if it is close enough to be
/// a plausible typo.
pub(crate) fn closest<'c>(
    wanted: &str,
    candidates: impl IntoIterator<Item = &'c str>,
) -> Option<&'c str> {
    let wanted = wanted.to_lowercase();
    let limit = (wanted.chars().count() / 3).max(2);
    candidates
        .into_iter()
        .map(|c| (edit_distance(&wanted, &c.to_lowercase()), c))
        .filter(|(d, _)| *d <= limit)
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

/// Levenshtein distance over characters.
pub(crate) fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let above = row[j + 1];
            let cost = usize::from(ca != *cb);
            row[j + 1] = (diagonal + cost).min(above + 1).min(row[j] + 1);
            diagonal = above;
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edit_distances() {
        for (a, b, d) in [
            ("", "", 0),
            ("abc", "", 3),
            ("label", "labell", 1),
            ("timezone", "time_zone", 1),
            ("kitten", "sitting", 3),
            ("香港", "香巷", 1),
        ] {
            assert_eq!(edit_distance(a, b), d, "{a} / {b}");
        }
    }

    #[test]
    fn closest_finds_typos_only() {
        let keys = ["id", "label", "path", "owner", "type", "timezone", "notes"];
        assert_eq!(closest("labell", keys), Some("label"));
        assert_eq!(closest("TimeZone", keys), Some("timezone"));
        assert_eq!(closest("hash", keys), Some("path"));
        assert_eq!(closest("sha256sum", keys), None);
    }

    #[test]
    fn empty_document_is_an_empty_mapping() {
        let mut r = Reader::new(Path::new("/x.yaml"));
        assert_eq!(r.parse(""), Some(Value::Mapping(Mapping::new())));
        assert_eq!(
            r.parse("# only a comment\n"),
            Some(Value::Mapping(Mapping::new()))
        );
        assert!(r.issues.is_empty());
    }

    #[test]
    fn syntax_errors_carry_line_and_column() {
        let mut r = Reader::new(Path::new("/x.yaml"));
        assert_eq!(r.parse("a: 1\nb: [2\n"), None);
        let [issue] = r.issues.as_slice() else {
            panic!("one issue expected: {:?}", r.issues)
        };
        let IssueKind::Syntax { line, column, .. } = &issue.kind else {
            panic!("syntax issue expected: {issue:?}")
        };
        assert_eq!((*line, column.is_some()), (Some(3), true));
    }

    #[test]
    fn duplicate_keys_are_syntax_errors() {
        let mut r = Reader::new(Path::new("/x.yaml"));
        assert_eq!(r.parse("a: 1\na: 2\n"), None);
        assert!(
            matches!(r.issues[0].kind, IssueKind::Syntax { .. }),
            "{:?}",
            r.issues
        );
    }
}
