// The request id, the one thing every other file of jsonrpc/ needs: the codec (messages.ts), the
// framing and what the edges of an unreadable message show (sniff.ts). At the bottom of jsonrpc/,
// importing nothing. Spec: https://www.jsonrpc.org/specification#request_object and
// https://modelcontextprotocol.io/specification/2025-11-25/basic#requests

/**
 * A request id: a string or an integer, chosen by the sender. MCP forbids `null` and forbids reusing
 * an id within a session. Ids are compared with their type: `1` and `"1"` are different requests.
 */
export type RequestId = string | number;
