//! Google Maps' text-to-speech cache (`com.google.android.apps.maps/app_tts-cache/`), ALEAPP's
//! `googlemapaudio` (`get_googlemapaudio`): the spoken navigation instructions Maps synthesised
//! and kept, one audio file each, named `<number>_<Unix ms>`. The folder is found by its name (an
//! app folder of [`super::APP_DIRS`]) and read only under Maps' package; it is listed with
//! `find_files`, and each instruction file's head read with `hexdump` (64 bytes: the container)
//! and its text runs with `strings` (the first MiB).
//!
//! | file | phenomenon | fields |
//! |---|---|---|
//! | `app_tts-cache/<number>_<ms>` | one `locations` per file ("Google Maps spoken instruction <name>") | path, name, the number before the `_` (as written; what it is, ALEAPP does not say and it is not decoded), size, the container's marker as the head shows it (`WAVE`, `OggS`, `ID3`, `fLaC`, `#!AMR`, `ftyp`, or an MPEG frame's first two bytes), the text runs that read like words (`strings`: a title a container keeps, such as a WAV's `LIST`/`INFO` `INAM`); when (the Unix milliseconds of the name, the time Maps cached the instruction), the file's modified time |
//!
//! For a WAV file the interpretation also gives the encoding, channels, sample rate, bits and the
//! duration its `data` chunk makes, read from the header bytes (said, not facts). The files are
//! not decoded to sound and the speech is not transcribed: what an instruction says is in the
//! file's audio, and the text is given only when the file itself writes it. A name that is not
//! `<number>_<digits>` (lock and temporary files) is passed over, as ALEAPP does; an empty file is
//! listed and said empty (ALEAPP leaves it out). A file whose head is no audio format known here is
//! noted (another file of the name, damage); a WAV whose RIFF header counts more bytes than the
//! file holds is noted as cut (and listed). Files past [`CONTENT_CAP`] in a folder are listed
//! without their head and text (noted). `app_tts-temp/` (ALEAPP's `googlemapaudioTemp`) is not
//! read here. Another app's `app_tts-cache` folder is neither read nor noted.
//!
//! What it proves: that Maps voiced a navigation instruction at about that time (the name's
//! time), so that navigation was running in Maps on the phone; it does not say where the phone
//! was, nor who was travelling. Identities: none.

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::FactType;
use masf_tools::Invoked;
use serde_json::json;

use super::Located;
use super::fishingnet::listed_modified;
use crate::calls::call_or_note;
use crate::drafts::{Draft, record_draft, unix_millis};
use crate::identity::{args_on, artefact_name};
use crate::outputs::{ListedFile, listed_files};

/// The cache folder, found by its name.
pub const DIR: &str = "app_tts-cache";

/// Maps' package, as a path component.
const PACKAGE: &str = "/com.google.android.apps.maps/";

/// Most entries listed in the folder.
const LIST_LIMIT: u64 = 20_000;

/// Most files of a folder whose head and text are read.
pub const CONTENT_CAP: usize = 1000;

/// Bytes of a file's head read.
const HEAD: u64 = 64;

/// Bytes of a file searched for text.
const TEXT_SPAN: u64 = 1 << 20;

/// Whether `l` is Maps' text-to-speech cache folder.
pub fn is_app_dir(l: &Located) -> bool {
    l.path.rsplit('/').next() == Some(DIR) && l.path.contains(PACKAGE)
}

/// The number and the Unix milliseconds of an instruction file's name (`-?\d+_\d+`).
pub fn name_parts(name: &str) -> Option<(&str, &str)> {
    let (number, stamp) = name.split_once('_')?;
    let digits = number.strip_prefix('-').unwrap_or(number);
    let ok = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    (ok(digits) && ok(stamp)).then_some((number, stamp))
}

/// Whether `path` is an instruction file of Maps' cache (for `categorise`).
pub fn is_tts_path(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    path.contains(PACKAGE) && path.contains("/app_tts-cache/") && name_parts(name).is_some()
}

/// The bytes a `hexdump` output shows (its hex columns).
pub(super) fn hexdump_bytes(text: &str) -> Vec<u8> {
    let mut out = Vec::new();
    for line in text.lines() {
        let Some((_, rest)) = line.split_once(": ") else {
            continue;
        };
        let hex = rest.split(" |").next().unwrap_or(rest);
        for h in hex.split_whitespace() {
            match u8::from_str_radix(h, 16) {
                Ok(b) if h.len() == 2 => out.push(b),
                _ => break,
            }
        }
    }
    out
}

