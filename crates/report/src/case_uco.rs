//! `report.case.jsonld`: the report as CASE 1.5 / UCO 1.4 JSON-LD, for tools that import CASE
//! (the Cyber-investigation Analysis Standard Expression). Pure: made from the report model.
//!
//! - The investigation (`case-investigation:Investigation`, the case title and id) holds every
//!   action and provenance record below.
//! - Each source is a `case-investigation:ProvenanceRecord` (exhibit number = source id) over
//!   its evidence files (`uco-observable:File`: name, size, SHA-256 and MD5 as `uco-types:Hash`).
//! - Each logged tool invocation is a `case-investigation:InvestigativeAction`: the tool with its
//!   version as instrument (`uco-tool:Tool`), the agent or examiner as performer, the source's
//!   provenance record as object, its output's content (one node per distinct SHA-256, with
//!   that hash; the bytes are published as `outputs/inv-….out`) as result, the arguments,
//!   status and re-derive command in its description, its start time.
//! - Entities are identities (`uco-identity:Person`, `uco-identity:Organization`) or observables
//!   (devices, accounts, wallets); each identifier is an observable (an e-mail address with its
//!   `EmailAddressFacet`, a phone with its `PhoneAccountFacet`, anything else an account with
//!   its `AccountFacet`) linked to its entity by a `Has_Identifier` relationship.
//! - `same_as` edges are `uco-core:Relationship`s (`Same_As`, undirected; `Controlled_By`,
//!   wallet → person, for control links) with their confidence, state and hypothesis; each
//!   examiner approval or retraction is an `InvestigativeAction` performed by the examiner on
//!   that relationship, with its reason and time.
//!
//! Node IRIs are `kb:` + a kind + the record's own id + a UUID derived from both
//! (`kb:action-inv-000012-<uuid>`), so every node names the report row it comes from and ends
//! in a UUID as CASE suggests. Checked in CI with `case_validate --built-version
//! case-1.5.0` (PyPI `case-utils`).

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Value, json};

use crate::model::Report;

/// The JSON-LD context: CASE 1.5 and UCO 1.4 namespaces, and `kb:` for this report's nodes.
fn context(case_id: &str) -> Value {
    json!({
        "case-investigation": "https://ontology.caseontology.org/case/investigation/",
        "kb": format!("urn:masforensics:{}:", iri_part(case_id)),
        "uco-action": "https://ontology.unifiedcyberontology.org/uco/action/",
        "uco-core": "https://ontology.unifiedcyberontology.org/uco/core/",
        "uco-identity": "https://ontology.unifiedcyberontology.org/uco/identity/",
        "uco-observable": "https://ontology.unifiedcyberontology.org/uco/observable/",
        "uco-tool": "https://ontology.unifiedcyberontology.org/uco/tool/",
        "uco-types": "https://ontology.unifiedcyberontology.org/uco/types/",
        "uco-vocabulary": "https://ontology.unifiedcyberontology.org/uco/vocabulary/",
        "xsd": "http://www.w3.org/2001/XMLSchema#"
    })
}

/// `s` with every character outside `A-Za-z0-9._-` as `-`, so it can end an IRI.
fn iri_part(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') {
                c
            } else {
                '-'
            }
        })
        .collect()
}

/// A node's IRI: `kb:` + its kind + the record's id + a UUID made from those (SHA-256, laid
/// out as a version-5-style UUID), as CASE suggests every IRI end: stable across reports of
/// the same record.
fn id(kind: &str, name: &str) -> String {
    use sha2::{Digest, Sha256};
    let d = Sha256::digest(format!("{kind}\0{name}").as_bytes());
    let mut b = [0u8; 16];
    b.copy_from_slice(&d[..16]);
    b[6] = (b[6] & 0x0f) | 0x50;
    b[8] = (b[8] & 0x3f) | 0x80;
    let h = hex::encode(b);
    format!(
        "kb:{kind}-{}-{}-{}-{}-{}-{}",
        iri_part(name),
        &h[0..8],
        &h[8..12],
        &h[12..16],
        &h[16..20],
        &h[20..32]
    )
}

