//! Burner on iOS: the Core Data store `Phoenix.sqlite` of its app group
//! (`group.adhoclabs.Burners`), with the fields of iLEAPP's `get_burner_accounts`,
//! `get_burner_numbers`, `get_burner_contacts` and `get_burner_messages`:
//!
//! - one `accounts` phenomenon per `ZUSER` row: created (Core Data seconds), the user's own
//!   phone number and country code, the number of Burner numbers (rented and allowed), their
//!   numbers with names and ids, do-not-disturb, voicemail URL, user id;
//! - one `accounts` per `ZBURNER` row (a Burner number): created, expiry, the number and its
//!   display name, notifications, inbound caller id, in-app (VoIP) calling, auto-reply and its
//!   text, minutes and texts remaining and allotted, the user's phone and id, the Burner id, the
//!   size of its stored profile picture;
//! - one `contacts` per `ZCONTACT` row: number, name, the other numbers with their labels
//!   (`ZCONTACTPHONENUMBER`), notes (`ZCONTACTNOTE`), verified, blocked, muted, image and
//!   thumbnail paths and URLs, contact id;
//! - one `messages` per text and one `calls` per call or voicemail (`ZMESSAGE`, its thread,
//!   contact and Burner joined as iLEAPP joins them, its fallbacks by conversation id or contact
//!   number where those columns exist): sent (Core Data seconds), direction (1 incoming, 2
//!   outgoing), read, the thread (the contact's number and name), sender and recipient, the text
//!   or iLEAPP's words for a call's state, type, local asset and thumbnail paths, media and
//!   voicemail URLs, message, Burner and thread ids.
//!
//! Identities: the user's own number, each Burner number (phones) and the Burner user id
//! (`burner:<id>`, qualified in the query) are the device's user's (`owner`); a contact and the
//! other party of a message are observed by number (the address-book card holding it, else
//! `handle:<number>`); wallet addresses in a text are claims by direction. Another app's
//! `Phoenix.sqlite` (no Burner tables) is passed over. Schema drift: each table is read when it
//! has its key columns, the others where present.

use masf_agents::RuntimeError;
use masf_graph::{EntityKind, FactType, IdType};
use masf_tools::Invoked;

use super::photos::{fields, times};
use super::{Draft, Run, Schema, raw};

/// Triage of every Burner store of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    run.each("Phoenix.sqlite", |find, path| {
        if path.contains("/Containers/Shared/AppGroup/") {
            store(run, find, path)
        } else {
            Ok(())
        }
    })
}

fn store(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let tables = [
        "ZUSER",
        "ZBURNER",
        "ZCONTACT",
        "ZCONTACTPHONENUMBER",
        "ZCONTACTNOTE",
        "ZMESSAGE",
        "ZMESSAGETHREAD",
    ];
    let Some(schema) = run.schema(path, &tables)? else {
        return Ok(());
    };
    let has = |t: &str| !schema.columns(t).is_empty();
    if !has("ZBURNER") {
        if has("ZMESSAGETHREAD") || has("ZUSER") && has("ZMESSAGE") {
            run.ctx.unparsed(
                path,
                "could not parse Burner's Phoenix.sqlite because it has no ZBURNER table",
                None,
            )?;
        }
        // else another app's store of that name
        return Ok(());
    }
    if has("ZUSER") && schema.require(run, "ZUSER", &["Z_PK", "ZPHONENUMBER"])? {
        users(run, find, path, &schema)?;
    }
    if schema.require(run, "ZBURNER", &["Z_PK", "ZPHONENUMBER"])? {
        numbers(run, find, path, &schema)?;
    }
    if has("ZCONTACT") && schema.require(run, "ZCONTACT", &["Z_PK", "ZPHONENUMBER"])? {
        contacts(run, find, path, &schema)?;
    }
    if has("ZMESSAGE")
        && schema.require(run, "ZMESSAGE", &["Z_PK", "ZDATECREATED", "ZDIRECTION"])?
    {
        messages(run, find, path, &schema)?;
    }
    Ok(())
}

