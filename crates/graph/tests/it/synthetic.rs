//! Synthetic entities for the resolution tests and the benchmark (`benches/resolution.rs`
//! includes this file): people seen in several sources, devices with a moved SIM, a hotline
//! in many address books, and many people sharing common names. Deterministic per seed.

#![allow(dead_code)]

use masf_graph::identifiers::collapse_whitespace;
use masf_graph::{Entity, EntityKind, IdType, Identifier};

/// Entities and the true cluster (a person, device or hotline number) of each.
pub struct Synthetic {
    /// The entities, ids `ent-000001` … in order.
    pub entities: Vec<Entity>,
    /// `truth[i]` is the cluster of `entities[i]`.
    pub truth: Vec<usize>,
}

impl Synthetic {
    /// Number of identifiers.
    pub fn identifiers(&self) -> usize {
        self.entities.iter().map(|e| e.identifiers.len()).sum()
    }

    /// The true clusters as sorted index lists, sorted by first member.
    pub fn true_clusters(&self) -> Vec<Vec<usize>> {
        let mut by: std::collections::BTreeMap<usize, Vec<usize>> = Default::default();
        for (i, &c) in self.truth.iter().enumerate() {
            by.entry(c).or_default().push(i);
        }
        let mut out: Vec<Vec<usize>> = by.into_values().collect();
        out.sort_by_key(|g| g.first().copied());
        out
    }
}

const SURNAMES: [&str; 40] = [
    "CHAN", "LEUNG", "WONG", "LEE", "CHEUNG", "LAU", "HO", "NG", "LAM", "TSANG", "LI", "YEUNG",
    "CHOW", "TSE", "TANG", "KWOK", "LO", "FUNG", "MAK", "YIP", "SO", "TAM", "LAI", "CHOI", "KWAN",
    "POON", "SIU", "CHIU", "LUK", "HUI", "MA", "CHU", "LOK", "KONG", "KO", "YU", "TO", "WAN",
    "PANG", "CHENG",
];

/// SplitMix64.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}

struct Builder {
    entities: Vec<Entity>,
    truth: Vec<usize>,
    phenomenon: u64,
}

impl Builder {
    fn entity(&mut self, cluster: usize, kind: EntityKind, label: &str, ids: &[(IdType, String)]) {
        let n = self.entities.len() + 1;
        let source = format!("src-{}", n % 7);
        let identifiers = ids
            .iter()
            .map(|(id_type, value)| {
                self.phenomenon += 1;
                let normalized = match id_type.strength() {
                    masf_graph::Strength::Weak => collapse_whitespace(value).to_lowercase(),
                    masf_graph::Strength::Strong => value.clone(),
                };
                Identifier {
                    id_type: *id_type,
                    value: value.clone(),
                    normalized,
                    strength: id_type.strength(),
                    phenomenon_id: format!("ph-{:07}", self.phenomenon),
                    cue: None,
                }
            })
            .collect();
        self.entities.push(Entity {
            id: format!("ent-{n:06}"),
            kind,
            label: label.to_owned(),
            source_id: source,
            context: format!("contact:{n}"),
            identifiers,
        });
        self.truth.push(cluster);
    }
}