/// The audio container of a head: its name and the marker as the hexdump shows it.
fn container(head: &[u8]) -> Option<(&'static str, String)> {
    let at = |i: usize, m: &[u8]| head.get(i..i + m.len()) == Some(m);
    if at(0, b"RIFF") && at(8, b"WAVE") {
        Some(("WAV (RIFF WAVE)", "WAVE".into()))
    } else if at(0, b"OggS") {
        let codec = if at(28, b"OpusHead") {
            "Ogg Opus"
        } else if at(29, b"vorbis") {
            "Ogg Vorbis"
        } else {
            "Ogg"
        };
        Some((codec, "OggS".into()))
    } else if at(0, b"ID3") {
        Some(("MP3 with an ID3 tag", "ID3".into()))
    } else if at(0, b"fLaC") {
        Some(("FLAC", "fLaC".into()))
    } else if at(0, b"#!AMR") {
        Some(("AMR", "#!AMR".into()))
    } else if at(4, b"ftyp") {
        Some(("MP4 audio (ftyp)", "ftyp".into()))
    } else if head.len() >= 2 && head[0] == 0xff && head[1] & 0xe0 == 0xe0 {
        Some((
            "MPEG audio (frame sync)",
            format!("{:02x} {:02x}", head[0], head[1]),
        ))
    } else {
        None
    }
}

fn u16le(b: &[u8], i: usize) -> Option<u64> {
    Some(u16::from_le_bytes(b.get(i..i + 2)?.try_into().ok()?) as u64)
}

fn u32le(b: &[u8], i: usize) -> Option<u64> {
    Some(u32::from_le_bytes(b.get(i..i + 4)?.try_into().ok()?) as u64)
}

/// A WAV header's description, and the bytes its RIFF size says the file holds.
fn wav_header(head: &[u8]) -> (String, Option<u64>) {
    let riff = u32le(head, 4).map(|n| n + 8);
    let fmt = head.get(12..16) == Some(b"fmt ".as_slice());
    let (Some(code), Some(ch), Some(rate), Some(bits)) = (
        u16le(head, 20).filter(|_| fmt),
        u16le(head, 22),
        u32le(head, 24),
        u16le(head, 34),
    ) else {
        return (String::new(), riff);
    };
    let encoding = match code {
        1 => "PCM".to_string(),
        3 => "IEEE float".to_string(),
        6 => "A-law".to_string(),
        7 => "µ-law".to_string(),
        other => format!("format {other}"),
    };
    let duration = match (head.get(36..40), u32le(head, 40)) {
        (Some(b"data"), Some(size)) if rate > 0 && ch > 0 && bits >= 8 => {
            let per_second = rate * ch * (bits / 8);
            (per_second > 0).then(|| format!(", {:.2} s of sound", size as f64 / per_second as f64))
        }
        _ => None,
    };
    (
        format!(
            "{encoding}, {ch} channel{}, {rate} Hz, {bits}-bit{}",
            if ch == 1 { "" } else { "s" },
            duration.unwrap_or_default()
        ),
        riff,
    )
}

/// Whether a `strings` run reads like words (a sentence rather than chance bytes): at least 12
/// characters with a space, two words of two letters or more, three quarters letters or spaces.
fn wordy(run: &str) -> bool {
    let t = run.trim();
    let letters = t
        .chars()
        .filter(|c| c.is_ascii_alphabetic() || *c == ' ')
        .count();
    t.len() >= 12
        && t.contains(' ')
        && t.split_whitespace()
            .filter(|w| w.chars().filter(char::is_ascii_alphabetic).count() >= 2)
            .count()
            >= 2
        && letters * 4 >= t.len() * 3
}

/// Maps' text-to-speech cache folder: each instruction file in it.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let name = artefact_name(&l.tree, &l.path);
    let Some(listing) =
        super::list_folder(ctx, l, LIST_LIMIT, "Google Maps' text-to-speech cache")?
    else {
        return Ok(());
    };
    let prefix = format!("{}/", l.path.trim_end_matches('/'));
    let files: Vec<ListedFile> = listed_files(&listing.output.text)
        .into_iter()
        .filter(|f| {
            f.path
                .strip_prefix(&prefix)
                .is_some_and(|n| !n.contains('/') && name_parts(n).is_some())
        })
        .collect();
    for (i, f) in files.iter().enumerate() {
        if i == CONTENT_CAP {
            ctx.unparsed(
                &name,
                &format!(
                    "{} instruction files: the heads and text of the first {CONTENT_CAP} were read, the others are listed only",
                    files.len()
                ),
                Some(&listing.record.invocation_id),
            )?;
        }
        instruction(ctx, l, &listing, f, i < CONTENT_CAP)?;
    }
    Ok(())
}

