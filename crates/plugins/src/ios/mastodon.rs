//! Mastodon, the official iOS app (`…/AppGroup/<UUID>/Databases/shared.sqlite`, Core Data):
//! the fields of iLEAPP's five `mastodon*` artefacts.
//!
//! - the signed-in account (`mastodonAccount`): its `ZMASTODONUSER` row with the home instance
//!   (`ZINSTANCE`: domain, server version). The holder's user id is `ZMASTODONAUTHENTICATION.ZUSERID`,
//!   or, when that table is empty (as in the corpus's iOS 17 image), the `ZUSERID` owning the
//!   notifications (`ZNOTIFICATION` holds only the signed-in account's notifications);
//! - every cached user (`mastodonUsers`): creation and update times, display name, handle
//!   (`ZACCT`), user name, domain, id, bio (HTML flattened to text), counts, bot/locked/
//!   suspended flags, profile and avatar URLs, and whether the holder follows them or they
//!   follow the holder (the Core Data join table `Z_<entity>FOLLOWING`, its entity number read
//!   from `Z_PRIMARYKEY`, as it shifts between app versions);
//! - every cached status (`mastodonStatuses`): times (created, edited, deleted), author,
//!   visibility, text, content warning, mentions and attachments (JSON in BLOB columns, read with
//!   SQLite's JSON functions), counts, reply ids, the posting application, URL. A status of
//!   visibility `direct` is a direct message (`mastodonDirectMessages`): it is recorded once, as
//!   a message, with its conversation (the sorted handles of its author and mentions) and
//!   whether the holder wrote it;
//! - every notification (`mastodonNotifications`): time, type, the user it came from, the text
//!   of its status, domain, id, recipient id.
//!
//! `shared.sqlite` is a generic name: a database without the `ZMASTODONUSER` table is another
//! app's and is passed over without a word. Status bodies and bios are HTML; the text is
//! computed in the query (tags removed, `</p><p>` and `<br>` as new lines, the common entities
//! decoded), so it is grounded in the output as it is reported.
//!
//! Identities: Mastodon user ids (`ZID`) are numbered per instance, so the account id observed
//! is the global handle `user@domain` (`ZACCT`, which carries the domain for users of other
//! instances; a local user's gets the instance's `ZDOMAIN`), namespaced in the query as
//! `mastodon:user@domain`. The holder's is observed on `owner`, every other user's on the
//! person context `mastodon:user@domain`, each with user name and display name. Wallet
//! addresses written in a direct message are its author's claims. Times are Core Data seconds
//! (`apple_seconds`).

use masf_agents::RuntimeError;
use masf_graph::{FactType, IdType};
use masf_tools::Invoked;

use super::{Draft, Run, Schema, core_data_encoding, file_name, raw, summarise};
use crate::calls::column_or_null;

/// An SQL expression: the text of the HTML fragment `col` (tags removed, paragraph and line
/// breaks as new lines, the common entities decoded, no-break spaces as spaces, trimmed of
/// white space including the Unicode line and paragraph separators; NULL when nothing is left).
pub(crate) fn html_text(col: &str) -> String {
    let tag_start = "instr(s, '<')";
    let tag_end = "instr(substr(s, instr(s, '<')), '>')";
    let decoded = [
        ("&nbsp;", "' '"),
        ("&lt;", "'<'"),
        ("&gt;", "'>'"),
        ("&quot;", "'\"'"),
        ("&#39;", "''''"),
        ("&#x27;", "''''"),
        ("&apos;", "''''"),
        ("&amp;", "'&'"),
    ]
    .iter()
    .fold("s".to_string(), |acc, (entity, by)| {
        format!("replace({acc}, '{entity}', {by})")
    });
    format!(
        "(WITH RECURSIVE h(s) AS (SELECT replace(replace(replace({col}, '</p><p>', char(10)), '<br>', char(10)), '<br/>', char(10)) \
UNION ALL SELECT substr(s, 1, {tag_start} - 1) || substr(s, {tag_start} + {tag_end}) FROM h WHERE {tag_start} > 0 AND {tag_end} > 0) \
SELECT NULLIF(trim(replace({decoded}, char(160), ' '), ' ' || char(9) || char(10) || char(11) || char(12) || char(13) || char(8232) || char(8233)), '') FROM h \
WHERE {tag_start} = 0 OR {tag_end} = 0 LIMIT 1)"
    )
}

