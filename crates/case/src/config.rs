//! `config.yaml`: application defaults (no case data). Every key is optional; an absent file means
//! [`Config::default`], which is documented in `config.default.yaml` ([`Config::default_yaml`]).

use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::issue::{ConfigError, IssueKind};
use crate::yaml::{At, Obj, Reader};

const ROOT_KEYS: &[&str] = &["llm", "scoring", "strategist", "budgets", "tools", "run"];
const LLM_KEYS: &[&str] = &[
    "provider",
    "base_url",
    "model",
    "api_key_env",
    "timeout_s",
    "max_retries",
    "max_tokens",
    "cost_per_mtok_prompt",
    "cost_per_mtok_completion",
];
const SCORING_KEYS: &[&str] = &["prior", "supported_at", "refuted_at", "log10_lr"];
const STRATEGIST_KEYS: &[&str] = &[
    "kind",
    "max_rounds",
    "max_leads_per_round",
    "zero_yield_rounds_to_stop",
];
const BUDGET_KEYS: &[&str] = &["tool_calls", "rounds", "wall_clock_s", "tokens", "warn_at"];
const TOOLS_KEYS: &[&str] = &[
    "timeout_s",
    "max_output_bytes",
    "max_memory_mb",
    "artefact_timeout_s",
];
const RUN_KEYS: &[&str] = &["parallelism"];

/// Application settings.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Config {
    /// The language model used by LLM agents, if any.
    pub llm: LlmConfig,
    /// Hypothesis scoring (DESIGN §7).
    pub scoring: ScoringConfig,
    /// The strategist loop (DESIGN §10).
    pub strategist: StrategistConfig,
    /// Run budgets, enforced by the runtime.
    pub budgets: Budgets,
    /// Tool execution limits.
    pub tools: ToolsConfig,
    /// Run settings.
    pub run: RunConfig,
}

/// `llm:` — the model provider.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LlmConfig {
    /// `none` (deterministic agents only) or `openai_compatible`.
    pub provider: LlmProvider,
    /// Endpoint base URL (required for `openai_compatible`).
    pub base_url: Option<String>,
    /// Model name (required for `openai_compatible`).
    pub model: Option<String>,
    /// The NAME of the environment variable holding the API key (required for
    /// `openai_compatible`). Never the key itself.
    pub api_key_env: Option<String>,
    /// Per-request timeout, seconds.
    pub timeout_s: u64,
    /// Retries of a failed request.
    pub max_retries: u32,
    /// Maximum tokens per completion.
    pub max_tokens: u32,
    /// Price per million prompt tokens, for the cost estimate (any currency; unset = no
    /// estimate).
    pub cost_per_mtok_prompt: Option<f64>,
    /// Price per million completion tokens, for the cost estimate.
    pub cost_per_mtok_completion: Option<f64>,
}

/// Which LLM provider to use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LlmProvider {
    /// No model: only deterministic agents run.
    None,
    /// An OpenAI-compatible chat completions endpoint (DeepSeek, Ollama, llama.cpp, …).
    OpenaiCompatible,
}

impl LlmProvider {
    const NAMES: &[&str] = &["none", "openai_compatible"];
}

/// `scoring:` — log-odds parameters.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ScoringConfig {
    /// Prior probability of a new hypothesis, in (0, 1).
    pub prior: f64,
    /// Confidence at or above which a hypothesis is `supported`.
    pub supported_at: f64,
    /// Confidence at or below which a hypothesis is `refuted`.
    pub refuted_at: f64,
    /// The log10 likelihood ratio of each edge type.
    pub log10_lr: LrTable,
}

/// log10 likelihood ratios per edge type (DESIGN §7).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LrTable {
    /// `direct_evidence`.
    pub direct_evidence: f64,
    /// `supports`.
    pub supports: f64,
    /// `consequence_observed`.
    pub consequence_observed: f64,
    /// `prerequisite_met`.
    pub prerequisite_met: f64,
    /// `weakens`.
    pub weakens: f64,
    /// `contradicts`.
    pub contradicts: f64,
}