/// One instruction file.
fn instruction(
    ctx: &AgentCtx<'_>,
    l: &Located,
    listing: &Invoked,
    f: &ListedFile,
    read: bool,
) -> Result<(), RuntimeError> {
    let artefact = artefact_name(&l.tree, &f.path);
    let file = f.path.rsplit('/').next().unwrap_or(&f.path);
    let Some((number, stamp)) = name_parts(file) else {
        return Ok(());
    };
    let size: u64 = f.size.parse().unwrap_or(0);
    let mut d = Draft::new(
        "locations",
        format!("Google Maps spoken instruction {file}"),
    );
    d.fact(FactType::Path, Some(&f.path), listing);
    d.fact(FactType::Name, Some(file), listing);
    d.fact(FactType::Identifier, Some(number), listing);
    d.fact(FactType::Count, Some(&f.size), listing);
    d.time(
        Some(stamp),
        unix_millis(Some(stamp)),
        "Google Maps spoken instruction cached (the time in its name)",
        listing,
    );
    let (at, enc) = listed_modified(f);
    d.time(
        at,
        enc,
        "Google Maps spoken instruction file written",
        listing,
    );
    let mut said: Vec<String> = Vec::new();
    if size == 0 {
        said.push("the file is empty (no sound kept)".into());
    } else if read {
        // the head: the container
        if let Some(head) = call_or_note(
            ctx,
            &artefact,
            "hexdump",
            args_on(&l.tree, json!({"path": f.path, "length": HEAD})),
        )? {
            let bytes = hexdump_bytes(&head.output.text);
            match container(&bytes) {
                Some((kind, marker)) => {
                    d.fact(FactType::Text, Some(&marker), &head);
                    let mut what = format!("{kind} (marker {marker})");
                    if marker == "WAVE" {
                        let (desc, riff) = wav_header(&bytes);
                        if !desc.is_empty() {
                            what.push_str(&format!(": {desc}"));
                        }
                        if let Some(n) = riff.filter(|n| *n > size) {
                            ctx.unparsed(
                                &artefact,
                                &format!(
                                    "Google Maps' spoken instruction is cut: its RIFF header counts {n} bytes, the file holds {size}"
                                ),
                                Some(&head.record.invocation_id),
                            )?;
                            what.push_str(&format!(
                                "; cut: the RIFF header counts {n} bytes, the file holds {size}"
                            ));
                        }
                    }
                    said.push(what);
                }
                None => {
                    ctx.unparsed(
                        &artefact,
                        &format!(
                            "could not parse Google Maps' spoken instruction because its first bytes are no audio format known here ({})",
                            bytes
                                .iter()
                                .take(8)
                                .map(|b| format!("{b:02x}"))
                                .collect::<Vec<_>>()
                                .join(" ")
                        ),
                        Some(&head.record.invocation_id),
                    )?;
                    said.push("its head is no audio format known here".into());
                }
            }
        }
        // the text runs that read like words
        if let Some(runs) = call_or_note(
            ctx,
            &artefact,
            "strings",
            args_on(
                &l.tree,
                json!({"path": f.path, "min_len": 8, "length": TEXT_SPAN}),
            ),
        )? {
            let texts: Vec<String> = runs
                .output
                .text
                .lines()
                .filter_map(|line| line.split_once('\t').map(|(_, t)| t.to_string()))
                .filter(|t| wordy(t))
                .collect();
            for t in &texts {
                d.fact(FactType::Text, Some(t), &runs);
            }
            if texts.is_empty() {
                said.push("no text written in the file".into());
            } else {
                said.push(format!(
                    "text written in the file: {}",
                    texts
                        .iter()
                        .map(|t| format!("\"{t}\""))
                        .collect::<Vec<_>>()
                        .join(", ")
                ));
            }
        }
    } else {
        said.push(format!(
            "its head and text were not read (past the first {CONTENT_CAP} files of the folder)"
        ));
    }
    d.interpretation = format!(
        "{}: a navigation instruction Google Maps synthesised to speech and cached ({} bytes); its name holds {number} and {stamp}, the Unix milliseconds at which Maps cached it (navigation was running then); {}. The sound is not decoded or transcribed.",
        f.path,
        f.size,
        said.join("; ")
    );
    record_draft(ctx, d)
}
