//! `report.html`: one self-contained file (inline CSS, no script, no external resource) that
//! reads offline and prints well. Every evidence-derived string goes through [`esc`].

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use crate::model::Report;
use masf_evidence::fs::{is_hidden_control, push_escaped};

/// Rows of a table shown on one page. A longer table is folded in report.html, its first page
/// of rows shown, and every page of rows is written as a file of its own under
/// [`PAGES_DIR`], linked from the fold: no page ever holds more than this many rows.
pub const PAGE_ROWS: usize = 500;
/// Phenomena of one source shown on one page (each with its facts table).
pub const PAGE_PHENOMENA: usize = 200;
/// A phenomenon's facts table longer than this is folded.
pub const FOLD_FACTS: usize = 20;
/// The folder beside report.html holding the pages of long tables.
pub const PAGES_DIR: &str = "report-pages";

/// Escapes text for HTML element content and double-quoted attribute values.
pub fn esc(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            // Escape codes, bells and bidi overrides from evidence are shown, not obeyed.
            c if c != '\n' && c != '\t' && is_hidden_control(c) => {
                push_escaped(&mut out, c);
            }
            c => out.push(c),
        }
    }
    out
}

const STYLE: &str = "body{font:14px/1.45 system-ui,-apple-system,'Segoe UI',sans-serif;margin:2em auto;max-width:1200px;padding:0 1em;color:#111}\
h1{font-size:1.6em}h2{border-bottom:2px solid #333;padding-bottom:.2em;margin-top:2em}h3{margin-bottom:.3em}\
table{border-collapse:collapse;width:100%;margin:.5em 0 1em}th,td{border:1px solid #bbb;padding:3px 6px;text-align:left;vertical-align:top}\
th{background:#eee}code,.mono{font-family:ui-monospace,'DejaVu Sans Mono',monospace;font-size:.92em;word-break:break-all}\
.unverified{border-left:4px solid #c80;background:#fff8e6;padding:.4em .8em;margin:.4em 0}\
.unverified::before{content:'Unverified interpretation: ';font-weight:bold;color:#a60}\
.facts td:first-child{white-space:nowrap}.supported{color:#060;font-weight:bold}.refuted{color:#900;font-weight:bold}\
.warn{color:#a60}.bad{color:#900;font-weight:bold}.ok{color:#060}.small{font-size:.85em;color:#444}\
@media print{body{max-width:none;margin:0;font-size:10pt}h2{page-break-before:always}h2:first-of-type{page-break-before:avoid}a{color:#000;text-decoration:none}tr{page-break-inside:avoid}}";

fn row(out: &mut String, cells: &[String]) {
    out.push_str("<tr>");
    for c in cells {
        let _ = write!(out, "<td>{c}</td>");
    }
    out.push_str("</tr>\n");
}

fn head(out: &mut String, cells: &[&str]) {
    out.push_str("<table><tr>");
    for c in cells {
        let _ = write!(out, "<th>{}</th>", esc(c));
    }
    out.push_str("</tr>\n");
}

fn code(text: &str) -> String {
    format!("<code>{}</code>", esc(text))
}

fn row_html(cells: &[String]) -> String {
    let mut out = String::new();
    row(&mut out, cells);
    out
}

fn head_html(cells: &[&str]) -> String {
    let mut out = String::new();
    head(&mut out, cells);
    out
}

/// Where each linked item (a phenomenon, an invocation) is: `#id` on the main page, or the page
/// file that holds it. Links are written relative to report.html; page files set their base
/// to it.
#[derive(Default)]
struct Locator {
    pages: HashMap<String, String>,
}

impl Locator {
    /// Places the items of a paged list: the first page is on the main page.
    fn place<'a>(
        &mut self,
        slug: &str,
        per_page: usize,
        ids: impl ExactSizeIterator<Item = &'a str>,
    ) {
        if ids.len() <= per_page {
            return;
        }
        for (i, id) in ids.enumerate() {
            let page = i / per_page + 1;
            if page > 1 {
                self.pages
                    .insert(id.to_string(), format!("{PAGES_DIR}/{slug}-{page}.html"));
            }
        }
    }

    fn href(&self, id: &str) -> String {
        format!(
            "{}#{}",
            self.pages.get(id).map(String::as_str).unwrap_or(""),
            esc(id)
        )
    }

    fn link(&self, id: &str) -> String {
        format!("<a href=\"{}\">{}</a>", self.href(id), esc(id))
    }
}

