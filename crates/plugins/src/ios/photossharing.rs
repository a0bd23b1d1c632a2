//! What the Photos library (`Media/PhotoData/Photos.sqlite`, and the Shared with You library
//! `Library/Photos/Libraries/Syndication.photoslibrary/database/Photos.sqlite`) keeps about
//! sharing, beyond the assets [`super::photos`] records and the iCloud Shared Albums
//! [`super::sharedalbums`] reads: the fields of iLEAPP's `Ph025SWYConvAlbumsNAD` and
//! `Ph026SyndicationPLAssets` (Shared with You), `Ph030iCloudShareMethodsNAD`,
//! `Ph031iCloudSharePhotoLibraryNAD`, `Ph032AssetsIniCldSPLwContrib` and
//! `Ph033AssetsIniCldSPLfromOtherContrib` (iCloud Shared Photo Library), `Ph034iCloudSharedLinksNAD`
//! and `Ph035iCloudSharedLinkAssets` (iCloud links).
//!
//! | table | phenomenon | fields |
//! |---|---|---|
//! | `ZGENERICALBUM` (`ZKIND` 1509) | one `media` per Shared with You conversation album ("Shared with You conversation <id> (album <Z_PK>)") | the conversation's identifier (`ZIMPORTSESSIONID`: a phone number or e-mail address for a conversation with one person, a chat id for a group), title, UUID, importing app, how many of the library's assets belong to it (counted in the query), cloud local state, syndicate flag, sync event order key, pinned, trashed and cloud-delete states, privacy state (as stored); created, contents' start and end, trashed |
//! | `ZASSET` ⋈ `ZADDITIONALASSETATTRIBUTES` (`ZSYNDICATIONIDENTIFIER` set) | one `media` per syndicated asset ("Shared with You asset <Z_PK>: <file>") | file, original and cloud-master file names, syndication identifier, UUID, syndication state, saved-asset type, bundle scope, visibility state, importing app and its display name, share type, the original's fingerprint (`ZMASTERFINGERPRINT`, or `ZORIGINALSTABLEHASH` on iOS 18), its conversation album and that conversation's identifier |
//! | `ZSHARE` | one `media` per share: "iCloud Shared Photo Library <title>" (`ZSCOPETYPE` 4, 5), "iCloud link <URL>" (2, a moment share), "iCloud photo share <UUID>" (other) | UUID, scope and originating scope ids, title, share URL, status, scope type, public permission, local publish state, asset/photo/video counts (uploaded, in the cloud, added by the camera's smart sharing), auto-share policy, cloud local, scope syncing, participant update and preview states, exit source, state and type, trashed and cloud-delete states, force-sync and notification flags; its participants, library assets and link assets (counted in the query); created, start, end, expiry, trashed, last participant-trash notification and when it was viewed |
//! | `ZSHAREPARTICIPANT` (⋈ `ZSHARE`) | one `contacts` per participant ("iCloud share participant <who> (share <Z_PK>)") | e-mail, phone, user id (and `icloud-photos:<id>`, qualified in the query), participant id, UUID, whether it is the current user, role, acceptance status, permission, exit state, the share's entity column (`Z54_SHARE` on iOS 16, `Z55_SHARE`/`Z61_SHARE` on 17.6/18, found by its name), the share's Z_PK, title, UUID, scope type and URL, how many assets it contributed (counted in the query); from `ZNAMECOMPONENTS` (an archived `NSPersonNameComponents`, read with `sqlite_query`'s `plists`) the name prefix, given, middle and family name, suffix and nickname |
//! | `ZASSET` in the Shared Photo Library (`ZACTIVELIBRARYSCOPEPARTICIPATIONSTATE` 1, a `ZLIBRARYSCOPE`, or a `ZASSETCONTRIBUTOR` row) | one `media` per asset ("iCloud Shared Library asset <Z_PK>: <file>") | file, original name, UUID, participation state, importing app, fingerprint, the library (Z_PK, title, scope id), its contributor (participant Z_PK, e-mail, phone, user id, whether the current user, names) and how many contributor rows it has, who trashed it (participant Z_PK, e-mail, phone, current user) |
//! | `ZASSET` of an iCloud link (`ZMOMENTSHARE` set or `ZSAVEDASSETTYPE` 8) ⋈ `ZSHARE` | one `media` per asset ("iCloud link asset <Z_PK>: <file>") | file, original and cloud-master names, UUID, saved-asset type, bundle scope, the share's Z_PK, URL, UUID, title, and the link's owner (`ZROLE` 1: e-mail, phone, whether the current user) |
//!
//! Times are Core Data seconds since 2001 (`apple_seconds`). An asset's own times, place and
//! camera are [`super::photos`]'s; here an asset is recorded for how it was shared, so no asset
//! time is repeated.
//!
//! Identities: a participant marked as the current user (`ZISCURRENTUSER` 1) is the device's
//! user: `owner` gains its e-mail, phone and `icloud-photos:<ZUSERIDENTIFIER>`. Every other
//! participant is a person of their own: `icloud-photos:<ZUSERIDENTIFIER>`, else the handle of
//! their e-mail or phone (`handle:` or their address-book card), with their e-mail and phone. A
//! Shared with You conversation named by a phone number or an e-mail address names the other
//! person of that Messages conversation (who sent the items received, to whom the user's were
//! sent): observed as that handle, never as the owner's; a group's chat id is no identity.
//!
//! Schema drift is keyed on the tables and columns found (iLEAPP keys its queries on the iOS
//! version): the attributes are joined by the asset's `ZADDITIONALATTRIBUTES` or their own
//! `ZASSET`; the share entity column of a participant and the asset column of
//! `ZASSETCONTRIBUTOR` (`Z3LIBRARYSCOPEASSETCONTRIBUTORS`) are found by their names; the
//! fingerprint is `ZORIGINALSTABLEHASH` where the library has it, else `ZMASTERFINGERPRINT`;
//! every other column is read where present. A library without `ZASSET` (iOS 11–13's
//! `ZGENERICASSET`) has none of these features and is passed over; a file with neither asset
//! table is noted; `ZGENERICALBUM`, `ZSHARE` or `ZSHAREPARTICIPANT` present without their key
//! columns (`Z_PK`, `ZKIND`, `ZSCOPETYPE`) are noted (the rest is still read). Tables absent
//! (no Shared with You before iOS 15, no Shared Photo Library before 16) are passed over.
//!
//! Not read: the CloudKit share record (`ZSHARE.ZCKSHAREDATA`, which holds the share's keys),
//! the share's preview and thumbnail images, the participants' notification URL; the albums'
//! display settings (sort order, prototype and project flags). States are recorded as stored:
//! only the syndication state is explained (as iLEAPP's research reads it).

use std::collections::BTreeSet;

use masf_agents::RuntimeError;
use masf_graph::{FactType, IdType};
use masf_tools::Invoked;
use serde_json::Value;

use super::{Draft, Run, Schema, file_name, handle_fact_type, raw};
use crate::calls::{column_or_null, note_pages_cap, qualified_or_null, select_columns};
use crate::drafts::apple_seconds;
use crate::outputs::{in_json_cell, plist_cell};

const ASSET: &str = "ZASSET";
const OLD_ASSET: &str = "ZGENERICASSET";
const ATTRS: &str = "ZADDITIONALASSETATTRIBUTES";
const ALBUM: &str = "ZGENERICALBUM";
const SHARE: &str = "ZSHARE";
const PARTICIPANT: &str = "ZSHAREPARTICIPANT";
const CONTRIBUTOR: &str = "ZASSETCONTRIBUTOR";
const MASTER: &str = "ZCLOUDMASTER";

