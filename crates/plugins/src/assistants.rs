//! AI assistant apps (ChatGPT, Claude, DeepSeek on Android): each keeps a conversation's
//! messages as rows with the author's role, the text and a time; a row is recorded the same
//! way whatever the app. The device's user writes the prompts (sent; wallet addresses in them
//! are their claims), the assistant the answers.

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::FactType;
use masf_tools::Invoked;

use crate::calls::Paged;
use crate::drafts::{Draft, Encoding, record_draft};
use crate::outputs::{Table, raw};

/// How an app's message rows are recorded. The query aliases the author's role `role` and the
/// conversation's title `title`.
pub struct Messages<'a> {
    /// The app ("ChatGPT").
    pub app: &'a str,
    /// The role of the device's user's prompts (`user`, `human`; any case).
    pub user_role: &'a str,
    /// The title of a conversation that has none stored.
    pub untitled: &'a str,
    /// The facts said in the interpretation: `(column, type, label)`.
    pub fields: &'a [(&'a str, FactType, &'a str)],
    /// The texts, recorded as facts but not said (the first is the prompt's, for its claims).
    pub texts: &'a [&'a str],
    /// The columns holding the message's time (sent or received).
    pub at: &'a [&'a str],
    /// Other times: `(column, description)`.
    pub times: &'a [(&'a str, &'a str)],
    /// How every time is stored, and its words ("ISO 8601").
    pub encoding: (Encoding, &'a str),
    /// The row as the interpretation names it.
    pub row: &'a dyn Fn(&Table, &[Option<String>]) -> String,
}

/// Records one `messages` phenomenon per row of `pages` (a store at `path` named `file`, listed
/// by `found`) as `spec` says, and the claims of the prompts.
pub fn record(
    ctx: &AgentCtx<'_>,
    path: &str,
    found: &Invoked,
    file: &str,
    pages: &Paged,
    spec: &Messages<'_>,
) -> Result<(), RuntimeError> {
    let app = spec.app;
    for (inv, t, row) in pages.rows() {
        let role = t.get(row, "role");
        let sent = role.is_some_and(|r| r.eq_ignore_ascii_case(spec.user_role));
        let topic = t.get(row, "title").unwrap_or(spec.untitled).to_string();
        let mut d = Draft::new(
            "messages",
            if sent {
                format!("{app} prompt in {topic}")
            } else {
                format!(
                    "{app} {} message in {topic}",
                    role.unwrap_or("unattributed")
                )
            },
        );
        d.fact(FactType::Path, Some(path), found);
        let said = d.fields(t, row, inv, spec.fields);
        for col in spec.texts {
            d.fact(FactType::Text, raw(t, row, col).as_deref(), inv);
        }
        let (encoding, words) = spec.encoding;
        for col in spec.at {
            let v = t.get(row, col);
            d.message_time(v, encoding(v), sent, inv);
        }
        for (col, what) in spec.times {
            let v = t.get(row, col);
            d.time(v, encoding(v), what, inv);
        }
        d.interpretation = format!(
            "{} of {file}: a {app} message {}: {}; the times are {words}.",
            (spec.row)(t, row),
            if sent {
                format!(
                    "written by the device's user to the assistant (role {})",
                    spec.user_role
                )
            } else {
                format!("from the {}", role.unwrap_or("author not stored"))
            },
            said.join(", ")
        );
        record_draft(ctx, d)?;
        let prompt = spec.texts.first().and_then(|c| t.get(row, c));
        if let (true, Some(text)) = (sent, prompt) {
            crate::identity::claims_by_direction(
                ctx,
                inv,
                text,
                &format!("a {app} prompt ({file})"),
                true,
                None,
            )?;
        }
    }
    Ok(())
}
