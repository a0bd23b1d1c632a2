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

use std::collections::{HashMap, HashSet};

use crate::Error;
use crate::fs::{Entry, EntryKind, Time};

/// One member before it is placed in the tree.
pub(crate) struct Item<P> {
    /// The member's name as stored (decoded to text; `/` separators).
    pub name: String,
    pub kind: EntryKind,
    pub size: u64,
    pub id: Option<u64>,
    pub mode: Option<u32>,
    /// `(uid, gid)` where the archive stores them (tar headers).
    pub owner: Option<(u32, u32)>,
    pub times: Vec<Time>,
    pub link_target: Option<String>,
    pub payload: P,
}

/// A node is compact: its name is a range of the tree's name arena, its times a range of the
/// time arena, its children a range of the child index; paths are computed on the way out.
/// A crafted name of thousands of components therefore costs memory in proportion to its
/// length, not to the square of its depth, and a large archive costs few allocations.
struct Node<P> {
    name: (usize, usize),
    parent: u32,
    kind: EntryKind,
    size: u64,
    id: Option<u64>,
    mode: Option<u32>,
    owner: Option<(u32, u32)>,
    times: (u32, u32),
    children: (u32, u32),
    link_target: Option<Box<str>>,
    /// The member's name as stored, when normalising it changed it.
    stored: Option<Box<str>>,
    payload: Option<P>,
}

/// A tree of entries, each optionally carrying the layer's payload (where its bytes are).
pub(crate) struct Tree<P> {
    nodes: Vec<Node<P>>,
    names: String,
    times: Vec<Time>,
    children: Vec<u32>,
    layer: String,
    diagnostics: Vec<String>,
}

/// At most this many individual renames are described in the diagnostics; the rest are counted.
const MAX_DESCRIBED: usize = 20;

/// [`crate::fs::normalize_path`] without its intermediate vector and formatting: the same result
/// (a unit test holds them equal), in one pass, appended to `out`.
fn normalize_into(out: &mut String, name: &str) {
    let start = out.len();
    let mut rest = name;
    loop {
        let (part, tail) = match memchr::memchr(b'/', rest.as_bytes()) {
            Some(i) => (&rest[..i], Some(&rest[i + 1..])),
            None => (rest, None),
        };
        match part {
            "" | "." => {}
            ".." => {
                let cut = out[start..].rfind('/').map_or(start, |i| start + i);
                out.truncate(cut);
            }
            p => {
                out.push('/');
                out.push_str(p);
            }
        }
        match tail {
            Some(t) => rest = t,
            None => break,
        }
    }
    if out.len() == start {
        out.push('/');
    }
}

fn normalized(name: &str) -> String {
    let mut out = String::with_capacity(name.len() + 1);
    normalize_into(&mut out, name);
    out
}

/// `dir` joined with `name` (as [`crate::fs::join`]), without formatting machinery.
fn joined(dir: &str, name: &str) -> String {
    let mut out = String::with_capacity(dir.len() + name.len() + 1);
    out.push_str(dir);
    if dir != "/" {
        out.push('/');
    }
    out.push_str(name);
    out
}

/// A normalised path split into its directory and its last name (`""` for the root).
fn split(path: &str) -> (&str, &str) {
    match path.rfind('/') {
        Some(0) => ("/", &path[1..]),
        Some(i) => (&path[..i], &path[i + 1..]),
        None => ("/", path),
    }
}

fn as_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// A member waiting to be placed: its normalised path is a range of the arena.
struct Pending<P> {
    path: (usize, usize),
    kind: EntryKind,
    size: u64,
    id: Option<u64>,
    mode: Option<u32>,
    owner: Option<(u32, u32)>,
    times: (u32, u32),
    link_target: Option<Box<str>>,
    stored: Option<Box<str>>,
    payload: P,
}

