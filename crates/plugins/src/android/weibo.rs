//! Weibo (`com.sina.weibo/databases/feed_database`, `ArticleDb.db`, `sina_weibo`), ALEAPP's
//! `weibo` (`weibo_timeline`, `weibo_long_posts`, `weibo_post_images`): the posts the app cached
//! for the home timeline of the account signed in, the long posts' full text, and the images the
//! posts reference.
//!
//! | store: table | phenomenon | fields |
//! |---|---|---|
//! | `feed_database`: `child_flow_item_table` (`serialized_data` JSON) | one `social` per cached post ("Weibo post <post id> by <screen name>") | text, the author's screen name, user id (`weibo:<id>`), location, verified and reason, posted from (`region_name`, as stored), likes, comments, reposts, image count and ids, topics, author subtitle (`source`), post id and short id, the account the row is filed under, item id, created as stored; created (`Wed May 21 11:00:20 +0800 2025`, turned into ISO 8601 with its offset in the query) |
//! | `feed_database`: `child_flow_item_table` | one `accounts` per account the timeline is filed under ("Weibo account <uid>") | uid (`weibo:<uid>`), the count of its timeline rows |
//! | `ArticleDb.db`: `long_text_table` | one `social` per long post ("Weibo long post <post id>") | full text, topics (`_mblog_topic`), page title, short and original URL, page type (values joined by `#sina#` kept as stored), paid, image count, post id, account; and one `accounts` per account (`_own_uid`) |
//! | `sina_weibo`: `mblog_pic_table` | one `social` per image a post references ("Weibo post image <picture id>") | post id, picture id, object id, type, original size, original, largest and thumbnail URLs, local path as stored |
//!
//! The post documents are read by SQLite's JSON functions in the query (`json_valid` guarding
//! each, so a cut document leaves its row's item id and account and the rest is read); rows
//! without a document are skipped, as ALEAPP skips them. The posts are what the app held for the
//! timeline it showed, not proof the user read any; a post's id links the timeline, the long
//! posts and the images. Not read: `flow_item_table` (the parent rows, empty of documents in
//! ALEAPP's corpus); no message store (ALEAPP reads none). Times: `created_at` only (the stores
//! keep no time of their own).
//!
//! Identities: the uid a timeline row or long post is filed under is the local account, the
//! device's user's (`owner`: `weibo:<uid>`); each post's author is a `weibo:<user id>` person with
//! their screen name — the owner's own posts meet the owner by that id. A store without its
//! table is noted; columns are taken by name (absent ones NULL: older releases keep fewer).

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{FactType, IdType};

use super::{Located, Schema};
use crate::calls::{column_or_null, require_columns};
use crate::drafts::{RowPhenomena, date_text, title_of};
use crate::identity::{artefact_name, schema_on};
use crate::outputs::Table;

/// Whether `l` is one of Weibo's stores.
pub fn is_store(l: &Located) -> bool {
    matches!(l.name(), "feed_database" | "ArticleDb.db" | "sina_weibo")
        && l.path.contains("/com.sina.weibo/databases/")
}

/// One Weibo store.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(schema) = schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    let table = match l.name() {
        "feed_database" => "child_flow_item_table",
        "ArticleDb.db" => "long_text_table",
        _ => "mblog_pic_table",
    };
    if !schema.contains_key(table) {
        ctx.unparsed(
            &artefact_name(&l.tree, &l.path),
            &format!("not Weibo's {}: no table {table}", l.name()),
            None,
        )?;
        return Ok(());
    }
    match l.name() {
        "feed_database" => timeline(ctx, l, &schema),
        "ArticleDb.db" => long_posts(ctx, l, &schema),
        _ => images(ctx, l, &schema),
    }
}

/// `json_extract(j, path)` of the subquery's document `j` (NULL when the row's document is no
/// JSON: the subquery leaves `j` NULL then).
fn js(path: &str) -> String {
    format!("json_extract(j, '{path}')")
}

/// The first present of a document's `<prefix>idstr` and `<prefix>id`.
fn id_of(prefix: &str) -> String {
    format!(
        "COALESCE({}, {})",
        js(&format!("${prefix}idstr")),
        js(&format!("${prefix}id"))
    )
}

/// `Wed May 21 11:00:20 +0800 2025` (`c`) as ISO 8601 with its offset
/// (`2025-05-21T11:00:20+0800`), NULL for any other text.
fn iso_time(c: &str) -> String {
    let months = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ]
    .iter()
    .enumerate()
    .map(|(i, m)| format!("WHEN '{m}' THEN '{:02}'", i + 1))
    .collect::<Vec<_>>()
    .join(" ");
    format!(
        "CASE WHEN {c} GLOB '[A-Z][a-z][a-z] [A-Z][a-z][a-z] [0-3][0-9] [0-2][0-9]:[0-5][0-9]:[0-6][0-9] [+-][0-9][0-9][0-9][0-9] [0-9][0-9][0-9][0-9]' THEN substr({c}, 27, 4) || '-' || (CASE substr({c}, 5, 3) {months} END) || '-' || substr({c}, 9, 2) || 'T' || substr({c}, 12, 8) || substr({c}, 21, 5) END"
    )
}

