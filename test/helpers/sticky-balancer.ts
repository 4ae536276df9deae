// A load balancer for the fleet tests, routing as scripts/fleet's nginx configuration does: a
// request whose MCP-Session-Id names an instance (`<instance>.<random>`) goes to that instance if it
// is up, everything else round-robin over the instances that are up. Loopback only; bodies are
// streamed through both ways (SSE included).
import { createServer, request as forward, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface Backend {
  name: string;
  /** e.g. http://127.0.0.1:40123 */
  origin: string;
  up: boolean;
}

export interface Balancer {
  url: string;
  close(): Promise<void>;
}

export async function stickyBalancer(backends: Backend[]): Promise<Balancer> {
  let turn = 0;
  const pick = (incoming: IncomingMessage): Backend | undefined => {
    const live = backends.filter((backend) => backend.up);
    const named = String(incoming.headers["mcp-session-id"] ?? "").split(".")[0];
    return live.find((backend) => backend.name === named) ?? live[turn++ % Math.max(1, live.length)];
  };
  const server: Server = createServer((incoming, outgoing) => {
    const backend = pick(incoming);
    if (!backend) return void outgoing.writeHead(502).end();
    const target = new URL(incoming.url ?? "/", backend.origin);
    const upstream = forward(target, { method: incoming.method, headers: { ...incoming.headers, host: target.host } }, (answer) => {
      outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(outgoing);
    });
    upstream.on("error", () => outgoing.headersSent ? outgoing.destroy() : outgoing.writeHead(502).end());
    outgoing.on("close", () => upstream.destroy());
    incoming.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
