package peers.spring;

import static peers.spring.Checks.expect;

import java.util.List;
import java.util.Map;

import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;

/** The checks both Java clients make the same way, through an McpSyncClient: notes, prompts, ping. */
public final class DemoChecks {
	private DemoChecks() {
	}

	public static void notesPromptsPing(Checks checks, McpSyncClient client) {
		checks.check("resources/read the protocol notes", () -> {
			McpSchema.ReadResourceResult result = client.readResource(new McpSchema.ReadResourceRequest("docs://demo/protocol-notes"));
			McpSchema.TextResourceContents notes = (McpSchema.TextResourceContents) result.contents().get(0);
			expect("text/markdown".equals(notes.mimeType()), "mimeType " + notes.mimeType());
			expect(notes.text().contains("MCP"), "no MCP in the notes");
			return notes.text().length() + " characters of text/markdown";
		});
		checks.check("prompts/list and prompts/get explain_topic", () -> {
			List<String> names = client.listPrompts().prompts().stream().map(McpSchema.Prompt::name).toList();
			expect(names.contains("explain_topic"), "prompts " + names);
			McpSchema.GetPromptResult prompt = client.getPrompt(new McpSchema.GetPromptRequest("explain_topic", Map.of("topic", "lifecycle")));
			expect(!prompt.messages().isEmpty(), "no messages");
			return prompt.messages().size() + " message(s)";
		});
		checks.check("ping", () -> {
			client.ping();
			return "answered";
		});
	}
}
