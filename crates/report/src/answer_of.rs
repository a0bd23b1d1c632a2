//! Assembles [`crate::answer::Answer`] from a report's rows (see that module for what each
//! section holds): `crate::model` builds the rows, this module reads them, and `build` (lib.rs)
//! sets the answer on the report, so neither module imports the other back.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use crate::answer::{
    Answer, Attribution, CaseSummary, DeviceUse, HypothesisWords, Limitation, MessageRow,
    PersonBlock, PersonIdentifier, SourceVerdict, TransactionRow,
};
use crate::model::{EntityRow, HypothesisRow, PhenomenonRow, Report};

fn words_of(name: &str) -> String {
    let mut t: Vec<String> = name
        .to_lowercase()
        .split(|c: char| !c.is_alphanumeric())
        .filter(|t| !t.is_empty())
        .map(str::to_string)
        .collect();
    t.sort();
    t.join(" ")
}

fn fact<'a>(p: &'a PhenomenonRow, t: &str) -> impl Iterator<Item = &'a str> {
    let t = t.to_string();
    p.verified_facts
        .iter()
        .filter(move |f| f.fact_type == t)
        .map(|f| f.value.as_str())
}

fn same_value(a: &str, b: &str) -> bool {
    a.eq_ignore_ascii_case(b)
}

struct Ctx<'a> {
    r: &'a Report,
    entities: HashMap<&'a str, &'a EntityRow>,
    phenomena: HashMap<&'a str, &'a PhenomenonRow>,
    /// Entity id → index of its person block.
    actor_of: HashMap<&'a str, usize>,
    /// Source id → the person block of its owner.
    holder_of: HashMap<&'a str, usize>,
    labels: Vec<String>,
}

impl<'a> Ctx<'a> {
    fn source_label(&self, id: &str) -> String {
        self.r
            .sources
            .iter()
            .find(|s| s.id == id)
            .map_or_else(|| id.to_string(), |s| format!("{} ({id})", s.label))
    }

    /// An entity named for a reader: the person it belongs to, what it is and where it was
    /// seen.
    fn entity_words(&self, id: &str) -> String {
        let Some(e) = self.entities.get(id) else {
            return id.to_string();
        };
        let source = e.source_ids.join(", ");
        let what = if e.context == "owner" {
            format!("the owner of {}", self.source_label(&e.source_id()))
        } else {
            let best = e
                .identifiers
                .iter()
                .find(|i| i.id_type != "display_name" && i.id_type != "contact_guid")
                .map(|i| i.value.as_str());
            let label = e.label.trim();
            match best {
                Some(b) if !same_value(b, label) && !label.is_empty() => {
                    format!("{} “{label}” ({b}, {source})", e.kind)
                }
                _ if !label.is_empty() => format!("{} “{label}” ({source})", e.kind),
                Some(b) => format!("{} {b} ({source})", e.kind),
                None => format!("{} ({source})", e.kind),
            }
        };
        match self.actor_of.get(id) {
            Some(&i) => format!("{what} [{}]", self.labels[i]),
            None => what,
        }
    }

    fn citing(&self, pid: &str) -> String {
        match self.phenomena.get(pid) {
            Some(p) => format!("{pid} ({}): {}", p.source_id, p.title),
            None => pid.to_string(),
        }
    }

    fn person_with(&self, id_type: &[&str], value: &str) -> Option<usize> {
        self.r.actors.iter().position(|a| {
            a.identifiers
                .iter()
                .any(|i| id_type.contains(&i.id_type.as_str()) && same_value(&i.normalized, value))
        })
    }
}

impl EntityRow {
    fn source_id(&self) -> String {
        self.source_ids.first().cloned().unwrap_or_default()
    }
}

fn first_time(r: &Report, pid: &str) -> (Option<String>, Option<String>) {
    r.timeline
        .iter()
        .find(|t| &*t.phenomenon_id == pid && t.case_time.is_some())
        .map_or((None, None), |t| {
            (
                t.case_time.as_deref().map(str::to_string),
                t.utc.as_deref().map(str::to_string),
            )
        })
}

