// What `mcp-wire --help` prints, and the error for a command line that cannot be run (exit code 2),
// which names what is wrong with it. arguments.ts parses; this is what it tells the user.

export const USAGE = `usage: mcp-wire [options] <command> [arguments] -- <server command> [server arguments...]
       mcp-wire [options] --url URL [--header NAME:VALUE]... <command> [arguments]
       mcp-wire [options] --config FILE [--server NAME] <command> [arguments]
                                              the server as a host's configuration file names it
       mcp-wire logout URL                    forget the credentials stored for the server at URL
       mcp-wire completion bash|zsh|fish      print a shell completion script; install it with
                                              source <(mcp-wire completion bash) in ~/.bashrc,
                                              source <(mcp-wire completion zsh) in ~/.zshrc, or
                                              mcp-wire completion fish > ~/.config/fish/completions/mcp-wire.fish
       mcp-wire record --out FILE [--] <server command> [server arguments...]
       mcp-wire record --out FILE --listen HOST:PORT --target URL
                                              a transparent proxy (stdio, or HTTP) that records the
                                              session in FILE as it passes
       mcp-wire explain FILE [--wire]         print a recording, one line per message, with notes
       mcp-wire diagram FILE [--format mermaid|svg] [--out FILE]
                                              draw a recording as a sequence diagram
       mcp-wire replay FILE [--timeout MS] [--ignore POINTER]... [--update] -- <server command> | --url URL
                                              play a recording's client side against the server and
                                              compare what it sends (no command: the recording's
                                              own); exit 1 on a difference, 3 if the server failed
       mcp-wire check FILE [--json]           check a recording against the spec of the version it
                                              negotiated, one line per violation; exit 1 if any
       (the recording tools above work on recordings of sessions; each has its own --help)
       mcp-wire inspect [--open] [options] -- <server command> | --url URL
                                              show the session live on a local web page, with
                                              forms for tools, resources and prompts (--help)

Starts an MCP server over stdio (or, with --url, reaches one over HTTP), finds out which protocol
generation it speaks (--protocol-version auto: 2026-07-28 if it answers server/discover, else the
initialize handshake), runs one command, prints its result as JSON on stdout, and stops the
server (or ends the session).

commands:
  discover                               print what the server offers: its server/discover result,
                                         or, from a server that speaks only the handshake, what
                                         initialize told (stderr says so; exit 0 unless
                                         --protocol-version 2026-07-28 demanded discover)
  tools                                  list every tool (all pages)
  call <tool> [JSON_OBJECT | key=value ...]
                                         call a tool; key=value values take the type the tool's
                                         inputSchema gives them (number, integer, boolean, JSON for
                                         object and array), else stay strings
  resources                              list every resource
  read <uri>                             read a resource
  templates                              list every resource template
  prompts                                list every prompt
  get <prompt> [JSON_OBJECT | key=value ...]
                                         get a prompt; its arguments are strings, so every value
                                         of the JSON object must be a string
  complete <prompt | template-uri> <argument> <value>
                                         suggest values for an argument; a reference containing
                                         "://" or "{" is a resource template URI, else a prompt name
  ping                                   check that the server answers
  request <method> [PARAMS_JSON]         send any request and print its result

options (before "--"):
  --url URL                connect over HTTP instead of starting a server: Streamable HTTP, or
                           the older HTTP+SSE transport if the server turns that down
  --header NAME:VALUE      send this header on every HTTP request (repeatable; with --url),
                           e.g. --header "Authorization: Bearer $TOKEN"
  --config FILE            take the server from a host's configuration file: "mcpServers" (Claude
                           Desktop, Claude Code's .mcp.json, Cursor, Gemini CLI's settings.json) or
                           "servers" (VS Code's mcp.json); its env goes over ours, --env over its;
                           variables are expanded as that host expands them
  --server NAME            the server of --config's file to use (not needed if it has only one)
  --client-id ID           OAuth: a client ID registered with the server's authorization server
                           (without it, mcp-wire registers itself: Dynamic Client Registration)
  --client-issuer URL      OAuth: the issuer of that authorization server, as its metadata names
                           it; needed with --client-id, which is sent to that server only (never
                           to another one the MCP server names)
  --client-secret SECRET   OAuth: that client's secret; prefer the environment variable
                           MCP_WIRE_CLIENT_SECRET, since a command line is seen by other users
                           (ps) and kept in shell history
  --scope "A B"            OAuth: the scopes to ask for (default: the server's 401 challenge,
                           else its metadata's scopes_supported)
  --no-browser             OAuth: only print the authorization URL, do not open a browser
  --auth-timeout SECONDS   OAuth: how long to wait for the browser's redirect (default 300)
  --no-store               OAuth: keep tokens in memory for this run only; by default they are
                           kept in $XDG_CONFIG_HOME/mcp-wire/credentials.json (~/.config/...,
                           %APPDATA%\\mcp-wire\\ on Windows), mode 0600, per issuer and server
  --protocol-version V     auto (default), 2026-07-28, 2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05
  --trace                  print every message on stderr: → sent, ← received, ms since start, and
                           which protocol era was chosen and why; over HTTP also each request
                           (http →, OAuth's included) and its status (http ←), credentials redacted
  --timeout MS             give up on each request after MS ms (default: 60000 without a sign of life)
  --handshake-timeout MS   give up on initialize after MS ms (default 5000); server/discover
                           waits as long, then auto falls back to initialize
  --env KEY=VALUE          set a variable in the server's environment (repeatable)
  --cwd DIR                start the server in DIR
  --log-level LEVEL        ask the server to log at LEVEL (debug, info, notice, warning, error,
                           critical, alert, emergency); its log messages are printed on stderr
  --quiet                  do not pass the server's stderr on (by default each line is printed
                           on our stderr after "[server] ")
  -h, --help               print this help

exit codes:
  0  success
  1  the server or the protocol failed: spawn, HTTP, handshake, server exit, JSON-RPC error, timeout
  2  usage error: a bad command line or bad JSON arguments
  3  the tool ran and reported failure (its result, printed as usual, has isError: true)
  130, 143  interrupted by SIGINT (Ctrl-C) or SIGTERM; the server is stopped first

A server that answers 401 is asked for authorization (OAuth 2.1): mcp-wire finds its authorization
server, prints a URL to open (and opens it in a browser), receives the redirect on
http://127.0.0.1:<port>/callback, and sends the token it gets. Tokens, secrets and codes are never
printed, --trace included.

On a terminal, call shows the server's progress as a bar on stderr, a tool that asks the user gets
its questions asked there, and failures are in colour (NO_COLOR=1 turns colour off, FORCE_COLOR=1
on). Not on a terminal: progress as plain lines on stderr, questions declined, no colour; stdout is
the same JSON either way.

examples:
  mcp-wire call add a=3 b=4 -- node dist/server.js
  mcp-wire call add '{"a":3,"b":4}' -- node dist/server.js
  mcp-wire get explain_topic '{"topic":"tools"}' -- node dist/server.js
  mcp-wire --url http://127.0.0.1:3000/mcp tools
  mcp-wire --url https://mcp.example.com/mcp --scope "files:read" tools
  mcp-wire --config .vscode/mcp.json --server demo tools`;

/** A command line that cannot be run; the message says what is wrong with it. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}
