// rmcp's client against one of mcp-wire's servers. Each step prints one JSON line; the judging
// (what our server must answer) is suite.ts's, so this file only drives rmcp and reports.
#![allow(deprecated)] // roots and sampling are deprecated in rmcp (SEP-2577) but still in the spec we test

use std::sync::{Arc, Mutex};
use std::time::Duration;

use rmcp::model::{
    CallToolRequest, CallToolRequestParams, ClientCapabilities, ClientConfig, ClientRequest, CreateMessageRequestParams,
    CreateMessageResult, ElicitRequestParams, ElicitResult, ElicitationAction, GetPromptRequestParams, Implementation,
    ListRootsResult, PingRequest, ProgressNotificationParam, ProtocolVersion, ReadResourceRequestParams, Root,
    SamplingMessage,
};
use rmcp::service::{NotificationContext, PeerRequestOptions, RequestContext, RoleClient, RunningService, ServiceError};
use rmcp::transport::{ConfigureCommandExt, StreamableHttpClientTransport, TokioChildProcess};
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::{ClientHandler, ClientLifecycleMode, ClientServiceExt, ErrorData};
use serde_json::{json, Map, Value};

use crate::{flag_value, has_flag};

/// The host side: answers the server's questions and keeps what it heard.
#[derive(Clone)]
struct Host {
    config: ClientConfig,
    progress: Arc<Mutex<Vec<Value>>>,
    asked: Arc<Mutex<Vec<String>>>,
}

impl ClientHandler for Host {
    fn get_info(&self) -> ClientConfig {
        self.config.clone()
    }

    async fn create_message(&self, params: CreateMessageRequestParams, _context: RequestContext<RoleClient>) -> Result<CreateMessageResult, ErrorData> {
        self.asked.lock().unwrap().push(format!("sampling/createMessage ({} messages)", params.messages.len()));
        Ok(CreateMessageResult::new(SamplingMessage::assistant_text("A crab summarised it."), "rmcp-peer-model".into()).with_stop_reason("endTurn"))
    }

    async fn create_elicitation(&self, request: ElicitRequestParams, _context: RequestContext<RoleClient>) -> Result<ElicitResult, ErrorData> {
        self.asked.lock().unwrap().push("elicitation/create".into());
        match request {
            ElicitRequestParams::FormElicitationParams { .. } => Ok(ElicitResult::new(ElicitationAction::Accept).with_content(json!({ "name": "Ferris" }))),
            _ => Ok(ElicitResult::new(ElicitationAction::Decline)),
        }
    }

    async fn list_roots(&self, _context: RequestContext<RoleClient>) -> Result<ListRootsResult, ErrorData> {
        self.asked.lock().unwrap().push("roots/list".into());
        Ok(ListRootsResult::new(vec![Root::new("file:///tmp/rmcp-peer").with_name("rmcp-peer")]))
    }

    async fn on_progress(&self, params: ProgressNotificationParam, _context: NotificationContext<RoleClient>) {
        self.progress.lock().unwrap().push(serde_json::to_value(&params).unwrap_or(Value::Null));
    }
}

fn say(step: &str, outcome: Result<Value, Value>) {
    let line = match outcome {
        Ok(value) => json!({ "step": step, "ok": true, "value": value }),
        Err(error) => json!({ "step": step, "ok": false, "error": error }),
    };
    println!("{line}");
}

fn error_value(error: ServiceError) -> Value {
    match error {
        ServiceError::McpError(data) => json!({ "code": data.code.0, "message": data.message, "data": data.data }),
        other => json!({ "message": other.to_string() }),
    }
}

fn report<T: serde::Serialize>(step: &str, outcome: Result<T, ServiceError>) {
    say(step, outcome.map(|value| serde_json::to_value(value).unwrap_or(Value::Null)).map_err(error_value));
}

fn object(value: Value) -> Map<String, Value> {
    value.as_object().cloned().unwrap_or_default()
}

fn call(name: &'static str, arguments: Value) -> CallToolRequestParams {
    CallToolRequestParams::new(name).with_arguments(object(arguments))
}

