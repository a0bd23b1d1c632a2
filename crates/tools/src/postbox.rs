//! Telegram's Postbox (Telegram for iOS and macOS: `telegram-data/account-<id>/postbox/db/db_sqlite`),
//! its keys and values decoded into JSON for `sqlite_query`'s `postbox` option.
//!
//! Postbox is a key-value store over SQLite: each table `t<n>` holds `key` (an integer, or a
//! big-endian binary key) and `value` (a binary record). Read here:
//!
//! - **a peer id** (an integer key, or eight bytes of a binary one): the namespace in bits 32–34
//!   (0 a user, 1 a group, 2 a channel, 3 a secret chat), the id in the low 32 bits and, from
//!   bit 35 up, its high bits (Telegram's 64-bit ids; a legacy id has none). Rendered with its
//!   kind and, for a user, group or channel, its qualified id: `telegram:<user id>` as Telegram
//!   for Android's reader writes it, `telegram-chat:<id>` for a group or channel.
//! - **a message index** (the 20-byte key of the message history table `t7`): the peer id of
//!   the chat, the message namespace, the timestamp (Unix seconds) and the message id.
//! - **a stored message** (`t7`'s value, Postbox's `IntermediateMessage`): a type byte (0), the
//!   stable id and version, a byte of flags saying which of the globally unique id, global
//!   tags, grouping key, group info, local tags and thread id follow, the message flags
//!   (incoming …) and tags, the forward info (a byte of flags; then the original author, date
//!   and, as the flags say, source, source message, signature, PSA type and flags), the author
//!   (a presence byte, then a peer id), the text, the attributes and embedded media (each a
//!   length-prefixed key-value stream) and the ids of referenced media.
//! - **a key-value stream** (`PostboxEncoder`'s output: a peer in `t2` is `{"_": object}`):
//!   each value a one-byte key length and key, a type byte and the value: int32, int64, bool,
//!   double, string, object (its class's type hash, a length and its own stream), arrays of
//!   int32, int64, objects, strings or bytes, a dictionary of objects, bytes, nil. An object
//!   renders as `{"@type": hash, "@class": name, …its keys}`: the class named when its hash is
//!   one of the classes Telegram registers ([`CLASSES`], hashed with Telegram's MurmurHash3
//!   seed); bytes as `{"@bytes": hex}` (`{"@length", "@bytes_head"}` past [`MAX_HEX`]), or
//!   `{"@json": …}` when they are a JSON text.
//!
//! A peer id a value keeps as a plain int64 (`peerId`, `authorId`, a user's `i` … see
//! [`PEER_KEYS`]) gains its rendering beside it as `"<key>.peer"`, so its qualified id is in the
//! output. The access hash a user or channel object keeps (`ah`, the credential Telegram's API asks
//! for with the id) is left out.
//!
//! Written by hand: no Rust crate reads Postbox. Little-endian values, big-endian keys, as
//! Telegram writes them. Nesting ([`MAX_DEPTH`]) and values ([`MAX_VALUES`]) are bounded, every
//! length is checked against the bytes left before it is read, and an error names the byte
//! offset; a value decodes only when it is read to its last byte (a message may end in bytes
//! a newer client appends: they are counted as `trailing_bytes`).

use serde_json::{Map, Value, json};

/// Deepest nesting of objects.
pub const MAX_DEPTH: usize = 64;

/// Most values in one record.
pub const MAX_VALUES: usize = 100_000;

/// Longest byte value rendered whole in hex.
pub const MAX_HEX: usize = 1024;

/// Telegram's MurmurHash3 seed (`-137723950`), used for Postbox's type hashes.
pub const MURMUR_SEED: u32 = 0xF7CA_7FD2;