/// The namespace of a participant's `ZUSERIDENTIFIER` (the iCloud user record of the Photos
/// sharing container).
const SERVICE: &str = "icloud-photos";

/// Triage of the sharing records of every Photos library of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    run.each("Photos.sqlite", |find, path| {
        if path.contains("/PhotoData/") || path.contains(".photoslibrary/") {
            one(run, find, path)
        } else {
            Ok(())
        }
    })
}

fn one(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let Some(schema) = run.schema(
        path,
        &[
            ASSET,
            OLD_ASSET,
            ATTRS,
            ALBUM,
            SHARE,
            PARTICIPANT,
            CONTRIBUTOR,
            MASTER,
        ],
    )?
    else {
        return Ok(());
    };
    if schema.columns(ASSET).is_empty() {
        if schema.columns(OLD_ASSET).is_empty() {
            run.ctx.unparsed(
                path,
                "could not parse the Photos library's sharing records (Shared with You, iCloud Shared Photo Library, iCloud links) because it has neither a ZASSET (iOS 14+) nor a ZGENERICASSET (iOS 11-13) table",
                None,
            )?;
        }
        // iOS 11-13 (ZGENERICASSET): none of these features yet
        return Ok(());
    }
    let lib = Library {
        run,
        find,
        path,
        schema,
    };
    lib.conversations()?;
    lib.syndicated()?;
    lib.shares()?;
    lib.participants()?;
    lib.library_assets()?;
    lib.link_assets()
}

/// One Photos library being read.
struct Library<'a, 'c, 's> {
    run: &'a Run<'c, 's>,
    find: &'a Invoked,
    path: &'a str,
    schema: Schema,
}

/// The columns of the tables one query reads.
struct Cols {
    a: BTreeSet<String>,
    x: BTreeSet<String>,
    g: BTreeSet<String>,
    s: BTreeSet<String>,
    p: BTreeSet<String>,
    c: BTreeSet<String>,
    cm: BTreeSet<String>,
}

