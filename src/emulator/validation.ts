import type { z } from 'zod';
import { PARSE_OPTIONS, toFieldIssues, type FieldIssue } from '../campaign-api/index.js';
import { incorrectData } from './api-failure.js';

/** The contract's messages (a missing field "is required"), never zod's defaults. */
const parseOptions = PARSE_OPTIONS;

/** Field issues of `body` against `schema`, every one of them. */
export function issuesOf(schema: z.ZodType, body: unknown): FieldIssue[] {
  const parsed = schema.safeParse(body, parseOptions);
  return parsed.success ? [] : toFieldIssues(parsed.error);
}

/**
 * Parses a request body or throws incorrectData naming every violated field, together with
 * `extra` issues found by checks the contract cannot make (the emulator's own state).
 */
export function parseOrFail<S extends z.ZodType>(schema: S, body: unknown, extra: FieldIssue[] = []): z.output<S> {
  const parsed = schema.safeParse(body, parseOptions);
  if (parsed.success && extra.length === 0) return parsed.data;
  const issues = dedupe([...(parsed.success ? [] : toFieldIssues(parsed.error)), ...extra]);
  throw incorrectData(issues);
}

export function dedupe(issues: FieldIssue[]): FieldIssue[] {
  const seen = new Set<string>();
  return issues.filter((i) => {
    const key = `${i.field}\u0000${i.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
