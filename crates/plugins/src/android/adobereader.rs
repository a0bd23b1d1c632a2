//! Adobe Acrobat Reader (`com.adobe.reader`), ALEAPP's `adobeReader` (its reports
//! `adobe_reader_account`, `_recent_files`, `_documents`, `_thumbnails`, `_comments`,
//! `_shared_documents`, `_ai_conversations`, `_tool_usage`, `_document_cloud`): the account signed
//! in, the documents opened (paths, last opened, how often), the documents' list with their
//! cloud and sharing state, cached thumbnails, comment notifications, shared and reviewed
//! documents, AI Assistant conversations, the tools used and the cloud transfers.
//!
//! | store: table | phenomenon | fields |
//! |---|---|---|
//! | `shared_prefs/FoundationMigrated.xml` | one `accounts` ("Adobe Reader account <e-mail>") | e-mail, display, first and last name, Adobe ID, auth id, account type, service level, e-mail verified, country, owner organisation, device name and id; the access token's expiry (Unix ms) |
//! | `com.adobe.reader.ARRecentDatabase`: `ARRecentFileEntity` | one `files` per path ("Adobe Reader recent file <path>") | path, the open count the app keeps; last opened (Unix ms) |
//! | `…ARRecentsFileManager.ARRecentsFileDatabase`: `ARRecentsFileTable` with `ARRecentsSharedTable` | one `files` per document ("Adobe Reader document <name>") | name, path, MIME type, favourite, read-only, page, zoom, view mode, document and cloud source, cloud id, Adobe user id, AI Assistant conversation, static; its share's ownership, user status, state, parcel, participants counted, size, can edit; last accessed, shared, modified, share expiry (ISO 8601 text) |
//! | `…filebrowser.ARThumbnailDatabase`: `ARThumbnailTable` | one `files` per thumbnail ("Adobe Reader thumbnail <key>") | the key (a path or a cloud asset id), the thumbnail URL, the cached image's length (base64 characters; the image itself is not read) |
//! | `Notification.db`: `ARBellNotificationEntity` | one `notifications` per notification ("Adobe Reader notification <event> by <author> on <document>") | id, type, event, read; from its JSON payload the author's name and Adobe user id, the document's name, MIME type and id, the annotation type, the comment and its id; when (Unix ms) |
//! | `database`: `SVSharedFileMetaInfoEntity`, `SVBlueHeronEntity`, `SVReviewEntity`, `SVSendAndTrackEntity`, `SVParcelInfoEntity` | one `files` per row ("Adobe Reader shared file", "cloud file", "review", "sent and tracked", "shared parcel") | asset ids, names, paths, pages, favourite, shared, progress, view mode, type, rooted, review type and ids, invitation and parcel ids, participants counted, original shared, legacy; cloud modified as last updated and when downloaded (Unix ms, -1 none) |
//! | `DCMQnAConversationDb`: `DCMConversation` with `DCMConversationAssetCrossRef`, `DCMAsset`, `DCMConversationEvent` | one `app_usage` per conversation ("Adobe Reader AI Assistant conversation <name>") | name, id, Adobe user id, session and chat session ids, the linked documents counted and named, the change events counted and their types; created, modified, last accessed (Unix ms) |
//! | `nba_database`: `tool_usage` | one `app_usage` per use ("Adobe Reader tool use <id>: <tool>") | tool, event, document id; when (Unix ms) |
//! | `ARDatabase`: `ARFileInfo`, `ARCloudTransfer` | one `files` per file ("Adobe Reader file info <name>") and per transfer ("Adobe Reader cloud transfer <id> of <file>") | name, path, asset id, Adobe user id, sources, size, MIME type, persistent; transfer type, status, attempts, error, the file's name; transferred (Unix ms) |
//! | `…multidoc.ARMultiDocDatabase`: `OpenDocTable` | one `files` per open document ("Adobe Reader open document <path>") | path, cloud id, notification id, viewer window |
//! | `…share.ARShareDatabase`: `ARShareInProgressFileInfo` | one `files` per share under way ("Adobe Reader share in progress <path>") | file, working copy, asset id, invitation URL, size, upload and comment status, review |
//!
//! Flags and source, status and type integers are reported as stored: their meaning is not
//! recoverable from the store. A path listed says the app opened or kept it, not that the file is
//! still on the phone; a thumbnail is what the app cached, not the file's present content; a
//! notification records that a comment was added or removed, its text only where the payload
//! holds one. Each store is read as it is with its write-ahead log applied (ALEAPP also reads
//! each without the log, to list rows only the older copy keeps; that comparison is not made
//! here). Not read: the preferences' access, refresh and device tokens (never copied into a
//! phenomenon), the other preferences files ALEAPP reads (`Foundation.xml`,
//! `com.adobe.reader.account_type.xml`, the services account's entitlement flags), the
//! thumbnails' images.
//!
//! Identities: the signed-in account is the device's user's (`owner`): its e-mail, its Adobe ID
//! (`adobe:<Adobe ID>`, qualified by `read_xml`'s `qualify`) and display name. The author of a
//! comment notification is a person `adobe:<user id>` (qualified in the query) with their name —
//! the user's own Adobe ID meets it where the user acted. The Adobe user ids of the document
//! tables stay facts. Schema drift: columns are taken by name, absent ones NULL; a table without
//! the column it is read by is noted; a store with none of its tables is noted.

