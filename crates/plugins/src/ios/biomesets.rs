//! Biome's sets (`Library/Biome/sets/Default/<set>/Database/Set.db`): the records Apple's
//! intelligence keeps about installed apps, contacts, Find My devices, significant locations and
//! the phrases and entities apps expose to Siri and Shortcuts, each a Protocol Buffers message in
//! `content.content`, read with `sqlite_query`'s `protobuf`. The fields of iLEAPP's
//! `biomeSetsStores`:
//!
//! | set | phenomenon | fields |
//! |---|---|---|
//! | `App.InstalledApp` | one `apps` per record | bundle id (1), name (3) |
//! | `Contacts.Contact` | one `contacts` per record | given name (1), family name (3) |
//! | `FindMy.Device` | one `device` per record | device name (1), its owner's given and family name (2.1, 2.2) |
//! | `Location.SignificantLocation` | one `locations` per record | label (1), street, area, city, country (3.1–3.4) |
//! | `App.Shortcut.Phrase/sourceIdentifier=<app>` | one `apps` per record | the app, the phrase (1), its template (2), the intent URL (4) |
//! | `App.Shortcut.Entity/sourceIdentifier=<app>` | one `apps` per record | the app, the entity's name (1), identifier (2), type (3), query provider (4) |
//!
//! Every other top-level field of a record is said as stored. A record's time is when it was
//! last modified: `instance.modified` through `provenance` (to iOS 18), or
//! `metacontent_provenance.written_date` (iOS 26), Unix microseconds.
//!
//! Identities: a Find My device of the set is observed by its name (`biome-findmy:<name>`): a
//! device of the user's or of their family, for the examiner to compare with the case's
//! devices; its owner's names are said, not observed (a given and a family name apart).
//! Schema drift: a `Set.db` without `content` (`content_hash`, `content`) is noted; one with
//! neither time table is read without times.

use masf_agents::RuntimeError;
use masf_graph::{EntityKind, FactType, IdType};
use masf_tools::Invoked;
use serde_json::Value;

use super::biome::{fill, first_value, values_at};
use super::{Draft, Run, file_name};

/// A set read field by field.
struct SetSpec {
    /// The set's folder below `sets/Default/`.
    folder: &'static str,
    category: &'static str,
    /// The title: `{app}` the source app, `{<path>}` that field's value.
    title: &'static str,
    what: &'static str,
    /// Each field: its path, the fact it gives, its name.
    fields: &'static [(&'static [&'static str], FactType, &'static str)],
}

const SETS: &[SetSpec] = &[
    SetSpec {
        folder: "App.InstalledApp",
        category: "apps",
        title: "Installed app (Biome set): {3}",
        what: "an app installed on the device",
        fields: &[
            (&["1"], FactType::Identifier, "bundle id"),
            (&["3"], FactType::Name, "name"),
        ],
    },
    SetSpec {
        folder: "Contacts.Contact",
        category: "contacts",
        title: "Contact (Biome set): {1} {3}",
        what: "a contact Apple's intelligence knows",
        fields: &[
            (&["1"], FactType::Name, "given name"),
            (&["3"], FactType::Name, "family name"),
        ],
    },
    SetSpec {
        folder: "FindMy.Device",
        category: "device",
        title: "Find My device (Biome set): {1}",
        what: "a device Find My shows (the user's or their family's)",
        fields: &[
            (&["1"], FactType::Name, "device name"),
            (&["2", "1"], FactType::Name, "owner's given name"),
            (&["2", "2"], FactType::Name, "owner's family name"),
        ],
    },
    SetSpec {
        folder: "Location.SignificantLocation",
        category: "locations",
        title: "Significant location (Biome set): {1}",
        what: "a place the device learnt is significant to the user",
        fields: &[
            (&["1"], FactType::Text, "label"),
            (&["3", "1"], FactType::Text, "street"),
            (&["3", "2"], FactType::Text, "area"),
            (&["3", "3"], FactType::Text, "city"),
            (&["3", "4"], FactType::Text, "country"),
        ],
    },
    SetSpec {
        folder: "App.Shortcut.Phrase",
        category: "apps",
        title: "Shortcut phrase of {app} (Biome set): {1}",
        what: "a phrase an app offers Siri and Shortcuts",
        fields: &[
            (&["1"], FactType::Text, "phrase"),
            (&["2"], FactType::Text, "template"),
            (&["4"], FactType::Url, "intent URL"),
        ],
    },
    SetSpec {
        folder: "App.Shortcut.Entity",
        category: "apps",
        title: "Shortcut entity of {app} (Biome set): {1}",
        what: "an entity an app exposes to Siri and Shortcuts (user content: a note's title, a board's name)",
        fields: &[
            (&["1"], FactType::Text, "name"),
            (&["2"], FactType::Identifier, "identifier"),
            (&["3"], FactType::Identifier, "type"),
            (&["4"], FactType::Identifier, "query provider"),
        ],
    },
];

