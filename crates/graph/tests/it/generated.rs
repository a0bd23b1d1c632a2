//! Generated multi-device cases (issue 16): who is who, and who controls which wallet, on
//! seeded cases no rule was written for. Each case has six people in six numbering regions,
//! each owning one phone; two look-alike decoys (a name that differs by a space) in some
//! address books; numbers written nationally (same region), internationally (other regions)
//! and as WhatsApp JIDs; every wallet announced by its holder ("my address is …") to one to
//! three contacts — seen sent on the holder's phone and received on the contact's — and,
//! sometimes, quoted back by a payer, seen on both phones too: mostly as "sent … to 0x…" (the
//! plugins read the reader as its holder, `plugins::identity::holder_from_text`), sometimes
//! as a bare address (read as the writer's: a wrong claim that competes); a screenshot
//! folder that shows wallets and nobody. Three people announce no wallet in any message: one
//! is named as the payee of theirs in another person's document, one keeps notes of their
//! number and wallet ("receive: …"), one wrote a document with their address bare. One person
//! changes number and tells two contacts so ("my new number is …", a contact claim); the new
//! number shows up on a third phone only as a message handle; one of the two forwards the text
//! to someone else (a competing claim: the forwarder's own, rival to the mover's on the
//! forwarder's phone). One person writes "my WeChat is …" to a contact, and a third phone
//! holds only a WeChat record of that id (an account-id claim). Every observation goes through the gateway as a
//! triage agent's would (grounded in a tool output), then the resolver settles.
//!
//! Scored by B-cubed over entities against the generator's truth (each entity's person;
//! a wallet entity's person is the wallet's holder), decoy merges counted apart. Run with
//! `--nocapture` to see each seed's figures.

use std::collections::{BTreeMap, BTreeSet};

use masf_graph::identifiers::normalize;
use masf_graph::resolution;
use masf_graph::{EntityKind, IdType, Region};

use crate::resolution::World;

/// xorshift64*: deterministic, no dependency.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Self {
        Self(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn chance(&mut self, p: f64) -> bool {
        ((self.next() >> 11) as f64 / (1u64 << 53) as f64) < p
    }
    fn digits(&mut self, n: usize) -> String {
        (0..n)
            .map(|_| char::from(b'0' + self.below(10) as u8))
            .collect()
    }
}

/// A number in its international and national written forms.
struct Number {
    international: String,
    national: String,
    e164: String,
}

/// Writes a mobile number of `region` in the forms people use there; each is checked against
/// libphonenumber's metadata (through the one normaliser), so a template the metadata does
/// not accept is caught here, not tuned around.
fn number(rng: &mut Rng, region: &str) -> Number {
    for _ in 0..100 {
        let (international, national) = match region {
            "HK" => {
                let d = format!("9{}", rng.digits(7));
                (format!("+852 {d}"), format!("{} {}", &d[..4], &d[4..]))
            }
            "US" => {
                let area = ["212", "415", "617", "919"][rng.below(4)];
                let ex = format!("{}{}", 2 + rng.below(8), rng.digits(2));
                let line = rng.digits(4);
                (
                    format!("+1 {area} {ex} {line}"),
                    format!("({area}) {ex}-{line}"),
                )
            }
            "GB" => {
                let d = rng.digits(6);
                (format!("+44 7911 {d}"), format!("07911 {d}"))
            }
            "BR" => {
                let (a, b) = (rng.digits(4), rng.digits(4));
                (format!("+55 11 9{a} {b}"), format!("(11) 9{a}-{b}"))
            }
            "MX" => {
                let (a, b) = (rng.digits(4), rng.digits(4));
                (format!("+52 55 {a} {b}"), format!("55 {a} {b}"))
            }
            "DE" => {
                let d = format!("{}{}", 1 + rng.below(9), rng.digits(7));
                (format!("+49 151 {d}"), format!("0151 {d}"))
            }
            other => panic!("no template for {other}"),
        };
        let region_code = Region::parse(region).expect("a region");
        let (Ok(a), Ok(b)) = (
            normalize(IdType::Phone, &international, None),
            normalize(IdType::Phone, &national, Some(&region_code)),
        ) else {
            continue;
        };
        if a == b {
            return Number {
                international,
                national,
                e164: a,
            };
        }
    }
    panic!("no valid {region} number in 100 tries: the template is wrong");
}

