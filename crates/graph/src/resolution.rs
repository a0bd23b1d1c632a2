//! Cross-source entity resolution (DESIGN §8): which tentative entities are the same actor.
//!
//! Pure: no I/O. The pieces, in the order they run:
//!
//! 1. **The table** ([`TABLE`]): every identifier type with its strength, the key space it is
//!    compared in (an Apple ID that is an e-mail address is compared with e-mail addresses) and
//!    the entity kinds for which it is *single-valued* (a device has one serial; a person may
//!    have several phones, so no person identifier is single-valued).
//! 2. **Keys**: strong identifiers are compared by their normalised value
//!    ([`crate::identifiers::normalize`]); names by [`name_key`] (lower case, every run of
//!    non-alphanumeric characters a token break, tokens sorted — so `CHAN Man Ho` and
//!    `Man-Ho, Chan` are one key) and, for similarity, by [`compact_name`] (lower-case letters and
//!    digits in their written order — `LEUNG Y L` and `Leung YL` are both `leungyl`).
//! 3. **Blocking** ([`candidates`]): an inverted index from (entity kind, key space, key) to the
//!    entities holding it; pairs come only from entities in one block — sharing a normalised
//!    identifier or a name key — or from names whose compact forms agree on their first or
//!    on their last [`FUZZY_AFFIX`] characters (one typo leaves one of the two intact) and have
//!    a Jaro–Winkler similarity ≥ [`NAME_SIMILARITY`] (0.95). A *contact claim* (a phone
//!    number or e-mail address a person wrote as their own, "my new number is …":
//!    [`Identifier::is_claim`]) is blocked under its value like the person's own values.
//!    Never all pairs: a strong block of more than [`MAX_STRONG_BLOCK`] entities (a hotline in
//!    many address books) is linked as a chain in id order, which joins the same entities with
//!    a linear number of pairs; a name shared by more than [`MAX_WEAK_BLOCK`] entities, or a
//!    fuzzy block of more than [`MAX_FUZZY_BLOCK`], proposes no pairs (such a name is no
//!    evidence). Only entities of one kind pair. Entities of the same source may pair: a
//!    contact card and a message handle of one phone are different contexts, and a person
//!    entered twice in one address book is a duplicate the examiner wants to see.
//! 4. **Evidence** ([`pair_evidence`]): per pair, each identity phenomenon of either entity
//!    becomes at most one edge: `direct_evidence` when the other entity holds the same key
//!    (a shared strong identifier), `contradicts` when its type is single-valued for the kind
//!    and the two entities hold values of that type with none in common, `prerequisite_met`
//!    when a name is the same or similar (a weak identifier). Names count once per entity
//!    (its first matching name by phenomenon id), so a pair has at most two name edges
//!    however many spellings each entity carries. A value one side only *claimed* gives one
//!    edge, from the claim: `direct_evidence` against the other's own value (`L = 1.52`,
//!    0.97: the person said it is theirs), `supports` against another claim (`L = 1.02`).
//!    When people known to be different (a device's user and someone on that device) claim
//!    one value, all its claims compete by weight, as wallet claims do ([`Contest`]): a
//!    forwarded "my number is …" joins no two people.
//! 5. **Scoring**: by the graph's log-odds (DESIGN §7) with the coreference prior
//!    ([`crate::Scoring::prior_for`], 0.25 by default: `L₀ = −0.477`, undecided rather than
//!    refuted). One shared strong identifier is two `direct_evidence` edges, `2 + 2/2 = 3`:
//!    `L = 2.52`, confidence 0.997, supported. A same or similar name alone is at most two
//!    `prerequisite_met` edges, `0.5 + 0.25`: `L = 0.27`, confidence 0.65, below the
//!    threshold of 0.8. A strong conflict is `−2 − 1`: `L = −3.48`, refuted. A shared SIM
//!    with conflicting serials cancels out (`L₀`): undecided, not the same device.
//! 6. **Planning** ([`plan`]): the gateway calls (as agent [`RESOLVER`]) that bring the graph
//!    to the current evidence: a coreference hypothesis per candidate pair (its statement
//!    names the two entity ids, its `subjects` are the pair) and its missing edges. When an
//!    edge already linked has another type than the evidence now calls for (only a conflict
//!    can turn into a match: a second IMEI shows up), the planner adds a new *revision* of the
//!    hypothesis with all current edges; the `same_as` edge follows the newest revision and
//!    the older ones stay in the log. So the final hypotheses carry exactly the edges the final
//!    identifiers call for, whatever the order evidence arrived in. Planning is a fixpoint:
//!    apply the calls, plan again (links need the new hypotheses' ids), until nothing is
//!    left — at most three passes.
//! 7. **Actors** ([`actors`]): the connected components of live `same_as` edges (union-find),
//!    each with its entities, sources, identifiers and the edges that join it. Entities whose
//!    context is a *mention* ([`MENTION_CONTEXT_PREFIXES`]: what one document or screenshot
//!    names, possibly several people) never join two actors: one linked to a single actor is
//!    one of its entities; one linked to several is listed in each one's `mentioned_in` and
//!    belongs to none; mentions linked to no other entity join only each other.
//! 8. **Control** ([`plan_control`], called by [`plan`] once coreference is settled): a wallet
//!    address held by a person entity is a claim that the person controls it (never a
//!    coreference key); claims become `control` hypotheses scored against each other, and a
//!    supported one joins the wallet into that person's actor through a `same_as` edge of
//!    relation `control` — into no actor when two actors control it.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

use serde::Serialize;

use crate::gateway::{Call, LinkRequest, NewHypothesis};
use crate::identifiers::{IdType, Strength};
use crate::model::{Entity, EntityKind, HypothesisKind, Identifier, Relation};

mod claims;
mod control;
use crate::scoring::{EdgeType, Scoring, Status, score};
use crate::state::{GraphState, same_as_id};
pub use claims::Contest;
pub use control::{control_statement, plan_control, supported_control, wanted_control};

/// The agent name the planner's calls use.
pub const RESOLVER: &str = "resolver";

/// Jaro–Winkler similarity of compact names at or above which two different names are
/// "highly similar": spacing variants and one transposition or typo in a longer name
/// (`LEUNG Y L`/`LEUNG YL`: 1.0; `Martha`/`Marhta`: 0.96; `WONG Ka Ming`/`WONG Ka Mimg`:
/// 0.96), but not short names that differ in one initial (`LEUNG YL`/`LEUNG YK`: 0.94,
/// `CHAN MH`/`CHAN TM`: 0.93) or in their given names (`CHAN Man Ho`/`CHAN MH`: 0.93).
pub const NAME_SIMILARITY: f64 = 0.95;

/// Fuzzy name blocks hold the names whose compact forms start, or end, with the same this
/// many characters.
pub const FUZZY_AFFIX: usize = 5;

/// A strong block larger than this is linked as a chain, not as all pairs.
pub const MAX_STRONG_BLOCK: usize = 64;

/// A name key shared by more entities than this proposes no pairs.
pub const MAX_WEAK_BLOCK: usize = 50;

/// A fuzzy name block larger than this is not compared pairwise.
pub const MAX_FUZZY_BLOCK: usize = 200;

/// Context prefixes of *mention* entities: the identifiers one artefact's text names (a
/// document, a screenshot), which may belong to several people (DESIGN §8; the identity
/// context conventions).
pub const MENTION_CONTEXT_PREFIXES: [&str; 2] = ["document:", "screenshot:"];

/// Contexts whose identifiers are a source's own: its device and its owner (the plugins'
/// context conventions).
pub const OWN_CONTEXTS: [&str; 2] = ["device", "owner"];

/// A device value held by the devices of sources that fall into at least this many groups no
/// person-level identifier ties together is demoted (see [`demotions`]): no real IMEI, serial
/// or Android id belongs to several unrelated devices — it is a shared default the
/// placeholder list does not know (a vendor's or a refurbisher's default serial).
pub const DEMOTE_AT_UNRELATED: usize = 3;

/// A strong value resolution does not use, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Demotion {
    /// Where it is compared.
    pub key_space: KeySpace,
    /// Its key (the normalised value).
    pub normalized: String,
    /// The sources whose device or owner holds it as its own value.
    pub sources: Vec<String>,
    /// Why it is demoted.
    pub reason: String,
}

/// Whether a key space identifies a person (what ties two sources' owners together).
fn person_level(space: KeySpace) -> bool {
    matches!(
        space,
        KeySpace::Phone
            | KeySpace::Email
            | KeySpace::AppleId
            | KeySpace::AccountId
            | KeySpace::WhatsappLid
            | KeySpace::ContactGuid
            | KeySpace::Dsid
    )
}

