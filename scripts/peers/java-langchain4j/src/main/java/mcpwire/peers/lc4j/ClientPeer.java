package mcpwire.peers.lc4j;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.exception.ToolArgumentsException;
import dev.langchain4j.exception.ToolExecutionException;
import dev.langchain4j.mcp.McpToolProvider;
import dev.langchain4j.mcp.client.DefaultMcpClient;
import dev.langchain4j.mcp.client.McpClient;
import dev.langchain4j.mcp.client.McpClientListener;
import dev.langchain4j.mcp.client.McpException;
import dev.langchain4j.mcp.client.McpGetPromptResult;
import dev.langchain4j.mcp.client.McpPrompt;
import dev.langchain4j.mcp.client.McpReadResourceResult;
import dev.langchain4j.mcp.client.McpRoot;
import dev.langchain4j.mcp.client.McpTextContent;
import dev.langchain4j.mcp.client.McpTextResourceContents;
import dev.langchain4j.mcp.client.progress.McpProgressNotification;
import dev.langchain4j.mcp.client.transport.McpTransport;
import dev.langchain4j.mcp.client.transport.http.HttpMcpTransport;
import dev.langchain4j.mcp.client.transport.http.StreamableHttpMcpTransport;
import dev.langchain4j.mcp.client.transport.stdio.StdioMcpTransport;
import dev.langchain4j.service.tool.ToolExecutionResult;
import dev.langchain4j.service.tool.ToolProviderRequest;
import dev.langchain4j.service.tool.ToolProviderResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * The LangChain4j MCP client wired as the seed chapter wires it (a transport under DefaultMcpClient,
 * then McpToolProvider with the allow-list echo, add, get_time), driven without a language model:
 * the provider is asked for its tools and a tool is run through the executor it hands out, as an
 * AI service would. Each check prints one line, "CHECK ok|FAIL name<TAB>detail", which suite.ts
 * turns into one ctx.check; what only the wire shows (versions, ids, the cancel) suite.ts reads
 * from the recording.
 *
 * Usage: ClientPeer [--textbook] [--session-per-post] [--protocol-version V] (--stdio CMD... | --http URL | --sse URL)
 *        [--cancel-target CMD... | URL]
 */
public final class ClientPeer {
    private static final String NOTES_URI = "docs://demo/protocol-notes";
    /** What DefaultMcpClient returns when toolExecutionTimeout runs out (its default message). */
    private static final String TIMEOUT = "There was a timeout executing the tool";
    private static final List<String> MODES = List.of("--stdio", "--http", "--sse");
    /** The demo's answer to a request to the client when it has no way back (session per POST). */
    private static final String NO_CHANNEL = ": a server that answers each HTTP request on its own (session per POST, or a 2026-07-28 request) has no channel back to the client; run it with sessions to send requests to the client";
    private static final String ROOT_URI = "file:///tmp/mcp-wire-lc4j-root";

    private final List<McpProgressNotification> progress = new CopyOnWriteArrayList<>();
    private final List<String> cancelled = new CopyOnWriteArrayList<>();
    private int failures = 0;

    public static void main(String[] args) throws Exception {
        System.exit(new ClientPeer().run(args));
    }

    private interface Check {
        String run() throws Exception;
    }

    private void check(String name, Check body) {
        String line;
        try {
            String said = body.run();
            line = "CHECK ok " + name + "\t" + (said == null ? "" : said);
        } catch (Throwable error) {
            failures++;
            line = "CHECK FAIL " + name + "\t" + error.getClass().getSimpleName() + ": " + error.getMessage();
        }
        System.out.println(line.replace("\n", " "));
        System.out.flush();
    }

    private static void expect(boolean condition, String what) {
        if (!condition) throw new AssertionError(what);
    }

