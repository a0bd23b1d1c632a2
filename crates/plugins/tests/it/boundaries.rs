//! The core sees plugins only through their trait: no core crate depends on this crate (the API
//! is the one composition root, in one file), and no core crate names a plugin or its agent.

use std::path::{Path, PathBuf};

const CORE: &[&str] = &[
    "evidence", "case", "store", "graph", "tools", "agents", "cli",
];

fn crates_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            if p.file_name().is_some_and(|n| n != "target" && n != "fuzz") {
                rust_files(&p, out);
            }
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

fn is_word_at(text: &str, at: usize, len: usize) -> bool {
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let before = text[..at].chars().next_back().is_none_or(|c| !ident(c));
    let after = text[at + len..].chars().next().is_none_or(|c| !ident(c));
    before && after
}

#[test]
fn only_the_api_composes_plugins_and_only_in_one_file() {
    for name in CORE {
        let manifest = std::fs::read_to_string(crates_dir().join(name).join("Cargo.toml"))
            .expect("core crate manifest");
        assert!(
            !manifest.contains("masf-plugins"),
            "crates/{name} depends on masf-plugins"
        );
    }
    let mut files = Vec::new();
    rust_files(&crates_dir().join("api/src"), &mut files);
    let composing: Vec<_> = files
        .iter()
        .filter(|f| {
            std::fs::read_to_string(f)
                .unwrap_or_default()
                .contains("masf_plugins")
        })
        .map(|f| {
            f.file_name()
                .unwrap_or_default()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    assert_eq!(
        composing,
        ["compose.rs"],
        "masf_plugins named outside api::compose, the composition root"
    );
}

#[test]
fn core_crates_do_not_name_plugins_or_their_agents() {
    let plugins = masf_plugins::all();
    let names: Vec<String> = plugins.iter().map(|p| p.name().to_string()).collect();
    let agents: Vec<String> = plugins.iter().map(|p| p.agent_name()).collect();
    let mut files = Vec::new();
    for name in CORE {
        rust_files(&crates_dir().join(name).join("src"), &mut files);
    }
    let mut agents_src = Vec::new();
    rust_files(&crates_dir().join("agents/src"), &mut agents_src);
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap_or_default();
        assert!(
            !text.contains("masf_plugins"),
            "{} uses masf_plugins",
            f.display()
        );
        for agent in &agents {
            assert!(
                !text.contains(agent.as_str()),
                "{} names the agent {agent}",
                f.display()
            );
        }
    }
    // The runtime does not even mention an evidence type's plugin by name.
    for f in &agents_src {
        let text = std::fs::read_to_string(f)
            .unwrap_or_default()
            .to_lowercase();
        for name in &names {
            let hits: Vec<usize> = text
                .match_indices(name.as_str())
                .map(|(i, _)| i)
                .filter(|&i| is_word_at(&text, i, name.len()))
                .collect();
            assert!(hits.is_empty(), "{} names the plugin {name}", f.display());
        }
    }
}