/// The strong values to demote among `entities`, sorted by key: a device value (a type
/// single-valued for a device: IMEI, serial, Android id) held by the `device` entities of
/// sources that, grouped by the person-level values (phone, e-mail, Apple ID, account ids,
/// DSID, …) their own entities share (union-find), make at least [`DEMOTE_AT_UNRELATED`]
/// unrelated groups. Two phones of one person that share a default serial are one group;
/// three strangers' phones that share it are three. Person-level values and SIMs are never
/// demoted this way: one person's Apple ID on three devices, or one SIM passed between
/// phones, is the very tie the examiner wants. A demoted value has no key ([`prepare`]): it joins nothing and
/// conflicts with nothing, like a placeholder; `actors` shows the reason beside it.
pub fn demotions(entities: &[&Entity]) -> Vec<Demotion> {
    // Device values (single-valued for a device: IMEI, serial, Android id) by source, and
    // person-level own values by source (what ties two sources' owners).
    let mut holders: BTreeMap<(KeySpace, String), BTreeSet<&str>> = BTreeMap::new();
    let mut ties: BTreeMap<(KeySpace, String), BTreeSet<&str>> = BTreeMap::new();
    for e in entities {
        if !OWN_CONTEXTS.contains(&e.context.as_str()) {
            continue;
        }
        for i in &e.identifiers {
            // A claimed value ties nothing: only values a source holds as its own do.
            if rule(i.id_type).strength != Strength::Strong || i.is_claim() {
                continue;
            }
            let k = key(i);
            if k.1.is_empty() {
                continue;
            }
            if e.kind == EntityKind::Device && single_valued(EntityKind::Device, i.id_type) {
                holders.entry(k).or_default().insert(e.source_id.as_str());
            } else if person_level(k.0) {
                ties.entry(k).or_default().insert(e.source_id.as_str());
            }
        }
    }
    let mut out = Vec::new();
    for ((space, value), sources) in &holders {
        if sources.len() < DEMOTE_AT_UNRELATED {
            continue;
        }
        let members: Vec<&str> = sources.iter().copied().collect();
        let mut parent: Vec<usize> = (0..members.len()).collect();
        fn root(parent: &mut [usize], mut x: usize) -> usize {
            while let Some(&p) = parent.get(x) {
                if p == x {
                    break;
                }
                x = p;
            }
            x
        }
        for others in ties.values() {
            let tied: Vec<usize> = members
                .iter()
                .enumerate()
                .filter(|(_, s)| others.contains(*s))
                .map(|(n, _)| n)
                .collect();
            for pair in tied.windows(2) {
                if let [a, b] = pair {
                    let (ra, rb) = (root(&mut parent, *a), root(&mut parent, *b));
                    if let Some(slot) = parent.get_mut(ra) {
                        *slot = rb;
                    }
                }
            }
        }
        let groups: BTreeSet<usize> = (0..members.len()).map(|n| root(&mut parent, n)).collect();
        if groups.len() >= DEMOTE_AT_UNRELATED {
            out.push(Demotion {
                key_space: *space,
                normalized: value.clone(),
                sources: members.iter().map(|s| (*s).to_string()).collect(),
                reason: format!(
                    "the own value of the devices of {} sources in {} groups that no person-level identifier ties together: a shared default, not an identity",
                    members.len(),
                    groups.len()
                ),
            });
        }
    }
    out
}

/// Where an identifier is compared: values of different types can be the same identifier (an
/// Apple ID that is an e-mail address, a Google account).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum KeySpace {
    /// E.164 phone numbers (phones, Apple IDs that are phone numbers).
    Phone,
    /// E-mail addresses (e-mail, Google accounts, Apple IDs that are addresses).
    Email,
    /// Apple IDs that are neither.
    AppleId,
    /// Other service account ids.
    AccountId,
    /// WhatsApp linked identities (`…@lid`).
    WhatsappLid,
    /// Address-book person identifiers.
    ContactGuid,
    /// Apple DSIDs.
    Dsid,
    /// Android ids.
    AndroidId,
    /// IMEIs.
    Imei,
    /// IMSIs.
    Imsi,
    /// ICCIDs.
    Iccid,
    /// Serial numbers.
    Serial,
    /// Wallet addresses.
    Wallet,
    /// Person names (display names, nicknames), by [`name_key`].
    Name,
    /// Device names, by [`name_key`].
    DeviceName,
    /// Apple device UDIDs.
    Udid,
    /// Lockdown pairing host ids.
    PairingHost,
    /// Bluetooth device addresses.
    BluetoothAddress,
    /// ADB public keys.
    AdbKey,
}

/// One row of the identifier table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Row {
    /// The identifier type.
    pub id_type: IdType,
    /// Strong (a match is evidence of identity) or weak (a name).
    pub strength: Strength,
    /// The entity kinds that hold at most one value of this type: two such entities with
    /// different values are different things.
    pub single_valued_for: &'static [EntityKind],
}

/// The identifier table (see the module documentation): the one place where each type's
/// strength and single-valuedness per entity kind are written. A person may have several
/// phones, e-mail addresses, accounts and address-book cards (a card linked across accounts
/// keeps its GUIDs), so nothing is single-valued for a person; a device has one IMEI (two on
/// a dual-SIM phone: entities that share one IMEI do not conflict) and one serial, but one
/// Android id per user and, since Android 8, one per app signing key (the SSAIDs of
/// `settings_ssaid.xml`), so Android ids are not single-valued; a SIM's ICCID and IMSI move between devices, so they are not single-valued
/// for a device; an account has one id, one WhatsApp LID, one DSID; a wallet has one
/// address; an Apple device has one UDID (a computer's pairing host id is not single-valued:
/// it changes when iTunes is set up again; a device has one Bluetooth address).
pub const TABLE: [Row; 26] = [
    row(IdType::Phone, Strength::Strong, &[]),
    row(IdType::Email, Strength::Strong, &[]),
    row(IdType::AppleId, Strength::Strong, &[EntityKind::Account]),
    row(
        IdType::GoogleAccount,
        Strength::Strong,
        &[EntityKind::Account],
    ),
    row(IdType::AccountId, Strength::Strong, &[EntityKind::Account]),
    row(
        IdType::WhatsappLid,
        Strength::Strong,
        &[EntityKind::Account],
    ),
    row(IdType::ContactGuid, Strength::Strong, &[]),
    row(IdType::Dsid, Strength::Strong, &[EntityKind::Account]),
    row(IdType::AndroidId, Strength::Strong, &[]),
    row(IdType::Imei, Strength::Strong, &[EntityKind::Device]),
    row(IdType::Imsi, Strength::Strong, &[]),
    row(IdType::Iccid, Strength::Strong, &[]),
    row(IdType::Serial, Strength::Strong, &[EntityKind::Device]),
    row(IdType::Wallet, Strength::Strong, &[EntityKind::Wallet]),
    row(IdType::DisplayName, Strength::Weak, &[]),
    row(IdType::Nickname, Strength::Weak, &[]),
    row(IdType::DeviceName, Strength::Weak, &[]),
    row(IdType::Wechat, Strength::Strong, &[EntityKind::Account]),
    row(IdType::Qq, Strength::Strong, &[EntityKind::Account]),
    row(IdType::Line, Strength::Strong, &[EntityKind::Account]),
    row(
        IdType::TelegramUsername,
        Strength::Strong,
        &[EntityKind::Account],
    ),
    row(
        IdType::SignalUsername,
        Strength::Strong,
        &[EntityKind::Account],
    ),
    row(IdType::Udid, Strength::Strong, &[EntityKind::Device]),
    row(IdType::PairingHost, Strength::Strong, &[]),
    row(
        IdType::BluetoothAddress,
        Strength::Strong,
        &[EntityKind::Device],
    ),
    // a computer's users each have their own key: not single-valued
    row(IdType::AdbKey, Strength::Strong, &[]),
];

const fn row(id_type: IdType, strength: Strength, single_valued_for: &'static [EntityKind]) -> Row {
    Row {
        id_type,
        strength,
        single_valued_for,
    }
}

/// The table's row of a type.
pub fn rule(id_type: IdType) -> Row {
    // The table is written in the declaration order of `IdType` (a test holds it so): a
    // direct index, with a search as the fallback.
    TABLE
        .get(id_type as usize)
        .filter(|r| r.id_type == id_type)
        .or_else(|| TABLE.iter().find(|r| r.id_type == id_type))
        .copied()
        .unwrap_or(row(id_type, Strength::Strong, &[]))
}