pub async fn run(args: &[String]) -> i32 {
    let lifecycle = flag_value(args, "--lifecycle").unwrap_or_else(|| "initialize".into());
    let version = flag_value(args, "--version").unwrap_or_else(|| "2025-11-25".into());
    let version: ProtocolVersion = serde_json::from_value(json!(version)).expect("a version string");
    let capabilities = ClientCapabilities::builder().enable_roots().enable_sampling().enable_elicitation().build();
    let config = ClientConfig::new(capabilities, Implementation::new("rmcp-peer", env!("CARGO_PKG_VERSION"))).with_protocol_version(version.clone());
    let host = Host { config, progress: Default::default(), asked: Default::default() };
    let mode = match lifecycle.as_str() {
        "discover" => ClientLifecycleMode::Discover { preferred_versions: vec![version.clone()] },
        "auto" => ClientLifecycleMode::Auto { preferred_versions: vec![ProtocolVersion::V_2026_07_28], legacy_version: Some(ProtocolVersion::V_2025_11_25) },
        _ => ClientLifecycleMode::Initialize,
    };
    let started = match flag_value(args, "--url") {
        Some(url) => {
            let transport = StreamableHttpClientTransport::from_config(StreamableHttpClientTransportConfig::with_uri(url));
            host.clone().serve_with_lifecycle(transport, mode).await
        }
        None => {
            let command = &args[args.iter().position(|a| a == "--").map(|at| at + 1).unwrap_or(args.len())..];
            if command.is_empty() {
                eprintln!("rmcp-peer client: give --url URL or -- COMMAND ARGS...");
                return 2;
            }
            let transport = match TokioChildProcess::new(tokio::process::Command::new(&command[0]).configure(|cmd| {
                cmd.args(&command[1..]);
            })) {
                Ok(transport) => transport,
                Err(error) => {
                    say("initialize", Err(json!({ "message": format!("spawn {}: {error}", command[0]) })));
                    return 1;
                }
            };
            host.clone().serve_with_lifecycle(transport, mode).await
        }
    };
    let client = match started {
        Ok(client) => client,
        Err(error) => {
            say("initialize", Err(json!({ "message": error.to_string() })));
            return 1;
        }
    };
    say("initialize", Ok(serde_json::to_value(client.peer_info().as_deref()).unwrap_or(Value::Null)));
    // --golden leaves out what differs from run to run (the time, a cancellation's timing), for
    // a session that replays exactly; --two-way-only runs only the server-to-client tools.
    if has_flag(args, "--two-way-only") {
        two_way(&client, &host).await;
    } else if !has_flag(args, "--only-initialize") {
        steps(&client, &host, has_flag(args, "--golden"), has_flag(args, "--textbook")).await;
    }
    // Closing: rmcp closes the child's stdin and waits for it (TokioChildProcess::graceful_shutdown).
    let closed = client.cancel().await;
    say("close", closed.map(|reason| json!(format!("{reason:?}"))).map_err(|error| json!({ "message": error.to_string() })));
    0
}

/// The message the textbook's review_message prompt is given to review.
const PING_LINE: &str = r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#;

/// textbook: the server is the textbook edition, whose notes are whole only and whose one prompt is review_message.
async fn steps(client: &RunningService<RoleClient, Host>, host: &Host, golden: bool, textbook: bool) {
    report("ping", client.send_request(ClientRequest::PingRequest(PingRequest::default())).await);
    report("tools/list", client.list_all_tools().await);

    report("call echo good", client.call_tool(call("echo", json!({ "text": "hello from rmcp" }))).await);
    report("call echo bad", client.call_tool(call("echo", json!({ "text": 42 }))).await);
    report("call add good", client.call_tool(call("add", json!({ "a": 2, "b": 3.5 }))).await);
    report("call add bad", client.call_tool(call("add", json!({ "a": "two", "b": 3 }))).await);
    if !golden {
        report("call get_time good", client.call_tool(call("get_time", json!({}))).await);
    }
    report("call get_time bad", client.call_tool(call("get_time", json!({ "zone": "UTC" }))).await);
    report("call countdown bad", client.call_tool(call("countdown", json!({ "steps": 0 }))).await);
    report("call unknown tool", client.call_tool(call("no_such_tool", json!({}))).await);

    // Progress: rmcp gives every request a progress token, so countdown's steps come back as
    // notifications/progress to on_progress.
    host.progress.lock().unwrap().clear();
    let done = client.call_tool(call("countdown", json!({ "steps": 3, "intervalMs": 20 }))).await;
    let heard = host.progress.lock().unwrap().clone();
    say("progress", done.map(|result| json!({ "result": result, "progress": heard })).map_err(error_value));

    if !golden {
        cancellation(client, host).await;
    }

    let notes = client.list_all_resources().await;
    report("resources/list", notes);
    // A golden reads one short section, not the whole notes: smaller, and its text is ignored on replay.
    // The textbook serves the notes whole only: its golden reads none of them.
    let (notes, topic) = if golden { ("docs://demo/protocol-notes/prompts", "prompts") } else { ("docs://demo/protocol-notes", "lifecycle") };
    if !(golden && textbook) {
        report("resources/read notes", client.read_resource(ReadResourceRequestParams::new(if textbook { "docs://demo/protocol-notes" } else { notes })).await);
    }
    report("resources/read missing", client.read_resource(ReadResourceRequestParams::new("docs://demo/protocol-notes/no-such-section")).await);
    report("prompts/list", client.list_all_prompts().await);
    if textbook {
        let review = GetPromptRequestParams::new("review_message").with_arguments(object(json!({ "message": PING_LINE })));
        report("prompts/get review_message", client.get_prompt(review).await);
        let bad = GetPromptRequestParams::new("review_message").with_arguments(object(json!({})));
        report("prompts/get without message", client.get_prompt(bad).await);
    } else {
        let topic = GetPromptRequestParams::new("explain_topic").with_arguments(object(json!({ "topic": topic, "audience": "expert" })));
        report("prompts/get explain_topic", client.get_prompt(topic).await);
        let bad = GetPromptRequestParams::new("explain_topic").with_arguments(object(json!({ "topic": "no-such-topic" })));
        report("prompts/get bad topic", client.get_prompt(bad).await);
    }

    two_way(client, host).await;
    report("ping after all", client.send_request(ClientRequest::PingRequest(PingRequest::default())).await);
}

