//! Schema versions: fresh stores, upgrades from every shipped version, newer stores refused.

use masf_store::{SCHEMA_VERSION, Store, StoreError};
use serde_json::json;

use crate::support::{count, event, open, raw};

/// A schema version as shipped: the migration files that produced it (pinned by hash, since a
/// shipped migration must never change; a version with a step in Rust has a file before and
/// after it) and the same small case (one `case.opened` event, one inline `hello` output)
/// written the way that version wrote it.
struct Shipped {
    version: u32,
    migrations: &'static [(&'static str, &'static str)],
    seed: fn(&rusqlite::Connection),
}

const V1_SEED: &str = "
    INSERT INTO events (kind, payload, actor_kind, actor_id, idempotency_key, causation_seq, ts, versions)
    VALUES ('case.opened', '{\"case\":\"c1\"}', 'examiner', 'ex-1', 'seed-1', NULL,
            '2024-01-02T03:04:05Z', '{\"app\":\"0.1.0\"}');
    INSERT INTO invocations (seq, invocation_id, source_id, tool, args, status, reason, cached_from,
            output_sha256, output_size, output_inline, agent, task_id, ts, duration_ms, versions,
            idempotency_key)
    VALUES (1, 'inv-000001', 'src-1', 'stat', '{\"path\":\"/\"}', 'ok', NULL, NULL,
            '2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824', 5, CAST('hello' AS BLOB),
            'triage', 'task-1', '2024-01-02T03:04:06Z', 3, '{}', NULL);
";

/// Version 2 wrote version 1's rows with their hash chain, each row hashed over its columns.
fn v2_seed(conn: &rusqlite::Connection) {
    use masf_store::chain::{EVENT_COLUMNS, GENESIS, INVOCATION_COLUMNS, row_hash};
    // The triggers of version 2 come back below, once the rows carry their hashes.
    for trigger in [
        "events_chained",
        "invocations_chained",
        "events_no_update",
        "invocations_no_update",
        "chain_upgrades_no_update",
        "chain_upgrades_no_delete",
    ] {
        conn.execute_batch(&format!("DROP TRIGGER {trigger}"))
            .unwrap();
    }
    conn.execute_batch(V1_SEED).unwrap();
    for (table, columns) in [
        ("events", EVENT_COLUMNS),
        ("invocations", INVOCATION_COLUMNS),
    ] {
        let mut stmt = conn
            .prepare(&format!("SELECT {} FROM {table}", columns.join(", ")))
            .unwrap();
        let hash = stmt
            .query_row([], |row| {
                let values = (0..columns.len())
                    .map(|i| row.get_ref(i))
                    .collect::<rusqlite::Result<Vec<_>>>()?;
                Ok(row_hash(table, GENESIS, &values))
            })
            .unwrap();
        drop(stmt);
        // Written in one INSERT by version 2; here set afterwards, before the triggers return.
        conn.execute(
            &format!("UPDATE {table} SET prev_hash = ?1, row_hash = ?2"),
            [GENESIS, &hash],
        )
        .unwrap();
    }
    conn.execute_batch(include_str!("../../migrations/0002_hash_chain_close.sql"))
        .unwrap();
}

/// One row per shipped version: a new migration adds a row here.
const SHIPPED: &[Shipped] = &[
    Shipped {
        version: 1,
        migrations: &[(
            include_str!("../../migrations/0001_events_and_invocations.sql"),
            "2d57eb4786b317cc97452837a982b1857f90c652463aa336ab2254e2764a13a7",
        )],
        seed: |conn| conn.execute_batch(V1_SEED).unwrap(),
    },
    Shipped {
        version: 2,
        migrations: &[
            (
                include_str!("../../migrations/0002_hash_chain_open.sql"),
                "52d8747035eb73072dda100ccd14514f93cd7d2d9e7aab13ca2ca06a86728850",
            ),
            (
                include_str!("../../migrations/0002_hash_chain_close.sql"),
                "c042312fe05d34bd8d21e96d312f630aa576eee52208c3e94d47655f939d6ecc",
            ),
        ],
        seed: v2_seed,
    },
];

