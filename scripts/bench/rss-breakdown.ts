// Where a process's resident memory is, from /proc/<pid>/smaps (Linux only): file-backed pages
// (node's own code and the shared libraries), glibc malloc's main arena ([heap], grown by brk),
// its per-thread arenas, and the rest of the anonymous memory (V8's heap pages, large malloc
// blocks, which glibc mmaps one by one, and thread stacks). smaps does not name V8's pages, so
// the V8 share is taken from V8 itself (the physical size of its heap spaces) and reported beside it.

import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";

export interface RssBreakdown {
  /** VmRSS-equivalent: the sum of every mapping's Rss, in bytes. */
  total: number;
  /** Pages backed by a file: the node binary, shared libraries, locale data. */
  file: number;
  /** glibc's main arena, grown with brk: what the main thread mallocs. */
  mainArena: number;
  /** glibc's other arenas, one per thread that mallocs while another holds an arena's lock. */
  threadArenas: number;
  /** How many such arenas are mapped. */
  threadArenaCount: number;
  /** Every other anonymous mapping: V8's heap, large malloc blocks, thread stacks. */
  otherAnonymous: number;
}

/**
 * glibc gives a thread arena a heap of its own: a 64 MiB region (HEAP_MAX_SIZE on 64-bit) aligned
 * to 64 MiB, read-write at the start (what is in use) and PROT_NONE after it (what may be yet).
 * That shape, at that alignment, is how an arena is told from other anonymous memory here.
 */
const ARENA_HEAP_BYTES = 64 * 1024 * 1024;

interface Mapping {
  start: number;
  end: number;
  perms: string;
  path: string;
  rss: number;
}

function mappings(pid: number): Mapping[] {
  const list: Mapping[] = [];
  let current: Mapping | undefined;
  for (const line of readFileSync(`/proc/${pid}/smaps`, "utf8").split("\n")) {
    const head = /^([0-9a-f]+)-([0-9a-f]+) (\S{4}) \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head) {
      current = { start: parseInt(head[1]!, 16), end: parseInt(head[2]!, 16), perms: head[3]!, path: head[4]!, rss: 0 };
      list.push(current);
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss && current) current.rss = Number(rss[1]) * 1024;
  }
  return list;
}

export function rssBreakdown(pid: number): RssBreakdown {
  const list = mappings(pid);
  const result: RssBreakdown = { total: 0, file: 0, mainArena: 0, threadArenas: 0, threadArenaCount: 0, otherAnonymous: 0 };
  for (let i = 0; i < list.length; i++) {
    const m = list[i]!;
    result.total += m.rss;
    if (m.path.startsWith("/")) result.file += m.rss;
    else if (m.path === "[heap]") result.mainArena += m.rss;
    else if (m.path === "" && isArenaHeap(m, list[i + 1])) {
      result.threadArenas += m.rss;
      result.threadArenaCount++;
    } else result.otherAnonymous += m.rss;
  }
  return result;
}

/** A 64 MiB-aligned read-write mapping followed by its PROT_NONE rest, 64 MiB in all (or all read-write). */
function isArenaHeap(m: Mapping, next: Mapping | undefined): boolean {
  if (m.start % ARENA_HEAP_BYTES !== 0 || !m.perms.startsWith("rw")) return false;
  if (m.end - m.start === ARENA_HEAP_BYTES) return true;
  return next !== undefined && next.start === m.end && next.perms.startsWith("---") && next.path === "" && next.end - m.start === ARENA_HEAP_BYTES;
}

/**
 * A server preload (node --expose-gc --import MEMORY_PRELOAD): on SIGUSR2 it runs a full GC and,
 * GC_SETTLE_MS later, writes `load-http: gc done {GcReport}` on stderr. The wait is because V8
 * unmaps the pages a GC freed from a background thread: RSS read at once still counts them.
 */
export const GC_SETTLE_MS = 1000;
export const MEMORY_PRELOAD =
  "data:text/javascript,import v8 from 'node:v8';process.on('SIGUSR2',()=>{globalThis.gc();setTimeout(()=>{const spaces={};" +
  "for(const s of v8.getHeapSpaceStatistics())spaces[s.space_name]=s.physical_space_size;" +
  `process.stderr.write('load-http: gc done '+JSON.stringify({...process.memoryUsage(),spaces})+'\\n')},${GC_SETTLE_MS})})`;

/** process.memoryUsage(), with the physical size of each V8 heap space by its name. */
export interface GcReport extends NodeJS.MemoryUsage {
  spaces: Record<string, number>;
}

/** The bytes V8 has committed for its heap, all spaces together. */
export function v8Committed(report: GcReport): number {
  return Object.values(report.spaces).reduce((sum, bytes) => sum + bytes, 0);
}

export interface MallocReport {
  /** What glibc malloc has from the system, all arenas and mmapped blocks together. */
  system: number;
  /** What of it is allocated. */
  inUse: number;
  rssBefore: number;
  /** RSS right after malloc_trim(0), which hands every free page of every arena back. */
  rssAfterTrim: number;
}

/**
 * glibc malloc's own account, asked of process `pid` through gdb (when it is on PATH):
 * malloc_stats() prints to that process's stderr (read with `stderrText`), and malloc_trim(0)
 * returns the free pages. Undefined without gdb or if it fails. The trim changes the process: do
 * it last.
 */
export async function askMalloc(pid: number, stderrText: () => string): Promise<MallocReport | undefined> {
  const from = stderrText().length;
  const rssBefore = vmRss(pid);
  const gdb = spawnSync("gdb", ["-p", String(pid), "-batch", "-nx", "-ex", "call (void) malloc_stats()", "-ex", "call (int) malloc_trim(0)"], { timeout: 30_000, encoding: "utf8" });
  if (gdb.error || gdb.status !== 0) return undefined;
  const rssAfterTrim = vmRss(pid);
  // malloc_stats() has written by the time gdb returns; the lines may still be in the pipe.
  await new Promise((resolve) => setTimeout(resolve, 200));
  const stats = /Total \(incl\. mmap\):\s+system bytes\s+=\s+(\d+)\s+in use bytes\s+=\s+(\d+)/.exec(stderrText().slice(from));
  return stats ? { system: Number(stats[1]), inUse: Number(stats[2]), rssBefore, rssAfterTrim } : undefined;
}

function vmRss(pid: number): number {
  return Number(/^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? NaN) * 1024;
}
