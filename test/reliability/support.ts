import { expect } from 'vitest';
import type { Stack } from '../helpers/stack.js';

/** What must never appear in an answer: stack traces, source positions, internal addresses, tokens. */
export function expectNothingInternal(body: unknown, tokens: string[] = ['demo-store-token', 'demo-aggregator-token']): void {
  const text = JSON.stringify(body);
  expect(text).not.toMatch(/stacktrace/i);
  expect(text).not.toMatch(/\.ts:\d+|\.js:\d+/);
  expect(text).not.toMatch(/\bat [\w.<>]+ \(/);
  expect(text).not.toContain('127.0.0.1');
  for (const token of tokens) expect(text).not.toContain(token);
}

/**
 * Collects the process's unhandled rejections while a suite runs: the BFF runs in this process,
 * so a promise it drops shows up here.
 */
export function trackUnhandledRejections(): { list: unknown[]; stop(): void } {
  const list: unknown[] = [];
  const listener = (reason: unknown) => list.push(reason);
  process.on('unhandledRejection', listener);
  return { list, stop: () => process.off('unhandledRejection', listener) };
}

/**
 * Collects process warnings (MaxListenersExceededWarning and the like) while a suite runs: in
 * production each one is a line on stderr and a captured stack, per request.
 */
export function trackWarnings(): { list: string[]; stop(): void } {
  const list: string[] = [];
  const listener = (warning: Error) => list.push(`${warning.name}: ${warning.message}`);
  process.on('warning', listener);
  return { list, stop: () => process.off('warning', listener) };
}

/** Lets pending microtasks and timers of the last request settle, so a dropped promise is seen. */
export const settle = () => new Promise((r) => setTimeout(r, 20));

/** Calls the emulator's REST API directly, as the partner `token`: the backend's own view, without the BFF. */
export async function rest<T = any>(stack: Stack, path: string, token: string, body: unknown): Promise<T> {
  const response = await fetch(`${stack.emulatorUrl}/v1/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  const answer = (await response.json()) as any;
  if (answer.status !== 'success') throw new Error(`REST ${path} answered ${response.status}: ${JSON.stringify(answer)}`);
  return answer as T;
}

/** Every campaign id of a partner, read page by page from the emulator. */
export async function restCampaignIds(stack: Stack, token: string): Promise<number[]> {
  const ids: number[] = [];
  for (let offset = 0; ; offset += 100) {
    const page = await rest<{ total: number; campaigns: { ymCampaignId: number }[] }>(stack, 'campaigns/get-all-campaigns', token, { limit: 100, offset });
    ids.push(...page.campaigns.map((c) => c.ymCampaignId));
    if (ids.length >= page.total || page.campaigns.length === 0) return ids;
  }
}

/** Every pin of a campaign in one status, from the emulator. */
export async function restPins(stack: Stack, token: string, ymCampaignId: number, pinStatus = 'new_unused'): Promise<string[]> {
  const answer = await rest<{ result: { pins: string[] } }>(stack, 'campaigns/get-pins-by-status', token, { ymCampaignId, pinStatus });
  return answer.result.pins;
}

export async function restInfo(stack: Stack, token: string, ymCampaignId: number): Promise<any> {
  return (await rest<{ result: any }>(stack, 'campaigns/info', token, { ymCampaignId })).result;
}

/** Waits until the emulator has counted `count` calls of `operation` (counted on arrival). */
export async function waitForCalls(stack: Stack, operation: string, count: number, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (((await stack.calls())[operation] ?? 0) >= count) return;
    if (Date.now() > deadline) throw new Error(`the emulator did not see ${count} ${operation} calls within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** Runs `tasks` with at most `concurrency` in flight, results in order. */
export async function pool<T>(tasks: (() => Promise<T>)[], concurrency: number): Promise<T[]> {
  const results = new Array<T>(tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const i = next++;
      results[i] = await tasks[i]!();
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, tasks.length) }, worker));
  return results;
}

export { seeded } from '../../bench/lib/seeded.js';
