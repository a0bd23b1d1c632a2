//! Lidl Plus' URL cache (`Library/Caches/com.lidl.eci.lidl.plus/Cache.db` of its container and
//! the `fsCachedData/` files beside it), iLEAPP's `lidl_plus` (`lidl_tickets` "Ticket List",
//! `lidl_receipt_items` "Receipt Items", `lidl_loyalty_card` "Loyalty Card"): the purchases the
//! app listed and the receipts it showed, as the responses of Lidl's servers CFNetwork kept.
//! `Cache.db` is read by `sqlite_query` (the entries whose request address is one of the ticket
//! or payment QR endpoints, picked and classed in the query); a response kept in a file is read
//! by `read_json`, one kept in the database by SQLite's `json_tree` in the query (each value by
//! its path, decoded).
//!
//! | response (request address) | phenomenon | fields |
//! |---|---|---|
//! | ticket list (`tickets.lidlplus.com/api/<v>/<CC>/tickets?…`: `tickets[]`, or a bare list) | one `transactions` per ticket ("Lidl Plus ticket <id> (store <code>)") | ticket id, store code, total amount, currency (symbol and code), articles, coupons used, returns (`badges.returns`); favourite, invoice and HTML receipt flags said as stored; the purchase time (`date`, ISO 8601 with the store's offset); the request address and when it was cached |
//! | ticket detail (`…/tickets/<id>`) | one `transactions` per receipt ("Lidl Plus receipt <id> at <store>") | ticket id, barcode, total amount, the store (id, name, address, postal code, locality), each coupon used (its members), favourite, invoice and deleted flags said; the purchase time; address and cached time |
//! | the same, its printed receipt (`htmlPrintedReceipt`: `<span class="… article" data-…>` and the `discount` span after it) | one `transactions` per article ("Lidl Plus receipt item <description> (ticket <id>)") | description, quantity, unit price, tax type, product id, the printed line; the discount's promotion id, text and amount (its last figure); the ticket id and purchase time |
//! | payment QR (`payments.lidlplus.com/payment-methods/<v>/lidl/<CC>/store/qr`, kept in the database) | one `accounts` ("Lidl Plus loyalty card <number>") | the loyalty card number — the QR's first 17 characters, cut in the query (iLEAPP's reading: the number the app shows) —, the address, when cached |
//!
//! Times: the purchase as written (ISO 8601), the cache's `time_stamp` (UTC) as Unix seconds
//! from SQL. A response that is no JSON (in the database), a response file that is gone or no
//! JSON document (its `read_json` call noted), a `Cache.db` without the CFNetwork tables and
//! columns or that cannot be read: noted, the rest read. Booleans print as `true`/`false` from a
//! file and `1`/`0` from the database (said as stored).
//!
//! Never read: the payment QR itself (a payment credential: only its first 17 characters are
//! selected, and a QR response kept in a file is not opened), the payment methods, and the
//! Keychain's `storedUser` account (iLEAPP's `lidl_account`: not a file of the app). Not read
//! here: the shopping list, promotions, offers, products, searches, the points marketplace, the
//! last known location and the encrypted self-scanning and pickup databases of iLEAPP's other
//! `lidl_*` artefacts. Only `Cache.db` of the Lidl Plus cache folder is read: another app's file
//! of the name is left to the URL cache reader ([`super::safari`]).
//!
//! Identities: `owner`: the loyalty card (`lidlplus:<number>`, qualified in the query) — the
//! account signed in to the app. Stores and products name no one.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::LazyLock;

use masf_agents::RuntimeError;
use masf_graph::{FactType, IdType, TimeEncoding};
use masf_tools::Invoked;
use regex::Regex;
use serde_json::{Value, json};

use super::{Draft, ENTRY_CAP, Run, raw};
use crate::outputs::{escape, in_json};

/// The app's cache folder, as a path ends.
const APP_DIR: &str = "/Library/Caches/com.lidl.eci.lidl.plus";

/// Whether `path` is the Lidl Plus URL cache's `Cache.db`.
pub fn is_store(path: &str) -> bool {
    path.strip_suffix("/Cache.db")
        .is_some_and(|b| b.ends_with(APP_DIR))
}

