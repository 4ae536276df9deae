package peers.spring.server;

import org.springframework.ai.tool.annotation.Tool;
import org.springframework.ai.tool.annotation.ToolParam;

/** The chapter's way to write tools: @Tool methods, exposed through a ToolCallbackProvider bean. */
public class PeerTools {
	@Tool(name = "add", description = "Adds a and b.")
	public double add(@ToolParam(description = "The first addend") double a, @ToolParam(description = "The second addend") double b) {
		return a + b;
	}

	@Tool(name = "echo", description = "Repeats the given text, prefixed with 'echo: '.")
	public String echo(@ToolParam(description = "The text to repeat") String text) {
		return "echo: " + text;
	}
}
