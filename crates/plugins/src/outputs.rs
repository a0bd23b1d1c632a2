//! Reading tool outputs back from their logged text (so a cached answer reads the same as a
//! fresh one): `sqlite_query` tables and cells, `find_files` listings; and writing a value the
//! way an output holds it (cell-escaped, inside a JSON cell or string), so it grounds verbatim.

/// A result table read back from a `sqlite_query` output.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Table {
    /// Column names, in order.
    pub columns: Vec<String>,
    /// Rows; `None` is SQL NULL.
    pub rows: Vec<Vec<Option<String>>>,
    /// Whether the tool stopped at its row limit.
    pub truncated: bool,
}

impl Table {
    /// Parses the tab-separated text `sqlite_query` logs (header line, one line per row,
    /// `\t \n \r \\` escaped, `NULL` for null, a final `# truncated` line when cut).
    pub fn parse(text: &str) -> Table {
        let mut lines = text.lines();
        let columns = lines
            .next()
            .map(|h| h.split('\t').map(unescape).collect())
            .unwrap_or_default();
        let mut rows = Vec::new();
        let mut truncated = false;
        for line in lines {
            if line.starts_with("# truncated") {
                truncated = true;
                continue;
            }
            // how a SQLCipher database was decrypted (sqlite_query's last line with `cipher`)
            // and how a gzip-compressed one was inflated (its `# gzip: …` line)
            // sqlite_wal_history's summary, free-space and unreadable-cell lines
            if line.starts_with("# sqlcipher: ")
                || line.starts_with("# gzip: ")
                || line.starts_with("# wal ")
                || line.starts_with("# free space: ")
                || line.starts_with("# unreadable cells: ")
            {
                continue;
            }
            // read_segb's problem and summary lines
            if line.starts_with("# problem ") || line.starts_with("# segb ") {
                continue;
            }
            rows.push(
                line.split('\t')
                    .map(|c| (c != "NULL").then(|| unescape(c)))
                    .collect(),
            );
        }
        Table {
            columns,
            rows,
            truncated,
        }
    }

    /// The index of a column.
    pub fn col(&self, name: &str) -> Option<usize> {
        self.columns.iter().position(|c| c == name)
    }

    /// The value of column `name` in row `row` (`None` for NULL, a missing column or an empty
    /// string).
    pub fn get<'a>(&'a self, row: &'a [Option<String>], name: &str) -> Option<&'a str> {
        let i = self.col(name)?;
        row.get(i)?.as_deref().filter(|v| !v.is_empty())
    }
}

/// Undoes the escaping of `sqlite_query` cells.
pub fn unescape(cell: &str) -> String {
    let mut out = String::with_capacity(cell.len());
    let mut chars = cell.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('t') => out.push('\t'),
            Some('n') => out.push('\n'),
            Some('r') => out.push('\r'),
            Some('\\') => out.push('\\'),
            Some(other) => {
                out.push('\\');
                out.push(other);
            }
            None => out.push('\\'),
        }
    }
    out
}

/// The JSON of a cell `sqlite_query` rendered from a binary property list (`plist:{…}`).
pub fn plist_cell(cell: &str) -> Option<serde_json::Value> {
    serde_json::from_str(cell.strip_prefix("plist:")?).ok()
}

/// The JSON of a cell `sqlite_query` rendered from a Protocol Buffers message (`protobuf:{…}`,
/// its `protobuf` option).
pub fn protobuf_cell(cell: &str) -> Option<serde_json::Value> {
    serde_json::from_str(cell.strip_prefix("protobuf:")?).ok()
}

/// Paths of the files `find_files` found (skipping directories, deleted entries and the
/// header, `# error` and `# truncated` lines).
pub fn found_paths(find_output: &str) -> Vec<String> {
    found_rows(find_output)
        .filter(|cols| cols[0] == "file" && cols[4] != "deleted")
        .map(|cols| cols[6].to_string())
        .collect()
}

/// One file a `find_files` or `list_dir` listing holds (deleted entries left out): its path,
/// its size and its stored times as written (`modified=…,accessed=…`).
#[derive(Debug, Clone)]
pub struct ListedFile {
    pub path: String,
    pub size: String,
    pub times: String,
}

impl ListedFile {
    /// The stored time of `role` (`modified`, `accessed`, …) as the listing writes it.
    pub fn time(&self, role: &str) -> Option<&str> {
        self.times
            .split(',')
            .find_map(|t| t.strip_prefix(role)?.strip_prefix('='))
    }
}

