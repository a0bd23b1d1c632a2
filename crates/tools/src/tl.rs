//! Telegram's TL-serialised message objects, for `sqlite_query`'s `telegram` option: the `data`
//! BLOB of a Telegram for Android `cache4.db` message (`messages`, `messages_v2`).
//!
//! Hand-written: no maintained crate reads the client's stored objects (the MTProto crates
//! decode the wire protocol of one schema layer, and the client stores objects of many layers
//! plus constructors of its own). Two readings, the exact one first:
//!
//! - the client's stored secret-chat message (`TL_message_secret`, constructor `0x555555f9`):
//!   `flags:int id:int ttl:int from_id:int to_id:Peer date:int message:string …`, read field by
//!   field;
//! - any other message constructor: every layer of `message` has `date:int` immediately followed
//!   by `message:string`, so the first 4-byte-aligned int (after the header, when it reads)
//!   that is a plausible Unix date
//!   (2013–2039) followed by a well-formed TL string (length, UTF-8 bytes, zero padding to a
//!   multiple of four, inside the blob) gives the date and the text; the reading is marked
//!   `"read": "date-anchored"` so an examiner knows which rule gave it. The sender and the
//!   conversation come from the header every `message` layer starts with ([`header`]):
//!   `flags:#`, `flags2:#` (layers 171+), `id:int`, `from_id:flags.8?` (an `int` before layer
//!   119, a `Peer` since), `from_boosts_applied:flags.29?int` (171+), `peer_id:Peer` (`to_id`
//!   before 119); they are written (`"from"`, `"to"`) only when that header reads to a known
//!   `Peer` constructor, checked against each layer's rules (32-bit peers with an `int`
//!   sender, no `flags2` before 64-bit ids), so a blob of an unknown layer gives no sender
//!   rather than a wrong one.
//!
//! - a user (`users.data`, the `user` constructors of the layers below): `flags` (`self` is bit
//!   10, `contact` 11, `deleted` 13, `bot` 14), then in the newer layers `flags2`, the id (32-bit
//!   before layer 133, 64-bit since), and `access_hash`, `first_name`, `last_name`, `username`,
//!   `phone` as their flag bits 0–4 say; the access hash is never written out. Read first, since
//!   a user's access hash could pass for a message date.
//!
//! Anything else is `None` (the cell stays hex). Nothing is allocated beyond the blob's size.

use serde_json::{Map, Value, json};

/// The client's stored secret-chat message.
pub const MESSAGE_SECRET: u32 = 0x5555_55f9;

/// Legacy peers with a 32-bit id, and current ones with a 64-bit id: (constructor, kind, bits).
const PEERS: &[(u32, &str, u8)] = &[
    (0x9db1_bc6d, "user", 32),
    (0xbad0_e5bb, "chat", 32),
    (0xbddd_e532, "channel", 32),
    (0x5951_1722, "user", 64),
    (0x36c6_019a, "chat", 64),
    (0xa2a5_371e, "channel", 64),
];

/// `user` constructors: (constructor, has `flags2`, 64-bit id). From Telegram's TL schema and the
/// Android client's `TLRPC` (layers 42–131 with a 32-bit id; 133 onwards with a 64-bit one;
/// `flags2` since 145), checked against the bytes Telethon writes at layers 106–214
/// (`tests/fixtures/android-telegram/telethon-blobs.json`).
const USERS: &[(u32, bool, bool)] = &[
    (0x2e13_f4c3, false, false),
    (0xd10d_979a, false, false),
    (0x9384_58c1, false, false),
    (0x3ff6_ecb0, false, true),
    (0x8f97_c628, true, true),
    (0xabb5_f120, true, true),
    (0xeb60_2f25, true, true),
    (0x215c_4438, true, true),
    (0x8331_4fca, true, true),
    (0x4b46_c37e, true, true),
    (0x020b_1422, true, true),
];

/// Unix dates a message can carry (Telegram launched in 2013).
const DATES: std::ops::RangeInclusive<i64> = 1_370_000_000..=2_200_000_000;

