//! Grounding throughput: 10,000 facts checked against an in-memory log of 100,000 invocations
//! with ~4 KiB outputs, spread over 1,000 agents × 10 tasks (10 invocations per agent and task).
//!
//! The fact mix is what an LLM agent produces: 80 % cite the right invocation (verbatim), 10 %
//! cite a wrong id and are rescued, 5 % are phone numbers matched after E.164 normalisation,
//! 5 % are absent paths and 1 % absent phone numbers, which fail only after every applicable
//! normalisation was tried on all of the agent's invocations in the task (the worst case).
//!
//! `cargo bench -p masf-graph --bench grounding` prints the time per fact for the whole mix and
//! for each kind of fact, then runs the criterion measurement of the whole mix.

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use masf_graph::{Asker, FactClaim, FactType, MemoryInvocation, MemoryLog, Region, ground_fact};

const AGENTS: usize = 1_000;
const TASKS: usize = 10;
const PER_TASK: usize = 10;
const OUTPUT_BYTES: usize = 4 * 1024;
const FACTS: usize = 10_000;

/// xorshift64*: reproducible pseudo-random numbers without a dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

const WORDS: [&str; 16] = [
    "data",
    "mobile",
    "Library",
    "SMS",
    "com.whatsapp",
    "databases",
    "msgstore",
    "contacts2",
    "Accounts3",
    "ChatStorage",
    "media",
    "DCIM",
    "Documents",
    "wallet",
    "backup",
    "cache",
];

/// One ~4 KiB tool output: lines of paths, phones (written locally), hashes, times.
fn output(rng: &mut Rng, n: usize) -> Vec<u8> {
    let mut out = String::with_capacity(OUTPUT_BYTES + 200);
    let mut row = 0;
    while out.len() < OUTPUT_BYTES {
        let w = |rng: &mut Rng| WORDS[rng.below(WORDS.len())];
        out.push_str(&format!(
            "{n}.{row}|/private/var/{}/{}/{}-{:08x}.db|{} {}|{:016x}{:016x}|2024-{:02}-{:02} {:02}:{:02}:{:02}\n",
            w(rng),
            w(rng),
            w(rng),
            rng.next() as u32,
            5000 + rng.below(5000),
            1000 + rng.below(9000),
            rng.next(),
            rng.next(),
            1 + rng.below(12),
            1 + rng.below(28),
            rng.below(24),
            rng.below(60),
            rng.below(60),
        ));
        row += 1;
    }
    out.into_bytes()
}

fn build_log(rng: &mut Rng) -> MemoryLog {
    let mut log = MemoryLog::new();
    let mut n = 0;
    for agent in 0..AGENTS {
        for task in 0..TASKS {
            for _ in 0..PER_TASK {
                n += 1;
                log.push(MemoryInvocation {
                    id: format!("inv-{n:07}"),
                    source_id: format!("src-{}", agent % 5),
                    agent: format!("agent-{agent:04}"),
                    task_id: format!("task-{task}"),
                    output: output(rng, n),
                    structured: None,
                });
            }
        }
    }
    log
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    Verbatim,
    Rescued,
    Phone,
    Absent,
    AbsentPhone,
}

struct Probe {
    agent: String,
    task: String,
    claim: FactClaim,
    kind: Kind,
}

fn build_facts(rng: &mut Rng, log_len: usize) -> Vec<Probe> {
    (0..FACTS)
        .map(|i| {
            let n = 1 + rng.below(log_len);
            let invocation = (n - 1) / PER_TASK;
            let (agent, task) = (invocation / TASKS, invocation % TASKS);
            let kind = match i % 20 {
                _ if i % 100 == 7 => Kind::AbsentPhone,
                0 | 1 => Kind::Rescued,
                2 => Kind::Phone,
                3 => Kind::Absent,
                _ => Kind::Verbatim,
            };
            // A value unique to the invocation: a row prefix that holds its number.
            let (fact_type, value, cited) = match kind {
                Kind::Verbatim => (FactType::Text, format!("{n}.3|/private/var/"), n),
                Kind::Rescued => (FactType::Text, format!("{n}.5|/private/var/"), 9_999_999),
                Kind::Phone => (FactType::Phone, String::new(), n),
                Kind::Absent => (FactType::Path, format!("/nowhere/{n}/absent.db"), n),
                Kind::AbsentPhone => (FactType::Phone, "+852 4444 0000".to_owned(), n),
            };
            Probe {
                agent: format!("agent-{agent:04}"),
                task: format!("task-{task}"),
                claim: FactClaim {
                    fact_type,
                    value,
                    invocation_id: format!("inv-{cited:07}"),
                },
                kind,
            }
        })
        .collect()
}

