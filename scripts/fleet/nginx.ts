// The balancer of `npm run fleet`: Debian's nginx, its configuration generated into a temp dir,
// loopback only. A request whose Mcp-Session-Id names an instance (`<instance>.<random>`, session
// ids of a handshake-era session) goes to that instance, and to another only if it is down (which
// answers 404: the client opens a new session there); everything else, 2026-07-28 requests and
// initialize among them, goes round-robin. One more port per fleet size k serves round-robin over
// the first k instances only, for the calls/s through 1, 2 and 3 processes.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#session-management

import { spawn, type ChildProcess } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";

export interface Upstream {
  name: string;
  port: number;
}

/** The configuration: `port` routes as above; `sizedPorts[k - 1]` round-robins over the first k instances. */
export function nginxConfig(dir: string, port: number, sizedPorts: number[], upstreams: Upstream[]): string {
  const server = (u: Upstream) => `127.0.0.1:${u.port}`;
  // Each instance's pool: the instance, then the others as backups (used only while it is down).
  const pools = upstreams.map((u) => `  upstream pool_${u.name} {\n    server ${server(u)} max_fails=1 fail_timeout=2s;\n${upstreams.filter((o) => o !== u).map((o) => `    server ${server(o)} backup;\n`).join("")}    keepalive 16;\n  }`);
  const sized = sizedPorts.map((_, k) => `  upstream first_${k + 1} {\n${upstreams.slice(0, k + 1).map((u) => `    server ${server(u)};\n`).join("")}    keepalive 32;\n  }`);
  const proxy = (to: string) => `      proxy_pass http://${to};
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
      # SSE: every event goes out as it comes; a listen or GET stream may stay open long.
      proxy_buffering off;
      proxy_request_buffering off;
      proxy_read_timeout 1h;
      add_header X-Fleet-Upstream $upstream_addr always;`;
  return `worker_processes 1;
daemon off;
pid ${join(dir, "nginx.pid")};
error_log ${join(dir, "error.log")} warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${join(dir, "body")};
  proxy_temp_path ${join(dir, "proxy")};
  fastcgi_temp_path ${join(dir, "fastcgi")};
  uwsgi_temp_path ${join(dir, "uwsgi")};
  scgi_temp_path ${join(dir, "scgi")};
  # The instance a session id names, else round-robin (pool_all).
  map $http_mcp_session_id $fleet_pool {
${upstreams.map((u) => `    ~^${u.name}\\. pool_${u.name};`).join("\n")}
    default pool_all;
  }
${pools.join("\n")}
  upstream pool_all {
${upstreams.map((u) => `    server ${server(u)} max_fails=1 fail_timeout=2s;\n`).join("")}    keepalive 32;
  }
${sized.join("\n")}
  server {
    listen 127.0.0.1:${port};
    location / {
${proxy("$fleet_pool")}
    }
  }
${sizedPorts.map((p, k) => `  server {\n    listen 127.0.0.1:${p};\n    location / {\n${proxy(`first_${k + 1}`)}\n    }\n  }`).join("\n")}
}
`;
}

export function startNginx(dir: string, config: string): ChildProcess {
  const file = join(dir, "nginx.conf");
  writeFileSync(file, config);
  return spawn("nginx", ["-p", dir, "-c", file], { stdio: ["ignore", "ignore", "pipe"] });
}
