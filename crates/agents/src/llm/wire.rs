//! OpenAI chat-completions wire types (DeepSeek, OpenAI, Ollama's and llama.cpp's `/v1`
//! endpoints speak the same format). The Rust shapes are flat; the JSON shapes (nested
//! `function` objects, `"type": "function"`) are produced and read only here.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

/// Who wrote a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// Instructions from the runtime.
    System,
    /// The task, and evidence passed as delimited data.
    User,
    /// The model.
    Assistant,
    /// A tool result, answering one [`ToolCall`] by its id.
    Tool,
}

/// One tool call the model asked for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ToolCall {
    /// The model's id of the call; the result message names it in `tool_call_id`.
    pub id: String,
    /// The tool (function) name.
    pub name: String,
    /// The arguments as the model wrote them: raw JSON text, possibly invalid.
    pub arguments: String,
}

/// One message of a conversation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "WireMessage", into = "WireMessage")]
pub struct ChatMessage {
    /// Who wrote it.
    pub role: Role,
    /// The text (absent on an assistant turn that only calls tools).
    pub content: Option<String>,
    /// Tool calls of an assistant turn.
    pub tool_calls: Vec<ToolCall>,
    /// On a [`Role::Tool`] message: the call it answers.
    pub tool_call_id: Option<String>,
    /// Optional author name.
    pub name: Option<String>,
}

impl ChatMessage {
    fn new(role: Role, content: impl Into<String>) -> Self {
        Self {
            role,
            content: Some(content.into()),
            tool_calls: Vec::new(),
            tool_call_id: None,
            name: None,
        }
    }

    /// A system message.
    pub fn system(content: impl Into<String>) -> Self {
        Self::new(Role::System, content)
    }

    /// A user message.
    pub fn user(content: impl Into<String>) -> Self {
        Self::new(Role::User, content)
    }

    /// An assistant message with text only.
    pub fn assistant(content: impl Into<String>) -> Self {
        Self::new(Role::Assistant, content)
    }

    /// The result of tool call `call_id`.
    pub fn tool_result(call_id: impl Into<String>, content: impl Into<String>) -> Self {
        Self {
            tool_call_id: Some(call_id.into()),
            ..Self::new(Role::Tool, content)
        }
    }

    /// The text, or "" when there is none.
    pub fn text(&self) -> &str {
        self.content.as_deref().unwrap_or("")
    }
}

/// A tool offered to the model (a JSON-Schema function).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolSpec {
    /// Function name.
    pub name: String,
    /// What it does, for the model.
    pub description: String,
    /// JSON Schema of the arguments object.
    pub parameters: Value,
}

/// Whether the model must, may or must not call a tool.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ToolChoice {
    /// The model decides.
    #[default]
    Auto,
    /// The model must call a tool.
    Required,
    /// The model must answer in text.
    None,
}

impl ToolChoice {
    /// The wire string.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Auto => "auto",
            Self::Required => "required",
            Self::None => "none",
        }
    }
}

/// One chat-completions request (the model name comes from the client's configuration).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct ChatRequest {
    /// The conversation so far.
    pub messages: Vec<ChatMessage>,
    /// The tools offered.
    pub tools: Vec<ToolSpec>,
    /// Tool use policy (sent only when tools are offered).
    pub tool_choice: ToolChoice,
    /// Completion token limit; the client never sends more than `llm.max_tokens`.
    pub max_tokens: Option<u32>,
}

/// Token usage of one completion.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Usage {
    /// Tokens of the prompt.
    pub prompt_tokens: u64,
    /// Tokens of the completion.
    pub completion_tokens: u64,
    /// True when the server reported no usage and the counts were estimated (4 bytes a token),
    /// so that token budgets still bind.
    #[serde(default)]
    pub estimated: bool,
}

impl Usage {
    /// Prompt plus completion tokens.
    pub fn total(&self) -> u64 {
        self.prompt_tokens.saturating_add(self.completion_tokens)
    }
}

/// A completed chat call.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ChatResponse {
    /// The assistant message (text and/or tool calls).
    pub message: ChatMessage,
    /// `stop`, `tool_calls`, `length` (hit max_tokens), … as the server said.
    pub finish_reason: Option<String>,
    /// Token usage.
    pub usage: Usage,
    /// The model id the server reported (the configured one when it reported none).
    pub model: String,
    /// Wall time of the whole call in milliseconds, retries and back-off included.
    pub latency_ms: u64,
    /// HTTP attempts made (1 = no retry).
    pub attempts: u32,
}

// ---- JSON shapes ----------------------------------------------------------------------------

