//! Tools over a source's layer stack: partition_table and fs_info.

use std::fmt::Write as _;

use masf_evidence::probe::Encryption;
use masf_evidence::scan::Node;
use serde_json::{Value, json};

use crate::{Applicability, SourceCtx, Tool, ToolError, ToolOutput};

fn no_args() -> Value {
    json!({"type": "object", "properties": {}, "required": [], "additionalProperties": false})
}

fn walk<'a>(node: &'a Node, depth: usize, out: &mut Vec<(usize, &'a Node)>) {
    out.push((depth, node));
    for c in &node.children {
        walk(c, depth + 1, out);
    }
}

fn nodes(ctx: &SourceCtx) -> Vec<(usize, &Node)> {
    let mut out = Vec::new();
    walk(&ctx.scan.root, 0, &mut out);
    out
}

/// `partition_table`: the partitions found in the source's images.
pub struct PartitionTable;

impl Tool for PartitionTable {
    fn name(&self) -> &str {
        "partition_table"
    }
    fn description(&self) -> &str {
        "List the partitions of the source's disk image(s) (GPT or MBR): scheme, 1-based index, name, type, byte offset and size, and the file system found in each (or why none could be read). Use a partition's name or index as the 'partition' argument of the file tools."
    }
    fn args_schema(&self) -> Value {
        no_args()
    }
    fn applicability(&self) -> Applicability {
        Applicability::IMAGE
    }
    fn run(&self, ctx: &SourceCtx, _args: &Value) -> Result<ToolOutput, ToolError> {
        let mut text = String::from("scheme\tindex\tname\ttype\toffset\tsize\tcontent\n");
        let mut rows = Vec::new();
        for (_, node) in nodes(ctx) {
            let Some(p) = &node.partition else { continue };
            let scheme = node.layer.params.get("scheme").cloned().unwrap_or_default();
            let content = match (&node.probe, &node.problem) {
                (_, Some(problem)) => ctx.scrub(problem),
                (Some(probe), None) => probe.format.name().to_string(),
                (None, None) => "unrecognised".to_string(),
            };
            let _ = writeln!(
                text,
                "{scheme}\t{}\t{}\t{}\t{}\t{}\t{content}",
                p.index,
                if p.name.is_empty() { "-" } else { &p.name },
                p.type_name,
                p.offset,
                p.size
            );
            rows.push(json!({"scheme": scheme, "index": p.index, "name": p.name, "type": p.type_name, "offset": p.offset, "size": p.size, "content": content}));
        }
        if rows.is_empty() {
            text.push_str("# no partition table found\n");
        }
        Ok(ToolOutput {
            text,
            structured: Some(json!({"partitions": rows})),
        })
    }
}

fn encryption_str(e: &Encryption) -> Option<String> {
    match e {
        Encryption::None => None,
        Encryption::Fbe { evidence } => Some(format!("file-based encryption: {evidence}")),
        Encryption::Fde { evidence } => Some(format!("full-disk encryption: {evidence}")),
        Encryption::Luks => Some("LUKS container".to_string()),
        Encryption::Unknown { evidence } => Some(format!("likely encrypted: {evidence}")),
    }
}

/// `fs_info`: every layer of the source, with what was recognised in it.
pub struct FsInfo;

impl Tool for FsInfo {
    fn name(&self) -> &str {
        "fs_info"
    }
    fn description(&self) -> &str {
        "Describe the source's layer stack (image container, partitions, file systems, archives), one layer a block: its kind and parameters, the format recognised, whether MASForensics can read it, label, UUID, feature flags, encryption verdict with its evidence, and any problem met. Start here to learn what a source holds and whether it is encrypted."
    }
    fn args_schema(&self) -> Value {
        no_args()
    }
    fn applicability(&self) -> Applicability {
        Applicability::ANY
    }
    fn run(&self, ctx: &SourceCtx, _args: &Value) -> Result<ToolOutput, ToolError> {
        let mut text = String::new();
        let _ = writeln!(text, "form: {}", ctx.scan.form.as_str());
        let mut layers = Vec::new();
        for (depth, node) in nodes(ctx) {
            let indent = "  ".repeat(depth);
            // The file layer's location is a path of this machine: never part of an output.
            let params: Vec<(String, String)> = node
                .layer
                .params
                .iter()
                .filter(|(k, _)| k.as_str() != "location")
                .map(|(k, v)| (k.clone(), ctx.scrub(v)))
                .collect();
            let params_text = params
                .iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect::<Vec<_>>()
                .join(" ");
            if params_text.is_empty() {
                let _ = writeln!(text, "{indent}layer: {}", node.layer.kind);
            } else {
                let _ = writeln!(text, "{indent}layer: {} {params_text}", node.layer.kind);
            }
            let mut obj = serde_json::Map::new();
            obj.insert("depth".into(), json!(depth));
            obj.insert("kind".into(), json!(node.layer.kind));
            obj.insert(
                "params".into(),
                Value::Object(params.into_iter().map(|(k, v)| (k, json!(v))).collect()),
            );
            if let Some(b) = &node.bytes {
                let _ = writeln!(text, "{indent}  size: {}", b.len());
                obj.insert("size".into(), json!(b.len()));
            }
            if let Some(p) = &node.partition {
                let _ = writeln!(
                    text,
                    "{indent}  partition: #{} {} ({})",
                    p.index,
                    if p.name.is_empty() { "-" } else { &p.name },
                    p.type_name
                );
                obj.insert("partition".into(), json!({"index": p.index, "name": p.name, "type": p.type_name, "offset": p.offset, "size": p.size}));
            }
            if let Some(probe) = &node.probe {
                let _ = writeln!(text, "{indent}  format: {}", probe.format.name());
                let _ = writeln!(text, "{indent}  readable: {}", probe.readable);
                if let Some(l) = &probe.label {
                    let _ = writeln!(text, "{indent}  label: {l}");
                }
                if let Some(u) = &probe.uuid {
                    let _ = writeln!(text, "{indent}  uuid: {u}");
                }
                if !probe.features.is_empty() {
                    let _ = writeln!(text, "{indent}  features: {}", probe.features.join(" "));
                }
                let enc = encryption_str(&probe.encryption);
                let _ = writeln!(
                    text,
                    "{indent}  encryption: {}",
                    enc.as_deref().unwrap_or("none")
                );
                obj.insert("format".into(), json!(probe.format.name()));
                obj.insert("readable".into(), json!(probe.readable));
                obj.insert("label".into(), json!(probe.label));
                obj.insert("uuid".into(), json!(probe.uuid));
                obj.insert("features".into(), json!(probe.features));
                obj.insert("encryption".into(), json!(enc));
            }
            if let Some(fs) = &node.fs {
                let _ = writeln!(text, "{indent}  file_system: {}", fs.format());
                obj.insert("file_system".into(), json!(fs.format()));
            }
            if let Some(problem) = &node.problem {
                let problem = ctx.scrub(problem);
                let _ = writeln!(text, "{indent}  problem: {problem}");
                obj.insert("problem".into(), json!(problem));
            }
            layers.push(Value::Object(obj));
        }
        Ok(ToolOutput {
            text,
            structured: Some(json!({"form": ctx.scan.form.as_str(), "layers": layers})),
        })
    }
}
