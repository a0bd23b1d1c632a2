//! What Reddit's readers on both platforms share: the SQL that computes a Reddit account's
//! qualified ids in the query (`android::reddit`, `ios::reddit`). A Reddit account is
//! `reddit:t2_<id>` whether a store names it by its account id (`<id>` or `t2_<id>`) or by
//! the Matrix id its chat uses (`@t2_<id>:reddit.com`), and `reddit-user:<name>` by its name.

/// `'reddit:t2_<id>'` of a Reddit id (`t2_<id>` or the bare id) in `expr`.
pub fn reddit_id(expr: &str) -> String {
    format!(
        "CASE WHEN {expr} IS NULL OR {expr} = '' THEN NULL WHEN {expr} LIKE 't2\\_%' ESCAPE '\\' THEN 'reddit:' || {expr} ELSE 'reddit:t2_' || {expr} END"
    )
}

/// `'reddit:t2_<id>'` of a Matrix user id `@t2_<id>:reddit.com` in `expr`.
pub fn matrix_id(expr: &str) -> String {
    format!(
        "CASE WHEN {expr} LIKE '@t2\\_%:%' ESCAPE '\\' THEN 'reddit:' || substr({expr}, 2, instr({expr}, ':') - 2) END"
    )
}

/// `'reddit-user:<name>'` of a user name in `expr` (lower-cased: Reddit's names are so).
pub fn user_name(expr: &str) -> String {
    format!(
        "CASE WHEN {expr} IS NOT NULL AND {expr} != '' THEN 'reddit-user:' || lower({expr}) END"
    )
}