/// What shows the catalogue that the cache was read: a query of its `Cache.db`.
pub fn detectors() -> Vec<String> {
    vec!["/com.lidl.eci.lidl.plus/Cache.db\"".to_string()]
}

/// Triage of every Lidl Plus `Cache.db` of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    run.each("Cache.db", |find, path| {
        if is_store(path) {
            run.ctx.artefact(path, || store(run, find, path))?;
        }
        Ok(())
    })
}

/// The endpoints read, classed in the query (`list`, `detail`, `qr`), and the loyalty card
/// number cut from a QR kept in the database (never the QR itself).
const ENTRIES: &str = "SELECT * FROM (SELECT *, CASE WHEN card IS NOT NULL THEN 'lidlplus:' || card END AS card_qualified FROM (\
SELECT r.entry_ID AS entry, r.request_key AS url, strftime('%s', r.time_stamp) AS cached, \
d.isDataOnFS AS on_fs, CASE WHEN d.isDataOnFS = 1 THEN CAST(d.receiver_data AS TEXT) END AS fs_name, \
CASE WHEN d.isDataOnFS = 1 THEN NULL ELSE json_valid(CAST(d.receiver_data AS TEXT)) END AS json_ok, \
CASE WHEN r.request_key LIKE 'https://tickets.lidlplus.com/api/%/tickets?%' THEN 'list' \
WHEN r.request_key LIKE 'https://tickets.lidlplus.com/api/%/tickets/%' THEN 'detail' \
WHEN r.request_key LIKE 'https://payments.lidlplus.com/payment-methods/%/store/qr' THEN 'qr' END AS kind, \
CASE WHEN d.isDataOnFS = 0 AND r.request_key LIKE 'https://payments.lidlplus.com/payment-methods/%/store/qr' \
AND json_valid(CAST(d.receiver_data AS TEXT)) THEN \
CASE WHEN length(json_extract(CAST(d.receiver_data AS TEXT), '$.paymentQR')) >= 17 \
THEN substr(json_extract(CAST(d.receiver_data AS TEXT), '$.paymentQR'), 1, 17) END END AS card \
FROM cfurl_cache_response r JOIN cfurl_cache_receiver_data d ON d.entry_ID = r.entry_ID) \
WHERE kind IS NOT NULL)";

/// A cached response of an endpoint read, as `Cache.db` lists it (values as the output holds
/// them).
struct Entry {
    inv: Invoked,
    entry: String,
    url: Option<String>,
    cached: Option<String>,
    on_fs: bool,
    fs_name: Option<String>,
    json_ok: bool,
    kind: String,
    card: Option<String>,
    card_qualified: Option<String>,
}

/// A response's JSON, flattened: each scalar by its path (`$.tickets[0].id`), as shown and as
/// its output holds it.
struct Doc<'a> {
    inv: &'a Invoked,
    leaves: BTreeMap<String, (String, String)>,
    /// Whether the output is `read_json`'s (texts JSON-escaped), else `sqlite_query`'s (cells).
    json: bool,
    /// The response file read, when it is one.
    file: Option<String>,
}

impl Doc<'_> {
    fn get(&self, key: &str) -> Option<&(String, String)> {
        self.leaves.get(key)
    }

    fn shown(&self, key: &str) -> Option<&str> {
        self.get(key).map(|(s, _)| s.as_str())
    }

    fn cited(&self, key: &str) -> Option<&str> {
        self.get(key).map(|(_, c)| c.as_str())
    }

    /// A text inside a value as the output holds it.
    fn cite(&self, s: &str) -> String {
        if self.json { in_json(s) } else { escape(s) }
    }

    /// The indices of the list at `base` (`$.tickets`, `$`), in order.
    fn indices(&self, base: &str) -> BTreeSet<usize> {
        let open = format!("{base}[");
        self.leaves
            .keys()
            .filter_map(|k| {
                let rest = k.strip_prefix(&open)?;
                rest[..rest.find(']')?].parse().ok()
            })
            .collect()
    }
}

