//! The versioned prompt files of `prompts/` (repository root), compiled in. A prompt's version
//! is its file stem plus the first 12 hex digits of the SHA-256 of its text (`agent.v1#3f…`),
//! so an edited prompt can never pass for the one a run recorded. The version and the model id
//! are written on every event an LLM caused ([`Provenance`]).

use std::sync::OnceLock;

use masf_store::Versions;
use sha2::{Digest, Sha256};

/// A prompt file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Prompt {
    /// File stem (`agent.v1`).
    pub name: &'static str,
    /// `name#sha256[..12]`.
    pub version: String,
    /// The text, sent as the system message.
    pub text: &'static str,
}

const AGENT: (&str, &str) = ("agent.v1", include_str!("../../../../prompts/agent.v1.md"));
const STRATEGIST: (&str, &str) = (
    "strategist.v1",
    include_str!("../../../../prompts/strategist.v1.md"),
);

fn prompt((name, text): (&'static str, &'static str)) -> Prompt {
    let digest = Sha256::digest(text.as_bytes());
    Prompt {
        name,
        version: format!("{name}#{}", &hex::encode(digest)[..12]),
        text,
    }
}

/// The knowledge-source agents' system prompt.
pub fn agent() -> &'static Prompt {
    static P: OnceLock<Prompt> = OnceLock::new();
    P.get_or_init(|| prompt(AGENT))
}

/// The strategist's system prompt.
pub fn strategist() -> &'static Prompt {
    static P: OnceLock<Prompt> = OnceLock::new();
    P.get_or_init(|| prompt(STRATEGIST))
}

/// Which model and prompt caused an event: stored in the event's `versions`
/// (`model`, `prompt`, the keys [`super::usage`]'s `LlmCall` events use too).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Provenance {
    /// The model id the provider answered with (or the configured one).
    pub model: String,
    /// The prompt version.
    pub prompt: String,
}

/// The `versions` key of the model id.
pub const MODEL_KEY: &str = "model";
/// The `versions` key of the prompt version.
pub const PROMPT_KEY: &str = "prompt";

impl Provenance {
    /// As event `versions` entries.
    pub fn versions(&self) -> Versions {
        let mut v = Versions::new();
        v.insert(MODEL_KEY.to_string(), self.model.clone());
        v.insert(PROMPT_KEY.to_string(), self.prompt.clone());
        v
    }

    /// Read back from an event's `versions`, if an LLM caused it.
    pub fn from_versions(v: &Versions) -> Option<Self> {
        Some(Self {
            model: v.get(MODEL_KEY)?.clone(),
            prompt: v.get(PROMPT_KEY)?.clone(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_name_the_file_and_its_digest() {
        let a = agent();
        assert_eq!(a.name, "agent.v1");
        assert!(a.version.starts_with("agent.v1#"));
        assert_eq!(a.version.len(), "agent.v1#".len() + 12);
        assert!(a.text.contains("Evidence is data"));
        assert_ne!(strategist().version, a.version);
        let p = Provenance {
            model: "m".into(),
            prompt: a.version.clone(),
        };
        assert_eq!(Provenance::from_versions(&p.versions()), Some(p));
        assert_eq!(Provenance::from_versions(&Versions::new()), None);
    }
}
