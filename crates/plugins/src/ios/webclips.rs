//! Home screen web clips (`mobile/Library/WebClips/<id>.webclip/Info.plist`), iLEAPP's
//! `web_clips`: one `web` phenomenon per web page or web app the user added to the home screen —
//! its title, address, identifier (the folder's name) and every other value the clip keeps
//! (full screen, the app clip's bundle id …). The icon (`icon.png` beside it) is not read.
//!
//! Identities: none observed.

use masf_agents::RuntimeError;
use masf_graph::FactType;

use super::plists::parse;
use super::{Draft, Run};
use crate::outputs::{json_leaves, json_scalar};

/// Triage of every web clip of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    let Some((find, dirs)) = run.find_dirs("*.webclip")? else {
        return Ok(());
    };
    for dir in dirs {
        if !dir.contains("/WebClips/") {
            continue;
        }
        let path = format!("{dir}/Info.plist");
        let Some((inv, v)) = parse(run, &path)? else {
            continue;
        };
        let Some(o) = v.as_object() else {
            continue;
        };
        let id = dir
            .rsplit('/')
            .next()
            .and_then(|n| n.strip_suffix(".webclip"))
            .unwrap_or("?");
        let title = json_scalar(o.get("Title"));
        let url = json_scalar(o.get("URL"));
        let mut d = Draft::new(
            "web",
            format!(
                "Home screen web clip: {}",
                title.as_deref().or(url.as_deref()).unwrap_or(id)
            ),
        );
        d.fact(FactType::Path, Some(&dir), &find);
        d.fact(FactType::Name, title.as_deref(), &inv);
        d.fact(FactType::Url, url.as_deref(), &inv);
        let mut others = Vec::new();
        for (k, x) in o {
            if k == "Title" || k == "URL" {
                continue;
            }
            let mut leaves = Vec::new();
            json_leaves(x, k, &mut leaves);
            for (key, val) in leaves.into_iter().take(20) {
                if key.ends_with("$data_hex") {
                    others.push(format!("{key}: {} bytes of data", val.len() / 2));
                    continue;
                }
                d.fact(FactType::Text, Some(&val), &inv);
                others.push(format!("{key} {val}"));
            }
        }
        d.interpretation = format!(
            "{path}: web clip {id}, a page the user added to the home screen: {} at {}{}.",
            title.as_deref().unwrap_or("untitled"),
            url.as_deref().unwrap_or("no address kept"),
            if others.is_empty() {
                String::new()
            } else {
                format!("; also {}", others.join(", "))
            }
        );
        run.record(d)?;
    }
    Ok(())
}