use std::collections::BTreeSet;

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{FactType, IdType};

use super::Located;
use crate::calls::{Tables, column_or_null, json_at, select_columns};
use crate::drafts::{
    AfterRow, Draft, RowPhenomena, date_text, no_identity, record_draft, title_of, unix_millis,
};
use crate::identity::{artefact_name, observe_owner_ids, observe_row_person, schema_on};
use crate::outputs::{Table, raw};

/// The recent-files database.
const RECENT: &str = "com.adobe.reader.ARRecentDatabase";
/// The documents' list.
const DOCUMENTS: &str = "com.adobe.reader.filebrowser.ARRecentsFileManager.ARRecentsFileDatabase";
/// The thumbnails' cache.
const THUMBNAILS: &str = "com.adobe.reader.filebrowser.ARThumbnailDatabase";
/// The open documents.
const MULTIDOC: &str = "com.adobe.reader.multidoc.ARMultiDocDatabase";
/// The shares under way.
const SHARE: &str = "com.adobe.reader.share.ARShareDatabase";
/// The account's preferences.
const PREFS: &str = "FoundationMigrated.xml";

/// The stores read, by file name, with the tables each is read for.
const STORES: &[(&str, &[&str])] = &[
    (RECENT, &["ARRecentFileEntity"]),
    (DOCUMENTS, &["ARRecentsFileTable"]),
    (THUMBNAILS, &["ARThumbnailTable"]),
    ("Notification.db", &["ARBellNotificationEntity"]),
    (
        "database",
        &[
            "SVSharedFileMetaInfoEntity",
            "SVBlueHeronEntity",
            "SVReviewEntity",
            "SVSendAndTrackEntity",
            "SVParcelInfoEntity",
        ],
    ),
    ("DCMQnAConversationDb", &["DCMConversation"]),
    ("nba_database", &["tool_usage"]),
    ("ARDatabase", &["ARFileInfo", "ARCloudTransfer"]),
    (MULTIDOC, &["OpenDocTable"]),
    (SHARE, &["ARShareInProgressFileInfo"]),
];

/// Whether `name` is the name of one of the app's files read (a guard for the generic ones:
/// `database`, `Notification.db`, …).
pub fn is_name(name: &str) -> bool {
    name == PREFS || STORES.iter().any(|(n, _)| *n == name)
}

/// Whether `path` is one of the app's databases read.
pub fn is_store_path(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    path.contains("/com.adobe.reader/databases/") && STORES.iter().any(|(n, _)| *n == name)
}

/// Whether `path` is the account's preferences.
pub fn is_prefs_path(path: &str) -> bool {
    path.ends_with("/com.adobe.reader/shared_prefs/FoundationMigrated.xml")
}

/// Whether `l` is one of the app's files read.
pub fn is_file(l: &Located) -> bool {
    is_store_path(&l.path) || is_prefs_path(&l.path)
}

/// The category of one of the app's files (`None` for another app's file of the name).
pub fn category(path: &str) -> Option<&'static str> {
    if is_prefs_path(path) {
        return Some("accounts");
    }
    if !is_store_path(path) {
        return None;
    }
    Some(match path.rsplit('/').next().unwrap_or(path) {
        "Notification.db" => "notifications",
        "DCMQnAConversationDb" | "nba_database" => "app_usage",
        _ => "files",
    })
}

/// One of the app's files.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    if is_prefs_path(&l.path) {
        return account(ctx, l);
    }
    let Some(schema) = schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    let expected = STORES
        .iter()
        .find(|(n, _)| *n == l.name())
        .map(|(_, t)| *t)
        .unwrap_or_default();
    let name = artefact_name(&l.tree, &l.path);
    let what = format!("Adobe Acrobat Reader's {}", l.name());
    let Some(tables) = Tables::of(ctx, &name, &what, &schema, expected)? else {
        return Ok(());
    };
    match l.name() {
        RECENT => recent(ctx, l, &tables),
        DOCUMENTS => documents(ctx, l, &tables),
        THUMBNAILS => thumbnails(ctx, l, &tables),
        "Notification.db" => notifications(ctx, l, &tables),
        "database" => services(ctx, l, &tables),
        "DCMQnAConversationDb" => conversations(ctx, l, &tables),
        "nba_database" => tool_usage(ctx, l, &tables),
        "ARDatabase" => file_info(ctx, l, &tables),
        MULTIDOC => open_documents(ctx, l, &tables),
        _ => shares(ctx, l, &tables),
    }
}

