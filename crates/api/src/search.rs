//! `masf index` and `masf search`: wiring of the full-text index (`masf_index`, built and
//! queried through `masf_tools::index_tools`) to the case: where each source's index lives,
//! the `index_text` invocation that logs a build, and `search_index` invocations per source.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use masf_store::{InvocationStatus, NewInvocation};
use masf_tools::index_tools::{DerivedText, IndexProgress, IndexRef, build_index, index_dir};
use masf_tools::{Call, Catalog, Invoker, Limits, SourceCtx};
use serde::Serialize;
use serde_json::json;

use crate::{ApiError, CaseCtx, Clock, ErrorCode};

/// Where a source's index is, with the region its phone numbers are read in.
pub(crate) fn index_ref(ctx: &CaseCtx, source_id: &str) -> IndexRef {
    IndexRef {
        dir: index_dir(&ctx.work_dir, source_id),
        region: ctx
            .case
            .source(source_id)
            .and_then(|s| s.region)
            .map(|r| r.code().to_string()),
    }
}

/// What `masf index` did for one source.
#[derive(Debug, Clone, Serialize, ts_rs::TS)]
pub struct Indexed {
    pub source_id: String,
    /// `built`, `current` (an index of this version was there: nothing to do) or `failed`.
    pub outcome: String,
    /// The `index_text` invocation that logged the build.
    #[ts(optional)]
    pub invocation_id: Option<String>,
    pub files: u64,
    pub skipped: u64,
    #[ts(optional)]
    pub error: Option<String>,
}

/// A source to index or search: (id, evidence path, `password_env`), owned, as the store is
/// written while they are walked.
type Chosen = (String, std::path::PathBuf, Option<String>);

