//! NSArchiver typedstreams (`streamtyped`), for `sqlite_query`'s `typedstream` option: Apple
//! Messages keeps a message's text as an archived `NSAttributedString` in `message.attributedBody`,
//! and from iOS 16 and macOS 13 on the plain `text` column is often NULL, so the words of a
//! message are only there.
//!
//! Hand-written: the one Rust crate that reads typedstreams (`crabstep`) is GPL-3.0-or-later,
//! which this Apache-2.0 project cannot take. The format (Apple's `NSArchiver`, NeXTSTEP's
//! `NXTypedStream`, streamer version 4) is:
//!
//! - a header: the streamer version byte (4), the signature as a length-prefixed string
//!   (`streamtyped`: little-endian; `typedstream`: big-endian) and the system version;
//! - then groups of typed values, each opened by its type encoding (`@`, `iI`, `[16c]`, …)
//!   as a *shared string*, followed by one value per encoded type;
//! - integers as one signed byte, or a tag (`0x81`: two bytes follow, `0x82`: four); `0x83`
//!   opens a float; `0x84` marks something new, `0x85` is nil, `0x86` ends an object; any other
//!   head of a string, class or object is a reference number counted from `0x92`;
//! - shared strings (type encodings and class names) have their own table; objects, classes
//!   and C strings share another, numbered in the order they appear (an object before its
//!   class chain);
//! - an object is its class chain (each class its name and version, down to a nil or a known
//!   superclass), then groups of typed values up to the end marker.
//!
//! Known Foundation classes are rendered as JSON an examiner reads (`NSString` as a string,
//! `NSDictionary` as an object, `NSAttributedString` as its text and runs of attributes,
//! `NSNumber`, `NSURL`, `NSData`, `NSDate`, `NSArray`); any other object as its class and
//! fields. A stream that does not read is an [`Error`] naming the offset; nothing is allocated
//! beyond what the input's size allows, nesting is bounded by [`MAX_DEPTH`] and the rendering
//! of shared objects by [`MAX_NODES`] and [`MAX_RENDER_DEPTH`].

use std::collections::HashSet;

use serde_json::{Map, Value, json};

/// Deepest nesting of objects, arrays and structs read (deeper is an error).
pub const MAX_DEPTH: usize = 64;

/// Most JSON nodes a rendering may produce (an object referenced many times is written out each
/// time; a crafted stream sharing objects cannot make the output grow without bound).
pub const MAX_NODES: usize = 200_000;

/// Deepest chain of objects a rendering follows: each object is read at a bounded depth, but
/// references can chain objects read side by side (each holding the one before), which a
/// rendering would otherwise follow as deep as the stream is long.
pub const MAX_RENDER_DEPTH: usize = 256;

/// The signature of a little-endian stream, with its length byte: what a cell starts with after
/// the version byte.
const SIGNATURE_LE: &[u8] = b"\x0bstreamtyped";
const SIGNATURE_BE: &[u8] = b"\x0btypedstream";

const TAG_INT2: i8 = -127;
const TAG_INT4: i8 = -126;
const TAG_FLOAT: i8 = -125;
const TAG_NEW: i8 = -124;
const TAG_NIL: i8 = -123;
const TAG_END: i8 = -122;
/// Heads from -128 to -111 are tags; reference numbers start right after them.
const LAST_TAG: i8 = -111;
const FIRST_REFERENCE: i64 = LAST_TAG as i64 + 1;

/// A typedstream that does not read: where and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    /// Byte offset in the stream.
    pub offset: usize,
    /// What was wrong there.
    pub reason: String,
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "typedstream at offset {}: {}", self.offset, self.reason)
    }
}

impl std::error::Error for Error {}

/// Whether `b` starts like a typedstream (version 4 and a signature).
pub fn is_typedstream(b: &[u8]) -> bool {
    b.first() == Some(&4) && (b[1..].starts_with(SIGNATURE_LE) || b[1..].starts_with(SIGNATURE_BE))
}

