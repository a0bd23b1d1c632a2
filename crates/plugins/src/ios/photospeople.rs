//! The people and faces of the Photos library (`Media/PhotoData/Photos.sqlite`, and any other
//! `*.photoslibrary/database/Photos.sqlite` such as the Syndication library), the fields of
//! iLEAPP's `Ph015PeopleandDetFacesNAD` (people, detected faces) and
//! `Ph016AssetPeopleandDetFaces` (the same faces from the asset's side): what [`super::photos`]
//! does not read. The asset itself (file, times, place, camera, flags) stays that reader's; a face
//! names its asset by `Z_PK`, file and UUID only, so the two meet on the file.
//!
//! | table | phenomenon | fields |
//! |---|---|---|
//! | `ZPERSON` | one `contacts` per person ("Photos person <Z_PK>: <name>") | full and display name, person UUID, `ZPERSONURI` (the address-book contact Photos linked, `<UUID>:ABPerson`), every string and number of `ZCONTACTMATCHINGDICTIONARY` (an archived dictionary read with `sqlite_query`'s `plists` option), verified type (0 not verified, 1 verified), favourite (`ZTYPE` 1, as osxphotos reads it; the type as stored beside it), face count as kept and the faces `ZDETECTEDFACE` links to it (counted in the query), manual order, the age and gender estimate, iOS 18's confidence that the person is the device's user (`ZISMECONFIDENCE`), the person it was merged into, its key face, its Shared Library participant, detection and cloud-verified type (as stored), deleted from iCloud |
//! | `ZDETECTEDFACE` ⋈ asset ⋈ `ZPERSON` | one `media` per face ("Photos face <Z_PK>: <name> on <file>") | the asset (`Z_PK`, `ZDIRECTORY/ZFILENAME`, UUID), the person (`Z_PK`, name, UUID), face or torso (iOS 17+), face UUID, added by hand or detected, how it was named, the estimates iLEAPP decodes — age, gender, ethnicity, skin tone, hair colour, facial hair, glasses, smile and its type, eyes, each eye closed, lip and eye make-up, face mask, pose, expression, headgear, VIP model —, on a hidden asset or one in Recently Deleted, centre, size, quality, quality measure, blur score, source width and height, yaw, roll, cluster sequence number, grouping and master ids |
//!
//! Codes are decoded in the query (`CASE … END`, so the output holds the meaning) with iLEAPP's
//! meanings in our words; a code iLEAPP calls "still testing" (mostly 0: no estimate made) gives
//! nothing, any other unknown code `code <n>`. The estimates are Photos' automatic guesses from
//! the image (how the face looked to the classifier), never facts about the person: the
//! interpretation says so.
//!
//! Schema drift, keyed on the columns found: the asset table is `ZASSET` (iOS 14+) or
//! `ZGENERICASSET` (11–13); a face names its asset and person by `ZASSETFORFACE` and
//! `ZPERSONFORFACE` (iOS 17+, with `ZASSETFORTORSO`/`ZPERSONFORTORSO` for a torso detected
//! without a face) or `ZASSET` and `ZPERSON` (to iOS 16); ethnicity, skin tone, mask, pose,
//! expression and headgear exist from iOS 15, `ZISMECONFIDENCE` from iOS 18; every other column
//! is read where present. A library with neither `ZPERSON` nor `ZDETECTEDFACE` gives nothing (a
//! database that is no library is [`super::photos`]'s to note); one of them without `Z_PK` is
//! noted naming what is missing; one that does not open is noted by the call.
//! Neither table holds a time (the asset's are [`super::photos`]'s). Persons and faces are read
//! in pages up to the row cap, then summarised (count).
//!
//! Not read: the face prints (`ZDETECTEDFACEPRINT.ZDATA`, a biometric template) and the face
//! crops (`ZFACECROP.ZRESOURCEDATA`, JPEG images iLEAPP exports), the face groups' builder
//! state and the cloud bookkeeping columns iLEAPP lists as still testing.
//!
//! Identities: a person's name is the device user's label for someone (typed in Photos, or the
//! contact Photos matched): it is recorded as a fact and the entity's label, never observed as
//! an identifier by itself, and never the device's user (`ZISMECONFIDENCE` is kept as a fact
//! only). When the row carries an identifier in clear, the person `photos-person:<person UUID>`
//! (`photos-person:<file>:<Z_PK>` without a UUID) is observed with it: `ZPERSONURI` as the
//! address-book contact's GUID (so the person joins the card it names), and from the
//! contact-matching dictionary every e-mail address, every value under a key naming a phone as a
//! phone number, every value under a key naming an identifier that is a contact GUID. The keys
//! of that dictionary are not publicly documented, so every member is kept as a fact.

