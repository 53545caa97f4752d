import type { OperationDefinitionNode } from 'graphql';
import { BoundedMemory } from '../bounded/index.js';
import type { Refusal } from './types.js';

/**
 * The values of the variables an operation declares, as one text: equal values give equal text
 * whatever the order of keys the client wrote, and variables the operation does not declare (which
 * nothing reads) are left out. It names what changes a verdict on the request and its answer, so
 * the pipeline's verdicts and the response cache are both kept by it. Undefined when the values
 * cannot be written out again (nested deeper than the stack allows): such a request is judged, and
 * answered, every time.
 */
export function variablesKeyOf(operation: OperationDefinitionNode, given: Readonly<Record<string, unknown>> | undefined): string | undefined {
  let key = '';
  if (!given) return key;
  for (const definition of operation.variableDefinitions ?? []) {
    const name = definition.variable.name.value;
    if (!Object.hasOwn(given, name)) continue;
    try {
      key += `${name}:${canonical(given[name])},`;
    } catch {
      return undefined;
    }
  }
  return key;
}

/** JSON with every object's keys in order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    return `{${Object.keys(record).sort().map((k) => `${JSON.stringify(k)}:${canonical(record[k])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** What the operation policies said of one request: nothing (it may run) or their refusal. */
export type OperationVerdict = Refusal | null;

/**
 * The operation policies' verdicts for a document's operation, a kind of caller, a transport and
 * the variables' values. An operation policy sees nothing else of a request, so the same five give
 * the same verdict: a client repeating a request (an app's feed, a dashboard's poll) is judged once.
 * Bounded by bytes, keys included; keys longer than a few hundred characters (large variables) are
 * never kept, as their judging costs no more than writing their key.
 */
export interface VerdictCache {
  get(key: string): OperationVerdict | undefined;
  set(key: string, verdict: OperationVerdict): void;
}

const MAX_KEY_LENGTH = 512;
/** About what an entry holds besides its key: a refusal's errors weigh more than a pass. */
const PASS_BYTES = 128;
const REFUSAL_BYTES = 2048;

export function createVerdictCache(maxBytes: number): VerdictCache {
  const verdicts = new BoundedMemory<string, { verdict: OperationVerdict }>({
    maxBytes,
    sizeOf: (entry, key) => key.length * 2 + (entry.verdict ? REFUSAL_BYTES : PASS_BYTES),
  });
  return {
    get: (key) => verdicts.get(key)?.verdict,
    set(key, verdict) {
      if (key.length <= MAX_KEY_LENGTH) verdicts.set(key, { verdict });
    },
  };
}
