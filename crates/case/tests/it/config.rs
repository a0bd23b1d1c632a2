//! `config.yaml`: defaults, unknown keys, validation, and the shipped default file.

use expect_test::expect;
use masf_case::{Config, ConfigError, IssueKind, LlmProvider, StrategistKind};

use crate::util::CaseDir;

fn load(dir: &CaseDir, yaml: &str) -> Result<Config, ConfigError> {
    let path = dir.path().join("config.yaml");
    std::fs::write(&path, yaml).expect("write config.yaml");
    Config::load(Some(&path))
}

fn message(dir: &CaseDir, result: Result<Config, ConfigError>) -> String {
    match result {
        Ok(config) => panic!("expected an error, loaded {config:?}"),
        Err(err) => dir.sanitise(&err.to_string()),
    }
}

#[test]
fn defaults_when_absent() {
    let config = Config::load(None).expect("defaults");
    assert_eq!(config, Config::default());
    assert_eq!(config.llm.provider, LlmProvider::None);
    assert_eq!(config.strategist.kind, StrategistKind::Rule);
    assert_eq!(config.scoring.log10_lr.get("direct_evidence"), Some(2.0));
    assert_eq!(config.budgets.warn_at, [0.7, 0.9]);
    assert_eq!(config.tools.max_output_bytes, 16 * 1024 * 1024);
}

#[test]
fn empty_file_gives_defaults() {
    let dir = CaseDir::new();
    assert_eq!(
        load(&dir, "# nothing set\n").expect("defaults"),
        Config::default()
    );
}

#[test]
fn default_file_parses_to_default() {
    let parsed = Config::parse(
        Config::default_yaml(),
        std::path::Path::new("config.default.yaml"),
    )
    .expect("the shipped default config is valid");
    assert_eq!(parsed, Config::default());
    // ... and it mentions every setting, so it documents them all.
    let json = serde_json::to_value(Config::default()).expect("json");
    for (section, fields) in json.as_object().expect("object") {
        assert!(
            Config::default_yaml().contains(&format!("{section}:")),
            "{section}"
        );
        for key in fields.as_object().expect("object").keys() {
            assert!(
                Config::default_yaml().contains(&format!("{key}:")),
                "{section}.{key}"
            );
        }
    }
}

#[test]
fn missing_file_is_an_error() {
    let dir = CaseDir::new();
    let err = Config::load(Some(&dir.path().join("config.yaml")));
    assert!(matches!(err, Err(ConfigError::Read { .. })));
}

#[test]
fn partial_file_overrides_only_what_it_sets() {
    let dir = CaseDir::new();
    let config = load(
        &dir,
        "llm:\n  provider: openai_compatible\n  base_url: http://localhost:11434/v1\n  \
         model: qwen2.5\n  api_key_env: OLLAMA_KEY\nscoring:\n  log10_lr: {contradicts: -3}\n",
    )
    .expect("valid");
    let mut expected = Config::default();
    expected.llm.provider = LlmProvider::OpenaiCompatible;
    expected.llm.base_url = Some("http://localhost:11434/v1".into());
    expected.llm.model = Some("qwen2.5".into());
    expected.llm.api_key_env = Some("OLLAMA_KEY".into());
    expected.scoring.log10_lr.contradicts = -3.0;
    assert_eq!(config, expected);
}

#[test]
fn unknown_key() {
    let dir = CaseDir::new();
    let result = load(&dir, "budgets:\n  tool_calls: 10\n  wallclock_s: 60\n");
    let err = match &result {
        Err(err) => err,
        Ok(_) => panic!("expected an error"),
    };
    let [issue] = err.issues() else {
        panic!("{err}")
    };
    assert_eq!(issue.location.key_path(), "budgets.wallclock_s");
    assert!(matches!(
        issue.kind,
        IssueKind::UnknownKey {
            suggestion: Some("wall_clock_s"),
            ..
        }
    ));
    expect![[r#"$CASE/config.yaml: budgets: field "wallclock_s": unknown key; did you mean "wall_clock_s"? Valid keys here: tool_calls, rounds, wall_clock_s, tokens, warn_at"#]]
        .assert_eq(&message(&dir, result));
}

#[test]
fn api_keys_never_go_in_files() {
    let dir = CaseDir::new();
    let key = "sk-0123456789abcdefghijklmnopqrstuv";
    let result = load(&dir, &format!("llm: {{api_key_env: {key}}}\n"));
    let text = message(&dir, result);
    assert!(!text.contains(key), "the key must not be repeated: {text}");
    expect![[r#"$CASE/config.yaml: llm: field "api_key_env": this looks like an API key; keys never go in files: put the key in an environment variable and write that variable's name here (e.g. api_key_env: DEEPSEEK_API_KEY)"#]]
        .assert_eq(&text);
}

#[test]
fn validation_errors() {
    let dir = CaseDir::new();
    let result = load(
        &dir,
        "llm: {provider: openai_compatible, api_key_env: 'MY KEY', timeout_s: 0}\n\
         scoring: {prior: 0, supported_at: 0.3, refuted_at: 0.3, log10_lr: {supports: 1, same_as: 2}}\n\
         strategist: {max_rounds: 0}\n\
         budgets: {tool_calls: 0, tokens: 1.5, warn_at: [0.9, 0.9]}\n\
         tools: {max_output_bytes: 0}\n\
         run: {parallelism: all}\n",
    );
    expect![[r#"
        $CASE/config.yaml: 13 problems
          $CASE/config.yaml: llm: field "api_key_env": "MY KEY" is not an environment variable name (letters, digits and '_', not starting with a digit)
          $CASE/config.yaml: llm: field "base_url": required when llm.provider is openai_compatible
          $CASE/config.yaml: llm: field "model": required when llm.provider is openai_compatible
          $CASE/config.yaml: llm: field "timeout_s": 0 is out of range: must be at least 1
          $CASE/config.yaml: scoring.log10_lr: field "same_as": unknown key; valid keys here: direct_evidence, supports, consequence_observed, prerequisite_met, weakens, contradicts
          $CASE/config.yaml: scoring: field "prior": 0 is out of range: must be between 0 and 1 (exclusive)
          $CASE/config.yaml: scoring: field "refuted_at": 0.3 is out of range: must be below scoring.supported_at (0.3)
          $CASE/config.yaml: strategist: field "max_rounds": 0 is out of range: must be at least 1
          $CASE/config.yaml: budgets: field "tokens": 1.5 is out of range: must be a whole number, 0 or more
          $CASE/config.yaml: budgets: field "tool_calls": 0 is out of range: must be at least 1
          $CASE/config.yaml: budgets: field "warn_at[1]": 0.9 is out of range: warning levels must be ascending (follows 0.9)
          $CASE/config.yaml: tools: field "max_output_bytes": 0 is out of range: must be at least 1
          $CASE/config.yaml: run: field "parallelism": expected a whole number, found a string"#]]
    .assert_eq(&message(&dir, result));
}

#[test]
fn config_syntax_error() {
    let dir = CaseDir::new();
    let result = load(&dir, "llm:\n  provider: none\n bad indent: 1\n");
    let err = match &result {
        Err(err) => err,
        Ok(_) => panic!("expected an error"),
    };
    assert!(
        matches!(err.issues(), [i] if matches!(i.kind, IssueKind::Syntax { line: Some(_), .. }))
    );
    expect!["$CASE/config.yaml: YAML syntax error: did not find expected key at line 3 column 2, while parsing a block mapping"].assert_eq(&message(&dir, result));
}