fn would_change(h: &HypothesisRow) -> String {
    let base = match h.kind.as_str() {
        "coreference" => {
            "A second value of a single-valued identifier (another number, account or owner for \
             one of the two), a shared identifier shown to be a placeholder or a shared line, or \
             the examiner's retraction would lower it; another independent source holding the \
             same identifier would raise it."
        }
        "control" => {
            "Evidence that someone else holds the wallet (another person sending from it, the \
             key or seed on another person's device) would lower it; a signed message or an \
             exchange's KYC record would confirm it."
        }
        "ownership" => {
            "Accounts of another person signed in on the device, or the device seen in another \
             person's hands at the times of its activity, would lower it; the subscriber record \
             of its SIM or the carrier's records would confirm it."
        }
        _ => {
            "A phenomenon that contradicts it would lower it; further independent sources \
             supporting it would raise it."
        }
    };
    if h.status == "supported" {
        base.to_string()
    } else {
        format!(
            "{base} It is below the threshold at {:.2}: it is not relied on until more \
             independent support is found or the examiner approves it.",
            h.confidence
        )
    }
}

/// Assembles the answer from the report's rows.
pub fn of(r: &Report) -> Answer {
    let persons: Vec<(&str, &str, Vec<String>)> = r
        .case
        .persons
        .iter()
        .map(|p| {
            let mut names = vec![words_of(&p.name)];
            names.extend(p.aliases.iter().map(|a| words_of(a)));
            (p.id.as_str(), p.name.as_str(), names)
        })
        .collect();
    let entities: HashMap<&str, &EntityRow> =
        r.entities.iter().map(|e| (e.id.as_str(), e)).collect();
    // Each actor → the case person it is.
    let mut blocks: Vec<PersonBlock> = Vec::new();
    let mut actor_of: HashMap<&str, usize> = HashMap::new();
    for (i, a) in r.actors.iter().enumerate() {
        for e in &a.entity_ids {
            actor_of.insert(e.as_str(), i);
        }
        let mut matched: Option<(&str, &str, String)> = None;
        for e in &a.entity_ids {
            let Some(e) = entities.get(e.as_str()) else {
                continue;
            };
            if e.context != "owner" {
                continue;
            }
            let owner = r
                .sources
                .iter()
                .find(|s| s.id == e.source_id())
                .and_then(|s| s.owner.as_deref());
            if let Some(p) = owner.and_then(|o| persons.iter().find(|p| p.0 == o)) {
                matched = Some((
                    p.0,
                    p.1,
                    format!("holds the device-owner record of {}", e.source_id()),
                ));
                break;
            }
        }
        if matched.is_none() {
            'names: for ident in a.identifiers.iter().filter(|i| i.id_type == "display_name") {
                let w = words_of(&ident.normalized);
                for p in &persons {
                    if p.2.contains(&w) {
                        matched = Some((p.0, p.1, format!("its name “{}”", ident.normalized)));
                        break 'names;
                    }
                }
            }
        }
        let best = a
            .identifiers
            .iter()
            .find(|i| i.id_type == "phone" || i.id_type == "email")
            .map(|i| i.normalized.clone());
        let label = match &matched {
            Some((_, name, _)) => name.to_string(),
            None if !a.label.trim().is_empty() => a.label.clone(),
            None => best.unwrap_or_else(|| a.id.clone()),
        };
        blocks.push(PersonBlock {
            actor_id: a.id.clone(),
            label,
            case_person: matched.as_ref().map(|m| m.0.to_string()),
            matched_by: matched.map(|m| m.2),
            identifiers: Vec::new(),
            devices: Vec::new(),
            wallets: Vec::new(),
            pending: Vec::new(),
            decisions: Vec::new(),
        });
    }
    let mut holder_of: HashMap<&str, usize> = HashMap::new();
    for s in &r.sources {
        if let Some(o) = &s.owner
            && let Some(i) = blocks
                .iter()
                .position(|b| b.case_person.as_deref() == Some(o.as_str()))
        {
            holder_of.insert(s.id.as_str(), i);
        }
    }
    let labels: Vec<String> = blocks.iter().map(|b| b.label.clone()).collect();
    let ctx = Ctx {
        r,
        phenomena: r.phenomena.iter().map(|p| (p.id.as_str(), p)).collect(),
        entities,
        actor_of,
        holder_of,
        labels,
    };

    // Identifiers, devices, wallets, links.
    for (i, a) in r.actors.iter().enumerate() {
        let members: BTreeSet<&str> = a.entity_ids.iter().map(String::as_str).collect();
        let b = &mut blocks[i];
        for ident in &a.identifiers {
            let sources: BTreeSet<String> = a
                .entity_ids
                .iter()
                .filter_map(|e| ctx.entities.get(e.as_str()))
                .filter(|e| {
                    e.identifiers.iter().any(|x| {
                        x.id_type == ident.id_type && same_value(&x.normalized, &ident.normalized)
                    })
                })
                .map(|e| e.source_id())
                .collect();
            b.identifiers.push(PersonIdentifier {
                id_type: ident.id_type.clone(),
                value: ident.normalized.clone(),
                sources: sources.into_iter().collect(),
            });
        }
        for s in r
            .sources
            .iter()
            .filter(|s| ctx.holder_of.get(s.id.as_str()) == Some(&i))
        {
            let hyp = r
                .hypotheses
                .iter()
                .filter(|h| h.kind == "ownership" && h.statement.contains(&format!("({})", s.id)))
                .max_by(|x, y| x.confidence.total_cmp(&y.confidence));
            b.devices.push(DeviceUse {
                source_id: s.id.clone(),
                label: s.label.clone(),
                devices: r
                    .entities
                    .iter()
                    .filter(|e| e.kind == "device" && e.source_id() == s.id)
                    .map(|e| {
                        let ids: Vec<&str> = e
                            .identifiers
                            .iter()
                            .map(|i| i.value.as_str())
                            .filter(|v| !same_value(v, &e.label))
                            .collect();
                        if ids.is_empty() {
                            e.label.clone()
                        } else {
                            format!("{} ({})", e.label, ids.join(", "))
                        }
                    })
                    .collect(),
                hypothesis_id: hyp.map(|h| h.id.clone()),
                confidence: hyp.map(|h| h.confidence),
                status: hyp.map(|h| h.status.clone()),
            });
        }
        let mut wallets_seen = BTreeSet::new();
        for l in &r.same_as {
            let touches = members.contains(l.a.as_str()) || members.contains(l.b.as_str());
            if !touches {
                continue;
            }
            let controlled = [l.a.as_str(), l.b.as_str()]
                .into_iter()
                .filter_map(|id| ctx.entities.get(id))
                .find(|e| e.kind == "wallet" || e.kind == "account");
            if l.relation == "control"
                && l.state != "retracted"
                && let Some(w) = controlled
                && wallets_seen.insert(w.label.to_lowercase())
            {
                let citing = r
                    .hypotheses
                    .iter()
                    .find(|h| h.id == l.hypothesis_id)
                    .map(|h| {
                        h.edges
                            .iter()
                            .filter(|e| e.contribution > 0.0)
                            .map(|e| ctx.citing(&e.phenomenon_id))
                            .collect()
                    })
                    .unwrap_or_default();
                b.wallets.push(Attribution {
                    value: w.label.clone(),
                    link_id: l.id.clone(),
                    hypothesis_id: l.hypothesis_id.clone(),
                    confidence: l.confidence,
                    state: l.state.clone(),
                    citing,
                });
            }
            for d in &l.decisions {
                let text = |k: &str| d.get(k).and_then(|v| v.as_str()).unwrap_or("").to_string();
                b.decisions.push(format!(
                    "{} {} ({} and {}) by {} at {}: {}",
                    text("decision"),
                    l.id,
                    ctx.entity_words(&l.a),
                    ctx.entity_words(&l.b),
                    text("by"),
                    text("at"),
                    text("reason")
                ));
            }
            if l.state == "live" && l.decisions.is_empty() && l.confidence < 0.99 {
                b.pending.push(format!(
                    "{} {} link {}: {} and {} (confidence {:.2})",
                    l.state,
                    l.relation,
                    l.id,
                    ctx.entity_words(&l.a),
                    ctx.entity_words(&l.b),
                    l.confidence
                ));
            }
        }
        for h in r
            .hypotheses
            .iter()
            .filter(|h| h.kind == "coreference" && h.status != "supported")
        {
            let ids = entity_ids(&h.statement);
            if ids.iter().any(|e| members.contains(e.as_str())) {
                b.pending.push(format!(
                    "{} ({}, confidence {:.2}): {}",
                    h.id,
                    h.status,
                    h.confidence,
                    in_words(&ctx, &h.statement)
                ));
            }
        }
    }

    // Transactions.
    let mut transactions: Vec<TransactionRow> = Vec::new();
    for p in &r.phenomena {
        let amounts: Vec<String> = fact(p, "amount").map(str::to_string).collect();
        let hashes: Vec<String> = fact(p, "hash").map(str::to_string).collect();
        let wallets: Vec<String> = fact(p, "wallet").map(str::to_string).collect();
        if amounts.is_empty() && hashes.is_empty() {
            continue;
        }
        let mut people = BTreeSet::new();
        for w in &wallets {
            if let Some(i) = ctx.person_with(&["wallet"], w) {
                people.insert(format!("{} (wallet {w})", ctx.labels[i]));
            }
        }
        for (t, v) in p
            .verified_facts
            .iter()
            .filter(|f| f.fact_type == "phone" || f.fact_type == "email")
            .map(|f| (f.fact_type.as_str(), f.value.as_str()))
        {
            let norm: String = if t == "phone" {
                let digits: String = v.chars().filter(char::is_ascii_digit).collect();
                format!("+{digits}")
            } else {
                v.to_lowercase()
            };
            if let Some(i) = ctx.person_with(&[t], &norm) {
                people.insert(format!("{} ({t} {v})", ctx.labels[i]));
            }
        }
        if let Some(&i) = ctx.holder_of.get(p.source_id.as_str()) {
            people.insert(format!("{} (holder of {})", ctx.labels[i], p.source_id));
        }
        let (time, utc) = first_time(r, &p.id);
        transactions.push(TransactionRow {
            time,
            utc,
            source_id: p.source_id.clone(),
            phenomenon_id: p.id.clone(),
            title: p.title.clone(),
            amounts,
            wallets,
            tx_hashes: hashes,
            people: people.into_iter().collect(),
        });
    }
    transactions.sort_by(|a, b| (&a.utc, &a.phenomenon_id).cmp(&(&b.utc, &b.phenomenon_id)));

    // Messages between people.
    let mut communications: Vec<MessageRow> = Vec::new();
    for p in &r.phenomena {
        let Some(text) = fact(p, "text").next() else {
            continue;
        };
        let counterpart = p
            .verified_facts
            .iter()
            .find(|f| f.fact_type == "phone" || f.fact_type == "email");
        let counterpart_person = counterpart.and_then(|f| {
            let v = if f.fact_type == "email" {
                f.value.to_lowercase()
            } else {
                f.value.clone()
            };
            ctx.person_with(&[f.fact_type.as_str()], &v)
                .map(|i| ctx.labels[i].clone())
        });
        let holder = ctx
            .holder_of
            .get(p.source_id.as_str())
            .map(|&i| ctx.labels[i].clone());
        let title = p.title.to_lowercase();
        let direction = if title.contains(" sent") {
            "sent"
        } else if title.contains(" received") {
            "received"
        } else {
            ""
        };
        // A message: recorded as one, or sent/received with another party; between people of
        // the case.
        let message = p.category == "messages" || (!direction.is_empty() && counterpart.is_some());
        if !message || (counterpart_person.is_none() && holder.is_none()) {
            continue;
        }
        let (time, utc) = first_time(r, &p.id);
        communications.push(MessageRow {
            time,
            utc,
            source_id: p.source_id.clone(),
            phenomenon_id: p.id.clone(),
            holder,
            direction: direction.to_string(),
            counterpart: counterpart.map(|f| f.value.clone()).unwrap_or_default(),
            counterpart_person,
            text: text.to_string(),
        });
    }
    communications.sort_by(|a, b| (&a.utc, &a.phenomenon_id).cmp(&(&b.utc, &b.phenomenon_id)));

    // Hypotheses in words.
    let hypotheses = r
        .hypotheses
        .iter()
        .map(|h| HypothesisWords {
            id: h.id.clone(),
            kind: h.kind.clone(),
            statement: in_words(&ctx, &h.statement),
            confidence: h.confidence,
            status: h.status.clone(),
            supporting: h
                .edges
                .iter()
                .filter(|e| e.contribution > 0.0)
                .map(|e| {
                    format!(
                        "{} ({}, {:+.2})",
                        ctx.citing(&e.phenomenon_id),
                        e.edge_type,
                        e.contribution
                    )
                })
                .collect(),
            contradicting: h
                .edges
                .iter()
                .filter(|e| e.contribution < 0.0)
                .map(|e| {
                    format!(
                        "{} ({}, {:+.2})",
                        ctx.citing(&e.phenomenon_id),
                        e.edge_type,
                        e.contribution
                    )
                })
                .collect(),
            would_change: would_change(h),
        })
        .collect();

    Answer {
        summary: summary(r),
        people: blocks,
        transactions,
        communications,
        hypotheses,
        limitations: limitations(r),
    }
}