use std::collections::BTreeSet;

use masf_agents::RuntimeError;
use masf_graph::{EntityKind, FactType, IdType};
use masf_tools::Invoked;
use serde_json::Value;

use super::{Draft, Run, core_data_encoding, file_name, raw, summarise};
use crate::calls::{column_expr, column_or_null, require_columns};
use crate::outputs::{Table, in_json_cell, plist_cell};

const PERSON: &str = "ZPERSON";
const FACE: &str = "ZDETECTEDFACE";

/// Whether `path` is a Photos library's database, as [`super::photos`] takes it: the camera
/// roll's (`…/Media/PhotoData/Photos.sqlite`) or another library's (`….photoslibrary/…`).
pub(super) fn is_library(path: &str) -> bool {
    path.contains("/PhotoData/") || path.contains(".photoslibrary/")
}

/// Triage of the people and faces of every Photos library of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    run.each("Photos.sqlite", |find, path| {
        if is_library(path) {
            one(run, find, path)
        } else {
            Ok(())
        }
    })
}

/// A stored code and its meaning: `None` for a code that means no estimate (iLEAPP's "still
/// testing", mostly 0), which gives nothing.
pub(super) type Codes = &'static [(i64, Option<&'static str>)];

/// `CASE <expr> WHEN <code> THEN '<meaning>' … [ELSE 'code ' || <expr>] END AS <alias>`: a code
/// with its meaning computed in the query, so that the output holds it; `others` says whether
/// an unknown code is kept as `code <n>` (else it gives NULL: a flag whose other values mean
/// "no").
pub(super) fn decode(expr: &str, codes: Codes, others: bool, alias: &str) -> String {
    let mut s = format!("CASE {expr}");
    for (code, meaning) in codes {
        match meaning {
            Some(m) => s.push_str(&format!(" WHEN {code} THEN '{m}'")),
            None => s.push_str(&format!(" WHEN {code} THEN NULL")),
        }
    }
    if others {
        s.push_str(&format!(" ELSE 'code ' || {expr}"));
    }
    s.push_str(&format!(" END AS {alias}"));
    s
}

/// [`decode`] of `table`'s `column` (aliased `prefix`) when the table has it, else NULL.
fn decode_col(
    cols: &BTreeSet<String>,
    prefix: &str,
    column: &str,
    codes: Codes,
    others: bool,
    alias: &str,
) -> String {
    if cols.contains(column) {
        decode(&format!("{prefix}{column}"), codes, others, alias)
    } else {
        format!("NULL AS {alias}")
    }
}