    private int run(String[] args) throws Exception {
        // Our options come first, so that none of them is taken from the server's command.
        List<String> rest = new ArrayList<>(Arrays.asList(args));
        boolean textbook = false;
        boolean perPost = false;
        String version = null;
        while (rest.get(0).startsWith("--") && !MODES.contains(rest.get(0))) {
            switch (rest.remove(0)) {
                case "--textbook" -> textbook = true;
                case "--session-per-post" -> perPost = true;
                case "--protocol-version" -> version = rest.remove(0);
                default -> throw new IllegalArgumentException("unknown option");
            }
        }
        String mode = rest.remove(0);
        int at;
        // The cancellation check's own session (see cancelCheck), by default the same target.
        List<String> cancelTarget = rest;
        at = rest.indexOf("--cancel-target");
        if (at >= 0) {
            cancelTarget = new ArrayList<>(rest.subList(at + 1, rest.size()));
            rest = new ArrayList<>(rest.subList(0, at));
        }
        McpTransport transport = transportFor(mode, rest);
        DefaultMcpClient.Builder builder = DefaultMcpClient.builder()
                .key(textbook ? "textbook-server" : "demo-server")
                .transport(transport)
                // The chapter's timeouts: 5 s to initialize, 20 s per tool call.
                .initializationTimeout(Duration.ofSeconds(5))
                .toolExecutionTimeout(Duration.ofSeconds(20))
                .roots(List.of(new McpRoot("lc4j-root", ROOT_URI)))
                .progressHandler(progress::add)
                .addListener(new McpClientListener() {
                    @Override
                    public void onNotificationCancelled(long requestId, String reason) {
                        cancelled.add(requestId + ": " + reason);
                    }
                });
        if (version != null) builder.protocolVersion(version);

        DefaultMcpClient[] holder = new DefaultMcpClient[1];
        check("initialize", () -> {
            holder[0] = builder.build();
            String instructions = holder[0].instructions();
            return instructions == null ? "no instructions" : "instructions: " + instructions.substring(0, Math.min(40, instructions.length())) + "...";
        });
        DefaultMcpClient client = holder[0];
        if (client == null) return 1;

        toolChecks(client, textbook, perPost ? "2025-03-26" : version);
        resourceAndPromptChecks(client, textbook);
        check("ping (checkHealth)", () -> {
            client.checkHealth();
            return "answered";
        });
        boolean jsonAnswers = perPost;
        check(jsonAnswers ? "progress: none, the server answers each POST with JSON" : "progress: countdown steps=3 reports progress", () -> {
            progress.clear();
            ToolExecutionResult result = client.executeTool(request("countdown", "{\"steps\":3,\"intervalMs\":20}"));
            expect(!result.isError(), "countdown failed: " + result.resultText());
            if (jsonAnswers) {
                expect(progress.isEmpty(), "progress notifications: " + progress);
                return result.resultText();
            }
            expect(progress.size() == 3, "progress notifications: " + progress);
            expect(progress.get(2).progress() == 3.0 && Double.valueOf(3.0).equals(progress.get(2).total()), "last progress: " + progress.get(2));
            return progress.size() + " notifications, last " + progress.get(2).progress() + "/" + progress.get(2).total();
        });
        if (!textbook) twoWayChecks(client, perPost);
        cancelCheck(mode, cancelTarget, version);

        // StdioMcpTransport.close() closes the server's stdin and then destroys the process (SIGTERM)
        // at once, without the wait that basic/lifecycle#shutdown asks for (PROTOCOL_NOTES.md,
        // Peers' deviations). The demo server exits 0 on SIGTERM as on the end of its input; the
        // textbook server exits 0 if it sees the end of input first, else dies of the SIGTERM (143).
        boolean sigtermKills = textbook;
        check("close" + (transport instanceof StdioMcpTransport ? sigtermKills ? ": the server exits (0, or 143 by the SIGTERM)" : ": the server exits 0" : ""), () -> {
            client.close();
            if (transport instanceof StdioMcpTransport stdio) {
                Process process = stdio.getProcess();
                expect(process.waitFor(10, TimeUnit.SECONDS), "the server is still running 10 s after close()");
                int code = process.exitValue();
                expect(code == 0 || (sigtermKills && code == 143), "the server exited " + code);
                return "exit " + code;
            }
            return "closed";
        });
        return failures == 0 ? 0 : 1;
    }

