//! App snapshots: the images iOS keeps of each app's screen for the app switcher
//! (`Library/SplashBoard/Snapshots/<bundle>/…` and an app's `Library/Caches/Snapshots/<bundle>/…`,
//! `.ktx` or `.jpeg`), with the fields of iLEAPP's `applicationSnapshots`: one phenomenon per
//! image — the app (the folder below `Snapshots`, without SplashBoard's ` - {…}` suffix), the
//! file, its size and modified time, as the artefact search listed them. The images are not
//! decoded (KTX holds ASTC textures); an app may hide or replace what was on screen before the
//! snapshot, so an image is no proof of what the user saw. iLEAPP leaves out KTX files under
//! 2,500 bytes as blank; they are listed here too, with their size.

use masf_agents::RuntimeError;
use masf_graph::{FactType, TimeEncoding};

use super::{Draft, ENTRY_CAP, Run};

/// The names searched for.
pub const GLOBS: [&str; 2] = ["*.ktx", "*.jpeg"];

/// The app a snapshot belongs to: the folder below `Snapshots`, without ` - {…}`; a scene
/// folder (`sceneID:<bundle>-default`, `sceneID:<bundle>-<UUID>`) gives the bundle, as iLEAPP
/// reads it.
fn app_of(path: &str) -> Option<&str> {
    let (_, rest) = path.rsplit_once("/Snapshots/")?;
    let dir = rest.split('/').next()?;
    let mut app = dir.split(" - {").next().unwrap_or(dir);
    if let Some(scene) = app
        .strip_prefix("sceneID:")
        .or_else(|| app.strip_prefix("sceneID_"))
    {
        app = scene.strip_suffix("-default").unwrap_or(scene);
        app = without_uuid(app).unwrap_or(app);
    }
    (!app.is_empty() && rest.contains('/')).then_some(app)
}

/// `s` without a trailing `-<UUID>` (8-4-4-4-12 hex digits), when it has one.
fn without_uuid(s: &str) -> Option<&str> {
    let i = s.len().checked_sub(37)?;
    let (head, tail) = (s.get(..i)?, s.get(i..)?);
    let uuid = tail.strip_prefix('-')?;
    (uuid.split('-').map(str::len).eq([8, 4, 4, 4, 12])
        && uuid.chars().all(|c| c == '-' || c.is_ascii_hexdigit()))
    .then_some(head)
}

/// Whether `path` is a snapshot (below a SplashBoard or an app's caches `Snapshots` folder).
fn is_snapshot(path: &str) -> bool {
    (path.contains("/SplashBoard/Snapshots/") || path.contains("/Library/Caches/Snapshots/"))
        && app_of(path).is_some()
}

/// Triage of every app snapshot of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    // the one search lists the files with their sizes and times
    run.search()?;
    let Some(find) = run.searched_call() else {
        return Ok(());
    };
    let files: Vec<_> = crate::outputs::listed_files(&find.output.text)
        .into_iter()
        .filter(|f| {
            let p = &f.path;
            let name = p.rsplit('/').next().unwrap_or(p);
            GLOBS
                .iter()
                .any(|g| masf_tools::fs_tools::glob_match(g, name))
                && is_snapshot(p)
        })
        .collect();
    for (i, file) in files.iter().enumerate() {
        let (path, size) = (&file.path, &file.size);
        if i as u64 >= ENTRY_CAP {
            run.ctx.unparsed(
                "app snapshots",
                &format!(
                    "{} snapshot images; the first {ENTRY_CAP} were recorded",
                    files.len()
                ),
                Some(&find.record.invocation_id),
            )?;
            break;
        }
        let app = app_of(path).unwrap_or("?");
        let mut d = Draft::new(
            "apps",
            format!(
                "App snapshot of {app}: {}",
                path.rsplit('/').next().unwrap_or(path)
            ),
        );
        d.fact(FactType::Path, Some(path), &find);
        d.fact(FactType::Name, Some(app), &find);
        d.fact(FactType::Count, Some(size), &find);
        // UTC times end in Z; a ZIP's local time is marked, and is read as naive local text
        let (value, encoding) = match file.time("modified") {
            Some(m) if m.ends_with('Z') => (Some(m), Some(TimeEncoding::Iso8601)),
            Some(m) => match m.strip_suffix(" (local)") {
                Some(local) => (Some(local), Some(TimeEncoding::LocalText)),
                None => (None, None),
            },
            None => (None, None),
        };
        d.time(value, encoding, "Snapshot file modified", &find);
        d.interpretation = format!(
            "{path}: a snapshot iOS took of {app}'s screen for the app switcher ({size} bytes{}); the image is not decoded, and an app may hide or replace its content before the snapshot.",
            if path.ends_with(".ktx") && size.parse::<u64>().is_ok_and(|s| s < 2500) {
                "; under 2,500 bytes, which iLEAPP leaves out as blank"
            } else {
                ""
            }
        );
        run.record(d)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn apps_of_snapshot_folders() {
        let s = "/private/var/mobile/Library/SplashBoard/Snapshots";
        assert_eq!(
            app_of(&format!(
                "{s}/com.apple.purplebuddy/sceneID:com.apple.purplebuddy-default/A@3x.ktx"
            )),
            Some("com.apple.purplebuddy")
        );
        assert_eq!(
            app_of(&format!(
                "{s}/sceneID:com.apple.mobilecal-D442FC82-0544-4C1F-A815-145819D54361/B@3x.ktx"
            )),
            Some("com.apple.mobilecal")
        );
        assert_eq!(
            app_of(&format!("{s}/com.example.app - {{DEFAULT GROUP}}/C@3x.ktx")),
            Some("com.example.app")
        );
        assert_eq!(app_of(&format!("{s}/loose.ktx")), None);
        assert_eq!(without_uuid("a-b"), None);
    }
}
