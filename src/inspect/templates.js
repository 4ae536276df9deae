// The page of `mcp-wire inspect`: a resource template's variables as inputs, each completed by the
// server as the person types (completion/complete with a ref/resource, the values already typed
// for the other variables as its context), and a Read button that expands the template (RFC 6570,
// the operators of levels 1 to 3; explode and prefix modifiers are read but not applied) and reads
// the URI. Uses el and act from inspect.js.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/server/utilities/completion and
// server/resources#resource-templates; https://www.rfc-editor.org/rfc/rfc6570
"use strict";

/** Each operator's prefix, separator, whether names are written, and whether reserved characters pass (RFC 6570, appendix A). */
const TEMPLATE_OPERATORS = {
  "": { first: "", sep: ",", named: false, reserved: false },
  "+": { first: "", sep: ",", named: false, reserved: true },
  "#": { first: "#", sep: ",", named: false, reserved: true },
  ".": { first: ".", sep: ".", named: false, reserved: false },
  "/": { first: "/", sep: "/", named: false, reserved: false },
  ";": { first: ";", sep: ";", named: true, reserved: false },
  "?": { first: "?", sep: "&", named: true, reserved: false },
  "&": { first: "&", sep: "&", named: true, reserved: false },
};

/** The template's expressions: each `{...}` with its operator and variable names. */
function templateExpressions(uriTemplate) {
  const found = [];
  for (const match of String(uriTemplate).matchAll(/\{([+#./;?&]?)([^}]*)\}/g)) {
    const names = match[2].split(",").map((name) => name.replace(/(\*|:\d+)$/, "")).filter((name) => name !== "");
    found.push({ text: match[0], operator: match[1], names });
  }
  return found;
}

/** The distinct variable names, in order. */
function templateVariables(uriTemplate) {
  return [...new Set(templateExpressions(uriTemplate).flatMap((expression) => expression.names))];
}

/** The URI for these values; a variable left empty is left out, as RFC 6570 leaves out an undefined one. */
function expandTemplate(uriTemplate, values) {
  let uri = String(uriTemplate);
  for (const expression of templateExpressions(uriTemplate)) {
    const op = TEMPLATE_OPERATORS[expression.operator];
    const encode = (value) => (op.reserved ? encodeURI(value).replace(/%25([0-9A-Fa-f]{2})/g, "%$1") : encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`));
    const parts = expression.names.filter((name) => typeof values[name] === "string" && values[name] !== "")
      .map((name) => (op.named ? `${name}=${encode(values[name])}` : encode(values[name])));
    uri = uri.replace(expression.text, parts.length === 0 ? "" : op.first + parts.join(op.sep));
  }
  return uri;
}

/** The inputs of one template's card, completed from the server, and its Read button. */
function templateForm(template) {
  const form = el("form", { className: "template", "data-template": template.uriTemplate });
  const inputs = templateVariables(template.uriTemplate).map((name) => {
    const input = el("input", { type: "text", name });
    const list = el("datalist", { id: `template-${template.uriTemplate}-${name}` });
    input.setAttribute("list", list.id);
    input.addEventListener("input", async () => {
      const others = Object.fromEntries(inputs.filter(([other]) => other !== name && other.length > 0).map(([other, field]) => [other, field.value]).filter(([, value]) => value !== ""));
      const answer = await act({ action: "complete", ref: { type: "ref/resource", uri: template.uriTemplate }, argument: name, value: input.value, context: { arguments: others } });
      const values = answer.ok && answer.result.completion ? answer.result.completion.values : [];
      list.replaceChildren(...values.slice(0, 100).map((value) => el("option", { value: String(value) })));
      list.dataset.for = input.value;
    });
    form.append(el("label", { className: "field" }, el("span", { text: name }), input, list));
    return [name, input];
  });
  form.append(el("button", { type: "submit", text: "Read" }));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    $("read-uri").value = expandTemplate(template.uriTemplate, Object.fromEntries(inputs.map(([name, input]) => [name, input.value])));
    $("read-form").requestSubmit();
  });
  return form;
}
