// The page of `mcp-wire inspect`: it hears the session from the inspector's event stream (events)
// and asks for actions with POST api. Hand-written, no framework. Every string a server sent is
// put on the page with textContent, never as markup: a server's tool description, result or
// message can show text and nothing else. What the page keeps is bounded (MAX_SHOWN messages).
"use strict";

const MAX_SHOWN = 1000;
const LEVELS = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"];
const $ = (id) => document.getElementById(id);
let shownCount = 0;
let callSeq = 0;
// A stream opened again (EventSource does, after a break) starts with the latest events: those seen are skipped.
let lastSeq = 0;
let lastQuestion = 0;

/** An element with text (never markup) and attributes. */
function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (name === "text") node.textContent = value;
    else if (name === "className") node.className = value;
    else node.setAttribute(name, value);
  }
  for (const child of children) if (child) node.append(child);
  return node;
}

async function act(body) {
  const response = await fetch("api", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  if (!response.ok) return { ok: false, error: `${response.status}: ${await response.text()}` };
  return response.json();
}

function showResult(target, answer) {
  target.className = "result" + (!answer.ok ? " failed" : answer.result && answer.result.isError === true ? " is-error" : "");
  target.textContent = answer.ok ? JSON.stringify(answer.result, null, 2) : `error${answer.code === undefined ? "" : ` ${answer.code}`}: ${answer.error}`;
}

// ---- The wire: each message as it passes, and the diagram.

function showMessage(m) {
  const arrow = m.dir === "c2s" ? "→ server" : "← server";
  const classes = ["msg", m.dir, m.kind];
  if (m.isError) classes.push("is-error");
  const raw = el("details", {}, el("summary", { text: m.truncated ? `raw JSON (${m.size} bytes, first ${m.text.length} characters shown)` : `raw JSON (${m.size} bytes)` }));
  // The JSON is pretty-printed only when it is whole; a cut one is shown as it came.
  let pretty = m.text;
  if (!m.truncated) try { pretty = JSON.stringify(JSON.parse(m.text), null, 2); } catch { /* not JSON: shown as it is */ }
  raw.append(el("pre", { text: pretty }));
  const row = el("div", { className: classes.join(" "), "data-seq": String(m.seq) },
    el("div", { className: "head" },
      el("span", { className: "dir", text: arrow }),
      el("span", { className: "label", text: m.label }),
      el("span", { className: "era", text: m.era }),
      el("span", { className: "time", text: `+${m.at.toFixed(0)} ms` })),
    el("div", { className: "note", text: m.note }),
    raw);
  appendRow(row);
  scheduleDiagram();
}

function appendRow(row) {
  const list = $("messages");
  const atBottom = list.scrollTop + list.clientHeight >= list.scrollHeight - 8;
  list.append(row);
  shownCount++;
  while (list.childElementCount > MAX_SHOWN) list.firstElementChild.remove();
  $("counts").textContent = `(${shownCount} events${shownCount > MAX_SHOWN ? `, the latest ${MAX_SHOWN} shown` : ""})`;
  if (atBottom) list.scrollTop = list.scrollHeight;
}

let diagramTimer;
function scheduleDiagram() {
  if (diagramTimer !== undefined) return;
  diagramTimer = setTimeout(() => {
    diagramTimer = undefined;
    // An image, not markup: the SVG cannot run anything in the page.
    $("diagram").src = `diagram.svg?at=${Date.now()}`;
    // The newest arrows are at the bottom: kept in sight.
    $("diagram").onload = () => { const box = $("diagram-box"); box.scrollTop = box.scrollHeight; };
  }, 200);
}

// ---- Forms from JSON Schema: a tool's inputSchema, an elicitation's requestedSchema.

/** One input for a property: a select for an enum, a checkbox, a number, text; JSON for anything else. */
function fieldFor(name, schema, required) {
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== "null") : schema.type;
  const label = `${schema.title || name}${required ? " *" : ""}`;
  const choices = Array.isArray(schema.enum) ? schema.enum : Array.isArray(schema.oneOf) && schema.oneOf.every((o) => "const" in o) ? schema.oneOf.map((o) => o.const) : undefined;
  let input;
  let read;
  if (choices) {
    input = el("select", { name });
    if (!required) input.append(el("option", { value: "", text: "" }));
    choices.forEach((choice, i) => input.append(el("option", { value: String(i), text: String(choice) })));
    read = () => (input.value === "" ? undefined : choices[Number(input.value)]);
  } else if (type === "boolean") {
    input = el("input", { type: "checkbox", name });
    if (schema.default === true) input.checked = true;
    read = () => input.checked;
  } else if (type === "number" || type === "integer") {
    input = el("input", { type: "number", name, step: type === "integer" ? "1" : "any" });
    if (typeof schema.default === "number") input.value = String(schema.default);
    read = () => (input.value === "" ? undefined : Number(input.value));
  } else if (type === "string") {
    input = el("input", { type: "text", name });
    if (typeof schema.default === "string") input.value = schema.default;
    read = () => (input.value === "" && !required ? undefined : input.value);
  } else {
    input = el("textarea", { name, placeholder: "JSON" });
    read = () => (input.value.trim() === "" ? undefined : JSON.parse(input.value));
  }
  const box = el("label", { className: "field" }, el("span", { text: label + (schema.description ? ` — ${schema.description}` : "") }), input);
  return { box, read };
}

