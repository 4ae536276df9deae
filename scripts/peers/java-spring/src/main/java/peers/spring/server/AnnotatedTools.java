package peers.spring.server;

import org.springaicommunity.mcp.annotation.McpProgressToken;
import org.springaicommunity.mcp.annotation.McpTool;
import org.springaicommunity.mcp.annotation.McpToolParam;
import org.springframework.stereotype.Component;

import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.spec.McpSchema;

/**
 * The Spring AI 1.1 annotations (spring-ai-mcp-annotations): the one tool here with an output schema
 * (generateOutputSchema), and the one that reports progress (the call's progress token and the
 * exchange are injected).
 */
@Component
public class AnnotatedTools {
	public record Product(double product) {
	}

	@McpTool(name = "multiply", description = "Multiplies a by b; the result is structured content { product }.", generateOutputSchema = true)
	public Product multiply(@McpToolParam(description = "The first factor", required = true) double a,
			@McpToolParam(description = "The second factor", required = true) double b) {
		return new Product(a * b);
	}

	/**
	 * The token is declared Object: a progress token is a string or a number (basic/utilities/progress),
	 * and the annotations pass it through as it came, so a String parameter fails on a numeric one.
	 */
	@McpTool(name = "countdown", description = "Counts down from steps to zero, reporting progress on each step.")
	public String countdown(McpSyncServerExchange exchange, @McpProgressToken Object progressToken,
			@McpToolParam(description = "How many steps", required = true) int steps) throws InterruptedException {
		for (int done = 1; done <= steps; done++) {
			Thread.sleep(20);
			if (progressToken != null) {
				exchange.progressNotification(new McpSchema.ProgressNotification(progressToken, (double) done, (double) steps, "step " + done));
			}
		}
		return "countdown: done after " + steps + " steps";
	}
}