const REGIONS: [&str; 6] = ["HK", "US", "GB", "BR", "MX", "DE"];
const SURNAMES: [&str; 8] = [
    "LEUNG", "CHAN", "SILVA", "MULLER", "GARCIA", "SMITH", "WONG", "HO",
];
const INITIALS: [&str; 8] = ["YL", "MH", "CC", "KW", "JP", "AR", "TS", "LK"];

struct Person {
    name: String,
    region: &'static str,
    phone: Number,
    email: String,
    wallet: String,
}

/// What the generator made, and the truth: the person (or decoy) of each entity.
struct Case {
    world: World,
    truth: BTreeMap<(String, String), String>,
    decoys: BTreeSet<String>,
}

fn jid(n: &Number) -> String {
    format!("{}@s.whatsapp.net", n.e164.trim_start_matches('+'))
}

fn generate(seed: u64) -> Case {
    let mut rng = Rng::new(seed);
    let mut people: Vec<Person> = Vec::new();
    let mut order: Vec<usize> = (0..SURNAMES.len()).collect();
    for i in (1..order.len()).rev() {
        order.swap(i, rng.below(i + 1));
    }
    for (k, &n) in order.iter().take(6).enumerate() {
        let region = REGIONS[k];
        let surname = SURNAMES[n];
        let initials = INITIALS[rng.below(INITIALS.len())];
        people.push(Person {
            name: format!("{surname} {initials}"),
            region,
            phone: number(&mut rng, region),
            email: format!(
                "{}.{}{seed}@example.org",
                initials.to_lowercase(),
                surname.to_lowercase()
            ),
            wallet: format!(
                "0x{:016x}{:016x}{:08x}",
                rng.next(),
                rng.next(),
                rng.next() as u32
            ),
        });
    }
    // Two decoys: the names of people 0 and 1 with a space between the initials, their own
    // numbers (in the same regions) and nothing else in common.
    let decoys: Vec<Person> = (0..2)
        .map(|i| {
            let p = &people[i];
            let (surname, initials) = p.name.split_once(' ').unwrap();
            let spaced: Vec<String> = initials.chars().map(String::from).collect();
            Person {
                name: format!("{surname} {}", spaced.join(" ")),
                region: p.region,
                phone: number(&mut rng, p.region),
                email: format!("decoy{i}.{seed}@example.net"),
                wallet: String::new(),
            }
        })
        .collect();

    let mut w = World::new();
    let mut truth: BTreeMap<(String, String), String> = BTreeMap::new();
    let dev = |i: usize| format!("dev-{i}");
    let observe = |w: &mut World,
                   truth: &mut BTreeMap<(String, String), String>,
                   source: &str,
                   context: &str,
                   kind: EntityKind,
                   label: &str,
                   id_type: IdType,
                   value: &str,
                   region: &str,
                   who: &str| {
        w.observe_in(source, context, kind, label, id_type, value, region, None);
        truth.insert((source.to_owned(), context.to_owned()), who.to_owned());
    };
    // Owners: their own number (as the SIM or WhatsApp shows it) and account.
    for (i, p) in people.iter().enumerate() {
        let own = if rng.chance(0.5) {
            p.phone.international.clone()
        } else {
            jid(&p.phone)
        };
        let s = dev(i);
        let who = format!("p{i}");
        observe(
            &mut w,
            &mut truth,
            &s,
            "owner",
            EntityKind::Person,
            "device owner",
            IdType::Phone,
            &own,
            p.region,
            &who,
        );
        observe(
            &mut w,
            &mut truth,
            &s,
            "owner",
            EntityKind::Person,
            "device owner",
            IdType::Email,
            &p.email,
            p.region,
            &who,
        );
    }
    // Address books: some of the others, the decoys in some; national numbers for the same
    // region, international ones otherwise.
    let mut books: Vec<BTreeMap<usize, String>> = vec![BTreeMap::new(); people.len()];
    for (i, owner) in people.iter().enumerate() {
        let s = dev(i);
        let mut card = 0;
        for (j, q) in people.iter().enumerate() {
            if i == j || !rng.chance(0.6) {
                continue;
            }
            card += 1;
            let context = format!("contact:{card}");
            let written = if q.region == owner.region {
                q.phone.national.clone()
            } else {
                q.phone.international.clone()
            };
            let who = format!("p{j}");
            observe(
                &mut w,
                &mut truth,
                &s,
                &context,
                EntityKind::Person,
                &q.name,
                IdType::DisplayName,
                &q.name,
                owner.region,
                &who,
            );
            observe(
                &mut w,
                &mut truth,
                &s,
                &context,
                EntityKind::Person,
                &q.name,
                IdType::Phone,
                &written,
                owner.region,
                &who,
            );
            if rng.chance(0.5) {
                observe(
                    &mut w,
                    &mut truth,
                    &s,
                    &context,
                    EntityKind::Person,
                    &q.name,
                    IdType::Email,
                    &q.email,
                    owner.region,
                    &who,
                );
            }
            books[i].insert(j, context);
        }
        for (d, q) in decoys.iter().enumerate() {
            if !rng.chance(0.5) {
                continue;
            }
            card += 1;
            let context = format!("contact:{card}");
            let written = if q.region == owner.region {
                q.phone.national.clone()
            } else {
                q.phone.international.clone()
            };
            let who = format!("decoy{d}");
            observe(
                &mut w,
                &mut truth,
                &s,
                &context,
                EntityKind::Person,
                &q.name,
                IdType::DisplayName,
                &q.name,
                owner.region,
                &who,
            );
            observe(
                &mut w,
                &mut truth,
                &s,
                &context,
                EntityKind::Person,
                &q.name,
                IdType::Phone,
                &written,
                owner.region,
                &who,
            );
        }
    }
    // A message from `from` to `to` holding `wallet` (the holder's), seen on both phones, each
    // side observed as the plugins do: the counterparty, the wallet entity, and the claim of
    // `claimant` — the party the words before the address name (the writer for "my address is
    // …" or a bare address, the reader for "sent … to …"): on the claimant's own phone their
    // `owner` entity, on the other phone the claimant's card or handle.
    let message = |w: &mut World,
                   truth: &mut BTreeMap<(String, String), String>,
                   rng: &mut Rng,
                   from: usize,
                   to: usize,
                   wallet: &str,
                   holder: usize,
                   claimant: usize,
                   cue: Option<&str>| {
        let whatsapp = rng.chance(0.5);
        let (pf, pt) = (&people[from], &people[to]);
        let holder_tag = format!("p{holder}");
        for (side, other, region) in [(from, to, pf.region), (to, from, pt.region)] {
            let s = dev(side);
            let q = &people[other];
            let written = if whatsapp {
                jid(&q.phone)
            } else {
                q.phone.international.clone()
            };
            let context = books[side]
                .get(&other)
                .cloned()
                .unwrap_or_else(|| format!("handle:{}", q.phone.e164));
            let who = format!("p{other}");
            observe(
                w,
                truth,
                &s,
                &context,
                EntityKind::Person,
                &written,
                IdType::Phone,
                &written,
                region,
                &who,
            );
            let wallet_ctx = format!("wallet:{wallet}");
            observe(
                w,
                truth,
                &s,
                &wallet_ctx,
                EntityKind::Wallet,
                wallet,
                IdType::Wallet,
                wallet,
                region,
                &holder_tag,
            );
            let claim = if side == claimant {
                "owner".to_owned()
            } else {
                context.clone()
            };
            w.observe_in(
                &s,
                &claim,
                EntityKind::Person,
                "claimant",
                IdType::Wallet,
                wallet,
                region,
                cue,
            );
            truth.insert((s.clone(), claim), format!("p{claimant}"));
        }
    };
    // Three people announce their wallet in no message: one is named as the payee in a payer's
    // document, one keeps notes of their own number and wallet ("receive: …"), one wrote a
    // document that holds their address bare (its author).
    let by_document = [3usize, 4, 5];
    let mut quotes = 0;
    for i in 0..people.len() {
        if by_document.contains(&i) {
            continue;
        }
        let mut others: Vec<usize> = (0..people.len()).filter(|&j| j != i).collect();
        for k in (1..others.len()).rev() {
            others.swap(k, rng.below(k + 1));
        }
        let n = 1 + rng.below(3);
        for &to in others.iter().take(n) {
            let wallet = people[i].wallet.clone();
            // "my address is 0x…": the cue names the writer.
            message(
                &mut w,
                &mut truth,
                &mut rng,
                i,
                to,
                &wallet,
                i,
                i,
                Some("my"),
            );
            // The payer quotes the address back once in a while: mostly "sent 0.5 ETH to 0x…"
            // (the reader's, the holder's), sometimes the bare address (read as the writer's:
            // a wrong claim that competes with the holder's).
            if rng.chance(0.25) {
                let (claimant, cue) = if rng.chance(0.75) {
                    (i, Some("sent"))
                } else {
                    (to, None)
                };
                message(
                    &mut w, &mut truth, &mut rng, to, i, &wallet, i, claimant, cue,
                );
                quotes += 1;
            }
        }
    }
    // The documents on USB sticks, observed as the disk plugin does: the wallet entity, then
    // the claim — `named:<name>` for a payee named before it (resolution gives it to the one
    // actor known by that name), the `document:` mention for notes about their writer (given
    // to the actor its number is), `author:<name>` for a bare address in a document they wrote.
    // The named and author entities carry only a name: claim vehicles, not in the truth.
    let document = |w: &mut World,
                    truth: &mut BTreeMap<(String, String), String>,
                    usb: &str,
                    holder: usize,
                    claim: &str,
                    extra: Option<(IdType, &str)>,
                    cue: Option<&str>| {
        let p = &people[holder];
        let who = format!("p{holder}");
        observe(
            w,
            truth,
            usb,
            &format!("wallet:{}", p.wallet),
            EntityKind::Wallet,
            &p.wallet,
            IdType::Wallet,
            &p.wallet,
            p.region,
            &who,
        );
        if let Some((t, v)) = extra {
            w.observe_in(usb, claim, EntityKind::Person, claim, t, v, p.region, None);
        }
        w.observe_in(
            usb,
            claim,
            EntityKind::Person,
            claim,
            IdType::Wallet,
            &p.wallet,
            p.region,
            cue,
        );
        if claim.starts_with("document:") {
            truth.insert((usb.to_owned(), claim.to_owned()), who);
        }
    };
    let [payee, notes, author] = by_document;
    let payer = (payee + 1 + rng.below(people.len() - 1)) % people.len();
    let name = people[payee].name.clone();
    document(
        &mut w,
        &mut truth,
        &format!("usb-{payer}"),
        payee,
        &format!("named:{name}"),
        Some((IdType::DisplayName, &name)),
        Some("payee"),
    );
    let phone = people[notes].phone.international.clone();
    document(
        &mut w,
        &mut truth,
        &format!("usb-{notes}"),
        notes,
        "document:/notes.txt",
        Some((IdType::Phone, &phone)),
        Some("receive"),
    );
    let name = people[author].name.clone();
    document(
        &mut w,
        &mut truth,
        &format!("usb-{author}"),
        author,
        &format!("author:{name}"),
        Some((IdType::DisplayName, &name)),
        None,
    );
    // A screenshot folder: a few wallets, no one.
    for (i, p) in people.iter().enumerate() {
        if rng.chance(0.5) {
            let ctx = format!("wallet:{}", p.wallet);
            observe(
                &mut w,
                &mut truth,
                "screens",
                &ctx,
                EntityKind::Wallet,
                &p.wallet,
                IdType::Wallet,
                &p.wallet,
                "HK",
                &format!("p{i}"),
            );
        }
    }
    let _ = quotes;
    // One person changes number: from the old one they text a contact "my new number is …"
    // (a contact claim, cue "my": on their phone the `owner`'s, on the contact's the sender's
    // card or handle), and the new number turns up on a third phone only as a message handle
    // or a card without their name. Only the claim ties it to them.
    // A claim sent from `writer` to `reader` ("my new number is …", "my WeChat is …"), seen
    // on both phones: on the writer's the `owner`'s claim, on the reader's the claim of the
    // writer's card or handle (the sender).
    let claim_sent = |w: &mut World,
                      truth: &mut BTreeMap<(String, String), String>,
                      writer: usize,
                      reader: usize,
                      id_type: IdType,
                      value: &str| {
        for (side, other) in [(writer, reader), (reader, writer)] {
            let s = dev(side);
            let q = &people[other];
            let context = books[side]
                .get(&other)
                .cloned()
                .unwrap_or_else(|| format!("handle:{}", q.phone.e164));
            observe(
                w,
                truth,
                &s,
                &context,
                EntityKind::Person,
                &q.phone.international,
                IdType::Phone,
                &q.phone.international,
                people[side].region,
                &format!("p{other}"),
            );
            let claimant = if side == writer {
                "owner".to_owned()
            } else {
                context
            };
            w.observe_in(
                &s,
                &claimant,
                EntityKind::Person,
                "claimant",
                id_type,
                value,
                people[side].region,
                Some("my"),
            );
            truth.insert((s, claimant), format!("p{writer}"));
        }
    };
    let mover = rng.below(people.len());
    let told = (mover + 1 + rng.below(people.len() - 1)) % people.len();
    let told_too = (0..people.len())
        .find(|&k| k != mover && k != told)
        .unwrap_or(0);
    let region = people[mover].region;
    let new = number(&mut rng, region);
    for reader in [told, told_too] {
        claim_sent(
            &mut w,
            &mut truth,
            mover,
            reader,
            IdType::Phone,
            &new.international,
        );
    }
    // A competing quote: the first one told forwards "my new number is …" to someone else,
    // so their phone holds their own claim beside the mover's handle's (rivals), and the
    // reader's phone the forwarder's. The mover told two, the forwarder one: the mover's
    // claims outweigh the forwarder's, and the forward joins no two people.
    let forwarded_to = (0..people.len())
        .rev()
        .find(|&k| k != mover && k != told)
        .unwrap_or(0);
    claim_sent(
        &mut w,
        &mut truth,
        told,
        forwarded_to,
        IdType::Phone,
        &new.international,
    );
    // An account-id claim: someone writes "my WeChat is …" to a contact, and another phone
    // holds a WeChat record of that id (the namespaced `account_id` a parser writes) and
    // nothing else of theirs. Only the claim ties the record to them.
    let writer = rng.below(people.len());
    let reader = (writer + 1 + rng.below(people.len() - 1)) % people.len();
    let wechat = format!(
        "wx_{}{seed}",
        people[writer].email.split('.').nth(1).unwrap_or("id")
    );
    let wechat: String = wechat
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect();
    claim_sent(&mut w, &mut truth, writer, reader, IdType::Wechat, &wechat);
    let holder = (0..people.len())
        .find(|&k| k != writer && k != reader)
        .unwrap_or(0);
    observe(
        &mut w,
        &mut truth,
        &dev(holder),
        &format!("wechat:{wechat}"),
        EntityKind::Person,
        &wechat,
        IdType::AccountId,
        &format!("wechat:{wechat}"),
        people[holder].region,
        &format!("p{writer}"),
    );
    let third = (0..people.len())
        .find(|&k| k != mover && k != told && k != told_too)
        .unwrap_or(0);
    let written = if people[third].region == region {
        new.national.clone()
    } else {
        new.international.clone()
    };
    observe(
        &mut w,
        &mut truth,
        &dev(third),
        &format!("handle:{}", new.e164),
        EntityKind::Person,
        &written,
        IdType::Phone,
        &written,
        people[third].region,
        &format!("p{mover}"),
    );
    w.settle();
    Case {
        world: w,
        truth,
        decoys: (0..2).map(|d| format!("decoy{d}")).collect(),
    }
}