impl LrTable {
    /// The edge type names, as written in YAML.
    pub const EDGE_TYPES: &[&str] = &[
        "direct_evidence",
        "supports",
        "consequence_observed",
        "prerequisite_met",
        "weakens",
        "contradicts",
    ];

    /// The weight of an edge type by name.
    pub fn get(&self, edge_type: &str) -> Option<f64> {
        Some(match edge_type {
            "direct_evidence" => self.direct_evidence,
            "supports" => self.supports,
            "consequence_observed" => self.consequence_observed,
            "prerequisite_met" => self.prerequisite_met,
            "weakens" => self.weakens,
            "contradicts" => self.contradicts,
            _ => return None,
        })
    }

    fn slot(&mut self, edge_type: &str) -> Option<&mut f64> {
        Some(match edge_type {
            "direct_evidence" => &mut self.direct_evidence,
            "supports" => &mut self.supports,
            "consequence_observed" => &mut self.consequence_observed,
            "prerequisite_met" => &mut self.prerequisite_met,
            "weakens" => &mut self.weakens,
            "contradicts" => &mut self.contradicts,
            _ => return None,
        })
    }
}

/// `strategist:` — the lead-proposing loop.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct StrategistConfig {
    /// Rule-based or LLM strategist.
    pub kind: StrategistKind,
    /// Maximum strategist rounds.
    pub max_rounds: u32,
    /// Maximum leads proposed per round.
    pub max_leads_per_round: u32,
    /// Consecutive rounds without new findings after which the loop stops.
    pub zero_yield_rounds_to_stop: u32,
}

/// Which strategist runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum StrategistKind {
    /// Deterministic rules.
    Rule,
    /// The configured language model (needs `llm.provider` other than `none`).
    Llm,
}

impl StrategistKind {
    const NAMES: &[&str] = &["rule", "llm"];
}

/// `budgets:` — caps on one run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Budgets {
    /// Tool calls.
    pub tool_calls: u64,
    /// Strategist rounds.
    pub rounds: u32,
    /// Wall-clock seconds.
    pub wall_clock_s: u64,
    /// LLM tokens.
    pub tokens: u64,
    /// Fractions of each budget at which to warn, ascending, each in (0, 1).
    pub warn_at: Vec<f64>,
}

/// `tools:` — limits on each tool call.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ToolsConfig {
    /// Timeout of one tool call, seconds.
    pub timeout_s: u64,
    /// Largest output kept from one call, bytes.
    pub max_output_bytes: u64,
    /// Address-space limit of a tool worker process, MiB (where the app runs tools in
    /// worker processes: the CLI and the desktop app do).
    pub max_memory_mb: u64,
    /// Wall-clock time one artefact of a triage may take, seconds (0: no limit); past it the
    /// artefact is noted as not parsed and the triage goes on with the next one.
    pub artefact_timeout_s: u64,
}

/// `run:` — run settings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RunConfig {
    /// Worker threads; 0 means one per core.
    pub parallelism: u32,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            llm: LlmConfig {
                provider: LlmProvider::None,
                base_url: None,
                model: None,
                api_key_env: None,
                timeout_s: 120,
                max_retries: 3,
                max_tokens: 4096,
                cost_per_mtok_prompt: None,
                cost_per_mtok_completion: None,
            },
            scoring: ScoringConfig {
                prior: 0.5,
                supported_at: 0.8,
                refuted_at: 0.2,
                log10_lr: LrTable {
                    direct_evidence: 2.0,
                    supports: 1.0,
                    consequence_observed: 1.0,
                    prerequisite_met: 0.5,
                    weakens: -0.5,
                    contradicts: -2.0,
                },
            },
            strategist: StrategistConfig {
                kind: StrategistKind::Rule,
                max_rounds: 5,
                max_leads_per_round: 3,
                zero_yield_rounds_to_stop: 2,
            },
            budgets: Budgets {
                tool_calls: 20_000,
                rounds: 5,
                wall_clock_s: 3600,
                tokens: 2_000_000,
                warn_at: vec![0.7, 0.9],
            },
            tools: ToolsConfig {
                timeout_s: 60,
                max_output_bytes: 16 * 1024 * 1024,
                max_memory_mb: 4096,
                artefact_timeout_s: 600,
            },
            run: RunConfig { parallelism: 0 },
        }
    }
}

