//! Load fixture for the desktop app's e2e performance measurement: appends N events of kind
//! `load_test` (ignored by the graph fold, shown by the Live run view like any other event) to a
//! case store through the store's own API, in batches of 1,000.
//!
//!     cargo run -p masf-api --example load_events -- <work dir> <count>

use masf_store::{ActorKind, NewEvent, Store};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let (Some(work), Some(count)) = (args.next(), args.next()) else {
        return Err("usage: load_events <work dir> <count>".into());
    };
    let count: u64 = count.parse()?;
    let mut store = Store::open(std::path::Path::new(&work))?;
    let base = store.last_seq()?;
    let mut done = 0;
    while done < count {
        let n = (count - done).min(1_000);
        let batch: Vec<NewEvent> = (done..done + n)
            .map(|i| NewEvent {
                kind: "load_test".into(),
                payload: serde_json::json!({
                    "n": i,
                    "note": format!("load item {i} of {count} (证据 {i})"),
                }),
                actor_kind: ActorKind::System,
                actor_id: "load-fixture".into(),
                idempotency_key: format!("load-test/{base}/{i}"),
                causation_seq: None,
                ts: jiff::Timestamp::now(),
                versions: Default::default(),
            })
            .collect();
        store.append_batch(&batch)?;
        done += n;
    }
    println!("{} events appended after seq {base}", count);
    Ok(())
}
