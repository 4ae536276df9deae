import { test } from "node:test";
import assert from "node:assert/strict";
import { UriTemplate, UriTemplateError } from "../../src/schema/uri-template.js";

// The example variables of RFC 6570 §3.2 (associative arrays left out: not supported).
const rfc = {
  count: ["one", "two", "three"],
  dom: ["example", "com"],
  dub: "me/too",
  hello: "Hello World!",
  half: "50%",
  var: "value",
  who: "fred",
  base: "http://example.com/home/",
  path: "/foo/bar",
  list: ["red", "green", "blue"],
  v: "6",
  x: "1024",
  y: "768",
  empty: "",
  empty_list: [],
  undef: undefined,
};

// [template, expected expansion], grouped by the RFC section they illustrate.
const expansions: Array<[string, string]> = [
  // §1.2 level 1 and §3.2.2 simple string expansion
  ["{var}", "value"],
  ["{hello}", "Hello%20World%21"],
  ["{half}", "50%25"],
  ["O{empty}X", "OX"],
  ["O{undef}X", "OX"],
  ["{x,y}", "1024,768"],
  ["{x,hello,y}", "1024,Hello%20World%21,768"],
  ["?{x,empty}", "?1024,"],
  ["?{x,undef}", "?1024"],
  ["?{undef,y}", "?768"],
  ["{var:3}", "val"],
  ["{var:30}", "value"],
  ["{list}", "red,green,blue"],
  ["{list*}", "red,green,blue"],
  ["{empty_list}", ""],
  ["{base}index", "http%3A%2F%2Fexample.com%2Fhome%2Findex"],
  // §1.2 level 2 and §3.2.3 reserved expansion
  ["{+var}", "value"],
  ["{+hello}", "Hello%20World!"],
  ["{+half}", "50%25"],
  ["{+base}index", "http://example.com/home/index"],
  ["O{+empty}X", "OX"],
  ["O{+undef}X", "OX"],
  ["{+path}/here", "/foo/bar/here"],
  ["here?ref={+path}", "here?ref=/foo/bar"],
  ["up{+path}{var}/here", "up/foo/barvalue/here"],
  ["{+x,hello,y}", "1024,Hello%20World!,768"],
  ["{+path,x}/here", "/foo/bar,1024/here"],
  ["{+path:6}/here", "/foo/b/here"],
  ["{+list}", "red,green,blue"],
  ["{+list*}", "red,green,blue"],
  // §3.2.4 fragment expansion
  ["X{#var}", "X#value"],
  ["X{#hello}", "X#Hello%20World!"],
  ["{#half}", "#50%25"],
  ["foo{#empty}", "foo#"],
  ["foo{#undef}", "foo"],
  ["{#x,hello,y}", "#1024,Hello%20World!,768"],
  ["{#path,x}/here", "#/foo/bar,1024/here"],
  ["{#path:6}/here", "#/foo/b/here"],
  ["{#list}", "#red,green,blue"],
  ["{#list*}", "#red,green,blue"],
  // §3.2.5 label expansion with dot-prefix
  ["{.who}", ".fred"],
  ["{.who,who}", ".fred.fred"],
  ["{.half,who}", ".50%25.fred"],
  ["www{.dom*}", "www.example.com"],
  ["X{.var}", "X.value"],
  ["X{.x,y}", "X.1024.768"],
  ["X{.empty}", "X."],
  ["X{.undef}", "X"],
  ["X{.var:3}", "X.val"],
  ["X{.list}", "X.red,green,blue"],
  ["X{.list*}", "X.red.green.blue"],
  // §3.2.6 path segment expansion
  ["{/who}", "/fred"],
  ["{/who,who}", "/fred/fred"],
  ["{/half,who}", "/50%25/fred"],
  ["{/who,dub}", "/fred/me%2Ftoo"],
  ["{/var}", "/value"],
  ["{/var,empty}", "/value/"],
  ["{/var,undef}", "/value"],
  ["{/var,x}/here", "/value/1024/here"],
  ["{/var:1,var}", "/v/value"],
  ["{/list}", "/red,green,blue"],
  ["{/list*}", "/red/green/blue"],
  ["{/list*,path:4}", "/red/green/blue/%2Ffoo"],
  // §3.2.7 path-style parameter expansion
  ["{;who}", ";who=fred"],
  ["{;half}", ";half=50%25"],
  ["{;empty}", ";empty"],
  ["{;v,empty,who}", ";v=6;empty;who=fred"],
  ["{;v,bar,who}", ";v=6;who=fred"],
  ["{;x,y}", ";x=1024;y=768"],
  ["{;x,y,empty}", ";x=1024;y=768;empty"],
  ["{;x,y,undef}", ";x=1024;y=768"],
  ["{;hello:5}", ";hello=Hello"],
  ["{;list}", ";list=red,green,blue"],
  ["{;list*}", ";list=red;list=green;list=blue"],
  // §3.2.8 form-style query expansion
  ["{?who}", "?who=fred"],
  ["{?half}", "?half=50%25"],
  ["{?x,y}", "?x=1024&y=768"],
  ["{?x,y,empty}", "?x=1024&y=768&empty="],
  ["{?x,y,undef}", "?x=1024&y=768"],
  ["{?var:3}", "?var=val"],
  ["{?list}", "?list=red,green,blue"],
  ["{?list*}", "?list=red&list=green&list=blue"],
  ["{?undef}", ""],
  // §3.2.9 form-style query continuation
  ["{&who}", "&who=fred"],
  ["{&half}", "&half=50%25"],
  ["?fixed=yes{&x}", "?fixed=yes&x=1024"],
  ["{&x,y,empty}", "&x=1024&y=768&empty="],
  ["{&var:3}", "&var=val"],
  ["{&list}", "&list=red,green,blue"],
  ["{&list*}", "&list=red&list=green&list=blue"],
];

