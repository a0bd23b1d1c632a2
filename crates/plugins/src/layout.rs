//! Recognising a device tree by the directories it holds, wherever it sits in a source (the
//! plugins' layout detection: a partial or tool-specific extraction, a copied `/data`).

/// The detection of a plugin that recognises a tree by the directories it holds: `None`
/// without a marker, else 60 plus 5 for each further marker (at most 90), one reason per
/// marker naming the evidence type and where the marker sits.
pub fn layout_detection(kind: &str, markers: Vec<String>) -> Option<masf_agents::Detection> {
    let extra = u8::try_from(markers.len().checked_sub(1)?).unwrap_or(u8::MAX);
    Some(masf_agents::Detection {
        score: 60u8.saturating_add(extra.saturating_mul(5)).min(90),
        reasons: markers
            .into_iter()
            .map(|m| format!("{kind} whose tree holds {m}"))
            .collect(),
    })
}

/// Directories visited at most when a plugin looks for the directories that mark its tree.
pub const LAYOUT_DIRS: usize = 512;

/// Deepest level below a file system's root where markers are looked for: deep enough for a
/// tool's folders above the device tree (a UFED-style zip's `<device>/EXTRACTION_FFS/Dump/`
/// puts `/data/data` at the fifth level), breadth first within [`LAYOUT_DIRS`].
pub const LAYOUT_DEPTH: usize = 6;

/// The subdirectories `(name, path)` of `dir` (none when it cannot be listed).
pub fn subdirs(fs: &dyn masf_evidence::fs::FileSystem, dir: &str) -> Vec<(String, String)> {
    fs.list_dir(dir)
        .map(|v| {
            v.into_iter()
                .filter(|e| e.kind == masf_evidence::fs::EntryKind::Dir)
                .map(|e| (e.name, e.path))
                .collect()
        })
        .unwrap_or_default()
}

/// What [`find_markers`] asks of each directory: given the file system, the directory and its
/// subdirectories `(name, path)`, the markers found there and whether to descend into it.
pub type MarkerVisit<'a> = dyn FnMut(&dyn masf_evidence::fs::FileSystem, &str, &[(String, String)]) -> (Vec<String>, bool)
    + 'a;

/// Walks the directories of the first [`LAYOUT_DEPTH`] levels of the first file system of `node` (or of
/// the first scan child) that yields markers, breadth first, within [`LAYOUT_DIRS`]
/// directories: `visit(fs, dir, subdirs)` returns the markers found at `dir` and whether to
/// descend into it.
pub fn find_markers(node: &masf_evidence::scan::Node, visit: &mut MarkerVisit<'_>) -> Vec<String> {
    let mut found = Vec::new();
    if let Some(fs) = &node.fs {
        let fs = fs.as_ref();
        let mut queue = std::collections::VecDeque::from([("/".to_string(), 0usize)]);
        let mut seen = 0usize;
        while let Some((dir, depth)) = queue.pop_front() {
            seen += 1;
            if seen > LAYOUT_DIRS {
                break;
            }
            let children = subdirs(fs, &dir);
            let (markers, descend) = visit(fs, &dir, &children);
            found.extend(markers);
            if descend && depth < LAYOUT_DEPTH {
                queue.extend(children.into_iter().map(|(_, p)| (p, depth + 1)));
            }
        }
    }
    if found.is_empty() {
        for c in &node.children {
            found = find_markers(c, visit);
            if !found.is_empty() {
                break;
            }
        }
    }
    found
}