/// Writes the pages of long lists as files (when given a folder) and folds them on the main
/// page.
struct Pager<'a> {
    dir: Option<&'a Path>,
    title: String,
    written: Vec<PathBuf>,
    error: Option<std::io::Error>,
}

impl Pager<'_> {
    fn page_file(&mut self, slug: &str, n: usize, pages: usize, what: &str, body: &str) {
        let Some(dir) = self.dir else { return };
        if self.error.is_some() {
            return;
        }
        let mut o = String::with_capacity(body.len() + 2048);
        let _ = write!(
            o,
            "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
             <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\
             <base href=\"../report.html\"><title>{0} — {1}, page {n} of {pages}</title><style>{STYLE}</style></head><body>\n\
             <p class=\"small\"><a href=\"\">{0}</a> · {1}, page {n} of {pages}{2}{3}</p>\n",
            esc(&self.title),
            esc(what),
            if n > 1 {
                format!(
                    " · <a href=\"{PAGES_DIR}/{slug}-{}.html\">previous</a>",
                    n - 1
                )
            } else {
                String::new()
            },
            if n < pages {
                format!(" · <a href=\"{PAGES_DIR}/{slug}-{}.html\">next</a>", n + 1)
            } else {
                String::new()
            },
        );
        o.push_str(body);
        o.push_str("</body></html>\n");
        let path = dir.join(PAGES_DIR).join(format!("{slug}-{n}.html"));
        match std::fs::write(&path, o) {
            Ok(()) => self.written.push(path),
            Err(e) => self.error = Some(e),
        }
    }

    /// `count` items (table rows or blocks, already HTML) between `open` and `close`: all of
    /// them when they fit one page of `per_page`; otherwise the count and the links to every
    /// page, then the first page folded, each page written as its own file.
    #[allow(clippy::too_many_arguments)]
    fn list(
        &mut self,
        o: &mut String,
        slug: &str,
        what: &str,
        per_page: usize,
        open: &str,
        close: &str,
        count: usize,
        items: impl Iterator<Item = String>,
    ) {
        if count <= per_page {
            o.push_str(open);
            items.for_each(|i| o.push_str(&i));
            o.push_str(close);
            return;
        }
        let pages = count.div_ceil(per_page);
        let links = (1..=pages)
            .map(|n| format!("<a href=\"{PAGES_DIR}/{slug}-{n}.html\">{n}</a>"))
            .collect::<Vec<_>>()
            .join(" ");
        let _ = writeln!(
            o,
            "<p class=\"small\">{count} {} in {pages} pages of {per_page}: {links}</p>",
            esc(what)
        );
        let _ = write!(
            o,
            "<details><summary>{} 1–{per_page} of {count}</summary>\n{open}",
            esc(what)
        );
        let mut body = String::from(open);
        let mut n = 1;
        for (i, item) in items.enumerate() {
            if i > 0 && i % per_page == 0 {
                if n == 1 {
                    o.push_str(close);
                    o.push_str("</details>\n");
                }
                body.push_str(close);
                self.page_file(slug, n, pages, what, &body);
                body = String::from(open);
                n += 1;
            }
            if n == 1 {
                o.push_str(&item);
            }
            body.push_str(&item);
        }
        body.push_str(close);
        self.page_file(slug, n, pages, what, &body);
    }
}