for (const [template, expected] of expansions) {
  test(`expand ${template}`, () => {
    assert.equal(new UriTemplate(template).expand(rfc), expected);
  });
}

const encodingCases: Array<[name: string, template: string, vars: Record<string, string | string[]>, expected: string]> = [
  ["utf-8 is percent-encoded", "{v}", { v: "é€😀" }, "%C3%A9%E2%82%AC%F0%9F%98%80"],
  ["reserved expansion keeps %XX triplets", "{+v}", { v: "a%2Fb%zz" }, "a%2Fb%25zz"],
  ["simple expansion encodes existing triplets", "{v}", { v: "a%2Fb" }, "a%252Fb"],
  ["prefix counts code points", "{v:2}", { v: "😀😀😀" }, "%F0%9F%98%80%F0%9F%98%80"],
  ["lone surrogate becomes U+FFFD", "{v}", { v: "\ud800" }, "%EF%BF%BD"],
  ["literal outside the URI character set is encoded", "a b{v}", { v: "c" }, "a%20bc"],
  ["literal reserved characters pass", "x:/?#[]@!$&'()*+,;={v}", { v: "1" }, "x:/?#[]@!$&'()*+,;=1"],
  ["variable named constructor is not inherited", "{constructor}", {}, ""],
];

for (const [name, template, vars, expected] of encodingCases) {
  test(`expand: ${name}`, () => {
    assert.equal(new UriTemplate(template).expand(vars), expected);
  });
}