const AGE: Codes = &[
    (0, None),
    (1, Some("infant or toddler")),
    (2, Some("toddler or child")),
    (3, Some("child or young adult")),
    (4, Some("young adult or adult")),
    (5, Some("adult")),
];
const GENDER: Codes = &[(0, None), (1, Some("male")), (2, Some("female"))];
const ETHNICITY: Codes = &[
    (0, None),
    (1, Some("Black or African American")),
    (2, Some("White")),
    (3, Some("Hispanic or Latino")),
    (4, Some("Asian")),
    (5, Some("Native Hawaiian or other Pacific Islander")),
];
const SKIN: Codes = &[
    (0, None),
    (1, Some("light, pale white")),
    (2, Some("white, fair")),
    (3, Some("medium, white to olive")),
    (4, Some("olive, moderate brown")),
    (5, Some("brown, dark brown")),
    (6, Some("black, very dark brown to black")),
];
const HAIR: Codes = &[
    (0, None),
    (1, Some("black or brown hair")),
    (2, Some("brown or blonde hair")),
    (3, Some("brown or red hair")),
    (4, Some("red or white hair")),
    (
        5,
        Some("hair colour 5 (possibly artificial, not confirmed)"),
    ),
    (6, Some("white hair or bald")),
];
const FACIAL_HAIR: Codes = &[
    (0, None),
    (1, Some("clean shaven")),
    (2, Some("beard")),
    (3, Some("goatee")),
    (4, Some("moustache")),
    (5, Some("stubble")),
];
const GLASSES: Codes = &[
    (0, None),
    (1, Some("eyeglasses")),
    (2, Some("sunglasses")),
    (3, Some("no glasses")),
];
const SMILE: Codes = &[(0, Some("not smiling")), (1, Some("smiling"))];
const SMILE_TYPE: Codes = &[
    (0, None),
    (1, Some("smile without teeth")),
    (2, Some("smile showing teeth")),
];
const EYES: Codes = &[(0, None), (1, Some("eyes closed")), (2, Some("eyes open"))];
const LEFT_EYE: Codes = &[(0, Some("left eye open")), (1, Some("left eye closed"))];
const RIGHT_EYE: Codes = &[(0, Some("right eye open")), (1, Some("right eye closed"))];
const LIP_MAKEUP: Codes = &[(0, Some("no lip make-up")), (1, Some("lip make-up"))];
const EYE_MAKEUP: Codes = &[(0, Some("no eye make-up")), (1, Some("eye make-up"))];
const MASK: Codes = &[(0, Some("no face mask")), (1, Some("face mask"))];
const POSE: Codes = &[
    (0, None),
    (1, Some("frontal pose")),
    (3, Some("profile pose")),
];
const EXPRESSION: Codes = &[
    (0, None),
    (1, Some("disgusted or angry")),
    (2, Some("surprised or fearful")),
    (3, Some("neutral")),
    (4, Some("confident or smirking")),
    (5, Some("happy")),
    (6, Some("sad")),
];
const HEADGEAR: Codes = &[(0, None), (5, Some("no headgear"))];
const VIP: Codes = &[(0, None), (1, Some("VIP model"))];
const MANUAL: Codes = &[(0, Some("detected by Photos")), (1, Some("added by hand"))];
const NAME_SOURCE: Codes = &[
    (0, None),
    (1, Some("named from a face crop")),
    (2, Some("named as a verified person (person URI)")),
];
const CLOUD_NAME_SOURCE: Codes = &[
    (0, None),
    (1, Some("named by the user on a face crop (iCloud)")),
    (5, Some("named in a shared asset (iCloud)")),
];
const HIDDEN: Codes = &[(1, Some("on a hidden asset"))];
const TRASHED: Codes = &[(1, Some("on an asset in Recently Deleted"))];
const VERIFIED: Codes = &[(0, Some("not verified")), (1, Some("verified"))];
const FAVOURITE: Codes = &[(1, Some("a favourite (ZTYPE 1)"))];
const CLOUD_DELETED: Codes = &[(1, Some("deleted from iCloud Photos"))];

