//! Integration tests of the tool catalog on the real demo evidence.

mod deep;
mod consistency;
mod grounding;
mod invoke;
mod search;
mod sqlite;
mod support;
mod tools;