/// A cell's typedstream as one line of JSON (keys sorted), when it reads completely.
pub fn cell(b: &[u8]) -> Option<String> {
    if !is_typedstream(b) {
        return None;
    }
    let v = decode(b).ok()?;
    serde_json::to_string(&crate::canonical_value(&v)).ok()
}

/// The text of a cell's archived string (an `NSAttributedString`'s text, or an `NSString`),
/// when the cell reads completely as one.
pub fn text_cell(b: &[u8]) -> Option<String> {
    if !is_typedstream(b) {
        return None;
    }
    match decode(b).ok()? {
        Value::String(s) => Some(s),
        Value::Object(mut m) => match m.remove("text") {
            Some(Value::String(s)) if m.contains_key("runs") => Some(s),
            _ => None,
        },
        _ => None,
    }
}

/// Decodes a whole typedstream: its one top-level value, or an array when it holds several.
pub fn decode(b: &[u8]) -> Result<Value, Error> {
    let mut r = Reader::new(b)?;
    let mut roots = Vec::new();
    while r.pos < b.len() {
        let head = r.head()?;
        roots.push(r.group(head, 0)?);
    }
    let mut out = Render {
        r: &r,
        nodes: 0,
        open: HashSet::new(),
    };
    let mut values = Vec::new();
    for group in &roots {
        for item in group {
            values.push(out.item(item)?);
        }
    }
    match values.len() {
        0 => Err(r.err_at(b.len(), "no values after the header")),
        1 => Ok(values.pop().unwrap_or(Value::Null)),
        _ => Ok(Value::Array(values)),
    }
}

/// One value read from the stream.
#[derive(Debug, Clone)]
enum Item {
    Nil,
    Int(i64),
    UInt(u64),
    Float(f64),
    /// An unshared string (`+`), a byte array (`[Nc]`), a selector or atom.
    Bytes(Vec<u8>),
    /// A C string (`*`).
    CStr(Vec<u8>),
    /// An object: index into [`Reader::objects`].
    Object(usize),
    /// A class: index into [`Reader::classes`].
    Class(usize),
    /// An array or a struct.
    List(Vec<Item>),
}

struct Class {
    name: String,
    version: i64,
    superclass: Option<usize>,
}

struct Object {
    class: Option<usize>,
    /// Its typed groups, in order.
    groups: Vec<Vec<Item>>,
}

/// An entry of the table that objects, classes and C strings share.
enum Shared {
    Object(usize),
    Class(usize),
    CStr(Vec<u8>),
}

struct Reader<'a> {
    b: &'a [u8],
    pos: usize,
    big_endian: bool,
    strings: Vec<Vec<u8>>,
    shared: Vec<Shared>,
    objects: Vec<Object>,
    classes: Vec<Class>,
}

impl<'a> Reader<'a> {
    fn new(b: &'a [u8]) -> Result<Self, Error> {
        let mut r = Reader {
            b,
            pos: 0,
            big_endian: false,
            strings: Vec::new(),
            shared: Vec::new(),
            objects: Vec::new(),
            classes: Vec::new(),
        };
        let version = r.take(1)?[0];
        if version != 4 {
            return Err(r.err_at(0, format!("streamer version {version}, only 4 is read")));
        }
        let sig = r.take(12)?;
        if sig == SIGNATURE_BE {
            r.big_endian = true;
        } else if sig != SIGNATURE_LE {
            return Err(r.err_at(1, "no `streamtyped` or `typedstream` signature"));
        }
        let head = r.head()?;
        r.int(head, false)?; // the system version
        Ok(r)
    }

    fn err_at(&self, offset: usize, reason: impl Into<String>) -> Error {
        Error {
            offset,
            reason: reason.into(),
        }
    }

    fn err(&self, reason: impl Into<String>) -> Error {
        self.err_at(self.pos, reason)
    }