/// Computed columns of a table: `(alias, expression)` pairs made from its columns.
type Computed<'a> = &'a dyn Fn(&BTreeSet<String>) -> Vec<(&'static str, String)>;

/// One phenomenon per row of `spec.table` when the store has it with `key`: `rowid` as `rid`,
/// every column of the fields and times by name (NULL where the table lacks it) but those
/// `computed` makes, and those.
fn rows(
    ctx: &AgentCtx<'_>,
    l: &Located,
    tables: &Tables<'_, '_>,
    key: &str,
    computed: Computed<'_>,
    spec: &RowPhenomena<'_>,
    after: &mut AfterRow<'_>,
) -> Result<(), RuntimeError> {
    let Some(cols) = tables.need(spec.table, &[key])? else {
        return Ok(());
    };
    let made = computed(cols);
    let mut seen = BTreeSet::new();
    let select: Vec<String> = spec
        .fields
        .iter()
        .map(|f| f.0)
        .chain(spec.times.iter().map(|t| t.0))
        .filter(|c| !made.iter().any(|(a, _)| a == c) && seen.insert(*c))
        .map(|c| column_or_null(cols, "", c, c))
        .chain(made.iter().map(|(a, e)| format!("{e} AS {a}")))
        .collect();
    let sql = format!(
        "SELECT rowid AS rid, {} FROM {} ORDER BY rowid",
        select.join(", "),
        spec.table
    );
    super::record_query(ctx, l, &sql, spec, after)
}

/// No computed column.
fn none(_: &BTreeSet<String>) -> Vec<(&'static str, String)> {
    Vec::new()
}

/// The number of elements of the JSON array in the column `col` of the table aliased by
/// `prefix` (NULL where the cell holds none, or the table lacks the column).
fn array_length(cols: &BTreeSet<String>, prefix: &str, col: &str) -> String {
    if cols.contains(col) {
        let c = format!("{prefix}{col}");
        format!(
            "CASE WHEN json_valid({c}) AND json_type({c}) = 'array' THEN json_array_length({c}) END"
        )
    } else {
        "NULL".to_string()
    }
}

/// The account signed in (`FoundationMigrated.xml`), observed as the owner's; its tokens are
/// never copied.
fn account(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    const FACTS: &[(&str, FactType, &str)] = &[
        ("Email", FactType::Email, "e-mail"),
        ("DisplayName", FactType::Name, "display name"),
        ("FirstName", FactType::Name, "first name"),
        ("LastName", FactType::Name, "last name"),
        ("AdobeID", FactType::Account, "Adobe ID"),
        ("AuthID", FactType::Identifier, "auth id"),
        ("AccountType", FactType::Text, "account type"),
        ("ServiceLevel", FactType::Text, "service level"),
        ("EmailVerified", FactType::Text, "e-mail verified"),
        ("CountryCode", FactType::Text, "country"),
        ("OwnerOrg", FactType::Text, "owner organisation"),
        ("DeviceName", FactType::Name, "device name"),
        ("DeviceId", FactType::Identifier, "device id"),
    ];
    let Some((inv, prefs)) = super::prefs::prefs_xml(
        ctx,
        l,
        "Adobe Acrobat Reader",
        Some(serde_json::json!({ "AdobeID": "adobe" })),
    )?
    else {
        return Ok(());
    };
    let get = |k: &str| super::prefs::pref(&prefs, k);
    if !FACTS.iter().any(|(k, ..)| get(k).is_some()) {
        return Ok(());
    }
    let shown = ["Email", "DisplayName", "AdobeID"]
        .iter()
        .find_map(|k| get(k))
        .unwrap_or_default();
    let mut d = Draft::new("accounts", format!("Adobe Reader account {shown}"));
    d.fact(FactType::Path, Some(&l.path), &l.found);
    let mut said = Vec::new();
    for (k, ft, label) in FACTS {
        if let Some(v) = get(k) {
            d.fact(*ft, Some(&v), &inv);
            said.push(format!("{label} {v}"));
        }
    }
    let expiry = get("AccessTokenExpiration");
    d.time(
        expiry.as_deref(),
        unix_millis(expiry.as_deref()),
        "Adobe Reader access token expires",
        &inv,
    );
    d.interpretation = format!(
        "{}: the Adobe account signed in to Acrobat Reader on the phone: {}; the access token's expiry {} (Unix milliseconds). The tokens the file holds are not copied.",
        l.name(),
        said.join(", "),
        expiry.as_deref().unwrap_or("not stored"),
    );
    record_draft(ctx, d)?;
    let qualified = inv
        .output
        .text
        .lines()
        .find_map(|line| line.strip_prefix("# qualified AdobeID: "))
        .map(str::to_string);
    observe_owner_ids(
        ctx,
        &inv,
        vec![
            (get("Email"), IdType::Email, "e-mail"),
            (qualified, IdType::AccountId, "Adobe ID (qualified)"),
            (get("DisplayName"), IdType::DisplayName, "display name"),
        ],
        &|what| {
            format!(
                "The {what} of the Adobe account signed in to Acrobat Reader on the device ({}), the device's user.",
                l.name()
            )
        },
    )
}

/// The paths the app opened, with the last time and its count.
fn recent(ctx: &AgentCtx<'_>, l: &Located, tables: &Tables<'_, '_>) -> Result<(), RuntimeError> {
    rows(
        ctx,
        l,
        tables,
        "fileAddress",
        &none,
        &RowPhenomena {
            table: "ARRecentFileEntity",
            category: "files",
            what: "a file Acrobat Reader opened, by its path (the open count the app keeps for the path; last opened Unix milliseconds; a path listed does not say the file is still on the phone)",
            title: &title_of("Adobe Reader recent file", &["fileAddress"]),
            fields: &[
                ("fileAddress", FactType::Path, "file"),
                (
                    "fileOpenCount",
                    FactType::Count,
                    "times opened (the app's count)",
                ),
            ],
            times: &[("lastOpenTime", "Adobe Reader file last opened", unix_millis)],
        },
        &mut no_identity,
    )
}

/// The columns of the documents' list.
const DOCUMENT_COLUMNS: &[(&str, &str)] = &[
    ("fileName", "fileName"),
    ("filePath", "filePath"),
    ("fileMimeType", "fileMimeType"),
    ("last_access", "last_access"),
    ("doc_source", "doc_source"),
    ("cloudSource", "cloudSource"),
    ("cloudID", "cloudID"),
    ("userID", "userID"),
    ("favourite", "favourite"),
    ("readOnlyFile", "readOnlyFile"),
    ("pageNum", "pageNum"),
    ("zoomLevel", "zoomLevel"),
    ("viewMode", "viewMode"),
    ("genAIConversationId", "genAIConversationId"),
    ("is_static", "is_static"),
];

/// The columns of a document's share.
const SHARE_COLUMNS: &[(&str, &str)] = &[
    ("ownershipType", "ownershipType"),
    ("userStatus", "userStatus"),
    ("state", "state"),
    ("parcelId", "parcelId"),
    ("sharedDate", "sharedDate"),
    ("modifyDate", "modifyDate"),
    ("expireDate", "expireDate"),
    ("size", "size"),
    ("canEdit", "canEdit"),
];

/// The documents' list, each with its share (the shared table's row whose `parentTableRowID` is
/// the document's `_id`, the first where several are).
fn documents(ctx: &AgentCtx<'_>, l: &Located, tables: &Tables<'_, '_>) -> Result<(), RuntimeError> {
    let Some(cols) = tables.need("ARRecentsFileTable", &["filePath"])? else {
        return Ok(());
    };
    let shared = tables
        .get("ARRecentsSharedTable")
        .filter(|s| s.contains("parentTableRowID") && cols.contains("_id"));
    let (share, join) = match shared {
        Some(s) => (
            format!(
                "{}, {} AS participants",
                select_columns(s, "s.", SHARE_COLUMNS),
                array_length(s, "s.", "mParticipantList")
            ),
            " LEFT JOIN ARRecentsSharedTable s ON s.rowid = (SELECT min(x.rowid) FROM ARRecentsSharedTable x WHERE x.parentTableRowID = f._id)",
        ),
        None => (
            format!(
                "{}, NULL AS participants",
                select_columns(&BTreeSet::new(), "s.", SHARE_COLUMNS)
            ),
            "",
        ),
    };
    let sql = format!(
        "SELECT f.rowid AS rid, {}, {share} FROM ARRecentsFileTable f{join} ORDER BY f.rowid",
        select_columns(cols, "f.", DOCUMENT_COLUMNS),
    );
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "ARRecentsFileTable",
            category: "files",
            what: "a document in Acrobat Reader's list (sources, view mode and the share's ownership, status and state as stored; participants counted in the share's list; times ISO 8601 text)",
            title: &title_of("Adobe Reader document", &["fileName", "filePath"]),
            fields: &[
                ("fileName", FactType::Name, "name"),
                ("filePath", FactType::Path, "path"),
                ("fileMimeType", FactType::Text, "type"),
                ("favourite", FactType::Text, "favourite"),
                ("readOnlyFile", FactType::Text, "read-only"),
                ("pageNum", FactType::Count, "page"),
                ("zoomLevel", FactType::Text, "zoom"),
                ("viewMode", FactType::Text, "view mode"),
                ("doc_source", FactType::Text, "document source"),
                ("cloudSource", FactType::Text, "cloud source"),
                ("cloudID", FactType::Identifier, "cloud id"),
                ("userID", FactType::Account, "Adobe user id"),
                (
                    "genAIConversationId",
                    FactType::Identifier,
                    "AI Assistant conversation",
                ),
                ("is_static", FactType::Text, "static"),
                ("ownershipType", FactType::Text, "share ownership"),
                ("userStatus", FactType::Text, "share user status"),
                ("state", FactType::Text, "share state"),
                ("parcelId", FactType::Identifier, "parcel"),
                ("participants", FactType::Count, "participants"),
                ("size", FactType::Count, "shared size"),
                ("canEdit", FactType::Text, "can edit"),
            ],
            times: &[
                (
                    "last_access",
                    "Adobe Reader document last accessed",
                    date_text,
                ),
                ("sharedDate", "Adobe Reader document shared", date_text),
                (
                    "modifyDate",
                    "Adobe Reader shared document modified",
                    date_text,
                ),
                ("expireDate", "Adobe Reader share expires", date_text),
            ],
        },
        &mut no_identity,
    )
}