/// Classes whose type hash is named (Postbox registers a class by the hash of its name).
pub const CLASSES: &[&str] = &[
    "TelegramUser",
    "TelegramGroup",
    "TelegramChannel",
    "TelegramSecretChat",
    "TelegramUserPresence",
    "TelegramMediaImage",
    "TelegramMediaImageRepresentation",
    "TelegramMediaImageReference",
    "TelegramMediaFile",
    "TelegramMediaFileAttribute",
    "TelegramMediaFileReference",
    "TelegramMediaWebpage",
    "TelegramMediaAction",
    "TelegramMediaMap",
    "TelegramMediaContact",
    "TelegramMediaPoll",
    "TelegramMediaDice",
    "TelegramMediaGame",
    "TelegramMediaInvoice",
    "TelegramMediaExpiredContent",
    "TelegramMediaStory",
    "TelegramMediaGiveaway",
    "TelegramMediaUnsupported",
    "TelegramMediaTodo",
    "TelegramMediaPaidContent",
    "CloudPhotoSizeMediaResource",
    "CloudDocumentMediaResource",
    "CloudDocumentSizeMediaResource",
    "CloudFileMediaResource",
    "CloudPeerPhotoSizeMediaResource",
    "LocalFileMediaResource",
    "LocalFileReferenceMediaResource",
    "SecretFileMediaResource",
    "TextEntitiesMessageAttribute",
    "ReplyMessageAttribute",
    "ViewCountMessageAttribute",
    "EditedMessageAttribute",
    "AuthorSignatureMessageAttribute",
    "ForwardSourceInfoAttribute",
    "ForwardOptionsMessageAttribute",
    "ConsumableContentMessageAttribute",
    "AutoremoveTimeoutMessageAttribute",
    "AutoclearTimeoutMessageAttribute",
    "InlineBotMessageAttribute",
    "ReplyMarkupMessageAttribute",
    "ReactionsMessageAttribute",
    "SourceReferenceMessageAttribute",
    "OutgoingMessageInfoAttribute",
    "NotificationInfoMessageAttribute",
    "ContentRequiresValidationMessageAttribute",
    "EmbeddedMediaStickersMessageAttribute",
    "WebpagePreviewMessageAttribute",
    "RestrictedContentMessageAttribute",
    "PendingProcessingMessageAttribute",
    "TelegramPeerPhoto",
    "TelegramPeerUsername",
    "BotUserInfo",
    "CachedUserData",
    "CachedGroupData",
    "CachedChannelData",
    "TelegramDeviceContactImportedData",
    "MessageReference",
    "AuthorizedAccountState",
    "AuthorizedAccountStateState",
];

/// The name of a class by its Postbox type hash.
pub fn class_name(hash: i32) -> Option<&'static str> {
    CLASSES.iter().copied().find(|c| type_hash(c) == hash)
}

/// Postbox's type hash of a class name.
pub fn type_hash(name: &str) -> i32 {
    murmur(name.as_bytes())
}

/// Telegram's MurmurHash3 (x86, 32 bits, [`MURMUR_SEED`]) of `b`, as the signed value Telegram
/// keeps.
pub fn murmur(b: &[u8]) -> i32 {
    // reading from a slice cannot fail
    murmur3::murmur3_32(&mut std::io::Cursor::new(b), MURMUR_SEED).unwrap_or(0) as i32
}

/// Keys whose int64 value (or array of them) is a peer id in any object: rendered beside it as
/// `"<key>.peer"` (so is `i` of a user, group, channel or secret chat, and `r`, a secret chat's
/// other user).
pub const PEER_KEYS: &[&str] = &[
    "peerId",
    "peerIds",
    "authorId",
    "fromId",
    "toId",
    "inviter",
    "inviterId",
    "botId",
    "pid",
];

/// Why a record does not decode, and where.
pub use crate::byte_error::ByteError as Error;

/// What a cell holds, as the `postbox` option names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// An integer peer id (or eight big-endian bytes).
    PeerId,
    /// `t7`'s 20-byte key.
    MessageIndex,
    /// `t7`'s value.
    Message,
    /// A key-value stream (`t2`'s value and most others).
    Object,
    /// `t9`'s (the chat list's) 24-byte key.
    ChatListKey,
    /// `t9`'s value: the chat's top message, when stored.
    ChatListValue,
    /// `t14`'s value: a peer's read states.
    ReadState,
}

impl Kind {
    pub const NAMES: [&'static str; 7] = [
        "peer_id",
        "message_index",
        "message",
        "object",
        "chat_list_key",
        "chat_list_value",
        "read_state",
    ];

    pub fn parse(s: &str) -> Option<Kind> {
        match s {
            "peer_id" => Some(Kind::PeerId),
            "message_index" => Some(Kind::MessageIndex),
            "message" => Some(Kind::Message),
            "object" => Some(Kind::Object),
            "chat_list_key" => Some(Kind::ChatListKey),
            "chat_list_value" => Some(Kind::ChatListValue),
            "read_state" => Some(Kind::ReadState),
            _ => None,
        }
    }
}

/// A peer id rendered: raw value, namespace, kind, id and, for a user, group or channel, the
/// qualified id.
pub fn peer(raw: i64) -> Value {
    let bits = raw as u64;
    let namespace = ((bits >> 32) & 0x7) as i64;
    let id = (((bits >> 35) << 32) | (bits & 0xffff_ffff)) as i64;
    // Postbox's empty peer: namespace word 0x7fffffff, id 0
    if bits >> 32 == 0x7fff_ffff && bits & 0xffff_ffff == 0 {
        return json!({"peer": raw, "kind": "empty"});
    }
    let (kind, qualified) = match namespace {
        0 => ("user", Some(format!("telegram:{id}"))),
        1 => ("group", Some(format!("telegram-chat:{id}"))),
        2 => ("channel", Some(format!("telegram-chat:{id}"))),
        3 => ("secret_chat", None),
        _ => ("other", None),
    };
    let mut m = Map::new();
    m.insert("peer".into(), raw.into());
    m.insert("namespace".into(), namespace.into());
    m.insert("kind".into(), kind.into());
    m.insert("id".into(), id.into());
    if let Some(q) = qualified {
        m.insert("qualified".into(), q.into());
    }
    Value::Object(m)
}

