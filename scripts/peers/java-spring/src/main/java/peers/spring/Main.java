package peers.spring;

import java.util.Arrays;

import peers.spring.sdkclient.SdkClientChecks;
import peers.spring.server.PeerServerApp;
import peers.spring.springclient.SpringClientApp;

/**
 * One jar, three peers, chosen by the first argument: "server" (a Spring AI MCP server, its
 * transport set by Spring properties), "sdk-client" (the MCP Java SDK client, as the Spring AI
 * chapter wires it) and "spring-client" (spring-ai-starter-mcp-client, configured by properties).
 * One jar keeps the Maven build to one module on a small machine.
 */
public final class Main {
	public static void main(String[] args) throws Exception {
		if (args.length == 0) {
			System.err.println("usage: java -jar java-spring-peer.jar server|sdk-client|spring-client [arguments]");
			System.exit(2);
		}
		String[] rest = Arrays.copyOfRange(args, 1, args.length);
		switch (args[0]) {
			case "server" -> PeerServerApp.main(rest);
			case "sdk-client" -> System.exit(SdkClientChecks.run(rest));
			case "spring-client" -> System.exit(SpringClientApp.run(rest));
			default -> {
				System.err.println("unknown peer: " + args[0]);
				System.exit(2);
			}
		}
	}
}