/// Indexes used while placing members; names are borrowed from the arena, so indexing costs no
/// allocation: `kids` finds a child by (parent, name), `dirs` remembers each directory path
/// already resolved (one lookup per member instead of one per component).
struct Placer<'a, P> {
    arena: &'a str,
    nodes: Vec<Node<P>>,
    kids: HashMap<(u32, &'a str), u32>,
    dirs: HashMap<&'a str, u32>,
    /// Names made up for duplicates (`name~2`), not in the arena yet.
    renamed: HashSet<(u32, String)>,
    /// Whether a directory node got its metadata from a member (the first one wins).
    described: Vec<bool>,
}

impl<'a, P> Placer<'a, P> {
    fn range(&self, s: &str) -> (usize, usize) {
        let start = (s.as_ptr() as usize).saturating_sub(self.arena.as_ptr() as usize);
        (start, start + s.len())
    }

    fn push(&mut self, parent: u32, node: Node<P>) -> u32 {
        let n = as_u32(self.nodes.len());
        self.nodes.push(Node { parent, ..node });
        self.described.push(false);
        n
    }

    /// The directory at `path` (normalised, a slice of the arena; "/" is the root), created
    /// with its missing ancestors.
    fn ensure_dir(&mut self, path: &'a str) -> u32 {
        if let Some(&n) = self.dirs.get(path) {
            return n;
        }
        let mut cur = 0;
        for c in path.split('/').filter(|c| !c.is_empty()) {
            cur = match self.kids.get(&(cur, c)) {
                Some(&n) => n,
                None => {
                    let node = dir_node(self.range(c));
                    let n = self.push(cur, node);
                    self.kids.insert((cur, c), n);
                    n
                }
            };
        }
        self.dirs.insert(path, cur);
        cur
    }
}

fn dir_node<P>(name: (usize, usize)) -> Node<P> {
    Node {
        name,
        parent: 0,
        kind: EntryKind::Dir,
        size: 0,
        id: None,
        mode: None,
        owner: None,
        times: (0, 0),
        children: (0, 0),
        link_target: None,
        stored: None,
        payload: None,
    }
}

impl<P> Tree<P> {
    /// Builds the tree from a list of items. Returns it with, for every item in input order,
    /// the index of its node (so callers can tell under which path each member ended up).
    pub fn build(items: Vec<Item<P>>, layer: &str) -> (Tree<P>, Vec<usize>) {
        let mut b =
            TreeBuilder::with_capacity(items.len(), items.iter().map(|i| i.name.len() + 1).sum());
        for item in items {
            let meta = Meta {
                kind: item.kind,
                size: item.size,
                id: item.id,
                mode: item.mode,
                owner: item.owner,
                times: &item.times,
                link_target: item.link_target,
                stored_name: None,
            };
            b.add(&item.name, meta, item.payload);
        }
        b.finish(layer)
    }
}

/// What a member says about itself, besides its name and where its bytes are.
pub(crate) struct Meta<'t> {
    pub kind: EntryKind,
    pub size: u64,
    pub id: Option<u64>,
    pub mode: Option<u32>,
    /// `(uid, gid)` where the archive stores them (tar headers).
    pub owner: Option<(u32, u32)>,
    pub times: &'t [Time],
    pub link_target: Option<String>,
    /// The name as the archive stores it, when the layer already changed it before `add`
    /// (a DOS host's backslashes); `None`: the name given to `add` is the stored one.
    pub stored_name: Option<String>,
}

/// Collects members (normalising each name into one arena as it comes, so a large archive costs
/// few allocations), then places them all in [`TreeBuilder::finish`].
pub(crate) struct TreeBuilder<P> {
    arena: String,
    times: Vec<Time>,
    pending: Vec<Pending<P>>,
}

impl<P> TreeBuilder<P> {
    /// A builder expecting about `members` members whose names total about `name_bytes`.
    pub fn with_capacity(members: usize, name_bytes: usize) -> Self {
        TreeBuilder {
            arena: String::with_capacity(name_bytes),
            times: Vec::with_capacity(members),
            pending: Vec::with_capacity(members),
        }
    }