const MESSAGE_FLAGS: &[(u32, &str)] = &[
    (1, "unsent"),
    (2, "failed"),
    (4, "incoming"),
    (16, "top_indexable"),
    (32, "sending"),
    (64, "can_be_grouped_into_feed"),
    (128, "was_scheduled"),
    (256, "counted_as_incoming"),
];

const MESSAGE_TAGS: &[(u32, &str)] = &[
    (1 << 0, "photo_or_video"),
    (1 << 1, "file"),
    (1 << 2, "music"),
    (1 << 3, "web_page"),
    (1 << 4, "voice_or_instant_video"),
    (1 << 5, "unseen_personal_message"),
    (1 << 6, "live_location"),
    (1 << 7, "gif"),
    (1 << 8, "photo"),
    (1 << 9, "video"),
    (1 << 10, "pinned"),
];

fn names(v: u32, table: &[(u32, &str)]) -> Value {
    Value::Array(
        table
            .iter()
            .filter(|(bit, _)| v & bit != 0)
            .map(|(_, n)| Value::from(*n))
            .collect(),
    )
}

struct Reader<'a> {
    b: &'a [u8],
    pos: usize,
    /// Where `b` starts in the whole record (for offsets in errors).
    base: usize,
    values: usize,
}

impl<'a> Reader<'a> {
    fn new(b: &'a [u8], base: usize) -> Self {
        Reader {
            b,
            pos: 0,
            base,
            values: 0,
        }
    }

    fn fail<T>(&self, at: usize, reason: impl Into<String>) -> Result<T, Error> {
        Err(Error {
            offset: self.base + at,
            reason: reason.into(),
        })
    }

    fn left(&self) -> usize {
        self.b.len() - self.pos
    }

