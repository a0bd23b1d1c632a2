//! Integration tests of the plugins on real artefacts.

mod android;
mod android_support;
mod android_system;
mod archive;
mod asia;
mod boundaries;
mod browsers;
mod contact_claims;
mod disk;
mod ios;
mod ios_artefacts;
mod ios_gen;
mod ios_parity;
mod ios_social;
mod ios_social_a;
mod ios_social_b;
mod ios_support;
mod ios_usage;
mod layouts;
mod limits;
mod media;
mod screens;
mod telegram;
mod util;
mod wallets;
mod who;