/// Whether an entity of `kind` holds at most one value of `id_type`.
pub fn single_valued(kind: EntityKind, id_type: IdType) -> bool {
    rule(id_type).single_valued_for.contains(&kind)
}

/// The key space an identifier is compared in.
pub fn key_space(identifier: &Identifier) -> KeySpace {
    match identifier.id_type {
        IdType::Phone => KeySpace::Phone,
        IdType::Email | IdType::GoogleAccount => KeySpace::Email,
        IdType::AppleId if identifier.normalized.contains('@') => KeySpace::Email,
        IdType::AppleId if identifier.normalized.starts_with('+') => KeySpace::Phone,
        IdType::AppleId => KeySpace::AppleId,
        IdType::AccountId
        | IdType::Wechat
        | IdType::Qq
        | IdType::Line
        | IdType::TelegramUsername
        | IdType::SignalUsername => KeySpace::AccountId,
        IdType::WhatsappLid => KeySpace::WhatsappLid,
        IdType::ContactGuid => KeySpace::ContactGuid,
        IdType::Dsid => KeySpace::Dsid,
        IdType::AndroidId => KeySpace::AndroidId,
        IdType::Imei => KeySpace::Imei,
        IdType::Imsi => KeySpace::Imsi,
        IdType::Iccid => KeySpace::Iccid,
        IdType::Serial => KeySpace::Serial,
        IdType::Wallet => KeySpace::Wallet,
        IdType::DisplayName | IdType::Nickname => KeySpace::Name,
        IdType::DeviceName => KeySpace::DeviceName,
        IdType::Udid => KeySpace::Udid,
        IdType::PairingHost => KeySpace::PairingHost,
        IdType::BluetoothAddress => KeySpace::BluetoothAddress,
        IdType::AdbKey => KeySpace::AdbKey,
    }
}

/// The key an identifier is compared by: its normalised value, or for a name its
/// [`name_key`].
///
/// A placeholder or sentinel ([`crate::identifiers::placeholder`]) has an empty key: it is
/// in no block, is evidence of nothing and conflicts with nothing, so it joins no two
/// entities.
pub fn key(identifier: &Identifier) -> (KeySpace, String) {
    let space = key_space(identifier);
    if is_placeholder(identifier) {
        return (space, String::new());
    }
    match rule(identifier.id_type).strength {
        Strength::Strong => (space, identifier.normalized.clone()),
        Strength::Weak => (space, name_key(&identifier.value)),
    }
}

/// Whether an observed identifier is a placeholder or sentinel (judged on the value as read,
/// so identifiers recorded before the list existed are judged too).
pub fn is_placeholder(identifier: &Identifier) -> bool {
    crate::identifiers::placeholder(identifier.id_type, &identifier.value).is_some()
}

/// A name's key: lower case; every run of characters that are not letters or digits
/// (white space, punctuation, apostrophes) separates tokens; tokens sorted and joined by one
/// space. Case, spacing, punctuation and token order do not matter:
/// `name_key("Man-Ho, CHAN") == name_key("chan man ho")`.
pub fn name_key(name: &str) -> String {
    let lower = name.to_lowercase();
    let mut tokens: Vec<&str> = lower
        .split(|c: char| !c.is_alphanumeric())
        .filter(|t| !t.is_empty())
        .collect();
    tokens.sort_unstable();
    tokens.join(" ")
}

/// A name's letters and digits, lower case, in their written order: what similarity is
/// measured on (`LEUNG Y L` → `leungyl`).
pub fn compact_name(name: &str) -> String {
    name.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

/// Jaro–Winkler similarity in [0, 1] (Winkler's prefix scale 0.1, prefix up to 4 characters).
pub fn jaro_winkler(a: &str, b: &str) -> f64 {
    if a.is_ascii() && b.is_ascii() {
        return jaro_winkler_of(a.as_bytes(), b.as_bytes());
    }
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    jaro_winkler_of(&a, &b)
}

fn jaro_winkler_of<T: PartialEq + Copy>(a: &[T], b: &[T]) -> f64 {
    let jaro = jaro(a, b);
    let prefix = a.iter().zip(b).take(4).take_while(|(x, y)| x == y).count();
    jaro + (prefix as f64) * 0.1 * (1.0 - jaro)
}

fn jaro<T: PartialEq + Copy>(a: &[T], b: &[T]) -> f64 {
    if a.is_empty() && b.is_empty() {
        return 1.0;
    }
    if a.is_empty() || b.is_empty() {
        return 0.0;
    }
    let window = (a.len().max(b.len()) / 2).saturating_sub(1);
    // Names are short: fixed buffers avoid allocating for up to 64 characters.
    let (mut a_buf, mut b_buf) = ([false; 64], [false; 64]);
    let (mut a_vec, mut b_vec) = (Vec::new(), Vec::new());
    let a_used: &mut [bool] = match a_buf.get_mut(..a.len()) {
        Some(buf) => buf,
        None => {
            a_vec.resize(a.len(), false);
            &mut a_vec
        }
    };
    let b_used: &mut [bool] = match b_buf.get_mut(..b.len()) {
        Some(buf) => buf,
        None => {
            b_vec.resize(b.len(), false);
            &mut b_vec
        }
    };
    let mut m = 0usize;
    for (i, (ca, a_flag)) in a.iter().zip(a_used.iter_mut()).enumerate() {
        let lo = i.saturating_sub(window);
        let hi = (i + window + 1).min(b.len());
        for j in lo..hi {
            if let (Some(used), Some(cb)) = (b_used.get_mut(j), b.get(j))
                && !*used
                && cb == ca
            {
                *used = true;
                *a_flag = true;
                m += 1;
                break;
            }
        }
    }
    if m == 0 {
        return 0.0;
    }
    // Matched characters in order on both sides; each mismatch is half a transposition.
    let a_matched = a
        .iter()
        .zip(a_used.iter())
        .filter(|(_, u)| **u)
        .map(|(c, _)| c);
    let b_matched = b
        .iter()
        .zip(b_used.iter())
        .filter(|(_, u)| **u)
        .map(|(c, _)| c);
    let half_transpositions = a_matched.zip(b_matched).filter(|(x, y)| x != y).count();
    let m = m as f64;
    let t = half_transpositions as f64 / 2.0;
    (m / a.len() as f64 + m / b.len() as f64 + (m - t) / m) / 3.0
}

/// Whether two names are the same name or highly similar (see [`NAME_SIMILARITY`]).
pub fn similar_names(a: &str, b: &str) -> bool {
    let (ka, kb) = (name_key(a), name_key(b));
    if ka.is_empty() || kb.is_empty() {
        return false;
    }
    ka == kb || jaro_winkler(&compact_name(a), &compact_name(b)) >= NAME_SIMILARITY
}

/// Whether an entity's context is a mention (see [`MENTION_CONTEXT_PREFIXES`]).
pub fn is_mention(entity: &Entity) -> bool {
    MENTION_CONTEXT_PREFIXES
        .iter()
        .any(|p| entity.context.starts_with(p))
}

/// An entity with its comparison keys computed once: per identifier, its [`key`] and, for a
/// name, its [`compact_name`].
#[derive(Debug, Clone)]
pub struct Prepared<'a> {
    /// The entity.
    pub entity: &'a Entity,
    keys: Vec<(KeySpace, String)>,
    compact: Vec<String>,
}

impl<'a> Prepared<'a> {
    /// Computes the keys of `entity`'s identifiers.
    pub fn new(entity: &'a Entity) -> Self {
        let keys = entity
            .identifiers
            .iter()
            .map(|i| {
                // A wallet address held by a person is a claim that the person controls it
                // ([`plan_control`]), never a key two people are the same by: a payer and a
                // payee both write the payee's address.
                if i.id_type == IdType::Wallet && entity.kind != EntityKind::Wallet {
                    (KeySpace::Wallet, String::new())
                } else {
                    key(i)
                }
            })
            .collect();
        let compact = entity
            .identifiers
            .iter()
            .map(|i| match rule(i.id_type).strength {
                Strength::Weak if !is_placeholder(i) => compact_name(&i.value),
                _ => String::new(),
            })
            .collect();
        Self {
            entity,
            keys,
            compact,
        }
    }

    /// Whether the entity holds `k` as its own (not only as a contact claim).
    fn owns(&self, k: &(KeySpace, String)) -> bool {
        self.entity
            .identifiers
            .iter()
            .zip(&self.keys)
            .any(|(i, ik)| ik == k && !i.is_claim())
    }

    fn parts(&self) -> impl Iterator<Item = (&'a Identifier, &(KeySpace, String), &String)> {
        self.entity
            .identifiers
            .iter()
            .zip(&self.keys)
            .zip(&self.compact)
            .map(|((i, k), c)| (i, k, c))
    }
}

