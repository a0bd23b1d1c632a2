//! What the store can check about itself without knowing what its records mean: both logs
//! number their rows 1, 2, 3, … with no hole. The tables are append-only and their numbers come
//! from `AUTOINCREMENT` inside the appending transaction (a rolled-back append gives its number
//! back), so a hole, or a log shorter than the highest number ever handed out, means rows were
//! removed behind the triggers' back.

use rusqlite::{OptionalExtension, params};
use serde::Serialize;

use crate::{Result, Store};

/// Missing rows of one log: every seq strictly between `after` and `before` is absent.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SeqGap {
    /// `events` or `invocations`.
    pub table: &'static str,
    /// The last seq present before the hole (0 at the start of the log).
    pub after: i64,
    /// The first seq present after it (one past the highest seq ever handed out at the end).
    pub before: i64,
}

impl std::fmt::Display for SeqGap {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (first, last) = (self.after + 1, self.before - 1);
        if first == last {
            write!(f, "{} seq {first} is missing", self.table)
        } else {
            write!(f, "{} seq {first} to {last} are missing", self.table)
        }
    }
}

impl Store {
    /// The holes in the numbering of the event and invocation logs (none in a sound store).
    pub fn sequence_gaps(&self) -> Result<Vec<SeqGap>> {
        let mut gaps = Vec::new();
        for table in ["events", "invocations"] {
            let mut stmt = self.conn.prepare(&format!(
                "SELECT prev, seq FROM (SELECT seq, COALESCE(LAG(seq) OVER (ORDER BY seq), 0) \
                 AS prev FROM {table}) WHERE seq > prev + 1"
            ))?;
            let holes = stmt.query_map([], |row| Ok((row.get(0)?, row.get(1)?)))?;
            for hole in holes {
                let (after, before) = hole?;
                gaps.push(SeqGap {
                    table,
                    after,
                    before,
                });
            }
            let last: i64 = self.conn.query_row(
                &format!("SELECT COALESCE(MAX(seq), 0) FROM {table}"),
                [],
                |r| r.get(0),
            )?;
            let handed_out: Option<i64> = self
                .conn
                .query_row(
                    "SELECT seq FROM sqlite_sequence WHERE name = ?1",
                    params![table],
                    |r| r.get(0),
                )
                .optional()?;
            if let Some(handed_out) = handed_out.filter(|&n| n > last) {
                gaps.push(SeqGap {
                    table,
                    after: last,
                    before: handed_out + 1,
                });
            }
        }
        Ok(gaps)
    }
}
