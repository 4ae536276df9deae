package peers.spring.sdkclient;

import static peers.spring.Checks.expect;
import static peers.spring.Checks.json;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import peers.spring.Checks;
import peers.spring.DemoChecks;

/** The checks of one initialized session of the Java SDK client against our demo or textbook server. */
final class SessionChecks {
	private final McpSyncClient client;
	private final TappedTransport transport;
	private final List<McpSchema.ProgressNotification> progress;
	private final Checks checks;
	/** The negotiated version: what the server may send (structuredContent, elicitation) depends on it. */
	private final String version;

	SessionChecks(McpSyncClient client, TappedTransport transport, List<McpSchema.ProgressNotification> progress, Checks checks) {
		this.client = client;
		this.version = client.getCurrentInitializationResult().protocolVersion();
		this.transport = transport;
		this.progress = progress;
		this.checks = checks;
	}

	/** stateless: our demo with --session-per-post, every POST a session of its own, answered with JSON. */
	void all(boolean twoWay, boolean stateless, boolean textbook) {
		checks.check("tools/list", () -> {
			List<String> names = client.listTools().tools().stream().map(McpSchema.Tool::name).toList();
			expect(names.containsAll(List.of("echo", "add", "get_time", "countdown")), "tools " + names);
			return String.join(", ", names);
		});
		checks.check("call echo (good)", () -> expectText(call("echo", Map.of("text", "hi")), "echo: hi"));
		checks.check("call echo (bad: text missing)", () -> expectInvalid("echo", Map.of()));
		checks.check("call add (good)", () -> {
			McpSchema.CallToolResult result = call("add", Map.of("a", 3, "b", 4));
			expect(!Boolean.TRUE.equals(result.isError()), "isError");
			expect(textOf(result).equals("{\"sum\":7}"), "text " + textOf(result));
			// structuredContent came with 2025-06-18 (server/tools#structured-content); before, text only.
			String structured = version.compareTo("2025-06-18") >= 0 ? "{\"sum\":7}" : "null";
			expect(json(result.structuredContent()).equals(structured), "structuredContent " + json(result.structuredContent()));
			return "text " + textOf(result) + ", structuredContent " + structured;
		});
		checks.check("call add (bad: a is a string)", () -> expectInvalid("add", Map.of("a", "x", "b", 1)));
		checks.check("call get_time (good)", () -> {
			String text = textOf(call("get_time", Map.of()));
			expect(text.matches("\\d{4}-\\d\\d-\\d\\dT.*Z"), "not ISO 8601: " + text);
			return text;
		});
		checks.check("call get_time (bad: an extra argument)", () -> expectInvalid("get_time", Map.of("zone", "UTC")));
		checks.check("call countdown (bad: steps 0)", () -> expectInvalid("countdown", Map.of("steps", 0)));
		checks.check("call an unknown tool: -32602", () -> {
			try {
				call("no_such_tool", Map.of());
			}
			catch (McpError error) {
				expect(error.getJsonRpcError().code() == -32602, "code " + error.getJsonRpcError().code());
				// The textbook's error messages are its own shorter words (same code and data).
				String said = textbook ? "tools/call: no tool named no_such_tool" : "tools/call: \"name\" names no tool of this server: \"no_such_tool\"";
				expect(said.equals(error.getJsonRpcError().message()), "message " + error.getJsonRpcError().message());
				return "-32602 " + error.getJsonRpcError().message();
			}
			throw new AssertionError("no error");
		});
		DemoChecks.notesPromptsPing(checks, client, textbook);
		checks.check("progress: countdown with a progress token" + (stateless ? " (answered with JSON: no progress)" : ""), () -> {
			progress.clear();
			transport.wireProgress.clear();
			McpSchema.CallToolResult result = client.callTool(McpSchema.CallToolRequest.builder().name("countdown")
					.arguments(Map.of("steps", 3, "intervalMs", 10)).progressToken("java-progress-1").build());
			expect(!Boolean.TRUE.equals(result.isError()), "isError: " + textOf(result));
			// The SDK hands each notification to the consumer on its own task, so the consumer may see
			// them in any order; the order is checked where they come off the wire.
			List<Double> mine = progress.stream().filter(p -> "java-progress-1".equals(p.progressToken())).map(McpSchema.ProgressNotification::progress).sorted().toList();
			List<Double> expected = stateless ? List.of() : List.of(1.0, 2.0, 3.0);
			expect(mine.equals(expected), "progress to the consumer " + mine);
			expect(json(transport.wireProgress).equals(stateless ? "[]" : "[1,2,3]"), "progress on the wire " + json(transport.wireProgress));
			return mine.size() + " progress notifications (wire order " + json(transport.wireProgress) + "), then " + textOf(result);
		});
		// Session per post: the cancel goes in a POST of its own, to a session of its own, which holds no
		// countdown to cancel; the call runs to its end. Nothing to check there.
		if (!stateless) checks.check("cancellation: countdown cancelled, no result, the server still answers", this::cancellation);
		if (twoWay) {
			// Elicitation came with 2025-06-18 (client/elicitation); an older session has no such request.
			if (version.compareTo("2025-06-18") >= 0) checks.check("elicitation: greet asks the name", () -> expectText(call("greet", Map.of()), "Ada"));
			checks.check("sampling: summarize asks the model", () -> expectText(call("summarize", Map.of("text", "MCP is a protocol.")), "A one-line summary from the Java peer."));
			checks.check("roots: list_roots asks the roots", () -> expectText(call("list_roots", Map.of()), SdkClientChecks.ROOT_URI));
		}
	}

