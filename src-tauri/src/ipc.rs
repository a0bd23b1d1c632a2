//! The typed seam between the shell and the web UI: every command's arguments and result and
//! every event's payload (the events are declared in `events`), as Rust types, written as TypeScript to `ui/src/generated/ipc.ts`
//! (with every type they reach, through `ts-rs`). The UI imports its types from there only;
//! the test `generated_typescript_is_fresh` fails when the committed file differs from what
//! the Rust types give now, and says how to refresh it.
//!
//! `commands!` checks each line against the real command at compile time: it calls
//! `commands::NAME` with arguments of the listed types and expects the listed result, so a
//! command whose arguments or result change no longer compiles until its line here does.

#![cfg_attr(not(test), allow(dead_code))] // the generator runs in the freshness test

use std::collections::BTreeMap;
use std::path::PathBuf;

use masf_api::desktop::{
    CaseDraft, CaseSummary, DraftProblem, EventPage, Exported, FactQuery, InvocationView,
    LinksAndActors, ReportFormat, RerunView, SourceDraft, StatusView, TagsView, TimelineRequest,
    WireCursor,
};
use masf_api::{
    ApiError, FileHash, Indexed, MarkAct, Report, SearchRequest, SearchResult, Timeline, Why,
};
use masf_report::ts_shapes as shapes;
use tauri::AppHandle;
use ts_rs::{Config, TS};

use crate::commands::{self, Shared};
use crate::events::event_types;
use crate::ts::{Declarations, TsName};