    fn take(&mut self, n: usize) -> Result<&'a [u8], Error> {
        if self.left() < n {
            return self.fail(
                self.pos,
                format!("{n} bytes needed, {} left (truncated)", self.left()),
            );
        }
        let s = &self.b[self.pos..self.pos + n];
        self.pos += n;
        Ok(s)
    }

    fn u8(&mut self) -> Result<u8, Error> {
        Ok(self.take(1)?[0])
    }

    fn i32(&mut self) -> Result<i32, Error> {
        let b = self.take(4)?;
        Ok(i32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    fn u32(&mut self) -> Result<u32, Error> {
        Ok(self.i32()? as u32)
    }

    fn i64(&mut self) -> Result<i64, Error> {
        let b = self.take(8)?;
        let mut a = [0u8; 8];
        a.copy_from_slice(b);
        Ok(i64::from_le_bytes(a))
    }

    fn f64(&mut self) -> Result<f64, Error> {
        Ok(f64::from_bits(self.i64()? as u64))
    }

    /// A count or length written as an int32: never negative, never more than `unit`-byte
    /// items than the bytes left.
    fn count(&mut self, unit: usize) -> Result<usize, Error> {
        let at = self.pos;
        let n = self.i32()?;
        if n < 0 {
            return self.fail(at, format!("negative length {n}"));
        }
        let n = n as usize;
        if n.saturating_mul(unit.max(1)) > self.left() {
            return self.fail(
                at,
                format!(
                    "length {n} runs past the end ({} bytes left, truncated)",
                    self.left()
                ),
            );
        }
        Ok(n)
    }

    fn bytes(&mut self) -> Result<&'a [u8], Error> {
        let n = self.count(1)?;
        self.take(n)
    }

    fn string(&mut self) -> Result<String, Error> {
        let at = self.pos;
        let b = self.bytes()?;
        match std::str::from_utf8(b) {
            Ok(s) => Ok(s.to_string()),
            Err(e) => self.fail(at, format!("a string that is not UTF-8 ({e})")),
        }
    }

    fn counted(&mut self) -> Result<(), Error> {
        self.values += 1;
        if self.values > MAX_VALUES {
            return self.fail(self.pos, format!("more than {MAX_VALUES} values"));
        }
        Ok(())
    }

    /// A key-value stream to the end of the reader.
    fn stream(&mut self, depth: usize) -> Result<Map<String, Value>, Error> {
        if depth > MAX_DEPTH {
            return self.fail(self.pos, format!("objects nested deeper than {MAX_DEPTH}"));
        }
        let mut m = Map::new();
        while self.left() > 0 {
            let at = self.pos;
            let n = self.u8()? as usize;
            let key = match std::str::from_utf8(self.take(n)?) {
                Ok(k) => k.to_string(),
                Err(_) => return self.fail(at, "a key that is not UTF-8"),
            };
            let v = self.value(depth)?;
            m.insert(key, v);
        }
        Ok(m)
    }

    fn object(&mut self, depth: usize) -> Result<Value, Error> {
        self.counted()?;
        let hash = self.i32()?;
        let n = self.count(1)?;
        let start = self.pos;
        let body = self.take(n)?;
        let mut inner = Reader::new(body, self.base + start);
        inner.values = self.values;
        let fields = inner.stream(depth + 1)?;
        self.values = inner.values;
        let class = class_name(hash);
        let mut m = Map::new();
        m.insert("@type".into(), hash.into());
        if let Some(c) = class {
            m.insert("@class".into(), c.into());
        }
        let secret_hash = matches!(class, Some("TelegramUser" | "TelegramChannel"));
        let peer_class = matches!(
            class,
            Some("TelegramUser" | "TelegramGroup" | "TelegramChannel" | "TelegramSecretChat")
        );
        for (k, v) in fields {
            if secret_hash && k == "ah" {
                continue;
            }
            // a peer id kept as a plain int64 gains its rendering as a sibling
            let is_peer = PEER_KEYS.contains(&k.as_str())
                || (peer_class && k == "i")
                || (class == Some("TelegramSecretChat") && k == "r");
            if is_peer {
                let rendered = match &v {
                    Value::Number(n) => n.as_i64().map(peer),
                    Value::Array(a) if a.iter().all(Value::is_i64) => Some(Value::Array(
                        a.iter().filter_map(Value::as_i64).map(peer).collect(),
                    )),
                    _ => None,
                };
                if let Some(r) = rendered {
                    m.insert(format!("{k}.peer"), r);
                }
            }
            m.insert(k, v);
        }
        Ok(Value::Object(m))
    }

    fn value(&mut self, depth: usize) -> Result<Value, Error> {
        self.counted()?;
        let at = self.pos;
        let ty = self.u8()?;
        Ok(match ty {
            0 => self.i32()?.into(),
            1 => self.i64()?.into(),
            2 => Value::Bool(self.u8()? != 0),
            3 => {
                let f = self.f64()?;
                serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number)
            }
            4 => self.string()?.into(),
            5 => self.object(depth)?,
            6 => {
                let n = self.count(4)?;
                (0..n)
                    .map(|_| self.i32().map(Value::from))
                    .collect::<Result<_, _>>()?
            }
            7 => {
                let n = self.count(8)?;
                (0..n)
                    .map(|_| self.i64().map(Value::from))
                    .collect::<Result<_, _>>()?
            }
            8 => {
                let n = self.count(8)?;
                (0..n)
                    .map(|_| self.object(depth))
                    .collect::<Result<_, _>>()?
            }
            9 => {
                let n = self.count(16)?;
                (0..n)
                    .map(|_| Ok(json!([self.object(depth)?, self.object(depth)?])))
                    .collect::<Result<_, _>>()?
            }
            10 => bytes_value(self.bytes()?),
            11 => Value::Null,
            12 => {
                let n = self.count(4)?;
                (0..n)
                    .map(|_| self.string().map(Value::from))
                    .collect::<Result<_, _>>()?
            }
            13 => {
                let n = self.count(4)?;
                (0..n)
                    .map(|_| self.bytes().map(bytes_value))
                    .collect::<Result<_, _>>()?
            }
            t => return self.fail(at, format!("unknown value type {t}")),
        })
    }

    fn be_i64(&mut self) -> Result<i64, Error> {
        let b = self.take(8)?;
        let mut a = [0u8; 8];
        a.copy_from_slice(b);
        Ok(i64::from_be_bytes(a))
    }

    fn be_i32(&mut self) -> Result<i32, Error> {
        let b = self.take(4)?;
        Ok(i32::from_be_bytes([b[0], b[1], b[2], b[3]]))
    }
}

fn bytes_value(b: &[u8]) -> Value {
    if matches!(b.first(), Some(b'{' | b'['))
        && let Ok(v) = serde_json::from_slice::<Value>(b)
    {
        return json!({ "@json": v });
    }
    if b.len() <= MAX_HEX {
        json!({ "@bytes": hex::encode(b) })
    } else {
        json!({ "@length": b.len(), "@bytes_head": hex::encode(&b[..32]) })
    }
}