/// The server asks the client (sampling, elicitation, roots): only where the server has the tools for it.
async fn two_way(client: &RunningService<RoleClient, Host>, host: &Host) {
    let names: Vec<String> = client.list_all_tools().await.map(|tools| tools.iter().map(|t| t.name.to_string()).collect()).unwrap_or_default();
    for (tool, arguments) in [("summarize", json!({ "text": "rmcp is the Rust SDK for MCP." })), ("greet", json!({})), ("list_roots", json!({}))] {
        if !names.iter().any(|name| name == tool) {
            continue;
        }
        host.asked.lock().unwrap().clear();
        let result = client.call_tool(call(tool, arguments)).await;
        let asked = host.asked.lock().unwrap().clone();
        say(&format!("call {tool}"), result.map(|result| json!({ "result": result, "asked": asked })).map_err(error_value));
    }
}

/// Starts a long countdown, cancels it after its first progress, then waits: no answer may come,
/// and the server must still answer a ping.
async fn cancellation(client: &RunningService<RoleClient, Host>, host: &Host) {
    host.progress.lock().unwrap().clear();
    let request = ClientRequest::CallToolRequest(CallToolRequest::new(call("countdown", json!({ "steps": 50, "intervalMs": 100 }))));
    let handle = match client.send_cancellable_request(request, PeerRequestOptions::no_options()).await {
        Ok(handle) => handle,
        Err(error) => return say("cancellation", Err(error_value(error))),
    };
    for _ in 0..100 {
        if !host.progress.lock().unwrap().is_empty() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let before = host.progress.lock().unwrap().len();
    let id = handle.id.clone();
    let mut rx = handle.rx;
    let cancel = rmcp::model::CancelledNotificationParam::new(Some(id.clone()), Some("rmcp-peer: not needed".into()));
    let sent = client.notify_cancelled(cancel).await;
    // A step already on its way when the cancel went may still arrive (a busy machine), so the
    // count is taken twice: in the later 600 ms (six more steps, had it gone on) nothing may come.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let settled = host.progress.lock().unwrap().len();
    tokio::time::sleep(Duration::from_millis(600)).await;
    let answered = match rx.try_recv() {
        Ok(Ok(result)) => json!({ "result": result }),
        Ok(Err(error)) => json!({ "error": error_value(error) }),
        Err(_) => Value::Null,
    };
    let after = host.progress.lock().unwrap().len();
    // The server must still answer (ping is gone from 2026-07-28, so a tool call it is).
    let still = client.call_tool(call("echo", json!({ "text": "still there" }))).await;
    // Where the cancel could not reach the call (a server that answers each POST in a session of
    // its own), its answer comes in the end: wait for it, so the outcome does not hang on timing.
    let eventually = if answered.is_null() {
        match tokio::time::timeout(Duration::from_secs(30), rx).await {
            Ok(Ok(Ok(result))) => json!({ "result": result }),
            Ok(Ok(Err(error))) => json!({ "error": error_value(error) }),
            _ => Value::Null,
        }
    } else {
        Value::Null
    };
    say("cancellation", Ok(json!({
        "eventually": eventually,
        "id": id,
        "sent": sent.is_ok(),
        "progressBefore": before,
        "progressAfterCancel": after - before,
        "progressLate": after - settled,
        "answered": answered,
        "afterwards": still.map(|result| serde_json::to_value(result).unwrap_or(Value::Null)).map_err(error_value).unwrap_or_else(|error| error),
    })));
}