impl Library<'_, '_, '_> {
    fn cols(&self) -> Cols {
        Cols {
            a: self.schema.columns(ASSET),
            x: self.schema.columns(ATTRS),
            g: self.schema.columns(ALBUM),
            s: self.schema.columns(SHARE),
            p: self.schema.columns(PARTICIPANT),
            c: self.schema.columns(CONTRIBUTOR),
            cm: self.schema.columns(MASTER),
        }
    }

    fn file(&self) -> &str {
        file_name(self.path)
    }

    /// Which library this is, for the interpretations.
    fn which(&self) -> &'static str {
        if self.path.contains("Syndication.photoslibrary") {
            "the Shared with You (syndication) library"
        } else {
            "the photo library"
        }
    }

    /// Observes a Shared with You conversation's identifier as the other person of the
    /// conversation, when it is a phone number or an e-mail address (a group's chat id is not).
    fn observe_conversation(&self, inv: &Invoked, conversation: &str) -> Result<(), RuntimeError> {
        if handle_fact_type(conversation) == FactType::Account {
            return Ok(());
        }
        self.run.observe_handle(
            conversation,
            inv,
            &format!(
                "a Messages conversation whose photos and videos Shared with You keeps ({})",
                self.file()
            ),
        )?;
        Ok(())
    }

    /// ZGENERICALBUM's Shared with You conversation albums (`ZKIND` 1509).
    fn conversations(&self) -> Result<(), RuntimeError> {
        let c = self.cols();
        if c.g.is_empty() || !self.schema.require(self.run, ALBUM, &["Z_PK", "ZKIND"])? {
            return Ok(());
        }
        let sql = conversations_sql(&c.g, &c.a);
        let Some(paged) = self.run.paged(self.path, &sql, "pk")? else {
            return Ok(());
        };
        for (inv, t, row) in paged.rows() {
            let pk = t.get(row, "pk").unwrap_or("?");
            let conversation = raw(t, row, "conversation");
            let mut d = Draft::new(
                "media",
                format!(
                    "Shared with You conversation {} (album {pk})",
                    conversation.as_deref().unwrap_or("without an identifier")
                ),
            );
            d.fact(FactType::Path, Some(self.path), self.find);
            if let Some(v) = conversation.as_deref() {
                d.fact(handle_fact_type(v), Some(v), inv);
            }
            let said = d.fields(
                t,
                row,
                inv,
                &[
                    ("title", FactType::Text, "title"),
                    ("uuid", FactType::Identifier, "UUID"),
                    ("imported_by", FactType::Identifier, "imported by"),
                    (
                        "assets",
                        FactType::Count,
                        "assets of the conversation in this library",
                    ),
                    ("cloud_local_state", FactType::Text, "cloud local state"),
                    ("syndicate", FactType::Text, "syndicate flag"),
                    ("sync_order", FactType::Text, "sync event order key"),
                    ("pinned", FactType::Text, "pinned"),
                    ("trashed", FactType::Text, "trashed state"),
                    ("cloud_deleted", FactType::Text, "cloud delete state"),
                    ("privacy_state", FactType::Text, "privacy state"),
                ],
            );
            d.times_of(
                t,
                row,
                inv,
                apple_seconds,
                &[
                    ("created", "Shared with You conversation album created"),
                    (
                        "start",
                        "Shared with You conversation album's contents start",
                    ),
                    ("end", "Shared with You conversation album's contents end"),
                    ("trashed_date", "Shared with You conversation album trashed"),
                ],
            );
            d.interpretation = format!(
                "{ALBUM} Z_PK {pk} of {} ({}): the album Photos keeps for a Messages conversation whose photos and videos Shared with You offers (ZKIND 1509). Its identifier (ZIMPORTSESSIONID) {} names the conversation: a phone number or e-mail address is the other person of a conversation with one person, another value a group's chat id. {}. States are as stored; the times are Core Data seconds (start and end: the dates of the album's contents). The items are recorded one by one as Shared with You assets.",
                self.file(),
                self.which(),
                conversation.as_deref().unwrap_or("is not kept"),
                if said.is_empty() {
                    "No other field is kept".to_string()
                } else {
                    capitalised(&said.join(", "))
                },
            );
            self.run.record(d)?;
            if let Some(v) = conversation.as_deref() {
                self.observe_conversation(inv, v)?;
            }
        }
        note_pages_cap(
            self.run.ctx,
            self.path,
            &paged,
            "Shared with You conversation albums",
        )
    }

    /// The assets with a syndication identifier: the photos and videos of Shared with You.
    fn syndicated(&self) -> Result<(), RuntimeError> {
        let c = self.cols();
        let Some(sql) = syndicated_sql(&c) else {
            return Ok(());
        };
        let Some(paged) = self.run.paged(self.path, &sql, "pk")? else {
            return Ok(());
        };
        for (inv, t, row) in paged.rows() {
            let pk = t.get(row, "pk").unwrap_or("?");
            let file = raw(t, row, "file");
            let conversation = raw(t, row, "conversation");
            let mut d = Draft::new(
                "media",
                format!(
                    "Shared with You asset {pk}: {}",
                    file.as_deref().unwrap_or("(no file name)")
                ),
            );
            d.fact(FactType::Path, Some(self.path), self.find);
            d.fact(FactType::Path, file.as_deref(), inv);
            if let Some(v) = conversation.as_deref() {
                d.fact(handle_fact_type(v), Some(v), inv);
            }
            let said = d.fields(
                t,
                row,
                inv,
                &[
                    ("original_name", FactType::Name, "original file name"),
                    (
                        "cloud_name",
                        FactType::Name,
                        "cloud master original file name",
                    ),
                    ("syndication_id", FactType::Identifier, "syndication id"),
                    ("uuid", FactType::Identifier, "UUID"),
                    ("syndication_state", FactType::Text, "syndication state"),
                    ("saved_type", FactType::Text, "saved asset type"),
                    ("bundle_scope", FactType::Text, "bundle scope"),
                    ("visibility", FactType::Text, "visibility state"),
                    ("imported_by", FactType::Identifier, "imported by"),
                    ("imported_by_name", FactType::Name, "imported by (name)"),
                    ("share_type", FactType::Text, "share type"),
                    ("fingerprint", FactType::Identifier, "fingerprint"),
                    (
                        "conversation_pk",
                        FactType::Identifier,
                        "conversation album Z_PK",
                    ),
                ],
            );
            d.interpretation = format!(
                "{ASSET} Z_PK {pk} of {} ({}): a photo or video of Shared with You, the items of Messages conversations Photos offers (its ZSYNDICATIONIDENTIFIER is set); {}; {}. {}. The asset's own times are in its Photos library phenomenon.",
                self.file(),
                self.which(),
                syndication_state(t.get(row, "syndication_state")),
                match conversation.as_deref() {
                    Some(v) => format!(
                        "its conversation (ZCONVERSATION's album) is {v}, the other person of a conversation with one person when a phone number or e-mail address"
                    ),
                    None => "no conversation album is kept for it".to_string(),
                },
                capitalised(&said.join(", ")),
            );
            self.run.record(d)?;
            if let Some(v) = conversation.as_deref() {
                self.observe_conversation(inv, v)?;
            }
        }
        note_pages_cap(self.run.ctx, self.path, &paged, "Shared with You assets")
    }

    /// ZSHARE: the iCloud Shared Photo Library, iCloud links (moment shares) and other shares.
    fn shares(&self) -> Result<(), RuntimeError> {
        let c = self.cols();
        if c.s.is_empty()
            || !self
                .schema
                .require(self.run, SHARE, &["Z_PK", "ZSCOPETYPE"])?
        {
            return Ok(());
        }
        let sql = shares_sql(&c);
        let Some(paged) = self.run.paged(self.path, &sql, "s.Z_PK")? else {
            return Ok(());
        };
        for (inv, t, row) in paged.rows() {
            let pk = t.get(row, "pk").unwrap_or("?");
            let scope = t.get(row, "scope_type");
            let label = |cols: &[&str]| -> String {
                cols.iter()
                    .find_map(|c| raw(t, row, c))
                    .unwrap_or_else(|| format!("Z_PK {pk}"))
            };
            let (title, what) = match scope {
                Some("2") => (
                    format!("iCloud link {}", label(&["url", "uuid"][..])),
                    "an iCloud link (a moment share: photos shared by a link, ZSCOPETYPE 2)",
                ),
                Some("4") | Some("5") => (
                    format!(
                        "iCloud Shared Photo Library {}",
                        label(&["title", "uuid"][..])
                    ),
                    "the iCloud Shared Photo Library (ZSCOPETYPE 4, or 5 for an active participant's)",
                ),
                _ => (
                    format!("iCloud photo share {}", label(&["uuid"][..])),
                    "an iCloud photo share of a scope type this reader does not name",
                ),
            };
            let mut d = Draft::new("media", title);
            d.fact(FactType::Path, Some(self.path), self.find);
            let said = d.fields(
                t,
                row,
                inv,
                &[
                    ("uuid", FactType::Identifier, "UUID"),
                    ("scope_id", FactType::Identifier, "scope id"),
                    (
                        "origin_scope_id",
                        FactType::Identifier,
                        "originating scope id",
                    ),
                    ("title", FactType::Text, "title"),
                    ("url", FactType::Url, "share URL"),
                    ("status", FactType::Text, "status"),
                    ("scope_type", FactType::Text, "scope type"),
                    ("public_permission", FactType::Text, "public permission"),
                    ("publish_state", FactType::Text, "local publish state"),
                    ("asset_count", FactType::Count, "assets"),
                    ("photos", FactType::Count, "photos"),
                    ("videos", FactType::Count, "videos"),
                    ("uploaded_photos", FactType::Count, "uploaded photos"),
                    ("uploaded_videos", FactType::Count, "uploaded videos"),
                    ("cloud_photos", FactType::Count, "photos in the cloud"),
                    ("cloud_videos", FactType::Count, "videos in the cloud"),
                    (
                        "camera_shared",
                        FactType::Count,
                        "assets added by the camera's smart sharing",
                    ),
                    ("auto_share", FactType::Text, "auto-share policy"),
                    ("cloud_local_state", FactType::Text, "cloud local state"),
                    ("syncing_state", FactType::Text, "scope syncing state"),
                    (
                        "participant_update_state",
                        FactType::Text,
                        "participant cloud update state",
                    ),
                    ("preview_state", FactType::Text, "preview state"),
                    ("exit_source", FactType::Text, "exit source"),
                    ("exit_state", FactType::Text, "exit state"),
                    ("exit_type", FactType::Text, "exit type"),
                    ("trashed", FactType::Text, "trashed state"),
                    ("cloud_deleted", FactType::Text, "cloud delete state"),
                    ("force_sync", FactType::Text, "force sync attempted"),
                    (
                        "notify_upload",
                        FactType::Text,
                        "notify on upload completion",
                    ),
                    ("ignore_budgets", FactType::Text, "ignore budgets"),
                    ("participants", FactType::Count, "participants"),
                    (
                        "library_assets",
                        FactType::Count,
                        "assets in the library scope",
                    ),
                    ("link_assets", FactType::Count, "assets of the link"),
                ],
            );
            d.times_of(
                t,
                row,
                inv,
                apple_seconds,
                &[
                    ("created", "iCloud share created"),
                    ("start", "iCloud share's contents start"),
                    ("end", "iCloud share's contents end"),
                    ("expiry", "iCloud share expires"),
                    ("trashed_date", "iCloud share trashed"),
                    (
                        "trash_notified",
                        "Last notice of a participant trashing a shared asset",
                    ),
                    (
                        "trash_notice_viewed",
                        "Last notice of a participant trashing a shared asset viewed",
                    ),
                ],
            );
            d.interpretation = format!(
                "{SHARE} Z_PK {pk} of {}: {what}. {}. States and flags are as stored; counts of participants and assets are counted in the query; times are Core Data seconds. The share URL is the link the share is reached by; the CloudKit share record (ZCKSHAREDATA, holding its keys) is not read.",
                self.file(),
                capitalised(&said.join(", ")),
            );
            self.run.record(d)?;
        }
        note_pages_cap(self.run.ctx, self.path, &paged, "iCloud photo shares")
    }

    /// ZSHAREPARTICIPANT: the people of each share, the device's user among them.
    fn participants(&self) -> Result<(), RuntimeError> {
        let c = self.cols();
        if c.p.is_empty() || !self.schema.require(self.run, PARTICIPANT, &["Z_PK"])? {
            return Ok(());
        }
        let sql = participants_sql(&c);
        let Some(paged) = self
            .run
            .paged_with(self.path, &sql, "p.Z_PK", &["plists"])?
        else {
            return Ok(());
        };
        let file = self.file().to_string();
        for (inv, t, row) in paged.rows() {
            let pk = t.get(row, "pk").unwrap_or("?");
            let email = raw(t, row, "email");
            let phone = raw(t, row, "phone");
            let user_q = raw(t, row, "user_q");
            let names = name_parts(t.get(row, "names"));
            let full = full_name(&names);
            let share = t.get(row, "share_pk").unwrap_or("?");
            let who = full
                .clone()
                .or_else(|| email.clone())
                .or_else(|| phone.clone())
                .or_else(|| raw(t, row, "user_id"))
                .unwrap_or_else(|| format!("Z_PK {pk}"));
            let mut d = Draft::new(
                "contacts",
                format!("iCloud share participant {who} (share {share})"),
            );
            d.fact(FactType::Path, Some(self.path), self.find);
            let mut said = d.fields(
                t,
                row,
                inv,
                &[
                    ("email", FactType::Email, "e-mail"),
                    ("phone", FactType::Phone, "phone"),
                    ("user_id", FactType::Identifier, "user id"),
                    ("user_q", FactType::Account, "qualified user id"),
                    ("participant_id", FactType::Identifier, "participant id"),
                    ("uuid", FactType::Identifier, "UUID"),
                    ("current_user", FactType::Text, "is current user"),
                    ("role", FactType::Text, "role"),
                    ("acceptance", FactType::Text, "acceptance status"),
                    ("permission", FactType::Text, "permission"),
                    ("exit_state", FactType::Text, "exit state"),
                    ("share_entity", FactType::Text, "share entity"),
                    ("share_pk", FactType::Identifier, "share Z_PK"),
                    ("share_title", FactType::Text, "share title"),
                    ("share_uuid", FactType::Identifier, "share UUID"),
                    ("share_scope", FactType::Text, "share scope type"),
                    ("share_url", FactType::Url, "share URL"),
                    ("contributed", FactType::Count, "assets contributed"),
                ],
            );
            for (what, v) in &names {
                d.fact(FactType::Name, Some(&in_json_cell(v)), inv);
                said.push(format!("{what} {v}"));
            }
            let current = t.get(row, "current_user") == Some("1");
            d.interpretation = format!(
                "{PARTICIPANT} Z_PK {pk} of {file}: a participant of the iCloud photo share {SHARE} Z_PK {share}{}: {}. Role, acceptance, permission and exit state are as stored (iLEAPP reads role 1 as the share's owner, 2 as an invitee; acceptance 2 as accepted); the names are those of the archived NSPersonNameComponents (ZNAMECOMPONENTS).",
                if current {
                    ", the device's user (ZISCURRENTUSER 1)"
                } else {
                    ", another person than the device's user"
                },
                said.join(", "),
            );
            self.run.record(d)?;
            let ids: Vec<(IdType, Option<&str>, &str)> = vec![
                (
                    IdType::AccountId,
                    user_q.as_deref(),
                    "The iCloud Photos sharing user id",
                ),
                (IdType::Email, email.as_deref(), "The e-mail address"),
                (IdType::Phone, phone.as_deref(), "The phone number"),
            ];
            if current {
                let why = |what: &str| {
                    format!(
                        "{what} of the device's user, a participant of an iCloud photo share marked as the current user (ZSHAREPARTICIPANT.ZISCURRENTUSER 1, {file})."
                    )
                };
                self.run
                    .observe_person("owner", "device owner", inv, &why, &ids)?;
                continue;
            }
            let context = user_q
                .clone()
                .or_else(|| email.as_deref().and_then(|e| self.run.handle_context(e)))
                .or_else(|| phone.as_deref().and_then(|p| self.run.handle_context(p)));
            let Some(context) = context else {
                continue;
            };
            let why = |what: &str| {
                format!(
                    "{what} of {who}, a participant of an iCloud photo share of the device's user (not the current user, {file})."
                )
            };
            self.run.observe_person(&context, &who, inv, &why, &ids)?;
        }
        note_pages_cap(self.run.ctx, self.path, &paged, "iCloud share participants")
    }

    /// The assets of the iCloud Shared Photo Library, with who contributed and who trashed each.
    fn library_assets(&self) -> Result<(), RuntimeError> {
        let c = self.cols();
        let Some(sql) = library_assets_sql(&c) else {
            return Ok(());
        };
        let Some(paged) = self.run.paged_with(self.path, &sql, "pk", &["plists"])? else {
            return Ok(());
        };
        for (inv, t, row) in paged.rows() {
            let pk = t.get(row, "pk").unwrap_or("?");
            let file = raw(t, row, "file");
            let mut d = Draft::new(
                "media",
                format!(
                    "iCloud Shared Library asset {pk}: {}",
                    file.as_deref().unwrap_or("(no file name)")
                ),
            );
            d.fact(FactType::Path, Some(self.path), self.find);
            d.fact(FactType::Path, file.as_deref(), inv);
            let mut said = d.fields(
                t,
                row,
                inv,
                &[
                    ("original_name", FactType::Name, "original file name"),
                    ("uuid", FactType::Identifier, "UUID"),
                    ("in_library", FactType::Text, "library participation state"),
                    ("imported_by", FactType::Identifier, "imported by"),
                    ("fingerprint", FactType::Identifier, "fingerprint"),
                    ("library_pk", FactType::Identifier, "library share Z_PK"),
                    ("library_title", FactType::Text, "library title"),
                    ("library_scope_id", FactType::Identifier, "library scope id"),
                    ("contributors", FactType::Count, "contributor rows"),
                    (
                        "contributor_pk",
                        FactType::Identifier,
                        "contributor participant Z_PK",
                    ),
                    ("contributor_email", FactType::Email, "contributor e-mail"),
                    ("contributor_phone", FactType::Phone, "contributor phone"),
                    (
                        "contributor_user_id",
                        FactType::Identifier,
                        "contributor user id",
                    ),
                    (
                        "contributor_is_user",
                        FactType::Text,
                        "contributor is current user",
                    ),
                    (
                        "trashed_by_pk",
                        FactType::Identifier,
                        "trashed by participant Z_PK",
                    ),
                    ("trashed_by_email", FactType::Email, "trashed by (e-mail)"),
                    ("trashed_by_phone", FactType::Phone, "trashed by (phone)"),
                    (
                        "trashed_by_user",
                        FactType::Text,
                        "trashed by the current user",
                    ),
                ],
            );
            let names = name_parts(t.get(row, "contributor_names"));
            for (what, v) in &names {
                d.fact(FactType::Name, Some(&in_json_cell(v)), inv);
                said.push(format!("contributor's {what} {v}"));
            }
            let by = match t.get(row, "contributor_is_user") {
                Some("1") => {
                    "added by the device's user (its contributor is the current user)".to_string()
                }
                Some(_) => format!(
                    "added by another participant, {}",
                    full_name(&names)
                        .or_else(|| raw(t, row, "contributor_email"))
                        .or_else(|| raw(t, row, "contributor_phone"))
                        .unwrap_or_else(|| "not named".to_string())
                ),
                None => "its contributor is not kept".to_string(),
            };
            d.interpretation = format!(
                "{ASSET} Z_PK {pk} of {}: an asset of the iCloud Shared Photo Library (ZACTIVELIBRARYSCOPEPARTICIPATIONSTATE, ZLIBRARYSCOPE or a {CONTRIBUTOR} row), {by}. {}. The contributor is the participant of its {CONTRIBUTOR} row (the first when several); a trashing participant is ZTRASHEDBYPARTICIPANT. The asset's own times are in its Photos library phenomenon.",
                self.file(),
                capitalised(&said.join(", ")),
            );
            self.run.record(d)?;
        }
        note_pages_cap(
            self.run.ctx,
            self.path,
            &paged,
            "iCloud Shared Photo Library assets",
        )
    }

    /// The assets of iCloud links (moment shares): shared by a link the user opened or kept.
    fn link_assets(&self) -> Result<(), RuntimeError> {
        let c = self.cols();
        let Some(sql) = link_assets_sql(&c) else {
            return Ok(());
        };
        let Some(paged) = self.run.paged(self.path, &sql, "pk")? else {
            return Ok(());
        };
        for (inv, t, row) in paged.rows() {
            let pk = t.get(row, "pk").unwrap_or("?");
            let file = raw(t, row, "file");
            let mut d = Draft::new(
                "media",
                format!(
                    "iCloud link asset {pk}: {}",
                    file.as_deref().unwrap_or("(no file name)")
                ),
            );
            d.fact(FactType::Path, Some(self.path), self.find);
            d.fact(FactType::Path, file.as_deref(), inv);
            let said = d.fields(
                t,
                row,
                inv,
                &[
                    ("original_name", FactType::Name, "original file name"),
                    (
                        "cloud_name",
                        FactType::Name,
                        "cloud master original file name",
                    ),
                    ("uuid", FactType::Identifier, "UUID"),
                    ("saved_type", FactType::Text, "saved asset type"),
                    ("bundle_scope", FactType::Text, "bundle scope"),
                    ("share_pk", FactType::Identifier, "share Z_PK"),
                    ("url", FactType::Url, "link URL"),
                    ("share_uuid", FactType::Identifier, "share UUID"),
                    ("share_title", FactType::Text, "share title"),
                    ("sharer_email", FactType::Email, "link owner's e-mail"),
                    ("sharer_phone", FactType::Phone, "link owner's phone"),
                    (
                        "sharer_is_user",
                        FactType::Text,
                        "link owner is the current user",
                    ),
                ],
            );
            d.interpretation = format!(
                "{ASSET} Z_PK {pk} of {}: an asset of an iCloud link (ZMOMENTSHARE, or ZSAVEDASSETTYPE 8, which iLEAPP reads as a cloud master moment asset): {}. The link's owner is its participant of role 1. The link's times (created, expiry) are in its share's phenomenon, the asset's own in its Photos library phenomenon.",
                self.file(),
                said.join(", "),
            );
            self.run.record(d)?;
        }
        note_pages_cap(self.run.ctx, self.path, &paged, "iCloud link assets")
    }
}