/// The scalars of a `read_json` document by their path, as `json_tree` names them.
fn flatten(v: &Value, at: &str, out: &mut BTreeMap<String, (String, String)>) {
    match v {
        Value::Object(o) => {
            for (k, x) in o {
                flatten(x, &format!("{at}.{k}"), out);
            }
        }
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                flatten(x, &format!("{at}[{i}]"), out);
            }
        }
        Value::String(s) if !s.is_empty() => {
            out.insert(at.to_string(), (s.clone(), in_json(s)));
        }
        Value::Number(n) => {
            out.insert(at.to_string(), (n.to_string(), n.to_string()));
        }
        Value::Bool(b) => {
            out.insert(at.to_string(), (b.to_string(), b.to_string()));
        }
        _ => {}
    }
}

/// One `Cache.db` of the app.
fn store(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let tables = ["cfurl_cache_response", "cfurl_cache_receiver_data"];
    let Some(schema) = run.schema(path, &tables)? else {
        return Ok(());
    };
    let what = "Lidl Plus' URL cache Cache.db";
    for (table, needed) in [
        (
            "cfurl_cache_response",
            &["entry_ID", "request_key", "time_stamp"][..],
        ),
        (
            "cfurl_cache_receiver_data",
            &["entry_ID", "isDataOnFS", "receiver_data"][..],
        ),
    ] {
        if !crate::calls::require_columns(
            run.ctx,
            path,
            what,
            table,
            &schema.columns(table),
            needed,
        )? {
            return Ok(());
        }
    }
    let Some(paged) = run.paged(path, ENTRIES, "entry")? else {
        return Ok(());
    };
    let entries: Vec<Entry> = paged
        .rows()
        .filter_map(|(inv, t, row)| {
            Some(Entry {
                inv: inv.clone(),
                entry: raw(t, row, "entry")?,
                url: raw(t, row, "url"),
                cached: raw(t, row, "cached"),
                on_fs: t.get(row, "on_fs") == Some("1"),
                fs_name: t.get(row, "fs_name").map(str::to_string),
                json_ok: t.get(row, "json_ok") == Some("1"),
                kind: t.get(row, "kind")?.to_string(),
                card: raw(t, row, "card"),
                card_qualified: raw(t, row, "card_qualified"),
            })
        })
        .collect();
    crate::calls::note_pages_cap(run.ctx, path, &paged, "cached Lidl Plus responses")?;
    // the ticket responses kept in the database, read by json_tree
    let inline: Option<(Invoked, crate::outputs::Table)> = if entries
        .iter()
        .any(|e| !e.on_fs && e.kind != "qr" && e.json_ok)
    {
        super::safari::cached_json_values(
            run,
            path,
            "r.request_key LIKE 'https://tickets.lidlplus.com/api/%/tickets%'",
            "ticket responses",
        )?
    } else {
        None
    };
    let base = path.strip_suffix("/Cache.db").unwrap_or(path);
    let mut budget = ENTRY_CAP;
    for e in &entries {
        if e.kind == "qr" {
            card(run, find, path, e)?;
            continue;
        }
        let (file_inv, doc) = if e.on_fs {
            let Some(name) = &e.fs_name else { continue };
            let file = format!("{base}/fsCachedData/{name}");
            let Some(inv) =
                crate::calls::call_or_note(run.ctx, &file, "read_json", json!({"path": file}))?
            else {
                continue;
            };
            let Some(v) = crate::outputs::json_document(&inv.output.text) else {
                run.ctx.unparsed(
                    &file,
                    "could not parse this cached Lidl Plus response because read_json printed no document",
                    Some(&inv.record.invocation_id),
                )?;
                continue;
            };
            let mut leaves = BTreeMap::new();
            flatten(&v, "$", &mut leaves);
            (Some(inv), Some((leaves, file)))
        } else {
            if !e.json_ok {
                run.ctx.unparsed(
                    path,
                    &format!(
                        "could not parse the cached response of entry {} ({}) because the data kept in the database is no JSON",
                        e.entry,
                        e.url.as_deref().unwrap_or("?")
                    ),
                    Some(&e.inv.record.invocation_id),
                )?;
            }
            (None, None)
        };
        let doc = match (&file_inv, doc, &inline) {
            (Some(inv), Some((leaves, file)), _) => Doc {
                inv,
                leaves,
                json: true,
                file: Some(file),
            },
            (None, _, Some((inv, t))) if e.json_ok => {
                let mut leaves = BTreeMap::new();
                for row in t
                    .rows
                    .iter()
                    .filter(|r| raw(t, r, "entry").as_deref() == Some(e.entry.as_str()))
                {
                    if let (Some(k), Some(shown), Some(cited)) =
                        (t.get(row, "k"), t.get(row, "v"), raw(t, row, "v"))
                    {
                        leaves.insert(k.to_string(), (shown.to_string(), cited));
                    }
                }
                Doc {
                    inv,
                    leaves,
                    json: false,
                    file: None,
                }
            }
            _ => continue,
        };
        if e.kind == "list" {
            tickets(run, find, path, e, &doc, &mut budget)?;
        } else {
            receipt(run, find, path, e, &doc, &mut budget)?;
        }
    }
    Ok(())
}