    /// Number of members added.
    pub fn len(&self) -> usize {
        self.pending.len()
    }

    /// Adds a member; returns its index (the order of the vector `finish` returns).
    pub fn add(&mut self, name: &str, meta: Meta<'_>, payload: P) -> usize {
        let start = self.arena.len();
        normalize_into(&mut self.arena, name);
        let normal = &self.arena[start..];
        let verbatim = name.trim_end_matches('/');
        let stored = match meta.stored_name {
            Some(as_stored) => Some(as_stored.into_boxed_str()),
            None => (normal != verbatim && normal.strip_prefix('/') != Some(verbatim))
                .then(|| name.into()),
        };
        let t0 = as_u32(self.times.len());
        self.times.extend_from_slice(meta.times);
        self.pending.push(Pending {
            path: (start, self.arena.len()),
            kind: meta.kind,
            size: meta.size,
            id: meta.id,
            mode: meta.mode,
            owner: meta.owner,
            times: (t0, as_u32(self.times.len())),
            link_target: meta.link_target.map(String::into_boxed_str),
            stored,
            payload,
        });
        self.pending.len() - 1
    }

    /// Places every member. Returns the tree and, for every member in the order it was added,
    /// the index of its node.
    pub fn finish(self, layer: &str) -> (Tree<P>, Vec<usize>) {
        let TreeBuilder {
            mut arena,
            times,
            pending,
        } = self;
        let mut diagnostics = Vec::new();
        let mut placed = vec![0usize; pending.len()];
        let (mut nodes, renames) = {
            let arena = arena.as_str();
            let path = |p: &Pending<P>| arena.get(p.path.0..p.path.1).unwrap_or("/");
            let mut pl = Placer {
                arena,
                nodes: Vec::with_capacity(pending.len() + 1),
                kids: HashMap::with_capacity(pending.len() + 1),
                dirs: HashMap::with_capacity(pending.len() / 4 + 1),
                renamed: HashSet::new(),
                described: Vec::with_capacity(pending.len() + 1),
            };
            pl.push(0, dir_node((0, 0)));
            pl.dirs.insert("/", 0);

            // Directories first: the parent of every member, then the members that are
            // directories (which give their metadata to the node, first one wins).
            let mut last: (&str, u32) = ("/", 0);
            let parents: Vec<u32> = pending
                .iter()
                .map(|p| {
                    // Archives list a directory's members together: most lookups are the last.
                    let dir = split(path(p)).0;
                    if dir != last.0 {
                        last = (dir, pl.ensure_dir(dir));
                    }
                    last.1
                })
                .collect();
            let mut merged_dirs = 0usize;
            for (i, p) in pending.iter().enumerate() {
                if p.kind != EntryKind::Dir {
                    continue;
                }
                let n = pl.ensure_dir(path(p));
                let k = n as usize;
                if pl.described.get(k) == Some(&false) {
                    pl.described[k] = true;
                    let node = &mut pl.nodes[k];
                    node.id = p.id;
                    node.mode = p.mode;
                    node.owner = p.owner;
                    node.times = p.times;
                    node.stored = p.stored.clone();
                } else {
                    merged_dirs += 1;
                }
                placed[i] = k;
            }
            if merged_dirs > 0 {
                diagnostics.push(format!(
                    "{merged_dirs} directory member(s) repeat a directory already listed; merged \
                     (the first member's metadata is shown)"
                ));
            }

            // Then everything else: plain names first come, first served; the losers get
            // suffixes.
            let mut losers = Vec::new();
            for (i, p) in pending.into_iter().enumerate() {
                if p.kind == EntryKind::Dir {
                    continue;
                }
                let parent = parents[i];
                let name = split(path(&p)).1;
                if name.is_empty() || pl.kids.contains_key(&(parent, name)) {
                    losers.push((i, p));
                    continue;
                }
                let range = pl.range(name);
                let n = pl.push(parent, file_node(range, p));
                pl.kids.insert((parent, name), n);
                placed[i] = n as usize;
            }
            let mut next_suffix: HashMap<(u32, &str), u64> = HashMap::new();
            let mut renames = Vec::new();
            let mut told = 0usize;
            for (i, p) in losers {
                let parent = parents[i];
                let full = path(&p);
                let (dir, base) = split(full);
                let counter = next_suffix.entry((parent, base)).or_insert(2);
                let renamed = loop {
                    let candidate = format!("{base}~{counter}");
                    *counter += 1;
                    if !pl.kids.contains_key(&(parent, candidate.as_str()))
                        && !pl.renamed.contains(&(parent, candidate.clone()))
                    {
                        break candidate;
                    }
                };
                if told < MAX_DESCRIBED {
                    diagnostics.push(format!(
                        "duplicate name {full} (member id {}): listed as {}",
                        p.id.map_or_else(|| "?".to_string(), |id| id.to_string()),
                        joined(dir, &renamed)
                    ));
                }
                told += 1;
                let n = pl.push(parent, file_node((0, 0), p));
                pl.renamed.insert((parent, renamed.clone()));
                renames.push((n, renamed));
                placed[i] = n as usize;
            }
            if told > MAX_DESCRIBED {
                diagnostics.push(format!(
                    "… and {} more duplicate names, each listed with a ~N suffix",
                    told - MAX_DESCRIBED
                ));
            }
            (pl.nodes, renames)
        };
        for (n, name) in renames {
            let start = arena.len();
            arena.push_str(&name);
            if let Some(node) = nodes.get_mut(n as usize) {
                node.name = (start, arena.len());
            }
        }

        // Children: grouped by parent (a counting sort), each group sorted by name.
        let mut counts = vec![0u32; nodes.len() + 1];
        for node in nodes.iter().skip(1) {
            counts[node.parent as usize + 1] += 1;
        }
        for k in 1..counts.len() {
            counts[k] += counts[k - 1];
        }
        let mut children = vec![0u32; nodes.len().saturating_sub(1)];
        let mut fill = counts.clone();
        for (k, node) in nodes.iter().enumerate().skip(1) {
            let slot = &mut fill[node.parent as usize];
            children[*slot as usize] = as_u32(k);
            *slot += 1;
        }
        let name_of = |nodes: &[Node<P>], k: u32| -> &[u8] {
            let (a, b) = nodes[k as usize].name;
            arena.as_bytes().get(a..b).unwrap_or(&[])
        };
        for (k, node) in nodes.iter_mut().enumerate() {
            node.children = (counts[k], counts[k + 1]);
        }
        for k in 0..nodes.len() {
            let (a, b) = nodes[k].children;
            children[a as usize..b as usize]
                .sort_unstable_by(|x, y| name_of(&nodes, *x).cmp(name_of(&nodes, *y)));
        }
        let tree = Tree {
            nodes,
            names: arena,
            times,
            children,
            layer: layer.to_string(),
            diagnostics,
        };
        (tree, placed)
    }
}

