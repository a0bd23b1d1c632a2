//! Zangi on iOS: its Core Data store `zangidb*.sqlite` in the app group, with the fields of
//! iLEAPP's `zangi_messages`, `zangi_contacts`, `zangi_accounts` and the older
//! `get_zangichats`:
//!
//! | table | phenomenon | fields |
//! |---|---|---|
//! | `ZZANGIMESSAGE` | one `messages` per message | time (Core Data seconds), direction (`ZISRECEIVED`), text, type in iLEAPP's words, message id, the conversation's id, kind (direct or group) and name, the sender's name and number, media path and extension, message info |
//! | `ZCONTACT` with its numbers | one `contacts` per contact number | modified (Core Data seconds), last activity (Unix seconds), first, last and display name, number, e-mail, registration type, contact id, blocked, favourite |
//! | `ZUSER` | one `accounts` per account | Zangi number, nickname, first and last name, e-mail, status, registration status, country, last status sync (Unix seconds); whether a passcode, password, PIN or conversation-hiding PIN is stored (said, never copied) |
//!
//! The sender and chat are found through `ZCONTACTNUMBER` and the contact-to-number join
//! table (its name, `Z_<n>CONTACTNUMBER`, read from the schema), or, in the older layout,
//! through `ZZNUMBER` (`ZCONTACTNUMBEROBJECT`, `ZIDENTIFIRE`).
//!
//! Identities: the account's number is the device's user's (`owner`, `zangi:<number>`, with
//! its names and e-mail); a sender or contact number is `zangi:<number>` (computed in the
//! query), the id Android's Zangi keeps, and a person by it when it is a phone number; wallet
//! addresses in a message are claims by direction.

use masf_agents::RuntimeError;
use masf_graph::{FactType, IdType};
use masf_tools::Invoked;

use super::photos::fields;
use super::{Draft, Run, Schema, core_data_encoding, raw};
use crate::drafts::unix_seconds;

/// Triage of every Zangi store of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    run.each("zangidb*.sqlite", |find, path| {
        if path.contains("/Containers/Shared/AppGroup/") {
            store(run, find, path)
        } else {
            Ok(())
        }
    })
}

const TABLES: [&str; 9] = [
    "ZZANGIMESSAGE",
    "ZCONVERSATION",
    "ZGROUP",
    "ZGROUPPROFILE",
    "ZCONTACTNUMBER",
    "ZCONTACT",
    "ZZNUMBER",
    "ZUSER",
    "ZCONTACTNUMBERTYPE",
];

/// The contact-to-number join table and its two columns (`Z_4CONTACTNUMBER`, `Z_4CONTACT`,
/// `Z_5CONTACTNUMBER` in the versions iLEAPP read; the numbers follow the entities' order).
fn link_table(
    run: &Run<'_, '_>,
    path: &str,
) -> Result<Option<(String, String, String)>, RuntimeError> {
    let sql = "SELECT m.name AS tbl, p.name AS col FROM sqlite_master m JOIN pragma_table_info(m.name) p WHERE m.type = 'table' AND m.name GLOB 'Z_[0-9]*CONTACTNUMBER*' ORDER BY m.name, p.cid";
    let Some((_, t)) = run.query(path, sql, 1000)? else {
        return Ok(None);
    };
    for (table, cols) in crate::outputs::columns_by_table(&t) {
        let numbered = |c: &str, stem: &str| {
            c.strip_prefix("Z_")
                .and_then(|x| x.strip_suffix(stem))
                .is_some_and(|d| d.bytes().all(|b| b.is_ascii_digit()))
        };
        let contact = cols.iter().find(|c| numbered(c, "CONTACT"));
        let number = cols
            .iter()
            .find(|c| numbered(c, "CONTACTNUMBER") || numbered(c, "CONTACTNUMBERS"));
        if let (Some(c), Some(n)) = (contact, number) {
            return Ok(Some((table, c.clone(), n.clone())));
        }
    }
    Ok(None)
}

