import { fileURLToPath } from 'node:url';
import type { BuiltEntry } from './built-entry.js';

/**
 * `NODE_OPTIONS` for a built entry whose memory a test measures: preloads memory-probe.mjs,
 * which answers SIGUSR2 with the process's memory after a full garbage collection.
 */
export const MEMORY_PROBE_NODE_OPTIONS = `--import ${fileURLToPath(new URL('./memory-probe.mjs', import.meta.url))}`;

export interface MemorySample {
  rssBytes: number;
  heapUsedBytes: number;
  /** The event loop's longest delay since the previous sample: for reports, not assertions. */
  eventLoopDelayMaxMs: number;
}

const LINE = /^memory-probe (\{.*\})$/gm;

/** Asks a process started with MEMORY_PROBE_NODE_OPTIONS for a sample and waits for it. */
export async function sampleMemory(entry: BuiltEntry, timeoutMs = 10_000): Promise<MemorySample> {
  const seen = [...entry.output().matchAll(LINE)].length;
  entry.child.kill('SIGUSR2');
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const lines = [...entry.output().matchAll(LINE)];
    if (lines.length > seen) return JSON.parse(lines[seen]![1]!) as MemorySample;
    if (Date.now() > deadline) throw new Error(`no memory sample within ${timeoutMs} ms; output:\n${entry.output().slice(-2000)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
