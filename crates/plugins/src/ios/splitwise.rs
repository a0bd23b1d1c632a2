//! Splitwise (`Library/Application Support/database.sqlite` of the app's container, told from
//! other apps' `database.sqlite` by its `SWPerson` table), iLEAPP's `splitwise` (users, expenses,
//! expense balances, total balances, groups): who shares costs with whom, and how much.
//!
//! | table | phenomenon | fields |
//! |---|---|---|
//! | `SWPerson` | one `contacts` per person ("Splitwise person <name>") | first and last name, e-mail, phone, person id, avatar, currency, country, registration status, created and updated (Unix s) |
//! | `SWExpense` | one `transactions` per expense ("Splitwise expense: <description> <cost> <currency>") | description, cost, currency, category, group, who created it (name and e-mail), expense id, GUID, created and updated |
//! | `SWExpenseMember` | one `transactions` per member's share ("Splitwise share of <expense>: <name>") | the member, e-mail, owed share, paid share, created |
//! | `SWBalance` | one `transactions` per balance with a friend | friend, e-mail, amount, currency, created and updated |
//! | `SWGroup` | one `contacts` per group | name, members (names and e-mails, joined by the query), id, type, invite link, whiteboard, created and updated |
//!
//! Identities: each person is a `splitwise:<person id>` person with the e-mail address, phone
//! and name, so a friend on two phones' Splitwise, or in a phone's contacts, resolves to one
//! person. Amounts are quoted as stored with their currency. Columns are taken by name (absent
//! ones NULL); a Splitwise store whose `SWPerson` lacks `personId` is noted.

use masf_agents::RuntimeError;
use masf_graph::{EntityKind, FactType, IdType};

use super::{Draft, Run, Schema};
use crate::drafts::unix_seconds;
use crate::outputs::raw;

/// `alias.col AS name` for each `(col, name)`, NULL where the table lacks it.
fn cols(schema: &Schema, alias: &str, table: &str, spec: &[(&str, &str)]) -> String {
    spec.iter()
        .map(|(c, n)| format!("{} AS {n}", schema.col(alias, table, c)))
        .collect::<Vec<_>>()
        .join(", ")
}

/// `coalesce(first, '') || ' ' || coalesce(last, '')`, trimmed, of the person alias `p`.
fn person_name(schema: &Schema, p: &str) -> String {
    format!(
        "trim(coalesce({}, '') || ' ' || coalesce({}, ''))",
        schema.col(p, "SWPerson", "firstName"),
        schema.col(p, "SWPerson", "lastName")
    )
}

/// Triage of every Splitwise store of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    let Some((find, paths)) = run.find("database.sqlite")? else {
        return Ok(());
    };
    for path in paths
        .iter()
        .filter(|p| p.ends_with("/Library/Application Support/database.sqlite"))
    {
        let tables = [
            "SWPerson",
            "SWExpense",
            "SWExpenseMember",
            "SWBalance",
            "SWFriendship",
            "SWGroup",
            "SWGroupMember",
        ];
        let Some(schema) = run.schema(path, &tables)? else {
            continue;
        };
        if schema.columns("SWPerson").is_empty() {
            // another app's database.sqlite
            continue;
        }
        if !schema.require(run, "SWPerson", &["personId"])? {
            continue;
        }
        persons(run, &find, path, &schema)?;
        if schema.columns("SWExpense").contains("id") {
            expenses(run, &find, path, &schema)?;
        }
        if schema.columns("SWExpenseMember").contains("id") {
            shares(run, &find, path, &schema)?;
        }
        if schema.columns("SWBalance").contains("id") {
            balances(run, &find, path, &schema)?;
        }
        if schema.columns("SWGroup").contains("groupId") {
            groups(run, &find, path, &schema)?;
        }
    }
    Ok(())
}