/// The files of a listing with their sizes and times (see [`ListedFile`]).
pub fn listed_files(find_output: &str) -> Vec<ListedFile> {
    found_rows(find_output)
        .filter(|cols| cols[0] == "file" && cols[4] != "deleted")
        .map(|cols| ListedFile {
            path: cols[6].to_string(),
            size: cols[1].to_string(),
            times: cols[5].to_string(),
        })
        .collect()
}

/// The paths whose last component matches `glob` (`find_files`' own glob rules): one kind of
/// file picked out of a search made for several.
pub fn named_like(paths: impl IntoIterator<Item = String>, glob: &str) -> Vec<String> {
    paths
        .into_iter()
        .filter(|p| {
            let name = p.rsplit('/').next().unwrap_or(p);
            masf_tools::fs_tools::glob_match(glob, name)
        })
        .collect()
}

/// Paths of the directories `find_files` found (deleted ones skipped).
pub fn found_dirs(find_output: &str) -> Vec<String> {
    found_rows(find_output)
        .filter(|cols| cols[0] == "dir" && cols[4] != "deleted")
        .map(|cols| cols[6].to_string())
        .collect()
}

/// The entry rows of a `find_files` listing, each split into its seven columns (the header and
/// `#` lines skipped).
fn found_rows(find_output: &str) -> impl Iterator<Item = Vec<&str>> {
    find_output
        .lines()
        .skip(1)
        .filter(|l| !l.starts_with('#'))
        .map(|l| l.splitn(7, '\t').collect::<Vec<&str>>())
        .filter(|cols| cols.len() == 7)
}

/// The symbolic links a `find_files` listing holds, as (path, target): entries that
/// [`found_paths`] leaves out, since links inside evidence are never followed.
pub fn found_links(find_output: &str) -> Vec<(String, String)> {
    found_rows(find_output)
        .filter(|cols| cols[0] == "symlink")
        .map(|cols| {
            let (path, target) = cols[6].split_once(" -> ").unwrap_or((cols[6], "?"));
            (path.to_string(), target.to_string())
        })
        .collect()
}

/// The `sqlite_query` statement listing every table's (and view's) columns, in order, as
/// [`columns_by_table`] reads them.
pub const SCHEMA_SQL: &str = "SELECT m.name AS tbl, p.name AS col FROM sqlite_master m JOIN pragma_table_info(m.name) p WHERE m.type IN ('table', 'view') ORDER BY m.name, p.cid";

/// The columns of each table, from a query printing one `tbl`, `col` pair a row (the schema
/// look over `sqlite_master` ⋈ `pragma_table_info` the readers make).
pub fn columns_by_table(
    t: &Table,
) -> std::collections::BTreeMap<String, std::collections::BTreeSet<String>> {
    let mut cols: std::collections::BTreeMap<String, std::collections::BTreeSet<String>> =
        Default::default();
    for row in &t.rows {
        if let (Some(tb), Some(c)) = (t.get(row, "tbl"), t.get(row, "col")) {
            cols.entry(tb.to_string())
                .or_default()
                .insert(c.to_string());
        }
    }
    cols
}

/// A cell as it appears in the `sqlite_query` text (escaped), so that it grounds verbatim.
pub fn raw(table: &Table, row: &[Option<String>], col: &str) -> Option<String> {
    table.get(row, col).map(escape)
}

/// The modification time a `stat` output gives (`modified: <value>`), with its encoding: a FAT
/// or ZIP local time (`… (local)`) or a UTC time. `None` when the file system keeps none.
pub fn stat_modified(stat_output: &str) -> Option<(&str, masf_graph::TimeEncoding)> {
    let v = stat_output
        .lines()
        .find_map(|line| line.strip_prefix("modified: "))?
        .trim();
    Some(if v.ends_with("(local)") {
        (v, masf_graph::TimeEncoding::FatLocal)
    } else {
        (v, masf_graph::TimeEncoding::Iso8601)
    })
}

/// Escapes a cell the way `sqlite_query` prints it.
pub fn escape(s: &str) -> String {
    masf_tools::sqlite::escape_cell(s)
}

/// A string as the `sqlite_query` text holds it inside a JSON cell (`plist:`, `protobuf:`,
/// `tl:`: JSON-escaped, then cell-escaped), so that it grounds verbatim.
pub fn in_json_cell(s: &str) -> String {
    let json = serde_json::to_string(s).unwrap_or_default();
    escape(&json[1..json.len().saturating_sub(1)])
}