fn store(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let Some(schema) = run.schema(path, &TABLES)? else {
        return Ok(());
    };
    if ["ZZANGIMESSAGE", "ZCONTACT", "ZUSER"]
        .iter()
        .all(|t| schema.columns(t).is_empty())
    {
        run.ctx.unparsed(
            path,
            "could not parse Zangi's store because it has none of the tables ZZANGIMESSAGE, ZCONTACT, ZUSER",
            None,
        )?;
        return Ok(());
    }
    let link = if schema.columns("ZCONTACTNUMBER").contains("Z_PK") {
        link_table(run, path)?
    } else {
        None
    };
    if !schema.columns("ZUSER").is_empty() && schema.require(run, "ZUSER", &["Z_PK"])? {
        accounts(run, find, path, &schema)?;
    }
    if !schema.columns("ZCONTACT").is_empty() && schema.require(run, "ZCONTACT", &["Z_PK"])? {
        contacts(run, find, path, &schema, link.as_ref())?;
    }
    if !schema.columns("ZZANGIMESSAGE").is_empty()
        && schema.require(run, "ZZANGIMESSAGE", &["Z_PK", "ZMESSAGETIME"])?
    {
        messages(run, find, path, &schema, link.as_ref())?;
    }
    Ok(())
}

fn file_name(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

/// `'zangi:' || <number>` when the number is not empty.
fn qualified(number: &str) -> String {
    format!("CASE WHEN {number} IS NOT NULL AND {number} != '' THEN 'zangi:' || {number} END")
}

fn accounts(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    schema: &Schema,
) -> Result<(), RuntimeError> {
    let u = |c: &str| schema.col("u", "ZUSER", c);
    let secrets: Vec<String> = [
        ("ZNEWPASSCODE", "passcode"),
        ("ZPASSWORD", "password"),
        ("ZPINCODE", "PIN"),
        ("ZSHAREDHIDECONVERSATIONPIN", "conversation-hiding PIN"),
    ]
    .iter()
    .filter(|(c, _)| schema.columns("ZUSER").contains(*c))
    .map(|(c, w)| format!("CASE WHEN u.{c} IS NOT NULL AND u.{c} != '' THEN '{w}' END"))
    .collect();
    let secrets = if secrets.is_empty() {
        "NULL".to_string()
    } else {
        // only which secrets are stored, never their values
        format!(
            "NULLIF(rtrim({}, ', '), '')",
            secrets
                .iter()
                .map(|s| format!("COALESCE({s} || ', ', '')"))
                .collect::<Vec<_>>()
                .join(" || ")
        )
    };
    let sql = format!(
        "SELECT * FROM (SELECT u.Z_PK AS pk, {} AS number, {} AS qualified, {} AS nickname, {} AS first, {} AS last, {} AS email, {} AS status, {} AS registration, {} AS country, {} AS synced, {secrets} AS secrets FROM ZUSER u)",
        u("ZNUMBER"),
        qualified(&u("ZNUMBER")),
        u("ZNICKNAME"),
        u("ZNAME"),
        u("ZLASTNAME"),
        u("ZUSEREMAIL"),
        u("ZSTATUS"),
        u("ZUSERREGSTATUS"),
        u("ZCOUNTRY"),
        u("ZSTATUSLASTSYNCTIME"),
    );
    let Some(paged) = run.paged(path, &sql, "pk")? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        let who = t
            .get(row, "nickname")
            .or(t.get(row, "number"))
            .unwrap_or("not named")
            .to_string();
        let mut d = Draft::new("accounts", format!("Zangi account {who}"));
        d.fact(FactType::Path, Some(path), find);
        let said = fields(
            &mut d,
            t,
            row,
            inv,
            &[
                ("number", FactType::Account, "Zangi number"),
                ("nickname", FactType::Name, "nickname"),
                ("first", FactType::Name, "first name"),
                ("last", FactType::Name, "last name"),
                ("email", FactType::Email, "e-mail"),
                ("status", FactType::Count, "status"),
                ("registration", FactType::Count, "registration status"),
                ("country", FactType::Text, "country"),
                ("secrets", FactType::Text, "stored secrets"),
            ],
        );
        let synced = t.get(row, "synced");
        d.time(
            synced,
            unix_seconds(synced),
            "Zangi status last synced",
            inv,
        );
        d.interpretation = format!(
            "ZUSER Z_PK {} of {}: the Zangi account of the device's user: {}; the last status sync is Unix seconds{}.",
            t.get(row, "pk").unwrap_or("?"),
            file_name(path),
            said.join(", "),
            if t.get(row, "secrets").is_some() {
                "; the stored secrets are named, their values not copied"
            } else {
                ""
            },
        );
        run.record(d)?;
        crate::identity::observe_columns(
            run.ctx,
            "owner",
            "device owner",
            t,
            row,
            inv,
            &[
                ("qualified", IdType::AccountId, "The Zangi number"),
                ("nickname", IdType::DisplayName, "The nickname"),
                ("email", IdType::Email, "The e-mail address"),
            ],
            &|what| {
                format!(
                    "{what} of the Zangi account of the device's user (ZUSER of {}).",
                    file_name(path)
                )
            },
        )?;
    }
    Ok(())
}

