//! A mixed run of the demo case through the real `masf` binary: the deterministic agents first,
//! then the LLM agents (a scripted model behind the real client, on a loopback OpenAI-wire
//! server) on the artefacts no rule parsed, and the LLM strategist; the report marks which
//! agent, and which model and prompt, produced each phenomenon.

use std::process::Command;

use masf_testkit::{OpenAiServer, ServedRequest, Turn, tool_calls_reply};
use serde_json::{Value, json};

use crate::support::repo;

fn reply(name: &str, args: Value) -> Turn {
    Turn::Reply(tool_calls_reply(&[("call_0", name, args)], 500, 50))
}

/// Reads the partition table of whatever it is given, records its first line, answers; as the
/// strategist, declares the investigation complete.
fn script(req: &ServedRequest) -> Turn {
    let tools = req.tool_names();
    let has = |t: &str| tools.iter().any(|n| n == t);
    let msgs = req.messages();
    let role = |m: &Value| m["role"].as_str().unwrap_or("").to_string();
    let content = |m: &Value| m["content"].as_str().unwrap_or("").to_string();
    let start = msgs
        .iter()
        .rposition(|m| role(m) == "user" && content(m).contains("Phase: "))
        .unwrap_or(0);
    let turn = msgs
        .iter()
        .skip(start)
        .filter(|m| role(m) == "assistant")
        .count();
    if has("propose_lead") {
        return reply(
            "declare_investigation_complete",
            json!({"rationale": "the scripted strategist is satisfied"}),
        );
    }
    if has("done_investigating") {
        return if turn == 0 {
            reply("partition_table", json!({}))
        } else {
            reply("done_investigating", json!({}))
        };
    }
    if has("done_recording") {
        let read = msgs
            .iter()
            .filter(|m| role(m) == "tool")
            .map(content)
            .find(|c| {
                c.starts_with("<<<EVIDENCE ")
                    && (c.contains(" status=ok ") || c.contains(" status=cached "))
            });
        if turn > 0 || read.is_none() {
            return reply(
                "done_recording",
                json!({"found_nothing": true, "reason": "nothing readable"}),
            );
        }
        let read = read.unwrap_or_default();
        let id = read
            .trim_start_matches("<<<EVIDENCE invocation_id=")
            .split(' ')
            .next()
            .unwrap_or("")
            .to_string();
        let line = read
            .lines()
            .skip(1)
            .map(str::trim)
            .find(|l| l.len() > 3 && !l.starts_with("<<<"))
            .unwrap_or("")
            .to_string();
        return reply(
            "record_phenomenon",
            json!({"category": "partitions", "title": "Partition table line read by the LLM agent",
                   "facts": [{"type": "text", "value": line, "invocation_id": id}],
                   "interpretation": "Scripted reading."}),
        );
    }
    if has("done_linking") {
        return reply("done_linking", json!({}));
    }
    reply("answer", json!({"summary": "read the partition table"}))
}

#[test]
fn a_mixed_run_marks_the_agent_and_model_of_each_phenomenon() {
    let server = OpenAiServer::start(script);
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("config.yaml");
    std::fs::write(
        &config,
        format!(
            "llm:\n  provider: openai_compatible\n  base_url: {}\n  model: testkit-model\n  \
             api_key_env: MASF_MIXED_TEST_KEY\n  max_retries: 0\n  timeout_s: 600\n\
             strategist:\n  kind: llm\n",
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
        .env("MASF_MIXED_TEST_KEY", "sk-mixed-test-key-0123456789")
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "masf run failed:\n{}\n{}",
        String::from_utf8_lossy(&run.stdout),
        String::from_utf8_lossy(&run.stderr)
    );
    assert!(
        !server.requests().is_empty(),
        "the LLM agents and strategist were asked"
    );
    let report: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("report.json")).unwrap()).unwrap();
    let phenomena = report["phenomena"].as_array().unwrap();
    let (llm, rules): (Vec<&Value>, Vec<&Value>) = phenomena
        .iter()
        .partition(|p| p["agent"].as_str().unwrap_or("").starts_with("llm-"));
    let seen: Vec<String> = server
        .requests()
        .iter()
        .map(|r| {
            let last = r.messages().last().cloned().unwrap_or_default();
            format!(
                "{:?} {}",
                r.tool_names().last(),
                last["content"]
                    .as_str()
                    .unwrap_or("")
                    .chars()
                    .take(300)
                    .collect::<String>()
            )
        })
        .collect();
    assert!(
        !llm.is_empty(),
        "an LLM agent recorded something: {seen:#?}"
    );
    assert!(!rules.is_empty(), "the deterministic agents ran first");
    for p in &llm {
        assert_eq!(p["model"], "testkit-model", "{p}");
        assert!(
            p["prompt_version"]
                .as_str()
                .unwrap_or("")
                .starts_with("agent.v1#"),
            "{p}"
        );
    }
    for p in &rules {
        assert!(p.get("model").is_none(), "{p}");
    }
    let html = std::fs::read_to_string(out.join("report.html")).unwrap();
    assert!(html.contains("(model testkit-model, prompt agent.v1#"));
    // The LLM strategist's decision ended the loop.
    let requests = server.requests();
    assert!(
        requests
            .iter()
            .any(|r| r.tool_names().iter().any(|n| n == "propose_lead"))
    );
}