/// The cached thumbnails, by their key (never the image).
fn thumbnails(
    ctx: &AgentCtx<'_>,
    l: &Located,
    tables: &Tables<'_, '_>,
) -> Result<(), RuntimeError> {
    rows(
        ctx,
        l,
        tables,
        "uniqueID",
        &|c| {
            vec![(
                "thumbnail_chars",
                if c.contains("thumbnail") {
                    "length(thumbnail)".to_string()
                } else {
                    "NULL".to_string()
                },
            )]
        },
        &RowPhenomena {
            table: "ARThumbnailTable",
            category: "files",
            what: "a page thumbnail Acrobat Reader cached for a document (keyed by its path or cloud asset id; what the app cached, not the file's present content; the image's length in base64 characters, the image not read)",
            title: &title_of("Adobe Reader thumbnail", &["uniqueID"]),
            fields: &[
                ("uniqueID", FactType::Identifier, "document key"),
                ("thumbnailUrl", FactType::Url, "thumbnail URL"),
                ("thumbnail_chars", FactType::Count, "thumbnail length"),
            ],
            times: &[],
        },
        &mut no_identity,
    )
}

/// The comment notifications, each author a person `adobe:<user id>`.
fn notifications(
    ctx: &AgentCtx<'_>,
    l: &Located,
    tables: &Tables<'_, '_>,
) -> Result<(), RuntimeError> {
    let title = |t: &Table, row: &[Option<String>]| {
        let mut s = format!(
            "Adobe Reader notification {}",
            t.get(row, "subType")
                .or_else(|| t.get(row, "notificationID"))
                .unwrap_or("?")
        );
        if let Some(a) = t.get(row, "author") {
            s.push_str(&format!(" by {a}"));
        }
        if let Some(d) = t.get(row, "document") {
            s.push_str(&format!(" on {d}"));
        }
        s
    };
    let file = l.name();
    rows(
        ctx,
        l,
        tables,
        "notificationID",
        &|c| {
            let j = |path: &str| {
                if c.contains("payload") {
                    json_at("payload", path)
                } else {
                    "NULL".to_string()
                }
            };
            let id = j("$.user.userId");
            vec![
                ("author", j("$.user.name")),
                ("author_id", id.clone()),
                (
                    "qualified",
                    if id == "NULL" {
                        id.clone()
                    } else {
                        format!(
                            "CASE WHEN {id} IS NOT NULL AND {id} != '' THEN 'adobe:' || {id} END"
                        )
                    },
                ),
                ("document", j("$.asset.name")),
                (
                    "mime",
                    if c.contains("payload") {
                        format!("coalesce({}, {})", j("$.asset.mimeType"), j("$.mimetype"))
                    } else {
                        "NULL".to_string()
                    },
                ),
                ("asset_id", j("$.asset.id")),
                ("annotation", j("$.selector.subtype")),
                ("comment", j("$.comment")),
                ("comment_id", j("$.commentId")),
            ]
        },
        &RowPhenomena {
            table: "ARBellNotificationEntity",
            category: "notifications",
            what: "a commenting notification Acrobat Reader received (type, event and read state as stored; the author and document from its JSON payload; that a comment was added or removed, its text only where the payload holds one; when Unix milliseconds)",
            title: &title,
            fields: &[
                ("notificationID", FactType::Identifier, "notification"),
                ("type", FactType::Text, "type"),
                ("subType", FactType::Text, "event"),
                ("readState", FactType::Text, "read"),
                ("author", FactType::Name, "by"),
                ("author_id", FactType::Account, "by (Adobe user id)"),
                ("document", FactType::Name, "document"),
                ("mime", FactType::Text, "document type"),
                ("asset_id", FactType::Identifier, "document id"),
                ("annotation", FactType::Text, "annotation"),
                ("comment", FactType::Text, "comment"),
                ("comment_id", FactType::Identifier, "comment id"),
            ],
            times: &[("timeStamp", "Adobe Reader notification", unix_millis)],
        },
        &mut |inv, t, row| {
            observe_row_person(
                ctx,
                t,
                row,
                inv,
                "author",
                &[
                    (
                        "qualified",
                        IdType::AccountId,
                        "The Adobe user id (qualified)",
                    ),
                    ("author", IdType::DisplayName, "The name"),
                ],
                &|what, who| {
                    format!(
                        "{what} of {who}, who acted on a shared document as an Acrobat Reader notification says (ARBellNotificationEntity of {file})."
                    )
                },
            )
        },
    )
}