/// An SQL expression: the JSON text of the BLOB or text column `col`, `'[]'` when it is no JSON
/// (so that `json_each` over it never fails the query).
fn json_array(col: &str) -> String {
    format!("CASE WHEN json_valid(CAST({col} AS TEXT)) THEN CAST({col} AS TEXT) ELSE '[]' END")
}

/// An SQL expression: the global handle of the `ZMASTODONUSER` row aliased `u`, namespaced
/// (`mastodon:user@domain`).
fn account_sql(u: &str) -> String {
    format!(
        "'mastodon:' || CASE WHEN instr({u}.ZACCT, '@') > 0 THEN {u}.ZACCT ELSE {u}.ZACCT || '@' || {u}.ZDOMAIN END"
    )
}

/// An SQL expression: a user's label as iLEAPP gives it, `Display Name (@handle)`.
fn label_sql(u: &str) -> String {
    format!(
        "COALESCE(NULLIF({u}.ZDISPLAYNAME, '') || ' (@' || {u}.ZACCT || ')', '@' || {u}.ZACCT, {u}.ZUSERNAME)"
    )
}

/// `value` as an SQL string literal.
fn literal(value: &str) -> String {
    format!("'{}'", value.replace('\'', "''"))
}

/// Triage of every Mastodon `shared.sqlite` of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    run.each("shared.sqlite", |find, path| one(run, find, path))
}

fn one(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let tables = [
        "ZMASTODONUSER",
        "ZSTATUS",
        "ZNOTIFICATION",
        "ZMASTODONAUTHENTICATION",
        "ZINSTANCE",
        "ZAPPLICATION",
        "Z_PRIMARYKEY",
    ];
    let Some(schema) = run.schema(path, &tables)? else {
        return Ok(());
    };
    if schema.columns("ZMASTODONUSER").is_empty() {
        // Another app's shared.sqlite.
        return Ok(());
    }
    if !schema.require(
        run,
        "ZMASTODONUSER",
        &[
            "Z_PK",
            "ZID",
            "ZACCT",
            "ZUSERNAME",
            "ZDISPLAYNAME",
            "ZDOMAIN",
        ],
    )? {
        return Ok(());
    }
    let holder = holder(run, path, &schema)?;
    if let Some(id) = &holder {
        account(run, find, path, &schema, id)?;
    }
    users(run, find, path, &schema, holder.as_deref())?;
    if !schema.columns("ZSTATUS").is_empty()
        && schema.require(
            run,
            "ZSTATUS",
            &[
                "Z_PK",
                "ZID",
                "ZAUTHOR",
                "ZCREATEDAT",
                "ZCONTENT",
                "ZVISIBILITYRAW",
            ],
        )?
    {
        statuses(run, find, path, &schema, holder.as_deref())?;
    }
    if !schema.columns("ZNOTIFICATION").is_empty()
        && schema.require(run, "ZNOTIFICATION", &["Z_PK", "ZTYPERAW", "ZACCOUNT"])?
    {
        notifications(run, find, path, &schema)?;
    }
    Ok(())
}

/// The signed-in account's user id: `ZMASTODONAUTHENTICATION.ZUSERID`, else the `ZUSERID` of the
/// notifications (the account they were fetched for).
fn holder(run: &Run<'_, '_>, path: &str, schema: &Schema) -> Result<Option<String>, RuntimeError> {
    let from = |table: &str| {
        schema.columns(table).contains("ZUSERID").then(|| {
            format!(
                "(SELECT ZUSERID FROM {table} WHERE ZUSERID IS NOT NULL AND ZUSERID <> '' LIMIT 1)"
            )
        })
    };
    let sources: Vec<String> = ["ZMASTODONAUTHENTICATION", "ZNOTIFICATION"]
        .into_iter()
        .filter_map(from)
        .collect();
    let id = match sources.as_slice() {
        [] => return Ok(None),
        [one] => one.clone(),
        many => format!("COALESCE({})", many.join(", ")),
    };
    let Some((_, t)) = run.query(path, &format!("SELECT {id} AS holder"), 1)? else {
        return Ok(None);
    };
    Ok(t.rows
        .first()
        .and_then(|r| t.get(r, "holder"))
        .map(str::to_string))
}