/** The form's fields, and a function that reads them into an object (skipping those left empty). */
function schemaFields(schema, container) {
  const properties = schema && typeof schema.properties === "object" && schema.properties !== null ? schema.properties : {};
  const required = new Set(Array.isArray(schema && schema.required) ? schema.required : []);
  const names = Object.keys(properties);
  if (names.length === 0 && schema && schema.additionalProperties !== false) {
    const { box, read } = fieldFor("arguments (JSON)", {}, false);
    container.append(box);
    return () => read() || {};
  }
  const fields = names.map((name) => [name, fieldFor(name, properties[name] || {}, required.has(name))]);
  for (const [, field] of fields) container.append(field.box);
  return () => {
    const values = {};
    for (const [name, field] of fields) {
      const value = field.read();
      if (value !== undefined) values[name] = value;
    }
    return values;
  };
}

// ---- Tools.

function showTools(tools) {
  const box = $("tools");
  box.replaceChildren();
  for (const tool of tools) {
    const form = el("form", { className: "card", "data-tool": tool.name },
      el("h3", { text: tool.name }),
      el("p", { text: tool.description || "" }),
      appNote(tool));
    const read = schemaFields(tool.inputSchema, form);
    const result = el("pre", { className: "result" });
    const running = el("div", { className: "running" });
    form.append(el("button", { type: "submit", text: "Call" }), running, result);
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      let args;
      try { args = read(); } catch (error) { return showResult(result, { ok: false, error: `the arguments are not JSON: ${error.message}` }); }
      const callId = `call-${++callSeq}`;
      const bar = el("progress", { "data-call": callId });
      const cancel = el("button", { type: "button", text: "Cancel" });
      cancel.addEventListener("click", () => act({ action: "cancel", callId }));
      running.replaceChildren(bar, el("span", { className: "progress-text" }), cancel);
      result.textContent = "";
      // MCP Apps (apps-host.js): a tool that names a view shows it while it runs, then its end in it.
      const viewing = openView(tool, args, form);
      const answer = await act({ action: "call", name: tool.name, arguments: args, callId });
      running.replaceChildren();
      showResult(result, answer);
      void viewing.then((view) => view && settleView(view, answer));
    });
    box.append(form);
  }
}

function showProgress(event) {
  const bar = document.querySelector(`progress[data-call="${CSS.escape(event.callId)}"]`);
  if (!bar) return;
  if (typeof event.total === "number" && event.total > 0) { bar.max = event.total; bar.value = event.progress; }
  bar.nextElementSibling.textContent = `${event.progress}${typeof event.total === "number" ? ` / ${event.total}` : ""}${event.message ? ` ${event.message}` : ""}`;
}

// ---- Resources and prompts.

function showResources(items, key) {
  const box = $("resources");
  box.replaceChildren();
  for (const item of items) {
    const uri = item[key];
    const card = el("div", { className: "card" }, el("h3", { text: uri }), el("p", { text: [item.name, item.mimeType, item.description].filter(Boolean).join(" — ") }));
    if (key === "uri") {
      const read = el("button", { type: "button", text: "Read" });
      read.addEventListener("click", () => { $("read-uri").value = uri; $("read-form").requestSubmit(); });
      card.append(read);
    } else card.append(templateForm(item)); // templates.js: its variables, completed, and Read
    box.append(card);
  }
}

function showPrompts(prompts) {
  const box = $("prompts");
  box.replaceChildren();
  for (const prompt of prompts) {
    const form = el("form", { className: "card" }, el("h3", { text: prompt.name }), el("p", { text: prompt.description || "" }));
    const fields = (prompt.arguments || []).map((argument) => {
      const input = el("input", { type: "text", name: argument.name });
      const list = el("datalist", { id: `complete-${prompt.name}-${argument.name}` });
      input.setAttribute("list", list.id);
      // Completion (server/utilities/completion): the server's suggestions as the person types.
      input.addEventListener("input", async () => {
        const answer = await act({ action: "complete", ref: { type: "ref/prompt", name: prompt.name }, argument: argument.name, value: input.value });
        const values = answer.ok && answer.result.completion ? answer.result.completion.values : [];
        list.replaceChildren(...values.slice(0, 100).map((value) => el("option", { value: String(value) })));
      });
      form.append(el("label", { className: "field" }, el("span", { text: `${argument.name}${argument.required ? " *" : ""}${argument.description ? ` — ${argument.description}` : ""}` }), input, list));
      return [argument.name, input];
    });
    const result = el("pre", { className: "result" });
    form.append(el("button", { type: "submit", text: "Get" }), result);
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const args = Object.fromEntries(fields.filter(([, input]) => input.value !== "").map(([name, input]) => [name, input.value]));
      showResult(result, await act({ action: "get", name: prompt.name, arguments: args }));
    });
    box.append(form);
  }
}

