import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { compileAnswerCheck } from '../../src/campaign-api/answer-check.js';
import { lenientEnum } from '../../src/campaign-api/enums.js';
import { operations } from '../../src/campaign-api/operations.js';
import { samples } from '../fixtures/reference-samples.js';

/** The payload zod is given: `result`, or the envelope itself for top-level answers. */
function payloadOf(operation: keyof typeof operations, response: Record<string, unknown>): unknown {
  return operations[operation].wrapping === 'result' ? response.result : response;
}

/** A small deterministic generator, so a failure replays. */
function prng(seed: number) {
  let state = seed >>> 0;
  return (n: number) => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state % n;
  };
}

const ODD_VALUES: unknown[] = [
  null, undefined, 0, -1, 1.5, 2 ** 53, Number.MAX_SAFE_INTEGER, '', 'x', 'started', 'a-status-from-the-future',
  true, [], {}, [1], ['x'], { a: 1 }, '#FFF', 'https://shop.example.ru/', 'ж'.repeat(600),
];

/** Every path to a value inside `root` (objects and arrays), the root included. */
function paths(root: unknown, at: PropertyKey[] = []): PropertyKey[][] {
  const out: PropertyKey[][] = [at];
  if (Array.isArray(root)) root.forEach((v, i) => out.push(...paths(v, [...at, i])));
  else if (typeof root === 'object' && root !== null) for (const [k, v] of Object.entries(root)) out.push(...paths(v, [...at, k]));
  return out;
}

function mutate(root: unknown, pick: (n: number) => number): unknown {
  const all = paths(root);
  const path = all[pick(all.length)]!;
  const odd = structuredClone(ODD_VALUES[pick(ODD_VALUES.length)]);
  if (path.length === 0) return pick(3) === 0 ? odd : addKey(root, pick);
  const parent = path.slice(0, -1).reduce<any>((node, key) => node[key], root);
  const key = path.at(-1)!;
  switch (pick(4)) {
    case 0:
      if (Array.isArray(parent)) parent.splice(key as number, 1);
      else delete parent[key];
      break;
    case 1:
      addKey(parent[key], pick);
      break;
    default:
      parent[key] = odd;
  }
  return root;
}

function addKey(node: unknown, pick: (n: number) => number): unknown {
  if (typeof node === 'object' && node !== null && !Array.isArray(node)) {
    (node as Record<string, unknown>)[['extra', 'status', 'errors', '__proto__', 'ymCampaignId'][pick(5)]!] = pick(2) ? 'v' : 1;
  }
  return node;
}

describe('compileAnswerCheck agrees with zod on every operation', () => {
  for (const { file, sample } of samples) {
    const def = operations[sample.operation];
    const extra = def.wrapping === 'top-level' ? ['status', 'errors'] : [];
    const check = compileAnswerCheck(def.response, extra);
    const zodOutput = (value: unknown) => {
      const parsed = def.response.safeParse(value);
      if (!parsed.success || def.wrapping === 'result') return parsed;
      const { status: _s, errors: _e, ...rest } = value as Record<string, unknown>;
      return { success: true as const, data: rest, zod: parsed.data };
    };

    it(`${file}: the reference sample is taken as it is`, () => {
      const payload = payloadOf(sample.operation, sample.response);
      expect(check(payload)).toBe(true);
    });

    it(`${file}: across 3,000 mutated answers, a yes always means zod accepts the answer unchanged`, () => {
      const pick = prng(file.length * 7919);
      const tally = { fast: 0, zodOnly: 0, refused: 0 };
      for (let i = 0; i < 3_000; i++) {
        let value = structuredClone(payloadOf(sample.operation, sample.response));
        for (let n = 1 + pick(3); n > 0; n--) value = mutate(value, pick);
        const fast = check(value);
        const parsed = zodOutput(value);
        if (fast) {
          expect(parsed.success, JSON.stringify(value)).toBe(true);
          // zod's own output for a top-level payload lacks the envelope's keys; the rest is the value.
          if ('zod' in parsed) expect(parsed.zod).toStrictEqual(parsed.data);
          else expect(parsed.data, JSON.stringify(value)).toStrictEqual(value);
          tally.fast++;
        } else if (parsed.success) tally.zodOnly++;
        else tally.refused++;
      }
      // The mutations reach all three outcomes, so the agreement above is not vacuous.
      expect(tally.fast).toBeGreaterThan(50);
      expect(tally.zodOnly).toBeGreaterThan(10);
      expect(tally.refused).toBeGreaterThan(50);
    });
  }
});