/// The signed-in account (iLEAPP's `mastodonAccount`).
fn account(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    schema: &Schema,
    id: &str,
) -> Result<(), RuntimeError> {
    let cols = schema.columns("ZMASTODONUSER");
    let u = |c: &str, alias: &str| column_or_null(&cols, "u.", c, alias);
    let auth = schema
        .columns("ZMASTODONAUTHENTICATION")
        .contains("ZUSERID");
    let identified = if auth {
        "CASE WHEN EXISTS(SELECT 1 FROM ZMASTODONAUTHENTICATION WHERE ZUSERID = u.ZID) THEN 'ZMASTODONAUTHENTICATION.ZUSERID' ELSE 'ZNOTIFICATION.ZUSERID' END"
    } else {
        "'ZNOTIFICATION.ZUSERID'"
    };
    let instance = schema.columns("ZINSTANCE");
    let (version, join) = if instance.contains("ZDOMAIN") && instance.contains("ZVERSION") {
        (
            "i.ZVERSION AS version, i.ZDOMAIN AS instance",
            " LEFT JOIN ZINSTANCE i ON i.ZDOMAIN = u.ZDOMAIN",
        )
    } else {
        ("NULL AS version, NULL AS instance", "")
    };
    let bio = if cols.contains("ZNOTE") {
        html_text("u.ZNOTE")
    } else {
        "NULL".into()
    };
    let sql = format!(
        "SELECT u.Z_PK AS pk, u.ZID AS user_id, u.ZDISPLAYNAME AS display, u.ZACCT AS acct, u.ZUSERNAME AS username, \
{} AS account, {version}, {bio} AS bio, {}, {}, {}, {}, {}, {identified} AS identified_from \
FROM ZMASTODONUSER u{join} WHERE u.ZID = {} LIMIT 1",
        account_sql("u"),
        u("ZFOLLOWERSCOUNT", "followers"),
        u("ZFOLLOWINGCOUNT", "following"),
        u("ZSTATUSESCOUNT", "statuses"),
        u("ZURL", "url"),
        u("ZAVATARSTATIC", "avatar"),
        literal(id),
    );
    let Some((inv, t)) = run.query(path, &sql, 1)? else {
        return Ok(());
    };
    let Some(row) = t.rows.first() else {
        return Ok(());
    };
    let acct = raw(&t, row, "acct");
    let display = raw(&t, row, "display");
    let username = raw(&t, row, "username");
    let mut d = Draft::new(
        "accounts",
        format!(
            "Mastodon account {} signed in",
            acct.as_deref().unwrap_or(id)
        ),
    );
    d.fact(FactType::Path, Some(path), find);
    d.fact(FactType::Name, display.as_deref(), &inv);
    d.fact(FactType::Account, acct.as_deref(), &inv);
    d.fact(FactType::Account, username.as_deref(), &inv);
    d.fact(
        FactType::Identifier,
        raw(&t, row, "user_id").as_deref(),
        &inv,
    );
    d.fact(FactType::Account, raw(&t, row, "account").as_deref(), &inv);
    d.fact(
        FactType::Identifier,
        raw(&t, row, "instance").as_deref(),
        &inv,
    );
    d.fact(FactType::Text, raw(&t, row, "version").as_deref(), &inv);
    d.fact(FactType::Text, raw(&t, row, "bio").as_deref(), &inv);
    for c in ["followers", "following", "statuses"] {
        d.fact(FactType::Count, raw(&t, row, c).as_deref(), &inv);
    }
    d.fact(FactType::Url, raw(&t, row, "url").as_deref(), &inv);
    d.fact(FactType::Url, raw(&t, row, "avatar").as_deref(), &inv);
    d.fact(
        FactType::Identifier,
        raw(&t, row, "identified_from").as_deref(),
        &inv,
    );
    d.interpretation = format!(
        "ZMASTODONUSER Z_PK {} of {path}: the Mastodon account signed in to the app (user id {}, \
identified from {}), handle {} on the instance {} (server version {}); {} followers, {} following, \
{} statuses.",
        t.get(row, "pk").unwrap_or("?"),
        t.get(row, "user_id").unwrap_or("?"),
        t.get(row, "identified_from").unwrap_or("?"),
        acct.as_deref().unwrap_or("?"),
        t.get(row, "instance").unwrap_or("?"),
        t.get(row, "version").unwrap_or("?"),
        t.get(row, "followers").unwrap_or("?"),
        t.get(row, "following").unwrap_or("?"),
        t.get(row, "statuses").unwrap_or("?"),
    );
    run.record(d)?;
    let where_ = format!("Mastodon ({})", file_name(path));
    let label = display.as_deref().or(acct.as_deref()).unwrap_or(id);
    let why = |what: &str| {
        format!("{what} of the Mastodon account signed in to the app ({label}, {where_}).")
    };
    run.observe_person(
        "owner",
        "device owner",
        &inv,
        &why,
        &[
            (
                IdType::AccountId,
                raw(&t, row, "account").as_deref(),
                "The global handle (user@instance)",
            ),
            (IdType::Nickname, username.as_deref(), "The user name"),
            (IdType::DisplayName, display.as_deref(), "The display name"),
        ],
    )
}