impl<P> Tree<P> {
    fn name(&self, n: usize) -> &str {
        let (a, b) = self.nodes[n].name;
        self.names.get(a..b).unwrap_or("")
    }

    fn kids(&self, n: usize) -> &[u32] {
        let (a, b) = self.nodes[n].children;
        self.children.get(a as usize..b as usize).unwrap_or(&[])
    }

    /// The node at a path, and the path normalised (which is the node's path: every component
    /// matched a name exactly).
    fn find(&self, path: &str) -> Result<(usize, String), Error> {
        let norm = normalized(path);
        let mut cur = 0;
        for c in norm.split('/').filter(|c| !c.is_empty()) {
            let kids = self.kids(cur);
            match kids.binary_search_by(|&k| self.name(k as usize).as_bytes().cmp(c.as_bytes())) {
                Ok(i) => cur = kids[i] as usize,
                Err(_) => {
                    return Err(Error::NoEntry {
                        layer: self.layer.clone(),
                        path: norm,
                    });
                }
            }
        }
        Ok((cur, norm))
    }

    /// The path of a node, from its ancestors' names.
    fn path_of(&self, mut n: usize) -> String {
        let mut names = Vec::new();
        while n != 0 && n < self.nodes.len() {
            names.push(self.name(n));
            n = self.nodes[n].parent as usize;
        }
        let mut out = String::with_capacity(names.iter().map(|s| s.len() + 1).sum::<usize>() + 1);
        for name in names.iter().rev() {
            out.push('/');
            out.push_str(name);
        }
        if out.is_empty() {
            out.push('/');
        }
        out
    }

