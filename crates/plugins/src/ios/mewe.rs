//! MeWe (`Containers/Data/Application/<uuid>/Documents/sgrouplesdb.sqlite`, Core Data, read
//! with its `-wal`): the fields of iLEAPP's six `meWe` artefacts.
//!
//! - the signed-in account (`ZCURRENTUSER` joined to its `ZUSER`): name, handle, user id,
//!   first and last name, primary e-mail and phone, contact invite id, registration, DSNP
//!   registration and handle, fingerprint, jail date;
//! - one phenomenon per user the app knows (`ZUSER`, with its `ZCONTACT` row and its `ZPROFILE`
//!   rows collapsed — the app keeps one per context a profile was loaded in): name, handle,
//!   user id, contact type and creation, invitation type, follower and following counts, and
//!   the flags (account holder, contact, following, follower, muted, verified, premium, public);
//! - one per group (`ZGROUP`), per post (`ZPOST`, with its author and group), per poll
//!   (`ZPOLL` with its options `ZPOLLOPTION` and the post that carries it);
//! - one per chat message (`ZCHATMESSAGE`): time, thread and its chat type, the conversation
//!   (the other senders of the thread), sender, text, the coordinates of a shared location
//!   (an OpenStreetMap link `…?mlat=<lat>&mlon=<lon>…` in the text), attachments (type, file
//!   name, URL), edit time and original text, reply target, deletion, disappearing and event
//!   types, call duration and video, and the direction (sent when the sender is the account
//!   holder).
//!
//! Identities: the account holder is the device's user (`owner`): the namespaced user id
//! `mewe:<ZUSERID>` (namespaced by the query), handle, display name, primary e-mail and phone;
//! every other user is a person `mewe:<ZUSERID>` (id, handle, name). Wallet addresses written in
//! a chat message are claims of its writer (`owner` when sent, else the sender's context).
//! Times are Core Data seconds since 2001.

use std::collections::BTreeSet;

use masf_agents::RuntimeError;
use masf_graph::{FactType, IdType};
use masf_tools::Invoked;

use super::{Draft, Run, Schema, core_data_encoding, file_name, raw, summarise};
use crate::calls::column_or_null;
use crate::outputs::Table;

const SUMMARY_SQL: &str = "SELECT count(*) AS total, min(NULLIF(ZDATE, 0)) AS first_time, max(ZDATE) AS last_time FROM ZCHATMESSAGE";

/// The display name of the user `u` as the app shows it: its name, else first and last name,
/// else its handle.
const USER_NAME: &str = "COALESCE(u.ZNAME, NULLIF(TRIM(COALESCE(u.ZFIRSTNAME, '') || ' ' || COALESCE(u.ZLASTNAME, '')), ''), u.ZHANDLE)";

/// Triage of every `sgrouplesdb.sqlite` of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    run.each("sgrouplesdb.sqlite", |find, path| one(run, find, path))
}

/// `"<label>: yes"` when the cell is a non-zero number or `true`, else `"<label>: no"`.
fn flag(t: &Table, row: &[Option<String>], col: &str, label: &str) -> String {
    let on = t
        .get(row, col)
        .is_some_and(|v| v == "true" || v.parse::<f64>().is_ok_and(|n| n != 0.0));
    format!("{label}: {}", if on { "yes" } else { "no" })
}