/// Observes a number as the device's user's (a value that is no phone is not observed).
fn own_phone(
    run: &Run<'_, '_>,
    number: &str,
    inv: &Invoked,
    what: &str,
) -> Result<(), RuntimeError> {
    run.observe(
        "owner",
        EntityKind::Person,
        "device owner",
        IdType::Phone,
        number,
        inv,
        format!("{number} is {what}, the device's user's."),
    )?;
    Ok(())
}

fn users(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    schema: &Schema,
) -> Result<(), RuntimeError> {
    let u = |x: &str| schema.col("u", "ZUSER", x);
    let b = |x: &str| schema.col("b", "ZBURNER", x);
    let linked = schema.columns("ZBURNER").contains("ZUSER");
    let of_user = |what: String| {
        if linked {
            format!("(SELECT {what} FROM ZBURNER b WHERE b.ZUSER = u.Z_PK)")
        } else {
            "NULL".into()
        }
    };
    let user_id = u("ZUSERID");
    let sql = format!(
        "SELECT u.Z_PK AS pk, u.ZPHONENUMBER AS phone, {} AS created, {} AS country, {} AS allowed, {} AS rented, {} AS numbers, {} AS burner_ids, {} AS dnd, {} AS voicemail, {user_id} AS user_id, \
CASE WHEN {user_id} IS NOT NULL AND {user_id} != '' THEN 'burner:' || {user_id} END AS qualified FROM ZUSER u",
        u("ZDATECREATED"),
        u("ZCOUNTRYCODE"),
        u("ZTOTALNUMBERBURNERS"),
        of_user("count(*)".into()),
        of_user(format!(
            "group_concat(CASE WHEN {n} IS NOT NULL THEN b.ZPHONENUMBER || ' (' || {n} || ')' ELSE b.ZPHONENUMBER END, char(10))",
            n = b("ZNAME")
        )),
        of_user(format!("group_concat({}, char(10))", b("ZBURNERID"))),
        u("ZDNDENABLED"),
        u("ZVOICEMAILURL"),
    );
    let Some(paged) = run.paged(path, &sql, "u.Z_PK")? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        let phone = t
            .get(row, "phone")
            .unwrap_or("(number not stored)")
            .to_string();
        let mut d = Draft::new("accounts", format!("Burner account {phone}"));
        d.fact(FactType::Path, Some(path), find);
        let mut said = fields(
            &mut d,
            t,
            row,
            inv,
            &[
                ("phone", FactType::Phone, "own number"),
                ("country", FactType::Text, "country code"),
                ("rented", FactType::Count, "Burner numbers"),
                ("allowed", FactType::Count, "allowed"),
                ("dnd", FactType::Count, "do-not-disturb"),
                ("voicemail", FactType::Url, "voicemail URL"),
                ("user_id", FactType::Account, "user id"),
            ],
        );
        for line in t.get(row, "numbers").unwrap_or_default().lines() {
            d.fact(FactType::Phone, Some(&crate::outputs::escape(line)), inv);
            said.push(format!("Burner number {line}"));
        }
        for line in t.get(row, "burner_ids").unwrap_or_default().lines() {
            d.fact(
                FactType::Identifier,
                Some(&crate::outputs::escape(line)),
                inv,
            );
        }
        times(
            &mut d,
            t,
            row,
            inv,
            &[("created", "Burner account created")],
        );
        d.interpretation = format!(
            "ZUSER Z_PK {} of {path}: the device's user's Burner account: {}; the creation time is Core Data seconds.",
            t.get(row, "pk").unwrap_or("?"),
            said.join(", ")
        );
        run.record(d)?;
        if let Some(p) = raw(t, row, "phone") {
            own_phone(
                run,
                &p,
                inv,
                "the phone number the Burner account was opened with",
            )?;
        }
        if let Some(q) = raw(t, row, "qualified") {
            run.observe(
                "owner",
                EntityKind::Person,
                "device owner",
                IdType::AccountId,
                &q,
                inv,
                "The Burner user id of the account signed in on the device (ZUSER of Phoenix.sqlite)."
                    .into(),
            )?;
        }
    }
    Ok(())
}