/// A key-value stream (a peer, cached data, presence, preferences …).
pub fn object(b: &[u8]) -> Result<Value, Error> {
    let mut r = Reader::new(b, 0);
    r.stream(0).map(Value::Object)
}

/// `t7`'s key: chat peer, namespace, timestamp, id (big-endian).
pub fn message_index(b: &[u8]) -> Result<Value, Error> {
    if b.len() != 20 {
        return Err(Error {
            offset: 0,
            reason: format!("{} bytes, not the 20 of a message index", b.len()),
        });
    }
    let mut r = Reader::new(b, 0);
    let p = r.be_i64()?;
    let namespace = r.be_i32()?;
    let timestamp = r.be_i32()?;
    let id = r.be_i32()?;
    Ok(json!({"peer": peer(p), "namespace": namespace, "timestamp": timestamp, "id": id}))
}

/// `t9`'s key (Telegram-iOS's `ChatListTable`, big-endian): the chat list (group 0 the main
/// list, 1 the archive), the pinning slot (stored as 65534 − index; 0 not pinned), the top
/// message's timestamp, namespace and id, the chat's peer, and the entry's type (1 a chat,
/// 2 a hole of the list not yet loaded, 3 a reference to a group of chats).
pub fn chat_list_key(b: &[u8]) -> Result<Value, Error> {
    if b.len() != 24 {
        return Err(Error {
            offset: 0,
            reason: format!("{} bytes, not the 24 of a chat list key", b.len()),
        });
    }
    let mut r = Reader::new(b, 0);
    let group = r.be_i32()?;
    let pin = r.take(2)?;
    let pin = u16::from_be_bytes([pin[0], pin[1]]);
    let timestamp = r.be_i32()?;
    let namespace = r.u8()? as i8;
    let id = r.be_i32()?;
    let p = r.be_i64()?;
    let entry = r.u8()? as i8;
    Ok(json!({
        "group": group,
        "list": match group { 0 => "main".to_string(), 1 => "archive".to_string(), g => format!("folder {g}") },
        "pinned": if pin == 0 { Value::Null } else { Value::from(u16::MAX - 1 - pin) },
        "timestamp": timestamp,
        "namespace": namespace,
        "id": id,
        "peer": peer(p),
        "entry": match entry { 1 => "chat".to_string(), 2 => "hole".to_string(), 3 => "group_reference".to_string(), e => e.to_string() },
    }))
}

/// `t9`'s value: empty, or the chat's top message as stored (namespace, id, timestamp;
/// little-endian), which the key's timestamp may pass (a draft's time).
pub fn chat_list_value(b: &[u8]) -> Result<Value, Error> {
    let mut r = Reader::new(b, 0);
    if b.is_empty() {
        return Ok(json!({}));
    }
    let namespace = r.i32()?;
    let id = r.i32()?;
    let timestamp = r.i32()?;
    if r.left() > 0 {
        return r.fail(12, format!("{} bytes after the top message", r.left()));
    }
    Ok(json!({"top_message": {"namespace": namespace, "id": id, "timestamp": timestamp}}))
}

/// `t14`'s value (Telegram-iOS's `MessageHistoryReadStateTable`, little-endian): per message
/// namespace, the read state — id-based (the highest incoming message id the user read, the
/// highest outgoing one the other side read, the highest known id) or index-based (the same as
/// message indexes, for secret chats) —, the unread count, and whether the chat was marked
/// unread.
pub fn read_state(b: &[u8]) -> Result<Value, Error> {
    let mut r = Reader::new(b, 0);
    let n = r.count(4 + 1 + 5 * 4)?;
    let mut states = Vec::with_capacity(n);
    for _ in 0..n {
        let namespace = r.i32()?;
        let at = r.pos;
        let kind = r.u8()?;
        let mut m = Map::new();
        m.insert("namespace".into(), namespace.into());
        match kind {
            0 => {
                m.insert("kind".into(), "id_based".into());
                m.insert("max_incoming_read_id".into(), r.i32()?.into());
                m.insert("max_outgoing_read_id".into(), r.i32()?.into());
                m.insert("max_known_id".into(), r.i32()?.into());
            }
            1 => {
                m.insert("kind".into(), "index_based".into());
                for side in ["max_incoming_read", "max_outgoing_read"] {
                    let timestamp = r.i32()?;
                    let p = r.i64()?;
                    let ns = r.i32()?;
                    let id = r.i32()?;
                    m.insert(
                        side.into(),
                        json!({"timestamp": timestamp, "peer": peer(p), "namespace": ns, "id": id}),
                    );
                }
            }
            k => return r.fail(at, format!("read state kind {k}, not 0 or 1")),
        }
        m.insert("unread_count".into(), r.i32()?.into());
        let flags = r.i32()?;
        m.insert("marked_unread".into(), (flags & 1 != 0).into());
        states.push(Value::Object(m));
    }
    if r.left() > 0 {
        return r.fail(r.pos, format!("{} bytes after the read states", r.left()));
    }
    Ok(json!({ "namespaces": states }))
}

