//! The error shape that crosses into the UI and the CLI.

use serde::Serialize;

/// Stable error codes the UI switches on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// case.yaml is missing or invalid.
    CaseInvalid,
    /// config.yaml is invalid.
    ConfigInvalid,
    /// The case store could not be opened or written.
    Store,
    /// Evidence could not be read.
    Evidence,
    /// The request itself is wrong (for example, an existing case.yaml without overwrite).
    BadRequest,
    /// Any other I/O failure.
    Io,
    /// Another process is running the case (it holds the run lease); the message names it.
    CaseBusy,
    /// The case store fails its consistency check; the message lists the problems (`masf
    /// repair`).
    StoreInconsistent,
}

/// An error of the application facade: a code and a message meant for the examiner.
#[derive(Debug, Clone, Serialize, thiserror::Error, ts_rs::TS)]
#[error("{message}")]
pub struct ApiError {
    pub code: ErrorCode,
    pub message: String,
}

impl ApiError {
    pub fn new(code: ErrorCode, message: impl Into<String>) -> ApiError {
        ApiError {
            code,
            message: message.into(),
        }
    }

    pub(crate) fn case(e: masf_case::CaseError) -> ApiError {
        ApiError::new(ErrorCode::CaseInvalid, e.to_string())
    }

    pub(crate) fn config(e: masf_case::ConfigError) -> ApiError {
        ApiError::new(ErrorCode::ConfigInvalid, e.to_string())
    }

    pub(crate) fn store(e: masf_store::StoreError) -> ApiError {
        ApiError::new(ErrorCode::Store, e.to_string())
    }

    pub(crate) fn evidence(e: masf_evidence::Error) -> ApiError {
        ApiError::new(ErrorCode::Evidence, e.to_string())
    }
}

impl From<masf_store::StoreError> for ApiError {
    fn from(e: masf_store::StoreError) -> ApiError {
        ApiError::store(e)
    }
}