/// About `n` entities with about three identifiers each.
pub fn generate(n: usize, seed: u64) -> Synthetic {
    let mut rng = Rng(seed);
    let mut b = Builder {
        entities: Vec::with_capacity(n + 8),
        truth: Vec::with_capacity(n + 8),
        phenomenon: 0,
    };
    // One hotline in 100 address books: one cluster, a strong block above the chain limit.
    let hotline = n.min(100 * 100) / 100;
    for _ in 0..hotline {
        b.entity(
            0,
            EntityKind::Person,
            "Bank Hotline",
            &[
                (IdType::Phone, "+85222222222".into()),
                (IdType::DisplayName, "Bank Hotline".into()),
            ],
        );
    }
    let mut cluster = 1;
    while b.entities.len() < n {
        let k = 2 + rng.below(5) as usize; // 2..=6 entities
        if cluster % 5 == 0 {
            // A device seen in k sources; every 10th shares its SIM with the previous device
            // (a moved SIM: shared ICCID, conflicting serials, not the same device).
            let serial = format!("SN{cluster:08}");
            let iccid = if cluster % 10 == 0 {
                format!("8985200{:013}", cluster - 5)
            } else {
                format!("8985200{cluster:013}")
            };
            let owner = SURNAMES[rng.below(40) as usize];
            let device_name = format!("{owner} {}'s phone", rng.below(1000));
            for _ in 0..k {
                b.entity(
                    cluster,
                    EntityKind::Device,
                    "",
                    &[
                        (IdType::Serial, serial.clone()),
                        (IdType::Iccid, iccid.clone()),
                        (IdType::DeviceName, device_name.clone()),
                    ],
                );
            }
        } else {
            let surname = SURNAMES[rng.below(40) as usize];
            let initials: String = (0..2)
                .map(|_| char::from(b'A' + rng.below(26) as u8))
                .collect();
            let name = format!("{surname} {initials}");
            let phone = format!("+8526{:07}", cluster % 10_000_000);
            let email = format!("p{cluster}@example.com");
            for j in 0..k {
                let own = format!("+8529{:07}", (b.entities.len() + 1) % 10_000_000);
                let shown = if j % 2 == 0 {
                    name.clone()
                } else {
                    format!("{} {}", initials, surname.to_lowercase())
                };
                let strong = match j % 3 {
                    0 => [
                        (IdType::Phone, phone.clone()),
                        (IdType::Email, email.clone()),
                    ],
                    1 => [(IdType::Phone, phone.clone()), (IdType::Phone, own)],
                    _ => [(IdType::Email, email.clone()), (IdType::Phone, own)],
                };
                let [s1, s2] = strong;
                b.entity(
                    cluster,
                    EntityKind::Person,
                    &shown,
                    &[(IdType::DisplayName, shown.clone()), s1, s2],
                );
            }
        }
        cluster += 1;
    }
    Synthetic {
        entities: b.entities,
        truth: b.truth,
    }
}

/// [`generate`] plus wallets: every third person cluster holds an address, claimed by two of
/// its entities (the holder's own messages) and held by two wallet entities (the wallet seen
/// in two sources: their truth is the holder's cluster); every ninth is also quoted once by an
/// entity of the cluster before it (a bare quote: one competing claim against the holder's
/// two, which the holder wins).
pub fn generate_with_wallets(n: usize, seed: u64) -> Synthetic {
    let mut s = generate(n, seed);
    let mut phenomenon: u64 = 900_000_000;
    let mut members: std::collections::BTreeMap<usize, Vec<usize>> = Default::default();
    for (i, (&c, e)) in s.truth.iter().zip(&s.entities).enumerate() {
        if c != 0 && e.kind == EntityKind::Person {
            members.entry(c).or_default().push(i);
        }
    }
    let mut claim = |e: &mut Entity, address: &str| {
        phenomenon += 1;
        e.identifiers.push(Identifier {
            id_type: IdType::Wallet,
            value: address.to_owned(),
            normalized: address.to_owned(),
            strength: IdType::Wallet.strength(),
            phenomenon_id: format!("ph-{phenomenon:09}"),
            cue: None,
        });
    };
    let mut wallets = Vec::new();
    let clusters: Vec<usize> = members.keys().copied().collect();
    for (k, &c) in clusters.iter().enumerate() {
        if c % 3 != 0 {
            continue;
        }
        let address = format!("0x{c:040x}");
        let holders = &members[&c];
        for &i in holders.iter().take(2) {
            claim(&mut s.entities[i], &address);
        }
        if c % 9 == 0 && holders.len() >= 2 && k > 0 {
            let quoter = members[&clusters[k - 1]][0];
            claim(&mut s.entities[quoter], &address);
        }
        wallets.push((c, address));
    }
    for (c, address) in wallets {
        for _ in 0..2 {
            let n = s.entities.len() + 1;
            phenomenon += 1;
            s.entities.push(Entity {
                id: format!("ent-{n:06}"),
                kind: EntityKind::Wallet,
                label: address.clone(),
                source_id: format!("src-{}", n % 7),
                context: format!("wallet:{address}"),
                identifiers: vec![Identifier {
                    id_type: IdType::Wallet,
                    value: address.clone(),
                    normalized: address.clone(),
                    strength: IdType::Wallet.strength(),
                    phenomenon_id: format!("ph-{phenomenon:09}"),
                    cue: None,
                }],
            });
            s.truth.push(c);
        }
    }
    s
}
