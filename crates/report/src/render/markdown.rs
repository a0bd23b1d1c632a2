//! `report.md`: the same content as the HTML, in Markdown tables. Cell text is escaped so that
//! evidence strings cannot break a table or become markup.

use std::fmt::Write;

use crate::model::Report;
use masf_evidence::fs::{is_hidden_control, push_escaped};

/// Escapes text for a Markdown table cell.
pub fn cell(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '|' => out.push_str("\\|"),
            '\\' | '`' | '*' | '_' | '[' | ']' | '<' | '>' | '#' => {
                out.push('\\');
                out.push(c);
            }
            '\n' | '\r' => out.push(' '),
            c if is_hidden_control(c) => push_escaped(&mut out, c),
            c => out.push(c),
        }
    }
    out
}

fn code(text: &str) -> String {
    // A code span cannot hold its own delimiter safely: fall back to escaped text then.
    if text.contains('`') || text.contains('|') || text.contains('\n') {
        cell(text)
    } else {
        format!("`{text}`")
    }
}

/// A table: the head, then each row as it comes (rows are made one at a time, never all held).
fn table(o: &mut impl Write, head: &[&str], rows: impl IntoIterator<Item = Vec<String>>) {
    let _ = writeln!(o, "| {} |", head.join(" | "));
    let _ = writeln!(o, "|{}", "---|".repeat(head.len()));
    for r in rows {
        let _ = writeln!(o, "| {} |", r.join(" | "));
    }
    let _ = o.write_char('\n');
}

/// Renders the report as Markdown.
pub fn render(r: &Report) -> String {
    let mut o = String::new();
    render_to(r, &mut o);
    o
}