impl Config {
    /// Loads `config.yaml`; `None` gives the built-in defaults. A given path must exist. Every
    /// problem found is reported in one [`ConfigError::Invalid`].
    pub fn load(path: Option<&Path>) -> Result<Config, ConfigError> {
        let Some(path) = path else {
            return Ok(Config::default());
        };
        let file = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
        let text = std::fs::read_to_string(&file).map_err(|source| ConfigError::Read {
            file: file.clone(),
            source,
        })?;
        Config::parse(&text, &file)
    }

    /// Validates `config.yaml` text as if read from `file` (used in messages only).
    pub fn parse(text: &str, file: &Path) -> Result<Config, ConfigError> {
        let file: PathBuf = std::path::absolute(file).unwrap_or_else(|_| file.to_path_buf());
        let mut r = Reader::new(&file);
        let mut config = Config::default();
        if let Some(root) = r.parse(text)
            && let Some(root) = r.obj(&root, At::root(), None, ROOT_KEYS)
        {
            read_config(&mut r, &root, &mut config);
            validate(&mut r, &config);
        }
        // Group the problems by section, in schema order (root-level ones first).
        r.issues.sort_by_key(|issue| {
            let section = issue.location.item.split(['.', '[']).next().unwrap_or("");
            ROOT_KEYS
                .iter()
                .position(|k| *k == section)
                .map_or(0, |i| i + 1)
        });
        if r.issues.is_empty() {
            Ok(config)
        } else {
            Err(ConfigError::Invalid {
                file,
                issues: r.issues,
            })
        }
    }

    /// The documented `config.yaml` with every default, as shipped in the crate.
    pub fn default_yaml() -> &'static str {
        include_str!("../config.default.yaml")
    }
}