/// The coordinates of a location shared as an OpenStreetMap link (`mlat=<lat>&mlon=<lon>`).
pub fn osm_coordinates(text: &str) -> Option<(&str, &str)> {
    let number = |after: &str| -> Option<&str> {
        let at = text.find(after)? + after.len();
        let rest = text.get(at..)?;
        let end = rest
            .find(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-'))
            .unwrap_or(rest.len());
        let n = rest.get(..end)?;
        n.parse::<f64>().is_ok().then_some(n)
    };
    Some((number("mlat=")?, number("mlon=")?))
}

fn one(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let Some(schema) = run.schema(
        path,
        &[
            "ZUSER",
            "ZCURRENTUSER",
            "ZCONTACT",
            "ZPROFILE",
            "ZCHATMESSAGE",
            "ZCHATTHREAD",
            "ZCHATATTACHMENT",
            "ZGROUP",
            "ZPOST",
            "ZPOLL",
            "ZPOLLOPTION",
        ],
    )?
    else {
        return Ok(());
    };
    if !schema.require(run, "ZUSER", &["ZUSERID", "ZHANDLE", "ZNAME"])? {
        return Ok(());
    }
    let me = if schema.columns("ZCURRENTUSER").contains("ZUSER") {
        account(run, &schema, find, path)?;
        "(SELECT cu_u.ZUSERID FROM ZCURRENTUSER cu JOIN ZUSER cu_u ON cu_u.Z_PK = cu.ZUSER LIMIT 1)"
    } else if schema.columns("ZUSER").contains("ZCURRENTUSER") {
        "(SELECT ZUSERID FROM ZUSER WHERE ZCURRENTUSER = 1 LIMIT 1)"
    } else {
        "NULL"
    };
    users(run, &schema, find, path, me)?;
    if !schema.columns("ZGROUP").is_empty() {
        groups(run, &schema, find, path)?;
    }
    if !schema.columns("ZPOST").is_empty() {
        posts(run, &schema, find, path)?;
    }
    if !schema.columns("ZPOLL").is_empty() {
        polls(run, &schema, find, path)?;
    }
    if schema.require(
        run,
        "ZCHATMESSAGE",
        &["ZDATE", "ZSENDER", "ZTHREADID", "ZTEXT", "ZMESSAGEID"],
    )? {
        messages(run, &schema, find, path, me)?;
    }
    Ok(())
}

/// The signed-in account: the device's user.
fn account(
    run: &Run<'_, '_>,
    schema: &Schema,
    find: &Invoked,
    path: &str,
) -> Result<(), RuntimeError> {
    let cur = schema.columns("ZCURRENTUSER");
    let users = schema.columns("ZUSER");
    let c = |col: &str, alias: &str| column_or_null(&cur, "cu.", col, alias);
    let u = |col: &str, alias: &str| column_or_null(&users, "u.", col, alias);
    let sql = format!(
        "SELECT cu.Z_PK AS pk, 'mewe:' || u.ZUSERID AS account, u.ZUSERID AS user_id, {USER_NAME} AS name, \
u.ZHANDLE AS handle, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {} FROM ZCURRENTUSER cu LEFT JOIN ZUSER u ON u.Z_PK = cu.ZUSER",
        u("ZFIRSTNAME", "first"),
        u("ZLASTNAME", "last"),
        u("ZFINGERPRINT", "fingerprint"),
        u("ZDSNPHANDLE", "dsnp_handle"),
        c("ZPRIMARYEMAIL", "email"),
        c("ZPRIMARYPHONE", "phone"),
        c("ZCONTACTINVITEID", "invite"),
        c("ZREGISTERED", "registered"),
        c("ZISDSNPREGISTERED", "dsnp_registered"),
        c("ZJAILSENTENCE", "jail_sentence"),
        c("ZJAILDATE", "jail_date"),
    );
    let Some((inv, t)) = run.query(path, &sql, 100)? else {
        return Ok(());
    };
    let where_ = format!("MeWe ({})", file_name(path));
    for row in &t.rows {
        let name = raw(&t, row, "name");
        let handle = raw(&t, row, "handle");
        let account = raw(&t, row, "account");
        let mut d = Draft::new(
            "accounts",
            format!(
                "MeWe account {}",
                handle.as_deref().or(name.as_deref()).unwrap_or("?")
            ),
        );
        d.fact(FactType::Path, Some(path), find);
        d.fact(FactType::Account, account.as_deref(), &inv);
        d.fact(
            FactType::Identifier,
            raw(&t, row, "user_id").as_deref(),
            &inv,
        );
        d.fact(FactType::Account, handle.as_deref(), &inv);
        d.fact(FactType::Name, name.as_deref(), &inv);
        d.fact(FactType::Name, raw(&t, row, "first").as_deref(), &inv);
        d.fact(FactType::Name, raw(&t, row, "last").as_deref(), &inv);
        d.fact(FactType::Email, raw(&t, row, "email").as_deref(), &inv);
        d.fact(FactType::Phone, raw(&t, row, "phone").as_deref(), &inv);
        d.fact(
            FactType::Identifier,
            raw(&t, row, "invite").as_deref(),
            &inv,
        );
        d.fact(FactType::Text, raw(&t, row, "registered").as_deref(), &inv);
        d.fact(
            FactType::Account,
            raw(&t, row, "dsnp_handle").as_deref(),
            &inv,
        );
        d.fact(
            FactType::Identifier,
            raw(&t, row, "fingerprint").as_deref(),
            &inv,
        );
        d.fact(
            FactType::Count,
            raw(&t, row, "jail_sentence").as_deref(),
            &inv,
        );
        let jail = raw(&t, row, "jail_date");
        d.time(
            jail.as_deref(),
            core_data_encoding(jail.as_deref()),
            "MeWe account jailed (suspended)",
            &inv,
        );
        d.interpretation = format!(
            "ZCURRENTUSER Z_PK {} of {path}: the MeWe account signed in on the device, {} (handle {}, user id {}), primary e-mail {}, primary phone {}, registered {}, {}.",
            t.get(row, "pk").unwrap_or("?"),
            name.as_deref().unwrap_or("(no name)"),
            handle.as_deref().unwrap_or("(none)"),
            t.get(row, "user_id").unwrap_or("?"),
            t.get(row, "email").unwrap_or("(none)"),
            t.get(row, "phone").unwrap_or("(none)"),
            t.get(row, "registered").unwrap_or("(unknown)"),
            flag(&t, row, "dsnp_registered", "DSNP registered"),
        );
        run.record(d)?;
        let why =
            |what: &str| format!("{what} of the MeWe account signed in on the device ({where_}).");
        run.observe_person(
            "owner",
            "device owner",
            &inv,
            &why,
            &[
                (
                    IdType::AccountId,
                    account.as_deref(),
                    "The namespaced user id",
                ),
                (IdType::Nickname, handle.as_deref(), "The handle"),
                (IdType::DisplayName, name.as_deref(), "The name"),
                (IdType::Email, t.get(row, "email"), "The primary e-mail"),
                (
                    IdType::Phone,
                    t.get(row, "phone"),
                    "The primary phone number",
                ),
            ],
        )?;
    }
    Ok(())
}

/// Every user the app knows.
fn users(
    run: &Run<'_, '_>,
    schema: &Schema,
    find: &Invoked,
    path: &str,
    me: &str,
) -> Result<(), RuntimeError> {
    let users = schema.columns("ZUSER");
    let u = |col: &str, alias: &str| column_or_null(&users, "u.", col, alias);
    let contact_cols = schema.columns("ZCONTACT");
    let contact = |col: &str, alias: &str| {
        if contact_cols.contains(col) && contact_cols.contains("ZUSER") {
            format!("(SELECT c.{col} FROM ZCONTACT c WHERE c.ZUSER = u.Z_PK LIMIT 1) AS {alias}")
        } else {
            format!("NULL AS {alias}")
        }
    };
    let profile_cols = schema.columns("ZPROFILE");
    let profile = |col: &str, alias: &str| {
        if profile_cols.contains(col) && profile_cols.contains("ZUSER") {
            format!("(SELECT MAX(p.{col}) FROM ZPROFILE p WHERE p.ZUSER = u.Z_PK) AS {alias}")
        } else {
            format!("NULL AS {alias}")
        }
    };
    let sql = format!(
        "SELECT u.Z_PK AS pk, 'mewe:' || u.ZUSERID AS account, u.ZUSERID AS user_id, {USER_NAME} AS name, \
u.ZHANDLE AS handle, u.ZUSERID = {me} AS holder, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {} FROM ZUSER u",
        u("ZFIRSTNAME", "first"),
        u("ZLASTNAME", "last"),
        u("ZISVERIFIED", "verified"),
        u("ZISPREMIUM", "premium"),
        u("ZISPUBLIC", "public"),
        u("ZDSNPHANDLE", "dsnp_handle"),
        contact("ZCREATEDDATE", "contact_created"),
        contact("ZCONTACTTYPE", "contact_type"),
        contact("ZINVITATIONTYPE", "invitation_type"),
        profile("ZFOLLOWERSCOUNT", "followers"),
        profile("ZFOLLOWINGCOUNT", "following_count"),
        profile("ZISCONTACT", "is_contact"),
        profile("ZISFOLLOWING", "following"),
        profile("ZISFOLLOWER", "follower"),
        profile("ZISMUTED", "muted"),
        u("ZFINGERPRINT", "fingerprint"),
        u("ZISWEB3", "web3"),
    );
    let Some(paged) = run.paged(path, &sql, "u.Z_PK")? else {
        return Ok(());
    };
    let where_ = format!("MeWe ({})", file_name(path));
    for (inv, t, row) in paged.rows() {
        let user_id = raw(t, row, "user_id");
        let account = raw(t, row, "account");
        let name = raw(t, row, "name");
        let handle = raw(t, row, "handle");
        let holder = t.get(row, "holder") == Some("1");
        let mut d = Draft::new(
            "contacts",
            format!(
                "MeWe user {}",
                handle.as_deref().or(name.as_deref()).unwrap_or("?")
            ),
        );
        d.fact(FactType::Path, Some(path), find);
        d.fact(FactType::Account, account.as_deref(), inv);
        d.fact(FactType::Identifier, user_id.as_deref(), inv);
        d.fact(FactType::Account, handle.as_deref(), inv);
        d.fact(FactType::Name, name.as_deref(), inv);
        d.fact(FactType::Name, raw(t, row, "first").as_deref(), inv);
        d.fact(FactType::Name, raw(t, row, "last").as_deref(), inv);
        d.fact(FactType::Text, raw(t, row, "contact_type").as_deref(), inv);
        d.fact(
            FactType::Text,
            raw(t, row, "invitation_type").as_deref(),
            inv,
        );
        d.fact(FactType::Count, raw(t, row, "followers").as_deref(), inv);
        d.fact(
            FactType::Count,
            raw(t, row, "following_count").as_deref(),
            inv,
        );
        d.fact(
            FactType::Account,
            raw(t, row, "dsnp_handle").as_deref(),
            inv,
        );
        d.fact(
            FactType::Identifier,
            raw(t, row, "fingerprint").as_deref(),
            inv,
        );
        let created = raw(t, row, "contact_created");
        d.time(
            created.as_deref(),
            core_data_encoding(created.as_deref()),
            "MeWe contact created",
            inv,
        );
        let flags = [
            flag(t, row, "holder", "account holder"),
            flag(t, row, "is_contact", "contact"),
            flag(t, row, "following", "following"),
            flag(t, row, "follower", "follower"),
            flag(t, row, "muted", "muted"),
            flag(t, row, "verified", "verified"),
            flag(t, row, "premium", "premium"),
            flag(t, row, "public", "public"),
            flag(t, row, "web3", "web3"),
        ];
        d.interpretation = format!(
            "ZUSER Z_PK {} of {path}: {} the MeWe user {} (handle {}, user id {}), contact type {}, invitation type {}, {} followers, following {}; {}.",
            t.get(row, "pk").unwrap_or("?"),
            if holder {
                "the account signed in on the device,"
            } else {
                "a user known to the app,"
            },
            name.as_deref().unwrap_or("(no name)"),
            handle.as_deref().unwrap_or("(none)"),
            user_id.as_deref().unwrap_or("?"),
            t.get(row, "contact_type").unwrap_or("(none)"),
            t.get(row, "invitation_type").unwrap_or("(none)"),
            t.get(row, "followers").unwrap_or("?"),
            t.get(row, "following_count").unwrap_or("?"),
            flags.join(", "),
        );
        run.record(d)?;
        let Some(account) = account else {
            continue;
        };
        let (context, label) = if holder {
            ("owner".to_string(), "device owner".to_string())
        } else {
            (
                account.clone(),
                name.clone().or(handle.clone()).unwrap_or(account.clone()),
            )
        };
        let whose = if holder {
            "the MeWe account signed in on the device".to_string()
        } else {
            format!("the MeWe user {label}")
        };
        run.observe_person(
            &context,
            &label,
            inv,
            &|what| format!("{what} of {whose} ({where_})."),
            &[
                (
                    IdType::AccountId,
                    Some(account.as_str()),
                    "The namespaced user id",
                ),
                (IdType::Nickname, handle.as_deref(), "The handle"),
                (IdType::DisplayName, name.as_deref(), "The name"),
            ],
        )?;
    }
    Ok(())
}

/// Every group the app knows.
fn groups(
    run: &Run<'_, '_>,
    schema: &Schema,
    find: &Invoked,
    path: &str,
) -> Result<(), RuntimeError> {
    let cols = schema.columns("ZGROUP");
    let g = |col: &str, alias: &str| column_or_null(&cols, "g.", col, alias);
    let posts = if schema.columns("ZPOST").contains("ZGROUPID") && cols.contains("ZGROUPID") {
        "(SELECT COUNT(*) FROM ZPOST p WHERE p.ZGROUPID = g.ZGROUPID)"
    } else {
        "NULL"
    };
    let sql = format!(
        "SELECT g.Z_PK AS pk, {}, {}, {}, {}, {}, {}, {}, {}, {posts} AS cached_posts, {}, {}, {}, {}, {}, {}, {}, {} FROM ZGROUP g",
        g("ZNAME", "name"),
        g("ZGROUPID", "group_id"),
        g("ZDESCRIPTIONPLAIN", "description"),
        g("ZCATEGORY", "category"),
        g("ZOWNERID", "owner_id"),
        g("ZROLE", "role"),
        g("ZPUBLICROLE", "public_role"),
        g("ZMEMBERSCOUNT", "members"),
        g("ZUNSEENPOSTSCOUNT", "unseen"),
        g("ZCHATMODE", "chat_mode"),
        g("ZEMAIL", "email"),
        g("ZPUBLICURLID", "public_url_id"),
        g("ZISPUBLIC", "public"),
        g("ZISCONFIRMED", "confirmed"),
        g("ZISMUTED", "muted"),
        g("ZISOWNERORADMIN", "owner_or_admin"),
    );
    let Some(paged) = run.paged(path, &sql, "g.Z_PK")? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        let name = raw(t, row, "name");
        let mut d = Draft::new(
            "social",
            format!("MeWe group {}", name.as_deref().unwrap_or("?")),
        );
        d.fact(FactType::Path, Some(path), find);
        d.fact(FactType::Name, name.as_deref(), inv);
        d.fact(
            FactType::Identifier,
            raw(t, row, "group_id").as_deref(),
            inv,
        );
        d.fact(FactType::Text, raw(t, row, "description").as_deref(), inv);
        d.fact(FactType::Text, raw(t, row, "category").as_deref(), inv);
        d.fact(
            FactType::Identifier,
            raw(t, row, "owner_id").as_deref(),
            inv,
        );
        d.fact(FactType::Text, raw(t, row, "role").as_deref(), inv);
        d.fact(FactType::Text, raw(t, row, "public_role").as_deref(), inv);
        d.fact(FactType::Count, raw(t, row, "members").as_deref(), inv);
        d.fact(FactType::Count, raw(t, row, "cached_posts").as_deref(), inv);
        d.fact(FactType::Count, raw(t, row, "unseen").as_deref(), inv);
        d.fact(FactType::Text, raw(t, row, "chat_mode").as_deref(), inv);
        d.fact(FactType::Email, raw(t, row, "email").as_deref(), inv);
        d.fact(
            FactType::Identifier,
            raw(t, row, "public_url_id").as_deref(),
            inv,
        );
        d.interpretation = format!(
            "ZGROUP Z_PK {} of {path}: the MeWe group {} (id {}, category {}), owner {}, the account's role {} (public role {}), {} members, {} posts cached, {} unseen posts, chat mode {}; {}.",
            t.get(row, "pk").unwrap_or("?"),
            name.as_deref().unwrap_or("?"),
            t.get(row, "group_id").unwrap_or("?"),
            t.get(row, "category").unwrap_or("(none)"),
            t.get(row, "owner_id").unwrap_or("?"),
            t.get(row, "role").unwrap_or("?"),
            t.get(row, "public_role").unwrap_or("?"),
            t.get(row, "members").unwrap_or("?"),
            t.get(row, "cached_posts").unwrap_or("?"),
            t.get(row, "unseen").unwrap_or("?"),
            t.get(row, "chat_mode").unwrap_or("?"),
            [
                flag(t, row, "public", "public"),
                flag(t, row, "confirmed", "confirmed"),
                flag(t, row, "muted", "muted"),
                flag(t, row, "owner_or_admin", "owner or admin"),
            ]
            .join(", "),
        );
        run.record(d)?;
    }
    Ok(())
}

