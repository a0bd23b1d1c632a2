//! Payment cards in Apple Wallet's URL cache
//! (`Containers/Data/Application/<id>/Library/Caches/com.apple.Passbook/Cache.db`, CFNetwork's
//! `cfurl_cache_*` tables), iLEAPP's `appleWalletCards`: the card data Wallet's cached responses
//! from Apple's payment-pass service carry.
//!
//! | table | phenomenon | fields |
//! |---|---|---|
//! | `cfurl_cache_response` ⋈ `cfurl_cache_blob_data` (`request_key` ending `CARDS`) | one `accounts` per response holding a card number ("Apple Wallet card ending <last four> (<type>)") | the URL, the cache entry, when it was cached (`time_stamp`, UTC text, its Unix seconds computed in the query), the card number's **last four digits** and length, the card type by its first digits (iLEAPP's heuristic: Visa, Mastercard, Discover, American Express, Diners Club Carte Blanche, Unknown), the first `NN/NN` (a possible expiry) |
//!
//! As iLEAPP, the number is a pattern match in the response's `proto_props`: the first run of
//! the longest length found from 19 down to 13 digits (a longer run gives its first 19). The
//! whole match is made in the query — a recursive walk over the bytes finds the runs of digits
//! — and the query returns only the last four digits, the length and the type: **the card
//! number is never read into an output nor recorded**. The values are a pattern match and need
//! verification; the cache time is when the response was cached, not when the card was added
//! (both said, as iLEAPP's notes say). A `CARDS` response whose properties hold no such run is
//! not recorded (as iLEAPP). A `com.apple.Passbook/Cache.db` without `cfurl_cache_response`
//! (`entry_ID`, `request_key`, `time_stamp`) or `cfurl_cache_blob_data` (`entry_ID`,
//! `proto_props`) is noted. Every cached response of the file is also recorded by the URL-cache
//! reader ([`super::safari`]). Identities: none (the last four digits are facts only).

use masf_agents::RuntimeError;
use masf_graph::FactType;
use masf_tools::Invoked;

use super::{Draft, ENTRY_CAP, Run, file_name, raw};
use crate::drafts::unix_seconds;

const RESPONSE: &str = "cfurl_cache_response";
const BLOB: &str = "cfurl_cache_blob_data";

/// The card-number match of iLEAPP's `appleWalletCards`, made in SQL so that only the last four
/// digits leave the database: `scan` walks each `CARDS` response's `proto_props` byte by byte
/// counting the digits in a row, `runs` keeps each run (start, length), the longest length up
/// to 19 (at least 13) picks the first run that long, and the row gives that match's last four
/// digits, its length, the type by its first one or two digits, and the first `NN/NN`.
const SQL: &str = "WITH RECURSIVE \
cards(entry, url, cached, unix, b) AS MATERIALIZED (SELECT r.entry_ID, r.request_key, r.time_stamp, \
strftime('%s', r.time_stamp), CAST(d.proto_props AS BLOB) FROM cfurl_cache_response r \
JOIN cfurl_cache_blob_data d ON d.entry_ID = r.entry_ID \
WHERE r.request_key LIKE '%CARDS' AND d.proto_props IS NOT NULL), \
scan(entry, i, run) AS MATERIALIZED (SELECT entry, 0, 0 FROM cards UNION ALL \
SELECT s.entry, s.i + 1, CASE WHEN hex(substr(c.b, s.i + 1, 1)) BETWEEN '30' AND '39' \
THEN s.run + 1 ELSE 0 END FROM scan s JOIN cards c ON c.entry = s.entry WHERE s.i < length(c.b)), \
runs(entry, start, len) AS (SELECT s.entry, s.i - s.run + 1, s.run FROM scan s \
JOIN cards c ON c.entry = s.entry \
WHERE s.run > 0 AND NOT (hex(substr(c.b, s.i + 1, 1)) BETWEEN '30' AND '39')), \
best(entry, n) AS (SELECT entry, min(max(len), 19) FROM runs GROUP BY entry HAVING max(len) >= 13), \
pick(entry, start, n) AS (SELECT b.entry, min(r.start), b.n FROM best b \
JOIN runs r ON r.entry = b.entry AND r.len >= b.n GROUP BY b.entry) \
SELECT c.entry AS entry, c.url AS url, c.cached AS cached, c.unix AS unix, p.n AS digits, \
CAST(substr(c.b, p.start + p.n - 4, 4) AS TEXT) AS last_four, \
CASE WHEN p.n IS NULL THEN NULL \
WHEN hex(substr(c.b, p.start, 1)) = '34' AND p.n IN (13, 16) THEN 'Visa' \
WHEN hex(substr(c.b, p.start, 1)) = '35' AND p.n = 16 THEN 'Mastercard' \
WHEN hex(substr(c.b, p.start, 1)) = '36' AND p.n = 16 THEN 'Discover' \
WHEN hex(substr(c.b, p.start, 2)) IN ('3334', '3337') AND p.n = 15 THEN 'American Express' \
WHEN hex(substr(c.b, p.start, 2)) IN ('3330', '3336', '3338') AND p.n = 14 \
THEN 'Diners Club Carte Blanche' ELSE 'Unknown' END AS card_type, \
(SELECT CAST(substr(c.b, s.i, 5) AS TEXT) FROM scan s WHERE s.entry = c.entry AND s.i >= 1 \
AND hex(substr(c.b, s.i, 5)) GLOB '3[0-9]3[0-9]2F3[0-9]3[0-9]' ORDER BY s.i LIMIT 1) AS expiry \
FROM cards c LEFT JOIN pick p ON p.entry = c.entry ORDER BY c.entry";