#[derive(Serialize, Deserialize)]
struct WireMessage {
    role: Role,
    #[serde(default)]
    content: Option<Value>,
    #[serde(
        default,
        skip_serializing_if = "Vec::is_empty",
        deserialize_with = "null_vec"
    )]
    tool_calls: Vec<WireToolCall>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    tool_call_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    name: Option<String>,
}

#[derive(Serialize, Deserialize)]
struct WireToolCall {
    #[serde(default)]
    id: String,
    #[serde(rename = "type", default = "function_type")]
    kind: String,
    function: WireFunction,
}

#[derive(Serialize, Deserialize)]
struct WireFunction {
    name: String,
    /// A JSON string per the spec; some servers send the object itself.
    #[serde(default)]
    arguments: Value,
}

fn function_type() -> String {
    "function".into()
}

fn null_vec<'de, D, T>(d: D) -> Result<Vec<T>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Deserialize<'de>,
{
    Ok(Option::<Vec<T>>::deserialize(d)?.unwrap_or_default())
}

impl From<ChatMessage> for WireMessage {
    fn from(m: ChatMessage) -> Self {
        Self {
            role: m.role,
            content: Some(m.content.map_or(Value::Null, Value::String)),
            tool_calls: m
                .tool_calls
                .into_iter()
                .map(|c| WireToolCall {
                    id: c.id,
                    kind: function_type(),
                    function: WireFunction {
                        name: c.name,
                        arguments: Value::String(c.arguments),
                    },
                })
                .collect(),
            tool_call_id: m.tool_call_id,
            name: m.name,
        }
    }
}

impl TryFrom<WireMessage> for ChatMessage {
    type Error = String;

    fn try_from(m: WireMessage) -> Result<Self, String> {
        let content = match m.content {
            None | Some(Value::Null) => None,
            Some(Value::String(s)) => Some(s),
            // Content parts: keep the text parts, in order.
            Some(Value::Array(parts)) => Some(
                parts
                    .iter()
                    .filter_map(|p| p.get("text").and_then(Value::as_str))
                    .collect::<Vec<_>>()
                    .join(""),
            ),
            Some(other) => return Err(format!("message content is a {}", type_name(&other))),
        };
        let tool_calls = m
            .tool_calls
            .into_iter()
            .map(|c| ToolCall {
                id: c.id,
                name: c.function.name,
                arguments: match c.function.arguments {
                    Value::String(s) => s,
                    Value::Null => String::new(),
                    other => other.to_string(),
                },
            })
            .collect();
        Ok(Self {
            role: m.role,
            content,
            tool_calls,
            tool_call_id: m.tool_call_id,
            name: m.name,
        })
    }
}

fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// The JSON body of a request to `/chat/completions` for `model`, with the completion limit
/// `max_tokens` (the request's own limit if lower).
pub fn request_body(model: &str, req: &ChatRequest, max_tokens: u32) -> Value {
    let limit = req.max_tokens.map_or(max_tokens, |m| m.min(max_tokens));
    let mut body = json!({
        "model": model,
        "messages": req.messages,
        "max_tokens": limit,
        "stream": false,
    });
    if !req.tools.is_empty()
        && let Some(obj) = body.as_object_mut()
    {
        let tools: Vec<Value> = req
            .tools
            .iter()
            .map(|t| {
                json!({"type": "function", "function": {
                    "name": t.name, "description": t.description, "parameters": t.parameters}})
            })
            .collect();
        obj.insert("tools".into(), Value::Array(tools));
        obj.insert("tool_choice".into(), json!(req.tool_choice.as_str()));
    }
    body
}

/// A parsed completion, before the client adds latency and attempts.
#[derive(Debug, Clone, PartialEq)]
pub struct Completion {
    /// The first choice's message.
    pub message: ChatMessage,
    /// Its finish reason.
    pub finish_reason: Option<String>,
    /// Usage (estimated when absent).
    pub usage: Usage,
    /// Model id reported, if any.
    pub model: Option<String>,
}

#[derive(Deserialize)]
struct WireCompletion {
    #[serde(default)]
    model: Option<String>,
    #[serde(default, deserialize_with = "null_vec")]
    choices: Vec<WireChoice>,
    #[serde(default)]
    usage: Option<WireUsage>,
}

#[derive(Deserialize)]
struct WireChoice {
    message: ChatMessage,
    #[serde(default)]
    finish_reason: Option<String>,
}

#[derive(Deserialize)]
struct WireUsage {
    #[serde(default)]
    prompt_tokens: Option<u64>,
    #[serde(default)]
    completion_tokens: Option<u64>,
}