    fn take(&mut self, n: usize) -> Result<&'a [u8], Error> {
        let end = self
            .pos
            .checked_add(n)
            .filter(|&e| e <= self.b.len())
            .ok_or_else(|| {
                self.err(format!(
                    "{n} bytes wanted, {} left (truncated)",
                    self.b.len() - self.pos
                ))
            })?;
        let s = &self.b[self.pos..end];
        self.pos = end;
        Ok(s)
    }

    fn head(&mut self) -> Result<i8, Error> {
        Ok(self.take(1)?[0] as i8)
    }

    fn fixed(&mut self, n: usize) -> Result<u64, Error> {
        let s = self.take(n)?;
        let mut v = 0u64;
        if self.big_endian {
            for &x in s {
                v = v << 8 | u64::from(x);
            }
        } else {
            for &x in s.iter().rev() {
                v = v << 8 | u64::from(x);
            }
        }
        Ok(v)
    }

    /// An integer whose head byte has been read.
    fn int(&mut self, head: i8, signed: bool) -> Result<i64, Error> {
        Ok(match head {
            TAG_INT2 => {
                let v = self.fixed(2)? as u16;
                if signed {
                    i64::from(v as i16)
                } else {
                    i64::from(v)
                }
            }
            TAG_INT4 => {
                let v = self.fixed(4)? as u32;
                if signed {
                    i64::from(v as i32)
                } else {
                    i64::from(v)
                }
            }
            h if h <= LAST_TAG => {
                return Err(self.err_at(
                    self.pos - 1,
                    format!("tag {:#04x} where an integer was expected", h as u8),
                ));
            }
            h if signed => i64::from(h),
            h => i64::from(h as u8),
        })
    }

    /// A reference number whose head byte has been read, as a table index.
    fn reference(&mut self, head: i8, table_len: usize, what: &str) -> Result<usize, Error> {
        let at = self.pos - 1;
        let n = self.int(head, true)? - FIRST_REFERENCE;
        usize::try_from(n)
            .ok()
            .filter(|&i| i < table_len)
            .ok_or_else(|| {
                self.err_at(
                    at,
                    format!("reference {n} to a {what} not yet read ({table_len} so far)"),
                )
            })
    }

    /// A length-prefixed string whose head byte has been read (`None` when nil).
    fn unshared(&mut self, head: i8) -> Result<Option<Vec<u8>>, Error> {
        if head == TAG_NIL {
            return Ok(None);
        }
        let len = self.int(head, false)?;
        Ok(Some(self.take(len as usize)?.to_vec()))
    }

    /// A shared string (type encodings, class names) whose head byte has been read.
    fn shared_string(&mut self, head: i8) -> Result<Option<Vec<u8>>, Error> {
        match head {
            TAG_NIL => Ok(None),
            TAG_NEW => {
                let h = self.head()?;
                let s = self
                    .unshared(h)?
                    .ok_or_else(|| self.err("a new shared string is nil"))?;
                self.strings.push(s.clone());
                Ok(Some(s))
            }
            h => {
                let i = self.reference(h, self.strings.len(), "shared string")?;
                Ok(Some(self.strings[i].clone()))
            }
        }
    }

    /// A class and its superclass chain whose head byte has been read.
    fn class(&mut self, head: i8) -> Result<Option<usize>, Error> {
        let mut chain = Vec::new();
        let mut head = head;
        while head == TAG_NEW {
            let h = self.head()?;
            let name = self
                .shared_string(h)?
                .ok_or_else(|| self.err("a class without a name"))?;
            let h = self.head()?;
            let version = self.int(h, true)?;
            let index = self.classes.len();
            self.classes.push(Class {
                name: String::from_utf8_lossy(&name).into_owned(),
                version,
                superclass: None,
            });
            self.shared.push(Shared::Class(index));
            chain.push(index);
            head = self.head()?;
        }
        let last = match head {
            TAG_NIL => None,
            h => {
                let i = self.reference(h, self.shared.len(), "class")?;
                match self.shared[i] {
                    Shared::Class(c) => Some(c),
                    _ => {
                        return Err(
                            self.err_at(self.pos - 1, format!("reference {i} is not a class"))
                        );
                    }
                }
            }
        };
        // Each class was written before its superclass.
        let mut superclass = last;
        for &c in chain.iter().rev() {
            self.classes[c].superclass = superclass;
            superclass = Some(c);
        }
        Ok(superclass)
    }

    /// An object whose head byte has been read.
    fn object(&mut self, head: i8, depth: usize) -> Result<Item, Error> {
        match head {
            TAG_NIL => Ok(Item::Nil),
            TAG_NEW => {
                if depth >= MAX_DEPTH {
                    return Err(self.err(format!("objects nested deeper than {MAX_DEPTH}")));
                }
                let index = self.objects.len();
                self.objects.push(Object {
                    class: None,
                    groups: Vec::new(),
                });
                self.shared.push(Shared::Object(index));
                let h = self.head()?;
                let class = self.class(h)?;
                if class.is_none() {
                    return Err(self.err("an object without a class"));
                }
                self.objects[index].class = class;
                loop {
                    let h = self.head()?;
                    if h == TAG_END {
                        break;
                    }
                    let group = self.group(h, depth + 1)?;
                    self.objects[index].groups.push(group);
                }
                Ok(Item::Object(index))
            }
            h => {
                let i = self.reference(h, self.shared.len(), "object")?;
                match self.shared[i] {
                    Shared::Object(o) => Ok(Item::Object(o)),
                    _ => Err(self.err_at(self.pos - 1, format!("reference {i} is not an object"))),
                }
            }
        }
    }

    /// A group of typed values whose head byte (of its type encoding) has been read.
    fn group(&mut self, head: i8, depth: usize) -> Result<Vec<Item>, Error> {
        let at = self.pos - 1;
        let enc = self
            .shared_string(head)?
            .ok_or_else(|| self.err_at(at, "a nil type encoding"))?;
        let types = split(&enc).map_err(|why| self.err_at(at, why))?;
        let mut items = Vec::with_capacity(types.len());
        for t in types {
            items.push(self.value(t, depth)?);
        }
        Ok(items)
    }

    fn value(&mut self, t: &[u8], depth: usize) -> Result<Item, Error> {
        if depth >= MAX_DEPTH {
            return Err(self.err(format!("values nested deeper than {MAX_DEPTH}")));
        }
        let Some(&first) = t.first() else {
            return Err(self.err("an empty type"));
        };
        Ok(match first {
            b'B' | b'C' => Item::UInt(u64::from(self.take(1)?[0])),
            b'c' => Item::Int(i64::from(self.take(1)?[0] as i8)),
            b'S' | b'I' | b'L' | b'Q' => {
                let h = self.head()?;
                Item::UInt(self.int(h, false)? as u64)
            }
            b's' | b'i' | b'l' | b'q' => {
                let h = self.head()?;
                Item::Int(self.int(h, true)?)
            }
            b'f' | b'd' => {
                let h = self.head()?;
                if h == TAG_FLOAT {
                    if first == b'f' {
                        Item::Float(f64::from(f32::from_bits(self.fixed(4)? as u32)))
                    } else {
                        Item::Float(f64::from_bits(self.fixed(8)?))
                    }
                } else {
                    Item::Float(self.int(h, true)? as f64)
                }
            }
            b'*' => {
                let h = self.head()?;
                match h {
                    TAG_NIL => Item::Nil,
                    TAG_NEW => {
                        let h = self.head()?;
                        let s = self
                            .shared_string(h)?
                            .ok_or_else(|| self.err("a new C string is nil"))?;
                        self.shared.push(Shared::CStr(s.clone()));
                        Item::CStr(s)
                    }
                    h => {
                        let i = self.reference(h, self.shared.len(), "C string")?;
                        match &self.shared[i] {
                            Shared::CStr(s) => Item::CStr(s.clone()),
                            _ => {
                                return Err(self.err_at(
                                    self.pos - 1,
                                    format!("reference {i} is not a C string"),
                                ));
                            }
                        }
                    }
                }
            }
            b'%' | b':' => {
                let h = self.head()?;
                self.shared_string(h)?.map_or(Item::Nil, Item::Bytes)
            }
            b'+' => {
                let h = self.head()?;
                self.unshared(h)?.map_or(Item::Nil, Item::Bytes)
            }
            b'#' => {
                let h = self.head()?;
                self.class(h)?.map_or(Item::Nil, Item::Class)
            }
            b'@' => {
                let h = self.head()?;
                self.object(h, depth)?
            }
            b'!' => Item::Nil,
            b'[' => {
                let (n, elem) = array_type(t).map_err(|why| self.err(why))?;
                if matches!(elem, b"c" | b"C") {
                    Item::Bytes(self.take(n)?.to_vec())
                } else {
                    // Every element other than `!` takes at least one byte.
                    if elem == b"!" || n > self.b.len() - self.pos {
                        return Err(self.err(format!(
                            "an array of {n} `{}` cannot fit in the {} bytes left",
                            String::from_utf8_lossy(elem),
                            self.b.len() - self.pos
                        )));
                    }
                    let mut out = Vec::with_capacity(n);
                    for _ in 0..n {
                        out.push(self.value(elem, depth + 1)?);
                    }
                    Item::List(out)
                }
            }
            b'{' => {
                let fields = struct_fields(t).map_err(|why| self.err(why))?;
                let mut out = Vec::with_capacity(fields.len());
                for f in fields {
                    out.push(self.value(f, depth + 1)?);
                }
                Item::List(out)
            }
            other => {
                return Err(self.err(format!(
                    "type `{}` is not read",
                    String::from_utf8_lossy(&[other])
                )));
            }
        })
    }
}