fn persons(
    run: &Run<'_, '_>,
    find: &masf_tools::Invoked,
    path: &str,
    schema: &Schema,
) -> Result<(), RuntimeError> {
    let sql = format!(
        "SELECT p.rowid AS k, p.personId AS personId, 'splitwise:' || p.personId AS qualified, {} AS name, {} FROM SWPerson p",
        person_name(schema, "p"),
        cols(
            schema,
            "p",
            "SWPerson",
            &[
                ("firstName", "firstName"),
                ("lastName", "lastName"),
                ("email", "email"),
                ("phone", "phone"),
                ("largeImagePath", "avatar"),
                ("currencyCode", "currencyCode"),
                ("countryCode", "countryCode"),
                ("registrationStatus", "registrationStatus"),
                ("createdAt", "createdAt"),
                ("updatedAt", "updatedAt"),
            ],
        ),
    );
    let Some(paged) = run.paged(path, &sql, "k")? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        let get = |c: &str| raw(t, row, c).filter(|v| !v.is_empty());
        let Some(id) = get("personId") else {
            continue;
        };
        let label = get("name")
            .or_else(|| get("email"))
            .unwrap_or_else(|| id.clone());
        let mut d = Draft::new("contacts", format!("Splitwise person {label}"));
        d.fact(FactType::Path, Some(path), find);
        let said = d.fields(
            t,
            row,
            inv,
            &[
                ("personId", FactType::Account, "person id"),
                ("firstName", FactType::Name, "first name"),
                ("lastName", FactType::Name, "last name"),
                ("email", FactType::Email, "e-mail"),
                ("phone", FactType::Phone, "phone"),
                ("avatar", FactType::Url, "avatar"),
                ("currencyCode", FactType::Text, "currency"),
                ("countryCode", FactType::Text, "country"),
                ("registrationStatus", FactType::Text, "registration"),
            ],
        );
        d.times_of(
            t,
            row,
            inv,
            unix_seconds,
            &[
                ("createdAt", "Splitwise person created"),
                ("updatedAt", "Splitwise person updated"),
            ],
        );
        d.interpretation = format!(
            "SWPerson of {path}: a person the Splitwise account shares expenses with, or the account itself ({}); times are Unix seconds.",
            said.join("; ")
        );
        run.record(d)?;
        let context = format!("splitwise:{id}");
        for (col, id_type, what) in [
            ("qualified", IdType::AccountId, "The Splitwise person id"),
            ("email", IdType::Email, "The e-mail address"),
            ("phone", IdType::Phone, "The phone number"),
            ("name", IdType::DisplayName, "The name"),
        ] {
            let Some(v) = get(col) else {
                continue;
            };
            crate::identity::observe(
                run.ctx,
                &context,
                EntityKind::Person,
                &label,
                id_type,
                &v,
                inv,
                format!("{what} of the Splitwise person {label} (SWPerson of {path})."),
            )?;
        }
    }
    crate::calls::note_pages_cap(run.ctx, path, &paged, "Splitwise persons")
}

fn expenses(
    run: &Run<'_, '_>,
    find: &masf_tools::Invoked,
    path: &str,
    schema: &Schema,
) -> Result<(), RuntimeError> {
    let e = |spec: &[(&str, &str)]| cols(schema, "e", "SWExpense", spec);
    let by = if schema.columns("SWExpense").contains("createdById") {
        format!(
            "{} AS creator, {} AS creator_email",
            person_name(schema, "p"),
            schema.col("p", "SWPerson", "email")
        )
    } else {
        "NULL AS creator, NULL AS creator_email".into()
    };
    let join_p = if schema.columns("SWExpense").contains("createdById") {
        " LEFT JOIN SWPerson p ON p.personId = e.createdById"
    } else {
        ""
    };
    let (group, join_g) = if schema.columns("SWExpense").contains("groupId")
        && schema.columns("SWGroup").contains("groupId")
    {
        (
            format!("{} AS groupName", schema.col("g", "SWGroup", "groupName")),
            " LEFT JOIN SWGroup g ON g.groupId = e.groupId",
        )
    } else {
        ("NULL AS groupName".into(), "")
    };
    let sql = format!(
        "SELECT e.rowid AS k, {}, {by}, {group} FROM SWExpense e{join_p}{join_g}",
        e(&[
            ("description", "description"),
            ("cost", "cost"),
            ("currencyCode", "currencyCode"),
            ("category", "category"),
            ("expenseId", "expenseId"),
            ("guid", "guid"),
            ("createdAtDate", "createdAtDate"),
            ("updatedAt", "updatedAt"),
        ]),
    );
    let Some(paged) = run.paged(path, &sql, "k")? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        let get = |c: &str| raw(t, row, c).filter(|v| !v.is_empty());
        let title = format!(
            "Splitwise expense: {}{}",
            get("description").unwrap_or_else(|| "(no description)".into()),
            get("cost")
                .map(|c| format!(" {c} {}", get("currencyCode").unwrap_or_default()))
                .unwrap_or_default()
                .trim_end()
        );
        let mut d = Draft::new("transactions", title);
        d.fact(FactType::Path, Some(path), find);
        let said = d.fields(
            t,
            row,
            inv,
            &[
                ("description", FactType::Text, "description"),
                ("cost", FactType::Amount, "cost"),
                ("currencyCode", FactType::Text, "currency"),
                ("category", FactType::Text, "category"),
                ("groupName", FactType::Name, "group"),
                ("creator", FactType::Name, "created by"),
                ("creator_email", FactType::Email, "creator's e-mail"),
                ("expenseId", FactType::Identifier, "expense id"),
                ("guid", FactType::Identifier, "GUID"),
            ],
        );
        d.times_of(
            t,
            row,
            inv,
            unix_seconds,
            &[
                ("createdAtDate", "Splitwise expense created"),
                ("updatedAt", "Splitwise expense updated"),
            ],
        );
        d.interpretation = format!(
            "SWExpense of {path}: an expense recorded in Splitwise ({}); the cost is as stored in its currency; times are Unix seconds.",
            said.join("; ")
        );
        run.record(d)?;
    }
    crate::calls::note_pages_cap(run.ctx, path, &paged, "Splitwise expenses")
}

