//! Android shared preferences (`shared_prefs/*.xml`), as the Android readers read them: the
//! `name`/value pairs of the XML `read_xml` printed (plain or ABX decoded), the value of a key,
//! where a value is cited in the output, a value holding JSON. Shared by some thirty readers.

use masf_agents::{AgentCtx, RuntimeError};

use super::Located;
use crate::identity::artefact_name;

/// The `name`/value pairs of an Android shared-preferences XML (`<string name="k">v</string>`,
/// `<int name="k" value="v" />`, …), values as the file writes them (entity references such as
/// `&amp;` kept as written, the whole text of a string however many parts the reader splits it
/// into).
pub fn shared_prefs(xml: &str) -> Result<Vec<(String, String)>, String> {
    use quick_xml::events::Event;
    let mut reader = quick_xml::Reader::from_str(xml);
    let mut out = Vec::new();
    let mut open: Option<(String, String)> = None;
    loop {
        match reader.read_event() {
            Ok(ev @ (Event::Start(_) | Event::Empty(_))) => {
                let (Event::Start(e) | Event::Empty(e)) = &ev else {
                    continue;
                };
                // an empty `<string name="k" />` has no text to wait for
                let opens = matches!(ev, Event::Start(_));
                let attr = |k: &str| {
                    e.attributes()
                        .flatten()
                        .find(|a| AsRef::<str>::as_ref(&a.key) == k)
                        .map(|a| a.value.into_owned())
                };
                let tag = AsRef::<str>::as_ref(&e.name()).to_string();
                match (tag.as_str(), attr("name"), attr("value")) {
                    ("string", Some(n), _) if opens => open = Some((n, String::new())),
                    (_, Some(n), Some(v)) => out.push((n, v)),
                    _ => {}
                }
            }
            Ok(Event::Text(t)) => {
                if let Some((_, text)) = open.as_mut() {
                    text.push_str(AsRef::<str>::as_ref(&t));
                }
            }
            Ok(Event::GeneralRef(r)) => {
                if let Some((_, text)) = open.as_mut() {
                    text.push('&');
                    text.push_str(AsRef::<str>::as_ref(&r));
                    text.push(';');
                }
            }
            Ok(Event::End(_)) => {
                if let Some((n, text)) = open.take()
                    && !text.is_empty()
                {
                    out.push((n, text));
                }
            }
            Ok(Event::Eof) => return Ok(out),
            Ok(_) => {}
            Err(e) => return Err(format!("at byte {}: {e}", reader.error_position())),
        }
    }
}

/// Named preference values.
pub(super) type Prefs = Vec<(String, String)>;

/// The preferences of `l` (`read_text`), `None` when unreadable (noted).
pub(super) fn prefs_of(
    ctx: &AgentCtx<'_>,
    l: &Located,
) -> Result<Option<(masf_tools::Invoked, Prefs)>, RuntimeError> {
    let Some(inv) = super::files::read(ctx, l)? else {
        return Ok(None);
    };
    match shared_prefs(&inv.output.text) {
        Ok(p) => Ok(Some((inv, p))),
        Err(why) => {
            ctx.unparsed(
                &artefact_name(&l.tree, &l.path),
                &format!(
                    "could not parse the shared preferences because the XML is malformed {why}"
                ),
                Some(&inv.record.invocation_id),
            )?;
            Ok(None)
        }
    }
}

/// The preferences of `l` read by `read_xml` (with `qualify` when given: its `# qualified`
/// lines are in the output, left out of the values), `None` when unreadable or malformed
/// (noted, naming `app`).
pub(super) fn prefs_xml(
    ctx: &AgentCtx<'_>,
    l: &Located,
    app: &str,
    qualify: Option<serde_json::Value>,
) -> Result<Option<(masf_tools::Invoked, Prefs)>, RuntimeError> {
    let name = artefact_name(&l.tree, &l.path);
    let mut args = serde_json::json!({"path": l.path});
    if let Some(q) = qualify {
        args["qualify"] = q;
    }
    let Some(inv) = crate::calls::call_or_note(
        ctx,
        &name,
        "read_xml",
        crate::identity::args_on(&l.tree, args),
    )?
    else {
        return Ok(None);
    };
    let xml = inv
        .output
        .text
        .lines()
        .filter(|line| !line.starts_with("# qualified "))
        .collect::<Vec<_>>()
        .join("\n");
    match shared_prefs(&xml) {
        Ok(p) => Ok(Some((inv, p))),
        Err(why) => {
            ctx.unparsed(
                &name,
                &format!("could not parse {app}'s preferences because the XML is malformed {why}"),
                Some(&inv.record.invocation_id),
            )?;
            Ok(None)
        }
    }
}

/// The first non-empty value of the preference `key`.
pub(super) fn pref(prefs: &Prefs, key: &str) -> Option<String> {
    prefs
        .iter()
        .find(|(n, _)| n == key)
        .map(|(_, v)| v.clone())
        .filter(|v| !v.is_empty())
}

/// The form a value of a JSON text kept in a preference has in `read_xml`'s output: escaped
/// as JSON (once, or twice for a JSON text inside the JSON, as OneAuth keeps its claims), its
/// `/` escaped or not as the JSON writer did (`org.json` writes `\/`), then as Android's XML
/// serializer escapes text; `None` when the output holds none of these.
pub(super) fn cited_in_prefs(inv: &masf_tools::Invoked, v: &str) -> Option<String> {
    let xml = |s: &str| {
        s.replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;")
            .replace('"', "&quot;")
    };
    let once = crate::outputs::in_json(v);
    let twice = crate::outputs::in_json(&once);
    [
        xml(&once),
        xml(&once.replace('/', "\\/")),
        xml(&twice),
        xml(&twice.replace('/', "\\\\\\/")),
    ]
    .into_iter()
    .find(|c| inv.output.text.contains(c.as_str()))
}

/// A preference's value as written (XML-escaped) read as the JSON text it holds.
pub(super) fn pref_json(value: &str) -> Result<serde_json::Value, serde_json::Error> {
    let text = quick_xml::escape::unescape(value)
        .map(|t| t.into_owned())
        .unwrap_or_else(|_| value.to_string());
    serde_json::from_str(&text)
}

#[cfg(test)]
mod tests {
    use super::shared_prefs;

    /// A value with entity references is one value as the file writes it; an empty string
    /// element is no value and does not swallow the whitespace after it.
    #[test]
    fn shared_prefs_values_as_written() {
        let xml = "<?xml version='1.0' encoding='utf-8' standalone='yes' ?>\n<map>\n    <string name=\"a\">x &amp; y &lt;z&gt;</string>\n    <string name=\"empty\" />\n    <boolean name=\"b\" value=\"true\" />\n    <string name=\"c\">plain</string>\n</map>\n";
        assert_eq!(
            shared_prefs(xml).unwrap(),
            vec![
                ("a".to_string(), "x &amp; y &lt;z&gt;".to_string()),
                ("b".to_string(), "true".to_string()),
                ("c".to_string(), "plain".to_string()),
            ]
        );
        assert!(shared_prefs("<map><string name=\"a\">x</map>").is_err());
    }
}