/// Whether `path` is Wallet's URL cache.
pub fn is_store(path: &str) -> bool {
    path.ends_with("/Library/Caches/com.apple.Passbook/Cache.db")
}

/// Triage of every Wallet URL cache of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    run.each("Cache.db", |find, path| {
        if is_store(path) {
            store(run, find, path)
        } else {
            Ok(())
        }
    })
}

fn store(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let Some(schema) = run.schema(path, &[RESPONSE, BLOB])? else {
        return Ok(());
    };
    if !schema.require(run, RESPONSE, &["entry_ID", "request_key", "time_stamp"])?
        || !schema.require(run, BLOB, &["entry_ID", "proto_props"])?
    {
        return Ok(());
    }
    let Some((inv, t)) = run.query(path, SQL, ENTRY_CAP)? else {
        return Ok(());
    };
    let file = file_name(path);
    for row in &t.rows {
        let Some(last_four) = raw(&t, row, "last_four") else {
            continue;
        };
        let kind = raw(&t, row, "card_type");
        let mut d = Draft::new(
            "accounts",
            format!(
                "Apple Wallet card ending {last_four}{}",
                kind.as_deref()
                    .map(|k| format!(" ({k})"))
                    .unwrap_or_default()
            ),
        );
        d.fact(FactType::Path, Some(path), find);
        d.fact(FactType::Url, raw(&t, row, "url").as_deref(), &inv);
        d.fact(FactType::Identifier, raw(&t, row, "entry").as_deref(), &inv);
        d.fact(FactType::Identifier, Some(&last_four), &inv);
        let said = d.fields(
            &t,
            row,
            &inv,
            &[
                ("digits", FactType::Count, "digits"),
                ("card_type", FactType::Text, "type (by its first digits)"),
                ("expiry", FactType::Text, "possible expiry"),
                ("cached", FactType::Text, "cached (UTC)"),
            ],
        );
        let unix = t.get(row, "unix");
        d.time(unix, unix_seconds(unix), "Wallet card data cached", &inv);
        d.interpretation = format!(
            "Entry {} of {file}, Wallet's URL cache: a response of Apple's payment-pass service ({}) cached with a number ending {last_four} in its properties ({}) — by iLEAPP's reading a payment card of the Wallet (the longest run of 13 to 19 digits: a pattern match, to be verified; the type is a heuristic of its first digits); the number is not recorded, only its last four digits, computed in the query; the time is when the response was cached, not when the card was added.",
            t.get(row, "entry").unwrap_or("?"),
            t.get(row, "url").unwrap_or("?"),
            said.join(", "),
        );
        run.record(d)?;
    }
    if t.truncated {
        run.ctx.unparsed(
            path,
            &format!("only the first {ENTRY_CAP} cached CARDS responses were read"),
            Some(&inv.record.invocation_id),
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_wallet_caches() {
        assert!(is_store(
            "/private/var/mobile/Containers/Data/Application/X/Library/Caches/com.apple.Passbook/Cache.db"
        ));
        assert!(!is_store(
            "/private/var/mobile/Containers/Data/Application/X/Library/Caches/com.apple.AppStore/Cache.db"
        ));
        // the query's rows never hold the properties themselves
        let rows = &SQL[SQL.find("SELECT c.entry").unwrap()..];
        assert!(!rows.contains("c.b AS") && !rows.contains("proto_props"));
    }
}