/// Every post cached.
fn posts(
    run: &Run<'_, '_>,
    schema: &Schema,
    find: &Invoked,
    path: &str,
) -> Result<(), RuntimeError> {
    let cols = schema.columns("ZPOST");
    let p = |col: &str, alias: &str| column_or_null(&cols, "p.", col, alias);
    let author = if cols.contains("ZUSERID") {
        format!("(SELECT {USER_NAME} FROM ZUSER u WHERE u.ZUSERID = p.ZUSERID LIMIT 1)")
    } else {
        "NULL".to_string()
    };
    let group = if cols.contains("ZGROUPID") && schema.columns("ZGROUP").contains("ZNAME") {
        "(SELECT g.ZNAME FROM ZGROUP g WHERE g.ZGROUPID = p.ZGROUPID LIMIT 1)"
    } else {
        "NULL"
    };
    let sql = format!(
        "SELECT p.Z_PK AS pk, {}, {}, {}, {}, {}, {author} AS author, {}, {group} AS group_name, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {} FROM ZPOST p",
        p("ZCREATIONDATE", "created"),
        p("ZEDITEDDATE", "edited"),
        p("ZUPDATEDDATE", "updated"),
        p("ZTEXT", "text"),
        p("ZUSERID", "user_id"),
        p("ZPOSTID", "post_id"),
        p("ZGROUPID", "group_id"),
        p("ZPAGEID", "page_id"),
        p("ZALBUMNAME", "album"),
        p("ZCOMMENTSCOUNT", "comments"),
        p("ZPHOTOSCOUNT", "photos"),
        p("ZSHARESCOUNT", "shares"),
        p("ZSOURCE", "source"),
        p("ZPARENTPOSTID", "parent"),
        p("ZISPUBLIC", "public"),
        p("ZISEVERYONE", "everyone"),
        p("ZISFEATURED", "featured"),
    );
    let Some(paged) = run.paged(path, &sql, "p.Z_PK")? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        let post_id = raw(t, row, "post_id");
        let author = raw(t, row, "author");
        let mut d = Draft::new(
            "social",
            format!(
                "MeWe post {} by {}",
                post_id.as_deref().unwrap_or("?"),
                author
                    .as_deref()
                    .or(t.get(row, "user_id"))
                    .unwrap_or("an unknown user")
            ),
        );
        d.fact(FactType::Path, Some(path), find);
        d.fact(FactType::Identifier, post_id.as_deref(), inv);
        d.fact(FactType::Name, author.as_deref(), inv);
        d.fact(FactType::Identifier, raw(t, row, "user_id").as_deref(), inv);
        d.fact(FactType::Text, raw(t, row, "text").as_deref(), inv);
        d.fact(FactType::Name, raw(t, row, "group_name").as_deref(), inv);
        d.fact(
            FactType::Identifier,
            raw(t, row, "group_id").as_deref(),
            inv,
        );
        d.fact(FactType::Identifier, raw(t, row, "page_id").as_deref(), inv);
        d.fact(FactType::Name, raw(t, row, "album").as_deref(), inv);
        for c in ["comments", "photos", "shares"] {
            d.fact(FactType::Count, raw(t, row, c).as_deref(), inv);
        }
        d.fact(FactType::Text, raw(t, row, "source").as_deref(), inv);
        d.fact(FactType::Identifier, raw(t, row, "parent").as_deref(), inv);
        for (col, what) in [
            ("created", "MeWe post created"),
            ("edited", "MeWe post edited"),
            ("updated", "MeWe post updated"),
        ] {
            let v = raw(t, row, col);
            d.time(v.as_deref(), core_data_encoding(v.as_deref()), what, inv);
        }
        d.interpretation = format!(
            "ZPOST Z_PK {} of {path}: a MeWe post {} by {} (user id {}){}{}, {} comments, {} photos, {} shares, source {}; {}.",
            t.get(row, "pk").unwrap_or("?"),
            post_id.as_deref().unwrap_or("?"),
            author.as_deref().unwrap_or("(unknown)"),
            t.get(row, "user_id").unwrap_or("?"),
            t.get(row, "group_name")
                .map(|g| format!(" in the group {g}"))
                .unwrap_or_default(),
            t.get(row, "parent")
                .map(|g| format!(", shared in the post {g}"))
                .unwrap_or_default(),
            t.get(row, "comments").unwrap_or("?"),
            t.get(row, "photos").unwrap_or("?"),
            t.get(row, "shares").unwrap_or("?"),
            t.get(row, "source").unwrap_or("?"),
            [
                flag(t, row, "public", "public"),
                flag(t, row, "everyone", "everyone"),
                flag(t, row, "featured", "featured"),
            ]
            .join(", "),
        );
        run.record(d)?;
    }
    Ok(())
}

