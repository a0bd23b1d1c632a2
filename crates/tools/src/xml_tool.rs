//! `read_xml`: an XML file of the evidence as XML text, whichever of Android's two encodings it
//! is in. Android 12+ writes its system XML files (`/data/system/users/<user>/settings_*.xml`,
//! `packages.xml`, …) as Android Binary XML (ABX, magic `ABX\0`: AOSP's `BinaryXmlSerializer`);
//! the `android-abx` crate (MIT; checked by its author against AOSP's own serializer) decodes it
//! to the XML text the same file has on earlier versions, so one reader serves both and a fact
//! grounds in the same text. A plain XML file is shown as it is.
//!
//! With `qualify` (`{"<name>": "<service>"}`, as `parse_plist` takes it), each element whose
//! `name` attribute is one of the names (a shared preference: `<string name="k">v</string>`,
//! `<long name="k" value="v" />`) gets a `# qualified <name>: <service>:<value>` line after the
//! document: a service-qualified account id that a fact can quote.
//!
//! With `telegram`, each `<string>` element whose text is the base64 of a Telegram stored user
//! object (Telegram for Android's `shared_prefs/userconfing.xml` keeps the account's own user
//! so) gets a `# decoded <name>: tl:{json}` line after the document, read by [`crate::tl`]
//! (id, flags, names, user name, phone; never the access hash).
//!
//! Secrets are redacted before anything is printed, as `read_json` and `leveldb_records` do: the
//! text of a `<string>` element whose `name` attribute names a secret (a password, passphrase,
//! token, secret, private key, mnemonic or seed: shared preferences keep OAuth and push tokens
//! and saved passwords so; [`secret_name`]) becomes `[redacted by MASForensics: <name> of <n>
//! characters]`, and so does the text of any `<string>` shaped like a recovery phrase; the count
//! is the output's `redacted`. Only `<string>` texts are redacted: a `<boolean>`, `<int>` or
//! `<long>` under such a name (`has_password`, `token_expiry`) says whether or when, not the
//! secret; a name that says it holds the secret's hash, expiry, type or hint is not redacted
//! either (a vault app's PIN hash is evidence the examiner recovers the PIN from, and opens
//! nothing by itself). A file that is no well-formed XML is redacted up to where it stops
//! parsing.

use base64::Engine as _;
use quick_xml::events::Event;
use serde_json::{Value, json};

use crate::{Applicability, SourceCtx, Tool, ToolError, ToolOutput, args};

/// Largest file read.
pub const FILE_MAX: u64 = 16 << 20;

/// The ABX magic.
pub const ABX_MAGIC: &[u8; 4] = b"ABX\0";

/// The tool.
pub struct ReadXml;

impl Tool for ReadXml {
    fn name(&self) -> &str {
        "read_xml"
    }
    fn description(&self) -> &str {
        "Read an XML file of the evidence as XML text: a plain XML file as it is, an Android Binary XML file (ABX, magic ABX\\0: settings_*.xml, packages.xml and other system files of Android 12+) decoded to the XML text it stands for. The first line says which: `# format: xml` or `# format: abx (decoded)`. With telegram: true, every <string> element whose text is the base64 of a Telegram stored user (shared_prefs/userconfing.xml) is decoded on a `# decoded <name>: tl:{json}` line after the document (id as telegram:<id>, flags, names, user name, phone; never the access hash). With qualify {\"<name>\": \"<service>\"}, every element whose name attribute is one of the names (a shared preference's <string> text or value attribute) gets a `# qualified <name>: <service>:<value>` line after the document (a service-qualified account id, e.g. snapchat:<user id>). Secrets are redacted before anything is printed: the text of a <string> whose name attribute names a password, passphrase, token, secret, private key, keyset, mnemonic or seed (not its hash, expiry, type or hint), or that is shaped like a recovery phrase, is printed as `[redacted by MASForensics: <name> of <n> characters]` (counted as `redacted`). Files up to 16 MiB."
    }
    fn args_schema(&self) -> Value {
        json!({"type": "object", "properties": {
            "partition": {"type": "string", "description": "The file system to use when the source holds several (1-based index or partition name)."},
            "path": {"type": "string", "description": "Absolute path of the XML file."},
            "telegram": {"type": "boolean", "description": "Decode <string> values holding a base64 Telegram stored user (default false)."},
            "qualify": {"type": "object", "additionalProperties": {"type": "string"}, "description": "Preference name → service: a `# qualified <name>: <service>:<value>` line for each element with that name attribute."}
        }, "required": ["path"], "additionalProperties": false})
    }
    fn applicability(&self) -> Applicability {
        Applicability::TREE
    }
    fn run(&self, ctx: &SourceCtx, a: &Value) -> Result<ToolOutput, ToolError> {
        let telegram = args::opt_bool(a, "telegram")?.unwrap_or(false);
        let qualify = crate::content_tools::qualify_arg(a)?;
        let (path, data) = crate::fs_tools::whole_file(ctx, a, FILE_MAX, "read_xml")?;
        let size = data.len();
        let (format, xml) = decode(&data).map_err(|e| ToolError::Other(format!("{path}: {e}")))?;
        let (xml, redacted) = redact_secrets(&xml);
        let mut text = format!("# format: {format}\n{xml}");
        let mut decoded = 0usize;
        if telegram {
            for (name, obj) in telegram_strings(&xml) {
                if !text.ends_with('\n') {
                    text.push('\n');
                }
                text.push_str(&format!("# decoded {name}: tl:{obj}\n"));
                decoded += 1;
            }
        }
        let mut qualified = 0usize;
        for (name, value) in preferences(&xml, &qualify) {
            if let Some((_, service)) = qualify.iter().find(|(k, _)| *k == name) {
                if !text.ends_with('\n') {
                    text.push('\n');
                }
                text.push_str(&format!("# qualified {name}: {service}:{value}\n"));
                qualified += 1;
            }
        }
        Ok(ToolOutput {
            text,
            structured: Some(
                json!({"path": path, "size": size, "format": format, "decoded": decoded, "qualified": qualified, "redacted": redacted}),
            ),
        })
    }
}