/// The SQL of a contact's name (display name, else first and last) of `ZCONTACT` aliased `c`.
fn contact_name(c: &str, schema: &Schema) -> String {
    let col = |x: &str| schema.col(c, "ZCONTACT", x);
    format!(
        "COALESCE(NULLIF(TRIM({}), ''), NULLIF(TRIM(COALESCE({}, '') || ' ' || COALESCE({}, '')), ''))",
        col("ZDISPLAYNAME"),
        col("ZFIRSTNAME"),
        col("ZLASTNAME"),
    )
}

fn contacts(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    schema: &Schema,
    link: Option<&(String, String, String)>,
) -> Result<(), RuntimeError> {
    let c = |x: &str| schema.col("c", "ZCONTACT", x);
    let n = |x: &str| schema.col("n", "ZCONTACTNUMBER", x);
    let (join, key) = match link {
        Some((table, contact, number)) => (
            format!(
                "LEFT JOIN {table} l ON l.{contact} = c.Z_PK LEFT JOIN ZCONTACTNUMBER n ON n.Z_PK = l.{number}"
            ),
            "c.Z_PK * 100000 + COALESCE(n.Z_PK, 0)",
        ),
        None => (
            "LEFT JOIN ZCONTACTNUMBER n ON 0".to_string(),
            "c.Z_PK * 100000",
        ),
    };
    // the registration type as iLEAPP joins it (on the contact's Z_PK)
    let kind = if schema.columns("ZCONTACTNUMBERTYPE").contains("ZNAME") {
        "(SELECT k.ZNAME FROM ZCONTACTNUMBERTYPE k WHERE k.Z_PK = c.Z_PK)"
    } else {
        "NULL"
    };
    let sql = format!(
        "SELECT * FROM (SELECT {key} AS k, c.Z_PK AS pk, {} AS modified, {} AS active, {} AS first, {} AS last, {} AS display, {} AS number, {} AS qualified, {} AS email, {kind} AS kind, {} AS contact_id, {} AS blocked, {} AS favourite FROM ZCONTACT c {join})",
        c("ZMODIFICATIONDATE"),
        n("ZLASTACTIVITY"),
        c("ZFIRSTNAME"),
        c("ZLASTNAME"),
        c("ZDISPLAYNAME"),
        n("ZFULLNUMBER"),
        qualified(&n("ZFULLNUMBER")),
        n("ZEMAIL"),
        c("ZIDENTIFIRE"),
        c("ZISBLOCKED"),
        n("ZISFAVORITE"),
    );
    let Some(paged) = run.paged(path, &sql, "k")? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        let who = t
            .get(row, "display")
            .or(t.get(row, "first"))
            .or(t.get(row, "number"))
            .unwrap_or("not named")
            .to_string();
        let mut d = Draft::new("contacts", format!("Zangi contact {who}"));
        d.fact(FactType::Path, Some(path), find);
        let said = fields(
            &mut d,
            t,
            row,
            inv,
            &[
                ("first", FactType::Name, "first name"),
                ("last", FactType::Name, "last name"),
                ("display", FactType::Name, "display name"),
                ("number", FactType::Account, "number"),
                ("email", FactType::Email, "e-mail"),
                ("kind", FactType::Text, "registration type"),
                ("contact_id", FactType::Identifier, "contact id"),
                ("blocked", FactType::Count, "blocked"),
                ("favourite", FactType::Count, "favourite"),
            ],
        );
        let modified = raw(t, row, "modified");
        d.time(
            modified.as_deref(),
            core_data_encoding(modified.as_deref()),
            "Zangi contact modified",
            inv,
        );
        let active = t.get(row, "active");
        d.time(
            active,
            unix_seconds(active),
            "Zangi contact last active",
            inv,
        );
        d.interpretation = format!(
            "ZCONTACT Z_PK {} of {}: a contact in Zangi: {}; modified is Core Data seconds, last activity Unix seconds.",
            t.get(row, "pk").unwrap_or("?"),
            file_name(path),
            said.join(", ")
        );
        run.record(d)?;
        let Some(q) = t.get(row, "qualified") else {
            continue;
        };
        crate::identity::observe_columns(
            run.ctx,
            q,
            &who,
            t,
            row,
            inv,
            &[
                ("qualified", IdType::AccountId, "The Zangi number"),
                ("display", IdType::DisplayName, "The name"),
                ("email", IdType::Email, "The e-mail address"),
            ],
            &|what| {
                format!(
                    "{what} of {who}, a Zangi contact (ZCONTACT of {}).",
                    file_name(path)
                )
            },
        )?;
        if let Some(num) = t.get(row, "number") {
            run.observe_handle(num, inv, &format!("a Zangi contact ({who})"))?;
        }
    }
    Ok(())
}