/// Overwrites `config` with every value present in the file.
fn read_config(r: &mut Reader, root: &Obj<'_>, config: &mut Config) {
    fn set<T>(slot: &mut T, value: Option<T>) {
        if let Some(value) = value {
            *slot = value;
        }
    }
    if let Some(o) = r.child_obj(root, "llm", LLM_KEYS) {
        let c = &mut config.llm;
        if let Some(name) = r.opt_str(&o, "provider") {
            let provider = match name.as_str() {
                "none" => Some(LlmProvider::None),
                "openai_compatible" => Some(LlmProvider::OpenaiCompatible),
                _ => {
                    unknown_choice(r, &o, "provider", name, LlmProvider::NAMES);
                    None
                }
            };
            set(&mut c.provider, provider);
        }
        c.base_url = r.opt_str(&o, "base_url");
        c.model = r.opt_str(&o, "model");
        c.api_key_env = read_env_name(r, &o, "api_key_env");
        set(&mut c.timeout_s, r.opt_uint(&o, "timeout_s"));
        set(&mut c.max_retries, r.opt_uint(&o, "max_retries"));
        set(&mut c.max_tokens, r.opt_uint(&o, "max_tokens"));
        c.cost_per_mtok_prompt = r.opt_f64(&o, "cost_per_mtok_prompt");
        c.cost_per_mtok_completion = r.opt_f64(&o, "cost_per_mtok_completion");
    }
    if let Some(o) = r.child_obj(root, "scoring", SCORING_KEYS) {
        let c = &mut config.scoring;
        set(&mut c.prior, r.opt_f64(&o, "prior"));
        set(&mut c.supported_at, r.opt_f64(&o, "supported_at"));
        set(&mut c.refuted_at, r.opt_f64(&o, "refuted_at"));
        if let Some(lr) = r.child_obj(&o, "log10_lr", LrTable::EDGE_TYPES) {
            for &edge_type in LrTable::EDGE_TYPES {
                let value = r.opt_f64(&lr, edge_type);
                if let Some(slot) = c.log10_lr.slot(edge_type) {
                    set(slot, value);
                }
            }
        }
    }
    if let Some(o) = r.child_obj(root, "strategist", STRATEGIST_KEYS) {
        let c = &mut config.strategist;
        if let Some(name) = r.opt_str(&o, "kind") {
            let kind = match name.as_str() {
                "rule" => Some(StrategistKind::Rule),
                "llm" => Some(StrategistKind::Llm),
                _ => {
                    unknown_choice(r, &o, "kind", name, StrategistKind::NAMES);
                    None
                }
            };
            set(&mut c.kind, kind);
        }
        set(&mut c.max_rounds, r.opt_uint(&o, "max_rounds"));
        set(
            &mut c.max_leads_per_round,
            r.opt_uint(&o, "max_leads_per_round"),
        );
        set(
            &mut c.zero_yield_rounds_to_stop,
            r.opt_uint(&o, "zero_yield_rounds_to_stop"),
        );
    }
    if let Some(o) = r.child_obj(root, "budgets", BUDGET_KEYS) {
        let c = &mut config.budgets;
        set(&mut c.tool_calls, r.opt_uint(&o, "tool_calls"));
        set(&mut c.rounds, r.opt_uint(&o, "rounds"));
        set(&mut c.wall_clock_s, r.opt_uint(&o, "wall_clock_s"));
        set(&mut c.tokens, r.opt_uint(&o, "tokens"));
        set(&mut c.warn_at, r.opt_f64_list(&o, "warn_at"));
    }
    if let Some(o) = r.child_obj(root, "tools", TOOLS_KEYS) {
        set(&mut config.tools.timeout_s, r.opt_uint(&o, "timeout_s"));
        set(
            &mut config.tools.max_output_bytes,
            r.opt_uint(&o, "max_output_bytes"),
        );
        set(
            &mut config.tools.max_memory_mb,
            r.opt_uint(&o, "max_memory_mb"),
        );
        set(
            &mut config.tools.artefact_timeout_s,
            r.opt_uint(&o, "artefact_timeout_s"),
        );
    }
    if let Some(o) = r.child_obj(root, "run", RUN_KEYS) {
        set(&mut config.run.parallelism, r.opt_uint(&o, "parallelism"));
    }
}

fn unknown_choice(
    r: &mut Reader,
    o: &Obj<'_>,
    key: &str,
    value: String,
    expected: &'static [&'static str],
) {
    r.report(
        &o.at,
        Some(key),
        IssueKind::UnknownChoice { value, expected },
    );
}

/// An optional environment variable name; a value that looks like a key is rejected without
/// being repeated in the message.
fn read_env_name(r: &mut Reader, o: &Obj<'_>, key: &str) -> Option<String> {
    let value = r.opt_str(o, key)?;
    if looks_like_secret(&value) {
        r.report(&o.at, Some(key), IssueKind::SecretInFile);
        return None;
    }
    if !is_env_name(&value) {
        r.report(&o.at, Some(key), IssueKind::InvalidEnvVarName { value });
        return None;
    }
    Some(value)
}