/// A draft with the store's path, the response file's and the cache entry's address and time.
fn draft(find: &Invoked, path: &str, e: &Entry, doc: &Doc<'_>, title: String) -> Draft {
    let mut d = Draft::new("transactions", title);
    d.fact(FactType::Path, Some(path), find);
    d.fact(FactType::Path, doc.file.as_deref(), doc.inv);
    d.fact(FactType::Url, e.url.as_deref(), &e.inv);
    d.time(
        e.cached.as_deref(),
        e.cached.as_ref().map(|_| TimeEncoding::UnixSeconds),
        "Lidl Plus response cached",
        &e.inv,
    );
    d
}

/// Facts of `spec` (`(path suffix, type, label)`) below `prefix`; "label value" of each.
fn fields(
    d: &mut Draft,
    doc: &Doc<'_>,
    prefix: &str,
    spec: &[(&str, FactType, &str)],
) -> Vec<String> {
    let mut said = Vec::new();
    for (key, fact, label) in spec {
        let k = format!("{prefix}.{key}");
        if let Some((shown, cited)) = doc.get(&k) {
            d.fact(*fact, Some(cited.as_str()), doc.inv);
            said.push(format!("{label} {shown}"));
        }
    }
    said
}

/// Flags said as stored (`favourite true`).
fn flags(doc: &Doc<'_>, prefix: &str, spec: &[(&str, &str)]) -> Vec<String> {
    spec.iter()
        .filter_map(|(key, label)| {
            doc.shown(&format!("{prefix}.{key}"))
                .map(|v| format!("{label} {v}"))
        })
        .collect()
}

/// The purchase time of the ticket at `prefix`.
fn purchase(d: &mut Draft, doc: &Doc<'_>, prefix: &str) {
    let date = doc.cited(&format!("{prefix}.date"));
    d.time(
        date,
        crate::drafts::date_text(date),
        "Lidl Plus purchase",
        doc.inv,
    );
}

/// The tickets of a ticket list (`tickets[]`, or a bare list).
fn tickets(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    e: &Entry,
    doc: &Doc<'_>,
    budget: &mut u64,
) -> Result<(), RuntimeError> {
    let base = if doc.indices("$.tickets").is_empty() {
        "$"
    } else {
        "$.tickets"
    };
    for i in doc.indices(base) {
        if *budget == 0 {
            break;
        }
        *budget -= 1;
        let p = format!("{base}[{i}]");
        let id = doc.shown(&format!("{p}.id")).unwrap_or("?");
        let store = doc.shown(&format!("{p}.storeCode")).unwrap_or("?");
        let mut d = draft(
            find,
            path,
            e,
            doc,
            format!("Lidl Plus ticket {id} (store {store})"),
        );
        let mut said = fields(
            &mut d,
            doc,
            &p,
            &[
                ("id", FactType::Identifier, "ticket id"),
                ("storeCode", FactType::Identifier, "store code"),
                ("totalAmount", FactType::Amount, "total"),
                ("currency.symbol", FactType::Text, "currency"),
                ("currency.code", FactType::Text, "currency code"),
                ("articlesCount", FactType::Count, "articles"),
                ("couponsUsedCount", FactType::Count, "coupons used"),
                ("badges.returns", FactType::Count, "returns"),
            ],
        );
        said.extend(flags(
            doc,
            &p,
            &[
                ("isFavorite", "favourite"),
                ("badges.invoice", "invoice"),
                ("hasHtmlDocument", "HTML receipt"),
                ("isHtml", "HTML receipt"),
            ],
        ));
        purchase(&mut d, doc, &p);
        d.interpretation = format!(
            "Ticket {i} of the ticket list Lidl Plus fetched ({}, entry {} of {path}{}): a purchase of the account at a Lidl store: {}; the purchase time ({}) is as written, with the store's offset; the entry's time_stamp (UTC) as Unix seconds from SQL.",
            e.url.as_deref().unwrap_or("?"),
            e.entry,
            doc.file
                .as_ref()
                .map(|f| format!(", kept in {f}"))
                .unwrap_or_else(|| ", kept in the database".into()),
            said.join(", "),
            doc.shown(&format!("{p}.date")).unwrap_or("none kept"),
        );
        run.record(d)?;
    }
    Ok(())
}

