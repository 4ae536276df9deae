// The server the official conformance suite (@modelcontextprotocol/conformance 0.1.16) tests:
// every tool, resource and prompt its server scenarios call, with their exact names, arguments
// and behaviour, served over Streamable HTTP at http://127.0.0.1:<port>/mcp by mcp-wire itself.
// What each scenario sends and checks: modelcontextprotocol/conformance v0.1.16, src/scenarios.
// Run: `npx tsx scripts/conformance-server.ts --port N [--adapter node|web]` (0 or no --port: any
// free port; the URL goes to stderr). --adapter picks how node:http reaches the handlers: node's own
// path (the default) or the web-standard Request/Response one; scripts/conformance.ts runs both.
// CONFORMANCE_DEBUG=1 logs each HTTP exchange (headers, request body, JSON answers) on stderr; it
// reads them as web Requests, so it serves through the web adapter whatever --adapter says.

import { realpathSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { listen, type FetchHandler } from "../src/http/node.js";
import { McpHttpServer } from "../src/http/server.js";
import type { ContentBlock } from "../src/mcp/content.js";
import { McpServer, text } from "../src/server/definition.js";

/** A real 1x1 PNG (one opaque red pixel, RGBA), as the reference server sends. */
export const PNG_BASE64 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

/** A real WAV file: PCM, mono, 8 kHz, 8-bit, eight samples of silence (a 44-byte header and the samples). */
export function silentWav(samples = 8): string {
  const header = Buffer.alloc(44);
  header.write("RIFF", 0, "ascii");
  header.writeUInt32LE(36 + samples, 4);
  header.write("WAVEfmt ", 8, "ascii");
  header.writeUInt32LE(16, 16); // fmt chunk size
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(8000, 24); // sample rate
  header.writeUInt32LE(8000, 28); // byte rate
  header.writeUInt16LE(1, 32); // block align
  header.writeUInt16LE(8, 34); // bits per sample
  header.write("data", 36, "ascii");
  header.writeUInt32LE(samples, 40);
  // 8-bit PCM is unsigned: 128 is silence.
  return Buffer.concat([header, Buffer.alloc(samples, 128)]).toString("base64");
}

const NO_ARGUMENTS = { type: "object" as const, properties: {} };
const image = (): ContentBlock => ({ type: "image", data: PNG_BASE64, mimeType: "image/png" });
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function createConformanceServer(): McpServer {
  const server = new McpServer({ name: "mcp-conformance-test-server", version: "1.0.0" });

  server
    .tool({ name: "test_simple_text", description: "Returns a simple text response.", inputSchema: NO_ARGUMENTS }, () => ({
      content: [text("This is a simple text response for testing.")],
    }))
    .tool({ name: "test_image_content", description: "Returns a 1x1 PNG image.", inputSchema: NO_ARGUMENTS }, () => ({ content: [image()] }))
    .tool({ name: "test_audio_content", description: "Returns a tiny WAV audio clip.", inputSchema: NO_ARGUMENTS }, () => ({
      content: [{ type: "audio", data: silentWav(), mimeType: "audio/wav" }],
    }))
    .tool({ name: "test_embedded_resource", description: "Returns an embedded text resource.", inputSchema: NO_ARGUMENTS }, () => ({
      content: [{ type: "resource", resource: { uri: "test://embedded-resource", mimeType: "text/plain", text: "This is an embedded resource content." } }],
    }))
    .tool({ name: "test_multiple_content_types", description: "Returns text, an image and an embedded resource.", inputSchema: NO_ARGUMENTS }, () => ({
      content: [
        text("Multiple content types test:"),
        image(),
        { type: "resource", resource: { uri: "test://mixed-content-resource", mimeType: "application/json", text: JSON.stringify({ test: "data", value: 123 }) } },
      ],
    }))
    .tool({ name: "test_tool_with_logging", description: "Sends three info log messages, 50 ms apart, while it runs.", inputSchema: NO_ARGUMENTS }, async (_args, context) => {
      await context.log("info", "Tool execution started");
      await sleep(50);
      await context.log("info", "Tool processing data");
      await sleep(50);
      await context.log("info", "Tool execution completed");
      return { content: [text("Tool with logging executed successfully")] };
    })
    .tool({ name: "test_tool_with_progress", description: "Reports progress 0, 50 and 100 of 100, 50 ms apart.", inputSchema: NO_ARGUMENTS }, async (_args, context) => {
      for (const done of [0, 50, 100]) {
        await context.progress(done, 100, `Completed step ${done / 50 + 1} of 3`);
        if (done < 100) await sleep(50);
      }
      return { content: [text("Tool with progress executed successfully")] };
    })
    .tool({ name: "test_error_handling", description: "Always fails, with an isError result.", inputSchema: NO_ARGUMENTS }, () => ({
      isError: true,
      content: [text("This tool intentionally returns an error for testing")],
    }))
    .tool(
      {
        name: "test_sampling",
        description: "Asks the client's model to answer a prompt (sampling/createMessage) and returns its reply.",
        inputSchema: { type: "object", properties: { prompt: { type: "string", description: "The prompt for the model." } }, required: ["prompt"] },
      },
      async (args, context) => {
        const result = await context.sample({ messages: [{ role: "user", content: { type: "text", text: String(args.prompt) } }], maxTokens: 100 });
        const reply = !Array.isArray(result.content) && result.content.type === "text" ? result.content.text : JSON.stringify(result.content);
        return { content: [text(`LLM response: ${reply}`)] };
      },
    )
    .tool(
      {
        name: "test_elicitation",
        description: "Asks the user for a username and an email (elicitation/create) and returns the answer.",
        inputSchema: { type: "object", properties: { message: { type: "string", description: "The message shown to the user." } }, required: ["message"] },
      },
      async (args, context) => {
        const result = await context.elicit({
          message: String(args.message),
          requestedSchema: {
            type: "object",
            properties: { username: { type: "string", description: "Your username" }, email: { type: "string", format: "email", description: "Your email address" } },
            required: ["username", "email"],
          },
        });
        return { content: [text(`User response: action=${result.action}, content=${JSON.stringify(result.content ?? {})}`)] };
      },
    )
    .tool({ name: "test_elicitation_sep1034_defaults", description: "Elicits a form whose fields all have defaults (SEP-1034).", inputSchema: NO_ARGUMENTS }, async (_args, context) => {
      const result = await context.elicit({
        message: "Please review and update the form fields with defaults",
        requestedSchema: {
          type: "object",
          properties: {
            name: { type: "string", description: "User name", default: "John Doe" },
            age: { type: "integer", description: "User age", default: 30 },
            score: { type: "number", description: "User score", default: 95.5 },
            status: { type: "string", description: "User status", enum: ["active", "inactive", "pending"], default: "active" },
            verified: { type: "boolean", description: "Verification status", default: true },
          },
        },
      });
      return { content: [text(`Elicitation completed: action=${result.action}, content=${JSON.stringify(result.content ?? {})}`)] };
    })
    .tool({ name: "test_elicitation_sep1330_enums", description: "Elicits a form with every kind of enum field (SEP-1330).", inputSchema: NO_ARGUMENTS }, async (_args, context) => {
      const result = await context.elicit({
        message: "Please select options from the enum fields",
        requestedSchema: {
          type: "object",
          properties: {
            untitledSingle: { type: "string", description: "Select one option", enum: ["option1", "option2", "option3"] },
            titledSingle: {
              type: "string",
              description: "Select one option with titles",
              oneOf: [{ const: "value1", title: "First Option" }, { const: "value2", title: "Second Option" }, { const: "value3", title: "Third Option" }],
            },
            legacyEnum: { type: "string", description: "Select one option (legacy)", enum: ["opt1", "opt2", "opt3"], enumNames: ["Option One", "Option Two", "Option Three"] },
            untitledMulti: { type: "array", description: "Select multiple options", items: { type: "string", enum: ["option1", "option2", "option3"] } },
            titledMulti: {
              type: "array",
              description: "Select multiple options with titles",
              items: { anyOf: [{ const: "value1", title: "First Choice" }, { const: "value2", title: "Second Choice" }, { const: "value3", title: "Third Choice" }] },
            },
          },
        },
      });
      return { content: [text(`Elicitation completed: action=${result.action}, content=${JSON.stringify(result.content ?? {})}`)] };
    })
    .tool({ name: "test_reconnection", description: "Closes its SSE connection, waits 100 ms and answers, which the client gets by resuming (the SSE polling scenario's tool).", inputSchema: NO_ARGUMENTS }, async (_args, context) => {
      // SSE polling (2025-11-25): the answer goes out while no connection carries the stream; the
      // suite resumes with GET and Last-Event-ID and must find it there.
      context.closeStream();
      await sleep(100);
      return { content: [text("Reconnection test completed successfully.")] };
    })
    .tool(
      {
        name: "json_schema_2020_12_tool",
        description: "Takes arguments described by a JSON Schema 2020-12 schema with $defs and additionalProperties: false.",
        inputSchema: {
          $schema: "https://json-schema.org/draft/2020-12/schema",
          type: "object",
          $defs: { address: { type: "object", properties: { street: { type: "string" }, city: { type: "string" } } } },
          properties: { name: { type: "string" }, address: { $ref: "#/$defs/address" } },
          additionalProperties: false,
        },
      },
      (args) => ({ content: [text(`Received: ${JSON.stringify(args)}`)] }),
    );

  server
    .resource({ uri: "test://static-text", name: "static-text", description: "A static text resource.", mimeType: "text/plain" }, (uri) => [
      { uri, mimeType: "text/plain", text: "This is the content of the static text resource." },
    ])
    .resource({ uri: "test://static-binary", name: "static-binary", description: "A static binary resource (a 1x1 PNG).", mimeType: "image/png" }, (uri) => [
      { uri, mimeType: "image/png", blob: PNG_BASE64 },
    ])
    .resource({ uri: "test://watched-resource", name: "watched-resource", description: "A resource to subscribe to.", mimeType: "text/plain" }, (uri) => [
      { uri, mimeType: "text/plain", text: "Watched resource content" },
    ])
    .resourceTemplate(
      { uriTemplate: "test://template/{id}/data", name: "template", description: "Data for any id.", mimeType: "application/json" },
      (uri, variables) => [{ uri, mimeType: "application/json", text: JSON.stringify({ id: variables.id, templateTest: true, data: `Data for ID: ${variables.id}` }) }],
    );

  server
    .prompt({ name: "test_simple_prompt", description: "A simple prompt without arguments." }, () => ({
      messages: [{ role: "user", content: text("This is a simple prompt for testing.") }],
    }))
    .prompt(
      {
        name: "test_prompt_with_arguments",
        description: "A prompt with two required arguments.",
        arguments: [{ name: "arg1", description: "First test argument", required: true }, { name: "arg2", description: "Second test argument", required: true }],
      },
      (args) => ({ messages: [{ role: "user", content: text(`Prompt with arguments: arg1='${args.arg1}', arg2='${args.arg2}'`) }] }),
      {
        arg1: (value) => ["paris", "park", "party"].filter((v) => v.startsWith(value)),
        arg2: (value) => ["red", "green", "blue"].filter((v) => v.startsWith(value)),
      },
    )
    .prompt(
      {
        name: "test_prompt_with_embedded_resource",
        description: "A prompt that embeds the resource it is given.",
        arguments: [{ name: "resourceUri", description: "URI of the resource to embed", required: true }],
      },
      (args) => ({
        messages: [
          { role: "user", content: { type: "resource", resource: { uri: args.resourceUri!, mimeType: "text/plain", text: "Embedded resource content for testing." } } },
          { role: "user", content: text("Please process the embedded resource above.") },
        ],
      }),
    )
    .prompt({ name: "test_prompt_with_image", description: "A prompt with an image." }, () => ({
      messages: [
        { role: "user", content: image() },
        { role: "user", content: text("Please analyze the image above.") },
      ],
    }));
  return server;
}

/** The MCP-relevant part of an HTTP exchange, one line each way, for CONFORMANCE_DEBUG. */
function logged(handle: FetchHandler): FetchHandler {
  const HEADERS = ["host", "origin", "accept", "content-type", "mcp-session-id", "mcp-protocol-version", "last-event-id"];
  const show = (headers: Headers, names: string[]) => names.filter((n) => headers.has(n)).map((n) => `${n}: ${headers.get(n)}`).join("; ");
  return async (request) => {
    const body = request.method === "POST" ? await request.clone().text() : "";
    process.stderr.write(`--> ${request.method} ${show(request.headers, HEADERS)}${body ? `\n    ${body}` : ""}\n`);
    const response = await handle(request);
    // An SSE body is a live stream; only JSON and error bodies are read here.
    const answer = response.headers.get("content-type")?.startsWith("text/event-stream") ? "(event stream)" : await response.clone().text();
    process.stderr.write(`<-- ${response.status} ${show(response.headers, ["content-type", "mcp-session-id"])}${answer ? `\n    ${answer}` : ""}\n`);
    return response;
  };
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { port: { type: "string", default: "0" }, adapter: { type: "string", default: "node" } } });
  const adapter = values.adapter;
  if (adapter !== "node" && adapter !== "web") throw new Error(`conformance-server: --adapter must be node or web, got ${adapter}`);
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`conformance-server: --port must be 0-65535, got ${values.port}`);
  const debug = process.env.CONFORMANCE_DEBUG === "1";
  // The default Host and Origin checks accept the loopback names on any port, so both
  // 127.0.0.1:N and localhost:N (what the DNS rebinding scenario sends) get through.
  const http = new McpHttpServer(createConformanceServer(), {
    onProblem: debug ? (message) => process.stderr.write(`conformance-server: ${message}\n`) : undefined,
  });
  const listening = debug ? await listen(logged(http.handle), { port, host: "127.0.0.1" }) : await http.listen({ port, host: "127.0.0.1", adapter });
  process.stderr.write(`conformance-server: listening on ${listening.origin}/mcp\n`);
  const stop = () => void http.close().then(() => listening.close()).finally(() => process.exit(0));
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

if (process.argv[1] && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}
