import type { z } from 'zod';

/**
 * A validator of backend answers compiled from the same zod contract, that checks a parsed answer
 * in place instead of building a copy of it.
 *
 * zod's parse copies every object it validates and allocates a result for every field: about
 * fifty small objects per `campaigns/get` answer. Under a 50-card list that garbage, not the
 * checking, was most of what validation cost (the young-generation collections it caused). Most
 * answers are already exactly what zod would return: no unknown keys to strip, no unknown enum
 * value to wrap. For those the checker says so, and the parsed JSON is used as it is.
 *
 * zod stays the authority. Leaves (strings, numbers, enums, literals, ...) are checked by the
 * schema's own zod code, with its own refinements; the checker only walks objects, arrays,
 * optionals, nullables and unions. Whenever it is not sure the answer is valid and unchanged by
 * zod (an unknown key, a transform, a type it does not walk), the caller runs zod's safeParse,
 * which gives the copy or the exact error as before. It never reports an error itself.
 */
export type AnswerCheck = (value: unknown) => boolean;

/** How a value stands against a schema. */
const SAME = 0; // valid, and zod's output would be equal to the value itself
const INVALID = 1; // zod would report an issue
const OTHER = 2; // valid but changed by zod, or not known here: ask zod
type Fit = typeof SAME | typeof INVALID | typeof OTHER;
type Check = (value: unknown) => Fit;

type Schema = z.core.$ZodType;
type Payload = { value: unknown; issues: unknown[] };

/** zod's own parse state, reused: a leaf check allocates nothing when the value is valid. */
const scratch: Payload = { value: undefined, issues: [] };
const SYNC = { async: false };

const LEAVES: ReadonlySet<string> = new Set(['string', 'number', 'boolean', 'enum', 'literal', 'null', 'any', 'unknown']);

/**
 * @param extraRootKeys keys the root object may carry besides its shape (the envelope's `status`
 *   when the payload is the envelope itself); zod strips them, so the caller drops them too.
 */
export function compileAnswerCheck(schema: Schema, extraRootKeys: readonly string[] = []): AnswerCheck {
  const check = compile(schema, extraRootKeys);
  return (value) => check(value) === SAME;
}

function compile(schema: Schema, extraKeys: readonly string[] = []): Check {
  const def = schema._zod.def as z.core.$ZodTypeDef & Record<string, unknown>;
  if (LEAVES.has(def.type)) return leaf(schema);
  // Checks on a container (a superRefine on an object) are left to zod.
  if (def.checks?.length) return unknown;
  switch (def.type) {
    case 'object':
      return object(def as unknown as z.core.$ZodObjectDef, extraKeys);
    case 'array':
      return array(compile((def as unknown as z.core.$ZodArrayDef).element));
    case 'optional': {
      const inner = (def as unknown as z.core.$ZodOptionalDef).innerType;
      // A default inside substitutes a value for absence: zod changes the answer.
      const absent: Fit = inner._zod.optin === 'defaulted' ? OTHER : SAME;
      const present = compile(inner);
      return (value) => (value === undefined ? absent : present(value));
    }
    case 'nullable': {
      const present = compile((def as unknown as z.core.$ZodNullableDef).innerType);
      return (value) => (value === null ? SAME : present(value));
    }
    case 'union':
      return union((def as unknown as z.core.$ZodUnionDef).options.map((option) => compile(option)));
    case 'pipe': {
      // The input side decides validity; what comes out is the transform's, so zod gives it.
      const input = compile((def as unknown as z.core.$ZodPipeDef).in);
      return (value) => (input(value) === INVALID ? INVALID : OTHER);
    }
    default:
      return unknown;
  }
}

const unknown: Check = () => OTHER;

type ZodCheck = { _zod: { check(payload: Payload): unknown; def: { when?: unknown } } };

function leaf(schema: Schema): Check {
  const internals = schema._zod as unknown as {
    def: { type: string; coerce?: boolean; checks?: ZodCheck[] };
    values?: ReadonlySet<unknown>;
    parse(payload: Payload, ctx: typeof SYNC): unknown;
    run(payload: Payload, ctx: typeof SYNC): unknown;
  };
  const def = internals.def;
  const checks = def.checks ?? [];
  // The plainest leaves, tested as zod's own parse tests them, without a call into it.
  if (checks.length === 0 && !def.coerce) {
    if (def.type === 'string') return (value) => (typeof value === 'string' ? SAME : INVALID);
    const values = internals.values;
    if (def.type === 'enum' && values) return (value) => (values.has(value) ? SAME : INVALID);
  }
  // zod's own parse of the type, then its checks in order, as its run does while no issue has
  // come; a conditional check is left to zod's run. An indexed loop: zod's allocates under load.
  const conditional = checks.some((check) => check._zod.def.when !== undefined);
  return (value) => {
    scratch.value = value;
    let fit: Fit = SAME;
    if (conditional) {
      if (internals.run(scratch, SYNC) !== scratch) fit = OTHER;
      else if (scratch.issues.length > 0) fit = INVALID;
    } else if (internals.parse(scratch, SYNC) !== scratch) {
      fit = OTHER;
    } else if (scratch.issues.length > 0) {
      fit = INVALID;
    } else {
      for (let i = 0; i < checks.length; i++) {
        if (checks[i]!._zod.check(scratch) instanceof Promise) fit = OTHER;
        else if (scratch.issues.length > 0) fit = INVALID;
        if (fit !== SAME) break;
      }
    }
    if (fit === SAME && scratch.value !== value) fit = OTHER;
    scratch.issues.length = 0;
    scratch.value = undefined;
    return fit;
  };
}

function object(def: z.core.$ZodObjectDef, extraKeys: readonly string[]): Check {
  // A catchall (strict or passthrough objects) changes what unknown keys mean.
  if (def.catchall !== undefined) return unknown;
  const keys = Object.keys(def.shape);
  const fields = keys.map((key) => compile(def.shape[key]!));
  const allowed: ReadonlySet<string> = new Set([...keys, ...extraKeys]);
  return (value) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return INVALID;
    const record = value as Record<string, unknown>;
    let fit: Fit = SAME;
    for (let i = 0; i < keys.length; i++) {
      const field = fields[i]!(record[keys[i]!]);
      if (field === INVALID) return INVALID;
      if (field === OTHER) fit = OTHER;
    }
    if (fit === SAME) {
      // zod strips keys the contract does not name.
      for (const key in record) if (!allowed.has(key)) return OTHER;
    }
    return fit;
  };
}

function array(element: Check): Check {
  return (value) => {
    if (!Array.isArray(value)) return INVALID;
    let fit: Fit = SAME;
    for (let i = 0; i < value.length; i++) {
      const item = element(value[i]);
      if (item === INVALID) return INVALID;
      if (item === OTHER) fit = OTHER;
    }
    return fit;
  };
}

/** zod takes the first option that passes; an option it might take but changes ends the search. */
function union(options: Check[]): Check {
  return (value) => {
    for (const option of options) {
      const fit = option(value);
      if (fit !== INVALID) return fit;
    }
    return INVALID;
  };
}