/// `(format, XML text)` of a file: `abx (decoded)` or `xml` (UTF-8, a BOM dropped; invalid
/// bytes shown as U+FFFD). An ABX file that does not decode is an error naming what is wrong.
pub fn decode(data: &[u8]) -> Result<(&'static str, String), String> {
    if data.starts_with(ABX_MAGIC) {
        let events = android_abx::abx_events(data)
            .map_err(|e| format!("not a readable Android Binary XML file: {e}"))?;
        return Ok(("abx (decoded)", render(&events)));
    }
    let body = data.strip_prefix(b"\xef\xbb\xbf").unwrap_or(data);
    Ok(("xml", String::from_utf8_lossy(body).into_owned()))
}

/// The XML text of ABX events as Android 11 and earlier write the same document (AOSP's
/// `FastXmlSerializer`: the `standalone` declaration, `&`, `<`, `>` and `"` escaped in values,
/// `'` kept; an attribute without value left out), so a value reads the same in both forms and
/// a fact grounds in either. Hand-written because `android_abx::abx_to_xml` also escapes `'`.
fn render(events: &[android_abx::Event]) -> String {
    use android_abx::Event as E;
    let escape = |s: &str, out: &mut String| {
        for c in s.chars() {
            match c {
                '&' => out.push_str("&amp;"),
                '<' => out.push_str("&lt;"),
                '>' => out.push_str("&gt;"),
                '"' => out.push_str("&quot;"),
                c => out.push(c),
            }
        }
    };
    let mut out = String::new();
    for e in events {
        match e {
            E::StartDocument => {
                out.push_str("<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>\n")
            }
            E::EndDocument => {}
            E::StartTag { name, attributes } => {
                out.push('<');
                out.push_str(name);
                for a in attributes {
                    if a.value == android_abx::AttributeValue::Null {
                        continue;
                    }
                    out.push(' ');
                    out.push_str(&a.name);
                    out.push_str("=\"");
                    escape(&a.as_str(), &mut out);
                    out.push('"');
                }
                out.push('>');
            }
            E::EndTag { name } => {
                out.push_str("</");
                out.push_str(name);
                out.push('>');
            }
            E::Text(t) | E::IgnorableWhitespace(t) => escape(t, &mut out),
            E::CdataSection(t) => {
                out.push_str("<![CDATA[");
                out.push_str(t);
                out.push_str("]]>");
            }
            E::Comment(t) => {
                out.push_str("<!--");
                out.push_str(t);
                out.push_str("-->");
            }
            E::ProcessingInstruction(t) => {
                out.push_str("<?");
                out.push_str(t);
                out.push_str("?>");
            }
            E::EntityReference(t) => {
                out.push('&');
                out.push_str(t);
                out.push(';');
            }
            E::DocDecl(t) => {
                out.push_str("<!DOCTYPE ");
                out.push_str(t);
                out.push('>');
            }
        }
    }
    out
}

/// Whether a shared preference's name names a secret that opens something: its letters and
/// digits (lower case, separators dropped) hold one of [`SECRET_WORDS`] and none of
/// [`NOT_THE_SECRET`]. `pin` alone is no secret word (`pinned`, `spinner`): a PIN is kept under
/// names that say `pincode` or a password word. A hash is not redacted: it opens nothing by
/// itself, and a vault app's PIN or password hash is what an examiner recovers the PIN from.
pub fn secret_name(name: &str) -> bool {
    let norm: String = name
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect();
    (SECRET_WORDS.iter().any(|w| norm.contains(w)) || crate::leveldb_tool::secret_key(&norm))
        && !NOT_THE_SECRET.iter().any(|w| norm.contains(w))
}

