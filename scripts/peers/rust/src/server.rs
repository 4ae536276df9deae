// An rmcp server for mcp-wire's client and CLI to drive: tools (add with an output schema and
// structured content, echo, countdown with progress), the protocol notes as a resource, a prompt.
// On stdio, or with --http ADDR on Streamable HTTP (rmcp's StreamableHttpService under hyper).
// --legacy makes it a handshake-era server: it supports 2025-11-25 and older only.

use std::borrow::Cow;
use std::sync::Arc;
use std::time::Duration;

use hyper_util::rt::TokioIo;
use hyper_util::service::TowerToHyperService;
use rmcp::handler::server::router::prompt::PromptRouter;
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{
    Implementation, ListResourcesResult, PaginatedRequestParams, ProgressNotificationParam, PromptMessage,
    ProtocolVersion, ReadResourceRequestParams, ReadResourceResponse, ReadResourceResult, RequestMetaObject,
    Resource, ResourceContents, Role, ServerCapabilities, ServerConfig,
};
use schemars::JsonSchema;
use rmcp::service::{RequestContext, RoleServer};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use rmcp::{prompt, prompt_handler, prompt_router, tool, tool_handler, tool_router, ErrorData, Json, Peer, ServerHandler, ServiceExt};
use serde::{Deserialize, Serialize};

use crate::{flag_value, has_flag};

pub const NOTES_URI: &str = "rmcp-peer://notes";
const NOTES: &str = "# rmcp-peer notes\n\nAn rmcp server that mcp-wire's CLI drives, to check the two agree on the wire.\n";

#[derive(Clone)]
pub struct PeerServer {
    legacy: bool,
    tool_router: ToolRouter<Self>,
    prompt_router: PromptRouter<Self>,
}

#[derive(Deserialize, JsonSchema)]
pub struct AddArgs {
    /// The first addend.
    pub a: f64,
    /// The second addend.
    pub b: f64,
}

#[derive(Serialize, JsonSchema)]
pub struct Sum {
    /// a + b
    pub sum: f64,
}

#[derive(Deserialize, JsonSchema)]
pub struct EchoArgs {
    /// The text to repeat.
    pub text: String,
}

#[derive(Deserialize, JsonSchema)]
pub struct CountdownArgs {
    /// How many steps (1-20).
    pub steps: u32,
}

#[derive(Deserialize, JsonSchema)]
pub struct ExplainArgs {
    /// What to explain.
    pub topic: String,
}

#[tool_router]
impl PeerServer {
    pub fn new(legacy: bool) -> Self {
        Self { legacy, tool_router: Self::tool_router(), prompt_router: Self::prompt_router() }
    }

    #[tool(name = "add", description = "Adds a and b; the sum comes as structured content { sum }.")]
    async fn add(&self, Parameters(args): Parameters<AddArgs>) -> Json<Sum> {
        Json(Sum { sum: args.a + args.b })
    }

    #[tool(name = "echo", description = "Repeats text back, prefixed with \"echo: \".")]
    async fn echo(&self, Parameters(args): Parameters<EchoArgs>) -> String {
        format!("echo: {}", args.text)
    }

    #[tool(name = "countdown", description = "Counts down `steps` steps of 20 ms, reporting progress on each when the call has a progress token.")]
    async fn countdown(&self, Parameters(args): Parameters<CountdownArgs>, meta: RequestMetaObject, client: Peer<RoleServer>) -> Result<String, ErrorData> {
        if args.steps == 0 || args.steps > 20 {
            return Err(ErrorData::invalid_params("countdown: steps must be 1-20", None));
        }
        let token = meta.get_progress_token();
        for done in 1..=args.steps {
            tokio::time::sleep(Duration::from_millis(20)).await;
            if let Some(token) = &token {
                let progress = ProgressNotificationParam::new(token.clone(), f64::from(done)).with_total(f64::from(args.steps));
                let _ = client.notify_progress(progress.with_message(format!("{} to go", args.steps - done))).await;
            }
        }
        Ok(format!("countdown: done after {} steps", args.steps))
    }
}

#[prompt_router]
impl PeerServer {
    #[prompt(name = "explain", description = "Asks the model to explain one MCP topic.")]
    async fn explain(&self, Parameters(args): Parameters<ExplainArgs>) -> Vec<PromptMessage> {
        vec![PromptMessage::new_text(Role::User, format!("Explain {} in the Model Context Protocol.", args.topic))]
    }
}

#[tool_handler(router = self.tool_router)]
#[prompt_handler(router = self.prompt_router)]
impl ServerHandler for PeerServer {
    fn get_info(&self) -> ServerConfig {
        let capabilities = ServerCapabilities::builder().enable_prompts().enable_resources().enable_tools().build();
        ServerConfig::new(capabilities)
            .with_server_info(Implementation::new("rmcp-peer-server", env!("CARGO_PKG_VERSION")))
            .with_instructions("An rmcp server for mcp-wire's interop checks.")
    }

    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        if self.legacy {
            Cow::Borrowed(ProtocolVersion::known_up_to(&ProtocolVersion::V_2025_11_25))
        } else {
            Cow::Borrowed(ProtocolVersion::KNOWN_VERSIONS)
        }
    }

    async fn list_resources(&self, _request: Option<PaginatedRequestParams>, _context: RequestContext<RoleServer>) -> Result<ListResourcesResult, ErrorData> {
        let notes = Resource::new(NOTES_URI, "notes").with_description("What this server is for.").with_mime_type("text/markdown");
        Ok(ListResourcesResult::with_all_items(vec![notes]))
    }

    async fn read_resource(&self, request: ReadResourceRequestParams, _context: RequestContext<RoleServer>) -> Result<ReadResourceResponse, ErrorData> {
        if request.uri != NOTES_URI {
            return Err(ErrorData::resource_not_found(format!("no resource {}", request.uri), None));
        }
        Ok(ReadResourceResult::new(vec![ResourceContents::text(NOTES, NOTES_URI).with_mime_type("text/markdown")]).into())
    }
}

pub async fn run(args: &[String]) -> i32 {
    let legacy = has_flag(args, "--legacy");
    match flag_value(args, "--http") {
        None => match PeerServer::new(legacy).serve(rmcp::transport::stdio()).await {
            Ok(running) => {
                let _ = running.waiting().await;
                0
            }
            // rmcp's serve() waits for a first request other than server/discover: a client that
            // only asked server/discover (mcp-wire discover, or its probe) closes before that, which
            // is an ordinary end of the session.
            Err(rmcp::service::ServerInitializeError::ConnectionClosed(_)) => 0,
            Err(error) => {
                eprintln!("rmcp-peer server: {error}");
                1
            }
        },
        Some(address) => serve_http(&address, legacy).await,
    }
}

async fn serve_http(address: &str, legacy: bool) -> i32 {
    let service = StreamableHttpService::new(move || Ok(PeerServer::new(legacy)), Arc::new(LocalSessionManager::default()), StreamableHttpServerConfig::default());
    let listener = match tokio::net::TcpListener::bind(address).await {
        Ok(listener) => listener,
        Err(error) => {
            eprintln!("rmcp-peer server: bind {address}: {error}");
            return 1;
        }
    };
    // The suite reads the port from this line.
    println!("listening on http://{}/mcp", listener.local_addr().expect("a bound address"));
    loop {
        let Ok((stream, _)) = listener.accept().await else { continue };
        let service = TowerToHyperService::new(service.clone());
        tokio::spawn(async move {
            let _ = hyper::server::conn::http1::Builder::new().serve_connection(TokioIo::new(stream), service).await;
        });
    }
}