fn numbers(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    schema: &Schema,
) -> Result<(), RuntimeError> {
    let b = |x: &str| schema.col("b", "ZBURNER", x);
    let linked =
        schema.columns("ZBURNER").contains("ZUSER") && schema.columns("ZUSER").contains("Z_PK");
    let user_col = |x: &str| {
        if linked && schema.columns("ZUSER").contains(x) {
            format!("(SELECT u.{x} FROM ZUSER u WHERE u.Z_PK = b.ZUSER)")
        } else {
            "NULL".into()
        }
    };
    let image = if schema.columns("ZBURNER").contains("ZIMAGE") {
        "length(b.ZIMAGE)"
    } else {
        "NULL"
    };
    let sql = format!(
        "SELECT b.Z_PK AS pk, b.ZPHONENUMBER AS number, {} AS name, {} AS created, {} AS expires, {} AS notifications, {} AS caller_id, {} AS voip, {} AS auto_reply, {} AS auto_text, \
{} AS minutes_left, {} AS minutes, {} AS texts_left, {} AS texts, {} AS user_phone, {} AS user_id, {} AS burner_id, {image} AS image_bytes FROM ZBURNER b",
        b("ZNAME"),
        b("ZDATECREATED"),
        b("ZEXPIRATIONDATE"),
        b("ZNOTIFICATIONS"),
        b("ZCALLERIDENABLED"),
        b("ZUSESIP"),
        b("ZAUTOREPLYACTIVE"),
        b("ZAUTOREPLYTEXT"),
        b("ZREMAININGMINUTES"),
        b("ZTOTALMINUTES"),
        b("ZREMAININGTEXTS"),
        b("ZTOTALTEXTS"),
        user_col("ZPHONENUMBER"),
        user_col("ZUSERID"),
        b("ZBURNERID"),
    );
    let Some(paged) = run.paged(path, &sql, "b.Z_PK")? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        let number = t
            .get(row, "number")
            .unwrap_or("(number not stored)")
            .to_string();
        let mut d = Draft::new("accounts", format!("Burner number {number}"));
        d.fact(FactType::Path, Some(path), find);
        let said = fields(
            &mut d,
            t,
            row,
            inv,
            &[
                ("number", FactType::Phone, "number"),
                ("name", FactType::Name, "display name"),
                ("notifications", FactType::Count, "notifications"),
                (
                    "caller_id",
                    FactType::Count,
                    "inbound caller id (0 the Burner number, else the caller's)",
                ),
                (
                    "voip",
                    FactType::Count,
                    "in-app calling (0 standard voice, else VoIP)",
                ),
                ("auto_reply", FactType::Count, "auto-reply active"),
                ("auto_text", FactType::Text, "auto-reply"),
                ("minutes_left", FactType::Count, "minutes left"),
                ("minutes", FactType::Count, "minutes allotted"),
                ("texts_left", FactType::Count, "texts left"),
                ("texts", FactType::Count, "texts allotted"),
                ("user_phone", FactType::Phone, "the user's own number"),
                ("user_id", FactType::Account, "user id"),
                ("burner_id", FactType::Identifier, "Burner id"),
                ("image_bytes", FactType::Count, "profile picture bytes"),
            ],
        );
        times(
            &mut d,
            t,
            row,
            inv,
            &[
                ("created", "Burner number created"),
                ("expires", "Burner number subscription expires"),
            ],
        );
        d.interpretation = format!(
            "ZBURNER Z_PK {} of {path}: a Burner number of the device's user (a second number rented through the app): {}; times are Core Data seconds.",
            t.get(row, "pk").unwrap_or("?"),
            said.join(", ")
        );
        run.record(d)?;
        if let Some(n) = raw(t, row, "number") {
            own_phone(
                run,
                &n,
                inv,
                "a Burner number (a second number rented through the app)",
            )?;
        }
    }
    Ok(())
}