// ---- The server's questions: elicitation (form or URL) and sampling.

function showQuestion(event) {
  const box = el("form", { className: "question", "data-question": String(event.id) });
  const answer = (body) => act({ action: "answer", id: event.id, answer: body });
  const button = (text, onClick) => {
    const b = el("button", { type: "button", text, "data-answer": text.toLowerCase() });
    b.addEventListener("click", onClick);
    return b;
  };
  const p = event.params || {};
  if (event.kind === "elicitation" && p.mode === "url") {
    box.append(el("h3", { text: "The server asks you to open a URL" }), el("p", { text: p.message || "" }), el("pre", { text: String(p.url) }),
      el("p", { text: "inspect never opens it itself: copy it into a browser if you trust it." }),
      button("Accept", () => answer({ action: "accept" })), button("Decline", () => answer({ action: "decline" })), button("Cancel", () => answer({ action: "cancel" })));
  } else if (event.kind === "elicitation") {
    box.append(el("h3", { text: "The server asks" }), el("p", { text: p.message || "" }));
    const read = schemaFields(p.requestedSchema || {}, box);
    box.append(button("Accept", () => answer({ action: "accept", content: read() })), button("Decline", () => answer({ action: "decline" })), button("Cancel", () => answer({ action: "cancel" })));
  } else {
    box.append(el("h3", { text: "The server asks for a model's reply (sampling)" }),
      el("p", { text: "inspect has no model: write the reply yourself, or decline." }),
      el("pre", { text: JSON.stringify(p.messages || [], null, 2).slice(0, 4000) }));
    const reply = el("textarea", { name: "reply", placeholder: "the assistant's reply" });
    box.append(reply, button("Send reply", () => answer({ decline: false, text: reply.value })), button("Decline", () => answer({ decline: true })));
  }
  $("questions").append(box);
}

// ---- The event stream.

function onEvent(event) {
  switch (event.type) {
    case "message":
      if (event.seq <= lastSeq) return;
      lastSeq = event.seq;
      return showMessage(event);
    case "progress": return showProgress(event);
    case "question":
      if (event.id <= lastQuestion) return;
      lastQuestion = event.id;
      return showQuestion(event);
    case "question-done": return document.querySelector(`[data-question="${event.id}"]`)?.remove();
    case "state": {
      const info = event.serverInfo || {};
      $("server").textContent = `${info.name || "server"} ${info.version || ""}`;
      $("era").textContent = `${event.protocolVersion} (${event.era})`;
      $("era").title = event.reason || "";
      // The session begins with tools: listed as soon as the client is connected.
      $("list-tools").click();
      return;
    }
    case "log": {
      const params = event.params || {};
      const logs = $("logs");
      logs.append(el("div", { text: `[${params.level}${params.logger ? ` ${params.logger}` : ""}] ${typeof params.data === "string" ? params.data : JSON.stringify(params.data)}` }));
      while (logs.childElementCount > 200) logs.firstElementChild.remove();
      return;
    }
    default:
      appendRow(el("div", { className: "msg problem", text: `${event.type}: ${event.text || ""}` }));
  }
}

function start() {
  const source = new EventSource("events");
  source.onmessage = (message) => onEvent(JSON.parse(message.data));
  const last = $("last-result");
  const list = (action, show, key) => async () => {
    const answer = await act({ action });
    if (answer.ok) show(answer.result[key]);
    else showResult(last, answer);
  };
  $("list-tools").addEventListener("click", list("tools", showTools, "tools"));
  $("list-resources").addEventListener("click", list("resources", (items) => showResources(items, "uri"), "resources"));
  $("list-templates").addEventListener("click", list("templates", (items) => showResources(items, "uriTemplate"), "resourceTemplates"));
  $("list-prompts").addEventListener("click", list("prompts", showPrompts, "prompts"));
  $("read-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    showResult(last, await act({ action: "read", uri: $("read-uri").value }));
  });
  for (const level of LEVELS) $("log-level").append(el("option", { value: level, text: level }));
  $("set-level").addEventListener("click", async () => showResult(last, await act({ action: "setLevel", level: $("log-level").value })));
  $("save").addEventListener("click", async () => {
    const answer = await act({ action: "save" });
    if (!answer.ok) return showResult(last, answer);
    const link = el("a", { href: URL.createObjectURL(new Blob([answer.result.recording], { type: "text/plain" })), download: "inspect.recording" });
    link.click();
  });
  $("stop").addEventListener("click", async () => {
    await act({ action: "close" });
    source.close();
    document.body.replaceChildren(el("p", { text: "The session has ended; mcp-wire inspect has stopped. You can close this page." }));
  });
}

start();