/// Fills phone facts with the E.164 form of a phone written locally in their invocation.
fn fill_phones(facts: &mut [Probe], log: &MemoryLog) {
    use masf_graph::InvocationLog;
    for probe in facts.iter_mut().filter(|p| p.kind == Kind::Phone) {
        let Some(view) = log.get(&probe.claim.invocation_id) else {
            continue;
        };
        let text = String::from_utf8_lossy(&view.output).into_owned();
        // The first line's phone field: "5123 4567" → "+852 5123 4567" (not verbatim).
        if let Some(phone) = text.lines().next().and_then(|line| line.split('|').nth(2)) {
            probe.claim.value = format!("+852-{}", phone.replace(' ', "-"));
        }
    }
}

fn ground_all(log: &MemoryLog, facts: &[Probe], region: &Region) -> [usize; 2] {
    let mut counts = [0, 0];
    for (i, probe) in facts.iter().enumerate() {
        let asker = Asker {
            agent: &probe.agent,
            task_id: &probe.task,
            region: Some(region),
        };
        let ok = ground_fact(log, &asker, i, &probe.claim).is_ok();
        counts[usize::from(ok)] += 1;
    }
    counts
}

fn per_fact(elapsed: Duration, n: usize) -> String {
    format!("{:.2} µs/fact", elapsed.as_secs_f64() * 1e6 / n as f64)
}

fn grounding(c: &mut Criterion) {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let started = Instant::now();
    let log = build_log(&mut rng);
    let mut facts = build_facts(&mut rng, log.len());
    fill_phones(&mut facts, &log);
    let region = Region::parse("HK").expect("HK is a region");
    eprintln!(
        "built {} invocations of ~{} B and {} facts in {:.1?}",
        log.len(),
        OUTPUT_BYTES,
        facts.len(),
        started.elapsed()
    );

    // Correctness of the mix before timing it.
    for kind in [
        Kind::Verbatim,
        Kind::Rescued,
        Kind::Phone,
        Kind::Absent,
        Kind::AbsentPhone,
    ] {
        let subset: Vec<&Probe> = facts.iter().filter(|p| p.kind == kind).collect();
        let started = Instant::now();
        let mut ok = 0;
        for (i, probe) in subset.iter().enumerate() {
            let asker = Asker {
                agent: &probe.agent,
                task_id: &probe.task,
                region: Some(&region),
            };
            ok += usize::from(ground_fact(&log, &asker, i, &probe.claim).is_ok());
        }
        let elapsed = started.elapsed();
        let want = if matches!(kind, Kind::Absent | Kind::AbsentPhone) {
            0
        } else {
            subset.len()
        };
        assert_eq!(ok, want, "{kind:?}: {ok} of {} grounded", subset.len());
        eprintln!(
            "{kind:?}: {} facts, {}",
            subset.len(),
            per_fact(elapsed, subset.len())
        );
    }
    let started = Instant::now();
    let counts = ground_all(&log, &facts, &region);
    eprintln!(
        "whole mix: {} facts ({} grounded, {} rejected), {}",
        facts.len(),
        counts[1],
        counts[0],
        per_fact(started.elapsed(), facts.len())
    );

    let mut group = c.benchmark_group("grounding");
    group.sample_size(10);
    group.throughput(Throughput::Elements(FACTS as u64));
    group.bench_function("10k facts vs 100k invocations of 4 KiB", |b| {
        b.iter(|| black_box(ground_all(&log, &facts, &region)));
    });
    group.finish();
}

criterion_group!(benches, grounding);
criterion_main!(benches);