fn contacts(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    schema: &Schema,
) -> Result<(), RuntimeError> {
    let c = |x: &str| schema.col("c", "ZCONTACT", x);
    let pn = schema.columns("ZCONTACTPHONENUMBER");
    let others = if pn.contains("ZCONTACT") && pn.contains("ZPHONENUMBER") {
        let label = schema.col("p", "ZCONTACTPHONENUMBER", "ZPHONENUMBERLABEL");
        format!(
            "(SELECT group_concat(CASE WHEN length({label}) > 0 THEN '(' || {label} || ') ' || p.ZPHONENUMBER ELSE p.ZPHONENUMBER END, char(10)) FROM ZCONTACTPHONENUMBER p WHERE p.ZCONTACT = c.Z_PK)"
        )
    } else {
        "NULL".into()
    };
    let cn = schema.columns("ZCONTACTNOTE");
    let notes = if cn.contains("ZCONTACT") && cn.contains("ZNOTEVALUE") {
        "(SELECT group_concat(coalesce(n.ZNOTEVALUE, ''), char(10)) FROM ZCONTACTNOTE n WHERE n.ZCONTACT = c.Z_PK)"
    } else {
        "NULL"
    };
    // iLEAPP's reading of the image paths: the stored text without its first and last character
    let strip = |x: &str| {
        let v = c(x);
        if v == "NULL" {
            v
        } else {
            format!("substr({v}, 2, length({v}) - 2)")
        }
    };
    let sql = format!(
        "SELECT c.Z_PK AS pk, c.ZPHONENUMBER AS phone, {} AS name, {others} AS others, {notes} AS notes, {} AS verified, {} AS blocked, {} AS muted, {} AS image, {} AS thumbnail, {} AS image_url, {} AS thumbnail_url, {} AS contact_id FROM ZCONTACT c",
        c("ZNAME"),
        c("ZVERIFIED"),
        c("ZBLOCKED"),
        c("ZMUTED"),
        strip("ZIMAGE"),
        strip("ZTHUMBNAIL"),
        c("ZIMAGEURL"),
        c("ZTHUMBNAILURL"),
        c("ZCONTACTID"),
    );
    let Some(paged) = run.paged(path, &sql, "c.Z_PK")? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        let phone = t.get(row, "phone").unwrap_or_default();
        let label = t.get(row, "name").unwrap_or(phone).to_string();
        let mut d = Draft::new("contacts", format!("Burner contact {label}"));
        d.fact(FactType::Path, Some(path), find);
        let mut said = fields(
            &mut d,
            t,
            row,
            inv,
            &[
                ("phone", FactType::Phone, "number"),
                ("name", FactType::Name, "name"),
                ("verified", FactType::Count, "verified"),
                ("blocked", FactType::Count, "blocked"),
                ("muted", FactType::Count, "muted"),
                ("image", FactType::Text, "image"),
                ("thumbnail", FactType::Text, "thumbnail"),
                ("image_url", FactType::Url, "image URL"),
                ("thumbnail_url", FactType::Url, "thumbnail URL"),
                ("contact_id", FactType::Identifier, "contact id"),
            ],
        );
        for (col, ft, what) in [
            ("others", FactType::Phone, "other number"),
            ("notes", FactType::Text, "note"),
        ] {
            for line in t.get(row, col).unwrap_or_default().lines() {
                d.fact(ft, Some(&crate::outputs::escape(line)), inv);
                said.push(format!("{what} {line}"));
            }
        }
        d.interpretation = format!(
            "ZCONTACT Z_PK {} of {path}: a contact of the device's user's Burner numbers: {}.",
            t.get(row, "pk").unwrap_or("?"),
            said.join(", ")
        );
        run.record(d)?;
        if phone.is_empty() {
            continue;
        }
        let what = "a Burner contact (ZCONTACT of Phoenix.sqlite)";
        run.observe_handle(phone, inv, what)?;
        if let (Some(context), Some(name)) = (run.handle_context(phone), raw(t, row, "name")) {
            run.observe(
                &context,
                EntityKind::Person,
                &name,
                IdType::DisplayName,
                &name,
                inv,
                format!("The name Burner keeps for {phone} (ZCONTACT of Phoenix.sqlite)."),
            )?;
        }
    }
    Ok(())
}