/// A slug for a file name from an id (letters, digits, `-`, `_`; anything else `_`).
fn slug(text: &str) -> String {
    text.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// Renders the main page of the report (report.html). Long tables are folded in it and link
/// to their pages under [`PAGES_DIR`], which [`write`] writes beside it.
pub fn render(r: &Report) -> String {
    let mut pager = Pager {
        dir: None,
        title: String::new(),
        written: Vec::new(),
        error: None,
    };
    render_with(r, &mut pager)
}

/// Writes report.html into `dir` (through a temporary name) and the pages of its long tables
/// into `dir/`[`PAGES_DIR`] (emptied first); returns the page files written.
pub fn write(r: &Report, dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let pages = dir.join(PAGES_DIR);
    if pages.is_dir() {
        std::fs::remove_dir_all(&pages)?;
    }
    std::fs::create_dir_all(&pages)?;
    let mut pager = Pager {
        dir: Some(dir),
        title: String::new(),
        written: Vec::new(),
        error: None,
    };
    let main = render_with(r, &mut pager);
    if let Some(e) = pager.error {
        return Err(e);
    }
    let tmp = dir.join(".report.html.tmp");
    std::fs::write(&tmp, main)?;
    std::fs::rename(&tmp, dir.join("report.html"))?;
    Ok(pager.written)
}

fn render_with(r: &Report, pager: &mut Pager<'_>) -> String {
    pager.title = format!("Case {} — {}", r.case.id, r.case.title);
    let mut at = Locator::default();
    for (i, (source, ps)) in super::by_source(r).iter().enumerate() {
        at.place(
            &format!("findings-{i}-{}", slug(source)),
            PAGE_PHENOMENA,
            ps.iter().map(|p| p.id.as_str()),
        );
    }
    at.place(
        "invocations",
        PAGE_ROWS,
        r.invocations.iter().map(|i| i.id.as_str()),
    );
    let mut o = String::new();
    let _ = write!(
        o,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\
         <title>{}</title><style>{STYLE}</style></head><body>\n",
        esc(&format!("Case {} — {}", r.case.id, r.case.title))
    );
    let _ = writeln!(
        o,
        "<h1>Case {} — {}</h1><p>Examiner: {} · Time zone: {} · Report schema {}</p>",
        esc(&r.case.id),
        esc(&r.case.title),
        esc(&r.case.examiner),
        esc(&r.case.timezone),
        esc(r.schema)
    );
    let _ = writeln!(
        o,
        "<p class=\"small\">Every verified fact below was found by code in the output of the logged tool \
         call it cites; that output is published beside this report (appendix) and the call can be \
         re-derived with the command shown. Interpretations are analysis, never verified, and are \
         marked as such.</p>"
    );
    if let Some(state) = r.generated.get("run_state").and_then(|v| v.as_str())
        && state != "completed"
    {
        let _ = writeln!(
            o,
            "<p class=\"bad\">This report is partial: the run is {}. {}</p>",
            esc(state),
            esc(r
                .generated
                .get("run_reason")
                .and_then(|v| v.as_str())
                .unwrap_or(""))
        );
    }
    let chain = super::log_chain(r);
    if !chain.is_empty() {
        o.push_str("<p class=\"small\">Case log at this report: ");
        o.push_str(&chain.iter().map(|c| esc(c)).collect::<Vec<_>>().join("; "));
        let _ = writeln!(o, ". {}</p>", esc(super::LOG_CHAIN_NOTE));
    }
    for b in super::answer::blocks(r) {
        use super::answer::Block;
        match b {
            Block::Section(t) => {
                let _ = writeln!(o, "<h2 id=\"{}\">{}</h2>", slug(&t), esc(&t));
            }
            Block::Sub(t) => {
                let _ = writeln!(o, "<h3>{}</h3>", esc(&t));
            }
            Block::Para(t) => {
                let _ = writeln!(o, "<p>{}</p>", esc(&t));
            }
            Block::Pairs(ps) => {
                o.push_str("<ul>");
                for (k, v) in ps {
                    let _ = write!(o, "<li><b>{}:</b> {}</li>", esc(&k), esc(&v));
                }
                o.push_str("</ul>\n");
            }
            Block::List(items) => {
                o.push_str("<ul>");
                for i in items {
                    let _ = write!(o, "<li>{}</li>", esc(&i));
                }
                o.push_str("</ul>\n");
            }
            Block::Table(h, rows) => {
                head(&mut o, &h);
                for r in rows {
                    row(&mut o, &r.iter().map(|c| esc(c)).collect::<Vec<_>>());
                }
                o.push_str("</table>\n");
            }
        }
    }
    if let Some(note) = super::tagged_note(r) {
        let _ = writeln!(
            o,
            "<h2 id=\"tagged-items\">Tagged items</h2><p>{}</p>",
            esc(&note)
        );
        let rows = super::tagged_rows(r);
        if !rows.is_empty() {
            head(&mut o, &super::TAGGED_COLUMNS);
            for t in rows {
                row(&mut o, &t.iter().map(|c| esc(c)).collect::<Vec<_>>());
            }
            o.push_str("</table>\n");
        }
    }
    o.push_str("<h2>Counts</h2>");
    head(&mut o, &["", "count"]);
    for (k, v) in super::summary(r) {
        row(&mut o, &[esc(k), v.to_string()]);
    }
    o.push_str("</table>\n");

    // Sources.
    o.push_str("<h2>Sources</h2>\n");
    for s in &r.sources {
        let _ = writeln!(
            o,
            "<h3 id=\"src-{0}\">{0} — {1}</h3>",
            esc(&s.id),
            esc(&s.label)
        );
        head(&mut o, &["field", "value"]);
        row(&mut o, &["path".into(), code(&s.path)]);
        row(
            &mut o,
            &["owner".into(), esc(s.owner.as_deref().unwrap_or("—"))],
        );
        row(&mut o, &["time zone".into(), esc(&s.timezone)]);
        row(
            &mut o,
            &[
                "detected type".into(),
                format!(
                    "{} <span class=\"small\">({})</span>",
                    esc(s.detected_type.as_deref().unwrap_or("?")),
                    esc(&s.detection_reasons.join("; "))
                ),
            ],
        );
        row(
            &mut o,
            &[
                "triaged by".into(),
                esc(s.triaged_by.as_deref().unwrap_or("—")),
            ],
        );
        row(&mut o, &["size".into(), format!("{} bytes", s.size)]);
        if let Some(h) = &s.sha256 {
            row(&mut o, &["SHA-256".into(), code(h)]);
        }
        if let Some(h) = &s.md5 {
            row(&mut o, &["MD5".into(), code(h)]);
        }
        o.push_str("</table>\n");
        if !s.integrity.files.is_empty() {
            let files = &s.integrity.files;
            pager.list(
                &mut o,
                &format!("files-{}", slug(&s.id)),
                &format!("evidence files of {}", s.id),
                PAGE_ROWS,
                &head_html(&["file", "size", "SHA-256 at intake", "now"]),
                "</table>\n",
                files.len(),
                files.iter().map(|f| {
                    row_html(&[
                        code(&f.path),
                        f.size.to_string(),
                        code(&f.sha256),
                        match (f.unchanged, &f.sha256_now) {
                            (Some(true), _) => "<span class=\"ok\">unchanged</span>".to_string(),
                            (Some(false), now) => format!(
                                "<span class=\"bad\">CHANGED</span> {}",
                                code(now.as_deref().unwrap_or(""))
                            ),
                            (None, _) => esc(f.note.as_deref().unwrap_or("")),
                        },
                    ])
                }),
            );
        }
        if let Some(m) = Some(&s.integrity.media).filter(|m| !m.is_null()) {
            let at = |k: &str| m.get(k).and_then(|v| v.as_str()).unwrap_or("—");
            let _ = writeln!(
                o,
                "<p>EWF media: MD5 {} (stored {}: <b>{}</b>), SHA-1 {} (stored {}: <b>{}</b>)</p>",
                code(at("md5")),
                code(at("stored_md5")),
                esc(at("md5_check")),
                code(at("sha1")),
                code(at("stored_sha1")),
                esc(at("sha1_check"))
            );
        }
        if !s.layers.is_empty() {
            head(
                &mut o,
                &[
                    "depth",
                    "layer",
                    "format",
                    "readable",
                    "encryption",
                    "problem",
                ],
            );
            for l in &s.layers {
                let at = |k: &str| {
                    l.get(k)
                        .map(|v| match v {
                            serde_json::Value::String(s) => s.clone(),
                            serde_json::Value::Null => String::new(),
                            other => other.to_string(),
                        })
                        .unwrap_or_default()
                };
                row(
                    &mut o,
                    &[
                        at("depth"),
                        esc(&super::layer_label(l)),
                        esc(&at("format")),
                        esc(&at("readable")),
                        esc(&at("encryption")),
                        esc(&at("problem")),
                    ],
                );
            }
            o.push_str("</table>\n");
        }
    }

    o.push_str("<h2>What could not be read</h2>\n");
    if r.not_read.is_empty() {
        o.push_str("<p>Everything the agents met was read.</p>\n");
    } else {
        pager.list(
            &mut o,
            "not-read",
            "things not read",
            PAGE_ROWS,
            &head_html(&["source", "what", "why", "invocation"]),
            "</table>\n",
            r.not_read.len(),
            r.not_read.iter().map(|n| {
                row_html(&[
                    esc(&n.source_id),
                    code(&n.what),
                    esc(&n.reason),
                    n.invocation_id
                        .as_deref()
                        .map_or_else(|| "—".to_string(), |i| at.link(i)),
                ])
            }),
        );
    }

    o.push_str("<h2>Artefact coverage</h2>\n");
    let tables = super::coverage_tables(r);
    if tables.is_empty() {
        o.push_str("<p>No plugin examined a source.</p>\n");
    }
    for (source, plugin, searched, rows) in tables {
        let _ = writeln!(o, "<h3>{} — {}</h3>", esc(source), esc(plugin));
        o.push_str("<table>\n");
        head(&mut o, &super::COVERAGE_COLUMNS);
        for r in rows {
            row(&mut o, &r.map(|c| esc(&c)));
        }
        o.push_str("</table>\n");
        let _ = writeln!(o, "<p>{}</p>", esc(super::coverage_note(searched)));
    }

    o.push_str("<h2>Findings by source</h2>\n");
    for (i, (source, ps)) in super::by_source(r).into_iter().enumerate() {
        let _ = writeln!(o, "<h3>{} ({} phenomena)</h3>", esc(&source), ps.len());
        for (j, (category, ps)) in super::by_category(&ps).into_iter().enumerate() {
            let _ = writeln!(o, "<h4>{} ({})</h4>", esc(&category), ps.len());
            pager.list(
                &mut o,
                &format!("findings-{i}-{j}-{}", slug(&format!("{source}-{category}"))),
                &format!("{category} phenomena of {source}"),
                PAGE_PHENOMENA,
                "",
                "",
                ps.len(),
                ps.iter().map(|p| phenomenon_html(p, &at)),
            );
        }
    }

    o.push_str("<h2>Hypotheses</h2>\n");
    let names = super::Names::of(r);
    pager.list(
        &mut o,
        "hypotheses",
        "hypotheses",
        PAGE_ROWS,
        &head_html(&[
            "id",
            "kind",
            "statement",
            "log-odds",
            "confidence",
            "status",
            "distinct sources",
            "edges",
        ]),
        "</table>\n",
        r.hypotheses.len(),
        r.hypotheses.iter().map(|h| {
            let edges = h
                .edges
                .iter()
                .map(|e| {
                    format!(
                        "{} {} (rank {}, {:+.3})",
                        at.link(&e.phenomenon_id),
                        esc(&e.edge_type),
                        e.rank,
                        e.contribution
                    )
                })
                .collect::<Vec<_>>()
                .join("<br>");
            row_html(&[
                esc(&h.id),
                esc(&h.kind),
                esc(&names.in_words(&h.statement)),
                format!("{:.3}", h.log_odds),
                format!("{:.3}", h.confidence),
                format!("<span class=\"{0}\">{0}</span>", esc(&h.status)),
                h.distinct_sources.to_string(),
                edges,
            ])
        }),
    );
    if let Some(cells) = r.matrix.get("cells").and_then(|c| c.as_array())
        && !cells.is_empty()
    {
        o.push_str("<h3>Hypothesis × evidence</h3>\n");
        pager.list(
            &mut o,
            "matrix",
            "hypothesis × evidence cells",
            PAGE_ROWS,
            &head_html(&["hypothesis", "phenomenon", "edge", "contribution"]),
            "</table>\n",
            cells.len(),
            cells.iter().map(|c| {
                let get = |k: &str| {
                    c.get(k)
                        .map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_string))
                        .unwrap_or_default()
                };
                row_html(&[
                    esc(&get("hypothesis_id")),
                    at.link(&get("phenomenon_id")),
                    esc(&get("edge_type")),
                    esc(&get("contribution")),
                ])
            }),
        );
    }

    o.push_str("<h2>Actors and identity links</h2>\n");
    pager.list(
        &mut o,
        "actors",
        "actors",
        PAGE_ROWS,
        &head_html(&super::ACTOR_COLUMNS),
        "</table>\n",
        r.actors.len(),
        r.actors.iter().map(|a| {
            row_html(&[
                esc(&a.id),
                esc(&a.label),
                esc(&a.entity_ids.join(", ")),
                esc(&a.mentioned_in.join(", ")),
                esc(&a.source_ids.join(", ")),
                a.identifiers
                    .iter()
                    .map(|i| format!("{} {}", esc(&i.id_type), code(&i.normalized)))
                    .collect::<Vec<_>>()
                    .join("<br>"),
            ])
        }),
    );
    if !r.same_as.is_empty() {
        pager.list(
            &mut o,
            "same-as",
            "same_as edges",
            PAGE_ROWS,
            &head_html(&[
                "same_as",
                "relation",
                "a",
                "b",
                "hypothesis",
                "confidence",
                "state",
                "examiner decisions",
            ]),
            "</table>\n",
            r.same_as.len(),
            r.same_as.iter().map(|s| {
                row_html(&[
                    esc(&s.id),
                    esc(&s.relation),
                    esc(&s.a),
                    esc(&s.b),
                    esc(&s.hypothesis_id),
                    format!("{:.3}", s.confidence),
                    esc(&s.state),
                    esc(&s
                        .decisions
                        .iter()
                        .map(|d| d.to_string())
                        .collect::<Vec<_>>()
                        .join("; ")),
                ])
            }),
        );
    }
    o.push_str("<h3>Entities</h3>\n");
    pager.list(
        &mut o,
        "entities",
        "entities",
        PAGE_ROWS,
        &head_html(&[
            "entity",
            "kind",
            "label",
            "source",
            "context",
            "identifiers",
        ]),
        "</table>\n",
        r.entities.len(),
        r.entities.iter().map(|e| {
            row_html(&[
                esc(&e.id),
                esc(&e.kind),
                esc(&e.label),
                esc(&e.source_ids.join(", ")),
                code(&e.context),
                e.identifiers
                    .iter()
                    .map(|i| {
                        format!(
                            "{} {} <span class=\"small\">({}, {})</span>",
                            esc(&i.id_type),
                            code(&i.normalized),
                            esc(&i.strength),
                            at.link(&i.phenomenon_id)
                        )
                    })
                    .collect::<Vec<_>>()
                    .join("<br>"),
            ])
        }),
    );

    let _ = writeln!(
        o,
        "<h2>Timeline</h2><p class=\"small\">Times in {} (UTC instant in the title of each row's time).</p>",
        esc(&r.case.timezone)
    );
    pager.list(
        &mut o,
        "timeline",
        "timeline entries",
        PAGE_ROWS,
        &head_html(&[
            "time",
            "source",
            "what",
            "raw value",
            "encoding",
            "read in",
            "phenomenon",
        ]),
        "</table>\n",
        r.timeline.len(),
        r.timeline.iter().map(|t| {
            let when = match (&t.case_time, &t.utc) {
                (Some(c), Some(u)) => format!("<span title=\"{}\">{}</span>", esc(u), esc(c)),
                _ => "<span class=\"bad\">unconvertible</span>".to_string(),
            };
            let flag = t
                .flag
                .map(|f| {
                    format!(
                        " <span class=\"warn\">[{}] {}</span>",
                        esc(f),
                        esc(t.note.as_deref().unwrap_or(""))
                    )
                })
                .unwrap_or_default();
            row_html(&[
                when + &flag,
                esc(&t.source_id),
                match &t.text {
                    Some(text) => format!(
                        "{}: {} — “{}”",
                        esc(&t.description),
                        esc(&t.message),
                        esc(text)
                    ),
                    None => format!("{}: {}", esc(&t.description), esc(&t.message)),
                },
                code(&t.raw),
                esc(&t.encoding),
                esc(&t.zone),
                at.link(&t.phenomenon_id),
            ])
        }),
    );

    o.push_str("<h2>Appendix: tool invocations</h2>\n<p class=\"small\">Each output is published byte for byte in the file linked; its SHA-256 is the one recorded.</p>\n");
    pager.list(
        &mut o,
        "invocations",
        "tool invocations",
        PAGE_ROWS,
        &head_html(&[
            "invocation",
            "source",
            "tool and arguments",
            "agent / task",
            "status",
            "output (SHA-256)",
            "re-derive",
        ]),
        "</table>\n",
        r.invocations.len(),
        r.invocations.iter().map(|i| {
            row_html(&[
                format!("<span id=\"{0}\">{0}</span>", esc(&i.id)),
                esc(&i.source_id),
                format!("{} {}", esc(&i.tool), code(&i.args.to_string())),
                esc(&format!("{} / {}", i.agent, i.task_id)),
                esc(&i.status),
                format!(
                    "<a href=\"{}\">{}</a>",
                    esc(&i.output_path),
                    code(&i.output_sha256)
                ),
                code(&i.rerun),
            ])
        }),
    );
    o.push_str("</body></html>\n");
    o
}