/// The titles of a JSON list of topic objects (`topic_title`, else `title`) in `list`, joined by
/// ", ": NULL when `list` is no JSON array.
fn topics(list: &str) -> String {
    format!(
        "(SELECT group_concat(COALESCE(json_extract(t.value, '$.topic_title'), json_extract(t.value, '$.title')), ', ') FROM json_each(CASE WHEN json_valid({list}) THEN CASE WHEN json_type({list}) = 'array' THEN {list} END END) t WHERE t.type = 'object')"
    )
}

/// One `accounts` per uid a table's rows are filed under (`col`), observed as the owner's.
fn accounts(
    ctx: &AgentCtx<'_>,
    l: &Located,
    table: &str,
    col: &str,
    counted: &str,
) -> Result<(), RuntimeError> {
    let sql = format!(
        "SELECT {col} AS uid, 'weibo:' || {col} AS qualified, count(*) AS cached FROM {table} WHERE {col} IS NOT NULL AND {col} != '' GROUP BY {col} ORDER BY {col}"
    );
    let what = format!(
        "the Weibo account signed in on the phone: the uid {table} files its rows under, with the count of its {counted}"
    );
    let label = format!("{counted} cached");
    let file = l.name().to_string();
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table,
            category: "accounts",
            what: &what,
            title: &title_of("Weibo account", &["uid"]),
            fields: &[
                ("uid", FactType::Account, "uid"),
                ("qualified", FactType::Account, "account"),
                ("cached", FactType::Count, label.as_str()),
            ],
            times: &[],
        },
        &mut |inv, t, row| {
            crate::identity::observe_columns(
                ctx,
                "owner",
                "device owner",
                t,
                row,
                inv,
                &[("qualified", IdType::AccountId, "The Weibo uid")],
                &|what| {
                    format!(
                        "{what} {table} of {file} files its rows under: the local account signed in on the device, the device's user's."
                    )
                },
            )
        },
    )
}

/// `feed_database`: the cached timeline posts and the account they are filed under.
fn timeline(ctx: &AgentCtx<'_>, l: &Located, schema: &Schema) -> Result<(), RuntimeError> {
    let table = "child_flow_item_table";
    let cols = &schema[table];
    if !require_columns(
        ctx,
        &artefact_name(&l.tree, &l.path),
        "Weibo's feed_database",
        table,
        cols,
        &["serialized_data"],
    )? {
        return Ok(());
    }
    let author = id_of(".user.");
    let inner = format!(
        "SELECT rid, uid, item_id, j, {} AS c FROM (SELECT rowid AS rid, {}, {}, CASE WHEN json_valid(CAST(serialized_data AS TEXT)) THEN CAST(serialized_data AS TEXT) END AS j FROM {table} WHERE serialized_data IS NOT NULL)",
        js("$.created_at"),
        column_or_null(cols, "", "uid", "uid"),
        column_or_null(cols, "", "item_id", "item_id"),
    );
    let sql = format!(
        "SELECT rid, uid, item_id, c AS created_at, {} AS created, {} AS text, {} AS author, {author} AS author_id, CASE WHEN {author} IS NOT NULL AND {author} != '' THEN 'weibo:' || {author} END AS qualified, {} AS author_location, {} AS verified, {} AS verified_reason, {} AS region, {} AS likes, {} AS comments, {} AS reposts, {} AS pic_num, {} AS pic_ids, {} AS topics, {} AS subtitle, {} AS post_id, {} AS short_id FROM ({inner}) ORDER BY rid",
        iso_time("c"),
        js("$.text"),
        js("$.user.screen_name"),
        js("$.user.location"),
        js("$.user.verified"),
        js("$.user.verified_reason"),
        js("$.region_name"),
        js("$.attitudes_count"),
        js("$.comments_count"),
        js("$.reposts_count"),
        js("$.pic_num"),
        js("$.pic_ids"),
        topics(&js("$.topic_struct")),
        js("$.source"),
        id_of("."),
        js("$.mblogid"),
    );
    let title = |t: &Table, row: &[Option<String>]| {
        let id = t
            .get(row, "post_id")
            .or_else(|| t.get(row, "item_id"))
            .or_else(|| t.get(row, "rid"))
            .unwrap_or("?");
        match t.get(row, "author") {
            Some(a) => format!("Weibo post {id} by {a}"),
            None => format!("Weibo post {id}"),
        }
    };
    let file = l.name().to_string();
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table,
            category: "social",
            what: "a post Weibo cached for the home timeline of the account signed in (held by the app, not proof it was read; counts are the service's; posted from is the stored region_name, the author subtitle the post's source field; created as stored, with its offset, and as ISO 8601)",
            title: &title,
            fields: &[
                ("text", FactType::Text, "text"),
                ("author", FactType::Account, "author"),
                ("author_id", FactType::Identifier, "author id"),
                ("qualified", FactType::Account, "author account"),
                ("author_location", FactType::Text, "author location"),
                ("verified", FactType::Text, "author verified"),
                ("verified_reason", FactType::Text, "verified reason"),
                ("region", FactType::Text, "posted from"),
                ("likes", FactType::Count, "likes"),
                ("comments", FactType::Count, "comments"),
                ("reposts", FactType::Count, "reposts"),
                ("pic_num", FactType::Count, "images"),
                ("pic_ids", FactType::Text, "image ids"),
                ("topics", FactType::Text, "topics"),
                ("subtitle", FactType::Text, "author subtitle"),
                ("post_id", FactType::Identifier, "post id"),
                ("short_id", FactType::Identifier, "post short id"),
                ("uid", FactType::Account, "filed under account"),
                ("item_id", FactType::Identifier, "item id"),
                ("created_at", FactType::Text, "created as stored"),
            ],
            times: &[("created", "Weibo post created", date_text)],
        },
        &mut |inv, t, row| {
            crate::identity::observe_row_person(
                ctx,
                t,
                row,
                inv,
                "author",
                &[
                    ("qualified", IdType::AccountId, "The Weibo user id"),
                    ("author", IdType::Nickname, "The screen name"),
                ],
                &|what, _| {
                    format!(
                        "{what} of the author of a post Weibo cached for the timeline (post {} in {table} of {file}).",
                        t.get(row, "post_id").unwrap_or("?")
                    )
                },
            )
        },
    )?;
    if cols.contains("uid") {
        accounts(ctx, l, table, "uid", "timeline rows")?;
    }
    Ok(())
}

