package peers.spring.server;

import java.util.List;
import java.util.Map;

import org.springframework.ai.tool.ToolCallbackProvider;
import org.springframework.ai.tool.method.MethodToolCallbackProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.modelcontextprotocol.server.McpServerFeatures.SyncPromptSpecification;
import io.modelcontextprotocol.server.McpServerFeatures.SyncResourceSpecification;
import io.modelcontextprotocol.spec.McpSchema;

/** The @Tool methods, a resource and a prompt, registered in configuration as the chapter does. */
@Configuration
public class PeerFeatures {
	static final String NOTES_URI = "docs://peer/notes";

	@Bean
	public ToolCallbackProvider peerTools() {
		return MethodToolCallbackProvider.builder().toolObjects(new PeerTools()).build();
	}

	@Bean
	public List<SyncResourceSpecification> peerResources() {
		McpSchema.Resource notes = McpSchema.Resource.builder().uri(NOTES_URI).name("notes")
				.description("A short text the Spring AI peer serves.").mimeType("text/plain").build();
		return List.of(new SyncResourceSpecification(notes, (exchange, request) -> new McpSchema.ReadResourceResult(
				List.of(new McpSchema.TextResourceContents(request.uri(), "text/plain", "Notes from the Spring AI peer.")))));
	}

	@Bean
	public List<SyncPromptSpecification> peerPrompts() {
		McpSchema.Prompt greeting = new McpSchema.Prompt("greeting", "Greets someone by name.",
				List.of(new McpSchema.PromptArgument("name", "Who to greet", true)));
		return List.of(new SyncPromptSpecification(greeting, (exchange, request) -> {
			Map<String, Object> arguments = request.arguments() == null ? Map.of() : request.arguments();
			String text = "Say hello to " + arguments.getOrDefault("name", "nobody") + ".";
			return new McpSchema.GetPromptResult("A greeting",
					List.of(new McpSchema.PromptMessage(McpSchema.Role.USER, new McpSchema.TextContent(text))));
		}));
	}
}
