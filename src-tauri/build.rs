//! Tauri's build step: the app manifest generates one `allow-<command>` permission per command
//! of `commands.in`; only those granted in `capabilities/` can be called by the UI.

const COMMANDS: &[&str] = include!("commands.in");

fn main() {
    println!("cargo:rerun-if-changed=commands.in");
    tauri_build::try_build(
        tauri_build::Attributes::new()
            .app_manifest(tauri_build::AppManifest::new().commands(COMMANDS)),
    )
    .unwrap_or_else(|e| panic!("tauri build step failed: {e:#}"));
}
