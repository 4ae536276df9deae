// `mcp-wire completion bash|zsh|fish`: each script is drawn from the table the parser reads
// (cli/vocabulary.ts), so every command and flag the parser takes is offered, and nothing else.
// Run `npm run build` first: the program tests need dist/.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { parseCommandLine, UsageError, type Command } from "../../src/cli/arguments.js";
import { completionScript, SHELLS } from "../../src/cli/completion.js";
import { COMMANDS, FLAGS, LOGGING_LEVELS, PROTOCOL_MODES, WIRE_TOOL_COMMANDS, type SessionCommandName } from "../../src/cli/vocabulary.js";
import { ExitCode } from "../../src/cli/output.js";
import { runCli } from "./program.js";

test("vocabulary: every flag of the table is one the parser takes (none is unknown to it)", () => {
  for (const flag of FLAGS) {
    if (flag.name === "-h" || flag.name === "--help") continue;
    const argv = flag.value === undefined ? [flag.name, "tools"] : [`${flag.name}=x`, "tools"];
    try {
      parseCommandLine(argv);
    } catch (error) {
      assert.ok(error instanceof UsageError);
      assert.doesNotMatch(error.message, /unknown option/, flag.name);
    }
  }
});

test("vocabulary: the session commands of the table are exactly the commands command.ts parses (checked by the compiler)", () => {
  const same: [Command["name"]] extends [SessionCommandName] ? ([SessionCommandName] extends [Command["name"]] ? true : false) : false = true;
  assert.equal(same, true);
});

// The recording tools are dispatched by src/cli.ts before the parser, from a map typed by their names.
test("vocabulary: every command of the table but the recording tools is one the parser knows", () => {
  const wireTools = new Set<string>(WIRE_TOOL_COMMANDS.map((command) => command.name));
  for (const command of COMMANDS.filter((c) => !wireTools.has(c.name))) {
    try {
      parseCommandLine([command.name, "--", "x"]);
    } catch (error) {
      assert.ok(error instanceof UsageError);
      assert.doesNotMatch(error.message, /unknown command/, command.name);
    }
  }
});

for (const shell of SHELLS) {
  test(`completion ${shell}: every command, every flag and the values of the flags that have a fixed set`, () => {
    const script = completionScript(shell);
    // zsh's words carry their description after a colon: 'tools:list every tool'.
    const words = new Set(script.split(/[\s"'()|;:]+/));
    for (const command of COMMANDS) assert.ok(words.has(command.name), `${shell}: command ${command.name}`);
    for (const flag of FLAGS) {
      // fish spells a flag without its dashes: -l config, -s h.
      const spelled = shell === "fish" ? flag.name.replace(/^-+/, "") : flag.name;
      assert.ok(words.has(spelled), `${shell}: flag ${flag.name}`);
    }
    for (const value of [...LOGGING_LEVELS, ...PROTOCOL_MODES, ...SHELLS]) assert.ok(words.has(value), `${shell}: value ${value}`);
  });
}

test("completion bash: the script is valid bash, and completes a command, a flag and a flag's value", () => {
  const complete = (line: string): string[] => {
    const words = line.split(" ");
    const source = `${completionScript("bash")}\nCOMP_WORDS=(${words.map((w) => `'${w}'`).join(" ")}); COMP_CWORD=${words.length - 1}; _mcp_wire; printf '%s\\n' "\${COMPREPLY[@]}"`;
    const run = spawnSync("bash", ["--norc", "-c", source], { encoding: "utf8" });
    assert.equal(run.status, 0, run.stderr);
    return run.stdout.split("\n").filter((w) => w !== "");
  };
  assert.deepEqual(complete("mcp-wire to"), ["tools"]);
  assert.deepEqual(complete("mcp-wire --tr"), ["--trace"]);
  assert.deepEqual(complete("mcp-wire --log-level de"), ["debug"]);
  assert.deepEqual(complete("mcp-wire completion f"), ["fish"]);
  assert.deepEqual(complete("mcp-wire tools --quiet --con"), ["--config"]);
});

describe("cli program: completion", { timeout: 60_000 }, () => {
  test("completion bash prints the script on stdout, exit 0", async () => {
    const result = await runCli(["completion", "bash"]);
    assert.equal(result.code, ExitCode.ok, result.stderr);
    assert.equal(result.stdout, `${completionScript("bash")}\n`);
  });

  test("completion of an unknown shell, or of none: exit 2, naming the shells", async () => {
    for (const args of [["completion", "bsh"], ["completion"]]) {
      const result = await runCli(args);
      assert.equal(result.code, ExitCode.usage);
      assert.equal(result.stdout, "");
      assert.match(result.stderr, /^mcp-wire: completion: expected one of bash, zsh, fish/);
    }
    assert.match((await runCli(["completion", "bsh"])).stderr, /did you mean "bash"/);
  });

  test("--help says how to install the completion", async () => {
    const result = await runCli(["--help"]);
    assert.match(result.stdout, /^ {7}mcp-wire completion bash\|zsh\|fish/m);
    assert.match(result.stdout, /source <\(mcp-wire completion bash\)/);
  });
});