/// The `ZPOLLOPTION` column naming an option's poll (`Z<entity>OPTIONS`: the entity number
/// moves between model versions).
fn poll_link(cols: &BTreeSet<String>) -> Option<&str> {
    cols.iter()
        .map(String::as_str)
        .find(|c| c.starts_with('Z') && !c.starts_with("Z_") && c.ends_with("OPTIONS"))
}

/// Every poll cached, with its options and votes.
fn polls(
    run: &Run<'_, '_>,
    schema: &Schema,
    find: &Invoked,
    path: &str,
) -> Result<(), RuntimeError> {
    let cols = schema.columns("ZPOLL");
    let options = schema.columns("ZPOLLOPTION");
    let link = poll_link(&options).filter(|_| options.contains("ZTEXT"));
    let opt = |expr: &str, filter: &str, alias: &str| match link {
        Some(l) => {
            format!("(SELECT {expr} FROM ZPOLLOPTION o WHERE o.{l} = p.Z_PK{filter}) AS {alias}")
        }
        None => format!("NULL AS {alias}"),
    };
    let selected = if options.contains("ZISSELECTED") {
        " AND o.ZISSELECTED = 1"
    } else {
        " AND 0"
    };
    let votes = if options.contains("ZVOTES") {
        "GROUP_CONCAT(o.ZVOTES, ' | ')"
    } else {
        "NULL"
    };
    let post_cols = schema.columns("ZPOST");
    let post = |col: &str, alias: &str| {
        if post_cols.contains(col) && post_cols.contains("ZPOLL") {
            format!(
                "(SELECT post.{col} FROM ZPOST post WHERE post.ZPOLL = p.Z_PK LIMIT 1) AS {alias}"
            )
        } else {
            format!("NULL AS {alias}")
        }
    };
    let sql = format!(
        "SELECT p.Z_PK AS pk, {}, {}, {}, {}, {}, {}, {}, {}, {}, {} FROM ZPOLL p",
        column_or_null(&cols, "p.", "ZQUESTION", "question"),
        column_or_null(&cols, "p.", "ZISCLOSED", "closed"),
        column_or_null(&cols, "p.", "ZENDDATE", "end_date"),
        opt("GROUP_CONCAT(o.ZTEXT, ' | ')", "", "options"),
        opt(votes, "", "votes"),
        opt("COUNT(*)", "", "option_count"),
        opt("GROUP_CONCAT(o.ZTEXT, ' | ')", selected, "selected"),
        post("ZPOSTID", "post_id"),
        post("ZUSERID", "user_id"),
        post("ZCREATIONDATE", "created"),
    );
    let Some(paged) = run.paged(path, &sql, "p.Z_PK")? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        let question = raw(t, row, "question");
        let mut d = Draft::new(
            "social",
            format!("MeWe poll {}", question.as_deref().unwrap_or("?")),
        );
        d.fact(FactType::Path, Some(path), find);
        d.fact(FactType::Text, question.as_deref(), inv);
        d.fact(FactType::Text, raw(t, row, "options").as_deref(), inv);
        d.fact(FactType::Text, raw(t, row, "votes").as_deref(), inv);
        d.fact(FactType::Count, raw(t, row, "option_count").as_deref(), inv);
        d.fact(FactType::Text, raw(t, row, "selected").as_deref(), inv);
        d.fact(FactType::Identifier, raw(t, row, "post_id").as_deref(), inv);
        d.fact(FactType::Identifier, raw(t, row, "user_id").as_deref(), inv);
        for (col, what) in [
            ("created", "MeWe poll posted"),
            ("end_date", "MeWe poll ends"),
        ] {
            let v = raw(t, row, col);
            d.time(v.as_deref(), core_data_encoding(v.as_deref()), what, inv);
        }
        d.interpretation = format!(
            "ZPOLL Z_PK {} of {path}: a MeWe poll in the post {} by the user id {}, {} options (votes {}), the account's choice {}; {}.",
            t.get(row, "pk").unwrap_or("?"),
            t.get(row, "post_id").unwrap_or("?"),
            t.get(row, "user_id").unwrap_or("?"),
            t.get(row, "option_count").unwrap_or("?"),
            t.get(row, "votes").unwrap_or("?"),
            t.get(row, "selected").unwrap_or("(none)"),
            flag(t, row, "closed", "closed"),
        );
        run.record(d)?;
    }
    Ok(())
}