/// The length of the first complete type in `t`.
fn type_len(t: &[u8]) -> Result<usize, String> {
    let open = match t.first() {
        None => return Err("an empty type".to_string()),
        Some(b'[') => b']',
        Some(b'{') => b'}',
        Some(b'(') => b')',
        Some(_) => return Ok(1),
    };
    let mut depth = 0usize;
    for (i, &c) in t.iter().enumerate() {
        match c {
            b'[' | b'{' | b'(' => depth += 1,
            b']' | b'}' | b')' => {
                depth -= 1;
                if depth == 0 {
                    if c != open {
                        return Err(format!("unbalanced type `{}`", String::from_utf8_lossy(t)));
                    }
                    return Ok(i + 1);
                }
            }
            _ => {}
        }
    }
    Err(format!(
        "unterminated type `{}`",
        String::from_utf8_lossy(t)
    ))
}

/// A type encoding split into its single types (`iI` → `i`, `I`).
fn split(enc: &[u8]) -> Result<Vec<&[u8]>, String> {
    if enc.is_empty() {
        return Err("an empty type encoding".to_string());
    }
    let mut out = Vec::new();
    let mut rest = enc;
    while !rest.is_empty() {
        let n = type_len(rest)?;
        out.push(&rest[..n]);
        rest = &rest[n..];
    }
    Ok(out)
}

