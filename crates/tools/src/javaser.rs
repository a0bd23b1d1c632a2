//! Java object serialization streams (`ObjectOutputStream`, magic `AC ED 00 05`) decoded to
//! JSON, for `sqlite_query`'s `java` option (a cell that is such a stream, or its Base64) and
//! the `read_java` tool (a file that is one: WeChat for Android's `CompatibleInfo.cfg`, a
//! `HashMap` of the device's identifiers). Android apps keep values this way when they hand a
//! `Serializable` to `ObjectOutputStream` (Proton Mail's first app kept its recipient lists so).
//!
//! The JSON: an object is `{"@class": <name>, <field>: <value>, …}` with the data its class
//! wrote itself (`writeObject`) in `"@data"`; the collections of `java.util` read as what they
//! hold (`"@elements"` of a list or set, `"@entries"` `[{"key", "value"}, …]` of a map); a boxed
//! primitive (`java.lang.Integer`, …) as the primitive; a string as a string; an array as an
//! array; an enum constant as `{"@enum": <class>, "@name": <constant>}`; block data as
//! `{"@block": <hex>}`; a reference back to an object still being read as `{"@cycle": <class>}`.
//!
//! Written by hand: the maintained crate (`jaded` 0.5) follows back-references without a
//! bound — a crafted array that holds a reference to itself recurses until the stack overflows
//! — and panics on an unexpected registration order; evidence is hostile. Here nesting is
//! bounded ([`MAX_DEPTH`]), so is the JSON a stream may expand to by repeated references
//! ([`MAX_NODES`]), a length is checked against the bytes left before anything is allocated,
//! and every error names the byte offset where reading stopped.

use serde_json::{Map, Value, json};

/// Deepest nesting of contents read.
pub const MAX_DEPTH: usize = 64;

/// Most JSON values one stream may decode to (references copy what they point to).
pub const MAX_NODES: usize = 200_000;

/// Largest file `read_java` reads.
pub const FILE_MAX: u64 = 16 << 20;

const MAGIC: [u8; 4] = [0xAC, 0xED, 0x00, 0x05];
const BASE_HANDLE: u32 = 0x7E_0000;

const TC_NULL: u8 = 0x70;
const TC_REFERENCE: u8 = 0x71;
const TC_CLASSDESC: u8 = 0x72;
const TC_OBJECT: u8 = 0x73;
const TC_STRING: u8 = 0x74;
const TC_ARRAY: u8 = 0x75;
const TC_CLASS: u8 = 0x76;
const TC_BLOCKDATA: u8 = 0x77;
const TC_ENDBLOCKDATA: u8 = 0x78;
const TC_RESET: u8 = 0x79;
const TC_BLOCKDATALONG: u8 = 0x7A;
const TC_EXCEPTION: u8 = 0x7B;
const TC_LONGSTRING: u8 = 0x7C;
const TC_PROXYCLASSDESC: u8 = 0x7D;
const TC_ENUM: u8 = 0x7E;

const SC_WRITE_METHOD: u8 = 0x01;
const SC_SERIALIZABLE: u8 = 0x02;
const SC_EXTERNALIZABLE: u8 = 0x04;
const SC_BLOCK_DATA: u8 = 0x08;

/// Why a stream did not decode, and the byte offset where reading stopped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JavaError {
    pub offset: usize,
    pub reason: String,
}

impl std::fmt::Display for JavaError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "at byte {}: {}", self.offset, self.reason)
    }
}

/// Whether `b` starts as a Java serialization stream.
pub fn is_stream(b: &[u8]) -> bool {
    b.starts_with(&MAGIC)
}

/// The contents of the stream `b` (each top-level object or block, in order).
pub fn decode(b: &[u8]) -> Result<Vec<Value>, JavaError> {
    if !is_stream(b) {
        return Err(JavaError {
            offset: 0,
            reason: "not a Java serialization stream (no AC ED 00 05 magic)".into(),
        });
    }
    let mut r = Reader {
        b,
        at: MAGIC.len(),
        handles: Vec::new(),
        nodes: 0,
    };
    let mut out = Vec::new();
    while r.at < b.len() {
        match r.content(0)? {
            Item::Value(v) => out.push(v),
            Item::End => return Err(r.error("an end of block data outside any object")),
        }
    }
    Ok(out)
}