    /// The entry of a node with its path filled in.
    fn entry(&self, n: usize, path: String) -> Entry {
        let node = &self.nodes[n];
        let (t0, t1) = node.times;
        Entry {
            name: if n == 0 {
                "/".to_string()
            } else {
                self.name(n).to_string()
            },
            path,
            kind: node.kind,
            size: node.size,
            id: node.id,
            mode: node.mode,
            deleted: false,
            times: self
                .times
                .get(t0 as usize..t1 as usize)
                .unwrap_or(&[])
                .to_vec(),
            link_target: node.link_target.as_deref().map(str::to_string),
            stored_name: node.stored.as_deref().map(str::to_string),
            owner: node.owner,
        }
    }

    /// The entries of a directory, sorted by name.
    pub fn list_dir(&self, path: &str) -> Result<Vec<Entry>, Error> {
        let (n, dir) = self.find(path)?;
        if self.nodes[n].kind != EntryKind::Dir {
            return Err(Error::WrongKind {
                layer: self.layer.clone(),
                path: dir,
                detail: "not a directory".to_string(),
            });
        }
        Ok(self
            .kids(n)
            .iter()
            .map(|&c| self.entry(c as usize, joined(&dir, self.name(c as usize))))
            .collect())
    }

    /// Metadata of one entry.
    pub fn stat(&self, path: &str) -> Result<Entry, Error> {
        let (n, norm) = self.find(path)?;
        Ok(self.entry(n, norm))
    }

    /// The entry and payload of a regular file, or the error `open` must give.
    pub fn file(&self, path: &str) -> Result<(Entry, &P), Error> {
        let (n, norm) = self.find(path)?;
        let entry = self.entry(n, norm);
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

fn file_node<P>(name: (usize, usize), p: Pending<P>) -> Node<P> {
    Node {
        name,
        parent: 0,
        kind: p.kind,
        size: p.size,
        id: p.id,
        mode: p.mode,
        owner: p.owner,
        times: p.times,
        children: (0, 0),
        link_target: p.link_target,
        stored: p.stored,
        payload: Some(p.payload),
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
            owner: None,
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
    fn the_fast_normalisation_equals_the_crates() {
        for p in [
            "",
            "/",
            ".",
            "..",
            "a",
            "/a/",
            "a//b",
            "./a/./b",
            "../../x",
            "a/b/../../..",
            "a/../b",
            "/a/b/c/..",
            "..a/b..",
            "a/.../b",
            "//",
            "a/./../b/./c/",
            "\\x\\..\\y",
            "~/x",
        ] {
            assert_eq!(normalized(p), crate::fs::normalize_path(p), "{p:?}");
        }
        assert_eq!(joined("/", "a"), crate::fs::join("/", "a"));
        assert_eq!(joined("/a", "b"), crate::fs::join("/a", "b"));
    }

    #[test]
    fn deep_names_build_without_recursion() {
        let deep = "a/".repeat(20_000) + "f";
        let (tree, _) = Tree::build(vec![item(&deep, EntryKind::File, 0)], "test");
        assert_eq!(tree.len(), 20_002);
        assert!(tree.file(&deep).is_ok());
    }
}
