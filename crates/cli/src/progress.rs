//! Terminal progress for long operations, drawn on stderr (hidden when stderr is not a terminal).

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// A byte-progress bar implementing the API's progress callbacks.
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