/// A cell's stream (the bytes, or their Base64 as `ObjectOutputStream` output is often stored)
/// as one line of JSON — the contents' array, or the one content — when it decodes completely.
pub fn cell(b: &[u8]) -> Option<String> {
    let decoded;
    let bytes = if is_stream(b) {
        b
    } else if b.starts_with(b"rO0AB") {
        use base64::Engine;
        let text: Vec<u8> = b
            .iter()
            .copied()
            .filter(|c| !c.is_ascii_whitespace())
            .collect();
        decoded = base64::engine::general_purpose::STANDARD
            .decode(&text)
            .ok()?;
        &decoded
    } else {
        return None;
    };
    let mut contents = decode(bytes).ok()?;
    let v = if contents.len() == 1 {
        contents.remove(0)
    } else {
        Value::Array(contents)
    };
    serde_json::to_string(&v).ok()
}

/// What a handle stands for.
#[derive(Clone)]
enum Handle {
    Class(std::rc::Rc<ClassDesc>),
    Value(Value),
    /// An object or array still being read (a reference to it is a cycle).
    Pending(String),
}

struct ClassDesc {
    name: String,
    flags: u8,
    fields: Vec<(u8, String)>,
    /// The superclass, if any (read before this class's data).
    parent: Option<std::rc::Rc<ClassDesc>>,
}

enum Item {
    Value(Value),
    End,
}

struct Reader<'a> {
    b: &'a [u8],
    at: usize,
    handles: Vec<Handle>,
    nodes: usize,
}

