//! Microsoft Authenticator (`com.azure.authenticator/databases/PhoneFactor`), ALEAPP's
//! `MicrosoftAuthenticator` (`get_MSAuth_accounts`): every account the user enrolled in the
//! authenticator — work or school accounts of an organisation's Entra ID tenant, their personal
//! Microsoft account, and the third-party services (GitHub, exchanges, mail providers) whose
//! one-time codes it generates.
//!
//! | table | phenomenon | fields |
//! |---|---|---|
//! | `accounts` | one `accounts` per account ("Microsoft Authenticator account <user name> (<service>)") | the service or organisation as the app names it (`name`), the user name (an e-mail address, a user principal name, or a service's own login), the account type as stored (0 a third-party one-time-code account, 1 a personal Microsoft account; work or school accounts carry their tenant), the Entra tenant and user object ids, the authority and identity provider, the tenant's country and data boundary, the Microsoft account's CID and PUID, the group key, the PhoneFactor service URL, codes enabled, password, capability |
//!
//! Not read, never selected: the one-time-code seed (`oath_secret_key`, and the newer
//! `encrypted_oath_secret_key`), the cached PIN (`cached_pin`), the PIN key's alias
//! (`mfa_pin_encryption_key_alias`), the Windows Hello key id (`ngc_ski`) and the device token
//! (`activated_device_token`): secrets that would let anyone generate the user's codes, not
//! facts about the accounts (ALEAPP lists the seed; this reader does not). Columns are taken by
//! name (absent ones NULL: older releases keep fewer); a table without `name` or `username` is
//! noted, a store without `accounts` too. The store keeps no time.
//!
//! Identities: the authenticator holds the accounts of the device's user — each was enrolled on
//! this phone by scanning its code or signing in — so each user name that is an e-mail address
//! (or a user principal name written as one) is observed as the owner's (`owner`). A user name
//! that is not one (a service's own login) stays a fact, as do the service's name (an issuer,
//! not a person's name) and the directory ids.

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{FactType, IdType};

use super::Located;
use crate::calls::column_or_null;
use crate::drafts::RowPhenomena;
use crate::identity::{artefact_name, table_columns};
use crate::outputs::raw;

/// Whether `l` is Microsoft Authenticator's store.
pub fn is_store(l: &Located) -> bool {
    l.name() == "PhoneFactor" && l.path.contains("/com.azure.authenticator/")
}

/// The columns read besides `name` and `username`, absent ones as NULL: never a secret (see
/// the module's doc).
const OPTIONAL: &[&str] = &[
    "account_type",
    "aad_user_id",
    "aad_tenant_id",
    "aad_authority",
    "identity_provider",
    "tenant_country_code",
    "data_boundary",
    "cid",
    "puid",
    "group_key",
    "paws_url",
    "oath_enabled",
    "has_password",
    "account_capability",
];

/// One `PhoneFactor`.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    if super::databases::tables_with(ctx, l, &["accounts"])?.is_none() {
        return Ok(());
    }
    let name = artefact_name(&l.tree, &l.path);
    let cols = table_columns(ctx, &l.tree, &l.path, "accounts")?;
    if !crate::calls::require_columns(
        ctx,
        &name,
        "Microsoft Authenticator's PhoneFactor",
        "accounts",
        &cols,
        &["name", "username"],
    )? {
        return Ok(());
    }
    let sql = format!(
        "SELECT rowid AS rid, name, username, {} FROM accounts ORDER BY rowid",
        OPTIONAL
            .iter()
            .map(|c| column_or_null(&cols, "", c, c))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let title = |t: &crate::outputs::Table, row: &[Option<String>]| match (
        raw(t, row, "username"),
        raw(t, row, "name"),
    ) {
        (Some(u), Some(n)) => format!("Microsoft Authenticator account {u} ({n})"),
        (Some(u), None) | (None, Some(u)) => format!("Microsoft Authenticator account {u}"),
        (None, None) => "Microsoft Authenticator account".to_string(),
    };
    let file = l.name().to_string();
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "accounts",
            category: "accounts",
            what: "an account enrolled in Microsoft Authenticator on the phone (account_type as stored: 0 a third-party one-time-code account, 1 a personal Microsoft account; a work or school account carries its Entra tenant id); its one-time-code seed, PIN and keys are not read",
            title: &title,
            fields: &[
                ("name", FactType::Name, "service"),
                ("username", FactType::Account, "user name"),
                ("account_type", FactType::Text, "account type"),
                ("aad_tenant_id", FactType::Identifier, "Entra tenant id"),
                ("aad_user_id", FactType::Identifier, "Entra user object id"),
                ("aad_authority", FactType::Url, "authority"),
                ("identity_provider", FactType::Text, "identity provider"),
                ("tenant_country_code", FactType::Text, "tenant country"),
                ("data_boundary", FactType::Text, "data boundary"),
                ("cid", FactType::Identifier, "Microsoft account CID"),
                ("puid", FactType::Identifier, "Microsoft account PUID"),
                ("group_key", FactType::Identifier, "group key"),
                ("paws_url", FactType::Url, "PhoneFactor service"),
                ("oath_enabled", FactType::Text, "one-time codes enabled"),
                ("has_password", FactType::Text, "has a password"),
                ("account_capability", FactType::Text, "capability"),
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
                &[("username", IdType::Email, "The user name")],
                &|what| {
                    format!(
                        "{what} of an account the device's user enrolled in Microsoft Authenticator ({}, accounts of {file}): an authenticator generates the codes of its user's own accounts.",
                        t.get(row, "name").unwrap_or("a service")
                    )
                },
            )
        },
    )
}
