// A replay's report as a person reads it, and its verdict: what `mcp-wire replay` prints and exits
// with, and what mcp-wire/testing's assertReplays throws, so a failing test reads like the CLI.

import { formatDifference, shorten } from "./compare.js";
import type { ReplayReport } from "./replay.js";

/** The exit code when the server, not the comparison, stopped the replay: a CI can tell the two apart. */
export const SERVER_FAILED = 3;

/** 0: every message as recorded; 1: a difference; SERVER_FAILED: the server stopped the replay. */
export function verdictOf(report: ReplayReport): 0 | 1 | typeof SERVER_FAILED {
  if (report.failure) return SERVER_FAILED;
  return report.differences.length > 0 ? 1 : 0;
}

/** The report a person reads: each difference with its JSON path, then the verdict. */
export function describeReport(report: ReplayReport, file: string): string {
  const out: string[] = [];
  for (const difference of report.differences) {
    if (difference.actual === undefined) out.push(`server message ${difference.expectedAt}: expected, never came:\n  ${shorten(difference.expected!)}`);
    else if (difference.expected === undefined) out.push(`unexpected server message:\n  ${shorten(difference.actual)}`);
    else out.push(`server message ${difference.expectedAt} differs:\n${difference.differences.map(formatDifference).join("\n")}`);
  }
  if (report.dropped) out.push(`(${report.dropped} more server message${report.dropped === 1 ? "" : "s"} the recording does not have came before the server stopped: counted, not kept)`);
  if (report.failure) out.push(`replay stopped: ${report.failure}`);
  else if (report.stopped) out.push("(the server was still running when its input had ended and the last wait was over: it was stopped)");
  const problems = report.differences.length + (report.failure ? 1 : 0);
  out.push(problems === 0 ? `${file}: replay matches` : `${file}: ${problems} problem${problems === 1 ? "" : "s"}`);
  return out.join("\n") + "\n";
}