describe('compileAnswerCheck leaves to zod what zod would change or it does not walk', () => {
  const status = lenientEnum(['started', 'paused']);

  it('a known enum value is taken; a value newer than the contract goes to zod, which wraps it', () => {
    const check = compileAnswerCheck(z.object({ s: status }));
    expect(check({ s: 'started' })).toBe(true);
    expect(check({ s: 'archived' })).toBe(false);
    expect(z.object({ s: status }).parse({ s: 'archived' })).toEqual({ s: { unknown: 'archived' } });
  });

  it('a union stops at the first option zod would take, even one that changes the value', () => {
    const schema = z.union([z.string().transform((v) => v.toUpperCase()), z.string()]);
    expect(compileAnswerCheck(schema)('x')).toBe(false);
    expect(schema.parse('x')).toBe('X');
    expect(compileAnswerCheck(z.union([z.number(), z.string()]))('x')).toBe(true);
  });

  it('a key the contract does not name goes to zod, which strips it; named extra root keys do not', () => {
    const schema = z.object({ a: z.number().int() });
    expect(compileAnswerCheck(schema)({ a: 1, b: 2 })).toBe(false);
    expect(compileAnswerCheck(schema, ['status'])({ a: 1, status: 'success' })).toBe(true);
    expect(compileAnswerCheck(z.object({ inner: schema }), ['b'])({ inner: { a: 1, b: 2 } })).toBe(false);
  });

  it("leaves run zod's own checks and refinements", () => {
    const check = compileAnswerCheck(z.object({ n: z.number().int().nonnegative(), s: z.string().max(3).refine((v) => v !== 'bad') }));
    expect(check({ n: 1, s: 'ok' })).toBe(true);
    expect(check({ n: 1.5, s: 'ok' })).toBe(false);
    expect(check({ n: -1, s: 'ok' })).toBe(false);
    expect(check({ n: 1, s: 'long' })).toBe(false);
    expect(check({ n: 1, s: 'bad' })).toBe(false);
    // The shared parse state was left clean by the failures: a good value passes again.
    expect(check({ n: 2, s: 'ok' })).toBe(true);
  });

  it('defaults, coercions, transforms, checks on objects and strict objects go to zod', () => {
    expect(compileAnswerCheck(z.object({ a: z.string().default('d').optional() }))({})).toBe(false);
    expect(compileAnswerCheck(z.object({ a: z.coerce.number() }))({ a: '5' })).toBe(false);
    expect(compileAnswerCheck(z.object({ a: z.string().transform((v) => v.length) }))({ a: 'x' })).toBe(false);
    expect(compileAnswerCheck(z.object({ a: z.string() }).refine(() => true))({ a: 'x' })).toBe(false);
    expect(compileAnswerCheck(z.strictObject({ a: z.string() }))({ a: 'x' })).toBe(false);
    expect(compileAnswerCheck(z.record(z.string(), z.string()))({ a: 'x' })).toBe(false);
  });

  it('walks arrays, optionals and nullables', () => {
    const check = compileAnswerCheck(z.object({ list: z.array(z.object({ id: z.number() })), opt: z.string().optional(), nul: z.string().nullable() }));
    expect(check({ list: [{ id: 1 }, { id: 2 }], nul: null })).toBe(true);
    expect(check({ list: [{ id: 1 }, { id: 'x' }], nul: null })).toBe(false);
    expect(check({ list: [{ id: 1 }], opt: 'y', nul: 'z' })).toBe(true);
    expect(check({ list: {}, nul: null })).toBe(false);
  });
});
