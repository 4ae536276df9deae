package peers.spring.springclient;

import static peers.spring.Checks.expect;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.springframework.ai.mcp.SyncMcpToolCallbackProvider;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.ConfigurableApplicationContext;

import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import peers.spring.Checks;
import peers.spring.DemoChecks;

/**
 * The Spring AI MCP client (spring-ai-starter-mcp-client): the connection to our server is given
 * by properties only (spring.ai.mcp.client.stdio/streamable-http/sse.connections.*, passed by the
 * suite as --name=value arguments), the starter initializes it at startup, and the tools are reached
 * as an LLM-backed app reaches them, through SyncMcpToolCallbackProvider's ToolCallbacks (no model
 * is needed to call one).
 */
@SpringBootApplication
public class SpringClientApp {
	public static int run(String[] args) throws Exception {
		if (args.length > 0 && args[0].equals("--expect-refusal")) return expectRefusal(Arrays.copyOfRange(args, 1, args.length));
		List<String> all = new ArrayList<>(List.of(
				"--spring.main.banner-mode=off",
				"--spring.ai.mcp.server.enabled=false",
				"--spring.ai.mcp.client.type=SYNC",
				"--spring.ai.mcp.client.name=jichi-agent",
				"--spring.ai.mcp.client.toolcallback.enabled=true"));
		all.addAll(Arrays.asList(args));
		SpringApplication app = new SpringApplication(SpringClientApp.class);
		app.setWebApplicationType(WebApplicationType.NONE);
		Checks checks = new Checks();
		ConfigurableApplicationContext[] context = new ConfigurableApplicationContext[1];
		boolean up = checks.check("initialize (at startup, by the starter)", () -> {
			context[0] = app.run(all.toArray(String[]::new));
			McpSyncClient client = clientOf(context[0]);
			return "negotiated " + client.getCurrentInitializationResult().protocolVersion() + " with " + client.getServerInfo().name();
		});
		if (!up) return checks.exitCode();
		McpSyncClient client = clientOf(context[0]);
		SyncMcpToolCallbackProvider provider = context[0].getBean(SyncMcpToolCallbackProvider.class);
		List<ProcessHandle> servers = ProcessHandle.current().children().toList();
		checks.check("tool callbacks (SyncMcpToolCallbackProvider) list the tools", () -> {
			List<String> names = Arrays.stream(provider.getToolCallbacks()).map(c -> c.getToolDefinition().name()).toList();
			expect(names.containsAll(List.of("echo", "add", "get_time", "countdown")), "tools " + names);
			return String.join(", ", names);
		});
		checks.check("call add through its ToolCallback (good)", () -> {
			String said = callback(provider, "add").call("{\"a\":3,\"b\":4}");
			expect(said.contains("\"sum\":7") || said.contains("\\\"sum\\\":7"), "said " + said);
			return said;
		});
		checks.check("call add through its ToolCallback (bad: a is a string)", () -> {
			try {
				String said = callback(provider, "add").call("{\"a\":\"x\",\"b\":1}");
				throw new AssertionError("no failure: " + said);
			}
			catch (RuntimeException error) {
				String message = String.valueOf(error.getMessage());
				expect(message.contains("invalid arguments"), error.getClass().getSimpleName() + ": " + message);
				return error.getClass().getSimpleName() + ": " + message;
			}
		});
		checks.check("call echo through its ToolCallback (good)", () -> {
			String said = callback(provider, "echo").call("{\"text\":\"hi\"}");
			expect(said.contains("echo: hi"), "said " + said);
			return said;
		});
		DemoChecks.notesPromptsPing(checks, client, false);
		checks.check("close: the context closes its clients" + (servers.isEmpty() ? "" : " and the server process ends"), () -> {
			context[0].close();
			for (ProcessHandle server : servers) {
				server.onExit().get(10, TimeUnit.SECONDS);
			}
			return servers.isEmpty() ? "closed" : "server process ended";
		});
		return checks.exitCode();
	}

	/** A server that answers a version the SDK lacks: the starter's initialization fails, and with it the startup. */
	private static int expectRefusal(String[] args) {
		Checks checks = new Checks();
		checks.check("initialize (at startup): refused, the server answers a version the SDK lacks", () -> {
			try {
				SpringApplication app = new SpringApplication(SpringClientApp.class);
				app.setWebApplicationType(WebApplicationType.NONE);
				List<String> all = new ArrayList<>(List.of("--spring.main.banner-mode=off", "--spring.ai.mcp.server.enabled=false"));
				all.addAll(Arrays.asList(args));
				app.run(all.toArray(String[]::new)).close();
			}
			catch (RuntimeException error) {
				Throwable root = error;
				while (root.getCause() != null) root = root.getCause();
				String message = String.valueOf(root.getMessage());
				expect(message.contains("Unsupported protocol version"), root.getClass().getSimpleName() + ": " + message);
				return "startup failed: " + message;
			}
			throw new AssertionError("started");
		});
		return checks.exitCode();
	}

	private static McpSyncClient clientOf(ConfigurableApplicationContext context) {
		@SuppressWarnings("unchecked")
		List<McpSyncClient> clients = (List<McpSyncClient>) context.getBean("mcpSyncClients", List.class);
		expect(clients.size() == 1, clients.size() + " clients");
		return clients.get(0);
	}

	private static ToolCallback callback(SyncMcpToolCallbackProvider provider, String name) {
		return Arrays.stream(provider.getToolCallbacks()).filter(c -> c.getToolDefinition().name().endsWith(name))
				.findFirst().orElseThrow(() -> new AssertionError("no callback for " + name));
	}
}