	/**
	 * The SDK 0.17 cannot cancel a request (its sync callTool just waits), so this sends
	 * notifications/cancelled for the countdown's id through the SDK's own transport, once the
	 * countdown's first progress shows the server is running it (over HTTP each message is a POST of
	 * its own, and a cancel sent earlier may overtake the call), then waits past the countdown's whole
	 * length: a result for that id must never come, and the server must still answer.
	 */
	private String cancellation() throws Exception {
		CompletableFuture<McpSchema.CallToolResult> pending = CompletableFuture.supplyAsync(() -> client.callTool(McpSchema.CallToolRequest
				.builder().name("countdown").arguments(Map.of("steps", 10, "intervalMs", 100)).progressToken("java-cancel-1").build()));
		for (int tries = 0; tries < 500 && !transport.wireProgressTokens.contains("java-cancel-1"); tries++) Thread.sleep(20);
		expect(transport.wireProgressTokens.contains("java-cancel-1"), "the countdown never reported progress");
		Object id = transport.lastIdByMethod.get("tools/call");
		transport.sendMessage(new McpSchema.JSONRPCNotification("2.0", "notifications/cancelled",
				Map.of("requestId", id, "reason", "the Java peer's cancellation check"))).block();
		Thread.sleep(2500);
		client.ping();
		expect(!transport.responseIds.contains(id), "a response for the cancelled request " + id + " came");
		expect(!pending.isDone(), "the cancelled call completed: " + pending.getNow(null));
		pending.cancel(true);
		return "cancelled after its first progress; no response for " + id + " 2.5 s later (the countdown takes 1 s); ping answered";
	}

	private McpSchema.CallToolResult call(String name, Map<String, Object> arguments) {
		return client.callTool(new McpSchema.CallToolRequest(name, arguments));
	}

	private static String textOf(McpSchema.CallToolResult result) {
		return result.content().isEmpty() ? "" : ((McpSchema.TextContent) result.content().get(0)).text();
	}

	private static String expectText(McpSchema.CallToolResult result, String wanted) {
		String text = textOf(result);
		expect(!Boolean.TRUE.equals(result.isError()), "isError: " + text);
		expect(text.contains(wanted), "text " + text);
		return text;
	}

	/**
	 * Arguments that break the inputSchema: from 2025-11-25 on a tool execution error (isError, so a
	 * model can correct itself: server/tools#error-handling); before it, our server answers -32602
	 * Invalid params, as those versions' error-handling sections name for invalid arguments.
	 */
	private String expectInvalid(String tool, Map<String, Object> arguments) {
		String prefix = "tools/call " + tool + ": invalid arguments";
		if (version.compareTo("2025-11-25") >= 0) {
			McpSchema.CallToolResult result = call(tool, arguments);
			expect(Boolean.TRUE.equals(result.isError()) && textOf(result).startsWith(prefix), "not isError: " + textOf(result));
			return "isError: " + textOf(result);
		}
		try {
			McpSchema.CallToolResult result = call(tool, arguments);
			throw new AssertionError("no -32602 but a result: " + textOf(result));
		}
		catch (McpError error) {
			expect(error.getJsonRpcError().code() == -32602 && error.getJsonRpcError().message().startsWith(prefix), "error " + error.getMessage());
			return "-32602 " + error.getJsonRpcError().message();
		}
	}
}