/// The services database: shared files, cloud files, reviews, documents sent and tracked, and
/// the shares' parcels.
fn services(ctx: &AgentCtx<'_>, l: &Located, tables: &Tables<'_, '_>) -> Result<(), RuntimeError> {
    rows(
        ctx,
        l,
        tables,
        "assetID",
        &none,
        &RowPhenomena {
            table: "SVSharedFileMetaInfoEntity",
            category: "files",
            what: "a shared document Acrobat Reader keeps (favourite, shared, progress and view mode as stored)",
            title: &title_of("Adobe Reader shared file", &["fileName", "assetID"]),
            fields: &[
                ("assetID", FactType::Identifier, "asset id"),
                ("fileName", FactType::Name, "name"),
                ("filePath", FactType::Path, "path"),
                ("pageNum", FactType::Count, "page"),
                ("favourite", FactType::Text, "favourite"),
                ("shared", FactType::Text, "shared"),
                ("progressState", FactType::Text, "progress"),
                ("viewMode", FactType::Text, "view mode"),
            ],
            times: &[],
        },
        &mut no_identity,
    )?;
    rows(
        ctx,
        l,
        tables,
        "assetId",
        &|c| {
            vec![(
                "last_page",
                if c.contains("lastViewedPageNumber") {
                    "NULLIF(lastViewedPageNumber, -1)".to_string()
                } else {
                    "NULL".to_string()
                },
            )]
        },
        &RowPhenomena {
            table: "SVBlueHeronEntity",
            category: "files",
            what: "a Document Cloud file Acrobat Reader keeps (type, favourite, shared and rooted as stored; the last page viewed, -1 none; modified as last updated and when downloaded, Unix milliseconds, -1 none)",
            title: &title_of("Adobe Reader cloud file", &["filePath", "assetId"]),
            fields: &[
                ("assetId", FactType::Identifier, "asset id"),
                ("filePath", FactType::Path, "path"),
                ("last_page", FactType::Count, "last page viewed"),
                ("type", FactType::Text, "type"),
                ("favourite", FactType::Text, "favourite"),
                ("shared", FactType::Text, "shared"),
                ("isRooted", FactType::Text, "rooted"),
            ],
            times: &[
                (
                    "updatedModifiedDate",
                    "Adobe Reader cloud file modified (as last updated)",
                    unix_millis,
                ),
                (
                    "modifiedDateAtDownload",
                    "Adobe Reader cloud file modified (when downloaded)",
                    unix_millis,
                ),
            ],
        },
        &mut no_identity,
    )?;
    rows(
        ctx,
        l,
        tables,
        "assetID",
        &none,
        &RowPhenomena {
            table: "SVReviewEntity",
            category: "files",
            what: "a document shared for review in Acrobat Reader (review type as stored)",
            title: &title_of("Adobe Reader review", &["name", "assetID"]),
            fields: &[
                ("assetID", FactType::Identifier, "asset id"),
                ("name", FactType::Name, "name"),
                ("filePath", FactType::Path, "path"),
                ("reviewType", FactType::Text, "review type"),
                ("reviewID", FactType::Identifier, "review"),
                ("invitationID", FactType::Identifier, "invitation"),
                ("parcerID", FactType::Identifier, "parcel"),
            ],
            times: &[],
        },
        &mut no_identity,
    )?;
    rows(
        ctx,
        l,
        tables,
        "assetID",
        &none,
        &RowPhenomena {
            table: "SVSendAndTrackEntity",
            category: "files",
            what: "a document sent with Acrobat Reader's send and track (review type as stored)",
            title: &title_of("Adobe Reader sent and tracked", &["name", "assetID"]),
            fields: &[
                ("assetID", FactType::Identifier, "asset id"),
                ("name", FactType::Name, "name"),
                ("filePath", FactType::Path, "path"),
                ("reviewType", FactType::Text, "review type"),
                ("invitationID", FactType::Identifier, "invitation"),
                ("parcelID", FactType::Identifier, "parcel"),
            ],
            times: &[],
        },
        &mut no_identity,
    )?;
    rows(
        ctx,
        l,
        tables,
        "invitationId",
        &|c| {
            vec![(
                "participants",
                array_length(c, "", "serializedReviewParticipants"),
            )]
        },
        &RowPhenomena {
            table: "SVParcelInfoEntity",
            category: "files",
            what: "a share (parcel) of a document in Acrobat Reader (participants counted in its serialized list, who they are not read; original shared and legacy as stored)",
            title: &title_of("Adobe Reader shared parcel", &["invitationId"]),
            fields: &[
                ("invitationId", FactType::Identifier, "invitation"),
                ("assetId", FactType::Identifier, "asset id"),
                ("reviewId", FactType::Identifier, "review"),
                ("participants", FactType::Count, "participants"),
                ("isOriginalShared", FactType::Text, "original shared"),
                ("isLegacyAsset", FactType::Text, "legacy asset"),
            ],
            times: &[],
        },
        &mut no_identity,
    )
}