/// `<span …>…</span>` of a printed receipt (attributes, content).
static SPAN: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?is)<span\b(?P<attrs>[^>]*)>(?P<content>.*?)</span>").expect("span pattern")
});

/// `name="value"` of a tag.
static ATTR: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r#"([^\s=]+)\s*=\s*"([^"]*)""#).expect("attribute pattern"));

/// One span of a printed receipt: its attributes, its content, where it starts.
struct Span {
    attrs: BTreeMap<String, String>,
    content: String,
    start: usize,
    end: usize,
}

impl Span {
    fn class_has(&self, class: &str) -> bool {
        self.attrs
            .get("class")
            .is_some_and(|c| c.split_whitespace().any(|x| x == class))
    }
}

/// The article spans of a printed receipt, each with the discount span that follows it before
/// the next article.
fn articles(html: &str) -> Vec<(Span, Option<Span>)> {
    let spans: Vec<Span> = SPAN
        .captures_iter(html)
        .filter_map(|c| {
            let all = c.get(0)?;
            Some(Span {
                attrs: ATTR
                    .captures_iter(c.name("attrs")?.as_str())
                    .map(|a| (a[1].to_string(), a[2].to_string()))
                    .collect(),
                content: c.name("content")?.as_str().to_string(),
                start: all.start(),
                end: all.end(),
            })
        })
        .collect();
    let mut arts: Vec<Span> = Vec::new();
    let mut discounts: Vec<Span> = Vec::new();
    for s in spans {
        if s.class_has("article") {
            arts.push(s);
        } else if s.class_has("discount") {
            discounts.push(s);
        }
    }
    let mut out = Vec::new();
    let mut discounts = discounts.into_iter().peekable();
    let next_starts: Vec<usize> = arts
        .iter()
        .skip(1)
        .map(|a| a.start)
        .chain([html.len()])
        .collect();
    for (a, next) in arts.into_iter().zip(next_starts) {
        // discounts before this article belong to none
        while discounts.peek().is_some_and(|d| d.start < a.end) {
            discounts.next();
        }
        let discount = discounts.next_if(|d| d.start >= a.end && d.start < next);
        out.push((a, discount));
    }
    out
}

/// The discount amount a discount line ends with (`-0,30`), when it does.
fn discount_amount(text: &str) -> Option<&str> {
    let last = text.split_whitespace().last()?;
    (last.starts_with('-') && last[1..].chars().any(|c| c.is_ascii_digit())).then_some(last)
}

