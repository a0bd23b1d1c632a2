//! BitTorrent files on either platform, ALEAPP's and iLEAPP's `torrentData`, `torrentinfo` and
//! `torrentResumeinfo`: a `.torrent` metainfo file (what a torrent holds) and a client's
//! `.resume` / `.fastresume` data (libtorrent's: where it was saved, when added and completed,
//! how much was downloaded and uploaded), each read with `read_bencode`.
//!
//! One `files` phenomenon per file: the info hash (SHA-1 of the `info` dictionary as stored, the
//! tool's), the torrent's name, each file it holds with its size (at most [`FILES_SAID`] named,
//! the rest counted), the trackers, comment, creator and creation date (Unix seconds); for resume
//! data also the save path, the totals downloaded and uploaded, and the times added, completed,
//! last downloaded and last uploaded (Unix seconds; 0 is never). A torrent file is content asked
//! for or shared; the files it names are not proof they are on the device (said). A file that is
//! not bencode is noted. Identities: none.

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::FactType;
use masf_tools::Invoked;
use serde_json::Value;

use crate::drafts::{Draft, record_draft, unix_seconds};
use crate::outputs::{in_json, json_scalar};

/// Most files of a torrent given as facts.
pub const FILES_SAID: usize = 200;

/// Whether a file name is a torrent's or a client's resume data.
pub fn is_torrent_file(name: &str) -> bool {
    let n = name.to_ascii_lowercase();
    n.ends_with(".torrent") || n.ends_with(".resume") || n.ends_with(".fastresume")
}

/// The JSON document of a `read_bencode` output.
fn document(text: &str) -> Option<Value> {
    let (_, body) = text.split_once('\n')?;
    serde_json::from_str(body).ok()
}

/// Reads one file: `args` are `read_bencode`'s (the path, and the partition where the caller
/// has one); `find` is the listing that found it.
pub fn read(
    ctx: &AgentCtx<'_>,
    artefact: &str,
    args: Value,
    find: &Invoked,
    path: &str,
) -> Result<(), RuntimeError> {
    let Some(inv) = crate::calls::call_or_note(ctx, artefact, "read_bencode", args)? else {
        return Ok(());
    };
    let Some(doc) = document(&inv.output.text).filter(Value::is_object) else {
        ctx.unparsed(
            artefact,
            "could not parse the BitTorrent file because it holds no dictionary",
            Some(&inv.record.invocation_id),
        )?;
        return Ok(());
    };
    let hash = inv
        .output
        .structured
        .as_ref()
        .and_then(|s| s["info_hash"].as_str())
        .map(str::to_string);
    let info = &doc["info"];
    let resume = !path.to_ascii_lowercase().ends_with(".torrent");
    let name = json_scalar(info.get("name")).or_else(|| json_scalar(doc.get("name")));
    let file = path.rsplit('/').next().unwrap_or(path);
    let mut d = Draft::new(
        "files",
        format!(
            "{}: {}",
            if resume {
                "Torrent resume data"
            } else {
                "Torrent file"
            },
            name.as_deref().unwrap_or(file)
        ),
    );
    d.fact(FactType::Path, Some(path), find);
    d.fact(FactType::Hash, hash.as_deref(), &inv);
    d.fact(FactType::Name, name.as_deref(), &inv);
    let mut said = Vec::new();
    // the files: a multi-file torrent's `files` (each a `path` list and a `length`), or the
    // single file of `name` and `length`
    let files: Vec<(String, Option<String>)> = match info["files"].as_array() {
        Some(list) => list
            .iter()
            .filter_map(|f| {
                let parts: Vec<String> = f["path"]
                    .as_array()?
                    .iter()
                    .filter_map(|p| p.as_str().map(str::to_string))
                    .collect();
                Some((parts.join("/"), json_scalar(f.get("length"))))
            })
            .collect(),
        None => name
            .iter()
            .map(|n| (n.clone(), json_scalar(info.get("length"))))
            .collect(),
    };
    for (f, len) in files.iter().take(FILES_SAID) {
        // a component as the output shows it (the last: the file's own name)
        let last = f.rsplit('/').next().unwrap_or(f);
        d.fact(FactType::Name, Some(&in_json(last)), &inv);
        d.fact(FactType::Count, len.as_deref(), &inv);
    }
    if !files.is_empty() {
        let total: u64 = files
            .iter()
            .filter_map(|(_, l)| l.as_deref()?.parse::<u64>().ok())
            .sum();
        said.push(format!(
            "{} file(s), {total} bytes: {}{}",
            files.len(),
            files
                .iter()
                .take(FILES_SAID)
                .map(|(f, l)| format!("{f} ({} bytes)", l.as_deref().unwrap_or("?")))
                .collect::<Vec<_>>()
                .join(", "),
            if files.len() > FILES_SAID {
                format!(" and {} more", files.len() - FILES_SAID)
            } else {
                String::new()
            }
        ));
    }
    // trackers: `announce`, `announce-list` (lists of lists), a resume's `trackers`
    let mut trackers: Vec<String> = Vec::new();
    let mut add = |v: &Value| {
        if let Some(t) = v
            .as_str()
            .filter(|t| !t.is_empty() && !trackers.iter().any(|x| x == t))
        {
            trackers.push(t.to_string());
        }
    };
    add(&doc["announce"]);
    for key in ["announce-list", "trackers"] {
        for tier in doc[key].as_array().into_iter().flatten() {
            match tier.as_array() {
                Some(list) => list.iter().for_each(&mut add),
                None => add(tier),
            }
        }
    }
    for t in &trackers {
        d.fact(FactType::Url, Some(&in_json(t)), &inv);
    }
    if !trackers.is_empty() {
        said.push(format!("trackers {}", trackers.join(", ")));
    }
    for (key, ft, label) in [
        ("comment", FactType::Text, "comment"),
        ("created by", FactType::Text, "created by"),
        ("save_path", FactType::Path, "saved to"),
        ("total_downloaded", FactType::Count, "bytes downloaded"),
        ("total_uploaded", FactType::Count, "bytes uploaded"),
    ] {
        if let Some(v) = json_scalar(doc.get(key)).filter(|v| v != "0" || key == "save_path") {
            d.fact(ft, Some(&v), &inv);
            said.push(format!("{label} {v}"));
        }
    }
    for (key, what) in [
        ("creation date", "Torrent created"),
        ("added_time", "Torrent added to the client"),
        ("completed_time", "Torrent download completed"),
        ("last_download", "Torrent last downloaded from peers"),
        ("last_upload", "Torrent last uploaded to peers"),
    ] {
        let v = json_scalar(doc.get(key));
        d.time(v.as_deref(), unix_seconds(v.as_deref()), what, &inv);
    }
    d.interpretation = format!(
        "{file}: {}{}; {}. {}",
        if resume {
            "a BitTorrent client's resume data for the torrent"
        } else {
            "a BitTorrent metainfo file for the torrent"
        },
        hash.as_deref()
            .map(|h| format!(" with info hash {h}"))
            .unwrap_or_default(),
        if said.is_empty() {
            "nothing else recorded".to_string()
        } else {
            said.join("; ")
        },
        if resume {
            "A client kept it to resume the download: the torrent was added to it; the totals say how much was exchanged."
        } else {
            "A torrent file is content asked for or shared; the files it names are not proof they are on the device."
        }
    );
    record_draft(ctx, d)
}