/// Prepares every entity; the keys of demoted values ([`demotions`]) are emptied.
pub fn prepare<'a>(entities: &[&'a Entity]) -> Vec<Prepared<'a>> {
    let demoted: HashSet<(KeySpace, String)> = demotions(entities)
        .into_iter()
        .map(|d| (d.key_space, d.normalized))
        .collect();
    entities
        .iter()
        .map(|e| {
            let mut prepared = Prepared::new(e);
            if !demoted.is_empty() {
                for k in &mut prepared.keys {
                    if demoted.contains(k) {
                        k.1.clear();
                    }
                }
            }
            prepared
        })
        .collect()
}

/// The candidate pairs among `entities`, as index pairs `(i, j)` with `i < j`, sorted. See
/// the module documentation for the blocks.
pub fn candidates(entities: &[&Entity]) -> Vec<(usize, usize)> {
    candidates_prepared(&prepare(entities))
}

/// [`candidates`] over prepared entities.
pub fn candidates_prepared(entities: &[Prepared<'_>]) -> Vec<(usize, usize)> {
    type Block = Vec<u32>;
    let mut exact: HashMap<(EntityKind, KeySpace, &str), Block> = HashMap::new();
    // Fuzzy blocks: (entity, compact name, name key) by name prefix and suffix.
    type Fuzzy<'k> = Vec<(u32, &'k str, &'k str)>;
    let mut fuzzy: HashMap<(EntityKind, KeySpace, char, &str), Fuzzy<'_>> = HashMap::new();
    for (i, prepared) in entities.iter().enumerate() {
        let Ok(index) = u32::try_from(i) else {
            break;
        };
        let kind = prepared.entity.kind;
        for (_, (space, value), compact) in prepared.parts() {
            if value.is_empty() {
                continue;
            }
            let block = exact.entry((kind, *space, value.as_str())).or_default();
            if block.last() != Some(&index) {
                block.push(index);
            }
            if compact.is_empty() {
                continue;
            }
            let prefix_end = compact
                .char_indices()
                .nth(FUZZY_AFFIX)
                .map_or(compact.len(), |(at, _)| at);
            let count = compact.chars().count();
            let suffix_start = compact
                .char_indices()
                .nth(count.saturating_sub(FUZZY_AFFIX))
                .map_or(0, |(at, _)| at);
            let affixes = [
                ('<', compact.get(..prefix_end).unwrap_or_default()),
                ('>', compact.get(suffix_start..).unwrap_or_default()),
            ];
            for (side, affix) in affixes {
                let block = fuzzy.entry((kind, *space, side, affix)).or_default();
                if block.last().map(|(j, _, _)| *j) != Some(index) {
                    block.push((index, compact.as_str(), value.as_str()));
                }
            }
        }
    }
    let mut pairs: HashSet<(u32, u32)> = HashSet::new();
    let mut add = |a: u32, b: u32| {
        if a != b {
            pairs.insert((a.min(b), a.max(b)));
        }
    };
    for ((_, space, _), mut block) in exact {
        block.sort_unstable();
        block.dedup();
        let weak = matches!(space, KeySpace::Name | KeySpace::DeviceName);
        if weak && block.len() > MAX_WEAK_BLOCK {
            continue;
        }
        if !weak && block.len() > MAX_STRONG_BLOCK {
            for w in block.windows(2) {
                if let [a, b] = w {
                    add(*a, *b);
                }
            }
            continue;
        }
        for (k, &a) in block.iter().enumerate() {
            for &b in block.iter().skip(k + 1) {
                add(a, b);
            }
        }
    }
    for (_, block) in fuzzy {
        if block.len() > MAX_FUZZY_BLOCK {
            continue;
        }
        for (k, (a, ca, ka)) in block.iter().enumerate() {
            for (b, cb, kb) in block.iter().skip(k + 1) {
                // The same name key is the exact block's business (and its size limit's).
                if a != b && ka != kb && (ca == cb || jaro_winkler(ca, cb) >= NAME_SIMILARITY) {
                    add(*a, *b);
                }
            }
        }
    }
    let mut pairs: Vec<(usize, usize)> = pairs
        .into_iter()
        .map(|(a, b)| (a as usize, b as usize))
        .collect();
    pairs.sort_unstable();
    pairs
}

/// One edge the evidence calls for in a pair's coreference hypothesis.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PairEvidence {
    /// The identity phenomenon that observed the identifier.
    pub phenomenon_id: String,
    /// `direct_evidence` (shared strong), `prerequisite_met` (same or similar name) or
    /// `contradicts` (conflicting single-valued).
    pub edge_type: EdgeType,
    /// The entity holding the identifier.
    pub entity_id: String,
    /// The identifier's type.
    pub id_type: IdType,
    /// Its normalised value.
    pub normalized: String,
}

/// The edges the identifiers of `a` and `b` call for, sorted by phenomenon id (see the
/// module documentation). Empty when they have nothing to say about each other.
pub fn pair_evidence(a: &Entity, b: &Entity) -> Vec<PairEvidence> {
    evidence_prepared(&Prepared::new(a), &Prepared::new(b))
        .into_iter()
        .map(|(edge_type, entity, identifier)| PairEvidence {
            phenomenon_id: identifier.phenomenon_id.clone(),
            edge_type,
            entity_id: entity.id.clone(),
            id_type: identifier.id_type,
            normalized: identifier.normalized.clone(),
        })
        .collect()
}

/// [`pair_evidence`] over prepared entities, without copies: (edge type, entity, identifier),
/// sorted by phenomenon id.
pub fn evidence_prepared<'a>(
    a: &Prepared<'a>,
    b: &Prepared<'a>,
) -> Vec<(EdgeType, &'a Entity, &'a Identifier)> {
    evidence_with(a, b, true)
}

/// [`evidence_prepared`], with the contact claims' edges (`claims`) or without them (what
/// the parties of competing claims are judged on, [`Contest`]).
fn evidence_with<'a>(
    a: &Prepared<'a>,
    b: &Prepared<'a>,
    claims: bool,
) -> Vec<(EdgeType, &'a Entity, &'a Identifier)> {
    let mut out = Vec::new();
    if a.entity.kind != b.entity.kind || a.entity.id == b.entity.id {
        return out;
    }
    for (this, other) in [(a, b), (b, a)] {
        let mut name_edge: Option<&'a Identifier> = None;
        for (identifier, k, compact) in this.parts() {
            if k.1.is_empty() || (!claims && identifier.is_claim()) {
                // A placeholder: evidence of nothing.
                continue;
            }
            let edge_type = match rule(identifier.id_type).strength {
                // A value the person only claimed ("my new number is …") is one edge, from the
                // claim: `direct_evidence` against the other's own value, `supports` against
                // another claim; an entity holding the value as its own too gives the edge from
                // its own identifier instead.
                Strength::Strong if other.keys.contains(k) => {
                    match (identifier.is_claim(), other.owns(k)) {
                        (false, true) => Some(EdgeType::DirectEvidence),
                        (false, false) => None,
                        (true, _) if this.owns(k) => None,
                        (true, true) => Some(EdgeType::DirectEvidence),
                        (true, false) => Some(EdgeType::Supports),
                    }
                }
                Strength::Strong if conflicts(this, other, identifier.id_type) => {
                    Some(EdgeType::Contradicts)
                }
                Strength::Strong => None,
                Strength::Weak => other
                    .parts()
                    .filter(|(_, ok, _)| ok.0 == k.0)
                    .any(|(_, ok, oc)| {
                        ok.1 == k.1
                            || (!compact.is_empty()
                                && (oc == compact || jaro_winkler(compact, oc) >= NAME_SIMILARITY))
                    })
                    .then_some(EdgeType::PrerequisiteMet),
            };
            match edge_type {
                // One name edge per entity: the matching name with the lowest phenomenon id.
                Some(EdgeType::PrerequisiteMet) => match &mut name_edge {
                    Some(kept) if kept.phenomenon_id <= identifier.phenomenon_id => {}
                    slot => *slot = Some(identifier),
                },
                Some(edge_type) => out.push((edge_type, this.entity, identifier)),
                None => {}
            }
        }
        if let Some(identifier) = name_edge {
            out.push((EdgeType::PrerequisiteMet, this.entity, identifier));
        }
    }
    out.sort_by(|x, y| x.2.phenomenon_id.cmp(&y.2.phenomenon_id));
    out.dedup_by(|x, y| x.2.phenomenon_id == y.2.phenomenon_id);
    out
}