/// `[16c]` → (16, `c`).
fn array_type(t: &[u8]) -> Result<(usize, &[u8]), String> {
    let inner = &t[1..t.len() - 1];
    let digits = inner.iter().take_while(|c| c.is_ascii_digit()).count();
    let n = std::str::from_utf8(&inner[..digits])
        .ok()
        .and_then(|d| d.parse::<usize>().ok())
        .ok_or_else(|| {
            format!(
                "array type `{}` without a length",
                String::from_utf8_lossy(t)
            )
        })?;
    let elem = &inner[digits..];
    if elem.is_empty() || type_len(elem)? != elem.len() {
        return Err(format!(
            "array type `{}` without one element type",
            String::from_utf8_lossy(t)
        ));
    }
    Ok((n, elem))
}

/// `{name=ii}` → `i`, `i`.
fn struct_fields(t: &[u8]) -> Result<Vec<&[u8]>, String> {
    let inner = &t[1..t.len() - 1];
    let fields = match inner.iter().position(|&c| c == b'=') {
        Some(i) => &inner[i + 1..],
        None => inner,
    };
    if fields.is_empty() {
        return Err(format!(
            "struct type `{}` without fields",
            String::from_utf8_lossy(t)
        ));
    }
    split(fields)
}

/// Renders read items as JSON, known Foundation classes by their meaning.
struct Render<'r, 'a> {
    r: &'r Reader<'a>,
    nodes: usize,
    /// Objects being rendered (a reference back to one is written as `{"$ref": n}`).
    open: HashSet<usize>,
}

