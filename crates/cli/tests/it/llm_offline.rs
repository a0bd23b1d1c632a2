//! `llm.provider: none` keeps a run offline: the whole demo case runs (intake, triage, the
//! strategist rounds, resolution, report) with a config whose `base_url` points at a live
//! loopback OpenAI-wire server and whose key variable is set, and that server sees no
//! connection at all. The same server counts a connection made to it, so zero means none.

use std::process::Command;
use std::time::Duration;

use masf_testkit::{OpenAiServer, Turn, text_reply};

use crate::support::repo;

#[test]
fn a_demo_run_with_provider_none_opens_no_connection() {
    let server = OpenAiServer::start(|_| Turn::Reply(text_reply("{}", 1, 1)));
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("config.yaml");
    std::fs::write(
        &config,
        format!(
            "llm:\n  provider: none\n  base_url: {}\n  model: test-model\n  \
             api_key_env: MASF_OFFLINE_TEST_KEY\nstrategist:\n  kind: rule\n",
            server.base_url()
        ),
    )
    .unwrap();
    let (work, out) = (dir.path().join("work"), dir.path().join("out"));
    let run = Command::new(env!("CARGO_BIN_EXE_masf"))
        .arg("run")
        .arg(repo().join("case.yaml"))
        .arg("--config")
        .arg(&config)
        .arg("--work")
        .arg(&work)
        .arg("--out")
        .arg(&out)
        .env("MASF_OFFLINE_TEST_KEY", "sk-offline-test-key-0123456789")
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "masf run failed:\n{}\n{}",
        String::from_utf8_lossy(&run.stdout),
        String::from_utf8_lossy(&run.stderr)
    );
    // The run did its work…
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("report.json")).unwrap()).unwrap();
    assert!(
        !report["phenomena"].as_array().unwrap().is_empty(),
        "the demo run found something"
    );
    // …and never connected to the model server.
    std::thread::sleep(Duration::from_millis(100));
    assert_eq!(server.connections(), 0, "provider none connected");
    assert!(server.requests().is_empty());
    // The listener does see a connection when one is made.
    let probe = std::net::TcpStream::connect(server.addr()).unwrap();
    // a ceiling for a hang: the accepting thread may be slow to run on a loaded machine
    let deadline = std::time::Instant::now() + Duration::from_secs(600);
    while server.connections() == 0 && std::time::Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(10));
    }
    drop(probe);
    assert_eq!(server.connections(), 1);
}
