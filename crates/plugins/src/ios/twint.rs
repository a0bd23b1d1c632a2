//! TWINT (`Library/Application Support/Twint.sqlite` of the app's container, a Core Data store),
//! iLEAPP's `twint`: the Swiss payment app's transactions, to shops and between people.
//!
//! | table | phenomenon | fields |
//! |---|---|---|
//! | `ZTRANSACTION` | one `transactions` per transaction ("TWINT payment <amount> <currency> to <merchant>", "TWINT transfer <amount> <currency> from <sender> to <recipient>") | created, modified, second phase, pending until (Cocoa seconds); the merchant and its branch; the sender's number and message, the recipient's number and name, the reply; authorised, paid and requested amounts, discount, currency; content reference, order link, picture attached, order state, order type, side (as stored), merchant confirmation |
//!
//! A transfer's sender or recipient is the device's user (which one the side says, as
//! stored: iLEAPP reports it as the direction without reading it). Columns are taken by name
//! (absent ones NULL: older tables lack the reply, discount, pending date, order link); a
//! `Twint.sqlite` whose `ZTRANSACTION` lacks `ZCREATIONDATE` is noted.
//!
//! Identities: the sender's and the recipient's numbers are each observed as a person
//! (`handle:<normalised>`, or the address-book card holding it, as `sms.db`'s handles), the
//! recipient with the name TWINT shows; one of the two is the device user's own number, which
//! then meets `owner` by that number.

use masf_agents::RuntimeError;
use masf_graph::{EntityKind, FactType, IdType};
use masf_tools::Invoked;

use super::{Draft, Run, file_name};
use crate::calls::select_columns;
use crate::drafts::apple_seconds;
use crate::outputs::raw;

const TRANSACTION: &str = "ZTRANSACTION";

/// The columns read: `(column, alias)`.
const COLUMNS: [(&str, &str); 22] = [
    ("ZMODIFIEDTIMESTAMP", "modified"),
    ("ZSECONDPHASETIMESTAMP", "second_phase"),
    ("ZSTATUSPENDINGUNTILDATE", "pending_until"),
    ("ZMERCHANTBRANCHNAME", "merchant_branch"),
    ("ZMERCHANTNAME", "merchant"),
    ("ZP2PSENDERMOBILENR", "sender_phone"),
    ("ZP2PINITIATEMESSAGE", "sender_message"),
    ("ZP2PRECIPIENTMOBILENR", "recipient_phone"),
    ("ZP2PRECIPIENTNAME", "recipient_name"),
    ("ZP2PREPLYMESSAGE", "reply_message"),
    ("ZAUTHORIZEDAMOUNT", "authorized"),
    ("ZPAIDAMOUNT", "paid"),
    ("ZREQUESTEDAMOUNT", "requested"),
    ("ZDISCOUNT", "discount"),
    ("ZCURRENCY", "currency"),
    ("ZCONTENTREFERENCE", "content_reference"),
    ("ZORDERLINK", "order_link"),
    ("ZP2PHASPICTURE", "has_picture"),
    ("ZORDERSTATEVALUE", "state"),
    ("ZORDERTYPEVALUE", "order_type"),
    ("ZTRANSACTIONSIDEVALUE", "side"),
    ("ZMERCHANTCONFIRMATION", "merchant_confirmation"),
];

/// Triage of every TWINT store of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    let Some((find, paths)) = run.find("Twint.sqlite")? else {
        return Ok(());
    };
    for path in &paths {
        let Some(schema) = run.schema(path, &[TRANSACTION])? else {
            continue;
        };
        if !schema.require(run, TRANSACTION, &["ZCREATIONDATE"])? {
            continue;
        }
        let sql = format!(
            "SELECT t.Z_PK AS pk, t.ZCREATIONDATE AS created, {} FROM {TRANSACTION} t",
            select_columns(&schema.columns(TRANSACTION), "t.", &COLUMNS),
        );
        let Some(paged) = run.paged(path, &sql, "pk")? else {
            continue;
        };
        for (inv, t, row) in paged.rows() {
            one(run, &find, path, inv, t, row)?;
        }
        crate::calls::note_pages_cap(run.ctx, path, &paged, "TWINT transactions")?;
    }
    Ok(())
}

