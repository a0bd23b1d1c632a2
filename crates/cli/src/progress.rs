//! Terminal progress for long operations, drawn on stderr (hidden when stderr is not a terminal).

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// A byte-progress bar implementing the API's progress callbacks.
#[derive(Clone)]
pub struct Bar {
    bar: ProgressBar,
}

impl Bar {
    pub fn new() -> Bar {
        let bar = ProgressBar::with_draw_target(Some(0), ProgressDrawTarget::stderr());
        bar.set_style(
            ProgressStyle::with_template(
                "{msg:24!} [{bar:30}] {bytes}/{total_bytes} {bytes_per_sec} eta {eta}",
            )
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> "),
        );
        Bar { bar }
    }

    pub fn clear(&self) {
        self.bar.finish_and_clear();
    }

    /// Prints a line above the bar (nothing when stderr is not a terminal).
    pub fn line(&self, text: &str) {
        if std::io::IsTerminal::is_terminal(&std::io::stderr()) {
            self.bar.println(text);
        }
    }
}

/// Turns the run's event stream into one line per phase step on the terminal: a source's agent
/// starting, the planners' hypotheses, strategist rounds, the run's end.
#[derive(Default)]
pub struct Phases {
    agents: std::collections::BTreeSet<(String, String)>,
    findings: u64,
    calls: u64,
    planned: bool,
}

impl Phases {
    pub fn see(&mut self, item: &masf_api::StreamItem) -> Option<String> {
        match item {
            masf_api::StreamItem::Invocation(_) => {
                self.calls += 1;
                None
            }
            masf_api::StreamItem::Event(e) => {
                let p = &e.payload;
                let text = |k: &str| p.get(k).and_then(|v| v.as_str()).unwrap_or("").to_string();
                match e.kind.as_str() {
                    "SourceAdded" => Some(format!("intake    {} registered", text("source_id"))),
                    "PhenomenonRecorded" => {
                        self.findings += 1;
                        let ph = &p["phenomenon"];
                        let key = (
                            ph["source_id"].as_str().unwrap_or("").to_string(),
                            ph["agent"].as_str().unwrap_or("").to_string(),
                        );
                        self.agents.insert(key.clone()).then(|| {
                            format!(
                                "examine   {} by {} ({} findings, {} tool calls so far)",
                                key.0, key.1, self.findings, self.calls
                            )
                        })
                    }
                    "HypothesisAdded" if !self.planned => {
                        self.planned = true;
                        Some(format!(
                            "relate    hypotheses across sources ({} findings, {} tool calls)",
                            self.findings, self.calls
                        ))
                    }
                    "RoundStarted" => Some(format!("strategy  round {} started", p["number"])),
                    "RoundCompleted" => Some(format!("strategy  round {} completed", p["number"])),
                    "RunState" => Some(format!("run       {} ({})", text("state"), text("reason"))),
                    _ => None,
                }
            }
        }
    }
}

impl masf_api::Progress for Bar {
    fn begin(&self, label: &str, total_bytes: u64) {
        self.bar.reset();
        self.bar.set_length(total_bytes);
        self.bar.set_message(label.to_string());
    }

    fn advance(&self, done_bytes: u64) {
        self.bar.set_position(done_bytes);
    }
}
