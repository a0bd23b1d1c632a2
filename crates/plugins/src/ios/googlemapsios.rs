//! Google Maps for iOS' semantic location history (`Library/Application Support/
//! SemanticLocation/odlh-storage.db` of its data container), iLEAPP's `googleMaps` ("Google Maps -
//! Semantic Location Segments", "Google Maps - Edited Location Segments"): Google's On-Device
//! Location History, the Timeline kept on the phone — visits to places and the activities
//! between them.
//!
//! The store has the tables and columns of Play services' on Android (iLEAPP says its queries
//! are ALEAPP's `googleOdlh`'s), so it is read by the Android reader's `crate::android::odlh::read`
//! with this app as its keeper:
//!
//! | table | phenomenon | fields |
//! |---|---|---|
//! | `semantic_segment_table` | one `locations` per Timeline segment ("Google Maps Timeline segment from <start>") | start and end (Unix s), the record's `timestamp_millis` (Unix ms, iLEAPP's "Record Written"), segment type as stored, the place's latitude and longitude where the `semantic_segment` message holds them (field 3 → 1 → 4 → 5, fields 1 and 2, degrees × 10⁷: the stored numbers are the facts, the signed degrees said), shown in the Timeline, finalised, hierarchy level, segment id, the obfuscated Google account id |
//! | `edited_segment_table` | one `locations` per segment the user corrected ("Google Maps Timeline segment edited: <id>") | start, end, the block's start and end (Unix s), segment type, uploaded, hierarchy level, segment id, obfuscated account id |
//!
//! Which app keeps it: the `SemanticLocation` folder is Google's location library, which other
//! Google apps could embed. A store in a container known to be Google Maps'
//! ([`super::appcontainer`]: a backup's folder, FrontBoard, the container's metadata or
//! `Library/Preferences/com.google.Maps.plist`) is titled and said as Google Maps'; one in another
//! app's container, or one whose container nothing names, is still read (the name and folder
//! are the library's own) as "Google Timeline segment …", the container's owner named where the
//! source says it ([`super::appcontainer::container_owner`]). An `odlh-storage.db` anywhere
//! else (not in a data container's `Library/Application Support/SemanticLocation/`) is not read
//! nor noted.
//!
//! Schema drift: columns are taken by name, absent ones NULL; a store without
//! `semantic_segment_table` (or its `start_timestamp_seconds`) is noted, as is one that does
//! not open (by the call). Not read: the app's other stores iLEAPP lists — the place index
//! `SemanticLocation/place-index.db` (`l1_table`: S2 cells with an undecoded payload, no
//! position; not evidence the device was there) and the Maps SDK's object cache
//! `GMSCacheStorage-Objects/Objects.sqlite` (cache keys: icons, HTTP responses) —, nor the
//! segment type's meaning (undocumented, kept as stored). Identities: none (the obfuscated
//! Google account id is a fact; no identifier type links it to an account).

use masf_agents::RuntimeError;
use masf_tools::Invoked;

use super::appcontainer::{AppContainers, container_owner};
use super::{Run, container_of};
use crate::odlh::{Keeper, read};

/// The app's bundle id and its preferences file.
const BUNDLE: &str = "com.google.Maps";
const PREFS: &str = "com.google.Maps.plist";

/// Where the store sits in a data container.
const TAIL: &str = "/Library/Application Support/SemanticLocation/odlh-storage.db";

/// Triage of every on-device location history of the source's app containers.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    let tree = crate::identity::TreeRef {
        partition: None,
        label: "/".into(),
    };
    let mut apps = AppContainers::new(run, BUNDLE, PREFS)?;
    run.each("odlh-storage.db", |find, path| {
        if !is_store(path) {
            return Ok(());
        }
        if let Some(how) = apps.holds(run, path)? {
            let whose = format!("Google Maps' on-device Timeline on this iPhone ({how})");
            let keeper = Keeper {
                app: "Google Maps",
                title: "Google Maps Timeline segment",
                whose: &whose,
            };
            return read(run.ctx, &tree, path, find, &keeper);
        }
        let whose = format!(
            "the on-device Timeline Google's location library kept in {}",
            owner_words(run, find, path)?
        );
        let keeper = Keeper {
            app: "Google's location library",
            title: "Google Timeline segment",
            whose: &whose,
        };
        read(run.ctx, &tree, path, find, &keeper)
    })
}

/// Whether `path` is the location library's store in an app data container.
fn is_store(path: &str) -> bool {
    path.ends_with(TAIL) && container_of(path).is_some_and(|c| path.len() == c.len() + TAIL.len())
}

/// Whose container holds `path` (not Google Maps'), for the interpretation.
fn owner_words(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<String, RuntimeError> {
    let guid = container_of(path)
        .and_then(|c| c.rsplit('/').next())
        .unwrap_or("?")
        .to_string();
    Ok(match container_owner(run, find, path)? {
        Some(o) => match o.bundle {
            Some(b) => format!("the data container of {b} ({}), not Google Maps'", o.how),
            None => format!("app container {guid} ({})", o.how),
        },
        None => format!(
            "app container {guid}, whose app the source does not name (no backup folder name, FrontBoard state, container metadata or Google Maps preferences says)"
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::is_store;

    #[test]
    fn store_paths() {
        let c =
            "/private/var/mobile/Containers/Data/Application/0A1B2C3D-4E5F-4061-8273-94A5B6C7D8E9";
        assert!(is_store(&format!("{c}{}", super::TAIL)));
        assert!(!is_store(&format!("{c}/Documents/odlh-storage.db")));
        assert!(!is_store(&format!("{c}/x{}", super::TAIL)));
        assert!(!is_store(
            "/private/var/mobile/Library/Application Support/SemanticLocation/odlh-storage.db"
        ));
    }
}
