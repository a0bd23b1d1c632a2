//! The catalog: tools by name, and argument validation against their schemas.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde_json::Value;

use crate::{
    Tool, ToolError, content_tools, doc_metadata, fs_tools, inventory, leveldb_tool, scan_tools,
    search, sqlite,
};

/// Tools by name (sorted, so listings are deterministic).
#[derive(Clone, Default)]
pub struct Catalog {
    tools: BTreeMap<String, Arc<dyn Tool>>,
}

impl Catalog {
    /// An empty catalog.
    pub fn new() -> Self {
        Self::default()
    }

    /// The built-in tools: file-system, image, SQLite and content tools.
    pub fn standard() -> Self {
        let mut c = Self::new();
        c.register(Arc::new(fs_tools::ListDir));
        c.register(Arc::new(fs_tools::Stat));
        c.register(Arc::new(fs_tools::ReadText));
        c.register(Arc::new(fs_tools::Hexdump));
        c.register(Arc::new(fs_tools::HashFile));
        c.register(Arc::new(fs_tools::FindFiles));
        c.register(Arc::new(inventory::Inventory));
        c.register(Arc::new(scan_tools::PartitionTable));
        c.register(Arc::new(scan_tools::FsInfo));
        c.register(Arc::new(sqlite::SqliteTables));
        c.register(Arc::new(sqlite::SqliteQuery));
        c.register(Arc::new(content_tools::Strings));
        c.register(Arc::new(crate::plist_tool::ParsePlist));
        c.register(Arc::new(crate::xml_tool::ReadXml));
        c.register(Arc::new(crate::email_tool::ReadEmail));
        c.register(Arc::new(crate::wal_history::SqliteWalHistory));
        c.register(Arc::new(crate::json_tool::ReadJson));
        c.register(Arc::new(crate::protobuf::ReadProtobuf));
        c.register(Arc::new(crate::bencode::ReadBencode));
        c.register(Arc::new(crate::fit::ReadFit));
        c.register(Arc::new(crate::javaser::ReadJava));
        c.register(Arc::new(leveldb_tool::LevelDbRecords));
        c.register(Arc::new(crate::segb_tool::ReadSegb));
        c.register(Arc::new(crate::okhttp_cache::ReadOkhttpCache));
        c.register(Arc::new(crate::fsevents::ReadFsevents));
        c.register(Arc::new(doc_metadata::DocMetadata));
        c.register(Arc::new(search::SearchText));
        c.register(Arc::new(crate::index_tools::SearchIndex));
        c
    }

    /// Adds a tool (plugins add theirs this way); a tool of the same name is replaced.
    pub fn register(&mut self, tool: Arc<dyn Tool>) {
        self.tools.insert(tool.name().to_string(), tool);
    }

    /// The tool with this name.
    pub fn get(&self, name: &str) -> Option<&Arc<dyn Tool>> {
        self.tools.get(name)
    }

    /// Every tool, by name.
    pub fn tools(&self) -> impl Iterator<Item = &Arc<dyn Tool>> {
        self.tools.values()
    }

    /// Names of the tools that can run on `source` (its [`crate::SourceCtx::shape`]), sorted.
    pub fn applicable_to(&self, source: &crate::SourceCtx) -> Vec<&str> {
        let shape = source.shape();
        self.tools
            .iter()
            .filter(|(_, t)| t.applicability().fits(shape))
            .map(|(n, _)| n.as_str())
            .collect()
    }

    /// Names of every tool, sorted.
    pub fn names(&self) -> Vec<&str> {
        self.tools.keys().map(String::as_str).collect()
    }
}

/// Checks `args` against a tool's object schema: an object (or null, read as `{}`), every
/// `required` field present, no field outside `properties`, and each present field of the
/// declared JSON type (`string`, `integer`, `boolean`, `number`, `object`, `array`).
pub fn validate(schema: &Value, args: &Value) -> Result<(), ToolError> {
    let empty = serde_json::Map::new();
    let obj = match args {
        Value::Object(m) => m,
        Value::Null => &empty,
        _ => {
            return Err(ToolError::InvalidArgs(
                "arguments must be a JSON object".to_string(),
            ));
        }
    };
    let props = schema.get("properties").and_then(Value::as_object);
    if let Some(req) = schema.get("required").and_then(Value::as_array) {
        for r in req.iter().filter_map(Value::as_str) {
            if obj.get(r).is_none_or(Value::is_null) {
                return Err(ToolError::InvalidArgs(format!(
                    "missing required field {r:?}"
                )));
            }
        }
    }
    let mut keys: Vec<&String> = obj.keys().collect();
    keys.sort();
    for key in keys {
        let value = &obj[key];
        let Some(prop) = props.and_then(|p| p.get(key)) else {
            return Err(ToolError::InvalidArgs(format!("unknown field {key:?}")));
        };
        if value.is_null() {
            continue;
        }
        let ok = match prop.get("type").and_then(Value::as_str) {
            Some("string") => value.is_string(),
            Some("integer") => value.is_u64() || value.is_i64(),
            Some("number") => value.is_number(),
            Some("boolean") => value.is_boolean(),
            Some("object") => value.is_object(),
            Some("array") => value.is_array(),
            _ => true,
        };
        if !ok {
            return Err(ToolError::InvalidArgs(format!(
                "field {key:?} must be of type {}",
                prop["type"]
            )));
        }
        if let (Some(min), Some(n)) = (prop.get("minimum").and_then(Value::as_i64), value.as_i64())
            && n < min
        {
            return Err(ToolError::InvalidArgs(format!(
                "field {key:?} must be at least {min}"
            )));
        }
    }
    Ok(())
}
