//! Integration tests of the case store.

mod append_only;
mod chain;
mod consistency;
mod crash;
mod events;
mod invocations;
mod migrations;
mod support;