/// Every chat message.
fn messages(
    run: &Run<'_, '_>,
    schema: &Schema,
    find: &Invoked,
    path: &str,
    me: &str,
) -> Result<(), RuntimeError> {
    let cols = schema.columns("ZCHATMESSAGE");
    let m = |col: &str, alias: &str| column_or_null(&cols, "m.", col, alias);
    let threads = schema.columns("ZCHATTHREAD");
    let chat_type = if threads.contains("ZCHATTYPE") && threads.contains("ZTHREADID") {
        "(SELECT t.ZCHATTYPE FROM ZCHATTHREAD t WHERE t.ZTHREADID = m.ZTHREADID LIMIT 1)"
    } else {
        "NULL"
    };
    let att = schema.columns("ZCHATATTACHMENT");
    let attachment = |col: &str, alias: &str| {
        if att.contains(col) && att.contains("ZCHATMESSAGE") {
            format!(
                "(SELECT GROUP_CONCAT(a.{col}, ', ') FROM ZCHATATTACHMENT a WHERE a.ZCHATMESSAGE = m.Z_PK AND a.{col} IS NOT NULL) AS {alias}"
            )
        } else {
            format!("NULL AS {alias}")
        }
    };
    let sql = format!(
        "SELECT m.Z_PK AS pk, m.ZDATE AS date, m.ZTEXT AS text, m.ZSENDER AS sender_id, \
'mewe:' || m.ZSENDER AS sender_account, (SELECT {USER_NAME} FROM ZUSER u WHERE u.ZUSERID = m.ZSENDER LIMIT 1) AS sender, \
m.ZTHREADID AS thread, m.ZMESSAGEID AS message_id, m.ZSENDER = {me} AS from_me, {chat_type} AS chat_type, \
(SELECT GROUP_CONCAT(n, ', ') FROM (SELECT DISTINCT {USER_NAME} AS n FROM ZCHATMESSAGE om JOIN ZUSER u ON u.ZUSERID = om.ZSENDER \
WHERE om.ZTHREADID = m.ZTHREADID AND om.ZSENDER IS NOT {me})) AS conversation, \
(SELECT om.ZSENDER FROM ZCHATMESSAGE om WHERE om.ZTHREADID = m.ZTHREADID AND om.ZSENDER IS NOT {me} LIMIT 1) AS other_id, \
{}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {} FROM ZCHATMESSAGE m",
        m("ZEDITEDDATE", "edited"),
        m("ZORIGINALTEXT", "original"),
        m("ZREPLYMESSAGEID", "reply_to"),
        m("ZDELETEDBYSENDER", "deleted"),
        m("ZDISAPPEARINGTYPE", "disappearing"),
        m("ZEVENTTYPE", "event"),
        m("ZCALLDURATION", "call_duration"),
        m("ZCALLHASVIDEO", "call_video"),
        attachment("ZATYPE", "attachment_type"),
        attachment("ZFILENAME", "attachment_name"),
        attachment("ZURL", "attachment_url"),
        attachment("ZMIMETYPE", "attachment_mime"),
    );
    let Some(paged) = run.paged(path, &sql, "m.Z_PK")? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        let pk = t.get(row, "pk").unwrap_or("?");
        let sent = t.get(row, "from_me") == Some("1");
        let sender = raw(t, row, "sender");
        let sender_id = raw(t, row, "sender_id");
        let conversation = raw(t, row, "conversation").or_else(|| raw(t, row, "thread"));
        let text = raw(t, row, "text");
        let mut d = Draft::new(
            "messages",
            format!(
                "MeWe message {pk} {} {}",
                if sent { "sent to" } else { "from" },
                if sent {
                    conversation.as_deref()
                } else {
                    sender.as_deref().or(sender_id.as_deref())
                }
                .unwrap_or("an unknown user")
            ),
        );
        d.fact(FactType::Path, Some(path), find);
        d.fact(FactType::Name, conversation.as_deref(), inv);
        d.fact(FactType::Identifier, raw(t, row, "thread").as_deref(), inv);
        d.fact(FactType::Text, raw(t, row, "chat_type").as_deref(), inv);
        d.fact(FactType::Name, sender.as_deref(), inv);
        d.fact(FactType::Identifier, sender_id.as_deref(), inv);
        d.fact(
            FactType::Account,
            raw(t, row, "sender_account").as_deref(),
            inv,
        );
        d.fact(FactType::Text, text.as_deref(), inv);
        let location = text.as_deref().and_then(osm_coordinates);
        if let Some((lat, lon)) = location {
            d.fact(FactType::Text, Some(lat), inv);
            d.fact(FactType::Text, Some(lon), inv);
        }
        for c in [
            "attachment_type",
            "attachment_mime",
            "original",
            "disappearing",
            "event",
        ] {
            d.fact(FactType::Text, raw(t, row, c).as_deref(), inv);
        }
        d.fact(
            FactType::Name,
            raw(t, row, "attachment_name").as_deref(),
            inv,
        );
        d.fact(FactType::Url, raw(t, row, "attachment_url").as_deref(), inv);
        d.fact(
            FactType::Identifier,
            raw(t, row, "message_id").as_deref(),
            inv,
        );
        d.fact(
            FactType::Identifier,
            raw(t, row, "reply_to").as_deref(),
            inv,
        );
        let duration = t
            .get(row, "call_duration")
            .filter(|v| v.parse::<f64>().is_ok_and(|n| n != 0.0));
        d.fact(FactType::Count, duration, inv);
        let date = raw(t, row, "date");
        d.time(
            date.as_deref(),
            core_data_encoding(date.as_deref()),
            "MeWe message time",
            inv,
        );
        let edited = raw(t, row, "edited");
        d.time(
            edited.as_deref(),
            core_data_encoding(edited.as_deref()),
            "MeWe message edited",
            inv,
        );
        d.interpretation = format!(
            "ZCHATMESSAGE Z_PK {pk} of {path}: a MeWe chat message {} (sender {}{}) in the {} thread {} ({}){}{}; from me: {}, {}, {}; times are Core Data seconds since the Apple epoch (apple_seconds).",
            if sent {
                "sent by the account holder"
            } else {
                "received"
            },
            sender.as_deref().unwrap_or("?"),
            t.get(row, "sender_id")
                .map(|s| format!(", user id {s}"))
                .unwrap_or_default(),
            t.get(row, "chat_type").unwrap_or("?"),
            t.get(row, "thread").unwrap_or("?"),
            conversation.as_deref().unwrap_or("?"),
            location
                .map(|(lat, lon)| format!(", sharing the location {lat}, {lon}"))
                .unwrap_or_default(),
            t.get(row, "attachment_type")
                .map(|a| format!(", with an attachment ({a})"))
                .unwrap_or_default(),
            if sent { "yes" } else { "no" },
            flag(t, row, "deleted", "deleted by sender"),
            flag(t, row, "call_video", "call has video"),
        );
        run.record(d)?;
        let Some(body) = t.get(row, "text") else {
            continue;
        };
        let other = if sent {
            raw(t, row, "other_id")
                .filter(|_| t.get(row, "chat_type") == Some("UserChat"))
                .map(|o| {
                    (
                        format!("mewe:{o}"),
                        format!(
                            "the MeWe user {}",
                            conversation.as_deref().unwrap_or(o.as_str())
                        ),
                    )
                })
        } else {
            t.get(row, "sender_id").map(|s| {
                (
                    format!("mewe:{s}"),
                    format!("the MeWe user {}", sender.as_deref().unwrap_or(s)),
                )
            })
        };
        run.message_claims(
            inv,
            body,
            &format!("MeWe message {pk} ({})", file_name(path)),
            sent,
            other,
            "ZSENDER is the account holder",
            "ZSENDER is another user",
        )?;
    }
    if paged.truncated {
        summarise(
            run,
            "messages",
            path,
            find,
            "MeWe chat messages",
            SUMMARY_SQL,
            core_data_encoding,
            "First message",
            "Last message",
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(text: &str, expect: Option<(&str, &str)>) {
        assert_eq!(osm_coordinates(text), expect, "{text}");
    }

    #[test]
    fn shared_locations_are_read_from_openstreetmap_links() {
        check(
            "https://www.openstreetmap.org/?mlat=35.6588173&mlon=-78.8756104&zoom=17",
            Some(("35.6588173", "-78.8756104")),
        );
        check("see you at 5", None);
        check("mlat=abc&mlon=1", None);
        check("mlat=1.5", None);
    }
}