/// The AI Assistant conversations, with the documents linked and the events kept.
fn conversations(
    ctx: &AgentCtx<'_>,
    l: &Located,
    tables: &Tables<'_, '_>,
) -> Result<(), RuntimeError> {
    let cross = tables
        .get("DCMConversationAssetCrossRef")
        .filter(|c| c.contains("conversationId") && c.contains("docId"));
    let assets = tables
        .get("DCMAsset")
        .filter(|c| c.contains("docId") && c.contains("fileName"));
    let events = tables
        .get("DCMConversationEvent")
        .filter(|c| c.contains("conversationId"));
    let (linked, names) = match (cross, assets) {
        (Some(_), Some(_)) => (
            "(SELECT count(*) FROM DCMConversationAssetCrossRef x WHERE x.conversationId = DCMConversation.id)".to_string(),
            "(SELECT group_concat(n, ', ') FROM (SELECT a.fileName AS n FROM DCMConversationAssetCrossRef x JOIN DCMAsset a ON a.docId = x.docId WHERE x.conversationId = DCMConversation.id ORDER BY x.rowid))".to_string(),
        ),
        (Some(_), None) => (
            "(SELECT count(*) FROM DCMConversationAssetCrossRef x WHERE x.conversationId = DCMConversation.id)".to_string(),
            "NULL".to_string(),
        ),
        _ => ("NULL".to_string(), "NULL".to_string()),
    };
    let (count, kinds) = match events {
        Some(e) => (
            "(SELECT count(*) FROM DCMConversationEvent e WHERE e.conversationId = DCMConversation.id)".to_string(),
            if e.contains("type") {
                "(SELECT group_concat(DISTINCT e.type) FROM DCMConversationEvent e WHERE e.conversationId = DCMConversation.id)".to_string()
            } else {
                "NULL".to_string()
            },
        ),
        None => ("NULL".to_string(), "NULL".to_string()),
    };
    rows(
        ctx,
        l,
        tables,
        "id",
        &|_| {
            vec![
                ("documents", linked.clone()),
                ("document_names", names.clone()),
                ("events", count.clone()),
                ("event_types", kinds.clone()),
            ]
        },
        &RowPhenomena {
            table: "DCMConversation",
            category: "app_usage",
            what: "an AI Assistant conversation in Acrobat Reader (its name as the app labelled it; the documents attached and the change events kept, no question or answer text; times Unix milliseconds)",
            title: &title_of(
                "Adobe Reader AI Assistant conversation",
                &["conversationName", "id"],
            ),
            fields: &[
                ("conversationName", FactType::Text, "name"),
                ("id", FactType::Identifier, "conversation"),
                ("userId", FactType::Account, "Adobe user id"),
                ("sessionId", FactType::Identifier, "session"),
                ("chatSessionId", FactType::Identifier, "chat session"),
                ("documents", FactType::Count, "documents linked"),
                ("document_names", FactType::Text, "documents"),
                ("events", FactType::Count, "events kept"),
                ("event_types", FactType::Text, "event types"),
            ],
            times: &[
                (
                    "createdTimeInMs",
                    "Adobe Reader AI Assistant conversation created",
                    unix_millis,
                ),
                (
                    "modifiedTimeInMs",
                    "Adobe Reader AI Assistant conversation modified",
                    unix_millis,
                ),
                (
                    "lastAccessTimeInMs",
                    "Adobe Reader AI Assistant conversation last accessed",
                    unix_millis,
                ),
            ],
        },
        &mut no_identity,
    )
}

