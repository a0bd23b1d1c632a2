//! `doc_text`: the text a document shows, recognised by content (a plugin tool, registered in
//! the shared catalog by the disk and archive plugins and logged like every other call).
//!
//! - Office Open XML (docx, xlsx, pptx): the text runs of `word/document.xml` (with headers,
//!   footers, footnotes), `xl/sharedStrings.xml`, `ppt/slides/slide*.xml`; one paragraph a line.
//! - OpenDocument (odt, ods, odp): the paragraphs of `content.xml`.
//! - PDF: the strings shown by `Tj`/`TJ`/`'`/`"` in content streams, uncompressed or
//!   FlateDecode; one text line a line (text only drawn as glyph ids of embedded subset fonts
//!   cannot be recovered this way and comes out as what the strings hold).
//!
//! Anything else is refused (`not applicable`): plain text is read with `read_text`.

use masf_tools::{Applicability, SourceCtx, Tool, ToolError, ToolOutput};
use serde_json::{Value, json};

pub use masf_index::doc::DOC_TEXT_MAX;
use masf_index::doc::{office_text, pdf_text};

/// Largest text produced (the rest is cut, and the output says so).
pub use masf_index::doc::TEXT_MAX;

/// The `doc_text` tool.
pub struct DocText;

impl Tool for DocText {
    fn name(&self) -> &str {
        "doc_text"
    }
    fn description(&self) -> &str {
        "Extract the visible text of a document of the evidence, recognised by content: Office Open XML (docx body with headers and footers, xlsx shared strings, pptx slides), OpenDocument content.xml, PDF text-showing operators in uncompressed or FlateDecode content streams. One paragraph or text line a line; at most 1 MiB of text (a final '# truncated' line says when cut). Use read_text for plain text files."
    }
    fn args_schema(&self) -> Value {
        json!({"type": "object", "properties": {
            "partition": {"type": "string", "description": "The file system to use when the source holds several (1-based index or partition name)."},
            "path": {"type": "string", "description": "Absolute path of the document inside the evidence."}
        }, "required": ["path"], "additionalProperties": false})
    }
    fn applicability(&self) -> Applicability {
        Applicability::TREE
    }
    fn run(&self, ctx: &SourceCtx, a: &Value) -> Result<ToolOutput, ToolError> {
        let (fs, path) = crate::calls::tree_file(ctx, a)?;
        let bytes = fs.open(&path)?;
        if bytes.len() > DOC_TEXT_MAX {
            return Err(ToolError::Other(format!(
                "{path}: {} bytes exceeds the limit of {DOC_TEXT_MAX}",
                bytes.len()
            )));
        }
        let mut head = [0u8; 5];
        let n = bytes.len().min(5) as usize;
        bytes.read_exact_at(0, &mut head[..n])?;
        let (format, lines) = if head.starts_with(b"PK\x03\x04") {
            office_text(bytes).map_err(|e| ToolError::Other(format!("{path}: {e}")))?
        } else if head.starts_with(b"%PDF") {
            let mut data = vec![0u8; bytes.len() as usize];
            bytes.read_exact_at(0, &mut data)?;
            ("pdf", pdf_text(&data))
        } else {
            return Err(ToolError::NotApplicable(format!(
                "{path}: not an Office Open XML, OpenDocument or PDF document"
            )));
        };
        let mut text = String::new();
        let mut truncated = false;
        for line in &lines {
            if text.len() + line.len() + 1 > TEXT_MAX {
                truncated = true;
                break;
            }
            text.push_str(line);
            text.push('\n');
        }
        if truncated {
            text.push_str("# truncated\n");
        }
        Ok(ToolOutput {
            text,
            structured: Some(
                json!({"path": path, "format": format, "lines": lines.len(), "truncated": truncated}),
            ),
        })
    }
}