/// A ticket's detail: the receipt, and each article of its printed receipt.
fn receipt(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    e: &Entry,
    doc: &Doc<'_>,
    budget: &mut u64,
) -> Result<(), RuntimeError> {
    if doc.get("$.id").is_none() && doc.get("$.htmlPrintedReceipt").is_none() {
        run.ctx.unparsed(
            doc.file.as_deref().unwrap_or(path),
            &format!(
                "could not parse the cached ticket detail of entry {} because it holds neither a ticket id nor a printed receipt",
                e.entry
            ),
            Some(&doc.inv.record.invocation_id),
        )?;
        return Ok(());
    }
    if *budget == 0 {
        return Ok(());
    }
    *budget -= 1;
    let id = doc.shown("$.id").unwrap_or("?").to_string();
    let store = doc
        .shown("$.store.name")
        .or_else(|| doc.shown("$.store.id"))
        .unwrap_or("an unnamed store")
        .to_string();
    let mut d = draft(
        find,
        path,
        e,
        doc,
        format!("Lidl Plus receipt {id} at {store}"),
    );
    let mut said = fields(
        &mut d,
        doc,
        "$",
        &[
            ("id", FactType::Identifier, "ticket id"),
            ("barCode", FactType::Identifier, "barcode"),
            ("totalAmount", FactType::Amount, "total"),
            ("store.id", FactType::Identifier, "store id"),
            ("store.name", FactType::Name, "store"),
            ("store.address", FactType::Text, "address"),
            ("store.postalCode", FactType::Text, "postal code"),
            ("store.locality", FactType::Text, "locality"),
        ],
    );
    // the coupons used: every value they hold
    let coupons = doc.indices("$.couponsUsed");
    for i in &coupons {
        let prefix = format!("$.couponsUsed[{i}]");
        let values: Vec<(&String, &(String, String))> = doc
            .leaves
            .iter()
            .filter(|(k, _)| {
                k.strip_prefix(&prefix)
                    .is_some_and(|r| r.starts_with('.') || r.is_empty())
            })
            .collect();
        for (_, (_, cited)) in &values {
            d.fact(FactType::Text, Some(cited.as_str()), doc.inv);
        }
        said.push(format!(
            "coupon {}: {}",
            i + 1,
            values
                .iter()
                .map(|(k, (s, _))| format!("{} {s}", k[prefix.len()..].trim_start_matches('.')))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    said.extend(flags(
        doc,
        "$",
        &[
            ("isFavorite", "favourite"),
            ("hasInvoice", "invoice"),
            ("isDeleted", "deleted"),
        ],
    ));
    purchase(&mut d, doc, "$");
    let items = doc
        .shown("$.htmlPrintedReceipt")
        .map(articles)
        .unwrap_or_default();
    d.interpretation = format!(
        "The ticket detail Lidl Plus fetched ({}, entry {} of {path}{}): a purchase of the account at a Lidl store: {}; {} coupon(s) used; {} article(s) on its printed receipt (each its own phenomenon); the purchase time is as written, with the store's offset; the entry's time_stamp (UTC) as Unix seconds from SQL.",
        e.url.as_deref().unwrap_or("?"),
        e.entry,
        doc.file
            .as_ref()
            .map(|f| format!(", kept in {f}"))
            .unwrap_or_else(|| ", kept in the database".into()),
        said.join(", "),
        coupons.len(),
        items.len(),
    );
    run.record(d)?;
    for (n, (a, discount)) in items.iter().enumerate() {
        if *budget == 0 {
            break;
        }
        *budget -= 1;
        let attr = |s: &Span, k: &str| s.attrs.get(k).filter(|v| !v.trim().is_empty()).cloned();
        let desc = attr(a, "data-art-description");
        let mut d = draft(
            find,
            path,
            e,
            doc,
            format!(
                "Lidl Plus receipt item {} (ticket {id})",
                desc.as_deref().unwrap_or("?")
            ),
        );
        d.fact(FactType::Identifier, doc.cited("$.id"), doc.inv);
        let mut said = Vec::new();
        for (k, fact, label) in [
            ("data-art-description", FactType::Text, "description"),
            ("data-art-quantity", FactType::Text, "quantity"),
            ("data-unit-price", FactType::Amount, "unit price"),
            ("data-tax-type", FactType::Text, "tax type"),
            ("data-art-id", FactType::Identifier, "product id"),
        ] {
            if let Some(v) = attr(a, k) {
                d.fact(fact, Some(doc.cite(&v).as_str()), doc.inv);
                said.push(format!("{label} {v}"));
            }
        }
        let line = a.content.trim();
        if !line.is_empty() {
            d.fact(FactType::Text, Some(doc.cite(line).as_str()), doc.inv);
            said.push(format!("printed line {line}"));
        }
        if let Some(x) = discount {
            if let Some(p) = attr(x, "data-promotion-id") {
                d.fact(FactType::Identifier, Some(doc.cite(&p).as_str()), doc.inv);
                said.push(format!("promotion {p}"));
            }
            let text = x.content.trim();
            if !text.is_empty() {
                d.fact(FactType::Text, Some(doc.cite(text).as_str()), doc.inv);
                said.push(format!("discount line {text}"));
                if let Some(amount) = discount_amount(text) {
                    d.fact(FactType::Amount, Some(doc.cite(amount).as_str()), doc.inv);
                }
            }
        }
        purchase(&mut d, doc, "$");
        d.interpretation = format!(
            "Article {} of the printed receipt (htmlPrintedReceipt) of ticket {id} that Lidl Plus fetched ({}, entry {} of {path}): {}; amounts as printed (the store's decimal comma); the purchase time is the ticket's.",
            n + 1,
            e.url.as_deref().unwrap_or("?"),
            e.entry,
            said.join(", "),
        );
        run.record(d)?;
    }
    Ok(())
}

/// The payment QR's entry: the loyalty card number cut from it in the query.
fn card(run: &Run<'_, '_>, find: &Invoked, path: &str, e: &Entry) -> Result<(), RuntimeError> {
    let Some(number) = &e.card else {
        // a QR kept in a file is not opened: the file is the QR, a payment credential
        return Ok(());
    };
    let mut d = Draft::new("accounts", format!("Lidl Plus loyalty card {number}"));
    d.fact(FactType::Path, Some(path), find);
    d.fact(FactType::Account, Some(number.as_str()), &e.inv);
    d.fact(FactType::Url, e.url.as_deref(), &e.inv);
    d.time(
        e.cached.as_deref(),
        e.cached.as_ref().map(|_| TimeEncoding::UnixSeconds),
        "Lidl Plus payment QR cached",
        &e.inv,
    );
    d.interpretation = format!(
        "Entry {} of {path}: the payment QR the Lidl Plus app fetched ({}); its first 17 characters are the loyalty card number {number} the app shows for the signed-in account (iLEAPP's reading), cut in the query — the rest of the QR, a payment credential, is never read; time_stamp (UTC) as Unix seconds from SQL.",
        e.entry,
        e.url.as_deref().unwrap_or("?"),
    );
    run.record(d)?;
    let why = |what: &str| format!("{what} of the account signed in to Lidl Plus on the device.");
    run.observe_person(
        "owner",
        "device owner",
        &e.inv,
        &why,
        &[(
            IdType::AccountId,
            e.card_qualified.as_deref(),
            "The Lidl Plus loyalty card number",
        )],
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn receipt_spans_and_paths() {
        let html = r#"<div><span class="header">LIDL</span><span class="css_bold article" data-art-id="0081234" data-art-description="Leite" data-unit-price="0,79">Leite 0,79 A</span><span class="article" data-art-description="Pao">Pao 1,29 A</span><span class="discount" data-promotion-id="10001234">Desconto 6% -0,30</span></div>"#;
        let a = articles(html);
        assert_eq!(a.len(), 2);
        assert_eq!(a[0].0.attrs["data-art-description"], "Leite");
        assert!(a[0].1.is_none());
        let d = a[1].1.as_ref().unwrap();
        assert_eq!(d.attrs["data-promotion-id"], "10001234");
        assert_eq!(discount_amount(&d.content), Some("-0,30"));
        assert_eq!(discount_amount("Desconto"), None);
        let v: Value =
            serde_json::from_str(r#"{"tickets":[{"id":"T1","badges":{"returns":0}},{"id":"T2"}]}"#)
                .unwrap();
        let mut leaves = BTreeMap::new();
        flatten(&v, "$", &mut leaves);
        assert_eq!(leaves["$.tickets[0].badges.returns"].0, "0");
        assert_eq!(leaves["$.tickets[1].id"].0, "T2");
        assert!(is_store(
            "/private/var/mobile/Containers/Data/Application/X/Library/Caches/com.lidl.eci.lidl.plus/Cache.db"
        ));
        assert!(!is_store(
            "/private/var/mobile/Containers/Data/Application/X/Library/Caches/com.example.shop/Cache.db"
        ));
    }
}
