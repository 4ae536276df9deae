// rmcp-peer: the Rust SDK (rmcp) on both sides of mcp-wire.
//   rmcp-peer client [--lifecycle initialize|discover|auto] [--version V] [--exit-file F]
//                    (--url URL | -- COMMAND ARGS...)
//     rmcp's client against one of our servers: runs the checks' steps and prints one JSON line
//     per step ({"step", "ok", "value"|"error"}); suite.ts judges them.
//   rmcp-peer server [--http 127.0.0.1:PORT] [--legacy]
//     an rmcp server (tools with an output schema, a resource, a prompt, progress) on stdio or
//     Streamable HTTP; --legacy caps it at 2025-11-25, a handshake-era server.
mod client;
mod server;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("tokio runtime");
    let code = match args.first().map(String::as_str) {
        Some("client") => runtime.block_on(client::run(&args[1..])),
        Some("server") => runtime.block_on(server::run(&args[1..])),
        _ => {
            eprintln!("usage: rmcp-peer client|server ...");
            2
        }
    };
    std::process::exit(code);
}

/// The value after `flag`, if the flag is there.
pub fn flag_value(args: &[String], flag: &str) -> Option<String> {
    let end = args.iter().position(|a| a == "--").unwrap_or(args.len());
    args[..end].iter().position(|a| a == flag).and_then(|at| args.get(at + 1).cloned())
}

pub fn has_flag(args: &[String], flag: &str) -> bool {
    let end = args.iter().position(|a| a == "--").unwrap_or(args.len());
    args[..end].iter().any(|a| a == flag)
}