/// The set a `Set.db` belongs to, with the source app of a per-app store.
fn set_of(path: &str) -> Option<(&'static SetSpec, Option<&str>)> {
    let (_, rest) = path.split_once("/Biome/sets/Default/")?;
    let mut parts = rest.split('/');
    let folder = parts.next()?;
    let spec = SETS.iter().find(|s| s.folder == folder)?;
    let app = parts
        .next()
        .and_then(|p| p.strip_prefix("sourceIdentifier="));
    Some((spec, app))
}

/// Triage of every Biome `Set.db` of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    run.each("Set.db", |find, path| match set_of(path) {
        Some((spec, app)) => one(run, find, path, spec, app),
        None => Ok(()),
    })
}

fn one(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    spec: &SetSpec,
    app: Option<&str>,
) -> Result<(), RuntimeError> {
    let Some(schema) = run.schema(
        path,
        &[
            "content",
            "provenance",
            "instance",
            "metacontent_provenance",
        ],
    )?
    else {
        return Ok(());
    };
    if !schema.require(run, "content", &["content_hash", "content"])? {
        return Ok(());
    }
    let modified = if !schema.columns("instance").is_empty()
        && !schema.columns("provenance").is_empty()
    {
        "(SELECT max(i.modified) FROM provenance p JOIN instance i ON i.provenance_row_id = p.provenance_row_id WHERE p.content_hash = c.content_hash)"
    } else if schema
        .columns("metacontent_provenance")
        .contains("written_date")
    {
        "(SELECT max(mp.written_date) FROM metacontent_provenance mp WHERE mp.content_hash = c.content_hash)"
    } else {
        "NULL"
    };
    let sql = format!(
        "SELECT c.rowid AS rid, {modified} AS modified, c.content AS content FROM content c"
    );
    let Some(pages) = run.paged_with(path, &sql, "c.rowid", &["protobuf"])? else {
        return Ok(());
    };
    crate::calls::note_pages_cap(run.ctx, path, &pages, "Biome set records")?;
    let set = match app {
        Some(a) => format!("{}/{a}", spec.folder),
        None => spec.folder.to_string(),
    };
    for (inv, t, row) in pages.rows() {
        let rid = t.get(row, "rid").unwrap_or("?");
        let Some(m) = t
            .get(row, "content")
            .and_then(|c| c.strip_prefix("protobuf:"))
            .and_then(|c| serde_json::from_str::<Value>(c).ok())
        else {
            run.ctx.unparsed(
                path,
                &format!("content row {rid}: not a Protocol Buffers message"),
                Some(&inv.record.invocation_id),
            )?;
            continue;
        };
        let title = fill(spec.title, |key| match key {
            "app" => app.unwrap_or("?").to_string(),
            key => first_value(&m, key),
        });
        let mut d = Draft::new(spec.category, title);
        d.fact(FactType::Path, Some(path), find);
        d.fact(FactType::Identifier, app, find);
        let mut said = Vec::new();
        for (p, fact, name) in spec.fields {
            for (v, cited) in values_at(&m, p) {
                d.fact(*fact, Some(&cited), inv);
                said.push(format!("{name} {v}"));
            }
        }
        // every other top-level field, as stored
        let known: Vec<&str> = spec.fields.iter().map(|(p, _, _)| p[0]).collect();
        for (k, x) in m.as_object().into_iter().flatten() {
            if !known.contains(&k.as_str()) {
                // a field is the array of its values: one value shown alone
                let shown = match x {
                    Value::Array(a) if a.len() == 1 => a[0].to_string(),
                    other => other.to_string(),
                };
                said.push(format!("field {k} {shown} (as stored)"));
            }
        }
        let time = t.get(row, "modified");
        d.time(
            time,
            crate::drafts::unix_micros(time),
            "Biome set record modified",
            inv,
        );
        d.interpretation = format!(
            "content row {rid} of Biome's {set} set ({}): {}{}{}; modified {} (Unix microseconds).",
            file_name(path),
            spec.what,
            app.map(|a| format!(" ({a})")).unwrap_or_default(),
            if said.is_empty() {
                String::new()
            } else {
                format!(": {}", said.join(", "))
            },
            time.unwrap_or("not kept"),
        );
        run.record(d)?;
        if spec.folder == "FindMy.Device"
            && let Some((name, _)) = values_at(&m, &["1"]).into_iter().next()
        {
            run.observe(
                &format!("biome-findmy:{name}"),
                EntityKind::Device,
                &name,
                IdType::DeviceName,
                &name,
                inv,
                format!("{name} is a device Find My shows on this phone (Biome's FindMy.Device set): the user's or their family's."),
            )?;
        }
    }
    Ok(())
}