    /** A new transport each call: over stdio that is a new server process, over HTTP a new session. */
    private static McpTransport transportFor(String mode, List<String> target) {
        return switch (mode) {
            // As the chapter: a plain command, the server's stderr consumed apart, no event log.
            case "--stdio" -> StdioMcpTransport.builder().command(target).logEvents(false).build();
            case "--http" -> StreamableHttpMcpTransport.builder().url(target.get(0)).timeout(Duration.ofSeconds(30)).build();
            case "--sse" -> HttpMcpTransport.builder().sseUrl(target.get(0)).timeout(Duration.ofSeconds(30)).build();
            default -> throw new IllegalArgumentException("unknown mode " + mode);
        };
    }

    private static ToolExecutionRequest request(String name, String arguments) {
        return ToolExecutionRequest.builder().id("1").name(name).arguments(arguments).build();
    }

    private void toolChecks(DefaultMcpClient client, boolean textbook, String version) {
        check("tools/list: every tool", () -> {
            Set<String> names = new TreeSet<>();
            for (ToolSpecification tool : client.listTools()) names.add(tool.name());
            expect(names.containsAll(List.of("echo", "add", "get_time", "countdown")), "tools: " + names);
            if (!textbook) expect(names.containsAll(List.of("greet", "summarize", "toggle_extra")), "tools: " + names);
            return String.join(", ", names);
        });
        // As the chapter's AI service sees the server: only the allowed tools, each with its executor.
        McpToolProvider provider = McpToolProvider.builder().mcpClients(client).filterToolNames("echo", "add", "get_time").build();
        ToolProviderResult[] provided = new ToolProviderResult[1];
        check("McpToolProvider: filterToolNames echo, add, get_time", () -> {
            provided[0] = provider.provideTools(new ToolProviderRequest("memory", UserMessage.from("what is 3 + 4?")));
            Set<String> names = new TreeSet<>();
            for (ToolSpecification tool : provided[0].tools().keySet()) names.add(tool.name());
            expect(names.equals(new TreeSet<>(List.of("echo", "add", "get_time"))), "provided: " + names);
            return String.join(", ", names);
        });
        if (provided[0] == null) return;
        check("tools/call echo through the provider's executor", () -> {
            String text = provided[0].toolExecutorByName("echo").execute(request("echo", "{\"text\":\"hello from LangChain4j\"}"), "memory");
            expect(text.equals("echo: hello from LangChain4j"), "echo said " + text);
            return text;
        });
        check("tools/call add 3 + 4 through the provider's executor", () -> {
            ToolExecutionResult result = provided[0].toolExecutorByName("add").executeWithContext(request("add", "{\"a\":3,\"b\":4}"), null);
            expect(!result.isError(), "isError: " + result.resultText());
            expect(result.resultText().replace(" ", "").contains("\"sum\":7"), "add said " + result.resultText());
            return result.resultText();
        });
        check("tools/call get_time", () -> {
            ToolExecutionResult result = client.executeTool(request("get_time", "{}"));
            expect(!result.isError() && result.resultText().matches("\\d{4}-\\d\\d-\\d\\dT.*Z"), "get_time said " + result.resultText());
            return result.resultText();
        });
        // LangChain4j hands an isError result to its caller as a ToolExecutionException (an AI
        // service gives its message to the model), and a JSON-RPC -32602 as a ToolArgumentsException.
        // Arguments that fail the input schema are an isError result from 2025-11-25 on, -32602
        // before: https://modelcontextprotocol.io/specification/2025-11-25/server/tools#error-handling
        // A server with a session per POST knows no negotiated version, and LangChain4j sends no
        // MCP-Protocol-Version header: such a server SHOULD assume 2025-03-26
        // (https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#protocol-version-header).
        boolean isErrorEra = version == null || version.compareTo("2025-11-25") >= 0;
        Class<? extends Exception> badArguments = isErrorEra ? ToolExecutionException.class : ToolArgumentsException.class;
        String outcome = isErrorEra ? "isError result" : "-32602";
        check("tools/call add with a string: " + outcome + " (" + badArguments.getSimpleName() + ")", () ->
                failure(badArguments, () -> client.executeTool(request("add", "{\"a\":\"three\",\"b\":4}")),
                        "tools/call add: invalid arguments: a: must be number, got string"));
        check("tools/call echo without text: " + outcome + " (" + badArguments.getSimpleName() + ")", () ->
                failure(badArguments, () -> client.executeTool(request("echo", "{}")),
                        "tools/call echo: invalid arguments: missing required property \"text\""));
        // The textbook's error messages are its own shorter words (same code and data).
        check("tools/call of an unknown tool: -32602 (ToolArgumentsException)", () -> {
            String said = failure(ToolArgumentsException.class, () -> client.executeTool(request("no_such_tool", "{}")),
                    textbook ? "tools/call: no tool named no_such_tool" : "tools/call: \"name\" names no tool of this server: \"no_such_tool\"");
            return said;
        });
    }