/// Whether `id_type` is single-valued for the entities' kind and they hold values of it with
/// none in common.
fn conflicts(a: &Prepared<'_>, b: &Prepared<'_>, id_type: IdType) -> bool {
    if !single_valued(a.entity.kind, id_type) {
        return false;
    }
    // Placeholders and demoted values have an empty key: they conflict with nothing.
    fn values<'p>(e: &'p Prepared<'_>, id_type: IdType) -> impl Iterator<Item = &'p str> {
        e.entity
            .identifiers
            .iter()
            .zip(&e.keys)
            .filter(move |(i, k)| i.id_type == id_type && !k.1.is_empty())
            .map(|(_, k)| k.1.as_str())
    }
    let has_a = values(a, id_type).next().is_some();
    let has_b = values(b, id_type).next().is_some();
    has_a && has_b && !values(a, id_type).any(|x| values(b, id_type).any(|y| x == y))
}

/// The statement of a pair's coreference hypothesis, revision `revision` (from 1).
pub fn statement(a: &str, b: &str, revision: usize) -> String {
    let (a, b) = if a <= b { (a, b) } else { (b, a) };
    if revision <= 1 {
        format!("{a} and {b} are the same actor")
    } else {
        format!("{a} and {b} are the same actor (revision {revision})")
    }
}

/// The most planning passes a resolve makes with [`plan`] (two suffice for coreference:
/// hypotheses, then their edges; a third plans revisions found while linking; control
/// hypotheses follow settled coreference in two or three more). Every caller that loops
/// [`plan`] — the api's resolve and the tests — stops at this bound, so a chain that needs one
/// more pass shows as "not settled" the same way everywhere.
pub const MAX_PASSES: usize = 8;

/// The gateway calls that bring the coreference hypotheses to the current evidence (see the
/// module documentation), as agent [`RESOLVER`]. Apply them in order, then plan again: a new
/// hypothesis's edges are planned once it has an id. Empty when the graph is up to date.
pub fn plan(state: &GraphState) -> Vec<Call> {
    let entities: Vec<&Entity> = state.entities().values().collect();
    let prepared = prepare(&entities);
    let mut calls = Vec::new();
    let pairs = candidates_prepared(&prepared);
    let contest = Contest::new(&prepared, &pairs, state.scoring());
    for (i, j) in pairs {
        let (Some(pa), Some(pb)) = (prepared.get(i), prepared.get(j)) else {
            continue;
        };
        let (a, b) = (pa.entity, pb.entity);
        let mut evidence = evidence_prepared(pa, pb);
        contest.weigh(&prepared, (i, j), &mut evidence);
        let wanted: Vec<(String, EdgeType)> = evidence
            .into_iter()
            .map(|(edge_type, _, identifier)| (identifier.phenomenon_id.clone(), edge_type))
            .collect();
        if wanted.is_empty() {
            continue;
        }
        // Entities come in id order and candidates as (i < j): a's id is the lower.
        plan_pair(
            state,
            HypothesisKind::Coreference,
            [&a.id, &b.id],
            &|n| statement(&a.id, &b.id, n),
            wanted,
            &mut calls,
        );
    }
    // Control is judged on settled coreference: who competes for a wallet depends on which
    // entities are one actor.
    if calls.is_empty() {
        calls = plan_control(state);
    }
    calls
}

/// The calls that bring the resolver's hypothesis about `subjects` (of `kind`, its revision
/// `n` stated by `statement(n)`) to the `wanted` edges (phenomenon, type): a first revision
/// when there is none; a new revision when an edge the resolver linked has another type than
/// wanted or is no longer wanted (edges other agents linked stay theirs and cause none); else
/// the missing edges, negative ones first — the confidence then only rises towards its final
/// value while the batch is applied, so no pair is supported for a moment by half its evidence.
/// Shared by coreference ([`plan`]) and control ([`plan_control`]).
pub(crate) fn plan_pair(
    state: &GraphState,
    kind: HypothesisKind,
    subjects: [&str; 2],
    statement: &dyn Fn(usize) -> String,
    mut wanted: Vec<(String, EdgeType)>,
    calls: &mut Vec<Call>,
) {
    let [a, b] = subjects;
    let revisions = state.coreference_hypotheses(a, b);
    let new_revision = |n: usize| {
        Call::AddHypothesis(NewHypothesis {
            proposed_by: RESOLVER.to_owned(),
            statement: statement(n),
            kind,
            prior: None,
            subjects: vec![a.to_owned(), b.to_owned()],
        })
    };
    let Some(hypothesis) = revisions.last().and_then(|id| state.hypotheses().get(id)) else {
        calls.push(new_revision(1));
        return;
    };
    let wanted_type: BTreeMap<&str, EdgeType> =
        wanted.iter().map(|(p, t)| (p.as_str(), *t)).collect();
    let stale = hypothesis
        .edges
        .iter()
        .filter(|e| e.linked_by == RESOLVER)
        .any(|e| wanted_type.get(e.phenomenon_id.as_str()) != Some(&e.edge_type));
    if stale {
        calls.push(new_revision(revisions.len() + 1));
        return;
    }
    wanted.sort_by(|x, y| {
        let base = |t: EdgeType| state.scoring().base(t).unwrap_or(0.0);
        base(x.1).total_cmp(&base(y.1)).then_with(|| x.0.cmp(&y.0))
    });
    for (phenomenon_id, edge_type) in wanted {
        if !hypothesis
            .edges
            .iter()
            .any(|e| e.phenomenon_id == phenomenon_id)
        {
            calls.push(Call::Link(LinkRequest {
                agent: RESOLVER.to_owned(),
                task_id: None,
                phenomenon_id,
                hypothesis_id: hypothesis.id.clone(),
                edge_type,
            }));
        }
    }
}

/// A resolution computed without a graph: for benchmarks and for checking the blocking
/// against a brute-force comparison.
#[derive(Debug, Clone, PartialEq)]
pub struct Resolved {
    /// Candidate pairs (indices into the entities).
    pub candidates: usize,
    /// Pairs whose hypothesis would be supported.
    pub supported: Vec<(usize, usize)>,
    /// Clusters (connected components of supported pairs), each sorted, sorted by first
    /// member; singletons included.
    pub clusters: Vec<Vec<usize>>,
}

/// Blocks, scores and clusters `entities` the way [`plan`] and the reducer would, in memory.
pub fn resolve_in_memory(entities: &[&Entity], scoring: &Scoring) -> Resolved {
    let prepared = prepare(entities);
    let pairs = candidates_prepared(&prepared);
    let supported = supported_prepared(&prepared, scoring, pairs.iter().copied());
    Resolved {
        candidates: pairs.len(),
        clusters: clusters(entities.len(), &supported),
        supported,
    }
}

/// [`resolve_in_memory`] with control attribution: coreference first, then the control
/// hypotheses of the claims ([`supported_control`]), and a wallet cluster joins the one
/// coreference cluster that controls it (none when several do), as [`actors`] does.
/// `supported` lists the coreference pairs, then the supported (wallet, person) pairs.
pub fn resolve_with_control_in_memory(entities: &[&Entity], scoring: &Scoring) -> Resolved {
    let prepared = prepare(entities);
    let pairs = candidates_prepared(&prepared);
    let mut supported = supported_prepared(&prepared, scoring, pairs.iter().copied());
    let mut uf = UnionFind::new(entities.len());
    for &(a, b) in &supported {
        uf.union(a, b);
    }
    let root: Vec<usize> = (0..entities.len()).map(|i| uf.find(i)).collect();
    let control = supported_control(entities, &root, scoring);
    join_controlled(
        &mut uf,
        control.iter().map(|&(wallet, person)| (wallet, person, ())),
    );
    supported.extend(control);
    let mut groups: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for i in 0..entities.len() {
        groups.entry(uf.find(i)).or_default().push(i);
    }
    let mut clusters: Vec<Vec<usize>> = groups.into_values().collect();
    clusters.sort_by_key(|g| g.first().copied());
    Resolved {
        candidates: pairs.len(),
        supported,
        clusters,
    }
}

/// What [`join_controlled`] did: the links that joined (controlled entity, edge), and the
/// contested clusters (person entity, cluster root).
type ControlJoins<T> = (Vec<(usize, T)>, Vec<(usize, usize)>);