struct Reader<'a> {
    b: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn u32(&mut self) -> Option<u32> {
        let v = self.b.get(self.at..self.at + 4)?;
        self.at += 4;
        Some(u32::from_le_bytes(v.try_into().ok()?))
    }
    fn i64(&mut self) -> Option<i64> {
        let v = self.b.get(self.at..self.at + 8)?;
        self.at += 8;
        Some(i64::from_le_bytes(v.try_into().ok()?))
    }
    /// A TL string: length byte (or 0xfe + 3-byte length), the bytes, zero padding to 4.
    fn string(&mut self) -> Option<String> {
        let first = *self.b.get(self.at)?;
        let (len, head) = if first == 0xfe {
            let l = self.b.get(self.at + 1..self.at + 4)?;
            (
                usize::from(l[0]) | usize::from(l[1]) << 8 | usize::from(l[2]) << 16,
                4,
            )
        } else if first == 0xff {
            return None;
        } else {
            (usize::from(first), 1)
        };
        let start = self.at + head;
        let end = start.checked_add(len)?;
        let padded = (end - self.at).div_ceil(4) * 4 + self.at;
        let bytes = self.b.get(start..end)?;
        if self.b.get(end..padded)?.iter().any(|&p| p != 0) {
            return None;
        }
        let s = std::str::from_utf8(bytes).ok()?.to_string();
        self.at = padded;
        Some(s)
    }
    fn peer(&mut self) -> Option<(String, i64)> {
        let c = self.u32()?;
        let (_, kind, bits) = PEERS.iter().find(|(id, _, _)| *id == c)?;
        let id = if *bits == 32 {
            i64::from(self.u32()? as i32)
        } else {
            self.i64()?
        };
        Some(((*kind).to_string(), id))
    }
}

/// The JSON of one message blob, or `None` when it is no message this module reads.
pub fn message_cell(b: &[u8]) -> Option<String> {
    let v = secret(b).or_else(|| anchored(b))?;
    serde_json::to_string(&v).ok()
}

/// The JSON of one stored object: a user (see [`USERS`]) or a message ([`message_cell`]).
pub fn cell(b: &[u8]) -> Option<String> {
    let v = user(b).or_else(|| secret(b)).or_else(|| anchored(b))?;
    serde_json::to_string(&v).ok()
}

/// The JSON of a stored user object (see [`USERS`]) only.
pub fn user_cell(b: &[u8]) -> Option<String> {
    serde_json::to_string(&user(b)?).ok()
}

fn user(b: &[u8]) -> Option<Value> {
    let mut r = Reader { b, at: 0 };
    let constructor = r.u32()?;
    let (_, flags2, long_id) = USERS.iter().find(|(c, _, _)| *c == constructor)?;
    let flags = r.u32()?;
    if *flags2 {
        r.u32()?;
    }
    let id = if *long_id {
        r.i64()?
    } else {
        i64::from(r.u32()? as i32)
    };
    if id <= 0 {
        return None;
    }
    if flags & 1 != 0 {
        r.i64()?; // access_hash: never written out
    }
    let mut m = Map::new();
    m.insert("constructor".into(), json!(format!("0x{constructor:08x}")));
    m.insert("read".into(), json!("user"));
    m.insert("id".into(), json!(namespaced("user", id)));
    for (bit, name) in [(10, "self"), (11, "contact"), (13, "deleted"), (14, "bot")] {
        m.insert(name.into(), json!(flags & (1 << bit) != 0));
    }
    for (bit, name) in [
        (1, "first_name"),
        (2, "last_name"),
        (3, "username"),
        (4, "phone"),
    ] {
        if flags & (1 << bit) != 0 {
            m.insert(name.into(), json!(r.string()?));
        }
    }
    Some(Value::Object(m))
}

/// Namespaced id of a peer (`telegram:<id>` for a user, `telegram-chat:<id>` otherwise).
fn namespaced(kind: &str, id: i64) -> String {
    if kind == "user" {
        format!("telegram:{id}")
    } else {
        format!("telegram-{kind}:{id}")
    }
}

