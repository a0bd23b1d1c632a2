//! OkHttp's HTTP response caches of every app (`<app data or external folder>/cache/…/journal`
//! with OkHttp's `<key>.0` metadata files): which addresses each app fetched, when, with what
//! answer. No ALEAPP module reads them; most Android apps (through OkHttp, Retrofit, Picasso,
//! Coil, Apollo) keep one, so the API calls an app made — a shop's profile and orders, a
//! messenger's media, a map's tiles — are on the device even where the app's own database is
//! encrypted or gone.
//!
//! | file | phenomenon | fields |
//! |---|---|---|
//! | the cache folder (`read_okhttp_cache`) | one `web` per cached response ("OkHttp cache of <package>: <method> <URL>") | URL, method, status line, state (kept, a write never completed, files the journal does not name), how often the app was served it from the cache, Content-Type, the server's Date, the other response headers, the request headers the answer varies on, cipher suite, TLS version, the SHA-256 of each certificate the server showed, the body's size (its file `<key>.1` named), the entry's key, whether the entry's name is the MD5 of its URL; sent and received (`OkHttp-Sent-Millis`, `OkHttp-Received-Millis`, Unix ms) |
//! | | one `web` per folder ("OkHttp cache <folder>: <n> responses") | the counts by state — `removed` ones (evicted or deleted by the app; their files are gone, the journal keeps the MD5 of their URL) are counted here only |
//!
//! A response in the cache shows the app asked for that address at the sent time (a response
//! served from the cache later is counted, not dated: OkHttp's journal keeps no time). The
//! headers are the server's; the Date header is the server's clock. Secrets are never printed:
//! the tool redacts `Authorization`, `Cookie`, `Set-Cookie` and secret-named headers before the
//! output is logged. The bodies (`<key>.1`) are not read here (their size and path are facts:
//! an examiner opens one with `read_text`).
//!
//! A `journal` is a generic name: Glide's image caches and other `DiskLruCache` users write
//! one too. Only journals in an app's `cache/` folder are read; Glide's own folder
//! (`image_manager_disk_cache`) is passed over, and a journal of another `DiskLruCache` (the
//! tool's `# not an OkHttp cache` line) gives nothing and no note. A journal that is no
//! `DiskLruCache` journal, or a metadata file cut short, is noted; the rest is read.
//!
//! Identities: none (an address is not a person; identifiers inside URLs are left to the
//! examiner and the full-text index).

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::FactType;

use super::Located;
use crate::drafts::{Draft, record_draft, unix_millis};
use crate::identity::{args_on, artefact_name};
use crate::outputs::{Table, escape};

/// Whether `l` is a `journal` in an app's cache folder that may be OkHttp's.
pub fn is_journal(l: &Located) -> bool {
    l.name() == "journal"
        && l.path.contains("/cache/")
        && !l.path.contains("/image_manager_disk_cache/")
        && super::data_package(&l.path).is_some()
}

/// One cache folder.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let name = artefact_name(&l.tree, &l.path);
    let Some(folder) = l.path.strip_suffix("/journal") else {
        return Ok(());
    };
    let package = super::data_package(&l.path).unwrap_or("?");
    let Some(inv) = crate::calls::call_or_note(
        ctx,
        &name,
        "read_okhttp_cache",
        args_on(&l.tree, serde_json::json!({ "path": folder })),
    )?
    else {
        return Ok(());
    };
    let text = &inv.output.text;
    let Some((head, rest)) = text.split_once('\n') else {
        return Ok(());
    };
    if !head.starts_with("# okhttp cache ") {
        // another DiskLruCache's journal: not this reader's
        return Ok(());
    }
    let problems: Vec<&str> = rest
        .lines()
        .filter(|line| line.starts_with("# problem "))
        .collect();
    if !problems.is_empty() {
        ctx.unparsed(
            &name,
            &format!(
                "{} of OkHttp's cache could not be read whole: {}",
                problems.len(),
                problems
                    .iter()
                    .map(|p| p.trim_start_matches("# problem "))
                    .collect::<Vec<_>>()
                    .join("; ")
            ),
            Some(&inv.record.invocation_id),
        )?;
    }
    let mut d = Draft::new("web", format!("OkHttp cache {folder}"));
    d.fact(FactType::Path, Some(folder), &l.found);
    let summary = head.trim_start_matches("# okhttp cache ");
    d.fact(FactType::Text, Some(summary), &inv);
    d.interpretation = format!(
        "{name}: the HTTP response cache OkHttp keeps for {package}: {summary}. Removed entries were evicted or deleted by the app; the journal keeps only the MD5 of their address."
    );
    record_draft(ctx, d)?;
    if head.contains(" past the limit of ") {
        ctx.unparsed(
            &name,
            &format!("more responses than the tool prints: {summary}"),
            Some(&inv.record.invocation_id),
        )?;
    }
    let t = Table::parse(rest);
    for row in &t.rows {
        let (Some(url), Some(key)) = (t.get(row, "url"), t.get(row, "key")) else {
            continue;
        };
        let method = t.get(row, "method").unwrap_or("GET");
        let mut d = Draft::new(
            "web",
            format!("OkHttp cache of {package}: {method} {}", escape(url)),
        );
        d.fact(FactType::Path, Some(folder), &l.found);
        let said = d.fields(
            &t,
            row,
            &inv,
            &[
                ("url", FactType::Url, "address"),
                ("method", FactType::Text, "method"),
                ("status", FactType::Text, "answer"),
                ("state", FactType::Text, "state"),
                ("reads", FactType::Count, "served from the cache"),
                ("content_type", FactType::Text, "type"),
                ("date", FactType::Text, "server date"),
                ("other_headers", FactType::Text, "headers"),
                ("vary_request_headers", FactType::Text, "request headers"),
                ("cipher_suite", FactType::Text, "cipher suite"),
                ("tls_version", FactType::Text, "TLS"),
                (
                    "peer_certificates_sha256",
                    FactType::Text,
                    "server certificates (SHA-256)",
                ),
                ("body_size", FactType::Count, "body bytes"),
                ("key", FactType::Hash, "entry (MD5 of the URL)"),
                (
                    "key_is_md5_of_url",
                    FactType::Text,
                    "key is the MD5 of the URL",
                ),
            ],
        );
        for (col, what) in [
            ("sent_ms", "Request sent (OkHttp)"),
            ("received_ms", "Response received (OkHttp)"),
        ] {
            let v = t.get(row, col);
            d.time(v, unix_millis(v), what, &inv);
        }
        d.interpretation = format!(
            "{name}: {package} asked for this address and OkHttp cached the answer; its body is the file {key}.1 beside the journal: {}.",
            said.join(", ")
        );
        record_draft(ctx, d)?;
    }
    Ok(())
}
