//! Integration tests of the `masf` binary: each test runs the real executable.

mod backup_password;
mod consistency;
mod coverage;
mod demo;
mod demo_case;
mod evidence;
mod hash;
mod hostile;
mod intake;
mod lease;
mod lifecycle;
mod llm_mixed;
mod llm_offline;
mod rederive;
mod report;
mod report_answer;
mod resolution;
mod resume;
mod scale;
mod search;
mod support;
mod tags;
mod tamper;
mod timeline;