    private interface Call {
        Object run() throws Exception;
    }

    /** The call must fail with exactly this exception type and message. */
    private static String failure(Class<? extends Exception> type, Call call, String message) throws Exception {
        try {
            Object result = call.run();
            throw new AssertionError("no " + type.getSimpleName() + ": " + result);
        } catch (Exception error) {
            expect(type.isInstance(error), "threw " + error);
            expect(message.equals(error.getMessage()), "message: " + error.getMessage());
            return type.getSimpleName() + ": " + message;
        }
    }

    private void resourceAndPromptChecks(McpClient client, boolean textbook) {
        check("resources/read the protocol notes", () -> {
            McpReadResourceResult result = client.readResource(NOTES_URI);
            expect(result.contents().size() == 1, "contents: " + result.contents().size());
            McpTextResourceContents text = (McpTextResourceContents) result.contents().get(0);
            expect(text.text().startsWith("# mcp-wire protocol notes"), "text starts " + text.text().substring(0, 30));
            expect("text/markdown".equals(text.mimeType()), "mimeType " + text.mimeType());
            return text.text().length() + " chars of " + text.mimeType();
        });
        // -32002, resource not found: https://modelcontextprotocol.io/specification/2025-11-25/server/resources#error-handling
        check("resources/read of an unknown URI: -32002 (McpException)", () -> mcpError(-32002, () -> client.readResource("docs://demo/no-such-thing")));
        // The demo's prompts are explain_topic and review_message; the textbook's only review_message.
        List<String> prompts = textbook ? List.of("review_message") : List.of("explain_topic", "review_message");
        check("prompts/list", () -> {
            Set<String> names = new TreeSet<>();
            for (McpPrompt prompt : client.listPrompts()) names.add(prompt.name());
            expect(names.equals(new TreeSet<>(prompts)), "prompts: " + names);
            return String.join(", ", names);
        });
        if (textbook) {
            check("prompts/get review_message message=<a ping>", () -> {
                McpGetPromptResult result = client.getPrompt("review_message", Map.of("message", PING_LINE));
                expect(result.messages().size() == 1, "messages: " + result.messages().size());
                String first = ((McpTextContent) result.messages().get(0).content()).text();
                expect(first.startsWith("Here is an MCP message sent under protocol version 2025-11-25:\n" + PING_LINE + "\n"), "first message " + first);
                expect("Review one MCP message".equals(result.description()), "description " + result.description());
                return result.messages().size() + " message: " + result.description();
            });
            check("prompts/get without its required argument: -32602 (McpException)", () -> mcpError(-32602,
                    "prompts/get: \"message\" must be of type string, got undefined", () -> client.getPrompt("review_message", Map.of())));
            return;
        }
        check("prompts/get explain_topic topic=lifecycle", () -> {
            McpGetPromptResult result = client.getPrompt("explain_topic", Map.of("topic", "lifecycle"));
            expect(!result.messages().isEmpty(), "no messages");
            String first = ((McpTextContent) result.messages().get(0).content()).text();
            expect(first.contains("Lifecycle"), "first message " + first);
            return result.messages().size() + " messages: " + result.description();
        });
        check("prompts/get without its required argument: -32602 (McpException)", () -> mcpError(-32602,
                "prompts/get: \"arguments.topic\" is required by prompt \"explain_topic\"", () -> client.getPrompt("explain_topic", Map.of())));
    }