/// The Core Data join table of who follows whom (`Z_<MastodonUser entity>FOLLOWING`), when the
/// database has it.
fn following_table(
    run: &Run<'_, '_>,
    path: &str,
    schema: &Schema,
) -> Result<Option<String>, RuntimeError> {
    if !schema.columns("Z_PRIMARYKEY").contains("Z_NAME") {
        return Ok(None);
    }
    let Some((_, t)) = run.query(
        path,
        "SELECT Z_ENT AS ent FROM Z_PRIMARYKEY WHERE Z_NAME = 'MastodonUser'",
        1,
    )?
    else {
        return Ok(None);
    };
    let Some(ent) = t
        .rows
        .first()
        .and_then(|r| t.get(r, "ent"))
        .filter(|e| e.bytes().all(|b| b.is_ascii_digit()) && !e.is_empty())
    else {
        return Ok(None);
    };
    let table = format!("Z_{ent}FOLLOWING");
    let Some(cols) = run.schema(path, &[&table])? else {
        return Ok(None);
    };
    let c = cols.columns(&table);
    Ok((c.contains(&table) && c.contains(&format!("{table}BY"))).then_some(table))
}

/// Every cached user (iLEAPP's `mastodonUsers`).
fn users(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    schema: &Schema,
    holder: Option<&str>,
) -> Result<(), RuntimeError> {
    let cols = schema.columns("ZMASTODONUSER");
    let u = |c: &str, alias: &str| column_or_null(&cols, "u.", c, alias);
    let (is_holder, followed_by, follows) = match (holder, following_table(run, path, schema)?) {
        (Some(h), Some(f)) => (
            format!("u.ZID = {}", literal(h)),
            format!(
                "EXISTS(SELECT 1 FROM {f} f JOIN ZMASTODONUSER me ON me.Z_PK = f.{f}BY WHERE f.{f} = u.Z_PK AND me.ZID = {})",
                literal(h)
            ),
            format!(
                "EXISTS(SELECT 1 FROM {f} f JOIN ZMASTODONUSER me ON me.Z_PK = f.{f} WHERE f.{f}BY = u.Z_PK AND me.ZID = {})",
                literal(h)
            ),
        ),
        (Some(h), None) => (
            format!("u.ZID = {}", literal(h)),
            "NULL".into(),
            "NULL".into(),
        ),
        (None, _) => ("NULL".into(), "NULL".into(), "NULL".into()),
    };
    let bio = if cols.contains("ZNOTE") {
        html_text("u.ZNOTE")
    } else {
        "NULL".into()
    };
    let sql = format!(
        "SELECT u.Z_PK AS pk, {}, {}, u.ZDISPLAYNAME AS display, u.ZACCT AS acct, u.ZUSERNAME AS username, \
u.ZDOMAIN AS domain, u.ZID AS user_id, {} AS account, {is_holder} AS holder, {followed_by} AS followed_by, \
{follows} AS follows, {bio} AS bio, {}, {}, {}, {}, {}, {}, {}, {} FROM ZMASTODONUSER u",
        u("ZCREATEDAT", "created"),
        u("ZUPDATEDAT", "updated"),
        account_sql("u"),
        u("ZFOLLOWERSCOUNT", "followers"),
        u("ZFOLLOWINGCOUNT", "following"),
        u("ZSTATUSESCOUNT", "statuses"),
        u("ZBOT", "bot"),
        u("ZLOCKED", "locked"),
        u("ZSUSPENDED", "suspended"),
        u("ZURL", "url"),
        u("ZAVATARSTATIC", "avatar"),
    );
    let Some(paged) = run.paged(path, &sql, "u.Z_PK")? else {
        return Ok(());
    };
    let where_ = format!("Mastodon ({})", file_name(path));
    for (inv, t, row) in paged.rows() {
        let pk = raw(t, row, "pk").unwrap_or_default();
        let acct = raw(t, row, "acct");
        let display = raw(t, row, "display");
        let username = raw(t, row, "username");
        let account = raw(t, row, "account");
        let flag = |c: &str| t.get(row, c).unwrap_or("NULL");
        let mut d = Draft::new(
            "contacts",
            format!("Mastodon user {}", acct.as_deref().unwrap_or(&pk)),
        );
        d.fact(FactType::Path, Some(path), find);
        d.fact(FactType::Name, display.as_deref(), inv);
        d.fact(FactType::Account, acct.as_deref(), inv);
        d.fact(FactType::Account, username.as_deref(), inv);
        d.fact(FactType::Identifier, raw(t, row, "domain").as_deref(), inv);
        d.fact(FactType::Identifier, raw(t, row, "user_id").as_deref(), inv);
        d.fact(FactType::Account, account.as_deref(), inv);
        d.fact(FactType::Text, raw(t, row, "bio").as_deref(), inv);
        for c in ["followers", "following", "statuses"] {
            d.fact(FactType::Count, raw(t, row, c).as_deref(), inv);
        }
        d.fact(FactType::Url, raw(t, row, "url").as_deref(), inv);
        d.fact(FactType::Url, raw(t, row, "avatar").as_deref(), inv);
        for (c, what) in [
            ("created", "Account created"),
            ("updated", "User record updated"),
        ] {
            let v = raw(t, row, c);
            d.time(v.as_deref(), core_data_encoding(v.as_deref()), what, inv);
        }
        d.interpretation = format!(
            "ZMASTODONUSER Z_PK {pk} of {path}: a Mastodon user the app cached, handle {}, user id {} \
(account holder {}, followed by the account holder {}, follows the account holder {}, bot {}, \
locked {}, suspended {}); times are Core Data seconds since the Apple epoch (apple_seconds).",
            acct.as_deref().unwrap_or("?"),
            t.get(row, "user_id").unwrap_or("?"),
            flag("holder"),
            flag("followed_by"),
            flag("follows"),
            flag("bot"),
            flag("locked"),
            flag("suspended"),
        );
        run.record(d)?;
        let Some(account) = account else {
            continue;
        };
        let (context, label) = if t.get(row, "holder") == Some("1") {
            ("owner".to_string(), "device owner".to_string())
        } else {
            (
                account.clone(),
                display
                    .clone()
                    .filter(|s| !s.is_empty())
                    .or(acct.clone())
                    .unwrap_or_else(|| account.clone()),
            )
        };
        let who = if context == "owner" {
            "the Mastodon account signed in to the app".to_string()
        } else {
            format!("the Mastodon user {label}")
        };
        run.observe_person(
            &context,
            &label,
            inv,
            &|what| format!("{what} of {who} ({where_})."),
            &[
                (
                    IdType::AccountId,
                    Some(account.as_str()),
                    "The global handle (user@instance)",
                ),
                (IdType::Nickname, username.as_deref(), "The user name"),
                (IdType::DisplayName, display.as_deref(), "The display name"),
            ],
        )?;
    }
    Ok(())
}