/// `[A-Za-z_][A-Za-z0-9_]*`.
pub(crate) fn is_env_name(s: &str) -> bool {
    let mut chars = s.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Whether a value looks like an API key or token rather than a variable name: a well-known key
/// prefix, or a long run of letters and digits that no one would name a variable.
fn looks_like_secret(s: &str) -> bool {
    let s = s.trim();
    const PREFIXES: &[&str] = &["sk-", "sk_", "Bearer ", "bearer ", "AIza", "xai-", "gsk_"];
    if PREFIXES.iter().any(|p| s.starts_with(p)) {
        return true;
    }
    let has_digit = s.chars().any(|c| c.is_ascii_digit());
    let has_lower = s.chars().any(|c| c.is_ascii_lowercase());
    let has_upper = s.chars().any(|c| c.is_ascii_uppercase());
    let len = s.chars().count();
    (len >= 20 && has_digit && !s.contains('_'))
        || (len >= 32 && has_digit && has_lower && has_upper)
}

/// Range and consistency checks on the merged configuration.
fn validate(r: &mut Reader, c: &Config) {
    let root = At::root();
    let open_unit = "must be between 0 and 1 (exclusive)";

    let llm = root.child("llm");
    if c.llm.provider == LlmProvider::OpenaiCompatible {
        let condition = "llm.provider is openai_compatible";
        for (key, value) in [
            ("base_url", &c.llm.base_url),
            ("model", &c.llm.model),
            ("api_key_env", &c.llm.api_key_env),
        ] {
            if value.as_deref().is_none_or(|v| v.trim().is_empty())
                && !already_reported(r, &llm, key)
            {
                let kind = IssueKind::RequiredWhen {
                    condition: condition.into(),
                };
                r.report(&llm, Some(key), kind);
            }
        }
    }
    if let Some(url) = &c.llm.base_url
        && !(url.starts_with("http://") || url.starts_with("https://"))
    {
        r.report(
            &llm,
            Some("base_url"),
            IssueKind::InvalidUrl { value: url.clone() },
        );
    }
    positive(r, &llm, "timeout_s", c.llm.timeout_s);
    positive(r, &llm, "max_tokens", c.llm.max_tokens.into());
    for (key, price) in [
        ("cost_per_mtok_prompt", c.llm.cost_per_mtok_prompt),
        ("cost_per_mtok_completion", c.llm.cost_per_mtok_completion),
    ] {
        if let Some(p) = price
            && !(p.is_finite() && p >= 0.0)
        {
            let rule = "must be a price of 0 or more".to_string();
            out_of_range(r, &llm, key, p.to_string(), rule);
        }
    }

    let scoring = root.child("scoring");
    for (key, value) in [
        ("prior", c.scoring.prior),
        ("supported_at", c.scoring.supported_at),
        ("refuted_at", c.scoring.refuted_at),
    ] {
        if !(value > 0.0 && value < 1.0) {
            out_of_range(r, &scoring, key, value.to_string(), open_unit.into());
        }
    }
    if c.scoring.refuted_at >= c.scoring.supported_at {
        let rule = format!(
            "must be below scoring.supported_at ({})",
            c.scoring.supported_at
        );
        out_of_range(
            r,
            &scoring,
            "refuted_at",
            c.scoring.refuted_at.to_string(),
            rule,
        );
    }

    let strategist = root.child("strategist");
    positive(r, &strategist, "max_rounds", c.strategist.max_rounds.into());
    positive(
        r,
        &strategist,
        "max_leads_per_round",
        c.strategist.max_leads_per_round.into(),
    );
    positive(
        r,
        &strategist,
        "zero_yield_rounds_to_stop",
        c.strategist.zero_yield_rounds_to_stop.into(),
    );
    if c.strategist.kind == StrategistKind::Llm && c.llm.provider == LlmProvider::None {
        let kind = IssueKind::Conflict {
            reason: "the llm strategist needs a model, but llm.provider is none; set \
                     llm.provider: openai_compatible or strategist.kind: rule"
                .into(),
        };
        r.report(&strategist, Some("kind"), kind);
    }

    let budgets = root.child("budgets");
    positive(r, &budgets, "tool_calls", c.budgets.tool_calls);
    positive(r, &budgets, "rounds", c.budgets.rounds.into());
    positive(r, &budgets, "wall_clock_s", c.budgets.wall_clock_s);
    positive(r, &budgets, "tokens", c.budgets.tokens);
    for (i, &level) in c.budgets.warn_at.iter().enumerate() {
        let key = format!("warn_at[{i}]");
        if !(level > 0.0 && level < 1.0) {
            out_of_range(r, &budgets, &key, level.to_string(), open_unit.into());
        } else if let Some(&before) = i.checked_sub(1).and_then(|j| c.budgets.warn_at.get(j))
            && level <= before
        {
            let rule = format!("warning levels must be ascending (follows {before})");
            out_of_range(r, &budgets, &key, level.to_string(), rule);
        }
    }

    let tools = root.child("tools");
    positive(r, &tools, "timeout_s", c.tools.timeout_s);
    positive(r, &tools, "max_output_bytes", c.tools.max_output_bytes);
    positive(r, &tools, "max_memory_mb", c.tools.max_memory_mb);
}

/// Whether a problem was already recorded at `at`'s `field` (so a bad value is not also reported
/// as missing).
fn already_reported(r: &Reader, at: &At, field: &str) -> bool {
    r.issues
        .iter()
        .any(|i| i.location.item == at.item() && i.location.field.as_deref() == Some(field))
}

fn positive(r: &mut Reader, at: &At, key: &str, value: u64) {
    if value == 0 {
        out_of_range(r, at, key, "0".into(), "must be at least 1".into());
    }
}

fn out_of_range(r: &mut Reader, at: &At, key: &str, value: String, rule: String) {
    r.report(at, Some(key), IssueKind::OutOfRange { value, rule });
}

#[cfg(test)]
mod tests {
    use expect_test::{Expect, expect};

    use super::*;

    /// Parses `yaml` as `/cfg/config.yaml`; shows the problems, or the settings that differ from
    /// the defaults.
    fn check(yaml: &str, expect: Expect) {
        let actual = match Config::parse(yaml, Path::new("/cfg/config.yaml")) {
            Ok(config) => {
                let changed = serde_json::to_value(&config).unwrap_or_default();
                let default = serde_json::to_value(Config::default()).unwrap_or_default();
                let mut lines = Vec::new();
                diff("", &default, &changed, &mut lines);
                format!("ok {}", lines.join(", "))
            }
            Err(err) => err.to_string(),
        };
        expect.assert_eq(&actual);
    }

    fn diff(path: &str, a: &serde_json::Value, b: &serde_json::Value, out: &mut Vec<String>) {
        match (a, b) {
            (serde_json::Value::Object(a), serde_json::Value::Object(b)) => {
                for (k, av) in a {
                    let bv = b.get(k).unwrap_or(&serde_json::Value::Null);
                    let p = if path.is_empty() {
                        k.clone()
                    } else {
                        format!("{path}.{k}")
                    };
                    diff(&p, av, bv, out);
                }
            }
            _ if a != b => out.push(format!("{path}={b}")),
            _ => {}
        }
    }

    #[test]
    fn overrides() {
        check("", expect!["ok "]);
        check(
            "llm: {provider: openai_compatible, base_url: 'https://api.deepseek.com/v1', \
             model: deepseek-chat, api_key_env: DEEPSEEK_API_KEY}\n\
             scoring: {log10_lr: {supports: 0.8}}\nbudgets: {warn_at: [0.5]}\nrun: {parallelism: 2}",
            expect![[
                r#"ok llm.provider="openai_compatible", llm.base_url="https://api.deepseek.com/v1", llm.model="deepseek-chat", llm.api_key_env="DEEPSEEK_API_KEY", scoring.log10_lr.supports=0.8, budgets.warn_at=[0.5], run.parallelism=2"#
            ]],
        );
    }

    #[test]
    fn problems() {
        check(
            "llm: {provider: openai_compatible, base_url: 'ftp://x', api_key_env: sk-abc123}",
            expect![[r#"
                /cfg/config.yaml: 3 problems
                  /cfg/config.yaml: llm: field "api_key_env": this looks like an API key; keys never go in files: put the key in an environment variable and write that variable's name here (e.g. api_key_env: DEEPSEEK_API_KEY)
                  /cfg/config.yaml: llm: field "model": required when llm.provider is openai_compatible
                  /cfg/config.yaml: llm: field "base_url": invalid URL "ftp://x": must start with http:// or https://"#]],
        );
        check(
            "strategist: {kind: llm, max_rounds: -1, max_leads_per_round: 0}\n\
             budgets: {rounds: 99999999999, warn_at: [0.9, 0.7, 1]}",
            expect![[r#"
                /cfg/config.yaml: 6 problems
                  /cfg/config.yaml: strategist: field "max_rounds": -1 is out of range: must be a whole number, 0 or more
                  /cfg/config.yaml: strategist: field "max_leads_per_round": 0 is out of range: must be at least 1
                  /cfg/config.yaml: strategist: field "kind": the llm strategist needs a model, but llm.provider is none; set llm.provider: openai_compatible or strategist.kind: rule
                  /cfg/config.yaml: budgets: field "rounds": 99999999999 is out of range: too large
                  /cfg/config.yaml: budgets: field "warn_at[1]": 0.7 is out of range: warning levels must be ascending (follows 0.9)
                  /cfg/config.yaml: budgets: field "warn_at[2]": 1 is out of range: must be between 0 and 1 (exclusive)"#]],
        );
        check(
            "scoring: {prior: 1, refuted_at: 0.9, log10_lr: {same_as: 1, supports: '1'}}",
            expect![[r#"
                /cfg/config.yaml: 4 problems
                  /cfg/config.yaml: scoring.log10_lr: field "same_as": unknown key; valid keys here: direct_evidence, supports, consequence_observed, prerequisite_met, weakens, contradicts
                  /cfg/config.yaml: scoring.log10_lr: field "supports": expected a number, found a string
                  /cfg/config.yaml: scoring: field "prior": 1 is out of range: must be between 0 and 1 (exclusive)
                  /cfg/config.yaml: scoring: field "refuted_at": 0.9 is out of range: must be below scoring.supported_at (0.8)"#]],
        );
        check(
            "llm: {provider: claude}\nstrategist: {kind: genius}\ntool: {}",
            expect![[r#"
                /cfg/config.yaml: 3 problems
                  /cfg/config.yaml: field "tool": unknown key; did you mean "tools"? Valid keys here: llm, scoring, strategist, budgets, tools, run
                  /cfg/config.yaml: llm: field "provider": unknown value "claude"; valid values: none, openai_compatible
                  /cfg/config.yaml: strategist: field "kind": unknown value "genius"; valid values: rule, llm"#]],
        );
    }

    #[test]
    fn llm_prices() {
        check(
            "llm: {cost_per_mtok_prompt: 0.27, cost_per_mtok_completion: 1.1}",
            expect![[r#"ok llm.cost_per_mtok_prompt=0.27, llm.cost_per_mtok_completion=1.1"#]],
        );
        check(
            "llm: {cost_per_mtok_prompt: -1, cost_per_mtok_completion: 'cheap'}",
            expect![[r#"
                /cfg/config.yaml: 2 problems
                  /cfg/config.yaml: llm: field "cost_per_mtok_completion": expected a number, found a string
                  /cfg/config.yaml: llm: field "cost_per_mtok_prompt": -1 is out of range: must be a price of 0 or more"#]],
        );
    }

    #[test]
    fn env_names_and_secrets() {
        for (value, secret, env_name) in [
            ("DEEPSEEK_API_KEY", false, true),
            ("OPENAI_API_KEY", false, true),
            ("my_key", false, true),
            ("_X1", false, true),
            ("sk-abc", true, false),
            ("sk-proj-0123456789abcdefABCDEF", true, false),
            ("Bearer abc", true, false),
            ("AKIAIOSFODNN7EXAMPLE", true, true),
            ("0123456789abcdef0123456789abcdef", true, false),
            ("1KEY", false, false),
            ("API-KEY", false, false),
        ] {
            assert_eq!(looks_like_secret(value), secret, "secret? {value}");
            assert_eq!(is_env_name(value), env_name, "env name? {value}");
        }
    }

    #[test]
    fn lr_table_names_cover_every_field() {
        let mut table = Config::default().scoring.log10_lr;
        for name in LrTable::EDGE_TYPES {
            assert!(table.get(name).is_some(), "{name}");
            assert!(table.slot(name).is_some(), "{name}");
        }
        assert_eq!(table.get("same_as"), None);
    }
}
