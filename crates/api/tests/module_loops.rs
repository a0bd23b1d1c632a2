//! No module of the api imports one that imports it back, directly or around a loop (issue
//! 22): `compose` is the root every phase composes from, `check` the consistency gate, and
//! `triage` → `resolve`, `repair` → `intake` → `report` run one way. Read from the sources: a
//! module's imports are its `crate::<module>` paths.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// `crate::<name>` module paths in the code of `text` (words after `crate::` that name a
/// module file; comment lines, doc links included, are not imports).
fn imports(text: &str, modules: &BTreeSet<String>) -> BTreeSet<String> {
    let code: String = text
        .lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n");
    let mut out = BTreeSet::new();
    for (i, _) in code.match_indices("crate::") {
        let rest = &code[i + "crate::".len()..];
        let rest = rest.trim_start_matches('{');
        let name: String = rest
            .chars()
            .take_while(|c| c.is_ascii_lowercase() || *c == '_')
            .collect();
        if modules.contains(&name) {
            out.insert(name);
        }
    }
    out
}

#[test]
fn no_api_module_imports_one_that_imports_it_back() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let files: BTreeMap<String, String> = std::fs::read_dir(&src)
        .unwrap()
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().to_str()?.strip_suffix(".rs")?.to_owned();
            (name != "lib").then(|| (name, std::fs::read_to_string(e.path()).unwrap()))
        })
        .collect();
    let modules: BTreeSet<String> = files.keys().cloned().collect();
    let graph: BTreeMap<&str, BTreeSet<String>> = files
        .iter()
        .map(|(m, text)| {
            let mut deps = imports(text, &modules);
            deps.remove(m);
            (m.as_str(), deps)
        })
        .collect();
    assert!(graph.len() >= 10, "read the api's modules: {graph:?}");
    // Depth-first search for a cycle, naming it.
    fn visit<'a>(
        n: &'a str,
        graph: &'a BTreeMap<&str, BTreeSet<String>>,
        path: &mut Vec<&'a str>,
        done: &mut BTreeSet<&'a str>,
    ) -> Option<Vec<String>> {
        if let Some(i) = path.iter().position(|p| *p == n) {
            let mut cycle: Vec<String> = path[i..].iter().map(|s| s.to_string()).collect();
            cycle.push(n.to_string());
            return Some(cycle);
        }
        if !done.insert(n) {
            return None;
        }
        path.push(n);
        for d in graph.get(n).into_iter().flatten() {
            if let Some(c) = visit(d.as_str(), graph, path, done) {
                return Some(c);
            }
        }
        path.pop();
        None
    }
    let mut done = BTreeSet::new();
    for m in graph.keys() {
        let mut path = Vec::new();
        let mut seen = BTreeSet::new();
        if let Some(cycle) = visit(m, &graph, &mut path, &mut seen) {
            panic!("module loop in crates/api: {}", cycle.join(" → "));
        }
        done.insert(*m);
    }
    // The edges that matter stay one-way.
    assert!(graph["triage"].contains("resolve") && !graph["resolve"].contains("triage"));
    assert!(graph["triage"].contains("compose") && graph["resolve"].contains("compose"));
}
