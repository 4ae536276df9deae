package peers.spring;

import static peers.spring.Checks.expect;

import java.util.List;
import java.util.Map;

import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;

/** The checks both Java clients make the same way, through an McpSyncClient: notes, prompts, ping. */
public final class DemoChecks {
	private DemoChecks() {
	}

	/** textbook: the server is our textbook edition, with one prompt and error messages in its own words. */
	public static void notesPromptsPing(Checks checks, McpSyncClient client, boolean textbook) {
		checks.check("resources/read the protocol notes", () -> {
			McpSchema.ReadResourceResult result = client.readResource(new McpSchema.ReadResourceRequest("docs://demo/protocol-notes"));
			McpSchema.TextResourceContents notes = (McpSchema.TextResourceContents) result.contents().get(0);
			expect("text/markdown".equals(notes.mimeType()), "mimeType " + notes.mimeType());
			expect(notes.text().contains("MCP"), "no MCP in the notes");
			return notes.text().length() + " characters of text/markdown";
		});
		if (textbook) {
			// The textbook's one prompt, review_message (src/textbook/demo.ts), and its own error words.
			checks.check("prompts/list and prompts/get review_message", () -> {
				List<String> names = client.listPrompts().prompts().stream().map(McpSchema.Prompt::name).toList();
				expect(names.equals(List.of("review_message")), "prompts " + names);
				String ping = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}";
				McpSchema.GetPromptResult prompt = client.getPrompt(new McpSchema.GetPromptRequest("review_message", Map.of("message", ping)));
				expect("Review one MCP message".equals(prompt.description()), "description " + prompt.description());
				expect(prompt.messages().size() == 1, prompt.messages().size() + " messages");
				String text = ((McpSchema.TextContent) prompt.messages().get(0).content()).text();
				expect(text.startsWith("Here is an MCP message sent under protocol version 2025-11-25:\n" + ping + "\n"), "text " + text);
				return "review_message gave " + prompt.messages().size() + " message";
			});
			checks.check("prompts/get review_message without message: -32602", () -> {
				try {
					client.getPrompt(new McpSchema.GetPromptRequest("review_message", Map.of()));
				}
				catch (McpError error) {
					expect(error.getJsonRpcError().code() == -32602, "code " + error.getJsonRpcError().code());
					String said = "prompts/get: \"message\" must be of type string, got undefined";
					expect(said.equals(error.getJsonRpcError().message()), "message " + error.getJsonRpcError().message());
					return "-32602 " + said;
				}
				throw new AssertionError("no error");
			});
		}
		else {
			checks.check("prompts/list and prompts/get explain_topic", () -> {
				List<String> names = client.listPrompts().prompts().stream().map(McpSchema.Prompt::name).toList();
				expect(names.equals(List.of("explain_topic", "review_message")), "prompts " + names);
				McpSchema.GetPromptResult prompt = client.getPrompt(new McpSchema.GetPromptRequest("explain_topic", Map.of("topic", "lifecycle")));
				expect(!prompt.messages().isEmpty(), "no messages");
				return prompt.messages().size() + " message(s)";
			});
		}
		checks.check("ping", () -> {
			client.ping();
			return "answered";
		});
	}
}
