package peers.spring.sdkclient;

import static peers.spring.Checks.expect;

import java.lang.reflect.Field;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.ObjectMapper;

import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientSseClientTransport;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.jackson.JacksonMcpJsonMapper;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import peers.spring.Checks;

/**
 * The MCP Java SDK client, wired as the Spring AI chapter wires it (McpClient.sync over
 * StdioClientTransport, or HttpClientStreamableHttpTransport / HttpClientSseClientTransport),
 * against one of our servers. Arguments:
 *   --transport stdio|streamable|sse   --version V (the one version offered; repeat the run per version)
 *   --url URL (HTTP)  |  --command WORD... (stdio: the rest of the line)
 *   --handshake-only (initialize and close)   --two-way (the demo's greet, summarize, list_roots)
 *   --expect-refusal (the server answers a version the SDK does not offer: initialize must fail)
 *   --stateless (our demo's --session-per-post: each POST a session answered with JSON)
 *   --textbook (the server is our textbook edition: its one prompt, its own error words)
 */
public final class SdkClientChecks {
	static final String ROOT_URI = "file:///tmp/java-spring-root";

	public static int run(String[] args) throws Exception {
		List<String> argv = Arrays.asList(args);
		String transportName = valueOf(argv, "--transport", "stdio");
		String version = valueOf(argv, "--version", null);
		String url = valueOf(argv, "--url", null);
		int commandAt = argv.indexOf("--command");
		List<String> command = commandAt < 0 ? List.of() : argv.subList(commandAt + 1, argv.size());
		boolean handshakeOnly = argv.subList(0, commandAt < 0 ? argv.size() : commandAt).contains("--handshake-only");
		boolean twoWay = argv.subList(0, commandAt < 0 ? argv.size() : commandAt).contains("--two-way");
		boolean stateless = argv.subList(0, commandAt < 0 ? argv.size() : commandAt).contains("--stateless");
		boolean textbook = argv.subList(0, commandAt < 0 ? argv.size() : commandAt).contains("--textbook");
		boolean expectRefusal = argv.subList(0, commandAt < 0 ? argv.size() : commandAt).contains("--expect-refusal");

		JacksonMcpJsonMapper mapper = new JacksonMcpJsonMapper(new ObjectMapper());
		List<String> offered = version == null ? null : List.of(version);
		McpClientTransport inner = switch (transportName) {
			case "stdio" -> new StdioClientTransport(ServerParameters.builder(command.get(0))
					.args(command.subList(1, command.size())).build(), mapper);
			case "streamable" -> {
				var builder = HttpClientStreamableHttpTransport.builder(url).jsonMapper(mapper);
				if (offered != null) builder.supportedProtocolVersions(offered);
				yield builder.build();
			}
			case "sse" -> HttpClientSseClientTransport.builder(url).jsonMapper(mapper).build();
			default -> throw new IllegalArgumentException("unknown transport " + transportName);
		};
		TappedTransport transport = new TappedTransport(inner, offered);
		List<McpSchema.ProgressNotification> progress = new CopyOnWriteArrayList<>();
		McpSyncClient client = McpClient.sync(transport)
				.clientInfo(new McpSchema.Implementation("jichi-agent", "1.0.0"))
				.requestTimeout(Duration.ofSeconds(20))
				.initializationTimeout(Duration.ofSeconds(10))
				.capabilities(McpSchema.ClientCapabilities.builder().roots(true).sampling().elicitation().build())
				.roots(new McpSchema.Root(ROOT_URI, "peer root"))
				.sampling(request -> McpSchema.CreateMessageResult.builder().role(McpSchema.Role.ASSISTANT)
						.content(new McpSchema.TextContent("A one-line summary from the Java peer.")).model("java-peer-stub")
						.stopReason(McpSchema.CreateMessageResult.StopReason.END_TURN).build())
				.elicitation(request -> McpSchema.ElicitResult.builder().message(McpSchema.ElicitResult.Action.ACCEPT)
						.content(Map.of("name", "Ada")).build())
				.progressConsumer(progress::add)
				.build();

		Checks checks = new Checks();
		String expectedVersion = version;
		if (expectRefusal) {
			checks.check("initialize" + (version == null ? "" : " offering " + version) + ": refused, the server answers a version the SDK lacks", () -> {
				try {
					client.initialize();
				}
				catch (RuntimeException error) {
					Object answered = transport.answeredVersion;
					expect(answered != null && !transport.protocolVersions().contains(answered), "failed otherwise: " + error.getMessage());
					return "the server answered " + answered + "; the SDK (offering " + transport.protocolVersions() + ") stopped: " + error.getMessage();
				}
				throw new AssertionError("initialized");
			});
			checks.check("close after the refusal", () -> {
				client.close();
				if (!"stdio".equals(transportName)) return "closed";
				Process process = serverProcess((StdioClientTransport) inner);
				expect(process.waitFor(10, TimeUnit.SECONDS), "the server is still running 10 s after close");
				return "the SDK ended the server (exit " + process.exitValue() + ")";
			});
			return checks.exitCode();
		}
		boolean up = checks.check("initialize" + (version == null ? "" : " offering " + version), () -> {
			McpSchema.InitializeResult result = client.initialize();
			if (expectedVersion != null) expect(expectedVersion.equals(result.protocolVersion()), "negotiated " + result.protocolVersion());
			return "negotiated " + result.protocolVersion() + " with " + result.serverInfo().name();
		});
		if (up && !handshakeOnly) new SessionChecks(client, transport, progress, checks).all(twoWay, stateless, textbook);
		checks.check("close" + ("stdio".equals(transportName) ? ": the server exits 0 (or by the SDK's SIGTERM)" : ""), () -> {
			boolean graceful = client.closeGracefully();
			if (!"stdio".equals(transportName)) return "closed (graceful: " + graceful + ")";
			Process process = serverProcess((StdioClientTransport) inner);
			expect(process.waitFor(10, TimeUnit.SECONDS), "the server is still running 10 s after close");
			// The SDK closes the server's stdin and sends SIGTERM at once, without waiting for it to exit
			// (basic/lifecycle#stdio says: wait, then SIGTERM): a server without a SIGTERM handler
			// exits 143 through no fault of its own. Any other code is the server's.
			expect(process.exitValue() == 0 || process.exitValue() == 143, "the server exited " + process.exitValue());
			return process.exitValue() == 0 ? "server exit 0" : "server ended by the SDK's SIGTERM (143), sent right after stdin closed";
		});
		return checks.exitCode();
	}

	/** The SDK keeps the server's Process private; the close check needs its exit code. */
	private static Process serverProcess(StdioClientTransport transport) throws ReflectiveOperationException {
		Field field = StdioClientTransport.class.getDeclaredField("process");
		field.setAccessible(true);
		return (Process) field.get(transport);
	}

	private static String valueOf(List<String> argv, String flag, String fallback) {
		int at = argv.indexOf(flag);
		return at < 0 || at + 1 >= argv.size() ? fallback : argv.get(at + 1);
	}
}