/// `t7`'s value: a stored message.
pub fn message(b: &[u8]) -> Result<Value, Error> {
    let mut r = Reader::new(b, 0);
    let ty = r.u8()?;
    if ty != 0 {
        return r.fail(
            0,
            format!("message type {ty}, not 0 (an intermediate message)"),
        );
    }
    let mut m = Map::new();
    m.insert("stable_id".into(), r.u32()?.into());
    m.insert("stable_version".into(), r.u32()?.into());
    let data_flags = r.u8()?;
    if data_flags & !0x3f != 0 {
        return r.fail(
            9,
            format!("data flags 0x{data_flags:02x} name fields this decoder does not know"),
        );
    }
    if data_flags & 1 != 0 {
        m.insert("globally_unique_id".into(), r.i64()?.into());
    }
    if data_flags & 2 != 0 {
        m.insert("global_tags".into(), r.u32()?.into());
    }
    if data_flags & 4 != 0 {
        m.insert("grouping_key".into(), r.i64()?.into());
    }
    if data_flags & 8 != 0 {
        m.insert("group_info_stable_id".into(), r.u32()?.into());
    }
    if data_flags & 16 != 0 {
        m.insert("local_tags".into(), r.u32()?.into());
    }
    if data_flags & 32 != 0 {
        m.insert("thread_id".into(), r.i64()?.into());
    }
    let flags = r.u32()?;
    m.insert("flags".into(), flags.into());
    m.insert("flag_names".into(), names(flags, MESSAGE_FLAGS));
    let tags = r.u32()?;
    m.insert("tags".into(), tags.into());
    m.insert("tag_names".into(), names(tags, MESSAGE_TAGS));
    let fwd = r.u8()?;
    if fwd != 0 {
        let mut f = Map::new();
        // an author id of 0 is none (Telegram reads it so)
        let author = r.i64()?;
        if author != 0 {
            f.insert("author".into(), peer(author));
        }
        f.insert("date".into(), r.i32()?.into());
        if fwd & (1 << 1) != 0 {
            f.insert("source".into(), peer(r.i64()?));
        }
        if fwd & (1 << 2) != 0 {
            let p = r.i64()?;
            let ns = r.i32()?;
            let id = r.i32()?;
            f.insert(
                "source_message".into(),
                json!({"peer": peer(p), "namespace": ns, "id": id}),
            );
        }
        if fwd & (1 << 3) != 0 {
            f.insert("signature".into(), r.string()?.into());
        }
        if fwd & (1 << 4) != 0 {
            f.insert("psa_type".into(), r.string()?.into());
        }
        if fwd & (1 << 5) != 0 {
            f.insert("flags".into(), r.i32()?.into());
        }
        m.insert("forward".into(), Value::Object(f));
    }
    let at = r.pos;
    match r.u8()? {
        0 => {}
        1 => {
            m.insert("author".into(), peer(r.i64()?));
        }
        b => return r.fail(at, format!("author presence byte {b}, not 0 or 1")),
    }
    m.insert("text".into(), r.string()?.into());
    for key in ["attributes", "embedded_media"] {
        let n = r.count(4)?;
        let mut items = Vec::with_capacity(n);
        for _ in 0..n {
            let start = r.pos;
            let body = r.bytes()?;
            let mut inner = Reader::new(body, start + 4);
            inner.values = r.values;
            let v = inner.stream(1)?;
            r.values = inner.values;
            // a stored attribute or medium is a root object: `{"_": object}`
            items.push(match v.get("_") {
                Some(o) if v.len() == 1 => o.clone(),
                _ => Value::Object(v),
            });
        }
        m.insert(key.into(), Value::Array(items));
    }
    let n = r.count(12)?;
    let mut refs = Vec::with_capacity(n);
    for _ in 0..n {
        let ns = r.i32()?;
        let id = r.i64()?;
        refs.push(json!({"namespace": ns, "id": id}));
    }
    m.insert("referenced_media".into(), Value::Array(refs));
    if r.left() > 0 {
        m.insert("trailing_bytes".into(), r.left().into());
    }
    Ok(Value::Object(m))
}

