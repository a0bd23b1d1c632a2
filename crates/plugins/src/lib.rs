//! Capability plugins (DESIGN §9): one module per evidence type, each a [`Plugin`] with its
//! detection, its tools (registered in the shared catalog), its artefact categorisation, its
//! expected-artefact catalogue and its deterministic triage agent. The core sees them only as
//! `Arc<dyn Plugin>` through [`all`].
//!
//! Triage agents use catalog tools only ([`AgentCtx::call`](masf_agents::AgentCtx::call)) and
//! write only through the gateway; every fact they record is a value copied from the output of
//! the call they cite. Helpers shared by the agents are in [`util`].

pub mod android;
pub mod archive;
pub mod browsers;
pub mod disk;
pub mod extract;
pub mod identity;
pub mod ios;
pub mod media;
pub mod region;
pub mod util;
pub mod wallets;

use std::sync::Arc;

use masf_agents::{Plugin, Plugins};

/// Every plugin of this build, in preference order (a tie in detection score goes to the
/// earlier one).
pub fn all() -> Plugins {
    let plugins: Vec<Arc<dyn Plugin>> = vec![
        Arc::new(ios::Ios),
        Arc::new(android::AndroidPlugin),
        media::Media::arc(),
        Arc::new(disk::DiskPlugin),
        Arc::new(archive::ArchivePlugin),
    ];
    Plugins::new(plugins)
}
