package peers.spring.sdkclient;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.function.Function;

import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import reactor.core.publisher.Mono;

/**
 * A transport of the SDK's, passed through unchanged, that lets the checks see the wire: which id
 * each outgoing request got (the SDK 0.17 has no way to cancel a request, so the cancellation check
 * sends notifications/cancelled for that id itself) and which responses came back. It also fixes
 * the protocol versions the client offers (the SDK asks the transport for them), to initialize with
 * each version the SDK knows.
 */
final class TappedTransport implements McpClientTransport {
	private final McpClientTransport inner;
	private final List<String> versions;
	final Map<String, Object> lastIdByMethod = new ConcurrentHashMap<>();
	final List<Object> responseIds = new CopyOnWriteArrayList<>();
	/** The progress values of notifications/progress in the order they came off the wire. */
	final List<Object> wireProgress = new CopyOnWriteArrayList<>();
	/** Their progress tokens, in the same order. */
	final List<Object> wireProgressTokens = new CopyOnWriteArrayList<>();
	/** The protocolVersion of the server's initialize result, seen even when the SDK then refuses it. */
	volatile Object answeredVersion;

	TappedTransport(McpClientTransport inner, List<String> versions) {
		this.inner = inner;
		this.versions = versions;
	}

	@Override
	public Mono<Void> connect(Function<Mono<McpSchema.JSONRPCMessage>, Mono<McpSchema.JSONRPCMessage>> handler) {
		return inner.connect(incoming -> handler.apply(incoming.doOnNext(message -> {
			if (message instanceof McpSchema.JSONRPCNotification notification && "notifications/progress".equals(notification.method())
					&& notification.params() instanceof Map<?, ?> params) {
				wireProgress.add(params.get("progress"));
				wireProgressTokens.add(params.get("progressToken"));
			}
			if (message instanceof McpSchema.JSONRPCResponse response) {
				responseIds.add(response.id());
				if (response.result() instanceof Map<?, ?> result && result.containsKey("serverInfo")) answeredVersion = result.get("protocolVersion");
			}
		})));
	}

	@Override
	public Mono<Void> sendMessage(McpSchema.JSONRPCMessage message) {
		if (message instanceof McpSchema.JSONRPCRequest request) lastIdByMethod.put(request.method(), request.id());
		return inner.sendMessage(message);
	}

	@Override
	public Mono<Void> closeGracefully() {
		return inner.closeGracefully();
	}

	@Override
	public void close() {
		inner.close();
	}

	@Override
	public <T> T unmarshalFrom(Object data, TypeRef<T> type) {
		return inner.unmarshalFrom(data, type);
	}

	@Override
	public List<String> protocolVersions() {
		return versions == null ? inner.protocolVersions() : versions;
	}

	@Override
	public void setExceptionHandler(Consumer<Throwable> handler) {
		inner.setExceptionHandler(handler);
	}
}