/// Words of a preference name that hold a secret (see [`secret_name`]).
pub const SECRET_WORDS: [&str; 12] = [
    "password",
    "passwd",
    "passphrase",
    "passcode",
    "pincode",
    "secret",
    "token",
    "privatekey",
    "privkey",
    "mnemonic",
    "seedphrase",
    // Tink keysets (EncryptedSharedPreferences' `__androidx_security_crypto_encrypted_prefs_
    // key_keyset__`): wrapped by the Keystore, key material all the same
    "keyset",
];

/// Words of a preference name that say it holds something about the secret, not the secret: its
/// hash, when it expires or was set, its type, length or hint (`AccessTokenExpiration`,
/// `token_type`, `password_hash`, `password_hint`).
pub const NOT_THE_SECRET: [&str; 12] = [
    "hash", "expir", "type", "time", "date", "created", "updated", "count", "length", "ttl",
    "valid", "hint",
];

/// `xml` with the text of each `<string>` element that holds a secret replaced (see the module
/// documentation), and how many were. The replaced span is the element's whole content as
/// stored (escaped entities included), so the rest of the text is byte for byte the file's.
fn redact_secrets(xml: &str) -> (String, usize) {
    let mut spans: Vec<(usize, usize, String)> = Vec::new();
    let mut reader = quick_xml::Reader::from_str(xml);
    // the open <string>: its name and where its content starts
    let mut open: Option<(String, usize)> = None;
    loop {
        let before = usize::try_from(reader.buffer_position()).unwrap_or(usize::MAX);
        match reader.read_event() {
            Ok(Event::Start(e)) => {
                open = (AsRef::<str>::as_ref(&e.name()) == "string").then(|| {
                    let name = e
                        .try_get_attribute("name")
                        .ok()
                        .flatten()
                        .map(|v| v.value.into_owned())
                        .unwrap_or_default();
                    let at = usize::try_from(reader.buffer_position()).unwrap_or(usize::MAX);
                    (name, at)
                });
            }
            Ok(Event::End(_)) => {
                if let Some((name, start)) = open.take()
                    && let Some(content) = xml.get(start..before)
                    && !content.trim().is_empty()
                {
                    let chars = content.chars().count();
                    if secret_name(&name) {
                        spans.push((
                            start,
                            before,
                            format!("[redacted by MASForensics: {name} of {chars} characters]"),
                        ));
                    } else if crate::leveldb_tool::phrase_like(content) {
                        let words = content.split_whitespace().count();
                        spans.push((
                            start,
                            before,
                            format!(
                                "[redacted by MASForensics: a probable recovery phrase of {words} words]"
                            ),
                        ));
                    }
                }
            }
            Ok(Event::Eof) | Err(_) => break,
            _ => {}
        }
    }
    if spans.is_empty() {
        return (xml.to_string(), 0);
    }
    let mut out = String::with_capacity(xml.len());
    let mut at = 0;
    for (start, end, by) in &spans {
        out.push_str(&xml[at..*start]);
        out.push_str(by);
        at = *end;
    }
    out.push_str(&xml[at..]);
    (out, spans.len())
}

/// `(name, value)` of each element whose `name` attribute is one of `names`: its `value`
/// attribute, else its text (trimmed); empty values left out.
fn preferences(xml: &str, names: &[(String, String)]) -> Vec<(String, String)> {
    let mut out = Vec::new();
    if names.is_empty() {
        return out;
    }
    let wanted = |n: &str| names.iter().any(|(k, _)| k == n);
    let attr = |e: &quick_xml::events::BytesStart<'_>, a: &str| {
        e.try_get_attribute(a).ok().flatten().and_then(|v| {
            v.normalized_value(quick_xml::XmlVersion::Implicit1_0)
                .ok()
                .map(|v| v.into_owned())
        })
    };
    let mut reader = quick_xml::Reader::from_str(xml);
    let mut open: Option<String> = None;
    loop {
        match reader.read_event() {
            Ok(Event::Start(e)) => {
                open = None;
                if let Some(n) = attr(&e, "name").filter(|n| wanted(n)) {
                    match attr(&e, "value") {
                        Some(v) if !v.is_empty() => out.push((n, v)),
                        _ => open = Some(n),
                    }
                }
            }
            Ok(Event::Empty(e)) => {
                if let (Some(n), Some(v)) =
                    (attr(&e, "name").filter(|n| wanted(n)), attr(&e, "value"))
                    && !v.is_empty()
                {
                    out.push((n, v));
                }
            }
            Ok(Event::Text(t)) => {
                if let Some(n) = open.take()
                    && let Ok(v) = quick_xml::escape::unescape(AsRef::<str>::as_ref(&t))
                    && !v.trim().is_empty()
                {
                    out.push((n, v.trim().to_string()));
                }
            }
            Ok(Event::End(_)) => open = None,
            Ok(Event::Eof) | Err(_) => break,
            _ => {}
        }
    }
    out
}

