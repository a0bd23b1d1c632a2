//! Integration tests of the tool catalog on the real demo evidence.

mod bencode;
mod consistency;
mod deep;
mod email;
mod fit;
mod grounding;
mod index;
mod inventory;
mod invoke;
mod java;
mod json;
mod leveldb;
mod protobuf;
mod search;
mod sqlite;
mod support;
mod telegram;
mod tools;
mod typedstream;
mod wal;