impl Render<'_, '_> {
    fn count(&mut self) -> Result<(), Error> {
        self.nodes += 1;
        if self.nodes > MAX_NODES {
            return Err(Error {
                offset: self.r.b.len(),
                reason: format!("rendering needs more than {MAX_NODES} values (shared objects)"),
            });
        }
        Ok(())
    }

    fn item(&mut self, item: &Item) -> Result<Value, Error> {
        self.count()?;
        Ok(match item {
            Item::Nil => Value::Null,
            Item::Int(i) => json!(i),
            Item::UInt(u) => json!(u),
            Item::Float(f) => {
                serde_json::Number::from_f64(*f).map_or_else(|| json!(f.to_string()), Value::Number)
            }
            Item::Bytes(b) | Item::CStr(b) => bytes(b),
            Item::Class(c) => json!({"$class": self.class_name(Some(*c))}),
            Item::List(items) => {
                let mut out = Vec::with_capacity(items.len());
                for i in items {
                    out.push(self.item(i)?);
                }
                Value::Array(out)
            }
            Item::Object(o) => self.object(*o)?,
        })
    }

    fn class_name(&self, c: Option<usize>) -> String {
        c.map_or_else(String::new, |c| self.r.classes[c].name.clone())
    }

    fn object(&mut self, o: usize) -> Result<Value, Error> {
        if self.open.contains(&o) {
            return Ok(json!({"$ref": o}));
        }
        if self.open.len() >= MAX_RENDER_DEPTH {
            return Err(Error {
                offset: self.r.b.len(),
                reason: format!("objects refer to each other more than {MAX_RENDER_DEPTH} deep"),
            });
        }
        self.open.insert(o);
        let r = self.r;
        let chain = chain(r, o);
        let known = chain
            .iter()
            .find_map(|c| KNOWN.iter().find(|k| k.0 == *c))
            .map(|k| k.1);
        let name = chain.first().map(|s| s.to_string()).unwrap_or_default();
        let obj = &r.objects[o];
        let flat: Vec<&Item> = obj.groups.iter().flatten().collect();
        let known_value = match known {
            Some(Kind::String) => self.string(&flat),
            Some(Kind::AttributedString) => self.attributed(&name, &obj.groups)?,
            Some(Kind::Dictionary) => self.dictionary(&flat)?,
            Some(Kind::Array) => self.array(&flat)?,
            Some(Kind::Number) => self.number(&flat)?,
            Some(Kind::Url) => self.url(&flat)?,
            Some(Kind::Data) => data(&flat),
            Some(Kind::Date) => date(&flat),
            None => None,
        };
        let v = match known_value {
            Some(v) => v,
            None => {
                let mut groups = Vec::with_capacity(obj.groups.len());
                for g in &obj.groups {
                    let mut vals = Vec::with_capacity(g.len());
                    for i in g {
                        vals.push(self.item(i)?);
                    }
                    groups.push(if vals.len() == 1 {
                        vals.pop().unwrap_or(Value::Null)
                    } else {
                        Value::Array(vals)
                    });
                }
                let c = obj.class.map(|c| &r.classes[c]);
                json!({"$class": name, "$version": c.map_or(0, |c| c.version), "fields": groups})
            }
        };
        self.open.remove(&o);
        Ok(v)
    }

