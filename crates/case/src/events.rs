//! Case-level events and the source registry projected from them.
//!
//! Intake records one `SourceAdded` event per evidence source (with the size, SHA-256 and MD5 of
//! every file of the source, computed once, at intake). When the examiner later edits a source's
//! label, owner or time zone in `case.yaml`, a `SourceAmended` event records the new values; the
//! original registration is never rewritten. A source intake could not register is a
//! `SourceUnreadable` event, so the log says why it is missing while the rest of the case goes on. [`SourceRegistry`] is the projection of these
//! events: fold them in order and it is the current state of the case's sources.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// Event kind of [`SourceAdded`].
pub const SOURCE_ADDED: &str = "SourceAdded";
/// Event kind of [`SourceAmended`].
pub const SOURCE_AMENDED: &str = "SourceAmended";
/// Event kind of [`SourceUnreadable`].
pub const SOURCE_UNREADABLE: &str = "SourceUnreadable";

/// A declared source that intake could not register (its files could not be found, listed or
/// hashed). The other sources of the case are registered and examined all the same; the next
/// run tries this one again, and a later `SourceAdded` supersedes this event.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SourceUnreadable {
    pub source_id: String,
    /// The path as written in case.yaml.
    pub path: String,
    /// Why it could not be registered.
    pub reason: String,
}

/// One file of an evidence source, hashed at intake.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS)]
pub struct FileDigest {
    /// Path relative to the case folder when the file lies below it, else absolute; `/` separators.
    pub path: String,
    /// Size in bytes.
    pub size: u64,
    /// Lower-case hex SHA-256.
    pub sha256: String,
    /// Lower-case hex MD5.
    pub md5: String,
}

/// A source entered the case: its declaration and the digests of every file, taken at intake.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SourceAdded {
    pub source_id: String,
    pub label: String,
    /// The evidence path as written in case.yaml.
    pub path: String,
    /// The type declared in case.yaml, if any (otherwise sniffed later).
    pub declared_type: Option<String>,
    pub owner: Option<String>,
    /// IANA name of the zone naive timestamps of this source are read in.
    pub timezone: String,
    /// How the files were found: single, ewf_segments, split_raw, folder.
    pub files_kind: String,
    pub files: Vec<FileDigest>,
    /// The evidence type sniffed from the content at intake (`disk_image`, `android_disk`, …).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detected_type: Option<String>,
    /// What in the content decided the detected type (or why detection failed).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub detection_reasons: Vec<String>,
    /// For images that store hashes of their media (EWF): the media read whole at intake and
    /// compared with them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub media: Option<MediaIntegrity>,
}

/// The whole media of an image, hashed at intake and compared with the hashes it stores.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS)]
pub struct MediaIntegrity {
    pub size: u64,
    pub md5: String,
    pub sha1: String,
    pub sha256: String,
    pub stored_md5: Option<String>,
    pub stored_sha1: Option<String>,
    /// `verified`, `mismatch` or `absent`.
    pub md5_check: String,
    /// `verified`, `mismatch` or `absent`.
    pub sha1_check: String,
    /// Chunks that failed their checks, as "chunk N at media offset O: detail".
    pub bad_chunks: Vec<String>,
}

/// The examiner changed how a registered source is described (never its evidence).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SourceAmended {
    pub source_id: String,
    pub label: String,
    pub owner: Option<String>,
    pub timezone: String,
}

impl SourceAmended {
    /// Whether `source` already carries these values (no amendment needed).
    pub fn matches(&self, source: &SourceAdded) -> bool {
        self.label == source.label && self.owner == source.owner && self.timezone == source.timezone
    }
}

/// The sources of a case, as the events say.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SourceRegistry {
    /// Registered sources by id, with amendments applied.
    pub sources: BTreeMap<String, SourceAdded>,
    /// Sources that intake could not register yet, by id, with the latest reason.
    #[serde(default)]
    pub unreadable: BTreeMap<String, String>,
}

/// An event payload that did not match its kind's schema.
#[derive(Debug, thiserror::Error)]
#[error("event {seq} ({kind}): payload does not match the schema: {source}")]
pub struct PayloadError {
    pub seq: i64,
    pub kind: String,
    #[source]
    pub source: serde_json::Error,
}

impl SourceRegistry {
    /// Applies one event; kinds this projection does not know are skipped.
    pub fn apply(
        &mut self,
        seq: i64,
        kind: &str,
        payload: &serde_json::Value,
    ) -> Result<(), PayloadError> {
        let err = |source| PayloadError {
            seq,
            kind: kind.to_string(),
            source,
        };
        match kind {
            SOURCE_ADDED => {
                // Read from the value in place: a folder's SourceAdded lists every one of its
                // files, and a copy of that value would cost as much again.
                let added = SourceAdded::deserialize(payload).map_err(err)?;
                self.unreadable.remove(&added.source_id);
                self.sources.insert(added.source_id.clone(), added);
            }
            SOURCE_AMENDED => {
                let amended: SourceAmended =
                    serde_json::from_value(payload.clone()).map_err(err)?;
                if let Some(s) = self.sources.get_mut(&amended.source_id) {
                    s.label = amended.label;
                    s.owner = amended.owner;
                    s.timezone = amended.timezone;
                }
            }
            SOURCE_UNREADABLE => {
                let u: SourceUnreadable = serde_json::from_value(payload.clone()).map_err(err)?;
                if !self.sources.contains_key(&u.source_id) {
                    self.unreadable.insert(u.source_id, u.reason);
                }
            }
            _ => {}
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn added(id: &str) -> SourceAdded {
        SourceAdded {
            source_id: id.into(),
            label: "USB stick".into(),
            path: "evidence/usb.E01".into(),
            declared_type: None,
            owner: Some("leung".into()),
            timezone: "Asia/Hong_Kong".into(),
            files_kind: "ewf_segments".into(),
            files: vec![FileDigest {
                path: "evidence/usb.E01".into(),
                size: 3,
                sha256: "ab".into(),
                md5: "cd".into(),
            }],
            detected_type: None,
            detection_reasons: Vec::new(),
            media: None,
        }
    }

    #[test]
    fn amendments_apply_in_order_and_unknown_kinds_are_skipped() {
        let mut reg = SourceRegistry::default();
        let a = added("src-usb");
        reg.apply(1, SOURCE_ADDED, &serde_json::to_value(&a).unwrap())
            .unwrap();
        reg.apply(2, "SomethingElse", &serde_json::json!({}))
            .unwrap();
        let amend = SourceAmended {
            source_id: "src-usb".into(),
            label: "USB stick (blue)".into(),
            owner: None,
            timezone: "UTC".into(),
        };
        assert!(!amend.matches(&a));
        reg.apply(3, SOURCE_AMENDED, &serde_json::to_value(&amend).unwrap())
            .unwrap();
        let s = &reg.sources["src-usb"];
        assert_eq!(s.label, "USB stick (blue)");
        assert_eq!(s.owner, None);
        assert_eq!(s.files, a.files, "amendments never touch the digests");
        assert!(amend.matches(s));
    }

    #[test]
    fn a_malformed_payload_is_an_error_naming_the_event() {
        let mut reg = SourceRegistry::default();
        let e = reg
            .apply(7, SOURCE_ADDED, &serde_json::json!({"source_id": 1}))
            .unwrap_err();
        assert!(e.to_string().starts_with("event 7 (SourceAdded)"), "{e}");
    }
}