/// Which sources to index or search (all when empty).
fn chosen(ctx: &CaseCtx, only: &[String]) -> Result<Vec<Chosen>, ApiError> {
    for id in only {
        if ctx.case.source(id).is_none() {
            return Err(ApiError::new(
                ErrorCode::BadRequest,
                format!(
                    "no source {id} in this case; its sources: {}",
                    ctx.case
                        .sources
                        .iter()
                        .map(|s| s.id.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            ));
        }
    }
    Ok(ctx
        .case
        .sources
        .iter()
        .filter(|s| only.is_empty() || only.contains(&s.id))
        .map(|s| (s.id.clone(), s.path.clone(), s.password_env.clone()))
        .collect())
}

/// The OCR text the case's log holds for `source_id`: every `ocr_image` invocation that
/// succeeded (its header line dropped), in log order.
fn ocr_texts(ctx: &CaseCtx, source_id: &str) -> Result<Vec<DerivedText>, ApiError> {
    let mut found = Vec::new();
    ctx.store.for_each_invocation(|r| -> Result<(), ApiError> {
        if r.source_id == source_id && r.tool == "ocr_image" && r.status == InvocationStatus::Ok {
            found.push(r);
        }
        Ok(())
    })?;
    let mut out = Vec::new();
    for r in found {
        let args: serde_json::Value = serde_json::from_str(&r.args).unwrap_or_default();
        let Some(path) = args["path"].as_str() else {
            continue;
        };
        let output = ctx.store.invocation_output(&r.invocation_id)?;
        let text = String::from_utf8_lossy(&output);
        let body = match text.split_once('\n') {
            Some((head, rest)) if head.starts_with("# ocr_image") => rest,
            _ => &text,
        };
        if body.trim().is_empty() {
            continue;
        }
        out.push(DerivedText {
            partition: args["partition"].as_str().map(str::to_string),
            path: masf_evidence::fs::normalize_path(path),
            kind: "ocr",
            invocation_id: r.invocation_id,
            output_sha256: r.output_sha256,
            text: body.to_string(),
        });
    }
    Ok(out)
}

/// Whether the index at `dir` holds every one of `derived` (its manifest names each
/// invocation), so a build after new OCR outputs is not skipped as current.
fn holds_all(dir: &std::path::Path, derived: &[DerivedText]) -> bool {
    let Ok(m) = masf_index::Manifest::read(dir) else {
        return false;
    };
    let have: std::collections::BTreeSet<&str> = m
        .files
        .iter()
        .filter_map(|f| f.kind.split_once(':').map(|(_, inv)| inv))
        .collect();
    derived
        .iter()
        .all(|d| have.contains(d.invocation_id.as_str()))
}

/// Builds the index of every chosen source that has none of this version, or whose index
/// lacks OCR text the log now holds (all of them with `rebuild`), each build logged as an
/// `index_text` invocation whose output is its manifest. The OCR outputs of the source's
/// logged `ocr_image` calls are indexed beside its files.
pub fn index(
    ctx: &mut CaseCtx,
    only: &[String],
    rebuild: bool,
    clock: &dyn Clock,
    cancel: &AtomicBool,
    progress: &mut dyn FnMut(&str, &IndexProgress),
) -> Result<Vec<Indexed>, ApiError> {
    let sources = chosen(ctx, only)?;
    let mut out = Vec::new();
    for (id, path, password_env) in sources {
        let target = index_ref(ctx, &id);
        let derived = ocr_texts(ctx, &id)?;
        if !rebuild
            && masf_index::check_version(&target.dir).is_ok()
            && holds_all(&target.dir, &derived)
        {
            out.push(Indexed {
                source_id: id,
                outcome: "current".into(),
                invocation_id: None,
                files: 0,
                skipped: 0,
                error: None,
            });
            continue;
        }
        let started = Instant::now();
        let ts = clock.now();
        let built = SourceCtx::open_with(&id, &path, password_env.as_deref()).and_then(|source| {
            build_index(&source, &target, &derived, cancel, &mut |p| {
                progress(&id, p)
            })
        });
        let (status, reason, output, files, skipped) = match &built {
            Ok(m) => (
                InvocationStatus::Ok,
                None,
                m.render(),
                m.files.len() as u64,
                m.skipped.len() as u64,
            ),
            Err(e) => (
                InvocationStatus::Failed,
                Some(e.to_string()),
                String::new(),
                0,
                0,
            ),
        };
        let mut versions = masf_store::Versions::new();
        versions.insert("masf_tools".into(), env!("CARGO_PKG_VERSION").into());
        versions.insert("tool".into(), masf_index::EXTRACTOR_VERSION.into());
        versions.insert("index_format".into(), masf_index::FORMAT.into());
        versions.insert("tantivy".into(), masf_index::tantivy_version());
        let record = ctx.store.record_invocation(&NewInvocation {
            source_id: id.clone(),
            tool: "index_text".into(),
            args: json!({"rebuild": rebuild}).to_string(),
            status,
            reason: reason.clone(),
            cached_from: None,
            output: output.into_bytes(),
            agent: "examiner".into(),
            task_id: "index".into(),
            ts,
            duration_ms: started.elapsed().as_millis() as u64,
            versions,
            idempotency_key: None,
        })?;
        out.push(Indexed {
            source_id: id,
            outcome: if built.is_ok() { "built" } else { "failed" }.into(),
            invocation_id: Some(record.invocation_id),
            files,
            skipped,
            error: reason,
        });
    }
    Ok(out)
}

/// One hit of `masf search`, with its source and the invocation that found it.
#[derive(Debug, Clone, Serialize, ts_rs::TS)]
pub struct SearchHit {
    pub source_id: String,
    pub invocation_id: String,
    #[serde(flatten)]
    #[ts(flatten)]
    pub hit: masf_index::Hit,
}

/// A source searched, and the `search_index` invocation that did it.
#[derive(Debug, Clone, Serialize, ts_rs::TS)]
pub struct Searched {
    pub source_id: String,
    pub invocation_id: String,
}

/// A source not searched, and why (no index yet: `masf index`; unreadable evidence).
#[derive(Debug, Clone, Serialize, ts_rs::TS)]
pub struct NotSearched {
    pub source_id: String,
    pub reason: String,
}

/// What the examiner asks `masf search` / the Search view for.
#[derive(Debug, Clone, Default, serde::Deserialize, ts_rs::TS)]
pub struct SearchRequest {
    pub query: String,
    #[serde(default)]
    pub mode: masf_index::Mode,
    /// Only these sources (all when empty).
    #[serde(default)]
    pub sources: Vec<String>,
    /// RFC 3339 bounds of the files' modification times.
    #[serde(default)]
    #[ts(optional)]
    pub from: Option<String>,
    #[serde(default)]
    #[ts(optional)]
    pub to: Option<String>,
    #[serde(default)]
    #[ts(optional, type = "number")]
    pub limit: Option<u64>,
}

impl SearchRequest {
    /// The `search_index` arguments it stands for.
    pub fn args(&self) -> serde_json::Value {
        let mut a = json!({
            "query": self.query,
            "mode": self.mode,
            "limit": self.limit.unwrap_or(masf_tools::index_tools::SEARCH_INDEX_DEFAULT_LIMIT),
        });
        if let Some(t) = &self.from {
            a["from"] = t.as_str().into();
        }
        if let Some(t) = &self.to {
            a["to"] = t.as_str().into();
        }
        a
    }
}

/// What `masf search` found.
#[derive(Debug, Clone, Serialize, ts_rs::TS)]
pub struct SearchResult {
    pub hits: Vec<SearchHit>,
    /// Sources searched, each with its `search_index` invocation.
    pub searched: Vec<Searched>,
    /// Sources without an index (run `masf index`), or whose search failed, with why.
    pub not_searched: Vec<NotSearched>,
}

/// Searches the index of every chosen source (all when `only` is empty) with one logged
/// `search_index` invocation each, and merges the hits by score.
pub fn search(
    ctx: &mut CaseCtx,
    request: &SearchRequest,
    clock: &dyn Clock,
) -> Result<SearchResult, ApiError> {
    let only = &request.sources;
    let args = &request.args();
    let mut catalog = Catalog::new();
    catalog.register(Arc::new(masf_tools::index_tools::SearchIndex));
    let invoker =
        Invoker::new(Arc::new(catalog), Limits::from(&ctx.config.tools)).with_cache(false);
    let limit = args
        .get("limit")
        .and_then(serde_json::Value::as_u64)
        .unwrap_or(masf_tools::index_tools::SEARCH_INDEX_DEFAULT_LIMIT) as usize;
    let sources = chosen(ctx, only)?;
    let mut lists = Vec::new();
    let mut searched = Vec::new();
    let mut not_searched = Vec::new();
    for (id, path, password_env) in sources {
        let target = index_ref(ctx, &id);
        if let Err(e) = masf_index::check_version(&target.dir) {
            not_searched.push(NotSearched {
                source_id: id,
                reason: e.to_string(),
            });
            continue;
        }
        let source = match SourceCtx::open_with(&id, &path, password_env.as_deref()) {
            Ok(s) => Arc::new(s.with_index(target)),
            Err(e) => {
                not_searched.push(NotSearched {
                    source_id: id,
                    reason: e.to_string(),
                });
                continue;
            }
        };
        let invoked = invoker
            .invoke(
                &mut ctx.store,
                &source,
                Call {
                    tool: "search_index",
                    args,
                    agent: "examiner",
                    task_id: "search",
                    ts: clock.now(),
                },
            )
            .map_err(|e| ApiError::new(ErrorCode::Store, e.to_string()))?;
        let rec = invoked.record;
        if rec.status != InvocationStatus::Ok {
            let why = rec.reason.unwrap_or_default();
            // A bad query is the same for every source: say it once, as the examiner's error.
            if why.starts_with("invalid arguments") {
                return Err(ApiError::new(ErrorCode::BadRequest, why));
            }
            not_searched.push(NotSearched {
                source_id: id,
                reason: why,
            });
            continue;
        }
        let hits: Vec<masf_index::Hit> = invoked
            .output
            .structured
            .and_then(|v| serde_json::from_value(v).ok())
            .unwrap_or_default();
        searched.push(Searched {
            source_id: id.clone(),
            invocation_id: rec.invocation_id.clone(),
        });
        lists.push(((id, rec.invocation_id), hits));
    }
    let hits = masf_index::merge(lists, limit)
        .into_iter()
        .map(|((source_id, invocation_id), hit)| SearchHit {
            source_id,
            invocation_id,
            hit,
        })
        .collect();
    Ok(SearchResult {
        hits,
        searched,
        not_searched,
    })
}