/// `s` with its first letter upper-case.
fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

/// `NULL AS <alias>` for each alias of `spec` (columns a library does not have).
fn nulls(spec: &[(&str, &str)]) -> String {
    spec.iter()
        .map(|(_, alias)| format!("NULL AS {alias}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// What a syndication state says (the values iLEAPP's research decodes; others as stored).
fn syndication_state(v: Option<&str>) -> String {
    match v {
        Some("0") => "syndication state 0: in the Shared with You library an item received in the conversation (in the photo library: not syndicated)".to_string(),
        Some("1") => "syndication state 1: sent by the device's user".to_string(),
        Some("2") => "syndication state 2: saved to the photo library by the device's user".to_string(),
        Some("10") => "syndication state 10: saved by the device's user, since deleted from the photo library".to_string(),
        Some(other) => format!("syndication state {other} (as stored, not decoded)"),
        None => "no syndication state kept".to_string(),
    }
}

/// How the attributes join the asset `a` (alias `x`): by the asset's `ZADDITIONALATTRIBUTES`,
/// else by their `ZASSET`.
fn attributes_join(a: &BTreeSet<String>, x: &BTreeSet<String>) -> Option<&'static str> {
    if x.contains("Z_PK") && a.contains("ZADDITIONALATTRIBUTES") {
        Some("x.Z_PK = a.ZADDITIONALATTRIBUTES")
    } else if x.contains("ZASSET") {
        Some("x.ZASSET = a.Z_PK")
    } else {
        None
    }
}

/// The asset's file (directory and name in the library), as [`super::photos`] writes it.
fn file_column(a: &BTreeSet<String>) -> String {
    if a.contains("ZDIRECTORY") && a.contains("ZFILENAME") {
        "a.ZDIRECTORY || '/' || a.ZFILENAME AS file".to_string()
    } else {
        column_or_null(a, "a.", "ZFILENAME", "file")
    }
}

/// The original's fingerprint: `ZORIGINALSTABLEHASH` (iOS 18) or `ZMASTERFINGERPRINT`.
fn fingerprint_column(x: &BTreeSet<String>, joined: bool) -> String {
    if joined {
        for col in ["ZORIGINALSTABLEHASH", "ZMASTERFINGERPRINT"] {
            if x.contains(col) {
                return format!("x.{col} AS fingerprint");
            }
        }
    }
    "NULL AS fingerprint".to_string()
}

/// The participant's column naming its share's Core Data entity (`Z54_SHARE`, `Z55_SHARE`,
/// `Z61_SHARE`: the number changes with the iOS version).
fn share_entity_column(p: &BTreeSet<String>) -> Option<&str> {
    p.iter().map(String::as_str).find(|c| {
        c.strip_prefix('Z')
            .and_then(|r| r.strip_suffix("_SHARE"))
            .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
    })
}

/// `ZASSETCONTRIBUTOR`'s column naming the asset (`Z3LIBRARYSCOPEASSETCONTRIBUTORS`: its number
/// is the asset entity's).
fn contributor_asset_column(c: &BTreeSet<String>) -> Option<&str> {
    c.iter()
        .map(String::as_str)
        .find(|n| n.starts_with('Z') && n.ends_with("LIBRARYSCOPEASSETCONTRIBUTORS"))
}

fn conversations_sql(g: &BTreeSet<String>, a: &BTreeSet<String>) -> String {
    let assets = if a.contains("ZCONVERSATION") {
        "(SELECT count(*) FROM ZASSET ca WHERE ca.ZCONVERSATION = g.Z_PK) AS assets"
    } else {
        "NULL AS assets"
    };
    format!(
        "SELECT * FROM (SELECT g.Z_PK AS pk, {}, {assets} FROM ZGENERICALBUM g WHERE g.ZKIND = 1509)",
        select_columns(
            g,
            "g.",
            &[
                ("ZIMPORTSESSIONID", "conversation"),
                ("ZTITLE", "title"),
                ("ZUUID", "uuid"),
                ("ZIMPORTEDBYBUNDLEIDENTIFIER", "imported_by"),
                ("ZCLOUDLOCALSTATE", "cloud_local_state"),
                ("ZSYNDICATE", "syndicate"),
                ("ZSYNCEVENTORDERKEY", "sync_order"),
                ("ZISPINNED", "pinned"),
                ("ZTRASHEDSTATE", "trashed"),
                ("ZCLOUDDELETESTATE", "cloud_deleted"),
                ("ZPRIVACYSTATE", "privacy_state"),
                ("ZCREATIONDATE", "created"),
                ("ZSTARTDATE", "start"),
                ("ZENDDATE", "end"),
                ("ZTRASHEDDATE", "trashed_date"),
            ],
        ),
    )
}

fn syndicated_sql(c: &Cols) -> Option<String> {
    if !c.a.contains("Z_PK") || !c.x.contains("ZSYNDICATIONIDENTIFIER") {
        return None;
    }
    let join = attributes_join(&c.a, &c.x)?;
    let mut cols = vec![
        "a.Z_PK AS pk".to_string(),
        file_column(&c.a),
        "x.ZSYNDICATIONIDENTIFIER AS syndication_id".to_string(),
        select_columns(
            &c.a,
            "a.",
            &[
                ("ZUUID", "uuid"),
                ("ZSYNDICATIONSTATE", "syndication_state"),
                ("ZSAVEDASSETTYPE", "saved_type"),
                ("ZBUNDLESCOPE", "bundle_scope"),
                ("ZVISIBILITYSTATE", "visibility"),
                ("ZCONVERSATION", "conversation_pk"),
            ],
        ),
        select_columns(
            &c.x,
            "x.",
            &[
                ("ZORIGINALFILENAME", "original_name"),
                ("ZIMPORTEDBYBUNDLEIDENTIFIER", "imported_by"),
                ("ZIMPORTEDBYDISPLAYNAME", "imported_by_name"),
                ("ZSHARETYPE", "share_type"),
            ],
        ),
        fingerprint_column(&c.x, true),
    ];
    let mut from = format!("FROM ZASSET a JOIN ZADDITIONALASSETATTRIBUTES x ON {join}");
    if c.a.contains("ZCONVERSATION") && c.g.contains("Z_PK") {
        cols.push(column_or_null(
            &c.g,
            "g.",
            "ZIMPORTSESSIONID",
            "conversation",
        ));
        from.push_str(" LEFT JOIN ZGENERICALBUM g ON g.Z_PK = a.ZCONVERSATION");
    } else {
        cols.push("NULL AS conversation".into());
    }
    if c.a.contains("ZMASTER") && c.cm.contains("Z_PK") {
        cols.push(column_or_null(
            &c.cm,
            "cm.",
            "ZORIGINALFILENAME",
            "cloud_name",
        ));
        from.push_str(" LEFT JOIN ZCLOUDMASTER cm ON cm.Z_PK = a.ZMASTER");
    } else {
        cols.push("NULL AS cloud_name".into());
    }
    Some(format!(
        "SELECT * FROM (SELECT {} {from} WHERE x.ZSYNDICATIONIDENTIFIER IS NOT NULL AND x.ZSYNDICATIONIDENTIFIER != '')",
        cols.join(", ")
    ))
}

fn shares_sql(c: &Cols) -> String {
    let participants = if c.p.contains("ZSHARE") {
        "(SELECT count(*) FROM ZSHAREPARTICIPANT sp WHERE sp.ZSHARE = s.Z_PK) AS participants"
    } else {
        "NULL AS participants"
    };
    let library = if c.a.contains("ZLIBRARYSCOPE") {
        "(SELECT count(*) FROM ZASSET la WHERE la.ZLIBRARYSCOPE = s.Z_PK) AS library_assets"
    } else {
        "NULL AS library_assets"
    };
    let link = if c.a.contains("ZMOMENTSHARE") {
        "(SELECT count(*) FROM ZASSET ma WHERE ma.ZMOMENTSHARE = s.Z_PK) AS link_assets"
    } else {
        "NULL AS link_assets"
    };
    format!(
        "SELECT s.Z_PK AS pk, s.ZSCOPETYPE AS scope_type, {}, {participants}, {library}, {link} FROM ZSHARE s",
        select_columns(
            &c.s,
            "s.",
            &[
                ("ZUUID", "uuid"),
                ("ZSCOPEIDENTIFIER", "scope_id"),
                ("ZORIGINATINGSCOPEIDENTIFIER", "origin_scope_id"),
                ("ZTITLE", "title"),
                ("ZSHAREURL", "url"),
                ("ZSTATUS", "status"),
                ("ZPUBLICPERMISSION", "public_permission"),
                ("ZLOCALPUBLISHSTATE", "publish_state"),
                ("ZASSETCOUNT", "asset_count"),
                ("ZPHOTOSCOUNT", "photos"),
                ("ZVIDEOSCOUNT", "videos"),
                ("ZUPLOADEDPHOTOSCOUNT", "uploaded_photos"),
                ("ZUPLOADEDVIDEOSCOUNT", "uploaded_videos"),
                ("ZCLOUDPHOTOCOUNT", "cloud_photos"),
                ("ZCLOUDVIDEOCOUNT", "cloud_videos"),
                ("ZCOUNTOFASSETSADDEDBYCAMERASMARTSHARING", "camera_shared"),
                ("ZAUTOSHAREPOLICY", "auto_share"),
                ("ZCLOUDLOCALSTATE", "cloud_local_state"),
                ("ZSCOPESYNCINGSTATE", "syncing_state"),
                ("ZPARTICIPANTCLOUDUPDATESTATE", "participant_update_state"),
                ("ZPREVIEWSTATE", "preview_state"),
                ("ZEXITSOURCE", "exit_source"),
                ("ZEXITSTATE", "exit_state"),
                ("ZEXITTYPE", "exit_type"),
                ("ZTRASHEDSTATE", "trashed"),
                ("ZCLOUDDELETESTATE", "cloud_deleted"),
                ("ZFORCESYNCATTEMPTED", "force_sync"),
                ("ZSHOULDNOTIFYONUPLOADCOMPLETION", "notify_upload"),
                ("ZSHOULDIGNOREBUDGETS", "ignore_budgets"),
                ("ZCREATIONDATE", "created"),
                ("ZSTARTDATE", "start"),
                ("ZENDDATE", "end"),
                ("ZEXPIRYDATE", "expiry"),
                ("ZTRASHEDDATE", "trashed_date"),
                (
                    "ZLASTPARTICIPANTASSETTRASHNOTIFICATIONDATE",
                    "trash_notified",
                ),
                (
                    "ZLASTPARTICIPANTASSETTRASHNOTIFICATIONVIEWEDDATE",
                    "trash_notice_viewed",
                ),
            ],
        ),
    )
}

fn participants_sql(c: &Cols) -> String {
    let entity = match share_entity_column(&c.p) {
        Some(col) => format!("p.{col} AS share_entity"),
        None => "NULL AS share_entity".to_string(),
    };
    let mut cols = vec![
        "p.Z_PK AS pk".to_string(),
        select_columns(
            &c.p,
            "p.",
            &[
                ("ZEMAILADDRESS", "email"),
                ("ZPHONENUMBER", "phone"),
                ("ZUSERIDENTIFIER", "user_id"),
                ("ZPARTICIPANTID", "participant_id"),
                ("ZUUID", "uuid"),
                ("ZISCURRENTUSER", "current_user"),
                ("ZROLE", "role"),
                ("ZACCEPTANCESTATUS", "acceptance"),
                ("ZPERMISSION", "permission"),
                ("ZEXITSTATE", "exit_state"),
                ("ZNAMECOMPONENTS", "names"),
                ("ZSHARE", "share_pk"),
            ],
        ),
        qualified_or_null(&c.p, "p.", "ZUSERIDENTIFIER", SERVICE, "user_q"),
        entity,
    ];
    let mut from = "FROM ZSHAREPARTICIPANT p".to_string();
    if c.p.contains("ZSHARE") && c.s.contains("Z_PK") {
        cols.push(select_columns(
            &c.s,
            "s.",
            &[
                ("ZTITLE", "share_title"),
                ("ZUUID", "share_uuid"),
                ("ZSCOPETYPE", "share_scope"),
                ("ZSHAREURL", "share_url"),
            ],
        ));
        from.push_str(" LEFT JOIN ZSHARE s ON s.Z_PK = p.ZSHARE");
    } else {
        cols.push(
            "NULL AS share_title, NULL AS share_uuid, NULL AS share_scope, NULL AS share_url"
                .into(),
        );
    }
    cols.push(if c.c.contains("ZPARTICIPANT") {
        "(SELECT count(*) FROM ZASSETCONTRIBUTOR pc WHERE pc.ZPARTICIPANT = p.Z_PK) AS contributed"
            .to_string()
    } else {
        "NULL AS contributed".to_string()
    });
    format!("SELECT {} {from}", cols.join(", "))
}

fn library_assets_sql(c: &Cols) -> Option<String> {
    if !c.a.contains("Z_PK") {
        return None;
    }
    let mut cols = vec![
        "a.Z_PK AS pk".to_string(),
        file_column(&c.a),
        select_columns(
            &c.a,
            "a.",
            &[
                ("ZUUID", "uuid"),
                ("ZACTIVELIBRARYSCOPEPARTICIPATIONSTATE", "in_library"),
                ("ZLIBRARYSCOPE", "library_pk"),
                ("ZTRASHEDBYPARTICIPANT", "trashed_by_pk"),
            ],
        ),
    ];
    let mut from = "FROM ZASSET a".to_string();
    let mut any = Vec::new();
    if c.a.contains("ZACTIVELIBRARYSCOPEPARTICIPATIONSTATE") {
        any.push("a.ZACTIVELIBRARYSCOPEPARTICIPATIONSTATE = 1".to_string());
    }
    if c.a.contains("ZLIBRARYSCOPE") {
        any.push("a.ZLIBRARYSCOPE IS NOT NULL".to_string());
    }
    let x_join = attributes_join(&c.a, &c.x);
    match x_join {
        Some(j) => {
            cols.push(select_columns(
                &c.x,
                "x.",
                &[
                    ("ZORIGINALFILENAME", "original_name"),
                    ("ZIMPORTEDBYBUNDLEIDENTIFIER", "imported_by"),
                ],
            ));
            from.push_str(&format!(" LEFT JOIN ZADDITIONALASSETATTRIBUTES x ON {j}"));
        }
        None => cols.push("NULL AS original_name, NULL AS imported_by".into()),
    }
    cols.push(fingerprint_column(&c.x, x_join.is_some()));
    if c.a.contains("ZLIBRARYSCOPE") && c.s.contains("Z_PK") {
        cols.push(select_columns(
            &c.s,
            "l.",
            &[
                ("ZTITLE", "library_title"),
                ("ZSCOPEIDENTIFIER", "library_scope_id"),
            ],
        ));
        from.push_str(" LEFT JOIN ZSHARE l ON l.Z_PK = a.ZLIBRARYSCOPE");
    } else {
        cols.push("NULL AS library_title, NULL AS library_scope_id".into());
    }
    const WHO: [(&str, &str); 5] = [
        ("ZEMAILADDRESS", "contributor_email"),
        ("ZPHONENUMBER", "contributor_phone"),
        ("ZUSERIDENTIFIER", "contributor_user_id"),
        ("ZISCURRENTUSER", "contributor_is_user"),
        ("ZNAMECOMPONENTS", "contributor_names"),
    ];
    match contributor_asset_column(&c.c).filter(|_| c.c.contains("ZPARTICIPANT")) {
        Some(col) => {
            cols.push("cb.contributors AS contributors, cb.participant AS contributor_pk".into());
            from.push_str(&format!(
                " LEFT JOIN (SELECT {col} AS asset, min(ZPARTICIPANT) AS participant, count(*) AS contributors FROM ZASSETCONTRIBUTOR GROUP BY {col}) cb ON cb.asset = a.Z_PK"
            ));
            any.push("cb.asset IS NOT NULL".to_string());
            if c.p.contains("Z_PK") {
                cols.push(select_columns(&c.p, "cp.", &WHO));
                from.push_str(" LEFT JOIN ZSHAREPARTICIPANT cp ON cp.Z_PK = cb.participant");
            } else {
                cols.push(nulls(&WHO[..]));
            }
        }
        None => {
            cols.push("NULL AS contributors, NULL AS contributor_pk".into());
            cols.push(nulls(&WHO[..]));
        }
    }
    const TRASHER: [(&str, &str); 3] = [
        ("ZEMAILADDRESS", "trashed_by_email"),
        ("ZPHONENUMBER", "trashed_by_phone"),
        ("ZISCURRENTUSER", "trashed_by_user"),
    ];
    if c.a.contains("ZTRASHEDBYPARTICIPANT") && c.p.contains("Z_PK") {
        cols.push(select_columns(&c.p, "tp.", &TRASHER));
        from.push_str(" LEFT JOIN ZSHAREPARTICIPANT tp ON tp.Z_PK = a.ZTRASHEDBYPARTICIPANT");
    } else {
        cols.push(nulls(&TRASHER[..]));
    }
    if any.is_empty() {
        return None;
    }
    Some(format!(
        "SELECT * FROM (SELECT {} {from} WHERE {})",
        cols.join(", "),
        any.join(" OR ")
    ))
}

fn link_assets_sql(c: &Cols) -> Option<String> {
    if !c.a.contains("Z_PK") {
        return None;
    }
    let mut any = Vec::new();
    if c.a.contains("ZMOMENTSHARE") {
        any.push("a.ZMOMENTSHARE IS NOT NULL");
    }
    if c.a.contains("ZSAVEDASSETTYPE") {
        any.push("a.ZSAVEDASSETTYPE = 8");
    }
    if any.is_empty() {
        return None;
    }
    let mut cols = vec![
        "a.Z_PK AS pk".to_string(),
        file_column(&c.a),
        select_columns(
            &c.a,
            "a.",
            &[
                ("ZUUID", "uuid"),
                ("ZSAVEDASSETTYPE", "saved_type"),
                ("ZBUNDLESCOPE", "bundle_scope"),
                ("ZMOMENTSHARE", "share_pk"),
            ],
        ),
    ];
    let mut from = "FROM ZASSET a".to_string();
    match attributes_join(&c.a, &c.x) {
        Some(j) => {
            cols.push(column_or_null(
                &c.x,
                "x.",
                "ZORIGINALFILENAME",
                "original_name",
            ));
            from.push_str(&format!(" LEFT JOIN ZADDITIONALASSETATTRIBUTES x ON {j}"));
        }
        None => cols.push("NULL AS original_name".into()),
    }
    if c.a.contains("ZMASTER") && c.cm.contains("Z_PK") {
        cols.push(column_or_null(
            &c.cm,
            "cm.",
            "ZORIGINALFILENAME",
            "cloud_name",
        ));
        from.push_str(" LEFT JOIN ZCLOUDMASTER cm ON cm.Z_PK = a.ZMASTER");
    } else {
        cols.push("NULL AS cloud_name".into());
    }
    if c.a.contains("ZMOMENTSHARE") && c.s.contains("Z_PK") {
        cols.push(select_columns(
            &c.s,
            "s.",
            &[
                ("ZSHAREURL", "url"),
                ("ZUUID", "share_uuid"),
                ("ZTITLE", "share_title"),
            ],
        ));
        from.push_str(" LEFT JOIN ZSHARE s ON s.Z_PK = a.ZMOMENTSHARE");
    } else {
        cols.push("NULL AS url, NULL AS share_uuid, NULL AS share_title".into());
    }
    let owner = c.a.contains("ZMOMENTSHARE") && c.p.contains("ZSHARE") && c.p.contains("ZROLE");
    for (col, alias) in [
        ("ZEMAILADDRESS", "sharer_email"),
        ("ZPHONENUMBER", "sharer_phone"),
        ("ZISCURRENTUSER", "sharer_is_user"),
    ] {
        cols.push(if owner && c.p.contains(col) {
            format!(
                "(SELECT op.{col} FROM ZSHAREPARTICIPANT op WHERE op.ZSHARE = a.ZMOMENTSHARE AND op.ZROLE = 1 ORDER BY op.Z_PK LIMIT 1) AS {alias}"
            )
        } else {
            format!("NULL AS {alias}")
        });
    }
    Some(format!(
        "SELECT * FROM (SELECT {} {from} WHERE {})",
        cols.join(", "),
        any.join(" OR ")
    ))
}

/// The parts of an archived `NSPersonNameComponents` (a `plist:` cell): `(what, value)` of the
/// name prefix, given, middle and family name, suffix and nickname, wherever the archive nests
/// them (its keys end with the part's name: `NS.givenName`, `NS.nameComponentGivenName`).
fn name_parts(cell: Option<&str>) -> Vec<(&'static str, String)> {
    const PARTS: [(&str, &str); 6] = [
        ("prefix", "name prefix"),
        ("givenname", "given name"),
        ("middlename", "middle name"),
        ("familyname", "family name"),
        ("suffix", "name suffix"),
        ("nickname", "nickname"),
    ];
    let Some(v) = cell.and_then(plist_cell) else {
        return Vec::new();
    };
    PARTS
        .iter()
        .filter_map(|(suffix, what)| key_ending(&v, suffix).map(|s| (*what, s)))
        .collect()
}

/// The first non-empty string whose key ends with `suffix` (any case) in `v`, a level's own keys
/// before those nested deeper (a phonetic representation nests a name of its own).
fn key_ending(v: &Value, suffix: &str) -> Option<String> {
    match v {
        Value::Object(m) => m
            .iter()
            .find_map(|(k, x)| {
                x.as_str()
                    .filter(|s| !s.trim().is_empty() && k.to_ascii_lowercase().ends_with(suffix))
                    .map(str::to_string)
            })
            .or_else(|| m.values().find_map(|x| key_ending(x, suffix))),
        Value::Array(a) => a.iter().find_map(|x| key_ending(x, suffix)),
        _ => None,
    }
}

/// Given (middle) and family name joined, for a title and label (not a fact: the archive keeps
/// them apart).
fn full_name(parts: &[(&'static str, String)]) -> Option<String> {
    let get = |w: &str| {
        parts
            .iter()
            .find(|(what, _)| *what == w)
            .map(|(_, v)| v.as_str())
    };
    let joined: Vec<&str> = ["given name", "middle name", "family name"]
        .iter()
        .filter_map(|w| get(w))
        .collect();
    if joined.is_empty() {
        get("nickname").map(str::to_string)
    } else {
        Some(joined.join(" "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(cols: &[&str]) -> BTreeSet<String> {
        cols.iter().map(|c| c.to_string()).collect()
    }

    fn cols(a: &[&str], x: &[&str], p: &[&str], c: &[&str]) -> Cols {
        Cols {
            a: set(a),
            x: set(x),
            g: set(&["Z_PK", "ZKIND", "ZIMPORTSESSIONID"]),
            s: set(&["Z_PK", "ZSCOPETYPE", "ZTITLE"]),
            p: set(p),
            c: set(c),
            cm: set(&[]),
        }
    }

    #[test]
    fn version_columns_are_found_by_name() {
        assert_eq!(
            share_entity_column(&set(&["ZSHARE", "Z54_SHARE", "ZROLE"])),
            Some("Z54_SHARE")
        );
        assert_eq!(share_entity_column(&set(&["Z61_SHARE"])), Some("Z61_SHARE"));
        assert_eq!(share_entity_column(&set(&["ZSHARE", "Z_SHARE"])), None);
        assert_eq!(
            contributor_asset_column(&set(&[
                "Z_PK",
                "ZPARTICIPANT",
                "Z3LIBRARYSCOPEASSETCONTRIBUTORS"
            ])),
            Some("Z3LIBRARYSCOPEASSETCONTRIBUTORS")
        );
        assert_eq!(
            fingerprint_column(&set(&["ZMASTERFINGERPRINT"]), true),
            "x.ZMASTERFINGERPRINT AS fingerprint"
        );
        assert_eq!(
            fingerprint_column(&set(&["ZMASTERFINGERPRINT", "ZORIGINALSTABLEHASH"]), true),
            "x.ZORIGINALSTABLEHASH AS fingerprint"
        );
        assert_eq!(fingerprint_column(&set(&[]), true), "NULL AS fingerprint");
    }

    #[test]
    fn queries_follow_the_schema() {
        let q = conversations_sql(&set(&["Z_PK", "ZKIND"]), &set(&["Z_PK"]));
        assert!(q.contains("NULL AS conversation") && q.contains("NULL AS assets"));
        assert!(q.ends_with("WHERE g.ZKIND = 1509)"));
        let c = cols(&["Z_PK"], &["Z_PK"], &[], &[]);
        assert_eq!(syndicated_sql(&c), None);
        assert_eq!(library_assets_sql(&c), None);
        assert_eq!(link_assets_sql(&c), None);
        let c = cols(
            &[
                "Z_PK",
                "ZADDITIONALATTRIBUTES",
                "ZCONVERSATION",
                "ZLIBRARYSCOPE",
                "ZMOMENTSHARE",
            ],
            &["Z_PK", "ZSYNDICATIONIDENTIFIER"],
            &[
                "Z_PK",
                "ZSHARE",
                "ZROLE",
                "ZEMAILADDRESS",
                "ZUSERIDENTIFIER",
                "Z61_SHARE",
            ],
            &["Z_PK", "ZPARTICIPANT", "Z3LIBRARYSCOPEASSETCONTRIBUTORS"],
        );
        let q = syndicated_sql(&c).unwrap();
        assert!(q.contains("LEFT JOIN ZGENERICALBUM g ON g.Z_PK = a.ZCONVERSATION"));
        assert!(q.contains("x.Z_PK = a.ZADDITIONALATTRIBUTES"));
        let q = library_assets_sql(&c).unwrap();
        assert!(q.contains("GROUP BY Z3LIBRARYSCOPEASSETCONTRIBUTORS"));
        assert!(q.ends_with("WHERE a.ZLIBRARYSCOPE IS NOT NULL OR cb.asset IS NOT NULL)"));
        let q = link_assets_sql(&c).unwrap();
        assert!(q.contains("op.ZROLE = 1") && q.contains("NULL AS sharer_phone"));
        let q = participants_sql(&c);
        assert!(q.contains("'icloud-photos:' || p.ZUSERIDENTIFIER"));
        assert!(q.contains("p.Z61_SHARE AS share_entity"));
        let q = shares_sql(&c);
        assert!(q.contains("WHERE sp.ZSHARE = s.Z_PK") && q.contains("NULL AS url"));
    }

    #[test]
    fn archived_names_are_found_wherever_nested() {
        let cell = r#"plist:{"root":{"NS.nameComponentsPrivate":{"NS.familyName":"Brunner","NS.givenName":"Lena","NS.phoneticRepresentation":{"NS.givenName":"LEH-na"}}}}"#;
        let parts = name_parts(Some(cell));
        assert_eq!(
            parts,
            vec![
                ("given name", "Lena".to_string()),
                ("family name", "Brunner".to_string())
            ]
        );
        assert_eq!(full_name(&parts).as_deref(), Some("Lena Brunner"));
        assert!(name_parts(Some("x'00'")).is_empty());
        assert!(name_parts(None).is_empty());
    }

    #[test]
    fn syndication_states_are_said() {
        assert!(syndication_state(Some("1")).contains("sent by the device's user"));
        assert!(syndication_state(Some("7")).contains("not decoded"));
        assert_eq!(capitalised("assets 3"), "Assets 3");
    }
}
