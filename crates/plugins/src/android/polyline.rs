//! Google's encoded polylines (precision 5: 1e-5 degrees, latitude then longitude, each point a
//! delta of the one before), which Nike Run Club (`activity_polyline.as2_p_encoded_polyline`)
//! and Adidas Running (`session.encodedTrace`) keep a run's route in, summarised inside the
//! `sqlite_query` itself — how many points, the first and the last position — so that the
//! positions a phenomenon states are in the cited output, and no phenomenon per point is made.
//!
//! The text is cut into 256-character chunks, each chunk into characters; a window over the
//! characters numbers the values (a value ends at a character below 32 after subtracting 63),
//! each value is put together from its 5-bit groups and zigzag-decoded; the first position is
//! the first two values, the last the sums of every latitude and every longitude delta. A text
//! cut short loses its unfinished last value; a cell that is no text yields no row.

/// Characters per chunk: the text is read once per chunk, each chunk once per character.
const CHUNK: u32 = 256;

/// The `WITH RECURSIVE` definitions (without the keyword) decoding the polyline in `col` of
/// `table`: their last, `pl(rid, points, first_lat, first_lon, last_lat, last_lon)`, has one row
/// per row of `table` (by its `rowid`, as `rid`) whose `col` is non-empty text — the points and
/// the first and last latitude and longitude as decimal degrees written with five decimals.
pub(crate) fn summary_ctes(table: &str, col: &str) -> String {
    let n = CHUNK;
    format!(
        "pl_n(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM pl_n WHERE n < {n}), \
         pl_chunks(rid, ci, part) AS (SELECT rowid, 0, substr({col}, 1, {n}) FROM {table} WHERE typeof({col}) = 'text' AND length({col}) > 0 \
         UNION ALL SELECT c.rid, c.ci + 1, substr(t.{col}, (c.ci + 1) * {n} + 1, {n}) FROM pl_chunks c JOIN {table} t ON t.rowid = c.rid WHERE (c.ci + 1) * {n} < length(t.{col})), \
         pl_chars(rid, pos, c) AS (SELECT rid, ci * {n} + n, unicode(substr(part, n, 1)) - 63 FROM pl_chunks JOIN pl_n ON n <= length(part)), \
         pl_v(rid, pos, c, v) AS (SELECT rid, pos, c, coalesce(sum(c < 32) OVER (PARTITION BY rid ORDER BY pos ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) FROM pl_chars), \
         pl_k(rid, c, v, k) AS (SELECT rid, c, v, pos - min(pos) OVER (PARTITION BY rid, v) FROM pl_v), \
         pl_raw(rid, v, bits, done) AS (SELECT rid, v, sum((c & 31) << (5 * k)), max(c < 32) FROM pl_k GROUP BY rid, v), \
         pl_d(rid, v, d) AS (SELECT rid, v, CASE WHEN bits & 1 THEN ~(bits >> 1) ELSE bits >> 1 END FROM pl_raw WHERE done), \
         pl(rid, points, first_lat, first_lon, last_lat, last_lon) AS (SELECT rid, count(*) / 2, \
         printf('%.5f', sum(CASE WHEN v = 0 THEN d END) / 100000.0), printf('%.5f', sum(CASE WHEN v = 1 THEN d END) / 100000.0), \
         printf('%.5f', sum(CASE WHEN v % 2 = 0 THEN d END) / 100000.0), printf('%.5f', sum(CASE WHEN v % 2 = 1 THEN d END) / 100000.0) \
         FROM pl_d GROUP BY rid)"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_definitions_name_the_table_and_column() {
        let s = summary_ctes("session", "encodedTrace");
        assert!(s.starts_with("pl_n(n) AS"));
        assert!(s.contains("FROM session WHERE typeof(encodedTrace) = 'text'"));
        assert!(s.contains("JOIN session t ON t.rowid = c.rid"));
        assert!(s.ends_with("FROM pl_d GROUP BY rid)"));
    }
}