impl Reader<'_> {
    fn error(&self, reason: impl Into<String>) -> JavaError {
        JavaError {
            offset: self.at,
            reason: reason.into(),
        }
    }

    fn take(&mut self, n: usize) -> Result<&[u8], JavaError> {
        if self.b.len() - self.at < n {
            return Err(self.error(format!(
                "truncated: {n} bytes wanted, {} left",
                self.b.len() - self.at
            )));
        }
        let s = &self.b[self.at..self.at + n];
        self.at += n;
        Ok(s)
    }

    fn u8(&mut self) -> Result<u8, JavaError> {
        Ok(self.take(1)?[0])
    }
    fn u16(&mut self) -> Result<u16, JavaError> {
        let s = self.take(2)?;
        Ok(u16::from_be_bytes([s[0], s[1]]))
    }
    fn u32(&mut self) -> Result<u32, JavaError> {
        let s = self.take(4)?;
        Ok(u32::from_be_bytes([s[0], s[1], s[2], s[3]]))
    }
    fn u64(&mut self) -> Result<u64, JavaError> {
        let s = self.take(8)?;
        let mut a = [0u8; 8];
        a.copy_from_slice(s);
        Ok(u64::from_be_bytes(a))
    }

    /// A count of items each at least `min` bytes long, checked against the bytes left.
    fn count(&mut self, n: u64, min: usize) -> Result<usize, JavaError> {
        let left = (self.b.len() - self.at) as u64;
        if n.saturating_mul(min as u64) > left {
            return Err(self.error(format!(
                "a length of {n} items, more than the {left} bytes left hold"
            )));
        }
        Ok(n as usize)
    }

    fn node(&mut self, n: usize) -> Result<(), JavaError> {
        self.nodes += n;
        if self.nodes > MAX_NODES {
            return Err(self.error(format!(
                "the stream decodes to more than {MAX_NODES} values"
            )));
        }
        Ok(())
    }

    /// Modified UTF-8 of `len` bytes.
    fn utf(&mut self, len: usize) -> Result<String, JavaError> {
        let start = self.at;
        let s = self.take(len)?;
        if let Ok(t) = std::str::from_utf8(s)
            && !t.contains('\0')
        {
            return Ok(t.to_string());
        }
        let mut units = Vec::with_capacity(len);
        let mut i = 0;
        let bad = |i: usize| JavaError {
            offset: start + i,
            reason: "not modified UTF-8".into(),
        };
        while i < s.len() {
            let c = s[i];
            if c & 0x80 == 0 {
                units.push(u16::from(c));
                i += 1;
            } else if c & 0xE0 == 0xC0 {
                let d = *s.get(i + 1).ok_or_else(|| bad(i))?;
                units.push((u16::from(c & 0x1F) << 6) | u16::from(d & 0x3F));
                i += 2;
            } else if c & 0xF0 == 0xE0 {
                let (d, e) = (
                    *s.get(i + 1).ok_or_else(|| bad(i))?,
                    *s.get(i + 2).ok_or_else(|| bad(i))?,
                );
                units.push(
                    (u16::from(c & 0x0F) << 12) | (u16::from(d & 0x3F) << 6) | u16::from(e & 0x3F),
                );
                i += 3;
            } else {
                return Err(bad(i));
            }
        }
        Ok(String::from_utf16_lossy(&units))
    }

    fn short_utf(&mut self) -> Result<String, JavaError> {
        let n = self.u16()? as usize;
        self.utf(n)
    }

    fn new_handle(&mut self, h: Handle) -> usize {
        self.handles.push(h);
        self.handles.len() - 1
    }

    fn handle(&self, raw: u32) -> Result<&Handle, JavaError> {
        raw.checked_sub(BASE_HANDLE)
            .and_then(|i| self.handles.get(i as usize))
            .ok_or_else(|| self.error(format!("a reference to handle {raw:#x}, never assigned")))
    }

    /// One content (object, block data, or the end of an object's data).
    fn content(&mut self, depth: usize) -> Result<Item, JavaError> {
        if depth > MAX_DEPTH {
            return Err(self.error(format!("nested deeper than {MAX_DEPTH}")));
        }
        let tc = self.u8()?;
        let v = match tc {
            TC_NULL => Value::Null,
            TC_REFERENCE => {
                let raw = self.u32()?;
                match self.handle(raw)?.clone() {
                    Handle::Value(v) => {
                        let n = count_nodes(&v);
                        self.node(n)?;
                        v
                    }
                    Handle::Pending(class) => json!({"@cycle": class}),
                    Handle::Class(c) => json!({"@class_desc": c.name}),
                }
            }
            TC_CLASSDESC | TC_PROXYCLASSDESC => {
                self.at -= 1;
                let c = self.class_desc(depth)?;
                json!({"@class_desc": c.map(|c| c.name.clone())})
            }
            TC_OBJECT => self.object(depth)?,
            TC_STRING => {
                let s = self.short_utf()?;
                self.string(s)
            }
            TC_LONGSTRING => {
                let n = self.u64()?;
                let n = self.count(n, 1)?;
                let s = self.utf(n)?;
                self.string(s)
            }
            TC_ARRAY => self.array(depth)?,
            TC_CLASS => {
                let c = self.class_desc(depth + 1)?;
                let v = json!({"@class_object": c.map(|c| c.name.clone())});
                self.new_handle(Handle::Value(v.clone()));
                v
            }
            TC_ENUM => {
                let c = self.class_desc(depth + 1)?;
                let h = self.new_handle(Handle::Pending("enum".into()));
                let name = match self.content(depth + 1)? {
                    Item::Value(Value::String(s)) => s,
                    _ => return Err(self.error("an enum constant without a name")),
                };
                let v = json!({"@enum": c.map(|c| c.name.clone()), "@name": name});
                self.handles[h] = Handle::Value(v.clone());
                v
            }
            TC_BLOCKDATA => {
                let n = self.u8()? as usize;
                json!({"@block": hex::encode(self.take(n)?)})
            }
            TC_BLOCKDATALONG => {
                let n = self.u32()?;
                let n = self.count(u64::from(n), 1)?;
                json!({"@block": hex::encode(self.take(n)?)})
            }
            TC_ENDBLOCKDATA => return Ok(Item::End),
            TC_RESET => {
                // a reset between contents: the handles start again
                self.handles.clear();
                return self.content(depth);
            }
            TC_EXCEPTION => {
                self.handles.clear();
                let e = match self.content(depth + 1)? {
                    Item::Value(v) => v,
                    Item::End => return Err(self.error("an exception without its object")),
                };
                self.handles.clear();
                json!({"@exception": e})
            }
            other => {
                self.at -= 1;
                return Err(self.error(format!("unknown type code {other:#04x}")));
            }
        };
        self.node(1)?;
        Ok(Item::Value(v))
    }

    fn string(&mut self, s: String) -> Value {
        let v = Value::String(s);
        self.new_handle(Handle::Value(v.clone()));
        v
    }

    /// A class description (new, proxy, null or a reference to one).
    fn class_desc(&mut self, depth: usize) -> Result<Option<std::rc::Rc<ClassDesc>>, JavaError> {
        if depth > MAX_DEPTH {
            return Err(self.error(format!("nested deeper than {MAX_DEPTH}")));
        }
        match self.u8()? {
            TC_NULL => Ok(None),
            TC_REFERENCE => {
                let raw = self.u32()?;
                match self.handle(raw)? {
                    Handle::Class(c) => Ok(Some(c.clone())),
                    _ => Err(self.error(format!("handle {raw:#x} is not a class description"))),
                }
            }
            TC_CLASSDESC => {
                let name = self.short_utf()?;
                self.u64()?; // serialVersionUID
                let h = self.new_handle(Handle::Pending(name.clone()));
                let flags = self.u8()?;
                let n = self.u16()?;
                let n = self.count(u64::from(n), 3)?;
                let mut fields = Vec::with_capacity(n);
                for _ in 0..n {
                    let code = self.u8()?;
                    let fname = self.short_utf()?;
                    if code == b'L' || code == b'[' {
                        // the field's type name: a string object
                        match self.content(depth + 1)? {
                            Item::Value(Value::String(_)) => {}
                            _ => return Err(self.error("a field type that is not a string")),
                        }
                    } else if !b"BCDFIJSZ".contains(&code) {
                        return Err(self.error(format!(
                            "field {fname} of unknown type code {:?}",
                            code as char
                        )));
                    }
                    fields.push((code, fname));
                }
                self.annotations(depth + 1)?;
                let parent = self.class_desc(depth + 1)?;
                let c = std::rc::Rc::new(ClassDesc {
                    name,
                    flags,
                    fields,
                    parent,
                });
                self.handles[h] = Handle::Class(c.clone());
                Ok(Some(c))
            }
            TC_PROXYCLASSDESC => {
                let h = self.new_handle(Handle::Pending("proxy".into()));
                let n = self.u32()?;
                let n = self.count(u64::from(n), 2)?;
                let mut names = Vec::with_capacity(n);
                for _ in 0..n {
                    names.push(self.short_utf()?);
                }
                self.annotations(depth + 1)?;
                let parent = self.class_desc(depth + 1)?;
                let c = std::rc::Rc::new(ClassDesc {
                    name: format!("proxy({})", names.join(", ")),
                    flags: SC_SERIALIZABLE,
                    fields: Vec::new(),
                    parent,
                });
                self.handles[h] = Handle::Class(c.clone());
                Ok(Some(c))
            }
            other => {
                self.at -= 1;
                Err(self.error(format!(
                    "a class description expected, type code {other:#04x} found"
                )))
            }
        }
    }

    /// Contents up to the end of block data.
    fn annotations(&mut self, depth: usize) -> Result<Vec<Value>, JavaError> {
        let mut out = Vec::new();
        loop {
            match self.content(depth)? {
                Item::End => return Ok(out),
                Item::Value(v) => out.push(v),
            }
        }
    }

    fn object(&mut self, depth: usize) -> Result<Value, JavaError> {
        let Some(class) = self.class_desc(depth + 1)? else {
            return Err(self.error("an object without a class"));
        };
        let h = self.new_handle(Handle::Pending(class.name.clone()));
        // the hierarchy, top superclass first
        let mut chain = Vec::new();
        let mut c = Some(class.clone());
        while let Some(k) = c {
            if chain.len() > MAX_DEPTH {
                return Err(self.error(format!("a class hierarchy deeper than {MAX_DEPTH}")));
            }
            c = k.parent.clone();
            chain.push(k);
        }
        chain.reverse();
        let mut obj = Map::new();
        obj.insert("@class".into(), Value::String(class.name.clone()));
        let mut data = Vec::new();
        for k in &chain {
            if k.flags & SC_EXTERNALIZABLE != 0 {
                if k.flags & SC_BLOCK_DATA == 0 {
                    return Err(self.error(format!(
                        "{}: externalizable data of protocol 1 cannot be read without the class",
                        k.name
                    )));
                }
                data.extend(self.annotations(depth + 1)?);
                continue;
            }
            if k.flags & SC_SERIALIZABLE == 0 {
                continue;
            }
            for (code, name) in &k.fields {
                let v = self.field(*code, depth)?;
                obj.insert(name.clone(), v);
            }
            if k.flags & SC_WRITE_METHOD != 0 {
                data.extend(self.annotations(depth + 1)?);
            }
        }
        let v = shape(&class.name, obj, data);
        self.handles[h] = Handle::Value(v.clone());
        Ok(v)
    }

    fn field(&mut self, code: u8, depth: usize) -> Result<Value, JavaError> {
        Ok(match code {
            b'L' | b'[' => match self.content(depth + 1)? {
                Item::Value(v) => v,
                Item::End => return Err(self.error("an end of block data for a field")),
            },
            c => self.primitive(c)?,
        })
    }

    fn primitive(&mut self, code: u8) -> Result<Value, JavaError> {
        Ok(match code {
            b'B' => json!(self.u8()? as i8),
            b'C' => {
                let u = self.u16()?;
                Value::String(String::from_utf16_lossy(&[u]))
            }
            b'D' => float(f64::from_bits(self.u64()?)),
            b'F' => float(f64::from(f32::from_bits(self.u32()?))),
            b'I' => json!(self.u32()? as i32),
            b'J' => json!(self.u64()? as i64),
            b'S' => json!(self.u16()? as i16),
            b'Z' => json!(self.u8()? != 0),
            other => {
                return Err(self.error(format!("unknown primitive type {:?}", other as char)));
            }
        })
    }

    fn array(&mut self, depth: usize) -> Result<Value, JavaError> {
        let Some(class) = self.class_desc(depth + 1)? else {
            return Err(self.error("an array without a class"));
        };
        let h = self.new_handle(Handle::Pending(class.name.clone()));
        let n = self.u32()?;
        if n > i32::MAX as u32 {
            return Err(self.error(format!("a negative array length {}", n as i32)));
        }
        let component = class.name.as_bytes().get(1).copied().unwrap_or(b'?');
        let v = if component == b'B' {
            // a byte array: hex, as block data reads
            let n = self.count(u64::from(n), 1)?;
            json!({"@bytes": hex::encode(self.take(n)?)})
        } else {
            let min = match component {
                b'L' | b'[' | b'B' | b'Z' => 1,
                b'C' | b'S' => 2,
                b'I' | b'F' => 4,
                b'J' | b'D' => 8,
                other => {
                    return Err(self.error(format!(
                        "an array of unknown component type {:?}",
                        other as char
                    )));
                }
            };
            let n = self.count(u64::from(n), min)?;
            let mut items = Vec::with_capacity(n);
            for _ in 0..n {
                items.push(self.field(component, depth)?);
            }
            self.node(n)?;
            Value::Array(items)
        };
        self.handles[h] = Handle::Value(v.clone());
        Ok(v)
    }
}