// [template, uri, expected variables or undefined for no match]
const matches: Array<[string, string, Record<string, string | string[]> | undefined]> = [
  // MCP resource templates
  ["docs://demo/protocol-notes/{section}", "docs://demo/protocol-notes/lifecycle", { section: "lifecycle" }],
  ["docs://demo/protocol-notes/{section}", "docs://demo/protocol-notes/a%20b", { section: "a b" }],
  ["docs://demo/protocol-notes/{section}", "docs://demo/protocol-notes/", undefined],
  ["docs://demo/protocol-notes/{section}", "docs://demo/protocol-notes/a/b", undefined],
  ["docs://demo/protocol-notes/{section}", "docs://demo/other/a", undefined],
  ["docs://demo/protocol-notes/{section}", "docs://demo/protocol-notes/a?x", undefined],
  ["test://template/{id}/data", "test://template/42/data", { id: "42" }],
  ["test://template/{id}/data", "test://template/42/data/extra", undefined],
  ["test://template/{id}/data", "test://template//data", undefined],
  ["test://template/{id}/data", "test://template/4/2/data", undefined],
  ["test://template/{id}/data", "prefix-test://template/42/data", undefined],
  ["file:///{+path}", "file:///home/user/notes%20today.md", { path: "home/user/notes today.md" }],
  ["file:///{+path}", "file:///", undefined],
  ["file:///{+path}", "http:///etc", undefined],
  // simple and multi-variable
  ["{a}-{b}", "x-y-z", { a: "x", b: "y-z" }],
  ["{x,y}", "1024,768", { x: "1024", y: "768" }],
  ["{x,y}", "1024", { x: "1024" }],
  ["{x,y}", "1,2,3", undefined],
  ["{+path}/here", "/foo/bar/here", { path: "/foo/bar" }],
  ["{+base}/api/{id}", "http://x/y/api/5", { base: "http://x/y", id: "5" }],
  ["{#frag}", "#a/b,c", { frag: "a/b,c" }],
  ["page{#frag}", "page", {}],
  // path segments
  ["{/var}", "/value", { var: "value" }],
  ["{/var}", "/a/b", undefined],
  ["{/var}/x", "/x", {}],
  ["{/var,x}/here", "/value/1024/here", { var: "value", x: "1024" }],
  ["{/list*}", "/red/green/blue", { list: ["red", "green", "blue"] }],
  ["/root{/list*}{?q}", "/root/a/b?q=1", { list: ["a", "b"], q: "1" }],
  ["{/who,who}", "/fred/fred", { who: "fred" }],
  ["{/who,who}", "/fred/barney", undefined],
  // labels
  ["www{.dom*}", "www.example.com", { dom: ["example", "com"] }],
  ["file{.ext}", "file.tar.gz", { ext: "tar.gz" }],
  ["file{.ext}", "file", {}],
  ["{/name}{.ext}", "/report.pdf", { name: "report", ext: "pdf" }],
  // path-style parameters
  ["{;x,y}", ";x=1024;y=768", { x: "1024", y: "768" }],
  ["{;x,y}", ";y=768;x=1024", { x: "1024", y: "768" }],
  ["{;x}", ";x", { x: "" }],
  ["{;list*}", ";list=red;list=green", { list: ["red", "green"] }],
  // queries: any order, optional, unknown parameters ignored
  ["search{?q,lang}", "search?q=mcp&lang=en", { q: "mcp", lang: "en" }],
  ["search{?q,lang}", "search?lang=en&q=mcp", { q: "mcp", lang: "en" }],
  ["search{?q,lang}", "search?lang=en", { lang: "en" }],
  ["search{?q,lang}", "search", {}],
  ["search{?q,lang}", "search?q=a%26b&utm=x", { q: "a&b" }],
  ["search{?q}{&page}", "search?page=2&q=x", { q: "x", page: "2" }],
  ["search{?q}", "search?q=%E0%A4%A", undefined],
  ["search{?q}", "searchx", undefined],
  ["{?list*}", "?list=red&list=green", { list: ["red", "green"] }],
  ["?fixed=yes{&x}", "?fixed=yes&x=1024", { x: "1024" }],
  ["items/{id}{?fields}{#section}", "items/7?fields=a,b#top", { id: "7", fields: "a,b", section: "top" }],
];

for (const [template, uri, expected] of matches) {
  test(`match ${template} against ${uri}`, () => {
    assert.deepEqual(new UriTemplate(template).match(uri), expected);
  });
}

