//! The answer sections ([`crate::answer::Answer`]) as plain-text blocks, rendered by both the
//! Markdown and the HTML writers (each escapes every string for its target), so both show the
//! same words in the same order.

use crate::answer::Answer;
use crate::model::Report;

/// One block of the answer sections, plain text.
pub(crate) enum Block {
    /// A section heading (level 2).
    Section(String),
    /// A sub-heading (level 3).
    Sub(String),
    /// A paragraph.
    Para(String),
    /// `label: value` lines.
    Pairs(Vec<(String, String)>),
    /// A bullet list.
    List(Vec<String>),
    /// A table: column heads and rows.
    Table(Vec<&'static str>, Vec<Vec<String>>),
}

fn or_dash(s: Option<&str>) -> String {
    s.filter(|s| !s.is_empty()).unwrap_or("—").to_string()
}

/// The answer sections in order: case summary, people, transactions and key communications,
/// hypotheses in words, limitations.
pub(crate) fn blocks(r: &Report) -> Vec<Block> {
    let a: &Answer = &r.answer;
    let s = &a.summary;
    let mut out = vec![Block::Section("Case summary".into())];
    out.push(Block::Pairs(vec![
        ("Question".into(), s.question.clone()),
        ("Examiner".into(), s.examiner.clone()),
        (
            "Run".into(),
            format!(
                "{} · {}{} · report written {}",
                s.tool,
                or_dash(Some(&s.run_state)),
                if s.run_reason.is_empty() {
                    String::new()
                } else {
                    format!(" ({})", s.run_reason)
                },
                s.generated_at
            ),
        ),
        ("Agents".into(), s.agents.join(", ")),
        ("Budgets used".into(), or_dash(Some(&s.budgets.join(" · ")))),
        (
            "Could not be read".into(),
            match s.not_read {
                0 => "nothing".into(),
                n => format!("{n} item(s), listed under Limitations"),
            },
        ),
    ]));
    out.push(Block::Table(
        vec!["source", "what", "type", "owner", "integrity"],
        s.sources
            .iter()
            .map(|v| {
                vec![
                    v.id.clone(),
                    v.label.clone(),
                    or_dash(Some(&v.detected_type)),
                    or_dash(v.owner.as_deref()),
                    v.integrity.clone(),
                ]
            })
            .collect(),
    ));

    out.push(Block::Section("People".into()));
    if a.people.is_empty() {
        out.push(Block::Para(
            "No actor: no identity was joined across records.".into(),
        ));
    }
    for p in &a.people {
        out.push(Block::Sub(format!("{} ({})", p.label, p.actor_id)));
        let mut pairs = Vec::new();
        if let (Some(c), Some(m)) = (&p.case_person, &p.matched_by) {
            pairs.push(("Case person".into(), format!("{c}, matched by {m}")));
        }
        pairs.push((
            "Devices used".into(),
            if p.devices.is_empty() {
                "none attributed".into()
            } else {
                p.devices
                    .iter()
                    .map(|d| {
                        let mut t = format!("{} ({})", d.label, d.source_id);
                        if !d.devices.is_empty() {
                            t.push_str(&format!(": {}", d.devices.join("; ")));
                        }
                        if let (Some(h), Some(c), Some(st)) =
                            (&d.hypothesis_id, d.confidence, &d.status)
                        {
                            t.push_str(&format!(" — ownership {h} {st}, confidence {c:.2}"));
                        }
                        t
                    })
                    .collect::<Vec<_>>()
                    .join(" · ")
            },
        ));
        pairs.push((
            "Wallets attributed".into(),
            if p.wallets.is_empty() {
                "none".into()
            } else {
                p.wallets
                    .iter()
                    .map(|w| {
                        format!(
                            "{} — {} {}, confidence {:.2}; cites {}",
                            w.value,
                            w.link_id,
                            w.state,
                            w.confidence,
                            if w.citing.is_empty() {
                                "—".to_string()
                            } else {
                                w.citing.join("; ")
                            }
                        )
                    })
                    .collect::<Vec<_>>()
                    .join(" · ")
            },
        ));
        out.push(Block::Pairs(pairs));
        out.push(Block::Table(
            vec!["identifier", "value", "seen in"],
            p.identifiers
                .iter()
                .map(|i| vec![i.id_type.clone(), i.value.clone(), i.sources.join(", ")])
                .collect(),
        ));
        if !p.pending.is_empty() {
            out.push(Block::Para("Pending examiner review:".into()));
            out.push(Block::List(p.pending.clone()));
        }
        if !p.decisions.is_empty() {
            out.push(Block::Para("Examiner decisions:".into()));
            out.push(Block::List(p.decisions.clone()));
        }
    }

    out.push(Block::Section("Transactions and key communications".into()));
    if a.transactions.is_empty() {
        out.push(Block::Para(
            "No amount or transaction hash was recorded.".into(),
        ));
    } else {
        out.push(Block::Table(
            vec![
                "time",
                "source",
                "amounts",
                "wallets",
                "tx hashes",
                "people",
                "record",
            ],
            a.transactions
                .iter()
                .map(|t| {
                    vec![
                        or_dash(t.time.as_deref()),
                        t.source_id.clone(),
                        t.amounts.join("; "),
                        t.wallets.join("; "),
                        t.tx_hashes.join("; "),
                        t.people.join("; "),
                        format!("{}: {}", t.phenomenon_id, t.title),
                    ]
                })
                .collect(),
        ));
    }
    if !a.communications.is_empty() {
        out.push(Block::Sub("Messages between people, in time order".into()));
        out.push(Block::Table(
            vec![
                "time",
                "device of",
                "direction",
                "other party",
                "text",
                "record",
            ],
            a.communications
                .iter()
                .map(|m| {
                    vec![
                        or_dash(m.time.as_deref()),
                        format!("{} ({})", or_dash(m.holder.as_deref()), m.source_id),
                        or_dash(Some(&m.direction)),
                        match &m.counterpart_person {
                            Some(p) => format!("{p} ({})", m.counterpart),
                            None => or_dash(Some(&m.counterpart)),
                        },
                        m.text.clone(),
                        m.phenomenon_id.clone(),
                    ]
                })
                .collect(),
        ));
    }

    out.push(Block::Section("Hypotheses in words".into()));
    for h in &a.hypotheses {
        out.push(Block::Sub(format!(
            "{} ({}, {}, confidence {:.2})",
            h.id, h.kind, h.status, h.confidence
        )));
        out.push(Block::Para(h.statement.clone()));
        let list = |v: &[String]| {
            if v.is_empty() {
                "none".to_string()
            } else {
                v.join(" · ")
            }
        };
        out.push(Block::Pairs(vec![
            ("Supported by".into(), list(&h.supporting)),
            ("Contradicted by".into(), list(&h.contradicting)),
            ("What would change it".into(), h.would_change.clone()),
        ]));
    }

    out.push(Block::Section("Limitations".into()));
    if a.limitations.is_empty() {
        out.push(Block::Para("None recorded.".into()));
    } else {
        out.push(Block::Table(
            vec!["kind", "source", "what"],
            a.limitations
                .iter()
                .map(|l| vec![l.kind.clone(), l.source_id.clone(), l.text.clone()])
                .collect(),
        ));
    }
    out
}
