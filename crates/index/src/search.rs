//! Queries of one source's index, and where each hit is.
//!
//! A query is words (tantivy's syntax: `a b` both, `a OR b`, `-a`, `"a phrase"`, `"a phr"*`,
//! plus `word*` for a prefix), an identifier (normalised like the index: a phone number in any
//! form, an e-mail, a wallet), or a regular expression over the normalised identifiers
//! (`phone:\+1919.*`). Each may be narrowed to a time range of the files' modification times.
//!
//! A hit says where it is: the layer and path of the file, the unit inside it (an SQLite row,
//! an Office part), the byte offset in the file where the text is a decoding of the file's
//! bytes, the column of a row, and the matched text with its context.

use std::ops::Bound;
use std::path::Path;

use masf_graph::identifiers::Region;
use serde::{Deserialize, Serialize};
use tantivy::collector::TopDocs;
use tantivy::query::{BooleanQuery, Occur, QueryParser, RangeQuery, RegexQuery, TermQuery};
use tantivy::schema::IndexRecordOption;
use tantivy::{TantivyDocument, Term};

use crate::{IndexError, Stored, analyzer, ids, open, stored};

/// Bytes of context each side of a hit.
const CONTEXT: usize = 60;

/// How the query text is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    /// Words, phrases and boolean operators.
    #[default]
    Words,
    /// One identifier (phone, e-mail, wallet), found in every written form.
    Identifier,
    /// A regular expression over normalised identifiers (`phone:+1…`, `email:…`, `wallet:…`).
    Regex,
}

/// One query.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Query {
    pub text: String,
    #[serde(default)]
    pub mode: Mode,
    /// Files modified at or after (Unix seconds).
    #[serde(default)]
    pub from: Option<i64>,
    /// Files modified before (Unix seconds).
    #[serde(default)]
    pub to: Option<i64>,
    pub limit: usize,
}

/// One hit.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ts_rs::TS)]
pub struct Hit {
    pub layer: String,
    pub path: String,
    /// Where inside the file, beyond its bytes: `table messages rowid 7`, an Office part.
    pub locator: String,
    /// The reading that gave the text: `text`, `strings`, `office`, `plist`, `sqlite_row`.
    pub kind: String,
    /// The text's encoding in the file (`-` where it is no byte decoding).
    pub encoding: String,
    /// Byte offset of the match in the file, where the text is a decoding of its bytes.
    #[ts(type = "number | null")]
    pub offset: Option<u64>,
    /// The column of an SQLite row, the part of an Office file.
    pub label: Option<String>,
    pub deleted: bool,
    /// Modification time, Unix seconds, where the file system gives one as an instant.
    #[ts(type = "number | null")]
    pub mtime: Option<i64>,
    pub score: f32,
    pub before: String,
    pub matched: String,
    pub after: String,
}

enum Locate {
    Terms(Vec<String>),
    Prefix(String),
    Ids(Vec<String>),
    IdRegex(regex::Regex),
}

/// Runs `q` on the complete index in `dir`; national phone numbers are read with `region`.
pub fn search(dir: &Path, q: &Query, region: Option<&Region>) -> Result<Vec<Hit>, IndexError> {
    let (index, f) = open(dir)?;
    let text = q.text.trim();
    if text.is_empty() {
        return Err(IndexError::Query("the query is empty".into()));
    }
    let tantivy_err = |e: tantivy::TantivyError| IndexError::Tantivy(e, dir.to_path_buf());
    let (query, locate): (Box<dyn tantivy::query::Query>, Locate) = match q.mode {
        Mode::Words => {
            let word_prefix = text
                .strip_suffix('*')
                .filter(|w| !w.contains([' ', '"']) && !w.is_empty());
            if let Some(prefix) = word_prefix {
                let folded = analyzer::fold(prefix);
                let pattern = format!("{}.*", regex::escape(&folded));
                let query = RegexQuery::from_pattern(&pattern, f.text).map_err(tantivy_err)?;
                (Box::new(query), Locate::Prefix(folded))
            } else {
                // Both fields: a Chinese word matches as bigrams in `text` and, where jieba cut
                // it as a word, in `words` too, which ranks the whole word first.
                let mut parser = QueryParser::for_index(&index, vec![f.text, f.words]);
                parser.set_conjunction_by_default();
                let query = parser
                    .parse_query(text)
                    .map_err(|e| IndexError::Query(format!("{text}: {e}")))?;
                let mut terms = Vec::new();
                query.query_terms(&mut |term, _| {
                    if term.field() == f.text
                        && let Some(s) = term.value().as_str()
                    {
                        terms.push(s.to_string());
                    }
                });
                (query, Locate::Terms(terms))
            }
        }
        Mode::Identifier => {
            let terms = ids::query_terms(text, region);
            if terms.is_empty() {
                return Err(IndexError::Query(format!(
                    "{text} reads as no phone number, e-mail address or wallet address{}",
                    if region.is_none() {
                        " (a national phone number needs the case's region)"
                    } else {
                        ""
                    }
                )));
            }
            let clauses = terms
                .iter()
                .map(|t| {
                    let q: Box<dyn tantivy::query::Query> = Box::new(TermQuery::new(
                        Term::from_field_text(f.ids, t),
                        IndexRecordOption::Basic,
                    ));
                    (Occur::Should, q)
                })
                .collect();
            (Box::new(BooleanQuery::new(clauses)), Locate::Ids(terms))
        }
        Mode::Regex => {
            let re = regex::Regex::new(&format!("^(?:{text})$"))
                .map_err(|e| IndexError::Query(format!("{text}: {e}")))?;
            let query = RegexQuery::from_pattern(text, f.ids)
                .map_err(|e| IndexError::Query(format!("{text}: {e}")))?;
            (Box::new(query), Locate::IdRegex(re))
        }
    };
    let query: Box<dyn tantivy::query::Query> = if q.from.is_some() || q.to.is_some() {
        let lower = q.from.map_or(Bound::Unbounded, |t| {
            Bound::Included(Term::from_field_i64(f.mtime, t))
        });
        let upper = q.to.map_or(Bound::Unbounded, |t| {
            Bound::Excluded(Term::from_field_i64(f.mtime, t))
        });
        let lower = match lower {
            // Files without a time are stored as i64::MIN: an open lower bound still skips them.
            Bound::Unbounded => Bound::Excluded(Term::from_field_i64(f.mtime, i64::MIN)),
            b => b,
        };
        Box::new(BooleanQuery::new(vec![
            (Occur::Must, query),
            (Occur::Must, Box::new(RangeQuery::new(lower, upper))),
        ]))
    } else {
        query
    };
    let reader = index.reader().map_err(tantivy_err)?;
    let searcher = reader.searcher();
    let limit = q.limit.max(1);
    let top = searcher
        .search(&query, &TopDocs::with_limit(limit).order_by_score())
        .map_err(tantivy_err)?;
    let mut hits = Vec::with_capacity(top.len());
    for (score, address) in top {
        let d: TantivyDocument = searcher.doc(address).map_err(tantivy_err)?;
        let s = stored(&d, &f);
        hits.push(hit_of(s, score, &locate, region));
    }
    Ok(hits)
}