fn shares(
    run: &Run<'_, '_>,
    find: &masf_tools::Invoked,
    path: &str,
    schema: &Schema,
) -> Result<(), RuntimeError> {
    let m = schema.columns("SWExpenseMember");
    let (expense, join_e) =
        if m.contains("sWExpenseId") && schema.columns("SWExpense").contains("id") {
            (
                format!("{} AS expense", schema.col("e", "SWExpense", "description")),
                " LEFT JOIN SWExpense e ON e.id = m.sWExpenseId",
            )
        } else {
            ("NULL AS expense".into(), "")
        };
    let (member, join_p) = if m.contains("sWPersonId") && schema.columns("SWPerson").contains("id")
    {
        (
            format!(
                "{} AS member, {} AS email",
                person_name(schema, "p"),
                schema.col("p", "SWPerson", "email")
            ),
            " LEFT JOIN SWPerson p ON p.id = m.sWPersonId",
        )
    } else {
        ("NULL AS member, NULL AS email".into(), "")
    };
    let sql = format!(
        "SELECT m.rowid AS k, {expense}, {member}, {} FROM SWExpenseMember m{join_e}{join_p}",
        cols(
            schema,
            "m",
            "SWExpenseMember",
            &[
                ("owedShare", "owedShare"),
                ("paidShare", "paidShare"),
                ("createdAt", "createdAt"),
            ],
        ),
    );
    let Some(paged) = run.paged(path, &sql, "k")? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        let get = |c: &str| raw(t, row, c).filter(|v| !v.is_empty());
        let mut d = Draft::new(
            "transactions",
            format!(
                "Splitwise share of {}: {}",
                get("expense").unwrap_or_else(|| "an expense".into()),
                get("member")
                    .or_else(|| get("email"))
                    .unwrap_or_else(|| "a member".into())
            ),
        );
        d.fact(FactType::Path, Some(path), find);
        let said = d.fields(
            t,
            row,
            inv,
            &[
                ("expense", FactType::Text, "expense"),
                ("member", FactType::Name, "member"),
                ("email", FactType::Email, "e-mail"),
                ("owedShare", FactType::Amount, "owes"),
                ("paidShare", FactType::Amount, "paid"),
            ],
        );
        let at = t.get(row, "createdAt");
        d.time(at, unix_seconds(at), "Splitwise share created", inv);
        d.interpretation = format!(
            "SWExpenseMember of {path}: one member's part of a Splitwise expense ({}); createdAt is Unix seconds.",
            said.join("; ")
        );
        run.record(d)?;
    }
    crate::calls::note_pages_cap(run.ctx, path, &paged, "Splitwise shares")
}