fn float(f: f64) -> Value {
    serde_json::Number::from_f64(f)
        .map(Value::Number)
        .unwrap_or_else(|| Value::String(f.to_string()))
}

/// The JSON of an object: a boxed primitive as the primitive, `java.util` lists and sets as
/// their elements, maps as their entries, any other object with its own data in `@data`.
fn shape(class: &str, mut obj: Map<String, Value>, data: Vec<Value>) -> Value {
    const BOXED: [&str; 8] = [
        "java.lang.Integer",
        "java.lang.Long",
        "java.lang.Short",
        "java.lang.Byte",
        "java.lang.Double",
        "java.lang.Float",
        "java.lang.Boolean",
        "java.lang.Character",
    ];
    const LISTS: [&str; 9] = [
        "java.util.ArrayList",
        "java.util.LinkedList",
        "java.util.Vector",
        "java.util.Stack",
        "java.util.ArrayDeque",
        "java.util.HashSet",
        "java.util.LinkedHashSet",
        "java.util.TreeSet",
        "java.util.concurrent.CopyOnWriteArrayList",
    ];
    const MAPS: [&str; 6] = [
        "java.util.HashMap",
        "java.util.LinkedHashMap",
        "java.util.Hashtable",
        "java.util.TreeMap",
        "java.util.concurrent.ConcurrentHashMap",
        "java.util.Properties",
    ];
    let objects = |data: Vec<Value>| -> Vec<Value> {
        data.into_iter()
            .filter(|v| !v.as_object().is_some_and(|o| o.contains_key("@block")))
            .collect()
    };
    if BOXED.contains(&class) && obj.len() == 2 && obj.contains_key("value") && data.is_empty() {
        return obj.remove("value").unwrap_or(Value::Null);
    }
    if LISTS.contains(&class) {
        obj.insert("@elements".into(), Value::Array(objects(data)));
    } else if MAPS.contains(&class) && !class.ends_with("ConcurrentHashMap") {
        let items = objects(data);
        let entries: Vec<Value> = items
            .chunks(2)
            .map(|kv| json!({"key": kv[0].clone(), "value": kv.get(1).cloned().unwrap_or(Value::Null)}))
            .collect();
        obj.insert("@entries".into(), Value::Array(entries));
    } else if !data.is_empty() {
        obj.insert("@data".into(), Value::Array(data));
    }
    Value::Object(obj)
}