/// The estimates and states of a face decoded in the query: (column, alias, label, codes,
/// whether an unknown code is kept).
const FACE_CODES: [(&str, &str, &str, Codes, bool); 24] = [
    ("ZMANUAL", "manual", "how found", MANUAL, true),
    (
        "ZNAMESOURCE",
        "name_source",
        "name source",
        NAME_SOURCE,
        true,
    ),
    (
        "ZCLOUDNAMESOURCE",
        "cloud_name_source",
        "iCloud name source",
        CLOUD_NAME_SOURCE,
        true,
    ),
    ("ZAGETYPE", "age", "age estimate", AGE, true),
    ("ZGENDERTYPE", "gender", "gender estimate", GENDER, true),
    (
        "ZETHNICITYTYPE",
        "ethnicity",
        "ethnicity estimate",
        ETHNICITY,
        true,
    ),
    (
        "ZSKINTONETYPE",
        "skin_tone",
        "skin tone estimate",
        SKIN,
        true,
    ),
    ("ZHAIRCOLORTYPE", "hair_colour", "hair colour", HAIR, true),
    (
        "ZFACIALHAIRTYPE",
        "facial_hair",
        "facial hair",
        FACIAL_HAIR,
        true,
    ),
    ("ZGLASSESTYPE", "glasses", "glasses", GLASSES, true),
    ("ZHASSMILE", "smile", "smile", SMILE, true),
    ("ZSMILETYPE", "smile_type", "smile type", SMILE_TYPE, true),
    ("ZEYESSTATE", "eyes", "eyes", EYES, true),
    ("ZISLEFTEYECLOSED", "left_eye", "left eye", LEFT_EYE, true),
    (
        "ZISRIGHTEYECLOSED",
        "right_eye",
        "right eye",
        RIGHT_EYE,
        true,
    ),
    (
        "ZLIPMAKEUPTYPE",
        "lip_makeup",
        "lip make-up",
        LIP_MAKEUP,
        true,
    ),
    (
        "ZEYEMAKEUPTYPE",
        "eye_makeup",
        "eye make-up",
        EYE_MAKEUP,
        true,
    ),
    ("ZHASFACEMASK", "mask", "face mask", MASK, true),
    ("ZPOSETYPE", "pose", "pose", POSE, true),
    (
        "ZFACEEXPRESSIONTYPE",
        "expression",
        "expression",
        EXPRESSION,
        true,
    ),
    ("ZHEADGEARTYPE", "headgear", "headgear", HEADGEAR, true),
    ("ZVIPMODELTYPE", "vip", "VIP model type", VIP, true),
    ("ZHIDDEN", "hidden", "face", HIDDEN, false),
    ("ZISINTRASH", "trashed", "face", TRASHED, false),
];

/// The face columns read as stored: (column, alias, fact type, label).
const FACE_COLS: [(&str, &str, FactType, &str); 15] = [
    ("ZUUID", "uuid", FactType::Identifier, "face UUID"),
    ("ZCENTERX", "center_x", FactType::Text, "centre x"),
    ("ZCENTERY", "center_y", FactType::Text, "centre y"),
    ("ZSIZE", "size", FactType::Text, "size"),
    ("ZQUALITY", "quality", FactType::Text, "quality"),
    (
        "ZQUALITYMEASURE",
        "quality_measure",
        FactType::Count,
        "quality measure",
    ),
    ("ZBLURSCORE", "blur", FactType::Text, "blur score"),
    (
        "ZSOURCEWIDTH",
        "source_width",
        FactType::Count,
        "source width",
    ),
    (
        "ZSOURCEHEIGHT",
        "source_height",
        FactType::Count,
        "source height",
    ),
    ("ZPOSEYAW", "yaw", FactType::Text, "yaw"),
    ("ZROLL", "roll", FactType::Text, "roll"),
    (
        "ZCLUSTERSEQUENCENUMBER",
        "cluster",
        FactType::Count,
        "cluster sequence number",
    ),
    (
        "ZGROUPINGIDENTIFIER",
        "grouping",
        FactType::Identifier,
        "grouping id",
    ),
    (
        "ZMASTERIDENTIFIER",
        "master",
        FactType::Identifier,
        "master id",
    ),
    (
        "ZDETECTIONTYPE",
        "detection_type",
        FactType::Count,
        "detection type (as stored)",
    ),
];

/// The person columns read as stored: (column, alias, fact type, label).
const PERSON_COLS: [(&str, &str, FactType, &str); 13] = [
    ("ZFULLNAME", "full_name", FactType::Name, "full name"),
    (
        "ZDISPLAYNAME",
        "display_name",
        FactType::Name,
        "display name",
    ),
    ("ZPERSONUUID", "uuid", FactType::Identifier, "person UUID"),
    (
        "ZPERSONURI",
        "uri",
        FactType::Identifier,
        "linked contact (ZPERSONURI)",
    ),
    (
        "ZFACECOUNT",
        "face_count",
        FactType::Count,
        "face count kept",
    ),
    ("ZTYPE", "type", FactType::Count, "type (ZTYPE, as stored)"),
    (
        "ZMANUALORDER",
        "manual_order",
        FactType::Count,
        "manual order",
    ),
    (
        "ZISMECONFIDENCE",
        "is_me",
        FactType::Text,
        "Photos' confidence that this is the device's user (ZISMECONFIDENCE)",
    ),
    (
        "ZMERGETARGETPERSON",
        "merged_into",
        FactType::Identifier,
        "merged into person Z_PK",
    ),
    (
        "ZKEYFACE",
        "key_face",
        FactType::Identifier,
        "key face Z_PK",
    ),
    (
        "ZSHAREPARTICIPANT",
        "share_participant",
        FactType::Identifier,
        "Shared Library participant Z_PK",
    ),
    (
        "ZDETECTIONTYPE",
        "detection_type",
        FactType::Count,
        "detection type (as stored)",
    ),
    (
        "ZCLOUDVERIFIEDTYPE",
        "cloud_verified",
        FactType::Count,
        "cloud verified type (as stored)",
    ),
];