/// One IPC command as TypeScript sees it: its name, its arguments (name and type, as the
/// `invoke` call passes them) and its result.
pub struct CommandType {
    pub name: &'static str,
    args: Vec<(&'static str, TsName)>,
    result: TsName,
    visit: fn(&mut Declarations),
}

/// The TypeScript type of a result: its shape when one is given (`-> Rust as Shape`).
macro_rules! ts_of {
    ($ret:ty) => {
        $ret
    };
    ($ret:ty, $ts:ty) => {
        $ts
    };
}

macro_rules! commands {
    ($(
        $name:ident [$($inj:ident : $ity:ty),*] ( $($arg:ident : $ty:ty),* ) -> $ret:ty $(as $ts:ty)?;
    )*) => {
        /// The commands, in registration order.
        pub fn command_types() -> Vec<CommandType> {
            vec![$(CommandType {
                name: stringify!($name),
                args: vec![$((stringify!($arg), <$ty as TS>::name)),*],
                result: <ts_of!($ret $(, $ts)?) as TS>::name,
                visit: |d| { $(d.visit::<$ty>();)* d.visit::<ts_of!($ret $(, $ts)?)>(); },
            }),*]
        }

        /// Compile-time checks: each command takes the listed arguments and gives the listed
        /// result (never called).
        #[allow(dead_code, clippy::too_many_arguments)]
        mod signatures {
            use super::*;
            fn mirrors<F, S: masf_report::ts_shapes::Mirrors<F>>() {}
            $(
                pub async fn $name($($inj: $ity,)* $($arg: $ty),*) -> Result<$ret, ApiError> {
                    $( mirrors::<$ret, $ts>(); )?
                    commands::$name($($inj,)* $($arg),*).await
                }
            )*
        }
    };
}

commands! {
    intake_paths [] (paths: Vec<PathBuf>) -> Vec<SourceDraft>;
    hash_sources [app: AppHandle, state: Shared<'_>] (paths: Vec<PathBuf>) -> Vec<FileHash>;
    check_case_draft [] (draft: CaseDraft) -> Vec<DraftProblem>;
    save_case [] (draft: CaseDraft) -> PathBuf;
    open_case [state: Shared<'_>] (path: PathBuf) -> CaseSummary;
    case_status [state: Shared<'_>] () -> StatusView;
    start_run [app: AppHandle, state: Shared<'_>] () -> ();
    pause_run [state: Shared<'_>] (reason: String) -> ();
    give_backup_password [state: Shared<'_>] (source: String, password: String) -> ();
    resume_run [app: AppHandle, state: Shared<'_>] (grants: BTreeMap<String, u64>) -> ();
    events_since [state: Shared<'_>] (cursor: WireCursor, limit: Option<usize>) -> EventPage;
    report_model [state: Shared<'_>] () -> Report;
    invocation [state: Shared<'_>] (id: String, fact: Option<FactQuery>) -> InvocationView;
    rerun_invocation [state: Shared<'_>] (id: String) -> RerunView;
    same_as_links [state: Shared<'_>] () -> Vec<masf_api::LinkView> as Vec<shapes::LinkView>;
    actors [state: Shared<'_>] () -> Vec<masf_api::Actor> as Vec<shapes::Actor>;
    why_link [state: Shared<'_>] (id: String) -> Why;
    approve_link [state: Shared<'_>] (id: String, reason: Option<String>) -> LinksAndActors;
    retract_link [state: Shared<'_>] (id: String, reason: String) -> LinksAndActors;
    tags [state: Shared<'_>] () -> TagsView;
    mark_item [state: Shared<'_>] (target: String, act: MarkAct, reason: Option<String>) -> TagsView;
    withdraw_note [state: Shared<'_>] (id: String, reason: Option<String>) -> TagsView;
    build_index [state: Shared<'_>] (rebuild: bool) -> Vec<Indexed>;
    search [state: Shared<'_>] (request: SearchRequest) -> SearchResult;
    timeline [state: Shared<'_>] (query: TimelineRequest) -> Timeline;
    export_report [state: Shared<'_>] (dir: PathBuf, formats: Vec<ReportFormat>) -> Exported;
    pick_files [app: AppHandle] () -> Vec<PathBuf>;
    pick_folder [app: AppHandle] () -> Option<PathBuf>;
}

/// Tauri passes a command's arguments by their camelCase names.
fn camel(name: &str) -> String {
    let mut out = String::new();
    let mut upper = false;
    for c in name.chars() {
        if c == '_' {
            upper = true;
        } else if upper {
            out.extend(c.to_uppercase());
            upper = false;
        } else {
            out.push(c);
        }
    }
    out
}

/// The whole of `ui/src/generated/ipc.ts`.
pub fn typescript() -> Result<String, String> {
    let mut d = Declarations::new(Config::new().with_large_int("number"));
    let commands = command_types();
    let events = event_types();
    for c in &commands {
        (c.visit)(&mut d);
    }
    for e in &events {
        (e.visit)(&mut d);
    }
    if !d.clashes.is_empty() {
        return Err(format!(
            "two Rust types give the same TypeScript name: {} (rename one with #[ts(rename = \"…\")])",
            d.clashes.join(", ")
        ));
    }
    let cfg = &d.cfg;
    let mut out = String::from(
        "// GENERATED from the Rust types by src-tauri/src/ipc.rs: do not edit.\n\
         // Refresh: UPDATE_EXPECT=1 cargo test -p masf-desktop generated_typescript_is_fresh\n\
         // (the same test, without UPDATE_EXPECT, fails while this file is stale).\n\n",
    );
    for decl in d.by_name.values() {
        out.push_str(decl.trim_end());
        out.push_str("\n\n");
    }
    out.push_str(
        "/** Each IPC command: its arguments (as `invoke` passes them) and its result. */\n\
         export type Commands = {\n",
    );
    for c in &commands {
        let args: Vec<String> = c
            .args
            .iter()
            .map(|(n, ty)| format!("{}: {}", camel(n), ty(cfg)))
            .collect();
        out.push_str(&format!(
            "  {}: {{ args: {{ {} }}; result: {} }};\n",
            c.name,
            args.join("; "),
            (c.result)(cfg)
        ));
    }
    out.push_str("};\n\n/** Each event the shell emits: its payload. */\nexport type Events = {\n");
    for e in &events {
        out.push_str(&format!("  \"{}\": {};\n", e.name, (e.payload)(cfg)));
    }
    out.push_str("};\n");
    Ok(out.replace("args: {  }", "args: Record<string, never>"))
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    const COMMITTED: &str = "ui/src/generated/ipc.ts";

    #[test]
    fn generated_typescript_is_fresh() {
        let fresh = match super::typescript() {
            Ok(ts) => ts,
            Err(e) => panic!("{e}"),
        };
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let path = root.join(COMMITTED);
        if std::env::var_os("UPDATE_EXPECT").is_some() {
            if let Err(e) = std::fs::write(&path, &fresh) {
                panic!("cannot write {}: {e}", path.display());
            }
            return;
        }
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        if committed != fresh {
            let dir = std::env::temp_dir().join("masf-ipc-ts");
            let _ = std::fs::create_dir_all(&dir);
            let fresh_path = dir.join("ipc.ts");
            let _ = std::fs::write(&fresh_path, &fresh);
            panic!(
                "{COMMITTED} is stale: the Rust types of the IPC changed.\n\
                 The regenerated file is {}; diff it, then refresh the committed one with\n\
                 \n    UPDATE_EXPECT=1 cargo test -p masf-desktop generated_typescript_is_fresh\n\
                 \nand fix the type errors `npx tsc --noEmit` shows in ui/.",
                fresh_path.display()
            );
        }
    }

    #[test]
    fn every_registered_command_is_typed() {
        let typed: Vec<&str> = super::command_types().iter().map(|c| c.name).collect();
        assert_eq!(typed, crate::COMMANDS);
    }
}