/// B-cubed precision and recall of the actors against the truth, over the entities `counted`
/// selects (clusters keep every entity), and the number of clusters that hold a decoy
/// together with anyone else.
fn bcubed(case: &Case, counted: impl Fn(&(String, String)) -> bool) -> (f64, f64, usize) {
    let state = &case.world.state;
    let key = |id: &str| {
        let e = &state.entities()[id];
        (e.source_id.clone(), e.context.clone())
    };
    let clusters: Vec<Vec<(String, String)>> = resolution::actors(state)
        .iter()
        .map(|a| a.entities.iter().map(|id| key(id)).collect())
        .collect();
    let (mut p, mut r, mut n) = (0.0, 0.0, 0usize);
    let mut decoy_merges = 0;
    for c in &clusters {
        // Entities outside the truth (a name a document gives, carrying a claim) are not
        // scored.
        let c: Vec<&(String, String)> = c.iter().filter(|k| case.truth.contains_key(*k)).collect();
        let all: Vec<&String> = c.iter().map(|k| &case.truth[*k]).collect();
        let distinct: BTreeSet<&&String> = all.iter().collect();
        if distinct.len() > 1 && distinct.iter().any(|l| case.decoys.contains(**l)) {
            decoy_merges += 1;
        }
        // Clusters and truth both restricted to the counted entities.
        let c: Vec<&&(String, String)> = c.iter().filter(|k| counted(k)).collect();
        let labels: Vec<&String> = c.iter().map(|k| &case.truth[*k]).collect();
        for l in &labels {
            let same_in_cluster = labels.iter().filter(|x| x == &l).count() as f64;
            let same_in_truth = case
                .truth
                .iter()
                .filter(|(k, x)| counted(k) && x == l)
                .count() as f64;
            p += same_in_cluster / c.len() as f64;
            r += same_in_cluster / same_in_truth;
            n += 1;
        }
    }
    let expected = case.truth.keys().filter(|k| counted(k)).count();
    assert_eq!(n, expected, "every entity is in exactly one cluster");
    (p / n as f64, r / n as f64, decoy_merges)
}

