package peers.spring.server;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * The Spring AI MCP server peer. Its transport is chosen as a Spring AI user chooses it, by
 * properties: stdio (spring.ai.mcp.server.stdio=true, no web server, as the chapter's host starts it
 * with `java -jar`), or over HTTP with spring.ai.mcp.server.protocol=SSE (the old HTTP+SSE
 * transport) or STREAMABLE. The suite passes them as --name=value arguments.
 */
@SpringBootApplication
public class PeerServerApp {
	public static void main(String[] args) {
		List<String> all = new ArrayList<>(List.of(
				"--spring.main.banner-mode=off",
				"--spring.ai.mcp.client.enabled=false",
				"--spring.ai.mcp.server.name=spring-ai-peer",
				"--spring.ai.mcp.server.version=1.0.0",
				"--spring.ai.mcp.server.type=SYNC",
				// The client starter is on this jar's class path too (for spring-client); its
				// tool-callback auto-configuration must stay out of the server.
				"--spring.ai.mcp.client.toolcallback.enabled=false"));
		all.addAll(Arrays.asList(args));
		SpringApplication.run(PeerServerApp.class, all.toArray(String[]::new));
	}
}