/// Joins each controlled cluster (under `uf`) to the one person cluster that controls it, by
/// the first of its `(controlled, person, edge)` links; a cluster controlled from several
/// person clusters joins none. Control never joins two people. Returns the links that joined
/// (controlled entity, edge) and, for the contested clusters, (person entity, cluster root).
fn join_controlled<T: Copy>(
    uf: &mut UnionFind,
    links: impl IntoIterator<Item = (usize, usize, T)>,
) -> ControlJoins<T> {
    let mut controllers: BTreeMap<usize, BTreeMap<usize, (usize, usize, T)>> = BTreeMap::new();
    for (controlled, person, edge) in links {
        controllers
            .entry(uf.find(controlled))
            .or_default()
            .entry(uf.find(person))
            .or_insert((controlled, person, edge));
    }
    let (mut joined, mut contested) = (Vec::new(), Vec::new());
    for (cluster, by) in controllers {
        if by.len() == 1 {
            if let Some(&(controlled, person, edge)) = by.values().next()
                && uf.union(controlled, person)
            {
                joined.push((controlled, edge));
            }
        } else {
            contested.extend(by.values().map(|&(_, person, _)| (person, cluster)));
        }
    }
    (joined, contested)
}

/// The pairs among `pairs` whose coreference hypothesis is supported.
pub fn supported_pairs(
    entities: &[&Entity],
    scoring: &Scoring,
    pairs: impl Iterator<Item = (usize, usize)>,
) -> Vec<(usize, usize)> {
    supported_prepared(&prepare(entities), scoring, pairs)
}

/// [`supported_pairs`] over prepared entities.
pub fn supported_prepared(
    entities: &[Prepared<'_>],
    scoring: &Scoring,
    pairs: impl Iterator<Item = (usize, usize)>,
) -> Vec<(usize, usize)> {
    let prior = scoring.prior_for(HypothesisKind::Coreference);
    let pairs: Vec<(usize, usize)> = pairs.collect();
    let contest = Contest::new(entities, &pairs, scoring);
    pairs
        .into_iter()
        .filter(|&(i, j)| {
            let (Some(a), Some(b)) = (entities.get(i), entities.get(j)) else {
                return false;
            };
            let mut evidence = evidence_prepared(a, b);
            contest.weigh(entities, (i, j), &mut evidence);
            !evidence.is_empty()
                && score(
                    scoring,
                    prior,
                    evidence
                        .iter()
                        .map(|(t, _, i)| (*t, i.phenomenon_id.as_str())),
                )
                .status
                    == Status::Supported
        })
        .collect()
}

/// Connected components of `n` nodes joined by `pairs`.
pub fn clusters(n: usize, pairs: &[(usize, usize)]) -> Vec<Vec<usize>> {
    let mut uf = UnionFind::new(n);
    for &(a, b) in pairs {
        uf.union(a, b);
    }
    let mut groups: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for i in 0..n {
        groups.entry(uf.find(i)).or_default().push(i);
    }
    let mut out: Vec<Vec<usize>> = groups.into_values().collect();
    out.sort_by_key(|g| g.first().copied());
    out
}

/// Union-find with path halving and union by size.
struct UnionFind {
    parent: Vec<usize>,
    size: Vec<usize>,
}

impl UnionFind {
    fn new(n: usize) -> Self {
        Self {
            parent: (0..n).collect(),
            size: vec![1; n],
        }
    }

    fn find(&mut self, mut x: usize) -> usize {
        while let Some(&p) = self.parent.get(x) {
            if p == x {
                break;
            }
            let grand = self.parent.get(p).copied().unwrap_or(p);
            if let Some(slot) = self.parent.get_mut(x) {
                *slot = grand;
            }
            x = grand;
        }
        x
    }

    /// Joins the sets of `a` and `b`; false when they were one set already.
    fn union(&mut self, a: usize, b: usize) -> bool {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra == rb {
            return false;
        }
        let (sa, sb) = (
            self.size.get(ra).copied().unwrap_or(1),
            self.size.get(rb).copied().unwrap_or(1),
        );
        let (big, small) = if sa >= sb { (ra, rb) } else { (rb, ra) };
        if let Some(p) = self.parent.get_mut(small) {
            *p = big;
        }
        if let Some(s) = self.size.get_mut(big) {
            *s = sa + sb;
        }
        true
    }
}

/// An actor: entities joined by live `same_as` edges (DESIGN §8).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Actor {
    /// `actor-000003`: named after its first entity.
    pub id: String,
    /// The label most of its named entities (those with a display name or nickname) carry,
    /// else most of its entities (the first such, by entity id); else its first strong
    /// identifier.
    pub label: String,
    /// Its entities, by id.
    pub entities: Vec<String>,
    /// Mention entities (documents, screenshots) linked by live edges to this actor *and*
    /// another one: listed under each, members of none (a mention linked to one actor only is
    /// one of its `entities`).
    pub mentioned_in: Vec<String>,
    /// The sources its entities come from.
    pub sources: Vec<String>,
    /// Its identifiers, each once per (type, normalised value), with the entities holding it.
    pub identifiers: Vec<ActorIdentifier>,
    /// The `same_as` edges that join its entities (a spanning tree, in the order union-find
    /// accepted them, edges by id): coreference edges, then the control edges that brought
    /// its wallets in.
    pub joined_by: Vec<String>,
    /// Wallet entities this actor and another one both hold live control edges on: they join
    /// neither (the examiner decides), listed under each.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub contested: Vec<String>,
}

/// An identifier of an actor.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ActorIdentifier {
    /// Its type.
    pub id_type: IdType,
    /// Its normalised value.
    pub normalized: String,
    /// Strong or weak.
    pub strength: Strength,
    /// The entities that hold it.
    pub entities: Vec<String>,
    /// Why resolution does not use it, when it does not: a placeholder
    /// ([`crate::identifiers::placeholder`]) or a demoted value ([`demotions`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub not_used: Option<String>,
    /// The entities that hold it as a contact claim (they wrote it as their own, "my new
    /// number is …": [`Identifier::is_claim`]), a subset of `entities`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub claimed_by: Vec<String>,
}

impl IdType {
    /// Strong or weak: the type's row of the one identifier table ([`TABLE`]). A value can
    /// still be weaker than its type: see [`crate::identifiers::strength_of`].
    pub fn strength(self) -> Strength {
        rule(self).strength
    }
}