/// The entity ids (`ent-000012`) a statement names.
fn entity_ids(statement: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = statement;
    while let Some(i) = rest.find("ent-") {
        let digits = rest[i + 4..].bytes().take_while(u8::is_ascii_digit).count();
        if digits > 0 {
            out.push(rest[i..i + 4 + digits].to_string());
        }
        rest = &rest[i + 4 + digits..];
    }
    out
}

/// A statement with each entity id replaced by the entity in words.
fn in_words(ctx: &Ctx<'_>, statement: &str) -> String {
    let mut out = String::with_capacity(statement.len() * 2);
    let mut rest = statement;
    while let Some(i) = rest.find("ent-") {
        out.push_str(&rest[..i]);
        let digits = rest[i + 4..].bytes().take_while(u8::is_ascii_digit).count();
        let id = &rest[i..i + 4 + digits];
        if digits > 0 && ctx.entities.contains_key(id) {
            out.push_str(&ctx.entity_words(id));
        } else {
            out.push_str(id);
        }
        rest = &rest[i + 4 + digits..];
    }
    out.push_str(rest);
    out
}

/// One budget line of `generated.budgets` in words: `tool calls 895 of 20000 (4%)`, `LLM
/// tokens 0 (no cap)`, marked `— cap reached` when exhausted.
fn budget_words(line: &serde_json::Value) -> Option<String> {
    let name = match line.get("name")?.as_str()? {
        "tool_calls" => "tool calls",
        "rounds" => "rounds",
        "wall_clock_s" => "wall-clock seconds",
        "tokens" => "LLM tokens",
        other => other,
    };
    let used = line.get("used")?.as_u64()?;
    let cap = line.get("cap")?.as_u64()?;
    Some(if cap == 0 {
        format!("{name} {used} (no cap)")
    } else {
        format!(
            "{name} {used} of {cap} ({}%){}",
            (used as f64 * 100.0 / cap as f64).round(),
            if line.get("exhausted").and_then(|v| v.as_bool()) == Some(true) {
                " — cap reached"
            } else {
                ""
            }
        )
    })
}

