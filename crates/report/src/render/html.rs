//! `report.html`: one self-contained file (inline CSS, no script, no external resource) that
//! reads offline and prints well. Every evidence-derived string goes through [`esc`].

use std::fmt::Write as _;

use crate::model::Report;
use masf_evidence::fs::{is_hidden_control, push_escaped};

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

/// Renders the report as one HTML document.
pub fn render(r: &Report) -> String {
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
    o.push_str("<h2>Summary</h2>");
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
        if let Some(files) = s.integrity.get("files").and_then(|f| f.as_array()) {
            head(&mut o, &["file", "size", "SHA-256 at intake", "now"]);
            for f in files {
                let at = |k: &str| f.get(k).and_then(|v| v.as_str()).unwrap_or("");
                let same = f.get("unchanged").and_then(|v| v.as_bool());
                row(
                    &mut o,
                    &[
                        code(at("path")),
                        f.get("size").map(|v| v.to_string()).unwrap_or_default(),
                        code(at("sha256")),
                        match same {
                            Some(true) => "<span class=\"ok\">unchanged</span>".to_string(),
                            Some(false) => format!(
                                "<span class=\"bad\">CHANGED</span> {}",
                                code(at("sha256_now"))
                            ),
                            None => esc(at("note")),
                        },
                    ],
                );
            }
            o.push_str("</table>\n");
        }
        if let Some(m) = s.integrity.get("media").filter(|m| !m.is_null()) {
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
                        esc(&format!("{} {}", at("kind"), at("id"))),
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
        head(&mut o, &["source", "what", "why", "invocation"]);
        for n in &r.not_read {
            row(
                &mut o,
                &[
                    esc(&n.source_id),
                    code(&n.what),
                    esc(&n.reason),
                    esc(n.invocation_id.as_deref().unwrap_or("—")),
                ],
            );
        }
        o.push_str("</table>\n");
    }

    o.push_str("<h2>Findings by source</h2>\n");
    for (source, ps) in super::by_source(r) {
        let _ = writeln!(o, "<h3>{} ({} phenomena)</h3>", esc(&source), ps.len());
        for p in ps {
            let _ = writeln!(
                o,
                "<div id=\"{0}\"><p><b>{0}</b> [{1}] {2} <span class=\"small\">— {3}</span></p>",
                esc(&p.id),
                esc(&p.category),
                esc(&p.title),
                esc(&p.produced_by())
            );
            o.push_str("<table class=\"facts\"><tr><th>verified fact</th><th>value</th><th>cited invocation</th></tr>\n");
            for f in &p.verified_facts {
                row(
                    &mut o,
                    &[
                        esc(&f.fact_type),
                        code(&f.value),
                        format!(
                            "<a href=\"#{0}\">{0}</a> <span class=\"small\">{1}{2}</span>",
                            esc(&f.invocation_id),
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
        }
    }

    o.push_str("<h2>Hypotheses</h2>\n");
    head(
        &mut o,
        &[
            "id",
            "kind",
            "statement",
            "log-odds",
            "confidence",
            "status",
            "distinct sources",
            "edges",
        ],
    );
    for h in &r.hypotheses {
        let edges = h
            .edges
            .iter()
            .map(|e| {
                format!(
                    "<a href=\"#{0}\">{0}</a> {1} (rank {2}, {3:+.3})",
                    esc(&e.phenomenon_id),
                    esc(&e.edge_type),
                    e.rank,
                    e.contribution
                )
            })
            .collect::<Vec<_>>()
            .join("<br>");
        row(
            &mut o,
            &[
                esc(&h.id),
                esc(&h.kind),
                esc(&h.statement),
                format!("{:.3}", h.log_odds),
                format!("{:.3}", h.confidence),
                format!("<span class=\"{0}\">{0}</span>", esc(&h.status)),
                h.distinct_sources.to_string(),
                edges,
            ],
        );
    }
    o.push_str("</table>\n");
    if let Some(cells) = r.matrix.get("cells").and_then(|c| c.as_array())
        && !cells.is_empty()
    {
        o.push_str("<h3>Hypothesis × evidence</h3>\n");
        head(
            &mut o,
            &["hypothesis", "phenomenon", "edge", "contribution"],
        );
        for c in cells {
            let at = |k: &str| {
                c.get(k)
                    .map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_string))
                    .unwrap_or_default()
            };
            row(
                &mut o,
                &[
                    esc(&at("hypothesis_id")),
                    esc(&at("phenomenon_id")),
                    esc(&at("edge_type")),
                    esc(&at("contribution")),
                ],
            );
        }
        o.push_str("</table>\n");
    }

    o.push_str("<h2>Actors and identity links</h2>\n");
    head(&mut o, &super::ACTOR_COLUMNS);
    for a in &r.actors {
        row(
            &mut o,
            &[
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
            ],
        );
    }
    o.push_str("</table>\n");
    if !r.same_as.is_empty() {
        head(
            &mut o,
            &[
                "same_as",
                "a",
                "b",
                "hypothesis",
                "confidence",
                "state",
                "examiner decisions",
            ],
        );
        for s in &r.same_as {
            row(
                &mut o,
                &[
                    esc(&s.id),
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
                ],
            );
        }
        o.push_str("</table>\n");
    }
    o.push_str("<h3>Entities</h3>\n");
    head(
        &mut o,
        &[
            "entity",
            "kind",
            "label",
            "source",
            "context",
            "identifiers",
        ],
    );
    for e in &r.entities {
        row(
            &mut o,
            &[
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
                            esc(&i.phenomenon_id)
                        )
                    })
                    .collect::<Vec<_>>()
                    .join("<br>"),
            ],
        );
    }
    o.push_str("</table>\n");

    let _ = writeln!(
        o,
        "<h2>Timeline</h2><p class=\"small\">Times in {} (UTC instant in the title of each row's time).</p>",
        esc(&r.case.timezone)
    );
    head(
        &mut o,
        &[
            "time",
            "source",
            "what",
            "raw value",
            "encoding",
            "read in",
            "phenomenon",
        ],
    );
    for t in &r.timeline {
        let when = match (&t.case_time, &t.utc) {
            (Some(c), Some(u)) => format!("<span title=\"{}\">{}</span>", esc(u), esc(c)),
            _ => "<span class=\"bad\">unconvertible</span>".to_string(),
        };
        let flag = t
            .flag
            .as_deref()
            .map(|f| {
                format!(
                    " <span class=\"warn\">[{}] {}</span>",
                    esc(f),
                    esc(t.note.as_deref().unwrap_or(""))
                )
            })
            .unwrap_or_default();
        row(
            &mut o,
            &[
                when + &flag,
                esc(&t.source_id),
                format!("{}: {}", esc(&t.description), esc(&t.message)),
                code(&t.raw),
                esc(&t.encoding),
                esc(&t.zone),
                format!("<a href=\"#{0}\">{0}</a>", esc(&t.phenomenon_id)),
            ],
        );
    }
    o.push_str("</table>\n");

    o.push_str("<h2>Appendix: tool invocations</h2>\n<p class=\"small\">Each output is published byte for byte in the file linked; its SHA-256 is the one recorded.</p>\n");
    head(
        &mut o,
        &[
            "invocation",
            "source",
            "tool and arguments",
            "agent / task",
            "status",
            "output (SHA-256)",
            "re-derive",
        ],
    );
    for i in &r.invocations {
        row(
            &mut o,
            &[
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
            ],
        );
    }
    o.push_str("</table>\n</body></html>\n");
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