    fn string(&self, flat: &[&Item]) -> Option<Value> {
        match flat {
            [Item::Bytes(b)] => Some(bytes(b)),
            _ => None,
        }
    }

    /// The text, then runs of (attribute set number, length in UTF-16 units), each new number
    /// followed by its dictionary.
    fn attributed(&mut self, name: &str, groups: &[Vec<Item>]) -> Result<Option<Value>, Error> {
        let Some([text @ Item::Object(_)]) = groups.first().map(Vec::as_slice) else {
            return Ok(None);
        };
        let text = self.item(text)?;
        if !text.is_string() {
            return Ok(None);
        }
        let mut sets: Vec<Value> = Vec::new();
        let mut runs = Vec::new();
        let mut from = 0u64;
        let mut rest = groups[1..].iter();
        while let Some(g) = rest.next() {
            let [Item::Int(set), Item::UInt(len)] = g.as_slice() else {
                return Ok(None);
            };
            let Some(set) = usize::try_from(*set)
                .ok()
                .filter(|&s| s >= 1 && s <= sets.len() + 1)
            else {
                return Ok(None);
            };
            if set == sets.len() + 1 {
                let Some([dict]) = rest.next().map(Vec::as_slice) else {
                    return Ok(None);
                };
                let d = self.item(dict)?;
                sets.push(d);
            }
            runs.push(json!({"from": from, "length": len, "attributes": sets[set - 1].clone()}));
            self.nodes += 1;
            from = from.saturating_add(*len);
        }
        Ok(Some(json!({"$class": name, "text": text, "runs": runs})))
    }

    /// A count, then key and value objects.
    fn dictionary(&mut self, flat: &[&Item]) -> Result<Option<Value>, Error> {
        let Some((Item::Int(n), rest)) = flat.split_first() else {
            return Ok(None);
        };
        if usize::try_from(*n).ok() != Some(rest.len() / 2) || rest.len() % 2 != 0 {
            return Ok(None);
        }
        let mut map = Map::new();
        let mut pairs = Vec::new();
        for kv in rest.chunks(2) {
            let k = self.item(kv[0])?;
            let v = self.item(kv[1])?;
            match k {
                Value::String(s) if !map.contains_key(&s) => {
                    map.insert(s, v);
                }
                k => pairs.push(json!([k, v])),
            }
        }
        Ok(Some(if pairs.is_empty() {
            Value::Object(map)
        } else {
            for (k, v) in map {
                pairs.push(json!([k, v]));
            }
            json!({"$class": "NSDictionary", "entries": pairs})
        }))
    }

    /// A count, then the elements.
    fn array(&mut self, flat: &[&Item]) -> Result<Option<Value>, Error> {
        let Some((Item::Int(n), rest)) = flat.split_first() else {
            return Ok(None);
        };
        if usize::try_from(*n).ok() != Some(rest.len()) {
            return Ok(None);
        }
        let mut out = Vec::with_capacity(rest.len());
        for i in rest {
            out.push(self.item(i)?);
        }
        Ok(Some(Value::Array(out)))
    }

    /// The value's type as a C string, then the value.
    fn number(&mut self, flat: &[&Item]) -> Result<Option<Value>, Error> {
        match flat {
            [
                Item::CStr(_),
                v @ (Item::Int(_) | Item::UInt(_) | Item::Float(_)),
            ] => Ok(Some(self.item(v)?)),
            _ => Ok(None),
        }
    }

    /// Whether it has a base URL, the base when it has, then the (relative) string.
    fn url(&mut self, flat: &[&Item]) -> Result<Option<Value>, Error> {
        match flat {
            [Item::UInt(0) | Item::Int(0), s] => {
                let v = self.item(s)?;
                Ok(v.is_string().then_some(v))
            }
            [Item::UInt(_) | Item::Int(_), base, s] => {
                let base = self.item(base)?;
                let s = self.item(s)?;
                Ok(Some(
                    json!({"$class": "NSURL", "base": base, "relative": s}),
                ))
            }
            _ => Ok(None),
        }
    }
}

