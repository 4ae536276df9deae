// Runs the tracer (trace.ts) once per generation, each in a process of its own and both at once,
// and turns the functions each run reports into tour stops (stops.ts), in order of first call.

import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { GENERATIONS, type Generation, type Trace } from "./generations.js";
import { stopAt, stopKey, type Stop } from "./stops.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const SRC = fileURLToPath(new URL("../../src/", import.meta.url));
const TRACER = fileURLToPath(new URL("./trace.ts", import.meta.url));

export interface TourStop extends Stop {
  /** V8's names of the functions that ran inside this stop, in order of first call ("" for a nameless one). */
  functions: string[];
}

export interface Tour {
  version: Generation["version"];
  call: Trace["call"];
  answer: string;
  stops: TourStop[];
}

export async function traceTours(): Promise<Tour[]> {
  return Promise.all(GENERATIONS.map(async ({ version }) => tourOf(await trace(version))));
}

function trace(version: string): Promise<Trace> {
  // A coverage tool's variable (c8 sets it for `npm test`) would make the tracer's process write its
  // own report; and the tracer resets V8's counts, which that report would then miss.
  const { NODE_V8_COVERAGE: _notHere, ...env } = process.env;
  const child = spawn(process.execPath, ["--import", "tsx", TRACER, version], { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (text: string) => (stdout += text));
  child.stderr.setEncoding("utf8").on("data", (text: string) => (stderr += text));
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => {
      if (code === 0) resolve(JSON.parse(stdout) as Trace);
      else reject(new Error(`tour: the ${version} trace failed (exit ${code}):\n${stderr}`));
    });
  });
}

function tourOf(trace: Trace): Tour {
  const stops: TourStop[] = [];
  for (const fn of trace.functions) {
    const stop = stopAt(SRC + fn.file, fn.file, fn.line, fn.column, fn.name);
    const known = stops.find((s) => stopKey(s) === stopKey(stop));
    if (known) known.functions.push(fn.name);
    else stops.push({ ...stop, functions: [fn.name] });
  }
  return { version: trace.version, call: trace.call, answer: trace.answer, stops };
}