fn messages(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    schema: &Schema,
) -> Result<(), RuntimeError> {
    let m = |x: &str| schema.col("M", "ZMESSAGE", x);
    let mcols = schema.columns("ZMESSAGE");
    let mt = schema.columns("ZMESSAGETHREAD");
    let has_b = schema.columns("ZBURNER").contains("ZBURNERID") && mcols.contains("ZBURNERID");
    let has_mt = mt.contains("Z_PK") && mcols.contains("ZMESSAGETHREAD");
    let has_c = has_mt && mt.contains("ZCONTACT");
    // iLEAPP's joins and their fallbacks where the columns exist
    let mut thread_on = "M.ZMESSAGETHREAD = MT.Z_PK".to_string();
    if mcols.contains("ZCONVERSATIONID")
        && mt.contains("ZCONVERSATIONID")
        && mt.contains("ZBURNERID")
    {
        thread_on.push_str(" OR (M.ZMESSAGETHREAD IS NULL AND M.ZBURNERID = MT.ZBURNERID AND M.ZCONVERSATIONID = MT.ZCONVERSATIONID)");
    } else if mcols.contains("ZCONTACTID")
        && mt.contains("ZCONTACTPHONENUMBER")
        && mt.contains("ZBURNERID")
    {
        thread_on.push_str(" OR (M.ZMESSAGETHREAD IS NULL AND M.ZBURNERID = MT.ZBURNERID AND coalesce(M.ZCONTACTID, M.ZCONTACTPHONENUMBER) = MT.ZCONTACTPHONENUMBER)");
    }
    let mut contact_on = "MT.ZCONTACT = C.Z_PK".to_string();
    if mcols.contains("ZCONTACTID") && mcols.contains("ZCONTACTPHONENUMBER") {
        contact_on.push_str(" OR (MT.ZCONTACT IS NULL AND coalesce(M.ZCONTACTID, M.ZCONTACTPHONENUMBER) = C.ZPHONENUMBER)");
    }
    let mut joins = String::new();
    if has_b {
        joins.push_str(" LEFT JOIN ZBURNER B ON M.ZBURNERID = B.ZBURNERID");
    }
    if has_mt {
        joins.push_str(&format!(" LEFT JOIN ZMESSAGETHREAD MT ON ({thread_on})"));
    }
    if has_c {
        joins.push_str(&format!(" LEFT JOIN ZCONTACT C ON ({contact_on})"));
    }
    let b = |x: &str| {
        if has_b {
            schema.col("B", "ZBURNER", x)
        } else {
            "NULL".into()
        }
    };
    let c = |x: &str| {
        if has_c {
            schema.col("C", "ZCONTACT", x)
        } else {
            "NULL".into()
        }
    };
    let (state, kind, body, asset) = (m("ZSTATE"), m("ZTYPE"), m("ZBODY"), m("ZASSETURL"));
    let contact_phone = format!(
        "coalesce({}, {})",
        c("ZPHONENUMBER"),
        m("ZCONTACTPHONENUMBER")
    );
    let sql = format!(
        "SELECT * FROM (SELECT M.Z_PK AS pk, M.ZDATECREATED AS created, M.ZDIRECTION AS direction, {} AS read, {contact_phone} AS contact_phone, {} AS contact_name, {} AS burner_number, {} AS burner_name, \
CASE WHEN M.ZDIRECTION = 1 AND {state} = 3 THEN 'Completed incoming call' WHEN M.ZDIRECTION = 2 AND {state} = 3 THEN 'Completed outgoing call' WHEN M.ZDIRECTION = 1 AND {state} = 4 THEN 'Missed incoming call' \
WHEN M.ZDIRECTION = 2 AND {state} = 4 THEN 'Missed outgoing call' WHEN M.ZDIRECTION = 1 AND {state} = 5 THEN 'Missed incoming call with voicemail' WHEN M.ZDIRECTION = 2 AND {state} = 5 THEN 'Missed outgoing call with voicemail' END AS call_state, \
{body} AS body, {state} AS state, {kind} AS type, CASE WHEN {kind} = 1 AND {state} IN (3, 4) THEN 'Call' WHEN {kind} = 1 AND {state} = 5 THEN 'Voicemail' WHEN {kind} = 2 AND {asset} IS NULL THEN 'Text' WHEN {kind} = 2 THEN 'Picture' END AS type_name, \
{} AS local_asset, {} AS local_thumbnail, {asset} AS media_url, {} AS voicemail_url, {} AS message_id, {} AS burner_id, {} AS thread_id FROM ZMESSAGE M{joins})",
        m("ZREAD"),
        c("ZNAME"),
        b("ZPHONENUMBER"),
        b("ZNAME"),
        m("ZLOCALASSETURL"),
        m("ZLOCALTHUMBNAILURL"),
        m("ZVOICEMAILURL"),
        m("ZMESSAGEID"),
        m("ZBURNERID"),
        if has_mt {
            schema.col("MT", "ZMESSAGETHREAD", "ZMESSAGETHREADID")
        } else {
            "NULL".into()
        },
    );
    let Some(paged) = run.paged(path, &sql, "pk")? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        let pk = t.get(row, "pk").unwrap_or("?");
        let sent = match t.get(row, "direction") {
            Some("2") => Some(true),
            Some("1") => Some(false),
            _ => None,
        };
        let call = t.get(row, "type") == Some("1");
        let other = t.get(row, "contact_phone");
        let with = t
            .get(row, "contact_name")
            .or(other)
            .unwrap_or("an unknown party")
            .to_string();
        let what = if call { "call" } else { "text" };
        let mut d = Draft::new(
            if call { "calls" } else { "messages" },
            match sent {
                Some(true) => format!("Burner {what} to {with}"),
                Some(false) => format!("Burner {what} from {with}"),
                None => format!("Burner {what} with {with}"),
            },
        );
        d.fact(FactType::Path, Some(path), find);
        let said = fields(
            &mut d,
            t,
            row,
            inv,
            &[
                ("contact_phone", FactType::Phone, "other party"),
                ("contact_name", FactType::Name, "other party's name"),
                ("burner_number", FactType::Phone, "Burner number"),
                ("burner_name", FactType::Name, "Burner number's name"),
                ("direction", FactType::Count, "direction"),
                ("read", FactType::Count, "read"),
                ("body", FactType::Text, "text"),
                ("call_state", FactType::Text, "call"),
                ("type_name", FactType::Text, "type"),
                ("local_asset", FactType::Text, "local asset"),
                ("local_thumbnail", FactType::Text, "local thumbnail"),
                ("media_url", FactType::Url, "media URL"),
                ("voicemail_url", FactType::Url, "voicemail URL"),
                ("message_id", FactType::Identifier, "message id"),
                ("burner_id", FactType::Identifier, "Burner id"),
                ("thread_id", FactType::Identifier, "thread id"),
            ],
        );
        let created = raw(t, row, "created");
        let enc = super::core_data_encoding(created.as_deref());
        match sent {
            Some(s) if !call => d.message_time(created.as_deref(), enc, s, inv),
            _ => d.time(created.as_deref(), enc, "Burner call", inv),
        };
        d.interpretation = format!(
            "ZMESSAGE Z_PK {pk} of {path}: a {what} on the device's user's Burner number, {} {with} (ZDIRECTION {}: 1 incoming, 2 outgoing): {}; the time is Core Data seconds.",
            match sent {
                Some(true) => "to",
                Some(false) => "from",
                None => "with",
            },
            t.get(row, "direction").unwrap_or("?"),
            said.join(", ")
        );
        run.record(d)?;
        let Some(other) = other else {
            continue;
        };
        let about = format!("a Burner {what} (ZMESSAGE Z_PK {pk} of Phoenix.sqlite)");
        run.observe_handle(other, inv, &about)?;
        if let (Some(text), Some(s), false) = (t.get(row, "body"), sent, call) {
            let party = run.handle_context(other).map(|c| (c, with.clone()));
            run.message_claims(inv, text, &about, s, party, "ZDIRECTION 2", "ZDIRECTION 1")?;
        }
    }
    Ok(())
}