/// Every cached status (iLEAPP's `mastodonStatuses`); direct ones as messages
/// (`mastodonDirectMessages`).
fn statuses(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    schema: &Schema,
    holder: Option<&str>,
) -> Result<(), RuntimeError> {
    let cols = schema.columns("ZSTATUS");
    let s = |c: &str, alias: &str| column_or_null(&cols, "s.", c, alias);
    let mentions = if cols.contains("ZMENTIONS") {
        format!(
            "(SELECT group_concat('@' || json_extract(j.value, '$.acct'), ', ') FROM json_each({}) j \
WHERE json_extract(j.value, '$.acct') <> '')",
            json_array("s.ZMENTIONS")
        )
    } else {
        "NULL".into()
    };
    let conversation = if cols.contains("ZMENTIONS") {
        format!(
            "(SELECT group_concat(h, ', ') FROM (SELECT h FROM (SELECT '@' || json_extract(j.value, '$.acct') AS h \
FROM json_each({}) j WHERE json_extract(j.value, '$.acct') <> '' UNION SELECT '@' || u.ZACCT WHERE u.ZACCT IS NOT NULL) ORDER BY h))",
            json_array("s.ZMENTIONS")
        )
    } else {
        "'@' || u.ZACCT".into()
    };
    let (urls, alts) = if cols.contains("ZATTACHMENTS") {
        let url = "COALESCE(NULLIF(json_extract(j.value, '$.url'), ''), json_extract(j.value, '$.previewURL'))";
        (
            format!(
                "(SELECT group_concat({url}, ', ') FROM json_each({}) j WHERE {url} <> '')",
                json_array("s.ZATTACHMENTS")
            ),
            format!(
                "(SELECT group_concat(json_extract(j.value, '$.altDescription'), ', ') FROM json_each({}) j \
WHERE json_extract(j.value, '$.altDescription') <> '')",
                json_array("s.ZATTACHMENTS")
            ),
        )
    } else {
        ("NULL".into(), "NULL".into())
    };
    let app = schema.columns("ZAPPLICATION");
    let (application, app_join) = if cols.contains("ZAPPLICATION") && app.contains("ZNAME") {
        (
            "a.ZNAME AS application",
            " LEFT JOIN ZAPPLICATION a ON a.Z_PK = s.ZAPPLICATION",
        )
    } else {
        ("NULL AS application", "")
    };
    let from_me = holder
        .map(|h| format!("(u.ZID = {})", literal(h)))
        .unwrap_or_else(|| "NULL".into());
    let sql = format!(
        "SELECT s.Z_PK AS pk, s.ZID AS status_id, s.ZCREATEDAT AS created, {}, {}, s.ZVISIBILITYRAW AS visibility, \
{} AS text, {}, {mentions} AS mentions, {urls} AS attachment_urls, {alts} AS attachment_alts, {}, {}, {}, {}, {}, \
{}, {}, {application}, {}, {}, u.ZID AS author_id, u.ZACCT AS author, {} AS author_label, {} AS author_account, \
{conversation} AS conversation, {from_me} AS from_me \
FROM ZSTATUS s LEFT JOIN ZMASTODONUSER u ON u.Z_PK = s.ZAUTHOR{app_join}",
        s("ZEDITEDAT", "edited"),
        s("ZDELETEDAT", "deleted"),
        html_text("s.ZCONTENT"),
        s("ZSPOILERTEXT", "warning"),
        s("ZSENSITIVE", "sensitive"),
        s("ZLANGUAGE", "language"),
        s("ZFAVOURITESCOUNT", "favourites"),
        s("ZREBLOGSCOUNT", "boosts"),
        s("ZREPLIESCOUNT", "replies"),
        s("ZINREPLYTOID", "reply_to"),
        s("ZINREPLYTOACCOUNTID", "reply_to_account"),
        s("ZDOMAIN", "domain"),
        s("ZURL", "url"),
        label_sql("u"),
        account_sql("u"),
    );
    let Some(paged) = run.paged(path, &sql, "s.Z_PK")? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        let id = raw(t, row, "status_id").unwrap_or_default();
        let visibility = t.get(row, "visibility").unwrap_or("?");
        let direct = visibility == "direct";
        let author = raw(t, row, "author");
        let from_me = t.get(row, "from_me");
        let text = raw(t, row, "text");
        let conversation = raw(t, row, "conversation");
        let mut d = if direct {
            Draft::new(
                "messages",
                format!(
                    "Mastodon direct message {id} {} @{}",
                    if from_me == Some("1") {
                        "sent by"
                    } else {
                        "from"
                    },
                    author.as_deref().unwrap_or("?")
                ),
            )
        } else {
            Draft::new(
                "social",
                format!(
                    "Mastodon status {id} by @{}",
                    author.as_deref().unwrap_or("?")
                ),
            )
        };
        d.fact(FactType::Path, Some(path), find);
        d.fact(FactType::Identifier, Some(&id), inv);
        d.fact(FactType::Name, raw(t, row, "author_label").as_deref(), inv);
        d.fact(FactType::Account, author.as_deref(), inv);
        d.fact(
            FactType::Identifier,
            raw(t, row, "author_id").as_deref(),
            inv,
        );
        d.fact(
            FactType::Account,
            raw(t, row, "author_account").as_deref(),
            inv,
        );
        d.fact(FactType::Text, Some(visibility), inv);
        d.fact(FactType::Text, text.as_deref(), inv);
        d.fact(FactType::Text, raw(t, row, "warning").as_deref(), inv);
        d.fact(FactType::Account, raw(t, row, "mentions").as_deref(), inv);
        d.fact(
            FactType::Url,
            raw(t, row, "attachment_urls").as_deref(),
            inv,
        );
        d.fact(
            FactType::Text,
            raw(t, row, "attachment_alts").as_deref(),
            inv,
        );
        d.fact(FactType::Text, raw(t, row, "language").as_deref(), inv);
        for c in ["favourites", "boosts", "replies"] {
            d.fact(FactType::Count, raw(t, row, c).as_deref(), inv);
        }
        d.fact(
            FactType::Identifier,
            raw(t, row, "reply_to").as_deref(),
            inv,
        );
        d.fact(
            FactType::Identifier,
            raw(t, row, "reply_to_account").as_deref(),
            inv,
        );
        d.fact(FactType::Name, raw(t, row, "application").as_deref(), inv);
        d.fact(FactType::Identifier, raw(t, row, "domain").as_deref(), inv);
        d.fact(FactType::Url, raw(t, row, "url").as_deref(), inv);
        if direct {
            d.fact(FactType::Account, conversation.as_deref(), inv);
        }
        for (c, what) in [
            (
                "created",
                if direct {
                    "Message sent"
                } else {
                    "Status posted"
                },
            ),
            ("edited", "Status edited"),
            ("deleted", "Status deleted"),
        ] {
            let v = raw(t, row, c);
            d.time(v.as_deref(), core_data_encoding(v.as_deref()), what, inv);
        }
        let flags = format!(
            "sensitive {}, from me {}",
            t.get(row, "sensitive").unwrap_or("NULL"),
            from_me.unwrap_or("NULL")
        );
        d.interpretation = if direct {
            format!(
                "ZSTATUS Z_PK {} of {path}: a Mastodon direct message (visibility direct) by @{} in the \
conversation {} ({flags}); times are Core Data seconds since the Apple epoch (apple_seconds).",
                t.get(row, "pk").unwrap_or("?"),
                author.as_deref().unwrap_or("?"),
                conversation.as_deref().unwrap_or("?"),
            )
        } else {
            format!(
                "ZSTATUS Z_PK {} of {path}: a Mastodon status of visibility {visibility} by @{} cached by \
the app ({flags}); times are Core Data seconds since the Apple epoch (apple_seconds).",
                t.get(row, "pk").unwrap_or("?"),
                author.as_deref().unwrap_or("?"),
            )
        };
        run.record(d)?;
        let (true, Some(body)) = (direct, t.get(row, "text")) else {
            continue;
        };
        if from_me.is_none() && holder.is_some() {
            continue;
        }
        let sent = from_me == Some("1");
        let other = if sent {
            None
        } else {
            raw(t, row, "author_account").map(|a| {
                (
                    a,
                    format!("the Mastodon user @{}", author.as_deref().unwrap_or("?")),
                )
            })
        };
        run.message_claims(
            inv,
            body,
            &format!("Mastodon direct message {id} ({})", file_name(path)),
            sent,
            other,
            "author is the account holder",
            "author is another user",
        )?;
    }
    if paged.truncated {
        summarise(
            run,
            "social",
            path,
            find,
            "Mastodon statuses",
            "SELECT count(*) AS total, min(NULLIF(ZCREATEDAT, 0)) AS first_time, max(ZCREATEDAT) AS last_time FROM ZSTATUS",
            core_data_encoding,
            "First status",
            "Last status",
        )?;
    }
    Ok(())
}