/// Parses a `/chat/completions` response body. `prompt_bytes` (the request body's length)
/// estimates the prompt tokens when the server reports no usage. The error is a reason fit
/// for [`crate::llm::LlmError::Malformed`].
pub fn parse_completion(body: &[u8], prompt_bytes: usize) -> Result<Completion, String> {
    let wire: WireCompletion =
        serde_json::from_slice(body).map_err(|e| format!("not a chat completion: {e}"))?;
    let Some(choice) = wire.choices.into_iter().next() else {
        return Err("the completion has no choices".into());
    };
    if choice.message.role != Role::Assistant {
        return Err(format!(
            "the completion's message has role {:?}, not assistant",
            choice.message.role
        ));
    }
    for call in &choice.message.tool_calls {
        if call.name.trim().is_empty() {
            return Err("a tool call has no function name".into());
        }
    }
    let usage = match wire.usage {
        Some(WireUsage {
            prompt_tokens: Some(p),
            completion_tokens: Some(c),
        }) => Usage {
            prompt_tokens: p,
            completion_tokens: c,
            estimated: false,
        },
        _ => {
            let completion_bytes = choice.message.text().len()
                + choice
                    .message
                    .tool_calls
                    .iter()
                    .map(|c| c.name.len() + c.arguments.len())
                    .sum::<usize>();
            Usage {
                prompt_tokens: prompt_bytes.div_ceil(4) as u64,
                completion_tokens: completion_bytes.div_ceil(4) as u64,
                estimated: true,
            }
        }
    };
    Ok(Completion {
        message: choice.message,
        finish_reason: choice.finish_reason,
        usage,
        model: wire.model,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_round_trip_through_the_openai_shape() {
        let mut m = ChatMessage::assistant("");
        m.content = None;
        m.tool_calls = vec![ToolCall {
            id: "call_1".into(),
            name: "sqlite_query".into(),
            arguments: r#"{"sql":"select 1"}"#.into(),
        }];
        let v = serde_json::to_value(&m).unwrap_or_default();
        assert_eq!(
            v,
            json!({"role": "assistant", "content": null, "tool_calls": [{"id": "call_1",
                "type": "function", "function": {"name": "sqlite_query",
                "arguments": "{\"sql\":\"select 1\"}"}}]})
        );
        let back: ChatMessage = serde_json::from_value(v).unwrap_or_else(|_| ChatMessage::user(""));
        assert_eq!(back, m);
        let tool =
            serde_json::to_value(ChatMessage::tool_result("call_1", "42")).unwrap_or_default();
        assert_eq!(
            tool,
            json!({"role": "tool", "content": "42", "tool_call_id": "call_1"})
        );
    }

    #[test]
    fn request_body_caps_max_tokens_and_sends_tools_only_when_offered() {
        let mut req = ChatRequest {
            messages: vec![ChatMessage::user("hi")],
            max_tokens: Some(9000),
            ..ChatRequest::default()
        };
        let body = request_body("m", &req, 512);
        assert_eq!(body["max_tokens"], 512);
        assert!(body.get("tools").is_none() && body.get("tool_choice").is_none());
        req.max_tokens = Some(100);
        req.tools = vec![ToolSpec {
            name: "t".into(),
            description: "d".into(),
            parameters: json!({"type": "object"}),
        }];
        req.tool_choice = ToolChoice::Required;
        let body = request_body("m", &req, 512);
        assert_eq!(body["max_tokens"], 100);
        assert_eq!(body["tool_choice"], "required");
        assert_eq!(body["tools"][0]["function"]["name"], "t");
        assert_eq!(body["model"], "m");
    }

    #[test]
    fn completions_parse_leniently_but_not_blindly() {
        let ok = br#"{"model":"x","choices":[{"message":{"role":"assistant","content":null,
            "tool_calls":[{"id":"a","type":"function","function":{"name":"f","arguments":{"k":1}}}]},
            "finish_reason":"tool_calls"}],"usage":{"prompt_tokens":10,"completion_tokens":3}}"#;
        let c = parse_completion(ok, 0);
        assert_eq!(
            c.as_ref()
                .map(|c| (c.message.tool_calls[0].arguments.as_str(), c.usage.total())),
            Ok((r#"{"k":1}"#, 13))
        );
        let no_usage = br#"{"choices":[{"message":{"role":"assistant","content":"abcdefgh"}}]}"#;
        let c = parse_completion(no_usage, 40).map(|c| c.usage);
        assert_eq!(
            c,
            Ok(Usage {
                prompt_tokens: 10,
                completion_tokens: 2,
                estimated: true
            })
        );
        for bad in [
            &b"{"[..],
            br#"{"choices":[]}"#,
            br#"{"choices":[{"message":{"role":"user","content":"x"}}]}"#,
            br#"{"choices":[{"message":{"role":"assistant","content":7}}]}"#,
            br#"[1,2]"#,
        ] {
            assert!(
                parse_completion(bad, 0).is_err(),
                "{}",
                String::from_utf8_lossy(bad)
            );
        }
    }
}