/// iLEAPP's words for `ZZANGIMESSAGE.ZTYPE`.
const TYPES: [(&str, &str); 11] = [
    ("0", "Text"),
    ("1", "Image/Media"),
    ("2", "Video"),
    ("3", "Location"),
    ("4", "Voice note"),
    ("8", "Link/Share"),
    ("9", "File/Document"),
    ("101", "System message"),
    ("115", "Group event"),
    ("160", "Call start"),
    ("175", "Call end"),
];

fn messages(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    schema: &Schema,
    link: Option<&(String, String, String)>,
) -> Result<(), RuntimeError> {
    let m = |x: &str| schema.col("zm", "ZZANGIMESSAGE", x);
    let mcols = schema.columns("ZZANGIMESSAGE");
    let has = |t: &str, c: &str| schema.columns(t).contains(c);
    // the sender and the chat's member: a number, and its contact's name, first and last name
    let none = || -> [String; 4] { ["NULL".into(), "NULL".into(), "NULL".into(), "NULL".into()] };
    let number_of = |fk: &str| -> [String; 4] {
        let names = |from: &str| -> [String; 3] {
            [
                contact_name("x", schema),
                schema.col("x", "ZCONTACT", "ZFIRSTNAME"),
                schema.col("x", "ZCONTACT", "ZLASTNAME"),
            ]
            .map(|e| format!("(SELECT {e} {from} LIMIT 1)"))
        };
        if has("ZCONTACTNUMBER", "Z_PK") && has("ZCONTACTNUMBER", "ZFULLNUMBER") {
            let [name, first, last] = match link {
                Some((table, contact, number)) if has("ZCONTACT", "Z_PK") => names(&format!(
                    "FROM {table} l JOIN ZCONTACT x ON x.Z_PK = l.{contact} WHERE l.{number} = {fk}"
                )),
                _ => ["NULL".into(), "NULL".into(), "NULL".into()],
            };
            [
                format!("(SELECT cn.ZFULLNUMBER FROM ZCONTACTNUMBER cn WHERE cn.Z_PK = {fk})"),
                name,
                first,
                last,
            ]
        } else if has("ZZNUMBER", "ZCONTACTNUMBEROBJECT") && has("ZZNUMBER", "ZNUMBER") {
            let [name, first, last] = if has("ZZNUMBER", "ZIDENTIFIRE")
                && has("ZCONTACT", "ZIDENTIFIRE")
            {
                names(&format!(
                    "FROM ZZNUMBER zn JOIN ZCONTACT x ON x.ZIDENTIFIRE = zn.ZIDENTIFIRE WHERE zn.ZCONTACTNUMBEROBJECT = {fk}"
                ))
            } else {
                ["NULL".into(), "NULL".into(), "NULL".into()]
            };
            [
                format!(
                    "(SELECT zn.ZNUMBER FROM ZZNUMBER zn WHERE zn.ZCONTACTNUMBEROBJECT = {fk} LIMIT 1)"
                ),
                name,
                first,
                last,
            ]
        } else {
            none()
        }
    };
    let [from_number, from_name, from_first, from_last] = if mcols.contains("ZFROM") {
        number_of("zm.ZFROM")
    } else {
        none()
    };
    let conv = mcols.contains("ZCONVERSATION") && has("ZCONVERSATION", "Z_PK");
    let cv = |x: &str| {
        if conv {
            schema.col("cnv", "ZCONVERSATION", x)
        } else {
            "NULL".into()
        }
    };
    let [chat_number, chat_name, _, _] = if conv && has("ZCONVERSATION", "ZMEMBER") {
        number_of("cnv.ZMEMBER")
    } else {
        none()
    };
    let group = has("ZGROUP", "ZCONVERSATION") && conv;
    let grp = |x: &str| {
        if group && has("ZGROUP", x) {
            format!("(SELECT g.{x} FROM ZGROUP g WHERE g.ZCONVERSATION = cnv.Z_PK LIMIT 1)")
        } else {
            "NULL".into()
        }
    };
    let group_name = if group
        && has("ZGROUP", "Z_PK")
        && has("ZGROUPPROFILE", "ZGROUP")
        && has("ZGROUPPROFILE", "ZNAME")
    {
        "(SELECT NULLIF(TRIM(p.ZNAME), '') FROM ZGROUP g JOIN ZGROUPPROFILE p ON p.ZGROUP = g.Z_PK WHERE g.ZCONVERSATION = cnv.Z_PK LIMIT 1)".to_string()
    } else {
        "NULL".into()
    };
    let kind = if group {
        "CASE WHEN EXISTS (SELECT 1 FROM ZGROUP g WHERE g.ZCONVERSATION = cnv.Z_PK) THEN 'Group' ELSE 'Direct' END".to_string()
    } else {
        "NULL".into()
    };
    let words: String = TYPES
        .iter()
        .map(|(k, w)| format!(" WHEN {k} THEN '{w}'"))
        .collect();
    let media = format!(
        "COALESCE(NULLIF({}, ''), NULLIF({}, ''), NULLIF({}, ''))",
        m("ZFILEREMOTEPATH"),
        m("ZMEDIAASSETSLIBRARYURL"),
        m("ZENCRYPTFILEREMOTEPATH")
    );
    let conv_join = if conv {
        "LEFT JOIN ZCONVERSATION cnv ON cnv.Z_PK = zm.ZCONVERSATION"
    } else {
        ""
    };
    let ztype = m("ZTYPE");
    let sql = format!(
        "SELECT * FROM (SELECT q.*, {} AS from_id FROM (SELECT zm.Z_PK AS pk, zm.ZMESSAGETIME AS at, {} AS received, {} AS text, CASE WHEN {ztype} IS NULL THEN NULL ELSE CASE {ztype}{words} ELSE 'Other/Unknown' END END AS type, {ztype} AS type_code, {} AS message_id, COALESCE(NULLIF({}, ''), NULLIF({}, ''), CAST({} AS TEXT)) AS conversation, {kind} AS kind, COALESCE({group_name}, NULLIF(TRIM({}), ''), {chat_name}, {chat_number}) AS chat, {from_name} AS from_name, {from_first} AS from_first, {from_last} AS from_last, {from_number} AS from_number, {media} AS media, {} AS extension, {} AS info FROM ZZANGIMESSAGE zm {conv_join}) q)",
        qualified("q.from_number"),
        m("ZISRECEIVED"),
        m("ZMESSAGE"),
        m("ZMESSAGEID"),
        grp("ZUID"),
        cv("ZGROUPUID"),
        cv("ZUID"),
        cv("ZGROUPNAME"),
        m("ZFILEEXTENSION"),
        m("ZMESSAGEINFO"),
    );
    let Some(paged) = run.paged(path, &sql, "pk")? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        let pk = t.get(row, "pk").unwrap_or("?");
        let sent = t.get(row, "received") == Some("0");
        let from = t
            .get(row, "from_name")
            .or(t.get(row, "from_number"))
            .unwrap_or("a sender not stored")
            .to_string();
        let chat = t
            .get(row, "chat")
            .map(|c| format!(" in {c}"))
            .unwrap_or_default();
        let mut d = Draft::new(
            "messages",
            if sent {
                format!("Zangi message sent{chat}")
            } else {
                format!("Zangi message from {from}{chat}")
            },
        );
        d.fact(FactType::Path, Some(path), find);
        let said = fields(
            &mut d,
            t,
            row,
            inv,
            &[
                ("text", FactType::Text, "text"),
                ("type", FactType::Text, "type"),
                ("type_code", FactType::Count, "type code"),
                ("message_id", FactType::Identifier, "message id"),
                ("conversation", FactType::Identifier, "conversation"),
                ("kind", FactType::Text, "conversation type"),
                ("chat", FactType::Name, "chat"),
                ("from_name", FactType::Name, "sender"),
                ("from_first", FactType::Name, "sender's first name"),
                ("from_last", FactType::Name, "sender's last name"),
                ("from_number", FactType::Account, "sender's number"),
                ("media", FactType::Text, "media path"),
                ("extension", FactType::Text, "media extension"),
                ("info", FactType::Text, "message info"),
            ],
        );
        let at = raw(t, row, "at");
        d.message_time(at.as_deref(), core_data_encoding(at.as_deref()), sent, inv);
        d.interpretation = format!(
            "ZZANGIMESSAGE Z_PK {pk} of {}: a Zangi message {} (ZISRECEIVED {}): {}; the time is Core Data seconds.",
            file_name(path),
            if sent {
                "sent by the device's user".to_string()
            } else {
                format!("from {from}")
            },
            t.get(row, "received").unwrap_or("not stored"),
            said.join(", ")
        );
        run.record(d)?;
        let other = match (sent, t.get(row, "from_id")) {
            (false, Some(id)) => {
                crate::identity::observe_columns(
                    run.ctx,
                    id,
                    &from,
                    t,
                    row,
                    inv,
                    &[
                        ("from_id", IdType::AccountId, "The Zangi number"),
                        ("from_name", IdType::DisplayName, "The name"),
                    ],
                    &|what| {
                        format!(
                            "{what} of {from}, who sent a Zangi message (ZZANGIMESSAGE Z_PK {pk})."
                        )
                    },
                )?;
                Some((id.to_string(), from.clone()))
            }
            _ => None,
        };
        if let Some(text) = t.get(row, "text") {
            run.message_claims(
                inv,
                text,
                &format!(
                    "a Zangi message (ZZANGIMESSAGE Z_PK {pk} of {})",
                    file_name(path)
                ),
                sent,
                other,
                "ZISRECEIVED 0",
                "ZISRECEIVED 1",
            )?;
        }
    }
    Ok(())
}