fn summary(r: &Report) -> CaseSummary {
    let g = |k: &str| {
        r.generated
            .get(k)
            .map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_string))
            .filter(|s| s != "null")
            .unwrap_or_default()
    };
    let mut agents: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for p in &r.phenomena {
        let e = agents.entry(p.agent.clone()).or_default();
        if let Some(m) = &p.model {
            e.insert(m.clone());
        }
    }
    let budgets = r
        .generated
        .get("budgets")
        .and_then(|v| v.as_array())
        .map(|lines| lines.iter().filter_map(budget_words).collect())
        .unwrap_or_default();
    CaseSummary {
        budgets,
        question: r.case.title.clone(),
        examiner: r.case.examiner.clone(),
        sources: r
            .sources
            .iter()
            .map(|s| SourceVerdict {
                id: s.id.clone(),
                label: s.label.clone(),
                detected_type: s.detected_type.clone().unwrap_or_default(),
                owner: s.owner.as_ref().map(|o| {
                    r.case
                        .persons
                        .iter()
                        .find(|p| &p.id == o)
                        .map_or_else(|| o.clone(), |p| p.name.clone())
                }),
                integrity: match s.integrity.unchanged() {
                    Some(true) => "unchanged since intake",
                    Some(false) => "CHANGED since intake",
                    None => "not re-checked",
                }
                .to_string(),
            })
            .collect(),
        not_read: r.not_read.len(),
        tool: g("tool"),
        generated_at: g("generated_at"),
        run_state: g("run_state"),
        run_reason: g("run_reason"),
        agents: agents
            .into_iter()
            .map(|(a, m)| {
                if m.is_empty() {
                    format!("{a} (rules)")
                } else {
                    format!(
                        "{a} (model {})",
                        m.into_iter().collect::<Vec<_>>().join(", ")
                    )
                }
            })
            .collect(),
    }
}