#[test]
fn every_shipped_version_is_listed() {
    assert_eq!(SHIPPED.len() as u32, SCHEMA_VERSION);
    for (i, shipped) in SHIPPED.iter().enumerate() {
        assert_eq!(shipped.version as usize, i + 1);
        for (migration, pinned) in shipped.migrations {
            let sha = hex::encode(<sha2::Sha256 as sha2::Digest>::digest(migration));
            assert_eq!(
                &sha, pinned,
                "shipped migration {} was edited; add a new migration instead",
                shipped.version
            );
        }
    }
}

#[test]
fn a_fresh_store_is_at_the_latest_version_in_wal_mode() {
    let dir = tempfile::tempdir().unwrap();
    drop(open(&dir.path().join("new/work")));
    let conn = raw(&dir.path().join("new/work"));
    let version: u32 = conn
        .query_row("PRAGMA user_version", [], |row| row.get(0))
        .unwrap();
    let mode: String = conn
        .query_row("PRAGMA journal_mode", [], |row| row.get(0))
        .unwrap();
    assert_eq!((version, mode.as_str()), (SCHEMA_VERSION, "wal"));
    // Reopening leaves it as it is.
    drop(open(&dir.path().join("new/work")));
}

#[test]
fn every_shipped_version_upgrades_to_the_latest() {
    for shipped in SHIPPED {
        let dir = tempfile::tempdir().unwrap();
        let conn = raw(dir.path());
        for older in SHIPPED.iter().take_while(|s| s.version <= shipped.version) {
            for (migration, _) in older.migrations {
                conn.execute_batch(migration).unwrap();
            }
        }
        conn.pragma_update(None, "user_version", shipped.version)
            .unwrap();
        (shipped.seed)(&conn);
        drop(conn);

        let mut store = open(dir.path());
        let version: u32 = raw(dir.path())
            .query_row("PRAGMA user_version", [], |row| row.get(0))
            .unwrap();
        assert_eq!(version, SCHEMA_VERSION, "from v{}", shipped.version);
        let events = store.events(0).unwrap();
        assert_eq!(events.len(), 1, "from v{}", shipped.version);
        assert_eq!(events[0].payload, json!({ "case": "c1" }));
        assert_eq!(store.invocation_output("inv-000001").unwrap(), b"hello");
        // The upgraded store takes new records after the old ones.
        assert_eq!(store.append(&event("new", json!(1))).unwrap().seq, 2);
        let next = store
            .record_invocation(&crate::support::invocation(b"more"))
            .unwrap();
        assert_eq!(next.invocation_id, "inv-000002");
        // The rows are chained: by the upgrade for a store from before the chain.
        assert_eq!(
            store.chain_breaks().unwrap(),
            [],
            "from v{}",
            shipped.version
        );
        let upgraded: Vec<_> = store
            .chain_heads()
            .unwrap()
            .into_iter()
            .map(|h| (h.table, h.count, h.upgraded_through))
            .collect();
        let through = (shipped.version < 2).then_some(1);
        assert_eq!(
            upgraded,
            [
                ("events".to_owned(), 2, through),
                ("invocations".to_owned(), 2, through)
            ],
            "from v{}",
            shipped.version
        );
    }
}

#[test]
fn a_store_from_a_newer_build_is_refused_untouched() {
    let dir = tempfile::tempdir().unwrap();
    open(dir.path()).append(&event("k", json!(1))).unwrap();
    raw(dir.path())
        .pragma_update(None, "user_version", SCHEMA_VERSION + 1)
        .unwrap();

    for err in [
        Store::open(dir.path()).unwrap_err(),
        Store::open_read_only(dir.path()).unwrap_err(),
    ] {
        assert!(
            matches!(err, StoreError::NewerSchema { found, known }
                if found == SCHEMA_VERSION + 1 && known == SCHEMA_VERSION),
            "{err}"
        );
    }
    let conn = raw(dir.path());
    assert_eq!(count(&conn, "events"), 1);
    let version: u32 = conn
        .query_row("PRAGMA user_version", [], |row| row.get(0))
        .unwrap();
    assert_eq!(version, SCHEMA_VERSION + 1);
}

#[test]
fn a_store_needing_an_upgrade_is_refused_read_only() {
    let dir = tempfile::tempdir().unwrap();
    drop(raw(dir.path())); // an empty file at version 0
    let err = Store::open_read_only(dir.path()).unwrap_err();
    assert!(
        matches!(err, StoreError::OlderSchema { found: 0, known } if known == SCHEMA_VERSION),
        "{err}"
    );
}