fn secret(b: &[u8]) -> Option<Value> {
    let mut r = Reader { b, at: 0 };
    if r.u32()? != MESSAGE_SECRET {
        return None;
    }
    let flags = r.u32()?;
    let id = r.u32()? as i32;
    let ttl = r.u32()? as i32;
    let from = r.u32()? as i32;
    let (kind, to) = r.peer()?;
    let date = i64::from(r.u32()? as i32);
    if !DATES.contains(&date) {
        return None;
    }
    let text = r.string()?;
    let mut m = Map::new();
    m.insert(
        "constructor".into(),
        json!(format!("0x{MESSAGE_SECRET:08x}")),
    );
    m.insert("read".into(), json!("message_secret"));
    m.insert("id".into(), json!(id));
    m.insert("out".into(), json!(flags & 2 != 0));
    m.insert("ttl".into(), json!(ttl));
    m.insert("from".into(), json!(namespaced("user", i64::from(from))));
    m.insert("to".into(), json!(namespaced(&kind, to)));
    m.insert("date".into(), json!(date));
    m.insert("text".into(), json!(text));
    Some(Value::Object(m))
}

/// What a message's header says (see the module documentation); `end` is where it stops.
#[derive(Debug, PartialEq)]
struct Header {
    id: i32,
    out: bool,
    from: Option<(String, i64)>,
    to: (String, i64),
    end: usize,
}

/// The header of a `message` blob, read in both shapes (without and with `flags2`); `None`
/// unless exactly one shape reads to a `Peer` under its layer's rules.
fn header(b: &[u8]) -> Option<Header> {
    let read = |flags2: bool| -> Option<Header> {
        let mut r = Reader { b, at: 4 };
        let flags = r.u32()?;
        if flags2 {
            r.u32()?;
        }
        let id = r.u32()? as i32;
        let mut from = None;
        // an `int` sender (layers before 119) comes only with 32-bit peers and no `flags2`
        let mut legacy = false;
        if flags & (1 << 8) != 0 {
            let at = r.at;
            from = match r.peer() {
                Some(p) => Some(p),
                None if !flags2 => {
                    r.at = at;
                    legacy = true;
                    Some(("user".to_string(), i64::from(r.u32()? as i32)))
                }
                None => return None,
            };
        }
        if flags2 && flags & (1 << 29) != 0 {
            r.u32()?; // from_boosts_applied
        }
        let at = r.at;
        let c = r.u32()?;
        r.at = at;
        if legacy && !PEERS.iter().any(|(p, _, bits)| *p == c && *bits == 32) {
            return None;
        }
        let to = r.peer()?;
        if from.as_ref().is_some_and(|(_, id)| *id == 0) || to.1 == 0 {
            return None;
        }
        Some(Header {
            id,
            out: flags & 2 != 0,
            from,
            to,
            end: r.at,
        })
    };
    match (read(false), read(true)) {
        (Some(h), None) | (None, Some(h)) => Some(h),
        _ => None,
    }
}

