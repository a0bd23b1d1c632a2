//! FIT activity files on either platform (`*.fit` anywhere: Strava's `com.strava/files`, Garmin
//! Connect's and other fitness apps' folders, a watch's copied `Activity/` folder), ALEAPP's
//! `StravaGPS` and the Garmin FIT readers, each read with `read_fit`.
//!
//! One phenomenon per file ("Fitness activity: <sport> from <start>", `locations` when it holds
//! a GPS track, else `health`): the file's type, the creating device's manufacturer, product and
//! serial number and when it created the file (`file_id`); every device that took part
//! (`device_info`: the watch, a heart-rate strap, a bike sensor — manufacturer, product, serial,
//! software version); the user profile the device holds (friendly name, gender, age, height,
//! weight); each session (sport, sub-sport, start, elapsed and timer time, distance, calories,
//! average and maximum heart rate, the start position in semicircles as stored and in degrees);
//! how many track points there are, and the first and the last with their time and position.
//! Times are the tool's RFC 3339 UTC text. A track is where the device was, not who carried it
//! (said).
//!
//! Identities: each device with a serial number is a device of its own (`fit-device:<serial>`,
//! its serial as identifier): the same watch synced to two phones, or seized itself, resolves to
//! one device. A file `read_fit` cannot read is noted; a damaged one is read up to the damage
//! (the tool's problem line said in the interpretation).

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{EntityKind, FactType, IdType};
use masf_tools::Invoked;
use serde_json::{Value, json};

use crate::drafts::{Draft, date_text, record_draft};
use crate::outputs::json_scalar;

/// Whether a file name is a FIT file's.
pub fn is_fit_file(name: &str) -> bool {
    name.to_ascii_lowercase().ends_with(".fit")
}

/// The message lines of a `read_fit` output.
fn messages(text: &str) -> Vec<Value> {
    text.lines()
        .filter(|l| l.starts_with('{'))
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect()
}

/// A field as the output prints it (numbers as serde_json writes them).
fn field(m: &Value, name: &str) -> Option<String> {
    json_scalar(m.get("fields")?.get(name))
}

/// A device's product: a Garmin product by its profile name (`garmin_product`), else the
/// number.
fn product(m: &Value) -> Option<String> {
    field(m, "garmin_product").or_else(|| field(m, "product"))
}

/// A device of a `file_id` or `device_info` message, by its serial number (once each): the
/// serial and the device's name (maker and product).
fn note_device(devices: &mut Vec<(String, String)>, m: &Value) {
    let Some(serial) = field(m, "serial_number") else {
        return;
    };
    if devices.iter().any(|(have, _)| *have == serial) {
        return;
    }
    let label = format!(
        "{} {}",
        field(m, "manufacturer").unwrap_or_default(),
        product(m).unwrap_or_default()
    )
    .trim()
    .to_string();
    devices.push((serial, label));
}

/// `read_fit` with `args` and `extra` options.
fn call(
    ctx: &AgentCtx<'_>,
    artefact: &str,
    args: &Value,
    extra: Value,
) -> Result<Option<Invoked>, RuntimeError> {
    let mut a = args.clone();
    if let (Some(o), Some(e)) = (a.as_object_mut(), extra.as_object()) {
        for (k, v) in e {
            o.insert(k.clone(), v.clone());
        }
    }
    crate::calls::call_or_note(ctx, artefact, "read_fit", a)
}

