//! LinkedIn on Android and iOS: what both platforms' readers share. A member's stable public
//! id is the last part of their profile URL (`https://www.linkedin.com/in/<public identifier>`),
//! which both apps keep for each message sender and participant: a member is the person
//! `linkedin:<public identifier>`, so one met on an iPhone and on an Android phone is one
//! person.

/// A SQL expression of `url` (a profile URL) giving `linkedin:<public identifier>`, or NULL when
/// the URL has no `/in/` part; a query string or a trailing `/` is left out.
pub fn member_sql(url: &str) -> String {
    let tail = format!("substr({url}, instr({url}, '/in/') + 4)");
    let id = format!(
        "rtrim(CASE WHEN instr({tail}, '?') > 0 THEN substr({tail}, 1, instr({tail}, '?') - 1) ELSE {tail} END, '/')"
    );
    format!("CASE WHEN instr({url}, '/in/') > 0 AND {id} != '' THEN 'linkedin:' || {id} END")
}

/// The JSON path, below a participant object, of each member field both apps keep: first and
/// last name, headline, profile URL, distance (`SELF` for the device's user).
pub const MEMBER: [(&str, &str); 5] = [
    ("first", "participantType.member.firstName.text"),
    ("last", "participantType.member.lastName.text"),
    ("headline", "participantType.member.headline.text"),
    ("profile_url", "participantType.member.profileUrl"),
    ("distance", "participantType.member.distance"),
];

/// The columns of a member held as JSON in `json` at `base` (`$` or `$.sender`), each aliased
/// `<prefix><field>`, plus `<prefix>member` (`linkedin:<public identifier>`, see
/// [`member_sql`]) and `<prefix>name` (first and last name joined).
pub fn member_columns(json: &str, base: &str, prefix: &str) -> String {
    let at = |path: &str| format!("json_extract({json}, '{base}.{path}')");
    let mut cols: Vec<String> = MEMBER
        .iter()
        .map(|(alias, path)| format!("{} AS {prefix}{alias}", at(path)))
        .collect();
    cols.push(format!(
        "{} AS {prefix}member",
        member_sql(&at("participantType.member.profileUrl"))
    ));
    cols.push(format!(
        "NULLIF(TRIM(COALESCE({}, '') || ' ' || COALESCE({}, '')), '') AS {prefix}name",
        at("participantType.member.firstName.text"),
        at("participantType.member.lastName.text"),
    ));
    cols.join(", ")
}

/// The facts both apps' message rows give (the columns [`member_columns`] names with the
/// prefix `s_`, and `label`, `body`, `status`, `conversation`, as both readers alias them).
pub fn message_facts(
    d: &mut crate::drafts::Draft,
    t: &crate::outputs::Table,
    row: &[Option<String>],
    inv: &masf_tools::Invoked,
) {
    use crate::outputs::raw;
    use masf_graph::FactType;
    for col in ["s_first", "s_last", "s_name", "label"] {
        d.fact(FactType::Name, raw(t, row, col).as_deref(), inv);
    }
    for col in ["s_headline", "s_distance", "body", "status"] {
        d.fact(FactType::Text, raw(t, row, col).as_deref(), inv);
    }
    d.fact(FactType::Url, raw(t, row, "s_profile_url").as_deref(), inv);
    d.fact(
        FactType::Identifier,
        raw(t, row, "conversation").as_deref(),
        inv,
    );
}

/// ", member id <id>, <first> <last>" for an account's interpretation (each part where stored).
pub fn member_words(member: Option<&str>, first: Option<&str>, last: Option<&str>) -> String {
    let mut out = member
        .map(|m| format!(", member id {m}"))
        .unwrap_or_default();
    if first.is_some() || last.is_some() {
        out.push_str(&format!(
            ", {} {}",
            first.unwrap_or_default(),
            last.unwrap_or_default()
        ));
    }
    out
}