    private static final String PING_LINE = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}";

    /** The call must fail with an McpException of this code and exactly this message. */
    private static String mcpError(int code, String message, Call call) throws Exception {
        String said = mcpError(code, call);
        expect(said.endsWith(": " + message), said);
        return said;
    }

    private static String mcpError(int code, Call call) throws Exception {
        try {
            Object result = call.run();
            throw new AssertionError("no McpException: " + result);
        } catch (McpException error) {
            expect(error.errorCode() == code, "code " + error.errorCode() + ": " + error.errorMessage());
            return "McpException " + code + ": " + error.errorMessage();
        }
    }

    /** The demo's tools that ask the client: roots LangChain4j answers; sampling and elicitation it does not offer. */
    private void twoWayChecks(DefaultMcpClient client, boolean perPost) {
        if (perPost) {
            String[][] calls = {{"list_roots", "{}", "roots/list"}, {"greet", "{}", "elicitation/create"}, {"summarize", "{\"text\":\"MCP\"}", "sampling/createMessage"}};
            for (String[] call : calls) {
                check(call[0] + ": " + call[2] + " has no channel back with a session per POST", () ->
                        failure(ToolExecutionException.class, () -> client.executeTool(request(call[0], call[1])), call[2] + NO_CHANNEL));
            }
            return;
        }
        check("roots/list from the server (list_roots, --roots-tool)", () -> {
            ToolExecutionResult result = client.executeTool(request("list_roots", "{}"));
            expect(!result.isError() && result.resultText().contains(ROOT_URI), "list_roots said " + result.resultText());
            return result.resultText();
        });
        check("elicitation: not offered by LangChain4j, greet is an isError result", () ->
                failure(ToolExecutionException.class, () -> client.executeTool(request("greet", "{}")),
                        "elicitation/create: the client did not declare the elicitation capability"));
        check("sampling: not offered by LangChain4j, summarize is an isError result", () ->
                failure(ToolExecutionException.class, () -> client.executeTool(request("summarize", "{\"text\":\"MCP is a protocol.\"}")),
                        "sampling/createMessage: the client did not declare the sampling capability"));
    }

    /**
     * LangChain4j cancels a call only when its toolExecutionTimeout runs out: a client of its own
     * with a short timeout calls a long countdown, then proves the server still answers.
     */
    private void cancelCheck(String mode, List<String> target, String version) {
        check("cancellation: a timed-out countdown is cancelled, the server stays fine", () -> {
            DefaultMcpClient.Builder builder = DefaultMcpClient.builder().key("cancel").transport(transportFor(mode, target))
                    .initializationTimeout(Duration.ofSeconds(5)).toolExecutionTimeout(Duration.ofMillis(400));
            if (version != null) builder.protocolVersion(version);
            DefaultMcpClient brief = builder.build();
            try {
                ToolExecutionResult result = brief.executeTool(request("countdown", "{\"steps\":50,\"intervalMs\":100}"));
                // The timeout is no error to LangChain4j: the model is told so in plain text.
                expect(TIMEOUT.equals(result.resultText()), "the countdown said: " + result.resultText());
                ToolExecutionResult echo = brief.executeTool(request("echo", "{\"text\":\"still here\"}"));
                expect("echo: still here".equals(echo.resultText()), "after the cancel echo said " + echo.resultText());
                return "timed out, then echo answered";
            } finally {
                brief.close();
            }
        });
    }
}