fn hit_of(s: Stored, score: f32, locate: &Locate, region: Option<&Region>) -> Hit {
    let (start, end) = find_match(&s.text, locate, region).unwrap_or((0, 0));
    let (mark, offset) = crate::decode::file_offset(&s.marks, &s.encoding, &s.text, start);
    let label = mark.and_then(|m| m.label.clone());
    let mut from = start.saturating_sub(CONTEXT);
    while !s.text.is_char_boundary(from) {
        from -= 1;
    }
    let mut to = (end + CONTEXT).min(s.text.len());
    while !s.text.is_char_boundary(to) {
        to += 1;
    }
    let flat = |t: &str| t.replace(['\n', '\r', '\t'], " ");
    // A strings unit is one run a line: the context stays on the hit's run.
    let (from, to) = if s.kind == "strings" || s.kind == "sqlite_row" {
        let line_start = s.text[..start].rfind('\n').map_or(0, |i| i + 1).max(from);
        let line_end = s.text[end..]
            .find('\n')
            .map_or(s.text.len(), |i| end + i)
            .min(to);
        (line_start, line_end)
    } else {
        (from, to)
    };
    Hit {
        layer: s.layer,
        path: s.path,
        locator: s.locator,
        kind: s.kind,
        encoding: s.encoding,
        offset,
        label,
        deleted: s.deleted,
        mtime: s.mtime,
        score,
        before: flat(&s.text[from..start]),
        matched: flat(&s.text[start..end]),
        after: flat(&s.text[end..to]),
    }
}

/// The first place in `text` the query matches: a run of consecutive query terms (a phrase),
/// else one term; an identifier written in any form.
fn find_match(text: &str, locate: &Locate, region: Option<&Region>) -> Option<(usize, usize)> {
    match locate {
        Locate::Terms(terms) => {
            // The longest run of consecutive query terms (a phrase), the first on ties; the
            // text is tokenised only as far as needed: a run as long as the query ends it.
            let mut best: Option<(usize, usize, usize)> = None;
            let mut run: Option<(usize, usize, usize)> = None;
            for (term, from, to) in analyzer::Tokens::new(text) {
                if !terms.contains(&term) {
                    run = None;
                    continue;
                }
                let r = run.map_or((from, to, 1), |(a, _, n)| (a, to, n + 1));
                run = Some(r);
                if best.is_none_or(|b| r.2 > b.2) {
                    best = Some(r);
                }
                if r.2 >= terms.len() {
                    break;
                }
            }
            // A Chinese word the `words` field matched inside a longer run (`向` in
            // `张伟向李娜`) is no token of the text's own: found as written.
            best.map(|(a, b, _)| (a, b)).or_else(|| {
                terms
                    .iter()
                    .filter_map(|t| text.find(t.as_str()).map(|i| (i, i + t.len())))
                    .min()
            })
        }
        Locate::Prefix(p) => analyzer::Tokens::new(text)
            .find(|t| t.0.starts_with(p.as_str()))
            .map(|t| (t.1, t.2)),
        Locate::Ids(terms) => ids::find(text, region)
            .into_iter()
            .find(|f| terms.contains(&f.term))
            .map(|f| (f.start, f.end)),
        Locate::IdRegex(re) => ids::find(text, region)
            .into_iter()
            .find(|f| re.is_match(&f.term))
            .map(|f| (f.start, f.end)),
    }
}

/// Hits of several sources in one list: highest score first, ties by source order, at most
/// `limit`.
pub fn merge<T>(lists: Vec<(T, Vec<Hit>)>, limit: usize) -> Vec<(T, Hit)>
where
    T: Clone,
{
    let mut all: Vec<(usize, T, Hit)> = Vec::new();
    for (i, (key, hits)) in lists.into_iter().enumerate() {
        all.extend(hits.into_iter().map(|h| (i, key.clone(), h)));
    }
    all.sort_by(|a, b| b.2.score.total_cmp(&a.2.score).then(a.0.cmp(&b.0)));
    all.into_iter()
        .take(limit)
        .map(|(_, k, h)| (k, h))
        .collect()
}