/// The person codes decoded in the query: (column, alias, codes, whether an unknown code is
/// kept, label).
const PERSON_CODES: [(&str, &str, Codes, bool, &str); 5] = [
    ("ZVERIFIEDTYPE", "verified", VERIFIED, true, "verified type"),
    ("ZTYPE", "favourite", FAVOURITE, false, "favourite"),
    ("ZAGETYPE", "age", AGE, true, "age estimate"),
    ("ZGENDERTYPE", "gender", GENDER, true, "gender estimate"),
    (
        "ZCLOUDDELETESTATE",
        "cloud_deleted",
        CLOUD_DELETED,
        false,
        "state",
    ),
];

fn one(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let Some(schema) = run.schema(path, &[PERSON, FACE, "ZASSET", "ZGENERICASSET"])? else {
        return Ok(());
    };
    let p = schema.columns(PERSON);
    let f = schema.columns(FACE);
    // a library without people (or a database that is no library, which the Photos reader
    // notes) gives nothing here
    if p.is_empty() && f.is_empty() {
        return Ok(());
    }
    let asset = ["ZASSET", "ZGENERICASSET"]
        .into_iter()
        .find(|t| !schema.columns(t).is_empty())
        .map(|t| (t, schema.columns(t)));
    // the face's person: iOS 17+ names it by ZPERSONFORFACE (and a torso's by ZPERSONFORTORSO)
    let face_person = ["ZPERSONFORFACE", "ZPERSON"]
        .into_iter()
        .find(|c| f.contains(*c));
    if !p.is_empty()
        && require_columns(
            run.ctx,
            path,
            "the Photos library's people",
            PERSON,
            &p,
            &["Z_PK"],
        )?
    {
        persons(
            run,
            find,
            path,
            &p,
            f.contains("Z_PK").then_some(face_person).flatten(),
        )?;
    }
    if !f.is_empty()
        && require_columns(
            run.ctx,
            path,
            "the Photos library's detected faces",
            FACE,
            &f,
            &["Z_PK"],
        )?
    {
        let asset = asset.as_ref().map(|(t, c)| (*t, c));
        faces(run, find, path, &f, &p, asset)?;
    }
    Ok(())
}

fn persons(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    p: &BTreeSet<String>,
    face_person: Option<&str>,
) -> Result<(), RuntimeError> {
    let mut cols = vec!["p.Z_PK AS pk".to_string()];
    for (c, alias, _, _) in PERSON_COLS {
        cols.push(column_or_null(p, "p.", c, alias));
    }
    cols.push(column_or_null(
        p,
        "p.",
        "ZCONTACTMATCHINGDICTIONARY",
        "contact",
    ));
    for (c, alias, codes, others, _) in PERSON_CODES {
        cols.push(decode_col(p, "p.", c, codes, others, alias));
    }
    cols.push(match face_person {
        Some(c) => format!("(SELECT count(*) FROM {FACE} f WHERE f.{c} = p.Z_PK) AS faces_linked"),
        None => "NULL AS faces_linked".to_string(),
    });
    let select = format!("SELECT {} FROM {PERSON} p", cols.join(", "));
    let Some(paged) = run.paged_with(path, &select, "p.Z_PK", &["plists"])? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        person(run, find, path, inv, t, row)?;
    }
    if paged.truncated {
        summarise(
            run,
            "contacts",
            path,
            find,
            "Photos people",
            &format!(
                "SELECT count(*) AS total, NULL AS first_time, NULL AS last_time FROM {PERSON}"
            ),
            core_data_encoding,
            "",
            "",
        )?;
    }
    Ok(())
}

