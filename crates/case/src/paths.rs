//! Lexical path arithmetic (no file system access, symlinks are not resolved).

use std::path::{Component, Path, PathBuf};

/// Removes `.` components and folds `..` into the component before it, lexically.
pub(crate) fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                let can_pop = matches!(out.components().next_back(), Some(Component::Normal(_)));
                if can_pop {
                    out.pop();
                } else if !out.has_root() {
                    out.push("..");
                }
            }
            other => out.push(other),
        }
    }
    out
}

/// How to write `target` relative to `base` (both absolute and normalised): a plain relative path
/// when `target` is inside `base`, one climbing with `..` when they share an ancestor below the
/// root, and `target` itself otherwise.
pub(crate) fn relative_to(target: &Path, base: &Path) -> PathBuf {
    let t: Vec<Component> = target.components().collect();
    let b: Vec<Component> = base.components().collect();
    let common = t.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let shares_more_than_root = t
        .iter()
        .take(common)
        .any(|c| matches!(c, Component::Normal(_)));
    if common < b.len() && !shares_more_than_root {
        return target.to_path_buf();
    }
    let mut out = PathBuf::new();
    for _ in common..b.len() {
        out.push("..");
    }
    for c in &t[common..] {
        out.push(c);
    }
    if out.as_os_str().is_empty() {
        out.push(".");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalize_cases() {
        for (input, expect) in [
            ("/a/./b", "/a/b"),
            ("/a/b/../c", "/a/c"),
            ("/../a", "/a"),
            ("a/../../b", "../b"),
            ("./a", "a"),
        ] {
            assert_eq!(normalize(Path::new(input)), Path::new(expect), "{input}");
        }
    }

    #[test]
    fn relative_cases() {
        for (target, base, expect) in [
            ("/case/evidence/usb.E01", "/case", "evidence/usb.E01"),
            (
                "/work/evidence/usb.E01",
                "/work/case",
                "../evidence/usb.E01",
            ),
            (
                "/mnt/evidence/usb.E01",
                "/home/case",
                "/mnt/evidence/usb.E01",
            ),
            ("/case", "/case", "."),
            ("/usb.E01", "/", "usb.E01"),
        ] {
            assert_eq!(
                relative_to(Path::new(target), Path::new(base)),
                Path::new(expect)
            );
        }
    }
}