fn anchored(b: &[u8]) -> Option<Value> {
    let constructor = u32::from_le_bytes(b.get(0..4)?.try_into().ok()?);
    // the date follows the header: a sender's or chat's 64-bit id can pass for a date
    let head = header(b);
    let mut at = head.as_ref().map_or(4, |h| h.end);
    while at + 8 <= b.len() {
        let date = i64::from(i32::from_le_bytes(b[at..at + 4].try_into().ok()?));
        if DATES.contains(&date) {
            let mut r = Reader { b, at: at + 4 };
            if let Some(text) = r.string() {
                let mut m = Map::new();
                m.insert("constructor".into(), json!(format!("0x{constructor:08x}")));
                m.insert("read".into(), json!("date-anchored"));
                if let Some(h) = &head {
                    m.insert("id".into(), json!(h.id));
                    m.insert("out".into(), json!(h.out));
                    if let Some((kind, id)) = &h.from {
                        m.insert("from".into(), json!(namespaced(kind, *id)));
                    }
                    m.insert("to".into(), json!(namespaced(&h.to.0, h.to.1)));
                }
                m.insert("date".into(), json!(date));
                m.insert("text".into(), json!(text));
                return Some(Value::Object(m));
            }
        }
        at += 4;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tl_string(s: &str) -> Vec<u8> {
        let mut v = vec![s.len() as u8];
        v.extend_from_slice(s.as_bytes());
        while v.len() % 4 != 0 {
            v.push(0);
        }
        v
    }

    #[test]
    fn strings_need_their_padding_and_utf8() {
        let mut r = Reader {
            b: &tl_string("héllo"),
            at: 0,
        };
        assert_eq!(r.string().as_deref(), Some("héllo"));
        let mut bad = tl_string("ab");
        bad[3] = 7; // non-zero padding
        assert_eq!(Reader { b: &bad, at: 0 }.string(), None);
        let cut = &tl_string("abcdefg")[..5];
        assert_eq!(Reader { b: cut, at: 0 }.string(), None);
        assert_eq!(
            Reader {
                b: &[0xff, 0, 0, 0],
                at: 0
            }
            .string(),
            None
        );
    }

    #[test]
    fn users_of_both_id_widths_are_read_without_their_access_hash() {
        // user#215c4438 flags flags2 id:long access_hash first_name username phone (self)
        let mut b = 0x215c_4438u32.to_le_bytes().to_vec();
        b.extend((1u32 | 2 | 8 | 16 | 1 << 10).to_le_bytes());
        b.extend(0u32.to_le_bytes());
        b.extend(5_000_000_123i64.to_le_bytes());
        b.extend(0x1122_3344_5566_7788i64.to_le_bytes());
        for s in ["Pat", "pat_wong", "85261234567"] {
            b.extend(tl_string(s));
        }
        let v: Value = serde_json::from_str(&cell(&b).unwrap()).unwrap();
        assert_eq!(
            v,
            json!({"constructor": "0x215c4438", "read": "user", "id": "telegram:5000000123",
                   "self": true, "contact": false, "deleted": false, "bot": false,
                   "first_name": "Pat", "username": "pat_wong", "phone": "85261234567"})
        );
        assert!(!cell(&b).unwrap().contains("1122"));
        // user#938458c1 flags id:int last_name
        let mut b = 0x9384_58c1u32.to_le_bytes().to_vec();
        b.extend(4u32.to_le_bytes());
        b.extend(62_132_081u32.to_le_bytes());
        b.extend(tl_string("Chan"));
        let v: Value = serde_json::from_str(&cell(&b).unwrap()).unwrap();
        assert_eq!(v["id"], "telegram:62132081");
        assert_eq!(v["last_name"], "Chan");
        // cut inside a string: nothing
        assert_eq!(user(&b[..b.len() - 2]), None);
    }

    #[test]
    fn a_message_of_another_layer_is_read_after_its_date() {
        // message#… flags id peer(32-bit user) date message …
        let mut b = 0x44f9_b43du32.to_le_bytes().to_vec();
        b.extend(0x0000_0102u32.to_le_bytes());
        b.extend(77u32.to_le_bytes());
        b.extend(0x9db1_bc6du32.to_le_bytes());
        b.extend(5u32.to_le_bytes());
        b.extend(1_700_000_000u32.to_le_bytes());
        b.extend(tl_string(
            "my address is TRh4MqLekE9MbxTkLrQ673AHbsU46khwF2",
        ));
        let v: Value = serde_json::from_str(&message_cell(&b).unwrap()).unwrap();
        assert_eq!(v["read"], "date-anchored");
        assert_eq!(v["date"], 1_700_000_000);
        assert_eq!(v["constructor"], "0x44f9b43d");
        // truncated right after the date: nothing is made up
        assert_eq!(message_cell(&b[..24]), None);
        assert_eq!(message_cell(&[]), None);
        assert_eq!(message_cell(&[1, 2, 3]), None);
    }
}