fn balances(
    run: &Run<'_, '_>,
    find: &masf_tools::Invoked,
    path: &str,
    schema: &Schema,
) -> Result<(), RuntimeError> {
    let b = schema.columns("SWBalance");
    let (friend, join) = if b.contains("sWFriendshipId")
        && schema.columns("SWFriendship").contains("id")
        && schema.columns("SWFriendship").contains("personId")
    {
        (
            format!(
                "{} AS friend, {} AS email",
                person_name(schema, "p"),
                schema.col("p", "SWPerson", "email")
            ),
            " LEFT JOIN SWFriendship f ON f.id = b.sWFriendshipId LEFT JOIN SWPerson p ON p.personId = f.personId",
        )
    } else {
        ("NULL AS friend, NULL AS email".into(), "")
    };
    let sql = format!(
        "SELECT b.rowid AS k, {friend}, {} FROM SWBalance b{join}",
        cols(
            schema,
            "b",
            "SWBalance",
            &[
                ("amount", "amount"),
                ("currencyCode", "currencyCode"),
                ("createdAt", "createdAt"),
                ("updatedAt", "updatedAt"),
            ],
        ),
    );
    let Some(paged) = run.paged(path, &sql, "k")? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        let get = |c: &str| raw(t, row, c).filter(|v| !v.is_empty());
        let mut d = Draft::new(
            "transactions",
            format!(
                "Splitwise balance with {}",
                get("friend")
                    .or_else(|| get("email"))
                    .unwrap_or_else(|| "a friend".into())
            ),
        );
        d.fact(FactType::Path, Some(path), find);
        let said = d.fields(
            t,
            row,
            inv,
            &[
                ("friend", FactType::Name, "friend"),
                ("email", FactType::Email, "e-mail"),
                ("amount", FactType::Amount, "balance"),
                ("currencyCode", FactType::Text, "currency"),
            ],
        );
        d.times_of(
            t,
            row,
            inv,
            unix_seconds,
            &[
                ("createdAt", "Splitwise balance created"),
                ("updatedAt", "Splitwise balance updated"),
            ],
        );
        d.interpretation = format!(
            "SWBalance of {path}: what the account and a friend owe each other in Splitwise ({}); the sign is as stored; times are Unix seconds.",
            said.join("; ")
        );
        run.record(d)?;
    }
    crate::calls::note_pages_cap(run.ctx, path, &paged, "Splitwise balances")
}

fn groups(
    run: &Run<'_, '_>,
    find: &masf_tools::Invoked,
    path: &str,
    schema: &Schema,
) -> Result<(), RuntimeError> {
    let gm = schema.columns("SWGroupMember");
    let members = if gm.contains("sWGroupId") && gm.contains("personId") {
        format!(
            "(SELECT group_concat({} || ' (' || coalesce({}, '') || ')', '; ') FROM SWGroupMember gm JOIN SWPerson p ON p.personId = gm.personId WHERE gm.sWGroupId = g.id) AS members",
            person_name(schema, "p"),
            schema.col("p", "SWPerson", "email"),
        )
    } else {
        "NULL AS members".into()
    };
    let members = if schema.columns("SWGroup").contains("id") {
        members
    } else {
        "NULL AS members".into()
    };
    let sql = format!(
        "SELECT g.rowid AS k, g.groupId AS groupId, {members}, {} FROM SWGroup g",
        cols(
            schema,
            "g",
            "SWGroup",
            &[
                ("groupName", "groupName"),
                ("groupType", "groupType"),
                ("inviteLink", "inviteLink"),
                ("whiteboard", "whiteboard"),
                ("createdAtDate", "createdAtDate"),
                ("updatedAtDate", "updatedAtDate"),
            ],
        ),
    );
    let Some(paged) = run.paged(path, &sql, "k")? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        let get = |c: &str| raw(t, row, c).filter(|v| !v.is_empty());
        let mut d = Draft::new(
            "contacts",
            format!(
                "Splitwise group {}",
                get("groupName")
                    .or_else(|| get("groupId"))
                    .unwrap_or_default()
            ),
        );
        d.fact(FactType::Path, Some(path), find);
        let said = d.fields(
            t,
            row,
            inv,
            &[
                ("groupName", FactType::Name, "name"),
                ("groupId", FactType::Identifier, "group id"),
                ("members", FactType::Text, "members"),
                ("groupType", FactType::Text, "type"),
                ("inviteLink", FactType::Url, "invite link"),
                ("whiteboard", FactType::Text, "whiteboard"),
            ],
        );
        d.times_of(
            t,
            row,
            inv,
            unix_seconds,
            &[
                ("createdAtDate", "Splitwise group created"),
                ("updatedAtDate", "Splitwise group updated"),
            ],
        );
        d.interpretation = format!(
            "SWGroup of {path}: a group sharing expenses in Splitwise ({}); times are Unix seconds.",
            said.join("; ")
        );
        run.record(d)?;
    }
    crate::calls::note_pages_cap(run.ctx, path, &paged, "Splitwise groups")
}