/// The actors of the graph: connected components of live (`live`, `approved`) `same_as`
/// edges. Every entity is in exactly one actor, except a mention linked to several actors,
/// which is in the `mentioned_in` of each. Sorted by size (largest first), then id.
pub fn actors(state: &GraphState) -> Vec<Actor> {
    let entities: Vec<&Entity> = state.entities().values().collect();
    let demoted: HashMap<(KeySpace, String), String> = demotions(&entities)
        .into_iter()
        .map(|d| ((d.key_space, d.normalized), d.reason))
        .collect();
    let index: HashMap<&str, usize> = entities
        .iter()
        .enumerate()
        .map(|(i, e)| (e.id.as_str(), i))
        .collect();
    let mention: Vec<bool> = entities.iter().map(|e| is_mention(e)).collect();
    let live: Vec<(usize, usize, &str)> = state
        .same_as()
        .values()
        .filter(|e| e.is_live() && e.relation == Relation::Coreference)
        .filter_map(|e| {
            Some((
                *index.get(e.a.as_str())?,
                *index.get(e.b.as_str())?,
                e.id.as_str(),
            ))
        })
        .collect();
    let is_mention_at = |i: usize| mention.get(i).copied().unwrap_or(false);
    // Mentions linked to a non-mention entity attach to its actor and bridge nothing.
    let mut attached: BTreeMap<usize, BTreeMap<usize, &str>> = BTreeMap::new();
    for &(a, b, id) in &live {
        match (is_mention_at(a), is_mention_at(b)) {
            (true, false) => {
                attached.entry(a).or_default().entry(b).or_insert(id);
            }
            (false, true) => {
                attached.entry(b).or_default().entry(a).or_insert(id);
            }
            _ => {}
        }
    }
    let mut uf = UnionFind::new(entities.len());
    let mut joined: Vec<(usize, &str)> = Vec::new();
    for &(a, b, id) in &live {
        let joins = match (is_mention_at(a), is_mention_at(b)) {
            (false, false) => true,
            (true, true) => !attached.contains_key(&a) && !attached.contains_key(&b),
            _ => false,
        };
        if joins && uf.union(a, b) {
            joined.push((a, id));
        }
    }
    // Control: a wallet cluster that one actor controls joins it; one that several actors
    // control joins none and is listed as contested under each (control never joins two
    // people).
    let control = state.same_as().values().filter_map(|e| {
        if !e.is_live() || e.relation != Relation::Control {
            return None;
        }
        let (&a, &b) = (index.get(e.a.as_str())?, index.get(e.b.as_str())?);
        let person_at = |i: usize| {
            entities
                .get(i)
                .is_some_and(|x| x.kind == EntityKind::Person)
        };
        let (controlled, person) = match (person_at(a), person_at(b)) {
            (false, true) => (a, b),
            (true, false) => (b, a),
            _ => return None,
        };
        (!attached.contains_key(&person) && !is_mention_at(controlled)).then_some((
            controlled,
            person,
            e.id.as_str(),
        ))
    });
    let (control_joined, contested) = join_controlled(&mut uf, control);
    joined.extend(control_joined);
    let mut groups: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for i in 0..entities.len() {
        if attached.contains_key(&i) {
            continue;
        }
        groups.entry(uf.find(i)).or_default().push(i);
    }
    let mut contested_of: BTreeMap<usize, BTreeSet<usize>> = BTreeMap::new();
    for (person, cluster) in contested {
        let members = groups.get(&uf.find(cluster)).cloned().unwrap_or_default();
        contested_of
            .entry(uf.find(person))
            .or_default()
            .extend(members);
    }
    // A mention attached to one actor only is unambiguous: it joins that actor. One attached
    // to several is listed under each and joins none.
    let mut mentions_of: BTreeMap<usize, BTreeSet<usize>> = BTreeMap::new();
    for (&m, targets) in &attached {
        let mut roots: BTreeMap<usize, &str> = BTreeMap::new();
        for (&t, &edge) in targets {
            roots.entry(uf.find(t)).or_insert(edge);
        }
        match roots.first_key_value() {
            Some((&root, &edge)) if roots.len() == 1 => {
                let members = groups.entry(root).or_default();
                members.push(m);
                members.sort_unstable();
                joined.push((root, edge));
            }
            _ => {
                for root in roots.into_keys() {
                    mentions_of.entry(root).or_default().insert(m);
                }
            }
        }
    }
    let mut joined_of: BTreeMap<usize, Vec<String>> = BTreeMap::new();
    for (a, id) in joined {
        joined_of.entry(uf.find(a)).or_default().push(id.to_owned());
    }
    let mut out: Vec<Actor> = groups
        .into_iter()
        .map(|(root, members)| {
            let members: Vec<&Entity> = members
                .iter()
                .filter_map(|&i| entities.get(i).copied())
                .collect();
            let mentioned: Vec<String> = mentions_of
                .get(&root)
                .map(|set| {
                    set.iter()
                        .filter_map(|&i| entities.get(i).map(|e| e.id.clone()))
                        .collect()
                })
                .unwrap_or_default();
            let mut a = actor(
                &members,
                mentioned,
                joined_of.remove(&root).unwrap_or_default(),
                &demoted,
            );
            a.contested = contested_of
                .get(&root)
                .map(|set| {
                    set.iter()
                        .filter_map(|&i| entities.get(i).map(|e| e.id.clone()))
                        .collect()
                })
                .unwrap_or_default();
            a
        })
        .collect();
    out.sort_by(|x, y| {
        y.entities
            .len()
            .cmp(&x.entities.len())
            .then_with(|| x.id.cmp(&y.id))
    });
    out
}

/// What an actor concerns, as `masf timeline --actor` and the desktop's Timeline filter by it
/// (one rule for both): the sources where one of its entities is the device's owner or the
/// device itself (every entry of such a source is the actor's), the normalised values of its
/// entities' strong identifiers, and the phenomena that observed them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ActorScope {
    /// The actor's id (also when it was asked for by the id of one of its entities).
    pub actor_id: String,
    /// Sources whose entries all concern the actor.
    pub sources: BTreeSet<String>,
    /// Normalised strong identifier values ([`crate::identifiers::normalize`]).
    pub identifiers: BTreeSet<String>,
    /// Phenomenon ids: the observations of those identifiers.
    pub phenomena: BTreeSet<String>,
}

/// No actor, and no entity, has the id asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownActor {
    /// The id asked for.
    pub id: String,
    /// The ids of the actors of several entities (the ones worth naming), sorted.
    pub joined: Vec<String>,
}

impl std::fmt::Display for UnknownActor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "no actor or entity {:?}; actors of several entities: {}",
            self.id,
            if self.joined.is_empty() {
                "none".to_string()
            } else {
                self.joined.join(", ")
            }
        )
    }
}

impl std::error::Error for UnknownActor {}

/// The [`ActorScope`] of the actor `id` names: an actor id from [`actors`], or the id of one of
/// its entities.
pub fn actor_scope(state: &GraphState, id: &str) -> Result<ActorScope, UnknownActor> {
    let actors = actors(state);
    let Some(actor) = actors
        .iter()
        .find(|a| a.id == id || a.entities.iter().any(|e| e == id))
    else {
        let mut joined: Vec<String> = actors
            .iter()
            .filter(|a| a.entities.len() > 1)
            .map(|a| a.id.clone())
            .collect();
        joined.sort_unstable();
        return Err(UnknownActor {
            id: id.to_string(),
            joined,
        });
    };
    let mut scope = ActorScope {
        actor_id: actor.id.clone(),
        ..ActorScope::default()
    };
    for entity_id in &actor.entities {
        let Some(e) = state.entities().get(entity_id) else {
            continue;
        };
        if e.context == "owner" || e.context == "device" {
            scope.sources.insert(e.source_id.clone());
        }
        for i in e
            .identifiers
            .iter()
            .filter(|i| i.strength == Strength::Strong)
        {
            scope.identifiers.insert(i.normalized.clone());
            scope.phenomena.insert(i.phenomenon_id.clone());
        }
    }
    Ok(scope)
}

fn actor(
    members: &[&Entity],
    mentioned_in: Vec<String>,
    joined_by: Vec<String>,
    demoted: &HashMap<(KeySpace, String), String>,
) -> Actor {
    let first = members.first().map(|e| e.id.as_str()).unwrap_or_default();
    let id = format!("actor-{}", first.strip_prefix("ent-").unwrap_or(first));
    let mut sources: Vec<String> = members.iter().map(|e| e.source_id.clone()).collect();
    sources.sort();
    sources.dedup();
    let mut identifiers: BTreeMap<(IdType, String), ActorIdentifier> = BTreeMap::new();
    for e in members {
        for i in &e.identifiers {
            let entry = identifiers
                .entry((i.id_type, i.normalized.clone()))
                .or_insert_with(|| ActorIdentifier {
                    id_type: i.id_type,
                    normalized: i.normalized.clone(),
                    strength: i.strength,
                    entities: Vec::new(),
                    not_used: crate::identifiers::placeholder(i.id_type, &i.value)
                        .map(|why| format!("placeholder: {why}"))
                        .or_else(|| demoted.get(&key(i)).map(|why| format!("demoted: {why}"))),
                    claimed_by: Vec::new(),
                });
            if !entry.entities.contains(&e.id) {
                entry.entities.push(e.id.clone());
            }
            if i.is_claim() && !entry.claimed_by.contains(&e.id) {
                entry.claimed_by.push(e.id.clone());
            }
        }
    }
    // Labels of entities that carry a name (a contact card, an account's display name, an
    // author) name the actor better than a handle's or a document's label.
    let named: Vec<&Entity> = members
        .iter()
        .copied()
        .filter(|e| {
            e.identifiers
                .iter()
                .any(|i| matches!(i.id_type, IdType::DisplayName | IdType::Nickname))
        })
        .collect();
    let pool: Vec<&Entity> = if named.is_empty() {
        members.to_vec()
    } else {
        named
    };
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for e in pool.iter().filter(|e| !e.label.trim().is_empty()) {
        *counts.entry(e.label.as_str()).or_default() += 1;
    }
    let best = pool
        .iter()
        .filter(|e| !e.label.trim().is_empty())
        .max_by(|x, y| {
            let (cx, cy) = (counts.get(x.label.as_str()), counts.get(y.label.as_str()));
            // Most frequent; among equals the first by entity id (max_by keeps the last max,
            // so compare ids in reverse).
            cx.cmp(&cy).then_with(|| y.id.cmp(&x.id))
        })
        .map(|e| e.label.clone());
    let label = best.unwrap_or_else(|| {
        identifiers
            .values()
            .find(|i| i.strength == Strength::Strong)
            .map(|i| i.normalized.clone())
            .unwrap_or_default()
    });
    Actor {
        id,
        label,
        entities: members.iter().map(|e| e.id.clone()).collect(),
        mentioned_in,
        sources,
        identifiers: identifiers.into_values().collect(),
        joined_by,
        contested: Vec::new(),
    }
}