/// `(name, JSON)` of each `<string name=…>` whose text is base64 of a stored Telegram user.
fn telegram_strings(xml: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut reader = quick_xml::Reader::from_str(xml);
    let mut name: Option<String> = None;
    loop {
        match reader.read_event() {
            Ok(Event::Start(e)) if AsRef::<str>::as_ref(&e.name()) == "string" => {
                name = e
                    .try_get_attribute("name")
                    .ok()
                    .flatten()
                    .map(|v| v.value.into_owned());
            }
            Ok(Event::Text(t)) => {
                if let Some(n) = &name {
                    let v = AsRef::<str>::as_ref(&t).trim().to_string();
                    if let Some(obj) = base64::engine::general_purpose::STANDARD
                        .decode(v.as_bytes())
                        .ok()
                        .and_then(|b| crate::tl::user_cell(&b))
                    {
                        out.push((n.clone(), obj));
                    }
                }
            }
            Ok(Event::End(_)) => name = None,
            Ok(Event::Eof) | Err(_) => break,
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod redact_tests {
    use super::{redact_secrets, secret_name};

    #[test]
    fn secret_strings_are_redacted_and_nothing_else_changes() {
        let xml = "<?xml version='1.0' encoding='utf-8' standalone='yes' ?>\n<map>\n    <string name=\"fcmToken\">dGhpcyBpcyBhIHRva2Vu&amp;x</string>\n    <string name=\"pref_password\">hunter2</string>\n    <boolean name=\"has_password\" value=\"true\" />\n    <long name=\"access_token_expiry\" value=\"1717236000000\" />\n    <string name=\"user_name\">alice</string>\n    <string name=\"backup\">abandon ability able about above absent absorb abstract absurd abuse access accident</string>\n    <string name=\"refresh_token\"></string>\n</map>\n";
        let (out, n) = redact_secrets(xml);
        assert_eq!(n, 3);
        assert!(!out.contains("dGhpcyBp") && !out.contains("hunter2") && !out.contains("abandon"));
        assert!(out.contains(
            "<string name=\"fcmToken\">[redacted by MASForensics: fcmToken of 26 characters]</string>"
        ));
        assert!(out.contains("[redacted by MASForensics: pref_password of 7 characters]"));
        assert!(out.contains("[redacted by MASForensics: a probable recovery phrase of 12 words]"));
        for kept in [
            "<boolean name=\"has_password\" value=\"true\" />",
            "<long name=\"access_token_expiry\" value=\"1717236000000\" />",
            "<string name=\"user_name\">alice</string>",
            "<string name=\"refresh_token\"></string>",
        ] {
            assert!(out.contains(kept), "{kept}");
        }
        // a cut file: what was read before the cut is redacted, nothing panics
        let (cut, n) = redact_secrets(&xml[..xml.find("user_name").unwrap()]);
        assert_eq!(n, 2);
        assert!(!cut.contains("hunter2"));
        assert!(secret_name("AdobeAccessToken") && secret_name("pin_code") && secret_name("seed"));
        assert!(!secret_name("pinned_chats") && !secret_name("user_id"));
        for about in [
            "AccessTokenExpiration",
            "token_type",
            "password_hash",
            "pwd_hint",
        ] {
            assert!(!secret_name(about), "{about}");
        }
    }
}

#[cfg(test)]
mod qualify_tests {
    use super::preferences;

    #[test]
    fn preferences_by_name_text_or_value() {
        let xml = "<?xml version='1.0' encoding='utf-8' standalone='yes' ?>\n<map>\n    <string name=\"key_user_id\">8b0e6a52-4a1c</string>\n    <long name=\"uid\" value=\"42\" />\n    <string name=\"other\">x</string>\n    <string name=\"empty\"></string>\n    <int name=\"n\" value=\"7\"></int>\n</map>\n";
        let names: Vec<(String, String)> = ["key_user_id", "uid", "empty", "n"]
            .iter()
            .map(|k| (k.to_string(), "svc".to_string()))
            .collect();
        assert_eq!(
            preferences(xml, &names),
            [
                ("key_user_id".to_string(), "8b0e6a52-4a1c".to_string()),
                ("uid".to_string(), "42".to_string()),
                ("n".to_string(), "7".to_string()),
            ]
        );
        assert!(preferences(xml, &[]).is_empty());
        // not XML: nothing, no panic
        assert!(preferences("<map><string name=\"uid\">", &names).is_empty());
    }
}