/// The tools used, as the app logged them.
fn tool_usage(
    ctx: &AgentCtx<'_>,
    l: &Located,
    tables: &Tables<'_, '_>,
) -> Result<(), RuntimeError> {
    let title = |t: &Table, row: &[Option<String>]| {
        format!(
            "Adobe Reader tool use {}: {}",
            t.get(row, "id")
                .or_else(|| t.get(row, "rid"))
                .unwrap_or("?"),
            raw(t, row, "toolId").unwrap_or_default()
        )
    };
    rows(
        ctx,
        l,
        tables,
        "toolId",
        &none,
        &RowPhenomena {
            table: "tool_usage",
            category: "app_usage",
            what: "a use of one of Acrobat Reader's tools as the app logged it (tool and event as stored; the document id where kept; when Unix milliseconds)",
            title: &title,
            fields: &[
                ("id", FactType::Identifier, "row"),
                ("toolId", FactType::Text, "tool"),
                ("eventType", FactType::Text, "event"),
                ("docId", FactType::Identifier, "document id"),
            ],
            times: &[("timestampInMs", "Adobe Reader tool used", unix_millis)],
        },
        &mut no_identity,
    )
}

/// The files the app recorded and their cloud transfers.
fn file_info(ctx: &AgentCtx<'_>, l: &Located, tables: &Tables<'_, '_>) -> Result<(), RuntimeError> {
    rows(
        ctx,
        l,
        tables,
        "_filePath",
        &none,
        &RowPhenomena {
            table: "ARFileInfo",
            category: "files",
            what: "a file Acrobat Reader recorded (sources and persistent as stored; size in bytes)",
            title: &title_of("Adobe Reader file info", &["_fileName", "_filePath"]),
            fields: &[
                ("_fileID", FactType::Identifier, "file id"),
                ("_fileName", FactType::Name, "name"),
                ("_filePath", FactType::Path, "path"),
                ("_assetID", FactType::Identifier, "asset id"),
                ("_userID", FactType::Account, "Adobe user id"),
                ("_docSource", FactType::Text, "document source"),
                ("_source", FactType::Text, "source"),
                ("_fileSize", FactType::Count, "size"),
                ("_mimeType", FactType::Text, "type"),
                ("_isPersistent", FactType::Text, "persistent"),
            ],
            times: &[],
        },
        &mut no_identity,
    )?;
    let named = tables
        .get("ARFileInfo")
        .is_some_and(|c| c.contains("_fileID") && c.contains("_fileName"));
    let title = |t: &Table, row: &[Option<String>]| {
        format!(
            "Adobe Reader cloud transfer {} of {}",
            t.get(row, "_transferID").unwrap_or("?"),
            t.get(row, "file_name")
                .or_else(|| t.get(row, "_fileID"))
                .unwrap_or("?")
        )
    };
    rows(
        ctx,
        l,
        tables,
        "_transferID",
        &|c| {
            vec![(
                "file_name",
                if named && c.contains("_fileID") {
                    "(SELECT f._fileName FROM ARFileInfo f WHERE f._fileID = ARCloudTransfer._fileID ORDER BY f.rowid LIMIT 1)".to_string()
                } else {
                    "NULL".to_string()
                },
            )]
        },
        &RowPhenomena {
            table: "ARCloudTransfer",
            category: "files",
            what: "a transfer of a file between Acrobat Reader and Adobe's cloud (type as stored, status as stored; the file's name from ARFileInfo; when Unix milliseconds)",
            title: &title,
            fields: &[
                ("_transferID", FactType::Identifier, "transfer"),
                ("_fileID", FactType::Identifier, "file id"),
                ("file_name", FactType::Name, "file"),
                ("_transferType", FactType::Text, "type"),
                ("_transferStatus", FactType::Text, "status"),
                ("_transferNumberAttempt", FactType::Count, "attempts"),
                ("_transferErrorReason", FactType::Text, "error"),
            ],
            times: &[("_transferDate", "Adobe Reader cloud transfer", unix_millis)],
        },
        &mut no_identity,
    )
}