/// `ArticleDb.db`: the long posts and the account they are filed under.
fn long_posts(ctx: &AgentCtx<'_>, l: &Located, schema: &Schema) -> Result<(), RuntimeError> {
    let table = "long_text_table";
    let cols = &schema[table];
    if !require_columns(
        ctx,
        &artefact_name(&l.tree, &l.path),
        "Weibo's ArticleDb.db",
        table,
        cols,
        &["_mid", "_content"],
    )? {
        return Ok(());
    }
    let topic_list = if cols.contains("_mblog_topic") {
        format!("{} AS topics", topics("_mblog_topic"))
    } else {
        "NULL AS topics".to_string()
    };
    let sql = format!(
        "SELECT rowid AS rid, _mid AS mid, _content AS content, {topic_list}, {} FROM {table} ORDER BY rowid",
        crate::calls::select_columns(
            cols,
            "",
            &[
                ("_page_title", "page_title"),
                ("_page_short_url", "short_url"),
                ("_page_ori_url", "original_url"),
                ("_page_type", "page_type"),
                ("_is_paid", "paid"),
                ("_pic_num", "pic_num"),
                ("_own_uid", "own_uid"),
            ]
        ),
    );
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table,
            category: "social",
            what: "the full text of a long Weibo post the app cached (the post id is the timeline's; page title, URLs and type as stored: several values are joined by #sina#; filed under the account signed in)",
            title: &title_of("Weibo long post", &["mid"]),
            fields: &[
                ("content", FactType::Text, "text"),
                ("topics", FactType::Text, "topics"),
                ("page_title", FactType::Text, "page title"),
                ("short_url", FactType::Text, "short URL"),
                ("original_url", FactType::Text, "original URL"),
                ("page_type", FactType::Text, "page type"),
                ("paid", FactType::Text, "paid"),
                ("pic_num", FactType::Count, "images"),
                ("mid", FactType::Identifier, "post id"),
                ("own_uid", FactType::Account, "filed under account"),
            ],
            times: &[],
        },
        &mut |_, _, _| Ok(()),
    )?;
    if cols.contains("_own_uid") {
        accounts(ctx, l, table, "_own_uid", "long posts")?;
    }
    Ok(())
}

/// `sina_weibo`: the images the cached posts reference.
fn images(ctx: &AgentCtx<'_>, l: &Located, schema: &Schema) -> Result<(), RuntimeError> {
    super::record_table(
        ctx,
        l,
        schema,
        "picid",
        &|_| Vec::new(),
        &RowPhenomena {
            table: "mblog_pic_table",
            category: "social",
            what: "an image a cached Weibo post references (remote URLs per size: a reference the app held, not an image stored on the phone; the local path as stored, often empty)",
            title: &title_of("Weibo post image", &["picid"]),
            fields: &[
                ("mblogid", FactType::Identifier, "post id"),
                ("picid", FactType::Identifier, "picture id"),
                ("objectid", FactType::Identifier, "object id"),
                ("pictype", FactType::Text, "type"),
                ("originalwidth", FactType::Count, "original width"),
                ("originalheight", FactType::Count, "original height"),
                ("originalurl", FactType::Url, "original URL"),
                ("largesturl", FactType::Url, "largest URL"),
                ("thumbnailurl", FactType::Url, "thumbnail URL"),
                ("localpath", FactType::Text, "local path"),
            ],
            times: &[],
        },
        &mut |_, _, _| Ok(()),
    )
}