/// Issue 16's targets: B-cubed precision ≥ 0.99 and recall ≥ 0.95 with wallets included, no
/// decoy merge, over five seeds. A claim named by a cue word ("my address is …") weighs twice
/// a bare address read as the writer's, so a payer's bare quote no longer ties with a holder's
/// one announcement.
#[test]
fn generated_cases_resolve_people_and_wallets_with_b_cubed_at_the_targets() {
    let mut worst = (1.0f64, 1.0f64, 1.0f64);
    for seed in 1..=12u64 {
        let case = generate(seed);
        let (precision, recall, decoy_merges) = bcubed(&case, |_| true);
        let (_, people_recall, _) = bcubed(&case, |k| !k.1.starts_with("wallet:"));
        println!(
            "seed {seed}: {} entities, B-cubed precision {precision:.4}, recall {recall:.4} \
             (people only {people_recall:.4}), decoy merges {decoy_merges}",
            case.truth.len()
        );
        assert_eq!(decoy_merges, 0, "seed {seed}: a decoy merged");
        worst = (
            worst.0.min(precision),
            worst.1.min(recall),
            worst.2.min(people_recall),
        );
    }
    println!(
        "worst over 12 seeds: precision {:.4}, recall {:.4}, people-only recall {:.4}",
        worst.0, worst.1, worst.2
    );
    assert!(worst.0 >= 0.99, "precision {:.4} < 0.99", worst.0);
    assert!(worst.2 >= 0.95, "people-only recall {:.4} < 0.95", worst.2);
    assert!(worst.1 >= 0.95, "recall with wallets {:.4} < 0.95", worst.1);
}