/// A `same_as` edge or a candidate pair, as `masf links` shows it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LinkView {
    /// The `same_as` edge id (`sa-000003-000007`); also given for candidates that have none
    /// yet, so their id is known.
    pub id: String,
    /// Whether the pair has a `same_as` edge (else it is a candidate below the threshold).
    pub exists: bool,
    /// `live`, `dormant`, `approved`, `retracted`, or `candidate` when no edge exists.
    pub state: String,
    /// `coreference` (a and b are one actor) or `control` (the wallet is controlled by the
    /// person).
    pub relation: Relation,
    /// The two entities.
    pub a: EntityRef,
    /// The two entities.
    pub b: EntityRef,
    /// The current coreference hypothesis.
    pub hypothesis_id: String,
    /// Its confidence.
    pub confidence: f64,
    /// Its status.
    pub status: Status,
    /// Its revisions, oldest first.
    pub revisions: Vec<String>,
    /// Its edges with the identifiers they cite.
    pub evidence: Vec<EvidenceView>,
    /// The examiner's decisions.
    pub decisions: Vec<crate::model::SameAsDecision>,
}

/// An entity, briefly.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EntityRef {
    /// Its id.
    pub id: String,
    /// Its label.
    pub label: String,
    /// Its source.
    pub source_id: String,
    /// Its context.
    pub context: String,
    /// What it is (none for an id the graph does not hold).
    pub kind: Option<EntityKind>,
}

/// One edge of a coreference hypothesis.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EvidenceView {
    /// The identity phenomenon.
    pub phenomenon_id: String,
    /// Its edge type.
    pub edge_type: EdgeType,
    /// Its contribution to the log-odds.
    pub contribution: f64,
    /// The entity whose identifier it observed.
    pub entity_id: String,
    /// The identifier's type.
    pub id_type: Option<IdType>,
    /// The identifier, normalised.
    pub normalized: String,
}

/// Every pair with a coreference hypothesis: `same_as` edges first (by id), then the
/// candidates that never reached the threshold.
pub fn links(state: &GraphState) -> Vec<LinkView> {
    let mut by_phenomenon: HashMap<&str, (&Entity, &Identifier)> = HashMap::new();
    for e in state.entities().values() {
        for i in &e.identifiers {
            by_phenomenon.insert(i.phenomenon_id.as_str(), (e, i));
        }
    }
    let entity_ref = |id: &str| {
        state.entities().get(id).map_or_else(
            || EntityRef {
                id: id.to_owned(),
                label: String::new(),
                source_id: String::new(),
                context: String::new(),
                kind: None,
            },
            |e| EntityRef {
                id: e.id.clone(),
                label: e.label.clone(),
                source_id: e.source_id.clone(),
                context: e.context.clone(),
                kind: Some(e.kind),
            },
        )
    };
    let mut out: Vec<LinkView> = state
        .coreference_pairs()
        .filter_map(|((a, b), revisions)| {
            let current = state.hypotheses().get(revisions.last()?)?;
            let id = same_as_id(a, b);
            let edge = state.same_as().get(&id);
            let evidence = current
                .edges
                .iter()
                .map(|e| {
                    let found = by_phenomenon.get(e.phenomenon_id.as_str());
                    EvidenceView {
                        phenomenon_id: e.phenomenon_id.clone(),
                        edge_type: e.edge_type,
                        contribution: e.contribution,
                        entity_id: found.map(|(en, _)| en.id.clone()).unwrap_or_default(),
                        id_type: found.map(|(_, i)| i.id_type),
                        normalized: found.map(|(_, i)| i.normalized.clone()).unwrap_or_default(),
                    }
                })
                .collect();
            Some(LinkView {
                id,
                exists: edge.is_some(),
                state: edge.map_or("candidate", |e| e.state.as_str()).to_owned(),
                relation: Relation::of(current.kind),
                a: entity_ref(a),
                b: entity_ref(b),
                hypothesis_id: current.id.clone(),
                confidence: current.confidence,
                status: current.status,
                revisions: revisions.clone(),
                evidence,
                decisions: edge.map(|e| e.decisions.clone()).unwrap_or_default(),
            })
        })
        .collect();
    out.sort_by(|x, y| y.exists.cmp(&x.exists).then_with(|| x.id.cmp(&y.id)));
    out
}

/// Why an edge (or candidate pair) stands as it does: its [`LinkView`] and, for each edge of
/// its hypothesis, the phenomenon that edge cites (title, interpretation — which names the
/// pattern for a control claim — and its verified facts with their invocations).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Explanation {
    /// The link.
    pub link: LinkView,
    /// One per evidence edge, in the link's order.
    pub evidence: Vec<ExplainedEvidence>,
}

/// One evidence edge explained.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ExplainedEvidence {
    /// The edge.
    pub edge: EvidenceView,
    /// The cited phenomenon's source.
    pub source_id: String,
    /// Its title.
    pub title: String,
    /// Its interpretation.
    pub interpretation: String,
    /// Its verified facts, each with the invocation whose output holds it.
    pub facts: Vec<crate::model::Fact>,
}

/// The explanation of the edge or candidate pair `edge_id`, if the graph has one.
pub fn explain(state: &GraphState, edge_id: &str) -> Option<Explanation> {
    let link = links(state).into_iter().find(|l| l.id == edge_id)?;
    let evidence = link
        .evidence
        .iter()
        .map(|e| {
            let p = state.phenomena().get(&e.phenomenon_id);
            ExplainedEvidence {
                edge: e.clone(),
                source_id: p.map(|p| p.source_id.clone()).unwrap_or_default(),
                title: p.map(|p| p.title.clone()).unwrap_or_default(),
                interpretation: p.map(|p| p.interpretation.clone()).unwrap_or_default(),
                facts: p.map(|p| p.verified_facts.clone()).unwrap_or_default(),
            }
        })
        .collect();
    Some(Explanation { link, evidence })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_covers_every_type_once_and_agrees_with_identifiers() {
        let order: Vec<IdType> = TABLE.iter().map(|r| r.id_type).collect();
        assert_eq!(
            order,
            IdType::ALL,
            "the table is in the order of IdType::ALL"
        );
        for (i, t) in IdType::ALL.iter().enumerate() {
            assert_eq!(*t as usize, i, "IdType::ALL is in declaration order");
        }
        for t in IdType::ALL {
            let rows: Vec<_> = TABLE.iter().filter(|r| r.id_type == t).collect();
            assert_eq!(rows.len(), 1, "{t}");
            assert_eq!(rows[0].strength, t.strength(), "{t}");
        }
        assert!(single_valued(EntityKind::Device, IdType::Imei));
        assert!(single_valued(EntityKind::Device, IdType::Serial));
        assert!(!single_valued(EntityKind::Person, IdType::Phone));
        assert!(!single_valued(EntityKind::Device, IdType::Iccid));
        assert!(single_valued(EntityKind::Wallet, IdType::Wallet));
    }

    fn check_key(a: &str, b: &str, same: bool) {
        assert_eq!(name_key(a) == name_key(b), same, "{a:?} vs {b:?}");
    }

    #[test]
    fn name_keys_ignore_case_space_punctuation_and_order() {
        check_key("CHAN Man Ho", "chan  man ho", true);
        check_key("CHAN Man Ho", "Man-Ho, CHAN", true);
        check_key("FUNG CC’s iPhone", "fung cc's iphone", true);
        check_key("LEUNG YL", "Leung YL", true);
        check_key("LEUNG Y L", "LEUNG YL", false);
        assert_eq!(compact_name("LEUNG Y L"), compact_name("Leung YL"));
        assert_eq!(name_key(" ,. "), "");
    }

    fn check_jw(a: &str, b: &str, expect: f64) {
        let got = jaro_winkler(a, b);
        assert!((got - expect).abs() < 5e-3, "{a} {b}: {got}");
    }

    #[test]
    fn jaro_winkler_known_values() {
        // Winkler's published examples.
        check_jw("martha", "marhta", 0.961);
        check_jw("dwayne", "duane", 0.840);
        check_jw("dixon", "dicksonx", 0.813);
        check_jw("", "", 1.0);
        check_jw("abc", "", 0.0);
        assert!(similar_names("LEUNG Y L", "LEUNG YL"));
        assert!(similar_names("WONG Ka Ming", "WONG Ka Mimg"));
        assert!(similar_names("Man Ho CHAN", "CHAN Man-Ho"));
        assert!(!similar_names("CHAN Man Ho", "CHAN MH"));
        assert!(!similar_names("CHAN MH", "CHAN TM"));
        assert!(!similar_names("LEUNG YL", "LEUNG YK"));
        assert!(!similar_names("LEUNG YL", "FUNG CC"));
    }
}