/// Renders the report as Markdown into `o` as it goes (`report.md` is streamed to its file:
/// a report of a million timeline rows is never one string in memory).
pub fn render_to(r: &Report, o: &mut impl Write) {
    let _ = writeln!(o, "# Case {} — {}\n", cell(&r.case.id), cell(&r.case.title));
    let _ = writeln!(
        o,
        "Examiner: {} · Time zone: {} · Report schema `{}`\n",
        cell(&r.case.examiner),
        cell(&r.case.timezone),
        r.schema
    );
    let _ = o.write_str("Every verified fact was found by code in the output of the logged tool call it cites; the outputs are published in `outputs/`. Interpretations are analysis and are never verified.\n\n");
    if let Some(state) = r.generated.get("run_state").and_then(|v| v.as_str())
        && state != "completed"
    {
        let _ = writeln!(
            o,
            "**This report is partial: the run is {}.**\n",
            cell(state)
        );
    }
    let chain = super::log_chain(r);
    if !chain.is_empty() {
        let _ = o.write_str("Case log at this report:\n\n");
        for c in &chain {
            let _ = writeln!(o, "- {}", cell(c));
        }
        let _ = writeln!(o, "\n{}\n", super::LOG_CHAIN_NOTE);
    }
    for b in super::answer::blocks(r) {
        use super::answer::Block;
        match b {
            Block::Section(t) => {
                let _ = writeln!(o, "## {}\n", cell(&t));
            }
            Block::Sub(t) => {
                let _ = writeln!(o, "### {}\n", cell(&t));
            }
            Block::Para(t) => {
                let _ = writeln!(o, "{}\n", cell(&t));
            }
            Block::Pairs(ps) => {
                for (k, v) in ps {
                    let _ = writeln!(o, "- **{}:** {}", cell(&k), cell(&v));
                }
                let _ = o.write_char('\n');
            }
            Block::List(items) => {
                for i in items {
                    let _ = writeln!(o, "- {}", cell(&i));
                }
                let _ = o.write_char('\n');
            }
            Block::Table(h, rows) => table(
                o,
                &h,
                rows.into_iter()
                    .map(|r| r.iter().map(|c| cell(c)).collect()),
            ),
        }
    }
    if let Some(note) = super::tagged_note(r) {
        let _ = writeln!(o, "## Tagged items\n\n{}\n", cell(&note));
        let rows = super::tagged_rows(r);
        if !rows.is_empty() {
            table(
                o,
                &super::TAGGED_COLUMNS,
                rows.iter().map(|r| r.iter().map(|c| cell(c)).collect()),
            );
        }
    }
    let _ = o.write_str("## Counts\n\n");
    table(
        o,
        &["", "count"],
        super::summary(r)
            .into_iter()
            .map(|(k, v)| vec![k.to_string(), v.to_string()]),
    );
    let _ = o.write_str("## Sources\n\n");
    table(
        o,
        &[
            "id",
            "label",
            "type",
            "owner",
            "size",
            "SHA-256",
            "integrity",
        ],
        r.sources.iter().map(|s| {
            let unchanged = s.integrity.unchanged();
            vec![
                cell(&s.id),
                cell(&s.label),
                cell(s.detected_type.as_deref().unwrap_or("?")),
                cell(s.owner.as_deref().unwrap_or("—")),
                s.size.to_string(),
                s.sha256
                    .as_deref()
                    .map(code)
                    .unwrap_or_else(|| "(several files)".into()),
                match unchanged {
                    Some(true) => "unchanged since intake".into(),
                    Some(false) => "**CHANGED since intake**".into(),
                    None => "not re-checked".into(),
                },
            ]
        }),
    );
    for s in r.sources.iter().filter(|s| !s.layers.is_empty()) {
        let _ = writeln!(o, "### Layers of {}\n", cell(&s.id));
        table(
            o,
            &["depth", "layer", "format", "readable", "problem"],
            s.layers.iter().map(|l| {
                let at = |k: &str| match l.get(k) {
                    Some(serde_json::Value::String(s)) => s.clone(),
                    Some(serde_json::Value::Null) | None => String::new(),
                    Some(other) => other.to_string(),
                };
                vec![
                    at("depth"),
                    cell(&super::layer_label(l)),
                    cell(&at("format")),
                    cell(&at("readable")),
                    cell(&at("problem")),
                ]
            }),
        );
    }
    let _ = o.write_str("## What could not be read\n\n");
    if r.not_read.is_empty() {
        let _ = o.write_str("Everything the agents met was read.\n\n");
    } else {
        table(
            o,
            &["source", "what", "why", "invocation"],
            r.not_read.iter().map(|n| {
                vec![
                    cell(&n.source_id),
                    code(&n.what),
                    cell(&n.reason),
                    cell(n.invocation_id.as_deref().unwrap_or("—")),
                ]
            }),
        );
    }
    let _ = o.write_str("## Artefact coverage\n\n");
    let tables = super::coverage_tables(r);
    if tables.is_empty() {
        let _ = o.write_str("No plugin examined a source.\n\n");
    }
    for (source, plugin, searched, rows) in tables {
        let _ = writeln!(o, "### {} — {}\n", cell(source), cell(plugin));
        table(
            o,
            &super::COVERAGE_COLUMNS,
            rows.into_iter()
                .map(|r| r.iter().map(|c| cell(c)).collect()),
        );
        let _ = writeln!(o, "{}\n", super::coverage_note(searched));
    }
    let _ = o.write_str("## Findings by source\n\n");
    for (source, ps) in super::by_source(r) {
        let _ = writeln!(o, "### {} ({} phenomena)\n", cell(&source), ps.len());
        for (category, ps) in super::by_category(&ps) {
            let _ = writeln!(o, "#### {} ({})\n", cell(&category), ps.len());
            for p in ps {
                let _ = writeln!(
                    o,
                    "**{}** \\[{}\\] {} — {}\n",
                    p.id,
                    cell(&p.category),
                    cell(&p.title),
                    cell(&p.produced_by())
                );
                table(
                    o,
                    &["verified fact", "value", "cited invocation"],
                    p.verified_facts.iter().map(|f| {
                        vec![
                            cell(&f.fact_type),
                            code(&f.value),
                            format!("{} ({})", cell(&f.invocation_id), cell(&f.match_method)),
                        ]
                    }),
                );
                if !p.interpretation.is_empty() {
                    let _ = writeln!(
                        o,
                        "> *Unverified interpretation:* {}\n",
                        cell(&p.interpretation)
                    );
                }
            }
        }
    }
    let _ = o.write_str("## Hypotheses\n\n");
    let names = super::Names::of(r);
    table(
        o,
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
        r.hypotheses.iter().map(|h| {
            vec![
                cell(&h.id),
                cell(&h.kind),
                cell(&names.in_words(&h.statement)),
                format!("{:.3}", h.log_odds),
                format!("{:.3}", h.confidence),
                cell(&h.status),
                h.distinct_sources.to_string(),
                h.edges
                    .iter()
                    .map(|e| {
                        format!(
                            "{} {} ({:+.3})",
                            e.phenomenon_id, e.edge_type, e.contribution
                        )
                    })
                    .collect::<Vec<_>>()
                    .join("; "),
            ]
        }),
    );
    let _ = o.write_str("## Actors\n\n");
    table(
        o,
        &super::ACTOR_COLUMNS,
        r.actors.iter().map(|a| {
            vec![
                cell(&a.id),
                cell(&a.label),
                cell(&a.entity_ids.join(", ")),
                cell(&a.mentioned_in.join(", ")),
                cell(&a.source_ids.join(", ")),
                a.identifiers
                    .iter()
                    .map(|i| format!("{} {}", cell(&i.id_type), code(&i.normalized)))
                    .collect::<Vec<_>>()
                    .join("; "),
            ]
        }),
    );
    if !r.same_as.is_empty() {
        table(
            o,
            &[
                "same_as",
                "relation",
                "a",
                "b",
                "hypothesis",
                "confidence",
                "state",
            ],
            r.same_as.iter().map(|s| {
                vec![
                    cell(&s.id),
                    cell(&s.relation),
                    cell(&s.a),
                    cell(&s.b),
                    cell(&s.hypothesis_id),
                    format!("{:.3}", s.confidence),
                    cell(&s.state),
                ]
            }),
        );
    }
    let _ = writeln!(o, "## Timeline\n\nTimes in {}.\n", cell(&r.case.timezone));
    table(
        o,
        &[
            "time",
            "source",
            "what",
            "raw value",
            "encoding",
            "read in",
            "phenomenon",
        ],
        r.timeline.iter().map(|t| {
            vec![
                t.case_time
                    .as_deref()
                    .map(cell)
                    .unwrap_or_else(|| "**unconvertible**".into())
                    + &t.flag
                        .map(|f| format!(" \\[{}\\]", cell(f)))
                        .unwrap_or_default(),
                cell(&t.source_id),
                match &t.text {
                    Some(text) => format!(
                        "{}: {} — “{}”",
                        cell(&t.description),
                        cell(&t.message),
                        cell(text)
                    ),
                    None => format!("{}: {}", cell(&t.description), cell(&t.message)),
                },
                code(&t.raw),
                cell(&t.encoding),
                cell(&t.zone),
                cell(&t.phenomenon_id),
            ]
        }),
    );
    let _ = o.write_str("## Appendix: tool invocations\n\n");
    table(
        o,
        &[
            "invocation",
            "source",
            "tool",
            "arguments",
            "status",
            "output",
            "SHA-256",
        ],
        r.invocations.iter().map(|i| {
            vec![
                cell(&i.id),
                cell(&i.source_id),
                cell(&i.tool),
                code(&i.args.to_string()),
                cell(&i.status),
                format!("[{0}]({0})", i.output_path),
                code(&i.output_sha256),
            ]
        }),
    );
}

#[cfg(test)]
mod tests {
    #[test]
    fn cells_escape_markup_and_control_characters() {
        assert_eq!(super::cell("a|b\u{1b}[0m\u{7}"), "a\\|b\\u{1b}\\[0m\\u{7}");
    }
}