fn reference(iri: &str) -> Value {
    json!({"@id": iri})
}

fn typed(t: &str, v: impl Into<Value>) -> Value {
    json!({"@type": t, "@value": v.into()})
}

fn date_time(v: &str) -> Value {
    typed("xsd:dateTime", v)
}

/// A hash node (`uco-types:Hash`) of `method` (`SHA256`, `MD5`) and hex `value`.
fn hash(owner: &str, method: &str, value: &str) -> Value {
    json!({
        "@id": id("hash", &format!("{owner}-{method}")),
        "@type": "uco-types:Hash",
        "uco-types:hashMethod": method,
        "uco-types:hashValue": typed("xsd:hexBinary", value.to_uppercase()),
    })
}

/// A `uco-observable:File` with its name, size and hashes.
fn file(iri: &str, name: &str, size: Option<u64>, hashes: &[(&str, &str)]) -> Value {
    let mut file_facet = json!({
        "@id": id("file-facet", iri),
        "@type": "uco-observable:FileFacet",
        "uco-observable:fileName": name,
    });
    if let Some(size) = size {
        file_facet["uco-observable:sizeInBytes"] = typed("xsd:integer", size);
    }
    let mut facets = vec![file_facet];
    let hashes: Vec<Value> = hashes
        .iter()
        .filter(|(_, v)| !v.is_empty())
        .map(|(m, v)| hash(iri, m, v))
        .collect();
    if !hashes.is_empty() {
        facets.push(json!({
            "@id": id("content-facet", iri),
            "@type": "uco-observable:ContentDataFacet",
            "uco-observable:hash": hashes,
        }));
    }
    json!({
        "@id": iri,
        "@type": "uco-observable:File",
        "uco-core:hasFacet": facets,
    })
}

/// A tool output's content: an observable named by its SHA-256 with that hash (the bytes are
/// published as `outputs/inv-….out` for every invocation that produced them).
fn content(iri: &str, sha256: &str) -> Value {
    json!({
        "@id": iri,
        "@type": "uco-observable:ObservableObject",
        "uco-core:name": format!("tool output sha256:{sha256}"),
        "uco-core:hasFacet": [{
            "@id": id("content-facet", iri),
            "@type": "uco-observable:ContentDataFacet",
            "uco-observable:hash": [hash(iri, "SHA256", sha256)],
        }],
    })
}

/// A `uco-tool:Tool`.
fn tool(iri: &str, name: &str, version: Option<&str>, kind: &str) -> Value {
    let mut t = json!({
        "@id": iri,
        "@type": "uco-tool:Tool",
        "uco-core:name": name,
        "uco-tool:toolType": kind,
    });
    if let Some(v) = version.filter(|v| !v.is_empty()) {
        t["uco-tool:version"] = json!(v);
    }
    t
}

/// An identifier as an observable with the facet its type has.
fn identifier_node(iri: &str, id_type: &str, value: &str) -> Value {
    let (class, facet) = match id_type {
        "email" | "google_account" | "apple_id" if value.contains('@') => (
            "uco-observable:EmailAddress",
            json!({
                "@id": id("facet", iri),
                "@type": "uco-observable:EmailAddressFacet",
                "uco-observable:addressValue": value,
            }),
        ),
        "phone" => (
            "uco-observable:ObservableObject",
            json!({
                "@id": id("facet", iri),
                "@type": "uco-observable:PhoneAccountFacet",
                "uco-observable:phoneNumber": value,
            }),
        ),
        _ => (
            "uco-observable:ObservableObject",
            json!({
                "@id": id("facet", iri),
                "@type": "uco-observable:AccountFacet",
                "uco-observable:accountIdentifier": value,
            }),
        ),
    };
    json!({
        "@id": iri,
        "@type": class,
        "uco-core:name": format!("{id_type}: {value}"),
        "uco-core:hasFacet": [facet],
    })
}