/// The string at `path` of a `protobuf:` cell's JSON (`{"4": [{"2": ["text"]}], …}`: each field
/// an array, the first value taken at each step), with the form it has in the cell (a JSON
/// string body, escaped as a cell) for its fact.
pub fn proto_text(message: &serde_json::Value, path: &[&str]) -> Option<(String, String)> {
    let mut node = message;
    for field in path {
        node = node.get(field)?.get(0)?;
    }
    let text = node.as_str()?.to_string();
    let cited = in_json_cell(&text);
    Some((text, cited))
}

/// A string as it appears inside a JSON string of a tool's JSON output (`parse_plist`,
/// `read_json`), so that it grounds verbatim: quotes, backslashes and control characters
/// escaped.
pub fn in_json(s: &str) -> String {
    let json = serde_json::to_string(s).unwrap_or_default();
    json[1..json.len().saturating_sub(1)].to_string()
}

/// The document a `read_json` output holds (the JSON after its `# at (root)` line), `None`
/// when the output holds none.
pub fn json_document(output: &str) -> Option<serde_json::Value> {
    let (_, body) = output.split_once("# at (root)\n")?;
    serde_json::from_str(body).ok()
}

/// The first value of field `f` of a decoded Protocol Buffers message as its output prints it
/// ([`json_scalar`]); `None` when absent or empty.
pub fn proto_first(m: &serde_json::Value, f: &str) -> Option<String> {
    json_scalar(m.get(f)?.get(0)).filter(|s| !s.is_empty())
}

/// The message a `read_protobuf` output holds (the JSON after its `# protobuf …` line).
pub fn protobuf_document(output: &str) -> Option<serde_json::Value> {
    let (_, body) = output.split_once('\n')?;
    serde_json::from_str(body).ok()
}

/// A JSON scalar as a `sqlite_query` JSON cell holds it (`json:`, `plist:`): a non-empty
/// string escaped ([`in_json_cell`]), a number or boolean as written; `None` for anything else.
pub fn json_cell_scalar(v: Option<&serde_json::Value>) -> Option<String> {
    match v? {
        serde_json::Value::String(s) if !s.is_empty() => Some(in_json_cell(s)),
        serde_json::Value::Number(n) => Some(n.to_string()),
        serde_json::Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

/// Every scalar under `v` (objects and arrays walked) as `(key path, value as a tool's pretty
/// JSON output prints it)` ([`json_scalar`]): a key path joins member names with `.`, an
/// array's items share their array's path.
pub fn json_leaves(v: &serde_json::Value, prefix: &str, out: &mut Vec<(String, String)>) {
    match v {
        serde_json::Value::Object(o) => {
            for (k, x) in o {
                let p = if prefix.is_empty() {
                    k.clone()
                } else {
                    format!("{prefix}.{k}")
                };
                json_leaves(x, &p, out);
            }
        }
        serde_json::Value::Array(a) => {
            for x in a {
                json_leaves(x, prefix, out);
            }
        }
        other => {
            if let Some(s) = json_scalar(Some(other)) {
                out.push((prefix.to_string(), s));
            }
        }
    }
}

/// A JSON scalar as a tool's pretty JSON output prints it (`parse_plist`): a non-empty string
/// escaped ([`in_json`]), a number or boolean as written; `None` for anything else.
pub fn json_scalar(v: Option<&serde_json::Value>) -> Option<String> {
    match v? {
        serde_json::Value::String(s) if !s.is_empty() => Some(in_json(s)),
        serde_json::Value::Number(n) => Some(n.to_string()),
        serde_json::Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

/// The encoding and plaso-style description of a stored file time as the tools render it.
pub fn time_mark(role: &str, raw: &str) -> Option<(masf_graph::TimeEncoding, &'static str)> {
    let encoding = if raw.ends_with("(local)") {
        masf_graph::TimeEncoding::FatLocal
    } else if raw.ends_with('Z') {
        masf_graph::TimeEncoding::Iso8601
    } else {
        return None;
    };
    let description = match role {
        "modified" => "Content Modification Time",
        "accessed" => "Last Access Time",
        "changed" => "Metadata Modification Time",
        "created" => "Creation Time",
        "deleted" => "Deletion Time",
        _ => return None,
    };
    Some((encoding, description))
}

/// A number of a decoded message's field (its first value) as printed, and as a signed number:
/// a two's complement of 64 bits (a negative varint) or of 32 bits (a negative fixed32).
pub fn proto_field(m: &serde_json::Value, f: &str) -> Option<(String, i64)> {
    let n = m.get(f)?.get(0)?.as_u64()?;
    let signed = if n > u64::from(u32::MAX) {
        n as i64
    } else if n > i32::MAX as u64 {
        i64::from(n as u32 as i32)
    } else {
        n as i64
    };
    Some((n.to_string(), signed))
}