fn limitations(r: &Report) -> Vec<Limitation> {
    let mut out = Vec::new();
    for n in &r.not_read {
        let kind = if n.reason.starts_with("encrypted") {
            "encrypted"
        } else if n.what.starts_with('/') || n.what.contains(':') {
            "unparsed"
        } else {
            "unread"
        };
        out.push(Limitation {
            kind: kind.into(),
            source_id: n.source_id.clone(),
            text: format!("{}: {}", n.what, n.reason),
        });
    }
    for s in &r.sources {
        for c in &s.coverage {
            if !c.searched {
                out.push(Limitation {
                    kind: "not_examined".into(),
                    source_id: s.id.clone(),
                    text: format!(
                        "the {} plugin's triage did not run to its end: artefacts it did not \
                         read were not examined",
                        c.plugin
                    ),
                });
            }
            for i in &c.items {
                if i.status.as_words() == "could not parse" {
                    out.push(Limitation {
                        kind: "unparsed".into(),
                        source_id: s.id.clone(),
                        text: format!("{} ({}): {}", i.name, c.plugin, i.problems.join("; ")),
                    });
                }
            }
        }
        let naive = r
            .timeline
            .iter()
            .filter(|t| *t.source_id == *s.id && *t.zone == *s.timezone && &*t.zone != "UTC")
            .count();
        if naive > 0 {
            out.push(Limitation {
                kind: "time_zone".into(),
                source_id: s.id.clone(),
                text: format!(
                    "{naive} time(s) carried no zone or offset and were read in {} (the \
                     source's zone declared in case.yaml); if the device was set to another \
                     zone they shift by the difference",
                    s.timezone
                ),
            });
        }
    }
    for t in r.timeline.iter().filter(|t| t.flag.is_some()) {
        out.push(Limitation {
            kind: "time".into(),
            source_id: t.source_id.to_string(),
            text: format!(
                "{} {} ({}): {}{}",
                t.phenomenon_id,
                t.description,
                t.raw,
                t.flag.unwrap_or(""),
                t.note
                    .as_deref()
                    .map(|n| format!(" — {n}"))
                    .unwrap_or_default()
            ),
        });
    }
    out
}