/// Every notification (iLEAPP's `mastodonNotifications`).
fn notifications(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    schema: &Schema,
) -> Result<(), RuntimeError> {
    let cols = schema.columns("ZNOTIFICATION");
    let n = |c: &str, alias: &str| column_or_null(&cols, "n.", c, alias);
    let status_cols = schema.columns("ZSTATUS");
    let (status, join) = if cols.contains("ZSTATUS")
        && status_cols.contains("ZCONTENT")
        && status_cols.contains("ZID")
    {
        (
            format!(
                "{} AS status_text, s.ZID AS status_id",
                html_text("s.ZCONTENT")
            ),
            " LEFT JOIN ZSTATUS s ON s.Z_PK = n.ZSTATUS",
        )
    } else {
        ("NULL AS status_text, NULL AS status_id".to_string(), "")
    };
    let sql = format!(
        "SELECT n.Z_PK AS pk, {}, n.ZTYPERAW AS type, {}, {}, {}, u.ZACCT AS from_acct, {} AS from_label, \
{} AS from_account, {status} FROM ZNOTIFICATION n LEFT JOIN ZMASTODONUSER u ON u.Z_PK = n.ZACCOUNT{join}",
        n("ZCREATEAT", "created"),
        n("ZID", "notification_id"),
        n("ZDOMAIN", "domain"),
        n("ZUSERID", "recipient"),
        label_sql("u"),
        account_sql("u"),
    );
    let Some(paged) = run.paged(path, &sql, "n.Z_PK")? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        let kind = raw(t, row, "type");
        let from = raw(t, row, "from_acct");
        let mut d = Draft::new(
            "social",
            format!(
                "Mastodon notification {} from @{}",
                kind.as_deref().unwrap_or("?"),
                from.as_deref().unwrap_or("?")
            ),
        );
        d.fact(FactType::Path, Some(path), find);
        d.fact(FactType::Text, kind.as_deref(), inv);
        d.fact(FactType::Name, raw(t, row, "from_label").as_deref(), inv);
        d.fact(FactType::Account, from.as_deref(), inv);
        d.fact(
            FactType::Account,
            raw(t, row, "from_account").as_deref(),
            inv,
        );
        d.fact(FactType::Text, raw(t, row, "status_text").as_deref(), inv);
        d.fact(
            FactType::Identifier,
            raw(t, row, "status_id").as_deref(),
            inv,
        );
        d.fact(FactType::Identifier, raw(t, row, "domain").as_deref(), inv);
        d.fact(
            FactType::Identifier,
            raw(t, row, "notification_id").as_deref(),
            inv,
        );
        d.fact(
            FactType::Identifier,
            raw(t, row, "recipient").as_deref(),
            inv,
        );
        let created = raw(t, row, "created");
        d.time(
            created.as_deref(),
            core_data_encoding(created.as_deref()),
            "Notification created",
            inv,
        );
        d.interpretation = format!(
            "ZNOTIFICATION Z_PK {} of {path}: a Mastodon notification of type {} to the user id {} \
from @{}; times are Core Data seconds since the Apple epoch (apple_seconds).",
            t.get(row, "pk").unwrap_or("?"),
            kind.as_deref().unwrap_or("?"),
            t.get(row, "recipient").unwrap_or("?"),
            from.as_deref().unwrap_or("?"),
        );
        run.record(d)?;
    }
    if paged.truncated {
        summarise(
            run,
            "social",
            path,
            find,
            "Mastodon notifications",
            "SELECT count(*) AS total, min(NULLIF(ZCREATEAT, 0)) AS first_time, max(ZCREATEAT) AS last_time FROM ZNOTIFICATION",
            core_data_encoding,
            "First notification",
            "Last notification",
        )?;
    }
    Ok(())
}
