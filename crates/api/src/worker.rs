//! Tool worker processes, wired by the executables (issue 24, part 2; see
//! [`masf_tools::worker`]).
//!
//! An executable that can serve tool calls — the CLI as `masf tool-worker`, the desktop app
//! with the same argument — says so once at start ([`run_tools_in_workers`]) and, started with
//! that argument, calls [`crate::serve_tool_worker`] and exits. Sessions opened afterwards run every
//! tool call in such processes, under `config.yaml`'s `tools.max_memory_mb`.

use std::ffi::OsString;
use std::path::PathBuf;
use std::sync::OnceLock;

use masf_tools::worker::WorkerCommand;

static WORKER: OnceLock<(PathBuf, Vec<OsString>)> = OnceLock::new();

/// Declares that `program args…` serves tool calls ([`crate::serve_tool_worker`]); the first call
/// wins.
pub fn run_tools_in_workers(program: PathBuf, args: Vec<OsString>) {
    let _ = WORKER.set((program, args));
}

/// The command of a worker with the case's memory limit, when the executable declared one.
pub(crate) fn worker_command(config: &masf_case::Config) -> Option<WorkerCommand> {
    WORKER.get().map(|(program, args)| WorkerCommand {
        program: program.clone(),
        args: args.clone(),
        max_memory_bytes: config.tools.max_memory_mb.saturating_mul(1024 * 1024),
    })
}