/// The class names of an object, most derived first.
fn chain<'a>(r: &'a Reader<'_>, o: usize) -> Vec<&'a str> {
    let mut out = Vec::new();
    let mut c = r.objects[o].class;
    while let Some(i) = c {
        if out.len() > r.classes.len() {
            break;
        }
        out.push(r.classes[i].name.as_str());
        c = r.classes[i].superclass;
    }
    out
}

#[derive(Clone, Copy)]
enum Kind {
    String,
    AttributedString,
    Dictionary,
    Array,
    Number,
    Url,
    Data,
    Date,
}

/// Foundation classes rendered by their meaning (matched along the class chain).
const KNOWN: &[(&str, Kind)] = &[
    ("NSString", Kind::String),
    ("NSAttributedString", Kind::AttributedString),
    ("NSDictionary", Kind::Dictionary),
    ("NSArray", Kind::Array),
    ("NSSet", Kind::Array),
    ("NSNumber", Kind::Number),
    ("NSURL", Kind::Url),
    ("NSData", Kind::Data),
    ("NSDate", Kind::Date),
];

/// Text when it is UTF-8, else `{"$hex": …}`.
fn bytes(b: &[u8]) -> Value {
    match std::str::from_utf8(b) {
        Ok(s) => json!(s),
        Err(_) => json!({"$hex": hex::encode(b)}),
    }
}

/// A length, then the bytes; a binary property list inside is decoded.
fn data(flat: &[&Item]) -> Option<Value> {
    let [Item::Int(n), Item::Bytes(b)] = flat else {
        return None;
    };
    if usize::try_from(*n).ok() != Some(b.len()) {
        return None;
    }
    if b.starts_with(b"bplist00")
        && let Ok(v) = masf_evidence::plist::read(std::io::Cursor::new(b), "plist in a typedstream")
    {
        let raw = crate::content_tools::plist_to_json(&v);
        let v = match crate::content_tools::unarchive(&raw) {
            Ok(Some(u)) => u,
            _ => raw,
        };
        return Some(json!({"$data_plist": v}));
    }
    Some(json!({"$data_hex": hex::encode(b)}))
}

/// Seconds since the start of 2001 UTC.
fn date(flat: &[&Item]) -> Option<Value> {
    let [Item::Float(t)] = flat else {
        return None;
    };
    let micros = ((t + 978_307_200.0) * 1e6).round();
    if !micros.is_finite() || micros.abs() > 9e18 {
        return None;
    }
    let ts = jiff::Timestamp::from_microsecond(micros as i64).ok()?;
    Some(json!({"$date": ts.to_string()}))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn types_split_into_single_ones() {
        assert_eq!(split(b"iI").unwrap(), vec![&b"i"[..], b"I"]);
        assert_eq!(
            split(b"[16c]{p=ii}@").unwrap(),
            vec![&b"[16c]"[..], b"{p=ii}", b"@"]
        );
        assert!(split(b"[16c").is_err());
        assert!(split(b"{p=ii]").is_err());
        assert_eq!(array_type(b"[16c]").unwrap(), (16, &b"c"[..]));
        assert!(array_type(b"[c]").is_err());
        assert!(struct_fields(b"{p=}").is_err());
    }

    #[test]
    fn a_header_alone_or_another_format_is_refused() {
        assert!(!is_typedstream(b"bplist00"));
        assert!(!is_typedstream(b""));
        let header = b"\x04\x0bstreamtyped\x81\xe8\x03";
        assert!(is_typedstream(header));
        let e = decode(header).unwrap_err();
        assert_eq!(e.offset, header.len());
        let e = decode(b"\x03\x0bstreamtyped\x81\xe8\x03").unwrap_err();
        assert!(e.reason.contains("streamer version 3"), "{e}");
        assert!(decode(b"\x04\x0bstreamtyped\x81\xe8").is_err());
    }
}