/// Every string and number of a decoded property list as `(key path, value)`: a key path joins
/// member names with `.` (the archive's `root` left out), an array's items share their array's.
fn leaves(v: &Value, key: &str, out: &mut Vec<(String, String)>) {
    match v {
        Value::Object(o) => {
            for (k, x) in o {
                let p = if key.is_empty() || key == "root" {
                    k.clone()
                } else {
                    format!("{key}.{k}")
                };
                leaves(x, &p, out);
            }
        }
        Value::Array(a) => {
            for x in a {
                leaves(x, key, out);
            }
        }
        Value::String(s) if !s.trim().is_empty() => out.push((key.to_string(), s.clone())),
        Value::Number(n) => out.push((key.to_string(), n.to_string())),
        _ => {}
    }
}

fn person(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    inv: &Invoked,
    t: &Table,
    row: &[Option<String>],
) -> Result<(), RuntimeError> {
    let pk = raw(t, row, "pk").unwrap_or_default();
    // the full name, else the display name (an empty one is none)
    let name = t
        .get(row, "full_name")
        .or_else(|| t.get(row, "display_name"))
        .map(str::to_string);
    let mut d = Draft::new(
        "contacts",
        match &name {
            Some(n) => format!("Photos person {pk}: {n}"),
            None => format!("Photos person {pk} (unnamed)"),
        },
    );
    d.fact(FactType::Path, Some(path), find);
    let spec: Vec<(&str, FactType, &str)> = PERSON_COLS
        .iter()
        .map(|(_, alias, ft, label)| (*alias, *ft, *label))
        .collect();
    let mut said = d.fields(t, row, inv, &spec);
    let codes: Vec<(&str, FactType, &str)> = PERSON_CODES
        .iter()
        .map(|(_, alias, _, _, label)| (*alias, FactType::Text, *label))
        .collect();
    said.extend(d.fields(t, row, inv, &codes));
    said.extend(d.fields(
        t,
        row,
        inv,
        &[(
            "faces_linked",
            FactType::Count,
            "detected faces linked to it",
        )],
    ));
    // the contact-matching dictionary: every member kept, identifiers in clear observed
    let mut contact: Vec<(String, String)> = Vec::new();
    match t.get(row, "contact") {
        Some(cell) => match plist_cell(cell) {
            Some(v) => {
                leaves(&v, "", &mut contact);
                for (_, value) in &contact {
                    d.fact(FactType::Text, Some(&in_json_cell(value)), inv);
                }
                if !contact.is_empty() {
                    said.push(format!(
                        "contact-matching dictionary: {}",
                        contact
                            .iter()
                            .map(|(k, v)| format!("{k} {v}"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ));
                }
            }
            None => said.push(
                "a contact-matching dictionary that is no property list (left as stored)"
                    .to_string(),
            ),
        },
        None => said.push("no contact-matching dictionary".to_string()),
    }
    d.interpretation = format!(
        "{PERSON} Z_PK {pk} of {path}: a person of the Photos People album, {}; {}. A name is the label the device's user gave the person in Photos (typed, or the contact Photos matched and the user confirmed), not a verified identity; the age and gender are Photos' automatic estimates. The person's faces are the ZDETECTEDFACE rows that name it.",
        match &name {
            Some(n) => format!("named {n}"),
            None => "unnamed (a group of faces Photos made, no name given)".to_string(),
        },
        said.join("; "),
    );
    run.record(d)?;
    observe(run, path, &pk, t, row, name.as_deref(), &contact, inv)
}

/// Observes the identifiers in clear of a person row: `ZPERSONURI` as the contact's GUID, the
/// contact-matching dictionary's e-mail addresses, phone numbers and contact identifiers.
#[allow(clippy::too_many_arguments)]
fn observe(
    run: &Run<'_, '_>,
    path: &str,
    pk: &str,
    t: &Table,
    row: &[Option<String>],
    name: Option<&str>,
    contact: &[(String, String)],
    inv: &Invoked,
) -> Result<(), RuntimeError> {
    let context = match t.get(row, "uuid") {
        Some(u) => format!("photos-person:{u}"),
        None => format!("photos-person:{}:{pk}", file_name(path)),
    };
    let label = name
        .map(str::to_string)
        .unwrap_or_else(|| format!("Photos person {pk}"));
    let who = format!("{label}, a person the device's user has in the Photos library");
    let mut ids: Vec<(IdType, String, String)> = Vec::new();
    if let Some(uri) = t.get(row, "uri") {
        ids.push((
            IdType::ContactGuid,
            uri.to_string(),
            format!("Photos links {who} to the address-book contact {uri} (ZPERSONURI)."),
        ));
    }
    for (key, value) in contact {
        let k = key.to_ascii_lowercase();
        let id_type = if value.contains('@') {
            IdType::Email
        } else if k.contains("phone") {
            IdType::Phone
        } else if k.contains("identifier") {
            IdType::ContactGuid
        } else {
            continue;
        };
        ids.push((
            id_type,
            value.clone(),
            format!("The contact-matching dictionary of {who} holds {value} ({key})."),
        ));
    }
    for (id_type, value, why) in ids {
        run.observe(
            &context,
            EntityKind::Person,
            &label,
            id_type,
            &value,
            inv,
            why,
        )?;
    }
    Ok(())
}

fn faces(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    f: &BTreeSet<String>,
    p: &BTreeSet<String>,
    asset: Option<(&str, &BTreeSet<String>)>,
) -> Result<(), RuntimeError> {
    let torso = f.contains("ZASSETFORTORSO");
    let asset_col = ["ZASSETFORFACE", "ZASSET"]
        .into_iter()
        .find(|c| f.contains(*c));
    let person_col = ["ZPERSONFORFACE", "ZPERSON"]
        .into_iter()
        .find(|c| f.contains(*c));
    // a torso detected without a face names its asset and person by the torso columns
    let asset_key = match (asset_col, torso) {
        (Some(c), true) => format!("COALESCE(f.{c}, f.ZASSETFORTORSO)"),
        (Some(c), false) => format!("f.{c}"),
        (None, true) => "f.ZASSETFORTORSO".to_string(),
        (None, false) => "NULL".to_string(),
    };
    let person_key = match (person_col, f.contains("ZPERSONFORTORSO")) {
        (Some(c), true) => format!("COALESCE(f.{c}, f.ZPERSONFORTORSO)"),
        (Some(c), false) => format!("f.{c}"),
        (None, true) => "f.ZPERSONFORTORSO".to_string(),
        (None, false) => "NULL".to_string(),
    };
    let mut cols = vec![
        "f.Z_PK AS pk".to_string(),
        format!("{asset_key} AS asset_pk"),
        format!("{person_key} AS person_pk"),
    ];
    cols.push(match (asset_col, torso) {
        (Some(c), true) => format!(
            "CASE WHEN f.{c} IS NOT NULL AND f.ZASSETFORTORSO IS NOT NULL THEN 'face and torso' WHEN f.{c} IS NOT NULL THEN 'face' WHEN f.ZASSETFORTORSO IS NOT NULL THEN 'torso' END AS detected"
        ),
        _ => "NULL AS detected".to_string(),
    });
    let has_asset = asset.is_some_and(|(_, a)| a.contains("Z_PK"));
    match asset {
        Some((_, a)) if has_asset => {
            cols.push(if a.contains("ZDIRECTORY") && a.contains("ZFILENAME") {
                "a.ZDIRECTORY || '/' || a.ZFILENAME AS file".to_string()
            } else {
                "NULL AS file".to_string()
            });
            cols.push(column_or_null(a, "a.", "ZUUID", "asset_uuid"));
        }
        _ => {
            cols.push("NULL AS file".to_string());
            cols.push("NULL AS asset_uuid".to_string());
        }
    }
    let has_person = p.contains("Z_PK");
    if has_person {
        cols.push(format!(
            "COALESCE(NULLIF({}, ''), NULLIF({}, '')) AS person_name",
            column_expr(p, "p.", "ZFULLNAME"),
            column_expr(p, "p.", "ZDISPLAYNAME")
        ));
        cols.push(column_or_null(p, "p.", "ZPERSONUUID", "person_uuid"));
    } else {
        cols.push("NULL AS person_name".to_string());
        cols.push("NULL AS person_uuid".to_string());
    }
    for (c, alias, _, _) in FACE_COLS {
        cols.push(column_or_null(f, "f.", c, alias));
    }
    for (c, alias, _, codes, others) in FACE_CODES {
        cols.push(decode_col(f, "f.", c, codes, others, alias));
    }
    let mut from = format!("FROM {FACE} f");
    if let (Some((table, _)), true) = (asset, has_asset) {
        from.push_str(&format!(" LEFT JOIN {table} a ON a.Z_PK = {asset_key}"));
    }
    if has_person {
        from.push_str(&format!(" LEFT JOIN {PERSON} p ON p.Z_PK = {person_key}"));
    }
    let select = format!("SELECT {} {from}", cols.join(", "));
    let Some(paged) = run.paged(path, &select, "f.Z_PK")? else {
        return Ok(());
    };
    let table = asset.map(|(t, _)| t).unwrap_or("the asset table");
    for (inv, t, row) in paged.rows() {
        face(run, find, path, table, inv, t, row)?;
    }
    if paged.truncated {
        summarise(
            run,
            "media",
            path,
            find,
            "Photos detected faces",
            &format!("SELECT count(*) AS total, NULL AS first_time, NULL AS last_time FROM {FACE}"),
            core_data_encoding,
            "",
            "",
        )?;
    }
    Ok(())
}

fn face(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    asset_table: &str,
    inv: &Invoked,
    t: &Table,
    row: &[Option<String>],
) -> Result<(), RuntimeError> {
    let pk = raw(t, row, "pk").unwrap_or_default();
    let file = raw(t, row, "file");
    let asset_pk = raw(t, row, "asset_pk");
    let person_pk = raw(t, row, "person_pk");
    let name = raw(t, row, "person_name");
    let on = match (&file, &asset_pk) {
        (Some(f), _) => f.clone(),
        (None, Some(a)) => format!("asset {a}"),
        (None, None) => "no asset".to_string(),
    };
    let mut d = Draft::new(
        "media",
        format!(
            "Photos face {pk}: {} on {on}",
            name.as_deref().unwrap_or("unnamed")
        ),
    );
    d.fact(FactType::Path, Some(path), find);
    d.fact(FactType::Path, file.as_deref(), inv);
    let mut said = d.fields(
        t,
        row,
        inv,
        &[
            ("asset_pk", FactType::Identifier, "asset Z_PK"),
            ("asset_uuid", FactType::Identifier, "asset UUID"),
            ("person_pk", FactType::Identifier, "person Z_PK"),
            ("person_name", FactType::Name, "person"),
            ("person_uuid", FactType::Identifier, "person UUID"),
            ("detected", FactType::Text, "detected"),
        ],
    );
    let spec: Vec<(&str, FactType, &str)> = FACE_COLS
        .iter()
        .map(|(_, alias, ft, label)| (*alias, *ft, *label))
        .collect();
    said.extend(d.fields(t, row, inv, &spec));
    let codes: Vec<(&str, FactType, &str)> = FACE_CODES
        .iter()
        .map(|(_, alias, label, _, _)| (*alias, FactType::Text, *label))
        .collect();
    said.extend(d.fields(t, row, inv, &codes));
    let asset_said = match (&file, &asset_pk) {
        (Some(f), Some(a)) => format!("on {f} ({asset_table} Z_PK {a})"),
        (None, Some(a)) => format!("on {asset_table} Z_PK {a}, which is not in the table"),
        _ => "on no asset".to_string(),
    };
    let person_said = match (&person_pk, &name) {
        (Some(p), Some(n)) => format!("of person Z_PK {p}, named {n}"),
        (Some(p), None) => format!("of person Z_PK {p}, unnamed"),
        _ => "linked to no person".to_string(),
    };
    d.interpretation = format!(
        "{FACE} Z_PK {pk} of {path}: a face (or body) Photos detected {asset_said}, {person_said}; {}. The estimates (age, gender, ethnicity, skin tone, hair, expression and the rest) are Photos' automatic guesses from the image, decoded in the query as iLEAPP reads the codes: they say how the face looked to the classifier, not who the person is or what they are. The face print and face crop are not read.",
        said.join("; "),
    );
    run.record(d)
}
