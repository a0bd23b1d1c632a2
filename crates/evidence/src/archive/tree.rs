//! The directory tree of a member list (ZIP, TAR, iTunes backup), shared by those layers.
//!
//! Archive member names are untrusted text. Every name is normalised with
//! [`crate::fs::normalize_path`], so absolute names (`/private/var/...`), `.`, `..` and repeated
//! separators never reach outside the root. Directories named by no member but implied by a
//! member's path are synthesised (no id, no times).
//!
//! Duplicates are kept, never hidden: when several members normalise to the same path (an
//! archive holding a name twice, `a/x` and `/a/x`, a file where a directory is implied), the
//! first member in archive order keeps the plain name and every later one is listed as
//! `name~2`, `name~3`, … (the first suffix no other member uses); a file colliding with a
//! directory is renamed the same way, since the directory must keep its path for its children.
//! Several members naming the same directory are merged into one directory (the first member's
//! metadata is kept). Each rename is reported in the diagnostics.

use std::collections::HashMap;

use crate::Error;
use crate::fs::{Entry, EntryKind, Time, join, normalize_path};

/// One member before it is placed in the tree.
pub(crate) struct Item<P> {
    /// The member's name as stored (decoded to text; `/` separators).
    pub name: String,
    pub kind: EntryKind,
    pub size: u64,
    pub id: Option<u64>,
    pub mode: Option<u32>,
    pub times: Vec<Time>,
    pub link_target: Option<String>,
    pub payload: P,
}

/// A node keeps only its own name (in `entry.name`; `entry.path` is left empty and computed on
/// the way out), so a crafted name of thousands of components costs memory in proportion to its
/// length, not to the square of its depth.
struct Node<P> {
    entry: Entry,
    parent: usize,
    /// Sorted by name (bytes) once the tree is built.
    children: Vec<usize>,
    payload: Option<P>,
}

/// A tree of entries, each optionally carrying the layer's payload (where its bytes are).
pub(crate) struct Tree<P> {
    nodes: Vec<Node<P>>,
    layer: String,
    diagnostics: Vec<String>,
}

/// At most this many individual renames are described in the diagnostics; the rest are counted.
const MAX_DESCRIBED: usize = 20;

fn dir_entry(name: &str) -> Entry {
    Entry {
        path: String::new(),
        name: name.to_string(),
        kind: EntryKind::Dir,
        size: 0,
        id: None,
        mode: None,
        deleted: false,
        times: Vec::new(),
        link_target: None,
    }
}

/// The tree while it is built: nodes plus a name index per node.
struct Builder<P> {
    nodes: Vec<Node<P>>,
    kids: Vec<HashMap<String, usize>>,
}

impl<P> Builder<P> {
    fn child(&self, parent: usize, name: &str) -> Option<usize> {
        self.kids.get(parent).and_then(|k| k.get(name)).copied()
    }

    fn add(&mut self, parent: usize, entry: Entry, payload: Option<P>) -> usize {
        let n = self.nodes.len();
        if let Some(k) = self.kids.get_mut(parent) {
            k.insert(entry.name.clone(), n);
        }
        if let Some(p) = self.nodes.get_mut(parent) {
            p.children.push(n);
        }
        self.nodes.push(Node {
            entry,
            parent,
            children: Vec::new(),
            payload,
        });
        self.kids.push(HashMap::new());
        n
    }

    /// The directory at `components` under the root, created with its missing ancestors.
    fn ensure_dir(&mut self, components: &[&str]) -> usize {
        let mut cur = 0;
        for c in components {
            cur = match self.child(cur, c) {
                Some(n) => n,
                None => self.add(cur, dir_entry(c), None),
            };
        }
        cur
    }
}

fn components(path: &str) -> Vec<&str> {
    path.split('/').filter(|c| !c.is_empty()).collect()
}