fn one(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    inv: &Invoked,
    t: &crate::outputs::Table,
    row: &[Option<String>],
) -> Result<(), RuntimeError> {
    let get = |c: &str| raw(t, row, c).filter(|v| !v.is_empty());
    let amount = get("paid")
        .or_else(|| get("authorized"))
        .or_else(|| get("requested"))
        .map(|a| {
            format!(
                " {a}{}",
                get("currency").map(|c| format!(" {c}")).unwrap_or_default()
            )
        })
        .unwrap_or_default();
    let (sender, recipient) = (get("sender_phone"), get("recipient_phone"));
    let recipient_name = get("recipient_name");
    let title = match (get("merchant"), &sender, &recipient) {
        (Some(m), _, _) => format!("TWINT payment{amount} to {m}"),
        (None, None, None) => format!("TWINT transaction{amount}"),
        (None, s, r) => format!(
            "TWINT transfer{amount} from {} to {}",
            s.as_deref().unwrap_or("an unrecorded sender"),
            recipient_name
                .as_deref()
                .or(r.as_deref())
                .unwrap_or("an unrecorded recipient"),
        ),
    };
    let mut d = Draft::new("transactions", title);
    d.fact(FactType::Path, Some(path), find);
    let said = d.fields(
        t,
        row,
        inv,
        &[
            ("merchant", FactType::Name, "merchant"),
            ("merchant_branch", FactType::Name, "branch"),
            ("sender_phone", FactType::Phone, "sender"),
            ("sender_message", FactType::Text, "sender's message"),
            ("recipient_phone", FactType::Phone, "recipient"),
            ("recipient_name", FactType::Name, "recipient's name"),
            ("reply_message", FactType::Text, "reply"),
            ("authorized", FactType::Amount, "authorised"),
            ("paid", FactType::Amount, "paid"),
            ("requested", FactType::Amount, "requested"),
            ("discount", FactType::Amount, "discount"),
            ("currency", FactType::Text, "currency"),
            (
                "content_reference",
                FactType::Identifier,
                "content reference",
            ),
            ("order_link", FactType::Url, "order link"),
            ("has_picture", FactType::Text, "picture attached"),
            ("state", FactType::Text, "order state"),
            ("order_type", FactType::Text, "order type"),
            ("side", FactType::Text, "side"),
            (
                "merchant_confirmation",
                FactType::Text,
                "merchant confirmation",
            ),
        ],
    );
    d.times_of(
        t,
        row,
        inv,
        apple_seconds,
        &[
            ("created", "TWINT transaction created"),
            ("modified", "TWINT transaction modified"),
            ("second_phase", "TWINT transaction second phase"),
            ("pending_until", "TWINT transaction pending until"),
        ],
    );
    d.interpretation = format!(
        "ZTRANSACTION Z_PK {} of {path}: a TWINT transaction of the device's user ({}); a transfer's sender or recipient is the user, the side as stored; times are Cocoa seconds, amounts as stored.",
        t.get(row, "pk").unwrap_or("?"),
        said.join("; ")
    );
    run.record(d)?;
    let pk = t.get(row, "pk").unwrap_or("?");
    let file = file_name(path);
    for (number, name, role) in [
        (&sender, None, "sender"),
        (&recipient, recipient_name.as_deref(), "recipient"),
    ] {
        let Some(number) = number.as_deref() else {
            continue;
        };
        let Some(context) = run.handle_context(number) else {
            continue;
        };
        let what = format!("the {role} of a TWINT transfer (ZTRANSACTION Z_PK {pk} of {file})");
        run.observe(
            &context,
            EntityKind::Person,
            name.unwrap_or(number),
            IdType::Phone,
            number,
            inv,
            format!("The phone number of {what}."),
        )?;
        if let Some(name) = name {
            run.observe(
                &context,
                EntityKind::Person,
                name,
                IdType::DisplayName,
                name,
                inv,
                format!("The name TWINT shows for {what}."),
            )?;
        }
    }
    Ok(())
}