/// A relationship between two nodes.
fn relationship(
    iri: &str,
    kind: &str,
    source: &str,
    target: &str,
    directional: bool,
    description: Option<String>,
) -> Value {
    let mut r = json!({
        "@id": iri,
        "@type": "uco-core:Relationship",
        "uco-core:source": [reference(source)],
        "uco-core:target": reference(target),
        "uco-core:kindOfRelationship": kind,
        "uco-core:isDirectional": typed("xsd:boolean", directional),
    });
    if let Some(d) = description {
        r["uco-core:description"] = json!(d);
    }
    r
}

/// The report as one CASE JSON-LD document (`@context` and `@graph`).
pub fn case_jsonld(r: &Report) -> Value {
    let mut graph: Vec<Value> = Vec::new();
    let mut members: Vec<Value> = Vec::new();
    let generated = |k: &str| {
        r.generated
            .get(k)
            .and_then(Value::as_str)
            .unwrap_or_default()
    };

    // who and what acted
    let masf = id("tool", "masf");
    let masf_version = generated("tool").strip_prefix("masf ").unwrap_or_default();
    graph.push(tool(&masf, "masf", Some(masf_version), "forensic analysis"));
    let examiner = id("identity", "examiner");
    graph.push(json!({
        "@id": examiner,
        "@type": "uco-identity:Person",
        "uco-core:name": r.case.examiner,
        "uco-core:description": "The examiner of the case (case.yaml meta.examiner).",
    }));
    let mut agents: BTreeSet<String> = BTreeSet::new();
    let mut outputs: BTreeSet<String> = BTreeSet::new();
    let mut tools: BTreeMap<String, Value> = BTreeMap::new();

    // the evidence: one provenance record per source over its files
    let mut provenance: BTreeMap<&str, String> = BTreeMap::new();
    for s in &r.sources {
        let record = id("provenance", &s.id);
        let mut files = Vec::new();
        for (n, f) in s.integrity.files.iter().enumerate() {
            let iri = id("evidence-file", &format!("{}-{}", s.id, n + 1));
            let name = f.path.rsplit('/').next().unwrap_or(&f.path);
            graph.push(file(
                &iri,
                name,
                Some(f.size),
                &[("SHA256", &f.sha256), ("MD5", &f.md5)],
            ));
            files.push(reference(&iri));
        }
        if files.is_empty() {
            let iri = id("evidence-file", &s.id);
            let name = s.path.rsplit('/').next().unwrap_or(&s.path);
            graph.push(file(&iri, name, Some(s.size), &[]));
            files.push(reference(&iri));
        }
        graph.push(json!({
            "@id": record,
            "@type": "case-investigation:ProvenanceRecord",
            "case-investigation:exhibitNumber": s.id,
            "uco-core:description": format!("{} ({})", s.label, s.detected_type.as_deref().unwrap_or("type not detected")),
            "uco-core:object": files,
        }));
        members.push(reference(&record));
        provenance.insert(s.id.as_str(), record);
    }

    // every logged tool call
    for i in &r.invocations {
        let version = i.versions.get("tool").map(String::as_str);
        let tool_iri = id(
            "tool",
            &format!("{}-{}", i.tool, version.unwrap_or("unversioned")),
        );
        tools
            .entry(tool_iri.clone())
            .or_insert_with(|| tool(&tool_iri, &i.tool, version, "masf catalog tool"));
        let performer = if i.agent == "examiner" {
            examiner.clone()
        } else {
            agents.insert(i.agent.clone());
            id("agent", &i.agent)
        };
        // one node per distinct output content (a search that found nothing gives the same
        // bytes every time): the actions that produced it all name it as their result
        let output = id("output", &i.output_sha256);
        if outputs.insert(output.clone()) {
            graph.push(content(&output, &i.output_sha256));
        }
        let action = id("action", &i.id);
        let mut a = json!({
            "@id": action,
            "@type": "case-investigation:InvestigativeAction",
            "uco-core:name": format!("{} {}", i.tool, i.id),
            "uco-core:description": format!("{} (status {}; args {}; task {}; re-derive: {})", i.tool, i.status, i.args, i.task_id, i.rerun),
            "uco-action:instrument": reference(&tool_iri),
            "uco-action:performer": reference(&performer),
            "uco-action:result": [reference(&output)],
        });
        if let Some(record) = provenance.get(i.source_id.as_str()) {
            a["uco-action:object"] = json!([reference(record)]);
        }
        if !i.ts.is_empty() {
            a["uco-action:startTime"] = date_time(&i.ts);
        }
        graph.push(a);
        members.push(reference(&action));
    }
    for a in &agents {
        let model: BTreeSet<&str> = r
            .phenomena
            .iter()
            .filter(|p| &p.agent == a)
            .filter_map(|p| p.model.as_deref())
            .collect();
        graph.push(tool(
            &id("agent", a),
            a,
            None,
            if model.is_empty() {
                "rule-based triage agent".to_string()
            } else {
                format!(
                    "LLM agent ({})",
                    model.into_iter().collect::<Vec<_>>().join(", ")
                )
            }
            .as_str(),
        ));
    }
    graph.extend(tools.into_values());

    // identities and accounts
    let mut identifier_nodes: BTreeMap<String, Value> = BTreeMap::new();
    for e in &r.entities {
        let iri = id("entity", &e.id);
        let class = match e.kind.as_str() {
            "person" => "uco-identity:Person",
            "organization" => "uco-identity:Organization",
            "device" => "uco-observable:Device",
            _ => "uco-observable:ObservableObject",
        };
        graph.push(json!({
            "@id": iri,
            "@type": class,
            "uco-core:name": e.label,
            "uco-core:description": format!("{} entity {} ({}) of {}", e.kind, e.id, e.context, e.source_ids.join(", ")),
        }));
        for (n, i) in e.identifiers.iter().enumerate() {
            let key = format!("{}-{}", i.id_type, i.normalized);
            let node = id("identifier", &key);
            identifier_nodes
                .entry(node.clone())
                .or_insert_with(|| identifier_node(&node, &i.id_type, &i.value));
            graph.push(relationship(
                &id("has-identifier", &format!("{}-{}", e.id, n + 1)),
                "Has_Identifier",
                &iri,
                &node,
                true,
                Some(format!(
                    "{} {} identifier, observed in {}",
                    i.strength, i.id_type, i.phenomenon_id
                )),
            ));
        }
    }
    graph.extend(identifier_nodes.into_values());

    // the links between them and the examiner's decisions on them
    for l in &r.same_as {
        let iri = id("link", &l.id);
        let control = l.relation == "control";
        graph.push(relationship(
            &iri,
            if control { "Controlled_By" } else { "Same_As" },
            &id("entity", &l.a),
            &id("entity", &l.b),
            control,
            Some(format!(
                "{} link {}: confidence {:.4}, state {}, hypothesis {}",
                l.relation, l.id, l.confidence, l.state, l.hypothesis_id
            )),
        ));
        for (n, d) in l.decisions.iter().enumerate() {
            let s = |k: &str| d.get(k).and_then(Value::as_str).unwrap_or_default();
            let action = id("decision", &format!("{}-{}", l.id, n + 1));
            let mut a = json!({
                "@id": action,
                "@type": "case-investigation:InvestigativeAction",
                "uco-core:name": format!("{} {}", s("decision"), l.id),
                "uco-core:description": format!("{} by {}: {}", s("decision"), s("by"), s("reason")),
                "uco-action:performer": reference(&examiner),
                "uco-action:object": [reference(&iri)],
            });
            if !s("at").is_empty() {
                a["uco-action:startTime"] = date_time(s("at"));
            }
            graph.push(a);
            members.push(reference(&action));
        }
    }

    graph.push(json!({
        "@id": id("investigation", &r.case.id),
        "@type": "case-investigation:Investigation",
        "uco-core:name": r.case.title,
        "uco-core:description": format!("Case {} examined with {} (report schema {})", r.case.id, generated("tool"), r.schema),
        "case-investigation:focus": r.case.title,
        "uco-core:object": members,
    }));
    json!({"@context": context(&r.case.id), "@graph": graph})
}