/// One phenomenon: its verified facts (folded when many), apart from its interpretation.
fn phenomenon_html(p: &crate::model::PhenomenonRow, at: &Locator) -> String {
    let mut o = String::new();
    let _ = writeln!(
        o,
        "<div id=\"{0}\"><p><b>{0}</b> [{1}] {2} <span class=\"small\">— {3}</span></p>",
        esc(&p.id),
        esc(&p.category),
        esc(&p.title),
        esc(&p.produced_by())
    );
    let folded = p.verified_facts.len() > FOLD_FACTS;
    if folded {
        let _ = writeln!(
            o,
            "<details><summary>{} verified facts</summary>",
            p.verified_facts.len()
        );
    }
    o.push_str("<table class=\"facts\"><tr><th>verified fact</th><th>value</th><th>cited invocation</th></tr>\n");
    for f in &p.verified_facts {
        row(
            &mut o,
            &[
                esc(&f.fact_type),
                code(&f.value),
                format!(
                    "{} <span class=\"small\">{}{}</span>",
                    at.link(&f.invocation_id),
                    esc(&f.match_method),
                    f.normalisation
                        .as_deref()
                        .map(|n| format!(" ({})", esc(n)))
                        .unwrap_or_default()
                ),
            ],
        );
    }
    o.push_str("</table>\n");
    if folded {
        o.push_str("</details>\n");
    }
    if !p.interpretation.is_empty() {
        let _ = writeln!(
            o,
            "<div class=\"unverified\">{}</div>",
            esc(&p.interpretation)
        );
    }
    for w in &p.warnings {
        let _ = writeln!(o, "<p class=\"warn\">warning: {}</p>", esc(w));
    }
    o.push_str("</div>\n");
    o
}

#[cfg(test)]
mod tests {
    #[test]
    fn markup_and_control_characters_are_escaped() {
        assert_eq!(
            super::esc("<b>\u{1b}[2J\u{202e}x\n"),
            "&lt;b&gt;\\u{1b}[2J\\u{202e}x\n"
        );
    }
}