const roundTrips: Array<[string, Record<string, string | string[]>]> = [
  ["docs://demo/protocol-notes/{section}", { section: "a b/c?d#e" }],
  ["test://template/{id}/data", { id: "ünïcødé 😀" }],
  ["file:///{+path}", { path: "a/b c/d.txt" }],
  ["{/list*}", { list: ["a/b", "c d", "e"] }],
  ["{;x,y}", { x: "1", y: "" }],
  ["api{/version}/users{/id}{?fields,sort}", { version: "v1", id: "42", fields: "name,email", sort: "-created" }],
  ["{?list*}", { list: ["x&y", "z=1"] }],
  ["www{.dom*}", { dom: ["example", "com"] }],
];

for (const [template, vars] of roundTrips) {
  test(`round trip ${template}`, () => {
    const uriTemplate = new UriTemplate(template);
    assert.deepEqual(uriTemplate.match(uriTemplate.expand(vars)), vars);
  });
}

test("match does not treat __proto__ as a prototype", () => {
  const result = new UriTemplate("x/{__proto__}").match("x/a");
  assert.ok(result !== undefined);
  assert.equal(Object.getPrototypeOf(result), Object.prototype);
  assert.ok(Object.hasOwn(result, "__proto__"));
  assert.equal(result["__proto__"], "a");
});

test("a 100 KB near-miss URI is rejected quickly", () => {
  const templates = ["{+a}/x/{+b}/y", "{a}-{b}-{c}.end", "docs://{+path}{?q}#end", "{/list*}/z"];
  const uris = ["/x/".repeat(34_000), "a-".repeat(50_000), `docs://${"?q".repeat(50_000)}`, "/a".repeat(50_000)];
  const started = performance.now();
  for (const template of templates) for (const uri of uris) assert.equal(new UriTemplate(template).match(uri), undefined);
  assert.ok(performance.now() - started < 1000, "matching took too long");
});

test("a 100 KB URI that does match is read in one pass", () => {
  const path = "a/".repeat(50_000) + "end";
  const started = performance.now();
  assert.deepEqual(new UriTemplate("file:///{+path}").match(`file:///${path}`), { path });
  assert.ok(performance.now() - started < 1000);
});

test("variableNames lists each name once, in order", () => {
  assert.deepEqual(new UriTemplate("{/a,b}{?c,a}{&d*}x{e:3}").variableNames(), ["a", "b", "c", "d", "e"]);
  assert.deepEqual(new UriTemplate("no variables").variableNames(), []);
});

test("template and toString keep the source text", () => {
  const template = new UriTemplate("test://template/{id}/data");
  assert.equal(template.template, "test://template/{id}/data");
  assert.equal(String(template), "test://template/{id}/data");
});

const malformed: Array<[string, RegExp]> = [
  ["docs://{section", /^uri template "docs:\/\/\{section": "\{" at offset 7 is not closed$/],
  ["a{b{c}}", /"\{" at offset 1 is not closed/],
  ["a}b", /unexpected "\}" at offset 1/],
  ["{}", /empty expression at offset 0/],
  ["{=x}", /operator "=" at offset 0 is reserved/],
  ["{|x}", /operator "\|" at offset 0 is reserved/],
  ["{a b}", /invalid variable "a b"/],
  ["{a-b}", /invalid variable "a-b"/],
  ["{a,}", /invalid variable ""/],
  ["{a:0}", /invalid variable "a:0"/],
  ["{a:10000}", /invalid variable "a:10000"/],
  ["{a*:3}", /invalid variable "a\*:3"/],
  ["{.a..b}", /invalid variable "a..b"/],
  ["{?}", /invalid variable ""/],
];

for (const [template, message] of malformed) {
  test(`malformed template ${template}`, () => {
    assert.throws(() => new UriTemplate(template), (error: unknown) => error instanceof UriTemplateError && message.test(error.message));
  });
}

test("valid edge-case templates parse", () => {
  assert.deepEqual(new UriTemplate("{a.b,c_d,%20e:9999}").variableNames(), ["a.b", "c_d", "%20e"]);
});