fn count_nodes(v: &Value) -> usize {
    match v {
        Value::Array(a) => 1 + a.iter().map(count_nodes).sum::<usize>(),
        Value::Object(o) => 1 + o.values().map(count_nodes).sum::<usize>(),
        _ => 1,
    }
}

/// `read_java`: a file of the evidence that is a Java serialization stream.
pub struct ReadJava;

impl crate::Tool for ReadJava {
    fn name(&self) -> &str {
        "read_java"
    }
    fn description(&self) -> &str {
        "Decode a file of the evidence (up to 16 MiB) that is a Java serialization stream (ObjectOutputStream, magic AC ED 00 05: WeChat for Android's MicroMsg/CompatibleInfo.cfg, apps' saved Serializable objects), without the classes, printed as indented JSON after a `# java <path>: <size> bytes, <n> contents` line: the stream's contents as an array; an object is {\"@class\": name, field: value, …} with the data its class wrote itself in \"@data\"; java.util lists and sets read as \"@elements\", maps as \"@entries\" [{\"key\", \"value\"}] (WeChat's CompatibleInfo.cfg: the IMEI is the value of key 258); boxed numbers as numbers; strings as strings; block data and byte arrays as hex. A file that is not such a stream, or a damaged one, is an error naming the byte offset."
    }
    fn args_schema(&self) -> Value {
        json!({"type": "object", "properties": {
            "partition": {"type": "string", "description": "The file system to use when the source holds several (1-based index or partition name)."},
            "path": {"type": "string", "description": "Absolute path of the file."}
        }, "required": ["path"], "additionalProperties": false})
    }
    fn applicability(&self) -> crate::Applicability {
        crate::Applicability::TREE
    }
    fn run(
        &self,
        ctx: &crate::SourceCtx,
        a: &Value,
    ) -> Result<crate::ToolOutput, crate::ToolError> {
        let (path, data) = crate::fs_tools::whole_file(ctx, a, FILE_MAX, "read_java")?;
        let size = data.len();
        let contents = decode(&data).map_err(|e| {
            crate::ToolError::Other(format!("{path}: not a Java serialization stream {e}"))
        })?;
        let body = serde_json::to_string_pretty(&contents)
            .map_err(|e| crate::ToolError::Other(format!("{path}: {e}")))?;
        Ok(crate::ToolOutput {
            text: format!(
                "# java {path}: {size} bytes, {} contents\n{body}\n",
                contents.len()
            ),
            structured: Some(json!({"path": path, "size": size, "contents": contents.len()})),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A stream of `body` after the magic.
    fn stream(body: &[u8]) -> Vec<u8> {
        let mut v = MAGIC.to_vec();
        v.extend_from_slice(body);
        v
    }

    #[test]
    fn a_self_referencing_array_is_a_cycle_not_a_stack_overflow() {
        // new array of class "[Ljava.lang.Object;" holding one reference to itself
        let mut b = vec![TC_ARRAY, TC_CLASSDESC, 0, 19];
        b.extend_from_slice(b"[Ljava.lang.Object;");
        b.extend_from_slice(&[0; 8]); // uid
        b.extend_from_slice(&[SC_SERIALIZABLE, 0, 0, TC_ENDBLOCKDATA, TC_NULL]);
        b.extend_from_slice(&1u32.to_be_bytes());
        // handle 0: the class description, handle 1: the array
        b.push(TC_REFERENCE);
        b.extend_from_slice(&(BASE_HANDLE + 1).to_be_bytes());
        let v = decode(&stream(&b)).unwrap();
        assert_eq!(v, vec![json!([{"@cycle": "[Ljava.lang.Object;"}])]);
    }

    #[test]
    fn hostile_lengths_and_depths_are_errors_with_offsets() {
        // an array claiming 2^31-1 elements in a few bytes
        let mut b = vec![TC_ARRAY, TC_CLASSDESC, 0, 2];
        b.extend_from_slice(b"[I");
        b.extend_from_slice(&[0; 8]);
        b.extend_from_slice(&[SC_SERIALIZABLE, 0, 0, TC_ENDBLOCKDATA, TC_NULL]);
        b.extend_from_slice(&0x7fff_ffffu32.to_be_bytes());
        let e = decode(&stream(&b)).unwrap_err();
        assert!(e.reason.contains("more than the 0 bytes left"), "{e}");
        // arrays nested past the bound
        let mut b = vec![TC_ARRAY, TC_CLASSDESC, 0, 19];
        b.extend_from_slice(b"[Ljava.lang.Object;");
        b.extend_from_slice(&[0; 8]);
        b.extend_from_slice(&[SC_SERIALIZABLE, 0, 0, TC_ENDBLOCKDATA, TC_NULL]);
        b.extend_from_slice(&1u32.to_be_bytes());
        for _ in 0..100 {
            b.extend_from_slice(&[TC_ARRAY, TC_REFERENCE]);
            b.extend_from_slice(&BASE_HANDLE.to_be_bytes());
            b.extend_from_slice(&1u32.to_be_bytes());
        }
        let e = decode(&stream(&b)).unwrap_err();
        assert!(e.reason.contains("nested deeper than 64"), "{e}");
        // a reference never assigned
        let e = decode(&stream(&[TC_REFERENCE, 0, 0x7e, 0, 9])).unwrap_err();
        assert!(e.reason.contains("never assigned") && e.offset == 9, "{e}");
        // no magic, a truncated string, an unknown code
        assert_eq!(decode(b"PK\x03\x04").unwrap_err().offset, 0);
        let e = decode(&stream(&[TC_STRING, 0, 9, b'a'])).unwrap_err();
        assert!(e.reason.contains("truncated"), "{e}");
        let e = decode(&stream(&[0x42])).unwrap_err();
        assert_eq!((e.offset, e.reason.as_str()), (4, "unknown type code 0x42"));
    }

    #[test]
    fn references_expanding_past_the_node_budget_are_an_error() {
        // a string, then an array of arrays each referencing the previous one
        let mut b = vec![TC_ARRAY, TC_CLASSDESC, 0, 19];
        b.extend_from_slice(b"[Ljava.lang.Object;");
        b.extend_from_slice(&[0; 8]);
        b.extend_from_slice(&[SC_SERIALIZABLE, 0, 0, TC_ENDBLOCKDATA, TC_NULL]);
        b.extend_from_slice(&64u32.to_be_bytes());
        for _ in 0..64 {
            b.extend_from_slice(&[TC_STRING, 0, 1, b'x']);
        }
        // handle 1 is that array; each next array holds it twice (then the one before)
        let mut prev = BASE_HANDLE + 1;
        for next in (BASE_HANDLE + 2 + 64..).take(40) {
            b.push(TC_ARRAY);
            b.push(TC_REFERENCE);
            b.extend_from_slice(&BASE_HANDLE.to_be_bytes());
            b.extend_from_slice(&2u32.to_be_bytes());
            for _ in 0..2 {
                b.push(TC_REFERENCE);
                b.extend_from_slice(&prev.to_be_bytes());
            }
            prev = next;
        }
        let e = decode(&stream(&b)).unwrap_err();
        assert!(e.reason.contains("more than 200000 values"), "{e}");
    }
}