impl<P> Tree<P> {
    /// Builds the tree. Returns it with, for every item in input order, the index of its node
    /// (so callers can tell under which path each member ended up).
    pub fn build(items: Vec<Item<P>>, layer: &str) -> (Tree<P>, Vec<usize>) {
        let mut b = Builder {
            nodes: Vec::with_capacity(items.len() + 1),
            kids: Vec::with_capacity(items.len() + 1),
        };
        b.nodes.push(Node {
            entry: dir_entry("/"),
            parent: 0,
            children: Vec::new(),
            payload: None,
        });
        b.kids.push(HashMap::new());
        let mut diagnostics = Vec::new();

        let paths: Vec<String> = items.iter().map(|i| normalize_path(&i.name)).collect();
        let mut placed = vec![0usize; items.len()];

        // Directories first: every ancestor of every member, then the members that are
        // directories (which give their metadata to the node, first one wins).
        for path in &paths {
            let c = components(path);
            b.ensure_dir(&c[..c.len().saturating_sub(1)]);
        }
        let mut merged_dirs = 0usize;
        for (i, (item, path)) in items.iter().zip(&paths).enumerate() {
            if item.kind != EntryKind::Dir {
                continue;
            }
            let n = b.ensure_dir(&components(path));
            if let Some(e) = b.nodes.get_mut(n).map(|n| &mut n.entry) {
                if e.id.is_none() && e.times.is_empty() && e.mode.is_none() {
                    e.id = item.id;
                    e.mode = item.mode;
                    e.times = item.times.clone();
                } else {
                    merged_dirs += 1;
                }
            }
            placed[i] = n;
        }
        if merged_dirs > 0 {
            diagnostics.push(format!(
                "{merged_dirs} directory member(s) repeat a directory already listed; merged \
                 (the first member's metadata is shown)"
            ));
        }

        // Then everything else: plain names first come, first served; the losers get suffixes.
        let mut losers = Vec::new();
        let mut items: Vec<Option<Item<P>>> = items.into_iter().map(Some).collect();
        for (i, slot) in items.iter_mut().enumerate() {
            if matches!(slot, Some(item) if item.kind == EntryKind::Dir) {
                continue;
            }
            let c = components(&paths[i]);
            let (dirs, name) = c.split_at(c.len().saturating_sub(1));
            let parent = b.ensure_dir(dirs);
            let name = name.first().copied().unwrap_or("");
            if name.is_empty() || b.child(parent, name).is_some() {
                losers.push((i, parent));
            } else if let Some(item) = slot.take() {
                placed[i] = b.add(
                    parent,
                    file_entry(name, item.kind, &item),
                    Some(item.payload),
                );
            }
        }
        let mut next_suffix: HashMap<(usize, &str), u64> = HashMap::new();
        let mut described = 0usize;
        for &(i, parent) in &losers {
            let base = paths[i].rsplit('/').next().unwrap_or("");
            let counter = next_suffix.entry((parent, base)).or_insert(2);
            let renamed = loop {
                let candidate = format!("{base}~{counter}");
                *counter += 1;
                if b.child(parent, &candidate).is_none() {
                    break candidate;
                }
            };
            if let Some(item) = items[i].take() {
                if described < MAX_DESCRIBED {
                    let dir = &paths[i][..paths[i].len() - base.len()];
                    diagnostics.push(format!(
                        "duplicate name {} (member id {}): listed as {dir}{renamed}",
                        paths[i],
                        item.id.map_or_else(|| "?".to_string(), |id| id.to_string())
                    ));
                }
                described += 1;
                placed[i] = b.add(
                    parent,
                    file_entry(&renamed, item.kind, &item),
                    Some(item.payload),
                );
            }
        }
        if described > MAX_DESCRIBED {
            diagnostics.push(format!(
                "… and {} more duplicate names, each listed with a ~N suffix",
                described - MAX_DESCRIBED
            ));
        }

        let mut nodes = b.nodes;
        for n in 0..nodes.len() {
            let mut children = std::mem::take(&mut nodes[n].children);
            children.sort_by(|a, b| {
                nodes[*a]
                    .entry
                    .name
                    .as_bytes()
                    .cmp(nodes[*b].entry.name.as_bytes())
            });
            nodes[n].children = children;
        }
        let tree = Tree {
            nodes,
            layer: layer.to_string(),
            diagnostics,
        };
        (tree, placed)
    }

    /// The node at a path.
    fn find(&self, path: &str) -> Result<usize, Error> {
        let norm = normalize_path(path);
        let mut cur = 0;
        for c in components(&norm) {
            let children = self
                .nodes
                .get(cur)
                .map(|n| n.children.as_slice())
                .unwrap_or(&[]);
            let found = children.binary_search_by(|&k| {
                self.nodes
                    .get(k)
                    .map_or(&[][..], |n| n.entry.name.as_bytes())
                    .cmp(c.as_bytes())
            });
            cur = match found {
                Ok(i) => children[i],
                Err(_) => {
                    return Err(Error::NoEntry {
                        layer: self.layer.clone(),
                        path: norm,
                    });
                }
            };
        }
        Ok(cur)
    }

    /// The path of a node, from its ancestors' names.
    fn path_of(&self, mut n: usize) -> String {
        let mut names = Vec::new();
        while n != 0 {
            let Some(node) = self.nodes.get(n) else { break };
            names.push(node.entry.name.as_str());
            n = node.parent;
        }
        names.reverse();
        format!("/{}", names.join("/"))
    }

    /// The entry of a node with its path filled in.
    fn entry(&self, n: usize, path: String) -> Entry {
        let mut e = self.nodes[n].entry.clone();
        e.path = path;
        e
    }