/// A cell decoded as `kind`, as one line of JSON; `None` when it is not one.
pub fn cell(kind: Kind, v: rusqlite::types::ValueRef<'_>) -> Option<String> {
    use rusqlite::types::ValueRef;
    let out = match (kind, v) {
        (Kind::PeerId, ValueRef::Integer(i)) => Ok(peer(i)),
        (Kind::PeerId, ValueRef::Blob(b)) if b.len() == 8 => {
            let mut a = [0u8; 8];
            a.copy_from_slice(b);
            Ok(peer(i64::from_be_bytes(a)))
        }
        (Kind::MessageIndex, ValueRef::Blob(b)) => message_index(b),
        (Kind::Message, ValueRef::Blob(b)) => message(b),
        (Kind::Object, ValueRef::Blob(b)) => object(b),
        (Kind::ChatListKey, ValueRef::Blob(b)) => chat_list_key(b),
        (Kind::ChatListValue, ValueRef::Blob(b)) => chat_list_value(b),
        (Kind::ReadState, ValueRef::Blob(b)) => read_state(b),
        _ => return None,
    };
    out.ok().map(|v| v.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(b: &mut Vec<u8>, k: &str) {
        b.push(k.len() as u8);
        b.extend(k.as_bytes());
    }

    fn string(b: &mut Vec<u8>, k: &str, s: &str) {
        key(b, k);
        b.push(4);
        b.extend((s.len() as i32).to_le_bytes());
        b.extend(s.as_bytes());
    }

    fn obj(b: &mut Vec<u8>, k: &str, class: &str, body: &[u8]) {
        key(b, k);
        b.push(5);
        b.extend(type_hash(class).to_le_bytes());
        b.extend((body.len() as i32).to_le_bytes());
        b.extend(body);
    }

    #[test]
    fn the_type_hash_is_telegrams() {
        // iLEAPP's recorded result for Belkasoft CTF 6's iPhone prints a TelegramMediaImage's
        // `reference` object with @type 985457250
        assert_eq!(type_hash("TelegramMediaImageReference"), 985_457_250);
        assert_eq!(class_name(985_457_250), Some("TelegramMediaImageReference"));
    }

    #[test]
    fn peer_ids_of_both_layouts() {
        // iLEAPP's result for the same iPhone: BotFather 93372553, a user 37203642159
        assert_eq!(peer(93_372_553)["qualified"], "telegram:93372553");
        assert_eq!(peer(37_203_642_159)["qualified"], "telegram:7138871087");
        let channel = (2i64 << 32) | 1_234_567;
        assert_eq!(peer(channel)["kind"], "channel");
        assert_eq!(peer(channel)["qualified"], "telegram-chat:1234567");
        assert_eq!(peer(3i64 << 32 | 5)["kind"], "secret_chat");
        assert!(peer(3i64 << 32 | 5).get("qualified").is_none());
    }

    #[test]
    fn a_user_object_without_its_access_hash() {
        let mut body = Vec::new();
        string(&mut body, "fn", "Ana");
        key(&mut body, "ah");
        body.push(1);
        body.extend(42i64.to_le_bytes());
        key(&mut body, "i");
        body.push(1);
        body.extend(93_372_553i64.to_le_bytes());
        let mut b = Vec::new();
        obj(&mut b, "_", "TelegramUser", &body);
        let v = object(&b).unwrap();
        assert_eq!(v["_"]["@class"], "TelegramUser");
        assert_eq!(v["_"]["fn"], "Ana");
        assert_eq!(v["_"]["i"], 93_372_553);
        assert!(v["_"].get("ah").is_none());
    }

    #[test]
    fn every_truncation_and_bit_flip_is_an_error_or_a_value() {
        let mut body = Vec::new();
        string(&mut body, "fn", "Ana");
        let mut b = Vec::new();
        obj(&mut b, "_", "TelegramUser", &body);
        for n in 0..b.len() {
            let _ = object(&b[..n]);
            let _ = message(&b[..n]);
        }
        for i in 0..b.len() * 8 {
            let mut c = b.clone();
            c[i / 8] ^= 1 << (i % 8);
            let _ = object(&c);
            let _ = message(&c);
        }
        assert!(object(&b[..b.len() - 1]).is_err());
        let e = object(&[1, b'a', 99]).unwrap_err();
        assert_eq!(e.offset, 2);
        assert!(e.reason.contains("unknown value type 99"), "{e}");
    }

    #[test]
    fn lengths_past_the_end_are_refused_before_reading() {
        let mut b = Vec::new();
        key(&mut b, "x");
        b.push(7);
        b.extend(i32::MAX.to_le_bytes());
        let e = object(&b).unwrap_err();
        assert!(e.reason.contains("runs past the end"), "{e}");
        let mut b = Vec::new();
        key(&mut b, "x");
        b.push(4);
        b.extend((-1i32).to_le_bytes());
        assert!(object(&b).unwrap_err().reason.contains("negative"));
    }

    #[test]
    fn nesting_is_bounded() {
        let mut b = Vec::new();
        for _ in 0..(MAX_DEPTH + 2) {
            let mut outer = Vec::new();
            obj(&mut outer, "o", "TelegramUser", &b);
            b = outer;
        }
        let e = object(&b).unwrap_err();
        assert!(e.reason.contains("nested deeper"), "{e}");
    }

    /// A chat list key as Telegram-iOS's `ChatListTable.key` writes it.
    fn chat_key(group: i32, pin: Option<u16>, ts: i32, id: i32, peer: i64, entry: i8) -> Vec<u8> {
        let mut k = group.to_be_bytes().to_vec();
        k.extend(pin.map(|p| u16::MAX - 1 - p).unwrap_or(0).to_be_bytes());
        k.extend(ts.to_be_bytes());
        k.push(0);
        k.extend(id.to_be_bytes());
        k.extend(peer.to_be_bytes());
        k.push(entry as u8);
        k
    }

    #[test]
    fn chat_list_keys_and_values() {
        let user = (5_012_345_678i64 >> 32 << 35) | (5_012_345_678 & 0xffff_ffff);
        let v = chat_list_key(&chat_key(1, Some(0), 1_706_974_600, 10, user, 1)).unwrap();
        assert_eq!(v["list"], "archive");
        assert_eq!(v["pinned"], 0);
        assert_eq!(v["timestamp"], 1_706_974_600);
        assert_eq!(v["entry"], "chat");
        assert_eq!(v["peer"]["qualified"], "telegram:5012345678");
        let v = chat_list_key(&chat_key(0, None, 5, 1, user, 2)).unwrap();
        assert_eq!(
            (v["list"].as_str(), v["pinned"].is_null()),
            (Some("main"), true)
        );
        assert_eq!(v["entry"], "hole");
        assert!(chat_list_key(&[0; 23]).is_err());
        let mut top = 0i32.to_le_bytes().to_vec();
        top.extend(10i32.to_le_bytes());
        top.extend(1_706_974_600i32.to_le_bytes());
        assert_eq!(chat_list_value(&top).unwrap()["top_message"]["id"], 10);
        assert_eq!(chat_list_value(&[]).unwrap(), json!({}));
        assert!(chat_list_value(&top[..11]).is_err());
    }

    #[test]
    fn read_states_of_both_kinds() {
        let mut b = 2i32.to_le_bytes().to_vec();
        // namespace 0, id-based: incoming read up to 3, outgoing up to 10, known 10, 1 unread, marked
        b.extend(0i32.to_le_bytes());
        b.push(0);
        for v in [3i32, 10, 10, 1, 1] {
            b.extend(v.to_le_bytes());
        }
        // namespace 1, index-based
        b.extend(1i32.to_le_bytes());
        b.push(1);
        for (ts, id) in [(1_706_974_500i32, 9i32), (0, 0)] {
            b.extend(ts.to_le_bytes());
            b.extend((3i64 << 32 | 77).to_le_bytes());
            b.extend(1i32.to_le_bytes());
            b.extend(id.to_le_bytes());
        }
        b.extend(0i32.to_le_bytes());
        b.extend(0i32.to_le_bytes());
        let v = read_state(&b).unwrap();
        let n = &v["namespaces"];
        assert_eq!(n[0]["kind"], "id_based");
        assert_eq!(n[0]["max_incoming_read_id"], 3);
        assert_eq!(n[0]["max_outgoing_read_id"], 10);
        assert_eq!(
            (
                n[0]["unread_count"].as_i64(),
                n[0]["marked_unread"].as_bool()
            ),
            (Some(1), Some(true))
        );
        assert_eq!(n[1]["max_incoming_read"]["id"], 9);
        assert_eq!(n[1]["max_incoming_read"]["peer"]["kind"], "secret_chat");
        // every truncation is an error, never a panic; a bad kind names its offset
        for cut in 0..b.len() {
            assert!(read_state(&b[..cut]).is_err(), "{cut}");
        }
        let mut bad = b.clone();
        bad[8] = 7;
        assert_eq!(read_state(&bad).unwrap_err().offset, 8);
    }

    #[test]
    fn a_message_index_is_big_endian() {
        let mut b = Vec::new();
        b.extend(93_372_553i64.to_be_bytes());
        b.extend(0i32.to_be_bytes());
        b.extend(1_706_973_776i32.to_be_bytes());
        b.extend(17i32.to_be_bytes());
        let v = message_index(&b).unwrap();
        assert_eq!(v["timestamp"], 1_706_973_776);
        assert_eq!(v["id"], 17);
        assert_eq!(v["peer"]["qualified"], "telegram:93372553");
        assert!(message_index(&b[..19]).is_err());
    }
}