/// Reads one file: `args` are `read_fit`'s (the path, and the partition where the caller has
/// one); `find` is the listing that found it.
pub fn read(
    ctx: &AgentCtx<'_>,
    artefact: &str,
    args: Value,
    find: &Invoked,
    path: &str,
) -> Result<(), RuntimeError> {
    let Some(inv) = call(
        ctx,
        artefact,
        &args,
        json!({"messages": ["file_id", "device_info", "user_profile", "session", "activity"]}),
    )?
    else {
        return Ok(());
    };
    let head = messages(&inv.output.text);
    let problem = inv
        .output
        .text
        .lines()
        .find_map(|l| l.strip_prefix("# problem: "))
        .map(str::to_string);
    let records = inv
        .output
        .structured
        .as_ref()
        .and_then(|s| s["counts"]["record"].as_u64())
        .unwrap_or(0);
    let first = if records > 0 {
        call(
            ctx,
            artefact,
            &args,
            json!({"messages": ["record"], "limit": 1}),
        )?
    } else {
        None
    };
    let last = if records > 1 {
        call(
            ctx,
            artefact,
            &args,
            json!({"messages": ["record"], "skip": records - 1, "limit": 1}),
        )?
    } else {
        None
    };
    let of = |name: &'static str| head.iter().filter(move |m| m["message"] == name);
    let session = of("session").next();
    let sport = session.and_then(|s| field(s, "sport"));
    let start = session.and_then(|s| field(s, "start_time"));
    let tracked = records > 0
        && [&first, &last].iter().any(|i| {
            i.as_ref().is_some_and(|i| {
                messages(&i.output.text)
                    .iter()
                    .any(|m| field(m, "position_lat_degrees").is_some())
            })
        });
    let file = path.rsplit('/').next().unwrap_or(path);
    let mut d = Draft::new(
        if tracked { "locations" } else { "health" },
        match (&sport, &start) {
            (Some(s), Some(t)) => format!("Fitness activity: {s} from {t}"),
            (Some(s), None) => format!("Fitness activity: {s} ({file})"),
            _ => format!("FIT file {file}"),
        },
    );
    d.fact(FactType::Path, Some(path), find);
    let mut said = Vec::new();
    let mut devices: Vec<(String, String)> = Vec::new();
    for m in of("file_id") {
        let product = product(m);
        for (v, ft) in [
            (field(m, "type"), FactType::Text),
            (field(m, "manufacturer"), FactType::Name),
            (product.clone(), FactType::Name),
            (field(m, "serial_number"), FactType::Serial),
        ] {
            d.fact(ft, v.as_deref(), &inv);
        }
        let created = field(m, "time_created");
        d.time(
            created.as_deref(),
            date_text(created.as_deref()),
            "FIT file created",
            &inv,
        );
        said.push(format!(
            "a {} file created by {} {}{}",
            field(m, "type").unwrap_or_else(|| "FIT".into()),
            field(m, "manufacturer").unwrap_or_else(|| "an unnamed maker".into()),
            product.clone().unwrap_or_default(),
            field(m, "serial_number")
                .map(|s| format!(" (serial {s})"))
                .unwrap_or_default()
        ));
        note_device(&mut devices, m);
    }
    for m in of("device_info") {
        let product = product(m);
        let serial = field(m, "serial_number");
        d.fact(FactType::Serial, serial.as_deref(), &inv);
        d.fact(FactType::Name, product.as_deref(), &inv);
        d.fact(
            FactType::Text,
            field(m, "software_version").as_deref(),
            &inv,
        );
        said.push(format!(
            "device {}: {} {}{}{}",
            field(m, "device_index").unwrap_or_else(|| "?".into()),
            field(m, "manufacturer").unwrap_or_default(),
            product.clone().unwrap_or_default(),
            serial
                .as_deref()
                .map(|s| format!(", serial {s}"))
                .unwrap_or_default(),
            field(m, "software_version")
                .map(|v| format!(", software {v}"))
                .unwrap_or_default(),
        ));
        note_device(&mut devices, m);
    }
    for m in of("user_profile") {
        let parts = d.json_fields(
            &m["fields"],
            &inv,
            &[
                ("friendly_name", FactType::Name, "friendly_name"),
                ("gender", FactType::Text, "gender"),
                ("age", FactType::Text, "age"),
                ("height", FactType::Text, "height"),
                ("weight", FactType::Text, "weight"),
            ],
        );
        if !parts.is_empty() {
            said.push(format!("the device's user profile: {}", parts.join(", ")));
        }
    }
    for s in of("session") {
        let parts = d.json_fields(
            &s["fields"],
            &inv,
            &[
                ("sport", FactType::Text, "sport"),
                ("sub_sport", FactType::Text, "sub_sport"),
                ("total_elapsed_time", FactType::Text, "total_elapsed_time"),
                ("total_timer_time", FactType::Text, "total_timer_time"),
                ("total_distance", FactType::Text, "total_distance"),
                ("total_calories", FactType::Text, "total_calories"),
                ("avg_heart_rate", FactType::Text, "avg_heart_rate"),
                ("max_heart_rate", FactType::Text, "max_heart_rate"),
                ("start_position_lat", FactType::Text, "start_position_lat"),
                ("start_position_long", FactType::Text, "start_position_long"),
                (
                    "start_position_lat_degrees",
                    FactType::Text,
                    "start_position_lat_degrees",
                ),
                (
                    "start_position_long_degrees",
                    FactType::Text,
                    "start_position_long_degrees",
                ),
            ],
        );
        let t = field(s, "start_time");
        d.time(
            t.as_deref(),
            date_text(t.as_deref()),
            "Activity started",
            &inv,
        );
        said.push(format!(
            "a session from {}: {}",
            t.as_deref().unwrap_or("?"),
            parts.join(", ")
        ));
    }
    for (which, i) in [("first", &first), ("last", &last)] {
        let Some(i) = i else {
            continue;
        };
        let Some(m) = messages(&i.output.text).into_iter().next() else {
            continue;
        };
        let t = field(&m, "timestamp");
        let lat = field(&m, "position_lat_degrees");
        let lon = field(&m, "position_long_degrees");
        d.fact(FactType::Text, lat.as_deref(), i);
        d.fact(FactType::Text, lon.as_deref(), i);
        d.time(
            t.as_deref(),
            date_text(t.as_deref()),
            if which == "first" {
                "First track point"
            } else {
                "Last track point"
            },
            i,
        );
        said.push(format!(
            "the {which} track point at {}{}",
            t.as_deref().unwrap_or("?"),
            match (&lat, &lon) {
                (Some(a), Some(o)) => format!(", latitude {a}, longitude {o}"),
                _ => String::new(),
            }
        ));
    }
    if records > 0 {
        d.fact(FactType::Count, Some(&records.to_string()), &inv);
    }
    d.interpretation = format!(
        "{file}, read by read_fit: {}; {records} track point(s){}. A track is where the recording device was, not who carried it.{}",
        if said.is_empty() {
            "no file, device, user or session message".to_string()
        } else {
            said.join("; ")
        },
        if tracked { " with positions" } else { "" },
        problem
            .map(|p| format!(" The file is damaged: {p}."))
            .unwrap_or_default(),
    );
    record_draft(ctx, d)?;
    for (serial, label) in devices {
        crate::identity::observe(
            ctx,
            &format!("fit-device:{serial}"),
            EntityKind::Device,
            &format!("{label} (serial {serial})"),
            IdType::Serial,
            &serial,
            &inv,
            format!(
                "The serial number of {label}, a device that recorded or took part in the activity of {file} (FIT file_id / device_info)."
            ),
        )?;
    }
    Ok(())
}