/// The documents open in the app's viewer windows.
fn open_documents(
    ctx: &AgentCtx<'_>,
    l: &Located,
    tables: &Tables<'_, '_>,
) -> Result<(), RuntimeError> {
    rows(
        ctx,
        l,
        tables,
        "docPath",
        &none,
        &RowPhenomena {
            table: "OpenDocTable",
            category: "files",
            what: "a document open in one of Acrobat Reader's viewer windows",
            title: &title_of("Adobe Reader open document", &["docPath"]),
            fields: &[
                ("docPath", FactType::Path, "document"),
                ("uniqueCloudIdentifier", FactType::Identifier, "cloud id"),
                ("notificationID", FactType::Identifier, "notification"),
                ("viewerWindowID", FactType::Identifier, "viewer window"),
            ],
            times: &[],
        },
        &mut no_identity,
    )
}

/// The shares under way.
fn shares(ctx: &AgentCtx<'_>, l: &Located, tables: &Tables<'_, '_>) -> Result<(), RuntimeError> {
    rows(
        ctx,
        l,
        tables,
        "assetId",
        &none,
        &RowPhenomena {
            table: "ARShareInProgressFileInfo",
            category: "files",
            what: "a document Acrobat Reader was sharing (upload and comment status and review as stored; size in bytes)",
            title: &title_of(
                "Adobe Reader share in progress",
                &["backupFilePath", "assetId"],
            ),
            fields: &[
                ("backupFilePath", FactType::Path, "file"),
                ("dummyFilePath", FactType::Path, "working copy"),
                ("assetId", FactType::Identifier, "asset id"),
                ("invitationUri", FactType::Url, "invitation"),
                ("fileSize", FactType::Count, "size"),
                ("uploadStatus", FactType::Text, "upload status"),
                ("commentAddedStatus", FactType::Text, "comment status"),
                ("isReview", FactType::Text, "review"),
            ],
            times: &[],
        },
        &mut no_identity,
    )
}
