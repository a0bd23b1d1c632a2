//! The MASForensics desktop app: a thin Tauri 2 shell. Each command is one call into
//! `masf_api::desktop` run off the UI thread; the run's event stream and hashing progress are
//! forwarded to the window as events. No forensic or UI logic lives here.

// No console window on Windows release builds.
#![cfg_attr(not(debug_assertions), windows_subsystem = "windows")]

mod commands;
mod events;
mod ipc;
mod ts;

use std::sync::Arc;

use masf_api::desktop::Desktop;
use tauri::Manager;

/// Registers the commands named here, and only these: `COMMANDS` is what the command-set test
/// compares with `commands.in` (the permissions), with `ui/src/bindings.ts` and with the
/// typed commands of `ipc.rs` (written to `ui/src/generated/ipc.ts`).
macro_rules! app_commands {
    ($($name:ident),* $(,)?) => {
        /// The names of the registered commands.
        #[cfg_attr(not(test), allow(dead_code))]
        pub const COMMANDS: &[&str] = &[$(stringify!($name)),*];
        fn handler() -> impl Fn(tauri::ipc::Invoke) -> bool + Send + Sync + 'static {
            tauri::generate_handler![$(commands::$name),*]
        }
    };
}

app_commands!(
    intake_paths,
    hash_sources,
    check_case_draft,
    save_case,
    open_case,
    case_status,
    start_run,
    pause_run,
    give_backup_password,
    resume_run,
    events_since,
    report_model,
    invocation,
    rerun_invocation,
    same_as_links,
    actors,
    why_link,
    approve_link,
    retract_link,
    tags,
    mark_item,
    withdraw_note,
    build_index,
    search,
    timeline,
    export_report,
    pick_files,
    pick_folder,
);

fn main() {
    // Started as a tool worker by one of this app's runs: serve, then end (no window).
    if std::env::args_os()
        .nth(1)
        .is_some_and(|a| a == "tool-worker")
    {
        std::process::exit(masf_api::serve_tool_worker());
    }
    // The tools of this app's runs are called in such worker processes (a tool that crashes
    // or runs away ends only its own process).
    if let Ok(me) = std::env::current_exe() {
        masf_api::run_tools_in_workers(me, vec!["tool-worker".into()]);
    }
    let app = tauri::Builder::default()
        .manage(Arc::new(Desktop::new()))
        .invoke_handler(handler())
        .on_window_event(|window, event| {
            // Drag-and-drop intake: the dropped paths are sniffed off the UI thread and sent
            // to the window as `intake-dropped` (the same drafts `intake_paths` returns).
            if let tauri::WindowEvent::DragDrop(tauri::DragDropEvent::Drop { paths, .. }) = event {
                let window = window.clone();
                let paths = paths.clone();
                tauri::async_runtime::spawn_blocking(move || {
                    let drafts = masf_api::desktop::draft_sources(&paths);
                    events::emit::<events::IntakeDropped>(&window, &drafts);
                });
            }
        })
        .setup(|app| {
            // `masf-desktop path/to/case.yaml` opens that case before the window shows, so the
            // UI's first `case_status` finds it.
            if let Some(arg) = std::env::args_os().nth(1) {
                let path = std::path::PathBuf::from(arg);
                if let Err(e) = app.state::<Arc<Desktop>>().open(&path) {
                    eprintln!("masf-desktop: {}: {}", path.display(), e.message);
                }
            }
            Ok(())
        })
        .build(tauri::generate_context!());
    match app {
        Ok(app) => app.run(|_, _| {}),
        Err(e) => {
            eprintln!("masf-desktop: {e}");
            std::process::exit(1);
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    /// The command names `bindings.ts` calls: every `call("name"` (its typed `invoke`).
    fn bindings_commands() -> BTreeSet<String> {
        let text = include_str!("../../ui/src/bindings.ts");
        let mut names = BTreeSet::new();
        let mut rest = text;
        while let Some(at) = rest.find("call(\"") {
            rest = &rest[at + "call(\"".len()..];
            if let Some(end) = rest.find('"') {
                names.insert(rest[..end].to_string());
            }
        }
        names
    }

    fn set(list: &[&str]) -> BTreeSet<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn registered_commands_equal_bindings_and_permissions() {
        let registered = set(super::COMMANDS);
        assert_eq!(
            registered.len(),
            super::COMMANDS.len(),
            "a command is registered twice"
        );
        let permitted: &[&str] = include!("../commands.in");
        assert_eq!(
            registered,
            set(permitted),
            "commands.in differs from the registered set"
        );
        assert_eq!(
            registered,
            bindings_commands(),
            "ui/src/bindings.ts invokes a different set of commands than the shell registers"
        );
    }

    #[test]
    fn capability_grants_exactly_the_commands_and_event_listening() {
        let cap: serde_json::Value =
            serde_json::from_str(include_str!("../capabilities/default.json"))
                .unwrap_or(serde_json::Value::Null);
        let granted: BTreeSet<String> = cap["permissions"]
            .as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|p| p.as_str())
                    .map(String::from)
                    .collect()
            })
            .unwrap_or_default();
        let mut expected: BTreeSet<String> = super::COMMANDS
            .iter()
            .map(|c| format!("allow-{}", c.replace('_', "-")))
            .collect();
        expected.insert("core:event:allow-listen".into());
        expected.insert("core:event:allow-unlisten".into());
        assert_eq!(granted, expected);
    }

    #[test]
    fn csp_is_strict() {
        let conf: serde_json::Value = serde_json::from_str(include_str!("../tauri.conf.json"))
            .unwrap_or(serde_json::Value::Null);
        let csp = &conf["app"]["security"]["csp"];
        assert_eq!(csp["default-src"], "'none'");
        assert_eq!(csp["script-src"], "'self'");
        assert_eq!(csp["object-src"], "'none'");
        let directives = csp.as_object().map(|o| o.len()).unwrap_or(0);
        assert!(directives >= 8, "CSP has {directives} directives");
        for (name, value) in csp.as_object().into_iter().flatten() {
            for token in value.as_str().unwrap_or("").split_whitespace() {
                let wide = matches!(
                    token,
                    "*" | "'unsafe-inline'"
                        | "'unsafe-eval'"
                        | "'unsafe-hashes'"
                        | "http:"
                        | "https:"
                        | "blob:"
                );
                assert!(!wide, "{name} allows {token}");
                assert!(token != "data:" || name == "img-src", "{name} allows data:");
            }
        }
        assert!(conf["app"]["security"]["dangerousDisableAssetCspModification"].is_null());
    }
}