    /// The entries of a directory, sorted by name.
    pub fn list_dir(&self, path: &str) -> Result<Vec<Entry>, Error> {
        let n = self.find(path)?;
        let dir = self.path_of(n);
        let node = &self.nodes[n];
        if node.entry.kind != EntryKind::Dir {
            return Err(Error::WrongKind {
                layer: self.layer.clone(),
                path: dir,
                detail: "not a directory".to_string(),
            });
        }
        Ok(node
            .children
            .iter()
            .map(|&c| self.entry(c, join(&dir, &self.nodes[c].entry.name)))
            .collect())
    }

    /// Metadata of one entry.
    pub fn stat(&self, path: &str) -> Result<Entry, Error> {
        let n = self.find(path)?;
        Ok(self.entry(n, self.path_of(n)))
    }

    /// The entry and payload of a regular file, or the error `open` must give.
    pub fn file(&self, path: &str) -> Result<(Entry, &P), Error> {
        let n = self.find(path)?;
        let entry = self.entry(n, self.path_of(n));
        let wrong = |detail: String| Error::WrongKind {
            layer: self.layer.clone(),
            path: entry.path.clone(),
            detail,
        };
        match (entry.kind, &self.nodes[n].payload) {
            (EntryKind::File, Some(p)) => Ok((entry, p)),
            (EntryKind::Dir, _) => Err(wrong("is a directory".to_string())),
            (EntryKind::Symlink, _) => Err(wrong(format!(
                "is a symbolic link to {}; links are not followed",
                entry.link_target.as_deref().unwrap_or("?")
            ))),
            _ => Err(wrong("not a regular file".to_string())),
        }
    }

    /// The entry at a node index returned by [`Tree::build`].
    pub fn entry_at(&self, node: usize) -> Option<Entry> {
        (node < self.nodes.len()).then(|| self.entry(node, self.path_of(node)))
    }

    /// Number of entries, the root included.
    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    pub fn diagnostics(&self) -> &[String] {
        &self.diagnostics
    }
}

fn file_entry<P>(name: &str, kind: EntryKind, item: &Item<P>) -> Entry {
    Entry {
        path: String::new(),
        name: name.to_string(),
        kind,
        size: item.size,
        id: item.id,
        mode: item.mode,
        deleted: false,
        times: item.times.clone(),
        link_target: item.link_target.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item(name: &str, kind: EntryKind, id: u64) -> Item<u64> {
        Item {
            name: name.to_string(),
            kind,
            size: 0,
            id: Some(id),
            mode: None,
            times: Vec::new(),
            link_target: None,
            payload: id,
        }
    }

    fn listing(tree: &Tree<u64>) -> Vec<String> {
        let mut out = Vec::new();
        let mut stack = vec!["/".to_string()];
        while let Some(dir) = stack.pop() {
            for e in tree.list_dir(&dir).unwrap() {
                let tag = match e.kind {
                    EntryKind::Dir => {
                        stack.push(e.path.clone());
                        "d"
                    }
                    _ => "f",
                };
                out.push(format!("{tag} {} {:?}", e.path, e.id));
            }
        }
        out.sort();
        out
    }

    #[test]
    fn names_never_escape_and_duplicates_stay_visible() {
        use EntryKind::*;
        let items = vec![
            item("/private/var/a.db", File, 0),
            item("private/var/a.db", File, 1),
            item("../../private/var/a.db", File, 2),
            item("private/var/a.db~2", File, 3),
            item("x", File, 4),
            item("x/y", File, 5),
            item("dir/", Dir, 6),
            item("dir", Dir, 7),
            item("..", File, 8),
        ];
        let (tree, placed) = Tree::build(items, "test");
        assert_eq!(
            listing(&tree),
            [
                "d /dir Some(6)",
                "d /private None",
                "d /private/var None",
                "d /x None",
                "f /private/var/a.db Some(0)",
                "f /private/var/a.db~2 Some(3)",
                "f /private/var/a.db~3 Some(1)",
                "f /private/var/a.db~4 Some(2)",
                "f /x/y Some(5)",
                "f /x~2 Some(4)",
                "f /~2 Some(8)",
            ]
        );
        assert_eq!(
            tree.entry_at(placed[1]).unwrap().path,
            "/private/var/a.db~3"
        );
        assert!(
            tree.diagnostics()
                .iter()
                .any(|d| d.contains("listed as /x~2"))
        );
        assert!(tree.file("/dir").is_err());
        assert!(matches!(tree.stat("/nope"), Err(Error::NoEntry { .. })));
    }

    #[test]
    fn deep_names_build_without_recursion() {
        let deep = "a/".repeat(20_000) + "f";
        let (tree, _) = Tree::build(vec![item(&deep, EntryKind::File, 0)], "test");
        assert_eq!(tree.len(), 20_002);
        assert!(tree.file(&deep).is_ok());
    }
}
